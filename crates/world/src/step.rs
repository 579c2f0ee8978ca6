//! The fixed step: exact, event-driven continuous collision detection within `dt`.
//!
//! # Algorithm
//! Within one step every moving body (ball or dynamic rectangle, a *mover*) follows its exact
//! piecewise-linear path. Each mover predicts its next event before the end of the step: the
//! earliest contact with an exposed tile feature, a closed wall, a static or kinematic
//! rectangle (swept in the relative frame), another mover (ball–ball when enabled), or leaving
//! through an open side. Predictions go into one priority queue ordered by (time, stable id).
//! The earliest is popped, both bodies are advanced to that instant, the response is applied,
//! and only the bodies involved predict again. This is the event-driven scheme of hard-disc
//! molecular dynamics (D. C. Rapaport, J. Comput. Phys. 34, 1980; B. D. Lubachevsky,
//! J. Comput. Phys. 94, 1991, "lazy" per-body times) with the step's end as horizon.
//!
//! Each mover keeps three predictions, each valid until something it depends on changes:
//! - its *static* event (tiles, walls, open sides, static and kinematic rectangles), valid
//!   while its velocity is unchanged and the brick it aims at exists. A ball far from every
//!   tile searches as far as the grid's clearance map guarantees a free run, without walking
//!   the grid; near tiles it walks a short window and searches further when the window ends;
//! - its *pair* event (the earliest contact with a mover of its broad-phase neighbourhood,
//!   or with a dynamic rectangle), which records the partner's `motion` counter (bumped
//!   whenever the partner's velocity changes) and is void when it changed: the mover then
//!   searches its neighbourhood again from that instant. A ball–ball contact is solved from
//!   both balls' anchors in index order (`ball_ball_contact`), so its time is the same bits
//!   whoever finds it and whenever: with static events solved from the anchor as well,
//!   results depend neither on the step size nor on the broad phase's cell size;
//! - its next broad-phase *cell crossing*. At a crossing only the cells that enter its 3×3
//!   neighbourhood are searched: the pair search was never cut at the crossing, so the old
//!   and new searches together cover the new neighbourhood.
//!
//! The queue holds one entry per mover, keyed by the earliest of the three (`queue.rs`: only
//! the entries due within the step are kept in time order, in a calendar queue). A
//! prediction aimed at a brick that another body destroyed first is void the same way.
//! Destroying a brick can only remove obstacles, and the features it exposes lie inside the
//! destroyed cell's grown region, so no other prediction can become too late.
//!
//! Predictions reach `LOOKAHEAD_STEPS` steps beyond the step's end and live on across steps
//! while nothing outside the step edits the world. Movers whose predictions end within a step
//! predict again at its start, all from the same state: that batch (and the first prediction
//! of every mover after an edit) may run on several threads ([`World::set_threads`]), and its
//! result does not depend on how many. The edits a game makes every frame keep the rest of
//! the world's predictions: a ball given a new velocity or position predicts again alone (as
//! after a collision), and a kinematic rectangle given a new velocity (a paddle) makes only the
//! movers it can concern predict again (`World::concerned_by_new_paths`); both give the same
//! bits as predicting everything again. Without dynamic rectangles, a ball added (no larger
//! than the largest so far) joins and predicts alone (`World::join_added_balls`), and balls
//! lost through an open side are removed without disturbing the others' predictions
//! (`Scratch::drop_lost_balls`). Any other edit predicts everything again.
//!
//! Contact at start follows Bannerman et al. (2014): touching and approaching is a collision at
//! once, touching and separating is none. With that, rounding can neither tunnel a body nor
//! stick it: no tolerance band, no random nudge (seed 000's problem 2).
//!
//! Determinism: the queue order is total (time, then the body's stable id, then mover index),
//! a mover met by several partners at the same instant meets the one of lowest id first (not
//! the first its broad phase lists, nor the first stored), a ball–ball contact is solved in id
//! order, so that simultaneous events do not depend on where bodies are stored (removals move
//! them; a domain's world, `domains.rs`, stores a subset); events are reported in a canonical
//! order (`World::order_events`); bodies are visited in storage order, parallel work only
//! computes predictions from one frozen state and applies them in mover order, and only
//! `+ - * / sqrt` are used.

use crate::broad::CellLists;
use crate::desc::{Cell, RectKind};
use crate::event::{Body, Event, Side};
use crate::grid::CellCoord;
use crate::queue::EventQueue;
use crate::squeeze::{carry_velocity, Carry, Probe, Wedge};
use crate::world::World;
use collide_core::{
    collide_elastic, reflect, reflect_relative, sweep_aabb_aabb, sweep_circle_aabb,
    sweep_circle_circle, sweep_circle_half_plane, Aabb, Feature, Features, Real, SweepHit, Vec2,
};

const ACTIVE: u8 = 0;
const FROZEN: u8 = 1;
const DEAD: u8 = 2;

#[derive(Clone, Copy, Debug, PartialEq)]
enum PTarget {
    Cell(CellCoord),
    Wall(Side),
    Lost(Side),
    /// A static or kinematic rectangle (dense index).
    Rect(u32),
    /// Another mover.
    Mover(u32),
}

/// A mover's predictions as [`World::compute_prediction`] finds them.
#[derive(Clone, Copy, Debug)]
struct Predicted {
    stat: Option<Prediction>,
    stat_until: Real,
    pair: Option<Prediction>,
    cross: (Real, u32),
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

/// Fewest predictions per thread worth a parallel batch (below, one thread does it all).
const MIN_PARALLEL_BATCH: usize = 1024;

/// A mover's hot record: what the event loop reads at every event, in one cache line (the
/// predictions themselves, read only when one fires, live in `Scratch::stat`/`pair`).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
struct Mover {
    /// Absolute time of the mover's current state.
    t: Real,
    /// The absolute time up to which its predictions looked.
    horizon: Real,
    /// With `stat_hit`, the time of its static event; else the absolute time up to which
    /// its static search looked (a ball near no tile searches a window, see `static_event`).
    stat_t: Real,
    /// The time of its pair event (infinite when none).
    pair_t: Real,
    /// Its next broad-phase cell crossing: absolute time (infinite when none) and next cell.
    cross_t: Real,
    cross_cell: u32,
    /// Bumped whenever its velocity changes (voids predictions made against its old path).
    motion: u32,
    /// Its velocity changes this step (bounded by `max_events_per_body`).
    events: u32,
    /// Its search events this step: cell crossings and static windows' ends (bounded, see
    /// `over_search_bound`).
    searches: u32,
    /// `ACTIVE`, `FROZEN` or `DEAD`.
    state: u8,
    /// Whether `stat_t` is a static event's time.
    stat_hit: bool,
}

impl Mover {
    /// A mover at absolute time `t0` with nothing predicted yet.
    fn new(t0: Real) -> Mover {
        Mover {
            t: t0,
            horizon: t0,
            stat_t: t0,
            pair_t: Real::INFINITY,
            cross_t: Real::INFINITY,
            cross_cell: u32::MAX,
            motion: 0,
            events: 0,
            searches: 0,
            state: ACTIVE,
            stat_hit: false,
        }
    }
}

/// Which of a mover's stored predictions comes next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Next {
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
/// The shortest static search window of a ball, in grid cells (see `static_event`).
const STATIC_WINDOW_CELLS: Real = 0.5;

const NO_CROSSING: (Real, u32) = (Real::INFINITY, u32::MAX);

/// The first contact of balls `a` and `b` at an absolute time at most `limit`: that time and
/// the hit as seen from `a` (normal from `b` toward `a`; the contact point, where the two
/// surfaces touch).
///
/// Canonical: both balls are taken from their anchors at the later of their two anchor times
/// and swept in the order of their stable ids (not of their storage places), so the pair's
/// contact time, normal and point are the same bits whichever of the two searches, whenever
/// it searches (after a cell crossing, at a horizon, at another step size) and wherever the
/// two are stored. Only the normal's sign depends on which ball asks (an exact negation). Swept circle against circle as a point against the Minkowski sum of
/// radius `r_a + r_b` (`collide_core::sweep_circle_circle`).
// Always inlined: it is the inner loop of every pair search (also called, once per event,
// to solve a stored pair again).
#[inline(always)]
fn ball_ball_contact(
    a: &crate::world::BallRec,
    b: &crate::world::BallRec,
    limit: Real,
) -> Option<(Real, SweepHit)> {
    let (p, q, flip) = if a.id.index() < b.id.index() {
        (a, b, false)
    } else {
        (b, a, true)
    };
    // `max` by one compare: anchor times are never NaN (nor -0), so this is `f64::max`
    // without its NaN handling, on every candidate of every pair search.
    let tr = if q.anchor_time > p.anchor_time {
        q.anchor_time
    } else {
        p.anchor_time
    };
    let pp = p.pos_at(tr);
    let pq = q.pos_at(tr);
    let mut h = sweep_circle_circle(pp, p.radius, p.vel, pq, q.radius, q.vel, limit - tr)?;
    if flip {
        // As seen from `a` (= q): the normal points toward q (the contact point is shared).
        h.normal = -h.normal;
    }
    Some((tr + h.toi, h))
}

/// The velocity nearest to `v` that moves away from neither of two contacts met at the same
/// instant (`v·n ≥ 0` and `v·prev ≥ 0`, normals toward the body): `v` itself if it does,
/// else its projection on the tangent of one contact that leaves the other (for facing
/// normals, an exact fit: the tangential part, so the body slides along both), else rest.
/// The projection onto the cone of free velocities, as a contact solver's two-contact
/// linear complementarity problem gives it (D. Baraff, "Fast contact force computation for
/// nonpenetrating rigid bodies", SIGGRAPH 1994); the normal parts it removes are lost energy,
/// the price of a wedge (`docs/algorithms.md`, "Exact fits").
fn leave_wedge(v: Vec2, n: Vec2, prev: Vec2) -> Vec2 {
    if v.dot(n) >= 0.0 && v.dot(prev) >= 0.0 {
        return v;
    }
    let mut best = Vec2::ZERO;
    for (a, b) in [(n, prev), (prev, n)] {
        let p = v - a * (v.dot(a) / a.length_squared());
        if p.dot(b) >= 0.0 && (p - v).length_squared() < (best - v).length_squared() {
            best = p;
        }
    }
    best
}

/// A static search's result as a prediction: the earliest hit (time from `origin`, the start
/// of the mover's path), never before `s_t` (now).
#[inline]
fn static_found(
    best: Option<(Real, PTarget, SweepHit)>,
    origin: Real,
    s_t: Real,
) -> Option<Prediction> {
    best.map(|(toi, target, hit)| Prediction {
        time: (origin + toi).max(s_t),
        toi_anchor: toi,
        target,
        normal: hit.normal,
        point: hit.point,
        feature: hit.feature,
        partner_motion: 0,
    })
}

/// Keeps the hit of a static search at `toi` (from the mover's path start) in `best` when it is
/// the earliest so far and within `limit`, which it then becomes (later hits are not wanted).
#[inline]
fn take(
    toi: Real,
    target: PTarget,
    hit: SweepHit,
    best: &mut Option<(Real, PTarget, SweepHit)>,
    limit: &mut Real,
) {
    if toi <= *limit && best.is_none_or(|b| toi < b.0) {
        *best = Some((toi, target, hit));
        *limit = toi;
    }
}

/// The "hit" of leaving through an open side at `toi`, centre at `point`: no normal.
#[inline]
fn no_hit(toi: Real, point: Vec2) -> SweepHit {
    SweepHit {
        toi,
        normal: Vec2::ZERO,
        point,
        feature: Feature::Circle,
    }
}

/// A stored pair event: the partner (a mover index, `NO_PARTNER` when none) and its `motion`
/// when the contact was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PairRef {
    partner: u32,
    motion: u32,
}

const NO_PARTNER: u32 = u32::MAX;
/// A partner that was removed from the world: a void pair event (searched again).
const GONE_PARTNER: u32 = u32::MAX - 1;

impl PairRef {
    const NONE: PairRef = PairRef {
        partner: NO_PARTNER,
        motion: 0,
    };
}

