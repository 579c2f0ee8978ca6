//! Collision layers and masks of balls, rectangles and the grid's cells (`crate::model::filter`): setting, reading and hashing them.

use crate::grid::Grid;
use crate::model::error::WorldError;
use crate::model::event::Body;
use crate::model::filter::{CellKinds, Filter};
use crate::model::ids::{BallId, RectId};
use crate::step::mover::MoverBody;
use crate::world::World;

impl World {
    /// Gives a ball its `layers` and `mask` ([`Filter`]), from the next prediction on (the
    /// next step predicts everything again). [`crate::Ball::filter`] reads it back.
    ///
    /// ```
    /// use collide_world::{BallDesc, Filter, StepConfig, Vec2, Walls, World};
    /// let mut w = World::new(Vec2::new(100.0, 100.0), Walls::ALL, StepConfig::default()).unwrap();
    /// let id = w.add_ball(BallDesc { pos: Vec2::new(50.0, 50.0), ..BallDesc::default() }).unwrap();
    /// w.set_ball_layers(id, 0b10, 0b11).unwrap();
    /// assert_eq!(w.ball(id).unwrap().filter, Filter::new(0b10, 0b11));
    /// ```
    ///
    /// # Errors
    /// [`WorldError::NoSuchBody`] for a stale id; the world is unchanged then.
    pub fn set_ball_layers(
        &mut self,
        id: BallId,
        layers: u32,
        mask: u32,
    ) -> Result<(), WorldError> {
        let i = self
            .ball_slots
            .get(id)
            .ok_or(WorldError::NoSuchBody(Body::Ball(id)))?;
        let f = Filter::new(layers, mask);
        self.edited();
        self.embed_check = true;
        self.scratch.valid = false;
        if self.ball_filter.is_empty() {
            if f.is_default() {
                return Ok(());
            }
            self.ball_filter.resize(self.balls.len(), Filter::DEFAULT);
        }
        self.ball_filter[i] = f;
        Ok(())
    }

    /// Gives a rectangle its `layers` and `mask` ([`Filter`]), from the next prediction on;
    /// [`crate::Rect::surface`] reads it back.
    ///
    /// # Errors
    /// [`WorldError::NoSuchBody`] for a stale id; the world is unchanged then.
    pub fn set_rect_layers(
        &mut self,
        id: RectId,
        layers: u32,
        mask: u32,
    ) -> Result<(), WorldError> {
        let i = self
            .rect_slots
            .get(id)
            .ok_or(WorldError::NoSuchBody(Body::Rect(id)))?;
        self.edited();
        self.embed_check = true;
        self.scratch.valid = false;
        self.rects[i].surface.filter = Filter::new(layers, mask);
        Ok(())
    }

    /// Sets the filters of the world grid's wall cells and brick cells
    /// ([`Grid::set_filters`]), from the next prediction on.
    ///
    /// # Errors
    /// [`WorldError::BadSetting`] (field `grid`) when the world has no grid; nothing changes
    /// then.
    pub fn set_grid_layers(&mut self, wall: Filter, brick: Filter) -> Result<(), WorldError> {
        let Some(grid) = self.grid.as_mut() else {
            return Err(WorldError::BadSetting {
                field: "grid",
                problem: "the world has no grid".to_string(),
            });
        };
        grid.set_filters(wall, brick);
        self.edited();
        self.embed_check = true;
        self.scratch.valid = false;
        self.free_rests_between_steps(|on| matches!(on, crate::body::rest::RestOn::Cell(_)));
        Ok(())
    }

    /// Sets the filter of the world grid's sensor cells ([`Grid::set_sensor_filter`]): which
    /// balls they report, from the next prediction on. A ball inside a sensor cell stays in it
    /// until it leaves.
    ///
    /// # Errors
    /// [`WorldError::BadSetting`] (field `grid`) when the world has no grid; nothing changes
    /// then.
    pub fn set_grid_sensor_layers(&mut self, sensor: Filter) -> Result<(), WorldError> {
        let Some(grid) = self.grid.as_mut() else {
            return Err(WorldError::BadSetting {
                field: "grid",
                problem: "the world has no grid".to_string(),
            });
        };
        grid.set_sensor_filter(sensor);
        self.edited();
        self.scratch.valid = false;
        Ok(())
    }

    /// Ball `i`'s filter (dense index).
    #[inline]
    pub(crate) fn ball_filter_at(&self, i: usize) -> Filter {
        self.ball_filter.get(i).copied().unwrap_or(Filter::DEFAULT)
    }

    /// The cell kinds of `g` that ball `i` (dense index) collides with: one load while every
    /// ball has the default filter.
    #[inline]
    pub(crate) fn ball_kinds(&self, i: usize, g: &Grid) -> CellKinds {
        match self.ball_filter.get(i) {
            None => g.default_kinds,
            Some(&f) => g.kinds_for(f),
        }
    }

    /// Mover `m`'s filter (a ball, or a dynamic rectangle after the balls).
    #[inline]
    pub(crate) fn mover_filter(&self, m: usize) -> Filter {
        match self.mover(m) {
            MoverBody::Ball(i) => self.ball_filter_at(i),
            MoverBody::Rect(k) => self.rects[k].surface.filter,
        }
    }

    /// Keeps `ball_filter` index for index with `balls` after a ball of filter `f` was
    /// pushed: it stays empty while every ball has the default.
    pub(crate) fn ball_filter_pushed(&mut self, f: Filter) {
        if !self.ball_filter.is_empty() || !f.is_default() {
            self.ball_filter
                .resize(self.balls.len() - 1, Filter::DEFAULT);
            self.ball_filter.push(f);
        }
    }

    /// Keeps `ball_filter` index for index with `balls` when ball `i` is swap-removed (call
    /// with the same index as `balls.swap_remove`); returns its filter.
    pub(crate) fn ball_filter_swap_removed(&mut self, i: usize) -> Filter {
        if i < self.ball_filter.len() {
            self.ball_filter.swap_remove(i)
        } else {
            Filter::DEFAULT
        }
    }

    /// Feeds the filters that are not the default to the state hash: a world without any
    /// hashes as it did before filters.
    pub(crate) fn hash_filters(&self, mut word: impl FnMut(u64)) {
        for (b, f) in self.balls.iter().zip(&self.ball_filter) {
            if !f.is_default() {
                word(0x6c61_7962); // "layb"
                word(b.id.to_bits());
                word(f.bits());
            }
        }
        for r in &self.rects {
            if !r.surface.filter.is_default() {
                word(0x6c61_7972); // "layr"
                word(r.id.to_bits());
                word(r.surface.filter.bits());
            }
        }
        if let Some(g) = &self.grid {
            // "layw", "layk".
            // "lays" for sensor cells.
            for (tag, f) in [
                (0x6c61_7977, g.wall_filter),
                (0x6c61_796b, g.brick_filter),
                (0x6c61_7973, g.sensor_filter),
            ] {
                if !f.is_default() {
                    word(tag);
                    word(f.bits());
                }
            }
        }
    }
}
