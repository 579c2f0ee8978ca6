//! A circle swept along a straight line against a convex polygon: [`sweep_circle_polygon`]
//! (also the circle cast and, with radius 0, the ray cast against a polygon).

use crate::math::{Real, Vec2};
use crate::query::hit::{Earliest, PolygonFeature, PolygonHit};
use crate::query::sweep::sweep_circle_point::point_toi;
use crate::query::sweep::sweep_circle_segment::face_point;
use crate::shape::{ConvexPolygon, PolygonCorners};

/// Sweeps a circle (centre `center`, `radius`, velocity `vel`) against a static convex
/// `polygon` whose obstacle vertices are `corners`: the earliest hit in `[0, max_toi]`.
///
/// The centre touches the polygon exactly when it enters the Minkowski sum of the polygon and
/// the disc: one slab per edge (the edge pushed out by `radius` along its outward normal) and
/// one arc of `radius` around each vertex, spanning the vertex's exterior normal cone
/// (C. Ericson, *Real-Time Collision Detection*, 2005, §5.5.7, applied to a convex polygon as
/// [`crate::sweep_circle_half_tile`] applies it to a triangle):
/// - an **edge** is one-sided: a centre on its outer side (signed distance along the outward
///   normal `>= 0`) reaches the line pushed out by `radius` at `toi = (dist − radius)/(−v_n)`
///   (toi 0 if already within `radius` and approaching), and the hit counts if the centre's
///   projection then lies on the edge, ends included. Feature [`PolygonFeature::Edge`], normal
///   the outward normal, point the foot of the centre on the edge;
/// - a **vertex** in `corners` is hit when the centre comes within `radius` of it (the point
///   quadratic of [`crate::sweep_circle_point`]), and only if the offset `q = centre − vertex`
///   then lies in the vertex's exterior normal cone ([`ConvexPolygon::in_vertex_cone`]).
///   Feature [`PolygonFeature::Vertex`], normal `q/|q|` (`−vel` normalised for a zero radius
///   reaching the vertex itself).
///
/// Contact at start (Bannerman et al. 2014): within `radius` of an edge (on its outer side,
/// within its span) or of an obstacle vertex (in its cone) and approaching: `toi = 0`;
/// touching and separating or sliding: no hit (so a ball sliding exactly along a face past a
/// vertex grazes it tangentially and is not stopped). A centre behind an edge's line gets no
/// hit from that edge. Ties go to the edges in order, then the vertices in order.
///
/// With `radius = 0` this is a ray (a point) cast against the polygon: from outside, the
/// entry point; from inside, no hit.
///
/// # Arguments
/// - `center`, `radius`: the circle (world units, `radius >= 0`).
/// - `vel`: its velocity; the toi is in the time unit of `vel` (pass the displacement and
///   `max_toi = 1` for a fraction of the motion).
/// - `polygon`, `corners`: the obstacle and which of its vertices are obstacles.
///
/// # Returns
/// The earliest [`PolygonHit`] (normal from the polygon toward the circle, point on the
/// polygon), or `None`: no approach (including `vel = 0`), a miss, or a hit after `max_toi`.
/// Never NaN for finite inputs.
///
/// # Example
/// ```
/// use collide_core::{sweep_circle_polygon, ConvexPolygon, PolygonCorners, PolygonFeature, Vec2};
/// // A triangle with its top vertex at (10, 0) and base from (0, 10) to (20, 10). A ball of
/// // radius 1 at (10, −5) falling at 2 units/s meets the top vertex when its centre is at
/// // (10, −1), 4 units down: toi = 2 s, normal straight up.
/// let tri = ConvexPolygon::new(&[Vec2::new(10.0, 0.0), Vec2::new(20.0, 10.0), Vec2::new(0.0, 10.0)]).unwrap();
/// let hit = sweep_circle_polygon(Vec2::new(10.0, -5.0), 1.0, Vec2::new(0.0, 2.0), 10.0, &tri, PolygonCorners::ALL).unwrap();
/// assert_eq!(hit.toi, 2.0);
/// assert_eq!(hit.normal, Vec2::new(0.0, -1.0));
/// assert_eq!(hit.point, Vec2::new(10.0, 0.0));
/// assert_eq!(hit.feature, PolygonFeature::Vertex(0));
/// ```
#[must_use]
pub fn sweep_circle_polygon(
    center: Vec2,
    radius: Real,
    vel: Vec2,
    max_toi: Real,
    polygon: &ConvexPolygon,
    corners: PolygonCorners,
) -> Option<PolygonHit> {
    let mut e = Earliest::new(max_toi);
    for i in 0..polygon.len() {
        e.consider(edge_hit(center, radius, vel, e.limit, polygon, i));
    }
    for i in 0..polygon.len() {
        if corners.contains(i) {
            let p = polygon.vertex(i);
            let h = point_toi(center - p, radius, vel, e.limit)
                .and_then(|(toi, q)| vertex_hit(toi, q, polygon, i, vel));
            e.consider(h);
        }
    }
    e.best
}

