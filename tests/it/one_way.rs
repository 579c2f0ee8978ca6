//! One-way platforms for balls (`World::set_one_way`): a ball meets a one-way rectangle,
//! segment, circle or polygon only from above (the contact normal pointing up); from below
//! and from the sides it passes through, unchanged and with no event, and lands on the top
//! once it is above it. Hand times, the same bits as a world without the platform, a rising kinematic platform that
//! lifts what it meets from below, a snapshot taken during a pass, and a property over random
//! throws: no ball ever sinks into a platform from above, and energy is kept.

use crate::build::{ball, config, world_with};
use collide_world::{
    Aabb, BallId, Contact, Event, RectDesc, RectId, RectKind, ShapeDesc, ShapeId, StepConfig,
    Target, Vec2, Walls, World,
};
use proptest::prelude::*;

const DT: f64 = 1.0 / 64.0;

fn world(gravity: Vec2) -> World {
    world_with(Vec2::new(400.0, 400.0), Walls::ALL, config(DT, gravity))
}

/// A one-way rectangle of `kind` with `aabb`.
fn platform(w: &mut World, aabb: Aabb, kind: RectKind) -> RectId {
    let id = w
        .add_rect(RectDesc {
            aabb,
            kind,
            ..RectDesc::default()
        })
        .expect("a valid rectangle");
    w.set_one_way(Target::Rect(id), true).expect("a rectangle");
    id
}

/// Steps `w` `n` times; every contact of a ball with rectangle `r`: (absolute time, normal).
fn contacts_with(w: &mut World, r: RectId, n: usize) -> Vec<(f64, Vec2)> {
    let mut out = Vec::new();
    for _ in 0..n {
        let t0 = w.time();
        for e in w.step() {
            if let Event::Contact(Contact {
                other: Target::Rect(id),
                normal,
                toi,
                ..
            }) = *e
            {
                if id == r {
                    out.push((t0 + toi, normal));
                }
            }
        }
    }
    out
}

/// Steps `w` `n` times; every contact of a ball with shape `sh`: (absolute time, normal).
fn shape_contacts(w: &mut World, sh: ShapeId, n: usize) -> Vec<(f64, Vec2)> {
    let mut out = Vec::new();
    for _ in 0..n {
        let t0 = w.time();
        for e in w.step() {
            if let Event::Contact(Contact {
                other: Target::Shape(id),
                normal,
                toi,
                ..
            }) = *e
            {
                if id == sh {
                    out.push((t0 + toi, normal));
                }
            }
        }
    }
    out
}

/// A one-way static shape.
fn one_way_shape(w: &mut World, desc: ShapeDesc) -> ShapeId {
    let id = w.add_shape(desc).expect("a valid shape");
    w.set_one_way(Target::Shape(id), true).expect("a shape");
    id
}

fn pos(w: &World, b: BallId) -> Vec2 {
    w.ball(b).expect("a live ball").pos
}

#[test]
fn a_ball_thrown_up_passes_a_platform_and_lands_on_it_at_the_parabolas_root() {
    // g = 1000 down; radius 5 from y = 300 at 600 units/s up; the platform spans y 150..160.
    // The top of the flight is y = 300 − 600²/2000 = 120 (bottom 125, above the top face);
    // falling, the bottom meets y = 150 when y(t) = 300 − 600t + 500t² = 145: the later
    // root of 500t² − 600t + 155 = 0.
    let mut w = world(Vec2::new(0.0, 1000.0));
    let p = platform(
        &mut w,
        Aabb::new(Vec2::new(50.0, 150.0), Vec2::new(150.0, 160.0)),
        RectKind::Static,
    );
    let b = w
        .add_ball(ball(Vec2::new(100.0, 300.0), Vec2::new(0.0, -600.0), 5.0))
        .expect("a valid ball");
    let e0 = w.energy();
    let hits = contacts_with(&mut w, p, 90);
    let t_land = (600.0 + (600.0f64 * 600.0 - 4.0 * 500.0 * 155.0).sqrt()) / 1000.0;
    assert!(!hits.is_empty(), "the ball never landed on the platform");
    let (t, n) = hits[0];
    assert!(
        (t - t_land).abs() < 1e-9,
        "landed at {t}, expected {t_land}"
    );
    assert_eq!(n, Vec2::new(0.0, -1.0));
    // Elastic: it rises again to y = 120 and lands again one flight later, from y = 145 up
    // to 120 and back: 2·√(2·25/1000) s.
    let flight = 2.0 * (2.0f64 * 25.0 / 1000.0).sqrt();
    assert!(hits.len() >= 2, "the ball should bounce on the platform");
    assert!(
        (hits[1].0 - (t_land + flight)).abs() < 1e-9,
        "second landing at {}",
        hits[1].0
    );
    let y = pos(&w, b).y;
    assert!(
        y + 5.0 <= 150.0 + 1e-9,
        "the ball sank into the platform: y = {y}"
    );
    let e1 = w.energy();
    assert!((e1 - e0).abs() <= 1e-9 * e0.abs(), "energy {e0} -> {e1}");
}

