//! # collide-compare
//!
//! collide and rapier2d side by side, in the same process, on the same scene: the arena
//! benchmark scene (`--scene arena`, default; `collide_scenes::arena_scene`: a closed
//! 1000 × 1000 box with 226 randomly placed 25-unit wall cells and N balls of radius 2, no
//! gravity) or the plinko board (`--scene plinko`, `plinko.rs`: `scenes/plinko.toml`'s layout
//! scaled to hold N balls of radius 2, gravity `(0, 981)`). Both engines get the same solid
//! cells, the same balls (centres, velocities, radii taken from the collide world built from
//! the scene), the same gravity, restitution 1, no friction, CCD on every ball, ball-ball
//! collisions on, `f64` (`rapier2d-f64`), one thread each. For every configuration both
//! engines run the same number of steps from the same start state, taking turns every
//! `--block` steps (default 50) so that both see the same machine load; each step call is
//! timed. Printed per engine: median ms/step, the relative energy change over the run
//! (kinetic plus potential energy), overlapping pairs at the end (centres closer than
//! `r1 + r2 - 1e-6`), tunneled balls (centre inside a solid cell or outside the world box),
//! embedded balls, the ratio rapier / collide, and collide's contact events per ball-step.
//!
//! ```text
//! collide-compare run [--scene arena|plinko]
//!                     [--configs 10000@60,10000@3000,1000@3000,1000@60,100000@60]
//!                     [--steps 600] [--steps-large 60] [--write docs/performance.md]
//!                     [--plot docs/performance.png] [--pin 1] [--rapier-tiles cuboids|voxels]
//! collide-compare characters [--speeds 10,100,1000,10000] [--write docs/performance.md]
//!                            [--pin 1]
//! collide-compare splice --file docs/performance.md --section NAME   < body
//! ```
//!
//! `--scene plinko` takes the same `balls@speed` configurations (the speed is the balls'
//! spawn speed; default `10000@40,1000@40`) and writes the `collide-compare-plinko` section.
//!
//! `characters` runs collide's character and rapier2d's `KinematicCharacterController` on a
//! seam run over 200 flush tiles and on a 45° ramp (`kcc.rs`, `kcc_rapier.rs`) and writes the
//! `collide-compare-characters` section.
//!
//! Features: `rapier` (the rapier2d side; without it only collide runs and `--write` is
//! refused) and `plot` (the PNG). Neither is on by default, so `cargo build --workspace` and
//! CI never compile rapier2d or plotters. The whole measurement, pinned to one core and
//! written into `docs/performance.md`, is `bench/perf.sh compare`.

mod arena;
mod doc;
mod engine;
mod kcc;
mod kcc_doc;
#[cfg(feature = "rapier")]
mod kcc_rapier;
mod plinko;
mod plinko_doc;
#[cfg(feature = "plot")]
mod plot;
#[cfg(feature = "rapier")]
mod rapier_side;

use std::error::Error;
use std::fmt::Write as _;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use crate::engine::Run;

/// collide vs rapier2d on the arena scene or the plinko board.
#[derive(Parser, Debug)]
#[command(name = "collide-compare", about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Runs the comparison, prints the table, optionally writes the Markdown section and plot.
    Run(RunArgs),
    /// collide's character and rapier2d's `KinematicCharacterController` on the seam run and
    /// the ramp; optionally writes the `collide-compare-characters` Markdown section.
    Characters(kcc_doc::CharArgs),
    /// Replaces section NAME of a Markdown file (between `<!-- BEGIN NAME -->` and
    /// `<!-- END NAME -->`) with standard input; creates the file from the skeleton of
    /// docs/performance.md when missing.
    Splice {
        /// The Markdown file.
        #[arg(long)]
        file: PathBuf,
        /// The section name.
        #[arg(long)]
        section: String,
    },
}

/// A configuration: `balls@speed`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Config {
    balls: usize,
    speed: f64,
}

fn parse_config(s: &str) -> Result<Config, String> {
    let err = || format!("expected BALLS@SPEED such as 10000@60, got `{s}`");
    let (n, v) = s.split_once('@').ok_or_else(err)?;
    let balls = n.trim().parse().map_err(|_| err())?;
    let speed: f64 = v.trim().parse().map_err(|_| err())?;
    if !(speed.is_finite() && speed >= 0.0) {
        return Err(err());
    }
    Ok(Config { balls, speed })
}

