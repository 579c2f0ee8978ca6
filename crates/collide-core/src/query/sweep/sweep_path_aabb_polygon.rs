//! A box on a curved path swept against a static convex polygon: [`sweep_path_aabb_polygon`].
//!
//! The separating axes of [`crate::sweep_aabb_polygon`] (x, y and the polygon's edge normals)
//! with the box's displacement `x(τ) = p0 + v·τ + ½·a·τ²` of a parabola, as
//! [`crate::sweep_path::sweep_path_aabb_segment`] does for a segment: on each axis the two
//! gaps between the projections are quadratics in `τ` (the parabola against a line), whose
//! sign changes are isolated with certainty and refined to adjacent doubles
//! ([`crate::roots::sign_changes`]), cutting the axis into up to three intervals of overlap.
//! The shapes first overlap at the earliest start of an intersection of one interval per
//! axis: the box's centre entering the Minkowski sum of polygon and box.

use super::sweep_aabb_half_tile::project_aabb;
use super::sweep_aabb_polygon::{
    along, contact_point, entry_feature, overlapping_start, polygon_axes, project_polygon,
};
use super::sweep_path_aabb_aabb::{axis_spans, Span};
use crate::math::Real;
use crate::motion::Path;
use crate::query::hit::PolygonHit;
use crate::shape::{Aabb, ConvexPolygon, MAX_POLYGON_VERTICES};
use crate::sweep_path::SOLVE_HORIZON;

/// The earliest start of an intersection of one span per axis (`−∞`: overlapping at the
/// start), and the earliest such start that is not an overlap at the start, with the start
/// and side of the span each axis is in then. Every start of such an intersection is the start
/// of one of its spans, so the candidates are the spans' starts, in time order.
#[allow(clippy::type_complexity)]
fn first_common_start(spans: &[Vec<Span>]) -> (Option<Real>, Option<(Real, Vec<Real>, Vec<Real>)>) {
    let mut starts: Vec<Real> = spans.iter().flatten().map(|s| s.start).collect();
    crate::math::sort_times(&mut starts);
    starts.dedup();
    let mut first = None;
    for &s in &starts {
        let chosen: Option<Vec<Span>> = spans
            .iter()
            .map(|axis| axis.iter().find(|sp| sp.start <= s && s < sp.end).copied())
            .collect();
        let Some(chosen) = chosen else { continue };
        let end = chosen
            .iter()
            .map(|sp| sp.end)
            .fold(Real::INFINITY, Real::min);
        if !(s < end) {
            continue;
        }
        if first.is_none() {
            first = Some(s);
        }
        if s > Real::NEG_INFINITY {
            return (
                first,
                Some((
                    s,
                    chosen.iter().map(|sp| sp.start).collect(),
                    chosen.iter().map(|sp| sp.side).collect(),
                )),
            );
        }
    }
    (first, None)
}