#[derive(Clone, Copy, Debug)]
struct Prediction {
    /// Absolute time of the event (balls: anchor time + `toi_anchor`).
    time: Real,
    /// Balls: time of impact measured from the ball's anchor.
    toi_anchor: Real,
    target: PTarget,
    normal: Vec2,
    point: Vec2,
    feature: Feature,
    partner_motion: u32,
}

/// Whether pair prediction `q` comes before a stored pair event at `time`: earlier, or at the
/// same time with a partner of lower order key (`keys` gives both partners' keys, `q`'s
/// first; looked up only on a tie). The order `pair_event` keeps, whatever the broad phase's
/// list order.
#[inline]
fn pair_before(q: &Prediction, time: Real, keys: impl FnOnce() -> (u32, u32)) -> bool {
    q.time < time
        || (q.time == time && {
            let (q_key, key) = keys();
            q_key < key
        })
}

/// A body's order key among events of the same instant: a ball's id slot, a rectangle's id
/// slot above every ball's (as `World::order_key`).
#[inline]
pub(crate) fn body_key(b: Body) -> u32 {
    match b {
        Body::Ball(id) => id.index(),
        Body::Rect(id) => (1 << 31) | id.index(),
    }
}

/// The TC rule's window in steps (see `resolve`).
const TC_STEPS: Real = 1e-4;

/// How far beyond the end of the current step a prediction looks, in steps, when the world
/// is left alone between steps (predictions then live on across steps).
const LOOKAHEAD_STEPS: Real = 128.0;

/// The event machinery, kept in the world between steps: every mover's latest prediction and
/// the queue of them live on from step to step while nothing outside the step changes the
/// world; any edit (a body added, moved or removed, a cell or a setting changed) sets `valid`
/// to false and the next step predicts everything again, except a new velocity or position
/// for a ball and a new velocity for a kinematic rectangle (`steered`, `paths_changed`: only the movers concerned predict
/// again). Reused buffers: steady-state steps do not allocate.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    /// The structures below match the world.
    pub(crate) valid: bool,
    /// Consecutive steps that had to start by predicting everything again.
    rebuilds: u32,
    /// Each mover's hot record (time, state, the times of its predictions): one cache line.
    mv: Vec<Mover>,
    /// Absolute time of each mover's last collision (for the TC rule).
    last_hit: Vec<Real>,
    /// The contact normal of each mover's last collision when it was with an immovable
    /// obstacle (a tile, a wall, a resting rectangle), zero otherwise: a second such contact
    /// at the same instant whose normal opposes it wedges the mover (`leave_wedge`).
    last_normal: Vec<Vec2>,
    /// Each mover's earliest event with static geometry (tiles, walls, open sides, static and
    /// kinematic rectangles) before its horizon; valid while its velocity is unchanged (and
    /// the brick it aims at exists).
    stat: Vec<Option<Prediction>>,
    /// Each mover's earliest event with another mover found so far, before its static event
    /// and its horizon (its time is `Mover::pair_t`); valid while the partner's `motion` is
    /// unchanged. Only the partner is kept: the contact is solved again, to the same bits,
    /// when the event fires (`World::stored_pair`), so the array stays 8 bytes a mover.
    pair: Vec<PairRef>,

    queue: EventQueue,
    /// Dense indices of the dynamic rectangles; mover `nb + k` is `rects[dyn_rects[k]]`.
    dyn_rects: Vec<u32>,
    bp: CellLists,
    use_bp: bool,
    /// Largest ball radius this step (for the rectangles' broad-phase queries).
    max_radius: Real,
    /// Scratch list of candidate movers.
    cand: Vec<u32>,
    /// Movers to predict anew at the start of a step, and their predictions.
    batch: Vec<u32>,
    batch_out: Vec<Predicted>,
    dead_balls: Vec<usize>,
    dead_rects: Vec<usize>,
    /// While lost balls are removed: the old index of each mover now at that index, and the
    /// new index of each old one (`u32::MAX`: removed).
    perm: Vec<u32>,
    new_of_old: Vec<u32>,
    /// Movers to predict again at the start of the next step: stopped at the iteration
    /// bound, or with nothing to do before the end of this step.
    frozen: Vec<u32>,
    /// Bodies crushed during this step (`squeeze.rs`), pushed out at its end.
    crushed: Vec<Body>,
    /// Some mover was stopped at the iteration bound during this step: the pair searches then
    /// look at each candidate's state, to meet a stopped ball as an obstacle at rest.
    any_frozen: bool,
    /// Movers whose predictions end within the next step (found at the end of this one).
    renew: Vec<u32>,
    /// Balls given a new velocity or position between steps ([`World::set_ball_velocity`],
    /// [`World::set_ball_position`]): they predict again at the next step's start, the rest of
    /// the world keeps its predictions.
    steered: Vec<u32>,
    /// Kinematic rectangles (dense indices) given a new path between steps
    /// ([`World::set_rect_velocity`]).
    paths_changed: Vec<u32>,
    /// Balls added between steps ([`World::add_ball`]) that join without predicting
    /// everything again: the last ones, in order.
    added: usize,
    /// Absolute times of the step's start and end, and the predictions' horizon.
    t0: Real,
    t1: Real,
    cap: Real,
    /// The part of the world the balls occupy, when it is not the whole world (a domain's
    /// world, `domains.rs`): the broad phase's cells cover it and are sized for its density
    /// (balls outside it live in the border cells, which extend to infinity outward).
    pub(crate) region: Option<Aabb>,
    /// Reused buffers of `World::order_events`.
    event_order: Vec<(Real, u32, u32)>,
    event_buf: Vec<Event>,
    /// Record every velocity change in `trace` (a domain's world, `domains.rs`).
    pub(crate) tracing: bool,
    /// This step's velocity changes, in the order they happened (when `tracing`).
    pub(crate) trace: Vec<Trace>,
}

/// One velocity change of a ball (recorded by a domain's world, `domains.rs`): the ball, the
/// ball it collided with (`u32::MAX` for static geometry) and the start of its new path.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Trace {
    /// Mover index in the world that recorded it.
    pub(crate) m: u32,
    /// The other ball's mover index, or `u32::MAX`.
    pub(crate) partner: u32,
    /// The new path: its start (absolute time and position) and velocity.
    pub(crate) anchor_time: Real,
    pub(crate) anchor: Vec2,
    pub(crate) vel: Vec2,
}

impl Scratch {
    /// Ball (mover) `m` was given a new path between steps (re-anchored at the world's time):
    /// with valid predictions, only it predicts again at the next step; otherwise everything
    /// is predicted again anyway.
    pub(crate) fn course_changed(&mut self, m: usize) {
        if self.valid {
            self.steered.push(m as u32);
        }
    }

    /// Removes the lost balls `dead_balls` (ascending, all balls: no dynamic rectangle) from
    /// the step's records the way `World::remove_ball` removes them from the world, highest
    /// index first, each by a swap with the last ball: the moved balls keep their records,
    /// list places, queue entries (at their new index) and predictions; pair events aimed at
    /// a removed ball become void (`GONE_PARTNER`), those aimed at a moved one follow it.
    fn drop_lost_balls(&mut self) {
        let n = self.mv.len();
        self.perm.clear();
        self.perm.extend(0..n as u32);
        for &i in self.dead_balls.iter().rev() {
            let last = self.mv.len() - 1;
            self.mv.swap_remove(i);
            self.last_hit.swap_remove(i);
            self.last_normal.swap_remove(i);
            self.stat.swap_remove(i);
            self.pair.swap_remove(i);
            self.perm.swap_remove(i);
            if i == last {
                if self.use_bp {
                    self.bp.pop_last();
                }
                self.queue.pop_last();
            } else {
                if self.use_bp {
                    self.bp.rename_last(last, i);
                }
                self.queue.rename_last(last, i);
            }
        }
        self.new_of_old.clear();
        self.new_of_old.resize(n, u32::MAX);
        for (new, &old) in self.perm.iter().enumerate() {
            self.new_of_old[old as usize] = new as u32;
        }
        let new_of_old = &self.new_of_old;
        let renamed = |m: u32| new_of_old[m as usize];
        for p in &mut self.pair {
            if p.partner != NO_PARTNER && p.partner != GONE_PARTNER {
                p.partner = match renamed(p.partner) {
                    u32::MAX => GONE_PARTNER,
                    j => j,
                };
            }
        }
        for list in [&mut self.renew, &mut self.frozen, &mut self.steered] {
            list.retain_mut(|m| {
                *m = renamed(*m);
                *m != u32::MAX
            });
        }
    }

    /// A ball of `radius` was added between steps as the last ball. It joins without
    /// predicting everything again when the predictions are valid, there is no dynamic
    /// rectangle (their mover indices follow the balls'), the broad phase's cells fit it (it
    /// is no larger than the largest ball when they were made) and the broad phase is on
    /// already if `ball_ball` needs it; otherwise everything is predicted again.
    pub(crate) fn ball_added(&mut self, radius: Real, ball_ball: bool) {
        if self.valid
            && self.dyn_rects.is_empty()
            && radius <= self.max_radius
            && (self.use_bp || !ball_ball)
        {
            self.added += 1;
        } else {
            self.valid = false;
        }
    }

    /// Kinematic rectangle `k` (dense index) was given a new path between steps: with valid
    /// predictions, only the movers it can concern predict again at the next step.
    pub(crate) fn kinematic_changed(&mut self, k: usize) {
        if self.valid {
            self.paths_changed.push(k as u32);
        }
    }

    /// Bytes the step keeps per mover between steps: its hot record, its stored static
    /// prediction and pair partner, its TC time, its broad-phase links and its queue entry
    /// (the batch buffers, used only at rebuilds and renewals, not counted).
    pub(crate) const BYTES_PER_MOVER: usize = std::mem::size_of::<Mover>()
        + std::mem::size_of::<Option<Prediction>>()
        + std::mem::size_of::<PairRef>()
        + std::mem::size_of::<Real>()
        + crate::broad::CellLists::BYTES_PER_BODY
        + EventQueue::BYTES_PER_MOVER;
}

impl World {
    /// Advances the world by exactly one fixed step of `config().dt` seconds and returns the
    /// step's events (also available from [`World::events`] until the next step).
    ///
    /// 1. Bodies that start embedded (inside a tile or rectangle, or outside a closed wall) are
    ///    moved to the nearest free position ([`Event::Unembedded`]).
    /// 2. Every ball and dynamic rectangle follows its exact path with continuous collision
    ///    detection, bouncing at the exact times of impact, in global time order, as often as
    ///    it hits (at most [`crate::StepConfig::max_events_per_body`] times; past that it stops
    ///    for the rest of the step and [`Event::IterationLimit`] is reported). Kinematic
    ///    rectangles move by `vel·dt`. Bricks are destroyed by their first hit when
    ///    destructible. Bodies that leave through an open side are removed.
    ///
    /// Never panics; the result depends only on the state and settings (bit-identical on every
    /// run and platform).
    pub fn step(&mut self) -> &[Event] {
        self.events.clear();
        self.event_times.clear();
        if !crate::domains::step(self) {
            self.resolve_embedded();
            self.run_events();
        }
        self.steps += 1;
        &self.events
    }

    fn nb(&self) -> usize {
        self.balls.len()
    }