#[test]
fn a_ball_thrown_up_passes_one_way_shapes_and_lands_on_them_at_the_parabolas_root() {
    // As above (g = 1000, radius 5 from y = 300 at 600 units/s up, top of the flight y = 120),
    // through a segment at y = 150, a polygon whose top edge is y = 150, and a circle whose
    // top is y = 150: each time the ball lands when its centre is back at y = 145.
    let t_land = (600.0 + (600.0f64 * 600.0 - 4.0 * 500.0 * 155.0).sqrt()) / 1000.0;
    let shapes = [
        ShapeDesc::segment(Vec2::new(50.0, 150.0), Vec2::new(150.0, 150.0)),
        ShapeDesc::polygon(&[
            Vec2::new(60.0, 150.0),
            Vec2::new(140.0, 150.0),
            Vec2::new(140.0, 170.0),
            Vec2::new(60.0, 170.0),
        ])
        .expect("a convex polygon"),
        ShapeDesc::circle(Vec2::new(100.0, 160.0), 10.0),
    ];
    for desc in shapes {
        let mut w = world(Vec2::new(0.0, 1000.0));
        let sh = one_way_shape(&mut w, desc);
        let b = w
            .add_ball(ball(Vec2::new(100.0, 300.0), Vec2::new(0.0, -600.0), 5.0))
            .expect("a valid ball");
        let e0 = w.energy();
        let hits = shape_contacts(&mut w, sh, 60);
        assert!(!hits.is_empty(), "{desc:?}: the ball never landed");
        let (t, n) = hits[0];
        assert!(
            (t - t_land).abs() < 1e-9,
            "{desc:?}: landed at {t}, expected {t_land}"
        );
        assert!(
            (n - Vec2::new(0.0, -1.0)).length() < 1e-12,
            "{desc:?}: normal {n}"
        );
        let e1 = w.energy();
        assert!(
            (e1 - e0).abs() <= 1e-9 * e0.abs(),
            "{desc:?}: energy {e0} -> {e1}"
        );
        assert!(pos(&w, b).y + 5.0 <= 150.0 + 1e-9, "{desc:?}: sank in");
    }
}

#[test]
fn a_ball_rolls_through_a_slanted_one_way_segment_from_below_and_bounces_off_it_from_above() {
    // No gravity. A segment from (100, 200) to (300, 100) (slope −1/2). A ball moving up at
    // 100 units/s from (200, 300) passes it; one moving down from (200, 50) meets it when its
    // distance to the line is 5: the line x + 2y = 500, distance |x + 2y − 500|/√5.
    let mut w = world(Vec2::ZERO);
    let sh = one_way_shape(
        &mut w,
        ShapeDesc::segment(Vec2::new(100.0, 200.0), Vec2::new(300.0, 100.0)),
    );
    let up = w
        .add_ball(ball(Vec2::new(200.0, 300.0), Vec2::new(0.0, -100.0), 5.0))
        .expect("a valid ball");
    let hits = shape_contacts(&mut w, sh, 160);
    assert!(hits.is_empty(), "{hits:?}");
    assert_eq!(w.ball(up).expect("live").vel, Vec2::new(0.0, -100.0));
    let mut w = world(Vec2::ZERO);
    let sh = one_way_shape(
        &mut w,
        ShapeDesc::segment(Vec2::new(100.0, 200.0), Vec2::new(300.0, 100.0)),
    );
    w.add_ball(ball(Vec2::new(200.0, 50.0), Vec2::new(0.0, 100.0), 5.0))
        .expect("a valid ball");
    // 200 + 2y − 500 = −5√5: y = 150 − 2.5√5; t = (y − 50)/100.
    let t_hit = (100.0 - 2.5 * 5.0f64.sqrt()) / 100.0;
    let hits = shape_contacts(&mut w, sh, 100);
    assert!(!hits.is_empty());
    assert!(
        (hits[0].0 - t_hit).abs() < 1e-12,
        "{hits:?} against {t_hit}"
    );
    let n = Vec2::new(-1.0, -2.0) / 5.0f64.sqrt();
    assert!((hits[0].1 - n).length() < 1e-12, "{hits:?}");
}

