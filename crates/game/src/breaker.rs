//! BricksBeater's rules on a world: the paddle, serving and launching, power-ups, lives,
//! score, clearing a level. One [`Breaker`] per level played; [`crate::Game`] owns it.

use collide_core::{Aabb, Real, Vec2};
use collide_scene::level::BALL_RADIUS;
use collide_world::rng::XorShift64Star;
use collide_world::Body;
use collide_world::Contact;
use collide_world::Target;
use collide_world::{
    BallDesc, BallId, Cell, CellCoord, Event, Filter, Grid, RectDesc, RectId, RectKind, Scene,
    Surface, World, WorldError,
};

use crate::colors::BallColors;
use crate::events::GameEvent;
use crate::input::StepInput;
use crate::options::Options;
use crate::policy::{clamp_paddle, english, min_vertical, rotate, PaddleLimits, PowerKind, SPREAD};

/// Distance between a ball waiting on the paddle and the paddle's top, world units.
pub const REST_GAP: Real = 0.25;

/// Balls rained into the sealed pockets of a level (see [`sealed_pockets`]) each time a
/// ball in play bounces off the paddle's top: the player's returns feed the rain.
pub const RAIN_PER_RETURN: usize = 1;

/// A heart caught at full lives scores this many bricks' worth.
pub const HEART_BONUS_BRICKS: u64 = 5;

/// How long a rained ball lives, seconds, if it breaks no brick before (a rained ball is
/// spent on its first brick).
pub const RAIN_LIFE: Real = 5.0;

/// Where a game of BricksBeater stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// A ball waits on the paddle for the launch (start of a level, after a lost life).
    Serving,
    /// Balls are in play.
    Playing,
    /// No brick is left: the next level starts when `steps_left` reaches 0.
    LevelCleared {
        /// Fixed steps until the next level.
        steps_left: u32,
    },
    /// No life is left; a launch starts a new game.
    GameOver,
    /// The last level is cleared; a launch starts a new game.
    Victory,
}

/// The collision layer the game adds to the paddle's: what a power-up's sensor looks for
/// (see [`collide_world::Filter`]). Balls are not on it, so they pass power-ups unreported.
pub const PADDLE_LAYER: u32 = 1 << 30;

/// The collision layer of the power-ups' sensors (their mask is [`PADDLE_LAYER`] alone).
pub const POWER_UP_LAYER: u32 = 1 << 31;

/// A power-up falling from a destroyed brick: a kinematic sensor rectangle of the world
/// (kinematic, [`collide_world::Surface::SENSOR`]) of [`Options::power_up_size`] falling at
/// [`Options::power_up_speed`], caught when the paddle enters it
/// ([`Event::SensorRectEnter`], at the exact time the two boxes start to overlap).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PowerUp {
    /// What it does when caught.
    pub kind: PowerKind,
    /// Its sensor rectangle in the world.
    pub rect: RectId,
    /// Centre of its box at the end of the last step, world units.
    pub center: Vec2,
}

impl PowerUp {
    /// Its box, world units, for a power-up of `size` (width, height).
    #[must_use]
    pub fn aabb(&self, size: Vec2) -> Aabb {
        Aabb::new(self.center - size * 0.5, self.center + size * 0.5)
    }
}

/// What a step asks of the game around it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Nothing special.
    Continue,
    /// The level-cleared pause ended: load the next level.
    NextLevel,
    /// A launch after the game ended: start a new game.
    Restart,
}

/// Whether a scene can be played by BricksBeater's rules: it has a grid with at least one
/// brick, an open bottom (balls can be lost) and a kinematic rectangle (the paddle).
#[must_use]
pub fn is_breaker_scene(scene: &Scene) -> bool {
    let bricks = scene.grid.as_ref().is_some_and(|g| {
        g.cells
            .iter()
            .any(|c| matches!(c, collide_world::Cell::Brick(_)))
    });
    bricks && !scene.walls.bottom && scene.rects.iter().any(|r| r.kind == RectKind::Kinematic)
}

