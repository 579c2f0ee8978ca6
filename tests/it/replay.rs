//! Replays across crates (docs/replay-format.md): a session recorded through the game's public
//! API, written, parsed and re-simulated; tampering found at the right step; the committed
//! fixtures that must keep verifying (a replay recorded by one build checked by the next), in
//! the current format and in format 1; a property test feeding mutated and truncated files to
//! the parser.
//!
//! Re-record the fixture after an intentional change of physics or rules:
//! `cargo run --release -p collide-cli -- record level_2 --steps 1200 --autoplay --out tests/fixtures/replay_level2.replay`
//! (and the format-1 fixture `replay_level2_v1.replay` from the build before it: see
//! docs/replay-format.md).

use std::path::PathBuf;

use collide_game::replay::{Entry, Play, MAX_STEPS};
use collide_game::{Command, Game, Input, Options, Replay, ReplayError, SceneText, Source};
use proptest::prelude::*;

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/replay_level2.replay")
}

/// The same session in format 1, as the build before JSON lines wrote it.
fn fixture_v1() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/replay_level2_v1.replay")
}

/// Plays `arg` (as the frontends open it) for `frames` frames of 1/60 s, the autopilot's input
/// each frame and `commands(frame)`, recording with a hash every `k` steps.
fn play(arg: &str, frames: u32, k: u32, commands: impl Fn(u32) -> Vec<Command>) -> (Game, Replay) {
    let mut g = Game::new(Source::from_arg(arg, false).unwrap(), Options::default()).unwrap();
    g.start_recording(SceneText::from_arg(arg).unwrap(), k)
        .unwrap();
    for f in 0..frames {
        let mut input = g.autopilot();
        input.commands = commands(f);
        g.update(&input, 1.0 / 60.0);
    }
    let r = g.take_replay().unwrap();
    (g, r)
}

#[test]
fn the_committed_fixture_still_verifies() {
    let r = Replay::read(&fixture()).unwrap();
    assert_eq!(r.play, Play::Level(2));
    assert_eq!((r.steps(), r.hashes(), r.hash_every), (1200, 21, 60));
    let report = r.verify().unwrap_or_else(|e| {
        panic!(
            "{e}\nIf the physics or the rules changed on purpose, re-record the fixture: see \
             docs/replay-format.md"
        )
    });
    assert_eq!((report.steps, report.hashes_checked), (1200, 21));
    // The file is what this build writes for it, byte for byte (the format is stable).
    let text = std::fs::read_to_string(fixture()).unwrap();
    assert_eq!(r.to_text(), text);
    // The session really played: launches, and a pointer that followed the balls.
    let inputs: Vec<_> = r
        .entries
        .iter()
        .filter_map(|e| match e {
            Entry::Steps { input, .. } => Some(input),
            _ => None,
        })
        .collect();
    assert!(inputs.iter().any(|i| i.launch));
    assert!(inputs.iter().filter(|i| i.pointer_x.is_some()).count() > 600);
}

