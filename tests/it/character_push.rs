//! Characters meet balls and dynamic boxes ([`CharacterPush`]): a ball bounces off a standing
//! character at its exact time of impact; a walking character stops exactly at a ball and
//! pushes it with the elastic-bounce speed (kinematic) or the two-body result (a mass); a
//! ball pinned against a wall is not shot out; `None` passes through; over random scenes no
//! ball ends a step inside a character, and a snapshot continues bit for bit.

use crate::build::{ball, world};
use collide_world::rng::XorShift64Star;
use collide_world::{
    Aabb, Body, CharacterDesc, CharacterId, CharacterPush, Contact, Event, Grid, RectDesc,
    RectKind, Target, Vec2, World,
};

const DT: f64 = 1.0 / 60.0;

fn character(w: &mut World, pos: Vec2, half: Vec2, push: CharacterPush) -> CharacterId {
    w.add_character(CharacterDesc {
        pos,
        half_extents: half,
        push,
        ..CharacterDesc::default()
    })
    .expect("a valid character")
}

/// How far ball `b` (centre, radius) reaches into box `a`: positive when they overlap.
fn depth(a: &Aabb, center: Vec2, radius: f64) -> f64 {
    let q = center.clamp(a.min, a.max);
    if q == center {
        // The centre inside: at least the radius.
        let d = (center - a.min).min(a.max - center).min_element();
        return radius + d;
    }
    radius - (center - q).length()
}

#[test]
fn a_walking_character_stops_exactly_at_a_ball_and_pushes_it_at_twice_its_speed() {
    // No gravity: a 16 × 24 character at x = 100 walking right at 120 units/s toward a ball
    // of radius 8 at rest at x = 200 on the character's mid-height. Its right side (x + 8)
    // reaches the ball's left (192) after 84 units: 0.7 s = 42 steps.
    let mut w = world(Vec2::new(400.0, 200.0), DT, Vec2::ZERO);
    let c = character(
        &mut w,
        Vec2::new(100.0, 100.0),
        Vec2::new(8.0, 12.0),
        CharacterPush::Kinematic,
    );
    let b = w
        .add_ball(ball(Vec2::new(200.0, 100.0), Vec2::ZERO, 8.0))
        .expect("a valid ball");
    let mut hit_at = None;
    for k in 0..60 {
        w.set_character_velocity(c, Vec2::new(120.0, 0.0))
            .expect("live");
        let t0 = w.time();
        for e in w.step().to_vec() {
            if let Event::Contact(Contact {
                body: Body::Character(id),
                other: Target::Ball(bb),
                normal,
                toi,
                speed,
                ..
            }) = e
            {
                assert_eq!((id, bb), (c, b));
                assert_eq!(normal, Vec2::new(-1.0, 0.0));
                assert!((speed - 120.0).abs() < 1e-9, "{speed}");
                hit_at.get_or_insert((k, t0 + toi));
            }
        }
        if hit_at.is_some_and(|(s, _)| s == k) {
            // Stopped exactly against the ball, which leaves at 240 units/s.
            let ch = w.character(c).expect("live");
            assert!((ch.pos.x - 184.0).abs() < 1e-9, "{}", ch.pos.x);
            let bv = w.ball(b).expect("live").vel;
            assert!((bv - Vec2::new(240.0, 0.0)).length() < 1e-9, "{bv}");
        }
        // Never inside each other.
        let ch = *w.character(c).expect("live");
        let bb = w.ball(b).expect("live");
        assert!(depth(&ch.aabb(), bb.pos, bb.radius) <= 1e-9, "step {k}");
    }
    let (_, t) = hit_at.expect("the character met the ball");
    assert!((t - 0.7).abs() < 1e-9, "{t}");
}

#[test]
fn a_character_with_a_mass_shares_the_momentum() {
    // Equal masses, elastic: the ball takes the character's speed and the character stops
    // (its velocity after the push, read before the game sets it again).
    let mut w = world(Vec2::new(400.0, 200.0), DT, Vec2::ZERO);
    let ball_mass = std::f64::consts::PI * 64.0;
    let c = character(
        &mut w,
        Vec2::new(100.0, 100.0),
        Vec2::new(8.0, 12.0),
        CharacterPush::Mass(ball_mass),
    );
    let b = w
        .add_ball(ball(Vec2::new(200.0, 100.0), Vec2::ZERO, 8.0))
        .expect("a valid ball");
    w.set_character_velocity(c, Vec2::new(120.0, 0.0))
        .expect("live");
    for _ in 0..60 {
        let met = w.step().iter().any(|e| {
            matches!(
                e,
                Event::Contact(Contact {
                    body: Body::Character(_),
                    other: Target::Ball(_),
                    ..
                })
            )
        });
        if met {
            let bv = w.ball(b).expect("live").vel;
            let cv = w.character(c).expect("live").vel;
            assert!((bv - Vec2::new(120.0, 0.0)).length() < 1e-9, "{bv}");
            assert!(cv.length() < 1e-9, "{cv}");
            return;
        }
    }
    panic!("never met");
}

