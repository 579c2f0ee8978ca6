//! The response to an event: a bounce off a tile, a wall or a rectangle, an elastic collision
//! of two movers, a body lost through an open side, a brick destroyed; wedges between two
//! facing contacts, carried and crushed bodies (`squeeze.rs`), and stopping a mover for the
//! rest of the step (at the event bound, or crushed).

use super::access::MoverId;
use super::mover::{PTarget, Prediction, ACTIVE, FROZEN, SAME_INSTANT_LOANS};
use super::respond::{Impact, Outcome};
use super::scratch::Trace;
use crate::body::rest::REST_TIME;
use crate::model::cell::Cell;
use crate::model::event::Contact;
use crate::model::event::{Body, Event};
use crate::model::hook::{
    check_velocity, BodyShape, BodyState, ContactInfo, ContactResponse, Hook, HookError, Obstacle,
};
use crate::model::target::Target;
use crate::step::pass::{Pass, PassWith};
use crate::step::squeeze::{Carrier, Carry, Probe, Wedge};
use crate::world::World;
use collide_core::{reflect, reflect_relative, reflect_relative_on, Circle, Feature, Real, Vec2};

/// The TC rule's window in steps (see `resolve`).
pub(super) const TC_STEPS: Real = 1e-4;

impl World {
    /// Applies the response of mover `m`'s predicted event (already advanced to its time).
    pub(super) fn resolve<const G: bool, const X: bool>(
        &mut self,
        m: usize,
        pred: Prediction,
        hook: Hook<'_>,
    ) {
        // Rests exist only under gravity; passes, sensors and hooks only with the extras
        // (`X`, `World::run_events`).
        let hook = if X { hook } else { None };
        if G && pred.target == PTarget::RestEnd {
            self.end_rest(m, pred.time);
            return;
        }
        if X && pred.target == PTarget::PassEnd {
            self.pass_ended(m, pred.time);
            return;
        }
        if let Some(with) = X.then(|| self.sensor_target(pred.target)).flatten() {
            self.sensor_entered(m, with, &pred);
            return;
        }
        // The TC rule (S. Luding, S. McNamara, "How to handle the inelastic collapse of a
        // dissipative hard-sphere gas with the TC model", Granular Matter 1, 1998): a body hit
        // again within `TC_STEPS·dt` of its last collision bounces elastically, so a ball
        // squeezed between a wall and a heavy ball cannot collapse into infinitely many ever
        // weaker bounces. With restitution 1 (the default) this changes nothing.
        // Under gravity the window is `REST_TIME` (`rest.rs`): independent of the step size.
        let tc = if !self.has_gravity::<G>() {
            TC_STEPS * self.config.dt
        } else {
            REST_TIME
        };
        let t_hit = pred.time;
        let recent = |k: usize| t_hit - self.scratch.last_hit[k] < tc;
        let partner_recent = match pred.target {
            PTarget::Mover(j) => recent(j as usize),
            _ => false,
        };
        // A ball's velocity at the contact, from its anchor at the same time of impact as its
        // contact position below (under gravity the absolute time, rounded, would give a
        // velocity a hair off the position's, and energy would drift at every contact).
        let v = match self.acc_of_ball::<G, X>(m) {
            Some(acc) if acc != Vec2::ZERO => self.balls[m].v0 + acc * pred.toi_anchor,
            _ => self.vel_of_g::<G, X>(m),
        };
        // The pair's own restitution, before the TC rule (it decides what counts toward
        // sleep, `sleep.rs`).
        let e_pair = if self.scratch.own_restitution {
            self.pair_restitution(m, pred.target)
        } else {
            self.config.restitution
        };
        let tc_m = recent(m);
        let e = if tc_m || partner_recent { 1.0 } else { e_pair };
        let me = self.body_of(m);
        let t = pred.time;
        // Event times are reported from the start of the step.
        let toi = t - self.scratch.t0;
        let n = pred.normal;
        let is_ball = self.is_ball(m);
        // A kick (restitution above 1) off immovable geometry or a rectangle, capped.
        let e = if e > 1.0 {
            self.kick_capped_static(e, m, v, n, pred.target)
        } else {
            e
        };
        // A ball's contact position, from its anchor exactly as the impact time was solved:
        // its new path starts there.
        let contact = is_ball.then(|| {
            let b = &self.balls[m];
            let acc = self.acc_g::<G>(m);
            if acc == Vec2::ZERO {
                b.anchor + v * pred.toi_anchor
            } else {
                b.path(acc).pos_at(pred.toi_anchor)
            }
        });
        if let PTarget::Mover(j) = pred.target {
            self.advance_g::<G, X>(j as usize, t);
        } else if G && self.mover_asleep(m) {
            // A sleeping ball or box met by something moving (a kinematic rectangle, a
            // flipper) wakes, at rest where it is (`sleep.rs`).
            self.wake_in_step(m, t);
        }
        // A one-way platform met from below or a side is passed through (`one_way.rs`).
        if X && !self.one_way.is_empty() {
            if let Some(with) = self.one_way_pass(m, &pred) {
                self.start_pass(m, with, &pred, t);
                return;
            }
        }
        // The game's rule at the contact (`hook.rs`): a new velocity for the event's first
        // body (mover `m`, or its partner when the event names the partner first).
        let (hook_m, hook_j) = match hook {
            Some(h) => match self.contact_event(m, &pred, v, toi) {
                Some(event) => match self.ask_hook(h, m, &pred, v, contact, event) {
                    Some(answer) => answer,
                    // Passed through, or refused (`Scratch::hook_error`): nothing more to do.
                    None => return,
                },
                None => (None, None),
            },
            None => (None, None),
        };
        let imp = Impact {
            m,
            pred: &pred,
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
            wedged: self.wedged_by(m, t, n, v),
            immovable: self.is_immovable(pred.target, n),
            // Boxes reflect per axis, but about the normal off a slope's diagonal, a static
            // shape (a slanted segment, a circle) or a flipper.
            diagonal: pred.feature == Feature::Diagonal
                || matches!(pred.target, PTarget::Shape(_) | PTarget::Flipper { .. }),
        };
        let outcome = match pred.target {
            // Handled above.
            PTarget::RestEnd | PTarget::PassEnd | PTarget::SensorCell(_) => Some(Outcome::NONE),
            PTarget::Lost(side) => self.respond_lost::<G, X>(&imp, side),
            PTarget::Cell(c) => self.respond_cell::<G, X>(&imp, c),
            PTarget::Flipper {
                index,
                turning: true,
            } => self.respond_turning_flipper::<G, X>(&imp, index),
            // A character is still during the event loop (`character_obstacle.rs`).
            PTarget::Wall(_)
            | PTarget::Shape(_)
            | PTarget::Flipper { .. }
            | PTarget::Character(_) => self.respond_immovable::<G, X>(&imp),
            PTarget::Rect(k) => self.respond_rect::<G, X>(&imp, k),
            PTarget::Mover(j) => self.respond_mover::<G, X>(&imp, j),
        };
        if let Some(outcome) = outcome {
            self.after_impact::<G, X>(&imp, outcome, e_pair);
        }
    }

