//! Adding, driving, reading and removing characters (`crate::body::character`), and marking
//! one-way platforms.

use crate::body::character::Character;
use crate::body::rect::RectRole;
use crate::model::character_desc::{CharacterDesc, CharacterPush};
use crate::model::error::WorldError;
use crate::model::event::{Body, Event};
use crate::model::ids::CharacterId;
use crate::model::limits::{Bound, MAX_CHARACTERS};
use crate::model::target::Target;
use crate::world::surface::target_kind;
use crate::world::World;
use collide_core::Vec2;

impl World {
    /// Adds a character ([`crate::Character`]) where `desc` puts it, standing on the ground
    /// its box touches (within 1e-9 below it), if any. The character is not checked against
    /// the level: one placed inside a wall stays there until it moves out.
    ///
    /// # Errors
    /// [`WorldError::BadCharacter`] naming the field ([`CharacterDesc::validate`]);
    /// [`WorldError::TooMany`] past [`MAX_CHARACTERS`]. Nothing is added then.
    pub fn add_character(&mut self, desc: CharacterDesc) -> Result<CharacterId, WorldError> {
        desc.validate()?;
        if self.characters.len() >= MAX_CHARACTERS {
            return Err(WorldError::TooMany {
                what: "characters",
                count: self.characters.len() + 1,
                max: MAX_CHARACTERS,
            });
        }
        let id = self.character_slots.insert(self.characters.len() as u32);
        let mut c = Character {
            id,
            pos: desc.pos,
            vel: desc.vel,
            desc,
            walk_cos: collide_core::sin_cos(desc.max_slope).1,
            ground: None,
            drop_through: false,
        };
        c.ground = self.probe_ground(&mut c, 0.0);
        self.characters.push(c);
        self.character_box_changed(&c);
        Ok(id)
    }

    /// Balls and boxes predict their contacts with a pushing character's box: when one
    /// appears, moves between steps or goes, they predict again at the next step.
    pub(crate) fn character_box_changed(&mut self, c: &Character) {
        if c.desc.push != CharacterPush::None {
            self.scratch.valid = false;
        }
    }

    /// Sets how a character meets balls and dynamic rectangles ([`CharacterPush`]), from the
    /// next step on.
    ///
    /// # Errors
    /// [`WorldError::NoSuchBody`] for a stale id; [`WorldError::BadCharacter`] (`push`) for a
    /// mass outside [`Bound::Positive`]. The character is unchanged then.
    pub fn set_character_push(
        &mut self,
        id: CharacterId,
        push: CharacterPush,
    ) -> Result<(), WorldError> {
        let i = self.character_index(id)?;
        let desc = CharacterDesc {
            push,
            ..self.characters[i].desc
        };
        desc.validate()?;
        self.characters[i].desc = desc;
        // Balls stop or start meeting it.
        self.scratch.valid = false;
        Ok(())
    }

    /// A character by id, or `None` if the id is stale.
    #[must_use]
    pub fn character(&self, id: CharacterId) -> Option<&Character> {
        self.character_slots.get(id).map(|i| &self.characters[i])
    }

    /// Every character, in storage order (removal moves the last one into the freed place).
    #[must_use]
    pub fn characters(&self) -> &[Character] {
        &self.characters
    }

    /// Removes a character; returns it, or `None` if the id is stale.
    pub fn remove_character(&mut self, id: CharacterId) -> Option<Character> {
        let i = self.character_slots.get(id)?;
        self.character_slots.remove(id);
        self.forget_character_sensors(id);
        let c = self.characters.swap_remove(i);
        if let Some(moved) = self.characters.get(i) {
            self.character_slots.relocate(moved.id, i as u32);
        }
        // The balls' predictions name characters by their place in storage, which the
        // removal changed for the last one.
        if c.desc.push != CharacterPush::None || self.has_pushing_characters() {
            self.scratch.valid = false;
        }
        Some(c)
    }

    fn character_index(&self, id: CharacterId) -> Result<usize, WorldError> {
        self.character_slots
            .get(id)
            .ok_or(WorldError::NoSuchBody(Body::Character(id)))
    }

