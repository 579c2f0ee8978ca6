//! The GPU side: a `pixels` frame buffer on the window, presented scaled to the window with
//! its aspect kept; what the window shows read back from the GPU; wgpu's failures turned into
//! errors (wgpu panics on some of them, and by default on any error it is not asked about).

use std::future::Future;
use std::panic::{self, AssertUnwindSafe};
use std::pin::pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

use collide_frontend::RgbImage;
use pixels::{wgpu, Pixels, PixelsBuilder, ScalingMode, SurfaceTexture};
use winit::window::Window;

/// How to make a machine without a GPU work, appended to adapter errors.
pub const NO_GPU_HINT: &str = "without a GPU, install Mesa's software Vulkan driver (Debian: \
mesa-vulkan-drivers) and run with WGPU_BACKEND=vulkan";

/// Why the GPU renderer failed.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// No adapter, device or surface could be made for the window.
    #[error("GPU: cannot set up the renderer for the window ({NO_GPU_HINT})")]
    Setup(#[source] pixels::Error),
    /// pixels refused an operation.
    #[error("GPU: cannot {doing}")]
    Pixels {
        /// What was being done.
        doing: &'static str,
        /// pixels' error.
        #[source]
        source: pixels::Error,
    },
    /// The window's surface cannot take this size.
    #[error("GPU: cannot resize the window's surface to {width}x{height}")]
    Resize {
        /// Width, physical pixels.
        width: u32,
        /// Height, physical pixels.
        height: u32,
        /// pixels' error.
        #[source]
        source: pixels::TextureError,
    },
    /// wgpu panicked (it does on some driver failures).
    #[error("GPU: the renderer failed while {doing}: {message}")]
    Panicked {
        /// What was being done.
        doing: &'static str,
        /// The panic's message.
        message: String,
    },
    /// wgpu reported an error (validation, out of memory, device lost).
    #[error("GPU: wgpu: {0}")]
    Wgpu(String),
    /// The presented frame could not be read back.
    #[error("GPU: cannot read back the window's frame: {0}")]
    ReadBack(String),
}

/// Runs `f`; a panic inside it (wgpu's) becomes [`GpuError::Panicked`], with the default panic
/// message silenced.
fn guarded<T>(doing: &'static str, f: impl FnOnce() -> T) -> Result<T, GpuError> {
    let hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    panic::set_hook(hook);
    result.map_err(|payload| GpuError::Panicked {
        doing,
        message: payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .map_or_else(
                || "(no message)".to_owned(),
                // wgpu's messages span lines ("Caused by: ..."): one line.
                |m| m.split_whitespace().collect::<Vec<_>>().join(" "),
            ),
    })
}

/// Polls a future that wgpu's native backends complete at once (error scopes); `None` if it
/// is still pending.
fn ready<F: Future>(fut: F) -> Option<F::Output> {
    let mut cx = Context::from_waker(Waker::noop());
    match pin!(fut).poll(&mut cx) {
        Poll::Ready(v) => Some(v),
        Poll::Pending => None,
    }
}

/// The window's GPU frame buffer.
pub struct Gpu {
    pixels: Pixels<'static>,
    /// The surface's size, physical pixels (pixels does not expose it).
    surface: (u32, u32),
    /// The buffer's size, pixels.
    buffer: (u32, u32),
    /// The first error wgpu reported outside an error scope.
    uncaptured: Arc<Mutex<Option<String>>>,
}

