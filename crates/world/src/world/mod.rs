//! The world: a tile grid, balls and rectangles in a world rectangle, advanced by
//! [`World::step`] (see `step/mod.rs`).

use crate::body::ball::Ball;
use crate::body::ball::BallRec;
use crate::body::ball::Balls;
use crate::body::rect::Rect;
use crate::model::error::WorldError;
use crate::world::validate::{
    check_ball_vec2, validate_aabb, validate_ball, validate_config, validate_rect, vec2_problem,
};
pub(crate) mod box_cast;
mod characters;
mod flippers;
mod gravity_scale;
mod layers;
mod materials;
mod measure;
pub(crate) mod query;
pub(crate) mod query_index;
mod rect_path;
pub(crate) mod rect_sensor;
mod shapes;
mod sleep;
pub(crate) mod snapshot;
mod spawn;
pub(crate) mod surface;
pub(crate) mod validate;

use crate::body::rest::Rest;
use crate::body::rest::RestOn;
use crate::grid::Grid;
use crate::model::cell::Cell;
use crate::model::cell::CellCoord;
use crate::model::desc::{BallDesc, RectDesc, RectKind, Scene, StepConfig, Walls};
use crate::model::event::{Body, Event};
use crate::model::filter::Filter;
use crate::model::ids::{BallId, RectId, Slots};
use crate::model::limits::{self, Bound};
use crate::step::scratch::Scratch;
use collide_core::{Aabb, Real, Vec2};

/// Random spawning gives up after this many failed placements in a row.
pub const MAX_SPAWN_FAILS_IN_A_ROW: u64 = 200_000;