/// The scene both engines run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum SceneKind {
    /// The arena benchmark scene: no gravity, balls at `speed` units/s.
    Arena,
    /// The plinko board under gravity (0, 981), sized for the ball count; balls spawned at
    /// `speed` units/s.
    Plinko,
}

impl SceneKind {
    /// The configurations run when `--configs` is not given.
    fn default_configs(self) -> &'static str {
        match self {
            SceneKind::Arena => "10000@60,10000@3000,1000@3000,1000@60,100000@60",
            SceneKind::Plinko => "10000@40,1000@40",
        }
    }

    /// The section of the Markdown file the run writes.
    fn section(self) -> &'static str {
        match self {
            SceneKind::Arena => "collide-compare",
            SceneKind::Plinko => "collide-compare-plinko",
        }
    }

    fn name(self) -> &'static str {
        match self {
            SceneKind::Arena => "the arena",
            SceneKind::Plinko => "the plinko board",
        }
    }
}

/// A configuration's scene and how its layout is shown (`tile` column).
fn build_scene(kind: SceneKind, cfg: Config, seed: u64) -> (collide_world::Scene, String) {
    match kind {
        SceneKind::Arena => {
            let tiles = arena::auto_tiles(cfg.balls);
            (
                arena::scene(cfg.balls, cfg.speed, seed, tiles),
                format!("{}x{}", tiles.0, tiles.1),
            )
        }
        SceneKind::Plinko => {
            let b = plinko::Board::for_balls(cfg.balls);
            (
                b.scene(cfg.balls, cfg.speed, seed),
                format!("{}x{}", b.cols(), b.rows()),
            )
        }
    }
}

#[derive(Args, Debug)]
struct RunArgs {
    /// The scene: the arena (no gravity) or the plinko board (gravity, sized for N balls).
    #[arg(long, value_enum, default_value = "arena")]
    scene: SceneKind,
    /// Configurations, comma-separated `balls@speed` (units/s). Default for the arena: 10k @
    /// 60, 10k @ 3000 and 1k @ 3000, and the N sweep at 60 units/s (1k, 10k, 100k); for the
    /// plinko board: 10k @ 40 and 1k @ 40 (40 units/s: the spawn speed of
    /// scenes/plinko.toml).
    #[arg(long, value_delimiter = ',', value_parser = parse_config)]
    configs: Option<Vec<Config>>,
    /// Steps per configuration and engine (dt = 1/60 s).
    #[arg(long, default_value_t = 600)]
    steps: u64,
    /// Steps for configurations of at least `--large-from` balls (rapier is slow there).
    #[arg(long, default_value_t = 60)]
    steps_large: u64,
    /// Ball count from which `--steps-large` applies.
    #[arg(long, default_value_t = 100_000)]
    large_from: usize,
    /// Seed of the balls' placement and directions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How rapier gets the tiles: one cuboid collider per solid cell, or one voxels shape.
    #[cfg(feature = "rapier")]
    #[arg(long, value_enum, default_value = "cuboids")]
    rapier_tiles: rapier_side::TileShape,
    /// Keep rapier's default velocity clamp (400 units/s with length unit 1); by default it is
    /// disabled so that rapier simulates the same speeds as collide.
    #[cfg(feature = "rapier")]
    #[arg(long)]
    rapier_velocity_clamp: bool,
    /// The engines take turns every this many steps (both see the same machine load).
    #[arg(long, value_name = "STEPS", default_value_t = 50)]
    block: u64,
    /// Attempts of the rapier side per configuration: a run that panics inside rapier is
    /// reported and started again from the same start state, at most this many times.
    #[cfg(feature = "rapier")]
    #[arg(long, default_value_t = 3)]
    rapier_attempts: u32,
    /// Write the results into this Markdown file's `collide-compare` section
    /// (`collide-compare-plinko` with `--scene plinko`; feature `rapier`).
    #[arg(long, value_name = "FILE.md")]
    write: Option<PathBuf>,
    /// Draw ms/step against N for both engines into this PNG (feature `plot`).
    #[arg(long, value_name = "FILE.png")]
    plot: Option<PathBuf>,
    /// TrueType font of the plot's text (default: DejaVu Sans).
    #[arg(long, value_name = "FILE.ttf")]
    font: Option<PathBuf>,
    /// Re-run this command pinned to this CPU with `taskset -c CPU` (when taskset exists).
    #[arg(long, value_name = "CPU")]
    pin: Option<u32>,
    /// Print every block's median ms/step of both engines and collide's contact events per
    /// ball-step in it, to see how a run evolves (feature `rapier`).
    #[arg(long)]
    progress: bool,
    /// A sentence added to the Markdown section (e.g. what else ran on the machine).
    #[arg(long)]
    note: Option<String>,
}

