//! What rollback costs a frame: `World::snapshot` and `World::restore` timed on BricksBeater's
//! level 1 with 1000 balls (the README's main job: closed walls, indestructible bricks,
//! ball–ball on) and on the pinball table (flippers held and released), the bytes of a
//! snapshot (postcard), and an 8-frame rollback: restore the snapshot of 8 frames ago and step
//! the 8 frames again, as a rollback netcode session does when a late input arrives. Each
//! rollback's end state is checked against the straight run's hash, so the figure is of a
//! rollback that gives the right bits.
//!
//! One thread, release build. Prints one line per scene with medians over the frames.
//!
//! Run: `cargo run --release -p collide-world --example rollback_cost`
use std::collections::VecDeque;
use std::time::Instant;

use collide_scene::level::{parse_level, scene_from_level};
use collide_world::{Scene, Snapshot, Walls, World};

/// Frames a rollback goes back.
const ROLLBACK: usize = 8;
/// Frames stepped before measuring (the balls spread out, the flippers start turning).
const WARMUP: usize = 120;
/// Frames measured.
const FRAMES: usize = 240;

fn level_1() -> Result<Scene, Box<dyn std::error::Error>> {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenes/levels/level_1.dat"),
    )?;
    let mut scene = scene_from_level("level_1", parse_level(&text)?, 1000);
    scene.walls = Walls::ALL;
    scene.step.destructible_bricks = false;
    scene.step.ball_ball = true;
    Ok(scene)
}

fn pinball() -> Result<Scene, Box<dyn std::error::Error>> {
    Ok(collide_scene::load(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenes/pinball.toml"),
    )?)
}

/// The game's input between steps: every flipper held for 20 frames of each 40.
fn input(frame: usize, w: &mut World) -> Result<(), Box<dyn std::error::Error>> {
    if frame % 20 == 0 {
        let ids: Vec<_> = w.flippers().iter().map(|f| f.id).collect();
        for id in ids {
            w.set_flipper_pressed(id, frame % 40 == 0)?;
        }
    }
    Ok(())
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn measure(name: &str, scene: &Scene) -> Result<(), Box<dyn std::error::Error>> {
    let mut w = World::from_scene(scene)?;
    for frame in 0..WARMUP {
        input(frame, &mut w)?;
        w.step();
    }
    // The last ROLLBACK + 1 snapshots, the oldest first, and the hash after each frame.
    let mut ring: VecDeque<Snapshot> = VecDeque::new();
    let (mut snap_us, mut restore_us, mut step_us, mut rollback_us, mut bytes) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut hashes = Vec::new();
    for frame in WARMUP..WARMUP + FRAMES {
        let t = Instant::now();
        let snap = w.snapshot();
        snap_us.push(t.elapsed().as_secs_f64() * 1e6);
        bytes.push(postcard::to_stdvec(&snap)?.len() as f64);
        ring.push_back(snap);
        if ring.len() > ROLLBACK {
            ring.pop_front();
        }
        input(frame, &mut w)?;
        let t = Instant::now();
        w.step();
        step_us.push(t.elapsed().as_secs_f64() * 1e6);
        hashes.push(w.state_hash());
        // An 8-frame rollback on a copy: restore the oldest snapshot kept, step to now.
        if ring.len() == ROLLBACK {
            let mut copy = w.clone();
            let t = Instant::now();
            let start = Instant::now();
            copy.restore(&ring[0])?;
            restore_us.push(start.elapsed().as_secs_f64() * 1e6);
            for f in frame + 1 - ROLLBACK..=frame {
                input(f, &mut copy)?;
                copy.step();
            }
            rollback_us.push(t.elapsed().as_secs_f64() * 1e6);
            if copy.state_hash() != w.state_hash() {
                return Err(
                    format!("{name}: the rollback at frame {frame} gave other bits").into(),
                );
            }
        }
    }
    println!(
        "{name}: {} balls; per frame: step {:.0} µs, snapshot {:.0} µs, restore {:.0} µs, \
         snapshot {:.0} bytes (postcard); 8-frame rollback (restore + 8 steps) {:.2} ms; \
         {} rollbacks, every one the straight run's bits",
        w.balls().len(),
        median(step_us),
        median(snap_us),
        median(restore_us),
        median(bytes),
        median(rollback_us) / 1e3,
        FRAMES - ROLLBACK + 1,
    );
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    measure("level_1, 1000 balls", &level_1()?)?;
    measure("pinball", &pinball()?)?;
    Ok(())
}
