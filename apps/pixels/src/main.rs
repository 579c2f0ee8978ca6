//! `collide-pixels`: the GPU collide frontend. BricksBeater level 1 (or any scene of
//! `--scene`) in a resizable winit window; the frame buffer is scaled to the window by the
//! GPU (pixels on wgpu) with its aspect kept. Glue only: flags, the frame loop, drawing and the
//! game all live in `collide-frontend`, `collide-render` and `collide-game`; this file maps
//! winit's events to `FrameInput` and presents the RGBA8 buffer, `keys` maps winit's keys and
//! `gpu` wraps pixels (set-up errors, the read-back of what the window shows).
//!
//! The frame buffer is `--width` × `--height` pixels; the window opens at that size in
//! logical pixels (so at twice as many physical pixels on a 2× display, scaled 2×).

mod gpu;
mod keys;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Parser;
use collide_frontend::{
    action, error_report, Action, App, Args, Finish, Flow, FrontendError, InputQueue, RgbImage,
};
use collide_render::Rgba8Target;
use winit::application::ApplicationHandler;
use winit::dpi::LogicalSize;
use winit::event::{ElementState, MouseButton, StartCause, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::window::{Window, WindowId};

use crate::gpu::{Gpu, GpuError};

/// The window's title (CI captures the window by it).
const TITLE: &str = "collide - BricksBeater (pixels)";

/// Why the program stopped.
#[derive(Debug, thiserror::Error)]
enum Error {
    /// The frontend's own errors: the scene, the window, a PNG file.
    #[error(transparent)]
    Frontend(#[from] FrontendError),
    /// The GPU renderer's.
    #[error(transparent)]
    Gpu(#[from] GpuError),
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{}", error_report(&e));
            ExitCode::FAILURE
        }
    }
}

fn run(args: Args) -> Result<(), Error> {
    // Bad input fails here, before any window is opened.
    let app = App::new(&args)?;
    let win_err = |e: &dyn std::fmt::Display| FrontendError::Window(e.to_string());
    let event_loop = EventLoop::new().map_err(|e| win_err(&e))?;
    let mut glue = Glue::new(args, app);
    event_loop.run_app(&mut glue).map_err(|e| win_err(&e))?;
    if let Some(line) = glue.app.save_replay()? {
        println!("{line}");
    }
    if let Some(line) = glue.app.finish_audio()? {
        println!("{line}");
    }
    match glue.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The event loop's state: the frontend's [`App`], the window and its GPU buffer, the input of
/// the frame being gathered.
struct Glue {
    args: Args,
    app: App,
    /// Created in `resumed`; the GPU buffer is dropped before it.
    window: Option<Arc<Window>>,
    gpu: Option<Gpu>,
    /// Key and button events since the last frame, as edges (a press and release within one
    /// frame still count), and the pointer.
    input: InputQueue,
    /// Minimised (size 0 on Windows, `_NET_WM_STATE_HIDDEN` on X11) or fully covered:
    /// nothing is rendered.
    zero_size: bool,
    minimized: bool,
    occluded: bool,
    /// A frame drawn but not presented yet (the surface was not ready): present it before
    /// advancing the game, so `--frames` runs stay exact.
    unpresented: bool,
    last: Instant,
    /// After the last frame of a `--frames` run: keep presenting it until then.
    linger_until: Option<Instant>,
    error: Option<Error>,
}

impl Glue {
    fn new(args: Args, app: App) -> Glue {
        Glue {
            args,
            app,
            window: None,
            gpu: None,
            input: InputQueue::new(),
            zero_size: false,
            minimized: false,
            occluded: false,
            unpresented: false,
            last: Instant::now(),
            linger_until: None,
            error: None,
        }
    }

    fn fail(&mut self, event_loop: &ActiveEventLoop, e: impl Into<Error>) {
        self.error.get_or_insert(e.into());
        event_loop.exit();
    }

    fn open(&mut self, event_loop: &ActiveEventLoop) -> Result<(), Error> {
        let (w, h) = (self.args.width, self.args.height);
        let attributes = Window::default_attributes()
            .with_title(TITLE)
            .with_inner_size(LogicalSize::new(f64::from(w), f64::from(h)));
        let window = event_loop
            .create_window(attributes)
            .map_err(|e| FrontendError::Window(e.to_string()))?;
        let window = Arc::new(window);
        self.window = Some(Arc::clone(&window));
        let gpu = Gpu::new(Arc::clone(&window), w, h)?;
        if std::env::var_os("COLLIDE_VERBOSE").is_some() {
            eprintln!("collide-pixels: adapter {}", gpu.adapter());
        }
        self.gpu = Some(gpu);
        // No sound card: one line on stderr, and the game runs silently.
        if let Some(warning) = self.app.open_audio_output() {
            eprintln!("{warning}");
        }
        self.last = Instant::now();
        window.request_redraw();
        Ok(())
    }

    fn hidden(&self) -> bool {
        self.zero_size || self.minimized || self.occluded
    }

    fn resized(&mut self, width: u32, height: u32) -> Result<(), Error> {
        self.zero_size = width == 0 || height == 0;
        if let (Some(gpu), false) = (&mut self.gpu, self.zero_size) {
            gpu.resize(width, height)?;
        }
        Ok(())
    }

    /// One frame: input → game → draw → present; the end of a `--frames` run.
    fn redraw(&mut self, event_loop: &ActiveEventLoop) -> Result<(), Error> {
        let hidden = self.hidden();
        let Some(gpu) = &mut self.gpu else {
            return Ok(());
        };
        if self.linger_until.is_some() {
            gpu.present()?;
            return Ok(());
        }
        if hidden {
            return Ok(());
        }
        if !self.unpresented {
            let now = Instant::now();
            let wall_dt = (now - self.last).as_secs_f64();
            self.last = now;
            let input = self.input.take_frame();
            if self.app.frame(&input, wall_dt) == Flow::Quit {
                event_loop.exit();
                return Ok(());
            }
            let (w, h) = gpu.buffer_size();
            let mut target = Rgba8Target::new(gpu.frame_mut(), w as usize, h as usize)
                .map_err(|e| FrontendError::Window(e.to_string()))?;
            self.app.draw(&mut target);
        }
        self.unpresented = !gpu.present()?;
        if self.unpresented {
            return Ok(());
        }
        if let Some(finish) = self.app.presented() {
            self.finish(event_loop, &finish)?;
        }
        Ok(())
    }

    /// The end of a `--frames` run: the screenshots and the marker line, then linger or exit.
    fn finish(&mut self, event_loop: &ActiveEventLoop, finish: &Finish) -> Result<(), Error> {
        let Some(gpu) = &self.gpu else {
            return Ok(());
        };
        if let Some(path) = &finish.screenshot {
            let (w, h) = gpu.buffer_size();
            let (w, h) = (w as usize, h as usize);
            let buffer = RgbImage::from_rgba8(gpu.frame(), w, h)
                .ok_or_else(|| FrontendError::Window("frame buffer size".to_owned()))?;
            let buffer_path = buffer_png(path);
            buffer.write_png(&buffer_path)?;
            println!("collide: buffer {} {w}x{h}", buffer_path.display());
            // What the window shows: the buffer presented again (the same picture), drawn
            // into a copy of the window's surface too and read back.
            let shown = gpu.present_and_read_back()?.ok_or_else(|| {
                GpuError::ReadBack("the window is hidden: no frame was presented".to_owned())
            })?;
            shown.write_png(path)?;
            println!(
                "{}",
                self.app.screenshot_saved(path, shown.width, shown.height)
            );
        } else {
            println!("collide: presented {} frames", self.app.frames_presented());
        }
        if finish.linger.is_zero() {
            event_loop.exit();
        } else {
            self.linger_until = Some(Instant::now() + finish.linger);
        }
        Ok(())
    }
}

/// Where `--screenshot FILE.png` saves the CPU buffer: `FILE.buffer.png`.
fn buffer_png(path: &Path) -> PathBuf {
    let stem = path
        .file_stem()
        .map_or_else(|| "screenshot".into(), |s| s.to_string_lossy().into_owned());
    path.with_file_name(format!("{stem}.buffer.png"))
}

impl ApplicationHandler for Glue {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.window.is_none() {
            if let Err(e) = self.open(event_loop) {
                self.fail(event_loop, e);
            }
        }
    }

    fn new_events(&mut self, _event_loop: &ActiveEventLoop, cause: StartCause) {
        if let (StartCause::ResumeTimeReached { .. }, Some(w)) = (cause, &self.window) {
            w.request_redraw();
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let result = match event {
            WindowEvent::CloseRequested => {
                event_loop.exit();
                Ok(())
            }
            WindowEvent::Resized(size) => self.resized(size.width, size.height),
            WindowEvent::ScaleFactorChanged { .. } => match &self.window {
                Some(w) => {
                    let size = w.inner_size();
                    self.resized(size.width, size.height)
                }
                None => Ok(()),
            },
            WindowEvent::Occluded(occluded) => {
                self.occluded = occluded;
                Ok(())
            }
            WindowEvent::Focused(false) => {
                self.input.release_all();
                Ok(())
            }
            WindowEvent::KeyboardInput { event, .. } => {
                if let Some(k) = keys::key(&event.logical_key, event.physical_key) {
                    let down = event.state == ElementState::Pressed;
                    self.input.key(k, down);
                    // Esc closes the window now, not at the next frame (which, hidden or
                    // waiting for vsync, may be far).
                    if down && action(k) == Some(Action::Quit) {
                        event_loop.exit();
                    }
                }
                Ok(())
            }
            WindowEvent::CursorMoved { position, .. } => {
                if let Some(gpu) = &self.gpu {
                    self.input
                        .pointer(Some(gpu.to_buffer(position.x, position.y)));
                }
                Ok(())
            }
            WindowEvent::MouseInput {
                state,
                button: MouseButton::Left,
                ..
            } => {
                self.input.button(state == ElementState::Pressed);
                Ok(())
            }
            WindowEvent::RedrawRequested => self.redraw(event_loop),
            _ => Ok(()),
        };
        if let Err(e) = result {
            self.fail(event_loop, e);
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let Some(window) = &self.window else {
            return;
        };
        if let Some(until) = self.linger_until {
            // Keep showing the last frame, about 60 times a second, until the time is up.
            let now = Instant::now();
            if now >= until {
                event_loop.exit();
            } else {
                let next = (now + Duration::from_millis(16)).min(until);
                event_loop.set_control_flow(ControlFlow::WaitUntil(next));
            }
            return;
        }
        // X11 sends no event when a window is minimised (the window manager unmaps it and
        // marks it hidden): ask once per frame.
        self.minimized = window.is_minimized() == Some(true);
        if self.hidden() {
            // Look again 5 times a second until the window shows again; the time it was
            // hidden is not game time.
            self.last = Instant::now();
            event_loop.set_control_flow(ControlFlow::WaitUntil(
                self.last + Duration::from_millis(200),
            ));
        } else {
            // Continuous rendering, paced by the vsync of the present.
            event_loop.set_control_flow(ControlFlow::Wait);
            window.request_redraw();
        }
    }

    fn exiting(&mut self, _event_loop: &ActiveEventLoop) {
        // The surface goes before the window it was made on.
        self.gpu = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_buffer_png_sits_beside_the_screenshot() {
        assert_eq!(
            buffer_png(Path::new("out/shot.png")),
            PathBuf::from("out/shot.buffer.png")
        );
        assert_eq!(
            buffer_png(Path::new("shot")),
            PathBuf::from("shot.buffer.png")
        );
    }
}
