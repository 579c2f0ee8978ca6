//! Resting contact in the step (`rest.rs`): which face holds a ball or a dynamic rectangle
//! after a response, the end of a face reached by a sliding body, and faces that disappear
//! during the step.

use super::mover::{MoverBody, PTarget, Prediction, ACTIVE};
use crate::body::rect::RectRole;
use crate::body::rest::Rest;
use crate::body::rest::RestOn;
use crate::body::rest::REST_TIME;
use crate::world::World;
use collide_core::{Aabb, Feature, Real, Vec2};

/// The shift (world units) that puts a body whose centre is `c`, held by `rest` and leaving
/// it with velocity `v` under gravity `g` (toward the end `rest_forward` says), past the end
/// of the range: zero unless the centre is still in the range (on a slanted face: or past
/// the end by less than the margin below). The end is found on the body's parabola and its
/// place there computed from the same parabola, which can round to a hair short of the end;
/// the face would then hold it again at once, its rest end again at that instant, and so on
/// until the event bound (a ball sliding off a rectangle's edge stuck there,
/// `docs/reliability.md`, E23). The centre moves along the face to 4 units in the last place
/// of the end beyond it (a box's trailing side, its centre less its half size, is then past
/// the face's end too, whatever the rounding of that difference); on a slanted face, of
/// twice the larger of the end and `|c|`, the rounding of a shape sweep's own coordinate
/// along the face.
fn past_end(rest: &Rest, c: Vec2, v: Vec2, g: Vec2) -> Vec2 {
    let forward = crate::body::rest::rest_forward(*rest, v, g);
    let (end, s) = if forward {
        (rest.hi, 1.0)
    } else {
        (rest.lo, -1.0)
    };
    let along = rest.along(c);
    // On a slanted face the shapes' sweeps place the body along the face in their own
    // arithmetic (`(p − a)·d` for a segment from `a` along `d`), rounded to about `ε·|c|`:
    // the margin covers that, and a centre past the end by less is moved to it too.
    let (scale, short) = if rest.aligned() {
        (end.abs().max(along.abs()), s * (along - end) <= 0.0)
    } else {
        let scale = 2.0 * end.abs().max(c.length());
        (scale, s * (along - end) < 4.0 * Real::EPSILON * scale)
    };
    if !(end.is_finite() && short) {
        return Vec2::ZERO;
    }
    let margin = 4.0 * Real::EPSILON * scale;
    let u = if rest.aligned() {
        let mut u = Vec2::ZERO;
        u[1 - rest.axis()] = 1.0;
        u
    } else {
        rest.normal.perp()
    };
    u * (end + s * margin - along)
}

/// Whether a box whose centre is `c`, held by `rest` with velocity `v` under gravity `g`, is
/// at an end of its range moving out of it (or, with no tangential velocity, accelerating out
/// of it): the face would hold it for no time, its rest ending at once, and the box would meet
/// the face again at that instant, over and over (a box whose corner is at a circle's top
/// point sliding off it).
fn leaving_range(rest: &Rest, c: Vec2, v: Vec2, g: Vec2) -> bool {
    let (vt, gt) = (rest.along(v), rest.along(g));
    let dir = if vt != 0.0 { vt } else { gt };
    let c = rest.along(c);
    (dir < 0.0 && c <= rest.lo) || (dir > 0.0 && c >= rest.hi)
}

/// Whether a wedge of two faces of immovable geometry holds a box still: the face that held it
/// (`a`) and the face just met (`b`), gravity `g` pressing it into both (`−g = λ·a + μ·b` with
/// `λ, μ > 0`: the two reactions balance it, so no motion keeps it on either face alone), and
/// the box slower after the response than a sleeping ball's wake speed
/// ([`crate::step::sleep::sleep_speed`], `|g|·REST_TIME`, twice a [`REST_TIME`] flight's).
/// With restitution below 1 its bounces between the faces would shrink geometrically, each
/// return sooner, and end at rest in the wedge in finite time; it stops there at once instead
/// (rather than part from `a` at a `REST_TIME` flight's speed, which would feed the bounces
/// energy for ever). Parallel or facing faces (`|a × b| < 1e-9`) are no wedge.
fn wedge_holds(a: Vec2, b: Vec2, g: Vec2, v: Vec2) -> bool {
    let det = a.perp_dot(b);
    if !(det.abs() >= 1e-9) {
        return false;
    }
    let (lambda, mu) = ((-g).perp_dot(b) / det, a.perp_dot(-g) / det);
    lambda > 0.0 && mu > 0.0 && v.length() < crate::step::sleep::sleep_speed(g)
}

