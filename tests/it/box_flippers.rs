//! Dynamic rectangles against flippers (`collide_world::Flipper`): times of impact worked out
//! by hand (a box falling on a held flipper, straight and under gravity; a flipper swinging
//! into a box at rest), and boxes thrown at a flipper that swings up and down, none of which
//! ever ends a step inside it.

use collide_world::Body;
use collide_world::Contact;
use collide_world::Target;
use collide_world::{
    collide_core::{distance_segment_aabb, Segment},
    Aabb, Event, FlipperDesc, RectDesc, RectId, RectKind, Surface, Vec2, World,
};

fn dynamic(min: Vec2, size: Vec2, vel: Vec2) -> RectDesc {
    RectDesc {
        aabb: Aabb::new(min, min + size),
        vel,
        kind: RectKind::Dynamic,
        density: 1.0,
        surface: Surface::DEFAULT,
    }
}

fn world(gravity: Vec2, dt: f64) -> World {
    crate::build::world(Vec2::new(400.0, 400.0), dt, gravity)
}

/// A flipper pivoting at (100, 200), 100 long, radius 10, resting horizontal (pointing +x,
/// top face y = 190) and flipping up to −0.5 rad at `speed` rad/s.
fn flipper(speed: f64) -> FlipperDesc {
    FlipperDesc::new(Vec2::new(100.0, 200.0), 100.0, 10.0, 0.0, -0.5, speed)
}

/// The first `rect_flipper` contact of `id`: absolute time, normal, point, speed.
fn first_hit(w: &mut World, id: RectId, t_end: f64) -> Option<(f64, Vec2, Vec2, f64)> {
    while w.time() < t_end {
        let t0 = w.time();
        for e in w.step() {
            if let Event::Contact(Contact {
                body: Body::Rect(rect),
                other: Target::Flipper(_),
                point,
                normal,
                toi,
                speed,
                ..
            }) = *e
            {
                if rect == id {
                    return Some((t0 + toi, normal, point, speed));
                }
            }
        }
    }
    None
}

#[test]
fn a_box_moving_down_onto_a_held_flipper_meets_its_top_face_and_bounces_back() {
    // Bottom face y = 140 at 100 units/s down reaches y = 190 at t = 0.5; restitution 1:
    // it leaves at −100.
    let mut w = world(Vec2::ZERO, 1.0 / 64.0);
    w.add_flipper(flipper(10.0)).expect("valid");
    let id = w
        .add_rect(dynamic(
            Vec2::new(140.0, 120.0),
            Vec2::new(20.0, 20.0),
            Vec2::new(0.0, 100.0),
        ))
        .expect("valid");
    let (t, n, p, speed) = first_hit(&mut w, id, 1.0).expect("a hit");
    assert!((t - 0.5).abs() < 1e-9, "{t}");
    assert!((n - Vec2::new(0.0, -1.0)).length() < 1e-9, "{n}");
    assert!((p.y - 190.0).abs() < 1e-6 && p.x >= 140.0 - 1e-9 && p.x <= 160.0 + 1e-9);
    assert!((speed - 100.0).abs() < 1e-9, "{speed}");
    let r = w.rect(id).expect("live");
    assert!(
        (r.vel - Vec2::new(0.0, -100.0)).length() < 1e-9,
        "{}",
        r.vel
    );
}

#[test]
fn a_box_falling_on_a_held_flipper_lands_at_the_free_fall_time() {
    // From rest, bottom y = 100, g = 1000: a fall of 90 takes √(2·90/1000) = 0.424264 s and
    // ends at √(2·1000·90) = 424.26 units/s.
    let g = 1000.0;
    let mut w = world(Vec2::new(0.0, g), 1.0 / 60.0);
    w.add_flipper(flipper(10.0)).expect("valid");
    let id = w
        .add_rect(dynamic(
            Vec2::new(140.0, 80.0),
            Vec2::new(20.0, 20.0),
            Vec2::ZERO,
        ))
        .expect("valid");
    let (t, n, _, speed) = first_hit(&mut w, id, 1.0).expect("a hit");
    let expected = (2.0 * 90.0 / g).sqrt();
    assert!((t - expected).abs() < 1e-9, "{t} vs {expected}");
    assert!((n - Vec2::new(0.0, -1.0)).length() < 1e-9, "{n}");
    assert!((speed - (2.0 * g * 90.0).sqrt()).abs() < 1e-6, "{speed}");
}