    /// Puts the step's events in their canonical order: by the absolute time of the queue
    /// event that reported them, then by the id of the body they are about ([`Event::body`],
    /// balls before rectangles), keeping the order of one body's events at one instant. The
    /// loop reports them in its queue order, (time, mover id), which is this order except
    /// where a ball–ball collision was handled by the ball of higher id at the instant of
    /// another body's event: which of two balls handles their contact depends on which found
    /// it last (the history of predictions), the canonical order does not, so that the
    /// domains' merged events (`domains.rs`) are the same as one loop's. Sorts only when
    /// needed (rarely), into reused buffers.
    fn order_events(&mut self) {
        let key = |e: &Event| body_key(e.body());
        let n = self.events.len();
        // (Keys are compared only between events of one instant.)
        let t = &self.event_times;
        let in_order = (1..n).all(|i| {
            t[i - 1] < t[i]
                || (t[i - 1] == t[i] && key(&self.events[i - 1]) <= key(&self.events[i]))
        });
        if in_order {
            return;
        }
        let mut order = std::mem::take(&mut self.scratch.event_order);
        order.clear();
        order.extend(
            self.events
                .iter()
                .zip(&self.event_times)
                .enumerate()
                .map(|(i, (e, &t))| (t, key(e), i as u32)),
        );
        order.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
        let mut buf = std::mem::take(&mut self.scratch.event_buf);
        buf.clear();
        buf.extend(order.iter().map(|o| self.events[o.2 as usize]));
        std::mem::swap(&mut self.events, &mut buf);
        self.event_times.clear();
        self.event_times.extend(order.iter().map(|o| o.0));
        self.scratch.event_order = order;
        self.scratch.event_buf = buf;
    }

    /// Mover `m`'s order key among events and contacts of the same time: a ball's stable id
    /// slot (below 2^22), a dynamic rectangle's id slot above every ball's. Stable ids, not
    /// storage places, so that the order of simultaneous events does not depend on where a
    /// body is stored (removals move bodies; a domain's world stores a subset).
    #[inline]
    fn order_key(&self, m: usize) -> u32 {
        let nb = self.nb();
        if m < nb {
            body_key(Body::Ball(self.balls[m].id))
        } else {
            let k = self.scratch.dyn_rects[m - nb] as usize;
            body_key(Body::Rect(self.rects[k].id))
        }
    }

    /// Ball `m`'s centre at its own time (`mv[m].t`), derived from its path's start; a
    /// frozen ball stays where it stopped (its path was re-anchored there).
    #[inline]
    fn ball_pos(&self, m: usize) -> Vec2 {
        let b = &self.balls[m];
        if self.scratch.mv[m].state == FROZEN {
            b.anchor
        } else {
            b.pos_at(self.scratch.mv[m].t)
        }
    }

    /// Ball `j`'s path as another body meets it: its record, at rest where it stopped (its
    /// path starts there) while it is stopped at the iteration bound.
    fn ball_path(&self, j: usize) -> crate::world::BallRec {
        if self.scratch.mv[j].state == FROZEN {
            crate::world::BallRec {
                vel: Vec2::ZERO,
                ..self.balls[j]
            }
        } else {
            self.balls[j]
        }
    }

    /// Mover `m`'s velocity.
    fn vel_of(&self, m: usize) -> Vec2 {
        let nb = self.nb();
        if m < nb {
            self.balls[m].vel
        } else {
            self.rects[self.scratch.dyn_rects[m - nb] as usize].vel
        }
    }

    fn mass_of(&self, m: usize) -> Real {
        let nb = self.nb();
        if m < nb {
            self.balls[m].mass()
        } else {
            self.rects[self.scratch.dyn_rects[m - nb] as usize].mass()
        }
    }

    /// Gives mover `m` a new velocity at absolute time `abs`, its current time. A ball's path
    /// is re-anchored at `at` when given (the contact position solved from the anchor), else
    /// at its current position.
    fn set_vel(&mut self, m: usize, v: Vec2, abs: Real, at: Option<Vec2>) {
        let nb = self.nb();
        if m < nb {
            let pos = at.unwrap_or_else(|| self.ball_pos(m));
            let b = &mut self.balls[m];
            b.vel = v;
            b.anchor = pos;
            b.anchor_time = abs;
        } else {
            // Its box is at time `abs` (advanced there): its path starts here.
            let k = self.scratch.dyn_rects[m - nb] as usize;
            self.rects[k].vel = v;
            self.rect_anchor[k] = (self.rects[k].aabb, abs);
        }
        self.scratch.mv[m].motion = self.scratch.mv[m].motion.wrapping_add(1);
    }

    fn body_of(&self, m: usize) -> Body {
        let nb = self.nb();
        if m < nb {
            Body::Ball(self.balls[m].id)
        } else {
            Body::Rect(self.rects[self.scratch.dyn_rects[m - nb] as usize].id)
        }
    }

    /// Moves mover `m` along its velocity to absolute time `t` (a ball's position is derived
    /// from its path at its time: only the time changes). No-op for a frozen or dead mover.
    fn advance(&mut self, m: usize, t: Real) {
        let s = &mut self.scratch;
        let dtm = t - s.mv[m].t;
        let nb = self.balls.len();
        if s.mv[m].state == ACTIVE && dtm > 0.0 && m >= nb {
            let k = s.dyn_rects[m - nb] as usize;
            let (a, at) = self.rect_anchor[k];
            let r = &mut self.rects[k];
            r.aabb = a.translated(r.vel * (t - at));
        }
        if dtm > 0.0 {
            s.mv[m].t = t;
        }
    }

    /// Dynamic rectangle mover `j`'s path: the box at the start of its current straight path,
    /// that start's absolute time, and its velocity (zero for a mover stopped at the iteration
    /// bound, which stays where it stopped). Contacts involving it are solved from the later
    /// of the two bodies' path starts, so that they are the same bits whenever they are
    /// searched (see `ball_ball_contact`).
    fn dyn_path(&self, j: usize) -> (Aabb, Real, Vec2) {
        let k = self.scratch.dyn_rects[j - self.nb()] as usize;
        let (a, at) = self.rect_anchor[k];
        let u = if self.scratch.mv[j].state == FROZEN {
            Vec2::ZERO
        } else {
            self.rects[k].vel
        };
        (a, at, u)
    }

    /// Predicts everything again: the movers' list, their broad-phase cells and every
    /// mover's next event, from the step's start.
    fn rebuild(&mut self) {
        let nb = self.balls.len();
        let t0 = self.scratch.t0;
        let mut s = std::mem::take(&mut self.scratch);
        s.dyn_rects.clear();
        for (k, r) in self.rects.iter().enumerate() {
            if r.kind == RectKind::Dynamic {
                s.dyn_rects.push(k as u32);
            }
        }
        let n = nb + s.dyn_rects.len();
        s.mv.clear();
        s.mv.resize(n, Mover::new(t0));
        s.last_hit.clear();
        s.last_hit.resize(n, Real::NEG_INFINITY);
        s.last_normal.clear();
        s.last_normal.resize(n, Vec2::ZERO);

        s.stat.clear();
        s.stat.resize(n, None);
        s.pair.clear();
        s.pair.resize(n, PairRef::NONE);

        s.queue.reset(n);
        s.frozen.clear();
        s.steered.clear();
        s.paths_changed.clear();
        s.added = 0;
        s.use_bp = n > 1 && (self.config.ball_ball || !s.dyn_rects.is_empty());
        let mut max_radius: Real = 0.0;
        for b in &self.balls {
            max_radius = max_radius.max(b.radius);
        }
        s.max_radius = max_radius;
        self.scratch = s;
        if self.scratch.use_bp {
            // Cells at least one largest diameter wide (touching balls are neighbours).
            let bounds = self
                .scratch
                .region
                .unwrap_or(Aabb::new(Vec2::ZERO, self.size));
            let area = bounds.size().x * bounds.size().y;
            let spacing = (area / nb.max(1) as Real).sqrt();
            // 0.6 × the mean spacing measured best on the arena (callgrind, 10k balls at 60 and
            // 3000 units/s): fewer candidates per prediction outweigh the extra crossings.
            let size = (2.0 * max_radius * (1.0 + 1e-6) + 1e-9).max(0.6 * spacing);
            self.scratch.bp.reset(bounds, size, n);
            for m in 0..nb {
                let c = self.scratch.bp.cell_at(self.ball_pos(m));
                self.scratch.bp.insert(m, c);
            }
        }
        let mut batch = std::mem::take(&mut self.scratch.batch);
        batch.clear();
        batch.extend(0..n as u32);
        self.predict_batch(&batch);
        self.scratch.batch = batch;
        self.scratch.valid = true;
    }

    /// Adds to `batch` every active mover that a kinematic rectangle's new path (set between
    /// steps, listed in `paths_changed`) can concern: its static prediction aimed at the
    /// rectangle (solved against the old path), or the box its path sweeps from now to the
    /// end of its static search meets the box the rectangle sweeps on its new path up to
    /// this step's `cap` (so it could meet the rectangle before its predicted event). The
    /// others' predictions stand: they never involve the rectangle before their end.
    fn concerned_by_new_paths(&mut self, batch: &mut Vec<u32>) {
        if self.scratch.paths_changed.is_empty() {
            return;
        }
        let mut changed = std::mem::take(&mut self.scratch.paths_changed);
        changed.sort_unstable();
        changed.dedup();
        let (t0, cap) = (self.scratch.t0, self.scratch.cap);
        let nb = self.nb();
        for &k in &changed {
            let k = k as usize;
            let rc = &self.rects[k];
            let (a, at) = self.rect_anchor[k];
            // Its box at the step's start and at `cap`: the sweep lies in their hull.
            let from = a.translated(rc.vel * (t0 - at));
            let to = a.translated(rc.vel * (cap - at));
            let swept = from.union(&to).grown(1e-9);
            for m in 0..self.scratch.mv.len() {
                let r = &self.scratch.mv[m];
                if r.state != ACTIVE {
                    continue;
                }
                // (The stored static prediction is read only when it is a hit.)
                let aimed = r.stat_hit
                    && matches!(
                        self.scratch.stat[m],
                        Some(Prediction {
                            target: PTarget::Rect(j),
                            ..
                        }) if j as usize == k
                    );
                // The end of its static search (its static event, or how far it looked).
                let end = if r.stat_t < cap { r.stat_t } else { cap };
                let reach = if m < nb {
                    let b = &self.balls[m];
                    let (p0, p1) = (b.pos_at(t0), b.pos_at(end));
                    let margin = b.radius * (1.0 + 1e-9) + 1e-9;
                    Aabb::from_corners(p0, p1).grown(margin)
                } else {
                    let (ma, mt, v) = self.dyn_path(m);
                    ma.translated(v * (t0 - mt))
                        .union(&ma.translated(v * (end - mt)))
                        .grown(1e-9)
                };
                if aimed || collide_core::aabb_overlaps_aabb(&reach, &swept) {
                    batch.push(m as u32);
                }
            }
        }
        changed.clear();
        self.scratch.paths_changed = changed;
    }

    /// Gives the balls added between steps (the last `added` balls) their records and queue
    /// slots, and lists them with the steered balls, which join their cells' lists and predict
    /// at this step's start (nobody predicted anything against them).
    fn join_added_balls(&mut self) {
        let t0 = self.scratch.t0;
        let first = self.balls.len() - self.scratch.added;
        debug_assert_eq!(first, self.scratch.mv.len());
        for m in first..self.balls.len() {
            let s = &mut self.scratch;
            s.mv.push(Mover::new(t0));
            s.last_hit.push(Real::NEG_INFINITY);
            s.last_normal.push(Vec2::ZERO);
            s.stat.push(None);
            s.pair.push(PairRef::NONE);
            s.queue.push_mover();
            if s.use_bp {
                // Listed in its cell with the steered balls below.
                s.bp.push_body();
            }
            s.steered.push(m as u32);
        }
        self.scratch.added = 0;
    }

    /// Removes balls `list` (dense indices, ascending, no dynamic rectangle in the world)
    /// between steps the way lost balls are removed: the others keep their predictions (pair
    /// events aimed at a removed ball become void and are searched again), and each removal
    /// moves the last ball into the freed place, highest index first (as
    /// [`World::remove_ball`]). For a domain's world (`domains.rs`), whose balls' ids are not
    /// looked up: its id slots are left alone.
    pub(crate) fn drop_balls(&mut self, list: &[usize]) {
        let nb = self.balls.len();
        let s = &mut self.scratch;
        if s.valid && s.dyn_rects.is_empty() && s.mv.len() == nb && s.added == 0 {
            for &i in list {
                s.mv[i].state = DEAD;
                s.mv[i].motion = s.mv[i].motion.wrapping_add(1);
                s.queue.remove(i);
                if s.use_bp {
                    s.bp.remove(i);
                }
            }
            s.dead_balls.clear();
            s.dead_balls.extend_from_slice(list);
            s.drop_lost_balls();
            s.dead_balls.clear();
        } else {
            s.valid = false;
        }
        for &i in list.iter().rev() {
            self.balls.swap_remove(i);
        }
    }

