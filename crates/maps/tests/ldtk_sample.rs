//! LDtk's own platformer sample loads as collide worlds: cell and entity counts read
//! independently from the raw JSON (serde_json, not the loader), named entity positions, and
//! 500 balls dropped under gravity on each level.

mod common;

use collide_maps::{FieldValue, MapConfig, ObjectBody};
use collide_world::{Aabb, Cell, Vec2};
use serde_json::Value;

fn raw() -> Value {
    let text = std::fs::read_to_string(common::ldtk_sample()).expect("the LDtk sample reads");
    serde_json::from_str(&text).expect("the LDtk sample is JSON")
}

/// Per level (name, width, height, world x, world y): the number of IntGrid cells of the
/// `Collisions` layer by identifier (dirt+stone, ladder), read from the raw JSON.
fn raw_levels() -> Vec<(String, Value, usize, usize)> {
    let v = raw();
    let layer_def = v["defs"]["layers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["identifier"] == "Collisions")
        .unwrap()
        .clone();
    let ident = |n: i64| -> String {
        layer_def["intGridValues"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["value"].as_i64() == Some(n))
            .map(|x| x["identifier"].as_str().unwrap().to_owned())
            .unwrap()
    };
    v["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let layer = l["layerInstances"]
                .as_array()
                .unwrap()
                .iter()
                .find(|li| li["__identifier"] == "Collisions")
                .unwrap();
            let (mut solid, mut ladder) = (0, 0);
            for n in layer["intGridCsv"].as_array().unwrap() {
                match n.as_i64().unwrap() {
                    0 => {}
                    n if ident(n) == "ladder" => ladder += 1,
                    _ => solid += 1,
                }
            }
            (
                l["identifier"].as_str().unwrap().to_owned(),
                l.clone(),
                solid,
                ladder,
            )
        })
        .collect()
}