/// A dynamic 10×10 box at `pos` (its top-left corner) moving at `vel`.
fn add_box(w: &mut World, pos: Vec2, vel: Vec2) -> RectId {
    w.add_rect(RectDesc {
        aabb: Aabb::new(pos, pos + Vec2::splat(10.0)),
        kind: RectKind::Dynamic,
        vel,
        ..RectDesc::default()
    })
    .expect("a valid box")
}

/// Steps `w` `n` times; every contact of dynamic rectangle `b` with rectangle `r`.
fn box_contacts(w: &mut World, b: RectId, r: RectId, n: usize) -> Vec<(f64, Vec2)> {
    let mut out = Vec::new();
    for _ in 0..n {
        let t0 = w.time();
        for e in w.step() {
            if let Event::Contact(Contact {
                body: collide_world::Body::Rect(me),
                other: Target::Rect(id),
                normal,
                toi,
                ..
            }) = *e
            {
                if me == b && id == r {
                    out.push((t0 + toi, normal));
                }
            }
        }
    }
    out
}

#[test]
fn a_box_thrown_up_passes_a_platform_and_lands_on_it_at_the_parabolas_root() {
    // g = 1000 down; a 10×10 box whose bottom is at y = 300, thrown up at 600 units/s, under
    // a platform spanning y 150..160: its bottom y_b(t) = 300 − 600t + 500t² rises to 120
    // and lands when it comes back to the top face, y_b = 150: the later root of
    // 500t² − 600t + 150 = 0.
    let mut w = world(Vec2::new(0.0, 1000.0));
    let p = platform(
        &mut w,
        Aabb::new(Vec2::new(50.0, 150.0), Vec2::new(150.0, 160.0)),
        RectKind::Static,
    );
    let b = add_box(&mut w, Vec2::new(95.0, 290.0), Vec2::new(0.0, -600.0));
    let hits = box_contacts(&mut w, b, p, 60);
    let t_land = (600.0 + (600.0f64 * 600.0 - 4.0 * 500.0 * 150.0).sqrt()) / 1000.0;
    assert!(!hits.is_empty(), "the box never landed");
    assert!(
        (hits[0].0 - t_land).abs() < 1e-9,
        "{hits:?} against {t_land}"
    );
    assert_eq!(hits[0].1, Vec2::new(0.0, -1.0));
    let r = w.rect(b).expect("live");
    assert!(
        r.aabb.max.y <= 150.0 + 1e-9,
        "the box sank in: {:?}",
        r.aabb
    );
}

#[test]
fn a_box_thrown_up_through_a_one_way_segment_lands_on_it() {
    // As above, through a one-way segment at y = 150: the later root of
    // 500t² − 600t + 150 = 0, and a slanted one (y = 150 at the box's middle x = 100, rising
    // 10 units over 100 to the right): the box's bottom-right corner (x = 105) meets it
    // first, at y = 149.5: its bottom 300 − 600t + 500t² = 149.5.
    let t_flat = (600.0 + (600.0f64 * 600.0 - 4.0 * 500.0 * 150.0).sqrt()) / 1000.0;
    let t_slant = (600.0 + (600.0f64 * 600.0 - 4.0 * 500.0 * 150.5).sqrt()) / 1000.0;
    for (a, b, t_land) in [
        (Vec2::new(50.0, 150.0), Vec2::new(150.0, 150.0), t_flat),
        (Vec2::new(50.0, 155.0), Vec2::new(150.0, 145.0), t_slant),
    ] {
        let mut w = world(Vec2::new(0.0, 1000.0));
        let sh = one_way_shape(&mut w, ShapeDesc::segment(a, b));
        let bx = add_box(&mut w, Vec2::new(95.0, 290.0), Vec2::new(0.0, -600.0));
        let mut hits = Vec::new();
        for _ in 0..60 {
            let t0 = w.time();
            for e in w.step() {
                if let Event::Contact(Contact {
                    body: collide_world::Body::Rect(me),
                    other: Target::Shape(id),
                    normal,
                    toi,
                    ..
                }) = *e
                {
                    if me == bx && id == sh {
                        hits.push((t0 + toi, normal));
                    }
                }
            }
        }
        assert!(!hits.is_empty(), "{a} {b}: the box never landed");
        assert!(
            (hits[0].0 - t_land).abs() < 1e-9,
            "{hits:?} against {t_land}"
        );
        assert!(hits[0].1.y < 0.0, "{hits:?}");
    }
}