/// One `--progress` line: the block's median ms/step of both engines and collide's contact
/// events per ball-step in it.
#[cfg(feature = "rapier")]
fn print_progress(balls: usize, first: usize, collide: &[f64], contacts: u64, rapier: &[f64]) {
    let med = |t: &[f64]| engine::median(&mut t.to_vec());
    println!(
        "  {balls} balls, steps {}-{}: collide {} ms/step, {:.3} events/ball-step; rapier {} ms/step",
        first + 1,
        first + collide.len(),
        fmt_ms(med(collide)),
        contacts as f64 / (balls as f64 * collide.len().max(1) as f64),
        if rapier.is_empty() {
            "-".to_owned()
        } else {
            fmt_ms(med(rapier))
        },
    );
}

/// The environment variable set on the pinned child process.
const PINNED_ENV: &str = "COLLIDE_COMPARE_PINNED";

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Cmd::Run(args) => cmd_run(&args),
        Cmd::Characters(args) => kcc_doc::cmd_characters(&args),
        Cmd::Splice { file, section } => cmd_splice(&file, &section),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn cmd_splice(file: &Path, section: &str) -> Result<ExitCode, Box<dyn Error>> {
    let mut body = String::new();
    std::io::stdin().read_to_string(&mut body)?;
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => doc::SKELETON.to_owned(),
        Err(e) => return Err(format!("{}: {e}", file.display()).into()),
    };
    std::fs::write(file, doc::splice(&text, section, &body))
        .map_err(|e| format!("{}: {e}", file.display()))?;
    Ok(ExitCode::SUCCESS)
}

/// Re-executes the command under `taskset -c CPU`; `None` when already pinned or no taskset.
fn repin(cpu: u32) -> Option<ExitCode> {
    if std::env::var_os(PINNED_ENV).is_some() {
        return None;
    }
    let exe = std::env::current_exe().ok()?;
    let status = std::process::Command::new("taskset")
        .arg("-c")
        .arg(cpu.to_string())
        .arg(exe)
        .args(std::env::args_os().skip(1))
        .env(PINNED_ENV, cpu.to_string())
        .status();
    match status {
        Ok(s) => Some(ExitCode::from(
            u8::try_from(s.code().unwrap_or(1)).unwrap_or(1),
        )),
        Err(e) => {
            eprintln!("warning: cannot run taskset ({e}): running unpinned");
            None
        }
    }
}

/// One configuration's results.
struct Row {
    cfg: Config,
    /// The arena's tiling (`5x2`) or the plinko board's cells (`240x320`).
    layout: String,
    collide: Run,
    hash: u64,
    rapier: Option<Run>,
    /// rapier attempts that panicked (each retried from the start state).
    rapier_failures: Vec<String>,
}

impl Row {
    fn ratio(&self) -> Option<f64> {
        let r = self.rapier.as_ref()?;
        (self.collide.ms_median > 0.0).then(|| r.ms_median / self.collide.ms_median)
    }
}

fn fmt_ms(ms: f64) -> String {
    if ms >= 100.0 {
        format!("{ms:.0}")
    } else if ms >= 10.0 {
        format!("{ms:.1}")
    } else if ms >= 1.0 {
        format!("{ms:.2}")
    } else {
        format!("{ms:.3}")
    }
}

fn fmt_energy(e: f64) -> String {
    if e == 0.0 {
        "0".to_owned()
    } else if e.abs() >= 1e-3 {
        format!("{:+.1} %", 100.0 * e)
    } else {
        format!("{e:+.1e}")
    }
}

fn opt<T>(x: Option<T>, f: impl Fn(T) -> String) -> String {
    x.map_or_else(|| "-".to_owned(), f)
}

