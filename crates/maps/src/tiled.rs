//! Tiled maps (`.tmx`, with `.tsx` tilesets and `.tx` templates) read by the `tiled` crate and
//! mapped to a collide scene (the mapping tables are in `docs/maps.md`).
//!
//! - Tile layers: a tile whose tileset tile has the `collide` property gets that [`Rule`];
//!   any other non-empty tile gets its layer's rule (the layer's `collide` property, or
//!   [`Rule::Wall`] for a layer named like a collision layer,
//!   [`MapConfig::collision_layers`]), or nothing. Slopes follow the tile's flips.
//! - Object layers: every object goes to the object table ([`MapLevel::objects`]); it is a
//!   collider when its `collide` property, its `bodyType` property, its tile's `collide`
//!   property or its layer says so. Rectangles (tile objects are placed by their bottom-left
//!   corner), rotated rectangles (closed polylines; axis-aligned when the rotation is a
//!   multiple of 90°), polygons (closed polylines), polylines, round ellipses (circles).
//! - Image layers and layers without colliders are listed in [`crate::MapReport`].
//!
//! Tiled's JSON files (`.tmj` maps, `.tsj` tilesets, `.tj` templates) are read by
//! serde (the crate's `tmj` module) into the XML documents the `tiled` crate reads, so both formats go through the
//! same `tiled::Map` and the same mapping. Only orthogonal, fixed-size maps with square tiles;
//! `.world` files are refused with a typed error ([`MapError`]).

use std::io::{Cursor, Read};
use std::path::{Path, PathBuf};

use collide_world::{Aabb, Corner, Filter, Real, Vec2};
use tiled::{
    Layer, LayerType, Loader, Map, ObjectData, ObjectShape, Orientation, Properties, PropertyValue,
    ResourceReader, TileLayer,
};

use crate::build::{Builder, Geometry, Material};
use crate::config::{MapConfig, Rule};
use crate::error::MapError;
use crate::model::{FieldValue, MapLevel, MapObject, ObjectBody};

/// What a missing template is replaced with when [`MapConfig::allow_missing_templates`] is
/// set: an object with no attribute of its own, so that the instance keeps its own.
const EMPTY_TEMPLATE: &[u8] = b"<?xml version=\"1.0\"?><template><object/></template>";

/// The `tiled` crate's file reader: the map's own bytes from memory, other files from the
/// filesystem when allowed (JSON tilesets and templates turned into their XML twins), missing
/// templates replaced and recorded.
struct Reader {
    map_path: PathBuf,
    map_bytes: Vec<u8>,
    /// Files given in memory (tilesets, templates), by their path as the map resolves it.
    files: Vec<(PathBuf, Vec<u8>)>,
    filesystem: bool,
    allow_missing_templates: bool,
    missing_templates: Vec<PathBuf>,
    /// Why a JSON tileset or template was refused (the `tiled` crate only keeps the message).
    json_error: Option<MapError>,
}

/// Whether `path`'s extension is one of `exts` (ASCII case-insensitive).
fn has_ext(path: &Path, exts: &[&str]) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| exts.iter().any(|x| e.eq_ignore_ascii_case(x)))
}

impl ResourceReader for Reader {
    type Resource = Box<dyn Read>;
    type Error = std::io::Error;

