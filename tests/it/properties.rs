//! Property tests of the world over random scenes (docs/reliability.md).
//!
//! Each case builds a random scene — a tile grid made of walls, brick blocks, L-shapes, single
//! cells and lines; balls of radius 0.5–8 with mixed densities and speeds up to 50 cells per
//! step; static, kinematic and dynamic rectangles; ball–ball collisions on or off; closed or
//! open sides — and runs it for hundreds of steps, checking after **every** step:
//!
//! - no NaN or infinity in any ball or rectangle;
//! - no ball centre outside a closed world, and no ball overlapping a closed wall, a solid cell
//!   or a static rectangle by more than [`TOL`] (1e-9 units);
//! - no two balls overlapping by more than [`TOL`] when ball–ball collisions are on;
//! - kinetic energy unchanged to [`REL`] (1e-9) relative when only static geometry and
//!   ball–ball collisions act (restitution 1, no kinematic or dynamic rectangles);
//! - momentum unchanged to [`REL`] relative (to `Σ m·|v|`) in a ball-only world without walls;
//! - every ball is alive or was reported lost by exactly one `BallLost` event.
//!
//! Balls start apart and free (checked when the scene is built), so any push-out
//! (`Unembedded`) after the start is itself a failure in the static worlds.
//!
//! Shrunk failures are kept at the end of the file as `regression_*` tests.
//!
//! Run: `cargo test --release -p collide-tests --test it properties::` (figures in
//! `docs/reliability.md`). The cases are the same on every run (fixed seed); to explore:
//! `PROPTEST_RNG_SEED=<n>`, `PROPTEST_CASES=<n>`, `COLLIDE_PROP_MAX_EVENTS=<n>` (event bound),
//! `COLLIDE_PROP_TRACE=1` with `--nocapture` (balls, steps and events of each case), and
//! `PROPTEST_FORK=true PROPTEST_TIMEOUT=10000` (a hanging case becomes a shrinkable failure).

use collide_world::Contact;
use collide_world::Target;
use std::collections::BTreeSet;

use collide_core::{distance_point_aabb, Aabb, Vec2};
use collide_world::{
    BallDesc, BallId, Body, Cell, CellCoord, Event, Grid, GridDesc, RectDesc, RectKind, Scene,
    StepConfig, Surface, Walls, World,
};
use proptest::prelude::*;

/// Largest overlap tolerated between a ball and a wall, a solid cell, a static rectangle or
/// another ball, world units.
const TOL: f64 = 1e-9;
/// Relative tolerance of the conservation laws.
const REL: f64 = 1e-9;
/// The fixed step of every scene, seconds.
const DT: f64 = 1.0 / 60.0;
/// Cases per property (`PROPTEST_CASES` overrides).
const CASES: u32 = 48;
/// Steps per case.
const STEPS: usize = 300;
/// Default seed of the case generator.
const SEED: u64 = 6;

// ---------------------------------------------------------------------------------------------
// Scene descriptions drawn by proptest

/// A group of solid cells, in cell coordinates (clipped to the grid).
#[derive(Clone, Debug)]
enum Piece {
    /// One cell.
    Single { col: usize, row: usize },
    /// A horizontal (`vertical = false`) or vertical line of `len` cells.
    Line {
        col: usize,
        row: usize,
        len: usize,
        vertical: bool,
    },
    /// A filled `w × h` block.
    Block {
        col: usize,
        row: usize,
        w: usize,
        h: usize,
    },
    /// An L: a vertical arm of `h` cells and a horizontal arm of `w` cells sharing the corner
    /// cell; `turn` (0..4) rotates it by quarter turns.
    L {
        col: usize,
        row: usize,
        w: usize,
        h: usize,
        turn: u8,
    },
}

#[derive(Clone, Debug)]
struct PieceSpec {
    piece: Piece,
    /// Bricks (`R`) instead of walls.
    brick: bool,
}

#[derive(Clone, Debug)]
struct BallSpec {
    /// Centre as a fraction of the world's size.
    at: (f64, f64),
    /// Direction (not normalised; a zero direction gives a ball at rest).
    dir: (f64, f64),
    /// Speed as a fraction of 50 cells per step (cubed: most balls are slower).
    speed: f64,
    radius: f64,
    density: f64,
}

#[derive(Clone, Debug)]
struct RectSpec {
    kind: RectKind,
    /// Top-left corner as a fraction of the world's size.
    at: (f64, f64),
    /// Size in cells.
    size: (f64, f64),
    /// Velocity in cells per step (kinematic and dynamic rectangles).
    vel: (f64, f64),
    density: f64,
}

#[derive(Clone, Debug)]
struct SceneSpec {
    cols: usize,
    rows: usize,
    cell: f64,
    /// A ring of wall cells around the grid.
    ring: bool,
    pieces: Vec<PieceSpec>,
    balls: Vec<BallSpec>,
    rects: Vec<RectSpec>,
    walls: Walls,
    ball_ball: bool,
    destructible: bool,
    restitution: f64,
    max_events: u32,
}

