//! Dynamic rectangles under gravity: exact parabolas between events, against values computed
//! by hand (textbook kinematics, quadratic roots worked out here).

use collide_world::{
    Aabb, BallDesc, Event, Filter, Grid, RectDesc, RectId, RectKind, StepConfig, Vec2, Walls,
    World, REST_TIME,
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
        restitution: None,
        filter: Filter::DEFAULT,
    }
}

fn ball(pos: Vec2, vel: Vec2, radius: f64) -> BallDesc {
    BallDesc {
        pos,
        vel,
        radius,
        density: 1.0,
        restitution: None,
        filter: Filter::DEFAULT,
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
        Event::RectTile { toi, .. }
        | Event::RectWall { toi, .. }
        | Event::RectRect { toi, .. }
        | Event::BallRect { toi, .. }
        | Event::BallWall { toi, .. }
        | Event::BallTile { toi, .. } => Some(toi),
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
        matches!(e, Event::RectWall { .. })
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
        matches!(e, Event::RectTile { .. })
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
