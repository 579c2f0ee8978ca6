//! Galperin's billiard (G. Galperin, "Playing pool with π (the number π from a billiard point
//! of view)", Regular and Chaotic Dynamics 8(4), 2003): a ball of mass M pushes a ball of
//! mass m toward a wall; with elastic collisions the two balls and the wall exchange exactly
//! ⌊π·√(M/m)⌋ collisions (ball–ball plus ball–wall) before both balls move away for good.
//! For M/m = 100^k that is the first k + 1 digits of π: 3, 31, 314, 3141, ...

use collide_world::Body;
use collide_world::Contact;
use collide_world::Target;
use collide_world::{BallDesc, Event, StepConfig, Surface, Vec2, Walls, World};

/// Runs the billiard with mass ratio `ratio` (big ball over small ball, same radius, so the
/// ratio of densities), `max_events` per body and step, for `steps` steps of `dt`; returns
/// (ball–ball + ball–wall collisions, iteration-limit events, overlapping at the end).
fn galperin(ratio: f64, max_events: u32, dt: f64, steps: usize) -> (u64, u64, bool) {
    let config = StepConfig {
        dt,
        max_events_per_body: max_events,
        ..StepConfig::default()
    };
    // Only the left wall reflects; the world is long enough that the big ball never comes
    // back once it has turned.
    let walls = Walls {
        left: true,
        top: false,
        right: false,
        bottom: false,
    };
    let mut w = World::new(Vec2::new(1e7, 100.0), walls, config).unwrap();
    let small = w
        .add_ball(BallDesc {
            pos: Vec2::new(20.0, 50.0),
            vel: Vec2::ZERO,
            radius: 1.0,
            density: 1.0,
            surface: Surface::DEFAULT,
            gravity_scale: 1.0,
        })
        .unwrap();
    let big = w
        .add_ball(BallDesc {
            pos: Vec2::new(40.0, 50.0),
            vel: Vec2::new(-10.0, 0.0),
            radius: 1.0,
            density: ratio,
            surface: Surface::DEFAULT,
            gravity_scale: 1.0,
        })
        .unwrap();
    let (mut collisions, mut limits, mut overlap) = (0u64, 0u64, false);
    for _ in 0..steps {
        for e in w.step() {
            match e {
                Event::Contact(Contact {
                    body: Body::Ball(_),
                    other: Target::Ball(_),
                    ..
                })
                | Event::Contact(Contact {
                    body: Body::Ball(_),
                    other: Target::Wall(_),
                    ..
                }) => collisions += 1,
                Event::IterationLimit { .. } => limits += 1,
                _ => {}
            }
        }
        // After every step: no overlap of the balls, nor of a ball with the wall.
        let (a, b) = (w.ball(small).unwrap(), w.ball(big).unwrap());
        overlap |= (a.pos - b.pos).length() < a.radius + b.radius - 1e-9;
        overlap |= a.pos.x < a.radius - 1e-9 || b.pos.x < b.radius - 1e-9;
    }
    let (a, b) = (w.ball(small).unwrap(), w.ball(big).unwrap());
    println!(
        "end: small at {} moving {}, big at {} moving {}",
        a.pos, a.vel, b.pos, b.vel
    );
    (collisions, limits, overlap)
}

#[test]
fn galperin_counts_digits_of_pi() {
    // Steps of 1/60 s for 100 s: every collision is over long before (the big ball leaves
    // at 10 units/s and the small one follows, slower).
    for (k, expected) in [(0, 3), (1, 31), (2, 314), (3, 3141), (4, 31415)] {
        let ratio = 100f64.powi(k);
        let (n, limits, overlap) = galperin(ratio, 1 << 16, 1.0 / 60.0, 6000);
        assert_eq!((n, limits, overlap), (expected, 0, false), "M/m = {ratio}");
    }
}

#[test]
fn galperin_is_exact_with_the_default_bound() {
    // The default 256 events per body and step, steps of 1/60 s and one step of 100 s: the
    // bodies past their own bound draw from the step's shared pool, so nothing stops.
    let default = StepConfig::default().max_events_per_body;
    for (k, expected) in [(0, 3), (1, 31), (2, 314), (3, 3141), (4, 31415)] {
        let ratio = 100f64.powi(k);
        let (n, limits, overlap) = galperin(ratio, default, 1.0 / 60.0, 6000);
        assert_eq!(
            (n, limits, overlap),
            (expected, 0, false),
            "M/m = {ratio}, dt 1/60"
        );
        let (n, limits, overlap) = galperin(ratio, default, 100.0, 1);
        assert_eq!(
            (n, limits, overlap),
            (expected, 0, false),
            "M/m = {ratio}, dt 100"
        );
    }
}

