//! What is heard: a [`Cue`] per event of a step, with its kind, its time within the frame and
//! the impact speed when the event has one ([`step_cues`]).

use collide_core::Real;
use collide_game::{Game, GameEvent};
use collide_world::Contact;
use collide_world::Target;
use collide_world::{Body, Cell, Event};

/// The sounds there are, one per kind of event heard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SoundKind {
    /// Two balls collide: a short high click.
    BallBall,
    /// A ball bounces off a wall: a wall cell, a side of the world, a rectangle that is not
    /// the paddle; a dynamic rectangle bounces off anything: a low knock.
    Wall,
    /// A ball bounces off the paddle: a square-wave blip.
    Paddle,
    /// A ball bounces off a brick that stays (indestructible bricks): a mid tone.
    BrickHit,
    /// A brick is destroyed: a falling tone with a crack of noise.
    BrickBreak,
    /// A ball leaves the world: a falling sweep.
    BallLost,
    /// A power-up is caught: a rising sweep.
    PowerUp,
    /// A life is lost: a long low falling sweep.
    LifeLost,
    /// The level is cleared: a rising arpeggio (C, E, G, C).
    LevelCleared,
}

impl SoundKind {
    /// Every kind, in declaration order (the order of [`SoundKind::index`]).
    pub const ALL: [SoundKind; 9] = [
        SoundKind::BallBall,
        SoundKind::Wall,
        SoundKind::Paddle,
        SoundKind::BrickHit,
        SoundKind::BrickBreak,
        SoundKind::BallLost,
        SoundKind::PowerUp,
        SoundKind::LifeLost,
        SoundKind::LevelCleared,
    ];

    /// The kind's position in [`SoundKind::ALL`], `0..9`.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// A short stable name: `ball_ball`, `wall`, `paddle`, `brick_hit`, `brick_break`,
    /// `ball_lost`, `power_up`, `life_lost`, `level_cleared`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            SoundKind::BallBall => "ball_ball",
            SoundKind::Wall => "wall",
            SoundKind::Paddle => "paddle",
            SoundKind::BrickHit => "brick_hit",
            SoundKind::BrickBreak => "brick_break",
            SoundKind::BallLost => "ball_lost",
            SoundKind::PowerUp => "power_up",
            SoundKind::LifeLost => "life_lost",
            SoundKind::LevelCleared => "level_cleared",
        }
    }
}

/// One sound to start: what, when, how hard.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cue {
    /// Which sound.
    pub kind: SoundKind,
    /// When it starts, seconds from the start of the block it is mixed with
    /// ([`crate::Mixer::mix`]); it may lie past the block's end (it then starts in a later
    /// block). Negative times count as 0; non-finite cues are ignored.
    pub time: f64,
    /// The impact speed, world units per second (the speed at which the two surfaces met,
    /// along the contact normal), `None` when the event has none (a lost ball, a caught
    /// power-up). It sets the sound's loudness and pitch ([`crate::patch::level_and_pitch`]).
    pub speed: Option<f64>,
}

/// Appends to `out` the cues of the game's last step ([`Game::last_events`] and
/// [`Game::last_game_events`]), in the order of the events: [`for_each_step_cue`] with every
/// speed worked out.
pub fn step_cues(game: &Game, start: f64, time_scale: f64, out: &mut Vec<Cue>) {
    for_each_step_cue(game, start, time_scale, |kind, time, speed| {
        out.push(Cue {
            kind,
            time,
            speed: speed(),
        });
    });
}

