//! Criterion benchmark of the world's queries on the arena with 10 000 balls: 1 000 short circle
//! casts (40 units, radius 2) and 1 000 point queries, by the world itself (every ball tested)
//! and by a [`collide_world::QueryIndex`] built once (only the balls near each query); the
//! index's build is timed on its own.
//!
//! `cargo bench -p collide-world --bench queries`

use std::time::Duration;

use collide_scenes::arena_scene;
use collide_world::rng::XorShift64Star;
use collide_world::{Vec2, World};
use criterion::{criterion_main, Criterion};

/// 1 000 random short segments in the arena.
fn rays() -> Vec<(Vec2, Vec2)> {
    let mut rng = XorShift64Star::new(9);
    (0..1000)
        .map(|_| {
            let from = Vec2::new(rng.next_f64() * 900.0 + 50.0, rng.next_f64() * 900.0 + 50.0);
            (from, from + rng.unit_vector() * 40.0)
        })
        .collect()
}

fn queries(c: &mut Criterion) {
    let mut w = World::from_scene(&arena_scene(10_000, 300.0, 1)).expect("arena");
    w.step();
    let rays = rays();
    let mut group = c.benchmark_group("queries");
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(3));
    group.bench_function("cast_1000_world", |b| {
        b.iter(|| {
            rays.iter()
                .filter(|(f, t)| {
                    w.cast_circle(*f, *t, 2.0, &[], collide_world::Filter::ALL)
                        .is_some()
                })
                .count()
        });
    });
    group.bench_function("cast_1000_index", |b| {
        let idx = w.query_index();
        b.iter(|| {
            rays.iter()
                .filter(|(f, t)| {
                    idx.cast_circle(*f, *t, 2.0, &[], collide_world::Filter::ALL)
                        .is_some()
                })
                .count()
        });
    });
    group.bench_function("build_index", |b| {
        b.iter(|| {
            w.query_index()
                .balls_visited(&collide_world::Aabb::default())
        })
    });
    group.finish();
}

fn benches() {
    let mut c = Criterion::default().configure_from_args();
    queries(&mut c);
}

criterion_main!(benches);
