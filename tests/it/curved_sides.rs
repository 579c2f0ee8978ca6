//! Bodies on the curved side of a circle shape under gravity (`crates/world/src/step/settle.rs`,
//! `part_within`). No face holds a ball or a box there: gravity presses it into the circle and
//! each contact parts at least as fast as a flight of `REST_TIME` needs, so the body hops
//! round the side. The parting takes its speed from the sliding motion: a body is never faster
//! after a contact than it came in, so the world's energy (kinetic and potential) never rises
//! from one step to the next, and the body never sinks into the circle.

use crate::uniform::uniform;
use collide_world::{
    Aabb, BallDesc, Event, RectDesc, RectKind, ShapeDesc, StepConfig, Vec2, Walls, World,
};

/// A closed 800 × 800 world with gravity `g`, restitution `e`, sleep on or off, and a circle
/// shape of radius `radius` at its centre.
fn world(g: Vec2, e: f64, sleep: bool, radius: f64) -> World {
    let config = StepConfig {
        dt: 1.0 / 60.0,
        restitution: e,
        gravity: g,
        sleep,
        ..StepConfig::default()
    };
    let mut w = World::new(Vec2::new(800.0, 800.0), Walls::ALL, config).expect("a valid world");
    w.add_shape(ShapeDesc::circle(CENTRE, radius))
        .expect("a valid circle");
    w
}

const CENTRE: Vec2 = Vec2::new(400.0, 400.0);

/// One random case: gravity of 100 to 10 000 units/s² in any direction, restitution 0 to 0.9,
/// sleep on or off, a circle of radius 10 to 80, and the unit direction from its centre at
/// 3° to 80° from straight up against gravity (where gravity presses a body into the side).
struct Case {
    g: Vec2,
    e: f64,
    sleep: bool,
    radius: f64,
    dir: Vec2,
}

fn case(next: &mut impl FnMut() -> f64) -> Case {
    let gravity_angle = std::f64::consts::TAU * next();
    let g = Vec2::new(gravity_angle.cos(), gravity_angle.sin()) * (100.0 + 9900.0 * next());
    let up = -g / g.length();
    let side = if next() < 0.5 { -1.0 } else { 1.0 };
    let off = side * (3.0 + 77.0 * next()).to_radians();
    let dir = Vec2::new(
        up.x * off.cos() - up.y * off.sin(),
        up.x * off.sin() + up.y * off.cos(),
    );
    Case {
        g,
        e: 0.9 * next(),
        sleep: next() < 0.5,
        radius: 10.0 + 70.0 * next(),
        dir,
    }
}

/// Steps `w` 3 s and checks after every step: the energy no higher than after the step before
/// (1e-12 of it for rounding), no `IterationLimit`, and `clear` (the body outside the circle
/// within 1e-9). `what` names the case in failures.
fn never_gains(w: &mut World, what: &str, clear: impl Fn(&World) -> f64) {
    let mut before = w.energy();
    for k in 0..180 {
        w.step();
        assert!(
            !w.events()
                .iter()
                .any(|e| matches!(e, Event::IterationLimit { .. })),
            "{what}, step {k}"
        );
        let now = w.energy();
        assert!(
            now <= before + 1e-12 * before.abs(),
            "{what}, step {k}: energy {now} > {before}"
        );
        before = now;
        let depth = clear(w);
        assert!(depth > -1e-9, "{what}, step {k}: {depth} inside the circle");
    }
}

/// 300 balls (point balls and radii up to 6), each dropped from 1 unit above a random point
/// of a circle's side, hop and slide round it and fall off: the energy never rises, the ball
/// never enters the circle, no event bound. (Before the parting took its speed from the
/// sliding motion, a ball landing slower than the parting speed gained the difference at each
/// hop.)
#[test]
fn a_ball_sliding_round_a_circles_side_never_gains_energy() {
    let mut next = uniform(0x2545_f491_4f6c_dd1d);
    for k in 0..300 {
        let c = case(&mut next);
        let r = if k % 5 == 0 { 0.0 } else { 6.0 * next() };
        let mut w = world(c.g, c.e, c.sleep, c.radius);
        let id = w
            .add_ball(BallDesc {
                pos: CENTRE + c.dir * (c.radius + r + 1.0),
                radius: r,
                ..BallDesc::default()
            })
            .expect("a valid ball");
        let what = format!(
            "case {k}: g {}, e {}, sleep {}, circle {}, ball {r} at {}",
            c.g, c.e, c.sleep, c.radius, c.dir
        );
        never_gains(&mut w, &what, |w| {
            let b = w.ball(id).expect("alive");
            (b.pos - CENTRE).length() - c.radius - r
        });
    }
}

/// 200 boxes (sides 1 to 20), each dropped from 1 unit above a random point of a circle's
/// side by its nearest corner, slide and hop round it and fall off: the energy never rises,
/// the box never enters the circle, no event bound.
#[test]
fn a_box_sliding_round_a_circles_side_never_gains_energy() {
    let mut next = uniform(0x9e37_79b9_7f4a_7c15);
    for k in 0..200 {
        let c = case(&mut next);
        let size = Vec2::new(1.0 + 19.0 * next(), 1.0 + 19.0 * next());
        let mut w = world(c.g, c.e, c.sleep, c.radius);
        // The corner nearest the circle 1 unit out along `dir`.
        let corner = CENTRE + c.dir * (c.radius + 1.0);
        let min = Vec2::new(
            if c.dir.x >= 0.0 {
                corner.x
            } else {
                corner.x - size.x
            },
            if c.dir.y >= 0.0 {
                corner.y
            } else {
                corner.y - size.y
            },
        );
        let id = w
            .add_rect(RectDesc {
                aabb: Aabb::new(min, min + size),
                kind: RectKind::Dynamic,
                ..RectDesc::default()
            })
            .expect("a valid box");
        let what = format!(
            "case {k}: g {}, e {}, sleep {}, circle {}, box {size} at {}",
            c.g, c.e, c.sleep, c.radius, c.dir
        );
        never_gains(&mut w, &what, |w| {
            let b = w.rect(id).expect("alive").aabb;
            // The distance from the circle's centre to the box, less the radius.
            let p = CENTRE.clamp(b.min, b.max);
            (p - CENTRE).length() - c.radius
        });
    }
}
