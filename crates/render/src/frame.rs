//! What a frame shows besides the world's own bodies: per-ball colours, extra items in world
//! units (a game's power-ups, an aim preview), velocity lines, the debug trace of the last
//! step (swept paths and contact normals) and a text HUD. The renderer knows nothing of any
//! game: a game or frontend describes its things with these plain types.

use collide_core::{Aabb, Real, Vec2};
use collide_world::Body;
use collide_world::Target;
use collide_world::{Ball, BallId, Event, World};

use crate::style::Rgb;

/// One extra shape drawn over the world, in world units.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// An anti-aliased disc.
    Disc {
        /// Centre, world units.
        center: Vec2,
        /// Radius, world units (drawn at least [`crate::Style::min_ball_radius_px`] pixels).
        radius: Real,
        /// Colour.
        color: Rgb,
    },
    /// A filled box (crisp edges, the pixel-centre rule of the crate docs).
    Box {
        /// The box, world units.
        aabb: Aabb,
        /// Colour.
        color: Rgb,
    },
    /// An anti-aliased line one pixel wide.
    Line {
        /// Start, world units.
        from: Vec2,
        /// End, world units.
        to: Vec2,
        /// Colour.
        color: Rgb,
    },
    /// Text of the 8×8 bitmap font centred on a world point; the font's scale is the largest
    /// integer that keeps each glyph at most `height` world units tall on screen (at least 1).
    Label {
        /// Centre of the text, world units.
        center: Vec2,
        /// The text (ASCII; other characters show as `?`).
        text: String,
        /// Largest glyph height, world units.
        height: Real,
        /// Colour.
        color: Rgb,
    },
}

/// The debug trace of the last step: where each ball started it, and the step's events.
/// Drawn as each ball's swept path (start → the centre at each of its impacts, in time order →
/// its current position) and, at each contact point, the contact normal.
#[derive(Clone, Copy, Debug)]
pub struct StepTrace<'a> {
    /// Ball centres at the start of the step (world units); balls not listed get no path.
    pub start: &'a [(BallId, Vec2)],
    /// The step's events, in the world's order (time order).
    pub events: &'a [Event],
    /// Length of the drawn normals, world units.
    pub normal_length: Real,
}

/// Lines of text drawn in pixel space on a translucent panel ([`crate::Style::hud_text`],
/// [`crate::Style::hud_panel`]).
#[derive(Clone, Copy, Debug)]
pub struct Hud<'a> {
    /// The lines, top first.
    pub lines: &'a [String],
    /// Left edge of the text, pixels.
    pub x: usize,
    /// Top edge of the first line, pixels.
    pub y: usize,
    /// Integer scale of the 8×8 font (line height `10 · scale` pixels).
    pub scale: usize,
}

impl Hud<'_> {
    /// Padding around the text inside the panel, pixels: `2 · scale`.
    #[must_use]
    pub fn padding(&self) -> usize {
        2 * self.scale
    }

    /// Line height, pixels: `10 · scale` (8 of glyph, 2 of spacing).
    #[must_use]
    pub fn line_height(&self) -> usize {
        10 * self.scale
    }
}

/// Everything one frame shows. Build it with [`Frame::new`] and set the fields wanted.
#[derive(Clone, Copy)]
pub struct Frame<'a> {
    /// The world.
    pub world: &'a World,
    /// The colour of each ball; `None` paints every ball [`crate::Style::ball`].
    pub ball_color: Option<&'a dyn Fn(&Ball) -> Rgb>,
    /// Extra items, drawn after the balls in order.
    pub items: &'a [Item],
    /// Velocity lines: when `Some(s)`, each ball gets a line from its rim to where its centre
    /// will be in `s` seconds (`pos + vel · s`; no line when that point is inside the ball).
    pub velocity_lines: Option<Real>,
    /// The debug trace of the last step.
    pub trace: Option<StepTrace<'a>>,
    /// A text HUD, drawn last.
    pub hud: Option<Hud<'a>>,
}

impl<'a> Frame<'a> {
    /// A frame showing only `world` (what [`crate::render`] draws).
    #[must_use]
    pub fn new(world: &'a World) -> Self {
        Frame {
            world,
            ball_color: None,
            items: &[],
            velocity_lines: None,
            trace: None,
            hud: None,
        }
    }
}

impl std::fmt::Debug for Frame<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Frame")
            .field("balls", &self.world.balls().len())
            .field("ball_color", &self.ball_color.is_some())
            .field("items", &self.items.len())
            .field("velocity_lines", &self.velocity_lines)
            .field("trace", &self.trace.is_some())
            .field("hud", &self.hud.is_some())
            .finish()
    }
}

/// The swept paths of a step trace: for each ball of `trace.start` that is still in `world`
/// or has impacts, the polyline start → centre at each impact (in event order) → current
/// centre (omitted when the ball is gone). Impact centres are `point + normal · radius` (for
/// the second ball of a ball–ball event, `point − normal · radius`). Returned in the order of
/// `trace.start`.
#[must_use]
pub fn swept_paths(world: &World, trace: &StepTrace<'_>) -> Vec<(BallId, Vec<Vec2>)> {
    // (ball, order, centre) for every impact, sorted by ball then order: no hashing, so the
    // result is deterministic.
    let mut impacts: Vec<(BallId, usize, Vec2)> = Vec::new();
    let radius = |id: BallId| world.ball(id).map(|b| b.radius);
    for (i, e) in trace.events.iter().enumerate() {
        let Event::Contact(c) = *e else {
            continue;
        };
        match (c.body, c.other) {
            (Body::Ball(ball), Target::Cell(_) | Target::Wall(_) | Target::Rect(_)) => {
                if let Some(r) = radius(ball) {
                    impacts.push((ball, i, c.point + c.normal * r));
                }
            }
            (Body::Ball(a), Target::Ball(b)) => {
                if let Some(r) = radius(a) {
                    impacts.push((a, i, c.point + c.normal * r));
                }
                if let Some(r) = radius(b) {
                    impacts.push((b, i, c.point - c.normal * r));
                }
            }
            _ => {}
        }
    }
    impacts.sort_unstable_by_key(|&(id, i, _)| (id, i));
    let mut out = Vec::with_capacity(trace.start.len());
    for &(id, start) in trace.start {
        let lo = impacts.partition_point(|&(b, _, _)| b < id);
        let hi = impacts.partition_point(|&(b, _, _)| b <= id);
        let end = world.ball(id).map(|b| b.pos);
        if lo == hi && end.is_none() {
            continue;
        }
        let mut pts = Vec::with_capacity(hi - lo + 2);
        pts.push(start);
        pts.extend(impacts[lo..hi].iter().map(|&(_, _, p)| p));
        pts.extend(end);
        out.push((id, pts));
    }
    out
}

/// The contact point and normal of an event that has both (ball or rectangle against a tile,
/// a wall, a rectangle or a ball); `None` for the others.
#[must_use]
pub fn contact_of(e: &Event) -> Option<(Vec2, Vec2)> {
    let Event::Contact(c) = *e else {
        return None;
    };
    match (c.body, c.other) {
        (Body::Ball(_), Target::Cell(_) | Target::Wall(_) | Target::Ball(_) | Target::Rect(_))
        | (Body::Rect(_), Target::Cell(_) | Target::Rect(_)) => Some((c.point, c.normal)),
        _ => None,
    }
}
