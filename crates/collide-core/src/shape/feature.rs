//! The named features of a box: its four [`Face`]s and four [`Corner`]s, the [`Features`] mask
//! of which of them are obstacles, and one face as a segment ([`FaceSegment`]).

use crate::math::{Real, Vec2};
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

    /// The corner diagonally across the box: top-left ↔ bottom-right, top-right ↔
    /// bottom-left (both signs of [`Corner::signs`] flipped).
    ///
    /// ```
    /// use collide_core::Corner;
    /// assert_eq!(Corner::TopLeft.opposite(), Corner::BottomRight);
    /// assert_eq!(Corner::BottomLeft.opposite(), Corner::TopRight);
    /// ```
    #[must_use]
    pub const fn opposite(self) -> Corner {
        match self {
            Corner::TopLeft => Corner::BottomRight,
            Corner::TopRight => Corner::BottomLeft,
            Corner::BottomLeft => Corner::TopRight,
            Corner::BottomRight => Corner::TopLeft,
        }
    }

    /// The corner on the same horizontal side (top or bottom) and the other vertical side:
    /// the neighbour across the box's width.
    pub(crate) const fn flip_x(self) -> Corner {
        match self {
            Corner::TopLeft => Corner::TopRight,
            Corner::TopRight => Corner::TopLeft,
            Corner::BottomLeft => Corner::BottomRight,
            Corner::BottomRight => Corner::BottomLeft,
        }
    }

    /// The corner on the same vertical side (left or right) and the other horizontal side:
    /// the neighbour across the box's height.
    pub(crate) const fn flip_y(self) -> Corner {
        match self {
            Corner::TopLeft => Corner::BottomLeft,
            Corner::TopRight => Corner::BottomRight,
            Corner::BottomLeft => Corner::TopLeft,
            Corner::BottomRight => Corner::TopRight,
        }
    }

    /// The corner whose exterior quadrant has the signs of `(sx, sy)` (`> 0`: right, down).
    pub(crate) fn from_signs(sx: Real, sy: Real) -> Corner {
        match (sx > 0.0, sy > 0.0) {
            (false, false) => Corner::TopLeft,
            (true, false) => Corner::TopRight,
            (false, true) => Corner::BottomLeft,
            (true, true) => Corner::BottomRight,
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
pub(crate) fn face_axis(face: Face) -> (usize, Real) {
    match face {
        Face::Left => (0, -1.0),
        Face::Right => (0, 1.0),
        Face::Top => (1, -1.0),
        Face::Bottom => (1, 1.0),
    }
}