/// Format 1 as the build before JSON lines wrote it (docs/replay-format.md, "Format 1"; the
/// options in alphabetical order, which the reader allows). Nothing in the library writes it
/// any more: the tests use it to give the format-1 reader any session, and it re-makes the
/// format-1 fixture after an intentional change of physics or rules (`REMAKE_V1_FIXTURE=1`).
fn to_v1(r: &Replay) -> String {
    use std::fmt::Write as _;
    fn real(x: f64) -> String {
        if x.is_nan() {
            format!("0x{:016x}", x.to_bits())
        } else {
            format!("{x:?}")
        }
    }
    fn block(s: &mut String, text: &str) {
        for l in text.split('\n') {
            let _ = writeln!(s, "|{l}");
        }
    }
    /// `option NAME VALUE` lines of a JSON value's leaves, nested names dotted.
    fn options(s: &mut String, name: &str, v: &serde_json::Value) {
        match v {
            serde_json::Value::Object(map) => {
                for (k, x) in map {
                    let n = if name.is_empty() {
                        k.clone()
                    } else {
                        format!("{name}.{k}")
                    };
                    options(s, &n, x);
                }
            }
            serde_json::Value::Array(xy) => {
                options(s, &format!("{name}.x"), &xy[0]);
                options(s, &format!("{name}.y"), &xy[1]);
            }
            serde_json::Value::Number(n) if n.is_f64() => {
                let _ = writeln!(s, "option {name} {}", real(n.as_f64().unwrap()));
            }
            leaf => {
                let _ = writeln!(s, "option {name} {leaf}");
            }
        }
    }
    let mut s = String::from("collide-replay 1\n# collide replay: docs/replay-format.md. Check it with `collide replay FILE`.\n");
    match r.play {
        Play::Level(n) => {
            let _ = writeln!(s, "play level {n}");
        }
        Play::Scene => s.push_str("play scene\n"),
        Play::Sandbox => s.push_str("play sandbox\n"),
        Play::Platformer { .. } => panic!("format 1 has no platformer"),
    }
    let kind = match r.scene.kind {
        collide_game::replay::TextKind::Toml => "toml",
        collide_game::replay::TextKind::Dat => "dat",
        collide_game::replay::TextKind::Map => panic!("format 1 has no map"),
    };
    let lines = r.scene.text.split('\n').count();
    let _ = writeln!(s, "scene {kind} {lines} {}", r.scene.file);
    block(&mut s, &r.scene.text);
    for (path, text) in &r.scene.levels {
        let _ = writeln!(s, "level {} {path}", text.split('\n').count());
        block(&mut s, text);
    }
    options(&mut s, "", &serde_json::to_value(&r.options).unwrap());
    let w = &r.world;
    let _ = writeln!(s, "world dt {}", real(w.dt));
    let _ = writeln!(s, "world ball_ball {}", w.ball_ball);
    let _ = writeln!(s, "world restitution {}", real(w.restitution));
    let _ = writeln!(s, "world destructible_bricks {}", w.destructible_bricks);
    let _ = writeln!(s, "world max_events_per_body {}", w.max_events_per_body);
    if w.gravity != collide_world::Vec2::ZERO {
        let _ = writeln!(s, "world gravity_x {}", real(w.gravity.x));
        let _ = writeln!(s, "world gravity_y {}", real(w.gravity.y));
    }
    let _ = writeln!(s, "hash-every {}", r.hash_every);
    for e in &r.entries {
        let _ = match e {
            Entry::Command(c) => writeln!(
                s,
                "c {}",
                match c {
                    Command::TogglePause => "pause".to_owned(),
                    Command::SingleStep => "single-step".to_owned(),
                    Command::Slower => "slower".to_owned(),
                    Command::Faster => "faster".to_owned(),
                    Command::ToggleDebug => "debug".to_owned(),
                    Command::Restart => "restart".to_owned(),
                    Command::Level(n) => format!("level {n}"),
                    Command::NextScene => "next-scene".to_owned(),
                }
            ),
            Entry::Steps { count, input } => writeln!(
                s,
                "s {count} {} {} {} {}",
                input.pointer_x.map_or_else(|| "-".to_owned(), real),
                input.paddle_dir,
                input.aim_dir,
                u8::from(input.launch)
            ),
            Entry::Hash { step, hash } => writeln!(s, "h {step} {hash:016x}"),
        };
    }
    let _ = writeln!(s, "end {}", r.steps());
    s
}

