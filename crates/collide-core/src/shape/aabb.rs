//! [`Aabb`]: an axis-aligned box (a tile, a paddle, a box).

use crate::math::{Real, Vec2};

/// An axis-aligned box: `min` is the top-left corner, `max` the bottom-right (y grows down).
///
/// A valid box has `min.x <= max.x` and `min.y <= max.y`; constructors do not reorder corners,
/// use [`Aabb::from_corners`] for that. Zero width or height is allowed (a segment or a point).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Aabb {
    /// Top-left corner (smallest x and y), world units.
    pub min: Vec2,
    /// Bottom-right corner (largest x and y), world units.
    pub max: Vec2,
}

impl Aabb {
    /// A box from its top-left `min` and bottom-right `max` corners (not reordered).
    #[must_use]
    pub const fn new(min: Vec2, max: Vec2) -> Self {
        Self { min, max }
    }

    /// The box spanned by two opposite corners given in any order.
    #[must_use]
    #[inline]
    pub fn from_corners(a: Vec2, b: Vec2) -> Self {
        Self::new(a.min(b), a.max(b))
    }

    /// A box of half-size `half_extents` (world units, each `>= 0`) centred at `center`.
    #[must_use]
    #[inline]
    pub fn from_center_half_extents(center: Vec2, half_extents: Vec2) -> Self {
        Self::new(center - half_extents, center + half_extents)
    }

    /// Centre of the box.
    #[must_use]
    #[inline]
    pub fn center(&self) -> Vec2 {
        (self.min + self.max) * 0.5
    }

    /// Width and height of the box.
    #[must_use]
    #[inline]
    pub fn size(&self) -> Vec2 {
        self.max - self.min
    }

    /// Half width and half height.
    #[must_use]
    #[inline]
    pub fn half_extents(&self) -> Vec2 {
        self.size() * 0.5
    }

    /// The box moved by `delta`.
    #[must_use]
    #[inline]
    pub fn translated(&self, delta: Vec2) -> Self {
        Self::new(self.min + delta, self.max + delta)
    }

    /// The box grown by `margin` on every side (shrunk for a negative margin).
    #[must_use]
    #[inline]
    pub fn grown(&self, margin: Real) -> Self {
        Self::new(self.min - margin, self.max + margin)
    }

    /// The smallest box containing both boxes.
    #[must_use]
    #[inline]
    pub fn union(&self, other: &Aabb) -> Self {
        Self::new(self.min.min(other.min), self.max.max(other.max))
    }

    /// Whether `other` lies inside this box (boundaries included).
    #[must_use]
    #[inline]
    pub fn contains_aabb(&self, other: &Aabb) -> bool {
        self.min.x <= other.min.x
            && self.min.y <= other.min.y
            && self.max.x >= other.max.x
            && self.max.y >= other.max.y
    }

    /// Whether all four coordinates are finite and `min <= max` on both axes.
    #[must_use]
    #[inline]
    pub fn is_valid(&self) -> bool {
        self.min.is_finite()
            && self.max.is_finite()
            && self.min.x <= self.max.x
            && self.min.y <= self.max.y
    }
}
