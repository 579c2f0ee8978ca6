//! The frame loop: window input mapped to the game, frames drawn, `--frames` counted.

use collide_core::Vec2;
use collide_frontend::{App, Args, Flow, FrameInput, InputQueue, Key, Layout, RgbImage};
use collide_game::Phase;
use collide_render::{Rgb, Style, Xrgb32Target};

const DT: f64 = 1.0 / 60.0;

fn app(args: Args) -> App {
    App::new(&args).unwrap()
}

fn paddle_x(app: &App) -> f64 {
    let g = app.game();
    g.world()
        .rect(g.breaker().unwrap().paddle())
        .unwrap()
        .aabb
        .center()
        .x
}

fn draw(app: &mut App, w: usize, h: usize) -> RgbImage {
    let mut buf = vec![0u32; w * h];
    app.draw(&mut Xrgb32Target::new(&mut buf, w, h).unwrap());
    RgbImage::from_xrgb(&buf, w, h).unwrap()
}

#[test]
fn the_mouse_drives_the_paddle_once_it_moves() {
    let mut a = app(Args::default());
    draw(&mut a, 960, 720);
    let cam = a.layout().camera;
    // The first reading only records where the pointer is: the paddle stays centred.
    let at = |x: f64| {
        let p = cam.to_pixel(Vec2::new(x, 0.0));
        Some((p.x as f32, 300.0))
    };
    let input = |m| FrameInput {
        mouse: m,
        ..FrameInput::default()
    };
    a.frame(&input(at(100.0)), DT);
    assert_eq!(paddle_x(&a), 229.5);
    // It moves: the paddle follows (to the pixel's precision).
    a.frame(&input(at(300.0)), DT);
    assert!((paddle_x(&a) - 300.0).abs() < 1.0, "{}", paddle_x(&a));
    // The arrow keys take over until the mouse moves again.
    let left = FrameInput {
        held: vec![Key::Left],
        mouse: at(300.0),
        ..FrameInput::default()
    };
    let before = paddle_x(&a);
    a.frame(&left, DT);
    // 480 units/s for 1/60 s: 8 units.
    assert!(
        (before - paddle_x(&a) - 8.0).abs() < 1e-6,
        "{}",
        paddle_x(&a)
    );
}

#[test]
fn a_click_launches_once_and_keys_become_commands() {
    let mut a = app(Args::default());
    let down = FrameInput {
        mouse_down: true,
        ..FrameInput::default()
    };
    a.frame(&down, DT);
    assert_eq!(a.phase(), Some(Phase::Playing));
    // Holding the button is not a second launch; pressing keys gives commands.
    let keys = FrameInput {
        mouse_down: true,
        pressed: vec![Key::D, Key::RightBracket, Key::P],
        ..FrameInput::default()
    };
    a.frame(&keys, DT);
    assert!(a.game().debug() && a.game().paused());
    assert_eq!(a.game().speed(), 2.0);
    let l5 = FrameInput {
        pressed: vec![Key::Digit(5)],
        ..FrameInput::default()
    };
    a.frame(&l5, DT);
    assert_eq!(a.game().breaker().unwrap().level(), Some(5));
    let tab = FrameInput {
        pressed: vec![Key::Tab],
        ..FrameInput::default()
    };
    a.frame(&tab, DT);
    assert_eq!(a.game().status().name, "seed000_room");
    let esc = FrameInput {
        pressed: vec![Key::Escape],
        ..FrameInput::default()
    };
    assert_eq!(a.frame(&esc, DT), Flow::Quit);
}

#[test]
fn frames_runs_are_fixed_step_and_end_with_a_screenshot_request() {
    let mut a = app(Args {
        frames: Some(3),
        screenshot: Some("x.png".into()),
        ..Args::default()
    });
    let mut finish = None;
    for _ in 0..3 {
        // Wall time does not matter in a --frames run: 1/60 s of game per frame.
        a.frame(&FrameInput::default(), 0.5);
        draw(&mut a, 320, 240);
        finish = a.presented();
    }
    let finish = finish.unwrap();
    assert_eq!(finish.screenshot, Some("x.png".into()));
    assert_eq!(a.game().world().steps(), 3);
    assert_eq!(
        a.screenshot_saved(std::path::Path::new("x.png"), 320, 240),
        "collide: screenshot x.png 320x240 after 3 frames"
    );
}