    /// A second contact with immovable geometry at the same instant `t`, facing the first
    /// (normal `n`; an exact fit: a ball as wide as its corridor, a box that fits its slot):
    /// the normal of the first when mover `m` is wedged. It leaves with the velocity nearest
    /// to its reflected one that moves away from neither contact (it slides along them),
    /// instead of bouncing between them at zero time until the event bound stops it. The
    /// same instant within rounding, for two parallel faces (a corridor): met at velocity `v`
    /// after moving no more than 1e-15 of the world's size since the first (a fit along a
    /// diagonal, whose contacts are a rounding apart: [`World::wedge_window`]).
    #[inline(always)]
    fn wedged_by(&self, m: usize, t: Real, n: Vec2, v: Vec2) -> Option<Vec2> {
        let prev = self.scratch.last_normal[m];
        if !(n.dot(prev) < 0.0) {
            return None;
        }
        let last = self.scratch.last_hit[m];
        (last == t
            || t > last && (n + prev).length_squared() < 1e-18 && self.wedge_window(t - last, v))
        .then_some(prev)
    }

    /// Whether a body moving at `v` covers no more than 1e-15 of the world's size in `dt`
    /// seconds: two contacts that far apart are one instant to the step.
    #[inline(never)]
    fn wedge_window(&self, dt: Real, v: Vec2) -> bool {
        dt * v.length() <= 1e-15 * self.size.max_element().max(1.0)
    }

