//! [`InputQueue`]: the one input path of every frontend. The window glue records each key and
//! button event as it arrives (an edge: down or up); [`InputQueue::take_frame`] turns what
//! arrived since the last frame into that frame's [`FrameInput`]. A press is kept as an edge,
//! so a press and release that both arrive within one frame (a tap on a touchpad, a quick
//! key stroke) still count: the key is in [`FrameInput::pressed`] (and in
//! [`FrameInput::held`] for that one frame), the click in [`FrameInput::clicks`].

use crate::app::FrameInput;
use crate::keys::Key;

/// Window input gathered between two frames.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct InputQueue {
    /// Keys that went down since the last frame, in order (a key already down is not
    /// pressed again: no auto-repeat).
    pressed: Vec<Key>,
    /// Keys down now.
    down: Vec<Key>,
    /// Keys that went down since the last frame (kept after their release, so that they
    /// are held for at least one frame).
    tapped: Vec<Key>,
    /// Left-button presses since the last frame.
    clicks: u32,
    /// Whether the left button is down now.
    button: bool,
    /// The pointer in frame-buffer pixels.
    mouse: Option<(f32, f32)>,
}

impl InputQueue {
    /// An empty queue: no key or button down, no pointer.
    #[must_use]
    pub fn new() -> InputQueue {
        InputQueue::default()
    }

    /// A key event: `down` true for a press, false for a release. A press of a key that is
    /// already down (auto-repeat) and a release of a key that is not down change nothing.
    pub fn key(&mut self, key: Key, down: bool) {
        if down {
            if !self.down.contains(&key) {
                self.down.push(key);
                self.pressed.push(key);
                if !self.tapped.contains(&key) {
                    self.tapped.push(key);
                }
            }
        } else {
            self.down.retain(|k| *k != key);
        }
    }

    /// A left-button event: `down` true for a press, false for a release. A press while the
    /// button is already down is not a second click.
    pub fn button(&mut self, down: bool) {
        if down && !self.button {
            self.clicks = self.clicks.saturating_add(1);
        }
        self.button = down;
    }

    /// The pointer moved to `(x, y)` in frame-buffer pixels (`None`: it left the window or
    /// its place is unknown).
    pub fn pointer(&mut self, at: Option<(f32, f32)>) {
        self.mouse = at;
    }

    /// Every key and the button released (the window lost the focus and will not report
    /// the releases). Presses not yet taken stay.
    pub fn release_all(&mut self) {
        self.down.clear();
        self.button = false;
    }

    /// The keys pressed since the last frame, in order.
    #[must_use]
    pub fn pending(&self) -> &[Key] {
        &self.pressed
    }

    /// Whether a key was pressed or the button clicked since the last frame: a frontend
    /// waiting for its next frame can start it at once.
    #[must_use]
    pub fn has_news(&self) -> bool {
        !self.pressed.is_empty() || self.clicks > 0
    }

    /// Whether `key` is down now.
    #[must_use]
    pub fn is_down(&self, key: Key) -> bool {
        self.down.contains(&key)
    }

    /// The input of the frame that ends now, and a fresh start for the next one: the keys
    /// pressed since the last frame in order; the keys held (down now, or pressed since the
    /// last frame even if already released); the pointer; the button (down now, or clicked
    /// since the last frame); the clicks.
    pub fn take_frame(&mut self) -> FrameInput {
        let mut held = self.down.clone();
        for k in self.tapped.drain(..) {
            if !held.contains(&k) {
                held.push(k);
            }
        }
        let clicks = std::mem::take(&mut self.clicks);
        FrameInput {
            pressed: std::mem::take(&mut self.pressed),
            held,
            mouse: self.mouse,
            mouse_down: self.button || clicks > 0,
            clicks,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tap_inside_one_frame_is_a_press_held_for_that_frame() {
        let mut q = InputQueue::new();
        q.key(Key::Left, true);
        q.key(Key::Left, false);
        q.key(Key::Space, true);
        q.key(Key::Space, false);
        assert!(q.has_news());
        assert_eq!(q.pending(), &[Key::Left, Key::Space]);
        let f = q.take_frame();
        assert!(!q.has_news());
        assert_eq!(f.pressed, vec![Key::Left, Key::Space]);
        assert_eq!(f.held, vec![Key::Left, Key::Space]);
        // The next frame: nothing.
        assert_eq!(q.take_frame(), FrameInput::default());
    }

    #[test]
    fn auto_repeat_is_not_a_press_and_held_keys_stay_held() {
        let mut q = InputQueue::new();
        q.key(Key::D, true);
        q.key(Key::D, true);
        let f = q.take_frame();
        assert_eq!((f.pressed, f.held), (vec![Key::D], vec![Key::D]));
        q.key(Key::D, true);
        let f = q.take_frame();
        assert_eq!((f.pressed, f.held), (vec![], vec![Key::D]));
        q.key(Key::D, false);
        assert_eq!(q.take_frame().held, vec![]);
        // Released and pressed again within one frame: a new press.
        q.key(Key::P, true);
        q.take_frame();
        q.key(Key::P, false);
        q.key(Key::P, true);
        assert_eq!(q.take_frame().pressed, vec![Key::P]);
    }

    #[test]
    fn clicks_are_counted_even_when_released_within_the_frame() {
        let mut q = InputQueue::new();
        q.button(true);
        q.button(false);
        let f = q.take_frame();
        assert_eq!((f.clicks, f.mouse_down), (1, true));
        let f = q.take_frame();
        assert_eq!((f.clicks, f.mouse_down), (0, false));
        // Held across frames: one click; released and pressed again in a frame: another.
        q.button(true);
        assert_eq!(q.take_frame().clicks, 1);
        q.button(true);
        assert_eq!(q.take_frame().clicks, 0);
        q.button(false);
        q.button(true);
        let f = q.take_frame();
        assert_eq!((f.clicks, f.mouse_down), (1, true));
        q.release_all();
        assert!(!q.take_frame().mouse_down);
    }

    #[test]
    fn the_pointer_is_the_last_position() {
        let mut q = InputQueue::new();
        q.pointer(Some((3.0, 4.0)));
        q.pointer(Some((5.0, 6.0)));
        assert_eq!(q.take_frame().mouse, Some((5.0, 6.0)));
        assert_eq!(q.take_frame().mouse, Some((5.0, 6.0)));
        q.pointer(None);
        assert_eq!(q.take_frame().mouse, None);
    }
}
