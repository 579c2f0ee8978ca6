//! The response to one contact, one function per kind of target: a body lost through an open
//! side, a tile, a turning flipper, immovable geometry (a closed wall, a static shape, a held
//! flipper), a static or kinematic rectangle, another mover. `World::resolve` computes what
//! they share ([`Impact`]) and the bookkeeping after them.

use super::access::MoverId;
use super::mover::{Prediction, DEAD, FROZEN};
use crate::body::rect::RectRole;
use crate::body::rest::RestOn;
use crate::model::cell::{Cell, CellCoord};
use crate::model::event::{Body, Event, Side};
use crate::model::material::kick_capped;
use crate::step::squeeze::{carry_velocity, Carrier};
use crate::world::World;
use collide_core::{collide_elastic, collide_on, reflect_relative, Real, Vec2};

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

/// What the response to one contact knows before it tells one kind of target from another
/// (`World::resolve`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Impact<'a> {
    /// The mover, and its predicted event.
    pub(super) m: usize,
    pub(super) pred: &'a Prediction,
    /// Its velocity at the contact, before the response.
    pub(super) v: Vec2,
    /// The restitution after the TC rule and the kick cap.
    pub(super) e: Real,
    /// Whether the mover, and its partner, were hit within the TC window.
    pub(super) tc_m: bool,
    pub(super) partner_recent: bool,
    pub(super) me: Body,
    /// The contact's absolute time, and seconds from the step's start.
    pub(super) t: Real,
    pub(super) toi: Real,
    /// The contact normal, toward the mover.
    pub(super) n: Vec2,
    pub(super) is_ball: bool,
    /// A ball's centre at the contact (solved from its anchor).
    pub(super) contact: Option<Vec2>,
    /// A contact hook's velocities for the mover and its partner.
    pub(super) hook_m: Option<Vec2>,
    pub(super) hook_j: Option<Vec2>,
    /// The normal of a facing contact met at the same instant (an exact fit).
    pub(super) wedged: Option<Vec2>,
    /// Whether the target cannot move.
    pub(super) immovable: bool,
    /// Whether a box reflects about the normal (a slope's diagonal, a static shape, a
    /// flipper) rather than per axis.
    pub(super) diagonal: bool,
}

impl Impact<'_> {
    /// A box's velocity `v` reflected off a surface moving at `u`: per axis (a corner-to-corner
    /// hit flips both components), or about the normal off a slope's diagonal, a static shape
    /// (a slanted segment, a circle) or a flipper.
    #[inline]
    pub(super) fn reflect_box(&self, v: Vec2, u: Vec2) -> Vec2 {
        let (n, e) = (self.n, self.e);
        if self.diagonal {
            return reflect_relative(v, u, n, e);
        }
        let mut out = v;
        if n.x != 0.0 {
            out = reflect_relative(out, u, Vec2::new(n.x.signum(), 0.0), e);
        }
        if n.y != 0.0 {
            out = reflect_relative(out, u, Vec2::new(0.0, n.y.signum()), e);
        }
        out
    }
}

/// What a response leaves for the bookkeeping after it (`World::resolve`): the partner mover
/// it changed (and its velocity before), and whether each of the two met a sleeping ball as
/// immovable geometry.
#[derive(Clone, Copy, Debug)]
pub(super) struct Outcome {
    pub(super) partner: Option<usize>,
    pub(super) partner_v: Vec2,
    pub(super) wedge_normals: (bool, bool),
}

impl Outcome {
    /// A response that changed only the mover.
    pub(super) const NONE: Outcome = Outcome {
        partner: None,
        partner_v: Vec2::ZERO,
        wedge_normals: (false, false),
    };
}

impl World {
    /// Mover `m` leaves through open side `side`: it is gone (`Event::BallLost`/`RectLost`).
    #[inline(always)]
    pub(super) fn respond_lost<const G: bool, const X: bool>(
        &mut self,
        imp: &Impact<'_>,
        side: Side,
    ) -> Option<Outcome> {
        let Impact { m, me, toi, .. } = *imp;
        self.scratch.mv[m].state = DEAD;
        self.scratch.queue.remove(m);
        if self.scratch.use_bp && self.is_ball(m) {
            self.scratch.bp.remove(m);
        }
        self.events.push(match self.mover_id(m) {
            MoverId::Ball(ball) => Event::BallLost { ball, side, toi },
            MoverId::Rect(rect) => Event::RectLost { rect, side, toi },
        });
        self.scratch.mv[m].motion = self.scratch.mv[m].motion.wrapping_add(1);
        self.end_carry(me);
        None
    }

