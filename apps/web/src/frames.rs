//! Fixed runs, the page's test modes: `?frames=N` plays N frames of exactly 1/60 s at once
//! ([`run_frames`], the frontends' `--frames`), `?world=SCENE&steps=N` steps a world alone
//! ([`run_world`], what `collide run` does). Their reports are what the page writes as JSON
//! for a headless browser to read back and compare with the native CLI.

use collide_frontend::Key;
use collide_world::World;
use serde::Serialize;

use crate::keys::key_of_code;
use crate::session::{Session, SessionOptions, State, WebError};

/// Most frames or steps one fixed run may ask for (a page must answer in seconds).
pub const MAX_RUN: u64 = 100_000;

/// Why a fixed run could not be done.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RunError {
    /// The session could not start or be recorded.
    #[error(transparent)]
    Web(#[from] WebError),
    /// A world scene could not be loaded or built.
    #[error("scene `{name}`: {message}")]
    Scene {
        /// The scene asked for.
        name: String,
        /// Why.
        message: String,
    },
    /// `hold` named a DOM key code the game does not use.
    #[error("hold: `{0}` is not a key the game uses (DOM KeyboardEvent.code, e.g. ShiftLeft)")]
    Key(String),
    /// Zero, or more than [`MAX_RUN`], frames or steps.
    #[error("{what} = {value}: must be within 1..={MAX_RUN}")]
    Count {
        /// `frames` or `steps`.
        what: &'static str,
        /// The number asked for.
        value: u64,
    },
}

/// The report of [`run_frames`]: the state after the last frame and the session's replay.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FramesReport {
    /// Always `"frames"`.
    pub run: &'static str,
    /// The state after the last frame (`game_hash` is the replay's final hash).
    #[serde(flatten)]
    pub state: State,
    /// The replay (docs/replay-format.md): `collide replay FILE` re-simulates it natively and
    /// checks every hash it recorded.
    pub replay: String,
}

/// The report of [`run_world`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WorldReport {
    /// Always `"world"`.
    pub run: &'static str,
    /// The built-in scene.
    pub scene: String,
    /// Steps run.
    pub steps: u64,
    /// Balls at the end.
    pub balls: usize,
    /// Threads the world stepped on: [`World::threads`] after `World::set_threads(threads)`
    /// (always 1 on wasm32).
    pub threads: usize,
    /// `World::state_hash`, 16 hex digits, as `collide run SCENE --steps N` prints it.
    pub state_hash: String,
}

/// Plays `frames` fixed frames of `options` (its `fixed_frames` is set here), with the keys of
/// `hold` (DOM codes, comma-separated, e.g. `ShiftLeft,ShiftRight` for both flippers) held
/// from the first frame on. Returns the session (to draw the last frame) and its report.
///
/// # Errors
/// [`RunError::Count`] for 0 or more than [`MAX_RUN`] frames, [`RunError::Key`] for a key
/// the game does not use, [`RunError::Web`] if the session cannot start.
pub fn run_frames(
    options: &SessionOptions,
    frames: u64,
    hold: &str,
) -> Result<(Session, FramesReport), RunError> {
    check_count("frames", frames)?;
    let keys = held_keys(hold)?;
    let options = SessionOptions {
        fixed_frames: true,
        ..options.clone()
    };
    let mut session = Session::new(&options)?;
    for k in keys {
        session.hold(k);
    }
    for _ in 0..frames {
        session.frame(collide_frontend::FIXED_FRAME_DT);
    }
    let replay = session.take_replay()?;
    let report = FramesReport {
        run: "frames",
        state: session.state(),
        replay,
    };
    Ok((session, report))
}

/// Steps the built-in scene `scene` alone (no rules, no input) `steps` times, as
/// `collide run SCENE --steps N` does, after `World::set_threads(threads)` (the results do not
/// depend on it; on wasm32 it is taken as 1).
///
/// # Errors
/// [`RunError::Count`] for 0 or more than [`MAX_RUN`] steps; [`RunError::Scene`] for a name
/// that is not built in or a world that cannot be built.
pub fn run_world(scene: &str, steps: u64, threads: usize) -> Result<WorldReport, RunError> {
    check_count("steps", steps)?;
    let scene_err = |message: String| RunError::Scene {
        name: scene.to_owned(),
        message,
    };
    let desc = collide_scenes::load(scene)
        .ok_or_else(|| scene_err("not a built-in scene".to_owned()))?
        .map_err(|e| scene_err(e.to_string()))?;
    let mut world = World::from_scene(&desc).map_err(|e| scene_err(e.to_string()))?;
    world.set_threads(threads);
    for _ in 0..steps {
        world.step();
    }
    Ok(WorldReport {
        run: "world",
        scene: scene.to_owned(),
        steps,
        balls: world.balls().len(),
        threads: world.threads(),
        state_hash: format!("{:016x}", world.state_hash()),
    })
}

fn check_count(what: &'static str, value: u64) -> Result<(), RunError> {
    if (1..=MAX_RUN).contains(&value) {
        Ok(())
    } else {
        Err(RunError::Count { what, value })
    }
}

/// The keys of a `hold` list: DOM codes separated by commas (empty: none).
fn held_keys(hold: &str) -> Result<Vec<Key>, RunError> {
    hold.split(',')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(|c| key_of_code(c).ok_or_else(|| RunError::Key(c.to_owned())))
        .collect()
}

/// The report of [`run_platformer_script`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScriptReport {
    /// Always `"platformer_script"`.
    pub run: &'static str,
    /// Steps played (the script's).
    pub steps: u64,
    /// The level reached, 0-based (3: the last of the sample's four).
    pub level: usize,
    /// The game's phase at the end (`victory` when the run won).
    pub phase: &'static str,
    /// The score.
    pub score: u64,
    /// `Game::state_hash`, 16 hex digits.
    pub game_hash: String,
    /// `World::state_hash`, 16 hex digits.
    pub world_hash: String,
}

/// Plays the platformer's scripted run (`collide_game::platformer::sample_script`) on the LDtk
/// sample's embedded levels, step by step with no frame loop: the browser build and a native
/// run of it must end in the same state (`?platformer_script=1`, `.ci/web.sh`).
///
/// # Errors
/// [`RunError::Scene`] if the embedded levels do not read back or the game cannot start.
pub fn run_platformer_script() -> Result<ScriptReport, RunError> {
    use collide_game::{Game, Options, Source};
    let scene_err = |message: String| RunError::Scene {
        name: crate::maps::PLATFORMER.to_owned(),
        message,
    };
    let levels = crate::maps::platformer_levels().map_err(|e| scene_err(e.to_string()))?;
    let mut game = Game::new(Source::Platformer { levels, balls: 0 }, Options::default())
        .map_err(|e| scene_err(e.to_string()))?;
    let mut steps = 0;
    for (n, input) in collide_game::platformer::sample_script() {
        for _ in 0..n {
            game.step(&input);
            steps += 1;
        }
    }
    let p = game
        .platformer()
        .ok_or_else(|| scene_err("not a platformer".to_owned()))?;
    Ok(ScriptReport {
        run: "platformer_script",
        steps,
        level: p.level(),
        phase: crate::session::phase_name(p.phase()),
        score: p.score(),
        game_hash: format!("{:016x}", game.state_hash()),
        world_hash: format!("{:016x}", game.world().state_hash()),
    })
}
