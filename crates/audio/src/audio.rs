//! [`Audio`]: the sound of a frame loop. After each fixed step it reads the step's events;
//! at the end of the frame it mixes one block and hands the same samples to the sound card
//! and to the WAV file.

use std::path::PathBuf;

use collide_game::Game;

use crate::cues::for_each_step_cue;
use crate::device::Playback;
use crate::error::AudioError;
use crate::mixer::{Mixer, MixerConfig};
use crate::wav::{WavRecorder, WavSummary};
use crate::SAMPLE_RATE;

/// The longest block one frame mixes, seconds: a frame that took longer (a stall) gets this
/// much sound, so that a long pause never mixes seconds of samples in one go.
pub const MAX_FRAME: f64 = 0.25;

/// How a frontend's sound starts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AudioOptions {
    /// Start muted (`--mute`).
    pub muted: bool,
    /// Write what is played to this WAV file (`--record-audio FILE.wav`).
    pub record: Option<PathBuf>,
}

/// The sound of a frame loop: a [`Mixer`], the cues of the frame's steps, and where the mixed
/// samples go (the sound card, a WAV file, both or neither).
///
/// Per frame: [`Audio::step`] after each fixed step, then [`Audio::end_frame`] with the
/// frame's duration. With neither a sound card nor a recording nothing is computed.
#[derive(Debug)]
pub struct Audio {
    mixer: Mixer,
    /// When the next step starts, seconds from the start of this frame's block.
    step_start: f64,
    /// Fraction of a sample carried to the next frame.
    carry: f64,
    block: Vec<f32>,
    output: Option<Playback>,
    recorder: Option<WavRecorder>,
    /// The first error of the recording (it stops there); reported by [`Audio::finish`].
    record_error: Option<AudioError>,
}

impl Audio {
    /// Sound as `options` say: muted or not, recording or not (the WAV file is created now).
    /// No sound card is opened: see [`Audio::open_output`].
    ///
    /// # Errors
    /// [`AudioError::Wav`] if the WAV file cannot be created.
    pub fn new(options: &AudioOptions) -> Result<Audio, AudioError> {
        let mut mixer = Mixer::new(MixerConfig::default())?;
        mixer.set_muted(options.muted);
        let recorder = match &options.record {
            Some(path) => Some(WavRecorder::create(path)?),
            None => None,
        };
        Ok(Audio {
            mixer,
            step_start: 0.0,
            carry: 0.0,
            block: Vec::new(),
            output: None,
            recorder,
            record_error: None,
        })
    }

    /// Opens the default sound card ([`Playback::open`]) and plays the mix on it from the
    /// next frame on. An output already open is kept (not reopened).
    ///
    /// # Errors
    /// As [`Playback::open`]: the caller goes on without sound (a recording still works).
    pub fn open_output(&mut self) -> Result<&Playback, AudioError> {
        let playback = match self.output.take() {
            Some(open) => open,
            None => Playback::open()?,
        };
        Ok(self.output.insert(playback))
    }

    /// Moves `from`'s sound card and its mute setting to this sound, leaving `from` silent.
    /// A frontend that replaces its game (a new scene) keeps one open output this way: closing
    /// an output and opening another would drop samples, and browsers allow a new WebAudio
    /// context only inside a user gesture. Does nothing when `from` has no output.
    pub fn adopt_output(&mut self, from: &mut Audio) {
        if let Some(playback) = from.output.take() {
            self.output = Some(playback);
            self.mixer.set_muted(from.mixer.muted());
        }
    }

    /// The sound card in use, if one opened.
    #[must_use]
    pub fn output(&self) -> Option<&Playback> {
        self.output.as_ref()
    }

    /// Whether the samples go anywhere (a sound card or a recording).
    #[must_use]
    pub fn is_active(&self) -> bool {
        self.output.is_some() || self.recorder.is_some()
    }

    /// Whether the sound is muted.
    #[must_use]
    pub fn muted(&self) -> bool {
        self.mixer.muted()
    }

    /// Mutes or unmutes: muted, every sample played and recorded is 0.
    pub fn set_muted(&mut self, muted: bool) {
        self.mixer.set_muted(muted);
    }

    /// Turns the sound off if it is on, on if it is off (the `M` key).
    pub fn toggle_mute(&mut self) {
        self.set_muted(!self.muted());
    }

    /// The mixer (its counts, its clock).
    #[must_use]
    pub fn mixer(&self) -> &Mixer {
        &self.mixer
    }

    /// Call after each fixed step of the frame (as [`Game::update_with`]'s hook): the step's
    /// events become cues at their exact times. Steps follow one another within the frame's
    /// block, each `dt / speed` seconds of sound long (the game's speed of time).
    pub fn step(&mut self, game: &Game) {
        let dt = game.world().config().dt;
        let speed = game.speed();
        let scale = if speed.is_finite() && speed > 0.0 {
            1.0 / speed
        } else {
            1.0
        };
        if self.is_active() && !self.mixer.muted() {
            let mixer = &mut self.mixer;
            for_each_step_cue(game, self.step_start, scale, |kind, time, speed| {
                mixer.add_with(kind, time, speed);
            });
        }
        self.step_start += dt * scale;
    }

    /// Ends the frame: mixes `seconds` of sound (clamped to `0..=MAX_FRAME`; fractions of a
    /// sample carry over to the next frame, so 60 frames of 1/60 s are exactly 44 100
    /// samples) with the cues of the frame's steps, and sends the block to the sound card and
    /// the recording. A write error stops the recording; [`Audio::finish`] reports it.
    pub fn end_frame(&mut self, seconds: f64) {
        let seconds = if seconds.is_finite() {
            seconds.clamp(0.0, MAX_FRAME)
        } else {
            0.0
        };
        self.step_start = 0.0;
        if !self.is_active() {
            return;
        }
        let total = seconds * f64::from(SAMPLE_RATE) + self.carry;
        // The epsilon absorbs rounding: 1/60 s is 735 samples, not 734.99999.
        let n = (total + 1e-6).floor();
        self.carry = (total - n).max(0.0);
        self.block.resize(n as usize, 0.0);
        self.mixer.render(&mut self.block);
        if let Some(out) = &self.output {
            out.push(&self.block);
        }
        if let Some(rec) = &mut self.recorder {
            if let Err(e) = rec.write(&self.block) {
                self.record_error = Some(e);
                self.recorder = None;
            }
        }
    }

    /// The block mixed by the last [`Audio::end_frame`] (empty when inactive).
    #[must_use]
    pub fn last_block(&self) -> &[f32] {
        &self.block
    }

    /// Finishes the recording, if one runs: `Ok(Some(summary))` with what the file holds,
    /// `Ok(None)` without a recording (or on a second call).
    ///
    /// # Errors
    /// [`AudioError::Wav`] if writing the file failed, now or during a frame.
    pub fn finish(&mut self) -> Result<Option<WavSummary>, AudioError> {
        if let Some(e) = self.record_error.take() {
            return Err(e);
        }
        match self.recorder.take() {
            Some(mut rec) => rec.finish().map(Some),
            None => Ok(None),
        }
    }
}
