//! Every contact event reports its impact speed: the normal relative speed before the bounce,
//! `−(v − u)·n`, computed by hand here for a wall, a tile, a moving paddle and two balls.

use collide_world::Body;
use collide_world::Contact;
use collide_world::Target;
use collide_world::{
    Aabb, BallDesc, Event, Grid, RectDesc, RectKind, StepConfig, Surface, Vec2, Walls, World,
};

fn speeds(w: &mut World, steps: usize) -> Vec<(&'static str, f64)> {
    let mut out = Vec::new();
    for _ in 0..steps {
        for e in w.step() {
            let s = match *e {
                Event::Contact(Contact {
                    body: Body::Ball(_),
                    other: Target::Cell(_),
                    speed,
                    ..
                })
                | Event::Contact(Contact {
                    body: Body::Ball(_),
                    other: Target::Wall(_),
                    speed,
                    ..
                })
                | Event::Contact(Contact {
                    body: Body::Ball(_),
                    other: Target::Ball(_),
                    speed,
                    ..
                })
                | Event::Contact(Contact {
                    body: Body::Ball(_),
                    other: Target::Rect(_),
                    speed,
                    ..
                })
                | Event::Contact(Contact {
                    body: Body::Rect(_),
                    other: Target::Cell(_),
                    speed,
                    ..
                })
                | Event::Contact(Contact {
                    body: Body::Rect(_),
                    other: Target::Wall(_),
                    speed,
                    ..
                })
                | Event::Contact(Contact {
                    body: Body::Rect(_),
                    other: Target::Rect(_),
                    speed,
                    ..
                }) => speed,
                _ => continue,
            };
            out.push((e.kind(), s));
        }
    }
    out
}

fn ball(pos: Vec2, vel: Vec2) -> BallDesc {
    BallDesc {
        pos,
        vel,
        radius: 5.0,
        density: 1.0,
        surface: Surface::DEFAULT,
        gravity_scale: 1.0,
    }
}

#[test]
fn impact_speeds_are_the_normal_relative_speeds() {
    // A wall hit at (300, 400): only the 300 across the wall counts.
    let mut w = World::new(
        Vec2::new(100.0, 10_000.0),
        Walls::ALL,
        StepConfig::default(),
    )
    .unwrap();
    w.add_ball(ball(Vec2::new(50.0, 20.0), Vec2::new(300.0, 400.0)))
        .unwrap();
    assert_eq!(speeds(&mut w, 10)[0], ("ball_wall", 300.0));

    // A tile's top face met at 120 down.
    let mut w = World::new(Vec2::new(100.0, 100.0), Walls::ALL, StepConfig::default()).unwrap();
    w.set_grid(Grid::from_rows(20.0, Vec2::new(0.0, 80.0), &["  R  "]).unwrap());
    w.add_ball(ball(Vec2::new(50.0, 40.0), Vec2::new(0.0, 120.0)))
        .unwrap();
    assert_eq!(speeds(&mut w, 30)[0], ("ball_tile", 120.0));

    // A paddle rising at 20 into a ball falling at 100: 120 relative.
    let mut w = World::new(Vec2::new(200.0, 200.0), Walls::ALL, StepConfig::default()).unwrap();
    w.add_rect(RectDesc {
        aabb: Aabb::new(Vec2::new(50.0, 150.0), Vec2::new(150.0, 160.0)),
        vel: Vec2::new(0.0, -20.0),
        kind: RectKind::Kinematic,
        density: 1.0,
        surface: Surface::DEFAULT,
    })
    .unwrap();
    w.add_ball(ball(Vec2::new(100.0, 50.0), Vec2::new(0.0, 100.0)))
        .unwrap();
    assert_eq!(speeds(&mut w, 60)[0], ("ball_rect", 120.0));

    // Two balls head on at 50 and −30: 80.
    let config = StepConfig {
        ball_ball: true,
        ..StepConfig::default()
    };
    let mut w = World::new(Vec2::new(400.0, 100.0), Walls::ALL, config).unwrap();
    w.add_ball(ball(Vec2::new(100.0, 50.0), Vec2::new(50.0, 0.0)))
        .unwrap();
    w.add_ball(ball(Vec2::new(200.0, 50.0), Vec2::new(-30.0, 0.0)))
        .unwrap();
    assert_eq!(speeds(&mut w, 120)[0], ("ball_ball", 80.0));
}
