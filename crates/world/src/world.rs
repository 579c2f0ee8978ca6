//! The world: a tile grid, balls and rectangles in a world rectangle, advanced by
//! [`World::step`] (see `step/mod.rs`).

use crate::ball_gravity::scaled;
use crate::desc::{BallDesc, Cell, RectDesc, RectKind, Scene, StepConfig, Walls};
use crate::event::{Body, Event, Side};
use crate::grid::{CellCoord, Grid, GridError};
use crate::ids::{BallId, RectId, Slots};
use crate::layers::{CellKinds, Filter};
use crate::limits::{self, Bound, OutOfBounds};
use crate::rest::{acc_on, Rest, RestOn};
use crate::rng::XorShift64Star;
use crate::shapes::ShapeKind;
use crate::step::Scratch;
use collide_core::motion::Path;
use collide_core::{
    aabb_overlaps_aabb, aabb_overlaps_capsule, circle_overlaps_aabb, circle_overlaps_circle,
    distance_point_segment, point_in_aabb, sweep_circle_aabb, sweep_circle_circle,
    sweep_circle_half_plane, sweep_circle_segment, Aabb, Capsule, Face, FaceSegment, Feature,
    Features, Real, SegmentEnds, SegmentHit, SweepHit, Vec2,
};

/// Random spawning gives up after this many failed placements in a row.
pub const MAX_SPAWN_FAILS_IN_A_ROW: u64 = 200_000;

/// A ball as the world reports it: its state at the world's current time (a value, see
/// [`World::balls`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ball {
    /// Stable id.
    pub id: BallId,
    /// Centre, world units.
    pub pos: Vec2,
    /// Velocity, units/s.
    pub vel: Vec2,
    /// Radius, world units.
    pub radius: Real,
    /// Density, mass per unit area.
    pub density: Real,
    /// The ball's own restitution, or `None` (the world's `StepConfig::restitution`): see
    /// [`crate::material`].
    pub restitution: Option<Real>,
    /// The ball's layers and mask: see [`crate::layers`].
    pub filter: Filter,
    /// The ball's multiple of the world's gravity ([`crate::BallDesc::gravity_scale`]).
    pub gravity_scale: Real,
}

impl Ball {
    /// Mass = density·π·radius² (seed 002 uses density × volume; collide is 2D, so area).
    #[must_use]
    pub fn mass(&self) -> Real {
        mass(self.density, self.radius)
    }
}

/// Mass of a disc of `density` (mass per unit area) and `radius` (world units): density·π·r².
#[inline]
fn mass(density: Real, radius: Real) -> Real {
    density * std::f64::consts::PI * radius * radius
}

/// A ball as stored: 64 bytes. Its position is not stored but derived from the start of its
/// current path (the *anchor*): at absolute time `T`, with `τ = T − anchor_time` and the
/// ball's acceleration `a` ([`World::acc_of`]: zero without gravity), it is
/// `anchor + v0·τ + ½·a·τ²` ([`collide_core::motion::Path`]), computed the same way everywhere
/// (the step, the public accessors, the state hash). The path is re-anchored at every velocity change and teleport, never by
/// adding up per-step moves, and every impact time is solved from anchors (a ball–ball
/// contact from both balls'), so a ball follows bit for bit the same path whatever the step
/// size: the step only decides when the state is sampled.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(64))]
pub(crate) struct BallRec {
    pub(crate) id: BallId,
    /// Where the current path started, world units.
    pub(crate) anchor: Vec2,
    /// Absolute time the current path started, seconds.
    pub(crate) anchor_time: Real,
    /// Velocity at the path's start, units/s (the velocity, without gravity).
    pub(crate) v0: Vec2,
    pub(crate) radius: Real,
    pub(crate) density: Real,
}

// A ball's state is one 64-byte record (a cache line): checked at compile time.
const _: () = assert!(std::mem::size_of::<BallRec>() == 64);

impl BallRec {
    /// The centre at absolute time `t` under acceleration `acc` (units/s²; zero: a straight
    /// line, computed as `anchor + v0·τ`, the bits of a world without gravity).
    #[inline]
    pub(crate) fn pos_at(&self, t: Real, acc: Vec2) -> Vec2 {
        let tau = t - self.anchor_time;
        if acc == Vec2::ZERO {
            self.anchor + self.v0 * tau
        } else {
            self.path(acc).pos_at(tau)
        }
    }

    /// The velocity at absolute time `t` under acceleration `acc`: `v0 + a·τ`.
    #[inline]
    pub(crate) fn vel_at(&self, t: Real, acc: Vec2) -> Vec2 {
        if acc == Vec2::ZERO {
            self.v0
        } else {
            self.v0 + acc * (t - self.anchor_time)
        }
    }

    /// Its current path from the anchor (times from `anchor_time`) under acceleration `acc`.
    #[inline]
    pub(crate) fn path(&self, acc: Vec2) -> Path {
        Path::ballistic(self.anchor, self.v0, acc)
    }

    /// The start of its current straight path.
    #[inline]
    pub(crate) fn start(&self) -> Anchor {
        Anchor {
            pos: self.anchor,
            time: self.anchor_time,
        }
    }

    /// The public value at absolute time `t` under acceleration `acc`, without its restitution
    /// and filter (kept by the world, not the record: [`World::ball`] fills them in).
    #[inline]
    pub(crate) fn ball_at(&self, t: Real, acc: Vec2) -> Ball {
        Ball {
            id: self.id,
            pos: self.pos_at(t, acc),
            vel: self.vel_at(t, acc),
            radius: self.radius,
            density: self.density,
            restitution: None,
            filter: Filter::DEFAULT,
            gravity_scale: 1.0,
        }
    }

    /// Mass = density·π·radius², as [`Ball::mass`].
    #[inline]
    pub(crate) fn mass(&self) -> Real {
        mass(self.density, self.radius)
    }
}

/// The start of a ball's current straight path: position `pos` at absolute time `time`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Anchor {
    pub(crate) pos: Vec2,
    pub(crate) time: Real,
}

