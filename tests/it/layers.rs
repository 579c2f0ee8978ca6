//! Collision layers and masks (`collide_world::Filter`): a pair collides only when
//! `a.layers & b.mask != 0 && b.layers & a.mask != 0`; closed walls always collide. Filtered
//! pairs are never predicted, so a world of bodies that ignore each other runs each body
//! exactly as it would run alone (compared bit for bit below), and a cell kind a ball ignores
//! is empty space for it, with the exposure of the cells around it computed for that ball.
//! Expected values are worked out in comments.

use collide_scenes::{arena_scene, arena_scene_tiled};
use collide_world::Contact;
use collide_world::Face;
use collide_world::{
    Aabb, BallDesc, BallId, Body, Cell, CellCoord, Corner, Event, Feature, Filter, Grid, RectDesc,
    RectKind, Scene, SensorId, Snapshot, StepConfig, Surface, Target, Vec2, Walls, World,
    WorldError,
};
use proptest::prelude::*;

/// Walls of the grid stay on the default layer 0; two groups of balls on layers 1 and 2, each
/// colliding with layer 0 and its own group only.
const GROUP_A: Filter = Filter::new(0b010, 0b011);
const GROUP_B: Filter = Filter::new(0b100, 0b101);
/// Bricks on layer 1 only.
const BRICKS: Filter = Filter::new(0b10, u32::MAX);
/// A ball that ignores layer 1 (the bricks above).
const NO_BRICKS: Filter = Filter::new(1, !0b10);

fn ball(pos: (f64, f64), vel: (f64, f64), radius: f64, filter: Filter) -> BallDesc {
    BallDesc {
        pos: Vec2::new(pos.0, pos.1),
        vel: Vec2::new(vel.0, vel.1),
        radius,
        surface: Surface {
            filter,
            ..Surface::DEFAULT
        },
        ..BallDesc::default()
    }
}

fn world(size: (f64, f64), dt: f64) -> World {
    let config = StepConfig {
        dt,
        ..StepConfig::default()
    };
    World::new(Vec2::new(size.0, size.1), Walls::ALL, config).unwrap()
}

/// A 200 × 100 box with a few wall tiles, a grid of 10-unit cells.
fn tiled_box(gravity: Vec2) -> World {
    let mut w = world((200.0, 100.0), 1.0 / 60.0);
    let mut c = *w.config();
    c.gravity = gravity;
    w.set_config(c).unwrap();
    w.set_grid(
        Grid::from_rows(
            10.0,
            Vec2::ZERO,
            &[
                "                    ",
                "                    ",
                "     ##        #    ",
                "                    ",
                "   #       ##       ",
                "   #                ",
                "          #      #  ",
                "                    ",
                "  ####              ",
                "                    ",
            ],
        )
        .unwrap(),
    );
    w
}

/// Each step's (position, velocity) bits of ball `id`.
fn track(w: &mut World, id: BallId, steps: usize) -> Vec<(Vec2, Vec2)> {
    (0..steps)
        .map(|_| {
            w.step();
            let b = w.ball(id).unwrap();
            (b.pos, b.vel)
        })
        .collect()
}

#[test]
fn balls_that_ignore_each_other_move_exactly_as_if_alone() {
    // Two balls aimed at each other, among tiles, with and without gravity. On layers that
    // ignore each other each follows, bit for bit, the path it has alone in the same world.
    // Without gravity, on the default layers, they meet after about (110 − 7)/290 s.
    for gravity in [Vec2::ZERO, Vec2::new(0.0, 400.0)] {
        let a = ball((60.0, 35.0), (140.0, 5.0), 3.0, GROUP_A);
        let b = ball((170.0, 35.0), (-150.0, -5.0), 4.0, GROUP_B);
        let alone = |d: BallDesc| {
            let mut w = tiled_box(gravity);
            let id = w.add_ball(d).unwrap();
            track(&mut w, id, 600)
        };
        let (ta, tb) = (alone(a), alone(b));
        let mut w = tiled_box(gravity);
        let (ia, ib) = (w.add_ball(a).unwrap(), w.add_ball(b).unwrap());
        let mut bounces = 0;
        for k in 0..600 {
            for e in w.step() {
                assert!(
                    !matches!(
                        e,
                        Event::Contact(Contact {
                            body: Body::Ball(_),
                            other: Target::Ball(_),
                            ..
                        })
                    ),
                    "gravity {gravity}, step {k}: {e:?}"
                );
                bounces += usize::from(matches!(
                    e,
                    Event::Contact(Contact {
                        body: Body::Ball(_),
                        other: Target::Cell(_),
                        ..
                    }) | Event::Contact(Contact {
                        body: Body::Ball(_),
                        other: Target::Wall(_),
                        ..
                    })
                ));
            }
            let (pa, pb) = (w.ball(ia).unwrap(), w.ball(ib).unwrap());
            assert_eq!(
                (pa.pos, pa.vel),
                ta[k],
                "gravity {gravity}, step {k}: ball a"
            );
            assert_eq!(
                (pb.pos, pb.vel),
                tb[k],
                "gravity {gravity}, step {k}: ball b"
            );
        }
        assert!(bounces > 10, "they bounce off tiles and walls: {bounces}");
        if gravity != Vec2::ZERO {
            continue;
        }
        // The same two balls on the default layers meet.
        let mut w = tiled_box(gravity);
        w.add_ball(BallDesc {
            surface: a.surface.with_filter(Filter::DEFAULT),
            ..a
        })
        .unwrap();
        w.add_ball(BallDesc {
            surface: b.surface.with_filter(Filter::DEFAULT),
            ..b
        })
        .unwrap();
        let met = (0..600).any(|_| {
            w.step().iter().any(|e| {
                matches!(
                    e,
                    Event::Contact(Contact {
                        body: Body::Ball(_),
                        other: Target::Ball(_),
                        ..
                    })
                )
            })
        });
        assert!(met, "the default layers collide");
    }
}

