//! The character scenes of `collide-compare characters` and how a walk over them is measured,
//! whatever engine moves the character.
//!
//! - Seam run ([`seam_rows`]): a floor of [`SEAM_TILES`] flush 16-unit tiles, a 12 × 20 box
//!   character standing on it, moved right at a constant speed until it has crossed.
//! - Ramp ([`ramp_rows`]): a flat floor, a 45° ramp up 5 tiles, a plateau, a 45° ramp down 5
//!   tiles and a flat floor again, walked at [`RAMP_SPEED`] units/s.
//!
//! Units: world units, seconds, units/s; y grows downward, gravity `(0, GRAVITY)`.
//! Every engine's character is measured against the collide world of the same scene, which
//! holds the same geometry exactly ([`Probe`]): its gap to the ground is
//! `World::cast_box` straight down, and it is inside the geometry when its box shrunk by
//! [`INSIDE_TOL`] meets a solid cell.

use std::time::Instant;

use collide_world::{
    Aabb, CellCoord, CharacterDesc, CharacterId, Filter, Grid, StepConfig, Vec2, Walls, World,
};

use crate::engine::median;

/// Tile size, world units.
pub const CELL: f64 = 16.0;
/// Tiles of the seam run's floor.
pub const SEAM_TILES: usize = 200;
/// Rows of the seam run's level; the last is the floor.
pub const SEAM_ROWS: usize = 4;
/// The character's half extents (a 12 × 20 box).
pub const HALF: Vec2 = Vec2::new(6.0, 10.0);
/// Frame time, s.
pub const DT: f64 = 1.0 / 60.0;
/// Gravity, units/s² (downward).
pub const GRAVITY: f64 = 1000.0;
/// Snap-to-ground distance of both engines, world units.
pub const SNAP: f64 = 4.0;
/// Steepest walkable slope of both engines, degrees.
pub const MAX_SLOPE_DEG: f64 = 50.0;
/// The ramp walk's speed, units/s.
pub const RAMP_SPEED: f64 = 120.0;
/// Frames before the measured walk, standing still, so that each engine settles.
pub const SETTLE_FRAMES: usize = 30;
/// Tolerance of "vertical displacement ≠ 0" and of "inside the geometry", world units.
pub const INSIDE_TOL: f64 = 1e-9;
/// A vertical displacement larger than this, world units, counts as a bump.
pub const BUMP: f64 = 1e-3;
/// A frame snags when the horizontal progress is below this fraction of the desired one.
pub const PROGRESS_MIN: f64 = 0.99;
/// Where the character starts: its centre's x.
pub const START_X: f64 = 40.0;

/// The seam run's rows: empty above, one row of flush tiles at the bottom.
#[must_use]
pub fn seam_rows() -> Vec<String> {
    (0..SEAM_ROWS)
        .map(|r| if r + 1 == SEAM_ROWS { "#" } else { " " }.repeat(SEAM_TILES))
        .collect()
}

/// The top of the seam run's floor, y.
#[must_use]
pub fn seam_floor_top() -> f64 {
    (SEAM_ROWS - 1) as f64 * CELL
}

/// The ramp's rows (45 columns, 10 rows of 16 units): floor rows 8 and 9 (top y = 128); slope
/// cells `3` rising over columns 10 to 14 (x 160 to 240) up to the plateau (top y = 48, x 240
/// to 400), slope cells `1` falling over columns 25 to 29 (x 400 to 480), floor again to
/// x = 720.
#[must_use]
pub fn ramp_rows() -> Vec<String> {
    let cols = 45;
    let mut rows: Vec<Vec<u8>> = vec![vec![b' '; cols]; 10];
    for row in rows.iter_mut().skip(8) {
        row.fill(b'#');
    }
    for k in 0..5 {
        // Up: column 10 + k has its slope cell in row 7 - k and solid cells below.
        rows[7 - k][10 + k] = b'3';
        rows[7 - k][29 - k] = b'1';
        for row in rows.iter_mut().take(8).skip(8 - k) {
            row[10 + k] = b'#';
            row[29 - k] = b'#';
        }
    }
    for row in rows.iter_mut().take(8).skip(3) {
        row[15..25].fill(b'#');
    }
    rows.into_iter()
        .map(|r| String::from_utf8(r).unwrap_or_default())
        .collect()
}