fn piece() -> impl Strategy<Value = PieceSpec> {
    let p =
        prop_oneof![
            (0..40usize, 0..40usize).prop_map(|(col, row)| Piece::Single { col, row }),
            (0..40usize, 0..40usize, 2..20usize, any::<bool>()).prop_map(
                |(col, row, len, vertical)| {
                    Piece::Line {
                        col,
                        row,
                        len,
                        vertical,
                    }
                }
            ),
            (0..40usize, 0..40usize, 1..6usize, 1..6usize)
                .prop_map(|(col, row, w, h)| Piece::Block { col, row, w, h }),
            (0..40usize, 0..40usize, 2..8usize, 2..8usize, 0..4u8).prop_map(
                |(col, row, w, h, turn)| Piece::L {
                    col,
                    row,
                    w,
                    h,
                    turn
                }
            ),
        ];
    (p, proptest::bool::weighted(0.4)).prop_map(|(piece, brick)| PieceSpec { piece, brick })
}

fn ball_spec() -> impl Strategy<Value = BallSpec> {
    (
        (0.0..1.0f64, 0.0..1.0f64),
        (-1.0..1.0f64, -1.0..1.0f64),
        0.0..1.0f64,
        0.5..8.0f64,
        prop_oneof![Just(1.0), 0.1..10.0f64],
    )
        .prop_map(|(at, dir, speed, radius, density)| BallSpec {
            at,
            dir,
            speed,
            radius,
            density,
        })
}

fn rect_spec(kinds: Vec<RectKind>) -> impl Strategy<Value = RectSpec> {
    (
        proptest::sample::select(kinds),
        (0.0..1.0f64, 0.0..1.0f64),
        (0.0..6.0f64, 0.0..3.0f64),
        (-8.0..8.0f64, -8.0..8.0f64),
        0.1..10.0f64,
    )
        .prop_map(|(kind, at, size, vel, density)| RectSpec {
            kind,
            at,
            size,
            vel,
            density,
        })
}

fn walls_closed() -> impl Strategy<Value = Walls> {
    Just(Walls::ALL)
}

fn walls_any() -> impl Strategy<Value = Walls> {
    (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()).prop_map(
        |(left, top, right, bottom)| Walls {
            left,
            top,
            right,
            bottom,
        },
    )
}

/// A scene over a grid, with rectangles of the given kinds (none if empty).
fn scene_spec(
    walls: impl Strategy<Value = Walls>,
    rect_kinds: Vec<RectKind>,
    elastic: bool,
) -> impl Strategy<Value = SceneSpec> {
    let rects = if rect_kinds.is_empty() {
        Just(Vec::new()).boxed()
    } else {
        proptest::collection::vec(rect_spec(rect_kinds), 0..5).boxed()
    };
    let restitution = if elastic {
        Just(1.0).boxed()
    } else {
        prop_oneof![Just(1.0), 0.0..1.0f64].boxed()
    };
    (
        (8..40usize, 8..40usize, 4.0..16.0f64, any::<bool>()),
        proptest::collection::vec(piece(), 0..12),
        proptest::collection::vec(ball_spec(), 1..24),
        rects,
        walls,
        (any::<bool>(), any::<bool>(), restitution),
    )
        .prop_map(
            |((cols, rows, cell, ring), pieces, balls, rects, walls, (bb, destr, e))| SceneSpec {
                cols,
                rows,
                cell,
                ring,
                pieces,
                balls,
                rects,
                walls,
                ball_ball: bb,
                destructible: destr,
                restitution: e,
                max_events: max_events(),
            },
        )
}

