//! Snapshots: `World::snapshot` / `World::restore` bring back a state from which the next steps
//! are bit-identical to those of the run that took it, into the same world (rollback) or into
//! another of the same shape; what is not a state of a world of that shape is refused, and the
//! world is left unchanged.

use collide_scenes::arena_scene;
use collide_world::{
    Aabb, BallDesc, Event, RectDesc, RectKind, Snapshot, SnapshotError, StepConfig, Surface, Vec2,
    Walls, World,
};

/// The benchmark arena (tiles, balls colliding with each other) with a kinematic paddle and a
/// dynamic box added, and some balls removed (so that the id slots have free entries).
fn world() -> World {
    let mut w = World::from_scene(&arena_scene(400, 300.0, 7)).unwrap();
    w.add_rect(RectDesc {
        aabb: Aabb::new(Vec2::new(400.0, 900.0), Vec2::new(520.0, 915.0)),
        vel: Vec2::new(80.0, 0.0),
        kind: RectKind::Kinematic,
        density: 1.0,
        surface: Surface::DEFAULT,
    })
    .unwrap();
    w.add_rect(RectDesc {
        aabb: Aabb::new(Vec2::new(600.0, 500.0), Vec2::new(630.0, 530.0)),
        vel: Vec2::new(-50.0, 40.0),
        kind: RectKind::Dynamic,
        density: 0.5,
        surface: Surface::DEFAULT,
    })
    .unwrap();
    let ids: Vec<_> = w.balls().iter().map(|b| b.id).take(5).collect();
    for id in ids {
        w.remove_ball(id);
    }
    w
}

/// The state hash and the events of each of `n` steps.
fn run(w: &mut World, n: usize) -> Vec<(u64, Vec<Event>)> {
    (0..n)
        .map(|_| (w.step().to_vec(), w.state_hash()))
        .map(|(e, h)| (h, e))
        .collect()
}

#[test]
fn restore_then_n_steps_is_the_same_as_n_steps() {
    let mut a = world();
    run(&mut a, 40);
    let snap = a.snapshot();
    let straight = run(&mut a, 120);
    // Into the same world after it went on (a rollback).
    a.restore(&snap).unwrap();
    assert_eq!(run(&mut a, 120), straight);
    // Into a fresh world of the same shape, never stepped.
    let mut b = world();
    b.restore(&snap).unwrap();
    assert_eq!(b.state_hash(), {
        let mut c = world();
        run(&mut c, 40);
        c.state_hash()
    });
    assert_eq!(run(&mut b, 120), straight);
    // Through a serialized form.
    let bytes = postcard::to_stdvec(&snap).unwrap();
    let back: Snapshot = postcard::from_bytes(&bytes).unwrap();
    assert_eq!(back, snap);
    let mut d = world();
    d.restore(&back).unwrap();
    assert_eq!(run(&mut d, 120), straight);
}

/// In a compact binary format a snapshot costs at most 64 bytes per ball (the balls dominate:
/// 10 000 balls and a 40 × 40 grid).
#[test]
fn a_snapshot_is_at_most_64_bytes_per_ball() {
    let mut w = World::from_scene(&arena_scene(10_000, 300.0, 3)).unwrap();
    w.step();
    let bytes = postcard::to_stdvec(&w.snapshot()).unwrap();
    let per_ball = bytes.len() as f64 / 10_000.0;
    println!("{} bytes, {per_ball:.1} per ball", bytes.len());
    assert!(per_ball <= 64.0, "{per_ball} bytes per ball");
}

/// A snapshot's fields edited through JSON.
fn edited(snap: &Snapshot, edit: impl FnOnce(&mut serde_json::Value)) -> Snapshot {
    let mut v = serde_json::to_value(snap).unwrap();
    edit(&mut v);
    serde_json::from_value(v).unwrap()
}

#[test]
fn other_shapes_and_corrupt_snapshots_are_refused_and_change_nothing() {
    let mut w = world();
    run(&mut w, 10);
    let snap = w.snapshot();
    run(&mut w, 5);
    let before = w.state_hash();
    let check = |w: &mut World, s: &Snapshot, what: &str| {
        let e = w.restore(s).unwrap_err();
        assert!(e.to_string().contains(what), "{e} (expected {what})");
        assert_eq!(w.state_hash(), before, "the world changed");
        e
    };
    // Another world shape.
    let mut small = World::new(
        Vec2::new(10.0, 10.0),
        Default::default(),
        Default::default(),
    )
    .unwrap();
    let e = small.restore(&snap).unwrap_err();
    assert!(
        matches!(
            e,
            SnapshotError::Shape {
                field: "world.size",
                ..
            }
        ),
        "{e}"
    );
    // Another version.
    let e = check(
        &mut w,
        &edited(&snap, |v| v["version"] = 99.into()),
        "version",
    );
    assert!(matches!(e, SnapshotError::Version { found: 99, .. }));
    // A negative radius, a NaN-free but huge position, a ball whose id is not its slot's.
    check(
        &mut w,
        &edited(&snap, |v| v["balls"][3][4] = (-1.0).into()),
        "balls[3]",
    );
    check(
        &mut w,
        &edited(&snap, |v| v["balls"][0][1][0] = 1e300.into()),
        "balls[0]",
    );
    check(
        &mut w,
        &edited(&snap, |v| v["balls"][2][0] = (7u64 << 32).into()),
        "ball_slots",
    );
    // A ball dropped (its slot still points at it), a cell of no kind, a cell missing.
    check(
        &mut w,
        &edited(&snap, |v| {
            v["balls"].as_array_mut().unwrap().pop();
        }),
        "ball_slots",
    );
    check(
        &mut w,
        &edited(&snap, |v| v["cells"][0] = 77.into()),
        "cells[0]",
    );
    check(
        &mut w,
        &edited(&snap, |v| {
            v["cells"].as_array_mut().unwrap().pop();
        }),
        "cells",
    );
    // A static rectangle that moves, a rectangle of no kind, bad settings.
    check(
        &mut w,
        &edited(&snap, |v| v["rects"][0][3] = 9.into()),
        "rects[0].kind",
    );
    check(
        &mut w,
        &edited(&snap, |v| v["config"][0] = (-1.0).into()),
        "config",
    );
    // The snapshot itself still restores.
    w.restore(&snap).unwrap();
}