    /// Mover `m` bounces off tile `c` (a brick it destroys leaves room, and under gravity frees what rested on it).
    #[inline(always)]
    pub(super) fn respond_cell<const G: bool, const X: bool>(
        &mut self,
        imp: &Impact<'_>,
        c: CellCoord,
    ) -> Option<Outcome> {
        let Impact {
            m,
            pred,
            v,
            e,
            me,
            t,
            toi,
            n,
            is_ball,
            contact,
            hook_m,
            wedged,
            ..
        } = *imp;
        // A body moving with a kinematic rectangle that squeezes it (`squeeze.rs`).
        let carry = self.carry_now(me);
        let reflect_box = |v: Vec2, u: Vec2| imp.reflect_box(v, u);
        let nv = if is_ball {
            self.ball_bounce::<G, X>(v, Vec2::ZERO, n, e)
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
            Some(_) => match self.carried_meets_immovable(m, carry, v, n, nv, e, t, contact) {
                Some(nv) => nv,
                None => return None,
            },
        };
        let nv = hook_m.unwrap_or(nv);
        self.set_vel_g::<G, X>(m, nv, t, contact);
        self.push_contact_event(m, &pred, v, toi);
        let destroyed = match &mut self.grid {
            Some(g) if self.config.destructible_bricks => match g.cell(c) {
                Cell::Brick(kind) => {
                    g.set_cell(c, Cell::Empty);
                    Some(kind)
                }
                _ => None,
            },
            _ => None,
        };
        if let Some(kind) = destroyed {
            // Room for a ball that fitted nowhere, maybe.
            self.unplaceable.clear();
            self.events.push(Event::BrickDestroyed {
                cell: c,
                kind,
                by: me,
                toi,
            });
            if self.has_gravity::<G>() {
                self.free_rests_on(RestOn::Cell(c), t, m);
                // The balls asleep on it fall (`sleep.rs`).
                if let Some(cell) = self.grid.as_ref().map(|g| g.cell_aabb(c)) {
                    self.wake_touching_in_step(cell, t, m);
                }
            }
        }
        Some(Outcome::NONE)
    }

    /// A ball or a box against a turning flipper (`flippers.rs`): it leaves with the flipper's surface velocity plus its own relative velocity reflected, and parts at least as fast as `part_from_flipper` says.
    #[inline(always)]
    pub(super) fn respond_turning_flipper<const G: bool, const X: bool>(
        &mut self,
        imp: &Impact<'_>,
        index: u32,
    ) -> Option<Outcome> {
        let Impact {
            m,
            pred,
            v,
            t,
            toi,
            contact,
            hook_m,
            ..
        } = *imp;
        // Crushed (`squeeze.rs`): stopped until its push-out.
        let nv = self.flipper_response(imp, index)?;
        let nv = hook_m.unwrap_or(nv);
        self.set_vel_g::<G, X>(m, nv, t, contact);
        self.events.extend(self.contact_event(m, &pred, v, toi));
        Some(Outcome::NONE)
    }

    /// A ball or a box against a closed wall, a static shape, or a flipper held at a limit: as against a wall.
    #[inline(always)]
    pub(super) fn respond_immovable<const G: bool, const X: bool>(
        &mut self,
        imp: &Impact<'_>,
    ) -> Option<Outcome> {
        let Impact {
            m,
            pred,
            v,
            e,
            t,
            toi,
            n,
            is_ball,
            contact,
            hook_m,
            wedged,
            ..
        } = *imp;
        // A body moving with a kinematic rectangle that squeezes it (`squeeze.rs`).
        let carry = self.carry_now(imp.me);
        let reflect_box = |v: Vec2, u: Vec2| imp.reflect_box(v, u);
        let nv = if is_ball {
            self.ball_bounce::<G, X>(v, Vec2::ZERO, n, e)
        } else {
            reflect_box(v, Vec2::ZERO)
        };
        let nv = wedged.map_or(nv, |prev| leave_wedge(nv, n, prev));
        let Some(nv) = self.carried_meets_immovable(m, carry, v, n, nv, e, t, contact) else {
            return None;
        };
        let nv = hook_m.unwrap_or(nv);
        self.set_vel_g::<G, X>(m, nv, t, contact);
        self.push_contact_event(m, &pred, v, toi);
        Some(Outcome::NONE)
    }

    /// A ball or a box against a static or kinematic rectangle (a closing kinematic one may squeeze it against something else: `squeeze.rs`).
    #[inline(always)]
    pub(super) fn respond_rect<const G: bool, const X: bool>(
        &mut self,
        imp: &Impact<'_>,
        k: u32,
    ) -> Option<Outcome> {
        let Impact {
            m,
            pred,
            v,
            e,
            me,
            t,
            toi,
            n,
            is_ball,
            contact,
            hook_m,
            wedged,
            immovable,
            tc_m,
            ..
        } = *imp;
        // A body moving with a kinematic rectangle that squeezes it (`squeeze.rs`).
        let carry = self.carry_now(me);
        let reflect_box = |v: Vec2, u: Vec2| imp.reflect_box(v, u);
        let rc = self.rects[k as usize];
        let nv = if is_ball {
            self.ball_bounce::<G, X>(v, rc.vel, n, e)
        } else {
            reflect_box(v, rc.vel)
        };
        let nv = match wedged {
            Some(prev) if immovable => leave_wedge(nv, n, prev),
            _ => nv,
        };
        let closing = rc.role() == RectRole::Kinematic && rc.vel.dot(n) > 0.0;
        if let Some(c) =
            carry.filter(|c| c.crushed && closing && World::carry_holds(c, rc.id, rc.vel))
        {
            // Crushed and still pressed: it stays until its push-out.
            self.crush(m, c, carry_velocity(v, rc.vel, n, !is_ball), t, contact);
            return None;
        }
        let nv = if immovable {
            match self.carried_meets_immovable(m, carry, v, n, nv, e, t, contact) {
                Some(nv) => nv,
                None => return None,
            }
        } else if closing && (tc_m || self.squeezed_against(self.probe(m, contact), n, t)) {
            // Squeezed: it moves with the rectangle across their contact. Met again within
            // the TC window of its last collision (pressed against a body that moves, which
            // the room test does not see), it is squeezed too: bouncing, it would gain
            // `(1 + e)·u·n` at every return in an ever faster sequence.
            self.start_carry(me, Carrier::Rect(rc.id), rc.vel, n, Real::INFINITY);
            carry_velocity(v, rc.vel, n, !is_ball)
        } else {
            self.end_carry(me);
            nv
        };
        let nv = hook_m.unwrap_or(nv);
        self.set_vel_g::<G, X>(m, nv, t, contact);
        self.push_contact_event(m, &pred, v, toi);
        Some(Outcome::NONE)
    }

