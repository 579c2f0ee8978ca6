//! The `everything` target's logic (see `fuzz_targets/everything.rs`), shared with the property
//! test `tests/it/everything.rs` (which includes this file with `#[path]`): a world mixing
//! every kind of body and obstacle, built from bytes, stepped with the checks below.
//!
//! The world: closed or open sides, a grid of walls, bricks, slope cells and sensor cells
//! (wall and brick restitution 0 to 10), static segments, polylines (repeated and collinear
//! points among them: a refused polyline must be a typed [`WorldError`]), circles, convex
//! polygons, sensor circles, flippers pressed and released at random, static, kinematic,
//! dynamic and sensor rectangles, balls on random layers and masks with gravity scales −1 to 2,
//! gravity of any direction and size up to [`MAX_GRAVITY`], restitution 0 to 10, sleep
//! on or off, ball–ball on or off, and a contact hook giving random legal answers.
//!
//! Checked after every step ([`run`]): no panic and no hook error; every ball's and rectangle's
//! state finite; no ball inside solid static geometry it collides with (the `embedded` count
//! of `collide run`, `apps/cli/src/stats.rs`, tolerance 1e-6; a static rectangle the hook
//! lets a ball pass through does not count for that ball until they part) and no dynamic box inside a
//! solid cell or a static rectangle by more than 1e-6; no energy gain (kinetic plus
//! potential, 1e-9 relative) when nothing can add energy (every restitution at most 1, no
//! flipper, no moving kinematic rectangle, no hook velocity) and the step pushed nothing out
//! and lost nothing;
//! the same state hash after every step with 1 and 2 threads; a snapshot taken at a random
//! step restored into the world as built continues with the same state hashes.

use collide_world::{
    Aabb, BallDesc, BallId, Body, BodyState, Cell, ContactHook, ContactInfo, ContactResponse,
    Corner, Event, Filter, FlipperDesc, FlipperId, GridDesc, Obstacle, RectDesc, RectId, RectKind,
    Scene, ShapeDesc, StepConfig, Surface, Target, Vec2, Walls, World, WorldError,
};
use std::sync::{Mutex, PoisonError};

/// `collide run`'s embedding count, reused rather than written twice.
#[allow(dead_code)]
#[path = "../../apps/cli/src/stats.rs"]
mod stats;

/// Tolerance of the box embedding check, world units (as `stats::TOLERANCE`).
const BOX_TOLERANCE: f64 = 1e-6;
/// Relative tolerance of the energy check.
const ENERGY_REL: f64 = 1e-9;
/// Largest gravity drawn, units/s².
pub const MAX_GRAVITY: f64 = 1e5;
/// Most steps of one input.
pub const MAX_STEPS: usize = 40;

/// Reads bytes front to back; past the end every read is 0.
struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl Bytes<'_> {
    fn u8(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    fn u16(&mut self) -> u16 {
        u16::from(self.u8()) | u16::from(self.u8()) << 8
    }

    fn bit(&mut self) -> bool {
        self.u8() & 1 != 0
    }

    /// Uniform in `[lo, hi]`.
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * f64::from(self.u16()) / f64::from(u16::MAX)
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[usize::from(self.u8()) % items.len()]
    }

    fn point(&mut self, size: Vec2) -> Vec2 {
        Vec2::new(self.range(0.0, size.x), self.range(0.0, size.y))
    }

    /// A velocity of up to `max` units/s in any direction.
    fn vel(&mut self, max: f64) -> Vec2 {
        let a = self.range(0.0, std::f64::consts::TAU);
        Vec2::new(a.cos(), a.sin()) * self.range(0.0, max)
    }

    /// A restitution: 0 to 1 mostly, a kicker (1 to 10) sometimes.
    fn restitution(&mut self) -> f64 {
        match self.u8() % 8 {
            0 => 1.0,
            1 => self.range(1.0, 10.0),
            _ => self.range(0.0, 1.0),
        }
    }

    fn filter(&mut self) -> Filter {
        let layers = u32::from(self.u8() % 3) + 1;
        let mask = self.pick(&[u32::MAX, u32::MAX, 1, 2, 3, 0]);
        Filter::new(layers, mask)
    }
}

/// Restitution, filter and sensor flag of one description, set in one place.
fn ball_desc(pos: Vec2, vel: Vec2, radius: f64, gravity_scale: f64, s: Surface) -> BallDesc {
    BallDesc {
        pos,
        vel,
        radius,
        density: 1.0,
        gravity_scale,
        surface: Surface { sensor: false, ..s },
    }
}