/// A body's velocity `out` after it was made to part from a face along the unit direction `d`
/// at a [`REST_TIME`] flight's speed, held to the speed `before` it had ahead of the
/// response (both relative to the face's velocity): when parting would make it faster than it
/// came in, its part across `d` shrinks until it is not, but to no less than half of itself
/// (a body slower than the parting speed itself keeps sliding the way it slid, as a box
/// moving off a circle's top point slides off it rather than stopping balanced on it). So the
/// parting from a corner, a segment's end or a curved side takes the speed it needs from the
/// sliding motion, and a body hopping round a circle shape's side gains no energy at a hop
/// unless it came in nearly as slow as the parting speed; then it gains at most `m·w²/2`,
/// `w = d·out` the parting speed (`|out|² − |before|² ≤ w²`: with restitution below 1 the
/// response leaves the part across `d` no faster than `before`; `docs/reliability.md`, E5).
fn part_within(out: Vec2, before: Vec2, d: Vec2) -> Vec2 {
    let excess = out.length_squared() - before.length_squared();
    if !(excess > 0.0) {
        return out;
    }
    let along = d * out.dot(d);
    let across = out - along;
    let a2 = across.length_squared();
    if !(a2 > 0.0) {
        return out;
    }
    along + across * (1.0 - excess / a2).max(0.25).sqrt()
}

/// Whether a body with velocity `v` (after its response to face `b`) is driven into the apex
/// of a wedge of two faces of immovable geometry, `a` the face that held it and `b` the one
/// just met, gravity `g` pressing it into both (`−g = λ·a + μ·b`, `λ, μ > 0`, as
/// [`wedge_holds`]): it moves into `a` (`v·a ≤ 0`), and what is left of its motion once that
/// is taken away moves into `b`. No motion then leaves both faces but rest: the projection of
/// `v` on the cone of velocities that enter neither face (`x·a ≥ 0`, `x·b ≥ 0`) is zero, what
/// a perfectly inelastic contact with both faces at once leaves. [`World::leave_old_face`]
/// stops such a body (restitution below 1) when parting from `a` would make it faster than it
/// came in: in a narrow wedge (faces a few degrees from facing) the parting along `a` less
/// its part into `b` is nearly along the faces, and needs a speed of `(w_min − w)/|d|²`,
/// which reversed a box driven into the wedge at the speed it came with and more.
fn into_apex(a: Vec2, b: Vec2, g: Vec2, v: Vec2) -> bool {
    let va = v.dot(a);
    wedge_holds(a, b, g, Vec2::ZERO) && va <= 0.0 && (v - a * va).dot(b) < 0.0
}

impl World {
    /// Whether ball `m`, just bounced off a sleeping ball or box (`pred`, met as immovable),
    /// stops there, held asleep (`sleep.rs`): within [`REST_TIME`] before, it met another
    /// sleeping body or immovable geometry (its normal is kept in `last_normal`), and the
    /// two contacts make a wedge that balances gravity, which the ball leaves slower than a
    /// sleeping ball's wake speed ([`wedge_holds`]), with the pair's own restitution below 1.
    /// Its bounces between the two would fade and end at rest there in finite time, as in a
    /// wedge of faces (`settle`); the TC rule, which makes each of them elastic (each comes
    /// within [`REST_TIME`] of the one before), and the pressed pair's parting at a
    /// `REST_TIME` flight's speed would instead keep it rattling in the pocket without end: a
    /// ball as wide as the slot between two sleeping balls of a row, on a third, met them
    /// at one instant every 9 ns, to the event bound. A ball stopped so wakes as a sleeping
    /// ball does.
    #[inline(never)]
    fn stops_between_sleepers(&mut self, m: usize, pred: &Prediction) -> bool {
        let PTarget::Mover(j) = pred.target else {
            return false;
        };
        let (a, n) = (self.scratch.last_normal[m], pred.normal);
        if !self.mover_asleep(j as usize)
            || a == Vec2::ZERO
            || a == n
            || !(pred.time - self.scratch.last_hit[m] < REST_TIME)
            || !(self.pair_restitution(m, pred.target) < 1.0)
        {
            return false;
        }
        let b = self.balls[m];
        if !wedge_holds(a, n, self.gravity_of(m), b.v0) {
            return false;
        }
        // Its path starts at the contact (the response's anchor).
        self.balls[m].v0 = Vec2::ZERO;
        self.hold_asleep(m, b.anchor_time);
        true
    }