/// Calls `f(kind, time, speed)` for each cue of the game's last step ([`Game::last_events`]
/// and [`Game::last_game_events`]), in the order of the events. `speed()` works out the
/// impact speed (see below) only when called, so that a consumer that does not need it (a
/// mixer whose sound for that instant is already at full level) does not pay for it.
///
/// # Arguments
/// * `game` - the game, right after the step (as [`Game::update_with`]'s hook sees it).
/// * `start` - when the step started, seconds from the start of the frame's audio block.
/// * `time_scale` - seconds of sound per second of game time: `1 / speed` of the game's speed
///   of time (so a bounce in a slowed game is heard when it is seen).
/// * `f` - receives each cue's kind, time (seconds from the start of the block) and speed.
///
/// An event at time of impact `toi` gives a cue at `start + toi · time_scale`; the rules'
/// events happen at the end of the step (`toi = dt`).
///
/// # Which event makes which sound
/// Contacts ([`Event::Contact`], by [`collide_world::Contact::kind`]): `ball_ball` →
/// [`SoundKind::BallBall`]; `ball_wall`, `ball_tile` on a wall cell, `ball_rect` on a
/// rectangle other than the paddle, `rect_tile`, `rect_wall`, `rect_rect` →
/// [`SoundKind::Wall`]; `ball_rect` on the paddle → [`SoundKind::Paddle`]; `ball_tile` on a
/// brick that is still there → [`SoundKind::BrickHit`] (on a brick the same hit destroyed,
/// nothing: its `BrickDestroyed` sounds); `BrickDestroyed` → [`SoundKind::BrickBreak`];
/// `BallLost` → [`SoundKind::BallLost`]; the rules' power-up caught, life lost and level
/// cleared → [`SoundKind::PowerUp`], [`SoundKind::LifeLost`], [`SoundKind::LevelCleared`].
/// `RectLost`, `Unembedded`, `IterationLimit`, `Squeezed` and `FlipperSqueezed` make no
/// sound.
///
/// # Impact speed
/// Contact events carry their impact speed (the normal relative speed before the bounce), used
/// as is. A destroyed brick uses the speed of the ball that hit it at the end of the step; a
/// lost ball and the rules' events have none.
pub fn for_each_step_cue<F>(game: &Game, start: f64, time_scale: f64, mut f: F)
where
    F: FnMut(SoundKind, f64, &dyn Fn() -> Option<f64>),
{
    let world = game.world();
    let paddle = game.breaker().map(collide_game::Breaker::paddle);
    let at = |toi: Real| start + toi * time_scale;
    for e in game.last_events() {
        match *e {
            Event::Contact(Contact {
                body: Body::Ball(_),
                other: Target::Ball(_),
                toi,
                speed,
                ..
            }) => {
                f(SoundKind::BallBall, at(toi), &|| Some(speed));
            }
            Event::Contact(Contact {
                body: Body::Ball(_),
                other: Target::Wall(_),
                toi,
                speed,
                ..
            }) => f(SoundKind::Wall, at(toi), &|| Some(speed)),
            Event::Contact(Contact {
                body: Body::Ball(_),
                other: Target::Cell(cell),
                toi,
                speed,
                ..
            }) => {
                let kind = match world.grid().map(|g| g.cell(cell)) {
                    Some(Cell::Brick(_)) => SoundKind::BrickHit,
                    Some(Cell::Wall | Cell::Slope(_)) => SoundKind::Wall,
                    // Destroyed by this very hit: its BrickDestroyed event sounds.
                    // (A sensor cell is never hit.)
                    Some(Cell::Empty | Cell::Sensor(_)) | None => continue,
                };
                f(kind, at(toi), &|| Some(speed));
            }
            Event::Contact(Contact {
                body: Body::Ball(_),
                other: Target::Rect(rect),
                toi,
                speed,
                ..
            }) => {
                let kind = if Some(rect) == paddle {
                    SoundKind::Paddle
                } else {
                    SoundKind::Wall
                };
                f(kind, at(toi), &|| Some(speed));
            }
            Event::Contact(Contact {
                body: Body::Rect(_),
                other: Target::Cell(_) | Target::Wall(_) | Target::Rect(_),
                toi,
                speed,
                ..
            }) => {
                f(SoundKind::Wall, at(toi), &|| Some(speed));
            }
            Event::BrickDestroyed { by, toi, .. } => {
                f(SoundKind::BrickBreak, at(toi), &|| match by {
                    Body::Ball(id) => world.ball(id).map(|b| b.vel.length()),
                    Body::Rect(id) => world.rect(id).map(|r| r.vel.length()),
                    Body::Character(id) => world.character(id).map(|c| c.vel.length()),
                });
            }
            Event::BallLost { toi, .. } => f(SoundKind::BallLost, at(toi), &|| None),
            // Lost rectangles, bodies pushed out or stopped by the step's bounds: no sound.
            _ => {}
        }
    }
    let end = world.config().dt;
    for e in game.last_game_events() {
        let kind = match e {
            GameEvent::PowerUpCaught { .. } => SoundKind::PowerUp,
            GameEvent::LifeLost { .. } => SoundKind::LifeLost,
            GameEvent::LevelCleared { .. } => SoundKind::LevelCleared,
            // A kind added to the game later is silent until it gets a sound.
            #[allow(unreachable_patterns)]
            _ => continue,
        };
        f(kind, at(end), &|| None);
    }
}
