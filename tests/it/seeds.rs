//! Every case the four seed articles discuss, run through the whole world step and checked
//! against values worked out by hand in the comments. The articles (Chinese, with code; cited
//! in docs/algorithms.md, "Sources"), named here by their number as the tests are:
//!
//! - seed 000: huidong (author of the game BricksBeater), "游戏中二维碰撞反弹算法分析与实现"
//!   ("Analysis and implementation of 2D collision and bounce in games"): a circle against
//!   grid rectangles, faces, corners, "fake" tangencies, seams and drifting through blocks;
//! - seed 001: "2D游戏中圆形与矩形碰撞检测" ("Circle–rectangle collision detection in 2D
//!   games", author not named, reposted on 程序博客网): the discrete overlap test;
//! - seed 002: "C++多小球非对心弹性碰撞(HGE引擎)" ("Oblique elastic collisions of many balls in
//!   C++, HGE engine", by the CSDN user y85171642): elastic collisions of unequal masses;
//! - seed 003: "[筆記] 矩形的碰撞偵測 (中篇) - 反彈" ("Notes: rectangle collision detection,
//!   part 2: bouncing", a blog post of July 2019, author not named): a rectangle bouncing off
//!   another, and which face was hit first.

use collide_core::{Corner, Face, Feature, Vec2};
use collide_tests::{ball, cc, embedded_count, world_with_cells};
use collide_world::Contact;
use collide_world::Target;
use collide_world::{Body, Event, RectDesc, RectKind, Scene, StepConfig, Surface, Walls, World};

fn close(a: Vec2, b: Vec2, eps: f64) -> bool {
    (a - b).length() <= eps
}

fn tile_events(w: &World) -> Vec<(collide_world::CellCoord, Vec2, f64, Feature)> {
    w.events()
        .iter()
        .filter_map(|e| match *e {
            Event::Contact(Contact {
                body: Body::Ball(_),
                other: Target::Cell(cell),
                normal,
                toi,
                feature: Some(feature),
                ..
            }) => Some((cell, normal, toi, feature)),
            _ => None,
        })
        .collect()
}

#[test]
fn seed000_face_hit_flips_vx_at_the_exact_time() {
    // One wall cell (5,5) = [50,60]². Ball r = 2 at (30,55) moving +60 units/s.
    // Contact when the centre reaches x = 48: t = 18/60 = 0.3 s. dt = 0.5, so it then moves
    // back for 0.2 s: x = 48 - 12 = 36.
    let mut w = world_with_cells(Vec2::new(100.0, 100.0), 0.5, 10.0, 10, 10, &[(5, 5)]);
    let id = w
        .add_ball(ball((30.0, 55.0), (60.0, 0.0), 2.0, 1.0))
        .unwrap();
    w.step();
    let ev = tile_events(&w);
    assert_eq!(ev.len(), 1);
    assert_eq!(ev[0].0, cc(5, 5));
    assert_eq!(ev[0].1, Vec2::new(-1.0, 0.0));
    assert!((ev[0].2 - 0.3).abs() < 1e-12);
    assert_eq!(ev[0].3, Feature::Face(Face::Left));
    let b = w.ball(id).unwrap();
    assert!(close(b.pos, Vec2::new(36.0, 55.0), 1e-12));
    assert_eq!(b.vel, Vec2::new(-60.0, 0.0));
}

#[test]
fn seed000_horizontal_face_hit_flips_vy() {
    // Same cell, ball r = 2 at (55, 90) moving up at 40: contact at y = 62 after 28/40 = 0.7 s;
    // dt = 1, then 0.3 s down: y = 62 + 12 = 74.
    let mut w = world_with_cells(Vec2::new(100.0, 100.0), 1.0, 10.0, 10, 10, &[(5, 5)]);
    let id = w
        .add_ball(ball((55.0, 90.0), (0.0, -40.0), 2.0, 1.0))
        .unwrap();
    w.step();
    let ev = tile_events(&w);
    assert_eq!(ev.len(), 1);
    assert_eq!(ev[0].1, Vec2::new(0.0, 1.0));
    assert_eq!(ev[0].3, Feature::Face(Face::Bottom));
    assert!((ev[0].2 - 0.7).abs() < 1e-12);
    let b = w.ball(id).unwrap();
    assert!(close(b.pos, Vec2::new(55.0, 74.0), 1e-12));
    assert_eq!(b.vel, Vec2::new(0.0, 40.0));
}

