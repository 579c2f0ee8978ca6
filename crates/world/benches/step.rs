//! Criterion benchmarks of `World::step` on the arena benchmark scene (issue 5):
//! `arena_scene(N, speed, 1)` (world [0, 1000]², 226 solid cells of 25 units, balls of radius 2,
//! ball-ball collisions on, dt = 1/60 s) for N = 1000 and 10 000 at 60 and 3000 units/s.
//!
//! `cargo bench -p collide-world --bench step` (add `-- 10000` to run only the 10 000-ball
//! cases). Each iteration is one `step()` of the same world, which keeps moving: the scene is
//! statistically stationary (elastic, closed), so every step does the same work on average.
//! The world first runs 20 untimed steps so that the step's buffers are sized and the first
//! step's set-up is not measured. `collide bench` times the same scene per step (median) and
//! reports the checks; `docs/performance.md` has the figures.

use std::time::Duration;

use collide_world::scene::arena_scene;
use collide_world::World;
use criterion::{criterion_main, BenchmarkId, Criterion};

/// Untimed steps before measuring.
const WARMUP_STEPS: usize = 20;

fn arena(balls: usize, speed: f64) -> World {
    let mut world = World::from_scene(&arena_scene(balls, speed, 1)).expect("the arena builds");
    for _ in 0..WARMUP_STEPS {
        world.step();
    }
    world
}

fn step(c: &mut Criterion) {
    let mut group = c.benchmark_group("arena_step");
    group.sample_size(20);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(5));
    for speed in [60.0, 3000.0] {
        for balls in [1000usize, 10_000] {
            let mut world = arena(balls, speed);
            group.bench_with_input(
                BenchmarkId::new(format!("{speed} units per s"), balls),
                &balls,
                |b, _| b.iter(|| world.step().len()),
            );
        }
    }
    group.finish();
}

/// The benchmark group (what `criterion_group!` would generate, documented).
pub fn benches() {
    let mut c = Criterion::default().configure_from_args();
    step(&mut c);
}

criterion_main!(benches);
