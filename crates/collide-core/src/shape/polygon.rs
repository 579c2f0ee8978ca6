//! [`ConvexPolygon`]: a static convex polygon of 3 to [`MAX_POLYGON_VERTICES`] vertices (a
//! slanted block, a trapezoid, a rotated box), the mask of which of its vertices are obstacles
//! ([`PolygonCorners`]) and what is wrong with a list of points that is not one
//! ([`PolygonError`]).

use crate::math::{Real, Vec2};
use crate::shape::{Aabb, Segment};

/// The largest number of vertices of a [`ConvexPolygon`].
pub const MAX_POLYGON_VERTICES: usize = 8;

/// A strictly convex polygon of 3 to [`MAX_POLYGON_VERTICES`] vertices (world units), stored
/// inline (the type is `Copy`).
///
/// **Order.** Whatever order the points are given in, the vertices are stored
/// **counter-clockwise on the screen** (y down): edge `i` runs from vertex `i` to vertex
/// `i + 1` (the last back to the first), and its outward normal is the edge direction's
/// `perp()` (glam's `(x, y) ↦ (−y, x)`), normalised: [`ConvexPolygon::normal`]. This is the
/// side [`Segment::normal`] names. The first vertex is the first point given.
///
/// **Validity** ([`ConvexPolygon::new`]): every coordinate finite, no two vertices equal, no
/// three consecutive vertices on a line, and every vertex strictly inside the half-plane of
/// every edge it is not on (strict convexity, which also rejects a self-crossing star whose
/// turns all have one sign).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConvexPolygon {
    points: [Vec2; MAX_POLYGON_VERTICES],
    len: u8,
}

/// Why a list of points is not a [`ConvexPolygon`]; indices are positions in the list given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolygonError {
    /// Fewer than 3 points.
    TooFewVertices {
        /// How many were given.
        count: usize,
    },
    /// More than [`MAX_POLYGON_VERTICES`] points.
    TooManyVertices {
        /// How many were given.
        count: usize,
    },
    /// A coordinate of point `index` is NaN or infinite.
    NonFinite {
        /// The point's position in the list.
        index: usize,
    },
    /// Point `index` repeats an earlier point.
    Duplicate {
        /// The later of the two equal points.
        index: usize,
    },
    /// Point `index` lies on the line of an edge it does not end (three vertices on a line,
    /// or all of them), or the products overflowed.
    Collinear {
        /// The point's position in the list.
        index: usize,
    },
    /// Point `index` lies outside the edge from point `edge` to the next: the points do not
    /// go round a convex polygon in one turn.
    NotConvex {
        /// The point's position in the list.
        index: usize,
        /// The edge's first point.
        edge: usize,
    },
}

impl std::fmt::Display for PolygonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            PolygonError::TooFewVertices { count } => {
                write!(f, "a polygon needs at least 3 points, got {count}")
            }
            PolygonError::TooManyVertices { count } => write!(
                f,
                "a polygon has at most {MAX_POLYGON_VERTICES} points, got {count}"
            ),
            PolygonError::NonFinite { index } => write!(f, "point {index} is not finite"),
            PolygonError::Duplicate { index } => {
                write!(f, "point {index} repeats an earlier point")
            }
            PolygonError::Collinear { index } => {
                write!(f, "point {index} lies on the line of an edge")
            }
            PolygonError::NotConvex { index, edge } => write!(
                f,
                "point {index} lies outside the edge from point {edge}: not convex"
            ),
        }
    }
}

impl std::error::Error for PolygonError {}

