//! Static convex polygons (`ShapeDesc::polygon`): balls and dynamic boxes meet faces and
//! vertices at hand-computed times on straight and parabolic paths, nothing bumps at the seam
//! of polygons laid edge to edge (`polygon_corners`), no ball or box tunnels through a thin
//! polygon at 10^5 units/s, and polygons are in snapshots, the state hash and the queries.

use crate::build::{ball, world};
use collide_world::collide_core::{sweep_circle_polygon, PolygonFeature};
use collide_world::Body;
use collide_world::Contact;
use collide_world::{
    polygon_corners, Aabb, ConvexPolygon, Event, Filter, PolygonCorners, RectDesc, RectKind,
    ShapeDesc, SnapshotError, Surface, Target, Vec2, World, WorldError,
};

fn v(x: f64, y: f64) -> Vec2 {
    Vec2::new(x, y)
}

fn dynamic(min: Vec2, size: Vec2, vel: Vec2) -> RectDesc {
    RectDesc {
        aabb: Aabb::new(min, min + size),
        vel,
        kind: RectKind::Dynamic,
        density: 1.0,
        surface: Surface::DEFAULT,
    }
}

/// The square [150, 250] × [200, 300] (its top at y = 200).
fn square() -> ShapeDesc {
    ShapeDesc::polygon(&[
        v(150.0, 200.0),
        v(250.0, 200.0),
        v(250.0, 300.0),
        v(150.0, 300.0),
    ])
    .expect("a square")
}

/// A triangle with its apex at (200, 200) and its base from (150, 260) to (250, 260).
fn triangle() -> ShapeDesc {
    ShapeDesc::polygon(&[v(200.0, 200.0), v(250.0, 260.0), v(150.0, 260.0)]).expect("a triangle")
}

/// The first shape contact (ball or box) with its absolute time, normal and point.
fn first_contact(w: &mut World, t_end: f64) -> Option<(f64, Vec2, Vec2)> {
    while w.time() < t_end {
        let t0 = w.time();
        for e in w.step() {
            match *e {
                Event::Contact(Contact {
                    body: Body::Ball(_),
                    other: Target::Shape(_),
                    point,
                    normal,
                    toi,
                    ..
                })
                | Event::Contact(Contact {
                    body: Body::Rect(_),
                    other: Target::Shape(_),
                    point,
                    normal,
                    toi,
                    ..
                }) => return Some((t0 + toi, normal, point)),
                _ => {}
            }
        }
    }
    None
}

fn assert_contact(got: Option<(f64, Vec2, Vec2)>, t: f64, normal: Vec2, point: Vec2) {
    let (toi, n, p) = got.expect("a contact");
    assert!((toi - t).abs() < 1e-9, "toi {toi} vs {t}");
    assert!((n - normal).length() < 1e-9, "normal {n} vs {normal}");
    assert!((p - point).length() < 1e-6, "point {p} vs {point}");
}

