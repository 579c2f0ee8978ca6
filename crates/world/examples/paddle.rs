//! Steering a paddle: a kinematic rectangle given a new velocity between steps (as a game does
//! with the mouse each frame). A kinematic body has infinite mass: a ball bounces off it with
//! the paddle's own velocity taken into account (the ball's velocity relative to the paddle
//! is reflected), and nothing ever pushes it.
//!
//! The paddle here follows a target that moves left and right with a top speed of 240
//! units/s; the ball keeps bouncing between it and the ceiling. Each paddle hit prints the
//! ball's velocity after the bounce.
//!
//! Run: `cargo run --release --example paddle`
use collide_world::Body;
use collide_world::Contact;
use collide_world::Target;
use collide_world::{Aabb, BallDesc, Event, RectDesc, RectKind, StepConfig, Vec2, Walls, World};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world = World::new(
        Vec2::new(320.0, 240.0),
        Walls::OPEN_BOTTOM,
        StepConfig::default(),
    )?;
    let paddle = world.add_rect(RectDesc {
        aabb: Aabb::new(Vec2::new(130.0, 220.0), Vec2::new(190.0, 228.0)),
        kind: RectKind::Kinematic,
        ..RectDesc::default()
    })?;
    let ball = world.add_ball(BallDesc {
        pos: Vec2::new(160.0, 120.0),
        vel: Vec2::new(70.0, 160.0),
        radius: 4.0,
        ..BallDesc::default()
    })?;

    let dt = world.config().dt;
    let mut hits = 0;
    for frame in 0..1800 {
        // Where the player wants the paddle: the ball's x, read between steps.
        let Some(b) = world.ball(ball) else {
            println!("frame {frame}: the ball was lost after {hits} paddle hits");
            return Ok(());
        };
        let Some(rect) = world.rect(paddle) else {
            break;
        };
        // The velocity that brings the paddle's centre to the target in one step, capped.
        let wanted = (b.pos.x - rect.aabb.center().x) / dt;
        world.set_rect_velocity(paddle, Vec2::new(wanted.clamp(-240.0, 240.0), 0.0))?;
        let mut hit_at = None;
        for event in world.step() {
            if let Event::Contact(Contact {
                body: Body::Ball(_),
                other: Target::Rect(rect),
                point,
                ..
            }) = *event
            {
                if rect == paddle {
                    hit_at = Some(point.x);
                }
            }
        }
        if let (Some(x), Some(b)) = (hit_at, world.ball(ball)) {
            hits += 1;
            println!(
                "frame {frame}: paddle hit at x = {x:.2}; ball velocity now ({:.1}, {:.1})",
                b.vel.x, b.vel.y
            );
        }
    }
    println!(
        "{hits} paddle hits in {:.0} s, ball still in play",
        world.time()
    );
    Ok(())
}
