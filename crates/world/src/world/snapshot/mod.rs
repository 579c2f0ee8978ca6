//! Snapshots of a world's state, for rollback netcode, saving and undo.
//!
//! A [`Snapshot`] holds what the step's future depends on: the settings, the step count and
//! time, every ball's and rectangle's id and current path (anchor, velocity), size, density
//! own restitution and filter (layers and mask), the id slots (so that ids never repeat across
//! a restore), the grid's cells and its cell kinds' restitutions and filters, and the bodies a
//! kinematic rectangle carries, and each flipper's button and motion (its settings, like the
//! static shapes, are the world's shape: checked, not restored).
//! Everything else a world keeps is a cache: predictions, the broad phase, spatial domains,
//! the grid's exposed features and clearance are built again.
//! [`World::restore`] followed by N steps is bit-identical to the same N steps without it,
//! because the step's results do not depend on whether its predictions were kept or made anew
//! (`tests/it/invariance.rs`).
//!
//! A snapshot is plain data: `serde` serializes it in any format. In a compact binary format
//! (postcard) it takes about 60 bytes per ball.
//!
//! With a restitution other than 1 (the world's, or a body's own: [`crate::model::material`]), the
//! TC rule (docs/algorithms.md) makes a body hit again within its window of its last hit
//! bounce elastically; the bodies hit within that window before a step's end are part of the
//! state (`World::remember_recent_hits`), kept by a snapshot, so a collision just after a
//! restore bounces as it would have without it. So are the sleeping balls and their counts
//! toward sleep ([`crate::step::sleep`]).

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::body::flipper::Flipper;
use crate::body::rest::Rest;
use crate::body::rest::RestOn;
use crate::model::cell::Cell;
use crate::model::cell::CellCoord;
use crate::model::desc::Walls;
use crate::model::event::Body;
use crate::model::filter::Filter;
use crate::model::ids::{RectId, ShapeId};
use crate::step::pass::PassWith;
use crate::world::World;
use collide_core::{Aabb, Real, Vec2};

mod characters;
mod restore;

/// The format version written into every snapshot and checked by [`World::restore`].
/// Version 3 added the filters (`crate::model::filter`); version 4 the sensors' state (rectangles
/// in sensor rectangles, the sensor cells' filter), flippers and the paths and rests of
/// falling boxes. A snapshot of another version is refused.
pub const SNAPSHOT_VERSION: u32 = 4;

