//! The fixed-timestep accumulator shared by the frontends (house style: one type).

use collide_core::Real;

/// Turns frame times into a whole number of fixed steps: the world always advances by its own
/// `dt`, whatever the display rate. Each frame adds its elapsed time (seconds) to an
/// accumulator and takes out as many `dt` as it holds, at most `max_steps` per frame; a
/// backlog beyond that is dropped (a slow frame slows the game down instead of making the
/// next frames ever longer: no "spiral of death").
///
/// ```
/// use collide_game::FixedStep;
/// let mut clock = FixedStep::new(1.0 / 60.0, 4);
/// // A 1/30 s frame holds two 1/60 s steps; a 1/120 s frame holds none, the next one one.
/// assert_eq!(clock.advance(1.0 / 30.0), 2);
/// assert_eq!(clock.advance(1.0 / 120.0), 0);
/// assert_eq!(clock.advance(1.0 / 120.0), 1);
/// // A 1 s hiccup runs 4 steps, not 60.
/// assert_eq!(clock.advance(1.0), 4);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct FixedStep {
    dt: Real,
    max_steps: u32,
    acc: Real,
}

impl FixedStep {
    /// An accumulator for steps of `dt` seconds (a non-finite or non-positive `dt` is
    /// replaced by 1/60), running at most `max_steps` steps per frame (at least 1).
    #[must_use]
    pub fn new(dt: Real, max_steps: u32) -> Self {
        let dt = if dt.is_finite() && dt > 0.0 {
            dt
        } else {
            1.0 / 60.0
        };
        FixedStep {
            dt,
            max_steps: max_steps.max(1),
            acc: 0.0,
        }
    }

    /// The step, seconds.
    #[must_use]
    pub fn dt(&self) -> Real {
        self.dt
    }

    /// The most steps one frame may run.
    #[must_use]
    pub fn max_steps(&self) -> u32 {
        self.max_steps
    }

    /// Adds `elapsed` seconds (negative, NaN or infinite count as 0; more than `max_steps`
    /// steps' worth is cut) and returns the number of steps to run now, in `0..=max_steps`.
    /// The remainder, less than one `dt`, waits for the next frame.
    pub fn advance(&mut self, elapsed: Real) -> u32 {
        let elapsed = if elapsed.is_finite() && elapsed > 0.0 {
            elapsed
        } else {
            0.0
        };
        let cap = self.dt * Real::from(self.max_steps + 1);
        self.acc = (self.acc + elapsed).min(cap);
        // A tiny tolerance so that frames of exactly dt are one step each despite rounding.
        let eps = self.dt * 1e-9;
        let mut steps = 0;
        while self.acc + eps >= self.dt && steps < self.max_steps {
            self.acc -= self.dt;
            steps += 1;
        }
        if steps == self.max_steps && self.acc + eps >= self.dt {
            // The backlog beyond max_steps is dropped.
            self.acc = 0.0;
        }
        self.acc = self.acc.max(0.0);
        steps
    }

    /// How far the accumulator is into the next step, in `[0, 1)`: the fraction a renderer
    /// may interpolate by.
    #[must_use]
    pub fn alpha(&self) -> Real {
        (self.acc / self.dt).clamp(0.0, 1.0)
    }

    /// Empties the accumulator.
    pub fn reset(&mut self) {
        self.acc = 0.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixty_hz_frames_are_one_step_each() {
        let mut c = FixedStep::new(1.0 / 60.0, 8);
        let total: u32 = (0..600).map(|_| c.advance(1.0 / 60.0)).sum();
        assert_eq!(total, 600);
    }

    #[test]
    fn a_144_hz_display_runs_60_steps_per_second() {
        let mut c = FixedStep::new(1.0 / 60.0, 8);
        // 144 frames of 1/144 s = 1 s = 60 steps (give or take the last one).
        let total: u32 = (0..144).map(|_| c.advance(1.0 / 144.0)).sum();
        assert!((59..=60).contains(&total), "{total}");
        let total2: u32 = (0..144 * 9).map(|_| c.advance(1.0 / 144.0)).sum();
        assert!((total + total2).abs_diff(600) <= 1, "{}", total + total2);
    }

    #[test]
    fn backlog_is_capped_and_bad_times_are_ignored() {
        let mut c = FixedStep::new(0.01, 3);
        assert_eq!(c.advance(10.0), 3);
        // The backlog was dropped: the next frame of 0 s runs nothing.
        assert_eq!(c.advance(0.0), 0);
        assert_eq!(c.advance(Real::NAN), 0);
        assert_eq!(c.advance(-1.0), 0);
        assert_eq!(c.advance(Real::INFINITY), 0);
        assert!(c.alpha() < 1.0);
        let bad = FixedStep::new(0.0, 0);
        assert_eq!((bad.dt(), bad.max_steps()), (1.0 / 60.0, 1));
    }
}