#[test]
fn a_swinging_flipper_meets_a_box_at_rest_at_the_hand_computed_angle() {
    // A box [150, 170] × [150, 170] at rest, no gravity. The flipper swings up (θ = −φ) at
    // 10 rad/s; its core's distance to the corner (70, −30) (from the pivot) is
    // 30·cos φ − 70·sin φ, which reaches the radius 10 first (the far corner rises fastest):
    // 76.158·cos(φ + atan2(70, 30)) = 10, φ = acos(10/√5800) − atan2(70, 30) = 0.273197,
    // at t = φ / 10.
    let mut w = world(Vec2::ZERO, 1.0 / 240.0);
    let f = w.add_flipper(flipper(10.0)).expect("valid");
    let id = w
        .add_rect(dynamic(
            Vec2::new(150.0, 150.0),
            Vec2::new(20.0, 20.0),
            Vec2::ZERO,
        ))
        .expect("valid");
    w.set_flipper_pressed(f, true).expect("live");
    let (t, n, p, speed) = first_hit(&mut w, id, 0.2).expect("a hit");
    let phi = (10.0 / 5800f64.sqrt()).acos() - 70f64.atan2(30.0);
    assert!((t - phi / 10.0).abs() < 1e-9, "{t} vs {}", phi / 10.0);
    // The normal is the core's normal, pointing up and back toward the pivot side.
    let expected_n = Vec2::new(-phi.sin(), -phi.cos());
    assert!((n - expected_n).length() < 1e-6, "{n} vs {expected_n}");
    // The flipper's surface touches the box at the corner; the impact speed is the normal
    // part of the flipper's velocity there, ω times the corner's distance along the core.
    assert!((p - Vec2::new(170.0, 170.0)).length() < 1e-6, "{p}");
    let along = (p - Vec2::new(100.0, 200.0)).dot(Vec2::new(phi.cos(), -phi.sin()));
    assert!(
        (speed - 10.0 * along).abs() < 1e-6,
        "{speed} vs {}",
        10.0 * along
    );
    // The box is thrown up and away: it now moves along the normal.
    let v = w.rect(id).expect("live").vel;
    assert!(v.dot(expected_n) > 0.0, "{v}");
}

#[test]
fn boxes_thrown_at_a_swinging_flipper_never_end_a_step_inside_it() {
    let mut w = world(Vec2::new(0.0, 800.0), 1.0 / 60.0);
    let f = w.add_flipper(flipper(20.0)).expect("valid");
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut ids = Vec::new();
    for k in 0..24 {
        let x = 20.0 + 15.0 * (k % 12) as f64 + 10.0 * next();
        let y = 20.0 + 40.0 * (k / 12) as f64;
        let v = Vec2::new(600.0 * (next() - 0.5), 600.0 * next());
        let size = Vec2::new(4.0 + 8.0 * next(), 4.0 + 8.0 * next());
        ids.push(
            w.add_rect(dynamic(Vec2::new(x, y), size, v))
                .expect("valid"),
        );
    }
    let mut hits = 0;
    for step in 0..600 {
        if step % 20 == 0 {
            w.set_flipper_pressed(f, (step / 20) % 2 == 0)
                .expect("live");
        }
        hits += w
            .step()
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::Contact(Contact {
                        body: Body::Rect(_),
                        other: Target::Flipper(_),
                        ..
                    })
                )
            })
            .count();
        let cap = w.flippers()[0].capsule_at(w.time());
        for &id in &ids {
            let Some(r) = w.rect(id) else { continue };
            let d = distance_segment_aabb(&cap.segment, &r.aabb);
            assert!(
                d > cap.radius - 1e-6,
                "step {step}: box {id:?} {:?} is {d} from the core (radius {})",
                r.aabb,
                cap.radius
            );
        }
    }
    assert!(hits > 20, "the boxes met the flipper {hits} times");
}

