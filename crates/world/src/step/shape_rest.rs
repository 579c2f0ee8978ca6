//! Resting and sliding contact on the static shapes (`crate::body::shape`): a ball (or a box)
//! under gravity lies on a segment, a polyline, a polygon's face or the top of a circle as it
//! does on a tile face (`crate::body::rest`).
//!
//! **Faces.** A shape's faces are numbered (`RestOn::Shape(id, face)`): a segment's face 0 has
//! the normal [`collide_core::Segment::normal`] and face 1 its opposite; a polygon's face `i` is
//! edge `i` with its outward normal [`collide_core::ConvexPolygon::normal`]; a circle holds a
//! ball only at the point where the contact normal is `±x` or `±y` (its face `axis << 1 |
//! positive`, a range of one point: the top of a bumper, an unstable balance that any
//! tangential speed ends). The normal is computed from the shape and the face's number, so a
//! snapshot stores the number and a restore finds the same bits.
//!
//! **The rule** is the tiles' one, for a face of any direction `n`: a bounce whose flight
//! would last less than [`crate::REST_TIME`] ends in rest; the ball's velocity loses its part
//! along `n`, and its acceleration `g − (g·n)·n` slides it along the face on an exact parabola
//! (a straight line when gravity is normal to the face). On a slanted face `n` is not exact in
//! floating point: the path's normal velocity and acceleration are within `1e-16` of their
//! size, so its distance to the face drifts by at most `1e-16·(|v|·t + |g|·t²)`, far below
//! `1e-9` over any step. While held, the ball's search skips the shape that holds it (its
//! other faces and ends cannot be reached while the centre is over the face, the shape being
//! convex), so rounding never makes it meet its own face again. At the face's end the same
//! face of the next shape on the same line takes over (a polyline's straight joint, polygons
//! laid edge to edge), when its normal is the same bits; else it rolls over the corner
//! (`RestOn::Edge`, `crate::body::rest`) and flies free.
//!
//! **Boxes.** The same faces hold a dynamic rectangle: a slanted face by the box's corner
//! that touches it (the one farthest along `−n`), an axis-aligned face while any part of the
//! box's face is over it ([`box_face_range`]: a circle's top point holds a box standing on
//! it, and so does a segment's end or a polygon's vertex under a face of the box, its face
//! numbered from `crate::body::shape::VERTEX_FACES`). While held, the box's search skips the holding shape and every shape with a face on
//! the same line with the same normal bits ([`World::held_shapes`]), and at the face's end
//! such a face takes over (a polyline's straight joint); past the last it flies free (a box
//! has no rounded edge to roll over).

use crate::body::rest::{Rest, RestOn};
use crate::grid::Grid;
use crate::model::ids::ShapeId;
use crate::model::shape_desc::ShapeKind;
use crate::world::World;
use collide_core::{Real, Vec2};

/// How close a contact normal must be to a face's (their dot product at least `1 − this`)
/// for the contact to be on that face; an end point's contact outside the face's range is
/// then refused by the range.
const FACE_DOT: Real = 1e-9;

/// The range of the tangential coordinate (`Rest::along`, for a face of `normal`) over which
/// face `face` of `kind` holds a ball: its edge's, or a circle's one point.
fn face_range(kind: &ShapeKind, face: u8, normal: Vec2) -> (Real, Real) {
    let probe = Rest {
        normal,
        lo: 0.0,
        hi: 0.0,
        on: RestOn::Edge,
    };
    match kind.face_edge(face) {
        Some(e) => {
            let (a, b) = (probe.along(e.a), probe.along(e.b));
            (a.min(b), a.max(b))
        }
        None => {
            let c = kind.face_point(face).map_or(0.0, |p| probe.along(p));
            (c, c)
        }
    }
}

impl World {
    /// The normal of face `face` of shape `id` (see the module docs); `None` if the shape is
    /// gone or has no such face.
    pub(crate) fn shape_face_normal(&self, id: ShapeId, face: u8) -> Option<Vec2> {
        self.shape(id)?.kind.face_normal(face)
    }

    /// The face of solid shape `k` (dense index) a ball touched with contact normal `n`, as
    /// [`World::settle`] takes a tile's: the range of the tangential coordinate over which it
    /// holds the ball, and the face. `None` for a sensor, or a contact at an end point or a
    /// vertex (a normal no face has).
    pub(super) fn shape_rest_face(&self, k: usize, n: Vec2) -> Option<((Real, Real), RestOn)> {
        let sh = self.shapes.get(k)?;
        if sh.surface.sensor {
            return None;
        }
        let face = sh.kind.face_of(n, FACE_DOT)?;
        let normal = sh.kind.face_normal(face)?;
        Some((
            face_range(&sh.kind, face, normal),
            RestOn::Shape(sh.id, face),
        ))
    }

