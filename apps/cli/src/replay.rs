//! `collide record` and `collide replay`: a game session as a replay file, its check, and the
//! conversion of older files (format: `docs/replay-format.md`; the code lives in
//! `collide_game::replay`).

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, Subcommand};
use collide_game::replay::{Play, DEFAULT_HASH_EVERY, MAX_STEPS, VERSION};
use collide_game::{Game, Options, Replay, SceneText, Source, StepInput};
use serde::Serialize;

use crate::{json_error, stdout_error, CliError, Result};

/// The flags of `collide record`.
#[derive(Args, Debug)]
pub struct RecordArgs {
    /// A built-in scene name, a scene file (.toml) or a BricksBeater level (.dat). Built-in
    /// levels (`level_1` .. `level_7`) are played by the rules as that level; other scenes by
    /// the rules when they have a paddle, else as a sandbox. No overrides: the replay embeds
    /// the scene's text as it is.
    #[arg(value_name = "SCENE")]
    pub scene: String,
    /// Steps to record.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=MAX_STEPS))]
    pub steps: u64,
    /// The replay file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Record the state hash every K steps (and after the last one).
    #[arg(long, value_name = "K", default_value_t = DEFAULT_HASH_EVERY,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub hash_every: u32,
    /// Let the game's autopilot play (the paddle chases the balls, launches by itself);
    /// without it every step has no input (a level waits for its launch).
    #[arg(long)]
    pub autoplay: bool,
    /// Run the scene as a sandbox (physics only, no rules), even a level.
    #[arg(long)]
    pub sandbox: bool,
}

/// The arguments of `collide replay`: a file to check, or a subcommand.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct ReplayArgs {
    /// The replay file to re-simulate and check (format 2, or format 1 written by older
    /// builds).
    #[arg(value_name = "FILE", required = true)]
    pub file: Option<PathBuf>,
    /// What else to do with a replay.
    #[command(subcommand)]
    pub action: Option<ReplayAction>,
}

/// The subcommands of `collide replay`.
#[derive(Subcommand, Debug)]
pub enum ReplayAction {
    /// Reads a replay (format 1 or 2) and writes it in the current format (JSON lines),
    /// unchanged otherwise: same scene, options, calls and hashes; prints one JSON line.
    /// `collide replay NEW` then checks it.
    ///
    /// Keys: from, to, version, steps, hashes, bytes.
    Convert {
        /// The replay to read.
        #[arg(value_name = "OLD")]
        from: PathBuf,
        /// The file to write (it may be OLD itself).
        #[arg(value_name = "NEW")]
        to: PathBuf,
    },
}

/// The object printed by `collide replay convert`.
#[derive(Serialize, Debug)]
struct ConvertReport {
    /// The replay read.
    from: String,
    /// The replay written.
    to: String,
    /// The format version written.
    version: u32,
    /// Steps the replay holds.
    steps: u64,
    /// Hashes it records.
    hashes: usize,
    /// Size of the file written, bytes.
    bytes: usize,
}

/// The object printed by `collide record`.
#[derive(Serialize, Debug)]
struct RecordReport {
    /// The replay file written.
    out: String,
    /// How the scene is played: `level N`, `scene` or `sandbox`.
    play: String,
    /// The name of the scene played first (`level 1`, a scene's name).
    scene: String,
    /// Steps recorded.
    steps: u64,
    /// Hashes recorded.
    hashes: usize,
    /// Size of the file, bytes.
    bytes: usize,
    /// `Game::state_hash` after the last step, 16 hex digits.
    final_hash: String,
}

/// The object printed by `collide replay`.
#[derive(Serialize, Debug)]
struct ReplayReport {
    /// The replay file checked.
    replay: String,
    /// How the scene is played: `level N`, `scene` or `sandbox`.
    play: String,
    /// The scene's file label in the replay.
    scene: String,
    /// Steps re-simulated.
    steps: u64,
    /// Commands applied.
    commands: u64,
    /// Recorded hashes compared, all equal.
    hashes_checked: u64,
    /// `Game::state_hash` after the last step, 16 hex digits.
    final_hash: String,
    /// Always true: printed only when every recorded hash matched and the final state's hash
    /// is recorded (the last entry) and matched; a mismatch or a replay without a final hash
    /// is an error naming the file, exit code 1 (`ReplayError::NoFinalHash`).
    verified: bool,
    /// Wall time of the re-simulation, seconds.
    seconds: f64,
}

