//! Checks and statistics of `collide run`: embedded balls, overlapping ball pairs, medians.

use collide_core::{distance_point_aabb, Real, Vec2};
use collide_world::{Ball, RectKind, World};

/// Tolerance of the embedding and overlap checks, world units.
pub const TOLERANCE: Real = 1e-6;

/// Balls whose centre is closer than `radius − 1e-6` to the nearest solid cell
/// ([`collide_world::Grid::distance_to_solid`]) or to a static rectangle.
pub fn embedded(world: &World) -> usize {
    let statics: Vec<_> = world
        .rects()
        .iter()
        .filter(|r| r.kind == RectKind::Static)
        .collect();
    world
        .balls()
        .iter()
        .filter(|b| {
            let limit = b.radius - TOLERANCE;
            if limit <= 0.0 {
                return false;
            }
            let in_cell = world
                .grid()
                .and_then(|g| g.distance_to_solid(b.pos, b.radius))
                .is_some_and(|d| d < limit);
            in_cell
                || statics
                    .iter()
                    .any(|r| distance_point_aabb(b.pos, &r.aabb) < limit)
        })
        .count()
}

/// Whether two balls overlap by more than the tolerance.
fn overlap(a: &Ball, b: &Ball) -> bool {
    let s = a.radius + b.radius - TOLERANCE;
    s > 0.0 && (a.pos - b.pos).length_squared() < s * s
}

/// The number of ball pairs whose centres are closer than `r1 + r2 − 1e-6`.
///
/// A uniform grid over the balls' bounding boxes (cell side about twice the median radius, at
/// most `4n + 64` cells): every ball is listed in the cells its box covers, and a pair is
/// tested only in the cell holding the top-left corner of the intersection of the two boxes,
/// so each pair is counted once. Linear in the number of balls when they are spread out.
pub fn overlapping_pairs(balls: &[Ball]) -> u64 {
    let n = balls.len();
    if n < 2 {
        return 0;
    }
    if n <= 32 {
        let mut count = 0;
        for i in 0..n {
            for j in i + 1..n {
                count += u64::from(overlap(&balls[i], &balls[j]));
            }
        }
        return count;
    }
    let mut lo = Vec2::splat(Real::INFINITY);
    let mut hi = Vec2::splat(Real::NEG_INFINITY);
    for b in balls {
        lo = lo.min(b.pos - b.radius);
        hi = hi.max(b.pos + b.radius);
    }
    let ext = hi - lo;
    let mut radii: Vec<Real> = balls.iter().map(|b| b.radius).collect();
    let mid = n / 2;
    let (_, median, _) = radii.select_nth_unstable_by(mid, Real::total_cmp);
    let mut cell = (2.0 * *median)
        .max((ext.x * ext.y / n as Real).sqrt())
        .max(ext.max_element() / n as Real);
    if !(cell.is_finite() && cell > 0.0) {
        cell = 1.0;
    }
    let max_cells = 4 * n + 64;
    let (cols, rows) = loop {
        // Finite and >= 0 here; the float-to-int cast saturates for absurd values.
        let cols = (ext.x / cell).floor() as usize + 1;
        let rows = (ext.y / cell).floor() as usize + 1;
        if cols.saturating_mul(rows) <= max_cells {
            break (cols, rows);
        }
        cell *= 1.5;
    };
    let index = |v: Real, origin: Real, count: usize| -> usize {
        let q = ((v - origin) / cell).floor();
        if q.is_nan() || q <= 0.0 {
            0
        } else {
            (q as usize).min(count - 1)
        }
    };
    let range = |b: &Ball| {
        (
            index(b.pos.x - b.radius, lo.x, cols),
            index(b.pos.x + b.radius, lo.x, cols),
            index(b.pos.y - b.radius, lo.y, rows),
            index(b.pos.y + b.radius, lo.y, rows),
        )
    };
    // Compressed lists: start[k]..start[k + 1] in `items` are the balls of cell k.
    let mut start = vec![0usize; cols * rows + 1];
    for b in balls {
        let (c0, c1, r0, r1) = range(b);
        for r in r0..=r1 {
            for c in c0..=c1 {
                start[r * cols + c + 1] += 1;
            }
        }
    }
    for k in 0..cols * rows {
        start[k + 1] += start[k];
    }
    let mut fill = start.clone();
    let mut items = vec![0u32; start[cols * rows]];
    for (i, b) in balls.iter().enumerate() {
        let (c0, c1, r0, r1) = range(b);
        for r in r0..=r1 {
            for c in c0..=c1 {
                let k = r * cols + c;
                items[fill[k]] = i as u32;
                fill[k] += 1;
            }
        }
    }
    let mut count = 0u64;
    for k in 0..cols * rows {
        let list = &items[start[k]..start[k + 1]];
        for (x, &i) in list.iter().enumerate() {
            let a = &balls[i as usize];
            for &j in &list[x + 1..] {
                let b = &balls[j as usize];
                if !overlap(a, b) {
                    continue;
                }
                let cx = (a.pos.x - a.radius).max(b.pos.x - b.radius);
                let cy = (a.pos.y - a.radius).max(b.pos.y - b.radius);
                if index(cy, lo.y, rows) * cols + index(cx, lo.x, cols) == k {
                    count += 1;
                }
            }
        }
    }
    count
}

