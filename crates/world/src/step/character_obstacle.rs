//! Characters as obstacles in the event loop ([`crate::CharacterPush`]). Characters move
//! after the event loop (`crate::step::character`), so during it each character that meets
//! balls and boxes (its push is not [`CharacterPush::None`]) is an immovable box where it
//! stands: a ball meets it as a static rectangle (`collide_core::sweep_circle_aabb`, on a
//! parabola `collide_core::sweep_path::sweep_path_circle_aabb`), a box by the separating axes
//! (`collide_core::sweep_aabb_aabb`, on a parabola `sweep_path_aabb_aabb`), at their exact
//! times of impact, and bounces off it with its own restitution (the pair's rule, the
//! character having none), whatever the character's mass: the body keeps its energy as off a
//! wall, and a character knocked back by the momentum would gain energy from nowhere. A
//! character's mass acts when it pushes (`crate::step::character`).

use super::mover::PTarget;
use super::predict::take;
use crate::grid::walk::box_path_bounds;
use crate::model::character_desc::CharacterPush;
use crate::model::event::Body;
use crate::model::hook::{BodyShape, BodyState};
use crate::world::World;
use collide_core::motion::Path;
use collide_core::sweep_path::{sweep_path_aabb_aabb, sweep_path_circle_aabb};
use collide_core::{sweep_aabb_aabb, sweep_circle_aabb, Aabb, Features, Real, SweepHit, Vec2};

impl World {
    /// Whether some character meets balls and boxes (its push is not `None`).
    pub(crate) fn has_pushing_characters(&self) -> bool {
        self.characters
            .iter()
            .any(|c| c.desc.push != CharacterPush::None)
    }

    /// The earliest contact of ball mover `m` on `path` (times from its anchor) with a
    /// character its filter collides with, whose box meets `reach` (the path's bounds), up to
    /// `limit`, kept in `best` by [`take`] (never before `base`).
    pub(super) fn character_hits(
        &self,
        m: usize,
        path: &Path,
        reach: &Aabb,
        base: Real,
        best: &mut Option<(Real, PTarget, SweepHit)>,
        limit: &mut Real,
    ) {
        let radius = self.balls[m].radius;
        let filter = self.ball_filter_at(m);
        for (k, c) in self.characters.iter().enumerate() {
            if c.desc.push == CharacterPush::None || !filter.collides(c.desc.surface.filter) {
                continue;
            }
            let aabb = c.aabb();
            if !collide_core::aabb_overlaps_aabb(reach, &aabb) {
                continue;
            }
            let hit = if path.accel == Vec2::ZERO {
                sweep_circle_aabb(path.p0, radius, path.v0, *limit, &aabb, Features::ALL)
            } else {
                sweep_path_circle_aabb(path, radius, *limit, &aabb, Features::ALL)
            };
            if let Some(h) = hit {
                take(
                    h.toi.max(base),
                    PTarget::Character(k as u32),
                    h,
                    best,
                    limit,
                );
            }
        }
    }

    /// The earliest contact of dynamic rectangle mover `m`, whose box is `aabb` at the start
    /// of its path and moves by `disp` (straight when its acceleration is zero), with a
    /// character its filter collides with, up to `limit`, kept in `best` by [`take`].
    pub(super) fn box_character_hits(
        &self,
        m: usize,
        aabb: &Aabb,
        disp: &Path,
        base: Real,
        best: &mut Option<(Real, PTarget, SweepHit)>,
        limit: &mut Real,
    ) {
        let filter = self.rects[self.rect_index(m)].surface.filter;
        let reach = box_path_bounds(aabb, disp, base, *limit).grown(1e-9);
        let still = Path::default();
        for (k, c) in self.characters.iter().enumerate() {
            if c.desc.push == CharacterPush::None || !filter.collides(c.desc.surface.filter) {
                continue;
            }
            let other = c.aabb();
            if !collide_core::aabb_overlaps_aabb(&reach, &other) {
                continue;
            }
            let hit = if disp.accel == Vec2::ZERO {
                sweep_aabb_aabb(aabb, disp.v0, &other, Vec2::ZERO, *limit)
            } else {
                sweep_path_aabb_aabb(aabb, disp, &other, &still, *limit)
            };
            if let Some(h) = hit {
                take(
                    h.toi.max(base),
                    PTarget::Character(k as u32),
                    h,
                    best,
                    limit,
                );
            }
        }
    }

    /// Character `k` (dense index) as a contact hook sees it during the event loop: its box,
    /// still, of infinite mass (or its own).
    pub(super) fn character_state(&self, k: usize) -> BodyState {
        let c = &self.characters[k];
        BodyState {
            body: Body::Character(c.id),
            shape: BodyShape::Box(c.aabb()),
            vel: Vec2::ZERO,
            mass: match c.desc.push {
                CharacterPush::Mass(m) => m,
                _ => Real::INFINITY,
            },
        }
    }
}