    /// After the response to `pred` of mover `m` (and of its ball `partner`, if any), under
    /// gravity: a ball that bounced off a face of immovable geometry too weakly to fly comes
    /// to rest on it (its normal velocity becomes exactly zero); any other ball keeps its rest
    /// while its new velocity has no normal part, and flies free otherwise.
    /// `v_in` is the mover's velocity at the contact before the response.
    pub(super) fn settle(
        &mut self,
        m: usize,
        pred: &Prediction,
        partner: Option<usize>,
        v_in: Vec2,
    ) {
        if self.is_ball(m) && self.scratch.mv[m].state == ACTIVE {
            if self.stops_between_sleepers(m, pred) {
                return;
            }
            let b = self.balls[m];
            let n = pred.normal;
            let t = usize::from(n.x != 0.0);
            let face = match pred.target {
                // A slope's diagonal (`shape_rest.rs`).
                PTarget::Cell(c) if n.x != 0.0 && n.y != 0.0 => self.slope_rest_face(c),
                PTarget::Cell(c) => self.grid.as_ref().map(|g| {
                    let bx = g.cell_aabb(c);
                    ((bx.min[t], bx.max[t]), RestOn::Cell(c))
                }),
                PTarget::Wall(_) => Some(((Real::NEG_INFINITY, Real::INFINITY), RestOn::Wall)),
                PTarget::Rect(k) if self.rects[k as usize].role() == RectRole::Static => {
                    let rc = &self.rects[k as usize];
                    Some(((rc.aabb.min[t], rc.aabb.max[t]), RestOn::Rect(rc.id)))
                }
                PTarget::Shape(k) => self.shape_rest_face(k as usize, n),
                _ => None,
            };
            // A shape's face has its own normal (the sweep's within rounding).
            let nf = match face {
                Some((_, RestOn::Shape(id, f))) => self.shape_face_normal(id, f).unwrap_or(n),
                Some((_, RestOn::Cell(c))) if n.x != 0.0 && n.y != 0.0 => {
                    self.slope_normal(c).unwrap_or(n)
                }
                _ => n,
            };
            // The pair's own restitution (not the TC rule's 1): a fading bounce rests.
            let e = self.pair_restitution(m, pred.target);
            let g = self.gravity_of(m);
            // Held by a face (`a`) and driven into this one, or into a static shape where no
            // face holds it (a circle's curved side, a segment's end, a polygon's vertex): a
            // wedge that balances gravity stops it (`wedge_holds`), held as a sleeping ball
            // is. (Else a ball held by the top wall and pressed by gravity into a circle's
            // side met the circle at that instant again and again, to the event bound.)
            let old = self.ball_rest[m].filter(|a| !matches!(a.on, RestOn::Asleep | RestOn::Edge));
            if (face.is_some() || matches!(pred.target, PTarget::Shape(_)))
                && e < 1.0
                && old.is_some_and(|a| a.normal != nf && wedge_holds(a.normal, nf, g, b.v0))
            {
                // Its path starts at the contact (the response's anchor).
                self.balls[m].v0 = Vec2::ZERO;
                self.hold_asleep(m, b.anchor_time);
                return;
            }
            let rest = face.and_then(|(range, on)| {
                self.rest_after_bounce(g, b.anchor, nf, b.v0, e, range, on)
            });
            if let Some(r) = rest {
                // Held: no normal velocity (the face does not move).
                self.balls[m].v0 = r.without_normal(self.balls[m].v0);
            }
            self.ball_rest[m] = rest.or_else(|| self.rest_kept(m, b.v0));
            if self.ball_rest[m].is_none() {
                if let Some(u) = match pred.target {
                    PTarget::Cell(_)
                    | PTarget::Wall(_)
                    | PTarget::Shape(_)
                    | PTarget::Character(_) => Some(collide_core::Vec2::ZERO),
                    PTarget::Rect(k) => Some(self.rects[k as usize].vel),
                    // A turning flipper's contact parts in its response (`flippers.rs`).
                    PTarget::Flipper { turning: false, .. } => Some(collide_core::Vec2::ZERO),
                    _ => None,
                } {
                    // Not held (a corner, a segment, a circle, a moving rectangle): part at least as fast as a
                    // flight of `REST_TIME` needs (`separate_pressed`, against immovable
                    // geometry).
                    let press = self.acc_of(m).dot(n);
                    let w = (b.v0 - u).dot(n);
                    let w_min = -press * (0.5 * REST_TIME);
                    // Elastic contacts keep their speed (exact energy) unless they have none.
                    // The parting speed is taken from the sliding motion (`part_within`).
                    if press < 0.0 && w < w_min && (e < 1.0 || w <= 0.0) {
                        let out = b.v0 - u + n * (w_min - w);
                        self.balls[m].v0 = u + part_within(out, v_in - u, n);
                    }
                }
            }
        }
        if !self.is_ball(m) && self.scratch.mv[m].state == ACTIVE {
            self.settle_rect(m, pred, v_in);
        }
        match partner.map(|j| self.mover(j)) {
            Some(MoverBody::Ball(j)) => self.ball_rest[j] = self.rest_kept(j, self.balls[j].v0),
            Some(MoverBody::Rect(k)) => {
                let v = self.rects[k].vel;
                self.rect_rest[k] = self.rect_rest[k].filter(|r| r.kept_with(v));
            }
            None => {}
        }
    }

