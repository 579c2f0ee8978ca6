//! The cross-cutting invariants, checked once over a table of scenes: every built-in scene
//! (`collide_scenes::names()`) and rows for features the built-in scenes leave idle (flippers
//! turning while held, boxes meeting them, static polygons, characters). For each row:
//!
//! - **threads**: one thread and two give the same `state_hash` after every step;
//! - **snapshots**: a snapshot taken halfway (passed through postcard's bytes), restored into a
//!   fresh world built from the same scene, continues with the same hash after every step as
//!   the world that was never interrupted;
//! - **determinism**: two runs from the scene give the same hashes.
//!
//! A capability adds a row to [`rows`], not a copy of these checks.

use collide_world::Body;
use collide_world::Contact;
use collide_world::Target;
use collide_world::{Scene, Snapshot, Surface, World};

/// One row: a name, the scene, how many steps, and what a game does between steps (step
/// index, world).
struct Row {
    name: String,
    scene: Scene,
    steps: usize,
    input: fn(usize, &mut World),
}

fn no_input(_: usize, _: &mut World) {}

/// Every flipper held from step 5 to step 25, released after: the flippers turn both ways.
fn flippers_held(k: usize, w: &mut World) {
    if k == 5 || k == 25 {
        let ids: Vec<_> = w.flippers().iter().map(|f| f.id).collect();
        for id in ids {
            w.set_flipper_pressed(id, k == 5).expect("a live flipper");
        }
    }
}

/// Six boxes dropped over the pinball table's flippers at the first step, the flippers held
/// as in [`flippers_held`]: boxes meet turning and held flippers.
fn boxes_on_flippers(k: usize, w: &mut World) {
    if k == 0 {
        for i in 0..6 {
            // Over the swept arcs: x in 140..188 left, mirrored about x = 220 right.
            let left = 140.0 + 18.0 * (i % 3) as f64;
            let x = if i < 3 { left } else { 440.0 - left - 12.0 };
            let min = collide_world::Vec2::new(x, 666.0);
            w.add_rect(collide_world::RectDesc {
                aabb: collide_world::Aabb::new(min, min + collide_world::Vec2::new(12.0, 10.0)),
                vel: collide_world::Vec2::new(0.0, 50.0),
                kind: collide_world::RectKind::Dynamic,
                density: 1.0,
                surface: Surface::DEFAULT,
            })
            .expect("a valid box");
        }
    }
    flippers_held(k, w);
}

fn rows() -> Vec<Row> {
    let mut out: Vec<Row> = collide_scenes::names()
        .iter()
        .map(|&name| Row {
            name: name.to_string(),
            scene: collide_scenes::load(name)
                .expect("a built-in scene")
                .expect("a valid built-in scene"),
            steps: 40,
            input: no_input,
        })
        .collect();
    out.push(Row {
        name: "pinball, flippers held".into(),
        scene: collide_scenes::load("pinball")
            .expect("a built-in scene")
            .expect("a valid built-in scene"),
        steps: 40,
        input: flippers_held,
    });
    out.push(Row {
        name: "pinball, boxes on the flippers".into(),
        scene: collide_scenes::load("pinball")
            .expect("a built-in scene")
            .expect("a valid built-in scene"),
        steps: 40,
        input: boxes_on_flippers,
    });
    out.push(Row {
        name: "polygons under gravity".into(),
        scene: polygon_scene(),
        steps: 40,
        input: no_input,
    });
    out.push(Row {
        name: "characters running and jumping on polygons".into(),
        scene: polygon_scene(),
        steps: 40,
        input: characters_running,
    });
    out
}

/// Three characters added at the first step over the polygons, then run left and right and
/// jump (a velocity set between steps, as a game does) while the balls and boxes fall.
fn characters_running(k: usize, w: &mut World) {
    use collide_world::{CharacterDesc, Vec2};
    if k == 0 {
        for x in [60.0, 150.0, 300.0] {
            w.add_character(CharacterDesc {
                pos: Vec2::new(x, 200.0),
                half_extents: Vec2::new(6.0, 10.0),
                ..CharacterDesc::default()
            })
            .expect("a valid character");
        }
    }
    let ids: Vec<_> = w.characters().iter().map(|c| c.id).collect();
    for (i, id) in ids.into_iter().enumerate() {
        let c = w.character(id).expect("a live character");
        let run = if (k / 10 + i) % 2 == 0 { 120.0 } else { -120.0 };
        let vy = if c.ground.is_some() && k % 7 == i {
            -250.0
        } else {
            c.vel.y
        };
        w.set_character_velocity(id, Vec2::new(run, vy))
            .expect("a finite velocity");
    }
}

