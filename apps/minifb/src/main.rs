//! `collide-minifb`: the lightweight collide frontend. BricksBeater level 1 (or any scene of
//! `--scene`) in a resizable minifb window. Glue only: flags, the frame loop, drawing and the
//! game all live in `collide-frontend`, `collide-render` and `collide-game`; this file maps
//! minifb's keys and mouse to `FrameInput` and presents the 0RGB buffer.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Parser;
use collide_frontend::{error_report, App, Args, Flow, FrameInput, FrontendError, Key, RgbImage};
use collide_render::Xrgb32Target;
use minifb::{KeyRepeat, MouseButton, MouseMode, Window, WindowOptions};

/// The window's title (CI captures the window by it).
const TITLE: &str = "collide - BricksBeater (minifb)";

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{}", error_report(&e));
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<(), FrontendError> {
    // Bad input fails here, before any window is opened.
    let mut app = App::new(args)?;
    let win_err = |e: minifb::Error| FrontendError::Window(e.to_string());
    let options = WindowOptions {
        resize: true,
        ..WindowOptions::default()
    };
    let mut window =
        Window::new(TITLE, args.width as usize, args.height as usize, options).map_err(win_err)?;
    window.set_target_fps(60);
    let mut buf: Vec<u32> = Vec::new();
    let mut last = Instant::now();
    while window.is_open() {
        let input = FrameInput {
            pressed: keys(window.get_keys_pressed(KeyRepeat::No)),
            held: keys(window.get_keys()),
            mouse: window.get_mouse_pos(MouseMode::Pass),
            mouse_down: window.get_mouse_down(MouseButton::Left),
        };
        let now = Instant::now();
        let wall_dt = (now - last).as_secs_f64();
        last = now;
        if app.frame(&input, wall_dt) == Flow::Quit {
            break;
        }
        let (w, h) = window.get_size();
        let (w, h) = (w.max(1), h.max(1));
        buf.resize(w * h, 0);
        let mut target =
            Xrgb32Target::new(&mut buf, w, h).map_err(|e| FrontendError::Window(e.to_string()))?;
        app.draw(&mut target);
        window.update_with_buffer(&buf, w, h).map_err(win_err)?;
        if let Some(finish) = app.presented() {
            if let Some(path) = &finish.screenshot {
                let img = RgbImage::from_xrgb(&buf, w, h)
                    .ok_or_else(|| FrontendError::Window("frame buffer size".to_owned()))?;
                img.write_png(path)?;
                println!("{}", app.screenshot_saved(path, w, h));
            } else {
                println!("collide: presented {} frames", app.frames_presented());
            }
            let until = Instant::now() + finish.linger;
            while window.is_open() && Instant::now() < until {
                window.update_with_buffer(&buf, w, h).map_err(win_err)?;
                std::thread::sleep(Duration::from_millis(15));
            }
            break;
        }
    }
    if let Some(line) = app.save_replay()? {
        println!("{line}");
    }
    Ok(())
}

/// minifb's keys in the frontends' terms.
fn keys(list: Vec<minifb::Key>) -> Vec<Key> {
    use minifb::Key as M;
    list.into_iter()
        .filter_map(|k| {
            Some(match k {
                M::Key0 | M::NumPad0 => Key::Digit(0),
                M::Key1 | M::NumPad1 => Key::Digit(1),
                M::Key2 | M::NumPad2 => Key::Digit(2),
                M::Key3 | M::NumPad3 => Key::Digit(3),
                M::Key4 | M::NumPad4 => Key::Digit(4),
                M::Key5 | M::NumPad5 => Key::Digit(5),
                M::Key6 | M::NumPad6 => Key::Digit(6),
                M::Key7 | M::NumPad7 => Key::Digit(7),
                M::Key8 | M::NumPad8 => Key::Digit(8),
                M::Key9 | M::NumPad9 => Key::Digit(9),
                M::Tab => Key::Tab,
                M::P => Key::P,
                M::Period | M::NumPadDot => Key::Period,
                M::LeftBracket => Key::LeftBracket,
                M::RightBracket => Key::RightBracket,
                M::D => Key::D,
                M::R => Key::R,
                M::Z => Key::Z,
                M::X => Key::X,
                M::Space => Key::Space,
                M::Escape => Key::Escape,
                M::Left => Key::Left,
                M::Right => Key::Right,
                _ => return None,
            })
        })
        .collect()
}