impl ConvexPolygon {
    /// The polygon through `points`, in either winding (stored counter-clockwise on the
    /// screen, starting at `points[0]`).
    ///
    /// # Errors
    /// A [`PolygonError`] naming the first offending point: fewer than 3 or more than
    /// [`MAX_POLYGON_VERTICES`] points, a coordinate not finite, two equal points, a point on
    /// the line of an edge it does not end, a point outside an edge (not convex, or not one
    /// turn). Never panics.
    pub fn new(points: &[Vec2]) -> Result<Self, PolygonError> {
        let n = points.len();
        if n < 3 {
            return Err(PolygonError::TooFewVertices { count: n });
        }
        if n > MAX_POLYGON_VERTICES {
            return Err(PolygonError::TooManyVertices { count: n });
        }
        if let Some(index) = points.iter().position(|p| !p.is_finite()) {
            return Err(PolygonError::NonFinite { index });
        }
        for j in 1..n {
            if points[..j].contains(&points[j]) {
                return Err(PolygonError::Duplicate { index: j });
            }
        }
        // Twice the signed area (shoelace): negative for the stored order.
        let area2: Real = (0..n)
            .map(|i| points[i].perp_dot(points[(i + 1) % n]))
            .sum();
        if !(area2 != 0.0 && area2.is_finite()) {
            return Err(PolygonError::Collinear { index: 2 });
        }
        // Inside an edge is `sign·cross(d, p − a) > 0`: with the area negative, counter-
        // clockwise on the screen, interior points have a negative cross product.
        let sign: Real = if area2 < 0.0 { -1.0 } else { 1.0 };
        for i in 0..n {
            let a = points[i];
            let d = points[(i + 1) % n] - a;
            for k in 2..n {
                let j = (i + k) % n;
                let c = sign * d.perp_dot(points[j] - a);
                if c == 0.0 || c.is_nan() {
                    return Err(PolygonError::Collinear { index: j });
                }
                if c < 0.0 {
                    return Err(PolygonError::NotConvex { index: j, edge: i });
                }
            }
        }
        let mut stored = [Vec2::ZERO; MAX_POLYGON_VERTICES];
        for (k, slot) in stored.iter_mut().take(n).enumerate() {
            // Counter-clockwise on the screen: the given order if the area is negative, else
            // reversed from the first point.
            *slot = if area2 < 0.0 {
                points[k]
            } else {
                points[(n - k) % n]
            };
        }
        Ok(ConvexPolygon {
            points: stored,
            len: n as u8,
        })
    }

    /// The vertices, counter-clockwise on the screen (world units).
    #[must_use]
    #[inline]
    pub fn vertices(&self) -> &[Vec2] {
        &self.points[..self.len as usize]
    }

    /// The number of vertices (3 to [`MAX_POLYGON_VERTICES`]).
    #[must_use]
    #[inline]
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Vertex `i` (taken modulo the number of vertices).
    #[must_use]
    #[inline]
    pub fn vertex(&self, i: usize) -> Vec2 {
        self.points[i % self.len()]
    }

    /// Edge `i`, from vertex `i` to vertex `i + 1` (modulo the number of vertices).
    #[must_use]
    #[inline]
    pub fn edge(&self, i: usize) -> Segment {
        Segment::new(self.vertex(i), self.vertex(i + 1))
    }

    /// The outward unit normal of edge `i`: its direction's `perp()`, normalised.
    #[must_use]
    #[inline]
    pub fn normal(&self, i: usize) -> Vec2 {
        let d = self.edge(i).direction();
        d.perp() / d.length()
    }

    /// The smallest box holding the polygon.
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        let v = self.vertices();
        let (lo, hi) = v[1..]
            .iter()
            .fold((v[0], v[0]), |(lo, hi), &p| (lo.min(p), hi.max(p)));
        Aabb::new(lo, hi)
    }

    /// Whether `q` (an offset from vertex `i`) lies in the vertex's exterior normal cone: not
    /// ahead along either edge leaving it (`q·(v[i+1] − v[i]) <= 0` and
    /// `q·(v[i−1] − v[i]) <= 0`). Only there is a contact with the vertex not one with an
    /// edge's face.
    #[must_use]
    #[inline]
    pub fn in_vertex_cone(&self, i: usize, q: Vec2) -> bool {
        let n = self.len();
        let p = self.vertex(i);
        q.dot(self.vertex(i + 1) - p) <= 0.0 && q.dot(self.vertex(i + n - 1) - p) <= 0.0
    }

    /// The projection `[lo, hi]` of the polygon on the axis `m`: the extremes of its
    /// vertices' projections.
    #[must_use]
    pub fn project(&self, m: Vec2) -> (Real, Real) {
        self.vertices()
            .iter()
            .fold((Real::INFINITY, Real::NEG_INFINITY), |(lo, hi), p| {
                let s = p.dot(m);
                (lo.min(s), hi.max(s))
            })
    }
}

/// Which vertices of a [`ConvexPolygon`] are obstacles (bit `i`: vertex `i`), as
/// [`crate::SegmentEnds`] says for a segment's end points. The edges are always obstacles.
///
/// A lone polygon has [`PolygonCorners::ALL`]. Where polygons are laid edge to edge (a floor
/// of blocks), a vertex at which a neighbour continues one of the vertex's edges flat (the
/// neighbour's edge on the same line, same outward normal, going on past the vertex) is
/// covered by that neighbour's face: a ball outside both never touches the vertex with a
/// normal the face does not give, and switching it off spares a ball rolling across the seam
/// the bump of a "ghost collision" (E. Catto, "Ghost Collisions", box2d.org, 2020).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PolygonCorners(pub u8);

impl PolygonCorners {
    /// No vertex is an obstacle.
    pub const NONE: PolygonCorners = PolygonCorners(0);
    /// Every vertex is an obstacle: a lone polygon.
    pub const ALL: PolygonCorners = PolygonCorners(u8::MAX);

