//! Squeezes in the step (`crate::step::squeeze` has the carry state and the pure rules): a
//! body pressed between a kinematic rectangle or a turning flipper and something that does
//! not give way is carried, then crushed.

use crate::body::rect::RectRole;
use crate::model::event::Body;
use crate::model::ids::RectId;
use crate::step::squeeze::*;
use crate::world::World;
use collide_core::motion::Path;
use collide_core::{
    sweep_aabb_aabb, sweep_circle_aabb, sweep_circle_half_plane, sweep_circle_segment, Features,
    Real, SegmentEnds, Vec2,
};

impl World {
    /// The carry of `body`, if it is carried (a short list: usually empty).
    pub(crate) fn carry_of(&self, body: Body) -> Option<Carry> {
        self.carries.iter().find(|c| c.body == body).copied()
    }

    /// Whether carry `c` still holds for a contact with rectangle `rect` of velocity `vel`.
    pub(crate) fn carry_holds(c: &Carry, rect: RectId, vel: Vec2) -> bool {
        c.by == Carrier::Rect(rect) && c.vel == vel
    }

    /// Whether mover `m` (a ball at its contact position `contact`) touches kinematic
    /// rectangle `k` (dense index) at absolute time `t`: apart by no more than
    /// [`crate::step::embed::EMBED_SLACK`] plus a rounding's worth of their coordinates.
    fn carrier_touches(&self, m: usize, contact: Option<Vec2>, k: usize, t: Real) -> bool {
        let (a, at, vel) = self.rect_anchor[k];
        let rect = a.translated(vel * (t - at));
        let (gap, scale) = match self.probe(m, contact) {
            Probe::Ball { center, radius, .. } => (
                collide_core::distance_point_aabb(center, &rect) - radius,
                center.abs().max_element() + radius,
            ),
            Probe::Box { aabb, .. } => {
                let apart = (rect.min - aabb.max).max(aabb.min - rect.max);
                (
                    apart.max_element(),
                    aabb.max.abs().max(aabb.min.abs()).max_element(),
                )
            }
        };
        let scale = scale.max(rect.max.abs().max(rect.min.abs()).max_element());
        gap <= crate::step::embed::EMBED_SLACK + 1e-12 * scale
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

    /// Records that `body` moves with `by` (a kinematic rectangle of velocity `vel`, or a
    /// turning flipper of surface velocity `vel` at the contact) across their contact of
    /// normal `normal`.
    /// `cap`: see [`Carry::cap`].
    pub(crate) fn start_carry(
        &mut self,
        body: Body,
        by: Carrier,
        vel: Vec2,
        normal: Vec2,
        cap: Real,
    ) {
        self.end_carry(body);
        self.carries.push(Carry {
            body,
            by,
            vel,
            normal,
            cap,
            crushed: false,
        });
    }

    /// Whether a body at its contact with a kinematic rectangle or turning flipper of normal
    /// `n` (from it toward the body), at absolute time `t`, has immovable geometry closer than
    /// its own size along `n` (rule 1 of the module docs): a ball (`Squeezed::Ball`, at its
    /// contact position) is swept over its diameter, a box over its extent along `n`, against
    /// tiles, closed walls, static rectangles and static shapes (not sensors or one-way
    /// platforms), and the flippers held still at `t`.
    pub(crate) fn squeezed_against(&self, body: Probe, n: Vec2, t: Real) -> bool {
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
                }) || self
                    .solid_shapes(Some(filter))
                    .any(|sh| sh.kind.cast_circle(center, radius, d).is_some())
                    || self.flippers.iter().any(|fl| {
                        // A capsule: its core met by the ball grown by the flipper's radius.
                        fl.angular_velocity_at(t) == 0.0
                            && filter.collides(fl.desc.surface.filter)
                            && sweep_circle_segment(
                                center,
                                radius + fl.desc.radius,
                                d,
                                1.0,
                                &fl.capsule_at(t).segment,
                                SegmentEnds::BOTH,
                            )
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
                    || self.solid_shapes(Some(filter)).any(|sh| {
                        sh.kind
                            .sweep_box(&aabb, &Path::linear(Vec2::ZERO, d), true, 1.0)
                            .is_some()
                    })
                    || self.flippers.iter().any(|fl| {
                        fl.angular_velocity_at(t) == 0.0
                            && filter.collides(fl.desc.surface.filter)
                            && crate::step::flippers::box_meets_held_flipper(fl, &aabb, d, t)
                    })
            }
        }
    }

    /// Rule 3 of the module docs for a body carried by `c` that meets immovable geometry of
    /// normal `n_w` at absolute time `t` with velocity `v` before the response and `response`
    /// after it (the ordinary reflection); `e` is the restitution used.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn wedge(
        &self,
        m: usize,
        contact: Option<Vec2>,
        c: Carry,
        t: Real,
        v: Vec2,
        n_w: Vec2,
        response: Vec2,
        e: Real,
    ) -> Wedge {
        let holds = match c.by {
            // Unchanged, and still touching the body: a rectangle that has moved on past it
            // (out of the world, or beyond the face's end it slid off) presses it no more.
            Carrier::Rect(id) => self.rect_slots.get(id).is_some_and(|k| {
                self.rects[k].vel == c.vel && self.carrier_touches(m, contact, k, t)
            }),
            // Held at its limit since the carry: it presses no more.
            Carrier::Flipper(i) => self
                .flippers
                .get(i as usize)
                .is_some_and(|f| f.angular_velocity_at(t) != 0.0),
        };
        if !holds {
            return Wedge::Stale;
        }
        let u = c.vel;
        let bound = v.length().max((1.0 + e) * u.length()).min(c.cap);
        let carried = |w: Vec2| {
            let w = w + c.normal * (u - w).dot(c.normal);
            // A flipper's carry may turn the ball faster than its cap (`Carry::cap`).
            if w.length() > c.cap {
                w * (c.cap / w.length())
            } else {
                w
            }
        };
        // Leaving a flipper's surface, it parts from it (`carry_parting`), and pressed back
        // by the flipper's frame, for a flight of `REST_TIME` as `part_from_flipper` parts it:
        // leaving slower, it would meet the flipper again within a rounding error's time, a
        // contact the flipper's sweep cannot follow out.
        // It leaves the face just met as well (`carry_parting`): sliding along it at exactly
        // zero normal speed, a box's next sweep may see a rate rounded below zero and meet
        // the face again at once, at one instant, over and over.
        let (part, part_w) = match c.by {
            Carrier::Rect(_) => (0.0, 0.0),
            Carrier::Flipper(_) => (
                carry_parting(response, u),
                carry_parting(response, Vec2::ZERO),
            ),
        };
        let mut slide = nearest_feasible(response, n_w, part_w, c.normal, u.dot(c.normal) + part);
        if let (Carrier::Flipper(i), Some(w)) = (c.by, slide) {
            let centre = self.mover_centre(m, contact);
            let w_min = self.frame_parting(m, i, centre, w, c.normal);
            if w_min > part {
                slide = nearest_feasible(response, n_w, part_w, c.normal, u.dot(c.normal) + w_min);
            }
        }
        match slide {
            Some(w) if w.length() <= bound * (1.0 + 1e-12) => Wedge::Slide(w),
            _ => Wedge::Crush(carried(v)),
        }
    }
}