    fn read_from(&mut self, path: &Path) -> Result<Self::Resource, Self::Error> {
        if path == self.map_path {
            return Ok(Box::new(Cursor::new(self.map_bytes.clone())));
        }
        let given = self.files.iter().find(|(p, _)| p == path);
        let result = if let Some((_, bytes)) = given {
            Ok(bytes.clone())
        } else if self.filesystem {
            std::fs::read(path)
        } else {
            Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "the map was loaded from memory: no other file can be read",
            ))
        };
        let result = result.and_then(|bytes| {
            let converted = if has_ext(path, &["tsj", "json"]) {
                crate::tmj::tileset_to_tsx(path, &bytes)
            } else if has_ext(path, &["tj"]) {
                crate::tmj::template_to_tx(path, &bytes)
            } else {
                return Ok(bytes);
            };
            converted.map_err(|e| {
                let msg = e.to_string();
                self.json_error = Some(e);
                std::io::Error::new(std::io::ErrorKind::InvalidData, msg)
            })
        });
        match result {
            Ok(bytes) => Ok(Box::new(Cursor::new(bytes))),
            Err(e)
                if self.allow_missing_templates
                    && e.kind() == std::io::ErrorKind::NotFound
                    && has_ext(path, &["tx", "tj"]) =>
            {
                let _ = e;
                self.missing_templates.push(path.to_path_buf());
                Ok(Box::new(Cursor::new(EMPTY_TEMPLATE)))
            }
            Err(e) => Err(e),
        }
    }
}

/// Loads the Tiled map `path`: XML (`.tmx`) or, by its extension, JSON (`.tmj`, `.json`); its
/// tilesets (`.tsx`, `.tsj`) and templates (`.tx`, `.tj`) are read relative to it.
///
/// # Errors
/// [`MapError`]: the file or a tileset it names cannot be read, the XML or JSON is malformed
/// ([`MapError::Parse`], naming the line and column), or a
/// layer's encoding cannot be read (`zstd` compression is not built in), the map is not
/// orthogonal, infinite, has non-square tiles, or a collider cannot be mapped.
pub fn load_tmx(path: impl AsRef<Path>, cfg: &MapConfig) -> Result<MapLevel, MapError> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|source| MapError::Io {
        file: path.to_path_buf(),
        source,
    })?;
    load(path, bytes, Vec::new(), true, cfg)
}

/// Loads a Tiled map from its bytes, JSON when `name`'s extension is `.tmj` or `.json`, else
/// XML; `name` is the file name reported in errors and the level's name. No other file is read: a map that names an external tileset fails with
/// [`MapError::MissingFile`] (templates are replaced as [`MapConfig::allow_missing_templates`]
/// says). Used by the fuzz target.
///
/// # Errors
/// As [`load_tmx`].
pub fn load_tmx_bytes(name: &Path, bytes: &[u8], cfg: &MapConfig) -> Result<MapLevel, MapError> {
    load(name, bytes.to_vec(), Vec::new(), false, cfg)
}

/// Loads a Tiled map from its bytes and the bytes of the files it names (tilesets `.tsx` or
/// `.tsj`, templates), each given with its path as the map names it relative to `name`'s
/// folder (`objs.tsx` beside `maps/sandbox.tmx` is `maps/objs.tsx`). No file is read from the
/// filesystem: for a page or a game that embeds its maps.
///
/// # Errors
/// As [`load_tmx`]; a file the map names that is not given is [`MapError::MissingFile`].
pub fn load_tmx_with_files(
    name: &Path,
    bytes: &[u8],
    files: &[(&Path, &[u8])],
    cfg: &MapConfig,
) -> Result<MapLevel, MapError> {
    let files = files
        .iter()
        .map(|(p, b)| (p.to_path_buf(), b.to_vec()))
        .collect();
    load(name, bytes.to_vec(), files, false, cfg)
}

fn load(
    path: &Path,
    bytes: Vec<u8>,
    files: Vec<(PathBuf, Vec<u8>)>,
    filesystem: bool,
    cfg: &MapConfig,
) -> Result<MapLevel, MapError> {
    let file = path.to_path_buf();
    let bytes = if has_ext(path, &["tmj", "json"]) {
        crate::tmj::map_to_tmx(path, &bytes)?
    } else {
        crate::layer_size::check_tmx(path, &bytes)?;
        bytes
    };
    let mut loader = Loader::with_reader(Reader {
        map_path: path.to_path_buf(),
        map_bytes: bytes,
        files,
        filesystem,
        allow_missing_templates: cfg.allow_missing_templates,
        missing_templates: Vec::new(),
        json_error: None,
    });
    let loaded = loader.load_tmx_map(path);
    if let Some(e) = loader.reader_mut().json_error.take() {
        return Err(e);
    }
    let map = loaded.map_err(|e| match e {
        tiled::Error::ResourceLoadingError { path: missing, err } => MapError::MissingFile {
            file: file.clone(),
            missing,
            reason: err.to_string(),
        },
        other => MapError::Parse {
            file: file.clone(),
            reason: other.to_string(),
        },
    })?;
    let missing = std::mem::take(&mut loader.reader_mut().missing_templates);
    convert(&map, path, cfg, missing)
}

