//! A sandbox with a contact hook (`Game::set_contact_hook`): a one-way platform lets a ball
//! through from below and holds it from above, through restarts of the same source; another
//! source drops the hook.

use collide_world::Body;
use collide_world::Contact;
use collide_world::Target;
use std::sync::Arc;

use collide_game::{Game, Input, Options, Source};
use collide_world::{
    Aabb, BallDesc, ContactInfo, ContactResponse, Event, RectDesc, Scene, StepConfig, Vec2, Walls,
};

const DT: f64 = 1.0 / 60.0;

/// A 200 × 200 closed box, no gravity; a static platform y in [100, 104], x in [0, 200]; one
/// ball of radius 5 at (100, 150) moving up at 600 units/s: it reaches the platform's bottom
/// (y = 104) after 41 units, at 0.0683 s (the 5th frame).
fn scene() -> Scene {
    Scene {
        name: "one-way".into(),
        size: Vec2::new(200.0, 200.0),
        walls: Walls::ALL,
        grid: None,
        balls: vec![BallDesc {
            pos: Vec2::new(100.0, 150.0),
            vel: Vec2::new(0.0, -600.0),
            radius: 5.0,
            ..BallDesc::default()
        }],
        rects: vec![RectDesc {
            aabb: Aabb::new(Vec2::new(0.0, 100.0), Vec2::new(200.0, 104.0)),
            ..RectDesc::default()
        }],
        shapes: Vec::new(),
        flippers: Vec::new(),
        spawn: None,
        step: StepConfig::default(),
    }
}

/// Contacts with rectangles from below (normal pointing down) pass through.
fn one_way(c: &ContactInfo) -> ContactResponse {
    match c.event {
        Event::Contact(Contact {
            body: Body::Ball(_),
            other: Target::Rect(_),
            normal,
            ..
        }) if normal.y >= 0.0 => ContactResponse::Ignore,
        _ => ContactResponse::Reflect,
    }
}

/// The ball's y after `frames` frames, and whether it hit the platform.
fn run(g: &mut Game, frames: usize) -> (f64, usize) {
    let mut hits = 0;
    for _ in 0..frames {
        g.update(&Input::default(), DT);
        hits += g
            .last_events()
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::Contact(Contact {
                        body: Body::Ball(_),
                        other: Target::Rect(_),
                        ..
                    })
                )
            })
            .count();
    }
    (g.world().balls().next().expect("the ball").pos.y, hits)
}

#[test]
fn a_sandbox_steps_with_its_hook_until_another_source_is_loaded() {
    let source = Source::Sandbox(Box::new(scene()));
    // Without the hook the ball bounces off the platform's bottom and stays below it.
    let mut plain = Game::new(source.clone(), Options::default()).unwrap();
    let (y, hits) = run(&mut plain, 12);
    assert!(y > 104.0 && hits >= 1, "y = {y}, {hits} hits");
    // With it the ball passes up through it (no event), bounces off the top wall
    // (y = 5 at 145/600 s) and lands on the platform's top from above: a hit, and it stays
    // above (y < 100) in the frames after.
    let mut g = Game::new(source.clone(), Options::default()).unwrap();
    g.set_contact_hook(Arc::new(one_way));
    let (y, hits) = run(&mut g, 12);
    assert!(y < 100.0 && hits == 0, "through it: y = {y}, {hits} hits");
    let (y, hits) = run(&mut g, 30);
    assert!(
        y < 100.0 && hits >= 1,
        "held from above: y = {y}, {hits} hits"
    );
    // A restart of the same source keeps the hook.
    g.restart().unwrap();
    let (y, hits) = run(&mut g, 12);
    assert!(
        y < 100.0 && hits == 0,
        "after a restart: y = {y}, {hits} hits"
    );
    // Another source drops it.
    let mut other = scene();
    other.name = "another".into();
    g.load(Source::Sandbox(Box::new(other))).unwrap();
    let (y, hits) = run(&mut g, 12);
    assert!(
        y > 104.0 && hits >= 1,
        "another source: y = {y}, {hits} hits"
    );
}
