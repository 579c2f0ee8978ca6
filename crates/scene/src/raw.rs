//! The raw TOML structure of a scene file, as serde reads it, with the spans of its values.

use serde::Deserialize;
use toml::Spanned;

pub(super) type S<T> = Spanned<T>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a scene table")]
pub(super) struct RawScene {
    pub(super) name: Option<S<String>>,
    pub(super) world: S<RawWorld>,
    pub(super) grid: Option<S<RawGrid>>,
    #[serde(default)]
    pub(super) ball: Vec<S<RawBall>>,
    #[serde(default)]
    pub(super) rect: Vec<S<RawRect>>,
    #[serde(default)]
    pub(super) segment: Vec<S<RawSegment>>,
    #[serde(default)]
    pub(super) polyline: Vec<S<RawPolyline>>,
    #[serde(default)]
    pub(super) circle: Vec<S<RawCircle>>,
    #[serde(default)]
    pub(super) polygon: Vec<S<RawPolygon>>,
    #[serde(default)]
    pub(super) flipper: Vec<S<RawFlipper>>,
    pub(super) spawn: Option<S<RawSpawn>>,
    pub(super) step: Option<S<RawStep>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a [[segment]] table")]
pub(super) struct RawSegment {
    pub(super) a: S<Vec<f64>>,
    pub(super) b: S<Vec<f64>>,
    pub(super) restitution: Option<S<f64>>,
    pub(super) layers: Option<S<RawBits>>,
    pub(super) mask: Option<S<RawBits>>,
    pub(super) one_way: Option<S<bool>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a [[polyline]] table")]
pub(super) struct RawPolyline {
    pub(super) points: S<Vec<S<Vec<f64>>>>,
    pub(super) closed: Option<S<bool>>,
    pub(super) restitution: Option<S<f64>>,
    pub(super) layers: Option<S<RawBits>>,
    pub(super) mask: Option<S<RawBits>>,
    pub(super) one_way: Option<S<bool>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a [[circle]] table")]
pub(super) struct RawCircle {
    pub(super) center: S<Vec<f64>>,
    pub(super) radius: S<f64>,
    pub(super) restitution: Option<S<f64>>,
    pub(super) layers: Option<S<RawBits>>,
    pub(super) mask: Option<S<RawBits>>,
    pub(super) sensor: Option<S<bool>>,
    pub(super) one_way: Option<S<bool>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a [[polygon]] table")]
pub(super) struct RawPolygon {
    pub(super) points: S<Vec<S<Vec<f64>>>>,
    pub(super) restitution: Option<S<f64>>,
    pub(super) layers: Option<S<RawBits>>,
    pub(super) mask: Option<S<RawBits>>,
    pub(super) one_way: Option<S<bool>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a [[flipper]] table")]
pub(super) struct RawFlipper {
    pub(super) pivot: S<Vec<f64>>,
    pub(super) length: S<f64>,
    pub(super) radius: S<f64>,
    pub(super) rest_angle: S<f64>,
    pub(super) active_angle: S<f64>,
    pub(super) angular_speed: S<f64>,
    pub(super) restitution: Option<S<f64>>,
    pub(super) layers: Option<S<RawBits>>,
    pub(super) mask: Option<S<RawBits>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a [world] table")]
pub(super) struct RawWorld {
    pub(super) size: S<Vec<f64>>,
    pub(super) walls: Option<S<Vec<S<String>>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a [grid] table")]
pub(super) struct RawGrid {
    pub(super) cell: S<f64>,
    pub(super) origin: Option<S<Vec<f64>>>,
    pub(super) rows: Option<S<Vec<S<String>>>>,
    pub(super) level: Option<S<String>>,
    pub(super) random: Option<S<RawRandom>>,
    pub(super) wall_restitution: Option<S<f64>>,
    pub(super) brick_restitution: Option<S<f64>>,
    pub(super) wall_layers: Option<S<RawBits>>,
    pub(super) wall_mask: Option<S<RawBits>>,
    pub(super) brick_layers: Option<S<RawBits>>,
    pub(super) brick_mask: Option<S<RawBits>>,
    pub(super) sensor_layers: Option<S<RawBits>>,
    pub(super) sensor_mask: Option<S<RawBits>>,
}

/// A 32-bit set of layers: an integer (`0b110`, `6`, `0xFFFF_FFFF`), or a list of bit
/// indices from 0 to 31 (`[1, 2]`).
#[derive(Deserialize)]
#[serde(
    untagged,
    expecting = "an integer from 0 to 4294967295 or a list of bit indices"
)]
pub(super) enum RawBits {
    Int(i64),
    Bits(Vec<i64>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a [grid.random] table")]
pub(super) struct RawRandom {
    pub(super) cols: S<usize>,
    pub(super) rows: S<usize>,
    pub(super) fill: S<f64>,
    pub(super) seed: Option<S<u64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a [[ball]] table")]
pub(super) struct RawBall {
    pub(super) pos: S<Vec<f64>>,
    pub(super) vel: Option<S<Vec<f64>>>,
    pub(super) radius: S<f64>,
    pub(super) density: Option<S<f64>>,
    pub(super) restitution: Option<S<f64>>,
    pub(super) gravity_scale: Option<S<f64>>,
    // Boxed: absent in most of a large scene's balls, one pointer each.
    pub(super) layers: Option<Box<S<RawBits>>>,
    pub(super) mask: Option<Box<S<RawBits>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a [[rect]] table")]
pub(super) struct RawRect {
    pub(super) min: S<Vec<f64>>,
    pub(super) max: S<Vec<f64>>,
    pub(super) vel: Option<S<Vec<f64>>>,
    pub(super) kind: Option<S<String>>,
    pub(super) density: Option<S<f64>>,
    pub(super) restitution: Option<S<f64>>,
    pub(super) layers: Option<Box<S<RawBits>>>,
    pub(super) mask: Option<Box<S<RawBits>>>,
    pub(super) one_way: Option<Box<S<bool>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a [spawn] table")]
pub(super) struct RawSpawn {
    pub(super) count: S<usize>,
    pub(super) radius: S<f64>,
    pub(super) speed: S<f64>,
    pub(super) seed: Option<S<u64>>,
    pub(super) region: Option<S<Vec<f64>>>,
    pub(super) density: Option<S<f64>>,
    pub(super) restitution: Option<S<f64>>,
    pub(super) layers: Option<S<RawBits>>,
    pub(super) mask: Option<S<RawBits>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a [step] table")]
pub(super) struct RawStep {
    pub(super) dt: Option<S<f64>>,
    pub(super) ball_ball: Option<S<bool>>,
    pub(super) restitution: Option<S<f64>>,
    pub(super) destructible_bricks: Option<S<bool>>,
    pub(super) max_events_per_body: Option<S<u32>>,
    pub(super) gravity: Option<S<Vec<f64>>>,
    pub(super) sleep: Option<S<bool>>,
}
