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
    /// H.
    H,
    /// F1.
    F1,
    /// M.
    M,
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
    /// Show or hide the help overlay, on the press.
    Help,
    /// Turn the sound off or on, on the press.
    Mute,
}

/// The meaning of `key`: digits 1–7 levels, Tab the next demo scene, P pause, `.` single
/// step, `[` `]` slower and faster, D the debug view, R restart, Space launch, Esc quit,
/// Left/Right the paddle, Z/X the aim, H and F1 the help overlay, M the sound. `None` for keys
/// with no meaning (0, 8, 9).
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
        Key::H | Key::F1 => Action::Help,
        Key::M => Action::Mute,
    })
}

/// One line of the help: keys, what they do, and whether they need a paddle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HelpLine {
    /// The keys, as printed: `Z / X`.
    pub keys: &'static str,
    /// What they do.
    pub what: &'static str,
    /// Whether they only apply to a scene played with a paddle (the game's rules).
    pub paddle: bool,
}

/// Every key, in the order the help lists them.
pub const HELP: [HelpLine; 13] = [
    HelpLine {
        keys: "MOUSE, LEFT / RIGHT",
        what: "MOVE THE PADDLE",
        paddle: true,
    },
    HelpLine {
        keys: "CLICK, SPACE",
        what: "LAUNCH (AFTER THE GAME: PLAY AGAIN)",
        paddle: true,
    },
    HelpLine {
        keys: "Z / X",
        what: "TURN THE AIM LEFT / RIGHT",
        paddle: true,
    },
    HelpLine {
        keys: "1 - 7",
        what: "PLAY LEVEL 1 TO 7",
        paddle: false,
    },
    HelpLine {
        keys: "TAB",
        what: "NEXT DEMO SCENE",
        paddle: false,
    },
    HelpLine {
        keys: "P",
        what: "PAUSE / RESUME",
        paddle: false,
    },
    HelpLine {
        keys: ".",
        what: "SINGLE STEP (PAUSES)",
        paddle: false,
    },
    HelpLine {
        keys: "[ / ]",
        what: "SLOWER / FASTER (1/16X TO 4X)",
        paddle: false,
    },
    HelpLine {
        keys: "D",
        what: "DEBUG VIEW",
        paddle: false,
    },
    HelpLine {
        keys: "R",
        what: "RESTART",
        paddle: false,
    },
    HelpLine {
        keys: "M",
        what: "SOUND OFF / ON",
        paddle: false,
    },
    HelpLine {
        keys: "H, F1",
        what: "THIS HELP",
        paddle: false,
    },
    HelpLine {
        keys: "ESC",
        what: "QUIT",
        paddle: false,
    },
];

/// The help lines that apply: all of them in a scene with a paddle, the others without.
#[must_use]
pub fn help(paddle: bool) -> Vec<HelpLine> {
    HELP.iter()
        .copied()
        .filter(|l| paddle || !l.paddle)
        .collect()
}

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
        assert_eq!(action(Key::H), Some(Action::Help));
        assert_eq!(action(Key::F1), Some(Action::Help));
        assert_eq!(action(Key::M), Some(Action::Mute));
    }

    #[test]
    fn the_help_without_a_paddle_leaves_out_the_paddle_keys() {
        let all = help(true);
        let some = help(false);
        assert_eq!(all.len(), HELP.len());
        assert_eq!(some.len(), HELP.len() - 3);
        assert!(all.iter().any(|l| l.keys == "Z / X"));
        assert!(!some
            .iter()
            .any(|l| l.keys == "Z / X" || l.keys == "CLICK, SPACE"));
        assert!(some.iter().any(|l| l.keys == "ESC") && some.iter().any(|l| l.keys == "H, F1"));
    }
}
