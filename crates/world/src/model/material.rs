//! Materials: each body's own restitution, and the restitution of one collision.
//!
//! Restitution `e` scales the normal relative speed of a bounce: the bodies separate along
//! the contact normal at `e` times the speed at which they met (1: elastic, 0: dead, above 1:
//! a kicker that adds speed). Tangential velocities are kept (no friction).
//!
//! - **Whose value.** A ball ([`BallDesc::restitution`]), a rectangle
//!   ([`RectDesc::restitution`]) and the two kinds of grid cell ([`GridDesc::wall_restitution`]
//!   for every [`Cell::Wall`], [`GridDesc::brick_restitution`] for every [`Cell::Brick`]) may
//!   have their own value, finite in `[0, MAX_RESTITUTION]`. One without (`None`) uses the
//!   world's [`StepConfig::restitution`] (in `[0, 1]`), as the world's closed walls always do.
//! - **The pair's value** is the larger of the two bodies' values
//!   ([`mix_restitution`]): Box2D's mixing rule (E. Catto, Box2D v2.4,
//!   `include/box2d/b2_contact.h`, `b2MixRestitution`: "the idea is to allow for anything to
//!   bounce off an inelastic surface; for example, a superball bounces on anything"). A ball
//!   of restitution 0.5 on a tile of the default 1 bounces elastically; a dead ball (0) on a
//!   rubber pad (0.25) leaves at a quarter of its speed.
//! - **The TC rule first.** A body hit again within `1e-4·dt` of its last collision bounces
//!   elastically whatever the materials (`docs/algorithms.md`, "Inelastic collapse").
//! - **Kicks are capped.** With `e > 1` the normal relative speed after the bounce is
//!   `min(e·s, max(s, MAX_KICK_SPEED))` for an incoming normal speed `s`
//!   ([`capped_restitution`]): a bumper adds speed up to [`MAX_KICK_SPEED`], never more, and
//!   never turns into a damper for a body already faster than that (it then bounces
//!   elastically). Two bumpers facing each other cannot pump a ball to an unbounded speed.
//!
//! With no value set anywhere every collision uses [`StepConfig::restitution`], exactly as
//! before materials existed (the same bits, the same [`crate::World::state_hash`]).
//!
//! Conventions as in `collide-core`: units/s, normals from the obstacle toward the moving
//! body.

use crate::grid::Grid;

use crate::model::error::GridError;
use crate::model::cell::Cell;
use crate::model::event::Body;
use crate::model::ids::{BallId, RectId};
use crate::model::limits::MAX_KICK_SPEED;
use crate::model::limits::{Bound, OutOfBounds};
use crate::step::mover::PTarget;
use crate::world::World;
use crate::model::error::WorldError;
use collide_core::{Real, Vec2};

#[cfg(doc)]
use crate::model::desc::{BallDesc, GridDesc, RectDesc, StepConfig};

/// The restitution of a collision between two bodies of restitution `a` and `b`: the larger,
/// Box2D's `b2MixRestitution` (see the module docs). Symmetric; NaN-free for values in
/// `[0, MAX_RESTITUTION]`.
///
/// ```
/// use collide_world::material::mix_restitution;
/// // A superball bounces on anything; a dead ball bounces off a bouncy pad.
/// assert_eq!(mix_restitution(0.5, 1.0), 1.0);
/// assert_eq!(mix_restitution(0.0, 0.25), 0.25);
/// ```
#[must_use]
#[inline]
pub fn mix_restitution(a: Real, b: Real) -> Real {
    a.max(b)
}

/// The restitution a bounce uses when its bodies meet with normal relative speed `speed`
/// (units/s, `>= 0`) and their mixed restitution is `e`: `e` itself when `e <= 1` or the
/// kicked speed `e·speed` stays within `max(speed, MAX_KICK_SPEED)`; else
/// `max(speed, MAX_KICK_SPEED) / speed` (at least 1), so that the normal relative speed
/// after the bounce is `min(e·speed, max(speed, MAX_KICK_SPEED))`.
///
/// ```
/// use collide_world::material::{capped_restitution, MAX_KICK_SPEED};
/// // A bumper of 1.5 hit at 100 units/s sends the ball back at 150.
/// assert_eq!(capped_restitution(1.5, 100.0), 1.5);
/// // Hit at 8000 units/s it would give 12 000: capped at 10 000, e = 10 000 / 8000 = 1.25.
/// assert_eq!(capped_restitution(1.5, 8000.0), MAX_KICK_SPEED / 8000.0);
/// // Hit at 20 000 units/s, faster than the cap: elastic.
/// assert_eq!(capped_restitution(1.5, 20_000.0), 1.0);
/// // Restitution up to 1 is never changed.
/// assert_eq!(capped_restitution(0.5, 1e9), 0.5);
/// ```
#[must_use]
#[inline]
pub fn capped_restitution(e: Real, speed: Real) -> Real {
    if e <= 1.0 || speed <= 0.0 {
        return e;
    }
    let limit = speed.max(MAX_KICK_SPEED);
    if e * speed <= limit {
        e
    } else {
        limit / speed
    }
}