#[test]
fn a_ball_dropped_on_a_standing_characters_head_bounces_at_the_exact_time() {
    // Gravity 1000: a character standing on a floor of tiles (top y = 180) has its top at
    // y = 156; a ball of radius 4 dropped from y = 100 at its centre falls 52 units to touch
    // it: t = √(2·52/1000).
    let g = 1000.0;
    let mut w = world(Vec2::new(200.0, 200.0), DT, Vec2::new(0.0, g));
    let rows = [
        "          ",
        "          ",
        "          ",
        "          ",
        "          ",
    ];
    let mut rows: Vec<&str> = rows.to_vec();
    rows.extend(["          "; 4]);
    rows.push("##########");
    w.set_grid(Grid::from_rows(20.0, Vec2::ZERO, &rows).expect("valid rows"));
    let c = character(
        &mut w,
        Vec2::new(100.0, 168.0),
        Vec2::new(8.0, 12.0),
        CharacterPush::Kinematic,
    );
    // Let it settle on the floor.
    w.step();
    assert!(w.character(c).expect("live").on_ground());
    let top = w.character(c).expect("live").aabb().min.y;
    assert!((top - 156.0).abs() < 1e-9, "{top}");
    let t_start = w.time();
    let b = w
        .add_ball(ball(Vec2::new(100.0, 100.0), Vec2::ZERO, 4.0))
        .expect("a valid ball");
    let expected = (2.0 * 52.0 / g).sqrt();
    for _ in 0..30 {
        let t0 = w.time();
        for e in w.step().to_vec() {
            if let Event::Contact(Contact {
                body: Body::Ball(bb),
                other: Target::Character(id),
                normal,
                toi,
                ..
            }) = e
            {
                assert_eq!((bb, id), (b, c));
                assert_eq!(normal, Vec2::new(0.0, -1.0));
                let t = t0 + toi - t_start;
                assert!((t - expected).abs() < 1e-9, "{t} vs {expected}");
                // Elastic: it leaves upward at the speed it came.
                let v = w.ball(b).expect("live").vel;
                assert!(v.y < 0.0, "{v}");
                return;
            }
        }
    }
    panic!("the ball never met the character");
}

#[test]
fn a_fast_ball_never_passes_through_a_character() {
    for speed in [1e3, 1e4, 1e5] {
        let mut w = world(Vec2::new(2000.0, 200.0), DT, Vec2::ZERO);
        let c = character(
            &mut w,
            Vec2::new(1000.0, 100.0),
            Vec2::new(8.0, 12.0),
            CharacterPush::Kinematic,
        );
        let b = w
            .add_ball(ball(Vec2::new(100.0, 100.0), Vec2::new(speed, 0.0), 3.0))
            .expect("a valid ball");
        let mut met = 0;
        for _ in 0..120 {
            met += w
                .step()
                .iter()
                .filter(|e| {
                    matches!(
                        e,
                        Event::Contact(Contact {
                            other: Target::Character(_),
                            ..
                        })
                    )
                })
                .count();
            let x = w.ball(b).expect("live").pos.x;
            let left = w.character(c).expect("live").aabb().min.x;
            assert!(
                x + 3.0 <= left + 1e-9,
                "{speed}: the ball at {x} passed {left}"
            );
        }
        assert!(met > 0, "{speed}");
    }
}

#[test]
fn no_push_lets_balls_and_characters_pass_through_each_other() {
    let mut w = world(Vec2::new(400.0, 200.0), DT, Vec2::ZERO);
    let c = character(
        &mut w,
        Vec2::new(100.0, 100.0),
        Vec2::new(8.0, 12.0),
        CharacterPush::None,
    );
    let b = w
        .add_ball(ball(Vec2::new(300.0, 100.0), Vec2::new(-100.0, 0.0), 4.0))
        .expect("a valid ball");
    w.set_character_velocity(c, Vec2::new(100.0, 0.0))
        .expect("live");
    for _ in 0..90 {
        assert!(!w.step().iter().any(|e| matches!(
            e,
            Event::Contact(Contact {
                other: Target::Character(_) | Target::Ball(_),
                ..
            })
        )));
    }
    // Both went on at their speeds: 1.5 s.
    assert!((w.ball(b).expect("live").pos.x - 150.0).abs() < 1e-9);
    assert!((w.character(c).expect("live").pos.x - 250.0).abs() < 1e-9);
}