    /// [`World::settle`] for dynamic rectangle mover `m`: a box that bounced off a face of
    /// immovable geometry (a tile, a closed wall, a static rectangle) too weakly to fly comes
    /// to rest on it as a ball does (`rest.rs`), held while any part of it is over the face
    /// (the range of its centre is the face's extent widened by its half size); any other
    /// box keeps its rest while its new velocity has no normal part. A box that no longer rests
    /// on the face that held it leaves that face as [`World::leave_old_face`] says.
    /// `v_in` is its velocity at the contact before the response.
    fn settle_rect(&mut self, m: usize, pred: &Prediction, v_in: Vec2) {
        let k = self.rect_index(m);
        let old = self.rect_rest[k];
        self.settle_rect_face(m, pred, v_in);
        let e = self.pair_restitution(m, pred.target);
        self.leave_old_face(k, old, pred, e, v_in);
    }

    /// [`World::settle_rect`]'s rest on the face just met: held, parted at a `REST_TIME`
    /// flight's speed (a shape, no faster than `v_in`, its velocity before the response, where
    /// it can: `part_within`), or the rest it had kept.
    fn settle_rect_face(&mut self, m: usize, pred: &Prediction, v_in: Vec2) {
        let k = self.rect_index(m);
        let n = pred.normal;
        let v = self.rects[k].vel;
        let kept = self.rect_rest[k].filter(|r| r.kept_with(v));
        let bx = self.rects[k].aabb;
        let held = match (pred.target, pred.feature) {
            // A slope's diagonal holds a box as it holds a ball (`shape_rest.rs`), by the
            // corner that touches it.
            (PTarget::Cell(c), Feature::Diagonal) => self
                .box_slope_rest_face(c, bx.half_extents())
                .zip(self.slope_normal(c))
                .map(|((range, on), nf)| (range, on, nf)),
            // A static shape's face holds it by that corner on a slanted face, or while any
            // part of the box's face is over an axis-aligned one (`shape_rest.rs`).
            (PTarget::Shape(j), _) => self.box_shape_rest_face(j as usize, n, bx.half_extents()),
            _ => None,
        };
        if let Some((range, on, nf)) = held {
            let e = self.pair_restitution(m, pred.target);
            let g = self.config.gravity;
            let rest = self
                .rest_after_bounce(g, bx.center(), nf, v, e, range, on)
                .filter(|r| !leaving_range(r, bx.center(), r.without_normal(v), g));
            if let Some(r) = rest {
                let v = r.without_normal(v);
                self.rects[k].vel = v;
                self.rect_anchor[k].2 = v;
                self.rect_rest[k] = Some(r);
                return;
            }
        }
        let slanted = match pred.target {
            PTarget::Shape(_) | PTarget::Flipper { turning: false, .. } => true,
            PTarget::Cell(_) => pred.feature == Feature::Diagonal,
            _ => false,
        };
        if slanted {
            // No held flipper holds a box, nor a shape's end, vertex or curved side, nor a
            // shape's face or a slope's diagonal it leaves too fast to rest or beyond its
            // ends: it parts at least as fast as a flight of `REST_TIME` needs, as a ball
            // does off a corner (`World::settle`); a turning flipper's contact parts in its
            // response.
            self.rect_rest[k] = kept;
            let press = self.rect_acc(k).dot(n);
            let w = v.dot(n);
            let w_min = -press * (0.5 * REST_TIME);
            let e = self.pair_restitution(m, pred.target);
            if kept.is_none() && press < 0.0 && w < w_min && (e < 1.0 || w <= 0.0) {
                let v = part_within(v + n * (w_min - w), v_in, n);
                self.rects[k].vel = v;
                self.rect_anchor[k].2 = v;
            }
            return;
        }
        if n.x != 0.0 && n.y != 0.0 {
            // A corner-to-corner hit: no face holds it.
            self.rect_rest[k] = kept;
            return;
        }
        let t = usize::from(n.x != 0.0);
        let bx = self.rects[k].aabb;
        let h = bx.half_extents()[t];
        let face = match pred.target {
            PTarget::Cell(c) => self.grid.as_ref().map(|g| {
                let cb = g.cell_aabb(c);
                ((cb.min[t] - h, cb.max[t] + h), RestOn::Cell(c))
            }),
            PTarget::Wall(_) => Some(((Real::NEG_INFINITY, Real::INFINITY), RestOn::Wall)),
            PTarget::Rect(j) if self.rects[j as usize].role() == RectRole::Static => {
                let rc = &self.rects[j as usize];
                Some((
                    (rc.aabb.min[t] - h, rc.aabb.max[t] + h),
                    RestOn::Rect(rc.id),
                ))
            }
            _ => None,
        };
        let e = self.pair_restitution(m, pred.target);
        let rest = face.and_then(|(range, on)| {
            self.rest_after_bounce(self.config.gravity, bx.center(), n, v, e, range, on)
        });
        if let Some(r) = rest {
            // Held: no normal velocity (the face does not move). Its path starts here.
            let mut v = v;
            v[r.axis()] = 0.0;
            self.rects[k].vel = v;
            self.rect_anchor[k].2 = v;
        }
        self.rect_rest[k] = rest.or(kept);
    }

