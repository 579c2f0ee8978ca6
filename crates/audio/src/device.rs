//! Playback on the sound card through cpal: the frame loop pushes each mixed block into a
//! queue, and cpal's audio thread pulls from it (resampled when the card does not run at
//! 44.1 kHz, the same sample on every channel).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use cpal::{FromSample, SampleFormat, SizedSample, StreamConfig};

use crate::error::AudioError;
use crate::SAMPLE_RATE;

/// Samples (at 44.1 kHz) queued before playback starts, and again after the queue ran dry:
/// 1 470, two frames of 1/60 s (33 ms), so that the frames' jitter is not heard as gaps.
pub const PREFILL: usize = 1_470;

/// Most samples queued (200 ms): past it the oldest are dropped, so that a frame loop that
/// runs ahead of the sound card (a burst of frames after a stall) never builds up delay.
pub const MAX_QUEUED: usize = 8_820;

/// What the frame loop and the audio thread share.
#[derive(Debug, Default)]
struct Queue {
    samples: VecDeque<f32>,
    /// Playing (false until [`PREFILL`] samples wait, and again after an underrun).
    playing: bool,
    underruns: u64,
    errors: u64,
}

impl Queue {
    /// The next sample, or 0 while filling or when empty (an underrun).
    fn pop(&mut self) -> f32 {
        if !self.playing {
            if self.samples.len() < PREFILL {
                return 0.0;
            }
            self.playing = true;
        }
        match self.samples.pop_front() {
            Some(s) => s,
            None => {
                self.playing = false;
                self.underruns += 1;
                0.0
            }
        }
    }
}

fn lock(q: &Mutex<Queue>) -> MutexGuard<'_, Queue> {
    // A panic elsewhere while holding the lock leaves plain data: go on with it.
    q.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Linear interpolation from 44.1 kHz to the card's rate.
#[derive(Debug)]
struct Resampler {
    /// Input samples per output sample.
    step: f64,
    frac: f64,
    a: f32,
    b: f32,
}

impl Resampler {
    fn new(to_rate: u32) -> Resampler {
        Resampler {
            step: f64::from(SAMPLE_RATE) / f64::from(to_rate.max(1)),
            frac: 0.0,
            a: 0.0,
            b: 0.0,
        }
    }

    fn next(&mut self, q: &mut Queue) -> f32 {
        let v = self.a + (self.b - self.a) * self.frac as f32;
        self.frac += self.step;
        while self.frac >= 1.0 {
            self.frac -= 1.0;
            self.a = self.b;
            self.b = q.pop();
        }
        v
    }
}

/// An open output stream on the default sound card, fed by [`Playback::push`].
pub struct Playback {
    // Playing while it lives; dropped, the card stops.
    _stream: cpal::Stream,
    queue: Arc<Mutex<Queue>>,
    config: StreamConfig,
    format: SampleFormat,
}

impl std::fmt::Debug for Playback {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Playback")
            .field("config", &self.config)
            .field("format", &self.format)
            .finish_non_exhaustive()
    }
}

impl Playback {
    /// Opens the default output device and starts its stream (silent until samples are
    /// pushed). It asks for 44.1 kHz in the card's preferred sample format (f32, else i16,
    /// i32, u16), else takes the card's default configuration and resamples.
    ///
    /// On Linux, alsa-lib's own error messages (a dozen lines on a machine without a sound
    /// card) are kept off stderr: the error returned says why in one line.
    ///
    /// # Errors
    /// [`AudioError::NoDevice`] when there is no device, or it cannot be opened;
    /// [`AudioError::Device`] when its stream cannot be built or started.
    pub fn open() -> Result<Playback, AudioError> {
        #[cfg(target_os = "linux")]
        let alsa_errors = alsa::Output::local_error_handler().ok();
        // Why, in a few words: alsa-lib's first message (`parse_card: cannot find card '0'`
        // gives `ALSA: cannot find card '0'`), else cpal's error.
        let why = |e: &dyn std::fmt::Display| {
            #[cfg(target_os = "linux")]
            if let Some(out) = &alsa_errors {
                let text = out.borrow().to_string();
                if let Some(first) = text.lines().map(str::trim).find(|l| !l.is_empty()) {
                    let message = first.split_once(": ").map_or(first, |(_, m)| m);
                    return format!("ALSA: {message}");
                }
            }
            e.to_string()
        };
        let host = cpal::default_host();
        let device = host.default_output_device().ok_or_else(|| {
            AudioError::NoDevice(format!("{} has no default output device", host.id().name()))
        })?;
        let (config, format) = choose_config(&device).map_err(|e| AudioError::NoDevice(why(&e)))?;
        let queue = Arc::new(Mutex::new(Queue::default()));
        let q = Arc::clone(&queue);
        let stream = match format {
            SampleFormat::F32 => build::<f32>(&device, config, q),
            SampleFormat::F64 => build::<f64>(&device, config, q),
            SampleFormat::I16 => build::<i16>(&device, config, q),
            SampleFormat::I32 => build::<i32>(&device, config, q),
            SampleFormat::I8 => build::<i8>(&device, config, q),
            SampleFormat::U16 => build::<u16>(&device, config, q),
            SampleFormat::U8 => build::<u8>(&device, config, q),
            other => {
                return Err(AudioError::Device(format!(
                    "the sound card's sample format {other} is not supported"
                )))
            }
        }
        .map_err(|e| AudioError::Device(why(&e)))?;
        stream.play().map_err(|e| AudioError::Device(why(&e)))?;
        Ok(Playback {
            _stream: stream,
            queue,
            config,
            format,
        })
    }