/// The live balls of a world, as [`Ball`] values at its current time, in storage order
/// (returned by [`World::balls`]). An exact-size, double-ended iterator; [`Balls::get`]
/// reads one by storage index.
#[derive(Clone, Debug)]
pub struct Balls<'a> {
    recs: &'a [BallRec],
    rests: &'a [Option<Rest>],
    /// The balls' own restitutions, index for index with `recs`, or empty when none has one.
    mats: &'a [Option<Real>],
    /// The balls' filters, index for index with `recs`, or empty when all are the default.
    filters: &'a [Filter],
    /// The balls' gravity scales, index for index with `recs`, or empty when all are 1.
    scales: &'a [Real],
    time: Real,
    gravity: Vec2,
}

impl Balls<'_> {
    /// The ball at storage index `i` (of what is left to iterate), or `None` past the end.
    #[must_use]
    pub fn get(&self, i: usize) -> Option<Ball> {
        let b = self.recs.get(i)?;
        let scale = self.scales.get(i).copied().unwrap_or(1.0);
        Some(Ball {
            restitution: self.mats.get(i).copied().flatten(),
            filter: self.filters.get(i).copied().unwrap_or_default(),
            gravity_scale: scale,
            ..b.ball_at(
                self.time,
                acc_on(scaled(self.gravity, scale), self.rests[i]),
            )
        })
    }

    /// The same balls again (a copy of this iterator), for code written against a slice.
    #[must_use]
    pub fn iter(&self) -> Self {
        self.clone()
    }

    /// Whether there is no ball left to iterate.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.recs.is_empty()
    }
}

impl Iterator for Balls<'_> {
    type Item = Ball;

    #[inline]
    fn next(&mut self) -> Option<Ball> {
        let ball = self.get(0)?;
        self.recs = &self.recs[1..];
        self.rests = &self.rests[1..];
        if let Some((_, rest)) = self.mats.split_first() {
            self.mats = rest;
        }
        if let Some((_, rest)) = self.filters.split_first() {
            self.filters = rest;
        }
        if let Some((_, rest)) = self.scales.split_first() {
            self.scales = rest;
        }
        Some(ball)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.recs.len(), Some(self.recs.len()))
    }
}

impl DoubleEndedIterator for Balls<'_> {
    fn next_back(&mut self) -> Option<Ball> {
        let last = self.recs.len().checked_sub(1)?;
        let ball = self.get(last)?;
        self.recs = &self.recs[..last];
        self.rests = &self.rests[..last];
        if self.mats.len() > last {
            self.mats = &self.mats[..last];
        }
        if self.filters.len() > last {
            self.filters = &self.filters[..last];
        }
        if self.scales.len() > last {
            self.scales = &self.scales[..last];
        }
        Some(ball)
    }
}
impl ExactSizeIterator for Balls<'_> {}

/// A rectangle as stored in the world.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Stable id.
    pub id: RectId,
    /// Position and size, world units.
    pub aabb: Aabb,
    /// Velocity, units/s (zero for static rectangles).
    pub vel: Vec2,
    /// Static, kinematic or dynamic.
    pub kind: RectKind,
    /// Density, mass per unit area (dynamic rectangles).
    pub density: Real,
    /// The rectangle's own restitution, or `None` (the world's `StepConfig::restitution`):
    /// see [`crate::material`].
    pub restitution: Option<Real>,
    /// The rectangle's layers and mask: see [`crate::layers`].
    pub filter: Filter,
}

impl Rect {
    /// Mass: density·area for a dynamic rectangle; infinite for static and kinematic ones.
    #[must_use]
    pub fn mass(&self) -> Real {
        match self.kind {
            RectKind::Dynamic => {
                let s = self.aabb.size();
                self.density * s.x * s.y
            }
            _ => Real::INFINITY,
        }
    }
}

/// Why the world refused an input. Every variant names the field and the bad value.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum WorldError {
    /// A ball field is invalid.
    #[error("ball field `{field}`: {problem}")]
    BadBall {
        /// `pos`, `vel`, `radius`, `density`, `restitution` or `gravity_scale`.
        field: &'static str,
        /// What is wrong.
        problem: String,
    },
    /// A rectangle field is invalid.
    #[error("rect field `{field}`: {problem}")]
    BadRect {
        /// `min`/`max`, `vel`, `density` or `restitution`.
        field: &'static str,
        /// What is wrong.
        problem: String,
    },
    /// A static segment's or circle's field is invalid.
    #[error("shape field `{field}`: {problem}")]
    BadShape {
        /// `a`, `b`, `center`, `radius`, `points` or `restitution`.
        field: &'static str,
        /// What is wrong.
        problem: String,
    },
    /// A flipper's field is invalid ([`crate::flipper`]).
    #[error("flipper field `{field}`: {problem}")]
    BadFlipper {
        /// `pivot`, `length`, `radius`, `rest_angle`, `active_angle`, `angular_speed` or
        /// `restitution`.
        field: &'static str,
        /// What is wrong.
        problem: String,
    },
    /// A world or step setting is invalid.
    #[error("{field}: {problem}")]
    BadSetting {
        /// `world.size`, `step.dt`, `step.restitution`, ...
        field: &'static str,
        /// What is wrong.
        problem: String,
    },
    /// The grid description is invalid.
    #[error(transparent)]
    Grid(#[from] GridError),
    /// Too many bodies.
    #[error("too many {what}: {count} exceeds the limit of {max}")]
    TooMany {
        /// `balls` or `rects`.
        what: &'static str,
        /// Requested count.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// Random spawning could not place every ball without overlap.
    #[error("spawn: placed only {placed} of {count} balls of radius {radius} without overlap after {attempts} attempts; lower `count` or `radius`, or enlarge `region`")]
    SpawnImpossible {
        /// Balls placed.
        placed: usize,
        /// Balls asked for.
        count: usize,
        /// Their radius.
        radius: Real,
        /// Attempts made.
        attempts: u64,
    },
    /// The id does not name a live body.
    #[error("no such body: {0:?}")]
    NoSuchBody(Body),
    /// The id does not name a live flipper.
    #[error("no such flipper: {0}")]
    NoSuchFlipper(crate::ids::FlipperId),
}

/// What a world query or cast hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    /// A grid cell.
    Cell(CellCoord),
    /// A ball.
    Ball(BallId),
    /// A rectangle.
    Rect(RectId),
    /// A wall of the world.
    Wall(Side),
    /// A static segment or circle ([`crate::Shape`]).
    Shape(crate::ids::ShapeId),
    /// A flipper, where it is at the world's time ([`crate::Flipper`]).
    Flipper(crate::ids::FlipperId),
}

