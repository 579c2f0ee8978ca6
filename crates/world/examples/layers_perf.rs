//! Times the arena with every ball colliding against the same arena with two groups of balls
//! that ignore each other (`collide_world::Filter`), side by side in one run:
//! `layers_perf N SPEED STEPS [TURN]`. Both worlds are `arena_scene(N, SPEED, 1)`; in the
//! second, the balls of even storage index are on layer 1 and those of odd index on layer 2,
//! each colliding with its own group and with the walls (layer 0), so half of the ball pairs
//! are filtered. The two worlds step in turns of TURN steps (default 20) so that both see the
//! same machine; prints the median ms per step of each, the ratio, events per step and the
//! state hashes.
use collide_scenes::arena_scene;
use collide_world::{BallId, Filter, World};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let n: usize = a.get(1).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let speed: f64 = a.get(2).and_then(|s| s.parse().ok()).unwrap_or(60.0);
    let steps: usize = a.get(3).and_then(|s| s.parse().ok()).unwrap_or(300);
    let turn: usize = a.get(4).and_then(|s| s.parse().ok()).unwrap_or(20).max(1);
    let scene = arena_scene(n, speed, 1);
    let all = World::from_scene(&scene).expect("the arena builds");
    let mut groups = all.clone();
    let ids: Vec<BallId> = groups.balls().map(|b| b.id).collect();
    for (k, id) in ids.into_iter().enumerate() {
        let f = if k % 2 == 0 {
            Filter::new(0b010, 0b011)
        } else {
            Filter::new(0b100, 0b101)
        };
        groups
            .set_ball_layers(id, f.layers, f.mask)
            .expect("the ball exists");
    }
    let mut worlds = [all, groups];
    let mut times: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    let mut events = [0usize; 2];
    let mut done = 0;
    while done < steps {
        let k = turn.min(steps - done);
        for (w, (t, ev)) in worlds.iter_mut().zip(times.iter_mut().zip(&mut events)) {
            for _ in 0..k {
                let t0 = std::time::Instant::now();
                *ev += w.step().len();
                t.push(t0.elapsed().as_secs_f64() * 1e3);
            }
        }
        done += k;
    }
    let median = |t: &mut Vec<f64>| {
        t.sort_by(f64::total_cmp);
        t[t.len() / 2]
    };
    let (m_all, m_groups) = (median(&mut times[0]), median(&mut times[1]));
    println!("arena {n} balls, speed {speed}, {steps} steps in turns of {turn}");
    for (name, m, ev, w) in [
        ("all collide", m_all, events[0], &worlds[0]),
        ("two groups ", m_groups, events[1], &worlds[1]),
    ] {
        println!(
            "{name}: median {m:.3} ms/step, events/step {}, hash {:016x}",
            ev / steps,
            w.state_hash()
        );
    }
    println!("groups / all: {:.3}", m_groups / m_all);
}
