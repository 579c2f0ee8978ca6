//! Characters in sensors, at their exact crossing times. Each step records the pieces of the
//! character's motion (`MotionPiece`: where it was at the last step's end, the carry or push
//! at this step's start, each straight or parabolic piece of its move and slide, a step-up as
//! the chord of its motion, the ground probe's snap at the end). For each sensor rectangle,
//! sensor circle and sensor cell its filter collides with, near that path, the pieces are
//! walked in time order from what the character overlapped at the last step's end: a jump
//! between pieces is tested where it lands; within a piece, the time the box starts to
//! overlap the sensor with positive area is [`Event::CharacterSensorEnter`], the time it stops
//! [`Event::CharacterSensorExit`].
//!
//! The times are those of a point against the sensor's Minkowski sum with the box (a box
//! sensor grown by the half extents; a circle sensor against the box in the box's frame, the
//! point's path the circle's centre relative to the box's): the swept circle's first contact
//! (`sweep_path_circle_aabb`, radius 0 for a box sensor) and the end of the overlap that
//! follows (`exit_path_circle_aabb`), exact roots of the pieces' linear and quadratic
//! motions. A touch that does not go in (a graze: the overlap ends where it starts) reports
//! nothing. The sensors the box overlaps at the step's end are kept sorted in
//! `World::character_sensors`; should rounding leave the walk disagreeing with them, the
//! difference is reported at the step's end (`toi` = `dt`).

use crate::body::character::Character;
use crate::body::rect::RectRole;
use crate::model::cell::{Cell, CellCoord};
use crate::model::event::{Event, SensorId};
use crate::model::ids::CharacterId;
use crate::world::World;
use collide_core::motion::Path;
use collide_core::sweep_path::sweep_path_circle_aabb;
use collide_core::{aabb_overlaps_aabb, exit_path_circle_aabb, Aabb, Features, Real, Vec2};

/// A piece of a character's motion in a step: its centre on `path` (times from the piece's
/// start) from `t` (seconds from the step's start) for `duration` seconds; a piece of
/// duration 0 is where the character is put at `t` (a carry, a push, a snap).
#[derive(Clone, Copy, Debug)]
pub(crate) struct MotionPiece {
    /// Start, seconds from the step's start.
    pub(crate) t: Real,
    /// The centre's path, times from `t`.
    pub(crate) path: Path,
    /// Seconds.
    pub(crate) duration: Real,
}

impl MotionPiece {
    /// The character put at `pos` at time `t`.
    pub(crate) fn still(t: Real, pos: Vec2) -> MotionPiece {
        MotionPiece {
            t,
            path: Path::linear(pos, Vec2::ZERO),
            duration: 0.0,
        }
    }

    /// The box of the centre's positions over the piece (the path's ends and, under an
    /// acceleration, its turning point on each axis).
    fn bounds(&self) -> Aabb {
        let (a, b) = (self.path.pos_at(0.0), self.path.pos_at(self.duration));
        let mut out = Aabb::new(a.min(b), a.max(b));
        for k in 0..2 {
            let (v, acc) = (self.path.v0[k], self.path.accel[k]);
            if acc != 0.0 {
                let t = -v / acc;
                if t > 0.0 && t < self.duration {
                    let p = self.path.pos_at(t)[k];
                    out.min[k] = out.min[k].min(p);
                    out.max[k] = out.max[k].max(p);
                }
            }
        }
        out
    }
}

/// A sensor's shape as the character's centre meets it.
#[derive(Clone, Copy, Debug)]
enum Zone {
    /// A box sensor grown by the character's half extents: the centre inside it (open) is
    /// the box overlapping the sensor with positive area.
    Grown(Aabb),
    /// A circle sensor (centre, radius), met by the box of the given half extents.
    Circle(Vec2, Real, Vec2),
}

