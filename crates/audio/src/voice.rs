//! One sounding voice: a [`Patch`] played sample by sample (oscillator, sweep or notes,
//! envelope, noise), as the formula of [`crate::patch`] says.

use crate::cues::SoundKind;
use crate::patch::{patch, Patch, FADE};

/// A sound being played.
#[derive(Clone, Debug)]
pub(crate) struct Voice {
    patch: &'static Patch,
    /// Samples played so far.
    t: u32,
    /// Total length, samples (at least 1).
    len: u32,
    /// Samples of the attack (at least 1).
    attack: u32,
    /// Samples of the final fade (at least 1).
    fade: u32,
    /// Length of a note of an arpeggio, samples (`len` without notes).
    note_len: u32,
    /// Oscillator phase, cycles in `[0, 1)`.
    phase: f32,
    /// Phase increment of the first note, cycles per sample.
    base_inc: f32,
    /// Phase increment now, cycles per sample.
    inc: f32,
    /// Factor applied to `inc` each sample (the exponential slide).
    sweep: f32,
    /// Decay envelope now (1 at the end of the attack).
    env: f32,
    /// Factor applied to `env` each sample after the attack: `exp(−1 / (decay · rate))`.
    decay: f32,
    /// Amplitude at full envelope: `gain · level`.
    amp: f32,
    /// xorshift32 state of the noise (never 0).
    noise: u32,
}

impl Voice {
    /// A voice of `kind` at amplitude `amp` (the patch's gain times the cue's level) and
    /// pitch ratio `pitch`, for a mixer at `rate` samples per second; `seed` varies the
    /// noise.
    pub(crate) fn new(kind: SoundKind, amp: f32, pitch: f32, rate: u32, seed: u64) -> Voice {
        let p = patch(kind);
        let r = rate as f32;
        let samples = |s: f32| ((s * r).round() as u32).max(1);
        let len = samples(p.length);
        let base_inc = p.freq * pitch / r;
        let sweep = if p.notes.is_empty() && p.freq_end != p.freq {
            libm::powf(p.freq_end / p.freq, 1.0 / len as f32)
        } else {
            1.0
        };
        // SplitMix64's finaliser spreads the seed; the low bit set keeps xorshift away from 0.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        Voice {
            patch: p,
            t: 0,
            len,
            attack: samples(p.attack),
            fade: samples(FADE),
            note_len: if p.notes.is_empty() {
                len
            } else {
                samples(p.note_len)
            },
            phase: 0.0,
            base_inc,
            inc: base_inc,
            sweep,
            env: 1.0,
            decay: libm::expf(-1.0 / (p.decay * r)),
            amp,
            noise: (z as u32) | 1,
        }
    }

    /// The voice's amplitude now (its envelope times its level): what the mixer compares to
    /// choose the quietest voice.
    pub(crate) fn loudness(&self) -> f32 {
        self.amp * self.env
    }

    /// Whether the voice has played all of its samples.
    pub(crate) fn done(&self) -> bool {
        self.t >= self.len
    }

    /// Adds the voice's next `out.len()` samples to `out` (fewer if it ends first).
    pub(crate) fn render_add(&mut self, out: &mut [f32]) {
        let p = self.patch;
        let tonal = 1.0 - p.noise;
        for o in out.iter_mut() {
            if self.t >= self.len {
                return;
            }
            let in_note = self.t % self.note_len;
            if in_note == 0 && self.t > 0 {
                // The next note of an arpeggio: its own pitch and envelope.
                let i = (self.t / self.note_len) as usize;
                let ratio = p.notes.get(i).copied().unwrap_or(1.0);
                self.inc = self.base_inc * ratio;
                self.env = 1.0;
            }
            let rise = if in_note < self.attack {
                (in_note + 1) as f32 / self.attack as f32
            } else {
                self.env *= self.decay;
                1.0
            };
            let left = self.len - self.t;
            let fade = if left < self.fade {
                left as f32 / self.fade as f32
            } else {
                1.0
            };
            let mut s = tonal * p.wave.at(self.phase);
            if p.noise > 0.0 {
                // xorshift32 (Marsaglia 2003), mapped to [-1, 1).
                let mut x = self.noise;
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                self.noise = x;
                s += p.noise * ((x >> 8) as f32 * (2.0 / 16_777_216.0) - 1.0);
            }
            *o += self.amp * self.env * rise * fade * s;
            self.phase += self.inc;
            self.phase -= self.phase.floor();
            self.inc *= self.sweep;
            self.t += 1;
        }
    }
}
