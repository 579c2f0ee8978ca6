//! Static segments and circles in the step (`collide_world::Shape`): exact times of impact on
//! straight and parabolic paths, bounces, kickers, chains without ghost bumps, filters, scene
//! keys, snapshots, the same bits for any thread count.

use crate::build::{ball, world};
use collide_world::Body;
use collide_world::Contact;
use collide_world::Filter;
use collide_world::Target;
use collide_world::{
    BallDesc, Event, Scene, ShapeDesc, StepConfig, Surface, Vec2, Walls, World, WorldError,
};

fn parse_scene(file: &str, text: &str) -> Result<Scene, collide_scene::SceneError> {
    let no_levels = |_: &str| Err(std::io::Error::other("no level files here"));
    collide_scene::from_toml_str(text, file, &no_levels)
}

/// Every `ball_shape` contact with its absolute time, stepping until `t_end`.
fn shape_hits(w: &mut World, t_end: f64) -> Vec<(f64, Event)> {
    let mut out = Vec::new();
    while w.time() < t_end - 1e-12 {
        let t0 = w.time();
        for e in w.step().to_vec() {
            if let Event::Contact(Contact {
                body: Body::Ball(_),
                other: Target::Shape(_),
                toi,
                ..
            }) = e
            {
                out.push((t0 + toi, e));
            }
        }
    }
    out
}

#[test]
fn a_ball_bounces_off_a_slanted_segment_at_the_computed_time() {
    // A 45° segment from (100, 300) to (300, 100) (the line x + y = 400); a ball of radius 5
    // at (100, 100) moving right at 100. Its centre is on the line's far side when
    // (x + y − 400)/√2 = −5, x = 300 − 5√2: at t = (200 − 5√2)/100. The face's normal is
    // (−1, −1)/√2, so the ball leaves straight up at 100.
    let mut w = world(Vec2::new(400.0, 400.0), 1.0 / 60.0, Vec2::ZERO);
    let b = w
        .add_ball(ball(Vec2::new(100.0, 100.0), Vec2::new(100.0, 0.0), 5.0))
        .expect("valid");
    let s = w
        .add_shape(ShapeDesc::segment(
            Vec2::new(100.0, 300.0),
            Vec2::new(300.0, 100.0),
        ))
        .expect("valid");
    let hits = shape_hits(&mut w, 2.5);
    let (t, e) = hits.first().copied().expect("it hits the segment");
    let expect = (200.0 - 5.0 * 2f64.sqrt()) / 100.0;
    assert!((t - expect).abs() < 1e-12, "{t} vs {expect}");
    let Event::Contact(Contact {
        body: Body::Ball(_),
        other: Target::Shape(shape),
        point,
        normal,
        speed,
        ..
    }) = e
    else {
        unreachable!()
    };
    assert_eq!(shape, s);
    let r = 1.0 / 2f64.sqrt();
    assert!((normal - Vec2::new(-r, -r)).length() < 1e-12, "{normal}");
    assert!((point.x + point.y - 400.0).abs() < 1e-9, "{point}");
    assert!((speed - 100.0 * r).abs() < 1e-9, "{speed}");
    let v = w.ball(b).expect("alive").vel;
    assert!((v - Vec2::new(0.0, -100.0)).length() < 1e-9, "{v}");
}

#[test]
fn an_end_point_is_hit_like_a_corner() {
    // A horizontal segment ending at (200, 200); a ball of radius 10 moving left along
    // y = 206 from x = 300 meets the end point when (x − 200)² + 6² = 10²: x = 208, after
    // (300 − 208)/50 = 1.84 s; normal (8, 6)/10.
    let mut w = world(Vec2::new(400.0, 400.0), 1.0 / 60.0, Vec2::ZERO);
    w.add_ball(ball(Vec2::new(300.0, 206.0), Vec2::new(-50.0, 0.0), 10.0))
        .expect("valid");
    w.add_shape(ShapeDesc::segment(
        Vec2::new(100.0, 200.0),
        Vec2::new(200.0, 200.0),
    ))
    .expect("valid");
    let (t, e) = shape_hits(&mut w, 2.5)[0];
    assert!((t - 1.84).abs() < 1e-12, "{t}");
    let Event::Contact(Contact {
        body: Body::Ball(_),
        other: Target::Shape(_),
        point,
        normal,
        ..
    }) = e
    else {
        unreachable!()
    };
    assert!((normal - Vec2::new(0.8, 0.6)).length() < 1e-12, "{normal}");
    assert!(
        (point - Vec2::new(200.0, 200.0)).length() < 1e-12,
        "{point}"
    );
}