#[test]
fn a_ball_pinned_against_a_wall_is_not_shot_out() {
    // The character walks into a ball lying against the world's right wall.
    let mut w = world(Vec2::new(400.0, 200.0), DT, Vec2::ZERO);
    let c = character(
        &mut w,
        Vec2::new(300.0, 100.0),
        Vec2::new(8.0, 12.0),
        CharacterPush::Kinematic,
    );
    let b = w
        .add_ball(ball(Vec2::new(392.0, 100.0), Vec2::ZERO, 8.0))
        .expect("a valid ball");
    let mut top: f64 = 0.0;
    for _ in 0..120 {
        w.set_character_velocity(c, Vec2::new(200.0, 0.0))
            .expect("live");
        w.step();
        let bb = w.ball(b).expect("live");
        top = top.max(bb.vel.length());
        let ch = *w.character(c).expect("live");
        assert!(depth(&ch.aabb(), bb.pos, bb.radius) <= 1e-9);
        assert!(bb.pos.x + bb.radius <= 400.0 + 1e-9);
    }
    assert!(top <= 200.0 + 1e-9, "the pinned ball reached {top}");
    // The character stands against the ball, the ball against the wall.
    let x = w.character(c).expect("live").pos.x;
    assert!((x - 376.0).abs() < 1e-6, "{x}");
}

#[test]
fn a_character_pushes_a_dynamic_box() {
    let mut w = world(Vec2::new(400.0, 200.0), DT, Vec2::ZERO);
    let c = character(
        &mut w,
        Vec2::new(100.0, 100.0),
        Vec2::new(8.0, 12.0),
        CharacterPush::Kinematic,
    );
    let r = w
        .add_rect(RectDesc {
            aabb: Aabb::new(Vec2::new(200.0, 90.0), Vec2::new(220.0, 110.0)),
            kind: RectKind::Dynamic,
            ..RectDesc::default()
        })
        .expect("a valid box");
    let mut pushed = false;
    for _ in 0..90 {
        w.set_character_velocity(c, Vec2::new(120.0, 0.0))
            .expect("live");
        w.step();
        let rb = *w.rect(r).expect("live");
        let ch = w.character(c).expect("live").aabb();
        assert!(ch.max.x <= rb.aabb.min.x + 1e-9, "{ch:?} {rb:?}");
        if rb.vel.x > 0.0 {
            pushed = true;
            assert!(
                (rb.vel.x - 240.0).abs() < 1e-9 || rb.vel.x < 240.0,
                "{:?}",
                rb.vel
            );
        }
    }
    assert!(pushed);
}

#[test]
fn random_characters_and_balls_never_end_a_step_inside_each_other() {
    let mut rng = XorShift64Star::new(0x5eed_c0de);
    let mut checks = 0;
    for case in 0..20 {
        let gravity = if case % 2 == 0 {
            Vec2::new(0.0, 800.0)
        } else {
            Vec2::ZERO
        };
        let mut w = world(Vec2::new(600.0, 300.0), DT, gravity);
        w.set_grid(crate::build::grid_where(30, 15, 20.0, |col, row| {
            row == 14 || (row > 9 && rng.next_f64() < 0.08 && col % 7 != 0)
        }));
        let push = match case % 3 {
            0 => CharacterPush::Kinematic,
            1 => CharacterPush::Mass(500.0),
            _ => CharacterPush::Mass(5.0),
        };
        let mut ids = Vec::new();
        for k in 0..3 {
            ids.push(character(
                &mut w,
                Vec2::new(80.0 + 200.0 * f64::from(k), 60.0),
                Vec2::new(8.0, 12.0),
                push,
            ));
        }
        for _ in 0..40 {
            let pos = Vec2::new(rng.range_f64(20.0, 580.0), rng.range_f64(10.0, 120.0));
            let vel = Vec2::new(rng.range_f64(-300.0, 300.0), rng.range_f64(-300.0, 300.0));
            let r = rng.range_f64(2.0, 6.0);
            // Clear of the characters (a ball placed inside a tile is pushed out at the
            // next step; one inside a character is not).
            let clear = ids
                .iter()
                .all(|&id| depth(&w.character(id).expect("live").aabb(), pos, r) < 0.0);
            if clear {
                w.add_ball(ball(pos, vel, r)).expect("a valid ball");
            }
        }
        w.step();
        for step in 0..240 {
            for (i, &id) in ids.iter().enumerate() {
                let ch = *w.character(id).expect("live");
                let dir = if (step / 40 + i) % 2 == 0 { 1.0 } else { -1.0 };
                let vy = if ch.on_ground() && step % 37 == i {
                    -400.0
                } else {
                    ch.vel.y
                };
                w.set_character_velocity(id, Vec2::new(150.0 * dir, vy))
                    .expect("live");
            }
            w.step();
            for &id in &ids {
                let a = w.character(id).expect("live").aabb();
                for b in w.balls().iter() {
                    let d = depth(&a, b.pos, b.radius);
                    assert!(d <= 1e-9, "case {case} step {step}: {:?} {d}", b.id);
                    checks += 1;
                }
            }
        }
    }
    assert!(checks > 100_000, "{checks}");
}

