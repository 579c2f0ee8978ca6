//! Frontend-neutral keys and what they do: each frontend maps its own key codes to [`Key`]
//! (a few lines), and [`action`] says what a key means to the game.

use collide_game::Command;

/// The keys the frontends use, independent of any window library.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    /// A digit key `0`..`9` (top row or keypad).
    Digit(u8),
    /// Tab.
    Tab,
    /// P.
    P,
    /// `.` (period).
    Period,
    /// `[`.
    LeftBracket,
    /// `]`.
    RightBracket,
    /// D.
    D,
    /// R.
    R,
    /// Z.
    Z,
    /// X.
    X,
    /// Space.
    Space,
    /// Escape.
    Escape,
    /// Left arrow.
    Left,
    /// Right arrow.
    Right,
}

/// What a key does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// A game command, on the press.
    Command(Command),
    /// Launch, on the press.
    Launch,
    /// Quit the program, on the press.
    Quit,
    /// While held: move the paddle left (−1) or right (+1).
    Paddle(i8),
    /// While held: turn the aim left (−1) or right (+1).
    Aim(i8),
}

/// The meaning of `key`: digits 1–7 levels, Tab the next demo scene, P pause, `.` single
/// step, `[` `]` slower and faster, D the debug view, R restart, Space launch, Esc quit,
/// Left/Right the paddle, Z/X the aim. `None` for keys with no meaning (0, 8, 9).
#[must_use]
pub fn action(key: Key) -> Option<Action> {
    Some(match key {
        Key::Digit(n @ 1..=7) => Action::Command(Command::Level(n)),
        Key::Digit(_) => return None,
        Key::Tab => Action::Command(Command::NextScene),
        Key::P => Action::Command(Command::TogglePause),
        Key::Period => Action::Command(Command::SingleStep),
        Key::LeftBracket => Action::Command(Command::Slower),
        Key::RightBracket => Action::Command(Command::Faster),
        Key::D => Action::Command(Command::ToggleDebug),
        Key::R => Action::Command(Command::Restart),
        Key::Space => Action::Launch,
        Key::Escape => Action::Quit,
        Key::Left => Action::Paddle(-1),
        Key::Right => Action::Paddle(1),
        Key::Z => Action::Aim(-1),
        Key::X => Action::Aim(1),
    })
}

/// One line per key for help texts: `(keys, what they do)`.
pub const HELP: [(&str, &str); 11] = [
    ("mouse, Left/Right", "move the paddle"),
    ("click, Space", "launch (a new game after the last one)"),
    ("Z / X", "turn the aim left / right"),
    ("1 - 7", "play level 1 to 7"),
    (
        "Tab",
        "next demo scene (room, billiards, rectangles, arena, game)",
    ),
    ("P", "pause / resume"),
    (".", "single step (pauses)"),
    ("[ / ]", "slower / faster (1/16x to 4x)"),
    (
        "D",
        "debug view: velocity lines, swept paths, contact normals",
    ),
    ("R", "restart"),
    ("Esc", "quit"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_keys() {
        assert_eq!(
            action(Key::Digit(3)),
            Some(Action::Command(Command::Level(3)))
        );
        assert_eq!(action(Key::Digit(8)), None);
        assert_eq!(action(Key::Digit(0)), None);
        assert_eq!(action(Key::Tab), Some(Action::Command(Command::NextScene)));
        assert_eq!(
            action(Key::Period),
            Some(Action::Command(Command::SingleStep))
        );
        assert_eq!(
            action(Key::LeftBracket),
            Some(Action::Command(Command::Slower))
        );
        assert_eq!(
            action(Key::RightBracket),
            Some(Action::Command(Command::Faster))
        );
        assert_eq!(action(Key::D), Some(Action::Command(Command::ToggleDebug)));
        assert_eq!(action(Key::R), Some(Action::Command(Command::Restart)));
        assert_eq!(action(Key::P), Some(Action::Command(Command::TogglePause)));
        assert_eq!(action(Key::Space), Some(Action::Launch));
        assert_eq!(action(Key::Escape), Some(Action::Quit));
        assert_eq!(action(Key::Left), Some(Action::Paddle(-1)));
        assert_eq!(action(Key::X), Some(Action::Aim(1)));
    }
}
