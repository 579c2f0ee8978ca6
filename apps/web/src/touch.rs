//! Touch input (a phone or a tablet): fingers as the frontends' keys and pointer, so that a
//! touch screen plays every mode through the same [`InputQueue`] as a keyboard and a mouse.
//!
//! - A game with a paddle, and a sandbox: a finger **drags** the paddle (it is the pointer
//!   while it moves), and a **tap** (a touch that travels less than [`TAP_TRAVEL`] pixels
//!   before it lifts) is a click: it launches.
//! - A pinball table: a finger on the **left half** of the frame holds the left flippers (as
//!   the left Shift key), one on the **right half** the right flippers and the plunger (as the
//!   right Shift key and Space): held, the plunger is pulled; lifted, it shoots.
//! - The platformer: the **left half** is a run pad: a finger on its left half runs left (the
//!   left arrow), on its right half runs right, and sliding across switches the direction; a
//!   finger on the **right half** jumps (Space) in its middle half, climbs up (the up arrow) in
//!   its top quarter and climbs down or drops through a one-way platform (the down arrow) in
//!   its bottom quarter, held while the finger is down.
//!
//! Positions are in frame-buffer pixels, as [`InputQueue::pointer`] takes them.

use collide_frontend::{InputQueue, Key};

/// A touch that travels at most this far, frame-buffer pixels, before it lifts is a tap.
pub const TAP_TRAVEL: f32 = 12.0;

/// What a finger does, chosen when it touches down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// Steers the paddle; a tap launches.
    Steer,
    /// Holds these keys (a pinball table's buttons) until it lifts.
    Hold([Option<Key>; 2]),
    /// Holds a run key (the platformer's run pad), the one under the finger as it slides.
    Run(Key),
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Finger {
    id: i32,
    start: (f32, f32),
    travel: f32,
    role: Role,
}

/// How the touch screen is read: by the scene's mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TouchMode {
    /// Drag steers, tap launches (games with a paddle, sandboxes).
    Steer,
    /// Left and right halves hold the flippers, the right half the plunger too.
    Pinball,
    /// The left half runs left or right, the right half jumps and climbs.
    Platformer,
}

/// The run key of a finger at `x` on a frame `width` pixels wide (the run pad: the frame's
/// left half).
fn run_key(x: f32, width: usize) -> Key {
    if x < width as f32 / 4.0 {
        Key::Left
    } else {
        Key::Right
    }
}

/// The key of a finger at height `y` on the right half of a frame `height` pixels high: up
/// (climb) in the top quarter, down in the bottom quarter, else jump.
fn action_key(y: f32, height: usize) -> Key {
    let h = height as f32;
    if y < h / 4.0 {
        Key::Up
    } else if y >= 0.75 * h {
        Key::Down
    } else {
        Key::Space
    }
}

/// The fingers on the screen now.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Touches {
    fingers: Vec<Finger>,
    /// The frame's width at the last touch (the run pad's middle for a sliding finger).
    width: usize,
}

impl Touches {
    /// No finger down.
    #[must_use]
    pub fn new() -> Touches {
        Touches::default()
    }

    /// Fingers down now.
    #[must_use]
    pub fn count(&self) -> usize {
        self.fingers.len()
    }

