//! A step's events as plain JavaScript objects.
//!
//! The step's `collide_world::Event`s are written as records of [`RECORD`] numbers into one
//! buffer, handed to JavaScript in a single call as a `Float64Array` view of it, and turned
//! there into one plain object per event (`decodeEvents` below): one crossing of the wasm
//! boundary per step, whatever the number of events. The objects' TypeScript types are the
//! `CollideEvent` union of the typescript section.

use collide_world::collide_core::{Corner, Face};
use collide_world::Contact;
use collide_world::{Body, Event, Feature, SensorId, Side, Target, Vec2};
use wasm_bindgen::prelude::*;

use crate::ids::{to_js, Id};

/// Numbers per event record: kind code, four ids or coordinates, toi, point, normal, speed,
/// one extra code (side, feature, brick character, sensor type).
pub(crate) const RECORD: usize = 12;

#[wasm_bindgen(inline_js = r#"
const SIDES = ["left", "top", "right", "bottom"];
const FEATURES = ["left", "right", "top", "bottom", "top_left", "top_right", "bottom_left",
  "bottom_right", "circle", "diagonal"];
const BODY = ["ball", "rect", "character"];
const TARGETS = ["cell", "ball", "rect", "wall", "shape", "flipper", "character"];
function target(b, i) {
  const t = b[i + 11];
  return t === 0 ? { type: "cell", col: b[i + 3], row: b[i + 4] }
    : t === 3 ? { type: "wall", side: SIDES[b[i + 2]] }
    : { type: TARGETS[t], id: b[i + 2] };
}
function body(b, i) { return { type: BODY[b[i + 2]], id: b[i + 1] }; }
function sensor(b, i) {
  const t = b[i + 11];
  return t === 2 ? { type: "cell", col: b[i + 3], row: b[i + 4] }
    : { type: t === 0 ? "rect" : "shape", id: b[i + 2] };
}
function one(b, i) {
  const toi = b[i + 5], speed = b[i + 10];
  const point = () => ({ x: b[i + 6], y: b[i + 7] });
  const normal = () => ({ x: b[i + 8], y: b[i + 9] });
  const cell = () => ({ col: b[i + 3], row: b[i + 4] });
  switch (b[i]) {
    case 0: return { kind: "ball_tile", ball: b[i + 1], cell: cell(), feature: FEATURES[b[i + 11]], toi, point: point(), normal: normal(), speed };
    case 1: return { kind: "ball_wall", ball: b[i + 1], side: SIDES[b[i + 11]], toi, point: point(), normal: normal(), speed };
    case 2: return { kind: "ball_ball", a: b[i + 1], b: b[i + 2], toi, point: point(), normal: normal(), speed };
    case 3: return { kind: "ball_rect", ball: b[i + 1], rect: b[i + 2], toi, point: point(), normal: normal(), speed };
    case 4: return { kind: "rect_tile", rect: b[i + 1], cell: cell(), toi, point: point(), normal: normal(), speed };
    case 5: return { kind: "rect_wall", rect: b[i + 1], side: SIDES[b[i + 11]], toi, point: point(), normal: normal(), speed };
    case 6: return { kind: "rect_rect", a: b[i + 1], b: b[i + 2], toi, point: point(), normal: normal(), speed };
    case 7: return { kind: "brick_destroyed", cell: cell(), brick: String.fromCharCode(b[i + 11]), by: body(b, i), toi };
    case 8: return { kind: "ball_lost", ball: b[i + 1], side: SIDES[b[i + 11]], toi };
    case 9: return { kind: "rect_lost", rect: b[i + 1], side: SIDES[b[i + 11]], toi };
    case 10: return { kind: "unembedded", body: body(b, i), from: point(), to: normal() };
    case 11: return { kind: "iteration_limit", body: body(b, i), toi };
    case 12: return { kind: "squeezed", body: body(b, i), rect: b[i + 3], normal: normal(), toi };
    case 13: return { kind: "sensor_enter", ball: b[i + 1], sensor: sensor(b, i), point: point(), toi };
    case 14: return { kind: "sensor_exit", ball: b[i + 1], sensor: sensor(b, i), toi };
    case 15: return { kind: "ball_shape", ball: b[i + 1], shape: b[i + 2], toi, point: point(), normal: normal(), speed };
    case 16: return { kind: "sensor_rect_enter", sensor: b[i + 1], rect: b[i + 2], toi };
    case 17: return { kind: "sensor_rect_exit", sensor: b[i + 1], rect: b[i + 2], toi };
    case 18: return { kind: "ball_flipper", ball: b[i + 1], flipper: b[i + 2], toi, point: point(), normal: normal(), speed };
    case 19: return { kind: "rect_shape", rect: b[i + 1], shape: b[i + 2], toi, point: point(), normal: normal(), speed };
    case 20: return { kind: "rect_flipper", rect: b[i + 1], flipper: b[i + 2], toi, point: point(), normal: normal(), speed };
    case 21: return { kind: "character_hit", character: b[i + 1], target: target(b, i), toi, point: point(), normal: normal(), speed };
    case 22: return { kind: "character_sensor_enter", character: b[i + 1], sensor: sensor(b, i), toi };
    case 23: return { kind: "character_sensor_exit", character: b[i + 1], sensor: sensor(b, i), toi };
    case 24: return { kind: "ball_character", ball: b[i + 1], character: b[i + 2], toi, point: point(), normal: normal(), speed };
    case 26: return { kind: "flipper_squeezed", body: body(b, i), flipper: b[i + 3], normal: normal(), toi };
    default: return { kind: "rect_character", rect: b[i + 1], character: b[i + 2], toi, point: point(), normal: normal(), speed };
  }
}
export function decodeEvents(b) {
  const out = new Array(b.length / 12);
  for (let i = 0, k = 0; i < b.length; i += 12, k += 1) out[k] = one(b, i);
  return out;
}
"#)]
extern "C" {
    /// The events of `records` (a view of the buffer, read before the call returns) as an
    /// array of plain objects.
    #[wasm_bindgen(js_name = decodeEvents)]
    fn decode_events(records: &[f64]) -> JsValue;
}

