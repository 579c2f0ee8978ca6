//! Dynamic boxes resting and sliding on static shapes under gravity
//! (`crates/world/src/step/shape_rest.rs`): held by a slanted face by the corner that touches
//! it and by an axis-aligned face (a segment, a polygon's top, a circle's top point, a
//! segment's end or a polygon's vertex under the box's face) while any part of the box's face
//! is over it, as on tiles and slope cells. A box set on a slanted
//! segment, polyline or polygon face slides down it on the exact parabola of a frictionless
//! incline with no contact (no hop, no ghost collision at a polyline's joints); pressed
//! straight into a face it stays where it lies; dropped, its bounces fade into rest with no
//! energy gained; a snapshot of a sliding box continues bit for bit.

use collide_world::{
    Aabb, Body, Contact, Event, Filter, RectDesc, RectId, RectKind, ShapeDesc, StepConfig, Target,
    Vec2, Walls, World,
};

const G: f64 = 1000.0;

fn world(gravity: Vec2, restitution: f64, size: Vec2) -> World {
    let config = StepConfig {
        dt: 1.0 / 60.0,
        restitution,
        gravity,
        ..StepConfig::default()
    };
    World::new(size, Walls::ALL, config).expect("a valid world")
}

/// A dynamic box of `size` whose bottom-left corner is at `corner`, at rest.
fn add_box(w: &mut World, corner: Vec2, size: Vec2) -> RectId {
    w.add_rect(RectDesc {
        aabb: Aabb::new(
            corner - Vec2::new(0.0, size.y),
            corner + Vec2::new(size.x, 0.0),
        ),
        kind: RectKind::Dynamic,
        ..RectDesc::default()
    })
    .expect("a valid box")
}

fn bottom_left(w: &World, id: RectId) -> Vec2 {
    let b = w.rect(id).expect("alive").aabb;
    Vec2::new(b.min.x, b.max.y)
}

/// The slanted floors, each a face from `a` along `step` (a direction exact in its
/// components, so every piece of a polyline has the same normal bits), descending to the
/// right, whose upper side holds a box by its bottom-left corner.
#[derive(Clone, Copy, Debug)]
enum Slant {
    Segment,
    Polyline,
    Polygon,
}

/// Adds `slant` from `a`, `pieces` times `step` long.
fn add_slant(w: &mut World, slant: Slant, a: Vec2, step: Vec2, pieces: usize) {
    let b = a + step * pieces as f64;
    match slant {
        Slant::Segment => {
            w.add_shape(ShapeDesc::segment(a, b)).expect("valid");
        }
        Slant::Polyline => {
            let pts: Vec<Vec2> = (0..=pieces).map(|k| a + step * k as f64).collect();
            w.add_polyline(&pts, false, None, Filter::DEFAULT)
                .expect("valid");
        }
        Slant::Polygon => {
            let below = Vec2::new(a.x, b.y);
            w.add_shape(ShapeDesc::polygon(&[a, b, below]).expect("valid"))
                .expect("valid");
        }
    }
}

/// The box's contacts with shapes in the last step.
fn shape_contacts(w: &World, id: RectId) -> usize {
    w.events()
        .iter()
        .filter(|e| {
            matches!(e, Event::Contact(Contact { body: Body::Rect(r), other: Target::Shape(_), .. }) if *r == id)
        })
        .count()
}

