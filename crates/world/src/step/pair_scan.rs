//! The ball–ball part of a pair search: the candidates of a ball's broad-phase
//! neighbourhood, each solved by a contact function, the earliest kept with the step's tie
//! rule. Written once, instantiated per way of solving a pair (straight paths; paths with
//! filters, passes or gravity), so that the search of a world using none of those has no
//! test per candidate and no setup for them per search ([`World::plain_ball_pair_event`]).

use super::contact::ball_ball_contact;
use super::mover::{PTarget, Prediction, ACTIVE, FROZEN};
use crate::body::ball::BallRec;
use crate::world::World;
use collide_core::{Real, SweepHit, Vec2};

/// The earliest contact of a pair search so far: absolute time, partner (mover index), hit
/// (normal toward the searching mover), the partner's `motion` counter.
pub(super) type PairBest = Option<(Real, u32, SweepHit, u32)>;

impl World {
    /// Keeps the contact with mover `j` at absolute time `time` if it is no later than
    /// `limit` and earlier than `best`; ties in time go to the partner of lower order key
    /// (its stable id), so which partner a mover meets first depends neither on the order the
    /// broad phase lists candidates in nor on where the partners are stored (keys are looked
    /// up only on an exact tie, rare). A kept contact becomes the new `limit`.
    #[inline(always)]
    pub(super) fn take_pair(
        &self,
        best: &mut PairBest,
        limit: &mut Real,
        time: Real,
        j: usize,
        hit: SweepHit,
    ) {
        if time <= *limit
            && best.is_none_or(|b| {
                time < b.0 || (time == b.0 && self.order_key(j) < self.order_key(b.1 as usize))
            })
        {
            *best = Some((time, j as u32, hit, self.scratch.mv[j].motion));
            *limit = time;
        }
    }

    /// The earliest contact of ball `m` with the balls of its broad-phase neighbourhood (or,
    /// with `entered`, of the cells it just entered from cell `entered`), each candidate
    /// solved by `contact(ball record, its acceleration, mover index, limit)` returning the
    /// absolute contact time and hit. The acceleration given is zero for a ball stopped at
    /// the iteration bound (an obstacle at rest where it stopped), NaN otherwise (the
    /// contact function looks it up if it needs it).
    #[inline(always)]
    pub(super) fn scan_ball_pairs<C>(
        &self,
        m: usize,
        entered: Option<u32>,
        best: &mut PairBest,
        limit: &mut Real,
        contact: C,
    ) where
        C: Fn(&BallRec, Vec2, usize, Real) -> Option<(Real, SweepHit)>,
    {
        let sc = &self.scratch;
        let balls = &self.balls;
        // A candidate's mover record is read only when it is hit (most are not): one random
        // cache line fewer per candidate in a large world.
        let any_frozen = sc.any_frozen;
        let mut visit = |j: usize| {
            if j == m {
                return;
            }
            if any_frozen && sc.mv[j].state == FROZEN {
                // Stopped at the iteration bound: an obstacle at rest where it stopped (its
                // path starts there) until the step ends.
                let still = BallRec {
                    v0: Vec2::ZERO,
                    ..balls[j]
                };
                if let Some((time, h)) = contact(&still, Vec2::ZERO, j, *limit) {
                    self.take_pair(best, limit, time, j, h);
                }
                return;
            }
            if let Some((time, h)) = contact(&balls[j], Vec2::NAN, j, *limit) {
                if sc.mv[j].state == ACTIVE {
                    self.take_pair(best, limit, time, j, h);
                }
            }
        };
        let c = sc.bp.cell_of(m);
        let cells = match entered {
            None => sc.bp.neighbour_cells(c),
            Some(old) => sc.bp.entering_cells(old, c),
        };
        // The heads of the cells' lists are gathered first without a branch per cell (an
        // empty cell is about as likely as not, so a branch on it would often be
        // mispredicted), then each non-empty list is walked (nearly always one body: its end
        // is predictable). A list that starts with `m` starts at its successor instead (a
        // select, not a branch), so `visit` meets `m` only in the middle of a list (rarely).
        let none = crate::step::broad::NONE;
        let after_m = sc.bp.next_in(m);
        let mut heads = [none; 9];
        let mut n = 0;
        for &cell in cells.as_slice() {
            let h = sc.bp.first_in(cell);
            let h = if h == m as u32 { after_m } else { h };
            heads[n] = h;
            n += usize::from(h != none);
        }
        // Every head's ball, hot record (read when it is hit) and links are asked for at
        // once (prefetches), before the first is tested: in a world larger than the cache
        // they arrive together rather than one after another.
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

    /// A pair search's result as a prediction for mover `m`, never before `s_t` (a contact
    /// solved from earlier anchors can round a hair earlier than the search that found it).
    #[inline(always)]
    pub(super) fn pair_prediction(
        &self,
        m: usize,
        s_t: Real,
        best: PairBest,
    ) -> Option<Prediction> {
        best.map(|(time, j, hit, pm)| {
            let time = time.max(s_t);
            Prediction {
                time,
                toi_anchor: if self.is_ball(m) {
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

    /// Whether ball searches may take [`World::plain_ball_pair_event`]: no dynamic
    /// rectangle, no ball with a filter other than the default, no pass, no gravity (`G`:
    /// [`World::acc_g`]).
    #[inline(always)]
    pub(super) fn plain_pairs<const G: bool, const X: bool>(&self) -> bool {
        self.scratch.rect_movers.is_empty()
            && self.ball_filter.is_empty()
            && (!X || self.passes.is_empty())
            && !self.has_gravity::<G>()
    }

    /// [`World::pair_event`] for ball `m` in a world where [`World::plain_pairs`] holds:
    /// straight paths, every pair collides. The same result as the general search, from a
    /// smaller function.
    #[inline(never)]
    pub(super) fn plain_ball_pair_event(
        &self,
        m: usize,
        s_t: Real,
        until: Real,
        entered: Option<u32>,
    ) -> Option<Prediction> {
        let mut best: PairBest = None;
        let mut limit = until;
        if self.scratch.use_bp && self.config.ball_ball {
            let bm = &self.balls[m];
            self.scan_ball_pairs(m, entered, &mut best, &mut limit, |b, _, _, limit| {
                ball_ball_contact(bm, b, limit)
            });
        }
        self.pair_prediction(m, s_t, best)
    }
}