/// Panics (naming `case` and the time) if the last step stopped a body at the event bound.
fn assert_no_iteration_limit(w: &World, case: &str) {
    assert!(
        !w.events()
            .iter()
            .any(|e| matches!(e, Event::IterationLimit { .. })),
        "{case}: a body stopped at the event bound at t = {}",
        w.time()
    );
}

/// A held flipper tilted down by `angle` (radians) to the right, pivot (100, 200), 120 long,
/// radius 8, in a world of restitution `e`, with a 16 × 16 box dropped from rest onto it at
/// (130, 120) under gravity 500 (y down).
fn box_on_a_tilted_flipper(angle: f64, e: f64) -> (World, RectId, FlipperDesc) {
    let config = collide_world::StepConfig {
        dt: 1.0 / 60.0,
        gravity: Vec2::new(0.0, 500.0),
        restitution: e,
        ..collide_world::StepConfig::default()
    };
    let mut w =
        crate::build::world_with(Vec2::new(400.0, 400.0), collide_world::Walls::ALL, config);
    let desc = FlipperDesc::new(Vec2::new(100.0, 200.0), 120.0, 8.0, angle, -0.5, 20.0);
    w.add_flipper(desc).expect("a valid flipper");
    let id = w
        .add_rect(dynamic(
            Vec2::new(122.0, 112.0),
            Vec2::splat(16.0),
            Vec2::ZERO,
        ))
        .expect("a valid box");
    (w, id, desc)
}

/// A box that lands on a held flipper (restitution 0, or 0.2: it bounces on it first) slides
/// down it as down a frictionless incline: its speed along the flipper is `g·sinθ·t` at every
/// step it spends over the flipper (gravity's part along the face, before and after the
/// landing, 1e-9); with restitution 0 its speed across the flipper is never more than a
/// `REST_TIME` hop's (`g·cosθ·REST_TIME/2`, the rule for shapes that hold no box); it leaves
/// the tip and lands on the floor with no `IterationLimit` and a few events a step at most.
#[test]
fn a_box_slides_down_a_held_flipper_as_down_a_frictionless_incline() {
    let g: f64 = 500.0;
    for (angle, e) in [(0.5f64, 0.0), (0.3, 0.2), (0.8, 0.0)] {
        let (mut w, id, desc) = box_on_a_tilted_flipper(angle, e);
        let dir = Vec2::new(angle.cos(), angle.sin());
        let n = dir.perp();
        let mut on_face_steps = 0;
        let mut events = 0;
        let mut landed = false;
        for _ in 0..300 {
            w.step();
            events += w.events().len();
            assert_no_iteration_limit(&w, &format!("angle {angle} e {e}"));
            landed |= w.events().iter().any(|e| {
                matches!(
                    e,
                    Event::Contact(Contact {
                        other: Target::Flipper(_),
                        ..
                    })
                )
            });
            let b = w.rect(id).expect("alive");
            let s = (b.aabb.center() - desc.pivot).dot(dir);
            if landed && s > 10.0 && s < desc.length - 10.0 {
                on_face_steps += 1;
                let along = b.vel.dot(dir);
                let expected = g * angle.sin() * w.time();
                assert!(
                    (along - expected).abs() <= 1e-9 * expected,
                    "angle {angle} e {e} t {}: speed along {along}, expected {expected}",
                    w.time()
                );
                let hop = g * angle.cos() * 1e-3 / 2.0;
                assert!(
                    e > 0.0 || b.vel.dot(n).abs() <= hop * (1.0 + 1e-9),
                    "angle {angle} e {e}: speed across {} past a hop's {hop}",
                    b.vel.dot(n)
                );
            }
        }
        assert!(
            on_face_steps >= 5,
            "angle {angle} e {e}: {on_face_steps} steps on the face"
        );
        let b = w.rect(id).expect("alive");
        assert_eq!(
            b.aabb.max.y, 400.0,
            "angle {angle} e {e}: not on the floor: {:?}",
            b.aabb
        );
        assert!(
            events < 3 * 300,
            "angle {angle} e {e}: {events} events in 300 steps"
        );
    }
}

