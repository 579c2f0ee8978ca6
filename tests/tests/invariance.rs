//! Time-step invariance: exact continuous collision makes a ball's path independent of dt.
//! A tile-and-wall-only scene run for 1 s at dt = 1/30 and at dt = 1/3000 ends with every ball
//! at the same position to 1e-6 units.

use collide_tests::closed_level;
use collide_world::World;

fn positions(dt: f64, steps: usize, level: u32) -> Vec<(u64, glam::DVec2)> {
    let mut scene = closed_level(level, 200);
    scene.step.dt = dt;
    scene.step.ball_ball = false;
    let mut w = World::from_scene(&scene).expect("builds");
    for _ in 0..steps {
        w.step();
    }
    w.balls().iter().map(|b| (b.id.to_bits(), b.pos)).collect()
}

fn check(level: u32) {
    let coarse = positions(1.0 / 30.0, 30, level);
    let fine = positions(1.0 / 3000.0, 3000, level);
    assert_eq!(coarse.len(), fine.len());
    let mut worst: f64 = 0.0;
    for ((ia, a), (ib, b)) in coarse.iter().zip(&fine) {
        assert_eq!(ia, ib);
        worst = worst.max((*a - *b).length());
    }
    eprintln!("level {level}: largest position difference {worst:e} units");
    assert!(
        worst < 1e-6,
        "level {level}: positions differ by up to {worst:e}"
    );
}

#[test]
fn same_path_at_dt_1_30_and_1_3000_on_level_1() {
    check(1);
}

#[test]
fn same_path_at_dt_1_30_and_1_3000_on_level_5() {
    check(5);
}
