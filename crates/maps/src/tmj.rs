//! Tiled's JSON formats read with serde: maps (`.tmj`), tilesets (`.tsj`) and templates
//! (`.tj`), after Tiled's published JSON map format
//! (<https://doc.mapeditor.org/en/stable/reference/json-map-format/>).
//!
//! The `tiled` crate reads only Tiled's XML formats, so a JSON file is deserialized into the
//! structs below and written back as the equivalent XML document (`.tmx`, `.tsx`, `.tx`),
//! which the `tiled` crate then parses into the same `tiled::Map` a `.tmx` gives: the mapping
//! rules of [`crate::tiled`] are the only ones, and a `.tmj` map loads into exactly the world
//! its `.tmx` twin loads into. Numbers are written back with Rust's shortest round-trip
//! formatting, so the `tiled` crate reads the values the JSON holds.

use std::fmt::Write as _;
use std::path::Path;

use serde::Deserialize;
use serde_json::Value;

use crate::error::MapError;

/// A custom property: `type` is `string` (the default), `int`, `float`, `bool`, `color`,
/// `file`, `object` or `class` (then `value` is an object of its members).
#[derive(Deserialize)]
struct Property {
    name: String,
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(default)]
    propertytype: Option<String>,
    value: Value,
}

/// A point of a polygon or polyline, relative to its object.
#[derive(Deserialize)]
struct Point {
    x: f64,
    y: f64,
}

/// A map (`"type": "map"`).
#[derive(Deserialize)]
struct JsonMap {
    #[serde(default)]
    version: Option<Value>,
    #[serde(default)]
    tiledversion: Option<String>,
    orientation: String,
    #[serde(default)]
    renderorder: Option<String>,
    width: u32,
    height: u32,
    tilewidth: u32,
    tileheight: u32,
    #[serde(default)]
    infinite: bool,
    #[serde(default)]
    hexsidelength: Option<i64>,
    #[serde(default)]
    staggeraxis: Option<String>,
    #[serde(default)]
    staggerindex: Option<String>,
    #[serde(default)]
    backgroundcolor: Option<String>,
    #[serde(default)]
    class: Option<String>,
    #[serde(default)]
    nextlayerid: Option<u32>,
    #[serde(default)]
    nextobjectid: Option<u32>,
    #[serde(default)]
    properties: Vec<Property>,
    #[serde(default)]
    tilesets: Vec<Tileset>,
    layers: Vec<Layer>,
}

/// A layer: `type` is `tilelayer`, `objectgroup`, `imagelayer` or `group`.
#[derive(Deserialize)]
struct Layer {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    id: Option<u32>,
    #[serde(default)]
    name: String,
    #[serde(default)]
    class: Option<String>,
    #[serde(default)]
    opacity: Option<f64>,
    #[serde(default)]
    visible: Option<bool>,
    #[serde(default)]
    offsetx: Option<f64>,
    #[serde(default)]
    offsety: Option<f64>,
    #[serde(default)]
    parallaxx: Option<f64>,
    #[serde(default)]
    parallaxy: Option<f64>,
    #[serde(default)]
    tintcolor: Option<String>,
    #[serde(default)]
    properties: Vec<Property>,
    // Tile layers.
    #[serde(default)]
    width: Option<u32>,
    #[serde(default)]
    height: Option<u32>,
    #[serde(default)]
    data: Option<Data>,
    #[serde(default)]
    encoding: Option<String>,
    #[serde(default)]
    compression: Option<String>,
    #[serde(default)]
    chunks: Option<Value>,
    // Object layers.
    #[serde(default)]
    objects: Vec<Object>,
    #[serde(default)]
    draworder: Option<String>,
    #[serde(default)]
    color: Option<String>,
    // Image layers.
    #[serde(default)]
    image: Option<String>,
    #[serde(default)]
    transparentcolor: Option<String>,
    #[serde(default)]
    repeatx: Option<bool>,
    #[serde(default)]
    repeaty: Option<bool>,
    // Group layers.
    #[serde(default)]
    layers: Vec<Layer>,
}

/// A tile layer's cells: global tile ids (flip bits included), or a base64 string.
#[derive(Deserialize)]
#[serde(untagged)]
enum Data {
    Gids(Vec<u32>),
    Base64(String),
}