/// The cells both tables show for a row, in order: collide ms, rapier ms, energy change
/// collide / rapier, overlapping pairs, tunneled, embedded (collide, rapier each). The ratio
/// comes separately (each table formats it its own way).
fn row_cells(r: &Row) -> [String; 10] {
    let rp = r.rapier.as_ref();
    [
        fmt_ms(r.collide.ms_median),
        opt(rp, |x| fmt_ms(x.ms_median)),
        fmt_energy(r.collide.energy_rel_change()),
        opt(rp, |x| fmt_energy(x.energy_rel_change())),
        r.collide.overlaps.to_string(),
        opt(rp, |x| x.overlaps.to_string()),
        r.collide.tunneled.to_string(),
        opt(rp, |x| x.tunneled.to_string()),
        r.collide.embedded.to_string(),
        opt(rp, |x| x.embedded.to_string()),
    ]
}

/// Collide's contact events per ball-step, formatted.
fn fmt_events(r: &Run) -> String {
    opt(r.events_per_ball_step(), |x| format!("{x:.3}"))
}

fn print_row(r: &Row) {
    let [ms_c, ms_r, e_c, e_r, o_c, o_r, t_c, t_r, em_c, em_r] = row_cells(r);
    println!(
        "{:>7} {:>6} {:>5} {:>7} | {:>9} {:>9} {:>7} | {:>10} | {:>9} {:>9} | {:>5} {:>6} | {:>5} {:>6} | {:>5} {:>6} | {:016x}",
        r.cfg.balls,
        r.cfg.speed,
        r.collide.steps,
        r.layout,
        ms_c,
        ms_r,
        opt(r.ratio(), |x| format!("{x:.1}x")),
        fmt_events(&r.collide),
        e_c,
        e_r,
        o_c,
        o_r,
        t_c,
        t_r,
        em_c,
        em_r,
        r.hash,
    );
}

/// The console table's header; `layout` names the layout column (`tile`, `cells`).
fn print_header(layout: &str) {
    println!(
        "{:>7} {:>6} {:>5} {:>7} | {:>9} {:>9} {:>7} | {:>10} | {:>9} {:>9} | {:>5} {:>6} | {:>5} {:>6} | {:>5} {:>6} | collide state hash",
        "balls", "speed", "steps", layout, "collide", "rapier", "r/c", "events c", "energy c",
        "energy r", "ovl c", "ovl r", "tun c", "tun r", "emb c", "emb r"
    );
    println!(
        "{:>28} | {:>9} {:>9} {:>7} | {:>10} |",
        "", "ms/step", "ms/step", "", "/ball-step"
    );
}

#[cfg(feature = "rapier")]
fn rapier_settings(args: &RunArgs) -> rapier_side::RapierOptions {
    rapier_side::RapierOptions {
        tiles: args.rapier_tiles,
        velocity_clamp: args.rapier_velocity_clamp,
    }
}

