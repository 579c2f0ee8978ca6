//! The world's queries see the pinball shapes: `cast_circle`, `query_point` and `query_aabb`
//! hit static segments and circles and flippers (where they are at the world's time) at the
//! hand-computed fractions, keep to the filter, and `World::query_index` answers the same.

use collide_world::Filter;
use collide_world::{Aabb, FlipperDesc, ShapeDesc, StepConfig, Target, Vec2, Walls, World};

/// A 400 × 400 world with no walls: a segment from (300, 100) to (300, 300), a bumper of
/// radius 20 at (100, 300), and a flipper at rest pointing right from (200, 50), length 60,
/// radius 5 (its core from (200, 50) to (260, 50)).
fn table() -> (World, Target, Target, Target) {
    let mut w =
        World::new(Vec2::new(400.0, 400.0), Walls::NONE, StepConfig::default()).expect("valid");
    let seg = w
        .add_shape(ShapeDesc::segment(
            Vec2::new(300.0, 100.0),
            Vec2::new(300.0, 300.0),
        ))
        .expect("valid");
    let bumper = w
        .add_shape(ShapeDesc::circle(Vec2::new(100.0, 300.0), 20.0))
        .expect("valid");
    let flipper = w
        .add_flipper(FlipperDesc::new(
            Vec2::new(200.0, 50.0),
            60.0,
            5.0,
            0.0,
            -0.5,
            10.0,
        ))
        .expect("valid");
    (
        w,
        Target::Shape(seg),
        Target::Shape(bumper),
        Target::Flipper(flipper),
    )
}

#[test]
fn casts_meet_segments_bumpers_and_flippers_at_the_computed_fractions() {
    let (w, seg, bumper, flipper) = table();
    // A ray from (0, 200) to (400, 200) meets the segment's face x = 300: fraction 0.75.
    let h = w
        .cast_circle(
            Vec2::new(0.0, 200.0),
            Vec2::new(400.0, 200.0),
            0.0,
            &[],
            Filter::ALL,
        )
        .expect("a hit");
    assert_eq!(h.target, seg);
    assert!((h.toi - 0.75).abs() < 1e-15, "{h:?}");
    assert_eq!(h.normal, Vec2::new(-1.0, 0.0));
    // A circle of radius 5 from (100, 100) down to (100, 400) meets the bumper's top when its
    // centre is 25 above (100, 300): y = 275, fraction 175/300.
    let h = w
        .cast_circle(
            Vec2::new(100.0, 100.0),
            Vec2::new(100.0, 400.0),
            5.0,
            &[],
            Filter::ALL,
        )
        .expect("a hit");
    assert_eq!(h.target, bumper);
    assert!((h.toi - 175.0 / 300.0).abs() < 1e-12, "{h:?}");
    assert!((h.point - Vec2::new(100.0, 280.0)).length() < 1e-9);
    // A circle of radius 3 falling at x = 230 from y = 0 meets the flipper's top surface
    // (y = 45) when its centre is at 42: fraction 42/100; the contact point is on the capsule.
    let h = w
        .cast_circle(
            Vec2::new(230.0, 0.0),
            Vec2::new(230.0, 100.0),
            3.0,
            &[],
            Filter::ALL,
        )
        .expect("a hit");
    assert_eq!(h.target, flipper);
    assert!((h.toi - 0.42).abs() < 1e-12, "{h:?}");
    assert!((h.point - Vec2::new(230.0, 45.0)).length() < 1e-9, "{h:?}");
    assert_eq!(h.normal, Vec2::new(0.0, -1.0));
    // A filter that collides with nothing of layer 0 sees none of them.
    let blind = Filter::new(1 << 5, 1 << 5);
    assert!(w
        .cast_circle(
            Vec2::new(0.0, 200.0),
            Vec2::new(400.0, 200.0),
            0.0,
            &[],
            blind
        )
        .is_none());
    // The index answers the same.
    let index = w.query_index();
    let a = w.cast_circle(
        Vec2::new(230.0, 0.0),
        Vec2::new(230.0, 100.0),
        3.0,
        &[],
        Filter::ALL,
    );
    let b = index.cast_circle(
        Vec2::new(230.0, 0.0),
        Vec2::new(230.0, 100.0),
        3.0,
        &[],
        Filter::ALL,
    );
    assert_eq!(a, b);
}

