//! # collide-audio
//!
//! Sounds that follow collide's exact events, shared by both windowed frontends. Each step's
//! events (the world's [`collide_world::Event`]s and the rules' [`collide_game::GameEvent`]s)
//! become [`Cue`]s, each placed at its exact time within the frame ([`cues`]); a [`Mixer`]
//! turns the cues into mono samples at [`SAMPLE_RATE`] (44.1 kHz): every sound is synthesized
//! in code (enveloped tones, sweeps and noise bursts, [`patch`]), louder and higher for faster
//! impacts. The mixer is a deterministic function of its cues: the same cues give the same
//! samples, whatever the length of the blocks they are mixed in, and those samples are what
//! both the sound card ([`Playback`], cpal) and a WAV file ([`WavRecorder`], hound) receive.
//! [`Audio`] ties the three together for a frame loop.
//!
//! Thousands of events in one frame neither deafen nor stall: cues of one kind that fall
//! within its interval (a few milliseconds) merge into one sound, at most
//! [`MixerConfig::max_voices`] sound at once (a new one replaces the quietest, or is dropped
//! if it is quieter still), and a peak limiter ([`Limiter`]) keeps every sample at or below
//! [`CEILING`] (−1 dBFS). The cost per frame is bounded by the voices, not by the events.
//!
//! Depends on `collide-core`, `collide-world`, `collide-game`, `thiserror`, `libm`, `hound`
//! and `cpal` (and on Linux `alsa`). Its `exp`, `pow`, `cos` and `log` are libm's (pure
//! Rust), so a recorded WAV file is the same samples on every target. It must never depend on a window, GPU or renderer crate.
//!
//! # Conventions
//! Times in seconds, samples as `f32` in `[-1, 1]` (full scale, 0 dBFS = 1.0), one channel,
//! 44 100 samples per second. A cue at time `t` (seconds from the start of the block being
//! mixed) starts at sample `round(t · 44 100)` of that block (or of a later block if it falls
//! past the end). Impact speeds are in world units per second.
//!
//! # Example
//! ```
//! use collide_audio::{Cue, Mixer, MixerConfig, SoundKind};
//! let mut mixer = Mixer::new(MixerConfig::default()).unwrap();
//! let mut block = vec![0.0f32; 735]; // one frame of 1/60 s
//! // A ball–ball bounce 10 ms into the frame: 0.010 · 44 100 = 441 samples in.
//! let cue = Cue { kind: SoundKind::BallBall, time: 0.010, speed: Some(300.0) };
//! mixer.mix(&[cue], &mut block);
//! assert!(block[..441].iter().all(|&s| s == 0.0));
//! assert!(block[441] != 0.0);
//! assert!(block.iter().all(|s| s.abs() <= collide_audio::CEILING));
//! ```

mod audio;
pub mod cues;
mod device;
mod error;
mod limiter;
mod mixer;
pub mod patch;
mod voice;
mod wav;

pub use audio::{Audio, AudioOptions, MAX_FRAME};
pub use cues::{Cue, SoundKind};
pub use device::{Playback, MAX_QUEUED, PREFILL};
pub use error::AudioError;
pub use limiter::Limiter;
pub use mixer::{MixStats, Mixer, MixerConfig};
pub use wav::{WavRecorder, WavStats, WavSummary};

/// Samples per second of everything this crate makes: 44 100 (the CD rate). WAV files are
/// written at this rate; a sound card that wants another rate gets the samples resampled.
pub const SAMPLE_RATE: u32 = 44_100;

/// The limiter's ceiling: no mixed sample is louder than this, `10^(−1/20)` ≈ 0.891 (−1 dBFS),
/// so that the mix stays clear of 0 dBFS after conversion to 16-bit samples.
pub const CEILING: f32 = 0.891_250_9;

/// The level of `amplitude` (full scale 1.0) in dBFS: `20 · log10(|amplitude|)`, `-inf` for 0.
#[must_use]
pub fn dbfs(amplitude: f32) -> f32 {
    20.0 * libm::log10f(amplitude.abs())
}
