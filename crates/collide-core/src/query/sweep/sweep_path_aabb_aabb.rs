//! Two boxes on curved paths swept against each other: [`sweep_path_aabb_aabb`].
//!
//! The slab test of [`crate::sweep_aabb_aabb`] (C. Ericson, *Real-Time Collision Detection*,
//! 2005, §5.5.8) with the relative displacement `x(τ) = d + v·τ + ½·a·τ²` of a parabola: on
//! each axis the two gaps between the boxes' sides, `b.min − a.max − x(τ)` and
//! `a.min + x(τ) − b.max`, are quadratics, and the boxes' projections overlap where both are
//! negative. A straight path crosses each slab once; a parabola can cross a slab, leave it and
//! come back, so each axis overlaps on up to two intervals, cut at the gaps' sign changes
//! (isolated with certainty and refined to adjacent doubles by
//! [`crate::roots::sign_changes`]: stable quadratic roots, never sampled). The boxes first
//! overlap with positive area at the earliest start of an intersection of an `x` interval
//! and a `y` interval; the axis of impact is the one entered last. Axis-aligned boxes meet
//! face to face, per axis: there is no corner quartic.

use super::sweep_aabb_aabb::overlapping_start;
use crate::math::{Real, Vec2, FRAC_1_SQRT_2};
use crate::motion::Path;
use crate::query::hit::{Feature, SweepHit};
use crate::roots::{eval, sign_changes, Poly4};
use crate::shape::feature::{Corner, Face};
use crate::shape::Aabb;
use crate::sweep_path::SOLVE_HORIZON;

/// An interval of times where one axis' projections overlap: its start (`NEG_INFINITY` when
/// they already overlap at `τ = 0`), its end, and the side entered at the start (`-1`: `a`
/// came from below `b.min`, `+1`: from above `b.max`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Span {
    pub(crate) start: Real,
    pub(crate) end: Real,
    pub(crate) side: Real,
}

/// The earliest start of an intersection of one span per axis (`−∞`: overlapping at the
/// start), and the earliest such start that is not an overlap at the start, with its spans:
/// where a box on a curved path first overlaps a convex shape on three separating axes
/// (the slab test, each axis cut into up to three spans by [`axis_spans`]).
pub(crate) fn first_common_start(
    spans: &[Vec<Span>; 3],
) -> (Option<Real>, Option<(Real, [Span; 3])>) {
    let mut first: Option<Real> = None;
    let mut entry: Option<(Real, [Span; 3])> = None;
    for x in &spans[0] {
        for y in &spans[1] {
            for n in &spans[2] {
                let s = x.start.max(y.start).max(n.start);
                let e = x.end.min(y.end).min(n.end);
                if !(s < e) {
                    continue;
                }
                if first.is_none_or(|f| s < f) {
                    first = Some(s);
                }
                if s > Real::NEG_INFINITY && entry.is_none_or(|b| s < b.0) {
                    entry = Some((s, [*x, *y, *n]));
                }
            }
        }
    }
    (first, entry)
}

/// The intervals of `[0, hi]` on which the projections of `[a0, a1] + x(τ)` and `[b0, b1]`
/// overlap with positive length, `x(τ) = d + v·τ + ½·acc·τ²`. At most three (two gaps, each
/// with at most two sign changes).
pub(crate) fn axis_spans(
    a: (Real, Real),
    b: (Real, Real),
    d: Real,
    v: Real,
    acc: Real,
    hi: Real,
) -> Vec<Span> {
    let below: Poly4 = [b.0 - a.1 - d, -v, -0.5 * acc, 0.0, 0.0];
    let above: Poly4 = [a.0 + d - b.1, v, 0.5 * acc, 0.0, 0.0];
    let mut cuts = vec![0.0];
    cuts.extend(sign_changes(&below, 0.0, hi));
    cuts.extend(sign_changes(&above, 0.0, hi));
    cuts.push(hi);
    crate::math::sort_times(&mut cuts);
    cuts.dedup();
    let inside = |t: Real| eval(&below, t) < 0.0 && eval(&above, t) < 0.0;
    let mut out: Vec<Span> = Vec::new();
    // Already overlapping at the start: the span starts before it.
    let mut open: Option<Span> = inside(0.0).then_some(Span {
        start: Real::NEG_INFINITY,
        end: 0.0,
        side: 0.0,
    });
    // The side `a` was on over the last piece outside.
    let mut side = if eval(&below, 0.0) >= 0.0 { -1.0 } else { 1.0 };
    for w in cuts.windows(2) {
        let (s, e) = (w[0], w[1]);
        let mid = 0.5 * (s + e);
        if inside(mid) {
            match &mut open {
                Some(span) => span.end = e,
                None => {
                    open = Some(Span {
                        start: s,
                        end: e,
                        side,
                    })
                }
            }
        } else {
            side = if eval(&below, mid) >= 0.0 { -1.0 } else { 1.0 };
            if let Some(span) = open.take() {
                out.push(span);
            }
        }
    }
    out.extend(open);
    out
}

