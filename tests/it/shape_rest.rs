//! Resting and sliding contact on static shapes under gravity (`crates/world/src/step/shape_rest.rs`):
//! a ball comes to rest on a segment, a polyline, a polygon's top face and the top of a
//! circle (no events afterwards, its height exact, asleep when sleep is on), slides down a
//! tilted segment on the exact line of `½·g·sinθ·t²`, and never gains energy.

use collide_world::Body;
use collide_world::Contact;
use collide_world::Target;
use collide_world::{BallDesc, Event, Filter, ShapeDesc, StepConfig, Vec2, Walls, World};

const G: f64 = 1000.0;
const R: f64 = 5.0;

fn world(e: f64, sleep: bool) -> World {
    let config = StepConfig {
        dt: 1.0 / 60.0,
        restitution: e,
        gravity: Vec2::new(0.0, G),
        sleep,
        ..StepConfig::default()
    };
    World::new(Vec2::new(400.0, 500.0), Walls::ALL, config).expect("a valid world")
}

fn ball(pos: Vec2) -> BallDesc {
    BallDesc {
        pos,
        vel: Vec2::ZERO,
        radius: R,
        ..BallDesc::default()
    }
}

/// The floors a ball is dropped on, each with its top at y = 300, and the x to drop it at.
#[derive(Clone, Copy, Debug)]
enum Floor {
    Segment,
    Polyline,
    Polygon,
    Circle,
}

fn add_floor(w: &mut World, floor: Floor) -> f64 {
    match floor {
        Floor::Segment => {
            w.add_shape(ShapeDesc::segment(
                Vec2::new(100.0, 300.0),
                Vec2::new(300.0, 300.0),
            ))
            .expect("valid");
            170.0
        }
        Floor::Polyline => {
            let pts: Vec<Vec2> = (0..=6)
                .map(|k| Vec2::new(50.0 + 50.0 * k as f64, 300.0))
                .collect();
            w.add_polyline(&pts, false, None, Filter::DEFAULT)
                .expect("valid");
            // Right over a straight joint, and between two.
            200.0
        }
        Floor::Polygon => {
            w.add_shape(
                ShapeDesc::polygon(&[
                    Vec2::new(100.0, 300.0),
                    Vec2::new(300.0, 300.0),
                    Vec2::new(300.0, 400.0),
                    Vec2::new(100.0, 400.0),
                ])
                .expect("valid"),
            )
            .expect("valid");
            130.0
        }
        Floor::Circle => {
            w.add_shape(ShapeDesc::circle(Vec2::new(200.0, 400.0), 100.0))
                .expect("valid");
            200.0
        }
    }
}

/// Steps `n` times; the events of each step and the world's energy after it.
fn run(w: &mut World, n: usize) -> Vec<(usize, f64)> {
    (0..n)
        .map(|_| {
            let events = w.step().len();
            (events, w.energy())
        })
        .collect()
}

#[test]
fn a_dropped_ball_comes_to_rest_on_every_flat_shape_face() {
    for floor in [
        Floor::Segment,
        Floor::Polyline,
        Floor::Polygon,
        Floor::Circle,
    ] {
        for e in [0.0, 0.5] {
            let mut w = world(e, false);
            let x = add_floor(&mut w, floor);
            let id = w.add_ball(ball(Vec2::new(x, 200.0))).expect("valid");
            let e0 = w.energy();
            // 3 s: the fall (0.44 s) and every bounce of the series (e = 0.5: 1.3 s).
            let trace = run(&mut w, 180);
            let emax = trace.iter().map(|t| t.1).fold(e0, f64::max);
            assert!(
                emax <= e0 + 1e-9 * e0.abs(),
                "{floor:?} e={e}: energy grew {e0} -> {emax}"
            );
            let late: usize = trace[120..].iter().map(|t| t.0).sum();
            assert_eq!(late, 0, "{floor:?} e={e}: events after it settled");
            let b = w.ball(id).expect("alive");
            assert!(
                (b.pos.y - (300.0 - R)).abs() <= 1e-9,
                "{floor:?} e={e}: at y {} (not r above the face)",
                b.pos.y
            );
            assert_eq!(b.pos.x, x, "{floor:?} e={e}: it moved sideways");
            assert_eq!(b.vel, Vec2::ZERO, "{floor:?} e={e}");
        }
    }
}

/// Two balls dropped one above the other on `floor` (or on the world's bottom wall), sleep
/// on, restitution 0.5: how many are asleep after 3 s, and the events of the last second.
fn pile(floor: Option<Floor>) -> (usize, usize, Vec<f64>) {
    let mut w = world(0.5, true);
    let x = floor.map_or(170.0, |f| add_floor(&mut w, f));
    let ids = [
        w.add_ball(ball(Vec2::new(x, 200.0))).expect("valid"),
        w.add_ball(ball(Vec2::new(x, 150.0))).expect("valid"),
    ];
    let trace = run(&mut w, 180);
    let late = trace[120..].iter().map(|t| t.0).sum();
    let asleep = ids
        .iter()
        .filter(|&&i| w.ball_asleep(i) == Some(true))
        .count();
    let ys = ids
        .iter()
        .map(|&i| w.ball(i).expect("alive").pos.y)
        .collect();
    (asleep, late, ys)
}

