//! `collide bench`: times [`World::step`] on the arena benchmark scene.
//!
//! For every combination of `--balls`, `--speeds` and `--ball-ball` it builds the arena
//! ([`collide_scenes::arena_scene`]; repeated side by side above 10 000 balls, see
//! [`bench_scene`]), times each `step()` call, and reports per configuration: the median (and
//! mean, minimum) ms per step, events per second (all events of all steps divided by the total
//! time spent in `step()`), the bytes of a [`Ball`], the relative energy change over the run,
//! overlapping pairs and embedded balls at the end (the checks of `collide run`, [`stats`]),
//! iteration limits and the state hash. Output: an aligned table (default), a Markdown table
//! (`--markdown`) or a JSON array (`--json`, keys of [`BenchRow`]).
//!
//! Only the `step()` calls are timed: building the world, the energy and the end-of-run
//! checks are outside the timed region.

use std::io::{self, Write};
use std::time::Instant;

use clap::Args;
#[cfg(test)]
use collide_core::Vec2;
#[cfg(test)]
use collide_scenes::arena_scene;
use collide_scenes::arena_scene_tiled;
use collide_world::{limits, Ball, Scene, World};
use serde::Serialize;

use crate::stats;
use crate::{json_error, parse_non_negative, parse_on_off, stdout_error, CliError, Result};

/// The arguments of `collide bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Ball counts to time, comma-separated (at most 4194304 each, a scene's limit).
    #[arg(long, value_name = "N,N,...", value_delimiter = ',', default_values_t = [1_000usize, 10_000, 100_000], value_parser = parse_ball_count)]
    pub balls: Vec<usize>,
    /// Ball speeds to time (units/s), comma-separated (each >= 0 and <= 1e9, a scene's limit).
    #[arg(long, value_name = "V,V,...", value_delimiter = ',', default_values_t = [60.0f64, 3000.0], value_parser = parse_non_negative)]
    pub speeds: Vec<f64>,
    /// Ball-ball collisions, comma-separated list of `on` and `off`.
    #[arg(long = "ball-ball", value_name = "on,off", value_delimiter = ',', value_parser = parse_on_off, default_value = "on,off")]
    pub ball_ball: Vec<bool>,
    /// Timed steps per configuration (dt = 1/60 s).
    #[arg(long, default_value_t = 600)]
    pub steps: u64,
    /// Timed steps for configurations of at least `--large-from` balls (fewer, to keep the
    /// 100 000-ball runs short); the table shows the steps actually run.
    #[arg(long, value_name = "N", default_value_t = 60)]
    pub steps_large: u64,
    /// Ball count from which `--steps-large` applies.
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    pub large_from: usize,
    /// Untimed steps run before the timed ones (0: time the run from the scene's start, as
    /// the figures of docs/performance.md do).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub warmup: u64,
    /// Worker threads the step may use (1 = single-threaded; `World::set_threads`). Results
    /// are bit-identical whatever N is (same `state_hash`).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Seed of the balls' random placement and directions (the grid's seed is fixed: 12345).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// How the arena is repeated: `auto` (one `[0, 1000]²` arena per 10 000 balls, tiled as
    /// squarely as possible: 100 000 balls → 5x2 arenas, 5000 × 2000 units) or `CxR` (C
    /// arenas across, R down) for every configuration.
    #[arg(long, value_name = "auto|CxR", default_value = "auto", value_parser = parse_tiles)]
    pub tiles: Tiles,
    /// Print one JSON array at the end, one object per configuration with the keys balls,
    /// speed, ball_ball, tiles, world, steps, warmup, threads_requested, threads_used,
    /// ms_per_step_median, ms_per_step_mean, ms_per_step_min, steps_per_second, events,
    /// events_per_step, events_per_second, ball_struct_bytes, state_bytes_per_ball,
    /// step_bytes_per_ball, energy_start, energy_end,
    /// energy_rel_change, overlapping_pairs, embedded, iteration_limits, domain_steps,
    /// domain_reruns, state_hash, setup_ms.
    #[arg(long)]
    pub json: bool,
    /// Print a Markdown table instead of the aligned text table.
    #[arg(long, conflicts_with = "json")]
    pub markdown: bool,
}

