//! What the `collide-pixels` window shows, checked pixel by pixel.
//!
//! `.ci/gui-pixels.sh` runs the app in a real window under Xvfb (Mesa's lavapipe, Vulkan) with
//! `--frames 30 --screenshot FILE.png`, grabs the window through the X server at 1:1 and again
//! after resizing it, runs `collide-minifb` on the same scene for the same frames, and points
//! these variables at the files:
//!
//! - `COLLIDE_SCREENSHOT`: the app's read-back of what the window shows (`FILE.png`);
//! - `COLLIDE_BUFFER`: the CPU frame buffer it presented (`FILE.buffer.png`);
//! - `COLLIDE_X11_CAPTURE`: the X server's picture of the window (`import -window`), 1:1;
//! - `COLLIDE_X11_SCALED`: the X server's picture after the window was resized to another
//!   aspect (the buffer scaled by the GPU, black bars);
//! - `COLLIDE_HIDPI_SCREENSHOT`: the read-back of a run with winit's scale factor forced to 2
//!   (`WINIT_X11_SCALE_FACTOR=2`) and a 480 × 360 buffer: the window is 960 × 720 physical
//!   pixels and shows the buffer at exactly 2× (its buffer beside it, `*.buffer.png`);
//! - `COLLIDE_MINIFB_SCREENSHOT`: `collide-minifb`'s screenshot of the same frame;
//! - `COLLIDE_GUI=1`: a display is there (`DISPLAY`), so the no-adapter run can be tested.
//!
//! Each file named must exist and pass. Without the variables (a plain `cargo test`, no
//! display needed) each test checks the same things on frames drawn offscreen by the same
//! `App` into the same pixel formats, and checks that the checks catch wrong pictures.

use std::path::PathBuf;
use std::process::Command;

use collide_frontend::{check_level_start, App, Args, FrameInput, Layout, RgbImage};
use collide_render::{PixelRect, Rgba8Target, Xrgb32Target};

/// Level 1: 315 bricks and 247 wall cells.
const LEVEL_1_CELLS: (usize, usize) = (315, 247);

fn env_png(var: &str) -> Option<(PathBuf, RgbImage)> {
    let path = PathBuf::from(std::env::var_os(var)?);
    let img = RgbImage::read_png(&path).unwrap_or_else(|e| panic!("{var}: {e}"));
    Some((path, img))
}

fn args(frames: u64, w: usize, h: usize) -> Args {
    Args {
        frames: Some(frames),
        width: w as u32,
        height: h as u32,
        ..Args::default()
    }
}

/// The app's frame loop offscreen, drawing into an RGBA8 buffer as `collide-pixels` does.
fn offscreen_rgba(frames: u64, w: usize, h: usize) -> RgbImage {
    offscreen_rgba_of(&args(frames, w, h), w, h)
}

/// [`offscreen_rgba`] for the app's arguments `a` (of a `w` × `h` window).
fn offscreen_rgba_of(a: &Args, w: usize, h: usize) -> RgbImage {
    let mut app = App::new(a).unwrap();
    let mut buf = vec![0u8; w * h * 4];
    loop {
        app.frame(&FrameInput::default(), 1.0 / 60.0);
        app.draw(&mut Rgba8Target::new(&mut buf, w, h).unwrap());
        if app.presented().is_some() {
            break;
        }
    }
    RgbImage::from_rgba8(&buf, w, h).unwrap()
}