    /// Starts loading every record of mover `h` that its next event reads (hot record, stored
    /// predictions, last hit, ball, queue node, list links): a cache hint that changes nothing.
    /// These are prefetch instructions, not loads: the event in hand goes on while the lines
    /// arrive (a plain load of each, as before, held up the event in hand until its line
    /// came). Out of range: nothing.
    fn prefetch_mover(&self, h: usize) {
        let s = &self.scratch;
        if let (Some(mv), Some(pair), Some(stat), Some(hit)) =
            (s.mv.get(h), s.pair.get(h), s.stat.get(h), s.last_hit.get(h))
        {
            mem_prefetch::prefetch_read_data::<_, 3>(mv);
            mem_prefetch::prefetch_read_data::<_, 3>(pair);
            mem_prefetch::prefetch_read_data::<_, 3>(stat);
            mem_prefetch::prefetch_read_data::<_, 3>(hit);
        }
        if let Some(b) = self.balls.get(h) {
            mem_prefetch::prefetch_read_data::<_, 3>(b);
        }
        s.queue.prefetch(h);
        s.bp.prefetch(h);
    }

    fn run_events(&mut self) {
        let dt = self.config.dt;
        self.scratch.t0 = self.time;
        self.scratch.t1 = self.time + dt;
        self.scratch.any_frozen = false;
        if let Some(g) = &mut self.grid {
            g.refresh_clearance();
        }
        // While the world is left alone, predictions reach a few steps ahead and live on;
        // a world edited every step (a paddle moved by a game) predicts one step at a time.
        let fresh = !self.scratch.valid;
        self.scratch.rebuilds = if fresh {
            self.scratch.rebuilds.saturating_add(1)
        } else {
            0
        };
        let lookahead = if self.scratch.rebuilds > 1 {
            0.0
        } else {
            LOOKAHEAD_STEPS * dt
        };
        self.scratch.cap = self.scratch.t1 + lookahead;
        let n_now = self.balls.len()
            + self
                .rects
                .iter()
                .filter(|r| r.kind == RectKind::Dynamic)
                .count();
        if !fresh && self.scratch.added > 0 {
            self.join_added_balls();
        }
        if fresh || self.scratch.mv.len() != n_now {
            self.rebuild();
        } else {
            // Movers stopped at the bound last step resume from where they stopped; movers
            // that had nothing to do look again; movers whose predictions end within this
            // step look again now (all from the same state: one batch, threads allowed).
            let t0 = self.scratch.t0;
            let t1 = self.scratch.t1;
            let mut batch = std::mem::take(&mut self.scratch.batch);
            batch.clear();
            let mut frozen = std::mem::take(&mut self.scratch.frozen);
            for &m in &frozen {
                let mi = m as usize;
                if self.scratch.mv[mi].state == DEAD {
                    continue;
                }
                // A mover stopped at the bound moves again: what others predicted against it
                // at rest is void (`motion`).
                let r = &mut self.scratch.mv[mi];
                if r.state == FROZEN {
                    r.motion = r.motion.wrapping_add(1);
                }
                r.state = ACTIVE;
                r.t = t0;
                batch.push(m);
            }
            // The movers whose horizon is within this step (listed by the last step's end).
            debug_assert!(self.scratch.renew.iter().all(|&m| {
                let r = &self.scratch.mv[m as usize];
                r.state == ACTIVE && r.horizon <= t1
            }));
            batch.extend_from_slice(&self.scratch.renew);
            // Balls steered between steps: a new course from the step's start, as after a
            // collision (`motion` voids the predictions others made against the old one).
            let mut steered = std::mem::take(&mut self.scratch.steered);
            for &m in &steered {
                let r = &mut self.scratch.mv[m as usize];
                if r.state == DEAD {
                    continue;
                }
                r.state = ACTIVE;
                r.t = t0;
                r.motion = r.motion.wrapping_add(1);
                batch.push(m);
                // A ball moved (`set_ball_position`) joins the list of the cell it is in.
                if self.scratch.use_bp {
                    let c = self.scratch.bp.cell_at(self.balls[m as usize].pos_at(t0));
                    if c != self.scratch.bp.cell_of(m as usize) {
                        self.scratch.bp.remove(m as usize);
                        self.scratch.bp.insert(m as usize, c);
                    }
                }
            }
            steered.clear();
            self.scratch.steered = steered;
            self.concerned_by_new_paths(&mut batch);
            batch.sort_unstable();
            batch.dedup();
            // Keep the movers that asked to look again at the next step (allocation-free swap).
            frozen.clear();
            self.scratch.frozen = frozen;
            self.predict_batch(&batch);
            self.scratch.batch = batch;
        }
        let t1 = self.scratch.t1;
        // Queue entries due by the step's end come out of the queue, in time order; later
        // ones wait (the predictions above were queued against the last step's end).
        self.scratch.queue.set_limit(self.scratch.t0, t1);
        // Each event's absolute time: that of the queue event that reported it (the step's
        // start for the push-outs before the loop), for `order_events`.
        let mut last = self.scratch.t0;
        while let Some((m, time)) = self.scratch.queue.peek() {
            if time > t1 {
                break;
            }
            if self.event_times.len() < self.events.len() {
                self.event_times.resize(self.events.len(), last);
            }
            last = time;
            // Start loading the records of the mover likely to come next while this one is
            // handled (the lines arrive during this event's work instead of stalling the next).
            if let Some(h) = self.scratch.queue.likely_next(m) {
                self.prefetch_mover(h);
            }
            // Every path below replaces the mover's entry (a new prediction) or removes it.
            if self.scratch.mv[m].state != ACTIVE {
                self.scratch.queue.remove(m);
                continue;
            }
            // Its neighbourhood's list heads, and its pair partner's (both search theirs
            // after a collision), for the pair searches later in this event.
            if self.scratch.use_bp {
                self.scratch.bp.prefetch_around(m);
                self.scratch
                    .bp
                    .prefetch_around(self.scratch.pair[m].partner as usize);
            }
            self.advance(m, time);
            match self.next_kind(m).0 {
                Next::Cross => {
                    let cell = self.scratch.mv[m].cross_cell;
                    self.cross(m, cell);
                }
                Next::Static => {
                    let Some(pred) = self.scratch.stat[m] else {
                        self.predict(m);
                        continue;
                    };
                    let valid = match pred.target {
                        PTarget::Cell(c) => self
                            .grid
                            .as_ref()
                            .is_some_and(|g| g.feature_exists(c, pred.feature)),
                        _ => true,
                    };
                    if valid {
                        self.resolve(m, pred);
                    } else {
                        // The brick went first; the pair search stopped at it: all anew.
                        self.predict(m);
                    }
                }
                Next::Pair => {
                    let r = self.scratch.pair[m];
                    if r.partner == NO_PARTNER {
                        self.predict(m);
                    } else if !self.partner_valid(r) {
                        self.repredict_pair(m);
                    } else if let Some(pred) = self.stored_pair(m, r) {
                        self.resolve(m, pred);
                    } else {
                        // Unreachable: a valid pair solves again to the same contact.
                        debug_assert!(false, "a stored pair event did not solve again");
                        self.predict(m);
                    }
                }
                Next::StaticHorizon => {
                    let t = self.scratch.mv[m].t;
                    if self.over_search_bound(m) {
                        self.freeze(m, t);
                        continue;
                    }
                    let cap = self.scratch.mv[m].horizon;
                    let (stat, until) = self.static_event(m, t, cap);
                    self.set_stat(m, stat, until);
                    self.schedule(m);
                }
                Next::Horizon => self.predict(m),
            }
        }
        self.event_times.resize(self.events.len(), last);
        self.order_events();
        // The next step ends at `time + dt`, computed the same way there.
        self.finish_movers(t1, t1 + dt);
        self.time = t1;
        // Kinematic rectangles: from their anchors (no per-step rounding piles up). One
        // anchored at this step's start (a paddle given a new velocity by a game) moves by
        // exactly `vel·dt`, so that `vel = (target - x) / dt` lands on the target.
        let t0 = self.scratch.t0;
        for (r, &(a, at)) in self.rects.iter_mut().zip(&self.rect_anchor) {
            if r.kind == RectKind::Kinematic {
                let elapsed = if at == t0 { dt } else { t1 - at };
                r.aabb = a.translated(r.vel * elapsed);
            }
        }
        // Remove the lost bodies, highest dense index first so that indices stay valid.
        let mut s = std::mem::take(&mut self.scratch);
        s.dead_rects.sort_unstable();
        // Without dynamic rectangles (whose mover indices follow the balls'), the survivors
        // keep their predictions through the removal of lost balls (`drop_lost_balls`).
        let keep = s.valid && s.dyn_rects.is_empty() && s.dead_rects.is_empty();
        if keep && !s.dead_balls.is_empty() {
            s.drop_lost_balls();
        }
        for &i in s.dead_balls.iter().rev() {
            let id = self.balls[i].id;
            self.remove_ball(id);
        }
        for &i in s.dead_rects.iter().rev() {
            let id = self.rects[i].id;
            self.remove_rect(id);
        }
        if !keep && (!s.dead_balls.is_empty() || !s.dead_rects.is_empty()) {
            // Dense indices moved: predict everything again next step.
            s.valid = false;
        }
        self.scratch = s;
        if !self.scratch.crushed.is_empty() {
            let mut crushed = std::mem::take(&mut self.scratch.crushed);
            self.push_out_crushed(&crushed);
            crushed.clear();
            self.scratch.crushed = crushed;
        }
    }

    /// The end of a step, in one pass over the movers: each is brought to absolute time `t1`
    /// (a ball's position is derived from its path, only its time changes; a dynamic
    /// rectangle moves), a mover stopped at the iteration bound stays and resumes its path
    /// from there at the next step; the lost ones are listed for removal, the ones whose
    /// predictions end by `next_t1` (the next step's end) for renewal, and the per-step
    /// counters restart.
    fn finish_movers(&mut self, t1: Real, next_t1: Real) {
        let nb = self.balls.len();
        let s = &mut self.scratch;
        s.renew.clear();
        s.dead_balls.clear();
        s.dead_rects.clear();
        for (m, r) in s.mv.iter_mut().enumerate() {
            let dtm = t1 - r.t;
            if m >= nb && r.state == ACTIVE && dtm > 0.0 {
                let k = s.dyn_rects[m - nb] as usize;
                let (a, at) = self.rect_anchor[k];
                let rc = &mut self.rects[k];
                rc.aabb = a.translated(rc.vel * (t1 - at));
            }
            if dtm > 0.0 {
                r.t = t1;
            }
            match r.state {
                FROZEN => {
                    r.t = t1;
                    if m < nb {
                        self.balls[m].anchor_time = t1;
                    } else {
                        self.rect_anchor[s.dyn_rects[m - nb] as usize].1 = t1;
                    }
                }
                DEAD if m < nb => s.dead_balls.push(m),
                DEAD => s.dead_rects.push(s.dyn_rects[m - nb] as usize),
                _ => {
                    if r.horizon <= next_t1 {
                        s.renew.push(m as u32);
                    }
                }
            }
            r.events = 0;
            r.searches = 0;
        }
    }

    fn predict(&mut self, m: usize) {
        let p = self.compute_prediction(m);
        self.apply_prediction(m, p);
    }