    /// Finger `id` touched down at `at` in a frame of `size` (width, height) pixels. A second
    /// start of a finger already down is taken as a move.
    pub fn start(
        &mut self,
        id: i32,
        at: (f32, f32),
        mode: TouchMode,
        size: (usize, usize),
        queue: &mut InputQueue,
    ) {
        let (width, height) = size;
        if self.fingers.iter().any(|f| f.id == id) {
            self.moved(id, at, queue);
            return;
        }
        let role = match mode {
            TouchMode::Steer => {
                queue.pointer(Some(at));
                Role::Steer
            }
            TouchMode::Pinball => {
                let keys = if at.0 < width as f32 / 2.0 {
                    [Some(Key::LeftShift), None]
                } else {
                    [Some(Key::RightShift), Some(Key::Space)]
                };
                for k in keys.into_iter().flatten() {
                    queue.key(k, true);
                }
                Role::Hold(keys)
            }
            TouchMode::Platformer if at.0 < width as f32 / 2.0 => {
                let k = run_key(at.0, width);
                queue.key(k, true);
                Role::Run(k)
            }
            TouchMode::Platformer => {
                let k = action_key(at.1, height);
                queue.key(k, true);
                Role::Hold([Some(k), None])
            }
        };
        self.width = width;
        self.fingers.push(Finger {
            id,
            start: at,
            travel: 0.0,
            role,
        });
    }

    /// Finger `id` moved to `at` (a finger not down is ignored).
    pub fn moved(&mut self, id: i32, at: (f32, f32), queue: &mut InputQueue) {
        let Some(f) = self.fingers.iter_mut().find(|f| f.id == id) else {
            return;
        };
        let d = ((at.0 - f.start.0).powi(2) + (at.1 - f.start.1).powi(2)).sqrt();
        f.travel = f.travel.max(d);
        match f.role {
            Role::Steer => queue.pointer(Some(at)),
            Role::Run(old) => {
                let new = run_key(at.0, self.width);
                if new != old {
                    f.role = Role::Run(new);
                    queue.key(new, true);
                    self.release(old, queue);
                }
            }
            Role::Hold(_) => {}
        }
    }

    /// Releases `k` unless a finger still holds it.
    fn release(&self, k: Key, queue: &mut InputQueue) {
        let held = self.fingers.iter().any(|g| match g.role {
            Role::Hold(ks) => ks.contains(&Some(k)),
            Role::Run(r) => r == k,
            Role::Steer => false,
        });
        if !held {
            queue.key(k, false);
        }
    }

    /// Finger `id` lifted: a tap clicks (launches); a pinball finger releases its keys unless
    /// another finger holds them too. `cancelled` (the browser took the touch over): no tap.
    pub fn end(&mut self, id: i32, cancelled: bool, queue: &mut InputQueue) {
        let Some(i) = self.fingers.iter().position(|f| f.id == id) else {
            return;
        };
        let f = self.fingers.remove(i);
        match f.role {
            Role::Steer => {
                if !cancelled && f.travel < TAP_TRAVEL {
                    queue.button(true);
                    queue.button(false);
                }
            }
            Role::Hold(keys) => {
                for k in keys.into_iter().flatten() {
                    self.release(k, queue);
                }
            }
            Role::Run(k) => self.release(k, queue),
        }
    }