#[test]
fn a_bumper_kicks_with_its_own_restitution() {
    // A bumper of radius 20 at (200, 200) with restitution 1.5; a ball of radius 5 from
    // (100, 200) at 100 to the right: contact when the centres are 25 apart, x = 175, at
    // t = 0.75; it leaves at 150 units/s to the left.
    let mut w = world(Vec2::new(400.0, 400.0), 1.0 / 60.0, Vec2::ZERO);
    let b = w
        .add_ball(ball(Vec2::new(100.0, 200.0), Vec2::new(100.0, 0.0), 5.0))
        .expect("valid");
    w.add_shape(ShapeDesc {
        surface: Surface::DEFAULT.with_restitution(1.5),
        ..ShapeDesc::circle(Vec2::new(200.0, 200.0), 20.0)
    })
    .expect("valid");
    let (t, _) = shape_hits(&mut w, 1.0)[0];
    assert!((t - 0.75).abs() < 1e-12, "{t}");
    assert!((w.ball(b).expect("alive").vel - Vec2::new(-150.0, 0.0)).length() < 1e-9);
}

#[test]
fn under_gravity_a_dropped_ball_meets_a_slope_at_the_root_of_its_quadratic() {
    // Gravity 100 down; a ball of radius 2 dropped from rest at (150, 10) onto the segment
    // from (100, 200) to (300, 100) (the line x + 2y = 500). Its centre is 2 from the line
    // when (150 + 2y − 500)/√5 = −2, y = 175 − √5; y = 10 + 50t²: t = √((165 − √5)/50).
    let mut w = world(Vec2::new(400.0, 400.0), 1.0 / 64.0, Vec2::new(0.0, 100.0));
    w.add_ball(ball(Vec2::new(150.0, 10.0), Vec2::ZERO, 2.0))
        .expect("valid");
    w.add_shape(ShapeDesc::segment(
        Vec2::new(100.0, 200.0),
        Vec2::new(300.0, 100.0),
    ))
    .expect("valid");
    let (t, _) = shape_hits(&mut w, 3.0)[0];
    let expect = ((165.0 - 5f64.sqrt()) / 50.0).sqrt();
    assert!((t - expect).abs() < 1e-9, "{t} vs {expect}");
}

#[test]
fn a_chain_has_no_bump_at_its_straight_joints() {
    // A floor made of a polyline of ten collinear pieces; a ball bouncing along it at a
    // shallow angle: every bounce has the face's normal (0, −1) exactly, none comes from a
    // joint. The same ball on ten lone segments (every end an obstacle) is bumped at a joint.
    let run = |chain: bool| {
        let mut w = world(Vec2::new(1100.0, 200.0), 1.0 / 60.0, Vec2::ZERO);
        let pts: Vec<Vec2> = (0..=10)
            .map(|k| Vec2::new(50.0 + 100.0 * k as f64, 150.0))
            .collect();
        if chain {
            w.add_polyline(&pts, false, None, Filter::DEFAULT)
                .expect("valid");
        } else {
            for p in pts.windows(2) {
                w.add_shape(ShapeDesc::segment(p[0], p[1])).expect("valid");
            }
        }
        // Touching the floor at the start (centre 5 above it), sliding right: exactly on
        // the joints' height the whole way.
        w.add_ball(ball(Vec2::new(60.0, 145.0), Vec2::new(300.0, 0.0), 5.0))
            .expect("valid");
        let mut normals = Vec::new();
        for _ in 0..180 {
            for e in w.step() {
                if let Event::Contact(Contact {
                    body: Body::Ball(_),
                    other: Target::Shape(_),
                    normal,
                    ..
                }) = *e
                {
                    normals.push(normal);
                }
            }
        }
        normals
    };
    assert!(
        run(true).is_empty(),
        "a chain never bumps a ball sliding on it"
    );
    // Lone segments: the sliding ball is not pressed into the floor either, so their end
    // points (at its height) are touched tangentially and, by the contact rule, not hit.
    assert!(run(false).iter().all(|n| n.y <= 0.0));
}

#[test]
fn a_ball_whose_mask_excludes_a_shape_passes_it() {
    let mut w = world(Vec2::new(400.0, 400.0), 1.0 / 60.0, Vec2::ZERO);
    w.add_ball(BallDesc {
        surface: Surface::DEFAULT.with_filter(Filter::new(1, !2)),
        ..ball(Vec2::new(100.0, 200.0), Vec2::new(100.0, 0.0), 5.0)
    })
    .expect("valid");
    w.add_shape(ShapeDesc {
        surface: Surface::DEFAULT.with_filter(Filter::new(2, u32::MAX)),
        ..ShapeDesc::circle(Vec2::new(200.0, 200.0), 20.0)
    })
    .expect("valid");
    assert!(shape_hits(&mut w, 1.5).is_empty());
}

