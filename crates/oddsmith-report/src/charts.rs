//! Charts as data, rendered with plotters to SVG (inline in HTML) and PNG.
//!
//! A [`Chart`] describes *what* to show (categories with intervals, numeric series with
//! optional interval bands, labelled scatters, heatmaps with a colour bar and a contour);
//! [`svg()`] and [`png()`] draw it. New chart kinds are new [`Plot`] variants with their own
//! draw function; the styling, fonts and backends are shared.

use std::collections::HashMap;
use std::path::Path;

use plotters::coord::Shift;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::coord::types::{RangedCoordf64, RangedCoordi32};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{FontStyle, FontTransform};

use crate::format::{num, percent_short as pct};

/// Bundled font (DejaVu Sans, see `assets/DejaVuSans-LICENSE.txt`): text looks the same on
/// every machine and no system font is needed. The browser build (wasm32) does not carry it
/// in its binary (a third of the download): the page hands the same file to [`use_font`]
/// before it draws.
#[cfg(not(target_arch = "wasm32"))]
const FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");
const FAMILY: &str = "sans-serif";

/// Colour-blind-safe palette (Okabe–Ito, then Tol's wine and teal for series 9 and 10).
pub const PALETTE: [RGBColor; 10] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(213, 94, 0),
    RGBColor(120, 120, 120),
    RGBColor(0, 0, 0),
    RGBColor(136, 34, 85),
    RGBColor(68, 170, 153),
];

/// Grey used for reference lines and frames.
const GREY: RGBColor = PALETTE[6];
/// Red used for exact values.
const EXACT: RGBColor = PALETTE[5];

/// A chart: a title, a size and what to plot.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// Title drawn above the plot.
    pub title: String,
    /// Width in pixels (SVG user units).
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// What to draw.
    pub plot: Plot,
}

/// The kinds of plot.
#[derive(Clone, Debug, PartialEq)]
pub enum Plot {
    /// One horizontal bar per category, with a 95 % interval whisker and an optional exact
    /// marker; a dashed reference line (e.g. 50 %).
    Intervals(IntervalPlot),
    /// Numeric x against numeric y: lines, steps, bars or points, each with optional bands.
    Xy(XyPlot),
    /// An x–y plot with a text label beside each of some points (e.g. fighter names on a
    /// scatter of cost against P(win)); labels are placed where they do not overlap.
    LabelledXy(LabelledXy),
    /// A grid of coloured cells with categorical axes, a colour bar and an optional contour.
    Heatmap(HeatmapPlot),
    /// Several plots side by side, sharing the chart's title.
    Row(Vec<(String, Plot)>),
}

/// Category bars with intervals.
#[derive(Clone, Debug, PartialEq)]
pub struct IntervalPlot {
    /// Axis title of the value axis, with unit.
    pub value_desc: String,
    /// Category names, top to bottom.
    pub categories: Vec<String>,
    /// Point estimate, interval low, interval high per category.
    pub values: Vec<(f64, f64, f64)>,
    /// Exact value per category, if known.
    pub exact: Vec<Option<f64>>,
    /// Value axis range.
    pub range: (f64, f64),
    /// Reference line (e.g. 0.5), if any.
    pub reference: Option<f64>,
    /// Show values as percentages.
    pub percent: bool,
}

/// How a series is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Style {
    /// Straight segments between points.
    Line,
    /// Dashed segments between points.
    Dashed,
    /// Filled circles.
    Points,
    /// Vertical bars centred on x + `offset`, `width` wide (histograms; side-by-side bars
    /// use offsets such as ∓0.2 with width 0.4).
    Bars {
        /// Shift of the bar centre from x.
        offset: f64,
        /// Bar width in x units.
        width: f64,
    },
}

/// One series of an [`XyPlot`].
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Legend entry (empty: not in the legend).
    pub name: String,
    /// Palette index.
    pub color: usize,
    /// Drawing style.
    pub style: Style,
    /// The points.
    pub points: Vec<(f64, f64)>,
    /// Interval band per point (x, low, high), drawn as a shaded area; empty for none.
    pub band: Vec<(f64, f64, f64)>,
    /// Whiskers per point (x, low, high); empty for none.
    pub whiskers: Vec<(f64, f64, f64)>,
}

impl Series {
    /// A series without band or whiskers.
    pub fn new(name: &str, color: usize, style: Style, points: Vec<(f64, f64)>) -> Self {
        Series {
            name: name.into(),
            color,
            style,
            points,
            band: vec![],
            whiskers: vec![],
        }
    }

    /// A dashed grey horizontal line at `y` across `x`.
    pub fn reference(name: &str, x: (f64, f64), y: f64) -> Self {
        Series::new(name, 6, Style::Dashed, vec![(x.0, y), (x.1, y)])
    }
}

/// `(lo, hi)` of `values` padded by 5 % of the span (or ±1 when there is no span); `None`
/// without a finite value.
pub fn padded_range(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
        (l.min(v), h.max(v))
    });
    if !lo.is_finite() || !hi.is_finite() {
        return None;
    }
    let pad = if hi > lo { 0.05 * (hi - lo) } else { 1.0 };
    Some((lo - pad, hi + pad))
}

/// Whether every value is a whole number (integer ticks).
pub fn all_whole(values: &[f64]) -> bool {
    values.iter().all(|v| v.fract() == 0.0)
}

/// Numeric series.
#[derive(Clone, Debug, PartialEq)]
pub struct XyPlot {
    /// x axis title with unit.
    pub x_desc: String,
    /// y axis title with unit.
    pub y_desc: String,
    /// x range.
    pub x_range: (f64, f64),
    /// y range.
    pub y_range: (f64, f64),
    /// Show y as percentages.
    pub y_percent: bool,
    /// Integer ticks on x.
    pub x_integer: bool,
    /// The series, drawn in order.
    pub series: Vec<Series>,
    /// Where the legend goes (choose a corner the data leaves empty).
    pub legend: Corner,
}

/// An [`XyPlot`] with text labels beside points.
#[derive(Clone, Debug, PartialEq)]
pub struct LabelledXy {
    /// The plot (a reference line such as a "fair line" is a two-point `Dashed` series).
    pub xy: XyPlot,
    /// The labels, each beside its point (usually the points of a `Points` series).
    pub labels: Vec<PointLabel>,
}

/// A text label for the point `at` of a [`LabelledXy`].
#[derive(Clone, Debug, PartialEq)]
pub struct PointLabel {
    /// The labelled point, in data coordinates.
    pub at: (f64, f64),
    /// The text (e.g. a fighter's name).
    pub text: String,
}

/// How values map to colours in a [`HeatmapPlot`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ColorScale {
    /// Viridis (dark purple → blue → green → yellow): perceptually uniform, colour-blind
    /// safe, readable in grey; for values without a natural midpoint.
    Sequential,
    /// Moreland's cool–warm: blue below `center`, light grey at it, red above; for values
    /// with a natural midpoint such as P(A wins) = 0.5.
    Diverging {
        /// The value drawn in the neutral colour.
        center: f64,
    },
}

/// Cells coloured by value on categorical axes: a 2-D sweep (labels are the swept values)
/// or a tournament matrix (labels are fighter names).
#[derive(Clone, Debug, PartialEq)]
pub struct HeatmapPlot {
    /// x axis title.
    pub x_desc: String,
    /// y axis title.
    pub y_desc: String,
    /// Column labels, left to right.
    pub x_labels: Vec<String>,
    /// Row labels, in the order of `values`' rows.
    pub y_labels: Vec<String>,
    /// `true`: row 0 at the top (a matrix); `false`: row 0 at the bottom (a y axis).
    pub first_row_on_top: bool,
    /// `values[row][col]`; NaN leaves the cell empty.
    pub values: Vec<Vec<f64>>,
    /// Value range of the colour scale (values outside are clamped).
    pub range: (f64, f64),
    /// Colour scale.
    pub scale: ColorScale,
    /// Colour bar title, e.g. "P(A wins)".
    pub value_desc: String,
    /// Show colour bar ticks as percentages.
    pub percent: bool,
    /// Text per cell, `[row][col]` like `values` (e.g. from [`percent_text`]); empty for none.
    pub cell_text: Vec<Vec<String>>,
    /// Draw the contour line at this value (e.g. 0.5), through the cell centres.
    pub contour: Option<f64>,
}

