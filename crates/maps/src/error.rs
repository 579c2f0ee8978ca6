//! Why a map was refused: [`MapError`], naming the file and, where there is one, the layer, the
//! object and what is wrong.

use std::path::PathBuf;

/// Why a map could not be loaded. Every variant names the map's file; those about one layer or
/// object name it too (Tiled object ids are decimal numbers, LDtk entity ids their `iid`).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MapError {
    /// The map file itself could not be read.
    #[error("{file}: cannot read the map: {source}")]
    Io {
        /// The map's file.
        file: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// A file the map refers to (a tileset `.tsx` or `.tsj`, a template `.tx` or `.tj`, an LDtk
    /// level file)
    /// does not exist or cannot be read.
    #[error("{file}: the file {missing} it refers to cannot be read: {reason}")]
    MissingFile {
        /// The map's file.
        file: PathBuf,
        /// The file it refers to, as resolved from the map's folder.
        missing: PathBuf,
        /// The reader's error.
        reason: String,
    },
    /// The parser (the `tiled` or `ldtk2` crate) rejected the text: malformed XML or JSON, a
    /// missing attribute, a layer encoding or compression it cannot read (`zstd`, an unknown
    /// `encoding`), an invalid property type. `reason` is the parser's message (with the
    /// line and column for JSON).
    #[error("{file}: {reason}")]
    Parse {
        /// The map's file.
        file: PathBuf,
        /// The parser's message.
        reason: String,
    },
    /// The map's format is not one collide reads (a `.world` file, an unknown extension).
    #[error("{file}: unsupported map format: {reason}")]
    UnsupportedFormat {
        /// The map's file.
        file: PathBuf,
        /// What is not supported.
        reason: String,
    },
    /// A Tiled map whose orientation is not orthogonal (isometric, staggered, hexagonal).
    #[error("{file}: the map's orientation is {orientation}; only orthogonal maps can become collide worlds")]
    UnsupportedOrientation {
        /// The map's file.
        file: PathBuf,
        /// The orientation found.
        orientation: String,
    },
    /// A Tiled map saved as infinite (its tile layers in chunks).
    #[error("{file}: the map is infinite (chunked tile layers); save it as a fixed-size map (Map > Map Properties > Infinite off)")]
    InfiniteMap {
        /// The map's file.
        file: PathBuf,
    },
    /// Tiles that are not square: collide's grid cells are squares.
    #[error(
        "{file}: layer {layer:?}: tiles of {width} x {height} px; collide's grid cells are square"
    )]
    NonSquareTiles {
        /// The map's file.
        file: PathBuf,
        /// The layer (or `"map"` for the map's own tile size).
        layer: String,
        /// Tile width, px.
        width: u32,
        /// Tile height, px.
        height: u32,
    },
    /// Two cell layers that cannot share one grid (different cell sizes or offsets), or a
    /// grid over collide's limits.
    #[error("{file}: layer {layer:?}: {reason}")]
    Grid {
        /// The map's file.
        file: PathBuf,
        /// The layer.
        layer: String,
        /// What is wrong.
        reason: String,
    },
    /// A custom property with a value the mapping cannot use (`collide = "slope:5"`, a
    /// negative restitution, a `layers` mask that is not an integer...).
    #[error("{file}: layer {layer:?}, {object}: property {property:?}: {reason}")]
    BadProperty {
        /// The map's file.
        file: PathBuf,
        /// The layer.
        layer: String,
        /// The object (`object 12`), tile (`tile 3 of tileset "walls"`) or IntGrid value.
        object: String,
        /// The property.
        property: String,
        /// What is wrong.
        reason: String,
    },
    /// An object marked as a collider whose shape collide cannot represent (a text object, a
    /// non-round ellipse, a zero-size rectangle, a rotated one-way platform, a non-finite
    /// coordinate).
    #[error("{file}: layer {layer:?}, object {object}: {reason}")]
    Unmappable {
        /// The map's file.
        file: PathBuf,
        /// The layer.
        layer: String,
        /// The object's editor id.
        object: String,
        /// What cannot be mapped and why.
        reason: String,
    },
    /// No level of that name or index (LDtk).
    #[error("{file}: no level {wanted:?}; the levels are {available:?}")]
    NoSuchLevel {
        /// The map's file.
        file: PathBuf,
        /// The name or index asked for.
        wanted: String,
        /// The levels' names, in the file's order.
        available: Vec<String>,
    },
    /// Bytes that are not a level written by [`crate::MapLevel::to_bytes`] (or a level that
    /// cannot be written).
    #[error("{file}: map level bytes: {reason}")]
    Bytes {
        /// The bytes' source (an embedded file's name).
        file: PathBuf,
        /// What is wrong.
        reason: String,
    },
}
