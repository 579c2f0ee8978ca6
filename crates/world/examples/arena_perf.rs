//! Times the step on the arena: `arena_perf N SPEED STEPS [off]`; environment: `THREADS=n`
//! (World::set_threads), `EDIT=1` (give ball 0 its own velocity again before every step, as a
//! game steering a ball does), `EDIT=paddle` (add a kinematic paddle, 120 × 12 units near the
//! bottom, and give it a new velocity before every step, as a game following the player does),
//! `EDIT=drain` (open the bottom wall: balls leave and are removed every step),
//! `EDIT=move` (put ball 0 where it is again before every step, as a game carrying a ball on
//! its paddle does), `EDIT=walls` (set the walls again before every step: everything is
//! predicted again); `REBUILD=1` adds the walls' edit to any other, so that the same edits can
//! be timed with and without predicting everything again; `EVHASH=1` also prints an FNV-1a
//! hash of every step's events (their debug text), to compare thread counts event for event;
//! `FLUSH=MB` reads a buffer of MB megabytes before every step, untimed (what the step pays
//! when its data has left the cache between steps: docs/performance.md, "What bounds the step").
//! With `THREADS=2` or more, a world of 20 000 balls or more steps in spatial domains: the
//! counts of domain steps and of reruns go to stderr.
use collide_scenes::{arena_scene, arena_scene_tiled};
use collide_world::{Surface, World};
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
    let edit = std::env::var("EDIT").unwrap_or_default();
    let rebuild = std::env::var("REBUILD").is_ok();
    let paddle = (edit == "paddle").then(|| {
        let c = glam::DVec2::new(500.0, 980.0);
        w.add_rect(collide_world::RectDesc {
            aabb: collide_core::Aabb::from_center_half_extents(c, glam::DVec2::new(60.0, 6.0)),
            vel: glam::DVec2::ZERO,
            kind: collide_world::RectKind::Kinematic,
            density: 1.0,
            surface: Surface::DEFAULT,
        })
        .expect("the paddle is a valid rectangle")
    });
    if !matches!(
        edit.as_str(),
        "" | "1" | "paddle" | "drain" | "move" | "walls"
    ) {
        eprintln!("EDIT must be 1, paddle, drain, move or walls, not {edit:?}");
        std::process::exit(2);
    }
    if edit == "drain" {
        // The bottom opens: balls leave the world every step and are removed.
        w.set_walls(collide_world::Walls::OPEN_BOTTOM);
    }
    // EVHASH=1: also print an FNV-1a hash of every step's events (their debug text).
    let ev_hash_on = std::env::var("EVHASH").is_ok();
    let mut ev_hash: u64 = 0xcbf2_9ce4_8422_2325;
    // FLUSH=MB: a buffer read through before every step (outside the timing).
    let flush: Vec<u64> = vec![
        1;
        std::env::var("FLUSH")
            .ok()
            .and_then(|s| s.parse::<usize>().ok())
            .unwrap_or(0)
            << 17
    ];
    let mut flushed = 0u64;
    for step in 0..steps {
        flushed = flush.iter().fold(flushed, |a, &x| a.wrapping_add(x));
        match (edit.as_str(), paddle) {
            ("paddle", Some(id)) => {
                // Back and forth over 400 units, a new velocity every step.
                let dir = if (step / 60) % 2 == 0 { 1.0 } else { -1.0 };
                let vx = dir * (300.0 + (step % 7) as f64);
                w.set_rect_velocity(id, glam::DVec2::new(vx, 0.0))
                    .expect("the paddle exists and the velocity is finite");
            }
            ("walls", _) => w.set_walls(w.walls()),
            ("move", _) => {
                let b = w.balls().get(0).expect("a ball");
                w.set_ball_position(b.id, b.pos)
                    .expect("ball 0 exists at a finite place");
            }
            ("1", _) => {
                let b = w.balls().get(0).expect("a ball");
                w.set_ball_velocity(b.id, b.vel)
                    .expect("ball 0 exists with a finite velocity");
            }
            _ => {}
        }
        if rebuild {
            w.set_walls(w.walls());
        }
        let t = std::time::Instant::now();
        ev += w.step().len();
        times.push(t.elapsed().as_secs_f64() * 1e3);
        if ev_hash_on {
            for e in w.events() {
                for b in format!("{e:?}").bytes() {
                    ev_hash = (ev_hash ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
                }
            }
        }
    }
    times.sort_by(f64::total_cmp);
    println!(
        "n {n} speed {speed}: median {:.3} ms/step, events/step {}, energy dev {:.2e}",
        times[times.len() / 2],
        ev / steps,
        (w.kinetic_energy() - e0) / e0
    );
    println!("hash {:016x}", w.state_hash());
    if ev_hash_on {
        println!("events hash {ev_hash:016x}");
    }
    if !flush.is_empty() {
        eprintln!(
            "flushed {} MB before each step ({flushed} words read)",
            flush.len() >> 17
        );
    }
    let (domain, failed) = w.domain_steps();
    if domain + failed > 0 {
        eprintln!("steps in domains {domain}, domain steps run again serially {failed}");
    }
}
