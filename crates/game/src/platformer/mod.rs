//! The platformer's rules on a world of characters ([`Platformer`]): a player character that
//! runs, jumps and climbs ladders through the levels of a map, collects chests, is bounced by
//! patrolling mobs and goes through doors to the next level. [`crate::Game`] owns it.
//!
//! The physics is collide-world's character (`World::add_character`: move and slide at exact
//! times of impact, no skin gap); everything here is a rule of the game, set between steps:
//! - **Run**: the player's horizontal velocity is `run_dir ·` [`RUN_SPEED`] each step.
//! - **Jump**: an upward velocity of [`JUMP_SPEED`] set between steps. A jump press is kept
//!   for [`JUMP_BUFFER`] seconds (*jump buffering*: pressed just before landing, it jumps on
//!   landing), and a player who walked off a ledge can still jump for [`COYOTE_TIME`] seconds
//!   (*coyote time*). Releasing the jump key while rising halves the upward speed (a short
//!   hop). Up (or W) jumps too where there is no ladder.
//! - **Ladders**: sensor cells of kind `l` (collide-maps' LDtk `ladder` values; free space to
//!   the character). Up or down while the player's box overlaps one starts climbing (down also
//!   from standing on a ladder's top): the player moves at [`CLIMB_SPEED`] on both axes with
//!   gravity cancelled (its vertical velocity is set to `climb − g·dt/2`, so the parabola of
//!   the step moves it by exactly `climb·dt`) and drops through one-way platforms; climbing
//!   ends off the ladder or with a jump. Where a ladder column goes down through a floor, a
//!   one-way platform ([`LADDER_TOP`] thick) flush with the floor covers it, to walk over.
//! - **Chests**: collected when the player's box overlaps one, [`CHEST_SCORE`] points each.
//! - **Mobs**: characters walking at [`MOB_SPEED`], turning at walls (a contact whose normal
//!   opposes their walk) and at ledges (no solid cell under the point just ahead of their
//!   front foot). A mob touching the player bounces it away ([`BOUNCE`]) and takes the
//!   controls from it for [`STUN_TIME`] seconds. Mobs are on a collision layer of their own
//!   ([`MOB_LAYER`]) that the player and the mobs ignore: they walk through the player and
//!   each other (characters are otherwise solid to each other).
//! - **Doors**: entering an unlocked door (its box overlaps the player's, and did not in the
//!   step before) starts the next level; a locked door opens once every chest of the level
//!   is collected. A level without doors is left through its border: the player's box
//!   within [`BORDER`] of the level's edge, where the map is open, or, when it has chests, by
//!   collecting them all. After the last level: victory.
//! - **Start**: the level's `Player` entity; without one, the first unlocked door; without
//!   one, standing at the foot of the first ladder column.
//! - **Sandbox**: a platformer started with `balls > 0` drops that many balls of radius 3 on
//!   each level (they bounce off the level, its one-way platforms and the characters, and
//!   the player and the mobs push them: `collide_world::CharacterPush::Kinematic`).
//!
//! Deterministic: a function of the levels, the inputs and the world (no hashing of
//! addresses, no wall-clock time).

mod level;
mod script;

pub use level::{entity_box, Entity, EntityKind, PlatformerLevel};
pub use script::{sample_script, sample_script_steps};

use collide_core::{Aabb, Real, Vec2};
use collide_world::Body;
use collide_world::Contact;
use collide_world::{
    Cell, CellCoord, CharacterDesc, CharacterId, Event, Filter, RectDesc, RectKind, SpawnDesc,
    Surface, World, WorldError,
};

use crate::breaker::Phase;
use crate::events::GameEvent;
use crate::input::StepInput;