/// The ramp's ground outline, left to right (the polyline a user would draw over it).
#[must_use]
#[cfg_attr(not(feature = "rapier"), allow(dead_code))]
pub fn ramp_outline() -> Vec<Vec2> {
    [
        (0.0, 128.0),
        (160.0, 128.0),
        (240.0, 48.0),
        (400.0, 48.0),
        (480.0, 128.0),
        (720.0, 128.0),
    ]
    .into_iter()
    .map(|(x, y)| Vec2::new(x, y))
    .collect()
}

/// The scenes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SceneId {
    /// The seam run.
    Seam,
    /// The ramp.
    Ramp,
}

impl SceneId {
    /// Its rows.
    #[must_use]
    pub fn rows(self) -> Vec<String> {
        match self {
            SceneId::Seam => seam_rows(),
            SceneId::Ramp => ramp_rows(),
        }
    }

    /// The top of the floor under the start, y.
    #[must_use]
    pub fn floor_top(self) -> f64 {
        match self {
            SceneId::Seam => seam_floor_top(),
            SceneId::Ramp => 128.0,
        }
    }

    /// The frames of the measured walk at `speed`: as many as cross the level without
    /// reaching its far end (`START_X` from it).
    #[must_use]
    pub fn frames(self, speed: f64) -> usize {
        let width = self.rows()[0].len() as f64 * CELL;
        let d = width - 2.0 * START_X;
        (d / (speed * DT)).floor() as usize
    }
}

/// The collide world of a scene's geometry (walls all round, gravity `(0, GRAVITY)`), no
/// character.
///
/// # Errors
/// The world's error as text (the scenes are valid: never in practice).
pub fn level(scene: SceneId) -> Result<World, String> {
    let rows = scene.rows();
    let config = StepConfig {
        dt: DT,
        gravity: Vec2::new(0.0, GRAVITY),
        ..StepConfig::default()
    };
    let size = Vec2::new(rows[0].len() as f64 * CELL, rows.len() as f64 * CELL);
    let mut w = World::new(size, Walls::ALL, config).map_err(|e| e.to_string())?;
    let strs: Vec<&str> = rows.iter().map(String::as_str).collect();
    w.set_grid(Grid::from_rows(CELL, Vec2::ZERO, &strs).map_err(|e| e.to_string())?);
    Ok(w)
}

/// Gap and overlap of a box against a scene's exact geometry.
pub struct Probe {
    world: World,
}

impl Probe {
    /// The probe of `scene`.
    ///
    /// # Errors
    /// As [`level`].
    pub fn new(scene: SceneId) -> Result<Probe, String> {
        Ok(Probe {
            world: level(scene)?,
        })
    }

    /// The distance the box centred at `c` moves straight down before it touches the ground
    /// (0 when touching or inside; infinite when nothing within 100 units).
    pub fn gap(&self, c: Vec2) -> f64 {
        let d = 100.0;
        let b = Aabb::new(c - HALF, c + HALF);
        self.world
            .cast_box(&b, Vec2::new(0.0, d), Filter::ALL)
            .map_or(f64::INFINITY, |h| h.toi * d)
    }

    /// Whether the box centred at `c`, shrunk by [`INSIDE_TOL`], overlaps a solid cell's
    /// shape (square or slope half) with positive area.
    pub fn inside(&self, c: Vec2) -> bool {
        let b = Aabb::new(c - HALF + INSIDE_TOL, c + HALF - INSIDE_TOL);
        let Some(g) = self.world.grid() else {
            return false;
        };
        let s = g.cell_size();
        let lo = ((b.min - g.origin()) / s).floor();
        let hi = ((b.max - g.origin()) / s).floor();
        let (c0, c1) = (lo.x.max(0.0) as u32, hi.x.max(0.0) as u32);
        let (r0, r1) = (lo.y.max(0.0) as u32, hi.y.max(0.0) as u32);
        (r0..=r1).any(|row| {
            (c0..=c1).any(|col| {
                g.cell_shape(CellCoord { col, row })
                    .is_some_and(|shape| shape.overlaps_aabb(&b))
            })
        })
    }
}