    /// Sets a character's velocity (units/s) for the next steps: the game's walking speed
    /// and jumps (a jump is an upward velocity, `vel.y < 0`). While it stands on ground the
    /// step moves it along the ground at `vel.x` (gravity does not pull it into the ground);
    /// in the air gravity adds to `vel`.
    ///
    /// # Errors
    /// [`WorldError::NoSuchBody`] for a stale id; [`WorldError::BadCharacter`] (`vel`) for a
    /// component outside [`Bound::Coord`]. The character is unchanged then.
    pub fn set_character_velocity(&mut self, id: CharacterId, vel: Vec2) -> Result<(), WorldError> {
        let i = self.character_index(id)?;
        Bound::Coord
            .check_vec2(vel)
            .map_err(|e| WorldError::BadCharacter {
                field: "vel",
                problem: e.to_string(),
            })?;
        self.characters[i].vel = vel;
        Ok(())
    }

    /// Puts a character at `pos` (its box's centre, world units), without sweeping: a
    /// teleport. It stands on the ground its box touches there (within 1e-9), if any.
    ///
    /// # Errors
    /// [`WorldError::NoSuchBody`] for a stale id; [`WorldError::BadCharacter`] (`pos`) for a
    /// component outside [`Bound::Coord`]. The character is unchanged then.
    pub fn set_character_position(&mut self, id: CharacterId, pos: Vec2) -> Result<(), WorldError> {
        let i = self.character_index(id)?;
        Bound::Coord
            .check_vec2(pos)
            .map_err(|e| WorldError::BadCharacter {
                field: "pos",
                problem: e.to_string(),
            })?;
        let mut c = self.characters[i];
        c.pos = pos;
        c.ground = self.probe_ground(&mut c, 0.0);
        self.characters[i] = c;
        self.character_box_changed(&c);
        Ok(())
    }

    /// Lets a character drop through one-way platforms (`true`) or be held by them (`false`,
    /// the default): the game's "down + jump".
    ///
    /// # Errors
    /// [`WorldError::NoSuchBody`] for a stale id.
    pub fn set_character_drop_through(
        &mut self,
        id: CharacterId,
        drop: bool,
    ) -> Result<(), WorldError> {
        let i = self.character_index(id)?;
        self.characters[i].drop_through = drop;
        Ok(())
    }

    /// Moves a character by `motion` (world units) now, between steps, by the rules of the
    /// step's move and slide (`docs/algorithms.md`, "Character") without gravity: it stops at
    /// each surface it meets at the exact time of impact, slides along it for the rest of the
    /// motion (walking along its ground, stepping up ledges up to its step height), then
    /// finds its ground (snapping down up to its snap distance if it was on ground). The
    /// contacts are appended to `events` as [`Event::Contact`], with `toi` the fraction
    /// of `motion` travelled. Balls and dynamic rectangles stop it as in the step, but a move
    /// between steps has no speed: it does not push them. Other characters its filter
    /// collides with stop it where they are. Returns the displacement made.
    ///
    /// # Errors
    /// [`WorldError::NoSuchBody`] for a stale id; [`WorldError::BadCharacter`] (`motion`) for
    /// a component outside [`Bound::Coord`]. Nothing moves then.
    pub fn move_and_slide(
        &mut self,
        id: CharacterId,
        motion: Vec2,
        events: &mut Vec<Event>,
    ) -> Result<Vec2, WorldError> {
        let i = self.character_index(id)?;
        Bound::Coord
            .check_vec2(motion)
            .map_err(|e| WorldError::BadCharacter {
                field: "motion",
                problem: e.to_string(),
            })?;
        let mut c = self.characters[i];
        let start = c.pos;
        let vel = c.vel;
        // Sensors are sensed by the step (its characters' motion), not by a move between steps.
        let mut pieces = Vec::new();
        self.move_character(&mut c, motion, Vec2::ZERO, 1.0, 0.0, events, &mut pieces);
        c.vel = vel;
        self.characters[i] = c;
        self.character_box_changed(&c);
        Ok(c.pos - start)
    }