    /// The vertex face of solid shape `k` (dense index) that a box's face of axis-aligned
    /// contact normal `n` touches ([`ShapeKind::vertex_face_of`]): its range (the vertex's
    /// one point, as a circle's top point) and the face. `None` for a sensor, a circle or a
    /// slanted `n`.
    fn shape_vertex_face(&self, k: usize, n: Vec2) -> Option<((Real, Real), RestOn)> {
        let sh = self.shapes.get(k)?;
        if sh.surface.sensor {
            return None;
        }
        let face = sh.kind.vertex_face_of(n)?;
        let normal = sh.kind.face_normal(face)?;
        Some((
            face_range(&sh.kind, face, normal),
            RestOn::Shape(sh.id, face),
        ))
    }

    /// The face of solid shape `k` (dense index) that a dynamic rectangle of half size
    /// `half` touched with contact normal `n`, as [`World::shape_rest_face`] finds a ball's:
    /// the range of the box's centre over which it holds the box ([`box_face_range`]), the
    /// face, and the face's own normal; with no face of that normal, a segment's end or a
    /// polygon's vertex under a face of the box (an axis-aligned `n`) holds it while any part
    /// of that face is over the point, as a circle's top point does. `None` for a sensor, or a
    /// slanted contact with no face's normal (a box's corner against a circle's curved side,
    /// a segment's end or a polygon's vertex).
    pub(super) fn box_shape_rest_face(
        &self,
        k: usize,
        n: Vec2,
        half: Vec2,
    ) -> Option<((Real, Real), RestOn, Vec2)> {
        let (range, on) = self
            .shape_rest_face(k, n)
            .or_else(|| self.shape_vertex_face(k, n))?;
        let RestOn::Shape(id, face) = on else {
            return None;
        };
        let nf = self.shape_face_normal(id, face)?;
        Some((box_face_range(range, nf, half), on, nf))
    }

    /// The shapes a body held by `rest` on a shape's face cannot meet while held: the
    /// holding shape, and when the face is an edge, every shape with a face of the same
    /// normal bits on the same line (within `1e-9·(1 + |line|)`: a polyline's straight
    /// joints, polygons laid edge to edge). Such a shape lies on the far side of the line
    /// (convex, its face outward along the same normal), the body on the near side touching
    /// the line only over the face, so the body reaches it only where the face ends, where
    /// [`World::next_shape_rest`] hands the rest over to it; sweeping it would find a contact
    /// at the joint within rounding of the rest's own end. `None` when `rest` is on no shape.
    pub(super) fn held_shapes(&self, rest: Option<Rest>) -> Option<HeldShapes> {
        let rest = rest?;
        let RestOn::Shape(id, face) = rest.on else {
            return None;
        };
        let line = self
            .shape(id)
            .and_then(|sh| sh.kind.face_edge(face))
            .map(|e| e.a.dot(rest.normal));
        Some(HeldShapes {
            id,
            normal: rest.normal,
            line,
        })
    }

    /// The same face of another shape that continues the face holding a body by `rest` past
    /// the end it reaches (`forward`: the upper one): a face on the same line with the same
    /// normal bits whose range goes on past that end (a polyline's straight joint, polygons
    /// laid edge to edge), that the body (of collision `filter`) collides with; its range a
    /// box's of half size `half` ([`box_face_range`]; `Vec2::ZERO` for a ball, whose range
    /// is the face's). `None` otherwise, or when `rest` is not on a shape's edge.
    pub(crate) fn next_shape_rest(
        &self,
        filter: crate::model::filter::Filter,
        rest: Rest,
        forward: bool,
        half: Vec2,
    ) -> Option<Rest> {
        let RestOn::Shape(id, face) = rest.on else {
            return None;
        };
        let here = self.shape(id)?.kind.face_edge(face)?;
        let end = if forward { rest.hi } else { rest.lo };
        let line = here.a.dot(rest.normal);
        let tol = 1e-9 * (1.0 + end.abs());
        for sh in &self.shapes {
            if sh.id == id || sh.surface.sensor || !filter.collides(sh.surface.filter) {
                continue;
            }
            let Some(f) = sh.kind.face_of(rest.normal, FACE_DOT) else {
                continue;
            };
            let (Some(n), Some(e)) = (sh.kind.face_normal(f), sh.kind.face_edge(f)) else {
                continue;
            };
            if n != rest.normal || (e.a.dot(n) - line).abs() > tol {
                continue;
            }
            let (lo, hi) = box_face_range(face_range(&sh.kind, f, n), n, half);
            let goes_on = if forward {
                lo <= end + tol && hi > end
            } else {
                hi >= end - tol && lo < end
            };
            if goes_on {
                return Some(Rest {
                    lo,
                    hi,
                    on: RestOn::Shape(sh.id, f),
                    ..rest
                });
            }
        }
        None
    }
}

