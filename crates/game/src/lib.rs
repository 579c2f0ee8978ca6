//! # collide-game
//!
//! BricksBeater's rules and the arcade response policies, on `collide-world`, with no window,
//! renderer or input device in sight: frontends turn their events into an [`Input`], call
//! [`Game::update`] once per frame and draw what [`Game`] exposes (the world, ball colours,
//! power-ups, the aim preview, the last step's trace, a [`Status`] for the HUD).
//!
//! Depends on `collide-core`, `collide-world`, `collide-scenes` (the built-in levels and demo
//! scenes), `collide-maps` (feature `maps` only), `thiserror`, and `serde`, `serde_json` and `serde_path_to_error` (the replay
//! format). It must never depend on a renderer, a window or a command-line crate.
//!
//! # The game
//! - [`Source::Level`] `n` plays BricksBeater level `n` (1 to 7): a ball waits on the paddle;
//!   the paddle follows the pointer (its velocity is set to `(target − current) / dt` each
//!   step, so the world sweeps its motion exactly); a launch (click or space) sends the
//!   waiting ball along the aim, whose path is previewed with `World::cast_circle`, followed
//!   by a volley of [`Options::volley`] balls fired one after another from the paddle. When
//!   no brick can be reached from below (level 1's bricks sit behind diagonal wall joints
//!   that an exact ball cannot pass), each launch also rains [`Options::rain`] balls into
//!   the sealed pockets next to the bricks ([`sealed_pockets`]), and each return of a ball
//!   off the paddle's top rains [`RAIN_PER_RETURN`] more; a rained ball is spent on its
//!   first brick, or after [`RAIN_LIFE`] seconds. Bricks
//!   break on hit (the world's `BrickDestroyed` events) and score
//!   [`Options::score_per_brick`]; each destroyed brick may drop a power-up (3x 5 %, shoot 3
//!   8 %, heart 2 %, drawn from xorshift64* seeded from the level) that falls and is caught
//!   by the paddle: "3x" splits every ball in flight (not the rained ones) into three,
//!   "shoot 3" launches three more balls from the paddle, "heart" gives back a lost life
//!   (never above the lives a game starts with). 4 lives: when no ball is left a life
//!   is lost (once the volley is out) and a new ball waits on the paddle; with none left the
//!   game is over. When no brick is left the next level starts (after level 7: victory). A
//!   launch after the game ended ("play again") starts a new game at level 1, and
//!   [`Game::last_run`] keeps the summary of the one that ended ([`RunSummary`]: score,
//!   highest level, game time).
//! - [`Source::Platformer`] plays the platformer ([`platformer`]) on a map's levels: a
//!   character runs, jumps (coyote time, jump buffering), climbs ladders, collects chests,
//!   is bounced by patrolling mobs and goes through doors to the next level. The feature
//!   `maps` reads the levels from Tiled and LDtk maps (`collide-maps`).
//! - Other scenes run as a *sandbox*: the physics alone, each ball in a colour of
//!   [`colors::PALETTE`], colours swapping when two balls collide (seed 002's billiards).
//!
//! # Events
//! After each step, [`Game::last_events`] holds the world's collision events and
//! [`Game::last_game_events`] what the rules did ([`GameEvent`]: a power-up caught, a life
//! lost, a level cleared). [`Game::update_with`] calls a hook after every step of a frame, so
//! that a frontend sees the events of each step (for sounds, say), not only of the last one.
//!
//! # Arcade policies
//! Options of the game ([`Options`]), applied after each world step, never inside the
//! physics ([`policy`]): paddle english, constant ball speed, a minimum vertical angle, the
//! anti-trap paddle clamp, and the aim preview.
//!
//! # Replays
//! [`Game::start_recording`] makes the game record every command and step of the session;
//! [`Game::take_replay`] gives a [`Replay`], a small versioned text file (JSON lines,
//! `docs/replay-format.md`; files of the format before it still load) that [`Replay::verify`] re-simulates against its recorded state
//! hashes, on this build or a later one ([`replay`]).
//!
//! # Conventions
//! As `collide-core`: x right, **y down**, world units (1 unit = 1 pixel at zoom 1), seconds,
//! units/s, `f64`.
//!
//! # Example
//! ```
//! use collide_game::{Game, Input, Phase};
//! let mut game = Game::level_1().unwrap();
//! assert_eq!(game.breaker().unwrap().phase(), Phase::Serving);
//! // Launch, then run 60 frames of 1/60 s: one fixed step each.
//! game.update(&Input { launch: true, ..Input::default() }, 1.0 / 60.0);
//! for _ in 0..59 {
//!     game.update(&Input::default(), 1.0 / 60.0);
//! }
//! assert_eq!(game.world().steps(), 60);
//! assert_eq!(game.breaker().unwrap().phase(), Phase::Playing);
//! ```

mod breaker;
mod clock;
pub mod colors;
mod events;
mod game;
mod input;
mod options;
pub mod pinball;
pub mod platformer;
pub mod policy;
pub mod replay;
mod serial;

pub use breaker::{
    is_breaker_scene, sealed_pockets, Breaker, Phase, PowerUp, HEART_BONUS_BRICKS, RAIN_LIFE,
    RAIN_PER_RETURN, REST_GAP,
};
pub use clock::FixedStep;
pub use colors::{BallColors, Rgb8};
pub use events::GameEvent;
pub use game::{FrameReport, Game, GameError, RunSummary, Source, Status, DEMOS, LEVELS, SPEEDS};
pub use input::{Command, Input, StepInput};
pub use options::{Options, MAX_SCORE_PER_BRICK};
pub use pinball::Pinball;
pub use platformer::{Platformer, PlatformerLevel};
pub use policy::PowerKind;
pub use replay::{Replay, ReplayError, SceneText, VerifyReport};
