//! Properties per property, for any body: [`World::set_filter`] and [`World::set_restitution`]
//! take a [`Target`] (a ball, a rectangle, a static shape, a flipper, a character) and set
//! the one property, whatever the body's kind.

use crate::model::error::WorldError;
use crate::model::event::Body;
use crate::model::filter::Filter;
use crate::model::material::check;
use crate::model::target::Target;
use crate::world::World;
use collide_core::Real;

impl World {
    /// Gives a body its collision layers and mask ([`Filter`]), from the next prediction on:
    /// a ball ([`World::set_ball_layers`]), a rectangle ([`World::set_rect_layers`]), a static
    /// shape, a flipper or a character. The grid's cells take [`World::set_grid_layers`].
    ///
    /// ```
    /// use collide_world::{BallDesc, Filter, StepConfig, Target, Vec2, Walls, World};
    /// let mut w = World::new(Vec2::new(100.0, 100.0), Walls::ALL, StepConfig::default()).unwrap();
    /// let id = w.add_ball(BallDesc { pos: Vec2::new(50.0, 50.0), ..BallDesc::default() }).unwrap();
    /// w.set_filter(Target::Ball(id), Filter::new(0b10, 0b01)).unwrap();
    /// assert_eq!(w.ball(id).unwrap().filter, Filter::new(0b10, 0b01));
    /// ```
    ///
    /// # Errors
    /// [`WorldError::NoSuchBody`] for a stale ball, rectangle or character id,
    /// [`WorldError::NoSuchFlipper`] for a stale flipper id, [`WorldError::BadSetting`]
    /// (field `filter`) for a stale shape id, a cell or a wall. Nothing changes then.
    pub fn set_filter(&mut self, target: Target, filter: Filter) -> Result<(), WorldError> {
        match target {
            Target::Ball(id) => self.set_ball_layers(id, filter.layers, filter.mask),
            Target::Rect(id) => self.set_rect_layers(id, filter.layers, filter.mask),
            Target::Shape(id) => {
                let i = self
                    .shape_slots
                    .get(id)
                    .ok_or_else(|| bad_target("filter", target))?;
                self.edited();
                self.embed_check = true;
                self.scratch.valid = false;
                self.shape_index_stale = true;
                self.shapes[i].surface.filter = filter;
                Ok(())
            }
            Target::Flipper(id) => {
                let i = self
                    .flipper_slots
                    .get(id)
                    .ok_or(WorldError::NoSuchFlipper(id))?;
                self.edited();
                self.scratch.valid = false;
                self.flippers[i].desc.surface.filter = filter;
                Ok(())
            }
            Target::Character(id) => {
                let i = self
                    .character_slots
                    .get(id)
                    .ok_or(WorldError::NoSuchBody(Body::Character(id)))?;
                self.characters[i].desc.surface.filter = filter;
                Ok(())
            }
            Target::Cell(_) | Target::Wall(_) => Err(bad_target("filter", target)),
        }
    }

    /// Gives a body its own restitution (`None`: the world's
    /// [`crate::StepConfig::restitution`]), from the next collision on: a ball
    /// ([`World::set_ball_restitution`]), a rectangle ([`World::set_rect_restitution`]), a
    /// static shape or a flipper. The grid's cells take [`World::set_grid_restitution`];
    /// characters do not bounce.
    ///
    /// # Errors
    /// [`WorldError::NoSuchBody`] for a stale ball or rectangle id, [`WorldError::NoSuchFlipper`]
    /// for a stale flipper id, [`WorldError::BadSetting`] (field `restitution`) for a value
    /// outside [`crate::limits::Bound::Restitution`], a stale shape id, a cell, a wall or a
    /// character. Nothing changes then.
    pub fn set_restitution(
        &mut self,
        target: Target,
        restitution: Option<Real>,
    ) -> Result<(), WorldError> {
        match target {
            Target::Ball(id) => return self.set_ball_restitution(id, restitution),
            Target::Rect(id) => return self.set_rect_restitution(id, restitution),
            _ => {}
        }
        check(restitution).map_err(|e| WorldError::BadSetting {
            field: "restitution",
            problem: e.to_string(),
        })?;
        match target {
            Target::Shape(id) => {
                let i = self
                    .shape_slots
                    .get(id)
                    .ok_or_else(|| bad_target("restitution", target))?;
                self.edited();
                self.shapes[i].surface.restitution = restitution;
                Ok(())
            }
            Target::Flipper(id) => {
                let i = self
                    .flipper_slots
                    .get(id)
                    .ok_or(WorldError::NoSuchFlipper(id))?;
                self.edited();
                self.flippers[i].desc.surface.restitution = restitution;
                Ok(())
            }
            _ => Err(bad_target("restitution", target)),
        }
    }
}

/// The error for a property `field` that `target` does not have or that names nothing.
fn bad_target(field: &'static str, target: Target) -> WorldError {
    WorldError::BadSetting {
        field,
        problem: format!(
            "this {} has no own {field} to set here, or no longer exists",
            target_kind(target)
        ),
    }
}

/// A target's kind in words, for error messages.
pub(crate) fn target_kind(t: Target) -> &'static str {
    match t {
        Target::Cell(_) => "cell",
        Target::Ball(_) => "ball",
        Target::Rect(_) => "rectangle",
        Target::Wall(_) => "wall",
        Target::Shape(_) => "static shape",
        Target::Flipper(_) => "flipper",
        Target::Character(_) => "character",
    }
}