#[test]
fn a_box_passes_a_platform_from_a_side_and_a_rising_platform_lifts_it() {
    let mut w = world(Vec2::ZERO);
    let p = platform(
        &mut w,
        Aabb::new(Vec2::new(100.0, 90.0), Vec2::new(140.0, 120.0)),
        RectKind::Static,
    );
    let b = add_box(&mut w, Vec2::new(20.0, 95.0), Vec2::new(150.0, 0.0));
    assert!(box_contacts(&mut w, b, p, 100).is_empty());
    let r = w.rect(b).expect("live");
    // 100 steps of 1/64 s at 150 units/s: x = 20 + 150·100/64, moved as if alone.
    assert_eq!(r.vel, Vec2::new(150.0, 0.0));
    assert!(
        (r.aabb.min.x - (20.0 + 150.0 * 100.0 / 64.0)).abs() < 1e-9,
        "{:?}",
        r.aabb
    );

    // A box at rest with its bottom at y = 105; a platform's top at y = 200 rising at 50
    // units/s meets it at (200 − 105)/50 = 1.9 s and sends it up at 100 units/s.
    let mut w = world(Vec2::ZERO);
    let b = add_box(&mut w, Vec2::new(95.0, 95.0), Vec2::ZERO);
    let p = platform(
        &mut w,
        Aabb::new(Vec2::new(50.0, 200.0), Vec2::new(150.0, 210.0)),
        RectKind::Kinematic,
    );
    w.set_rect_velocity(p, Vec2::new(0.0, -50.0)).expect("live");
    let hits = box_contacts(&mut w, b, p, 128);
    assert!(!hits.is_empty(), "the platform never met the box");
    assert!((hits[0].0 - 1.9).abs() < 1e-9, "{hits:?}");
    assert_eq!(hits[0].1, Vec2::new(0.0, -1.0));
}

#[test]
fn only_static_and_kinematic_rectangles_and_solid_shapes_can_be_one_way() {
    let mut w = world(Vec2::ZERO);
    let b = add_box(&mut w, Vec2::new(95.0, 95.0), Vec2::ZERO);
    let err = w
        .set_one_way(Target::Rect(b), true)
        .expect_err("a dynamic rectangle");
    assert!(err.to_string().contains("one_way"), "{err}");
    let s = w
        .add_shape(ShapeDesc {
            surface: collide_world::Surface::SENSOR,
            ..ShapeDesc::circle(Vec2::new(200.0, 200.0), 10.0)
        })
        .expect("a sensor circle");
    assert!(w.set_one_way(Target::Shape(s), true).is_err());
    let ball = w
        .add_ball(ball(Vec2::new(300.0, 300.0), Vec2::ZERO, 5.0))
        .expect("a valid ball");
    assert!(w.set_one_way(Target::Ball(ball), true).is_err());
    assert!(!w.is_one_way(Target::Rect(b)) && !w.is_one_way(Target::Shape(s)));
}

#[test]
fn a_ball_meeting_a_platform_from_a_side_moves_as_if_it_were_not_there() {
    let run = |with_platform: bool| {
        let mut w = world(Vec2::ZERO);
        let mut hits = Vec::new();
        let b = w
            .add_ball(ball(Vec2::new(20.0, 100.0), Vec2::new(173.0, 0.0), 5.0))
            .expect("a valid ball");
        if with_platform {
            // Rows 90..120 and 95..150: the ball's centre line y = 100 crosses both boxes' sides.
            let p = platform(
                &mut w,
                Aabb::new(Vec2::new(100.0, 90.0), Vec2::new(140.0, 120.0)),
                RectKind::Static,
            );
            let q = platform(
                &mut w,
                Aabb::new(Vec2::new(200.0, 95.0), Vec2::new(260.0, 150.0)),
                RectKind::Kinematic,
            );
            hits = contacts_with(&mut w, p, 0);
            hits.extend(contacts_with(&mut w, q, 100));
        } else {
            for _ in 0..100 {
                w.step();
            }
        }
        (pos(&w, b), w.ball(b).expect("live").vel, hits)
    };
    let (p1, v1, hits) = run(true);
    let (p0, v0, _) = run(false);
    assert!(
        hits.is_empty(),
        "contacts with a platform met from a side: {hits:?}"
    );
    assert_eq!((p1, v1), (p0, v0), "the platform changed the ball's motion");
}

