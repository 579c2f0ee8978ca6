//! Swept (continuous) tests: the exact time of impact (toi) of moving shapes.
//!
//! # The swept circle against a box
//! A disc of radius `r` whose centre moves along `c + vel·t` touches a box `B` exactly when the
//! centre enters the Minkowski sum `B ⊕ disc(r)`: the box grown by `r` with rounded corners,
//! i.e. four face slabs (each face pushed out by `r` along its normal) and four quarter circles
//! of radius `r` around the corners (C. Ericson, *Real-Time Collision Detection*, 2005, §5.5.7
//! "Intersecting moving sphere against AABB"). collide tests the eight features separately:
//! - a **face** is hit when the centre reaches the face's line pushed out by `r`, at a point
//!   whose tangential coordinate lies within the face (ends included): normal = face normal;
//! - a **corner** is hit when the centre comes within `r` of the corner point (the line–circle
//!   quadratic of seed article 000, earlier root), and only if the normal at impact, from the
//!   corner to the centre, points into the corner's exterior quadrant. Other tangencies are the
//!   "fake" ones of seed 000: there the circle would already overlap a face.
//!
//! Every feature can be switched off with a [`Features`] mask. A tile grid passes only the
//! *exposed* faces and *convex* corners of each cell, so that the seam between two adjacent
//! bricks is no obstacle at all (no ghost collision; E. Catto, "Ghost Collisions", 2020).
//!
//! # The quadratic
//! With `m = c - p` (centre relative to the point), `a = vel·vel`, `b = m·vel`,
//! `k = m·m - r²`, the contact times solve `a t² + 2 b t + k = 0`. The earlier root is computed
//! as `t = k / (-b + sqrt(b² - a k))`, which has no cancellation for `b < 0` (Ericson §5.3.2;
//! W. Press et al., *Numerical Recipes*, §5.6). The discriminant itself is evaluated as
//! `b² - a k = a r² - (m × vel)²` (Lagrange's identity), which does not cancel when the path
//! passes close to the point. A tangent path (discriminant exactly 0, `r > 0`) is no hit.
//!
//! All sweeps follow the crate conventions: toi in `[0, max_toi]` in the time unit of `vel`,
//! normal from the obstacle toward the moving body, contact at start counts only when
//! approaching (Bannerman et al. 2014).

use crate::math::{Real, Vec2, FRAC_1_SQRT_2};
use crate::shape::Aabb;

/// A face of a box, named by its side. y grows downward, so [`Face::Top`] is at `min.y` with
/// outward normal `(0, -1)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Face {
    /// The face at `min.x`, outward normal `(-1, 0)`.
    Left,
    /// The face at `max.x`, outward normal `(1, 0)`.
    Right,
    /// The face at `min.y`, outward normal `(0, -1)`.
    Top,
    /// The face at `max.y`, outward normal `(0, 1)`.
    Bottom,
}

impl Face {
    /// All four faces, in the order used for tie-breaking.
    pub const ALL: [Face; 4] = [Face::Left, Face::Right, Face::Top, Face::Bottom];

    /// The outward unit normal of the face.
    #[must_use]
    pub fn normal(self) -> Vec2 {
        match self {
            Face::Left => Vec2::NEG_X,
            Face::Right => Vec2::X,
            Face::Top => Vec2::NEG_Y,
            Face::Bottom => Vec2::Y,
        }
    }

    /// The [`Features`] bit of this face.
    #[must_use]
    pub fn bit(self) -> Features {
        match self {
            Face::Left => Features::LEFT,
            Face::Right => Features::RIGHT,
            Face::Top => Features::TOP,
            Face::Bottom => Features::BOTTOM,
        }
    }

    /// The face's segment on `aabb`.
    #[must_use]
    pub fn segment(self, aabb: &Aabb) -> FaceSegment {
        match self {
            Face::Left => FaceSegment::new(self, aabb.min.x, aabb.min.y, aabb.max.y),
            Face::Right => FaceSegment::new(self, aabb.max.x, aabb.min.y, aabb.max.y),
            Face::Top => FaceSegment::new(self, aabb.min.y, aabb.min.x, aabb.max.x),
            Face::Bottom => FaceSegment::new(self, aabb.max.y, aabb.min.x, aabb.max.x),
        }
    }
}

