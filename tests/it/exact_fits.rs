//! Exact fits: a body exactly as wide as the gap it moves in touches both sides at every
//! instant. The two contacts are resolved together (`leave_wedge` in the step): the body
//! keeps the velocity component along the gap and loses the one across it, so it slides at
//! its tangential speed instead of bouncing between the sides at zero time until the event
//! bound stops it.

use collide_world::Body;
use collide_world::Contact;
use collide_world::Target;
use collide_world::{
    Aabb, BallDesc, Event, Grid, RectDesc, RectKind, StepConfig, Surface, Vec2, Walls, World,
};
use proptest::prelude::*;

/// Steps `w` `steps` times; returns the number of `IterationLimit` events.
fn run(w: &mut World, steps: usize) -> usize {
    let mut limits = 0;
    for _ in 0..steps {
        limits += w
            .step()
            .iter()
            .filter(|e| matches!(e, Event::IterationLimit { .. }))
            .count();
    }
    limits
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    /// Between the two side walls of a world exactly its diameter wide, a ball moving at
    /// (vx, vy) slides at (0, vy) until it meets the bottom or top wall: after t seconds with
    /// no end wall met, its centre is at y0 + vy·t, x = w / 2.
    #[test]
    fn ball_between_walls_slides(width in 0.5f64..200.0, vx in -500.0f64..500.0, vy in 1.0f64..300.0) {
        let r = width / 2.0;
        let height = 10_000.0;
        let mut w = World::new(Vec2::new(width, height), Walls::ALL, StepConfig::default()).unwrap();
        let id = w.add_ball(BallDesc { pos: Vec2::new(r, r + 1.0), vel: Vec2::new(vx, vy), radius: r, density: 1.0, surface: collide_world::Surface::DEFAULT, gravity_scale: 1.0 }).unwrap();
        // 30 steps of 1/60 s: 0.5 s, at most 150 units down, far from the bottom.
        let limits = run(&mut w, 30);
        let b = w.ball(id).unwrap();
        prop_assert_eq!(limits, 0);
        prop_assert_eq!(b.vel.x, 0.0);
        prop_assert_eq!(b.vel.y, vy);
        prop_assert!((b.pos.x - r).abs() <= 1e-12 * width.max(1.0), "x = {}", b.pos.x);
        let expected = r + 1.0 + vy * 0.5;
        prop_assert!((b.pos.y - expected).abs() <= 1e-9 * expected, "y = {} vs {}", b.pos.y, expected);
    }

    /// In a one-cell vertical corridor of tiles (cell side c, ball diameter c), the same.
    #[test]
    fn ball_in_a_one_cell_tile_corridor_slides(cell in 0.5f64..50.0, vx in -500.0f64..500.0, vy in 1.0f64..300.0) {
        let rows: Vec<&str> = vec!["# #"; 400];
        let mut w = World::new(Vec2::new(3.0 * cell, 400.0 * cell), Walls::ALL, StepConfig::default()).unwrap();
        w.set_grid(Grid::from_rows(cell, Vec2::ZERO, &rows).unwrap());
        let r = cell / 2.0;
        let id = w.add_ball(BallDesc { pos: Vec2::new(1.5 * cell, r + 0.25 * cell), vel: Vec2::new(vx, vy), radius: r, density: 1.0, surface: collide_world::Surface::DEFAULT, gravity_scale: 1.0 }).unwrap();
        // Stop before the bottom: at most 300·t units, t = 0.25 s, within 400 cells of >= 0.5.
        let steps = ((400.0 * cell - 3.0 * cell) / vy * 60.0).floor().min(15.0) as usize;
        let limits = run(&mut w, steps);
        let b = w.ball(id).unwrap();
        prop_assert_eq!(limits, 0);
        prop_assert_eq!(b.vel, Vec2::new(0.0, vy));
        prop_assert!((b.pos.x - 1.5 * cell).abs() <= 1e-12 * cell.max(1.0));
    }

    /// A dynamic box exactly as wide as the world slides the same way.
    #[test]
    fn box_between_walls_slides(width in 0.5f64..200.0, vx in -500.0f64..500.0, vy in 1.0f64..300.0) {
        let mut w = World::new(Vec2::new(width, 10_000.0), Walls::ALL, StepConfig::default()).unwrap();
        let id = w.add_rect(RectDesc {
            aabb: Aabb::new(Vec2::new(0.0, 1.0), Vec2::new(width, 11.0)),
            vel: Vec2::new(vx, vy),
            kind: RectKind::Dynamic,
            density: 1.0,
            surface: Surface::DEFAULT,
        }).unwrap();
        let limits = run(&mut w, 30);
        let r = w.rect(id).unwrap();
        prop_assert_eq!(limits, 0);
        prop_assert_eq!(r.vel, Vec2::new(0.0, vy));
        prop_assert!(r.aabb.min.x.abs() <= 1e-12 * width.max(1.0));
        prop_assert!((r.aabb.min.y - (1.0 + vy * 0.5)).abs() <= 1e-9 * (1.0 + vy));
    }

    /// Between the left wall and the face of a kinematic paddle sliding along that face
    /// (velocity (0, u)), a ball or a box exactly as wide as the gap slides at (0, vy) as
    /// between two walls: across the contact the face does not move. After 0.5 s its
    /// centre's x is where it started and its y is y0 + vy·0.5; the paddle never pushes it.
    #[test]
    fn body_between_a_wall_and_a_paddle_sliding_past_slides(
        width in 0.5f64..200.0,
        vx in prop_oneof![-500.0f64..-1.0, 1.0f64..500.0],
        vy in -300.0f64..300.0,
        u in prop_oneof![-300.0f64..-1.0, 1.0f64..300.0],
        is_ball: bool,
    ) {
        let mut w = World::new(Vec2::new(1_000.0, 10_000.0), Walls::ALL, StepConfig::default()).unwrap();
        w.add_rect(RectDesc {
            aabb: Aabb::new(Vec2::new(width, 1_000.0), Vec2::new(width + 20.0, 9_000.0)),
            vel: Vec2::new(0.0, u),
            kind: RectKind::Kinematic,
            density: 1.0,
            surface: Surface::DEFAULT,
        }).unwrap();
        let y0 = 5_000.0;
        let body = if is_ball {
            let r = width / 2.0;
            Body::Ball(w.add_ball(BallDesc { pos: Vec2::new(r, y0), vel: Vec2::new(vx, vy), radius: r, density: 1.0, surface: Surface::DEFAULT, gravity_scale: 1.0 }).unwrap())
        } else {
            let half = Vec2::new(width / 2.0, 5.0);
            Body::Rect(w.add_rect(RectDesc {
                aabb: Aabb::new(Vec2::new(0.0, y0) - Vec2::new(0.0, half.y), Vec2::new(width, y0 + half.y)),
                vel: Vec2::new(vx, vy),
                kind: RectKind::Dynamic,
                density: 1.0,
                surface: Surface::DEFAULT,
            }).unwrap())
        };
        let limits = run(&mut w, 30);
        let (pos, vel) = match body {
            Body::Ball(id) => { let b = w.ball(id).unwrap(); (b.pos, b.vel) }
            Body::Rect(id) => { let r = w.rect(id).unwrap(); (r.aabb.center(), r.vel) }
            _ => unreachable!(),
        };
        prop_assert_eq!(limits, 0);
        prop_assert_eq!(vel, Vec2::new(0.0, vy));
        prop_assert!((pos.x - width / 2.0).abs() <= 1e-12 * width.max(1.0), "x = {}", pos.x);
        let expected = y0 + vy * 0.5;
        prop_assert!((pos.y - expected).abs() <= 1e-9 * expected, "y = {} vs {}", pos.y, expected);
    }
}

