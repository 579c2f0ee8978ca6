//! The sounds, synthesized in code: one [`Patch`] per [`SoundKind`] (a waveform, a pitch and
//! its sweep or notes, an envelope, a dash of noise), and how an impact speed sets a sound's
//! loudness and pitch ([`level_and_pitch`]).
//!
//! Every voice is `gain · level · a(t) · ((1 − noise) · osc(φ(t)) + noise · w(t))`, where
//! `osc` is the waveform (starting at its peak, `osc(0) = 1`), `w` white noise in `[-1, 1)`,
//! and the envelope `a(t)` rises linearly over `attack` seconds, then decays as
//! `exp(−(t − attack) / decay)`, and fades linearly to 0 over the last
//! [`FADE`] seconds before `length` (no click at the cut). The frequency slides exponentially
//! from `freq` to `freq_end` over `length` (`f(t) = freq · (freq_end / freq)^(t / length)`),
//! or steps through `notes` (ratios to `freq`), each note `note_len` long with its own
//! envelope.

use crate::cues::SoundKind;

/// A waveform, as a function of the phase `φ ∈ [0, 1)`, each starting at its peak (`1` at
/// `φ = 0`) so that a sound's first sample is never 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wave {
    /// `cos(2πφ)`.
    Sine,
    /// `4 · |φ − 1/2| − 1`.
    Triangle,
    /// `1` for `φ < 1/2`, else `−1`.
    Square,
}

impl Wave {
    /// The waveform's value at phase `phase` (in cycles, `[0, 1)`).
    #[must_use]
    pub fn at(self, phase: f32) -> f32 {
        match self {
            Wave::Sine => libm::cosf(std::f32::consts::TAU * phase),
            Wave::Triangle => 4.0 * (phase - 0.5).abs() - 1.0,
            Wave::Square => {
                if phase < 0.5 {
                    1.0
                } else {
                    -1.0
                }
            }
        }
    }
}

/// How a sound is made (see the module's formula). Times in seconds, frequencies in Hz.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Patch {
    /// The waveform.
    pub wave: Wave,
    /// Frequency at the start, at pitch ratio 1.
    pub freq: f32,
    /// Frequency at the end (exponential slide); equal to `freq` for a steady tone.
    pub freq_end: f32,
    /// Frequency ratios played one after another (an arpeggio), each `note_len` long; empty
    /// for one note.
    pub notes: &'static [f32],
    /// Length of each note of `notes`.
    pub note_len: f32,
    /// Linear rise of the envelope.
    pub attack: f32,
    /// Time constant of the exponential decay after the attack.
    pub decay: f32,
    /// Total length; the voice ends there.
    pub length: f32,
    /// Share of white noise in the mix, `0..=1`.
    pub noise: f32,
    /// Peak amplitude at full level (before the mixer's master gain).
    pub gain: f32,
    /// Rate limit: cues of this kind within one interval (the mixer's clock divided into
    /// intervals of this length) start one sound.
    pub interval: f32,
    /// The impact speed of level 1 and pitch ratio 1, units/s; 0 for sounds that ignore
    /// the speed.
    pub speed_ref: f32,
}

/// The linear fade at the end of every sound, seconds.
pub const FADE: f32 = 0.004;

/// The level of a cue without an impact speed.
pub const DEFAULT_LEVEL: f32 = 0.8;

/// The quietest level an impact gets (a grazing touch is still heard, barely).
pub const MIN_LEVEL: f32 = 0.15;

/// The range of pitch ratios an impact speed gives: about ±half an octave.
pub const PITCH_RANGE: (f32, f32) = (0.7, 1.4);

const BALL_BALL: Patch = Patch {
    wave: Wave::Sine,
    freq: 1900.0,
    freq_end: 1700.0,
    notes: &[],
    note_len: 0.0,
    attack: 0.0005,
    decay: 0.012,
    length: 0.06,
    noise: 0.3,
    gain: 0.55,
    interval: 0.006,
    speed_ref: 300.0,
};