#[test]
fn a_ball_meets_a_face_and_a_vertex_at_the_computed_times() {
    let size = v(400.0, 400.0);
    // Straight: radius 5 at (200, 100) falling at 100; its centre reaches y = 195 after 0.95 s.
    let mut w = world(size, 1.0 / 64.0, Vec2::ZERO);
    w.add_shape(square()).unwrap();
    w.add_ball(ball(v(200.0, 100.0), v(0.0, 100.0), 5.0))
        .unwrap();
    assert_contact(
        first_contact(&mut w, 2.0),
        0.95,
        v(0.0, -1.0),
        v(200.0, 200.0),
    );
    // At (203, 100) above the triangle's apex: it touches it when the offset is (3, −4),
    // centre at y = 196 after 0.96 s, normal (0.6, −0.8).
    let mut w = world(size, 1.0 / 64.0, Vec2::ZERO);
    w.add_shape(triangle()).unwrap();
    w.add_ball(ball(v(203.0, 100.0), v(0.0, 100.0), 5.0))
        .unwrap();
    assert_contact(
        first_contact(&mut w, 2.0),
        0.96,
        v(0.6, -0.8),
        v(200.0, 200.0),
    );
    // Under gravity 100 from rest: ½·100·t² = 95, t = √1.9 on the face; = 96 at the vertex.
    let mut w = world(size, 1.0 / 64.0, v(0.0, 100.0));
    w.add_shape(square()).unwrap();
    w.add_ball(ball(v(200.0, 100.0), Vec2::ZERO, 5.0)).unwrap();
    assert_contact(
        first_contact(&mut w, 3.0),
        1.9f64.sqrt(),
        v(0.0, -1.0),
        v(200.0, 200.0),
    );
    let mut w = world(size, 1.0 / 64.0, v(0.0, 100.0));
    w.add_shape(triangle()).unwrap();
    w.add_ball(ball(v(203.0, 100.0), Vec2::ZERO, 5.0)).unwrap();
    assert_contact(
        first_contact(&mut w, 3.0),
        1.92f64.sqrt(),
        v(0.6, -0.8),
        v(200.0, 200.0),
    );
}

#[test]
fn a_dynamic_box_meets_a_face_a_vertex_and_a_slanted_edge_at_the_computed_times() {
    let size = v(400.0, 400.0);
    // The box [195, 205] × [90, 100] falling at 100: its bottom reaches y = 200 after 1 s,
    // on the square's top (the middle of the shared stretch, (200, 200)) or the apex.
    for (shape, point) in [(square(), v(200.0, 200.0)), (triangle(), v(200.0, 200.0))] {
        let mut w = world(size, 1.0 / 64.0, Vec2::ZERO);
        w.add_shape(shape).unwrap();
        w.add_rect(dynamic(v(195.0, 90.0), v(10.0, 10.0), v(0.0, 100.0)))
            .unwrap();
        assert_contact(first_contact(&mut w, 2.0), 1.0, v(0.0, -1.0), point);
        // From rest under gravity 100: ½·100·t² = 100, t = √2.
        let mut w = world(size, 1.0 / 64.0, v(0.0, 100.0));
        w.add_shape(shape).unwrap();
        w.add_rect(dynamic(v(195.0, 90.0), v(10.0, 10.0), Vec2::ZERO))
            .unwrap();
        assert_contact(first_contact(&mut w, 3.0), 2f64.sqrt(), v(0.0, -1.0), point);
    }
    // The box [100, 110] × [240, 250] moving right at 100 toward the triangle's left edge
    // (from (150, 260) to (200, 200)): its bottom-right corner (110 + 100t, 250) meets the
    // edge where y = 250, x = 150 + 50/6, after (40 + 50/6)/100 s. Outward normal
    // (−60, −50)/√6100.
    let mut w = world(size, 1.0 / 64.0, Vec2::ZERO);
    w.add_shape(triangle()).unwrap();
    w.add_rect(dynamic(v(100.0, 240.0), v(10.0, 10.0), v(100.0, 0.0)))
        .unwrap();
    let n = v(-60.0, -50.0) / 6100f64.sqrt();
    let x = 150.0 + 50.0 / 6.0;
    assert_contact(
        first_contact(&mut w, 2.0),
        (x - 110.0) / 100.0,
        n,
        v(x, 250.0),
    );
}