fn convert(
    map: &Map,
    path: &Path,
    cfg: &MapConfig,
    missing: Vec<PathBuf>,
) -> Result<MapLevel, MapError> {
    let file = path.to_path_buf();
    if map.orientation != Orientation::Orthogonal {
        return Err(MapError::UnsupportedOrientation {
            file,
            orientation: map.orientation.to_string(),
        });
    }
    if map.infinite() {
        return Err(MapError::InfiniteMap { file });
    }
    if map.tile_width != map.tile_height {
        return Err(MapError::NonSquareTiles {
            file,
            layer: "map".to_owned(),
            width: map.tile_width,
            height: map.tile_height,
        });
    }
    let size = Vec2::new(
        Real::from(map.width) * Real::from(map.tile_width),
        Real::from(map.height) * Real::from(map.tile_height),
    );
    let mut b = Builder::new(cfg, path, size);
    let mut ignored: Vec<(String, usize)> = Vec::new();
    for layer in map.layers() {
        walk_layer(&mut b, map, &layer, Vec2::ZERO, "", &mut ignored)?;
    }
    b.report.ignored_properties = ignored;
    b.report.missing_templates = missing;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok(b.finish(&name, Vec2::ZERO))
}

fn walk_layer(
    b: &mut Builder<'_>,
    map: &Map,
    layer: &Layer<'_>,
    offset: Vec2,
    prefix: &str,
    ignored: &mut Vec<(String, usize)>,
) -> Result<(), MapError> {
    let name = format!("{prefix}{}", layer.name);
    let offset = offset + Vec2::new(Real::from(layer.offset_x), Real::from(layer.offset_y));
    let layer_rule = layer_rule(b, layer, &name)?;
    match layer.layer_type() {
        LayerType::Tiles(TileLayer::Finite(t)) => {
            let mut cells = Vec::new();
            for y in 0..t.height() {
                for x in 0..t.width() {
                    let Some(tile) = t.get_tile(x as i32, y as i32) else {
                        continue;
                    };
                    let own = match tile.get_tile() {
                        Some(data) => {
                            let what = format!(
                                "tile {} of tileset {:?}",
                                tile.id(),
                                tile.get_tileset().name
                            );
                            rule_property(b, &data.properties, &name, &what)?
                        }
                        None => None,
                    };
                    let rule = match own.or(layer_rule) {
                        Some(Rule::Slope(c)) => {
                            Rule::Slope(flip_corner(c, tile.flip_h, tile.flip_v, tile.flip_d))
                        }
                        Some(r) => r,
                        None => continue,
                    };
                    if matches!(rule, Rule::Kinematic | Rule::Dynamic) {
                        return Err(MapError::BadProperty {
                            file: b.file.clone(),
                            layer: name,
                            object: format!("tile {} at column {x}, row {y}", tile.id()),
                            property: b.cfg.rule_property.clone(),
                            reason: format!("{rule:?} is for objects, not tiles"),
                        });
                    }
                    cells.push((x as usize, y as usize, rule));
                }
            }
            if cells.iter().all(|c| c.2 == Rule::None) {
                b.report.skipped_layers.push((
                    name,
                    "tile layer: no tile has a collide rule and the layer is not a collision layer"
                        .to_owned(),
                ));
                return Ok(());
            }
            let cell = Real::from(map.tile_width);
            b.use_grid(&name, cell, offset, t.width() as usize, t.height() as usize)?;
            for (x, y, rule) in cells {
                b.set_cell(x, y, rule);
            }
        }
        LayerType::Tiles(TileLayer::Infinite(_)) => {
            return Err(MapError::InfiniteMap {
                file: b.file.clone(),
            })
        }
        LayerType::Objects(ol) => {
            let mut colliders = 0;
            let count = ol.objects().len();
            for obj in ol.objects() {
                let tile_props = obj
                    .get_tile()
                    .and_then(|t| t.get_tile())
                    .map(|t| t.properties.clone());
                if add_object(
                    b,
                    &obj,
                    tile_props.as_ref(),
                    layer_rule,
                    &name,
                    offset,
                    ignored,
                )? {
                    colliders += 1;
                }
            }
            if colliders == 0 {
                b.report.skipped_layers.push((
                    name,
                    format!("object layer: no collider; {count} objects kept in the object table"),
                ));
            }
        }
        LayerType::Image(_) => b
            .report
            .skipped_layers
            .push((name, "image layer (decoration)".to_owned())),
        LayerType::Group(g) => {
            for child in g.layers() {
                walk_layer(b, map, &child, offset, &format!("{name}/"), ignored)?;
            }
        }
    }
    Ok(())
}