/// The simulated world. Build it from a [`Scene`] ([`World::from_scene`]) or empty
/// ([`World::new`]) and add bodies; advance it with [`World::step`].
#[derive(Clone, Debug)]
pub struct World {
    pub(crate) size: Vec2,
    pub(crate) walls: Walls,
    pub(crate) grid: Option<Grid>,
    pub(crate) balls: Vec<BallRec>,
    /// What holds each ball against gravity (index for index with `balls`): `None` in free
    /// flight (`rest.rs`). Part of the state.
    pub(crate) ball_rest: Vec<Option<Rest>>,
    /// Each ball's count of slow inelastic contacts in a row (index for index with `balls`;
    /// `sleep.rs`). Part of the state.
    pub(crate) ball_slow: Vec<crate::step::sleep::Slow>,
    /// The TC rule's memory at the last step's end (`step/keep.rs`): each body hit within the
    /// rule's window before it, with the time and normal of that hit, sorted by body; kept only
    /// while some restitution is below 1. Part of the state (snapshots keep it), so that a
    /// rebuild of the step's records after an edit or a restore remembers what the step's own
    /// records did.
    pub(crate) tc_memory: Vec<(Body, Real, Vec2)>,
    /// Each ball's own restitution, index for index with `balls`, or empty while no ball has
    /// one (`material.rs`; kept outside the 64-byte records).
    pub(crate) ball_restitution: Vec<Option<Real>>,
    /// Each ball's filter, index for index with `balls`, or empty while every ball has the
    /// default (`layers.rs`).
    pub(crate) ball_filter: Vec<Filter>,
    /// Each ball's multiple of the world's gravity, index for index with `balls`, or empty
    /// while every ball's is 1 (`ball_gravity.rs`).
    pub(crate) ball_gravity: Vec<Real>,
    pub(crate) ball_slots: Slots,
    pub(crate) rects: Vec<Rect>,
    /// Each rectangle's box and the absolute time when its velocity or place last changed
    /// (index for index with `rects`; set by the API for every kind, by the step for dynamic
    /// rectangles at their collisions, push-outs and iteration stops). A moving rectangle is
    /// at `box + vel·(t − time)` at time `t`: its path is anchored as a ball's is, so its
    /// contacts are solved the same way whenever they are searched (`step/contact.rs`), and its
    /// place does not accumulate per-event rounding. The third field is the velocity at that
    /// time: `vel` for every rectangle but a dynamic one under gravity, which follows the
    /// parabola `box + v0·τ + ½·a·τ²` from there ([`World::rect_box_at`]).
    pub(crate) rect_anchor: Vec<(Aabb, Real, Vec2)>,
    /// What holds each rectangle against gravity (index for index with `rects`): `None` in
    /// free flight and for every rectangle but a dynamic one (`rest.rs`). Part of the state.
    pub(crate) rect_rest: Vec<Option<Rest>>,
    /// Each rectangle's count of slow inelastic contacts in a row (index for index with
    /// `rects`; only dynamic rectangles count, `sleep.rs`). Part of the state.
    pub(crate) rect_slow: Vec<crate::step::sleep::Slow>,
    pub(crate) rect_slots: Slots,
    pub(crate) config: StepConfig,
    pub(crate) events: Vec<Event>,
    pub(crate) steps: u64,
    pub(crate) scratch: Scratch,
    /// Simulated time since the world was built, seconds.
    pub(crate) time: Real,
    /// Something may have left a body embedded (an edit, or a body stopped at the iteration
    /// bound): the next step checks every body. Continuous collision keeps the others free.
    pub(crate) embed_check: bool,
    /// Balls moved between steps ([`World::set_ball_position`], dense indices): the next
    /// step checks them (every body when `embed_check`).
    pub(crate) embed_some: Vec<usize>,
    /// Worker threads the step may use (1: the calling thread only). Not part of the state:
    /// results are bit-identical for every value.
    pub(crate) threads: usize,
    /// For each event of `events`, the absolute time of the queue event that reported it
    /// (the canonical order of events, `World::order_events`).
    pub(crate) event_times: Vec<Real>,
    /// The world cut into spatial domains stepped on several threads (`domains.rs`), kept
    /// between steps while nothing edits the world.
    pub(crate) domains: Option<Box<crate::step::domains::Domains<World>>>,
    /// Steps taken in domains, and domain steps that failed their check and ran serially.
    pub(crate) domain_steps: (u64, u64),
    /// `steps` at the last edit between steps (`World::edited`).
    pub(crate) last_edit: u64,
    /// Bodies moving with a kinematic rectangle that squeezes them (`squeeze.rs`): part of
    /// the state (kept across steps), usually empty.
    pub(crate) carries: Vec<crate::step::squeeze::Carry>,
    /// Balls for which a push-out found no free position anywhere (a cache: cleared by every
    /// edit and every destroyed brick; not used while a rectangle moves).
    pub(crate) unplaceable: Vec<BallId>,
    /// Balls overlapping a sensor or passing through a body whose contact a hook ignored
    /// (`pass.rs`): part of the state, sorted by ball id, usually empty.
    pub(crate) passes: Vec<crate::step::pass::Pass>,
    /// Rectangles overlapping sensor rectangles, `(sensor, rectangle)` sorted
    /// (`rect_sensor.rs`): part of the state, usually empty.
    pub(crate) sensor_rects: Vec<(RectId, RectId)>,
    /// Static shapes: segments, circles, polygons (`shapes.rs`), and their id slots.
    pub(crate) shapes: Vec<crate::body::shape::Shape>,
    pub(crate) shape_slots: Slots,
    /// The grid over the shapes' boxes (`shape_index.rs`), built at a step's start after the
    /// shapes changed (`shape_index_stale`).
    pub(crate) shape_index: crate::body::shape_index::ShapeIndex,
    pub(crate) shape_index_stale: bool,
    /// Rotating kinematic flippers (`flipper.rs`), and their id slots.
    pub(crate) flippers: Vec<crate::body::flipper::Flipper>,
    pub(crate) flipper_slots: Slots,
    /// Characters (`crate::body::character`), and their id slots.
    pub(crate) characters: Vec<crate::body::character::Character>,
    pub(crate) character_slots: Slots,
    /// The characters' broad phase, in use during their motion in a step only
    /// (`crate::body::crowd`).
    pub(crate) crowd: crate::body::crowd::Crowd,
    /// The sensors each character overlaps, `(character, sensor)` sorted
    /// (`crate::step::character::sensors`).
    pub(crate) character_sensors: Vec<(
        crate::model::ids::CharacterId,
        crate::model::event::SensorId,
    )>,
    /// The one-way platforms (`World::set_one_way`), sorted.
    pub(crate) one_way: Vec<crate::model::target::Target>,
}