#[test]
fn seed000_corner_hit_reflects_about_the_corner_normal() {
    // Cell (5,5) = [50,60]², its top-left corner (50,50) is convex. Ball r = 5 at (37, 38.5)
    // moving (40, 30). |m + v t|² = 25 with m = (-13, -11.5): a = 2500, b = m·v = -865,
    // k = 276.25, roots (865 ± 240)/2500 = 0.25 and 0.442: impact at t = 0.25 with the centre
    // at (47, 46), normal (47-50, 46-50)/5 = (-0.6, -0.8) (in the corner's quadrant (-,-)).
    // The grown faces are not met first: at y = 45 the centre has x = 45.67 < 50, at x = 45
    // it has y = 44.5 < 50. v·n = -24 - 24 = -48, v' = v - 2(v·n)n = (40,30) + 96(-0.6,-0.8)
    // = (-17.6, -46.8), |v'| = 50. dt = 0.5: final centre (47,46) + 0.25·v' = (42.6, 34.3).
    let mut w = world_with_cells(Vec2::new(100.0, 100.0), 0.5, 10.0, 10, 10, &[(5, 5)]);
    let id = w
        .add_ball(ball((37.0, 38.5), (40.0, 30.0), 5.0, 1.0))
        .unwrap();
    w.step();
    let ev = tile_events(&w);
    assert_eq!(ev.len(), 1);
    assert_eq!(ev[0].3, Feature::Corner(Corner::TopLeft));
    assert!((ev[0].2 - 0.25).abs() < 1e-12);
    assert!(close(ev[0].1, Vec2::new(-0.6, -0.8), 1e-12));
    let b = w.ball(id).unwrap();
    assert!(close(b.vel, Vec2::new(-17.6, -46.8), 1e-12));
    assert!(close(b.pos, Vec2::new(42.6, 34.3), 1e-12));
}

#[test]
fn seed000_fake_tangency_is_not_a_corner_hit() {
    // Ball r = 2 moving straight down at x = 51 onto cell (5,5) = [50,60]². The corner circle
    // around (50,50) is met at centre (51, 50 - sqrt(3)) = (51, 48.27), but there the normal
    // (0.5, -0.87) is outside the top-left quadrant: the real contact is the top face at
    // y = 48, reached later (seed 000's "fake" tangency). Start y = 20, speed 40:
    // face hit at (48-20)/40 = 0.7 s with normal (0,-1).
    let mut w = world_with_cells(Vec2::new(100.0, 100.0), 1.0, 10.0, 10, 10, &[(5, 5)]);
    w.add_ball(ball((51.0, 20.0), (0.0, 40.0), 2.0, 1.0))
        .unwrap();
    w.step();
    let ev = tile_events(&w);
    assert_eq!(ev.len(), 1);
    assert_eq!(ev[0].3, Feature::Face(Face::Top));
    assert!((ev[0].2 - 0.7).abs() < 1e-12);
}

#[test]
fn seam_between_two_bricks_hit_at_45_degrees_reflects_as_a_flat_face() {
    // Bricks (4,5) and (5,5) form the flat top y = 50 over x in [40,60], seam at x = 50.
    // Ball r = 2 aimed at the seam: centre (35,33) moving (30,30) reaches (50,48) at t = 0.5.
    // A flat floor flips vy only: v' = (30,-30); after dt = 1 the centre is (65,33).
    // Per-cell boxes would see the corners (50,50) of both cells: a ghost collision.
    let mut w = world_with_cells(
        Vec2::new(100.0, 100.0),
        1.0,
        10.0,
        10,
        10,
        &[(4, 5), (5, 5)],
    );
    let id = w
        .add_ball(ball((35.0, 33.0), (30.0, 30.0), 2.0, 1.0))
        .unwrap();
    w.step();
    let ev = tile_events(&w);
    assert_eq!(ev.len(), 1, "{ev:?}");
    assert_eq!(ev[0].1, Vec2::new(0.0, -1.0));
    assert!((ev[0].2 - 0.5).abs() < 1e-12);
    let b = w.ball(id).unwrap();
    assert_eq!(b.vel, Vec2::new(30.0, -30.0));
    assert!(close(b.pos, Vec2::new(65.0, 33.0), 1e-12));
}

