//! Reading the step's events: every bounce is reported at its exact time of impact, with the
//! contact point and the contact normal (from the obstacle toward the body).
//!
//! In a 100 × 100 box, a ball of radius 5 moving right at 300 units/s from x = 50 touches the
//! right wall (x = 100) when its centre reaches x = 95: at t = 45 / 300 = 0.15 s, then the
//! left wall (x = 0) when it is back at x = 5: at t = 0.15 + 90 / 300 = 0.45 s, each time at
//! an impact speed of 300 units/s. A second ball falls onto a brick at 120 units/s.
//!
//! Run: `cargo run --release --example events`
use collide_world::Body;
use collide_world::Contact;
use collide_world::Target;
use collide_world::{BallDesc, Event, Grid, StepConfig, Vec2, Walls, World};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world = World::new(Vec2::new(100.0, 100.0), Walls::ALL, StepConfig::default())?;
    // One brick: the cell of column 2, row 0 of a grid of 20-unit cells starting at (0, 80).
    world.set_grid(Grid::from_rows(20.0, Vec2::new(0.0, 80.0), &["  R  "])?);
    world.add_ball(BallDesc {
        pos: Vec2::new(50.0, 20.0),
        vel: Vec2::new(300.0, 0.0),
        radius: 5.0,
        ..BallDesc::default()
    })?;
    // Falls at 120 units/s from y = 40: its bottom (y + 5) meets the brick's top (y = 80)
    // after 35 / 120 = 0.291666... s.
    world.add_ball(BallDesc {
        pos: Vec2::new(50.0, 40.0),
        vel: Vec2::new(0.0, 120.0),
        radius: 5.0,
        ..BallDesc::default()
    })?;

    let dt = world.config().dt;
    for _ in 0..30 {
        let start = world.time();
        for event in world.step() {
            // Event times are seconds from the start of the step.
            let at = |toi: f64| start + toi;
            match *event {
                Event::Contact(Contact { body: Body::Ball(ball), other: Target::Wall(side), point, normal, toi, speed, .. }) => println!(
                    "t = {:.9} s  ball {ball} hits the {} wall at ({:.3}, {:.3}), normal ({}, {}), at {speed} units/s",
                    at(toi), side.name(), point.x, point.y, normal.x, normal.y
                ),
                Event::Contact(Contact { body: Body::Ball(ball), other: Target::Cell(cell), point, normal, toi, speed, feature: Some(feature) }) => println!(
                    "t = {:.9} s  ball {ball} hits cell ({}, {}) on its {feature:?} at ({:.3}, {:.3}), normal ({}, {}), at {speed} units/s",
                    at(toi), cell.col, cell.row, point.x, point.y, normal.x, normal.y
                ),
                Event::Contact(Contact { body: Body::Ball(a), other: Target::Ball(b), toi, .. }) => println!("t = {:.9} s  balls {a} and {b} collide", at(toi)),
                Event::BrickDestroyed { cell, kind, toi, .. } => println!(
                    "t = {:.9} s  brick {} at ({}, {}) destroyed",
                    at(toi), kind as char, cell.col, cell.row
                ),
                other => println!("t = {:.9} s  {}", start, other.kind()),
            }
        }
    }
    println!("{} steps of {dt:.6} s", world.steps());
    Ok(())
}