impl World {
    /// An empty world of `size` (world units, both `> 0`) with the given walls and settings.
    ///
    /// # Errors
    /// [`WorldError::BadSetting`] naming the field for a size outside
    /// [`Bound::Positive`] (finite, `> 0`, at most [`limits::MAX_COORD`]), or invalid settings
    /// (`step.dt` outside [`Bound::Positive`], `step.restitution` outside `[0, 1]`,
    /// `step.max_events_per_body` 0 or over [`limits::MAX_EVENTS_PER_BODY`]): the limits of
    /// the scene format.
    pub fn new(size: Vec2, walls: Walls, config: StepConfig) -> Result<Self, WorldError> {
        Bound::Positive
            .check_vec2(size)
            .map_err(|e| WorldError::BadSetting {
                field: "world.size",
                problem: vec2_problem(e, size),
            })?;
        validate_config(&config)?;
        Ok(World::empty(size, walls, config))
    }

    /// An empty world of `size` with `walls` and `config`, both already valid (checked by
    /// [`World::new`], or taken from a world).
    pub(crate) fn empty(size: Vec2, walls: Walls, config: StepConfig) -> World {
        World {
            size,
            walls,
            grid: None,
            balls: Vec::new(),
            ball_rest: Vec::new(),
            ball_slow: Vec::new(),
            tc_memory: Vec::new(),
            ball_restitution: Vec::new(),
            ball_filter: Vec::new(),
            ball_gravity: Vec::new(),
            ball_slots: Slots::default(),
            rects: Vec::new(),
            rect_anchor: Vec::new(),
            rect_rest: Vec::new(),
            rect_slow: Vec::new(),
            rect_slots: Slots::default(),
            config,
            events: Vec::new(),
            steps: 0,
            scratch: Scratch::default(),
            time: 0.0,
            embed_check: true,
            embed_some: Vec::new(),
            threads: 1,
            event_times: Vec::new(),
            domains: None,
            domain_steps: (0, 0),
            last_edit: 0,
            carries: Vec::new(),
            unplaceable: Vec::new(),
            passes: Vec::new(),
            sensor_rects: Vec::new(),
            shapes: Vec::new(),
            shape_index: crate::body::shape_index::ShapeIndex::default(),
            shape_index_stale: false,
            shape_slots: Slots::default(),
            flippers: Vec::new(),
            flipper_slots: Slots::default(),
            characters: Vec::new(),
            character_slots: Slots::default(),
            crowd: crate::body::crowd::Crowd::default(),
            character_sensors: Vec::new(),
            one_way: Vec::new(),
        }
    }

    /// Builds the world a scene describes: grid, explicit balls and rectangles, then the
    /// `[spawn]` balls placed at random in free space (no overlap with solid cells, rectangles,
    /// closed walls or other balls), drawn from xorshift64* with the spawn's seed.
    ///
    /// # Errors
    /// Any invalid value ([`WorldError`]), or [`WorldError::SpawnImpossible`] when the random
    /// balls cannot all be placed.
    pub fn from_scene(scene: &Scene) -> Result<Self, WorldError> {
        let mut world = World::new(scene.size, scene.walls, scene.step)?;
        if let Some(g) = &scene.grid {
            world.grid = Some(Grid::new(g)?);
        }
        for sh in &scene.shapes {
            world.add_shape(*sh)?;
        }
        for fl in &scene.flippers {
            world.add_flipper(*fl)?;
        }
        for r in &scene.rects {
            world.add_rect(*r)?;
        }
        for b in &scene.balls {
            world.add_ball(*b)?;
        }
        if let Some(sp) = &scene.spawn {
            world.spawn(sp)?;
        }
        Ok(world)
    }

    /// Size of the world rectangle `[0, 0]–size`, world units.
    #[must_use]
    pub fn size(&self) -> Vec2 {
        self.size
    }

    /// Which sides of the world reflect.
    #[must_use]
    pub fn walls(&self) -> Walls {
        self.walls
    }

    /// Changes which sides reflect (takes effect at the next step).
    pub fn set_walls(&mut self, walls: Walls) {
        self.edited();
        self.embed_check = true;
        self.scratch.valid = false;
        self.walls = walls;
    }

