//! `collide hashes`: the golden-hash table, the state hash and an events digest of every
//! built-in scene and of test scenes covering every feature of the step, after a fixed number
//! of steps (docs/rollback.md, "The same bits on every platform").
//!
//! The table is checked in as `tests/golden/hashes.tsv`. The native test
//! (`apps/cli/tests/golden.rs`) compares this program's output with it, and CI runs the same
//! program built for aarch64 (under qemu) and for wasm32-wasip1 (under node) and compares
//! again (`.ci/cross-hashes.sh`): any difference in the last bit of any body fails.
//!
//! Everything the cases need is compiled in (the test scenes of `tests/golden/scenes/` by
//! `include_str!`), so the program reads no file and runs under a bare WASI runtime.

use collide_world::Body;
use collide_world::Contact;
use collide_world::Target;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::io::{self, Write};

use collide_game::{Game, Options, Source, StepInput};
use collide_world::{
    ContactInfo, ContactResponse, Event, HookError, Scene, Vec2, World, WorldError,
};

use crate::{stdout_error, CliError, Result};

/// The first line of the table: what each column is.
pub const HEADER: &str = "# case\tsteps\tthreads\tstate_hash\tevents_hash";

/// The test scenes, compiled in: file label and TOML text.
const SCENES: &[(&str, &str)] = &[
    (
        "tests/golden/scenes/sensors.toml",
        include_str!("../../../tests/golden/scenes/sensors.toml"),
    ),
    (
        "tests/golden/scenes/squeeze.toml",
        include_str!("../../../tests/golden/scenes/squeeze.toml"),
    ),
    (
        "tests/golden/scenes/sleep.toml",
        include_str!("../../../tests/golden/scenes/sleep.toml"),
    ),
    (
        "tests/golden/scenes/boxes.toml",
        include_str!("../../../tests/golden/scenes/boxes.toml"),
    ),
    (
        "tests/golden/scenes/limit.toml",
        include_str!("../../../tests/golden/scenes/limit.toml"),
    ),
];

/// Steps run on each built-in scene.
const BUILTIN_STEPS: u64 = 600;

/// FNV-1a, 64 bits: the events digest (the world's own state hash is FNV-1a over bit
/// patterns too).
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 ^= u64::from(x);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// One row: how the world was run and what it ended in.
struct Row {
    case: String,
    steps: u64,
    threads: usize,
    state_hash: u64,
    events_hash: u64,
}

impl Row {
    fn line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{:016x}\t{:016x}",
            self.case, self.steps, self.threads, self.state_hash, self.events_hash
        )
    }
}

/// Why a case could not run (a bug of the case or of the world: never expected).
fn case_error(case: &str, e: impl std::error::Error + Send + Sync + 'static) -> CliError {
    CliError::new(format!("golden case `{case}` failed"), e)
}

/// Digests every event of a step: its text ([`event_text`]: every field, `f64`s in shortest
/// round-trip decimal, which is the same text on every platform for the same bits).
fn digest_events(h: &mut Fnv, buf: &mut String, events: &[Event]) {
    for e in events {
        event_text(buf, e);
        h.bytes(buf.as_bytes());
    }
    h.bytes(b"|");
}