#[test]
fn every_level_has_the_files_cells_and_entities() {
    let levels = raw_levels();
    assert_eq!(levels.len(), 4);
    let names = collide_maps::ldtk::ldtk_levels(common::ldtk_sample()).unwrap();
    assert_eq!(
        names,
        levels.iter().map(|l| l.0.clone()).collect::<Vec<_>>()
    );
    for (name, raw_level, solid, ladder) in &levels {
        let level = collide_maps::load(common::ldtk_sample(), Some(name), &MapConfig::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(&level.name, name);
        let w = raw_level["pxWid"].as_f64().unwrap();
        let h = raw_level["pxHei"].as_f64().unwrap();
        assert_eq!(level.scene.size, Vec2::new(w, h), "{name}");
        assert_eq!(
            level.world_offset,
            Vec2::new(
                raw_level["worldX"].as_f64().unwrap(),
                raw_level["worldY"].as_f64().unwrap()
            )
        );
        let g = level.scene.grid.as_ref().expect("a grid");
        assert_eq!((g.cell, g.origin), (16.0, Vec2::ZERO));
        assert_eq!((g.cols as f64 * 16.0, g.rows as f64 * 16.0), (w, h));
        let walls = g.cells.iter().filter(|c| **c == Cell::Wall).count();
        let ladders = g.cells.iter().filter(|c| **c == Cell::Sensor(b'l')).count();
        let others =
            g.cells.len() - walls - ladders - g.cells.iter().filter(|c| **c == Cell::Empty).count();
        assert_eq!((walls, ladders, others), (*solid, *ladder, 0), "{name}");
        assert!(level.scene.rects.is_empty() && level.scene.shapes.is_empty());
        // Entities: as many as the file's Entities layer, in order, with their iids.
        let raw_entities: Vec<&Value> = raw_level["layerInstances"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|li| li["entityInstances"].as_array().unwrap().iter())
            .collect();
        assert_eq!(level.objects.len(), raw_entities.len(), "{name}");
        assert_eq!(level.entities().count(), raw_entities.len());
        for (o, e) in level.objects.iter().zip(&raw_entities) {
            assert_eq!(o.id, e["iid"].as_str().unwrap());
            assert_eq!(o.kind, e["__identifier"].as_str().unwrap());
            let px = Vec2::new(e["px"][0].as_f64().unwrap(), e["px"][1].as_f64().unwrap());
            assert_eq!(o.pos, px);
            assert_eq!(o.body, ObjectBody::None);
        }
        // Decorative layers are reported, not dropped silently.
        let skipped: Vec<&str> = level
            .report
            .skipped_layers
            .iter()
            .map(|s| s.0.as_str())
            .collect();
        assert_eq!(
            skipped,
            ["Entities", "Wall_shadows", "Bg_textures"],
            "{name}"
        );
    }
}

#[test]
fn named_entities_keep_their_place_size_and_fields() {
    let level = collide_maps::load(common::ldtk_sample(), None, &MapConfig::default()).unwrap();
    assert_eq!(level.name, "Your_typical_2D_platformer");
    // Player: px [184, 208], 24 x 24, pivot (0.5, 1): its box is 172..196 x 184..208.
    let p = level.object("Player").expect("the Player entity");
    assert_eq!(p.pos, Vec2::new(184.0, 208.0));
    assert_eq!(p.size, Vec2::new(24.0, 24.0));
    assert_eq!(p.top_left, Vec2::new(172.0, 184.0));
    assert_eq!(
        p.field("items"),
        Some(&FieldValue::List(vec![
            FieldValue::Text("Knife".into()),
            FieldValue::Text("Boots".into())
        ]))
    );
    assert!(level
        .object_by_id("a315d323-66b0-11ec-9cd7-8ddce09157bc")
        .is_some());
    // The first Mob patrols to cell (32, 9).
    let mob = level.object("Mob").unwrap();
    assert_eq!(
        mob.field("patrol"),
        Some(&FieldValue::List(vec![FieldValue::Point { cx: 32, cy: 9 }]))
    );
    let door = level.objects.iter().filter(|o| o.kind == "Door").count();
    assert_eq!(door, 2);
    // By index: level 2 is "Bottom", with one Mob at px (312, 176).
    let bottom =
        collide_maps::load(common::ldtk_sample(), Some("2"), &MapConfig::default()).unwrap();
    assert_eq!(bottom.name, "Bottom");
    assert_eq!(bottom.object("Mob").unwrap().pos, Vec2::new(312.0, 176.0));
    let e = collide_maps::load(
        common::ldtk_sample(),
        Some("Nowhere"),
        &MapConfig::default(),
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("Nowhere") && e.to_string().contains("Bottom"),
        "{e}"
    );
}

/// 500 balls of radius 2 (the spawn places them clear of every cell and each other anywhere
/// in the level), restitution 0.5, 981 units/s², 150 steps of 1/60 s (they fall the level's
/// height in under 0.9 s and pile up): no ball inside a wall, no overlapping pair, no ball
/// through a wall, the energy never above the start and rising from one step to the next by
/// at most 1.5 settle impulses of the engine's pressed contacts (measured: 0.52 on Bottom,
/// 0 on the others).
fn drop_on(name: &str) {
    let level =
        collide_maps::load(common::ldtk_sample(), Some(name), &MapConfig::default()).unwrap();
    assert_eq!(level.scene.step.restitution, 0.5);
    assert_eq!(level.scene.step.gravity, Vec2::new(0.0, 981.0));
    let region = Aabb::new(Vec2::ZERO, level.scene.size);
    let c = common::drop_balls(&level, 500, 2.0, region, 150);
    eprintln!("{name}: {c:?}");
    assert_eq!(
        (c.embedded, c.overlaps, c.tunnelled, c.above_start, c.balls),
        (0, 0, 0, 0, 500),
        "{name}: {c:?}"
    );
    assert!(c.largest_rise <= 1.5, "{name}: {c:?}");
}

#[test]
fn five_hundred_balls_dropped_on_your_typical_2d_platformer() {
    drop_on("Your_typical_2D_platformer");
}

#[test]
fn five_hundred_balls_dropped_on_top() {
    drop_on("Top");
}

#[test]
fn five_hundred_balls_dropped_on_bottom() {
    drop_on("Bottom");
}

#[test]
fn five_hundred_balls_dropped_on_world_level_3() {
    drop_on("World_Level_3");
}
