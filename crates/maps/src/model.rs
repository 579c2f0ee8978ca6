//! What a loaded map level is: [`MapLevel`] (the collide [`Scene`], the object table, the
//! one-way platforms and the [`MapReport`]) and its parts.

use std::path::PathBuf;

use collide_world::{Real, Scene, Vec2, World, WorldError};

use crate::config::Rule;

/// A custom field's value (Tiled custom property, LDtk entity field), as the editor stored it.
#[derive(Clone, Debug, PartialEq)]
pub enum FieldValue {
    /// No value (an LDtk field left empty).
    Null,
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A number.
    Float(Real),
    /// A string, an enum value, a file path or a colour (`#aarrggbb` for Tiled, `#rrggbb`
    /// for LDtk).
    Text(String),
    /// An LDtk point field: a grid cell of the entity's layer (column, row).
    Point {
        /// Column.
        cx: i64,
        /// Row.
        cy: i64,
    },
    /// A reference to another object: a Tiled object id (decimal) or an LDtk entity `iid`.
    ObjectRef(String),
    /// An array (LDtk `Array<...>` fields).
    List(Vec<FieldValue>),
    /// A Tiled class property or any other structured value: its members by name.
    Class(Vec<(String, FieldValue)>),
}

/// What part of the scene an object became.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum ObjectBody {
    /// Nothing: an entity, a typed object or a decoration, read by the game from the table.
    #[default]
    None,
    /// Rectangles of [`Scene::rects`], by index (a static piece merged with its neighbours
    /// shares its rectangles with them; [`World::from_scene`] adds the rectangles in this
    /// order, so index `i` is `world.rects()[i]` of a fresh world).
    Rects(Vec<usize>),
    /// A run of [`Scene::shapes`] (segments of a polyline or polygon, or one circle):
    /// `start..start + count`.
    Shapes {
        /// Index of the first shape.
        start: usize,
        /// Number of shapes.
        count: usize,
    },
    /// A point object (Tiled): a spawn point, at [`MapObject::pos`].
    Point,
}

/// One object of the map as the game reads it: a Tiled object (any layer) or an LDtk entity,
/// with its editor id and name, its kind, place, size and custom fields, and what it became.
#[derive(Clone, Debug, PartialEq)]
pub struct MapObject {
    /// The editor's id: a Tiled object id in decimal (`"58"`), an LDtk entity `iid`.
    pub id: String,
    /// The editor's name (Tiled `name`); for an LDtk entity, its identifier (`"Player"`).
    pub name: String,
    /// Its kind: Tiled `type`/`class`, LDtk entity identifier; empty when untyped.
    pub kind: String,
    /// The layer it was drawn on.
    pub layer: String,
    /// The point the editor places it by, level pixels (x right, y down): Tiled's `x`,`y`
    /// (top-left of a shape, bottom-left of a tile object), LDtk's `px` (the entity's pivot).
    pub pos: Vec2,
    /// Top-left corner of its box before rotation, level pixels.
    pub top_left: Vec2,
    /// Width and height, pixels (0 for points, polylines and polygons in Tiled).
    pub size: Vec2,
    /// Clockwise rotation about [`MapObject::pos`], degrees (Tiled; 0 for LDtk).
    pub rotation: Real,
    /// Custom properties or entity fields, in the file's order (Tiled: by name).
    pub fields: Vec<(String, FieldValue)>,
    /// What it was mapped as ([`Rule::None`] for entities and decorations).
    pub rule: Rule,
    /// The scene parts it became.
    pub body: ObjectBody,
}

impl MapObject {
    /// The value of the field named `name`, if any.
    #[must_use]
    pub fn field(&self, name: &str) -> Option<&FieldValue> {
        self.fields.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
}

/// What the loader did not turn into geometry, so that nothing is dropped silently.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct MapReport {
    /// Layers that gave no geometry, with the reason (`"image layer"`, `"no collider: 12
    /// objects kept in the object table"`, `"auto-layer (decoration)"`).
    pub skipped_layers: Vec<(String, String)>,
    /// Custom properties that collide has no use for (`friction`: collide has no friction),
    /// with the number of objects that have them.
    pub ignored_properties: Vec<(String, usize)>,
    /// Object templates (`.tx`) that could not be read: the objects that use them keep only
    /// their own attributes (position, own properties), not the template's name, type, size
    /// or shape ([`crate::MapConfig::allow_missing_templates`]).
    pub missing_templates: Vec<PathBuf>,
}

/// One level of a map as a collide scene: load it with [`crate::load`] (by file extension),
/// [`crate::tiled::load_tmx`] or [`crate::ldtk::load_ldtk`].
#[derive(Clone, Debug, PartialEq)]
pub struct MapLevel {
    /// The level's name (LDtk level identifier; the Tiled map's file stem).
    pub name: String,
    /// The map's file.
    pub file: PathBuf,
    /// Where the level's top-left corner lies in the map's world, pixels (LDtk `worldX`,
    /// `worldY`; zero for Tiled). The scene itself is in level coordinates, `(0, 0)` at the
    /// level's top-left.
    pub world_offset: Vec2,
    /// The scene: the level rectangle, the grid of cells, rectangles and shapes, the step
    /// settings of [`crate::MapConfig::step`]; no balls.
    pub scene: Scene,
    /// Every object of the map's object layers (Tiled) or entity layers (LDtk), in the
    /// file's order.
    pub objects: Vec<MapObject>,
    /// The one-way platforms: indices into [`Scene::rects`], the rectangles whose
    /// [`collide_world::Surface::one_way`] is set (a world built from the scene has them
    /// one-way for balls, boxes and characters: [`collide_world::World::set_one_way`]).
    pub one_way: Vec<usize>,
    /// What was not turned into geometry.
    pub report: MapReport,
}

impl MapLevel {
    /// The first object named `name` (Tiled `name`; an LDtk entity's identifier).
    #[must_use]
    pub fn object(&self, name: &str) -> Option<&MapObject> {
        self.objects.iter().find(|o| o.name == name)
    }

    /// The object with the editor id `id` (a Tiled object id in decimal, an LDtk `iid`).
    #[must_use]
    pub fn object_by_id(&self, id: &str) -> Option<&MapObject> {
        self.objects.iter().find(|o| o.id == id)
    }

    /// The entities: LDtk entities and typed Tiled objects (non-empty `type`/`class`), which
    /// the loader does not turn into physics.
    pub fn entities(&self) -> impl Iterator<Item = &MapObject> {
        self.objects
            .iter()
            .filter(|o| !o.kind.is_empty() && o.body == ObjectBody::None)
    }

    /// A world built from [`MapLevel::scene`].
    ///
    /// # Errors
    /// [`WorldError`] when the scene breaks one of the world's limits (coordinates above
    /// `1e9`, too many rectangles...).
    pub fn world(&self) -> Result<World, WorldError> {
        World::from_scene(&self.scene)
    }
}