#[test]
fn the_format_1_fixture_loads_verifies_and_converts_to_the_current_one() {
    if std::env::var_os("REMAKE_V1_FIXTURE").is_some() {
        let current = Replay::read(&fixture()).unwrap();
        std::fs::write(fixture_v1(), to_v1(&current)).unwrap();
    }
    let text = std::fs::read_to_string(fixture_v1()).unwrap();
    assert!(text.starts_with("collide-replay 1\n"));
    let old = Replay::read(&fixture_v1()).unwrap();
    let new = Replay::read(&fixture()).unwrap();
    // The same session, read from either format.
    assert_eq!(old, new);
    let report = old.verify().unwrap_or_else(|e| {
        panic!(
            "{e}\nIf the physics or the rules changed on purpose, re-record the current fixture, \
             then re-make this one: REMAKE_V1_FIXTURE=1 cargo test --release -p collide-tests \
             --test replay (docs/replay-format.md)"
        )
    });
    assert_eq!((report.steps, report.hashes_checked), (1200, 21));
    assert_eq!(report.final_hash, new.verify().unwrap().final_hash);
    // Converting it (`collide replay convert`) writes the current fixture, byte for byte.
    assert_eq!(old.to_text(), std::fs::read_to_string(fixture()).unwrap());
    // Written by this file's format-1 writer, the session reads back the same.
    assert_eq!(Replay::parse(&to_v1(&new)).unwrap(), new);
}

#[test]
fn format_1_reads_every_call_option_and_setting() {
    // Commands, every input field, odd numbers, a non-finite pointer, other options and
    // gravity, through format 1: the same replay as through the current format.
    let options = Options {
        volley_interval: 1.0 / 3.0,
        aim_length: 1e-300,
        power_up_size: collide_world::Vec2::new(0.1, 7.0),
        volley: 3,
        english: false,
        ..Options::default()
    };
    let mut g = Game::new(Source::Level(1), options).unwrap();
    g.start_recording(SceneText::builtin("level_1").unwrap(), 7)
        .unwrap();
    for (k, x) in [
        Some(-0.0),
        None,
        Some(1e-300),
        Some(f64::NAN),
        Some(0.1),
        None,
    ]
    .into_iter()
    .cycle()
    .take(60)
    .enumerate()
    {
        let commands = match k {
            10 => vec![Command::Slower, Command::ToggleDebug, Command::Level(3)],
            20 => vec![
                Command::TogglePause,
                Command::SingleStep,
                Command::TogglePause,
            ],
            30 => vec![Command::NextScene, Command::Faster, Command::Restart],
            _ => Vec::new(),
        };
        let input = Input {
            pointer_x: x,
            paddle_dir: [-1, 0, 1][k % 3],
            aim_dir: [1, 0, -1, 0][k % 4],
            launch: k % 5 == 0,
            commands,
            ..Input::default()
        };
        g.update(&input, 1.0 / 60.0);
    }
    let mut r = g.take_replay().unwrap();
    let verified = r.verify().unwrap();
    let back = Replay::parse(&to_v1(&r)).unwrap();
    // As text: a NaN pointer is not equal to itself, its bits are.
    assert_eq!(back.to_text(), r.to_text());
    assert_eq!(back.verify().unwrap(), verified);
    r.world.gravity = collide_world::Vec2::new(1.0 / 3.0, -981.0);
    let back = Replay::parse(&to_v1(&r)).unwrap();
    assert_eq!(back.world.gravity, r.world.gravity);
    assert_eq!(back.to_text(), r.to_text());
}

#[test]
fn a_level_played_by_the_autopilot_round_trips() {
    let (g, r) = play("level_1", 600, 60, |_| Vec::new());
    assert_eq!((r.steps(), r.hashes()), (600, 11));
    let text = r.to_text();
    let back = Replay::parse(&text).unwrap();
    assert_eq!(back, r);
    let report = back.verify().unwrap();
    assert_eq!((report.steps, report.hashes_checked), (600, 11));
    assert_eq!(report.final_hash, g.state_hash());
    // The run was a real game: bricks broke or balls flew.
    let st = g.status();
    assert!(st.score.unwrap() > 0 || st.balls > 1, "{st:?}");
}

