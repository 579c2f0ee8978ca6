//! WAV files (hound): [`WavRecorder`] writes the mixed samples as they are made, [`WavStats`]
//! measures a file (for the checks of a recording).

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use crate::error::AudioError;
use crate::SAMPLE_RATE;

/// Full scale of a 16-bit sample: `x` in `[-1, 1]` is written as `round(x · 32 767)`.
const FULL_SCALE: f32 = 32_767.0;

/// Writes samples to a WAV file: mono, 44.1 kHz, 16-bit PCM.
pub struct WavRecorder {
    path: PathBuf,
    writer: Option<hound::WavWriter<BufWriter<File>>>,
    samples: u64,
    peak: f32,
}

impl std::fmt::Debug for WavRecorder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WavRecorder")
            .field("path", &self.path)
            .field("samples", &self.samples)
            .field("peak", &self.peak)
            .finish_non_exhaustive()
    }
}

/// What a finished recording holds.
#[derive(Clone, Debug, PartialEq)]
pub struct WavSummary {
    /// The file.
    pub path: PathBuf,
    /// Samples written (one channel): seconds × 44 100.
    pub samples: u64,
    /// The largest `|sample|` written, full scale 1.0.
    pub peak: f32,
}

impl WavSummary {
    /// The line a frontend prints: `collide: audio FILE (N samples, S s, peak P dBFS)`.
    #[must_use]
    pub fn line(&self) -> String {
        format!(
            "collide: audio {} ({} samples, {:.2} s, peak {:.1} dBFS)",
            self.path.display(),
            self.samples,
            self.samples as f64 / f64::from(SAMPLE_RATE),
            crate::dbfs(self.peak)
        )
    }
}

impl WavRecorder {
    /// Creates (or truncates) `path` and writes its header.
    ///
    /// # Errors
    /// [`AudioError::Wav`] if the file cannot be created.
    pub fn create(path: &Path) -> Result<WavRecorder, AudioError> {
        let spec = hound::WavSpec {
            channels: 1,
            sample_rate: SAMPLE_RATE,
            bits_per_sample: 16,
            sample_format: hound::SampleFormat::Int,
        };
        let writer = hound::WavWriter::create(path, spec).map_err(|source| AudioError::Wav {
            file: path.display().to_string(),
            problem: "cannot create the WAV file".to_owned(),
            source,
        })?;
        Ok(WavRecorder {
            path: path.to_owned(),
            writer: Some(writer),
            samples: 0,
            peak: 0.0,
        })
    }

    /// Appends `samples` (full scale 1.0; values beyond ±1 are clamped, NaN written as 0).
    ///
    /// # Errors
    /// [`AudioError::Wav`] if the file cannot be written (a full disk) or is already
    /// finished.
    pub fn write(&mut self, samples: &[f32]) -> Result<(), AudioError> {
        let Some(writer) = &mut self.writer else {
            return Err(self.error(
                "the recording is already finished",
                hound::Error::Unsupported,
            ));
        };
        let mut result = Ok(());
        for &s in samples {
            let s = if s.is_finite() {
                s.clamp(-1.0, 1.0)
            } else {
                0.0
            };
            self.peak = self.peak.max(s.abs());
            if let Err(e) = writer.write_sample((s * FULL_SCALE).round() as i16) {
                result = Err(e);
                break;
            }
            self.samples += 1;
        }
        result.map_err(|e| self.error("cannot write the WAV file", e))
    }

    /// Finishes the file (its header gets the final length) and returns what it holds.
    ///
    /// # Errors
    /// [`AudioError::Wav`] if the file cannot be written, or was finished before.
    pub fn finish(&mut self) -> Result<WavSummary, AudioError> {
        let Some(writer) = self.writer.take() else {
            return Err(self.error(
                "the recording is already finished",
                hound::Error::Unsupported,
            ));
        };
        writer
            .finalize()
            .map_err(|e| self.error("cannot finish the WAV file", e))?;
        Ok(WavSummary {
            path: self.path.clone(),
            samples: self.samples,
            peak: self.peak,
        })
    }

    /// The file being written.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn error(&self, problem: &str, source: hound::Error) -> AudioError {
        AudioError::Wav {
            file: self.path.display().to_string(),
            problem: problem.to_owned(),
            source,
        }
    }
}

/// Measures of a 16-bit PCM WAV file, full scale 1.0 (`i16` sample `v` counts as
/// `v / 32 767`).
#[derive(Clone, Debug, PartialEq)]
pub struct WavStats {
    /// Samples per second.
    pub sample_rate: u32,
    /// Channels.
    pub channels: u16,
    /// Bits per sample.
    pub bits: u16,
    /// Samples, all channels.
    pub samples: u64,
    /// The largest `|sample|`.
    pub peak: f32,
    /// Root mean square of all samples.
    pub rms: f32,
    /// Samples at full scale (`32 767` or `−32 768`): a clipped recording has some.
    pub clipped: u64,
    /// Samples that are not 0.
    pub nonzero: u64,
}

impl WavStats {
    /// Reads and measures `path`.
    ///
    /// # Errors
    /// [`AudioError::Wav`] if the file cannot be read, is not a WAV file, or is not 16-bit
    /// integer PCM.
    pub fn of_file(path: &Path) -> Result<WavStats, AudioError> {
        let err = |problem: &str, source| AudioError::Wav {
            file: path.display().to_string(),
            problem: problem.to_owned(),
            source,
        };
        let mut reader =
            hound::WavReader::open(path).map_err(|e| err("cannot read the WAV file", e))?;
        let spec = reader.spec();
        if spec.bits_per_sample != 16 || spec.sample_format != hound::SampleFormat::Int {
            return Err(err("not 16-bit integer PCM", hound::Error::Unsupported));
        }
        let mut stats = WavStats {
            sample_rate: spec.sample_rate,
            channels: spec.channels,
            bits: spec.bits_per_sample,
            samples: 0,
            peak: 0.0,
            rms: 0.0,
            clipped: 0,
            nonzero: 0,
        };
        let mut sum_sq = 0.0f64;
        for s in reader.samples::<i16>() {
            let v = s.map_err(|e| err("cannot read the WAV file", e))?;
            let x = f32::from(v) / FULL_SCALE;
            stats.samples += 1;
            stats.peak = stats.peak.max(x.abs());
            sum_sq += f64::from(x) * f64::from(x);
            stats.clipped += u64::from(v == i16::MAX || v == i16::MIN);
            stats.nonzero += u64::from(v != 0);
        }
        if stats.samples > 0 {
            stats.rms = (sum_sq / stats.samples as f64).sqrt() as f32;
        }
        Ok(stats)
    }
}
