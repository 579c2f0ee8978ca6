//! The game's options: the arcade response policies and the rules' numbers.

use collide_core::{Real, Vec2};
use collide_scene::level::BALL_SPEED;
use serde::{Deserialize, Serialize};

use crate::policy::DropTable;
use crate::serial;

/// Largest [`Options::score_per_brick`] read from a replay: 10⁹ (a score of every brick of the
/// largest grid, 2²⁴ cells, stays far below `u64::MAX`).
pub const MAX_SCORE_PER_BRICK: u64 = 1_000_000_000;

/// Options of the game. [`Options::default`] is BricksBeater as the levels README describes
/// it, with every arcade policy on.
///
/// A replay stores them with serde (`docs/replay-format.md`), one key per field; a key left
/// out keeps its default. Reading checks each value with the limits of the scene format
/// (`collide_world::limits`): speeds, lengths, durations and sizes finite within `0 ..= 1e9`,
/// fractions and probabilities (`min_vertical`, `drops`) within `[0, 1]`, `initial_aim`
/// within ±1e9 (the game clamps it to `[-1, 1]`); ball counts (`volley`, `rain`, `max_balls`)
/// at most `MAX_BALLS`, `aim_segments` at most `MAX_EVENTS_PER_BODY`, `score_per_brick` at
/// most [`MAX_SCORE_PER_BRICK`]. `lives` and `max_steps_per_frame` take any `u32`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Speed of the balls in play, units/s: 240 = 2.4 px per update × 3 updates per frame ×
    /// 33⅓ frames per second (the levels README's numbers; the original game waits 30 ms per
    /// frame). `collide_scene::level::BALL_SPEED` (144) is one update per 1/60 s frame.
    #[serde(deserialize_with = "serial::non_neg")]
    pub ball_speed: Real,
    /// Keep every ball in play at exactly `ball_speed` (a moving paddle's side would otherwise
    /// add its speed to the ball's). Default on.
    pub constant_speed: bool,
    /// Paddle "english": a ball bouncing off the paddle's top leaves at an angle set by where
    /// it hit ([`crate::policy::english`]). Default on.
    pub english: bool,
    /// Horizontal over vertical speed at the paddle's ends: `√3` (60° from the vertical).
    #[serde(deserialize_with = "serial::non_neg")]
    pub english_slope: Real,
    /// Minimum vertical angle: `|vy| >= k·|v|` for every ball in play
    /// ([`crate::policy::min_vertical`]); 0 turns the policy off. Default 0.25 (about 14.5°
    /// above the horizontal).
    #[serde(deserialize_with = "serial::unit")]
    pub min_vertical: Real,
    /// Anti-trap: the gap between the paddle's side and a side wall is 0 or at least a ball's
    /// diameter + 2 ([`crate::policy::clamp_paddle`]). Default on.
    pub anti_trap: bool,
    /// Segments of the aim preview (0: no preview). Default 4.
    #[serde(deserialize_with = "serial::at_most::<_, _, { serial::EVENTS_PER_BODY }>")]
    pub aim_segments: usize,
    /// Length of the aim preview, world units. Default 600.
    #[serde(deserialize_with = "serial::non_neg")]
    pub aim_length: Real,
    /// How fast the aim turns while an aim key is held, paddle offsets per second (the aim is
    /// an offset in `[−1, 1]`, as for english). Default 1.
    #[serde(deserialize_with = "serial::non_neg")]
    pub aim_rate: Real,
    /// The aim when a level starts. Default 0.3 (up and a little to the right).
    #[serde(deserialize_with = "serial::coord")]
    pub initial_aim: Real,
    /// How fast the paddle moves while a paddle key is held, units/s. Default 480.
    #[serde(deserialize_with = "serial::non_neg")]
    pub paddle_key_speed: Real,
    /// Balls launched per serve: the waiting ball, then `volley - 1` more from the paddle,
    /// one every `volley_interval` seconds, all along the aimed direction. Default 10.
    #[serde(deserialize_with = "serial::at_most::<_, _, { serial::BALLS }>")]
    pub volley: u32,
    /// Time between two balls of a volley, seconds. Default 0.08 (5 steps at 60 Hz).
    #[serde(deserialize_with = "serial::non_neg")]
    pub volley_interval: Real,
    /// Balls dropped into the sealed pockets of a level at each launch while no brick can be
    /// reached from below (see [`crate::sealed_pockets`]; level 1's bricks, for instance, sit
    /// behind diagonal wall joints that an exact ball of radius 3 cannot pass); each return
    /// of a ball off the paddle adds [`crate::RAIN_PER_RETURN`]. A rained ball is spent on
    /// its first brick or after [`crate::RAIN_LIFE`] seconds. 0 turns the rain off.
    /// Default 8.
    #[serde(deserialize_with = "serial::at_most::<_, _, { serial::BALLS }>")]
    pub rain: usize,
    /// The most fixed steps one frame runs ([`crate::FixedStep`]). Default 8.
    pub max_steps_per_frame: u32,
    /// The most balls in play (the game's limit: 1024). Splits and shots stop there.
    #[serde(deserialize_with = "serial::at_most::<_, _, { serial::BALLS }>")]
    pub max_balls: usize,
    /// Lives at the start of a game. Default 4.
    pub lives: u32,
    /// Chances of each power-up per destroyed brick.
    pub drops: DropTable,
    /// Falling speed of power-ups, units/s. Default 90.
    #[serde(deserialize_with = "serial::non_neg")]
    pub power_up_speed: Real,
    /// Width and height of a power-up's box, world units. Default 16 × 9.
    #[serde(
        serialize_with = "serial::vec2::serialize",
        deserialize_with = "serial::non_neg_vec2"
    )]
    pub power_up_size: Vec2,
    /// Pause between clearing a level and the next one, seconds. Default 1.5.
    #[serde(deserialize_with = "serial::non_neg")]
    pub level_clear_pause: Real,
    /// Score per destroyed brick. Default 10.
    #[serde(deserialize_with = "serial::at_most::<_, _, MAX_SCORE_PER_BRICK>")]
    pub score_per_brick: u64,
    /// Ball colours swap when two balls collide (sandbox scenes, where each ball has a
    /// colour). Default on.
    pub color_swap: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            // 2.4 · 3 / 0.030 = 240, written as the world's constant (2.4 · 60) times 5/3.
            ball_speed: BALL_SPEED * 5.0 / 3.0,
            constant_speed: true,
            english: true,
            english_slope: 1.732_050_807_568_877_2,
            min_vertical: 0.25,
            anti_trap: true,
            aim_segments: 4,
            aim_length: 600.0,
            aim_rate: 1.0,
            initial_aim: 0.3,
            paddle_key_speed: 480.0,
            volley: 10,
            volley_interval: 0.08,
            rain: 8,
            max_steps_per_frame: 8,
            max_balls: 1024,
            lives: 4,
            drops: DropTable::default(),
            power_up_speed: 90.0,
            power_up_size: Vec2::new(16.0, 9.0),
            level_clear_pause: 1.5,
            score_per_brick: 10,
            color_swap: true,
        }
    }
}
