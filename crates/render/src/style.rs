//! Colours and drawing settings: [`Rgb`], [`Style`], [`brick_color`].

use collide_world::{Cell, RectKind};

/// An opaque 8-bit sRGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Rgb {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
}

impl Rgb {
    /// Black, `(0, 0, 0)`.
    pub const BLACK: Rgb = Rgb::new(0, 0, 0);
    /// White, `(255, 255, 255)`.
    pub const WHITE: Rgb = Rgb::new(255, 255, 255);

    /// The colour `(r, g, b)`.
    #[must_use]
    pub const fn new(r: u8, g: u8, b: u8) -> Self {
        Rgb { r, g, b }
    }

    /// The colour as a `0x00RRGGBB` word (minifb's pixel format).
    #[must_use]
    pub const fn to_xrgb(self) -> u32 {
        (self.r as u32) << 16 | (self.g as u32) << 8 | self.b as u32
    }

    /// The colour of a `0x??RRGGBB` word (the top byte is ignored).
    #[must_use]
    pub const fn from_xrgb(w: u32) -> Self {
        Rgb::new((w >> 16) as u8, (w >> 8) as u8, w as u8)
    }

    /// `self + (other − self)·t`, per channel, rounded half up, with `t` quantised to
    /// 1/256: `k = round(256·t)`, channel `(a·(256 − k) + b·k + 128) >> 8`. `t` is clamped to
    /// `[0, 1]` (NaN gives `self`), so `t = 0` gives `self`, `t = 1` gives `other` and
    /// `t = 0.5` the rounded-up average. Integer arithmetic: this is the renderer's innermost
    /// loop, and every [`crate::PixelTarget`] blends with exactly this formula.
    #[must_use]
    #[inline]
    pub fn mix(self, other: Rgb, t: f32) -> Rgb {
        let k = mix_weight(t);
        let ch = |a: u8, b: u8| -> u8 {
            // <= 255·256 + 128 < 2^16, and >> 8 gives <= 255.
            ((u32::from(a) * (256 - k) + u32::from(b) * k + 128) >> 8) as u8
        };
        Rgb::new(
            ch(self.r, other.r),
            ch(self.g, other.g),
            ch(self.b, other.b),
        )
    }
}

/// The integer weight `k = round(256·t)` in `[0, 256]` of [`Rgb::mix`] (`t` clamped to `[0, 1]`,
/// NaN gives 0).
#[must_use]
#[inline]
pub fn mix_weight(t: f32) -> u32 {
    if t.is_nan() {
        0
    } else {
        // In [0.5, 256.5): truncation rounds half up.
        (t.clamp(0.0, 1.0) * 256.0 + 0.5) as u32
    }
}

/// The colour of a brick of kind `kind` (its level character): BricksBeater's colours for
/// `R` (214, 63, 37), `Y` (228, 174, 31), `G` (15, 216, 15), `C` (39, 253, 251),
/// `B` (68, 112, 202) and `W` (234, 234, 234); any other byte gets one of eight fixed colours
/// chosen by `kind % 8`.
#[must_use]
pub const fn brick_color(kind: u8) -> Rgb {
    match kind {
        b'R' => Rgb::new(214, 63, 37),
        b'Y' => Rgb::new(228, 174, 31),
        b'G' => Rgb::new(15, 216, 15),
        b'C' => Rgb::new(39, 253, 251),
        b'B' => Rgb::new(68, 112, 202),
        b'W' => Rgb::new(234, 234, 234),
        _ => {
            const OTHER: [Rgb; 8] = [
                Rgb::new(238, 102, 170),
                Rgb::new(153, 102, 238),
                Rgb::new(102, 204, 170),
                Rgb::new(255, 136, 68),
                Rgb::new(170, 204, 68),
                Rgb::new(68, 170, 238),
                Rgb::new(204, 136, 102),
                Rgb::new(187, 187, 255),
            ];
            OTHER[(kind % 8) as usize]
        }
    }
}

