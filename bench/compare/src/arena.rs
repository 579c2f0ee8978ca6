//! The benchmark scene and the engine-neutral checks applied to both engines' end states.

use collide_core::Vec2;
use collide_scenes::arena_scene_tiled;
use collide_world::{Grid, Scene};

/// The automatic tiling: one arena per `collide_scenes::ARENA_BALLS_PER_TILE` balls,
/// the same rule as `collide bench --tiles auto`.
pub use collide_scenes::arena_auto_tiles as auto_tiles;

/// Tolerance of the overlap and embedding checks, world units (as `collide run`).
pub const TOLERANCE: f64 = 1e-6;

/// `arena_scene(balls, speed, seed)` (ball-ball on) with its grid repeated `across × down`
/// times; `(1, 1)` is the arena itself. Identical to `collide bench`'s scene.
#[must_use]
pub fn scene(balls: usize, speed: f64, seed: u64, (across, down): (usize, usize)) -> Scene {
    let mut scene = arena_scene_tiled(balls, speed, seed, across, down);
    scene.step.ball_ball = true;
    scene
}

/// A ball as both engines see it: centre, velocity, radius, mass.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BallState {
    /// Centre, world units.
    pub pos: Vec2,
    /// Velocity, units/s.
    pub vel: Vec2,
    /// Radius, world units.
    pub radius: f64,
    /// Mass.
    pub mass: f64,
}

/// `Σ ½ m |v|² − m g·p`: kinetic plus potential energy in the gravity `g` (y down, `p` the
/// centre measured from the world's origin), as collide's `World::energy`; the kinetic energy
/// alone when `g` is zero. Translation only: with no friction no torque acts, so neither
/// engine spins a ball.
#[must_use]
pub fn energy(balls: &[BallState], g: Vec2) -> f64 {
    balls
        .iter()
        .map(|b| 0.5 * b.mass * b.vel.length_squared() - b.mass * g.dot(b.pos))
        .sum()
}

/// The smallest potential energy the balls can have in the world box `[0, size]`: every ball
/// at the box's lowest corner along `g` (`Σ −m · max g·p`; 0 without gravity). `energy - floor`
/// is the mechanical energy above that level, the scale of a relative energy change.
#[must_use]
pub fn energy_floor(balls: &[BallState], g: Vec2, size: Vec2) -> f64 {
    let low = g.x.max(0.0) * size.x + g.y.max(0.0) * size.y;
    balls.iter().map(|b| -b.mass * low).sum()
}

/// Ball pairs whose centres are closer than `r1 + r2 - 1e-6` (sort and sweep along x).
#[must_use]
pub fn overlapping_pairs(balls: &[BallState]) -> u64 {
    let mut order: Vec<usize> = (0..balls.len()).collect();
    order.sort_by(|&a, &b| balls[a].pos.x.total_cmp(&balls[b].pos.x));
    let r_max = balls.iter().map(|b| b.radius).fold(0.0, f64::max);
    let mut count = 0;
    for (k, &i) in order.iter().enumerate() {
        let a = &balls[i];
        for &j in &order[k + 1..] {
            let b = &balls[j];
            if b.pos.x - a.pos.x >= a.radius + r_max {
                break;
            }
            let s = a.radius + b.radius - TOLERANCE;
            if s > 0.0 && (a.pos - b.pos).length_squared() < s * s {
                count += 1;
            }
        }
    }
    count
}

/// Balls whose centre ends inside a solid cell or outside the world box `[0, size]`: they went
/// through a wall or a tile. A centre exactly on a boundary does not count.
#[must_use]
pub fn tunneled(grid: Option<&Grid>, size: Vec2, balls: &[BallState]) -> u64 {
    balls
        .iter()
        .filter(|b| {
            let p = b.pos;
            let outside = !(p.x >= 0.0 && p.y >= 0.0 && p.x <= size.x && p.y <= size.y);
            outside || grid.is_some_and(|g| g.cell_at(p).is_some_and(|c| g.cell(c).is_solid()))
        })
        .count() as u64
}

/// Balls closer than `radius - 1e-6` to a solid cell (the `embedded` check of `collide run`).
#[must_use]
pub fn embedded(grid: Option<&Grid>, balls: &[BallState]) -> u64 {
    let Some(g) = grid else { return 0 };
    balls
        .iter()
        .filter(|b| {
            let limit = b.radius - TOLERANCE;
            limit > 0.0
                && g.distance_to_solid(b.pos, b.radius)
                    .is_some_and(|d| d < limit)
        })
        .count() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide_scenes::arena_scene;
    use collide_world::Cell;

    #[test]
    fn one_tile_is_the_arena() {
        assert_eq!(scene(1000, 60.0, 1, (1, 1)), arena_scene(1000, 60.0, 1));
        let s = scene(10, 60.0, 1, (5, 2));
        let g = s.grid.unwrap();
        assert_eq!((g.cols, g.rows), (200, 80));
        assert_eq!(g.cells.iter().filter(|&&c| c == Cell::Wall).count(), 2260);
        assert_eq!(auto_tiles(100_000), (5, 2));
        assert_eq!(auto_tiles(10_000), (1, 1));
    }

    fn ball(x: f64, y: f64, r: f64) -> BallState {
        BallState {
            pos: Vec2::new(x, y),
            vel: Vec2::ZERO,
            radius: r,
            mass: 1.0,
        }
    }

    #[test]
    fn overlaps_match_brute_force() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 53) as f64
        };
        let balls: Vec<_> = (0..2000)
            .map(|_| ball(300.0 * next(), 300.0 * next(), 1.0 + 3.0 * next()))
            .collect();
        let mut brute = 0;
        for i in 0..balls.len() {
            for j in i + 1..balls.len() {
                let s = balls[i].radius + balls[j].radius - TOLERANCE;
                brute += u64::from((balls[i].pos - balls[j].pos).length_squared() < s * s);
            }
        }
        assert!(brute > 0);
        assert_eq!(overlapping_pairs(&balls), brute);
        // Touching is not overlapping.
        assert_eq!(
            overlapping_pairs(&[ball(0.0, 0.0, 2.0), ball(4.0, 0.0, 2.0)]),
            0
        );
    }

    #[test]
    fn tunneled_and_embedded() {
        let s = arena_scene(0, 60.0, 1);
        let g = Grid::new(s.grid.as_ref().unwrap()).unwrap();
        let wall = (0..40 * 40).find(|&k| g.cells()[k] == Cell::Wall).unwrap();
        let centre = Vec2::new(
            (wall % 40) as f64 * 25.0 + 12.5,
            (wall / 40) as f64 * 25.0 + 12.5,
        );
        let inside = ball(centre.x, centre.y, 2.0);
        let out = ball(-1.0, 500.0, 2.0);
        let free = ball(2.0, 2.0, 2.0);
        let size = Vec2::splat(1000.0);
        assert_eq!(tunneled(Some(&g), size, &[inside, out, free]), 2);
        assert_eq!(embedded(Some(&g), &[inside, free]), 1);
    }
}
