//! The world's contract beyond single bounces: ids, open sides, the iteration bound, queries,
//! determinism and exposed-feature bookkeeping.

use collide_core::{Aabb, Vec2};
use collide_tests::{ball, cc, world_with_cells};
use collide_world::{
    Body, Cell, Event, RectDesc, RectKind, Side, StepConfig, Target, Walls, World,
};

#[test]
fn ids_stay_valid_across_removals_and_stale_ids_yield_none() {
    let mut w = World::new(Vec2::new(100.0, 100.0), Walls::ALL, StepConfig::default()).unwrap();
    let a = w
        .add_ball(ball((10.0, 10.0), (1.0, 0.0), 1.0, 1.0))
        .unwrap();
    let b = w
        .add_ball(ball((20.0, 10.0), (2.0, 0.0), 1.0, 1.0))
        .unwrap();
    let c = w
        .add_ball(ball((30.0, 10.0), (3.0, 0.0), 1.0, 1.0))
        .unwrap();
    assert_eq!(w.remove_ball(a).map(|x| x.pos.x), Some(10.0));
    // b and c are still themselves after `a`'s slot was refilled by a swap.
    assert_eq!(w.ball(b).unwrap().pos.x, 20.0);
    assert_eq!(w.ball(c).unwrap().pos.x, 30.0);
    assert!(w.ball(a).is_none());
    assert!(w.remove_ball(a).is_none());
    // A new ball reuses a's slot with a new generation: the old id does not see it.
    let d = w
        .add_ball(ball((40.0, 10.0), (0.0, 0.0), 1.0, 1.0))
        .unwrap();
    assert_eq!(d.index(), a.index());
    assert_ne!(d, a);
    assert!(w.ball(a).is_none());
    assert_eq!(w.ball(d).unwrap().pos.x, 40.0);
}

#[test]
fn removing_and_adding_while_going_through_events() {
    // BricksBeater's bottom is open: balls falling out are lost; for each loss the game adds a
    // new ball at the top while reading the step's events.
    let mut w = World::new(
        Vec2::new(100.0, 100.0),
        Walls::OPEN_BOTTOM,
        StepConfig::default(),
    )
    .unwrap();
    for k in 0..5 {
        w.add_ball(ball((10.0 + 20.0 * k as f64, 90.0), (0.0, 300.0), 2.0, 1.0))
            .unwrap();
    }
    let mut added = Vec::new();
    for _ in 0..10 {
        w.step();
        for e in w.take_events() {
            if let Event::BallLost { ball, side, .. } = e {
                assert_eq!(side, Side::Bottom);
                assert!(w.ball(ball).is_none());
                // Each at its own place (balls added onto each other would be parted).
                let x = 10.0 + 20.0 * added.len() as f64;
                added.push((
                    w.add_ball(collide_tests::ball((x, 10.0), (0.0, 0.0), 2.0, 1.0))
                        .unwrap(),
                    Vec2::new(x, 10.0),
                ));
            }
        }
    }
    assert_eq!(added.len(), 5);
    assert_eq!(w.balls().len(), 5);
    for (id, at) in added {
        assert_eq!(w.ball(id).unwrap().pos, at);
    }
}

#[test]
fn ball_is_lost_exactly_when_entirely_outside_an_open_side() {
    // Ball r = 2 at y = 90 moving down at 60 in a world of height 100 with an open bottom:
    // entirely outside when y = 102, after 12/60 = 0.2 s: lost in the step that contains it.
    let mut w = World::new(
        Vec2::new(100.0, 100.0),
        Walls::OPEN_BOTTOM,
        StepConfig {
            dt: 0.25,
            ..StepConfig::default()
        },
    )
    .unwrap();
    let id = w
        .add_ball(ball((50.0, 90.0), (0.0, 60.0), 2.0, 1.0))
        .unwrap();
    w.step();
    let lost: Vec<_> = w
        .events()
        .iter()
        .filter_map(|e| match *e {
            Event::BallLost { ball, toi, .. } => Some((ball, toi)),
            _ => None,
        })
        .collect();
    assert_eq!(lost.len(), 1);
    assert_eq!(lost[0].0, id);
    assert!((lost[0].1 - 0.2).abs() < 1e-12);
    assert!(w.ball(id).is_none());
}