#[test]
fn point_and_box_queries_find_bumpers_flippers_and_segments() {
    let (w, seg, bumper, flipper) = table();
    let mut out = Vec::new();
    w.query_point(Vec2::new(110.0, 310.0), Filter::ALL, &mut out);
    assert_eq!(out, vec![bumper]);
    out.clear();
    // On the flipper's rim: 5 below its core.
    w.query_point(Vec2::new(250.0, 55.0), Filter::ALL, &mut out);
    assert_eq!(out, vec![flipper]);
    out.clear();
    // A point on the segment itself, and one beside it.
    w.query_point(Vec2::new(300.0, 150.0), Filter::ALL, &mut out);
    assert_eq!(out, vec![seg]);
    out.clear();
    w.query_point(Vec2::new(300.5, 150.0), Filter::ALL, &mut out);
    assert!(out.is_empty());
    // A box across the segment and over the flipper's tip; the bumper is 5 below it.
    w.query_aabb(
        &Aabb::new(Vec2::new(255.0, 40.0), Vec2::new(320.0, 275.0)),
        Filter::ALL,
        &mut out,
    );
    assert_eq!(out, vec![seg, flipper]);
    out.clear();
    // A box whose edge lies along the segment has no area in common with it.
    w.query_aabb(
        &Aabb::new(Vec2::new(300.0, 120.0), Vec2::new(310.0, 130.0)),
        Filter::ALL,
        &mut out,
    );
    assert!(out.is_empty(), "{out:?}");
    let mut by_index = Vec::new();
    let index = w.query_index();
    index.query_aabb(
        &Aabb::new(Vec2::new(255.0, 40.0), Vec2::new(320.0, 275.0)),
        Filter::ALL,
        &mut by_index,
    );
    assert_eq!(by_index, vec![seg, flipper]);
}

/// A ray is a cast of radius 0: from (0, 300) toward (400, 300) it meets the bumper of radius 20
/// at (100, 300) where x = 80, a fifth of the way, with the normal pointing back (-1, 0); a ray
/// along y = 100 meets the segment x = 300 at three quarters. The index answers the same.
#[test]
fn a_ray_hits_at_the_hand_computed_fraction() {
    let (w, _seg, bumper, _flipper) = table();
    let hit = w
        .cast_ray(
            Vec2::new(0.0, 300.0),
            Vec2::new(400.0, 300.0),
            &[],
            Filter::ALL,
        )
        .expect("the bumper");
    assert_eq!(hit.target, bumper);
    assert!((hit.toi - 0.2).abs() < 1e-12, "{}", hit.toi);
    assert!((hit.point - Vec2::new(80.0, 300.0)).length() < 1e-9);
    assert!((hit.normal - Vec2::new(-1.0, 0.0)).length() < 1e-12);
    let side = w
        .cast_ray(
            Vec2::new(0.0, 150.0),
            Vec2::new(400.0, 150.0),
            &[],
            Filter::ALL,
        )
        .expect("the segment");
    assert!((side.toi - 0.75).abs() < 1e-12, "{}", side.toi);
    let idx = w.query_index();
    for (a, b) in [
        ((0.0, 300.0), (400.0, 300.0)),
        ((0.0, 150.0), (400.0, 150.0)),
        ((0.0, 390.0), (400.0, 390.0)),
    ] {
        let (a, b) = (Vec2::new(a.0, a.1), Vec2::new(b.0, b.1));
        assert_eq!(
            w.cast_ray(a, b, &[], Filter::ALL),
            idx.cast_ray(a, b, &[], Filter::ALL)
        );
        assert_eq!(
            w.cast_ray(a, b, &[], Filter::ALL),
            w.cast_circle(a, b, 0.0, &[], Filter::ALL)
        );
    }
    // Nothing on y = 390 in a world without walls.
    assert!(w
        .cast_ray(
            Vec2::new(0.0, 390.0),
            Vec2::new(400.0, 390.0),
            &[],
            Filter::ALL
        )
        .is_none());
}
