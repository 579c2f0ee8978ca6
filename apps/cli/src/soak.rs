//! `collide soak`: long runs that check the step stays healthy over time.
//!
//! Two scenes, both built from the built-in ones:
//! - `pinball`: the pinball table played by its rules ([`collide_game::Game`]) with random
//!   input: each button (left flippers, right flippers, plunger) is held or released at
//!   random (it changes state with probability 1/[`TOGGLE_EVERY`] each step), and a launch is
//!   pressed with probability 1/[`LAUNCH_EVERY`] (a new game after the last ball drains).
//! - `plinko`: the plinko board with `--balls` balls (5000 by default) dropped over the whole
//!   board, at restitution `--restitution` (0.5 by default), sleep on.
//!
//! After every step it checks that every ball's, rectangle's and flipper's state is finite,
//! and counts the `IterationLimit` events (a body stopped by the event bound). It reads the
//! process's resident set size (`VmRSS` of `/proc/self/status`, Linux) after the world is
//! built, after a tenth of the steps (allocations done warming up) and at the end. Output:
//! one JSON line, keys of [`SoakReport`] (with `--every N`, one more every N steps, `steps`
//! the steps done so far).

use std::io::{self, Write};
use std::time::Instant;

use clap::{Args, ValueEnum};
use collide_game::{Game, Options, Source, StepInput};
use collide_world::rng::XorShift64Star;
use collide_world::{Event, Scene, World};
use serde::Serialize;

use crate::{json_error, stdout_error, CliError, Result};

/// A button changes state (pressed or released) with probability 1/`TOGGLE_EVERY` a step.
pub const TOGGLE_EVERY: u64 = 30;

/// A launch is pressed with probability 1/`LAUNCH_EVERY` a step.
pub const LAUNCH_EVERY: u64 = 600;

/// The scenes `collide soak` runs.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SoakScene {
    /// The pinball table played with random flipper and plunger input.
    Pinball,
    /// The plinko board with many balls at a lower restitution, sleep on.
    Plinko,
}

/// The arguments of `collide soak`.
#[derive(Args, Debug)]
pub struct SoakArgs {
    /// The scene to soak.
    #[arg(value_enum)]
    pub scene: SoakScene,
    /// Number of steps (default: 1000000 for pinball, 100000 for plinko).
    #[arg(long)]
    pub steps: Option<u64>,
    /// Seed of the random input (pinball) or of the balls' placement (plinko).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Plinko: number of balls (radius 2, dropped at random over the upper three quarters of
    /// the board).
    #[arg(long, default_value_t = 5000)]
    pub balls: usize,
    /// Plinko: the world's restitution (pegs, walls and balls), in [0, 1].
    #[arg(long, default_value_t = 0.5, value_parser = parse_unit)]
    pub restitution: f64,
    /// Also print the line so far every N steps (a long run's progress); the last line is
    /// the whole run's.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub every: Option<u64>,
}

fn parse_unit(s: &str) -> std::result::Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number"))?;
    if (0.0..=1.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{v} is not in [0, 1]"))
    }
}

/// The JSON line of `collide soak`.
#[derive(Serialize, Debug)]
pub struct SoakReport {
    /// `pinball` or `plinko`.
    pub scene: &'static str,
    /// Steps run.
    pub steps: u64,
    /// The seed.
    pub seed: u64,
    /// Balls in the world at the end.
    pub balls_end: usize,
    /// Balls asleep at the end.
    pub balls_asleep: usize,
    /// Resident set size after the world is built, KiB (`null` where `/proc` is missing).
    pub rss_start_kib: Option<u64>,
    /// Resident set size after a tenth of the steps (at least one), KiB; `null` before.
    pub rss_warm_kib: Option<u64>,
    /// Resident set size at the end, KiB.
    pub rss_end_kib: Option<u64>,
    /// Steps after which some ball, rectangle or flipper state was not finite (NaN or inf).
    pub non_finite_steps: u64,
    /// `IterationLimit` events over the run (bodies stopped by the event bound).
    pub iteration_limits: u64,
    /// Steps with at least one `IterationLimit` event.
    pub iteration_limit_steps: u64,
    /// Events over the run, all kinds.
    pub events: u64,
    /// Balls lost through an open side over the run (pinball: drained).
    pub balls_lost: u64,
    /// Wall time of the whole run, seconds.
    pub seconds: f64,
    /// The longest step, milliseconds.
    pub max_step_ms: f64,
}

/// The resident set size of this process, KiB: `VmRSS` of `/proc/self/status`.
pub fn rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Whether every body's state in `world` is finite.
pub fn all_finite(world: &World) -> bool {
    let ok = |v: collide_world::Vec2| v.x.is_finite() && v.y.is_finite();
    world.balls().iter().all(|b| ok(b.pos) && ok(b.vel))
        && world
            .rects()
            .iter()
            .all(|r| ok(r.aabb.min) && ok(r.aabb.max) && ok(r.vel))
        && world
            .flippers()
            .iter()
            .all(|f| f.motion.angle.is_finite() && f.motion.omega.is_finite())
}

/// What the soak loop counts.
#[derive(Default)]
struct Tally {
    non_finite_steps: u64,
    iteration_limits: u64,
    iteration_limit_steps: u64,
    events: u64,
    balls_lost: u64,
    max_step_ms: f64,
}