    /// Mover `m`'s predictions from its current state up to this step's `cap`: a pure
    /// function of the world's state (what [`World::predict`] stores), so that many movers
    /// can be predicted in parallel.
    fn compute_prediction(&self, m: usize) -> Predicted {
        let s_t = self.scratch.mv[m].t;
        let cap = self.scratch.cap;
        if self.scratch.mv[m].state == ACTIVE && cap >= s_t {
            // The pair search first, to the horizon (its cost hardly depends on how far it
            // looks), then the static search only as far as the pair event: a static search
            // walks the grid along the path, and a ball usually meets another ball before
            // the end of its window (mean free path 7.6 units on the arena).
            let pair = self.pair_event(m, s_t, cap, None);
            let stat_cap = pair.map_or(cap, |p| p.time);
            if m < self.nb() {
                // The ball's centre now, computed once for both searches.
                let pos = self.balls[m].pos_at(s_t);
                let (stat, stat_until) = self.ball_static_event(m, pos, s_t, stat_cap);
                Predicted {
                    stat,
                    stat_until,
                    pair,
                    cross: self.next_crossing(m, pos, s_t),
                }
            } else {
                let (stat, stat_until) = self.box_static_event(m, s_t, stat_cap);
                Predicted {
                    stat,
                    stat_until,
                    pair,
                    cross: NO_CROSSING,
                }
            }
        } else {
            Predicted {
                stat: None,
                stat_until: cap,
                pair: None,
                cross: NO_CROSSING,
            }
        }
    }

    /// Stores mover `m`'s new predictions (horizon: this step's `cap`) and queues it.
    fn apply_prediction(&mut self, m: usize, p: Predicted) {
        let s = &mut self.scratch;
        s.mv[m].horizon = s.cap;
        s.mv[m].cross_t = p.cross.0;
        s.mv[m].cross_cell = p.cross.1;
        self.set_stat(m, p.stat, p.stat_until);
        self.set_pair(m, p.pair);
        self.schedule(m);
    }

    /// Stores mover `m`'s static event (or, when none, how far its search looked).
    fn set_stat(&mut self, m: usize, stat: Option<Prediction>, until: Real) {
        let s = &mut self.scratch;
        s.stat[m] = stat;
        let r = &mut s.mv[m];
        r.stat_hit = stat.is_some();
        r.stat_t = stat.map_or(until, |p| p.time);
    }

    /// Stores mover `m`'s pair event (its time and partner).
    fn set_pair(&mut self, m: usize, pair: Option<Prediction>) {
        let s = &mut self.scratch;
        s.pair[m] = match pair {
            Some(Prediction {
                target: PTarget::Mover(j),
                partner_motion,
                ..
            }) => PairRef {
                partner: j,
                motion: partner_motion,
            },
            _ => PairRef::NONE,
        };
        s.mv[m].pair_t = pair.map_or(Real::INFINITY, |p| p.time);
    }

    /// Mover `m`'s stored pair event `r` (valid: its partner on the same path) as the
    /// prediction `pair_event` found: the contact solved again from the same anchors, which
    /// gives the same bits (the search's time limit only filters), at the stored time.
    fn stored_pair(&self, m: usize, r: PairRef) -> Option<Prediction> {
        let j = r.partner as usize;
        let nb = self.nb();
        let (_, hit) = match (m < nb, j < nb) {
            (true, true) => ball_ball_contact(&self.balls[m], &self.ball_path(j), Real::INFINITY),
            (true, false) => self.ball_box_contact(m, j, Real::INFINITY),
            (false, false) => self.box_box_contact(m, j, Real::INFINITY),
            (false, true) => self.box_ball_contact(m, j, Real::INFINITY),
        }?;
        let time = self.scratch.mv[m].pair_t;
        Some(Prediction {
            time,
            toi_anchor: if m < nb {
                time - self.balls[m].anchor_time
            } else {
                0.0
            },
            target: PTarget::Mover(r.partner),
            normal: hit.normal,
            point: hit.point,
            feature: hit.feature,
            partner_motion: r.motion,
        })
    }

    /// Predicts every mover of `batch` anew (as [`World::predict`], in the order given),
    /// computing the predictions on up to `threads` threads when the batch is large: each is
    /// a pure function of the same state, so the result does not depend on the threads.
    fn predict_batch(&mut self, batch: &[u32]) {
        let threads = self.threads.min(batch.len() / MIN_PARALLEL_BATCH).max(1);
        if threads <= 1 {
            for &m in batch {
                self.predict(m as usize);
            }
            return;
        }
        let mut out = std::mem::take(&mut self.scratch.batch_out);
        out.clear();
        out.resize(batch.len(), Predicted::default());
        let chunk = batch.len().div_ceil(threads);
        let this = &*self;
        std::thread::scope(|scope| {
            for (ms, outs) in batch.chunks(chunk).zip(out.chunks_mut(chunk)) {
                scope.spawn(move || {
                    for (&m, o) in ms.iter().zip(outs) {
                        *o = this.compute_prediction(m as usize);
                    }
                });
            }
        });
        for (&m, p) in batch.iter().zip(&out) {
            self.apply_prediction(m as usize, *p);
        }
        self.scratch.batch_out = out;
    }

    /// Searches the pair event of mover `m` again over the whole neighbourhood (its partner
    /// changed course), keeping its static event, crossing and horizon.
    fn repredict_pair(&mut self, m: usize) {
        let s_t = self.scratch.mv[m].t;
        let until = self.pair_until(m);
        let pair = self.pair_event(m, s_t, until, None);
        self.set_pair(m, pair);
        self.schedule(m);
    }

    /// Until when a pair event of mover `m` matters: its static event or its horizon.
    fn pair_until(&self, m: usize) -> Real {
        let s = &self.scratch;
        let r = &s.mv[m];
        if r.stat_hit {
            r.stat_t.min(r.horizon)
        } else {
            r.horizon
        }
    }

    /// Whether a stored pair event still holds: its partner alive and on the same course.
    fn partner_valid(&self, r: PairRef) -> bool {
        // A removed partner (`GONE_PARTNER`) is past the end.
        self.scratch
            .mv
            .get(r.partner as usize)
            .is_some_and(|p| p.state != DEAD && p.motion == r.motion)
    }

    /// Which of mover `m`'s stored predictions comes first (ties: crossing, static, pair,
    /// horizon), and when.
    fn next_kind(&self, m: usize) -> (Next, Real) {
        let s = &self.scratch;
        let r = &s.mv[m];
        let mut best = (Next::Horizon, r.horizon);
        if !r.stat_hit && r.stat_t < best.1 {
            best = (Next::StaticHorizon, r.stat_t);
        }
        if r.pair_t <= best.1 {
            best = (Next::Pair, r.pair_t);
        }
        if r.stat_hit && r.stat_t <= best.1 {
            best = (Next::Static, r.stat_t);
        }
        if r.cross_t <= best.1 {
            best = (Next::Cross, r.cross_t);
        }
        best
    }

    /// Queues mover `m` at its earliest prediction; a mover with nothing to do before a
    /// horizon that ends with this step looks again at the next step.
    fn schedule(&mut self, m: usize) {
        if self.scratch.mv[m].state != ACTIVE {
            self.scratch.queue.remove(m);
            return;
        }
        let (kind, time) = self.next_kind(m);
        if kind == Next::Horizon && time <= self.scratch.t1 {
            self.scratch.queue.remove(m);
            self.scratch.frozen.push(m as u32);
        } else {
            let key = self.order_key(m);
            self.scratch.queue.set(m, time, key);
        }
    }

    /// Ball `m` leaves its broad-phase cell for `cell` at its current time: it moves to the
    /// new cell's list and looks for pair events only among the balls of the cells that just
    /// entered its 3×3 neighbourhood (and the dynamic rectangles); its other predictions
    /// still hold. Its earlier pair search was not cut at the crossing, so together they
    /// cover the new neighbourhood up to the same horizon (cell-crossing events of Marín,
    /// Risso and Cordero, 1993, with incremental neighbour lists).
    fn cross(&mut self, m: usize, cell: u32) {
        let t = self.scratch.mv[m].t;
        let old = self.scratch.bp.cell_of(m);
        self.scratch.bp.remove(m);
        self.scratch.bp.insert(m, cell);
        if self.over_search_bound(m) {
            self.freeze(m, t);
            return;
        }
        let (ct, cc) = self.next_crossing(m, self.balls[m].pos_at(t), t);
        self.scratch.mv[m].cross_t = ct;
        self.scratch.mv[m].cross_cell = cc;
        let until = self.pair_until(m);
        let r = self.scratch.pair[m];
        if r.partner == NO_PARTNER {
            // Its last search met no one up to (at least) `until`: the old neighbours are
            // covered, by that search or by their own searches since (a ball that changed
            // course searched its whole neighbourhood, this ball included).
            let pair = self.pair_event(m, t, until, Some(old));
            self.set_pair(m, pair);
        } else if self.partner_valid(r) {
            // The stored event stands unless a new neighbour comes first.
            let p_time = self.scratch.mv[m].pair_t;
            if let Some(q) = self.pair_event(m, t, p_time.min(until), Some(old)) {
                if pair_before(&q, p_time, || {
                    let q_key = match q.target {
                        PTarget::Mover(j) => self.order_key(j as usize),
                        _ => u32::MAX,
                    };
                    (q_key, self.order_key(r.partner as usize))
                }) {
                    self.set_pair(m, Some(q));
                }
            }
        } else {
            // Its partner changed course: the last search stopped at that partner's time, so
            // the old neighbours are not covered beyond it.
            let pair = self.pair_event(m, t, until, None);
            self.set_pair(m, pair);
        }
        self.schedule(m);
    }

    /// Counts one search event of mover `m` (a cell crossing or a static window's end: no
    /// velocity change) and says whether it went past this step's bound,
    /// `64·max_events_per_body + 4096`: a finite step whatever the speeds and cell sizes.
    fn over_search_bound(&mut self, m: usize) -> bool {
        self.scratch.mv[m].searches += 1;
        let bound = self
            .config
            .max_events_per_body
            .saturating_mul(64)
            .saturating_add(4096);
        self.scratch.mv[m].searches > bound
    }

    /// When ball `m` (active, at `pos` at its current time `s_t`) leaves its broad-phase
    /// cell, and for which neighbour; `NO_CROSSING` without a broad phase.
    fn next_crossing(&self, m: usize, pos: Vec2, s_t: Real) -> (Real, u32) {
        debug_assert!(m < self.nb());
        if !self.scratch.use_bp {
            return NO_CROSSING;
        }
        let v = self.balls[m].vel;
        let bp = &self.scratch.bp;
        let (tc, next) = bp.exit(bp.cell_of(m), pos, v);
        if tc.is_finite() {
            (s_t + tc, next)
        } else {
            NO_CROSSING
        }
    }

    /// Mover `m`'s earliest event with geometry that does not react (tiles, closed walls,
    /// open sides, static and kinematic rectangles) from its state at absolute time `s_t` up
    /// to absolute time `cap`. Balls are swept from their anchor, so impact times do not
    /// depend on the step size.
    ///
    /// A ball far from every tile searches as far as it can travel without touching one
    /// (the grid's clearance, a lower bound on the distance to every solid cell) without
    /// walking the grid; a ball near tiles walks a window of `STATIC_WINDOW_CELLS` grid
    /// cells or a quarter of its path over a step, whichever is longer; both at most to
    /// `cap`. Returns the event, if any, and the absolute time the search reached (the mover
    /// searches further from there when nothing was found).
    fn static_event(&self, m: usize, s_t: Real, cap: Real) -> (Option<Prediction>, Real) {
        if m < self.nb() {
            // An active mover's time is `s_t`: its centre is there.
            debug_assert!(self.scratch.mv[m].state == ACTIVE && self.scratch.mv[m].t == s_t);
            self.ball_static_event(m, self.balls[m].pos_at(s_t), s_t, cap)
        } else {
            self.box_static_event(m, s_t, cap)
        }
    }

