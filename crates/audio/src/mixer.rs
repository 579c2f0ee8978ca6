//! The mixer: cues in, samples out, deterministically, with a bounded cost per sample.

use crate::cues::{Cue, SoundKind};
use crate::error::AudioError;
use crate::limiter::Limiter;
use crate::patch::{level, patch, pitch};
use crate::voice::Voice;
use crate::{CEILING, SAMPLE_RATE};

/// The mixer's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MixerConfig {
    /// Samples per second, 8 000 to 192 000. Default [`SAMPLE_RATE`] (44 100).
    pub sample_rate: u32,
    /// Most voices sounding at once, 1 to 256. Default 24.
    pub max_voices: usize,
    /// Gain applied to the sum of the voices before the limiter, `(0, 1]`. Default 0.5.
    pub master: f32,
    /// The limiter's ceiling, full scale 1.0, `(0, 1]`. Default [`CEILING`] (−1 dBFS).
    pub ceiling: f32,
    /// The limiter's release time constant, seconds, `(0, 10]`. Default 0.08.
    pub release: f32,
    /// Cues more than this many seconds past the start of the block they come with are
    /// dropped (a bound on what waits), `(0, 60]`. Default 2.
    pub horizon: f32,
}

impl Default for MixerConfig {
    /// 44.1 kHz, 24 voices, master 0.5, ceiling −1 dBFS, release 80 ms, horizon 2 s.
    fn default() -> Self {
        MixerConfig {
            sample_rate: SAMPLE_RATE,
            max_voices: 24,
            master: 0.5,
            ceiling: CEILING,
            release: 0.08,
            horizon: 2.0,
        }
    }
}

impl MixerConfig {
    fn check(&self) -> Result<(), AudioError> {
        let bad = |field, problem: &str| {
            Err(AudioError::BadSetting {
                field,
                problem: problem.to_owned(),
            })
        };
        let within = |x: f32, hi: f32| x.is_finite() && x > 0.0 && x <= hi;
        if !(8_000..=192_000).contains(&self.sample_rate) {
            return bad("sample_rate", "must be 8000 to 192000 samples per second");
        }
        if !(1..=256).contains(&self.max_voices) {
            return bad("max_voices", "must be 1 to 256");
        }
        if !within(self.master, 1.0) {
            return bad("master", "must be in (0, 1]");
        }
        if !within(self.ceiling, 1.0) {
            return bad("ceiling", "must be in (0, 1]");
        }
        if !within(self.release, 10.0) {
            return bad("release", "must be in (0, 10] seconds");
        }
        if !within(self.horizon, 60.0) {
            return bad("horizon", "must be in (0, 60] seconds");
        }
        Ok(())
    }
}

/// What a mixer has done since it was made: counts of cues and voices.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MixStats {
    /// Cues received.
    pub cues: u64,
    /// Cues merged into a sound of the same kind in the same interval (the rate limit).
    pub merged: u64,
    /// Cues ignored: non-finite times, past the horizon, or while muted.
    pub ignored: u64,
    /// Sounds started.
    pub started: u64,
    /// Sounds that took the place of a quieter one at the voice limit.
    pub stolen: u64,
    /// Sounds not started because every voice was louder (the voice limit).
    pub dropped: u64,
    /// Samples mixed.
    pub samples: u64,
}

/// A sound waiting to start: the merge of the cues of one kind in one interval.
#[derive(Clone, Copy, Debug)]
struct Pending {
    kind: SoundKind,
    /// The interval (the mixer's clock divided by the kind's interval).
    slot: u64,
    /// First sample, on the mixer's clock.
    start: u64,
    /// The loudest cue's level and its pitch.
    level: f32,
    pitch: f32,
    /// Cues merged.
    count: u32,
}