/// An object; every field but `id` may be absent (then a template's value applies).
#[derive(Deserialize)]
struct Object {
    #[serde(default)]
    id: Option<u32>,
    #[serde(default)]
    name: Option<String>,
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(default)]
    class: Option<String>,
    #[serde(default)]
    x: Option<f64>,
    #[serde(default)]
    y: Option<f64>,
    #[serde(default)]
    width: Option<f64>,
    #[serde(default)]
    height: Option<f64>,
    #[serde(default)]
    rotation: Option<f64>,
    #[serde(default)]
    gid: Option<u32>,
    #[serde(default)]
    visible: Option<bool>,
    #[serde(default)]
    template: Option<String>,
    #[serde(default)]
    ellipse: bool,
    #[serde(default)]
    point: bool,
    #[serde(default)]
    polygon: Option<Vec<Point>>,
    #[serde(default)]
    polyline: Option<Vec<Point>>,
    #[serde(default)]
    text: Option<Text>,
    #[serde(default)]
    properties: Vec<Property>,
}

/// A text object's text and style.
#[derive(Deserialize)]
struct Text {
    text: String,
    #[serde(default)]
    fontfamily: Option<String>,
    #[serde(default)]
    pixelsize: Option<u32>,
    #[serde(default)]
    wrap: Option<bool>,
    #[serde(default)]
    color: Option<String>,
    #[serde(default)]
    bold: Option<bool>,
    #[serde(default)]
    italic: Option<bool>,
    #[serde(default)]
    underline: Option<bool>,
    #[serde(default)]
    strikeout: Option<bool>,
    #[serde(default)]
    kerning: Option<bool>,
    #[serde(default)]
    halign: Option<String>,
    #[serde(default)]
    valign: Option<String>,
}

/// A tileset: a reference (`firstgid` and `source`, a `.tsj` or `.tsx` file) or embedded.
#[derive(Deserialize)]
struct Tileset {
    #[serde(default)]
    firstgid: Option<u32>,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    class: Option<String>,
    #[serde(default)]
    tilewidth: Option<u32>,
    #[serde(default)]
    tileheight: Option<u32>,
    #[serde(default)]
    tilecount: Option<u32>,
    #[serde(default)]
    columns: Option<u32>,
    #[serde(default)]
    spacing: Option<u32>,
    #[serde(default)]
    margin: Option<u32>,
    #[serde(default)]
    objectalignment: Option<String>,
    #[serde(default)]
    image: Option<String>,
    #[serde(default)]
    imagewidth: Option<i64>,
    #[serde(default)]
    imageheight: Option<i64>,
    #[serde(default)]
    transparentcolor: Option<String>,
    #[serde(default)]
    tileoffset: Option<Point>,
    #[serde(default)]
    properties: Vec<Property>,
    #[serde(default)]
    tiles: Vec<Tile>,
}

/// One tile of a tileset with its own data.
#[derive(Deserialize)]
struct Tile {
    id: u32,
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(default)]
    class: Option<String>,
    #[serde(default)]
    probability: Option<f64>,
    #[serde(default)]
    image: Option<String>,
    #[serde(default)]
    imagewidth: Option<i64>,
    #[serde(default)]
    imageheight: Option<i64>,
    #[serde(default)]
    properties: Vec<Property>,
    #[serde(default)]
    objectgroup: Option<Layer>,
    #[serde(default)]
    animation: Vec<Frame>,
}

/// A frame of a tile's animation.
#[derive(Deserialize)]
struct Frame {
    tileid: u32,
    duration: u32,
}

/// A template (`.tj`): an object and the tileset its `gid` refers to.
#[derive(Deserialize)]
struct Template {
    #[serde(default)]
    tileset: Option<Tileset>,
    object: Object,
}

/// An XML document being written.
struct Xml(String);

