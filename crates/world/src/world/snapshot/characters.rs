//! Characters and one-way platforms in a snapshot: written by [`World::snapshot`], checked
//! and brought back by [`World::restore`], and their words in the state hash.

use super::{corrupt, SnapshotError};
use crate::body::character::{Character, Ground};
use crate::model::cell::CellCoord;
use crate::model::character_desc::{CharacterDesc, CharacterPush};
use crate::model::event::SensorId;
use crate::model::filter::Filter;
use crate::model::ids::{CharacterId, RectId, ShapeId, Slots};
use crate::model::surface::Surface;
use crate::model::target::Target;
use crate::world::World;
use collide_core::{Real, Vec2};
use serde::{Deserialize, Serialize};

/// One character: id bits; position, velocity, half extents, the position and velocity it
/// was added with (x, y each); max slope, snap
/// distance, step height, gravity scale, walk cosine; filter (layers, mask); ground (target
/// tag and word, normal, velocity); drop-through.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct SnapCharacter(
    u64,
    [Real; 10],
    [Real; 5],
    (u32, u32),
    Option<(u8, u64, [Real; 4])>,
    bool,
);

/// The characters of a snapshot: records, id slots, one-way platforms (tag, word), and the
/// sensors each character is in (character id bits, sensor kind 0 rect, 1 shape, 2 cell, and
/// its id bits or `col | row << 32`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(super) struct SnapCharacters {
    list: Vec<SnapCharacter>,
    slots: (Vec<(u32, u32)>, Vec<u32>),
    one_way: Vec<(u8, u64)>,
    sensors: Vec<(u64, u8, u64)>,
    /// Each character's push ([`push_code`]), index for index with `list`, or empty (absent)
    /// when every one's is the default.
    #[serde(default)]
    push: Vec<Real>,
}

/// A character's push as one number: −1 none, 0 kinematic, a mass `> 0` itself.
fn push_code(p: CharacterPush) -> Real {
    match p {
        CharacterPush::None => -1.0,
        CharacterPush::Kinematic => 0.0,
        CharacterPush::Mass(m) => m,
    }
}

/// The push of [`push_code`]'s number (a mass is checked by the character's validation).
fn push_of(code: Real) -> CharacterPush {
    if code == -1.0 {
        CharacterPush::None
    } else if code == 0.0 {
        CharacterPush::Kinematic
    } else {
        CharacterPush::Mass(code)
    }
}

fn sensor_code(s: SensorId) -> (u8, u64) {
    match s {
        SensorId::Rect(id) => (0, id.to_bits()),
        SensorId::Shape(id) => (1, id.to_bits()),
        SensorId::Cell(c) => (2, u64::from(c.col) | u64::from(c.row) << 32),
    }
}

fn sensor_of(kind: u8, word: u64) -> Option<SensorId> {
    Some(match kind {
        0 => SensorId::Rect(RectId::from_bits(word)),
        1 => SensorId::Shape(ShapeId::from_bits(word)),
        2 => SensorId::Cell(CellCoord {
            col: word as u32,
            row: (word >> 32) as u32,
        }),
        _ => return None,
    })
}

impl SnapCharacter {
    fn of(c: &Character) -> SnapCharacter {
        let d = &c.desc;
        SnapCharacter(
            c.id.to_bits(),
            [
                c.pos.x,
                c.pos.y,
                c.vel.x,
                c.vel.y,
                d.half_extents.x,
                d.half_extents.y,
                d.pos.x,
                d.pos.y,
                d.vel.x,
                d.vel.y,
            ],
            [
                d.max_slope,
                d.snap_distance,
                d.step_height,
                d.gravity_scale,
                c.walk_cos,
            ],
            (d.surface.filter.layers, d.surface.filter.mask),
            c.ground.map(|g| {
                let (tag, word) = g.target.code();
                (
                    tag,
                    word,
                    [g.normal.x, g.normal.y, g.velocity.x, g.velocity.y],
                )
            }),
            c.drop_through,
        )
    }

    fn restored(&self, i: usize) -> Result<Character, SnapshotError> {
        let [px, py, vx, vy, hx, hy, dpx, dpy, dvx, dvy] = self.1;
        let [max_slope, snap_distance, step_height, gravity_scale, walk_cos] = self.2;
        let desc = CharacterDesc {
            pos: Vec2::new(dpx, dpy),
            half_extents: Vec2::new(hx, hy),
            vel: Vec2::new(dvx, dvy),
            max_slope,
            snap_distance,
            step_height,
            gravity_scale,
            push: CharacterPush::default(),
            surface: Surface::DEFAULT.with_filter(Filter::new(self.3 .0, self.3 .1)),
        };
        desc.validate()
            .map_err(|e| corrupt(format!("characters[{i}]"), e))?;
        if walk_cos.to_bits() != collide_core::sin_cos(max_slope).1.to_bits() {
            return Err(corrupt(
                format!("characters[{i}].walk_cos"),
                "not the cosine of its max_slope",
            ));
        }
        let ground = match self.4 {
            None => None,
            Some((tag, word, [nx, ny, ux, uy])) => {
                let target = Target::from_code(tag, word)
                    .ok_or_else(|| corrupt(format!("characters[{i}].ground"), "no such target"))?;
                let (normal, velocity) = (Vec2::new(nx, ny), Vec2::new(ux, uy));
                if !normal.is_finite() || !velocity.is_finite() {
                    return Err(corrupt(format!("characters[{i}].ground"), "not finite"));
                }
                Some(Ground {
                    normal,
                    target,
                    velocity,
                })
            }
        };
        let (pos, vel) = (Vec2::new(px, py), Vec2::new(vx, vy));
        if !pos.is_finite() || !vel.is_finite() {
            return Err(corrupt(
                format!("characters[{i}]"),
                "position or velocity not finite",
            ));
        }
        Ok(Character {
            id: CharacterId::from_bits(self.0),
            pos,
            vel,
            desc,
            walk_cos,
            ground,
            drop_through: self.5,
        })
    }
}