/// One frame of a character controller.
pub struct Frame {
    /// The character's centre after the frame.
    pub pos: Vec2,
    /// Whether the engine reports it on the ground.
    pub grounded: bool,
    /// The move's time, milliseconds.
    pub ms: f64,
}

/// A character controller driven frame by frame: each frame the game asks it to walk at
/// `vx` units/s, gravity acting.
pub trait Mover {
    /// Runs one frame of `DT`.
    fn frame(&mut self, vx: f64) -> Frame;
}

/// What a walk measured.
#[derive(Clone, Debug, Default)]
pub struct Walk {
    /// Measured frames.
    pub frames: usize,
    /// Frames whose vertical displacement exceeds [`INSIDE_TOL`] or whose horizontal progress
    /// is below [`PROGRESS_MIN`] of the desired.
    pub snags: usize,
    /// Frames whose horizontal progress is below [`PROGRESS_MIN`] of the desired.
    pub slowed: usize,
    /// Frames whose vertical displacement exceeds [`BUMP`].
    pub bumps: usize,
    /// The largest vertical displacement of a frame, world units.
    pub max_dy: f64,
    /// The distance travelled over the desired one.
    pub progress: f64,
    /// The gap to the ground after each frame: mean and max, world units.
    pub gap_mean: f64,
    /// See `gap_mean`.
    pub gap_max: f64,
    /// Frames after which the engine does not report the character on the ground.
    pub not_grounded: usize,
    /// Frames after which the character is inside the geometry by more than [`INSIDE_TOL`].
    pub inside: usize,
    /// The median ms per move.
    pub ms: f64,
}

/// Walks `mover` at `speed` for `frames` frames after [`SETTLE_FRAMES`] frames standing
/// still, measuring each frame against `probe`.
pub fn walk(mover: &mut dyn Mover, probe: &Probe, speed: f64, frames: usize) -> Walk {
    let mut prev = Vec2::ZERO;
    for _ in 0..SETTLE_FRAMES {
        prev = mover.frame(0.0).pos;
    }
    let start = prev;
    let want = speed * DT;
    let mut w = Walk {
        frames,
        ..Walk::default()
    };
    let mut times = Vec::with_capacity(frames);
    let mut gap_sum = 0.0;
    for _ in 0..frames {
        let f = mover.frame(speed);
        times.push(f.ms);
        let d = f.pos - prev;
        prev = f.pos;
        w.max_dy = w.max_dy.max(d.y.abs());
        let slowed = d.x < PROGRESS_MIN * want;
        if d.y.abs() > INSIDE_TOL || slowed {
            w.snags += 1;
        }
        w.slowed += usize::from(slowed);
        w.bumps += usize::from(d.y.abs() > BUMP);
        let gap = probe.gap(f.pos);
        gap_sum += gap;
        w.gap_max = w.gap_max.max(gap);
        w.not_grounded += usize::from(!f.grounded);
        w.inside += usize::from(probe.inside(f.pos));
    }
    w.gap_mean = gap_sum / frames.max(1) as f64;
    w.progress = (prev.x - start.x) / (want * frames as f64);
    w.ms = median(&mut times);
    w
}

/// collide's character: `World::step` of a world holding the scene and the character only,
/// its velocity set to `(vx, vy)` before each step, `vy` the vertical velocity the step left
/// while it is in the air and 0 on the ground.
pub struct CollideMover {
    world: World,
    id: CharacterId,
}

impl CollideMover {
    /// The character standing at [`START_X`] on `scene`'s floor, with snap distance [`SNAP`],
    /// max slope [`MAX_SLOPE_DEG`], no step-up.
    ///
    /// # Errors
    /// The world's error as text.
    pub fn new(scene: SceneId) -> Result<CollideMover, String> {
        let mut world = level(scene)?;
        let id = world
            .add_character(CharacterDesc {
                pos: Vec2::new(START_X, scene.floor_top() - HALF.y),
                half_extents: HALF,
                max_slope: MAX_SLOPE_DEG.to_radians(),
                snap_distance: SNAP,
                ..CharacterDesc::default()
            })
            .map_err(|e| e.to_string())?;
        Ok(CollideMover { world, id })
    }
}