#[wasm_bindgen(typescript_custom_section)]
const EVENT_TYPES: &str = r#"
/** A point or a vector, world units (x right, y down). */
export interface Point { x: number; y: number; }
/** A grid cell: column (from 0 at the left) and row (from 0 at the top). */
export interface CellCoord { col: number; row: number; }
/** A side of the world rectangle `[0, 0]–[width, height]` (`top` is y = 0). */
export type Side = "left" | "top" | "right" | "bottom";
/** A ball, a rectangle or a character, by id. */
export interface BodyRef { type: "ball" | "rect" | "character"; id: number; }
/** What a character met: a cell, a wall of the world, or a body or static shape by id. */
export type TargetRef = { type: "cell"; col: number; row: number } | { type: "wall"; side: Side }
  | { type: "ball" | "rect" | "shape" | "flipper" | "character"; id: number };
/** A sensor: a sensor rectangle or sensor circle (by id), or a sensor cell of the grid. */
export type SensorRef = { type: "rect" | "shape"; id: number } | { type: "cell"; col: number; row: number };
/** The face or corner of a tile a ball hit (`diagonal`: a slope's slanted face). */
export type TileFeature = "left" | "right" | "top" | "bottom" | "top_left" | "top_right" |
  "bottom_left" | "bottom_right" | "circle" | "diagonal";
/** Fields of every contact: `toi` seconds from the start of the step (0..dt), the contact
 * `point` (world units), the unit contact `normal` pointing toward the body named first, and
 * the impact `speed`: the normal relative speed before the bounce, units/s, >= 0. */
export interface Contact { toi: number; point: Point; normal: Point; speed: number; }
/** One thing that happened during a step, told apart by `kind`. Ids are the numbers the
 * world's `add*` methods return. See docs/web.md for the meaning of each kind. */