fn play_name(p: Play) -> String {
    match p {
        Play::Level(n) => format!("level {n}"),
        Play::Scene => "scene".to_owned(),
        Play::Sandbox => "sandbox".to_owned(),
        Play::Platformer { balls: 0 } => "platformer".to_owned(),
        Play::Platformer { balls } => format!("platformer sandbox, {balls} balls"),
    }
}

/// `collide record`: plays SCENE for `--steps` steps (the autopilot's input, or none) and
/// writes the replay.
pub fn cmd_record(args: &RecordArgs) -> Result<()> {
    let msg = || format!("cannot open the scene `{}`", args.scene);
    let source =
        Source::from_arg(&args.scene, args.sandbox).map_err(|e| CliError::new(msg(), e))?;
    let mut game = Game::new(source, Options::default()).map_err(|e| CliError::new(msg(), e))?;
    let text = SceneText::from_arg(&args.scene).map_err(|e| CliError::new(msg(), e))?;
    let scene = game.source().name();
    game.start_recording(text, args.hash_every)
        .map_err(|e| CliError::new(format!("cannot record `{}`", args.scene), e))?;
    for _ in 0..args.steps {
        let input = if args.autoplay {
            let i = game.autopilot();
            StepInput::from(&i)
        } else {
            StepInput::default()
        };
        game.step(&input);
    }
    let final_hash = game.state_hash();
    let replay = game
        .take_replay()
        .map_err(|e| CliError::new("cannot finish the recording", e))?;
    let text = replay.to_text();
    replay
        .write(&args.out)
        .map_err(|e| CliError::new("cannot write the replay", e))?;
    let report = RecordReport {
        out: args.out.display().to_string(),
        play: play_name(replay.play),
        scene,
        steps: replay.steps(),
        hashes: replay.hashes(),
        bytes: text.len(),
        final_hash: format!("{final_hash:016x}"),
    };
    print_json(&report)
}

/// `collide replay FILE` (see [`check_replay`]) or `collide replay convert OLD NEW`.
pub fn cmd_replay(args: &ReplayArgs) -> Result<()> {
    match (&args.action, &args.file) {
        (Some(ReplayAction::Convert { from, to }), _) => convert(from, to),
        (None, Some(file)) => check_replay(file),
        // clap requires FILE when no subcommand is given.
        (None, None) => Err(CliError::new(
            "collide replay needs a FILE",
            io::Error::new(io::ErrorKind::InvalidInput, "no replay file given"),
        )),
    }
}

/// `collide replay FILE`: re-simulates the replay and checks every recorded hash; verified only
/// when the final state's hash is recorded and matches.
fn check_replay(file: &Path) -> Result<()> {
    let shown = file.display();
    let replay = Replay::read(file)
        .map_err(|e| CliError::new(format!("cannot read the replay {shown}"), e))?;
    let t0 = Instant::now();
    let report = replay
        .verify()
        .map_err(|e| CliError::new(format!("the replay {shown} does not verify"), e))?;
    let seconds = t0.elapsed().as_secs_f64();
    print_json(&ReplayReport {
        replay: shown.to_string(),
        play: play_name(replay.play),
        scene: replay.scene.file.clone(),
        steps: report.steps,
        commands: report.commands,
        hashes_checked: report.hashes_checked,
        final_hash: format!("{:016x}", report.final_hash),
        verified: true,
        seconds,
    })
}

/// `collide replay convert OLD NEW`: the replay read from OLD, written to NEW in the current
/// format.
fn convert(from: &Path, to: &Path) -> Result<()> {
    let replay = Replay::read(from)
        .map_err(|e| CliError::new(format!("cannot read the replay {}", from.display()), e))?;
    replay
        .write(to)
        .map_err(|e| CliError::new("cannot write the replay", e))?;
    print_json(&ConvertReport {
        from: from.display().to_string(),
        to: to.display().to_string(),
        version: VERSION,
        steps: replay.steps(),
        hashes: replay.hashes(),
        bytes: replay.to_text().len(),
    })
}

fn print_json<T: Serialize>(value: &T) -> Result<()> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    serde_json::to_writer(&mut out, value).map_err(json_error)?;
    writeln!(out).map_err(stdout_error)
}
