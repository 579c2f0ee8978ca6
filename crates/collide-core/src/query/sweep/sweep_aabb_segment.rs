//! A moving box swept against a static segment: [`sweep_aabb_segment`], and the
//! separating-axis pieces shared with [`crate::sweep_path::sweep_path_aabb_segment`].
//!
//! A box and a segment are convex: they overlap exactly when their projections overlap on x,
//! y and the segment's normal (the separating axis theorem: C. Ericson, *Real-Time Collision
//! Detection*, 2005, §5.2.1 and §5.5.8). Their Minkowski difference is a hexagon cut by the
//! three slabs, so a translating box first overlaps the segment at the latest of the three
//! slab entries, provided it is before the earliest exit, as for a half-tile
//! ([`crate::sweep_aabb_half_tile`]). The segment's projection on an axis is the interval
//! between its two end points' projections. Its normal's axis is used unnormalised,
//! `(b − a).perp()` (times are ratios of projections, so the scale cancels), which keeps the
//! projections of integer coordinates exact. A segment parallel to x or y has its normal
//! along y or x, already an axis: it is tested on x and y alone, and a point (`a == b`) has
//! no normal: x and y suffice.

use super::start_rate;
use crate::math::{Real, Vec2, FRAC_1_SQRT_2};
use crate::query::hit::{SegmentFeature, SegmentHit};
use crate::query::overlap::closest_point_on_segment;
use crate::query::sweep::sweep_aabb_half_tile::{project_aabb, slab, slabs_entry};
use crate::shape::{Aabb, Segment, SegmentEnd};

/// The separating axes of a box and a segment: x, y and, for a segment neither parallel to
/// x or y nor a point, its unnormalised normal `(b − a).perp()`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SegmentAxes {
    /// x, y and the normal's axis (only the first `count` are used).
    pub(crate) axes: [Vec2; 3],
    /// How many axes are tested: 3, or 2 for a segment parallel to x or y or a point.
    pub(crate) count: usize,
    /// The axis along the segment's normal: 2, or 1 (y) for a segment parallel to x, 0 (x)
    /// for one parallel to y, `None` for a point. An entry on it meets the segment's face.
    pub(crate) face: Option<usize>,
}

/// The separating axes of `segment` (see [`SegmentAxes`]).
pub(crate) fn segment_axes(segment: &Segment) -> SegmentAxes {
    let d = segment.b - segment.a;
    let (count, face) = if d.x == 0.0 && d.y == 0.0 {
        (2, None)
    } else if d.y == 0.0 {
        (2, Some(1))
    } else if d.x == 0.0 {
        (2, Some(0))
    } else {
        (3, Some(2))
    };
    SegmentAxes {
        axes: [Vec2::X, Vec2::Y, d.perp()],
        count,
        face,
    }
}

/// `w` along axis `k` of `sa`: exact on x and y, a dot product on the normal's axis.
pub(crate) fn along(sa: &SegmentAxes, k: usize, w: Vec2) -> Real {
    match k {
        0 => w.x,
        1 => w.y,
        _ => w.dot(sa.axes[2]),
    }
}

/// The projection `[lo, hi]` of the segment on axis `k` of `sa`: the extremes of its end
/// points' projections (exact on x and y).
pub(crate) fn project_segment(segment: &Segment, sa: &SegmentAxes, k: usize) -> (Real, Real) {
    let p = along(sa, k, segment.a);
    let q = along(sa, k, segment.b);
    (p.min(q), p.max(q))
}

/// The end point of `segment` extreme on axis `k` (0: x, 1: y) on the side `side` (`+1`: the
/// larger coordinate, `-1`: the smaller); [`SegmentEnd::A`] when both ends are level.
fn extreme_end(segment: &Segment, k: usize, side: Real) -> SegmentEnd {
    let (a, b) = (segment.a[k], segment.b[k]);
    if (side > 0.0 && b > a) || (side < 0.0 && b < a) {
        SegmentEnd::B
    } else {
        SegmentEnd::A
    }
}

/// The normal and feature of an entry on axis `k` of `sa` from `side` (`-1`: the box came
/// from below the segment's projection, `+1`: from above). On the segment's normal axis: its
/// face, with the unit normal signed toward the box ([`SegmentFeature::Face`]); on x or y
/// otherwise: `±x` or `±y` and the end point extreme on that axis on the box's side (a face
/// of the box meets it, [`SegmentFeature::End`]).
fn axis_feature(
    segment: &Segment,
    sa: &SegmentAxes,
    k: usize,
    side: Real,
) -> (Vec2, SegmentFeature) {
    if sa.face == Some(k) {
        let n = if k == 2 {
            segment.normal().unwrap_or(Vec2::ZERO)
        } else {
            let mut n = Vec2::ZERO;
            n[k] = 1.0;
            n
        };
        (n * side, SegmentFeature::Face)
    } else {
        let k = k.min(1);
        let mut n = Vec2::ZERO;
        n[k] = side;
        (n, SegmentFeature::End(extreme_end(segment, k, side)))
    }
}

