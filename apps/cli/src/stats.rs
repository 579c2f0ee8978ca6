//! Checks and statistics of `collide run`: embedded balls, overlapping ball pairs, medians.

use collide_core::{distance_point_aabb, distance_point_segment, Aabb, Real, Vec2};
use collide_world::{Ball, BallId, RectId, RectKind, ShapeKind, World};

/// Tolerance of the embedding and overlap checks, world units.
pub const TOLERANCE: Real = 1e-6;

/// Balls whose centre is closer than `radius − 1e-6` to the nearest solid cell, static
/// rectangle, static segment or circle, or flipper (where it is now) that the ball collides
/// with (its layers and mask, [`collide_world::Filter`]); sensors are not solid, nor one-way
/// platforms ([`collide_world::Surface::one_way`]: balls enter them from below and the sides
/// by design).
pub fn embedded(world: &World) -> usize {
    embedded_except(world, |_, _| false)
}

/// [`embedded`] with the static rectangles left out decided per ball: a rectangle `r` does not
/// count for ball `b` when `skip(b, r)` (a ball that a contact hook lets pass through one
/// rectangle, `collide_world::ContactResponse::Ignore`, is inside it by design until they part,
/// and still must not be inside any other).
pub fn embedded_except(world: &World, skip: impl Fn(BallId, RectId) -> bool) -> usize {
    let statics: Vec<_> = world
        .rects()
        .iter()
        .filter(|r| r.kind == RectKind::Static && !r.surface.sensor && !r.surface.one_way)
        .collect();
    world
        .balls()
        .iter()
        .filter(|b| {
            let limit = b.radius - TOLERANCE;
            if limit <= 0.0 {
                return false;
            }
            let mut in_cell = false;
            if let Some(g) = world.grid() {
                let reach = Aabb::new(b.pos - b.radius, b.pos + b.radius);
                g.for_each_solid_in(&reach, |c, cell| {
                    in_cell |= g.filter_of(cell).is_some_and(|f| b.filter.collides(f))
                        && g.cell_shape(c)
                            .is_some_and(|s| s.distance_point(b.pos) < limit);
                });
            }
            in_cell
                || statics.iter().any(|r| {
                    !skip(b.id, r.id)
                        && b.filter.collides(r.surface.filter)
                        && distance_point_aabb(b.pos, &r.aabb) < limit
                })
                || world.shapes().iter().any(|s| {
                    !s.surface.sensor
                        && !s.surface.one_way
                        && b.filter.collides(s.surface.filter)
                        && shape_distance(&s.kind, b.pos).is_some_and(|d| d < limit)
                })
                || world.flippers().iter().any(|f| {
                    let cap = f.capsule_at(world.time());
                    b.filter.collides(f.desc.surface.filter)
                        && distance_point_segment(b.pos, &cap.segment) - cap.radius < limit
                })
        })
        .count()
}

/// The distance from `p` to a static shape (0 inside a circle), `None` for a kind without
/// a distance here.
fn shape_distance(kind: &ShapeKind, p: Vec2) -> Option<Real> {
    if let Some(c) = kind.disc() {
        return Some(((p - c.center).length() - c.radius).max(0.0));
    }
    kind.segment().map(|s| distance_point_segment(p, &s))
}

/// Whether two balls that collide (their layers and masks) overlap by more than the
/// tolerance.
fn overlap(a: &Ball, b: &Ball) -> bool {
    let s = a.radius + b.radius - TOLERANCE;
    s > 0.0 && a.filter.collides(b.filter) && (a.pos - b.pos).length_squared() < s * s
}

/// The number of ball pairs that collide (their layers and masks, [`collide_world::Filter`])
/// whose centres are closer than `r1 + r2 − 1e-6`.
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

/// Sub-buckets per power of two of [`StepTimes`]: 2⁹ = 512.
const SUB_BITS: u32 = 9;
const SUB: usize = 1 << SUB_BITS;
/// Buckets: values below 512 ns one each, then 512 per power of two up to 2⁶⁴ ns.
const BUCKETS: usize = (64 - SUB_BITS as usize + 1) * SUB;