impl HeatmapPlot {
    /// A heatmap of probabilities (0 to 100 %, 50 % in the neutral colour) with each cell's
    /// percentage written in it; first data row at the bottom, no contour.
    pub fn probabilities(
        (x_desc, y_desc): (String, String),
        (x_labels, y_labels): (Vec<String>, Vec<String>),
        values: Vec<Vec<f64>>,
        value_desc: &str,
    ) -> Self {
        HeatmapPlot {
            x_desc,
            y_desc,
            x_labels,
            y_labels,
            first_row_on_top: false,
            cell_text: percent_text(&values),
            values,
            range: (0.0, 1.0),
            scale: ColorScale::Diverging { center: 0.5 },
            value_desc: value_desc.into(),
            percent: true,
            contour: None,
        }
    }
}

/// Cell texts such as "62 %" for a [`HeatmapPlot`] (empty for NaN cells).
#[must_use]
pub fn percent_text(values: &[Vec<f64>]) -> Vec<Vec<String>> {
    values
        .iter()
        .map(|r| {
            r.iter()
                .map(|v| {
                    if v.is_finite() {
                        format!("{:.0} %", 100.0 * v)
                    } else {
                        String::new()
                    }
                })
                .collect()
        })
        .collect()
}

/// A corner of the plot area.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Corner {
    /// Upper left.
    UpperLeft,
    /// Upper right.
    UpperRight,
    /// Lower left.
    LowerLeft,
    /// Lower right.
    LowerRight,
    /// Outside the plot, in a column to its right: it can never hide a point (for plots whose
    /// every corner may hold data, such as probabilities running from 0 % to 100 %).
    Right,
}

impl Corner {
    fn position(self) -> SeriesLabelPosition {
        match self {
            Corner::UpperLeft => SeriesLabelPosition::UpperLeft,
            Corner::UpperRight => SeriesLabelPosition::UpperRight,
            Corner::LowerLeft => SeriesLabelPosition::LowerLeft,
            Corner::LowerRight | Corner::Right => SeriesLabelPosition::LowerRight,
        }
    }
}

/// A chart that could not be drawn.
#[derive(Debug, thiserror::Error)]
#[error("chart {chart:?}: {message}")]
pub struct ChartError {
    /// The chart's title.
    pub chart: String,
    /// What went wrong.
    pub message: String,
}

/// Whether a font is registered (the bundled one, or [`use_font`]'s in the browser build).
static FONT_READY: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Registers the font charts measure and draw text with: the bytes of the bundled
/// `assets/DejaVuSans.ttf`. The native build registers it by itself; the browser build
/// (wasm32), which does not embed it, is given it by the page before it draws. Another font
/// would move the charts' text (its widths place labels and margins).
pub fn use_font(bytes: &'static [u8]) -> Result<(), ChartError> {
    plotters::style::register_font(FAMILY, FontStyle::Normal, bytes).map_err(|_| ChartError {
        chart: String::new(),
        message: "the chart font is not a TrueType/OpenType font".into(),
    })?;
    FONT_READY.store(true, std::sync::atomic::Ordering::Release);
    Ok(())
}

/// Registers the bundled font once (native), or checks that the page gave one (wasm32).
fn font(c: &Chart) -> Result<(), ChartError> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        // The bundled font is valid; a failure here would be a packaging bug caught by tests.
        ONCE.call_once(|| {
            let _ = use_font(FONT);
        });
    }
    if FONT_READY.load(std::sync::atomic::Ordering::Acquire) {
        Ok(())
    } else {
        Err(err(c, "no chart font registered (charts::use_font)"))
    }
}

/// Renders a chart as an SVG document.
pub fn svg(c: &Chart) -> Result<String, ChartError> {
    font(c)?;
    let mut s = String::new();
    {
        let root = SVGBackend::with_string(&mut s, (c.width, c.height)).into_drawing_area();
        draw(c, &root).map_err(|m| err(c, m))?;
        root.present().map_err(|e| err(c, e.to_string()))?;
    }
    Ok(s)
}

/// Renders a chart as PNG bytes (8-bit RGB).
pub fn png_bytes(c: &Chart) -> Result<Vec<u8>, ChartError> {
    font(c)?;
    let (w, h) = (c.width, c.height);
    let mut rgb = vec![0u8; w as usize * h as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area();
        draw(c, &root).map_err(|m| err(c, m))?;
        root.present().map_err(|e| err(c, e.to_string()))?;
    }
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_compression(png::Compression::Best);
    enc.set_adaptive_filter(png::AdaptiveFilterType::Adaptive);
    let mut writer = enc.write_header().map_err(|e| err(c, e))?;
    writer.write_image_data(&rgb).map_err(|e| err(c, e))?;
    writer.finish().map_err(|e| err(c, e))?;
    Ok(out)
}

/// Renders a chart as a PNG file.
pub fn png(c: &Chart, path: &Path) -> Result<(), ChartError> {
    let bytes = png_bytes(c)?;
    std::fs::write(path, bytes).map_err(|e| err(c, format!("{}: {e}", path.display())))
}

fn err(c: &Chart, m: impl ToString) -> ChartError {
    ChartError {
        chart: c.title.clone(),
        message: m.to_string(),
    }
}

type R = Result<(), String>;

fn draw<DB: DrawingBackend>(c: &Chart, root: &DrawingArea<DB, Shift>) -> R {
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let body = root
        .titled(&c.title, (FAMILY, 22).into_font().color(&BLACK))
        .map_err(|e| e.to_string())?;
    draw_plot(&c.plot, &body, None)
}

fn draw_plot<DB: DrawingBackend>(
    p: &Plot,
    area: &DrawingArea<DB, Shift>,
    subtitle: Option<&str>,
) -> R {
    match p {
        Plot::Intervals(i) => intervals(i, area, subtitle),
        Plot::Xy(x) => xy(x, &[], area, subtitle),
        Plot::LabelledXy(l) => xy(&l.xy, &l.labels, area, subtitle),
        Plot::Heatmap(h) => heatmap(h, area, subtitle),
        Plot::Row(plots) => {
            let parts = area.split_evenly((1, plots.len().max(1)));
            for ((title, plot), part) in plots.iter().zip(parts.iter()) {
                draw_plot(plot, part, Some(title))?;
            }
            Ok(())
        }
    }
}

