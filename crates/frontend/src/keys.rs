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
    /// Up arrow.
    Up,
    /// Down arrow.
    Down,
    /// W.
    W,
    /// A.
    A,
    /// S.
    S,
    /// H.
    H,
    /// F1.
    F1,
    /// M.
    M,
    /// `/` (slash).
    Slash,
    /// The left Shift key.
    LeftShift,
    /// The right Shift key.
    RightShift,
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
        Key::Slash | Key::LeftShift | Key::RightShift => return None,
        Key::Up | Key::Down | Key::W | Key::A | Key::S => return None,
    })
}

/// The platformer's controls a held key gives: `(run, climb, jump)`, run −1 left (Left, A)
/// or +1 right (Right, D), climb −1 up (Up, W) or +1 down (Down, S), jump (Space). In the
/// platformer D runs right and does not toggle the debug view (`--debug` does).
#[must_use]
pub fn platformer_controls(key: Key) -> (i8, i8, bool) {
    match key {
        Key::Left | Key::A => (-1, 0, false),
        Key::Right | Key::D => (1, 0, false),
        Key::Up | Key::W => (0, -1, false),
        Key::Down | Key::S => (0, 1, false),
        Key::Space => (0, 0, true),
        _ => (0, 0, false),
    }
}

/// A pinball table's buttons, read from the keys held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Button {
    /// The left flippers: Z or the left Shift key.
    FlipLeft,
    /// The right flippers: `/` or the right Shift key.
    FlipRight,
    /// The plunger: Space (pulled while held, shot when released).
    Plunger,
}

/// The pinball button a held key presses, if any (Z and Space also have their [`action`]:
/// the aim and the launch of a game with a paddle).
#[must_use]
pub fn button(key: Key) -> Option<Button> {
    match key {
        Key::Z | Key::LeftShift => Some(Button::FlipLeft),
        Key::Slash | Key::RightShift => Some(Button::FlipRight),
        Key::Space => Some(Button::Plunger),
        _ => None,
    }
}

/// What is played, for the keys that apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A scene run as a sandbox: no rules.
    Sandbox,
    /// A game with a paddle (BricksBeater's rules).
    Paddle,
    /// A pinball table.
    Pinball,
    /// The platformer.
    Platformer,
}

/// One line of the help: keys, what they do, and the mode they apply to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HelpLine {
    /// The keys, as printed: `Z / X`.
    pub keys: &'static str,
    /// What they do.
    pub what: &'static str,
    /// The one mode they apply to, or `None` for every mode.
    pub mode: Option<Mode>,
}

/// Every key, in the order the help lists them.
pub const HELP: [HelpLine; 18] = [
    HelpLine {
        keys: "LEFT / RIGHT, A / D",
        what: "RUN",
        mode: Some(Mode::Platformer),
    },
    HelpLine {
        keys: "SPACE, UP, W",
        what: "JUMP (UP, W: CLIMB ON A LADDER)",
        mode: Some(Mode::Platformer),
    },
    HelpLine {
        keys: "DOWN, S",
        what: "CLIMB DOWN, DROP THROUGH A PLATFORM",
        mode: Some(Mode::Platformer),
    },
    HelpLine {
        keys: "MOUSE, LEFT / RIGHT",
        what: "MOVE THE PADDLE",
        mode: Some(Mode::Paddle),
    },
    HelpLine {
        keys: "CLICK, SPACE",
        what: "LAUNCH (AFTER THE GAME: PLAY AGAIN)",
        mode: Some(Mode::Paddle),
    },
    HelpLine {
        keys: "Z / X",
        what: "TURN THE AIM LEFT / RIGHT",
        mode: Some(Mode::Paddle),
    },
    HelpLine {
        keys: "Z, SHIFT / \"/\", SHIFT",
        what: "LEFT / RIGHT FLIPPERS",
        mode: Some(Mode::Pinball),
    },
    HelpLine {
        keys: "SPACE (HOLD)",
        what: "PULL THE PLUNGER, RELEASE TO SHOOT",
        mode: Some(Mode::Pinball),
    },
    HelpLine {
        keys: "1 - 7",
        what: "PLAY LEVEL 1 TO 7",
        mode: None,
    },
    HelpLine {
        keys: "TAB",
        what: "NEXT DEMO SCENE",
        mode: None,
    },
    HelpLine {
        keys: "P",
        what: "PAUSE / RESUME",
        mode: None,
    },
    HelpLine {
        keys: ".",
        what: "SINGLE STEP (PAUSES)",
        mode: None,
    },
    HelpLine {
        keys: "[ / ]",
        what: "SLOWER / FASTER (1/16X TO 4X)",
        mode: None,
    },
    HelpLine {
        keys: "D",
        what: "DEBUG VIEW (NOT IN THE PLATFORMER)",
        mode: None,
    },
    HelpLine {
        keys: "R",
        what: "RESTART",
        mode: None,
    },
    HelpLine {
        keys: "M",
        what: "SOUND OFF / ON",
        mode: None,
    },
    HelpLine {
        keys: "H, F1",
        what: "THIS HELP",
        mode: None,
    },
    HelpLine {
        keys: "ESC",
        what: "QUIT",
        mode: None,
    },
];

