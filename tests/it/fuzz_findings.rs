//! What fuzzing found (`fuzz/`, target `step`; `docs/reliability.md` lists the runs), each
//! reduced by hand to a small world built through the public API. The fuzzer's own inputs
//! are kept in `fuzz/regressions/step/` and replayed by `fuzz/README.md`'s command.
//!
//! Each test states the behaviour that must hold; each failed on the code the fuzzer found
//! its bug in (findings F1, F2 and F4 of `docs/reliability.md`).

use collide_core::{Aabb, Vec2};
use collide_tests::ball;
use collide_world::{Body, Event, RectDesc, StepConfig, Walls, World};

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

/// Finding F2, in the push-out (`embed.rs`), which now searches from inside the walls however
/// far out a body is. A ball far outside a closed world was pushed
/// in only if the nearest inside spot was free. The candidates are gathered around the ball's own position,
/// and the search stopped at twice the world's diagonal, so from 10^6 units away the only
/// candidate was the clamped position; here a rectangle covers it, the push-out gave up, the
/// ball stayed outside with no event, and, with no wall able to stop a centre behind it,
/// kept going. From 100 units out the same ball was put back at x = 45.
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

/// Finding F4, in the step (`step/predict.rs`, the static search); walls are solid half-planes
/// (`collide_core::sweep_circle_half_plane`). A closed wall stopped only a centre on its inner
/// side, and the push-out tolerates 1e-7 of overlap: a ball of radius below 1e-7 (a point
/// ball, radius 0, is valid) could end up a rounding error behind the wall, for instance put
/// there by a push-out out of a dynamic rectangle lying against the wall (the fuzzer's case);
/// moving outward it then went through the wall with no event and never came back.
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
