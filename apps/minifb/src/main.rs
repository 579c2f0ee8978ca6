//! `collide-minifb`: the lightweight collide frontend. BricksBeater level 1 (or any scene of
//! `--scene`) in a resizable minifb window. Glue only: flags, the frame loop, drawing and the
//! game all live in `collide-frontend`, `collide-render` and `collide-game`; this file feeds
//! minifb's key events and mouse readings into the shared `InputQueue` and presents the 0RGB
//! buffer.
//!
//! Input: keys arrive as events through minifb's input callback, each press and release in
//! order, so a key pressed and released within a frame is not lost. minifb has no such
//! callback for the mouse: the left button is a state, read after each batch of X events.
//! Between two frames the loop reads the window every millisecond instead of sleeping, so a
//! click is seen whenever its press and its release reach the program in different batches
//! (more than about a millisecond apart); a press and release in the same batch cannot be
//! told from no click by minifb (Space launches too). The same polling makes Esc and the
//! window's close button act within a millisecond or two.

use std::cell::RefCell;
use std::process::ExitCode;
use std::rc::Rc;
use std::time::{Duration, Instant};

use clap::Parser;
use collide_frontend::{
    action, error_report, Action, App, Args, Flow, FrontendError, InputQueue, Key, RgbImage,
};
use collide_render::Xrgb32Target;
use minifb::{MouseButton, MouseMode, Window, WindowOptions};

/// The window's title (CI captures the window by it).
const TITLE: &str = "collide - BricksBeater (minifb)";

/// Frames per second the loop aims at.
const FPS: f64 = 60.0;

/// How often the window's events are read between two frames.
const POLL: Duration = Duration::from_millis(1);

/// minifb's key events into the shared input queue.
struct KeyEvents(Rc<RefCell<InputQueue>>);

impl minifb::InputCallback for KeyEvents {
    fn add_char(&mut self, _uni_char: u32) {}

    fn set_key_state(&mut self, key: minifb::Key, down: bool) {
        if let Some(k) = map_key(key) {
            self.0.borrow_mut().key(k, down);
        }
    }
}

/// Reads the mouse (position and left button) and the focus into the queue; true when a key
/// or a click is waiting for the next frame, or the window was closed.
fn poll(window: &Window, queue: &RefCell<InputQueue>) -> bool {
    let mut q = queue.borrow_mut();
    if !window.is_active() {
        q.release_all();
    }
    q.pointer(window.get_mouse_pos(MouseMode::Pass));
    q.button(window.get_mouse_down(MouseButton::Left));
    q.has_news() || !window.is_open()
}

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
    // No sound card: one line on stderr, and the game runs silently.
    if let Some(warning) = app.open_audio_output() {
        eprintln!("{warning}");
    }
    // The loop paces itself (below), reading the window's events while it waits.
    window.set_target_fps(0);
    let queue = Rc::new(RefCell::new(InputQueue::new()));
    window.set_input_callback(Box::new(KeyEvents(Rc::clone(&queue))));
    let frame_time = Duration::from_secs_f64(1.0 / FPS);
    let mut buf: Vec<u32> = Vec::new();
    let mut last = Instant::now();
    let mut next = last;
    while window.is_open() {
        poll(&window, &queue);
        let input = queue.borrow_mut().take_frame();
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
            while window.is_open() && Instant::now() < until && !quit_pressed(&queue) {
                window.update_with_buffer(&buf, w, h).map_err(win_err)?;
                std::thread::sleep(Duration::from_millis(15));
            }
            break;
        }
        // Until the next frame is due: read the window's events every millisecond (on X11
        // `Window::update` only reads events and the pointer, it draws nothing); a key or a
        // click (Esc among them) starts the next frame at once.
        next += frame_time;
        if next + frame_time < Instant::now() {
            // More than a frame behind (a slow frame): do not try to catch up.
            next = Instant::now();
        }
        while !poll(&window, &queue) {
            let now = Instant::now();
            if now >= next {
                break;
            }
            std::thread::sleep(POLL.min(next - now));
            window.update();
        }
    }
    if let Some(line) = app.save_replay()? {
        println!("{line}");
    }
    if let Some(line) = app.finish_audio()? {
        println!("{line}");
    }
    Ok(())
}

/// Whether a key that quits (Esc) was pressed since the last frame.
fn quit_pressed(queue: &RefCell<InputQueue>) -> bool {
    queue
        .borrow()
        .pending()
        .iter()
        .any(|k| action(*k) == Some(Action::Quit))
}

/// A minifb key in the frontends' terms, `None` for keys the game does not use.
fn map_key(k: minifb::Key) -> Option<Key> {
    use minifb::Key as M;
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
        M::H => Key::H,
        M::F1 => Key::F1,
        M::M => Key::M,
        M::Space => Key::Space,
        M::Escape => Key::Escape,
        M::Left => Key::Left,
        M::Right => Key::Right,
        M::Up => Key::Up,
        M::Down => Key::Down,
        M::W => Key::W,
        M::A => Key::A,
        M::S => Key::S,
        M::Slash => Key::Slash,
        M::LeftShift => Key::LeftShift,
        M::RightShift => Key::RightShift,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use minifb::InputCallback;

    /// What minifb's callback reports for a tap within one frame (Space down and up, H down
    /// and up) reaches the frame as presses.
    #[test]
    fn key_events_reach_the_queue_as_edges() {
        let queue = Rc::new(RefCell::new(InputQueue::new()));
        let mut events = KeyEvents(Rc::clone(&queue));
        for k in [minifb::Key::Space, minifb::Key::H] {
            events.set_key_state(k, true);
            events.set_key_state(k, false);
        }
        events.set_key_state(minifb::Key::Q, true);
        let frame = queue.borrow_mut().take_frame();
        assert_eq!(frame.pressed, vec![Key::Space, Key::H]);
        events.set_key_state(minifb::Key::Escape, true);
        assert!(quit_pressed(&queue));
        assert_eq!(map_key(minifb::Key::F1), Some(Key::F1));
        assert_eq!(map_key(minifb::Key::M), Some(Key::M));
        assert_eq!(map_key(minifb::Key::NumPad7), Some(Key::Digit(7)));
    }
}
