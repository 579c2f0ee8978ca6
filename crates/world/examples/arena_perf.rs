//! Times the step on the arena: `arena_perf N SPEED STEPS [off]`; environment: `THREADS=n`
//! (World::set_threads), `EDIT=1` (touch the world before every step, as a game moving a
//! paddle does: every step predicts everything again).
use collide_world::{scene::arena_scene, scene::arena_scene_tiled, World};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let n: usize = a.get(1).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let speed: f64 = a.get(2).and_then(|s| s.parse().ok()).unwrap_or(60.0);
    let steps: usize = a.get(3).and_then(|s| s.parse().ok()).unwrap_or(100);
    let mut scene = if n > 20_000 {
        arena_scene_tiled(n, speed, 1, 5, 2)
    } else {
        arena_scene(n, speed, 1)
    };
    if a.get(4).is_some() {
        scene.step.ball_ball = false;
    }
    let threads: usize = std::env::var("THREADS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let t = std::time::Instant::now();
    let mut w = World::from_scene(&scene).unwrap();
    w.set_threads(threads);
    eprintln!("setup {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
    let e0 = w.kinetic_energy();
    let mut times = Vec::new();
    let mut ev = 0;
    let edit = std::env::var("EDIT").is_ok();
    for _ in 0..steps {
        if edit {
            // A game that touches the world every step (a paddle): everything predicted again.
            let b = w.balls().get(0).expect("a ball");
            w.set_ball_velocity(b.id, b.vel).unwrap();
        }
        let t = std::time::Instant::now();
        ev += w.step().len();
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "n {n} speed {speed}: median {:.3} ms/step, events/step {}, energy dev {:.2e}",
        times[times.len() / 2],
        ev / steps,
        (w.kinetic_energy() - e0) / e0
    );
    println!("hash {:016x}", w.state_hash());
}