/// The player's run speed, units/s.
pub const RUN_SPEED: Real = 130.0;
/// The player's upward speed at a jump, units/s (about 82 units high under gravity 981).
pub const JUMP_SPEED: Real = 400.0;
/// Coyote time: how long after leaving the ground a jump is still allowed, seconds.
pub const COYOTE_TIME: Real = 0.1;
/// Jump buffer: how long a jump press waits for the ground, seconds.
pub const JUMP_BUFFER: Real = 0.1;
/// Climbing speed on a ladder, units/s.
pub const CLIMB_SPEED: Real = 90.0;
/// Mobs' walking speed, units/s.
pub const MOB_SPEED: Real = 40.0;
/// The velocity a mob gives the player it touches: away from the mob horizontally, up
/// vertically, units/s.
pub const BOUNCE: Vec2 = Vec2::new(200.0, -250.0);
/// How long a bounced player has no control, seconds.
pub const STUN_TIME: Real = 0.35;
/// Points per chest.
pub const CHEST_SCORE: u64 = 100;
/// Half the player's box, world units (a 12 × 22 box).
pub const PLAYER_HALF: Vec2 = Vec2::new(6.0, 11.0);
/// The thickness of the one-way platform on top of a ladder, world units.
pub const LADDER_TOP: Real = 4.0;
/// The ledge height the characters step up and the distance they snap down, world units.
pub const STEP: Real = 4.0;
/// How close to the level's edge the player's box must come to leave a level without doors
/// through its border, world units.
pub const BORDER: Real = 0.5;
/// The sensor kind of ladder cells (collide-maps' `ladder` IntGrid value).
pub const LADDER: u8 = b'l';
/// The collision layer of the mobs (layer 1; the level, the player and the balls are on
/// layer 0). The player's filter ([`PLAYER_FILTER`]) and the mobs' ([`MOB_FILTER`]) leave it
/// out of their masks: mobs walk through the player and each other (a touch bounces the
/// player, a rule of the game), and collide with the level and the balls.
pub const MOB_LAYER: u32 = 1 << 1;
/// The player's collision filter: layer 0, colliding with everything but the mobs.
pub const PLAYER_FILTER: Filter = Filter::new(1, !MOB_LAYER);
/// The mobs' collision filter: [`MOB_LAYER`], colliding with everything but the mobs (the
/// player leaves them out of its own mask).
pub const MOB_FILTER: Filter = Filter::new(MOB_LAYER, !MOB_LAYER);

/// A mob: its character and its walking direction (−1 left, +1 right).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mob {
    /// Its character.
    pub id: CharacterId,
    /// Walking direction: −1 or +1.
    pub dir: Real,
}

/// A chest of the current level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Chest {
    /// Its box.
    pub aabb: Aabb,
    /// Whether the player took it.
    pub collected: bool,
}

/// The platformer's state: the levels, the one played, the player and the rules' timers.
#[derive(Clone, Debug, PartialEq)]
pub struct Platformer {
    levels: Vec<PlatformerLevel>,
    balls: usize,
    level: usize,
    player: CharacterId,
    mobs: Vec<Mob>,
    chests: Vec<Chest>,
    doors: Vec<Entity>,
    ladders: Vec<Aabb>,
    score: u64,
    phase: Phase,
    climbing: bool,
    coyote: Real,
    buffer: Real,
    stun: Real,
    jump_held: bool,
    in_door: bool,
    bounces: u32,
}

impl Platformer {
    /// Builds the world of `levels[0]` and the rules around it; `balls` balls of radius 3
    /// are dropped on each level (0: none; the sandbox sub-mode).
    ///
    /// # Errors
    /// [`WorldError::BadSetting`] (field `levels`) for no level; the world's errors for a
    /// level it cannot build.
    pub(crate) fn new(
        levels: Vec<PlatformerLevel>,
        balls: usize,
    ) -> Result<(World, Platformer), WorldError> {
        if levels.is_empty() {
            return Err(WorldError::BadSetting {
                field: "levels",
                problem: "a platformer needs at least one level".to_string(),
            });
        }
        let mut p = Platformer {
            levels,
            balls,
            level: 0,
            // Replaced by `enter` below.
            player: CharacterId::from_bits(0),
            mobs: Vec::new(),
            chests: Vec::new(),
            doors: Vec::new(),
            ladders: Vec::new(),
            score: 0,
            phase: Phase::Playing,
            climbing: false,
            coyote: 0.0,
            buffer: 0.0,
            stun: 0.0,
            jump_held: false,
            in_door: false,
            bounces: 0,
        };
        let world = p.enter(0)?;
        Ok((world, p))
    }

