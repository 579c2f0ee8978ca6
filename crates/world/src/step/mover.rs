//! A mover's records: its hot record ([`Mover`]), what it predicted ([`Prediction`],
//! [`Predicted`], [`PairRef`]), which prediction comes next ([`Next`]), and the accessors that
//! read a mover (a ball or a dynamic rectangle) by its mover index.

use crate::model::cell::CellCoord;
use crate::model::event::{Body, Side};
use collide_core::{Feature, Real, Vec2};

// A mover's `state`: moving; stopped for the rest of the step (at the event bound, or
// crushed); gone (lost through an open side, or removed).
pub(super) const ACTIVE: u8 = 0;
pub(super) const FROZEN: u8 = 1;
pub(super) const DEAD: u8 = 2;

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum PTarget {
    Cell(CellCoord),
    Wall(Side),
    Lost(Side),
    /// A static or kinematic rectangle (dense index).
    Rect(u32),
    /// Another mover.
    Mover(u32),
    /// A static shape (dense index, `shapes.rs`).
    Shape(u32),
    /// The square of a sensor cell a ball touches moving in (`sensors.rs`).
    SensorCell(CellCoord),
    /// A flipper (dense index, `flippers.rs`), met while it turns or while it is held.
    Flipper {
        index: u32,
        turning: bool,
    },
    /// The end of the face that holds a resting ball (`rest.rs`).
    RestEnd,
    /// The end of one of a ball's passes (`pass.rs`): it leaves a sensor, or a body whose
    /// contact a hook ignored.
    PassEnd,
    /// A character's box where it stands during the event loop (dense index,
    /// `character_obstacle.rs`).
    Character(u32),
}

/// A mover's predictions as [`World::compute_prediction`] finds them.
#[derive(Clone, Copy, Debug)]
pub(super) struct Predicted {
    pub(super) stat: Option<Prediction>,
    pub(super) stat_until: Real,
    pub(super) pair: Option<Prediction>,
    pub(super) cross: (Real, u32),
}

impl Default for Predicted {
    fn default() -> Self {
        Predicted {
            stat: None,
            stat_until: Real::NEG_INFINITY,
            pair: None,
            cross: NO_CROSSING,
        }
    }
}

/// A mover's hot record: what the event loop reads at every event, in one cache line (the
/// predictions themselves, read only when one fires, live in `Scratch::stat`/`pair`).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(super) struct Mover {
    /// Absolute time of the mover's current state.
    pub(super) t: Real,
    /// The absolute time up to which its predictions looked.
    pub(super) horizon: Real,
    /// With `stat_hit`, the time of its static event; else the absolute time up to which
    /// its static search looked (a ball near no tile searches a window, see `static_event`).
    pub(super) stat_t: Real,
    /// The time of its pair event (infinite when none).
    pub(super) pair_t: Real,
    /// Its next broad-phase cell crossing: absolute time (infinite when none) and next cell.
    pub(super) cross_t: Real,
    pub(super) cross_cell: u32,
    /// Bumped whenever its velocity changes (voids predictions made against its old path).
    pub(super) motion: u32,
    /// Its kind, as a tag: [`BALL`] for a ball (`balls[m]`, the mover's own index), else
    /// the dense index `k` of the dynamic rectangle `rects[k]` it is ([`Mover::body`]).
    pub(super) rect: u32,
    /// Its velocity changes this step (bounded by `max_events_per_body`).
    pub(super) events: u32,
    /// Its search events this step: cell crossings and static windows' ends (bounded, see
    /// `over_search_bound`).
    pub(super) searches: u32,
    /// `ACTIVE`, `FROZEN` or `DEAD`.
    pub(super) state: u8,
    /// Whether `stat_t` is a static event's time.
    pub(super) stat_hit: bool,
    /// Whether it crossed a broad-phase cell at the step's first instant before any search
    /// event, the one crossing a step does not count (`World::cross`).
    pub(super) start_crossed: bool,
    /// Past its own event bound: how many of its events came at the instant of the one
    /// before (bounded by [`SAME_INSTANT_LOANS`]).
    pub(super) same_instant: u8,
}

