//! A box on a curved path against a one-way segment: [`sweep_path_aabb_segment_platform`].

use super::sweep_aabb_segment::{contact_point, entry_feature, segment_axes};
use super::sweep_path_aabb_aabb::Span;
use super::sweep_path_aabb_segment::segment_spans;
use crate::math::Real;
use crate::motion::Path;
use crate::query::hit::SegmentHit;
use crate::shape::{Aabb, Segment};

/// Sweeps box `a` (moved by the displacement path `pa`) against a one-way platform
/// `segment`, as [`crate::sweep_path::sweep_path_aabb_segment`] does (the separating axes x,
/// y and the segment's normal, each cut into intervals of overlap at the roots of quadratics
/// of the time; C. Ericson, *Real-Time Collision Detection*, 2005, §5.2.1 and §5.5.8), but
/// keeps only an entry **from above**: the earliest start of an overlap of one interval per
/// axis whose normal, from the axis entered last, points up (`normal.y < 0`, y down). Entries
/// from below or the side, and an overlap at the start, are passed through: the box goes on
/// through the segment and can land on it only once it has left it and comes down again.
/// The normal, feature and contact point follow `sweep_path_aabb_segment`'s conventions.
///
/// # Returns
/// The hit, or `None`. Never NaN for finite inputs.
///
/// ```
/// use collide_core::motion::Path;
/// use collide_core::sweep_path::sweep_path_aabb_segment_platform;
/// use collide_core::{Aabb, Segment, Vec2};
/// // A 10 × 10 box thrown up at 100 from under a platform segment at y = 90 (its top at
/// // y = 95), under g = 100: it passes the segment and lands on it when its bottom (y = 105
/// // at the start) comes back down to y = 90: 105 − 100t + 50t² = 90.
/// let a = Aabb::new(Vec2::new(0.0, 95.0), Vec2::new(10.0, 105.0));
/// let s = Segment::new(Vec2::new(-50.0, 90.0), Vec2::new(50.0, 90.0));
/// let throw = Path::ballistic(Vec2::ZERO, Vec2::new(0.0, -100.0), Vec2::new(0.0, 100.0));
/// let hit = sweep_path_aabb_segment_platform(&a, &throw, &s, 10.0).unwrap();
/// assert!((hit.toi - (1.0 + 0.7f64.sqrt())).abs() < 1e-12);
/// assert_eq!(hit.normal, Vec2::new(0.0, -1.0));
/// ```
#[must_use]
pub fn sweep_path_aabb_segment_platform(
    a: &Aabb,
    pa: &Path,
    segment: &Segment,
    max_toi: Real,
) -> Option<SegmentHit> {
    if !(max_toi >= 0.0 && max_toi.is_finite()) {
        return None;
    }
    let sa = segment_axes(segment);
    let spans = segment_spans(a, pa, segment, &sa, max_toi);
    let mut best: Option<(Real, [Span; 3])> = None;
    for x in &spans[0] {
        for y in &spans[1] {
            for n in &spans[2] {
                let s = x.start.max(y.start).max(n.start);
                let e = x.end.min(y.end).min(n.end);
                if !(s < e) || s == Real::NEG_INFINITY || best.is_some_and(|b| b.0 <= s) {
                    continue;
                }
                let (normal, _) = entry_feature(
                    segment,
                    &sa,
                    [x.start, y.start, n.start],
                    [x.side, y.side, n.side],
                );
                if normal.y < 0.0 {
                    best = Some((s, [*x, *y, *n]));
                }
            }
        }
    }
    let (toi, s) = best?;
    if !(toi <= max_toi) {
        return None;
    }
    let (normal, feature) = entry_feature(
        segment,
        &sa,
        [s[0].start, s[1].start, s[2].start],
        [s[0].side, s[1].side, s[2].side],
    );
    let at = a.translated(pa.pos_at(toi));
    Some(SegmentHit {
        toi,
        normal,
        point: contact_point(&at, segment, &sa, feature, normal),
        feature,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec2;
    use crate::sweep_path::sweep_path_aabb_segment;

    #[test]
    fn from_above_it_is_the_two_way_sweep_and_from_below_it_passes() {
        let mut seed = 9u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 11) as Real / (1u64 << 53) as Real - 0.5
        };
        let mut landings = 0;
        for _ in 0..500 {
            // A segment slanted up to about 30°, and a box dropped from above it.
            let s = Segment::new(
                Vec2::new(-40.0, 20.0 * next()),
                Vec2::new(40.0, 20.0 * next()),
            );
            let x = 60.0 * next();
            let y = -30.0 - 30.0 * (next() + 0.5);
            let a = Aabb::new(Vec2::new(x, y), Vec2::new(x + 6.0, y + 4.0));
            let p = Path::ballistic(
                Vec2::ZERO,
                Vec2::new(30.0 * next(), 40.0 * next()),
                Vec2::new(0.0, 50.0),
            );
            let two_way = sweep_path_aabb_segment(&a, &p, &s, 5.0);
            let one_way = sweep_path_aabb_segment_platform(&a, &p, &s, 5.0);
            match two_way {
                Some(h) if h.normal.y < 0.0 => {
                    assert_eq!(one_way, Some(h));
                    landings += 1;
                }
                _ => assert!(one_way.is_none_or(|h| h.normal.y < 0.0)),
            }
            // The same box thrown up from below the segment never meets it on the way up.
            let below = a.translated(Vec2::new(0.0, 80.0));
            let up = Path::linear(Vec2::ZERO, Vec2::new(0.0, -100.0));
            assert_eq!(sweep_path_aabb_segment_platform(&below, &up, &s, 5.0), None);
        }
        assert!(landings > 100, "only {landings} landings");
    }
}