fn intervals<DB: DrawingBackend>(
    p: &IntervalPlot,
    area: &DrawingArea<DB, Shift>,
    subtitle: Option<&str>,
) -> R {
    let n = p.categories.len().max(1) as i32;
    let longest = p
        .categories
        .iter()
        .map(|c| c.chars().count())
        .max()
        .unwrap_or(4) as u32;
    // The legend goes in a strip under the plot, where it can never hide a bar.
    let (plot_area, strip) = area.split_vertically(area.dim_in_pixel().1.saturating_sub(36));
    let mut b = ChartBuilder::on(&plot_area);
    b.margin(12)
        .margin_right(28)
        .x_label_area_size(50)
        .y_label_area_size((longest * 8 + 16).clamp(60, 320));
    if let Some(t) = subtitle {
        b.caption(t, (FAMILY, 16));
    }
    let mut chart = b
        .build_cartesian_2d(p.range.0..p.range.1, Categories::new(n).into_segmented())
        .map_err(|e| e.to_string())?;
    let percent = p.percent;
    let names = p.categories.clone();
    let y_fmt = |v: &SegmentValue<i32>| match v {
        SegmentValue::CenterOf(i) => names.get(*i as usize).cloned().unwrap_or_default(),
        _ => String::new(),
    };
    let x_fmt = |v: &f64| if percent { pct(*v) } else { format!("{v}") };
    chart
        .configure_mesh()
        .disable_y_mesh()
        .light_line_style(TRANSPARENT)
        .x_desc(&p.value_desc)
        .axis_desc_style((FAMILY, 15))
        .label_style((FAMILY, 13))
        .x_label_formatter(&x_fmt)
        .y_labels(n as usize)
        .y_label_formatter(&y_fmt)
        .draw()
        .map_err(|e| e.to_string())?;
    let bar = PALETTE[0].mix(0.55).filled();
    // One bar per call: plotters' Histogram collects its data in a HashMap, so bars drawn in
    // one call come out in a different order on every run (and the SVG bytes with them).
    for (i, v) in p.values.iter().enumerate() {
        chart
            .draw_series(
                Histogram::horizontal(&chart)
                    .style(bar)
                    .margin(12)
                    .data([(i as i32, v.0)]),
            )
            .map_err(|e| e.to_string())?;
    }
    chart
        .draw_series(p.values.iter().enumerate().map(|(i, v)| {
            ErrorBar::new_horizontal(
                SegmentValue::CenterOf(i as i32),
                v.1,
                v.0,
                v.2,
                BLACK.stroke_width(2),
                14,
            )
        }))
        .map_err(|e| e.to_string())?;
    chart
        .draw_series(p.exact.iter().enumerate().filter_map(|(i, e)| {
            e.map(|e| {
                Cross::new(
                    (e, SegmentValue::CenterOf(i as i32)),
                    7,
                    EXACT.stroke_width(3),
                )
            })
        }))
        .map_err(|e| e.to_string())?;
    let label_style = TextStyle::from((FAMILY, 13).into_font())
        .color(&BLACK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    let plot_px = f64::from(chart.plotting_area().dim_in_pixel().0.max(1));
    for (i, v) in p.values.iter().enumerate() {
        let text = if percent && v.2 > v.1 {
            format!("{} ± {}", pct(v.0), pct((v.2 - v.1) / 2.0))
        } else if percent {
            // An exact value has no interval: no "± 0 %".
            pct(v.0)
        } else {
            format!("{:.3}", v.0)
        };
        let exact = p.exact.get(i).copied().flatten();
        let (x, right_aligned) = label_place(p, (v.1, v.2), exact, &text, plot_px);
        let style = if right_aligned {
            label_style.pos(Pos::new(HPos::Right, VPos::Center))
        } else {
            label_style.clone()
        };
        chart
            .draw_series(std::iter::once(Text::new(
                text,
                (x, SegmentValue::CenterOf(i as i32)),
                style,
            )))
            .map_err(|e| e.to_string())?;
    }
    if let Some(r) = p.reference {
        chart
            .draw_series(DashedLineSeries::new(
                [(r, SegmentValue::Exact(0)), (r, SegmentValue::Last)],
                6,
                4,
                GREY.stroke_width(2),
            ))
            .map_err(|e| e.to_string())?;
    }
    // Legend strip.
    let mut entries: Vec<(Mark, String)> = vec![
        (Mark::Bar(PALETTE[0]), "Monte Carlo estimate".into()),
        (Mark::Whisker, "95 % interval".into()),
    ];
    if p.exact.iter().any(Option::is_some) {
        entries.push((Mark::Cross(EXACT), "exact value".into()));
    }
    if let Some(r) = p.reference {
        entries.push((
            Mark::Dashed(GREY),
            if percent {
                format!("reference {}", pct(r))
            } else {
                format!("reference {r}")
            },
        ));
    }
    legend_strip(&strip, &entries)
}

/// Where a bar's value label goes: `(x, right_aligned)`. The first of these that stays in the
/// plot and does not cross the reference line: right of the interval (and exact marker); left
/// of them, inside the bar; right of the reference line.
fn label_place(
    p: &IntervalPlot,
    (lo, hi): (f64, f64),
    exact: Option<f64>,
    text: &str,
    plot_px: f64,
) -> (f64, bool) {
    let span = p.range.1 - p.range.0;
    let gap = span * 0.02;
    // About 7 px per character of 13 px DejaVu Sans.
    let width = span * 7.0 * text.chars().count() as f64 / plot_px;
    let right = hi.max(exact.unwrap_or(hi));
    let left = lo.min(exact.unwrap_or(lo));
    let crosses = |a: f64, b: f64| {
        p.reference
            .is_some_and(|r| a - gap / 2.0 < r && r < b + gap / 2.0)
    };
    let fits = |a: f64, b: f64| a >= p.range.0 && b <= p.range.1;
    let after = right + gap;
    let before = left - gap;
    // A bar left of zero (a tornado chart's negative change) is drawn from zero leftwards:
    // its label goes left of its whisker, off the bar.
    if right < 0.0 && fits(before - width, before) && !crosses(before - width, before) {
        return (before, true);
    }
    if fits(after, after + width) && !crosses(after, after + width) {
        return (after, false);
    }
    if fits(before - width, before) && !crosses(before - width, before) {
        return (before, true);
    }
    if let Some(r) = p.reference {
        let past = right.max(r) + gap;
        if fits(past, past + width) {
            return (past, false);
        }
    }
    if fits(before - width, before) {
        (before, true)
    } else {
        (after.min(p.range.1), false)
    }
}

/// The category axis of an [`IntervalPlot`]: the integers `0..n`, mapped exactly as plotters
/// maps `0..n - 1` when there are two or more; one category fills the whole axis (plotters'
/// own one-value range maps every value to a point outside the plot, so the only bar lost its
/// place, its label and the reference line).
#[derive(Clone)]
struct Categories {
    inner: RangedCoordi32,
    n: i32,
}

impl Categories {
    fn new(n: i32) -> Self {
        Categories {
            inner: (0..n - 1).into(),
            n,
        }
    }
}

impl Ranged for Categories {
    type FormatOption = DefaultFormatting;
    type ValueType = i32;

    fn map(&self, v: &i32, limit: (i32, i32)) -> i32 {
        if self.n <= 1 {
            // The segmented axis gives its one segment the range from here to its end.
            limit.0
        } else {
            self.inner.map(v, limit)
        }
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<i32> {
        if self.n <= 1 {
            if hint.max_num_points() == 0 {
                vec![]
            } else {
                vec![0]
            }
        } else {
            self.inner.key_points(hint)
        }
    }

    fn range(&self) -> std::ops::Range<i32> {
        self.inner.range()
    }
}

impl DiscreteRanged for Categories {
    fn size(&self) -> usize {
        self.inner.size()
    }

    fn index_of(&self, value: &i32) -> Option<usize> {
        self.inner.index_of(value)
    }

    fn from_index(&self, index: usize) -> Option<i32> {
        self.inner.from_index(index)
    }
}

/// A legend symbol.
enum Mark {
    Bar(RGBColor),
    Whisker,
    Cross(RGBColor),
    /// A filled circle (points).
    Dot(RGBColor),
    Dashed(RGBColor),
    /// A solid line with a white halo (contours).
    Line(RGBColor),
}

/// Draws one legend symbol, 22 px wide, its left end at `(x, y)`.
fn draw_mark<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, mark: &Mark, x: i32, y: i32) -> R {
    let e = |r: Result<(), DrawingAreaErrorKind<DB::ErrorType>>| r.map_err(|e| e.to_string());
    match mark {
        Mark::Bar(c) => e(area.draw(&Rectangle::new(
            [(x, y - 6), (x + 22, y + 6)],
            c.mix(0.55).filled(),
        ))),
        Mark::Whisker => {
            e(area.draw(&PathElement::new(
                vec![(x, y), (x + 22, y)],
                BLACK.stroke_width(2),
            )))?;
            e(area.draw(&PathElement::new(
                vec![(x, y - 6), (x, y + 6)],
                BLACK.stroke_width(2),
            )))?;
            e(area.draw(&PathElement::new(
                vec![(x + 22, y - 6), (x + 22, y + 6)],
                BLACK.stroke_width(2),
            )))
        }
        Mark::Cross(c) => e(area.draw(&Cross::new((x + 11, y), 6, c.stroke_width(3)))),
        Mark::Dot(c) => e(area.draw(&Circle::new((x + 11, y), 4, c.filled()))),
        Mark::Dashed(c) => {
            e(area.draw(&PathElement::new(
                vec![(x, y), (x + 8, y)],
                c.stroke_width(2),
            )))?;
            e(area.draw(&PathElement::new(
                vec![(x + 14, y), (x + 22, y)],
                c.stroke_width(2),
            )))
        }
        Mark::Line(c) => e(area.draw(&PathElement::new(
            vec![(x, y), (x + 22, y)],
            c.stroke_width(CONTOUR_WIDTH),
        ))),
    }
}

/// The style of legend text (13 px, left-aligned, vertically centred).
fn legend_text_style() -> TextStyle<'static> {
    TextStyle::from((FAMILY, 13).into_font())
        .color(&BLACK)
        .pos(Pos::new(HPos::Left, VPos::Center))
}

/// Draws legend entries in one row, centred.
fn legend_strip<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(Mark, String)],
) -> R {
    let style = legend_text_style();
    let width: i32 = entries
        .iter()
        .map(|(_, t)| 34 + 7 * t.chars().count() as i32 + 24)
        .sum();
    let (w, h) = area.dim_in_pixel();
    let mut x = ((w as i32 - width) / 2).max(8);
    let y = h as i32 / 2;
    for (mark, text) in entries {
        draw_mark(area, mark, x, y)?;
        area.draw(&Text::new(text.clone(), (x + 30, y), style.clone()))
            .map_err(|e| e.to_string())?;
        x += 34 + 7 * text.chars().count() as i32 + 24;
    }
    Ok(())
}

