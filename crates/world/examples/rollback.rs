//! Rollback netcode with snapshots: a game predicts a remote player's input, runs on, and when
//! the real input arrives late it restores the snapshot of the frame the input was for and
//! runs the frames again with it. The result must be the very state a game that had the right
//! input all along reaches: compared here by the state hash.
//!
//! A closed box with 200 balls colliding with each other and a paddle steered by the remote
//! player (a velocity per frame). Frames 112 to 119 were run with a guessed input (the
//! paddle kept still); at frame 120 the real inputs arrive (the paddle was moving right),
//! the world rolls back 8 frames and runs them again.
//!
//! Run: `cargo run --release --example rollback`
use std::collections::VecDeque;

use collide_scenes::arena_scene;
use collide_world::{Aabb, RectDesc, RectKind, Snapshot, Vec2, World};

/// The remote player's real input at `frame`: the paddle's velocity.
fn real_input(frame: usize) -> Vec2 {
    Vec2::new(if (frame / 30) % 2 == 0 { 150.0 } else { -150.0 }, 0.0)
}

fn new_world() -> Result<(World, collide_world::RectId), Box<dyn std::error::Error>> {
    let mut world = World::from_scene(&arena_scene(200, 240.0, 11))?;
    let paddle = world.add_rect(RectDesc {
        aabb: Aabb::new(Vec2::new(440.0, 900.0), Vec2::new(560.0, 912.0)),
        kind: RectKind::Kinematic,
        ..RectDesc::default()
    })?;
    Ok((world, paddle))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The reference: every input known on time.
    let (mut straight, paddle) = new_world()?;
    for frame in 0..120 {
        straight.set_rect_velocity(paddle, real_input(frame))?;
        straight.step();
    }

    // The networked game: inputs for frames 112.. arrive late; it guesses "no move" and keeps
    // the last 8 frames' snapshots.
    let (mut world, paddle) = new_world()?;
    let mut saved: VecDeque<(usize, Snapshot)> = VecDeque::new();
    for frame in 0..120 {
        saved.push_back((frame, world.snapshot()));
        if saved.len() > 8 {
            saved.pop_front();
        }
        let input = if frame < 112 {
            real_input(frame)
        } else {
            Vec2::ZERO
        };
        world.set_rect_velocity(paddle, input)?;
        world.step();
    }
    let guessed = world.state_hash();

    // The real inputs of frames 112..119 arrive: back to frame 112, run the 8 frames again.
    let (first, snap) = saved.front().ok_or("no snapshot")?;
    world.restore(snap)?;
    for frame in *first..120 {
        world.set_rect_velocity(paddle, real_input(frame))?;
        world.step();
    }
    println!(
        "frame 120: guessed {guessed:016x}, rolled back and corrected {:016x}, straight run {:016x}",
        world.state_hash(),
        straight.state_hash()
    );
    if world.state_hash() != straight.state_hash() {
        return Err("the rolled-back run differs from the straight run".into());
    }
    println!("the rolled-back run is bit-identical to the straight run");
    Ok(())
}
