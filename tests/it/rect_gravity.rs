//! Dynamic rectangles under gravity: exact parabolas between events, against values computed
//! by hand (textbook kinematics, quadratic roots worked out here).

use crate::build::ball;
use collide_tests::REST_TIME;
use collide_world::Body;
use collide_world::Contact;
use collide_world::Target;
use collide_world::{
    Aabb, Event, Grid, RectDesc, RectId, RectKind, StepConfig, Surface, Vec2, Walls, World,
};
use proptest::prelude::*;

const G: f64 = 1000.0;

fn config(e: f64, dt: f64) -> StepConfig {
    StepConfig {
        dt,
        restitution: e,
        gravity: Vec2::new(0.0, G),
        ..StepConfig::default()
    }
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

/// A grid of `cols` × `rows` cells of side `cell` with row `floor` solid.
fn floor_grid(cell: f64, cols: usize, rows: usize, floor: usize) -> Grid {
    let mut r = vec![" ".repeat(cols); rows];
    r[floor] = "#".repeat(cols);
    let refs: Vec<&str> = r.iter().map(String::as_str).collect();
    Grid::from_rows(cell, Vec2::ZERO, &refs).unwrap()
}

/// The time of a contact event, seconds from the start of its step.
fn toi_of(e: &Event) -> Option<f64> {
    match *e {
        Event::Contact(Contact {
            body: Body::Rect(_),
            other: Target::Cell(_),
            toi,
            ..
        })
        | Event::Contact(Contact {
            body: Body::Rect(_),
            other: Target::Wall(_),
            toi,
            ..
        })
        | Event::Contact(Contact {
            body: Body::Rect(_),
            other: Target::Rect(_),
            toi,
            ..
        })
        | Event::Contact(Contact {
            body: Body::Ball(_),
            other: Target::Rect(_),
            toi,
            ..
        })
        | Event::Contact(Contact {
            body: Body::Ball(_),
            other: Target::Wall(_),
            toi,
            ..
        })
        | Event::Contact(Contact {
            body: Body::Ball(_),
            other: Target::Cell(_),
            toi,
            ..
        }) => Some(toi),
        _ => None,
    }
}

/// Absolute times of the events `pick` keeps over `steps` steps.
fn times(w: &mut World, steps: usize, pick: impl Fn(&Event) -> bool) -> Vec<f64> {
    let mut out = Vec::new();
    for _ in 0..steps {
        let t0 = w.time();
        for e in w.step() {
            if pick(e) {
                out.push(t0 + toi_of(e).expect("a contact event"));
            }
        }
    }
    out
}

fn rect(w: &World, id: RectId) -> collide_world::Rect {
    *w.rect(id).unwrap()
}

/// A box dropped from rest with its bottom h above the floor (e = 1) lands at
/// √(2h/g)·(1, 3, 5, …) and is back at its starting height, at rest, at √(2h/g)·(2, 4, …).
#[test]
fn an_elastic_box_bounces_at_odd_multiples_of_the_fall_time() {
    let (h, size, floor) = (200.0, 10.0, 400.0);
    let dt = 1.0 / 64.0;
    let y0 = floor - size - h;
    let mut w = World::new(Vec2::new(100.0, floor), Walls::ALL, config(1.0, dt)).unwrap();
    w.add_rect(dynamic(Vec2::new(45.0, y0), Vec2::splat(size), Vec2::ZERO))
        .unwrap();
    let t1 = (2.0 * h / G).sqrt();
    let hits = times(&mut w, (10.0 * t1 / dt) as usize, |e| {
        matches!(
            e,
            Event::Contact(Contact {
                body: Body::Rect(_),
                other: Target::Wall(_),
                ..
            })
        )
    });
    assert_eq!(hits.len(), 5, "{hits:?}");
    for (k, t) in hits.iter().enumerate() {
        let want = t1 * (2 * k + 1) as f64;
        assert!((t - want).abs() < 1e-9, "bounce {k}: {t} vs {want}");
    }
    // At the apexes: a step of t1/8 lands on them exactly.
    let mut w = World::new(Vec2::new(100.0, floor), Walls::ALL, config(1.0, t1 / 8.0)).unwrap();
    let id = w
        .add_rect(dynamic(Vec2::new(45.0, y0), Vec2::splat(size), Vec2::ZERO))
        .unwrap();
    for k in 1..=20 {
        for _ in 0..16 {
            w.step();
        }
        let r = rect(&w, id);
        assert!((w.time() - 2.0 * t1 * k as f64).abs() < 1e-12);
        assert!(
            (r.aabb.min.y - y0).abs() < 1e-9,
            "apex {k}: y = {}",
            r.aabb.min.y
        );
        assert!(r.vel.length() < 1e-9, "apex {k}: v = {}", r.vel);
        assert!((r.aabb.size() - Vec2::splat(size)).length() < 1e-9);
    }
}

/// With e < 1 on a floor of tiles the flights shrink geometrically: bounce k at
/// t1·(1 + 2·(e + … + e^k)); once a flight would be shorter than `REST_TIME` the box rests
/// on the floor, before the series' limit t1·(1 + e)/(1 − e), without sinking into it, and
/// makes no more events.
#[test]
fn an_inelastic_box_follows_the_geometric_series_and_rests() {
    let (cell, e) = (20.0, 0.5);
    let dt = 1.0 / 64.0;
    let mut w = World::new(Vec2::new(200.0, 420.0), Walls::ALL, config(e, dt)).unwrap();
    // Floor: row 20, its top at y = 400. The box straddles the seam of two cells.
    w.set_grid(floor_grid(cell, 10, 21, 20));
    let (h, size) = (200.0, 16.0);
    let id = w
        .add_rect(dynamic(
            Vec2::new(72.0, 400.0 - size - h),
            Vec2::splat(size),
            Vec2::ZERO,
        ))
        .unwrap();
    let t1 = (2.0 * h / G).sqrt();
    let limit = t1 * (1.0 + e) / (1.0 - e);
    let hits = times(&mut w, (limit / dt) as usize + 8, |e| {
        matches!(
            e,
            Event::Contact(Contact {
                body: Body::Rect(_),
                other: Target::Cell(_),
                ..
            })
        )
    });
    let mut want = vec![t1];
    let mut flight = 2.0 * t1 * e;
    while flight >= REST_TIME {
        want.push(want.last().unwrap() + flight);
        flight *= e;
    }
    // One event per bounce (a seam under the box is no second contact).
    assert_eq!(hits.len(), want.len(), "{hits:?}");
    for (k, (t, w_)) in hits.iter().zip(&want).enumerate() {
        assert!((t - w_).abs() < 1e-9, "bounce {k}: {t} vs {w_}");
    }
    assert!(*hits.last().unwrap() < limit);
    for _ in 0..100 {
        w.step();
        let r = rect(&w, id);
        assert!(r.aabb.max.y <= 400.0, "penetrates: {}", r.aabb.max.y);
        assert!((r.aabb.max.y - 400.0).abs() < 1e-9);
        assert!(r.vel.length() < 1e-9, "v = {}", r.vel);
        assert!(w.events().is_empty(), "{:?}", w.events());
    }
}

/// A box thrown up and sideways lands on a lone tile's top face at the larger root of the
/// quadratic of its bottom's height, worked out here: 160 − 100·t + 500·t² = 200, t = 0.4 s.
#[test]
fn a_thrown_box_hits_a_tile_face_at_the_quadratic_root() {
    let mut w = World::new(Vec2::new(400.0, 400.0), Walls::ALL, config(1.0, 1.0 / 60.0)).unwrap();
    // One tile: cell (10, 10), the square [200, 220]².
    let mut rows = vec![" ".repeat(20); 20];
    rows[10] = format!("{}#{}", " ".repeat(10), " ".repeat(9));
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    w.set_grid(Grid::from_rows(20.0, Vec2::ZERO, &refs).unwrap());
    // A 10×10 box with its bottom at y = 160, thrown at (160, −100): its left side at
    // x = 204 at t = 0.4, over the tile.
    w.add_rect(dynamic(
        Vec2::new(140.0, 150.0),
        Vec2::splat(10.0),
        Vec2::new(160.0, -100.0),
    ))
    .unwrap();
    let (a, b, c) = (0.5 * G, -100.0, 160.0 - 200.0);
    let t: f64 = (-b + (b * b - 4.0 * a * c).sqrt()) / (2.0 * a);
    assert!((t - 0.4).abs() < 1e-15);
    // Its right side passes x = 200 at (200 − 150)/160 s, still above the tile then.
    let t_side: f64 = 50.0 / 160.0;
    assert!(160.0 + b * t_side + a * t_side * t_side < 200.0);
    let mut got = None;
    for _ in 0..40 {
        let t0 = w.time();
        for e in w.step() {
            if let Event::Contact(Contact {
                body: Body::Rect(_),
                other: Target::Cell(cell),
                normal,
                toi,
                ..
            }) = *e
            {
                got.get_or_insert((t0 + toi, normal, cell));
            }
        }
    }
    let (hit, normal, cell) = got.expect("the box lands on the tile");
    assert!((hit - t).abs() < 1e-12, "{hit} vs {t}");
    assert_eq!(normal, Vec2::new(0.0, -1.0));
    assert_eq!(cell, collide_world::CellCoord::new(10, 10));
}

/// A ball and a box falling side by side under the same gravity meet when their linear
/// relative motion says: the ball's right side at 460 + 50·t, the box's left side at
/// 520 − 30·t, equal at t = 0.75 s, when their heights agree (the box rises 200·t relative to
/// the ball: its centre from 250 to the ball's 100).
#[test]
fn a_falling_ball_and_box_collide_when_relative_motion_says() {
    let mut w = World::new(
        Vec2::new(1000.0, 4000.0),
        Walls::ALL,
        config(1.0, 1.0 / 60.0),
    )
    .unwrap();
    w.add_ball(ball(Vec2::new(450.0, 100.0), Vec2::new(50.0, 0.0), 10.0))
        .unwrap();
    w.add_rect(dynamic(
        Vec2::new(520.0, 240.0),
        Vec2::splat(20.0),
        Vec2::new(-30.0, -200.0),
    ))
    .unwrap();
    let mut met = None;
    for _ in 0..60 {
        let t0 = w.time();
        for e in w.step() {
            if let Event::Contact(Contact {
                body: Body::Ball(_),
                other: Target::Rect(_),
                point,
                normal,
                toi,
                ..
            }) = *e
            {
                met.get_or_insert((t0 + toi, point, normal));
            }
        }
    }
    let (t, point, normal) = met.expect("they meet");
    assert!((t - 0.75).abs() < 1e-12, "{t}");
    // Both fell ½·g·t² = 281.25: the contact on the box's left face at the ball's height.
    assert!(
        (point - Vec2::new(497.5, 381.25)).length() < 1e-9,
        "{point}"
    );
    assert_eq!(normal, Vec2::new(-1.0, 0.0));
}

/// A box dropped from rest onto a platform (a kinematic rectangle) rising at 60 units/s: the
/// gap 400 − 60·t − ½·g·t² closes at the positive root of the quadratic.
#[test]
fn a_box_falls_onto_a_rising_kinematic_rect() {
    let mut w = World::new(
        Vec2::new(400.0, 1000.0),
        Walls::ALL,
        config(1.0, 1.0 / 60.0),
    )
    .unwrap();
    let platform = w
        .add_rect(RectDesc {
            aabb: Aabb::new(Vec2::new(100.0, 900.0), Vec2::new(300.0, 920.0)),
            vel: Vec2::new(0.0, -60.0),
            kind: RectKind::Kinematic,
            density: 1.0,
            surface: Surface::DEFAULT,
        })
        .unwrap();
    let boxed = w
        .add_rect(dynamic(
            Vec2::new(190.0, 480.0),
            Vec2::splat(20.0),
            Vec2::ZERO,
        ))
        .unwrap();
    let (a, b, c) = (0.5 * G, 60.0, -400.0);
    let t: f64 = (-b + (b * b - 4.0 * a * c).sqrt()) / (2.0 * a);
    let mut got = None;
    for _ in 0..60 {
        let t0 = w.time();
        for e in w.step() {
            if let Event::Contact(Contact {
                body: Body::Rect(a),
                other: Target::Rect(b),
                normal,
                toi,
                ..
            }) = *e
            {
                got.get_or_insert((a, b, t0 + toi, normal));
            }
        }
    }
    let (ea, eb, hit, normal) = got.expect("the box lands on the platform");
    assert_eq!((ea, eb), (boxed, platform));
    assert!((hit - t).abs() < 1e-12, "{hit} vs {t}");
    assert_eq!(normal, Vec2::new(0.0, -1.0));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Boxes thrown down at up to 10⁵ units/s from high above a floor one cell thick never
    /// pass it (no tunneling), whatever the step size and restitution.
    #[test]
    fn falling_boxes_never_pass_a_one_cell_floor(
        speed in 0.0f64..1e5,
        x in 10.0f64..970.0,
        y in 10.0f64..5000.0,
        vx in -1e3f64..1e3,
        size in prop::array::uniform2(0.5f64..16.0),
        e in 0.0f64..=1.0,
        dt_pow in 4u32..9,
    ) {
        let dt = 1.0 / f64::from(1u32 << dt_pow);
        let mut w = World::new(
            Vec2::new(1000.0, 20_000.0),
            Walls { bottom: false, ..Walls::ALL },
            config(e, dt),
        )
        .unwrap();
        // A floor of one row of 20-unit cells at y = 10 000 .. 10 020.
        w.set_grid(floor_grid(20.0, 50, 501, 500));
        let id = w
            .add_rect(dynamic(Vec2::new(x, y), Vec2::from(size), Vec2::new(vx, speed)))
            .unwrap();
        let mut landed = false;
        for _ in 0..(5.0 / dt) as usize {
            landed |= w.step().iter().any(|e| matches!(e, Event::Contact(Contact { body: Body::Rect(_), other: Target::Cell(_), .. })));
            let r = rect(&w, id);
            prop_assert!(r.aabb.max.y <= 10_000.0 + 1e-6, "through the floor: {}", r.aabb.max.y);
        }
        prop_assert!(landed);
    }
}

/// With gravity slanted (gx = 300), a box dropped with restitution 0 onto a short floor of
/// tiles rests on it at the first contact and slides along it under the tangential part,
/// `x(t) = x₁ + v₁·(t − t₁) + ½·gx·(t − t₁)²`, its bottom exactly on the floor, with no ghost
/// bounce at the seams; it falls off when its left side passes the floor's end, a quadratic
/// worked out here.
#[test]
fn a_resting_box_slides_under_slanted_gravity_and_falls_off_the_end() {
    let gx = 300.0;
    let dt = 1.0 / 64.0;
    let mut w = World::new(
        Vec2::new(400.0, 400.0),
        Walls::ALL,
        StepConfig {
            dt,
            restitution: 0.0,
            gravity: Vec2::new(gx, G),
            ..StepConfig::default()
        },
    )
    .unwrap();
    // Floor: cells 0..=9 of row 10, the segment x ∈ [0, 200] at y = 200.
    let mut rows = vec![" ".repeat(20); 20];
    rows[10] = format!("{}{}", "#".repeat(10), " ".repeat(10));
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    w.set_grid(Grid::from_rows(20.0, Vec2::ZERO, &refs).unwrap());
    // A 16×16 box, its bottom 20 above the floor, its left side at x = 10.
    let id = w
        .add_rect(dynamic(
            Vec2::new(10.0, 164.0),
            Vec2::splat(16.0),
            Vec2::ZERO,
        ))
        .unwrap();
    let t1: f64 = (2.0 * 20.0 / G).sqrt();
    let x1 = 10.0 + 0.5 * gx * t1 * t1;
    let v1 = gx * t1;
    // Left side at 200: x1 + v1·s + ½·gx·s² = 200 (s from the landing).
    let (a, b, c) = (0.5 * gx, v1, x1 - 200.0);
    let s: f64 = (-b + (b * b - 4.0 * a * c).sqrt()) / (2.0 * a);
    let t_off = t1 + s;
    let mut tile_events = 0;
    while w.time() + dt < t_off {
        let t0 = w.time();
        for e in w.step() {
            if let Event::Contact(Contact {
                body: Body::Rect(_),
                other: Target::Cell(_),
                normal,
                toi,
                ..
            }) = *e
            {
                tile_events += 1;
                assert!(
                    (t0 + toi - t1).abs() < 1e-9,
                    "a second contact at {}",
                    t0 + toi
                );
                assert_eq!(normal, Vec2::new(0.0, -1.0));
            }
        }
        let r = rect(&w, id);
        let t = w.time();
        if t > t1 {
            let want = x1 + v1 * (t - t1) + 0.5 * gx * (t - t1) * (t - t1);
            assert!(
                (r.aabb.min.x - want).abs() < 1e-9,
                "x {} vs {want}",
                r.aabb.min.x
            );
            assert!((r.aabb.max.y - 200.0).abs() < 1e-9, "y {}", r.aabb.max.y);
            assert!(r.vel.y.abs() < 1e-9, "vy {}", r.vel.y);
        }
    }
    assert_eq!(tile_events, 1);
    // Past the end it falls: after a few more steps it is below the floor's top.
    for _ in 0..8 {
        w.step();
    }
    let r = rect(&w, id);
    assert!(r.aabb.min.x > 200.0 && r.aabb.max.y > 201.0, "{:?}", r.aabb);
}

/// With restitution 1 the mechanical energy (kinetic + potential) of boxes and balls
/// bouncing in a closed box, off tiles, each other and the walls, is kept to rounding over
/// a few thousand steps.
#[test]
fn elastic_boxes_and_balls_keep_their_energy() {
    let mut w = World::new(
        Vec2::new(400.0, 400.0),
        Walls::ALL,
        config(1.0, 1.0 / 120.0),
    )
    .unwrap();
    // A few tiles to bounce off: row 12, every third cell.
    let mut rows = vec![" ".repeat(20); 20];
    rows[12] = "#  ".repeat(7)[..20].to_string();
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    w.set_grid(Grid::from_rows(20.0, Vec2::ZERO, &refs).unwrap());
    for k in 0..6 {
        let x = 20.0 + 60.0 * k as f64;
        w.add_rect(dynamic(
            Vec2::new(x, 40.0 + 7.0 * k as f64),
            Vec2::new(12.0 + k as f64, 10.0),
            Vec2::new(90.0 - 30.0 * k as f64, 20.0 * k as f64),
        ))
        .unwrap();
        w.add_ball(ball(
            Vec2::new(x + 30.0, 120.0 + 9.0 * k as f64),
            Vec2::new(-70.0 + 25.0 * k as f64, -50.0),
            4.0 + k as f64 * 0.5,
        ))
        .unwrap();
    }
    let e0 = w.energy();
    let mut worst: f64 = 0.0;
    let mut contacts = 0;
    for _ in 0..3000 {
        contacts += w.step().len();
        worst = worst.max(((w.energy() - e0) / e0).abs());
    }
    assert!(contacts > 100, "they bounce: {contacts} events");
    assert!(worst < 1e-12, "energy drift {worst}");
    assert!(!w
        .events()
        .iter()
        .any(|e| matches!(e, Event::IterationLimit { .. })));
}

/// Falling boxes and balls (restitution 0.6) give the same state hash after every step with
/// 1, 2 and 3 threads (3 160 movers: parallel prediction batches of 3 chunks; the balls lie
/// on or fall onto the floor of the right half, the boxes drop onto the left half), and
/// through a snapshot taken while the boxes rest on the floor.
#[test]
fn falling_boxes_same_hash_with_1_2_and_3_threads_and_through_a_snapshot() {
    let make = || {
        let cfg = StepConfig {
            ball_ball: false,
            ..config(0.6, 1.0 / 60.0)
        };
        let mut w = World::new(Vec2::new(1200.0, 600.0), Walls::ALL, cfg).unwrap();
        // Floor: row 28, its top at y = 560.
        w.set_grid(floor_grid(20.0, 60, 30, 28));
        for k in 0..40 {
            let x = 10.0 + 14.0 * k as f64;
            w.add_rect(dynamic(
                Vec2::new(x, 500.0 + 3.0 * (k % 7) as f64),
                Vec2::new(8.0 + (k % 5) as f64, 6.0 + (k % 3) as f64),
                Vec2::new(0.0, 10.0 * (k % 4) as f64 - 20.0),
            ))
            .unwrap();
        }
        for k in 0..3100 {
            let x = 610.0 + (k % 50) as f64 * 11.5;
            let r = 2.0 + (k % 3) as f64;
            w.add_ball(ball(Vec2::new(x, 560.0 - r), Vec2::ZERO, r))
                .unwrap();
        }
        for k in 0..20 {
            let x = 617.0 + 28.0 * k as f64;
            w.add_ball(ball(Vec2::new(x, 400.0), Vec2::new(30.0, 0.0), 3.0))
                .unwrap();
        }
        w
    };
    let run = |mut w: World, threads: usize, steps: usize| {
        w.set_threads(threads);
        (0..steps)
            .map(|_| {
                w.step();
                w.state_hash()
            })
            .collect::<Vec<u64>>()
    };
    let one = run(make(), 1, 120);
    for threads in [2, 3] {
        let many = run(make(), threads, 120);
        let first = one.iter().zip(&many).position(|(a, b)| a != b);
        assert_eq!(first, None, "{threads} threads differ after step {first:?}");
    }
    // A snapshot after 100 steps (boxes resting on the floor), restored into a fresh world.
    let mut a = make();
    for _ in 0..100 {
        a.step();
    }
    let snap = a.snapshot();
    let resting = a
        .rects()
        .iter()
        .filter(|r| r.vel.y == 0.0 && (r.aabb.max.y - 560.0).abs() < 1e-9)
        .count();
    assert!(resting > 20, "boxes rest on the floor: {resting}");
    let mut b = make();
    b.restore(&snap).unwrap();
    assert_eq!(b.state_hash(), a.state_hash());
    for _ in 0..20 {
        a.step();
        b.step();
        assert_eq!(a.state_hash(), b.state_hash());
    }
    assert_eq!(a.state_hash(), one[119]);
}

/// A box pressed by slanted gravity into a corner of the closed walls or of wall cells
/// (restitution 0 and 0.5; gravity toward each of the four corners) ends in the corner and
/// stays there: one face holds it and the other parts it at a `REST_TIME` flight's speed, so
/// it meets the faces at most about once per `REST_TIME` (never the event bound: it used to
/// meet them face after face at one instant until `IterationLimit`, at every step), and its
/// energy (kinetic plus potential) never rises above the start's (1e-9).
#[test]
fn a_box_pressed_into_a_corner_rests_there_without_reaching_the_event_bound() {
    let dt = 1.0 / 30.0;
    let size = Vec2::new(320.0, 240.0);
    for cells in [false, true] {
        for e in [0.0, 0.5] {
            for (gx, gy) in [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)] {
                let g = Vec2::new(472.0 * gx, 300.0 * gy);
                let cfg = StepConfig {
                    dt,
                    restitution: e,
                    gravity: g,
                    ..StepConfig::default()
                };
                let mut w = crate::build::world_with(size, Walls::ALL, cfg);
                // With cells: a ring of wall cells 20 wide inside the walls.
                let inner = if cells {
                    w.set_grid(crate::build::grid_where(16, 12, 20.0, |c, r| {
                        r == 0 || r == 11 || c == 0 || c == 15
                    }));
                    Aabb::new(Vec2::splat(20.0), size - 20.0)
                } else {
                    Aabb::new(Vec2::ZERO, size)
                };
                let id = w
                    .add_rect(dynamic(
                        Vec2::new(150.0, 100.0),
                        Vec2::splat(20.0),
                        Vec2::ZERO,
                    ))
                    .expect("a valid box");
                let energy = |w: &World| {
                    let r = rect(w, id);
                    0.5 * r.vel.length_squared() - g.dot(r.aabb.center())
                };
                let e0 = energy(&w);
                let mut late_events = 0;
                for k in 0..300 {
                    w.step();
                    assert!(
                        !w.events()
                            .iter()
                            .any(|e| matches!(e, Event::IterationLimit { .. })),
                        "cells {cells} e {e} g {g}: the event bound at step {k}"
                    );
                    assert!(
                        energy(&w) <= e0 + 1e-9 * e0.abs(),
                        "cells {cells} e {e} g {g}: energy {} above {e0} at step {k}",
                        energy(&w)
                    );
                    if k >= 200 {
                        late_events += w.events().len();
                    }
                }
                let b = rect(&w, id).aabb;
                let corner = Vec2::new(
                    if gx < 0.0 { inner.min.x } else { inner.max.x },
                    if gy < 0.0 { inner.min.y } else { inner.max.y },
                );
                let near = Vec2::new(
                    if gx < 0.0 { b.min.x } else { b.max.x },
                    if gy < 0.0 { b.min.y } else { b.max.y },
                );
                assert!(
                    (near - corner).length() < 1e-3,
                    "cells {cells} e {e} g {g}: box {b:?} not in the corner {corner}"
                );
                let per_step = dt / REST_TIME + 2.0;
                assert!(
                    (late_events as f64) <= 100.0 * per_step,
                    "cells {cells} e {e} g {g}: {late_events} events in 100 steps"
                );
            }
        }
    }
}
