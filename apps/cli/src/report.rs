//! The JSON written by the commands. Key names are a contract that tools parse: change them
//! only together with those tools.

use collide_core::{Corner, Face, Feature, Vec2};
use collide_world::Contact;
use collide_world::{Ball, Body, CellCoord, Event, Rect, RectKind, SensorId, Target};
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

/// The object printed by `collide run`.
#[derive(Serialize, Debug)]
pub struct RunReport {
    /// Scene name.
    pub scene: String,
    /// Steps run.
    pub steps: u64,
    /// The step's dt, seconds (12 significant digits).
    #[serde(serialize_with = "sig12")]
    pub dt: f64,
    /// Whether balls collide with each other in this scene (`false` in BricksBeater levels,
    /// as in the game, unless `--ball-ball on`).
    pub ball_ball: bool,
    /// Balls when the world was built.
    pub balls_start: usize,
    /// Balls at the end.
    pub balls_alive: usize,
    /// Balls asleep at the end: settled in a pile under gravity, held without velocity
    /// until something wakes them (`crates/world/src/step/sleep/`).
    pub balls_asleep: usize,
    /// Dynamic rectangles asleep at the end: settled in a stack (or stopped in a wedge)
    /// under gravity, held without velocity until something wakes them.
    pub rects_asleep: usize,
    /// `ball_lost` events over all steps.
    pub balls_lost: u64,
    /// Balls whose centre is closer than `radius − 1e-6` to a solid cell or a static rect.
    pub embedded: usize,
    /// Ball pairs whose centres are closer than `r1 + r2 − 1e-6`. With ball–ball collisions
    /// off, balls pass through each other by design and this counts those crossings.
    pub overlapping_pairs: u64,
    /// Why `overlapping_pairs` is not 0 when ball–ball collisions are off (absent when on).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overlapping_pairs_note: Option<&'static str>,
    /// Energy before the first step, kinetic plus potential under gravity
    /// (`World::energy`; 12 significant digits).
    #[serde(serialize_with = "sig12")]
    pub energy_start: f64,
    /// Energy after the last step (12 significant digits).
    #[serde(serialize_with = "sig12")]
    pub energy_end: f64,
    /// Largest `|E − E0| / |E0|` after any step (0 when `E0 = 0`; 3 significant digits).
    #[serde(serialize_with = "sig3")]
    pub energy_max_rel_dev: f64,
    /// Events per kind over all steps, every kind present.
    pub collisions: EventCounts,
    /// `brick_destroyed` events over all steps.
    pub bricks_destroyed: u64,
    /// Brick cells left at the end.
    pub bricks_left: usize,
    /// `iteration_limit` events over all steps.
    pub iteration_limits: u64,
    /// `unembedded` events over all steps.
    pub unembedded: u64,
    /// `World::state_hash` at the end, 16 hex digits.
    pub state_hash: String,
    /// Median wall time of one `World::step` call, milliseconds (4 significant digits).
    #[serde(serialize_with = "sig4")]
    pub ms_per_step: f64,
    /// With `--dump`: every ball at the end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub balls: Option<Vec<BallOut>>,
    /// With `--dump`: every rectangle at the end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rects: Option<Vec<RectOut>>,
}

/// The text of [`RunReport::overlapping_pairs_note`].
pub const BALLS_PASS_THROUGH: &str =
    "ball-ball collisions are off in this scene (as in BricksBeater): balls pass through each \
     other, so overlapping pairs are expected; run with --ball-ball on to make them collide";

/// `x` rounded to `digits` significant decimal digits (the nearest `f64` to the rounded
/// decimal), so that the JSON shows `0.0166666666667` rather than every digit of an `f64`.
/// Non-finite values and 0 are returned unchanged.
#[must_use]
pub fn round_sig(x: f64, digits: usize) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    format!("{:.*e}", digits.saturating_sub(1), x)
        .parse()
        .unwrap_or(x)
}

fn sig<S: Serializer>(x: f64, digits: usize, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(round_sig(x, digits))
}

fn sig12<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    sig(*x, 12, s)
}

fn sig4<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    sig(*x, 4, s)
}

fn sig3<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    sig(*x, 3, s)
}

/// The object printed by `collide render`.
#[derive(Serialize, Debug)]
pub struct RenderReport {
    /// The PNG written.
    pub out: String,
    /// Its width, pixels.
    pub width: u32,
    /// Its height, pixels.
    pub height: u32,
    /// Steps run before rendering.
    pub steps: u64,
    /// `World::state_hash` of the rendered state.
    pub state_hash: String,
}

/// A count per [`Event::KINDS`] entry; serialised as an object in that order.
#[derive(Debug, Default, Clone)]
pub struct EventCounts([u64; Event::KINDS.len()]);