export type CollideEvent =
  | ({ kind: "ball_tile"; ball: number; cell: CellCoord; feature: TileFeature } & Contact)
  | ({ kind: "ball_wall"; ball: number; side: Side } & Contact)
  | ({ kind: "ball_ball"; a: number; b: number } & Contact)
  | ({ kind: "ball_rect"; ball: number; rect: number } & Contact)
  | ({ kind: "ball_shape"; ball: number; shape: number } & Contact)
  | ({ kind: "ball_flipper"; ball: number; flipper: number } & Contact)
  | ({ kind: "rect_tile"; rect: number; cell: CellCoord } & Contact)
  | { kind: "rect_wall"; rect: number; side: Side; toi: number; point: Point; normal: Point; speed: number }
  | ({ kind: "rect_rect"; a: number; b: number } & Contact)
  | ({ kind: "rect_shape"; rect: number; shape: number } & Contact)
  | ({ kind: "rect_flipper"; rect: number; flipper: number } & Contact)
  | ({ kind: "character_hit"; character: number; target: TargetRef } & Contact)
  | ({ kind: "ball_character"; ball: number; character: number } & Contact)
  | ({ kind: "rect_character"; rect: number; character: number } & Contact)
  | { kind: "character_sensor_enter"; character: number; sensor: SensorRef; toi: number }
  | { kind: "character_sensor_exit"; character: number; sensor: SensorRef; toi: number }
  | { kind: "brick_destroyed"; cell: CellCoord; brick: string; by: BodyRef; toi: number }
  | { kind: "ball_lost"; ball: number; side: Side; toi: number }
  | { kind: "rect_lost"; rect: number; side: Side; toi: number }
  | { kind: "unembedded"; body: BodyRef; from: Point; to: Point }
  | { kind: "iteration_limit"; body: BodyRef; toi: number }
  | { kind: "squeezed"; body: BodyRef; rect: number; normal: Point; toi: number }
  | { kind: "flipper_squeezed"; body: BodyRef; flipper: number; normal: Point; toi: number }
  | { kind: "sensor_enter"; ball: number; sensor: SensorRef; point: Point; toi: number }
  | { kind: "sensor_exit"; ball: number; sensor: SensorRef; toi: number }
  | { kind: "sensor_rect_enter"; sensor: number; rect: number; toi: number }
  | { kind: "sensor_rect_exit"; sensor: number; rect: number; toi: number };
/** A ball's state: centre (world units), velocity (units/s), radius (world units). */
export interface BallState { x: number; y: number; vx: number; vy: number; radius: number; }
/** A rectangle's state: its box (world units), velocity (units/s) and kind. */
export interface RectState { minX: number; minY: number; maxX: number; maxY: number; vx: number; vy: number; kind: RectKind; }
/** How a rectangle moves: `static` never, `kinematic` with its own velocity whatever hits it
 * (a paddle), `dynamic` bouncing and exchanging momentum, `sensor` a trigger area. */
export type RectKind = "static" | "kinematic" | "dynamic" | "sensor";
"#;

/// An id as a number, or -1 for one beyond the exact range of [`crate::ids`] (a slot reused
/// more than 2³¹ times).
fn id<I: Id>(i: I) -> f64 {
    to_js(i).unwrap_or(-1.0)
}

fn side_code(s: Side) -> f64 {
    match s {
        Side::Left => 0.0,
        Side::Top => 1.0,
        Side::Right => 2.0,
        Side::Bottom => 3.0,
    }
}

fn feature_code(f: Feature) -> f64 {
    match f {
        Feature::Face(Face::Left) => 0.0,
        Feature::Face(Face::Right) => 1.0,
        Feature::Face(Face::Top) => 2.0,
        Feature::Face(Face::Bottom) => 3.0,
        Feature::Corner(Corner::TopLeft) => 4.0,
        Feature::Corner(Corner::TopRight) => 5.0,
        Feature::Corner(Corner::BottomLeft) => 6.0,
        Feature::Corner(Corner::BottomRight) => 7.0,
        Feature::Circle => 8.0,
        Feature::Diagonal => 9.0,
    }
}

