//! A rectangle's path: where a rectangle is, and how fast it moves, at any time.
//!
//! Every rectangle's path starts at its anchor (`World::rect_anchor`: the box, the absolute
//! time and the velocity then). Static, kinematic and sensor rectangles, and every rectangle
//! without gravity, move in a straight line: `box + v0·τ`. A dynamic rectangle under gravity
//! `g` follows the exact parabola `box + v0·τ + ½·a·τ²` (`collide_core::motion::Path`), with
//! `a = g` in free flight and `g` without its normal part while a face holds it (`rest.rs`),
//! as a ball does. Positions and velocities are always computed from the anchor, never by
//! adding up per-event moves, and the anchor is moved only at velocity changes, so a box
//! follows bit for bit the same path whatever the step size.

use crate::body::rect::RectRole;
use crate::body::rest::acc_on;
use crate::world::World;
use collide_core::motion::Path;
use collide_core::{Aabb, Real, Vec2};

impl World {
    /// Rectangle `k`'s acceleration (units/s²): zero for every rectangle but a dynamic one
    /// under gravity, which has the world's gravity less its normal part on a face holding it
    /// ([`acc_on`]).
    #[inline]
    pub(crate) fn rect_acc(&self, k: usize) -> Vec2 {
        let g = self.config.gravity;
        if g == Vec2::ZERO || self.rects[k].role() != RectRole::Dynamic {
            return Vec2::ZERO;
        }
        acc_on(g, self.rect_rest[k])
    }

    /// Rectangle `k`'s box at absolute time `t` on its current path (see the module docs;
    /// without acceleration `box + v0·τ`, the bits of a world without gravity).
    #[inline]
    pub(crate) fn rect_box_at(&self, k: usize, t: Real) -> Aabb {
        let (a, at, v0) = self.rect_anchor[k];
        let acc = self.rect_acc(k);
        if acc == Vec2::ZERO {
            a.translated(v0 * (t - at))
        } else {
            a.translated(Path::ballistic(Vec2::ZERO, v0, acc).pos_at(t - at))
        }
    }

    /// Rectangle `k`'s velocity at absolute time `t` on its current path: `v0 + a·τ`.
    #[inline]
    pub(crate) fn rect_vel_at(&self, k: usize, t: Real) -> Vec2 {
        let (_, at, v0) = self.rect_anchor[k];
        let acc = self.rect_acc(k);
        if acc == Vec2::ZERO {
            v0
        } else {
            v0 + acc * (t - at)
        }
    }

    /// Starts rectangle `k`'s path afresh at absolute time `t` from where its current path
    /// has it then (its box and velocity there), free of any face: a face that held it is
    /// gone. No-op without acceleration and rest.
    pub(crate) fn rebase_rect(&mut self, k: usize, t: Real) {
        if self.rect_acc(k) == Vec2::ZERO && self.rect_rest[k].is_none() {
            return;
        }
        let (b, v) = (self.rect_box_at(k, t), self.rect_vel_at(k, t));
        self.rects[k].aabb = b;
        self.rects[k].vel = v;
        self.rect_anchor[k] = (b, t, v);
        self.rect_rest[k] = None;
    }
}