#[test]
fn a_ball_falling_on_a_platform_bounces_at_the_hand_time() {
    // No gravity: from y = 100 at 100 units/s down, radius 5, onto the top face y = 150.
    let mut w = world(Vec2::ZERO);
    let p = platform(
        &mut w,
        Aabb::new(Vec2::new(50.0, 150.0), Vec2::new(150.0, 160.0)),
        RectKind::Static,
    );
    let b = w
        .add_ball(ball(Vec2::new(100.0, 100.0), Vec2::new(0.0, 100.0), 5.0))
        .expect("a valid ball");
    let hits = contacts_with(&mut w, p, 40);
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert!((hits[0].0 - 0.45).abs() < 1e-12, "{hits:?}");
    assert_eq!(w.ball(b).expect("live").vel, Vec2::new(0.0, -100.0));
}

#[test]
fn a_rising_kinematic_platform_lifts_a_ball_and_a_falling_one_passes_it() {
    // A ball at rest at y = 100 (bottom 105); a platform's top at y = 200 rising at 50 units/s
    // meets it at (200 − 105)/50 = 1.9 s and sends it up at 2·50 = 100 units/s (restitution 1,
    // an immovable platform).
    let mut w = world(Vec2::ZERO);
    let b = w
        .add_ball(ball(Vec2::new(100.0, 100.0), Vec2::ZERO, 5.0))
        .expect("a valid ball");
    let p = platform(
        &mut w,
        Aabb::new(Vec2::new(50.0, 200.0), Vec2::new(150.0, 210.0)),
        RectKind::Kinematic,
    );
    w.set_rect_velocity(p, Vec2::new(0.0, -50.0)).expect("live");
    let hits = contacts_with(&mut w, p, 128);
    assert!(!hits.is_empty(), "the platform never met the ball");
    assert!((hits[0].0 - 1.9).abs() < 1e-9, "{hits:?}");
    assert_eq!(hits[0].1, Vec2::new(0.0, -1.0));
    let v = w.ball(b).expect("live").vel;
    assert!((v.y + 100.0).abs() < 1e-9 || hits.len() > 1, "left at {v}");

    // The same platform falling from above the ball passes it.
    let mut w = world(Vec2::ZERO);
    let b = w
        .add_ball(ball(Vec2::new(100.0, 300.0), Vec2::ZERO, 5.0))
        .expect("a valid ball");
    let p = platform(
        &mut w,
        Aabb::new(Vec2::new(50.0, 100.0), Vec2::new(150.0, 110.0)),
        RectKind::Kinematic,
    );
    w.set_rect_velocity(p, Vec2::new(0.0, 50.0)).expect("live");
    let hits = contacts_with(&mut w, p, 300);
    assert!(hits.is_empty(), "{hits:?}");
    let ball_now = w.ball(b).expect("live");
    assert_eq!(
        (ball_now.pos, ball_now.vel),
        (Vec2::new(100.0, 300.0), Vec2::ZERO)
    );
}

#[test]
fn a_platform_made_solid_again_stops_a_ball_from_below() {
    let mut w = world(Vec2::ZERO);
    let p = platform(
        &mut w,
        Aabb::new(Vec2::new(50.0, 150.0), Vec2::new(150.0, 160.0)),
        RectKind::Static,
    );
    w.set_one_way(Target::Rect(p), false).expect("a rectangle");
    assert!(!w.is_one_way(Target::Rect(p)));
    w.add_ball(ball(Vec2::new(100.0, 200.0), Vec2::new(0.0, -100.0), 5.0))
        .expect("a valid ball");
    // The ball's top (195) meets the bottom face (160) after 0.35 s.
    let hits = contacts_with(&mut w, p, 40);
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert!((hits[0].0 - 0.35).abs() < 1e-12, "{hits:?}");
    assert_eq!(hits[0].1, Vec2::new(0.0, 1.0));
}