    /// [`World::static_event`] for ball `m`, whose centre at `s_t` is `pos` (the caller has
    /// it: computed once per prediction).
    fn ball_static_event(
        &self,
        m: usize,
        pos: Vec2,
        s_t: Real,
        cap: Real,
    ) -> (Option<Prediction>, Real) {
        let b = &self.balls[m];
        let (v, radius) = (b.vel, b.radius);
        let a = b.start();
        let speed = v.length();
        let mut best: Option<(Real, PTarget, SweepHit)> = None;
        // The absolute time the search reaches (`cap` unless the window is shorter).
        let mut searched = cap;
        // Whether no tile can be met before `searched` (the grid's clearance says so).
        let mut skip_walk = false;
        // The grid's clearance at the centre (0: unknown, walk).
        let mut clear: Real = 0.0;
        // Times are measured from the anchor (`base` before now).
        let base = (s_t - a.time).max(0.0);
        let mut limit = cap - a.time;
        if let Some(g) = &self.grid {
            // No tile within `free` of the centre's path: the search window is the
            // free run, and the grid walk is skipped; else a short window is walked.
            clear = g.clearance(pos);
            let free = clear - radius;
            // At least a quarter of a step's path: a few windows per step at most.
            let window = (STATIC_WINDOW_CELLS * g.cell_size()).max(0.25 * speed * self.config.dt);
            skip_walk = free >= window;
            let run = if skip_walk { free } else { window };
            if speed > 0.0 && run < speed * (limit - base) {
                // Strictly later than now, strictly earlier than `cap`.
                let end = a.time + (base + run / speed);
                if end > s_t && end < cap {
                    limit = end - a.time;
                    searched = end;
                } else {
                    skip_walk = false;
                }
            } else {
                skip_walk = false;
            }
        }
        let reach = radius + speed * (limit - base);
        if let (Some(g), false) = (&self.grid, skip_walk) {
            if clear <= reach * (1.0 + 1e-9) + 1e-9 {
                if let Some(gh) = g.sweep_circle_between(a.pos, radius, v, base, limit) {
                    take(
                        gh.hit.toi,
                        PTarget::Cell(gh.cell),
                        gh.hit,
                        &mut best,
                        &mut limit,
                    );
                }
            }
        }
        let near_edge = pos.x - reach <= 0.0
            || pos.y - reach <= 0.0
            || pos.x + reach >= self.size.x
            || pos.y + reach >= self.size.y;
        if near_edge {
            for (side, face) in self.wall_faces() {
                if let Some(h) = sweep_circle_half_plane(a.pos, radius, v, limit, &face) {
                    take(
                        h.toi.max(base),
                        PTarget::Wall(side),
                        h,
                        &mut best,
                        &mut limit,
                    );
                }
            }
            if let Some((toi, side)) =
                self.loss_time(&Aabb::new(a.pos - radius, a.pos + radius), v, limit)
            {
                take(
                    toi.max(base),
                    PTarget::Lost(side),
                    no_hit(toi, a.pos + v * toi),
                    &mut best,
                    &mut limit,
                );
            }
        }
        let reach_box = Aabb::new(pos - reach, pos + reach);
        for (k, rc) in self.rects.iter().enumerate() {
            match rc.kind {
                RectKind::Static => {
                    if !collide_core::aabb_overlaps_aabb(&reach_box.grown(1e-9), &rc.aabb) {
                        continue;
                    }
                    if let Some(h) =
                        sweep_circle_aabb(a.pos, radius, v, limit, &rc.aabb, Features::ALL)
                    {
                        take(
                            h.toi.max(base),
                            PTarget::Rect(k as u32),
                            h,
                            &mut best,
                            &mut limit,
                        );
                    }
                }
                RectKind::Kinematic => {
                    // Swept in the rectangle's frame from the later of the two
                    // anchors (the ball's, the rectangle's): the same bits whenever
                    // the ball searches (after a crossing, at a horizon, at another
                    // step), as for tiles and balls.
                    let u = rc.vel;
                    let (ra, rt) = self.rect_anchor[k];
                    let r_t = a.time.max(rt);
                    let off = r_t - a.time;
                    let p_ref = a.pos + v * off;
                    let aabb = ra.translated(u * (r_t - rt));
                    if let Some(mut h) =
                        sweep_circle_aabb(p_ref, radius, v - u, limit - off, &aabb, Features::ALL)
                    {
                        h.point += u * h.toi;
                        take(
                            (off + h.toi).max(base),
                            PTarget::Rect(k as u32),
                            h,
                            &mut best,
                            &mut limit,
                        );
                    }
                }
                RectKind::Dynamic => {}
            }
        }
        (static_found(best, a.time, s_t), searched)
    }

    /// [`World::static_event`] for dynamic rectangle mover `m`.
    fn box_static_event(&self, m: usize, s_t: Real, cap: Real) -> (Option<Prediction>, Real) {
        let v = self.rects[self.scratch.dyn_rects[m - self.nb()] as usize].vel;
        let mut best: Option<(Real, PTarget, SweepHit)> = None;
        // A box from the start of its current path, as a ball (times from there).
        let (aabb, at, _) = self.dyn_path(m);
        let (base, mut limit) = (s_t - at, cap - at);
        // Swept from the start of its path (`base`: now, from there); a hit computed
        // before now by rounding is taken now.
        if let Some(g) = &self.grid {
            if let Some(gh) = g.sweep_aabb_between(&aabb, v, base, limit) {
                take(
                    gh.hit.toi,
                    PTarget::Cell(gh.cell),
                    gh.hit,
                    &mut best,
                    &mut limit,
                );
            }
        }
        for (side, h) in self.box_wall_hits(&aabb, v, limit) {
            take(
                h.toi.max(base),
                PTarget::Wall(side),
                h,
                &mut best,
                &mut limit,
            );
        }
        if let Some((toi, side)) = self.loss_time(&aabb, v, limit) {
            take(
                toi.max(base),
                PTarget::Lost(side),
                no_hit(toi, aabb.center() + v * toi),
                &mut best,
                &mut limit,
            );
        }
        for (k, rc) in self.rects.iter().enumerate() {
            // A kinematic rectangle from the later of the two paths' starts.
            let (other, u, off) = match rc.kind {
                RectKind::Static => (rc.aabb, Vec2::ZERO, 0.0),
                RectKind::Kinematic => {
                    let (ka, kt) = self.rect_anchor[k];
                    let r_t = at.max(kt);
                    (ka.translated(rc.vel * (r_t - kt)), rc.vel, r_t - at)
                }
                RectKind::Dynamic => continue,
            };
            let from = aabb.translated(v * off);
            if let Some(h) = sweep_aabb_aabb(&from, v, &other, u, limit - off) {
                take(
                    (off + h.toi).max(base),
                    PTarget::Rect(k as u32),
                    h,
                    &mut best,
                    &mut limit,
                );
            }
        }
        (static_found(best, at, s_t), cap)
    }

    /// Mover `m`'s earliest event with another mover (balls of the broad-phase neighbourhood
    /// when ball–ball collisions are on, every dynamic rectangle; for a box, the balls it can
    /// reach) from its state at absolute time `s_t` up to absolute time `until`.
    ///
    /// `entered`: for a ball that just crossed from cell `entered`, only the balls of the
    /// cells of its new 3×3 neighbourhood that were not in the old one.
    fn pair_event(
        &self,
        m: usize,
        s_t: Real,
        until: Real,
        entered: Option<u32>,
    ) -> Option<Prediction> {
        let nb = self.nb();
        let sc = &self.scratch;
        if !(until - s_t >= 0.0) {
            return None;
        }
        // The earliest contact so far: absolute time, partner, hit (normal toward `m`), the
        // partner's `motion`; `limit` is the latest absolute time still wanted.
        let mut best: Option<(Real, u32, SweepHit, u32)> = None;
        let mut limit = until;
        // Ties in time go to the partner of lower order key (its stable id): which partner a
        // mover meets first depends neither on the order the broad phase lists candidates in
        // nor on where the partners are stored.
        // (Keys are looked up only on an exact tie, rare.)
        let mut take = |time: Real, j: usize, hit: SweepHit, limit: &mut Real| {
            if time <= *limit
                && best.is_none_or(|b| {
                    time < b.0 || (time == b.0 && self.order_key(j) < self.order_key(b.1 as usize))
                })
            {
                best = Some((time, j as u32, hit, sc.mv[j].motion));
                *limit = time;
            }
        };
        if m < nb {
            // Dynamic rectangles (few): every one.
            for k in 0..sc.dyn_rects.len() {
                let j = nb + k;
                if sc.mv[j].state == DEAD {
                    continue;
                }
                if let Some((time, h)) = self.ball_box_contact(m, j, limit) {
                    take(time, j, h, &mut limit);
                }
            }
            if sc.use_bp && self.config.ball_ball {
                let balls = &self.balls;
                let bm = &balls[m];
                // A candidate's mover record is read only when it is hit (most are not):
                // one random cache line fewer per candidate in a large world.
                let any_frozen = sc.any_frozen;
                let mut visit = |j: usize| {
                    if j == m {
                        return;
                    }
                    if any_frozen && sc.mv[j].state == FROZEN {
                        // Stopped at the iteration bound: an obstacle at rest where it stopped
                        // (its path starts there) until the step ends.
                        let still = crate::world::BallRec {
                            vel: Vec2::ZERO,
                            ..balls[j]
                        };
                        if let Some((time, h)) = ball_ball_contact(bm, &still, limit) {
                            take(time, j, h, &mut limit);
                        }
                        return;
                    }
                    if let Some((time, h)) = ball_ball_contact(bm, &balls[j], limit) {
                        if sc.mv[j].state == ACTIVE {
                            take(time, j, h, &mut limit);
                        }
                    }
                };
                let c = sc.bp.cell_of(m);
                let cells = match entered {
                    None => sc.bp.neighbour_cells(c),
                    Some(old) => sc.bp.entering_cells(old, c),
                };
                // The heads of the cells' lists are gathered first without a branch per cell
                // (an empty cell is about as likely as not, so a branch on it would often be
                // mispredicted), then each non-empty list is walked (nearly always one body:
                // its end is predictable). `visit` is inlined here.
                // A list that starts with `m` starts at its successor instead (a select, not
                // a branch), so `visit` meets `m` only in the middle of a list (rarely).
                let none = crate::broad::NONE;
                let after_m = sc.bp.next_in(m);
                let mut heads = [none; 9];
                let mut n = 0;
                for &cell in cells.as_slice() {
                    let h = sc.bp.first_in(cell);
                    let h = if h == m as u32 { after_m } else { h };
                    heads[n] = h;
                    n += usize::from(h != none);
                }
                // Every head's ball, hot record (read when it is hit) and links are asked for
                // at once (prefetches), before the first is tested: in a world larger than the
                // cache they arrive together rather than one after another.
                for &h in &heads[..n] {
                    let h = h as usize;
                    if let (Some(b), Some(r)) = (balls.get(h), sc.mv.get(h)) {
                        mem_prefetch::prefetch_read_data::<_, 3>(b);
                        mem_prefetch::prefetch_read_data::<_, 3>(r);
                    }
                    sc.bp.prefetch(h);
                }
                for &h in &heads[..n] {
                    let mut j = h;
                    loop {
                        visit(j as usize);
                        j = sc.bp.next_in(j as usize);
                        if j == none {
                            break;
                        }
                    }
                }
            }
        } else {
            let r = &self.rects[sc.dyn_rects[m - nb] as usize];
            let (aabb, v) = (r.aabb, r.vel);
            for k in 0..sc.dyn_rects.len() {
                let j = nb + k;
                if j == m || sc.mv[j].state == DEAD {
                    continue;
                }
                if let Some((time, h)) = self.box_box_contact(m, j, limit) {
                    take(time, j, h, &mut limit);
                }
            }
            if sc.use_bp && nb > 0 {
                // Balls in the cells this box can reach before its horizon.
                let reach = v.length() * (sc.cap - s_t).max(0.0);
                let q = aabb.grown(reach + sc.max_radius + 1e-9);
                sc.bp.for_each_in_box(&q, |j| {
                    if sc.mv[j].state == DEAD {
                        return;
                    }
                    if let Some((time, h)) = self.box_ball_contact(m, j, limit) {
                        take(time, j, h, &mut limit);
                    }
                });
            }
        }
        best.map(|(time, j, hit, pm)| {
            // Never before now (a contact solved from earlier anchors can round a hair
            // earlier than the search that found it).
            let time = time.max(s_t);
            Prediction {
                time,
                toi_anchor: if m < nb {
                    time - self.balls[m].anchor_time
                } else {
                    0.0
                },
                target: PTarget::Mover(j),
                normal: hit.normal,
                point: hit.point,
                feature: hit.feature,
                partner_motion: pm,
            }
        })
    }

