//! A box on a curved path swept against a static segment: [`sweep_path_aabb_segment`].
//!
//! The separating axes of [`crate::sweep_aabb_segment`] (x, y and the segment's normal) with
//! the box's displacement `x(τ) = p0 + v·τ + ½·a·τ²` of a parabola, exactly as
//! [`crate::sweep_path::sweep_path_aabb_half_tile`] does for a triangle: on each axis the two
//! gaps between the projections are quadratics in `τ`, whose sign changes are isolated with
//! certainty and refined to adjacent doubles ([`crate::roots::sign_changes`]: stable quadratic
//! roots, never sampled), cutting the axis into up to three intervals of overlap. The shapes
//! first overlap at the earliest start of an intersection of one interval per axis.

use super::sweep_aabb_half_tile::project_aabb;
use super::sweep_aabb_segment::{
    along, contact_point, entry_feature, overlapping_start, project_segment, segment_axes,
    SegmentAxes,
};
use super::sweep_path_aabb_aabb::{axis_spans, first_common_start, Span};
use crate::math::Real;
use crate::motion::Path;
use crate::query::hit::SegmentHit;
use crate::shape::{Aabb, Segment};
use crate::sweep_path::SOLVE_HORIZON;

/// The intervals of time on which box `a`, moved by `pa`, and `segment` overlap on each of
/// the separating axes `sa` ([`axis_spans`]); an unused axis (a segment parallel to x or y,
/// or a point) overlaps throughout. Roots isolated on `[0, max(max_toi, SOLVE_HORIZON)]`.
pub(crate) fn segment_spans(
    a: &Aabb,
    pa: &Path,
    segment: &Segment,
    sa: &SegmentAxes,
    max_toi: Real,
) -> [Vec<Span>; 3] {
    let hi = if max_toi > SOLVE_HORIZON {
        max_toi
    } else {
        SOLVE_HORIZON
    };
    std::array::from_fn(|k| {
        if k < sa.count {
            axis_spans(
                project_aabb(a, sa.axes[k]),
                project_segment(segment, sa, k),
                along(sa, k, pa.p0),
                along(sa, k, pa.v0),
                along(sa, k, pa.accel),
                hi,
            )
        } else {
            vec![Span {
                start: Real::NEG_INFINITY,
                end: Real::INFINITY,
                side: 0.0,
            }]
        }
    })
}