/// A body's id and type code (0 ball, 1 rect, 2 character).
fn body(b: Body) -> (f64, f64) {
    match b {
        Body::Ball(i) => (id(i), 0.0),
        Body::Rect(i) => (id(i), 1.0),
        Body::Character(i) => (id(i), 2.0),
    }
}

/// A target's id (or side code), cell coordinates and type code (0 cell, 1 ball, 2 rect,
/// 3 wall, 4 shape, 5 flipper, 6 character).
fn target(t: Target) -> (f64, f64, f64, f64) {
    match t {
        Target::Cell(c) => (-1.0, f64::from(c.col), f64::from(c.row), 0.0),
        Target::Ball(i) => (id(i), 0.0, 0.0, 1.0),
        Target::Rect(i) => (id(i), 0.0, 0.0, 2.0),
        Target::Wall(s) => (side_code(s), 0.0, 0.0, 3.0),
        Target::Shape(i) => (id(i), 0.0, 0.0, 4.0),
        Target::Flipper(i) => (id(i), 0.0, 0.0, 5.0),
        Target::Character(i) => (id(i), 0.0, 0.0, 6.0),
    }
}

/// A sensor's id (rect or shape), cell coordinates and type code (0 rect, 1 shape, 2 cell).
fn sensor(s: SensorId) -> (f64, f64, f64, f64) {
    match s {
        SensorId::Rect(r) => (id(r), 0.0, 0.0, 0.0),
        SensorId::Shape(sh) => (id(sh), 0.0, 0.0, 1.0),
        SensorId::Cell(c) => (-1.0, f64::from(c.col), f64::from(c.row), 2.0),
    }
}

/// One record: `[code, a, b, c, d, toi, px, py, nx, ny, speed, extra]`.
struct Rec([f64; RECORD]);

impl Rec {
    fn new(code: u8, toi: f64) -> Self {
        let mut r = [0.0; RECORD];
        r[0] = f64::from(code);
        r[5] = toi;
        Rec(r)
    }
    fn ids(mut self, a: f64, b: f64) -> Self {
        self.0[1] = a;
        self.0[2] = b;
        self
    }
    fn cd(mut self, c: f64, d: f64) -> Self {
        self.0[3] = c;
        self.0[4] = d;
        self
    }
    fn contact(mut self, point: Vec2, normal: Vec2, speed: f64) -> Self {
        self.0[6] = point.x;
        self.0[7] = point.y;
        self.0[8] = normal.x;
        self.0[9] = normal.y;
        self.0[10] = speed;
        self
    }
    fn extra(mut self, e: f64) -> Self {
        self.0[11] = e;
        self
    }
}

/// The record of one event (layout: see the decoder above).
fn record(e: &Event) -> Rec {
    contact_record(e).unwrap_or_else(|| other_record(e))
}

/// The record of a contact event (bodies, point, normal, time, speed), or `None` for an
/// event of another kind.
fn contact_record(e: &Event) -> Option<Rec> {
    ball_contact_record(e).or_else(|| body_contact_record(e))
}

/// The record of a ball's contact, or `None` for another event.
fn ball_contact_record(e: &Event) -> Option<Rec> {
    Some(match *e {
        Event::Contact(Contact {
            body: Body::Ball(ball),
            other: Target::Cell(cell),
            point,
            normal,
            toi,
            speed,
            feature: Some(feature),
        }) => Rec::new(0, toi)
            .ids(id(ball), 0.0)
            .cd(f64::from(cell.col), f64::from(cell.row))
            .contact(point, normal, speed)
            .extra(feature_code(feature)),
        Event::Contact(Contact {
            body: Body::Ball(ball),
            other: Target::Wall(side),
            point,
            normal,
            toi,
            speed,
            ..
        }) => Rec::new(1, toi)
            .ids(id(ball), 0.0)
            .contact(point, normal, speed)
            .extra(side_code(side)),
        Event::Contact(Contact {
            body: Body::Ball(a),
            other: Target::Ball(b),
            point,
            normal,
            toi,
            speed,
            ..
        }) => Rec::new(2, toi)
            .ids(id(a), id(b))
            .contact(point, normal, speed),
        Event::Contact(Contact {
            body: Body::Ball(ball),
            other: Target::Rect(rect),
            point,
            normal,
            toi,
            speed,
            ..
        }) => Rec::new(3, toi)
            .ids(id(ball), id(rect))
            .contact(point, normal, speed),
        Event::Contact(Contact {
            body: Body::Ball(ball),
            other: Target::Shape(shape),
            point,
            normal,
            toi,
            speed,
            ..
        }) => Rec::new(15, toi)
            .ids(id(ball), id(shape))
            .contact(point, normal, speed),
        Event::Contact(Contact {
            body: Body::Ball(ball),
            other: Target::Flipper(flipper),
            point,
            normal,
            toi,
            speed,
            ..
        }) => Rec::new(18, toi)
            .ids(id(ball), id(flipper))
            .contact(point, normal, speed),
        Event::Contact(Contact {
            body: Body::Ball(ball),
            other: Target::Character(character),
            point,
            normal,
            toi,
            speed,
            ..
        }) => Rec::new(24, toi)
            .ids(id(ball), id(character))
            .contact(point, normal, speed),
        _ => return None,
    })
}

