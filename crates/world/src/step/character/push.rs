//! A character pushing the balls and dynamic rectangles it met in its move and slide
//! ([`CharacterPush`]): an impulse along the contact normal, after its motion. The body is
//! where the step left it, touching the character's box (the character stopped there at the
//! exact time of impact and slid along it); the impulse changes the body's velocity from the
//! step's end on, so the body leaves the character in the next step's event loop.
//!
//! With `n` the normal from the character toward the body, `w = v_c·n − v_b·n` the speed at
//! which the character closes on it (`v_c·n` the character's speed into the contact, its
//! event's `speed`), `e` the pair's restitution (the body's own, or the world's) and `m` the
//! body's mass:
//! - [`CharacterPush::Kinematic`]: `Δv_b = (1 + e)·w·n` (infinite mass: a ball at rest met at
//!   `v` leaves at `2v` when elastic), or `w·n` when immovable geometry is closer behind the
//!   body than its own size (`squeezed_against`, the paddle's room test): a squeezed body
//!   moves with the character, never faster;
//! - [`CharacterPush::Mass`] `M`: the two-body impulse `j = (1 + e)·w / (1/m + 1/M)`,
//!   `Δv_b = (j/m)·n`, `Δv_c = −(j/M)·n` (momentum kept; kinetic energy kept when `e = 1`).
//!
//! The character's motion in the step stopped at the body (move and slide); its velocity for
//! the next step keeps its speed into the body, less `j/M` for a mass.
//!
//! A kick (`e > 1`) leaves the body no faster than the larger of its speed before and
//! [`MAX_KICK_SPEED`].

use crate::body::character::Character;
use crate::model::character_desc::CharacterPush;
use crate::model::event::{Body, Contact, Event};
use crate::model::limits::MAX_KICK_SPEED;
use crate::model::target::Target;
use crate::step::squeeze::Probe;
use crate::world::World;
use crate::RectKind;
use collide_core::{Real, Vec2};

/// The velocity of a body of mass `m` at velocity `v` after a character closing on it at
/// `w` along `n` pushes it (module docs), and the character's velocity change.
fn pushed(
    push: CharacterPush,
    v: Vec2,
    m: Real,
    n: Vec2,
    w: Real,
    e: Real,
    squeezed: bool,
) -> (Vec2, Vec2) {
    let (dv, dvc) = match push {
        CharacterPush::None => (Vec2::ZERO, Vec2::ZERO),
        CharacterPush::Kinematic => {
            let gain = if squeezed { w } else { (1.0 + e) * w };
            (n * gain, Vec2::ZERO)
        }
        CharacterPush::Mass(big) => {
            let inv = if m > 0.0 { 1.0 / m } else { Real::INFINITY };
            let j = (1.0 + e) * w / (inv + 1.0 / big);
            if m > 0.0 {
                (n * (j / m), -n * (j / big))
            } else {
                // A massless body takes the character's speed along `n`; nothing back.
                (n * ((1.0 + e) * w), Vec2::ZERO)
            }
        }
    };
    let out = v + dv;
    // A kick never raises the speed past the cap (or past the speed before, if higher).
    let cap = MAX_KICK_SPEED.max(v.length());
    let speed = out.length();
    let out = if e > 1.0 && speed > cap {
        out * (cap / speed)
    } else {
        out
    };
    (out, dvc)
}

impl World {
    /// Applies the pushes of character `i` (dense index) for its contacts in `events` (the
    /// events its motion appended) with balls and dynamic rectangles (module docs).
    pub(super) fn push_bodies(&mut self, i: usize, events: &[Event]) {
        let c: Character = self.characters[i];
        if c.desc.push == CharacterPush::None {
            return;
        }
        for e in events {
            let Event::Contact(Contact {
                body: Body::Character(id),
                other,
                normal,
                speed,
                ..
            }) = *e
            else {
                continue;
            };
            if id != c.id || speed <= 0.0 {
                continue;
            }
            let n = -normal;
            let dvc = match other {
                Target::Ball(ball) => self.push_ball(c.desc.push, ball, n, speed),
                Target::Rect(rect) if self.is_dynamic_rect(rect) => {
                    self.push_box(c.desc.push, rect, n, speed)
                }
                _ => continue,
            };
            // The slide took the character's speed into the body: it has it back, less what
            // the push cost it (nothing for an infinite mass).
            self.characters[i].vel += n * speed + dvc;
        }
    }