    /// Whether `target` cannot move along the contact normal `n`: tiles, walls, static
    /// shapes, a held flipper, a rectangle at rest or one whose velocity lies along its face
    /// (`u·n = 0`: a paddle sliding past a ball it touches is, across the contact, a wall, so
    /// an exact fit between it and a wall slides as between two walls).
    #[inline(always)]
    fn is_immovable(&self, target: PTarget, n: Vec2) -> bool {
        match target {
            PTarget::Cell(_) | PTarget::Wall(_) | PTarget::Shape(_) => true,
            // Characters move after the event loop: still during it.
            PTarget::Character(_) => true,
            PTarget::Flipper { turning, .. } => !turning,
            PTarget::Rect(k) => self.rects[k as usize].vel.dot(n) == 0.0,
            _ => false,
        }
    }

    /// The kinematic rectangle that squeezes and carries body `me`, if any (`squeeze.rs`).
    #[inline(always)]
    pub(super) fn carry_now(&self, me: Body) -> Option<Carry> {
        if self.carries.is_empty() {
            None
        } else {
            self.carry_of(me)
        }
    }

    /// The bookkeeping after a response: under gravity the rests and sleep counts, the TC
    /// rule's memory of the last hit and the wedge rule's of its normal, the trace, and the
    /// bodies' new predictions.
    #[inline(always)]
    fn after_impact<const G: bool, const X: bool>(
        &mut self,
        imp: &Impact<'_>,
        outcome: Outcome,
        e_pair: Real,
    ) {
        let Impact {
            m,
            pred,
            v,
            tc_m,
            partner_recent,
            t,
            n,
            immovable,
            ..
        } = *imp;
        let Outcome {
            partner,
            partner_v,
            wedge_normals,
        } = outcome;
        if self.has_gravity::<G>() {
            self.settle(m, pred, partner, v);
            let tc = tc_m || partner_recent;
            self.count_toward_sleep(m, partner, (v, partner_v), e_pair, tc, t);
        }
        // Whether each body's time moved on since its last event (a body past its bound may
        // borrow from the step's pool only then: `World::after_response`).
        let moved_on = |k: usize| t > self.scratch.last_hit[k];
        let (moved_m, moved_j) = (moved_on(m), partner.is_some_and(moved_on));
        self.scratch.last_hit[m] = t;
        self.scratch.last_normal[m] = if immovable || wedge_normals.0 {
            n
        } else {
            Vec2::ZERO
        };
        if let Some(j) = partner {
            self.scratch.last_hit[j] = t;
            self.scratch.last_normal[j] = if wedge_normals.1 { -n } else { Vec2::ZERO };
        }
        if self.scratch.tracing {
            self.trace_change(m, partner);
            if let Some(j) = partner {
                self.trace_change(j, Some(m));
            }
        }
        self.after_response::<G, X>(m, t, moved_m);
        if let Some(j) = partner {
            self.after_response::<G, X>(j, t, moved_j);
        }
    }

    /// The event mover `m` (velocity `v` before the response) reports for contact `pred`,
    /// `toi` seconds into the step (a mover partner already advanced to the contact), or
    /// `None` for a loss through an open side or a rest's end. A pair of movers is named in
    /// id order: which of the two handles the contact depends on which found it last, the
    /// event does not.
    /// Pushes [`World::contact_event`]'s event, if any.
    #[inline(always)]
    pub(super) fn push_contact_event(&mut self, m: usize, pred: &Prediction, v: Vec2, toi: Real) {
        if let Some(e) = self.contact_event(m, pred, v, toi) {
            self.events.push(e);
        }
    }

