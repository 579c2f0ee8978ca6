//! The event machinery kept in the world between steps ([`Scratch`]), the trace of velocity
//! changes a domain's world records ([`Trace`]), and the edits between steps that keep the
//! predictions (a ball steered, added or lost, a kinematic rectangle given a new path).

use super::mover::{Mover, PairRef, Predicted, Prediction, GONE_PARTNER, NO_PARTNER};
use crate::model::event::{Body, Event};
use crate::step::broad::CellLists;
use crate::step::queue::EventQueue;
use collide_core::{Aabb, Real, Vec2};

/// The event machinery, kept in the world between steps: every mover's latest prediction and
/// the queue of them live on from step to step while nothing outside the step changes the
/// world; any edit (a body added, moved or removed, a cell or a setting changed) sets `valid`
/// to false and the next step predicts everything again, except a new velocity or position
/// for a ball and a new velocity for a kinematic rectangle (`steered`, `paths_changed`: only
/// the movers concerned predict again). Reused buffers: steady-state steps do not allocate.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    /// The structures below match the world.
    pub(crate) valid: bool,
    /// Consecutive steps that had to start by predicting everything again.
    pub(super) rebuilds: u32,
    /// Each mover's hot record (time, state, the times of its predictions): one cache line.
    pub(super) mv: Vec<Mover>,
    /// Absolute time of each mover's last collision (for the TC rule).
    pub(super) last_hit: Vec<Real>,
    /// The contact normal of each mover's last collision when it was with an immovable
    /// obstacle (a tile, a wall, a resting rectangle), zero otherwise: a second such contact
    /// at the same instant whose normal opposes it wedges the mover (`leave_wedge`).
    pub(super) last_normal: Vec<Vec2>,
    /// Each mover's earliest event with static geometry (tiles, walls, open sides, static and
    /// kinematic rectangles) before its horizon; valid while its velocity is unchanged (and
    /// the brick it aims at exists).
    pub(super) stat: Vec<Option<Prediction>>,
    /// Each mover's earliest event with another mover found so far, before its static event
    /// and its horizon (its time is `Mover::pair_t`); valid while the partner's `motion` is
    /// unchanged. Only the partner is kept: the contact is solved again, to the same bits,
    /// when the event fires (`World::stored_pair`), so the array stays 8 bytes a mover.
    pub(super) pair: Vec<PairRef>,

    pub(super) queue: EventQueue,
    /// The mover indices of the dynamic rectangles, ascending (each mover's own record says
    /// which rectangle it is: `Mover::body`).
    pub(crate) rect_movers: Vec<u32>,
    pub(super) bp: CellLists,
    pub(super) use_bp: bool,
    /// Largest ball radius this step (for the rectangles' broad-phase queries).
    pub(super) max_radius: Real,
    /// Scratch list of candidate movers.
    pub(super) cand: Vec<u32>,
    /// Movers to predict anew at the start of a step, and their predictions.
    pub(super) batch: Vec<u32>,
    pub(super) batch_out: Vec<Predicted>,
    pub(super) dead_balls: Vec<usize>,
    pub(super) dead_rects: Vec<usize>,
    /// While lost balls are removed: the old index of each mover now at that index, and the
    /// new index of each old one (`u32::MAX`: removed).
    pub(super) perm: Vec<u32>,
    pub(super) new_of_old: Vec<u32>,
    /// Movers to predict again at the start of the next step: stopped at the iteration
    /// bound, or with nothing to do before the end of this step.
    pub(super) frozen: Vec<u32>,
    /// Bodies crushed during this step (`squeeze.rs`) or stopped at the event bound,
    /// pushed out at its end.
    pub(super) stopped: Vec<Body>,
    /// Some mover was stopped at the iteration bound during this step: the pair searches then
    /// look at each candidate's state, to meet a stopped ball as an obstacle at rest.
    pub(super) any_frozen: bool,
    /// Events drawn this step from the shared pool by bodies past their own bound
    /// (`World::after_response`, `StepConfig::event_pool`).
    pub(super) pool_used: u64,
    /// Whether any body or cell kind has a restitution of its own this step
    /// (`World::has_own_restitution`); without one every contact takes the world's.
    pub(super) own_restitution: bool,
    /// Movers whose predictions end within the next step (found at the end of this one).
    pub(super) renew: Vec<u32>,
    /// Balls given a new velocity or position between steps
    /// ([`World::set_ball_velocity`](crate::World::set_ball_velocity),
    /// [`World::set_ball_position`](crate::World::set_ball_position)): they predict again at
    /// the next step's start, the rest of the world keeps its predictions.
    pub(super) steered: Vec<u32>,
    /// Kinematic rectangles (dense indices) given a new path between steps
    /// ([`World::set_rect_velocity`](crate::World::set_rect_velocity)).
    pub(super) paths_changed: Vec<u32>,
    /// Balls added between steps ([`World::add_ball`](crate::World::add_ball)) that join
    /// without predicting everything again: the last ones, in order.
    pub(super) added: usize,
    /// Absolute times of the step's start and end, and the predictions' horizon.
    pub(super) t0: Real,
    pub(super) t1: Real,
    pub(super) cap: Real,
    /// The part of the world the balls occupy, when it is not the whole world (a domain's
    /// world, `domains.rs`): the broad phase's cells cover it and are sized for its density
    /// (balls outside it live in the border cells, which extend to infinity outward).
    pub(crate) region: Option<Aabb>,
    /// Reused buffers of `World::order_events`.
    pub(super) event_order: Vec<(Real, u32, u32)>,
    pub(super) event_buf: Vec<Event>,
    /// Record every velocity change in `trace` (a domain's world, `domains.rs`).
    pub(crate) tracing: bool,
    /// This step's velocity changes, in the order they happened (when `tracing`).
    pub(crate) trace: Vec<Trace>,
    /// The first answer of a contact hook that the step could not apply (`hook.rs`): the
    /// event loop stops and `World::step_with` restores the world.
    pub(crate) hook_error: Option<Box<crate::model::hook::HookError>>,
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
    pub(super) fn drop_lost_balls(&mut self) {
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
            && self.rect_movers.is_empty()
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
        + crate::step::broad::CellLists::BYTES_PER_BODY
        + EventQueue::BYTES_PER_MOVER;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::desc::{BallDesc, StepConfig, Walls};
    use crate::world::World;

    fn ball(x: Real, y: Real, vx: Real) -> BallDesc {
        BallDesc {
            pos: Vec2::new(x, y),
            vel: Vec2::new(vx, 0.0),
            radius: 2.0,
            density: 1.0,
            surface: crate::Surface::DEFAULT,
            gravity_scale: 1.0,
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
            if w.step().iter().any(|e| {
                matches!(
                    e,
                    Event::Contact(crate::Contact {
                        body: crate::Body::Ball(_),
                        other: crate::Target::Ball(_),
                        ..
                    })
                )
            }) {
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
