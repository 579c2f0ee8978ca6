//! # collide (the command line)
//!
//! Runs collide scenes headlessly and reports on them as JSON, traces their events, renders
//! them to PNG:
//!
//! ```text
//! collide run SCENE [--steps N] [--dump] [overrides]     one JSON object: counts, energy, timing
//! collide trace SCENE --steps N [overrides]              one JSON line of events per step
//! collide render SCENE --out FILE.png [--steps N] [--width W] [--height H] [overrides]
//! collide scenes                                         the built-in scene names
//! collide record SCENE --steps N --out FILE [--hash-every K] [--autoplay] [--sandbox]
//!                                                        records a game session (replay.rs)
//! collide replay FILE                                    re-simulates a replay, checks its hashes
//! collide replay convert OLD NEW                         rewrites a replay in the current format
//! collide bench [--balls N,..] [--speeds V,..] [--json]   times the step on the arena (bench.rs)
//! collide hashes                                         the golden-hash table (golden.rs)
//! collide soak pinball|plinko [--steps N] [--seed N]     a long run: memory, NaN, event bound
//!                                                        (soak.rs)
//! ```
//!
//! `SCENE` is a TOML scene file, a bare BricksBeater `.dat` level, a Tiled (`.tmx`, `.tmj`) or LDtk
//! (`.ldtk`) map (`--level NAME` picks an LDtk level; one-way platforms act through their
//! contact hook; without `--balls`, 100 balls of radius 3 are dropped at rest) or a built-in
//! scene name (`collide scenes`). The overrides change the scene before the world is built:
//! `--dt S`, `--seed N`, `--balls N`, `--walls left,top,right,bottom|none|all`,
//! `--indestructible`, `--ball-ball on|off`.
//!
//! The JSON keys are a contract read by tools; they are listed in `collide run --help` and in
//! [`report::RunReport`]. Errors go to stderr as `error: ...` followed by every cause, with
//! exit code 1 (2 for command-line usage errors); the command never panics on user input.

mod bench;
mod golden;
mod replay;
mod report;
mod soak;
mod stats;

use std::error::Error;
use std::fmt;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Parser, Subcommand};
use collide_render::{render, Camera, Canvas, Style};
use collide_world::limits::Bound;
use collide_world::{Event, Scene, SpawnDesc, Surface, Vec2, Walls, World};

use crate::report::{BallOut, EventCounts, EventOut, RectOut, RenderReport, RunReport, StepTrace};

