//! A mover's search against the flippers (`crate::body::flipper`), on its straight or curved
//! path: a part of its static search (a ball's circle or a dynamic rectangle's box); and the
//! flipper's surface velocity for the response.
//!
//! A flipper's angle is piecewise linear in absolute time: turning at `ω` from its motion's
//! start until `until`, then held. Each piece is swept on its own, the turning one by
//! `sweep_path_circle_turning_capsule` for a ball (certified conservative advancement), the
//! held one as the static capsule it is (exact); a box against the turning piece by
//! `sweep_path_aabb_turning_capsule` (certified conservative advancement, to a tolerance) and
//! against the held one exactly (`sweep_box_held_capsule`). A piece is swept from the later of
//! the mover's anchor and the piece's start, so that a contact is the same bits whenever it is
//! searched (after a cell crossing, at another step, after a restore), as for kinematic
//! rectangles.
//!
//! An unresolved sweep (the iteration bound of `collide_core::TURNING_MAX_ITERATIONS`) is
//! certified contact-free up to its `safe_until`: the ball's static search window then ends
//! there (any later hit found by the other searches is dropped), and the ball searches again
//! from there, a search event counted against the step's search bound like every other
//! (`over_search_bound`: past it the ball stops with `Event::IterationLimit`). A search started
//! after such a point sweeps the chain of pieces again from the same starts, so the results do
//! not depend on when it runs.

use super::mover::{MoverBody, PTarget};
use super::predict::take;
use super::respond::Impact;
use crate::body::rest::REST_TIME;
use crate::model::material::{kick_capped, speed_capped};
use crate::step::squeeze::carry_parting;
use crate::step::squeeze::{carry_velocity, Carrier};
use crate::world::World;
use collide_core::motion::Path;
use collide_core::sweep_path::{
    sweep_path_aabb_turning_capsule, sweep_path_circle_turning_capsule, TurningSweep,
};
use collide_core::{
    reflect_relative_on, Aabb, Circle, Feature, Real, Segment, SegmentFeature, SweepHit,
    TurningCapsule, TurningHit, Vec2,
};

/// The angle (radians) a turning flipper turns during the shortest flight a ball parting
/// from it in its frame is given ([`World::frame_parting`]): 0.1 rad, so that the flight is
/// [`REST_TIME`] up to 100 rad/s (a pinball table's flippers turn at 20 to 40) and shorter
/// above, where a flight of `REST_TIME` would take the flipper round by more than 0.1 rad.
const FRAME_FLIGHT_ANGLE: Real = 0.1;

/// A box whose centre follows `path` (half extents `half`) against a flipper held still at
/// `cap.angle` (`cap.omega` is zero): the earliest contact in `[0, max_toi]`, exact.
///
/// The capsule is the union of the two segments parallel to its core at `±radius` and the two
/// discs at its ends (the rectangle between the segments touches nothing the discs and
/// segments do not touch first), so its first contact is the earliest of theirs: a box
/// against a segment by the separating axes (`collide_core::sweep_path_aabb_segment`), against
/// a disc as the disc moving the other way meets the box (`crate::body::shape`'s
/// `sweep_box_circle`). A side is met only from outside (its normal away from the core): a
/// box inside the capsule leaves through it, as a ball does. A closed form, exact where
/// the certified search of `sweep_path_aabb_turning_capsule` would spend its iterations on
/// a capsule that does not move.
fn sweep_box_held_capsule(
    path: &Path,
    half: Vec2,
    cap: &TurningCapsule,
    max_toi: Real,
) -> Option<SweepHit> {
    let aabb = Aabb::new(path.p0 - half, path.p0 + half);
    let disp = Path {
        p0: Vec2::ZERO,
        v0: path.v0,
        accel: path.accel,
    };
    let straight = disp.accel == Vec2::ZERO;
    let (s, c) = collide_core::sin_cos(cap.angle);
    let dir = Vec2::new(c, s);
    let (a, b) = (cap.pivot, cap.pivot + dir * cap.length);
    let mut best: Option<SweepHit> = None;
    let mut consider = |h: SweepHit| {
        if best.is_none_or(|b| h.toi < b.toi) {
            best = Some(h);
        }
    };
    let sides: &[Real] = if cap.radius > 0.0 {
        &[1.0, -1.0]
    } else {
        &[0.0]
    };
    for &side in sides {
        let off = dir.perp() * (side * cap.radius);
        let seg = Segment::new(a + off, b + off);
        let h = if straight {
            collide_core::sweep_aabb_segment(&aabb, disp.v0, &seg, max_toi)
        } else {
            collide_core::sweep_path::sweep_path_aabb_segment(&aabb, &disp, &seg, max_toi)
        };
        if let Some(h) = h.filter(|h| side == 0.0 || h.normal.dot(off) > 0.0) {
            consider(SweepHit {
                toi: h.toi,
                normal: h.normal,
                point: h.point,
                feature: Feature::Circle,
            });
        }
    }
    for center in [a, b] {
        let disc = Circle {
            center,
            radius: cap.radius,
        };
        if let Some(h) = crate::body::shape::sweep_box_circle(disc, &aabb, &disp, straight, max_toi)
        {
            consider(h);
        }
    }
    best
}

