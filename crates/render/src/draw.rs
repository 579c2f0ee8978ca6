//! Drawing primitives in pixel space: boxes, translucent boxes, anti-aliased discs, lines and
//! convex polygons,
//! and bitmap text. Every primitive takes a clip rectangle and never writes outside it (nor
//! outside the target), and ignores non-finite coordinates instead of panicking.
//!
//! Coordinates follow the crate's pixel model: pixel `(x, y)` is the unit square
//! `[x, x + 1) × [y, y + 1)`, its centre at `(x + 0.5, y + 0.5)`.

use collide_core::{Aabb, Corner, Real, Vec2};

use crate::camera::PixelRect;
use crate::style::Rgb;
use crate::target::PixelTarget;

/// Side of a glyph of the bitmap font at scale 1, pixels: 8 (the public-domain 8×8 font of
/// the `font8x8` crate).
pub const GLYPH_PX: usize = 8;

/// The whole target as a clip rectangle.
#[must_use]
pub fn full_clip<T: PixelTarget + ?Sized>(target: &T) -> PixelRect {
    PixelRect {
        x0: 0,
        y0: 0,
        x1: target.width(),
        y1: target.height(),
    }
}

/// Fills the pixels of `r` with `rgb` (opaque).
pub fn fill_rect<T: PixelTarget + ?Sized>(target: &mut T, r: &PixelRect, rgb: Rgb) {
    let r = r.intersect(&full_clip(target));
    if r.is_empty() {
        return;
    }
    for y in r.y0..r.y1 {
        target.fill_span(y, r.x0, r.x1, rgb);
    }
}

/// Mixes `rgb` over the pixels of `r` with opacity `alpha` in `[0, 1]` (see
/// [`PixelTarget::blend`]).
pub fn blend_rect<T: PixelTarget + ?Sized>(target: &mut T, r: &PixelRect, rgb: Rgb, alpha: f32) {
    let r = r.intersect(&full_clip(target));
    if r.is_empty() {
        return;
    }
    if alpha >= 1.0 {
        fill_rect(target, &r, rgb);
        return;
    }
    for y in r.y0..r.y1 {
        for x in r.x0..r.x1 {
            target.blend(x, y, rgb, alpha);
        }
    }
}

/// Fills the half of the pixel box `r` on the side of its corner `solid` of the diagonal
/// between the two corners next to it (a slope cell, `collide_world::Cell::Slope`), clipped
/// to `clip`. The diagonal is anti-aliased: a pixel whose centre lies at signed distance `d`
/// (pixels, positive toward `solid`) from it gets coverage `clamp(d + 0.5, 0, 1)`, the model of
/// [`draw_disc`].
pub fn fill_half_box<T: PixelTarget + ?Sized>(
    target: &mut T,
    r: &PixelRect,
    solid: Corner,
    rgb: Rgb,
    clip: &PixelRect,
) {
    let area = r.intersect(clip).intersect(&full_clip(target));
    if area.is_empty() {
        return;
    }
    let b = Aabb::new(
        Vec2::new(r.x0 as Real, r.y0 as Real),
        Vec2::new(r.x1 as Real, r.y1 as Real),
    );
    // The diagonal runs between the two corners next to `solid`; its normal toward `solid`.
    let s = solid.signs();
    let (a, c) = (
        Corner::ALL
            .into_iter()
            .find(|k| k.signs() == Vec2::new(-s.x, s.y))
            .map_or(b.min, |k| k.point(&b)),
        Corner::ALL
            .into_iter()
            .find(|k| k.signs() == Vec2::new(s.x, -s.y))
            .map_or(b.max, |k| k.point(&b)),
    );
    let dir = c - a;
    let len = dir.length();
    if !(len > 0.0) {
        return;
    }
    let mut n = dir.perp() / len;
    if n.dot(solid.point(&b) - a) < 0.0 {
        n = -n;
    }
    for y in area.y0..area.y1 {
        for x in area.x0..area.x1 {
            let p = Vec2::new(x as Real + 0.5, y as Real + 0.5);
            let cov = ((p - a).dot(n) + 0.5).clamp(0.0, 1.0);
            if cov >= 1.0 {
                target.put(x, y, rgb);
            } else if cov > 0.0 {
                target.blend(x, y, rgb, cov as f32);
            }
        }
    }
}