    /// After dynamic rectangle `k`'s contact `pred` with immovable geometry: if a face held it
    /// before (`old`) and no longer does (or still does, but sliding along it drives the box
    /// into the face just met), and gravity presses it into that face, it parts from that face
    /// at least as fast as a flight of `REST_TIME` needs (as off a shape). A box in
    /// a corner or a wedge (a floor and a wall under slanted gravity, a wall and a slope's
    /// diagonal, the top wall and a diagonal) is pressed into both faces: one holds it and
    /// each contact with the other would send it back into the first at once, face after
    /// face in ever weaker bounces, until the event bound. Parting from the first face, it
    /// meets a face again at most once per `REST_TIME`. The parting is along the old face's
    /// normal, less its part into the face just met when the two are more than 90° apart
    /// (so it never enters that face), taking its speed from the sliding motion where it can
    /// (`part_within`: no faster than `v_in`, its velocity before the response). With
    /// restitution below 1, in a wedge whose two faces balance gravity, it stops instead when
    /// slow ([`wedge_holds`]) or driven into the apex where parting would leave it faster than
    /// it came ([`into_apex`]).
    fn leave_old_face(
        &mut self,
        k: usize,
        old: Option<crate::body::rest::Rest>,
        pred: &Prediction,
        e: Real,
        v_in: Vec2,
    ) {
        // A box held still in a wedge has no face to leave.
        let Some(a) = old.filter(|a| a.on != RestOn::Asleep) else {
            return;
        };
        let immovable = match pred.target {
            PTarget::Cell(_)
            | PTarget::Wall(_)
            | PTarget::Shape(_)
            | PTarget::Flipper { turning: false, .. } => true,
            PTarget::Rect(j) => self.rects[j as usize].role() == RectRole::Static,
            _ => false,
        };
        let g = self.config.gravity;
        let met = pred.normal;
        let v = self.rects[k].vel;
        // Still held by it, the box leaves it only when sliding along it drives the box into
        // the face just met, which it does not leave (a wedge: it would meet that face again
        // at once).
        let held = self.rect_rest[k].is_some_and(|r| r.on == a.on && r.normal == a.normal);
        let wedged = crate::body::rest::acc_on(g, old).dot(met) < 0.0 && v.dot(met) <= 0.0;
        if !immovable || (held && !wedged) {
            return;
        }
        let press = g.dot(a.normal);
        let w = v.dot(a.normal);
        let w_min = -press * (0.5 * REST_TIME);
        if !(press < 0.0 && w < w_min) {
            return;
        }
        let c = a.normal.dot(met);
        let d = if c < 0.0 {
            a.normal - met * c
        } else {
            a.normal
        };
        let dn = d.dot(a.normal);
        let out = v + d * ((w_min - w) / dn);
        if e < 1.0
            && (wedge_holds(a.normal, met, g, v)
                || (into_apex(a.normal, met, g, v)
                    && !(out.length_squared() <= v_in.length_squared())))
        {
            // Held by both faces: still, until something moves it or the world is edited.
            self.rects[k].vel = Vec2::ZERO;
            self.rect_anchor[k].2 = Vec2::ZERO;
            self.rect_rest[k] = Some(crate::step::sleep::asleep_rest());
            return;
        }
        if !(dn > 0.0) {
            // Facing faces (an exact fit): no direction leaves one without entering the other.
            return;
        }
        let v = part_within(out, v_in, d.normalize());
        self.rects[k].vel = v;
        self.rect_anchor[k].2 = v;
        self.rect_rest[k] = self.rect_rest[k].filter(|r| r.kept_with(v));
    }

