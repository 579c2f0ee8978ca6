//! Tiled JSON maps (`.tmj`, `.tsj`) load into exactly the world their `.tmx` twins load into:
//! Sticker Knight converted by `tests/data/tmx2tmj.py` (same cells, shapes, object table,
//! report, and the same state hash after stepping balls on it), a small map with every
//! feature, an external `.tsx` tileset named by a `.tmj`; and the bad JSON inputs are typed
//! errors naming the file and what is wrong.

mod common;

use std::path::{Path, PathBuf};

use collide_maps::tiled::load_tmx_bytes;
use collide_maps::{MapConfig, MapError, MapLevel};
use collide_world::{BallDesc, Cell, Vec2, World};

fn data(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

fn load(path: &Path) -> MapLevel {
    collide_maps::load(path, None, &MapConfig::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `level` with the file it was read from replaced by `file`, and the missing templates
/// named relative to the map's folder: the only fields in which a map and its twin in
/// another folder may differ.
fn read_from(mut level: MapLevel, file: &Path) -> MapLevel {
    let dir = level.file.parent().unwrap().to_path_buf();
    let twin_dir = file.parent().unwrap();
    for t in &mut level.report.missing_templates {
        *t = twin_dir.join(t.strip_prefix(&dir).unwrap());
    }
    level.file = file.to_path_buf();
    level
}

/// Asserts `a == b`, showing the first line of their pretty debug forms that differs.
fn assert_same(a: &MapLevel, b: &MapLevel) {
    if a != b {
        let (x, y) = (format!("{a:#?}"), format!("{b:#?}"));
        let at = x.lines().zip(y.lines()).position(|(p, q)| p != q);
        let line =
            |s: &str, i: Option<usize>| i.and_then(|i| s.lines().nth(i)).unwrap_or("").to_owned();
        panic!(
            "the levels differ at line {at:?}: {:?} vs {:?}",
            line(&x, at),
            line(&y, at)
        );
    }
}

/// The state hash of `level`'s world after `steps` steps with 40 balls of radius 6 dropped
/// on a line from the top (x every 60 px from 40, y = 20, sideways speeds of ±50 units/s),
/// under its gravity.
fn hash_after(level: &MapLevel, steps: usize) -> u64 {
    let mut world: World = level.world().unwrap();
    for i in 0..40 {
        world
            .add_ball(BallDesc {
                pos: Vec2::new(40.0 + 60.0 * f64::from(i), 20.0),
                vel: Vec2::new(if i % 2 == 0 { 50.0 } else { -50.0 }, 0.0),
                radius: 6.0,
                surface: collide_world::Surface::DEFAULT.with_restitution(0.5),
                ..BallDesc::default()
            })
            .unwrap();
    }
    for _ in 0..steps {
        world.step();
    }
    world.state_hash()
}

#[test]
fn sticker_knight_as_tmj_loads_the_same_world_as_the_tmx() {
    let tmx = load(&common::sticker_knight());
    let tmj = read_from(load(&data("sticker-knight/sandbox.tmj")), &tmx.file);
    assert_eq!(tmj.objects.len(), 114);
    assert_eq!(tmj.scene.rects.len(), tmx.scene.rects.len());
    assert_eq!(tmj.one_way, tmx.one_way);
    assert_eq!(tmj.objects, tmx.objects);
    assert_eq!(tmj.report, tmx.report);
    assert_same(&tmj, &tmx);
    let (a, b) = (hash_after(&tmx, 240), hash_after(&tmj, 240));
    assert_eq!(a, b);
    // The balls moved: the hash is not the starting one.
    assert_ne!(a, hash_after(&tmx, 0));
}

#[test]
fn a_map_with_every_feature_loads_the_same_from_tmj_and_tmx() {
    let tmx = load(&data("features/features.tmx"));
    let tmj = read_from(load(&data("features/features.tmj")), &tmx.file);
    // What the map holds (the .tmx path's own tests check each mapping): a grid, every
    // object in the table, colliders of every shape.
    let grid = tmx.scene.grid.as_ref().expect("tile layers give a grid");
    assert_eq!((grid.cols, grid.rows), (4, 3));
    assert_eq!(tmx.objects.len(), 10);
    assert!(tmx.object("Player").is_some());
    assert_eq!(tmj.scene.grid, tmx.scene.grid);
    assert_eq!(tmj.scene.rects, tmx.scene.rects);
    assert_eq!(tmj.scene.shapes, tmx.scene.shapes);
    assert_eq!(tmj.objects, tmx.objects);
    assert_same(&tmj, &tmx);
    assert_eq!(hash_after(&tmx, 60), hash_after(&tmj, 60));
}

#[test]
fn a_tmj_map_reads_an_external_tsx_tileset() {
    let dir = std::env::temp_dir().join(format!("collide-tmj-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tsx = common::shared_maps().join("tiled/sticker-knight/objs.tsx");
    let text = std::fs::read_to_string(data("sticker-knight/sandbox.tmj")).unwrap();
    let text = text.replace(
        "\"objs.tsj\"",
        &serde_json::to_string(&tsx.to_string_lossy()).unwrap(),
    );
    let path = dir.join("sandbox.tmj");
    std::fs::write(&path, text).unwrap();
    let level = load(&path);
    std::fs::remove_dir_all(&dir).unwrap();
    let tmx = load(&common::sticker_knight());
    assert_same(&read_from(level, &tmx.file), &tmx);
}

fn tmj(orientation: &str, infinite: bool, tileset: &str, layers: &str) -> String {
    format!(
        r#"{{"type": "map", "version": "1.10", "orientation": "{orientation}",
 "renderorder": "right-down", "width": 2, "height": 2, "tilewidth": 8, "tileheight": 8,
 "infinite": {infinite}, "tilesets": [{tileset}],
 "layers": [{layers}]}}"#
    )
}

const EMBEDDED: &str = r#"{"firstgid": 1, "name": "t", "tilewidth": 8, "tileheight": 8,
 "tilecount": 2, "columns": 2, "image": "t.png", "imagewidth": 16, "imageheight": 8}"#;

const LAYER: &str = r#"{"type": "tilelayer", "id": 1, "name": "Collision", "width": 2,
 "height": 2, "data": [0, 0, 1, 1]}"#;

fn load_json(name: &str, text: &str) -> Result<MapLevel, MapError> {
    load_tmx_bytes(Path::new(name), text.as_bytes(), &MapConfig::default())
}

#[test]
fn a_small_tmj_gives_its_cells() {
    let level = load_json("ok.tmj", &tmj("orthogonal", false, EMBEDDED, LAYER)).unwrap();
    let grid = level.scene.grid.as_ref().unwrap();
    assert_eq!((grid.cols, grid.rows, grid.cell), (2, 2, 8.0));
    assert_eq!(grid.cells.iter().filter(|c| **c != Cell::Empty).count(), 2);
    assert_eq!(level.name, "ok");
}

#[test]
fn bad_tmj_maps_are_typed_errors_naming_what_is_wrong() {
    let chunked = r#"{"type": "tilelayer", "id": 1, "name": "Collision", "width": 2,
 "height": 2, "chunks": [{"x": 0, "y": 0, "width": 2, "height": 2, "data": [1, 1, 1, 1]}]}"#;
    let cases: Vec<(&str, String, Vec<&str>)> = vec![
        (
            "malformed JSON",
            "{\"type\": \"map\",\n \"orientation\": \"orthogonal\" \"width\": 2}".to_owned(),
            vec!["bad.tmj", "line 2", "column"],
        ),
        (
            "wrong type",
            tmj("orthogonal", false, EMBEDDED, LAYER).replace("\"width\": 2,", "\"width\": \"2\","),
            vec!["bad.tmj", "width", "line 2"],
        ),
        (
            "missing field",
            r#"{"type": "map", "width": 2}"#.to_owned(),
            vec!["bad.tmj", "orientation"],
        ),
        (
            "missing tileset",
            tmj(
                "orthogonal",
                false,
                r#"{"firstgid": 1, "source": "nowhere.tsj"}"#,
                LAYER,
            ),
            vec!["bad.tmj", "nowhere.tsj"],
        ),
        (
            "infinite map",
            tmj("orthogonal", true, EMBEDDED, chunked),
            vec!["bad.tmj", "infinite"],
        ),
        (
            "chunked layer",
            tmj("orthogonal", false, EMBEDDED, chunked),
            vec!["bad.tmj", "infinite"],
        ),
        (
            "isometric",
            tmj("isometric", false, EMBEDDED, LAYER),
            vec!["bad.tmj", "isometric"],
        ),
        (
            "hexagonal",
            tmj("hexagonal", false, EMBEDDED, LAYER),
            vec!["bad.tmj", "hexagonal"],
        ),
        (
            "unknown layer type",
            tmj(
                "orthogonal",
                false,
                EMBEDDED,
                r#"{"type": "sprites", "name": "x"}"#,
            ),
            vec!["bad.tmj", "\"x\"", "sprites"],
        ),
        (
            "zstd layer",
            tmj(
                "orthogonal",
                false,
                EMBEDDED,
                r#"{"type": "tilelayer", "id": 1, "name": "Collision", "width": 2, "height": 2,
 "encoding": "base64", "compression": "zstd", "data": "KLUv/SAwAQEA"}"#,
            ),
            vec!["bad.tmj"],
        ),
        (
            "short layer",
            tmj(
                "orthogonal",
                false,
                EMBEDDED,
                &LAYER.replace("[0, 0, 1, 1]", "[0, 0, 1]"),
            ),
            vec!["bad.tmj", "\"Collision\"", "2 x 2", "3 tiles"],
        ),
        (
            // Inflates to 12 tiles: a 4 x 3 layer's data in a 2 x 2 layer.
            "long zlib layer",
            tmj(
                "orthogonal",
                false,
                EMBEDDED,
                r#"{"type": "tilelayer", "id": 1, "name": "Collision", "width": 2, "height": 2,
 "encoding": "base64", "compression": "zlib", "data": "eJxjYCAMWKAYBAAAgAAJ"}"#,
            ),
            vec!["bad.tmj", "\"Collision\"", "2 x 2"],
        ),
        (
            "bad rule",
            tmj(
                "orthogonal",
                false,
                EMBEDDED,
                r#"{"type": "objectgroup", "id": 2, "name": "things", "objects": [{"id": 7,
 "x": 0, "y": 0, "width": 4, "height": 4,
 "properties": [{"name": "collide", "type": "string", "value": "slope:5"}]}]}"#,
            ),
            vec!["bad.tmj", "things", "object 7", "slope:5"],
        ),
    ];
    for (what, text, words) in cases {
        let e = match load_json("bad.tmj", &text) {
            Ok(_) => panic!("{what}: loaded"),
            Err(e) => e,
        };
        let msg = e.to_string();
        for w in words {
            assert!(msg.contains(w), "{what}: {msg:?} lacks {w:?}");
        }
        match what {
            "missing tileset" => assert!(matches!(e, MapError::MissingFile { .. }), "{e:?}"),
            "infinite map" | "chunked layer" => {
                assert!(matches!(e, MapError::InfiniteMap { .. }), "{e:?}")
            }
            "isometric" | "hexagonal" => {
                assert!(
                    matches!(e, MapError::UnsupportedOrientation { .. }),
                    "{e:?}"
                )
            }
            "malformed JSON" | "wrong type" | "missing field" => {
                assert!(matches!(e, MapError::Parse { .. }), "{e:?}")
            }
            _ => {}
        }
    }
}

