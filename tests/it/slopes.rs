//! Slope cells (`Cell::Slope`, level characters `1` `3` `7` `9`): 45° half-tiles met at their
//! exact times on straight and parabolic paths, by balls and boxes, with no obstacle where
//! the diagonals of a ramp join (no ghost collision), never tunnelled, kept by snapshots,
//! pushed out of exactly.

use crate::build::ball;
use collide_world::rng::XorShift64Star;
use collide_world::Body;
use collide_world::Contact;
use collide_world::Target;
use collide_world::{
    Aabb, Cell, CellCoord, Corner, Event, Feature, Features, Grid, RectDesc, RectKind, StepConfig,
    Vec2, World,
};

const SQRT_2: f64 = std::f64::consts::SQRT_2;

fn world(size: Vec2, gravity: Vec2, rows: &[&str], cell: f64) -> World {
    let e = StepConfig::default().restitution;
    crate::build::world_with_rows(size, gravity, e, cell, rows)
}

/// Steps until `t_end`, returning every event with its absolute time.
fn events_until(w: &mut World, t_end: f64) -> Vec<(f64, Event)> {
    let mut out = Vec::new();
    while w.time() < t_end - 1e-12 {
        let t0 = w.time();
        for e in w.step().to_vec() {
            let toi = match e {
                Event::Contact(Contact {
                    body: Body::Ball(_),
                    other: Target::Cell(_),
                    toi,
                    ..
                })
                | Event::Contact(Contact {
                    body: Body::Rect(_),
                    other: Target::Cell(_),
                    toi,
                    ..
                }) => toi,
                _ => continue,
            };
            out.push((t0 + toi, e));
        }
    }
    out
}

/// One slope `3` (◢, solid bottom-right) at column 2, row 3 of 20-unit cells: the square
/// [40, 60] × [60, 80], its diagonal from (40, 80) to (60, 60) on the line x + y = 120, its
/// normal (−1, −1)/√2 (up and to the left).
const ONE_SLOPE: [&str; 4] = ["", "", "", "  3"];

fn padded(rows: &[&str], width: usize) -> Vec<String> {
    rows.iter().map(|r| format!("{r:width$}")).collect()
}