/// Sweeps an axis-aligned box on a curved path (no rotation) against a static convex
/// `polygon`: the box at time `τ` is `a` translated by `pa.pos_at(τ)` (the path is a
/// displacement from the given box: `p0` is usually zero). World units (y grows downward),
/// seconds, units/s and units/s². The earliest `τ` in `[0, max_toi]` at which they start to
/// overlap, with the conventions of [`crate::sweep_aabb_polygon`] (normal, feature, ties,
/// contact point).
///
/// Method: the slab test on the axes x, y and the polygon's edge normals (Ericson §5.2.1,
/// §5.5.8), each slab's entries and exits the roots of quadratics (see the module docs).
/// Contact at the start is second order: touching with no speed along an axis but an
/// acceleration into the polygon (a box resting on it under gravity) is a hit at 0;
/// separating, the next entry is found (a parabola comes back). Each root is isolated on
/// `[0, max(max_toi, SOLVE_HORIZON)]` and then compared with `max_toi`
/// ([`crate::sweep_path::SOLVE_HORIZON`]).
///
/// # Returns
/// The hit, or `None`: apart throughout `[0, max_toi]`, separating at the start and not
/// coming back, or `max_toi` negative or not finite. Never NaN for finite inputs.
///
/// # Example
/// ```
/// use collide_core::motion::Path;
/// use collide_core::sweep_path::sweep_path_aabb_polygon;
/// use collide_core::{Aabb, ConvexPolygon, Vec2};
/// // A 10 × 10 box [0, 10]² dropped from rest under g = 100 onto a triangle whose top vertex
/// // is (5, 90): the box's bottom face falls h = 80, ½·100·t² = 80, t = √1.6 s.
/// let tri = ConvexPolygon::new(&[Vec2::new(5.0, 90.0), Vec2::new(50.0, 140.0), Vec2::new(-40.0, 140.0)]).unwrap();
/// let a = Aabb::new(Vec2::ZERO, Vec2::splat(10.0));
/// let fall = Path::ballistic(Vec2::ZERO, Vec2::ZERO, Vec2::new(0.0, 100.0));
/// let hit = sweep_path_aabb_polygon(&a, &fall, &tri, 10.0).unwrap();
/// assert!((hit.toi - 1.6f64.sqrt()).abs() < 1e-15);
/// assert_eq!(hit.normal, Vec2::new(0.0, -1.0));
/// assert_eq!(hit.point, Vec2::new(5.0, 90.0));
/// ```
#[must_use]
pub fn sweep_path_aabb_polygon(
    a: &Aabb,
    pa: &Path,
    polygon: &ConvexPolygon,
    max_toi: Real,
) -> Option<PolygonHit> {
    if !(max_toi >= 0.0 && max_toi.is_finite()) {
        return None;
    }
    let hi = if max_toi > SOLVE_HORIZON {
        max_toi
    } else {
        SOLVE_HORIZON
    };
    let axes = polygon_axes(polygon);
    let spans: Vec<Vec<Span>> = (0..axes.count)
        .map(|k| {
            axis_spans(
                project_aabb(a, axes.axes[k]),
                project_polygon(polygon, &axes, k),
                along(&axes, k, pa.p0),
                along(&axes, k, pa.v0),
                along(&axes, k, pa.accel),
                hi,
            )
        })
        .collect();
    let (first, entry) = first_common_start(&spans);
    if first == Some(Real::NEG_INFINITY) {
        // Overlapping at the start (by rounding): the contact rule on the axis of least
        // penetration, the acceleration deciding an axis without speed or whose motion turns
        // back inside the overlap (`start_rate`). Separating, it can still come back: the
        // next entry.
        let at = a.translated(pa.p0);
        let mut rates = [0.0; MAX_POLYGON_VERTICES + 2];
        let mut acc = [0.0; MAX_POLYGON_VERTICES + 2];
        for k in 0..axes.count {
            rates[k] = along(&axes, k, pa.v0);
            acc[k] = along(&axes, k, pa.accel);
        }
        let n = axes.count;
        if let Some(h) = overlapping_start(&at, polygon, &axes, &rates[..n], &acc[..n]) {
            return Some(h);
        }
    }
    let (toi, starts, sides) = entry?;
    if !(toi <= max_toi) {
        return None;
    }
    let (normal, feature) = entry_feature(polygon, &axes, &starts, &sides);
    let at = a.translated(pa.pos_at(toi));
    Some(PolygonHit {
        toi,
        normal,
        point: contact_point(&at, polygon, feature, normal),
        feature,
    })
}

#[cfg(test)]
mod tests {
    use super::super::sweep_aabb_polygon::tests::sat_depth;
    use super::*;
    use crate::math::Vec2;
    use crate::query::hit::PolygonFeature;
    use crate::query::sweep::sweep_circle_polygon::tests::polygon;
    use crate::sweep_aabb_polygon;
    use proptest::prelude::*;

    fn v(x: Real, y: Real) -> Vec2 {
        Vec2::new(x, y)
    }

