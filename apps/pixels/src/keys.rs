//! winit's keys in the frontends' terms ([`collide_frontend::Key`]).

use collide_frontend::Key;
use winit::keyboard::{Key as Logical, KeyCode, NamedKey, PhysicalKey};

/// The frontend key of a winit key event, `None` for keys the game does not use.
///
/// The logical key decides (what the keyboard layout prints: `d` is D on any layout, the case
/// and Shift do not matter); keys whose logical meaning is not one of ours fall back to their
/// position for the digits, so the top row gives levels 1–7 on layouts where the digits need
/// Shift (AZERTY), and the keypad gives them with NumLock off; the two Shift keys (one
/// logical meaning) are told apart by position.
///
/// # Arguments
/// * `logical` - `KeyEvent::logical_key`.
/// * `physical` - `KeyEvent::physical_key`.
#[must_use]
pub fn key(logical: &Logical, physical: PhysicalKey) -> Option<Key> {
    by_meaning(logical).or_else(|| by_position(physical))
}

fn by_meaning(logical: &Logical) -> Option<Key> {
    match logical {
        Logical::Named(named) => Some(match named {
            NamedKey::Space => Key::Space,
            NamedKey::Tab => Key::Tab,
            NamedKey::Escape => Key::Escape,
            NamedKey::ArrowLeft => Key::Left,
            NamedKey::ArrowRight => Key::Right,
            NamedKey::ArrowUp => Key::Up,
            NamedKey::ArrowDown => Key::Down,
            NamedKey::F1 => Key::F1,
            _ => return None,
        }),
        Logical::Character(s) => {
            let mut chars = s.chars();
            let c = chars.next()?.to_ascii_lowercase();
            if chars.next().is_some() {
                return None;
            }
            Some(match c {
                '0'..='9' => Key::Digit(c as u8 - b'0'),
                ' ' => Key::Space,
                'p' => Key::P,
                '.' => Key::Period,
                '[' => Key::LeftBracket,
                ']' => Key::RightBracket,
                'd' => Key::D,
                'w' => Key::W,
                'a' => Key::A,
                's' => Key::S,
                'r' => Key::R,
                'z' => Key::Z,
                'x' => Key::X,
                'h' => Key::H,
                'm' => Key::M,
                '/' => Key::Slash,
                _ => return None,
            })
        }
        _ => None,
    }
}