/// How many arenas are laid side by side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tiles {
    /// One arena per [`collide_scenes::ARENA_BALLS_PER_TILE`] balls (at least one),
    /// tiled as squarely as possible.
    Auto,
    /// `(across, down)` arenas.
    Fixed(usize, usize),
}

impl Tiles {
    /// The `(across, down)` layout for `balls` balls.
    #[must_use]
    pub fn layout(self, balls: usize) -> (usize, usize) {
        match self {
            Tiles::Fixed(c, r) => (c, r),
            Tiles::Auto => auto_tiles(balls),
        }
    }
}

/// A ball count within [`limits::MAX_BALLS`].
fn parse_ball_count(s: &str) -> Result<usize, String> {
    let n: usize = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a whole number of balls"))?;
    limits::check_count(n, 0, limits::MAX_BALLS)
}

fn parse_tiles(s: &str) -> Result<Tiles, String> {
    if s == "auto" {
        return Ok(Tiles::Auto);
    }
    let err = || format!("expected `auto` or CxR with C, R in 1..=16 (e.g. 5x2), got `{s}`");
    let (c, r) = s.split_once(['x', 'X']).ok_or_else(err)?;
    let c: usize = c.trim().parse().map_err(|_| err())?;
    let r: usize = r.trim().parse().map_err(|_| err())?;
    if !(1..=16).contains(&c) || !(1..=16).contains(&r) {
        return Err(err());
    }
    Ok(Tiles::Fixed(c, r))
}

/// The `--tiles auto` layout ([`collide_scenes::arena_auto_tiles`]).
pub use collide_scenes::arena_auto_tiles as auto_tiles;

/// The benchmark scene: [`collide_scenes::arena_scene`]`(balls, speed, seed)` with its 40 × 40
/// grid repeated `across × down` times (world `1000·across × 1000·down`, four walls, the same 226 wall cells
/// in every tile), the balls spread over the whole world. `(1, 1)` is `arena_scene` itself.
/// `ball_ball` sets the scene's ball-ball collisions.
///
/// `bench/compare` (the rapier2d comparison) builds the same scene with the same rule.
#[must_use]
pub fn bench_scene(
    balls: usize,
    speed: f64,
    seed: u64,
    ball_ball: bool,
    (across, down): (usize, usize),
) -> Scene {
    let mut scene = arena_scene_tiled(balls, speed, seed, across, down);
    scene.step.ball_ball = ball_ball;
    scene
}