    pub(super) fn contact_event(
        &self,
        m: usize,
        pred: &Prediction,
        v: Vec2,
        toi: Real,
    ) -> Option<Event> {
        let vj = match pred.target {
            // A body stopped at the iteration bound is at rest for the rest of the step.
            PTarget::Mover(j) if self.scratch.mv[j as usize].state == FROZEN => Vec2::ZERO,
            PTarget::Mover(j) => self.vel_of(j as usize),
            _ => Vec2::ZERO,
        };
        self.contact_event_with(m, pred, v, vj, toi)
    }

    /// [`World::contact_event`] with the partner mover's velocity `vj` given (zero for a
    /// frozen partner; unused for other targets).
    #[inline(always)]
    pub(super) fn contact_event_with(
        &self,
        m: usize,
        pred: &Prediction,
        v: Vec2,
        vj: Vec2,
        toi: Real,
    ) -> Option<Event> {
        let me = self.mover_id(m);
        let (point, normal) = (pred.point, pred.normal);
        // The impact speed: the normal relative speed before the response.
        let speed_against = |u: Vec2| (-(v - u).dot(normal)).max(0.0);
        let body = match me {
            MoverId::Ball(ball) => Body::Ball(ball),
            MoverId::Rect(rect) => Body::Rect(rect),
        };
        // Static obstacles do not move: the impact speed is the mover's own into the normal.
        let still = (-v.dot(normal)).max(0.0);
        let (other, speed, feature) = match pred.target {
            PTarget::RestEnd | PTarget::PassEnd | PTarget::SensorCell(_) | PTarget::Lost(_) => {
                return None
            }
            PTarget::Cell(cell) => {
                let feature = matches!(me, MoverId::Ball(_)).then_some(pred.feature);
                (Target::Cell(cell), still, feature)
            }
            PTarget::Wall(side) => (Target::Wall(side), still, None),
            PTarget::Shape(k) => (Target::Shape(self.shapes[k as usize].id), still, None),
            PTarget::Character(k) => (
                Target::Character(self.characters[k as usize].id),
                still,
                None,
            ),
            PTarget::Flipper { index, turning } => {
                let u = self.flipper_surface_vel(index, turning, point);
                let flipper = self.flippers[index as usize].id;
                (Target::Flipper(flipper), speed_against(u), None)
            }
            PTarget::Rect(k) => {
                let rc = &self.rects[k as usize];
                (Target::Rect(rc.id), speed_against(rc.vel), None)
            }
            PTarget::Mover(j) => {
                let other = self.mover_id(j as usize);
                return Some(pair_event(me, other, point, normal, toi, speed_against(vj)));
            }
        };
        Some(Event::Contact(Contact {
            body,
            other,
            point,
            normal,
            toi,
            speed,
            feature,
        }))
    }

    /// Mover `m`'s state at absolute time `t` (velocity `v` before the response; a ball at
    /// its contact position `contact`), for a contact hook.
    fn mover_state(&self, m: usize, v: Vec2, contact: Option<Vec2>) -> BodyState {
        let shape = if self.is_ball(m) {
            let b = &self.balls[m];
            BodyShape::Circle(Circle::new(
                contact.unwrap_or_else(|| self.ball_pos(m)),
                b.radius,
            ))
        } else {
            BodyShape::Box(self.rects[self.rect_index(m)].aabb)
        };
        let frozen = self.scratch.mv[m].state == FROZEN;
        BodyState {
            body: self.body_of(m),
            shape,
            vel: if frozen { Vec2::ZERO } else { v },
            mass: if frozen {
                Real::INFINITY
            } else {
                self.mass_of(m)
            },
        }
    }

