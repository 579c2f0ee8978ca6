//! Runs the seven levels (walls all round, indestructible bricks) and prints the invariants.
use collide_scene::level;
use collide_world::{Walls, World};
fn main() {
    let steps: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    let ball_ball = std::env::args().nth(2).is_some();
    for n in 1..=7 {
        let text = std::fs::read_to_string(format!("scenes/levels/level_{n}.dat")).unwrap();
        let grid = level::parse_level(&text).unwrap();
        let mut scene = level::scene_from_level("l", grid, 1000);
        scene.walls = Walls::ALL;
        scene.step.destructible_bricks = false;
        scene.step.ball_ball = ball_ball;
        let mut w = World::from_scene(&scene).unwrap();
        let e0 = w.kinetic_energy();
        let mut maxdev: f64 = 0.0;
        let mut ev = 0usize;
        let mut unemb = 0;
        let mut lim = 0;
        let t = std::time::Instant::now();
        for _ in 0..steps {
            let evs = w.step();
            ev += evs.len();
            for e in evs {
                match e.kind() {
                    "unembedded" => unemb += 1,
                    "iteration_limit" => lim += 1,
                    _ => {}
                }
            }
            maxdev = maxdev.max(((w.kinetic_energy() - e0) / e0).abs());
        }
        let g = w.grid().unwrap();
        let mut embedded = 0;
        for b in w.balls() {
            if let Some(d) = g.distance_to_solid(b.pos, b.radius) {
                if d < b.radius - 1e-6 {
                    embedded += 1;
                }
            }
        }
        println!("level {n}: balls {} events {ev} unembedded {unemb} limit {lim} embedded {embedded} energy dev {maxdev:.3e} hash {:016x} {:.3} ms/step", w.balls().len(), w.state_hash(), t.elapsed().as_secs_f64()*1000.0/steps as f64);
    }
}
