//! A circle on a curved path (a ball under constant acceleration) against a convex polygon:
//! [`sweep_path_circle_polygon`].

use crate::math::Real;
use crate::motion::Path;
use crate::query::hit::{Earliest, PolygonFeature, PolygonHit};
use crate::query::sweep::sweep_circle_polygon::vertex_hit;
use crate::query::sweep::sweep_circle_segment::face_point;
use crate::shape::{ConvexPolygon, PolygonCorners};
use crate::sweep_path::{entry, point_entry};

/// A circle of `radius` on `path` against a static convex `polygon` whose obstacle vertices
/// are `corners`: the Minkowski sum of [`crate::sweep_circle_polygon`] (one slab per edge, one
/// arc per vertex in its exterior normal cone) met by the centre's parabola
/// `p(τ) = p0 + v0·τ + ½·a·τ²`.
///
/// - Each **edge** is one-sided: the gap `s0 − r + v_n·τ + ½·a_n·τ²` along its outward normal
///   is a quadratic (the parabola against a line), whose earliest entry is certified by
///   [`crate::roots::first_entry`] (stable roots, *Numerical Recipes* §5.6); the centre's
///   projection must then lie on the edge. Contact at the start counts only with the centre
///   on the outer side (`s0 >= 0`) and not at an end of the edge moving (or accelerating) past
///   it.
/// - Each **vertex** in `corners` is reached at the certified earliest entry of the quartic
///   `|q + v·τ + ½·a·τ²|² − r²` ([`crate::roots::corner_quartic`]), and counts only when the
///   offset then lies in the vertex's exterior normal cone.
///
/// Contact at the start follows the crate's rule to second order (touching with the gap's
/// rate `< 0`, or `= 0` with its second derivative `< 0`: a ball resting on a slanted face
/// under gravity, is a hit at 0); touching and separating is no hit, but the next entry is
/// found. Roots are isolated on `[0, SOLVE_HORIZON]` (or `[0, max_toi]` if longer) before the
/// comparison with `max_toi` ([`crate::sweep_path::SOLVE_HORIZON`]). Ties go to the edges in
/// order, then the vertices.
///
/// # Arguments
/// - `path`: the centre's path (seconds, units/s, units/s²; y down, gravity is `(0, +g)`).
/// - `radius`: the circle's radius (world units, `>= 0`).
/// - `max_toi`: the horizon (seconds from the path's start).
/// - `polygon`, `corners`: the obstacle and which of its vertices are obstacles.
///
/// # Returns
/// The earliest [`PolygonHit`] in `[0, max_toi]` (normal from the polygon toward the circle,
/// point on the polygon), or `None`. Never NaN for finite inputs.
///
/// # Example
/// ```
/// use collide_core::motion::Path;
/// use collide_core::sweep_path::sweep_path_circle_polygon;
/// use collide_core::{ConvexPolygon, PolygonCorners, PolygonFeature, Vec2};
/// // A ball of radius 1 dropped from rest at (5, 0) under g = 100 (y down) onto the square
/// // [0, 10] × [51, 61]: the centre falls 50 units, ½·100·t² = 50, t = 1 s.
/// let sq = ConvexPolygon::new(&[Vec2::new(0.0, 51.0), Vec2::new(10.0, 51.0), Vec2::new(10.0, 61.0), Vec2::new(0.0, 61.0)]).unwrap();
/// let path = Path::ballistic(Vec2::new(5.0, 0.0), Vec2::ZERO, Vec2::new(0.0, 100.0));
/// let hit = sweep_path_circle_polygon(&path, 1.0, 10.0, &sq, PolygonCorners::ALL).unwrap();
/// assert!((hit.toi - 1.0).abs() < 1e-15);
/// assert_eq!(hit.normal, Vec2::new(0.0, -1.0));
/// assert!(matches!(hit.feature, PolygonFeature::Edge(_)));
/// ```
#[must_use]
pub fn sweep_path_circle_polygon(
    path: &Path,
    radius: Real,
    max_toi: Real,
    polygon: &ConvexPolygon,
    corners: PolygonCorners,
) -> Option<PolygonHit> {
    let mut e = Earliest::new(max_toi);
    for i in 0..polygon.len() {
        e.consider(edge_hit(path, radius, e.limit, polygon, i));
    }
    for i in 0..polygon.len() {
        if corners.contains(i) {
            let p = polygon.vertex(i);
            let h = point_entry(path, radius, e.limit, p, true)
                .and_then(|(toi, q)| vertex_hit(toi, q, polygon, i, path.vel_at(toi)));
            e.consider(h);
        }
    }
    e.best
}

/// The one-sided edge `i` on a curved path (see [`sweep_path_circle_polygon`]).
fn edge_hit(
    path: &Path,
    radius: Real,
    max_toi: Real,
    polygon: &ConvexPolygon,
    i: usize,
) -> Option<PolygonHit> {
    let seg = polygon.edge(i);
    let normal = polygon.normal(i);
    let d = seg.b - seg.a;
    let len2 = d.length_squared();
    let s0 = (path.p0 - seg.a).dot(normal);
    let vn = path.v0.dot(normal);
    let an = path.accel.dot(normal);
    // At an end of the edge and moving (or accelerating) past it, the edge holds the circle
    // no longer: contact at the start is the vertex's to decide.
    let (u, ut, at) = ((path.p0 - seg.a).dot(d), path.v0.dot(d), path.accel.dot(d));
    let leaving =
        |end: Real, out: Real| u == end && (ut * out > 0.0 || (ut == 0.0 && at * out > 0.0));
    let on_span = !(leaving(len2, 1.0) || leaving(0.0, -1.0));
    let outside = on_span && s0 >= 0.0;
    let gap = [s0 - radius, vn, 0.5 * an, 0.0, 0.0];
    let toi = entry(&gap, vn, an, max_toi, outside)?;
    let u = (path.pos_at(toi) - seg.a).dot(d);
    if !(u >= 0.0 && u <= len2) {
        return None;
    }
    Some(PolygonHit {
        toi,
        normal,
        point: face_point(&seg, d, u, len2),
        feature: PolygonFeature::Edge(i as u8),
    })
}