    #[test]
    fn a_thrown_box_meets_a_slanted_edge_at_the_root_of_its_quadratic() {
        // The triangle (0, 0), (100, 100), (0, 100): its edge from (0, 0) to (100, 100) is the
        // line y = x, outward normal (1, −1)/√2. The box [60, 64] × [−4, 0] thrown up at 30
        // under g = 100: its bottom-left corner (60, −30t + 50t²) meets the line when
        // 50t² − 30t − 60 = 0, t = (30 + √12900)/100.
        let tri = ConvexPolygon::new(&[v(0.0, 0.0), v(100.0, 100.0), v(0.0, 100.0)]).unwrap();
        let a = Aabb::new(v(60.0, -4.0), v(64.0, 0.0));
        let up = Path::ballistic(Vec2::ZERO, v(0.0, -30.0), v(0.0, 100.0));
        let h = sweep_path_aabb_polygon(&a, &up, &tri, 10.0).unwrap();
        let t = (30.0 + 12900.0f64.sqrt()) / 100.0;
        assert!((h.toi - t).abs() < 1e-14, "{} vs {t}", h.toi);
        assert!(matches!(h.feature, PolygonFeature::Edge(_)));
        assert!((h.normal - v(1.0, -1.0) / 2f64.sqrt()).length() < 1e-15);
        assert!((h.point - v(60.0, 60.0)).length() < 1e-12);
        // Resting on a floor square under gravity: a hit at 0; thrown up at 30 under g = 60,
        // back after 1 s.
        let sq =
            ConvexPolygon::new(&[v(-50.0, 10.0), v(50.0, 10.0), v(50.0, 30.0), v(-50.0, 30.0)])
                .unwrap();
        let b = Aabb::new(Vec2::ZERO, Vec2::splat(10.0));
        let fall = Path::ballistic(Vec2::ZERO, Vec2::ZERO, v(0.0, 60.0));
        assert_eq!(
            sweep_path_aabb_polygon(&b, &fall, &sq, 1.0).unwrap().toi,
            0.0
        );
        let hop = Path::ballistic(Vec2::ZERO, v(0.0, -30.0), v(0.0, 60.0));
        let h = sweep_path_aabb_polygon(&b, &hop, &sq, 10.0).unwrap();
        assert!((h.toi - 1.0).abs() < 1e-14, "{}", h.toi);
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

        /// Against a fine scan of the separating-axis depth along the parabola; without
        /// acceleration the straight sweep's time.
        #[test]
        fn curved_box_sweeps_agree_with_a_scan(
            poly in polygon(),
            from in prop::array::uniform2(-80.0f64..80.0),
            size in prop::array::uniform2(0.5f64..20.0),
            vel in prop::array::uniform2(-100.0f64..100.0),
            acc in prop::array::uniform2(-200.0f64..200.0),
        ) {
            let a = Aabb::new(v(from[0], from[1]), v(from[0] + size[0], from[1] + size[1]));
            prop_assume!(sat_depth(&a, &poly) < -1e-6);
            let path = Path::ballistic(Vec2::ZERO, v(vel[0], vel[1]), v(acc[0], acc[1]));
            let hit = sweep_path_aabb_polygon(&a, &path, &poly, 1.0);
            let n = 20_000;
            let depth = |t: Real| sat_depth(&a.translated(path.pos_at(t)), &poly);
            let first = (0..=n).map(|i| i as Real / n as Real).find(|&t| depth(t) > 1e-7);
            match hit {
                None => prop_assert!(first.is_none(), "missed the overlap at {first:?}"),
                Some(h) => {
                    prop_assert!(depth(h.toi).abs() < 1e-7, "{h:?}: {}", depth(h.toi));
                    if let Some(f) = first { prop_assert!(h.toi <= f); }
                }
            }
            let line = Path::linear(Vec2::ZERO, v(vel[0], vel[1]));
            let c = sweep_path_aabb_polygon(&a, &line, &poly, 1.0);
            let s = sweep_aabb_polygon(&a, v(vel[0], vel[1]), &poly, 1.0);
            prop_assert_eq!(c.is_some(), s.is_some(), "{:?} {:?}", c, s);
            if let (Some(c), Some(s)) = (c, s) {
                prop_assert!((c.toi - s.toi).abs() <= 1e-12 * (1.0 + s.toi), "{c:?} {s:?}");
                prop_assert_eq!(c.feature, s.feature);
            }
        }
    }
}