    /// Mover `m`'s acceleration: a ball's ([`World::acc_of`]) or a dynamic rectangle's
    /// (`World::rect_acc`).
    pub(super) fn mover_acc(&self, m: usize) -> collide_core::Vec2 {
        match self.mover(m) {
            MoverBody::Ball(i) => self.acc_of(i),
            MoverBody::Rect(k) => self.rect_acc(k),
        }
    }

    /// After the response of movers `m` and `j` (balls or dynamic rectangles: a box lying on
    /// a box held by the floor, a ball on a box; normal `n` from `j` toward `m`, velocities
    /// `v = (m's, j's)`, masses `mass`; `j` stopped at the iteration bound when `frozen`):
    /// when their accelerations press them together (one is held by a face, or stopped) and
    /// they would part slower than a flight of `REST_TIME` needs, they part at that speed,
    /// `w = −(a_m − a_j)·n · REST_TIME / 2`, by an impulse along `n` shared by their masses
    /// (an elastic pair only when it parts at no speed at all).
    /// Without it a ball lying on a held ball would meet it again at once, at zero speed,
    /// until the event bound: with it each such pair meets at most once per `REST_TIME` (the
    /// pile's contacts become tiny elastic bounces). The energy it adds per contact is
    /// `½·μ·w²`, μ the reduced mass: with 981 units/s² under 1e-6 of a ball falling one unit.
    pub(super) fn separate_pressed(
        &self,
        m: usize,
        j: usize,
        frozen: bool,
        n: collide_core::Vec2,
        v: (collide_core::Vec2, collide_core::Vec2),
        mass: (Real, Real),
    ) -> (collide_core::Vec2, collide_core::Vec2) {
        let acc_j = if frozen {
            collide_core::Vec2::ZERO
        } else {
            self.mover_acc(j)
        };
        let press = (self.mover_acc(m) - acc_j).dot(n);
        let w = (v.0 - v.1).dot(n);
        let w_min = -press * (0.5 * REST_TIME);
        // An elastic pair (restitution 1) keeps its speed, and so the energy, unless it has
        // none.
        let elastic = self.pair_restitution(m, PTarget::Mover(j as u32)) >= 1.0;
        if !(press < 0.0 && w < w_min) || (elastic && w > 0.0) {
            return v;
        }
        let dw = w_min - w;
        let (mi, mj) = mass;
        if frozen || mj.is_infinite() {
            return (v.0 + n * dw, v.1);
        }
        if mi.is_infinite() {
            // `m` asleep (`sleep.rs`): `j` parts alone.
            return (v.0, v.1 - n * dw);
        }
        // Two massless bodies (density 0, or a point ball: mass π·r²·density = 0) share the
        // parting equally, as `collide_on` treats them as equal masses (0/0 was NaN).
        let (mi, mj) = if mi + mj == 0.0 { (1.0, 1.0) } else { (mi, mj) };
        let total = mi + mj;
        (v.0 + n * (dw * mj / total), v.1 - n * (dw * mi / total))
    }

