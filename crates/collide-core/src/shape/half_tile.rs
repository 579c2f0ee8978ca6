//! [`HalfTile`]: half of a box cut along a diagonal (a 45° slope cell of a tile map).

use crate::math::{Real, Vec2, FRAC_1_SQRT_2};
use crate::query::overlap::closest_point_on_segment;
use crate::shape::feature::{Corner, Face};
use crate::shape::{Aabb, Segment};

/// Half of a box cut along a diagonal: the right triangle whose right angle is the box's
/// corner `solid` and whose other two vertices are the two box corners adjacent to it.
///
/// On a square cell it is a right isosceles triangle, a 45° slope: `solid: BottomLeft` is a
/// slope rising to the left (its slanted face looks up and right). The triangle is closed
/// (boundary included). Its three edges are the two *legs*, the faces of the box touching
/// `solid` ([`HalfTile::legs`]), and the *diagonal* between the two other vertices
/// ([`HalfTile::diagonal`]), whose outward normal points away from `solid`
/// ([`HalfTile::diagonal_normal`]). The corner opposite `solid` is not part of the triangle.
/// A box of zero width or height gives a degenerate triangle (a segment or a point); every
/// method stays finite for it.
///
/// ```
/// use collide_core::{Aabb, Corner, Face, HalfTile, Vec2};
/// // The cell [0, 10]², solid in its bottom-left corner (y down): the vertices (0, 10) (the
/// // right angle), (0, 0) and (10, 10); the diagonal y = x from (10, 10) to (0, 0).
/// let t = HalfTile::new(Aabb::new(Vec2::ZERO, Vec2::splat(10.0)), Corner::BottomLeft);
/// assert_eq!(t.legs(), [Face::Left, Face::Bottom]);
/// assert!(t.contains_point(Vec2::new(2.0, 8.0)));
/// assert!(!t.contains_point(Vec2::new(8.0, 2.0)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HalfTile {
    /// The box that is cut in half (world units).
    pub aabb: Aabb,
    /// The box corner at the triangle's right angle: the solid half contains it.
    pub solid: Corner,
}

impl HalfTile {
    /// The half of `aabb` that contains its corner `solid`.
    #[must_use]
    pub const fn new(aabb: Aabb, solid: Corner) -> Self {
        Self { aabb, solid }
    }

    /// The two faces of the box along the legs (the faces touching `solid`), the vertical one
    /// first: `BottomLeft -> [Left, Bottom]`, `TopRight -> [Right, Top]`.
    ///
    /// ```
    /// use collide_core::{Aabb, Corner, Face, HalfTile, Vec2};
    /// let t = HalfTile::new(Aabb::new(Vec2::ZERO, Vec2::ONE), Corner::TopRight);
    /// assert_eq!(t.legs(), [Face::Right, Face::Top]);
    /// ```
    #[must_use]
    pub fn legs(&self) -> [Face; 2] {
        let s = self.solid.signs();
        let x = if s.x < 0.0 { Face::Left } else { Face::Right };
        let y = if s.y < 0.0 { Face::Top } else { Face::Bottom };
        [x, y]
    }

    /// The three box corners that are vertices: `solid` and its two neighbours (never the
    /// opposite corner), in the order of [`Corner::ALL`] (the order of ties in the sweeps).
    ///
    /// ```
    /// use collide_core::{Aabb, Corner, HalfTile, Vec2};
    /// let t = HalfTile::new(Aabb::new(Vec2::ZERO, Vec2::ONE), Corner::BottomLeft);
    /// // Every corner but the opposite one, top-right.
    /// assert_eq!(t.vertices(), [Corner::TopLeft, Corner::BottomLeft, Corner::BottomRight]);
    /// ```
    #[must_use]
    pub fn vertices(&self) -> [Corner; 3] {
        let skip = self.solid.opposite();
        let mut out = [self.solid; 3];
        let mut i = 0;
        for c in Corner::ALL {
            if c != skip {
                out[i] = c;
                i += 1;
            }
        }
        out
    }