/// Fills the convex polygon with vertices `points` (pixel space, counter-clockwise on the
/// screen: the order of `collide_core::ConvexPolygon`), clipped to `clip`, anti-aliased as
/// [`fill_half_box`]: a pixel whose centre lies at signed distance `d` (pixels, positive
/// inside) from the nearest edge's line gets coverage `clamp(d + 0.5, 0, 1)`. Fewer than three
/// points, a non-finite point or a degenerate edge draw nothing.
pub fn fill_convex_polygon<T: PixelTarget + ?Sized>(
    target: &mut T,
    points: &[Vec2],
    rgb: Rgb,
    clip: &PixelRect,
) {
    let n = points.len();
    if n < 3 || points.iter().any(|p| !p.is_finite()) {
        return;
    }
    let (lo, hi) = points[1..]
        .iter()
        .fold((points[0], points[0]), |(lo, hi), &p| {
            (lo.min(p), hi.max(p))
        });
    let bounds = PixelRect {
        x0: clamp_floor(lo.x - 1.0, target.width()),
        y0: clamp_floor(lo.y - 1.0, target.height()),
        x1: clamp_floor(hi.x + 2.0, target.width()),
        y1: clamp_floor(hi.y + 2.0, target.height()),
    };
    let area = bounds.intersect(clip).intersect(&full_clip(target));
    if area.is_empty() {
        return;
    }
    // Inward unit normals: the outward one of a counter-clockwise edge is its `perp()`.
    let mut inward = Vec::with_capacity(n);
    for i in 0..n {
        let d = points[(i + 1) % n] - points[i];
        let len = d.length();
        if len.is_nan() || len <= 0.0 {
            return;
        }
        inward.push(-d.perp() / len);
    }
    for y in area.y0..area.y1 {
        for x in area.x0..area.x1 {
            let p = Vec2::new(x as Real + 0.5, y as Real + 0.5);
            let d = (0..n)
                .map(|i| (p - points[i]).dot(inward[i]))
                .fold(Real::INFINITY, Real::min);
            let cov = (d + 0.5).clamp(0.0, 1.0);
            if cov >= 1.0 {
                target.put(x, y, rgb);
            } else if cov > 0.0 {
                target.blend(x, y, rgb, cov as f32);
            }
        }
    }
}

/// Floor of `v` clamped to `[0, n]` (NaN gives 0).
pub(crate) fn clamp_floor(v: Real, n: usize) -> usize {
    let v = v.floor();
    if v.is_nan() || v <= 0.0 {
        0
    } else if v >= n as Real {
        n
    } else {
        v as usize
    }
}