/// Exact 2D arcade collision: run, trace and render scenes headlessly.
#[derive(Parser, Debug)]
#[command(name = "collide", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Runs a scene and prints one JSON object.
    ///
    /// Keys: scene, steps, dt, ball_ball, balls_start, balls_alive, balls_asleep, rects_asleep,
    /// balls_lost, embedded,
    /// overlapping_pairs (and overlapping_pairs_note when ball_ball is false: balls then pass
    /// through each other by design), energy_start, energy_end, energy_max_rel_dev, collisions (a count per
    /// event kind), bricks_destroyed, bricks_left, iteration_limits, unembedded, state_hash
    /// (16 hex digits), ms_per_step (median wall time of one step, within 0.1 %: a histogram
    /// of constant size, whatever --steps is); with --dump also balls
    /// [{id, pos, vel, radius}] and rects [{id, min, max, vel, kind}].
    Run {
        #[command(flatten)]
        scene: SceneArgs,
        /// Number of steps to run.
        #[arg(long, default_value_t = 600)]
        steps: u64,
        /// Also list every ball and rectangle at the end (the JSON is then on one line).
        #[arg(long)]
        dump: bool,
    },
    /// Runs a scene and prints one JSON line per step: {"step": k, "events": [...]}.
    ///
    /// `step` counts from 0. Every event has `kind` and all its fields: ids as numbers
    /// (BallId/RectId::to_bits), points and normals as [x, y], cells as [col, row], features
    /// and sides as strings, bodies as {"ball": id} or {"rect": id}.
    Trace {
        #[command(flatten)]
        scene: SceneArgs,
        /// Number of steps to run.
        #[arg(long)]
        steps: u64,
    },
    /// Runs a scene for some steps and writes a PNG image of it.
    Render {
        #[command(flatten)]
        scene: SceneArgs,
        /// Number of steps to run before rendering.
        #[arg(long, default_value_t = 0)]
        steps: u64,
        /// The PNG file to write.
        #[arg(long, value_name = "FILE.png")]
        out: PathBuf,
        /// Image width in pixels.
        #[arg(long, default_value_t = 960, value_parser = clap::value_parser!(u32).range(1..=MAX_IMAGE_SIDE))]
        width: u32,
        /// Image height in pixels (default: the world's aspect ratio at this width).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_IMAGE_SIDE))]
        height: Option<u32>,
    },
    /// Lists the built-in scenes, one per line.
    Scenes,
    /// Times the step on the arena benchmark scene (a closed box of tiles and N balls at one
    /// speed, the scene of docs/performance.md): a table, or --json.
    Bench(bench::BenchArgs),
    /// Plays a scene as the game (rules, policies) for N steps and writes a replay file
    /// (docs/replay-format.md); prints one JSON line.
    ///
    /// Keys: out, play, scene, steps, hashes, bytes, final_hash (16 hex digits).
    Record(replay::RecordArgs),
    /// Re-simulates a replay file and checks every recorded state hash; prints one JSON line,
    /// or fails (exit code 1) naming the first step whose hash differs, or a replay whose final
    /// state hash is not recorded (nothing would prove its last state).
    /// `collide replay convert OLD NEW` rewrites a replay in the current format.
    ///
    /// Keys: replay, play, scene, steps, commands, hashes_checked, final_hash, verified,
    /// seconds.
    Replay(replay::ReplayArgs),
    /// Prints the golden-hash table: for every built-in scene and the test scenes of every
    /// feature (sensors, squeezes, sleep, dynamic boxes, turning flippers, contact hooks, two
    /// threads, snapshots restored, the game's rules), the state hash and a digest of the
    /// events after a fixed number of steps; tab-separated, a `#` header line first. The
    /// same bits on every platform: CI compares the x86-64, aarch64 and wasm32 builds' tables
    /// with `tests/golden/hashes.tsv` (docs/rollback.md).
    ///
    /// Columns: case, steps, threads, state_hash, events_hash (16 hex digits each).
    Hashes,
    /// Runs a long soak: the pinball table with random flipper and plunger input (10^6 steps
    /// by default) or the plinko board with 5000 balls at restitution 0.5 (10^5 steps); checks
    /// that every body stays finite, counts the event-bound stops and reads the resident
    /// memory at the start, after a tenth of the steps and at the end. Prints one JSON line
    /// (with --every N, also one every N steps).
    ///
    /// Keys: scene, steps, seed, balls_end, balls_asleep, rss_start_kib, rss_warm_kib
    /// (null until a tenth of the steps is run), rss_end_kib (null where /proc is missing),
    /// non_finite_steps, iteration_limits, iteration_limit_steps, events, balls_lost, seconds,
    /// max_step_ms.
    Soak(soak::SoakArgs),
}

/// Largest width or height of a rendered image, pixels.
const MAX_IMAGE_SIDE: i64 = 16384;

