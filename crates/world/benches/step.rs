//! Criterion benchmarks of `World::step` on the arena benchmark scene:
//! `arena_scene(N, speed, 1)` (a closed box [0, 1000]², 226 randomly placed wall cells of 25
//! units, balls of radius 2, dt = 1/60 s):
//! - group `arena_step`: N = 1000 and 10 000 at 60 and 3000 units/s, ball-ball on;
//! - group `arena_step_ball_ball_off`: the same with ball-ball collisions off;
//! - group `arena_step_100k`: 100 000 balls at 60 units/s in 5 × 2 arenas
//!   (`arena_scene_tiled`: one arena cannot hold them), ball-ball on, with 1 and 2 threads
//!   (`World::set_threads`; the results are the same bit for bit).
//!
//! `cargo bench -p collide-world --bench step` (add `-- 10000` to run only the 10 000-ball
//! cases, `-- 100k` for the large ones). Each iteration is one `step()` of the same world, which keeps moving: the scene is
//! statistically stationary (elastic, closed), so every step does the same work on average.
//! The world first runs 20 untimed steps so that the step's buffers are sized and the first
//! step's set-up is not measured. `collide bench` times the same scene per step (median) and
//! reports the checks; `docs/performance.md` has the figures.

use std::time::Duration;

use collide_scenes::{arena_scene, arena_scene_tiled};
use collide_world::World;
use criterion::{criterion_main, BenchmarkId, Criterion};

/// Untimed steps before measuring.
const WARMUP_STEPS: usize = 20;

fn arena(balls: usize, speed: f64) -> World {
    warm(World::from_scene(&arena_scene(balls, speed, 1)).expect("the arena builds"))
}

fn warm(mut world: World) -> World {
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

    let mut group = c.benchmark_group("arena_step_ball_ball_off");
    group.sample_size(20);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    for speed in [60.0, 3000.0] {
        for balls in [1000usize, 10_000] {
            let mut scene = arena_scene(balls, speed, 1);
            scene.step.ball_ball = false;
            let mut world = warm(World::from_scene(&scene).expect("the arena builds"));
            group.bench_with_input(
                BenchmarkId::new(format!("{speed} units per s"), balls),
                &balls,
                |b, _| b.iter(|| world.step().len()),
            );
        }
    }
    group.finish();

    let mut group = c.benchmark_group("arena_step_100k");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(5));
    let base = warm(
        World::from_scene(&arena_scene_tiled(100_000, 60.0, 1, 5, 2)).expect("the arenas build"),
    );
    for threads in [1usize, 2] {
        let mut world = base.clone();
        world.set_threads(threads);
        group.bench_with_input(
            BenchmarkId::new("60 units per s, threads", threads),
            &threads,
            |b, _| b.iter(|| world.step().len()),
        );
    }
    group.finish();
}

/// The benchmark group (what `criterion_group!` would generate, documented).
pub fn benches() {
    let mut c = Criterion::default().configure_from_args();
    step(&mut c);
}

criterion_main!(benches);