    /// Marks a static or kinematic rectangle or a static shape (segment, circle, polygon) as
    /// a one-way platform (`true`) or an ordinary obstacle (`false`): it stops a body only
    /// from above, where the contact normal, from the platform toward the body, points up
    /// (`normal.y < 0`, y down), and lets it pass from below and the sides
    /// (docs/algorithms.md, "One-way platforms"):
    /// - a **ball** met from below or a side passes through, unchanged and with no event,
    ///   until its disc leaves the platform at the exact exit time (`collide_core::exit`);
    ///   it lands on the top once above it;
    /// - a **dynamic rectangle** meets a one-way rectangle or segment only at an entry from
    ///   above (its bottom face onto the rectangle's top face, onto the segment from its upper
    ///   side); a one-way circle or polygon is an ordinary obstacle to it;
    /// - a **character** stands on it when met from above with its bottom no lower than the
    ///   platform's top, unless it drops through ([`World::set_character_drop_through`]).
    ///
    /// Takes effect at the next step; kept by snapshots and the state hash.
    ///
    /// # Errors
    /// [`WorldError::NoSuchBody`] for a stale rectangle id; [`WorldError::BadSetting`]
    /// (`one_way`) for a target that is not a live static or kinematic rectangle or static
    /// shape (a dynamic rectangle, a sensor, a ball, a cell, a wall, a flipper, a
    /// character). Nothing changes then.
    pub fn set_one_way(&mut self, target: Target, one_way: bool) -> Result<(), WorldError> {
        match target {
            Target::Rect(id) => match self.rect(id).map(|r| r.role()) {
                None => return Err(WorldError::NoSuchBody(Body::Rect(id))),
                Some(RectRole::Static | RectRole::Kinematic) => {}
                Some(role) => {
                    return Err(WorldError::BadSetting {
                        field: "one_way",
                        problem: format!(
                            "only static and kinematic rectangles can be one-way platforms, \
                             {id} is {}",
                            if role == RectRole::Dynamic {
                                "dynamic"
                            } else {
                                "a sensor"
                            }
                        ),
                    })
                }
            },
            Target::Shape(id) => match self.shape(id) {
                None => {
                    return Err(WorldError::BadSetting {
                        field: "one_way",
                        problem: format!("no such static shape: {id}"),
                    });
                }
                Some(sh) if sh.surface.sensor => {
                    return Err(WorldError::BadSetting {
                        field: "one_way",
                        problem: format!("a sensor cannot be a one-way platform: {id}"),
                    });
                }
                Some(_) => {}
            },
            other => {
                return Err(WorldError::BadSetting {
                    field: "one_way",
                    problem: format!(
                        "only rectangles and static shapes can be one-way platforms, found a {}",
                        target_kind(other)
                    ),
                })
            }
        }
        self.edited();
        self.scratch.valid = false;
        self.mark_one_way(target, one_way);
        Ok(())
    }

    /// Marks a live static or kinematic rectangle or a static shape `target` one-way or not:
    /// the sorted list the step reads and the record's [`crate::Surface::one_way`].
    pub(crate) fn mark_one_way(&mut self, target: Target, one_way: bool) {
        match (self.one_way.binary_search(&target), one_way) {
            (Err(at), true) => self.one_way.insert(at, target),
            (Ok(at), false) => {
                self.one_way.remove(at);
            }
            _ => {}
        }
        match target {
            Target::Rect(id) => {
                if let Some(i) = self.rect_slots.get(id) {
                    self.rects[i].surface.one_way = one_way;
                }
            }
            Target::Shape(id) => {
                if let Some(i) = self.shape_slots.get(id) {
                    self.shapes[i].surface.one_way = one_way;
                }
            }
            _ => {}
        }
    }

    /// Whether `target` is a one-way platform ([`World::set_one_way`]).
    #[must_use]
    pub fn is_one_way(&self, target: Target) -> bool {
        self.one_way.binary_search(&target).is_ok()
    }
}