/// Turns cues into samples.
///
/// The mixer keeps a clock (samples mixed so far). Each [`Mixer::mix`] call receives the
/// cues whose times count from the start of the block it fills:
///
/// 1. **Rate limit.** A cue of kind `k` at time `t` falls on sample `s = clock + round(t ·
///    rate)` and in interval `s / n_k` (integer division; `n_k` is the kind's
///    [`crate::patch::Patch::interval`] in samples). Cues of one kind in one interval merge
///    into one sound that starts at the earliest of them, at the loudest one's level and pitch,
///    boosted by `1 + 0.2 · log2(count)` (a crowd is louder than one, but not much), at most
///    level 1. A cue in an interval whose sound already started is counted as merged.
/// 2. **Voices.** Sounds start at their exact sample, in the order of their start. At the
///    voice limit a new sound replaces the quietest voice if it is louder, or is dropped.
/// 3. **Mix.** The voices are summed, times [`MixerConfig::master`], through the [`Limiter`].
///
/// The output depends only on the cues and their times: mixing 1 470 samples at once or in two
/// blocks of 735 (with every cue given with the first block) gives the same samples. Its cost
/// is bounded by the voices (at most [`MixerConfig::max_voices`] per sample) plus a constant
/// per cue. Muted, it outputs zeros, forgets its voices and ignores cues.
#[derive(Clone, Debug)]
pub struct Mixer {
    config: MixerConfig,
    voices: Vec<Voice>,
    pending: Vec<Pending>,
    /// The last interval of each kind whose sound started.
    started: [Option<u64>; SoundKind::ALL.len()],
    /// Samples per interval of each kind.
    interval: [u64; SoundKind::ALL.len()],
    clock: u64,
    limiter: Limiter,
    muted: bool,
    stats: MixStats,
}