/// Two polygons sharing the edge x = 200 (their tops flat at y = 200), each with the corners
/// of `polygon_corners` or all of them.
fn floor(trapezoids: bool, grouped: bool) -> Vec<ShapeDesc> {
    let (a, b) = if trapezoids {
        (
            vec![
                v(100.0, 200.0),
                v(200.0, 200.0),
                v(200.0, 260.0),
                v(100.0, 300.0),
            ],
            vec![
                v(200.0, 200.0),
                v(300.0, 200.0),
                v(300.0, 300.0),
                v(200.0, 260.0),
            ],
        )
    } else {
        (
            vec![
                v(100.0, 200.0),
                v(200.0, 200.0),
                v(200.0, 300.0),
                v(100.0, 300.0),
            ],
            vec![
                v(200.0, 200.0),
                v(300.0, 200.0),
                v(300.0, 300.0),
                v(200.0, 300.0),
            ],
        )
    };
    let polys = [
        ConvexPolygon::new(&a).unwrap(),
        ConvexPolygon::new(&b).unwrap(),
    ];
    let corners = if grouped {
        polygon_corners(&polys)
    } else {
        vec![PolygonCorners::ALL; 2]
    };
    polys
        .iter()
        .zip(corners)
        .map(|(&p, c)| ShapeDesc::chain_polygon(p, c))
        .collect()
}

#[test]
fn polygons_laid_edge_to_edge_switch_off_the_seam_vertices_only() {
    for trapezoids in [false, true] {
        let descs = floor(trapezoids, true);
        let corners: Vec<Vec<usize>> = descs
            .iter()
            .map(|d| match d.kind {
                collide_world::ShapeKind::Polygon { polygon, corners } => (0..polygon.len())
                    .filter(|&i| !corners.contains(i))
                    .inspect(|&i| assert_eq!(polygon.vertex(i).x, 200.0))
                    .collect(),
                _ => unreachable!("polygons"),
            })
            .collect();
        // Squares: the seam's two vertices on each, (200, 200) and (200, 300), whose edges
        // the neighbour continues flat. Trapezoids: only (200, 200); below, the bottoms meet
        // at an angle (a reflex joint seen from below), and the vertex stays an obstacle.
        let expected = if trapezoids { [1, 1] } else { [2, 2] };
        assert_eq!(corners.iter().map(Vec::len).collect::<Vec<_>>(), expected);
    }
    // A lone polygon, and two that only touch at a vertex, keep every corner.
    let a = ConvexPolygon::new(&[v(0.0, 0.0), v(10.0, 0.0), v(10.0, 10.0), v(0.0, 10.0)]).unwrap();
    let b =
        ConvexPolygon::new(&[v(10.0, 10.0), v(20.0, 10.0), v(20.0, 20.0), v(10.0, 20.0)]).unwrap();
    assert_eq!(polygon_corners(&[a]), [PolygonCorners::ALL]);
    assert_eq!(polygon_corners(&[a, b]), [PolygonCorners::ALL; 2]);
}

#[test]
fn a_ball_sunk_by_rounding_is_bumped_by_a_lone_corner_but_not_by_a_seam() {
    // The sweep itself: a ball of radius 5 sliding right with its centre 1e-9 below the tops'
    // line y = 195 (sunk by rounding) reaches the second square's top-left vertex (200, 200).
    // As a lone polygon's vertex, that is a hit with a normal tilted back (a ghost); switched
    // off by the group rule, the second square's top face holds the ball and nothing stops it.
    for trapezoids in [false, true] {
        let lone = floor(trapezoids, false);
        let grouped = floor(trapezoids, true);
        let c = v(180.0, 195.0 + 1e-9);
        let sweep = |d: &ShapeDesc| match d.kind {
            collide_world::ShapeKind::Polygon { polygon, corners } => {
                sweep_circle_polygon(c, 5.0, v(100.0, 0.0), 1.0, &polygon, corners)
            }
            _ => unreachable!("polygons"),
        };
        let ghost = sweep(&lone[1]).expect("a lone corner bumps");
        assert!(matches!(ghost.feature, PolygonFeature::Vertex(_)));
        assert!(ghost.normal.x < 0.0);
        assert!(sweep(&grouped[1]).is_none());
        assert!(sweep(&grouped[0]).is_none());
    }
}

