//! The step's bookkeeping of contacts passed through (`crate::step::pass`): the passes a
//! body is in, when each ends, and the contact a body meets after one.

use crate::model::cell::CellCoord;
use crate::model::event::Event;
use crate::model::ids::BallId;
use crate::step::pass::{Pass, PassWith};
use crate::world::World;
use collide_core::motion::Path;
use collide_core::{exit_path_circle_aabb, exit_path_circle_circle, Real};

impl World {
    /// The passes of ball `m` (dense index), sorted by what they overlap. Inline: the step
    /// asks at every search, and nearly every world has none.
    #[inline]
    pub(crate) fn passes_of(&self, m: usize) -> &[Pass] {
        if self.passes.is_empty() {
            return &[];
        }
        self.passes_of_slow(m)
    }

    /// [`World::passes_of`] when some ball has a pass.
    #[inline(never)]
    fn passes_of_slow(&self, m: usize) -> &[Pass] {
        let id = self.balls[m].id;
        let k = (id.index(), id.generation());
        let lo = self
            .passes
            .partition_point(|p| (p.ball.index(), p.ball.generation()) < k);
        let hi = lo
            + self.passes[lo..]
                .iter()
                .take_while(|p| p.ball == id)
                .count();
        &self.passes[lo..hi]
    }

    /// Starts a pass (kept sorted; replaces an ended one with the same body).
    pub(crate) fn add_pass(&mut self, pass: Pass) {
        let key = pass.key();
        match self.passes.binary_search_by(|p| p.key().cmp(&key)) {
            Ok(at) => self.passes[at] = pass,
            Err(at) => self.passes.insert(at, pass),
        }
    }

    /// Ball `m`'s path changed: the passes of and with it that had ended are forgotten (its
    /// new path starts after them).
    pub(crate) fn forget_ended_passes(&mut self, m: usize) {
        if self.passes.is_empty() {
            return;
        }
        let id = self.balls[m].id;
        self.passes
            .retain(|p| p.ended.is_none() || (p.ball != id && p.with != PassWith::Ball(id)));
    }

    /// Ends the pass of `ball` with `with`, if any; returns it.
    pub(crate) fn remove_pass(&mut self, ball: BallId, with: PassWith) -> Option<Pass> {
        let key = (ball.index(), ball.generation(), with);
        let at = self.passes.binary_search_by(|p| p.key().cmp(&key)).ok()?;
        Some(self.passes.remove(at))
    }

    /// Ends every pass of or with ball `id` (it is being removed).
    pub(crate) fn drop_passes_of_ball(&mut self, id: BallId) {
        if !self.passes.is_empty() {
            self.passes
                .retain(|p| p.ball != id && p.with != PassWith::Ball(id));
        }
    }

    /// Ends every pass with `with` (a rectangle, a sensor circle or a sensor cell being
    /// removed).
    pub(crate) fn drop_passes_with(&mut self, with: PassWith) {
        if !self.passes.is_empty() {
            self.passes.retain(|p| p.with != with);
        }
    }

    /// Ends every pass with a sensor cell `which` names (the cell is edited, or the grid
    /// replaced).
    pub(crate) fn drop_cell_passes(&mut self, which: impl Fn(CellCoord) -> bool) {
        if !self.passes.is_empty() {
            self.passes
                .retain(|p| !matches!(p.with, PassWith::Cell(c) if which(c)));
        }
    }

    /// Whether the body a pass is with is no longer in the world (a sensor cell: no longer a
    /// sensor cell).
    fn pass_partner_gone(&self, with: PassWith) -> bool {
        match with {
            PassWith::Rect(r) => self.rect_slots.get(r).is_none(),
            PassWith::Ball(b) => self.ball_slots.get(b).is_none(),
            PassWith::Shape(s) => self.shape_slots.get(s).is_none(),
            PassWith::Cell(c) => !self
                .grid
                .as_ref()
                .is_some_and(|g| matches!(g.cell(c), crate::model::cell::Cell::Sensor(_))),
        }
    }