/// An event's text in the table's format, into `buf`: its `Debug` text, except that a contact
/// is written as the table has always written it, by the name of its pair (`BallTile`,
/// `BallWall`, `BallBall`, `BallRect`, `BallShape`, `BallFlipper`, `RectTile`, `RectWall`,
/// `RectRect`, `RectShape`, `RectFlipper`, `CharacterHit`) and the fields of that pair in
/// their order (a rectangle's wall contact without its point), so that the events hashes of
/// the table compare across versions of the event type.
fn event_text(buf: &mut String, e: &Event) {
    buf.clear();
    // Writing to a String cannot fail.
    let Event::Contact(c) = e else {
        let _ = write!(buf, "{e:?}");
        return;
    };
    let (name, a, b) = match (c.body, c.other) {
        (Body::Ball(x), Target::Cell(y)) => (
            "BallTile",
            ("ball", format!("{x:?}")),
            ("cell", format!("{y:?}")),
        ),
        (Body::Ball(x), Target::Wall(y)) => (
            "BallWall",
            ("ball", format!("{x:?}")),
            ("side", format!("{y:?}")),
        ),
        (Body::Ball(x), Target::Ball(y)) => {
            ("BallBall", ("a", format!("{x:?}")), ("b", format!("{y:?}")))
        }
        (Body::Ball(x), Target::Rect(y)) => (
            "BallRect",
            ("ball", format!("{x:?}")),
            ("rect", format!("{y:?}")),
        ),
        (Body::Ball(x), Target::Shape(y)) => (
            "BallShape",
            ("ball", format!("{x:?}")),
            ("shape", format!("{y:?}")),
        ),
        (Body::Ball(x), Target::Flipper(y)) => (
            "BallFlipper",
            ("ball", format!("{x:?}")),
            ("flipper", format!("{y:?}")),
        ),
        (Body::Rect(x), Target::Cell(y)) => (
            "RectTile",
            ("rect", format!("{x:?}")),
            ("cell", format!("{y:?}")),
        ),
        (Body::Rect(x), Target::Wall(y)) => (
            "RectWall",
            ("rect", format!("{x:?}")),
            ("side", format!("{y:?}")),
        ),
        (Body::Rect(x), Target::Rect(y)) => {
            ("RectRect", ("a", format!("{x:?}")), ("b", format!("{y:?}")))
        }
        (Body::Rect(x), Target::Shape(y)) => (
            "RectShape",
            ("rect", format!("{x:?}")),
            ("shape", format!("{y:?}")),
        ),
        (Body::Rect(x), Target::Flipper(y)) => (
            "RectFlipper",
            ("rect", format!("{x:?}")),
            ("flipper", format!("{y:?}")),
        ),
        (Body::Character(x), y) => (
            "CharacterHit",
            ("character", format!("{x:?}")),
            ("target", format!("{y:?}")),
        ),
        (x, y) => {
            let _ = write!(buf, "Contact {{ body: {x:?}, other: {y:?}, point: {:?}, normal: {:?}, toi: {:?}, speed: {:?}, feature: {:?} }}", c.point, c.normal, c.toi, c.speed, c.feature);
            return;
        }
    };
    let _ = write!(buf, "{name} {{ {}: {}, {}: {}, ", a.0, a.1, b.0, b.1);
    if name != "RectWall" {
        let _ = write!(buf, "point: {:?}, ", c.point);
    }
    let _ = write!(
        buf,
        "normal: {:?}, toi: {:?}, speed: {:?}",
        c.normal, c.toi, c.speed
    );
    if let Some(f) = c.feature {
        let _ = write!(buf, ", feature: {f:?}");
    }
    buf.push_str(" }");
}

/// The kinds of event (`BallFlipper`, `Squeezed`...) among `events`, added to `kinds`.
fn note_kinds(kinds: &mut BTreeSet<String>, buf: &mut String, events: &[Event]) {
    for e in events {
        event_text(buf, e);
        let name = buf.split([' ', '{', '(']).next().unwrap_or_default();
        if !kinds.contains(name) {
            kinds.insert(name.to_owned());
        }
    }
}

/// Fails unless every kind of `wanted` happened: a case must show the feature it covers.
fn require(case: &str, kinds: &BTreeSet<String>, wanted: &[&str]) -> Result<()> {
    match wanted.iter().find(|w| !kinds.contains(**w)) {
        None => Ok(()),
        Some(missing) => Err(case_error(
            case,
            io::Error::other(format!(
                "no {missing} event: the case does not cover its feature (saw {kinds:?})"
            )),
        )),
    }
}

/// How a case runs its world.
struct Run<'a> {
    case: &'a str,
    steps: u64,
    threads: usize,
    /// The kinds of event the case must show (its feature).
    wanted: &'a [&'a str],
    hook: Option<&'a dyn collide_world::ContactHook>,
}