fn cmd_run(args: &RunArgs) -> Result<ExitCode, Box<dyn Error>> {
    if let Some(cpu) = args.pin {
        if let Some(code) = repin(cpu) {
            return Ok(code);
        }
    }
    if args.write.is_some() && !cfg!(feature = "rapier") {
        return Err("--write needs the rapier side: build with `--features rapier`".into());
    }
    if args.plot.is_some() && !cfg!(feature = "plot") {
        return Err("--plot needs `--features plot`".into());
    }
    let machine = doc::Machine::probe();
    let rapier_version = doc::locked_version("rapier2d-f64").unwrap_or_else(|| "0.36".into());
    let configs = match &args.configs {
        Some(c) => c.clone(),
        None => args
            .scene
            .default_configs()
            .split(',')
            .map(parse_config)
            .collect::<Result<Vec<_>, _>>()?,
    };
    println!(
        "collide vs rapier2d-f64 {rapier_version} on {}, single thread each, dt = 1/60 s, seed {}; {}",
        args.scene.name(),
        args.seed,
        if cfg!(feature = "rapier") {
            "the engines take turns every --block steps from the same start state"
        } else {
            "rapier side NOT BUILT (enable `--features rapier`)"
        }
    );
    print_header(match args.scene {
        SceneKind::Arena => "tile",
        SceneKind::Plinko => "cells",
    });
    let mut rows = Vec::new();
    for &cfg in &configs {
        let steps = if cfg.balls >= args.large_from {
            args.steps_large
        } else {
            args.steps
        };
        let (scene, layout) = build_scene(args.scene, cfg, args.seed);
        let mut world = engine::build_collide(&scene).map_err(|e| {
            format!(
                "cannot build {} for {} balls at {}: {e}",
                args.scene.name(),
                cfg.balls,
                cfg.speed
            )
        })?;
        let gravity = scene.step.gravity;
        let mut counts = engine::EventCounts::default();
        let start = engine::collide_balls(&world);
        let grid = world.grid().cloned();
        let mut collide_times = Vec::with_capacity(usize::try_from(steps).unwrap_or(0));
        let mut rapier_failures = Vec::new();
        // The engines take turns, `--block` steps each, so that both see the same machine
        // load; each keeps its own world, so the results equal one-after-the-other runs. A
        // panic inside rapier discards that attempt and restarts rapier from the start state
        // (at most `--rapier-attempts` attempts), reported.
        #[cfg(feature = "rapier")]
        let rapier = {
            let new_arena = || {
                rapier_side::RapierArena::new(&scene, grid.as_ref(), &start, rapier_settings(args))
            };
            let hook = std::panic::take_hook();
            std::panic::set_hook(Box::new(|info| eprintln!("rapier panicked: {info}")));
            let mut attempts = 1;
            let mut arena = Some(new_arena());
            let rapier_start = arena.as_ref().map(|a| a.balls(&start));
            let mut rapier_times: Vec<f64> = Vec::with_capacity(collide_times.capacity());
            let block = args.block.max(1);
            while (collide_times.len() as u64) < steps
                || (arena.is_some() && (rapier_times.len() as u64) < steps)
            {
                let n = block.min(steps - collide_times.len() as u64);
                let before = (collide_times.len(), counts.contacts, rapier_times.len());
                engine::step_collide(&mut world, n, &mut collide_times, &mut counts);
                let Some(a) = arena.as_mut() else { continue };
                let n = block.min(steps - rapier_times.len() as u64);
                for _ in 0..n {
                    match a.step_timed() {
                        Ok(ms) => rapier_times.push(ms),
                        Err(msg) => {
                            rapier_failures.push(format!(
                                "attempt {attempts}: rapier panicked at step {}: {msg}",
                                rapier_times.len() + 1
                            ));
                            rapier_times.clear();
                            if attempts < args.rapier_attempts.max(1) {
                                attempts += 1;
                                *a = new_arena();
                            } else {
                                arena = None;
                            }
                            break;
                        }
                    }
                }
                if args.progress {
                    print_progress(
                        cfg.balls,
                        before.0,
                        &collide_times[before.0..],
                        counts.contacts - before.1,
                        rapier_times.get(before.2..).unwrap_or(&[]),
                    );
                }
            }
            std::panic::set_hook(hook);
            match (arena, rapier_start) {
                (Some(a), Some(first)) => Some(Run::from_states(
                    rapier_times,
                    &first,
                    &a.balls(&start),
                    grid.as_ref(),
                    scene.size,
                    gravity,
                )),
                _ => None,
            }
        };
        #[cfg(not(feature = "rapier"))]
        let rapier: Option<Run> = {
            engine::step_collide(&mut world, steps, &mut collide_times, &mut counts);
            let _ = &mut rapier_failures;
            None
        };
        let collide = Run {
            events: Some(counts.contacts),
            iteration_limits: Some(counts.iteration_limits),
            events_first_last: Some(
                counts.first_last(cfg.balls, usize::try_from(args.block).unwrap_or(usize::MAX)),
            ),
            ..Run::from_states(
                collide_times,
                &start,
                &engine::collide_balls(&world),
                grid.as_ref(),
                world.size(),
                gravity,
            )
        };
        let hash = world.state_hash();
        drop(world);
        for f in &rapier_failures {
            println!("  note: {} balls @ {}: {f}", cfg.balls, cfg.speed);
        }
        if counts.iteration_limits > 0 {
            println!(
                "  note: {} balls @ {}: collide hit its event bound in {} steps (IterationLimit)",
                cfg.balls, cfg.speed, counts.iteration_limits
            );
        }
        let row = Row {
            cfg,
            layout,
            collide,
            hash,
            rapier,
            rapier_failures,
        };
        print_row(&row);
        std::io::stdout().flush()?;
        rows.push(row);
    }
    let load_end = doc::load_average();
    if let Some(png) = &args.plot {
        draw_plot(args, png, &rows)?;
        println!("wrote {}", png.display());
    }
    if let Some(md) = &args.write {
        let body = match args.scene {
            SceneKind::Arena => markdown(args, &rows, &machine, &load_end, &rapier_version),
            SceneKind::Plinko => {
                plinko_doc::markdown(args, &rows, &machine, &load_end, &rapier_version)
            }
        };
        let text = match std::fs::read_to_string(md) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => doc::SKELETON.to_owned(),
            Err(e) => return Err(format!("{}: {e}", md.display()).into()),
        };
        let section = args.scene.section();
        std::fs::write(md, doc::splice(&text, section, &body))
            .map_err(|e| format!("{}: {e}", md.display()))?;
        println!("wrote section `{section}` of {}", md.display());
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(feature = "plot")]
fn draw_plot(args: &RunArgs, png: &Path, rows: &[Row]) -> Result<(), Box<dyn Error>> {
    let mut speeds: Vec<f64> = rows.iter().map(|r| r.cfg.speed).collect();
    speeds.sort_by(f64::total_cmp);
    speeds.dedup();
    let mut series = Vec::new();
    for (k, &v) in speeds.iter().enumerate() {
        let mut at: Vec<&Row> = rows.iter().filter(|r| r.cfg.speed == v).collect();
        at.sort_by_key(|r| r.cfg.balls);
        let c: Vec<(f64, f64)> = at
            .iter()
            .map(|r| (r.cfg.balls as f64, r.collide.ms_median))
            .collect();
        let rp: Vec<(f64, f64)> = at
            .iter()
            .filter_map(|r| r.rapier.as_ref().map(|x| (r.cfg.balls as f64, x.ms_median)))
            .collect();
        series.push(plot::Series {
            label: format!("collide, {v} units/s"),
            points: c,
            collide: true,
            hollow: k > 0,
        });
        if !rp.is_empty() {
            series.push(plot::Series {
                label: format!("rapier2d-f64, {v} units/s"),
                points: rp,
                collide: false,
                hollow: k > 0,
            });
        }
    }
    plot::draw(
        png,
        match args.scene {
            SceneKind::Arena => "Arena: ms per step against N (one thread, CCD, e = 1)",
            SceneKind::Plinko => "Plinko, gravity: ms per step against N (one thread, CCD, e = 1)",
        },
        &series,
        args.font.as_deref(),
        (900, 600),
    )
}

