//! DOM `KeyboardEvent.code` values (the key's place on the keyboard, whatever the layout) as
//! the frontends' [`Key`]s: the same keys as the window apps.

use collide_frontend::Key;

/// The frontend key of a DOM `KeyboardEvent.code` (`"KeyZ"`, `"Space"`, `"ArrowLeft"`,
/// `"Digit3"`, `"Numpad3"`, ...), `None` for keys the game does not use. Escape is not
/// mapped: a page has nothing to quit (closing the tab does that).
#[must_use]
pub fn key_of_code(code: &str) -> Option<Key> {
    if let Some(d) = code
        .strip_prefix("Digit")
        .or_else(|| code.strip_prefix("Numpad"))
    {
        if let Ok(n) = d.parse::<u8>() {
            return (n <= 9).then_some(Key::Digit(n));
        }
    }
    Some(match code {
        "Tab" => Key::Tab,
        "KeyP" => Key::P,
        "Period" | "NumpadDecimal" => Key::Period,
        "BracketLeft" => Key::LeftBracket,
        "BracketRight" => Key::RightBracket,
        "KeyD" => Key::D,
        "KeyR" => Key::R,
        "KeyZ" => Key::Z,
        "KeyX" => Key::X,
        "KeyH" => Key::H,
        "F1" => Key::F1,
        "KeyM" => Key::M,
        "Space" => Key::Space,
        "ArrowLeft" => Key::Left,
        "ArrowRight" => Key::Right,
        "Slash" => Key::Slash,
        "ShiftLeft" => Key::LeftShift,
        "ShiftRight" => Key::RightShift,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide_frontend::{action, Action};

    #[test]
    fn dom_codes_map_to_the_window_apps_keys() {
        assert_eq!(key_of_code("Digit3"), Some(Key::Digit(3)));
        assert_eq!(key_of_code("Numpad7"), Some(Key::Digit(7)));
        assert_eq!(key_of_code("NumpadAdd"), None);
        assert_eq!(key_of_code("ArrowLeft"), Some(Key::Left));
        assert_eq!(key_of_code("ShiftRight"), Some(Key::RightShift));
        assert_eq!(key_of_code("Slash"), Some(Key::Slash));
        assert_eq!(key_of_code("Escape"), None);
        assert_eq!(key_of_code("KeyQ"), None);
        // M mutes, H shows the help, Space launches: through the shared meaning of keys.
        assert_eq!(key_of_code("KeyM").and_then(action), Some(Action::Mute));
        assert_eq!(key_of_code("KeyH").and_then(action), Some(Action::Help));
        assert_eq!(key_of_code("Space").and_then(action), Some(Action::Launch));
    }
}
