//! The mixer as a pure function from cues to samples: silence, exact start times, the level
//! under 10 000 events, mute, and the same samples whatever the block lengths. Then the whole
//! chain on a real game: world events → cues → samples, at the sample the physics says.

use collide_audio::{dbfs, Audio, AudioOptions, Cue, Mixer, MixerConfig, SoundKind, CEILING};
use collide_world::Body;
use collide_world::Contact;
use collide_world::Target;

/// One frame of 1/60 s at 44.1 kHz: 44 100 / 60 = 735 samples.
const FRAME: usize = 735;

fn mixer() -> Mixer {
    Mixer::new(MixerConfig::default()).unwrap()
}

fn cue(kind: SoundKind, time: f64, speed: f64) -> Cue {
    Cue {
        kind,
        time,
        speed: Some(speed),
    }
}

fn peak(s: &[f32]) -> f32 {
    s.iter().fold(0.0f32, |m, x| m.max(x.abs()))
}

/// `blocks` blocks of `len` samples, `first` given with the first block, nothing after.
fn run(m: &mut Mixer, first: &[Cue], blocks: usize, len: usize) -> Vec<f32> {
    let mut all = Vec::new();
    let mut block = vec![1.0f32; len];
    for i in 0..blocks {
        m.mix(if i == 0 { first } else { &[] }, &mut block);
        all.extend_from_slice(&block);
    }
    all
}

#[test]
fn no_events_is_silence() {
    let mut m = mixer();
    let out = run(&mut m, &[], 60, FRAME);
    assert_eq!(out.len(), 60 * FRAME);
    assert!(out.iter().all(|&s| s == 0.0), "peak {}", peak(&out));
    // And once a sound has ended (the longest lasts 0.8 s), exact silence again.
    let out = run(&mut m, &[cue(SoundKind::Wall, 0.0, 240.0)], 90, FRAME);
    assert!(peak(&out[..FRAME]) > 0.01);
    assert!(out[60 * FRAME..].iter().all(|&s| s == 0.0));
    assert_eq!(m.voices(), 0);
}

/// A ball–ball cue 12.5 ms into a block of 1024: 0.0125 s × 44 100 /s = 551.25, so its first
/// sample is sample 551 (the nearest); everything before is silent. A cue at 30 ms falls in
/// the second block of 735: 0.030 × 44 100 = 1323 = 735 + 588.
#[test]
fn a_ball_ball_event_starts_at_its_sample() {
    let mut m = mixer();
    let mut block = vec![0.0f32; 1024];
    m.mix(&[cue(SoundKind::BallBall, 0.0125, 300.0)], &mut block);
    assert!(block[..551].iter().all(|&s| s == 0.0));
    assert!(block[551] != 0.0);
    assert!(peak(&block[551..]) > 0.05, "audible: {}", peak(&block));

    let mut m = mixer();
    let out = run(&mut m, &[cue(SoundKind::BallBall, 0.030, 300.0)], 2, FRAME);
    assert!(out[..1323].iter().all(|&s| s == 0.0));
    assert!(out[1323] != 0.0);
    assert_eq!(1323 - FRAME, 588);
}

/// 10 000 events in one frame: every kind, at full speed, spread over the frame. The mix stays
/// at or below the limiter's ceiling (−1 dBFS, so below 0 dBFS) in every block, it is not
/// silent, and the rate and voice limits hold: each kind starts at most one sound per
/// interval.
#[test]
fn ten_thousand_events_in_one_frame_stay_below_0_dbfs() {
    let mut m = mixer();
    let mut cues = Vec::with_capacity(10_000);
    let mut x: u32 = 12_345;
    for i in 0..10_000 {
        // A small LCG spreads the times over the frame.
        x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        let t = f64::from(x >> 8) / f64::from(1u32 << 24) / 60.0;
        let kind = SoundKind::ALL[i % SoundKind::ALL.len()];
        cues.push(cue(kind, t, 5000.0));
    }
    let out = run(&mut m, &cues, 60, FRAME);
    let p = peak(&out);
    assert!(p <= CEILING, "peak {p} ({} dBFS)", dbfs(p));
    assert!(dbfs(p) < 0.0 && dbfs(p) <= -0.99);
    assert!(p > 0.3, "the crowd is heard: peak {p}");
    let stats = m.stats();
    assert_eq!(stats.cues, 10_000);
    // Per kind at most one sound per interval of the frame's 735 samples (ball–ball: 6 ms =
    // 265 samples, so at most 4 intervals touch the frame); all nine kinds: at most 40.
    assert!(stats.started <= 40, "{stats:?}");
    assert!(stats.merged >= 10_000 - 40);
    assert!(m.voices() <= MixerConfig::default().max_voices);
}

#[test]
fn muted_is_silent() {
    let mut m = mixer();
    m.set_muted(true);
    let cues: Vec<Cue> = (0..10_000)
        .map(|i| cue(SoundKind::BallBall, f64::from(i) * 1e-6, 300.0))
        .collect();
    let out = run(&mut m, &cues, 10, FRAME);
    assert!(out.iter().all(|&s| s == 0.0));
    // Unmuted, the same cues sound; muting again cuts them at once.
    m.set_muted(false);
    let mut block = vec![0.0f32; FRAME];
    m.mix(&cues, &mut block);
    assert!(peak(&block) > 0.05);
    m.set_muted(true);
    m.mix(&[], &mut block);
    assert!(block.iter().all(|&s| s == 0.0));
}

