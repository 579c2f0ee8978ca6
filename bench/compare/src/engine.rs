//! What one engine's run gives, and the collide side of the comparison.

use std::time::Instant;

use collide_world::{Grid, Scene, World, WorldError};

use crate::arena::{self, BallState};

/// One engine's run of one configuration.
#[derive(Clone, Debug)]
pub struct Run {
    /// Steps timed.
    pub steps: u64,
    /// Median wall time of one step call, milliseconds.
    pub ms_median: f64,
    /// Kinetic energy before the first step.
    pub energy_start: f64,
    /// Kinetic energy after the last step.
    pub energy_end: f64,
    /// Ball pairs closer than `r1 + r2 - 1e-6` at the end.
    pub overlaps: u64,
    /// Balls whose centre ends in a solid cell or outside the world box.
    pub tunneled: u64,
    /// Balls closer than `radius - 1e-6` to a solid cell at the end.
    pub embedded: u64,
}

impl Run {
    /// `(energy_end - energy_start) / energy_start` (0 when the start energy is 0).
    #[must_use]
    pub fn energy_rel_change(&self) -> f64 {
        if self.energy_start > 0.0 {
            (self.energy_end - self.energy_start) / self.energy_start
        } else {
            0.0
        }
    }

    /// Builds a run from the step times and the start and end states.
    #[must_use]
    pub fn from_states(
        mut times_ms: Vec<f64>,
        start: &[BallState],
        end: &[BallState],
        grid: Option<&Grid>,
        size: collide_core::Vec2,
    ) -> Run {
        let steps = times_ms.len() as u64;
        Run {
            steps,
            ms_median: median(&mut times_ms),
            energy_start: arena::kinetic_energy(start),
            energy_end: arena::kinetic_energy(end),
            overlaps: arena::overlapping_pairs(end),
            tunneled: arena::tunneled(grid, size, end),
            embedded: arena::embedded(grid, end),
        }
    }
}

/// The median (mean of the two middle values for an even count; 0 when empty). Sorts.
#[must_use]
pub fn median(v: &mut [f64]) -> f64 {
    v.sort_unstable_by(f64::total_cmp);
    let n = v.len();
    match n {
        0 => 0.0,
        _ if n % 2 == 1 => v[n / 2],
        _ => 0.5 * (v[n / 2 - 1] + v[n / 2]),
    }
}

/// The balls of a collide world.
#[must_use]
pub fn collide_balls(world: &World) -> Vec<BallState> {
    world
        .balls()
        .iter()
        .map(|b| BallState {
            pos: b.pos,
            vel: b.vel,
            radius: b.radius,
            mass: b.mass(),
        })
        .collect()
}

/// Builds the collide world of a scene (the start state both engines share).
///
/// # Errors
/// When the scene's balls cannot be placed.
pub fn build_collide(scene: &Scene) -> Result<World, WorldError> {
    World::from_scene(scene)
}

/// Steps a collide world `steps` times, timing each `World::step` call (appended to
/// `times`, milliseconds).
pub fn step_collide(world: &mut World, steps: u64, times: &mut Vec<f64>) {
    for _ in 0..steps {
        let t0 = Instant::now();
        world.step();
        times.push(t0.elapsed().as_secs_f64() * 1e3);
    }
}