    /// The step settings.
    #[must_use]
    pub fn config(&self) -> &StepConfig {
        &self.config
    }

    /// Replaces the step settings.
    ///
    /// # Errors
    /// As [`World::new`] for invalid settings; the old settings are kept then.
    pub fn set_config(&mut self, config: StepConfig) -> Result<(), WorldError> {
        self.edited();
        self.scratch.valid = false;
        validate_config(&config)?;
        // Every held ball flies free under the new settings (its face holds it against the
        // old gravity).
        self.free_rests_between_steps(|_| true);
        self.config = config;
        Ok(())
    }

    /// The tile grid, if any.
    #[must_use]
    pub fn grid(&self) -> Option<&Grid> {
        self.grid.as_ref()
    }

    /// Gives the world a tile grid (built with [`Grid::from_rows`], [`Grid::new`] or
    /// [`Grid::empty`]), replacing any grid it had, between steps. The grid may lie anywhere
    /// relative to the world rectangle; cells outside it are never reached by a body. A ball
    /// left inside a solid cell is pushed out at the start of the next step (an
    /// [`crate::Event::Unembedded`] event). Returns the previous grid.
    ///
    /// ```
    /// use collide_world::{Grid, StepConfig, Vec2, Walls, World};
    /// let mut world = World::new(Vec2::new(30.0, 20.0), Walls::ALL, StepConfig::default()).unwrap();
    /// let old = world.set_grid(Grid::from_rows(10.0, Vec2::ZERO, &["#R#", "   "]).unwrap());
    /// assert!(old.is_none());
    /// assert_eq!(world.grid().unwrap().bricks_left(), 1);
    /// ```
    pub fn set_grid(&mut self, grid: Grid) -> Option<Grid> {
        self.edited();
        self.embed_check = true;
        self.scratch.valid = false;
        self.free_rests_between_steps(|on| matches!(on, RestOn::Cell(_)));
        self.drop_cell_passes(|_| true);
        self.grid.replace(grid)
    }

    /// Removes the tile grid between steps, returning it.
    pub fn take_grid(&mut self) -> Option<Grid> {
        self.edited();
        self.scratch.valid = false;
        self.free_rests_between_steps(|on| matches!(on, RestOn::Cell(_)));
        self.drop_cell_passes(|_| true);
        self.grid.take()
    }

    /// Sets one grid cell (placing or removing a tile between steps). A ball left inside a new
    /// tile is pushed out at the start of the next step; a ball inside a sensor cell replaced
    /// by another kind is no longer in it (no [`crate::Event::SensorExit`]). Returns the previous cell, or `None`
    /// when there is no grid or `c` is outside it.
    pub fn set_cell(&mut self, c: CellCoord, cell: Cell) -> Option<Cell> {
        self.edited();
        self.embed_check = true;
        self.scratch.valid = false;
        // A tile edited changes which faces are exposed around it.
        self.free_rests_between_steps(|on| matches!(on, RestOn::Cell(_)));
        if !matches!(cell, Cell::Sensor(_)) {
            // No longer a sensor: the balls inside it are no longer in it (no exit reported).
            self.drop_cell_passes(|p| p == c);
        }
        self.grid.as_mut()?.set_cell(c, cell)
    }

    /// Simulated time since the world was built, seconds (the sum of the steps' dt).
    #[must_use]
    pub fn time(&self) -> Real {
        self.time
    }