impl Mixer {
    /// A mixer with `config`, silent, its clock at 0.
    ///
    /// # Errors
    /// [`AudioError::BadSetting`] for a setting out of its documented range.
    pub fn new(config: MixerConfig) -> Result<Mixer, AudioError> {
        config.check()?;
        let rate = config.sample_rate as f32;
        let interval = SoundKind::ALL.map(|k| ((patch(k).interval * rate).round() as u64).max(1));
        Ok(Mixer {
            config,
            voices: Vec::with_capacity(config.max_voices),
            pending: Vec::new(),
            started: [None; SoundKind::ALL.len()],
            interval,
            clock: 0,
            limiter: Limiter::new(config.ceiling, config.release, config.sample_rate),
            muted: false,
            stats: MixStats::default(),
        })
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> &MixerConfig {
        &self.config
    }

    /// Samples mixed so far (the clock).
    #[must_use]
    pub fn clock(&self) -> u64 {
        self.clock
    }

    /// Counts of what the mixer did.
    #[must_use]
    pub fn stats(&self) -> MixStats {
        self.stats
    }

    /// Voices sounding now.
    #[must_use]
    pub fn voices(&self) -> usize {
        self.voices.len()
    }

    /// Whether the mixer is muted.
    #[must_use]
    pub fn muted(&self) -> bool {
        self.muted
    }

    /// Mutes or unmutes. Muting silences at once: the voices and waiting sounds are dropped.
    pub fn set_muted(&mut self, muted: bool) {
        self.muted = muted;
        if muted {
            self.voices.clear();
            self.pending.clear();
            self.limiter.reset();
        }
    }

    /// [`Mixer::add`] each of `cues` (times in seconds from `out[0]`), then
    /// [`Mixer::render`] into `out`.
    pub fn mix(&mut self, cues: &[Cue], out: &mut [f32]) {
        for cue in cues {
            self.add(cue);
        }
        self.render(out);
    }

    /// Files `cue` (its time in seconds from the start of the block the next
    /// [`Mixer::render`] fills) under its kind and interval (see [`Mixer`]).
    pub fn add(&mut self, cue: &Cue) {
        self.add_with(cue.kind, cue.time, || cue.speed);
    }

    /// [`Mixer::add`] of a cue whose impact speed `speed()` works out only if it can change
    /// the sound: not when the cue is ignored, merged into a sound already started, or merged
    /// into one already at full level.
    pub fn add_with(&mut self, kind: SoundKind, time: f64, speed: impl FnOnce() -> Option<f64>) {
        self.stats.cues += 1;
        if self.muted {
            self.stats.ignored += 1;
            return;
        }
        let rate = f64::from(self.config.sample_rate);
        if !time.is_finite() || time > f64::from(self.config.horizon) {
            self.stats.ignored += 1;
            return;
        }
        let start = self.clock + (time.max(0.0) * rate).round() as u64;
        let k = kind.index();
        let slot = start / self.interval[k];
        if self.started[k].is_some_and(|s| s >= slot) {
            self.stats.merged += 1;
            return;
        }
        let patch = patch(kind);
        // Cues come in time order within a step: the match is usually the last entry.
        if let Some(p) = self
            .pending
            .iter_mut()
            .rev()
            .find(|p| p.kind == kind && p.slot == slot)
        {
            p.start = p.start.min(start);
            p.count = p.count.saturating_add(1);
            self.stats.merged += 1;
            if p.level < 1.0 {
                let speed = speed();
                let level = level(patch, speed);
                if level > p.level {
                    p.level = level;
                    p.pitch = pitch(patch, speed);
                }
            }
            return;
        }
        let speed = speed();
        self.pending.push(Pending {
            kind,
            slot,
            start,
            level: level(patch, speed),
            pitch: pitch(patch, speed),
            count: 1,
        });
    }

    /// Fills `out` with the next `out.len()` samples: the voices sounding and the sounds added
    /// that start within the block, each at its exact sample; advances the clock by
    /// `out.len()`. Every sample is within `[-ceiling, ceiling]`; muted, every sample is 0.
    pub fn render(&mut self, out: &mut [f32]) {
        self.stats.samples += out.len() as u64;
        out.fill(0.0);
        if self.muted {
            self.clock += out.len() as u64;
            return;
        }
        let end = self.clock + out.len() as u64;
        // The sounds due in this block, in the order they start.
        self.pending.sort_by_key(|p| (p.start, p.kind));
        let due = self.pending.partition_point(|p| p.start < end);
        let mut at = 0usize;
        for i in 0..due {
            let p = self.pending[i];
            let offset = (p.start - self.clock) as usize;
            self.render_voices(&mut out[at..offset]);
            at = offset;
            self.start(&p);
        }
        self.pending.drain(..due);
        self.render_voices(&mut out[at..]);
        let master = self.config.master;
        for s in out.iter_mut() {
            *s *= master;
        }
        self.limiter.process(out);
        self.clock = end;
    }

    /// Starts a sound at the current render position (voice limit applied).
    fn start(&mut self, p: &Pending) {
        self.started[p.kind.index()] = Some(p.slot);
        let crowd = 1.0 + 0.2 * libm::log2f(p.count as f32);
        let amp = patch(p.kind).gain * (p.level * crowd).min(1.0);
        let voice = Voice::new(
            p.kind,
            amp,
            p.pitch,
            self.config.sample_rate,
            p.start ^ ((p.kind.index() as u64) << 56),
        );
        if self.voices.len() < self.config.max_voices {
            self.voices.push(voice);
            self.stats.started += 1;
            return;
        }
        let quietest = self
            .voices
            .iter()
            .enumerate()
            .min_by(|a, b| a.1.loudness().total_cmp(&b.1.loudness()))
            .map(|(i, v)| (i, v.loudness()));
        match quietest {
            Some((i, loudness)) if loudness < amp => {
                self.voices[i] = voice;
                self.stats.started += 1;
                self.stats.stolen += 1;
            }
            _ => self.stats.dropped += 1,
        }
    }

    /// Adds every voice's next `out.len()` samples to `out`; drops the voices that ended.
    fn render_voices(&mut self, out: &mut [f32]) {
        if out.is_empty() {
            return;
        }
        for v in &mut self.voices {
            v.render_add(out);
        }
        self.voices.retain(|v| !v.done());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_out_of_range_are_errors() {
        let ok = MixerConfig::default();
        assert!(Mixer::new(ok).is_ok());
        for bad in [
            MixerConfig {
                sample_rate: 0,
                ..ok
            },
            MixerConfig {
                max_voices: 0,
                ..ok
            },
            MixerConfig {
                master: f32::NAN,
                ..ok
            },
            MixerConfig { ceiling: 1.5, ..ok },
            MixerConfig { release: 0.0, ..ok },
            MixerConfig {
                horizon: -1.0,
                ..ok
            },
        ] {
            assert!(
                matches!(Mixer::new(bad), Err(AudioError::BadSetting { .. })),
                "{bad:?}"
            );
        }
    }
}