    /// The absolute time pass `p` of ball `m` ends on the bodies' current paths, or `None`
    /// (it lasts beyond any search, or the other body is gone). Solved from the later of the
    /// paths' starts and the pass's start, as contacts are: the same bits whenever asked.
    pub(crate) fn pass_exit(&self, m: usize, p: &Pass) -> Option<Real> {
        let b = self.balls[m];
        let path = b.path(self.acc_of(m));
        let at = b.anchor_time;
        match p.with {
            PassWith::Rect(id) => {
                let k = self.rect_slots.get(id)?;
                let rc = &self.rects[k];
                let (ra, rt, _) = self.rect_anchor[k];
                // In the rectangle's frame from the later of the two paths' starts (a static
                // rectangle does not move: its own start does not matter).
                let u = rc.vel;
                let r_t = if u == collide_core::Vec2::ZERO {
                    at
                } else {
                    at.max(rt)
                };
                let off = r_t - at;
                let rel = Path::ballistic(path.pos_at(off), path.vel_at(off) - u, path.accel);
                let aabb = ra.translated(u * (r_t - rt));
                let from = (p.since.max(r_t) - r_t).max(0.0);
                exit_path_circle_aabb(&rel, b.radius, &aabb, from).map(|t| r_t + t)
            }
            PassWith::Ball(id) => {
                let j = self.ball_slots.get(id)?;
                let o = self.ball_path(j);
                let acc_o = self.acc_seen(j);
                let t = at.max(o.anchor_time);
                let mine = path.rebase(t - at);
                let theirs = o.path(acc_o).rebase(t - o.anchor_time);
                let rel = mine.relative_to(&theirs);
                let from = (p.since.max(t) - t).max(0.0);
                exit_path_circle_circle(&rel, b.radius + o.radius, from).map(|e| t + e)
            }
            PassWith::Shape(id) => {
                let k = self.shape_slots.get(id)?;
                let from = (p.since - at).max(0.0);
                let exit = self.shapes[k].kind.exit_path_circle(&path, b.radius, from);
                exit.map(|e| at + e)
            }
            PassWith::Cell(c) => {
                let aabb = self.grid.as_ref()?.cell_aabb(c);
                let from = (p.since - at).max(0.0);
                exit_path_circle_aabb(&path, b.radius, &aabb, from).map(|e| at + e)
            }
        }
    }

    /// The earliest end of ball `m`'s passes under way (absolute time), if any.
    pub(crate) fn passes_end(&self, m: usize) -> Option<Real> {
        self.passes_of(m)
            .iter()
            .filter(|p| p.ended.is_none())
            .filter_map(|p| self.pass_exit(m, p))
            .min_by(Real::total_cmp)
    }

    /// Ends, at absolute time `t`, the passes of ball `m` that are over by then (a sensor's
    /// reports its exit, `toi` from the step's start `t0`); they stay as ended passes until
    /// the ball's path changes. Returns the balls (dense indices) whose pass with `m` ended:
    /// they predict again too.
    pub(crate) fn end_passes(&mut self, m: usize, t: Real, t0: Real) -> Vec<usize> {
        let id = self.balls[m].id;
        let mut over: Vec<(Pass, Option<Real>)> = Vec::new();
        for p in self.passes_of(m).iter().filter(|p| p.ended.is_none()) {
            if self.pass_partner_gone(p.with) {
                over.push((*p, None));
            } else if let Some(e) = self.pass_exit(m, p).filter(|&e| e <= t) {
                over.push((*p, Some(e)));
            }
        }
        let mut partners = Vec::new();
        for (p, exit) in over {
            let Some(e) = exit else {
                self.remove_pass(id, p.with);
                continue;
            };
            self.add_pass(Pass {
                ended: Some(e),
                ..p
            });
            match p.with {
                PassWith::Rect(_) | PassWith::Shape(_) | PassWith::Cell(_) => {
                    if let Some(sensor) = p.with.sensor_id().filter(|_| p.sensor) {
                        self.events.push(Event::SensorExit {
                            ball: id,
                            sensor,
                            toi: t - t0,
                        });
                    }
                }
                PassWith::Ball(other) => {
                    if let Some(j) = self.ball_slots.get(other) {
                        let key = (other.index(), other.generation(), PassWith::Ball(id));
                        if let Ok(at) = self.passes.binary_search_by(|q| q.key().cmp(&key)) {
                            self.passes[at].ended = Some(e);
                        }
                        partners.push(j);
                    }
                }
            }
        }
        partners
    }

