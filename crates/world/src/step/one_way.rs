//! One-way platforms for balls and boxes ([`crate::World::set_one_way`]).
//!
//! A rectangle or a static shape marked one-way stops a ball only where the contact normal,
//! from the platform toward the ball, points up (`normal.y < 0`, y down): a ball that meets it
//! from below or from a side passes through it, unchanged and with no event, as a contact
//! hook's [`crate::ContactResponse::Ignore`] would make it (`pass.rs`), until its disc leaves
//! the platform at the exact exit time; met again from above after that, it lands. The rule is
//! the characters' (`step/character/slide.rs`) without their bottom test: a disc whose contact
//! normal points up has its centre above the platform's top face (a rectangle) or above the
//! segment's line, so it meets the platform from above.
//!
//! A dynamic rectangle (a box) meets a one-way rectangle only at an entry from above, its
//! bottom face reaching the platform's top face
//! ([`collide_core::sweep_path::sweep_path_aabb_platform`]), and a one-way segment likewise
//! (`sweep_path_aabb_segment_platform`, `box_shapes.rs`): a box inside the platform, or below
//! or beside it, needs no state to pass through, as the separating axes tell an entry from
//! above from every other.

use super::mover::{PTarget, Prediction};
use crate::model::target::Target;
use crate::step::pass::PassWith;
use crate::world::World;
use collide_core::motion::Path;
use collide_core::sweep_path::sweep_path_aabb_platform;
use collide_core::{Aabb, Real, SweepHit, Vec2};

impl World {
    /// The pass ball `m`'s contact `pred` starts with a one-way platform it meets from below
    /// or a side (module docs), or `None` when the contact happens: `m` is not a ball, the
    /// target is not a one-way platform, or the contact normal points up.
    #[inline(never)]
    pub(super) fn one_way_pass(&self, m: usize, pred: &Prediction) -> Option<PassWith> {
        if pred.normal.y < 0.0 || !self.is_ball(m) {
            return None;
        }
        let (target, with) = match pred.target {
            PTarget::Rect(k) => {
                let id = self.rects[k as usize].id;
                (Target::Rect(id), PassWith::Rect(id))
            }
            PTarget::Shape(k) => {
                let id = self.shapes[k as usize].id;
                (Target::Shape(id), PassWith::Shape(id))
            }
            _ => return None,
        };
        self.is_one_way(target).then_some(with)
    }

    /// Whether rectangle `k` (dense index) is a one-way platform.
    #[inline]
    pub(super) fn one_way_rect(&self, k: usize) -> bool {
        !self.one_way.is_empty() && self.is_one_way(Target::Rect(self.rects[k].id))
    }

    /// The landing of a box `aabb` moving from there with velocity `v` and acceleration `acc`
    /// on the one-way platform `platform` moving with `u`, up to `limit` seconds: the entry
    /// from above of [`sweep_path_aabb_platform`], or `None`.
    #[inline(never)]
    pub(super) fn box_platform_hit(
        &self,
        aabb: &Aabb,
        v: Vec2,
        acc: Vec2,
        platform: &Aabb,
        u: Vec2,
        limit: Real,
    ) -> Option<SweepHit> {
        let mine = Path::ballistic(Vec2::ZERO, v, acc);
        let theirs = Path::linear(Vec2::ZERO, u);
        sweep_path_aabb_platform(aabb, &mine, platform, &theirs, limit)
    }
}