/// Blocks laid edge to edge, a ramp and a pentagon under gravity, with 60 balls and two
/// dynamic boxes falling on them.
fn polygon_scene() -> Scene {
    let text = r#"
[world]
size = [400, 300]

[step]
gravity = [0, 400]
restitution = 0.8

[[polygon]]
points = [[40, 240], [120, 240], [120, 280], [40, 290]]

[[polygon]]
points = [[120, 240], [200, 240], [200, 290], [120, 280]]

[[polygon]]
points = [[220, 200], [380, 260], [380, 290], [220, 290]]
restitution = 0.5

[[polygon]]
points = [[200, 120], [230, 140], [220, 170], [180, 170], [170, 140]]

[[rect]]
min = [60, 40]
max = [80, 60]
kind = "dynamic"

[[rect]]
min = [300, 30]
max = [316, 46]
kind = "dynamic"
vel = [-50, 0]

[spawn]
count = 60
radius = 3
speed = 150
seed = 7
region = [10, 10, 390, 110]
"#;
    let no_levels = |_: &str| Err(std::io::Error::other("no level files here"));
    collide_scene::from_toml_str(text, "polygons.toml", &no_levels).expect("a valid scene")
}

/// The hash after every step of `row` run from `world` from step `from` on.
fn run(row: &Row, world: &mut World, from: usize) -> Vec<u64> {
    (from..row.steps)
        .map(|k| {
            (row.input)(k, world);
            world.step();
            world.state_hash()
        })
        .collect()
}

fn world(row: &Row) -> World {
    World::from_scene(&row.scene).unwrap_or_else(|e| panic!("{}: {e}", row.name))
}

#[test]
fn the_table_covers_the_built_in_scenes_and_the_features() {
    let rows = rows();
    assert!(rows.len() > collide_scenes::names().len());
    for name in ["pinball", "plinko", "ramps", "arena"] {
        assert!(rows.iter().any(|r| r.name == name), "{name} missing");
    }
    // The rows must move something: a table of frozen worlds would prove nothing.
    for row in &rows {
        let mut w = world(row);
        let start = w.state_hash();
        let hashes = run(row, &mut w, 0);
        assert!(
            hashes.iter().any(|&h| h != start),
            "{}: nothing changes",
            row.name
        );
    }
}

#[test]
fn the_boxes_row_has_boxes_meeting_the_flippers() {
    let rows = rows();
    let row = rows
        .iter()
        .find(|r| r.name == "pinball, boxes on the flippers")
        .expect("the row");
    let mut w = world(row);
    let mut hits = 0;
    for k in 0..row.steps {
        (row.input)(k, &mut w);
        hits += w
            .step()
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    collide_world::Event::Contact(Contact {
                        body: Body::Rect(_),
                        other: Target::Flipper(_),
                        ..
                    })
                )
            })
            .count();
    }
    assert!(hits >= 3, "{hits} box–flipper contacts");
}

#[test]
fn the_characters_row_has_characters_running_landing_and_jumping() {
    let rows = rows();
    let row = rows
        .iter()
        .find(|r| r.name == "characters running and jumping on polygons")
        .expect("the row");
    let mut w = world(row);
    let (mut grounded, mut airborne, mut moved) = (0, 0, 0.0_f64);
    let mut last: Vec<f64> = Vec::new();
    for k in 0..row.steps {
        (row.input)(k, &mut w);
        w.step();
        let xs: Vec<f64> = w.characters().iter().map(|c| c.pos.x).collect();
        if last.len() == xs.len() {
            moved += xs
                .iter()
                .zip(&last)
                .map(|(a, b)| (a - b).abs())
                .sum::<f64>();
        }
        last = xs;
        grounded += w.characters().iter().filter(|c| c.ground.is_some()).count();
        airborne += w.characters().iter().filter(|c| c.ground.is_none()).count();
    }
    assert_eq!(w.characters().len(), 3);
    assert!(
        grounded > 10 && airborne > 10,
        "{grounded} grounded, {airborne} airborne"
    );
    assert!(moved > 100.0, "the characters ran {moved} units");
}

#[test]
fn two_threads_give_the_bits_of_one() {
    for row in rows() {
        let one = run(&row, &mut world(&row), 0);
        let mut w = world(&row);
        w.set_threads(2);
        assert_eq!(run(&row, &mut w, 0), one, "{}", row.name);
    }
}

#[test]
fn a_restored_snapshot_continues_with_the_same_bits() {
    for row in rows() {
        let whole = run(&row, &mut world(&row), 0);
        let half = row.steps / 2;
        let mut first = world(&row);
        let _ = run(
            &Row {
                steps: half,
                ..row_copy(&row)
            },
            &mut first,
            0,
        );
        let bytes = postcard::to_stdvec(&first.snapshot()).expect("a snapshot serializes");
        let snap: Snapshot = postcard::from_bytes(&bytes).expect("and reads back");
        let mut second = world(&row);
        second
            .restore(&snap)
            .unwrap_or_else(|e| panic!("{}: {e}", row.name));
        assert_eq!(second.state_hash(), first.state_hash(), "{}", row.name);
        assert_eq!(run(&row, &mut second, half), whole[half..], "{}", row.name);
    }
}

#[test]
fn two_runs_give_the_same_bits() {
    for row in rows() {
        assert_eq!(
            run(&row, &mut world(&row), 0),
            run(&row, &mut world(&row), 0),
            "{}",
            row.name
        );
    }
}

fn row_copy(row: &Row) -> Row {
    Row {
        name: row.name.clone(),
        scene: row.scene.clone(),
        steps: row.steps,
        input: row.input,
    }
}
