//! Storing a mover's predictions and queueing it at the earliest: predicting one mover or a
//! batch (on several threads), a stored pair event solved again when it fires, the search
//! again after a partner changed course or a cell crossing, and the bound on search events.

use super::contact::{ball_ball_contact, ball_ball_contact_acc};
use super::mover::{
    MoverBody, Next, PTarget, PairRef, Predicted, Prediction, ACTIVE, DEAD, NO_PARTNER,
};
use crate::world::World;
use collide_core::{Real, Vec2};

/// Fewest predictions per thread worth a parallel batch (below, one thread does it all).
const MIN_PARALLEL_BATCH: usize = 1024;

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

impl World {
    /// Predicts mover `m` anew from its current state, stores the predictions and queues it.
    pub(super) fn predict(&mut self, m: usize) {
        self.predict_g::<true, true>(m);
    }

    /// [`World::predict`] in a step compiled for gravity or not (`G`, [`World::acc_g`]).
    #[inline]
    pub(super) fn predict_g<const G: bool, const X: bool>(&mut self, m: usize) {
        let p = self.compute_prediction::<G, X>(m);
        self.apply_prediction(m, p);
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
    pub(super) fn set_stat(&mut self, m: usize, stat: Option<Prediction>, until: Real) {
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
    pub(super) fn stored_pair<const G: bool, const X: bool>(
        &self,
        m: usize,
        r: PairRef,
    ) -> Option<Prediction> {
        let j = r.partner as usize;
        let (_, hit) = match (self.mover(m), self.mover(j)) {
            (MoverBody::Ball(i), MoverBody::Ball(_)) if self.has_gravity::<G>() => {
                ball_ball_contact_acc(
                    &self.balls[i],
                    self.acc_of(i),
                    &self.ball_path(j),
                    self.acc_seen(j),
                    Real::INFINITY,
                )
            }
            (MoverBody::Ball(i), MoverBody::Ball(_)) => {
                ball_ball_contact(&self.balls[i], &self.ball_path(j), Real::INFINITY)
            }
            (MoverBody::Ball(_), MoverBody::Rect(_)) => self.ball_box_contact(m, j, Real::INFINITY),
            (MoverBody::Rect(_), MoverBody::Rect(_)) => self.box_box_contact(m, j, Real::INFINITY),
            (MoverBody::Rect(_), MoverBody::Ball(_)) => self.box_ball_contact(m, j, Real::INFINITY),
        }?;
        let time = self.scratch.mv[m].pair_t;
        Some(Prediction {
            time,
            toi_anchor: match self.mover(m) {
                MoverBody::Ball(i) => time - self.balls[i].anchor_time,
                MoverBody::Rect(_) => 0.0,
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
    pub(super) fn predict_batch(&mut self, batch: &[u32]) {
        if self.config.gravity == Vec2::ZERO {
            self.predict_batch_g::<false, true>(batch);
        } else {
            self.predict_batch_g::<true, true>(batch);
        }
    }

    /// [`World::predict_batch`] in a step compiled for gravity or not (`G`,
    /// [`World::acc_g`]) and for the extras or not (`X`, `World::run_events`).
    pub(super) fn predict_batch_g<const G: bool, const X: bool>(&mut self, batch: &[u32]) {
        let threads = self.threads.min(batch.len() / MIN_PARALLEL_BATCH).max(1);
        if threads <= 1 {
            for &m in batch {
                self.predict_g::<G, X>(m as usize);
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
                        *o = this.compute_prediction::<G, X>(m as usize);
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
    pub(super) fn repredict_pair<const G: bool, const X: bool>(&mut self, m: usize) {
        let s_t = self.scratch.mv[m].t;
        let until = self.pair_until(m);
        let pair = self.pair_event::<G, X>(m, s_t, until, None);
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
    pub(super) fn partner_valid(&self, r: PairRef) -> bool {
        // A removed partner (`GONE_PARTNER`) is past the end.
        self.scratch
            .mv
            .get(r.partner as usize)
            .is_some_and(|p| p.state != DEAD && p.motion == r.motion)
    }

    /// Which of mover `m`'s stored predictions comes first (ties: crossing, static, pair,
    /// horizon), and when.
    pub(super) fn next_kind(&self, m: usize) -> (Next, Real) {
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
    pub(super) fn schedule(&mut self, m: usize) {
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
    pub(super) fn cross<const G: bool, const X: bool>(&mut self, m: usize, cell: u32) {
        let t = self.scratch.mv[m].t;
        let old = self.scratch.bp.cell_of(m);
        self.scratch.bp.remove(m);
        self.scratch.bp.insert(m, cell);
        // A crossing at the step's first instant, before any other search event, is not
        // counted: a restored world places a body in its cell by its position and may cross
        // at once into the cell the run before it had entered at the end of the step
        // before, where that crossing was counted; counted here, the two runs would reach
        // the search bound one event apart (docs/algorithms.md, 7d). One at most per step.
        let mv = &mut self.scratch.mv[m];
        if t == self.scratch.t0 && mv.searches == 0 && !mv.start_crossed {
            mv.start_crossed = true;
        } else if self.over_search_bound(m) {
            self.freeze(m, t);
            return;
        }
        let pos = self.balls[m].pos_at(t, self.acc_g::<G>(m));
        let (ct, cc) = self.next_crossing::<G, X>(m, pos, t);
        self.scratch.mv[m].cross_t = ct;
        self.scratch.mv[m].cross_cell = cc;
        let until = self.pair_until(m);
        let r = self.scratch.pair[m];
        if r.partner == NO_PARTNER {
            // Its last search met no one up to (at least) `until`: the old neighbours are
            // covered, by that search or by their own searches since (a ball that changed
            // course searched its whole neighbourhood, this ball included).
            let pair = self.pair_event::<G, X>(m, t, until, Some(old));
            self.set_pair(m, pair);
        } else if self.partner_valid(r) {
            // The stored event stands unless a new neighbour comes first.
            let p_time = self.scratch.mv[m].pair_t;
            if let Some(q) = self.pair_event::<G, X>(m, t, p_time.min(until), Some(old)) {
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
            let pair = self.pair_event::<G, X>(m, t, until, None);
            self.set_pair(m, pair);
        }
        self.schedule(m);
    }

    /// Counts one search event of mover `m` (a cell crossing or a static window's end: no
    /// velocity change) and says whether it went past this step's bound,
    /// `64·max_events_per_body + 4096`: a finite step whatever the speeds and cell sizes.
    pub(super) fn over_search_bound(&mut self, m: usize) -> bool {
        self.scratch.mv[m].searches += 1;
        let bound = self
            .config
            .max_events_per_body
            .saturating_mul(64)
            .saturating_add(4096);
        self.scratch.mv[m].searches > bound
    }
}