/// Step times summarised in constant memory, whatever the number of steps: count, sum,
/// minimum, maximum, and a log-bucket histogram (the layout of HdrHistogram, Tene 2012) for
/// the median.
///
/// Times are recorded in whole nanoseconds. Below 512 ns every nanosecond has its bucket;
/// above, each power of two `[2ᵉ, 2ᵉ⁺¹)` is cut into 512 equal buckets, so a bucket is at most
/// 1/512 of its lower bound wide. A quantile is reported as the middle of its bucket (clamped
/// to the minimum and maximum seen): within **0.1 %** (1/1024) of the recorded time of that
/// rank, or 0.5 ns. The histogram is 28 672 counters (224 KiB), allocated once.
#[derive(Clone, Debug)]
pub struct StepTimes {
    counts: Vec<u64>,
    count: u64,
    sum_ns: u128,
    min_ns: u64,
    max_ns: u64,
}

impl Default for StepTimes {
    fn default() -> Self {
        StepTimes {
            counts: vec![0; BUCKETS],
            count: 0,
            sum_ns: 0,
            min_ns: u64::MAX,
            max_ns: 0,
        }
    }
}

/// Relative precision of [`StepTimes::quantile_ms`]: 1/1024.
#[cfg(test)]
const STEP_TIME_PRECISION: f64 = 1.0 / 1024.0;

impl StepTimes {
    /// The bucket of `ns`.
    fn bucket(ns: u64) -> usize {
        if ns < SUB as u64 {
            return ns as usize;
        }
        let e = 63 - ns.leading_zeros(); // >= SUB_BITS
        let shift = e - SUB_BITS;
        let mantissa = (ns >> shift) as usize; // in [SUB, 2 SUB)
        (shift as usize + 1) * SUB + (mantissa - SUB)
    }

    /// The smallest value of bucket `i` and the bucket's width, nanoseconds.
    fn bucket_range(i: usize) -> (u64, u64) {
        if i < SUB {
            return (i as u64, 1);
        }
        let shift = (i / SUB - 1) as u32;
        let mantissa = (i % SUB + SUB) as u64;
        (mantissa << shift, 1 << shift)
    }

    /// Records one time.
    pub fn record(&mut self, t: std::time::Duration) {
        let ns = u64::try_from(t.as_nanos()).unwrap_or(u64::MAX);
        self.counts[Self::bucket(ns)] += 1;
        self.count += 1;
        self.sum_ns += u128::from(ns);
        self.min_ns = self.min_ns.min(ns);
        self.max_ns = self.max_ns.max(ns);
    }

    /// The time of rank `⌈q·n⌉` (at least the first) among the `n` recorded, in milliseconds,
    /// within 1/1024 (0.1 %); 0 when nothing was recorded.
    #[must_use]
    pub fn quantile_ms(&self, q: f64) -> f64 {
        if self.count == 0 {
            return 0.0;
        }
        let rank = ((q.clamp(0.0, 1.0) * self.count as f64).ceil() as u64).clamp(1, self.count);
        let mut seen = 0u64;
        for (i, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= rank {
                let (lo, width) = Self::bucket_range(i);
                let mid = lo as f64 + (width - 1) as f64 / 2.0;
                return mid.clamp(self.min_ns as f64, self.max_ns as f64) / 1e6;
            }
        }
        self.max_ns as f64 / 1e6
    }

    /// The median: the time of rank `⌈n/2⌉`, milliseconds (see [`StepTimes::quantile_ms`]).
    #[must_use]
    pub fn median_ms(&self) -> f64 {
        self.quantile_ms(0.5)
    }

    /// The mean, milliseconds (exact to the nanosecond; 0 when nothing was recorded).
    #[must_use]
    pub fn mean_ms(&self) -> f64 {
        if self.count == 0 {
            return 0.0;
        }
        self.sum_ns as f64 / self.count as f64 / 1e6
    }

    /// The fastest, milliseconds (0 when nothing was recorded).
    #[must_use]
    pub fn min_ms(&self) -> f64 {
        if self.count == 0 {
            return 0.0;
        }
        self.min_ns as f64 / 1e6
    }

