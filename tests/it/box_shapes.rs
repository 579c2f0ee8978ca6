//! Dynamic rectangles against static segments and circles: times of impact worked out by hand
//! (straight lines and free fall), the bounce about the shape's normal, and boxes thrown at
//! high speed under gravity onto a floor made only of segments and pegs, which none passes.

use collide_world::Body;
use collide_world::Contact;
use collide_world::Target;
use collide_world::{
    Aabb, Event, RectDesc, RectId, RectKind, ShapeDesc, StepConfig, Surface, Vec2, Walls, World,
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
    crate::build::world_with(
        Vec2::new(400.0, 400.0),
        Walls::NONE,
        crate::build::config(dt, gravity),
    )
}

/// The first `rect_shape` contact of `id`, with its absolute time, stepping until `t_end`.
fn first_hit(w: &mut World, id: RectId, t_end: f64) -> Option<(f64, Vec2, Vec2)> {
    while w.time() < t_end {
        let t0 = w.time();
        for e in w.step() {
            if let Event::Contact(Contact {
                body: Body::Rect(rect),
                other: Target::Shape(_),
                point,
                normal,
                toi,
                ..
            }) = *e
            {
                if rect == id {
                    return Some((t0 + toi, normal, point));
                }
            }
        }
    }
    None
}

#[test]
fn a_box_falling_on_a_horizontal_segment_meets_it_when_its_bottom_reaches_the_line() {
    // Bottom face at y = 20 moving down at 100 units/s reaches the segment y = 100 at 0.8 s,
    // and leaves at −100 (restitution 1).
    let mut w = world(Vec2::ZERO, 1.0 / 64.0);
    w.add_shape(ShapeDesc::segment(
        Vec2::new(50.0, 100.0),
        Vec2::new(150.0, 100.0),
    ))
    .unwrap();
    let id = w
        .add_rect(dynamic(
            Vec2::new(90.0, 0.0),
            Vec2::new(20.0, 20.0),
            Vec2::new(0.0, 100.0),
        ))
        .unwrap();
    let (t, normal, point) = first_hit(&mut w, id, 2.0).expect("the box meets the segment");
    assert!((t - 0.8).abs() < 1e-12, "toi {t}");
    assert_eq!(normal, Vec2::new(0.0, -1.0));
    assert!((point.y - 100.0).abs() < 1e-12 && point.x >= 90.0 && point.x <= 110.0);
    let v = w.rect(id).unwrap().vel;
    assert!((v - Vec2::new(0.0, -100.0)).length() < 1e-9, "{v}");
}

#[test]
fn a_box_dropped_on_a_slanted_segment_leaves_along_the_reflection_about_its_normal() {
    // The line x + y = 200 (normal (−1, −1)/√2 toward the box). The box [40, 60] × [20, 40]
    // dropped from rest under g = 100: its bottom-right corner (60, 40 + 50·t²) meets the
    // line when 100 + 50·t² = 200, t = √2 s, with velocity (0, 100·√2); reflected about the
    // normal, (−100·√2, 0).
    let mut w = world(Vec2::new(0.0, 100.0), 1.0 / 64.0);
    w.add_shape(ShapeDesc::segment(
        Vec2::new(0.0, 200.0),
        Vec2::new(200.0, 0.0),
    ))
    .unwrap();
    let id = w
        .add_rect(dynamic(
            Vec2::new(40.0, 20.0),
            Vec2::new(20.0, 20.0),
            Vec2::ZERO,
        ))
        .unwrap();
    let (t, normal, point) = first_hit(&mut w, id, 3.0).expect("the box meets the segment");
    assert!((t - 2f64.sqrt()).abs() < 1e-9, "toi {t}");
    let n = Vec2::new(-1.0, -1.0) / 2f64.sqrt();
    assert!((normal - n).length() < 1e-12, "{normal}");
    assert!((point - Vec2::new(60.0, 140.0)).length() < 1e-7, "{point}");
    // The velocity at the end of the step: the reflected one plus gravity since the hit.
    let r = w.rect(id).unwrap();
    let since = w.time() - t;
    let expected = Vec2::new(-100.0 * 2f64.sqrt(), 100.0 * since);
    assert!(
        (r.vel - expected).length() < 1e-7,
        "{} vs {expected}",
        r.vel
    );
}

#[test]
fn a_box_corner_meets_a_peg_where_the_corner_reaches_the_circle() {
    // The top-right corner (10 + 100·t, 10) of a box moving right meets the disc of centre
    // (50, 13), radius 5, when (40 − 100·t)² + 9 = 25: t = 0.36 s, at the corner (46, 10),
    // normal (46 − 50, 10 − 13)/5 = (−0.8, −0.6).
    let mut w = world(Vec2::ZERO, 1.0 / 64.0);
    w.add_shape(ShapeDesc::circle(Vec2::new(50.0, 13.0), 5.0))
        .unwrap();
    let id = w
        .add_rect(dynamic(
            Vec2::new(0.0, 0.0),
            Vec2::new(10.0, 10.0),
            Vec2::new(100.0, 0.0),
        ))
        .unwrap();
    let (t, normal, point) = first_hit(&mut w, id, 1.0).expect("the box meets the peg");
    assert!((t - 0.36).abs() < 1e-12, "toi {t}");
    assert!(
        (normal - Vec2::new(-0.8, -0.6)).length() < 1e-12,
        "{normal}"
    );
    assert!((point - Vec2::new(46.0, 10.0)).length() < 1e-9, "{point}");
    // Reflected about the normal: v − 2(v·n)n with v·n = −80.
    let v = w.rect(id).unwrap().vel;
    let expected = Vec2::new(100.0, 0.0) - Vec2::new(-0.8, -0.6) * (2.0 * -80.0);
    assert!((v - expected).length() < 1e-9, "{v} vs {expected}");
}