#[test]
fn a_snapshot_taken_during_a_pass_continues_with_the_same_bits() {
    let mut w = world(Vec2::new(0.0, 1000.0));
    platform(
        &mut w,
        Aabb::new(Vec2::new(50.0, 150.0), Vec2::new(150.0, 160.0)),
        RectKind::Static,
    );
    w.add_ball(ball(Vec2::new(100.0, 300.0), Vec2::new(0.0, -600.0), 5.0))
        .expect("a valid ball");
    // After 16 steps (0.25 s) the ball's centre is at 300 − 150 + 31.25 = 181.25: its top
    // (176.25) is past the bottom face, its bottom below the top: inside the platform's rows.
    for _ in 0..16 {
        w.step();
    }
    let snap = w.snapshot();
    let mut copy = w.clone();
    copy.restore(&snap).expect("its own snapshot");
    for _ in 0..80 {
        w.step();
        copy.step();
        assert_eq!(w.state_hash(), copy.state_hash());
    }
}

/// Whether a ball at `c` of radius `r` lies above box `a` (its bottom at or above the top
/// face, within the box's columns widened by `r`).
fn above(c: Vec2, r: f64, a: &Aabb) -> bool {
    c.y + r <= a.min.y + 1e-9 && c.x >= a.min.x - r && c.x <= a.max.x + r
}

/// How deep a ball at `c` of radius `r` overlaps box `a`, world units (0 or less: apart).
fn depth(c: Vec2, r: f64, a: &Aabb) -> f64 {
    r - (c - c.clamp(a.min, a.max)).length()
}

/// The signed distance of `c` from the line through `a` and `b` (`a.x < b.x`), negative above
/// it (y down).
fn side(c: Vec2, a: Vec2, b: Vec2) -> f64 {
    let n = (b - a).perp().normalize();
    // perp of a left-to-right direction points down (y down): below is positive.
    (c - a).dot(n)
}

