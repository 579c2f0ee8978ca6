//! One-way platforms, and a sensor that counts the balls passing a line.
//!
//! Under gravity (400 units/s² down), balls are thrown up from a floor through two one-way
//! platforms (`Surface::ONE_WAY`): a ball meets a platform from below (the contact normal,
//! from the platform toward the ball, points down: `+y`), passes through it with no event
//! until its disc leaves it at the exact exit time, and lands on its top, where the contact is
//! an ordinary bounce. A sensor strip across the world reports each ball crossing it
//! (`SensorEnter`, `SensorExit` at their exact times) without touching anyone's motion.
//!
//! Run: `cargo run --release --example one_way`
use collide_world::Body;
use collide_world::Contact;
use collide_world::Surface;
use collide_world::Target;
use collide_world::{Aabb, BallDesc, Event, RectDesc, SensorId, StepConfig, Vec2, Walls, World};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let config = StepConfig {
        gravity: Vec2::new(0.0, 400.0),
        restitution: 0.6,
        ..StepConfig::default()
    };
    let mut world = World::new(Vec2::new(320.0, 240.0), Walls::ALL, config)?;
    let mut platforms = Vec::new();
    for (x0, y) in [(40.0, 150.0), (170.0, 90.0)] {
        platforms.push(world.add_rect(RectDesc {
            aabb: Aabb::new(Vec2::new(x0, y), Vec2::new(x0 + 110.0, y + 6.0)),
            surface: Surface::ONE_WAY,
            ..RectDesc::default()
        })?);
    }
    let line = world.add_rect(RectDesc {
        aabb: Aabb::new(Vec2::new(0.0, 200.0), Vec2::new(320.0, 204.0)),
        surface: Surface::SENSOR,
        ..RectDesc::default()
    })?;
    let mut balls = Vec::new();
    for k in 0..6 {
        balls.push(world.add_ball(BallDesc {
            pos: Vec2::new(60.0 + 40.0 * k as f64, 230.0),
            vel: Vec2::new(
                if k % 2 == 0 { 20.0 } else { -20.0 },
                -330.0 - 20.0 * k as f64,
            ),
            radius: 4.0,
            ..BallDesc::default()
        })?);
    }
    let (mut landings, mut crossings) = (0, 0);
    for frame in 0..600 {
        let t0 = world.time();
        for event in world.step() {
            match *event {
                Event::Contact(Contact {
                    body: Body::Ball(ball),
                    other: Target::Rect(rect),
                    toi,
                    ..
                }) if platforms.contains(&rect) => {
                    landings += 1;
                    if landings <= 6 {
                        println!(
                            "t = {:.4} s: ball {} lands on platform {}",
                            t0 + toi,
                            ball.index(),
                            rect.index()
                        );
                    }
                }
                Event::SensorEnter { sensor, .. } if sensor == SensorId::Rect(line) => {
                    crossings += 1
                }
                _ => {}
            }
        }
        if frame == 599 {
            for &b in &balls {
                if let Some(b) = world.ball(b) {
                    println!(
                        "ball {} ends at ({:.1}, {:.1})",
                        b.id.index(),
                        b.pos.x,
                        b.pos.y
                    );
                }
            }
        }
    }
    println!("{landings} landings on the platforms, {crossings} crossings of the sensor line");
    Ok(())
}
