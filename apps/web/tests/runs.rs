//! The page's runs natively: the fixed-frame game equals the CLI's `collide record` on the
//! same input, its replay verifies, and DOM-level input (keys, mouse, touch) reaches the game.

use collide_world::Surface;

use collide_game::{Game, Options, Phase, Replay, Source, StepInput};
use collide_web::{run_frames, run_world, RunError, Session, SessionOptions, WebError};

fn level_1() -> SessionOptions {
    SessionOptions::default()
}

/// `collide record level_1 --steps N --autoplay`: the autopilot's input at every step.
fn recorded_hash(scene: &str, steps: u64) -> u64 {
    let mut game = Game::new(Source::from_arg(scene, false).unwrap(), Options::default()).unwrap();
    for _ in 0..steps {
        let input = game.autopilot();
        game.step(&StepInput::from(&input));
    }
    game.state_hash()
}

#[test]
fn autoplay_frames_equal_the_cli_record_and_the_replay_verifies() {
    let options = SessionOptions {
        autoplay: true,
        ..level_1()
    };
    let (_, report) = run_frames(&options, 300, "").unwrap();
    // Level 1 steps at 1/60 s: one step a frame.
    assert_eq!(report.state.steps, 300);
    assert_eq!(report.state.frames, 300);
    assert_eq!(
        report.state.game_hash,
        format!("{:016x}", recorded_hash("level_1", 300))
    );
    // The autopilot launched: balls fly.
    assert_eq!(report.state.phase, Some("playing"));
    let replay = Replay::parse(&report.replay).unwrap();
    let verified = replay.verify().unwrap();
    assert_eq!(verified.steps, 300);
    assert_eq!(
        format!("{:016x}", verified.final_hash),
        report.state.game_hash
    );
}

#[test]
fn held_flipper_keys_raise_both_flippers() {
    let options = SessionOptions {
        scene: "pinball".to_owned(),
        ..level_1()
    };
    let (_, rest) = run_frames(&options, 30, "").unwrap();
    let (_, held) = run_frames(&options, 30, "ShiftLeft,ShiftRight").unwrap();
    assert_eq!(held.state.mode, "pinball");
    // Pinball steps at 1/240 s: four steps a frame.
    assert_eq!(held.state.steps, 120);
    assert_eq!(held.state.flippers.len(), 2);
    for (r, h) in rest.state.flippers.iter().zip(&held.state.flippers) {
        assert!(h.pressed && !r.pressed);
        // 60 degrees apart: each turned all the way (1500 degrees/s, 0.5 s held).
        assert!(((h.angle - r.angle).abs() - 60f64.to_radians()).abs() < 1e-9);
    }
    let replay = Replay::parse(&held.replay).unwrap();
    assert_eq!(
        format!("{:016x}", replay.verify().unwrap().final_hash),
        held.state.game_hash
    );
}

#[test]
fn bad_runs_are_typed_errors() {
    assert!(matches!(
        run_frames(&level_1(), 10, "KeyQ"),
        Err(RunError::Key(k)) if k == "KeyQ"
    ));
    assert!(matches!(
        run_frames(&level_1(), 0, ""),
        Err(RunError::Count { what: "frames", .. })
    ));
    let nowhere = SessionOptions {
        scene: "../etc/passwd".to_owned(),
        ..level_1()
    };
    assert!(matches!(
        Session::new(&nowhere),
        Err(WebError::UnknownScene { .. })
    ));
    let tiny = SessionOptions {
        width: 10,
        ..level_1()
    };
    assert!(matches!(Session::new(&tiny), Err(WebError::Size { .. })));
    assert!(matches!(
        run_world("nope", 10, 1),
        Err(RunError::Scene { .. })
    ));
}

#[test]
fn world_runs_do_not_depend_on_threads() {
    let one = run_world("plinko", 200, 1).unwrap();
    let four = run_world("plinko", 200, 4).unwrap();
    assert_eq!(one.state_hash, four.state_hash);
    assert_eq!(one.steps, 200);
    assert!(one.balls > 0);
}

#[test]
fn a_tap_launches_and_a_drag_moves_the_paddle() {
    let mut s = Session::new(&level_1()).unwrap();
    s.draw();
    s.frame(1.0 / 60.0);
    let start = s.state();
    assert_eq!(start.phase, Some("serving"));
    // A drag to the left third of the frame (960 wide): the paddle follows.
    s.touch_start(7, 480.0, 600.0);
    for k in 1..=20 {
        s.touch_move(7, 480.0 - 15.0 * k as f32, 600.0);
        s.frame(1.0 / 60.0);
    }
    s.touch_end(7, false);
    s.frame(1.0 / 60.0);
    let dragged = s.state();
    assert!(dragged.paddle_x.unwrap() < start.paddle_x.unwrap() - 100.0);
    assert_eq!(dragged.phase, Some("serving"));
    // A tap launches.
    s.touch_start(8, 200.0, 600.0);
    s.touch_end(8, false);
    s.frame(1.0 / 60.0);
    assert_eq!(s.state().phase, Some("playing"));
}

