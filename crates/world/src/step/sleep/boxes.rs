//! Sleeping boxes in the step (`sleep.rs`): when a dynamic rectangle may fall asleep, and what
//! sleeps on one that wakes.
//!
//! A box counts its slow inelastic contacts as a ball does, and falls asleep at
//! [`crate::step::sleep::SLEEP_CONTACTS`] of them if nothing it lies on could move away from
//! under it. "Lies on" is along gravity: the box's lowest point along `g` is no lower than
//! the other body's highest (within [`touch_tolerance`]) and the two touch. A box beside
//! another on the same floor does not lie on it, so a row of boxes sleeps box by box.

use crate::body::rect::RectRole;
use crate::step::mover::DEAD;
use crate::step::sleep::{above, boxes_touch, reach_along, touch_tolerance, touches_box};
use crate::world::World;
use collide_core::{Real, Vec2};

impl World {
    /// Whether box mover `m`, at absolute time `t`, may fall asleep: something holds it
    /// (a face it rests on, or a sleeping ball or box, a static rectangle or a still
    /// kinematic one it lies on; a box counting the slow contacts of what lies on it may
    /// have nothing under it any more), and nothing it lies on could move away from under
    /// it (no awake ball or dynamic rectangle it lies on, see the module docs), no moving
    /// kinematic rectangle touches it, no flipper turns.
    pub(super) fn box_may_sleep(&self, m: usize, t: Real) -> bool {
        let g = self.config.gravity;
        let gl = g.length();
        if gl == 0.0 || self.flipper_turning(t) {
            return false;
        }
        let d = g / gl;
        let tol = touch_tolerance(g);
        let k = self.rect_index(m);
        let b = self.rect_box_at(k, t);
        let (c, rb) = (b.center(), reach_along(b.half_extents(), 0.0, d));
        let mut held = self.rect_rest[k].is_some();
        for i in 0..self.nb() {
            if self.scratch.mv[i].state == DEAD {
                continue;
            }
            let (p, r) = self.ball_seen_at(i, t);
            if touches_box(p, r, &b, tol) && above(c, rb, p, r, g, tol) {
                if !self.is_asleep(i) {
                    return false;
                }
                held = true;
            }
        }
        for (q, rc) in self.rects.iter().enumerate() {
            if q == k || rc.role() == RectRole::Sensor {
                continue;
            }
            let bq = self.rect_box_at(q, t);
            if !boxes_touch(&b, &bq, tol) {
                continue;
            }
            let moving = match rc.role() {
                RectRole::Dynamic => !self.rect_is_asleep(q),
                _ => rc.vel != Vec2::ZERO,
            };
            if moving && rc.role() == RectRole::Kinematic {
                return false;
            }
            let rq = reach_along(bq.half_extents(), 0.0, d);
            if above(c, rb, bq.center(), rq, g, tol) {
                if moving {
                    return false;
                }
                held = true;
            }
        }
        held
    }
}
