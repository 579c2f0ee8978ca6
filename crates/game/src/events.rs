//! What the rules did during a step, beside the world's own collision events: read with
//! [`crate::Game::last_game_events`] after each step (for sounds, effects, statistics). They
//! are outputs only: nothing in the game reads them back, so they change no state and no
//! replay.

use crate::policy::PowerKind;

/// One thing the rules did during a step. Each happens after the world's step, at the end of
/// the step (time `dt` from its start, in the terms of `collide_world::Event`'s `toi`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum GameEvent {
    /// A falling power-up touched the paddle and was applied.
    PowerUpCaught {
        /// What it was.
        kind: PowerKind,
    },
    /// The player's last ball was lost (and the volley was out): a life is gone.
    LifeLost {
        /// Lives left now (0: the game is over).
        lives_left: u32,
    },
    /// No brick is left: the level is cleared (the next one starts after a pause); in the
    /// platformer, the player went through a level's exit.
    LevelCleared {
        /// The level number of a built-in level (the platformer: the 1-based number of the
        /// level left), `None` for another scene.
        level: Option<u8>,
    },
    /// Platformer: the player collected a chest.
    ChestCollected {
        /// The score now.
        score: u64,
    },
    /// Platformer: a mob bounced the player back.
    Bounced,
}
