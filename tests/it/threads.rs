//! Cross-thread determinism: the same scene stepped with 1, 2 and 3 threads has the same
//! `World::state_hash` after every step, bit for bit, through the parallel paths of the
//! step (the first prediction of every mover, the batch of movers whose predictions end
//! within a step, the rebuild after an edit or a lost ball).

use collide_scenes::arena_scene;
use collide_world::{BallDesc, Surface, Walls, World};
use glam::DVec2;

/// Steps `world` `steps` times; every 10th step adds a ball and removes one (edits between
/// steps: everything is predicted again, in parallel). Returns the hash after every step.
fn hashes(mut world: World, threads: usize, steps: usize) -> Vec<u64> {
    world.set_threads(threads);
    assert_eq!(world.threads(), threads);
    let mut out = Vec::with_capacity(steps);
    for k in 0..steps {
        if k % 10 == 5 {
            // A fixed, free spot of the arena's first row of cells (row 0 is never solid):
            // taken only when no ball is there.
            let pos = DVec2::new(12.5 + (k as f64), 12.5);
            let free = world
                .balls()
                .iter()
                .all(|b| (b.pos - pos).length() > b.radius + 2.0);
            if free {
                world
                    .add_ball(BallDesc {
                        pos,
                        vel: DVec2::new(900.0, 700.0),
                        radius: 2.0,
                        density: 1.0,
                        surface: Surface::DEFAULT,
                        gravity_scale: 1.0,
                    })
                    .expect("a valid ball");
            }
            let first = world.balls().get(0).expect("a ball").id;
            assert!(world.remove_ball(first).is_some(), "the first ball exists");
        }
        world.step();
        out.push(world.state_hash());
    }
    out
}

fn check(world: &World, steps: usize) {
    let one = hashes(world.clone(), 1, steps);
    for threads in [2, 3] {
        let many = hashes(world.clone(), threads, steps);
        let first_diff = one.iter().zip(&many).position(|(a, b)| a != b);
        assert_eq!(
            first_diff, None,
            "{threads} threads: the state hash first differs after step {first_diff:?}"
        );
    }
}

#[test]
fn arena_6000_balls_fast_same_hash_with_1_2_and_3_threads() {
    // 6000 movers: batches of 6000 split into 2 and 3 parallel chunks.
    let world = World::from_scene(&arena_scene(6000, 3000.0, 7)).expect("builds");
    check(&world, 40);
}

#[test]
fn open_arena_losing_balls_same_hash_with_1_2_and_3_threads() {
    // Open sides: balls leave, dense indices move, everything is predicted again.
    let mut scene = arena_scene(5000, 1500.0, 3);
    scene.walls = Walls {
        left: true,
        top: false,
        right: false,
        bottom: true,
    };
    let world = World::from_scene(&scene).expect("builds");
    let start = world.balls().len();
    check(&world, 30);
    let mut w = world.clone();
    for _ in 0..30 {
        w.step();
    }
    assert!(
        w.balls().len() < start,
        "balls left through the open sides ({} of {start} remain)",
        w.balls().len()
    );
}

#[test]
fn ball_ball_off_same_hash_with_1_2_and_3_threads() {
    let mut scene = arena_scene(5000, 600.0, 11);
    scene.step.ball_ball = false;
    let world = World::from_scene(&scene).expect("builds");
    check(&world, 40);
}