impl EventCounts {
    /// Counts these events.
    pub fn add(&mut self, events: &[Event]) {
        for e in events {
            let kind = e.kind();
            if let Some(i) = Event::KINDS.iter().position(|k| *k == kind) {
                self.0[i] += 1;
            }
        }
    }

    /// The count of a kind (0 for an unknown name).
    pub fn get(&self, kind: &str) -> u64 {
        Event::KINDS
            .iter()
            .position(|k| *k == kind)
            .map_or(0, |i| self.0[i])
    }
}

impl Serialize for EventCounts {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(Event::KINDS.len()))?;
        for (k, n) in Event::KINDS.iter().zip(self.0) {
            m.serialize_entry(k, &n)?;
        }
        m.end()
    }
}

fn xy(v: Vec2) -> [f64; 2] {
    [v.x, v.y]
}

/// A ball of `--dump`.
#[derive(Serialize, Debug)]
pub struct BallOut {
    id: u64,
    pos: [f64; 2],
    vel: [f64; 2],
    radius: f64,
}

impl From<Ball> for BallOut {
    fn from(b: Ball) -> Self {
        BallOut {
            id: b.id.to_bits(),
            pos: xy(b.pos),
            vel: xy(b.vel),
            radius: b.radius,
        }
    }
}

/// A rectangle of `--dump`.
#[derive(Serialize, Debug)]
pub struct RectOut {
    id: u64,
    min: [f64; 2],
    max: [f64; 2],
    vel: [f64; 2],
    kind: &'static str,
}

fn rect_kind(k: RectKind, sensor: bool) -> &'static str {
    match (k, sensor) {
        (_, true) => "sensor",
        (RectKind::Static, false) => "static",
        (RectKind::Kinematic, false) => "kinematic",
        (RectKind::Dynamic, false) => "dynamic",
    }
}

impl From<&Rect> for RectOut {
    fn from(r: &Rect) -> Self {
        RectOut {
            id: r.id.to_bits(),
            min: xy(r.aabb.min),
            max: xy(r.aabb.max),
            vel: xy(r.vel),
            kind: rect_kind(r.kind, r.surface.sensor),
        }
    }
}

/// One line of `collide trace`.
#[derive(Serialize, Debug)]
pub struct StepTrace<'a> {
    /// Index of the step, from 0.
    pub step: u64,
    /// Its events, in order.
    pub events: Vec<EventOut<'a>>,
}

/// An event as a JSON object: `kind` first, then every field of the variant.
#[derive(Debug)]
pub struct EventOut<'a>(pub &'a Event);

fn cell(c: CellCoord) -> [u32; 2] {
    [c.col, c.row]
}

fn feature_name(f: Feature) -> &'static str {
    match f {
        Feature::Face(Face::Left) => "face_left",
        Feature::Face(Face::Right) => "face_right",
        Feature::Face(Face::Top) => "face_top",
        Feature::Face(Face::Bottom) => "face_bottom",
        Feature::Corner(Corner::TopLeft) => "corner_top_left",
        Feature::Corner(Corner::TopRight) => "corner_top_right",
        Feature::Corner(Corner::BottomLeft) => "corner_bottom_left",
        Feature::Corner(Corner::BottomRight) => "corner_bottom_right",
        Feature::Diagonal => "diagonal",
        Feature::Circle => "circle",
    }
}

/// A body as `{"ball": id}`, `{"rect": id}` or `{"character": id}`.
struct BodyOut(Body);

impl Serialize for BodyOut {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(1))?;
        match self.0 {
            Body::Ball(id) => m.serialize_entry("ball", &id.to_bits())?,
            Body::Rect(id) => m.serialize_entry("rect", &id.to_bits())?,
            Body::Character(id) => m.serialize_entry("character", &id.to_bits())?,
        }
        m.end()
    }
}

/// What a character met, as `{"cell": [col, row]}`, `{"wall": side}` or `{"ball" | "rect" |
/// "shape" | "flipper": id}`.
struct TargetOut(Target);

impl Serialize for TargetOut {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(1))?;
        match self.0 {
            Target::Cell(c) => m.serialize_entry("cell", &[c.col, c.row])?,
            Target::Ball(id) => m.serialize_entry("ball", &id.to_bits())?,
            Target::Rect(id) => m.serialize_entry("rect", &id.to_bits())?,
            Target::Wall(side) => m.serialize_entry("wall", side.name())?,
            Target::Shape(id) => m.serialize_entry("shape", &id.to_bits())?,
            Target::Flipper(id) => m.serialize_entry("flipper", &id.to_bits())?,
            Target::Character(id) => m.serialize_entry("character", &id.to_bits())?,
        }
        m.end()
    }
}

impl Serialize for EventOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("kind", self.0.kind())?;
        if !contact_entries(&mut m, self.0)? {
            other_entries(&mut m, self.0)?;
        }
        m.end()
    }
}

