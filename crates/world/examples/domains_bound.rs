//! What perfect spatial domains would give: `domains_bound K N SPEED STEPS THREADS` steps K
//! independent worlds, each the arena with N balls (seeds 1..=K), on THREADS threads (the
//! worlds split into contiguous groups, one group per thread, scoped threads each step), and
//! prints the median wall time of one step of all K worlds.
//!
//! Ten worlds of 10 000 balls are the 100 000 balls of the tiled arena (5 × 2 arenas, the
//! same density of balls and tiles) cut into domains that never interact: no border, no
//! synchronisation, no rollback. That is the upper bound on what an exact parallel step by
//! spatial domains could reach on this machine (docs/performance.md, "What bounds the step"):
//!
//! ```sh
//! cargo build --release -p collide-world --example domains_bound --example arena_perf
//! taskset -c 1 target/release/examples/domains_bound 10 10000 60 100 1
//! target/release/examples/domains_bound 10 10000 60 100 2
//! taskset -c 1 target/release/examples/arena_perf 100000 60 100
//! ```
use collide_scenes::arena_scene;
use collide_world::World;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let parsed = (|| {
        Some((
            args.first()?.parse::<usize>().ok()?,
            args.get(1)?.parse::<usize>().ok()?,
            args.get(2)?.parse::<f64>().ok()?,
            args.get(3)?.parse::<usize>().ok()?,
            args.get(4)?.parse::<usize>().ok()?,
        ))
    })();
    let Some((k, n, speed, steps, threads)) = parsed.filter(|p| p.0 > 0 && p.3 > 0 && p.4 > 0)
    else {
        eprintln!("usage: domains_bound WORLDS BALLS SPEED STEPS THREADS (all > 0)");
        std::process::exit(2);
    };
    let mut worlds = Vec::with_capacity(k);
    for seed in 1..=k as u64 {
        match World::from_scene(&arena_scene(n, speed, seed)) {
            Ok(w) => worlds.push(w),
            Err(e) => {
                eprintln!("the arena with {n} balls does not build: {e}");
                std::process::exit(1);
            }
        }
    }
    let per_thread = k.div_ceil(threads);
    let mut times = Vec::with_capacity(steps);
    for _ in 0..steps {
        let t = std::time::Instant::now();
        if threads == 1 {
            for w in &mut worlds {
                w.step();
            }
        } else {
            std::thread::scope(|s| {
                for group in worlds.chunks_mut(per_thread) {
                    s.spawn(move || {
                        for w in group {
                            w.step();
                        }
                    });
                }
            });
        }
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "{k} worlds x {n} balls, {speed} units/s, {threads} thread(s): median {:.3} ms per step of all",
        times[times.len() / 2]
    );
}