#[test]
fn ball_skimming_a_row_of_bricks_keeps_its_tangential_velocity() {
    // A row of bricks wall to wall, y in [50,60]. A ball touching its top (centre y = 48)
    // moving along it at 100 units/s passes every seam without an event and without any change.
    let row: Vec<(u32, u32)> = (0..10).map(|c| (c, 5)).collect();
    let mut w = world_with_cells(Vec2::new(100.0, 100.0), 1.0 / 60.0, 10.0, 10, 10, &row);
    let id = w
        .add_ball(ball((12.0, 48.0), (100.0, 0.0), 2.0, 1.0))
        .unwrap();
    for _ in 0..40 {
        w.step();
        assert!(tile_events(&w).is_empty());
        let b = w.ball(id).unwrap();
        assert_eq!(b.vel.x.abs(), 100.0);
        assert_eq!(b.vel.y, 0.0);
        assert_eq!(b.pos.y, 48.0);
    }
    // Grazing bounces along the row: vx stays exactly 100 (face normals are exact axes).
    let mut w = world_with_cells(Vec2::new(100.0, 100.0), 1.0 / 60.0, 10.0, 10, 10, &row);
    let id2 = w
        .add_ball(ball((15.0, 30.0), (100.0, 7.0), 2.0, 1.0))
        .unwrap();
    for _ in 0..200 {
        w.step();
        let b = w.ball(id2).unwrap();
        assert_eq!(b.vel.x.abs(), 100.0);
        assert_eq!(b.vel.y.abs(), 7.0);
    }
}

#[test]
fn ball_faster_than_20_cells_per_step_never_tunnels() {
    // World 400², cells of 10, a solid column at col 20 (x in [200,210]) over the full height.
    // Balls on the left at 30 cells per step (300 units per 1/60 s step = 18 000 units/s) in
    // many directions must stay left of x = 200 - r for ever.
    let column: Vec<(u32, u32)> = (0..40).map(|r| (20, r)).collect();
    let mut w = world_with_cells(Vec2::new(400.0, 400.0), 1.0 / 60.0, 10.0, 40, 40, &column);
    let speed = 18_000.0;
    for k in 0..16 {
        // Directions (cos, sin) of k·22.5° + 1°, written as exact-ish unit vectors.
        let a = (k as f64 * 22.5 + 1.0).to_radians();
        w.add_ball(ball(
            (100.0, 30.0 + 20.0 * k as f64),
            (speed * a.cos(), speed * a.sin()),
            3.0,
            1.0,
        ))
        .unwrap();
    }
    for _ in 0..500 {
        w.step();
        for b in w.balls() {
            assert!(
                b.pos.x <= 200.0 - 3.0 + 1e-9,
                "ball crossed the column: {:?}",
                b.pos
            );
        }
        assert_eq!(w.balls().len(), 16);
        assert_eq!(embedded_count(&w), 0);
    }
}

fn ball_world(dt: f64) -> World {
    World::new(
        Vec2::new(1000.0, 1000.0),
        Walls::ALL,
        StepConfig {
            dt,
            ..StepConfig::default()
        },
    )
    .unwrap()
}