/// A 100 × 100 world of 10-unit cells: walls along the top (row 0), bricks across row 5
/// (y in [50, 60]) on layer 1.
fn brick_row_world() -> World {
    let mut w = world((100.0, 100.0), 0.1);
    let mut g = Grid::from_rows(
        10.0,
        Vec2::ZERO,
        &[
            "##########",
            "          ",
            "          ",
            "          ",
            "          ",
            "RRRRRRRRRR",
        ],
    )
    .unwrap();
    g.set_filters(Filter::DEFAULT, BRICKS);
    w.set_grid(g);
    w
}

#[test]
fn a_ball_that_ignores_bricks_passes_through_a_brick_row_and_bounces_off_walls() {
    // Radius 5 at (55, 85) moving up at 100 units/s. It ignores the bricks (its mask lacks
    // layer 1): its first contact is the bottom face y = 10 of wall (5, 0), the centre at
    // y = 15, after (85 − 15)/100 = 0.7 s; it comes back down and at t = 1 s is at
    // y = 15 + 30 = 45, moving at (0, 100). No brick is destroyed.
    let mut w = brick_row_world();
    let id = w
        .add_ball(ball((55.0, 85.0), (0.0, -100.0), 5.0, NO_BRICKS))
        .unwrap();
    let mut events = Vec::new();
    for _ in 0..10 {
        let t0 = w.time();
        events.extend(w.step().iter().map(|&e| (t0, e)));
    }
    assert_eq!(events.len(), 1, "{events:?}");
    let (at, e) = events[0];
    let Event::Contact(Contact {
        body: Body::Ball(_),
        other: Target::Cell(cell),
        normal,
        toi,
        ..
    }) = e
    else {
        panic!("{e:?}")
    };
    assert_eq!((cell, normal), (CellCoord::new(5, 0), Vec2::new(0.0, 1.0)));
    assert!((at + toi - 0.7).abs() < 1e-12, "at {}", at + toi);
    let b = w.ball(id).unwrap();
    assert!((b.pos - Vec2::new(55.0, 45.0)).length() < 1e-9, "{}", b.pos);
    assert_eq!(b.vel, Vec2::new(0.0, 100.0));
    assert_eq!(w.grid().unwrap().bricks_left(), 10);
    // A ball on the default filter hits the bricks' bottom face y = 60 at (85 − 65)/100 =
    // 0.2 s and destroys brick (5, 5).
    let mut w = brick_row_world();
    w.add_ball(ball((55.0, 85.0), (0.0, -100.0), 5.0, Filter::DEFAULT))
        .unwrap();
    w.step();
    let ev = w.step().to_vec();
    assert!(
        ev.iter().any(
            |e| matches!(e, Event::BrickDestroyed { cell, .. } if *cell == CellCoord::new(5, 5))
        ),
        "{ev:?}"
    );
}