/// How deep box `b` overlaps segment `a`–`c` (separating axes x, y and the segment's normal;
/// `<= 0` when apart or touching).
fn depth_segment(b: &Aabb, a: Vec2, c: Vec2) -> f64 {
    let n = Vec2::new(a.y - c.y, c.x - a.x).normalize();
    let mut depth = f64::INFINITY;
    for axis in [Vec2::X, Vec2::Y, n] {
        let corners = [
            b.min,
            b.max,
            Vec2::new(b.min.x, b.max.y),
            Vec2::new(b.max.x, b.min.y),
        ];
        let (blo, bhi) = corners
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| {
                (l.min(p.dot(axis)), h.max(p.dot(axis)))
            });
        let (slo, shi) = (a.dot(axis).min(c.dot(axis)), a.dot(axis).max(c.dot(axis)));
        depth = depth.min(bhi.min(shi) - blo.max(slo));
    }
    depth
}

#[test]
fn boxes_thrown_under_gravity_never_pass_a_floor_of_segments_and_pegs() {
    // A floor of slanted segments (a zigzag joined end to end) with pegs above it, the
    // world open at the bottom: a box that passed the floor would fall out (`RectLost`).
    let mut w = World::new(
        Vec2::new(400.0, 400.0),
        Walls::OPEN_BOTTOM,
        StepConfig {
            dt: 1.0 / 60.0,
            gravity: Vec2::new(0.0, 981.0),
            ..StepConfig::default()
        },
    )
    .unwrap();
    let mut rng = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut floor = Vec::new();
    let mut x = 0.0;
    let mut y = 330.0;
    while x < 400.0 {
        let (nx, ny) = (x + 20.0 + 30.0 * next(), 310.0 + 40.0 * next());
        floor.push((Vec2::new(x, y), Vec2::new(nx, ny)));
        (x, y) = (nx, ny);
    }
    for &(a, b) in &floor {
        w.add_shape(ShapeDesc::segment(a, b)).unwrap();
    }
    let mut pegs = Vec::new();
    for _ in 0..12 {
        let c = Vec2::new(20.0 + 360.0 * next(), 200.0 + 80.0 * next());
        pegs.push((c, 6.0));
        w.add_shape(ShapeDesc::circle(c, 6.0)).unwrap();
    }
    let mut boxes = Vec::new();
    for _ in 0..40 {
        let size = Vec2::new(2.0 + 6.0 * next(), 2.0 + 6.0 * next());
        let min = Vec2::new(20.0 + 350.0 * next(), 10.0 + 100.0 * next());
        let speed = 10f64.powf(1.0 + 3.0 * next());
        let dir = Vec2::new(next() - 0.5, 0.2 + next()).normalize();
        if let Ok(id) = w.add_rect(dynamic(min, size, dir * speed)) {
            boxes.push(id);
        }
    }
    assert!(boxes.len() >= 30);
    // Kinetic plus potential energy (restitution 1 everywhere).
    let e0 = w.energy();
    let mut limits = 0;
    let mut shape_hits = 0;
    for step in 0..400 {
        for e in w.step() {
            match e {
                Event::Contact(Contact {
                    body: Body::Rect(_),
                    other: Target::Shape(_),
                    ..
                }) => shape_hits += 1,
                Event::RectLost { rect, .. } => panic!("box {rect:?} passed the floor"),
                Event::IterationLimit { .. } => limits += 1,
                _ => {}
            }
        }
        for r in w.rects() {
            for &(a, b) in &floor {
                let d = depth_segment(&r.aabb, a, b);
                assert!(d < 1e-6, "step {step}: box {:?} {d} into a segment", r.id);
            }
            for &(c, radius) in &pegs {
                let p = c.clamp(r.aabb.min, r.aabb.max);
                let d = radius - (c - p).length();
                assert!(d < 1e-6, "step {step}: box {:?} {d} into a peg", r.id);
            }
        }
    }
    assert_eq!(w.rects().len(), boxes.len());
    assert!(shape_hits > 500, "{shape_hits} box–shape contacts");
    let drift = (w.energy() - e0).abs() / e0.abs();
    println!(
        "{shape_hits} box–shape contacts, {limits} iteration limits, energy drift {drift:.3e}"
    );
    assert!(drift < 1e-9, "energy drift {drift:e}");
}