    /// Number of steps taken since the world was built.
    #[must_use]
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Bytes of state per ball: id, the start of its current straight path (position and
    /// time), velocity, radius and density, all `f64` but the id. This is what a ball *is*
    /// between steps; its position is derived from the path (see [`World::balls`]).
    pub const STATE_BYTES_PER_BALL: usize = std::mem::size_of::<BallRec>();

    /// Bytes the step keeps per ball between steps on top of its state, so that predictions
    /// live on from step to step: the ball's hot record, its two stored predictions,
    /// counters, broad-phase links and queue entry. A cache: dropping it costs one full
    /// prediction of every ball. (While a large world steps in spatial domains,
    /// [`World::set_threads`], these records live in the domains' worlds instead: about 1.06
    /// copies of every ball with its records, plus about 30 bytes a ball of bookkeeping.)
    pub const STEP_BYTES_PER_BALL: usize = crate::step::scratch::Scratch::BYTES_PER_MOVER;

    /// Lets [`World::step`] use up to `threads` threads (0 is taken as 1; at most
    /// [`crate::model::limits::MAX_THREADS`]). The results do not depend on it, bit for bit (state,
    /// events and their order). Two kinds of work run in parallel:
    /// - predicting many movers' events from one frozen state (every mover after an edit, the
    ///   movers whose predictions end within the step), whose outcome cannot depend on order;
    /// - in a large world of balls only (at least 20 000 balls, no rectangle, four closed
    ///   walls, ball–ball collisions on, restitution 1 and no body or cell kind with its own,
    ///   no destructible brick), the event loop
    ///   itself: the world is cut into spatial domains of about 10 000 balls that step in
    ///   parallel, each in its own world with copies of its neighbours' balls near its
    ///   border; a step is kept only if a check proves it equal to the serial one, else it is
    ///   run again serially (see `docs/algorithms.md`, "Spatial domains"). An edit of the
    ///   world between steps drops the domains; the serial loop steps until 8 steps have
    ///   passed without an edit, then the domains are built again (every ball predicted).
    ///
    /// Worker threads are scoped to each step (spawned and joined by `std::thread::scope` when
    /// the parallel work is large enough to pay for it). [`World::domain_steps`] counts the
    /// steps taken in domains.
    ///
    /// On WebAssembly targets without threads (a browser page, `wasm32-unknown-unknown`, and
    /// `wasm32-wasip1`: spawning a thread there fails) the step always runs on one thread: any
    /// `threads` is taken as 1, and [`World::threads`] returns 1. The results are the same
    /// bits. `wasm32-wasip1-threads` keeps the count asked for.
    pub fn set_threads(&mut self, threads: usize) {
        let most = if crate::model::limits::SINGLE_THREADED_TARGET {
            1
        } else {
            crate::model::limits::MAX_THREADS
        };
        self.threads = threads.clamp(1, most);
    }

    /// The number of threads [`World::step`] may use (see [`World::set_threads`]).
    #[must_use]
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Something outside the step changed the world: the spatial domains (`domains.rs`), if
    /// any, are dropped, and the step stays serial for `domains::CALM_STEPS` steps (a world
    /// edited every step, a game steering balls, keeps the serial loop's cheap edits instead
    /// of building the domains again every step).
    /// After [`World::restore`]: the caches (predictions, broad phase, domains, events) start
    /// afresh. The push-out's bookkeeping is the snapshot's (`restore.rs`), so that the
    /// restored world checks for push-outs exactly what the world it was taken from would.
    pub(crate) fn after_restore(&mut self) {
        self.domains = None;
        self.last_edit = self.steps;
        self.scratch = crate::step::scratch::Scratch::default();
        self.events.clear();
        self.event_times.clear();
    }

    pub(crate) fn edited(&mut self) {
        self.domains = None;
        self.unplaceable.clear();
        self.last_edit = self.steps;
    }

    /// How many steps ran in spatial domains on several threads, and how many domain steps
    /// failed their exactness check and ran again serially (`domains.rs`: a large world of
    /// balls only, closed walls, restitution 1 everywhere, [`World::set_threads`] above 1).
    /// Counters for
    /// measurements; the results are the same bits either way.
    #[must_use]
    pub fn domain_steps(&self) -> (u64, u64) {
        self.domain_steps
    }

    /// The live balls at the world's current time, in storage order (stable between
    /// removals; a removal moves the last ball into the freed place). The balls are values:
    /// a ball's position is derived from the start of its current path (64 bytes a ball,
    /// [`World::STATE_BYTES_PER_BALL`]), not stored.
    #[must_use]
    pub fn balls(&self) -> Balls<'_> {
        Balls {
            recs: &self.balls,
            rests: &self.ball_rest,
            mats: &self.ball_restitution,
            filters: &self.ball_filter,
            scales: &self.ball_gravity,
            time: self.time,
            gravity: self.config.gravity,
        }
    }

