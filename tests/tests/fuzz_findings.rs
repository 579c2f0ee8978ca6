//! What fuzzing found (`fuzz/`, target `step`; `docs/reliability.md` lists the runs), each
//! reduced by hand to a small world built through the public API. The fuzzer's own inputs
//! are kept in `fuzz/regressions/step/` and replayed by `fuzz/README.md`'s command.
//!
//! Tests of bugs fixed in `collide-core` pass; tests of bugs reported against the world's
//! push-out and step (`embed.rs`, `step.rs`, not changed by this work) fail until those are
//! fixed: they state the behaviour that must hold.

use collide_core::{Aabb, Vec2};
use collide_tests::ball;
use collide_world::{
    Body, Cell, Event, GridDesc, RectDesc, RectKind, Scene, StepConfig, Walls, World,
};

/// Fixed in `collide_core::circle_overlaps_aabb`: the world tests "overlaps by more than the
/// push-out slack" as a disc of radius `r - 1e-7`, negative for a point ball, and squaring the
/// negative radius made a point merely *touching* a rectangle count as embedded. Every
/// push-out candidate on the rectangle's boundary was refused, the ball was left outside the
/// closed wall, and (a wall only stops a centre on its inner side) flew away for ever.
#[test]
fn point_ball_outside_a_wall_next_to_a_rect_is_pushed_back_in() {
    let mut w = World::new(Vec2::new(100.0, 100.0), Walls::ALL, StepConfig::default()).unwrap();
    // A rectangle straddling the left wall where the ball would be put back (0, 50).
    w.add_rect(RectDesc {
        aabb: Aabb::new(Vec2::new(-10.0, 40.0), Vec2::new(0.4, 60.0)),
        ..RectDesc::default()
    })
    .unwrap();
    let id = w
        .add_ball(ball((-20.0, 50.0), (-60.0, 0.0), 0.0, 1.0))
        .unwrap();
    w.step();
    assert!(
        w.events().iter().any(|e| matches!(
            e,
            Event::Unembedded { body: Body::Ball(b), to, .. } if *b == id && *to == Vec2::new(0.4, 50.0)
        )),
        "{:?}",
        w.events()
    );
    for _ in 0..100 {
        w.step();
        let b = w.ball(id).unwrap();
        assert!(b.pos.x >= 0.0 && b.pos.x <= 100.0, "{b:?}");
    }
}

/// Fixed in `collide_core::sweep_aabb_aabb`: a dynamic rectangle bouncing between a floor and
/// a ceiling of tiles ends a bounce sunk ~1e-14 into a tile (its position is a sum of moves).
/// Moving out of it, the slab test saw it "entering" the tile's far face in the past and
/// reflected it back in; then the near face reflected it out, and so on at the same instant
/// until the event bound, every step: the rectangle stuck in the tile for good.
#[test]
fn dynamic_rect_bouncing_between_tile_rows_never_sticks() {
    let (cols, rows, cell) = (27usize, 23usize, 4.0);
    let mut cells = vec![Cell::Empty; cols * rows];
    for c in 0..cols {
        cells[c] = Cell::Wall;
        cells[(rows - 1) * cols + c] = Cell::Wall;
    }
    for r in 0..rows {
        cells[r * cols] = Cell::Wall;
        cells[r * cols + cols - 1] = Cell::Wall;
    }
    let scene = Scene {
        size: Vec2::new(cols as f64 * cell, rows as f64 * cell),
        walls: Walls {
            left: false,
            top: false,
            right: true,
            bottom: false,
        },
        grid: Some(GridDesc {
            cell,
            origin: Vec2::ZERO,
            cols,
            rows,
            cells,
        }),
        step: StepConfig {
            destructible_bricks: false,
            ..StepConfig::default()
        },
        ..Scene::default()
    };
    let mut w = World::from_scene(&scene).unwrap();
    let min = Vec2::new(4.099188408493269, 78.43532470697083);
    let id = w
        .add_rect(RectDesc {
            aabb: Aabb::new(min, min + Vec2::splat(1.0)),
            vel: Vec2::new(0.0, 1238.0072576940004),
            kind: RectKind::Dynamic,
            density: 0.1,
        })
        .unwrap();
    let mut bounces = 0;
    for step in 0..300 {
        w.step();
        for e in w.events() {
            assert!(
                !matches!(e, Event::IterationLimit { .. }),
                "step {step}: {e:?}"
            );
            bounces += usize::from(matches!(e, Event::RectTile { .. }));
        }
        let r = w.rect(id).unwrap();
        assert!(
            r.aabb.min.y >= 4.0 - 1e-9 && r.aabb.max.y <= 88.0 + 1e-9,
            "{r:?}"
        );
        assert_eq!(r.vel.y.abs(), 1238.0072576940004);
    }
    // 300 steps of 1238 / 60 = 20.6 units in a corridor of 84 - 1 units: ~74 bounces.
    assert!((70..=80).contains(&bounces), "{bounces} bounces");
}

/// Reported (push-out, `embed.rs`): a ball far outside a closed world is pushed in only if the
/// nearest inside spot is free. The candidates are gathered around the ball's own position,
/// and the search stops at twice the world's diagonal, so from 10^6 units away the only
/// candidate is the clamped position; here a rectangle covers it, the push-out gives up, the
/// ball stays outside with no event, and, with no wall able to stop a centre behind it,
/// keeps going. Up to 100 units out the same ball is put back at x = 45.
#[test]
fn ball_far_outside_a_closed_world_is_pushed_in_when_the_nearest_spot_is_blocked() {
    let mut w = World::new(Vec2::new(100.0, 100.0), Walls::ALL, StepConfig::default()).unwrap();
    w.add_rect(RectDesc {
        aabb: Aabb::new(Vec2::new(0.0, 0.0), Vec2::new(40.0, 100.0)),
        ..RectDesc::default()
    })
    .unwrap();
    let near = w
        .add_ball(ball((-100.0, 50.0), (-60.0, 0.0), 5.0, 1.0))
        .unwrap();
    let far = w
        .add_ball(ball((-1e6, 50.0), (-60.0, 0.0), 5.0, 1.0))
        .unwrap();
    w.step();
    let inside = |w: &World, id| {
        let b = w.ball(id).unwrap();
        b.pos.x >= 45.0 - 1e-9 && b.pos.x <= 95.0 + 1e-9
    };
    assert!(inside(&w, near), "{:?}", w.ball(near));
    assert!(inside(&w, far), "{:?}", w.ball(far));
}

/// Reported (step, `step.rs`): a closed wall stops only a centre on its inner side, and the
/// push-out tolerates 1e-7 of overlap. A ball of radius below 1e-7 (a point ball, radius 0, is
/// valid) can end up a rounding error behind the wall, for instance put there by a push-out
/// out of a dynamic rectangle lying against the wall (the fuzzer's case); moving outward it
/// then goes through the wall with no event and never comes back.
#[test]
fn point_ball_a_rounding_error_behind_a_closed_wall_bounces() {
    let mut w = World::new(Vec2::new(100.0, 100.0), Walls::ALL, StepConfig::default()).unwrap();
    let id = w
        .add_ball(ball((-1e-12, 50.0), (-600.0, 0.0), 0.0, 1.0))
        .unwrap();
    for step in 0..3 {
        w.step();
        let b = w.ball(id).unwrap();
        assert!(b.pos.x >= -1e-9, "step {step}: {b:?} {:?}", w.events());
    }
}