    /// Builds the world of level `index` and resets the level's state.
    fn enter(&mut self, index: usize) -> Result<World, WorldError> {
        let level = &self.levels[index];
        let mut scene = level.scene.clone();
        scene.balls.clear();
        scene.spawn = (self.balls > 0).then(|| SpawnDesc {
            count: self.balls,
            radius: 3.0,
            speed: 0.0,
            density: 1.0,
            seed: 1 + index as u64,
            region: None,
            surface: Surface::DEFAULT,
        });
        let mut world = World::from_scene(&scene)?;
        // The level's one-way platforms are one-way rectangles of its scene; so are the
        // ladders' tops.
        let ladders = ladder_cells(&world);
        for top in ladder_tops(&world) {
            world.add_rect(RectDesc {
                aabb: Aabb::new(top.min, Vec2::new(top.max.x, top.min.y + LADDER_TOP)),
                kind: RectKind::Static,
                surface: Surface::ONE_WAY,
                ..RectDesc::default()
            })?;
        }
        let start = start_of(level, &ladders, world.size());
        self.player = world.add_character(CharacterDesc {
            pos: start - Vec2::new(0.0, PLAYER_HALF.y),
            half_extents: PLAYER_HALF,
            snap_distance: STEP,
            step_height: STEP,
            surface: Surface::DEFAULT.with_filter(PLAYER_FILTER),
            ..CharacterDesc::default()
        })?;
        self.mobs.clear();
        for e in level.entities_of(EntityKind::Mob) {
            let half = (e.aabb.max - e.aabb.min) * 0.5;
            let id = world.add_character(CharacterDesc {
                pos: e.aabb.center(),
                half_extents: half,
                snap_distance: STEP,
                surface: Surface::DEFAULT.with_filter(MOB_FILTER),
                ..CharacterDesc::default()
            })?;
            self.mobs.push(Mob { id, dir: 1.0 });
        }
        self.chests = level
            .entities_of(EntityKind::Chest)
            .map(|e| Chest {
                aabb: e.aabb,
                collected: false,
            })
            .collect();
        self.doors = level
            .entities
            .iter()
            .filter(|e| matches!(e.kind, EntityKind::Door { .. }))
            .copied()
            .collect();
        self.ladders = ladders;
        self.level = index;
        self.climbing = false;
        self.coyote = 0.0;
        self.buffer = 0.0;
        self.stun = 0.0;
        self.in_door = self.touching_door(&world);
        Ok(world)
    }

    /// The levels played, in order.
    #[must_use]
    pub fn levels(&self) -> &[PlatformerLevel] {
        &self.levels
    }

    /// The index of the level played (0 for the first).
    #[must_use]
    pub fn level(&self) -> usize {
        self.level
    }

    /// The player's character.
    #[must_use]
    pub fn player(&self) -> CharacterId {
        self.player
    }

    /// The mobs of the level.
    #[must_use]
    pub fn mobs(&self) -> &[Mob] {
        &self.mobs
    }

    /// The chests of the level.
    #[must_use]
    pub fn chests(&self) -> &[Chest] {
        &self.chests
    }

    /// The doors of the level (with whether they are open now: [`Platformer::door_open`]).
    #[must_use]
    pub fn doors(&self) -> &[Entity] {
        &self.doors
    }

    /// The ladder cells of the level, as boxes.
    #[must_use]
    pub fn ladders(&self) -> &[Aabb] {
        &self.ladders
    }

    /// Whether a door lets the player through now: unlocked, or every chest collected.
    #[must_use]
    pub fn door_open(&self, door: &Entity) -> bool {
        match door.kind {
            EntityKind::Door { locked } => !locked || self.chests.iter().all(|c| c.collected),
            _ => false,
        }
    }

    /// Score: [`CHEST_SCORE`] per chest.
    #[must_use]
    pub fn score(&self) -> u64 {
        self.score
    }

    /// Playing, or [`Phase::Victory`] once the last level's exit is reached.
    #[must_use]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Whether the player is on a ladder.
    #[must_use]
    pub fn climbing(&self) -> bool {
        self.climbing
    }

    /// How many times a mob bounced the player.
    #[must_use]
    pub fn bounces(&self) -> u32 {
        self.bounces
    }

