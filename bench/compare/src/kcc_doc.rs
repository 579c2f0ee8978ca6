//! `collide-compare characters`: collide's character and rapier2d's
//! `KinematicCharacterController` on the seam run and the ramp (`kcc.rs`), the console table
//! and the `collide-compare-characters` section of `docs/performance.md`.

use std::error::Error;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::kcc::{self, CollideMover, CollideSlideMover, Mover, Probe, SceneId, Walk};
use crate::{doc, repin, reproduce_command, PINNED_ENV};

/// The section of the Markdown file this command writes.
pub const SECTION: &str = "collide-compare-characters";

/// Arguments of `collide-compare characters`.
#[derive(Args, Debug)]
pub struct CharArgs {
    /// Speeds of the seam run, units/s, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "10,100,1000,10000")]
    speeds: Vec<f64>,
    /// Write the results into this Markdown file's `collide-compare-characters` section
    /// (feature `rapier`).
    #[arg(long, value_name = "FILE.md")]
    write: Option<PathBuf>,
    /// Re-run this command pinned to this CPU with `taskset -c CPU` (when taskset exists).
    #[arg(long, value_name = "CPU")]
    pin: Option<u32>,
    /// A sentence added to the Markdown section (e.g. what else ran on the machine).
    #[arg(long)]
    note: Option<String>,
}

/// One engine's walk on one scene at one speed.
struct Line {
    scene: SceneId,
    speed: f64,
    engine: String,
    walk: Walk,
}

/// An engine's character and how the table names it.
type Named = (String, Box<dyn Mover>);

/// The engines run on `scene`: collide and, with the `rapier` feature, rapier2d on each
/// ground a user would build.
fn movers(scene: SceneId) -> Result<Vec<Named>, String> {
    let mut out: Vec<Named> = Vec::new();
    out.push((
        "collide (World::step)".to_owned(),
        Box::new(CollideMover::new(scene)?),
    ));
    out.push((
        "collide (move_and_slide)".to_owned(),
        Box::new(CollideSlideMover::new(scene)?),
    ));
    #[cfg(feature = "rapier")]
    {
        use crate::kcc_rapier::{Ground, RapierMover};
        let grounds = match scene {
            SceneId::Seam => [Ground::Tiles, Ground::Voxels],
            SceneId::Ramp => [Ground::Tiles, Ground::Polyline],
        };
        for g in grounds {
            out.push((
                format!("rapier2d ({})", g.label()),
                Box::new(RapierMover::new(scene, g)?),
            ));
        }
    }
    Ok(out)
}

fn print_line(l: &Line) {
    let w = &l.walk;
    println!(
        "{:<5} {:>6} {:<33} {:>6} {:>6} {:>6} {:>6} {:>9.3e} {:>8.4} {:>9.3e} {:>9.3e} {:>5} {:>5} {:>9.5}",
        match l.scene {
            SceneId::Seam => "seam",
            SceneId::Ramp => "ramp",
        },
        l.speed,
        l.engine,
        w.frames,
        w.snags,
        w.slowed,
        w.bumps,
        w.max_dy,
        w.progress,
        w.gap_mean,
        w.gap_max,
        w.not_grounded,
        w.inside,
        w.ms
    );
}

