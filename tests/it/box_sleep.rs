//! Sleeping boxes (`crates/world/src/step/sleep/boxes.rs`): a stack of dynamic boxes under
//! gravity with restitution below 1 falls asleep and then costs no event; a sleeping box is
//! met as immovable until a fast hit wakes it, and what lies on it wakes with it; edits wake
//! what they may take support from; sleep is kept by snapshots and can be turned off.

use collide_tests::touch_tolerance;
use collide_world::{
    Aabb, BallDesc, Event, RectDesc, RectId, RectKind, StepConfig, Vec2, Walls, World,
};

const G: Vec2 = Vec2::new(0.0, 981.0);

/// A world 400 × 300 under `G`, closed, restitution 0.5.
fn world(sleep: bool) -> World {
    let config = StepConfig {
        gravity: G,
        restitution: 0.5,
        sleep,
        ..StepConfig::default()
    };
    World::new(Vec2::new(400.0, 300.0), Walls::ALL, config).expect("a valid world")
}

/// A wall of crates 40 × 30 built resting on the floor and on each other, `rows` rows of
/// eight, every other row shifted by 10 units (a bond), as a level would place them.
fn crates(w: &mut World, rows: usize) -> Vec<RectId> {
    let mut ids = Vec::new();
    for row in 0..rows {
        for col in 0..8 {
            let x = 20.0 + 45.0 * col as f64 + if row % 2 == 1 { 10.0 } else { 0.0 };
            let y = 300.0 - 30.0 * (row + 1) as f64;
            ids.push(
                w.add_rect(RectDesc {
                    aabb: Aabb::new(Vec2::new(x, y), Vec2::new(x + 40.0, y + 30.0)),
                    kind: RectKind::Dynamic,
                    ..RectDesc::default()
                })
                .expect("valid"),
            );
        }
    }
    ids
}

/// Whether every box lies on the floor or on a box under it (its bottom within `tol` of the
/// floor or of the top of a box it overlaps along x), and no two boxes overlap by more
/// than `tol`.
fn supported_and_apart(w: &World, tol: f64) -> Result<(), String> {
    let boxes: Vec<Aabb> = w.rects().iter().map(|r| r.aabb).collect();
    for (i, a) in boxes.iter().enumerate() {
        let on_floor = (a.max.y - 300.0).abs() <= tol;
        let on_box = boxes.iter().enumerate().any(|(j, b)| {
            j != i && a.min.x < b.max.x && a.max.x > b.min.x && (a.max.y - b.min.y).abs() <= tol
        });
        if !(on_floor || on_box) {
            return Err(format!("box {i} {a:?} lies on nothing"));
        }
        for b in &boxes[i + 1..] {
            let dx = a.max.x.min(b.max.x) - a.min.x.max(b.min.x);
            let dy = a.max.y.min(b.max.y) - a.min.y.max(b.min.y);
            if dx > tol && dy > tol {
                return Err(format!("boxes {a:?} and {b:?} overlap by {dx} × {dy}"));
            }
        }
    }
    Ok(())
}

fn asleep(w: &World, ids: &[RectId]) -> usize {
    ids.iter()
        .filter(|&&id| w.rect_asleep(id) == Some(true))
        .count()
}

#[test]
fn a_wall_of_crates_falls_asleep_where_it_was_built_and_then_costs_no_event() {
    let mut w = world(true);
    let ids = crates(&mut w, 6);
    let start: Vec<Aabb> = w.rects().iter().map(|r| r.aabb).collect();
    let mut steps = 0;
    while asleep(&w, &ids) < ids.len() {
        w.step();
        steps += 1;
        assert!(steps <= 120, "{} of 48 asleep after 2 s", asleep(&w, &ids));
    }
    assert_eq!(w.sleeping_rects(), 48);
    // Asleep, each lies where it was built within the touch tolerance (the height of the
    // rattle it fell asleep in), supported, apart from the others.
    let tol = touch_tolerance(G);
    for (r, s) in w.rects().iter().zip(&start) {
        assert!(
            (r.aabb.min - s.min).length() <= tol,
            "{:?} built at {s:?}",
            r.aabb
        );
        assert_eq!(r.vel, Vec2::ZERO);
    }
    supported_and_apart(&w, tol).unwrap();
    // Then nothing happens: no event at all, the state unchanged but for the time.
    let boxes: Vec<Aabb> = w.rects().iter().map(|r| r.aabb).collect();
    for _ in 0..60 {
        assert_eq!(w.step(), &[] as &[Event]);
    }
    let after: Vec<Aabb> = w.rects().iter().map(|r| r.aabb).collect();
    assert_eq!(after, boxes);
}

#[test]
fn with_sleep_off_the_crates_never_sleep() {
    let mut w = world(false);
    let ids = crates(&mut w, 2);
    for _ in 0..120 {
        w.step();
    }
    assert_eq!(asleep(&w, &ids), 0);
    // The upper row still rattles on the lower one.
    assert!(!w.step().is_empty());
}

