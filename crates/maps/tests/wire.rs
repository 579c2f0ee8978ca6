//! `MapLevel::to_bytes` / `from_bytes`: every level of both sample maps comes back equal, field
//! for field and bit for bit (the world it builds has the same state hash after 120 steps with
//! balls dropped on it), and bad bytes are typed errors naming their source.

mod common;

use std::path::Path;

use collide_maps::{MapConfig, MapError, MapLevel};
use collide_world::{SpawnDesc, Surface, World};

fn levels() -> Vec<MapLevel> {
    let cfg = MapConfig::default();
    let mut out: Vec<MapLevel> = [
        "Your_typical_2D_platformer",
        "Top",
        "Bottom",
        "World_Level_3",
    ]
    .iter()
    .map(|l| collide_maps::load(common::ldtk_sample(), Some(l), &cfg).unwrap())
    .collect();
    out.push(collide_maps::load(common::sticker_knight(), None, &cfg).unwrap());
    out
}

/// The state hash after `steps` steps of `level`'s scene with 50 balls spawned at rest.
fn hash_after(level: &MapLevel, steps: usize) -> u64 {
    let mut scene = level.scene.clone();
    scene.spawn = Some(SpawnDesc {
        count: 50,
        radius: 3.0,
        speed: 0.0,
        density: 1.0,
        seed: 3,
        region: None,
        surface: Surface::DEFAULT,
    });
    let mut w = World::from_scene(&scene).expect("the level builds");
    for _ in 0..steps {
        w.step();
    }
    w.state_hash()
}

#[test]
fn every_sample_level_comes_back_equal_and_steps_the_same() {
    for level in levels() {
        let bytes = level.to_bytes().unwrap();
        let back = MapLevel::from_bytes(Path::new("embedded.bin"), &bytes).unwrap();
        assert_eq!(back, level, "{}", level.name);
        assert!(
            !level.objects.is_empty() || level.scene.grid.is_some(),
            "{}",
            level.name
        );
        assert_eq!(
            hash_after(&back, 120),
            hash_after(&level, 120),
            "{}",
            level.name
        );
    }
}

#[test]
fn bad_bytes_are_typed_errors_naming_their_source() {
    let level = levels().pop().unwrap();
    let bytes = level.to_bytes().unwrap();
    let src = Path::new("maps/sticker.bin");
    let mut cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", Vec::new()),
        ("truncated", bytes[..bytes.len() / 2].to_vec()),
        ("trailing garbage in the scene", {
            let mut b = bytes.clone();
            b.truncate(bytes.len() - 1);
            b
        }),
    ];
    // Another format version (the first varint).
    let mut other = bytes.clone();
    other[0] = 9;
    cases.push(("version 9", other));
    for (what, b) in cases {
        let e = MapLevel::from_bytes(src, &b).unwrap_err();
        assert!(matches!(e, MapError::Bytes { .. }), "{what}: {e}");
        assert!(e.to_string().contains("maps/sticker.bin"), "{what}: {e}");
    }
    let e = MapLevel::from_bytes(src, &{
        let mut b = bytes.clone();
        b[0] = 9;
        b
    })
    .unwrap_err();
    assert!(e.to_string().contains("version 9"), "{e}");
}
