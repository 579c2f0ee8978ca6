//! Adding, pressing, reading and removing flippers (`crate::body::flipper`).

use crate::body::flipper::{validate, Flipper, FlipperMotion};
use crate::model::error::WorldError;
use crate::model::flipper_desc::FlipperDesc;
use crate::model::ids::FlipperId;
use crate::model::limits::MAX_FLIPPERS;
use crate::world::World;
use collide_core::{Real, Vec2};

impl World {
    /// Adds a flipper ([`crate::Flipper`]), at its rest angle with its button released.
    ///
    /// # Errors
    /// [`WorldError::BadFlipper`] naming the field for a pivot outside [`crate::limits::Bound::Coord`], a
    /// length outside [`crate::limits::Bound::Positive`], a radius outside [`crate::limits::Bound::NonNeg`], an angle
    /// beyond [`crate::limits::MAX_FLIPPER_ANGLE`], an angular speed not in `(0, MAX_FLIPPER_ANGULAR_SPEED]`
    /// or a restitution outside [`crate::limits::Bound::Restitution`]; [`WorldError::TooMany`] past
    /// [`MAX_FLIPPERS`]. Nothing is added then.
    pub fn add_flipper(&mut self, desc: FlipperDesc) -> Result<FlipperId, WorldError> {
        validate(&desc)?;
        if self.flippers.len() >= MAX_FLIPPERS {
            return Err(WorldError::TooMany {
                what: "flippers",
                count: self.flippers.len() + 1,
                max: MAX_FLIPPERS,
            });
        }
        self.edited();
        self.scratch.valid = false;
        let id = self.flipper_slots.insert(self.flippers.len() as u32);
        let motion = FlipperMotion::new(
            self.time,
            desc.rest_angle,
            desc.rest_angle,
            desc.angular_speed,
        );
        self.flippers.push(Flipper {
            id,
            desc,
            pressed: false,
            motion,
        });
        Ok(id)
    }

    /// A flipper by id, or `None` if the id is stale.
    #[must_use]
    pub fn flipper(&self, id: FlipperId) -> Option<&Flipper> {
        self.flipper_slots.get(id).map(|i| &self.flippers[i])
    }

    /// Every flipper, in storage order.
    #[must_use]
    pub fn flippers(&self) -> &[Flipper] {
        &self.flippers
    }

    /// Removes a flipper; returns it, or `None` if the id is stale.
    pub fn remove_flipper(&mut self, id: FlipperId) -> Option<Flipper> {
        let i = self.flipper_slots.get(id)?;
        self.edited();
        self.scratch.valid = false;
        self.flipper_slots.remove(id);
        let fl = self.flippers.swap_remove(i);
        if let Some(moved) = self.flippers.get(i) {
            self.flipper_slots.relocate(moved.id, i as u32);
        }
        Some(fl)
    }

    /// Holds (`pressed`) or releases a flipper's button, between steps: from the world's
    /// current time the flipper turns from where it is toward its active angle (held) or its
    /// rest angle (released) at its angular speed, and stops exactly there. The same state
    /// again changes nothing (a game may call this every frame with the button's state).
    ///
    /// # Errors
    /// [`WorldError::NoSuchFlipper`] for a stale id.
    pub fn set_flipper_pressed(&mut self, id: FlipperId, pressed: bool) -> Result<(), WorldError> {
        let i = self
            .flipper_slots
            .get(id)
            .ok_or(WorldError::NoSuchFlipper(id))?;
        let time = self.time;
        let fl = &mut self.flippers[i];
        if fl.pressed == pressed {
            return Ok(());
        }
        let target = if pressed {
            fl.desc.active_angle
        } else {
            fl.desc.rest_angle
        };
        fl.pressed = pressed;
        fl.motion = FlipperMotion::new(
            time,
            fl.motion.angle_at(time),
            target,
            fl.desc.angular_speed,
        );
        // Every prediction against the old motion is void; the balls asleep on it wake
        // (`sleep.rs`).
        self.wake_all_between_steps();
        self.edited();
        self.scratch.valid = false;
        Ok(())
    }

    /// The words of the flippers for the state hash (none without flippers): id, settings,
    /// button, motion.
    pub(crate) fn flippers_words(&self) -> Vec<u64> {
        let mut out = Vec::new();
        for fl in &self.flippers {
            out.push(fl.id.to_bits());
            let d = &fl.desc;
            for x in [
                d.pivot.x,
                d.pivot.y,
                d.length,
                d.radius,
                d.rest_angle,
                d.active_angle,
                d.angular_speed,
            ] {
                out.push(x.to_bits());
            }
            out.push(d.surface.restitution.map_or(u64::MAX, Real::to_bits));
            out.push(u64::from(d.surface.filter.layers) << 32 | u64::from(d.surface.filter.mask));
            out.push(u64::from(fl.pressed));
            let m = &fl.motion;
            for x in [m.since, m.angle, m.target, m.omega, m.until] {
                out.push(x.to_bits());
            }
        }
        out
    }

    /// The capsules, where they are at the world's time, of the flippers a body of `filter`
    /// collides with (`None`: every flipper).
    pub(crate) fn flipper_capsules(
        &self,
        filter: Option<crate::model::filter::Filter>,
    ) -> impl Iterator<Item = collide_core::Capsule> + '_ {
        self.flippers
            .iter()
            .filter(move |fl| filter.is_none_or(|f| f.collides(fl.desc.surface.filter)))
            .map(|fl| capsule_now(fl, self.time))
    }

    /// Whether a disc of `radius` at `p` overlaps by more than `slack` (world units) a flipper
    /// a body of `filter` collides with (`None`: any), where it is at the world's time.
    pub(crate) fn circle_overlaps_flipper(
        &self,
        p: Vec2,
        radius: Real,
        slack: Real,
        filter: Option<crate::model::filter::Filter>,
    ) -> bool {
        self.flipper_capsules(filter).any(|c| {
            collide_core::distance_point_segment(p, &c.segment) < radius - slack + c.radius
        })
    }
}

/// `fl`'s capsule at absolute time `t`, not inlined: the push-out's few call sites share one
/// copy of `sin_cos` (code size, in the browser build above all).
#[inline(never)]
fn capsule_now(fl: &crate::body::flipper::Flipper, t: Real) -> collide_core::Capsule {
    fl.capsule_at(t)
}
