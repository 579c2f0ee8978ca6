//! Criterion benchmarks of the two costly corners of the step, each beside the same scene
//! without the offending feature (the step's guarantee: no accepted input makes a step more
//! than 100 times slower than that).
//!
//! - `push_out/K`: a ball of radius 100 spawned over a `k × k` block of 0.01-unit cells (half
//!   of them walls, at random), K = k² = 2 500, 10 000, 40 000 cells. Each iteration builds
//!   the world (untimed) and times its first `step()`, which pushes the ball to the nearest
//!   free position. `push_out_free/K` times the same first step with the ball placed clear of
//!   the block and of the walls.
//! - `squeeze`: a ball squeezed by a kinematic paddle against a wall (carried, crushed,
//!   pushed out: the seven steps around it, `tests/it/squeeze.rs`); `squeeze_free`: the
//!   same steps with the paddle moving away.
//!
//! `cargo bench -p collide-world --bench push_out`

use std::time::Duration;

use collide_scene::random_grid;
use collide_world::{
    Aabb, BallDesc, Grid, RectDesc, RectKind, StepConfig, Surface, Vec2, Walls, World,
};
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
        surface: Surface::DEFAULT,
        gravity_scale: 1.0,
    })
    .expect("valid ball");
    w
}

fn push_out(c: &mut Criterion) {
    for (name, ball) in [
        ("push_out", Vec2::new(100.2, 100.2)),
        ("push_out_free", Vec2::new(200.0, 200.0)),
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

/// The squeeze of `tests/it/squeeze.rs` (a 200 × 100 closed world, a ball of radius 5 at
/// rest at (20, 50), a paddle [40, 50] × [20, 80] at `vx`), stepped (untimed) to t = 2.4 s,
/// 0.1 s a step.
fn squeeze_world(vx: f64) -> World {
    let config = StepConfig {
        dt: 0.1,
        ..StepConfig::default()
    };
    let mut w = World::new(Vec2::new(200.0, 100.0), Walls::ALL, config).expect("valid world");
    w.add_rect(RectDesc {
        aabb: Aabb::new(Vec2::new(40.0, 20.0), Vec2::new(50.0, 80.0)),
        vel: Vec2::new(vx, 0.0),
        kind: RectKind::Kinematic,
        density: 1.0,
        surface: Surface::DEFAULT,
    })
    .expect("valid paddle");
    w.add_ball(BallDesc {
        pos: Vec2::new(20.0, 50.0),
        vel: Vec2::ZERO,
        radius: 5.0,
        density: 1.0,
        surface: Surface::DEFAULT,
        gravity_scale: 1.0,
    })
    .expect("valid ball");
    for _ in 0..24 {
        w.step();
    }
    w
}

fn squeeze(c: &mut Criterion) {
    let mut group = c.benchmark_group("squeeze");
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));
    // Closing (carried at 2.5 s, crushed at 3.0 s, pushed out at 3.1 s) and moving away.
    for (name, vx) in [("squeeze", -10.0), ("squeeze_free", 10.0)] {
        group.bench_function(name, |b| {
            b.iter_batched(
                || squeeze_world(vx),
                |mut w| (0..7).map(|_| w.step().len()).sum::<usize>(),
                BatchSize::SmallInput,
            );
        });
    }
    group.finish();
}

fn benches() {
    let mut c = Criterion::default().configure_from_args();
    push_out(&mut c);
    squeeze(&mut c);
}

criterion_main!(benches);