    /// Two movers collide (a ball or a box each): the elastic response of two masses along the normal (per axis for two boxes), a sleeping ball or a stopped mover met as immovable, and the wedge rule for a body between one of them and a wall.
    #[inline(always)]
    pub(super) fn respond_mover<const G: bool, const X: bool>(
        &mut self,
        imp: &Impact<'_>,
        j: u32,
    ) -> Option<Outcome> {
        let Impact {
            m,
            pred,
            v,
            e,
            tc_m,
            partner_recent,
            me,
            t,
            toi,
            n,
            is_ball,
            contact,
            hook_m,
            hook_j,
            wedged,
            ..
        } = *imp;
        let mut partner: Option<usize> = None;
        let partner_v;
        let wedge_normals;
        // Advanced to `t` above.
        let j = j as usize;
        let vj = self.vel_of_g::<G, X>(j);
        let j_ball = self.is_ball(j);
        partner_v = vj;
        // A sleeping ball or box (`sleep.rs`) is met as immovable, unless the impact is
        // fast enough to wake it (and what lies on it) and not inside the TC window (a
        // rattle among bodies that were hit a moment ago does not wake it).
        let (mut still_m, mut still_j) = (false, false);
        if G && (self.mover_asleep(m) || self.mover_asleep(j)) {
            let impact = (vj - v).dot(n);
            let s = crate::step::sleep::sleep_speed(self.config.gravity);
            for (k, still) in [(m, &mut still_m), (j, &mut still_j)] {
                if self.mover_asleep(k) {
                    if impact >= s && !(tc_m || partner_recent) {
                        self.wake_in_step(k, t);
                    } else {
                        *still = true;
                    }
                }
            }
        }
        let frozen = self.scratch.mv[j].state == FROZEN || still_j;
        // A body stopped at the iteration bound is an immovable obstacle at rest for
        // the rest of the step.
        let (vj, mj) = if frozen {
            (Vec2::ZERO, Real::INFINITY)
        } else {
            (vj, self.mass_of(j))
        };
        let mi = if still_m {
            Real::INFINITY
        } else {
            self.mass_of(m)
        };
        let e = kick_capped(e, v, vj, n, !(is_ball || j_ball));
        let (nv, nvj) = if (is_ball || j_ball) && self.has_gravity::<G>() {
            collide_on(mi, v, mj, vj, n, e)
        } else if is_ball || j_ball {
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
        let (nv, nvj) = if !self.has_gravity::<G>() {
            (nv, nvj)
        } else {
            self.separate_pressed(m, j, frozen, n, (nv, nvj), (mi, mj))
        };
        // A sleeping ball is immovable geometry for the wedge rule too: a ball that
        // fits exactly between it and a wall leaves both (see `wedged` above).
        let nv = match wedged {
            Some(prev) if still_j => leave_wedge(nv, n, prev),
            _ => nv,
        };
        let nvj = if still_m {
            let prev = self.scratch.last_normal[j];
            if self.scratch.last_hit[j] == t && prev.dot(n) > 0.0 {
                leave_wedge(nvj, -n, prev)
            } else {
                nvj
            }
        } else {
            nvj
        };
        wedge_normals = (still_j, still_m);
        let (nv, nvj) = (hook_m.unwrap_or(nv), hook_j.unwrap_or(nvj));
        // Reported from the velocities before the response.
        let event = self.contact_event_with(m, &pred, v, vj, toi);
        if !still_m {
            self.set_vel_g::<G, X>(m, nv, t, contact);
        }
        self.end_carry(me);
        if !frozen {
            self.set_vel_g::<G, X>(j, nvj, t, None);
            let other = self.body_of(j);
            self.end_carry(other);
            partner = Some(j);
        }
        if let Some(e) = event {
            self.events.push(e);
        }
        Some(Outcome {
            partner,
            partner_v,
            wedge_normals,
        })
    }
}
