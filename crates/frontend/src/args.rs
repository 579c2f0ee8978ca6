//! The command line every frontend accepts (clap).

use std::path::PathBuf;

use clap::Parser;

/// The map `--platformer` plays without a FILE: LDtk's platformer sample, beside the
/// repository.
pub const PLATFORMER_SAMPLE: &str = "../shared/maps/ldtk/Typical_2D_platformer_example.ldtk";

/// Smallest and largest window side accepted, pixels.
pub const WINDOW_SIDE: std::ops::RangeInclusive<u32> = 64..=8192;

/// The flags of a collide frontend. `collide-minifb` and the pixels frontend parse exactly
/// these (`Args::parse()`); their help text is the same.
#[derive(Clone, Debug, PartialEq, Parser)]
#[command(
    version,
    about = "collide: BricksBeater with thousands of exactly colliding balls, and the demo scenes.",
    after_help = "Keys: mouse or Left/Right move the paddle; click or Space launches; Z/X turn the aim; \
1-7 levels; Tab next demo scene; P pause; . single step; [ ] slower/faster; D debug view; \
R restart; M sound on/off; H or F1 help; Esc quit. The platformer (--platformer): arrows or WASD \
run and climb, Space (or Up, W) jumps."
)]
pub struct Args {
    /// What to open: a built-in scene (level_1 .. level_7, seed000_room, seed002_billiards,
    /// seed003_rects, arena, pi, plinko, bounce, ramps, pinball), a scene file (.toml) or a BricksBeater level
    /// (.dat). Levels are played by the game's rules, other scenes run as sandboxes. Default:
    /// level_1.
    #[arg(long, value_name = "NAME|FILE")]
    pub scene: Option<String>,

    /// Open a Tiled (.tmx, .tmj) or LDtk (.ldtk) map as a sandbox: its collision geometry with
    /// balls of radius 3 dropped at rest under the map's gravity (300, or as many as a smaller level holds; or --balls N).
    /// One-way platforms let balls through from below (the map's contact hook).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["scene", "save_replay"])]
    pub map: Option<PathBuf>,

    /// Play the platformer on a map's levels in order (an LDtk project's levels, or a Tiled
    /// map): run, jump, climb ladders, collect chests, dodge mobs, go through doors. Without
    /// FILE: LDtk's platformer sample, ../shared/maps/ldtk/Typical_2D_platformer_example.ldtk.
    /// With --sandbox: balls dropped on each level too (100, or --balls N). --save-replay
    /// records it (the replay names the map's path as given).
    #[arg(
        long,
        value_name = "FILE",
        num_args = 0..=1,
        default_missing_value = PLATFORMER_SAMPLE,
        conflicts_with_all = ["scene", "map"]
    )]
    pub platformer: Option<PathBuf>,

    /// With --map: the LDtk level, by identifier or 0-based index (default: the first).
    #[arg(long, value_name = "NAME", requires = "map")]
    pub level: Option<String>,

    /// Run the scene as a sandbox (physics only, no rules), even a level (with its 1000 balls).
    #[arg(long)]
    pub sandbox: bool,

    /// Balls: in a sandbox, the scene opens with N random balls (its `[spawn]` count, or N
    /// balls of radius 3 at 144 units/s added anywhere free); in a game, each launch fires N
    /// balls (the volley, default 10).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub balls: Option<u32>,

    /// Let the built-in autopilot play (the paddle chases the balls and launches by itself).
    #[arg(long)]
    pub autoplay: bool,

    /// Start with the debug view on (velocity lines, swept paths, contact normals, sleeping
    /// balls dimmed).
    #[arg(long)]
    pub debug: bool,

    /// Present exactly N frames, each advancing the game by 1/60 s (reproducible), then exit.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub frames: Option<u64>,

    /// With --frames: save the last frame presented, exactly the buffer the window shows, as
    /// a PNG file, and print a line `collide: screenshot FILE WxH after N frames`.
    #[arg(long, value_name = "FILE.png", requires = "frames")]
    pub screenshot: Option<PathBuf>,

    /// With --frames: keep the window open this many seconds after the last frame (for an
    /// external capture of the window), still drawing the last frame.
    #[arg(
        long,
        value_name = "SECONDS",
        requires = "frames",
        default_value_t = 0.0
    )]
    pub linger: f64,

    /// Record the session from the start and write it as a replay file when the app exits
    /// (Esc, window closed, or after --frames N), then print `collide: replay FILE (N steps)`.
    /// `collide replay FILE` checks it (docs/replay-format.md).
    #[arg(long, value_name = "FILE")]
    pub save_replay: Option<PathBuf>,

    /// Start with the sound off (M turns it on).
    #[arg(long)]
    pub mute: bool,

    /// Write the sound, exactly as it is played (mixed, mono, 44.1 kHz, 16-bit), to this WAV
    /// file, and print `collide: audio FILE (N samples, S s, peak P dBFS)` when the app exits.
    /// Works without a sound card; muted stretches are silent in the file too.
    #[arg(long, value_name = "FILE.wav")]
    pub record_audio: Option<PathBuf>,

    /// Initial window width, pixels.
    #[arg(long, default_value_t = 960, value_parser = clap::value_parser!(u32).range(64..=8192))]
    pub width: u32,

    /// Initial window height, pixels.
    #[arg(long, default_value_t = 720, value_parser = clap::value_parser!(u32).range(64..=8192))]
    pub height: u32,
}