/// The distance from `c` to the segment `a`–`b`.
fn segment_distance(c: Vec2, a: Vec2, b: Vec2) -> f64 {
    let d = b - a;
    let t = ((c - a).dot(d) / d.length_squared()).clamp(0.0, 1.0);
    (c - (a + d * t)).length()
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 24,
        rng_algorithm: proptest::test_runner::RngAlgorithm::ChaCha,
        rng_seed: proptest::test_runner::RngSeed::Fixed(36),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]
    #[test]
    fn balls_thrown_through_platforms_never_sink_into_them_from_above(
        seed in 0u64..1_000_000,
    ) {
        let mut rng = seed;
        let mut next = || {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (rng >> 11) as f64 / (1u64 << 53) as f64
        };
        // Ball–ball collisions off: a ball knocked sideways by another enters a platform
        // through its side, as it may.
        let mut w = world_with(
            Vec2::new(400.0, 400.0),
            Walls::ALL,
            StepConfig {
                ball_ball: false,
                ..config(DT, Vec2::new(0.0, 500.0 + 1500.0 * next()))
            },
        );
        let mut boxes = Vec::new();
        for i in 0..3 {
            let x = 20.0 + 240.0 * next();
            let y = 80.0 + 90.0 * i as f64 + 30.0 * next();
            let a = Aabb::new(Vec2::new(x, y), Vec2::new(x + 40.0 + 80.0 * next(), y + 4.0 + 20.0 * next()));
            platform(&mut w, a, RectKind::Static);
            boxes.push(a);
        }
        // Two one-way segments, slanted up to 30°, checked through their boxes' tops: a
        // ball above a segment's box cannot be inside it at the next step.
        let mut segs = Vec::new();
        for _ in 0..2 {
            let x = 20.0 + 240.0 * next();
            let y = 100.0 + 150.0 * next();
            let (a, b) = (Vec2::new(x, y), Vec2::new(x + 100.0, y + 100.0 * 0.577 * (next() - 0.5)));
            one_way_shape(&mut w, ShapeDesc::segment(a, b));
            segs.push((a, b));
        }
        for _ in 0..20 {
            let r = 2.0 + 6.0 * next();
            let x = 20.0 + 360.0 * next();
            let v = Vec2::new(400.0 * (next() - 0.5), -(300.0 + 1500.0 * next()));
            // Started below every platform.
            w.add_ball(ball(Vec2::new(x, 370.0 - 20.0 * next()), v, r)).expect("a valid ball");
        }
        let e0 = w.energy();
        let ids: Vec<BallId> = w.balls().map(|b| b.id).collect();
        let state = |w: &World| -> Vec<(Vec2, f64)> {
            ids.iter().map(|&b| (pos(w, b), w.ball(b).expect("live").radius)).collect()
        };
        let mut before = state(&w);
        for step in 0..400 {
            w.step();
            let now = state(&w);
            // A ball above a platform at the end of one step is not inside it at the end of
            // the next: nothing sinks into a platform from above.
            for (&(c0, r), &(c1, _)) in before.iter().zip(&now) {
                for a in &boxes {
                    if above(c0, r, a) {
                        let d = depth(c1, r, a);
                        prop_assert!(d <= 1e-9, "step {}: a ball sank {} into a platform from above", step, d);
                    }
                }
                for &(a, b) in &segs {
                    // Above the segment, and over it at both ends of the step (not gone
                    // round an end).
                    let over = |c: Vec2| c.x >= a.x + r && c.x <= b.x - r;
                    if side(c0, a, b) < -r && over(c0) && over(c1) {
                        let d = r - segment_distance(c1, a, b);
                        prop_assert!(d <= 1e-9, "step {}: a ball sank {} into a segment from above", step, d);
                        prop_assert!(side(c1, a, b) < 0.0, "step {}: a ball passed a segment from above", step);
                    }
                }
            }
            before = now;
        }
        let e1 = w.energy();
        prop_assert!((e1 - e0).abs() <= 1e-9 * e0.abs(), "energy {} -> {}", e0, e1);
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 32,
        rng_algorithm: proptest::test_runner::RngAlgorithm::ChaCha,
        rng_seed: proptest::test_runner::RngSeed::Fixed(37),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]
    #[test]
    fn a_box_thrown_through_platforms_never_sinks_into_one_from_above(
        seed in 0u64..1_000_000,
    ) {
        let mut rng = seed;
        let mut next = || {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (rng >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut w = world(Vec2::new(0.0, 500.0 + 1500.0 * next()));
        let mut boxes = Vec::new();
        for i in 0..3 {
            let x = 20.0 + 200.0 * next();
            let y = 80.0 + 90.0 * i as f64 + 30.0 * next();
            let a = Aabb::new(Vec2::new(x, y), Vec2::new(x + 60.0 + 100.0 * next(), y + 4.0 + 20.0 * next()));
            platform(&mut w, a, RectKind::Static);
            boxes.push(a);
        }
        let v = Vec2::new(300.0 * (next() - 0.5), -(300.0 + 1500.0 * next()));
        let b = add_box(&mut w, Vec2::new(20.0 + 300.0 * next(), 370.0), v);
        let mut before = w.rect(b).expect("live").aabb;
        for step in 0..400 {
            w.step();
            let now = w.rect(b).expect("live").aabb;
            for a in &boxes {
                let over = before.max.x > a.min.x && before.min.x < a.max.x;
                if before.max.y <= a.min.y + 1e-9 && over {
                    let depth = (now.max.y - a.min.y)
                        .min(a.max.y - now.min.y)
                        .min(now.max.x - a.min.x)
                        .min(a.max.x - now.min.x);
                    prop_assert!(depth <= 1e-9, "step {}: the box sank {} into a platform from above", step, depth);
                }
            }
            before = now;
        }
    }
}

#[test]
fn a_one_way_surface_marks_the_platform_and_is_refused_where_it_means_nothing() {
    use collide_world::{CharacterDesc, FlipperDesc, Surface, WorldError};
    let mut w = world(Vec2::ZERO);
    let r = w
        .add_rect(RectDesc {
            aabb: Aabb::new(Vec2::new(50.0, 150.0), Vec2::new(150.0, 160.0)),
            surface: Surface::ONE_WAY,
            ..RectDesc::default()
        })
        .expect("a one-way platform");
    let s = w
        .add_shape(ShapeDesc {
            surface: Surface::ONE_WAY,
            ..ShapeDesc::segment(Vec2::new(0.0, 300.0), Vec2::new(100.0, 300.0))
        })
        .expect("a one-way segment");
    assert!(w.is_one_way(Target::Rect(r)) && w.is_one_way(Target::Shape(s)));
    // The record follows the setter, and a snapshot brings back the mark.
    let snap = w.snapshot();
    w.set_one_way(Target::Rect(r), false).expect("a rectangle");
    assert!(!w.rect(r).expect("live").surface.one_way);
    w.restore(&snap).expect("its own snapshot");
    assert!(w.rect(r).expect("live").surface.one_way && w.is_one_way(Target::Rect(r)));
    assert!(w.shape(s).expect("live").surface.one_way);

    let field = |e: WorldError| match e {
        WorldError::BadBall { field, .. }
        | WorldError::BadRect { field, .. }
        | WorldError::BadShape { field, .. }
        | WorldError::BadFlipper { field, .. }
        | WorldError::BadCharacter { field, .. } => field,
        other => panic!("unexpected error {other}"),
    };
    let (balls, rects, shapes) = (w.balls().len(), w.rects().len(), w.shapes().len());
    let one_way = Surface::ONE_WAY;
    let e = w
        .add_ball(collide_world::BallDesc {
            surface: one_way,
            ..ball(Vec2::new(200.0, 200.0), Vec2::ZERO, 5.0)
        })
        .expect_err("a ball");
    assert_eq!(field(e), "surface.one_way");
    for kind in [RectKind::Dynamic, RectKind::Kinematic] {
        let sensor = kind == RectKind::Kinematic;
        let e = w
            .add_rect(RectDesc {
                aabb: Aabb::new(Vec2::new(200.0, 200.0), Vec2::new(210.0, 210.0)),
                kind,
                surface: Surface { sensor, ..one_way },
                ..RectDesc::default()
            })
            .expect_err("a dynamic or sensor rectangle");
        assert_eq!(field(e), "surface.one_way");
    }
    let e = w
        .add_shape(ShapeDesc {
            surface: Surface {
                sensor: true,
                ..one_way
            },
            ..ShapeDesc::circle(Vec2::new(300.0, 300.0), 10.0)
        })
        .expect_err("a sensor circle");
    assert_eq!(field(e), "surface.one_way");
    let e = w
        .add_flipper(FlipperDesc {
            surface: one_way,
            ..FlipperDesc::new(Vec2::new(300.0, 300.0), 40.0, 5.0, 0.5, -0.5, 10.0)
        })
        .expect_err("a flipper");
    assert_eq!(field(e), "surface.one_way");
    let e = w
        .add_character(CharacterDesc {
            pos: Vec2::new(300.0, 100.0),
            surface: one_way,
            ..CharacterDesc::default()
        })
        .expect_err("a character");
    assert_eq!(field(e), "surface.one_way");
    assert_eq!(
        (w.balls().len(), w.rects().len(), w.shapes().len()),
        (balls, rects, shapes)
    );
}

#[test]
fn a_scene_marks_its_one_way_rects_and_shapes_and_names_a_refused_one() {
    let text = r#"
[world]
size = [400, 400]

[[rect]]
min = [50, 150]
max = [150, 160]
one_way = true

[[segment]]
a = [0, 300]
b = [100, 300]
one_way = true

[[polyline]]
points = [[200, 300], [250, 300], [300, 320]]
one_way = true
"#;
    let no_levels = |p: &str| -> Result<String, std::io::Error> {
        Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            p.to_owned(),
        ))
    };
    let scene =
        collide_scene::from_toml_str(text, "one_way.toml", &no_levels).expect("a valid scene");
    let w = World::from_scene(&scene).expect("a world");
    assert!(w.rects()[0].surface.one_way && w.is_one_way(Target::Rect(w.rects()[0].id)));
    assert_eq!(w.shapes().len(), 3);
    for sh in w.shapes() {
        assert!(w.is_one_way(Target::Shape(sh.id)));
    }
    let bad = r#"
[world]
size = [400, 400]

[[rect]]
min = [50, 150]
max = [150, 160]
kind = "dynamic"
one_way = true
"#;
    let e = collide_scene::from_toml_str(bad, "one_way.toml", &no_levels)
        .expect_err("a dynamic one-way rect");
    assert_eq!(
        (e.line(), e.field()),
        (Some(9), Some("rect[0].one_way")),
        "{e}"
    );
}