fn rect_desc(aabb: Aabb, vel: Vec2, kind: RectKind, s: Surface) -> RectDesc {
    RectDesc {
        aabb,
        vel,
        // A sensor moves as a kinematic rectangle.
        kind: if s.sensor { RectKind::Kinematic } else { kind },
        density: 1.0,
        surface: s,
    }
}

fn with_surface(mut d: ShapeDesc, s: Surface) -> ShapeDesc {
    d.surface = s;
    d
}

fn flipper_desc(mut d: FlipperDesc, s: Surface) -> FlipperDesc {
    d.surface = Surface { sensor: false, ..s };
    d
}

/// The hook's answers: none, the step's bounce or passing through, or also a new velocity.
#[derive(Clone, Copy, Debug, PartialEq)]
enum HookMode {
    None,
    ReflectOrIgnore,
    Any,
}

/// A contact hook whose answers are random but a function of the contact alone (so the same
/// with any thread count) and always legal: `Ignore` only for a ball meeting a ball or a
/// static or kinematic rectangle, a velocity no faster than the ball's own.
struct RandomHook {
    mode: HookMode,
    seed: u64,
    dynamic: Vec<RectId>,
    /// The (ball, rectangle) pairs it answered `Ignore`: the ball passes through the
    /// rectangle, inside it by design until they part, so the embedding check leaves that
    /// rectangle out for that ball meanwhile. Written only, never read by the answers.
    passing: Mutex<Vec<(BallId, RectId)>>,
}

