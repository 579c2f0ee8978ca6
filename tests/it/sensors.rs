//! Sensors (rectangles whose [`Surface::sensor`] is set) and contacts passed through (a hook's
//! [`ContactResponse::Ignore`]): enter and exit events at their exact times, motion unchanged,
//! one-way platforms, ghosts, snapshots, the same bits with any thread count.

use crate::build::{ball, world};
use collide_scenes::arena_scene;
use collide_world::Body;
use collide_world::Contact;
use collide_world::Surface;
use collide_world::Target;
use collide_world::{
    Aabb, ContactInfo, ContactResponse, Event, HookError, Obstacle, RectDesc, RectKind, SensorId,
    World,
};
use glam::DVec2;

fn rect(min: DVec2, max: DVec2, vel: DVec2, kind: RectKind) -> RectDesc {
    RectDesc {
        aabb: Aabb::new(min, max),
        vel,
        kind,
        ..RectDesc::default()
    }
}

/// A sensor rectangle from `min` to `max` moving at `vel` (a kinematic one).
fn sensor(min: DVec2, max: DVec2, vel: DVec2) -> RectDesc {
    RectDesc {
        surface: Surface::SENSOR,
        ..rect(min, max, vel, RectKind::Kinematic)
    }
}

/// Steps `w` until `t_end` (with `hook` when given) and returns every event with its absolute
/// time (for those that have one).
fn run(
    w: &mut World,
    t_end: f64,
    hook: Option<&dyn collide_world::ContactHook>,
) -> Vec<(f64, Event)> {
    let mut out = Vec::new();
    while w.time() < t_end - 1e-12 {
        let t0 = w.time();
        let events = match hook {
            Some(h) => w.step_with(h).expect("valid hook").to_vec(),
            None => w.step().to_vec(),
        };
        for e in events {
            let toi = match e {
                Event::SensorEnter { toi, .. }
                | Event::SensorExit { toi, .. }
                | Event::Contact(Contact {
                    body: Body::Ball(_),
                    other: Target::Rect(_),
                    toi,
                    ..
                })
                | Event::Contact(Contact {
                    body: Body::Ball(_),
                    other: Target::Ball(_),
                    toi,
                    ..
                })
                | Event::Contact(Contact {
                    body: Body::Ball(_),
                    other: Target::Wall(_),
                    toi,
                    ..
                }) => toi,
                _ => f64::NAN,
            };
            out.push((t0 + toi, e));
        }
    }
    out
}

#[test]
fn a_sensor_reports_enter_and_exit_at_their_exact_times_and_changes_nothing() {
    // A ball of radius 5 from x = 20 moving right at 100 through a sensor spanning
    // x in [100, 200]: it enters when its centre reaches x = 95 (t = 0.75) and leaves when its
    // centre passes x = 205 (t = 1.85). Its path is the path of the same ball in a world
    // without the sensor, bit for bit.
    let size = DVec2::new(400.0, 200.0);
    let mut with = world(size, 1.0 / 60.0, DVec2::ZERO);
    let mut without = with.clone();
    let b = with
        .add_ball(ball(DVec2::new(20.0, 100.0), DVec2::new(100.0, 0.0), 5.0))
        .expect("valid");
    let b2 = without
        .add_ball(ball(DVec2::new(20.0, 100.0), DVec2::new(100.0, 0.0), 5.0))
        .expect("valid");
    let s = with
        .add_rect(sensor(
            DVec2::new(100.0, 50.0),
            DVec2::new(200.0, 150.0),
            DVec2::ZERO,
        ))
        .expect("valid");
    let events = run(&mut with, 2.5, None);
    run(&mut without, 2.5, None);
    let sensor: Vec<_> = events
        .iter()
        .filter(|(_, e)| matches!(e, Event::SensorEnter { .. } | Event::SensorExit { .. }))
        .collect();
    assert_eq!(sensor.len(), 2, "{sensor:?}");
    let (t_in, e_in) = sensor[0];
    let (t_out, e_out) = sensor[1];
    assert!(
        matches!(*e_in, Event::SensorEnter { ball, sensor, point, .. }
        if ball == b && sensor == SensorId::Rect(s)
            && (point - DVec2::new(100.0, 100.0)).length() < 1e-9)
    );
    assert!(matches!(*e_out, Event::SensorExit { ball, sensor, .. }
        if ball == b && sensor == SensorId::Rect(s)));
    assert!((t_in - 0.75).abs() < 1e-12, "{t_in}");
    assert!((t_out - 1.85).abs() < 1e-12, "{t_out}");
    assert_eq!(with.ball(b), without.ball(b2));
}

