//! # collide-render
//!
//! A small software rasteriser that paints a [`World`](collide_world::World) of `collide-world` into a pixel buffer
//! of any size: the tile grid (walls and bricks in the BricksBeater colours), rectangles,
//! anti-aliased balls and the outline of the world's closed walls. It is what `collide render`
//! uses to write PNG files, and what the windowed frontends (minifb, pixels) use to fill their
//! frame buffers.
//!
//! The crate depends on `collide-core` and `collide-world` only. It must never depend on a
//! window, GPU, image-format or command-line crate: callers bring the buffer and do the I/O.
//!
//! # Pieces
//! - [`PixelTarget`]: where pixels go. Painting calls only `put`, `get`, `fill_span` and
//!   `blend`, so one painting code serves every pixel format. Provided targets:
//!   [`Rgba8Target`] (a borrowed `&mut [u8]`, 4 bytes per pixel, e.g. for `pixels` or PNG),
//!   [`Xrgb32Target`] (a borrowed `&mut [u32]` of `0RGB` words, e.g. for `minifb`) and
//!   [`Canvas`] (an owned RGBA8 image).
//! - [`Camera`]: the map from world units to pixels (`pixel = world · scale + offset`);
//!   [`Camera::fit`] fits a world rectangle into the buffer, letterboxed to keep the aspect
//!   ratio.
//! - [`Style`]: the colours and the cell margin; [`Style::default`] is BricksBeater's look.
//! - [`render`] paints a world with a camera and a style; [`render_rgba8`] is the one-call
//!   version for an RGBA8 buffer with a fitted camera and the default style.
//! - [`render_frame`] paints a whole [`Frame`]: the world with a colour per ball (a lookup
//!   the caller passes, e.g. a game's billiard colours), extra [`Item`]s in world units (a
//!   game's power-ups and aim preview: boxes, discs, lines, labels), velocity lines, the
//!   debug trace of the last step ([`StepTrace`]: swept paths rebuilt from the step's events,
//!   contact normals) and a text [`Hud`] ([`draw_hud`]). The renderer knows no game: these
//!   are plain descriptions.
//! - [`draw`]: the primitives in pixel space (boxes, translucent boxes, anti-aliased discs and
//!   lines, text in the public-domain 8×8 bitmap font of the `font8x8` crate) and
//!   [`draw::DiscPainter`], which stamps discs from cached coverage masks.
//!
//! # Speed
//! Balls are painted band by band (64 rows at a time, each ball in every band it touches,
//! in storage order) so that the frame buffer stays in cache, with cached disc stamps and
//! integer blending: 10 000 balls over a 51 × 31 level at 1280 × 720 take about 5 ms of one
//! core here (`cargo bench -p collide-render --bench render`).
//!
//! # Pixel model
//! Pixel `(x, y)` is the unit square `[x, x + 1) × [y, y + 1)` of pixel space, its centre at
//! `(x + 0.5, y + 0.5)`. Boxes (cells, rectangles) are filled crisply: a pixel takes a box's
//! colour when its centre lies in the box (min edges included, max edges excluded), so boxes
//! that share an edge never overlap nor leave a gap. Balls are anti-aliased: a pixel's coverage
//! is `clamp(r + 0.5 - d, 0, 1)` where `d` is the distance in pixels from the pixel centre to
//! the ball's centre (rounded to 1/16 pixel) and `r` the radius in pixels (at least
//! [`Style::min_ball_radius_px`], so that tiny balls stay visible when zoomed out). Blending
//! is `old + (new − old)·coverage` per channel, the coverage quantised to 1/256
//! ([`Rgb::mix`]). Everything is clipped to the image of the world rectangle; outside it is
//! the letterbox.
//!
//! # Example
//! ```
//! use collide_core::Vec2;
//! use collide_render::{render, Camera, Canvas, Style};
//! use collide_world::{BallDesc, StepConfig, Walls, World};
//!
//! let mut world = World::new(Vec2::new(100.0, 50.0), Walls::ALL, StepConfig::default()).unwrap();
//! world.add_ball(BallDesc { pos: Vec2::new(50.0, 25.0), radius: 5.0, ..Default::default() }).unwrap();
//! let mut canvas = Canvas::new(200, 200).unwrap();
//! let camera = Camera::fit_world(&world, canvas.width(), canvas.height());
//! // The 100 × 50 world fills the 200-pixel width at scale 2, centred vertically.
//! assert_eq!(camera.to_pixel(Vec2::ZERO), Vec2::new(0.0, 50.0));
//! let style = Style::default();
//! render(&world, &camera, &style, &mut canvas);
//! assert_eq!(canvas.rgb(100, 100), style.ball); // the ball's centre
//! assert_eq!(canvas.rgb(100, 10), style.letterbox); // above the world
//! ```

mod camera;
pub mod draw;
mod frame;
mod paint;
mod style;
mod target;

pub use camera::{Camera, PixelRect};
pub use frame::{contact_of, swept_paths, Frame, Hud, Item, StepTrace};
pub use paint::{draw_hud, render, render_frame, render_rgba8};
pub use style::{brick_color, mix_weight, Rgb, Style};
pub use target::{Canvas, PixelTarget, RenderError, Rgba8Target, Xrgb32Target};

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_overlay;
