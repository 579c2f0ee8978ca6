//! Characters in the step (`crate::body::character`). Characters move after the other
//! bodies, each on its own, in storage order (but a character standing on another after that
//! one: `riders.rs`), through the level as the step left it, meeting the other characters
//! that their filters collide with as immovable boxes where they are at that moment:
//! 1. **carried** by the kinematic rectangle it stood on, by that rectangle's displacement
//!    in the step (sliding along what stops the carry; a character the carry presses into
//!    something else is squeezed: [`Event::Squeezed`], never pushed through), or by the
//!    character it stood on, by that one's displacement (`riders.rs`);
//! 2. **pushed** out of any other kinematic rectangle that moved into it, along that
//!    rectangle's motion (squeezed likewise if there is no room);
//! 3. its **own motion** for the step (`slide.rs`): its velocity, plus gravity while it is
//!    in the air, by move and slide.
//!
//! A character that pushes ([`crate::CharacterPush`]) meets the balls and dynamic rectangles
//! where the event loop left them and pushes them after its motion (`push.rs`). A character
//! stops at another's face at its exact time of impact, slides along it and stands on its
//! head (ground [`Target::Character`]), but never moves it: no two colliding characters
//! overlap after a step. From 32 characters on, a grid of buckets over them
//! (`crate::body::crowd`) limits each cast to the characters near its path. Event times are
//! seconds from the start of the step; carry and push contacts are reported at 0.

mod push;
mod riders;
mod sensors;
mod slide;

use crate::body::character::{slide, Character};
use crate::body::rect::RectRole;
use crate::model::character_desc::CharacterPush;
use crate::model::event::{Body, Event};
use crate::model::ids::RectId;
use crate::model::target::Target;
use crate::world::World;
use collide_core::motion::Path;
use collide_core::{Aabb, Real, Vec2};
use sensors::MotionPiece;

pub(crate) use slide::TOUCH;

/// How many surfaces a carry or a push slides along before it stops.
const MAX_PUSH_CONTACTS: usize = 4;

/// Where a character's platform was at the start of a step: (character index, rectangle,
/// its box then).
pub(crate) type Platform = (usize, RectId, Aabb);

impl World {
    /// The kinematic rectangles the characters stand on, where they are before the step.
    pub(crate) fn character_platforms(&self) -> Vec<Platform> {
        let mut out = Vec::new();
        for (i, c) in self.characters.iter().enumerate() {
            if let Some(Target::Rect(id)) = c.ground.map(|g| g.target) {
                if let Some(r) = self.rect(id) {
                    if r.role() == RectRole::Kinematic {
                        out.push((i, id, r.aabb));
                    }
                }
            }
        }
        out
    }

    /// Moves every character for the step of `dt` seconds that just ran (module docs), and
    /// appends their events.
    pub(crate) fn step_characters(&mut self, platforms: &[Platform], dt: Real) {
        if self.characters.is_empty() {
            return;
        }
        // Appended to the step's events (their buffer's capacity kept between steps).
        let mut events = std::mem::take(&mut self.events);
        let mut pieces = Vec::new();
        // Characters standing on characters move after them (`riders`), then are carried.
        let (order, starts) = self.character_order();
        let mut crowd = std::mem::take(&mut self.crowd);
        crowd.build(&self.characters, self.size);
        self.crowd = crowd;
        for k in 0..self.characters.len() {
            let i = order.as_ref().map_or(k, |o| o[k]);
            let mut c = self.characters[i];
            let mut carrier = None;
            if let Some(s) = &starts {
                self.carry_by_character(&mut c, s, &mut events);
            }
            let platform = platforms
                .binary_search_by_key(&i, |p| p.0)
                .ok()
                .map(|at| platforms[at]);
            if let Some((_, id, before)) = platform {
                if let Some(r) = self.rect(id) {
                    let d = r.aabb.min - before.min;
                    let top = r.aabb.min.y;
                    // Squeezed only by a platform rising into something above.
                    let along = if d.y < 0.0 {
                        Vec2::new(0.0, -1.0)
                    } else {
                        Vec2::ZERO
                    };
                    let by = Target::Rect(id);
                    if d != Vec2::ZERO && self.push_character(&mut c, by, d, along, &mut events) {
                        // Exactly on the platform's top where it is now.
                        c.pos.y = top - c.desc.half_extents.y;
                    }
                    carrier = Some(id);
                }
            }
            self.push_out_of_movers(&mut c, carrier, &mut events);
            let g = self.config.gravity * c.desc.gravity_scale;
            let vel = c.vel;
            pieces.clear();
            // Where it was at the last step's end (then carried or pushed at this one's start).
            pieces.push(MotionPiece::still(0.0, self.characters[i].pos));
            pieces.push(MotionPiece::still(0.0, c.pos));
            let first = events.len();
            self.move_character(&mut c, vel, g, dt, 0.0, &mut events, &mut pieces);
            // The ground probe's snap, at the step's end.
            pieces.push(MotionPiece::still(dt, c.pos));
            let before = self.characters[i].aabb();
            let moved = c.pos != self.characters[i].pos;
            self.characters[i] = c;
            self.crowd.moved(i, &c.aabb());
            self.push_bodies(i, &events[first..]);
            self.sense_character(&c, &pieces, dt, &mut events);
            // Balls and boxes predicted their contacts with it where it stood.
            if moved && c.desc.push != CharacterPush::None {
                self.scratch.valid = false;
                // What slept on it or against it wakes.
                if self.config.gravity != Vec2::ZERO {
                    self.wake_touching_box(before);
                }
            }
        }
        self.crowd.clear();
        self.events = events;
    }

