//! Squeezes in the step (`crate::step::squeeze` has the carry state and the pure rules): a
//! body pressed between a kinematic rectangle and something that does not give way is
//! carried, then crushed.

use crate::body::rect::RectRole;
use crate::model::event::Body;
use crate::model::ids::RectId;
use crate::step::squeeze::*;
use crate::world::World;
use collide_core::{
    sweep_aabb_aabb, sweep_circle_aabb, sweep_circle_half_plane, Features, Real, Vec2,
};

impl World {
    /// The carry of `body`, if it is carried (a short list: usually empty).
    pub(crate) fn carry_of(&self, body: Body) -> Option<Carry> {
        self.carries.iter().find(|c| c.body == body).copied()
    }

    /// Whether carry `c` still holds for a contact with rectangle `rect` of velocity `vel`.
    pub(crate) fn carry_holds(c: &Carry, rect: RectId, vel: Vec2) -> bool {
        c.rect == rect && c.vel == vel
    }

    /// Marks `body` crushed (see [`Carry::crushed`]).
    pub(crate) fn mark_crushed(&mut self, body: Body) {
        for c in &mut self.carries {
            if c.body == body {
                c.crushed = true;
            }
        }
    }

    /// Forgets `body`'s carry.
    pub(crate) fn end_carry(&mut self, body: Body) {
        if !self.carries.is_empty() {
            self.carries.retain(|c| c.body != body);
        }
    }

    /// Records that `body` moves with kinematic rectangle `rect` of velocity `vel` across
    /// their contact of normal `normal`.
    pub(crate) fn start_carry(&mut self, body: Body, rect: RectId, vel: Vec2, normal: Vec2) {
        self.end_carry(body);
        self.carries.push(Carry {
            body,
            rect,
            vel,
            normal,
            crushed: false,
        });
    }

    /// Whether a body at its contact with a kinematic rectangle of normal `n` (from the
    /// rectangle toward it) has immovable geometry closer than its own size along `n` (rule 1
    /// of the module docs): a ball (`Squeezed::Ball`, at its contact position) is swept over
    /// its diameter, a box over its extent along `n`, against tiles, closed walls and static
    /// rectangles.
    pub(crate) fn squeezed_against(&self, body: Probe, n: Vec2) -> bool {
        let still = |rc: &crate::body::rect::Rect| {
            rc.vel == Vec2::ZERO && !matches!(rc.role(), RectRole::Dynamic | RectRole::Sensor)
        };
        match body {
            Probe::Ball {
                center,
                radius,
                filter,
            } => {
                let d = n * (2.0 * radius);
                self.grid.as_ref().is_some_and(|g| {
                    g.sweep_circle_kinds(g.kinds_for(filter), center, radius, d, 0.0, 1.0)
                        .is_some()
                }) || self.wall_faces().any(|(_, face)| {
                    sweep_circle_half_plane(center, radius, d, 1.0, &face).is_some()
                }) || self.rects.iter().any(|rc| {
                    still(rc)
                        && filter.collides(rc.surface.filter)
                        && sweep_circle_aabb(center, radius, d, 1.0, &rc.aabb, Features::ALL)
                            .is_some()
                })
            }
            Probe::Box { aabb, rect } => {
                let size = aabb.max - aabb.min;
                let d = n * (size.x * n.x.abs() + size.y * n.y.abs());
                let filter = self.rects[rect].surface.filter;
                self.grid.as_ref().is_some_and(|g| {
                    g.sweep_aabb_kinds(g.kinds_for(filter), &aabb, d, 0.0, 1.0)
                        .is_some()
                }) || self.box_wall_hits(&aabb, d, 1.0).next().is_some()
                    || self.rects.iter().enumerate().any(|(j, rc)| {
                        j != rect
                            && still(rc)
                            && filter.collides(rc.surface.filter)
                            && sweep_aabb_aabb(&aabb, d, &rc.aabb, Vec2::ZERO, 1.0).is_some()
                    })
            }
        }
    }

    /// Rule 3 of the module docs for a body carried by `c` that meets immovable geometry of
    /// normal `n_w` with velocity `v` before the response and `response` after it (the
    /// ordinary reflection); `e` is the restitution used.
    pub(crate) fn wedge(&self, c: Carry, v: Vec2, n_w: Vec2, response: Vec2, e: Real) -> Wedge {
        let Some(rect) = self.rect(c.rect) else {
            return Wedge::Stale;
        };
        if rect.vel != c.vel {
            return Wedge::Stale;
        }
        let u = c.vel;
        let bound = v.length().max((1.0 + e) * u.length());
        let carried = |w: Vec2| w + c.normal * (u - w).dot(c.normal);
        match nearest_feasible(response, n_w, 0.0, c.normal, u.dot(c.normal)) {
            Some(w) if w.length() <= bound * (1.0 + 1e-12) => Wedge::Slide(w),
            _ => Wedge::Crush(carried(v)),
        }
    }
}