/// The empty cells of `grid` that a ball coming from below the map cannot reach and that
/// touch a brick (share a side with one), in row-major order; empty when some brick can be
/// reached from below.
///
/// Reachability is a 4-connected flood fill of the empty cells from the empty cells of the
/// grid's bottom row (the open area below the map): two empty cells that meet only at a
/// corner are not connected, since the solid cells around that corner leave no gap at all.
/// With balls smaller than half a cell (radius 3 in cells of 9) every empty cell of the fill
/// can hold a ball, so this is exact for BricksBeater's levels. Level 1 is such a level:
/// its bricks are behind diagonal joints of walls.
#[must_use]
pub fn sealed_pockets(grid: &Grid) -> Vec<CellCoord> {
    let (cols, rows) = (grid.cols(), grid.rows());
    if cols == 0 || rows == 0 {
        return Vec::new();
    }
    let cells = grid.cells();
    let at = |c: usize, r: usize| cells[r * cols + c];
    let mut reached = vec![false; cols * rows];
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for c in 0..cols {
        if matches!(at(c, rows - 1), Cell::Empty | Cell::Sensor(_)) {
            reached[(rows - 1) * cols + c] = true;
            stack.push((c, rows - 1));
        }
    }
    let neighbours = |c: usize, r: usize| {
        [
            (c.wrapping_sub(1), r),
            (c + 1, r),
            (c, r.wrapping_sub(1)),
            (c, r + 1),
        ]
        .into_iter()
        .filter(move |&(x, y)| x < cols && y < rows)
    };
    let mut brick_reachable = false;
    while let Some((c, r)) = stack.pop() {
        for (x, y) in neighbours(c, r) {
            match at(x, y) {
                Cell::Empty | Cell::Sensor(_) if !reached[y * cols + x] => {
                    reached[y * cols + x] = true;
                    stack.push((x, y));
                }
                Cell::Brick(_) => brick_reachable = true,
                _ => {}
            }
        }
    }
    if brick_reachable {
        return Vec::new();
    }
    let mut out = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            if matches!(at(c, r), Cell::Empty | Cell::Sensor(_))
                && !reached[r * cols + c]
                && neighbours(c, r).any(|(x, y)| matches!(at(x, y), Cell::Brick(_)))
            {
                out.push(CellCoord::new(c as u32, r as u32));
            }
        }
    }
    out
}

/// The rules' state for one level.
#[derive(Clone, Debug, PartialEq)]
pub struct Breaker {
    pub(crate) level: Option<u8>,
    pub(crate) paddle: RectId,
    pub(crate) ball_radius: Real,
    pub(crate) lives: u32,
    pub(crate) score: u64,
    pub(crate) phase: Phase,
    pub(crate) resting: Vec<BallId>,
    pub(crate) power_ups: Vec<PowerUp>,
    pub(crate) rng: XorShift64Star,
    pub(crate) aim: Real,
    pub(crate) target_x: Real,
    pub(crate) bricks_broken: u64,
    /// Balls of the current volley still to launch, their velocity, steps to the next one.
    pub(crate) volley_left: u32,
    pub(crate) volley_vel: Vec2,
    pub(crate) volley_timer: u32,
    /// Rained balls still in the pockets, with the steps each has left to live.
    pub(crate) rain: Vec<(BallId, u32)>,
    /// Balls rained on this level so far.
    pub(crate) rained_total: u64,
}

impl Breaker {
    /// Builds the world of a level scene for play (its spawned and explicit balls removed: the
    /// game serves its own) and the rules around it, with a ball waiting on the paddle.
    ///
    /// The power-up generator is xorshift64* seeded with the world's
    /// [`World::state_hash`] right after it is built, a function of the level alone.
    ///
    /// # Errors
    /// The world's errors for an invalid scene; [`WorldError::BadSetting`] (field `rects`)
    /// when the scene has no kinematic rectangle.
    pub(crate) fn new(
        scene: &Scene,
        level: Option<u8>,
        options: &Options,
        lives: u32,
        score: u64,
    ) -> Result<(World, Breaker), WorldError> {
        let mut scene = scene.clone();
        let ball_radius = scene.spawn.map_or(BALL_RADIUS, |s| s.radius);
        scene.spawn = None;
        scene.balls.clear();
        let mut world = World::from_scene(&scene)?;
        let paddle = world
            .rects()
            .iter()
            .find(|r| r.kind == RectKind::Kinematic && !r.surface.sensor)
            .map(|r| r.id)
            .ok_or_else(|| WorldError::BadSetting {
                field: "rects",
                problem: "a BricksBeater level needs a kinematic rectangle (the paddle)"
                    .to_string(),
            })?;
        let rng = XorShift64Star::new(world.state_hash());
        // The power-ups' sensors look for the paddle's extra layer.
        let f = world
            .rect(paddle)
            .map_or(Filter::DEFAULT, |r| r.surface.filter);
        world.set_rect_layers(paddle, f.layers | PADDLE_LAYER, f.mask)?;
        let target_x = world.rect(paddle).map_or(0.0, |r| r.aabb.center().x);
        let mut b = Breaker {
            level,
            paddle,
            ball_radius,
            lives,
            score,
            phase: Phase::Serving,
            resting: Vec::new(),
            power_ups: Vec::new(),
            rng,
            aim: options.initial_aim.clamp(-1.0, 1.0),
            target_x,
            bricks_broken: 0,
            volley_left: 0,
            volley_vel: Vec2::ZERO,
            volley_timer: 0,
            rain: Vec::new(),
            rained_total: 0,
        };
        b.serve(&mut world)?;
        Ok((world, b))
    }