#[test]
fn a_moving_sensor_and_a_falling_ball() {
    // Gravity 100 down; a ball of radius 2 dropped from rest at y = 10. A kinematic-like sensor
    // [0, 200] × [100, 120] rises at 20 units/s. Ball centre y(t) = 10 + 50t², sensor top
    // 100 − 20t: enter when 10 + 50t² = 98 − 20t (the circle's bottom meets the top),
    // 50t² + 20t − 88 = 0; exit when the circle's top passes the sensor's bottom:
    // 10 + 50t² − 2 = 120 − 20t, 50t² + 20t − 112 = 0.
    let mut w = world(DVec2::new(200.0, 400.0), 1.0 / 64.0, DVec2::new(0.0, 100.0));
    w.add_ball(ball(DVec2::new(100.0, 10.0), DVec2::ZERO, 2.0))
        .expect("valid");
    w.add_rect(sensor(
        DVec2::new(0.0, 100.0),
        DVec2::new(200.0, 120.0),
        DVec2::new(0.0, -20.0),
    ))
    .expect("valid");
    let root = |c: f64| (-20.0 + (400.0 + 200.0 * c).sqrt()) / 100.0;
    let events = run(&mut w, 2.0, None);
    let times: Vec<(f64, &str)> = events.iter().map(|(t, e)| (*t, e.kind())).collect();
    assert_eq!(times.len(), 2, "{times:?}");
    assert_eq!(times[0].1, "sensor_enter");
    assert_eq!(times[1].1, "sensor_exit");
    assert!((times[0].0 - root(88.0)).abs() < 1e-9, "{times:?}");
    assert!((times[1].0 - root(112.0)).abs() < 1e-9, "{times:?}");
}

/// Ignore a ball's contacts from below a rectangle (the normal, from the rectangle toward the
/// ball, points down: +y).
fn one_way(c: &ContactInfo) -> ContactResponse {
    match (c.event, c.other) {
        (
            Event::Contact(Contact {
                body: Body::Ball(_),
                other: Target::Rect(_),
                normal,
                ..
            }),
            Obstacle::Body(_),
        ) if normal.y > 0.0 => ContactResponse::Ignore,
        _ => ContactResponse::Reflect,
    }
}

#[test]
fn a_one_way_platform_lets_a_ball_up_and_holds_it_from_above() {
    // Gravity 400 down. A platform [0, 200] × [50, 60]; a ball of radius 5 thrown up at 200
    // from y = 80 (x = 100). Its top meets the platform's bottom when y = 65:
    // 80 − 200t + 200t² = 65 → t = (1 − √0.7)/2; ignored. It leaves the platform's top when
    // y = 45: t = (1 − √0.3)/2; apex at t = 0.5, y = 30; it lands on the top (y = 45 going
    // down) at t = (1 + √0.3)/2 and bounces (restitution 1): an event then, and it never
    // passes below y = 45 again.
    let mut w = world(DVec2::new(200.0, 200.0), 1.0 / 60.0, DVec2::new(0.0, 400.0));
    let b = w
        .add_ball(ball(DVec2::new(100.0, 80.0), DVec2::new(0.0, -200.0), 5.0))
        .expect("valid");
    let p = w
        .add_rect(rect(
            DVec2::new(0.0, 50.0),
            DVec2::new(200.0, 60.0),
            DVec2::ZERO,
            RectKind::Static,
        ))
        .expect("valid");
    let mut landed = None;
    let mut lowest_after: f64 = f64::NEG_INFINITY;
    while w.time() < 2.0 {
        let t0 = w.time();
        for e in w.step_with(&one_way).expect("valid").to_vec() {
            if let Event::Contact(Contact {
                body: Body::Ball(_),
                other: Target::Rect(rect),
                normal,
                toi,
                ..
            }) = e
            {
                assert_eq!(rect, p);
                assert_eq!(normal, DVec2::new(0.0, -1.0), "only landings are reported");
                landed.get_or_insert(t0 + toi);
            }
        }
        if landed.is_some() {
            lowest_after = lowest_after.max(w.ball(b).expect("alive").pos.y);
        }
    }
    let t = landed.expect("it lands on the platform");
    let expect = (1.0 + 0.3f64.sqrt()) / 2.0;
    assert!((t - expect).abs() < 1e-9, "{t} vs {expect}");
    assert!(
        lowest_after <= 45.0 + 1e-9,
        "it sank into the platform: {lowest_after}"
    );
}

#[test]
fn ghost_balls_pass_through_each_other_as_if_alone() {
    // Two balls head-on; a hook ignores every ball–ball contact: each moves exactly as it
    // would alone (bit for bit), bouncing off the walls, crossing the other many times.
    let size = DVec2::new(300.0, 100.0);
    let mut both = world(size, 1.0 / 60.0, DVec2::ZERO);
    let mut alone_a = both.clone();
    let mut alone_b = both.clone();
    let da = ball(DVec2::new(50.0, 50.0), DVec2::new(170.0, 13.0), 10.0);
    let db = ball(DVec2::new(250.0, 52.0), DVec2::new(-130.0, -7.0), 8.0);
    let (a, b) = (
        both.add_ball(da).expect("valid"),
        both.add_ball(db).expect("valid"),
    );
    let a1 = alone_a.add_ball(da).expect("valid");
    let b1 = alone_b.add_ball(db).expect("valid");
    let ghosts = |c: &ContactInfo| match c.event {
        Event::Contact(Contact {
            body: Body::Ball(_),
            other: Target::Ball(_),
            ..
        }) => ContactResponse::Ignore,
        _ => ContactResponse::Reflect,
    };
    let mut crossings = 0;
    for _ in 0..600 {
        both.step_with(&ghosts).expect("valid");
        alone_a.step();
        alone_b.step();
        let (pa, pb) = (both.ball(a).expect("a"), both.ball(b).expect("b"));
        assert_eq!(pa, alone_a.ball(a1).expect("a"));
        // Ids differ between the worlds: compare the paths.
        let qb = alone_b.ball(b1).expect("b");
        assert_eq!((pb.pos, pb.vel), (qb.pos, qb.vel));
        if (pa.pos - pb.pos).length() < 18.0 {
            crossings += 1;
        }
    }
    assert!(crossings > 10, "they overlapped in {crossings} steps");
}