/// A world's state (see the module docs). Fields are private: make one with
/// [`World::snapshot`], bring it back with [`World::restore`], store it with serde.
///
/// A format must give back every `f64` bit for bit for the restored world to continue with
/// the same bits: binary formats (postcard, bincode) do; through JSON, turn on serde_json's
/// `float_roundtrip` feature (without it serde_json may read a number back one unit in the
/// last place off, and [`World::restore`] then refuses a flipper's or a shape's settings, or
/// restores a world that drifts from the original).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    version: u32,
    /// World size, units.
    size: [Real; 2],
    /// Closed walls: bits left, top, right, bottom.
    walls: u8,
    /// The grid: cell side, origin, columns, rows (`None`: no grid).
    grid: Option<(Real, [Real; 2], u32, u32)>,
    /// Settings: dt, ball–ball, restitution, destructible bricks, events per body.
    config: (Real, bool, Real, bool, u32),
    /// Gravity, units/s².
    gravity: [Real; 2],
    /// Whether balls may fall asleep (`sleep.rs`); absent: true.
    #[serde(default = "yes")]
    sleep: bool,
    /// The push-out's bookkeeping (`step/embed.rs`): whether the next step checks every body
    /// for embedding, the balls (storage indices) moved in since the last check, and the balls
    /// that fit nowhere (ids). Absent: every body checked, none held.
    #[serde(default = "yes")]
    embed_check: bool,
    #[serde(default)]
    embed_some: Vec<u32>,
    #[serde(default)]
    unplaceable: Vec<u64>,
    steps: u64,
    time: Real,
    balls: Vec<SnapBall>,
    ball_slots: (Vec<(u32, u32)>, Vec<u32>),
    rects: Vec<SnapRect>,
    rect_slots: (Vec<(u32, u32)>, Vec<u32>),
    /// Row-major cells: 0 empty, 1 wall, 2 to 5 a slope solid at the top-left, top-right,
    /// bottom-left, bottom-right corner, `256 + k` brick of kind `k`, `512 + k` sensor of
    /// kind `k`.
    cells: Vec<u16>,
    carries: Vec<SnapCarry>,
    /// The balls held by a face under gravity (`rest.rs`).
    rests: Vec<SnapRest>,
    /// Each ball's own restitution, index for index with `balls`, or empty when no ball has
    /// one.
    ball_restitution: Vec<Option<Real>>,
    /// The grid's wall and brick restitutions (`None`, `None` without a grid).
    grid_restitution: (Option<Real>, Option<Real>),
    /// Each ball's gravity scale, index for index with `balls`, or empty (absent) when every
    /// ball's is 1.
    #[serde(default)]
    ball_gravity: Vec<Real>,
    /// Balls inside sensors or passing through a body (`pass.rs`); absent: none.
    #[serde(default)]
    passes: Vec<SnapPass>,
    /// The static shapes' words (`World::shapes_words`): the world's shape,
    /// checked by a restore, not restored (absent: none).
    #[serde(default)]
    shapes: Vec<u64>,
    /// Each ball's filter (layers, mask), index for index with `balls`, or empty when every
    /// ball has the default.
    ball_filters: Vec<(u32, u32)>,
    /// Each rectangle's filter, index for index with `rects`, or empty when every rectangle
    /// has the default.
    rect_filters: Vec<(u32, u32)>,
    /// The grid's wall and brick filters (the defaults without a grid).
    grid_filters: [(u32, u32); 2],
    /// Rectangles inside sensor rectangles, `(sensor, rectangle)` id bits, sorted
    /// (`rect_sensor.rs`); absent: none.
    #[serde(default)]
    sensor_rects: Vec<(u64, u64)>,
    /// The grid's sensor cells' filter (absent: the default).
    #[serde(default = "default_filter_pair")]
    grid_sensor_filter: (u32, u32),
    /// The rectangles whose current path started with another velocity than their current
    /// one (dynamic rectangles under gravity, `rect_path.rs`): storage index and that
    /// velocity; absent: none.
    #[serde(default)]
    rect_paths: Vec<(u32, [Real; 2])>,
    /// The dynamic rectangles held by a face under gravity (`rest.rs`), as `rests` with
    /// rectangle storage indices; absent: none.
    #[serde(default)]
    rect_rests: Vec<SnapRest>,
    /// The flippers (`crate::body::flipper`): their settings, checked by a restore (the world's
    /// shape), and their button and motion, restored (absent: none).
    #[serde(default)]
    flippers: Vec<SnapFlipper>,
    /// The counts toward sleep (`sleep.rs`), `(index, count, where the count started)` for
    /// the counts that are not zero: a ball's storage index, or a dynamic rectangle's
    /// storage index plus the number of balls (the centre of its box where the count
    /// started); absent: none.
    #[serde(default)]
    slow: Vec<(u32, u32, [Real; 2])>,
    /// The TC rule's memory (`World::remember_recent_hits`): the bodies hit within its window
    /// before the snapshot, `(0 ball or 1 rectangle, id bits, time of the hit, its normal)`;
    /// absent: none.
    #[serde(default)]
    tc: Vec<(u8, u64, Real, [Real; 2])>,
    /// The characters, their id slots and the one-way platforms (`characters.rs`); absent:
    /// none.
    #[serde(default)]
    characters: characters::SnapCharacters,
    /// The balls rolling over the corner at the end of a slanted face (a shape's, a slope
    /// cell's diagonal; `crate::step::shape_rest`), `(index, normal)`: their rests are stored
    /// in `rests` with the side `4`, and this gives their normal back; absent: none.
    #[serde(default)]
    edge_normals: Vec<(u32, [Real; 2])>,
}

fn yes() -> bool {
    true
}

fn default_filter_pair() -> (u32, u32) {
    filter_pair(Filter::DEFAULT)
}

/// A rest as stored (see [`SnapRest`]), of the body at storage index `i`.
fn snap_rest(i: usize, r: &Rest) -> SnapRest {
    let axis = r.axis();
    let mut side = (axis as u8) << 1 | u8::from(r.normal[axis] > 0.0);
    if let RestOn::Shape(_, face) = r.on {
        // The normal comes from the shape's face on a restore.
        side = 4 + face;
    } else if matches!(r.on, RestOn::Cell(_) | RestOn::Edge) && !r.aligned() {
        // A slope's diagonal: the normal comes from the cell on a restore.
        side = 4;
    }
    let (kind, bits) = match r.on {
        RestOn::Shape(id, _) => (5, id.to_bits()),
        RestOn::Cell(c) => (0, u64::from(c.col) | u64::from(c.row) << 32),
        RestOn::Wall => (1, 0),
        RestOn::Rect(id) => (2, id.to_bits()),
        RestOn::Edge => (3, 0),
        RestOn::Asleep => (4, 0),
    };
    // A wall and a sleep hold over an unbounded range, restored as such: stored as zeros,
    // which every format writes (JSON has no infinities).
    let (lo, hi) = if kind == 1 || kind == 4 {
        (0.0, 0.0)
    } else {
        (r.lo, r.hi)
    };
    SnapRest(i as u32, side, lo, hi, kind, bits)
}

