//! # collide-world
//!
//! The simulation layer of collide: a tile grid map ([`Grid`]: squares and 45° slopes) with
//! exposed-feature flags (no ghost collisions), balls, static / kinematic / dynamic / sensor
//! rectangles, static segments, polylines and circles ([`Shape`]), turning flippers
//! ([`Flipper`]), collision layers ([`Filter`]), materials, gravity on exact parabolas with
//! resting contact and sleep, all with stable generational ids; scene descriptions
//! ([`Scene`]: TOML scene files and BricksBeater levels are parsed into them by the
//! `collide-scene` crate), and the fixed-step
//! [`World::step`] with exact, event-driven continuous collision detection, collision events,
//! world queries (circle cast, point and box overlap), a state hash for determinism checks, and
//! snapshots of the whole state ([`World::snapshot`], [`World::restore`]) for rollback.
//! [`World::set_threads`] lets the step predict large batches on several threads with results
//! identical bit for bit to one thread's (only `std::thread::scope`, no thread-pool crate).
//!
//! Depends on `collide-core` (geometry), `glam`, `serde` (snapshots), `thiserror` and
//! `mem_prefetch` (cache prefetch hints in the step's event loop, safely). It must never depend
//! on a renderer, a window, a game's rules or a command-line crate, nor on a text format's
//! parser (`toml`): it reads no file (`tests/it/layering.rs`).
//!
//! # Conventions
//! As `collide-core`: x right, **y down**, world units (1 unit = 1 pixel at zoom 1), seconds,
//! units/s, `f64`. Event times are seconds from the start of the step. Normals point from the
//! obstacle toward the body named first in an event.
//!
//! # Example
//! ```
//! use collide_world::{BallDesc, StepConfig, Vec2, Walls, World};
//! let mut w = World::new(Vec2::new(100.0, 100.0), Walls::ALL, StepConfig { dt: 0.1, ..Default::default() }).unwrap();
//! // A ball of radius 5 at x = 80 moving right at 100 units/s reaches x = 95 (touching the
//! // right wall) after 0.15 s of travel: during the first 0.1 s step it moves to x = 90, in the
//! // second it hits at t = 0.05 and comes back to x = 95 - 5 = 90, moving left.
//! let id = w.add_ball(BallDesc { pos: Vec2::new(80.0, 50.0), vel: Vec2::new(100.0, 0.0), radius: 5.0, ..BallDesc::default() }).unwrap();
//! w.step();
//! w.step();
//! let b = w.ball(id).unwrap();
//! assert!((b.pos.x - 90.0).abs() < 1e-12);
//! assert_eq!(b.vel, Vec2::new(-100.0, 0.0));
//! ```

mod body;
mod grid;
mod model;
mod step;
mod world;

/// Limits on every input (sizes, counts, speeds, coordinates) and the one [`limits::Bound`]
/// check the scene loaders and the setters share.
pub use model::limits;
/// The seeded xorshift64* generator behind every random choice of the crate (spawners,
/// generated grids), the same bits on every platform.
pub use model::rng;

/// The geometry crate this one is built on, for its swept tests and overlap tests.
pub use collide_core;
/// The types the world's API takes and returns, so that one dependency on `collide-world` is
/// enough: [`Vec2`] (a `glam::DVec2`), [`Real`] (`f64`), [`Aabb`], the hit features of
/// [`Event::Contact`] and [`GridHit`], and the [`ConvexPolygon`] and [`PolygonCorners`] of a
/// polygon shape.
pub use collide_core::{
    Aabb, Circle, ConvexPolygon, Corner, Face, Feature, Features, HalfTile, PolygonCorners, Real,
    SweepHit, Vec2,
};

pub use body::ball::{Ball, Balls};
pub use body::character::{Character, Ground};
pub use body::flipper::{Flipper, FlipperMotion};
pub use body::rect::Rect;
pub use body::shape::{polygon_corners, polyline_segments, Shape};
pub use grid::rows::{cell_from_char, char_from_cell, parse_rows};
pub use grid::{CellShape, Grid, GridHit};
pub use model::cell::{Cell, CellCoord};
pub use model::character_desc::{CharacterDesc, CharacterPush};
pub use model::desc::{
    BallDesc, GridDesc, RectDesc, RectKind, Scene, SpawnDesc, StepConfig, Walls,
};
pub use model::error::{GridError, LevelError, WorldError};
pub use model::event::{Body, Contact, Event, SensorId, Side};
pub use model::filter::Filter;
pub use model::flipper_desc::FlipperDesc;
pub use model::hook::{
    BodyShape, BodyState, ContactHook, ContactInfo, ContactResponse, HookError, Obstacle,
};
pub use model::ids::{BallId, CharacterId, FlipperId, RectId, ShapeId};
pub use model::shape_desc::{ShapeDesc, ShapeKind};
pub use model::surface::Surface;
pub use world::query::{CastHit, Target};
pub use world::query_index::QueryIndex;
pub use world::snapshot::{Snapshot, SnapshotError, SNAPSHOT_VERSION};
pub use world::World;

/// The arena scene and random grids for the crate's own unit tests (the real ones are in
/// `collide-scenes` and `collide-scene`, which depend on this crate).
#[cfg(test)]
mod fixtures;

/// The crate's README, whose code blocks run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