/// A box set at rest with its bottom-left corner on a slanted face slides down it as down a
/// frictionless incline: along the face's direction `d` its corner moves `½·g·d.y·t²` and its
/// velocity is `g·d.y·t` (gravity `(0, g)`'s part along `d`), 1e-9, from the contact that
/// sets it down (at once), with no contact after it for half a second, across a polyline's
/// joints too, its corner on the face's line within 1e-9.
/// Drops a 20 × 10 box with its bottom-left corner at (`left`, 280) onto `shape` (labelled `k`
/// in messages) under gravity `G` with restitution 0.5, lets its bounces fade for 1 s, then
/// asserts no event for 5 s and its bottom-left corner at (`left`, 300) within 1e-9.
fn assert_box_rests_where_dropped(shape: ShapeDesc, k: usize, left: f64) {
    let mut w = world(Vec2::new(0.0, G), 0.5, Vec2::new(400.0, 600.0));
    w.add_shape(shape).expect("valid");
    let id = add_box(&mut w, Vec2::new(left, 280.0), Vec2::new(20.0, 10.0));
    for _ in 0..60 {
        w.step();
    }
    for s in 0..300 {
        w.step();
        assert!(
            w.events().is_empty(),
            "shape {k}, left {left}, step {s}: {:?}",
            w.events()
        );
    }
    let p = bottom_left(&w, id);
    assert!(
        (p - Vec2::new(left, 300.0)).length() <= 1e-9,
        "shape {k}, left {left}: {p}"
    );
}

#[test]
fn a_box_slides_down_a_slanted_face_as_down_a_frictionless_incline() {
    let slopes = [
        Vec2::new(40.0, 30.0),
        Vec2::new(40.0, 40.0),
        Vec2::new(30.0, 40.0),
    ];
    for step in slopes {
        for slant in [Slant::Segment, Slant::Polyline, Slant::Polygon] {
            for size in [
                Vec2::splat(10.0),
                Vec2::new(24.0, 6.0),
                Vec2::new(4.0, 18.0),
            ] {
                let mut w = world(Vec2::new(0.0, G), 0.5, Vec2::new(1000.0, 1000.0));
                let a = Vec2::new(40.0, 100.0);
                add_slant(&mut w, slant, a, step, 12);
                let d = step / step.length();
                let up = Vec2::new(d.y, -d.x);
                // Between two of a polyline's joints.
                let start = a + step * 2.5;
                let id = add_box(&mut w, start, size);
                let first = w.step().to_vec();
                let tc = first
                    .iter()
                    .find_map(|e| match e {
                        Event::Contact(c) if c.body == Body::Rect(id) => Some(c.toi),
                        _ => None,
                    })
                    .expect("it meets the face at once");
                assert!(tc < 1e-6, "{slant:?} {step} {size}: {tc}");
                let acc = G * d.y;
                for k in 1..=30 {
                    w.step();
                    assert!(
                        w.events().is_empty(),
                        "{slant:?} {step} {size}: events while sliding (step {k}): {:?}",
                        w.events()
                    );
                    let t = w.time() - tc;
                    let p = bottom_left(&w, id);
                    let s = (p - start).dot(d);
                    let want = 0.5 * acc * t * t;
                    assert!(
                        (s - want).abs() <= 1e-9 * want,
                        "{slant:?} {step} {size} at {t}: along {s} against {want}"
                    );
                    let off = (p - start).dot(up);
                    assert!(
                        off.abs() <= 1e-9,
                        "{slant:?} {step} {size}: {off} off the face"
                    );
                    let v = w.rect(id).expect("alive").vel;
                    assert!(
                        (v - d * (acc * t)).length() <= 1e-9 * acc * t,
                        "{slant:?} {step} {size}: {v}"
                    );
                }
            }
        }
    }
}

/// With gravity normal to a slanted face, pressing the box straight into it, the face holds
/// the box still: after the contact that sets it down, no event and no motion for 10 s.
#[test]
fn a_box_pressed_straight_into_a_slanted_face_stays_where_it_lies() {
    for slant in [Slant::Segment, Slant::Polygon] {
        let step = Vec2::new(40.0, 30.0);
        let d = step / step.length();
        let g = Vec2::new(-d.y, d.x) * G;
        let mut w = world(g, 0.0, Vec2::new(1000.0, 1000.0));
        let a = Vec2::new(40.0, 100.0);
        add_slant(&mut w, slant, a, step, 12);
        let start = a + step * 2.5;
        let id = add_box(&mut w, start, Vec2::splat(10.0));
        w.step();
        for _ in 0..600 {
            w.step();
            assert!(w.events().is_empty(), "{slant:?}: {:?}", w.events());
        }
        let p = bottom_left(&w, id);
        assert!((p - start).length() < 1e-9, "{slant:?}: {p}");
        assert!(w.rect(id).expect("alive").vel.length() < 1e-9, "{slant:?}");
    }
}

