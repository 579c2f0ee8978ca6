//! Restitution of balls, rectangles and the grid's cell kinds (`crate::model::material`): setting, reading and hashing it.

use crate::model::error::WorldError;
use crate::model::event::Body;
use crate::model::ids::{BallId, RectId};
use crate::model::material::{check, kick_capped, mix_restitution, speed_capped};
use crate::step::mover::MoverBody;
use crate::step::mover::PTarget;
use crate::world::World;
use collide_core::{Real, Vec2};

impl World {
    /// Gives a ball its own restitution (`None`: the world's [`crate::StepConfig::restitution`]),
    /// from the next collision on. See docs/algorithms.md, "Materials"; [`crate::Ball::restitution`]
    /// reads it back.
    ///
    /// ```
    /// use collide_world::{BallDesc, StepConfig, Vec2, Walls, World};
    /// let mut w = World::new(Vec2::new(100.0, 100.0), Walls::ALL, StepConfig::default()).unwrap();
    /// let id = w.add_ball(BallDesc { pos: Vec2::new(50.0, 50.0), ..BallDesc::default() }).unwrap();
    /// w.set_ball_restitution(id, Some(0.5)).unwrap();
    /// assert_eq!(w.ball(id).unwrap().restitution, Some(0.5));
    /// assert!(w.set_ball_restitution(id, Some(11.0)).is_err()); // above MAX_RESTITUTION
    /// ```
    ///
    /// # Errors
    /// [`WorldError::NoSuchBody`] for a stale id, [`WorldError::BadBall`] (field
    /// `restitution`) for a value outside [`crate::limits::Bound::Restitution`] (finite, in
    /// `[0, MAX_RESTITUTION]`); the ball is unchanged then.
    pub fn set_ball_restitution(
        &mut self,
        id: BallId,
        restitution: Option<Real>,
    ) -> Result<(), WorldError> {
        check(restitution).map_err(|e| WorldError::BadBall {
            field: "restitution",
            problem: e.to_string(),
        })?;
        let i = self
            .ball_slots
            .get(id)
            .ok_or(WorldError::NoSuchBody(Body::Ball(id)))?;
        self.edited();
        if self.ball_restitution.is_empty() {
            if restitution.is_none() {
                return Ok(());
            }
            self.ball_restitution.resize(self.balls.len(), None);
        }
        self.ball_restitution[i] = restitution;
        Ok(())
    }

    /// Gives a rectangle its own restitution (`None`: the world's
    /// [`crate::StepConfig::restitution`]), from the next collision on; [`crate::Rect::surface`]
    /// reads it back.
    ///
    /// # Errors
    /// [`WorldError::NoSuchBody`] for a stale id, [`WorldError::BadRect`] (field
    /// `restitution`) for a value outside [`crate::limits::Bound::Restitution`]; the rectangle is unchanged
    /// then.
    pub fn set_rect_restitution(
        &mut self,
        id: RectId,
        restitution: Option<Real>,
    ) -> Result<(), WorldError> {
        check(restitution).map_err(|e| WorldError::BadRect {
            field: "restitution",
            problem: e.to_string(),
        })?;
        let i = self
            .rect_slots
            .get(id)
            .ok_or(WorldError::NoSuchBody(Body::Rect(id)))?;
        self.edited();
        self.rects[i].surface.restitution = restitution;
        Ok(())
    }

    /// Sets the own restitution of the world grid's wall cells and brick cells
    /// ([`crate::Grid::set_restitution`]), from the next collision on.
    ///
    /// # Errors
    /// [`WorldError::Grid`] with [`crate::GridError::BadRestitution`] for a value outside
    /// [`crate::limits::Bound::Restitution`]; [`WorldError::BadSetting`] (field `grid`) when the world has no
    /// grid. Nothing changes then.
    pub fn set_grid_restitution(
        &mut self,
        wall: Option<Real>,
        brick: Option<Real>,
    ) -> Result<(), WorldError> {
        let Some(grid) = self.grid.as_mut() else {
            return Err(WorldError::BadSetting {
                field: "grid",
                problem: "the world has no grid".to_string(),
            });
        };
        grid.set_restitution(wall, brick)?;
        self.edited();
        Ok(())
    }

    /// Whether any ball, rectangle, shape, flipper or cell kind has its own restitution
    /// (spatial domains do not run then: `domains.rs`; without any, every pair's restitution
    /// is the world's and the step does not look it up per contact).
    pub(crate) fn has_own_restitution(&self) -> bool {
        self.ball_restitution.iter().any(Option::is_some)
            || self.rects.iter().any(|r| r.surface.restitution.is_some())
            || self.shapes.iter().any(|s| s.surface.restitution.is_some())
            || self
                .flippers
                .iter()
                .any(|f| f.desc.surface.restitution.is_some())
            || self
                .grid
                .as_ref()
                .is_some_and(|g| g.wall_restitution.is_some() || g.brick_restitution.is_some())
    }

