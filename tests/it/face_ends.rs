//! Bodies sliding off the end of a face under gravity (`crates/world/src/step/settle.rs`,
//! `end_rest`). A face holds a ball while its centre is over the face, a box while any part
//! of it is; at the end of that range the body rolls over the edge or flies free. The end is
//! found on the body's parabola, and the body's place there, computed from the same parabola,
//! can round to a hair short of the end: the face would then hold it again at once, its rest
//! end again at that instant, and so on until the event bound, the body stuck at the edge
//! for the rest of the step. On a slanted segment a ball rolling over the end has a velocity
//! along the normal within rounding of zero, and the end point met at once did the same; and
//! a landing that left the normal velocity a rounding below zero was not held by the face.

use crate::uniform::uniform;
use collide_world::collide_core::{distance_point_aabb, distance_point_segment, Segment};
use collide_world::{
    Aabb, BallDesc, Body, Event, RectDesc, RectId, RectKind, ShapeDesc, StepConfig, Target, Vec2,
    Walls, World,
};

/// One random case: gravity of 100 to 10 000 units/s² downward with a rightward part of 0.4
/// to 1.5 times that, a static rectangle 20 to 100 units wide at a random place (coordinates
/// with all their bits), a sliding speed of 0 to 600 units/s to the right (or, in 3 cases in
/// 10, to the left, a fraction `back` of the speed that gravity turns round before the face's
/// left end), and the height (0, or up to 2 units) from which the body drops onto the face
/// (landing at a time with all its bits, where its path on the face starts).
struct Case {
    g: Vec2,
    rect: Aabb,
    speed: f64,
    back: f64,
    drop: f64,
}

fn case(next: &mut impl FnMut() -> f64) -> Case {
    let gy = 100.0 + 9900.0 * next();
    let min = Vec2::new(40.0 + 200.0 * next(), 300.0 + 200.0 * next());
    let size = Vec2::new(20.0 + 80.0 * next(), 20.0 + 100.0 * next());
    Case {
        g: Vec2::new(gy * (0.4 + 1.1 * next()), gy),
        rect: Aabb::new(min, min + size),
        speed: 600.0 * next(),
        back: if next() < 0.3 { next() } else { 0.0 },
        drop: if next() < 0.25 { 0.0 } else { 2.0 * next() },
    }
}

impl Case {
    /// The body's starting velocity with `room` units of the face to its left (its centre's
    /// range, less its part beyond the face for a box).
    fn vel(&self, room: f64) -> Vec2 {
        if self.back > 0.0 {
            Vec2::new(-self.back * (2.0 * self.g.x * room.max(0.0)).sqrt(), 0.0)
        } else {
            Vec2::new(self.speed, 0.0)
        }
    }
}

/// A closed 800 × 800 world under gravity `g` with restitution 0 (a body that leaves its
/// face ends in a bottom corner, never back on it).
fn closed_world(g: Vec2) -> World {
    let config = StepConfig {
        dt: 1.0 / 60.0,
        restitution: 0.0,
        gravity: g,
        ..StepConfig::default()
    };
    World::new(Vec2::new(800.0, 800.0), Walls::ALL, config).expect("a valid world")
}

/// [`closed_world`] with the static rectangle `rect`.
fn world(g: Vec2, rect: Aabb) -> (World, RectId) {
    let mut w = closed_world(g);
    let id = w
        .add_rect(RectDesc {
            aabb: rect,
            kind: RectKind::Static,
            ..RectDesc::default()
        })
        .expect("a valid rectangle");
    (w, id)
}

/// Steps `w` 5 s; after every step: no `IterationLimit`, no two contacts of `body` with the
/// obstacle `on` at one instant (a body slow at the edge hops round the corner, each hop
/// later than the one before), and `clear` (how far the body is outside the obstacle) not
/// below −1e-9. At the end the body is past the face's end (`past`). `what` names the case
/// in failures.
fn slides_off(
    w: &mut World,
    body: Body,
    on: Target,
    what: &str,
    clear: impl Fn(&World) -> f64,
    past: impl Fn(&World) -> bool,
) {
    let mut last = None;
    for k in 0..300 {
        w.step();
        for e in w.events() {
            match e {
                Event::IterationLimit { .. } => panic!("{what}, step {k}: {e:?}"),
                Event::Contact(c) if c.body == body && c.other == on => {
                    let at = w.time() - w.config().dt + c.toi;
                    assert!(last != Some(at), "{what}, step {k}: again at {at}: {c:?}");
                    last = Some(at);
                }
                _ => {}
            }
        }
        let d = clear(w);
        assert!(d >= -1e-9, "{what}, step {k}: {d} inside the obstacle");
    }
    assert!(past(w), "{what}: still on the face");
}