/// Runs `world` as `run` says, with `between` called before each step (inputs such as a
/// flipper button) and the hook (if any) inside it; also returns the world at the end.
fn run_world(
    run: &Run<'_>,
    mut world: World,
    mut between: impl FnMut(&mut World, u64) -> std::result::Result<(), WorldError>,
) -> Result<(Row, World)> {
    let case = run.case;
    world.set_threads(run.threads);
    let (mut h, mut buf) = (Fnv::new(), String::new());
    let mut kinds = BTreeSet::new();
    for k in 0..run.steps {
        between(&mut world, k).map_err(|e| case_error(case, e))?;
        let events = match run.hook {
            Some(hook) => world
                .step_with(hook)
                .map_err(|e: HookError| case_error(case, e))?,
            None => world.step(),
        };
        digest_events(&mut h, &mut buf, events);
        note_kinds(&mut kinds, &mut buf, events);
    }
    require(case, &kinds, run.wanted)?;
    let row = Row {
        case: case.to_owned(),
        steps: run.steps,
        threads: run.threads,
        state_hash: world.state_hash(),
        events_hash: h.0,
    };
    Ok((row, world))
}

/// A case's run with one thread, no hook.
fn serial<'a>(case: &'a str, steps: u64, wanted: &'a [&'a str]) -> Run<'a> {
    Run {
        case,
        steps,
        threads: 1,
        wanted,
        hook: None,
    }
}

fn scene_world(case: &str, scene: &Scene) -> Result<World> {
    World::from_scene(scene).map_err(|e| case_error(case, e))
}

fn builtin(case: &str, name: &str) -> Result<Scene> {
    collide_scenes::resolve(name).map_err(|e| case_error(case, e))
}

fn test_scene(case: &str, file: &str) -> Result<Scene> {
    let text = SCENES
        .iter()
        .find(|(f, _)| *f == file)
        .map(|(_, t)| *t)
        .unwrap_or_default();
    let no_levels = |p: &str| {
        Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!("no level {p}"),
        ))
    };
    collide_scene::from_toml_str(text, file, &no_levels)
        .map_err(|e: collide_scene::SceneError| case_error(case, e))
}

fn no_input(_: &mut World, _: u64) -> std::result::Result<(), WorldError> {
    Ok(())
}

/// Every built-in scene as it ships, [`BUILTIN_STEPS`] steps, one thread.
fn builtin_rows(rows: &mut Vec<Row>) -> Result<()> {
    for name in collide_scenes::names() {
        let case = format!("builtin/{name}");
        let world = scene_world(&case, &builtin(&case, name)?)?;
        let run = serial(&case, BUILTIN_STEPS, &[]);
        rows.push(run_world(&run, world, no_input)?.0);
    }
    Ok(())
}

/// The test scenes of `tests/golden/scenes/`: sensors, squeezes, sleep, dynamic boxes, the
/// event bound.
fn scene_rows(rows: &mut Vec<Row>) -> Result<()> {
    let cases: [(&str, u64, &[&str]); 5] = [
        (
            "sensors",
            900,
            &[
                "SensorEnter",
                "SensorExit",
                "SensorRectEnter",
                "BrickDestroyed",
            ],
        ),
        ("squeeze", 300, &["Squeezed", "RectWall", "Unembedded"]),
        ("sleep", 720, &["BallBall", "BallTile"]),
        (
            "boxes",
            720,
            &["RectTile", "RectShape", "BallShape", "RectRect"],
        ),
        ("limit", 600, &["BallBall", "BallWall", "IterationLimit"]),
    ];
    for (name, steps, wanted) in cases {
        let case = format!("scene/{name}");
        let file = format!("tests/golden/scenes/{name}.toml");
        let world = scene_world(&case, &test_scene(&case, &file)?)?;
        let (row, world) = run_world(&serial(&case, steps, wanted), world, no_input)?;
        if name == "sleep" && world.sleeping_balls() == 0 {
            return Err(case_error(&case, io::Error::other("no ball fell asleep")));
        }
        rows.push(row);
    }
    Ok(())
}

/// Flipper buttons, as set before step `k`.
type Press = Box<dyn FnMut(&mut World, u64) -> std::result::Result<(), WorldError>>;

