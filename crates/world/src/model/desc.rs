//! Plain descriptions of what a world holds: the data a scene file, a level or user code gives
//! to [`crate::World`]. Created with struct literals and `Default`; validated when a world is
//! built from them.
//!
//! Conventions as in `collide-core`: x right, y down, world units, seconds, units/s, `f64`.

use crate::model::cell::Cell;
use crate::model::filter::Filter;
use crate::model::surface::Surface;
use collide_core::{Aabb, Real, Vec2};

/// Which sides of the world rectangle `[0, 0]–size` reflect. An open side lets balls leave;
/// a ball that has left entirely is removed with a `BallLost` event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Walls {
    /// The side `x = 0`.
    pub left: bool,
    /// The side `y = 0` (top of the screen).
    pub top: bool,
    /// The side `x = width`.
    pub right: bool,
    /// The side `y = height` (bottom of the screen).
    pub bottom: bool,
}

impl Walls {
    /// All four sides reflect: a closed box.
    pub const ALL: Walls = Walls {
        left: true,
        top: true,
        right: true,
        bottom: true,
    };
    /// No side reflects.
    pub const NONE: Walls = Walls {
        left: false,
        top: false,
        right: false,
        bottom: false,
    };
    /// BricksBeater: left, top and right reflect, the bottom is open.
    pub const OPEN_BOTTOM: Walls = Walls {
        left: true,
        top: true,
        right: true,
        bottom: false,
    };
}

impl Default for Walls {
    fn default() -> Self {
        Walls::ALL
    }
}

/// A tile grid: `cols × rows` square cells of side `cell` world units, cell `(0, 0)` with its
/// top-left corner at `origin`, cells stored row-major (`cells[row * cols + col]`).
#[derive(Clone, Debug, PartialEq)]
pub struct GridDesc {
    /// Side of a square cell in world units (`> 0`).
    pub cell: Real,
    /// Top-left corner of cell `(0, 0)` in world units.
    pub origin: Vec2,
    /// Number of columns.
    pub cols: usize,
    /// Number of rows.
    pub rows: usize,
    /// `cols * rows` cells, row-major, row 0 at the top.
    pub cells: Vec<Cell>,
    /// Restitution of every [`Cell::Wall`], finite in `[0, MAX_RESTITUTION]`
    /// ([`crate::model::limits::MAX_RESTITUTION`], 10); `None` (the default) = the world's
    /// [`StepConfig::restitution`]. Combined with the other body's by
    /// docs/algorithms.md, "Materials".
    pub wall_restitution: Option<Real>,
    /// Restitution of every [`Cell::Brick`], whatever its kind; as `wall_restitution`.
    pub brick_restitution: Option<Real>,
    /// Layers and mask of every [`Cell::Wall`] ([`crate::Filter`]); default
    /// [`Filter::DEFAULT`] (layer 0, colliding with everything).
    pub wall_filter: Filter,
    /// Layers and mask of every [`Cell::Brick`], whatever its kind; as `wall_filter`.
    pub brick_filter: Filter,
    /// Layers and mask of every [`Cell::Sensor`], whatever its kind: which balls it reports
    /// (those whose filter collides with it); as `wall_filter`.
    pub sensor_filter: Filter,
}

/// A ball to add: centre `pos` (world units), velocity `vel` (units/s), `radius` (world units,
/// `>= 0`), `density` (mass per unit area, `>= 0`; mass = density·π·radius²).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BallDesc {
    /// Centre, world units.
    pub pos: Vec2,
    /// Velocity, units/s.
    pub vel: Vec2,
    /// Radius, world units, finite and `>= 0`.
    pub radius: Real,
    /// Density (mass per unit area), finite and `>= 0`. Default 1.
    pub density: Real,
    /// The ball's restitution and layers ([`Surface`]; a ball is never a sensor). Default
    /// [`Surface::DEFAULT`]: the world's restitution, colliding with everything.
    pub surface: Surface,
    /// The multiple of the world's [`StepConfig::gravity`] that accelerates this ball: 1 (the
    /// default) falls with the world, 0 flies straight (a bullet), a negative value rises (a
    /// balloon). Finite, `|s| <= MAX_GRAVITY_SCALE` (1000). Pairs of balls of different
    /// scales meet at the roots of their relative path's quartic, exactly.
    pub gravity_scale: Real,
}