    /// What a contact hook is given for `event`, reported by mover `m` (velocity `v` before
    /// the response, a ball at `contact`) at absolute time `t`.
    fn contact_info(
        &self,
        m: usize,
        pred: &Prediction,
        v: Vec2,
        contact: Option<Vec2>,
        t: Real,
        event: Event,
    ) -> ContactInfo {
        let mine = self.mover_state(m, v, contact);
        let other = match pred.target {
            PTarget::Cell(cell) => Obstacle::Tile {
                cell,
                kind: self.grid.as_ref().map_or(Cell::Empty, |g| g.cell(cell)),
            },
            PTarget::Wall(side) | PTarget::Lost(side) => Obstacle::Wall(side),
            PTarget::Shape(k) => {
                let sh = &self.shapes[k as usize];
                Obstacle::Shape {
                    shape: sh.id,
                    kind: sh.kind,
                }
            }
            PTarget::Flipper { index, turning } => {
                let fl = &self.flippers[index as usize];
                Obstacle::Flipper {
                    flipper: fl.id,
                    capsule: fl.capsule_at(t),
                    surface_vel: self.flipper_surface_vel(index, turning, pred.point),
                }
            }
            PTarget::Rect(k) => {
                let rc = &self.rects[k as usize];
                let (a, at, _) = self.rect_anchor[k as usize];
                Obstacle::Body(BodyState {
                    body: Body::Rect(rc.id),
                    shape: BodyShape::Box(a.translated(rc.vel * (t - at))),
                    vel: rc.vel,
                    mass: rc.mass(),
                })
            }
            PTarget::Mover(j) => {
                let j = j as usize;
                let vj = self.vel_of(j);
                Obstacle::Body(self.mover_state(j, vj, None))
            }
            PTarget::Character(k) => Obstacle::Body(self.character_state(k as usize)),
            // Not a contact: never asked.
            PTarget::RestEnd | PTarget::PassEnd | PTarget::SensorCell(_) => Obstacle::Body(mine),
        };
        // The event names its first body: swap when that is the partner.
        let first_is_other = match (&event, &other) {
            (
                Event::Contact(Contact {
                    body: Body::Ball(a),
                    other: Target::Ball(_),
                    ..
                }),
                Obstacle::Body(o),
            ) => o.body == Body::Ball(*a),
            (
                Event::Contact(Contact {
                    body: Body::Ball(ball),
                    other: Target::Rect(_),
                    ..
                }),
                Obstacle::Body(o),
            ) => o.body == Body::Ball(*ball),
            (
                Event::Contact(Contact {
                    body: Body::Rect(a),
                    other: Target::Rect(_),
                    ..
                }),
                Obstacle::Body(o),
            ) => o.body == Body::Rect(*a),
            _ => false,
        };
        match other {
            Obstacle::Body(o) if first_is_other => ContactInfo {
                event,
                time: t,
                first: o,
                other: Obstacle::Body(mine),
            },
            _ => ContactInfo {
                event,
                time: t,
                first: mine,
                other,
            },
        }
    }

    /// Asks `hook` about contact `pred` of mover `m` (velocity `v` before the response, a ball
    /// at `contact`), reported as `event`: the velocities it gives mover `m` and its partner
    /// (`None`: the step's own), or `None` when the contact is passed through or the answer
    /// is refused (then kept in `Scratch::hook_error`). Out of line: the step without a hook
    /// never comes here.
    #[cold]
    #[inline(never)]
    fn ask_hook(
        &mut self,
        hook: &dyn crate::model::hook::ContactHook,
        m: usize,
        pred: &Prediction,
        v: Vec2,
        contact: Option<Vec2>,
        event: Event,
    ) -> Option<(Option<Vec2>, Option<Vec2>)> {
        let t = pred.time;
        let info = self.contact_info(m, pred, v, contact, t, event);
        match hook.on_contact(&info) {
            ContactResponse::Reflect => Some((None, None)),
            ContactResponse::Ignore => {
                if let Err(err) = self.pass_through(m, pred, t, event) {
                    self.scratch.hook_error = Some(Box::new(err));
                }
                None
            }
            ContactResponse::Velocity(w) => match check_velocity(&event, w) {
                Ok(w) if info.first.body == self.body_of(m) => Some((Some(w), None)),
                Ok(w) => Some((None, Some(w))),
                Err(err) => {
                    self.scratch.hook_error = Some(Box::new(err));
                    None
                }
            },
        }
    }

    /// A pass of ball `m` ends at `t` (`pass.rs`): the passes over by then end, and the balls
    /// involved predict again.
    fn pass_ended(&mut self, m: usize, t: Real) {
        let t0 = self.scratch.t0;
        for j in self.end_passes(m, t, t0) {
            if j != m && self.scratch.mv[j].state == ACTIVE {
                self.advance(j, t);
                self.predict_unchanged(j, t);
            }
        }
        self.predict_unchanged(m, t);
    }

