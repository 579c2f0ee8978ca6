//! Sleeping balls (`crates/world/src/step/sleep/`): piles under gravity with restitution below 1 come
//! to rest without reaching the step's event bound, sleeping balls are met as immovable until
//! a fast hit wakes them, what lies on a ball that wakes wakes too, and sleep is kept by
//! snapshots and does not depend on the step size.

use collide_tests::{sleep_speed, touch_tolerance};
use collide_world::Body;
use collide_world::Contact;
use collide_world::Target;
use collide_world::{
    BallDesc, BallId, Event, RectDesc, RectKind, Snapshot, StepConfig, Vec2, Walls, World,
};

const G: Vec2 = Vec2::new(0.0, 981.0);

/// The plinko board with bins exactly ten balls wide, restitution `e`, `n` balls.
fn plinko(e: f64, n: usize, sleep: bool) -> World {
    let mut scene = collide_scenes::load("plinko").unwrap().unwrap();
    scene.step.restitution = e;
    scene.step.sleep = sleep;
    scene.spawn.as_mut().unwrap().count = n;
    World::from_scene(&scene).unwrap()
}

/// Pairs of balls closer than the sum of their radii less `slack`.
fn overlapping_pairs(w: &World, slack: f64) -> usize {
    let balls: Vec<_> = w.balls().collect();
    let mut n = 0;
    for (k, a) in balls.iter().enumerate() {
        for b in &balls[k + 1..] {
            if a.pos.distance(b.pos) < a.radius + b.radius - slack {
                n += 1;
            }
        }
    }
    n
}

fn contacts(events: &[Event]) -> usize {
    events
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::Contact(Contact {
                    body: Body::Ball(_),
                    other: Target::Ball(_),
                    ..
                }) | Event::Contact(Contact {
                    body: Body::Ball(_),
                    other: Target::Wall(_),
                    ..
                }) | Event::Contact(Contact {
                    body: Body::Ball(_),
                    other: Target::Cell(_),
                    ..
                })
            )
        })
        .count()
}

fn limits(events: &[Event]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, Event::IterationLimit { .. }))
        .count()
}

/// A well 8 units wide (two balls of radius 2 side by side, an exact fit) and 60 deep,
/// closed on every side, restitution 0.5: `rows` rows of two balls dropped from rest, the
/// top row first in the ids (left, right), the bottom row last.
fn well(rows: usize, dt: f64) -> (World, Vec<BallId>) {
    let config = StepConfig {
        dt,
        gravity: G,
        restitution: 0.5,
        ..StepConfig::default()
    };
    let mut w = World::new(Vec2::new(8.0, 60.0), Walls::ALL, config).unwrap();
    let mut ids = Vec::new();
    for r in 0..rows {
        for x in [2.0, 6.0] {
            let pos = Vec2::new(x, 5.0 + 7.0 * r as f64);
            ids.push(
                w.add_ball(BallDesc {
                    pos,
                    radius: 2.0,
                    ..BallDesc::default()
                })
                .unwrap(),
            );
        }
    }
    (w, ids)
}

#[test]
fn an_exact_fit_pile_falls_asleep_without_reaching_the_event_bound() {
    // 100 balls, restitution 0.5, into bins exactly ten balls wide: every step ends within
    // the event bound, no two balls ever overlap, and the piles come to rest: at the end
    // fewer contacts in a whole second than there are balls (a ball sliding on a bin's floor
    // without friction still meets the bin's sides now and then), most balls asleep, the
    // others on a bin's floor.
    let mut w = plinko(0.5, 100, true);
    let mut last_second = 0;
    for step in 1..=960 {
        let events = w.step().to_vec();
        assert_eq!(
            limits(&events),
            0,
            "step {step}: the event bound was reached"
        );
        if step > 900 {
            last_second += contacts(&events);
        }
        if step % 60 == 0 {
            assert_eq!(overlapping_pairs(&w, 1e-9), 0, "step {step}");
        }
    }
    assert!(
        last_second < 100,
        "{last_second} contacts in the last second"
    );
    let asleep = w.sleeping_balls();
    assert!(asleep >= 50, "{asleep} balls asleep");
    for b in w.balls() {
        if w.ball_asleep(b.id) == Some(true) {
            assert_eq!(b.vel, Vec2::ZERO);
        } else {
            // On the floor of a bin (the grid's last row starts at y = 640), sliding.
            assert!((b.pos.y - 638.0).abs() < 1e-9, "{b:?}");
            assert_eq!(b.vel.y, 0.0, "{b:?}");
        }
    }
}

