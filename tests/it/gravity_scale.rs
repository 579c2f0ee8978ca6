//! Each ball's share of the world's gravity (`BallDesc::gravity_scale`): bullets that fly
//! straight in a falling world, balloons that rise and rest against a ceiling, pairs of balls
//! of different scales meeting at the root of their relative path's quartic (found here
//! independently), the energy kept with mixed scales, snapshots, the hash, bad input.

use collide_world::rng::XorShift64Star;
use collide_world::Body;
use collide_world::Contact;
use collide_world::Target;
use collide_world::{BallDesc, Event, StepConfig, Vec2, Walls, World, WorldError};

const G: f64 = 1000.0;

fn world(size: Vec2, restitution: f64) -> World {
    let config = StepConfig {
        dt: 1.0 / 60.0,
        gravity: Vec2::new(0.0, G),
        restitution,
        ..StepConfig::default()
    };
    World::new(size, Walls::ALL, config).expect("a valid world")
}

fn ball(pos: Vec2, vel: Vec2, radius: f64, gravity_scale: f64) -> BallDesc {
    BallDesc {
        pos,
        vel,
        radius,
        gravity_scale,
        ..BallDesc::default()
    }
}

#[test]
fn a_bullet_flies_straight_while_the_world_falls() {
    // Scale 0 at (10, 50) moving right at 100: after 1 s at (110, 50), velocity unchanged;
    // it meets the right wall (x = 400 − 2) at t = (398 − 10)/100 = 3.88 s. A ball of scale 1
    // beside it falls ½·g·t² = 500·t² in the same time.
    let mut w = world(Vec2::new(400.0, 4000.0), 1.0);
    let bullet = w
        .add_ball(ball(Vec2::new(10.0, 50.0), Vec2::new(100.0, 0.0), 2.0, 0.0))
        .expect("valid");
    let stone = w
        .add_ball(ball(Vec2::new(300.0, 50.0), Vec2::ZERO, 2.0, 1.0))
        .expect("valid");
    for _ in 0..60 {
        w.step();
    }
    let b = w.ball(bullet).expect("alive");
    assert!((b.pos - Vec2::new(110.0, 50.0)).length() < 1e-12, "{b:?}");
    assert_eq!(b.vel, Vec2::new(100.0, 0.0));
    assert_eq!(b.gravity_scale, 0.0);
    let s = w.ball(stone).expect("alive");
    assert!((s.pos.y - (50.0 + 500.0)).abs() < 1e-9, "{s:?}");
    let mut wall_hit = None;
    while w.time() < 4.0 {
        let t0 = w.time();
        for e in w.step().to_vec() {
            if let Event::Contact(Contact {
                body: Body::Ball(ball),
                other: Target::Wall(_),
                toi,
                ..
            }) = e
            {
                if ball == bullet {
                    wall_hit.get_or_insert(t0 + toi);
                }
            }
        }
    }
    let t = wall_hit.expect("the bullet met the wall");
    assert!((t - 3.88).abs() < 1e-12, "{t}");
}

#[test]
fn a_balloon_rises_and_comes_to_rest_against_the_ceiling() {
    // Scale −1 with restitution 0.5: it rises from y = 300 under 1000 units/s² up, bounces on
    // the top wall with ever shorter flights and ends held against it (y = radius, vy = 0).
    let mut w = world(Vec2::new(200.0, 400.0), 0.5);
    let id = w
        .add_ball(ball(Vec2::new(100.0, 300.0), Vec2::ZERO, 5.0, -1.0))
        .expect("valid");
    // It reaches the ceiling (a rise of 295) at √(2·295/1000) ≈ 0.768 s; its bounce series
    // sums to about 3× the first flight: at rest well within 5 s.
    for _ in 0..300 {
        w.step();
    }
    let b = w.ball(id).expect("alive");
    assert!((b.pos.y - 5.0).abs() < 1e-9, "{b:?}");
    assert_eq!(b.vel.y, 0.0, "{b:?}");
    // Held: no event in the last second.
    for _ in 0..60 {
        assert!(w.step().is_empty());
    }
}