/// A box built overlapping a held flipper is pushed out of it once, at the first step
/// (`Unembedded`), no farther than straight out along the flipper's normal would take it, and
/// is never inside it after a step: at rest it has no other event (it used to bounce at time 0
/// until the event bound, every step), and under gravity it slides off the flipper with no
/// `IterationLimit`.
#[test]
fn a_box_overlapping_a_held_flipper_is_not_stuck_in_it() {
    let centre = Vec2::new(100.0 + 30.0 * 0.5f64.cos(), 200.0 + 30.0 * 0.5f64.sin());
    let core = Segment::new(
        Vec2::new(100.0, 200.0),
        Vec2::new(100.0 + 60.0 * 0.5f64.cos(), 200.0 + 60.0 * 0.5f64.sin()),
    );
    let normal = Vec2::new(-(0.5f64.sin()), 0.5f64.cos());
    // The least move along `±normal` that frees a 20 × 20 box at `c` (bisection).
    let straight_out = |c: Vec2| {
        [normal, -normal]
            .into_iter()
            .map(|n| {
                let free = |s: f64| {
                    let q = c + n * s;
                    distance_segment_aabb(&core, &Aabb::new(q - 10.0, q + 10.0)) >= 6.0
                };
                let (mut lo, mut hi) = (0.0, 40.0);
                assert!(free(hi));
                for _ in 0..100 {
                    let mid = 0.5 * (lo + hi);
                    if free(mid) {
                        hi = mid;
                    } else {
                        lo = mid;
                    }
                }
                hi
            })
            .fold(f64::INFINITY, f64::min)
    };
    for (gravity, offset) in [
        (Vec2::ZERO, 3.0),
        (Vec2::ZERO, -3.0),
        (Vec2::ZERO, 12.0),
        (Vec2::new(0.0, 500.0), 3.0),
        (Vec2::new(0.0, 500.0), -12.0),
    ] {
        let mut w = world(gravity, 1.0 / 30.0);
        w.add_flipper(FlipperDesc::new(
            Vec2::new(100.0, 200.0),
            60.0,
            6.0,
            0.5,
            -0.5,
            20.0,
        ))
        .expect("a valid flipper");
        let c = centre - Vec2::new(0.0, offset);
        let id = w
            .add_rect(dynamic(c - 10.0, Vec2::splat(20.0), Vec2::ZERO))
            .expect("a valid box");
        let mut pushed = None;
        let mut events = 0;
        for _ in 0..60 {
            w.step();
            for e in w.events() {
                match *e {
                    Event::Unembedded { from, to, .. } if pushed.is_none() => {
                        pushed = Some((from, to));
                    }
                    _ => events += 1,
                }
            }
            assert_no_iteration_limit(&w, &format!("gravity {gravity} offset {offset}"));
            let b = w.rect(id).expect("alive");
            assert!(
                distance_segment_aabb(&core, &b.aabb) >= 6.0 - 1e-7,
                "gravity {gravity} offset {offset}: inside the flipper: {:?}",
                b.aabb
            );
        }
        let b = w.rect(id).expect("alive");
        let (from, to) = pushed.expect("pushed out at the first step");
        assert!(
            (to - from).length() <= straight_out(c) + 1e-9,
            "offset {offset}: moved {} where {} along the normal frees it",
            (to - from).length(),
            straight_out(c)
        );
        if gravity == Vec2::ZERO {
            assert_eq!(events, 0, "offset {offset}");
            assert!(
                distance_segment_aabb(&core, &b.aabb) >= 6.0 - 1e-7,
                "offset {offset}: {:?}",
                b.aabb
            );
            assert!(
                (b.aabb.min - (to)).length() < 1e-12,
                "offset {offset}: {:?}",
                b.aabb
            );
        } else {
            // Off the flipper: slid down it and past its tip (x = 152.7), or fallen below it.
            let lowest = 200.0 + 60.0 * 0.5f64.sin() + 6.0;
            assert!(
                b.aabb.min.x > 100.0 + 60.0 * 0.5f64.cos() + 6.0 || b.aabb.min.y > lowest,
                "offset {offset}: still on the flipper: {:?}",
                b.aabb
            );
        }
    }
}