/// The shape events' normals and points of a ball of radius 5 starting on the tops at
/// (120, 195) moving right at 150, until it is past x = 280, and its position then.
fn roll(trapezoids: bool, grouped: bool, gravity: f64) -> (Vec<(Vec2, Vec2)>, Vec2) {
    let mut w = world(v(400.0, 400.0), 1.0 / 120.0, v(0.0, gravity));
    for d in floor(trapezoids, grouped) {
        w.add_shape(d).unwrap();
    }
    let id = w
        .add_ball(ball(v(120.0, 195.0), v(150.0, 0.0), 5.0))
        .unwrap();
    let mut events = Vec::new();
    while w.ball(id).unwrap().pos.x < 280.0 && w.time() < 3.0 {
        for e in w.step() {
            if let Event::Contact(Contact {
                body: Body::Ball(_),
                other: Target::Shape(_),
                point,
                normal,
                ..
            }) = *e
            {
                events.push((normal, point));
            }
        }
    }
    (events, w.ball(id).unwrap().pos)
}

#[test]
fn a_ball_rolling_across_the_seam_gets_no_event_there() {
    for trapezoids in [false, true] {
        // Sliding without gravity, touching the tops: no event at all with the group's
        // corners. With every corner on, the step's rounding sinks the ball into the first
        // top by a hair, and the second polygon's vertex (200, 200) bumps it: a ghost.
        let (events, end) = roll(trapezoids, true, 0.0);
        assert!(events.is_empty(), "{events:?}");
        assert!(end.x >= 280.0 && (end.y - 195.0).abs() < 1e-9, "{end}");
        let (ghosts, _) = roll(trapezoids, false, 0.0);
        assert!(
            matches!(ghosts[..], [(n, p)] if n.x < 0.0 && p == v(200.0, 200.0)),
            "{ghosts:?}"
        );
        // Under gravity the ball lying on the tops rests on the first top's face, and the
        // second top's face takes over at the seam: at most the one contact that starts the
        // rest (normal (0, −1) exactly), none at or after the seam, the height exact.
        let (events, end) = roll(trapezoids, true, 500.0);
        assert!(events.len() <= 1, "{events:?}");
        assert!(
            events
                .iter()
                .all(|&(n, p)| n == v(0.0, -1.0) && p.x < 200.0),
            "{events:?}"
        );
        assert!(end.x >= 280.0 && (end.y - 195.0).abs() <= 1e-9, "{end}");
    }
}

#[test]
fn nothing_tunnels_through_a_thin_polygon_at_ten_to_the_five_units_per_second() {
    // A slanted polygon 4 units thick from the top of the world to its bottom splits it in
    // two; balls and boxes fired at it at 10^5 units/s (about 1700 units a step) in every
    // direction bounce between it and the walls and stay on their side.
    let mut w = world(v(2000.0, 400.0), 1.0 / 60.0, Vec2::ZERO);
    let (top, bottom) = (v(1000.0, 0.0), v(900.0, 400.0));
    w.add_shape(ShapeDesc::polygon(&[top, v(1004.0, 0.0), v(904.0, 400.0), bottom]).unwrap())
        .unwrap();
    let side = |p: Vec2| (p - top).perp_dot(bottom - top);
    let mut balls = Vec::new();
    for k in 0..24 {
        let a = k as f64 * std::f64::consts::TAU / 24.0 + 0.1;
        let (s, c) = collide_world::collide_core::sin_cos(a);
        let vel = v(c, s) * 1e5;
        balls.push(
            w.add_ball(ball(v(400.0 + 10.0 * k as f64, 200.0), vel, 3.0))
                .unwrap(),
        );
    }
    let rect = w
        .add_rect(dynamic(v(300.0, 100.0), v(8.0, 8.0), v(1e5, 3e4)))
        .unwrap();
    let mut hits = 0;
    for step in 0..300 {
        hits += w
            .step()
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::Contact(Contact {
                        body: Body::Ball(_),
                        other: Target::Shape(_),
                        ..
                    }) | Event::Contact(Contact {
                        body: Body::Rect(_),
                        other: Target::Shape(_),
                        ..
                    })
                )
            })
            .count();
        for &id in &balls {
            let p = w.ball(id).unwrap().pos;
            assert!(
                side(p) < 0.0 && p.x < 1000.0,
                "ball {id:?} at {p} after step {step}"
            );
        }
        let r = w.rect(rect).unwrap().aabb;
        assert!(
            r.max.x < 1004.0 && side(v(r.max.x, r.min.y)) < 0.0,
            "{r:?} after step {step}"
        );
    }
    // The 25 bodies meet the polygon more than ten times a step between them.
    assert!(hits > 10 * 300, "{hits} hits");
}