/// The help lines that apply in `mode`: those of every mode and those of this one.
#[must_use]
pub fn help(mode: Mode) -> Vec<HelpLine> {
    HELP.iter()
        .copied()
        .filter(|l| l.mode.is_none_or(|m| m == mode))
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
    fn each_mode_gets_its_own_keys_and_the_common_ones() {
        let paddle = help(Mode::Paddle);
        let pinball = help(Mode::Pinball);
        let sandbox = help(Mode::Sandbox);
        let platformer = help(Mode::Platformer);
        assert_eq!(paddle.len(), HELP.len() - 5);
        assert_eq!(pinball.len(), HELP.len() - 6);
        assert_eq!(sandbox.len(), HELP.len() - 8);
        assert_eq!(platformer.len(), HELP.len() - 5);
        assert!(platformer.iter().any(|l| l.what == "RUN"));
        assert!(paddle.iter().any(|l| l.keys == "Z / X"));
        assert!(!pinball
            .iter()
            .any(|l| l.keys == "Z / X" || l.keys == "CLICK, SPACE"));
        assert!(pinball.iter().any(|l| l.keys == "SPACE (HOLD)"));
        assert!(!sandbox.iter().any(|l| l.mode.is_some()));
        for lines in [&paddle, &pinball, &sandbox] {
            assert!(
                lines.iter().any(|l| l.keys == "ESC") && lines.iter().any(|l| l.keys == "H, F1")
            );
        }
    }

    #[test]
    fn the_pinball_buttons() {
        assert_eq!(button(Key::Z), Some(Button::FlipLeft));
        assert_eq!(button(Key::LeftShift), Some(Button::FlipLeft));
        assert_eq!(button(Key::Slash), Some(Button::FlipRight));
        assert_eq!(button(Key::RightShift), Some(Button::FlipRight));
        assert_eq!(button(Key::Space), Some(Button::Plunger));
        assert_eq!(button(Key::X), None);
        assert_eq!(action(Key::Slash), None);
    }

    #[test]
    fn the_platformer_controls() {
        assert_eq!(platformer_controls(Key::A), (-1, 0, false));
        assert_eq!(platformer_controls(Key::Right), (1, 0, false));
        assert_eq!(platformer_controls(Key::D), (1, 0, false));
        assert_eq!(platformer_controls(Key::W), (0, -1, false));
        assert_eq!(platformer_controls(Key::Down), (0, 1, false));
        assert_eq!(platformer_controls(Key::Space), (0, 0, true));
        assert_eq!(platformer_controls(Key::P), (0, 0, false));
        assert_eq!(action(Key::W), None);
    }
}