    /// Queues `samples` (mono, 44.1 kHz, full scale 1.0) to be played after those queued
    /// before. Past [`MAX_QUEUED`], the oldest are dropped.
    pub fn push(&self, samples: &[f32]) {
        let mut q = lock(&self.queue);
        q.samples.extend(samples.iter().copied());
        let excess = q.samples.len().saturating_sub(MAX_QUEUED);
        q.samples.drain(..excess);
    }

    /// The card's sample rate, channels and sample format, for a status line:
    /// `48000 Hz, 2 channels, f32`.
    #[must_use]
    pub fn describe(&self) -> String {
        format!(
            "{} Hz, {} channels, {}",
            self.config.sample_rate, self.config.channels, self.format
        )
    }

    /// How often the card found the queue empty while playing (frames that came late), and
    /// how many stream errors cpal reported.
    #[must_use]
    pub fn underruns_and_errors(&self) -> (u64, u64) {
        let q = lock(&self.queue);
        (q.underruns, q.errors)
    }
}

/// 44.1 kHz in the best format the card offers, else its default configuration.
fn choose_config(device: &cpal::Device) -> Result<(StreamConfig, SampleFormat), cpal::Error> {
    let rank = |f: SampleFormat| match f {
        SampleFormat::F32 => Some(0),
        SampleFormat::I16 => Some(1),
        SampleFormat::I32 => Some(2),
        SampleFormat::U16 => Some(3),
        _ => None,
    };
    let mut best: Option<((u8, u16), cpal::SupportedStreamConfig)> = None;
    for range in device.supported_output_configs()? {
        let Some(r) = rank(range.sample_format()) else {
            continue;
        };
        let key = (r, range.channels());
        if let Some(c) = range.try_with_sample_rate(SAMPLE_RATE) {
            if best.as_ref().is_none_or(|(k, _)| key < *k) {
                best = Some((key, c));
            }
        }
    }
    let chosen = match best {
        Some((_, c)) => c,
        None => device.default_output_config()?,
    };
    Ok((chosen.config(), chosen.sample_format()))
}

/// The output stream in sample type `T`: each frame of the card gets the next sample (mono)
/// on every channel.
fn build<T>(
    device: &cpal::Device,
    config: StreamConfig,
    queue: Arc<Mutex<Queue>>,
) -> Result<cpal::Stream, cpal::Error>
where
    T: SizedSample + FromSample<f32> + Send + 'static,
{
    let channels = usize::from(config.channels.max(1));
    let mut resampler = Resampler::new(config.sample_rate);
    let errors = Arc::clone(&queue);
    device.build_output_stream::<T, _, _>(
        config,
        move |data: &mut [T], _info| {
            let mut q = lock(&queue);
            for frame in data.chunks_mut(channels) {
                frame.fill(T::from_sample(resampler.next(&mut q)));
            }
        },
        move |_err| lock(&errors).errors += 1,
        None,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_queue_fills_before_it_plays_and_refills_after_running_dry() {
        let mut q = Queue::default();
        q.samples.extend(std::iter::repeat_n(0.5, PREFILL - 1));
        assert_eq!(q.pop(), 0.0, "still filling");
        q.samples.push_back(0.25);
        assert_eq!(q.pop(), 0.5);
        for _ in 0..PREFILL - 2 {
            q.pop();
        }
        assert_eq!(q.pop(), 0.25);
        assert_eq!((q.pop(), q.underruns, q.playing), (0.0, 1, false));
    }

    #[test]
    fn resampling_to_twice_the_rate_interpolates() {
        let mut q = Queue {
            playing: true,
            ..Queue::default()
        };
        q.samples.extend([1.0, 0.0, 1.0, 0.0]);
        let mut r = Resampler::new(2 * SAMPLE_RATE);
        let out: Vec<f32> = (0..8).map(|_| r.next(&mut q)).collect();
        // Half a sample per output sample: every other output is a midpoint.
        assert_eq!(out, [0.0, 0.0, 0.0, 0.5, 1.0, 0.5, 0.0, 0.5]);
    }
}