    /// The first contact of ball `m` with dynamic rectangle mover `j` at an absolute time at
    /// most `limit`, as seen from the ball (normal toward it): swept in the rectangle's frame
    /// from the later of the two paths' starts (the same bits whenever it is searched).
    fn ball_box_contact(&self, m: usize, j: usize, limit: Real) -> Option<(Real, SweepHit)> {
        let b = &self.balls[m];
        let (v, radius, ba) = (b.vel, b.radius, b.start());
        let (ra, rt, u) = self.dyn_path(j);
        let r_t = ba.time.max(rt);
        let p_ref = ba.pos + v * (r_t - ba.time);
        let aabb = ra.translated(u * (r_t - rt));
        let mut h = sweep_circle_aabb(p_ref, radius, v - u, limit - r_t, &aabb, Features::ALL)?;
        h.point += u * h.toi;
        Some((r_t + h.toi, h))
    }

    /// The first contact of dynamic rectangle movers `m` and `j` at an absolute time at most
    /// `limit`, as seen from `m`: from the later of the two paths' starts, the lower mover
    /// first (the normal, toward the first box, negated when `m` is the higher).
    fn box_box_contact(&self, m: usize, j: usize, limit: Real) -> Option<(Real, SweepHit)> {
        let v = self.rects[self.scratch.dyn_rects[m - self.nb()] as usize].vel;
        let (ma, mt, _) = self.dyn_path(m);
        let (ja, jt, u) = self.dyn_path(j);
        let r_t = mt.max(jt);
        let bm = ma.translated(v * (r_t - mt));
        let bj = ja.translated(u * (r_t - jt));
        let h = if m < j {
            sweep_aabb_aabb(&bm, v, &bj, u, limit - r_t)
        } else {
            sweep_aabb_aabb(&bj, u, &bm, v, limit - r_t).map(|mut h| {
                h.normal = -h.normal;
                h
            })
        }?;
        Some((r_t + h.toi, h))
    }

    /// The first contact of dynamic rectangle mover `m` with ball `j` at an absolute time at
    /// most `limit`, as seen from the rectangle: solved as the ball would solve it
    /// ([`World::ball_box_contact`], the same bits), the normal negated.
    fn box_ball_contact(&self, m: usize, j: usize, limit: Real) -> Option<(Real, SweepHit)> {
        let v = self.rects[self.scratch.dyn_rects[m - self.nb()] as usize].vel;
        let (ma, mt, _) = self.dyn_path(m);
        let bj = &self.balls[j];
        // A ball stopped at the iteration bound is at rest where its path starts.
        let bv = if self.scratch.mv[j].state == FROZEN {
            Vec2::ZERO
        } else {
            bj.vel
        };
        let r_t = bj.anchor_time.max(mt);
        let pj = bj.anchor + bv * (r_t - bj.anchor_time);
        let box_ref = ma.translated(v * (r_t - mt));
        let mut h = sweep_circle_aabb(pj, bj.radius, bv - v, limit - r_t, &box_ref, Features::ALL)?;
        h.point += v * h.toi;
        h.normal = -h.normal;
        Some((r_t + h.toi, h))
    }

    /// When a box (a body's bounds) moving with `v` is entirely outside an open side, within
    /// `limit`: `(toi, side)`; toi = 0 if it already is.
    fn loss_time(&self, b: &Aabb, v: Vec2, limit: Real) -> Option<(Real, Side)> {
        let w = self.walls;
        let mut best: Option<(Real, Side)> = None;
        let mut consider = |open: bool, dist: Real, speed: Real, side: Side| {
            // `dist`: how far the body still has to go to be out; `speed`: its speed outward.
            if !open {
                return;
            }
            let t = if dist <= 0.0 {
                0.0
            } else if speed > 0.0 {
                dist / speed
            } else {
                return;
            };
            if t <= limit && best.is_none_or(|bst| t < bst.0) {
                best = Some((t, side));
            }
        };
        consider(!w.left, b.max.x, -v.x, Side::Left);
        consider(!w.top, b.max.y, -v.y, Side::Top);
        consider(!w.right, self.size.x - b.min.x, v.x, Side::Right);
        consider(!w.bottom, self.size.y - b.min.y, v.y, Side::Bottom);
        best
    }

    /// Hits of a moving box against the closed walls within `limit` (box inside the world).
    pub(crate) fn box_wall_hits(
        &self,
        b: &Aabb,
        v: Vec2,
        limit: Real,
    ) -> impl Iterator<Item = (Side, SweepHit)> {
        let w = self.walls;
        let size = self.size;
        let mut out: [Option<(Side, SweepHit)>; 4] = [None; 4];
        let mk = |closed: bool,
                  gap: Real,
                  speed: Real,
                  side: Side,
                  normal: Vec2|
         -> Option<(Side, SweepHit)> {
            // `gap`: distance from the box to the wall (negative: already past it, a wall is a
            // solid half-plane); `speed` > 0: approaching.
            if !closed || !(speed > 0.0) {
                return None;
            }
            let toi = gap.max(0.0) / speed;
            (toi <= limit).then(|| {
                let c = b.center() + v * toi;
                let point = match side {
                    Side::Left => Vec2::new(0.0, c.y),
                    Side::Right => Vec2::new(size.x, c.y),
                    Side::Top => Vec2::new(c.x, 0.0),
                    Side::Bottom => Vec2::new(c.x, size.y),
                };
                (
                    side,
                    SweepHit {
                        toi,
                        normal,
                        point,
                        feature: Feature::Circle,
                    },
                )
            })
        };
        out[0] = mk(w.left, b.min.x, -v.x, Side::Left, Vec2::X);
        out[1] = mk(w.top, b.min.y, -v.y, Side::Top, Vec2::Y);
        out[2] = mk(w.right, size.x - b.max.x, v.x, Side::Right, Vec2::NEG_X);
        out[3] = mk(w.bottom, size.y - b.max.y, v.y, Side::Bottom, Vec2::NEG_Y);
        out.into_iter().flatten()
    }

    /// Applies the response of mover `m`'s predicted event (already advanced to its time).
    fn resolve(&mut self, m: usize, pred: Prediction) {
        let nb = self.nb();
        // The TC rule (S. Luding, S. McNamara, "How to handle the inelastic collapse of a
        // dissipative hard-sphere gas with the TC model", Granular Matter 1, 1998): a body hit
        // again within `TC_STEPS·dt` of its last collision bounces elastically, so a ball
        // squeezed between a wall and a heavy ball cannot collapse into infinitely many ever
        // weaker bounces. With restitution 1 (the default) this changes nothing.
        let tc = TC_STEPS * self.config.dt;
        let t_hit = pred.time;
        let recent = |k: usize| t_hit - self.scratch.last_hit[k] < tc;
        let partner_recent = match pred.target {
            PTarget::Mover(j) => recent(j as usize),
            _ => false,
        };
        let e = if recent(m) || partner_recent {
            1.0
        } else {
            self.config.restitution
        };
        let v = self.vel_of(m);
        let me = self.body_of(m);
        let t = pred.time;
        // Event times are reported from the start of the step.
        let toi = t - self.scratch.t0;
        let n = pred.normal;
        let is_ball = m < nb;
        // A ball's contact position, from its anchor exactly as the impact time was solved:
        // its new path starts there.
        let contact = is_ball.then(|| self.balls[m].anchor + v * pred.toi_anchor);
        // Boxes reflect per axis (a corner-to-corner hit flips both components).
        let reflect_box = |v: Vec2, u: Vec2| -> Vec2 {
            let mut out = v;
            if n.x != 0.0 {
                out = reflect_relative(out, u, Vec2::new(n.x.signum(), 0.0), e);
            }
            if n.y != 0.0 {
                out = reflect_relative(out, u, Vec2::new(0.0, n.y.signum()), e);
            }
            out
        };
        let mut partner: Option<usize> = None;
        // A second contact with immovable geometry at the same instant, facing the first
        // (an exact fit: a ball as wide as its corridor, a box that fits its slot): the body
        // is wedged, and leaves with the velocity nearest to its reflected one that moves
        // away from neither contact (it slides along them), instead of bouncing between
        // them at zero time until the event bound stops it.
        let wedged = {
            let prev = self.scratch.last_normal[m];
            (self.scratch.last_hit[m] == t && n.dot(prev) < 0.0).then_some(prev)
        };
        let immovable = match pred.target {
            PTarget::Cell(_) | PTarget::Wall(_) => true,
            PTarget::Rect(k) => self.rects[k as usize].vel == Vec2::ZERO,
            _ => false,
        };
        // A body moving with a kinematic rectangle that squeezes it (`squeeze.rs`).
        let carry = if self.carries.is_empty() {
            None
        } else {
            self.carry_of(me)
        };
        match pred.target {
            PTarget::Lost(side) => {
                self.scratch.mv[m].state = DEAD;
                self.scratch.queue.remove(m);
                if self.scratch.use_bp && m < nb {
                    self.scratch.bp.remove(m);
                }
                self.events.push(match me {
                    Body::Ball(ball) => Event::BallLost { ball, side, toi },
                    Body::Rect(rect) => Event::RectLost { rect, side, toi },
                });
                self.scratch.mv[m].motion = self.scratch.mv[m].motion.wrapping_add(1);
                self.end_carry(me);
                return;
            }
            PTarget::Cell(c) => {
                let nv = if is_ball {
                    reflect(v, n, e)
                } else {
                    reflect_box(v, Vec2::ZERO)
                };
                let nv = wedged.map_or(nv, |prev| leave_wedge(nv, n, prev));
                // A brick that the hit destroys leaves room: no wedge.
                let breaks = || {
                    self.config.destructible_bricks
                        && self
                            .grid
                            .as_ref()
                            .is_some_and(|g| matches!(g.cell(c), Cell::Brick(_)))
                };
                let nv = match carry {
                    None => nv,
                    Some(_) if breaks() => {
                        self.end_carry(me);
                        nv
                    }
                    Some(_) => {
                        match self.carried_meets_immovable(m, carry, v, n, nv, e, t, contact) {
                            Some(nv) => nv,
                            None => return,
                        }
                    }
                };
                self.set_vel(m, nv, t, contact);
                self.events.push(match me {
                    Body::Ball(ball) => Event::BallTile {
                        ball,
                        cell: c,
                        point: pred.point,
                        normal: n,
                        toi,
                        feature: pred.feature,
                    },
                    Body::Rect(rect) => Event::RectTile {
                        rect,
                        cell: c,
                        point: pred.point,
                        normal: n,
                        toi,
                    },
                });
                if self.config.destructible_bricks {
                    if let Some(g) = &mut self.grid {
                        if let Cell::Brick(kind) = g.cell(c) {
                            g.set_cell(c, Cell::Empty);
                            self.events.push(Event::BrickDestroyed {
                                cell: c,
                                kind,
                                by: me,
                                toi,
                            });
                        }
                    }
                }
            }
            PTarget::Wall(side) => {
                let nv = if is_ball {
                    reflect(v, n, e)
                } else {
                    reflect_box(v, Vec2::ZERO)
                };
                let nv = wedged.map_or(nv, |prev| leave_wedge(nv, n, prev));
                let Some(nv) = self.carried_meets_immovable(m, carry, v, n, nv, e, t, contact)
                else {
                    return;
                };
                self.set_vel(m, nv, t, contact);
                self.events.push(match me {
                    Body::Ball(ball) => Event::BallWall {
                        ball,
                        side,
                        point: pred.point,
                        normal: n,
                        toi,
                    },
                    Body::Rect(rect) => Event::RectWall {
                        rect,
                        side,
                        normal: n,
                        toi,
                    },
                });
            }
            PTarget::Rect(k) => {
                let rc = self.rects[k as usize];
                let nv = if is_ball {
                    reflect_relative(v, rc.vel, n, e)
                } else {
                    reflect_box(v, rc.vel)
                };
                let nv = match wedged {
                    Some(prev) if immovable => leave_wedge(nv, n, prev),
                    _ => nv,
                };
                let closing = rc.kind == RectKind::Kinematic && rc.vel.dot(n) > 0.0;
                if let Some(c) =
                    carry.filter(|c| c.crushed && closing && World::carry_holds(c, rc.id, rc.vel))
                {
                    // Crushed and still pressed: it stays until its push-out.
                    self.crush(m, c, carry_velocity(v, rc.vel, n, !is_ball), t, contact);
                    return;
                }
                let nv = if immovable {
                    match self.carried_meets_immovable(m, carry, v, n, nv, e, t, contact) {
                        Some(nv) => nv,
                        None => return,
                    }
                } else if closing && self.squeezed_against(self.probe(m, contact), n) {
                    // Squeezed: it moves with the rectangle across their contact.
                    self.start_carry(me, rc.id, rc.vel, n);
                    carry_velocity(v, rc.vel, n, !is_ball)
                } else {
                    self.end_carry(me);
                    nv
                };
                self.set_vel(m, nv, t, contact);
                self.events.push(match me {
                    Body::Ball(ball) => Event::BallRect {
                        ball,
                        rect: rc.id,
                        point: pred.point,
                        normal: n,
                        toi,
                    },
                    Body::Rect(rect) => Event::RectRect {
                        a: rect,
                        b: rc.id,
                        point: pred.point,
                        normal: n,
                        toi,
                    },
                });
            }
            PTarget::Mover(j) => {
                let j = j as usize;
                self.advance(j, t);
                let vj = self.vel_of(j);
                let frozen = self.scratch.mv[j].state == FROZEN;
                // A body stopped at the iteration bound is an immovable obstacle at rest for
                // the rest of the step.
                let (vj, mj) = if frozen {
                    (Vec2::ZERO, Real::INFINITY)
                } else {
                    (vj, self.mass_of(j))
                };
                let mi = self.mass_of(m);
                let (nv, nvj) = if is_ball || j < nb {
                    collide_elastic(mi, v, mj, vj, n, e)
                } else {
                    let mut a = (v, vj);
                    if n.x != 0.0 {
                        a = collide_elastic(mi, a.0, mj, a.1, Vec2::new(n.x.signum(), 0.0), e);
                    }
                    if n.y != 0.0 {
                        a = collide_elastic(mi, a.0, mj, a.1, Vec2::new(0.0, n.y.signum()), e);
                    }
                    a
                };
                self.set_vel(m, nv, t, contact);
                self.end_carry(me);
                if !frozen {
                    self.set_vel(j, nvj, t, None);
                    let other = self.body_of(j);
                    self.end_carry(other);
                    partner = Some(j);
                }
                let other = self.body_of(j);
                self.events.push(match (me, other) {
                    // Named in id order (the normal toward the first): which of the two
                    // handles the contact depends on which found it last, the event does not.
                    (Body::Ball(a), Body::Ball(b)) if b.index() < a.index() => Event::BallBall {
                        a: b,
                        b: a,
                        point: pred.point,
                        normal: -n,
                        toi,
                    },
                    (Body::Ball(a), Body::Ball(b)) => Event::BallBall {
                        a,
                        b,
                        point: pred.point,
                        normal: n,
                        toi,
                    },
                    (Body::Ball(ball), Body::Rect(rect)) => Event::BallRect {
                        ball,
                        rect,
                        point: pred.point,
                        normal: n,
                        toi,
                    },
                    (Body::Rect(rect), Body::Ball(ball)) => Event::BallRect {
                        ball,
                        rect,
                        point: pred.point,
                        normal: -n,
                        toi,
                    },
                    (Body::Rect(a), Body::Rect(b)) => Event::RectRect {
                        a,
                        b,
                        point: pred.point,
                        normal: n,
                        toi,
                    },
                });
            }
        }
        self.scratch.last_hit[m] = t;
        self.scratch.last_normal[m] = if immovable { n } else { Vec2::ZERO };
        if let Some(j) = partner {
            self.scratch.last_hit[j] = t;
            self.scratch.last_normal[j] = Vec2::ZERO;
        }
        if self.scratch.tracing {
            self.trace_change(m, partner);
            if let Some(j) = partner {
                self.trace_change(j, Some(m));
            }
        }
        self.after_response(m, t);
        if let Some(j) = partner {
            self.after_response(j, t);
        }
    }