#[test]
fn a_pile_on_a_shape_falls_asleep_as_on_a_wall_floor() {
    // On the bottom wall (a face that already holds balls) the pair sleeps: the lower ball
    // rests, the upper one's pressed contacts count toward sleep.
    let (asleep, late, _) = pile(None);
    assert_eq!((asleep, late), (2, 0), "the wall-floor control");
    for floor in [
        Floor::Segment,
        Floor::Polyline,
        Floor::Polygon,
        Floor::Circle,
    ] {
        let (asleep, late, ys) = pile(Some(floor));
        assert_eq!((asleep, late), (2, 0), "{floor:?}");
        assert!((ys[0] - (300.0 - R)).abs() <= 1e-9, "{floor:?}: {ys:?}");
        assert!(ys[1] < ys[0] - 2.0 * R + 1e-6, "{floor:?}: {ys:?}");
    }
}

#[test]
fn a_ball_off_the_top_of_a_circle_rolls_off_without_gaining_energy() {
    // Not on the exact top: an unstable balance, so it leaves the bumper; it never hops in
    // place and never gains energy.
    for e in [0.0, 0.5] {
        let mut w = world(e, false);
        w.add_shape(ShapeDesc::circle(Vec2::new(200.0, 400.0), 100.0))
            .expect("valid");
        let id = w.add_ball(ball(Vec2::new(201.0, 200.0))).expect("valid");
        let e0 = w.energy();
        let trace = run(&mut w, 300);
        let emax = trace.iter().map(|t| t.1).fold(e0, f64::max);
        assert!(emax <= e0 + 1e-9 * e0.abs(), "e={e}: {e0} -> {emax}");
        let events: usize = trace.iter().map(|t| t.0).sum();
        assert!(events < 2000, "e={e}: {events} events in 5 s");
        let b = w.ball(id).expect("alive");
        assert!(
            (b.pos - Vec2::new(200.0, 400.0)).length() >= 105.0 - 1e-9,
            "inside the bumper"
        );
        assert!(b.pos.y > 400.0, "e={e}: still on the bumper at {:?}", b.pos);
    }
}

/// A segment at angle `theta` below the horizontal (y down), from `a`, and a ball of radius
/// `R` touching its upper face at rest at distance `s0` along it: it slides down with
/// acceleration `g·sinθ` along the face, its centre `R` from the line, without events.
fn slides_down(theta: f64) {
    let d = Vec2::new(theta.cos(), theta.sin());
    let up = Vec2::new(d.y, -d.x);
    let a = Vec2::new(40.0, 40.0);
    let mut w = world(0.0, false);
    w.add_shape(ShapeDesc::segment(a, a + d * 400.0))
        .expect("valid");
    let start = a + d * 20.0 + up * R;
    let id = w.add_ball(ball(start)).expect("valid");
    let dist = |p: Vec2| (p - a).dot(up);
    let along = |p: Vec2| (p - a).dot(d);
    // The first step: it meets the face (at once) and rests on it.
    let mut touched = None;
    for ev in w.step().to_vec() {
        if let Event::Contact(Contact {
            body: Body::Ball(_),
            other: Target::Shape(_),
            toi,
            ..
        }) = ev
        {
            touched.get_or_insert(toi);
        }
    }
    let tc = touched.expect("it meets the face at once");
    assert!(tc < 1e-6, "{tc}");
    let s0 = along(start);
    let acc = G * theta.sin();
    // 0.5 s (30 steps) more: s = s0 + ½·g·sinθ·(t − tc)², well before the segment's end.
    for k in 1..=30 {
        let events = w.step().len();
        assert_eq!(events, 0, "theta {theta}: events while sliding (step {k})");
        let b = w.ball(id).expect("alive");
        let t = w.time() - tc;
        let expect = s0 + 0.5 * acc * t * t;
        let s = along(b.pos);
        assert!(
            (s - expect).abs() <= 1e-9 * expect.abs(),
            "theta {theta}: along {s} vs {expect}"
        );
        assert!(
            (dist(b.pos) - R).abs() <= 1e-9,
            "theta {theta}: {} from the face",
            dist(b.pos)
        );
        let v = b.vel.dot(d);
        assert!(
            (v - acc * t).abs() <= 1e-9 * (acc * t),
            "{v} vs {}",
            acc * t
        );
    }
}

#[test]
fn a_ball_slides_down_a_tilted_segment_at_g_sin_theta() {
    for deg in [45.0f64, 30.0, 10.0] {
        slides_down(deg.to_radians());
    }
}

