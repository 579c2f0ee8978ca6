//! The renderer's budget: 10 000 balls plus a 51 × 31 BricksBeater level painted at
//! 1280 × 720 in under 8 ms on one core. `cargo bench -p collide-render --bench render`.
//!
//! The world is level 1 (the real level file) with 10 000 balls of radius 3 placed uniformly
//! at random (xorshift64*, seed 7) over the world rectangle: overlaps do not matter to the
//! painter, and a full-screen spread is the worst case for it.
//!
//! Two clocks: criterion's wall time, and (benchmarks named `... cpu`) the CPU time of the
//! benchmark's thread read from Linux's `/proc/thread-self/schedstat`, which does not count
//! the time the thread waits while other processes use the core (this machine's 2 cores are
//! shared). Elsewhere the `cpu` benchmarks fall back to wall time.

// criterion's macros generate undocumented items.
#![allow(missing_docs)]

use collide_core::Vec2;
use collide_render::{render, render_frame, Camera, Frame, Rgb, Style, Xrgb32Target};
use collide_scene::level::{parse_level, scene_from_level};
use collide_world::rng::XorShift64Star;
use collide_world::{BallDesc, Surface, World};
use criterion::{criterion_group, criterion_main, Criterion};
use std::time::{Duration, Instant};

const LEVEL_1: &str = include_str!("../../../scenes/levels/level_1.dat");

fn level_with_balls(n: usize) -> World {
    let grid = parse_level(LEVEL_1).expect("level 1 parses");
    let scene = scene_from_level("level_1", grid, 0);
    let mut world = World::from_scene(&scene).expect("level 1 builds");
    let size = world.size();
    let mut rng = XorShift64Star::new(7);
    for _ in 0..n {
        let pos = Vec2::new(
            rng.range_f64(3.0, size.x - 3.0),
            rng.range_f64(3.0, size.y - 3.0),
        );
        world
            .add_ball(BallDesc {
                pos,
                vel: rng.unit_vector() * 144.0,
                radius: 3.0,
                density: 1.0,
                surface: Surface::DEFAULT,
                gravity_scale: 1.0,
            })
            .expect("ball");
    }
    world
}

/// Nanoseconds this thread has run on a CPU (Linux), if known.
fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// Runs `f` `iters` times and returns the thread's CPU time for them (wall time without
/// `/proc`).
fn cpu_time(iters: u64, mut f: impl FnMut()) -> Duration {
    let wall = Instant::now();
    let start = cpu_ns();
    for _ in 0..iters {
        f();
    }
    match (start, cpu_ns()) {
        (Some(a), Some(b)) => Duration::from_nanos(b.saturating_sub(a)),
        _ => wall.elapsed(),
    }
}

fn bench(c: &mut Criterion) {
    let (w, h) = (1280, 720);
    let world = level_with_balls(10_000);
    let camera = Camera::fit_world(&world, w, h);
    let style = Style::default();
    let mut buf = vec![0u32; w * h];
    c.bench_function("level_1 + 10000 balls, 1280x720, 0RGB", |b| {
        b.iter(|| {
            let mut t = Xrgb32Target::new(&mut buf, w, h).expect("buffer");
            render(&world, &camera, &style, &mut t);
        })
    });
    c.bench_function("level_1 + 10000 balls, 1280x720, 0RGB, cpu", |b| {
        b.iter_custom(|iters| {
            cpu_time(iters, || {
                let mut t = Xrgb32Target::new(&mut buf, w, h).expect("buffer");
                render(&world, &camera, &style, &mut t);
            })
        })
    });
    let palette = [
        Rgb::new(255, 80, 80),
        Rgb::new(80, 255, 80),
        Rgb::new(80, 80, 255),
    ];
    let colour = |b: &collide_world::Ball| palette[(b.id.index() % 3) as usize];
    c.bench_function(
        "level_1 + 10000 coloured balls + velocity lines, 1280x720, 0RGB",
        |b| {
            b.iter(|| {
                let mut frame = Frame::new(&world);
                frame.ball_color = Some(&colour);
                frame.velocity_lines = Some(0.05);
                let mut t = Xrgb32Target::new(&mut buf, w, h).expect("buffer");
                render_frame(&frame, &camera, &style, &mut t);
            })
        },
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = bench
}
criterion_main!(benches);