#[test]
fn a_fast_ball_wakes_the_box_it_hits_and_what_lies_on_it_and_all_settle_again() {
    let mut w = world(true);
    let ids = crates(&mut w, 4);
    while asleep(&w, &ids) < ids.len() {
        w.step();
    }
    // A ball thrown into the side of the second row's leftmost box (x from 30 to 70, y from
    // 240 to 270) at 3000 units/s: far above the sleep speed.
    let ball = w
        .add_ball(BallDesc {
            pos: Vec2::new(10.0, 255.0),
            vel: Vec2::new(3000.0, 0.0),
            radius: 5.0,
            ..BallDesc::default()
        })
        .expect("valid");
    w.step();
    let hit = ids[8];
    assert_eq!(w.rect_asleep(hit), Some(false));
    // The two boxes of the third row that lie on it (x from 20 to 60 and 65 to 105) woke too,
    // and what lies on them in turn.
    assert_eq!(w.rect_asleep(ids[16]), Some(false));
    assert_eq!(w.rect_asleep(ids[17]), Some(false));
    assert_eq!(w.rect_asleep(ids[24]), Some(false));
    // Boxes far from it sleep on.
    assert_eq!(w.rect_asleep(ids[7]), Some(true));
    let mut steps = 0;
    while asleep(&w, &ids) < ids.len() {
        w.step();
        steps += 1;
        assert!(
            steps <= 1200,
            "{} of 32 asleep after 20 s",
            asleep(&w, &ids)
        );
    }
    // Every box lies on the floor or a box again: none was left asleep in the air.
    supported_and_apart(&w, touch_tolerance(G)).unwrap();
    assert!(w.ball(ball).is_some());
}

/// Three boxes built resting on each other on the floor, asleep: (lower, upper, top).
fn three_asleep() -> (World, [RectId; 3]) {
    let mut w = world(true);
    let mut add = |min: Vec2, max: Vec2| {
        w.add_rect(RectDesc {
            aabb: Aabb::new(min, max),
            kind: RectKind::Dynamic,
            ..RectDesc::default()
        })
        .expect("valid")
    };
    let lower = add(Vec2::new(100.0, 260.0), Vec2::new(160.0, 300.0));
    let upper = add(Vec2::new(110.0, 220.0), Vec2::new(150.0, 260.0));
    let top = add(Vec2::new(115.0, 190.0), Vec2::new(145.0, 220.0));
    let mut steps = 0;
    while w.sleeping_rects() < 3 {
        w.step();
        steps += 1;
        assert!(steps <= 120);
    }
    (w, [lower, upper, top])
}

#[test]
fn pushing_a_sleeping_box_wakes_what_sleeps_on_it_and_that_falls_when_it_is_gone() {
    let (mut w, [lower, upper, top]) = three_asleep();
    // Pushed sideways by the game: it wakes, and so do the two on it (a box asleep in the
    // air would float).
    w.set_rect_velocity(lower, Vec2::new(200.0, 0.0)).unwrap();
    assert_eq!(w.sleeping_rects(), 0);
    // Frictionless, the two stay where they are while it slides out from under them (its
    // left side passes the upper box's right side, 50 units, in 0.25 s), then fall 40 units
    // to the floor and sleep there, stacked (the pushed box slides on, between the walls:
    // nothing slows it but their restitution).
    let mut steps = 0;
    while w.rect_asleep(upper) != Some(true) || w.rect_asleep(top) != Some(true) {
        w.step();
        steps += 1;
        assert!(steps <= 1200, "{} asleep after 20 s", w.sleeping_rects());
    }
    let (u, t) = (w.rect(upper).unwrap().aabb, w.rect(top).unwrap().aabb);
    let tol = touch_tolerance(G);
    assert!((u.max.y - 300.0).abs() <= tol, "{u:?}");
    assert!((t.max.y - u.min.y).abs() <= tol, "{t:?} on {u:?}");
    supported_and_apart(&w, tol).unwrap();
}

#[test]
fn removing_a_sleeping_box_wakes_what_slept_on_it() {
    let (mut w, [lower, upper, top]) = three_asleep();
    w.remove_rect(lower).unwrap();
    assert_eq!(w.sleeping_rects(), 0);
    // They fall 40 units together (sqrt(2·40/981) = 0.286 s), bounce off the floor and
    // each other at restitution 0.5, and sleep on the floor, stacked.
    let mut steps = 0;
    while w.sleeping_rects() < 2 {
        w.step();
        steps += 1;
        assert!(steps <= 300, "{} asleep after 5 s", w.sleeping_rects());
    }
    let (u, t) = (w.rect(upper).unwrap().aabb, w.rect(top).unwrap().aabb);
    let tol = touch_tolerance(G);
    assert!((u.max.y - 300.0).abs() <= tol, "{u:?}");
    assert!((t.max.y - u.min.y).abs() <= tol, "{t:?} on {u:?}");
}

#[test]
fn a_snapshot_taken_while_boxes_count_toward_sleep_continues_with_the_same_bits() {
    let mut w = world(true);
    crates(&mut w, 3);
    let built = w.clone();
    w.step();
    w.step();
    let snap = w.snapshot();
    let mut r = built;
    r.restore(&snap).unwrap();
    assert_eq!(r.state_hash(), w.state_hash());
    // Through JSON too (serde_json with float_roundtrip).
    let json = serde_json::to_string(&snap).unwrap();
    let mut q = world(true);
    crates(&mut q, 3);
    q.restore(&serde_json::from_str(&json).unwrap()).unwrap();
    for _ in 0..120 {
        w.step();
        r.step();
        q.step();
        assert_eq!(r.state_hash(), w.state_hash());
        assert_eq!(q.state_hash(), w.state_hash());
        assert_eq!(r.events(), w.events());
    }
    assert_eq!(w.sleeping_rects(), 24);
}
