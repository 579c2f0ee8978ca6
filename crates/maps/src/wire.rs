//! A loaded [`MapLevel`] as compact bytes ([`MapLevel::to_bytes`], [`MapLevel::from_bytes`]):
//! a game (the browser build) converts its maps when it is built, with the loaders, and ships
//! only these bytes and this decoder, none of the loaders' code.
//!
//! The bytes are postcard (a compact binary serde format; `f64`s as their 8 bytes, so every
//! number comes back bit for bit) of a private mirror of the level that starts with
//! [`MAP_WIRE_VERSION`]; the scene inside is `collide-scene-wire`'s bytes. Both conversions
//! destructure every field, so a field added to the model fails to compile here instead of
//! being dropped on the way. Reading checks what the mirror cannot hold (codes, counts that do
//! not fit a `usize`); the scene's values are checked by `World::from_scene` as for any scene.

use std::path::PathBuf;

use collide_world::{Corner, Real, Vec2};
use serde::{Deserialize, Serialize};

use crate::config::Rule;
use crate::error::MapError;
use crate::model::{FieldValue, MapLevel, MapObject, MapReport, ObjectBody};

/// The format version written first into the bytes and checked by [`MapLevel::from_bytes`].
pub const MAP_WIRE_VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
struct WireLevel {
    version: u32,
    name: String,
    file: String,
    world_offset: [Real; 2],
    scene: Vec<u8>,
    objects: Vec<WireObject>,
    one_way: Vec<u64>,
    skipped_layers: Vec<(String, String)>,
    ignored_properties: Vec<(String, u64)>,
    missing_templates: Vec<String>,
}

#[derive(Serialize, Deserialize)]
struct WireObject {
    id: String,
    name: String,
    kind: String,
    layer: String,
    pos: [Real; 2],
    top_left: [Real; 2],
    size: [Real; 2],
    rotation: Real,
    fields: Vec<(String, WireField)>,
    rule: (u8, u8),
    body: WireBody,
}

#[derive(Serialize, Deserialize)]
enum WireField {
    Null,
    Bool(bool),
    Int(i64),
    Float(Real),
    Text(String),
    Point(i64, i64),
    ObjectRef(String),
    List(Vec<WireField>),
    Class(Vec<(String, WireField)>),
}

#[derive(Serialize, Deserialize)]
enum WireBody {
    None,
    Rects(Vec<u64>),
    Shapes(u64, u64),
    Point,
}

fn xy(v: Vec2) -> [Real; 2] {
    [v.x, v.y]
}

fn vec2(a: [Real; 2]) -> Vec2 {
    Vec2::new(a[0], a[1])
}

fn corner_code(c: Corner) -> u8 {
    match c {
        Corner::TopLeft => 0,
        Corner::TopRight => 1,
        Corner::BottomLeft => 2,
        Corner::BottomRight => 3,
    }
}

fn rule_code(r: Rule) -> (u8, u8) {
    match r {
        Rule::None => (0, 0),
        Rule::Wall => (1, 0),
        Rule::Brick(b) => (2, b),
        Rule::Slope(c) => (3, corner_code(c)),
        Rule::OneWay => (4, 0),
        Rule::Sensor(b) => (5, b),
        Rule::Kinematic => (6, 0),
        Rule::Dynamic => (7, 0),
    }
}

fn field_to(f: &FieldValue) -> WireField {
    match f {
        FieldValue::Null => WireField::Null,
        FieldValue::Bool(b) => WireField::Bool(*b),
        FieldValue::Int(i) => WireField::Int(*i),
        FieldValue::Float(x) => WireField::Float(*x),
        FieldValue::Text(t) => WireField::Text(t.clone()),
        FieldValue::Point { cx, cy } => WireField::Point(*cx, *cy),
        FieldValue::ObjectRef(r) => WireField::ObjectRef(r.clone()),
        FieldValue::List(l) => WireField::List(l.iter().map(field_to).collect()),
        FieldValue::Class(c) => {
            WireField::Class(c.iter().map(|(k, v)| (k.clone(), field_to(v))).collect())
        }
    }
}

fn field_from(f: WireField) -> FieldValue {
    match f {
        WireField::Null => FieldValue::Null,
        WireField::Bool(b) => FieldValue::Bool(b),
        WireField::Int(i) => FieldValue::Int(i),
        WireField::Float(x) => FieldValue::Float(x),
        WireField::Text(t) => FieldValue::Text(t),
        WireField::Point(cx, cy) => FieldValue::Point { cx, cy },
        WireField::ObjectRef(r) => FieldValue::ObjectRef(r),
        WireField::List(l) => FieldValue::List(l.into_iter().map(field_from).collect()),
        WireField::Class(c) => {
            FieldValue::Class(c.into_iter().map(|(k, v)| (k, field_from(v))).collect())
        }
    }
}

