//! Criterion benchmark of the push-out of an embedded ball: a ball of radius 100 spawned over
//! a `k × k` block of 0.01-unit cells (half of them walls, at random), for k = 50, 100, 200.
//! Each iteration builds the world (untimed) and times its first `step()`, which pushes the
//! ball to the nearest free position; group `push_out_free` times the same first step with
//! the ball placed clear of the block, so the two groups side by side give what the push-out
//! costs. The time grows about linearly with the k² cells under the ball.
//!
//! `cargo bench -p collide-world --bench push_out`

use std::time::Duration;

use collide_world::scene::random_grid;
use collide_world::{BallDesc, Grid, StepConfig, Vec2, Walls, World};
use criterion::{criterion_main, BatchSize, BenchmarkId, Criterion};

/// A 300 × 300 closed world with the `k × k` block at (100, 100) and a ball of radius 100 at
/// `ball` moving at 10 units/s.
fn world(k: usize, ball: Vec2) -> World {
    let mut w = World::new(Vec2::new(300.0, 300.0), Walls::ALL, StepConfig::default())
        .expect("valid world");
    let desc = random_grid(k, k, 0.5, 7, 0.01, Vec2::new(100.0, 100.0)).expect("valid grid");
    w.set_grid(Grid::new(&desc).expect("valid grid"));
    w.add_ball(BallDesc {
        pos: ball,
        vel: Vec2::new(10.0, 0.0),
        radius: 100.0,
        density: 1.0,
    })
    .expect("valid ball");
    w
}

fn push_out(c: &mut Criterion) {
    for (name, ball) in [
        ("push_out", Vec2::new(100.2, 100.2)),
        ("push_out_free", Vec2::new(150.0, 200.5)),
    ] {
        let mut group = c.benchmark_group(name);
        group.sample_size(10);
        group.warm_up_time(Duration::from_millis(500));
        group.measurement_time(Duration::from_secs(3));
        for k in [50, 100, 200] {
            group.bench_with_input(BenchmarkId::from_parameter(k * k), &k, |b, &k| {
                b.iter_batched(
                    || world(k, ball),
                    |mut w| w.step().len(),
                    BatchSize::LargeInput,
                );
            });
        }
        group.finish();
    }
}

fn benches() {
    let mut c = Criterion::default().configure_from_args();
    push_out(&mut c);
}

criterion_main!(benches);