#[test]
fn galperin_in_one_long_step_is_exact_while_the_budget_allows() {
    // One step of 100 s holds every collision. The small ball takes part in all of them,
    // the big one in the ball–ball half: a budget of 2^16 events per body allows 31 415.
    for (k, expected) in [(2, 314), (3, 3141), (4, 31415)] {
        let ratio = 100f64.powi(k);
        let (n, limits, overlap) = galperin(ratio, 1 << 16, 100.0, 1);
        assert_eq!((n, limits, overlap), (expected, 0, false), "M/m = {ratio}");
    }
}

#[test]
fn galperin_past_the_budget_reports_the_limit_and_never_overlaps() {
    // A budget of 1 event per body and step (a shared pool of 512 for the step), steps of
    // 100 s: the small ball stops at the bound against the wall while the big one still
    // comes; the stopped ball is an obstacle at rest for the rest of the step (the big ball
    // bounces off it), so no step ends with an overlap, and the limit is reported.
    for k in 3..5 {
        let ratio = 100f64.powi(k);
        let (n, limits, overlap) = galperin(ratio, 1, 100.0, 2);
        assert!(!overlap, "M/m = {ratio}: overlap");
        assert!(
            limits > 0,
            "M/m = {ratio}: the bound was reached, and reported"
        );
        assert!(n < 31415, "M/m = {ratio}: {n} collisions");
    }
}

/// The shipped demo scene `scenes/pi.toml` (M/m = 10 000) counts 314.
#[test]
fn the_pi_scene_counts_314() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenes/pi.toml");
    let scene = collide_scene::load(&path).unwrap();
    let mut w = World::from_scene(&scene).unwrap();
    let mut n = 0;
    for _ in 0..2100 {
        n += w
            .step()
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::Contact(Contact {
                        body: Body::Ball(_),
                        other: Target::Ball(_),
                        ..
                    }) | Event::Contact(Contact {
                        body: Body::Ball(_),
                        other: Target::Wall(_),
                        ..
                    })
                )
            })
            .count();
    }
    assert_eq!(n, 314);
    assert_eq!(w.balls().len(), 2);
}

/// A body past its own event bound that is met again at the same instant (balls in a pile
/// pass an impulse along at one instant now and then) borrows those contacts from the step's
/// pool like any other event. A Newton's cradle of three touching balls of masses 1, 1 and 4,
/// struck by the first at speed `v`, with one event of its own per body and step: the middle
/// ball meets its two neighbours at one instant, three contacts (A–B, B–C, B–A), and the
/// balls leave with the velocities of those three elastic collisions, `−0.6·v`, 0 and
/// `0.4·v`, each moving on from the instant of the contacts, with no `IterationLimit`.
#[test]
fn a_body_past_its_bound_borrows_contacts_at_the_same_instant() {
    let config = StepConfig {
        max_events_per_body: 1,
        ..StepConfig::default()
    };
    for v in [30.0, 90.0, 300.0, 1_000.0, 4_800.0] {
        let mut w = World::new(Vec2::new(4_096.0, 1_024.0), Walls::ALL, config).unwrap();
        let ball = |x: f64, vx: f64, density: f64| BallDesc {
            pos: Vec2::new(x, 512.0),
            vel: Vec2::new(vx, 0.0),
            radius: 10.0,
            density,
            surface: Surface::DEFAULT,
            gravity_scale: 1.0,
        };
        // The striker 80 units from the cradle, B and C touching.
        let a = w.add_ball(ball(1_000.0, v, 1.0)).unwrap();
        let b = w.add_ball(ball(1_100.0, 0.0, 1.0)).unwrap();
        let c = w.add_ball(ball(1_120.0, 0.0, 4.0)).unwrap();
        let t_hit = 80.0 / v;
        let steps = (t_hit / config.dt).floor() as usize + 1;
        let mut limits = 0;
        let mut contacts = Vec::new();
        for _ in 0..steps {
            let t0 = w.time();
            for e in w.step() {
                match e {
                    Event::IterationLimit { .. } => limits += 1,
                    Event::Contact(k) => contacts.push(t0 + k.toi),
                    _ => {}
                }
            }
        }
        let t_end = w.time();
        assert_eq!(limits, 0, "v = {v}: stopped at the bound");
        assert_eq!(contacts.len(), 3, "v = {v}: {contacts:?}");
        for &t in &contacts {
            assert!(
                (t - t_hit).abs() <= 1e-12 * t_hit.max(1.0),
                "v = {v}: {t} vs {t_hit}"
            );
        }
        let after = t_end - t_hit;
        for (id, x_hit, vx) in [
            (a, 1_080.0, -0.6 * v),
            (b, 1_100.0, 0.0),
            (c, 1_120.0, 0.4 * v),
        ] {
            let got = w.ball(id).unwrap();
            assert!(
                (got.vel.x - vx).abs() <= 1e-12 * v && got.vel.y == 0.0,
                "v = {v}: {:?} vs {vx}",
                got.vel
            );
            let x = x_hit + vx * after;
            assert!(
                (got.pos.x - x).abs() <= 1e-9 * x,
                "v = {v}: at {} vs {x}",
                got.pos.x
            );
        }
    }
}