#[test]
fn seed002_head_on_unequal_masses() {
    // A: r = 2, density 1, m1 = 4π, at x = 100, v = +10. B: r = 4, m2 = 16π, at x = 200,
    // v = -20. Gap 100 - 6 = 94 closing at 30: t = 94/30 s. 1D elastic formulas (m1:m2 = 1:4):
    // v1' = ((1-4)·10 + 2·4·(-20))/5 = -38, v2' = ((4-1)·(-20) + 2·1·10)/5 = -8.
    let t = 94.0 / 30.0;
    let mut w = ball_world(4.0);
    let a = w
        .add_ball(ball((100.0, 500.0), (10.0, 0.0), 2.0, 1.0))
        .unwrap();
    let b = w
        .add_ball(ball((200.0, 500.0), (-20.0, 0.0), 4.0, 1.0))
        .unwrap();
    let p0 = w.momentum();
    let e0 = w.kinetic_energy();
    w.step();
    let (ba, bb) = (w.ball(a).unwrap(), w.ball(b).unwrap());
    assert!(close(ba.vel, Vec2::new(-38.0, 0.0), 1e-12));
    assert!(close(bb.vel, Vec2::new(-8.0, 0.0), 1e-12));
    // Contact at xa = 100 + 10t, then 4 - t more seconds at the new speeds.
    let xa = 100.0 + 10.0 * t - 38.0 * (4.0 - t);
    let xb = 200.0 - 20.0 * t - 8.0 * (4.0 - t);
    assert!((ba.pos.x - xa).abs() < 1e-9 && (bb.pos.x - xb).abs() < 1e-9);
    assert!((w.momentum() - p0).length() <= 1e-12 * p0.length());
    assert!((w.kinetic_energy() - e0).abs() <= 1e-12 * e0);
}

#[test]
fn seed002_oblique_unequal_masses() {
    // Equal radii 2, densities 1 and 3 (m2 = 3 m1). B at rest at (200,200); A reaches contact
    // at B + 4·n with n = (-0.8,-0.6) (from B to A), i.e. (196.8, 197.6), moving (10,0) after
    // 0.5 s from (191.8, 197.6). Normal components: u1 = v1·n = -8, u2 = 0;
    // u1' = (1-3)/4·(-8) = 4, u2' = 2/4·(-8) = -4. Tangents kept:
    // v1' = (10,0) + (4-(-8))·n = (0.4,-7.2), v2' = -4·n = (3.2, 2.4).
    // Momentum m1·(10,0) = m1·((0.4,-7.2) + 3·(3.2,2.4)); energy 100 = 52 + 3·16.
    let mut w = ball_world(1.0);
    let a = w
        .add_ball(ball((191.8, 197.6), (10.0, 0.0), 2.0, 1.0))
        .unwrap();
    let b = w
        .add_ball(ball((200.0, 200.0), (0.0, 0.0), 2.0, 3.0))
        .unwrap();
    w.step();
    let ev: Vec<_> = w
        .events()
        .iter()
        .filter(|e| e.kind() == "ball_ball")
        .collect();
    assert_eq!(ev.len(), 1);
    if let Event::Contact(Contact {
        body: Body::Ball(_),
        other: Target::Ball(_),
        normal,
        toi,
        ..
    }) = *ev[0]
    {
        assert!((toi - 0.5).abs() < 1e-12);
        let expected = if w.ball(a).is_some() {
            Vec2::new(-0.8, -0.6)
        } else {
            unreachable!()
        };
        assert!(close(normal, expected, 1e-12) || close(normal, -expected, 1e-12));
    }
    let (ba, bb) = (w.ball(a).unwrap(), w.ball(b).unwrap());
    assert!(close(ba.vel, Vec2::new(0.4, -7.2), 1e-12), "{:?}", ba.vel);
    assert!(close(bb.vel, Vec2::new(3.2, 2.4), 1e-12), "{:?}", bb.vel);
    assert!(close(ba.pos, Vec2::new(197.0, 194.0), 1e-9));
    assert!(close(bb.pos, Vec2::new(201.6, 201.2), 1e-9));
}

