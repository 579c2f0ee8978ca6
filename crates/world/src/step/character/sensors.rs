//! Characters in sensors: after its motion in a step, each character's box is tested against
//! the sensor rectangles, sensor circles and sensor cells its filter collides with (positive
//! area overlap); what it newly overlaps is reported as [`Event::CharacterSensorEnter`], what
//! it no longer overlaps as [`Event::CharacterSensorExit`], both at the step's end (`toi` =
//! `dt`). The pairs it overlaps are kept sorted in `World::character_sensors`.

use crate::body::character::Character;
use crate::model::cell::{Cell, CellCoord};
use crate::model::event::{Event, SensorId};
use crate::model::ids::CharacterId;
use crate::world::World;
use crate::RectKind;
use collide_core::{aabb_overlaps_aabb, Aabb, Real};

impl World {
    /// The sensors character `c`'s box overlaps now, appended to `out` (sorted, no repeats).
    fn sensors_of(&self, c: &Character, out: &mut Vec<SensorId>) {
        let a = c.aabb();
        let filter = c.desc.filter;
        let inside = |b: &Aabb| {
            aabb_overlaps_aabb(&a, b)
                && a.max.x.min(b.max.x) > a.min.x.max(b.min.x)
                && a.max.y.min(b.max.y) > a.min.y.max(b.min.y)
        };
        for r in &self.rects {
            if r.kind == RectKind::Sensor && filter.collides(r.filter) && inside(&r.aabb) {
                out.push(SensorId::Rect(r.id));
            }
        }
        for sh in &self.shapes {
            if sh.sensor && filter.collides(sh.filter) && sh.kind.overlaps_aabb(&a) {
                out.push(SensorId::Shape(sh.id));
            }
        }
        if let Some(g) = &self.grid {
            if filter.collides(g.sensor_filter()) {
                if let Some((c0, r0, c1, r1)) = g.cell_range(&a) {
                    for row in r0..=r1 {
                        for col in c0..=c1 {
                            let cc = CellCoord::new(col as u32, row as u32);
                            if matches!(g.cell(cc), Cell::Sensor(_)) && inside(&g.cell_aabb(cc)) {
                                out.push(SensorId::Cell(cc));
                            }
                        }
                    }
                }
            }
        }
        out.sort_unstable();
        out.dedup();
    }

    /// Brings `character_sensors` up to date for character `c` after its motion, appending
    /// the enter and exit events (at `toi`) to `events`.
    pub(super) fn sense_character(&mut self, c: &Character, toi: Real, events: &mut Vec<Event>) {
        let mut now = Vec::new();
        self.sensors_of(c, &mut now);
        let id = c.id;
        let lo = self.character_sensors.partition_point(|p| p.0 < id);
        let hi = self.character_sensors.partition_point(|p| p.0 <= id);
        if hi == lo && now.is_empty() {
            return;
        }
        let before: Vec<SensorId> = self.character_sensors[lo..hi].iter().map(|p| p.1).collect();
        for &s in &before {
            if now.binary_search(&s).is_err() {
                events.push(Event::CharacterSensorExit {
                    character: id,
                    sensor: s,
                    toi,
                });
            }
        }
        for &s in &now {
            if before.binary_search(&s).is_err() {
                events.push(Event::CharacterSensorEnter {
                    character: id,
                    sensor: s,
                    toi,
                });
            }
        }
        self.character_sensors
            .splice(lo..hi, now.into_iter().map(|s| (id, s)));
    }

    /// Forgets the sensors character `id` was in (it is being removed).
    pub(crate) fn forget_character_sensors(&mut self, id: CharacterId) {
        self.character_sensors.retain(|p| p.0 != id);
    }
}
