//! The loss curve as a PNG (`loss.png` beside `loss.csv`): train and held-out loss against epoch,
//! redrawn after every epoch so a person sees training at a glance. Drawn with
//! embedded-graphics, whose built-in bitmap fonts label the axes without a font file, and
//! written with the `png` encoder.

use super::EpochReport;
use embedded_graphics::mono_font::MonoTextStyle;
use embedded_graphics::mono_font::ascii::FONT_7X13;
use embedded_graphics::pixelcolor::Rgb888;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{
    Circle, Line, Polyline, PrimitiveStyle, Rectangle, StyledDrawable,
};
use embedded_graphics::text::{Alignment, Baseline, Text, TextStyleBuilder};
use std::convert::Infallible;
use std::path::Path;

pub const WIDTH: u32 = 800;
pub const HEIGHT: u32 = 480;
pub const TRAIN: Rgb888 = Rgb888::new(31, 119, 180);
pub const HOLDOUT: Rgb888 = Rgb888::new(214, 39, 40);
const GRID: Rgb888 = Rgb888::new(225, 225, 225);
const INK: Rgb888 = Rgb888::new(40, 40, 40);
/// The plot area inside the picture: left, top, right, bottom.
const AREA: (i32, i32, i32, i32) = (80, 40, WIDTH as i32 - 20, HEIGHT as i32 - 45);

/// Draws train and held-out loss of `reports` into a PNG at `path` (through a temporary file,
/// so a viewer never sees half a picture).
pub fn loss_curve(reports: &[EpochReport], path: &Path) -> Result<(), String> {
    let mut canvas = Canvas::new(WIDTH, HEIGHT);
    draw_chart(&mut canvas, reports);
    let partial = path.with_extension("png.partial");
    canvas.write_png(&partial)?;
    std::fs::rename(&partial, path).map_err(|e| format!("{}: {e}", path.display()))
}

fn draw_chart(canvas: &mut Canvas, reports: &[EpochReport]) {
    let losses = reports
        .iter()
        .flat_map(|r| [r.train_loss, r.holdout_loss])
        .filter(|v| v.is_finite());
    let (low, high) = losses.fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let (low, high) = if low > high { (0.0, 1.0) } else { (low, high) };
    let pad = ((high - low) * 0.05).max(high.abs() * 1e-3).max(1e-9);
    let y = Axis::new(low - pad, high + pad, 6);
    let last = reports.last().map_or(1, |r| r.epoch).max(2);
    let x = Axis::new(1.0, last as f64, 10);
    let to_point = |epoch: usize, loss: f64| {
        let (left, top, right, bottom) = AREA;
        let px = left as f64 + (epoch as f64 - x.low) / (x.high - x.low) * (right - left) as f64;
        let py = bottom as f64 - (loss - y.low) / (y.high - y.low) * (bottom - top) as f64;
        Point::new(px.round() as i32, py.round() as i32)
    };
    frame(canvas, &x, &y);
    for (colour, value) in [
        (
            TRAIN,
            (|r: &EpochReport| r.train_loss) as fn(&EpochReport) -> f64,
        ),
        (HOLDOUT, |r: &EpochReport| r.holdout_loss),
    ] {
        let points: Vec<Point> = reports
            .iter()
            .filter(|r| value(r).is_finite())
            .map(|r| to_point(r.epoch, value(r)))
            .collect();
        curve(canvas, &points, colour);
    }
    legend(canvas);
}