#[test]
fn iteration_bound_is_reported_and_the_ball_stops_for_the_step() {
    // A ball between two walls 4.2 apart (r = 2), moving at 1000 units/s from x = 52.1: it
    // hits at 1e-4 s and then every 0.2/1000 s, i.e. 83 times in 1/60 s. A bound of 10
    // events of its own is a safety valve: past it the ball borrows the step's pool
    // (512 × 10 events) and all 83 bounces happen. In a step of 2 s (10 000 bounces) the pool
    // is spent: after 10 + 5120 events it stops, an IterationLimit event says so, and it
    // never leaves the gap.
    let make = |dt: f64| {
        let mut w = world_with_cells(
            Vec2::new(100.0, 100.0),
            dt,
            10.0,
            10,
            10,
            &[(4, 5), (5, 4), (5, 6), (6, 5)],
        );
        // The free cell (5,5) = [50,60]² is closed on four sides: a 10 × 10 pocket. Make it
        // narrower with a static rect from x = 54.2 to 60.
        w.add_rect(RectDesc {
            aabb: Aabb::new(Vec2::new(54.2, 50.0), Vec2::new(60.0, 60.0)),
            kind: RectKind::Static,
            ..RectDesc::default()
        })
        .unwrap();
        let mut cfg = *w.config();
        cfg.max_events_per_body = 10;
        w.set_config(cfg).unwrap();
        let id = w
            .add_ball(ball((52.1, 55.0), (1000.0, 0.0), 2.0, 1.0))
            .unwrap();
        (w, id)
    };
    let hits = |w: &World| {
        w.events()
            .iter()
            .filter(|e| matches!(e.kind(), "ball_tile" | "ball_rect"))
            .count()
    };
    let limit = |w: &World, id| {
        w.events()
            .iter()
            .any(|e| matches!(e, Event::IterationLimit { body: Body::Ball(b), .. } if *b == id))
    };
    let (mut w, id) = make(1.0 / 60.0);
    w.step();
    assert_eq!((hits(&w), limit(&w, id)), (83, false));
    let (mut w, id) = make(2.0);
    assert_eq!(w.config().event_pool(), 5120);
    w.step();
    assert_eq!(hits(&w), 10 + 5120);
    assert!(limit(&w, id));
    let p = w.ball(id).unwrap().pos;
    assert!(p.x >= 52.0 - 1e-9 && p.x <= 52.2 + 1e-9, "{p:?}");
}

#[test]
fn cast_circle_finds_the_first_hit_for_aim_previews() {
    // Cell (5,5) = [50,60]²; a circle r = 2 cast from (0,55) to (100,55) touches its left face
    // when the centre is at x = 48: toi = 48/100.
    let w = world_with_cells(Vec2::new(100.0, 100.0), 1.0 / 60.0, 10.0, 10, 10, &[(5, 5)]);
    let hit = w
        .cast_circle(
            Vec2::new(0.0, 55.0),
            Vec2::new(100.0, 55.0),
            2.0,
            &[],
            collide_world::Filter::ALL,
        )
        .unwrap();
    assert_eq!(hit.target, Target::Cell(cc(5, 5)));
    assert!((hit.toi - 0.48).abs() < 1e-12);
    assert_eq!(hit.normal, Vec2::new(-1.0, 0.0));
    assert!((hit.center - Vec2::new(48.0, 55.0)).length() < 1e-12);
    // Upward from (20,50) the top wall (y = 0) is met with the centre at y = 2: toi = 48/50.
    let hit = w
        .cast_circle(
            Vec2::new(20.0, 50.0),
            Vec2::new(20.0, 0.0),
            2.0,
            &[],
            collide_world::Filter::ALL,
        )
        .unwrap();
    assert_eq!(hit.target, Target::Wall(Side::Top));
    assert!((hit.toi - 0.96).abs() < 1e-12);
}