/// The median of `values` (the mean of the two middle ones for an even count; 0 when empty).
/// Reorders `values`.
pub fn median(values: &mut [f64]) -> f64 {
    let n = values.len();
    if n == 0 {
        return 0.0;
    }
    values.sort_unstable_by(f64::total_cmp);
    if n % 2 == 1 {
        values[n / 2]
    } else {
        0.5 * (values[n / 2 - 1] + values[n / 2])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide_world::{BallDesc, StepConfig, Walls};

    fn world_with(balls: &[(f64, f64, f64)]) -> World {
        let mut w =
            World::new(Vec2::new(1000.0, 1000.0), Walls::ALL, StepConfig::default()).unwrap();
        for &(x, y, r) in balls {
            w.add_ball(BallDesc {
                pos: Vec2::new(x, y),
                radius: r,
                ..Default::default()
            })
            .unwrap();
        }
        w
    }

    fn brute(balls: &[Ball]) -> u64 {
        let mut c = 0;
        for i in 0..balls.len() {
            for j in i + 1..balls.len() {
                c += u64::from(overlap(&balls[i], &balls[j]));
            }
        }
        c
    }

    #[test]
    fn pairs_match_brute_force() {
        // A pseudo-random cloud with mixed radii, dense enough to have many overlaps.
        let mut s = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 53) as f64
        };
        for n in [33, 200, 2000] {
            let balls: Vec<(f64, f64, f64)> = (0..n)
                .map(|i| {
                    let r = if i % 50 == 0 {
                        40.0 * next()
                    } else {
                        1.0 + 4.0 * next()
                    };
                    (1000.0 * next(), 600.0 * next(), r)
                })
                .collect();
            let w = world_with(&balls);
            let fast = overlapping_pairs(&w.balls().collect::<Vec<_>>());
            assert_eq!(fast, brute(&w.balls().collect::<Vec<_>>()), "n = {n}");
            assert!(n < 200 || fast > 0, "n = {n}: no overlap to test");
        }
    }

    #[test]
    fn touching_is_not_overlapping() {
        let mut balls: Vec<(f64, f64, f64)> = (0..40)
            .map(|i| (10.0 + 6.0 * i as f64, 10.0, 3.0))
            .collect();
        let w = world_with(&balls);
        assert_eq!(overlapping_pairs(&w.balls().collect::<Vec<_>>()), 0);
        balls.push((13.0, 10.0, 3.0)); // overlaps two neighbours
        let w = world_with(&balls);
        assert_eq!(overlapping_pairs(&w.balls().collect::<Vec<_>>()), 2);
        // All on one point, zero radius: nothing overlaps.
        let w = world_with(&vec![(5.0, 5.0, 0.0); 50]);
        assert_eq!(overlapping_pairs(&w.balls().collect::<Vec<_>>()), 0);
        // All on one point with radius 1: every pair.
        let w = world_with(&vec![(5.0, 5.0, 1.0); 50]);
        assert_eq!(
            overlapping_pairs(&w.balls().collect::<Vec<_>>()),
            50 * 49 / 2
        );
    }

    #[test]
    fn medians() {
        assert_eq!(median(&mut []), 0.0);
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
    }
}