/// The fields of a contact event (the bodies, the point, normal, time and speed of the
/// contact), or `false` for an event of another kind.
fn contact_entries<M: SerializeMap>(m: &mut M, e: &Event) -> Result<bool, M::Error> {
    Ok(ball_contact_entries(m, e)? || body_contact_entries(m, e)?)
}

/// The fields of a ball's contact, or `false` for another event.
fn ball_contact_entries<M: SerializeMap>(m: &mut M, e: &Event) -> Result<bool, M::Error> {
    match *e {
        Event::Contact(Contact {
            body: Body::Ball(ball),
            other: Target::Cell(c),
            point,
            normal,
            toi,
            speed,
            feature: Some(feature),
        }) => {
            m.serialize_entry("ball", &ball.to_bits())?;
            m.serialize_entry("cell", &cell(c))?;
            contact(m, point, normal, toi, speed)?;
            m.serialize_entry("feature", feature_name(feature))?;
        }
        Event::Contact(Contact {
            body: Body::Ball(ball),
            other: Target::Shape(shape),
            point,
            normal,
            toi,
            speed,
            ..
        }) => {
            m.serialize_entry("ball", &ball.to_bits())?;
            m.serialize_entry("shape", &shape.to_bits())?;
            contact(m, point, normal, toi, speed)?;
        }
        Event::Contact(Contact {
            body: Body::Ball(ball),
            other: Target::Flipper(flipper),
            point,
            normal,
            toi,
            speed,
            ..
        }) => {
            m.serialize_entry("ball", &ball.to_bits())?;
            m.serialize_entry("flipper", &flipper.to_bits())?;
            contact(m, point, normal, toi, speed)?;
        }
        Event::Contact(Contact {
            body: Body::Ball(ball),
            other: Target::Wall(side),
            point,
            normal,
            toi,
            speed,
            ..
        }) => {
            m.serialize_entry("ball", &ball.to_bits())?;
            m.serialize_entry("side", side.name())?;
            contact(m, point, normal, toi, speed)?;
        }
        Event::Contact(Contact {
            body: Body::Ball(a),
            other: Target::Ball(b),
            point,
            normal,
            toi,
            speed,
            ..
        }) => {
            m.serialize_entry("a", &a.to_bits())?;
            m.serialize_entry("b", &b.to_bits())?;
            contact(m, point, normal, toi, speed)?;
        }
        Event::Contact(Contact {
            body: Body::Ball(ball),
            other: Target::Rect(rect),
            point,
            normal,
            toi,
            speed,
            ..
        }) => {
            m.serialize_entry("ball", &ball.to_bits())?;
            m.serialize_entry("rect", &rect.to_bits())?;
            contact(m, point, normal, toi, speed)?;
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// The fields of a rectangle's or a character's contact, or `false` for another event.
fn body_contact_entries<M: SerializeMap>(m: &mut M, e: &Event) -> Result<bool, M::Error> {
    match *e {
        Event::Contact(Contact {
            body: Body::Rect(rect),
            other: Target::Shape(shape),
            point,
            normal,
            toi,
            speed,
            ..
        }) => {
            m.serialize_entry("rect", &rect.to_bits())?;
            m.serialize_entry("shape", &shape.to_bits())?;
            contact(m, point, normal, toi, speed)?;
        }
        Event::Contact(Contact {
            body: Body::Rect(rect),
            other: Target::Flipper(flipper),
            point,
            normal,
            toi,
            speed,
            ..
        }) => {
            m.serialize_entry("rect", &rect.to_bits())?;
            m.serialize_entry("flipper", &flipper.to_bits())?;
            contact(m, point, normal, toi, speed)?;
        }
        Event::Contact(Contact {
            body: Body::Character(character),
            other: target,
            point,
            normal,
            toi,
            speed,
            ..
        }) => {
            m.serialize_entry("character", &character.to_bits())?;
            m.serialize_entry("target", &TargetOut(target))?;
            contact(m, point, normal, toi, speed)?;
        }
        Event::Contact(Contact {
            body: Body::Rect(rect),
            other: Target::Cell(c),
            point,
            normal,
            toi,
            speed,
            ..
        }) => {
            m.serialize_entry("rect", &rect.to_bits())?;
            m.serialize_entry("cell", &cell(c))?;
            contact(m, point, normal, toi, speed)?;
        }
        Event::Contact(Contact {
            body: Body::Rect(rect),
            other: Target::Wall(side),
            point,
            normal,
            toi,
            speed,
            ..
        }) => {
            m.serialize_entry("rect", &rect.to_bits())?;
            m.serialize_entry("side", side.name())?;
            contact(m, point, normal, toi, speed)?;
        }
        Event::Contact(Contact {
            body: Body::Rect(a),
            other: Target::Rect(b),
            point,
            normal,
            toi,
            speed,
            ..
        }) => {
            m.serialize_entry("a", &a.to_bits())?;
            m.serialize_entry("b", &b.to_bits())?;
            contact(m, point, normal, toi, speed)?;
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// A contact's point, normal, time and speed.
fn contact<M: SerializeMap>(
    m: &mut M,
    point: Vec2,
    normal: Vec2,
    toi: f64,
    speed: f64,
) -> Result<(), M::Error> {
    m.serialize_entry("point", &xy(point))?;
    m.serialize_entry("normal", &xy(normal))?;
    m.serialize_entry("toi", &toi)?;
    m.serialize_entry("speed", &speed)
}

/// The fields of an event that is not a contact ([`contact_entries`]).
fn other_entries<M: SerializeMap>(m: &mut M, e: &Event) -> Result<(), M::Error> {
    match *e {
        Event::BrickDestroyed {
            cell: c,
            kind,
            by,
            toi,
        } => {
            m.serialize_entry("cell", &cell(c))?;
            m.serialize_entry("brick", &char::from(kind).to_string())?;
            m.serialize_entry("by", &BodyOut(by))?;
            m.serialize_entry("toi", &toi)?;
        }
        Event::BallLost { ball, side, toi } => {
            m.serialize_entry("ball", &ball.to_bits())?;
            m.serialize_entry("side", side.name())?;
            m.serialize_entry("toi", &toi)?;
        }
        Event::RectLost { rect, side, toi } => {
            m.serialize_entry("rect", &rect.to_bits())?;
            m.serialize_entry("side", side.name())?;
            m.serialize_entry("toi", &toi)?;
        }
        Event::SensorEnter {
            ball,
            sensor,
            point,
            toi,
        } => {
            m.serialize_entry("ball", &ball.to_bits())?;
            match sensor {
                SensorId::Rect(r) => m.serialize_entry("rect", &r.to_bits())?,
                SensorId::Shape(s) => m.serialize_entry("shape", &s.to_bits())?,
                SensorId::Cell(c) => m.serialize_entry("cell", &cell(c))?,
            }
            m.serialize_entry("point", &xy(point))?;
            m.serialize_entry("toi", &toi)?;
        }
        Event::SensorExit { ball, sensor, toi } => {
            m.serialize_entry("ball", &ball.to_bits())?;
            match sensor {
                SensorId::Rect(r) => m.serialize_entry("rect", &r.to_bits())?,
                SensorId::Shape(s) => m.serialize_entry("shape", &s.to_bits())?,
                SensorId::Cell(c) => m.serialize_entry("cell", &cell(c))?,
            }
            m.serialize_entry("toi", &toi)?;
        }
        Event::CharacterSensorEnter {
            character,
            sensor,
            toi,
        }
        | Event::CharacterSensorExit {
            character,
            sensor,
            toi,
        } => {
            m.serialize_entry("character", &character.to_bits())?;
            match sensor {
                SensorId::Rect(r) => m.serialize_entry("rect", &r.to_bits())?,
                SensorId::Shape(s) => m.serialize_entry("shape", &s.to_bits())?,
                SensorId::Cell(c) => m.serialize_entry("cell", &cell(c))?,
            }
            m.serialize_entry("toi", &toi)?;
        }
        Event::SensorRectEnter { sensor, rect, toi }
        | Event::SensorRectExit { sensor, rect, toi } => {
            m.serialize_entry("sensor", &sensor.to_bits())?;
            m.serialize_entry("rect", &rect.to_bits())?;
            m.serialize_entry("toi", &toi)?;
        }
        Event::Unembedded { body, from, to } => {
            m.serialize_entry("body", &BodyOut(body))?;
            m.serialize_entry("from", &xy(from))?;
            m.serialize_entry("to", &xy(to))?;
        }
        Event::IterationLimit { body, toi } => {
            m.serialize_entry("body", &BodyOut(body))?;
            m.serialize_entry("toi", &toi)?;
        }
        Event::Squeezed {
            body,
            rect,
            normal,
            toi,
        } => {
            m.serialize_entry("body", &BodyOut(body))?;
            m.serialize_entry("rect", &rect.to_bits())?;
            m.serialize_entry("normal", &xy(normal))?;
            m.serialize_entry("toi", &toi)?;
        }
        Event::FlipperSqueezed {
            body,
            flipper,
            normal,
            toi,
        } => {
            m.serialize_entry("body", &BodyOut(body))?;
            m.serialize_entry("flipper", &flipper.to_bits())?;
            m.serialize_entry("normal", &xy(normal))?;
            m.serialize_entry("toi", &toi)?;
        }
        _ => {}
    }
    Ok(())
}
