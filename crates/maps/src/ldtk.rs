//! LDtk projects (`.ldtk`) read by the `ldtk2` crate (LDtk JSON 1.5) and mapped to a collide
//! scene, one level at a time (the mapping tables are in `docs/maps.md`).
//!
//! - IntGrid layers named like a collision layer ([`MapConfig::collision_layers`]), or whose
//!   value identifiers are rules (`wall`, `slope:9`, `one_way`...), become grid cells: each
//!   value by its identifier ([`MapConfig::intgrid_rule`]: `ladder` a sensor, any other
//!   identifier without a rule a wall). One-way values become one-way rectangles.
//! - Entities go to the object table ([`MapLevel::objects`]) with their fields, never into
//!   physics.
//! - Tile and auto-layers are decoration, listed in [`crate::MapReport`].
//!
//! Levels saved in separate files (`externalRelPath`) are read from the project's folder.

use std::path::{Path, PathBuf};

use collide_world::{Real, Vec2};
use ldtk2::{LayerInstance, LdtkJson, Level};
use serde_json::Value;

use crate::build::Builder;
use crate::config::{MapConfig, Rule};
use crate::error::MapError;
use crate::model::{FieldValue, MapLevel, MapObject, ObjectBody};

/// Loads one level of the LDtk project `path`: the level whose identifier is `level`, else
/// whose 0-based index it is; the first level when `None`.
///
/// # Errors
/// [`MapError`]: the file (or the level's own file) cannot be read, the JSON does not follow
/// LDtk's 1.5 schema (the message has the line and column), no such level, an IntGrid
/// layer's data does not fit its size, two cell layers of different grids, a value whose
/// rule cells cannot have.
pub fn load_ldtk(
    path: impl AsRef<Path>,
    level: Option<&str>,
    cfg: &MapConfig,
) -> Result<MapLevel, MapError> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|source| MapError::Io {
        file: path.to_path_buf(),
        source,
    })?;
    load(path, &bytes, level, cfg, true)
}

/// Loads one level of an LDtk project from its bytes (`name` is the file name of the
/// errors); levels in separate files cannot be read this way ([`MapError::MissingFile`]).
///
/// # Errors
/// As [`load_ldtk`].
pub fn load_ldtk_bytes(
    name: &Path,
    bytes: &[u8],
    level: Option<&str>,
    cfg: &MapConfig,
) -> Result<MapLevel, MapError> {
    load(name, bytes, level, cfg, false)
}

/// The identifiers of the levels of the LDtk project `path`, in order.
///
/// # Errors
/// As [`load_ldtk`], for reading and parsing the file.
pub fn ldtk_levels(path: impl AsRef<Path>) -> Result<Vec<String>, MapError> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|source| MapError::Io {
        file: path.to_path_buf(),
        source,
    })?;
    let project = parse(path, &bytes)?;
    Ok(all_levels(&project).map(|l| l.identifier.clone()).collect())
}

fn parse(path: &Path, bytes: &[u8]) -> Result<LdtkJson, MapError> {
    serde_json::from_slice(bytes).map_err(|e| MapError::Parse {
        file: path.to_path_buf(),
        reason: format!("not an LDtk 1.5 project: {e}"),
    })
}

fn all_levels(p: &LdtkJson) -> impl Iterator<Item = &Level> {
    p.levels
        .iter()
        .chain(p.worlds.iter().flat_map(|w| w.levels.iter()))
}

fn load(
    path: &Path,
    bytes: &[u8],
    wanted: Option<&str>,
    cfg: &MapConfig,
    filesystem: bool,
) -> Result<MapLevel, MapError> {
    let file = path.to_path_buf();
    let project = parse(path, bytes)?;
    let levels: Vec<&Level> = all_levels(&project).collect();
    let chosen = match wanted {
        None => levels.first().copied(),
        Some(w) => levels
            .iter()
            .find(|l| l.identifier == w)
            .or_else(|| w.parse::<usize>().ok().and_then(|i| levels.get(i)))
            .copied(),
    };
    let Some(level) = chosen else {
        return Err(MapError::NoSuchLevel {
            file,
            wanted: wanted.unwrap_or("(first)").to_owned(),
            available: levels.iter().map(|l| l.identifier.clone()).collect(),
        });
    };
    let external;
    let layers: &[LayerInstance] = match (&level.layer_instances, &level.external_rel_path) {
        (Some(l), _) => l,
        (None, Some(rel)) => {
            let missing: PathBuf = path.parent().unwrap_or(Path::new("")).join(rel);
            let read = if filesystem {
                std::fs::read(&missing)
            } else {
                Err(std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "the project was loaded from memory: no other file can be read",
                ))
            };
            let bytes = read.map_err(|e| MapError::MissingFile {
                file: file.clone(),
                missing: missing.clone(),
                reason: e.to_string(),
            })?;
            let lv: Level = serde_json::from_slice(&bytes).map_err(|e| MapError::Parse {
                file: missing.clone(),
                reason: format!("not an LDtk 1.5 level: {e}"),
            })?;
            external = lv.layer_instances.unwrap_or_default();
            &external
        }
        (None, None) => &[],
    };
    if level.px_wid <= 0 || level.px_hei <= 0 {
        return Err(MapError::Grid {
            file,
            layer: level.identifier.clone(),
            reason: format!("the level is {} x {} px", level.px_wid, level.px_hei),
        });
    }
    let size = Vec2::new(level.px_wid as Real, level.px_hei as Real);
    let mut b = Builder::new(cfg, path, size);
    // LDtk lists the top layer first: the cells of the layers drawn on top win.
    for li in layers.iter().rev() {
        add_layer(&mut b, &project, li)?;
    }
    b.report.skipped_layers.reverse();
    Ok(b.finish(
        &level.identifier,
        Vec2::new(level.world_x as Real, level.world_y as Real),
    ))
}