#[test]
fn a_wall_cannot_be_ignored() {
    let mut w = world(DVec2::new(100.0, 100.0), 0.5, DVec2::ZERO);
    w.add_ball(ball(DVec2::new(50.0, 50.0), DVec2::new(100.0, 0.0), 5.0))
        .expect("valid");
    let hash = w.state_hash();
    let ignore_all = |_: &ContactInfo| ContactResponse::Ignore;
    let err = w
        .step_with(&ignore_all)
        .expect_err("walls cannot be passed");
    assert!(matches!(
        err,
        HookError::CannotIgnore {
            event: Event::Contact(Contact {
                body: Body::Ball(_),
                other: Target::Wall(_),
                ..
            })
        }
    ));
    assert_eq!(w.state_hash(), hash);
}

#[test]
fn a_snapshot_taken_inside_a_sensor_restores_the_overlap() {
    // Balls crossing a wide sensor: a snapshot taken while some are inside, restored into a
    // fresh copy, steps on to the same hash and the same exit events as the straight run.
    let mut w = World::from_scene(&arena_scene(300, 200.0, 9)).expect("builds");
    w.add_rect(sensor(
        DVec2::new(300.0, 300.0),
        DVec2::new(700.0, 700.0),
        DVec2::ZERO,
    ))
    .expect("valid");
    for _ in 0..40 {
        w.step();
    }
    let snap = w.snapshot();
    let mut straight = w.clone();
    let mut other = World::from_scene(&arena_scene(300, 200.0, 9)).expect("builds");
    other
        .add_rect(sensor(
            DVec2::new(300.0, 300.0),
            DVec2::new(700.0, 700.0),
            DVec2::ZERO,
        ))
        .expect("valid");
    other.restore(&snap).expect("same shape");
    assert_eq!(other.state_hash(), straight.state_hash());
    let mut exits = 0;
    for _ in 0..60 {
        let a = straight.step().to_vec();
        let b = other.step().to_vec();
        assert_eq!(a, b);
        exits += a.iter().filter(|e| e.kind() == "sensor_exit").count();
    }
    assert!(exits > 5, "{exits} exits");
}

/// A pure hook: ball–ball contacts between two even ids pass through, every other contact
/// reflects.
fn even_ghosts(c: &ContactInfo) -> ContactResponse {
    match c.event {
        Event::Contact(Contact {
            body: Body::Ball(a),
            other: Target::Ball(b),
            ..
        }) if a.index() % 2 == 0 && b.index() % 2 == 0 => ContactResponse::Ignore,
        _ => ContactResponse::Reflect,
    }
}

#[test]
fn sensors_and_passes_give_the_same_bits_with_1_2_and_3_threads() {
    let mut w = World::from_scene(&arena_scene(6000, 200.0, 4)).expect("builds");
    for k in 0..4 {
        let x = 100.0 + 220.0 * k as f64;
        w.add_rect(sensor(
            DVec2::new(x, 200.0),
            DVec2::new(x + 150.0, 800.0),
            DVec2::new(0.0, if k % 2 == 0 { 30.0 } else { 0.0 }),
        ))
        .expect("valid");
    }
    let run = |threads: usize| {
        let mut w = w.clone();
        w.set_threads(threads);
        let mut hashes = Vec::new();
        let mut counts = [0usize; 2];
        for _ in 0..60 {
            let events = w.step_with(&even_ghosts).expect("valid").to_vec();
            counts[0] += events.iter().filter(|e| e.kind() == "sensor_enter").count();
            counts[1] += events.iter().filter(|e| e.kind() == "sensor_exit").count();
            // No ball caught entering and leaving at one instant until the event bound.
            assert!(!events.iter().any(|e| e.kind() == "iteration_limit"));
            hashes.push(w.state_hash());
        }
        (hashes, counts)
    };
    let (h1, c1) = run(1);
    assert!(c1[0] > 100 && c1[1] > 100, "{c1:?}");
    for threads in [2, 3] {
        let (h, c) = run(threads);
        assert_eq!(c, c1);
        let first = h1.iter().zip(&h).position(|(a, b)| a != b);
        assert_eq!(first, None, "{threads} threads: first different step");
    }
}
