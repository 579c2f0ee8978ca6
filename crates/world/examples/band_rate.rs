//! How busy a border between two spatial domains would be: `band_rate N SPEED STEPS X0 WIDTH`
//! steps the arena with N balls (the 5 × 2 tiled arena above 20 000 balls) and counts, per
//! step, the balls of the vertical band `X0 <= x < X0 + WIDTH` at the step's start or end
//! whose velocity changed during the step, and the balls that entered the band; and the
//! steps in which neither happened.
//!
//! A parallel step that ran two domains on their own and started the step again whenever
//! anything happened at their border would start again at every step that is not quiet
//! (docs/performance.md, "What bounds the step"):
//!
//! ```sh
//! cargo run --release -p collide-world --example band_rate -- 100000 60 100 2500 5
//! ```
use collide_scenes::{arena_scene, arena_scene_tiled};
use collide_world::World;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let parsed = (|| {
        Some((
            args.first()?.parse::<usize>().ok()?,
            args.get(1)?.parse::<f64>().ok()?,
            args.get(2)?.parse::<usize>().ok()?,
            args.get(3)?.parse::<f64>().ok()?,
            args.get(4)?.parse::<f64>().ok()?,
        ))
    })();
    let Some((n, speed, steps, x0, width)) = parsed.filter(|p| p.2 > 0 && p.4 > 0.0) else {
        eprintln!("usage: band_rate BALLS SPEED STEPS X0 WIDTH (STEPS, WIDTH > 0)");
        std::process::exit(2);
    };
    let scene = if n > 20_000 {
        arena_scene_tiled(n, speed, 1, 5, 2)
    } else {
        arena_scene(n, speed, 1)
    };
    let mut world = match World::from_scene(&scene) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("the arena with {n} balls does not build: {e}");
            std::process::exit(1);
        }
    };
    let in_band = |x: f64| x >= x0 && x < x0 + width;
    let (mut inside, mut changed, mut entered, mut quiet) = (0usize, 0usize, 0usize, 0usize);
    let mut before = Vec::with_capacity(world.balls().len());
    for _ in 0..steps {
        before.clear();
        before.extend(world.balls().iter().map(|b| (b.pos, b.vel)));
        world.step();
        let mut busy = false;
        // No ball is added or removed (closed walls), so the order is the same.
        for (b, &(p0, v0)) in world.balls().iter().zip(&before) {
            let (was, is) = (in_band(p0.x), in_band(b.pos.x));
            inside += usize::from(was);
            if (was || is) && b.vel != v0 {
                changed += 1;
                busy = true;
            }
            if !was && is {
                entered += 1;
                busy = true;
            }
        }
        quiet += usize::from(!busy);
    }
    let s = steps as f64;
    println!(
        "band [{x0}, {}): {:.1} balls in it, per step {:.2} changed course and {:.2} entered; {quiet} of {steps} steps quiet",
        x0 + width,
        inside as f64 / s,
        changed as f64 / s,
        entered as f64 / s
    );
}