#[test]
fn the_same_pile_without_sleep_reaches_the_event_bound() {
    // The rattle sleep removes: balls side by side in a row that fills its bin exactly meet
    // about a million times a second under the TC rule.
    let mut w = plinko(0.5, 100, false);
    let mut reached = 0;
    for _ in 0..400 {
        reached += limits(w.step());
    }
    assert!(reached > 100, "{reached} iteration limits");
    assert_eq!(w.sleeping_balls(), 0);
}

#[test]
fn restitution_one_never_sleeps() {
    // Elastic balls keep their energy: none of them ever sleeps.
    let mut w = plinko(1.0, 200, true);
    for _ in 0..600 {
        w.step();
        assert_eq!(w.sleeping_balls(), 0);
    }
}

#[test]
fn a_well_of_two_columns_sleeps_and_a_fast_hit_wakes_only_what_it_moves() {
    let (mut w, ids) = well(3, 1.0 / 60.0);
    for _ in 0..120 {
        assert_eq!(limits(w.step()), 0);
    }
    assert_eq!(w.sleeping_balls(), 6, "every ball of the well asleep");
    // Stacked in two columns, each on the one below (or the floor), within the touch
    // tolerance.
    let tol = touch_tolerance(G);
    for (k, &id) in ids.iter().enumerate() {
        let b = w.ball(id).unwrap();
        let row = 2 - k / 2;
        let expected_y = 58.0 - 4.0 * row as f64;
        assert!(
            b.pos.y <= expected_y + 1e-9 && b.pos.y >= expected_y - (row as f64 + 1.0) * tol,
            "{b:?}"
        );
    }
    let still: Vec<Vec2> = ids.iter().map(|&id| w.ball(id).unwrap().pos).collect();
    // A slow ball (below the sleep speed) set down on the left column bounces off it without
    // waking it.
    let slow = 0.5 * sleep_speed(G);
    let top = w.ball(ids[0]).unwrap().pos;
    let probe = w
        .add_ball(BallDesc {
            pos: top - Vec2::new(0.0, 4.0 + 1e-6),
            vel: Vec2::new(0.0, slow),
            radius: 2.0,
            ..BallDesc::default()
        })
        .unwrap();
    w.step();
    assert_eq!(w.sleeping_balls(), 6, "a slow touch wakes nothing");
    for (k, &id) in ids.iter().enumerate() {
        assert_eq!(w.ball(id).unwrap().pos, still[k]);
    }
    w.remove_ball(probe).unwrap();
    // Removing the top-left ball leaves the others asleep: nothing lay on it.
    w.remove_ball(ids[0]).unwrap();
    assert_eq!(w.sleeping_balls(), 5);
    // A ball dropped from high above onto the top-right one wakes it (the impact is far
    // above the sleep speed); the ones below it, met a moment later inside the TC window,
    // stay asleep, and nothing overlaps.
    let right_top = w.ball(ids[1]).unwrap().pos;
    w.add_ball(BallDesc {
        pos: right_top - Vec2::new(0.0, 30.0),
        vel: Vec2::new(0.0, 300.0),
        radius: 2.0,
        ..BallDesc::default()
    })
    .unwrap();
    let mut woke = false;
    for _ in 0..30 {
        w.step();
        woke |= w.ball_asleep(ids[1]) == Some(false);
        assert_eq!(overlapping_pairs(&w, 1e-9), 0);
    }
    assert!(woke, "the hit ball woke");
    for &id in &ids[2..] {
        assert_eq!(w.ball_asleep(id), Some(true));
    }
}

