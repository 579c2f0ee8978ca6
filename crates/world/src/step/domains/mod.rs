//! Spatial domains: [`World::step`] on several threads, with the same bits as one thread.
//!
//! # What it does
//! A large world of balls (at least [`MIN_BALLS`], [`World::set_threads`] above 1) is cut into
//! vertical strips, one *domain* each, about [`BALLS_PER_DOMAIN`] balls a domain. A domain
//! owns the balls whose centres are in its strip at the start of a step, and keeps its own
//! world (a [`World`] holding only some balls, with its own predictions, broad phase and
//! queue) with its owned balls and copies of its neighbours' balls within a *halo* of width
//! `H` beyond its strip. Every domain steps its world on its own, the domains in parallel
//! (`std::thread::scope`), and the step is then *verified*: if the check passes, each
//! domain's owned balls are the serial step's, bit for bit, and are copied into the world;
//! if it fails, the step is run again serially (from the untouched world) and the domains are
//! built again at the next step. This is optimistic parallel discrete-event simulation (D.
//! Jefferson, "Virtual time", ACM TOPLAS 7, 1985) with the step as the unit of rollback, and
//! the check below in place of per-event anti-messages.
//!
//! # Why the check makes the result exact
//! Results depend only on the balls' paths: contact times are canonical (solved from both
//! balls' anchors, in id order, `step/contact.rs`), simultaneous events are ordered by stable ids
//! (not storage places), so a world holding a subset of the balls computes, for the balls
//! whose history it sees in full, the same bits as the whole world. What a domain may not see
//! in full is a copy of a neighbour's ball (a *ghost*): the ghost can be hit by a ball that
//! only the neighbour has. So every domain records each ball's velocity changes (new path
//! and partner), and for every ball held by two domains the two records are compared: `D`,
//! the time of the first difference (none when identical), is when the non-owner's copy left
//! the true path (the owner's record is the truth, by induction on the earliest error).
//! The step is accepted when, for every ball `x` whose copies differ from time `D`:
//! 1. in the non-owner's world, `x` hits no ball the non-owner owns at or after `D` (its
//!    wrong copy did not touch a ball whose result will be kept);
//! 2. the swept box of `x`'s true path over `[D, end]` (grown by its radius) meets no swept
//!    box of the true path of a ball the non-owner owns and the owner holds a copy of (grown
//!    by that ball's radius): the true `x` did not meet a ball whose owner's world had a
//!    wrong `x`;
//!
//! and no ball can reach a ball that its owner's world does not hold: the halo `H` exceeds
//! `2·v_max·dt + 2·r_max`, with `v_max` the largest speed any ball had during the step. Take
//! the earliest time `t` at which a kept ball's path is wrong: its event at `t` involves a
//! ghost whose copy was wrong before `t` (excluded by 1), or a true contact that its world
//! missed because the partner's copy was wrong (excluded by 2), or a ball its world does not
//! hold (excluded by the halo). The same argument runs for every domain, so the step's kept
//! paths are the serial step's. The events are merged in their canonical order
//! (`World::order_events`: time, then the id of the body an event is about), each from the
//! domain that owns that body.
//!
//! # When it is used
//! Only where a domain's world can reproduce the serial step: balls only (no rectangle), all
//! four walls closed, ball–ball collisions on, restitution 1 and no ball or cell kind with a
//! restitution of its own (`material.rs`: every collision is then elastic, so the TC rule,
//! which reads last-hit times a domain's copy may not have, changes nothing), no destructible
//! brick (a brick destroyed in one domain would stay in another), nothing embedded, and a
//! world wide enough for at least two strips of three halos. Collision layers
//! (`crate::model::filter`) are no obstacle: each copy of a ball carries its filter. Any edit of the
//! world drops the domains; they are built again (every domain predicting its balls) after
//! [`CALM_STEPS`] steps without an edit, the serial loop stepping meanwhile. Otherwise the
//! step is the serial one.
//!
//! Must not depend on anything but the world itself (no thread pool: `std::thread::scope`).