#[cfg(not(feature = "plot"))]
fn draw_plot(_: &RunArgs, _: &Path, _: &[Row]) -> Result<(), Box<dyn Error>> {
    Err("--plot needs `--features plot`".into())
}

/// `arg` as one shell word: unchanged when it holds only safe characters, else in single
/// quotes (a `'` inside becomes `'\''`).
fn shell_quote(arg: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "@%_+=:,./-".contains(c);
    if !arg.is_empty() && arg.chars().all(safe) {
        arg.to_owned()
    } else {
        format!("'{}'", arg.replace('\'', "'\\''"))
    }
}

/// The exact command, as typed from the workspace root.
fn reproduce_command() -> String {
    let args: Vec<String> = std::env::args().skip(1).map(|a| shell_quote(&a)).collect();
    let mut features = Vec::new();
    if cfg!(feature = "rapier") {
        features.push("rapier");
    }
    if cfg!(feature = "plot") {
        features.push("plot");
    }
    format!(
        "cargo run --release -p collide-compare --features {} -- {}",
        features.join(","),
        args.join(" ")
    )
}

/// The section's heading and its first paragraphs: what measured it, the machine, the
/// command.
fn markdown_header(
    args: &RunArgs,
    heading: &str,
    m: &doc::Machine,
    load_end: &str,
    rapier: &str,
) -> String {
    let mut s = String::new();
    let pinned = std::env::var(PINNED_ENV).ok();
    let _ = writeln!(s, "## {heading}\n");
    let _ = writeln!(
        s,
        "Measured by `collide-compare` ({}), collide at commit {} (source fingerprint `{}`), \
         rapier2d-f64 {rapier} (the `f64` build of rapier2d), {}.\n",
        m.rustc,
        m.commit,
        m.source,
        match &pinned {
            Some(cpu) => format!("both engines pinned to CPU {cpu} with `taskset`"),
            None => "not pinned".to_owned(),
        }
    );
    let _ = writeln!(
        s,
        "Machine: {} (`lscpu` model name), `nproc --all` = {}, `nproc` in the run = {}. Load \
         average (1, 5, 15 min) {} at the start and {} at the end: **the machine is shared \
         with other engineers' builds and tests**, so single figures can be off by tens of per \
         cent; the ratios of the same run are the robust part.{}\n",
        m.cpu,
        m.nproc_all,
        m.nproc,
        m.load_start,
        load_end,
        args.note
            .as_ref()
            .map_or(String::new(), |n| format!(" {n}"))
    );
    let _ = writeln!(
        s,
        "Command (from the workspace root):\n\n```sh\n{}\n```\n",
        reproduce_command()
    );
    s
}

