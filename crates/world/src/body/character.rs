//! The character body ([`Character`]): an axis-aligned box that the game drives and that
//! moves and slides through the level at exact times of impact (no skin gap), stands on ground
//! (tiles, slope cells, shapes, rectangles), rides kinematic rectangles, steps up ledges and
//! snaps down slopes. This file holds its record and the pure rules of ground; the motion is in
//! `crate::step::character` and its API in `crate::world::characters`. See
//! `docs/algorithms.md`, "Character".

use crate::model::character_desc::CharacterDesc;
use crate::model::ids::CharacterId;
use crate::model::target::Target;
use collide_core::{Aabb, Real, Vec2};

/// What a character stands on ([`Character::ground`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ground {
    /// The ground's contact normal (unit, pointing up out of the ground: `normal.y < 0`).
    pub normal: Vec2,
    /// What it stands on: a cell, a rectangle, a static shape, a wall of the world, another
    /// character.
    pub target: Target,
    /// The ground's velocity, units/s (a kinematic rectangle's or a character's; zero for
    /// static ground).
    pub velocity: Vec2,
}

/// A character ([`crate::World::add_character`]): read with [`crate::World::character`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Character {
    /// Stable id.
    pub id: CharacterId,
    /// The box's centre, world units.
    pub pos: Vec2,
    /// The velocity the game set, units/s, as the step left it: gravity added while it falls,
    /// the part into a surface it met removed, along its ground while it walks.
    pub vel: Vec2,
    /// Its description (box size, slope, snap, step height, gravity scale, filter).
    pub desc: CharacterDesc,
    /// The cosine of [`CharacterDesc::max_slope`]: a contact normal `n` is ground when
    /// `-n.y >= walk_cos` (computed once with the crate's deterministic `sin_cos`).
    pub walk_cos: Real,
    /// What it stands on after the last step or move, if anything.
    pub ground: Option<Ground>,
    /// While `true`, one-way platforms ([`crate::World::set_one_way`]) do not hold it: it
    /// drops through them. The game sets and clears it.
    pub drop_through: bool,
}

impl Character {
    /// Its box, world units.
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        let h = self.desc.half_extents;
        Aabb::new(self.pos - h, self.pos + h)
    }

    /// Whether it stands on something.
    #[must_use]
    pub fn on_ground(&self) -> bool {
        self.ground.is_some()
    }

    /// Whether a contact normal (unit, from the surface toward the character) is ground for
    /// it: within [`CharacterDesc::max_slope`] of straight up.
    #[must_use]
    pub fn walkable(&self, normal: Vec2) -> bool {
        -normal.y >= self.walk_cos
    }
}

/// A velocity `v` walking on ground of normal `n` (`n.y < 0`): the point on the ground's line
/// that keeps `v`'s horizontal component, `(v.x, -v.x·n.x/n.y)` (walking up or down a slope at
/// the horizontal speed the game set, as arcade platformers do). The result is tangent to the
/// ground: `n·w = n.x·v.x − n.y·v.x·n.x/n.y = 0`.
#[must_use]
pub(crate) fn along_ground(v: Vec2, n: Vec2) -> Vec2 {
    if n.x == 0.0 {
        Vec2::new(v.x, 0.0)
    } else {
        Vec2::new(v.x, -v.x * n.x / n.y)
    }
}

/// `v` without its part into a surface of normal `n`: `v − min(v·n, 0)·n` (the slide of
/// move and slide; a velocity already leaving the surface is unchanged).
#[must_use]
pub(crate) fn slide(v: Vec2, n: Vec2) -> Vec2 {
    let vn = v.dot(n);
    if vn < 0.0 {
        v - n * vn
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walking_on_a_slope_keeps_the_horizontal_speed_and_the_ground_line() {
        let s = std::f64::consts::FRAC_1_SQRT_2;
        // Ground rising to the right (y down): normal up-left.
        let n = Vec2::new(-s, -s);
        let w = along_ground(Vec2::new(30.0, 0.0), n);
        assert_eq!(w, Vec2::new(30.0, -30.0));
        assert!(w.dot(n).abs() < 1e-12);
        // Level ground drops any vertical part.
        assert_eq!(
            along_ground(Vec2::new(5.0, 7.0), Vec2::new(0.0, -1.0)),
            Vec2::new(5.0, 0.0)
        );
    }

    #[test]
    fn sliding_removes_only_the_part_into_the_surface() {
        let n = Vec2::new(-1.0, 0.0);
        assert_eq!(slide(Vec2::new(4.0, 3.0), n), Vec2::new(0.0, 3.0));
        assert_eq!(slide(Vec2::new(-4.0, 3.0), n), Vec2::new(-4.0, 3.0));
    }
}