/// One configuration's results (one row of the table, one object of `--json`).
#[derive(Serialize, Debug, Clone)]
pub struct BenchRow {
    /// Balls in the world.
    pub balls: usize,
    /// Speed of every ball at the start, units/s.
    pub speed: f64,
    /// Whether balls collide with each other.
    pub ball_ball: bool,
    /// The arena layout, `CxR`.
    pub tiles: String,
    /// World size, `WxH` units.
    pub world: String,
    /// Timed steps.
    pub steps: u64,
    /// Untimed steps run before them.
    pub warmup: u64,
    /// `--threads`.
    pub threads_requested: u32,
    /// Threads the step actually used (1 until the world gets a thread setting).
    pub threads_used: u32,
    /// Median wall time of one `step()` call, milliseconds, within 0.1 %
    /// ([`stats::StepTimes`]).
    pub ms_per_step_median: f64,
    /// Mean wall time of one `step()` call, milliseconds.
    pub ms_per_step_mean: f64,
    /// Fastest `step()` call, milliseconds.
    pub ms_per_step_min: f64,
    /// `1000 / ms_per_step_median`.
    pub steps_per_second: f64,
    /// Events returned by all timed steps (every kind).
    pub events: u64,
    /// `events / steps`.
    pub events_per_step: f64,
    /// `events` divided by the total time spent in the timed `step()` calls, per second.
    pub events_per_second: f64,
    /// `size_of::<collide_world::Ball>()`: the public ball value `World::balls` yields (with
    /// its position derived from its path); not what the world stores.
    pub ball_struct_bytes: usize,
    /// Bytes of state per ball (`World::STATE_BYTES_PER_BALL`: id, path start and its time,
    /// velocity, radius, density).
    pub state_bytes_per_ball: usize,
    /// Bytes the step keeps per ball between steps (`World::STEP_BYTES_PER_BALL`).
    pub step_bytes_per_ball: usize,
    /// Kinetic energy before the first step (warm-up included).
    pub energy_start: f64,
    /// Kinetic energy after the last step.
    pub energy_end: f64,
    /// `(energy_end - energy_start) / energy_start` (0 when `energy_start` is 0).
    pub energy_rel_change: f64,
    /// Ball pairs whose centres are closer than `r1 + r2 - 1e-6` at the end.
    pub overlapping_pairs: u64,
    /// Balls closer than `radius - 1e-6` to a solid cell at the end.
    pub embedded: usize,
    /// `iteration_limit` events over the timed steps.
    pub iteration_limits: u64,
    /// Timed steps taken in spatial domains (`World::domain_steps`: 2 threads or more, 20 000
    /// balls or more).
    pub domain_steps: u64,
    /// Timed domain steps that failed their exactness check and ran again serially.
    pub domain_reruns: u64,
    /// `World::state_hash` at the end, 16 hex digits.
    pub state_hash: String,
    /// Time to build the world (scene and ball placement), milliseconds.
    pub setup_ms: f64,
}

/// Passes `--threads` to the world ([`World::set_threads`]). Returns the number of threads
/// the step may use.
fn apply_threads(world: &mut World, requested: u32) -> u32 {
    world.set_threads(requested as usize);
    world.threads() as u32
}

/// Runs one configuration.
///
/// # Errors
/// When the world cannot be built (e.g. `--tiles 1x1` with more balls than fit).
pub fn run_one(
    args: &BenchArgs,
    balls: usize,
    speed: f64,
    ball_ball: bool,
) -> Result<BenchRow, CliError> {
    let tiles = args.tiles.layout(balls);
    let scene = bench_scene(balls, speed, args.seed, ball_ball, tiles);
    let t_setup = Instant::now();
    let mut world = World::from_scene(&scene).map_err(|e| {
        CliError::new(
            format!(
                "cannot build the arena for {balls} balls at {speed} units/s ({}x{} arenas)",
                tiles.0, tiles.1
            ),
            e,
        )
    })?;
    let setup_ms = t_setup.elapsed().as_secs_f64() * 1e3;
    let threads_used = apply_threads(&mut world, args.threads);
    let steps = if balls >= args.large_from {
        args.steps_large
    } else {
        args.steps
    };
    let energy_start = world.kinetic_energy();
    for _ in 0..args.warmup {
        world.step();
    }
    let domains_before = world.domain_steps();
    // Constant memory whatever the number of steps (the median within 0.1 %).
    let mut times = stats::StepTimes::default();
    let mut events = 0u64;
    let mut iteration_limits = 0u64;
    for _ in 0..steps {
        let t0 = Instant::now();
        let ev = world.step();
        let elapsed = t0.elapsed();
        events += ev.len() as u64;
        iteration_limits += ev.iter().filter(|e| e.kind() == "iteration_limit").count() as u64;
        times.record(elapsed);
    }
    let energy_end = world.kinetic_energy();
    let domains_after = world.domain_steps();
    let total_s = times.total_s();
    let mean = times.mean_ms();
    let min = times.min_ms();
    let median = times.median_ms();
    let size = world.size();
    Ok(BenchRow {
        balls: world.balls().len(),
        speed,
        ball_ball,
        tiles: format!("{}x{}", tiles.0, tiles.1),
        world: format!("{}x{}", size.x, size.y),
        steps,
        warmup: args.warmup,
        threads_requested: args.threads,
        threads_used,
        ms_per_step_median: median,
        ms_per_step_mean: if steps == 0 { 0.0 } else { mean },
        ms_per_step_min: if steps == 0 { 0.0 } else { min },
        steps_per_second: if median > 0.0 { 1e3 / median } else { 0.0 },
        events,
        events_per_step: if steps == 0 {
            0.0
        } else {
            events as f64 / steps as f64
        },
        events_per_second: if total_s > 0.0 {
            events as f64 / total_s
        } else {
            0.0
        },
        ball_struct_bytes: std::mem::size_of::<Ball>(),
        state_bytes_per_ball: World::STATE_BYTES_PER_BALL,
        step_bytes_per_ball: World::STEP_BYTES_PER_BALL,
        energy_start,
        energy_end,
        energy_rel_change: if energy_start > 0.0 {
            (energy_end - energy_start) / energy_start
        } else {
            0.0
        },
        overlapping_pairs: stats::overlapping_pairs(&world.balls().collect::<Vec<_>>()),
        embedded: stats::embedded(&world),
        iteration_limits,
        domain_steps: domains_after.0 - domains_before.0,
        domain_reruns: domains_after.1 - domains_before.1,
        state_hash: format!("{:016x}", world.state_hash()),
        setup_ms,
    })
}