    /// The total, seconds.
    #[must_use]
    pub fn total_s(&self) -> f64 {
        self.sum_ns as f64 / 1e9
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
    fn balls_inside_shapes_and_flippers_are_embedded() {
        // Radius 5 balls: (100, 100) 2 from a segment, (300, 300) inside a circle, (500, 500)
        // 3 from a flipper's core of radius 4 (1 inside it), (700, 700) touching a segment
        // (distance 5: not embedded), (900, 100) inside a sensor circle (not solid).
        let mut w = world_with(&[
            (100.0, 100.0, 5.0),
            (300.0, 300.0, 5.0),
            (500.0, 500.0, 5.0),
            (700.0, 700.0, 5.0),
            (900.0, 100.0, 5.0),
        ]);
        w.add_shape(collide_world::ShapeDesc::segment(
            Vec2::new(50.0, 102.0),
            Vec2::new(150.0, 102.0),
        ))
        .unwrap();
        w.add_shape(collide_world::ShapeDesc::circle(
            Vec2::new(300.0, 300.0),
            20.0,
        ))
        .unwrap();
        w.add_flipper(collide_world::FlipperDesc::new(
            Vec2::new(450.0, 503.0),
            100.0,
            4.0,
            0.0,
            -0.5,
            10.0,
        ))
        .unwrap();
        w.add_shape(collide_world::ShapeDesc::segment(
            Vec2::new(650.0, 705.0),
            Vec2::new(750.0, 705.0),
        ))
        .unwrap();
        w.add_shape(collide_world::ShapeDesc::sensor_circle(
            Vec2::new(900.0, 100.0),
            20.0,
        ))
        .unwrap();
        assert_eq!(embedded(&w), 3);
        // A platform 1 above the ball at (700, 700): it embeds the ball, unless it is a
        // one-way platform.
        let platform = w
            .add_rect(collide_world::RectDesc {
                aabb: collide_world::Aabb::new(Vec2::new(695.0, 695.0), Vec2::new(705.0, 699.0)),
                ..collide_world::RectDesc::default()
            })
            .unwrap();
        assert_eq!(embedded(&w), 4);
        // Left out for the ball inside it only (one a hook lets pass through), or for another.
        let ids: Vec<_> = w.balls().iter().map(|b| b.id).collect();
        assert_eq!(embedded_except(&w, |b, r| (b, r) == (ids[3], platform)), 3);
        assert_eq!(embedded_except(&w, |b, r| (b, r) == (ids[0], platform)), 4);
        w.set_one_way(collide_world::Target::Rect(platform), true)
            .unwrap();
        assert_eq!(embedded(&w), 3);
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
    fn buckets_cover_every_value_once_and_in_order() {
        use std::time::Duration;
        // Every bucket's range maps back to it, and ranges tile [0, 2^64).
        let mut next = 0u64;
        for i in 0..BUCKETS {
            let (lo, width) = StepTimes::bucket_range(i);
            assert_eq!(lo, next, "bucket {i}");
            assert_eq!(StepTimes::bucket(lo), i);
            assert_eq!(StepTimes::bucket(lo + (width - 1)), i);
            assert!(width == 1 || (width as f64) / (lo as f64) <= 1.0 / SUB as f64);
            next = lo.wrapping_add(width);
        }
        assert_eq!(next, 0, "the last bucket ends at 2^64");
        let mut t = StepTimes::default();
        assert_eq!(t.median_ms(), 0.0);
        t.record(Duration::from_secs(u64::MAX));
        assert_eq!(t.median_ms(), u64::MAX as f64 / 1e6, "saturates at 2^64 ns");
    }

    #[test]
    fn median_is_within_the_documented_precision() {
        use std::time::Duration;
        // Times from 1 ns to 10 s, spread log-uniformly, in scrambled order.
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for n in [1usize, 2, 3, 10, 1001, 100_000] {
            let mut t = StepTimes::default();
            let mut all = Vec::with_capacity(n);
            for _ in 0..n {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                let ns = 10f64.powf((s >> 11) as f64 / (1u64 << 53) as f64 * 10.0) as u64;
                t.record(Duration::from_nanos(ns));
                all.push(ns);
            }
            all.sort_unstable();
            let exact = all[n.div_ceil(2) - 1] as f64 / 1e6;
            let got = t.median_ms();
            let err = (got - exact).abs();
            assert!(
                err <= exact * STEP_TIME_PRECISION + 0.5e-6,
                "n = {n}: median {got} ms, exact {exact} ms"
            );
            let mean = all.iter().map(|&v| v as f64).sum::<f64>() / n as f64 / 1e6;
            assert!((t.mean_ms() - mean).abs() <= 1e-9 * mean);
            assert_eq!(t.min_ms(), all[0] as f64 / 1e6);
        }
        // One value, or all equal: exact.
        let mut t = StepTimes::default();
        for _ in 0..5 {
            t.record(Duration::from_nanos(123_456_789));
        }
        assert_eq!(t.median_ms(), 123.456789);
    }
}