    /// The words of the rules' state, for [`crate::Game::state_hash`].
    pub(crate) fn hash_words(&self) -> Vec<u64> {
        let mut w = vec![
            self.level as u64,
            self.score,
            u64::from(self.phase == Phase::Victory),
            u64::from(self.climbing)
                | u64::from(self.jump_held) << 1
                | u64::from(self.in_door) << 2,
            self.coyote.to_bits(),
            self.buffer.to_bits(),
            self.stun.to_bits(),
            u64::from(self.bounces),
        ];
        w.extend(self.mobs.iter().map(|m| m.dir.to_bits()));
        w.extend(self.chests.iter().map(|c| u64::from(c.collected)));
        w
    }

    /// Whether a box overlaps a ladder cell; `reach` extends the box downward (world units).
    fn on_ladder(&self, b: Aabb, reach: Real) -> bool {
        self.ladders.iter().any(|l| {
            b.min.x < l.max.x && b.max.x > l.min.x && b.min.y < l.max.y && b.max.y + reach > l.min.y
        })
    }

    fn touching_door(&self, world: &World) -> bool {
        let Some(c) = world.character(self.player) else {
            return false;
        };
        let b = c.aabb();
        self.doors
            .iter()
            .any(|d| self.door_open(d) && overlaps(&b, &d.aabb, 0.0))
    }

    /// One fixed step under the rules: the player's and the mobs' velocities from the input
    /// and the rules, the world's step, then chests, mobs' touches, doors and the level's border. The
    /// world's events are left in `events`, what the rules did in `game_events` (both
    /// replaced). A level change replaces `world`.
    pub(crate) fn step(
        &mut self,
        world: &mut World,
        input: &StepInput,
        events: &mut Vec<Event>,
        game_events: &mut Vec<GameEvent>,
    ) {
        game_events.clear();
        let dt = world.config().dt;
        let g = world.config().gravity.y;
        if let Some(c) = world.character(self.player).copied() {
            let vel = self.player_velocity(&c, input, dt, g);
            // The character exists (read above): these cannot fail.
            let _ = world.set_character_velocity(self.player, vel);
            let drop = self.climbing || input.climb_dir > 0;
            let _ = world.set_character_drop_through(self.player, drop);
        }
        self.walk_mobs(world);
        world.step();
        *events = world.take_events();
        self.turn_mobs(world, events);
        self.after_step(world, game_events);
    }

    /// The player's velocity for this step (and the rules' timers).
    fn player_velocity(
        &mut self,
        c: &collide_world::Character,
        input: &StepInput,
        dt: Real,
        g: Real,
    ) -> Vec2 {
        let b = c.aabb();
        let run = Real::from(input.run_dir.signum());
        let climb = Real::from(input.climb_dir.signum());
        let ladder_here = self.on_ladder(b, 0.0);
        if self.climbing && !ladder_here {
            self.climbing = false;
        }
        if !self.climbing && climb != 0.0 && self.on_ladder(b, if climb > 0.0 { 1.0 } else { 0.0 })
        {
            self.climbing = true;
        }
        let jump = input.jump || (climb < 0.0 && !ladder_here && !self.climbing);
        let pressed = jump && !self.jump_held;
        self.jump_held = jump;
        self.coyote = if c.on_ground() {
            COYOTE_TIME
        } else {
            (self.coyote - dt).max(0.0)
        };
        self.buffer = if pressed {
            JUMP_BUFFER
        } else {
            (self.buffer - dt).max(0.0)
        };
        if self.stun > 0.0 {
            self.stun = (self.stun - dt).max(0.0);
            return c.vel;
        }
        if self.buffer > 0.0 && (self.coyote > 0.0 || self.climbing) {
            self.buffer = 0.0;
            self.coyote = 0.0;
            self.climbing = false;
            return Vec2::new(run * RUN_SPEED, -JUMP_SPEED);
        }
        if self.climbing {
            // Gravity cancelled over the step: `v·dt + g·dt²/2 = climb·dt`.
            return Vec2::new(run * CLIMB_SPEED, climb * CLIMB_SPEED - 0.5 * g * dt);
        }
        let mut vy = c.vel.y;
        if !jump && vy < 0.0 && !c.on_ground() {
            // A short hop: the jump key released while rising.
            vy *= 0.5;
        }
        Vec2::new(run * RUN_SPEED, vy)
    }