const HEADER: [&str; 13] = [
    "balls",
    "speed",
    "bb",
    "arena",
    "steps",
    "ms/step",
    "mean",
    "events/step",
    "events/s",
    "energy",
    "overlaps",
    "embedded",
    "state_hash",
];

fn cells(r: &BenchRow) -> [String; 13] {
    [
        r.balls.to_string(),
        format!("{}", r.speed),
        if r.ball_ball { "on" } else { "off" }.to_owned(),
        r.tiles.clone(),
        r.steps.to_string(),
        format!("{:.3}", r.ms_per_step_median),
        format!("{:.3}", r.ms_per_step_mean),
        format!("{:.0}", r.events_per_step),
        format!("{:.3e}", r.events_per_second),
        format!("{:+.1e}", r.energy_rel_change),
        r.overlapping_pairs.to_string(),
        r.embedded.to_string(),
        r.state_hash.clone(),
    ]
}

const WIDTHS: [usize; 13] = [7, 6, 3, 5, 5, 9, 9, 11, 9, 8, 8, 8, 16];

fn text_line(out: &mut impl Write, fields: &[String]) -> io::Result<()> {
    let mut line = String::new();
    for (i, (f, w)) in fields.iter().zip(WIDTHS).enumerate() {
        if i > 0 {
            line.push_str("  ");
        }
        // Numbers right-aligned, the hash left-aligned.
        if i == fields.len() - 1 {
            line.push_str(&format!("{f:<w$}"));
        } else {
            line.push_str(&format!("{f:>w$}"));
        }
    }
    writeln!(out, "{}", line.trim_end())
}

fn markdown_line(out: &mut impl Write, fields: &[String]) -> io::Result<()> {
    writeln!(out, "| {} |", fields.join(" | "))
}