/// The rests of `snap` put in `slots` (by storage index), or why not (`what[k]` names it).
fn restore_rests(
    snap: &[SnapRest],
    slots: &mut [Option<Rest>],
    what: &str,
) -> Result<(), SnapshotError> {
    for (k, r) in snap.iter().enumerate() {
        let bad = |problem: &str| corrupt(format!("{what}[{k}]"), problem.to_string());
        let slot = slots
            .get_mut(r.0 as usize)
            .ok_or_else(|| bad("no such body"))?;
        let axis = usize::from(r.1 >> 1);
        let ordered = r.2 <= r.3;
        // A shape's face: `4 + face`, its normal set from the shape (`restore.rs`).
        let shape_face = matches!(r.4, 0 | 3 | 5) && r.1 >= 4;
        if (axis > 1 && !shape_face) || !ordered || r.2.is_nan() {
            return Err(bad("not a face"));
        }
        let mut normal = Vec2::ZERO;
        if !shape_face {
            normal[axis] = if r.1 & 1 == 1 { 1.0 } else { -1.0 };
        }
        let on = match r.4 {
            5 if shape_face => RestOn::Shape(ShapeId::from_bits(r.5), r.1 - 4),
            0 | 3 if shape_face && r.1 != 4 => return Err(bad("not a face")),
            0 => RestOn::Cell(CellCoord::new(r.5 as u32, (r.5 >> 32) as u32)),
            1 => RestOn::Wall,
            2 => RestOn::Rect(RectId::from_bits(r.5)),
            3 => RestOn::Edge,
            4 => RestOn::Asleep,
            _ => return Err(bad("unknown body kind")),
        };
        let (lo, hi) = match on {
            RestOn::Wall | RestOn::Asleep => (Real::NEG_INFINITY, Real::INFINITY),
            _ => (r.2, r.3),
        };
        *slot = Some(Rest { normal, lo, hi, on });
    }
    Ok(())
}

/// A flipper: id bits, settings (pivot x, y, length, radius, rest angle, active angle,
/// angular speed), own restitution, filter (layers, mask), button held, motion (since,
/// angle, target, omega, until).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
struct SnapFlipper(u64, [Real; 7], Option<Real>, (u32, u32), bool, [Real; 5]);

impl SnapFlipper {
    fn of(fl: &Flipper) -> SnapFlipper {
        let d = &fl.desc;
        let m = &fl.motion;
        SnapFlipper(
            fl.id.to_bits(),
            [
                d.pivot.x,
                d.pivot.y,
                d.length,
                d.radius,
                d.rest_angle,
                d.active_angle,
                d.angular_speed,
            ],
            d.surface.restitution,
            filter_pair(d.surface.filter),
            fl.pressed,
            [m.since, m.angle, m.target, m.omega, m.until],
        )
    }
}

fn filter_pair(f: Filter) -> (u32, u32) {
    (f.layers, f.mask)
}

/// A ball: id bits, anchor, anchor time, velocity, radius, density.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
struct SnapBall(u64, [Real; 2], Real, [Real; 2], Real, Real);

/// A rectangle: id bits, box, velocity, kind (0 static, 1 kinematic, 2 dynamic), density,
/// the box and time its current path started from, its own restitution.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
struct SnapRect(
    u64,
    [Real; 4],
    [Real; 2],
    u8,
    Real,
    [Real; 4],
    Real,
    Option<Real>,
);

/// A carried body: ball (0) or rectangle (1) and its id bits, the carrying rectangle's id
/// bits, its velocity, the contact normal, crushed.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
struct SnapCarry(u8, u64, u64, [Real; 2], [Real; 2], bool);

/// A resting ball: its storage index, the face's normal (axis 0/1 and sign as bits
/// `axis << 1 | positive`), the range `lo`, `hi` (zeros for an unbounded one: a wall's, a
/// sleep's), the body (0 cell, 1 wall, 2 rectangle, 3 rolling over an edge, 4 asleep) and
/// its bits (cell column and row, or rectangle id).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
struct SnapRest(u32, u8, Real, Real, u8, u64);

/// A pass: the ball's id bits, what it overlaps (0 a rectangle, 1 a ball, 2 a sensor circle,
/// 3 a sensor cell) and its id bits (a cell: `col | row << 32`),
/// the absolute time it began, whether it is a sensor's, the time it ended (if it has).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
struct SnapPass(u64, u8, u64, Real, bool, Option<Real>);

