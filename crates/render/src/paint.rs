//! The painter: [`render`], [`render_frame`] and [`render_rgba8`].

use collide_core::{Aabb, Real, Vec2};
use collide_world::{Cell, CellCoord, World};

use crate::camera::{Camera, PixelRect};
use crate::draw::{
    blend_rect, clamp_floor, draw_capsule, draw_disc, draw_line, draw_text, fill_convex_polygon,
    fill_half_box, fill_rect, full_clip, text_width, DiscPainter, GLYPH_PX,
};
use crate::frame::{contact_of, swept_paths, Frame, Hud, Item};
use crate::style::Style;
use crate::target::{PixelTarget, RenderError, Rgba8Target};

/// Paints `world` into `target` as seen by `camera`: [`render_frame`] of
/// [`Frame::new`]`(world)`, that is, in this order:
///
/// 1. the letterbox colour everywhere, then the background over the image of the world
///    rectangle `[0, 0]–world.size()` (the *view*; everything below is clipped to it);
/// 2. the solid grid cells in their colours ([`Style::cell_color`]), each a square inset by
///    [`Style::cell_margin`] of its side on every side (dropped for cells smaller than
///    [`Style::min_margin_cell_px`] pixels);
/// 3. an outline [`Style::outline_width`] pixels wide (scaled with the zoom, at least 1) just
///    inside each closed wall of the world;
/// 4. the rectangles in their kind's colour ([`Style::rect_color`]), then the static shapes:
///    bumpers as anti-aliased discs ([`Style::bumper`]), segments as anti-aliased lines about
///    one world unit wide ([`Style::segment`]), and the flippers where they are at the
///    world's time as anti-aliased capsules ([`Style::flipper`]);
/// 5. the balls, anti-aliased (see the crate docs' pixel model).
///
/// A camera whose scale is not finite and positive paints only the letterbox.
pub fn render<T: PixelTarget + ?Sized>(
    world: &World,
    camera: &Camera,
    style: &Style,
    target: &mut T,
) {
    render_frame(&Frame::new(world), camera, style, target);
}

/// Paints a whole frame: everything [`render`] paints (with each ball in
/// `frame.ball_color`'s colour when given), then, clipped to the world's view:
///
/// 6. the extra items of `frame.items`, in order;
/// 7. velocity lines ([`Style::velocity`]) when `frame.velocity_lines` is set: from each
///    ball's rim to where its centre will be in that many seconds (none when that is inside
///    the ball);
/// 8. the debug trace when `frame.trace` is set: each ball's swept path ([`Style::path`],
///    see [`swept_paths`]), then at each contact point a dot ([`Style::contact`]) and the
///    normal ([`Style::normal`]);
///
/// and, over the whole target, 9. the HUD (`frame.hud`): a translucent panel
/// ([`Style::hud_panel`], [`Style::hud_panel_alpha`]) behind lines of text
/// ([`Style::hud_text`]).
pub fn render_frame<T: PixelTarget + ?Sized>(
    frame: &Frame<'_>,
    camera: &Camera,
    style: &Style,
    target: &mut T,
) {
    let world = frame.world;
    let (w, h) = (target.width(), target.height());
    let world_box = Aabb::new(Vec2::ZERO, world.size());
    let valid = camera.scale.is_finite() && camera.scale > 0.0 && camera.offset.is_finite();
    let view = if valid {
        camera.pixels_of(&world_box, w, h)
    } else {
        PixelRect::default()
    };

    // 1. Letterbox and background.
    for y in 0..h {
        if view.is_empty() || y < view.y0 || y >= view.y1 {
            target.fill_span(y, 0, w, style.letterbox);
        } else {
            target.fill_span(y, 0, view.x0, style.letterbox);
            target.fill_span(y, view.x0, view.x1, style.background);
            target.fill_span(y, view.x1, w, style.letterbox);
        }
    }
    if !view.is_empty() {
        paint_world(frame, camera, style, target, &view);
    }
    if let Some(hud) = &frame.hud {
        draw_hud(hud, style, target);
    }
}