#[test]
fn a_frame_has_the_status_bar_the_world_and_the_help_bar() {
    let mut a = app(Args::default());
    a.frame(&FrameInput::default(), DT);
    let img = draw(&mut a, 960, 720);
    let layout = Layout::new(a.game().world().size(), 960, 720);
    assert_eq!((layout.font, layout.bar), (2, 24));
    // The bars' colour at their corners, the world's background inside the view.
    assert_eq!(img.rgb(959, 0), Some(collide_frontend::BAR));
    assert_eq!(img.rgb(0, 719), Some(collide_frontend::BAR));
    let inside = layout.camera.to_pixel(Vec2::new(100.0, 300.0));
    assert_eq!(
        img.rgb(inside.x as usize, inside.y as usize),
        Some(Style::default().background)
    );
    // Status text in the top bar, help text in the bottom one.
    let count = |y0: usize, y1: usize, c: Rgb| {
        (y0..y1)
            .flat_map(|y| (0..960).map(move |x| (x, y)))
            .filter(|&(x, y)| img.rgb(x, y) == Some(c))
            .count()
    };
    assert!(count(0, 24, Style::default().hud_text) > 200);
    assert!(count(696, 720, collide_frontend::HELP_TEXT) > 200);
    assert!(a
        .status_line()
        .starts_with("LEVEL 1/7 SCORE 0 LIVES 4 BRICKS 315 BALLS 1"));
    // Tiny frames: no bars, no panic.
    let small = draw(&mut a, 64, 64);
    assert_eq!(small.width, 64);
    assert_eq!(Layout::new(a.game().world().size(), 64, 64).bar, 0);
}

#[test]
fn the_debug_flag_and_autoplay() {
    let mut a = app(Args {
        debug: true,
        autoplay: true,
        ..Args::default()
    });
    assert!(a.game().debug());
    for _ in 0..120 {
        a.frame(&FrameInput::default(), DT);
    }
    // The autopilot launched: balls fly, bricks broke (level 1 rains balls by its bricks).
    assert_eq!(a.phase(), Some(Phase::Playing));
    assert!(a.game().status().score.unwrap() > 0);
    let img = draw(&mut a, 800, 600);
    // The debug panel's title is drawn in the HUD colour.
    let hud = Style::default().hud_text;
    assert!(
        img.data
            .chunks(3)
            .filter(|p| *p == [hud.r, hud.g, hud.b])
            .count()
            > 100
    );
}

#[test]
fn save_replay_records_the_session_and_it_verifies() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("frontend-replay");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("session.replay");
    let mut a = app(Args {
        autoplay: true,
        debug: true,
        frames: Some(240),
        save_replay: Some(file.clone()),
        ..Args::default()
    });
    // Keys on the way: restart at frame 100, level 3 at frame 150, a pause of 10 frames.
    for k in 0..240 {
        let pressed = match k {
            100 => vec![Key::R],
            150 => vec![Key::Digit(3)],
            200 | 210 => vec![Key::P],
            _ => Vec::new(),
        };
        let input = FrameInput {
            pressed,
            ..FrameInput::default()
        };
        assert_eq!(a.frame(&input, DT), Flow::Continue);
        draw(&mut a, 320, 240);
        if a.presented().is_some() {
            break;
        }
    }
    let steps = a.game().world().steps();
    let hash = a.game().state_hash();
    let line = a.save_replay().unwrap().unwrap();
    // 240 frames, 10 of them paused: 230 steps in all.
    assert_eq!(
        line,
        format!("collide: replay {} (230 steps)", file.display())
    );
    assert!(a.save_replay().unwrap().is_none());
    let replay = collide_game::Replay::read(&file).unwrap();
    let report = replay.verify().unwrap();
    // --debug's toggle (recorded from the start), R, 3, P, P.
    assert_eq!((report.steps, report.commands), (230, 5));
    assert_eq!(report.final_hash, hash);
    // The game is on level 3 since frame 150: 90 frames, 10 of them paused.
    assert_eq!(steps, 80);
    // Without the flag nothing is written.
    let mut b = app(Args::default());
    assert!(b.save_replay().unwrap().is_none());
}