/// A box dropped 20 units onto a slanted face with restitution 0.5 bounces down it, its
/// bounces fading (flights of `t₁·(1, e, e², …)`, 0.4 s in all), and then slides without a
/// contact; the world's energy (kinetic and potential) never rises from one step to the next.
#[test]
fn a_box_dropped_on_a_slanted_face_comes_to_slide_without_gaining_energy() {
    for slant in [Slant::Segment, Slant::Polyline, Slant::Polygon] {
        let mut w = world(Vec2::new(0.0, G), 0.5, Vec2::new(1000.0, 1000.0));
        let a = Vec2::new(40.0, 100.0);
        let step = Vec2::new(40.0, 30.0);
        add_slant(&mut w, slant, a, step, 25);
        let id = add_box(
            &mut w,
            a + step * 2.5 - Vec2::new(0.0, 20.0),
            Vec2::splat(10.0),
        );
        let mut before = w.energy();
        for k in 1..=60 {
            w.step();
            let now = w.energy();
            assert!(
                now <= before + 1e-12 * before.abs(),
                "{slant:?} at step {k}: {now} > {before}"
            );
            before = now;
            if k > 40 {
                assert_eq!(shape_contacts(&w, id), 0, "{slant:?} at step {k}");
            }
        }
    }
}

/// A box dropped onto a horizontal segment, a polygon's flat top and a circle's top comes to
/// rest there, held while any part of its bottom is over the face (so also with its centre
/// past the segment's end, and on the circle's one top point): after its bounces fade, no
/// event for 5 s, the bottom on the face within 1e-9, the box where it landed.
#[test]
fn a_box_dropped_on_a_flat_face_or_a_circle_top_rests_there() {
    for (k, shape) in [
        ShapeDesc::segment(Vec2::new(100.0, 300.0), Vec2::new(200.0, 300.0)),
        ShapeDesc::polygon(&[
            Vec2::new(100.0, 300.0),
            Vec2::new(200.0, 300.0),
            Vec2::new(200.0, 350.0),
            Vec2::new(100.0, 350.0),
        ])
        .expect("valid"),
        ShapeDesc::circle(Vec2::new(150.0, 400.0), 100.0),
    ]
    .into_iter()
    .enumerate()
    {
        // Centred on the top, and with its centre 5 units past the right end (the circle:
        // its top point 5 units from the box's left side).
        let past = if k == 2 { 145.0 } else { 195.0 };
        for left in [140.0, past] {
            assert_box_rests_where_dropped(shape, k, left);
        }
    }
}

/// A box sliding off the lower end of a slanted segment flies free as soon as its corner
/// passes the end, falls to the floor and comes to rest on it (sliding along it, off the
/// closed walls); the energy never rises.
#[test]
fn a_box_sliding_off_a_slanted_segment_flies_free_and_lands() {
    let mut w = world(Vec2::new(0.0, G), 0.5, Vec2::new(600.0, 600.0));
    let a = Vec2::new(40.0, 100.0);
    let step = Vec2::new(40.0, 30.0);
    add_slant(&mut w, Slant::Segment, a, step, 5);
    let id = add_box(&mut w, a + step * 0.5, Vec2::splat(10.0));
    let mut before = w.energy();
    for k in 1..=300 {
        w.step();
        let now = w.energy();
        assert!(
            now <= before + 1e-12 * before.abs(),
            "step {k}: {now} > {before}"
        );
        before = now;
    }
    let b = w.rect(id).expect("alive");
    assert!((b.aabb.max.y - 600.0).abs() <= 1e-9, "{:?}", b.aabb);
    assert!(b.vel.y == 0.0, "{}", b.vel);
}