/// An anti-aliased disc of radius `r` pixels centred at pixel-space point `c`, clipped to
/// `clip`: a pixel whose centre is at distance `d` from `c` gets coverage
/// `clamp(r + 0.5 − d, 0, 1)`. Fully covered runs are filled with
/// [`PixelTarget::fill_span`], only the rim is blended. Non-finite or non-positive radii
/// draw nothing.
pub fn draw_disc<T: PixelTarget + ?Sized>(
    target: &mut T,
    c: Vec2,
    r: Real,
    rgb: Rgb,
    clip: &PixelRect,
) {
    let clip = clip.intersect(&full_clip(target));
    if !(c.is_finite() && r.is_finite() && r > 0.0) || clip.is_empty() {
        return;
    }
    let x0 = clamp_floor(c.x - r - 1.0, clip.x1).max(clip.x0);
    let x1 = (clamp_floor(c.x + r + 1.0, clip.x1 - 1) + 1).min(clip.x1);
    let y0 = clamp_floor(c.y - r - 1.0, clip.y1).max(clip.y0);
    let y1 = (clamp_floor(c.y + r + 1.0, clip.y1 - 1) + 1).min(clip.y1);
    if x0 >= x1 || y0 >= y1 {
        return;
    }
    // Fully covered pixels: d <= r - 0.5. Touched pixels: d < r + 0.5.
    let inner = r - 0.5;
    let outer = r + 0.5;
    let outer2 = outer * outer;
    for y in y0..y1 {
        let dy = y as Real + 0.5 - c.y;
        let dy2 = dy * dy;
        if dy2 >= outer2 {
            continue;
        }
        // The run of touched pixels: centres strictly within `oh` of c.x.
        let oh = (outer2 - dy2).sqrt();
        let t0 = clamp_floor((c.x - oh - 0.5).ceil(), x1).max(x0);
        let t1 = (clamp_floor((c.x + oh - 0.5).floor() + 1.0, x1)).max(t0);
        // The run of fully covered pixels inside it.
        let (f0, f1) = if inner > dy.abs() {
            let half = (inner * inner - dy2).sqrt();
            let a = clamp_floor((c.x - half - 0.5).ceil(), t1).max(t0);
            let b = (clamp_floor((c.x + half - 0.5).floor() + 1.0, t1)).max(a);
            (a, b)
        } else {
            (t0, t0)
        };
        for x in (t0..f0).chain(f1..t1) {
            let dx = x as Real + 0.5 - c.x;
            let d = (dx * dx + dy2).sqrt();
            let a = (outer - d).clamp(0.0, 1.0);
            if a > 0.0 {
                target.blend(x, y, rgb, a as f32);
            }
        }
        target.fill_span(y, f0, f1, rgb);
    }
}

