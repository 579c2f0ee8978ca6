//! # collide-maps
//!
//! Maps drawn in the level editors people use, loaded as collide scenes: Tiled (`.tmx`, with
//! its `.tsx` tilesets, through the `tiled` crate; and Tiled JSON, `.tmj` with `.tsj` tilesets,
//! read with serde and handed to the `tiled` crate as XML; feature `tiled`) and LDtk (`.ldtk`, feature
//! `ldtk`, through the `ldtk2` crate). Tile and IntGrid layers become grid cells (walls,
//! bricks, slopes, sensors: a floor of many tiles is one face, with no seam), objects become
//! static, kinematic or sensor rectangles, closed or open polylines and circles, one-way
//! platforms become one-way rectangles ([`collide_world::Surface::one_way`]), and every object and
//! entity is kept in a table the game reads by name or editor id
//! ([`MapLevel::object`]). The mapping is configurable ([`MapConfig`]); its defaults are the
//! tables of `docs/maps.md`. What is not turned into geometry is listed in a [`MapReport`];
//! what cannot be mapped is a typed [`MapError`] naming the file, layer and object.
//!
//! Depends on `collide-world`'s public API, the two parsers and `thiserror`; never on a
//! renderer, a window or a game's rules.
//!
//! # Conventions
//! A map's pixels are world units; x right, y down, as in collide. A level's scene has its
//! top-left corner at `(0, 0)`; [`MapLevel::world_offset`] says where it lies in the map's
//! world.
//!
//! # Example
//! ```no_run
//! let level = collide_maps::load("level.ldtk", Some("Bottom"), &collide_maps::MapConfig::default())?;
//! let mut world = level.world()?;
//! world.step();
//! if let Some(player) = level.object("Player") {
//!     println!("player at {:?}", player.pos);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod build;
pub mod config;
pub mod error;
#[cfg(feature = "tiled")]
mod layer_size;
#[cfg(feature = "ldtk")]
pub mod ldtk;
pub mod model;
#[cfg(feature = "tiled")]
pub mod tiled;
#[cfg(feature = "tiled")]
mod tmj;
mod wire;

use std::path::Path;

pub use build::merge_bands;
pub use config::{MapConfig, Rule};
pub use error::MapError;
pub use model::{FieldValue, MapLevel, MapObject, MapReport, ObjectBody};
pub use wire::MAP_WIRE_VERSION;

/// Whether `path` names a map this crate reads by its extension (`.tmx`, `.tmj`, `.ldtk`).
#[must_use]
pub fn is_map_path(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        ["tmx", "tmj", "ldtk"]
            .iter()
            .any(|x| e.eq_ignore_ascii_case(x))
    })
}

/// Loads one level of the map `path`, chosen by its extension: `.ldtk` (the level named
/// `level`, or whose 0-based index it is, or the first), `.tmx` or `.tmj` (the map is the
/// level; `level` must be `None` or the map's file stem).
///
/// # Errors
/// [`MapError`] from the loader; [`MapError::UnsupportedFormat`] for another extension or a
/// format whose feature is off.
pub fn load(
    path: impl AsRef<Path>,
    level: Option<&str>,
    cfg: &MapConfig,
) -> Result<MapLevel, MapError> {
    let path = path.as_ref();
    #[cfg(not(any(feature = "tiled", feature = "ldtk")))]
    let _ = (level, cfg);
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    match ext.as_str() {
        #[cfg(feature = "ldtk")]
        "ldtk" => ldtk::load_ldtk(path, level, cfg),
        #[cfg(feature = "tiled")]
        "tmx" | "tmj" => {
            let map = tiled::load_tmx(path, cfg)?;
            match level {
                Some(l) if l != map.name => Err(MapError::NoSuchLevel {
                    file: path.to_path_buf(),
                    wanted: l.to_owned(),
                    available: vec![map.name],
                }),
                _ => Ok(map),
            }
        }
        _ => Err(MapError::UnsupportedFormat {
            file: path.to_path_buf(),
            reason: format!(
                "unknown extension {ext:?}: collide reads .tmx and .tmj (feature tiled) and .ldtk (feature ldtk)"
            ),
        }),
    }
}
