//! The checks CI runs on the WAV files the frontends record under Xvfb (`--record-audio`, see
//! `.ci/gui-minifb.sh` and `.ci/gui-pixels.sh`): 44.1 kHz mono 16-bit, the expected length,
//! not silent, not clipped.
//!
//! `COLLIDE_WAV` names the files (separated by `:`), `COLLIDE_WAV_SAMPLES` their length in
//! samples. Without them, the same checks run on a recording made here: level 1 played by the
//! autopilot for 300 frames of 1/60 s, as the frontends' scripted runs do.

use std::path::{Path, PathBuf};

use collide_audio::{dbfs, Audio, AudioOptions, WavStats, CEILING};
use collide_game::{Game, Input};

/// Checks one recording; returns its measures for the log.
fn check(path: &Path, samples: u64) -> WavStats {
    let s = WavStats::of_file(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(
        (s.sample_rate, s.channels, s.bits),
        (44_100, 1, 16),
        "{}",
        path.display()
    );
    assert_eq!(s.samples, samples, "{}: length", path.display());
    // Not silent: sound well above the noise floor, in more than a tenth of the samples.
    assert!(
        s.peak > 0.1 && s.rms > 0.005,
        "{}: silent (peak {:.1} dBFS, rms {:.1} dBFS)",
        path.display(),
        dbfs(s.peak),
        dbfs(s.rms)
    );
    assert!(
        s.nonzero * 10 > s.samples,
        "{}: sound in {} of {} samples",
        path.display(),
        s.nonzero,
        s.samples
    );
    // Not clipped: no sample at full scale, the peak at most the limiter's ceiling (−1 dBFS)
    // plus the rounding to 16 bits.
    assert_eq!(s.clipped, 0, "{}: clipped samples", path.display());
    assert!(
        s.peak <= CEILING + 1.0 / 32_767.0,
        "{}: peak {:.2} dBFS above the ceiling",
        path.display(),
        dbfs(s.peak)
    );
    s
}

/// Level 1, the autopilot playing, `frames` frames of 1/60 s recorded to `path`.
fn record_level_1(path: &Path, frames: u32) {
    let mut game = Game::level_1().unwrap();
    let mut audio = Audio::new(&AudioOptions {
        muted: false,
        record: Some(path.to_owned()),
    })
    .unwrap();
    for _ in 0..frames {
        let input: Input = game.autopilot();
        game.update_with(&input, 1.0 / 60.0, |g, _| audio.step(g));
        audio.end_frame(1.0 / 60.0);
    }
    audio.finish().unwrap();
}

#[test]
fn recordings_are_audible_and_never_clipped() {
    let files: Vec<PathBuf> = match std::env::var_os("COLLIDE_WAV") {
        Some(list) => std::env::split_paths(&list).collect(),
        None => Vec::new(),
    };
    if files.is_empty() {
        let path =
            std::env::temp_dir().join(format!("collide-recorded-{}.wav", std::process::id()));
        record_level_1(&path, 300);
        let s = check(&path, 300 * 735);
        std::fs::remove_file(&path).ok();
        eprintln!("level 1, 300 frames: {s:?}");
        return;
    }
    let samples: u64 = std::env::var("COLLIDE_WAV_SAMPLES")
        .expect("COLLIDE_WAV_SAMPLES: the expected length")
        .parse()
        .expect("COLLIDE_WAV_SAMPLES: a number");
    for f in &files {
        let s = check(f, samples);
        eprintln!(
            "{}: {} samples, peak {:.1} dBFS, rms {:.1} dBFS, {} clipped",
            f.display(),
            s.samples,
            dbfs(s.peak),
            dbfs(s.rms),
            s.clipped
        );
    }
}
