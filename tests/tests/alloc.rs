//! No heap allocation per step in steady state: a counting global allocator
//! (`stats_alloc`'s instrumented system allocator, so that this file needs no `unsafe`) counts
//! every allocation and reallocation made during each `World::step` call after a warm-up of
//! [`WARMUP`] steps, on
//!
//! - the arena benchmark scene, 10 000 balls at 60 units/s, ball-ball collisions on;
//! - the arena with 1000 balls at 3000 units/s (many events per ball per step);
//! - BricksBeater level 1 with walls on all four sides, indestructible bricks and 1000 balls
//!   (its paddle is a kinematic rectangle), with ball-ball collisions off (the game's setting)
//!   and on.
//!
//! Every one of the [`MEASURED`] steps that follow must make zero allocations. The counter is
//! global to the process: everything runs inside one test function so that no other test
//! thread allocates meanwhile, and nothing is printed inside the measured region. When it
//! fails, the message lists the first steps that allocated with their counts and bytes.

use std::alloc::System;

use collide_scenes::arena_scene;
use collide_tests::closed_level;
use collide_world::{Scene, World};
use stats_alloc::{Region, Stats, StatsAlloc, INSTRUMENTED_SYSTEM};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Untimed steps before counting (buffers reach their steady sizes).
const WARMUP: usize = 20;
/// Steps counted after the warm-up.
const MEASURED: usize = 100;

/// One step that allocated: its index after the warm-up and what the allocator saw.
struct Allocating {
    step: usize,
    stats: Stats,
}

/// Builds the scene's world, runs the warm-up, then counts each of the next steps'
/// allocations. Returns the steps that allocated.
fn allocating_steps(scene: &Scene) -> Vec<Allocating> {
    let mut world = World::from_scene(scene).expect("the scene builds");
    for _ in 0..WARMUP {
        world.step();
    }
    // Reserved before counting: pushing into it never allocates inside the loop.
    let mut found = Vec::with_capacity(MEASURED);
    for step in 0..MEASURED {
        let region = Region::new(GLOBAL);
        let events = world.step().len();
        let stats = region.change();
        std::hint::black_box(events);
        if stats.allocations + stats.reallocations > 0 {
            found.push(Allocating { step, stats });
        }
    }
    found
}

fn report(name: &str, found: &[Allocating]) -> Option<String> {
    if found.is_empty() {
        return None;
    }
    let first: Vec<String> = found
        .iter()
        .take(5)
        .map(|a| {
            format!(
                "step {} after warm-up: {} allocations, {} reallocations, {} bytes allocated",
                a.step, a.stats.allocations, a.stats.reallocations, a.stats.bytes_allocated
            )
        })
        .collect();
    Some(format!(
        "{name}: {} of {MEASURED} steps allocated; first: {}",
        found.len(),
        first.join("; ")
    ))
}

#[test]
fn steady_state_steps_make_no_heap_allocation() {
    // The counter works: a vector's buffer is seen.
    let region = Region::new(GLOBAL);
    let v = std::hint::black_box(vec![1u8; 100]);
    assert!(
        region.change().allocations >= 1,
        "the counting allocator is not installed"
    );
    drop(v);

    let mut level = closed_level(1, 1000);
    let mut level_bb = level.clone();
    level_bb.step.ball_ball = true;
    level.step.ball_ball = false;
    let cases = [
        (
            "arena, 10 000 balls, 60 units/s, ball-ball on",
            arena_scene(10_000, 60.0, 1),
        ),
        (
            "arena, 1000 balls, 3000 units/s, ball-ball on",
            arena_scene(1000, 3000.0, 1),
        ),
        (
            "level 1, closed, indestructible, 1000 balls, ball-ball off",
            level,
        ),
        (
            "level 1, closed, indestructible, 1000 balls, ball-ball on",
            level_bb,
        ),
    ];
    let mut failures = Vec::new();
    for (name, scene) in &cases {
        assert!(
            scene.step.ball_ball || name.contains("off"),
            "{name}: ball-ball setting"
        );
        let found = allocating_steps(scene);
        if let Some(msg) = report(name, &found) {
            failures.push(msg);
        }
    }
    assert!(
        failures.is_empty(),
        "World::step allocated in steady state:\n{}",
        failures.join("\n")
    );
}