impl Gpu {
    /// A `width × height` RGBA8 frame buffer on `window`, presented with vsync (FIFO), scaled
    /// to the window's inner size by the largest factor that keeps its aspect (any factor:
    /// pixels' "fill" scaling, sharp at integer factors), black bars around it.
    ///
    /// # Errors
    /// [`GpuError::Setup`] when no adapter, device or surface can be made (no GPU and no
    /// software driver, a display pixels cannot draw to), [`GpuError::Panicked`] when wgpu
    /// panics doing it.
    pub fn new(window: Arc<Window>, width: u32, height: u32) -> Result<Gpu, GpuError> {
        let size = window.inner_size();
        let surface = (size.width.max(1), size.height.max(1));
        let mut pixels = guarded("setting up the adapter", || {
            let texture = SurfaceTexture::new(surface.0, surface.1, window);
            PixelsBuilder::new(width, height, texture)
                .present_mode(wgpu::PresentMode::Fifo)
                .build()
        })?
        .map_err(GpuError::Setup)?;
        let uncaptured = Arc::new(Mutex::new(None));
        let slot = Arc::clone(&uncaptured);
        pixels
            .device()
            .on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
                let mut slot = slot.lock().unwrap_or_else(|p| p.into_inner());
                slot.get_or_insert_with(|| e.to_string());
            }));
        pixels.set_scaling_mode(ScalingMode::Fill);
        let mut gpu = Gpu {
            pixels,
            surface,
            buffer: (width, height),
            uncaptured,
        };
        // The scaling mode takes effect with the next surface size.
        gpu.resize(surface.0, surface.1)?;
        Ok(gpu)
    }

    /// The adapter's name, backend and type, e.g. `Vulkan "llvmpipe (LLVM 15.0.6)" Cpu`.
    #[must_use]
    pub fn adapter(&self) -> String {
        let info = self.pixels.adapter().get_info();
        format!("{:?} {:?} {:?}", info.backend, info.name, info.device_type)
    }

    /// The frame buffer's size, pixels.
    #[must_use]
    pub fn buffer_size(&self) -> (u32, u32) {
        self.buffer
    }

    /// The frame buffer: RGBA8, rows top to bottom.
    #[must_use]
    pub fn frame_mut(&mut self) -> &mut [u8] {
        self.pixels.frame_mut()
    }

    /// The frame buffer: RGBA8, rows top to bottom.
    #[must_use]
    pub fn frame(&self) -> &[u8] {
        self.pixels.frame()
    }

    /// Follows the window's new inner size (physical pixels, both above 0).
    ///
    /// # Errors
    /// [`GpuError::Resize`] for a size the device cannot take, [`GpuError::Panicked`] /
    /// [`GpuError::Wgpu`] when reconfiguring the surface fails.
    pub fn resize(&mut self, width: u32, height: u32) -> Result<(), GpuError> {
        let pixels = &mut self.pixels;
        guarded("resizing the surface", || {
            pixels.resize_surface(width, height)
        })?
        .map_err(|source| GpuError::Resize {
            width,
            height,
            source,
        })?;
        self.surface = (width, height);
        self.check()
    }

    /// The centre of the frame-buffer pixel under a window position (physical pixels), in
    /// buffer pixels; clamped to the buffer when the position is over the black bars or
    /// outside the window.
    #[must_use]
    pub fn to_buffer(&self, x: f64, y: f64) -> (f32, f32) {
        let p = match self.pixels.window_pos_to_pixel((x as f32, y as f32)) {
            Ok(p) => p,
            Err(outside) => self.pixels.clamp_pixel_pos(outside),
        };
        (p.0 as f32 + 0.5, p.1 as f32 + 0.5)
    }

    /// Uploads the frame buffer and presents it, scaled. Returns whether a frame was
    /// presented (not when the surface is occluded or timed out).
    ///
    /// # Errors
    /// [`GpuError::Pixels`], [`GpuError::Wgpu`] or [`GpuError::Panicked`] when rendering fails.
    pub fn present(&self) -> Result<bool, GpuError> {
        let mut presented = false;
        let pixels = &self.pixels;
        guarded("presenting a frame", || {
            pixels.render_with(|encoder, target, context| {
                context.scaling_renderer.render(encoder, target);
                presented = true;
                Ok(())
            })
        })?
        .map_err(|source| GpuError::Pixels {
            doing: "present a frame",
            source,
        })?;
        self.check()?;
        Ok(presented)
    }

    /// Presents the frame buffer as [`Gpu::present`] does and, in the same command buffer,
    /// draws the same scaled picture (same pipeline, size and format as the window's surface)
    /// into a texture that is copied back: the picture the window shows, at the window's size.
    /// `None` if no frame was presented (occluded).
    ///
    /// # Errors
    /// [`GpuError::ReadBack`] for a surface format other than 8-bit RGBA/BGRA or a failed
    /// copy; the errors of [`Gpu::present`].
    pub fn present_and_read_back(&self) -> Result<Option<RgbImage>, GpuError> {
        let (w, h) = self.surface;
        let format = self.pixels.render_texture_format();
        let bgra = match format {
            wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb => true,
            wgpu::TextureFormat::Rgba8Unorm | wgpu::TextureFormat::Rgba8UnormSrgb => false,
            other => {
                return Err(GpuError::ReadBack(format!(
                    "surface format {other:?} is not 8-bit RGBA or BGRA"
                )))
            }
        };
        let device = self.pixels.device();
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let extent = wgpu::Extent3d {
            width: w,
            height: h,
            depth_or_array_layers: 1,
        };
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("collide_window_copy"),
            size: extent,
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        let row = (w * 4).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("collide_window_read_back"),
            size: u64::from(row) * u64::from(h),
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let mut presented = false;
        let pixels = &self.pixels;
        guarded("reading back the frame", || {
            pixels.render_with(|encoder, target, context| {
                context.scaling_renderer.render(encoder, target);
                context.scaling_renderer.render(encoder, &view);
                encoder.copy_texture_to_buffer(
                    texture.as_image_copy(),
                    wgpu::TexelCopyBufferInfo {
                        buffer: &buffer,
                        layout: wgpu::TexelCopyBufferLayout {
                            offset: 0,
                            bytes_per_row: Some(row),
                            rows_per_image: Some(h),
                        },
                    },
                    extent,
                );
                presented = true;
                Ok(())
            })
        })?
        .map_err(|source| GpuError::Pixels {
            doing: "present a frame",
            source,
        })?;
        if let Some(Some(e)) = ready(scope.pop()) {
            return Err(GpuError::ReadBack(e.to_string()));
        }
        self.check()?;
        if !presented {
            return Ok(None);
        }
        let mapped = Arc::new(Mutex::new(None));
        let done = Arc::clone(&mapped);
        buffer.map_async(wgpu::MapMode::Read, .., move |r| {
            *done.lock().unwrap_or_else(|p| p.into_inner()) = Some(r);
        });
        device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| GpuError::ReadBack(e.to_string()))?;
        match mapped.lock().unwrap_or_else(|p| p.into_inner()).take() {
            Some(Ok(())) => {}
            Some(Err(e)) => return Err(GpuError::ReadBack(e.to_string())),
            None => return Err(GpuError::ReadBack("the copy never finished".to_owned())),
        }
        let mut rgba = Vec::with_capacity(w as usize * h as usize * 4);
        {
            let data = buffer.get_mapped_range(..);
            for y in 0..h as usize {
                let start = y * row as usize;
                for px in data[start..start + w as usize * 4].chunks_exact(4) {
                    if bgra {
                        rgba.extend([px[2], px[1], px[0], px[3]]);
                    } else {
                        rgba.extend_from_slice(px);
                    }
                }
            }
        }
        buffer.unmap();
        RgbImage::from_rgba8(&rgba, w as usize, h as usize)
            .map(Some)
            .ok_or_else(|| GpuError::ReadBack("image size".to_owned()))
    }

    /// Fails with the first error wgpu reported outside an error scope.
    fn check(&self) -> Result<(), GpuError> {
        match self
            .uncaptured
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
        {
            Some(e) => Err(GpuError::Wgpu(e)),
            None => Ok(()),
        }
    }
}