fn markdown(
    args: &RunArgs,
    rows: &[Row],
    m: &doc::Machine,
    load_end: &str,
    rapier: &str,
) -> String {
    let mut s = markdown_header(
        args,
        "collide vs rapier2d, same process, same scene",
        m,
        load_end,
        rapier,
    );
    let _ = writeln!(
        s,
        "| N balls | speed (units/s) | steps | collide ms/step | rapier2d ms/step | rapier / collide | energy change collide | energy change rapier | overlapping pairs collide | overlapping pairs rapier | tunneled collide | tunneled rapier | embedded collide | embedded rapier |"
    );
    let _ = writeln!(s, "|{}", "---|".repeat(14));
    for r in rows {
        let [ms_c, ms_r, rest @ ..] = row_cells(r);
        let _ = writeln!(
            s,
            "| {} | {} | {} | {ms_c} | {ms_r} | {} | {} |",
            r.cfg.balls,
            r.cfg.speed,
            r.collide.steps,
            opt(r.ratio(), |x| format!("**{x:.1}x**")),
            rest.join(" | "),
        );
    }
    let _ = writeln!(s);
    let failures: Vec<String> = rows
        .iter()
        .flat_map(|r| {
            r.rapier_failures
                .iter()
                .map(move |f| format!("- {} balls at {} units/s: {f}", r.cfg.balls, r.cfg.speed))
        })
        .collect();
    if !failures.is_empty() {
        let _ = writeln!(
            s,
            "rapier2d panicked in this run (each such attempt was discarded and rapier \
             started again from the same start state; a `-` in the table means every attempt \
             panicked):\n"
        );
        for f in failures {
            let _ = writeln!(s, "{f}");
        }
        let _ = writeln!(s);
    }
    // Speed and exactness side by side for the two 10 000-ball configurations of this run.
    let summary = |balls: usize, speed: f64| -> Option<String> {
        let r = rows
            .iter()
            .find(|r| r.cfg.balls == balls && r.cfg.speed == speed)?;
        let x = r.ratio()?;
        Some(format!(
            "- {balls} balls at {speed} units/s: collide is {x:.1}x as fast as rapier2d, and ends with {} overlapping pairs, {} embedded balls and an energy change of {}.",
            r.collide.overlaps,
            r.collide.embedded,
            fmt_energy(r.collide.energy_rel_change()),
        ))
    };
    let summaries: Vec<String> = [summary(10_000, 60.0), summary(10_000, 3000.0)]
        .into_iter()
        .flatten()
        .collect();
    if !summaries.is_empty() {
        let _ = writeln!(s, "In this run:\n");
        for t in summaries {
            let _ = writeln!(s, "{t}");
        }
        let _ = writeln!(s);
    }
    let large: Vec<String> = rows
        .iter()
        .filter(|r| r.cfg.balls >= args.large_from)
        .map(|r| format!("{} balls", r.cfg.balls))
        .collect();
    let _ = writeln!(
        s,
        "How to read it:\n\n\
         - Scene: the arena benchmark scene (`arena_scene(N, speed, {seed})`: world [0, 1000]², \
         four walls, 40 × 40 cells of 25 units, 226 solid cells, balls of radius 2 and density 1 \
         placed without overlap, uniform random directions, exact speed). One arena cannot hold \
         100 000 such balls (random placement jams near 36 000), so above 10 000 balls the arena \
         is repeated side by side, one per 10 000 balls (100 000 balls: 5 × 2 arenas, world \
         5000 × 2000, the same ball density as 10 000 in one arena); the `tile` column of the \
         console output shows the layout.\n\
         - Both engines start from the same state: rapier's balls are made from the collide \
         world's balls (centre, velocity, radius, mass). Each engine's step call is timed alone \
         (median over the steps); the two engines take turns, {block} steps each, so that both \
         see the same machine load (each keeps its own world: the results are those of two \
         separate runs).{large}\n\
         - rapier2d settings: {tiles}; the world box is four fixed cuboids; restitution 1 \
         combined with `Max`, friction 0, gravity 0, CCD enabled and sleeping disabled on every \
         ball, default solver parameters (length unit 1, 4 iterations, 1 CCD substep), {clamp}; \
         no `parallel` feature (one thread).\n\
         - Energy change: `(E_end - E_start) / E_start` of `Σ ½ m |v|²` over the run (no ball \
         spins: there is no friction). Overlapping pairs: centres closer than `r1 + r2 - 1e-6` \
         at the end. Tunneled: centre inside a solid cell or outside the world box at the end. \
         Embedded: centre closer than `r - 1e-6` to a solid cell at the end (collide's \
         `embedded`).\n",
        seed = args.seed,
        block = args.block,
        large = if large.is_empty() {
            String::new()
        } else {
            format!(
                " Configurations of at least {} balls run {} steps instead of {} (rapier is \
                 slow there).",
                args.large_from, args.steps_large, args.steps
            )
        },
        tiles = rapier_tiles_text(args, 25.0),
        clamp = rapier_clamp_text(args),
    );
    if let (Some(png), Some(md)) = (&args.plot, &args.write) {
        let rel = relative(png, md);
        let _ = writeln!(
            s,
            "![ms per step against N, collide and rapier2d, log-log]({rel})\n\n\
             *Median ms per step against the number of balls, log-log, both engines in the same \
             run (filled markers and thick lines: the lowest speed; hollow and thin: the \
             others).*"
        );
    }
    s
}