impl Zone {
    /// The path the swept queries take and the box they take it against: the centre itself
    /// for a grown box; for a circle, the circle's centre relative to the box's centre
    /// against the box at the origin.
    fn frame(&self, path: &Path) -> (Path, Aabb, Real) {
        match *self {
            Zone::Grown(b) => (*path, b, 0.0),
            Zone::Circle(c, r, half) => (
                Path::ballistic(c - path.p0, -path.v0, -path.accel),
                Aabb::new(-half, half),
                r,
            ),
        }
    }

    /// Whether the centre at `p` puts the box inside the sensor with positive area.
    fn contains(&self, p: Vec2) -> bool {
        match *self {
            Zone::Grown(b) => p.x > b.min.x && p.x < b.max.x && p.y > b.min.y && p.y < b.max.y,
            Zone::Circle(c, r, half) => {
                let d = (c - p).abs() - half;
                let out = d.max(Vec2::ZERO);
                d.x.max(d.y) < 0.0 || out.length_squared() < r * r && d.x.max(d.y) < r
            }
        }
    }

    /// When the box, inside at `from` (seconds on `path`), stops overlapping: `None` when it
    /// still does at the end of the horizon.
    #[inline(never)]
    fn exit(&self, path: &Path, from: Real) -> Option<Real> {
        let (rel, b, r) = self.frame(path);
        exit_path_circle_aabb(&rel, r, &b, from)
    }

    /// The first time in `[from, until]` at which the box starts to overlap the sensor
    /// (a graze reports nothing).
    #[inline(never)]
    fn enter(&self, path: &Path, from: Real, until: Real) -> Option<Real> {
        let mut t = from;
        // A graze ends where it starts: look again just past it (a few times at most).
        for _ in 0..4 {
            let rest = Path::ballistic(path.pos_at(t), path.vel_at(t), path.accel);
            let (rel, b, r) = self.frame(&rest);
            let hit = sweep_path_circle_aabb(&rel, r, until - t, &b, Features::ALL)?;
            let at = t + hit.toi;
            if self.exit(path, at).is_none_or(|e| e > at) {
                return Some(at);
            }
            if hit.toi <= 0.0 {
                return None;
            }
            t = at;
        }
        None
    }
}

impl World {
    /// The sensors of the world that character `c`'s filter collides with and whose zone may
    /// meet the centre within `reach` (world units), with their zones.
    fn sensor_zones(&self, c: &Character, reach: &Aabb, out: &mut Vec<(SensorId, Zone)>) {
        let half = c.desc.half_extents;
        let filter = c.desc.surface.filter;
        let grown = |b: &Aabb| Aabb::new(b.min - half, b.max + half);
        for r in &self.rects {
            if r.role() == RectRole::Sensor && filter.collides(r.surface.filter) {
                let z = grown(&r.aabb);
                if aabb_overlaps_aabb(&z, reach) {
                    out.push((SensorId::Rect(r.id), Zone::Grown(z)));
                }
            }
        }
        for sh in &self.shapes {
            if let (true, Some(circle)) = (sh.surface.sensor, sh.kind.disc()) {
                let z = Aabb::new(
                    circle.center - half - circle.radius,
                    circle.center + half + circle.radius,
                );
                if filter.collides(sh.surface.filter) && aabb_overlaps_aabb(&z, reach) {
                    out.push((
                        SensorId::Shape(sh.id),
                        Zone::Circle(circle.center, circle.radius, half),
                    ));
                }
            }
        }
        if let Some(g) = &self.grid {
            let near = Aabb::new(reach.min - half, reach.max + half);
            if filter.collides(g.sensor_filter()) {
                if let Some((c0, r0, c1, r1)) = g.cell_range(&near) {
                    for row in r0..=r1 {
                        for col in c0..=c1 {
                            let cc = CellCoord::new(col as u32, row as u32);
                            if matches!(g.cell(cc), Cell::Sensor(_)) {
                                out.push((
                                    SensorId::Cell(cc),
                                    Zone::Grown(grown(&g.cell_aabb(cc))),
                                ));
                            }
                        }
                    }
                }
            }
        }
    }

