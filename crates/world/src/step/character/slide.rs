//! Move and slide: one character's motion over a time span, contact by contact in time order.
//!
//! The rule (`docs/algorithms.md`, "Character"; the sweep-and-slide loop of Fauerby 2003,
//! "Improved Collision detection and Response", and the collide-and-slide of Quake's
//! `PM_SlideMove`, here with exact times of impact instead of a skin gap):
//! 1. The box moves on its path, a line or, in the air, a parabola under gravity, until the
//!    first contact that the box cast (`World::cast_box_path`) finds: it stops there, at
//!    distance 0.
//! 2. A contact within the walkable slope is ground: the velocity becomes its walk along the
//!    ground (`along_ground`: the horizontal speed kept) and gravity no longer pulls.
//!    Another contact is a wall or a ceiling: the velocity loses its part into the surface
//!    (`slide`); on ground that motion may not climb (it stops), in the air gravity's part
//!    into the surface goes too (it slides down a steep face). On ground, a wall first tries
//!    a step up (up by the step height, across, down again).
//! 3. The rest of the time goes on from there, up to
//!    [`crate::limits::MAX_CHARACTER_CONTACTS`] contacts.
//! 4. At the end, the ground is looked for straight down: touching (within 1e-9, closed
//!    exactly), or within the snap distance for a character that was on ground and did not
//!    leave it upward.

use super::sensors::MotionPiece;
use crate::body::character::{along_ground, slide, Character, Ground};
use crate::model::character_desc::CharacterPush;
use crate::model::event::Contact;
use crate::model::event::{Body, Event};
use crate::model::limits::MAX_CHARACTER_CONTACTS;
use crate::model::target::Target;
use crate::world::box_cast::{BoxCastRules, BoxHit};
use crate::world::World;
use collide_core::motion::Path;
use collide_core::{Aabb, Real, SweepHit, Vec2};

/// A gap this small (world units) below a character's box counts as touching its ground; the
/// ground probe then closes it exactly.
pub(crate) const TOUCH: Real = 1e-9;

impl World {
    /// Whether a contact of a character whose box is `aabb` with `target` passes through:
    /// the platform it rides (`ignore`), or a one-way platform it does not meet from above.
    fn character_passes(
        &self,
        c: &Character,
        aabb: &Aabb,
        ignore: Option<Target>,
        target: Target,
        hit: &SweepHit,
    ) -> bool {
        if Some(target) == ignore {
            return true;
        }
        if self.one_way.is_empty() || !self.is_one_way(target) {
            return false;
        }
        if c.drop_through || hit.normal.y >= 0.0 {
            return true;
        }
        let top = match target {
            Target::Rect(id) => self.rect(id).map(|r| r.aabb.min.y),
            Target::Shape(id) => self.shape(id).map(|s| s.kind.aabb().min.y),
            _ => None,
        };
        top.is_some_and(|top| aabb.max.y > top + TOUCH)
    }

    /// The first contact of character `c`'s box displaced by `disp` up to `limit`.
    pub(super) fn cast_character(
        &self,
        c: &Character,
        disp: &Path,
        limit: Real,
        ignore: Option<Target>,
    ) -> Option<BoxHit> {
        let aabb = c.aabb();
        let pass = |t: Target, h: &SweepHit| self.character_passes(c, &aabb, ignore, t, h);
        // A character that pushes meets balls and dynamic rectangles where the step left them;
        // every character meets the other characters where they are now.
        let pushes = c.desc.push != CharacterPush::None;
        let rules = BoxCastRules {
            filter: c.desc.surface.filter,
            dynamic_rects: pushes,
            balls: pushes,
            characters: Some(Some(c.id)),
            pass: &pass,
        };
        self.cast_box_path(&aabb, disp, limit, &rules)
    }

    /// The velocity of what `target` names, units/s (a rectangle's or a character's; zero
    /// otherwise).
    fn target_velocity(&self, target: Target) -> Vec2 {
        match target {
            Target::Rect(id) => self.rect(id).map_or(Vec2::ZERO, |r| r.vel),
            Target::Character(id) => self.character(id).map_or(Vec2::ZERO, |c| c.vel),
            _ => Vec2::ZERO,
        }
    }