/// The layer's own rule: its `collide` property, else a wall for a collision layer.
fn layer_rule(b: &Builder<'_>, layer: &Layer<'_>, name: &str) -> Result<Option<Rule>, MapError> {
    let own = rule_property(b, &layer.properties, name, "the layer")?;
    Ok(own.or_else(|| b.cfg.is_collision_layer(&layer.name).then_some(Rule::Wall)))
}

/// The [`Rule`] in the `collide` property of `props`, if any.
fn rule_property(
    b: &Builder<'_>,
    props: &Properties,
    layer: &str,
    what: &str,
) -> Result<Option<Rule>, MapError> {
    let key = &b.cfg.rule_property;
    match props.get(key) {
        None => Ok(None),
        Some(PropertyValue::StringValue(s)) => Rule::parse(s).map(Some).ok_or_else(|| {
            MapError::BadProperty {
                file: b.file.clone(),
                layer: layer.to_owned(),
                object: what.to_owned(),
                property: key.clone(),
                reason: format!("{s:?} is not a rule (wall, brick[:K], slope:1|3|7|9, one_way, sensor[:k], kinematic, dynamic, none)"),
            }
        }),
        Some(other) => Err(MapError::BadProperty {
            file: b.file.clone(),
            layer: layer.to_owned(),
            object: what.to_owned(),
            property: key.clone(),
            reason: format!("expected a string, found {other:?}"),
        }),
    }
}

/// A slope's solid corner after Tiled's flips of its tile: diagonal flip first (a transpose,
/// swapping x and y), then horizontal, then vertical (the order Tiled applies them).
fn flip_corner(c: Corner, h: bool, v: bool, d: bool) -> Corner {
    // (right, bottom) of the solid corner.
    let (mut right, mut bottom) = match c {
        Corner::TopLeft => (false, false),
        Corner::TopRight => (true, false),
        Corner::BottomLeft => (false, true),
        Corner::BottomRight => (true, true),
    };
    if d {
        std::mem::swap(&mut right, &mut bottom);
    }
    right ^= h;
    bottom ^= v;
    match (right, bottom) {
        (false, false) => Corner::TopLeft,
        (true, false) => Corner::TopRight,
        (false, true) => Corner::BottomLeft,
        (true, true) => Corner::BottomRight,
    }
}

fn field_value(v: &PropertyValue) -> FieldValue {
    match v {
        PropertyValue::BoolValue(b) => FieldValue::Bool(*b),
        PropertyValue::FloatValue(f) => FieldValue::Float(Real::from(*f)),
        PropertyValue::IntValue(i) => FieldValue::Int(i64::from(*i)),
        PropertyValue::ColorValue(c) => FieldValue::Text(format!(
            "#{:02x}{:02x}{:02x}{:02x}",
            c.alpha, c.red, c.green, c.blue
        )),
        PropertyValue::StringValue(s) | PropertyValue::FileValue(s) => FieldValue::Text(s.clone()),
        PropertyValue::ObjectValue(id) => FieldValue::ObjectRef(id.to_string()),
        PropertyValue::ClassValue { properties, .. } => {
            FieldValue::Class(sorted_fields(properties))
        }
    }
}