/// The scene argument and the overrides applied to it before the world is built.
#[derive(Args, Debug)]
struct SceneArgs {
    /// A scene file (.toml), a BricksBeater level (.dat), a Tiled (.tmx, .tmj) or LDtk (.ldtk) map,
    /// or a built-in scene name.
    #[arg(value_name = "SCENE")]
    scene: String,
    /// The level of an LDtk map, by identifier or 0-based index (default: the first).
    #[arg(long, value_name = "NAME")]
    level: Option<String>,
    /// Time step in seconds (overrides the scene's step.dt; > 0 and <= 1e9, as in a scene).
    #[arg(long, value_name = "S")]
    dt: Option<f64>,
    /// Seed of the scene's random ball spawner.
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Number of random balls (the count of the scene's spawn table; adds a spawn of radius 3
    /// and speed 144 over the whole world if the scene has none).
    #[arg(long, value_name = "N")]
    balls: Option<usize>,
    /// The sides of the world that reflect, comma-separated (left,top,right,bottom), or
    /// `none` or `all`; the others are open.
    #[arg(long, value_name = "SIDES", value_parser = parse_walls)]
    walls: Option<Walls>,
    /// Bricks are never destroyed (they act as walls).
    #[arg(long)]
    indestructible: bool,
    /// Whether balls collide with each other.
    #[arg(long, value_name = "on|off", value_parser = parse_on_off)]
    ball_ball: Option<bool>,
    /// Gravity in units/s², y down (overrides the scene's step.gravity), e.g. `0,981`.
    #[arg(long, value_name = "GX,GY", value_parser = parse_gravity, allow_hyphen_values = true)]
    gravity: Option<Vec2>,
    /// Whether balls and boxes that settle in a pile or stack under gravity fall asleep
    /// (overrides the scene's step.sleep; on by default).
    #[arg(long, value_name = "on|off", value_parser = parse_on_off)]
    sleep: Option<bool>,
    /// Worker threads the step may use (World::set_threads; 1 = single-threaded). The
    /// results, state_hash included, are bit-identical whatever N is.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
}

/// `GX,GY`: two numbers within the scene format's coordinate bound.
fn parse_gravity(s: &str) -> Result<Vec2, String> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    let [x, y] = parts.as_slice() else {
        return Err(format!("expected GX,GY (two numbers), found `{s}`"));
    };
    let num = |t: &str, axis: &str| -> Result<f64, String> {
        let v: f64 = t
            .parse()
            .map_err(|_| format!("{axis}: `{t}` is not a number"))?;
        Bound::Coord.check(v).map_err(|e| format!("{axis}: {e}"))
    };
    Ok(Vec2::new(num(x, "x")?, num(y, "y")?))
}

fn parse_walls(s: &str) -> Result<Walls, String> {
    let s = s.trim();
    match s {
        "none" => return Ok(Walls::NONE),
        "all" => return Ok(Walls::ALL),
        _ => {}
    }
    let mut w = Walls::NONE;
    for side in s.split(',').map(str::trim) {
        match side {
            "left" => w.left = true,
            "top" => w.top = true,
            "right" => w.right = true,
            "bottom" => w.bottom = true,
            other => {
                return Err(format!(
                    "unknown side `{other}`: expected a comma-separated list of left, top, right, bottom, or `none` or `all`"
                ))
            }
        }
    }
    Ok(w)
}

/// A number within `bound`: the scene format's limits ([`Bound`]), so that a flag refuses
/// what a scene file would (`1e200`, `inf`, `NaN`).
fn parse_bounded(s: &str, bound: Bound) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number"))?;
    bound.check(v).map_err(|e| e.to_string())
}

/// A number within [`Bound::NonNeg`] (a speed).
fn parse_non_negative(s: &str) -> Result<f64, String> {
    parse_bounded(s, Bound::NonNeg)
}

fn parse_on_off(s: &str) -> Result<bool, String> {
    match s {
        "on" | "true" | "yes" | "1" => Ok(true),
        "off" | "false" | "no" | "0" => Ok(false),
        other => Err(format!("expected `on` or `off`, got `{other}`")),
    }
}

/// An error with a message and an optional cause, printed as `error: message` and the chain.
#[derive(Debug)]
struct CliError {
    msg: String,
    source: Option<Box<dyn Error + Send + Sync + 'static>>,
}

impl CliError {
    fn new(
        msg: impl Into<String>,
        source: impl Into<Box<dyn Error + Send + Sync + 'static>>,
    ) -> Self {
        CliError {
            msg: msg.into(),
            source: Some(source.into()),
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.msg)
    }
}

impl Error for CliError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        self.source.as_deref().map(|e| e as &(dyn Error + 'static))
    }
}

type Result<T, E = CliError> = std::result::Result<T, E>;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match dispatch(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // A closed stdout (`collide trace ... | head`) is not a failure.
            if is_broken_pipe(&e) {
                return ExitCode::SUCCESS;
            }
            let mut msg = format!("error: {e}");
            let mut cause = e.source();
            while let Some(c) = cause {
                msg.push_str(&format!("\n  caused by: {c}"));
                cause = c.source();
            }
            eprintln!("{msg}");
            ExitCode::FAILURE
        }
    }
}