#[test]
fn a_snapshot_with_pushing_characters_continues_bit_for_bit() {
    let mut w = world(Vec2::new(400.0, 200.0), DT, Vec2::new(0.0, 500.0));
    let rows = ["                    "; 9];
    let mut rows = rows.to_vec();
    rows.push("####################");
    w.set_grid(Grid::from_rows(20.0, Vec2::ZERO, &rows).expect("valid rows"));
    let c = character(
        &mut w,
        Vec2::new(100.0, 160.0),
        Vec2::new(8.0, 12.0),
        CharacterPush::Mass(50.0),
    );
    for k in 0..12 {
        w.add_ball(ball(
            Vec2::new(140.0 + 15.0 * f64::from(k), 150.0),
            Vec2::new(-40.0, 0.0),
            5.0,
        ))
        .expect("a valid ball");
    }
    let drive = |w: &mut World| {
        w.set_character_velocity(c, Vec2::new(90.0, w.character(c).expect("live").vel.y))
            .expect("live");
        w.step();
    };
    for _ in 0..30 {
        drive(&mut w);
    }
    let snap = w.snapshot();
    let mut copy = world(Vec2::new(400.0, 200.0), DT, Vec2::new(0.0, 500.0));
    copy.set_grid(Grid::from_rows(20.0, Vec2::ZERO, &rows).expect("valid rows"));
    copy.restore(&snap).expect("the same world shape");
    assert_eq!(copy.state_hash(), w.state_hash());
    for _ in 0..60 {
        drive(&mut w);
        drive(&mut copy);
        assert_eq!(copy.state_hash(), w.state_hash());
    }
    assert_eq!(
        copy.character(c).expect("live").desc.push,
        CharacterPush::Mass(50.0)
    );
}

#[test]
fn a_ball_left_on_a_characters_head_falls_when_it_walks_away() {
    // A ball dropped on a standing character in a world of restitution 0 comes to lie on its
    // head; when the character walks away, the ball falls to the floor (top y = 180).
    let config = collide_world::StepConfig {
        restitution: 0.0,
        ..crate::build::config(DT, Vec2::new(0.0, 1000.0))
    };
    let mut w =
        crate::build::world_with(Vec2::new(400.0, 200.0), collide_world::Walls::ALL, config);
    let mut rows = vec!["                    "; 9];
    rows.push("####################");
    w.set_grid(Grid::from_rows(20.0, Vec2::ZERO, &rows).expect("valid rows"));
    let c = character(
        &mut w,
        Vec2::new(100.0, 168.0),
        Vec2::new(8.0, 12.0),
        CharacterPush::Kinematic,
    );
    w.step();
    let b = w
        .add_ball(ball(Vec2::new(100.0, 120.0), Vec2::ZERO, 4.0))
        .expect("a valid ball");
    for _ in 0..240 {
        w.set_character_velocity(c, Vec2::ZERO).expect("live");
        w.step();
    }
    let y = w.ball(b).expect("live").pos.y;
    assert!((y - 152.0).abs() < 1e-6, "on the head: {y}");
    for _ in 0..120 {
        w.set_character_velocity(c, Vec2::new(150.0, 0.0))
            .expect("live");
        w.step();
    }
    let y = w.ball(b).expect("live").pos.y;
    assert!((y - 176.0).abs() < 1e-6, "on the floor: {y}");
}
