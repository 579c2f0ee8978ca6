//! The table of bad inputs: each map is refused with the typed error that names the file,
//! the layer and the object, never a panic; and small maps whose mapping is computed by hand.

mod common;

use std::path::Path;

use collide_maps::ldtk::load_ldtk_bytes;
use collide_maps::tiled::load_tmx_bytes;
use collide_maps::{MapConfig, MapError, ObjectBody, Rule};
use collide_world::{Aabb, Cell, Corner, ShapeKind, Vec2};

fn tmx(orientation: &str, infinite: u8, tile: (u32, u32), body: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="{orientation}" renderorder="right-down" width="4" height="3" tilewidth="{}" tileheight="{}" infinite="{infinite}" nextlayerid="3" nextobjectid="9">
 <tileset firstgid="1" name="t" tilewidth="{}" tileheight="{}" tilecount="4" columns="4">
  <image source="t.png" width="64" height="16"/>
  <tile id="1"><properties><property name="collide" value="slope:1"/></properties></tile>
  <tile id="2"><properties><property name="collide" value="one_way"/></properties></tile>
  <tile id="3"><properties><property name="collide" value="brick:R"/></properties></tile>
 </tileset>
{body}
</map>"#,
        tile.0, tile.1, tile.0, tile.1
    )
}

const GROUND: &str = r#" <layer id="1" name="Collision" width="4" height="3">
  <data encoding="csv">
0,0,0,0,
2,3,3,4,
1,1,1,1
</data>
 </layer>"#;

fn load_tiled(text: &str) -> Result<collide_maps::MapLevel, MapError> {
    load_tmx_bytes(Path::new("bad.tmx"), text.as_bytes(), &MapConfig::default())
}

fn objects(body: &str) -> String {
    tmx(
        "orthogonal",
        0,
        (16, 16),
        &format!(" <objectgroup id=\"2\" name=\"things\">\n{body}\n </objectgroup>"),
    )
}

#[test]
fn a_tile_layer_becomes_cells_with_the_tiles_rules() {
    let m = load_tiled(&tmx("orthogonal", 0, (16, 16), GROUND)).unwrap();
    let g = m.scene.grid.as_ref().unwrap();
    assert_eq!((g.cols, g.rows, g.cell), (4, 3, 16.0));
    use Cell::*;
    // Row 1: tile 1 (gid 2) a slope ◣, two one-way tiles (gid 3, now empty cells), a brick.
    assert_eq!(
        &g.cells[4..8],
        &[Slope(Corner::BottomLeft), Empty, Empty, Brick(b'R')]
    );
    // Row 2: the layer is a collision layer: plain tiles are walls.
    assert_eq!(&g.cells[8..], &[Wall; 4]);
    // The two one-way cells are one one-way rectangle.
    assert_eq!(m.one_way, vec![0]);
    assert_eq!(
        m.scene.rects[0].aabb,
        Aabb::new(Vec2::new(16.0, 16.0), Vec2::new(48.0, 32.0))
    );
}