#[test]
fn three_balls_newtons_cradle_passes_the_velocity_down_the_line() {
    // Equal balls r = 5: B at 300 and C at 310 touch; A at 200 moves +50 and reaches B
    // (centres 10 apart) at t = 90/50 = 1.8 s. A stops, B (touching C and approaching) hits C
    // at once (toi 0 rule), B stops, C leaves at 50. dt = 2: C is at 310 + 50·0.2 = 320.
    let mut w = ball_world(2.0);
    let a = w
        .add_ball(ball((200.0, 500.0), (50.0, 0.0), 5.0, 1.0))
        .unwrap();
    let b = w
        .add_ball(ball((300.0, 500.0), (0.0, 0.0), 5.0, 1.0))
        .unwrap();
    let c = w
        .add_ball(ball((310.0, 500.0), (0.0, 0.0), 5.0, 1.0))
        .unwrap();
    w.step();
    assert_eq!(
        w.events()
            .iter()
            .filter(|e| e.kind() == "ball_ball")
            .count(),
        2
    );
    assert!(close(w.ball(a).unwrap().vel, Vec2::ZERO, 1e-12));
    assert!(close(w.ball(b).unwrap().vel, Vec2::ZERO, 1e-12));
    assert!(close(w.ball(c).unwrap().vel, Vec2::new(50.0, 0.0), 1e-12));
    assert!(close(w.ball(c).unwrap().pos, Vec2::new(320.0, 500.0), 1e-9));
    assert!(close(w.ball(a).unwrap().pos, Vec2::new(290.0, 500.0), 1e-9));
}

#[test]
fn three_balls_unequal_masses_conserve_momentum_and_energy() {
    // Three balls of radii 2, 3, 5 (masses 4π, 9π, 25π) all aimed near (500,500) at t = 1 s
    // from three sides: whatever the order of impacts, momentum and energy are conserved
    // (no wall is reached in 1 s).
    let mut w = ball_world(1.0 / 60.0);
    w.add_ball(ball((440.0, 497.0), (60.0, 3.0), 2.0, 1.0))
        .unwrap();
    w.add_ball(ball((500.0, 470.0), (0.0, 30.0), 3.0, 1.0))
        .unwrap();
    w.add_ball(ball((540.0, 502.0), (-40.0, -2.0), 5.0, 1.0))
        .unwrap();
    let (p0, e0) = (w.momentum(), w.kinetic_energy());
    let mut hits = 0;
    for _ in 0..60 {
        w.step();
        hits += w
            .events()
            .iter()
            .filter(|e| e.kind() == "ball_ball")
            .count();
    }
    assert!(
        hits >= 2,
        "expected at least two ball-ball impacts, got {hits}"
    );
    assert!((w.momentum() - p0).length() <= 1e-12 * p0.length());
    assert!((w.kinetic_energy() - e0).abs() <= 1e-12 * e0);
}

fn rect_world(dt: f64) -> World {
    World::new(
        Vec2::new(500.0, 500.0),
        Walls::ALL,
        StepConfig {
            dt,
            ..StepConfig::default()
        },
    )
    .unwrap()
}

fn rect(min: (f64, f64), max: (f64, f64), vel: (f64, f64), kind: RectKind) -> RectDesc {
    RectDesc {
        aabb: collide_core::Aabb::new(Vec2::new(min.0, min.1), Vec2::new(max.0, max.1)),
        vel: Vec2::new(vel.0, vel.1),
        kind,
        density: 1.0,
        surface: Surface::DEFAULT,
    }
}

#[test]
fn seed003_rect_hitting_a_corner_flips_both_components() {
    // Dynamic box [10,20]² moving (10,5) toward a static box [30,40]×[25,35]: the x slab is
    // entered at (30-20)/10 = 1, the y slab at (25-20)/5 = 1: corner to corner at t = 1, both
    // components flip. dt = 1.5: min = (20,15) + (-10,-5)·0.5 = (15, 12.5).
    let mut w = rect_world(1.5);
    let d = w
        .add_rect(rect(
            (10.0, 10.0),
            (20.0, 20.0),
            (10.0, 5.0),
            RectKind::Dynamic,
        ))
        .unwrap();
    w.add_rect(rect(
        (30.0, 25.0),
        (40.0, 35.0),
        (0.0, 0.0),
        RectKind::Static,
    ))
    .unwrap();
    w.step();
    let r = w.rect(d).unwrap();
    assert_eq!(r.vel, Vec2::new(-10.0, -5.0));
    assert!(close(r.aabb.min, Vec2::new(15.0, 12.5), 1e-12));
}