    /// The level number (1 to 7) of a built-in level, `None` for another scene.
    #[must_use]
    pub fn level(&self) -> Option<u8> {
        self.level
    }

    /// The paddle's id in the world.
    #[must_use]
    pub fn paddle(&self) -> RectId {
        self.paddle
    }

    /// Lives left.
    #[must_use]
    pub fn lives(&self) -> u32 {
        self.lives
    }

    /// Score: [`Options::score_per_brick`] per brick destroyed, over the whole game.
    #[must_use]
    pub fn score(&self) -> u64 {
        self.score
    }

    /// Bricks destroyed on this level.
    #[must_use]
    pub fn bricks_broken(&self) -> u64 {
        self.bricks_broken
    }

    /// The phase of the game.
    #[must_use]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The balls waiting on the paddle.
    #[must_use]
    pub fn resting(&self) -> &[BallId] {
        &self.resting
    }

    /// The falling power-ups.
    #[must_use]
    pub fn power_ups(&self) -> &[PowerUp] {
        &self.power_ups
    }

    /// The aim, as a paddle offset in `[−1, 1]` (see [`crate::policy::english`]).
    #[must_use]
    pub fn aim(&self) -> Real {
        self.aim
    }

    /// Sets the aim (clamped to `[−1, 1]`; NaN is ignored).
    pub fn set_aim(&mut self, aim: Real) {
        if !aim.is_nan() {
            self.aim = aim.clamp(-1.0, 1.0);
        }
    }

    /// Balls of the current volley still to be launched.
    #[must_use]
    pub fn volley_left(&self) -> u32 {
        self.volley_left
    }