/// How rapier gets the tiles, for cells of side `cell`.
#[cfg(feature = "rapier")]
fn rapier_tiles_text(args: &RunArgs, cell: f64) -> String {
    match args.rapier_tiles {
        rapier_side::TileShape::Cuboids => {
            format!(
                "every solid cell is a cuboid collider of {cell} × {cell} units on one fixed body"
            )
        }
        rapier_side::TileShape::Voxels => "the solid cells are one `Voxels` collider".to_owned(),
    }
}

#[cfg(feature = "rapier")]
fn rapier_clamp_text(args: &RunArgs) -> &'static str {
    if args.rapier_velocity_clamp {
        "rapier's default velocity clamp kept (400 units/s)"
    } else {
        "rapier's velocity clamp (`normalized_max_linear_velocity`, 400 units/s by default) \
         disabled so that both engines simulate the same speeds"
    }
}

#[cfg(not(feature = "rapier"))]
fn rapier_tiles_text(_: &RunArgs, _: f64) -> String {
    "(rapier side not built)".to_owned()
}

#[cfg(not(feature = "rapier"))]
fn rapier_clamp_text(_: &RunArgs) -> &'static str {
    "(rapier side not built)"
}

/// `target` relative to the directory of `from` when it lies in it, else `target` as given.
fn relative(target: &Path, from: &Path) -> String {
    let dir = from.parent().unwrap_or_else(|| Path::new(""));
    target
        .strip_prefix(dir)
        .unwrap_or(target)
        .display()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configs_parse() {
        assert_eq!(
            parse_config("10000@60"),
            Ok(Config {
                balls: 10_000,
                speed: 60.0
            })
        );
        assert!(parse_config("10000").is_err());
        assert!(parse_config("x@60").is_err());
        assert!(parse_config("10@-1").is_err());
    }

    #[test]
    fn clap_definition_is_valid() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    #[test]
    fn shell_words() {
        assert_eq!(shell_quote("--steps"), "--steps");
        assert_eq!(shell_quote("10000@60,1000@3000"), "10000@60,1000@3000");
        assert_eq!(shell_quote("two words"), "'two words'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
    }

    #[test]
    fn plot_path_is_relative_to_the_document() {
        assert_eq!(
            relative(
                Path::new("docs/performance.png"),
                Path::new("docs/performance.md")
            ),
            "performance.png"
        );
        assert_eq!(
            relative(Path::new("/tmp/a.png"), Path::new("docs/p.md")),
            "/tmp/a.png"
        );
    }
}