impl Xml {
    fn new() -> Self {
        Xml(String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"))
    }

    /// Escapes `s` for an attribute value or text (line breaks kept as character references).
    fn escape(&mut self, s: &str) {
        for c in s.chars() {
            match c {
                '&' => self.0.push_str("&amp;"),
                '<' => self.0.push_str("&lt;"),
                '>' => self.0.push_str("&gt;"),
                '"' => self.0.push_str("&quot;"),
                '\n' => self.0.push_str("&#10;"),
                '\r' => self.0.push_str("&#13;"),
                '\t' => self.0.push_str("&#9;"),
                c => self.0.push(c),
            }
        }
    }

    fn open(&mut self, tag: &str) {
        self.0.push('<');
        self.0.push_str(tag);
    }

    fn attr(&mut self, name: &str, value: impl std::fmt::Display) {
        let text = value.to_string();
        let _ = write!(self.0, " {name}=\"");
        self.escape(&text);
        self.0.push('"');
    }

    fn opt(&mut self, name: &str, value: Option<impl std::fmt::Display>) {
        if let Some(v) = value {
            self.attr(name, v);
        }
    }

    fn flag(&mut self, name: &str, value: Option<bool>) {
        self.opt(name, value.map(u8::from));
    }

    fn end_open(&mut self) {
        self.0.push('>');
    }

    fn self_close(&mut self) {
        self.0.push_str("/>");
    }

    fn close(&mut self, tag: &str) {
        let _ = write!(self.0, "</{tag}>");
    }

    fn properties(&mut self, props: &[Property]) {
        if props.is_empty() {
            return;
        }
        self.0.push_str("<properties>");
        for p in props {
            self.property(
                &p.name,
                p.kind.as_deref(),
                p.propertytype.as_deref(),
                &p.value,
            );
        }
        self.0.push_str("</properties>");
    }

    /// One property; a class's members carry no type in JSON, so theirs is the JSON value's.
    fn property(&mut self, name: &str, kind: Option<&str>, class: Option<&str>, value: &Value) {
        let kind = kind.unwrap_or(match value {
            Value::Bool(_) => "bool",
            Value::Number(n) if n.is_i64() || n.is_u64() => "int",
            Value::Number(_) => "float",
            Value::Object(_) => "class",
            _ => "string",
        });
        self.open("property");
        self.attr("name", name);
        self.attr("type", kind);
        self.opt("propertytype", class);
        if let (Value::Object(members), "class") = (value, kind) {
            self.end_open();
            if !members.is_empty() {
                self.0.push_str("<properties>");
                for (k, v) in members {
                    self.property(k, None, None, v);
                }
                self.0.push_str("</properties>");
            }
            self.close("property");
            return;
        }
        match value {
            Value::String(s) => self.attr("value", s),
            Value::Null => self.attr("value", ""),
            other => self.attr("value", other),
        }
        self.self_close();
    }
}

/// Deserializes `bytes` as `T`; the error names the JSON path, line and column.
fn parse<'a, T: Deserialize<'a>>(file: &Path, bytes: &'a [u8]) -> Result<T, MapError> {
    let de = &mut serde_json::Deserializer::from_slice(bytes);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let reason = if path == "." || path.is_empty() {
            format!("invalid JSON: {inner}")
        } else {
            format!("invalid JSON at {path}: {inner}")
        };
        MapError::Parse {
            file: file.to_path_buf(),
            reason,
        }
    })
}

/// The `.tmx` document equivalent to the `.tmj` map `bytes` of `file`.
///
/// # Errors
/// [`MapError::Parse`] for text that is not a Tiled JSON map (naming the JSON path, line and
/// column); [`MapError::InfiniteMap`] for an infinite map (its tile layers are chunks).
pub(crate) fn map_to_tmx(file: &Path, bytes: &[u8]) -> Result<Vec<u8>, MapError> {
    let map: JsonMap = parse(file, bytes)?;
    if map.infinite {
        return Err(MapError::InfiniteMap {
            file: file.to_path_buf(),
        });
    }
    let mut x = Xml::new();
    x.open("map");
    x.opt(
        "version",
        map.version.as_ref().map(|v| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        }),
    );
    x.opt("tiledversion", map.tiledversion.as_ref());
    x.opt("class", map.class.as_ref());
    x.attr("orientation", &map.orientation);
    x.opt("renderorder", map.renderorder.as_ref());
    x.attr("width", map.width);
    x.attr("height", map.height);
    x.attr("tilewidth", map.tilewidth);
    x.attr("tileheight", map.tileheight);
    x.opt("hexsidelength", map.hexsidelength);
    x.opt("staggeraxis", map.staggeraxis.as_ref());
    x.opt("staggerindex", map.staggerindex.as_ref());
    x.attr("infinite", 0);
    x.opt("backgroundcolor", map.backgroundcolor.as_ref());
    x.opt("nextlayerid", map.nextlayerid);
    x.opt("nextobjectid", map.nextobjectid);
    x.end_open();
    x.properties(&map.properties);
    for t in &map.tilesets {
        tileset(&mut x, t, true);
    }
    for l in &map.layers {
        layer(&mut x, file, l)?;
    }
    x.close("map");
    Ok(x.0.into_bytes())
}

/// The `.tsx` document equivalent to the `.tsj` tileset `bytes` of `file`.
///
/// # Errors
/// [`MapError::Parse`] for text that is not a Tiled JSON tileset.
pub(crate) fn tileset_to_tsx(file: &Path, bytes: &[u8]) -> Result<Vec<u8>, MapError> {
    let t: Tileset = parse(file, bytes)?;
    let mut x = Xml::new();
    tileset(&mut x, &t, false);
    Ok(x.0.into_bytes())
}

