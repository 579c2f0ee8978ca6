//! A peak limiter: the last stage of the mix, which keeps every sample at or below a ceiling.

/// A feed-forward peak limiter with instant attack and exponential release.
///
/// For each sample `x`, a peak envelope follows `|x|`: it jumps up at once when `|x|` exceeds
/// it (instant attack) and otherwise relaxes toward `|x|` as
/// `e ← |x| + (e − |x|) · exp(−1 / (release · rate))` (the branching peak detector of
/// D. Giannoulis, M. Massberg, J. D. Reiss, "Digital Dynamic Range Compressor Design — A
/// Tutorial and Analysis", J. Audio Eng. Soc. 60(6), 2012, eq. 17, with attack time 0). The
/// output is `x · min(1, ceiling / e)`. Since `e ≥ |x|` at every sample, `|output| ≤ ceiling`
/// always; below the ceiling the signal passes unchanged, and after a loud peak the gain comes
/// back within a few release times. Non-finite samples become 0.
#[derive(Clone, Debug, PartialEq)]
pub struct Limiter {
    ceiling: f32,
    release: f32,
    env: f32,
}

impl Limiter {
    /// A limiter at `ceiling` (full scale 1.0; values outside `(0, 1]` are clamped into it)
    /// releasing with time constant `release_seconds` at `rate` samples per second.
    #[must_use]
    pub fn new(ceiling: f32, release_seconds: f32, rate: u32) -> Limiter {
        let ceiling = if ceiling.is_finite() {
            ceiling.clamp(1e-6, 1.0)
        } else {
            1.0
        };
        let samples = release_seconds * rate.max(1) as f32;
        let release = if samples.is_finite() && samples > 0.0 {
            libm::expf(-1.0 / samples)
        } else {
            0.0
        };
        Limiter {
            ceiling,
            release,
            env: 0.0,
        }
    }

    /// The ceiling, full scale 1.0.
    #[must_use]
    pub fn ceiling(&self) -> f32 {
        self.ceiling
    }

    /// Limits `buf` in place.
    pub fn process(&mut self, buf: &mut [f32]) {
        for x in buf.iter_mut() {
            if !x.is_finite() {
                *x = 0.0;
            }
            let a = x.abs();
            self.env = if a > self.env {
                a
            } else {
                a + (self.env - a) * self.release
            };
            if self.env > self.ceiling {
                *x *= self.ceiling / self.env;
            }
        }
    }

    /// Forgets the past (the envelope goes back to 0).
    pub fn reset(&mut self) {
        self.env = 0.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quiet_signals_pass_and_loud_ones_stop_at_the_ceiling() {
        let mut l = Limiter::new(0.5, 0.01, 1000);
        let mut quiet = [0.1, -0.4, 0.3];
        l.process(&mut quiet);
        assert_eq!(quiet, [0.1, -0.4, 0.3]);
        let mut loud = [4.0, -8.0, 2.0, f32::NAN, 0.0];
        l.process(&mut loud);
        // 4 → 0.5 (env 4); −8 → −0.5 (env 8); 2: env = 2 + 6·exp(−1/10) = 7.429, so
        // 2 · 0.5 / 7.429 = 0.1346; NaN → 0.
        assert_eq!(&loud[..2], &[0.5, -0.5]);
        assert!((loud[2] - 0.134_6).abs() < 1e-4, "{}", loud[2]);
        assert_eq!(&loud[3..], &[0.0, 0.0]);
        // Long after, the gain is back to 1.
        let mut tail = vec![0.0; 1000];
        tail.push(0.2);
        l.process(&mut tail);
        assert_eq!(tail[1000], 0.2);
    }
}