fn is_broken_pipe(e: &CliError) -> bool {
    let mut cause: Option<&(dyn Error + 'static)> = e.source();
    while let Some(c) = cause {
        if let Some(io) = c.downcast_ref::<io::Error>() {
            if io.kind() == io::ErrorKind::BrokenPipe {
                return true;
            }
        }
        cause = c.source();
    }
    false
}

fn dispatch(command: Command) -> Result<()> {
    match command {
        Command::Run { scene, steps, dump } => cmd_run(&scene, steps, dump),
        Command::Trace { scene, steps } => cmd_trace(&scene, steps),
        Command::Render {
            scene,
            steps,
            out,
            width,
            height,
        } => cmd_render(&scene, steps, &out, width, height),
        Command::Scenes => cmd_scenes(),
        Command::Bench(args) => bench::cmd_bench(&args),
        Command::Record(args) => replay::cmd_record(&args),
        Command::Replay(args) => replay::cmd_replay(&args),
        Command::Hashes => golden::cmd_hashes(),
        Command::Soak(args) => soak::cmd_soak(&args),
    }
}

/// Number of balls dropped on a map when `--balls` is not given.
const MAP_BALLS: usize = 100;

/// A map file (`.tmx`, `.tmj`, `.ldtk`) as a scene with [`MAP_BALLS`] balls of radius 3 dropped at
/// rest over the whole level (its one-way platforms are one-way rectangles of the scene).
fn load_map(args: &SceneArgs) -> Result<Scene> {
    let map = collide_maps::load(
        &args.scene,
        args.level.as_deref(),
        &collide_maps::MapConfig::default(),
    )
    .map_err(|e| CliError::new(format!("cannot load the map `{}`", args.scene), e))?;
    let mut scene = map.scene;
    scene.spawn = Some(SpawnDesc {
        count: MAP_BALLS,
        radius: 3.0,
        speed: 0.0,
        density: 1.0,
        seed: 1,
        region: None,
        surface: Surface::DEFAULT,
    });
    Ok(scene)
}

/// Loads the scene argument and applies the overrides.
fn load_scene(args: &SceneArgs) -> Result<Scene> {
    let mut scene = if collide_maps::is_map_path(std::path::Path::new(&args.scene)) {
        load_map(args)?
    } else {
        if args.level.is_some() {
            return Err(CliError {
                msg: format!(
                    "--level is for map files (.tmx, .tmj, .ldtk), not `{}`",
                    args.scene
                ),
                source: None,
            });
        }
        let scene = collide_scenes::resolve(&args.scene)
            .map_err(|e| CliError::new(format!("cannot load the scene `{}`", args.scene), e))?;
        scene
    };
    if let Some(dt) = args.dt {
        // The scene format's bound, checked here to name the flag (the world checks it too).
        scene.step.dt = Bound::Positive
            .check(dt)
            .map_err(|e| CliError::new("invalid value for --dt", e))?;
    }
    if let Some(w) = args.walls {
        scene.walls = w;
    }
    if args.indestructible {
        scene.step.destructible_bricks = false;
    }
    if let Some(bb) = args.ball_ball {
        scene.step.ball_ball = bb;
    }
    if let Some(g) = args.gravity {
        scene.step.gravity = g;
    }
    if let Some(s) = args.sleep {
        scene.step.sleep = s;
    }
    match (&mut scene.spawn, args.balls) {
        (Some(sp), Some(n)) => sp.count = n,
        (None, Some(n)) => {
            scene.spawn = Some(SpawnDesc {
                count: n,
                radius: 3.0,
                speed: 144.0,
                density: 1.0,
                seed: args.seed.unwrap_or(1),
                region: None,
                surface: Surface::DEFAULT,
            });
        }
        _ => {}
    }
    if let (Some(sp), Some(seed)) = (&mut scene.spawn, args.seed) {
        sp.seed = seed;
    }
    Ok(scene)
}

/// The world a command steps.
struct Stepper {
    world: World,
}

impl Stepper {
    /// One step.
    fn step(&mut self) -> Result<&[Event]> {
        Ok(self.world.step())
    }
}

fn build_world(args: &SceneArgs) -> Result<(Scene, Stepper)> {
    let scene = load_scene(args)?;
    let mut world = World::from_scene(&scene).map_err(|e| {
        CliError::new(
            format!("cannot build a world from the scene `{}`", args.scene),
            e,
        )
    })?;
    world.set_threads(args.threads as usize);
    Ok((scene, Stepper { world }))
}

fn stdout_error(e: io::Error) -> CliError {
    CliError::new("cannot write to standard output", e)
}

fn json_error(e: serde_json::Error) -> CliError {
    if let Some(kind) = e.io_error_kind() {
        return stdout_error(io::Error::new(kind, e));
    }
    CliError::new("cannot write JSON", e)
}

fn cmd_run(args: &SceneArgs, steps: u64, dump: bool) -> Result<()> {
    let (scene, mut stepper) = build_world(args)?;
    let balls_start = stepper.world.balls().len();
    let energy_start = stepper.world.energy();
    let mut counts = EventCounts::default();
    let mut max_dev: f64 = 0.0;
    // Constant memory whatever the number of steps (the median within 0.1 %).
    let mut times = stats::StepTimes::default();
    for _ in 0..steps {
        let t0 = Instant::now();
        let events = stepper.step()?;
        let elapsed = t0.elapsed();
        counts.add(events);
        times.record(elapsed);
        let world = &stepper.world;
        if energy_start != 0.0 {
            let dev = ((world.energy() - energy_start) / energy_start).abs();
            // NaN never compares greater: keep it visible instead.
            if dev > max_dev || dev.is_nan() {
                max_dev = dev;
            }
        }
    }
    let world = &stepper.world;
    let report = RunReport {
        scene: scene.name.clone(),
        steps,
        dt: world.config().dt,
        ball_ball: world.config().ball_ball,
        balls_start,
        balls_alive: world.balls().len(),
        balls_asleep: world.sleeping_balls(),
        rects_asleep: world.sleeping_rects(),
        balls_lost: counts.get("ball_lost"),
        embedded: stats::embedded(world),
        overlapping_pairs: stats::overlapping_pairs(&world.balls().collect::<Vec<_>>()),
        overlapping_pairs_note: (!world.config().ball_ball).then_some(report::BALLS_PASS_THROUGH),
        energy_start,
        energy_end: world.energy(),
        energy_max_rel_dev: max_dev,
        bricks_destroyed: counts.get("brick_destroyed"),
        bricks_left: world.grid().map_or(0, |g| g.bricks_left()),
        iteration_limits: counts.get("iteration_limit"),
        unembedded: counts.get("unembedded"),
        collisions: counts,
        state_hash: format!("{:016x}", world.state_hash()),
        ms_per_step: times.median_ms(),
        balls: dump.then(|| world.balls().iter().map(BallOut::from).collect()),
        rects: dump.then(|| world.rects().iter().map(RectOut::from).collect()),
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    if dump {
        serde_json::to_writer(&mut out, &report).map_err(json_error)?;
    } else {
        serde_json::to_writer_pretty(&mut out, &report).map_err(json_error)?;
    }
    writeln!(out).map_err(stdout_error)?;
    out.flush().map_err(stdout_error)
}

fn cmd_trace(args: &SceneArgs, steps: u64) -> Result<()> {
    let (_, mut stepper) = build_world(args)?;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    for k in 0..steps {
        let events = stepper.step()?;
        let line = StepTrace {
            step: k,
            events: events.iter().map(EventOut).collect(),
        };
        serde_json::to_writer(&mut out, &line).map_err(json_error)?;
        writeln!(out).map_err(stdout_error)?;
    }
    out.flush().map_err(stdout_error)
}

fn cmd_render(
    args: &SceneArgs,
    steps: u64,
    out: &std::path::Path,
    width: u32,
    height: Option<u32>,
) -> Result<()> {
    let (_, mut stepper) = build_world(args)?;
    for _ in 0..steps {
        stepper.step()?;
    }
    let world = stepper.world;
    let height = height.unwrap_or_else(|| {
        let size = world.size();
        let h = (f64::from(width) * size.y / size.x).round();
        // The world size is finite and positive, so h is a number; clamp it into range.
        h.clamp(1.0, MAX_IMAGE_SIDE as f64) as u32
    });
    let (w, h) = (width as usize, height as usize);
    let mut canvas =
        Canvas::new(w, h).map_err(|e| CliError::new("cannot allocate the image", e))?;
    let camera = Camera::fit_world(&world, w, h);
    render(&world, &camera, &Style::default(), &mut canvas);
    write_png(out, width, height, canvas.data())
        .map_err(|e| CliError::new(format!("cannot write the PNG file {}", out.display()), e))?;
    let report = RenderReport {
        out: out.display().to_string(),
        width,
        height,
        steps,
        state_hash: format!("{:016x}", world.state_hash()),
    };
    let stdout = io::stdout();
    let mut o = stdout.lock();
    serde_json::to_writer(&mut o, &report).map_err(json_error)?;
    writeln!(o).map_err(stdout_error)
}

fn write_png(
    path: &std::path::Path,
    width: u32,
    height: u32,
    rgba: &[u8],
) -> Result<(), Box<dyn Error + Send + Sync>> {
    let file = std::fs::File::create(path)?;
    let mut enc = png::Encoder::new(BufWriter::new(file), width, height);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc.write_header()?;
    writer.write_image_data(rgba)?;
    writer.finish()?;
    Ok(())
}

fn cmd_scenes() -> Result<()> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let names = collide_scenes::names();
    let width = names.iter().map(|n| n.len()).max().unwrap_or(0);
    for name in names {
        let desc = collide_scenes::source(name)
            .map(describe)
            .unwrap_or_default();
        let line = if desc.is_empty() {
            (*name).to_owned()
        } else {
            format!("{name:<width$}  {desc}")
        };
        writeln!(out, "{line}").map_err(stdout_error)?;
    }
    Ok(())
}

/// A one-line description of a scene file: the first sentence of its leading comment,
/// shortened to about 90 characters.
fn describe(toml: &str) -> String {
    let mut text = String::new();
    for line in toml.lines() {
        let Some(c) = line.trim_start().strip_prefix('#') else {
            break;
        };
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(c.trim());
    }
    let sentence = match text.find(". ") {
        Some(i) => &text[..=i],
        None => text.as_str(),
    };
    // Cut the part in parentheses (sources, licences) and long tails.
    let sentence = match sentence.find(" (") {
        Some(i) => &sentence[..i],
        None => sentence,
    };
    const MAX: usize = 90;
    if sentence.chars().count() <= MAX {
        return sentence.trim_end_matches('.').to_owned();
    }
    let cut: String = sentence.chars().take(MAX).collect();
    let cut = cut.rfind(' ').map_or(cut.as_str(), |i| &cut[..i]);
    format!("{}...", cut.trim_end_matches([',', ';', ':']))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walls_parse() {
        assert_eq!(parse_walls("left,top,right,bottom"), Ok(Walls::ALL));
        assert_eq!(parse_walls("none"), Ok(Walls::NONE));
        assert_eq!(parse_walls("all"), Ok(Walls::ALL));
        assert_eq!(
            parse_walls("left, right"),
            Ok(Walls {
                left: true,
                top: false,
                right: true,
                bottom: false
            })
        );
        assert!(parse_walls("lft").is_err());
        assert!(parse_walls("").is_err());
    }

    #[test]
    fn on_off_parse() {
        assert_eq!(parse_on_off("on"), Ok(true));
        assert_eq!(parse_on_off("off"), Ok(false));
        assert!(parse_on_off("maybe").is_err());
    }

    #[test]
    fn descriptions() {
        assert_eq!(describe("# A room. With boxes.\n\n[world]\n"), "A room");
        assert_eq!(describe("[world]\n"), "");
        let long = format!("# {}\n", "word ".repeat(40));
        assert!(describe(&long).len() <= 93);
    }

    #[test]
    fn clap_definition_is_valid() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