fn rows_of(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn a_falling_ball_meets_the_diagonal_at_the_computed_time_and_leaves_sideways() {
    // Radius 2 at (50, 10) falling at 100: the centre reaches the line x + y = 120 − 2√2
    // (distance 2 along the normal) at y = 70 − 2√2, after 60 − 2√2 units: toi = (60 − 2√2)/100.
    // Reflected off n = (−1, −1)/√2, (0, 100) becomes (−100, 0).
    let rows = padded(&ONE_SLOPE, 10);
    let mut w = world(Vec2::new(200.0, 200.0), Vec2::ZERO, &rows_of(&rows), 20.0);
    let b = w
        .add_ball(ball(Vec2::new(50.0, 10.0), Vec2::new(0.0, 100.0), 2.0))
        .expect("valid");
    let hits = events_until(&mut w, 0.6);
    assert_eq!(hits.len(), 1, "{hits:?}");
    let (t, e) = hits[0];
    let want = (60.0 - 2.0 * SQRT_2) / 100.0;
    assert!((t - want).abs() < 1e-12, "toi {t} want {want}");
    let Event::Contact(Contact {
        body: Body::Ball(_),
        other: Target::Cell(cell),
        point,
        normal,
        speed,
        feature: Some(feature),
        ..
    }) = e
    else {
        unreachable!()
    };
    assert_eq!(cell, CellCoord::new(2, 3));
    assert_eq!(feature, Feature::Diagonal);
    assert!((normal - Vec2::new(-1.0, -1.0) / SQRT_2).length() < 1e-15);
    assert!((point - Vec2::new(50.0 + SQRT_2, 70.0 - SQRT_2)).length() < 1e-12);
    // The impact speed is the normal part of (0, 100): 100/√2.
    assert!((speed - 100.0 / SQRT_2).abs() < 1e-12);
    let v = w.ball(b).expect("alive").vel;
    assert!((v - Vec2::new(-100.0, 0.0)).length() < 1e-12, "{v}");
}

#[test]
fn a_ball_dropped_under_gravity_meets_the_diagonal_on_its_parabola() {
    // From rest at (50, 10) under g = 1000 down: the same contact after a fall of 60 − 2√2,
    // at t = √(2·(60 − 2√2)/1000), speed g·t, then (−g·t, 0).
    let rows = padded(&ONE_SLOPE, 10);
    let g = 1000.0;
    let mut w = world(
        Vec2::new(200.0, 200.0),
        Vec2::new(0.0, g),
        &rows_of(&rows),
        20.0,
    );
    let b = w
        .add_ball(ball(Vec2::new(50.0, 10.0), Vec2::ZERO, 2.0))
        .expect("valid");
    let want = (2.0 * (60.0 - 2.0 * SQRT_2) / g).sqrt();
    let mut first = None;
    while w.time() < want + 0.01 {
        let t0 = w.time();
        for e in w.step().to_vec() {
            if let Event::Contact(Contact {
                body: Body::Ball(_),
                other: Target::Cell(_),
                toi,
                feature: Some(feature),
                ..
            }) = e
            {
                first.get_or_insert((t0 + toi, feature));
            }
        }
        if first.is_some() {
            break;
        }
    }
    let (t, feature) = first.expect("a hit");
    assert_eq!(feature, Feature::Diagonal);
    assert!((t - want).abs() < 1e-9, "toi {t} want {want}");
    // After the bounce the ball flies horizontally at g·t (then falls again): read its
    // velocity at the bounce from its path at the end of the step.
    let b = w.ball(b).expect("alive");
    let since = w.time() - t;
    let v_at_bounce = b.vel - Vec2::new(0.0, g) * since;
    assert!(
        (v_at_bounce - Vec2::new(-g * want, 0.0)).length() < 1e-9 * g * want,
        "{v_at_bounce}"
    );
}

/// A ramp rising to the right: slopes `3` on a diagonal with walls under them.
const RAMP: [&str; 5] = [
    "          ",
    "     3#   ",
    "    3##   ",
    "   3###   ",
    "##########",
];

#[test]
fn the_joints_of_a_ramp_are_no_obstacle_and_a_sawtooth_has_its_points() {
    let g = Grid::from_rows(20.0, Vec2::ZERO, &RAMP).expect("valid");
    // The joint of (5, 1) and (4, 2) is (100, 40): neither slope has a corner there.
    assert!(!g
        .features(CellCoord::new(5, 1))
        .contains(Features::BOTTOM_LEFT));
    assert!(!g
        .features(CellCoord::new(4, 2))
        .contains(Features::TOP_RIGHT));
    // The top of the ramp, where the diagonal meets the wall's top face at 135°: convex.
    assert!(g
        .features(CellCoord::new(5, 1))
        .contains(Features::TOP_RIGHT));
    // Every leg against a wall is internal; the slope's exposed leg faces nothing.
    assert!(!g.features(CellCoord::new(5, 1)).contains(Features::RIGHT));
    assert!(!g.features(CellCoord::new(3, 3)).contains(Features::BOTTOM));
    // The same slopes without the walls under them touch at points only: convex corners.
    let saw = ["     3", "    3 ", "   3  "];
    let s = Grid::from_rows(20.0, Vec2::ZERO, &saw).expect("valid");
    assert!(s
        .features(CellCoord::new(5, 0))
        .contains(Features::BOTTOM_LEFT));
    assert!(s
        .features(CellCoord::new(4, 1))
        .contains(Features::TOP_RIGHT));
    // A lone slope: both legs exposed, all three vertices convex.
    let one = Grid::from_rows(20.0, Vec2::ZERO, &[" 1 "]).expect("valid");
    let f = one.features(CellCoord::new(1, 0));
    for bit in [
        Features::LEFT,
        Features::BOTTOM,
        Features::TOP_LEFT,
        Features::BOTTOM_LEFT,
        Features::BOTTOM_RIGHT,
    ] {
        assert!(f.contains(bit), "{f:?} lacks {bit:?}");
    }
    assert!(!f.contains(Features::RIGHT) && !f.contains(Features::TOP));
}

#[test]
fn a_ball_dropped_on_a_joint_bounces_as_anywhere_on_the_ramp() {
    // The ramp's surface is the line x + y = 140 from (60, 80) to (120, 20); the joints at
    // (80, 60) and (100, 40). A ball of radius 2 falling at 100 touches the line where its
    // centre is at distance 2: contact point (x + √2, y + √2). Dropped so that the contact is
    // at a joint, or a hair to either side, it leaves at (−100, 0) off the diagonal's normal,
    // never off a corner.
    for joint in [80.0, 100.0] {
        for dx in [-1e-9, 0.0, 1e-9] {
            let mut w = world(Vec2::new(200.0, 200.0), Vec2::ZERO, &RAMP, 20.0);
            let x = joint - SQRT_2 + dx;
            let b = w
                .add_ball(ball(Vec2::new(x, 5.0), Vec2::new(0.0, 100.0), 2.0))
                .expect("valid");
            let y_hit = 140.0 - x - 2.0 * SQRT_2;
            let want = (y_hit - 5.0) / 100.0;
            let hits = events_until(&mut w, want + 0.01);
            assert_eq!(hits.len(), 1, "joint {joint} dx {dx}: {hits:?}");
            let (t, e) = hits[0];
            assert!(
                (t - want).abs() < 1e-12,
                "joint {joint} dx {dx}: {t} vs {want}"
            );
            let Event::Contact(Contact {
                body: Body::Ball(_),
                other: Target::Cell(_),
                normal,
                feature: Some(feature),
                ..
            }) = e
            else {
                unreachable!()
            };
            assert_eq!(feature, Feature::Diagonal, "joint {joint} dx {dx}");
            assert!((normal - Vec2::new(-1.0, -1.0) / SQRT_2).length() < 1e-15);
            let v = w.ball(b).expect("alive").vel;
            assert!((v - Vec2::new(-100.0, 0.0)).length() < 1e-12, "{v}");
        }
    }
}

#[test]
fn a_ball_sliding_along_a_ramp_touches_nothing_at_its_joints() {
    // A ball of radius 2 whose centre moves along x + y = 140 − 2√2, touching the ramp's
    // surface the whole way down from near its top to near its foot: no event (the faces
    // are met only by an approach, and the joints are no obstacle).
    let mut w = world(Vec2::new(200.0, 200.0), Vec2::ZERO, &RAMP, 20.0);
    let d = 2.0 * SQRT_2;
    w.add_ball(ball(
        Vec2::new(112.0 - 1.0, 28.0 + 1.0 - d),
        Vec2::new(-100.0, 100.0),
        2.0,
    ))
    .expect("valid");
    let hits = events_until(&mut w, 0.45);
    assert!(hits.is_empty(), "{hits:?}");
}

#[test]
fn a_falling_box_meets_the_diagonal_corner_first() {
    // A dynamic 4 × 4 box at [44, 48] × [0, 4] falling at 100 onto the slope of ONE_SLOPE:
    // its bottom-right corner (48, 4) reaches the line x + y = 120 at y = 72, after 68 units:
    // toi 0.68, normal (−1, −1)/√2, and an elastic bounce sends it left at 100.
    let rows = padded(&ONE_SLOPE, 10);
    let mut w = world(Vec2::new(200.0, 200.0), Vec2::ZERO, &rows_of(&rows), 20.0);
    let r = w
        .add_rect(RectDesc {
            aabb: Aabb::new(Vec2::new(44.0, 0.0), Vec2::new(48.0, 4.0)),
            kind: RectKind::Dynamic,
            vel: Vec2::new(0.0, 100.0),
            ..RectDesc::default()
        })
        .expect("valid");
    let hits = events_until(&mut w, 0.7);
    assert_eq!(hits.len(), 1, "{hits:?}");
    let (t, e) = hits[0];
    assert!((t - 0.68).abs() < 1e-12, "{t}");
    let Event::Contact(Contact {
        body: Body::Rect(_),
        other: Target::Cell(cell),
        normal,
        ..
    }) = e
    else {
        unreachable!()
    };
    assert_eq!(cell, CellCoord::new(2, 3));
    assert!((normal - Vec2::new(-1.0, -1.0) / SQRT_2).length() < 1e-15);
    let v = w.rect(r).expect("alive").vel;
    assert!((v - Vec2::new(-100.0, 0.0)).length() < 1e-12, "{v}");
}

#[test]
fn a_box_falling_past_a_slopes_empty_half_is_not_stopped() {
    // The same box a cell to the left of the slope's surface: at x in [22, 26] it falls past
    // the slope's square ([40, 60]) and lands on the floor of walls in row 9 (y = 180).
    let rows = padded(&["", "", "", "  3", "", "", "", "", "", "##########"], 10);
    let mut w = world(Vec2::new(200.0, 200.0), Vec2::ZERO, &rows_of(&rows), 20.0);
    w.add_rect(RectDesc {
        aabb: Aabb::new(Vec2::new(22.0, 0.0), Vec2::new(26.0, 4.0)),
        kind: RectKind::Dynamic,
        vel: Vec2::new(0.0, 100.0),
        ..RectDesc::default()
    })
    .expect("valid");
    let hits = events_until(&mut w, 1.8);
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert!((hits[0].0 - 1.76).abs() < 1e-12, "{hits:?}");
}

#[test]
fn balls_in_the_empty_half_are_free_and_balls_in_the_solid_half_are_pushed_to_the_diagonal() {
    // A ball of radius 2 at (45, 65), in the slope's square but 10/√2 ≈ 7.07 above its
    // diagonal: free, never moved. One at (52, 72), 4/√2 inside the solid half: its nearest
    // free position is along the diagonal's normal at distance 2 from the line,
    // (52, 72) − (2 + √2)(1, 1), 2 + 2√2 ≈ 4.8 away (the legs' pushes, to x = 62 or
    // y = 82, are 10 away).
    let rows = padded(&ONE_SLOPE, 10);
    let mut w = world(Vec2::new(200.0, 200.0), Vec2::ZERO, &rows_of(&rows), 20.0);
    let free = w
        .add_ball(ball(Vec2::new(45.0, 65.0), Vec2::ZERO, 2.0))
        .expect("valid");
    let inside = w
        .add_ball(ball(Vec2::new(52.0, 72.0), Vec2::ZERO, 2.0))
        .expect("valid");
    let events = w.step().to_vec();
    let moved: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::Unembedded { to, .. } => Some(*to),
            _ => None,
        })
        .collect();
    assert_eq!(moved.len(), 1, "{events:?}");
    let want = Vec2::new(52.0, 72.0) - Vec2::splat(2.0 + SQRT_2);
    assert!((moved[0] - want).length() < 1e-9, "{} vs {want}", moved[0]);
    assert_eq!(w.ball(free).expect("alive").pos, Vec2::new(45.0, 65.0));
    assert!((w.ball(inside).expect("alive").pos - want).length() < 1e-9);
}

