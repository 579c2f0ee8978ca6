//! Materials (`crates/world/src/model/material.rs`): each ball, rectangle and cell kind may have its own
//! restitution; a collision uses the larger of the two bodies' values (Box2D's
//! `b2MixRestitution`), a body without one the world's `StepConfig::restitution`, closed walls
//! the world's; a kick above 1 is capped at `MAX_KICK_SPEED`. Every expected velocity below is
//! worked out by hand in a comment from `v' = v − (1 + e)((v − u)·n) n` (a surface moving at
//! `u`) or the 1D collision of two masses, with the tangential part kept.

use collide_scenes::{arena_scene, arena_scene_tiled};
use collide_world::limits::{MAX_KICK_SPEED, MAX_RESTITUTION};
use collide_world::Body;
use collide_world::Contact;
use collide_world::Target;
use collide_world::{
    Aabb, BallDesc, BallId, Cell, CellCoord, Event, Grid, GridError, RectDesc, RectKind, Snapshot,
    StepConfig, Surface, Vec2, Walls, World, WorldError,
};

/// A ball of radius 5 and density 1 with its own restitution `e`.
fn ball(pos: Vec2, vel: Vec2, e: Option<f64>) -> BallDesc {
    BallDesc {
        pos,
        vel,
        radius: 5.0,
        density: 1.0,
        surface: Surface {
            restitution: e,
            filter: collide_world::Filter::DEFAULT,
            ..Surface::DEFAULT
        },
        gravity_scale: 1.0,
    }
}

/// A static rectangle with its own restitution `e`.
fn pad(min: Vec2, max: Vec2, e: Option<f64>) -> RectDesc {
    RectDesc {
        aabb: Aabb::new(min, max),
        surface: Surface {
            restitution: e,
            ..Surface::DEFAULT
        },
        ..RectDesc::default()
    }
}

fn world(size: Vec2, restitution: f64) -> World {
    let config = StepConfig {
        restitution,
        ..StepConfig::default()
    };
    World::new(size, Walls::ALL, config).unwrap()
}

/// Steps until ball `id` has had its first contact event; returns that event's impact speed
/// and the ball's velocity at the end of that step.
fn first_bounce(w: &mut World, id: BallId, max_steps: usize) -> (f64, Vec2) {
    for _ in 0..max_steps {
        let speed = w.step().iter().find_map(|e| match *e {
            Event::Contact(Contact {
                body: Body::Ball(ball),
                other: Target::Cell(_),
                speed,
                ..
            })
            | Event::Contact(Contact {
                body: Body::Ball(ball),
                other: Target::Wall(_),
                speed,
                ..
            })
            | Event::Contact(Contact {
                body: Body::Ball(ball),
                other: Target::Rect(_),
                speed,
                ..
            }) if ball == id => Some(speed),
            _ => None,
        });
        if let Some(s) = speed {
            return (s, w.ball(id).unwrap().vel);
        }
    }
    panic!("no bounce in {max_steps} steps");
}

#[test]
fn a_ball_of_half_restitution_bounces_elastically_off_a_default_wall_cell() {
    // The tile's top face at y = 80; the ball falls at 120. Its own 0.5 against the cell's
    // default (the world's 1): max(0.5, 1) = 1, an exact sign flip.
    let mut w = world(Vec2::new(100.0, 100.0), 1.0);
    w.set_grid(Grid::from_rows(20.0, Vec2::new(0.0, 80.0), &["  #  "]).unwrap());
    let id = w
        .add_ball(ball(
            Vec2::new(50.0, 40.0),
            Vec2::new(30.0, 120.0),
            Some(0.5),
        ))
        .unwrap();
    assert_eq!(w.ball(id).unwrap().restitution, Some(0.5));
    assert_eq!(
        first_bounce(&mut w, id, 30),
        (120.0, Vec2::new(30.0, -120.0))
    );

    // With the world at 0.2 the same ball keeps its own 0.5 (max(0.5, 0.2)): 120 → 60.
    let mut w = world(Vec2::new(100.0, 100.0), 0.2);
    w.set_grid(Grid::from_rows(20.0, Vec2::new(0.0, 80.0), &["  #  "]).unwrap());
    let id = w
        .add_ball(ball(
            Vec2::new(50.0, 40.0),
            Vec2::new(30.0, 120.0),
            Some(0.5),
        ))
        .unwrap();
    // v·n = −120, v' = v + 1.5·120·(0, −1) = (30, −60).
    assert_eq!(
        first_bounce(&mut w, id, 30),
        (120.0, Vec2::new(30.0, -60.0))
    );
}