    /// Moves character `c` for `duration` seconds from velocity `vel` under acceleration
    /// `gravity` (units/s², applied only off the ground), contact by contact (module docs),
    /// then finds its ground. Contacts are appended to `events` with times from `t0`, and the
    /// pieces of the centre's path to `pieces` (a step-up as the chord of its motion; the
    /// ground probe's snap is not one: the caller reads the position after it).
    /// `c.vel` is left as the motion ended.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn move_character(
        &self,
        c: &mut Character,
        vel: Vec2,
        gravity: Vec2,
        duration: Real,
        t0: Real,
        events: &mut Vec<Event>,
        pieces: &mut Vec<MotionPiece>,
    ) {
        // It leaves its ground only upward (a jump); walking down a slope at a level
        // velocity stays on it.
        let start_ground = c
            .ground
            .filter(|g| !(vel.dot(g.normal) > 0.0 && vel.y < 0.0));
        let mut ground = start_ground;
        let mut v = vel;
        let mut acc = gravity;
        if let Some(g) = ground {
            v = along_ground(v, g.normal);
            acc = Vec2::ZERO;
        }
        let mut left = duration;
        let mut wall: Option<Vec2> = None;
        if ground.is_none() && acc != Vec2::ZERO {
            // Pressed by gravity into a surface it touches (lying on a steep face, leaning
            // on a wall's slope): its motion starts along that surface, as after a contact.
            let toward = Path::linear(Vec2::ZERO, acc / acc.length());
            if let Some(h) = self.cast_character(c, &toward, TOUCH, None) {
                let n = h.normal;
                if acc.dot(n) < 0.0 && v.dot(n) <= 1e-9 * v.length() {
                    if c.walkable(n) {
                        ground = Some(Ground {
                            normal: n,
                            target: h.target,
                            velocity: self.target_velocity(h.target),
                        });
                        v = along_ground(v, n);
                        acc = Vec2::ZERO;
                    } else {
                        v = slide(v, n);
                        acc = slide(acc, n);
                        wall = Some(n);
                    }
                }
            }
        }
        let mut contacts = 0;
        while left > 0.0 {
            if v == Vec2::ZERO && acc == Vec2::ZERO {
                break;
            }
            let disp = Path::ballistic(Vec2::ZERO, v, acc);
            let at = t0 + (duration - left);
            let Some(h) = self.cast_character(c, &disp, left, None) else {
                pieces.push(MotionPiece {
                    t: at,
                    path: Path::ballistic(c.pos, v, acc),
                    duration: left,
                });
                c.pos += disp.pos_at(left);
                v = disp.vel_at(left);
                break;
            };
            if contacts == MAX_CHARACTER_CONTACTS {
                events.push(Event::IterationLimit {
                    body: Body::Character(c.id),
                    toi: t0 + (duration - left),
                });
                v = Vec2::ZERO;
                break;
            }
            contacts += 1;
            pieces.push(MotionPiece {
                t: at,
                path: Path::ballistic(c.pos, v, acc),
                duration: h.toi,
            });
            c.pos += disp.pos_at(h.toi);
            v = disp.vel_at(h.toi);
            left -= h.toi;
            let n = h.normal;
            events.push(Event::Contact(Contact {
                body: Body::Character(c.id),
                other: h.target,
                point: h.point,
                normal: n,
                toi: t0 + (duration - left),
                speed: (-v.dot(n)).max(0.0),
                feature: None,
            }));
            if c.walkable(n) {
                ground = Some(Ground {
                    normal: n,
                    target: h.target,
                    velocity: self.target_velocity(h.target),
                });
                v = along_ground(v, n);
                acc = Vec2::ZERO;
                if wall.is_some_and(|w| v.dot(w) < 0.0) {
                    v = Vec2::ZERO;
                }
                continue;
            }
            if ground.is_some() && c.desc.step_height > 0.0 && n.y.abs() < c.walk_cos {
                let from = c.pos;
                if let Some(used) = self.step_up(c, v, left) {
                    pieces.push(MotionPiece {
                        t: t0 + (duration - left),
                        path: Path::linear(from, (c.pos - from) / used),
                        duration: used,
                    });
                    left -= used;
                    continue;
                }
            }
            v = slide(v, n);
            if ground.is_some() {
                // Walking does not climb what is too steep to walk on.
                if v.y < 0.0 {
                    v = Vec2::ZERO;
                }
            } else {
                acc = slide(acc, n);
            }
            if let Some(w) = wall {
                // Pressed into two surfaces at once (a crevice, a corner): stuck there.
                if w != n && (v.dot(w) < 0.0 || acc.dot(w) < 0.0) {
                    v = Vec2::ZERO;
                    acc = Vec2::ZERO;
                }
            }
            wall = Some(n);
        }
        c.vel = v;
        let snap = if start_ground.is_some() && ground.is_some() {
            c.desc.snap_distance
        } else {
            0.0
        };
        c.ground = self.probe_ground(c, snap);
        if let Some(g) = c.ground {
            c.vel = along_ground(c.vel, g.normal);
        }
    }

    /// A step up for character `c` walking at `v` into a wall with `left` seconds to go: up
    /// by at most its step height, across at `v`'s horizontal speed for the time left, down
    /// again onto walkable ground no lower than where it started. Returns the time used, or
    /// `None` (nothing moved) when the wall is higher than the step height or there is no
    /// room.
    fn step_up(&self, c: &mut Character, v: Vec2, left: Real) -> Option<Real> {
        let h = c.desc.step_height;
        let across = Vec2::new(v.x, 0.0);
        if across.x == 0.0 {
            return None;
        }
        let mut probe = *c;
        let up = Path::linear(Vec2::ZERO, Vec2::new(0.0, -1.0));
        let rise = self
            .cast_character(&probe, &up, h, None)
            .map_or(h, |hit| hit.toi);
        probe.pos.y -= rise;
        let go = Path::linear(Vec2::ZERO, across);
        let t = self
            .cast_character(&probe, &go, left, None)
            .map_or(left, |hit| hit.toi);
        if t <= 0.0 {
            return None;
        }
        probe.pos += across * t;
        let down = Path::linear(Vec2::ZERO, Vec2::new(0.0, 1.0));
        let hit = self.cast_character(&probe, &down, rise, None)?;
        if !probe.walkable(hit.normal) {
            return None;
        }
        probe.pos.y += hit.toi;
        c.pos = probe.pos;
        Some(t)
    }

    /// Character `c`'s ground straight below it: touching within [`TOUCH`], or within
    /// `snap` world units; the gap is closed exactly (the box is moved down onto it).
    pub(crate) fn probe_ground(&self, c: &mut Character, snap: Real) -> Option<Ground> {
        let reach = snap.max(TOUCH);
        let down = Path::linear(Vec2::ZERO, Vec2::new(0.0, 1.0));
        let hit = self.cast_character(c, &down, reach, None)?;
        if !c.walkable(hit.normal) {
            return None;
        }
        c.pos.y += hit.toi;
        Some(Ground {
            normal: hit.normal,
            target: hit.target,
            velocity: self.target_velocity(hit.target),
        })
    }
}