#[test]
fn slope_characters_round_trip_through_levels_scenes_and_snapshots() {
    for (ch, corner) in [
        ('1', Corner::BottomLeft),
        ('3', Corner::BottomRight),
        ('7', Corner::TopLeft),
        ('9', Corner::TopRight),
    ] {
        let cell = collide_scene::level::cell_from_char(ch);
        assert_eq!(cell, Cell::Slope(corner));
        assert_eq!(collide_scene::level::char_from_cell(cell), ch);
    }
    let text = r##"
[world]
size = [200, 100]
[grid]
cell = 20
rows = ["#1 3#", "#7 9#"]
"##;
    let no_levels = |_: &str| Err(std::io::Error::other("no level files here"));
    let scene = collide_scene::from_toml_str(text, "slopes.toml", &no_levels).expect("valid scene");
    let g = scene.grid.as_ref().expect("a grid");
    assert_eq!(g.cells[1], Cell::Slope(Corner::BottomLeft));
    assert_eq!(g.cells[8], Cell::Slope(Corner::TopRight));
    // A world with slopes: a snapshot restores to the same state, and the steps after it
    // are the same bits.
    let mut w = World::from_scene(&scene).expect("valid world");
    let mut rng = XorShift64Star::new(7);
    for _ in 0..20 {
        let pos = Vec2::new(rng.range_f64(10.0, 190.0), rng.range_f64(45.0, 55.0));
        let vel = rng.unit_vector() * 300.0;
        w.add_ball(ball(pos, vel, 1.5)).expect("valid");
    }
    for _ in 0..30 {
        w.step();
    }
    let snap = w.snapshot();
    let mut twin = w.clone();
    for _ in 0..120 {
        w.step();
    }
    twin.restore(&snap).expect("same world");
    for _ in 0..120 {
        twin.step();
    }
    assert_eq!(w.state_hash(), twin.state_hash());
}