/// Whether a box `aabb` moved by `d` (world units, over one unit of time) meets flipper `fl`
/// held still at absolute time `t` (the room test of a squeeze, `squeezing.rs`).
pub(super) fn box_meets_held_flipper(
    fl: &crate::body::flipper::Flipper,
    aabb: &Aabb,
    d: Vec2,
    t: Real,
) -> bool {
    let cap = TurningCapsule {
        pivot: fl.desc.pivot,
        pivot_vel: Vec2::ZERO,
        length: fl.desc.length,
        radius: fl.desc.radius,
        angle: fl.angle_at(t),
        omega: 0.0,
    };
    let path = Path::linear(aabb.center(), d);
    sweep_box_held_capsule(&path, aabb.half_extents(), &cap, 1.0).is_some()
}

/// How many unresolved sweeps a search follows before now (each restarts at the last one's
/// `safe_until`) before it gives up and lets the search bound decide.
const MAX_CHAIN: u32 = 64;

impl World {
    /// The earliest contact of mover `m` (a ball or a dynamic rectangle: its radius or half
    /// size and its filter its own, its centre on `path`, whose
    /// `τ = 0` is the absolute time `at`) with a flipper whose reach meets `reach` (the region
    /// the ball can reach before `limit`), kept in `best` by [`take`] (times from `at`, never
    /// before `base`). When a sweep is unresolved past now, the search is certified only up
    /// to its `safe_until`: `limit` and `searched` (absolute) shrink to it and a later `best`
    /// is dropped.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn flipper_hits(
        &self,
        m: usize,
        path: &Path,
        at: Real,
        reach: &Aabb,
        base: Real,
        best: &mut Option<(Real, PTarget, SweepHit)>,
        limit: &mut Real,
        searched: &mut Real,
    ) {
        let shape = match self.mover(m) {
            MoverBody::Ball(i) => Err(self.balls[i].radius),
            // The half size of the box its path starts from (its anchor): the current box's
            // differs from it by rounding as the box moves, and a search made at another
            // time (another step, after a restore) would see other bits.
            MoverBody::Rect(k) => Ok(self.rect_anchor[k].0.half_extents()),
        };
        let filter = self.mover_filter(m);
        for (k, fl) in self.flippers.iter().enumerate() {
            if !filter.collides(fl.desc.surface.filter)
                || !collide_core::aabb_overlaps_aabb(reach, &fl.reach())
            {
                continue;
            }
            let mo = fl.motion;
            // The pieces: turning on `[since, until)` (when it turns), held from `until` on.
            let turning = (mo.omega != 0.0).then_some((mo.since, mo.until, mo.omega));
            let held = (mo.until, Real::INFINITY, 0.0);
            for (start, end, omega) in turning.into_iter().chain(Some(held)) {
                // Times of the ball's path (from `at`).
                if end - at < base || start - at > *limit {
                    continue;
                }
                let mut from = at.max(start);
                let mut links = 0;
                loop {
                    let off = from - at;
                    let max_toi = (end - at).min(*limit) - off;
                    if max_toi.is_nan() || max_toi < 0.0 {
                        break;
                    }
                    let rel = Path {
                        p0: path.pos_at(off),
                        v0: path.vel_at(off),
                        accel: path.accel,
                    };
                    let cap = TurningCapsule {
                        pivot: fl.desc.pivot,
                        pivot_vel: Vec2::ZERO,
                        length: fl.desc.length,
                        radius: fl.desc.radius,
                        angle: if omega == 0.0 {
                            mo.target
                        } else {
                            mo.angle + omega * (from - mo.since)
                        },
                        omega,
                    };
                    let res = match shape {
                        Err(radius) => {
                            sweep_path_circle_turning_capsule(&rel, radius, &cap, max_toi)
                        }
                        Ok(half) if omega == 0.0 => {
                            match sweep_box_held_capsule(&rel, half, &cap, max_toi) {
                                Some(h) => TurningSweep::Hit(TurningHit {
                                    toi: h.toi,
                                    normal: h.normal,
                                    point: h.point,
                                    surface_vel: Vec2::ZERO,
                                    feature: SegmentFeature::Face,
                                }),
                                None => TurningSweep::Miss,
                            }
                        }
                        Ok(half) => sweep_path_aabb_turning_capsule(&rel, half, &cap, max_toi),
                    };
                    match res {
                        TurningSweep::Miss => break,
                        TurningSweep::Hit(h) => {
                            let hit = SweepHit {
                                toi: off + h.toi,
                                normal: h.normal,
                                point: h.point,
                                feature: Feature::Circle,
                            };
                            let target = PTarget::Flipper {
                                index: k as u32,
                                turning: omega != 0.0,
                            };
                            take(hit.toi.max(base), target, hit, best, limit);
                            break;
                        }
                        TurningSweep::Unresolved { safe_until } => {
                            let s = off + safe_until;
                            links += 1;
                            // Not after now, compared as absolute times: a search that starts
                            // where the last one was certified up to has `base` = that time
                            // less `at`, which may round below `s` (it would end at `s` again,
                            // and again, to the search bound).
                            if at + s <= at + base && s > off && links < MAX_CHAIN {
                                // Certified up to a time before now: go on from there.
                                from = at + s;
                                continue;
                            }
                            // Certified only up to `s`: the search ends there.
                            if best.is_some_and(|b| b.0 > s) {
                                *best = None;
                            }
                            *limit = limit.min(s);
                            *searched = searched.min(at + s);
                            break;
                        }
                    }
                }
            }
        }
    }

    /// The velocity a mover leaves turning flipper `index` with at contact `imp` (before the
    /// contact hook's answer), or `None` when it is crushed (`squeeze.rs`: stopped until its
    /// push-out): the flipper's surface velocity plus its own relative velocity reflected,
    /// or, pressed into immovable geometry closer than its own size, the surface's velocity
    /// across the contact (rules 1 to 3 of `squeeze.rs`); parting at least as fast as
    /// `part_from_flipper` says. Not inlined into the three event loops: one copy.
    #[inline(never)]
    pub(super) fn flipper_response(&mut self, imp: &Impact<'_>, index: u32) -> Option<Vec2> {
        let Impact {
            m,
            pred,
            v,
            e,
            me,
            t,
            n,
            contact,
            ..
        } = *imp;
        let u = self.flipper_surface_vel(index, true, pred.point);
        let e = speed_capped(kick_capped(e, v, u, n, false), v, u, n);
        let closing = u.dot(n) > 0.0;
        let by = Carrier::Flipper(index);
        let carry = self.carry_now(me).filter(|c| c.by == by);
        let carried = carry_velocity(v, u, n, !imp.is_ball);
        if let Some(c) = carry.filter(|c| c.crushed && closing) {
            // Crushed and still pressed: it stays until its push-out.
            self.crush(m, c, carried, t, contact);
            return None;
        }
        // Pressed into immovable geometry closer than its own size (`squeeze.rs`, rule 1):
        // it moves with the flipper's surface across the contact instead of bouncing off it,
        // never faster (each bounce in the narrowing gap would add `(1 + e)·u·n`), and is
        // carried (rules 2 and 3), a ball as a box.
        let bounce = reflect_relative_on(v, u, n, e);
        let pressed = closing && self.pressed_by_flipper(m, contact, n, bounce - u, t);
        let nv = if pressed {
            // The bound of rule 3, from the carry's first contact.
            let cap = carry.map_or_else(|| v.length().max((1.0 + e) * u.length()), |c| c.cap);
            self.start_carry(me, by, u, n, cap);
            carried
        } else {
            self.end_carry(me);
            bounce
        };
        let centre = self.mover_centre(m, contact);
        Some(self.part_from_flipper(m, index, centre, nv, u, n, pressed))
    }

    /// Whether mover `m` (a ball at `contact`) has immovable geometry closer than its size
    /// along the contact normal `n` or along `out`, the way a bounce would send it (a wedge
    /// between a flipper and a face at an angle to it), at absolute time `t`.
    #[inline(never)]
    fn pressed_by_flipper(
        &self,
        m: usize,
        contact: Option<Vec2>,
        n: Vec2,
        out: Vec2,
        t: Real,
    ) -> bool {
        let probe = self.probe(m, contact);
        let out = out.normalize_or_zero();
        self.squeezed_against(probe, n, t)
            || out != Vec2::ZERO && self.squeezed_against(probe, out, t)
    }

    /// Mover `m`'s velocity `nv` after bouncing off turning flipper `index` (its centre at
    /// `centre`, the flipper's surface velocity `u` and the normal `n` at the contact), made to
    /// part from the flipper at least as fast as a flight of [`REST_TIME`] needs when the
    /// flipper's frame presses it back.
    ///
    /// In the flipper's frame (turning at `ω` about the pivot) the ball's centre `q` (from the
    /// pivot) accelerates at `a − 2ω·q'.perp() − ω²·q` (gravity, Coriolis, centrifugal; see
    /// `collide_core::sweep_path_circle_turning_capsule`), whose normal part `p` is the gap's
    /// second derivative at a face contact (an end's curvature only adds to it). A ball
    /// that leaves at normal relative speed `w` meets the flipper again after about `2w/|p|`
    /// when `p < 0`: a ball lying on a flipper that swings, or sliding along it, would
    /// bounce ever more often (the Coriolis part reaches tens of thousands of units/s² for a
    /// ball sliding fast along a flipper turning at 30 rad/s). As `settle` does for gravity
    /// on still faces, such a contact parts at `w_min = −p·T/2` at least (a flight of `T`,
    /// [`REST_TIME`] or the time the flipper turns 0.1 rad if shorter: `frame_parting`),
    /// unless it is elastic (restitution 1) and parts at all: at most about one contact per
    /// `T`, and the energy of elastic bounces untouched. A body the
    /// flipper `carried` (`squeeze.rs`) left with no normal relative speed: it parts at
    /// `w_min` whatever the restitution, and at least at `carry_parting`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn part_from_flipper(
        &self,
        m: usize,
        index: u32,
        centre: Vec2,
        nv: Vec2,
        u: Vec2,
        n: Vec2,
        carried: bool,
    ) -> Vec2 {
        let w = (nv - u).dot(n);
        let w_min = self.frame_parting(m, index, centre, nv, n);
        let floor = if carried { carry_parting(nv, u) } else { 0.0 };
        if w_min > 0.0 && w < w_min {
            let e = self.pair_restitution(
                m,
                PTarget::Flipper {
                    index,
                    turning: true,
                },
            );
            if e < 1.0 || w <= 0.0 || carried {
                return nv + n * (w_min.max(floor) - w);
            }
        }
        if w < floor {
            return nv + n * (floor - w);
        }
        nv
    }

    /// The normal speed (units/s, relative to the surface) at which mover `m`, its centre at
    /// `centre` moving at `nv`, must leave turning flipper `index` across the contact normal
    /// `n` for a flight of `T` in the flipper's frame: `−p·T/2` when the frame's acceleration
    /// `p = (a − 2ω·nv.perp() − ω²·q)·n` (gravity, Coriolis, centrifugal, `q` the centre from
    /// the pivot) presses it back (`p < 0`), else 0. See [`World::part_from_flipper`].
    ///
    /// `T` is [`REST_TIME`], or the time the flipper takes to turn [`FRAME_FLIGHT_ANGLE`] if
    /// shorter (above 100 rad/s): `p` grows as `ω²` and `2ω·|v|`, so a flight of `REST_TIME`
    /// at 10⁴ rad/s would part the ball at millions of units/s, many times the flipper's
    /// own surface speed; with `T = 0.1/|ω|` the parting is at most `0.05·|ω|·|q|` (5 % of
    /// the surface's speed there) plus a tenth of the sliding speed and `0.05·|a|/|ω|`.
    pub(super) fn frame_parting(
        &self,
        m: usize,
        index: u32,
        centre: Vec2,
        nv: Vec2,
        n: Vec2,
    ) -> Real {
        let fl = &self.flippers[index as usize];
        let w_ = fl.motion.omega;
        let q = centre - fl.desc.pivot;
        let accel = self.mover_acc(m) - nv.perp() * (2.0 * w_) - q * (w_ * w_);
        let flight = REST_TIME.min(FRAME_FLIGHT_ANGLE / w_.abs());
        (-accel.dot(n) * (0.5 * flight)).max(0.0)
    }

    /// The surface velocity of flipper `index` at `point` for a contact found on its turning
    /// piece (`turning`) or its held one (zero).
    pub(super) fn flipper_surface_vel(&self, index: u32, turning: bool, point: Vec2) -> Vec2 {
        if !turning {
            return Vec2::ZERO;
        }
        let fl = &self.flippers[index as usize];
        (point - fl.desc.pivot).perp() * fl.motion.omega
    }
}
