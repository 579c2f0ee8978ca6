//! The painter: [`render`] and [`render_rgba8`].

use collide_core::{Aabb, Real, Vec2};
use collide_world::{CellCoord, World};

use crate::camera::{Camera, PixelRect};
use crate::style::{Rgb, Style};
use crate::target::{PixelTarget, RenderError, Rgba8Target};

/// Paints `world` into `target` as seen by `camera`, in this order:
///
/// 1. the letterbox colour everywhere, then the background over the image of the world
///    rectangle `[0, 0]–world.size()` (the *view*; everything below is clipped to it);
/// 2. the solid grid cells in their colours ([`Style::cell_color`]), each a square inset by
///    [`Style::cell_margin`] of its side on every side (dropped for cells smaller than
///    [`Style::min_margin_cell_px`] pixels);
/// 3. an outline [`Style::outline_width`] pixels wide (scaled with the zoom, at least 1) just
///    inside each closed wall of the world;
/// 4. the rectangles in their kind's colour ([`Style::rect_color`]);
/// 5. the balls, anti-aliased (see the crate docs' pixel model).
///
/// A camera whose scale is not finite and positive paints only the letterbox.
pub fn render<T: PixelTarget + ?Sized>(
    world: &World,
    camera: &Camera,
    style: &Style,
    target: &mut T,
) {
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
    if view.is_empty() {
        return;
    }

    // 2. Cells.
    paint_grid(world, camera, style, target, &view);

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
                &PixelRect::covering(min, max, w, h).intersect(&view),
                style.outline,
            );
        }
    }

    // 4. Rectangles.
    for r in world.rects() {
        let px = camera.pixels_of(&r.aabb, w, h).intersect(&view);
        fill_rect(target, &px, style.rect_color(r.kind));
    }

    // 5. Balls.
    for b in world.balls() {
        let r = (b.radius * camera.scale).max(style.min_ball_radius_px);
        paint_disc(target, camera.to_pixel(b.pos), r, style.ball, &view);
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

fn fill_rect<T: PixelTarget + ?Sized>(target: &mut T, r: &PixelRect, rgb: Rgb) {
    if r.is_empty() {
        return;
    }
    for y in r.y0..r.y1 {
        target.fill_span(y, r.x0, r.x1, rgb);
    }
}

/// Floor of `v` clamped to `[0, n]`.
fn clamp_floor(v: Real, n: usize) -> usize {
    let v = v.floor();
    if v.is_nan() || v <= 0.0 {
        0
    } else if v >= n as Real {
        n
    } else {
        v as usize
    }
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
            fill_rect(target, &camera.pixels_of(&inner, w, h).intersect(view), rgb);
        }
    }
}

/// An anti-aliased disc of radius `r` pixels centred at pixel-space point `c`, clipped to
/// `clip`: coverage `clamp(r + 0.5 − d, 0, 1)` for a pixel centre at distance `d`.
fn paint_disc<T: PixelTarget + ?Sized>(
    target: &mut T,
    c: Vec2,
    r: Real,
    rgb: Rgb,
    clip: &PixelRect,
) {
    if !(c.is_finite() && r.is_finite() && r > 0.0) {
        return;
    }
    let x0 = clamp_floor(c.x - r - 1.0, clip.x1).max(clip.x0);
    let x1 = clamp_floor(c.x + r + 1.0, clip.x1 - 1) + 1;
    let y0 = clamp_floor(c.y - r - 1.0, clip.y1).max(clip.y0);
    let y1 = clamp_floor(c.y + r + 1.0, clip.y1 - 1) + 1;
    // Fully covered pixels: d <= r - 0.5.
    let inner = r - 0.5;
    for y in y0..y1 {
        let dy = y as Real + 0.5 - c.y;
        // The run of fully covered pixels in this row: centres within `half` of c.x.
        let (f0, f1) = if inner > dy.abs() {
            let half = (inner * inner - dy * dy).sqrt();
            // Centres x + 0.5 in [c.x - half, c.x + half].
            let a = clamp_floor((c.x - half - 0.5).ceil(), x1).max(x0);
            let b = (clamp_floor((c.x + half - 0.5).floor() + 1.0, x1)).max(a);
            (a, b)
        } else {
            (x0, x0)
        };
        for x in (x0..f0).chain(f1..x1) {
            let dx = x as Real + 0.5 - c.x;
            let d = (dx * dx + dy * dy).sqrt();
            let a = (r + 0.5 - d).clamp(0.0, 1.0);
            if a > 0.0 {
                target.blend(x, y, rgb, a as f32);
            }
        }
        target.fill_span(y, f0, f1, rgb);
    }
}