/// Width in pixels of a legend column holding `entries` (at most `max`).
fn legend_column_width(entries: &[(Mark, String)], max: i32) -> i32 {
    let longest = entries
        .iter()
        .map(|(_, t)| t.chars().count())
        .max()
        .unwrap_or(0) as i32;
    (longest * 7 + 52).min(max)
}

/// Draws legend entries one under another, from the top of `area` (a column beside a plot).
fn legend_column<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(Mark, String)],
) -> R {
    let style = legend_text_style();
    for (i, (mark, text)) in entries.iter().enumerate() {
        let y = 30 + 20 * i as i32;
        draw_mark(area, mark, 6, y)?;
        area.draw(&Text::new(text.clone(), (36, y), style.clone()))
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The legend entries of an [`XyPlot`]: every named series, with its symbol.
fn xy_legend_entries(p: &XyPlot) -> Vec<(Mark, String)> {
    p.series
        .iter()
        .filter(|s| !s.name.is_empty())
        .map(|s| {
            let c = PALETTE[s.color % PALETTE.len()];
            let mark = match s.style {
                Style::Points => Mark::Dot(c),
                Style::Bars { .. } => Mark::Bar(c),
                Style::Dashed => Mark::Dashed(c),
                Style::Line => Mark::Line(c),
            };
            (mark, s.name.clone())
        })
        .collect()
}

fn legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    corner: Corner,
) -> R {
    chart
        .configure_series_labels()
        .position(corner.position())
        .background_style(WHITE.mix(0.85))
        .border_style(PALETTE[6])
        .label_font((FAMILY, 13))
        .draw()
        .map_err(|e| e.to_string())
}

fn xy<DB: DrawingBackend>(
    p: &XyPlot,
    labels: &[PointLabel],
    area: &DrawingArea<DB, Shift>,
    subtitle: Option<&str>,
) -> R {
    // A legend outside the plot takes a column on its right.
    let entries = xy_legend_entries(p);
    let (area, legend_area) = if p.legend == Corner::Right && !entries.is_empty() {
        let w = area.dim_in_pixel().0 as i32;
        let (plot, column) = area.split_horizontally(w - legend_column_width(&entries, w * 2 / 5));
        (plot, Some(column))
    } else {
        (area.clone(), None)
    };
    let mut b = ChartBuilder::on(&area);
    b.margin(12)
        .margin_right(20)
        .x_label_area_size(50)
        .y_label_area_size(70);
    if let Some(t) = subtitle {
        b.caption(t, (FAMILY, 16));
    }
    // A probability axis running to 100 % gets a little room beyond both ends (without
    // ticks), so points and lines at exactly 0 % or 100 % are not cut in half by the frame.
    let has_bars = p
        .series
        .iter()
        .any(|s| matches!(s.style, Style::Bars { .. }));
    let y_range = if p.y_percent && p.y_range.1 >= 1.0 && !has_bars {
        let pad = 0.025 * (p.y_range.1 - p.y_range.0);
        (p.y_range.0 - pad, p.y_range.1 + pad)
    } else {
        p.y_range
    };
    let mut chart = b
        .build_cartesian_2d(p.x_range.0..p.x_range.1, y_range.0..y_range.1)
        .map_err(|e| e.to_string())?;
    let (y_percent, x_integer) = (p.y_percent, p.x_integer);
    let span = p.x_range.1 - p.x_range.0;
    let y_fmt = |v: &f64| match (y_percent, *v > 1.0 + 1e-9 || *v < -1e-9) {
        (true, true) => String::new(), // room beyond 0 % and 100 % carries no ticks
        (true, false) => pct(*v),
        _ => format!("{v:.2}"),
    };
    let x_fmt = |v: &f64| {
        if x_integer {
            format!("{}", v.round())
        } else {
            format!("{v:.2}")
        }
    };
    let mut mesh = chart.configure_mesh();
    mesh.x_desc(&p.x_desc)
        .y_desc(&p.y_desc)
        .axis_desc_style((FAMILY, 15))
        .label_style((FAMILY, 13))
        .light_line_style(RGBColor(245, 245, 245))
        .y_label_formatter(&y_fmt)
        .x_label_formatter(&x_fmt);
    if x_integer && span <= 30.0 {
        mesh.x_labels(span as usize + 1);
    }
    mesh.draw().map_err(|e| e.to_string())?;
    let dodge = bound_dodge(p, &chart);
    for s in &p.series {
        let color = PALETTE[s.color % PALETTE.len()];
        let shift = dodge.get(&s.color).copied().unwrap_or(0.0);
        let at = |y: f64| if y <= 0.0 || y >= 1.0 { y + shift } else { y };
        let points: Vec<(f64, f64)> = s.points.iter().map(|&(x, y)| (x, at(y))).collect();
        if !s.band.is_empty() {
            let upper = s.band.iter().map(|&(x, _, hi)| (x, hi));
            let lower = s.band.iter().rev().map(|&(x, lo, _)| (x, lo));
            chart
                .draw_series(std::iter::once(Polygon::new(
                    upper.chain(lower).collect::<Vec<_>>(),
                    color.mix(0.18).filled(),
                )))
                .map_err(|e| e.to_string())?;
        }
        let anno = match s.style {
            Style::Line => chart.draw_series(LineSeries::new(
                points.iter().copied(),
                color.stroke_width(2),
            )),
            Style::Dashed => chart.draw_series(DashedLineSeries::new(
                points.iter().copied(),
                8,
                5,
                color.stroke_width(2),
            )),
            Style::Points => {
                chart.draw_series(points.iter().map(|&p| Circle::new(p, 4, color.filled())))
            }
            Style::Bars { offset, width } => chart.draw_series(s.points.iter().map(|&(x, y)| {
                let c = x + offset;
                Rectangle::new(
                    [(c - width / 2.0, 0.0), (c + width / 2.0, y)],
                    color.mix(0.7).filled(),
                )
            })),
        }
        .map_err(|e| e.to_string())?;
        let style = s.style;
        if !s.name.is_empty() {
            anno.label(s.name.clone()).legend(
                move |(x, y)| -> DynElement<'static, DB, (i32, i32)> {
                    match style {
                        Style::Points => Circle::new((x + 8, y), 4, color.filled()).into_dyn(),
                        Style::Bars { .. } => {
                            Rectangle::new([(x, y - 5), (x + 16, y + 5)], color.mix(0.7).filled())
                                .into_dyn()
                        }
                        _ => PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2))
                            .into_dyn(),
                    }
                },
            );
        }
        if !s.whiskers.is_empty() {
            chart
                .draw_series(s.whiskers.iter().map(|&(x, lo, hi)| {
                    // A whisker touching a bound moves with its point.
                    let d = if lo <= 0.0 || hi >= 1.0 { shift } else { 0.0 };
                    let (lo, hi) = (lo + d, hi + d);
                    ErrorBar::new_vertical(x, lo, (lo + hi) / 2.0, hi, color.stroke_width(1), 6)
                }))
                .map_err(|e| e.to_string())?;
        }
    }
    if !labels.is_empty() {
        point_labels(p, labels, &chart)?;
    }
    match legend_area {
        Some(column) => legend_column(&column, &entries),
        None => legend(&mut chart, p.legend),
    }
}

/// Pixels between neighbouring lines that share a value of exactly 0 % or 100 %.
const DODGE_PX: f64 = 2.5;

/// For a probability plot where two or more line series (told apart by colour) reach exactly
/// 0 % or 100 %, a small vertical offset per colour (in data units, a few pixels) for the
/// points at those bounds, so the lines do not hide each other there; empty otherwise. Only
/// the drawing moves: the chart's data are unchanged.
fn bound_dodge<DB: DrawingBackend>(
    p: &XyPlot,
    chart: &ChartContext<'_, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
) -> HashMap<usize, f64> {
    let mut colours: Vec<usize> = p
        .series
        .iter()
        .filter(|s| matches!(s.style, Style::Line | Style::Dashed))
        .filter(|s| s.points.iter().any(|&(_, y)| y <= 0.0 || y >= 1.0))
        .map(|s| s.color)
        .collect();
    colours.sort_unstable();
    colours.dedup();
    if !p.y_percent || colours.len() < 2 {
        return HashMap::new();
    }
    let (_, h) = chart.plotting_area().dim_in_pixel();
    let range = chart.y_range();
    let per_px = (range.end - range.start) / f64::from(h.max(1));
    let mid = (colours.len() - 1) as f64 / 2.0;
    colours
        .iter()
        .enumerate()
        // The first colour on top: legend order read top to bottom at 100 %.
        .map(|(k, &c)| (c, (mid - k as f64) * DODGE_PX * per_px))
        .collect()
}