    /// The contact `pred` of mover `m` at `t` is passed through (a hook's
    /// [`ContactResponse::Ignore`]): a ball and a static or kinematic rectangle, or two balls,
    /// overlap until their pass ends; neither's motion changes and nothing is reported.
    /// Tiles, walls and dynamic rectangles cannot be passed through.
    fn pass_through(
        &mut self,
        m: usize,
        pred: &Prediction,
        t: Real,
        event: Event,
    ) -> Result<(), HookError> {
        let with = match pred.target {
            PTarget::Rect(k) if self.is_ball(m) => PassWith::Rect(self.rects[k as usize].id),
            PTarget::Mover(j) if self.is_ball(m) && self.is_ball(j as usize) => {
                PassWith::Ball(self.balls[j as usize].id)
            }
            _ => return Err(HookError::CannotIgnore { event }),
        };
        self.start_pass(m, with, pred, t);
        Ok(())
    }

    /// Ball `m` starts passing through `with` at `t`, the time of its contact `pred`
    /// (`pass.rs`): a pass of two balls is kept for both, and both predict again.
    pub(super) fn start_pass(&mut self, m: usize, with: PassWith, pred: &Prediction, t: Real) {
        let ball = self.balls[m].id;
        let pass = |ball, with| Pass {
            ball,
            with,
            since: t,
            sensor: false,
            ended: None,
        };
        self.add_pass(pass(ball, with));
        if let (PassWith::Ball(other), PTarget::Mover(j)) = (with, pred.target) {
            self.add_pass(pass(other, PassWith::Ball(ball)));
            let j = j as usize;
            if self.scratch.mv[j].state == ACTIVE {
                self.predict_unchanged(j, t);
            }
        }
        self.predict_unchanged(m, t);
    }

    /// Mover `m`, at `t`, predicts again with its path unchanged (an event that changed no
    /// velocity), or stops at the search bound.
    pub(super) fn predict_unchanged(&mut self, m: usize, t: Real) {
        if self.over_search_bound(m) {
            self.freeze(m, t);
        } else {
            self.predict(m);
        }
    }

    /// A ball's bounce off a surface moving with `u` (normal `n`, restitution `e`): as
    /// [`reflect_relative`] (bit for bit as [`reflect`] when `u` is zero) without gravity;
    /// under gravity by the projection on `n` ([`reflect_relative_on`]), which keeps the
    /// energy of elastic bounces on rounded normals (corners) unbiased over millions of them.
    /// `G`: a step compiled for gravity or not ([`World::acc_g`]).
    pub(super) fn ball_bounce<const G: bool, const X: bool>(
        &self,
        v: Vec2,
        u: Vec2,
        n: Vec2,
        e: Real,
    ) -> Vec2 {
        if self.has_gravity::<G>() {
            reflect_relative_on(v, u, n, e)
        } else if u == Vec2::ZERO {
            reflect(v, n, e)
        } else {
            reflect_relative(v, u, n, e)
        }
    }