#[test]
fn point_and_box_queries_list_tiles_and_bodies() {
    let mut w = world_with_cells(
        Vec2::new(100.0, 100.0),
        1.0 / 60.0,
        10.0,
        10,
        10,
        &[(5, 5), (6, 5)],
    );
    let b = w
        .add_ball(ball((20.0, 20.0), (0.0, 0.0), 3.0, 1.0))
        .unwrap();
    let r = w
        .add_rect(RectDesc {
            aabb: Aabb::new(Vec2::new(70.0, 80.0), Vec2::new(90.0, 85.0)),
            kind: RectKind::Kinematic,
            ..RectDesc::default()
        })
        .unwrap();
    let mut out = Vec::new();
    w.query_point(Vec2::new(55.0, 55.0), collide_world::Filter::ALL, &mut out);
    assert_eq!(out, vec![Target::Cell(cc(5, 5))]);
    out.clear();
    w.query_point(Vec2::new(21.0, 22.0), collide_world::Filter::ALL, &mut out);
    assert_eq!(out, vec![Target::Ball(b)]);
    out.clear();
    // A box over x in [15,75], y in [15,82] overlaps both cells, the ball and the rect.
    w.query_aabb(
        &Aabb::new(Vec2::new(15.0, 15.0), Vec2::new(75.0, 82.0)),
        collide_world::Filter::ALL,
        &mut out,
    );
    assert_eq!(
        out,
        vec![
            Target::Cell(cc(5, 5)),
            Target::Cell(cc(6, 5)),
            Target::Ball(b),
            Target::Rect(r)
        ]
    );
}

#[test]
fn exposed_features_follow_brick_destruction() {
    use collide_core::Features;
    // Three bricks in a row: the middle one has only its top and bottom faces exposed; when it
    // is destroyed its neighbours' inner faces and corners become exposed.
    let mut w = world_with_cells(
        Vec2::new(100.0, 100.0),
        1.0 / 60.0,
        10.0,
        10,
        10,
        &[(3, 5), (4, 5), (5, 5)],
    );
    let g = w.grid().unwrap();
    assert_eq!(g.features(cc(4, 5)), Features::TOP | Features::BOTTOM);
    assert!(!g.features(cc(3, 5)).contains(Features::RIGHT));
    assert!(!g.features(cc(3, 5)).contains(Features::TOP_RIGHT));
    w.set_cell(cc(4, 5), Cell::Empty);
    let g = w.grid().unwrap();
    assert_eq!(g.features(cc(4, 5)), Features::NONE);
    assert_eq!(g.features(cc(3, 5)), Features::ALL);
    assert_eq!(g.features(cc(5, 5)), Features::ALL);
}

#[test]
fn same_scene_same_hash_and_hash_sees_every_change() {
    let make = || {
        let mut w = world_with_cells(
            Vec2::new(200.0, 200.0),
            1.0 / 60.0,
            10.0,
            20,
            20,
            &[(5, 5), (6, 5), (10, 12)],
        );
        for k in 0..50 {
            let x = 20.0 + 3.1 * k as f64;
            w.add_ball(ball(
                (x, 150.0 - k as f64),
                (90.0 - 3.0 * k as f64, 40.0 + k as f64),
                1.0,
                1.0,
            ))
            .unwrap();
        }
        w
    };
    let (mut a, mut b) = (make(), make());
    for _ in 0..300 {
        a.step();
        b.step();
    }
    assert_eq!(a.state_hash(), b.state_hash());
    let id = b.balls().get(7).expect("a ball").id;
    let v = b.ball(id).unwrap().vel;
    b.set_ball_velocity(id, v + Vec2::new(1e-12, 0.0)).unwrap();
    assert_ne!(a.state_hash(), b.state_hash());
}

#[test]
fn bad_input_gets_a_typed_error_naming_the_field() {
    let mut w = World::new(Vec2::new(100.0, 100.0), Walls::ALL, StepConfig::default()).unwrap();
    let e = w
        .add_ball(ball((1.0, 1.0), (0.0, 0.0), f64::NAN, 1.0))
        .unwrap_err();
    assert!(e.to_string().contains("radius"), "{e}");
    let e = w
        .add_ball(ball((1.0, 1.0), (0.0, 0.0), -1.0, 1.0))
        .unwrap_err();
    assert!(e.to_string().contains("radius"), "{e}");
    let e = w
        .add_ball(ball((f64::INFINITY, 1.0), (0.0, 0.0), 1.0, 1.0))
        .unwrap_err();
    assert!(e.to_string().contains("pos"), "{e}");
    let e = w
        .add_rect(RectDesc {
            aabb: Aabb::new(Vec2::new(5.0, 5.0), Vec2::new(1.0, 9.0)),
            ..RectDesc::default()
        })
        .unwrap_err();
    assert!(e.to_string().contains("min/max"), "{e}");
    let e = World::new(
        Vec2::new(100.0, 100.0),
        Walls::ALL,
        StepConfig {
            dt: 0.0,
            ..StepConfig::default()
        },
    )
    .unwrap_err();
    assert!(e.to_string().contains("dt"), "{e}");
    assert_eq!(w.balls().len(), 0);
}