/// The record of a rectangle's or a character's contact, or `None` for another event.
fn body_contact_record(e: &Event) -> Option<Rec> {
    Some(match *e {
        Event::Contact(Contact {
            body: Body::Rect(rect),
            other: Target::Cell(cell),
            point,
            normal,
            toi,
            speed,
            ..
        }) => Rec::new(4, toi)
            .ids(id(rect), 0.0)
            .cd(f64::from(cell.col), f64::from(cell.row))
            .contact(point, normal, speed),
        Event::Contact(Contact {
            body: Body::Rect(rect),
            other: Target::Wall(side),
            point,
            normal,
            toi,
            speed,
            ..
        }) => Rec::new(5, toi)
            .ids(id(rect), 0.0)
            .contact(point, normal, speed)
            .extra(side_code(side)),
        Event::Contact(Contact {
            body: Body::Rect(a),
            other: Target::Rect(b),
            point,
            normal,
            toi,
            speed,
            ..
        }) => Rec::new(6, toi)
            .ids(id(a), id(b))
            .contact(point, normal, speed),
        Event::Unembedded {
            body: who,
            from,
            to,
        } => {
            let (b, t) = body(who);
            Rec::new(10, 0.0).ids(b, t).contact(from, to, 0.0)
        }
        Event::Squeezed {
            body: who,
            rect,
            normal,
            toi,
        } => {
            let (b, t) = body(who);
            Rec::new(12, toi)
                .ids(b, t)
                .cd(id(rect), 0.0)
                .contact(Vec2::ZERO, normal, 0.0)
        }
        Event::FlipperSqueezed {
            body: who,
            flipper,
            normal,
            toi,
        } => {
            let (b, t) = body(who);
            Rec::new(26, toi)
                .ids(b, t)
                .cd(id(flipper), 0.0)
                .contact(Vec2::ZERO, normal, 0.0)
        }
        Event::SensorEnter {
            ball,
            sensor: s,
            point,
            toi,
        } => {
            let (sid, col, row, t) = sensor(s);
            Rec::new(13, toi)
                .ids(id(ball), sid)
                .cd(col, row)
                .contact(point, Vec2::ZERO, 0.0)
                .extra(t)
        }
        Event::Contact(Contact {
            body: Body::Rect(rect),
            other: Target::Shape(shape),
            point,
            normal,
            toi,
            speed,
            ..
        }) => Rec::new(19, toi)
            .ids(id(rect), id(shape))
            .contact(point, normal, speed),
        Event::Contact(Contact {
            body: Body::Rect(rect),
            other: Target::Flipper(flipper),
            point,
            normal,
            toi,
            speed,
            ..
        }) => Rec::new(20, toi)
            .ids(id(rect), id(flipper))
            .contact(point, normal, speed),
        Event::Contact(Contact {
            body: Body::Rect(rect),
            other: Target::Character(character),
            point,
            normal,
            toi,
            speed,
            ..
        }) => Rec::new(25, toi)
            .ids(id(rect), id(character))
            .contact(point, normal, speed),
        Event::Contact(Contact {
            body: Body::Character(character),
            other: t,
            point,
            normal,
            toi,
            speed,
            ..
        }) => {
            let (tid, col, row, code) = target(t);
            Rec::new(21, toi)
                .ids(id(character), tid)
                .cd(col, row)
                .contact(point, normal, speed)
                .extra(code)
        }
        _ => return None,
    })
}