/// A snapshot of a box sliding on a slanted polygon face (a rest whose normal the restore
/// takes from the shape) restored into the world as built continues with the same bits.
#[test]
fn a_box_sliding_on_a_shape_restores_and_continues_bit_for_bit() {
    let mut w = world(Vec2::new(0.0, G), 0.5, Vec2::new(1000.0, 1000.0));
    let a = Vec2::new(40.0, 100.0);
    let step = Vec2::new(40.0, 30.0);
    add_slant(&mut w, Slant::Polygon, a, step, 20);
    add_box(&mut w, a + step * 2.5, Vec2::splat(10.0));
    let built = w.clone();
    for _ in 0..10 {
        w.step();
    }
    let snap = w.snapshot();
    let mut r = built;
    r.restore(&snap).expect("a snapshot of this world");
    assert_eq!(r.state_hash(), w.state_hash());
    for _ in 0..60 {
        w.step();
        r.step();
        assert_eq!(r.state_hash(), w.state_hash(), "at {}", w.time());
    }
}

/// Boxes of random sizes set on slanted segments of random angle (5° to 80°) under random
/// gravity along y and random restitution: each slides on the incline's parabola with no
/// contact after the one that sets it down, over 20 steps.
#[test]
fn boxes_on_random_inclines_slide_on_the_inclines_parabola() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    for case in 0..200 {
        let theta = (5.0 + 75.0 * next()).to_radians();
        let g = 10.0 + 5000.0 * next();
        let size = Vec2::new(0.5 + 40.0 * next(), 0.5 + 40.0 * next());
        let d = Vec2::new(theta.cos(), theta.sin());
        let mut w = world(Vec2::new(0.0, g), next(), Vec2::new(2000.0, 2000.0));
        let a = Vec2::new(100.0, 100.0);
        w.add_shape(ShapeDesc::segment(a, a + d * 1800.0))
            .expect("valid");
        let start = a + d * (50.0 + 100.0 * next());
        let id = add_box(&mut w, start, size);
        let tc = w
            .step()
            .iter()
            .find_map(|e| match e {
                Event::Contact(c) if c.body == Body::Rect(id) => Some(c.toi),
                _ => None,
            })
            .unwrap_or(0.0);
        let acc = g * d.y;
        for k in 1..=20 {
            w.step();
            assert!(
                w.events().is_empty(),
                "case {case} step {k}: {:?}",
                w.events()
            );
            let t = w.time() - tc;
            let p = bottom_left(&w, id);
            let s = (p - start).dot(d);
            // Set down after a fall of `tc` from rest (within rounding of the face), it
            // keeps the fall's velocity along the face, `g·tc·d.y`.
            let want = acc * tc * t + 0.5 * acc * t * t;
            assert!(
                (s - want).abs() <= 1e-9 * want + 1e-12,
                "case {case} ({theta} rad, g {g}, {size}): along {s} against {want}"
            );
        }
    }
}

/// A box standing on a circle's top point by its bottom-left corner, moving off it to the
/// right: the point holds it for no time (it is at the end of its range moving out), so it
/// leaves over the circle's curved side; it never meets the circle over and over at one
/// instant (no `IterationLimit`), and it ends the first step past the top point.
#[test]
fn a_box_leaving_a_circles_top_point_by_its_corner_slides_off() {
    for speed in [1e-3, 1.0, 55.0] {
        let mut w = world(Vec2::new(0.0, G), 0.0, Vec2::new(400.0, 600.0));
        let c = Vec2::new(150.0, 400.0);
        w.add_shape(ShapeDesc::circle(c, 100.0)).expect("valid");
        let id = w
            .add_rect(RectDesc {
                aabb: Aabb::new(Vec2::new(150.0, 290.0), Vec2::new(170.0, 300.0)),
                vel: Vec2::new(speed, 0.0),
                kind: RectKind::Dynamic,
                ..RectDesc::default()
            })
            .expect("a valid box");
        for k in 0..60 {
            w.step();
            let limits = w
                .events()
                .iter()
                .filter(|e| matches!(e, Event::IterationLimit { .. }))
                .count();
            assert_eq!(limits, 0, "speed {speed}, step {k}");
        }
        let b = w.rect(id).expect("alive").aabb;
        assert!(b.min.x > c.x, "speed {speed}: {b:?}");
    }
}