/// `set_restitution` and `set_filter` work on any body by its `Target`: in a world of
/// restitution 0, a static segment given restitution 0.5 sends a ball hitting it at 100
/// units/s back at 50 (the larger of the two is used); given a filter the ball does not
/// collide with, the ball passes through it; a flipper's, a character's
/// and a ball's filters read back; cells, walls and stale ids are refused with the field.
#[test]
fn properties_are_set_per_property_on_any_body() {
    use collide_world::{
        BallDesc, CharacterDesc, Filter, FlipperDesc, ShapeDesc, Target, WorldError,
    };
    let run = |e: Option<f64>, filter: Option<Filter>| {
        let config = StepConfig {
            dt: 0.01,
            restitution: 0.0,
            ..StepConfig::default()
        };
        let mut w = World::new(Vec2::new(200.0, 200.0), Walls::ALL, config).unwrap();
        let seg = w
            .add_shape(ShapeDesc::segment(
                Vec2::new(50.0, 150.0),
                Vec2::new(150.0, 150.0),
            ))
            .unwrap();
        w.set_restitution(Target::Shape(seg), e).unwrap();
        if let Some(f) = filter {
            w.set_filter(Target::Shape(seg), f).unwrap();
        }
        let b = w
            .add_ball(BallDesc {
                pos: Vec2::new(100.0, 100.0),
                vel: Vec2::new(0.0, 100.0),
                radius: 5.0,
                ..BallDesc::default()
            })
            .unwrap();
        for _ in 0..60 {
            w.step();
        }
        let ball = w.ball(b).unwrap();
        (ball.vel, ball.pos)
    };
    // Down 45 units to the segment (0.45 s), back up at 50 units/s.
    assert_eq!(run(Some(0.5), None).0, Vec2::new(0.0, -50.0));
    assert_eq!(run(None, None).0, Vec2::ZERO);
    // On layer 2 only, the ball (layer 1) passes through the segment: 60 units down in
    // 0.6 s, below it.
    let (_, pos) = run(Some(0.5), Some(Filter::new(0b10, 0b10)));
    assert!((pos.y - 160.0).abs() < 1e-9, "{pos:?}");

    let mut w = World::new(Vec2::new(200.0, 200.0), Walls::ALL, StepConfig::default()).unwrap();
    let fl = w
        .add_flipper(FlipperDesc::new(
            Vec2::new(50.0, 50.0),
            40.0,
            5.0,
            0.3,
            -0.3,
            20.0,
        ))
        .unwrap();
    let ch = w
        .add_character(CharacterDesc {
            pos: Vec2::new(100.0, 100.0),
            ..CharacterDesc::default()
        })
        .unwrap();
    let f = Filter::new(0b100, 0b1);
    w.set_filter(Target::Flipper(fl), f).unwrap();
    w.set_filter(Target::Character(ch), f).unwrap();
    assert_eq!(w.flipper(fl).unwrap().desc.surface.filter, f);
    assert_eq!(w.character(ch).unwrap().desc.surface.filter, f);
    w.set_restitution(Target::Flipper(fl), Some(2.0)).unwrap();
    assert_eq!(w.flipper(fl).unwrap().desc.surface.restitution, Some(2.0));
    let e = w
        .set_restitution(Target::Flipper(fl), Some(11.0))
        .unwrap_err();
    assert!(e.to_string().contains("restitution"), "{e}");
    assert_eq!(
        w.flipper(fl).unwrap().desc.surface.restitution,
        Some(2.0),
        "unchanged on error"
    );
    let e = w
        .set_restitution(Target::Character(ch), Some(0.5))
        .unwrap_err();
    assert!(e.to_string().contains("restitution"), "{e}");
    let e = w
        .set_filter(Target::Wall(collide_world::Side::Left), f)
        .unwrap_err();
    assert!(e.to_string().contains("filter"), "{e}");
    w.remove_character(ch);
    assert!(matches!(
        w.set_filter(Target::Character(ch), f),
        Err(WorldError::NoSuchBody(_))
    ));
}