/// The normal speed at which a body of velocity `v` meets a surface moving at `u` with unit
/// normal `n` (toward the body), `-(v - u)·n`, at least 0. With `per_axis` (two boxes, which
/// reflect per axis: `collide_world`'s box responses), the largest such speed along the axes
/// on which `n` has a component, so that each axis's kick is capped.
#[must_use]
#[inline]
pub(crate) fn approach_speed(v: Vec2, u: Vec2, n: Vec2, per_axis: bool) -> Real {
    let r = v - u;
    let s = if per_axis {
        let sx = if n.x == 0.0 { 0.0 } else { -r.x * n.x.signum() };
        let sy = if n.y == 0.0 { 0.0 } else { -r.y * n.y.signum() };
        sx.max(sy)
    } else {
        -r.dot(n)
    };
    s.max(0.0)
}

/// [`capped_restitution`] for a body of velocity `v` meeting a surface moving at `u` along
/// normal `n` (see [`approach_speed`]): the restitution the response uses. Free when
/// `e <= 1`.
#[must_use]
#[inline]
pub(crate) fn kick_capped(e: Real, v: Vec2, u: Vec2, n: Vec2, per_axis: bool) -> Real {
    if e <= 1.0 {
        e
    } else {
        capped_restitution(e, approach_speed(v, u, n, per_axis))
    }
}

/// A body's or cell kind's own restitution: `None`, or finite in `[0, MAX_RESTITUTION]`.
pub(crate) fn check(e: Option<Real>) -> Result<(), OutOfBounds> {
    e.map_or(Ok(()), |e| Bound::Restitution.check(e).map(|_| ()))
}

impl Grid {
    /// The own restitution of every [`Cell::Wall`] of the grid, or `None` (the world's
    /// [`StepConfig::restitution`]). See [`crate::model::material`].
    #[must_use]
    pub fn wall_restitution(&self) -> Option<Real> {
        self.wall_restitution
    }

    /// The own restitution of every [`Cell::Brick`] of the grid (all kinds), or `None` (the
    /// world's [`StepConfig::restitution`]).
    #[must_use]
    pub fn brick_restitution(&self) -> Option<Real> {
        self.brick_restitution
    }

    /// The own restitution of a cell of kind `cell`: [`Grid::wall_restitution`] for a wall,
    /// [`Grid::brick_restitution`] for any brick, `None` for an empty or sensor cell.
    #[must_use]
    pub fn restitution_of(&self, cell: Cell) -> Option<Real> {
        match cell {
            Cell::Empty | Cell::Sensor(_) => None,
            Cell::Wall | Cell::Slope(_) => self.wall_restitution,
            Cell::Brick(_) => self.brick_restitution,
        }
    }

    /// Sets the own restitution of the grid's wall cells and brick cells (`None`: the world's
    /// [`StepConfig::restitution`]).
    ///
    /// # Errors
    /// [`GridError::BadRestitution`] naming the field (`wall_restitution` or
    /// `brick_restitution`) for a value outside [`Bound::Restitution`] (finite, in
    /// `[0, MAX_RESTITUTION]`); the grid is unchanged then.
    pub fn set_restitution(
        &mut self,
        wall: Option<Real>,
        brick: Option<Real>,
    ) -> Result<(), GridError> {
        check_cells(wall, brick)?;
        self.wall_restitution = wall;
        self.brick_restitution = brick;
        Ok(())
    }
}

/// Checks the grid's per-kind values ([`Grid::set_restitution`], [`Grid::new`]).
pub(crate) fn check_cells(wall: Option<Real>, brick: Option<Real>) -> Result<(), GridError> {
    for (field, e) in [("wall_restitution", wall), ("brick_restitution", brick)] {
        check(e).map_err(|e| GridError::BadRestitution {
            field,
            problem: e.to_string(),
        })?;
    }
    Ok(())
}