impl RandomHook {
    fn passing(&self) -> std::sync::MutexGuard<'_, Vec<(BallId, RectId)>> {
        self.passing.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl RandomHook {
    fn can_ignore(&self, c: &ContactInfo) -> bool {
        matches!(c.first.body, Body::Ball(_))
            && match c.other {
                Obstacle::Body(BodyState { body, .. }) => match body {
                    Body::Ball(_) => true,
                    Body::Rect(r) => !self.dynamic.contains(&r),
                    Body::Character(_) => false,
                },
                _ => false,
            }
    }
}

impl ContactHook for RandomHook {
    fn on_contact(&self, c: &ContactInfo) -> ContactResponse {
        let mut h = self.seed ^ c.time.to_bits();
        h ^= c.first.vel.x.to_bits().rotate_left(17) ^ c.first.vel.y.to_bits().rotate_left(41);
        h = h.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
        match (h % 4, self.mode) {
            (1, _) if self.can_ignore(c) => {
                if let (
                    Body::Ball(b),
                    Obstacle::Body(BodyState {
                        body: Body::Rect(r),
                        ..
                    }),
                ) = (c.first.body, c.other)
                {
                    let mut passing = self.passing();
                    if !passing.contains(&(b, r)) {
                        passing.push((b, r));
                    }
                }
                ContactResponse::Ignore
            }
            (2, HookMode::Any) => {
                let a = (h >> 8) as f64 / (1u64 << 56) as f64 * std::f64::consts::TAU;
                // No faster than the ball, nor than a hook may answer (a component within
                // `MAX_COORD`: a body's own motion may be faster).
                let speed = c.first.vel.length().min(collide_world::limits::MAX_COORD)
                    * ((h >> 3) % 100) as f64
                    / 100.0;
                ContactResponse::Velocity(Vec2::new(a.cos(), a.sin()) * speed)
            }
            _ => ContactResponse::Reflect,
        }
    }
}

/// A world built from bytes, with what is done between its steps.
pub struct Case {
    world: World,
    hook: RandomHook,
    flippers: Vec<FlipperId>,
    /// Per step, the flippers' pressed state set before it.
    presses: Vec<Vec<bool>>,
    /// The step after which the snapshot is taken.
    snap_at: usize,
    /// Whether the energy may not grow.
    energy_kept: bool,
}

/// Step settings: dt, gravity up to the limit in any direction, restitution, sleep.
fn step_config(b: &mut Bytes) -> StepConfig {
    let dt = b.pick(&[1.0 / 60.0, 1.0 / 30.0, 1.0 / 120.0, 0.1]);
    let angle = b.range(0.0, std::f64::consts::TAU);
    // Up to `MAX_GRAVITY` (below the accepted limit `MAX_COORD`, where one step's cost grows
    // with gravity: docs/reliability.md, "Every feature together").
    let magnitude = match b.u8() % 6 {
        0 => 0.0,
        1 => MAX_GRAVITY,
        _ => 10f64.powf(b.range(0.0, MAX_GRAVITY.log10())),
    };
    StepConfig {
        dt,
        ball_ball: b.bit(),
        // The world's own restitution is at most 1; kickers are per body or material.
        restitution: b.range(0.0, 1.0),
        gravity: Vec2::new(angle.cos(), angle.sin()) * magnitude,
        sleep: b.bit(),
        ..StepConfig::default()
    }
}

/// A grid of up to 12 × 12 cells of every kind.
fn grid(b: &mut Bytes, size: Vec2) -> Option<GridDesc> {
    if !b.bit() {
        return None;
    }
    let cols = usize::from(b.u8() % 12) + 1;
    let rows = usize::from(b.u8() % 12) + 1;
    let cell = b.range(4.0, 40.0);
    let origin = b.point(size * 0.5);
    let cells = (0..cols * rows)
        .map(|_| match b.u8() % 10 {
            0 => Cell::Wall,
            1 => Cell::Brick(b'R'),
            2 => Cell::Slope(b.pick(&Corner::ALL)),
            3 => Cell::Sensor(b'S'),
            _ => Cell::Empty,
        })
        .collect();
    let mat = |b: &mut Bytes| b.bit().then(|| b.restitution());
    Some(GridDesc {
        cell,
        origin,
        cols,
        rows,
        cells,
        wall_restitution: mat(b),
        brick_restitution: mat(b),
        wall_filter: b.filter(),
        brick_filter: Filter::DEFAULT,
        sensor_filter: Filter::DEFAULT,
    })
}

/// A surface: restitution (none: the world's), filter, sensor flag.
fn surface(b: &mut Bytes, sensor: bool) -> Surface {
    Surface {
        restitution: b.bit().then(|| b.restitution()),
        filter: b.filter(),
        sensor,
        one_way: false,
    }
}

/// Whether every restitution in the world is at most 1.
fn no_kicker(w: &World) -> bool {
    let c = w.config();
    let ok = |r: Option<f64>| r.is_none_or(|r| r <= 1.0);
    c.restitution <= 1.0
        && w.balls().iter().all(|x| ok(x.restitution))
        && w.rects().iter().all(|x| ok(x.surface.restitution))
        && w.shapes().iter().all(|x| ok(x.surface.restitution))
        && w.grid().is_none_or(|g| {
            ok(g.restitution_of(Cell::Wall)) && ok(g.restitution_of(Cell::Brick(b'R')))
        })
}

/// Static obstacles: segments, polylines, circles, polygons, sensor circles.
fn add_shapes(b: &mut Bytes, w: &mut World, size: Vec2) -> Result<(), String> {
    for _ in 0..b.u8() % 4 {
        let (p, q) = (b.point(size), b.point(size));
        let s = surface(b, false);
        // A segment of length 0 may be refused (a typed error); the world is unchanged then.
        let _ = w.add_shape(with_surface(ShapeDesc::segment(p, q), s));
    }
    for _ in 0..b.u8() % 3 {
        let mut pts: Vec<Vec2> = Vec::new();
        for _ in 0..(b.u8() % 6) + 1 {
            let p = match (b.u8() % 4, pts.last(), pts.len()) {
                // A repeated point.
                (0, Some(&q), _) => q,
                // A point collinear with the last two.
                (1, Some(&q), n) if n >= 2 => q + (q - pts[n - 2]) * b.range(-1.0, 2.0),
                _ => b.point(size),
            };
            pts.push(p.clamp(Vec2::ZERO, size));
        }
        let s = surface(b, false);
        // A refusal is a typed error naming its field; the world is unchanged then.
        let before = w.shapes().len();
        if let Err(e) = w.add_polyline(&pts, b.bit(), s.restitution, s.filter) {
            if e.to_string().is_empty() || w.shapes().len() != before {
                return Err(format!(
                    "polyline {pts:?}: refused as {e:?}, shapes changed"
                ));
            }
        }
    }
    for _ in 0..b.u8() % 3 {
        let sensor = b.u8() % 3 == 0;
        let s = surface(b, sensor);
        let (c, r) = (b.point(size), b.range(0.5, 40.0));
        w.add_shape(with_surface(ShapeDesc::circle(c, r), s))
            .map_err(|e| format!("circle {c} {r}: {e}"))?;
    }
    for _ in 0..b.u8() % 3 {
        let c = b.point(size);
        let pts: Vec<Vec2> = (0..(b.u8() % 5) + 3)
            .map(|_| (c + b.vel(40.0)).clamp(Vec2::ZERO, size))
            .collect();
        let s = surface(b, false);
        if let Ok(d) = ShapeDesc::polygon(&pts) {
            w.add_shape(with_surface(d, s))
                .map_err(|e| format!("polygon {pts:?}: {e}"))?;
        }
    }
    Ok(())
}

/// Rectangles of every kind; dynamic ones only where no solid cell or static rectangle is.
fn add_rects(b: &mut Bytes, w: &mut World, size: Vec2, dynamic: &mut Vec<RectId>) {
    for _ in 0..b.u8() % 5 {
        let kind = b.pick(&[
            RectKind::Static,
            RectKind::Kinematic,
            RectKind::Dynamic,
            RectKind::Static,
        ]);
        let sensor = b.u8() % 4 == 0;
        let min = b.point(size);
        let aabb = Aabb::new(min, min + Vec2::new(b.range(1.0, 60.0), b.range(1.0, 60.0)));
        let vel = match kind {
            RectKind::Static => Vec2::ZERO,
            _ if b.bit() => Vec2::ZERO,
            _ => b.vel(300.0),
        };
        let s = Surface {
            filter: Filter::DEFAULT,
            ..surface(b, sensor)
        };
        if kind == RectKind::Dynamic && !sensor && box_embedded(w, &aabb, 0.0) {
            continue;
        }
        if let Ok(id) = w.add_rect(rect_desc(aabb, vel, kind, s)) {
            if kind == RectKind::Dynamic && !sensor {
                dynamic.push(id);
            }
        }
    }
}

/// Flippers of any length, radius, angles and speed up to the limit.
fn add_flippers(b: &mut Bytes, w: &mut World, size: Vec2) -> Vec<FlipperId> {
    let mut ids = Vec::new();
    for _ in 0..b.u8() % 3 {
        let pivot = b.point(size);
        let rest = b.range(-3.0, 3.0);
        let speed = 10f64
            .powf(b.range(0.0, 4.0))
            .min(collide_world::limits::MAX_FLIPPER_ANGULAR_SPEED);
        let d = FlipperDesc::new(
            pivot,
            b.range(5.0, 60.0),
            b.range(0.5, 8.0),
            rest,
            rest + b.range(-2.0, 2.0),
            speed,
        );
        let s = surface(b, false);
        if let Ok(id) = w.add_flipper(flipper_desc(d, s)) {
            ids.push(id);
        }
    }
    ids
}

/// Balls where they are free (and apart when ball–ball is on).
fn add_balls(b: &mut Bytes, w: &mut World, size: Vec2) {
    for _ in 0..(b.u8() % 10) + 1 {
        let pos = b.point(size);
        let radius = b.pick(&[0.0, 1.0, 2.0, 4.0, 8.0, 3.5]) + b.range(0.0, 1.0);
        let max_speed = b.pick(&[10.0, 200.0, 2000.0]);
        let vel = b.vel(max_speed);
        let scale = b.pick(&[1.0, 1.0, 0.0, -1.0, 2.0]);
        let s = surface(b, false);
        let apart = w
            .balls()
            .iter()
            .all(|o| (o.pos - pos).length() > o.radius + radius + 1e-3);
        if w.circle_is_free(pos, radius, None) && apart {
            w.add_ball(ball_desc(pos, vel, radius, scale, s))
                .expect("a ball inside the limits");
        }
    }
}

/// Builds a case from bytes; `None` when the bytes make no world with a ball.
pub fn build(data: &[u8]) -> Result<Option<Case>, String> {
    let b = &mut Bytes { data, pos: 0 };
    let flags = b.u8();
    let walls = Walls {
        left: flags & 1 == 0,
        top: flags & 2 == 0,
        right: flags & 4 == 0,
        bottom: flags & 8 == 0,
    };
    let size = Vec2::new(b.range(50.0, 400.0), b.range(50.0, 400.0));
    let step = step_config(b);
    let grid = grid(b, size);
    let scene = Scene {
        size,
        walls,
        grid,
        step,
        ..Scene::default()
    };
    let mut world = match World::from_scene(&scene) {
        Ok(w) => w,
        Err(WorldError::Grid { .. }) => return Ok(None),
        Err(e) => return Err(format!("scene refused: {e}")),
    };
    add_shapes(b, &mut world, size)?;
    let mut dynamic = Vec::new();
    add_rects(b, &mut world, size, &mut dynamic);
    let flippers = add_flippers(b, &mut world, size);
    add_balls(b, &mut world, size);
    if world.balls().is_empty() {
        return Ok(None);
    }
    let mode = b.pick(&[HookMode::None, HookMode::ReflectOrIgnore, HookMode::Any]);
    let steps = usize::from(b.u8()) % MAX_STEPS + 1;
    let snap_at = usize::from(b.u8()) % steps;
    let presses: Vec<Vec<bool>> = (0..steps)
        .map(|_| flippers.iter().map(|_| b.bit()).collect())
        .collect();
    let energy_kept = no_kicker(&world)
        && flippers.is_empty()
        && mode != HookMode::Any
        && world
            .rects()
            .iter()
            .all(|r| r.kind != RectKind::Kinematic || r.vel == Vec2::ZERO);
    let seed = u64::from(b.u16()) << 16 | u64::from(b.u16());
    Ok(Some(Case {
        world,
        hook: RandomHook {
            mode,
            seed,
            dynamic,
            passing: Mutex::new(Vec::new()),
        },
        flippers,
        presses,
        snap_at,
        energy_kept,
    }))
}

/// Whether `aabb` (shrunk by `tol`) overlaps a solid cell or a static rectangle.
fn box_embedded(w: &World, aabb: &Aabb, tol: f64) -> bool {
    let inner = Aabb::new(aabb.min + tol, aabb.max - tol);
    if inner.min.x >= inner.max.x || inner.min.y >= inner.max.y {
        return false;
    }
    let overlap = |a: &Aabb| {
        a.min.x < inner.max.x
            && inner.min.x < a.max.x
            && a.min.y < inner.max.y
            && inner.min.y < a.max.y
    };
    let mut in_cell = false;
    if let Some(g) = w.grid() {
        // Wall and brick cells, by their squares; a slope cell's triangle is not measured.
        g.for_each_solid_in(&inner, |c, cell| {
            in_cell |= !matches!(cell, Cell::Slope(_))
                && g.filter_of(cell)
                    .is_some_and(|f| Filter::DEFAULT.collides(f))
                && overlap(&g.cell_aabb(c));
        });
    }
    in_cell
        || w.rects()
            .iter()
            .any(|r| r.kind == RectKind::Static && overlap(&r.aabb))
}

/// Whether a box of `size` and `filter` has room somewhere in `w`: it is no longer along an
/// axis than the room between that axis's two closed walls, and a side is open or a scan of
/// the closed world (at most 256 positions along each axis) finds a position where it
/// overlaps (by more than `tol`) no solid cell (a slope cell by its half), no static
/// rectangle and no solid static shape it collides with. A box with no room is left where the
/// push-out's axis pushes leave it, as documented.
fn box_has_room(w: &World, size: Vec2, filter: Filter, tol: f64) -> bool {
    let walls = w.walls();
    let span = w.size() - size;
    if walls.left && walls.right && span.x < 0.0 || walls.top && walls.bottom && span.y < 0.0 {
        return false;
    }
    if !(walls.left && walls.right && walls.top && walls.bottom) {
        return true;
    }
    let mut found = Vec::new();
    let mut blocked = |b: &Aabb| {
        if box_embedded(w, b, tol) {
            return true;
        }
        found.clear();
        w.query_aabb(&Aabb::new(b.min + tol, b.max - tol), filter, &mut found);
        found.iter().any(|t| match *t {
            Target::Cell(_) => true,
            Target::Shape(id) => w.shape(id).is_some_and(|s| !s.surface.sensor),
            _ => false,
        })
    };
    let steps = |s: f64| ((s / 0.25).ceil() as usize).clamp(1, 256);
    let (nx, ny) = (steps(span.x), steps(span.y));
    (0..=nx).any(|i| {
        (0..=ny).any(|j| {
            let min = Vec2::new(span.x * i as f64 / nx as f64, span.y * j as f64 / ny as f64);
            !blocked(&Aabb::new(min, min + size))
        })
    })
}

/// The state checks after one step; `passing`, the balls passing through a rectangle by the
/// hook's answer.
fn check_state(w: &World, dynamic: &[RectId], passing: &[(BallId, RectId)]) -> Result<(), String> {
    for b in w.balls().iter() {
        if !(b.pos.is_finite() && b.vel.is_finite()) {
            return Err(format!("ball not finite: {b:?}"));
        }
    }
    for r in w.rects() {
        if !(r.aabb.min.is_finite() && r.aabb.max.is_finite() && r.vel.is_finite()) {
            return Err(format!("rect not finite: {r:?}"));
        }
        if dynamic.contains(&r.id)
            && box_embedded(w, &r.aabb, BOX_TOLERANCE)
            && box_has_room(w, r.aabb.max - r.aabb.min, r.surface.filter, BOX_TOLERANCE)
        {
            return Err(format!("box inside static geometry: {r:?}"));
        }
    }
    let embedded = stats::embedded_except(w, |b, r| passing.contains(&(b, r)));
    if embedded > 0 {
        return Err(format!("{embedded} balls inside static geometry"));
    }
    Ok(())
}

/// Steps `case` with `threads` threads; returns the state hash after every step, and the
/// snapshot taken after step `snap_at`.
fn play(case: &Case, threads: usize) -> Result<(Vec<u64>, collide_world::Snapshot), String> {
    let mut w = case.world.clone();
    w.set_threads(threads);
    case.hook.passing().clear();
    let mut hashes = Vec::new();
    let mut snap = None;
    for (k, pressed) in case.presses.iter().enumerate() {
        press(&mut w, &case.flippers, pressed)?;
        let before = w.energy();
        let scale = w.kinetic_energy() + w.potential_energy().abs();
        w.step_with(&case.hook)
            .map_err(|e| format!("step {k}: hook error {e}"))?;
        let mut passing = case.hook.passing();
        check_state(&w, &case.hook.dynamic, &passing).map_err(|e| format!("step {k}: {e}"))?;
        // A pair that has parted (the ball out of the rectangle, or either gone) is checked
        // again; the hook is asked again at their next contact.
        passing.retain(|&(b, r)| match (w.ball(b), w.rect(r)) {
            (Some(b), Some(r)) => collide_core::distance_point_aabb(b.pos, &r.aabb) < b.radius,
            _ => false,
        });
        drop(passing);
        let pushed = w.events().iter().any(|e| {
            matches!(
                e,
                Event::Unembedded { .. }
                    | Event::Squeezed { .. }
                    | Event::FlipperSqueezed { .. }
                    | Event::BallLost { .. }
                    | Event::RectLost { .. }
            )
        });
        let after = w.energy();
        if case.energy_kept && !pushed && after > before + ENERGY_REL * scale.max(1e-300) {
            return Err(format!("step {k}: energy {before:e} -> {after:e}"));
        }
        hashes.push(w.state_hash());
        if k == case.snap_at {
            snap = Some(w.snapshot());
        }
    }
    Ok((hashes, snap.expect("snap_at < steps")))
}

fn press(w: &mut World, flippers: &[FlipperId], pressed: &[bool]) -> Result<(), String> {
    for (&id, &p) in flippers.iter().zip(pressed) {
        w.set_flipper_pressed(id, p)
            .map_err(|e| format!("flipper {id:?}: {e}"))?;
    }
    Ok(())
}

/// Builds the case and plays it with every check; `Err` says what failed.
pub fn run(data: &[u8]) -> Result<(), String> {
    let Some(case) = build(data)? else {
        return Ok(());
    };
    let (one, snap) = play(&case, 1)?;
    let (two, _) = play(&case, 2)?;
    if let Some(k) = one.iter().zip(&two).position(|(a, b)| a != b) {
        return Err(format!("1 and 2 threads differ after step {k}"));
    }
    // The snapshot restored into the world as built continues with the same bits.
    let mut w = case.world.clone();
    w.restore(&snap).map_err(|e| format!("restore: {e}"))?;
    for k in case.snap_at + 1..case.presses.len() {
        press(&mut w, &case.flippers, &case.presses[k])?;
        w.step_with(&case.hook)
            .map_err(|e| format!("restored step {k}: hook error {e}"))?;
        if w.state_hash() != one[k] {
            return Err(format!("restored world differs after step {k}"));
        }
    }
    Ok(())
}
