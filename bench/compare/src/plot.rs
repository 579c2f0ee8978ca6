//! The plot of ms/step against N (feature `plot`): plotters' bitmap backend drawing into an
//! RGB buffer, encoded with `png`. Text uses plotters' `ab_glyph` renderer with a TrueType
//! font read at run time (`--font`, default: DejaVu Sans from the usual Debian path); without
//! a font the plot is drawn without text and a warning is printed.

use std::error::Error;
use std::io::BufWriter;
use std::path::Path;

use plotters::prelude::*;
use plotters::style::FontStyle;

/// One line of the plot: an engine at one speed, points `(N, ms/step)` in increasing N.
#[derive(Clone, Debug)]
pub struct Series {
    /// Legend text.
    pub label: String,
    /// `(balls, ms per step)`.
    pub points: Vec<(f64, f64)>,
    /// Whether the line belongs to collide (blue) or rapier (red).
    pub collide: bool,
    /// Dashed-looking (hollow markers) for the second speed.
    pub hollow: bool,
}

/// Fonts tried when `--font` is not given.
pub const DEFAULT_FONTS: [&str; 3] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
];

/// `v` written out when it is a power of ten (1000, 0.1), else nothing: the log axes' other
/// grid lines stay unlabelled.
fn decade_label(v: f64) -> String {
    let l = v.log10();
    if (l - l.round()).abs() > 1e-6 {
        return String::new();
    }
    let e = l.round() as i32;
    if e >= 0 {
        format!("{}", 10f64.powi(e))
    } else {
        format!("{:.*}", (-e) as usize, 10f64.powi(e))
    }
}

/// Registers the font as plotters' `sans-serif`; returns whether text can be drawn.
fn register(font: Option<&Path>) -> bool {
    let candidates: Vec<&Path> = match font {
        Some(p) => vec![p],
        None => DEFAULT_FONTS.iter().map(Path::new).collect(),
    };
    for p in candidates {
        if let Ok(bytes) = std::fs::read(p) {
            let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
            if plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).is_ok() {
                return true;
            }
        }
    }
    false
}

/// Draws the series (log-log axes) into a `width × height` PNG at `out`.
///
/// # Errors
/// Drawing or file errors.
pub fn draw(
    out: &Path,
    title: &str,
    series: &[Series],
    font: Option<&Path>,
    (width, height): (u32, u32),
) -> Result<(), Box<dyn Error>> {
    let text = register(font);
    if !text {
        eprintln!("warning: no TrueType font found (try --font FILE.ttf): the plot has no text");
    }
    let pts = series.iter().flat_map(|s| s.points.iter().copied());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for (x, y) in pts {
        x0 = x0.min(x);
        x1 = x1.max(x);
        if y > 0.0 {
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
    }
    if x0 > x1 || y0 > y1 {
        return Err("nothing to plot".into());
    }
    let (x0, x1) = (x0 / 1.5, x1 * 1.5);
    let (y0, y1) = (y0 / 2.0, y1 * 2.0);
    let mut buf = vec![0u8; width as usize * height as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut buf, (width, height)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut builder = ChartBuilder::on(&root);
        builder.margin(20);
        if text {
            builder
                .caption(title, ("sans-serif", 22))
                .x_label_area_size(50)
                .y_label_area_size(70);
        }
        let mut chart = builder.build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale())?;
        let mut mesh = chart.configure_mesh();
        if text {
            mesh.x_desc("balls (N)")
                .y_desc("ms per step (median, single thread)")
                .x_label_formatter(&|x| decade_label(*x))
                .y_label_formatter(&|y| decade_label(*y))
                .label_style(("sans-serif", 15));
        } else {
            mesh.disable_x_mesh().disable_y_mesh();
        }
        mesh.draw()?;
        for s in series {
            let color = if s.collide {
                RGBColor(31, 90, 200)
            } else {
                RGBColor(210, 50, 40)
            };
            let style = ShapeStyle::from(&color).stroke_width(if s.hollow { 1 } else { 3 });
            let line = chart.draw_series(LineSeries::new(s.points.iter().copied(), style))?;
            if text {
                line.label(s.label.clone())
                    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], style));
            }
            let filled = !s.hollow;
            chart.draw_series(s.points.iter().map(|&(x, y)| {
                Circle::new(
                    (x, y),
                    5,
                    if filled {
                        color.filled()
                    } else {
                        color.stroke_width(2)
                    },
                )
            }))?;
        }
        if text {
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperLeft)
                .background_style(WHITE.mix(0.9))
                .border_style(BLACK)
                .label_font(("sans-serif", 15))
                .draw()?;
        }
        root.present()?;
    }
    let file = std::fs::File::create(out)?;
    let mut enc = png::Encoder::new(BufWriter::new(file), width, height);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut w = enc.write_header()?;
    w.write_image_data(&buf)?;
    w.finish()?;
    Ok(())
}