/// The first time in `[0, t_max]` at which `f` crosses from positive to `<= 0`, found by a
/// dense scan and bisection (independent of the library's root finding).
fn first_root(f: impl Fn(f64) -> f64, t_max: f64) -> f64 {
    let n = 200_000;
    let mut a = 0.0;
    for k in 1..=n {
        let b = t_max * k as f64 / n as f64;
        if f(b) <= 0.0 {
            let (mut lo, mut hi) = (a, b);
            for _ in 0..200 {
                let mid = 0.5 * (lo + hi);
                if f(mid) <= 0.0 {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            return hi;
        }
        a = b;
    }
    panic!("no root in [0, {t_max}]");
}

#[test]
fn balls_of_different_scales_meet_at_the_root_of_their_quartic() {
    // A stone (scale 1) dropped from rest at (100, 100); a bullet (scale 0) at (40, 160)
    // moving right at 170: relative position (60 − 170·t, −60 + 500·t²), a quartic for
    // |rel|² = (3 + 3)² that the scan below solves independently (they would cross near
    // t = √0.12 ≈ 0.346, 1.1 apart).
    let mut w = world(Vec2::new(400.0, 400.0), 1.0);
    let stone = w
        .add_ball(ball(Vec2::new(100.0, 100.0), Vec2::ZERO, 3.0, 1.0))
        .expect("valid");
    let bullet = w
        .add_ball(ball(
            Vec2::new(40.0, 160.0),
            Vec2::new(170.0, 0.0),
            3.0,
            0.0,
        ))
        .expect("valid");
    let gap = |t: f64| {
        let d = Vec2::new(60.0 - 170.0 * t, -60.0 + 500.0 * t * t);
        d.length() - 6.0
    };
    let want = first_root(gap, 1.0);
    let mut got = None;
    while w.time() < 1.0 && got.is_none() {
        let t0 = w.time();
        for e in w.step().to_vec() {
            if let Event::Contact(Contact {
                body: Body::Ball(a),
                other: Target::Ball(b),
                toi,
                ..
            }) = e
            {
                assert!(
                    (a == stone && b == bullet) || (a == bullet && b == stone),
                    "{e:?}"
                );
                got.get_or_insert(t0 + toi);
            }
        }
    }
    let t = got.expect("they met");
    assert!((t - want).abs() < 1e-9, "toi {t}, the scan says {want}");
}

/// Kinetic plus potential energy computed here from the balls' own scales: Σ ½mv² − m·s·g·p.
fn energy_by_hand(w: &World) -> f64 {
    let g = w.config().gravity;
    w.balls()
        .map(|b| {
            0.5 * b.mass() * b.vel.length_squared() - b.mass() * b.gravity_scale * g.dot(b.pos)
        })
        .sum()
}

#[test]
fn elastic_balls_of_mixed_scales_keep_their_energy() {
    // 200 balls of scales in [−1, 2] (balloons, bullets, stones, heavy stones) among tiles in
    // a closed box, restitution 1, ball–ball on: kinetic plus potential energy (each ball's
    // own s·g) is kept over 600 steps, as the world computes it and as computed here.
    let mut w = world(Vec2::new(400.0, 400.0), 1.0);
    w.set_grid(crate::build::grid_where(20, 20, 20.0, |c, r| {
        (r * 7 + c * 3) % 11 == 0 && r > 1 && r < 18
    }));
    let mut rng = XorShift64Star::new(3);
    let mut added = 0;
    while added < 200 {
        let pos = Vec2::new(rng.range_f64(5.0, 395.0), rng.range_f64(5.0, 395.0));
        let scale = [-1.0, 0.0, 0.5, 1.0, 2.0][(rng.next_u64() % 5) as usize];
        let desc = ball(pos, rng.unit_vector() * 200.0, 2.0, scale);
        if w.circle_is_free(pos, 2.0, None) && w.balls().all(|b| (b.pos - pos).length() > 4.0) {
            w.add_ball(desc).expect("valid");
            added += 1;
        }
    }
    let e0 = w.energy();
    assert!((energy_by_hand(&w) - e0).abs() < 1e-9 * e0.abs());
    let mut contacts = 0;
    for _ in 0..600 {
        contacts += w.step().len();
    }
    let e1 = w.energy();
    assert!((e1 - e0).abs() < 1e-10 * e0.abs(), "{e0} -> {e1}");
    assert!((energy_by_hand(&w) - e1).abs() < 1e-9 * e0.abs());
    assert!(contacts > 10_000, "{contacts} events");
}

#[test]
fn scales_are_kept_by_snapshots_and_change_the_hash() {
    let make = |scale: f64| {
        let mut w = world(Vec2::new(200.0, 200.0), 0.8);
        for k in 0..10 {
            let pos = Vec2::new(15.0 + 18.0 * k as f64, 100.0);
            w.add_ball(ball(
                pos,
                Vec2::new(30.0, -40.0),
                3.0,
                if k % 2 == 0 { scale } else { 1.0 },
            ))
            .expect("valid");
        }
        w
    };
    let mut a = make(-0.5);
    assert_ne!(a.state_hash(), make(1.0).state_hash());
    for _ in 0..40 {
        a.step();
    }
    let snap = a.snapshot();
    let mut b = make(1.0);
    b.restore(&snap).expect("same world");
    assert_eq!(a.state_hash(), b.state_hash());
    for _ in 0..200 {
        a.step();
        b.step();
    }
    assert_eq!(a.state_hash(), b.state_hash());
    assert!(b.balls().any(|x| x.gravity_scale == -0.5));
}

#[test]
fn bad_scales_are_errors_naming_the_field() {
    let mut w = world(Vec2::new(100.0, 100.0), 1.0);
    for bad in [f64::NAN, f64::INFINITY, 1000.5, -2000.0] {
        let e = w
            .add_ball(ball(Vec2::new(50.0, 50.0), Vec2::ZERO, 2.0, bad))
            .expect_err("refused");
        assert!(
            matches!(
                e,
                WorldError::BadBall {
                    field: "gravity_scale",
                    ..
                }
            ),
            "{e:?}"
        );
    }
    let id = w
        .add_ball(ball(Vec2::new(50.0, 50.0), Vec2::ZERO, 2.0, 1.0))
        .expect("valid");
    let h = w.state_hash();
    assert!(w.set_ball_gravity_scale(id, f64::NAN).is_err());
    assert_eq!(w.state_hash(), h, "a refused scale changes nothing");
    let text = "[world]\nsize = [100, 100]\n\n[[ball]]\npos = [50, 50]\nradius = 2\ngravity_scale = 5000\n";
    let no_levels = |_: &str| Err(std::io::Error::other("no level files here"));
    let e = collide_scene::from_toml_str(text, "scale.toml", &no_levels).expect_err("refused");
    let msg = e.to_string();
    assert!(
        msg.contains("ball[0].gravity_scale") && msg.contains("scale.toml") && msg.contains(":7"),
        "{msg}"
    );
    let ok = text.replace("5000", "-0.25");
    let scene = collide_scene::from_toml_str(&ok, "scale.toml", &no_levels).expect("valid");
    assert_eq!(scene.balls[0].gravity_scale, -0.25);
}

#[test]
fn elastic_balls_at_the_largest_scales_keep_their_energy() {
    // Scales of ±1000 (the bound) under gravity 10⁶ units/s² (accelerations of 10⁹), among
    // tiles in a closed box, restitution 1, ball–ball on: kinetic plus potential energy is kept
    // to 1e-9 of the kinetic plus the absolute potential energy at every step.
    let config = StepConfig {
        dt: 1.0 / 60.0,
        gravity: Vec2::new(0.0, 1e6),
        restitution: 1.0,
        ..StepConfig::default()
    };
    let mut w = World::new(Vec2::new(400.0, 400.0), Walls::ALL, config).expect("a valid world");
    w.set_grid(crate::build::grid_where(20, 20, 20.0, |c, r| {
        (r * 7 + c * 3) % 11 == 0 && r > 1 && r < 18
    }));
    let mut rng = XorShift64Star::new(4);
    let mut added = 0;
    while added < 16 {
        let pos = Vec2::new(rng.range_f64(5.0, 395.0), rng.range_f64(5.0, 395.0));
        let scale = [-1000.0, -1.0, 1.0, 1000.0][(rng.next_u64() % 4) as usize];
        let desc = ball(pos, rng.unit_vector() * 200.0, 3.0, scale);
        if w.circle_is_free(pos, 3.0, None) && w.balls().all(|b| (b.pos - pos).length() > 6.0) {
            w.add_ball(desc).expect("valid");
            added += 1;
        }
    }
    let e0 = w.energy();
    let size = w.kinetic_energy() + w.potential_energy().abs();
    let mut worst: f64 = 0.0;
    for _ in 0..240 {
        w.step();
        worst = worst.max((w.energy() - e0).abs() / size);
    }
    assert!(worst < 1e-9, "energy drifted {worst:e} of its size");
}