#[test]
fn a_dead_ball_leaves_a_quarter_pad_at_a_quarter_of_its_speed() {
    // World restitution 0; the floor pad 0.25, the ball 0: max = 0.25. Falling at (30, 100)
    // onto the pad's top (n = (0, −1)): v·n = −100, v' = (30, 100) − 1.25·(−100)·(0, −1)
    // = (30, −25).
    let mut w = world(Vec2::new(200.0, 200.0), 0.0);
    w.add_rect(pad(
        Vec2::new(0.0, 150.0),
        Vec2::new(200.0, 160.0),
        Some(0.25),
    ))
    .unwrap();
    let id = w
        .add_ball(ball(
            Vec2::new(50.0, 100.0),
            Vec2::new(30.0, 100.0),
            Some(0.0),
        ))
        .unwrap();
    assert_eq!(
        first_bounce(&mut w, id, 60),
        (100.0, Vec2::new(30.0, -25.0))
    );
    // Without the pad's value: max(0, 0) = 0, the ball slides along the pad.
    let mut w = world(Vec2::new(200.0, 200.0), 0.0);
    w.add_rect(pad(Vec2::new(0.0, 150.0), Vec2::new(200.0, 160.0), None))
        .unwrap();
    let id = w
        .add_ball(ball(
            Vec2::new(50.0, 100.0),
            Vec2::new(30.0, 100.0),
            Some(0.0),
        ))
        .unwrap();
    assert_eq!(first_bounce(&mut w, id, 60), (100.0, Vec2::new(30.0, 0.0)));
}

#[test]
fn a_bumper_kicks_one_and_a_half_times_up_to_the_cap() {
    let bumper = |w: &mut World| {
        w.add_rect(pad(
            Vec2::new(0.0, 9_950.0),
            Vec2::new(200.0, 10_000.0),
            Some(1.5),
        ))
        .unwrap()
    };
    // At 100: 1.5 × 100 = 150 back (v' = (0, 100) − 2.5·(−100)·(0, −1) = (0, −150)).
    let mut w = world(Vec2::new(200.0, 10_000.0), 1.0);
    bumper(&mut w);
    let id = w
        .add_ball(ball(Vec2::new(100.0, 9_900.0), Vec2::new(0.0, 100.0), None))
        .unwrap();
    assert_eq!(
        first_bounce(&mut w, id, 60),
        (100.0, Vec2::new(0.0, -150.0))
    );

    // At 8000: 12 000 would exceed max(8000, MAX_KICK_SPEED = 10 000): it leaves at 10 000.
    let mut w = world(Vec2::new(200.0, 10_000.0), 1.0);
    bumper(&mut w);
    let id = w
        .add_ball(ball(
            Vec2::new(100.0, 9_900.0),
            Vec2::new(0.0, 8_000.0),
            None,
        ))
        .unwrap();
    let (speed, v) = first_bounce(&mut w, id, 5);
    assert_eq!(speed, 8_000.0);
    assert_eq!(v.x, 0.0);
    assert!(
        (v.y + MAX_KICK_SPEED).abs() <= 1e-12 * MAX_KICK_SPEED,
        "{v}"
    );

    // At 20 000, already above the cap: elastic, never slowed (−20 000 exactly).
    let mut w = world(Vec2::new(200.0, 10_000.0), 1.0);
    bumper(&mut w);
    let id = w
        .add_ball(ball(
            Vec2::new(100.0, 9_900.0),
            Vec2::new(0.0, 20_000.0),
            None,
        ))
        .unwrap();
    assert_eq!(
        first_bounce(&mut w, id, 5),
        (20_000.0, Vec2::new(0.0, -20_000.0))
    );

    // A kinematic bumper rising at 20 into a ball falling at 100: relative 120, kicked to
    // 1.5·120 = 180 relative, so the ball leaves at −20 − 180 = −200.
    let mut w = world(Vec2::new(200.0, 400.0), 1.0);
    w.add_rect(RectDesc {
        aabb: Aabb::new(Vec2::new(0.0, 300.0), Vec2::new(200.0, 310.0)),
        vel: Vec2::new(0.0, -20.0),
        kind: RectKind::Kinematic,
        density: 1.0,
        surface: Surface {
            restitution: Some(1.5),
            filter: collide_world::Filter::DEFAULT,
            ..Surface::DEFAULT
        },
    })
    .unwrap();
    let id = w
        .add_ball(ball(Vec2::new(100.0, 200.0), Vec2::new(0.0, 100.0), None))
        .unwrap();
    assert_eq!(
        first_bounce(&mut w, id, 60),
        (120.0, Vec2::new(0.0, -200.0))
    );
}