fn sorted_fields(props: &Properties) -> Vec<(String, FieldValue)> {
    let mut v: Vec<(String, FieldValue)> = props
        .iter()
        .map(|(k, v)| (k.clone(), field_value(v)))
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

/// `(cos, sin)` of a clockwise rotation of `degrees`, exact for multiples of 90°.
fn rotation(degrees: Real) -> (Real, Real, bool) {
    let quarter = degrees / 90.0;
    if quarter == quarter.round() && quarter.abs() < 1e9 {
        let k = (quarter.round() as i64).rem_euclid(4);
        let (c, s) = [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)][k as usize];
        return (c, s, true);
    }
    // libm's sine and cosine (collide_core::sin_cos): the same bits on every platform, so a
    // map loads into the same world everywhere.
    let (s, c) = collide_world::collide_core::sin_cos(degrees.to_radians());
    (c, s, false)
}

/// A [`MapError::BadProperty`] of object `what` on `layer`.
fn bad_property(
    b: &Builder<'_>,
    layer: &str,
    what: &str,
    property: &str,
    reason: String,
) -> MapError {
    MapError::BadProperty {
        file: b.file.clone(),
        layer: layer.to_owned(),
        object: what.to_owned(),
        property: property.to_owned(),
        reason,
    }
}

/// Adds one object to the table and, when it is a collider, to the scene. Returns whether it
/// is a collider.
fn add_object(
    b: &mut Builder<'_>,
    obj: &ObjectData,
    tile_props: Option<&Properties>,
    layer_rule: Option<Rule>,
    layer: &str,
    offset: Vec2,
    ignored: &mut Vec<(String, usize)>,
) -> Result<bool, MapError> {
    let id = obj.id().to_string();
    let pos = offset + Vec2::new(Real::from(obj.x), Real::from(obj.y));
    let is_tile = obj.tile_data().is_some();
    let (w, h) = match &obj.shape {
        ObjectShape::Rect { width, height }
        | ObjectShape::Ellipse { width, height }
        | ObjectShape::Text { width, height, .. } => (Real::from(*width), Real::from(*height)),
        _ => (0.0, 0.0),
    };
    let top_left = if is_tile {
        pos - Vec2::new(0.0, h)
    } else {
        pos
    };
    let index = b.objects.len();
    b.objects.push(MapObject {
        id: id.clone(),
        name: obj.name.clone(),
        kind: obj.user_type.clone(),
        layer: layer.to_owned(),
        pos,
        top_left,
        size: Vec2::new(w, h),
        rotation: Real::from(obj.rotation),
        fields: sorted_fields(&obj.properties),
        rule: Rule::None,
        body: ObjectBody::None,
    });
    let what = format!("object {id}");
    let Some(rule) = object_rule(b, obj, tile_props, layer_rule, layer, &what)? else {
        if matches!(obj.shape, ObjectShape::Point(..)) {
            b.objects[index].body = ObjectBody::Point;
        }
        return Ok(false);
    };
    let material = object_material(b, obj, layer, &what, ignored)?;
    let geometry =
        object_geometry(obj, pos, is_tile, w, h).map_err(|reason| MapError::Unmappable {
            file: b.file.clone(),
            layer: layer.to_owned(),
            object: id.clone(),
            reason,
        })?;
    b.add_collider(index, layer, geometry, rule, material)?;
    Ok(true)
}