#[test]
fn a_sandbox_and_a_session_with_commands_round_trip() {
    let (g, r) = play("seed000_room", 300, 25, |_| Vec::new());
    assert_eq!((r.play, r.steps(), r.hashes()), (Play::Scene, 300, 13));
    let report = Replay::parse(&r.to_text()).unwrap().verify().unwrap();
    assert_eq!(report.final_hash, g.state_hash());
    // Level 3, restart, the demo scenes and back, as keys would.
    let keys = |f: u32| match f {
        60 => vec![Command::Level(3)],
        120 => vec![Command::Restart],
        180 | 240 | 300 | 360 | 420 | 450 | 480 | 540 | 570 => vec![Command::NextScene],
        _ => Vec::new(),
    };
    let (g, r) = play("level_2", 600, 60, keys);
    assert_eq!(g.source(), &Source::Level(3));
    let report = Replay::parse(&r.to_text()).unwrap().verify().unwrap();
    // 600 frames of 1/60 s: one step each, but four on the pinball table (dt 1/240 s, frames
    // 540 to 569).
    assert_eq!((report.commands, report.steps), (11, 690));
    assert_eq!(report.final_hash, g.state_hash());
}

/// The index of the `steps` record of `lines` that runs step `n` (1-based), with count 1.
fn step_line(lines: &[String], n: u64) -> usize {
    let mut steps = 0;
    lines
        .iter()
        .position(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap_or_default();
            let count = v["steps"]["count"].as_u64().unwrap_or(0);
            steps += count;
            steps == n && count == 1
        })
        .unwrap()
}

/// A `steps` record of one step with `input` (JSON).
fn one_step(input: &str) -> String {
    format!("{{\"steps\":{{\"count\":1,\"input\":{input}}}}}")
}

fn verify_text(lines: &[String]) -> Result<collide_game::VerifyReport, ReplayError> {
    Replay::parse(&lines.join("\n")).unwrap().verify()
}