impl Mover for CollideMover {
    fn frame(&mut self, vx: f64) -> Frame {
        let (vy, grounded) = self
            .world
            .character(self.id)
            .map_or((0.0, false), |c| (c.vel.y, c.on_ground()));
        let vy = if grounded { 0.0 } else { vy };
        // The id is live and the velocity finite: this cannot fail.
        let _ = self
            .world
            .set_character_velocity(self.id, Vec2::new(vx, vy));
        let t0 = Instant::now();
        self.world.step();
        let ms = t0.elapsed().as_secs_f64() * 1e3;
        let c = self.world.character(self.id);
        Frame {
            pos: c.map_or(Vec2::ZERO, |c| c.pos),
            grounded: c.is_some_and(|c| c.on_ground()),
            ms,
        }
    }
}

/// collide's character moved the way rapier's controller is: `World::move_and_slide` of
/// `(vx·DT, vy·DT + ½·GRAVITY·DT²)` each frame, no `World::step` (the world's gravity does not
/// act then), `vy` 0 while the character is on the ground and gaining `GRAVITY·DT` per frame
/// otherwise.
pub struct CollideSlideMover {
    inner: CollideMover,
    vy: f64,
    events: Vec<collide_world::Event>,
}

impl CollideSlideMover {
    /// As [`CollideMover::new`].
    ///
    /// # Errors
    /// The world's error as text.
    pub fn new(scene: SceneId) -> Result<CollideSlideMover, String> {
        Ok(CollideSlideMover {
            inner: CollideMover::new(scene)?,
            vy: 0.0,
            events: Vec::new(),
        })
    }
}

impl Mover for CollideSlideMover {
    fn frame(&mut self, vx: f64) -> Frame {
        let w = &mut self.inner.world;
        let id = self.inner.id;
        let desired = Vec2::new(vx * DT, self.vy * DT + 0.5 * GRAVITY * DT * DT);
        self.events.clear();
        let t0 = Instant::now();
        // The id is live and the motion finite: this cannot fail.
        let _ = w.move_and_slide(id, desired, &mut self.events);
        let ms = t0.elapsed().as_secs_f64() * 1e3;
        let c = w.character(id);
        let grounded = c.is_some_and(|c| c.on_ground());
        self.vy = if grounded {
            0.0
        } else {
            self.vy + GRAVITY * DT
        };
        Frame {
            pos: c.map_or(Vec2::ZERO, |c| c.pos),
            grounded,
            ms,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ramp_rows_match_the_outline() {
        let probe = Probe::new(SceneId::Ramp).unwrap();
        let o = ramp_outline();
        // A point just above the outline is free, just below is solid: sample x over each
        // segment, away from the vertices.
        for s in o.windows(2) {
            for k in 1..8 {
                let t = f64::from(k) / 8.0;
                let p = s[0] + (s[1] - s[0]) * t;
                let g = probe.world.grid().unwrap();
                let q = |y: f64| {
                    let at = Vec2::new(p.x, y);
                    g.cell_at(at)
                        .and_then(|c| g.cell_shape(c))
                        .is_some_and(|shape| shape.contains_point(at))
                };
                assert!(!q(p.y - 0.01), "free above {p:?}");
                assert!(q(p.y + 0.01), "solid below {p:?}");
            }
        }
    }

    #[test]
    fn collide_stands_on_the_seam_floor_and_walks_without_snagging() {
        let mut m = CollideMover::new(SceneId::Seam).unwrap();
        let p = Probe::new(SceneId::Seam).unwrap();
        let w = walk(&mut m, &p, 1000.0, 100);
        assert_eq!(w.snags, 0);
        assert_eq!(w.max_dy, 0.0);
        assert_eq!(w.gap_max, 0.0);
        assert_eq!(w.inside, 0);
        assert!((w.progress - 1.0).abs() < 1e-12, "{}", w.progress);
        let mut m = CollideSlideMover::new(SceneId::Seam).unwrap();
        let w = walk(&mut m, &p, 1000.0, 100);
        assert_eq!((w.snags, w.gap_max, w.inside), (0, 0.0, 0));
    }
}