#[test]
fn filtered_rectangles_are_passed_through_whatever_their_kind() {
    // A ball of radius 2 at (10, 50) moving right at 100 units/s toward a rectangle over
    // x in [40, 60]: with the default filter it hits at (40 − 2 − 10)/100 = 0.28 s; on a
    // layer the rectangle ignores it reaches the right wall (x = 98 at 0.88 s) and comes back
    // to x = 98 − 100·(1 − 0.88) = 86 at t = 1 s.
    for kind in [RectKind::Static, RectKind::Kinematic, RectKind::Dynamic] {
        for (filter, hits) in [(Filter::DEFAULT, true), (Filter::new(0b10, 0b10), false)] {
            let mut w = world((100.0, 100.0), 0.05);
            let r = w
                .add_rect(RectDesc {
                    aabb: Aabb::new(Vec2::new(40.0, 40.0), Vec2::new(60.0, 60.0)),
                    kind,
                    ..RectDesc::default()
                })
                .unwrap();
            let id = w
                .add_ball(ball((10.0, 50.0), (100.0, 0.0), 2.0, filter))
                .unwrap();
            let mut rect_events = 0;
            let mut first = None;
            for k in 0..20 {
                for e in w.step() {
                    if let Event::Contact(Contact {
                        body: Body::Ball(_),
                        other: Target::Rect(rect),
                        toi,
                        ..
                    }) = e
                    {
                        assert_eq!(*rect, r);
                        rect_events += 1;
                        first.get_or_insert(0.05 * k as f64 + toi);
                    }
                }
            }
            if hits {
                assert!((first.unwrap() - 0.28).abs() < 1e-12, "{kind:?}: {first:?}");
            } else {
                assert_eq!(rect_events, 0, "{kind:?}");
                let b = w.ball(id).unwrap();
                assert!((b.pos.x - 86.0).abs() < 1e-9, "{kind:?}: {}", b.pos);
                assert_eq!(b.vel, Vec2::new(-100.0, 0.0));
                assert!(
                    w.rect(r).unwrap().vel == Vec2::ZERO,
                    "{kind:?}: never pushed"
                );
            }
        }
    }
}

/// A world of 10-unit cells with the row `"##R##"` at y in [50, 60] (walls, a brick on layer
/// 1, walls): for a ball that ignores bricks, a gap over x in [20, 30].
fn gap_world(dt: f64) -> World {
    let mut w = world((50.0, 100.0), dt);
    let mut g = Grid::from_rows(
        10.0,
        Vec2::ZERO,
        &["     ", "     ", "     ", "     ", "     ", "##R##"],
    )
    .unwrap();
    g.set_filters(Filter::DEFAULT, BRICKS);
    w.set_grid(g);
    w
}