/// x and y entered at the same instant (a corner of the box meets an end point): the unit
/// diagonal of the sides `(sx, sy)/√2` as the normal, and the end point extreme on x on the
/// box's side (on y for a segment parallel to y, whose ends are level on x).
fn corner_feature(
    segment: &Segment,
    sa: &SegmentAxes,
    sx: Real,
    sy: Real,
) -> (Vec2, SegmentFeature) {
    let end = if sa.face == Some(0) {
        extreme_end(segment, 1, sy)
    } else {
        extreme_end(segment, 0, sx)
    };
    (Vec2::new(sx, sy) * FRAC_1_SQRT_2, SegmentFeature::End(end))
}

/// The normal and feature of the latest of the slab entries `starts` (sides `sides`; unused
/// axes start at `NEG_INFINITY`): x and y both latest give the corner, other ties go to x,
/// then y, then the normal's axis. Entries within 4 ulps of the latest count as tied: a
/// straight path's entries are quotients and a curved one's are roots, and the two must
/// agree on the feature.
pub(crate) fn entry_feature(
    segment: &Segment,
    sa: &SegmentAxes,
    starts: [Real; 3],
    sides: [Real; 3],
) -> (Vec2, SegmentFeature) {
    let t = starts[0].max(starts[1]).max(starts[2]);
    let near = |s: Real| s == t || (t - s) <= 4.0 * Real::EPSILON * t.abs();
    if near(starts[0]) && near(starts[1]) {
        return corner_feature(segment, sa, sides[0], sides[1]);
    }
    let k = (0..3).find(|&k| near(starts[k])).unwrap_or(2);
    axis_feature(segment, sa, k, sides[k])
}

/// The contact point on the segment of the box `at` touching it by `feature` (normal
/// `normal`): an end point itself; on the face of a segment parallel to x or y, the middle of
/// the stretch shared with the box's face; on a slanted face, the box's corner nearest to the
/// segment (its support point in the direction `−normal`) projected onto it, clamped to it.
pub(crate) fn contact_point(
    at: &Aabb,
    segment: &Segment,
    sa: &SegmentAxes,
    feature: SegmentFeature,
    normal: Vec2,
) -> Vec2 {
    match (feature, sa.face) {
        (SegmentFeature::End(end), _) => segment.end(end),
        (SegmentFeature::Face, Some(k)) if k < 2 => {
            let t = 1 - k;
            let lo = segment.a[t].min(segment.b[t]);
            let hi = segment.a[t].max(segment.b[t]);
            let mut p = Vec2::ZERO;
            p[k] = segment.a[k];
            p[t] = (0.5 * (at.min[t].max(lo) + at.max[t].min(hi)))
                .max(lo)
                .min(hi);
            p
        }
        (SegmentFeature::Face, _) => {
            let corner = Vec2::new(
                if normal.x > 0.0 { at.min.x } else { at.max.x },
                if normal.y > 0.0 { at.min.y } else { at.max.y },
            );
            closest_point_on_segment(corner, segment).0
        }
    }
}

/// The contact of a box that already overlaps the segment with positive area (by rounding):
/// the contact rule on the axis of least penetration (the depths along the unit axes), as
/// [`crate::sweep_aabb_half_tile`]'s: a hit at toi 0 only if the box approaches along it, by
/// [`start_rate`] of its velocity `rates[k]` and acceleration `acc[k]` along axis `k` (zero on
/// a straight path), else `None`. Ties go to x, then y, then the normal's axis; x and y tied
/// (and least) give the corner when both approach.
pub(crate) fn overlapping_start(
    a: &Aabb,
    segment: &Segment,
    sa: &SegmentAxes,
    rates: [Real; 3],
    acc: [Real; 3],
) -> Option<SegmentHit> {
    let mut depth = [Real::INFINITY; 3];
    let mut sign = [0.0; 3];
    let mut rate = [0.0; 3];
    for k in 0..sa.count {
        let (alo, ahi) = project_aabb(a, sa.axes[k]);
        let (slo, shi) = project_segment(segment, sa, k);
        let (up, down) = (shi - alo, ahi - slo);
        let (d, s) = if up <= down { (up, 1.0) } else { (down, -1.0) };
        depth[k] = if k == 2 { d / sa.axes[2].length() } else { d };
        sign[k] = s;
        rate[k] = start_rate(rates[k], acc[k], d);
    }
    let approach = |k: usize| rate[k] * sign[k] < 0.0;
    let least = depth[0].min(depth[1]).min(depth[2]);
    let (normal, feature) = if depth[0] == least && depth[1] == least {
        match (approach(0), approach(1)) {
            (false, false) => return None,
            (true, false) => axis_feature(segment, sa, 0, sign[0]),
            (false, true) => axis_feature(segment, sa, 1, sign[1]),
            (true, true) => corner_feature(segment, sa, sign[0], sign[1]),
        }
    } else {
        let k = (0..3).find(|&k| depth[k] == least).unwrap_or(0);
        if !approach(k) {
            return None;
        }
        axis_feature(segment, sa, k, sign[k])
    };
    Some(SegmentHit {
        toi: 0.0,
        normal,
        point: contact_point(a, segment, sa, feature, normal),
        feature,
    })
}