    /// Every finger forgotten (the page lost the focus: their ends may never come); the
    /// caller releases the keys with [`InputQueue::release_all`].
    pub fn clear(&mut self) {
        self.fingers.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tap_clicks_and_a_drag_steers_without_clicking() {
        let mut q = InputQueue::new();
        let mut t = Touches::new();
        t.start(1, (100.0, 500.0), TouchMode::Steer, (960, 720), &mut q);
        t.moved(1, (105.0, 503.0), &mut q);
        t.end(1, false, &mut q);
        let f = q.take_frame();
        assert_eq!((f.clicks, f.mouse), (1, Some((105.0, 503.0))));
        t.start(2, (100.0, 500.0), TouchMode::Steer, (960, 720), &mut q);
        t.moved(2, (400.0, 520.0), &mut q);
        // Back near the start: it travelled, so it is a drag.
        t.moved(2, (101.0, 500.0), &mut q);
        t.end(2, false, &mut q);
        let f = q.take_frame();
        assert_eq!((f.clicks, f.mouse), (0, Some((101.0, 500.0))));
        // A cancelled touch does not click.
        t.start(3, (10.0, 10.0), TouchMode::Steer, (960, 720), &mut q);
        t.end(3, true, &mut q);
        assert_eq!(q.take_frame().clicks, 0);
        assert_eq!(t.count(), 0);
    }

    #[test]
    fn halves_hold_the_flippers_and_the_right_one_the_plunger() {
        let mut q = InputQueue::new();
        let mut t = Touches::new();
        t.start(1, (100.0, 300.0), TouchMode::Pinball, (720, 960), &mut q);
        assert!(q.is_down(Key::LeftShift) && !q.is_down(Key::RightShift));
        t.start(2, (700.0, 300.0), TouchMode::Pinball, (720, 960), &mut q);
        t.start(3, (600.0, 100.0), TouchMode::Pinball, (720, 960), &mut q);
        assert!(q.is_down(Key::RightShift) && q.is_down(Key::Space));
        // Two fingers on the right: lifting one keeps the right flipper up.
        t.end(2, false, &mut q);
        assert!(q.is_down(Key::RightShift) && q.is_down(Key::Space));
        t.end(3, false, &mut q);
        assert!(!q.is_down(Key::RightShift) && !q.is_down(Key::Space));
        assert!(q.is_down(Key::LeftShift));
        // Moving a flipper finger changes nothing, and no click ever comes of it.
        t.moved(1, (500.0, 300.0), &mut q);
        t.end(1, false, &mut q);
        assert!(!q.is_down(Key::LeftShift));
        let f = q.take_frame();
        assert_eq!((f.clicks, f.mouse), (0, None));
        assert_eq!(f.pressed, vec![Key::LeftShift, Key::RightShift, Key::Space]);
    }

    #[test]
    fn unknown_fingers_and_repeated_starts_are_harmless() {
        let mut q = InputQueue::new();
        let mut t = Touches::new();
        t.moved(9, (1.0, 1.0), &mut q);
        t.end(9, false, &mut q);
        t.start(4, (50.0, 50.0), TouchMode::Pinball, (720, 960), &mut q);
        t.start(4, (60.0, 50.0), TouchMode::Pinball, (720, 960), &mut q);
        assert_eq!(t.count(), 1);
        t.clear();
        assert_eq!(t.count(), 0);
        assert_eq!(q.take_frame().pressed, vec![Key::LeftShift]);
    }

    #[test]
    fn the_platformers_run_pad_slides_and_the_right_half_jumps_and_climbs() {
        let mut q = InputQueue::new();
        let mut t = Touches::new();
        let size = (960, 720);
        // The left quarter runs left; sliding to the second quarter runs right.
        t.start(1, (100.0, 600.0), TouchMode::Platformer, size, &mut q);
        assert!(q.is_down(Key::Left) && !q.is_down(Key::Right));
        t.moved(1, (300.0, 600.0), &mut q);
        assert!(q.is_down(Key::Right) && !q.is_down(Key::Left));
        // A second finger on the right half's middle jumps while the first runs.
        t.start(2, (800.0, 400.0), TouchMode::Platformer, size, &mut q);
        assert!(q.is_down(Key::Space) && q.is_down(Key::Right));
        t.end(2, false, &mut q);
        assert!(!q.is_down(Key::Space) && q.is_down(Key::Right));
        // The top quarter climbs up, the bottom quarter down.
        t.start(3, (800.0, 100.0), TouchMode::Platformer, size, &mut q);
        assert!(q.is_down(Key::Up));
        t.end(3, false, &mut q);
        t.start(4, (800.0, 700.0), TouchMode::Platformer, size, &mut q);
        assert!(q.is_down(Key::Down) && !q.is_down(Key::Up));
        t.end(4, false, &mut q);
        t.end(1, false, &mut q);
        assert!([Key::Left, Key::Right, Key::Space, Key::Up, Key::Down]
            .iter()
            .all(|&k| !q.is_down(k)));
        // No click ever comes of the platformer's fingers.
        assert_eq!(q.take_frame().clicks, 0);
    }
}
