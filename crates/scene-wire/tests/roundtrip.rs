//! The bytes give back the scene they were made from, field for field and bit for bit, for
//! every shipped scene and a scene with every kind of body, cell and setting; bad bytes are
//! refused with a `WireError`, never a panic.

use collide_scene_wire::{from_bytes, to_bytes, WireError, WIRE_VERSION};
use collide_world::{
    Aabb, BallDesc, Cell, Corner, Filter, FlipperDesc, GridDesc, RectDesc, RectKind, Scene,
    ShapeDesc, SpawnDesc, StepConfig, Surface, Vec2, Walls, World,
};
use proptest::prelude::*;
use std::path::Path;

/// A scene using every field with a value other than its default.
fn every_kind() -> Scene {
    let cells = vec![
        Cell::Empty,
        Cell::Wall,
        Cell::Brick(b'R'),
        Cell::Sensor(b'a'),
        Cell::Slope(Corner::TopLeft),
        Cell::Slope(Corner::TopRight),
        Cell::Slope(Corner::BottomLeft),
        Cell::Slope(Corner::BottomRight),
    ];
    let mut sensor = ShapeDesc::sensor_circle(Vec2::new(150.0, 40.0), 6.5);
    sensor.surface.filter = Filter::new(4, 5);
    let mut polygon = ShapeDesc::polygon(&[
        Vec2::new(100.0, 100.0),
        Vec2::new(120.0, 100.0),
        Vec2::new(110.0, 80.0),
    ])
    .unwrap();
    polygon.surface.restitution = Some(0.25);
    let mut flipper = FlipperDesc::new(Vec2::new(60.0, 170.0), 30.0, 4.0, 0.4, -0.4, 20.0);
    flipper.surface.restitution = Some(0.5);
    flipper.surface.filter = Filter::new(2, 3);
    Scene {
        name: "every kind ✓".to_owned(),
        size: Vec2::new(200.0, 0.1 + 180.0),
        walls: Walls {
            left: true,
            top: false,
            right: true,
            bottom: false,
        },
        grid: Some(GridDesc {
            cell: 10.0 / 3.0,
            origin: Vec2::new(-1.5, 2.25),
            cols: 4,
            rows: 2,
            cells,
            wall_restitution: Some(0.75),
            brick_restitution: None,
            wall_filter: Filter::new(1, 6),
            brick_filter: Filter::new(8, 9),
            sensor_filter: Filter::new(16, 17),
        }),
        balls: vec![BallDesc {
            pos: Vec2::new(50.0, 60.0),
            vel: Vec2::new(120.0, -30.5),
            radius: 3.5,
            density: 2.0,
            surface: Surface {
                restitution: Some(1.5),
                filter: Filter::new(32, 33),
                ..Surface::DEFAULT
            },
            gravity_scale: -0.5,
        }],
        rects: [
            (RectKind::Static, false),
            (RectKind::Kinematic, false),
            (RectKind::Dynamic, false),
            (RectKind::Kinematic, true),
            (RectKind::Static, true),
            // A one-way platform (the kind code's one-way bit).
            (RectKind::Kinematic, false),
        ]
        .iter()
        .enumerate()
        .map(|(i, &(kind, sensor))| RectDesc {
            aabb: Aabb::new(
                Vec2::new(20.0 + 30.0 * i as f64, 120.0),
                Vec2::new(40.0 + 30.0 * i as f64, 130.0),
            ),
            vel: Vec2::new(1.0, -2.0),
            kind,
            density: 0.5,
            surface: Surface {
                restitution: Some(0.125),
                filter: Filter::new(64, 65),
                sensor,
                one_way: i == 5,
            },
        })
        .collect(),
        shapes: vec![
            ShapeDesc {
                surface: Surface::ONE_WAY,
                ..ShapeDesc::segment(Vec2::new(10.0, 150.0), Vec2::new(190.0, 160.0))
            },
            ShapeDesc::circle(Vec2::new(170.0, 60.0), 8.0),
            sensor,
            polygon,
        ],
        flippers: vec![flipper],
        spawn: Some(SpawnDesc {
            count: 7,
            radius: 1.5,
            speed: 99.0,
            density: 3.0,
            seed: u64::MAX - 3,
            region: Some(Aabb::new(Vec2::new(10.0, 10.0), Vec2::new(190.0, 60.0))),
            surface: Surface::DEFAULT.with_filter(Filter::new(128, 129)),
        }),
        step: StepConfig {
            dt: 1.0 / 120.0,
            ball_ball: false,
            restitution: 0.9,
            destructible_bricks: false,
            max_events_per_body: 17,
            gravity: Vec2::new(0.5, 981.0),
            sleep: false,
        },
    }
}

#[test]
fn a_scene_with_every_kind_comes_back_equal() {
    let scene = every_kind();
    let bytes = to_bytes(&scene).unwrap();
    assert_eq!(from_bytes(&bytes).unwrap(), scene);
    // and it is a scene a world accepts, so the test covers values that matter.
    World::from_scene(&scene).unwrap();
}

#[test]
fn every_shipped_scene_comes_back_equal() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenes");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let scene = collide_scene::load(&path).unwrap();
            let bytes = to_bytes(&scene).unwrap();
            assert_eq!(from_bytes(&bytes).unwrap(), scene, "{}", path.display());
            n += 1;
        }
    }
    assert!(n >= 10, "only {n} scenes in {}", dir.display());
}

#[test]
fn bytes_of_another_version_are_refused() {
    let mut bytes = to_bytes(&every_kind()).unwrap();
    assert_eq!(u32::from(bytes[0]), WIRE_VERSION);
    bytes[0] = 99;
    assert_eq!(
        from_bytes(&bytes),
        Err(WireError::Version {
            found: 99,
            expected: WIRE_VERSION
        })
    );
}

#[test]
fn truncated_or_longer_bytes_are_refused() {
    let bytes = to_bytes(&every_kind()).unwrap();
    for len in 0..bytes.len() {
        assert!(
            matches!(from_bytes(&bytes[..len]), Err(WireError::Decode(_))),
            "{len} bytes"
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    let err = from_bytes(&longer).unwrap_err();
    assert_eq!(
        err.to_string(),
        "scene bytes: not an encoded collide scene: 1 bytes after the scene"
    );
}

#[test]
fn codes_a_scene_cannot_hold_are_named() {
    let mut scene = every_kind();
    scene.rects.truncate(1);
    let bytes = to_bytes(&scene).unwrap();
    // The rectangle's kind code is the byte right after its box and velocity (six f64s).
    let kind_at = find(&bytes, &20.0f64.to_le_bytes()) + 6 * 8;
    let mut bad = bytes.clone();
    assert_eq!(bad[kind_at], 0);
    // 0 to 4 are static, kinematic, dynamic, kinematic sensor and static sensor.
    bad[kind_at] = 5;
    assert_eq!(
        from_bytes(&bad),
        Err(WireError::Value {
            field: "rect[0].kind".to_owned(),
            value: 5
        })
    );
}

/// Where `needle` first occurs in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len()).position(|w| w == needle).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn any_bytes_are_a_scene_or_an_error(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        // Decoding returns (an error, or a scene that World::from_scene checks), never panics.
        let _ = from_bytes(&bytes);
    }

    #[test]
    fn a_changed_byte_gives_a_scene_or_an_error(at in 0usize..10_000, value in any::<u8>()) {
        let mut bytes = to_bytes(&every_kind()).unwrap();
        let at = at % bytes.len();
        bytes[at] = value;
        if let Ok(scene) = from_bytes(&bytes) {
            let _ = World::from_scene(&scene);
        }
    }
}