fn add_layer(b: &mut Builder<'_>, project: &LdtkJson, li: &LayerInstance) -> Result<(), MapError> {
    let name = li.identifier.clone();
    let offset = Vec2::new(li.px_total_offset_x as Real, li.px_total_offset_y as Real);
    match li.layer_instance_type.as_str() {
        "IntGrid" => {
            let def = project
                .defs
                .layers
                .iter()
                .find(|d| d.uid == li.layer_def_uid);
            let ident = |v: i64| -> String {
                def.and_then(|d| d.int_grid_values.iter().find(|x| x.value == v))
                    .and_then(|x| x.identifier.clone())
                    .unwrap_or_default()
            };
            let by_rule = def.is_some_and(|d| {
                d.int_grid_values.iter().any(|x| {
                    x.identifier
                        .as_deref()
                        .is_some_and(|i| Rule::parse(i).is_some())
                })
            });
            if !b.cfg.is_collision_layer(&name) && !by_rule {
                b.report.skipped_layers.push((
                    name,
                    "IntGrid layer not named like a collision layer (MapConfig::collision_layers) \
                     and without rule identifiers"
                        .to_owned(),
                ));
                return Ok(());
            }
            let (cols, rows) = (li.c_wid.max(0) as usize, li.c_hei.max(0) as usize);
            if li.int_grid_csv.len() != cols.saturating_mul(rows) {
                return Err(MapError::Grid {
                    file: b.file.clone(),
                    layer: name,
                    reason: format!(
                        "intGridCsv has {} values for {cols} x {rows} cells",
                        li.int_grid_csv.len()
                    ),
                });
            }
            b.use_grid(&name, li.grid_size as Real, offset, cols, rows)?;
            let mut rules: Vec<(i64, Rule)> = Vec::new();
            for (i, &v) in li.int_grid_csv.iter().enumerate() {
                if v == 0 {
                    continue;
                }
                let rule = match rules.iter().find(|(x, _)| *x == v) {
                    Some(&(_, r)) => r,
                    None => {
                        let r = b.cfg.intgrid_rule(&ident(v));
                        rules.push((v, r));
                        r
                    }
                };
                if !b.set_cell(i % cols, i / cols, rule) {
                    return Err(MapError::BadProperty {
                        file: b.file.clone(),
                        layer: name,
                        object: format!("IntGrid value {v} ({:?})", ident(v)),
                        property: "identifier".to_owned(),
                        reason: format!("{rule:?} is for objects, not cells"),
                    });
                }
            }
        }
        "Entities" => {
            for e in &li.entity_instances {
                let size = Vec2::new(e.width as Real, e.height as Real);
                let px = |i: usize| e.px.get(i).copied().unwrap_or(0) as Real;
                let pivot = |i: usize| e.pivot.get(i).copied().unwrap_or(0.0);
                let pos = offset + Vec2::new(px(0), px(1));
                b.objects.push(MapObject {
                    id: e.iid.clone(),
                    name: e.identifier.clone(),
                    kind: e.identifier.clone(),
                    layer: name.clone(),
                    pos,
                    top_left: pos - Vec2::new(pivot(0), pivot(1)) * size,
                    size,
                    rotation: 0.0,
                    fields: e
                        .field_instances
                        .iter()
                        .map(|f| {
                            let v = f.value.as_ref().map_or(FieldValue::Null, field_value);
                            (f.identifier.clone(), v)
                        })
                        .collect(),
                    rule: Rule::None,
                    body: ObjectBody::None,
                });
            }
            b.report.skipped_layers.push((
                name,
                format!(
                    "entity layer: {} entities kept in the object table",
                    li.entity_instances.len()
                ),
            ));
        }
        other => b
            .report
            .skipped_layers
            .push((name, format!("{other} layer (decoration)"))),
    }
    Ok(())
}

fn field_value(v: &Value) -> FieldValue {
    match v {
        Value::Null => FieldValue::Null,
        Value::Bool(b) => FieldValue::Bool(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => FieldValue::Int(i),
            None => FieldValue::Float(n.as_f64().unwrap_or(Real::NAN)),
        },
        Value::String(s) => FieldValue::Text(s.clone()),
        Value::Array(a) => FieldValue::List(a.iter().map(field_value).collect()),
        Value::Object(o) => {
            if let (Some(cx), Some(cy)) = (
                o.get("cx").and_then(Value::as_i64),
                o.get("cy").and_then(Value::as_i64),
            ) {
                return FieldValue::Point { cx, cy };
            }
            if let Some(iid) = o.get("entityIid").and_then(Value::as_str) {
                return FieldValue::ObjectRef(iid.to_owned());
            }
            let mut members: Vec<(String, FieldValue)> =
                o.iter().map(|(k, v)| (k.clone(), field_value(v))).collect();
            members.sort_by(|a, b| a.0.cmp(&b.0));
            FieldValue::Class(members)
        }
    }
}
