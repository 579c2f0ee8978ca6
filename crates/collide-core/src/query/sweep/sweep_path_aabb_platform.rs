//! A box on a curved path against a one-way platform box: [`sweep_path_aabb_platform`].

use super::sweep_path_aabb_aabb::box_spans;
use crate::math::{Real, Vec2, FRAC_1_SQRT_2};
use crate::motion::Path;
use crate::query::hit::{Feature, SweepHit};
use crate::shape::feature::{Corner, Face};
use crate::shape::Aabb;

/// Sweeps box `a` (moved by the displacement path `pa`) against a one-way platform `b` (moved
/// by `pb`), as [`crate::sweep_path::sweep_path_aabb_aabb`] does (the slab test on a parabola,
/// C. Ericson, *Real-Time Collision Detection*, 2005, §5.5.8, each axis' overlap cut at the
/// gaps' sign changes), but keeps only an entry **from above**: the earliest start of an
/// overlap of an `x` and a `y` interval at which `y` is entered last (or with `x`, at a
/// corner) from above `b`'s top face (`y` down: `a`'s bottom meets `b`'s top). Entries from
/// below or a side, and an overlap at the start, are passed through: the box goes on inside
/// the platform, and can land on its top only after it has left it and comes down again.
///
/// The normal is `(0, −1)` (a top corner: `(±1, −1)/√2`), from `b` toward `a`; the contact
/// point is the centre of the touching region at impact. Each root is isolated on
/// `[0, max(max_toi, SOLVE_HORIZON)]` and then compared with `max_toi`.
///
/// # Returns
/// The hit, or `None`. Never NaN for finite inputs.
///
/// ```
/// use collide_core::motion::Path;
/// use collide_core::sweep_path::sweep_path_aabb_platform;
/// use collide_core::{Aabb, Vec2};
/// // A 10×10 box thrown up at 100 from just under a platform 4 units thick (y 86..90), under
/// // g = 100 (y down): it passes through it and lands on its top when its bottom comes back
/// // down to y = 86: 100 − 100t + 50t² = 86, the later root 1 + √0.72 of t² − 2t + 0.28 = 0.
/// let a = Aabb::new(Vec2::new(0.0, 90.0), Vec2::new(10.0, 100.0));
/// let platform = Aabb::new(Vec2::new(-50.0, 86.0), Vec2::new(50.0, 90.0));
/// let throw = Path::ballistic(Vec2::ZERO, Vec2::new(0.0, -100.0), Vec2::new(0.0, 100.0));
/// let hit = sweep_path_aabb_platform(&a, &throw, &platform, &Path::default(), 10.0).unwrap();
/// assert!((hit.toi - (1.0 + 0.72f64.sqrt())).abs() < 1e-12);
/// assert_eq!(hit.normal, Vec2::new(0.0, -1.0));
/// ```
#[must_use]
pub fn sweep_path_aabb_platform(
    a: &Aabb,
    pa: &Path,
    b: &Aabb,
    pb: &Path,
    max_toi: Real,
) -> Option<SweepHit> {
    if !(max_toi >= 0.0) {
        return None;
    }
    let (xs, ys) = box_spans(a, b, &pa.relative_to(pb), max_toi);
    let mut best: Option<(Real, Real, Real)> = None;
    for x in &xs {
        for y in &ys {
            let s = x.start.max(y.start);
            let e = x.end.min(y.end);
            // An entry (not an overlap at the start) with `y` entered last, from above.
            if !(s < e) || s == Real::NEG_INFINITY || y.start < x.start || y.side >= 0.0 {
                continue;
            }
            if best.is_none_or(|b| s < b.0) {
                best = Some((s, if x.start == y.start { x.side } else { 0.0 }, y.side));
            }
        }
    }
    let (toi, sx, _) = best?;
    if !(toi <= max_toi) {
        return None;
    }
    let (normal, feature) = if sx == 0.0 {
        (Vec2::new(0.0, -1.0), Feature::Face(Face::Top))
    } else {
        let corner = if sx > 0.0 {
            Corner::TopRight
        } else {
            Corner::TopLeft
        };
        (Vec2::new(sx, -1.0) * FRAC_1_SQRT_2, Feature::Corner(corner))
    };
    let at = a.translated(pa.pos_at(toi));
    let bt = b.translated(pb.pos_at(toi));
    let lo = at.min.max(bt.min);
    let hi = at.max.min(bt.max);
    Some(SweepHit {
        toi,
        normal,
        point: (lo + hi) * 0.5,
        feature,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep_path::sweep_path_aabb_aabb;

    fn still() -> Path {
        Path::default()
    }

    #[test]
    fn from_above_it_is_the_ordinary_sweep() {
        // Random drops onto a platform from above: the same hit as the two-way sweep.
        let mut seed = 3u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 11) as Real / (1u64 << 53) as Real - 0.5
        };
        let platform = Aabb::new(Vec2::new(-20.0, 0.0), Vec2::new(20.0, 5.0));
        let mut hits = 0;
        for _ in 0..500 {
            let x = 60.0 * next();
            let y = -10.0 - 40.0 * (next() + 0.5);
            let a = Aabb::new(Vec2::new(x, y), Vec2::new(x + 6.0, y + 4.0));
            let p = Path::ballistic(
                Vec2::ZERO,
                Vec2::new(40.0 * next(), 60.0 * next()),
                Vec2::new(0.0, 50.0),
            );
            let two_way = sweep_path_aabb_aabb(&a, &p, &platform, &still(), 5.0);
            let one_way = sweep_path_aabb_platform(&a, &p, &platform, &still(), 5.0);
            match two_way {
                Some(h) if h.normal.y < 0.0 => {
                    assert_eq!(one_way, Some(h));
                    hits += 1;
                }
                // Met on a side first: passed through; any later landing is from above.
                _ => assert!(one_way.is_none_or(|h| h.normal.y < 0.0)),
            }
        }
        assert!(hits > 100, "only {hits} landings");
    }

    #[test]
    fn from_below_and_the_sides_it_passes_and_lands_after() {
        // Moving right at 10 into the platform's left side: no hit at all.
        let a = Aabb::new(Vec2::new(-40.0, 1.0), Vec2::new(-30.0, 4.0));
        let right = Path::linear(Vec2::ZERO, Vec2::new(10.0, 0.0));
        let platform = Aabb::new(Vec2::new(-20.0, 0.0), Vec2::new(20.0, 5.0));
        assert_eq!(
            sweep_path_aabb_platform(&a, &right, &platform, &still(), 100.0),
            None
        );
        // Overlapping at the start and rising out: lands when it comes back down.
        let inside = Aabb::new(Vec2::new(0.0, 2.0), Vec2::new(4.0, 6.0));
        let up = Path::ballistic(Vec2::ZERO, Vec2::new(0.0, -20.0), Vec2::new(0.0, 10.0));
        let h =
            sweep_path_aabb_platform(&inside, &up, &platform, &still(), 100.0).expect("it lands");
        // Bottom 6 − 20t + 5t² = 0: the later root 2 + √(2.8).
        assert!((h.toi - (2.0 + 2.8f64.sqrt())).abs() < 1e-12, "{h:?}");
        assert_eq!(h.normal, Vec2::new(0.0, -1.0));
    }
}