    /// The live rectangles, in storage order.
    #[must_use]
    pub fn rects(&self) -> &[Rect] {
        &self.rects
    }

    /// The ball with this id, or `None` if it was removed.
    #[must_use]
    pub fn ball(&self, id: BallId) -> Option<Ball> {
        self.ball_slots.get(id).map(|i| Ball {
            restitution: self.ball_restitution_at(i),
            filter: self.ball_filter_at(i),
            gravity_scale: self.gravity_scale_at(i),
            ..self.balls[i].ball_at(self.time, self.acc_of(i))
        })
    }

    /// The rectangle with this id, or `None` if it was removed.
    #[must_use]
    pub fn rect(&self, id: RectId) -> Option<&Rect> {
        self.rect_slots.get(id).map(|i| &self.rects[i])
    }

    /// Adds a ball.
    ///
    /// Cheap between steps when the world has no dynamic rectangle and the ball is no larger
    /// than the largest one so far: it joins and predicts alone; otherwise the next step
    /// predicts everything again.
    ///
    /// # Errors
    /// [`WorldError::BadBall`] naming the field (`pos`, `vel`, `radius`, `density`,
    /// `restitution`) for a value the scene format refuses: a position or velocity component
    /// outside [`Bound::Coord`] (`±1e9`, finite), a radius or density outside
    /// [`Bound::NonNeg`], a restitution outside [`Bound::Restitution`];
    /// [`WorldError::TooMany`] past [`limits::MAX_BALLS`].
    pub fn add_ball(&mut self, desc: BallDesc) -> Result<BallId, WorldError> {
        validate_ball(&desc)?;
        if self.balls.len() >= limits::MAX_BALLS {
            return Err(WorldError::TooMany {
                what: "balls",
                count: self.balls.len() + 1,
                max: limits::MAX_BALLS,
            });
        }
        self.edited();
        let id = self.ball_slots.insert(self.balls.len() as u32);
        self.balls.push(BallRec {
            id,
            anchor: desc.pos,
            anchor_time: self.time,
            v0: desc.vel,
            radius: desc.radius,
            density: desc.density,
        });
        self.ball_rest.push(None);
        self.ball_slow.push(crate::step::sleep::Slow::default());
        self.ball_pushed(desc.surface.restitution);
        self.ball_filter_pushed(desc.surface.filter);
        self.ball_gravity_pushed(desc.gravity_scale);
        // It may have been placed inside something: checked (alone) at the next step.
        self.embed_some.push(self.balls.len() - 1);
        self.scratch.ball_added(desc.radius, self.config.ball_ball);
        Ok(id)
    }

    /// Removes a ball; returns it, or `None` if the id is stale.
    pub fn remove_ball(&mut self, id: BallId) -> Option<Ball> {
        self.edited();
        self.scratch.valid = false;
        let i = self.ball_slots.get(id)?;
        if !self.embed_some.is_empty() {
            // Dense indices move: check every body instead of the listed ones.
            self.embed_check = true;
        }
        // What lay on it falls.
        self.wake_between_steps(i);
        self.ball_slots.remove(id);
        self.end_carry(Body::Ball(id));
        self.drop_passes_of_ball(id);
        let acc = self.acc_of(i);
        let restitution = self.ball_swap_removed(i);
        let filter = self.ball_filter_swap_removed(i);
        let gravity_scale = self.ball_gravity_swap_removed(i);
        let ball = Ball {
            restitution,
            filter,
            gravity_scale,
            ..self.balls[i].ball_at(self.time, acc)
        };
        self.balls.swap_remove(i);
        self.ball_rest.swap_remove(i);
        self.ball_slow.swap_remove(i);
        if let Some(moved) = self.balls.get(i) {
            self.ball_slots.relocate(moved.id, i as u32);
        }
        Some(ball)
    }

