//! A moving box swept against a static convex polygon: [`sweep_aabb_polygon`], and the
//! separating-axis pieces shared with [`crate::sweep_path::sweep_path_aabb_polygon`].
//!
//! A box and a convex polygon overlap exactly when their projections overlap on x, y and
//! every edge normal of the polygon (the separating axis theorem: C. Ericson, *Real-Time
//! Collision Detection*, 2005, §5.2.1). Equivalently, the box's centre is inside the
//! Minkowski sum of the polygon and the box (centred at the origin), a convex polygon whose
//! edge normals are the polygon's and the box's, each at the offset of the two shapes'
//! support functions added: a point against a convex polygon, whose entry is the latest of
//! the slab entries provided it comes before the earliest exit (Ericson §5.5.8; the
//! Cyrus–Beck clip of a segment against a convex polygon). Edge axes are used unnormalised,
//! `(b − a).perp()` (times are ratios of projections, so the scale cancels); an edge parallel
//! to x or y has its normal already among the axes x and y.

use super::start_rate;
use crate::math::{Real, Vec2, FRAC_1_SQRT_2};
use crate::query::hit::{PolygonFeature, PolygonHit};
use crate::query::overlap::closest_point_on_segment;
use crate::query::sweep::sweep_aabb_half_tile::{project_aabb, slab};
use crate::shape::{Aabb, ConvexPolygon, MAX_POLYGON_VERTICES};

/// The separating axes of a box and a polygon: x, y and the unnormalised outward normal of
/// every edge neither parallel to x nor to y.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PolygonAxes {
    /// The axes (only the first `count` are used).
    pub(crate) axes: [Vec2; MAX_POLYGON_VERTICES + 2],
    /// How many axes are tested.
    pub(crate) count: usize,
}

/// The separating axes of `polygon` (see [`PolygonAxes`]).
pub(crate) fn polygon_axes(polygon: &ConvexPolygon) -> PolygonAxes {
    let mut axes = [Vec2::ZERO; MAX_POLYGON_VERTICES + 2];
    axes[0] = Vec2::X;
    axes[1] = Vec2::Y;
    let mut count = 2;
    for i in 0..polygon.len() {
        let d = polygon.edge(i).direction();
        if d.x != 0.0 && d.y != 0.0 {
            axes[count] = d.perp();
            count += 1;
        }
    }
    PolygonAxes { axes, count }
}

/// `w` along axis `k`: exact on x and y, a dot product on an edge's axis.
pub(crate) fn along(pa: &PolygonAxes, k: usize, w: Vec2) -> Real {
    match k {
        0 => w.x,
        1 => w.y,
        _ => w.dot(pa.axes[k]),
    }
}

/// The projection `[lo, hi]` of the polygon on axis `k` (exact on x and y).
pub(crate) fn project_polygon(polygon: &ConvexPolygon, pa: &PolygonAxes, k: usize) -> (Real, Real) {
    polygon
        .vertices()
        .iter()
        .fold((Real::INFINITY, Real::NEG_INFINITY), |(lo, hi), &p| {
            let s = along(pa, k, p);
            (lo.min(s), hi.max(s))
        })
}

/// The feature of `polygon` met from direction `dir` (the normal toward the box): the edge
/// whose outward normal points exactly along `dir`, else the vertex extreme along `dir` (the
/// first of equals).
pub(crate) fn support_feature(polygon: &ConvexPolygon, dir: Vec2) -> PolygonFeature {
    for i in 0..polygon.len() {
        let m = polygon.edge(i).direction().perp();
        if m.perp_dot(dir) == 0.0 && m.dot(dir) > 0.0 {
            return PolygonFeature::Edge(i as u8);
        }
    }
    let mut best = 0;
    for i in 1..polygon.len() {
        if polygon.vertex(i).dot(dir) > polygon.vertex(best).dot(dir) {
            best = i;
        }
    }
    PolygonFeature::Vertex(best as u8)
}

/// The unit normal and feature of an entry on axis `k` from `side` (`-1`: the box came from
/// below the polygon's projection, `+1`: from above).
fn axis_feature(
    polygon: &ConvexPolygon,
    pa: &PolygonAxes,
    k: usize,
    side: Real,
) -> (Vec2, PolygonFeature) {
    let m = pa.axes[k] * side;
    let n = if k < 2 { m } else { m / m.length() };
    (n, support_feature(polygon, m))
}