impl Default for BallDesc {
    fn default() -> Self {
        BallDesc {
            pos: Vec2::ZERO,
            vel: Vec2::ZERO,
            radius: 3.0,
            density: 1.0,
            surface: Surface::DEFAULT,
            gravity_scale: 1.0,
        }
    }
}

/// How a rectangle moves. A static or kinematic rectangle whose [`Surface::sensor`] is set is
/// a trigger area: it never changes a body's motion, reports [`crate::Event::SensorEnter`] and
/// [`crate::Event::SensorExit`] at the exact times a ball's circle starts and stops overlapping
/// it, and moves as its kind says. Dynamic rectangles and pushed-out bodies ignore it; world
/// queries see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RectKind {
    /// Never moves: an obstacle like a tile.
    #[default]
    Static,
    /// Moves with its own velocity and is unaffected by hits (infinite mass): a paddle.
    Kinematic,
    /// Moves and bounces off everything, exchanging momentum (mass = density·area) with balls
    /// and other dynamic rectangles (seed article 003's bouncing rectangle).
    Dynamic,
}

/// A rectangle to add: `aabb` (world units), velocity `vel` (units/s), `kind`, and `density`
/// (mass per unit area, used by dynamic rectangles; default 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RectDesc {
    /// Position and size, world units.
    pub aabb: Aabb,
    /// Velocity, units/s (ignored for static rectangles).
    pub vel: Vec2,
    /// Static, kinematic or dynamic.
    pub kind: RectKind,
    /// Density (mass per unit area), finite and `>= 0`. Default 1.
    pub density: Real,
    /// The rectangle's restitution (a bumper, a dead pad), layers, and whether it is a sensor
    /// (static or kinematic only; see [`RectKind`]). Default [`Surface::DEFAULT`].
    pub surface: Surface,
}

impl Default for RectDesc {
    fn default() -> Self {
        RectDesc {
            aabb: Aabb::default(),
            vel: Vec2::ZERO,
            kind: RectKind::Static,
            density: 1.0,
            surface: Surface::DEFAULT,
        }
    }
}

/// Random balls placed in free space, with no overlap with solid cells, rectangles or each
/// other, uniform random directions and exactly `speed` units/s.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpawnDesc {
    /// Number of balls.
    pub count: usize,
    /// Radius of every ball, world units.
    pub radius: Real,
    /// Speed of every ball, units/s.
    pub speed: Real,
    /// Density of every ball. Default 1.
    pub density: Real,
    /// Seed of the xorshift64* generator (see [`crate::model::rng`]).
    pub seed: u64,
    /// Region the centres are drawn from (world units); `None` = the whole world.
    pub region: Option<Aabb>,
    /// Restitution and layers of every ball, as [`BallDesc::surface`]. The balls are placed
    /// clear of every solid cell, rectangle and other ball whatever their filter.
    pub surface: Surface,
}