/// Slope cells' diagonals (`crate::model::cell::Cell::Slope`) hold a ball by the same rule: the
/// face's normal is [`collide_core::HalfTile::diagonal_normal`] (exact on a square cell), its range
/// the diagonal's, the held cell is skipped by the ball's grid search while it holds the ball,
/// and at the diagonal's end the next slope cell of the same corner on the same line takes over
/// (a ramp of slope cells is one face).
///
/// They hold a dynamic rectangle the same way, by the corner of the box that touches the
/// diagonal (the one farthest along `−n`): the range is that corner's, moved to the box's
/// centre ([`box_ramp_shift`]); the box's grid search skips the ramp while it is held; past
/// the ramp's end it flies free (a box has no rounded edge to roll over).
impl World {
    /// The half tile of slope cell `c`, or `None` if `c` is no slope.
    fn half_tile(&self, c: crate::model::cell::CellCoord) -> Option<collide_core::HalfTile> {
        let g = self.grid.as_ref()?;
        let solid = match g.cell(c) {
            crate::model::cell::Cell::Slope(s) => s,
            _ => return None,
        };
        Some(collide_core::HalfTile::new(g.cell_aabb(c), solid))
    }

    /// The diagonal's normal of slope cell `c` (`None` if it is no slope).
    pub(crate) fn slope_normal(&self, c: crate::model::cell::CellCoord) -> Option<Vec2> {
        Some(self.half_tile(c)?.diagonal_normal())
    }

    /// The diagonal of slope cell `c` as a face that can hold a ball (see
    /// [`World::shape_rest_face`]): its range along the diagonal, and the face.
    pub(super) fn slope_rest_face(
        &self,
        c: crate::model::cell::CellCoord,
    ) -> Option<((Real, Real), RestOn)> {
        let h = self.half_tile(c)?;
        let probe = Rest {
            normal: h.diagonal_normal(),
            lo: 0.0,
            hi: 0.0,
            on: RestOn::Edge,
        };
        let d = h.diagonal();
        let (a, b) = (probe.along(d.a), probe.along(d.b));
        Some(((a.min(b), a.max(b)), RestOn::Cell(c)))
    }

    /// The diagonal of slope cell `c` as a face that holds a box of half size `half`: the
    /// range of the box's centre along the diagonal ([`World::slope_rest_face`]'s, moved by
    /// [`box_ramp_shift`]), and the face.
    pub(super) fn box_slope_rest_face(
        &self,
        c: crate::model::cell::CellCoord,
        half: Vec2,
    ) -> Option<((Real, Real), RestOn)> {
        let n = self.slope_normal(c)?;
        let ((lo, hi), on) = self.slope_rest_face(c)?;
        let s = box_ramp_shift(n, half);
        Some(((lo + s, hi + s), on))
    }

    /// The slope cell that continues the diagonal holding a body by `rest` past the end it
    /// reaches (`forward`: the upper one): a diagonal neighbour of the same corner (so the
    /// same normal bits) on the same line whose range goes on past that end, of a kind in
    /// `kinds` (the cells the body collides with); its range moved by `shift` (a box's
    /// [`box_ramp_shift`], 0 for a ball). `None` otherwise, or when `rest` is not on a slope's
    /// diagonal.
    pub(crate) fn next_slope_rest(
        &self,
        kinds: crate::model::filter::CellKinds,
        rest: Rest,
        forward: bool,
        shift: Real,
    ) -> Option<Rest> {
        let (RestOn::Cell(c), false) = (rest.on, rest.aligned()) else {
            return None;
        };
        let g = self.grid.as_ref()?;
        let here = self.half_tile(c)?.diagonal();
        let end = if forward { rest.hi } else { rest.lo };
        let line = here.a.dot(rest.normal);
        let tol = 1e-9 * (1.0 + end.abs());
        for (dc, dr) in [(1i64, 1i64), (1, -1), (-1, 1), (-1, -1)] {
            let (nc, nr) = (i64::from(c.col) + dc, i64::from(c.row) + dr);
            if !(nc >= 0 && nr >= 0 && (nc as usize) < g.cols() && (nr as usize) < g.rows()) {
                continue;
            }
            let next = crate::model::cell::CellCoord::new(nc as u32, nr as u32);
            if g.features_for(next, kinds).is_empty() {
                continue;
            }
            let Some(h) = self.half_tile(next) else {
                continue;
            };
            if h.diagonal_normal() != rest.normal
                || (h.diagonal().a.dot(rest.normal) - line).abs() > tol
            {
                continue;
            }
            let Some(((lo, hi), on)) = self.slope_rest_face(next) else {
                continue;
            };
            let (lo, hi) = (lo + shift, hi + shift);
            let goes_on = if forward {
                lo <= end + tol && hi > end
            } else {
                hi >= end - tol && lo < end
            };
            if goes_on {
                return Some(Rest { lo, hi, on, ..rest });
            }
        }
        None
    }
}

