//! A platformer level as the rules read it ([`PlatformerLevel`]): the collision scene, its
//! one-way platforms and its entities (the player's start, chests, mobs, doors), taken from a
//! map level (`collide-maps`, feature `maps`) or built by hand.

use collide_core::{Aabb, Vec2};
use collide_world::Scene;

/// What an entity of a level is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntityKind {
    /// Where the player starts (its box's bottom centre is the entity's bottom centre).
    Player,
    /// A chest: collected when the player's box overlaps it.
    Chest,
    /// A mob: patrols left and right, turning at walls and ledges.
    Mob,
    /// A door: entering it leads to the next level; a locked one opens once every chest of
    /// the level is collected.
    Door {
        /// Whether it starts locked.
        locked: bool,
    },
}

/// One entity: its kind and its box (world units, the level's top-left at `(0, 0)`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entity {
    /// What it is.
    pub kind: EntityKind,
    /// Its box.
    pub aabb: Aabb,
}

/// One level of a platformer: the collision scene (grid, rectangles, shapes, step settings;
/// ladders are sensor cells of kind `l`), the indices of its one-way rectangles in
/// [`Scene::rects`], and its entities.
#[derive(Clone, Debug, PartialEq)]
pub struct PlatformerLevel {
    /// The level's name.
    pub name: String,
    /// The collision scene (its balls and spawn are not used).
    pub scene: Scene,
    /// One-way platforms: indices into [`Scene::rects`].
    pub one_way: Vec<usize>,
    /// The entities, in the map's order.
    pub entities: Vec<Entity>,
}

impl PlatformerLevel {
    /// The entities of `kind`.
    pub fn entities_of(&self, kind: EntityKind) -> impl Iterator<Item = &Entity> {
        self.entities.iter().filter(move |e| e.kind == kind)
    }

    /// Whether the level has doors (else its exit is its border: see the module docs).
    #[must_use]
    pub fn has_doors(&self) -> bool {
        self.entities
            .iter()
            .any(|e| matches!(e.kind, EntityKind::Door { .. }))
    }
}

/// The box of an entity whose top-left corner and size are given, world units.
#[must_use]
pub fn entity_box(top_left: Vec2, size: Vec2) -> Aabb {
    Aabb::new(top_left, top_left + size)
}

#[cfg(feature = "map-levels")]
mod from_map {
    use super::{entity_box, Entity, EntityKind, PlatformerLevel};
    use collide_maps::{FieldValue, MapConfig, MapError, MapLevel};
    use std::path::Path;

    impl PlatformerLevel {
        /// The level of a loaded map: its scene and one-way platforms, and its entities named
        /// (LDtk identifier, Tiled name or type, case-insensitive) `Player`, `Chest`, `Mob`
        /// or `Door` (a door's boolean field `locked`); other objects are not read.
        #[must_use]
        pub fn from_map(map: &MapLevel) -> PlatformerLevel {
            let mut entities = Vec::new();
            for o in &map.objects {
                let name = if o.kind.is_empty() { &o.name } else { &o.kind };
                let kind = match name.to_ascii_lowercase().as_str() {
                    "player" => EntityKind::Player,
                    "chest" => EntityKind::Chest,
                    "mob" | "enemy" => EntityKind::Mob,
                    "door" => EntityKind::Door {
                        locked: matches!(o.field("locked"), Some(FieldValue::Bool(true))),
                    },
                    _ => continue,
                };
                entities.push(Entity {
                    kind,
                    aabb: entity_box(o.top_left, o.size),
                });
            }
            PlatformerLevel {
                name: map.name.clone(),
                scene: map.scene.clone(),
                one_way: map.one_way.clone(),
                entities,
            }
        }

        /// Every level of an LDtk project, in the file's order (the `.tmx` map, a single
        /// level, gives one).
        ///
        /// # Errors
        /// [`MapError`] when the file cannot be read or a level cannot be mapped.
        pub fn load_all(path: &Path) -> Result<Vec<PlatformerLevel>, MapError> {
            let cfg = MapConfig::default();
            let is_ldtk = path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| e.eq_ignore_ascii_case("ldtk"));
            if !is_ldtk {
                return Ok(vec![PlatformerLevel::from_map(&collide_maps::load(
                    path, None, &cfg,
                )?)]);
            }
            let mut levels = Vec::new();
            loop {
                let index = levels.len().to_string();
                match collide_maps::load(path, Some(&index), &cfg) {
                    Ok(map) => levels.push(PlatformerLevel::from_map(&map)),
                    Err(MapError::NoSuchLevel { .. }) if !levels.is_empty() => break,
                    Err(e) => return Err(e),
                }
            }
            Ok(levels)
        }
    }
}