/// The pinball table with eight more balls over the flippers, both buttons pressed and
/// released on fixed schedules: flippers turning both ways, balls hit while they turn.
fn scripted_pinball(case: &str) -> Result<(World, Press)> {
    let mut scene = builtin(case, "pinball")?;
    for k in 0..8 {
        let x = 110.0 + 30.0 * f64::from(k);
        scene.balls.push(collide_world::BallDesc {
            pos: Vec2::new(x, 420.0 + 12.0 * f64::from(k % 3)),
            vel: Vec2::new(40.0 - 10.0 * f64::from(k), 0.0),
            radius: 8.0,
            ..collide_world::BallDesc::default()
        });
    }
    let world = scene_world(case, &scene)?;
    let ids: Vec<_> = world.flippers().iter().map(|f| f.id).collect();
    // Left: 24 steps held in every 60; right: 30 in every 84 (1/240 s steps).
    let press = move |w: &mut World, k: u64| {
        for (i, &id) in ids.iter().enumerate() {
            let (period, held) = if i % 2 == 0 { (60, 24) } else { (84, 30) };
            w.set_flipper_pressed(id, (k + 7 * i as u64) % period < held)?;
        }
        Ok(())
    };
    Ok((world, Box::new(press)))
}

fn flipper_rows(rows: &mut Vec<Row>) -> Result<()> {
    let case = "flippers/pinball-scripted";
    let (world, press) = scripted_pinball(case)?;
    let run = serial(case, 2400, &["BallFlipper", "BallShape"]);
    rows.push(run_world(&run, world, press)?.0);
    Ok(())
}

/// A contact hook on the boxes scene with a platform and a paddle added: balls pass up
/// through the platform (one-way) and leave the paddle's top with "english" (a new velocity);
/// everything else bounces.
fn hook_rows(rows: &mut Vec<Row>) -> Result<()> {
    let case = "hooks/one-way-and-english";
    let mut scene = test_scene(case, "tests/golden/scenes/boxes.toml")?;
    scene.rects.push(collide_world::RectDesc {
        aabb: collide_world::Aabb::new(Vec2::new(120.0, 84.0), Vec2::new(280.0, 90.0)),
        ..collide_world::RectDesc::default()
    });
    scene.rects.push(collide_world::RectDesc {
        aabb: collide_world::Aabb::new(Vec2::new(170.0, 250.0), Vec2::new(230.0, 256.0)),
        vel: Vec2::new(25.0, 0.0),
        kind: collide_world::RectKind::Kinematic,
        ..collide_world::RectDesc::default()
    });
    let world = scene_world(case, &scene)?;
    let rects: Vec<_> = world.rects().iter().map(|r| (r.id, r.kind)).collect();
    let platform = rects
        .iter()
        .find(|(_, k)| *k == collide_world::RectKind::Static)
        .map(|r| r.0);
    let paddle = rects
        .iter()
        .find(|(_, k)| *k == collide_world::RectKind::Kinematic)
        .map(|r| r.0);
    let hook = move |c: &ContactInfo| match c.event {
        Event::Contact(Contact {
            body: Body::Ball(_),
            other: Target::Rect(rect),
            normal,
            ..
        }) if Some(rect) == platform && normal.y > 0.0 => ContactResponse::Ignore,
        Event::Contact(Contact {
            body: Body::Ball(_),
            other: Target::Rect(rect),
            normal,
            ..
        }) if Some(rect) == paddle && normal.y < 0.0 => {
            let v = c.first.vel;
            // Pushed 30 units/s to the right (at most 200) and up at 100 units/s or more.
            ContactResponse::Velocity(Vec2::new((v.x + 30.0).min(200.0), -v.y.abs().max(100.0)))
        }
        _ => ContactResponse::Reflect,
    };
    // The paddle goes back and forth, 2 s each way.
    let steer = move |w: &mut World, k: u64| match paddle {
        Some(id) if k % 120 == 0 => {
            let dir = if (k / 120) % 2 == 0 { 1.0 } else { -1.0 };
            w.set_rect_velocity(id, Vec2::new(25.0 * dir, 0.0))
        }
        _ => Ok(()),
    };
    let run = Run {
        hook: Some(&hook),
        ..serial(case, 720, &["BallRect"])
    };
    rows.push(run_world(&run, world, steer)?.0);
    Ok(())
}