impl World {
    /// Gives a ball its own restitution (`None`: the world's [`StepConfig::restitution`]),
    /// from the next collision on. See [`crate::model::material`]; [`crate::Ball::restitution`]
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
    /// `restitution`) for a value outside [`Bound::Restitution`] (finite, in
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
    /// [`StepConfig::restitution`]), from the next collision on; [`crate::Rect::restitution`]
    /// reads it back.
    ///
    /// # Errors
    /// [`WorldError::NoSuchBody`] for a stale id, [`WorldError::BadRect`] (field
    /// `restitution`) for a value outside [`Bound::Restitution`]; the rectangle is unchanged
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
        self.rects[i].restitution = restitution;
        Ok(())
    }

    /// Sets the own restitution of the world grid's wall cells and brick cells
    /// ([`Grid::set_restitution`]), from the next collision on.
    ///
    /// # Errors
    /// [`WorldError::Grid`] with [`GridError::BadRestitution`] for a value outside
    /// [`Bound::Restitution`]; [`WorldError::BadSetting`] (field `grid`) when the world has no
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
            || self.rects.iter().any(|r| r.restitution.is_some())
            || self.shapes.iter().any(|s| s.restitution.is_some())
            || self.flippers.iter().any(|f| f.desc.restitution.is_some())
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
        let nb = self.balls.len();
        if m < nb {
            self.ball_restitution_at(m)
        } else {
            self.rects[self.scratch.dyn_rects[m - nb] as usize].restitution
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
            PTarget::Rect(k) => self.rects[k as usize].restitution,
            PTarget::Shape(k) => self.shapes[k as usize].restitution,
            PTarget::Flipper { index, .. } => self.flippers[index as usize].desc.restitution,
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

    /// [`kick_capped`] for mover `m` (velocity `v`, contact normal `n`) meeting `target` when
    /// that is a cell, a closed wall or a static or kinematic rectangle (boxes reflect per
    /// axis); `e` unchanged for another mover, whose velocity at the contact the response
    /// reads itself (it caps there). Free when `e <= 1`.
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
        let per_axis = m >= self.balls.len();
        match target {
            PTarget::Cell(_) | PTarget::Wall(_) | PTarget::Shape(_) => {
                kick_capped(e, v, Vec2::ZERO, n, per_axis)
            }
            PTarget::Rect(k) => kick_capped(e, v, self.rects[k as usize].vel, n, per_axis),
            // A turning flipper's surface velocity depends on the contact point: its response
            // caps there.
            PTarget::Flipper { turning: false, .. } => kick_capped(e, v, Vec2::ZERO, n, per_axis),
            _ => e,
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
            if let Some(e) = r.restitution {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_bounds_the_outgoing_normal_speed() {
        // e·s within the cap: unchanged.
        assert_eq!(capped_restitution(10.0, 1000.0), 10.0);
        // 10·2000 = 20 000 > 10 000: e = 5, out 10 000.
        assert_eq!(capped_restitution(10.0, 2000.0), 5.0);
        // Faster than the cap already: elastic, never slower.
        assert_eq!(capped_restitution(2.0, 3e4), 1.0);
        assert_eq!(capped_restitution(3.0, 0.0), 3.0);
        for e in [0.0, 0.3, 1.0] {
            assert_eq!(capped_restitution(e, 1e8), e);
        }
        // The bound's words name the constant.
        assert_eq!(Bound::Restitution.expected(), "a number between 0 and 10");
        assert_eq!(crate::model::limits::MAX_RESTITUTION, 10.0);
    }

    #[test]
    fn approach_speed_per_axis_takes_the_faster_axis() {
        let n = Vec2::new(-1.0, -1.0);
        // Relative velocity (3, 5) against normals -x and -y: 3 and 5.
        assert_eq!(
            approach_speed(Vec2::new(3.0, 5.0), Vec2::ZERO, n, true),
            5.0
        );
        // Along the unit normal (0, -1): 5; separating: 0.
        let up = Vec2::new(0.0, -1.0);
        assert_eq!(
            approach_speed(Vec2::new(3.0, 5.0), Vec2::ZERO, up, false),
            5.0
        );
        assert_eq!(
            approach_speed(Vec2::new(3.0, -5.0), Vec2::ZERO, up, false),
            0.0
        );
        // Relative to a surface moving at u.
        assert_eq!(
            approach_speed(Vec2::new(0.0, 5.0), Vec2::new(0.0, -2.0), up, false),
            7.0
        );
    }
}