    /// The diagonal as a [`Segment`] between the two non-solid vertices, oriented so that the
    /// segment's normal ([`Segment::normal`]) is [`HalfTile::diagonal_normal`] (up to
    /// rounding): it runs counter-clockwise on the screen around the triangle.
    ///
    /// ```
    /// use collide_core::{Aabb, Corner, HalfTile, Segment, Vec2};
    /// // Solid bottom-left of [0, 10]²: from (10, 10) to (0, 0); (b − a).perp() =
    /// // (−10, −10).perp() = (10, −10), the direction of the outward normal (1, −1)/√2.
    /// let t = HalfTile::new(Aabb::new(Vec2::ZERO, Vec2::splat(10.0)), Corner::BottomLeft);
    /// assert_eq!(t.diagonal(), Segment::new(Vec2::new(10.0, 10.0), Vec2::new(0.0, 0.0)));
    /// ```
    #[must_use]
    pub fn diagonal(&self) -> Segment {
        let s = self.solid.signs();
        let nx = self.solid.flip_x().point(&self.aabb);
        let ny = self.solid.flip_y().point(&self.aabb);
        // With m = (−sx·h, −sy·w) the outward direction, (b − a).perp() ∝ m needs
        // b − a = (−sy·w, sx·h): from the x-neighbour to the y-neighbour when sx ≠ sy.
        if s.x == s.y {
            Segment::new(ny, nx)
        } else {
            Segment::new(nx, ny)
        }
    }

    /// Unit outward normal of the diagonal (pointing away from `solid`, into the empty half):
    /// `(−sx·h, −sy·w)/√(w² + h²)` for a box of width `w` and height `h` and the signs
    /// `(sx, sy)` of [`Corner::signs`]. On a square box it is exactly `(−sx, −sy)·FRAC_1_SQRT_2`
    /// (no `sqrt` rounding). Never NaN: a box of zero size gives the square's value.
    ///
    /// ```
    /// use collide_core::{Aabb, Corner, HalfTile, Vec2, FRAC_1_SQRT_2};
    /// let t = HalfTile::new(Aabb::new(Vec2::ZERO, Vec2::splat(10.0)), Corner::BottomLeft);
    /// // Away from the bottom-left corner: right and up (y down).
    /// assert_eq!(t.diagonal_normal(), Vec2::new(FRAC_1_SQRT_2, -FRAC_1_SQRT_2));
    /// // A 30 × 40 box, solid top-left: (−(−1)·40, −(−1)·30)/50 = (0.8, 0.6).
    /// let r = HalfTile::new(Aabb::new(Vec2::ZERO, Vec2::new(30.0, 40.0)), Corner::TopLeft);
    /// assert!((r.diagonal_normal() - Vec2::new(0.8, 0.6)).length() < 1e-15);
    /// ```
    #[must_use]
    pub fn diagonal_normal(&self) -> Vec2 {
        let s = self.solid.signs();
        let size = self.aabb.size();
        if size.x == size.y {
            return -s * FRAC_1_SQRT_2;
        }
        let m = self.outward();
        m / m.length()
    }

    /// The unnormalised outward normal of the diagonal, `(−sx·h, −sy·w)` (`(−sx, −sy)` on a
    /// square box): the direction of [`HalfTile::diagonal_normal`], for exact projections.
    pub(crate) fn outward(&self) -> Vec2 {
        let s = self.solid.signs();
        let size = self.aabb.size();
        if size.x == size.y {
            -s
        } else {
            Vec2::new(-s.x * size.y, -s.y * size.x)
        }
    }

    /// The coordinates of `p` measured from `solid` into the box, `(ux, vy)` (both `>= 0`
    /// inside), and the box's `(w, h)`: `p` is in the triangle when `ux >= 0`, `vy >= 0` and
    /// `ux·h + vy·w <= w·h`.
    fn local(&self, p: Vec2) -> (Real, Real, Real, Real) {
        let s = self.solid.signs();
        let c = self.solid.point(&self.aabb);
        let size = self.aabb.size();
        ((c.x - p.x) * s.x, (c.y - p.y) * s.y, size.x, size.y)
    }