const WALL: Patch = Patch {
    wave: Wave::Triangle,
    freq: 190.0,
    freq_end: 140.0,
    notes: &[],
    note_len: 0.0,
    attack: 0.001,
    decay: 0.03,
    length: 0.12,
    noise: 0.35,
    gain: 0.5,
    interval: 0.008,
    speed_ref: 240.0,
};

const PADDLE: Patch = Patch {
    wave: Wave::Square,
    freq: 440.0,
    freq_end: 440.0,
    notes: &[],
    note_len: 0.0,
    attack: 0.001,
    decay: 0.05,
    length: 0.14,
    noise: 0.0,
    gain: 0.3,
    interval: 0.02,
    speed_ref: 240.0,
};

const BRICK_HIT: Patch = Patch {
    wave: Wave::Triangle,
    freq: 660.0,
    freq_end: 640.0,
    notes: &[],
    note_len: 0.0,
    attack: 0.001,
    decay: 0.04,
    length: 0.12,
    noise: 0.1,
    gain: 0.45,
    interval: 0.01,
    speed_ref: 240.0,
};

const BRICK_BREAK: Patch = Patch {
    wave: Wave::Square,
    freq: 880.0,
    freq_end: 440.0,
    notes: &[],
    note_len: 0.0,
    attack: 0.001,
    decay: 0.06,
    length: 0.18,
    noise: 0.35,
    gain: 0.3,
    interval: 0.012,
    speed_ref: 240.0,
};

const BALL_LOST: Patch = Patch {
    wave: Wave::Triangle,
    freq: 330.0,
    freq_end: 82.0,
    notes: &[],
    note_len: 0.0,
    attack: 0.005,
    decay: 0.25,
    length: 0.45,
    noise: 0.0,
    gain: 0.5,
    interval: 0.05,
    speed_ref: 0.0,
};

const POWER_UP: Patch = Patch {
    wave: Wave::Square,
    freq: 392.0,
    freq_end: 1568.0,
    notes: &[],
    note_len: 0.0,
    attack: 0.005,
    decay: 0.2,
    length: 0.3,
    noise: 0.0,
    gain: 0.3,
    interval: 0.08,
    speed_ref: 0.0,
};

const LIFE_LOST: Patch = Patch {
    wave: Wave::Square,
    freq: 220.0,
    freq_end: 55.0,
    notes: &[],
    note_len: 0.0,
    attack: 0.005,
    decay: 0.4,
    length: 0.8,
    noise: 0.0,
    gain: 0.35,
    interval: 0.5,
    speed_ref: 0.0,
};

/// C5, E5, G5, C6 as ratios to C5.
const ARPEGGIO: [f32; 4] = [1.0, 1.259_921, 1.498_307, 2.0];

const LEVEL_CLEARED: Patch = Patch {
    wave: Wave::Triangle,
    freq: 523.25,
    freq_end: 523.25,
    notes: &ARPEGGIO,
    note_len: 0.11,
    attack: 0.003,
    decay: 0.12,
    length: 0.66,
    noise: 0.0,
    gain: 0.5,
    interval: 0.5,
    speed_ref: 0.0,
};

/// The patch of a kind of sound.
#[must_use]
pub fn patch(kind: SoundKind) -> &'static Patch {
    match kind {
        SoundKind::BallBall => &BALL_BALL,
        SoundKind::Wall => &WALL,
        SoundKind::Paddle => &PADDLE,
        SoundKind::BrickHit => &BRICK_HIT,
        SoundKind::BrickBreak => &BRICK_BREAK,
        SoundKind::BallLost => &BALL_LOST,
        SoundKind::PowerUp => &POWER_UP,
        SoundKind::LifeLost => &LIFE_LOST,
        SoundKind::LevelCleared => &LEVEL_CLEARED,
    }
}

/// The level (amplitude factor, `MIN_LEVEL..=1`) and pitch ratio of a sound for an impact
/// speed, units/s: [`level`] and [`pitch`].
#[must_use]
pub fn level_and_pitch(patch: &Patch, speed: Option<f64>) -> (f32, f32) {
    (level(patch, speed), pitch(patch, speed))
}