    /// Ball `m` reached the end of the face that holds it at absolute time `t` (advanced
    /// there): the next face takes over, it rolls over the corner, or it flies free
    /// (`World::rest_continued`). A search event: counted against the step's search bound.
    pub(super) fn end_rest(&mut self, m: usize, t: Real) {
        if self.over_search_bound(m) {
            self.freeze(m, t);
            return;
        }
        if let MoverBody::Rect(k) = self.mover(m) {
            if let Some(rest) = self.rect_rest[k] {
                let v = self.vel_of(m);
                match self.rect_rest_continued(k, rest, v) {
                    // Same acceleration, same path.
                    Some(r) => self.rect_rest[k] = Some(r),
                    None => {
                        let g = self.config.gravity;
                        let shift = past_end(&rest, self.rects[k].aabb.center(), v, g);
                        let bx = &mut self.rects[k].aabb;
                        *bx = Aabb::new(bx.min + shift, bx.max + shift);
                        self.set_vel(m, v, t, None);
                        self.rect_rest[k] = None;
                    }
                }
            }
            self.predict(m);
            return;
        }
        if let Some(rest) = self.ball_rest[m] {
            let v = self.vel_of(m);
            match self.rest_continued(m, rest, v) {
                // Rolling over a slanted face's corner: its velocity along the face's normal
                // is within rounding of zero, of either sign, and at the corner a sign
                // toward it would meet the corner at once, the face hold it again and its
                // rest end again, until the event bound. Just past the end, the roll's path
                // moves away from the corner (`past_end`).
                Some(r) if r.on == RestOn::Edge && !rest.aligned() => {
                    let p = self.ball_pos_g::<true, true>(m);
                    let shift = past_end(&rest, p, v, self.gravity_of(m));
                    if shift != Vec2::ZERO {
                        self.set_vel(m, v, t, Some(p + shift));
                    }
                    self.ball_rest[m] = Some(r);
                }
                // Same acceleration, same path: nothing others predicted changes.
                Some(r) => self.ball_rest[m] = Some(r),
                None => {
                    let p = self.ball_pos_g::<true, true>(m);
                    let shift = past_end(&rest, p, v, self.gravity_of(m));
                    self.set_vel(m, v, t, Some(p + shift));
                    self.ball_rest[m] = None;
                }
            }
        }
        self.predict(m);
    }

    /// The face `on` disappeared at absolute time `t` (a destroyed brick): the balls it held
    /// fly free from where they are, and predict again (`except`, the mover whose event this
    /// is, predicts after its response).
    pub(super) fn free_rests_on(&mut self, on: RestOn, t: Real, except: usize) {
        for i in 0..self.nb() {
            if !self.ball_rest[i].is_some_and(|r| r.on == on) {
                continue;
            }
            if self.scratch.mv[i].state != ACTIVE {
                self.ball_rest[i] = None;
                continue;
            }
            self.advance(i, t);
            let v = self.vel_of(i);
            self.set_vel(i, v, t, None);
            self.ball_rest[i] = None;
            if i != except {
                self.predict(i);
            }
        }
        for d in 0..self.scratch.rect_movers.len() {
            let i = self.scratch.rect_movers[d] as usize;
            let k = self.rect_index(i);
            if !self.rect_rest[k].is_some_and(|r| r.on == on) {
                continue;
            }
            if self.scratch.mv[i].state != ACTIVE {
                self.rect_rest[k] = None;
                continue;
            }
            self.advance(i, t);
            let v = self.vel_of(i);
            self.set_vel(i, v, t, None);
            self.rect_rest[k] = None;
            if i != except {
                self.predict(i);
            }
        }
    }
}