/// 4000 balls (radius 0 to 8, a fifth of them point balls), each set or dropped on a static
/// rectangle's top and sliding right under gravity pressing down and right, leave its top-right edge
/// (rolling or hopping round the corner when slow, flying off when fast): no event bound,
/// never met twice by the rectangle at one instant, never inside it, past its right side at
/// the end.
#[test]
fn a_ball_slides_off_a_rectangles_edge_without_being_held_there() {
    let mut next = uniform(0x5851_f42d_4c95_7f2d);
    for k in 0..4000 {
        let c = case(&mut next);
        let r = if k % 5 == 0 { 0.0 } else { 8.0 * next() };
        let (mut w, on) = world(c.g, c.rect);
        let x = c.rect.min.x + (c.rect.max.x - c.rect.min.x) * (0.2 + 0.8 * next());
        let id = w
            .add_ball(BallDesc {
                pos: Vec2::new(x, c.rect.min.y - r - c.drop),
                vel: c.vel(x - c.rect.min.x),
                radius: r,
                ..BallDesc::default()
            })
            .expect("a valid ball");
        let what = format!(
            "case {k}: g {}, rect {:?}, ball {r} at {x} moving {}",
            c.g,
            c.rect,
            c.vel(x - c.rect.min.x)
        );
        slides_off(
            &mut w,
            Body::Ball(id),
            Target::Rect(on),
            &what,
            |w| {
                let b = w.ball(id).expect("alive");
                distance_point_aabb(b.pos, &c.rect) - r
            },
            |w| w.ball(id).expect("alive").pos.x > c.rect.max.x,
        );
    }
}

/// 1000 boxes (sides 1 to 20) set or dropped on a static rectangle's top and sliding right
/// under gravity pressing down and right leave its top-right edge as soon as no part of them
/// is over the face: no event bound, never met twice by the rectangle at one instant, never
/// inside it, past its right side at the end.
#[test]
fn a_box_slides_off_a_rectangles_edge_without_being_held_there() {
    let mut next = uniform(0x2127_599b_f432_5c37);
    for k in 0..1000 {
        let c = case(&mut next);
        let size = Vec2::new(1.0 + 19.0 * next(), 1.0 + 19.0 * next());
        let (mut w, on) = world(c.g, c.rect);
        let x = c.rect.min.x + (c.rect.max.x - c.rect.min.x) * (0.2 + 0.8 * next()) - size.x;
        let min = Vec2::new(x, c.rect.min.y - size.y - c.drop);
        let vel = c.vel(x + size.x - c.rect.min.x);
        let id = w
            .add_rect(RectDesc {
                aabb: Aabb::new(min, min + size),
                vel,
                kind: RectKind::Dynamic,
                ..RectDesc::default()
            })
            .expect("a valid box");
        let what = format!(
            "case {k}: g {}, rect {:?}, box {size} at {x} moving {vel}",
            c.g, c.rect
        );
        slides_off(
            &mut w,
            Body::Rect(id),
            Target::Rect(on),
            &what,
            |w| {
                let b = w.rect(id).expect("alive").aabb;
                // Overlap depth along the axis of least penetration (negative inside).
                let dx = (b.max.x - c.rect.min.x).min(c.rect.max.x - b.min.x);
                let dy = (b.max.y - c.rect.min.y).min(c.rect.max.y - b.min.y);
                -dx.min(dy)
            },
            |w| w.rect(id).expect("alive").aabb.min.x > c.rect.max.x,
        );
    }
}

/// 4000 balls (radius 0 to 8) set or dropped on a static segment sloping down to the right
/// at 3° to 60°, sliding down it under gravity (100 to 10 000 units/s² straight down) from a
/// random point, leave its lower end (rolling over it when slow): no event bound, never met
/// twice by the segment at one instant, never closer to it than their radius less 1e-9, past
/// its lower end at the end.
#[test]
fn a_ball_slides_off_a_slanted_segments_end_without_being_held_there() {
    let mut next = uniform(0x1405_7b7e_f767_814f);
    for k in 0..4000 {
        let g = Vec2::new(0.0, 100.0 + 9900.0 * next());
        let angle = (3.0 + 57.0 * next()).to_radians();
        let a = Vec2::new(100.0 + 100.0 * next(), 200.0 + 100.0 * next());
        let b = a + Vec2::new(angle.cos(), angle.sin()) * (20.0 + 80.0 * next());
        let r = if k % 5 == 0 { 0.0 } else { 8.0 * next() };
        // A point ball set exactly on the line could start on either side of it (rounding).
        let drop = if next() < 0.25 && r > 0.0 {
            0.0
        } else {
            0.1 + 1.9 * next()
        };
        let mut w = closed_world(g);
        let on = w
            .add_shape(ShapeDesc::segment(a, b))
            .expect("a valid segment");
        // The upper side's normal, pointing up and left.
        let n = Vec2::new(angle.sin(), -angle.cos());
        let start = a + (b - a) * (0.1 + 0.8 * next()) + n * (r + drop);
        let id = w
            .add_ball(BallDesc {
                pos: start,
                radius: r,
                ..BallDesc::default()
            })
            .expect("a valid ball");
        let what = format!("case {k}: g {g}, segment {a} {b}, ball {r} at {start} drop {drop}");
        slides_off(
            &mut w,
            Body::Ball(id),
            Target::Shape(on),
            &what,
            |w| distance_point_segment(w.ball(id).expect("alive").pos, &Segment { a, b }) - r,
            |w| w.ball(id).expect("alive").pos.x > b.x,
        );
    }
}