    /// The rained balls still in the sealed pockets (see [`Options::rain`]).
    pub fn rained(&self) -> impl Iterator<Item = BallId> + '_ {
        self.rain.iter().map(|(id, _)| *id)
    }

    /// Balls rained on this level so far (at launches and returns).
    #[must_use]
    pub fn rained_total(&self) -> u64 {
        self.rained_total
    }

    /// Radius of the balls served, world units.
    #[must_use]
    pub fn ball_radius(&self) -> Real {
        self.ball_radius
    }

    /// The generator of the power-up drops (its state, for determinism checks).
    #[must_use]
    pub fn rng(&self) -> &XorShift64Star {
        &self.rng
    }

    /// Drops a power-up of `kind` with its centre at `center` (world units), as a destroyed
    /// brick would: a sensor rectangle of [`Options::power_up_size`] falling at
    /// [`Options::power_up_speed`] in `world` (see [`PowerUp`]).
    ///
    /// # Errors
    /// The world's [`WorldError::BadRect`] for a centre or size outside its bounds, or
    /// [`WorldError::TooMany`] past its rectangle limit; nothing is dropped then.
    pub fn drop_power_up(
        &mut self,
        world: &mut World,
        options: &Options,
        kind: PowerKind,
        center: Vec2,
    ) -> Result<RectId, WorldError> {
        let half = options.power_up_size * 0.5;
        let rect = world.add_rect(RectDesc {
            aabb: Aabb::new(center - half, center + half),
            vel: Vec2::new(0.0, options.power_up_speed),
            kind: RectKind::Kinematic,
            surface: Surface::SENSOR.with_filter(Filter::new(POWER_UP_LAYER, PADDLE_LAYER)),
            ..RectDesc::default()
        })?;
        self.power_ups.push(PowerUp { kind, rect, center });
        Ok(rect)
    }

    /// The launch velocity for the current aim at `speed`.
    #[must_use]
    pub fn launch_velocity(&self, options: &Options) -> Vec2 {
        english(self.aim, options.english_slope, options.ball_speed)
    }

    /// Where a ball waits on the paddle: centred, [`REST_GAP`] above its top.
    fn rest_pos(&self, world: &World) -> Option<Vec2> {
        let p = world.rect(self.paddle)?;
        Some(Vec2::new(
            p.aabb.center().x,
            p.aabb.min.y - self.ball_radius - REST_GAP,
        ))
    }

    /// Puts a new ball on the paddle.
    pub(crate) fn serve(&mut self, world: &mut World) -> Result<(), WorldError> {
        if let Some(pos) = self.rest_pos(world) {
            let id = world.add_ball(BallDesc {
                pos,
                vel: Vec2::ZERO,
                radius: self.ball_radius,
                density: 1.0,
                surface: Surface::DEFAULT,
                gravity_scale: 1.0,
            })?;
            self.resting.push(id);
        }
        self.phase = Phase::Serving;
        Ok(())
    }

    /// The aim preview: the path of the first ball waiting on the paddle if launched now
    /// (see [`crate::policy::aim_path`]); `None` when no ball waits.
    #[must_use]
    pub fn aim_preview(&self, world: &World, options: &Options) -> Option<Vec<Vec2>> {
        if options.aim_segments == 0 || self.phase != Phase::Serving {
            return None;
        }
        let id = *self.resting.first()?;
        let ball = world.ball(id)?;
        Some(crate::policy::aim_path(
            world,
            ball.pos,
            self.launch_velocity(options),
            ball.radius,
            options.aim_length,
            options.aim_segments,
            &self.resting,
        ))
    }

    /// Whether the gap between the paddle's side and the wall on that side (`left`) is open
    /// and a ball is in it or could enter it within a step of `dt`: a ball whose box, grown by
    /// its motion over the step, reaches the paddle's height band and lies beside the
    /// paddle's side. For the anti-trap policy.
    fn gap_busy(&self, world: &World, paddle: &Aabb, dt: Real, left: bool) -> bool {
        let w = world.size().x;
        // Gaps below a millionth of a unit are the paddle touching the wall, to the rounding
        // of its motion (velocity · dt).
        let open = if left {
            paddle.min.x > 1e-6
        } else {
            paddle.max.x < w - 1e-6
        };
        open && world.balls().iter().any(|b| {
            if self.resting.contains(&b.id) {
                return false;
            }
            let ry = b.radius + b.vel.y.abs() * dt;
            let rx = b.vel.x.abs() * dt;
            let in_band = b.pos.y + ry > paddle.min.y && b.pos.y - ry < paddle.max.y;
            let beside = if left {
                b.pos.x - rx < paddle.min.x
            } else {
                b.pos.x + rx > paddle.max.x
            };
            in_band && beside
        })
    }

    /// One fixed step under the rules: moves the paddle toward its target (velocity
    /// `(target − current) / dt`, so the world sweeps its motion exactly), keeps waiting balls
    /// on it, launches, steps the world, then applies the rules and the response policies to
    /// the step's events. The world's events are left in `events`, what the rules did in
    /// `game_events` (both replaced).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn step(
        &mut self,
        world: &mut World,
        colors: &mut BallColors,
        options: &Options,
        input: &StepInput,
        trace_start: Option<&mut Vec<(BallId, Vec2)>>,
        events: &mut Vec<Event>,
        game_events: &mut Vec<GameEvent>,
    ) -> Outcome {
        game_events.clear();
        let dt = world.config().dt;
        let Some(paddle) = world.rect(self.paddle).copied() else {
            // The paddle was removed from outside: no rules can apply.
            world.step();
            *events = world.take_events();
            return Outcome::Continue;
        };
        let (rest, pvel) = self.steer(world, options, input, &paddle, dt);
        for id in &self.resting {
            let _ = world.set_ball_position(*id, rest);
            let _ = world.set_ball_velocity(*id, pvel);
        }
        self.volley(world, options, rest, dt);
        if input.launch && self.launch(world, colors, options, dt) {
            return Outcome::Restart;
        }
        // 4. The step.
        if let Some(start) = trace_start {
            start.clear();
            start.extend(world.balls().iter().map(|b| (b.id, b.pos)));
        }
        world.step();
        *events = world.take_events();

        let (paddle_hits, caught, drops) = self.rules_on_events(world, colors, options, events);
        self.policies(world, options, events, &paddle_hits, &paddle, dt);
        self.move_power_ups(world, colors, options, drops, caught, game_events);
        self.lives_and_levels(world, options, dt, game_events)
    }

    /// Stages 1 and 2 of [`Breaker::step`]: the paddle's target and velocity (set in the
    /// world), the aim, and the waiting balls' resting place; returns that place and the
    /// paddle's velocity.
    fn steer(
        &mut self,
        world: &mut World,
        options: &Options,
        input: &StepInput,
        paddle: &collide_world::Rect,
        dt: Real,
    ) -> (Vec2, Vec2) {
        let hw = paddle.aabb.size().x * 0.5;
        let cx = paddle.aabb.center().x;
        // 1. The paddle's target and velocity.
        if let Some(x) = input.pointer_x {
            if x.is_finite() {
                self.target_x = x;
            }
        } else if input.paddle_dir != 0 {
            self.target_x += Real::from(input.paddle_dir.signum()) * options.paddle_key_speed * dt;
        }
        let walls = world.walls();
        let lim = PaddleLimits {
            half_width: hw,
            world_width: world.size().x,
            left_wall: walls.left && options.anti_trap,
            right_wall: walls.right && options.anti_trap,
            min_gap: 2.0 * self.ball_radius + 2.0,
        };
        let (busy_l, busy_r) = if options.anti_trap {
            (
                self.gap_busy(world, &paddle.aabb, dt, true),
                self.gap_busy(world, &paddle.aabb, dt, false),
            )
        } else {
            (false, false)
        };
        self.target_x = self.target_x.clamp(hw, (world.size().x - hw).max(hw));
        let target = clamp_paddle(self.target_x, &lim, busy_l, busy_r);
        let pvel = Vec2::new((target - cx) / dt, 0.0);
        // Both calls only fail for a stale id or a non-finite velocity, excluded above.
        let _ = world.set_rect_velocity(self.paddle, pvel);

        // 2. Aim, and the waiting balls ride on the paddle.
        if input.aim_dir != 0 {
            self.aim = (self.aim + Real::from(input.aim_dir.signum()) * options.aim_rate * dt)
                .clamp(-1.0, 1.0);
        }
        let rest = Vec2::new(cx, paddle.aabb.min.y - self.ball_radius - REST_GAP);
        self.resting.retain(|id| world.ball(*id).is_some());

        (rest, pvel)
    }

    /// The rest of the volley, one ball at a time from `rest` (where the paddle is).
    fn volley(&mut self, world: &mut World, options: &Options, rest: Vec2, dt: Real) {
        if self.volley_left > 0 {
            self.volley_timer = self.volley_timer.saturating_sub(1);
            if self.volley_timer == 0 {
                if world.balls().len() < options.max_balls {
                    let _ = world.add_ball(BallDesc {
                        pos: rest,
                        vel: self.volley_vel,
                        radius: self.ball_radius,
                        density: 1.0,
                        surface: Surface::DEFAULT,
                        gravity_scale: 1.0,
                    });
                }
                self.volley_left -= 1;
                self.volley_timer = steps_of(options.volley_interval, dt);
            }
        }
    }

    /// Stage 3 of [`Breaker::step`], the launch button: serves the waiting balls (returns
    /// `false`), or asks for a restart after the game ended (returns `true`).
    fn launch(
        &mut self,
        world: &mut World,
        colors: &mut BallColors,
        options: &Options,
        dt: Real,
    ) -> bool {
        {
            match self.phase {
                Phase::Serving => {
                    // Exactly the direction the aim preview shows.
                    let v = self.launch_velocity(options);
                    for id in self.resting.drain(..) {
                        let _ = world.set_ball_velocity(id, v);
                    }
                    self.rain(world, colors, options, options.rain);
                    self.volley_left = options.volley.saturating_sub(1);
                    self.volley_vel = v;
                    self.volley_timer = steps_of(options.volley_interval, dt);
                    self.phase = Phase::Playing;
                }
                Phase::GameOver | Phase::Victory => return true,
                Phase::Playing | Phase::LevelCleared { .. } => {}
            }
        }

        false
    }

    /// Stage 5 of [`Breaker::step`]: the rules on the step's events (bricks scored and the
    /// power-ups they drop, lost balls, the rain spent or renewed, power-ups caught). Returns
    /// the paddle's hits (event index, ball, point, normal, toi), the power-ups caught and
    /// those to drop.
    #[allow(clippy::type_complexity)]
    fn rules_on_events(
        &mut self,
        world: &mut World,
        colors: &mut BallColors,
        options: &Options,
        events: &[Event],
    ) -> (
        Vec<(usize, BallId, Vec2, Vec2, Real)>,
        Vec<PowerKind>,
        Vec<(PowerKind, Vec2)>,
    ) {
        let grid_cell_center = |w: &World, c| w.grid().map(|g| g.cell_aabb(c).center());
        let mut paddle_hits: Vec<(usize, BallId, Vec2, Vec2, Real)> = Vec::new();
        let mut spent: Vec<BallId> = Vec::new();
        // Power-ups caught (the paddle entered their sensors), in the events' order, and
        // dropped by destroyed bricks.
        let mut caught = Vec::new();
        let mut drops = Vec::new();
        for (i, e) in events.iter().enumerate() {
            match *e {
                Event::BrickDestroyed { cell, by, .. } => {
                    if let collide_world::Body::Ball(ball) = by {
                        if self.rain.iter().any(|(id, _)| *id == ball) {
                            spent.push(ball);
                        }
                    }
                    self.score += options.score_per_brick;
                    self.bricks_broken += 1;
                    let u = self.rng.next_f64();
                    if let (Some(kind), Some(center)) =
                        (options.drops.pick(u), grid_cell_center(world, cell))
                    {
                        drops.push((kind, center));
                    }
                }
                Event::BallLost { ball, .. } => {
                    colors.remove(ball);
                    self.resting.retain(|id| *id != ball);
                    self.rain.retain(|(id, _)| *id != ball);
                }
                Event::Contact(Contact {
                    body: Body::Ball(ball),
                    other: Target::Rect(rect),
                    point,
                    normal,
                    toi,
                    ..
                }) if rect == self.paddle => paddle_hits.push((i, ball, point, normal, toi)),
                Event::SensorRectEnter { sensor, rect, .. } if rect == self.paddle => {
                    if let Some(p) = self.power_ups.iter().position(|p| p.rect == sensor) {
                        let p = self.power_ups.remove(p);
                        let _ = world.remove_rect(p.rect);
                        caught.push(p.kind);
                    }
                }
                _ => {}
            }
        }

        // Rained balls are spent on their first brick or at the end of their life; every
        // return of a ball in play off the paddle's top rains more.
        for (id, left) in &mut self.rain {
            *left = left.saturating_sub(1);
            if *left == 0 {
                spent.push(*id);
            }
        }
        for id in spent {
            if world.remove_ball(id).is_some() {
                colors.remove(id);
            }
            self.rain.retain(|(r, _)| *r != id);
        }
        let returns = paddle_hits
            .iter()
            .filter(|&&(_, ball, _, normal, _)| normal.y < 0.0 && world.ball(ball).is_some())
            .count();
        if returns > 0 {
            self.rain(world, colors, options, returns * RAIN_PER_RETURN);
        }

        (paddle_hits, caught, drops)
    }

    /// Stage 6 of [`Breaker::step`]: the response policies after the step (english on the
    /// paddle's returns, constant speed, the minimum vertical angle).
    fn policies(
        &self,
        world: &mut World,
        options: &Options,
        events: &[Event],
        paddle_hits: &[(usize, BallId, Vec2, Vec2, Real)],
        paddle: &collide_world::Rect,
        dt: Real,
    ) {
        let paddle = *paddle;
        let hw = paddle.aabb.size().x * 0.5;
        let paddle_now = world.rect(self.paddle).copied().unwrap_or(paddle);
        if options.english {
            for &(i, ball, point, normal, toi) in paddle_hits {
                // Only the ball's last event of the step, a hit from above, going up now.
                if normal.y >= 0.0 || events[i + 1..].iter().any(|e| mentions(e, ball)) {
                    continue;
                }
                let Some(b) = world.ball(ball) else { continue };
                if b.vel.y >= 0.0 || self.resting.contains(&ball) {
                    continue;
                }
                let centre_then = paddle_now.aabb.center().x - paddle_now.vel.x * (dt - toi);
                let offset = (point.x - centre_then) / hw;
                let v = english(offset, options.english_slope, b.vel.length());
                let _ = world.set_ball_velocity(ball, v);
            }
        }
        let mut changes: Vec<(BallId, Vec2)> = Vec::new();
        for b in world.balls() {
            if self.resting.contains(&b.id) {
                continue;
            }
            let mut v = b.vel;
            if options.constant_speed {
                let s = v.length();
                if s > 0.0 && (s - options.ball_speed).abs() > 1e-9 * options.ball_speed {
                    v *= options.ball_speed / s;
                }
            }
            v = min_vertical(v, options.min_vertical);
            if v != b.vel {
                changes.push((b.id, v));
            }
        }
        for (id, v) in changes {
            let _ = world.set_ball_velocity(id, v);
        }
    }

    /// Stage 7 of [`Breaker::step`]: the world moved the power-ups (those caught are gone);
    /// those below the world are removed, the new ones dropped, the caught ones applied.
    fn move_power_ups(
        &mut self,
        world: &mut World,
        colors: &mut BallColors,
        options: &Options,
        drops: Vec<(PowerKind, Vec2)>,
        caught: Vec<PowerKind>,
        game_events: &mut Vec<GameEvent>,
    ) {
        let bottom = world.size().y;
        self.power_ups.retain_mut(|p| match world.rect(p.rect) {
            Some(r) if r.aabb.min.y <= bottom => {
                p.center = r.aabb.center();
                true
            }
            _ => {
                let _ = world.remove_rect(p.rect);
                false
            }
        });
        for (kind, center) in drops {
            // Inside the world (a brick's cell): only the rectangle limit can refuse it.
            let _ = self.drop_power_up(world, options, kind, center);
        }
        for kind in caught {
            self.apply(kind, world, colors, options);
            game_events.push(GameEvent::PowerUpCaught { kind });
        }
    }

    /// Stage 8 of [`Breaker::step`]: lives and levels.
    fn lives_and_levels(
        &mut self,
        world: &mut World,
        options: &Options,
        dt: Real,
        game_events: &mut Vec<GameEvent>,
    ) -> Outcome {
        match self.phase {
            Phase::Playing if world.balls().is_empty() && self.volley_left == 0 => {
                self.lives = self.lives.saturating_sub(1);
                game_events.push(GameEvent::LifeLost {
                    lives_left: self.lives,
                });
                if self.lives == 0 {
                    self.phase = Phase::GameOver;
                } else {
                    let _ = self.serve(world);
                }
            }
            Phase::Serving if self.resting.is_empty() && world.balls().is_empty() => {
                let _ = self.serve(world);
            }
            _ => {}
        }
        let bricks_left = world.grid().map_or(0, |g| g.bricks_left());
        match self.phase {
            Phase::Playing | Phase::Serving if bricks_left == 0 => {
                self.volley_left = 0;
                game_events.push(GameEvent::LevelCleared { level: self.level });
                self.phase = Phase::LevelCleared {
                    steps_left: steps_of(options.level_clear_pause, dt),
                };
            }
            Phase::LevelCleared { steps_left } => {
                if steps_left <= 1 {
                    return Outcome::NextLevel;
                }
                self.phase = Phase::LevelCleared {
                    steps_left: steps_left - 1,
                };
            }
            _ => {}
        }
        Outcome::Continue
    }

    /// The rain: when no brick can be reached from below, `count` balls appear at the
    /// centres of distinct cells of [`sealed_pockets`] (drawn with the rules' generator),
    /// moving in random directions at the game's speed. Each lives until it breaks a brick,
    /// at most [`RAIN_LIFE`] seconds. Nothing rains when [`Options::rain`] is 0.
    fn rain(
        &mut self,
        world: &mut World,
        colors: &mut BallColors,
        options: &Options,
        count: usize,
    ) {
        if options.rain == 0 || count == 0 {
            return;
        }
        let Some(grid) = world.grid() else { return };
        let mut pockets = sealed_pockets(grid);
        // Cells already holding a rained ball are left out.
        pockets.retain(|c| {
            let b = grid.cell_aabb(*c);
            !self.rain.iter().any(|(id, _)| {
                world
                    .ball(*id)
                    .is_some_and(|ball| collide_core::point_in_aabb(ball.pos, &b))
            })
        });
        let life = steps_of(RAIN_LIFE, world.config().dt);
        let centres: Vec<Vec2> = {
            let n = count.min(pockets.len());
            // A partial Fisher-Yates shuffle: n distinct cells.
            for i in 0..n {
                let left = (pockets.len() - i) as u64;
                let j = i + (self.rng.next_u64() % left) as usize;
                pockets.swap(i, j);
            }
            pockets[..n]
                .iter()
                .map(|c| grid.cell_aabb(*c).center())
                .collect()
        };
        for pos in centres {
            if world.balls().len() >= options.max_balls {
                break;
            }
            let vel = self.rng.unit_vector() * options.ball_speed;
            if let Ok(id) = world.add_ball(BallDesc {
                pos,
                vel,
                radius: self.ball_radius,
                density: 1.0,
                surface: Surface::DEFAULT,
                gravity_scale: 1.0,
            }) {
                colors.remove(id);
                self.rain.push((id, life));
                self.rained_total += 1;
            }
        }
    }

    /// Applies a caught power-up.
    pub(crate) fn apply(
        &mut self,
        kind: PowerKind,
        world: &mut World,
        colors: &mut BallColors,
        options: &Options,
    ) {
        let (c, s) = SPREAD;
        match kind {
            // A lost life back, never more than a game starts with; at full lives, the
            // score of [`HEART_BONUS_BRICKS`] bricks.
            PowerKind::Heart => {
                if self.lives < options.lives {
                    self.lives += 1;
                } else {
                    self.score += HEART_BONUS_BRICKS * options.score_per_brick;
                }
            }
            PowerKind::Triple => {
                let flying: Vec<_> = world
                    .balls()
                    .filter(|b| {
                        !self.resting.contains(&b.id)
                            && !self.rain.iter().any(|(id, _)| *id == b.id)
                            && b.vel != Vec2::ZERO
                    })
                    .collect();
                'split: for b in flying {
                    for sign in [1.0, -1.0] {
                        if world.balls().len() >= options.max_balls {
                            break 'split;
                        }
                        let desc = BallDesc {
                            pos: b.pos,
                            vel: rotate(b.vel, c, sign * s),
                            radius: b.radius,
                            density: b.density,
                            surface: Surface::DEFAULT.with_filter(b.filter),
                            // A split ball is on its parent's layers and gravity.
                            gravity_scale: b.gravity_scale,
                        };
                        if let Ok(id) = world.add_ball(desc) {
                            if let Some(col) = colors.get(b.id) {
                                colors.set(id, col);
                            }
                        }
                    }
                }
            }
            PowerKind::Shoot3 => {
                let Some(p) = world.rect(self.paddle).copied() else {
                    return;
                };
                let r = self.ball_radius;
                let up = Vec2::new(0.0, -options.ball_speed);
                let y = p.aabb.min.y - r - REST_GAP;
                let spacing = 2.0 * r + 1.0;
                let shots = [
                    (-1.0, rotate(up, c, -s)),
                    (0.0, up),
                    (1.0, rotate(up, c, s)),
                ];
                for (k, vel) in shots {
                    if world.balls().len() >= options.max_balls {
                        break;
                    }
                    let pos = Vec2::new(p.aabb.center().x + k * spacing, y);
                    let _ = world.add_ball(BallDesc {
                        pos,
                        vel,
                        radius: r,
                        density: 1.0,
                        surface: Surface::DEFAULT,
                        gravity_scale: 1.0,
                    });
                }
                if self.phase == Phase::Serving && self.resting.is_empty() {
                    self.phase = Phase::Playing;
                }
            }
        }
    }
}

/// The whole number of steps of `dt` in `seconds`, rounded, at least 1 (and at most 10^6).
fn steps_of(seconds: Real, dt: Real) -> u32 {
    let n = (seconds / dt).round();
    if n.is_finite() && n >= 1.0 {
        n.min(1e6) as u32
    } else {
        1
    }
}

/// Whether event `e` involves ball `id`.
fn mentions(e: &Event, id: BallId) -> bool {
    match *e {
        Event::Contact(Contact { body, other, .. }) => {
            body == Body::Ball(id) || other == Target::Ball(id)
        }
        Event::BallLost { ball, .. }
        | Event::SensorEnter { ball, .. }
        | Event::SensorExit { ball, .. } => ball == id,
        Event::Unembedded { body, .. }
        | Event::IterationLimit { body, .. }
        | Event::Squeezed { body, .. }
        | Event::FlipperSqueezed { body, .. } => body == collide_world::Body::Ball(id),
        Event::BrickDestroyed { by, .. } => by == collide_world::Body::Ball(id),
        Event::RectLost { .. }
        | Event::SensorRectEnter { .. }
        | Event::SensorRectExit { .. }
        | Event::CharacterSensorEnter { .. }
        | Event::CharacterSensorExit { .. } => false,
    }
}