/// Restoring keeps ids unique: a ball added after a restore never takes the id of a ball of
/// the snapshot.
#[test]
fn ids_stay_unique_across_a_restore() {
    let w = world();
    let snap = w.snapshot();
    let old: Vec<_> = w.balls().iter().map(|b| b.id).collect();
    let mut fresh = world();
    fresh.restore(&snap).unwrap();
    let id = fresh
        .add_ball(BallDesc {
            pos: Vec2::new(500.0, 500.0),
            vel: Vec2::ZERO,
            radius: 1.0,
            density: 1.0,
            surface: Surface::DEFAULT,
            gravity_scale: 1.0,
        })
        .unwrap();
    assert!(!old.contains(&id));
}

#[test]
fn a_ball_resting_on_a_closed_wall_survives_json() {
    // A rest on a closed wall holds over an unbounded range: the snapshot stores it so that
    // JSON, which has no infinities, reads it back, and the restored world continues with the
    // same bits.
    let config = StepConfig {
        gravity: Vec2::new(0.0, 981.0),
        restitution: 0.5,
        ..StepConfig::default()
    };
    let mut a = World::new(Vec2::new(100.0, 100.0), Walls::ALL, config).unwrap();
    a.add_ball(BallDesc {
        pos: Vec2::new(50.0, 90.0),
        vel: Vec2::new(3.0, 0.0),
        radius: 2.0,
        ..BallDesc::default()
    })
    .unwrap();
    for _ in 0..120 {
        a.step();
    }
    let b0 = a.balls().next().unwrap();
    assert_eq!(
        (b0.pos.y, b0.vel.y),
        (98.0, 0.0),
        "resting on the floor wall"
    );
    let json = serde_json::to_string(&a.snapshot()).unwrap();
    let back: Snapshot = serde_json::from_str(&json).unwrap();
    let mut b = World::new(Vec2::new(100.0, 100.0), Walls::ALL, config).unwrap();
    b.restore(&back).unwrap();
    for _ in 0..60 {
        a.step();
        b.step();
        assert_eq!(a.state_hash(), b.state_hash());
    }
}

#[test]
fn a_flipper_of_other_settings_is_refused_by_name() {
    let make = |length: f64| {
        let mut w = World::new(Vec2::new(400.0, 400.0), Walls::ALL, StepConfig::default()).unwrap();
        w.add_flipper(collide_world::FlipperDesc::new(
            Vec2::new(100.0, 200.0),
            length,
            10.0,
            0.0,
            -0.5,
            10.0,
        ))
        .unwrap();
        w
    };
    let snap = make(100.0).snapshot();
    // One unit in the last place off, as a JSON reader without float_roundtrip may give.
    let mut other = make(f64::from_bits(100f64.to_bits() + 1));
    let err = other.restore(&snap).unwrap_err().to_string();
    assert!(err.contains("flippers[0].length"), "{err}");
    assert!(err.contains("100.0 in the snapshot"), "{err}");
    // A world with two flippers against a snapshot of one: the counts.
    let mut two = make(100.0);
    two.add_flipper(collide_world::FlipperDesc::new(
        Vec2::new(300.0, 200.0),
        50.0,
        5.0,
        3.0,
        3.5,
        10.0,
    ))
    .unwrap();
    let err = two.restore(&snap).unwrap_err().to_string();
    assert!(
        err.contains("1 flippers in the snapshot, 2 in the world"),
        "{err}"
    );
}