/// The step's event bound: the default 256, or `COLLIDE_PROP_MAX_EVENTS` (to explore with
/// fewer `IterationLimit` stops, or more).
fn max_events() -> u32 {
    std::env::var("COLLIDE_PROP_MAX_EVENTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(StepConfig::default().max_events_per_body)
}

// ---------------------------------------------------------------------------------------------
// Building a world from a description

fn cells_of(spec: &SceneSpec) -> Vec<Cell> {
    let (cols, rows) = (spec.cols, spec.rows);
    let mut cells = vec![Cell::Empty; cols * rows];
    let mut put = |c: usize, r: usize, cell: Cell| {
        if c < cols && r < rows {
            cells[r * cols + c] = cell;
        }
    };
    if spec.ring {
        for c in 0..cols {
            put(c, 0, Cell::Wall);
            put(c, rows - 1, Cell::Wall);
        }
        for r in 0..rows {
            put(0, r, Cell::Wall);
            put(cols - 1, r, Cell::Wall);
        }
    }
    for p in &spec.pieces {
        let cell = if p.brick {
            Cell::Brick(b'R')
        } else {
            Cell::Wall
        };
        match p.piece {
            Piece::Single { col, row } => put(col, row, cell),
            Piece::Line {
                col,
                row,
                len,
                vertical,
            } => {
                for k in 0..len {
                    if vertical {
                        put(col, row + k, cell);
                    } else {
                        put(col + k, row, cell);
                    }
                }
            }
            Piece::Block { col, row, w, h } => {
                for r in row..row + h {
                    for c in col..col + w {
                        put(c, r, cell);
                    }
                }
            }
            Piece::L {
                col,
                row,
                w,
                h,
                turn,
            } => {
                // Corner cell at (col, row) + the arms, mirrored by `turn`.
                let (sx, sy): (isize, isize) = [(1, 1), (-1, 1), (-1, -1), (1, -1)][turn as usize];
                let at = |dx: usize, dy: usize| -> Option<(usize, usize)> {
                    let c = col as isize + sx * dx as isize;
                    let r = row as isize + sy * dy as isize;
                    (c >= 0 && r >= 0).then_some((c as usize, r as usize))
                };
                for k in 0..w {
                    if let Some((c, r)) = at(k, 0) {
                        put(c, r, cell);
                    }
                }
                for k in 0..h {
                    if let Some((c, r)) = at(0, k) {
                        put(c, r, cell);
                    }
                }
            }
        }
    }
    cells
}

/// What a built world holds besides the world itself.
struct Built {
    world: World,
    /// Kinematic rectangles (their velocity is reversed every [`KINEMATIC_PERIOD`] steps, as a
    /// paddle going back and forth).
    kinematic: bool,
    dynamic: bool,
}

const KINEMATIC_PERIOD: usize = 30;

/// Builds the world: grid, rectangles (dynamic ones only where free), then the balls that fit
/// where they are drawn, free of everything and of each other. `None` if no ball fits.
fn build(spec: &SceneSpec) -> Option<Built> {
    let cell = spec.cell;
    let size = Vec2::new(spec.cols as f64 * cell, spec.rows as f64 * cell);
    let scene = Scene {
        size,
        walls: spec.walls,
        grid: Some(GridDesc {
            cell,
            origin: Vec2::ZERO,
            cols: spec.cols,
            rows: spec.rows,
            cells: cells_of(spec),
            wall_restitution: None,
            brick_restitution: None,
            brick_filter: collide_world::Filter::DEFAULT,
            sensor_filter: collide_world::Filter::DEFAULT,
            wall_filter: collide_world::Filter::DEFAULT,
        }),
        step: StepConfig {
            dt: DT,
            ball_ball: spec.ball_ball,
            restitution: spec.restitution,
            destructible_bricks: spec.destructible,
            max_events_per_body: spec.max_events,
            gravity: Vec2::ZERO,
            sleep: true,
        },
        ..Scene::default()
    };
    let mut world = World::from_scene(&scene).expect("valid scene");
    let mut kinematic = false;
    let mut dynamic = false;
    for r in &spec.rects {
        let min = Vec2::new(r.at.0 * size.x, r.at.1 * size.y);
        let aabb = Aabb::new(min, min + Vec2::new(r.size.0, r.size.1) * cell);
        if r.kind == RectKind::Dynamic && !box_is_free(&world, &aabb) {
            continue;
        }
        world
            .add_rect(RectDesc {
                aabb,
                vel: Vec2::new(r.vel.0, r.vel.1) * (cell / DT),
                kind: r.kind,
                density: r.density,
                surface: Surface::DEFAULT,
            })
            .expect("valid rect");
        kinematic |= r.kind == RectKind::Kinematic;
        dynamic |= r.kind == RectKind::Dynamic;
    }
    let mut placed: Vec<BallDesc> = Vec::new();
    for b in &spec.balls {
        let pos = Vec2::new(b.at.0 * size.x, b.at.1 * size.y);
        let dir = Vec2::new(b.dir.0, b.dir.1);
        let speed = b.speed.powi(3) * 50.0 * cell / DT;
        let vel = dir.try_normalize().map_or(Vec2::ZERO, |d| d * speed);
        let desc = BallDesc {
            pos,
            vel,
            radius: b.radius,
            density: b.density,
            surface: Surface::DEFAULT,
            gravity_scale: 1.0,
        };
        let free = world.circle_is_free(pos, b.radius, None)
            && placed
                .iter()
                .all(|o| (o.pos - pos).length() >= o.radius + b.radius);
        if free {
            world.add_ball(desc).expect("valid ball");
            placed.push(desc);
        }
    }
    (!placed.is_empty()).then_some(Built {
        world,
        kinematic,
        dynamic,
    })
}

/// Whether a box is inside the closed walls and overlaps no solid cell and no rectangle.
fn box_is_free(world: &World, aabb: &Aabb) -> bool {
    let (s, w) = (world.size(), world.walls());
    if w.left && aabb.min.x < 0.0
        || w.top && aabb.min.y < 0.0
        || w.right && aabb.max.x > s.x
        || w.bottom && aabb.max.y > s.y
    {
        return false;
    }
    let mut hits = Vec::new();
    world.query_aabb(aabb, collide_world::Filter::ALL, &mut hits);
    hits.is_empty()
}

// ---------------------------------------------------------------------------------------------
// The checks

/// Which checks apply to a run.
#[derive(Clone, Copy, Default)]
struct Checks {
    /// No two balls overlap (ball–ball on, balls started apart).
    ball_pairs: bool,
    /// Kinetic energy conserved.
    energy: bool,
    /// Momentum conserved.
    momentum: bool,
    /// No `Unembedded` event (nothing can push a ball into anything).
    no_push_out: bool,
}

/// Runs `steps` steps, checking the invariants after each; `Err` describes the first failure.
fn run(built: Built, steps: usize, checks: Checks) -> Result<(), String> {
    let mut w = built.world;
    let mut alive: BTreeSet<BallId> = w.balls().iter().map(|b| b.id).collect();
    let e0 = w.kinetic_energy();
    let p0 = w.momentum();
    let p_scale: f64 = w.balls().iter().map(|b| b.mass() * b.vel.length()).sum();
    let trace = std::env::var_os("COLLIDE_PROP_TRACE").is_some();
    let mut events = 0usize;
    if trace {
        eprintln!(
            "case: {} balls, {} rects, grid {:?}",
            w.balls().len(),
            w.rects().len(),
            w.grid().map(|g| (g.cols(), g.rows()))
        );
    }
    for step in 1..=steps {
        if built.kinematic && step % KINEMATIC_PERIOD == 0 {
            let flips: Vec<_> = w
                .rects()
                .iter()
                .filter(|r| r.kind == RectKind::Kinematic)
                .map(|r| (r.id, -r.vel))
                .collect();
            for (id, v) in flips {
                w.set_rect_velocity(id, v).expect("kinematic rect");
            }
        }
        w.step();
        events += w.events().len();
        let fail = |what: String| Err(format!("after step {step}: {what}"));
        for e in w.events() {
            match e {
                Event::BallLost { ball, .. } if !alive.remove(ball) => {
                    return fail(format!("{ball:?} lost but was not alive"));
                }
                Event::Unembedded {
                    body: Body::Ball(_),
                    ..
                } if checks.no_push_out => {
                    return fail(format!("unexpected push-out: {e:?}"));
                }
                _ => {}
            }
        }
        let now: BTreeSet<BallId> = w.balls().iter().map(|b| b.id).collect();
        if now != alive {
            return fail(format!(
                "balls vanished without BallLost: {:?}",
                alive.difference(&now).collect::<Vec<_>>()
            ));
        }
        check_state(&w, checks).or_else(fail)?;
        if checks.energy {
            let e = w.kinetic_energy();
            if (e - e0).abs() > REL * e0 {
                return fail(format!(
                    "kinetic energy {e} != {e0} (relative {:e})",
                    (e - e0).abs() / e0
                ));
            }
        }
        if checks.momentum {
            let p = w.momentum();
            if (p - p0).length() > REL * p_scale {
                return fail(format!(
                    "momentum {p} != {p0} (relative to sum m|v| {:e})",
                    (p - p0).length() / p_scale
                ));
            }
        }
    }
    if trace {
        eprintln!(
            "  {steps} steps, {events} events, {} balls left",
            w.balls().len()
        );
    }
    Ok(())
}

/// The per-step state invariants: finite values, closed walls, solid cells, static rectangles
/// and (if asked) ball pairs.
fn check_state(w: &World, checks: Checks) -> Result<(), String> {
    let (size, walls) = (w.size(), w.walls());
    for r in w.rects() {
        if !(r.aabb.min.is_finite() && r.aabb.max.is_finite() && r.vel.is_finite()) {
            return Err(format!("non-finite rect {r:?}"));
        }
    }
    for b in w.balls() {
        if !(b.pos.is_finite() && b.vel.is_finite()) {
            return Err(format!("non-finite ball {b:?}"));
        }
        let r = b.radius;
        let (x, y) = (b.pos.x, b.pos.y);
        if walls.left && x < r - TOL
            || walls.top && y < r - TOL
            || walls.right && x > size.x - r + TOL
            || walls.bottom && y > size.y - r + TOL
        {
            return Err(format!("{b:?} overlaps a closed wall of {size}"));
        }
        if let Some(g) = w.grid() {
            if let Some(d) = g.distance_to_solid(b.pos, r) {
                if d < r - TOL {
                    return Err(format!("{b:?} overlaps a solid cell by {:e}", r - d));
                }
            }
        }
        for rc in w.rects() {
            if rc.kind == RectKind::Static {
                let d = distance_point_aabb(b.pos, &rc.aabb);
                if d < r - TOL {
                    return Err(format!("{b:?} overlaps static {rc:?} by {:e}", r - d));
                }
            }
        }
    }
    if checks.ball_pairs {
        let balls: Vec<_> = w.balls().collect();
        for (i, a) in balls.iter().enumerate() {
            for b in &balls[i + 1..] {
                let d = (a.pos - b.pos).length();
                if d < a.radius + b.radius - TOL {
                    return Err(format!(
                        "balls overlap by {:e}: {a:?} and {b:?}",
                        a.radius + b.radius - d
                    ));
                }
            }
        }
    }
    Ok(())
}

/// A ball-only scene without walls: balls in a cluster of 16 × 16 cells in the middle of a
/// world large enough that none can leave within [`STEPS`] steps; with `inward`, every ball is
/// aimed at the cluster's centre (give or take its drawn direction), so that they collide a lot.
fn open_cluster_spec() -> impl Strategy<Value = (Vec<BallSpec>, f64, bool)> {
    (
        proptest::collection::vec(ball_spec(), 2..24),
        4.0..16.0f64,
        any::<bool>(),
    )
}

fn build_open_cluster(balls: &[BallSpec], cell: f64, inward: bool) -> Option<World> {
    // Speeds up to 50 cells per step: in STEPS steps a ball goes at most 50 * STEPS cells,
    // times the speed-up of collisions (an elastic hit at most doubles a light ball's speed
    // relative to the heavier one; many hits cannot exceed the total energy). A world 2·10^6
    // cells wide with the cluster in the middle keeps every ball inside with a wide margin.
    let cluster = 16.0 * cell;
    let half = 1.0e6 * cell;
    let centre = Vec2::splat(half);
    let mut w = World::new(
        Vec2::splat(2.0 * half),
        Walls::NONE,
        StepConfig {
            dt: DT,
            max_events_per_body: max_events(),
            ..StepConfig::default()
        },
    )
    .expect("valid world");
    let mut placed: Vec<BallDesc> = Vec::new();
    for b in balls {
        let pos = centre + Vec2::new(b.at.0 - 0.5, b.at.1 - 0.5) * cluster;
        let mut dir = Vec2::new(b.dir.0, b.dir.1);
        if inward {
            dir = dir * 0.3 + (centre - pos).try_normalize().unwrap_or(Vec2::ZERO);
        }
        let vel = dir
            .try_normalize()
            .map_or(Vec2::ZERO, |d| d * (b.speed.powi(3) * 50.0 * cell / DT));
        let desc = BallDesc {
            pos,
            vel,
            radius: b.radius,
            density: b.density,
            surface: Surface::DEFAULT,
            gravity_scale: 1.0,
        };
        if placed
            .iter()
            .all(|o| (o.pos - pos).length() >= o.radius + b.radius)
        {
            w.add_ball(desc).expect("valid ball");
            placed.push(desc);
        }
    }
    (placed.len() >= 2).then_some(w)
}

// ---------------------------------------------------------------------------------------------
// The properties

/// [`CASES`] cases unless `PROPTEST_CASES` says otherwise; the other `PROPTEST_*` variables
/// apply too (`PROPTEST_FORK=true PROPTEST_TIMEOUT=10000` turns a hang into a shrinkable
/// failure).
fn config() -> ProptestConfig {
    let mut c = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        c.cases = CASES;
    }
    // The same cases on every run (a reliability suite must not flake); explore with
    // `PROPTEST_RNG_SEED=<n>`.
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        c.rng_seed = proptest::test_runner::RngSeed::Fixed(SEED);
    }
    // Shrunk failures are kept as named `regression_*` tests below, not in a seed file.
    c.failure_persistence = None;
    c
}