#[test]
fn a_bad_tsj_tileset_is_a_parse_error_naming_it() {
    let dir = std::env::temp_dir().join(format!("collide-tsj-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("t.tsj"), "{\"name\": \"t\", \"tilewidth\": \"8\"}").unwrap();
    let map = dir.join("m.tmj");
    let text = tmj(
        "orthogonal",
        false,
        r#"{"firstgid": 1, "source": "t.tsj"}"#,
        LAYER,
    );
    std::fs::write(&map, text).unwrap();
    let e = collide_maps::load(&map, None, &MapConfig::default()).unwrap_err();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(matches!(e, MapError::Parse { .. }), "{e:?}");
    let msg = e.to_string();
    assert!(
        msg.contains("t.tsj") && msg.contains("tilewidth") && msg.contains("line 1"),
        "{msg}"
    );
}

#[test]
fn a_map_and_its_tileset_load_from_memory_as_from_files() {
    let dir = common::shared_maps().join("tiled/sticker-knight");
    let map = std::fs::read(dir.join("sandbox.tmx")).unwrap();
    let tsx = std::fs::read(dir.join("objs.tsx")).unwrap();
    let cfg = MapConfig::default();
    let name = Path::new("maps/sandbox.tmx");
    let level = collide_maps::tiled::load_tmx_with_files(
        name,
        &map,
        &[(Path::new("maps/objs.tsx"), &tsx)],
        &cfg,
    )
    .unwrap();
    let tmx = load(&common::sticker_knight());
    assert_same(&read_from(level, &tmx.file), &tmx);
    // Without the tileset: the missing file is named.
    let e = collide_maps::tiled::load_tmx_with_files(name, &map, &[], &cfg).unwrap_err();
    assert!(
        matches!(e, MapError::MissingFile { .. }) && e.to_string().contains("objs.tsx"),
        "{e}"
    );
}