/// An anti-aliased capsule (a flipper): the points within `r` pixels of the segment from
/// pixel-space point `a` to `b`, clipped to `clip`, with the coverage model of [`draw_disc`]:
/// a pixel whose centre is at distance `d` from the segment gets `clamp(r + 0.5 − d, 0, 1)`
/// (fully covered pixels are put, the rim is blended). With `a == b` it is the disc of
/// [`draw_disc`]. Non-finite ends or a non-finite or non-positive radius draw nothing.
pub fn draw_capsule<T: PixelTarget + ?Sized>(
    target: &mut T,
    a: Vec2,
    b: Vec2,
    r: Real,
    rgb: Rgb,
    clip: &PixelRect,
) {
    let clip = clip.intersect(&full_clip(target));
    if !(a.is_finite() && b.is_finite() && r.is_finite() && r > 0.0) || clip.is_empty() {
        return;
    }
    let lo = a.min(b) - Vec2::splat(r + 1.0);
    let hi = a.max(b) + Vec2::splat(r + 1.0);
    let x0 = clamp_floor(lo.x, clip.x1).max(clip.x0);
    let x1 = (clamp_floor(hi.x, clip.x1 - 1) + 1).min(clip.x1);
    let y0 = clamp_floor(lo.y, clip.y1).max(clip.y0);
    let y1 = (clamp_floor(hi.y, clip.y1 - 1) + 1).min(clip.y1);
    let d = b - a;
    let len2 = d.length_squared();
    let outer = r + 0.5;
    for y in y0..y1 {
        for x in x0..x1 {
            let p = Vec2::new(x as Real + 0.5, y as Real + 0.5);
            let t = if len2 > 0.0 {
                ((p - a).dot(d) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let dist = (p - (a + d * t)).length();
            let cov = (outer - dist).clamp(0.0, 1.0);
            if cov >= 1.0 {
                target.put(x, y, rgb);
            } else if cov > 0.0 {
                target.blend(x, y, rgb, cov as f32);
            }
        }
    }
}

/// An anti-aliased line one pixel wide from pixel-space point `a` to `b` (Xiaolin Wu's
/// method: along the major axis, each pixel centre between the ends lights the two pixels
/// straddling the line with coverages that add up to 1), clipped to `clip`. A line shorter
/// than a pixel lights the pixel under its midpoint. Non-finite ends draw nothing.
pub fn draw_line<T: PixelTarget + ?Sized>(
    target: &mut T,
    a: Vec2,
    b: Vec2,
    rgb: Rgb,
    clip: &PixelRect,
) {
    let clip = clip.intersect(&full_clip(target));
    if !(a.is_finite() && b.is_finite()) || clip.is_empty() {
        return;
    }
    let d = b - a;
    let steep = d.y.abs() > d.x.abs();
    // Work in (major, minor) coordinates.
    let (mut p, mut q) = if steep {
        (Vec2::new(a.y, a.x), Vec2::new(b.y, b.x))
    } else {
        (a, b)
    };
    if p.x > q.x {
        std::mem::swap(&mut p, &mut q);
    }
    let (major_n, minor_n, major_lo, major_hi) = if steep {
        (clip.y1, clip.x1, clip.y0, clip.y1)
    } else {
        (clip.x1, clip.y1, clip.x0, clip.x1)
    };
    let mut plot = |major: usize, minor: usize, cov: Real| {
        let (x, y) = if steep {
            (minor, major)
        } else {
            (major, minor)
        };
        if clip.contains(x, y) && cov > 0.0 {
            target.blend(x, y, rgb, cov as f32);
        }
    };
    // Pixel centres m + 0.5 within [p.x, q.x].
    let m0 = (p.x - 0.5).ceil();
    let m1 = (q.x - 0.5).floor();
    if m0 > m1 {
        // Shorter than a pixel along the major axis: one pixel at the midpoint.
        let mid = (p + q) * 0.5;
        if mid.x >= 0.0 && mid.y >= 0.0 {
            plot(
                clamp_floor(mid.x, major_n.max(1)),
                clamp_floor(mid.y, minor_n.max(1)),
                1.0,
            );
        }
        return;
    }
    let grad = if q.x > p.x {
        (q.y - p.y) / (q.x - p.x)
    } else {
        0.0
    };
    let lo = m0.max(major_lo as Real);
    let hi = m1.min(major_hi as Real - 1.0);
    if lo > hi {
        return;
    }
    let (lo, hi) = (lo as usize, hi as usize);
    for m in lo..=hi {
        let y = p.y + grad * (m as Real + 0.5 - p.x) - 0.5;
        let yf = y.floor();
        let f = y - yf;
        if yf >= -1.0 && yf < minor_n as Real {
            if yf >= 0.0 {
                plot(m, yf as usize, 1.0 - f);
            }
            if yf + 1.0 < minor_n as Real {
                plot(m, (yf + 1.0) as usize, f);
            }
        }
    }
}

/// The bitmap of a character in the 8×8 font: eight rows, top first; bit `i` of a row is
/// column `i` from the left. Characters outside ASCII are drawn as `?`.
#[must_use]
pub fn glyph(c: char) -> [u8; 8] {
    let i = if c.is_ascii() {
        c as usize
    } else {
        '?' as usize
    };
    font8x8::legacy::BASIC_LEGACY[i]
}

/// Width in pixels of `text` drawn at integer `scale` (each character is `8 · scale` wide).
#[must_use]
pub fn text_width(text: &str, scale: usize) -> usize {
    text.chars().count().saturating_mul(GLYPH_PX * scale)
}

/// Draws `text` with its top-left corner at pixel `(x, y)`, each font pixel a
/// `scale × scale` square (scale 0 draws nothing), clipped to `clip`. Only the glyphs' set
/// pixels are painted (the background shows through). Returns the width drawn, as
/// [`text_width`].
pub fn draw_text<T: PixelTarget + ?Sized>(
    target: &mut T,
    x: usize,
    y: usize,
    scale: usize,
    text: &str,
    rgb: Rgb,
    clip: &PixelRect,
) -> usize {
    let clip = clip.intersect(&full_clip(target));
    let mut gx = x;
    for c in text.chars() {
        if scale > 0 {
            let g = glyph(c);
            for (row, bits) in g.iter().enumerate() {
                if *bits == 0 {
                    continue;
                }
                let py = y.saturating_add(row * scale);
                for col in 0..GLYPH_PX {
                    if bits & (1 << col) != 0 {
                        let px = gx.saturating_add(col * scale);
                        let r = PixelRect {
                            x0: px,
                            y0: py,
                            x1: px.saturating_add(scale),
                            y1: py.saturating_add(scale),
                        }
                        .intersect(&clip);
                        fill_rect(target, &r, rgb);
                    }
                }
            }
        }
        gx = gx.saturating_add(GLYPH_PX * scale);
    }
    text_width(text, scale)
}

/// Sub-pixel positions per pixel of the disc stamps of [`DiscPainter`]: ball centres are
/// rounded to 1/16 pixel.
pub const DISC_SUBPIXELS: u32 = 16;

/// One row of a disc stamp: pixel columns `t0..t1` (relative to the centre's pixel) are
/// touched; `f0..f1` inside them are fully covered; the others take the coverages stored at
/// `alpha..` in the stamp (left rim, then right rim).
#[derive(Clone, Copy, Debug)]
struct StampRow {
    dy: i32,
    t0: i32,
    f0: i32,
    f1: i32,
    t1: i32,
    alpha: u32,
}

/// The pixels of one disc of a given radius and sub-pixel centre, relative to the pixel that
/// holds the centre.
#[derive(Clone, Debug, Default)]
struct Stamp {
    rows: Vec<StampRow>,
    alphas: Vec<f32>,
}

impl Stamp {
    /// The stamp of a disc of radius `r` pixels centred at `c` (`0 <= c < 1` on both axes),
    /// with the coverage rule of [`draw_disc`].
    fn new(c: Vec2, r: Real) -> Stamp {
        let mut s = Stamp::default();
        let inner = r - 0.5;
        let outer = r + 0.5;
        let outer2 = outer * outer;
        let ylo = (c.y - outer - 0.5).floor() as i32;
        let yhi = (c.y + outer - 0.5).ceil() as i32;
        for dy in ylo..=yhi {
            let yc = f64::from(dy) + 0.5 - c.y;
            let yc2 = yc * yc;
            if yc2 >= outer2 {
                continue;
            }
            let oh = (outer2 - yc2).sqrt();
            let t0 = (c.x - oh - 0.5).ceil() as i32;
            let t1 = ((c.x + oh - 0.5).floor() as i32 + 1).max(t0);
            let (f0, f1) = if inner > yc.abs() {
                let half = (inner * inner - yc2).sqrt();
                let a = ((c.x - half - 0.5).ceil() as i32).clamp(t0, t1);
                let b = ((c.x + half - 0.5).floor() as i32 + 1).clamp(a, t1);
                (a, b)
            } else {
                (t0, t0)
            };
            let alpha = s.alphas.len() as u32;
            for dx in (t0..f0).chain(f1..t1) {
                let xc = f64::from(dx) + 0.5 - c.x;
                let d = (xc * xc + yc2).sqrt();
                s.alphas.push((outer - d).clamp(0.0, 1.0) as f32);
            }
            s.rows.push(StampRow {
                dy,
                t0,
                f0,
                f1,
                t1,
                alpha,
            });
        }
        s
    }
}

/// Paints many anti-aliased discs fast: the pixels of a disc depend only on its radius and
/// the sub-pixel position of its centre, so they are computed once per (radius, position)
/// and stamped. Centres are rounded to 1/[`DISC_SUBPIXELS`] pixel; otherwise the coverage
/// is exactly [`draw_disc`]'s. The cache holds the stamps of the last radius used, so draw
/// discs of equal radius together for speed (any order is correct).
#[derive(Clone, Debug, Default)]
pub struct DiscPainter {
    radius_bits: u64,
    stamps: Vec<Option<Stamp>>,
}

impl DiscPainter {
    /// An empty painter.
    #[must_use]
    pub fn new() -> Self {
        DiscPainter::default()
    }

    /// Paints a disc of radius `r` pixels centred at pixel-space point `c`, clipped to
    /// `clip` (see the type's docs). Non-finite or non-positive radii, and radii over 4096
    /// pixels (drawn by [`draw_disc`] instead), are handled without caching.
    pub fn paint<T: PixelTarget + ?Sized>(
        &mut self,
        target: &mut T,
        c: Vec2,
        r: Real,
        rgb: Rgb,
        clip: &PixelRect,
    ) {
        if !(c.is_finite() && r.is_finite() && r > 0.0) {
            return;
        }
        if r > 4096.0 {
            draw_disc(target, c, r, rgb, clip);
            return;
        }
        let clip = clip.intersect(&full_clip(target));
        // Entirely outside the clip (or far away): nothing to do. Also keeps the integer
        // conversions below in range.
        let reach = r + 1.0;
        if clip.is_empty()
            || c.x + reach < clip.x0 as Real
            || c.x - reach > clip.x1 as Real
            || c.y + reach < clip.y0 as Real
            || c.y - reach > clip.y1 as Real
        {
            return;
        }
        if r.to_bits() != self.radius_bits || self.stamps.is_empty() {
            self.radius_bits = r.to_bits();
            self.stamps.clear();
            self.stamps
                .resize((DISC_SUBPIXELS * DISC_SUBPIXELS) as usize, None);
        }
        let sub = f64::from(DISC_SUBPIXELS);
        let qx = (c.x * sub).round();
        let qy = (c.y * sub).round();
        let ix = (qx / sub).floor();
        let iy = (qy / sub).floor();
        let fx = (qx - ix * sub) as u32 % DISC_SUBPIXELS;
        let fy = (qy - iy * sub) as u32 % DISC_SUBPIXELS;
        let (ix, iy) = (ix as i64, iy as i64);
        let key = (fy * DISC_SUBPIXELS + fx) as usize;
        let stamp = self.stamps[key].get_or_insert_with(|| {
            Stamp::new(Vec2::new(f64::from(fx) / sub, f64::from(fy) / sub), r)
        });
        let (cx0, cx1) = (clip.x0 as i64, clip.x1 as i64);
        let (cy0, cy1) = (clip.y0 as i64, clip.y1 as i64);
        for row in &stamp.rows {
            let y = iy + i64::from(row.dy);
            if y < cy0 || y >= cy1 {
                continue;
            }
            let y = y as usize;
            let left = (row.f0 - row.t0) as usize;
            let a = row.alpha as usize;
            let mut blend_run = |from: i32, to: i32, alphas: &[f32]| {
                for (k, dx) in (from..to).enumerate() {
                    let x = ix + i64::from(dx);
                    if x >= cx0 && x < cx1 {
                        target.blend(x as usize, y, rgb, alphas[k]);
                    }
                }
            };
            blend_run(row.t0, row.f0, &stamp.alphas[a..a + left]);
            let right = (row.t1 - row.f1) as usize;
            blend_run(row.f1, row.t1, &stamp.alphas[a + left..a + left + right]);
            let f0 = (ix + i64::from(row.f0)).clamp(cx0, cx1);
            let f1 = (ix + i64::from(row.f1)).clamp(cx0, cx1);
            if f0 < f1 {
                target.fill_span(y, f0 as usize, f1 as usize, rgb);
            }
        }
    }
}