fn paint_world<T: PixelTarget + ?Sized>(
    frame: &Frame<'_>,
    camera: &Camera,
    style: &Style,
    target: &mut T,
    view: &PixelRect,
) {
    let world = frame.world;
    let (w, h) = (target.width(), target.height());

    // 2. Cells.
    paint_grid(world, camera, style, target, view);

    // 3. Outline of the closed walls, inside the world rectangle.
    let walls = world.walls();
    let t = (style.outline_width * camera.scale).round().max(1.0);
    let tl = camera.to_pixel(Vec2::ZERO);
    let br = camera.to_pixel(world.size());
    let sides = [
        (walls.left, Vec2::new(tl.x, tl.y), Vec2::new(tl.x + t, br.y)),
        (walls.top, Vec2::new(tl.x, tl.y), Vec2::new(br.x, tl.y + t)),
        (
            walls.right,
            Vec2::new(br.x - t, tl.y),
            Vec2::new(br.x, br.y),
        ),
        (
            walls.bottom,
            Vec2::new(tl.x, br.y - t),
            Vec2::new(br.x, br.y),
        ),
    ];
    for (closed, min, max) in sides {
        if closed {
            fill_rect(
                target,
                &PixelRect::covering(min, max, w, h).intersect(view),
                style.outline,
            );
        }
    }

    // 4. Rectangles.
    for r in world.rects() {
        let px = camera.pixels_of(&r.aabb, w, h).intersect(view);
        fill_rect(target, &px, style.rect_color(r.kind, r.surface.sensor));
    }

    // 4b. Static shapes: bumpers as discs (sensor circles in the sensors' colour), segments as
    // lines about a world unit wide, polygons filled and outlined.
    for sh in world.shapes() {
        if let Some(c) = sh.kind.disc() {
            let color = if sh.surface.sensor {
                style.sensor_rect
            } else {
                style.bumper
            };
            paint_disc_shape(&c, color, camera, target, view);
        } else if let Some(segment) = sh.kind.segment() {
            paint_segment_shape(&segment, style.segment, camera, target, view);
        } else if let Some(polygon) = sh.kind.polygon() {
            paint_polygon_shape(&polygon, style, camera, target, view);
        }
    }

    // 4c. Flippers, where they are at the world's time: anti-aliased capsules.
    for fl in world.flippers() {
        let c = fl.capsule_at(world.time());
        let (a, b) = (camera.to_pixel(c.segment.a), camera.to_pixel(c.segment.b));
        // At least a pixel wide, as a segment is.
        let r = (c.radius * camera.scale).max(0.5);
        draw_capsule(target, a, b, r, style.flipper, view);
    }

    // 5. Balls.
    paint_balls(frame, camera, style, target, view);

    // 6. Items.
    for item in frame.items {
        paint_item(item, camera, style, target, view);
    }

    // 7. Velocity lines.
    if let Some(s) = frame.velocity_lines {
        if s.is_finite() {
            for b in world.balls() {
                // From the ball's rim (the part over the ball would hide its colour) to where
                // it will be in `s` seconds.
                let len = b.vel.length() * s;
                if len > b.radius {
                    let dir = b.vel / b.vel.length();
                    let a = camera.to_pixel(b.pos + dir * b.radius);
                    let z = camera.to_pixel(b.pos + b.vel * s);
                    draw_line(target, a, z, style.velocity, view);
                }
            }
        }
    }

    // 8. Debug trace.
    if let Some(trace) = &frame.trace {
        for (_, pts) in swept_paths(world, trace) {
            for seg in pts.windows(2) {
                let a = camera.to_pixel(seg[0]);
                let z = camera.to_pixel(seg[1]);
                draw_line(target, a, z, style.path, view);
            }
        }
        let dot = (1.0 * camera.scale).max(2.0);
        for e in trace.events {
            if let Some((p, n)) = contact_of(e) {
                let a = camera.to_pixel(p);
                let z = camera.to_pixel(p + n * trace.normal_length);
                draw_line(target, a, z, style.normal, view);
                draw_disc(target, a, dot, style.contact, view);
            }
        }
    }
}

/// Rows of pixels per band of [`paint_balls`]: a band of a 1280-pixel-wide 0RGB buffer is
/// 320 KiB, which stays in the core's L2 cache while its balls are painted.
const BAND_ROWS: usize = 64;