/// A corner of a box. Its exterior quadrant is the set of normals with the signs of
/// [`Corner::signs`]: the top-left corner's normals point left and up, `(-, -)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Corner {
    /// `(min.x, min.y)`, exterior quadrant `(-, -)`.
    TopLeft,
    /// `(max.x, min.y)`, exterior quadrant `(+, -)`.
    TopRight,
    /// `(min.x, max.y)`, exterior quadrant `(-, +)`.
    BottomLeft,
    /// `(max.x, max.y)`, exterior quadrant `(+, +)`.
    BottomRight,
}

impl Corner {
    /// All four corners, in the order used for tie-breaking.
    pub const ALL: [Corner; 4] = [
        Corner::TopLeft,
        Corner::TopRight,
        Corner::BottomLeft,
        Corner::BottomRight,
    ];

    /// The signs `(sx, sy)` (each ±1) of the corner's exterior quadrant.
    #[must_use]
    pub fn signs(self) -> Vec2 {
        match self {
            Corner::TopLeft => Vec2::new(-1.0, -1.0),
            Corner::TopRight => Vec2::new(1.0, -1.0),
            Corner::BottomLeft => Vec2::new(-1.0, 1.0),
            Corner::BottomRight => Vec2::new(1.0, 1.0),
        }
    }

    /// The corner's point on `aabb`.
    #[must_use]
    pub fn point(self, aabb: &Aabb) -> Vec2 {
        match self {
            Corner::TopLeft => aabb.min,
            Corner::TopRight => Vec2::new(aabb.max.x, aabb.min.y),
            Corner::BottomLeft => Vec2::new(aabb.min.x, aabb.max.y),
            Corner::BottomRight => aabb.max,
        }
    }

    /// The [`Features`] bit of this corner.
    #[must_use]
    pub fn bit(self) -> Features {
        match self {
            Corner::TopLeft => Features::TOP_LEFT,
            Corner::TopRight => Features::TOP_RIGHT,
            Corner::BottomLeft => Features::BOTTOM_LEFT,
            Corner::BottomRight => Features::BOTTOM_RIGHT,
        }
    }
}

/// Which features of a box are obstacles: a bit set of four faces and four corners.
///
/// A lone box has [`Features::ALL`]. A cell of a tile grid has only its *exposed* faces (the
/// neighbour across the face is empty) and its *convex* corners (both neighbours sharing the
/// corner's edges are empty); see `collide-world`'s grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Features(pub u8);

impl Features {
    /// No feature: the box is no obstacle.
    pub const NONE: Features = Features(0);
    /// The left face.
    pub const LEFT: Features = Features(1);
    /// The right face.
    pub const RIGHT: Features = Features(2);
    /// The top face (at `min.y`).
    pub const TOP: Features = Features(4);
    /// The bottom face (at `max.y`).
    pub const BOTTOM: Features = Features(8);
    /// The top-left corner.
    pub const TOP_LEFT: Features = Features(16);
    /// The top-right corner.
    pub const TOP_RIGHT: Features = Features(32);
    /// The bottom-left corner.
    pub const BOTTOM_LEFT: Features = Features(64);
    /// The bottom-right corner.
    pub const BOTTOM_RIGHT: Features = Features(128);
    /// All four faces, no corner.
    pub const FACES: Features = Features(15);
    /// All four corners, no face.
    pub const CORNERS: Features = Features(240);
    /// Every face and corner: a lone box.
    pub const ALL: Features = Features(255);

    /// Whether every bit of `other` is set in `self`.
    #[must_use]
    pub const fn contains(self, other: Features) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether no bit is set.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The union of two masks.
    #[must_use]
    pub const fn union(self, other: Features) -> Features {
        Features(self.0 | other.0)
    }
}

impl std::ops::BitOr for Features {
    type Output = Features;
    fn bitor(self, rhs: Features) -> Features {
        self.union(rhs)
    }
}

/// What was hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Feature {
    /// A flat face of a box; the normal is the face normal.
    Face(Face),
    /// A corner of a box; for a circle the normal runs from the corner to the centre at impact,
    /// for two boxes meeting corner to corner it is the unit diagonal `(sx, sy)/√2`.
    Corner(Corner),
    /// The round surface of another circle; the normal runs from its centre to ours.
    Circle,
}

/// The result of a sweep: when, where and how two shapes first touch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepHit {
    /// Time of impact in `[0, max_toi]`, in the time unit of the velocity passed in.
    pub toi: Real,
    /// Unit contact normal from the obstacle (or body 2) toward the moving body (body 1).
    pub normal: Vec2,
    /// Contact point at impact, on the obstacle's surface (world units).
    pub point: Vec2,
    /// The feature of the obstacle that was hit.
    pub feature: Feature,
}

