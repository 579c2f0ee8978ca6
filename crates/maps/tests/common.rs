//! Helpers of the map tests: the shared sample maps and the gravity checks.
#![allow(dead_code)]

use std::path::PathBuf;

use collide_maps::MapLevel;
use collide_world::{Aabb, Cell, Real, SpawnDesc, Surface, Vec2, World};

/// The folder of the shared sample maps: `../shared/maps` beside the repository (CI has a
/// read-only copy there). Panics with a clear message when it is missing: the map tests never
/// skip silently.
pub fn shared_maps() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = root.join("../shared/maps");
    assert!(
        dir.is_dir(),
        "the shared sample maps are missing: expected the folder {} (../shared/maps beside the \
         repository clone, holding ldtk/Typical_2D_platformer_example.ldtk and \
         tiled/sticker-knight/sandbox.tmx)",
        dir.display()
    );
    dir
}

/// The LDtk sample.
pub fn ldtk_sample() -> PathBuf {
    shared_maps().join("ldtk/Typical_2D_platformer_example.ldtk")
}

/// Sticker Knight's sandbox map.
pub fn sticker_knight() -> PathBuf {
    shared_maps().join("tiled/sticker-knight/sandbox.tmx")
}

/// Whether the segment `a`–`b` meets the open box `bx` (slab test).
pub fn segment_meets_box(a: Vec2, b: Vec2, bx: &Aabb) -> bool {
    let d = b - a;
    let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
    for (p, dp, lo, hi) in [
        (a.x, d.x, bx.min.x, bx.max.x),
        (a.y, d.y, bx.min.y, bx.max.y),
    ] {
        if dp == 0.0 {
            if p <= lo || p >= hi {
                return false;
            }
        } else {
            let (mut u0, mut u1) = ((lo - p) / dp, (hi - p) / dp);
            if u0 > u1 {
                std::mem::swap(&mut u0, &mut u1);
            }
            t0 = t0.max(u0);
            t1 = t1.min(u1);
            if t0 >= t1 {
                return false;
            }
        }
    }
    true
}

/// What the drop test counts over a run.
#[derive(Debug, Default, PartialEq)]
pub struct DropCounts {
    /// Ball-steps with a ball closer than its radius − 1e-6 to a solid cell or a solid
    /// rectangle (one-way platforms excepted: a ball may pass through them).
    pub embedded: usize,
    /// Ball pairs closer than the sum of their radii − 1e-6, summed over the steps.
    pub overlaps: usize,
    /// Ball-steps whose centre moved through the inside of a solid cell or rectangle (the box
    /// shrunk by 1 unit: the chord of a legal path keeps about a radius away), or left the
    /// level rectangle.
    pub tunnelled: usize,
    /// Steps whose mechanical energy (kinetic + potential) exceeded the initial energy.
    pub above_start: usize,
    /// The largest rise of the mechanical energy from one step to the next, in units of one
    /// settle impulse `½·μ·w²` (μ = m/2 of two equal balls, w = |g|·REST_TIME/2): the engine's
    /// documented allowance for pressed contacts (docs/algorithms.md, "Pressed contacts that
    /// no face holds").
    pub largest_rise: f64,
    /// Balls at the end.
    pub balls: usize,
}

/// Drops `count` balls of `radius` (speed 0, placed clear of everything by the world's spawn
/// in `region`) on `level` under its gravity for `steps` steps (its one-way platforms one-way), and
/// counts the failures of every step.
pub fn drop_balls(
    level: &MapLevel,
    count: usize,
    radius: Real,
    region: Aabb,
    steps: usize,
) -> DropCounts {
    let mut scene = level.scene.clone();
    scene.spawn = Some(SpawnDesc {
        count,
        radius,
        speed: 0.0,
        density: 1.0,
        seed: 7,
        region: Some(region),
        surface: Surface::DEFAULT,
    });
    let mut world = World::from_scene(&scene).expect("the level's scene builds a world");
    assert_eq!(world.balls().len(), count, "the spawn placed every ball");
    let solid_rects: Vec<Aabb> = world
        .rects()
        .iter()
        .enumerate()
        .filter(|(i, _)| !level.one_way.contains(i))
        .map(|(_, r)| r.aabb)
        .collect();
    let mut c = DropCounts::default();
    let e0 = world.energy();
    let scale = e0.abs().max(1.0);
    let mut prev_e = e0;
    let mass = std::f64::consts::PI * radius * radius;
    // The world's rest time, 1 ms (docs/algorithms.md, "Gravity in the step"): the separating
    // speed of a pressed contact that no face holds is half of |g|·REST_TIME.
    const REST_TIME: f64 = 1e-3;
    let w = level.scene.step.gravity.length() * REST_TIME / 2.0;
    let impulse = 0.5 * (mass / 2.0) * w * w;
    let mut prev: Vec<Vec2> = world.balls().iter().map(|b| b.pos).collect();
    for _ in 0..steps {
        world.step();
        let e = world.energy();
        // Rounding of the sums: 1e-12 of the potential energy's magnitude.
        if e > e0 + 1e-12 * scale {
            c.above_start += 1;
        }
        c.largest_rise = c.largest_rise.max((e - prev_e - 1e-12 * scale) / impulse);
        prev_e = e;
        let balls: Vec<_> = world.balls().iter().collect();
        assert_eq!(balls.len(), count, "no ball is lost in a closed level");
        let grid = world.grid();
        for (k, b) in balls.iter().enumerate() {
            let r = b.radius;
            let reach = Aabb::new(b.pos - r, b.pos + r);
            let mut inside = false;
            let mut crossed = false;
            if let Some(g) = grid {
                g.for_each_solid_in(&reach, |cc, cell| {
                    if matches!(cell, Cell::Wall | Cell::Brick(_)) {
                        let a = g.cell_aabb(cc);
                        inside |=
                            collide_world::collide_core::distance_point_aabb(b.pos, &a) < r - 1e-6;
                    }
                });
                let path = Aabb::new(prev[k].min(b.pos), prev[k].max(b.pos));
                g.for_each_solid_in(&path, |cc, cell| {
                    if matches!(cell, Cell::Wall | Cell::Brick(_)) {
                        let a = g.cell_aabb(cc);
                        let core = Aabb::new(a.min + 1.0, a.max - 1.0);
                        crossed |= segment_meets_box(prev[k], b.pos, &core);
                    }
                });
            }
            for a in &solid_rects {
                inside |= collide_world::collide_core::distance_point_aabb(b.pos, a) < r - 1e-6;
                let core = Aabb::new(a.min + 1.0, a.max - 1.0);
                crossed |= segment_meets_box(prev[k], b.pos, &core);
            }
            let size = world.size();
            crossed |= b.pos.x < 0.0 || b.pos.y < 0.0 || b.pos.x > size.x || b.pos.y > size.y;
            c.embedded += usize::from(inside);
            c.tunnelled += usize::from(crossed);
        }
        // Ball–ball overlaps: sort by x and sweep.
        let mut order: Vec<usize> = (0..balls.len()).collect();
        order.sort_by(|&i, &j| balls[i].pos.x.total_cmp(&balls[j].pos.x));
        for (n, &i) in order.iter().enumerate() {
            for &j in &order[n + 1..] {
                let (a, b) = (&balls[i], &balls[j]);
                if b.pos.x - a.pos.x > a.radius + b.radius {
                    break;
                }
                if a.pos.distance(b.pos) < a.radius + b.radius - 1e-6 {
                    c.overlaps += 1;
                }
            }
        }
        prev = balls.iter().map(|b| b.pos).collect();
    }
    c.balls = world.balls().len();
    c
}
