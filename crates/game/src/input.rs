//! The game's input: what a frontend gives [`crate::Game::update`] each frame, in world units
//! and game terms (no window, key code or pixel in sight).

use collide_core::Real;
use serde::{Deserialize, Serialize};

use crate::serial;

/// A one-shot command (a key press), applied at the start of the frame that carries it.
///
/// In a replay (serde): `"toggle_pause"`, `"single_step"`, `"slower"`, `"faster"`,
/// `"toggle_debug"`, `"restart"`, `{"level": N}`, `"next_scene"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Command {
    /// Pause or resume the simulation.
    TogglePause,
    /// While paused: run exactly one step.
    SingleStep,
    /// Halve the speed of time (down to 1/16).
    Slower,
    /// Double the speed of time (up to 4×).
    Faster,
    /// Show or hide the debug view (velocity lines, swept paths, contact normals).
    ToggleDebug,
    /// Start the current level or scene again (a new game: score 0, full lives).
    Restart,
    /// Play BricksBeater level `n` (1 to 7; other numbers are ignored).
    Level(u8),
    /// Go to the next demo scene (seed 000 room, seed 002 billiards, seed 003 rectangles,
    /// arena, then back to the game).
    NextScene,
}

/// Everything the player does in one frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Input {
    /// The pointer's x in world units, when the pointer drives the paddle (the paddle's centre
    /// follows it); `None` leaves the paddle to the keys (or where it is).
    pub pointer_x: Option<Real>,
    /// Keyboard paddle motion held this frame: −1 left, +1 right, 0 none (at
    /// [`crate::Options::paddle_key_speed`]). Ignored when `pointer_x` is set.
    pub paddle_dir: i8,
    /// Aim rotation held this frame while a ball waits on the paddle: −1 toward the left,
    /// +1 toward the right, 0 none (at [`crate::Options::aim_rate`]).
    pub aim_dir: i8,
    /// Launch pressed this frame (click or space): launches the balls waiting on the paddle,
    /// or starts a new game after the last one ended.
    pub launch: bool,
    /// Pinball: the left flippers' button held this frame (Z or left Shift).
    pub flip_left: bool,
    /// Pinball: the right flippers' button held this frame (`/` or right Shift).
    pub flip_right: bool,
    /// Pinball: the plunger's button held this frame (Space): pulled while held, shot when
    /// released.
    pub plunger: bool,
    /// Platformer: run held this frame: −1 left, +1 right, 0 none.
    pub run_dir: i8,
    /// Platformer: climb held this frame: −1 up, +1 down, 0 none (up jumps where there is
    /// no ladder; down drops through one-way platforms).
    pub climb_dir: i8,
    /// Platformer: the jump button held this frame.
    pub jump: bool,
    /// Commands pressed this frame, in order.
    pub commands: Vec<Command>,
}

/// The part of [`Input`] that every fixed step of a frame sees (commands are applied once
/// per frame, before the steps; a launch goes to the first step only).
///
/// In a replay (serde) a field at its default is left out: `{}` is no input,
/// `{"pointer_x": 255.25, "launch": true}` a pointer and a launch. A finite `pointer_x` is a
/// number that reads back bit for bit; `inf`, `-inf` and a NaN (`0x` and its 16 hex digits)
/// are strings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StepInput {
    /// As [`Input::pointer_x`].
    #[serde(skip_serializing_if = "Option::is_none", with = "serial::opt_real")]
    pub pointer_x: Option<Real>,
    /// As [`Input::paddle_dir`].
    #[serde(skip_serializing_if = "serial::is_zero")]
    pub paddle_dir: i8,
    /// As [`Input::aim_dir`].
    #[serde(skip_serializing_if = "serial::is_zero")]
    pub aim_dir: i8,
    /// As [`Input::launch`].
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub launch: bool,
    /// As [`Input::flip_left`].
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub flip_left: bool,
    /// As [`Input::flip_right`].
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub flip_right: bool,
    /// As [`Input::plunger`].
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub plunger: bool,
    /// As [`Input::run_dir`].
    #[serde(skip_serializing_if = "serial::is_zero")]
    pub run_dir: i8,
    /// As [`Input::climb_dir`].
    #[serde(skip_serializing_if = "serial::is_zero")]
    pub climb_dir: i8,
    /// As [`Input::jump`].
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub jump: bool,
}

impl From<&Input> for StepInput {
    /// A frame's input as one step sees it: everything held, and the launch (the frame's
    /// commands are not a step's).
    fn from(i: &Input) -> StepInput {
        StepInput {
            pointer_x: i.pointer_x,
            paddle_dir: i.paddle_dir,
            aim_dir: i.aim_dir,
            launch: i.launch,
            flip_left: i.flip_left,
            flip_right: i.flip_right,
            plunger: i.plunger,
            run_dir: i.run_dir,
            climb_dir: i.climb_dir,
            jump: i.jump,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pinball_buttons_are_written_only_when_held_and_read_back() {
        let held = StepInput {
            flip_left: true,
            plunger: true,
            ..StepInput::default()
        };
        let text = serde_json::to_string(&held).unwrap();
        assert_eq!(text, r#"{"flip_left":true,"plunger":true}"#);
        assert_eq!(serde_json::from_str::<StepInput>(&text).unwrap(), held);
        assert_eq!(serde_json::to_string(&StepInput::default()).unwrap(), "{}");
        let frame = Input {
            flip_right: true,
            launch: true,
            ..Input::default()
        };
        let step = StepInput::from(&frame);
        assert!(step.flip_right && step.launch && !step.flip_left && !step.plunger);
    }
}