    /// Pushes character `c` out of each kinematic rectangle (other than `carrier`) that
    /// overlaps it after the step and is moving, along that rectangle's motion: by the least
    /// displacement along one axis of the rectangle's velocity that separates them.
    fn push_out_of_movers(
        &self,
        c: &mut Character,
        carrier: Option<RectId>,
        events: &mut Vec<Event>,
    ) {
        for k in 0..self.rects.len() {
            let r = &self.rects[k];
            if r.role() != RectRole::Kinematic
                || Some(r.id) == carrier
                || r.vel == Vec2::ZERO
                || !c.desc.surface.filter.collides(r.surface.filter)
            {
                continue;
            }
            let a = c.aabb();
            let overlap = a.max.min(r.aabb.max) - a.min.max(r.aabb.min);
            if overlap.x <= TOUCH || overlap.y <= TOUCH {
                continue;
            }
            let mut best: Option<Vec2> = None;
            let mut consider = |d: Vec2| {
                if best.is_none_or(|b| d.length_squared() < b.length_squared()) {
                    best = Some(d);
                }
            };
            if r.vel.x > 0.0 {
                consider(Vec2::new(r.aabb.max.x - a.min.x, 0.0));
            } else if r.vel.x < 0.0 {
                consider(Vec2::new(r.aabb.min.x - a.max.x, 0.0));
            }
            if r.vel.y > 0.0 {
                consider(Vec2::new(0.0, r.aabb.max.y - a.min.y));
            } else if r.vel.y < 0.0 {
                consider(Vec2::new(0.0, r.aabb.min.y - a.max.y));
            }
            if let Some(d) = best {
                let id = r.id;
                let edge = r.aabb;
                if self.push_character(c, Target::Rect(id), d, d.normalize(), events) {
                    // Exactly against the face it was pushed out of.
                    if d.x > 0.0 {
                        c.pos.x = edge.max.x + c.desc.half_extents.x;
                    } else if d.x < 0.0 {
                        c.pos.x = edge.min.x - c.desc.half_extents.x;
                    } else if d.y > 0.0 {
                        c.pos.y = edge.max.y + c.desc.half_extents.y;
                    } else {
                        c.pos.y = edge.min.y - c.desc.half_extents.y;
                    }
                }
            }
        }
    }

    /// Moves character `c` by `d` (world units) for `by`, a kinematic rectangle (whose
    /// contacts it passes through) or the character it stands on (met like any other: the
    /// carry keeps it on its top, and a slide may not take it into it), sliding along what it
    /// meets. A surface met against `along` (the direction in which a rectangle `by` presses
    /// the character: a unit vector, or zero for none) with motion left along it squeezes the
    /// character ([`Event::Squeezed`]): it stops there. Returns whether it moved by all of
    /// `d` without meeting anything.
    fn push_character(
        &self,
        c: &mut Character,
        by: Target,
        d: Vec2,
        along: Vec2,
        events: &mut Vec<Event>,
    ) -> bool {
        let mut rest = d;
        let ignore = matches!(by, Target::Rect(_)).then_some(by);
        for _ in 0..MAX_PUSH_CONTACTS {
            if rest == Vec2::ZERO {
                return true;
            }
            let path = Path::linear(Vec2::ZERO, rest);
            let Some(h) = self.cast_character(c, &path, 1.0, ignore) else {
                c.pos += rest;
                return true;
            };
            c.pos += rest * h.toi;
            let left = rest * (1.0 - h.toi);
            if h.normal.dot(along) < 0.0 && left.dot(along) > 0.0 {
                // The push presses it into the surface it met: no room.
                if let Target::Rect(rect) = by {
                    events.push(Event::Squeezed {
                        body: Body::Character(c.id),
                        rect,
                        normal: -h.normal,
                        toi: 0.0,
                    });
                }
                return false;
            }
            rest = slide(left, h.normal);
            if rest != Vec2::ZERO && rest.dot(d) <= 0.0 {
                return false;
            }
        }
        false
    }
}
