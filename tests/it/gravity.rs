//! Gravity in the step: exact parabolas between events, against values computed by hand
//! (textbook kinematics) or independently (a fine scan of the distance function).

use crate::build::ball;
use collide_tests::REST_TIME;
use collide_world::Body;
use collide_world::Contact;
use collide_world::Target;
use collide_world::{Event, Grid, StepConfig, Surface, Vec2, Walls, World};
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

/// Absolute times of the ball–wall bounces over `steps` steps.
fn wall_bounces(w: &mut World, steps: usize) -> Vec<f64> {
    let mut out = Vec::new();
    for _ in 0..steps {
        let t0 = w.time();
        for e in w.step() {
            if let Event::Contact(Contact {
                body: Body::Ball(_),
                other: Target::Wall(_),
                toi,
                ..
            }) = *e
            {
                out.push(t0 + toi);
            }
        }
    }
    out
}

/// A ball dropped from rest h above the floor (e = 1) lands at √(2h/g)·(1, 3, 5, …) and is
/// back at its starting height, at rest, at √(2h/g)·(2, 4, …).
#[test]
fn an_elastic_ball_bounces_at_odd_multiples_of_the_fall_time() {
    let (h, r, floor) = (200.0, 5.0, 400.0);
    let dt = 1.0 / 64.0;
    let mut w = World::new(Vec2::new(100.0, floor), Walls::ALL, config(1.0, dt)).unwrap();
    let y0 = floor - r - h;
    let id = w
        .add_ball(ball(Vec2::new(50.0, y0), Vec2::ZERO, r))
        .unwrap();
    let t1 = (2.0 * h / G).sqrt();
    let hits = wall_bounces(&mut w, (10.0 * t1 / dt) as usize);
    assert_eq!(hits.len(), 5, "{hits:?}");
    for (k, t) in hits.iter().enumerate() {
        let want = t1 * (2 * k + 1) as f64;
        assert!((t - want).abs() < 1e-9, "bounce {k}: {t} vs {want}");
    }
    // At the apexes it is back at y0: sample by stepping to a whole step near 2·t1 and
    // evaluating the parabola from there (the world's own position at that step).
    let mut w = World::new(Vec2::new(100.0, floor), Walls::ALL, config(1.0, t1 / 8.0)).unwrap();
    let id2 = w
        .add_ball(ball(Vec2::new(50.0, y0), Vec2::ZERO, r))
        .unwrap();
    for k in 1..=4 {
        for _ in 0..16 {
            w.step();
        }
        let b = w.ball(id2).unwrap();
        assert!((w.time() - 2.0 * t1 * k as f64).abs() < 1e-12);
        assert!((b.pos.y - y0).abs() < 1e-9, "apex {k}: y = {}", b.pos.y);
        assert!(b.vel.length() < 1e-9, "apex {k}: v = {}", b.vel);
    }
    let _ = id;
}

/// With e < 1 the flights shrink geometrically: bounce k at t1·(1 + 2·(e + … + e^k)); once a
/// flight would be shorter than `REST_TIME` the ball rests on the floor (before the series'
/// limit t1·(1 + e)/(1 − e)), without penetrating, with |v| below 1e-9.
#[test]
fn an_inelastic_ball_follows_the_geometric_series_and_rests() {
    let (h, r, floor, e) = (200.0, 5.0, 400.0, 0.5);
    let dt = 1.0 / 64.0;
    let mut w = World::new(Vec2::new(100.0, floor), Walls::ALL, config(e, dt)).unwrap();
    let id = w
        .add_ball(ball(Vec2::new(50.0, floor - r - h), Vec2::ZERO, r))
        .unwrap();
    let t1 = (2.0 * h / G).sqrt();
    let limit = t1 * (1.0 + e) / (1.0 - e);
    let hits = wall_bounces(&mut w, (limit / dt) as usize + 8);
    // Bounces until the flight after it is under REST_TIME: flight k = 2·t1·e^k.
    let mut want = vec![t1];
    let mut flight = 2.0 * t1 * e;
    while flight >= REST_TIME {
        want.push(want.last().unwrap() + flight);
        flight *= e;
    }
    assert_eq!(hits.len(), want.len(), "{hits:?}");
    for (k, (t, w_)) in hits.iter().zip(&want).enumerate() {
        assert!((t - w_).abs() < 1e-9, "bounce {k}: {t} vs {w_}");
    }
    assert!(*hits.last().unwrap() < limit);
    for _ in 0..100 {
        w.step();
        let b = w.ball(id).unwrap();
        assert!(b.pos.y <= floor - r, "penetrates: {}", b.pos.y);
        assert!((b.pos.y - (floor - r)).abs() < 1e-9);
        assert!(b.vel.length() < 1e-9, "v = {}", b.vel);
    }
    assert!(w.events().is_empty());
}