/// A box dropped with its bottom face over a segment's upper end or a polygon's top vertex
/// (a segment descending to either side, a triangle pointing up, a diamond; the point under
/// the box's middle, 8 units from its left side and 1 unit from its right) rests on that point as on a circle's top point: after its bounces
/// fade, no event for 5 s, its bottom on the point's line within 1e-9, where it landed.
#[test]
fn a_box_dropped_on_a_segments_end_or_a_polygons_vertex_rests_there() {
    let top = Vec2::new(150.0, 300.0);
    for (k, shape) in [
        ShapeDesc::segment(top, Vec2::new(250.0, 380.0)),
        ShapeDesc::segment(Vec2::new(40.0, 390.0), top),
        ShapeDesc::polygon(&[top, Vec2::new(190.0, 360.0), Vec2::new(110.0, 360.0)])
            .expect("valid"),
        ShapeDesc::polygon(&[
            top,
            Vec2::new(180.0, 330.0),
            Vec2::new(150.0, 360.0),
            Vec2::new(120.0, 330.0),
        ])
        .expect("valid"),
    ]
    .into_iter()
    .enumerate()
    {
        for left in [140.0, 142.0, 131.0] {
            assert_box_rests_where_dropped(shape, k, left);
        }
    }
}

/// A box standing on a triangle's top vertex near its side, under gravity (±300, 1000), slides
/// along the vertex's line while its bottom face is over the vertex, with no contact after the
/// one that sets it down, and falls free once its side passes the vertex (10 units, after
/// `√(2·10/300)` s): then it leaves the line. A snapshot taken while it slides, restored into
/// the world as built, continues bit for bit.
#[test]
fn a_box_slides_off_a_polygons_vertex_when_its_face_passes_it() {
    let top = Vec2::new(150.0, 300.0);
    for gx in [-300.0, 300.0] {
        let mut w = world(Vec2::new(gx, G), 0.0, Vec2::new(400.0, 600.0));
        w.add_shape(
            ShapeDesc::polygon(&[top, Vec2::new(190.0, 360.0), Vec2::new(110.0, 360.0)])
                .expect("valid"),
        )
        .expect("valid");
        let id = add_box(&mut w, Vec2::new(140.0, 300.0), Vec2::new(20.0, 10.0));
        let built = w.clone();
        w.step();
        let t_off = (2.0 * 10.0 / 300.0f64).sqrt();
        let mut snap = None;
        let mut k = 1;
        while (k + 1) as f64 / 60.0 < t_off {
            w.step();
            k += 1;
            assert_eq!(shape_contacts(&w, id), 0, "gx {gx}, step {k}");
            assert_eq!(bottom_left(&w, id).y, 300.0, "gx {gx}, step {k}");
            if k == 5 {
                snap = Some(w.snapshot());
            }
        }
        let mut r = built;
        r.restore(snap.as_ref().expect("taken")).expect("restores");
        for _ in 0..30 {
            w.step();
        }
        assert!(
            bottom_left(&w, id).y > 300.5,
            "gx {gx}: {}",
            bottom_left(&w, id)
        );
        while r.time() < w.time() {
            r.step();
        }
        assert_eq!(r.state_hash(), w.state_hash(), "gx {gx}");
    }
}