proptest! {
    #![proptest_config(config())]

    /// Closed world, grid, static rectangles, restitution 1: nothing leaves, nothing overlaps,
    /// no push-out is ever needed, and kinetic energy is conserved.
    #[test]
    fn static_world_keeps_balls_free_inside_and_conserves_energy(
        spec in scene_spec(walls_closed(), vec![RectKind::Static], true)
    ) {
        if let Some(built) = build(&spec) {
            let checks = Checks {
                ball_pairs: spec.ball_ball,
                energy: true,
                momentum: false,
                no_push_out: true,
            };
            if let Err(e) = run(built, STEPS, checks) {
                return Err(TestCaseError::fail(format!("{e}\n{spec:?}")));
            }
        }
    }

    /// Closed world with kinematic (paddles going back and forth) and dynamic rectangles,
    /// any restitution: balls stay finite, inside, out of solid cells and static rectangles;
    /// without kinematic rectangles, ball pairs never overlap either.
    #[test]
    fn moving_rects_keep_balls_finite_inside_and_out_of_static_geometry(
        spec in scene_spec(
            walls_closed(),
            vec![RectKind::Static, RectKind::Kinematic, RectKind::Dynamic],
            false,
        )
    ) {
        if let Some(built) = build(&spec) {
            let checks = Checks {
                ball_pairs: spec.ball_ball && !built.kinematic,
                ..Checks::default()
            };
            if let Err(e) = run(built, STEPS, checks) {
                return Err(TestCaseError::fail(format!("{e}\n{spec:?}")));
            }
        }
    }

    /// Open sides, every kind of rectangle: every ball is alive or reported lost once; the
    /// closed sides, solid cells and static rectangles still hold.
    #[test]
    fn open_sides_every_ball_is_alive_or_reported_lost(
        spec in scene_spec(
            walls_any(),
            vec![RectKind::Static, RectKind::Kinematic, RectKind::Dynamic],
            false,
        )
    ) {
        if let Some(built) = build(&spec) {
            let checks = Checks {
                ball_pairs: spec.ball_ball && !built.kinematic && !built.dynamic,
                ..Checks::default()
            };
            if let Err(e) = run(built, STEPS, checks) {
                return Err(TestCaseError::fail(format!("{e}\n{spec:?}")));
            }
        }
    }

}

