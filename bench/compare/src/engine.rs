//! What one engine's run gives, and the collide side of the comparison.

use collide_world::Body;
use collide_world::Contact;
use collide_world::Target;
use std::time::Instant;

use collide_core::Vec2;
use collide_world::{Event, Grid, Scene, World, WorldError};

use crate::arena::{self, BallState};

/// One engine's run of one configuration.
#[derive(Clone, Debug)]
pub struct Run {
    /// Steps timed.
    pub steps: u64,
    /// Median wall time of one step call, milliseconds.
    pub ms_median: f64,
    /// Energy before the first step: kinetic plus potential (`arena::energy`).
    pub energy_start: f64,
    /// Energy after the last step.
    pub energy_end: f64,
    /// The scale of the relative energy change: the start energy above the lowest potential
    /// energy the balls can have (`arena::energy_floor`; the kinetic energy without gravity).
    pub energy_scale: f64,
    /// Contact events of the run (collide's contacts of kinds `ball_tile`, `ball_wall`, `ball_ball`
    /// and `ball_rect`); `None` for rapier.
    pub events: Option<u64>,
    /// Steps that hit collide's event bound (`IterationLimit` events); `None` for rapier.
    pub iteration_limits: Option<u64>,
    /// Contact events per ball-step in the first and in the last `--block` steps; `None` for
    /// rapier.
    pub events_first_last: Option<(f64, f64)>,
    /// Balls.
    pub balls: usize,
    /// Ball pairs closer than `r1 + r2 - 1e-6` at the end.
    pub overlaps: u64,
    /// Balls whose centre ends in a solid cell or outside the world box.
    pub tunneled: u64,
    /// Balls closer than `radius - 1e-6` to a solid cell at the end.
    pub embedded: u64,
}

impl Run {
    /// `(energy_end - energy_start) / energy_scale` (0 when the scale is 0).
    #[must_use]
    pub fn energy_rel_change(&self) -> f64 {
        if self.energy_scale > 0.0 {
            (self.energy_end - self.energy_start) / self.energy_scale
        } else {
            0.0
        }
    }

    /// Contact events per ball and step (`None` for rapier).
    #[must_use]
    pub fn events_per_ball_step(&self) -> Option<f64> {
        let n = self.balls as f64 * self.steps as f64;
        self.events
            .map(|e| if n > 0.0 { e as f64 / n } else { 0.0 })
    }

    /// Builds a run from the step times, the start and end states and the gravity `g`.
    #[must_use]
    pub fn from_states(
        mut times_ms: Vec<f64>,
        start: &[BallState],
        end: &[BallState],
        grid: Option<&Grid>,
        size: Vec2,
        g: Vec2,
    ) -> Run {
        let steps = times_ms.len() as u64;
        let energy_start = arena::energy(start, g);
        Run {
            steps,
            ms_median: median(&mut times_ms),
            energy_start,
            energy_end: arena::energy(end, g),
            energy_scale: energy_start - arena::energy_floor(start, g, size),
            events: None,
            iteration_limits: None,
            events_first_last: None,
            balls: end.len(),
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

/// What collide's steps reported, counted over a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EventCounts {
    /// Contact events: kinds `ball_tile`, `ball_wall`, `ball_ball`, `ball_rect`.
    pub contacts: u64,
    /// `IterationLimit` events (steps stopped by the event bound).
    pub iteration_limits: u64,
    /// Contact events of each step, in order.
    pub per_step: Vec<u64>,
}

impl EventCounts {
    /// Contact events per ball-step in the first and in the last `block` steps.
    #[must_use]
    pub fn first_last(&self, balls: usize, block: usize) -> (f64, f64) {
        let n = self.per_step.len();
        let k = block.clamp(1, n.max(1));
        let rate = |s: &[u64]| {
            let d = balls as f64 * s.len() as f64;
            if d > 0.0 {
                s.iter().sum::<u64>() as f64 / d
            } else {
                0.0
            }
        };
        (
            rate(&self.per_step[..k.min(n)]),
            rate(&self.per_step[n - k.min(n)..]),
        )
    }
}

/// Steps a collide world `steps` times, timing each `World::step` call (appended to
/// `times`, milliseconds) and counting its events (after the timing).
pub fn step_collide(world: &mut World, steps: u64, times: &mut Vec<f64>, counts: &mut EventCounts) {
    for _ in 0..steps {
        let t0 = Instant::now();
        let events = world.step();
        times.push(t0.elapsed().as_secs_f64() * 1e3);
        let mut contacts = 0;
        for e in events {
            match e {
                Event::Contact(Contact {
                    body: Body::Ball(_),
                    other: Target::Cell(_),
                    ..
                })
                | Event::Contact(Contact {
                    body: Body::Ball(_),
                    other: Target::Wall(_),
                    ..
                })
                | Event::Contact(Contact {
                    body: Body::Ball(_),
                    other: Target::Ball(_),
                    ..
                })
                | Event::Contact(Contact {
                    body: Body::Ball(_),
                    other: Target::Rect(_),
                    ..
                }) => contacts += 1,
                Event::IterationLimit { .. } => counts.iteration_limits += 1,
                _ => {}
            }
        }
        counts.contacts += contacts;
        counts.per_step.push(contacts);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plinko::Board;

    #[test]
    fn energy_is_collides_under_gravity() {
        let b = Board::for_balls(1000);
        let mut world = build_collide(&b.scene(1000, 40.0, 1)).unwrap();
        let g = world.config().gravity;
        let mut times = Vec::new();
        let mut counts = EventCounts::default();
        for _ in 0..3 {
            let e = arena::energy(&collide_balls(&world), g);
            assert!(
                (e - world.energy()).abs() <= 1e-12 * e.abs(),
                "{e} {}",
                world.energy()
            );
            step_collide(&mut world, 20, &mut times, &mut counts);
        }
        assert_eq!(times.len(), 60);
        assert!(counts.contacts > 0);
        assert_eq!(counts.per_step.iter().sum::<u64>(), counts.contacts);
        let (first, last) = counts.first_last(1000, 60);
        assert_eq!(first, last);
        assert_eq!(first, counts.contacts as f64 / 60_000.0);
    }
}
