//! Sensor rectangles that report rectangles: a trigger area ([`RectRole::Sensor`], static or
//! kinematic) reports [`Event::SensorRectEnter`] and [`Event::SensorRectExit`] when a static
//! or kinematic rectangle starts and stops overlapping it with positive area. A game's
//! pickup is one: an item falling as a kinematic sensor and the paddle it meets; so is a door
//! that opens when a moving platform reaches it. Balls entering sensors are reported by the
//! passes of `pass.rs`; this file is about rectangles.
//!
//! # Method
//! Inside a step static and kinematic rectangles move on straight lines from their anchors
//! (nothing the step does changes their paths), so a pair's overlap is one open interval of
//! time, given in closed form by the slab test on the relative motion
//! ([`collide_core::overlap_interval_aabb_aabb`], C. Ericson, *Real-Time Collision
//! Detection*, 2005, §5.5.8), from the two boxes at the step's start. At the end of each step
//! every pair of a sensor and a rectangle it collides with ([`crate::model::filter`]) is solved once
//! and its events, at their exact times, join the step's events in their canonical order.
//! Which pairs overlap is state ([`World::sensor_rects`]: snapshots, the state hash), so a
//! rectangle moved into or out of a sensor by an edit between steps, or removed, is reported
//! at the next step's start (`toi` 0).
//!
//! Touching is not overlapping: a box resting against a sensor's side is not in it. A pair
//! whose overlap starts exactly at the step's end is reported at the next step's start.
//! Dynamic rectangles (whose paths the step changes at every contact) are not reported by
//! sensor rectangles, nor are other sensors.
//!
//! Cost: one slab test per pair of (sensor, rectangle) per step, nothing in a world without
//! sensor rectangles (one pass over the rectangles per step finds none).

use crate::body::rect::RectRole;
use crate::model::event::Event;
use crate::model::ids::RectId;
use crate::world::World;
use collide_core::{overlap_interval_aabb_aabb, Real};

impl World {
    /// The pairs `(sensor, rectangle)` of rectangles overlapping sensor rectangles, sorted,
    /// as of the end of the last step (see the module docs of `rect_sensor.rs`). A pair stays
    /// listed after an edit moved or removed one of its rectangles, until the next step
    /// reports its exit.
    #[must_use]
    pub fn sensor_rects(&self) -> &[(RectId, RectId)] {
        &self.sensor_rects
    }

    /// The events of sensor rectangles and the rectangles they collide with over the step
    /// from `t0` (absolute) of `dt` seconds, pushed with their absolute times (`times`) for
    /// the step's ordering; the overlapping pairs updated to the step's end.
    pub(crate) fn sense_rects(&mut self, t0: Real, dt: Real) {
        let any_sensor = self.rects.iter().any(|r| r.role() == RectRole::Sensor);
        if !any_sensor && self.sensor_rects.is_empty() {
            return;
        }
        let mut now: Vec<(RectId, RectId)> = Vec::new();
        // The listed pairs solved here (the others lost a rectangle, a kind or a filter).
        let mut seen: Vec<(RectId, RectId)> = Vec::new();
        let mut found: Vec<(Real, Event)> = Vec::new();
        for (s, sr) in self.rects.iter().enumerate() {
            if sr.role() != RectRole::Sensor {
                continue;
            }
            let (sb, sv) = (self.rect_box_at(s, t0), self.rect_vel_at(s, t0));
            for (k, r) in self.rects.iter().enumerate() {
                if !matches!(r.role(), RectRole::Static | RectRole::Kinematic)
                    || !sr.surface.filter.collides(r.surface.filter)
                {
                    continue;
                }
                let (rb, rv) = (self.rect_box_at(k, t0), self.rect_vel_at(k, t0));
                let (sensor, rect) = (sr.id, r.id);
                let was = self.sensor_rects.binary_search(&(sensor, rect)).is_ok();
                if was {
                    seen.push((sensor, rect));
                }
                let span = overlap_interval_aabb_aabb(&rb, rv, &sb, sv);
                let mut push = |toi: Real, enter: bool| {
                    let event = if enter {
                        Event::SensorRectEnter { sensor, rect, toi }
                    } else {
                        Event::SensorRectExit { sensor, rect, toi }
                    };
                    found.push((toi, event));
                };
                // Inside just after the step's start; an edit between steps that changed it
                // is reported now.
                let mut inside = span.is_some_and(|(lo, hi)| lo <= 0.0 && 0.0 < hi);
                if was != inside {
                    push(0.0, inside);
                }
                if let Some((lo, hi)) = span {
                    if !inside && lo > 0.0 && lo < dt {
                        push(lo, true);
                        inside = true;
                    }
                    if inside && hi <= dt {
                        push(hi, false);
                        inside = false;
                    }
                }
                if inside {
                    now.push((sensor, rect));
                }
            }
        }
        // Listed pairs not solved: a rectangle removed, no longer a sensor (or no longer
        // static or kinematic), or a filter changed by an edit: they leave now.
        seen.sort_unstable();
        for &(sensor, rect) in &self.sensor_rects {
            if seen.binary_search(&(sensor, rect)).is_err() {
                found.push((
                    0.0,
                    Event::SensorRectExit {
                        sensor,
                        rect,
                        toi: 0.0,
                    },
                ));
            }
        }
        now.sort_unstable();
        self.sensor_rects = now;
        if found.is_empty() {
            return;
        }
        self.event_times.resize(self.events.len(), t0);
        for (toi, e) in found {
            self.events.push(e);
            self.event_times.push(t0 + toi);
        }
    }
}