#[test]
fn two_facing_kickers_pump_a_ball_only_up_to_the_cap() {
    // Pads of restitution 2 at both ends of a 200-unit corridor: each bounce doubles the
    // speed (100, 200, ..., 6400), then 12 800 is capped to 10 000, and from then on every
    // bounce is elastic at 10 000.
    let mut w = world(Vec2::new(200.0, 100.0), 1.0);
    w.add_rect(pad(Vec2::new(0.0, 0.0), Vec2::new(10.0, 100.0), Some(2.0)))
        .unwrap();
    w.add_rect(pad(
        Vec2::new(190.0, 0.0),
        Vec2::new(200.0, 100.0),
        Some(2.0),
    ))
    .unwrap();
    let id = w
        .add_ball(ball(Vec2::new(100.0, 50.0), Vec2::new(100.0, 0.0), None))
        .unwrap();
    let mut speeds = Vec::new();
    for _ in 0..300 {
        for e in w.step() {
            if let Event::Contact(Contact {
                body: Body::Ball(_),
                other: Target::Rect(_),
                speed,
                ..
            }) = *e
            {
                speeds.push(speed);
            }
        }
        let v = w.ball(id).unwrap().vel;
        assert_eq!(v.y, 0.0);
        assert!(v.x.abs() <= MAX_KICK_SPEED * (1.0 + 1e-12), "{v}");
    }
    let expected = [100.0, 200.0, 400.0, 800.0, 1600.0, 3200.0, 6400.0];
    assert_eq!(&speeds[..7], &expected);
    assert!(speeds.len() > 20, "{} bounces", speeds.len());
    for s in &speeds[7..] {
        assert!((s - MAX_KICK_SPEED).abs() <= 1e-9, "{s}");
    }
}