/// Grid, axes, tick labels and axis names.
fn frame(canvas: &mut Canvas, x: &Axis, y: &Axis) {
    let (left, top, right, bottom) = AREA;
    let grid = PrimitiveStyle::with_stroke(GRID, 1);
    let ink = PrimitiveStyle::with_stroke(INK, 1);
    let font = MonoTextStyle::new(&FONT_7X13, INK);
    let right_aligned = TextStyleBuilder::new()
        .alignment(Alignment::Right)
        .baseline(Baseline::Middle)
        .build();
    let centred = TextStyleBuilder::new()
        .alignment(Alignment::Center)
        .baseline(Baseline::Top)
        .build();
    for (value, label) in y.ticks() {
        let py = bottom - ((value - y.low) / (y.high - y.low) * (bottom - top) as f64) as i32;
        paint(
            canvas,
            Line::new(Point::new(left, py), Point::new(right, py)),
            grid,
        );
        let at = Point::new(left - 6, py);
        Text::with_text_style(&label, at, font, right_aligned)
            .draw(canvas)
            .ok();
    }
    for (value, label) in x.ticks() {
        let px = left + ((value - x.low) / (x.high - x.low) * (right - left) as f64) as i32;
        paint(
            canvas,
            Line::new(Point::new(px, top), Point::new(px, bottom)),
            grid,
        );
        let at = Point::new(px, bottom + 5);
        Text::with_text_style(&label, at, font, centred)
            .draw(canvas)
            .ok();
    }
    let size = Size::new((right - left) as u32, (bottom - top) as u32);
    paint(canvas, Rectangle::new(Point::new(left, top), size), ink);
    let at = Point::new((left + right) / 2, bottom + 24);
    Text::with_text_style("epoch", at, font, centred)
        .draw(canvas)
        .ok();
    let at = Point::new(8, top - 24);
    Text::with_baseline("loss", at, font, Baseline::Top)
        .draw(canvas)
        .ok();
}

fn curve(canvas: &mut Canvas, points: &[Point], colour: Rgb888) {
    paint(
        canvas,
        Polyline::new(points),
        PrimitiveStyle::with_stroke(colour, 2),
    );
    for &p in points {
        let dot = Circle::with_center(p, 7);
        paint(canvas, dot, PrimitiveStyle::with_fill(colour));
    }
}

fn legend(canvas: &mut Canvas) {
    let (_, top, right, _) = AREA;
    for (i, (colour, name)) in [(TRAIN, "train"), (HOLDOUT, "held-out")].iter().enumerate() {
        let x = right - 200 + 100 * i as i32;
        let line = Line::new(Point::new(x, top - 18), Point::new(x + 24, top - 18));
        paint(canvas, line, PrimitiveStyle::with_stroke(*colour, 3));
        let font = MonoTextStyle::new(&FONT_7X13, INK);
        let at = Point::new(x + 30, top - 18);
        Text::with_baseline(name, at, font, Baseline::Middle)
            .draw(canvas)
            .ok();
    }
}

fn paint<S>(canvas: &mut Canvas, shape: S, style: PrimitiveStyle<Rgb888>)
where
    S: StyledDrawable<PrimitiveStyle<Rgb888>, Color = Rgb888>,
{
    shape.draw_styled(&style, canvas).ok();
}

/// An axis from `low` to `high` with ticks at round steps (1, 2 or 5 times a power of ten).
struct Axis {
    low: f64,
    high: f64,
    step: f64,
}

impl Axis {
    fn new(low: f64, high: f64, ticks: usize) -> Axis {
        let rough = (high - low) / ticks as f64;
        let power = 10f64.powf(rough.log10().floor());
        let step = [1.0, 2.0, 5.0, 10.0]
            .iter()
            .map(|m| m * power)
            .find(|&s| s >= rough)
            .unwrap_or(10.0 * power);
        Axis { low, high, step }
    }

    /// Tick values inside the axis, each with its label (as many decimals as the step needs).
    fn ticks(&self) -> Vec<(f64, String)> {
        let decimals = (-self.step.log10().floor()).max(0.0) as usize;
        let first = (self.low / self.step).ceil() as i64;
        let last = (self.high / self.step).floor() as i64;
        (first..=last)
            .map(|k| k as f64 * self.step)
            .map(|v| (v, format!("{v:.decimals$}")))
            .collect()
    }
}