/// The one-sided edge `i` (see [`sweep_circle_polygon`]).
fn edge_hit(
    center: Vec2,
    radius: Real,
    vel: Vec2,
    max_toi: Real,
    polygon: &ConvexPolygon,
    i: usize,
) -> Option<PolygonHit> {
    let seg = polygon.edge(i);
    let n = polygon.normal(i);
    let dist = (center - seg.a).dot(n);
    let vn = vel.dot(n);
    if !(dist >= 0.0 && vn < 0.0) {
        return None;
    }
    let toi = if dist <= radius {
        0.0
    } else {
        (dist - radius) / -vn
    };
    if !(toi <= max_toi) {
        return None;
    }
    let d = seg.b - seg.a;
    let len2 = d.length_squared();
    let u = (center + vel * toi - seg.a).dot(d);
    if !(u >= 0.0 && u <= len2) {
        return None;
    }
    Some(PolygonHit {
        toi,
        normal: n,
        point: face_point(&seg, d, u, len2),
        feature: PolygonFeature::Edge(i as u8),
    })
}

/// The hit of a circle whose centre is at `q` from vertex `i` at `toi`, if `q` lies in the
/// vertex's exterior normal cone; `vel` (the velocity at impact) gives the normal of a
/// zero-radius circle reaching the vertex itself. Shared with the sweep along curved paths.
pub(crate) fn vertex_hit(
    toi: Real,
    q: Vec2,
    polygon: &ConvexPolygon,
    i: usize,
    vel: Vec2,
) -> Option<PolygonHit> {
    if !polygon.in_vertex_cone(i, q) {
        return None;
    }
    let len = q.length();
    let normal = if len > 0.0 {
        q / len
    } else {
        let s = vel.length();
        if s > 0.0 {
            -vel / s
        } else {
            // At rest on the vertex itself: the mean of the two edges' normals.
            let n = polygon.normal(i) + polygon.normal(i + polygon.len() - 1);
            n / n.length()
        }
    };
    Some(PolygonHit {
        toi,
        normal,
        point: polygon.vertex(i),
        feature: PolygonFeature::Vertex(i as u8),
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::shape::Segment;
    use proptest::prelude::*;

    fn v(x: Real, y: Real) -> Vec2 {
        Vec2::new(x, y)
    }

    /// The distance from `p` to the polygon (0 inside), by its edges.
    pub(crate) fn distance(p: Vec2, poly: &ConvexPolygon) -> Real {
        let inside = (0..poly.len()).all(|i| (p - poly.vertex(i)).dot(poly.normal(i)) <= 0.0);
        if inside {
            return 0.0;
        }
        (0..poly.len())
            .map(|i| crate::distance_point_segment(p, &poly.edge(i)))
            .fold(Real::INFINITY, Real::min)
    }

    /// A random convex polygon: `n` points on an ellipse at sorted random angles, at least
    /// 3 apart (valid by construction, checked).
    pub(crate) fn polygon() -> impl Strategy<Value = ConvexPolygon> {
        (
            prop::collection::vec(0.0f64..1.0, 3..=8),
            prop::array::uniform2(-20.0f64..20.0),
            prop::array::uniform2(2.0f64..30.0),
        )
            .prop_filter_map("degenerate", |(mut a, c, r)| {
                a.sort_by(Real::total_cmp);
                let pts: Vec<Vec2> = a
                    .iter()
                    .map(|&t| {
                        let (s, co) = crate::sin_cos(t * std::f64::consts::TAU);
                        v(c[0] + r[0] * co, c[1] + r[1] * s)
                    })
                    .collect();
                let ok = (0..pts.len()).all(|i| (pts[i] - pts[(i + 1) % pts.len()]).length() > 0.5);
                ok.then(|| ConvexPolygon::new(&pts).ok()).flatten()
            })
    }

    #[test]
    fn face_and_vertex_hits_at_hand_computed_times() {
        // The square [0, 10]² (vertices (0,0), (0,10), (10,10), (10,0): edge 3 is the top).
        let sq =
            ConvexPolygon::new(&[v(0.0, 0.0), v(10.0, 0.0), v(10.0, 10.0), v(0.0, 10.0)]).unwrap();
        // A ball of radius 2 at (5, −10) falling at 4: centre reaches y = −2 after 2 s.
        let h = sweep_circle_polygon(
            v(5.0, -10.0),
            2.0,
            v(0.0, 4.0),
            10.0,
            &sq,
            PolygonCorners::ALL,
        )
        .unwrap();
        assert_eq!(h.toi, 2.0);
        assert_eq!(h.normal, v(0.0, -1.0));
        assert_eq!(h.point, v(5.0, 0.0));
        assert_eq!(sq.edge(3), Segment::new(v(10.0, 0.0), v(0.0, 0.0)));
        assert_eq!(h.feature, PolygonFeature::Edge(3));
        // Radius 5 at (−3 − 5/√2 ... ) aimed diagonally at the top-left corner (0, 0): from
        // (−10, −10) at (1, 1) the centre is at distance 5 from the corner when
        // (10 − t)·√2 = 5, t = 10 − 5/√2.
        let h = sweep_circle_polygon(
            v(-10.0, -10.0),
            5.0,
            v(1.0, 1.0),
            20.0,
            &sq,
            PolygonCorners::ALL,
        )
        .unwrap();
        let t = 10.0 - 5.0 / 2f64.sqrt();
        assert!((h.toi - t).abs() < 1e-14, "{}", h.toi);
        assert_eq!(h.feature, PolygonFeature::Vertex(0));
        assert!((h.normal - v(-1.0, -1.0) / 2f64.sqrt()).length() < 1e-15);
        // The same vertex switched off (as where a neighbour covers it): the arc is gone, and
        // the diagonal path comes in between the two faces' slabs, which it meets off their
        // spans, so nothing stops it.
        let off = PolygonCorners::ALL.without(0);
        assert!(sweep_circle_polygon(v(-10.0, -10.0), 5.0, v(1.0, 1.0), 20.0, &sq, off).is_none());
        // Sliding along the top exactly (touching, tangential): no hit, even past a corner.
        assert!(sweep_circle_polygon(
            v(-5.0, -2.0),
            2.0,
            v(1.0, 0.0),
            100.0,
            &sq,
            PolygonCorners::ALL
        )
        .is_none());
        // A ray (radius 0) from the left hits the left face (edge 0) at x = 0.
        let h = sweep_circle_polygon(
            v(-4.0, 5.0),
            0.0,
            v(2.0, 0.0),
            10.0,
            &sq,
            PolygonCorners::ALL,
        )
        .unwrap();
        assert_eq!(
            (h.toi, h.feature, h.point),
            (2.0, PolygonFeature::Edge(0), v(0.0, 5.0))
        );
        // A slanted face: the triangle (0, 10), (10, 0), (10, 10); its hypotenuse is the line
        // x + y = 10, normal (−1, −1)/√2. A ball of radius √2 at (0, 0) moving right at 1:
        // distance (10 − x)/√2 reaches √2 at x = 8, t = 8, foot (9, 1).
        let tri = ConvexPolygon::new(&[v(0.0, 10.0), v(10.0, 0.0), v(10.0, 10.0)]).unwrap();
        let h = sweep_circle_polygon(
            v(0.0, 0.0),
            2f64.sqrt(),
            v(1.0, 0.0),
            20.0,
            &tri,
            PolygonCorners::ALL,
        )
        .unwrap();
        assert!((h.toi - 8.0).abs() < 1e-14);
        assert!((h.point - v(9.0, 1.0)).length() < 1e-13);
        assert!((h.normal - v(-1.0, -1.0) / 2f64.sqrt()).length() < 1e-15);
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

        /// Against a fine scan of the distance: no contact before the toi, contact at it, and
        /// none in the whole window when there is no hit.
        #[test]
        fn straight_sweeps_agree_with_a_scan_of_the_distance(
            poly in polygon(),
            from in prop::array::uniform2(-80.0f64..80.0),
            aim in prop::array::uniform2(-25.0f64..25.0),
            r in 0.0f64..8.0,
        ) {
            let c = v(from[0], from[1]);
            prop_assume!(distance(c, &poly) > r + 1e-6);
            let vel = v(aim[0], aim[1]) - c;
            let hit = sweep_circle_polygon(c, r, vel, 1.0, &poly, PolygonCorners::ALL);
            let n = 20_000;
            let gap = |t: Real| distance(c + vel * t, &poly) - r;
            let first = (0..=n).map(|i| i as Real / n as Real).find(|&t| gap(t) < -1e-7);
            match hit {
                None => prop_assert!(first.is_none(), "missed the contact at {first:?}"),
                Some(h) => {
                    prop_assert!(gap(h.toi).abs() < 1e-7, "{h:?}: gap {}", gap(h.toi));
                    if let Some(f) = first { prop_assert!(h.toi <= f); }
                    prop_assert!((h.normal.length() - 1.0).abs() < 1e-12);
                    prop_assert!(distance(h.point, &poly) < 1e-9);
                }
            }
        }
    }
}