    /// The body of mover `m` (at its current time; a ball at its contact position `contact`)
    /// as [`World::squeezed_against`] probes it.
    pub(super) fn probe(&self, m: usize, contact: Option<Vec2>) -> Probe {
        if self.is_ball(m) {
            Probe::Ball {
                center: contact.unwrap_or_else(|| self.ball_pos(m)),
                radius: self.balls[m].radius,
                filter: self.ball_filter_at(m),
            }
        } else {
            let k = self.rect_index(m);
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
    pub(super) fn carried_meets_immovable(
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
        match self.wedge(m, contact, c, t, v, n, response, e) {
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
    /// its push-out at the step's end, is reported once ([`Event::Squeezed`], or
    /// [`Event::FlipperSqueezed`]) and stops for the rest of the step.
    pub(super) fn crush(&mut self, m: usize, c: Carry, w: Vec2, t: Real, contact: Option<Vec2>) {
        self.set_vel(m, w, t, contact);
        if !c.crushed {
            let (body, normal, toi) = (c.body, c.normal, t - self.scratch.t0);
            self.events.push(match c.by {
                Carrier::Rect(rect) => Event::Squeezed {
                    body,
                    rect,
                    normal,
                    toi,
                },
                Carrier::Flipper(i) => Event::FlipperSqueezed {
                    body,
                    flipper: self.flippers[i as usize].id,
                    normal,
                    toi,
                },
            });
        }
        self.mark_crushed(c.body);
        self.scratch.stopped.push(c.body);
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
                vel: b.v0,
            });
        }
    }

    /// Counts the event against mover `m`'s bound, grows its reach box if it got faster, and
    /// predicts again (or freezes it at the bound).
    ///
    /// The bound is a safety valve, not a rule of the physics: a body past its own
    /// `max_events_per_body` goes on, drawing each further event from a pool the whole step
    /// shares ([`crate::StepConfig::event_pool`]: 131 072 events with the default bound).
    /// Only when the pool is spent does a body past its bound stop ([`World::freeze`]). A legal elastic cluster that needs many events in one step (the
    /// Galperin billiard: 31 415 collisions at M/m = 10⁸) runs exactly; a pathological one
    /// costs at most `max_events_per_body` events per body plus the pool per step. Of the
    /// events at the instant of the body's last one (not `moved_on`), at most
    /// [`SAME_INSTANT_LOANS`] in the step borrow: a ball in a pile meets a few neighbours at
    /// one instant now and then, while a body bouncing at one instant without end (a squeeze
    /// with no room, a wedge the rules do not resolve) stops soon after its own bound,
    /// without spending the pool.
    fn after_response<const G: bool, const X: bool>(&mut self, m: usize, t: Real, moved_on: bool) {
        self.scratch.mv[m].events += 1;
        if self.scratch.mv[m].events >= self.config.max_events_per_body && !self.borrow(m, moved_on)
        {
            self.freeze(m, t);
            return;
        }
        self.predict_g::<G, X>(m);
    }

    /// Mover `m`, past its own event bound, borrows its latest event from the step's pool:
    /// false when the pool is spent or when more than [`SAME_INSTANT_LOANS`] of its loans came
    /// at the instant of its event before (not `moved_on`).
    #[cold]
    #[inline(never)]
    fn borrow(&mut self, m: usize, moved_on: bool) -> bool {
        let mv = &mut self.scratch.mv[m];
        mv.same_instant = mv.same_instant.saturating_add(u8::from(!moved_on));
        if mv.same_instant > SAME_INSTANT_LOANS
            || self.scratch.pool_used >= self.config.event_pool()
        {
            return false;
        }
        self.scratch.pool_used += 1;
        true
    }

    /// Whether mover `m` is a ball that fits nowhere in the world (`World::unplaceable`).
    pub(super) fn is_unplaceable(&self, m: usize) -> bool {
        !self.unplaceable.is_empty()
            && self
                .balls
                .get(m)
                .is_some_and(|b| self.unplaceable.contains(&b.id))
    }

    /// Holds the balls that fit nowhere (a push-out found no free position in the whole
    /// world) where they are for the step: at rest, obstacles for the others, velocity kept,
    /// not swept through the tiles they overlap. They move again once an edit or a destroyed
    /// brick changes the geometry (the push-out then searches again).
    pub(super) fn hold_unplaceable(&mut self) {
        let t0 = self.scratch.t0;
        for k in 0..self.unplaceable.len() {
            if let Some(m) = self.ball_slots.get(self.unplaceable[k]) {
                if self.scratch.mv[m].state == ACTIVE {
                    self.stop(m, t0);
                }
            }
        }
    }

    /// Stops mover `m` at the event bound for the rest of the step and reports it
    /// ([`Event::IterationLimit`], see [`World::stop`]).
    /// A body left inside another that goes on moving (a flipper or a kinematic rectangle
    /// sweeping through where it stopped) is pushed out at the step's end, as a crushed one
    /// is, so that no overlap outlives the step.
    pub(super) fn freeze(&mut self, m: usize, t: Real) {
        let body = self.body_of(m);
        let toi = t - self.scratch.t0;
        self.events.push(Event::IterationLimit { body, toi });
        self.scratch.stopped.push(body);
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
        if self.is_ball(m) {
            // It stays where it is: its path starts here (read while it is still active).
            let (pos, time) = (self.ball_pos(m), self.scratch.mv[m].t);
            self.balls[m].v0 = self.vel_of(m);
            self.balls[m].anchor = pos;
            self.balls[m].anchor_time = time;
        } else {
            let k = self.rect_index(m);
            self.rect_anchor[k] = (self.rects[k].aabb, self.scratch.mv[m].t, self.rects[k].vel);
        }
        self.scratch.queue.remove(m);
        self.scratch.any_frozen = true;
        self.scratch.mv[m].state = FROZEN;
        self.scratch.mv[m].motion = self.scratch.mv[m].motion.wrapping_add(1);
        self.scratch.frozen.push(m as u32);
        self.neighbours_predict_again(m, t);
    }

    /// Mover `m` stopped or fell asleep at absolute time `t` (its old path is void): the
    /// bodies that could meet it before their next prediction (its broad-phase neighbours,
    /// or the balls near a box, and the dynamic rectangles), active and awake, move to `t`
    /// and predict again now, in index order. Without a broad phase no pair is searched at
    /// all: nothing to do.
    pub(super) fn neighbours_predict_again(&mut self, m: usize, t: Real) {
        if !self.scratch.use_bp {
            return;
        }
        let mut cand = std::mem::take(&mut self.scratch.cand);
        cand.clear();
        if self.is_ball(m) {
            let sc = &self.scratch;
            sc.bp
                .for_each_neighbour(sc.bp.cell_of(m), |k| cand.push(k as u32));
        } else {
            let aabb = self.rects[self.rect_index(m)].aabb;
            self.scratch
                .bp
                .query_box(&aabb.grown(self.scratch.max_radius + 1e-9));
            cand.extend_from_slice(&self.scratch.bp.out);
        }
        cand.extend_from_slice(&self.scratch.rect_movers);
        cand.sort_unstable();
        for &k in &cand {
            let k = k as usize;
            if k != m && self.scratch.mv[k].state == ACTIVE && !self.mover_asleep(k) {
                self.advance(k, t);
                self.predict(k);
            }
        }
        self.scratch.cand = cand;
    }
}

/// The event of a contact between two movers `me` and `other` (normal toward `me`), named in
/// id order: which of the two handles the contact depends on which found it last, the event
/// does not (two balls or two boxes: the lower id first; a ball and a box: the ball first).
fn pair_event(
    me: MoverId,
    other: MoverId,
    point: Vec2,
    normal: Vec2,
    toi: Real,
    speed: Real,
) -> Event {
    match (me, other) {
        (MoverId::Ball(a), MoverId::Ball(b)) if b.index() < a.index() => Event::Contact(Contact {
            body: Body::Ball(b),
            other: Target::Ball(a),
            point,
            normal: -normal,
            toi,
            speed,
            feature: None,
        }),
        (MoverId::Ball(a), MoverId::Ball(b)) => Event::Contact(Contact {
            body: Body::Ball(a),
            other: Target::Ball(b),
            point,
            normal,
            toi,
            speed,
            feature: None,
        }),
        (MoverId::Ball(ball), MoverId::Rect(rect)) => Event::Contact(Contact {
            body: Body::Ball(ball),
            other: Target::Rect(rect),
            point,
            normal,
            toi,
            speed,
            feature: None,
        }),
        (MoverId::Rect(rect), MoverId::Ball(ball)) => Event::Contact(Contact {
            body: Body::Ball(ball),
            other: Target::Rect(rect),
            point,
            normal: -normal,
            toi,
            speed,
            feature: None,
        }),
        (MoverId::Rect(a), MoverId::Rect(b)) if b.index() < a.index() => Event::Contact(Contact {
            body: Body::Rect(b),
            other: Target::Rect(a),
            point,
            normal: -normal,
            toi,
            speed,
            feature: None,
        }),
        (MoverId::Rect(a), MoverId::Rect(b)) => Event::Contact(Contact {
            body: Body::Rect(a),
            other: Target::Rect(b),
            point,
            normal,
            toi,
            speed,
            feature: None,
        }),
    }
}
