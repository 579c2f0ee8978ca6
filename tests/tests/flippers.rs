//! Rotating kinematic flippers in the step (`collide_world::flipper`): analytic times of
//! impact and bounces (a still flipper, a flip), the flipper's piecewise motion, invariants
//! over random flips at up to 1e4 units/s and 60 rad/s (no ball inside a flipper or on its
//! wrong side, energy kept in the flipper's frame with restitution 1), scene keys, snapshots
//! and the same bits for any thread count.

use collide_world::layers::Filter;
use collide_world::{
    BallDesc, Event, FlipperDesc, FlipperId, Scene, StepConfig, Vec2, Walls, World, WorldError,
};

fn parse_scene(file: &str, text: &str) -> Result<Scene, collide_world::scene::SceneError> {
    let no_levels = |_: &str| Err(std::io::Error::other("no level files here"));
    Scene::from_toml_str(text, file, &no_levels)
}

fn world(size: Vec2, dt: f64, gravity: Vec2) -> World {
    let config = StepConfig {
        dt,
        gravity,
        ..StepConfig::default()
    };
    World::new(size, Walls::ALL, config).expect("a valid world")
}

fn ball(pos: Vec2, vel: Vec2, radius: f64) -> BallDesc {
    BallDesc {
        pos,
        vel,
        radius,
        ..BallDesc::default()
    }
}

/// A flipper pivoting at (100, 200), 100 long, radius 10, resting horizontal (pointing +x)
/// and flipping up to −0.5 rad at `speed` rad/s.
fn flipper(speed: f64) -> FlipperDesc {
    FlipperDesc::new(Vec2::new(100.0, 200.0), 100.0, 10.0, 0.0, -0.5, speed)
}

/// Every `BallFlipper` event with its absolute time, stepping until `t_end`.
fn flipper_hits(w: &mut World, t_end: f64) -> Vec<(f64, Event)> {
    let mut out = Vec::new();
    while w.time() < t_end - 1e-12 {
        let t0 = w.time();
        for e in w.step().to_vec() {
            if let Event::BallFlipper { toi, .. } = e {
                out.push((t0 + toi, e));
            }
        }
    }
    out
}

#[test]
fn a_ball_falling_on_a_still_flipper_bounces_at_the_analytic_time() {
    // Gravity 1000 down; a ball of radius 5 at rest at (150, 100) above a horizontal flipper
    // whose top face is y = 190 (core y = 200, radius 10). It touches when its centre is at
    // y = 185: a fall of 85, at t = √(2·85/1000) = 0.41231 s, at speed √(2·1000·85) = 412.31.
    // The flipper does not move: the ball leaves straight up at the same speed (e = 1).
    let g = 1000.0;
    let mut w = world(Vec2::new(400.0, 400.0), 1.0 / 60.0, Vec2::new(0.0, g));
    let b = w
        .add_ball(ball(Vec2::new(150.0, 100.0), Vec2::ZERO, 5.0))
        .expect("valid");
    let f = w.add_flipper(flipper(30.0)).expect("valid");
    let hits = flipper_hits(&mut w, 0.45);
    assert_eq!(hits.len(), 1, "{hits:?}");
    let (t, e) = hits[0];
    let Event::BallFlipper {
        ball,
        flipper,
        point,
        normal,
        speed,
        surface_vel,
        ..
    } = e
    else {
        unreachable!()
    };
    assert_eq!((ball, flipper), (b, f));
    let t_exact = (2.0 * 85.0 / g).sqrt();
    let v_exact = (2.0 * g * 85.0).sqrt();
    assert!((t - t_exact).abs() < 1e-9, "{t} against {t_exact}");
    assert!((point - Vec2::new(150.0, 190.0)).length() < 1e-7, "{point}");
    assert!((normal - Vec2::new(0.0, -1.0)).length() < 1e-12, "{normal}");
    assert!((speed - v_exact).abs() < 1e-6, "{speed} against {v_exact}");
    assert_eq!(surface_vel, Vec2::ZERO);
    // Up again at the same speed: at 0.45 s it has flown 0.45 − t for `v − g·s`.
    let s = 0.45 - t_exact;
    let v = w.ball(b).unwrap().vel;
    assert!((v.y - (-v_exact + g * s)).abs() < 1e-6, "{v}");
    assert!(v.x.abs() < 1e-9);
}

#[test]
fn a_flip_shoots_a_ball_at_rest_with_twice_the_surface_speed() {
    // No gravity. A ball of radius 5 at rest at (150, 180): 20 above the core's line, 5 apart
    // from the flipper. The button is pressed: the flipper turns up at ω = −10 rad/s
    // (counter-clockwise on the screen, y down). With q = (50, −20) the centre from the
    // pivot, the core at angle θ is at distance |q.x·sin θ − q.y·cos θ| = |50 sin θ + 20 cos θ|
    // from it: contact when that is 15, θ = asin(15/√2900) − atan2(20, 50), at t = θ/ω. The
    // normal is the core's normal toward the ball, n = (sin θ, −cos θ); the contact point is
    // c + 10·n, c the foot of the centre on the core; the surface moves at
    // u = ω·(point − pivot).perp(). A ball at rest leaves (e = 1) with 2·(u·n)·n.
    let mut w = world(Vec2::new(400.0, 400.0), 1.0 / 60.0, Vec2::ZERO);
    let b = w
        .add_ball(ball(Vec2::new(150.0, 180.0), Vec2::ZERO, 5.0))
        .expect("valid");
    let f = w.add_flipper(flipper(10.0)).expect("valid");
    w.set_flipper_pressed(f, true).expect("a live flipper");
    let hits = flipper_hits(&mut w, 0.03);
    assert_eq!(hits.len(), 1, "{hits:?}");
    let (t, e) = hits[0];
    let Event::BallFlipper {
        point,
        normal,
        surface_vel,
        speed,
        ..
    } = e
    else {
        unreachable!()
    };
    let q = Vec2::new(50.0, -20.0);
    let theta = (15.0 / 2900f64.sqrt()).asin() - 20f64.atan2(50.0);
    let t_exact = theta / -10.0;
    assert!((t - t_exact).abs() < 1e-12, "{t} against {t_exact}");
    let dir = Vec2::new(theta.cos(), theta.sin());
    let n = Vec2::new(theta.sin(), -theta.cos());
    assert!((normal - n).length() < 1e-9, "{normal} against {n}");
    let foot = dir * q.dot(dir);
    let p = Vec2::new(100.0, 200.0) + foot + n * 10.0;
    assert!((point - p).length() < 1e-9, "{point} against {p}");
    let u = (p - Vec2::new(100.0, 200.0)).perp() * -10.0;
    assert!(
        (surface_vel - u).length() < 1e-9,
        "{surface_vel} against {u}"
    );
    assert!((speed - u.dot(n)).abs() < 1e-9, "{speed}");
    let v_out = n * (2.0 * u.dot(n));
    let v = w.ball(b).unwrap().vel;
    assert!((v - v_out).length() < 1e-9, "{v} against {v_out}");
}