impl Tally {
    fn add(&mut self, events: &[Event], world: &World, ms: f64) {
        let limits = events
            .iter()
            .filter(|e| matches!(e, Event::IterationLimit { .. }))
            .count() as u64;
        self.iteration_limits += limits;
        self.iteration_limit_steps += u64::from(limits > 0);
        self.events += events.len() as u64;
        self.balls_lost += events
            .iter()
            .filter(|e| matches!(e, Event::BallLost { .. }))
            .count() as u64;
        self.max_step_ms = self.max_step_ms.max(ms);
        if !all_finite(world) {
            self.non_finite_steps += 1;
        }
    }
}

/// The plinko board with `balls` balls of radius 2 dropped over it at `restitution`.
fn plinko_scene(balls: usize, restitution: f64, seed: u64) -> Result<Scene> {
    let mut scene = match collide_scenes::load("plinko") {
        Some(Ok(s)) => s,
        Some(Err(e)) => return Err(CliError::new("cannot load the scene `plinko`", e)),
        None => {
            return Err(CliError {
                msg: "the built-in scene `plinko` is missing".into(),
                source: None,
            })
        }
    };
    scene.step.restitution = restitution;
    scene.step.sleep = true;
    let size = scene.size;
    if let Some(sp) = &mut scene.spawn {
        sp.count = balls;
        sp.seed = seed;
        // Over the whole board above the bins: 5000 balls do not fit above the pegs.
        sp.region = Some(collide_world::Aabb::new(
            collide_world::Vec2::new(8.0, 8.0),
            collide_world::Vec2::new(size.x - 8.0, size.y * 0.75),
        ));
    }
    Ok(scene)
}

/// A soak in progress: what is counted and when it started.
struct Soak {
    name: &'static str,
    seed: u64,
    steps: u64,
    every: u64,
    tally: Tally,
    rss_start: Option<u64>,
    rss_warm: Option<u64>,
    t0: Instant,
}

impl Soak {
    /// Counts step `k` (from 0) and its events; reads the memory after a tenth of the
    /// steps; prints an interim line every `--every` steps.
    fn after_step(&mut self, k: u64, events: &[Event], world: &World, ms: f64) -> Result<()> {
        self.tally.add(events, world, ms);
        let done = k + 1;
        if done == (self.steps / 10).max(1) {
            self.rss_warm = rss_kib();
        }
        if self.every > 0 && done.is_multiple_of(self.every) && done < self.steps {
            self.print(done, world)?;
        }
        Ok(())
    }

    /// Prints the report after `done` steps as one JSON line.
    fn print(&self, done: u64, world: &World) -> Result<()> {
        let t = &self.tally;
        let report = SoakReport {
            scene: self.name,
            steps: done,
            seed: self.seed,
            balls_end: world.balls().len(),
            balls_asleep: world.sleeping_balls(),
            rss_start_kib: self.rss_start,
            rss_warm_kib: self.rss_warm,
            rss_end_kib: rss_kib(),
            non_finite_steps: t.non_finite_steps,
            iteration_limits: t.iteration_limits,
            iteration_limit_steps: t.iteration_limit_steps,
            events: t.events,
            balls_lost: t.balls_lost,
            seconds: self.t0.elapsed().as_secs_f64(),
            max_step_ms: t.max_step_ms,
        };
        let stdout = io::stdout();
        let mut out = stdout.lock();
        serde_json::to_writer(&mut out, &report).map_err(json_error)?;
        writeln!(out).map_err(stdout_error)?;
        out.flush().map_err(stdout_error)
    }
}

/// `collide soak`.
pub fn cmd_soak(args: &SoakArgs) -> Result<()> {
    let (name, default_steps) = match args.scene {
        SoakScene::Pinball => ("pinball", 1_000_000),
        SoakScene::Plinko => ("plinko", 100_000),
    };
    let steps = args.steps.unwrap_or(default_steps);
    let mut soak = Soak {
        name,
        seed: args.seed,
        steps,
        every: args.every.unwrap_or(0),
        tally: Tally::default(),
        rss_start: None,
        rss_warm: None,
        t0: Instant::now(),
    };
    match args.scene {
        SoakScene::Pinball => {
            let source = Source::demo("pinball")
                .map_err(|e| CliError::new("cannot load the scene `pinball`", e))?;
            let mut game = Game::new(source, Options::default())
                .map_err(|e| CliError::new("cannot start the pinball table", e))?;
            soak.rss_start = rss_kib();
            let mut rng = XorShift64Star::new(args.seed);
            let mut input = StepInput::default();
            for k in 0..steps {
                let mut flip = |b: &mut bool| {
                    if rng.next_u64().is_multiple_of(TOGGLE_EVERY) {
                        *b = !*b;
                    }
                };
                flip(&mut input.flip_left);
                flip(&mut input.flip_right);
                flip(&mut input.plunger);
                input.launch = rng.next_u64().is_multiple_of(LAUNCH_EVERY);
                let s = Instant::now();
                game.step(&input);
                let ms = s.elapsed().as_secs_f64() * 1e3;
                soak.after_step(k, game.last_events(), game.world(), ms)?;
            }
            soak.print(steps, game.world())
        }
        SoakScene::Plinko => {
            let scene = plinko_scene(args.balls, args.restitution, args.seed)?;
            let mut world = World::from_scene(&scene)
                .map_err(|e| CliError::new("cannot build a world from the scene `plinko`", e))?;
            soak.rss_start = rss_kib();
            for k in 0..steps {
                let s = Instant::now();
                world.step();
                let ms = s.elapsed().as_secs_f64() * 1e3;
                soak.after_step(k, world.events(), &world, ms)?;
            }
            soak.print(steps, &world)
        }
    }
}