use collide_core::Real;

pub(crate) mod run;

/// No domain, no ball.
const NONE: u32 = u32::MAX;
/// How a domain holds a ball (`Sub::hold`).
const GHOST: u8 = 0;
const ALONE: u8 = 1;
const SHARED: u8 = 2;

/// How domain `k` holds a ball owned by `h` and copied by `s` (`NONE`: by no other).
fn hold_of(k: u32, h: u32, s: u32) -> u8 {
    match (k == h, s == NONE) {
        (false, _) => GHOST,
        (true, true) => ALONE,
        (true, false) => SHARED,
    }
}

/// Steps without an edit of the world before it is cut into domains (again): building them
/// predicts every ball, which an edit every step (a game steering balls) would pay every step,
/// where the serial loop predicts only what the edit concerns.
pub(crate) const CALM_STEPS: u64 = 8;

/// Fewest balls for which a world is cut into domains.
pub(crate) const MIN_BALLS: usize = 20_000;
/// Balls per domain aimed at when cutting a world (measured: `examples/domains_bound.rs`).
pub(crate) const BALLS_PER_DOMAIN: usize = 10_000;

/// One domain: its world (owned balls and copies of its neighbours'), and its balls' places.
#[derive(Clone, Debug)]
struct Sub<W> {
    world: W,
    /// Local index → index in the whole world.
    global: Vec<u32>,
    /// Local index → how this domain holds the ball: `GHOST` (a copy of a neighbour's),
    /// `ALONE` (owned, held by no other domain) or `SHARED` (owned, copied by a neighbour).
    hold: Vec<u8>,
    /// Found by `survey` after the step: the owned balls that changed course (local indices,
    /// to be written into the world).
    written: Vec<u32>,
    /// Its events about balls it owns: time, order key (the ball's id slot) and place in its
    /// events.
    kept: Vec<(Real, u32, u32)>,
    /// The id slots of the balls it holds as copies, sorted (found by `survey`).
    ghost_ids: Vec<u32>,
    /// Its records of balls held by two domains: (ball, this domain, place in its trace).
    twice: Vec<(u32, u32, u32)>,
    /// Its owned balls now held by other domains than before: (ball, new owner, new second
    /// holder or `NONE`).
    changed: Vec<(u32, u32, u32)>,
    /// The largest speed of its owned balls at the end of the step.
    v_max: Real,
    /// Set by the commit: changes of how it holds a ball (local, how), balls to add
    /// (whole-world index, how); then, for `update`, copies to correct (local index in its
    /// world, whole-world index), balls to drop (local, ascending), balls to join (whole-world
    /// index).
    flips: Vec<(u32, u8)>,
    adds: Vec<(u32, u8)>,
    syncs: Vec<(u32, u32)>,
    drops: Vec<usize>,
    joins: Vec<u32>,
}

/// The world cut into domains (kept in [`World`] between steps).
#[derive(Clone, Debug)]
pub(crate) struct Domains<W> {
    subs: Vec<Sub<W>>,
    /// Domain `k` owns the centres with `cuts[k - 1] <= x < cuts[k]` (no bound at the ends).
    cuts: Vec<Real>,
    /// Width of the halo of copies around each strip, world units.
    halo: Real,
    /// Largest ball radius.
    r_max: Real,
    /// Largest speed at the start of the step.
    v0_max: Real,
    /// Per ball (whole-world index): its owner, and the other domain holding a copy (`NONE`),
    /// and where the (at most two) domains holding it keep it: (domain, local index), `NONE`
    /// in both for a free place.
    home: Vec<u32>,
    second: Vec<u32>,
    places: Vec<[(u32, u32); 2]>,
    /// Reused buffers: trace entries of balls held twice (ball, domain, place in its trace),
    /// diverged balls (ball, `D`), each domain's next event in the merge.
    shared: Vec<(u32, u32, u32)>,
    diverged: Vec<(u32, Real)>,
    heads: Vec<Option<(Real, u32, usize)>>,
}