    /// Sets a ball's velocity (units/s).
    ///
    /// Cheap between steps: only this ball predicts again at the next step (as after a
    /// collision; predictions made against its old path are void), not the whole world.
    ///
    /// # Errors
    /// [`WorldError::NoSuchBody`] for a stale id, [`WorldError::BadBall`] (field `vel`) for a
    /// component outside [`Bound::Coord`], as [`World::add_ball`].
    pub fn set_ball_velocity(&mut self, id: BallId, vel: Vec2) -> Result<(), WorldError> {
        self.edited();
        check_ball_vec2("vel", vel)?;
        let i = self
            .ball_slots
            .get(id)
            .ok_or(WorldError::NoSuchBody(Body::Ball(id)))?;
        // It wakes, and what lies on it.
        self.wake_between_steps(i);
        self.end_carry(Body::Ball(id));
        let acc = self.acc_of(i);
        let b = &mut self.balls[i];
        b.anchor = b.pos_at(self.time, acc);
        b.anchor_time = self.time;
        b.v0 = vel;
        // A new velocity starts a free flight.
        self.ball_rest[i] = None;
        self.forget_ended_passes(i);
        self.scratch.course_changed(i);
        Ok(())
    }

    /// Moves a ball (teleport, world units). If the new place is inside a tile or a rectangle,
    /// the ball is pushed out at the start of the next step.
    ///
    /// Cheap between steps: only this ball predicts again at the next step (as for
    /// [`World::set_ball_velocity`]) unless it has to be pushed out of something.
    ///
    /// # Errors
    /// [`WorldError::NoSuchBody`] for a stale id, [`WorldError::BadBall`] (field `pos`) for a
    /// component outside [`Bound::Coord`], as [`World::add_ball`].
    pub fn set_ball_position(&mut self, id: BallId, pos: Vec2) -> Result<(), WorldError> {
        self.edited();
        check_ball_vec2("pos", pos)?;
        let i = self
            .ball_slots
            .get(id)
            .ok_or(WorldError::NoSuchBody(Body::Ball(id)))?;
        self.embed_some.push(i);
        // It wakes, and what lies on it.
        self.wake_between_steps(i);
        self.end_carry(Body::Ball(id));
        let acc = self.acc_of(i);
        let b = &mut self.balls[i];
        b.v0 = b.vel_at(self.time, acc);
        b.anchor = pos;
        b.anchor_time = self.time;
        // Moved off whatever held it: a free flight.
        self.ball_rest[i] = None;
        self.forget_ended_passes(i);
        self.scratch.course_changed(i);
        Ok(())
    }

    /// Adds a rectangle.
    ///
    /// # Errors
    /// [`WorldError::BadRect`] naming the field for a value the scene format refuses: a
    /// corner component outside [`Bound::Coord`] (`min`, `max`), `min > max` (`min/max`), a
    /// velocity component outside [`Bound::Coord`] (`vel`), a density outside
    /// [`Bound::NonNeg`] (`density`), a restitution outside [`Bound::Restitution`]
    /// (`restitution`); [`WorldError::TooMany`] past [`limits::MAX_RECTS`].
    pub fn add_rect(&mut self, desc: RectDesc) -> Result<RectId, WorldError> {
        validate_rect(&desc)?;
        if self.rects.len() >= limits::MAX_RECTS {
            return Err(WorldError::TooMany {
                what: "rects",
                count: self.rects.len() + 1,
                max: limits::MAX_RECTS,
            });
        }
        self.edited();
        self.embed_check = true;
        self.scratch.valid = false;
        let id = self.rect_slots.insert(self.rects.len() as u32);
        let vel = if desc.kind == RectKind::Static {
            Vec2::ZERO
        } else {
            desc.vel
        };
        self.rect_anchor.push((desc.aabb, self.time, vel));
        self.rect_rest.push(None);
        self.rect_slow.push(crate::step::sleep::Slow::default());
        self.rects.push(Rect {
            id,
            aabb: desc.aabb,
            vel,
            kind: desc.kind,
            density: desc.density,
            surface: desc.surface,
        });
        if desc.surface.one_way {
            self.mark_one_way(crate::model::target::Target::Rect(id), true);
        }
        Ok(id)
    }