/// The record of an event that is not a contact ([`contact_record`]).
fn other_record(e: &Event) -> Rec {
    match *e {
        Event::BrickDestroyed {
            cell,
            kind,
            by,
            toi,
        } => {
            let (b, t) = body(by);
            Rec::new(7, toi)
                .ids(b, t)
                .cd(f64::from(cell.col), f64::from(cell.row))
                .extra(f64::from(kind))
        }
        Event::BallLost { ball, side, toi } => {
            Rec::new(8, toi).ids(id(ball), 0.0).extra(side_code(side))
        }
        Event::RectLost { rect, side, toi } => {
            Rec::new(9, toi).ids(id(rect), 0.0).extra(side_code(side))
        }
        Event::IterationLimit { body: who, toi } => {
            let (b, t) = body(who);
            Rec::new(11, toi).ids(b, t)
        }
        Event::SensorExit {
            ball,
            sensor: s,
            toi,
        } => {
            let (sid, col, row, t) = sensor(s);
            Rec::new(14, toi).ids(id(ball), sid).cd(col, row).extra(t)
        }
        Event::CharacterSensorEnter {
            character,
            sensor: s,
            toi,
        } => {
            let (sid, col, row, t) = sensor(s);
            Rec::new(22, toi)
                .ids(id(character), sid)
                .cd(col, row)
                .extra(t)
        }
        Event::CharacterSensorExit {
            character,
            sensor: s,
            toi,
        } => {
            let (sid, col, row, t) = sensor(s);
            Rec::new(23, toi)
                .ids(id(character), sid)
                .cd(col, row)
                .extra(t)
        }
        Event::SensorRectEnter {
            sensor: s,
            rect,
            toi,
        } => Rec::new(16, toi).ids(id(s), id(rect)),
        Event::SensorRectExit {
            sensor: s,
            rect,
            toi,
        } => Rec::new(17, toi).ids(id(s), id(rect)),
        // Contacts are [`contact_record`]'s.
        _ => Rec::new(0, 0.0),
    }
}

/// Writes the records of `events` into `buf` (cleared first; its capacity is kept between
/// steps, so a step allocates only when it has more events than any step before).
pub(crate) fn encode(events: &[Event], buf: &mut Vec<f64>) {
    buf.clear();
    buf.reserve(events.len() * RECORD);
    for e in events {
        buf.extend_from_slice(&record(e).0);
    }
}

/// The events of the records in `buf` as a JavaScript array of plain objects.
pub(crate) fn to_objects(buf: &[f64]) -> JsValue {
    decode_events(buf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide_world::{BallId, CellCoord};

    #[test]
    fn a_tile_hit_is_written_field_by_field() {
        let e = Event::Contact(Contact {
            body: Body::Ball(BallId::from_bits(3 | 2 << 32)),
            other: Target::Cell(CellCoord::new(4, 5)),
            point: Vec2::new(1.5, 2.5),
            normal: Vec2::new(0.0, -1.0),
            toi: 0.125,
            speed: 60.0,
            feature: Some(Feature::Corner(Corner::BottomLeft)),
        });
        let mut buf = vec![9.0; 3];
        encode(&[e, e], &mut buf);
        assert_eq!(buf.len(), 2 * RECORD);
        let want = [
            0.0,
            2.0 * 4_194_304.0 + 3.0,
            0.0,
            4.0,
            5.0,
            0.125,
            1.5,
            2.5,
            0.0,
            -1.0,
            60.0,
            6.0,
        ];
        assert_eq!(&buf[..RECORD], &want);
        assert_eq!(&buf[RECORD..], &want);
    }
}