/// Paints the balls band by band: each ball is listed in the bands of rows its disc touches,
/// in storage order, and each band paints its balls clipped to its rows. Every pixel gets
/// the same blends in the same order as painting the balls one after the other over the
/// whole view (so the image is identical), but the frame buffer is walked once, in order,
/// instead of at random: with thousands of balls the painter is bound by memory, not
/// arithmetic.
fn paint_balls<T: PixelTarget + ?Sized>(
    frame: &Frame<'_>,
    camera: &Camera,
    style: &Style,
    target: &mut T,
    view: &PixelRect,
) {
    let balls = frame.world.balls();
    if balls.is_empty() || view.is_empty() {
        return;
    }
    let bands = (view.y1 - view.y0).div_ceil(BAND_ROWS);
    // Counting sort of (band, ball index) pairs, stable in ball order.
    let span = |b: &collide_world::Ball| -> Option<(usize, usize, Vec2, Real)> {
        let r = (b.radius * camera.scale).max(style.min_ball_radius_px);
        let c = camera.to_pixel(b.pos);
        if !(c.is_finite() && r.is_finite()) {
            return None;
        }
        let top = c.y - r - 1.0;
        let bottom = c.y + r + 1.0;
        if bottom < view.y0 as Real || top >= view.y1 as Real {
            return None;
        }
        let first = (clamp_floor(top, view.y1).max(view.y0) - view.y0) / BAND_ROWS;
        let last = (clamp_floor(bottom, view.y1 - 1).max(view.y0) - view.y0) / BAND_ROWS;
        Some((first, last.min(bands - 1), c, r))
    };
    let mut counts = vec![0u32; bands + 1];
    for b in balls.iter() {
        if let Some((first, last, _, _)) = span(&b) {
            for band in first..=last {
                counts[band + 1] += 1;
            }
        }
    }
    for i in 1..=bands {
        counts[i] += counts[i - 1];
    }
    let mut order = vec![0u32; counts[bands] as usize];
    let mut next = counts.clone();
    for (i, b) in balls.iter().enumerate() {
        if let Some((first, last, _, _)) = span(&b) {
            for band in first..=last {
                order[next[band] as usize] = i as u32;
                next[band] += 1;
            }
        }
    }
    let mut discs = DiscPainter::new();
    for band in 0..bands {
        let y0 = view.y0 + band * BAND_ROWS;
        let clip = PixelRect {
            x0: view.x0,
            y0,
            x1: view.x1,
            y1: (y0 + BAND_ROWS).min(view.y1),
        };
        for &i in &order[counts[band] as usize..counts[band + 1] as usize] {
            let Some(b) = balls.get(i as usize) else {
                continue;
            };
            let r = (b.radius * camera.scale).max(style.min_ball_radius_px);
            let rgb = match frame.ball_color {
                Some(f) => f(&b),
                None => style.ball,
            };
            discs.paint(target, camera.to_pixel(b.pos), r, rgb, &clip);
        }
    }
}

fn paint_item<T: PixelTarget + ?Sized>(
    item: &Item,
    camera: &Camera,
    style: &Style,
    target: &mut T,
    view: &PixelRect,
) {
    let (w, h) = (target.width(), target.height());
    match item {
        Item::Disc {
            center,
            radius,
            color,
        } => {
            let r = (radius * camera.scale).max(style.min_ball_radius_px);
            draw_disc(target, camera.to_pixel(*center), r, *color, view);
        }
        Item::Box { aabb, color } => {
            fill_rect(
                target,
                &camera.pixels_of(aabb, w, h).intersect(view),
                *color,
            );
        }
        Item::Line { from, to, color } => {
            draw_line(
                target,
                camera.to_pixel(*from),
                camera.to_pixel(*to),
                *color,
                view,
            );
        }
        Item::Label {
            center,
            text,
            height,
            color,
        } => {
            let px_height = height * camera.scale;
            if !(px_height.is_finite() && center.is_finite()) {
                return;
            }
            let scale = ((px_height / GLYPH_PX as Real).floor() as usize).max(1);
            let tw = text_width(text, scale) as Real;
            let th = (GLYPH_PX * scale) as Real;
            let c = camera.to_pixel(*center);
            let x = (c.x - tw * 0.5).round();
            let y = (c.y - th * 0.5).round();
            if x < 0.0 || y < 0.0 || x >= w as Real || y >= h as Real {
                return;
            }
            draw_text(target, x as usize, y as usize, scale, text, *color, view);
        }
    }
}

/// Paints a HUD over what `target` holds: a translucent panel ([`Style::hud_panel`],
/// [`Style::hud_panel_alpha`]) [`Hud::padding`] pixels around the text, then the lines of
/// text ([`Style::hud_text`]), [`Hud::line_height`] apart. Clipped to the target; an empty
/// HUD or scale 0 paints nothing.
pub fn draw_hud<T: PixelTarget + ?Sized>(hud: &Hud<'_>, style: &Style, target: &mut T) {
    if hud.lines.is_empty() || hud.scale == 0 {
        return;
    }
    let pad = hud.padding();
    let width = hud
        .lines
        .iter()
        .map(|l| text_width(l, hud.scale))
        .max()
        .unwrap_or(0);
    let height = hud.lines.len() * hud.line_height() - 2 * hud.scale;
    let panel = PixelRect {
        x0: hud.x.saturating_sub(pad),
        y0: hud.y.saturating_sub(pad),
        x1: hud.x.saturating_add(width + pad),
        y1: hud.y.saturating_add(height + pad),
    };
    blend_rect(target, &panel, style.hud_panel, style.hud_panel_alpha);
    let clip = full_clip(target);
    for (i, line) in hud.lines.iter().enumerate() {
        let y = hud.y.saturating_add(i * hud.line_height());
        draw_text(target, hud.x, y, hud.scale, line, style.hud_text, &clip);
    }
}