/// The same loop drawing into a 0RGB buffer as `collide-minifb` does.
fn offscreen_xrgb(frames: u64, w: usize, h: usize) -> RgbImage {
    let mut app = App::new(&args(frames, w, h)).unwrap();
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

/// The pixels showing the world (between the status and help bars, letterboxed) in a
/// `w × h` frame of level 1.
fn world_area(w: usize, h: usize) -> PixelRect {
    let app = App::new(&Args::default()).unwrap();
    let size = app.game().world().size();
    let layout = Layout::new(size, w, h);
    layout.camera.pixels_of(
        &collide_core::Aabb::new(collide_core::Vec2::ZERO, size),
        w,
        h,
    )
}

/// Pixels that differ between two images of one size, inside `area` and outside it.
fn differing(a: &RgbImage, b: &RgbImage, area: &PixelRect) -> (usize, usize) {
    assert_eq!((a.width, a.height), (b.width, b.height), "image sizes");
    let (mut inside, mut outside) = (0, 0);
    for y in 0..a.height {
        for x in 0..a.width {
            if a.rgb(x, y) != b.rgb(x, y) {
                if (area.x0..area.x1).contains(&x) && (area.y0..area.y1).contains(&y) {
                    inside += 1;
                } else {
                    outside += 1;
                }
            }
        }
    }
    (inside, outside)
}

/// What [`check_scaled`] found.
#[derive(Debug)]
struct Scaled {
    /// The scale factor of the buffer in the window.
    scale: f64,
    /// Buffer pixels inside a uniform 3 × 3 patch, found in their colour at their scaled
    /// place.
    matched: usize,
    /// Pixels of the black bars around the scaled buffer.
    bar_px: usize,
}

/// Checks that `window` shows `buffer` scaled by `min(W / w, H / h)` (the aspect kept),
/// centred, with black bars around it: every buffer pixel whose 3 × 3 neighbourhood has one
/// colour appears in that colour at the centre of its scaled place (whatever the filter does
/// at colour edges), and every pixel more than one pixel outside the scaled rectangle is
/// black.
fn check_scaled(buffer: &RgbImage, window: &RgbImage) -> Result<Scaled, String> {
    let (bw, bh) = (buffer.width as f64, buffer.height as f64);
    let (ww, wh) = (window.width as f64, window.height as f64);
    let scale = (ww / bw).min(wh / bh);
    let (sw, sh) = (bw * scale, bh * scale);
    let (ox, oy) = ((ww - sw) / 2.0, (wh - sh) / 2.0);
    let mut bar_px = 0;
    for y in 0..window.height {
        for x in 0..window.width {
            let (fx, fy) = (x as f64 + 0.5, y as f64 + 0.5);
            let outside =
                fx < ox - 1.0 || fx > ox + sw + 1.0 || fy < oy - 1.0 || fy > oy + sh + 1.0;
            if outside {
                let c = window.rgb(x, y).unwrap();
                if (c.r, c.g, c.b) != (0, 0, 0) {
                    return Err(format!("bar pixel ({x}, {y}) is {c:?}, want black"));
                }
                bar_px += 1;
            }
        }
    }
    let mut matched = 0;
    for y in 1..buffer.height - 1 {
        for x in 1..buffer.width - 1 {
            let c = buffer.rgb(x, y);
            let uniform =
                (y - 1..=y + 1).all(|ny| (x - 1..=x + 1).all(|nx| buffer.rgb(nx, ny) == c));
            if !uniform {
                continue;
            }
            let wx = (ox + (x as f64 + 0.5) * scale).floor() as usize;
            let wy = (oy + (y as f64 + 0.5) * scale).floor() as usize;
            let got = window.rgb(wx, wy);
            if got != c {
                return Err(format!(
                    "buffer pixel ({x}, {y}) {c:?} shows as {got:?} at window pixel ({wx}, {wy})"
                ));
            }
            matched += 1;
        }
    }
    Ok(Scaled {
        scale,
        matched,
        bar_px,
    })
}

/// `img` scaled to `w × h` by nearest neighbour with factors `sx`, `sy`, centred, on black.
fn scale_nearest(img: &RgbImage, w: usize, h: usize, sx: f64, sy: f64) -> RgbImage {
    let (ox, oy) = (
        (w as f64 - img.width as f64 * sx) / 2.0,
        (h as f64 - img.height as f64 * sy) / 2.0,
    );
    let mut data = Vec::with_capacity(w * h * 3);
    for y in 0..h {
        for x in 0..w {
            let bx = ((x as f64 + 0.5 - ox) / sx).floor();
            let by = ((y as f64 + 0.5 - oy) / sy).floor();
            let c = if bx >= 0.0 && by >= 0.0 {
                img.rgb(bx as usize, by as usize)
            } else {
                None
            };
            let c = c.map_or([0, 0, 0], |c| [c.r, c.g, c.b]);
            data.extend(c);
        }
    }
    RgbImage {
        width: w,
        height: h,
        data,
    }
}

#[test]
fn level_1_window_shows_its_bricks_paddle_and_ball() {
    if let Some((shot, img)) = env_png("COLLIDE_SCREENSHOT") {
        let report =
            check_level_start(&img, 1).unwrap_or_else(|e| panic!("{}: {e}", shot.display()));
        assert_eq!((report.bricks, report.walls), LEVEL_1_CELLS);
        eprintln!("window read-back {}: {report:?}", shot.display());
        let (buffer_path, buffer) = env_png("COLLIDE_BUFFER").expect("COLLIDE_BUFFER is not set");
        let report = check_level_start(&buffer, 1)
            .unwrap_or_else(|e| panic!("{}: {e}", buffer_path.display()));
        assert_eq!((report.bricks, report.walls), LEVEL_1_CELLS);
        // At 1:1 the GPU's scaling pass must give back exactly the buffer.
        let everything = PixelRect {
            x0: 0,
            y0: 0,
            x1: img.width,
            y1: img.height,
        };
        assert_eq!(
            differing(&img, &buffer, &everything),
            (0, 0),
            "the window's read-back differs from the presented buffer"
        );
        if let Some((cap_path, cap)) = env_png("COLLIDE_X11_CAPTURE") {
            assert_eq!(
                differing(&cap, &img, &everything),
                (0, 0),
                "the X server's capture {} differs from the read-back",
                cap_path.display()
            );
            eprintln!(
                "X server capture {}: equal to the read-back and the buffer",
                cap_path.display()
            );
        }
        return;
    }
    // Offscreen: the same frame loop, buffer format and PNG round trip.
    let img = offscreen_rgba(30, 960, 720);
    let dir = temp_dir("offscreen");
    let path = dir.join("level_1.png");
    img.write_png(&path).unwrap();
    let back = RgbImage::read_png(&path).unwrap();
    assert_eq!(back, img);
    let report = check_level_start(&back, 1).unwrap();
    assert_eq!((report.bricks, report.walls), LEVEL_1_CELLS);
    // The paddle is 80 units wide, at 960 × 720 the camera's scale is above 1.5.
    assert!(report.ball_px >= 10 && report.paddle_px as f64 >= 80.0 * 1.5);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn minifb_and_pixels_paint_the_same_world() {
    if let Some((mpath, minifb)) = env_png("COLLIDE_MINIFB_SCREENSHOT") {
        let (_, buffer) = env_png("COLLIDE_BUFFER").expect("COLLIDE_BUFFER is not set");
        let area = world_area(buffer.width, buffer.height);
        let (inside, outside) = differing(&minifb, &buffer, &area);
        assert_eq!(
            inside,
            0,
            "{}: {inside} pixels of the world area differ from the pixels app's buffer",
            mpath.display()
        );
        let world_px = (area.x1 - area.x0) * (area.y1 - area.y0);
        eprintln!(
            "minifb vs pixels buffer: world area {}x{} ({world_px} px) identical; \
             {outside} pixels differ outside it (the measured FPS in the status bar)",
            area.x1 - area.x0,
            area.y1 - area.y0
        );
        if let Some((_, shown)) = env_png("COLLIDE_SCREENSHOT") {
            assert_eq!(differing(&minifb, &shown, &area).0, 0, "vs the read-back");
        }
        if let Some((_, cap)) = env_png("COLLIDE_X11_CAPTURE") {
            assert_eq!(differing(&minifb, &cap, &area).0, 0, "vs the X capture");
        }
        return;
    }
    // Offscreen: with the same input and frame time, the two pixel formats hold the same
    // picture, bars included.
    let (w, h) = (960, 720);
    let rgba = offscreen_rgba(30, w, h);
    let xrgb = offscreen_xrgb(30, w, h);
    let area = world_area(w, h);
    assert!(
        area.x1 - area.x0 > 700 && area.y1 - area.y0 > 600,
        "{area:?}"
    );
    assert_eq!(differing(&rgba, &xrgb, &area), (0, 0));
    // And the comparison sees one wrong pixel in the world, and one in the status bar.
    let mut wrong = xrgb.clone();
    let i = ((area.y0 + 100) * w + area.x0 + 100) * 3;
    wrong.data[i] ^= 1;
    wrong.data[(2 * w + 2) * 3] ^= 1;
    assert_eq!(differing(&rgba, &wrong, &area), (1, 1));
}

#[test]
fn the_resized_window_shows_the_buffer_scaled_with_its_aspect() {
    if let Some((path, shown)) = env_png("COLLIDE_HIDPI_SCREENSHOT") {
        let buffer_path = path.with_file_name(format!(
            "{}.buffer.png",
            path.file_stem().unwrap().to_string_lossy()
        ));
        let buffer = RgbImage::read_png(&buffer_path).unwrap();
        let report = check_scaled(&buffer, &shown).unwrap_or_else(|e| {
            panic!("{} ({}x{}): {e}", path.display(), shown.width, shown.height)
        });
        assert_eq!(report.scale, 2.0, "{report:?}");
        assert_eq!(report.bar_px, 0, "{report:?}");
        eprintln!(
            "scale factor 2: {} ({}x{}) shows {} ({}x{}) at 2x: {report:?}",
            path.display(),
            shown.width,
            shown.height,
            buffer_path.display(),
            buffer.width,
            buffer.height
        );
    }
    if let Some((path, scaled)) = env_png("COLLIDE_X11_SCALED") {
        let (_, buffer) = env_png("COLLIDE_BUFFER").expect("COLLIDE_BUFFER is not set");
        let report = check_scaled(&buffer, &scaled).unwrap_or_else(|e| {
            panic!(
                "{} ({}x{}): {e}",
                path.display(),
                scaled.width,
                scaled.height
            )
        });
        // Most of the frame is uniform patches (background, bricks, bars).
        assert!(
            report.matched > buffer.width * buffer.height / 2,
            "{report:?}"
        );
        eprintln!(
            "X server capture after the resize {} ({}x{}): {report:?}",
            path.display(),
            scaled.width,
            scaled.height
        );
        return;
    }
    // Offscreen: the check accepts the buffer scaled with its aspect kept, up and down, and
    // refuses it stretched or off centre.
    let buffer = offscreen_rgba(30, 480, 360);
    let up = scale_nearest(&buffer, 1280, 800, 800.0 / 360.0, 800.0 / 360.0);
    let report = check_scaled(&buffer, &up).unwrap();
    assert!((report.scale - 800.0 / 360.0).abs() < 1e-9);
    assert!(report.bar_px >= 2 * 100 * 800, "{report:?}");
    assert!(report.matched > 480 * 360 / 2, "{report:?}");
    let down = scale_nearest(&buffer, 400, 200, 200.0 / 360.0, 200.0 / 360.0);
    assert!(check_scaled(&buffer, &down).is_ok());
    let stretched = scale_nearest(&buffer, 1280, 800, 1280.0 / 480.0, 800.0 / 360.0);
    assert!(check_scaled(&buffer, &stretched).is_err());
    let too_small = scale_nearest(&buffer, 1280, 800, 2.0, 2.0);
    assert!(check_scaled(&buffer, &too_small).is_err());
    // Right scale, 8 pixels to the right.
    let mut shifted = up.clone();
    shifted.data.rotate_right(3 * 8);
    assert!(check_scaled(&buffer, &shifted).is_err());
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("collide-pixels-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_collide-pixels"))
}

/// The binary with no display: no window can open.
fn bin_headless() -> Command {
    let mut c = bin();
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
        (vec!["--width", "10"], "--width"),
    ] {
        let out = bin_headless().args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn without_a_display_the_window_error_is_reported() {
    let out = bin_headless().args(["--frames", "1"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.starts_with("error: window:"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn without_a_gpu_adapter_the_error_is_clear() {
    if std::env::var_os("COLLIDE_GUI").is_none() {
        // No display here: the same binary must already stop at the window, cleanly, before
        // any GPU work (the no-adapter run needs a display; CI's GUI step sets COLLIDE_GUI).
        let out = bin_headless().args(["--frames", "1"]).output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        assert!(!String::from_utf8_lossy(&out.stderr).contains("GPU"));
        return;
    }
    assert!(
        std::env::var_os("DISPLAY").is_some(),
        "COLLIDE_GUI is set but there is no DISPLAY"
    );
    // A display but no Vulkan driver (the loader is pointed at a file that does not exist):
    // no adapter and no surface can be made.
    let out = bin()
        .args(["--frames", "3"])
        .env("WGPU_BACKEND", "vulkan")
        .env("VK_DRIVER_FILES", "/nonexistent/collide_icd.json")
        .env("VK_ICD_FILENAMES", "/nonexistent/collide_icd.json")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with("error: GPU: cannot set up the renderer"),
        "{err}"
    );
    assert!(err.contains("mesa-vulkan-drivers"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    eprintln!("no adapter: {err}");
}

#[test]
fn help_lists_the_same_flags_and_keys_as_minifb() {
    let out = bin_headless().arg("--help").output().unwrap();
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    for flag in [
        "--scene",
        "--frames",
        "--screenshot",
        "--sandbox",
        "--autoplay",
        "--debug",
        "--linger",
        "--width",
        "Esc quit",
    ] {
        assert!(help.contains(flag), "{flag}: {help}");
    }
}

#[test]
fn the_pinball_window_shows_its_bumpers_flippers_and_plunger() {
    use collide_frontend::check_pinball_start;
    // The window's frame when `.ci/gui-pixels.sh` ran the table (30 frames, flippers at rest).
    let Some((shot, img)) = env_png("COLLIDE_PINBALL_SCREENSHOT") else {
        // Offscreen: the same frame loop into an RGBA8 buffer.
        let a = Args {
            scene: Some("pinball".to_owned()),
            ..args(30, 960, 720)
        };
        let report = check_pinball_start(&offscreen_rgba_of(&a, 960, 720)).unwrap();
        assert_eq!((report.bumpers, report.flippers), (3, 2));
        return;
    };
    let report = check_pinball_start(&img).unwrap_or_else(|e| panic!("{}: {e}", shot.display()));
    assert_eq!((report.bumpers, report.flippers), (3, 2));
    assert!(report.plunger);
}