#[test]
fn seed003_diagonal_approach_hits_the_face_entered_last() {
    // Box [0,10]² at (5,5)-(15,15) moving (10,10); platform [20,100]×[35,45]. x slab entered at
    // (20-15)/10 = 0.5, y slab at (35-15)/10 = 2.0: the top face is hit at t = 2 (seed 003's
    // "which face first" question settled by the time of impact): only vy flips.
    // dt = 2.5: min = (25,25) + (10,-10)·0.5 = (30, 20).
    let mut w = rect_world(2.5);
    let d = w
        .add_rect(rect(
            (5.0, 5.0),
            (15.0, 15.0),
            (10.0, 10.0),
            RectKind::Dynamic,
        ))
        .unwrap();
    w.add_rect(rect(
        (20.0, 35.0),
        (100.0, 45.0),
        (0.0, 0.0),
        RectKind::Static,
    ))
    .unwrap();
    w.step();
    let r = w.rect(d).unwrap();
    assert_eq!(r.vel, Vec2::new(10.0, -10.0));
    assert!(close(r.aabb.min, Vec2::new(30.0, 20.0), 1e-12));
    let hit = w.events().iter().find_map(|e| match *e {
        Event::Contact(Contact {
            body: Body::Rect(_),
            other: Target::Rect(_),
            normal,
            toi,
            ..
        }) => Some((normal, toi)),
        _ => None,
    });
    assert_eq!(hit.map(|h| h.0), Some(Vec2::new(0.0, -1.0)));
    assert!((hit.unwrap().1 - 2.0).abs() < 1e-12);
}

#[test]
fn moving_paddle_sends_the_ball_back_faster() {
    // Kinematic paddle [0,200]×[100,106] rising at 20; ball r = 2 at (100,50) falling at 100.
    // Contact: 52 + 100t = 100 - 20t, t = 0.4 (ball centre y = 90). Relative normal speed 120
    // reverses: v' = -100 - 2·20 = -140. dt = 0.5: y = 90 - 140·0.1 = 76; paddle top at 90.
    let mut w = rect_world(0.5);
    let p = w
        .add_rect(rect(
            (0.0, 100.0),
            (200.0, 106.0),
            (0.0, -20.0),
            RectKind::Kinematic,
        ))
        .unwrap();
    let b = w
        .add_ball(ball((100.0, 50.0), (0.0, 100.0), 2.0, 1.0))
        .unwrap();
    w.step();
    assert!(close(w.ball(b).unwrap().vel, Vec2::new(0.0, -140.0), 1e-12));
    assert!(close(w.ball(b).unwrap().pos, Vec2::new(100.0, 76.0), 1e-9));
    assert!(close(
        w.rect(p).unwrap().aabb.min,
        Vec2::new(0.0, 90.0),
        1e-12
    ));
    // A paddle moving sideways does not drag the ball: only the normal part reverses.
    let mut w = rect_world(0.5);
    w.add_rect(rect(
        (0.0, 100.0),
        (200.0, 106.0),
        (50.0, 0.0),
        RectKind::Kinematic,
    ))
    .unwrap();
    let b = w
        .add_ball(ball((100.0, 50.0), (30.0, 100.0), 2.0, 1.0))
        .unwrap();
    w.step();
    assert!(close(
        w.ball(b).unwrap().vel,
        Vec2::new(30.0, -100.0),
        1e-12
    ));
}