#[test]
fn two_balls_of_0_2_and_0_6_collide_with_0_6() {
    // Masses 1 : 3 (densities 1 and 3, same radius), head on along x at 50 and −30, both
    // moving down at 10 (tangent, kept). The 1D collision with e = 0.6:
    //   v1' = (m1 v1 + m2 v2 + m2 e (v2 − v1)) / (m1 + m2) = (−40 + 3·0.6·(−80)) / 4 = −46,
    //   v2' = (m1 v1 + m2 v2 + m1 e (v1 − v2)) / (m1 + m2) = (−40 + 0.6·80) / 4 = 2,
    // separating at 48 = 0.6 · 80. Either ball may carry the 0.6.
    for (e1, e2) in [(0.2, 0.6), (0.6, 0.2)] {
        let mut w = world(Vec2::new(400.0, 1_000.0), 1.0);
        let a = w
            .add_ball(ball(
                Vec2::new(100.0, 50.0),
                Vec2::new(50.0, 10.0),
                Some(e1),
            ))
            .unwrap();
        let b = w
            .add_ball(BallDesc {
                density: 3.0,
                ..ball(Vec2::new(200.0, 50.0), Vec2::new(-30.0, 10.0), Some(e2))
            })
            .unwrap();
        let mut hit = None;
        for _ in 0..120 {
            if let Some(&Event::Contact(Contact {
                body: Body::Ball(_),
                other: Target::Ball(_),
                speed,
                ..
            })) = w.step().iter().find(|e| {
                matches!(
                    e,
                    Event::Contact(Contact {
                        body: Body::Ball(_),
                        other: Target::Ball(_),
                        ..
                    })
                )
            }) {
                hit = Some(speed);
                break;
            }
        }
        assert_eq!(hit, Some(80.0));
        let (va, vb) = (w.ball(a).unwrap().vel, w.ball(b).unwrap().vel);
        assert!((va.x + 46.0).abs() < 1e-12, "{va}");
        assert!((vb.x - 2.0).abs() < 1e-12, "{vb}");
        assert_eq!((va.y, vb.y), (10.0, 10.0));
    }
}

#[test]
fn wall_and_brick_cells_have_their_own_values() {
    // World restitution 0 (so the balls, without their own, take the cells' values): wall
    // cells 0.5, bricks (indestructible here) 0.75. Each ball falls at 100 onto its cell.
    let config = StepConfig {
        restitution: 0.0,
        destructible_bricks: false,
        ..StepConfig::default()
    };
    let mut w = World::new(Vec2::new(100.0, 100.0), Walls::ALL, config).unwrap();
    let mut grid = Grid::from_rows(20.0, Vec2::new(0.0, 80.0), &["# R  "]).unwrap();
    grid.set_restitution(Some(0.5), Some(0.75)).unwrap();
    assert_eq!(grid.restitution_of(Cell::Brick(b'Y')), Some(0.75));
    assert_eq!(grid.restitution_of(Cell::Empty), None);
    w.set_grid(grid);
    let on_wall = w
        .add_ball(ball(Vec2::new(10.0, 40.0), Vec2::new(0.0, 100.0), None))
        .unwrap();
    let on_brick = w
        .add_ball(ball(Vec2::new(50.0, 40.0), Vec2::new(0.0, 100.0), None))
        .unwrap();
    // This one only meets the world's closed top wall (the world's 0) going up: v·n = −100,
    // v' = (0, −100) − 1·(−100)·(0, 1) = 0.
    let up = w
        .add_ball(ball(Vec2::new(90.0, 40.0), Vec2::new(0.0, -100.0), None))
        .unwrap();
    let mut cells = Vec::new();
    for _ in 0..30 {
        for e in w.step().to_vec() {
            if let Event::Contact(Contact {
                body: Body::Ball(ball),
                other: Target::Cell(cell),
                ..
            }) = e
            {
                cells.push((ball, cell, w.ball(ball).unwrap().vel));
            }
        }
    }
    // 100 → 50 off the wall cell, 100 → 75 off the brick; each bounces once.
    assert_eq!(
        cells,
        vec![
            (on_wall, CellCoord::new(0, 0), Vec2::new(0.0, -50.0)),
            (on_brick, CellCoord::new(2, 0), Vec2::new(0.0, -75.0)),
        ]
    );
    assert_eq!(w.ball(up).unwrap().vel, Vec2::ZERO);
    // The world's setter, read back through the grid; bad values are refused.
    w.set_grid_restitution(None, Some(MAX_RESTITUTION)).unwrap();
    let g = w.grid().unwrap();
    assert_eq!(
        (g.wall_restitution(), g.brick_restitution()),
        (None, Some(10.0))
    );
    let e = w.set_grid_restitution(Some(-1.0), None).unwrap_err();
    assert!(
        matches!(
            e,
            WorldError::Grid(GridError::BadRestitution {
                field: "wall_restitution",
                ..
            })
        ),
        "{e}"
    );
}