// The hot record stays one cache line.
const _: () = assert!(std::mem::size_of::<Mover>() == 64);

impl Mover {
    /// Mover `m` at absolute time `t0` with nothing predicted yet: a ball (`rect` =
    /// [`BALL`]) or the dynamic rectangle `rects[rect]`.
    pub(super) fn new(t0: Real, rect: u32) -> Mover {
        Mover {
            t: t0,
            horizon: t0,
            stat_t: t0,
            pair_t: Real::INFINITY,
            cross_t: Real::INFINITY,
            cross_cell: u32::MAX,
            motion: 0,
            rect,
            events: 0,
            searches: 0,
            state: ACTIVE,
            stat_hit: false,
            start_crossed: false,
            same_instant: 0,
        }
    }
}

/// Events at the instant of its event before that a mover past its own
/// `max_events_per_body` may borrow from the step's pool in one step: a ball in a pile meets
/// two of its neighbours at one instant now and then, while a zero-time loop (a squeeze with
/// no room, a wedge the rules do not resolve) stops after this many and never spends the
/// pool.
pub(super) const SAME_INSTANT_LOANS: u8 = 8;

/// [`Mover::rect`] of a ball.
pub(super) const BALL: u32 = u32::MAX;

/// What a mover is: its kind and its place in that kind's storage, read from its record's
/// tag ([`Mover::body`]), never from where its index falls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MoverBody {
    /// Ball `balls[i]` (a ball's mover index is its place among the balls).
    Ball(usize),
    /// Dynamic rectangle `rects[k]` (dense index).
    Rect(usize),
}

impl Mover {
    /// What mover `m` (this record's index) is.
    #[inline(always)]
    pub(super) fn body(&self, m: usize) -> MoverBody {
        if self.rect == BALL {
            MoverBody::Ball(m)
        } else {
            MoverBody::Rect(self.rect as usize)
        }
    }

    /// Whether this mover is a ball.
    #[inline(always)]
    pub(super) fn is_ball(&self) -> bool {
        self.rect == BALL
    }
}

/// Which of a mover's stored predictions comes next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Next {
    /// Leaving its broad-phase cell (no velocity change).
    Cross,
    /// Its static event.
    Static,
    /// Its pair event.
    Pair,
    /// The end of its static search window: search static geometry further.
    StaticHorizon,
    /// Nothing before its horizon: predict again then.
    Horizon,
}

/// No crossing: a rectangle, no broad phase, or a ball at rest.
pub(super) const NO_CROSSING: (Real, u32) = (Real::INFINITY, u32::MAX);

/// A stored pair event: the partner (a mover index, `NO_PARTNER` when none) and its `motion`
/// when the contact was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct PairRef {
    pub(super) partner: u32,
    pub(super) motion: u32,
}

pub(super) const NO_PARTNER: u32 = u32::MAX;
/// A partner that was removed from the world: a void pair event (searched again).
pub(super) const GONE_PARTNER: u32 = u32::MAX - 1;

impl PairRef {
    pub(super) const NONE: PairRef = PairRef {
        partner: NO_PARTNER,
        motion: 0,
    };
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Prediction {
    /// Absolute time of the event (balls: anchor time + `toi_anchor`).
    pub(super) time: Real,
    /// Balls: time of impact measured from the ball's anchor.
    pub(super) toi_anchor: Real,
    pub(super) target: PTarget,
    pub(super) normal: Vec2,
    pub(super) point: Vec2,
    pub(super) feature: Feature,
    pub(super) partner_motion: u32,
}

/// A body's order key among events of the same instant: a ball's id slot, a rectangle's id
/// slot above every ball's (as `World::order_key`).
#[inline]
pub(crate) fn body_key(b: Body) -> u32 {
    match b {
        Body::Ball(id) => id.index(),
        Body::Rect(id) => (1 << 31) | id.index(),
        Body::Character(id) => (1 << 30) | id.index(),
    }
}