/// The shapes a body held on a shape's face skips in its search ([`World::held_shapes`]).
pub(super) struct HeldShapes {
    id: ShapeId,
    normal: Vec2,
    /// The face's line, `a·normal` (`None` for a circle's point).
    line: Option<Real>,
}

impl HeldShapes {
    /// Whether `shape` is one the held body cannot meet (see [`World::held_shapes`]).
    pub(super) fn skips(&self, shape: &crate::body::shape::Shape) -> bool {
        if shape.id == self.id {
            return true;
        }
        let Some(line) = self.line else {
            return false;
        };
        let Some(f) = shape.kind.face_of(self.normal, FACE_DOT) else {
            return false;
        };
        let (Some(n), Some(e)) = (shape.kind.face_normal(f), shape.kind.face_edge(f)) else {
            return false;
        };
        n == self.normal && (e.a.dot(n) - line).abs() <= 1e-9 * (1.0 + line.abs())
    }
}

/// The range of the centre of a box of half size `half` (units) over which a face of unit
/// normal `n` holds it, from the face's own `range` (its points' tangential coordinate,
/// [`Rest::along`]): on an axis-aligned face (`n` is `±x` or `±y`) the face's extent widened
/// by the box's half size across `n` (held while any part of the box's face is over it, as on
/// a tile); on a slanted face the range of the box's corner that touches it moved to the
/// centre ([`box_ramp_shift`]). The face's own range, bit for bit, for `half = 0`.
pub(crate) fn box_face_range(range: (Real, Real), n: Vec2, half: Vec2) -> (Real, Real) {
    if n.x == 0.0 || n.y == 0.0 {
        let h = half[usize::from(n.x != 0.0)];
        (range.0 - h, range.1 + h)
    } else {
        let s = box_ramp_shift(n, half);
        (range.0 + s, range.1 + s)
    }
}

/// How far along a slope's diagonal (its tangential coordinate, [`Rest::along`]) the centre
/// of a box of half size `half` is from the box's corner that touches the diagonal, for the
/// diagonal's outward normal `n`: that corner is `centre − (sign(n.x)·half.x,
/// sign(n.y)·half.y)`, so the centre's range is the corner's moved by this. Zero for a
/// square box.
pub(crate) fn box_ramp_shift(n: Vec2, half: Vec2) -> Real {
    let probe = Rest {
        normal: n,
        lo: 0.0,
        hi: 0.0,
        on: RestOn::Edge,
    };
    probe.along(Vec2::new(n.x.signum() * half.x, n.y.signum() * half.y))
}

impl Rest {
    /// The ramp a body held by this rest lies on, for the grid search to skip
    /// (`Grid::sweep_path_circle_skip`): the slope cell whose diagonal holds it and its
    /// corner; `None` for any other rest.
    pub(crate) fn ramp(
        &self,
        g: &Grid,
    ) -> Option<(crate::model::cell::CellCoord, collide_core::Corner)> {
        match (self.aligned(), self.on) {
            (false, RestOn::Cell(c)) => Some((c, self.on_cell_slope(g)?)),
            _ => None,
        }
    }

    /// The corner of the slope cell whose diagonal holds a body by this rest, if it is one.
    pub(crate) fn on_cell_slope(&self, g: &Grid) -> Option<collide_core::Corner> {
        match self.on {
            RestOn::Cell(c) => match g.cell(c) {
                crate::model::cell::Cell::Slope(s) => Some(s),
                _ => None,
            },
            _ => None,
        }
    }
}