/// One face of a box as a segment: the line `coord` on the face's axis (x for left/right,
/// y for top/bottom), spanning `[lo, hi]` on the other axis, with the face's outward normal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FaceSegment {
    /// Which face (gives the axis and the outward normal).
    pub face: Face,
    /// Coordinate of the face's line on its normal axis.
    pub coord: Real,
    /// Start of the face along the tangential axis.
    pub lo: Real,
    /// End of the face along the tangential axis (`>= lo`).
    pub hi: Real,
}

impl FaceSegment {
    /// A face segment; `lo <= hi` is expected (not reordered).
    #[must_use]
    pub const fn new(face: Face, coord: Real, lo: Real, hi: Real) -> Self {
        Self {
            face,
            coord,
            lo,
            hi,
        }
    }
}

/// Index of the normal axis (0 = x, 1 = y) and the sign of the outward normal on it.
#[inline]
fn face_axis(face: Face) -> (usize, Real) {
    match face {
        Face::Left => (0, -1.0),
        Face::Right => (0, 1.0),
        Face::Top => (1, -1.0),
        Face::Bottom => (1, 1.0),
    }
}

/// Sweeps a circle (centre `center`, `radius`, velocity `vel`) against one face segment.
///
/// The centre must be on the face's outer side (its signed distance to the face line, along
/// the outward normal, `>= 0`): a centre behind the face line is embedded and gets `None`
/// (resolve embedding with [`crate::contact_circle_aabb`] or the world's push-out). If the
/// circle already touches the face line (distance `<= radius`) and approaches, toi = 0.
/// A hit needs the centre's tangential coordinate at impact within `[lo, hi]`, ends included,
/// so that two adjacent faces leave no gap between them.
///
/// # Returns
/// `None` when the circle does not approach the face (including `vel = 0`), misses it, or would
/// reach it after `max_toi`. Never NaN for finite inputs.
#[must_use]
#[inline]
pub fn sweep_circle_face(
    center: Vec2,
    radius: Real,
    vel: Vec2,
    max_toi: Real,
    face: &FaceSegment,
) -> Option<SweepHit> {
    let (axis, sign) = face_axis(face.face);
    let tangent = 1 - axis;
    let dist = (center[axis] - face.coord) * sign;
    let vn = vel[axis] * sign;
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
    let t = center[tangent] + vel[tangent] * toi;
    if !(t >= face.lo && t <= face.hi) {
        return None;
    }
    let mut point = Vec2::ZERO;
    point[axis] = face.coord;
    point[tangent] = t;
    Some(SweepHit {
        toi,
        normal: face.face.normal(),
        point,
        feature: Feature::Face(face.face),
    })
}

/// The earliest time at which the point `m + vel·t` is at distance `radius` from the origin,
/// and the (unnormalised) position `q = m + vel·toi` then. See [`sweep_circle_point`].
#[inline]
fn point_toi(m: Vec2, radius: Real, vel: Vec2, max_toi: Real) -> Option<(Real, Vec2)> {
    let b = m.dot(vel);
    if !(b < 0.0) {
        return None;
    }
    let k = m.length_squared() - radius * radius;
    let toi = if k <= 0.0 {
        0.0
    } else {
        let a = vel.length_squared();
        // b² − a·k rewritten with Lagrange's identity |m|²|v|² − (m·v)² = (m × v)², so that it
        // does not cancel: for a path through the point (m × v = 0) it is exactly a·r².
        let cross = m.perp_dot(vel);
        let disc = a * (radius * radius) - cross * cross;
        // disc = a·(r² − d²) with d the path's closest approach to the point. disc = 0 with
        // r > 0 is a tangent path: it touches for one instant with purely tangential velocity,
        // which is no hit (the contact rule); with r = 0 it passes through the point: a hit.
        if !(disc > 0.0 || (disc == 0.0 && radius == 0.0)) {
            return None;
        }
        k / (-b + disc.sqrt())
    };
    if !(toi <= max_toi) {
        return None;
    }
    Some((toi, m + vel * toi))
}