#[test]
fn what_lies_on_a_ball_that_wakes_wakes_and_falls() {
    let (mut w, ids) = well(3, 1.0 / 60.0);
    for _ in 0..120 {
        w.step();
    }
    assert_eq!(w.sleeping_balls(), 6);
    // Waking the bottom-left ball wakes the column on it, not the other column.
    w.wake_ball(ids[4]).unwrap();
    for (k, &id) in ids.iter().enumerate() {
        assert_eq!(w.ball_asleep(id), Some(k % 2 == 1), "ball {k}");
    }
    // Removing the other column's bottom ball: the two above it fall by its diameter and
    // settle (asleep again) on the floor, never overlapping anything.
    w.remove_ball(ids[5]).unwrap();
    assert_eq!(w.ball_asleep(ids[3]), Some(false));
    assert_eq!(w.ball_asleep(ids[1]), Some(false));
    let before = w.ball(ids[3]).unwrap().pos.y;
    let mut reached = 0;
    for _ in 0..240 {
        reached += limits(w.step());
        assert_eq!(overlapping_pairs(&w, 1e-9), 0);
    }
    // The right column slides down into a slot exactly one ball wide between the wall and the
    // sleeping left column, and comes to rest at the very height where the slot is narrowest:
    // on its last hundred-millionth of a unit the ball meets the wall and the sleeping ball at
    // zero time (an exact fit against a curved side, which the wedge rule does not cover), and
    // the event bound stops it once before it falls asleep.
    assert!(reached <= 1, "{reached} iteration limits");
    let after = w.ball(ids[3]).unwrap().pos.y;
    assert!(
        (after - before - 4.0).abs() < 2.0 * touch_tolerance(G),
        "{before} → {after}"
    );
    assert_eq!(w.sleeping_balls(), 5);
}

#[test]
fn a_kinematic_floor_that_starts_moving_wakes_the_pile_on_it() {
    // The well's floor is a kinematic rectangle; the pile sleeps on it, then the floor
    // sinks at 50 units/s: the pile wakes and falls with it, nothing left floating.
    let config = StepConfig {
        gravity: G,
        restitution: 0.5,
        ..StepConfig::default()
    };
    let mut w = World::new(Vec2::new(8.0, 100.0), Walls::ALL, config).unwrap();
    let floor = w
        .add_rect(RectDesc {
            aabb: collide_world::Aabb::new(Vec2::new(0.0, 40.0), Vec2::new(8.0, 44.0)),
            kind: RectKind::Kinematic,
            ..RectDesc::default()
        })
        .unwrap();
    let mut ids = Vec::new();
    for r in 0..2 {
        for x in [2.0, 6.0] {
            ids.push(
                w.add_ball(BallDesc {
                    pos: Vec2::new(x, 5.0 + 7.0 * f64::from(r)),
                    radius: 2.0,
                    ..BallDesc::default()
                })
                .unwrap(),
            );
        }
    }
    for _ in 0..120 {
        w.step();
    }
    assert_eq!(w.sleeping_balls(), 4);
    w.set_rect_velocity(floor, Vec2::new(0.0, 50.0)).unwrap();
    assert_eq!(w.sleeping_balls(), 0);
    for _ in 0..30 {
        w.step();
        assert_eq!(overlapping_pairs(&w, 1e-9), 0);
    }
    // Half a second later the floor is 25 units lower; the bottom balls lie on it.
    let top = w.rect(floor).unwrap().aabb.min.y;
    assert!((top - 65.0).abs() < 1e-9);
    for &id in &ids[2..] {
        let b = w.ball(id).unwrap();
        assert!(b.pos.y > 60.0 && b.pos.y <= top - 2.0 + 1e-9, "{b:?}");
    }
}