    /// Whether rectangle `id` is a live dynamic one.
    fn is_dynamic_rect(&self, id: crate::RectId) -> bool {
        self.rect(id).is_some_and(|r| r.kind == RectKind::Dynamic)
    }

    /// Pushes ball `id` (module docs); returns the character's velocity change.
    fn push_ball(&mut self, push: CharacterPush, id: crate::BallId, n: Vec2, speed: Real) -> Vec2 {
        let Some(k) = self.ball_slots.get(id) else {
            return Vec2::ZERO;
        };
        let b = self.balls[k].ball_at(self.time, self.acc_of(k));
        let w = speed - b.vel.dot(n);
        if w <= 0.0 {
            return Vec2::ZERO;
        }
        let e = self
            .ball_restitution_at(k)
            .unwrap_or(self.config.restitution);
        let probe = Probe::Ball {
            center: b.pos,
            radius: b.radius,
            filter: self.ball_filter_at(k),
        };
        let squeezed = self.squeezed_against(probe, n, self.time);
        let (v, dvc) = pushed(push, b.vel, b.mass(), n, w, e, squeezed);
        match self.set_ball_velocity(id, v) {
            Ok(()) => dvc,
            Err(_) => Vec2::ZERO,
        }
    }

    /// Pushes rectangle `id` if it is dynamic (module docs); returns the character's velocity
    /// change.
    fn push_box(&mut self, push: CharacterPush, id: crate::RectId, n: Vec2, speed: Real) -> Vec2 {
        let Some(k) = self.rect_slots.get(id) else {
            return Vec2::ZERO;
        };
        let r = self.rects[k];
        if r.kind != RectKind::Dynamic {
            return Vec2::ZERO;
        }
        let w = speed - r.vel.dot(n);
        if w <= 0.0 {
            return Vec2::ZERO;
        }
        let e = r.surface.restitution.unwrap_or(self.config.restitution);
        let probe = Probe::Box {
            aabb: r.aabb,
            rect: k,
        };
        let squeezed = self.squeezed_against(probe, n, self.time);
        let (v, dvc) = pushed(push, r.vel, r.mass(), n, w, e, squeezed);
        match self.set_rect_velocity(id, v) {
            Ok(()) => dvc,
            Err(_) => Vec2::ZERO,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kinematic_push_doubles_an_elastic_speed_and_a_mass_keeps_momentum() {
        let n = Vec2::new(1.0, 0.0);
        // A ball at rest met at 3 units/s by an infinite mass: 6 units/s, elastic.
        let (v, dvc) = pushed(
            CharacterPush::Kinematic,
            Vec2::ZERO,
            2.0,
            n,
            3.0,
            1.0,
            false,
        );
        assert_eq!((v, dvc), (Vec2::new(6.0, 0.0), Vec2::ZERO));
        // Squeezed: it moves with the character.
        let (v, _) = pushed(CharacterPush::Kinematic, Vec2::ZERO, 2.0, n, 3.0, 1.0, true);
        assert_eq!(v, Vec2::new(3.0, 0.0));
        // Equal masses, elastic: the ball takes the character's 3 units/s, the character stops.
        let (v, dvc) = pushed(
            CharacterPush::Mass(2.0),
            Vec2::ZERO,
            2.0,
            n,
            3.0,
            1.0,
            false,
        );
        assert!((v - Vec2::new(3.0, 0.0)).length() < 1e-12, "{v}");
        assert!((dvc - Vec2::new(-3.0, 0.0)).length() < 1e-12, "{dvc}");
        // Momentum: m·Δv_b + M·Δv_c = 0 for any masses and restitution.
        let (v, dvc) = pushed(
            CharacterPush::Mass(5.0),
            Vec2::new(-1.0, 2.0),
            3.0,
            n,
            4.0,
            0.5,
            false,
        );
        let p = (v - Vec2::new(-1.0, 2.0)) * 3.0 + dvc * 5.0;
        assert!(p.length() < 1e-12, "{p}");
        // A kicker pushed at 1e5 stays within the cap.
        let (v, _) = pushed(
            CharacterPush::Kinematic,
            Vec2::ZERO,
            1.0,
            n,
            1e5,
            10.0,
            false,
        );
        assert!(v.length() <= MAX_KICK_SPEED.max(0.0) + 1e-6, "{v}");
    }
}