#[test]
fn a_ball_sliding_off_a_tilted_segment_flies_free_and_keeps_its_energy() {
    // 30°, 200 units long: it leaves the lower end, falls to the floor wall and comes to rest.
    let d = Vec2::new(30f64.to_radians().cos(), 30f64.to_radians().sin());
    let a = Vec2::new(20.0, 100.0);
    let mut w = world(0.0, false);
    w.add_shape(ShapeDesc::segment(a, a + d * 200.0))
        .expect("valid");
    let id = w
        .add_ball(ball(a + d * 10.0 + Vec2::new(d.y, -d.x) * R))
        .expect("valid");
    let e0 = w.energy();
    for (_, e) in run(&mut w, 240) {
        assert!(e <= e0 + 1e-9 * e0.abs(), "{e0} -> {e}");
    }
    let b = w.ball(id).expect("alive");
    assert!(
        (b.pos.y - (500.0 - R)).abs() <= 1e-9,
        "on the floor: {:?}",
        b.pos
    );
}

#[test]
fn a_ball_slides_down_a_ramp_of_slope_cells_at_g_sin_45() {
    // Slopes `3` (◢) of 20-unit cells at column + row = 9: one diagonal on the line
    // x + y = 200 from (0, 200) to (180, 20), normal (−1, −1)/√2. A ball of radius 5 touching
    // it at (150, 50), at rest: it slides down-left across the cells' seams with acceleration
    // g·sin 45° along the line, 5 from it, with no event.
    let rows: Vec<String> = (0..10)
        .map(|r| {
            let mut row = vec![' '; 10];
            if r >= 1 {
                row[9 - r] = '3';
            }
            row.into_iter().collect()
        })
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut w = world(0.0, false);
    w.set_grid(collide_world::Grid::from_rows(20.0, Vec2::ZERO, &rows).expect("valid rows"));
    let n = Vec2::new(-1.0, -1.0) / 2f64.sqrt();
    let d = Vec2::new(-1.0, 1.0) / 2f64.sqrt();
    let on_line = Vec2::new(150.0, 50.0);
    let start = on_line + n * R;
    let id = w.add_ball(ball(start)).expect("valid");
    let mut touched = None;
    for ev in w.step().to_vec() {
        if let Event::Contact(Contact {
            body: Body::Ball(_),
            other: Target::Cell(_),
            toi,
            ..
        }) = ev
        {
            touched.get_or_insert(toi);
        }
    }
    let tc = touched.expect("it meets the diagonal at once");
    assert!(tc < 1e-6, "{tc}");
    let acc = G * std::f64::consts::FRAC_1_SQRT_2;
    for k in 1..=30 {
        let events = w.step().to_vec();
        assert!(
            events.is_empty(),
            "events while sliding (step {k}): {events:?}"
        );
        let b = w.ball(id).expect("alive");
        let t = w.time() - tc;
        let expect = 0.5 * acc * t * t;
        let s = (b.pos - start).dot(d);
        assert!((s - expect).abs() <= 1e-9 * expect, "along {s} vs {expect}");
        let dist = (b.pos - on_line).dot(n);
        assert!((dist - R).abs() <= 1e-9, "{dist} from the diagonal");
    }
}

#[test]
fn a_snapshot_of_a_ball_sliding_on_a_slanted_face_restores_the_same_bits() {
    // Through the slide, the roll over the lower end and the fall, each step restored into
    // a world just built (the ball where it started).
    let d = Vec2::new(30f64.to_radians().cos(), 30f64.to_radians().sin());
    let a = Vec2::new(20.0, 100.0);
    let fresh = || {
        let mut w = world(0.0, false);
        w.add_shape(ShapeDesc::segment(a, a + d * 200.0))
            .expect("valid");
        w.add_ball(ball(a + d * 10.0 + Vec2::new(d.y, -d.x) * R))
            .expect("valid");
        w
    };
    let mut w = fresh();
    for k in 0..90 {
        let snap = w.snapshot();
        let mut copy = fresh();
        copy.restore(&snap).expect("restores");
        assert_eq!(copy.state_hash(), w.state_hash(), "step {k}");
        w.step();
        copy.step();
        assert_eq!(copy.state_hash(), w.state_hash(), "step {k}: continues");
    }
}

#[test]
fn at_a_one_second_step_balls_on_shape_floors_never_reach_the_event_bound() {
    // Restitution 0.5, steps of 1 s: a ball dropped on a segment, a polyline, a polygon or a
    // circle's top settles without an `IterationLimit` (it hopped about 1000 times a
    // second before resting contact held it there) and makes no event once settled.
    for floor in [
        Floor::Segment,
        Floor::Polyline,
        Floor::Polygon,
        Floor::Circle,
    ] {
        let mut w = World::new(
            Vec2::new(400.0, 500.0),
            Walls::ALL,
            StepConfig {
                dt: 1.0,
                restitution: 0.5,
                gravity: Vec2::new(0.0, G),
                ..StepConfig::default()
            },
        )
        .expect("a valid world");
        let x = add_floor(&mut w, floor);
        w.add_ball(ball(Vec2::new(x, 200.0))).expect("valid");
        let mut limits = 0;
        let mut late = 0;
        for k in 0..20 {
            let events = w.step().to_vec();
            limits += events
                .iter()
                .filter(|e| matches!(e, Event::IterationLimit { .. }))
                .count();
            if k >= 10 {
                late += events.len();
            }
        }
        assert_eq!((limits, late), (0, 0), "{floor:?}");
    }
}
