//! The frame of `collide-minifb` checked pixel by pixel: level 1's bricks and walls in their
//! colours at their cells, the paddle, the ball waiting on it; the pinball table's bumpers,
//! flippers and plunger (`COLLIDE_PINBALL_SCREENSHOT` for the window's frame); the
//! platformer's player, chest and mobs (`COLLIDE_PLATFORMER_SCREENSHOT`).
//!
//! - With `COLLIDE_SCREENSHOT=FILE.png` (set by `.ci/gui-minifb.sh`, which ran the app in a
//!   real window under Xvfb with `--frames 30 --screenshot FILE.png`), the test checks that
//!   file, which must exist; with `COLLIDE_X11_CAPTURE=FILE.png` too (the same window grabbed
//!   by the X server, `import -window`), it checks that the window showed exactly the saved
//!   buffer.
//! - Without them (a plain `cargo test`, no display needed), it runs the same frame loop
//!   offscreen: `App` draws 30 frames into a 0RGB buffer as the app does, the buffer goes
//!   through the same PNG writer and reader, and the same checks run on it.

use std::path::{Path, PathBuf};
use std::process::Command;

use collide_frontend::{check_level_start, App, Args, FrameInput, RgbImage};
use collide_render::Xrgb32Target;

fn offscreen_frame(frames: u64, w: usize, h: usize) -> RgbImage {
    frame_of(
        Args {
            frames: Some(frames),
            width: w as u32,
            height: h as u32,
            ..Args::default()
        },
        w,
        h,
    )
}

/// The pinball table's frame after `frames` frames, offscreen.
fn pinball_frame(frames: u64, w: usize, h: usize) -> RgbImage {
    frame_of(
        Args {
            scene: Some("pinball".to_owned()),
            frames: Some(frames),
            width: w as u32,
            height: h as u32,
            ..Args::default()
        },
        w,
        h,
    )
}