impl Default for Args {
    /// What no flag gives: level 1 in a 960 × 720 window.
    fn default() -> Self {
        Args {
            scene: None,
            map: None,
            platformer: None,
            level: None,
            sandbox: false,
            balls: None,
            autoplay: false,
            debug: false,
            frames: None,
            screenshot: None,
            linger: 0.0,
            save_replay: None,
            mute: false,
            record_audio: None,
            width: 960,
            height: 720,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_flags() {
        let a = Args::try_parse_from(["x"]).unwrap();
        assert_eq!(a, Args::default());
        let a = Args::try_parse_from([
            "x",
            "--scene",
            "seed002_billiards",
            "--frames",
            "10",
            "--screenshot",
            "s.png",
            "--width",
            "800",
        ])
        .unwrap();
        assert_eq!(a.scene.as_deref(), Some("seed002_billiards"));
        assert_eq!((a.frames, a.width), (Some(10), 800));
        assert_eq!(a.screenshot, Some(PathBuf::from("s.png")));
        let a = Args::try_parse_from(["x", "--save-replay", "r.replay", "--autoplay"]).unwrap();
        assert_eq!(a.save_replay, Some(PathBuf::from("r.replay")));
        assert!(a.autoplay && a.frames.is_none());
        let a = Args::try_parse_from(["x", "--scene", "arena", "--balls", "50"]).unwrap();
        assert_eq!((a.scene.as_deref(), a.balls), (Some("arena"), Some(50)));
        assert!(!a.mute && a.record_audio.is_none());
        let a = Args::try_parse_from(["x", "--mute", "--record-audio", "out.wav"]).unwrap();
        assert!(a.mute);
        assert_eq!(a.record_audio, Some(PathBuf::from("out.wav")));
    }

    #[test]
    fn bad_flags_are_errors() {
        // A screenshot needs --frames; 0 frames and tiny windows are refused.
        assert!(Args::try_parse_from(["x", "--screenshot", "s.png"]).is_err());
        assert!(Args::try_parse_from(["x", "--frames", "0"]).is_err());
        assert!(Args::try_parse_from(["x", "--width", "10"]).is_err());
        assert!(Args::try_parse_from(["x", "--nope"]).is_err());
        assert!(Args::try_parse_from(["x", "--balls", "0"]).is_err());
        assert!(Args::try_parse_from(["x", "--balls", "many"]).is_err());
        assert!(Args::try_parse_from(["x", "--record-audio"]).is_err());
        assert!(Args::try_parse_from(["x", "--mute", "yes"]).is_err());
        // --level needs --map; a map is not a scene and is not recorded.
        assert!(Args::try_parse_from(["x", "--level", "Bottom"]).is_err());
        assert!(Args::try_parse_from(["x", "--map", "m.ldtk", "--scene", "arena"]).is_err());
        assert!(Args::try_parse_from(["x", "--map", "m.ldtk", "--save-replay", "r"]).is_err());
        let a = Args::try_parse_from(["x", "--platformer"]).unwrap();
        assert_eq!(a.platformer, Some(PathBuf::from(PLATFORMER_SAMPLE)));
        let a = Args::try_parse_from(["x", "--platformer", "p.ldtk", "--sandbox"]).unwrap();
        assert_eq!(a.platformer, Some(PathBuf::from("p.ldtk")));
        assert!(a.sandbox);
        assert!(Args::try_parse_from(["x", "--platformer", "--scene", "arena"]).is_err());
        let a = Args::try_parse_from(["x", "--map", "m.ldtk", "--level", "Bottom"]).unwrap();
        assert_eq!(
            (a.map, a.level.as_deref()),
            (Some(PathBuf::from("m.ldtk")), Some("Bottom"))
        );
    }
}