/// A pixel rectangle `(x0, y0, x1, y1)`.
type Rect = (i32, i32, i32, i32);

fn overlap(a: Rect, b: Rect) -> i64 {
    let w = (a.2.min(b.2) - a.0.max(b.0)).max(0);
    let h = (a.3.min(b.3) - a.1.max(b.1)).max(0);
    i64::from(w) * i64::from(h)
}

/// Draws each label beside its point, at the first of eight positions (right, left, above,
/// below, then the diagonals) that overlaps no marker, no label placed before and stays in
/// the plot; if none is free, at the position with the least overlap.
fn point_labels<DB: DrawingBackend>(
    p: &XyPlot,
    labels: &[PointLabel],
    chart: &ChartContext<'_, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
) -> R {
    let plot = chart.plotting_area().strip_coord_spec();
    let base = plot.get_base_pixel();
    let (w, h) = plot.dim_in_pixel();
    let (w, h) = (w as i32, h as i32);
    let px = |x: f64, y: f64| {
        let (a, b) = chart.backend_coord(&(x, y));
        (a - base.0, b - base.1)
    };
    let font = (FAMILY, 13).into_font();
    // Obstacles: point markers, whiskers and (sampled every 4 px) lines.
    let mut taken: Vec<Rect> = Vec::new();
    for s in &p.series {
        match s.style {
            Style::Points => taken.extend(s.points.iter().map(|&(x, y)| {
                let (a, b) = px(x, y);
                (a - 5, b - 5, a + 5, b + 5)
            })),
            Style::Line | Style::Dashed => {
                for pair in s.points.windows(2) {
                    let (a, b) = (px(pair[0].0, pair[0].1), px(pair[1].0, pair[1].1));
                    let steps = ((b.0 - a.0).abs().max((b.1 - a.1).abs()) / 4).max(1);
                    taken.extend((0..=steps).map(|k| {
                        let x = a.0 + (b.0 - a.0) * k / steps;
                        let y = a.1 + (b.1 - a.1) * k / steps;
                        (x - 2, y - 2, x + 2, y + 2)
                    }));
                }
            }
            Style::Bars { .. } => {}
        }
        taken.extend(s.whiskers.iter().map(|&(x, lo, hi)| {
            let (a, top) = px(x, hi);
            let (_, bottom) = px(x, lo);
            (a - 4, top, a + 4, bottom)
        }));
    }
    for l in labels {
        let (tw, th) = plot
            .estimate_text_size(&l.text, &TextStyle::from(font.clone()))
            .map_err(|e| e.to_string())?;
        let (tw, th) = (tw as i32, th as i32);
        let (x, y) = px(l.at.0, l.at.1);
        // (left, top) of the text box for each position.
        let candidates = [
            (x + 8, y - th / 2),
            (x - 8 - tw, y - th / 2),
            (x - tw / 2, y - 8 - th),
            (x - tw / 2, y + 8),
            (x + 6, y - 6 - th),
            (x + 6, y + 6),
            (x - 6 - tw, y - 6 - th),
            (x - 6 - tw, y + 6),
        ];
        let cost = |&(left, top): &(i32, i32)| {
            let r = (left, top, left + tw, top + th);
            let outside = i64::from(left < 0 || top < 0 || left + tw > w || top + th > h);
            outside * 1_000_000 + taken.iter().map(|&t| overlap(r, t)).sum::<i64>()
        };
        let best = candidates
            .iter()
            .copied()
            .min_by_key(cost)
            .unwrap_or(candidates[0]);
        taken.push((best.0, best.1, best.0 + tw, best.1 + th));
        let style = TextStyle::from(font.clone())
            .color(&BLACK)
            .pos(Pos::new(HPos::Left, VPos::Top));
        plot.draw(&Text::new(l.text.clone(), best, style))
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Stroke width of contour lines (drawn over a white halo two pixels wider).
const CONTOUR_WIDTH: u32 = 2;

/// Colours of a scale at evenly spaced positions in `[0, 1]`.
///
/// Viridis: matplotlib's map sampled at tenths. Cool–warm: Moreland (2009), "Diverging Color
/// Maps for Scientific Visualization", sampled at eighths.
const VIRIDIS: [(u8, u8, u8); 11] = [
    (68, 1, 84),
    (72, 36, 117),
    (65, 68, 135),
    (53, 95, 141),
    (42, 120, 142),
    (33, 145, 140),
    (34, 168, 132),
    (68, 191, 112),
    (122, 209, 81),
    (189, 223, 38),
    (253, 231, 37),
];
const COOL_WARM: [(u8, u8, u8); 9] = [
    (59, 76, 192),
    (98, 130, 234),
    (141, 176, 254),
    (184, 208, 249),
    (221, 221, 221),
    (245, 196, 173),
    (244, 154, 123),
    (222, 96, 77),
    (180, 4, 38),
];

/// Linear interpolation in a table of colours at evenly spaced positions, `t` in `[0, 1]`.
fn lerp_table(table: &[(u8, u8, u8)], t: f64) -> RGBColor {
    let t = if t.is_nan() { 0.5 } else { t.clamp(0.0, 1.0) };
    let f = t * (table.len() - 1) as f64;
    let i = (f.floor() as usize).min(table.len() - 2);
    let u = f - i as f64;
    let (a, b) = (table[i], table[i + 1]);
    let mix = |x: u8, y: u8| (f64::from(x) + u * (f64::from(y) - f64::from(x))).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

impl ColorScale {
    /// The colour of value `v` for the value range `range`.
    #[must_use]
    pub fn color(self, range: (f64, f64), v: f64) -> RGBColor {
        let (lo, hi) = range;
        let frac = |a: f64, b: f64| if b > a { (v - a) / (b - a) } else { 0.5 };
        match self {
            ColorScale::Sequential => lerp_table(&VIRIDIS, frac(lo, hi)),
            ColorScale::Diverging { center } => {
                let t = if v < center {
                    0.5 * frac(lo, center)
                } else {
                    0.5 + 0.5 * frac(center, hi)
                };
                lerp_table(&COOL_WARM, t)
            }
        }
    }
}

/// Black or white, whichever reads better on `c` (WCAG relative luminance).
fn text_color_on(c: RGBColor) -> RGBColor {
    let lin = |u: u8| {
        let s = f64::from(u) / 255.0;
        if s <= 0.040_45 {
            s / 12.92
        } else {
            ((s + 0.055) / 1.055).powf(2.4)
        }
    };
    let l = 0.2126 * lin(c.0) + 0.7152 * lin(c.1) + 0.0722 * lin(c.2);
    // Contrast with black (l + 0.05)/0.05 against white 1.05/(l + 0.05).
    if (l + 0.05) * (l + 0.05) > 0.0525 {
        BLACK
    } else {
        WHITE
    }
}

/// "Nice" tick values covering `[lo, hi]`, about `target` of them.
fn nice_ticks(lo: f64, hi: f64, target: usize) -> Vec<f64> {
    if !lo.is_finite() || !hi.is_finite() || hi <= lo {
        return vec![lo];
    }
    let raw = (hi - lo) / target.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw * 0.999)
        .unwrap_or(10.0 * mag);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

/// An edge between two adjacent cell centres: `(vertical, col, row)` of its lower/left end,
/// in display rows (row 0 at the bottom).
type EdgeKey = (bool, usize, usize);

/// Contour lines at `level` through the centres of the cells of `grid` (`grid[row][col]`,
/// row 0 at the bottom; NaN cells break the line), by marching squares with linear
/// interpolation; saddles are resolved by the mean of the four corners. Returns polylines in
/// cell units (cell `(c, r)` spans `[c, c+1] × [r, r+1]`).
fn contour_lines(grid: &[Vec<f64>], level: f64) -> Vec<Vec<(f64, f64)>> {
    let rows = grid.len();
    let cols = grid.first().map_or(0, Vec::len);
    let at = |c: usize, r: usize| grid[r][c];
    let above = |c: usize, r: usize| at(c, r) >= level;
    let point = |(vertical, c, r): EdgeKey| {
        let (a, b) = if vertical {
            (at(c, r), at(c, r + 1))
        } else {
            (at(c, r), at(c + 1, r))
        };
        let t = ((level - a) / (b - a)).clamp(0.0, 1.0);
        let (x, y) = (c as f64 + 0.5, r as f64 + 0.5);
        if vertical { (x, y + t) } else { (x + t, y) }
    };
    let mut segments: Vec<(EdgeKey, EdgeKey)> = Vec::new();
    for r in 0..rows.saturating_sub(1) {
        for c in 0..cols.saturating_sub(1) {
            let corners = [at(c, r), at(c + 1, r), at(c + 1, r + 1), at(c, r + 1)];
            if corners.iter().any(|v| !v.is_finite()) {
                continue;
            }
            let bottom = (false, c, r);
            let right = (true, c + 1, r);
            let top = (false, c, r + 1);
            let left = (true, c, r);
            let b = [
                above(c, r),
                above(c + 1, r),
                above(c + 1, r + 1),
                above(c, r + 1),
            ];
            let crossed: Vec<EdgeKey> = [(bottom, 0, 1), (right, 1, 2), (top, 2, 3), (left, 3, 0)]
                .iter()
                .filter(|&&(_, i, j)| b[i] != b[j])
                .map(|&(e, _, _)| e)
                .collect();
            match crossed.len() {
                2 => segments.push((crossed[0], crossed[1])),
                4 => {
                    let centre = corners.iter().sum::<f64>() / 4.0 >= level;
                    if centre == b[0] {
                        // Corners 1 and 3 are cut off.
                        segments.push((bottom, right));
                        segments.push((top, left));
                    } else {
                        segments.push((left, bottom));
                        segments.push((top, right));
                    }
                }
                _ => {}
            }
        }
    }
    // Chain segments sharing an edge into polylines: open ones from their ends first.
    let mut ends: HashMap<EdgeKey, Vec<usize>> = HashMap::new();
    for (i, (a, b)) in segments.iter().enumerate() {
        ends.entry(*a).or_default().push(i);
        ends.entry(*b).or_default().push(i);
    }
    let mut used = vec![false; segments.len()];
    let mut starts: Vec<EdgeKey> = segments
        .iter()
        .flat_map(|&(a, b)| [a, b])
        .filter(|k| ends[k].len() == 1)
        .collect();
    starts.extend(segments.iter().map(|&(a, _)| a));
    let mut lines = Vec::new();
    for start in starts {
        let mut key = start;
        let mut line = vec![point(key)];
        while let Some(&i) = ends[&key].iter().find(|&&i| !used[i]) {
            used[i] = true;
            let (a, b) = segments[i];
            key = if a == key { b } else { a };
            line.push(point(key));
        }
        if line.len() > 1 {
            lines.push(line);
        }
    }
    lines
}

fn heatmap<DB: DrawingBackend>(
    p: &HeatmapPlot,
    area: &DrawingArea<DB, Shift>,
    subtitle: Option<&str>,
) -> R {
    let (rows, cols) = heatmap_shape(p)?;
    // Legend strip for the contour, colour bar on the right.
    let (main, strip) = match p.contour {
        Some(_) => {
            let (a, b) = area.split_vertically(area.dim_in_pixel().1.saturating_sub(30));
            (a, Some(b))
        }
        None => (area.clone(), None),
    };
    let (main, bar) = main.split_horizontally(main.dim_in_pixel().0.saturating_sub(104));
    let label_font = (FAMILY, 13).into_font();
    let size = |t: &str| {
        main.estimate_text_size(t, &TextStyle::from(label_font.clone()))
            .map(|(w, h)| (w as i32, h as i32))
            .unwrap_or((7 * t.chars().count() as i32, 13))
    };
    let y_label_w = p.y_labels.iter().map(|t| size(t).0).max().unwrap_or(0);
    let x_label_w = p.x_labels.iter().map(|t| size(t).0).max().unwrap_or(0);
    let y_area = (y_label_w + 36).clamp(50, 320);
    let (main_w, main_h) = main.dim_in_pixel();
    let cell_w = (main_w as i32 - y_area - 24) / cols as i32;
    // Column labels turn vertical when they do not fit side by side.
    let vertical = x_label_w + 6 > cell_w;
    let x_area = if vertical {
        (x_label_w + 36).clamp(50, (main_h as i32 / 3).max(50))
    } else {
        50
    };
    let mut b = ChartBuilder::on(&main);
    b.margin(12)
        .margin_right(12)
        .x_label_area_size(x_area)
        .y_label_area_size(y_area);
    if let Some(t) = subtitle {
        b.caption(t, (FAMILY, 16));
    }
    let mut chart = b
        .build_cartesian_2d(0.0..cols as f64, 0.0..rows as f64)
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(0)
        .y_labels(0)
        .x_desc(&p.x_desc)
        .y_desc(&p.y_desc)
        .axis_desc_style((FAMILY, 15))
        .draw()
        .map_err(|e| e.to_string())?;
    heatmap_cells(&chart, p)?;
    heatmap_labels(&main, &chart, p, vertical)?;
    let top = chart.backend_coord(&(0.0, rows as f64)).1;
    let bottom = chart.backend_coord(&(0.0, 0.0)).1;
    colour_bar(&bar, p, (top, bottom))?;
    if let (Some(level), Some(strip)) = (p.contour, strip) {
        legend_strip(
            &strip,
            &[(
                Mark::Line(BLACK),
                format!("contour at {}", heat_value(p, level)),
            )],
        )?;
    }
    Ok(())
}

/// Rows and columns of a heatmap whose values and texts have that shape.
fn heatmap_shape(p: &HeatmapPlot) -> Result<(usize, usize), String> {
    let rows = p.y_labels.len();
    let cols = p.x_labels.len();
    if rows == 0 || cols == 0 {
        return Err("heatmap has no rows or no columns".into());
    }
    if p.values.len() != rows || p.values.iter().any(|r| r.len() != cols) {
        return Err(format!("heatmap values must be {rows} rows of {cols}"));
    }
    if !p.cell_text.is_empty()
        && (p.cell_text.len() != rows || p.cell_text.iter().any(|r| r.len() != cols))
    {
        return Err(format!("heatmap cell texts must be {rows} rows of {cols}"));
    }
    Ok((rows, cols))
}

/// Display row of data row `r` (display row 0 at the bottom).
fn display_row(p: &HeatmapPlot, r: usize) -> usize {
    if p.first_row_on_top {
        p.y_labels.len() - 1 - r
    } else {
        r
    }
}

/// A heatmap value as the colour bar and the legend write it.
fn heat_value(p: &HeatmapPlot, v: f64) -> String {
    if p.percent { pct(v) } else { num(v) }
}

/// The coloured cells, the contour and the cell texts.
fn heatmap_cells<DB: DrawingBackend>(
    chart: &ChartContext<'_, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    p: &HeatmapPlot,
) -> R {
    let e = |r: Result<(), DrawingAreaErrorKind<DB::ErrorType>>| r.map_err(|e| e.to_string());
    let display = |r: usize| display_row(p, r);
    let rows = p.y_labels.len();
    let (cx0, cy0) = chart.backend_coord(&(0.0, 0.0));
    let (cx1, cy1) = chart.backend_coord(&(1.0, 1.0));
    let (cell_px_w, cell_px_h) = ((cx1 - cx0).abs(), (cy1 - cy0).abs());
    // White gaps separate cells of a small matrix; a fine sweep reads better without.
    let gaps = cell_px_w >= 24 && cell_px_h >= 24;
    let empty_line = RGBColor(200, 200, 200);
    for (r, row) in p.values.iter().enumerate() {
        let y = display(r) as f64;
        for (c, &v) in row.iter().enumerate() {
            let x = c as f64;
            let cell = [(x, y), (x + 1.0, y + 1.0)];
            if v.is_finite() {
                let color = p.scale.color(p.range, v);
                e(chart
                    .plotting_area()
                    .draw(&Rectangle::new(cell, color.filled())))?;
            } else {
                e(chart.plotting_area().draw(&PathElement::new(
                    vec![(x, y), (x + 1.0, y + 1.0)],
                    empty_line.stroke_width(1),
                )))?;
            }
            if gaps {
                e(chart
                    .plotting_area()
                    .draw(&Rectangle::new(cell, WHITE.stroke_width(1))))?;
            }
        }
    }
    if let Some(level) = p.contour {
        let mut grid = vec![Vec::new(); rows];
        for (r, row) in p.values.iter().enumerate() {
            grid[display(r)] = row.clone();
        }
        for line in contour_lines(&grid, level) {
            for (color, width) in [(WHITE, CONTOUR_WIDTH + 2), (BLACK, CONTOUR_WIDTH)] {
                e(chart
                    .plotting_area()
                    .draw(&PathElement::new(line.clone(), color.stroke_width(width))))?;
            }
        }
    }
    // Cell texts, sized to the cell.
    let longest = p
        .cell_text
        .iter()
        .flatten()
        .map(|t| t.chars().count())
        .max()
        .unwrap_or(0) as f64;
    let text_px = (f64::from(cell_px_h) * 0.42)
        .min(f64::from(cell_px_w - 4) / (0.62 * longest.max(1.0)))
        .min(14.0);
    if longest > 0.0 && text_px >= 8.0 {
        let font = (FAMILY, text_px.floor()).into_font();
        for (r, row) in p.cell_text.iter().enumerate() {
            for (c, t) in row.iter().enumerate() {
                let v = p.values[r][c];
                if t.is_empty() || !v.is_finite() {
                    continue;
                }
                let ink = text_color_on(p.scale.color(p.range, v));
                let style = TextStyle::from(font.clone())
                    .color(&ink)
                    .pos(Pos::new(HPos::Center, VPos::Center));
                let at = (c as f64 + 0.5, display(r) as f64 + 0.5);
                e(chart.plotting_area().draw(&Text::new(t.clone(), at, style)))?;
            }
        }
    }
    Ok(())
}

/// Row and column labels at the cell centres, drawn on the whole area in pixels.
fn heatmap_labels<DB: DrawingBackend>(
    main: &DrawingArea<DB, Shift>,
    chart: &ChartContext<'_, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    p: &HeatmapPlot,
    vertical: bool,
) -> R {
    let e = |r: Result<(), DrawingAreaErrorKind<DB::ErrorType>>| r.map_err(|e| e.to_string());
    let display = |r: usize| display_row(p, r);
    let (rows, cols) = (p.y_labels.len(), p.x_labels.len());
    let label_font = (FAMILY, 13).into_font();
    let base = main.get_base_pixel();
    let rel = |(x, y): (i32, i32)| (x - base.0, y - base.1);
    let x_style = if vertical {
        TextStyle::from(label_font.clone().transform(FontTransform::Rotate270))
            .pos(Pos::new(HPos::Right, VPos::Center))
    } else {
        TextStyle::from(label_font.clone()).pos(Pos::new(HPos::Center, VPos::Top))
    };
    // With more categories than room, label every k-th one (the first always).
    let (px_w, px_h) = {
        let (x0, y0) = chart.backend_coord(&(0.0, 0.0));
        let (x1, y1) = chart.backend_coord(&(cols as f64, rows as f64));
        (
            f64::from((x1 - x0).abs()) / cols as f64,
            f64::from((y1 - y0).abs()) / rows as f64,
        )
    };
    let every = |cell: f64| (16.0 / cell.max(0.1)).ceil().max(1.0) as usize;
    let x_every = if vertical { every(px_w) } else { 1 };
    for (c, t) in p.x_labels.iter().enumerate().step_by(x_every) {
        let (x, y) = rel(chart.backend_coord(&(c as f64 + 0.5, 0.0)));
        e(main.draw(&Text::new(t.clone(), (x, y + 6), x_style.clone())))?;
    }
    let y_style = TextStyle::from(label_font.clone()).pos(Pos::new(HPos::Right, VPos::Center));
    for (r, t) in p.y_labels.iter().enumerate().step_by(every(px_h)) {
        let (x, y) = rel(chart.backend_coord(&(0.0, display(r) as f64 + 0.5)));
        e(main.draw(&Text::new(t.clone(), (x - 6, y), y_style.clone())))?;
    }
    Ok(())
}

/// The colour bar beside the plot, from pixel row `top` to `bottom` (of the whole drawing),
/// with ticks, the contour level and the value description.
fn colour_bar<DB: DrawingBackend>(
    bar: &DrawingArea<DB, Shift>,
    p: &HeatmapPlot,
    (top, bottom): (i32, i32),
) -> R {
    let e = |r: Result<(), DrawingAreaErrorKind<DB::ErrorType>>| r.map_err(|e| e.to_string());
    let label_font = (FAMILY, 13).into_font();
    let bar_base = bar.get_base_pixel();
    let (top, bottom) = (top - bar_base.1, bottom - bar_base.1);
    let (x0, x1) = (8, 26);
    let (lo, hi) = p.range;
    let to_y = |v: f64| {
        let t = if hi > lo { (v - lo) / (hi - lo) } else { 0.5 };
        bottom - (t * f64::from(bottom - top)).round() as i32
    };
    let steps = (bottom - top).clamp(1, 96);
    for k in 0..steps {
        let ya = bottom - (bottom - top) * k / steps;
        let yb = bottom - (bottom - top) * (k + 1) / steps;
        let v = lo + (hi - lo) * (f64::from(k) + 0.5) / f64::from(steps);
        e(bar.draw(&Rectangle::new(
            [(x0, yb), (x1, ya)],
            p.scale.color(p.range, v).filled(),
        )))?;
    }
    e(bar.draw(&Rectangle::new(
        [(x0, top), (x1, bottom)],
        GREY.stroke_width(1),
    )))?;
    let tick_style = TextStyle::from(label_font.clone()).pos(Pos::new(HPos::Left, VPos::Center));
    for v in nice_ticks(lo.min(hi), hi.max(lo), 4) {
        let y = to_y(v);
        e(bar.draw(&PathElement::new(
            vec![(x1, y), (x1 + 4, y)],
            BLACK.stroke_width(1),
        )))?;
        e(bar.draw(&Text::new(
            heat_value(p, v),
            (x1 + 7, y),
            tick_style.clone(),
        )))?;
    }
    if let Some(level) = p.contour.filter(|l| (lo.min(hi)..=hi.max(lo)).contains(l)) {
        let y = to_y(level);
        e(bar.draw(&PathElement::new(
            vec![(x0 - 3, y), (x1 + 1, y)],
            WHITE.stroke_width(CONTOUR_WIDTH + 2),
        )))?;
        e(bar.draw(&PathElement::new(
            vec![(x0 - 3, y), (x1 + 1, y)],
            BLACK.stroke_width(CONTOUR_WIDTH),
        )))?;
    }
    let (bar_w, _) = bar.dim_in_pixel();
    let desc_style = TextStyle::from((FAMILY, 15).into_font().transform(FontTransform::Rotate90))
        .pos(Pos::new(HPos::Center, VPos::Center));
    e(bar.draw(&Text::new(
        p.value_desc.clone(),
        (bar_w as i32 - 24, (top + bottom) / 2),
        desc_style,
    )))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interval_bars_come_in_category_order_every_time() {
        let n = 9;
        let chart = Chart {
            title: "bars".into(),
            width: 600,
            height: 700,
            plot: Plot::Intervals(IntervalPlot {
                value_desc: "P".into(),
                categories: (0..n).map(|i| format!("matchup {i}")).collect(),
                values: (0..n).map(|i| (0.1 * i as f64, 0.0, 0.9)).collect(),
                exact: vec![None; n],
                range: (0.0, 1.0),
                reference: Some(0.5),
                percent: true,
            }),
        };
        let first = svg(&chart).unwrap();
        let attr = |l: &str, name: &str| -> i32 {
            let v = l.split(&format!(" {name}=\"")).nth(1).unwrap();
            v[..v.find('"').unwrap()].parse().unwrap()
        };
        let rects: Vec<&str> = first
            .lines()
            .filter(|l| l.starts_with("<rect") && l.contains("opacity=\"0.55\""))
            .collect();
        // The bars start at the left edge of the plot (the legend swatch elsewhere).
        let left = attr(rects[0], "x");
        let bars: Vec<i32> = rects
            .iter()
            .filter(|l| attr(l, "x") == left)
            .map(|l| attr(l, "y"))
            .collect();
        assert_eq!(bars.len(), n, "{bars:?}");
        assert!(
            bars.windows(2).all(|w| w[0] > w[1]),
            "category order: {bars:?}"
        );
        for _ in 0..3 {
            assert_eq!(svg(&chart).unwrap(), first);
        }
    }

    fn bars(values: Vec<(f64, f64, f64)>) -> IntervalPlot {
        IntervalPlot {
            value_desc: "P".into(),
            categories: (0..values.len()).map(|i| format!("m{i}")).collect(),
            exact: vec![None; values.len()],
            values,
            range: (0.0, 1.0),
            reference: Some(0.5),
            percent: true,
        }
    }

    #[test]
    fn bar_labels_never_cross_the_reference_line() {
        let text = "46.3 % ± 0.7 %";
        let width = 7.0 * text.chars().count() as f64 / 800.0;
        let crosses = |(x, right_aligned): (f64, bool)| {
            let (a, b) = if right_aligned {
                (x - width, x)
            } else {
                (x, x + width)
            };
            a < 0.5 && 0.5 < b
        };
        // Short of 50 %: the label would run over the line on the right, so it goes left.
        for v in [
            (0.463, 0.456, 0.470),
            (0.426, 0.419, 0.433),
            (0.499, 0.49, 0.507),
        ] {
            let p = bars(vec![v]);
            let at = label_place(&p, (v.1, v.2), None, text, 800.0);
            assert!(!crosses(at), "{v:?} → {at:?}");
        }
        // Far from the line: right of the whisker, as before.
        let p = bars(vec![(0.2, 0.19, 0.21)]);
        let at = label_place(&p, (0.19, 0.21), None, text, 800.0);
        assert!((at.0 - 0.23).abs() < 1e-12 && !at.1, "{at:?}");
        // Just past 50 % with a short bar: right of the interval.
        let at = label_place(&p, (0.51, 0.53), Some(0.52), text, 800.0);
        assert!(!crosses(at) && !at.1 && at.0 > 0.53, "{at:?}");
        // A negative change (a tornado chart's bar drawn from zero leftwards): left of its
        // whisker and exact cross, off the bar.
        let mut t = bars(vec![(-0.1, -0.11, -0.09)]);
        t.range = (-0.2, 0.2);
        t.reference = Some(0.0);
        let at = label_place(&t, (-0.11, -0.09), Some(-0.1), text, 800.0);
        assert!(at.1 && at.0 < -0.11, "{at:?}");
    }

    #[test]
    fn outside_legend_and_probability_axis_without_headroom_ticks() {
        let points: Vec<(f64, f64)> = (0..=4).map(|x| (f64::from(x), 1.0)).collect();
        let chart = Chart {
            title: "checks".into(),
            width: 800,
            height: 400,
            plot: Plot::Xy(XyPlot {
                x_desc: "skill".into(),
                y_desc: "P".into(),
                x_range: (0.0, 4.0),
                y_range: (0.0, 1.0),
                y_percent: true,
                x_integer: true,
                series: vec![
                    Series::new("easy", 0, Style::Line, points.clone()),
                    Series::new("hard", 1, Style::Line, points),
                ],
                legend: Corner::Right,
            }),
        };
        let s = svg(&chart).unwrap();
        // Both lines at 100 % are drawn a few pixels apart, so neither hides the other.
        let lines: Vec<&str> = s.lines().filter(|l| l.starts_with("<polyline")).collect();
        let ys: Vec<&str> = lines
            .iter()
            .filter(|l| l.contains("stroke=\"#0072B2\"") || l.contains("stroke=\"#E69F00\""))
            .take(2)
            .map(|l| {
                l.split("points=\"")
                    .nth(1)
                    .unwrap()
                    .split(',')
                    .nth(1)
                    .unwrap()
            })
            .map(|y| y.split(' ').next().unwrap())
            .collect();
        assert_eq!(ys.len(), 2, "{lines:?}");
        assert_ne!(ys[0], ys[1]);
        // The legend's texts lie right of the plot; no tick label beyond 100 %.
        let lines: Vec<&str> = s.lines().collect();
        let text_x = |t: &str| -> i32 {
            let w = lines.windows(2).find(|w| w[1].trim() == t).unwrap();
            let v = w[0].split(" x=\"").nth(1).unwrap();
            v[..v.find('"').unwrap()].parse().unwrap()
        };
        assert!(text_x("easy") > text_x("100 %") + 600, "{s}");
        assert!(!lines.iter().any(|l| ["110 %", "-10 %"].contains(&l.trim())));
    }

    #[test]
    fn contour_of_a_ramp_is_a_straight_line() {
        // Row 0 at the bottom; values rise left to right: the 0.5 contour is x = 1.
        let lines = contour_lines(&[vec![0.0, 1.0], vec![0.0, 1.0]], 0.5);
        assert_eq!(lines, vec![vec![(1.0, 0.5), (1.0, 1.5)]]);
        // Linear interpolation: level 0.25 lies a quarter of the way from 0 to 1.
        let lines = contour_lines(&[vec![0.0, 1.0], vec![0.0, 1.0]], 0.25);
        assert_eq!(lines, vec![vec![(0.75, 0.5), (0.75, 1.5)]]);
    }

    #[test]
    fn contour_around_a_peak_is_closed() {
        let grid = vec![
            vec![0.0, 0.0, 0.0],
            vec![0.0, 1.0, 0.0],
            vec![0.0, 0.0, 0.0],
        ];
        let lines = contour_lines(&grid, 0.5);
        assert_eq!(lines.len(), 1, "{lines:?}");
        let l = &lines[0];
        assert_eq!(l.len(), 5, "four segments chained into one loop: {l:?}");
        assert_eq!(l.first(), l.last());
        // The diamond's corners are half way between the peak and its neighbours.
        for p in [(1.5, 1.0), (2.0, 1.5), (1.5, 2.0), (1.0, 1.5)] {
            assert!(l.contains(&p), "{p:?} in {l:?}");
        }
    }

    #[test]
    fn contour_saddles_and_gaps() {
        // Saddle: the mean (0.5) counts as above, so the two high corners connect and the
        // line cuts off the two low corners.
        // High corners bottom-left (0.5, 0.5) and top-right (1.5, 1.5).
        let mut lines = contour_lines(&[vec![1.0, 0.0], vec![0.0, 1.0]], 0.5);
        for l in &mut lines {
            l.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
        }
        lines.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
        assert_eq!(
            lines,
            vec![
                vec![(0.5, 1.0), (1.0, 1.5)], // cuts off the top-left corner
                vec![(1.0, 0.5), (1.5, 1.0)], // cuts off the bottom-right corner
            ]
        );
        // A NaN cell: no square touching it yields a segment.
        let lines = contour_lines(&[vec![0.0, f64::NAN], vec![0.0, 1.0]], 0.5);
        assert!(lines.is_empty());
        // A flat grid has no contour.
        assert!(contour_lines(&vec![vec![0.7; 3]; 3], 0.5).is_empty());
    }

    #[test]
    fn ticks_and_numbers() {
        assert_eq!(nice_ticks(0.0, 1.0, 4), vec![0.0, 0.25, 0.5, 0.75, 1.0]);
        assert_eq!(nice_ticks(-0.3, 0.3, 4), vec![-0.2, 0.0, 0.2]);
        assert_eq!(nice_ticks(1.0, 1.0, 4), vec![1.0]);
        assert_eq!(num(0.25), "0.25");
        assert_eq!(num(2.0), "2");
        assert_eq!(num(-0.0001), "0");
        assert_eq!(
            percent_text(&[vec![0.624, f64::NAN]]),
            vec![vec!["62 %".to_string(), String::new()]]
        );
    }

    #[test]
    fn colour_scales() {
        let s = ColorScale::Sequential;
        assert_eq!(s.color((0.0, 1.0), 0.0), RGBColor(68, 1, 84));
        assert_eq!(s.color((0.0, 1.0), 1.0), RGBColor(253, 231, 37));
        assert_eq!(s.color((0.0, 1.0), 2.0), RGBColor(253, 231, 37), "clamped");
        let d = ColorScale::Diverging { center: 0.2 };
        assert_eq!(d.color((0.0, 1.0), 0.2), RGBColor(221, 221, 221));
        assert_eq!(d.color((0.0, 1.0), 0.0), RGBColor(59, 76, 192));
        assert_eq!(d.color((0.0, 1.0), 1.0), RGBColor(180, 4, 38));
        // Text colour: white on dark ends, black on the light middle.
        assert_eq!(text_color_on(RGBColor(68, 1, 84)), WHITE);
        assert_eq!(text_color_on(RGBColor(221, 221, 221)), BLACK);
        assert_eq!(text_color_on(RGBColor(253, 231, 37)), BLACK);
    }
}