/// A ball aimed along the diagonal at the point where two tiles touch corner to corner
/// meets both faces of the pinch at one instant (perpendicular normals: a concave corner)
/// and comes straight back, at full speed, with no event bound reached.
#[test]
fn ball_aimed_at_the_pinch_of_two_diagonal_tiles_comes_back() {
    // Tiles (1, 2) = [10, 20] × [20, 30] and (2, 3) = [20, 30] × [30, 40] touch at (20, 30).
    let mut w = World::new(Vec2::new(60.0, 60.0), Walls::ALL, StepConfig::default()).unwrap();
    w.set_grid(
        Grid::from_rows(
            10.0,
            Vec2::ZERO,
            &["      ", "      ", " #    ", "  #   ", "      ", "      "],
        )
        .unwrap(),
    );
    // From (45, 5) at (-30, 30): along x + y = 50, through (20, 30). Radius 2: it touches
    // the right face of (1, 2) (x = 20) and the top face of (2, 3) (y = 30) when its centre
    // is at (22, 28), after 23 / 30 s.
    let id = w
        .add_ball(BallDesc {
            pos: Vec2::new(45.0, 5.0),
            vel: Vec2::new(-30.0, 30.0),
            radius: 2.0,
            density: 1.0,
            surface: Surface::DEFAULT,
            gravity_scale: 1.0,
        })
        .unwrap();
    let mut tile_hits = Vec::new();
    for _ in 0..50 {
        let t0 = w.time();
        for e in w.step() {
            match *e {
                Event::Contact(Contact {
                    body: Body::Ball(_),
                    other: Target::Cell(_),
                    normal,
                    toi,
                    ..
                }) => tile_hits.push((t0 + toi, normal)),
                Event::IterationLimit { .. } => panic!("the event bound was reached"),
                _ => {}
            }
        }
    }
    assert_eq!(tile_hits.len(), 2, "{tile_hits:?}");
    for (t, _) in &tile_hits {
        assert!((t - 23.0 / 30.0).abs() < 1e-12, "{tile_hits:?}");
    }
    let b = w.ball(id).unwrap();
    assert_eq!(b.vel, Vec2::new(30.0, -30.0));
}