#[cfg(test)]
mod tests {
    use super::super::sweep_circle_polygon::tests::{distance, polygon};
    use super::*;
    use crate::math::Vec2;
    use crate::sweep_circle_polygon;
    use proptest::prelude::*;

    fn v(x: Real, y: Real) -> Vec2 {
        Vec2::new(x, y)
    }

    #[test]
    fn parabolas_meet_faces_and_vertices_at_the_roots_of_their_equations() {
        let sq =
            ConvexPolygon::new(&[v(0.0, 0.0), v(10.0, 0.0), v(10.0, 10.0), v(0.0, 10.0)]).unwrap();
        // Thrown up at 30 from (5, 20) under g = 10 (y down) below the square: the top of the
        // ball (radius 2) reaches the bottom face y = 10 when 20 − 30t + 5t² = 12,
        // t = 3 − √(9 − 1.6) = 3 − √7.4.
        let up = Path::ballistic(v(5.0, 20.0), v(0.0, -30.0), v(0.0, 10.0));
        let h = sweep_path_circle_polygon(&up, 2.0, 10.0, &sq, PolygonCorners::ALL).unwrap();
        let t = 3.0 - 7.4f64.sqrt();
        assert!((h.toi - t).abs() < 1e-14, "{} vs {t}", h.toi);
        assert_eq!(h.normal, v(0.0, 1.0));
        assert_eq!(h.feature, PolygonFeature::Edge(1));
        // Dropped from rest at (14, −20) with radius 5 beside the square: falling straight
        // down it meets the top-right vertex (10, 0) when its centre is at (14, −3) (the
        // offset (4, −3) of length 5): ½·g·t² = 17, t = √(34/g).
        let drop = Path::ballistic(v(14.0, -20.0), Vec2::ZERO, v(0.0, 10.0));
        let h = sweep_path_circle_polygon(&drop, 5.0, 10.0, &sq, PolygonCorners::ALL).unwrap();
        assert!((h.toi - 3.4f64.sqrt()).abs() < 1e-14, "{}", h.toi);
        assert!(matches!(h.feature, PolygonFeature::Vertex(_)));
        assert_eq!(h.point, v(10.0, 0.0));
        assert!((h.normal - v(0.8, -0.6)).length() < 1e-14);
        // Resting on the top under gravity: a hit at 0; thrown up, back after 2·v/g.
        let rest = Path::ballistic(v(5.0, -2.0), Vec2::ZERO, v(0.0, 10.0));
        let h = sweep_path_circle_polygon(&rest, 2.0, 1.0, &sq, PolygonCorners::ALL).unwrap();
        assert_eq!(h.toi, 0.0);
        let hop = Path::ballistic(v(5.0, -2.0), v(0.0, -10.0), v(0.0, 10.0));
        let h = sweep_path_circle_polygon(&hop, 2.0, 5.0, &sq, PolygonCorners::ALL).unwrap();
        assert!((h.toi - 2.0).abs() < 1e-14);
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

        /// Against a fine scan of the distance along the parabola; without acceleration the
        /// straight sweep's time to a few ulps.
        #[test]
        fn curved_sweeps_agree_with_a_scan_of_the_distance(
            poly in polygon(),
            from in prop::array::uniform2(-80.0f64..80.0),
            vel in prop::array::uniform2(-100.0f64..100.0),
            acc in prop::array::uniform2(-200.0f64..200.0),
            r in 0.0f64..8.0,
        ) {
            let c = v(from[0], from[1]);
            prop_assume!(distance(c, &poly) > r + 1e-6);
            let path = Path::ballistic(c, v(vel[0], vel[1]), v(acc[0], acc[1]));
            let hit = sweep_path_circle_polygon(&path, r, 1.0, &poly, PolygonCorners::ALL);
            let n = 20_000;
            let gap = |t: Real| distance(path.pos_at(t), &poly) - r;
            let first = (0..=n).map(|i| i as Real / n as Real).find(|&t| gap(t) < -1e-7);
            match hit {
                None => prop_assert!(first.is_none(), "missed the contact at {first:?}"),
                Some(h) => {
                    prop_assert!(gap(h.toi).abs() < 1e-7, "{h:?}: gap {}", gap(h.toi));
                    if let Some(f) = first { prop_assert!(h.toi <= f); }
                    prop_assert!(distance(h.point, &poly) < 1e-9);
                }
            }
            let line = Path::linear(c, v(vel[0], vel[1]));
            let a = sweep_path_circle_polygon(&line, r, 1.0, &poly, PolygonCorners::ALL);
            let b = sweep_circle_polygon(c, r, v(vel[0], vel[1]), 1.0, &poly, PolygonCorners::ALL);
            prop_assert_eq!(a.is_some(), b.is_some());
            if let (Some(a), Some(b)) = (a, b) {
                prop_assert!((a.toi - b.toi).abs() <= 1e-12 * (1.0 + b.toi), "{a:?} {b:?}");
            }
        }
    }
}