/// An RGB picture in memory that embedded-graphics draws on.
struct Canvas {
    width: u32,
    height: u32,
    rgb: Vec<u8>,
}

impl Canvas {
    fn new(width: u32, height: u32) -> Canvas {
        let rgb = vec![255; (width * height * 3) as usize];
        Canvas { width, height, rgb }
    }

    fn write_png(&self, path: &Path) -> Result<(), String> {
        let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
        let file = std::fs::File::create(path).map_err(|e| err(&e))?;
        let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), self.width, self.height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(|e| err(&e))?;
        writer.write_image_data(&self.rgb).map_err(|e| err(&e))?;
        writer.finish().map_err(|e| err(&e))
    }
}

impl OriginDimensions for Canvas {
    fn size(&self) -> Size {
        Size::new(self.width, self.height)
    }
}

impl DrawTarget for Canvas {
    type Color = Rgb888;
    type Error = Infallible;

    fn draw_iter<I: IntoIterator<Item = Pixel<Rgb888>>>(
        &mut self,
        pixels: I,
    ) -> Result<(), Infallible> {
        for Pixel(p, colour) in pixels {
            if p.x >= 0 && p.y >= 0 && (p.x as u32) < self.width && (p.y as u32) < self.height {
                let at = 3 * (p.y as usize * self.width as usize + p.x as usize);
                self.rgb[at..at + 3].copy_from_slice(&[colour.r(), colour.g(), colour.b()]);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(epoch: usize, train_loss: f64, holdout_loss: f64) -> EpochReport {
        EpochReport {
            epoch,
            train_loss,
            holdout_loss,
            lr: 1e-3,
            positions_per_second: 1.0,
        }
    }

    /// Size and RGB pixels of a PNG file.
    fn decode(path: &Path) -> (u32, u32, Vec<u8>) {
        let decoder =
            png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
        let mut reader = decoder.read_info().unwrap();
        let mut rgb = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut rgb).unwrap();
        assert_eq!(info.color_type, png::ColorType::Rgb);
        rgb.truncate(info.buffer_size());
        (info.width, info.height, rgb)
    }

    fn has(rgb: &[u8], colour: Rgb888) -> bool {
        rgb.chunks(3)
            .any(|p| p == [colour.r(), colour.g(), colour.b()])
    }

    fn temp(name: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!(
            "quintessence-plot-{name}-{}.png",
            std::process::id()
        ))
    }

    #[test]
    fn the_curve_is_a_png_of_the_right_size_with_both_lines() {
        let path = temp("curve");
        let reports: Vec<EpochReport> = (1..=5)
            .map(|e| report(e, 0.05 / e as f64, 0.06 / e as f64))
            .collect();
        loss_curve(&reports, &path).unwrap();
        let (width, height, rgb) = decode(&path);
        assert_eq!((width, height), (WIDTH, HEIGHT));
        assert!(has(&rgb, TRAIN) && has(&rgb, HOLDOUT));
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn one_epoch_or_a_flat_loss_still_draws() {
        for reports in [
            vec![report(1, 0.1, 0.1)],
            vec![report(1, 0.2, 0.2), report(2, 0.2, 0.2)],
        ] {
            let path = temp("flat");
            loss_curve(&reports, &path).unwrap();
            let (width, height, rgb) = decode(&path);
            assert_eq!((width, height), (WIDTH, HEIGHT));
            assert!(has(&rgb, HOLDOUT));
            std::fs::remove_file(&path).unwrap();
        }
    }

    #[test]
    fn ticks_fall_on_round_numbers_inside_the_axis() {
        let axis = Axis::new(0.0213, 0.0487, 6);
        let ticks = axis.ticks();
        assert!((axis.step - 0.005).abs() < 1e-12, "{}", axis.step);
        assert_eq!(ticks.first().unwrap().1, "0.025");
        assert_eq!(ticks.last().unwrap().1, "0.045");
        assert_eq!(ticks.len(), 5);
    }
}