/// Runs the comparison.
///
/// # Errors
/// A scene that cannot be built, `--write` without the rapier side, or the file's error.
pub fn cmd_characters(args: &CharArgs) -> Result<ExitCode, Box<dyn Error>> {
    if let Some(cpu) = args.pin {
        if let Some(code) = repin(cpu) {
            return Ok(code);
        }
    }
    if args.write.is_some() && !cfg!(feature = "rapier") {
        return Err("--write needs the rapier side: build with `--features rapier`".into());
    }
    if let Some(bad) = args.speeds.iter().find(|s| !(s.is_finite() && **s > 0.0)) {
        return Err(format!("--speeds: {bad} is not a positive speed").into());
    }
    let machine = doc::Machine::probe();
    if !cfg!(feature = "rapier") {
        println!("rapier side NOT BUILT (enable `--features rapier`): collide only");
    }
    println!(
        "scene speed  engine                           frames  snags slowed  bumps   max|dy| progress  gap mean   gap max  !grd  in  ms/move"
    );
    let mut lines = Vec::new();
    let runs = args
        .speeds
        .iter()
        .map(|&s| (SceneId::Seam, s))
        .chain(std::iter::once((SceneId::Ramp, kcc::RAMP_SPEED)));
    for (scene, speed) in runs {
        let probe = Probe::new(scene)?;
        for (engine, mut m) in movers(scene)? {
            let walk = kcc::walk(m.as_mut(), &probe, speed, scene.frames(speed));
            let l = Line {
                scene,
                speed,
                engine,
                walk,
            };
            print_line(&l);
            lines.push(l);
        }
    }
    if let Some(path) = &args.write {
        let body = markdown(args, &lines, &machine, &doc::load_average());
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => doc::SKELETON.to_owned(),
            Err(e) => return Err(format!("{}: {e}", path.display()).into()),
        };
        std::fs::write(path, doc::splice(&text, SECTION, &body))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        println!("wrote section `{SECTION}` of {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

fn sci(x: f64) -> String {
    if x == 0.0 {
        "0".to_owned()
    } else if x.is_infinite() {
        "∞".to_owned()
    } else {
        format!("{x:.2e}")
    }
}

/// Milliseconds as microseconds.
fn us(x: f64) -> String {
    format!("{:.2}", x * 1e3)
}

fn header(args: &CharArgs, m: &doc::Machine, load_end: &str) -> String {
    let mut s = String::new();
    let rapier = doc::locked_version("rapier2d-f64").unwrap_or_else(|| "0.36".into());
    let _ = writeln!(
        s,
        "## Characters: collide and rapier2d's KinematicCharacterController\n"
    );
    let _ = writeln!(
        s,
        "Measured by `collide-compare characters` ({}), collide at commit {} (source \
         fingerprint `{}`), rapier2d-f64 {rapier}, {}. Machine: {} (`lscpu` model name), \
         `nproc --all` = {}, `nproc` in the run = {}; load average (1, 5, 15 min) {} at the \
         start and {load_end} at the end (the machine is shared: single timings can be off by \
         tens of per cent).{}\n",
        m.rustc,
        m.commit,
        m.source,
        match std::env::var(PINNED_ENV) {
            Ok(cpu) => format!("both engines pinned to CPU {cpu} with `taskset`"),
            Err(_) => "not pinned".to_owned(),
        },
        m.cpu,
        m.nproc_all,
        m.nproc,
        m.load_start,
        args.note
            .as_ref()
            .map_or(String::new(), |n| format!(" {n}")),
    );
    let _ = writeln!(
        s,
        "Command (from the workspace root):\n\n```sh\n{}\n```\n",
        reproduce_command()
    );
    s
}

fn markdown(args: &CharArgs, lines: &[Line], m: &doc::Machine, load_end: &str) -> String {
    let mut s = header(args, m, load_end);
    let _ = writeln!(
        s,
        "Seam run: {} flush {}-unit tiles, a 12 × 20 box walking right.\n",
        kcc::SEAM_TILES,
        kcc::CELL
    );
    let _ = writeln!(
        s,
        "| speed (units/s) | engine | frames | snagged frames | of which slowed | frames moved vertically more than {} | max vertical displacement of a frame | distance / desired | hover mean | hover max | frames not grounded | frames inside the floor | µs per move (median) |",
        kcc::BUMP
    );
    let _ = writeln!(s, "|{}", "---|".repeat(13));
    for l in lines.iter().filter(|l| l.scene == SceneId::Seam) {
        let w = &l.walk;
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {:.4} | {} | {} | {} | {} | {} |",
            l.speed,
            l.engine,
            w.frames,
            w.snags,
            w.slowed,
            w.bumps,
            sci(w.max_dy),
            w.progress,
            sci(w.gap_mean),
            sci(w.gap_max),
            w.not_grounded,
            w.inside,
            us(w.ms)
        );
    }
    let _ = writeln!(
        s,
        "\nRamp: flat floor, a 45° ramp up 5 tiles, a 10-tile plateau, a 45° ramp down 5 \
         tiles, flat floor (16-unit tiles), walked at {} units/s.\n",
        kcc::RAMP_SPEED
    );
    let _ = writeln!(
        s,
        "| engine | frames | gap to the ground, mean | gap to the ground, max | frames not grounded | frames inside the ground | horizontal distance / desired | µs per move (median) |"
    );
    let _ = writeln!(s, "|{}", "---|".repeat(8));
    for l in lines.iter().filter(|l| l.scene == SceneId::Ramp) {
        let w = &l.walk;
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {:.4} | {} |",
            l.engine,
            w.frames,
            sci(w.gap_mean),
            sci(w.gap_max),
            w.not_grounded,
            w.inside,
            w.progress,
            us(w.ms)
        );
    }
    let _ = writeln!(s);
    s.push_str(&in_this_run(lines));
    s.push_str(&how_to_read());
    s
}