/// The layer-size check passes full layers: the same 4 x 3 layer of walls as csv and as zlib
/// base64 loads to the same cells (`<tile>` elements the `tiled` crate refuses by itself).
#[test]
fn full_layers_of_every_encoding_load_the_same_cells() {
    let datas = [
        r#"<data encoding="csv">1,1,1,1,1,1,1,1,1,1,1,1</data>"#.to_owned(),
        r#"<data encoding="base64" compression="zlib">eJxjZGBgYCQBAwABaAAN</data>"#.to_owned(),
    ];
    for d in datas {
        let body = format!(r#"<layer id="1" name="Collision" width="4" height="3">{d}</layer>"#);
        let m = load_tiled(&tmx("orthogonal", 0, (16, 16), &body))
            .unwrap_or_else(|e| panic!("{d}: {e}"));
        let g = m.scene.grid.as_ref().unwrap();
        assert_eq!(g.cells, vec![Cell::Wall; 12], "{d}");
    }
}

#[test]
fn objects_become_rects_polylines_circles_and_points() {
    let m = load_tiled(&objects(
        r#"  <object id="1" name="box" x="10" y="20" width="30" height="5"><properties><property name="collide" value="wall"/><property name="restitution" type="float" value="0.25"/></properties></object>
  <object id="2" name="tilted" x="0" y="0" width="10" height="10" rotation="45"><properties><property name="collide" value="wall"/></properties></object>
  <object id="3" name="ring" x="20" y="20" width="8" height="8"><properties><property name="collide" value="sensor"/></properties><ellipse/></object>
  <object id="4" name="ramp" x="5" y="5"><properties><property name="collide" value="wall"/></properties><polyline points="0,0 10,0 20,0 20,10"/></object>
  <object id="5" name="spawn" type="Spawn" x="7" y="8"><point/></object>
  <object id="6" name="lift" x="0" y="40" width="16" height="4" rotation="90"><properties><property name="bodyType" value="kinematic"/></properties></object>"#,
    ))
    .unwrap();
    let s = &m.scene;
    let boxed = m.object("box").unwrap();
    let ObjectBody::Rects(r) = &boxed.body else {
        panic!()
    };
    assert_eq!(
        s.rects[r[0]].aabb,
        Aabb::new(Vec2::new(10.0, 20.0), Vec2::new(40.0, 25.0))
    );
    assert_eq!(s.rects[r[0]].surface.restitution, Some(0.25));
    // 45° about (0, 0): corners (0,0), (7.07, 7.07), (0, 14.14), (-7.07, 7.07): one solid
    // convex polygon.
    let ObjectBody::Shapes { start, count } = m.object("tilted").unwrap().body else {
        panic!()
    };
    assert_eq!(count, 1);
    let ShapeKind::Polygon { polygon, .. } = s.shapes[start].kind else {
        panic!("{:?}", s.shapes[start].kind)
    };
    let h = 10.0 / 2f64.sqrt();
    assert_eq!(polygon.len(), 4);
    for corner in [
        Vec2::ZERO,
        Vec2::new(h, h),
        Vec2::new(0.0, 2.0 * h),
        Vec2::new(-h, h),
    ] {
        assert!(
            polygon
                .vertices()
                .iter()
                .any(|v| (*v - corner).length() < 1e-12),
            "{corner} not among {:?}",
            polygon.vertices()
        );
    }
    // Round ellipse: a sensor circle of radius 4 at (24, 24).
    let ObjectBody::Shapes { start, .. } = m.object("ring").unwrap().body else {
        panic!()
    };
    assert!(s.shapes[start].surface.sensor);
    assert_eq!(
        s.shapes[start].kind,
        ShapeKind::Circle(collide_world::Circle::new(Vec2::new(24.0, 24.0), 4.0))
    );
    // Polyline with a straight joint: 3 segments, the joint at (15, 5) not an obstacle.
    let ObjectBody::Shapes { count, .. } = m.object("ramp").unwrap().body else {
        panic!()
    };
    assert_eq!(count, 3);
    // A point: a spawn point in the table and an entity of kind "Spawn".
    let spawn = m.object("spawn").unwrap();
    assert_eq!(
        (spawn.body.clone(), spawn.pos),
        (ObjectBody::Point, Vec2::new(7.0, 8.0))
    );
    assert_eq!(
        m.entities().count(),
        0,
        "a point is a spawn point, not an entity without body"
    );
    // Rotated by 90° about its top-left (0, 40): x from -4 to 0, y from 40 to 56; kinematic.
    let lift = m.object("lift").unwrap();
    assert_eq!(lift.rule, Rule::Kinematic);
    let ObjectBody::Rects(r) = &lift.body else {
        panic!()
    };
    assert_eq!(
        s.rects[r[0]].aabb,
        Aabb::new(Vec2::new(-4.0, 40.0), Vec2::new(0.0, 56.0))
    );
    assert_eq!(s.rects[r[0]].kind, collide_world::RectKind::Kinematic);
}

/// The table of bad inputs: (what, map text, words the error must contain).
#[test]
fn bad_tiled_maps_are_typed_errors_naming_what_is_wrong() {
    let cases: Vec<(&str, String, Vec<&str>)> = vec![
        ("isometric", tmx("isometric", 0, (16, 16), GROUND), vec!["bad.tmx", "isometric"]),
        ("hexagonal", tmx("hexagonal", 0, (16, 16), GROUND), vec!["hexagonal"]),
        ("infinite", tmx("orthogonal", 1, (16, 16), ""), vec!["infinite"]),
        ("non-square tiles", tmx("orthogonal", 0, (16, 8), GROUND), vec!["16 x 8"]),
        (
            "missing tileset",
            r#"<map version="1.10" orientation="orthogonal" renderorder="right-down" width="2" height="2" tilewidth="8" tileheight="8" infinite="0"><tileset firstgid="1" source="nowhere.tsx"/></map>"#.to_owned(),
            vec!["nowhere.tsx"],
        ),
        (
            "zstd layer",
            tmx("orthogonal", 0, (16, 16), r#"<layer id="1" name="Collision" width="4" height="3"><data encoding="base64" compression="zstd">KLUv/SAwAQEA</data></layer>"#),
            vec!["bad.tmx"],
        ),
        (
            "unknown encoding",
            tmx("orthogonal", 0, (16, 16), r#"<layer id="1" name="Collision" width="4" height="3"><data encoding="rot13">abc</data></layer>"#),
            vec!["bad.tmx"],
        ),
        ("malformed XML", "<map orientation=\"orthogonal\"".to_owned(), vec!["bad.tmx"]),
        // Tile layers whose data is not width x height tiles (the `tiled` crate indexes a
        // short one out of bounds): refused before it reads them.
        (
            "short csv layer",
            tmx("orthogonal", 0, (16, 16), r#"<layer id="1" name="Collision" width="4" height="3"><data encoding="csv">1,1,1,1,1,1,1,1,1,1,1</data></layer>"#),
            vec!["bad.tmx", "layer \"Collision\" (id 1)", "4 x 3 tiles", "11 tiles of data"],
        ),
        (
            "long csv layer",
            tmx("orthogonal", 0, (16, 16), r#"<layer id="1" name="Collision" width="4" height="3"><data encoding="csv">1,1,1,1,1,1,1,1,1,1,1,1,1</data></layer>"#),
            vec!["Collision", "13 tiles of data"],
        ),
        (
            "short base64 layer",
            tmx("orthogonal", 0, (16, 16), r#"<layer id="1" name="Collision" width="4" height="3"><data encoding="base64">
   AQAAAAEAAAABAAAAAQAAAAEAAAABAAAAAQAAAAEAAAABAAAAAQAAAAEAAAA=
  </data></layer>"#),
            vec!["Collision", "11 tiles of data"],
        ),
        (
            "short zlib layer",
            tmx("orthogonal", 0, (16, 16), r#"<layer id="1" name="Collision" width="4" height="3"><data encoding="base64" compression="zlib">eJxjZGBgYCQSAwABNAAM</data></layer>"#),
            vec!["Collision", "11 tiles of data"],
        ),
        (
            "short gzip layer",
            tmx("orthogonal", 0, (16, 16), r#"<layer id="1" name="Collision" width="4" height="3"><data encoding="base64" compression="gzip">H4sIAAAAAAACA2NkYGBgJBIDAH8EzsYsAAAA</data></layer>"#),
            vec!["Collision", "11 tiles of data"],
        ),
        (
            "broken zlib layer",
            tmx("orthogonal", 0, (16, 16), r#"<layer id="1" name="Collision" width="4" height="3"><data encoding="base64" compression="zlib">AQAAAAEAAAA=</data></layer>"#),
            vec!["Collision", "zlib data cannot be inflated"],
        ),
        (
            "not base64",
            tmx("orthogonal", 0, (16, 16), r#"<layer id="1" name="Collision" width="4" height="3"><data encoding="base64">!!!</data></layer>"#),
            vec!["Collision", "not base64"],
        ),
        (
            "short layer of tile elements",
            tmx("orthogonal", 0, (16, 16), r#"<layer id="1" name="Collision" width="4" height="3"><data><tile gid="1"/><tile gid="1"/></data></layer>"#),
            vec!["Collision", "2 tiles of data"],
        ),
        (
            "chunk past the largest position",
            tmx("orthogonal", 1, (16, 16), r#"<layer id="1" name="Collision" width="4" height="3"><data encoding="csv"><chunk x="2147483640" y="0" width="16" height="1">1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1</chunk></data></layer>"#),
            vec!["chunk 0", "largest tile position"],
        ),
        (
            "short chunk",
            tmx("orthogonal", 1, (16, 16), r#"<layer id="1" name="Collision" width="4" height="3"><data encoding="csv"><chunk x="0" y="0" width="16" height="1">1,1</chunk></data></layer>"#),
            vec!["chunk 0", "2 tiles of data"],
        ),
        (
            "short layer in a group",
            tmx("orthogonal", 0, (16, 16), r#"<group id="5" name="g"><layer id="6" name="Inner" width="4" height="3"><data encoding="csv">1,1</data></layer></group>"#),
            vec!["layer \"Inner\" (id 6)", "2 tiles of data"],
        ),
        (
            "bad rule",
            objects(r#"<object id="7" x="0" y="0" width="4" height="4"><properties><property name="collide" value="slope:5"/></properties></object>"#),
            vec!["things", "object 7", "collide", "slope:5"],
        ),
        (
            "non-round ellipse",
            objects(r#"<object id="7" x="0" y="0" width="4" height="8"><properties><property name="collide" value="wall"/></properties><ellipse/></object>"#),
            vec!["things", "object 7", "not round"],
        ),
        (
            "zero-size collider",
            objects(r#"<object id="7" x="0" y="0" width="0" height="8"><properties><property name="collide" value="wall"/></properties></object>"#),
            vec!["object 7", "0 x 8"],
        ),
        (
            "rotated one-way platform",
            objects(r#"<object id="7" x="0" y="0" width="4" height="8" rotation="30"><properties><property name="collide" value="one_way"/></properties></object>"#),
            vec!["object 7", "only be a wall"],
        ),
        (
            "text collider",
            objects(r#"<object id="7" x="0" y="0" width="4" height="8"><properties><property name="collide" value="wall"/></properties><text>hi</text></object>"#),
            vec!["object 7", "text"],
        ),
        (
            "point collider",
            objects(r#"<object id="7" x="0" y="0"><properties><property name="collide" value="wall"/></properties><point/></object>"#),
            vec!["object 7", "point"],
        ),
        (
            "bad restitution",
            objects(r#"<object id="7" x="0" y="0" width="4" height="4"><properties><property name="collide" value="wall"/><property name="restitution" type="float" value="-1"/></properties></object>"#),
            vec!["object 7", "restitution", "-1"],
        ),
        (
            "bad bodyType",
            objects(r#"<object id="7" x="0" y="0" width="4" height="4"><properties><property name="bodyType" value="floaty"/></properties></object>"#),
            vec!["object 7", "bodyType", "floaty"],
        ),
        (
            "brick object",
            objects(r#"<object id="7" x="0" y="0" width="4" height="4"><properties><property name="collide" value="brick"/></properties></object>"#),
            vec!["object 7", "cells"],
        ),
    ];
    for (what, text, words) in cases {
        let e = match load_tiled(&text) {
            Ok(_) => panic!("{what}: loaded"),
            Err(e) => e.to_string(),
        };
        for w in words {
            assert!(e.contains(w), "{what}: {e:?} lacks {w:?}");
        }
    }
    let e = collide_maps::load("map.tmj", None, &MapConfig::default()).unwrap_err();
    assert!(matches!(e, MapError::Io { .. }), "{e}");
    let e = load_tmx_bytes(Path::new("map.tmj"), b"{}", &MapConfig::default()).unwrap_err();
    assert!(e.to_string().contains(".tmj"), "{e}");
    let e = collide_maps::load("map.txt", None, &MapConfig::default()).unwrap_err();
    assert!(e.to_string().contains("unknown extension"), "{e}");
}

fn ldtk(intgrid: &str, csv: &str, c_wid: i64) -> String {
    // The sample project with its first level's Collisions layer replaced.
    let path = common::ldtk_sample();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    for d in v["defs"]["layers"].as_array_mut().unwrap() {
        if d["identifier"] == "Collisions" {
            d["intGridValues"][0]["identifier"] = serde_json::Value::String(intgrid.to_owned());
        }
    }
    let level = &mut v["levels"][0];
    for li in level["layerInstances"].as_array_mut().unwrap() {
        if li["__identifier"] == "Collisions" {
            li["intGridCsv"] = serde_json::from_str(csv).unwrap();
            li["__cWid"] = c_wid.into();
        }
    }
    v.to_string()
}

#[test]
fn bad_ldtk_projects_are_typed_errors() {
    let cfg = MapConfig::default();
    let name = Path::new("bad.ldtk");
    let e = load_ldtk_bytes(name, b"{\"jsonVersion\": \"1.5.3\"}", None, &cfg).unwrap_err();
    assert!(
        e.to_string().contains("bad.ldtk") && e.to_string().contains("line 1"),
        "{e}"
    );
    let e = load_ldtk_bytes(name, b"not json", None, &cfg).unwrap_err();
    assert!(matches!(e, MapError::Parse { .. }), "{e}");
    // A csv that does not fit the layer's size.
    let e =
        load_ldtk_bytes(name, ldtk("dirt", "[1, 0, 1]", 53).as_bytes(), None, &cfg).unwrap_err();
    assert!(
        e.to_string().contains("Collisions") && e.to_string().contains("3 values"),
        "{e}"
    );
    // A value whose identifier is an object rule.
    let csv = format!("[{}]", vec!["1"; 53 * 21].join(","));
    let e = load_ldtk_bytes(name, ldtk("kinematic", &csv, 53).as_bytes(), None, &cfg).unwrap_err();
    assert!(
        e.to_string().contains("IntGrid value 1") && e.to_string().contains("Kinematic"),
        "{e}"
    );
    // Identifiers as rules: value 1 as slopes ◥.
    let m = load_ldtk_bytes(name, ldtk("slope:9", &csv, 53).as_bytes(), None, &cfg).unwrap();
    let g = m.scene.grid.unwrap();
    assert!(g.cells.iter().all(|c| *c == Cell::Slope(Corner::TopRight)));
}
