//! Pixel targets: the [`PixelTarget`] trait and the RGBA8 / 0RGB buffers that implement it.

use std::fmt;

use crate::style::{mix_weight, Rgb};

/// Something pixels can be painted into: a `width × height` grid of RGB colours, row 0 at the
/// top. The painting code uses only these methods, so a new pixel format needs only an
/// implementation of [`PixelTarget::put`] and [`PixelTarget::get`] (and, for speed,
/// [`PixelTarget::fill_span`]).
///
/// Implementations must ignore coordinates outside the target (never panic); the painting
/// code clips anyway.
pub trait PixelTarget {
    /// Width in pixels.
    fn width(&self) -> usize;

    /// Height in pixels.
    fn height(&self) -> usize;

    /// Sets pixel `(x, y)` to `rgb` (fully opaque). Out-of-range coordinates are ignored.
    fn put(&mut self, x: usize, y: usize, rgb: Rgb);

    /// The colour of pixel `(x, y)`; black outside the target.
    fn get(&self, x: usize, y: usize) -> Rgb;

    /// Sets pixels `x0..x1` of row `y` to `rgb` (`x1` exclusive; clipped to the target).
    fn fill_span(&mut self, y: usize, x0: usize, x1: usize, rgb: Rgb) {
        for x in x0..x1.min(self.width()) {
            self.put(x, y, rgb);
        }
    }

    /// Mixes `rgb` over pixel `(x, y)` with opacity `alpha` in `[0, 1]`
    /// (`new = old + (rgb − old)·alpha`, rounded). `alpha >= 1` is [`PixelTarget::put`],
    /// `alpha <= 0` (or NaN) changes nothing.
    #[inline]
    fn blend(&mut self, x: usize, y: usize, rgb: Rgb, alpha: f32) {
        if alpha >= 1.0 {
            self.put(x, y, rgb);
        } else if alpha > 0.0 {
            let old = self.get(x, y);
            self.put(x, y, old.mix(rgb, alpha));
        }
    }
}

/// Why a buffer cannot be used as a target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RenderError {
    /// The buffer's length is not `width · height` pixels.
    BufferSize {
        /// Width in pixels.
        width: usize,
        /// Height in pixels.
        height: usize,
        /// Elements needed (bytes for RGBA8: `width · height · 4`; words for 0RGB).
        expected: usize,
        /// Elements given.
        got: usize,
    },
    /// `width · height · 4` does not fit in memory addresses (`usize`).
    TooLarge {
        /// Width in pixels.
        width: usize,
        /// Height in pixels.
        height: usize,
    },
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderError::BufferSize {
                width,
                height,
                expected,
                got,
            } => write!(
                f,
                "a {width}x{height} pixel buffer needs {expected} elements, got {got}"
            ),
            RenderError::TooLarge { width, height } => {
                write!(f, "a {width}x{height} pixel image is too large")
            }
        }
    }
}

impl std::error::Error for RenderError {}

/// The number of elements of a `width × height` buffer with `per_pixel` elements per pixel.
fn buffer_len(width: usize, height: usize, per_pixel: usize) -> Result<usize, RenderError> {
    width
        .checked_mul(height)
        .and_then(|n| n.checked_mul(per_pixel))
        .ok_or(RenderError::TooLarge { width, height })
}

fn check_len(width: usize, height: usize, per_pixel: usize, got: usize) -> Result<(), RenderError> {
    let expected = buffer_len(width, height, per_pixel)?;
    if expected == got {
        Ok(())
    } else {
        Err(RenderError::BufferSize {
            width,
            height,
            expected,
            got,
        })
    }
}

/// A borrowed RGBA8 buffer: 4 bytes per pixel (`r, g, b, a`), rows top to bottom, no padding.
/// Painted pixels get alpha 255. This is the layout of PNG RGBA images and of the `pixels`
/// crate's frame.
#[derive(Debug)]
pub struct Rgba8Target<'a> {
    buf: &'a mut [u8],
    width: usize,
    height: usize,
}

impl<'a> Rgba8Target<'a> {
    /// Wraps `buf`, which must hold exactly `width · height · 4` bytes.
    ///
    /// # Errors
    /// [`RenderError::BufferSize`] for a buffer of another length, [`RenderError::TooLarge`]
    /// if the size overflows.
    pub fn new(buf: &'a mut [u8], width: usize, height: usize) -> Result<Self, RenderError> {
        check_len(width, height, 4, buf.len())?;
        Ok(Rgba8Target { buf, width, height })
    }
}

impl PixelTarget for Rgba8Target<'_> {
    fn width(&self) -> usize {
        self.width
    }

    fn height(&self) -> usize {
        self.height
    }

    #[inline]
    fn put(&mut self, x: usize, y: usize, rgb: Rgb) {
        if x < self.width && y < self.height {
            let i = (y * self.width + x) * 4;
            self.buf[i..i + 4].copy_from_slice(&[rgb.r, rgb.g, rgb.b, 255]);
        }
    }

    #[inline]
    fn get(&self, x: usize, y: usize) -> Rgb {
        if x < self.width && y < self.height {
            let i = (y * self.width + x) * 4;
            Rgb::new(self.buf[i], self.buf[i + 1], self.buf[i + 2])
        } else {
            Rgb::BLACK
        }
    }

    fn fill_span(&mut self, y: usize, x0: usize, x1: usize, rgb: Rgb) {
        let x1 = x1.min(self.width);
        if y >= self.height || x0 >= x1 {
            return;
        }
        let row = &mut self.buf[(y * self.width + x0) * 4..(y * self.width + x1) * 4];
        for px in row.chunks_exact_mut(4) {
            px.copy_from_slice(&[rgb.r, rgb.g, rgb.b, 255]);
        }
    }
}