    /// Whether vertex `i` is an obstacle.
    #[must_use]
    #[inline]
    pub const fn contains(self, i: usize) -> bool {
        i < 8 && self.0 & (1 << i) != 0
    }

    /// The mask with vertex `i` switched off.
    #[must_use]
    #[inline]
    pub const fn without(self, i: usize) -> PolygonCorners {
        if i < 8 {
            PolygonCorners(self.0 & !(1 << i))
        } else {
            self
        }
    }
}

impl Default for PolygonCorners {
    fn default() -> Self {
        PolygonCorners::ALL
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: Real, y: Real) -> Vec2 {
        Vec2::new(x, y)
    }

    #[test]
    fn either_winding_is_stored_counter_clockwise_on_the_screen() {
        // The square [0, 2]² given clockwise on the screen (y down): top-left, top-right,
        // bottom-right, bottom-left. Stored from (0, 0) the other way round.
        let cw = [v(0.0, 0.0), v(2.0, 0.0), v(2.0, 2.0), v(0.0, 2.0)];
        let p = ConvexPolygon::new(&cw).unwrap();
        assert_eq!(
            p.vertices(),
            &[v(0.0, 0.0), v(0.0, 2.0), v(2.0, 2.0), v(2.0, 0.0)]
        );
        let mut ccw = cw;
        ccw[1..].reverse();
        assert_eq!(ConvexPolygon::new(&ccw).unwrap(), p);
        // Edge 0 is the left side, outward normal −x; edge 3 the top, normal −y (up).
        assert_eq!(p.normal(0), v(-1.0, 0.0));
        assert_eq!(p.normal(1), v(0.0, 1.0));
        assert_eq!(p.normal(2), v(1.0, 0.0));
        assert_eq!(p.normal(3), v(0.0, -1.0));
        assert_eq!(p.aabb(), Aabb::new(v(0.0, 0.0), v(2.0, 2.0)));
        assert_eq!(p.project(v(1.0, 1.0)), (0.0, 4.0));
    }

    #[test]
    fn bad_point_lists_get_the_error_that_names_the_point() {
        use PolygonError::*;
        let sq = [v(0.0, 0.0), v(2.0, 0.0), v(2.0, 2.0), v(0.0, 2.0)];
        let err = |pts: &[Vec2]| ConvexPolygon::new(pts).unwrap_err();
        assert_eq!(err(&sq[..2]), TooFewVertices { count: 2 });
        assert_eq!(err(&[v(0.0, 0.0); 9]), TooManyVertices { count: 9 });
        assert_eq!(
            err(&[sq[0], sq[1], v(Real::NAN, 1.0)]),
            NonFinite { index: 2 }
        );
        assert_eq!(err(&[sq[0], sq[1], sq[2], sq[1]]), Duplicate { index: 3 });
        // (1, 0) on the top edge's line between (0, 0) and (2, 0).
        assert_eq!(
            err(&[sq[0], v(1.0, 0.0), sq[1], sq[2], sq[3]]),
            Collinear { index: 2 }
        );
        assert_eq!(
            err(&[v(0.0, 0.0), v(1.0, 1.0), v(2.0, 2.0)]),
            Collinear { index: 2 }
        );
        // A dent: (0.5, 0.5) inside the square.
        assert!(matches!(
            err(&[sq[0], sq[1], v(0.5, 0.5), sq[3]]),
            NotConvex { .. }
        ));
        // A pentagram: every turn has one sign, but it goes round twice.
        let star: Vec<Vec2> = (0..5)
            .map(|k| {
                let a = k as Real * 4.0 * std::f64::consts::PI / 5.0;
                v(libm::cos(a), libm::sin(a))
            })
            .collect();
        assert!(matches!(err(&star), NotConvex { .. }));
        assert!(err(&star).to_string().contains("not convex"));
    }

    #[test]
    fn vertex_cones_and_corner_masks() {
        let p = ConvexPolygon::new(&[v(0.0, 0.0), v(0.0, 2.0), v(2.0, 2.0), v(2.0, 0.0)]).unwrap();
        // Vertex 0, the top-left corner: its cone is up-left.
        assert!(p.in_vertex_cone(0, v(-1.0, -1.0)));
        assert!(p.in_vertex_cone(0, v(0.0, -1.0)));
        assert!(!p.in_vertex_cone(0, v(1.0, -1.0)));
        let c = PolygonCorners::ALL.without(2);
        assert!(c.contains(0) && !c.contains(2) && !PolygonCorners::NONE.contains(0));
        assert_eq!(PolygonCorners::ALL.without(9), PolygonCorners::ALL);
    }
}