#[test]
fn a_dynamic_box_of_its_own_restitution_kicks_off_a_closed_wall() {
    // A dynamic box moving right at 100 into the closed right wall; its own 1.5 against the
    // wall's (the world's) 1: 1.5, so it comes back at 150.
    let mut w = world(Vec2::new(200.0, 100.0), 1.0);
    let id = w
        .add_rect(RectDesc {
            aabb: Aabb::new(Vec2::new(150.0, 40.0), Vec2::new(170.0, 60.0)),
            vel: Vec2::new(100.0, 0.0),
            kind: RectKind::Dynamic,
            density: 1.0,
            surface: Surface {
                restitution: Some(1.5),
                filter: collide_world::Filter::DEFAULT,
                ..Surface::DEFAULT
            },
        })
        .unwrap();
    for _ in 0..30 {
        w.step();
    }
    assert_eq!(w.rect(id).unwrap().vel, Vec2::new(-150.0, 0.0));
    assert_eq!(w.rect(id).unwrap().surface.restitution, Some(1.5));
}

#[test]
fn setters_check_their_values_and_ids() {
    let mut w = world(Vec2::new(100.0, 100.0), 1.0);
    let id = w
        .add_ball(ball(Vec2::new(50.0, 50.0), Vec2::ZERO, None))
        .unwrap();
    for bad in [-0.1, 10.5, f64::NAN, f64::INFINITY] {
        let e = w.set_ball_restitution(id, Some(bad)).unwrap_err();
        assert!(
            matches!(
                e,
                WorldError::BadBall {
                    field: "restitution",
                    ..
                }
            ),
            "{e}"
        );
        let e = w
            .add_ball(ball(Vec2::new(20.0, 20.0), Vec2::ZERO, Some(bad)))
            .unwrap_err();
        assert!(e.to_string().contains("restitution"), "{e}");
        let e = w
            .add_rect(pad(Vec2::ZERO, Vec2::new(1.0, 1.0), Some(bad)))
            .unwrap_err();
        assert!(
            matches!(
                e,
                WorldError::BadRect {
                    field: "restitution",
                    ..
                }
            ),
            "{e}"
        );
    }
    assert_eq!(w.ball(id).unwrap().restitution, None);
    w.set_ball_restitution(id, Some(MAX_RESTITUTION)).unwrap();
    assert_eq!(w.ball(id).unwrap().restitution, Some(10.0));
    assert_eq!(w.balls().next().unwrap().restitution, Some(10.0));
    let gone = w.remove_ball(id).unwrap();
    assert_eq!(gone.restitution, Some(10.0));
    assert!(matches!(
        w.set_ball_restitution(id, None),
        Err(WorldError::NoSuchBody(_))
    ));
    // No grid: refused, naming the grid.
    assert!(matches!(
        w.set_grid_restitution(Some(0.5), None),
        Err(WorldError::BadSetting { field: "grid", .. })
    ));
}

/// The arena with materials: every third ball 0.3, every fifth 1.4, the wall cells 0.8, the
/// world 0.9; plus a rubber pad (0.2) and a bumper (2.0).
fn material_arena(balls: usize) -> World {
    let mut scene = arena_scene(balls, 300.0, 11);
    scene.step.restitution = 0.9;
    if let Some(g) = &mut scene.grid {
        g.wall_restitution = Some(0.8);
    }
    let mut w = World::from_scene(&scene).unwrap();
    let ids: Vec<_> = w.balls().map(|b| b.id).collect();
    for (k, id) in ids.into_iter().enumerate() {
        let e = match k % 15 {
            0 => Some(1.4),
            3 | 6 | 9 | 12 => Some(0.3),
            5 | 10 => Some(1.4),
            _ => None,
        };
        w.set_ball_restitution(id, e).unwrap();
    }
    w.add_rect(pad(
        Vec2::new(400.0, 20.0),
        Vec2::new(480.0, 24.0),
        Some(0.2),
    ))
    .unwrap();
    w.add_rect(pad(
        Vec2::new(600.0, 960.0),
        Vec2::new(640.0, 970.0),
        Some(2.0),
    ))
    .unwrap();
    w
}

