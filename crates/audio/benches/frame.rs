//! What sound costs a frame with 10 000 events or more.
//!
//! `cargo bench -p collide-audio --bench frame`
//!
//! - `frame/without_audio` and `frame/with_audio`: one frame of a game (one fixed step of
//!   1/60 s) of the benchmark arena with 10 000 balls at 1500 units/s, ball–ball collisions
//!   on (about 12 000 events per step), from the same state each time; with audio, every
//!   event becomes a cue and the frame's 735 samples are mixed and written to a WAV file (on
//!   `/dev/null`), as a frontend does with `--record-audio`. Their ratio is the frame time
//!   with sound over the frame time without.
//!
//!   Before them, a paired measure prints the ratio directly: 31 frames without and 31 with
//!   audio, alternating (each way first in half of the pairs), each from the same state, and the ratios of their fastest and of
//!   their median wall times (the fastest run is the one least disturbed by other processes
//!   sharing the cores), with the time spent in the audio calls themselves.
//! - `mix/10000_cues`: the mixer alone, 10 000 cues of every kind into one block of 735.
//! - `cues/arena_step`: turning the arena step's events into cues alone.

// criterion's macros generate undocumented items.
#![allow(missing_docs)]

use std::hint::black_box;
use std::time::Instant;

use collide_audio::cues::step_cues;
use collide_audio::{Audio, AudioOptions, Cue, Mixer, MixerConfig, SoundKind};
use collide_game::{Game, Input, Options, Source};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};

const DT: f64 = 1.0 / 60.0;

/// The arena with 10 000 balls at 1500 units/s, after 30 steps (the spawn's first contacts
/// are over).
fn arena() -> Game {
    let scene = collide_scenes::arena_scene(10_000, 1500.0, 1);
    let mut game =
        Game::new(Source::Sandbox(Box::new(scene)), Options::default()).expect("the arena builds");
    for _ in 0..30 {
        game.update(&Input::default(), DT);
    }
    game
}

/// Runs `f` and returns its wall time in milliseconds.
fn time_ms(f: impl FnOnce()) -> f64 {
    let t = Instant::now();
    f();
    t.elapsed().as_secs_f64() * 1e3
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Frames measured each way by [`paired`].
const PAIRS: usize = 31;

/// The paired measure of the frame with and without audio (see the module's doc).
fn paired(start: &Game) {
    let mut audio = Audio::new(&AudioOptions {
        muted: false,
        record: Some("/dev/null".into()),
    })
    .expect("/dev/null opens");
    let (mut without, mut with, mut own) = (Vec::new(), Vec::new(), Vec::new());
    let mut run_without = || {
        let mut game = start.clone();
        without.push(time_ms(|| {
            game.update(&Input::default(), DT);
        }));
    };
    let mut run_with = || {
        let mut game = start.clone();
        let mut audio_ms = 0.0;
        with.push(time_ms(|| {
            game.update_with(&Input::default(), DT, |gm, _| {
                audio_ms += time_ms(|| audio.step(gm));
            });
            audio_ms += time_ms(|| audio.end_frame(DT));
        }));
        own.push(audio_ms);
    };
    for pair in 0..PAIRS {
        // The second frame after a fresh clone runs a few % slower than the first (the
        // allocator's state): each way goes first in every other pair.
        if pair % 2 == 0 {
            run_without();
            run_with();
        } else {
            run_with();
            run_without();
        }
    }
    let fastest = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let (fa, fb) = (fastest(&without), fastest(&with));
    let (a, b, o) = (median(without), median(with), median(own));
    let peak = audio
        .last_block()
        .iter()
        .fold(0.0f32, |m, s| m.max(s.abs()));
    eprintln!(
        "paired frames ({PAIRS} each, wall time): fastest without audio {fa:.2} ms, with audio \
         {fb:.2} ms, ratio {:.3}; medians {a:.2} and {b:.2} ms, ratio {:.3}; audio's own work \
         (cues filed + block mixed and written) {o:.3} ms, {:.1} % of the frame without audio; \
         the last frame's block peaks at {:.2} dBFS",
        fb / fa,
        b / a,
        100.0 * o / a,
        collide_audio::dbfs(peak)
    );
}

fn frame(c: &mut Criterion) {
    let start = arena();
    let mut probe = start.clone();
    probe.update(&Input::default(), DT);
    let events = probe.last_events().len();
    let mut cues = Vec::new();
    step_cues(&probe, 0.0, 1.0, &mut cues);
    eprintln!(
        "arena, 10 000 balls at 1500 units/s: {events} events in the measured step, {} cues",
        cues.len()
    );
    paired(&start);
    let mut g = c.benchmark_group("frame");
    g.sample_size(20);
    g.bench_function("without_audio", |b| {
        b.iter_batched(
            || start.clone(),
            |mut game| {
                game.update(&Input::default(), DT);
                game
            },
            BatchSize::LargeInput,
        );
    });
    let mut audio = Audio::new(&AudioOptions {
        muted: false,
        record: Some("/dev/null".into()),
    })
    .expect("/dev/null opens");
    g.bench_function("with_audio", |b| {
        b.iter_batched(
            || start.clone(),
            |mut game| {
                game.update_with(&Input::default(), DT, |gm, _| audio.step(gm));
                audio.end_frame(DT);
                game
            },
            BatchSize::LargeInput,
        );
    });
    g.finish();
    let stats = audio.mixer().stats();
    let peak = audio
        .last_block()
        .iter()
        .fold(0.0f32, |m, s| m.max(s.abs()));
    eprintln!(
        "with_audio: {} cues, {} sounds started, {} merged, {} dropped; last block's peak {:.2} dBFS",
        stats.cues,
        stats.started,
        stats.merged,
        stats.dropped,
        collide_audio::dbfs(peak)
    );
}

fn mix(c: &mut Criterion) {
    let mut x: u32 = 1;
    let cues: Vec<Cue> = (0..10_000)
        .map(|i| {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            Cue {
                kind: SoundKind::ALL[i % SoundKind::ALL.len()],
                time: f64::from(x >> 8) / f64::from(1u32 << 24) * DT,
                speed: Some(f64::from(x % 3000)),
            }
        })
        .collect();
    let mut mixer = Mixer::new(MixerConfig::default()).expect("default settings");
    let mut block = vec![0.0f32; 735];
    c.bench_function("mix/10000_cues", |b| {
        b.iter(|| {
            mixer.mix(black_box(&cues), &mut block);
            black_box(block[0])
        });
    });
    let peak = block.iter().fold(0.0f32, |m, s| m.max(s.abs()));
    eprintln!(
        "mix/10000_cues: last block's peak {:.2} dBFS, {} voices",
        collide_audio::dbfs(peak),
        mixer.voices()
    );
}

fn cues(c: &mut Criterion) {
    let mut game = arena();
    game.update(&Input::default(), DT);
    let mut out = Vec::with_capacity(20_000);
    c.bench_function("cues/arena_step", |b| {
        b.iter(|| {
            out.clear();
            step_cues(black_box(&game), 0.0, 1.0, &mut out);
            black_box(out.len())
        });
    });
}

criterion_group!(benches, frame, mix, cues);
criterion_main!(benches);