/// The `.tx` document equivalent to the `.tj` template `bytes` of `file`.
///
/// # Errors
/// [`MapError::Parse`] for text that is not a Tiled JSON template.
pub(crate) fn template_to_tx(file: &Path, bytes: &[u8]) -> Result<Vec<u8>, MapError> {
    let t: Template = parse(file, bytes)?;
    let mut x = Xml::new();
    x.open("template");
    x.end_open();
    if let Some(ts) = &t.tileset {
        tileset(&mut x, ts, true);
    }
    object(&mut x, &t.object);
    x.close("template");
    Ok(x.0.into_bytes())
}

/// A `<tileset>`: a reference when it has a `source`, else embedded (with its `firstgid` in a
/// map, without in a tileset file).
fn tileset(x: &mut Xml, t: &Tileset, in_map: bool) {
    x.open("tileset");
    if in_map {
        x.opt("firstgid", t.firstgid);
    }
    if let Some(source) = &t.source {
        x.attr("source", source);
        x.self_close();
        return;
    }
    x.opt("name", t.name.as_ref());
    x.opt("class", t.class.as_ref());
    x.opt("tilewidth", t.tilewidth);
    x.opt("tileheight", t.tileheight);
    x.opt("spacing", t.spacing);
    x.opt("margin", t.margin);
    x.opt("tilecount", t.tilecount);
    x.opt("columns", t.columns);
    x.opt("objectalignment", t.objectalignment.as_ref());
    x.end_open();
    if let Some(o) = &t.tileoffset {
        x.open("tileoffset");
        x.attr("x", o.x);
        x.attr("y", o.y);
        x.self_close();
    }
    x.properties(&t.properties);
    if let Some(src) = &t.image {
        image(
            x,
            src,
            t.imagewidth,
            t.imageheight,
            t.transparentcolor.as_ref(),
        );
    }
    for tile in &t.tiles {
        x.open("tile");
        x.attr("id", tile.id);
        x.opt("type", tile.kind.as_ref());
        x.opt("class", tile.class.as_ref());
        x.opt("probability", tile.probability);
        x.end_open();
        x.properties(&tile.properties);
        if let Some(src) = &tile.image {
            image(x, src, tile.imagewidth, tile.imageheight, None);
        }
        if let Some(group) = &tile.objectgroup {
            object_group(x, group);
        }
        if !tile.animation.is_empty() {
            x.0.push_str("<animation>");
            for f in &tile.animation {
                x.open("frame");
                x.attr("tileid", f.tileid);
                x.attr("duration", f.duration);
                x.self_close();
            }
            x.0.push_str("</animation>");
        }
        x.close("tile");
    }
    x.close("tileset");
}

fn image(x: &mut Xml, src: &str, w: Option<i64>, h: Option<i64>, trans: Option<&String>) {
    x.open("image");
    x.attr("source", src);
    x.opt("width", w);
    x.opt("height", h);
    x.opt("trans", trans.map(|t| t.trim_start_matches('#').to_owned()));
    x.self_close();
}

/// The attributes every kind of layer has.
fn layer_attrs(x: &mut Xml, l: &Layer) {
    x.opt("id", l.id);
    x.attr("name", &l.name);
    x.opt("class", l.class.as_ref());
    x.opt("opacity", l.opacity);
    x.flag("visible", l.visible);
    x.opt("tintcolor", l.tintcolor.as_ref());
    x.opt("offsetx", l.offsetx);
    x.opt("offsety", l.offsety);
    x.opt("parallaxx", l.parallaxx);
    x.opt("parallaxy", l.parallaxy);
}