/// Why [`World::restore`] refused a snapshot. The world is left unchanged.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum SnapshotError {
    /// The snapshot was written by another version of the format.
    #[error("snapshot format version {found}, this build reads version {expected}")]
    Version {
        /// The snapshot's version.
        found: u32,
        /// [`SNAPSHOT_VERSION`].
        expected: u32,
    },
    /// The snapshot is of a world of another shape: `field` (`world.size`, `world.walls`,
    /// `grid`, `shapes`: the static shapes (segments, circles, polygons), `flippers`: the flippers' ids and
    /// settings) differs.
    #[error("the snapshot's `{field}` differs from this world's: {detail}")]
    Shape {
        /// What differs.
        field: &'static str,
        /// The two values.
        detail: String,
    },
    /// The snapshot does not hold a valid state (corrupted, or edited by hand): `what` says
    /// which part, `problem` how.
    #[error("corrupt snapshot: `{what}`: {problem}")]
    Corrupt {
        /// The part: `balls[i].pos`, `rects[i]`, `cells`, `ball_slots`, `config`, ...
        what: String,
        /// What is wrong.
        problem: String,
    },
}

fn corrupt(what: impl Into<String>, problem: impl ToString) -> SnapshotError {
    SnapshotError::Corrupt {
        what: what.into(),
        problem: problem.to_string(),
    }
}

fn v2(v: Vec2) -> [Real; 2] {
    [v.x, v.y]
}

fn aabb4(a: &Aabb) -> [Real; 4] {
    [a.min.x, a.min.y, a.max.x, a.max.y]
}

fn walls_bits(w: Walls) -> u8 {
    u8::from(w.left) | u8::from(w.top) << 1 | u8::from(w.right) << 2 | u8::from(w.bottom) << 3
}

fn cell_code(c: Cell) -> u16 {
    match c {
        Cell::Empty => 0,
        Cell::Wall => 1,
        Cell::Brick(k) => 256 + u16::from(k),
        Cell::Sensor(k) => 512 + u16::from(k),
        Cell::Slope(corner) => 2 + corner as u16,
    }
}

fn body_bits(b: Body) -> (u8, u64) {
    match b {
        Body::Ball(id) => (0, id.to_bits()),
        Body::Rect(id) => (1, id.to_bits()),
        Body::Character(id) => (2, id.to_bits()),
    }
}

fn id_parts(bits: u64) -> (u32, u32) {
    (bits as u32, (bits >> 32) as u32)
}