/// Sweeps an axis-aligned box `a` moving at `va` (no rotation) against a static `segment`,
/// solid on both faces and at both end points: the earliest toi in `[0, max_toi]` at which
/// they start to overlap (the instant they touch while entering).
///
/// Shapes and units: `a` in world units (y grows downward), `va` in units per unit of time;
/// the toi is in the time unit of `va` (pass the step's displacement and `max_toi = 1` for a
/// fraction of the motion, or units/s and seconds). For a moving segment, pass the relative
/// velocity.
///
/// Method: the separating axes x, y and the segment's normal (see the module docs: the entry
/// is the latest of the three slab entries, if before the earliest exit; Ericson §5.5.8's
/// slab test with the segment's third axis, the axis theorem of §5.2.1). A segment parallel
/// to x or y, or of zero length, is tested on x and y alone.
///
/// Conventions:
/// - The normal (unit, from the segment toward the box) is the axis entered last. On the
///   segment's normal axis: its normal signed toward the box, [`SegmentFeature::Face`] (a
///   corner of the box, or for a segment parallel to x or y a face of the box, meets the
///   segment's side). On x or y otherwise: `±x` or `±y`, [`SegmentFeature::End`] of the end
///   point extreme on that axis on the box's side (a face of the box meets the end point;
///   [`SegmentEnd::A`] for a point).
/// - Ties: x and y entered at the same instant give the unit diagonal `(sx, sy)/√2` (a corner
///   of the box meets the end point) and [`SegmentFeature::End`] of the end extreme on x on
///   the box's side (on y for a segment parallel to y); other ties go to x, then y, then the
///   normal's axis.
/// - The contact point lies on the segment: an end point itself; on a slanted face, the box's
///   corner nearest to the segment projected onto it (clamped); on the face of a segment
///   parallel to x or y, the middle of the stretch shared with the box's face.
/// - Boxes that only touch or slide along the segment never hit, nor do separating ones.
///   Already overlapping (by rounding): the axis of least penetration decides, toi 0 if
///   approaching along it, else no hit (as [`crate::sweep_aabb_half_tile`]).
///
/// # Returns
/// The hit, or `None`: apart throughout `[0, max_toi]`, separating, sliding, or `max_toi`
/// negative or not finite. Never NaN for finite inputs.
///
/// # Example
/// ```
/// use collide_core::{sweep_aabb_segment, Aabb, Segment, SegmentFeature, Vec2};
/// // A 10 × 10 box [0, 10]² falls at 2 units/s (y down) onto a floor segment from (−5, 30)
/// // to (25, 30): its bottom (y = 10) must cover 20 units, t = 20/2 = 10 s; the shared
/// // stretch is x in [0, 10], whose middle is (5, 30).
/// let a = Aabb::new(Vec2::ZERO, Vec2::splat(10.0));
/// let floor = Segment::new(Vec2::new(-5.0, 30.0), Vec2::new(25.0, 30.0));
/// let hit = sweep_aabb_segment(&a, Vec2::new(0.0, 2.0), &floor, 20.0).unwrap();
/// assert_eq!(hit.toi, 10.0);
/// assert_eq!(hit.normal, Vec2::new(0.0, -1.0));
/// assert_eq!(hit.feature, SegmentFeature::Face);
/// assert_eq!(hit.point, Vec2::new(5.0, 30.0));
///
/// // A 45° segment from (0, 20) to (20, 0) (the line x + y = 20). A 4 × 4 box [0, 4]² moves
/// // right at 3 units/s; its corner nearest the line is its bottom-right (4 + 3t, 4), which
/// // meets it when 8 + 3t = 20, t = 4 s, at (16, 4). Its x and y spans already overlap the
/// // segment's, so the normal's axis is entered last: the face, normal (−1, −1)/√2.
/// let slope = Segment::new(Vec2::new(0.0, 20.0), Vec2::new(20.0, 0.0));
/// let a = Aabb::new(Vec2::ZERO, Vec2::splat(4.0));
/// let hit = sweep_aabb_segment(&a, Vec2::new(3.0, 0.0), &slope, 10.0).unwrap();
/// assert_eq!(hit.toi, 4.0);
/// assert_eq!(hit.feature, SegmentFeature::Face);
/// assert!((hit.normal - Vec2::new(-1.0, -1.0) / 2f64.sqrt()).length() < 1e-15);
/// assert_eq!(hit.point, Vec2::new(16.0, 4.0));
/// ```
#[must_use]
pub fn sweep_aabb_segment(
    a: &Aabb,
    va: Vec2,
    segment: &Segment,
    max_toi: Real,
) -> Option<SegmentHit> {
    if !(max_toi >= 0.0 && max_toi.is_finite()) {
        return None;
    }
    let sa = segment_axes(segment);
    let mut entry = [Real::NEG_INFINITY; 3];
    let mut exit = [Real::INFINITY; 3];
    let mut side = [0.0; 3];
    let mut rates = [0.0; 3];
    for k in 0..sa.count {
        let (alo, ahi) = project_aabb(a, sa.axes[k]);
        let (slo, shi) = project_segment(segment, &sa, k);
        let v = along(&sa, k, va);
        rates[k] = v;
        (entry[k], exit[k], side[k]) = slab((alo, ahi), (slo, shi), v)?;
    }
    let t_entry = slabs_entry(&entry, &exit)?;
    if t_entry < 0.0 {
        return overlapping_start(a, segment, &sa, rates, [0.0; 3]);
    }
    // Touching at the start, the entry is `0/v`, `-0.0` for `v < 0`: reported as `+0.0`.
    let toi = if t_entry == 0.0 { 0.0 } else { t_entry };
    if !(toi <= max_toi) {
        return None;
    }
    let (normal, feature) = entry_feature(segment, &sa, entry, side);
    let at = a.translated(va * toi);
    Some(SegmentHit {
        toi,
        normal,
        point: contact_point(&at, segment, &sa, feature, normal),
        feature,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::overlap::{aabb_overlaps_capsule, distance_point_aabb, distance_point_segment};
    use crate::shape::Capsule;
    use proptest::prelude::*;
    use proptest::test_runner::TestCaseError;

    fn v(x: Real, y: Real) -> Vec2 {
        Vec2::new(x, y)
    }

    const S2: Real = std::f64::consts::SQRT_2;

    /// The signed penetration of a box and a segment, written independently of the sweep (the
    /// box by its centre and half extents, the segment's normal unit): the least, over x, y
    /// and the segment's normal, of the smaller push that separates their projections.
    /// Positive: the depth of an overlap; negative: they are apart (by at least its size).
    /// Where it is clearly nonzero, Liang–Barsky clipping ([`aabb_overlaps_capsule`] with
    /// radius 0) must agree on whether they overlap.
    pub(crate) fn sat_depth(b: &Aabb, s: &Segment) -> Real {
        let (c, h) = (b.center(), b.half_extents());
        let axes = [Vec2::X, Vec2::Y, s.normal().unwrap_or(Vec2::X)];
        let depth = axes
            .iter()
            .map(|&m| {
                let (c, r) = (c.dot(m), h.x * m.x.abs() + h.y * m.y.abs());
                let (p, q) = (s.a.dot(m), s.b.dot(m));
                (p.max(q) - (c - r)).min((c + r) - p.min(q))
            })
            .fold(Real::INFINITY, Real::min);
        if depth.abs() > 1e-9 {
            let clipped = aabb_overlaps_capsule(b, &Capsule::new(s.a, s.b, 0.0));
            assert_eq!(depth > 0.0, clipped, "{b:?} {s:?}: depth {depth}");
        }
        depth
    }

    /// The shape of a hit on the box `b` at its toi: a unit normal, a point on the segment (the
    /// end point for an end), a face's normal along the segment's, and, for a hit from apart
    /// (`from_apart`), a point on the box too and a normal that separates the box from the
    /// segment (the box's projection on it begins where the segment's ends, up to rounding).
    pub(crate) fn check_hit_shape(
        b: &Aabb,
        s: &Segment,
        h: &SegmentHit,
        from_apart: bool,
    ) -> Result<(), TestCaseError> {
        prop_assert!(h.toi.is_finite() && h.toi.is_sign_positive(), "{h:?}");
        prop_assert!(h.point.is_finite(), "{h:?}");
        prop_assert!((h.normal.length() - 1.0).abs() < 1e-12, "{h:?}");
        prop_assert!(distance_point_segment(h.point, s) < 1e-9, "{h:?}");
        match h.feature {
            SegmentFeature::End(e) => prop_assert_eq!(h.point, s.end(e)),
            SegmentFeature::Face => {
                let n = s.normal();
                prop_assert!(n.is_some(), "a face of a point: {h:?}");
                let n = n.unwrap_or(Vec2::ZERO);
                prop_assert!(h.normal.dot(n).abs() > 1.0 - 1e-12, "{h:?} vs {n:?}");
            }
        }
        if from_apart {
            prop_assert!(distance_point_aabb(h.point, b) < 1e-9, "{h:?} off {b:?}");
            let m = h.normal;
            let box_lo = b.center().dot(m)
                - (b.half_extents().x * m.x.abs() + b.half_extents().y * m.y.abs());
            let seg_hi = s.a.dot(m).max(s.b.dot(m));
            prop_assert!(box_lo >= seg_hi - 1e-9, "{h:?}: {box_lo} < {seg_hi}");
        }
        Ok(())
    }

    /// A sweep of the box `at(τ)` over `[0, max_toi]` against a dense scan of
    /// [`sat_depth`] (20 000 intervals), for a box that does not overlap the segment by more
    /// than 1e-9 at the start: no sample overlaps by more than 1e-9 before the hit (the toi is
    /// no later than the first such sample: no tunnelling), the box just before the toi does
    /// not overlap and at the toi touches (no early hit); with no hit, no sample overlaps.
    pub(crate) fn check_against_scan(
        at: impl Fn(Real) -> Aabb,
        s: &Segment,
        max_toi: Real,
        hit: Option<SegmentHit>,
    ) -> Result<(), TestCaseError> {
        let depth = |t: Real| sat_depth(&at(t), s);
        let n = 20_000;
        let first_deep = (0..=n)
            .map(|i| max_toi * (i as Real / n as Real))
            .find(|&t| depth(t) > 1e-9);
        match hit {
            None => prop_assert!(first_deep.is_none(), "missed the overlap at {first_deep:?}"),
            Some(h) => {
                prop_assert!(h.toi >= 0.0 && h.toi <= max_toi, "{h:?}");
                if let Some(f) = first_deep {
                    prop_assert!(h.toi <= f, "{h:?} after the overlap at {f}");
                }
                if h.toi >= 1e-9 {
                    prop_assert!(depth(h.toi - 1e-9) <= 1e-9, "{h:?}: early");
                }
                prop_assert!(depth(h.toi).abs() <= 1e-9, "{h:?}: {}", depth(h.toi));
                check_hit_shape(&at(h.toi), s, &h, depth(0.0) < -1e-9 || h.toi > 0.0)?;
            }
        }
        Ok(())
    }

    /// A random box and segment: a general segment, one parallel to x or y, a 45° one, or a
    /// point; every fourth case on integer coordinates (where ties and exact touching are
    /// common). The last value says whether the case is on integers.
    pub(crate) fn box_and_segment() -> impl Strategy<Value = (Aabb, Segment, bool)> {
        (
            prop::array::uniform2(-50.0f64..50.0),
            prop::array::uniform2(0.5f64..20.0),
            prop::array::uniform2(-50.0f64..50.0),
            prop::array::uniform2(-30.0f64..30.0),
            0u8..7,
            0u8..4,
        )
            .prop_map(|(p, size, c, d, kind, int)| {
                let int = int == 0;
                let r = |x: Real| if int { x.round() } else { x };
                let (p, c) = (v(r(p[0]), r(p[1])), v(r(c[0]), r(c[1])));
                let size = v(r(size[0]).max(1.0), r(size[1]).max(1.0));
                let (dx, dy) = (r(d[0]), r(d[1]));
                let d = match kind {
                    0 => Vec2::ZERO,
                    1 => v(dx, 0.0),
                    2 => v(0.0, dy),
                    3 => v(dx, dx),
                    4 => v(dx, -dx),
                    _ => v(dx, dy),
                };
                (Aabb::new(p, p + size), Segment::new(c, c + d), int)
            })
    }

    /// A velocity aimed from the box's centre at the point of the segment at parameter `u`
    /// (reached at `τ = 1/aim`), plus `noise`; on integers when `int`.
    pub(crate) fn aimed(
        a: &Aabb,
        s: &Segment,
        u: Real,
        aim: Real,
        noise: [Real; 2],
        int: bool,
    ) -> Vec2 {
        let target = s.a + (s.b - s.a) * u;
        let w = (target - a.center()) * aim + Vec2::from(noise);
        if int {
            w.round()
        } else {
            w
        }
    }

    #[test]
    fn a_falling_box_lands_on_the_face_of_a_segment_parallel_to_an_axis() {
        // The box [0, 10]² falls at 2 units/s onto the floor from (−5, 30) to (25, 30): its
        // bottom covers 20 units, t = 10 s; the shared stretch x in [0, 10] has its middle at
        // (5, 30). Drawn the other way, the floor is the same obstacle.
        let a = Aabb::new(Vec2::ZERO, Vec2::splat(10.0));
        for floor in [
            Segment::new(v(-5.0, 30.0), v(25.0, 30.0)),
            Segment::new(v(25.0, 30.0), v(-5.0, 30.0)),
        ] {
            let h = sweep_aabb_segment(&a, v(0.0, 2.0), &floor, 20.0).unwrap();
            assert_eq!(h.toi, 10.0);
            assert_eq!(h.normal, v(0.0, -1.0));
            assert_eq!(h.feature, SegmentFeature::Face);
            assert_eq!(h.point, v(5.0, 30.0));
        }
        // A wall from (20, 5) to (20, 8): the box moving right at 4 units/s meets it with its
        // right side after (20 − 10)/4 = 2.5 s; the shared stretch is the wall's [5, 8].
        let wall = Segment::new(v(20.0, 5.0), v(20.0, 8.0));
        let h = sweep_aabb_segment(&a, v(4.0, 0.0), &wall, 20.0).unwrap();
        assert_eq!(h.toi, 2.5);
        assert_eq!(h.normal, v(-1.0, 0.0));
        assert_eq!(h.feature, SegmentFeature::Face);
        assert_eq!(h.point, v(20.0, 6.5));
    }

    #[test]
    fn a_box_face_meets_the_end_point_of_a_segment() {
        // The floor from (0, 10) to (20, 10); the box [30, 40] × [5, 15] (straddling y = 10)
        // moves left at 5 units/s: its left side reaches the end b = (20, 10) after
        // (30 − 20)/5 = 2 s. Drawn the other way, that end is `a`.
        let a = Aabb::new(v(30.0, 5.0), v(40.0, 15.0));
        for (s, end) in [
            (Segment::new(v(0.0, 10.0), v(20.0, 10.0)), SegmentEnd::B),
            (Segment::new(v(20.0, 10.0), v(0.0, 10.0)), SegmentEnd::A),
        ] {
            let h = sweep_aabb_segment(&a, v(-5.0, 0.0), &s, 10.0).unwrap();
            assert_eq!(h.toi, 2.0);
            assert_eq!(h.normal, v(1.0, 0.0));
            assert_eq!(h.feature, SegmentFeature::End(end));
            assert_eq!(h.point, v(20.0, 10.0));
        }
        // A slope from (10, 0) to (20, 10) (normal axis (−10, 10)); the box [0, 4] × [−1, 1]
        // moves right at 3 units/s. Its right side reaches x = 10 after 2 s, with y = 0 inside
        // its span; on the normal's axis its projection −10x + 10y ∈ [−50 − 30t, 10 − 30t]
        // met the segment's −100 after 5/3 s (and leaves it after 11/3 s): x is entered last,
        // the end a = (10, 0).
        let slope = Segment::new(v(10.0, 0.0), v(20.0, 10.0));
        let a = Aabb::new(v(0.0, -1.0), v(4.0, 1.0));
        let h = sweep_aabb_segment(&a, v(3.0, 0.0), &slope, 10.0).unwrap();
        assert_eq!(h.toi, 2.0);
        assert_eq!(h.normal, v(-1.0, 0.0));
        assert_eq!(h.feature, SegmentFeature::End(SegmentEnd::A));
        assert_eq!(h.point, v(10.0, 0.0));
    }

    #[test]
    fn a_box_corner_meets_a_slanted_segment_at_the_computed_time() {
        // The segment from (0, 0) to (10, 10) (the line y = x, normal axis (−10, 10)); the box
        // [6, 8] × [−10, −8] falls at 2 units/s. Its corner nearest the line (largest y − x)
        // is its bottom-left (6, −8 + 2t), on the line when −8 + 2t = 6, t = 7 s, at (6, 6).
        // Its bottom entered the segment's y span [0, 10] earlier (t = 4 s); x overlaps
        // throughout. The normal (1, −1)/√2 points toward the box (y < x).
        let s = Segment::new(v(0.0, 0.0), v(10.0, 10.0));
        let a = Aabb::new(v(6.0, -10.0), v(8.0, -8.0));
        let h = sweep_aabb_segment(&a, v(0.0, 2.0), &s, 10.0).unwrap();
        assert_eq!(h.toi, 7.0);
        assert_eq!(h.feature, SegmentFeature::Face);
        assert!((h.normal - v(1.0, -1.0) / S2).length() < 1e-15);
        assert_eq!(h.point, v(6.0, 6.0));
        // The same box 0.5 to the left, moving at (1, 2): its x span [5.5 + t, 7.5 + t] leaves
        // the segment's [0, 10] after 4.5 s, but its corner nearest the line (bottom-left,
        // y − x = t − 13.5) reaches it only after 13.5 s: a miss.
        let a = Aabb::new(v(5.5, -10.0), v(7.5, -8.0));
        assert!(sweep_aabb_segment(&a, v(1.0, 2.0), &s, 100.0).is_none());
    }

    #[test]
    fn x_and_y_at_once_give_the_diagonal_at_an_end() {
        // The floor from (0, 10) to (20, 10); the box [25, 35] × [15, 25] moves at (−5, −5):
        // its top-left corner (25 − 5t, 15 − 5t) reaches the end b = (20, 10) after 1 s, x and
        // y entered at once.
        let floor = Segment::new(v(0.0, 10.0), v(20.0, 10.0));
        let a = Aabb::new(v(25.0, 15.0), v(35.0, 25.0));
        let h = sweep_aabb_segment(&a, v(-5.0, -5.0), &floor, 10.0).unwrap();
        assert_eq!(h.toi, 1.0);
        assert_eq!(h.normal, v(1.0, 1.0) * FRAC_1_SQRT_2);
        assert_eq!(h.feature, SegmentFeature::End(SegmentEnd::B));
        assert_eq!(h.point, v(20.0, 10.0));
        // A slanted segment from (0, 0) to (10, 5) (normal axis (−5, 10)); the box
        // [14, 16] × [9, 11] moves at (−2, −2): its left side reaches x = 10 and its top
        // y = 5 after 2 s. On the normal's axis −5x + 10y the segment projects to 0 and the
        // box to [10, 30], moving at −5·(−2) + 10·(−2) = −10 per second: entered after 1 s.
        // x and y at once, at b; drawn the other way, at a.
        let a = Aabb::new(v(14.0, 9.0), v(16.0, 11.0));
        for (s, end) in [
            (Segment::new(v(0.0, 0.0), v(10.0, 5.0)), SegmentEnd::B),
            (Segment::new(v(10.0, 5.0), v(0.0, 0.0)), SegmentEnd::A),
        ] {
            let h = sweep_aabb_segment(&a, v(-2.0, -2.0), &s, 10.0).unwrap();
            assert_eq!(h.toi, 2.0);
            assert_eq!(h.normal, v(1.0, 1.0) * FRAC_1_SQRT_2);
            assert_eq!(h.feature, SegmentFeature::End(end));
            assert_eq!(h.point, v(10.0, 5.0));
        }
        // A wall from (10, 0) to (10, 20); the box [−10, −5] × [−20, −15] moves at (5, 5): its
        // bottom-right corner reaches the end a = (10, 0) after 3 s, x (the wall's normal) and
        // y at once: the diagonal (−1, −1)/√2 and that end.
        let wall = Segment::new(v(10.0, 0.0), v(10.0, 20.0));
        let a = Aabb::new(v(-10.0, -20.0), v(-5.0, -15.0));
        let h = sweep_aabb_segment(&a, v(5.0, 5.0), &wall, 10.0).unwrap();
        assert_eq!(h.toi, 3.0);
        assert_eq!(h.normal, v(-1.0, -1.0) * FRAC_1_SQRT_2);
        assert_eq!(h.feature, SegmentFeature::End(SegmentEnd::A));
        assert_eq!(h.point, v(10.0, 0.0));
    }

    #[test]
    fn sliding_along_a_segment_is_no_hit() {
        // On the floor y = 10, moving sideways.
        let floor = Segment::new(v(-5.0, 10.0), v(25.0, 10.0));
        let a = Aabb::new(Vec2::ZERO, Vec2::splat(10.0));
        assert!(sweep_aabb_segment(&a, v(3.0, 0.0), &floor, 100.0).is_none());
        // The corner (10, 10) of [6, 10]² on the line x + y = 20, moving along it.
        let slope = Segment::new(v(0.0, 20.0), v(20.0, 0.0));
        let a = Aabb::new(Vec2::splat(6.0), Vec2::splat(10.0));
        assert!(sweep_aabb_segment(&a, v(2.0, -2.0), &slope, 100.0).is_none());
        // The right side x = 0 touching the floor's end (0, 10), moving down past it.
        let floor = Segment::new(v(0.0, 10.0), v(20.0, 10.0));
        let a = Aabb::new(v(-10.0, 5.0), v(0.0, 15.0));
        assert!(sweep_aabb_segment(&a, v(0.0, 3.0), &floor, 100.0).is_none());
        // Grazing the end (20, 10) with a corner: the box [25, 35] × [5, 15] moving at (−5, 5)
        // has its top-left corner (25 − 5t, 5 + 5t) at the end after 1 s, when its left side
        // enters the segment's x span and its top leaves the y span: no overlap. (Its
        // bottom-left corner on the same path, [25, 35] × [0, 5], would enter both at once:
        // the diagonal hit.)
        let a = Aabb::new(v(25.0, 5.0), v(35.0, 15.0));
        assert!(sweep_aabb_segment(&a, v(-5.0, 5.0), &floor, 100.0).is_none());
        let a = Aabb::new(v(25.0, 0.0), v(35.0, 5.0));
        let h = sweep_aabb_segment(&a, v(-5.0, 5.0), &floor, 100.0).unwrap();
        assert_eq!((h.toi, h.normal), (1.0, v(1.0, -1.0) * FRAC_1_SQRT_2));
    }

    #[test]
    fn touching_and_separating_is_no_hit_touching_and_approaching_hits_at_0() {
        let floor = Segment::new(v(-5.0, 10.0), v(25.0, 10.0));
        let a = Aabb::new(Vec2::ZERO, Vec2::splat(10.0));
        assert!(sweep_aabb_segment(&a, v(0.0, -3.0), &floor, 100.0).is_none());
        assert!(sweep_aabb_segment(&a, v(4.0, -3.0), &floor, 100.0).is_none());
        assert!(sweep_aabb_segment(&a, Vec2::ZERO, &floor, 100.0).is_none());
        let h = sweep_aabb_segment(&a, v(1.0, 3.0), &floor, 100.0).unwrap();
        assert_eq!(h.toi.to_bits(), 0.0f64.to_bits());
        assert_eq!(h.normal, v(0.0, -1.0));
        assert_eq!(h.feature, SegmentFeature::Face);
        assert_eq!(h.point, v(5.0, 10.0));
        // Under the ceiling y = 0, rising: the entry is 0/(−3), reported as +0.
        let ceiling = Segment::new(v(-5.0, 0.0), v(25.0, 0.0));
        let h = sweep_aabb_segment(&a, v(0.0, -3.0), &ceiling, 100.0).unwrap();
        assert_eq!(h.toi.to_bits(), 0.0f64.to_bits());
        assert_eq!(h.normal, v(0.0, 1.0));
    }

    #[test]
    fn overlapping_at_the_start_hits_at_0_only_when_approaching() {
        // The box [0, 10]² sunk 1e-12 into the floor y = 10: the least penetration is on y,
        // pushing it up.
        let floor = Segment::new(v(-5.0, 10.0), v(25.0, 10.0));
        let a = Aabb::new(Vec2::ZERO, Vec2::splat(10.0)).translated(v(0.0, 1e-12));
        let h = sweep_aabb_segment(&a, v(0.0, 1.0), &floor, 1.0).unwrap();
        assert_eq!(
            (h.toi, h.normal, h.feature),
            (0.0, v(0.0, -1.0), SegmentFeature::Face)
        );
        assert_eq!(h.point, v(5.0, 10.0));
        assert!(sweep_aabb_segment(&a, v(0.0, -1.0), &floor, 1.0).is_none());
        assert!(sweep_aabb_segment(&a, v(1.0, 0.0), &floor, 1.0).is_none());
        // The corner (10, 10) of [6, 10]² pushed 1e-12 across the line x + y = 20.
        let slope = Segment::new(v(0.0, 20.0), v(20.0, 0.0));
        let a = Aabb::new(Vec2::splat(6.0), Vec2::splat(10.0)).translated(v(1e-12, 0.0));
        let h = sweep_aabb_segment(&a, v(1.0, 1.0), &slope, 1.0).unwrap();
        assert_eq!((h.toi, h.feature), (0.0, SegmentFeature::Face));
        assert!((h.normal - v(-1.0, -1.0) / S2).length() < 1e-15);
        assert!((h.point - v(10.0, 10.0)).length() < 1e-11);
        assert!(sweep_aabb_segment(&a, v(-1.0, -1.0), &slope, 1.0).is_none());
    }

    #[test]
    fn a_point_segment_is_met_on_x_and_y() {
        let p = Segment::new(v(20.0, 10.0), v(20.0, 10.0));
        // The right side of [0, 10] × [5, 15] reaches x = 20 after 2 s at 5 units/s.
        let a = Aabb::new(v(0.0, 5.0), v(10.0, 15.0));
        let h = sweep_aabb_segment(&a, v(5.0, 0.0), &p, 10.0).unwrap();
        assert_eq!(h.toi, 2.0);
        assert_eq!(h.normal, v(-1.0, 0.0));
        assert_eq!(h.feature, SegmentFeature::End(SegmentEnd::A));
        assert_eq!(h.point, v(20.0, 10.0));
        // Corner first: [25, 35] × [15, 25] at (−5, −5) after 1 s.
        let a = Aabb::new(v(25.0, 15.0), v(35.0, 25.0));
        let h = sweep_aabb_segment(&a, v(-5.0, -5.0), &p, 10.0).unwrap();
        assert_eq!(h.toi, 1.0);
        assert_eq!(h.normal, v(1.0, 1.0) * FRAC_1_SQRT_2);
        assert_eq!(h.feature, SegmentFeature::End(SegmentEnd::A));
        // Passing by (y span [11, 21]) or touching it (y span [10, 20]), no hit; at rest, none.
        for a in [
            Aabb::new(v(0.0, 11.0), v(10.0, 21.0)),
            Aabb::new(v(0.0, 10.0), v(10.0, 20.0)),
        ] {
            assert!(sweep_aabb_segment(&a, v(5.0, 0.0), &p, 10.0).is_none());
        }
        let a = Aabb::new(v(0.0, 5.0), v(10.0, 15.0));
        assert!(sweep_aabb_segment(&a, Vec2::ZERO, &p, 10.0).is_none());
        // Containing it: depths 5 on x, 2 on y (the point 2 below the top): pushed down,
        // approaching when moving up.
        let a = Aabb::new(v(15.0, 8.0), v(25.0, 18.0));
        let h = sweep_aabb_segment(&a, v(0.0, -1.0), &p, 10.0).unwrap();
        assert_eq!((h.toi, h.normal), (0.0, v(0.0, 1.0)));
        assert_eq!(h.feature, SegmentFeature::End(SegmentEnd::A));
        assert!(sweep_aabb_segment(&a, v(0.0, 1.0), &p, 10.0).is_none());
    }

    #[test]
    fn the_horizon_bounds_the_hit_and_bad_horizons_give_none() {
        let floor = Segment::new(v(-5.0, 30.0), v(25.0, 30.0));
        let a = Aabb::new(Vec2::ZERO, Vec2::splat(10.0));
        let vel = v(0.0, 2.0);
        assert_eq!(sweep_aabb_segment(&a, vel, &floor, 10.0).unwrap().toi, 10.0);
        assert!(sweep_aabb_segment(&a, vel, &floor, 9.5).is_none());
        for bad in [-1.0, Real::NAN, Real::INFINITY, Real::NEG_INFINITY] {
            assert!(sweep_aabb_segment(&a, vel, &floor, bad).is_none());
            // Even overlapping and approaching.
            let sunk = a.translated(v(0.0, 20.5));
            assert!(sweep_aabb_segment(&sunk, vel, &floor, bad).is_none());
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

        /// Random boxes, segments and velocities (many aimed at the segment): the sweep
        /// against a dense scan of the overlap ([`check_against_scan`]); boxes overlapping the
        /// segment at the start get toi 0 or nothing, with a well-formed hit.
        #[test]
        fn straight_sweeps_agree_with_a_dense_scan(
            (a, s, int) in box_and_segment(),
            u in 0.0f64..1.0,
            aim in 0.0f64..2.0,
            noise in prop::array::uniform2(-15.0f64..15.0),
            max in 0.2f64..3.0,
        ) {
            let vel = aimed(&a, &s, u, aim, noise, int);
            let hit = sweep_aabb_segment(&a, vel, &s, max);
            if sat_depth(&a, &s) <= 1e-9 {
                check_against_scan(|t| a.translated(vel * t), &s, max, hit)?;
            } else if let Some(h) = hit {
                prop_assert_eq!(h.toi, 0.0);
                check_hit_shape(&a, &s, &h, false)?;
            }
        }
    }
}