#[test]
fn tampering_is_found_at_the_first_recorded_hash_after_it() {
    let text = std::fs::read_to_string(fixture()).unwrap();
    let fixture_lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
    // The launch of step 1 taken out: the ball waits, the game differs from step 1 on, and
    // with hashes every 60 steps that shows at step 60.
    let mut lines = fixture_lines.clone();
    let k = step_line(&lines, 1);
    assert_eq!(lines[k], one_step(r#"{"launch":true}"#));
    lines[k] = one_step("{}");
    let e = verify_text(&lines).unwrap_err();
    assert!(
        matches!(e, ReplayError::HashMismatch { step: 60, expected, got, .. } if expected != got),
        "{e}"
    );
    // A recorded hash changed: found at its own step.
    let mut lines = fixture_lines;
    let h = lines
        .iter()
        .position(|l| l.starts_with(r#"{"hash":{"step":600,"#))
        .unwrap();
    lines[h] = r#"{"hash":{"step":600,"hash":"0123456789abcdef"}}"#.to_owned();
    let e = verify_text(&lines).unwrap_err();
    assert!(
        matches!(
            e,
            ReplayError::HashMismatch {
                step: 600,
                expected: 0x0123_4567_89ab_cdef,
                line,
                ..
            } if line == h + 1
        ),
        "{e}"
    );
    // With a hash after every step, a pointer moved at step 500 shows at step 500 (the
    // paddle is elsewhere), even though the game may absorb it a few steps later.
    let (_, r) = play("level_2", 600, 1, |_| Vec::new());
    let mut lines: Vec<String> = r.to_text().split('\n').map(str::to_owned).collect();
    let k = step_line(&lines, 500);
    lines[k] = one_step(r#"{"pointer_x":12.5}"#);
    let e = verify_text(&lines).unwrap_err();
    assert!(
        matches!(e, ReplayError::HashMismatch { step: 500, .. }),
        "{e}"
    );
}

/// One mutation of a replay text.
#[derive(Clone, Debug)]
enum Mutation {
    Truncate(usize),
    SetByte(usize, u8),
    Delete(usize, usize),
    Insert(usize, String),
    DuplicateLine(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let junk = prop_oneof![
        Just("\n".to_owned()),
        Just("{".to_owned()),
        Just("}".to_owned()),
        Just("\"".to_owned()),
        Just(format!(
            "{{\"steps\":{{\"count\":{MAX_STEPS},\"input\":{{}}}}}}\n"
        )),
        Just("{\"hash\":{\"step\":0,\"hash\":\"0000000000000000\"}}\n".to_owned()),
        Just("{\"level\":{\"path\":\"x\",\"text\":\"\"}}\n".to_owned()),
        Just("99999999999999999999".to_owned()),
        Just("1e400".to_owned()),
        Just("\"inf\"".to_owned()),
        Just("null".to_owned()),
        Just("\n{\"end\":{\"steps\":0}}\n".to_owned()),
        "[ -~\n]{0,12}",
    ];
    prop_oneof![
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), any::<u8>()).prop_map(|(a, b)| Mutation::SetByte(a, b)),
        (any::<usize>(), 0usize..200).prop_map(|(a, n)| Mutation::Delete(a, n)),
        (any::<usize>(), junk).prop_map(|(a, s)| Mutation::Insert(a, s)),
        any::<usize>().prop_map(Mutation::DuplicateLine),
    ]
}

fn apply(text: &str, mutations: &[Mutation]) -> Vec<u8> {
    let mut b = text.as_bytes().to_vec();
    for m in mutations {
        let n = b.len().max(1);
        match m {
            Mutation::Truncate(at) => b.truncate(at % n),
            Mutation::SetByte(at, v) => {
                if !b.is_empty() {
                    b[at % n] = *v;
                }
            }
            Mutation::Delete(at, len) => {
                let at = at % n;
                let end = (at + len).min(b.len());
                if at < end {
                    b.drain(at..end);
                }
            }
            Mutation::Insert(at, s) => {
                let at = (at % n).min(b.len());
                b.splice(at..at, s.bytes());
            }
            Mutation::DuplicateLine(k) => {
                let mut lines: Vec<Vec<u8>> =
                    b.split(|c| *c == b'\n').map(<[u8]>::to_vec).collect();
                let k = k % lines.len();
                let copy = lines[k].clone();
                lines.insert(k, copy);
                b = lines.join(&b'\n');
            }
        }
    }
    b
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 512,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(7),
        ..ProptestConfig::default()
    })]

    /// Mutated and truncated replays are errors (typed, with a line), never panics; what
    /// parses writes back to an equal replay, and a short one re-simulates without panicking.
    #[test]
    fn mutated_replays_are_errors_not_panics(mutations in proptest::collection::vec(mutation(), 1..4)) {
        let text = std::fs::read_to_string(fixture()).unwrap();
        let bytes = apply(&text, &mutations);
        let Ok(s) = String::from_utf8(bytes) else {
            return Ok(());
        };
        match Replay::parse(&s) {
            Ok(r) => {
                prop_assert_eq!(Replay::parse(&r.to_text()).unwrap(), r.clone());
                if r.steps() <= 5000 && r.options == Options::default() {
                    let _ = r.verify();
                }
            }
            Err(ReplayError::Parse { line, .. }) => {
                prop_assert!(line >= 1 && line <= s.split('\n').count().max(1));
            }
            Err(e) => prop_assert!(false, "unexpected error {e}"),
        }
    }
}

#[test]
fn an_input_type_with_every_field_round_trips() {
    // Keys and pointer together, negative zero, a launch mid-run.
    let mut g = Game::level_1().unwrap();
    g.start_recording(SceneText::builtin("level_1").unwrap(), 10)
        .unwrap();
    let inputs = [
        Input {
            pointer_x: Some(-0.0),
            ..Input::default()
        },
        Input {
            paddle_dir: -1,
            aim_dir: 1,
            ..Input::default()
        },
        Input {
            paddle_dir: 1,
            launch: true,
            ..Input::default()
        },
        Input {
            pointer_x: Some(1e-300),
            aim_dir: -1,
            ..Input::default()
        },
    ];
    for (k, input) in inputs.iter().cycle().take(40).enumerate() {
        let mut input = input.clone();
        if k == 20 {
            input.commands = vec![Command::Slower, Command::ToggleDebug];
        }
        g.update(&input, 1.0 / 60.0);
    }
    let r = g.take_replay().unwrap();
    let back = Replay::parse(&r.to_text()).unwrap();
    assert_eq!(back, r);
    // Slower from frame 20: half speed, so 20 + 10 steps.
    assert_eq!(back.verify().unwrap().steps, 30);
}