    /// Whether `p` lies in the closed triangle (boundary included).
    ///
    /// ```
    /// use collide_core::{Aabb, Corner, HalfTile, Vec2};
    /// let t = HalfTile::new(Aabb::new(Vec2::ZERO, Vec2::splat(10.0)), Corner::BottomLeft);
    /// // The solid half is y >= x: (5, 5) is on the diagonal, (6, 5) just outside.
    /// assert!(t.contains_point(Vec2::new(5.0, 5.0)));
    /// assert!(!t.contains_point(Vec2::new(6.0, 5.0)));
    /// ```
    #[must_use]
    pub fn contains_point(&self, p: Vec2) -> bool {
        let (ux, vy, w, h) = self.local(p);
        ux >= 0.0 && vy >= 0.0 && ux * h + vy * w <= w * h
    }

    /// Whether `p` lies strictly inside the triangle (not on its boundary).
    pub(crate) fn contains_point_strictly(&self, p: Vec2) -> bool {
        let (ux, vy, w, h) = self.local(p);
        ux > 0.0 && vy > 0.0 && ux * h + vy * w < w * h
    }

    /// The three edges as segments: the legs (in the order of [`HalfTile::legs`]), then the
    /// diagonal.
    pub(crate) fn edges(&self) -> [Segment; 3] {
        let sp = self.solid.point(&self.aabb);
        // The vertical leg runs from `solid` to its y-neighbour, the horizontal one to its
        // x-neighbour.
        [
            Segment::new(sp, self.solid.flip_y().point(&self.aabb)),
            Segment::new(sp, self.solid.flip_x().point(&self.aabb)),
            self.diagonal(),
        ]
    }

    /// The point of the closed triangle nearest to `p`: `p` itself when inside, otherwise the
    /// nearest of the clamped projections onto the three edges (C. Ericson, *Real-Time
    /// Collision Detection*, 2005, §5.1.2 for each edge; ties go to the legs, then the
    /// diagonal). Never NaN for finite inputs.
    ///
    /// ```
    /// use collide_core::{Aabb, Corner, HalfTile, Vec2};
    /// let t = HalfTile::new(Aabb::new(Vec2::ZERO, Vec2::splat(10.0)), Corner::BottomLeft);
    /// // (8, 2) is in the empty half: its foot on the line y = x is ((8 + 2)/2, (8 + 2)/2).
    /// assert_eq!(t.closest_point(Vec2::new(8.0, 2.0)), Vec2::new(5.0, 5.0));
    /// // (−3, 4) is left of the left leg: clamped onto it at (0, 4).
    /// assert_eq!(t.closest_point(Vec2::new(-3.0, 4.0)), Vec2::new(0.0, 4.0));
    /// assert_eq!(t.closest_point(Vec2::new(1.0, 9.0)), Vec2::new(1.0, 9.0));
    /// ```
    #[must_use]
    pub fn closest_point(&self, p: Vec2) -> Vec2 {
        if self.contains_point(p) {
            return p;
        }
        let mut best = self.aabb.min;
        let mut best_d2 = Real::INFINITY;
        for e in self.edges() {
            let q = closest_point_on_segment(p, &e).0;
            let d2 = (p - q).length_squared();
            if d2 < best_d2 {
                best_d2 = d2;
                best = q;
            }
        }
        best
    }

    /// The unnormalised directions of the two edges leaving the vertex `corner` (one of
    /// [`HalfTile::vertices`]); `None` for the corner opposite `solid`.
    pub(crate) fn vertex_edges(&self, corner: Corner) -> Option<[Vec2; 2]> {
        let s = self.solid.point(&self.aabb);
        let nx = self.solid.flip_x().point(&self.aabb);
        let ny = self.solid.flip_y().point(&self.aabb);
        if corner == self.solid {
            Some([nx - s, ny - s])
        } else if corner == self.solid.flip_x() {
            Some([s - nx, ny - nx])
        } else if corner == self.solid.flip_y() {
            Some([s - ny, nx - ny])
        } else {
            None
        }
    }