#[test]
fn touch_halves_flip_and_focus_loss_releases() {
    let options = SessionOptions {
        scene: "pinball".to_owned(),
        ..level_1()
    };
    let mut s = Session::new(&options).unwrap();
    s.touch_start(1, 100.0, 400.0);
    s.frame(1.0 / 60.0);
    let st = s.state();
    assert!(st.flippers[0].pressed && !st.flippers[1].pressed);
    s.touch_start(2, 900.0, 400.0);
    s.frame(1.0 / 60.0);
    assert!(s.state().flippers.iter().all(|f| f.pressed));
    // The page loses the focus: nothing stays held, no finger is left.
    s.blur();
    s.frame(1.0 / 60.0);
    let st = s.state();
    assert!(st.flippers.iter().all(|f| !f.pressed));
    assert_eq!(st.touches, 0);
    // Keys as the window apps: Z holds the left flippers, M mutes, H shows the help.
    assert!(s.key("KeyZ", true) && s.key("KeyM", true) && s.key("KeyH", true));
    assert!(!s.key("KeyQ", true));
    s.frame(1.0 / 60.0);
    let st = s.state();
    assert!(st.flippers[0].pressed && st.muted && st.help);
    assert_eq!(
        Some(Phase::Serving),
        s.app().game().pinball().map(|p| p.phase())
    );
}

/// `collide run FILE [--level L] --steps N`'s world hash: the map's scene with 100 balls of
/// radius 3 dropped at rest (seed 1), stepped.
fn cli_map_hash(file: &str, level: Option<&str>, steps: u64) -> u64 {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(file);
    let map = collide_maps::load(&path, level, &collide_maps::MapConfig::default()).unwrap();
    let mut scene = map.scene.clone();
    scene.spawn = Some(collide_world::SpawnDesc {
        count: 100,
        radius: 3.0,
        speed: 0.0,
        density: 1.0,
        seed: 1,
        region: None,
        surface: Surface::DEFAULT,
    });
    let mut world = collide_world::World::from_scene(&scene).unwrap();
    for _ in 0..steps {
        world.step();
    }
    world.state_hash()
}

#[test]
fn every_map_scene_runs_as_the_cli_runs_its_file() {
    let names = collide_web::maps::names();
    assert_eq!(names.len(), 5);
    for name in names {
        let options = SessionOptions {
            scene: name.clone(),
            ..level_1()
        };
        let (_, report) = run_frames(&options, 120, "").unwrap();
        assert_eq!(report.state.balls, 100, "{name}");
        assert!(
            report.state.steps >= 120,
            "{name}: {} steps",
            report.state.steps
        );
        // A map's sandbox is not recorded.
        assert_eq!(report.replay, "");
        let (file, level) = collide_web::maps::source(&name).unwrap();
        assert_eq!(
            report.state.world_hash,
            format!("{:016x}", cli_map_hash(file, level, report.state.steps)),
            "{name}"
        );
    }
}

#[test]
fn an_unknown_map_scene_is_refused_with_the_known_names() {
    let options = SessionOptions {
        scene: "ldtk:Nowhere".to_owned(),
        ..level_1()
    };
    let e = Session::new(&options).err().unwrap().to_string();
    assert!(
        e.contains("ldtk:Top") && e.contains("tiled:sticker_knight"),
        "{e}"
    );
}

/// The player's centre in a platformer session.
fn player_pos(s: &Session) -> collide_world::Vec2 {
    let game = s.app().game();
    let p = game.platformer().expect("a platformer session");
    game.world().character(p.player()).expect("the player").pos
}

#[test]
fn the_platformer_plays_the_embedded_levels_with_touch() {
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../assets/maps/ldtk/Typical_2D_platformer_example.ldtk");
    // The embedded levels are the file's, as `--platformer FILE` reads them.
    assert_eq!(
        collide_web::maps::platformer_levels().unwrap(),
        collide_game::PlatformerLevel::load_all(&file).unwrap()
    );
    let options = SessionOptions {
        scene: collide_web::maps::PLATFORMER.to_owned(),
        ..level_1()
    };
    let mut s = Session::new(&options).unwrap();
    assert_eq!(s.state().scene, "platformer");
    let (w, h) = s.size();
    let (w, h) = (w as f32, h as f32);
    // Land first, then run right on the run pad's right half for a second.
    for _ in 0..60 {
        s.frame(1.0 / 60.0);
    }
    let start = player_pos(&s);
    s.touch_start(1, 0.4 * w, 0.8 * h);
    for _ in 0..60 {
        s.frame(1.0 / 60.0);
    }
    let ran = player_pos(&s);
    assert!(ran.x > start.x + 20.0, "{start} -> {ran}");
    // A second finger on the right half's middle jumps.
    s.touch_start(2, 0.8 * w, 0.5 * h);
    let mut top = ran.y;
    for _ in 0..30 {
        s.frame(1.0 / 60.0);
        top = top.min(player_pos(&s).y);
    }
    assert!(top < ran.y - 10.0, "rose from {} to {top}", ran.y);
    s.touch_end(1, false);
    s.touch_end(2, false);
    // Landed again, sliding the run finger to the left quarter runs left.
    for _ in 0..60 {
        s.frame(1.0 / 60.0);
    }
    s.touch_start(3, 0.4 * w, 0.8 * h);
    s.touch_move(3, 0.1 * w, 0.8 * h);
    let before = player_pos(&s);
    for _ in 0..30 {
        s.frame(1.0 / 60.0);
    }
    let after = player_pos(&s);
    assert!(after.x < before.x - 10.0, "{before} -> {after}");
}

#[test]
fn the_platformers_scripted_run_wins_on_the_embedded_levels() {
    let r = collide_web::run_platformer_script().unwrap();
    assert_eq!(
        (r.phase, r.level, r.steps),
        (
            "victory",
            3,
            collide_game::platformer::sample_script_steps()
        )
    );
    assert!(r.score > 0, "{r:?}");
    // The same run again: the same bits.
    assert_eq!(collide_web::run_platformer_script().unwrap(), r);
}