fn by_position(physical: PhysicalKey) -> Option<Key> {
    let PhysicalKey::Code(code) = physical else {
        return None;
    };
    Some(match code {
        KeyCode::Digit0 | KeyCode::Numpad0 => Key::Digit(0),
        KeyCode::Digit1 | KeyCode::Numpad1 => Key::Digit(1),
        KeyCode::Digit2 | KeyCode::Numpad2 => Key::Digit(2),
        KeyCode::Digit3 | KeyCode::Numpad3 => Key::Digit(3),
        KeyCode::Digit4 | KeyCode::Numpad4 => Key::Digit(4),
        KeyCode::Digit5 | KeyCode::Numpad5 => Key::Digit(5),
        KeyCode::Digit6 | KeyCode::Numpad6 => Key::Digit(6),
        KeyCode::Digit7 | KeyCode::Numpad7 => Key::Digit(7),
        KeyCode::Digit8 | KeyCode::Numpad8 => Key::Digit(8),
        KeyCode::Digit9 | KeyCode::Numpad9 => Key::Digit(9),
        KeyCode::NumpadDecimal => Key::Period,
        // Shift has one logical meaning: which side, by position.
        KeyCode::ShiftLeft => Key::LeftShift,
        KeyCode::ShiftRight => Key::RightShift,
        KeyCode::Slash => Key::Slash,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use winit::keyboard::NativeKeyCode;

    fn ch(s: &str, code: KeyCode) -> Option<Key> {
        key(&Logical::Character(s.into()), PhysicalKey::Code(code))
    }

    #[test]
    fn letters_and_signs_by_meaning_in_either_case() {
        assert_eq!(ch("d", KeyCode::KeyD), Some(Key::D));
        assert_eq!(ch("D", KeyCode::KeyD), Some(Key::D));
        // On AZERTY the key in QWERTY's Z place prints `w`: the letter decides.
        assert_eq!(ch("w", KeyCode::KeyZ), Some(Key::W));
        assert_eq!(ch("a", KeyCode::KeyQ), Some(Key::A));
        assert_eq!(ch("S", KeyCode::KeyS), Some(Key::S));
        assert_eq!(ch("z", KeyCode::KeyW), Some(Key::Z));
        assert_eq!(ch("x", KeyCode::KeyX), Some(Key::X));
        assert_eq!(ch("p", KeyCode::KeyP), Some(Key::P));
        assert_eq!(ch("r", KeyCode::KeyR), Some(Key::R));
        assert_eq!(ch("H", KeyCode::KeyH), Some(Key::H));
        assert_eq!(ch("m", KeyCode::KeyM), Some(Key::M));
        assert_eq!(ch(".", KeyCode::Period), Some(Key::Period));
        assert_eq!(ch("[", KeyCode::BracketLeft), Some(Key::LeftBracket));
        assert_eq!(ch("]", KeyCode::BracketRight), Some(Key::RightBracket));
        assert_eq!(ch("q", KeyCode::KeyQ), None);
        assert_eq!(ch("dd", KeyCode::KeyD), None);
    }

    #[test]
    fn the_shift_keys_by_position_and_the_slash() {
        let shift = Logical::Named(NamedKey::Shift);
        assert_eq!(
            key(&shift, PhysicalKey::Code(KeyCode::ShiftLeft)),
            Some(Key::LeftShift)
        );
        assert_eq!(
            key(&shift, PhysicalKey::Code(KeyCode::ShiftRight)),
            Some(Key::RightShift)
        );
        assert_eq!(ch("/", KeyCode::Slash), Some(Key::Slash));
        assert_eq!(ch("/", KeyCode::Digit7), Some(Key::Slash));
    }

    #[test]
    fn named_keys() {
        let named = |n, code| key(&Logical::Named(n), PhysicalKey::Code(code));
        assert_eq!(named(NamedKey::Space, KeyCode::Space), Some(Key::Space));
        assert_eq!(named(NamedKey::Tab, KeyCode::Tab), Some(Key::Tab));
        assert_eq!(named(NamedKey::Escape, KeyCode::Escape), Some(Key::Escape));
        assert_eq!(
            named(NamedKey::ArrowLeft, KeyCode::ArrowLeft),
            Some(Key::Left)
        );
        assert_eq!(
            named(NamedKey::ArrowRight, KeyCode::ArrowRight),
            Some(Key::Right)
        );
        assert_eq!(named(NamedKey::F1, KeyCode::F1), Some(Key::F1));
        assert_eq!(named(NamedKey::Enter, KeyCode::Enter), None);
    }

    #[test]
    fn digits_by_meaning_then_by_position() {
        assert_eq!(ch("3", KeyCode::Digit3), Some(Key::Digit(3)));
        // AZERTY: the top-row key 1 prints `&` without Shift.
        assert_eq!(ch("&", KeyCode::Digit1), Some(Key::Digit(1)));
        // The keypad with NumLock off: End on the 1 key.
        assert_eq!(
            key(
                &Logical::Named(NamedKey::End),
                PhysicalKey::Code(KeyCode::Numpad1)
            ),
            Some(Key::Digit(1))
        );
        assert_eq!(
            key(
                &Logical::Named(NamedKey::Delete),
                PhysicalKey::Code(KeyCode::NumpadDecimal)
            ),
            Some(Key::Period)
        );
        // A key winit cannot name: nothing.
        assert_eq!(
            key(
                &Logical::Unidentified(winit::keyboard::NativeKey::Unidentified),
                PhysicalKey::Unidentified(NativeKeyCode::Xkb(999))
            ),
            None
        );
    }
}