/// The intervals of time on which boxes `a` and `b` overlap on x and on y ([`axis_spans`]),
/// `a` moving by `rel` relative to `b`, roots isolated on `[0, max(max_toi, SOLVE_HORIZON)]`.
pub(crate) fn box_spans(a: &Aabb, b: &Aabb, rel: &Path, max_toi: Real) -> (Vec<Span>, Vec<Span>) {
    let hi = if max_toi > SOLVE_HORIZON {
        max_toi
    } else {
        SOLVE_HORIZON
    };
    let spans = |k: usize| {
        axis_spans(
            (a.min[k], a.max[k]),
            (b.min[k], b.max[k]),
            rel.p0[k],
            rel.v0[k],
            rel.accel[k],
            hi,
        )
    };
    (spans(0), spans(1))
}

/// Sweeps two boxes on curved paths: box `a` at time `τ` is `a` translated by
/// `pa.pos_at(τ)`, box `b` is `b` translated by `pb.pos_at(τ)` (the paths are displacements
/// from the given boxes: `p0` is usually zero). The earliest `τ` in `[0, max_toi]` at which
/// they start to overlap with positive area, with the conventions of
/// [`crate::sweep_aabb_aabb`]: the axis of impact is the one entered last (both at once: a
/// [`Feature::Corner`] of `b` and the unit diagonal as normal), boxes that only touch or
/// slide along each other never hit, and boxes already overlapping (by rounding) hit at 0
/// only when they approach along the axis of least penetration. Contact at the start is
/// second order, as for circles (`crate::sweep_path`): touching with no relative speed but a
/// relative acceleration into each other (a box resting on a floor under gravity) is a hit
/// at 0. The normal points from `b` toward `a`; the contact point is the centre of the
/// touching region at impact.
///
/// Each root is isolated on `[0, max(max_toi, SOLVE_HORIZON)]` and then compared with
/// `max_toi`, so its bits do not depend on how far the caller looks. Without relative
/// acceleration [`crate::sweep_aabb_aabb`] gives the same times by a division.
///
/// # Returns
/// The hit, or `None` (apart throughout `[0, max_toi]`, or separating at the start). Never NaN
/// for finite inputs.
///
/// ```
/// use collide_core::motion::Path;
/// use collide_core::sweep_path::sweep_path_aabb_aabb;
/// use collide_core::{Aabb, Vec2};
/// // A 10×10 box dropped from rest 80 units above a floor box under g = 100 (y down):
/// // ½·100·t² = 80, t = 1.2649 s.
/// let a = Aabb::new(Vec2::new(0.0, 0.0), Vec2::new(10.0, 10.0));
/// let floor = Aabb::new(Vec2::new(-50.0, 90.0), Vec2::new(50.0, 100.0));
/// let fall = Path::ballistic(Vec2::ZERO, Vec2::ZERO, Vec2::new(0.0, 100.0));
/// let hit = sweep_path_aabb_aabb(&a, &fall, &floor, &Path::default(), 10.0).unwrap();
/// assert!((hit.toi - 1.6f64.sqrt()).abs() < 1e-15);
/// assert_eq!(hit.normal, Vec2::new(0.0, -1.0));
/// ```
#[must_use]
pub fn sweep_path_aabb_aabb(
    a: &Aabb,
    pa: &Path,
    b: &Aabb,
    pb: &Path,
    max_toi: Real,
) -> Option<SweepHit> {
    if !(max_toi >= 0.0) {
        return None;
    }
    let rel = pa.relative_to(pb);
    let (xs, ys) = box_spans(a, b, &rel, max_toi);
    // The earliest start of an intersection of an x span and a y span, and the earliest
    // one that is not an overlap at the start.
    let mut first: Option<(Real, Span, Span)> = None;
    let mut entry: Option<(Real, Span, Span)> = None;
    for x in &xs {
        for y in &ys {
            let s = x.start.max(y.start);
            let e = x.end.min(y.end);
            if !(s < e) {
                continue;
            }
            if first.is_none_or(|b| s < b.0) {
                first = Some((s, *x, *y));
            }
            if s > Real::NEG_INFINITY && entry.is_none_or(|b| s < b.0) {
                entry = Some((s, *x, *y));
            }
        }
    }
    if first.is_some_and(|f| f.0 == Real::NEG_INFINITY) {
        // Overlapping at the start (by rounding): the contact rule on the axis of least
        // penetration, with the relative acceleration deciding an axis without relative
        // speed or whose motion turns back inside the overlap (`start_rate`). Separating, it
        // can still come back (a parabola does): the next entry.
        let at = a.translated(pa.p0);
        let bt = b.translated(pb.p0);
        if let Some(h) = overlapping_start(&at, &bt, rel.v0, rel.accel) {
            return Some(h);
        }
    }
    let (s, x, y) = entry?;
    let toi = s;
    if !(toi <= max_toi) {
        return None;
    }
    let (sx, sy) = (x.side, y.side);
    let (normal, feature) = if x.start == y.start {
        let corner = match (sx > 0.0, sy > 0.0) {
            (false, false) => Corner::TopLeft,
            (true, false) => Corner::TopRight,
            (false, true) => Corner::BottomLeft,
            (true, true) => Corner::BottomRight,
        };
        (Vec2::new(sx, sy) * FRAC_1_SQRT_2, Feature::Corner(corner))
    } else if x.start > y.start {
        let face = if sx < 0.0 { Face::Left } else { Face::Right };
        (Vec2::new(sx, 0.0), Feature::Face(face))
    } else {
        let face = if sy < 0.0 { Face::Top } else { Face::Bottom };
        (Vec2::new(0.0, sy), Feature::Face(face))
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
    use crate::sweep_aabb_aabb;
    use proptest::prelude::*;

    fn still() -> Path {
        Path::default()
    }

    /// The largest positive-area overlap of the boxes at `t` (0 when apart or touching).
    fn overlap_at(a: &Aabb, pa: &Path, b: &Aabb, pb: &Path, t: Real) -> Real {
        let at = a.translated(pa.pos_at(t));
        let bt = b.translated(pb.pos_at(t));
        let ox = at.max.x.min(bt.max.x) - at.min.x.max(bt.min.x);
        let oy = at.max.y.min(bt.max.y) - at.min.y.max(bt.min.y);
        if ox > 0.0 && oy > 0.0 {
            ox.min(oy)
        } else {
            0.0
        }
    }

    /// A box thrown sideways and up at a wall box: the hit is the root of the quadratic of its
    /// fall computed here, on the wall's top face, after it passed the wall's left side above
    /// it.
    #[test]
    fn a_thrown_box_lands_on_a_wall_top_at_the_quadratic_root() {
        let a = Aabb::new(Vec2::new(0.0, 0.0), Vec2::new(4.0, 4.0));
        let wall = Aabb::new(Vec2::new(30.0, 20.0), Vec2::new(60.0, 40.0));
        let (vx, vy, g) = (20.0, -40.0, 50.0);
        let path = Path::ballistic(Vec2::ZERO, Vec2::new(vx, vy), Vec2::new(0.0, g));
        let hit = sweep_path_aabb_aabb(&a, &path, &wall, &still(), 100.0).unwrap();
        // Bottom at 4 + vy·t + ½·g·t² = 20: 25·t² − 40·t − 16 = 0, the larger root.
        let t = (40.0 + (1600.0f64 + 4.0 * 25.0 * 16.0).sqrt()) / 50.0;
        assert!((hit.toi - t).abs() < 1e-14, "{} vs {t}", hit.toi);
        // Its right side has passed x = 30 by then (at 26/20 = 1.3 s), its left not x = 60.
        assert!(4.0 + vx * t > 30.0 && vx * t < 60.0);
        assert_eq!(hit.normal, Vec2::new(0.0, -1.0));
        assert_eq!(hit.feature, Feature::Face(Face::Top));
    }

    /// Thrown up from touching a floor (separating), the box comes back down on it after
    /// `2·v/g`; at rest on it with gravity pressing it in, it is in contact at once; with
    /// gravity pulling it away, never.
    #[test]
    fn the_contact_rule_at_the_start_is_second_order() {
        let a = Aabb::new(Vec2::new(0.0, 0.0), Vec2::new(4.0, 4.0));
        let floor = Aabb::new(Vec2::new(-10.0, 4.0), Vec2::new(10.0, 8.0));
        let up = Path::ballistic(Vec2::ZERO, Vec2::new(0.0, -30.0), Vec2::new(0.0, 60.0));
        let h = sweep_path_aabb_aabb(&a, &up, &floor, &still(), 10.0).unwrap();
        assert!((h.toi - 1.0).abs() < 1e-15, "{}", h.toi);
        assert_eq!(h.normal, Vec2::new(0.0, -1.0));
        let rest = Path::ballistic(Vec2::ZERO, Vec2::ZERO, Vec2::new(0.0, 60.0));
        let h = sweep_path_aabb_aabb(&a, &rest, &floor, &still(), 10.0).unwrap();
        assert_eq!((h.toi, h.normal), (0.0, Vec2::new(0.0, -1.0)));
        let away = Path::ballistic(Vec2::ZERO, Vec2::ZERO, Vec2::new(0.0, -60.0));
        assert!(sweep_path_aabb_aabb(&a, &away, &floor, &still(), 10.0).is_none());
        // Sunk a hair into it by rounding and leaving: no hit at the start, but gravity brings
        // it back (the straight slab test would say never).
        let sunk = a.translated(Vec2::new(0.0, 1e-12));
        let h = sweep_path_aabb_aabb(&sunk, &up, &floor, &still(), 10.0).unwrap();
        assert!((h.toi - 1.0).abs() < 1e-12, "{}", h.toi);
        // Sunk as much and leaving too slowly to get out of the overlap before gravity turns
        // it back (apex `v²/(2·g)` = 8e-17 < 1e-12): it never leaves, a hit at once (taking
        // only the speed's sign it was separating, with no later entry: no hit at all).
        let creep = Path::ballistic(Vec2::ZERO, Vec2::new(0.0, -1e-7), Vec2::new(0.0, 60.0));
        let h = sweep_path_aabb_aabb(&sunk, &creep, &floor, &still(), 10.0).unwrap();
        assert_eq!((h.toi, h.normal), (0.0, Vec2::new(0.0, -1.0)));
        // Sliding along it (no normal motion) is no hit.
        let slide = Path::ballistic(Vec2::ZERO, Vec2::new(5.0, 0.0), Vec2::new(3.0, 0.0));
        assert!(sweep_path_aabb_aabb(&a, &slide, &floor, &still(), 10.0).is_none());
    }

    /// A box thrown up under gravity at a box moving down at constant speed (a kinematic
    /// rectangle): the relative motion is a parabola, and the hit solves its quadratic.
    #[test]
    fn both_boxes_on_their_paths() {
        let a = Aabb::new(Vec2::new(0.0, 50.0), Vec2::new(10.0, 60.0));
        let b = Aabb::new(Vec2::new(2.0, 0.0), Vec2::new(8.0, 10.0));
        let pa = Path::ballistic(Vec2::ZERO, Vec2::new(0.0, -30.0), Vec2::new(0.0, 4.0));
        let pb = Path::linear(Vec2::ZERO, Vec2::new(0.0, 5.0));
        let h = sweep_path_aabb_aabb(&a, &pa, &b, &pb, 100.0).unwrap();
        // Gap a.min.y − b.max.y = 40 − 35·t + 2·t²: the smaller root.
        let t = (35.0 - (35.0f64 * 35.0 - 4.0 * 2.0 * 40.0).sqrt()) / 4.0;
        assert!((h.toi - t).abs() < 1e-14, "{} vs {t}", h.toi);
        assert_eq!(h.normal, Vec2::new(0.0, 1.0));
        assert_eq!(h.feature, Feature::Face(Face::Bottom));
        // A slower throw never reaches it: 40 − 15·t + 2·t² has no real root.
        let slow = Path::ballistic(Vec2::ZERO, Vec2::new(0.0, -10.0), Vec2::new(0.0, 4.0));
        assert!(sweep_path_aabb_aabb(&a, &slow, &b, &pb, 100.0).is_none());
    }

    proptest! {
        /// Without acceleration the curved sweep agrees with the straight slab test.
        #[test]
        fn straight_paths_agree_with_the_slab_test(
            a0 in prop::array::uniform2(-50.0f64..50.0),
            sa in prop::array::uniform2(0.5f64..20.0),
            b0 in prop::array::uniform2(-50.0f64..50.0),
            sb in prop::array::uniform2(0.5f64..20.0),
            v in prop::array::uniform2(-100.0f64..100.0),
        ) {
            let a = Aabb::new(Vec2::from(a0), Vec2::from(a0) + Vec2::from(sa));
            let b = Aabb::new(Vec2::from(b0), Vec2::from(b0) + Vec2::from(sb));
            let v = Vec2::from(v);
            let straight = sweep_aabb_aabb(&a, v, &b, Vec2::ZERO, 10.0);
            let curved = sweep_path_aabb_aabb(&a, &Path::linear(Vec2::ZERO, v), &b, &still(), 10.0);
            match (straight, curved) {
                (None, None) => {}
                (Some(s), Some(c)) => {
                    prop_assert!((s.toi - c.toi).abs() <= 1e-12 * (1.0 + s.toi), "{s:?} {c:?}");
                    prop_assert_eq!(s.normal, c.normal);
                }
                (s, c) => prop_assert!(false, "{s:?} vs {c:?}"),
            }
        }

        /// On random parabolas: the boxes do not overlap before the hit (a dense scan), and
        /// at the hit they touch (overlap at most rounding); with no hit, no overlap anywhere.
        #[test]
        fn no_overlap_before_the_hit(
            a0 in prop::array::uniform2(-50.0f64..50.0),
            sa in prop::array::uniform2(0.5f64..20.0),
            b0 in prop::array::uniform2(-50.0f64..50.0),
            sb in prop::array::uniform2(0.5f64..20.0),
            v in prop::array::uniform2(-100.0f64..100.0),
            acc in prop::array::uniform2(-400.0f64..400.0),
        ) {
            let a = Aabb::new(Vec2::from(a0), Vec2::from(a0) + Vec2::from(sa));
            let b = Aabb::new(Vec2::from(b0), Vec2::from(b0) + Vec2::from(sb));
            prop_assume!(overlap_at(&a, &still(), &b, &still(), 0.0) == 0.0);
            let pa = Path::ballistic(Vec2::ZERO, Vec2::from(v), Vec2::from(acc));
            let max = 2.0;
            let hit = sweep_path_aabb_aabb(&a, &pa, &b, &still(), max);
            let end = hit.map_or(max, |h| h.toi);
            let n = 4000;
            for i in 0..n {
                let t = end * (i as Real / n as Real);
                prop_assert!(overlap_at(&a, &pa, &b, &still(), t) <= 1e-9, "overlap at {t} < {end}");
            }
            if let Some(h) = hit {
                prop_assert!(overlap_at(&a, &pa, &b, &still(), h.toi) <= 1e-9);
                // Overlapping just after (it entered), unless it only touches at a turning
                // point: a positive overlap somewhere within a short time.
                let after = (1..=1000).any(|i| {
                    let t = h.toi + 1e-3 * (i as Real / 1000.0);
                    overlap_at(&a, &pa, &b, &still(), t) > 0.0
                });
                prop_assert!(after, "{h:?}");
            }
        }
    }
}
