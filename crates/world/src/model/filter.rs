//! Collision layers and masks: which bodies and cell kinds collide with which.
//!
//! Every ball ([`crate::BallDesc::filter`]), rectangle ([`crate::RectDesc::filter`]) and the two kinds of
//! grid cell ([`crate::GridDesc::wall_filter`] for every [`Cell::Wall`], [`crate::GridDesc::brick_filter`]
//! for every [`Cell::Brick`]) has a [`Filter`]: 32 bits of `layers` (what it is) and 32 bits of
//! `mask` (what it collides with).
//!
//! - **The rule.** Two bodies `a` and `b` collide only when
//!   `a.layers & b.mask != 0 && b.layers & a.mask != 0` ([`Filter::collides`]): each must be
//!   on a layer the other looks at. The rule is symmetric. A body on no layer (`layers` 0)
//!   collides with nothing.
//! - **The default** is `layers = 1`, `mask = u32::MAX` ([`Filter::DEFAULT`]): everything
//!   collides with everything, exactly as in a world without filters (the same bits, the same
//!   [`crate::World::state_hash`]).
//! - **The world's closed walls** (the sides of the world rectangle) collide with every body
//!   whatever its filter: they are the world's edge, not a body, and a body that ignored them
//!   would fly off to infinity (an open side, which removes bodies, is the way to let them
//!   go).
//! - **Filtered pairs are never predicted.** The pair search skips a candidate of a filtered
//!   pair before solving anything; a static search leaves out the rectangles a body does not
//!   collide with; the grid walk leaves out the cell kinds it does not collide with. The
//!   push-out of embedded bodies ignores them too, and so does the squeeze rule of kinematic
//!   rectangles. A sensor rectangle reports only the balls it collides with.
//! - **Exposure is per filter.** A cell of a kind a body ignores is empty space for that body:
//!   the faces and corners of its neighbours next to it are exposed for that body (no ghost
//!   collision, no hole). The grid keeps exposed features for each of the (at most three)
//!   sets of cell kinds a body can collide with: walls and bricks, walls only, bricks only
//!   (the last two only while the walls' filter differs from the bricks'; see
//!   [`crate::grid`]).
//! - **Queries** ([`crate::World::cast_circle`], [`crate::World::query_point`],
//!   [`crate::World::query_aabb`] and their [`crate::QueryIndex`] twins) take a [`Filter`] and
//!   report what a body of that filter would collide with: [`Filter::ALL`] reports every body
//!   and cell on some layer; a ball's own filter makes an aim preview see what the ball
//!   would hit.
//!
//! Conventions as in `collide-core`.

use crate::grid::Grid;
use crate::model::cell::Cell;
use crate::model::event::Body;
use crate::model::ids::{BallId, RectId};
use crate::world::World;
use crate::model::error::WorldError;

/// What a body is (`layers`) and what it collides with (`mask`): see [`crate::model::filter`].
///
/// ```
/// use collide_world::Filter;
/// // Players on layer 1, ghosts on layer 2 that pass through players.
/// let player = Filter { layers: 0b01, mask: u32::MAX };
/// let ghost = Filter { layers: 0b10, mask: !0b01 };
/// assert!(!player.collides(ghost)); // ghost.mask & player.layers == 0
/// assert!(ghost.collides(ghost));
/// assert!(Filter::DEFAULT.collides(player));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Filter {
    /// The layers the body is on, one bit each. Default 1 (layer 0).
    pub layers: u32,
    /// The layers the body collides with. Default `u32::MAX` (all).
    pub mask: u32,
}

impl Filter {
    /// Layer 0, colliding with every layer: every body's and cell kind's default.
    pub const DEFAULT: Filter = Filter {
        layers: 1,
        mask: u32::MAX,
    };
    /// Every layer, colliding with every layer: as a query filter, sees every body and cell
    /// that is on some layer.
    pub const ALL: Filter = Filter {
        layers: u32::MAX,
        mask: u32::MAX,
    };
    /// On no layer: collides with nothing.
    pub const NONE: Filter = Filter { layers: 0, mask: 0 };

    /// A filter of `layers` and `mask`.
    #[must_use]
    pub const fn new(layers: u32, mask: u32) -> Filter {
        Filter { layers, mask }
    }