/// One line per scene and speed: each engine's figures that matter there, from the tables.
fn in_this_run(lines: &[Line]) -> String {
    let mut s = String::from("In this run:\n\n");
    let mut i = 0;
    while i < lines.len() {
        let j = lines[i..]
            .iter()
            .position(|l| l.scene != lines[i].scene || l.speed != lines[i].speed)
            .map_or(lines.len(), |k| i + k);
        let group = &lines[i..j];
        let list = |f: &dyn Fn(&Walk) -> String| {
            group
                .iter()
                .map(|l| format!("{} {}", l.engine, f(&l.walk)))
                .collect::<Vec<_>>()
                .join("; ")
        };
        let line = match group[0].scene {
            SceneId::Seam => format!(
                "Seam run at {} units/s.\n  - Snagged frames: {}.\n  - Hover at most: {}.\n  \
                 - µs per move: {}.",
                group[0].speed,
                list(&|w| format!("{} of {}", w.snags, w.frames)),
                list(&|w| sci(w.gap_max)),
                list(&|w| us(w.ms)),
            ),
            SceneId::Ramp => format!(
                "Ramp at {} units/s.\n  - Gap to the ground at most: {}.\n  - Frames not \
                 grounded: {}.\n  - µs per move: {}.",
                group[0].speed,
                list(&|w| sci(w.gap_max)),
                list(&|w| w.not_grounded.to_string()),
                list(&|w| us(w.ms)),
            ),
        };
        let _ = writeln!(s, "- {line}");
        i = j;
    }
    let _ = writeln!(s);
    s
}

fn how_to_read() -> String {
    #[cfg(feature = "rapier")]
    let rapier = format!(
        "rapier2d: the level is a `PhysicsWorld` of fixed colliders only, built as a rapier \
         user builds a tile map: one cuboid collider per square tile and one triangle \
         collider per slope tile (\"one collider per tile\", where snagging on seams comes \
         from), or one `Voxels` shape of the square tiles, or one polyline along the ground's \
         outline. The character is a 12 × 20 `Cuboid` moved by \
         `KinematicCharacterController::move_shape` against `PhysicsWorld::query_pipeline()`, \
         its pose advanced by the returned translation (both timed: the time per move). Slope \
         tiles are triangles wound counter-clockwise (positive signed area), as parry \
         expects: wound the other way, rapier's character stops at the foot of the ramp. \
         Controller: rapier's defaults (offset `Relative(0.01)` = {} units for this box, \
         slide on, autostep off) with `up = (0, -1)`, `max_slope_climb_angle` and \
         `min_slope_slide_angle` {}°, `snap_to_ground` `Absolute({})`. The game's vertical \
         velocity is 0 while `move_shape` reports the character grounded and gains g·dt per \
         frame otherwise; each frame asks for `(v·dt, v_y·dt + ½·g·dt²)`.",
        crate::kcc_rapier::offset(),
        kcc::MAX_SLOPE_DEG,
        kcc::SNAP
    );
    #[cfg(not(feature = "rapier"))]
    let rapier = String::new();
    format!(
        "How to read it:\n\n\
         - Both scenes: y down, dt = 1/60 s, gravity (0, {g}) units/s², 1 unit = 1 world unit \
         in both engines, `f64` in both. Each engine first stands still for {settle} frames, \
         then walks for the frames that cross the level (the median time per move is over \
         those). \"Distance / desired\": the horizontal distance walked over `v·dt` times the \
         frames.\n\
         - collide: a `World` holding the level (grid cells; slope cells `3` and `1` on the \
         ramp) and one character (`CharacterDesc`: half extents 6 × 10, `max_slope` {slope}°, \
         `snap_distance` {snap}, no step-up); each frame sets the character's velocity to \
         `(v, v_y)` (`v_y` as the last step left it while in the air, 0 on the ground) and \
         runs `World::step` (timed: the time per move; a whole step of a world whose only \
         body is the character, with the step's fixed costs, where rapier's time is \
         `move_shape` alone). \"collide (move_and_slide)\": the same character moved the way \
         rapier's is below, by `World::move_and_slide` of `(v·dt, v_y·dt + ½·g·dt²)` each \
         frame and no step (timed: the call).\n\
         - {rapier}\n\
         - Every engine's character is measured against the same exact geometry (collide's \
         world of the level): the hover or gap is how far its box moves straight down before \
         it touches the ground (`World::cast_box`, 0 when touching); \"inside\" counts frames \
         whose box shrunk by {tol:e} overlaps a tile. A frame snags when its vertical \
         displacement exceeds {tol:e} or its horizontal progress is below {pmin} % of `v·dt` \
         (slowed); the next column counts the frames that moved vertically by more than \
         {bump} units. \
         Not grounded: the engine's own flag (`Character::on_ground`, rapier's \
         `EffectiveCharacterMovement::grounded`).\n",
        g = kcc::GRAVITY,
        settle = kcc::SETTLE_FRAMES,
        slope = kcc::MAX_SLOPE_DEG,
        snap = kcc::SNAP,
        tol = kcc::INSIDE_TOL,
        pmin = kcc::PROGRESS_MIN * 100.0,
        bump = kcc::BUMP,
    )
}
