//! The errors of this crate: at its edges only (the sound card, WAV files, settings).

/// Why a sound could not be played or recorded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AudioError {
    /// No sound card can be opened (none present, none configured, or it is busy): the caller
    /// goes on silently.
    #[error("no audio output device ({0})")]
    NoDevice(String),
    /// The sound card opened but its stream could not be started.
    #[error("audio output: {0}")]
    Device(String),
    /// A WAV file could not be created, written or read.
    #[error("{file}: {problem}")]
    Wav {
        /// The file.
        file: String,
        /// What went wrong.
        problem: String,
        /// hound's error.
        #[source]
        source: hound::Error,
    },
    /// A setting of the mixer out of its range.
    #[error("mixer setting `{field}`: {problem}")]
    BadSetting {
        /// The field of [`crate::MixerConfig`].
        field: &'static str,
        /// What its range is.
        problem: String,
    },
}