/// An object's collider rule: its own `collide`, then `bodyType`, then its tile's `collide`,
/// then the layer's; a wall with a one-way flag is one-way, any collider with the sensor flag
/// a sensor. `None` when it is not a collider.
fn object_rule(
    b: &Builder<'_>,
    obj: &ObjectData,
    tile_props: Option<&Properties>,
    layer_rule: Option<Rule>,
    layer: &str,
    what: &str,
) -> Result<Option<Rule>, MapError> {
    let mut rule = rule_property(b, &obj.properties, layer, what)?;
    if rule.is_none() {
        if let Some(key) = &b.cfg.body_type_property {
            match obj.properties.get(key) {
                None => {}
                Some(PropertyValue::StringValue(s)) => {
                    rule = Some(match s.trim().to_ascii_lowercase().as_str() {
                        "static" => Rule::Wall,
                        "kinematic" => Rule::Kinematic,
                        "dynamic" => Rule::Dynamic,
                        _ => {
                            let reason = format!("{s:?} is not static, kinematic or dynamic");
                            return Err(bad_property(b, layer, what, key, reason));
                        }
                    })
                }
                Some(other) => {
                    let reason = format!("expected a string, found {other:?}");
                    return Err(bad_property(b, layer, what, key, reason));
                }
            }
        }
    }
    if rule.is_none() {
        if let Some(tp) = tile_props {
            rule = rule_property(b, tp, layer, what)?;
        }
    }
    let mut rule = match rule.or(layer_rule) {
        None | Some(Rule::None) => return Ok(None),
        Some(r) => r,
    };
    let flag = |key: &str| -> Result<bool, MapError> {
        match obj.properties.get(key) {
            None => Ok(false),
            Some(PropertyValue::BoolValue(v)) => Ok(*v),
            Some(other) => Err(bad_property(
                b,
                layer,
                what,
                key,
                format!("expected a bool, found {other:?}"),
            )),
        }
    };
    for key in &b.cfg.one_way_properties {
        if flag(key)? && rule == Rule::Wall {
            rule = Rule::OneWay;
        }
    }
    if flag(&b.cfg.sensor_property)? {
        rule = Rule::Sensor(b's');
    }
    Ok(Some(rule))
}

/// A collider's restitution and filter from its properties; the properties collide has no
/// use for are counted in `ignored`.
fn object_material(
    b: &Builder<'_>,
    obj: &ObjectData,
    layer: &str,
    what: &str,
    ignored: &mut Vec<(String, usize)>,
) -> Result<Material, MapError> {
    let cfg = b.cfg;
    let bad = |key: &str, reason: String| bad_property(b, layer, what, key, reason);
    let restitution = match obj.properties.get(&cfg.restitution_property) {
        None => None,
        Some(PropertyValue::FloatValue(f)) => Some(Real::from(*f)),
        Some(PropertyValue::IntValue(i)) => Some(Real::from(*i)),
        Some(other) => {
            return Err(bad(
                &cfg.restitution_property,
                format!("expected a number, found {other:?}"),
            ))
        }
    };
    let max = collide_world::limits::MAX_RESTITUTION;
    if let Some(r) = restitution.filter(|r| !(0.0..=max).contains(r)) {
        return Err(bad(
            &cfg.restitution_property,
            format!("{r} is outside [0, {max}]"),
        ));
    }
    let int = |key: &str| -> Result<Option<u32>, MapError> {
        match obj.properties.get(key) {
            None => Ok(None),
            // Tiled's integers are signed 32-bit: the bits are the mask (-1 = every layer).
            Some(PropertyValue::IntValue(i)) => Ok(Some(*i as u32)),
            Some(other) => Err(bad(key, format!("expected an int, found {other:?}"))),
        }
    };
    let mut filter = Filter::DEFAULT;
    if let Some(l) = int(&cfg.filter_properties.0)? {
        filter.layers = l;
    }
    if let Some(m) = int(&cfg.filter_properties.1)? {
        filter.mask = m;
    }
    let mut known: Vec<&str> = vec![
        &cfg.rule_property,
        &cfg.restitution_property,
        &cfg.filter_properties.0,
        &cfg.filter_properties.1,
        &cfg.sensor_property,
    ];
    known.extend(cfg.body_type_property.as_deref());
    known.extend(cfg.one_way_properties.iter().map(String::as_str));
    // In name order: the properties are a hash map, and the report is the same on every run.
    let mut keys: Vec<&String> = obj.properties.keys().collect();
    keys.sort();
    for key in keys {
        if !known.contains(&key.as_str()) {
            match ignored.iter_mut().find(|(k, _)| k == key) {
                Some((_, n)) => *n += 1,
                None => ignored.push((key.clone(), 1)),
            }
        }
    }
    Ok(Material {
        restitution,
        filter,
    })
}

