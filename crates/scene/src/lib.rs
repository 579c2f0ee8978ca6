//! # collide-scene
//!
//! Scene files for `collide-world`: the TOML scene format ([`from_toml_str`], [`load`]) and
//! BricksBeater's `.dat` levels ([`level`]), each turned into a [`collide_world::Scene`], the
//! plain description [`collide_world::World::from_scene`] builds a world from. Add this crate
//! next to `collide-world` when a game loads scenes from text or files; a world built in code
//! needs only `collide-world`, which reads no file and parses no text format.
//!
//! The format is documented key by key in `docs/scene-format.md`; in short:
//!
//! ```toml
//! name = "demo"                      # optional, default: the file stem
//! [world]
//! size = [640.0, 480.0]              # the world rectangle is [0,0]-[w,h]
//! walls = ["left", "top", "right"]   # sides that reflect (default: all four)
//! [grid]                             # optional
//! cell = 10.0
//! origin = [0.0, 0.0]                # optional
//! rows = ["#####", "#   #", "#RYG#"] # or level = "levels/level_1.dat", or [grid.random]
//! [[ball]]
//! pos = [50.0, 60.0]
//! vel = [120.0, -30.0]               # optional
//! radius = 3.0
//! [[rect]]
//! min = [200.0, 400.0]
//! max = [280.0, 406.0]
//! kind = "kinematic"                 # optional, default "static"
//! [spawn]                            # optional
//! count = 1000
//! radius = 3.0
//! speed = 144.0
//! [step]                             # optional
//! ball_ball = false
//! ```
//!
//! # Errors
//! Every problem is a [`SceneError`] naming the file, the 1-based line and the field (a dotted
//! path such as `ball[2].radius`, array indices 0-based). Parsing never panics, and every
//! size limit ([`collide_world::limits`], [`MAX_SCENE_BYTES`], [`MAX_LEVEL_BYTES`]) is checked
//! before the memory it guards is allocated.
//!
//! # Example
//! ```
//! use collide_world::{Vec2, World};
//! // A scene without `grid.level` reads no level file.
//! let no_levels = |p: &str| -> Result<String, std::io::Error> {
//!     Err(std::io::Error::new(std::io::ErrorKind::NotFound, p.to_owned()))
//! };
//! let text = "[world]\nsize = [64, 48]\n[[ball]]\npos = [10, 10]\nradius = 2\n";
//! let scene = collide_scene::from_toml_str(text, "box.toml", &no_levels).unwrap();
//! assert_eq!(scene.size, Vec2::new(64.0, 48.0));
//! let world = World::from_scene(&scene).unwrap();
//! assert_eq!(world.balls().len(), 1);
//! ```
//!
//! # Dependencies
//! `collide-world` (the descriptions and limits), `toml`/`toml_parser` and `serde` (the
//! format), `thiserror`. It must never depend on a renderer, a window, a game's rules or a
//! command-line crate (`tests/it/layering.rs`).

mod errors;
mod files;
pub mod level;
mod limits;
mod locate;
mod parse;
mod pieces;
mod random_grid;
mod raw;
mod validate;

pub use errors::SceneError;
pub use files::{load, load_with, read_level_file, LevelFiles};
pub use limits::{MAX_LEVEL_BYTES, MAX_SCENE_BYTES};
pub use parse::from_toml_str;
pub use random_grid::random_grid;

/// The crate's README, whose code blocks are compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