#[test]
fn sleep_is_kept_by_snapshots() {
    // Once the piles have settled (most balls asleep, some counting toward it), a snapshot
    // restored into another world, through JSON, is the same state; a ball then dropped into
    // a bin in both worlds wakes the same balls and gives the same bits.
    let mut a = plinko(0.5, 100, true);
    for _ in 0..900 {
        a.step();
    }
    let asleep = a.sleeping_balls();
    assert!(asleep >= 50, "{asleep}");
    let snap = a.snapshot();
    let json = serde_json::to_string(&snap).unwrap();
    let back: Snapshot = serde_json::from_str(&json).unwrap();
    let mut b = plinko(0.5, 100, true);
    b.restore(&back).unwrap();
    assert_eq!(a.state_hash(), b.state_hash());
    assert_eq!(b.sleeping_balls(), asleep);
    let drop = BallDesc {
        pos: Vec2::new(140.0, 450.0),
        vel: Vec2::new(0.0, 200.0),
        radius: 2.0,
        ..BallDesc::default()
    };
    a.add_ball(drop).unwrap();
    b.add_ball(drop).unwrap();
    let sleepers: Vec<BallId> = a
        .balls()
        .filter(|x| a.ball_asleep(x.id) == Some(true))
        .map(|x| x.id)
        .collect();
    let mut woken = 0;
    for step in 0..240 {
        a.step();
        b.step();
        assert_eq!(a.state_hash(), b.state_hash(), "step {step}");
        let awake = sleepers
            .iter()
            .filter(|&&id| a.ball_asleep(id) == Some(false))
            .count();
        woken = woken.max(awake);
    }
    assert!(woken > 0, "the dropped ball woke nothing");
}

#[test]
fn a_snapshot_in_the_middle_of_settling_continues_with_the_same_bits() {
    // Piles half settled, rattling (the TC rule's memory of hits a moment ago matters) and
    // counting toward sleep, with sleep on and off: restored from JSON into another world,
    // every following step gives the same bits as the run without the restore.
    for sleep in [true, false] {
        let mut a = plinko(0.5, 100, sleep);
        for _ in 0..320 {
            a.step();
        }
        let json = serde_json::to_string(&a.snapshot()).unwrap();
        let back: Snapshot = serde_json::from_str(&json).unwrap();
        let mut b = plinko(0.5, 100, sleep);
        b.restore(&back).unwrap();
        for step in 0..150 {
            a.step();
            b.step();
            assert_eq!(a.state_hash(), b.state_hash(), "sleep {sleep}, step {step}");
        }
    }
}

#[test]
fn sleep_does_not_depend_on_the_step_size() {
    // The well at dt = 1/64 and 1/256: the same balls fall asleep at the same places.
    let (mut a, ids) = well(3, 1.0 / 64.0);
    let (mut b, _) = well(3, 1.0 / 256.0);
    for _ in 0..128 {
        a.step();
    }
    for _ in 0..512 {
        b.step();
    }
    assert_eq!(a.sleeping_balls(), 6);
    assert_eq!(b.sleeping_balls(), 6);
    for &id in &ids {
        let (pa, pb) = (a.ball(id).unwrap().pos, b.ball(id).unwrap().pos);
        assert!(pa.distance(pb) < 1e-9, "{pa} {pb}");
    }
}

/// `collide soak plinko`'s board: 5000 balls of radius 2 dropped over the whole board at
/// restitution 0.5, sleep on, seed 1. While the piles form, a ball as wide as the slot
/// between two sleeping balls of a row, lying on a third, used to part from the one under
/// it at a `REST_TIME` flight's speed, bounce elastically (the TC rule) off one side, be
/// stopped by the exact fit against the other, and fall back, every 9 ns at the same
/// speeds, until the event bound stopped it (steps 106 and 135). A ball driven from one
/// sleeping body into another that with it balances gravity now stops there, asleep.
#[test]
fn the_soaks_plinko_piles_form_without_reaching_the_event_bound() {
    let mut scene = collide_scenes::load("plinko").unwrap().unwrap();
    scene.step.restitution = 0.5;
    scene.step.sleep = true;
    let size = scene.size;
    let spawn = scene.spawn.as_mut().unwrap();
    spawn.count = 5000;
    spawn.seed = 1;
    spawn.region = Some(collide_world::Aabb::new(
        Vec2::new(8.0, 8.0),
        Vec2::new(size.x - 8.0, size.y * 0.75),
    ));
    let mut w = World::from_scene(&scene).unwrap();
    for step in 0..150 {
        let events = w.step().to_vec();
        assert_eq!(
            limits(&events),
            0,
            "step {step}: a body stopped at the event bound"
        );
    }
    assert!(w.sleeping_balls() > 1000, "{} asleep", w.sleeping_balls());
    assert!(w.balls().all(|b| b.pos.is_finite() && b.vel.is_finite()));
    assert_eq!(overlapping_pairs(&w, 1e-6), 0);
}