/// The app's frame for `args` (its `--frames` run), drawn offscreen as the app does.
fn frame_of(args: Args, w: usize, h: usize) -> RgbImage {
    let mut app = App::new(&args).unwrap();
    let mut buf = vec![0u32; w * h];
    loop {
        app.frame(&FrameInput::default(), 1.0 / 60.0);
        app.draw(&mut Xrgb32Target::new(&mut buf, w, h).unwrap());
        if app.presented().is_some() {
            break;
        }
    }
    RgbImage::from_xrgb(&buf, w, h).unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("collide-minifb-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn level_1_frame_shows_its_bricks_paddle_and_ball() {
    if let Some(shot) = std::env::var_os("COLLIDE_SCREENSHOT") {
        let shot = Path::new(&shot);
        let img =
            RgbImage::read_png(shot).unwrap_or_else(|e| panic!("the window's screenshot: {e}"));
        let report =
            check_level_start(&img, 1).unwrap_or_else(|e| panic!("{}: {e}", shot.display()));
        // Level 1: 315 bricks and 247 walls, all seen.
        assert_eq!((report.bricks, report.walls), (315, 247));
        eprintln!("{}: {report:?}", shot.display());
        if let Some(cap) = std::env::var_os("COLLIDE_X11_CAPTURE") {
            let cap = RgbImage::read_png(Path::new(&cap)).unwrap();
            assert_eq!((cap.width, cap.height), (img.width, img.height));
            let differ = cap
                .data
                .chunks(3)
                .zip(img.data.chunks(3))
                .filter(|(a, b)| a != b)
                .count();
            assert_eq!(
                differ, 0,
                "the X server's capture differs from the saved buffer in {differ} pixels"
            );
        }
        return;
    }
    // Offscreen: the same frame loop, buffer format and PNG round trip.
    let img = offscreen_frame(30, 960, 720);
    let dir = temp_dir("offscreen");
    let path = dir.join("level_1.png");
    img.write_png(&path).unwrap();
    let back = RgbImage::read_png(&path).unwrap();
    assert_eq!(back, img);
    let report = check_level_start(&back, 1).unwrap();
    assert_eq!((report.bricks, report.walls), (315, 247));
    assert!(report.ball_px >= 10 && report.paddle_px as f64 >= 80.0 * 1.5);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_check_catches_a_wrong_frame() {
    // The checker must fail on frames that are not right: a brick painted over, a missing
    // paddle, level 2's frame checked as level 1.
    let img = offscreen_frame(1, 800, 600);
    assert!(check_level_start(&img, 1).is_ok());
    let layout = collide_frontend::Layout::new(
        App::new(&Args::default()).unwrap().game().world().size(),
        800,
        600,
    );
    let mut bad = img.clone();
    // Cell (2, 4) of level 1 is a C brick; paint its centre black.
    let p = layout
        .camera
        .to_pixel(collide_core::Vec2::new(2.0 * 9.0 + 4.5, 4.0 * 9.0 + 4.5));
    let i = (p.y as usize * bad.width + p.x as usize) * 3;
    bad.data[i..i + 3].copy_from_slice(&[0, 0, 0]);
    let e = check_level_start(&bad, 1).unwrap_err();
    assert!(e.starts_with("cell (2, 4)"), "{e}");
    let e = check_level_start(&img, 2).unwrap_err();
    assert!(e.starts_with("cell"), "{e}");
    let mut no_paddle = img.clone();
    for px in no_paddle.data.chunks_mut(3) {
        if px == [255, 160, 48] {
            px.copy_from_slice(&[12, 12, 20]);
        }
    }
    assert!(check_level_start(&no_paddle, 1)
        .unwrap_err()
        .starts_with("paddle"));
}

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_collide-minifb"));
    // Never open a window from these tests.
    c.env_remove("DISPLAY").env_remove("WAYLAND_DISPLAY");
    c
}

/// The binary reports a bad scene and bad flags on stderr with a failure status, never a
/// panic. Which scenes are refused, and how the report names the file and line, is tested
/// once for both frontends in `crates/frontend/tests/app.rs`.
#[test]
fn bad_input_is_a_clear_message_and_a_failure_not_a_panic() {
    for (args, want) in [
        (vec!["--scene", "no_such_scene"], "no_such_scene"),
        (vec!["--frames", "0"], "--frames"),
        (vec!["--screenshot", "x.png"], "--frames"),
    ] {
        let out = bin().args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn without_a_display_the_window_error_is_reported() {
    let out = bin().args(["--frames", "1"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.starts_with("error: window:"), "{err}");
}

#[test]
fn help_lists_the_flags_and_keys() {
    let out = bin().arg("--help").output().unwrap();
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    for flag in [
        "--scene",
        "--frames",
        "--screenshot",
        "--sandbox",
        "--autoplay",
        "--mute",
        "--record-audio",
        "M sound on/off",
        "Esc quit",
    ] {
        assert!(help.contains(flag), "{flag}: {help}");
    }
}

#[test]
fn the_pinball_table_shows_its_bumpers_flippers_and_plunger() {
    use collide_frontend::check_pinball_start;
    // The window's frame when `.ci/gui-minifb.sh` ran the table; else an offscreen frame of
    // the same loop (both after 30 frames: the flippers at rest, nothing shot).
    let img = match std::env::var_os("COLLIDE_PINBALL_SCREENSHOT") {
        Some(shot) => RgbImage::read_png(Path::new(&shot))
            .unwrap_or_else(|e| panic!("the window's screenshot: {e}")),
        None => pinball_frame(30, 960, 720),
    };
    let report = check_pinball_start(&img).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((report.bumpers, report.flippers), (3, 2));
    assert!(report.plunger);
    // The check fails on another frame (level 1's).
    assert!(check_pinball_start(&offscreen_frame(30, 960, 720)).is_err());
}

/// Pixels of exactly `c` in `img`.
fn count_color(img: &RgbImage, c: collide_render::Rgb) -> usize {
    img.data
        .chunks_exact(3)
        .filter(|p| p[0] == c.r && p[1] == c.g && p[2] == c.b)
        .count()
}

#[test]
fn the_platformer_shows_its_player_chest_and_mobs() {
    use collide_frontend::{CHEST, MOB, PLAYER};
    let img = match std::env::var_os("COLLIDE_PLATFORMER_SCREENSHOT") {
        Some(shot) => RgbImage::read_png(Path::new(&shot))
            .unwrap_or_else(|e| panic!("the window's screenshot: {e}")),
        None => {
            let sample = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../..")
                .join(collide_frontend::PLATFORMER_SAMPLE);
            frame_of(
                Args {
                    platformer: Some(sample),
                    frames: Some(30),
                    ..Args::default()
                },
                960,
                720,
            )
        }
    };
    // At 960 × 720 the first level (848 × 336 units) is drawn at 960/848 pixels a unit: the
    // player's 12 × 22 box is about 13 × 25 pixels, the chest's 32 × 24 about 36 × 27, the
    // three mobs' 20 × 20 about 22 × 22 each.
    let player = count_color(&img, PLAYER);
    let chest = count_color(&img, CHEST);
    let mobs = count_color(&img, MOB);
    assert!((250..=400).contains(&player), "player: {player} pixels");
    assert!((800..=1200).contains(&chest), "chest: {chest} pixels");
    assert!((3 * 400..=3 * 600).contains(&mobs), "mobs: {mobs} pixels");
}