impl World {
    /// The world's state now (see [`crate::Snapshot`]). `O(balls + rectangles + cells)`.
    #[must_use]
    pub fn snapshot(&self) -> Snapshot {
        let (be, bf) = self.ball_slots.parts();
        let (re, rf) = self.rect_slots.parts();
        let c = &self.config;
        Snapshot {
            version: SNAPSHOT_VERSION,
            size: v2(self.size),
            walls: walls_bits(self.walls),
            grid: self.grid.as_ref().map(|g| {
                (
                    g.cell_size(),
                    v2(g.origin()),
                    g.cols() as u32,
                    g.rows() as u32,
                )
            }),
            config: (
                c.dt,
                c.ball_ball,
                c.restitution,
                c.destructible_bricks,
                c.max_events_per_body,
            ),
            gravity: v2(c.gravity),
            sleep: c.sleep,
            embed_check: self.embed_check,
            embed_some: self.embed_some.iter().map(|&i| i as u32).collect(),
            unplaceable: self.unplaceable.iter().map(|b| b.to_bits()).collect(),
            steps: self.steps,
            time: self.time,
            balls: self.snap_balls(),
            ball_slots: (be.to_vec(), bf.to_vec()),
            rects: self.snap_rects(),
            rect_slots: (re.to_vec(), rf.to_vec()),
            cells: self.grid.as_ref().map_or_else(Vec::new, |g| {
                g.cells().iter().map(|&c| cell_code(c)).collect()
            }),
            carries: self.snap_carries(),
            shapes: self.shapes_words(),
            sensor_rects: self
                .sensor_rects
                .iter()
                .map(|&(s, r)| (s.to_bits(), r.to_bits()))
                .collect(),
            flippers: self.flippers.iter().map(SnapFlipper::of).collect(),
            passes: self.snap_passes(),
            rests: self
                .ball_rest
                .iter()
                .enumerate()
                .filter_map(|(i, r)| Some(snap_rest(i, r.as_ref()?)))
                .collect(),
            rect_paths: self
                .rects
                .iter()
                .zip(&self.rect_anchor)
                .enumerate()
                .filter(|(_, (r, a))| {
                    a.2.to_array().map(Real::to_bits) != r.vel.to_array().map(Real::to_bits)
                })
                .map(|(i, (_, a))| (i as u32, v2(a.2)))
                .collect(),
            tc: self.snap_tc(),
            characters: self.snap_characters(),
            edge_normals: self
                .ball_rest
                .iter()
                .enumerate()
                .filter_map(|(i, r)| {
                    r.filter(|r| r.on == RestOn::Edge && !r.aligned())
                        .map(|r| (i as u32, r.normal.to_array()))
                })
                .collect(),
            slow: self
                .ball_slow
                .iter()
                .chain(&self.rect_slow)
                .enumerate()
                .filter(|(_, c)| c.count > 0)
                .map(|(i, c)| (i as u32, c.count, v2(c.at)))
                .collect(),
            rect_rests: self
                .rect_rest
                .iter()
                .enumerate()
                .filter_map(|(i, r)| Some(snap_rest(i, r.as_ref()?)))
                .collect(),
            ball_restitution: if self.ball_restitution.iter().any(Option::is_some) {
                self.ball_restitution.clone()
            } else {
                Vec::new()
            },
            ball_gravity: self.ball_gravity.clone(),
            grid_restitution: self.grid.as_ref().map_or((None, None), |g| {
                (g.wall_restitution(), g.brick_restitution())
            }),
            ball_filters: self.ball_filter.iter().map(|&f| filter_pair(f)).collect(),
            rect_filters: if self.rects.iter().all(|r| r.surface.filter.is_default()) {
                Vec::new()
            } else {
                self.rects
                    .iter()
                    .map(|r| filter_pair(r.surface.filter))
                    .collect()
            },
            grid_filters: self
                .grid
                .as_ref()
                .map_or([filter_pair(Filter::DEFAULT); 2], |g| {
                    [filter_pair(g.wall_filter()), filter_pair(g.brick_filter())]
                }),
            grid_sensor_filter: self
                .grid
                .as_ref()
                .map_or(default_filter_pair(), |g| filter_pair(g.sensor_filter())),
        }
    }

    /// The balls' records (anchored paths).
    fn snap_balls(&self) -> Vec<SnapBall> {
        self.balls
            .iter()
            .map(|b| {
                SnapBall(
                    b.id.to_bits(),
                    v2(b.anchor),
                    b.anchor_time,
                    v2(b.v0),
                    b.radius,
                    b.density,
                )
            })
            .collect()
    }

    /// The rectangles, with their anchors.
    fn snap_rects(&self) -> Vec<SnapRect> {
        self.rects
            .iter()
            .zip(&self.rect_anchor)
            .map(|(r, (a, at, _))| {
                SnapRect(
                    r.id.to_bits(),
                    aabb4(&r.aabb),
                    v2(r.vel),
                    r.code(),
                    r.density,
                    aabb4(a),
                    *at,
                    r.surface.restitution,
                )
            })
            .collect()
    }

    /// The squeeze carries.
    fn snap_carries(&self) -> Vec<SnapCarry> {
        // Only rectangles' carries: a flipper's ends with the step.
        self.carries
            .iter()
            .map(|c| {
                let (kind, bits) = body_bits(c.body);
                SnapCarry(
                    kind,
                    bits,
                    c.by.rect_bits(),
                    v2(c.vel),
                    v2(c.normal),
                    c.crushed,
                )
            })
            .collect()
    }

    /// The contacts passed through.
    fn snap_passes(&self) -> Vec<SnapPass> {
        self.passes
            .iter()
            .map(|p| {
                let (kind, bits) = match p.with {
                    PassWith::Rect(r) => (0, r.to_bits()),
                    PassWith::Ball(b) => (1, b.to_bits()),
                    PassWith::Shape(s) => (2, s.to_bits()),
                    PassWith::Cell(c) => (3, u64::from(c.col) | u64::from(c.row) << 32),
                };
                SnapPass(p.ball.to_bits(), kind, bits, p.since, p.sensor, p.ended)
            })
            .collect()
    }

    /// The TC rule's memory of recent hits.
    fn snap_tc(&self) -> Vec<(u8, u64, Real, [Real; 2])> {
        self.tc_memory
            .iter()
            .map(|&(body, hit, n)| match body {
                Body::Ball(id) => (0, id.to_bits(), hit, v2(n)),
                Body::Rect(id) => (1, id.to_bits(), hit, v2(n)),
                Body::Character(id) => (2, id.to_bits(), hit, v2(n)),
            })
            .collect()
    }
}