/// A valley of slopes with walls under them, 10-unit cells, in a closed 160 × 120 world: the
/// left flank of `1` (◣) on the line y − x = 60, the right flank of `3` (◢) on x + y = 220,
/// a floor of walls at y = 110 between x = 50 and 110.
const VALLEY: [&str; 12] = [
    "                ",
    "                ",
    "                ",
    "                ",
    "                ",
    "                ",
    "1              3",
    "#1            3#",
    "##1          3##",
    "###1        3###",
    "####1      3####",
    "################",
];

fn valley_world(gravity: Vec2, restitution: f64) -> World {
    crate::build::world_with_rows(Vec2::new(160.0, 120.0), gravity, restitution, 10.0, &VALLEY)
}

/// The deepest overlap of any ball with any solid cell's shape.
fn deepest_overlap(w: &World) -> f64 {
    let g = w.grid().expect("a grid");
    let mut worst: f64 = 0.0;
    for b in w.balls().iter() {
        let reach = Aabb::new(b.pos - b.radius, b.pos + b.radius);
        g.for_each_solid_in(&reach, |c, _| {
            if let Some(contact) = g
                .cell_shape(c)
                .and_then(|s| s.contact_circle(b.pos, b.radius))
            {
                worst = worst.max(contact.depth);
            }
        });
    }
    worst
}