/// `collide bench`: runs every configuration and prints the table (rows appear as they are
/// measured) or, with `--json`, one JSON array at the end.
///
/// # Errors
/// A world that cannot be built, or a failed write to stdout.
pub fn cmd_bench(args: &BenchArgs) -> Result<()> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let threads_note = if args.threads == 1 {
        "threads: 1 (single-threaded)".to_owned()
    } else {
        format!(
            "threads: {} (parallel prediction batches; from 20 000 balls the event loop runs in \
             spatial domains, one step in the serial loop first)",
            args.threads
        )
    };
    let header: Vec<String> = HEADER.iter().map(|s| (*s).to_owned()).collect();
    if !args.json {
        let intro = format!(
            "arena benchmark: dt = 1/60 s, radius 2, restitution 1, seed {}, {threads_note}; \
             ms/step = median wall time of one World::step; energy = relative change over the \
             run; state per ball = {} bytes (id, path start and its time, velocity, radius, \
             density: the position is derived), plus {} bytes the step keeps per ball between \
             steps (predictions, links, queue entry)",
            args.seed,
            World::STATE_BYTES_PER_BALL,
            World::STEP_BYTES_PER_BALL
        );
        if args.markdown {
            writeln!(out, "{intro}\n").map_err(stdout_error)?;
            markdown_line(&mut out, &header).map_err(stdout_error)?;
            writeln!(out, "|{}", "---|".repeat(HEADER.len())).map_err(stdout_error)?;
        } else {
            writeln!(out, "{intro}").map_err(stdout_error)?;
            text_line(&mut out, &header).map_err(stdout_error)?;
        }
        out.flush().map_err(stdout_error)?;
    }
    let mut rows = Vec::new();
    for &balls in &args.balls {
        for &speed in &args.speeds {
            for &bb in &args.ball_ball {
                let row = run_one(args, balls, speed, bb)?;
                if !args.json {
                    let c = cells(&row);
                    if args.markdown {
                        markdown_line(&mut out, &c).map_err(stdout_error)?;
                    } else {
                        text_line(&mut out, &c).map_err(stdout_error)?;
                    }
                    out.flush().map_err(stdout_error)?;
                }
                rows.push(row);
            }
        }
    }
    if args.json {
        serde_json::to_writer_pretty(&mut out, &rows).map_err(json_error)?;
        writeln!(out).map_err(stdout_error)?;
    }
    out.flush().map_err(stdout_error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide_world::Cell;

    #[test]
    fn one_tile_is_the_arena() {
        assert_eq!(
            bench_scene(1000, 60.0, 1, true, (1, 1)),
            arena_scene(1000, 60.0, 1)
        );
    }

    #[test]
    fn tiles_repeat_the_grid() {
        let s = bench_scene(100, 60.0, 1, false, (5, 2));
        let g = s.grid.as_ref().unwrap();
        assert_eq!((g.cols, g.rows), (200, 80));
        assert_eq!(
            g.cells.iter().filter(|&&c| c == Cell::Wall).count(),
            10 * 226
        );
        assert_eq!(s.size, Vec2::new(5000.0, 2000.0));
        assert!(!s.step.ball_ball);
        // Tile (3, 1) is a copy of tile (0, 0).
        let base = arena_scene(1, 60.0, 1).grid.unwrap();
        for r in 0..40 {
            for c in 0..40 {
                assert_eq!(g.cells[(40 + r) * 200 + 120 + c], base.cells[r * 40 + c]);
            }
        }
    }

    #[test]
    fn auto_layout() {
        assert_eq!(auto_tiles(0), (1, 1));
        assert_eq!(auto_tiles(1000), (1, 1));
        assert_eq!(auto_tiles(10_000), (1, 1));
        assert_eq!(auto_tiles(10_001), (2, 1));
        assert_eq!(auto_tiles(40_000), (2, 2));
        assert_eq!(auto_tiles(100_000), (5, 2));
        assert_eq!(auto_tiles(70_000), (7, 1));
    }

    #[test]
    fn tiles_parse() {
        assert_eq!(parse_tiles("auto"), Ok(Tiles::Auto));
        assert_eq!(parse_tiles("5x2"), Ok(Tiles::Fixed(5, 2)));
        assert!(parse_tiles("0x2").is_err());
        assert!(parse_tiles("5").is_err());
        assert!(parse_tiles("axb").is_err());
    }
}