fn layer(x: &mut Xml, file: &Path, l: &Layer) -> Result<(), MapError> {
    match l.kind.as_str() {
        "tilelayer" => {
            if l.chunks.is_some() {
                return Err(MapError::InfiniteMap {
                    file: file.to_path_buf(),
                });
            }
            check_layer_size(file, l)?;
            x.open("layer");
            layer_attrs(x, l);
            x.opt("width", l.width);
            x.opt("height", l.height);
            x.end_open();
            x.properties(&l.properties);
            x.open("data");
            match &l.data {
                Some(Data::Gids(gids)) => {
                    x.attr("encoding", "csv");
                    x.end_open();
                    for (i, g) in gids.iter().enumerate() {
                        if i > 0 {
                            x.0.push(',');
                        }
                        let _ = write!(x.0, "{g}");
                    }
                }
                Some(Data::Base64(text)) => {
                    x.attr("encoding", l.encoding.as_deref().unwrap_or("base64"));
                    x.opt("compression", l.compression.as_ref().filter(|c| !c.is_empty()));
                    x.end_open();
                    x.escape(text);
                }
                None => x.end_open(),
            }
            x.close("data");
            x.close("layer");
        }
        "objectgroup" => object_group(x, l),
        "imagelayer" => {
            x.open("imagelayer");
            layer_attrs(x, l);
            x.flag("repeatx", l.repeatx);
            x.flag("repeaty", l.repeaty);
            x.end_open();
            x.properties(&l.properties);
            if let Some(src) = l.image.as_ref().filter(|s| !s.is_empty()) {
                image(x, src, None, None, l.transparentcolor.as_ref());
            }
            x.close("imagelayer");
        }
        "group" => {
            x.open("group");
            layer_attrs(x, l);
            x.end_open();
            x.properties(&l.properties);
            for child in &l.layers {
                layer(x, file, child)?;
            }
            x.close("group");
        }
        other => {
            return Err(MapError::Parse {
                file: file.to_path_buf(),
                reason: format!(
                    "layer {:?}: unknown layer type {other:?} (tilelayer, objectgroup, imagelayer, group)",
                    l.name
                ),
            })
        }
    }
    Ok(())
}

/// Checks that the tile layer `l` holds exactly `width × height` global ids (the `tiled` crate
/// indexes a shorter layer out of bounds): [`crate::layer_size::check`].
///
/// # Errors
/// [`MapError::Parse`] naming the layer, its size and the count found.
fn check_layer_size(file: &Path, l: &Layer) -> Result<(), MapError> {
    use crate::layer_size::{check, LayerData};
    let data = match &l.data {
        None => LayerData::Count(0),
        Some(Data::Gids(g)) => LayerData::Count(g.len() as u64),
        Some(Data::Base64(text)) => LayerData::Base64 {
            text,
            compression: l.compression.as_deref().unwrap_or(""),
        },
    };
    let what = format!("layer {:?}", l.name);
    let (w, h) = (l.width.unwrap_or(0), l.height.unwrap_or(0));
    check(file, &what, u64::from(w), u64::from(h), &data)
}

fn object_group(x: &mut Xml, l: &Layer) {
    x.open("objectgroup");
    layer_attrs(x, l);
    x.opt("color", l.color.as_ref());
    x.opt("draworder", l.draworder.as_ref());
    x.end_open();
    x.properties(&l.properties);
    for o in &l.objects {
        object(x, o);
    }
    x.close("objectgroup");
}

fn points(x: &mut Xml, tag: &str, pts: &[Point]) {
    x.open(tag);
    let text: Vec<String> = pts.iter().map(|p| format!("{},{}", p.x, p.y)).collect();
    x.attr("points", text.join(" "));
    x.self_close();
}

fn object(x: &mut Xml, o: &Object) {
    x.open("object");
    x.opt("id", o.id);
    x.opt("name", o.name.as_ref().filter(|s| !s.is_empty()));
    x.opt("type", o.kind.as_ref().filter(|s| !s.is_empty()));
    x.opt("class", o.class.as_ref().filter(|s| !s.is_empty()));
    x.opt("gid", o.gid);
    x.opt("template", o.template.as_ref());
    x.opt("x", o.x);
    x.opt("y", o.y);
    // Tiled writes 0 for a point's or polygon's size in JSON and nothing in XML.
    x.opt("width", o.width.filter(|w| *w != 0.0));
    x.opt("height", o.height.filter(|h| *h != 0.0));
    x.opt("rotation", o.rotation.filter(|r| *r != 0.0));
    x.flag("visible", o.visible);
    x.end_open();
    x.properties(&o.properties);
    if o.ellipse {
        x.0.push_str("<ellipse/>");
    }
    if o.point {
        x.0.push_str("<point/>");
    }
    if let Some(p) = &o.polygon {
        points(x, "polygon", p);
    }
    if let Some(p) = &o.polyline {
        points(x, "polyline", p);
    }
    if let Some(t) = &o.text {
        x.open("text");
        x.opt("fontfamily", t.fontfamily.as_ref());
        x.opt("pixelsize", t.pixelsize);
        x.flag("wrap", t.wrap);
        x.opt("color", t.color.as_ref());
        x.flag("bold", t.bold);
        x.flag("italic", t.italic);
        x.flag("underline", t.underline);
        x.flag("strikeout", t.strikeout);
        x.flag("kerning", t.kerning);
        x.opt("halign", t.halign.as_ref());
        x.opt("valign", t.valign.as_ref());
        x.end_open();
        x.escape(&t.text);
        x.close("text");
    }
    x.close("object");
}