    /// The body of mover `m` (at its current time; a ball at its contact position `contact`)
    /// as [`World::squeezed_against`] probes it.
    fn probe(&self, m: usize, contact: Option<Vec2>) -> Probe {
        let nb = self.nb();
        if m < nb {
            Probe::Ball {
                center: contact.unwrap_or_else(|| self.ball_pos(m)),
                radius: self.balls[m].radius,
            }
        } else {
            let k = self.scratch.dyn_rects[m - nb] as usize;
            Probe::Box {
                aabb: self.rects[k].aabb,
                rect: k,
            }
        }
    }

    /// Mover `m`, moving with velocity `v` and `carry`ed by a kinematic rectangle (if any),
    /// meets immovable geometry of normal `n` at absolute time `t`; `response` is its ordinary
    /// response. Returns the velocity it leaves with, or `None` when it is crushed (then
    /// reported with [`Event::Squeezed`] and stopped for the rest of the step). Rule 3 of
    /// `squeeze.rs`.
    #[allow(clippy::too_many_arguments)]
    fn carried_meets_immovable(
        &mut self,
        m: usize,
        carry: Option<Carry>,
        v: Vec2,
        n: Vec2,
        response: Vec2,
        e: Real,
        t: Real,
        contact: Option<Vec2>,
    ) -> Option<Vec2> {
        let Some(c) = carry else {
            return Some(response);
        };
        match self.wedge(c, v, n, response, e) {
            Wedge::Slide(w) => Some(w),
            Wedge::Stale => {
                self.end_carry(c.body);
                Some(response)
            }
            Wedge::Crush(w) => {
                self.crush(m, c, w, t, contact);
                None
            }
        }
    }

    /// Mover `m`, carried by `c`, is crushed at absolute time `t`: it leaves with `w` after
    /// its push-out at the step's end, is reported once ([`Event::Squeezed`]) and stops for
    /// the rest of the step.
    fn crush(&mut self, m: usize, c: Carry, w: Vec2, t: Real, contact: Option<Vec2>) {
        self.set_vel(m, w, t, contact);
        if !c.crushed {
            self.events.push(Event::Squeezed {
                body: c.body,
                rect: c.rect,
                normal: c.normal,
                toi: t - self.scratch.t0,
            });
        }
        self.mark_crushed(c.body);
        self.scratch.crushed.push(c.body);
        self.scratch.last_hit[m] = t;
        self.scratch.last_normal[m] = Vec2::ZERO;
        self.stop(m, t);
    }

    /// Records ball `m`'s new path (hit by `partner`, a ball, or by static geometry) in the
    /// trace. Only balls are traced (a domain's world has no rectangle).
    fn trace_change(&mut self, m: usize, partner: Option<usize>) {
        if let Some(b) = self.balls.get(m) {
            self.scratch.trace.push(Trace {
                m: m as u32,
                partner: partner.map_or(u32::MAX, |j| j as u32),
                anchor_time: b.anchor_time,
                anchor: b.anchor,
                vel: b.vel,
            });
        }
    }

    /// Counts the event against mover `m`'s bound, grows its reach box if it got faster, and
    /// predicts again (or freezes it at the bound).
    fn after_response(&mut self, m: usize, t: Real) {
        self.scratch.mv[m].events += 1;
        if self.scratch.mv[m].events >= self.config.max_events_per_body {
            self.freeze(m, t);
            return;
        }
        self.predict(m);
    }

    /// Stops mover `m` at the event bound for the rest of the step and reports it
    /// ([`Event::IterationLimit`], see [`World::stop`]).
    fn freeze(&mut self, m: usize, t: Real) {
        let body = self.body_of(m);
        let toi = t - self.scratch.t0;
        self.events.push(Event::IterationLimit { body, toi });
        self.stop(m, t);
    }

    /// Stops mover `m` for the rest of the step (at the event bound, or crushed).
    ///
    /// For the rest of the step it is an immovable obstacle at rest: its `motion` changes so
    /// that predictions made against its old path are void, and the bodies that could meet it
    /// before their next prediction (its broad-phase neighbours and the dynamic rectangles)
    /// predict again now. The next step checks every body for a push-out.
    fn stop(&mut self, m: usize, t: Real) {
        self.embed_check = true;
        if m < self.nb() {
            // It stays where it is: its path starts here (read while it is still active).
            let (pos, time) = (self.ball_pos(m), self.scratch.mv[m].t);
            self.balls[m].anchor = pos;
            self.balls[m].anchor_time = time;
        } else {
            let k = self.scratch.dyn_rects[m - self.nb()] as usize;
            self.rect_anchor[k] = (self.rects[k].aabb, self.scratch.mv[m].t);
        }
        self.scratch.queue.remove(m);
        self.scratch.any_frozen = true;
        self.scratch.mv[m].state = FROZEN;
        self.scratch.mv[m].motion = self.scratch.mv[m].motion.wrapping_add(1);
        self.scratch.frozen.push(m as u32);
        if !self.scratch.use_bp {
            return;
        }
        let nb = self.nb();
        let mut cand = std::mem::take(&mut self.scratch.cand);
        cand.clear();
        if m < nb {
            let sc = &self.scratch;
            sc.bp
                .for_each_neighbour(sc.bp.cell_of(m), |k| cand.push(k as u32));
        } else {
            let aabb = self.rects[self.scratch.dyn_rects[m - nb] as usize].aabb;
            self.scratch
                .bp
                .query_box(&aabb.grown(self.scratch.max_radius + 1e-9));
            cand.extend_from_slice(&self.scratch.bp.out);
        }
        for k in 0..self.scratch.dyn_rects.len() {
            cand.push((nb + k) as u32);
        }
        for &k in &cand {
            let k = k as usize;
            if k != m && self.scratch.mv[k].state == ACTIVE {
                self.advance(k, t);
                self.predict(k);
            }
        }
        self.scratch.cand = cand;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::desc::{BallDesc, StepConfig, Walls};

    fn ball(x: Real, y: Real, vx: Real) -> BallDesc {
        BallDesc {
            pos: Vec2::new(x, y),
            vel: Vec2::new(vx, 0.0),
            radius: 2.0,
            density: 1.0,
        }
    }

    /// A lost ball's removal moves the last ball into its place: a pair event aimed at the
    /// moved ball follows it to its new index and stays valid (it is not searched again).
    #[test]
    fn a_pair_event_follows_its_partner_to_its_new_index() {
        let mut w = World::new(Vec2::splat(100.0), Walls::NONE, StepConfig::default())
            .expect("a 100 × 100 world with default settings is valid");
        // 0 heads for 2 (contact at 29.5/60 s, after the loss); 1 leaves through the left side
        // within the first step; 2, the last, waits at rest.
        for b in [
            ball(50.0, 50.0, 30.0),
            ball(1.0, 20.0, -600.0),
            ball(68.75, 50.0, 0.0),
        ] {
            w.add_ball(b).expect("finite balls inside the world");
        }
        let lost = w
            .step()
            .iter()
            .filter(|e| matches!(e, Event::BallLost { .. }))
            .count();
        assert_eq!(lost, 1);
        assert_eq!(w.balls.len(), 2);
        assert!(w.scratch.valid, "the survivors keep their predictions");
        assert_eq!(w.scratch.mv.len(), 2);
        let r = w.scratch.pair[0];
        assert_eq!(r.partner, 1, "ball 0's partner moved from index 2 to 1");
        assert!(w.partner_valid(r));
        // The contact then happens: 50 + 30 t + 4 = 68.75 at t = 29.5/60 s, in the 30th step.
        let mut hit = None;
        for step in 1..40 {
            if w.step().iter().any(|e| matches!(e, Event::BallBall { .. })) {
                hit = Some(step);
                break;
            }
        }
        assert_eq!(
            hit,
            Some(29),
            "the 30th step (the loop's 29th) holds t = 29.5/60 s"
        );
    }
}
