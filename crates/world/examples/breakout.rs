//! A minimal brick breaker: a tile grid built in code, a paddle (a kinematic rectangle) steered
//! between steps toward the ball, and the step's events read for destroyed bricks and lost
//! balls.
//!
//! Run: `cargo run --release --example breakout`
//!
//! Conventions: x right, y down, world units (pixels at zoom 1), seconds.
use collide_world::{
    Aabb, BallDesc, Event, Grid, RectDesc, RectKind, StepConfig, Vec2, Walls, World,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A 160 × 200 world open at the bottom: a ball that falls out is lost.
    let mut world = World::new(
        Vec2::new(160.0, 200.0),
        Walls::OPEN_BOTTOM,
        StepConfig::default(),
    )?;
    // Tiles: 16 columns of 10-unit cells. `#` is a wall; R, Y, G are bricks, destroyed by
    // their first hit.
    world.set_grid(Grid::from_rows(
        10.0,
        Vec2::ZERO,
        &[
            "################",
            "#RRRRRRRRRRRRRR#",
            "#YYYYYYYYYYYYYY#",
            "#GGGGGGGGGGGGGG#",
        ],
    )?);
    // The paddle: kinematic, so balls bounce off it and never push it.
    let paddle = world.add_rect(RectDesc {
        aabb: Aabb::new(Vec2::new(60.0, 180.0), Vec2::new(100.0, 186.0)),
        kind: RectKind::Kinematic,
        ..RectDesc::default()
    })?;
    world.add_ball(BallDesc {
        pos: Vec2::new(80.0, 170.0),
        vel: Vec2::new(90.0, -150.0),
        radius: 3.0,
        ..BallDesc::default()
    })?;

    let (mut destroyed, mut lost) = (0, 0);
    for frame in 0..3600 {
        // Steer between steps: the paddle's centre chases the ball at up to 200 units/s.
        if let (Some(ball), Some(rect)) = (world.balls().next(), world.rect(paddle)) {
            let chase = ((ball.pos.x - rect.aabb.center().x) * 10.0).clamp(-200.0, 200.0);
            world.set_rect_velocity(paddle, Vec2::new(chase, 0.0))?;
        }
        for event in world.step() {
            match *event {
                Event::BrickDestroyed {
                    cell, kind, toi, ..
                } => {
                    destroyed += 1;
                    println!(
                        "frame {frame}: brick {} at column {} row {} destroyed {toi:.6} s into the step",
                        kind as char, cell.col, cell.row
                    );
                }
                Event::BallLost { side, .. } => {
                    lost += 1;
                    println!("frame {frame}: ball lost through the {} side", side.name());
                }
                _ => {}
            }
        }
    }
    let left = world.grid().map_or(0, Grid::bricks_left);
    println!("{destroyed} bricks destroyed, {left} left, {lost} balls lost");
    Ok(())
}
