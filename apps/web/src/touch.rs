//! Touch input (a phone or a tablet): fingers as the frontends' keys and pointer, so that a
//! touch screen plays every mode through the same [`InputQueue`] as a keyboard and a mouse.
//!
//! - A game with a paddle, and a sandbox: a finger **drags** the paddle (it is the pointer
//!   while it moves), and a **tap** (a touch that travels less than [`TAP_TRAVEL`] pixels
//!   before it lifts) is a click: it launches.
//! - A pinball table: a finger on the **left half** of the frame holds the left flippers (as
//!   the left Shift key), one on the **right half** the right flippers and the plunger (as the
//!   right Shift key and Space): held, the plunger is pulled; lifted, it shoots.
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
}

/// The fingers on the screen now.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Touches {
    fingers: Vec<Finger>,
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

    /// Finger `id` touched down at `at` in a frame `width` pixels wide. A second start of a
    /// finger already down is taken as a move.
    pub fn start(
        &mut self,
        id: i32,
        at: (f32, f32),
        mode: TouchMode,
        width: usize,
        queue: &mut InputQueue,
    ) {
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
        };
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
        if f.role == Role::Steer {
            queue.pointer(Some(at));
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
                    let still = self
                        .fingers
                        .iter()
                        .any(|g| matches!(g.role, Role::Hold(ks) if ks.contains(&Some(k))));
                    if !still {
                        queue.key(k, false);
                    }
                }
            }
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
        t.start(1, (100.0, 500.0), TouchMode::Steer, 960, &mut q);
        t.moved(1, (105.0, 503.0), &mut q);
        t.end(1, false, &mut q);
        let f = q.take_frame();
        assert_eq!((f.clicks, f.mouse), (1, Some((105.0, 503.0))));
        t.start(2, (100.0, 500.0), TouchMode::Steer, 960, &mut q);
        t.moved(2, (400.0, 520.0), &mut q);
        // Back near the start: it travelled, so it is a drag.
        t.moved(2, (101.0, 500.0), &mut q);
        t.end(2, false, &mut q);
        let f = q.take_frame();
        assert_eq!((f.clicks, f.mouse), (0, Some((101.0, 500.0))));
        // A cancelled touch does not click.
        t.start(3, (10.0, 10.0), TouchMode::Steer, 960, &mut q);
        t.end(3, true, &mut q);
        assert_eq!(q.take_frame().clicks, 0);
        assert_eq!(t.count(), 0);
    }

    #[test]
    fn halves_hold_the_flippers_and_the_right_one_the_plunger() {
        let mut q = InputQueue::new();
        let mut t = Touches::new();
        t.start(1, (100.0, 300.0), TouchMode::Pinball, 720, &mut q);
        assert!(q.is_down(Key::LeftShift) && !q.is_down(Key::RightShift));
        t.start(2, (700.0, 300.0), TouchMode::Pinball, 720, &mut q);
        t.start(3, (600.0, 100.0), TouchMode::Pinball, 720, &mut q);
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
        t.start(4, (50.0, 50.0), TouchMode::Pinball, 720, &mut q);
        t.start(4, (60.0, 50.0), TouchMode::Pinball, 720, &mut q);
        assert_eq!(t.count(), 1);
        t.clear();
        assert_eq!(t.count(), 0);
        assert_eq!(q.take_frame().pressed, vec![Key::LeftShift]);
    }
}