/// The normal and feature of the latest of the slab entries `starts` (sides `sides`): x and
/// y both latest give the unit diagonal `(sx, sy)/√2` and the polygon's feature extreme that
/// way; other ties go to x, then y, then the edges in order. Entries within 4 ulps of the
/// latest count as tied (a straight path's entries are quotients, a curved one's roots).
pub(crate) fn entry_feature(
    polygon: &ConvexPolygon,
    pa: &PolygonAxes,
    starts: &[Real],
    sides: &[Real],
) -> (Vec2, PolygonFeature) {
    let t = starts.iter().copied().fold(Real::NEG_INFINITY, Real::max);
    let near = |s: Real| s == t || (t - s) <= 4.0 * Real::EPSILON * t.abs();
    if near(starts[0]) && near(starts[1]) && sides[0] != 0.0 && sides[1] != 0.0 {
        let d = Vec2::new(sides[0], sides[1]);
        return (d * FRAC_1_SQRT_2, support_feature(polygon, d));
    }
    let k = (0..pa.count).find(|&k| near(starts[k])).unwrap_or(0);
    axis_feature(polygon, pa, k, sides[k])
}

/// The contact point on the polygon of the box `at` touching it by `feature` (unit normal
/// `normal`): a vertex itself; on an edge parallel to x or y, the middle of the stretch shared
/// with the box's face; on a slanted edge, the box's corner nearest to it (its support point
/// in the direction `−normal`) projected onto it, clamped to it.
pub(crate) fn contact_point(
    at: &Aabb,
    polygon: &ConvexPolygon,
    feature: PolygonFeature,
    normal: Vec2,
) -> Vec2 {
    match feature {
        PolygonFeature::Vertex(i) => polygon.vertex(i as usize),
        PolygonFeature::Edge(i) => {
            let seg = polygon.edge(i as usize);
            let d = seg.direction();
            if d.x == 0.0 || d.y == 0.0 {
                let k = if d.y == 0.0 { 1 } else { 0 };
                let t = 1 - k;
                let lo = seg.a[t].min(seg.b[t]);
                let hi = seg.a[t].max(seg.b[t]);
                let mut p = Vec2::ZERO;
                p[k] = seg.a[k];
                p[t] = (0.5 * (at.min[t].max(lo) + at.max[t].min(hi)))
                    .max(lo)
                    .min(hi);
                p
            } else {
                let corner = Vec2::new(
                    if normal.x > 0.0 { at.min.x } else { at.max.x },
                    if normal.y > 0.0 { at.min.y } else { at.max.y },
                );
                closest_point_on_segment(corner, &seg).0
            }
        }
    }
}

/// The contact of a box that already overlaps the polygon with positive area (by rounding):
/// the contact rule on the axis of least penetration (depths along the unit axes), as
/// [`crate::sweep_aabb_segment`]'s: a hit at toi 0 only if the box approaches along it, by
/// [`start_rate`] of its velocity `rates[k]` and acceleration `acc[k]` along axis `k` (`acc`
/// empty on a straight path), else `None`. Ties go to x, then y, then the edges; x and y tied
/// (and least) give the diagonal when both approach.
pub(crate) fn overlapping_start(
    a: &Aabb,
    polygon: &ConvexPolygon,
    pa: &PolygonAxes,
    rates: &[Real],
    acc: &[Real],
) -> Option<PolygonHit> {
    let mut depth = [Real::INFINITY; MAX_POLYGON_VERTICES + 2];
    let mut sign = [0.0; MAX_POLYGON_VERTICES + 2];
    let mut rate = [0.0; MAX_POLYGON_VERTICES + 2];
    for k in 0..pa.count {
        let (alo, ahi) = project_aabb(a, pa.axes[k]);
        let (plo, phi) = project_polygon(polygon, pa, k);
        let (up, down) = (phi - alo, ahi - plo);
        let (d, s) = if up <= down { (up, 1.0) } else { (down, -1.0) };
        depth[k] = if k >= 2 { d / pa.axes[k].length() } else { d };
        sign[k] = s;
        rate[k] = start_rate(rates[k], acc.get(k).copied().unwrap_or(0.0), d);
    }
    let approach = |k: usize| rate[k] * sign[k] < 0.0;
    let least = depth[..pa.count]
        .iter()
        .copied()
        .fold(Real::INFINITY, Real::min);
    let (normal, feature) = if depth[0] == least && depth[1] == least {
        match (approach(0), approach(1)) {
            (false, false) => return None,
            (true, false) => axis_feature(polygon, pa, 0, sign[0]),
            (false, true) => axis_feature(polygon, pa, 1, sign[1]),
            (true, true) => {
                let d = Vec2::new(sign[0], sign[1]);
                (d * FRAC_1_SQRT_2, support_feature(polygon, d))
            }
        }
    } else {
        let k = (0..pa.count).find(|&k| depth[k] == least).unwrap_or(0);
        if !approach(k) {
            return None;
        }
        axis_feature(polygon, pa, k, sign[k])
    };
    Some(PolygonHit {
        toi: 0.0,
        normal,
        point: contact_point(a, polygon, feature, normal),
        feature,
    })
}