/// Threads: the arena with 4000 balls at 2000 units/s (parallel predictions) and 20 000
/// balls (spatial domains), on one thread and on two: the same bits.
fn thread_rows(rows: &mut Vec<Row>) -> Result<()> {
    for (balls, speed, steps) in [(4000, 2000.0, 30), (20_000, 60.0, 12)] {
        for threads in [1, 2] {
            let case = format!("threads/arena-{balls}");
            let scene = collide_scenes::arena_scene(balls, speed, 1);
            let world = scene_world(&case, &scene)?;
            let run = Run {
                threads,
                ..serial(&case, steps, &["BallBall"])
            };
            let (row, world) = run_world(&run, world, no_input)?;
            if world.threads() < threads {
                eprintln!(
                    "collide hashes: this target has no threads: `{case}` with {threads} \
                     threads ran on {} (World::set_threads)",
                    world.threads()
                );
            }
            // Where the target has threads, the large arena must have stepped in domains.
            if balls >= 20_000 && world.threads() > 1 && world.domain_steps().0 == 0 {
                return Err(case_error(&case, io::Error::other("no step in domains")));
            }
            rows.push(row);
        }
    }
    Ok(())
}

/// The README's main job, shortened: BricksBeater level 1 with 1000 balls colliding with
/// each other, closed walls, indestructible bricks.
fn readme_rows(rows: &mut Vec<Row>) -> Result<()> {
    let case = "main/level_1-1000-balls-ball-ball";
    let mut scene = builtin(case, "level_1")?;
    scene.walls = collide_world::Walls::ALL;
    scene.step.destructible_bricks = false;
    scene.step.ball_ball = true;
    let world = scene_world(case, &scene)?;
    let run = serial(case, 1000, &["BallBall", "BallTile"]);
    rows.push(run_world(&run, world, no_input)?.0);
    Ok(())
}

/// Rollback on the pinball table with flippers turning (the scripted case's inputs): a run of
/// 600 steps straight, and the same run with a snapshot every 10 steps and, every 50 steps,
/// a restore 8 steps back and those 8 steps run again (the events of the final timeline
/// digested): both rows must be the same bits (the native test checks it).
fn rollback_rows(rows: &mut Vec<Row>) -> Result<()> {
    for (case, rollback) in [
        ("rollback/pinball-straight", false),
        ("rollback/pinball-restored", true),
    ] {
        let (mut world, mut press) = scripted_pinball(case)?;
        let (mut h, mut buf) = (Fnv::new(), String::new());
        // (step k, the world before step k, the events digest before step k).
        let mut history: std::collections::VecDeque<(u64, collide_world::Snapshot, u64)> =
            std::collections::VecDeque::new();
        let (mut k, mut rolled_at) = (0, 0);
        while k < 600 {
            if rollback && k % 50 == 0 && k > rolled_at {
                if let Some(i) = history.iter().position(|e| e.0 + 8 == k) {
                    world
                        .restore(&history[i].1)
                        .map_err(|e| case_error(case, e))?;
                    h.0 = history[i].2;
                    history.truncate(i);
                    rolled_at = k;
                    k -= 8;
                }
            }
            if rollback {
                history.push_back((k, world.snapshot(), h.0));
                if history.len() > 10 {
                    history.pop_front();
                }
            }
            press(&mut world, k).map_err(|e| case_error(case, e))?;
            let events = world.step();
            digest_events(&mut h, &mut buf, events);
            k += 1;
        }
        rows.push(Row {
            case: case.to_owned(),
            steps: 600,
            threads: 1,
            state_hash: world.state_hash(),
            events_hash: h.0,
        });
    }
    Ok(())
}

/// The game (rules, policies, the autopilot's input) on BricksBeater level 1 and on the
/// pinball table: `Game::state_hash`; the events digest covers the world's events.
fn game_rows(rows: &mut Vec<Row>) -> Result<()> {
    for (name, steps) in [("level_1", 1200), ("pinball", 4800)] {
        let case = format!("game/{name}-autoplay");
        let source = Source::from_arg(name, false).map_err(|e| case_error(&case, e))?;
        let mut game = Game::new(source, Options::default()).map_err(|e| case_error(&case, e))?;
        let (mut h, mut buf) = (Fnv::new(), String::new());
        for _ in 0..steps {
            let input = StepInput::from(&game.autopilot());
            game.step(&input);
            digest_events(&mut h, &mut buf, game.last_events());
        }
        rows.push(Row {
            case,
            steps,
            threads: 1,
            state_hash: game.state_hash(),
            events_hash: h.0,
        });
    }
    Ok(())
}