/// `speed / patch.speed_ref`, `None` without a usable speed (none, non-finite, negative) or
/// for a patch that ignores the speed (`speed_ref` 0).
fn ratio(patch: &Patch, speed: Option<f64>) -> Option<f32> {
    match speed {
        Some(s) if s.is_finite() && s >= 0.0 && patch.speed_ref > 0.0 => {
            Some(s as f32 / patch.speed_ref)
        }
        _ => None,
    }
}

/// The level of a sound for an impact speed (units/s): with `r = speed / patch.speed_ref`,
/// `clamp(r, MIN_LEVEL, 1)` (the amplitude grows with the speed, as the sound pressure of an
/// impact does, up to the reference speed). Without a speed, a non-finite or negative one, or
/// for a patch that ignores the speed (`speed_ref` 0): [`DEFAULT_LEVEL`].
#[must_use]
pub fn level(patch: &Patch, speed: Option<f64>) -> f32 {
    ratio(patch, speed).map_or(DEFAULT_LEVEL, |r| r.clamp(MIN_LEVEL, 1.0))
}

/// The pitch ratio of a sound for an impact speed (units/s): `clamp(r^(1/4), 0.7, 1.4)` with
/// `r` as in [`level`] (a harder hit rings a little higher: twice the speed, a ratio of
/// 2^(1/4), three semitones); 1 where [`level`] gives the default.
#[must_use]
pub fn pitch(patch: &Patch, speed: Option<f64>) -> f32 {
    ratio(patch, speed).map_or(1.0, |r| {
        libm::powf(r, 0.25).clamp(PITCH_RANGE.0, PITCH_RANGE.1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waves_start_at_their_peak() {
        for w in [Wave::Sine, Wave::Triangle, Wave::Square] {
            assert_eq!(w.at(0.0), 1.0);
            assert!((w.at(0.5) + 1.0).abs() < 1e-6, "{w:?}");
        }
        assert!(Wave::Sine.at(0.25).abs() < 1e-6);
        assert_eq!(Wave::Triangle.at(0.25), 0.0);
    }

    #[test]
    fn faster_impacts_are_louder_and_higher() {
        let p = patch(SoundKind::BallBall);
        // r = 150 / 300 = 0.5: level 0.5, pitch 0.5^(1/4) = 0.8409.
        let (l, f) = level_and_pitch(p, Some(150.0));
        assert!((l - 0.5).abs() < 1e-6 && (f - 0.840_896).abs() < 1e-5);
        let (l2, f2) = level_and_pitch(p, Some(300.0));
        assert_eq!((l2, f2), (1.0, 1.0));
        // Past the reference: full level, pitch up to the cap.
        assert_eq!(level_and_pitch(p, Some(1e9)), (1.0, PITCH_RANGE.1));
        assert_eq!(level_and_pitch(p, Some(0.0)), (MIN_LEVEL, PITCH_RANGE.0));
        for bad in [None, Some(f64::NAN), Some(-1.0), Some(f64::INFINITY)] {
            assert_eq!(level_and_pitch(p, bad), (DEFAULT_LEVEL, 1.0), "{bad:?}");
        }
        assert_eq!(
            level_and_pitch(patch(SoundKind::PowerUp), Some(100.0)),
            (DEFAULT_LEVEL, 1.0)
        );
    }

    #[test]
    fn every_patch_is_audible_and_bounded() {
        for k in SoundKind::ALL {
            let p = patch(k);
            assert!(p.length > p.attack + FADE && p.decay > 0.0, "{k:?}");
            assert!(p.gain > 0.0 && p.gain <= 1.0 && (0.0..=1.0).contains(&p.noise));
            assert!(p.freq > 20.0 && p.freq_end > 20.0 && p.freq * PITCH_RANGE.1 < 20_000.0);
            assert!(p.interval > 0.0);
            assert!(p.notes.is_empty() || p.note_len * p.notes.len() as f32 <= p.length + 1e-6);
        }
    }
}