/// Sweeps an axis-aligned box `a` moving at `va` (no rotation) against a static convex
/// `polygon`, solid at every edge and vertex: the earliest toi in `[0, max_toi]` at which they
/// start to overlap (the instant they touch while entering).
///
/// Shapes and units: `a` in world units (y grows downward), `va` in units per unit of time;
/// the toi is in the time unit of `va`.
///
/// Method: the box's centre against the Minkowski sum of the polygon and the box, a convex
/// polygon: the slab test on the axes x, y and the polygon's edge normals (see the module
/// docs; Ericson §5.2.1, §5.5.8).
///
/// Conventions (those of [`crate::sweep_aabb_segment`]):
/// - The normal (unit, from the polygon toward the box) is the axis entered last, signed
///   toward the box; the feature is the polygon's edge with that outward normal
///   ([`PolygonFeature::Edge`]: a corner or face of the box meets it), else the vertex extreme
///   that way ([`PolygonFeature::Vertex`]: a face of the box meets it).
/// - Ties: x and y entered at the same instant give the unit diagonal `(sx, sy)/√2` (a corner
///   of the box meets a vertex); other ties go to x, then y, then the edges in order.
/// - The contact point lies on the polygon (see `contact_point`: a vertex, the middle of a
///   shared stretch, or the box's nearest corner projected on a slanted edge).
/// - Touching or sliding never hits, nor does separating. Already overlapping (by rounding):
///   the axis of least penetration decides, toi 0 if approaching along it, else no hit.
///
/// A box has no use for [`crate::PolygonCorners`]: sliding flat across the seam of two
/// polygons laid edge to edge it touches the next one's vertex tangentially, which is no hit.
///
/// # Returns
/// The hit, or `None`: apart throughout `[0, max_toi]`, separating, sliding, or `max_toi`
/// negative or not finite. Never NaN for finite inputs.
///
/// # Example
/// ```
/// use collide_core::{sweep_aabb_polygon, Aabb, ConvexPolygon, PolygonFeature, Vec2};
/// // The triangle (0, 20), (20, 0), (20, 20): its slanted edge is the line x + y = 20. A
/// // 4 × 4 box [0, 4]² moving right at 3 units/s: its bottom-right corner (4 + 3t, 4)
/// // meets the line when 8 + 3t = 20, t = 4 s, at (16, 4).
/// let tri = ConvexPolygon::new(&[Vec2::new(0.0, 20.0), Vec2::new(20.0, 0.0), Vec2::new(20.0, 20.0)]).unwrap();
/// let a = Aabb::new(Vec2::ZERO, Vec2::splat(4.0));
/// let hit = sweep_aabb_polygon(&a, Vec2::new(3.0, 0.0), &tri, 10.0).unwrap();
/// assert_eq!(hit.toi, 4.0);
/// assert!(matches!(hit.feature, PolygonFeature::Edge(_)));
/// assert!((hit.normal - Vec2::new(-1.0, -1.0) / 2f64.sqrt()).length() < 1e-15);
/// assert_eq!(hit.point, Vec2::new(16.0, 4.0));
/// ```
#[must_use]
pub fn sweep_aabb_polygon(
    a: &Aabb,
    va: Vec2,
    polygon: &ConvexPolygon,
    max_toi: Real,
) -> Option<PolygonHit> {
    if !(max_toi >= 0.0 && max_toi.is_finite()) {
        return None;
    }
    let pa = polygon_axes(polygon);
    let n = pa.count;
    let mut entry = [Real::NEG_INFINITY; MAX_POLYGON_VERTICES + 2];
    let mut exit = [Real::INFINITY; MAX_POLYGON_VERTICES + 2];
    let mut side = [0.0; MAX_POLYGON_VERTICES + 2];
    let mut rates = [0.0; MAX_POLYGON_VERTICES + 2];
    for k in 0..n {
        let v = along(&pa, k, va);
        rates[k] = v;
        (entry[k], exit[k], side[k]) = slab(
            project_aabb(a, pa.axes[k]),
            project_polygon(polygon, &pa, k),
            v,
        )?;
    }
    let t_entry = entry[..n]
        .iter()
        .copied()
        .fold(Real::NEG_INFINITY, Real::max);
    let t_exit = exit[..n].iter().copied().fold(Real::INFINITY, Real::min);
    if !(t_entry < t_exit && t_exit > 0.0 && t_entry > Real::NEG_INFINITY) {
        return None;
    }
    if t_entry < 0.0 {
        return overlapping_start(a, polygon, &pa, &rates[..n], &[]);
    }
    // Touching at the start, the entry is `0/v`, `-0.0` for `v < 0`: reported as `+0.0`.
    let toi = if t_entry == 0.0 { 0.0 } else { t_entry };
    if !(toi <= max_toi) {
        return None;
    }
    let (normal, feature) = entry_feature(polygon, &pa, &entry[..n], &side[..n]);
    let at = a.translated(va * toi);
    Some(PolygonHit {
        toi,
        normal,
        point: contact_point(&at, polygon, feature, normal),
        feature,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::query::sweep::sweep_circle_polygon::tests::polygon;
    use proptest::prelude::*;

    fn v(x: Real, y: Real) -> Vec2 {
        Vec2::new(x, y)
    }

    /// The depth of overlap of box and polygon: the least penetration over the separating
    /// axes, along unit axes (`<= 0`: apart or touching, minus the gap on the best axis).
    pub(crate) fn sat_depth(a: &Aabb, p: &ConvexPolygon) -> Real {
        let pa = polygon_axes(p);
        (0..pa.count)
            .map(|k| {
                let (alo, ahi) = project_aabb(a, pa.axes[k]);
                let (plo, phi) = project_polygon(p, &pa, k);
                (phi - alo).min(ahi - plo) / pa.axes[k].length()
            })
            .fold(Real::INFINITY, Real::min)
    }

    #[test]
    fn faces_and_vertices_at_hand_computed_times() {
        let sq =
            ConvexPolygon::new(&[v(0.0, 0.0), v(10.0, 0.0), v(10.0, 10.0), v(0.0, 10.0)]).unwrap();
        // The box [2, 6] × [−14, −10] falls at 5: its bottom reaches the top (y = 0) at 2 s,
        // the shared stretch [2, 6] (middle (4, 0)).
        let a = Aabb::new(v(2.0, -14.0), v(6.0, -10.0));
        let h = sweep_aabb_polygon(&a, v(0.0, 5.0), &sq, 10.0).unwrap();
        assert_eq!(h.toi, 2.0);
        assert_eq!((h.normal, h.point), (v(0.0, -1.0), v(4.0, 0.0)));
        assert_eq!(h.feature, PolygonFeature::Edge(3));
        // A diamond with its left vertex at (0, 5): the box [−10, −6] × [3, 7] moving right
        // at 2 meets the vertex with its right face after 3 s (its projections on the
        // diamond's edge normals (1, ±1) overlap from 2 s): normal −x, the vertex.
        let diamond =
            ConvexPolygon::new(&[v(0.0, 5.0), v(5.0, 0.0), v(10.0, 5.0), v(5.0, 10.0)]).unwrap();
        let a = Aabb::new(v(-10.0, 3.0), v(-6.0, 7.0));
        let h = sweep_aabb_polygon(&a, v(2.0, 0.0), &diamond, 10.0).unwrap();
        assert_eq!(h.toi, 3.0);
        assert_eq!(h.normal, v(-1.0, 0.0));
        assert_eq!(h.point, v(0.0, 5.0));
        assert!(matches!(h.feature, PolygonFeature::Vertex(_)));
        // Sliding flat along the square's top, touching: no hit; sunk and pressing: a hit at 0.
        let on = Aabb::new(v(-20.0, -4.0), v(-16.0, 0.0));
        assert!(sweep_aabb_polygon(&on, v(50.0, 0.0), &sq, 1.0).is_none());
        let sunk = Aabb::new(v(2.0, -4.0), v(6.0, 1e-9));
        let h = sweep_aabb_polygon(&sunk, v(1.0, 1.0), &sq, 1.0).unwrap();
        assert_eq!((h.toi, h.normal), (0.0, v(0.0, -1.0)));
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

        /// Against a fine scan of the separating-axis depth: no overlap before the toi, touching
        /// at it, and none in the window when there is no hit.
        #[test]
        fn straight_box_sweeps_agree_with_a_scan(
            poly in polygon(),
            from in prop::array::uniform2(-80.0f64..80.0),
            size in prop::array::uniform2(0.5f64..20.0),
            aim in prop::array::uniform2(-25.0f64..25.0),
        ) {
            let a = Aabb::new(v(from[0], from[1]), v(from[0] + size[0], from[1] + size[1]));
            prop_assume!(sat_depth(&a, &poly) < -1e-6);
            let vel = v(aim[0], aim[1]) - a.center();
            let hit = sweep_aabb_polygon(&a, vel, &poly, 1.0);
            let n = 20_000;
            let depth = |t: Real| sat_depth(&a.translated(vel * t), &poly);
            let first = (0..=n).map(|i| i as Real / n as Real).find(|&t| depth(t) > 1e-7);
            match hit {
                None => prop_assert!(first.is_none(), "missed the overlap at {first:?}"),
                Some(h) => {
                    prop_assert!(depth(h.toi).abs() < 1e-7, "{h:?}: {}", depth(h.toi));
                    if let Some(f) = first { prop_assert!(h.toi <= f); }
                    prop_assert!((h.normal.length() - 1.0).abs() < 1e-12);
                }
            }
        }
    }
}