/// A borrowed buffer of `u32` words `0x00RRGGBB`, one per pixel, rows top to bottom, no
/// padding: the frame buffer layout of `minifb`. The top byte is written as 0.
#[derive(Debug)]
pub struct Xrgb32Target<'a> {
    buf: &'a mut [u32],
    width: usize,
    height: usize,
}

impl<'a> Xrgb32Target<'a> {
    /// Wraps `buf`, which must hold exactly `width · height` words.
    ///
    /// # Errors
    /// [`RenderError::BufferSize`] for a buffer of another length, [`RenderError::TooLarge`]
    /// if the size overflows.
    pub fn new(buf: &'a mut [u32], width: usize, height: usize) -> Result<Self, RenderError> {
        check_len(width, height, 1, buf.len())?;
        Ok(Xrgb32Target { buf, width, height })
    }
}

impl PixelTarget for Xrgb32Target<'_> {
    fn width(&self) -> usize {
        self.width
    }

    fn height(&self) -> usize {
        self.height
    }

    #[inline]
    fn put(&mut self, x: usize, y: usize, rgb: Rgb) {
        if x < self.width && y < self.height {
            self.buf[y * self.width + x] = rgb.to_xrgb();
        }
    }

    #[inline]
    fn get(&self, x: usize, y: usize) -> Rgb {
        if x < self.width && y < self.height {
            Rgb::from_xrgb(self.buf[y * self.width + x])
        } else {
            Rgb::BLACK
        }
    }

    fn fill_span(&mut self, y: usize, x0: usize, x1: usize, rgb: Rgb) {
        let x1 = x1.min(self.width);
        if y < self.height && x0 < x1 {
            self.buf[y * self.width + x0..y * self.width + x1].fill(rgb.to_xrgb());
        }
    }

    /// [`Rgb::mix`] on the packed word, two channels per multiply (same result).
    #[inline]
    fn blend(&mut self, x: usize, y: usize, rgb: Rgb, alpha: f32) {
        if x >= self.width || y >= self.height {
            return;
        }
        let k = mix_weight(alpha);
        if k == 0 {
            return;
        }
        let px = &mut self.buf[y * self.width + x];
        let (a, b) = (*px, rgb.to_xrgb());
        // Lanes of 16 bits: red and blue, then (top byte and) green; each lane's
        // a·(256 − k) + b·k + 128 stays below 2^16.
        let lanes =
            |a: u32, b: u32| -> u32 { ((a * (256 - k) + b * k + 0x0080_0080) >> 8) & 0x00FF_00FF };
        let rb = lanes(a & 0x00FF_00FF, b & 0x00FF_00FF);
        let g = lanes((a >> 8) & 0x0000_00FF, (b >> 8) & 0x0000_00FF);
        *px = rb | g << 8;
    }
}

/// An owned RGBA8 image (layout of [`Rgba8Target`]), initially opaque black.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Canvas {
    width: usize,
    height: usize,
    data: Vec<u8>,
}

impl Canvas {
    /// A `width × height` image, opaque black.
    ///
    /// # Errors
    /// [`RenderError::TooLarge`] if `width · height · 4` overflows `usize`.
    pub fn new(width: usize, height: usize) -> Result<Self, RenderError> {
        let len = buffer_len(width, height, 4)?;
        let mut data = vec![0u8; len];
        for px in data.chunks_exact_mut(4) {
            px[3] = 255;
        }
        Ok(Canvas {
            width,
            height,
            data,
        })
    }

    /// Width in pixels.
    #[must_use]
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height in pixels.
    #[must_use]
    pub fn height(&self) -> usize {
        self.height
    }

    /// The RGBA8 bytes, rows top to bottom.
    #[must_use]
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// The RGBA8 bytes, mutable (e.g. to wrap them in an [`Rgba8Target`]).
    #[must_use]
    pub fn data_mut(&mut self) -> &mut [u8] {
        &mut self.data
    }

    /// Consumes the canvas and returns its RGBA8 bytes.
    #[must_use]
    pub fn into_data(self) -> Vec<u8> {
        self.data
    }

    /// The RGB colour of pixel `(x, y)`; black outside the image.
    #[must_use]
    pub fn rgb(&self, x: usize, y: usize) -> Rgb {
        PixelTarget::get(self, x, y)
    }
}

impl PixelTarget for Canvas {
    fn width(&self) -> usize {
        self.width
    }

    fn height(&self) -> usize {
        self.height
    }

    #[inline]
    fn put(&mut self, x: usize, y: usize, rgb: Rgb) {
        if x < self.width && y < self.height {
            let i = (y * self.width + x) * 4;
            self.data[i..i + 4].copy_from_slice(&[rgb.r, rgb.g, rgb.b, 255]);
        }
    }

    #[inline]
    fn get(&self, x: usize, y: usize) -> Rgb {
        if x < self.width && y < self.height {
            let i = (y * self.width + x) * 4;
            Rgb::new(self.data[i], self.data[i + 1], self.data[i + 2])
        } else {
            Rgb::BLACK
        }
    }

    fn fill_span(&mut self, y: usize, x0: usize, x1: usize, rgb: Rgb) {
        let (w, h) = (self.width, self.height);
        let mut t = Rgba8Target {
            buf: &mut self.data,
            width: w,
            height: h,
        };
        t.fill_span(y, x0, x1, rgb);
    }
}