    /// Whether the offset `q` from the vertex `corner` lies in the vertex's exterior normal
    /// cone: `q·e <= 0` for both edge directions `e` leaving it (the quadrant of
    /// [`Corner::signs`] at `solid`, a 135° cone at the ends of the diagonal).
    pub(crate) fn in_vertex_cone(&self, corner: Corner, q: Vec2) -> bool {
        match self.vertex_edges(corner) {
            Some([e1, e2]) => q.dot(e1) <= 0.0 && q.dot(e2) <= 0.0,
            None => false,
        }
    }

    /// The unit normal at the vertex `corner` for an offset `q` in its cone: `q/|q|`, or for
    /// `q = 0` (a zero radius reaching the vertex itself) the quadrant's diagonal at `solid`
    /// and the diagonal's normal at its ends.
    pub(crate) fn vertex_normal(&self, corner: Corner, q: Vec2) -> Vec2 {
        let len = q.length();
        if len > 0.0 {
            q / len
        } else if corner == self.solid {
            corner.signs() * FRAC_1_SQRT_2
        } else {
            self.diagonal_normal()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(solid: Corner) -> HalfTile {
        HalfTile::new(Aabb::new(Vec2::new(0.0, 0.0), Vec2::new(10.0, 10.0)), solid)
    }

    #[test]
    fn the_diagonal_normal_is_the_segment_normal_and_points_away_from_solid() {
        for solid in Corner::ALL {
            for size in [
                Vec2::splat(10.0),
                Vec2::new(30.0, 40.0),
                Vec2::new(7.0, 2.0),
            ] {
                let t = HalfTile::new(
                    Aabb::new(Vec2::new(1.0, -2.0), Vec2::new(1.0, -2.0) + size),
                    solid,
                );
                let n = t.diagonal_normal();
                let seg = t.diagonal();
                assert!((seg.normal().unwrap() - n).length() < 1e-15, "{solid:?}");
                assert!((solid.point(&t.aabb) - seg.a).dot(n) < 0.0);
                assert!((solid.opposite().point(&t.aabb) - seg.a).dot(n) > 0.0);
                assert!(!t.vertices().contains(&solid.opposite()));
                assert!(t.vertices().contains(&solid));
            }
        }
    }

    #[test]
    fn legs_touch_the_solid_corner() {
        assert_eq!(cell(Corner::TopLeft).legs(), [Face::Left, Face::Top]);
        assert_eq!(
            cell(Corner::BottomRight).legs(),
            [Face::Right, Face::Bottom]
        );
        for solid in Corner::ALL {
            let t = cell(solid);
            let p = solid.point(&t.aabb);
            for f in t.legs() {
                let seg = f.segment(&t.aabb);
                let (axis, _) = crate::shape::feature::face_axis(f);
                assert_eq!(p[axis], seg.coord);
            }
        }
    }

    #[test]
    fn contains_and_closest_point_on_each_orientation() {
        // Solid top-right of [0, 10]²: the solid half is x >= y. (9, 1) inside, (1, 9) not;
        // the foot of (1, 9) on x = y is (5, 5).
        let t = cell(Corner::TopRight);
        assert!(t.contains_point(Vec2::new(9.0, 1.0)));
        assert!(!t.contains_point(Vec2::new(1.0, 9.0)));
        assert_eq!(t.closest_point(Vec2::new(1.0, 9.0)), Vec2::new(5.0, 5.0));
        // Beyond the opposite corner (−1, 11): nearest is the diagonal's foot (5, 5) again.
        assert_eq!(t.closest_point(Vec2::new(-1.0, 11.0)), Vec2::new(5.0, 5.0));
        // Beyond the end vertex (0, 0) in its 135° cone: the vertex itself.
        assert_eq!(t.closest_point(Vec2::new(-3.0, -1.0)), Vec2::new(0.0, 0.0));
    }
}