fn tile_hits(w: &World) -> Vec<(CellCoord, Vec2, f64, Feature)> {
    w.events()
        .iter()
        .filter_map(|e| match *e {
            Event::Contact(Contact {
                body: Body::Ball(_),
                other: Target::Cell(cell),
                normal,
                toi,
                feature: Some(feature),
                ..
            }) => Some((cell, normal, toi, feature)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_seam_between_walls_next_to_an_ignored_brick_is_no_ghost_corner() {
    // The seam x = 10 between walls (0, 5) and (1, 5), whose features are computed with the
    // brick (2, 5) as empty space. Radius 2, centre (2, 40) moving (8, 8): it touches the top
    // y = 50 exactly at the seam, centre (10, 48), at t = 1. A flat face flips vy only: at
    // t = 2 the centre is at (18, 40), moving (8, −8). Per-cell boxes would see the corners
    // (10, 50) of both cells: a ghost collision.
    let mut w = gap_world(0.5);
    let id = w
        .add_ball(ball((2.0, 40.0), (8.0, 8.0), 2.0, NO_BRICKS))
        .unwrap();
    let mut hits = Vec::new();
    for _ in 0..4 {
        w.step();
        hits.extend(tile_hits(&w));
    }
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert_eq!(
        (hits[0].1, hits[0].3),
        (Vec2::new(0.0, -1.0), Feature::Face(Face::Top))
    );
    let b = w.ball(id).unwrap();
    assert_eq!(b.vel, Vec2::new(8.0, -8.0));
    assert!(
        (b.pos - Vec2::new(18.0, 40.0)).length() < 1e-12,
        "{}",
        b.pos
    );
}

#[test]
fn the_corner_next_to_an_ignored_brick_is_exposed_for_the_ball_that_ignores_it() {
    // Radius 2 falling at x = 29 at 100 units/s from y = 20, steps of 0.5 s. A ball that
    // collides with the brick lands on its top face (centre y = 48) after 0.28 s, normal
    // (0, −1), and leaves at (0, −100). A ball that ignores it falls into the gap [20, 30] and
    // meets the top-left corner (30, 50) of wall (3, 5), convex for it: at dx = 1 the centre
    // is √(4 − 1) = √3 above the corner, at y = 50 − √3, after (30 − √3)/100 s; normal
    // (−1, −√3)/2; the velocity (0, 100) reflects to
    // (0, 100) − 2·(−50√3)·(−1/2, −√3/2) = (−50√3, −50). Both then fly free to the step's end.
    let s3 = 3f64.sqrt();
    for (filter, corner) in [(Filter::DEFAULT, false), (NO_BRICKS, true)] {
        let mut w = gap_world(0.5);
        let id = w
            .add_ball(ball((29.0, 20.0), (0.0, 100.0), 2.0, filter))
            .unwrap();
        w.step();
        let ev = tile_hits(&w);
        assert_eq!(ev.len(), 1, "{ev:?}");
        let (cell, n, toi, feature) = ev[0];
        let v = w.ball(id).unwrap().vel;
        if corner {
            assert_eq!(
                (cell, feature),
                (CellCoord::new(3, 5), Feature::Corner(Corner::TopLeft))
            );
            assert!((toi - (30.0 - s3) / 100.0).abs() < 1e-12, "{toi}");
            assert!((n - Vec2::new(-0.5, -s3 / 2.0)).length() < 1e-12, "{n}");
            assert!((v - Vec2::new(-50.0 * s3, -50.0)).length() < 1e-9, "{v}");
        } else {
            assert_eq!(
                (cell, n, feature),
                (
                    CellCoord::new(2, 5),
                    Vec2::new(0.0, -1.0),
                    Feature::Face(Face::Top)
                )
            );
            assert!((toi - 0.28).abs() < 1e-12, "{toi}");
            assert_eq!(v, Vec2::new(0.0, -100.0));
        }
    }
}

#[test]
fn a_seam_between_a_wall_and_a_brick_stays_flat_for_a_ball_that_hits_both() {
    // The walls' and bricks' filters differ (so the grid keeps exposure per set of kinds), but
    // a ball on the default filter collides with both: the seam x = 20 between wall (1, 5)
    // and brick (2, 5) is flat. Centre (12, 40) moving (8, 8) reaches (20, 48) at t = 1:
    // vy flips, at t = 2 the centre is at (28, 40).
    let mut w = gap_world(0.5);
    let id = w
        .add_ball(ball((12.0, 40.0), (8.0, 8.0), 2.0, Filter::DEFAULT))
        .unwrap();
    for _ in 0..4 {
        w.step();
        for (_, n, _, _) in tile_hits(&w) {
            assert_eq!(n, Vec2::new(0.0, -1.0));
        }
    }
    let b = w.ball(id).unwrap();
    assert_eq!(b.vel, Vec2::new(8.0, -8.0));
    assert!(
        (b.pos - Vec2::new(28.0, 40.0)).length() < 1e-12,
        "{}",
        b.pos
    );
}

#[test]
fn a_ball_skimming_a_wall_row_under_an_ignored_brick_meets_nothing() {
    // A brick on layer 1 sits on top of a flat row of walls. A ball that ignores it, touching
    // the row's top (centre y = 48) and moving along it at 100 units/s, passes under and
    // through the brick with no event and no change of velocity.
    let mut w = world((100.0, 100.0), 1.0 / 60.0);
    let mut g = Grid::from_rows(
        10.0,
        Vec2::ZERO,
        &["", "", "", "", "    R     ", "##########"].map(|r| {
            if r.is_empty() {
                "          "
            } else {
                r
            }
        }),
    )
    .unwrap();
    g.set_filters(Filter::DEFAULT, BRICKS);
    w.set_grid(g);
    let id = w
        .add_ball(ball((12.0, 48.0), (100.0, 0.0), 2.0, NO_BRICKS))
        .unwrap();
    for k in 0..40 {
        assert!(w.step().is_empty(), "step {k}: {:?}", w.events());
        let b = w.ball(id).unwrap();
        assert_eq!((b.pos.y, b.vel), (48.0, Vec2::new(100.0, 0.0)));
    }
}

#[test]
fn queries_see_only_what_their_filter_collides_with() {
    // At (50, 50): a ball on layer 1, a rectangle on layer 2, a brick on layer 3 and, above
    // them, a wall tile on layer 0.
    let mut w = world((100.0, 100.0), 1.0 / 60.0);
    let mut g = Grid::empty(10.0, Vec2::ZERO, 10, 10).unwrap();
    g.set_cell(CellCoord::new(5, 5), Cell::Brick(b'R'));
    g.set_cell(CellCoord::new(5, 1), Cell::Wall);
    g.set_filters(Filter::DEFAULT, Filter::new(1 << 3, u32::MAX));
    w.set_grid(g);
    let b = w
        .add_ball(ball(
            (52.0, 52.0),
            (0.0, 0.0),
            3.0,
            Filter::new(1 << 1, u32::MAX),
        ))
        .unwrap();
    let r = w
        .add_rect(RectDesc {
            aabb: Aabb::new(Vec2::new(49.0, 49.0), Vec2::new(56.0, 56.0)),
            surface: Surface::DEFAULT.with_filter(Filter::new(1 << 2, u32::MAX)),
            ..RectDesc::default()
        })
        .unwrap();
    let p = Vec2::new(52.0, 52.0);
    let only = |layer: u32| Filter::new(u32::MAX, 1 << layer);
    let brick = Target::Cell(CellCoord::new(5, 5));
    for (filter, want) in [
        (Filter::ALL, vec![brick, Target::Ball(b), Target::Rect(r)]),
        (only(1), vec![Target::Ball(b)]),
        (only(2), vec![Target::Rect(r)]),
        (only(3), vec![brick]),
        (only(0), vec![]),
    ] {
        let mut out = Vec::new();
        w.query_point(p, filter, &mut out);
        assert_eq!(out, want, "{filter:?}");
        let mut boxed = Vec::new();
        w.query_aabb(&Aabb::new(p, p + 1.0), filter, &mut boxed);
        assert_eq!(boxed, want, "{filter:?}");
        let idx = w.query_index();
        let (mut a, mut c) = (Vec::new(), Vec::new());
        idx.query_point(p, filter, &mut a);
        idx.query_aabb(&Aabb::new(p, p + 1.0), filter, &mut c);
        assert_eq!((a, c), (want.clone(), want), "{filter:?}");
    }
    // A circle of radius 1 cast straight up from (52, 95): the ball's bottom is at y = 55,
    // the rectangle's at 56, the brick's at 60, the wall's at 20, the world's top wall at 0.
    // Its centre stops 1 short of each: toi = (95 − 1 − y)/95.
    let cast = |f: Filter| {
        let h = w
            .cast_circle(Vec2::new(52.0, 95.0), Vec2::new(52.0, 0.0), 1.0, &[], f)
            .unwrap();
        let i = w.query_index();
        assert_eq!(
            i.cast_circle(Vec2::new(52.0, 95.0), Vec2::new(52.0, 0.0), 1.0, &[], f),
            Some(h)
        );
        (h.target, h.center.y)
    };
    assert_eq!(cast(Filter::ALL), (brick, 61.0));
    assert_eq!(cast(only(1)).0, Target::Ball(b));
    assert_eq!(cast(only(2)), (Target::Rect(r), 57.0));
    assert_eq!(cast(only(0)), (Target::Cell(CellCoord::new(5, 1)), 21.0));
    // On no layer it sees only the world's closed walls.
    assert_eq!(cast(Filter::NONE).0, Target::Wall(collide_world::Side::Top));
}

#[test]
fn setters_read_back_and_refuse_stale_ids() {
    let mut w = world((100.0, 100.0), 1.0 / 60.0);
    let id = w
        .add_ball(ball((50.0, 50.0), (0.0, 0.0), 3.0, Filter::DEFAULT))
        .unwrap();
    let r = w.add_rect(RectDesc::default()).unwrap();
    let h0 = w.state_hash();
    w.set_ball_layers(id, 0b110, 0b11).unwrap();
    w.set_rect_layers(r, 4, 5).unwrap();
    assert_eq!(w.ball(id).unwrap().filter, Filter::new(0b110, 0b11));
    assert_eq!(w.balls().next().unwrap().filter, Filter::new(0b110, 0b11));
    assert_eq!(w.rect(r).unwrap().surface.filter, Filter::new(4, 5));
    assert_ne!(
        w.state_hash(),
        h0,
        "the hash sees filters that are not the default"
    );
    w.set_ball_layers(id, 1, u32::MAX).unwrap();
    w.set_rect_layers(r, 1, u32::MAX).unwrap();
    assert_eq!(w.state_hash(), h0, "back to the defaults: the old hash");
    assert!(matches!(
        w.set_grid_layers(Filter::DEFAULT, BRICKS),
        Err(WorldError::BadSetting { field: "grid", .. })
    ));
    w.remove_ball(id).unwrap();
    w.remove_rect(r).unwrap();
    assert_eq!(
        w.set_ball_layers(id, 1, 1),
        Err(WorldError::NoSuchBody(Body::Ball(id)))
    );
    assert_eq!(
        w.set_rect_layers(r, 1, 1),
        Err(WorldError::NoSuchBody(Body::Rect(r)))
    );
}

#[test]
fn a_layer_change_between_steps_takes_effect_at_the_next_step() {
    // Two balls 20 apart closing at 200 units/s: they would meet after (20 − 4)/200 = 0.08 s.
    // Told to ignore each other just before, they pass.
    // After three steps of 0.05 s they have crossed: a at 55, b at 45.
    let mut w = world((100.0, 100.0), 0.05);
    let a = w
        .add_ball(ball((40.0, 50.0), (100.0, 0.0), 2.0, Filter::DEFAULT))
        .unwrap();
    let b = w
        .add_ball(ball((60.0, 50.0), (-100.0, 0.0), 2.0, Filter::DEFAULT))
        .unwrap();
    assert!(w.step().is_empty());
    w.set_ball_layers(a, 0b10, 0b01).unwrap();
    w.set_ball_layers(b, 0b100, 0b001).unwrap();
    assert!(w.step().is_empty());
    assert!(w.step().is_empty());
    assert!((w.ball(a).unwrap().pos.x - 55.0).abs() < 1e-12);
    assert!((w.ball(b).unwrap().pos.x - 45.0).abs() < 1e-12);
}

#[test]
fn overlapping_balls_that_ignore_each_other_are_not_pushed_apart() {
    // Two balls placed on top of each other, and a ball inside a brick it ignores: nothing
    // to push out.
    let mut w = brick_row_world();
    let a = w
        .add_ball(ball((30.0, 30.0), (10.0, 0.0), 4.0, GROUP_A))
        .unwrap();
    w.add_ball(ball((31.0, 30.0), (-10.0, 0.0), 4.0, GROUP_B))
        .unwrap();
    let c = w
        .add_ball(ball((50.0, 55.0), (0.0, 0.0), 3.0, NO_BRICKS))
        .unwrap();
    let ev = w.step().to_vec();
    assert!(ev.is_empty(), "{ev:?}");
    assert_eq!(w.ball(c).unwrap().pos, Vec2::new(50.0, 55.0));
    assert!((w.ball(a).unwrap().pos.x - 30.0 - 10.0 * 0.1).abs() < 1e-12);
    // The same ball on the default filter is pushed out of the brick.
    w.set_ball_layers(c, 1, u32::MAX).unwrap();
    let ev = w.step().to_vec();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Unembedded { body: Body::Ball(id), .. } if *id == c)),
        "{ev:?}"
    );
}

#[test]
fn snapshots_keep_the_filters() {
    let mut scene = arena_scene(500, 300.0, 4);
    if let Some(g) = &mut scene.grid {
        g.wall_filter = Filter::new(0b11, u32::MAX);
        g.brick_filter = BRICKS;
    }
    let mut w = World::from_scene(&scene).unwrap();
    let ids: Vec<BallId> = w.balls().map(|b| b.id).collect();
    for (k, id) in ids.iter().enumerate() {
        let f = if k % 2 == 0 { GROUP_A } else { GROUP_B };
        w.set_ball_layers(*id, f.layers, f.mask).unwrap();
    }
    for _ in 0..10 {
        w.step();
    }
    let snap: Snapshot = w.snapshot();
    let json = serde_json::to_string(&snap).unwrap();
    let back: Snapshot = serde_json::from_str(&json).unwrap();
    let mut fresh = World::from_scene(&arena_scene(500, 300.0, 4)).unwrap();
    fresh.restore(&back).unwrap();
    assert_eq!(fresh.state_hash(), w.state_hash());
    assert_eq!(fresh.grid().unwrap().brick_filter(), BRICKS);
    for _ in 0..30 {
        w.step();
        fresh.step();
    }
    assert_eq!(fresh.state_hash(), w.state_hash());
    assert_eq!(collide_world::SNAPSHOT_VERSION, 4);
}

/// Scenes: the keys, and errors naming the field and line.
mod scene_keys {
    use super::*;

    fn parse(text: &str) -> Result<Scene, collide_scene::SceneError> {
        let no = |p: &str| Err(std::io::Error::other(p.to_owned()));
        collide_scene::from_toml_str(text, "t.toml", &no)
    }

    const WORLD: &str = "[world]\nsize = [100, 100]\n";

    #[test]
    fn layers_and_masks_are_read_as_integers_or_bit_lists() {
        let s = parse(&format!(
            "{WORLD}[grid]\ncell = 10\nrows = [\"#R\"]\nwall_layers = 1\nwall_mask = 0xFFFF_FFFF\n\
             brick_layers = [1]\nbrick_mask = [0, 2]\n\
             [[ball]]\npos = [50, 50]\nradius = 2\nlayers = 0b10\nmask = [0, 1]\n\
             [[ball]]\npos = [70, 50]\nradius = 2\n\
             [[rect]]\nmin = [0, 80]\nmax = [10, 90]\nlayers = [3]\nmask = 8\n\
             [spawn]\ncount = 2\nradius = 1\nspeed = 1\nlayers = 4\n"
        ))
        .unwrap();
        let g = s.grid.as_ref().unwrap();
        assert_eq!(g.wall_filter, Filter::new(1, u32::MAX));
        assert_eq!(g.brick_filter, Filter::new(0b10, 0b101));
        assert_eq!(s.balls[0].surface.filter, Filter::new(0b10, 0b11));
        assert_eq!(s.balls[1].surface.filter, Filter::DEFAULT);
        assert_eq!(s.rects[0].surface.filter, Filter::new(0b1000, 8));
        assert_eq!(s.spawn.unwrap().surface.filter, Filter::new(4, u32::MAX));
        let w = World::from_scene(&s).unwrap();
        assert_eq!(w.grid().unwrap().brick_filter(), Filter::new(0b10, 0b101));
    }

    fn at(text: &str, line: usize, field: &str) {
        let e = parse(text).unwrap_err();
        assert_eq!((e.line(), e.field()), (Some(line), Some(field)), "{e}");
        assert!(e.to_string().contains(&format!("`{field}`")), "{e}");
    }

    #[test]
    fn bad_layers_name_their_field_and_line() {
        for bad in ["-1", "4294967296", "[32]", "[-1]", "\"all\"", "1.5"] {
            at(
                &format!("{WORLD}[[ball]]\npos = [1, 1]\nradius = 1\nlayers = {bad}\n"),
                6,
                "ball[0].layers",
            );
            at(
                &format!(
                    "{WORLD}[[ball]]\npos = [1, 1]\nradius = 1\n[[rect]]\nmin = [0, 0]\n\
                     max = [1, 1]\nmask = {bad}\n"
                ),
                9,
                "rect[0].mask",
            );
            for key in ["wall_layers", "wall_mask", "brick_layers", "brick_mask"] {
                at(
                    &format!("{WORLD}[grid]\ncell = 1\nrows = [\"#\"]\n{key} = {bad}\n"),
                    6,
                    &format!("grid.{key}"),
                );
            }
            at(
                &format!("{WORLD}[spawn]\ncount = 1\nradius = 1\nspeed = 1\nmask = {bad}\n"),
                7,
                "spawn.mask",
            );
        }
    }
}

/// Two groups of balls in the arena, each ignoring the other.
fn grouped(mut w: World) -> World {
    let ids: Vec<BallId> = w.balls().map(|b| b.id).collect();
    for (k, id) in ids.into_iter().enumerate() {
        let f = if k % 2 == 0 { GROUP_A } else { GROUP_B };
        w.set_ball_layers(id, f.layers, f.mask).unwrap();
    }
    w
}

fn hashes(mut w: World, threads: usize, steps: usize) -> (Vec<u64>, World) {
    w.set_threads(threads);
    let h = (0..steps)
        .map(|_| {
            w.step();
            w.state_hash()
        })
        .collect();
    (h, w)
}

#[test]
fn groups_in_the_arena_same_bits_with_1_2_and_3_threads() {
    let w = grouped(World::from_scene(&arena_scene(6000, 3000.0, 7)).unwrap());
    let (h1, _) = hashes(w.clone(), 1, 40);
    for t in [2, 3] {
        assert_eq!(hashes(w.clone(), t, 40).0, h1, "{t} threads");
    }
}

#[test]
fn groups_in_the_tiled_arena_same_bits_in_domains() {
    // 40 000 balls in four arenas: spatial domains with 2 threads, the serial loop with 1.
    let w = grouped(World::from_scene(&arena_scene_tiled(40_000, 60.0, 3, 4, 1)).unwrap());
    let (h1, w1) = hashes(w.clone(), 1, 20);
    assert_eq!(w1.domain_steps(), (0, 0));
    let (h2, w2) = hashes(w, 2, 20);
    assert_eq!(h1, h2);
    assert!(
        w2.domain_steps().0 >= 10,
        "domains used: {:?}",
        w2.domain_steps()
    );
}

/// A random filter: random layers and mask among layers 0–2, plus layer 3 and mask bit 4
/// (never empty, and never matching each other), so that pairs of every kind occur.
fn filter() -> impl Strategy<Value = Filter> {
    (0u32..8, 0u32..8).prop_map(|(l, m)| Filter::new(l | 1 << 3, m | 1 << 4))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// Random balls, a rectangle and cell kinds on random layers, with and without gravity:
    /// no pair that collides ever overlaps (nor a ball and a cell or the rectangle it collides
    /// with), and no event ever joins a pair that does not collide.
    #[test]
    fn filtered_pairs_never_meet_and_others_never_overlap(
        balls in prop::collection::vec(
            ((5.0f64..195.0, 5.0f64..195.0), (-300.0f64..300.0, -300.0f64..300.0), 1.0f64..5.0, filter()),
            2..40,
        ),
        wall in filter(),
        brick in filter(),
        rect in filter(),
        gravity in prop::bool::ANY,
    ) {
        let mut w = world((200.0, 200.0), 1.0 / 60.0);
        if gravity {
            let mut c = *w.config();
            c.gravity = Vec2::new(0.0, 300.0);
            w.set_config(c).unwrap();
        }
        let mut g = Grid::from_rows(
            20.0,
            Vec2::ZERO,
            &["          ", "  ##  RR  ", "  #    R  ", "    RR    ", "          ",
              "  RRR#    ", "       ## ", "  #R      ", "          ", "          "],
        ).unwrap();
        g.set_filters(wall, brick);
        w.set_grid(g);
        let rid = w.add_rect(RectDesc {
            aabb: Aabb::new(Vec2::new(120.0, 150.0), Vec2::new(160.0, 160.0)),
            surface: Surface::DEFAULT.with_filter(rect),
            ..RectDesc::default()
        }).unwrap();
        let mut ids = Vec::new();
        for ((x, y), (vx, vy), r, f) in balls {
            let d = ball((x, y), (vx, vy), r, f);
            // Placed only where it overlaps nothing it collides with.
            let free = w.balls().all(|b| !b.filter.collides(f) || (b.pos - d.pos).length() > b.radius + r)
                && w.grid().unwrap().cells().iter().enumerate().all(|(i, c)| {
                    let cc = CellCoord::new((i % 10) as u32, (i / 10) as u32);
                    w.grid().unwrap().filter_of(*c).is_none_or(|cf| !cf.collides(f))
                        || collide_core::distance_point_aabb(d.pos, &w.grid().unwrap().cell_aabb(cc)) > r
                })
                && (!f.collides(rect) || collide_core::distance_point_aabb(d.pos, &w.rect(rid).unwrap().aabb) > r);
            if free {
                ids.push(w.add_ball(d).unwrap());
            }
        }
        let filter_of = |w: &World, id: BallId| w.ball(id).map(|b| b.filter);
        for step in 0..120 {
            let events = w.step().to_vec();
            for e in &events {
                match *e {
                    Event::Contact(Contact { body: Body::Ball(a), other: Target::Ball(b), .. }) => {
                        let (fa, fb) = (filter_of(&w, a).unwrap(), filter_of(&w, b).unwrap());
                        prop_assert!(fa.collides(fb), "step {step}: {e:?}");
                    }
                    Event::Contact(Contact { body: Body::Ball(ball), other: Target::Cell(cell), .. }) => {
                        let g = w.grid().unwrap();
                        let kind = match g.cell(cell) { Cell::Empty => brick, c => g.filter_of(c).unwrap() };
                        prop_assert!(filter_of(&w, ball).unwrap().collides(kind), "step {step}: {e:?}");
                    }
                    Event::Contact(Contact { body: Body::Ball(ball), other: Target::Rect(_), .. }) => {
                        prop_assert!(filter_of(&w, ball).unwrap().collides(rect), "step {step}: {e:?}");
                    }
                    Event::Unembedded { .. } => prop_assert!(false, "step {step}: {e:?}"),
                    _ => {}
                }
            }
            let bs: Vec<_> = w.balls().collect();
            for (i, a) in bs.iter().enumerate() {
                for b in &bs[i + 1..] {
                    if a.filter.collides(b.filter) {
                        let gap = (a.pos - b.pos).length() - a.radius - b.radius;
                        prop_assert!(gap > -1e-9, "step {step}: {:?} and {:?} overlap by {}", a.id, b.id, -gap);
                    }
                }
                let g = w.grid().unwrap();
                let mut deepest: f64 = 0.0;
                g.for_each_solid_in(&Aabb::new(a.pos - a.radius, a.pos + a.radius), |c, cell| {
                    if g.filter_of(cell).is_some_and(|f| f.collides(a.filter)) {
                        deepest = deepest.max(a.radius - collide_core::distance_point_aabb(a.pos, &g.cell_aabb(c)));
                    }
                });
                prop_assert!(deepest < 1e-9, "step {step}: {:?} is {} inside a cell", a.id, deepest);
                if a.filter.collides(rect) {
                    let d = a.radius - collide_core::distance_point_aabb(a.pos, &w.rect(rid).unwrap().aabb);
                    prop_assert!(d < 1e-9, "step {step}: {:?} is {} inside the rectangle", a.id, d);
                }
            }
        }
    }
}

#[test]
fn a_sensor_reports_only_the_balls_it_collides_with() {
    // A sensor over x in [40, 60] on layer 1; two balls of radius 2 cross it at 100 units/s
    // from x = 10, on rows 30 and 70. The one that looks at layer 1 enters it when its circle
    // touches x = 40, after (40 − 2 − 10)/100 = 0.28 s; the one whose mask leaves layer 1 out
    // never does.
    let mut w = world((100.0, 100.0), 0.05);
    let s = w
        .add_rect(RectDesc {
            aabb: Aabb::new(Vec2::new(40.0, 0.0), Vec2::new(60.0, 100.0)),
            kind: RectKind::Kinematic,
            surface: Surface::SENSOR.with_filter(Filter::new(0b10, u32::MAX)),
            ..RectDesc::default()
        })
        .unwrap();
    let seen = w
        .add_ball(ball((10.0, 30.0), (100.0, 0.0), 2.0, Filter::DEFAULT))
        .unwrap();
    w.add_ball(ball((10.0, 70.0), (100.0, 0.0), 2.0, NO_BRICKS))
        .unwrap();
    let mut enters = Vec::new();
    for k in 0..12 {
        for e in w.step() {
            if let Event::SensorEnter {
                ball, sensor, toi, ..
            } = *e
            {
                enters.push((ball, sensor, 0.05 * k as f64 + toi));
            }
        }
    }
    assert_eq!(enters.len(), 1, "{enters:?}");
    assert_eq!((enters[0].0, enters[0].1), (seen, SensorId::Rect(s)));
    assert!((enters[0].2 - 0.28).abs() < 1e-12, "{enters:?}");
}