fn hashes(w: &mut World, n: usize) -> Vec<u64> {
    (0..n)
        .map(|_| {
            w.step();
            w.state_hash()
        })
        .collect()
}

#[test]
fn a_snapshot_keeps_materials_and_the_next_100_steps_are_the_same_bits() {
    let mut a = material_arena(600);
    hashes(&mut a, 30);
    let snap = a.snapshot();
    let straight = hashes(&mut a, 100);
    // Rollback into the same world.
    a.restore(&snap).unwrap();
    assert_eq!(hashes(&mut a, 100), straight);
    // Through postcard into a world of the same shape built without materials: the
    // snapshot brings them.
    let bytes = postcard::to_stdvec(&snap).unwrap();
    let back: Snapshot = postcard::from_bytes(&bytes).unwrap();
    assert_eq!(back, snap);
    let mut b = World::from_scene(&arena_scene(600, 300.0, 11)).unwrap();
    b.restore(&back).unwrap();
    let g = b.grid().unwrap();
    assert_eq!(
        (g.wall_restitution(), g.brick_restitution()),
        (Some(0.8), None)
    );
    assert_eq!(b.rects()[1].surface.restitution, Some(2.0));
    let own = b.balls().filter(|x| x.restitution.is_some()).count();
    assert_eq!(own, 600 / 15 * 7);
    assert_eq!(hashes(&mut b, 100), straight);
}

#[test]
fn the_state_hash_sees_materials_only_when_set() {
    let mut a = World::from_scene(&arena_scene(50, 300.0, 5)).unwrap();
    let before = a.state_hash();
    let id = a.balls().get(7).unwrap().id;
    a.set_ball_restitution(id, Some(1.0)).unwrap();
    let with = a.state_hash();
    assert_ne!(with, before);
    a.set_ball_restitution(id, None).unwrap();
    assert_eq!(a.state_hash(), before);
    a.set_grid_restitution(Some(0.5), None).unwrap();
    assert_ne!(a.state_hash(), before);
}

#[test]
fn materials_give_the_same_bits_with_1_and_4_threads() {
    // Batches of predictions run on 4 threads; the responses read the same materials.
    let w = material_arena(3000);
    let one = hashes(&mut w.clone(), 60);
    let mut four = w.clone();
    four.set_threads(4);
    assert_eq!(hashes(&mut four, 60), one);
}

#[test]
fn spatial_domains_stay_off_while_a_ball_has_its_own_restitution() {
    // 20 000 balls, 2 threads: without materials the domains run after 8 calm steps; with one
    // ball of its own 1.0 (every collision still elastic) they do not, and the bits are the
    // serial loop's.
    let scene = arena_scene_tiled(20_000, 60.0, 3, 2, 1);
    let plain = World::from_scene(&scene).unwrap();
    let mut marked = plain.clone();
    let id = marked.balls().get(100).unwrap().id;
    marked.set_ball_restitution(id, Some(1.0)).unwrap();
    let one = hashes(&mut marked.clone(), 12);
    let mut two = marked;
    two.set_threads(2);
    assert_eq!(hashes(&mut two, 12), one);
    assert_eq!(two.domain_steps(), (0, 0));
    let mut two_plain = plain;
    two_plain.set_threads(2);
    hashes(&mut two_plain, 12);
    assert!(
        two_plain.domain_steps().0 > 0,
        "{:?}",
        two_plain.domain_steps()
    );
}