/// Simulation settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepConfig {
    /// The fixed time step in seconds (`> 0`). Default 1/60.
    pub dt: Real,
    /// Whether balls collide with each other. Default true (BricksBeater levels: false).
    pub ball_ball: bool,
    /// Restitution (1 = elastic), in `[0, 1]`: of every collision with a closed wall of the
    /// world, and of every body or cell kind without its own value
    /// ([`Surface::restitution`], [`GridDesc::wall_restitution`],
    /// [`GridDesc::brick_restitution`]; see docs/algorithms.md, "Materials"). Default 1.
    pub restitution: Real,
    /// Whether bricks are destroyed by their first hit (false: bricks act as walls).
    /// Default true.
    pub destructible_bricks: bool,
    /// Collision events each body may have in one step on its own; past it a body borrows
    /// further events from the step's shared pool ([`StepConfig::event_pool`]), and stops for
    /// the rest of the step, with an `IterationLimit` event, when the pool is spent or when
    /// more than eight of its borrowed events come at the instant of its event before (a
    /// ball in a pile meets a few neighbours at one instant; a body bouncing at one instant
    /// without end stops there). Default 256.
    pub max_events_per_body: u32,
    /// Constant acceleration of every ball and dynamic rectangle, units/s² (y grows
    /// downward: `(0, 981)` is Earth's gravity at 100 units per metre). Between events those
    /// bodies follow exact parabolas `p(τ) = p0 + v0·τ + ½·g·τ²` (a box translates along
    /// it), every time of impact solved exactly (quadratics, quartics for a ball and a
    /// corner); a body held by a face it rests on loses the normal part (`crate::step::rest`).
    /// Static, kinematic and sensor rectangles ignore it. Each component finite with
    /// `|g| <= 1e9`. Default zero (straight paths).
    pub gravity: Vec2,
    /// Whether balls and dynamic boxes that settle in a pile or stack under gravity fall
    /// asleep (held without velocity until something wakes them, `crate::step::sleep`).
    /// Without gravity, or with restitution 1 everywhere, nothing ever sleeps. Default true.
    pub sleep: bool,
}

impl StepConfig {
    /// The events a step lends to bodies past their own `max_events_per_body`:
    /// `512 × max_events_per_body`, at most 131 072 (2¹⁷; the default bound of 256 gives
    /// exactly that). A step has at most `bodies × max_events_per_body + event_pool()`
    /// collision events, however the bodies behave: the event bound is a safety valve for
    /// pathological scenes (a ball pinned in a gap a hair wider than itself), while a legal
    /// elastic cluster that needs many events in one step runs exactly (Galperin's billiard,
    /// 31 415 collisions at M/m = 10⁸, in any step size).
    #[must_use]
    pub fn event_pool(&self) -> u64 {
        (512 * u64::from(self.max_events_per_body)).min(1 << 17)
    }
}

impl Default for StepConfig {
    fn default() -> Self {
        StepConfig {
            dt: 1.0 / 60.0,
            ball_ball: true,
            restitution: 1.0,
            destructible_bricks: true,
            max_events_per_body: 256,
            gravity: Vec2::ZERO,
            sleep: true,
        }
    }
}

/// Everything needed to build a world: the world rectangle and its walls, an optional grid,
/// explicit balls and rectangles, optional random balls, and the step settings.
///
/// Built in code, or read from a TOML scene file or a BricksBeater `.dat` level by the
/// `collide-scene` crate (`collide_scene::load`, `collide_scene::from_toml_str`).
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// Display name (file stem or built-in name).
    pub name: String,
    /// Size of the world rectangle `[0, 0]–size`, world units.
    pub size: Vec2,
    /// Which sides of the world rectangle reflect.
    pub walls: Walls,
    /// The tile grid, if any.
    pub grid: Option<GridDesc>,
    /// Balls placed explicitly.
    pub balls: Vec<BallDesc>,
    /// Rectangles placed explicitly.
    pub rects: Vec<RectDesc>,
    /// Static segments, circles and polygons ([`crate::Shape`]): `[[segment]]`,
    /// `[[polyline]]` (its segments), `[[circle]]` and `[[polygon]]` tables.
    pub shapes: Vec<crate::model::shape_desc::ShapeDesc>,
    /// Flippers ([`crate::Flipper`]): `[[flipper]]` tables.
    pub flippers: Vec<crate::model::flipper_desc::FlipperDesc>,
    /// Random balls, placed after the explicit ones.
    pub spawn: Option<SpawnDesc>,
    /// Step settings.
    pub step: StepConfig,
}

impl Default for Scene {
    fn default() -> Self {
        Scene {
            name: String::new(),
            size: Vec2::new(640.0, 480.0),
            walls: Walls::ALL,
            grid: None,
            balls: Vec::new(),
            rects: Vec::new(),
            shapes: Vec::new(),
            flippers: Vec::new(),
            spawn: None,
            step: StepConfig::default(),
        }
    }
}