impl World {
    /// The characters and one-way platforms for a snapshot.
    pub(super) fn snap_characters(&self) -> SnapCharacters {
        let (e, f) = self.character_slots.parts();
        SnapCharacters {
            list: self.characters.iter().map(SnapCharacter::of).collect(),
            slots: (e.to_vec(), f.to_vec()),
            one_way: self.one_way.iter().map(|t| t.code()).collect(),
            sensors: self
                .character_sensors
                .iter()
                .map(|&(c, s)| {
                    let (k, w) = sensor_code(s);
                    (c.to_bits(), k, w)
                })
                .collect(),
            push: if self
                .characters
                .iter()
                .all(|c| c.desc.push == CharacterPush::default())
            {
                Vec::new()
            } else {
                self.characters
                    .iter()
                    .map(|c| push_code(c.desc.push))
                    .collect()
            },
        }
    }

    /// The words of the characters and one-way platforms in the state hash (none for a world
    /// without them, whose hash stays as it was).
    pub(crate) fn characters_words(&self) -> Vec<u64> {
        let mut out = Vec::new();
        for c in &self.characters {
            let s = SnapCharacter::of(c);
            out.push(s.0);
            out.extend(s.1.iter().chain(&s.2).map(|x| x.to_bits()));
            out.push(u64::from(s.3 .0) | u64::from(s.3 .1) << 32);
            match s.4 {
                None => out.push(0),
                Some((tag, word, xs)) => {
                    out.push(1 + u64::from(tag));
                    out.push(word);
                    out.extend(xs.iter().map(|x| x.to_bits()));
                }
            }
            out.push(u64::from(s.5));
            // The push, when not the default (a world without one hashes as before).
            if c.desc.push != CharacterPush::default() {
                out.push(1 << 10);
                out.push(push_code(c.desc.push).to_bits());
            }
        }
        for t in &self.one_way {
            let (tag, word) = t.code();
            out.push(u64::from(tag) | 1 << 8);
            out.push(word);
        }
        for &(c, s) in &self.character_sensors {
            let (k, w) = sensor_code(s);
            out.push(c.to_bits());
            out.push(u64::from(k) | 1 << 9);
            out.push(w);
        }
        out
    }
}

/// What [`restored_characters`] gives back: characters, their slots, one-way platforms,
/// the sensors the characters are in.
pub(super) type RestoredCharacters = (
    Vec<Character>,
    Slots,
    Vec<Target>,
    Vec<(CharacterId, SensorId)>,
);

/// The characters, their slots, the one-way platforms and the characters' sensors of
/// `snap`, checked.
pub(super) fn restored_characters(
    snap: &SnapCharacters,
) -> Result<RestoredCharacters, SnapshotError> {
    let mut list = snap
        .list
        .iter()
        .enumerate()
        .map(|(i, c)| c.restored(i))
        .collect::<Result<Vec<_>, _>>()?;
    if !snap.push.is_empty() {
        if snap.push.len() != list.len() {
            return Err(corrupt(
                "character_push",
                format!("{} entries for {} characters", snap.push.len(), list.len()),
            ));
        }
        for (i, (c, &code)) in list.iter_mut().zip(&snap.push).enumerate() {
            c.desc.push = push_of(code);
            c.desc
                .validate()
                .map_err(|e| corrupt(format!("characters[{i}]"), e))?;
        }
    }
    let slots = Slots::from_parts(
        snap.slots.0.clone(),
        snap.slots.1.clone(),
        list.iter().map(|c| (c.id.index(), c.id.generation())),
    )
    .map_err(|e| corrupt("character_slots", e))?;
    let mut one_way = Vec::with_capacity(snap.one_way.len());
    for (i, &(tag, word)) in snap.one_way.iter().enumerate() {
        let t = Target::from_code(tag, word)
            .filter(|t| matches!(t, Target::Rect(_) | Target::Shape(_)))
            .ok_or_else(|| corrupt(format!("one_way[{i}]"), "not a rectangle or a shape"))?;
        one_way.push(t);
    }
    if !one_way.windows(2).all(|w| w[0] < w[1]) {
        return Err(corrupt("one_way", "not sorted or repeated"));
    }
    let mut sensors = Vec::with_capacity(snap.sensors.len());
    for (i, &(c, k, w)) in snap.sensors.iter().enumerate() {
        let c = CharacterId::from_bits(c);
        let s = sensor_of(k, w)
            .filter(|_| slots.get(c).is_some())
            .ok_or_else(|| {
                corrupt(
                    format!("character_sensors[{i}]"),
                    "no such character or sensor kind",
                )
            })?;
        sensors.push((c, s));
    }
    if !sensors.windows(2).all(|w| w[0] < w[1]) {
        return Err(corrupt("character_sensors", "not sorted or repeated"));
    }
    Ok((list, slots, one_way, sensors))
}