#[test]
fn polygons_are_in_snapshots_and_the_state_hash() {
    let build = |dx: f64| {
        let mut w = world(v(400.0, 400.0), 1.0 / 60.0, v(0.0, 300.0));
        for d in floor(true, true) {
            w.add_shape(d).unwrap();
        }
        w.add_shape(
            ShapeDesc::polygon(&[v(50.0 + dx, 50.0), v(90.0, 60.0), v(70.0, 100.0)]).unwrap(),
        )
        .unwrap();
        for k in 0..10 {
            w.add_ball(ball(v(60.0 + 25.0 * k as f64, 20.0), v(40.0, 0.0), 4.0))
                .unwrap();
        }
        w
    };
    let mut a = build(0.0);
    assert_ne!(a.state_hash(), build(1.0).state_hash());
    for _ in 0..30 {
        a.step();
    }
    let snap = a.snapshot();
    let mut hashes = Vec::new();
    for _ in 0..90 {
        a.step();
        hashes.push(a.state_hash());
    }
    let mut b = build(0.0);
    b.restore(&snap).expect("the same shapes");
    for h in hashes {
        b.step();
        assert_eq!(b.state_hash(), h);
    }
    let err = build(1.0).restore(&snap).expect_err("another polygon");
    assert!(
        matches!(
            err,
            SnapshotError::Shape {
                field: "shapes",
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn queries_see_polygons() {
    let mut w = world(v(400.0, 400.0), 1.0 / 60.0, Vec2::ZERO);
    let id = w.add_shape(square()).unwrap();
    // A ray from (50, 250) to (350, 250) meets the left face x = 150 a third of the way.
    let hit = w
        .cast_ray(v(50.0, 250.0), v(350.0, 250.0), &[], Filter::ALL)
        .expect("a hit");
    assert!((hit.toi - 1.0 / 3.0).abs() < 1e-12);
    assert_eq!((hit.normal, hit.target), (v(-1.0, 0.0), Target::Shape(id)));
    assert_eq!(hit.point, v(150.0, 250.0));
    // A circle of radius 10: its centre stops 10 short, at 90/300.
    let hit = w
        .cast_circle(v(50.0, 250.0), v(350.0, 250.0), 10.0, &[], Filter::ALL)
        .expect("a hit");
    assert!((hit.toi - 0.3).abs() < 1e-12);
    // Diagonally at the top-left corner (150, 200): touching it at distance 10.
    let hit = w
        .cast_circle(v(100.0, 150.0), v(200.0, 250.0), 10.0, &[], Filter::ALL)
        .expect("a hit");
    assert!((hit.center - v(150.0, 200.0)).length() - 10.0 < 1e-9);
    assert_eq!(hit.point, v(150.0, 200.0));
    let mut out = Vec::new();
    w.query_point(v(200.0, 250.0), Filter::ALL, &mut out);
    assert_eq!(out, [Target::Shape(id)]);
    out.clear();
    w.query_point(v(140.0, 250.0), Filter::ALL, &mut out);
    assert!(out.is_empty());
    w.query_aabb(
        &Aabb::new(v(240.0, 290.0), v(260.0, 310.0)),
        Filter::ALL,
        &mut out,
    );
    assert_eq!(out, [Target::Shape(id)]);
    out.clear();
    w.query_aabb(
        &Aabb::new(v(250.0, 290.0), v(260.0, 310.0)),
        Filter::ALL,
        &mut out,
    );
    assert!(out.is_empty(), "touching is not overlapping");
    // A ball cannot be put inside or across it.
    assert!(!w.circle_is_free(v(145.0, 250.0), 6.0, None));
    assert!(w.circle_is_free(v(140.0, 250.0), 6.0, None));
}

#[test]
fn bad_polygons_are_refused_with_the_field_and_the_point() {
    let err = ShapeDesc::polygon(&[v(0.0, 0.0), v(10.0, 0.0), v(5.0, 5.0), v(10.0, 10.0)])
        .expect_err("not convex");
    assert!(
        matches!(&err, WorldError::BadShape { field: "points", problem } if problem.contains("point")),
        "{err}"
    );
    assert!(ShapeDesc::polygon(&[v(0.0, 0.0), v(1.0, 1.0)]).is_err());
    let far = ShapeDesc::polygon(&[v(0.0, 0.0), v(1e300, 0.0), v(0.0, 1.0)]).unwrap();
    let mut w = world(v(100.0, 100.0), 1.0 / 60.0, Vec2::ZERO);
    let err = w.add_shape(far).expect_err("out of bounds");
    assert!(
        matches!(
            err,
            WorldError::BadShape {
                field: "points",
                ..
            }
        ),
        "{err}"
    );
    let sensor = ShapeDesc {
        surface: Surface {
            sensor: true,
            ..Surface::DEFAULT
        },
        ..square()
    };
    assert!(w.add_shape(sensor).is_err(), "only a circle is a sensor");
}

#[test]
fn scene_polygons_are_laid_edge_to_edge_by_filter_and_errors_name_the_point() {
    let text = r#"
[world]
size = [400, 300]

[[polygon]]
points = [[40, 200], [100, 200], [100, 240], [40, 260]]
restitution = 0.5

[[polygon]]
points = [[100, 200], [160, 200], [160, 260], [100, 240]]

[[polygon]]
points = [[160, 200], [220, 200], [220, 260], [160, 260]]
layers = [2]
"#;
    let no_levels = |_: &str| Err(std::io::Error::other("no level files here"));
    let scene = collide_scene::from_toml_str(text, "blocks.toml", &no_levels).expect("parses");
    let corners: Vec<(usize, f64)> = scene
        .shapes
        .iter()
        .map(|d| match d.kind {
            collide_world::ShapeKind::Polygon { polygon, corners } => {
                let off: Vec<Vec2> = (0..polygon.len())
                    .filter(|&i| !corners.contains(i))
                    .map(|i| polygon.vertex(i))
                    .collect();
                (off.len(), off.first().map_or(0.0, |p| p.x))
            }
            _ => unreachable!("polygons"),
        })
        .collect();
    // The first two share the top vertex (100, 200); the third, on another layer, covers
    // nothing of the second's (160, 200) and keeps all its own.
    assert_eq!(corners, [(1, 100.0), (1, 100.0), (0, 0.0)]);
    assert_eq!(scene.shapes[0].surface.restitution, Some(0.5));
    let w = World::from_scene(&scene).expect("builds");
    assert_eq!(w.shapes().len(), 3);
    // The second block's last point pushed in to (140, 225), inside it: a dent.
    let bad = text.replace("[160, 260], [100, 240]]", "[160, 260], [140, 225]]");
    let err =
        collide_scene::from_toml_str(&bad, "blocks.toml", &no_levels).expect_err("not convex");
    assert_eq!(err.field(), Some("polygon[1].points"));
    assert_eq!(err.line(), Some(10));
    assert!(err.to_string().contains("not convex"), "{err}");
}