/// Both frontends open their scene through `App::new`: a bad scene is a typed error whose
/// report names what was asked and, for a broken level, the file and the line.
#[test]
fn bad_scenes_are_errors_naming_the_scene_file_and_line() {
    let report = |scene: &str| {
        let args = Args {
            scene: Some(scene.to_owned()),
            ..Args::default()
        };
        match App::new(&args) {
            Ok(_) => panic!("{scene}: opened"),
            Err(e) => collide_frontend::error_report(&e),
        }
    };
    for scene in ["no_such_scene", "missing/level_9.dat", "broken.toml"] {
        let r = report(scene);
        assert!(
            r.starts_with("error: ") && r.contains(scene),
            "{scene}: {r}"
        );
    }
    let dir = std::env::temp_dir().join(format!("collide-frontend-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("ragged.dat");
    std::fs::write(&bad, "###\n#R\n").unwrap();
    let r = report(bad.to_str().unwrap());
    assert!(r.contains("ragged.dat") && r.contains("line 2"), "{r}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A press and release within one frame (a touchpad tap, a quick key stroke), recorded as
/// the window glue records events, still acts: the click launches, a key toggles, a tap of
/// an arrow moves the paddle.
#[test]
fn a_press_and_release_within_one_frame_is_not_lost() {
    let mut a = app(Args::default());
    let mut q = InputQueue::new();
    a.frame(&q.take_frame(), DT);
    assert_eq!(a.phase(), Some(Phase::Serving));
    // A tap of the left button between two frames: down and up before the frame is taken.
    q.button(true);
    q.button(false);
    let input = q.take_frame();
    assert!(input.clicks == 1 && input.mouse_down);
    a.frame(&input, DT);
    assert_eq!(a.phase(), Some(Phase::Playing), "the tap launched");
    // D, P and H pressed and released within one frame each: the debug view, the pause and
    // the help toggle on, then off again the same way.
    for on in [true, false] {
        for k in [Key::D, Key::P, Key::H] {
            q.key(k, true);
            q.key(k, false);
        }
        a.frame(&q.take_frame(), DT);
        assert_eq!(
            (a.game().debug(), a.game().paused(), a.help_shown()),
            (on, on, on)
        );
    }
    // Space tapped within a frame after the game ended: play again.
    let mut b = app(Args::default());
    b.frame(&FrameInput::default(), DT);
    q.key(Key::Space, true);
    q.key(Key::Space, false);
    b.frame(&q.take_frame(), DT);
    assert_eq!(b.phase(), Some(Phase::Playing), "Space tapped launched");
    // A tap of Left moves the paddle for that frame: 480 units/s for 1/60 s, 8 units.
    let mut c = app(Args::default());
    let x0 = paddle_x(&c);
    q.key(Key::Left, true);
    q.key(Key::Left, false);
    c.frame(&q.take_frame(), DT);
    assert!((x0 - paddle_x(&c) - 8.0).abs() < 1e-6, "{}", paddle_x(&c));
    c.frame(&q.take_frame(), DT);
    assert!(
        (x0 - paddle_x(&c) - 8.0).abs() < 1e-6,
        "released: no more motion"
    );
}

/// `--balls N`: a sandbox opens with exactly N balls (spawned, or the scene's own first N);
/// a game fires N balls per launch.
#[test]
fn balls_opens_the_scene_with_n_balls() {
    let open = |scene: &str, sandbox: bool, n: u32| {
        app(Args {
            scene: Some(scene.to_owned()),
            sandbox,
            balls: Some(n),
            ..Args::default()
        })
    };
    // The arena has a spawn (1000 balls by default); level 1 as a sandbox too.
    assert_eq!(open("arena", false, 50).game().world().balls().len(), 50);
    assert_eq!(open("level_1", true, 200).game().world().balls().len(), 200);
    assert_eq!(
        open("arena", false, 3000).game().world().balls().len(),
        3000
    );
    // The billiards have their own balls and no spawn: fewer keeps the first ones, more
    // adds random ones.
    let plain = app(Args {
        scene: Some("seed002_billiards".to_owned()),
        ..Args::default()
    });
    let own = plain.game().world().balls().len();
    assert!(own > 2);
    assert_eq!(
        open("seed002_billiards", false, 2)
            .game()
            .world()
            .balls()
            .len(),
        2
    );
    assert_eq!(
        open("seed002_billiards", false, own as u32 + 7)
            .game()
            .world()
            .balls()
            .len(),
        own + 7
    );
    // A game: level 2 (no rain) fires a volley of 25 balls, one every 5 steps. In a
    // --frames run each frame is one step: the balls in play plus those lost are 25.
    let mut g = app(Args {
        scene: Some("level_2".to_owned()),
        balls: Some(25),
        frames: Some(1000),
        ..Args::default()
    });
    assert_eq!(g.game().options().volley, 25);
    assert_eq!(g.game().world().balls().len(), 1, "one ball waits");
    let launch = FrameInput {
        pressed: vec![Key::Space],
        ..FrameInput::default()
    };
    g.frame(&launch, DT);
    let mut lost = 0;
    for _ in 0..24 * 5 {
        g.frame(&FrameInput::default(), DT);
        lost += g
            .game()
            .last_events()
            .iter()
            .filter(|e| matches!(e, collide_world::Event::BallLost { .. }))
            .count();
    }
    assert_eq!(g.game().world().steps(), 121);
    assert_eq!(g.game().breaker().unwrap().volley_left(), 0);
    assert_eq!(g.game().world().balls().len() + lost, 25);
}

/// H or F1 shows the help: the keys that apply. A scene without a paddle leaves out the
/// paddle, launch and aim keys; the overlay is drawn over the world.
#[test]
fn the_help_lists_the_keys_that_apply() {
    let game = app(Args::default());
    let mut demo = app(Args {
        scene: Some("seed002_billiards".to_owned()),
        ..Args::default()
    });
    assert!(game.has_paddle() && !demo.has_paddle());
    let with = game.help_lines();
    let without = demo.help_lines();
    assert_ne!(with, without);
    let mentions = |lines: &[String], what: &str| lines.iter().any(|l| l.contains(what));
    for keys in ["MOUSE, LEFT / RIGHT", "CLICK, SPACE", "Z / X"] {
        assert!(mentions(&with, keys), "{keys}");
        assert!(!mentions(&without, keys), "{keys}");
    }
    for keys in ["1 - 7", "TAB", "P ", "[ / ]", "ESC", "H, F1"] {
        assert!(mentions(&with, keys) && mentions(&without, keys), "{keys}");
    }
    assert_eq!(with.len(), without.len() + 3);
    // A frontend that cannot quit (a browser page) does not offer Esc, in the overlay or on
    // the help bar; everything else stays.
    let mut page = app(Args::default());
    page.set_can_quit(false);
    let page_lines = page.help_lines();
    assert!(!mentions(&page_lines, "ESC") && mentions(&page_lines, "H, F1"));
    assert_eq!(page_lines.len(), with.len() - 1);
    let bar = |a: &mut App| {
        let mut buf = vec![0u32; 960 * 720];
        a.draw(&mut Xrgb32Target::new(&mut buf, 960, 720).unwrap());
        buf[960 * 700..].to_vec()
    };
    let mut window = app(Args::default());
    assert_ne!(
        bar(&mut page),
        bar(&mut window),
        "the help bar drops ESC QUIT"
    );
    // Drawn: F1 on, the frame differs in the middle of the view; F1 again, the same frame.
    demo.game_mut().command(collide_game::Command::TogglePause);
    let off = draw(&mut demo, 960, 720);
    let f1 = FrameInput {
        pressed: vec![Key::F1],
        ..FrameInput::default()
    };
    demo.frame(&f1, DT);
    assert!(demo.help_shown());
    let on = draw(&mut demo, 960, 720);
    let changed = (200..520)
        .flat_map(|y| (0..960).map(move |x| (x, y)))
        .filter(|&(x, y)| on.rgb(x, y) != off.rgb(x, y))
        .count();
    assert!(changed > 5000, "{changed} pixels");
    demo.frame(&f1, DT);
    assert!(!demo.help_shown());
    // The paused billiards do not move: without the help the view is the same again (the
    // status bar's measured rates may differ).
    let again = draw(&mut demo, 960, 720);
    let view_differs = (24..696)
        .flat_map(|y| (0..960).map(move |x| (x, y)))
        .any(|(x, y)| again.rgb(x, y) != off.rgb(x, y));
    assert!(!view_differs);
}

/// After the game ended, the screen shows the summary of that game under the banner, and
/// after "play again" the new game at level 1 shows it while its first ball waits.
#[test]
fn the_game_over_screen_shows_the_last_games_summary() {
    let mut a = app(Args {
        scene: Some("level_2".to_owned()),
        ..Args::default()
    });
    // Launch, then keep the paddle at the left wall until every life is lost.
    let mut q = InputQueue::new();
    q.key(Key::Space, true);
    q.key(Key::Space, false);
    a.frame(&q.take_frame(), DT);
    let mut frames = 0;
    while a.phase() != Some(Phase::GameOver) {
        q.key(Key::Left, true);
        if a.phase() == Some(Phase::Serving) {
            q.key(Key::Space, true);
            q.key(Key::Space, false);
        }
        a.frame(&q.take_frame(), DT);
        frames += 1;
        assert!(frames < 20 * 60 * 60, "{:?}", a.game().status());
    }
    q.key(Key::Left, false);
    let summary = a.game().run();
    assert_eq!(summary.level, Some(2));
    assert_eq!(a.game().summary_line(), Some(summary.line()));
    let before = draw(&mut a, 960, 720);
    // Play again: level 1, and the same summary as the last game's, on screen.
    q.button(true);
    q.button(false);
    a.frame(&q.take_frame(), DT);
    assert_eq!(a.game().breaker().unwrap().level(), Some(1));
    assert_eq!(a.game().last_run(), Some(summary));
    let line = a.game().summary_line().unwrap();
    assert_eq!(line, format!("LAST GAME: {}", summary.line()));
    let after = draw(&mut a, 960, 720);
    assert_ne!(before.data, after.data);
    // The summary is painted in the HUD's text colour under the banner: more text pixels
    // than the banner alone draws.
    let hud = Style::default().hud_text;
    let text_pixels = |img: &RgbImage| {
        (24..696)
            .flat_map(|y| (0..960).map(move |x| (x, y)))
            .filter(|&(x, y)| img.rgb(x, y) == Some(hud))
            .count()
    };
    let mut fresh = app(Args::default());
    fresh.frame(&FrameInput::default(), DT);
    let banner_only = draw(&mut fresh, 960, 720);
    assert!(
        text_pixels(&after) > text_pixels(&banner_only) + 500,
        "{} vs {}",
        text_pixels(&after),
        text_pixels(&banner_only)
    );
}

// `--platformer FILE` reads the map: the `maps` feature (the window apps turn it on).
#[cfg(feature = "maps")]
#[test]
fn the_platformer_runs_on_the_held_keys_and_d_runs_instead_of_toggling_the_debug_view() {
    use collide_frontend::PLATFORMER_SAMPLE;
    let sample = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(PLATFORMER_SAMPLE);
    let mut a = app(Args {
        platformer: Some(sample),
        ..Args::default()
    });
    assert!(a.help_lines().iter().any(|l| l.contains("RUN")));
    let x = |a: &App| {
        let g = a.game();
        g.world()
            .character(g.platformer().unwrap().player())
            .unwrap()
            .pos
            .x
    };
    let start = x(&a);
    // Right held for 10 frames: 130 units/s for 1/6 s, on flat ground.
    for k in 0..10 {
        let pressed = if k == 0 { vec![Key::D] } else { vec![] };
        a.frame(
            &FrameInput {
                pressed,
                held: vec![Key::D],
                ..FrameInput::default()
            },
            DT,
        );
    }
    assert!(!a.game().debug(), "D runs in the platformer");
    let ran = x(&a) - start;
    assert!((ran - 130.0 / 6.0).abs() < 1e-9, "ran {ran}");
    // Left (A) brings it back the same way.
    for _ in 0..10 {
        a.frame(
            &FrameInput {
                held: vec![Key::A],
                ..FrameInput::default()
            },
            DT,
        );
    }
    assert!((x(&a) - start).abs() < 1e-9);
    assert!(a.status_line().starts_with("LEVEL 1/4"));
}

/// `--map` without `--balls` on a level with room for fewer than the default count (LDtk's
/// World_Level_3 holds 270 balls of radius 3): the balls that fit, the same as asking for that
/// many; a count asked for that does not fit is refused.
#[cfg(feature = "maps")]
#[test]
fn a_map_with_less_room_than_the_default_count_opens_with_the_balls_that_fit() {
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../assets/maps/ldtk/Typical_2D_platformer_example.ldtk");
    let args = Args {
        map: Some(file),
        level: Some("World_Level_3".to_owned()),
        ..Args::default()
    };
    let app = App::new(&args).unwrap();
    let n = app.game().world().balls().len();
    assert!((200..300).contains(&n), "{n} balls");
    let asked = App::new(&Args {
        balls: Some(n as u32),
        ..args.clone()
    })
    .unwrap();
    assert_eq!(
        asked.game().world().state_hash(),
        app.game().world().state_hash()
    );
    let e = App::new(&Args {
        balls: Some(300),
        ..args
    })
    .err()
    .expect("300 balls do not fit");
    assert!(format!("{e:?}").contains("SpawnImpossible"), "{e:?}");
    assert!(e.to_string().contains("World_Level_3"), "{e}");
}