/// A collider's geometry in level pixels: the object's shape rotated clockwise by its
/// rotation about `pos` (a tile object's box hangs above `pos`, its bottom-left corner).
/// `Err` names why the shape cannot be a collider.
fn object_geometry(
    obj: &ObjectData,
    pos: Vec2,
    is_tile: bool,
    w: Real,
    h: Real,
) -> Result<Geometry, String> {
    let (c, s, quarter) = rotation(Real::from(obj.rotation));
    let place = |p: Vec2| pos + Vec2::new(c * p.x - s * p.y, s * p.x + c * p.y);
    Ok(match &obj.shape {
        ObjectShape::Rect { .. } => {
            let local = if is_tile {
                [(0.0, -h), (w, -h), (w, 0.0), (0.0, 0.0)]
            } else {
                [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
            };
            let corners: Vec<Vec2> = local.iter().map(|&(x, y)| place(Vec2::new(x, y))).collect();
            if quarter {
                let min = corners
                    .iter()
                    .fold(Vec2::splat(Real::INFINITY), |a, p| a.min(*p));
                let max = corners
                    .iter()
                    .fold(Vec2::splat(Real::NEG_INFINITY), |a, p| a.max(*p));
                Geometry::Rect(Aabb::new(min, max))
            } else {
                Geometry::Polyline(corners, true)
            }
        }
        ObjectShape::Ellipse { .. } => {
            if (w - h).abs() > 1e-6 * w.abs().max(h.abs()) {
                return Err(format!(
                    "an ellipse of {w} x {h} px is not round: only circles can be colliders"
                ));
            }
            Geometry::Circle(place(Vec2::new(w, h) * 0.5), w * 0.5)
        }
        ObjectShape::Polygon { points } | ObjectShape::Polyline { points } => {
            let closed = matches!(obj.shape, ObjectShape::Polygon { .. });
            let pts = points
                .iter()
                .map(|&(x, y)| place(Vec2::new(Real::from(x), Real::from(y))))
                .collect();
            Geometry::Polyline(pts, closed)
        }
        ObjectShape::Point(..) => {
            return Err("a point cannot be a collider (it is a spawn point)".to_owned())
        }
        ObjectShape::Text { .. } => return Err("a text object cannot be a collider".to_owned()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flips_move_the_solid_corner() {
        use Corner::*;
        assert_eq!(flip_corner(BottomLeft, false, false, false), BottomLeft);
        assert_eq!(flip_corner(BottomLeft, true, false, false), BottomRight);
        assert_eq!(flip_corner(BottomLeft, false, true, false), TopLeft);
        assert_eq!(flip_corner(BottomLeft, true, true, false), TopRight);
        // Diagonal flip (a transpose, swapping x and y): (right, bottom) = (false, true)
        // becomes (true, false), top-right; top-left stays.
        assert_eq!(flip_corner(BottomLeft, false, false, true), TopRight);
        assert_eq!(flip_corner(TopLeft, false, false, true), TopLeft);
        // Rotating a tile 90° clockwise in Tiled sets diagonal + horizontal flips.
        assert_eq!(flip_corner(BottomLeft, true, false, true), TopLeft);
    }

    #[test]
    fn quarter_turns_are_exact() {
        assert_eq!(rotation(90.0), (0.0, 1.0, true));
        assert_eq!(rotation(-270.0), (0.0, 1.0, true));
        assert_eq!(rotation(180.0), (-1.0, 0.0, true));
        assert!(!rotation(10.0).2);
    }
}
