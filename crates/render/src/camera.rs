//! The camera: world units to pixels, and fitting a world rectangle into a buffer.

use collide_core::{Aabb, Real, Vec2};
use collide_world::World;

/// A map from world units to pixel space: `pixel = world · scale + offset` (both axes grow
/// the same way: x right, y down). `scale` is the zoom, pixels per world unit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// Pixels per world unit (the zoom; 1 = one pixel per unit).
    pub scale: Real,
    /// Pixel-space position of the world origin.
    pub offset: Vec2,
}

impl Default for Camera {
    /// Zoom 1, world origin at the top-left corner of the buffer.
    fn default() -> Self {
        Camera {
            scale: 1.0,
            offset: Vec2::ZERO,
        }
    }
}

impl Camera {
    /// A camera with this zoom (pixels per world unit) and pixel-space position of the world
    /// origin.
    #[must_use]
    pub const fn new(scale: Real, offset: Vec2) -> Self {
        Camera { scale, offset }
    }

    /// The camera that shows all of `view` (world units) as large as possible in a
    /// `width × height` buffer while keeping its aspect ratio, centred: the scale is
    /// `min(width / view_w, height / view_h)` and the bars left over on two sides are the
    /// letterbox. A view that is empty or not finite gives zoom 1 with `view.min` at the
    /// top-left corner.
    #[must_use]
    pub fn fit(view: Aabb, width: usize, height: usize) -> Self {
        let size = view.max - view.min;
        if !(size.is_finite() && view.min.is_finite() && size.x > 0.0 && size.y > 0.0) {
            let min = if view.min.is_finite() {
                view.min
            } else {
                Vec2::ZERO
            };
            return Camera {
                scale: 1.0,
                offset: -min,
            };
        }
        let (w, h) = (width as Real, height as Real);
        let scale = (w / size.x).min(h / size.y);
        let used = size * scale;
        let offset = Vec2::new((w - used.x) * 0.5, (h - used.y) * 0.5) - view.min * scale;
        Camera { scale, offset }
    }

    /// [`Camera::fit`] of the world rectangle `[0, 0]–world.size()`.
    #[must_use]
    pub fn fit_world(world: &World, width: usize, height: usize) -> Self {
        Camera::fit(Aabb::new(Vec2::ZERO, world.size()), width, height)
    }

    /// The pixel-space point of world point `p`.
    #[must_use]
    pub fn to_pixel(&self, p: Vec2) -> Vec2 {
        p * self.scale + self.offset
    }

    /// The world point of pixel-space point `px` (the inverse of [`Camera::to_pixel`]; use
    /// `(x + 0.5, y + 0.5)` for the centre of pixel `(x, y)`, e.g. to map a mouse position).
    #[must_use]
    pub fn to_world(&self, px: Vec2) -> Vec2 {
        (px - self.offset) / self.scale
    }

    /// The pixels whose centres lie in the image of the world box `b`, clipped to a
    /// `width × height` buffer.
    #[must_use]
    pub fn pixels_of(&self, b: &Aabb, width: usize, height: usize) -> PixelRect {
        PixelRect::covering(self.to_pixel(b.min), self.to_pixel(b.max), width, height)
    }
}

/// A rectangle of whole pixels: columns `x0..x1`, rows `y0..y1` (max exclusive). Empty when
/// `x0 >= x1` or `y0 >= y1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct PixelRect {
    /// First column.
    pub x0: usize,
    /// First row.
    pub y0: usize,
    /// One past the last column.
    pub x1: usize,
    /// One past the last row.
    pub y1: usize,
}

impl PixelRect {
    /// The pixels whose centres `(x + 0.5, y + 0.5)` lie in the pixel-space box `[min, max)`
    /// (min edges included, max edges excluded), clipped to `[0, width) × [0, height)`.
    /// Boxes sharing an edge get disjoint pixel sets that leave no gap between them.
    #[must_use]
    pub fn covering(min: Vec2, max: Vec2, width: usize, height: usize) -> Self {
        // Pixel x has its centre in [a, b) iff ceil(a - 0.5) <= x < ceil(b - 0.5).
        let first = |a: Real, n: usize| -> usize {
            let v = (a - 0.5).ceil();
            if v.is_nan() || v <= 0.0 {
                0
            } else if v >= n as Real {
                n
            } else {
                v as usize
            }
        };
        let x0 = first(min.x, width);
        let x1 = first(max.x, width);
        let y0 = first(min.y, height);
        let y1 = first(max.y, height);
        PixelRect {
            x0,
            y0,
            x1: x1.max(x0),
            y1: y1.max(y0),
        }
    }

    /// Whether the rectangle holds no pixel.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.x0 >= self.x1 || self.y0 >= self.y1
    }

    /// The pixels in both rectangles.
    #[must_use]
    pub fn intersect(&self, o: &PixelRect) -> PixelRect {
        let x0 = self.x0.max(o.x0);
        let y0 = self.y0.max(o.y0);
        PixelRect {
            x0,
            y0,
            x1: self.x1.min(o.x1).max(x0),
            y1: self.y1.min(o.y1).max(y0),
        }
    }

    /// Whether pixel `(x, y)` is in the rectangle.
    #[must_use]
    pub fn contains(&self, x: usize, y: usize) -> bool {
        x >= self.x0 && x < self.x1 && y >= self.y0 && y < self.y1
    }
}