    /// Whether bodies of filters `self` and `other` collide:
    /// `self.layers & other.mask != 0 && other.layers & self.mask != 0` (symmetric).
    #[must_use]
    #[inline]
    pub const fn collides(self, other: Filter) -> bool {
        self.layers & other.mask != 0 && other.layers & self.mask != 0
    }

    /// Whether this is [`Filter::DEFAULT`].
    #[must_use]
    #[inline]
    pub const fn is_default(self) -> bool {
        self.layers == 1 && self.mask == u32::MAX
    }

    /// The filter as one 64-bit word, `layers` in the low half (hash and snapshot).
    pub(crate) const fn bits(self) -> u64 {
        self.layers as u64 | (self.mask as u64) << 32
    }
}

impl Default for Filter {
    fn default() -> Self {
        Filter::DEFAULT
    }
}

/// Which kinds of solid cell a body collides with: a set of [`CellKinds::WALLS`] and
/// [`CellKinds::BRICKS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CellKinds(pub(crate) u8);

impl CellKinds {
    pub(crate) const NONE: CellKinds = CellKinds(0);
    pub(crate) const WALLS: CellKinds = CellKinds(1);
    pub(crate) const BRICKS: CellKinds = CellKinds(2);
    pub(crate) const ALL: CellKinds = CellKinds(3);

    /// Whether a cell of kind `cell` is an obstacle for these kinds.
    #[inline]
    pub(crate) const fn solid(self, cell: Cell) -> bool {
        match cell {
            Cell::Empty | Cell::Sensor(_) => false,
            Cell::Wall | Cell::Slope(_) => self.0 & 1 != 0,
            Cell::Brick(_) => self.0 & 2 != 0,
        }
    }

    #[inline]
    pub(crate) const fn is_none(self) -> bool {
        self.0 == 0
    }
}

impl Grid {
    /// The filter of every [`Cell::Wall`] of the grid ([`Filter::DEFAULT`] unless set).
    #[must_use]
    pub fn wall_filter(&self) -> Filter {
        self.wall_filter
    }

    /// The filter of every [`Cell::Brick`] of the grid, whatever its kind.
    #[must_use]
    pub fn brick_filter(&self) -> Filter {
        self.brick_filter
    }

    /// The filter of every [`Cell::Sensor`] of the grid, whatever its kind.
    #[must_use]
    pub fn sensor_filter(&self) -> Filter {
        self.sensor_filter
    }

    /// Sets the filter of the grid's sensor cells (which balls they report), from the next
    /// prediction on.
    pub fn set_sensor_filter(&mut self, sensor: Filter) {
        self.sensor_filter = sensor;
    }

    /// The filter of a cell of kind `cell` (`None` for an empty cell).
    #[must_use]
    pub fn filter_of(&self, cell: Cell) -> Option<Filter> {
        match cell {
            Cell::Empty => None,
            Cell::Wall | Cell::Slope(_) => Some(self.wall_filter),
            Cell::Brick(_) => Some(self.brick_filter),
            Cell::Sensor(_) => Some(self.sensor_filter),
        }
    }

    /// Sets the filters of the grid's wall cells and brick cells, recomputing the exposed
    /// features kept per set of cell kinds (`O(cells)` when the two filters differ).
    pub fn set_filters(&mut self, wall: Filter, brick: Filter) {
        self.wall_filter = wall;
        self.brick_filter = brick;
        self.refresh_kind_features();
    }

    /// The cell kinds a body of filter `f` collides with.
    #[inline]
    pub(crate) fn kinds_for(&self, f: Filter) -> CellKinds {
        CellKinds(
            u8::from(f.collides(self.wall_filter)) | u8::from(f.collides(self.brick_filter)) << 1,
        )
    }
}

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
    /// [`crate::Rect::filter`] reads it back.
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
        self.rects[i].filter = Filter::new(layers, mask);
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
        self.free_rests_between_steps(|on| matches!(on, crate::step::rest::RestOn::Cell(_)));
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
        let nb = self.balls.len();
        if m < nb {
            self.ball_filter_at(m)
        } else {
            self.rects[self.scratch.dyn_rects[m - nb] as usize].filter
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
            if !r.filter.is_default() {
                word(0x6c61_7972); // "layr"
                word(r.id.to_bits());
                word(r.filter.bits());
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
