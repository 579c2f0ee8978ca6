//! The frame loop's sound: `--record-audio` writes what the frames mixed, `--mute` and M
//! silence it, the help lists M, a bad file is an error before any window.

use std::path::PathBuf;

use collide_audio::WavStats;
use collide_frontend::{App, Args, FrameInput, FrontendError, Key, FIXED_FRAME_DT};

fn wav(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!(
        "collide-frontend-{}-{name}.wav",
        std::process::id()
    ))
}

/// Runs `frames` frames of `app` with `input` at frame `at` (if any), as a `--frames` run
/// does, and returns the samples each frame mixed.
fn play(app: &mut App, frames: u64, at: Option<(u64, FrameInput)>) -> Vec<f32> {
    let mut samples = Vec::new();
    for f in 0..frames {
        let input = match &at {
            Some((n, i)) if *n == f => i.clone(),
            _ => FrameInput::default(),
        };
        app.frame(&input, FIXED_FRAME_DT);
        samples.extend_from_slice(app.audio().last_block());
    }
    samples
}

fn press(key: Key) -> FrameInput {
    FrameInput {
        pressed: vec![key],
        ..FrameInput::default()
    }
}

/// 300 frames of level 1 with the autopilot (launches, bounces, broken bricks): 300 × 735 =
/// 220 500 samples in the file, the ones the frames mixed, audible and never clipped.
#[test]
fn record_audio_writes_what_the_frames_mixed() {
    let path = wav("autoplay");
    let mut app = App::new(&Args {
        autoplay: true,
        frames: Some(300),
        record_audio: Some(path.clone()),
        ..Args::default()
    })
    .unwrap();
    let samples = play(&mut app, 300, None);
    assert_eq!(samples.len(), 300 * 735);
    let line = app.finish_audio().unwrap().unwrap();
    assert!(
        line.starts_with(&format!(
            "collide: audio {} (220500 samples, 5.00 s, peak -",
            path.display()
        )),
        "{line}"
    );
    assert_eq!(app.finish_audio().unwrap(), None, "a second call");
    let stats = WavStats::of_file(&path).unwrap();
    std::fs::remove_file(&path).ok();
    assert_eq!(
        (stats.sample_rate, stats.channels, stats.samples),
        (44_100, 1, 220_500)
    );
    assert_eq!(stats.clipped, 0);
    assert!(stats.peak <= collide_audio::CEILING + 1.0 / 32_767.0);
    assert!(stats.peak > 0.1, "not silent: peak {}", stats.peak);
    assert!(
        stats.nonzero > 22_050,
        "sound in more than a tenth of the samples"
    );
    // The file holds the mixed samples, rounded to 16 bits.
    let mixed_peak = samples.iter().fold(0.0f32, |m, s| m.max(s.abs()));
    assert!((stats.peak - mixed_peak).abs() <= 1.0 / 32_767.0);
}

/// `--mute` starts silent (and says so in the status bar); M turns the sound on, M again off.
#[test]
fn mute_and_the_m_key() {
    let path = wav("mute");
    let mut app = App::new(&Args {
        autoplay: true,
        mute: true,
        record_audio: Some(path.clone()),
        ..Args::default()
    })
    .unwrap();
    assert!(app.muted());
    assert!(app.perf_lines().0.ends_with(" MUTED"));
    let muted = play(&mut app, 120, None);
    assert!(muted.iter().all(|&s| s == 0.0), "muted means silent");
    let on = play(&mut app, 180, Some((0, press(Key::M))));
    assert!(!app.muted() && !app.perf_lines().0.contains("MUTED"));
    assert!(on.iter().any(|&s| s != 0.0), "M turns the sound on");
    let off = play(&mut app, 60, Some((0, press(Key::M))));
    assert!(app.muted());
    assert!(off.iter().all(|&s| s == 0.0));
    app.finish_audio().unwrap();
    std::fs::remove_file(&path).ok();
}

/// Without `--record-audio` and without a sound card opened, nothing is mixed at all.
#[test]
fn no_output_no_work() {
    let mut app = App::new(&Args {
        autoplay: true,
        ..Args::default()
    })
    .unwrap();
    let samples = play(&mut app, 120, None);
    assert!(samples.is_empty());
    assert_eq!(app.audio().mixer().stats().cues, 0);
    assert_eq!(app.finish_audio().unwrap(), None);
}

#[test]
fn a_wav_file_that_cannot_be_created_is_an_error_before_any_window() {
    let err = App::new(&Args {
        record_audio: Some(PathBuf::from("/nonexistent-dir/x/out.wav")),
        ..Args::default()
    })
    .unwrap_err();
    assert!(matches!(err, FrontendError::Audio(_)));
    let report = collide_frontend::error_report(&err);
    assert!(
        report.contains("/nonexistent-dir/x/out.wav: cannot create the WAV file"),
        "{report}"
    );
}

#[test]
fn the_help_lists_m() {
    let app = App::new(&Args::default()).unwrap();
    assert!(app
        .help_lines()
        .iter()
        .any(|l| l.starts_with("M ") && l.contains("SOUND")));
}