#[test]
fn ball_spawned_inside_a_brick_is_pushed_out_the_shortest_way() {
    // Brick (5,5) = [50,60]², ball r = 2 at rest at (51,55): the left face grown by r (x = 48)
    // is 3 away, the top/bottom ones 7, the right one 11: the ball goes to (48,55), once.
    let mut w = world_with_cells(Vec2::new(100.0, 100.0), 1.0 / 60.0, 10.0, 10, 10, &[(5, 5)]);
    let id = w
        .add_ball(ball((51.0, 55.0), (0.0, 0.0), 2.0, 1.0))
        .unwrap();
    w.step();
    assert!(close(w.ball(id).unwrap().pos, Vec2::new(48.0, 55.0), 1e-12));
    let unembedded: Vec<_> = w
        .events()
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::Unembedded {
                    body: Body::Ball(_),
                    ..
                }
            )
        })
        .collect();
    assert_eq!(unembedded.len(), 1);
    // With a solid neighbour on the left, that face is internal: the nearest exposed way out is
    // the top or bottom face, 7 away. Then it moves on without ever being pushed again.
    let mut w = world_with_cells(
        Vec2::new(100.0, 100.0),
        1.0 / 60.0,
        10.0,
        10,
        10,
        &[(4, 5), (5, 5)],
    );
    let id = w
        .add_ball(ball((51.0, 55.0), (37.0, -23.0), 2.0, 1.0))
        .unwrap();
    w.step();
    let p = w.events().iter().find_map(|e| match *e {
        Event::Unembedded { to, .. } => Some(to),
        _ => None,
    });
    let to = p.expect("pushed out");
    assert!(
        close(to, Vec2::new(51.0, 48.0), 1e-12) || close(to, Vec2::new(51.0, 62.0), 1e-12),
        "{to:?}"
    );
    for _ in 0..600 {
        w.step();
        assert!(!w.events().iter().any(|e| e.kind() == "unembedded"));
        assert_eq!(embedded_count(&w), 0);
    }
    assert_eq!(
        w.ball(id).unwrap().vel.length_squared(),
        37.0 * 37.0 + 23.0 * 23.0
    );
}

#[test]
fn concave_corner_reflects_both_components() {
    // L-shape: cells (2,3) and (2,4) and (3,4) (cell 10): the inner corner is at (30,40)
    // between the right face of (2,3) (x = 30) and the top face of (3,4) (y = 40). A ball
    // r = 2 moving (-10,10) from (42,28) reaches (32,38) (touching both grown faces) at t = 1:
    // both components reflect: v' = (10,-10), and after dt = 1.5 it is at (37, 33).
    let mut w = world_with_cells(
        Vec2::new(100.0, 100.0),
        1.5,
        10.0,
        10,
        10,
        &[(2, 3), (2, 4), (3, 4)],
    );
    let id = w
        .add_ball(ball((42.0, 28.0), (-10.0, 10.0), 2.0, 1.0))
        .unwrap();
    w.step();
    let b = w.ball(id).unwrap();
    assert_eq!(b.vel, Vec2::new(10.0, -10.0));
    assert!(close(b.pos, Vec2::new(37.0, 33.0), 1e-12));
    assert_eq!(tile_events(&w).len(), 2);
}

#[test]
fn destructible_brick_breaks_on_first_hit_and_the_ball_bounces() {
    // Brick (5,5) hit on its left face as in the first test: the ball bounces and the cell
    // becomes empty with a BrickDestroyed event.
    let scene = Scene {
        size: Vec2::new(100.0, 100.0),
        grid: Some(collide_world::GridDesc {
            cell: 10.0,
            origin: Vec2::ZERO,
            cols: 10,
            rows: 10,
            cells: (0..100)
                .map(|i| {
                    if i == 55 {
                        collide_world::Cell::Brick(b'R')
                    } else {
                        collide_world::Cell::Empty
                    }
                })
                .collect(),
            wall_restitution: None,
            brick_restitution: None,
            brick_filter: collide_world::Filter::DEFAULT,
            sensor_filter: collide_world::Filter::DEFAULT,
            wall_filter: collide_world::Filter::DEFAULT,
        }),
        step: StepConfig {
            dt: 0.5,
            ..StepConfig::default()
        },
        ..Scene::default()
    };
    let mut w = World::from_scene(&scene).unwrap();
    let id = w
        .add_ball(ball((30.0, 55.0), (60.0, 0.0), 2.0, 1.0))
        .unwrap();
    w.step();
    assert!(w
        .events()
        .iter()
        .any(|e| matches!(e, Event::BrickDestroyed { kind: b'R', .. })));
    assert_eq!(w.grid().unwrap().bricks_left(), 0);
    assert_eq!(w.ball(id).unwrap().vel, Vec2::new(-60.0, 0.0));
}