#[test]
fn fast_balls_never_tunnel_into_slopes_and_elastic_bounces_keep_the_energy() {
    // 300 balls thrown at up to 1e5 units/s under gravity into the valley: after every step
    // no ball overlaps a slope or a wall (beyond rounding), and with restitution 1 the energy
    // (kinetic plus potential) is kept.
    let mut rng = XorShift64Star::new(20261127);
    let mut diagonal_hits = 0;
    for case in 0..6 {
        let mut w = valley_world(Vec2::new(0.0, 981.0), 1.0);
        for _ in 0..50 {
            let pos = Vec2::new(rng.range_f64(60.0, 100.0), rng.range_f64(5.0, 50.0));
            let speed = 10f64.powf(rng.range_f64(1.0, 5.0));
            w.add_ball(ball(
                pos,
                rng.unit_vector() * speed,
                rng.range_f64(0.5, 3.0),
            ))
            .expect("valid");
        }
        // Balls thrown in overlapping each other are parted by the first step's push-out,
        // which moves them in the field: the energy to keep is the one after it.
        let mut e0 = w.energy();
        for step in 0..120 {
            if step == 1 {
                e0 = w.energy();
            }
            diagonal_hits += w
                .step()
                .iter()
                .filter(|e| {
                    matches!(
                        e,
                        Event::Contact(Contact {
                            body: Body::Ball(_),
                            other: Target::Cell(_),
                            feature: Some(Feature::Diagonal),
                            ..
                        })
                    )
                })
                .count();
            let depth = deepest_overlap(&w);
            assert!(depth < 1e-7, "case {case} step {step}: overlap {depth}");
        }
        let drift = (w.energy() - e0).abs() / e0;
        assert!(drift < 1e-9, "case {case}: energy drift {drift}");
        assert_eq!(
            w.balls().len(),
            50,
            "case {case}: a ball left the closed world"
        );
    }
    assert!(
        diagonal_hits > 1000,
        "{diagonal_hits} hits on the slopes' diagonals"
    );
}

#[test]
fn inelastic_balls_settle_in_the_valley() {
    // With restitution 0.5 balls dropped onto the valley's flanks bounce and slide down them
    // (in flights of at least `REST_TIME`: no resting on a diagonal) and come to rest on the
    // floor between them within 10 s, none ever inside a slope.
    let mut w = valley_world(Vec2::new(0.0, 981.0), 0.5);
    let mut rng = XorShift64Star::new(5);
    for k in 0..12 {
        let pos = Vec2::new(20.0 + 10.0 * k as f64, rng.range_f64(5.0, 40.0));
        w.add_ball(ball(pos, Vec2::ZERO, 2.0)).expect("valid");
    }
    for _ in 0..600 {
        w.step();
        assert!(deepest_overlap(&w) < 1e-7);
    }
    // Down the flanks and resting on the floor between them (y = 110 − 2), sliding along it
    // (no friction), every one; or asleep in the corner of the floor and a flank, caught
    // rattling there at most the touch tolerance above the floor (`crates/world/src/step/sleep/`).
    assert_eq!(w.balls().len(), 12);
    let tol = collide_tests::touch_tolerance(Vec2::new(0.0, 981.0));
    for b in w.balls().iter() {
        if w.ball_asleep(b.id) == Some(true) {
            assert!(b.pos.y <= 108.0 + 1e-9 && b.pos.y > 108.0 - tol, "{b:?}");
            assert_eq!(b.vel, Vec2::ZERO, "{b:?}");
        } else {
            assert!((b.pos.y - 108.0).abs() < 1e-9, "{b:?}");
            assert_eq!(b.vel.y, 0.0, "{b:?}");
        }
        assert!(b.pos.x > 50.0 && b.pos.x < 110.0, "{b:?}");
    }
}