    /// Removes a rectangle; returns it, or `None` if the id is stale.
    pub fn remove_rect(&mut self, id: RectId) -> Option<Rect> {
        self.edited();
        self.scratch.valid = false;
        let i = self.rect_slots.get(id)?;
        self.free_rests_between_steps(|on| *on == RestOn::Rect(id));
        self.rect_slots.remove(id);
        self.rect_rest.swap_remove(i);
        self.rect_slow.swap_remove(i);
        self.drop_passes_with(crate::step::pass::PassWith::Rect(id));
        self.carries.retain(|c| {
            c.by != crate::step::squeeze::Carrier::Rect(id) && c.body != Body::Rect(id)
        });
        self.one_way
            .retain(|t| *t != crate::model::target::Target::Rect(id));
        let rect = self.rects.swap_remove(i);
        self.rect_anchor.swap_remove(i);
        if let Some(moved) = self.rects.get(i) {
            self.rect_slots.relocate(moved.id, i as u32);
        }
        Some(rect)
    }

    /// Sets a rectangle's velocity (units/s). For a kinematic paddle that must follow a target
    /// `x`, set `vel = (target - current) / dt` so that the paddle's motion is swept exactly:
    /// a kinematic rectangle's path restarts here (box and world time), and the step moves it
    /// by exactly `vel·dt`.
    ///
    /// Cheap between steps for a kinematic rectangle (a paddle steered every frame): only
    /// the bodies whose static predictions aimed at it or whose paths can reach its new path
    /// predict again at the next step. A dynamic rectangle's change predicts everything again.
    ///
    /// # Errors
    /// [`WorldError::NoSuchBody`] for a stale id, [`WorldError::BadRect`] (field `vel`) for a
    /// component outside [`Bound::Coord`] or a static rectangle (which never moves).
    pub fn set_rect_velocity(&mut self, id: RectId, vel: Vec2) -> Result<(), WorldError> {
        self.edited();
        Bound::Coord
            .check_vec2(vel)
            .map_err(|e| WorldError::BadRect {
                field: "vel",
                problem: vec2_problem(e, vel),
            })?;
        let i = self
            .rect_slots
            .get(id)
            .ok_or(WorldError::NoSuchBody(Body::Rect(id)))?;
        if self.rects[i].kind == RectKind::Static {
            return Err(WorldError::BadRect {
                field: "vel",
                problem: "a static rectangle cannot move".to_string(),
            });
        }
        // The balls asleep against it wake: it may move away from under them.
        if self.rects[i].vel != vel && self.config.gravity != Vec2::ZERO {
            self.wake_touching_box(self.rects[i].aabb);
        }
        self.rects[i].vel = vel;
        self.rect_anchor[i] = (self.rects[i].aabb, self.time, vel);
        // A new velocity with a part along the normal of the face holding it ends its rest.
        self.rect_rest[i] = self.rect_rest[i].filter(|r| r.kept_with(vel));
        if self.rects[i].kind == RectKind::Kinematic {
            self.scratch.kinematic_changed(i);
        } else {
            self.scratch.valid = false;
        }
        Ok(())
    }

    /// Moves a rectangle (teleport); a kinematic one's path restarts here. Bodies left inside
    /// it are pushed out at the next step.
    ///
    /// # Errors
    /// [`WorldError::NoSuchBody`] for a stale id, [`WorldError::BadRect`] for a box
    /// [`World::add_rect`] refuses (field `min`, `max` or `min/max`).
    pub fn set_rect_aabb(&mut self, id: RectId, aabb: Aabb) -> Result<(), WorldError> {
        if let Err((field, problem)) = validate_aabb(&aabb) {
            return Err(WorldError::BadRect { field, problem });
        }
        let i = self
            .rect_slots
            .get(id)
            .ok_or(WorldError::NoSuchBody(Body::Rect(id)))?;
        self.edited();
        self.embed_check = true;
        self.scratch.valid = false;
        self.free_rests_between_steps(|on| *on == RestOn::Rect(id));
        self.rects[i].aabb = aabb;
        self.rect_anchor[i] = (aabb, self.time, self.rects[i].vel);
        self.rect_rest[i] = None;
        self.carries.retain(|c| {
            c.by != crate::step::squeeze::Carrier::Rect(id) && c.body != Body::Rect(id)
        });
        Ok(())
    }

    /// The events of the last step, in the order they happened (time order; simultaneous
    /// events in a fixed order).
    #[must_use]
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Takes the events of the last step out of the world (leaving it empty), so that bodies
    /// can be added or removed while going through them.
    pub fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }
}