/// Characters on a level of tiles and 45° ramps, with a kinematic platform going back and
/// forth and a one-way ledge: eight characters walking, turning and jumping by a script
/// (move and slide, ground, snap, step-up, carry, one-way platforms, sensors).
fn character_rows(rows: &mut Vec<Row>) -> Result<()> {
    use collide_world::{Aabb, CharacterDesc, Grid, RectDesc, RectKind, StepConfig, Target, Walls};
    let case = "characters/platformer-scripted";
    let config = StepConfig {
        gravity: Vec2::new(0.0, 1000.0),
        ..StepConfig::default()
    };
    let bad = |e: WorldError| case_error(case, e);
    let mut world = World::new(Vec2::new(640.0, 240.0), Walls::ALL, config).map_err(bad)?;
    let rows_text = [
        "                                ",
        "                                ",
        "                                ",
        "                                ",
        "                                ",
        "                                ",
        "                                ",
        "        3##1          s         ",
        "       3####1      ##           ",
        "      3######1   ####     #     ",
        "################################",
        "################################",
    ];
    let grid = Grid::from_rows(20.0, Vec2::ZERO, &rows_text).map_err(|e| case_error(case, e))?;
    world.set_grid(grid);
    let lift = world
        .add_rect(RectDesc {
            aabb: Aabb::new(Vec2::new(380.0, 150.0), Vec2::new(440.0, 156.0)),
            vel: Vec2::new(50.0, -10.0),
            kind: RectKind::Kinematic,
            ..RectDesc::default()
        })
        .map_err(bad)?;
    let ledge = world
        .add_rect(RectDesc {
            aabb: Aabb::new(Vec2::new(520.0, 120.0), Vec2::new(600.0, 124.0)),
            ..RectDesc::default()
        })
        .map_err(bad)?;
    world.set_one_way(Target::Rect(ledge), true).map_err(bad)?;
    let mut ids = Vec::new();
    for k in 0..8 {
        let d = CharacterDesc {
            pos: Vec2::new(30.0 + 70.0 * f64::from(k), 100.0),
            half_extents: Vec2::new(6.0, 10.0),
            snap_distance: 4.0,
            step_height: 8.0 + f64::from(k % 3) * 6.0,
            ..CharacterDesc::default()
        };
        ids.push(world.add_character(d).map_err(bad)?);
    }
    let script = move |w: &mut World, k: u64| {
        if k % 90 == 0 {
            let v = w.rect(lift).map_or(Vec2::ZERO, |r| r.vel);
            w.set_rect_velocity(lift, -v)?;
        }
        for (i, &id) in ids.iter().enumerate() {
            let Some(c) = w.character(id).copied() else {
                continue;
            };
            let dir = if (k / 75 + i as u64) % 2 == 0 {
                1.0
            } else {
                -1.0
            };
            let jump = c.on_ground() && (k + 13 * i as u64) % 47 == 0;
            let vy = if jump { -450.0 } else { c.vel.y };
            w.set_character_velocity(id, Vec2::new(110.0 * dir, vy))?;
            w.set_character_drop_through(id, (k + i as u64) % 200 < 20)?;
        }
        Ok(())
    };
    let run = serial(case, 1200, &["CharacterHit", "CharacterSensorEnter"]);
    rows.push(run_world(&run, world, script)?.0);
    Ok(())
}

/// Every row of the table, in order.
fn table() -> Result<Vec<Row>> {
    let mut rows = Vec::new();
    builtin_rows(&mut rows)?;
    scene_rows(&mut rows)?;
    flipper_rows(&mut rows)?;
    hook_rows(&mut rows)?;
    thread_rows(&mut rows)?;
    readme_rows(&mut rows)?;
    rollback_rows(&mut rows)?;
    game_rows(&mut rows)?;
    character_rows(&mut rows)?;
    Ok(rows)
}

/// `collide hashes`: prints the table, [`HEADER`] first, one row per line.
pub fn cmd_hashes() -> Result<()> {
    let rows = table()?;
    let stdout = io::stdout();
    let mut out = stdout.lock();
    writeln!(out, "{HEADER}").map_err(stdout_error)?;
    for row in &rows {
        writeln!(out, "{}", row.line()).map_err(stdout_error)?;
    }
    out.flush().map_err(stdout_error)
}