impl MapLevel {
    /// The level as compact bytes (module docs: postcard of a mirror, the scene as
    /// `collide-scene-wire` bytes), read back bit for bit by [`MapLevel::from_bytes`].
    ///
    /// # Errors
    /// [`MapError::Bytes`] when the scene cannot be encoded (postcard's message).
    pub fn to_bytes(&self) -> Result<Vec<u8>, MapError> {
        let MapLevel {
            name,
            file,
            world_offset,
            scene,
            objects,
            one_way,
            report,
        } = self;
        let MapReport {
            skipped_layers,
            ignored_properties,
            missing_templates,
        } = report;
        let bytes_err = |reason: String| MapError::Bytes {
            file: file.clone(),
            reason,
        };
        let objects = objects
            .iter()
            .map(|o| {
                let MapObject {
                    id,
                    name,
                    kind,
                    layer,
                    pos,
                    top_left,
                    size,
                    rotation,
                    fields,
                    rule,
                    body,
                } = o;
                WireObject {
                    id: id.clone(),
                    name: name.clone(),
                    kind: kind.clone(),
                    layer: layer.clone(),
                    pos: xy(*pos),
                    top_left: xy(*top_left),
                    size: xy(*size),
                    rotation: *rotation,
                    fields: fields
                        .iter()
                        .map(|(k, v)| (k.clone(), field_to(v)))
                        .collect(),
                    rule: rule_code(*rule),
                    body: match body {
                        ObjectBody::None => WireBody::None,
                        ObjectBody::Rects(r) => {
                            WireBody::Rects(r.iter().map(|&i| i as u64).collect())
                        }
                        ObjectBody::Shapes { start, count } => {
                            WireBody::Shapes(*start as u64, *count as u64)
                        }
                        ObjectBody::Point => WireBody::Point,
                    },
                }
            })
            .collect();
        let wire = WireLevel {
            version: MAP_WIRE_VERSION,
            name: name.clone(),
            file: file.to_string_lossy().into_owned(),
            world_offset: xy(*world_offset),
            scene: collide_scene_wire::to_bytes(scene).map_err(|e| bytes_err(e.to_string()))?,
            objects,
            one_way: one_way.iter().map(|&i| i as u64).collect(),
            skipped_layers: skipped_layers.clone(),
            ignored_properties: ignored_properties
                .iter()
                .map(|(k, n)| (k.clone(), *n as u64))
                .collect(),
            missing_templates: missing_templates
                .iter()
                .map(|p| p.to_string_lossy().into_owned())
                .collect(),
        };
        postcard::to_allocvec(&wire).map_err(|e| bytes_err(e.to_string()))
    }

    /// A level from the bytes of [`MapLevel::to_bytes`]; `source` names them in errors.
    ///
    /// # Errors
    /// [`MapError::Bytes`] naming `source`: bytes that are not an encoded level, of another
    /// [`MAP_WIRE_VERSION`], with an unknown rule code or an index that does not fit a
    /// `usize`, or whose scene `collide-scene-wire` refuses.
    pub fn from_bytes(source: &std::path::Path, bytes: &[u8]) -> Result<MapLevel, MapError> {
        let bad = |reason: String| MapError::Bytes {
            file: source.to_path_buf(),
            reason,
        };
        let wire: WireLevel = postcard::from_bytes(bytes)
            .map_err(|e| bad(format!("not an encoded map level: {e}")))?;
        let WireLevel {
            version,
            name,
            file,
            world_offset,
            scene,
            objects,
            one_way,
            skipped_layers,
            ignored_properties,
            missing_templates,
        } = wire;
        if version != MAP_WIRE_VERSION {
            return Err(bad(format!(
                "format version {version}, this build reads version {MAP_WIRE_VERSION}"
            )));
        }
        let index = |i: u64, what: &str| {
            usize::try_from(i).map_err(|_| bad(format!("{what} {i} does not fit this machine")))
        };
        let mut out_objects = Vec::with_capacity(objects.len());
        for o in objects {
            let WireObject {
                id,
                name,
                kind,
                layer,
                pos,
                top_left,
                size,
                rotation,
                fields,
                rule,
                body,
            } = o;
            let rule = rule_from(rule)
                .ok_or_else(|| bad(format!("object {id}: rule code {:?} is not a rule", rule)))?;
            let body = match body {
                WireBody::None => ObjectBody::None,
                WireBody::Rects(r) => ObjectBody::Rects(
                    r.into_iter()
                        .map(|i| index(i, "rectangle index"))
                        .collect::<Result<_, _>>()?,
                ),
                WireBody::Shapes(start, count) => ObjectBody::Shapes {
                    start: index(start, "shape index")?,
                    count: index(count, "shape count")?,
                },
                WireBody::Point => ObjectBody::Point,
            };
            out_objects.push(MapObject {
                id,
                name,
                kind,
                layer,
                pos: vec2(pos),
                top_left: vec2(top_left),
                size: vec2(size),
                rotation,
                fields: fields
                    .into_iter()
                    .map(|(k, v)| (k, field_from(v)))
                    .collect(),
                rule,
                body,
            });
        }
        Ok(MapLevel {
            name,
            file: PathBuf::from(file),
            world_offset: vec2(world_offset),
            scene: collide_scene_wire::from_bytes(&scene).map_err(|e| bad(e.to_string()))?,
            objects: out_objects,
            one_way: one_way
                .into_iter()
                .map(|i| index(i, "one-way index"))
                .collect::<Result<_, _>>()?,
            report: MapReport {
                skipped_layers,
                ignored_properties: ignored_properties
                    .into_iter()
                    .map(|(k, n)| Ok((k, index(n, "property count")?)))
                    .collect::<Result<_, MapError>>()?,
                missing_templates: missing_templates.into_iter().map(PathBuf::from).collect(),
            },
        })
    }
}

fn rule_from((code, arg): (u8, u8)) -> Option<Rule> {
    let corner = |c: u8| match c {
        0 => Some(Corner::TopLeft),
        1 => Some(Corner::TopRight),
        2 => Some(Corner::BottomLeft),
        3 => Some(Corner::BottomRight),
        _ => None,
    };
    Some(match code {
        0 => Rule::None,
        1 => Rule::Wall,
        2 => Rule::Brick(arg),
        3 => Rule::Slope(corner(arg)?),
        4 => Rule::OneWay,
        5 => Rule::Sensor(arg),
        6 => Rule::Kinematic,
        7 => Rule::Dynamic,
        _ => return None,
    })
}