#[test]
fn scene_tables_build_the_shapes_and_errors_name_the_field() {
    let text = r#"
[world]
size = [400, 300]

[[segment]]
a = [10, 290]
b = [390, 250]
restitution = 1.2

[[polyline]]
points = [[20, 20], [100, 20], [180, 20], [180, 100]]

[[circle]]
center = [200, 150]
radius = 15
"#;
    let scene = parse_scene("table.toml", text).expect("parses");
    // One segment, three polyline pieces (the joint at (100, 20) is straight), one circle.
    assert_eq!(scene.shapes.len(), 5);
    assert_eq!(scene.shapes[0].surface.restitution, Some(1.2));
    let w = World::from_scene(&scene).expect("builds");
    assert_eq!(w.shapes().len(), 5);
    let bad = text.replace("radius = 15", "radius = -1");
    let err = parse_scene("table.toml", &bad).expect_err("negative radius");
    assert_eq!(err.field(), Some("circle[0].radius"));
    assert_eq!(err.line(), Some(15));
    let mut w =
        World::new(Vec2::new(10.0, 10.0), Walls::ALL, StepConfig::default()).expect("valid");
    let e = w
        .add_shape(ShapeDesc::circle(Vec2::new(1.0, f64::NAN), 1.0))
        .expect_err("NaN");
    assert!(
        matches!(
            e,
            WorldError::BadShape {
                field: "center",
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn a_snapshot_needs_the_same_shapes() {
    let mut a = world(Vec2::new(400.0, 400.0), 1.0 / 60.0, Vec2::ZERO);
    a.add_shape(ShapeDesc::circle(Vec2::new(200.0, 200.0), 20.0))
        .expect("valid");
    a.add_ball(ball(Vec2::new(100.0, 200.0), Vec2::new(100.0, 0.0), 5.0))
        .expect("valid");
    let snap = a.snapshot();
    let mut other = world(Vec2::new(400.0, 400.0), 1.0 / 60.0, Vec2::ZERO);
    assert!(other.restore(&snap).is_err());
    other
        .add_shape(ShapeDesc::circle(Vec2::new(200.0, 200.0), 20.0))
        .expect("valid");
    other.restore(&snap).expect("same shapes");
    for _ in 0..120 {
        assert_eq!(a.step().to_vec(), other.step().to_vec());
    }
    assert_eq!(a.state_hash(), other.state_hash());
}

#[test]
fn a_pachinko_board_gives_the_same_bits_with_1_2_and_3_threads() {
    // 600 balls under gravity falling through 100 bumpers and two slanted walls.
    let config = StepConfig {
        gravity: Vec2::new(0.0, 500.0),
        ..StepConfig::default()
    };
    let mut w = World::new(Vec2::new(800.0, 800.0), Walls::ALL, config).expect("valid");
    for r in 0..5 {
        for c in 0..20 {
            let x = 20.0 + 40.0 * c as f64 + if r % 2 == 0 { 0.0 } else { 20.0 };
            w.add_shape(ShapeDesc::circle(
                Vec2::new(x, 300.0 + 70.0 * r as f64),
                4.0,
            ))
            .expect("valid");
        }
    }
    w.add_shape(ShapeDesc::segment(
        Vec2::new(0.0, 700.0),
        Vec2::new(400.0, 790.0),
    ))
    .expect("valid");
    w.add_shape(ShapeDesc::segment(
        Vec2::new(800.0, 700.0),
        Vec2::new(400.0, 790.0),
    ))
    .expect("valid");
    for k in 0..600 {
        let (x, y) = (5.0 + (k % 100) as f64 * 7.9, 5.0 + (k / 100) as f64 * 8.0);
        w.add_ball(ball(
            Vec2::new(x, y),
            Vec2::new((k % 7) as f64 - 3.0, 0.0),
            2.0,
        ))
        .expect("valid");
    }
    let run = |threads: usize| {
        let mut w = w.clone();
        w.set_threads(threads);
        let mut hashes = Vec::new();
        let mut hits = 0;
        for _ in 0..90 {
            hits += w.step().iter().filter(|e| e.kind() == "ball_shape").count();
            hashes.push(w.state_hash());
        }
        (hashes, hits)
    };
    let (h1, hits) = run(1);
    assert!(hits > 300, "{hits} bumper hits");
    for threads in [2, 3] {
        let (h, _) = run(threads);
        assert_eq!(h, h1, "{threads} threads");
    }
}