    /// Sets each mob's velocity, turning it at a ledge ahead.
    fn walk_mobs(&mut self, world: &mut World) {
        for m in &mut self.mobs {
            let Some(c) = world.character(m.id).copied() else {
                continue;
            };
            if c.on_ground() {
                let b = c.aabb();
                let front = if m.dir > 0.0 {
                    b.max.x + 1.0
                } else {
                    b.min.x - 1.0
                };
                if !solid_at(world, Vec2::new(front, b.max.y + 1.0)) {
                    m.dir = -m.dir;
                }
            }
            let _ = world.set_character_velocity(m.id, Vec2::new(m.dir * MOB_SPEED, c.vel.y));
        }
    }

    /// Turns the mobs that walked into a wall this step.
    fn turn_mobs(&mut self, world: &World, events: &[Event]) {
        for m in &mut self.mobs {
            let hit = events.iter().any(|e| {
                matches!(*e, Event::Contact(Contact { body: Body::Character(character), normal, .. })
                    if character == m.id && normal.x * m.dir < -0.5)
            });
            let blocked = world.character(m.id).is_some_and(|c| c.vel.x == 0.0);
            if hit || blocked {
                m.dir = -m.dir;
            }
        }
    }

    /// Chests, mobs' touches, doors and the border, after the world's step.
    fn after_step(&mut self, world: &mut World, game_events: &mut Vec<GameEvent>) {
        let Some(c) = world.character(self.player).copied() else {
            return;
        };
        let b = c.aabb();
        for chest in &mut self.chests {
            if !chest.collected && overlaps(&b, &chest.aabb, 0.0) {
                chest.collected = true;
                self.score += CHEST_SCORE;
                game_events.push(GameEvent::ChestCollected { score: self.score });
            }
        }
        if self.stun == 0.0 {
            for m in &self.mobs {
                let Some(mc) = world.character(m.id) else {
                    continue;
                };
                if overlaps(&b, &mc.aabb(), 0.5) {
                    let away = if c.pos.x < mc.pos.x { -1.0 } else { 1.0 };
                    let _ = world
                        .set_character_velocity(self.player, Vec2::new(away * BOUNCE.x, BOUNCE.y));
                    self.stun = STUN_TIME;
                    self.climbing = false;
                    self.bounces += 1;
                    game_events.push(GameEvent::Bounced);
                    break;
                }
            }
        }
        if self.phase == Phase::Victory {
            return;
        }
        let in_door = self.touching_door(world);
        let entered = in_door && !self.in_door;
        self.in_door = in_door;
        let size = world.size();
        let at_border = !self.levels[self.level].has_doors()
            && (b.min.x <= BORDER
                || b.min.y <= BORDER
                || b.max.x >= size.x - BORDER
                || b.max.y >= size.y - BORDER);
        let doorless_chests_done = !self.levels[self.level].has_doors()
            && !self.chests.is_empty()
            && self.chests.iter().all(|c| c.collected);
        if entered || at_border || doorless_chests_done {
            let next = self.level + 1;
            game_events.push(GameEvent::LevelCleared {
                level: u8::try_from(next).ok(),
            });
            if next < self.levels.len() {
                match self.enter(next) {
                    Ok(w) => *world = w,
                    Err(_) => self.phase = Phase::Victory,
                }
            } else {
                self.phase = Phase::Victory;
            }
        }
    }

    /// A simple player for demos: runs toward the nearest uncollected chest or open door,
    /// jumping at walls; when that target lies above the player's box (or the level has no
    /// target, so its way out is up), it runs to the nearest ladder column reaching above its
    /// feet and climbs it. Only inputs, never a teleport. Deterministic: a function of the
    /// state only.
    #[must_use]
    pub fn autopilot(&self, world: &World) -> StepInput {
        let Some(c) = world.character(self.player) else {
            return StepInput::default();
        };
        let b = c.aabb();
        let target = self
            .chests
            .iter()
            .filter(|ch| !ch.collected)
            .map(|ch| ch.aabb.center())
            .chain(
                self.doors
                    .iter()
                    .filter(|d| self.door_open(d))
                    .map(|d| d.aabb.center()),
            )
            .min_by(|a, b| (a.x - c.pos.x).abs().total_cmp(&(b.x - c.pos.x).abs()));
        let toward = |x: Real| {
            if x > c.pos.x + 2.0 {
                1
            } else if x < c.pos.x - 2.0 {
                -1
            } else {
                0
            }
        };
        let up = target.is_none_or(|t| t.y < b.min.y);
        let ladder = self
            .ladders
            .iter()
            .filter(|l| l.min.y < b.max.y - 1.0)
            .min_by(|p, q| {
                (p.center().x - c.pos.x)
                    .abs()
                    .total_cmp(&(q.center().x - c.pos.x).abs())
            });
        if let (true, Some(l)) = (up, ladder) {
            let run_dir = if self.climbing {
                0
            } else {
                toward(l.center().x)
            };
            return StepInput {
                run_dir,
                climb_dir: if run_dir == 0 { -1 } else { 0 },
                ..StepInput::default()
            };
        }
        let run_dir = target.map_or(0, |t| toward(t.x));
        let blocked = c.vel.x == 0.0 && run_dir != 0;
        StepInput {
            run_dir,
            jump: blocked && world.steps() % 30 < 15,
            ..StepInput::default()
        }
    }
}