/// Sweeps a circle against a solid half-plane: everything behind the line of `face` (on the
/// side opposite its outward normal), e.g. a wall of the world. Unlike a face of a box, the
/// whole region behind the line is solid, so a centre already behind the line (by rounding,
/// or a zero-radius circle) is in contact too: whenever the distance along the normal is
/// `<= radius` and the circle approaches, toi = 0. `face.lo`/`face.hi` are ignored.
///
/// # Returns
/// `None` when the circle does not approach (including `vel = 0`) or would reach the line
/// after `max_toi`. Never NaN for finite inputs.
#[must_use]
#[inline]
pub fn sweep_circle_half_plane(
    center: Vec2,
    radius: Real,
    vel: Vec2,
    max_toi: Real,
    face: &FaceSegment,
) -> Option<SweepHit> {
    let (axis, sign) = face_axis(face.face);
    let tangent = 1 - axis;
    let dist = (center[axis] - face.coord) * sign;
    let vn = vel[axis] * sign;
    if !(vn < 0.0) {
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
    let mut point = Vec2::ZERO;
    point[axis] = face.coord;
    point[tangent] = center[tangent] + vel[tangent] * toi;
    Some(SweepHit {
        toi,
        normal: face.face.normal(),
        point,
        feature: Feature::Face(face.face),
    })
}

/// Sweeps a circle against a point (a disc of `radius` around `point`): the earliest `toi` at
/// which `|center + vel·toi - point| = radius`, and the unit normal from the point to the
/// centre at that time.
///
/// Uses the cancellation-free root `k / (-b + sqrt(b² - a·k))` (see the module docs). If the
/// distance is already `<= radius` and the circle approaches (`(center-point)·vel < 0`), toi = 0.
/// A path tangent to the disc (closest approach exactly `radius > 0`) only grazes it with
/// tangential velocity and is no hit, like touching at the start while moving tangentially.
/// When the centre coincides with the point at impact (zero radius) the normal is `-vel`
/// normalised. Returns `None` for `vel = 0`, a miss, or toi > `max_toi`. Never NaN for
/// finite inputs.
#[must_use]
#[inline]
pub fn sweep_circle_point(
    center: Vec2,
    radius: Real,
    vel: Vec2,
    max_toi: Real,
    point: Vec2,
) -> Option<(Real, Vec2)> {
    let (toi, q) = point_toi(center - point, radius, vel, max_toi)?;
    let len = q.length();
    let normal = if len > 0.0 {
        q / len
    } else {
        -vel / vel.length()
    };
    Some((toi, normal))
}

/// Sweeps a circle against one convex corner of a box: like [`sweep_circle_point`], but the hit
/// only counts when the normal at impact lies in the corner's exterior quadrant (signs of
/// [`Corner::signs`], zero components included). Outside that quadrant the circle meets a face
/// first, or not at all: those are seed 000's "fake" tangencies.
///
/// A zero normal component (exactly on the quadrant's edge) is accepted: there the corner's
/// arc and the neighbouring face give the same normal. A zero-radius circle (a point) that hits
/// the corner point exactly gets the quadrant's unit diagonal `(sx, sy)/√2` as its normal.
#[must_use]
#[inline]
pub fn sweep_circle_corner(
    center: Vec2,
    radius: Real,
    vel: Vec2,
    max_toi: Real,
    corner: Corner,
    point: Vec2,
) -> Option<SweepHit> {
    let (toi, q) = point_toi(center - point, radius, vel, max_toi)?;
    let s = corner.signs();
    if q.x * s.x < 0.0 || q.y * s.y < 0.0 {
        return None;
    }
    let len = q.length();
    // The centre exactly on the corner at impact (a zero radius): the quadrant's diagonal.
    let normal = if len > 0.0 {
        q / len
    } else {
        s * FRAC_1_SQRT_2
    };
    Some(SweepHit {
        toi,
        normal,
        point,
        feature: Feature::Corner(corner),
    })
}

/// Sweeps a circle (centre `center`, `radius`, velocity `vel`) against a static box whose
/// obstacle features are `features`: the Minkowski sum of the box and the disc, faces and
/// quarter-circle corners (see the module docs). Returns the earliest hit in `[0, max_toi]`.
///
/// Ties (equal toi) go to the first feature in the order left, right, top, bottom faces, then
/// top-left, top-right, bottom-left, bottom-right corners. For a moving box, pass the velocity
/// of the circle relative to the box.
///
/// # Example
/// ```
/// use collide_core::{sweep_circle_aabb, Aabb, Features, Vec2};
/// let b = Aabb::new(Vec2::new(10.0, 0.0), Vec2::new(20.0, 10.0));
/// // Centre at x = 0 moving right at 2 units/s, radius 2: the left face grown by 2 is at
/// // x = 8, 8 units away, so toi = 4 s and the normal is (-1, 0).
/// let hit = sweep_circle_aabb(Vec2::new(0.0, 5.0), 2.0, Vec2::new(2.0, 0.0), 10.0, &b, Features::ALL).unwrap();
/// assert_eq!(hit.toi, 4.0);
/// assert_eq!(hit.normal, Vec2::new(-1.0, 0.0));
/// assert_eq!(hit.point, Vec2::new(10.0, 5.0));
/// ```
#[must_use]
pub fn sweep_circle_aabb(
    center: Vec2,
    radius: Real,
    vel: Vec2,
    max_toi: Real,
    aabb: &Aabb,
    features: Features,
) -> Option<SweepHit> {
    let mut best: Option<SweepHit> = None;
    let mut limit = max_toi;
    for face in Face::ALL {
        if features.contains(face.bit()) {
            if let Some(h) = sweep_circle_face(center, radius, vel, limit, &face.segment(aabb)) {
                if best.is_none_or(|b| h.toi < b.toi) {
                    limit = h.toi;
                    best = Some(h);
                }
            }
        }
    }
    for corner in Corner::ALL {
        if features.contains(corner.bit()) {
            let p = corner.point(aabb);
            if let Some(h) = sweep_circle_corner(center, radius, vel, limit, corner, p) {
                if best.is_none_or(|b| h.toi < b.toi) {
                    limit = h.toi;
                    best = Some(h);
                }
            }
        }
    }
    best
}

/// Sweeps two moving circles: body 1 (`c1`, `r1`, `v1`) against body 2 (`c2`, `r2`, `v2`).
/// The earliest toi in `[0, max_toi]` at which the centre distance equals `r1 + r2`.
///
/// Solved as a point sweep of the relative motion `v1 - v2` against a disc of radius `r1 + r2`
/// (the Minkowski sum of the two discs). The normal points from body 2 toward body 1; the
/// contact point lies on body 2's surface at impact, `c2(toi) + normal·r2`. Already touching or
/// overlapping and approaching: toi = 0; separating or at rest relative to each other: `None`.
#[must_use]
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn sweep_circle_circle(
    c1: Vec2,
    r1: Real,
    v1: Vec2,
    c2: Vec2,
    r2: Real,
    v2: Vec2,
    max_toi: Real,
) -> Option<SweepHit> {
    let (toi, normal) = sweep_circle_point(c1, r1 + r2, v1 - v2, max_toi, c2)?;
    let point = c2 + v2 * toi + normal * r2;
    Some(SweepHit {
        toi,
        normal,
        point,
        feature: Feature::Circle,
    })
}

/// The contact of two boxes that already overlap with positive area (by rounding, in a world:
/// deeper overlaps are pushed out before a step): the contact rule on the axis of least
/// penetration. The normal is that axis, pointing from `b` toward `a`; a hit at toi 0 only if
/// the relative velocity `v` approaches along it, else `None` (the boxes separate or slide).
///
/// Found by fuzzing the step: a box sunk 1e-14 into the top face of a tile and moving up
/// was "entering" the tile's bottom face in the slab test's past, so it got a hit with the
/// opposite normal, reflected down, hit the top face again, and so on at the same instant
/// until the world's event bound: the box stuck in the floor for good.
fn overlapping_start(a: &Aabb, b: &Aabb, v: Vec2) -> Option<SweepHit> {
    // Per axis: the smaller of the two pushes that separate a from b, and its direction.
    let axis = |k: usize| -> (Real, Real) {
        let up = b.max[k] - a.min[k];
        let down = a.max[k] - b.min[k];
        if up <= down {
            (up, 1.0)
        } else {
            (down, -1.0)
        }
    };
    let (dx, sx) = axis(0);
    let (dy, sy) = axis(1);
    let approach_x = v.x * sx < 0.0;
    let approach_y = v.y * sy < 0.0;
    // The axis of least penetration; on a tie (overlapping exactly at a corner), the axes the
    // boxes approach on.
    let (on_x, on_y) = if dx < dy {
        (approach_x, false)
    } else if dy < dx {
        (false, approach_y)
    } else {
        (approach_x, approach_y)
    };
    let (normal, feature) = match (on_x, on_y) {
        (false, false) => return None,
        (true, false) => {
            let face = if sx < 0.0 { Face::Left } else { Face::Right };
            (Vec2::new(sx, 0.0), Feature::Face(face))
        }
        (false, true) => {
            let face = if sy < 0.0 { Face::Top } else { Face::Bottom };
            (Vec2::new(0.0, sy), Feature::Face(face))
        }
        (true, true) => {
            let corner = match (sx > 0.0, sy > 0.0) {
                (false, false) => Corner::TopLeft,
                (true, false) => Corner::TopRight,
                (false, true) => Corner::BottomLeft,
                (true, true) => Corner::BottomRight,
            };
            (Vec2::new(sx, sy) * FRAC_1_SQRT_2, Feature::Corner(corner))
        }
    };
    let lo = a.min.max(b.min);
    let hi = a.max.min(b.max);
    Some(SweepHit {
        toi: 0.0,
        normal,
        point: (lo + hi) * 0.5,
        feature,
    })
}

/// Sweeps two moving boxes: `a` with velocity `va` against `b` with velocity `vb`. The earliest
/// toi in `[0, max_toi]` at which they start to overlap with positive area (slab test on the
/// relative motion, Ericson §5.5.8 "Intersecting moving AABB against AABB").
///
/// The axis of impact is the axis whose slab is entered last; this settles seed 003's "which
/// face was hit first" question exactly. If both slabs are entered at the same instant (corner
/// to corner), the feature is a [`Feature::Corner`] of `b` and the normal the unit diagonal:
/// box responses then act on both axes. Boxes that only slide along each other (touching,
/// no relative motion across the shared edge) never hit. Already overlapping (by rounding): the
/// axis of least penetration decides, toi = 0 if approaching along it, else no hit. The normal
/// points from `b` toward `a`; the contact point is the centre of the touching (or
/// overlapping) region at impact.
#[must_use]
pub fn sweep_aabb_aabb(a: &Aabb, va: Vec2, b: &Aabb, vb: Vec2, max_toi: Real) -> Option<SweepHit> {
    let v = va - vb;
    let mut entry = [Real::NEG_INFINITY; 2];
    let mut exit = [Real::INFINITY; 2];
    for k in 0..2 {
        if v[k] > 0.0 {
            entry[k] = (b.min[k] - a.max[k]) / v[k];
            exit[k] = (b.max[k] - a.min[k]) / v[k];
        } else if v[k] < 0.0 {
            entry[k] = (b.max[k] - a.min[k]) / v[k];
            exit[k] = (b.min[k] - a.max[k]) / v[k];
        } else if !(a.max[k] > b.min[k] && a.min[k] < b.max[k]) {
            return None;
        }
    }
    let t_entry = entry[0].max(entry[1]);
    let t_exit = exit[0].min(exit[1]);
    if !(t_entry < t_exit && t_exit > 0.0 && t_entry > Real::NEG_INFINITY) {
        return None;
    }
    if t_entry < 0.0 {
        return overlapping_start(a, b, v);
    }
    let toi = t_entry;
    if !(toi <= max_toi) {
        return None;
    }
    let sx = if v.x > 0.0 { -1.0 } else { 1.0 };
    let sy = if v.y > 0.0 { -1.0 } else { 1.0 };
    let (normal, feature) = if entry[0] == entry[1] {
        let corner = match (sx > 0.0, sy > 0.0) {
            (false, false) => Corner::TopLeft,
            (true, false) => Corner::TopRight,
            (false, true) => Corner::BottomLeft,
            (true, true) => Corner::BottomRight,
        };
        (Vec2::new(sx, sy) * FRAC_1_SQRT_2, Feature::Corner(corner))
    } else if entry[0] > entry[1] {
        let face = if sx < 0.0 { Face::Left } else { Face::Right };
        (Vec2::new(sx, 0.0), Feature::Face(face))
    } else {
        let face = if sy < 0.0 { Face::Top } else { Face::Bottom };
        (Vec2::new(0.0, sy), Feature::Face(face))
    };
    let at = a.translated(va * toi);
    let bt = b.translated(vb * toi);
    let lo = at.min.max(bt.min);
    let hi = at.max.min(bt.max);
    let point = (lo + hi) * 0.5;
    Some(SweepHit {
        toi,
        normal,
        point,
        feature,
    })
}