/// Colours and settings of a drawing. [`Style::default`] is BricksBeater's look: grey walls
/// (163, 163, 162), the brick colours of [`brick_color`], cells drawn 7/9 of their side with a
/// margin of 1/9 on each side (7 px of fill in a 9 px cell at zoom 1).
#[derive(Clone, Debug)]
pub struct Style {
    /// Inside the world rectangle, where nothing is drawn.
    pub background: Rgb,
    /// Outside the image of the world rectangle (letterbox bars).
    pub letterbox: Rgb,
    /// Wall cells ([`Cell::Wall`]).
    pub wall: Rgb,
    /// Brick cells' colour by kind byte; default [`brick_color`].
    pub brick: fn(u8) -> Rgb,
    /// Balls.
    pub ball: Rgb,
    /// Static rectangles.
    pub static_rect: Rgb,
    /// Kinematic rectangles (paddles).
    pub kinematic_rect: Rgb,
    /// Dynamic rectangles.
    pub dynamic_rect: Rgb,
    /// Sensor rectangles (trigger areas: balls pass through them).
    pub sensor_rect: Rgb,
    /// Static segments (walls and lanes of a table).
    pub segment: Rgb,
    /// Static circles (bumpers).
    pub bumper: Rgb,
    /// The fill of static convex polygons (blocks; their outline is [`Style::segment`]).
    pub polygon: Rgb,
    /// Flippers (`collide_world::Flipper`).
    pub flipper: Rgb,
    /// The outline along the world's closed walls (open sides have none).
    pub outline: Rgb,
    /// Width of the wall outline, pixels at zoom 1 (scaled with the zoom, at least 1 pixel).
    pub outline_width: f64,
    /// Margin left empty on each side of a cell, as a fraction of the cell's side (1/9).
    pub cell_margin: f64,
    /// Below this cell side in pixels the margin is dropped so that small cells stay visible
    /// (3 pixels).
    pub min_margin_cell_px: f64,
    /// Smallest radius a ball is drawn with, in pixels (0.6), so that small balls stay
    /// visible when zoomed out.
    pub min_ball_radius_px: f64,
    /// Velocity lines ([`crate::Frame::velocity_lines`]).
    pub velocity: Rgb,
    /// Contact normals of the debug view ([`crate::StepTrace`]).
    pub normal: Rgb,
    /// Contact points of the debug view.
    pub contact: Rgb,
    /// Swept paths of the debug view.
    pub path: Rgb,
    /// Text of the HUD ([`crate::Hud`]).
    pub hud_text: Rgb,
    /// Panel behind the HUD's text.
    pub hud_panel: Rgb,
    /// Opacity of the HUD's panel, `[0, 1]` (0.75).
    pub hud_panel_alpha: f32,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            background: Rgb::new(12, 12, 20),
            letterbox: Rgb::new(0, 0, 0),
            wall: Rgb::new(163, 163, 162),
            brick: brick_color,
            ball: Rgb::new(255, 255, 255),
            static_rect: Rgb::new(128, 128, 128),
            kinematic_rect: Rgb::new(255, 160, 48),
            sensor_rect: Rgb::new(40, 90, 60),
            segment: Rgb::new(200, 200, 220),
            bumper: Rgb::new(230, 80, 160),
            polygon: Rgb::new(70, 110, 150),
            flipper: Rgb::new(250, 190, 60),
            dynamic_rect: Rgb::new(176, 96, 232),
            outline: Rgb::new(96, 128, 176),
            outline_width: 1.0,
            cell_margin: 1.0 / 9.0,
            min_margin_cell_px: 3.0,
            min_ball_radius_px: 0.6,
            velocity: Rgb::new(80, 220, 120),
            normal: Rgb::new(255, 64, 200),
            contact: Rgb::new(255, 255, 0),
            path: Rgb::new(90, 160, 255),
            hud_text: Rgb::new(240, 240, 240),
            hud_panel: Rgb::new(0, 0, 0),
            hud_panel_alpha: 0.75,
        }
    }
}

impl Style {
    /// The colour of a cell, `None` for an empty one (a sensor cell has the sensor
    /// rectangles' colour, a slope the walls' colour).
    #[must_use]
    pub fn cell_color(&self, cell: Cell) -> Option<Rgb> {
        match cell {
            Cell::Empty => None,
            Cell::Wall | Cell::Slope(_) => Some(self.wall),
            Cell::Brick(k) => Some((self.brick)(k)),
            Cell::Sensor(_) => Some(self.sensor_rect),
        }
    }

    /// The colour of a rectangle of this kind; a sensor (`sensor`, [`collide_world::Surface::sensor`])
    /// has its own colour whatever its kind.
    #[must_use]
    pub fn rect_color(&self, kind: RectKind, sensor: bool) -> Rgb {
        match (kind, sensor) {
            (_, true) => self.sensor_rect,
            (RectKind::Static, false) => self.static_rect,
            (RectKind::Kinematic, false) => self.kinematic_rect,
            (RectKind::Dynamic, false) => self.dynamic_rect,
        }
    }
}