proptest! {
    // Cheap cases (balls fly apart after a few hits): four times as many.
    #![proptest_config(ProptestConfig { cases: config().cases * 4, ..config() })]

    /// Balls only, no walls, ball–ball on, restitution 1: momentum and kinetic energy are
    /// conserved and no pair overlaps.
    #[test]
    fn ball_only_open_world_conserves_momentum_and_energy(
        (balls, cell, inward) in open_cluster_spec()
    ) {
        if let Some(world) = build_open_cluster(&balls, cell, inward) {
            let built = Built { world, kinematic: false, dynamic: false };
            let checks = Checks {
                ball_pairs: true,
                energy: true,
                momentum: true,
                no_push_out: true,
            };
            if let Err(e) = run(built, STEPS, checks) {
                return Err(TestCaseError::fail(format!(
                    "{e}\n{balls:?} cell {cell} inward {inward}"
                )));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: config().cases * 4, ..config() })]

    /// The grid's clearance (what lets a ball skip the grid walk) is never more than the true
    /// distance to the nearest solid cell, computed here by brute force over every cell, on
    /// grids of random density, at points inside and around the grid, also after cells are
    /// placed and removed (map refreshed or not); next to a tile it is the distance itself
    /// whenever the nearest solid cell is a neighbour nearer than the ring beyond them.
    #[test]
    fn grid_clearance_is_a_lower_bound_of_the_distance_to_solid_cells(
        (cols, rows) in (1usize..12, 1usize..12),
        cell in prop_oneof![Just(25.0), 0.5f64..40.0],
        density in 0.0f64..0.6,
        seed in any::<u64>(),
        edits in prop::collection::vec((0usize..12, 0usize..12, any::<bool>()), 0..4),
        refresh in any::<bool>(),
        points in prop::collection::vec((-0.3f64..1.3, -0.3f64..1.3), 1..40),
    ) {
        let mut x = seed | 1;
        let mut rnd = move || {
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
        };
        let cells: Vec<Cell> = (0..cols * rows)
            .map(|_| if rnd() < density { Cell::Wall } else { Cell::Empty })
            .collect();
        let origin = Vec2::new(-7.0, 3.0);
        let mut grid =
            Grid::new(&GridDesc { cell, origin, cols, rows, cells, wall_restitution: None, brick_restitution: None, brick_filter: collide_world::Filter::DEFAULT, sensor_filter: collide_world::Filter::DEFAULT, wall_filter: collide_world::Filter::DEFAULT,  }).expect("a valid grid");
        for (c, r, solid) in edits {
            let cc = CellCoord::new((c % cols) as u32, (r % rows) as u32);
            grid.set_cell(cc, if solid { Cell::Wall } else { Cell::Empty });
        }
        if refresh {
            grid.refresh_clearance();
        }
        let size = Vec2::new(cols as f64, rows as f64) * cell;
        for (fx, fy) in points {
            let p = origin + Vec2::new(fx, fy) * size;
            let mut truth = f64::INFINITY;
            let mut neighbour = f64::INFINITY;
            let home = ((p - origin) / cell).floor();
            for r in 0..rows {
                for c in 0..cols {
                    let cc = CellCoord::new(c as u32, r as u32);
                    if grid.cell(cc).is_solid() {
                        let b = Aabb::new(
                            origin + Vec2::new(c as f64, r as f64) * cell,
                            origin + Vec2::new(c as f64 + 1.0, r as f64 + 1.0) * cell,
                        );
                        let d = distance_point_aabb(p, &b);
                        truth = truth.min(d);
                        if (c as f64 - home.x).abs() <= 1.0 && (r as f64 - home.y).abs() <= 1.0 {
                            neighbour = neighbour.min(d);
                        }
                    }
                }
            }
            let clear = grid.clearance(p);
            prop_assert!(
                clear <= truth * (1.0 + 1e-12) + 1e-12,
                "clearance {clear} > distance {truth} at {p} ({fx}, {fy})"
            );
            let inside = fx > 0.0 && fx < 1.0 && fy > 0.0 && fy < 1.0;
            let local = (p - origin) / cell - home;
            let gap = local.x.min(1.0 - local.x).min(local.y).min(1.0 - local.y) * cell;
            if refresh && inside && neighbour == truth && truth > 0.0 && truth <= gap + cell {
                prop_assert!(
                    (clear - truth).abs() <= 1e-9 * cell,
                    "clearance {clear} next to a tile at distance {truth}, at {p}"
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Checks of the checks: each invariant above can fail.

#[test]
fn the_state_checks_catch_each_kind_of_overlap() {
    use collide_tests::{ball, world_with_cells};
    let checks = Checks {
        ball_pairs: true,
        ..Checks::default()
    };
    // Two balls 8 apart with radii 5: overlap 2.
    let mut w = World::new(Vec2::new(100.0, 100.0), Walls::ALL, StepConfig::default()).unwrap();
    w.add_ball(ball((50.0, 50.0), (0.0, 0.0), 5.0, 1.0))
        .unwrap();
    w.add_ball(ball((58.0, 50.0), (0.0, 0.0), 5.0, 1.0))
        .unwrap();
    assert!(check_state(&w, checks)
        .unwrap_err()
        .contains("balls overlap"));
    // Past a closed wall.
    let mut w = World::new(Vec2::new(100.0, 100.0), Walls::ALL, StepConfig::default()).unwrap();
    w.add_ball(ball((4.0, 50.0), (0.0, 0.0), 5.0, 1.0)).unwrap();
    assert!(check_state(&w, checks).unwrap_err().contains("closed wall"));
    // Into a solid cell (cell (5, 5) = [50, 60]²).
    let mut w = world_with_cells(Vec2::new(100.0, 100.0), DT, 10.0, 10, 10, &[(5, 5)]);
    w.add_ball(ball((46.0, 55.0), (0.0, 0.0), 5.0, 1.0))
        .unwrap();
    assert!(check_state(&w, checks).unwrap_err().contains("solid cell"));
    // Into a static rectangle.
    let mut w = World::new(Vec2::new(100.0, 100.0), Walls::ALL, StepConfig::default()).unwrap();
    w.add_rect(RectDesc {
        aabb: Aabb::new(Vec2::new(50.0, 50.0), Vec2::new(60.0, 60.0)),
        ..RectDesc::default()
    })
    .unwrap();
    w.add_ball(ball((55.0, 45.0 + 1e-8), (0.0, 0.0), 5.0, 1.0))
        .unwrap();
    assert!(check_state(&w, checks).unwrap_err().contains("static"));
    // Touching everything at once is fine.
    let mut w = World::new(Vec2::new(100.0, 100.0), Walls::ALL, StepConfig::default()).unwrap();
    w.add_ball(ball((5.0, 5.0), (0.0, 0.0), 5.0, 1.0)).unwrap();
    w.add_ball(ball((15.0, 5.0), (0.0, 0.0), 5.0, 1.0)).unwrap();
    assert_eq!(check_state(&w, checks), Ok(()));
}

#[test]
fn the_run_checks_catch_energy_and_momentum_changes() {
    use collide_tests::ball;
    // A ball hitting a wall with restitution 0.5 loses energy.
    let config = StepConfig {
        dt: DT,
        restitution: 0.5,
        ..StepConfig::default()
    };
    let mut w = World::new(Vec2::new(100.0, 100.0), Walls::ALL, config).unwrap();
    w.add_ball(ball((50.0, 50.0), (600.0, 0.0), 1.0, 1.0))
        .unwrap();
    let built = |world| Built {
        world,
        kinematic: false,
        dynamic: false,
    };
    let energy = Checks {
        energy: true,
        ..Checks::default()
    };
    let err = run(built(w.clone()), 10, energy).unwrap_err();
    assert!(err.contains("kinetic energy"), "{err}");
    // A bounce off a wall (elastic) reverses the momentum.
    w.set_config(StepConfig {
        dt: DT,
        ..StepConfig::default()
    })
    .unwrap();
    assert!(run(built(w.clone()), 10, energy).is_ok());
    let momentum = Checks {
        momentum: true,
        ..Checks::default()
    };
    let err = run(built(w), 10, momentum).unwrap_err();
    assert!(err.contains("momentum"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// Regressions: shrunk failures of the properties above.

/// Runs a kept failure for [`STEPS`] steps with the checks of the property that found it.
fn replay(spec: &SceneSpec, checks: Checks) -> Result<(), String> {
    run(build(spec).expect("the scene holds balls"), STEPS, checks)
}

/// Finding P1 of `docs/reliability.md`, found by
/// `moving_rects_keep_balls_finite_inside_and_out_of_static_geometry` (shrunk; no moving
/// rectangle was needed). What makes it pass: frozen bodies are obstacles at rest, and the TC
/// rule against inelastic collapse (docs/algorithms.md).
///
/// A light ball (density 0.1) rests against the top wall; a heavy one (density 2.9) comes up
/// under it. With restitution 0.28 the light ball is caught between wall and heavy ball: they
/// collide again and again at the same instant (inelastic collapse; with restitution 1 a mass
/// ratio m/M needs about π·sqrt(M/m) hits, over 256 from M/m = 6700). At the 256th event the
/// light ball stops for the rest of the step (`IterationLimit`, as documented), but a stopped
/// ball is no longer an obstacle to anyone: the heavy ball moves on into it, 0.25 units deep
/// at step 118. A stopped body must still block the others.
#[test]
fn regression_frozen_ball_is_passed_through_by_the_others() {
    let spec = SceneSpec {
        cols: 8,
        rows: 8,
        cell: 12.615458898748438,
        ring: false,
        pieces: vec![],
        balls: vec![
            BallSpec {
                at: (0.6046578562816973, 0.4023514101842646),
                dir: (-0.6929723702144496, 0.0),
                speed: 0.0,
                radius: 7.730234628071083,
                density: 0.1,
            },
            BallSpec {
                at: (0.44386280207553064, 0.3558908508527573),
                dir: (-0.07605193454393078, 0.0),
                speed: 0.9917985914791242,
                radius: 7.583697300374616,
                density: 2.9196713799806338,
            },
        ],
        rects: vec![RectSpec {
            kind: RectKind::Static,
            at: (0.5345286356787112, 0.13909266302815515),
            size: (1.6906754705952967, 0.07927589239615646),
            vel: (0.0, 0.0),
            density: 0.1,
        }],
        walls: Walls::ALL,
        ball_ball: true,
        destructible: false,
        restitution: 0.2757858143119748,
        max_events: 256,
    };
    let checks = Checks {
        ball_pairs: true,
        ..Checks::default()
    };
    assert_eq!(replay(&spec, checks), Ok(()));
}

/// Finding P2 of `docs/reliability.md`, found by
/// `moving_rects_keep_balls_finite_inside_and_out_of_static_geometry` (shrunk to two balls in
/// an empty closed box: nothing of the property's moving rectangles was needed), in the step (`step/`).
///
/// A ball of radius 2 at 2276 units/s (38 units per step, more than the box's side of 32)
/// and a ball of radius 0.5 at rest: after a few dozen steps of wall bounces (several per
/// step) the step misses one of their collisions and they pass through each other (overlap
/// 0.6 to 1.9 units, no `ball_ball` contact).
#[test]
fn regression_fast_pair_in_a_small_box_passes_through_each_other() {
    let spec = SceneSpec {
        cols: 8,
        rows: 8,
        cell: 4.0,
        ring: false,
        pieces: vec![],
        balls: vec![
            BallSpec {
                at: (0.7318997776943257, 0.46121362222916384),
                dir: (0.0, 0.0),
                speed: 0.0,
                radius: 0.5,
                density: 1.0,
            },
            BallSpec {
                at: (0.24046435230241114, 0.23134981763446325),
                dir: (0.5295062656778415, 0.6426905071372997),
                speed: 0.574568350382106,
                radius: 2.025571581846199,
                density: 1.0,
            },
        ],
        rects: vec![],
        walls: Walls::ALL,
        ball_ball: true,
        destructible: false,
        restitution: 1.0,
        max_events: 256,
    };
    let checks = Checks {
        ball_pairs: true,
        energy: true,
        no_push_out: true,
        ..Checks::default()
    };
    assert_eq!(replay(&spec, checks), Ok(()));
}

/// Finding P2 of `docs/reliability.md`, found by `open_sides_every_ball_is_alive_or_reported_lost`
/// (shrunk), in the step (`step/`).
///
/// No walls, a block of two wall cells, six balls: in the very first step the ball of radius
/// 6.9 going up at 7215 units/s and the ball of radius 6.0 going down-left at 1416 units/s
/// end the step 2 units deep into each other without a `ball_ball` contact.
#[test]
fn regression_ball_pair_missed_in_the_first_step_of_an_open_world() {
    let spec = SceneSpec {
        cols: 8,
        rows: 8,
        cell: 9.502573831004554,
        ring: false,
        pieces: vec![PieceSpec {
            piece: Piece::Block {
                col: 2,
                row: 0,
                w: 2,
                h: 1,
            },
            brick: false,
        }],
        balls: vec![
            BallSpec {
                at: (0.3464258416242137, 0.4577812536938924),
                dir: (-0.7616879485331235, 0.0),
                speed: 0.5497296582801456,
                radius: 7.479176983404353,
                density: 1.0,
            },
            BallSpec {
                at: (0.5383753021723794, 0.0),
                dir: (0.0, 0.0),
                speed: 0.0,
                radius: 0.5,
                density: 1.0,
            },
            BallSpec {
                at: (0.3291847868108485, 0.6930994640325241),
                dir: (0.0, -0.8930063186689431),
                speed: 0.6326347772304771,
                radius: 6.917889209338324,
                density: 1.0,
            },
            BallSpec {
                at: (0.0, 0.0),
                dir: (0.0, 0.0),
                speed: 0.0,
                radius: 0.5,
                density: 1.0,
            },
            BallSpec {
                at: (0.0, 0.44142510459580553),
                dir: (0.0, 0.0),
                speed: 0.0,
                radius: 0.5,
                density: 1.0,
            },
            BallSpec {
                at: (0.5661849035180229, 0.27088145492764426),
                dir: (-0.23220894482132295, 0.35965412863073964),
                speed: 0.3675794369970907,
                radius: 6.01758713704724,
                density: 1.0,
            },
        ],
        rects: vec![RectSpec {
            kind: RectKind::Static,
            at: (0.3944133336868302, 0.7619889445038033),
            size: (0.0, 0.0),
            vel: (0.0, 0.0),
            density: 0.1,
        }],
        walls: Walls::NONE,
        ball_ball: true,
        destructible: false,
        restitution: 1.0,
        max_events: 256,
    };
    let checks = Checks {
        ball_pairs: true,
        ..Checks::default()
    };
    assert_eq!(replay(&spec, checks), Ok(()));
}

/// Found by `open_sides_every_ball_is_alive_or_reported_lost` explored with
/// `COLLIDE_PROP_MAX_EVENTS=65536` (a case took over 5 s: shrunk to one dynamic rectangle in
/// a ring of wall tiles, then written with the world's API): finding F3 of
/// `docs/reliability.md`, in `collide_core::sweep_aabb_aabb`. A dynamic rectangle bouncing
/// between a floor and a ceiling of tiles ends a bounce sunk ~1e-14 into a tile (its position
/// is a sum of moves).
/// Moving out of it, the slab test saw it "entering" the tile's far face in the past and
/// reflected it back in; then the near face reflected it out, and so on at the same instant
/// until the event bound, every step: the rectangle stuck in the tile for good.
#[test]
fn regression_dynamic_rect_sticks_in_a_tile_it_sank_into_by_rounding() {
    let (cols, rows, cell) = (27usize, 23usize, 4.0);
    let mut cells = vec![Cell::Empty; cols * rows];
    for c in 0..cols {
        cells[c] = Cell::Wall;
        cells[(rows - 1) * cols + c] = Cell::Wall;
    }
    for r in 0..rows {
        cells[r * cols] = Cell::Wall;
        cells[r * cols + cols - 1] = Cell::Wall;
    }
    let scene = Scene {
        size: Vec2::new(cols as f64 * cell, rows as f64 * cell),
        walls: Walls {
            left: false,
            top: false,
            right: true,
            bottom: false,
        },
        grid: Some(GridDesc {
            cell,
            origin: Vec2::ZERO,
            cols,
            rows,
            cells,
            wall_restitution: None,
            brick_restitution: None,
            brick_filter: collide_world::Filter::DEFAULT,
            sensor_filter: collide_world::Filter::DEFAULT,
            wall_filter: collide_world::Filter::DEFAULT,
        }),
        step: StepConfig {
            destructible_bricks: false,
            ..StepConfig::default()
        },
        ..Scene::default()
    };
    let mut w = World::from_scene(&scene).unwrap();
    let min = Vec2::new(4.099188408493269, 78.43532470697083);
    let id = w
        .add_rect(RectDesc {
            aabb: Aabb::new(min, min + Vec2::splat(1.0)),
            vel: Vec2::new(0.0, 1238.0072576940004),
            kind: RectKind::Dynamic,
            density: 0.1,
            surface: Surface::DEFAULT,
        })
        .unwrap();
    let mut bounces = 0;
    for step in 0..300 {
        w.step();
        for e in w.events() {
            assert!(
                !matches!(e, Event::IterationLimit { .. }),
                "step {step}: {e:?}"
            );
            bounces += usize::from(matches!(
                e,
                Event::Contact(Contact {
                    body: Body::Rect(_),
                    other: Target::Cell(_),
                    ..
                })
            ));
        }
        let r = w.rect(id).unwrap();
        assert!(
            r.aabb.min.y >= 4.0 - 1e-9 && r.aabb.max.y <= 88.0 + 1e-9,
            "{r:?}"
        );
        assert_eq!(r.vel.y.abs(), 1238.0072576940004);
    }
    // 300 steps of 1238 / 60 = 20.6 units in a corridor of 84 - 1 units: ~74 bounces.
    assert!((70..=80).contains(&bounces), "{bounces} bounces");
}
