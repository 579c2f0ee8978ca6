//! The acceptance runs on the seven real BricksBeater levels: walls on all
//! four sides, indestructible bricks, 1000 balls, 10 000 steps: no ball lost, none embedded,
//! kinetic energy constant to 1e-9 relative at every step, and the same state hash twice.

use collide_tests::{closed_level, embedded_count};
use collide_world::World;

fn run(n: u32) -> u64 {
    let scene = closed_level(n, 1000);
    let mut w = World::from_scene(&scene).expect("level builds");
    assert_eq!(w.balls().len(), 1000);
    let e0 = w.kinetic_energy();
    assert!(e0 > 0.0);
    let mut max_dev: f64 = 0.0;
    let mut tile_hits = 0usize;
    for _ in 0..10_000 {
        for e in w.step() {
            match e.kind() {
                "ball_lost" | "iteration_limit" | "unembedded" => {
                    panic!("level {n}: unexpected {e:?}")
                }
                "ball_tile" => tile_hits += 1,
                _ => {}
            }
        }
        max_dev = max_dev.max(((w.kinetic_energy() - e0) / e0).abs());
    }
    assert_eq!(w.balls().len(), 1000, "level {n}: balls lost");
    assert_eq!(embedded_count(&w), 0, "level {n}: embedded balls");
    assert!(max_dev < 1e-9, "level {n}: energy drift {max_dev:e}");
    assert!(
        tile_hits > 10_000,
        "level {n}: only {tile_hits} tile hits: the balls did not play"
    );
    w.state_hash()
}

fn check(n: u32) {
    let h1 = run(n);
    let h2 = run(n);
    assert_eq!(h1, h2, "level {n}: two runs differ");
}

#[test]
fn level_1() {
    check(1);
}
#[test]
fn level_2() {
    check(2);
}
#[test]
fn level_3() {
    check(3);
}
#[test]
fn level_4() {
    check(4);
}
#[test]
fn level_5() {
    check(5);
}
#[test]
fn level_6() {
    check(6);
}
#[test]
fn level_7() {
    check(7);
}
