//! A platformer character: run, jump, climb a ramp and a stair, ride a moving platform, land
//! on a one-way platform, with a scripted input.
//!
//! The level is a tile grid built in code (20-unit cells: `#` walls, `3` and `1` the slope
//! cells of a ramp up and down), a kinematic platform going back and forth, and a one-way
//! platform. The game sets the character's velocity between steps (its run speed, and an
//! upward velocity for a jump); the world moves it by move and slide at exact times of impact,
//! with no skin gap: standing, its box's bottom is exactly on the floor.
//!
//! Run: `cargo run --release --example platformer`
use collide_world::Body;
use collide_world::Contact;
use collide_world::{
    Aabb, CharacterDesc, Event, Grid, RectDesc, RectKind, StepConfig, Target, Vec2, Walls, World,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dt = 1.0 / 60.0;
    let config = StepConfig {
        dt,
        gravity: Vec2::new(0.0, 1200.0),
        ..StepConfig::default()
    };
    let mut world = World::new(Vec2::new(800.0, 240.0), Walls::ALL, config)?;
    world.set_grid(Grid::from_rows(
        20.0,
        Vec2::ZERO,
        &[
            "                                        ",
            "                                        ",
            "                                        ",
            "                                        ",
            "                                        ",
            "                                        ",
            "                                        ",
            "          3##1                   ##     ",
            "         3####1                ####     ",
            "        3######1       ##    ######     ",
            "########################################",
            "########################################",
        ],
    )?);
    // A platform moving right and left over the gap-free floor, and a one-way ledge.
    let lift = world.add_rect(RectDesc {
        aabb: Aabb::new(Vec2::new(460.0, 150.0), Vec2::new(520.0, 158.0)),
        vel: Vec2::new(60.0, 0.0),
        kind: RectKind::Kinematic,
        ..RectDesc::default()
    })?;
    let ledge = world.add_rect(RectDesc {
        aabb: Aabb::new(Vec2::new(700.0, 110.0), Vec2::new(780.0, 114.0)),
        kind: RectKind::Static,
        ..RectDesc::default()
    })?;
    world.set_one_way(Target::Rect(ledge), true)?;
    let hero = world.add_character(CharacterDesc {
        pos: Vec2::new(40.0, 200.0 - 12.0),
        half_extents: Vec2::new(7.0, 12.0),
        snap_distance: 6.0,
        step_height: 20.0,
        ..CharacterDesc::default()
    })?;
    let run = 150.0;
    let mut hits = 0;
    for frame in 0..600 {
        // The platform turns around every 2 s.
        if frame % 120 == 0 && frame > 0 {
            let v = world.rect(lift).map_or(Vec2::ZERO, |r| r.vel);
            world.set_rect_velocity(lift, -v)?;
        }
        let c = *world.character(hero).ok_or("no hero")?;
        // The input: run right; jump when on ground at frames 250 and 420.
        let mut vel = Vec2::new(run, c.vel.y);
        if c.on_ground() && (frame == 250 || frame == 420) {
            vel.y = -520.0;
        }
        world.set_character_velocity(hero, vel)?;
        for e in world.step() {
            if let Event::Contact(Contact {
                body: Body::Character(_),
                other: target,
                normal,
                ..
            }) = e
            {
                hits += 1;
                if hits <= 12 {
                    println!(
                        "frame {frame:3}: hit {target:?}, normal ({:.3}, {:.3})",
                        normal.x, normal.y
                    );
                }
            }
        }
        let c = world.character(hero).ok_or("no hero")?;
        if frame % 50 == 0 {
            let on = c
                .ground
                .map_or("air".to_string(), |g| format!("{:?}", g.target));
            println!(
                "frame {frame:3}: x {:7.2}, bottom {:7.3}, on {on}",
                c.pos.x,
                c.aabb().max.y
            );
        }
    }
    let c = world.character(hero).ok_or("no hero")?;
    println!(
        "end: x {:.2}, bottom {:.6}, on ground {}, {hits} contacts",
        c.pos.x,
        c.aabb().max.y,
        c.on_ground()
    );
    Ok(())
}