    /// The sensors character `c`'s box overlaps with positive area at its position now,
    /// appended to `out` (sorted, no repeats).
    fn sensors_of(&self, c: &Character, out: &mut Vec<SensorId>) {
        let mut zones = Vec::new();
        self.sensor_zones(c, &Aabb::new(c.pos, c.pos), &mut zones);
        out.extend(
            zones
                .iter()
                .filter(|(_, z)| z.contains(c.pos))
                .map(|(s, _)| *s),
        );
        out.sort_unstable();
        out.dedup();
    }

    /// Brings `character_sensors` up to date for character `c` after its motion `pieces`
    /// (in time order, the first where it was at the last step's end), appending the enter
    /// and exit events at their times (module docs) to `events`; `dt` is the step's length.
    // Not inlined: one copy of the sensor walk, off the step's hot path.
    #[inline(never)]
    pub(super) fn sense_character(
        &mut self,
        c: &Character,
        pieces: &[MotionPiece],
        dt: Real,
        events: &mut Vec<Event>,
    ) {
        let id = c.id;
        let lo = self.character_sensors.partition_point(|p| p.0 < id);
        let hi = self.character_sensors.partition_point(|p| p.0 <= id);
        let before: Vec<SensorId> = self.character_sensors[lo..hi].iter().map(|p| p.1).collect();
        let Some(reach) = pieces
            .iter()
            .map(MotionPiece::bounds)
            .reduce(|a, b| Aabb::new(a.min.min(b.min), a.max.max(b.max)))
        else {
            return;
        };
        let mut zones = Vec::new();
        self.sensor_zones(c, &reach, &mut zones);
        if zones.is_empty() && before.is_empty() {
            return;
        }
        // (time, entered, sensor), kept in time order (then by sensor) as they are found.
        let mut found: Vec<(Real, bool, SensorId)> = Vec::new();
        let mut add = |t: Real, entered: bool, s: SensorId| {
            let at = found.partition_point(|f| f.0 < t || (f.0 == t && f.2 <= s));
            found.insert(at, (t, entered, s));
        };
        let mut inside_now = Vec::new();
        for &(s, zone) in &zones {
            let mut inside = before.binary_search(&s).is_ok();
            for p in pieces {
                let at_start = zone.contains(p.path.pos_at(0.0));
                if at_start != inside {
                    add(p.t, at_start, s);
                    inside = at_start;
                }
                let mut t = 0.0;
                for _ in 0..8 {
                    if inside {
                        match zone.exit(&p.path, t) {
                            Some(e) if e < p.duration => {
                                add(p.t + e, false, s);
                                inside = false;
                                t = e;
                            }
                            _ => break,
                        }
                    } else {
                        match zone.enter(&p.path, t, p.duration) {
                            Some(e) if e < p.duration => {
                                add(p.t + e, true, s);
                                inside = true;
                                t = e;
                            }
                            _ => break,
                        }
                    }
                }
            }
            if inside {
                inside_now.push(s);
            }
        }
        // Sensors it left that are not near its path any more (removed or far): gone.
        for &s in &before {
            if !zones.iter().any(|z| z.0 == s) {
                add(dt, false, s);
            }
        }
        // The walk agrees with the positions at the step's end, up to rounding: what it got
        // wrong is reported at the end.
        let mut now = Vec::new();
        self.sensors_of(c, &mut now);
        for &s in &now {
            if !inside_now.contains(&s) {
                add(dt, true, s);
            }
        }
        for &s in &inside_now {
            if !now.contains(&s) {
                add(dt, false, s);
            }
        }
        for (toi, entered, sensor) in found {
            events.push(if entered {
                Event::CharacterSensorEnter {
                    character: id,
                    sensor,
                    toi,
                }
            } else {
                Event::CharacterSensorExit {
                    character: id,
                    sensor,
                    toi,
                }
            });
        }
        self.character_sensors
            .splice(lo..hi, now.into_iter().map(|s| (id, s)));
    }

    /// Forgets the sensors character `id` was in (it is being removed).
    pub(crate) fn forget_character_sensors(&mut self, id: CharacterId) {
        self.character_sensors.retain(|p| p.0 != id);
    }
}