/// A diagonal corridor of slope cells, one cell wide across its cells: `9` cells (solid
/// above the line y = x − 20) over `1` cells (solid below y = x), cells of 20 in a 240 × 240
/// closed world. Its perpendicular width is 20/√2, the diameter of a ball of radius 5√2.
fn diagonal_corridor(gravity: Vec2) -> World {
    let rows: Vec<String> = (0..12)
        .map(|r| {
            (0..12)
                .map(|c| match c - r {
                    0 => '1',
                    1 => '9',
                    _ => ' ',
                })
                .collect()
        })
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let config = StepConfig {
        gravity,
        ..StepConfig::default()
    };
    let mut w = World::new(Vec2::new(240.0, 240.0), Walls::ALL, config).unwrap();
    w.set_grid(Grid::from_rows(20.0, Vec2::ZERO, &rows).unwrap());
    w
}

/// A ball exactly as wide as a diagonal corridor of slope cells touches both diagonals, whose
/// contacts come a rounding apart rather than at one instant: it slides along the corridor
/// at its velocity's component along it, and under gravity at `g/√2` down it, with no
/// event bound reached.
#[test]
fn a_ball_as_wide_as_a_diagonal_corridor_slides_along_it() {
    let r = 10.0 / 2f64.sqrt();
    // Thrown sideways at 30 units/s from the corridor's middle line (y = x − 10): it keeps
    // (15, 15), the component along the corridor, and covers 15·60/60 = 15 units on each axis
    // in 60 steps of 1/60 s.
    let mut w = diagonal_corridor(Vec2::ZERO);
    let id = w
        .add_ball(BallDesc {
            pos: Vec2::new(50.0, 40.0),
            vel: Vec2::new(30.0, 0.0),
            radius: r,
            ..BallDesc::default()
        })
        .unwrap();
    assert_eq!(run(&mut w, 60), 0);
    let b = w.ball(id).unwrap();
    assert!(
        (b.vel - Vec2::new(15.0, 15.0)).length() < 1e-9,
        "{:?}",
        b.vel
    );
    assert!(
        (b.pos - Vec2::new(65.0, 55.0)).length() < 1e-9,
        "{:?}",
        b.pos
    );

    // Dropped at rest under gravity 1000: it slides down the corridor at g/√2 along it, so
    // each coordinate moves ½·(g/2)·t²: 10 units after t = √0.04 = 0.2 s (12 steps).
    let mut w = diagonal_corridor(Vec2::new(0.0, 1000.0));
    let id = w
        .add_ball(BallDesc {
            pos: Vec2::new(50.0, 40.0),
            radius: r,
            ..BallDesc::default()
        })
        .unwrap();
    assert_eq!(run(&mut w, 12), 0);
    let b = w.ball(id).unwrap();
    assert!(
        (b.pos - Vec2::new(60.0, 50.0)).length() < 1e-6,
        "{:?}",
        b.pos
    );
    assert!(
        (b.vel - Vec2::new(100.0, 100.0)).length() < 1e-6,
        "{:?}",
        b.vel
    );
}