/// The first hit of [`World::cast_circle`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastHit {
    /// Fraction of the segment travelled at impact, in `[0, 1]`.
    pub toi: Real,
    /// The circle's centre at impact, world units.
    pub center: Vec2,
    /// Contact point, world units.
    pub point: Vec2,
    /// Contact normal from the target toward the circle.
    pub normal: Vec2,
    /// What was hit.
    pub target: Target,
}

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
    pub(crate) ball_slow: Vec<crate::sleep::Slow>,
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
    pub(crate) domains: Option<Box<crate::domains::Domains>>,
    /// Steps taken in domains, and domain steps that failed their check and ran serially.
    pub(crate) domain_steps: (u64, u64),
    /// `steps` at the last edit between steps (`World::edited`).
    pub(crate) last_edit: u64,
    /// Bodies moving with a kinematic rectangle that squeezes them (`squeeze.rs`): part of
    /// the state (kept across steps), usually empty.
    pub(crate) carries: Vec<crate::squeeze::Carry>,
    /// Balls for which a push-out found no free position anywhere (a cache: cleared by every
    /// edit and every destroyed brick; not used while a rectangle moves).
    pub(crate) unplaceable: Vec<BallId>,
    /// Balls overlapping a sensor or passing through a body whose contact a hook ignored
    /// (`pass.rs`): part of the state, sorted by ball id, usually empty.
    pub(crate) passes: Vec<crate::pass::Pass>,
    /// Rectangles overlapping sensor rectangles, `(sensor, rectangle)` sorted
    /// (`rect_sensor.rs`): part of the state, usually empty.
    pub(crate) sensor_rects: Vec<(RectId, RectId)>,
    /// Static segments and circles (`shapes.rs`), and their id slots.
    pub(crate) shapes: Vec<crate::shapes::Shape>,
    pub(crate) shape_slots: Slots,
    /// The grid over the shapes' boxes (`shape_index.rs`), built at a step's start after the
    /// shapes changed (`shape_index_stale`).
    pub(crate) shape_index: crate::shape_index::ShapeIndex,
    pub(crate) shape_index_stale: bool,
    /// Rotating kinematic flippers (`flipper.rs`), and their id slots.
    pub(crate) flippers: Vec<crate::flipper::Flipper>,
    pub(crate) flipper_slots: Slots,
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
            shape_index: crate::shape_index::ShapeIndex::default(),
            shape_index_stale: false,
            shape_slots: Slots::default(),
            flippers: Vec::new(),
            flipper_slots: Slots::default(),
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

    fn spawn(&mut self, sp: &crate::desc::SpawnDesc) -> Result<(), WorldError> {
        if sp.count == 0 {
            return Ok(());
        }
        let total = self.balls.len().saturating_add(sp.count);
        if total > limits::MAX_BALLS {
            return Err(WorldError::TooMany {
                what: "balls",
                count: total,
                max: limits::MAX_BALLS,
            });
        }
        validate_ball(&BallDesc {
            pos: Vec2::ZERO,
            vel: Vec2::ZERO,
            radius: sp.radius,
            density: sp.density,
            restitution: sp.restitution,
            filter: sp.filter,
            gravity_scale: 1.0,
        })?;
        Bound::NonNeg
            .check(sp.speed)
            .map_err(|e| WorldError::BadSetting {
                field: "spawn.speed",
                problem: e.to_string(),
            })?;
        let region = sp.region.unwrap_or(Aabb::new(Vec2::ZERO, self.size));
        if let Err((_, problem)) = validate_aabb(&region) {
            return Err(WorldError::BadSetting {
                field: "spawn.region",
                problem,
            });
        }
        let r = sp.radius;
        // Centres are drawn in the region shrunk by r (and kept inside closed walls).
        let lo = Vec2::new(region.min.x + r, region.min.y + r);
        let hi = Vec2::new(region.max.x - r, region.max.y - r);
        let mut rng = XorShift64Star::new(sp.seed);
        // A uniform hash grid of placed balls (cell = 2r) for the no-overlap test.
        // Buckets of side at least 2r, and no more of them than about 4 per ball to place (a
        // few balls in a huge world must not allocate a huge grid).
        let ext = (hi - lo).max(Vec2::ZERO);
        let cell = (2.0 * r)
            .max((ext.x * ext.y / (4 * sp.count + 16) as Real).sqrt())
            .max(ext.max_element() / 4096.0)
            .max(1e-6);
        let cols = ((ext.x / cell).ceil() as usize + 1).min(4097);
        let rows = ((ext.y / cell).ceil() as usize + 1).min(4097);
        let mut buckets: Vec<Vec<Vec2>> = vec![Vec::new(); cols * rows];
        let bucket_of = |p: Vec2| -> (usize, usize) {
            let q = ((p - lo) / cell).floor();
            (
                (q.x.max(0.0) as usize).min(cols - 1),
                (q.y.max(0.0) as usize).min(rows - 1),
            )
        };
        // Balls already present: those of the spawn's radius go in the buckets; the others
        // (explicit balls of other sizes, usually few) are tested one by one.
        let mut others: Vec<(Vec2, Real)> = Vec::new();
        for b in self.balls() {
            if b.radius == r {
                let (c, rr) = bucket_of(b.pos);
                buckets[rr * cols + c].push(b.pos);
            } else {
                others.push((b.pos, b.radius));
            }
        }
        let max_attempts = (sp.count as u64)
            .saturating_mul(1000)
            .saturating_add(10_000);
        let mut attempts = 0u64;
        let mut fails_in_a_row = 0u64;
        let mut placed = 0usize;
        let mut new_balls: Vec<(u64, Vec2, Vec2)> = Vec::with_capacity(sp.count.min(1 << 20));
        // Buckets to look at around a point: far enough to see any ball within 2r.
        let reach = ((2.0 * r / cell).ceil() as usize).max(1);
        while placed < sp.count {
            // Give up after too many attempts in all, or in a row (a region that is full
            // fails fast whatever the count asked for).
            if attempts >= max_attempts
                || fails_in_a_row >= MAX_SPAWN_FAILS_IN_A_ROW
                || !(lo.x <= hi.x && lo.y <= hi.y)
            {
                return Err(WorldError::SpawnImpossible {
                    placed,
                    count: sp.count,
                    radius: r,
                    attempts,
                });
            }
            attempts += 1;
            fails_in_a_row += 1;
            let p = Vec2::new(
                lo.x + (hi.x - lo.x) * rng.next_f64(),
                lo.y + (hi.y - lo.y) * rng.next_f64(),
            );
            if !self.circle_is_free(p, r, None) {
                continue;
            }
            // Other balls: explicit ones may have other radii, test them all when few.
            let (c, rr) = bucket_of(p);
            let mut clash = false;
            'scan: for y in rr.saturating_sub(reach)..(rr + reach + 1).min(rows) {
                for x in c.saturating_sub(reach)..(c + reach + 1).min(cols) {
                    for q in &buckets[y * cols + x] {
                        if circle_overlaps_circle(p, r, *q, r) {
                            clash = true;
                            break 'scan;
                        }
                    }
                }
            }
            if clash
                || others
                    .iter()
                    .any(|&(q, rq)| circle_overlaps_circle(p, r, q, rq))
            {
                continue;
            }
            let dir = rng.unit_vector();
            new_balls.push((morton(c as u32, rr as u32), dir * sp.speed, p));
            buckets[rr * cols + c].push(p);
            placed += 1;
            fails_in_a_row = 0;
        }
        // Stored in Z-order of their buckets (Morton, 1966): balls near each other in space
        // are near each other in memory, which the step's neighbour searches read together.
        // Stable sort: equal keys keep their placement order (deterministic).
        new_balls.sort_by_key(|b| b.0);
        for (_, vel, pos) in new_balls {
            self.add_ball(BallDesc {
                pos,
                vel,
                radius: r,
                density: sp.density,
                restitution: sp.restitution,
                filter: sp.filter,
                gravity_scale: 1.0,
            })?;
        }
        Ok(())
    }

    /// Whether a disc of `radius` at `p` is free of solid cells, rectangles (all kinds, except
    /// `skip`), static shapes, flippers (where they are now) and closed walls (touching allowed). Balls are not considered.
    #[must_use]
    pub fn circle_is_free(&self, p: Vec2, radius: Real, skip: Option<RectId>) -> bool {
        self.circle_overlap_depth_ok(p, radius, 0.0, skip, None)
            && !self.circle_overlaps_shape(p, radius)
            && !self.circle_overlaps_flipper(p, radius)
    }

    /// Like [`World::circle_is_free`] but tolerating overlaps up to `slack` world units, and
    /// with `Some(filter)` only against the cells and rectangles a body of `filter` collides
    /// with (closed walls always; `None`: everything).
    pub(crate) fn circle_overlap_depth_ok(
        &self,
        p: Vec2,
        radius: Real,
        slack: Real,
        skip: Option<RectId>,
        filter: Option<Filter>,
    ) -> bool {
        let r = radius - slack;
        if self.walls.left && p.x < r
            || self.walls.right && p.x > self.size.x - r
            || self.walls.top && p.y < r
            || self.walls.bottom && p.y > self.size.y - r
        {
            return false;
        }
        if let Some(g) = &self.grid {
            let kinds = filter.map_or(CellKinds::ALL, |f| g.kinds_for(f));
            if g.circle_overlaps_solid_kinds(kinds, p, radius, slack) {
                return false;
            }
        }
        !self.rects.iter().any(|rc| {
            Some(rc.id) != skip
                && filter.is_none_or(|f| f.collides(rc.filter))
                && rc.kind != RectKind::Sensor
                && circle_overlaps_aabb(p, r, &rc.aabb)
        })
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
    pub const STEP_BYTES_PER_BALL: usize = crate::step::Scratch::BYTES_PER_MOVER;

    /// Lets [`World::step`] use up to `threads` threads (0 is taken as 1; at most
    /// [`crate::limits::MAX_THREADS`]). The results do not depend on it, bit for bit (state,
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
    /// On WebAssembly targets without threads (`wasm32-unknown-unknown`, `wasm32-wasip1`:
    /// spawning a thread there fails), the count is 1 whatever is asked, since the results
    /// are the same bits for any count; `wasm32-wasip1-threads` keeps it.
    pub fn set_threads(&mut self, threads: usize) {
        let most = if cfg!(all(
            target_family = "wasm",
            not(all(target_os = "wasi", target_feature = "atomics"))
        )) {
            1
        } else {
            crate::limits::MAX_THREADS
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
    /// afresh, and every body is checked for a push-out at the next step.
    pub(crate) fn after_restore(&mut self) {
        self.edited();
        self.scratch = crate::step::Scratch::default();
        self.events.clear();
        self.event_times.clear();
        self.embed_check = true;
        self.embed_some.clear();
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
        self.edited();
        validate_ball(&desc)?;
        if self.balls.len() >= limits::MAX_BALLS {
            return Err(WorldError::TooMany {
                what: "balls",
                count: self.balls.len() + 1,
                max: limits::MAX_BALLS,
            });
        }
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
        self.ball_slow.push(crate::sleep::Slow::default());
        self.ball_pushed(desc.restitution);
        self.ball_filter_pushed(desc.filter);
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
        self.edited();
        self.embed_check = true;
        self.scratch.valid = false;
        validate_rect(&desc)?;
        if self.rects.len() >= limits::MAX_RECTS {
            return Err(WorldError::TooMany {
                what: "rects",
                count: self.rects.len() + 1,
                max: limits::MAX_RECTS,
            });
        }
        let id = self.rect_slots.insert(self.rects.len() as u32);
        let vel = if desc.kind == RectKind::Static {
            Vec2::ZERO
        } else {
            desc.vel
        };
        self.rect_anchor.push((desc.aabb, self.time, vel));
        self.rect_rest.push(None);
        self.rects.push(Rect {
            id,
            aabb: desc.aabb,
            vel,
            kind: desc.kind,
            density: desc.density,
            restitution: desc.restitution,
            filter: desc.filter,
        });
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
        self.drop_passes_with(crate::pass::PassWith::Rect(id));
        self.carries
            .retain(|c| c.rect != id && c.body != Body::Rect(id));
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
        self.rect_rest[i] = self.rect_rest[i].filter(|r| vel.dot(r.normal) == 0.0);
        if matches!(self.rects[i].kind, RectKind::Kinematic | RectKind::Sensor) {
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
        self.edited();
        self.embed_check = true;
        self.scratch.valid = false;
        if let Err((field, problem)) = validate_aabb(&aabb) {
            return Err(WorldError::BadRect { field, problem });
        }
        let i = self
            .rect_slots
            .get(id)
            .ok_or(WorldError::NoSuchBody(Body::Rect(id)))?;
        self.free_rests_between_steps(|on| *on == RestOn::Rect(id));
        self.rects[i].aabb = aabb;
        self.rect_anchor[i] = (aabb, self.time, self.rects[i].vel);
        self.rect_rest[i] = None;
        self.carries
            .retain(|c| c.rect != id && c.body != Body::Rect(id));
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

    /// Total kinetic energy `Σ ½·m·|v|²` of balls and dynamic rectangles, summed in storage
    /// order (units: mass · units²/s²).
    #[must_use]
    pub fn kinetic_energy(&self) -> Real {
        let mut e = 0.0;
        for b in self.balls() {
            e += 0.5 * b.mass() * b.vel.length_squared();
        }
        for r in &self.rects {
            if r.kind == RectKind::Dynamic {
                e += 0.5 * r.mass() * r.vel.length_squared();
            }
        }
        e
    }

    /// Total potential energy in the world's gravity `g`, `Σ −m·g·p` over the balls and the
    /// dynamic rectangles, which both fall (`p` the centre, from the world's origin: y grows
    /// downward, so a body lower down has less; a rectangle's mass is [`Rect::mass`]), summed
    /// in storage order; zero without gravity. Static and kinematic rectangles ignore gravity.
    /// Units: mass · units²/s².
    #[must_use]
    pub fn potential_energy(&self) -> Real {
        let g = self.config.gravity;
        if g == Vec2::ZERO {
            return 0.0;
        }
        let mut e = 0.0;
        for b in self.balls() {
            e -= b.mass() * scaled(g, b.gravity_scale).dot(b.pos);
        }
        for r in &self.rects {
            if r.kind == RectKind::Dynamic {
                e -= r.mass() * g.dot(r.aabb.center());
            }
        }
        e
    }

    /// Total mechanical energy: [`World::kinetic_energy`] plus [`World::potential_energy`]
    /// (the kinetic energy alone without gravity). Conserved to rounding by elastic
    /// collisions (restitution 1) and exact parabolic flight.
    #[must_use]
    pub fn energy(&self) -> Real {
        self.kinetic_energy() + self.potential_energy()
    }

    /// Total momentum `Σ m·v` of balls and dynamic rectangles.
    #[must_use]
    pub fn momentum(&self) -> Vec2 {
        let mut p = Vec2::ZERO;
        for b in self.balls() {
            p += b.vel * b.mass();
        }
        for r in &self.rects {
            if r.kind == RectKind::Dynamic {
                p += r.vel * r.mass();
            }
        }
        p
    }

    /// A 64-bit hash of the whole simulated state: every ball's and rectangle's id, position,
    /// velocity, size and density and the start of each ball's current path (their IEEE-754
    /// bits), every grid cell, the walls, the step count and the simulated time, the own
    /// restitutions that are set and the filters that are not the default, and under gravity
    /// the faces holding balls and each dynamic rectangle's path and rest (so a world without
    /// any of these hashes as it did before them).
    /// FNV-1a over little-endian 64-bit words, so it is the same on every platform and
    /// build: two worlds with equal hashes are (barring collisions) bit-identical.
    #[must_use]
    pub fn state_hash(&self) -> u64 {
        let mut h = Fnv::new();
        h.word(self.steps);
        h.word(self.size.x.to_bits());
        h.word(self.size.y.to_bits());
        h.word(
            u64::from(self.walls.left)
                | u64::from(self.walls.top) << 1
                | u64::from(self.walls.right) << 2
                | u64::from(self.walls.bottom) << 3,
        );
        h.word(self.balls.len() as u64);
        h.word(self.time.to_bits());
        for (i, b) in self.balls.iter().enumerate() {
            h.word(b.id.to_bits());
            let pos = b.pos_at(self.time, self.acc_of(i));
            for x in [
                pos.x,
                pos.y,
                b.v0.x,
                b.v0.y,
                b.radius,
                b.density,
                b.anchor.x,
                b.anchor.y,
                b.anchor_time,
            ] {
                h.word(x.to_bits());
            }
            // Held by a face under gravity (nothing hashed in free flight: hashes of worlds
            // without gravity are unchanged).
            if let Some(r) = &self.ball_rest[i] {
                h.word(r.code());
                h.word(r.lo.to_bits());
                h.word(r.hi.to_bits());
            }
            // Its count toward sleep (`sleep.rs`), when it has one.
            let slow = self.ball_slow[i];
            if slow.count > 0 {
                h.word(u64::from(slow.count) | 1 << 40);
                h.word(slow.at.x.to_bits());
                h.word(slow.at.y.to_bits());
            }
        }
        h.word(self.rects.len() as u64);
        for r in &self.rects {
            h.word(r.id.to_bits());
            for x in [
                r.aabb.min.x,
                r.aabb.min.y,
                r.aabb.max.x,
                r.aabb.max.y,
                r.vel.x,
                r.vel.y,
                r.density,
            ] {
                h.word(x.to_bits());
            }
            h.word(r.kind as u64);
        }
        // Under gravity, each dynamic rectangle's path (its anchor: box, time, velocity) and
        // the face holding it, if any (nothing without gravity: those hashes are unchanged).
        if self.config.gravity != Vec2::ZERO {
            for (k, r) in self.rects.iter().enumerate() {
                if r.kind != RectKind::Dynamic {
                    continue;
                }
                let (a, at, v0) = self.rect_anchor[k];
                for x in [a.min.x, a.min.y, a.max.x, a.max.y, at, v0.x, v0.y] {
                    h.word(x.to_bits());
                }
                if let Some(rest) = &self.rect_rest[k] {
                    h.word(rest.code());
                    h.word(rest.lo.to_bits());
                    h.word(rest.hi.to_bits());
                }
            }
        }
        // Carried bodies (rare: only while a kinematic rectangle squeezes one), so that a
        // world without any hashes as it always has.
        for c in &self.carries {
            h.word(match c.body {
                Body::Ball(b) => b.to_bits(),
                Body::Rect(r) => r.to_bits() | 1 << 63,
            });
            h.word(c.rect.to_bits());
            for x in [c.vel.x, c.vel.y, c.normal.x, c.normal.y] {
                h.word(x.to_bits());
            }
        }
        if let Some(g) = &self.grid {
            h.word(g.cols() as u64);
            h.word(g.rows() as u64);
            for c in g.cells() {
                h.word(match c {
                    Cell::Empty => 0,
                    Cell::Wall => 1,
                    Cell::Brick(k) => 2 | u64::from(*k) << 8,
                    Cell::Sensor(k) => 3 | u64::from(*k) << 8,
                    Cell::Slope(corner) => 4 | (*corner as u64) << 8,
                });
            }
        }
        // Static segments and circles (none in most worlds, whose hashes stay).
        for w in self.shapes_words() {
            h.word(w);
        }
        // Flippers, their settings and motion (none in most worlds, whose hashes stay).
        for w in self.flippers_words() {
            h.word(w);
        }
        // Overlaps kept on purpose (sensors, passes: none in most worlds, whose hashes stay).
        for p in &self.passes {
            h.word(p.ball.to_bits());
            let (tag, bits) = match p.with {
                crate::pass::PassWith::Rect(r) => (None, r.to_bits()),
                crate::pass::PassWith::Ball(b) => (None, b.to_bits() | 1 << 63),
                // A word no rectangle or ball pass starts with, then the shape or cell.
                crate::pass::PassWith::Shape(s) => (Some(u64::MAX - 1), s.to_bits()),
                crate::pass::PassWith::Cell(c) => (
                    Some(u64::MAX - 2),
                    u64::from(c.col) | u64::from(c.row) << 32,
                ),
            };
            if let Some(tag) = tag {
                h.word(tag);
            }
            h.word(bits);
            h.word(p.since.to_bits());
            h.word(u64::from(p.sensor));
            h.word(p.ended.map_or(u64::MAX, Real::to_bits));
        }
        // Rectangles inside sensor rectangles (none in most worlds, whose hashes stay).
        for &(sensor, rect) in &self.sensor_rects {
            h.word(sensor.to_bits());
            h.word(rect.to_bits());
        }
        self.hash_materials(|w| h.word(w));
        self.hash_filters(|w| h.word(w));
        self.hash_gravity_scales(|w| h.word(w));
        h.finish()
    }

    /// Casts a circle of `radius` from `from` to `to` (world units) against the current state
    /// (tiles' exposed features, closed walls, rectangles, static segments and circles,
    /// flippers where they are now, balls; nothing moves) and returns the first hit, with `toi`
    /// as a fraction of the segment. A radius of 0 casts a ray. Used for aim previews.
    ///
    /// Contact at start counts only when the circle moves toward the obstacle (the crate's
    /// Bannerman rule). Balls listed in `ignore` are skipped (e.g. the ball being aimed).
    /// Only what a body of `filter` collides with is hit ([`crate::layers`]: the cells of the
    /// kinds it collides with, their exposure computed for it, the bodies it collides with,
    /// closed walls always); [`Filter::ALL`] hits every body and cell on some layer, a ball's
    /// own filter what that ball would hit.
    /// Ties go to the first in the order tiles, walls, rectangles, shapes, flippers, balls
    /// (each in storage order).
    /// Visits every ball; [`World::query_index`] answers the same while visiting only the
    /// balls near the segment.
    #[must_use]
    pub fn cast_circle(
        &self,
        from: Vec2,
        to: Vec2,
        radius: Real,
        ignore: &[BallId],
        filter: Filter,
    ) -> Option<CastHit> {
        self.cast_circle_among(from, to, radius, ignore, filter, 0..self.balls.len())
    }

    /// [`World::cast_circle`] against the balls of dense indices `balls` only (ascending).
    pub(crate) fn cast_circle_among(
        &self,
        from: Vec2,
        to: Vec2,
        radius: Real,
        ignore: &[BallId],
        filter: Filter,
        balls: impl Iterator<Item = usize>,
    ) -> Option<CastHit> {
        let d = to - from;
        let mut best: Option<(SweepHit, Target)> = None;
        let consider = |h: Option<SweepHit>, t: Target, best: &mut Option<(SweepHit, Target)>| {
            if let Some(h) = h {
                if best.is_none_or(|b| h.toi < b.0.toi) {
                    *best = Some((h, t));
                }
            }
        };
        if let Some(g) = &self.grid {
            if let Some(gh) = g.sweep_circle_kinds(g.kinds_for(filter), from, radius, d, 0.0, 1.0) {
                consider(Some(gh.hit), Target::Cell(gh.cell), &mut best);
            }
        }
        for (side, face) in self.wall_faces() {
            consider(
                sweep_circle_half_plane(from, radius, d, 1.0, &face),
                Target::Wall(side),
                &mut best,
            );
        }
        for r in self.rects.iter().filter(|r| filter.collides(r.filter)) {
            consider(
                sweep_circle_aabb(from, radius, d, 1.0, &r.aabb, Features::ALL),
                Target::Rect(r.id),
                &mut best,
            );
        }
        let segment_hit = |h: SegmentHit, grow: Real| SweepHit {
            toi: h.toi,
            normal: h.normal,
            point: h.point + h.normal * grow,
            feature: Feature::Circle,
        };
        for sh in self.shapes.iter().filter(|s| filter.collides(s.filter)) {
            let h = match sh.kind {
                ShapeKind::Segment { segment, ends } => {
                    sweep_circle_segment(from, radius, d, 1.0, &segment, ends)
                        .map(|h| segment_hit(h, 0.0))
                }
                ShapeKind::Circle(c) => {
                    sweep_circle_circle(from, radius, d, c.center, c.radius, Vec2::ZERO, 1.0)
                }
            };
            consider(h, Target::Shape(sh.id), &mut best);
        }
        for fl in self
            .flippers
            .iter()
            .filter(|f| filter.collides(f.desc.filter))
        {
            // The capsule where it is now: a circle grown by its radius against its core.
            let cap = fl.capsule_at(self.time);
            let h = sweep_circle_segment(
                from,
                radius + cap.radius,
                d,
                1.0,
                &cap.segment,
                SegmentEnds::BOTH,
            );
            consider(
                h.map(|h| segment_hit(h, cap.radius)),
                Target::Flipper(fl.id),
                &mut best,
            );
        }
        for i in balls {
            if !filter.collides(self.ball_filter_at(i)) {
                continue;
            }
            let b = self.balls[i].ball_at(self.time, self.acc_of(i));
            if !ignore.contains(&b.id) {
                consider(
                    sweep_circle_circle(from, radius, d, b.pos, b.radius, Vec2::ZERO, 1.0),
                    Target::Ball(b.id),
                    &mut best,
                );
            }
        }
        best.map(|(h, target)| CastHit {
            toi: h.toi,
            center: from + d * h.toi,
            point: h.point,
            normal: h.normal,
            target,
        })
    }

    /// Everything containing point `p` (boundaries included) that a body of `filter` collides
    /// with ([`Filter::ALL`]: everything on some layer; see [`World::cast_circle`]): solid
    /// cells (a slope's half), balls, rectangles, static shapes (a segment only through its
    /// points), flippers where they are now, in that order (cells row-major, bodies in storage
    /// order), appended to `out`. Visits every ball; see [`World::query_index`].
    pub fn query_point(&self, p: Vec2, filter: Filter, out: &mut Vec<Target>) {
        self.query_point_among(p, filter, out, 0..self.balls.len());
    }

    /// [`World::query_point`] among the balls of dense indices `balls` (ascending).
    pub(crate) fn query_point_among(
        &self,
        p: Vec2,
        filter: Filter,
        out: &mut Vec<Target>,
        balls: impl Iterator<Item = usize>,
    ) {
        if let Some(g) = &self.grid {
            g.for_each_solid_in_kinds(g.kinds_for(filter), &Aabb::new(p, p), |c, _| {
                if g.cell_shape(c).is_some_and(|s| s.contains_point(p)) {
                    out.push(Target::Cell(c));
                }
            });
        }
        for i in balls {
            if !filter.collides(self.ball_filter_at(i)) {
                continue;
            }
            let b = self.balls[i].ball_at(self.time, self.acc_of(i));
            if (p - b.pos).length_squared() <= b.radius * b.radius {
                out.push(Target::Ball(b.id));
            }
        }
        for r in self.rects.iter().filter(|r| filter.collides(r.filter)) {
            if point_in_aabb(p, &r.aabb) {
                out.push(Target::Rect(r.id));
            }
        }
        for sh in self.shapes.iter().filter(|s| filter.collides(s.filter)) {
            let inside = match sh.kind {
                ShapeKind::Segment { segment, .. } => distance_point_segment(p, &segment) == 0.0,
                ShapeKind::Circle(c) => (p - c.center).length_squared() <= c.radius * c.radius,
            };
            if inside {
                out.push(Target::Shape(sh.id));
            }
        }
        for fl in self
            .flippers
            .iter()
            .filter(|f| filter.collides(f.desc.filter))
        {
            let cap = fl.capsule_at(self.time);
            if distance_point_segment(p, &cap.segment) <= cap.radius {
                out.push(Target::Flipper(fl.id));
            }
        }
    }

    /// Everything overlapping `aabb` with positive area that a body of `filter` collides with
    /// ([`Filter::ALL`]: everything on some layer): solid cells (a slope's half), balls,
    /// rectangles, static shapes (a segment when it crosses the box's interior), flippers
    /// where they are now, in that order, appended to `out`. Visits every ball; see
    /// [`World::query_index`].
    pub fn query_aabb(&self, aabb: &Aabb, filter: Filter, out: &mut Vec<Target>) {
        self.query_aabb_among(aabb, filter, out, 0..self.balls.len());
    }

    /// [`World::query_aabb`] among the balls of dense indices `balls` (ascending).
    pub(crate) fn query_aabb_among(
        &self,
        aabb: &Aabb,
        filter: Filter,
        out: &mut Vec<Target>,
        balls: impl Iterator<Item = usize>,
    ) {
        if let Some(g) = &self.grid {
            g.for_each_solid_in_kinds(g.kinds_for(filter), aabb, |c, _| {
                if g.cell_shape(c).is_some_and(|s| s.overlaps_aabb(aabb)) {
                    out.push(Target::Cell(c));
                }
            });
        }
        for i in balls {
            if !filter.collides(self.ball_filter_at(i)) {
                continue;
            }
            let b = self.balls[i].ball_at(self.time, self.acc_of(i));
            if circle_overlaps_aabb(b.pos, b.radius, aabb) {
                out.push(Target::Ball(b.id));
            }
        }
        for r in self.rects.iter().filter(|r| filter.collides(r.filter)) {
            if aabb_overlaps_aabb(aabb, &r.aabb) {
                out.push(Target::Rect(r.id));
            }
        }
        for sh in self.shapes.iter().filter(|s| filter.collides(s.filter)) {
            let overlaps = match sh.kind {
                ShapeKind::Segment { segment, .. } => aabb_overlaps_capsule(
                    aabb,
                    &Capsule {
                        segment,
                        radius: 0.0,
                    },
                ),
                ShapeKind::Circle(c) => circle_overlaps_aabb(c.center, c.radius, aabb),
            };
            if overlaps {
                out.push(Target::Shape(sh.id));
            }
        }
        for fl in self
            .flippers
            .iter()
            .filter(|f| filter.collides(f.desc.filter))
        {
            if aabb_overlaps_capsule(aabb, &fl.capsule_at(self.time)) {
                out.push(Target::Flipper(fl.id));
            }
        }
    }

    /// The closed walls as face segments of the outside half-planes (normals into the world).
    pub(crate) fn wall_faces(&self) -> impl Iterator<Item = (Side, FaceSegment)> + '_ {
        let inf = Real::INFINITY;
        let all = [
            (
                self.walls.left,
                Side::Left,
                FaceSegment::new(Face::Right, 0.0, -inf, inf),
            ),
            (
                self.walls.top,
                Side::Top,
                FaceSegment::new(Face::Bottom, 0.0, -inf, inf),
            ),
            (
                self.walls.right,
                Side::Right,
                FaceSegment::new(Face::Left, self.size.x, -inf, inf),
            ),
            (
                self.walls.bottom,
                Side::Bottom,
                FaceSegment::new(Face::Top, self.size.y, -inf, inf),
            ),
        ];
        all.into_iter().filter(|w| w.0).map(|w| (w.1, w.2))
    }
}

/// Checks step settings with the scene format's bounds ([`Bound`]).
pub(crate) fn validate_config(c: &StepConfig) -> Result<(), WorldError> {
    Bound::Positive
        .check(c.dt)
        .map_err(|e| WorldError::BadSetting {
            field: "step.dt",
            problem: e.to_string(),
        })?;
    Bound::Unit
        .check(c.restitution)
        .map_err(|e| WorldError::BadSetting {
            field: "step.restitution",
            problem: e.to_string(),
        })?;
    limits::check_count(c.max_events_per_body, 1, limits::MAX_EVENTS_PER_BODY).map_err(
        |problem| WorldError::BadSetting {
            field: "step.max_events_per_body",
            problem,
        },
    )?;
    Bound::Coord
        .check_vec2(c.gravity)
        .map_err(|e| WorldError::BadSetting {
            field: "step.gravity",
            problem: vec2_problem(e, c.gravity),
        })?;
    Ok(())
}

/// What is wrong with a vector, naming its component: `x: expected ..., found 1e200`.
fn vec2_problem(e: OutOfBounds, v: Vec2) -> String {
    let axis = if Bound::contains(e.bound, v.x) {
        "y"
    } else {
        "x"
    };
    format!("{axis}: {e}")
}

/// A ball vector (`pos` or `vel`) within [`Bound::Coord`].
fn check_ball_vec2(field: &'static str, v: Vec2) -> Result<(), WorldError> {
    Bound::Coord
        .check_vec2(v)
        .map(|_| ())
        .map_err(|e| WorldError::BadBall {
            field,
            problem: vec2_problem(e, v),
        })
}

/// Checks a ball with the scene format's bounds ([`Bound`]).
pub(crate) fn validate_ball(b: &BallDesc) -> Result<(), WorldError> {
    check_ball_vec2("pos", b.pos)?;
    check_ball_vec2("vel", b.vel)?;
    for (field, v) in [("radius", b.radius), ("density", b.density)] {
        Bound::NonNeg.check(v).map_err(|e| WorldError::BadBall {
            field,
            problem: e.to_string(),
        })?;
    }
    crate::material::check(b.restitution).map_err(|e| WorldError::BadBall {
        field: "restitution",
        problem: e.to_string(),
    })?;
    Bound::GravityScale
        .check(b.gravity_scale)
        .map(|_| ())
        .map_err(|e| WorldError::BadBall {
            field: "gravity_scale",
            problem: e.to_string(),
        })
}

/// A box whose corners are within [`Bound::Coord`] with `min <= max`; else the field (`min`,
/// `max`, `min/max`) and the problem.
fn validate_aabb(a: &Aabb) -> Result<(), (&'static str, String)> {
    for (field, v) in [("min", a.min), ("max", a.max)] {
        Bound::Coord
            .check_vec2(v)
            .map_err(|e| (field, vec2_problem(e, v)))?;
    }
    if a.min.x > a.max.x || a.min.y > a.max.y {
        return Err((
            "min/max",
            format!(
                "min [{}, {}] must not be greater than max [{}, {}]",
                a.min.x, a.min.y, a.max.x, a.max.y
            ),
        ));
    }
    Ok(())
}

/// Checks a rectangle with the scene format's bounds ([`Bound`]).
pub(crate) fn validate_rect(r: &RectDesc) -> Result<(), WorldError> {
    validate_aabb(&r.aabb).map_err(|(field, problem)| WorldError::BadRect { field, problem })?;
    Bound::Coord
        .check_vec2(r.vel)
        .map_err(|e| WorldError::BadRect {
            field: "vel",
            problem: vec2_problem(e, r.vel),
        })?;
    Bound::NonNeg
        .check(r.density)
        .map_err(|e| WorldError::BadRect {
            field: "density",
            problem: e.to_string(),
        })?;
    crate::material::check(r.restitution).map_err(|e| WorldError::BadRect {
        field: "restitution",
        problem: e.to_string(),
    })
}

/// FNV-1a, 64-bit, over 64-bit words (each fed as 8 little-endian bytes).
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn word(&mut self, w: u64) {
        for byte in w.to_le_bytes() {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// The Morton code (Z-order) of cell `(x, y)`: the bits of `x` and `y` interleaved, `x` in
/// the even bits (G. M. Morton, "A computer oriented geodetic data base and a new technique
/// in file sequencing", IBM, 1966). Bit interleaving by the standard magic-mask spreading.
fn morton(x: u32, y: u32) -> u64 {
    fn spread(v: u32) -> u64 {
        let mut v = u64::from(v);
        v = (v | v << 16) & 0x0000_FFFF_0000_FFFF;
        v = (v | v << 8) & 0x00FF_00FF_00FF_00FF;
        v = (v | v << 4) & 0x0F0F_0F0F_0F0F_0F0F;
        v = (v | v << 2) & 0x3333_3333_3333_3333;
        v = (v | v << 1) & 0x5555_5555_5555_5555;
        v
    }
    spread(x) | spread(y) << 1
}