    /// Ball `i`'s own restitution (dense index).
    #[inline]
    pub(crate) fn ball_restitution_at(&self, i: usize) -> Option<Real> {
        self.ball_restitution.get(i).copied().flatten()
    }

    /// Keeps `ball_restitution` index for index with `balls` after a ball of restitution `e`
    /// was pushed: it stays empty while no ball has a value of its own.
    pub(crate) fn ball_pushed(&mut self, e: Option<Real>) {
        if !self.ball_restitution.is_empty() || e.is_some() {
            self.ball_restitution.resize(self.balls.len() - 1, None);
            self.ball_restitution.push(e);
        }
    }

    /// Keeps `ball_restitution` index for index with `balls` when ball `i` is swap-removed
    /// (call with the same index as `balls.swap_remove`); returns its value.
    pub(crate) fn ball_swap_removed(&mut self, i: usize) -> Option<Real> {
        if i < self.ball_restitution.len() {
            self.ball_restitution.swap_remove(i)
        } else {
            None
        }
    }

    /// Mover `m`'s own restitution (a ball, or a dynamic rectangle after the balls).
    fn mover_restitution(&self, m: usize) -> Option<Real> {
        match self.mover(m) {
            MoverBody::Ball(i) => self.ball_restitution_at(i),
            MoverBody::Rect(k) => self.rects[k].surface.restitution,
        }
    }

    /// The restitution of mover `m`'s collision with `target`, before the TC rule and the
    /// kick cap: the larger of the two bodies' own values, each defaulting to the world's
    /// (closed walls: the world's). Read before the response (a brick hit is still there).
    #[inline]
    pub(crate) fn pair_restitution(&self, m: usize, target: PTarget) -> Real {
        let world = self.config.restitution;
        let other = match target {
            PTarget::Cell(c) => self.grid.as_ref().and_then(|g| {
                if g.wall_restitution.is_none() && g.brick_restitution.is_none() {
                    None
                } else {
                    g.restitution_of(g.cell(c))
                }
            }),
            PTarget::Rect(k) => self.rects[k as usize].surface.restitution,
            PTarget::Shape(k) => self.shapes[k as usize].surface.restitution,
            PTarget::Flipper { index, .. } => {
                self.flippers[index as usize].desc.surface.restitution
            }
            PTarget::Mover(j) => self.mover_restitution(j as usize),
            // Closed walls, and whatever is not a body.
            _ => None,
        };
        let own = self.mover_restitution(m);
        if own.is_none() && other.is_none() {
            return world;
        }
        mix_restitution(own.unwrap_or(world), other.unwrap_or(world))
    }

    /// [`kick_capped`] then [`speed_capped`] for mover `m` (velocity `v`, contact normal `n`)
    /// meeting `target` when that is a cell, a closed wall, a static shape, a held flipper or
    /// a static or kinematic rectangle (boxes reflect per axis); `e` unchanged for another
    /// mover and a turning flipper, whose velocity at the contact the response reads itself
    /// (it caps there). Free when `e <= 1`.
    #[inline]
    pub(crate) fn kick_capped_static(
        &self,
        e: Real,
        m: usize,
        v: Vec2,
        n: Vec2,
        target: PTarget,
    ) -> Real {
        if e <= 1.0 {
            return e;
        }
        let per_axis = !self.is_ball(m);
        let u = match target {
            PTarget::Cell(_) | PTarget::Wall(_) | PTarget::Shape(_) => Vec2::ZERO,
            PTarget::Rect(k) => self.rects[k as usize].vel,
            // A held flipper is still; a turning one's surface velocity depends on the
            // contact point: its response caps there.
            PTarget::Flipper { turning: false, .. } => Vec2::ZERO,
            _ => return e,
        };
        let e = kick_capped(e, v, u, n, per_axis);
        // A box reflects per axis: along an axis normal the bound on speed is the same
        // formula; off a corner (both axes) only the normal parts are capped.
        if !per_axis || n.x == 0.0 || n.y == 0.0 {
            speed_capped(e, v, u, n)
        } else {
            e
        }
    }

    /// Feeds the per-body values to the state hash, only those that are set: a world without
    /// any hashes as it did before materials.
    pub(crate) fn hash_materials(&self, mut word: impl FnMut(u64)) {
        for (b, e) in self.balls.iter().zip(&self.ball_restitution) {
            if let Some(e) = e {
                word(0x6d61_7462); // "matb"
                word(b.id.to_bits());
                word(e.to_bits());
            }
        }
        for r in &self.rects {
            if let Some(e) = r.surface.restitution {
                word(0x6d61_7472); // "matr"
                word(r.id.to_bits());
                word(e.to_bits());
            }
        }
        if let Some(g) = &self.grid {
            // "matw", "matk".
            for (tag, e) in [
                (0x6d61_7477, g.wall_restitution),
                (0x6d61_746b, g.brick_restitution),
            ] {
                if let Some(e) = e {
                    word(tag);
                    word(e.to_bits());
                }
            }
        }
    }
}
