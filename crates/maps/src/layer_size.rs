//! The size check of Tiled tile layers, before the `tiled` crate reads them: a layer (or an
//! infinite map's chunk) whose data holds fewer global ids than `width × height` makes the
//! `tiled` crate 0.15 index out of bounds (a panic), so both readers refuse it first with a
//! typed error: `.tmj` on its serde model (`tmj.rs`), `.tmx` on the XML's `<layer>` and
//! `<chunk>` elements read with `roxmltree` ([`check_tmx`]).

use std::io::Read as _;
use std::path::Path;

use crate::error::MapError;

/// A layer's data as the file holds it.
pub(crate) enum LayerData<'a> {
    /// Global ids already counted (a `.tmj` array, or `.tmx` `<tile>` elements).
    Count(u64),
    /// Comma-separated global ids (`.tmx` `encoding="csv"`).
    Csv(&'a str),
    /// Base64 of little-endian `u32`s, compressed as `compression` says (`zlib`, `gzip`;
    /// empty for none).
    Base64 {
        /// The text.
        text: &'a str,
        /// `zlib`, `gzip` or empty; another value is left to the `tiled` crate.
        compression: &'a str,
    },
}

/// The number of global ids in `data`, reading at most one past `want` of a compressed
/// stream; `Ok(None)` for a compression this check does not read (`zstd`: the `tiled`
/// crate's own error follows); `Err` with what is wrong with the data.
pub(crate) fn tile_count(data: &LayerData<'_>, want: u64) -> Result<Option<u64>, String> {
    use base64::Engine as _;
    match *data {
        LayerData::Count(n) => Ok(Some(n)),
        LayerData::Csv(text) => Ok(Some(
            text.split(',').filter(|t| !t.trim().is_empty()).count() as u64,
        )),
        LayerData::Base64 { text, compression } => {
            let clean: String = text.chars().filter(|c| !c.is_ascii_whitespace()).collect();
            let Ok(raw) = base64::engine::general_purpose::STANDARD.decode(clean) else {
                return Err("its data is not base64".to_owned());
            };
            let limit = want.saturating_mul(4).saturating_add(1);
            let mut out = Vec::new();
            let read = match compression {
                "" => {
                    out = raw;
                    Ok(0)
                }
                "zlib" => flate2::read::ZlibDecoder::new(&raw[..])
                    .take(limit)
                    .read_to_end(&mut out),
                "gzip" => flate2::read::GzDecoder::new(&raw[..])
                    .take(limit)
                    .read_to_end(&mut out),
                _ => return Ok(None),
            };
            if read.is_err() {
                return Err(format!("its {compression} data cannot be inflated"));
            }
            if out.len() % 4 != 0 {
                return Err(format!("{} bytes of data (4 a tile)", out.len()));
            }
            Ok(Some(out.len() as u64 / 4))
        }
    }
}

/// Checks that `data` holds exactly `width × height` global ids; `what` names the layer (or
/// chunk) in the error.
///
/// # Errors
/// [`MapError::Parse`] naming the layer, its size and what was found.
pub(crate) fn check(
    file: &Path,
    what: &str,
    width: u64,
    height: u64,
    data: &LayerData<'_>,
) -> Result<(), MapError> {
    let want = width.saturating_mul(height);
    let bad = |found: String| MapError::Parse {
        file: file.to_path_buf(),
        reason: format!("{what}: {width} x {height} tiles but {found}"),
    };
    match tile_count(data, want) {
        Ok(Some(found)) if found == want => Ok(()),
        Ok(Some(found)) => Err(bad(format!("{found} tiles of data"))),
        Ok(None) => Ok(()),
        Err(why) => Err(bad(why)),
    }
}

/// Checks every tile layer of the `.tmx` document `xml` (`<layer>` elements anywhere, in
/// groups too, and the `<chunk>`s of an infinite map's layers) with [`check`]. A document
/// that is not well-formed XML passes: the `tiled` crate reports it with its line.
///
/// # Errors
/// [`MapError::Parse`] naming the first layer (`layer "name" (id N)`) or chunk whose data
/// does not hold its size's count of tiles.
pub(crate) fn check_tmx(file: &Path, xml: &[u8]) -> Result<(), MapError> {
    let Ok(text) = std::str::from_utf8(xml) else {
        return Ok(());
    };
    let Ok(doc) = roxmltree::Document::parse(text) else {
        return Ok(());
    };
    let num = |n: roxmltree::Node<'_, '_>, a: &str| {
        n.attribute(a)
            .and_then(|v| v.trim().parse::<u64>().ok())
            .unwrap_or(0)
    };
    for layer in doc.descendants().filter(|n| n.has_tag_name("layer")) {
        let name = format!(
            "layer {:?} (id {})",
            layer.attribute("name").unwrap_or(""),
            layer.attribute("id").unwrap_or("?")
        );
        let Some(data) = layer.children().find(|n| n.has_tag_name("data")) else {
            continue;
        };
        let encoding = data.attribute("encoding").unwrap_or("");
        let compression = data.attribute("compression").unwrap_or("");
        let chunks: Vec<_> = data
            .children()
            .filter(|n| n.has_tag_name("chunk"))
            .collect();
        if chunks.is_empty() {
            check(
                file,
                &name,
                num(layer, "width"),
                num(layer, "height"),
                &read(data, encoding, compression),
            )?;
        }
        for (i, chunk) in chunks.into_iter().enumerate() {
            let what = format!("{name}, chunk {i}");
            // The `tiled` crate adds a chunk's size to its position in `i32`.
            let at = |a: &str| {
                chunk
                    .attribute(a)
                    .and_then(|v| v.trim().parse::<i64>().ok())
                    .unwrap_or(0)
            };
            let (x, y) = (at("x"), at("y"));
            let (w, h) = (num(chunk, "width"), num(chunk, "height"));
            let past = |p: i64, n: u64| {
                p.saturating_add(i64::try_from(n).unwrap_or(i64::MAX)) > i64::from(i32::MAX)
            };
            if past(x, w) || past(y, h) {
                return Err(MapError::Parse {
                    file: file.to_path_buf(),
                    reason: format!("{what}: at ({x}, {y}), {w} x {h} tiles reach past the largest tile position"),
                });
            }
            check(
                file,
                &what,
                num(chunk, "width"),
                num(chunk, "height"),
                &read(chunk, encoding, compression),
            )?;
        }
    }
    Ok(())
}

/// The data of a `<data>` or `<chunk>` element `node` in `encoding` (`csv`, `base64`, or
/// none: `<tile>` elements).
fn read<'a>(node: roxmltree::Node<'a, 'a>, encoding: &str, compression: &'a str) -> LayerData<'a> {
    match encoding {
        "csv" => LayerData::Csv(node.text().unwrap_or("")),
        "base64" => LayerData::Base64 {
            text: node.text().unwrap_or(""),
            compression,
        },
        _ => LayerData::Count(node.children().filter(|c| c.has_tag_name("tile")).count() as u64),
    }
}