    /// For ball `m`'s static search (its `passes`, times from its path start up to `limit`):
    /// `None` when it has no pass with rectangle `k` (searched as usual); otherwise what the
    /// search keeps of `k`: nothing while the ball is inside it, the first contact after the
    /// exit once the pass has ended ([`World::contact_after_pass`]).
    #[inline]
    pub(crate) fn rect_pass_contact(
        &self,
        m: usize,
        k: usize,
        passes: &[Pass],
        limit: Real,
    ) -> Option<Option<(Real, collide_core::SweepHit)>> {
        if passes.is_empty() {
            return None;
        }
        let id = self.rects[k].id;
        let pass = passes.iter().find(|p| p.with == PassWith::Rect(id))?;
        Some(
            pass.ended
                .and_then(|exit| self.contact_after_pass(m, k, exit, limit)),
        )
    }

    /// The first contact of ball `m` with rectangle `k` at or after absolute time `exit` (the
    /// end of an earlier pass through it), as a time from the ball's path start at most
    /// `limit` and the hit: the ball's path (straight or curved) seen from the rectangle,
    /// started at `exit` or at the later of the two paths' starts.
    pub(crate) fn contact_after_pass(
        &self,
        m: usize,
        k: usize,
        exit: Real,
        limit: Real,
    ) -> Option<(Real, collide_core::SweepHit)> {
        let b = self.balls[m];
        let path = b.path(self.acc_of(m));
        let at = b.anchor_time;
        let rc = &self.rects[k];
        let (ra, rt, _) = self.rect_anchor[k];
        let u = rc.vel;
        let mut start = exit.max(at);
        if u != collide_core::Vec2::ZERO {
            start = start.max(rt);
        }
        let off = start - at;
        let rel = Path::ballistic(path.pos_at(off), path.vel_at(off) - u, path.accel);
        let aabb = if u == collide_core::Vec2::ZERO {
            rc.aabb
        } else {
            ra.translated(u * (start - rt))
        };
        let mut h = collide_core::sweep_path::sweep_path_circle_aabb(
            &rel,
            b.radius,
            limit - off,
            &aabb,
            collide_core::Features::ALL,
        )?;
        h.point += u * h.toi;
        Some((off + h.toi, h))
    }
}

impl World {
    /// For ball `m`'s search of a static body `with` it may pass (a sensor circle or cell, a
    /// one-way shape; its `passes`): `None` when it has no pass with it (searched as usual); otherwise what the search
    /// keeps of it: nothing while the ball is inside, the first touch after the exit once the
    /// pass has ended, found by `sweep` (a sweep of the ball's path, rebased to start at the
    /// exit, up to a time limit; times from the path's start up to `limit`).
    #[inline]
    pub(crate) fn static_pass_contact(
        &self,
        m: usize,
        with: PassWith,
        passes: &[Pass],
        limit: Real,
        sweep: impl Fn(&Path, Real) -> Option<collide_core::SweepHit>,
    ) -> Option<Option<(Real, collide_core::SweepHit)>> {
        if passes.is_empty() {
            return None;
        }
        let pass = passes.iter().find(|p| p.with == with)?;
        Some(pass.ended.and_then(|exit| {
            let b = &self.balls[m];
            let path = b.path(self.acc_of(m));
            let off = (exit - b.anchor_time).max(0.0);
            let rel = Path::ballistic(path.pos_at(off), path.vel_at(off), path.accel);
            sweep(&rel, limit - off).map(|h| (off + h.toi, h))
        }))
    }
}