/// A ball thrown at a lone tile meets its top-left corner at the earliest root of the quartic
/// |p(τ) − c|² = r², found here independently by a fine scan and bisection of the distance.
#[test]
fn a_thrown_ball_hits_a_tile_corner_at_the_quartic_root() {
    let cell = 20.0;
    let mut w = World::new(Vec2::new(400.0, 400.0), Walls::ALL, config(1.0, 1.0 / 60.0)).unwrap();
    // One tile with its top-left corner at (200, 200).
    let mut rows = vec![String::from("                    "); 20];
    rows[10] = String::from("          #         ");
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    w.set_grid(Grid::from_rows(cell, Vec2::ZERO, &refs).unwrap());
    // Aimed so that at τ = 0.5 s the centre is at c + 4·(−0.6, −0.8), moving (200, 350):
    // p0 = (197.6, 196.8) − v0·0.5 − ½·g·0.25.
    let (p0, v0, r) = (Vec2::new(97.6, 146.8), Vec2::new(200.0, -150.0), 4.0);
    w.add_ball(ball(p0, v0, r)).unwrap();
    let c = Vec2::new(200.0, 200.0);
    let g = Vec2::new(0.0, G);
    let f = |t: f64| (p0 + v0 * t + g * (0.5 * t * t) - c).length() - r;
    // Scan for the first sign change, then bisect.
    let mut lo = 0.0;
    let n = 2_000_000;
    let mut hi = 0.0;
    for k in 1..=n {
        let t = k as f64 * 1e-6;
        if f(t) <= 0.0 {
            hi = t;
            break;
        }
        lo = t;
    }
    assert!(hi > 0.0, "the path must reach the corner");
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if f(mid) <= 0.0 {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    let mut got = None;
    for _ in 0..120 {
        let t0 = w.time();
        for e in w.step() {
            if let Event::Contact(Contact {
                body: Body::Ball(_),
                other: Target::Cell(_),
                normal,
                toi,
                feature: Some(feature),
                ..
            }) = *e
            {
                got.get_or_insert((t0 + toi, normal, feature));
            }
        }
    }
    let (t, normal, feature) = got.expect("the ball hits the tile");
    assert!((t - hi).abs() < 1e-9, "{t} vs {hi}");
    assert_eq!(
        feature,
        collide_world::Feature::Corner(collide_world::Corner::TopLeft)
    );
    let p = p0 + v0 * t + g * (0.5 * t * t);
    assert!((normal - (p - c) / r).length() < 1e-6);
}

/// Two balls falling side by side under the same gravity meet when their linear relative
/// motion says: gap d closing at the speed difference.
#[test]
fn two_falling_balls_collide_when_relative_motion_says() {
    let mut w = World::new(
        Vec2::new(1000.0, 4000.0),
        Walls::ALL,
        config(1.0, 1.0 / 60.0),
    )
    .unwrap();
    // Centres 100 apart in x, closing at 50 + 30 = 80 units/s, radii 10: touch after
    // (100 − 20)/80 = 1 s (centres at x = 500 and 520, the contact point at 510), while
    // gravity adds the same ½·g·1² = 500 to both heights.
    w.add_ball(ball(Vec2::new(450.0, 100.0), Vec2::new(50.0, 0.0), 10.0))
        .unwrap();
    w.add_ball(ball(
        Vec2::new(550.0, 300.0),
        Vec2::new(-30.0, -200.0),
        10.0,
    ))
    .unwrap();
    // Vertical offset: y_a − y_b = (100 − 300) + (0 + 200)·t = 0 at t = 1 too: they meet
    // side by side at t = 1, both at y = 600.
    let mut met = None;
    for _ in 0..90 {
        let t0 = w.time();
        for e in w.step() {
            if let Event::Contact(Contact {
                body: Body::Ball(_),
                other: Target::Ball(_),
                point,
                toi,
                ..
            }) = *e
            {
                met.get_or_insert((t0 + toi, point));
            }
        }
    }
    let (t, point) = met.expect("they meet");
    assert!((t - 1.0).abs() < 1e-12, "{t}");
    assert!((point - Vec2::new(510.0, 600.0)).length() < 1e-9, "{point}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Balls thrown down at up to 10⁵ units/s from high above a floor one cell thick never
    /// pass it (no tunneling), whatever the step size.
    #[test]
    fn falling_balls_never_pass_a_one_cell_floor(
        speed in 0.0f64..1e5,
        x in 10.0f64..990.0,
        y in 10.0f64..5000.0,
        vx in -1e3f64..1e3,
        r in 0.5f64..8.0,
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
        let mut rows = vec![" ".repeat(50); 501];
        rows[500] = "#".repeat(50);
        let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
        w.set_grid(Grid::from_rows(20.0, Vec2::ZERO, &refs).unwrap());
        let id = w.add_ball(ball(Vec2::new(x, y), Vec2::new(vx, speed), r)).unwrap();
        // From rest at y = 10 the floor is reached within √(2·10⁴/g) < 4.5 s.
        let mut landed = false;
        for _ in 0..(5.0 / dt) as usize {
            landed |= w.step().iter().any(|e| matches!(e, Event::Contact(Contact { body: Body::Ball(_), other: Target::Cell(_), .. })));
            let b = w.ball(id).unwrap();
            prop_assert!(b.pos.y <= 10_000.0 - r + 1e-6, "through the floor: {}", b.pos.y);
        }
        prop_assert!(landed);
    }
}

/// The balls' states of `scene` after `seconds` at step `dt`.
fn run_for(name: &str, balls: Option<usize>, dt: f64, seconds: f64) -> Vec<collide_world::Ball> {
    let mut scene = collide_scenes::load(name).unwrap().unwrap();
    scene.step.dt = dt;
    if let (Some(n), Some(sp)) = (balls, scene.spawn.as_mut()) {
        sp.count = n;
    }
    let mut w = World::from_scene(&scene).unwrap();
    for _ in 0..(seconds / dt).round() as usize {
        w.step();
    }
    w.balls().collect()
}

/// dt invariance under gravity: the plinko and bounce scenes run at dt = 1/64 and 1/256 end
/// in the same states, bit for bit (times of impact come from the balls' anchors, not the
/// steps).
#[test]
fn gravity_scenes_do_not_depend_on_the_step_size() {
    for (name, balls, seconds) in [("plinko", Some(100), 2.0), ("bounce", None, 4.0)] {
        let a = run_for(name, balls, 1.0 / 64.0, seconds);
        let b = run_for(name, balls, 1.0 / 256.0, seconds);
        assert_eq!(a.len(), b.len());
        let worst = a
            .iter()
            .zip(&b)
            .map(|(x, y)| {
                (x.pos - y.pos)
                    .length()
                    .max((x.vel - y.vel).length() * 1e-3)
            })
            .fold(0.0, f64::max);
        // The same bits: every curved time of impact is solved in a bracket that does not
        // depend on the search window (`collide_core::sweep_path::SOLVE_HORIZON`).
        assert_eq!(worst, 0.0, "{name}: states differ by {worst}");
    }
}

/// With restitution 1 the mechanical energy (kinetic + potential) of the plinko board is
/// kept to rounding, with no overlapping pair. The bound holds because elastic responses
/// under gravity do not lean in energy (`collide_on`, `reflect_relative_on`): with the plain
/// projection in double precision the same run drifts 1.45e-13 (2.5e-14 with them).
#[test]
fn elastic_plinko_keeps_its_energy() {
    let mut scene = collide_scenes::load("plinko").unwrap().unwrap();
    scene.spawn.as_mut().unwrap().count = 1000;
    let mut w = World::from_scene(&scene).unwrap();
    let e0 = w.energy();
    let mut worst: f64 = 0.0;
    for _ in 0..1200 {
        w.step();
        worst = worst.max(((w.energy() - e0) / e0).abs());
    }
    assert!(worst < 7e-14, "energy drift {worst}");
    let balls: Vec<_> = w.balls().collect();
    for (i, a) in balls.iter().enumerate() {
        for b in &balls[i + 1..] {
            assert!((a.pos - b.pos).length() >= a.radius + b.radius - 1e-6);
        }
    }
}

/// A ball on a platform (a kinematic rectangle) rising at 60 units/s under gravity, restitution
/// 0.5: it is carried up with the platform and never sinks into it; its contacts stay few (each
/// at least `REST_TIME` apart) and no event bound is reached.
#[test]
fn a_rising_platform_carries_a_ball() {
    let mut w = World::new(
        Vec2::new(400.0, 1000.0),
        Walls::ALL,
        config(0.5, 1.0 / 60.0),
    )
    .unwrap();
    let top = 900.0;
    let rect = w
        .add_rect(collide_world::RectDesc {
            aabb: collide_world::Aabb::new(Vec2::new(100.0, top), Vec2::new(300.0, top + 20.0)),
            vel: Vec2::new(0.0, -60.0),
            kind: collide_world::RectKind::Kinematic,
            density: 1.0,
            surface: Surface::DEFAULT,
        })
        .unwrap();
    let id = w
        .add_ball(ball(Vec2::new(200.0, top - 5.0 - 30.0), Vec2::ZERO, 5.0))
        .unwrap();
    let mut contacts = 0;
    for _ in 0..240 {
        for e in w.step() {
            assert!(!matches!(e, Event::IterationLimit { .. }), "{e:?}");
            contacts += usize::from(matches!(
                e,
                Event::Contact(Contact {
                    body: Body::Ball(_),
                    other: Target::Rect(_),
                    ..
                })
            ));
        }
        let b = w.ball(id).unwrap();
        let r = w.rect(rect).unwrap().aabb;
        assert!(
            b.pos.y <= r.min.y - 5.0 + 1e-9,
            "sinks: {} vs top {}",
            b.pos.y,
            r.min.y
        );
    }
    // Four seconds: carried up 240 units, resting within a hair of the top.
    let b = w.ball(id).unwrap();
    let r = w.rect(rect).unwrap().aabb;
    assert!((r.min.y - (top - 240.0)).abs() < 1e-9);
    assert!(
        r.min.y - 5.0 - b.pos.y < 0.01,
        "{} above",
        r.min.y - 5.0 - b.pos.y
    );
    assert!(contacts < 240 * 20, "{contacts} contacts");
}