/// Paints `world` into an RGBA8 buffer of `width × height` pixels (4 bytes per pixel, rows top
/// to bottom, no padding) with [`Camera::fit_world`] and [`Style::default`], and returns the
/// camera used (to map mouse positions back to the world, for instance).
///
/// # Errors
/// [`RenderError`] if `buf` is not `width · height · 4` bytes long.
pub fn render_rgba8(
    world: &World,
    buf: &mut [u8],
    width: usize,
    height: usize,
) -> Result<Camera, RenderError> {
    let mut target = Rgba8Target::new(buf, width, height)?;
    let camera = Camera::fit_world(world, width, height);
    render(world, &camera, &Style::default(), &mut target);
    Ok(camera)
}

fn paint_grid<T: PixelTarget + ?Sized>(
    world: &World,
    camera: &Camera,
    style: &Style,
    target: &mut T,
    view: &PixelRect,
) {
    let Some(grid) = world.grid() else { return };
    if grid.cols() == 0 || grid.rows() == 0 {
        return;
    }
    let (w, h) = (target.width(), target.height());
    let cell = grid.cell_size();
    let margin = if cell * camera.scale >= style.min_margin_cell_px {
        cell * style.cell_margin.clamp(0.0, 0.5)
    } else {
        0.0
    };
    // Only the cells under the view: its corners back in world units, in cell coordinates.
    let lo = (camera.to_world(Vec2::new(view.x0 as Real, view.y0 as Real)) - grid.origin()) / cell;
    let hi = (camera.to_world(Vec2::new(view.x1 as Real, view.y1 as Real)) - grid.origin()) / cell;
    let c0 = clamp_floor(lo.x - 1.0, grid.cols());
    let c1 = clamp_floor(hi.x + 1.0, grid.cols() - 1) + 1;
    let r0 = clamp_floor(lo.y - 1.0, grid.rows());
    let r1 = clamp_floor(hi.y + 1.0, grid.rows() - 1) + 1;
    let cells = grid.cells();
    for row in r0..r1 {
        for col in c0..c1 {
            let Some(rgb) = style.cell_color(cells[row * grid.cols() + col]) else {
                continue;
            };
            let b = grid.cell_aabb(CellCoord::new(col as u32, row as u32));
            let inner = Aabb::new(b.min + margin, b.max - margin);
            let px = camera.pixels_of(&inner, w, h);
            match cells[row * grid.cols() + col] {
                Cell::Slope(solid) => fill_half_box(target, &px, solid, rgb, view),
                _ => fill_rect(target, &px.intersect(view), rgb),
            }
        }
    }
}

/// A static circle (a bumper, or a sensor's area): a filled disc in `color`.
fn paint_disc_shape<T: PixelTarget + ?Sized>(
    c: &collide_world::Circle,
    color: crate::Rgb,
    camera: &Camera,
    target: &mut T,
    view: &PixelRect,
) {
    draw_disc(
        target,
        camera.to_pixel(c.center),
        c.radius * camera.scale,
        color,
        view,
    );
}

/// A static convex polygon: filled in [`Style::polygon`], its edges drawn as segments
/// ([`Style::segment`]).
fn paint_polygon_shape<T: PixelTarget + ?Sized>(
    polygon: &collide_world::ConvexPolygon,
    style: &Style,
    camera: &Camera,
    target: &mut T,
    view: &PixelRect,
) {
    let mut px = [Vec2::ZERO; collide_world::collide_core::MAX_POLYGON_VERTICES];
    for (slot, &p) in px.iter_mut().zip(polygon.vertices()) {
        *slot = camera.to_pixel(p);
    }
    fill_convex_polygon(target, &px[..polygon.len()], style.polygon, view);
    for i in 0..polygon.len() {
        paint_segment_shape(&polygon.edge(i), style.segment, camera, target, view);
    }
}

/// A static segment: a line about a world unit wide, drawn as parallel strokes half a pixel
/// apart across the width.
fn paint_segment_shape<T: PixelTarget + ?Sized>(
    segment: &collide_world::collide_core::Segment,
    color: crate::Rgb,
    camera: &Camera,
    target: &mut T,
    view: &PixelRect,
) {
    let (a, b) = (camera.to_pixel(segment.a), camera.to_pixel(segment.b));
    let d = b - a;
    let len = d.length();
    let n = if len > 0.0 {
        Vec2::new(-d.y, d.x) / len
    } else {
        Vec2::ZERO
    };
    let strokes = (2.0 * camera.scale).ceil().clamp(1.0, 64.0) as usize;
    for k in 0..strokes {
        let off = n * (0.5 * (k as Real - 0.5 * (strokes - 1) as Real));
        draw_line(target, a + off, b + off, color, view);
    }
}