#[test]
fn a_scene_file_gives_each_body_its_material() {
    let text = "[world]\nsize = [200, 200]\n[grid]\ncell = 10\nrows = [\"#R\"]\n\
                wall_restitution = 0.5\nbrick_restitution = 0.25\n\
                [[ball]]\npos = [100, 100]\nradius = 3\nrestitution = 0\n\
                [[rect]]\nmin = [0, 190]\nmax = [200, 200]\nrestitution = 1.5\n\
                [spawn]\ncount = 3\nradius = 2\nspeed = 10\nrestitution = 0.75\n";
    let no_levels = |_: &str| Err(std::io::Error::other("no level files"));
    let scene = collide_scene::from_toml_str(text, "m.toml", &no_levels).unwrap();
    let w = World::from_scene(&scene).unwrap();
    let es: Vec<_> = w.balls().map(|b| b.restitution).collect();
    assert_eq!(es, [Some(0.0), Some(0.75), Some(0.75), Some(0.75)]);
    assert_eq!(w.rects()[0].surface.restitution, Some(1.5));
    let g = w.grid().unwrap();
    assert_eq!(
        (g.wall_restitution(), g.brick_restitution()),
        (Some(0.5), Some(0.25))
    );
    // A bad value names the field and its line.
    let bad = text.replace("restitution = 1.5", "restitution = 12");
    let e = collide_scene::from_toml_str(&bad, "m.toml", &no_levels).unwrap_err();
    assert_eq!(
        (e.line(), e.field()),
        (Some(15), Some("rect[0].restitution"))
    );
    assert!(e.to_string().contains("between 0 and 10"), "{e}");
}

/// Glancing kicks cannot pump speed: 300 balls (ball–ball off) at 100 units/s in a closed box
/// with two kicking circles of restitution 10, for 3000 steps. Each kick adds normal speed,
/// but no ball ever leaves a kick faster than `MAX_KICK_SPEED` (its speed before is at most
/// that), so no ball's speed exceeds it at any step's end.
#[test]
fn glancing_kicks_never_raise_a_speed_past_the_cap() {
    let config = StepConfig {
        dt: 1.0 / 60.0,
        ball_ball: false,
        ..StepConfig::default()
    };
    let mut w = World::new(Vec2::new(400.0, 400.0), Walls::ALL, config).expect("valid");
    for centre in [Vec2::new(130.0, 200.0), Vec2::new(270.0, 200.0)] {
        let mut c = collide_world::ShapeDesc::circle(centre, 30.0);
        c.surface.restitution = Some(10.0);
        w.add_shape(c).expect("valid");
    }
    let mut k = 0u64;
    for i in 0..20 {
        for j in 0..15 {
            let pos = Vec2::new(12.0 + 19.0 * i as f64, 12.0 + 25.0 * j as f64);
            if [130.0, 270.0]
                .iter()
                .any(|&x| (pos - Vec2::new(x, 200.0)).length() < 40.0)
            {
                continue;
            }
            k += 1;
            let a = k as f64 * 2.399_963;
            let mut b = ball(pos, Vec2::new(a.cos(), a.sin()) * 100.0, None);
            b.radius = 2.0;
            w.add_ball(b).expect("valid");
        }
    }
    let mut fastest: f64 = 0.0;
    let mut kicks = 0;
    for _ in 0..3000 {
        kicks += w
            .step()
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::Contact(Contact {
                        body: Body::Ball(_),
                        other: Target::Shape(_),
                        ..
                    })
                )
            })
            .count();
        for b in w.balls() {
            fastest = fastest.max(b.vel.length());
        }
    }
    assert!(kicks > 1000, "{kicks} kicks");
    assert!(
        fastest <= MAX_KICK_SPEED * (1.0 + 1e-9),
        "a ball reached {fastest} units/s"
    );
    // The kicks did add speed: some balls are far faster than they started.
    assert!(fastest > 20.0 * 100.0, "{fastest}");
}