/// Whether two boxes overlap, each grown by `slack` (world units).
fn overlaps(a: &Aabb, b: &Aabb, slack: Real) -> bool {
    a.min.x < b.max.x + slack
        && a.max.x + slack > b.min.x
        && a.min.y < b.max.y + slack
        && a.max.y + slack > b.min.y
}

/// Whether the point lies in a solid cell (a wall, brick or slope; sensors are free space).
fn solid_at(world: &World, p: Vec2) -> bool {
    let Some(grid) = world.grid() else {
        return false;
    };
    grid.cell_at(p)
        .is_some_and(|c| !matches!(grid.cell(c), Cell::Empty | Cell::Sensor(_)))
}

/// The ladder cells of the world's grid, row by row.
fn ladder_cells(world: &World) -> Vec<Aabb> {
    let Some(grid) = world.grid() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for row in 0..grid.rows() as u32 {
        for col in 0..grid.cols() as u32 {
            let c = CellCoord::new(col, row);
            if grid.cell(c) == Cell::Sensor(LADDER) {
                out.push(grid.cell_aabb(c));
            }
        }
    }
    out
}

/// The ladder cells where a ladder column meets a floor: a ladder cell with a solid cell on
/// its left or right, under a ladder or empty cell with no solid cell on either side. Their
/// tops, flush with the floor, are the ladders' one-way platforms.
fn ladder_tops(world: &World) -> Vec<Aabb> {
    let Some(grid) = world.grid() else {
        return Vec::new();
    };
    let cell = |col: i64, row: i64| {
        if col < 0 || row < 0 {
            Cell::Empty
        } else {
            grid.cell(CellCoord::new(col as u32, row as u32))
        }
    };
    let solid = |col: i64, row: i64| !matches!(cell(col, row), Cell::Empty | Cell::Sensor(_));
    let sided = |col: i64, row: i64| solid(col - 1, row) || solid(col + 1, row);
    let mut out = Vec::new();
    for row in 1..grid.rows() as i64 {
        for col in 0..grid.cols() as i64 {
            if cell(col, row) == Cell::Sensor(LADDER)
                && sided(col, row)
                && matches!(cell(col, row - 1), Cell::Empty | Cell::Sensor(LADDER))
                && !sided(col, row - 1)
            {
                out.push(grid.cell_aabb(CellCoord::new(col as u32, row as u32)));
            }
        }
    }
    out
}

/// Where the player starts, the bottom centre of its box: the `Player` entity's bottom
/// centre; else the first unlocked door's; else the foot of the first ladder column; else the
/// level's centre.
fn start_of(level: &PlatformerLevel, ladders: &[Aabb], size: Vec2) -> Vec2 {
    let bottom = |a: &Aabb| Vec2::new(a.center().x, a.max.y);
    if let Some(p) = level.entities_of(EntityKind::Player).next() {
        return bottom(&p.aabb);
    }
    if let Some(d) = level
        .entities
        .iter()
        .find(|e| e.kind == EntityKind::Door { locked: false })
    {
        return bottom(&d.aabb);
    }
    if let Some(first) = ladders.first() {
        let mut foot = *first;
        while let Some(below) = ladders
            .iter()
            .find(|l| l.min.x == foot.min.x && l.min.y == foot.max.y)
        {
            foot = *below;
        }
        return bottom(&foot);
    }
    size * 0.5
}