/// A ball bouncing under the largest gravity in a world 1e9 units tall passes the speed the
/// setters accept (`±1e9` a component): dropped from rest, it meets the floor at `√2` s at
/// `√2·1e9` units/s, bounces elastically, and at 1.5 s rises at `1e9·(√2 − (1.5 − √2))`. A
/// snapshot of that state restores (the world's own motion is not refused as input) and
/// continues with the same bits.
#[test]
fn a_ball_faster_than_the_setters_accept_round_trips_through_a_snapshot() {
    let config = StepConfig {
        dt: 0.75,
        gravity: Vec2::new(0.0, 1e9),
        ..StepConfig::default()
    };
    let mut w = World::new(Vec2::new(10.0, 1e9), Walls::ALL, config).expect("a valid world");
    let id = w
        .add_ball(BallDesc {
            pos: Vec2::new(5.0, 0.0),
            radius: 0.0,
            ..BallDesc::default()
        })
        .expect("a valid ball");
    w.step();
    w.step();
    let v = w.ball(id).expect("alive").vel.y;
    let expected = -1e9 * (2f64.sqrt() - (1.5 - 2f64.sqrt()));
    assert!((v - expected).abs() < 1e-6 * 1e9, "{v} against {expected}");
    assert!(v.abs() > 1e9);
    let snap = w.snapshot();
    let mut back = w.clone();
    back.restore(&snap).expect("a world's own state restores");
    for _ in 0..8 {
        w.step();
        back.step();
        assert_eq!(w.state_hash(), back.state_hash());
    }
}

/// A world with one wall cell (side `cell`, top-left corner at `at`) and a ball heading
/// straight at a point of it: a face point (`along` in (0, 1) of the face facing the ball) or
/// the corner itself (`along` 0), from `dist` away, at `speed`, under gravity `g` along its
/// path (0: a straight path). The ball comes from the left along the line of the cell's top
/// face, pressed onto the closed top wall when `on_wall` (the ball then slides along the wall
/// into the corner, radius 0: finding E9 of docs/reliability.md).
fn head_on(
    cell: f64,
    at: Vec2,
    along: f64,
    radius: f64,
    dist: f64,
    speed: f64,
    g: f64,
    on_wall: bool,
) -> (World, collide_world::BallId) {
    let at = if on_wall { Vec2::new(at.x, 0.0) } else { at };
    let target = Vec2::new(at.x, at.y + along * cell);
    let gravity = if on_wall {
        Vec2::new(g, -g)
    } else {
        Vec2::new(g, 0.0)
    };
    let config = StepConfig {
        dt: 0.1,
        gravity,
        ..StepConfig::default()
    };
    let mut w = World::new(Vec2::new(300.0, 120.0), Walls::ALL, config).expect("a valid world");
    let mut grid = collide_world::Grid::empty(cell, at, 1, 1).expect("a valid grid");
    grid.set_cell(
        collide_world::CellCoord::new(0, 0),
        collide_world::Cell::Wall,
    );
    w.set_grid(grid);
    let id = w
        .add_ball(BallDesc {
            pos: Vec2::new(target.x - radius - dist, target.y),
            vel: Vec2::new(speed, 0.0),
            radius,
            ..BallDesc::default()
        })
        .expect("a valid ball");
    (w, id)
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 128, failure_persistence: None, ..proptest::prelude::ProptestConfig::default() })]

    /// A ball heading straight at the nearest point of a tile (a face point or the corner,
    /// radius 0 or not, on a straight path or under gravity along it, or a point ball
    /// sliding along the top wall into a cell corner on the wall's line) meets it where its
    /// free run ends: a snapshot taken at any of the steps before restores into a run with
    /// the same bits at every later step, the contact included.
    #[test]
    fn restore_continues_bit_for_bit_through_head_on_contacts(
        cell in 2.0..12.0f64,
        at in (60.0..200.0f64, 10.0..90.0f64),
        along in proptest::prop_oneof![proptest::strategy::Just(0.0), 0.05..0.95f64],
        radius in proptest::prop_oneof![proptest::strategy::Just(0.0), 0.1..4.0f64],
        dist in 5.0..50.0f64,
        speed in 0.0..60.0f64,
        g in proptest::prop_oneof![proptest::strategy::Just(0.0), 10.0..200.0f64],
        on_wall in proptest::prelude::any::<bool>(),
    ) {
        let (radius, speed) = if on_wall { (0.0, speed) } else { (radius, speed.max(1.0)) };
        let (world, id) = head_on(cell, Vec2::new(at.0, at.1), if on_wall { 0.0 } else { along }, radius, dist, speed, g, on_wall);
        let mut a = world.clone();
        let mut snaps = Vec::new();
        let mut hashes = Vec::new();
        let mut met = false;
        for _ in 0..24 {
            snaps.push(a.snapshot());
            a.step();
            met |= a.events().iter().any(|e| matches!(e, Event::Contact(c) if c.body == collide_world::Body::Ball(id) && matches!(c.other, collide_world::Target::Cell(_))));
            hashes.push(a.state_hash());
        }
        proptest::prop_assume!(met);
        for (k, snap) in snaps.iter().enumerate() {
            let mut b = world.clone();
            b.restore(snap).expect("a world's own state restores");
            for (j, h) in hashes.iter().enumerate().skip(k) {
                b.step();
                proptest::prop_assert_eq!(b.state_hash(), *h, "restored at step {}, differs after step {}", k, j);
            }
        }
    }
}