/// Sweeps an axis-aligned box on a curved path (no rotation) against a static `segment`,
/// solid on both faces and at both end points: the box at time `τ` is `a` translated by
/// `pa.pos_at(τ)` (the path is a displacement from the given box, as for
/// [`crate::sweep_path::sweep_path_aabb_half_tile`]: `p0` is usually zero). World units
/// (y grows downward), seconds, units/s and units/s². The earliest `τ` in `[0, max_toi]` at
/// which they start to overlap.
///
/// Method: the separating axes x, y and the segment's normal (C. Ericson, *Real-Time
/// Collision Detection*, 2005, §5.2.1 and §5.5.8), each slab's entries and exits the roots of
/// quadratics (see the module docs). The conventions are those of
/// [`crate::sweep_aabb_segment`]:
/// - the axis entered last gives the normal (unit, from the segment toward the box) and the
///   feature: the segment's normal axis its [`crate::SegmentFeature::Face`], x or y
///   [`crate::SegmentFeature::End`] of the end point extreme on that axis on the box's side;
/// - ties: x and y at once give the unit diagonal `(sx, sy)/√2` and the end extreme on x on
///   the box's side (on y for a segment parallel to y); other ties go to x, then y, then the
///   normal's axis;
/// - the contact point lies on the segment: the end point, the box's nearest corner projected
///   onto a slanted face, or the middle of the stretch shared with the face of a segment
///   parallel to x or y;
/// - touching or sliding never hits; already overlapping (by rounding) hits at 0 only when
///   approaching along the axis of least penetration.
///
/// Contact at the start is second order, as for the half-tile: touching with no speed along
/// an axis but an acceleration into the segment (a box resting on a slope under gravity) is a
/// hit at 0; separating, the next entry is found (a parabola comes back).
///
/// Each root is isolated on `[0, max(max_toi, SOLVE_HORIZON)]` and then compared with
/// `max_toi` ([`crate::sweep_path::SOLVE_HORIZON`]), so its bits do not depend on how far the
/// caller looks. Without acceleration [`crate::sweep_aabb_segment`] gives the same times by
/// a division (to a few ulps). For a moving segment, pass the box's path relative to the
/// segment's ([`Path::relative_to`]).
///
/// # Returns
/// The hit, or `None`: apart throughout `[0, max_toi]`, separating at the start and not
/// coming back, or `max_toi` negative or not finite. Never NaN for finite inputs.
///
/// # Example
/// ```
/// use collide_core::motion::Path;
/// use collide_core::sweep_path::sweep_path_aabb_segment;
/// use collide_core::{Aabb, Segment, SegmentFeature, Vec2};
/// // A 10 × 10 box [0, 10]² dropped from rest under g = 100 (y down) onto a floor segment
/// // at y = 90: its bottom falls h = 80, ½·100·t² = 80, t = √(2h/g) = √1.6 s.
/// let a = Aabb::new(Vec2::ZERO, Vec2::splat(10.0));
/// let floor = Segment::new(Vec2::new(-50.0, 90.0), Vec2::new(50.0, 90.0));
/// let fall = Path::ballistic(Vec2::ZERO, Vec2::ZERO, Vec2::new(0.0, 100.0));
/// let hit = sweep_path_aabb_segment(&a, &fall, &floor, 10.0).unwrap();
/// assert!((hit.toi - 1.6f64.sqrt()).abs() < 1e-15);
/// assert_eq!(hit.normal, Vec2::new(0.0, -1.0));
/// assert_eq!(hit.feature, SegmentFeature::Face);
/// assert_eq!(hit.point, Vec2::new(5.0, 90.0));
/// ```
#[must_use]
pub fn sweep_path_aabb_segment(
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
    // The earliest start of an intersection of one span per axis, and the earliest one that
    // is not an overlap at the start.
    let (first, entry) = first_common_start(&spans);
    if first == Some(Real::NEG_INFINITY) {
        // Overlapping at the start (by rounding): the contact rule on the axis of least
        // penetration, the acceleration deciding an axis without speed or whose motion turns
        // back inside the overlap (`start_rate`). Separating, it can still come back: the
        // next entry.
        let at = a.translated(pa.p0);
        let rates = std::array::from_fn(|k| along(&sa, k, pa.v0));
        let acc = std::array::from_fn(|k| along(&sa, k, pa.accel));
        if let Some(h) = overlapping_start(&at, segment, &sa, rates, acc) {
            return Some(h);
        }
    }
    let (toi, s) = entry?;
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
    use super::super::sweep_aabb_segment::tests::{
        aimed, box_and_segment, check_against_scan, check_hit_shape, sat_depth,
    };
    use super::*;
    use crate::math::{Vec2, FRAC_1_SQRT_2};
    use crate::query::hit::SegmentFeature;
    use crate::shape::SegmentEnd;
    use crate::sweep_aabb_segment;
    use proptest::prelude::*;

    fn v(x: Real, y: Real) -> Vec2 {
        Vec2::new(x, y)
    }

    const S2: Real = std::f64::consts::SQRT_2;

    /// How many doubles apart two non-negative times are.
    fn ulps(a: Real, b: Real) -> u64 {
        (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs()
    }

    fn fall(g: Real) -> Path {
        Path::ballistic(Vec2::ZERO, Vec2::ZERO, v(0.0, g))
    }

    #[test]
    fn a_dropped_box_lands_on_a_floor_segment_at_the_textbook_time() {
        // The box [3, 13] × [0, 10] dropped from rest with its bottom h above a floor segment,
        // under g (y down): ½·g·t² = h, t = √(2h/g), on the middle (8, 10 + h) of the shared
        // stretch. Thrown up from touching the floor at the landing speed g·t, it is back on
        // it after 2t (the contact at the start separates; the parabola comes back).
        for (h, g) in [(80.0, 100.0), (0.5, 9.81), (1e4, 1.0)] {
            let a = Aabb::new(v(3.0, 0.0), v(13.0, 10.0));
            let floor = Segment::new(v(-50.0, 10.0 + h), v(50.0, 10.0 + h));
            let hit = sweep_path_aabb_segment(&a, &fall(g), &floor, 1e5).unwrap();
            let t: Real = (2.0 * h / g).sqrt();
            assert!((hit.toi - t).abs() <= 1e-14 * t, "{} vs {t}", hit.toi);
            assert_eq!(hit.normal, v(0.0, -1.0));
            assert_eq!(hit.feature, SegmentFeature::Face);
            assert_eq!(hit.point, v(8.0, 10.0 + h));
            let on = a.translated(v(0.0, h));
            let up = Path::ballistic(Vec2::ZERO, v(0.0, -g * t), v(0.0, g));
            let back = sweep_path_aabb_segment(&on, &up, &floor, 1e5).unwrap();
            assert!(
                (back.toi - 2.0 * t).abs() <= 1e-12 * t,
                "{} vs {}",
                back.toi,
                2.0 * t
            );
        }
    }

    #[test]
    fn a_box_corner_meets_a_slope_at_the_root_of_its_quadratic() {
        // The segment from (0, 0) to (100, 100) (y = x, normal (1, −1)/√2 on the side y < x).
        // The box [70, 80] × [−10, 0] dropped from rest under g = 100: its bottom-left corner
        // (70, 50t²) meets the line when 50t² = 70, t = √1.4 s, at (70, 70).
        let s = Segment::new(v(0.0, 0.0), v(100.0, 100.0));
        let a = Aabb::new(v(70.0, -10.0), v(80.0, 0.0));
        let hit = sweep_path_aabb_segment(&a, &fall(100.0), &s, 10.0).unwrap();
        assert!((hit.toi - 1.4f64.sqrt()).abs() < 1e-15, "{}", hit.toi);
        assert_eq!(hit.feature, SegmentFeature::Face);
        assert!((hit.normal - v(1.0, -1.0) / S2).length() < 1e-15);
        assert!((hit.point - v(70.0, 70.0)).length() < 1e-12);
        // The box [60, 64] × [−4, 0] thrown up at 30 units/s: its corner (60, −30t + 50t²)
        // meets the line when 50t² − 30t − 60 = 0, t = (30 + √12900)/100.
        let a = Aabb::new(v(60.0, -4.0), v(64.0, 0.0));
        let up = Path::ballistic(Vec2::ZERO, v(0.0, -30.0), v(0.0, 100.0));
        let hit = sweep_path_aabb_segment(&a, &up, &s, 10.0).unwrap();
        let t = (30.0 + 12900.0f64.sqrt()) / 100.0;
        assert!((hit.toi - t).abs() < 1e-14, "{} vs {t}", hit.toi);
        assert_eq!(hit.feature, SegmentFeature::Face);
        assert!((hit.point - v(60.0, 60.0)).length() < 1e-12);
    }

    #[test]
    fn a_thrown_box_meets_the_end_point_of_a_segment() {
        // The floor from (0, 10) to (20, 10); the box [30, 40] × [5, 15] thrown left at 10
        // units/s, falling at 4 units/s²: its left side reaches the end b = (20, 10) after
        // 1 s, its y span then [7, 17] (it leaves y = 10 only at √2.5 s).
        let floor = Segment::new(v(0.0, 10.0), v(20.0, 10.0));
        let a = Aabb::new(v(30.0, 5.0), v(40.0, 15.0));
        let path = Path::ballistic(Vec2::ZERO, v(-10.0, 0.0), v(0.0, 4.0));
        let hit = sweep_path_aabb_segment(&a, &path, &floor, 10.0).unwrap();
        assert!((hit.toi - 1.0).abs() < 1e-15, "{}", hit.toi);
        assert_eq!(hit.normal, v(1.0, 0.0));
        assert_eq!(hit.feature, SegmentFeature::End(SegmentEnd::B));
        assert_eq!(hit.point, v(20.0, 10.0));
        // Falling faster (g = 20), its top passes y = 10 after √0.5 s, before it gets there.
        let path = Path::ballistic(Vec2::ZERO, v(-10.0, 0.0), v(0.0, 20.0));
        assert!(sweep_path_aabb_segment(&a, &path, &floor, 10.0).is_none());
    }

    #[test]
    fn the_contact_rule_at_the_start_is_second_order() {
        // The box [0, 10]² resting on the floor y = 10: pressed onto it by gravity, a hit at
        // once; pulled away, none; thrown up at 30 under g = 60, back after 1 s.
        let floor = Segment::new(v(-10.0, 10.0), v(20.0, 10.0));
        let a = Aabb::new(Vec2::ZERO, Vec2::splat(10.0));
        let h = sweep_path_aabb_segment(&a, &fall(60.0), &floor, 10.0).unwrap();
        assert_eq!(
            (h.toi, h.normal, h.feature),
            (0.0, v(0.0, -1.0), SegmentFeature::Face)
        );
        assert!(sweep_path_aabb_segment(&a, &fall(-60.0), &floor, 10.0).is_none());
        let up = Path::ballistic(Vec2::ZERO, v(0.0, -30.0), v(0.0, 60.0));
        let h = sweep_path_aabb_segment(&a, &up, &floor, 10.0).unwrap();
        assert!((h.toi - 1.0).abs() < 1e-15, "{}", h.toi);
        // Sunk 1e-12 into it and leaving: no hit at the start, but gravity brings it back.
        let sunk = a.translated(v(0.0, 1e-12));
        let h = sweep_path_aabb_segment(&sunk, &up, &floor, 10.0).unwrap();
        assert!((h.toi - 1.0).abs() < 1e-12, "{}", h.toi);
        // Sliding along it, speeding up: no hit.
        let slide = Path::ballistic(Vec2::ZERO, v(5.0, 0.0), v(3.0, 0.0));
        assert!(sweep_path_aabb_segment(&a, &slide, &floor, 10.0).is_none());
        // The corner (10, 10) of [6, 10]² resting on the slope x + y = 20 under gravity: a hit
        // at once on the face, normal (−1, −1)/√2.
        let slope = Segment::new(v(0.0, 20.0), v(20.0, 0.0));
        let a = Aabb::new(Vec2::splat(6.0), Vec2::splat(10.0));
        let h = sweep_path_aabb_segment(&a, &fall(60.0), &slope, 10.0).unwrap();
        assert_eq!((h.toi, h.feature), (0.0, SegmentFeature::Face));
        assert!((h.normal - v(-1.0, -1.0) / S2).length() < 1e-15);
        assert_eq!(h.point, v(10.0, 10.0));
    }

    #[test]
    fn a_box_falls_onto_a_point_segment() {
        // The point (20, 10); the box [15, 25] × [−10, 0] from rest under g = 20: its bottom
        // falls 10, 10t² = 10, t = 1 s.
        let p = Segment::new(v(20.0, 10.0), v(20.0, 10.0));
        let a = Aabb::new(v(15.0, -10.0), v(25.0, 0.0));
        let h = sweep_path_aabb_segment(&a, &fall(20.0), &p, 10.0).unwrap();
        assert!((h.toi - 1.0).abs() < 1e-15, "{}", h.toi);
        assert_eq!(h.normal, v(0.0, -1.0));
        assert_eq!(h.feature, SegmentFeature::End(SegmentEnd::A));
        assert_eq!(h.point, v(20.0, 10.0));
        // Beside it (x span [21, 31]), it falls past.
        let a = a.translated(v(6.0, 0.0));
        assert!(sweep_path_aabb_segment(&a, &fall(20.0), &p, 10.0).is_none());
    }

    #[test]
    fn straight_paths_give_the_straight_hits() {
        // The hand cases of `sweep_aabb_segment`'s tests on linear paths: a face parallel to
        // x, an end, a slanted face, x and y at once at an end and at a point.
        let pt = Segment::new(v(20.0, 10.0), v(20.0, 10.0));
        let cases = [
            (
                Aabb::new(Vec2::ZERO, Vec2::splat(10.0)),
                v(0.0, 2.0),
                Segment::new(v(-5.0, 30.0), v(25.0, 30.0)),
                10.0,
                SegmentFeature::Face,
            ),
            (
                Aabb::new(v(30.0, 5.0), v(40.0, 15.0)),
                v(-5.0, 0.0),
                Segment::new(v(0.0, 10.0), v(20.0, 10.0)),
                2.0,
                SegmentFeature::End(SegmentEnd::B),
            ),
            (
                Aabb::new(v(6.0, -10.0), v(8.0, -8.0)),
                v(0.0, 2.0),
                Segment::new(v(0.0, 0.0), v(10.0, 10.0)),
                7.0,
                SegmentFeature::Face,
            ),
            (
                Aabb::new(v(14.0, 9.0), v(16.0, 11.0)),
                v(-2.0, -2.0),
                Segment::new(v(0.0, 0.0), v(10.0, 5.0)),
                2.0,
                SegmentFeature::End(SegmentEnd::B),
            ),
            (
                Aabb::new(v(25.0, 15.0), v(35.0, 25.0)),
                v(-5.0, -5.0),
                pt,
                1.0,
                SegmentFeature::End(SegmentEnd::A),
            ),
        ];
        for (a, vel, s, toi, feature) in cases {
            let straight = sweep_aabb_segment(&a, vel, &s, 100.0).unwrap();
            let curved =
                sweep_path_aabb_segment(&a, &Path::linear(Vec2::ZERO, vel), &s, 100.0).unwrap();
            assert_eq!(straight.toi, toi);
            assert!(ulps(curved.toi, toi) <= 2, "{curved:?} vs {toi}");
            assert_eq!((straight.feature, curved.feature), (feature, feature));
            assert_eq!(straight.normal, curved.normal);
        }
        let a = Aabb::new(v(25.0, 15.0), v(35.0, 25.0));
        let h = sweep_path_aabb_segment(&a, &Path::linear(Vec2::ZERO, v(-5.0, -5.0)), &pt, 10.0);
        assert_eq!(h.unwrap().normal, v(1.0, 1.0) * FRAC_1_SQRT_2);
    }

    #[test]
    fn the_horizon_does_not_change_the_bits_and_bad_horizons_give_none() {
        let s = Segment::new(v(0.0, 0.0), v(100.0, 100.0));
        let a = Aabb::new(v(70.0, -10.0), v(80.0, 0.0));
        let t = |max: Real| sweep_path_aabb_segment(&a, &fall(100.0), &s, max).map(|h| h.toi);
        let toi = t(2.0).unwrap();
        for max in [1.2, 10.0, 1e5, 1e7] {
            assert_eq!(t(max).map(Real::to_bits), Some(toi.to_bits()), "{max}");
        }
        assert_eq!(t(toi), Some(toi));
        assert!(t(1.1).is_none());
        for bad in [-1.0, Real::NAN, Real::INFINITY, Real::NEG_INFINITY] {
            assert!(t(bad).is_none());
        }
    }

    #[test]
    fn extreme_finite_inputs_give_no_nan() {
        // Every combination of extreme boxes, segments, velocities, accelerations and
        // horizons: a hit, if any, has a finite toi in [0, max_toi], a finite normal and point.
        let boxes = [
            Aabb::new(Vec2::ZERO, Vec2::splat(10.0)),
            Aabb::new(Vec2::splat(5.0), Vec2::splat(5.0)),
            Aabb::new(Vec2::splat(-1e150), Vec2::splat(1e150)),
            Aabb::new(v(1e-300, 0.0), v(2e-300, 1e-300)),
        ];
        let segments = [
            Segment::new(v(0.0, 20.0), v(20.0, 0.0)),
            Segment::new(v(5.0, 5.0), v(5.0 + 1e-310, 5.0 + 1e-310)),
            Segment::new(v(5.0, 5.0), v(5.0, 5.0)),
            Segment::new(v(-1e150, 3.0), v(1e150, 4.0)),
            Segment::new(v(1e-300, 1e-300), v(-1e-300, 3e-300)),
        ];
        let vels = [
            Vec2::ZERO,
            v(1e-300, -1e-300),
            v(3.0, 4.0),
            v(-1e150, 1e150),
        ];
        let accs = [Vec2::ZERO, v(0.0, 1e-300), v(0.0, 100.0), v(1e150, -1e150)];
        for a in &boxes {
            for s in &segments {
                for &vel in &vels {
                    for max in [0.0, 1e-300, 1.0, 1e300] {
                        let mut hits = vec![sweep_aabb_segment(a, vel, s, max)];
                        for &acc in &accs {
                            let path = Path::ballistic(Vec2::ZERO, vel, acc);
                            hits.push(sweep_path_aabb_segment(a, &path, s, max));
                        }
                        for h in hits.into_iter().flatten() {
                            assert!(h.toi >= 0.0 && h.toi <= max, "{h:?}");
                            assert!(h.normal.is_finite() && h.point.is_finite(), "{h:?}");
                        }
                    }
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

        /// Random boxes thrown on random parabolas at random segments: the sweep against a
        /// dense scan of the overlap (`check_against_scan`); boxes overlapping the segment at
        /// the start get a well-formed hit at 0, a later entry, or nothing.
        #[test]
        fn curved_sweeps_agree_with_a_dense_scan(
            (a, s, int) in box_and_segment(),
            u in 0.0f64..1.0,
            aim in 0.0f64..2.0,
            noise in prop::array::uniform2(-15.0f64..15.0),
            acc in prop::array::uniform2(-400.0f64..400.0),
            max in 0.2f64..3.0,
        ) {
            let vel = aimed(&a, &s, u, aim, noise, int);
            let acc = if int { Vec2::from(acc).round() } else { Vec2::from(acc) };
            let path = Path::ballistic(Vec2::ZERO, vel, acc);
            let hit = sweep_path_aabb_segment(&a, &path, &s, max);
            let at = |t: Real| a.translated(path.pos_at(t));
            if sat_depth(&a, &s) <= 1e-9 {
                check_against_scan(at, &s, max, hit)?;
            } else if let Some(h) = hit {
                prop_assert!(h.toi >= 0.0 && h.toi <= max, "{h:?}");
                check_hit_shape(&at(h.toi), &s, &h, false)?;
            }
        }

        /// Without acceleration the curved sweep gives the straight sweep's hit: the same
        /// feature and normal, the toi within a few doubles (or both none, but for a graze).
        #[test]
        fn without_acceleration_the_curved_sweep_gives_the_straight_hit(
            (a, s, int) in box_and_segment(),
            u in 0.0f64..1.0,
            aim in 0.0f64..2.0,
            noise in prop::array::uniform2(-15.0f64..15.0),
            max in 0.2f64..3.0,
        ) {
            let vel = aimed(&a, &s, u, aim, noise, int);
            let straight = sweep_aabb_segment(&a, vel, &s, max);
            let curved = sweep_path_aabb_segment(&a, &Path::linear(Vec2::ZERO, vel), &s, max);
            match (straight, curved) {
                (None, None) => {}
                (Some(p), Some(c)) => {
                    prop_assert!(ulps(p.toi, c.toi) <= 4, "{p:?} {c:?}");
                    prop_assert_eq!(p.feature, c.feature);
                    prop_assert!((p.normal - c.normal).length() < 1e-15, "{p:?} {c:?}");
                    prop_assert!((p.point - c.point).length() < 1e-9, "{p:?} {c:?}");
                }
                (p, c) => {
                    // Only a graze, touching without ever overlapping, may be found by one and
                    // not the other (the spans' ends are quotients in one, roots in the other).
                    let h = p.or(c).expect("one hit");
                    let deepest = (0..=1000)
                        .map(|i| h.toi + (max - h.toi) * Real::from(i) / 1000.0)
                        .map(|t| sat_depth(&a.translated(vel * t), &s))
                        .fold(Real::NEG_INFINITY, Real::max);
                    prop_assert!(deepest <= 1e-9, "{p:?} vs {c:?}: overlap {deepest}");
                }
            }
        }
    }
}