/// The samples depend on the cues only: one block of 1470 or two of 735 (every cue given with
/// the first) or 1470 blocks of one sample give the same samples, bit for bit.
#[test]
fn the_same_cues_give_the_same_samples_in_any_blocks() {
    let cues = [
        cue(SoundKind::BallBall, 0.001, 200.0),
        cue(SoundKind::Wall, 0.004, 100.0),
        cue(SoundKind::BallBall, 0.0041, 500.0),
        cue(SoundKind::Paddle, 0.02, 240.0),
        cue(SoundKind::BrickBreak, 0.021, 240.0),
        Cue {
            kind: SoundKind::LevelCleared,
            time: 0.025,
            speed: None,
        },
    ];
    let one = run(&mut mixer(), &cues, 1, 2 * FRAME);
    let two = run(&mut mixer(), &cues, 2, FRAME);
    let tiny = run(&mut mixer(), &cues, 2 * FRAME, 1);
    assert!(peak(&one) > 0.05);
    assert_eq!(one, two);
    assert_eq!(one, tiny);
}

/// Impact speed sets the level: a ball–ball cue at its reference speed (300 units/s, level 1)
/// peaks five times higher than one at 60 units/s (level 60 / 300 = 0.2); below the limiter
/// both pass unchanged.
#[test]
fn harder_hits_are_louder() {
    let loud = run(
        &mut mixer(),
        &[cue(SoundKind::BallBall, 0.0, 300.0)],
        4,
        FRAME,
    );
    let soft = run(
        &mut mixer(),
        &[cue(SoundKind::BallBall, 0.0, 60.0)],
        4,
        FRAME,
    );
    let ratio = peak(&loud) / peak(&soft);
    assert!((4.0..6.0).contains(&ratio), "{ratio}");
}

/// Garbage in: non-finite and far-future times are ignored, negative times start at once, a
/// NaN speed plays at the default level; nothing panics and the ceiling holds.
#[test]
fn odd_cues_are_harmless() {
    let mut m = mixer();
    let cues = [
        cue(SoundKind::BallBall, f64::NAN, 300.0),
        cue(SoundKind::BallBall, f64::INFINITY, 300.0),
        cue(SoundKind::Wall, 1e12, 300.0),
        cue(SoundKind::Wall, -5.0, f64::NAN),
    ];
    let out = run(&mut m, &cues, 2, FRAME);
    assert!(out[0] != 0.0, "the negative time starts at sample 0");
    assert!(peak(&out) <= CEILING);
    assert_eq!(m.stats().ignored, 3);
    assert_eq!(m.stats().started, 1);
}

/// A real game: two balls of radius 5 on one line, 92 units apart between their surfaces,
/// closing at 2 × 100 units/s, meet after 92 / 200 = 0.46 s. Frame k's block starts at sample
/// 735 k and one 1/60 s step runs per frame, so the click starts at sample
/// 0.46 × 44 100 = 20 286 of the recording, the first non-zero sample of the file.
#[test]
fn a_game_s_collision_is_heard_at_its_exact_time() {
    use collide_game::{Game, Input, Options, Source};
    let toml = "[world]\nsize = [200, 100]\nwalls = [\"left\", \"top\", \"right\", \"bottom\"]\n\n\
        [[ball]]\npos = [50, 50]\nvel = [100, 0]\nradius = 5\n\n\
        [[ball]]\npos = [152, 50]\nvel = [-100, 0]\nradius = 5\n\n\
        [step]\nball_ball = true\n";
    let none = |_: &str| Err(std::io::Error::other("no level files"));
    let scene = collide_scene::from_toml_str(toml, "two.toml", &none).unwrap();
    let mut game = Game::new(Source::Sandbox(Box::new(scene)), Options::default()).unwrap();
    let wav = std::env::temp_dir().join(format!("collide-audio-test-{}.wav", std::process::id()));
    let mut audio = Audio::new(&AudioOptions {
        muted: false,
        record: Some(wav.clone()),
    })
    .unwrap();
    let mut samples = Vec::new();
    let mut events_at = None;
    for frame in 0..40 {
        let report = game.update_with(&Input::default(), 1.0 / 60.0, |g, _| {
            audio.step(g);
            if events_at.is_none()
                && g.last_events().iter().any(|e| {
                    matches!(
                        e,
                        collide_world::Event::Contact(Contact {
                            body: Body::Ball(_),
                            other: Target::Ball(_),
                            ..
                        })
                    )
                })
            {
                events_at = Some(frame);
            }
        });
        assert_eq!(report.steps, 1);
        audio.end_frame(1.0 / 60.0);
        samples.extend_from_slice(audio.last_block());
    }
    assert_eq!(events_at, Some(27), "0.46 s is in the 28th step");
    assert_eq!(samples.len(), 40 * FRAME);
    let first = samples.iter().position(|&s| s != 0.0);
    assert_eq!(first, Some(20_286));
    // The file holds the same samples as 16-bit PCM.
    let summary = audio.finish().unwrap().unwrap();
    assert_eq!(summary.samples, 40 * FRAME as u64);
    let stats = collide_audio::WavStats::of_file(&wav).unwrap();
    std::fs::remove_file(&wav).ok();
    assert_eq!(
        (stats.sample_rate, stats.channels, stats.bits),
        (44_100, 1, 16)
    );
    assert_eq!(stats.samples, 40 * FRAME as u64);
    assert!((stats.peak - peak(&samples)).abs() < 1.0 / 32_767.0);
    assert_eq!(stats.clipped, 0);
}
