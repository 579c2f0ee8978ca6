//! Screenshots: PNG files written from the frame buffers the frontends present, and read back
//! for checks.

use std::fs::File;
use std::io::{BufReader, BufWriter};
use std::path::Path;

use collide_render::Rgb;

use crate::FrontendError;

/// An RGB image: `width × height` pixels, 3 bytes each, rows top to bottom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RgbImage {
    /// Width, pixels.
    pub width: usize,
    /// Height, pixels.
    pub height: usize,
    /// `width · height · 3` bytes.
    pub data: Vec<u8>,
}

impl RgbImage {
    /// The image of a `0RGB` frame buffer (minifb's layout: one `u32` per pixel, rows top to
    /// bottom); `None` if `buf` is not `width · height` words.
    #[must_use]
    pub fn from_xrgb(buf: &[u32], width: usize, height: usize) -> Option<RgbImage> {
        if width.checked_mul(height)? != buf.len() {
            return None;
        }
        let mut data = Vec::with_capacity(buf.len() * 3);
        for w in buf {
            let c = Rgb::from_xrgb(*w);
            data.extend([c.r, c.g, c.b]);
        }
        Some(RgbImage {
            width,
            height,
            data,
        })
    }

    /// The image of an RGBA8 frame buffer (pixels' layout: 4 bytes per pixel, alpha ignored);
    /// `None` if `buf` is not `width · height · 4` bytes.
    #[must_use]
    pub fn from_rgba8(buf: &[u8], width: usize, height: usize) -> Option<RgbImage> {
        if width.checked_mul(height)?.checked_mul(4)? != buf.len() {
            return None;
        }
        let data = buf
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        Some(RgbImage {
            width,
            height,
            data,
        })
    }

    /// The colour of pixel `(x, y)`; `None` outside the image.
    #[must_use]
    pub fn rgb(&self, x: usize, y: usize) -> Option<Rgb> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = (y * self.width + x) * 3;
        Some(Rgb::new(self.data[i], self.data[i + 1], self.data[i + 2]))
    }

    /// Writes the image as an 8-bit RGB PNG file.
    ///
    /// # Errors
    /// [`FrontendError::Png`] naming the file when it cannot be created or written.
    pub fn write_png(&self, path: &Path) -> Result<(), FrontendError> {
        let err = |e: String| FrontendError::Png {
            file: path.display().to_string(),
            problem: e,
        };
        let (w, h) = (
            u32::try_from(self.width).map_err(|e| err(e.to_string()))?,
            u32::try_from(self.height).map_err(|e| err(e.to_string()))?,
        );
        let file = File::create(path).map_err(|e| err(e.to_string()))?;
        let mut enc = png::Encoder::new(BufWriter::new(file), w, h);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut writer = enc.write_header().map_err(|e| err(e.to_string()))?;
        writer
            .write_image_data(&self.data)
            .map_err(|e| err(e.to_string()))?;
        writer.finish().map_err(|e| err(e.to_string()))
    }

    /// Reads an 8-bit RGB or RGBA PNG file (alpha ignored).
    ///
    /// # Errors
    /// [`FrontendError::Png`] naming the file when it cannot be read or decoded, or has
    /// another colour type or depth.
    pub fn read_png(path: &Path) -> Result<RgbImage, FrontendError> {
        let err = |e: String| FrontendError::Png {
            file: path.display().to_string(),
            problem: e,
        };
        let file = File::open(path).map_err(|e| err(e.to_string()))?;
        let mut dec = png::Decoder::new(BufReader::new(file))
            .read_info()
            .map_err(|e| err(e.to_string()))?;
        let mut buf = vec![0; dec.output_buffer_size()];
        let info = dec.next_frame(&mut buf).map_err(|e| err(e.to_string()))?;
        if info.bit_depth != png::BitDepth::Eight {
            return Err(err(format!("bit depth {:?}, expected 8", info.bit_depth)));
        }
        let (w, h) = (info.width as usize, info.height as usize);
        buf.truncate(info.buffer_size());
        match info.color_type {
            png::ColorType::Rgb => Ok(RgbImage {
                width: w,
                height: h,
                data: buf,
            }),
            png::ColorType::Rgba => RgbImage::from_rgba8(&buf, w, h)
                .ok_or_else(|| err("RGBA data of the wrong size".to_string())),
            other => Err(err(format!("colour type {other:?}, expected RGB or RGBA"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_round_trip_keeps_every_pixel() {
        let (w, h) = (7, 5);
        let buf: Vec<u32> = (0..w * h)
            .map(|i| (i as u32).wrapping_mul(0x0012_3457) & 0x00FF_FFFF)
            .collect();
        let img = RgbImage::from_xrgb(&buf, w, h).unwrap();
        let dir = std::env::temp_dir().join(format!("collide-frontend-png-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.png");
        img.write_png(&path).unwrap();
        let back = RgbImage::read_png(&path).unwrap();
        assert_eq!(back, img);
        assert_eq!(back.rgb(3, 2), Some(Rgb::from_xrgb(buf[2 * w + 3])));
        assert_eq!(back.rgb(7, 0), None);
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(RgbImage::from_xrgb(&buf, 6, 5).is_none());
        let e = RgbImage::read_png(&dir.join("missing.png")).unwrap_err();
        assert!(e.to_string().contains("missing.png"), "{e}");
    }
}
