//! Charts as data, rendered with plotters to SVG (inline in HTML) and PNG.
//!
//! A [`Chart`] describes *what* to show (categories with intervals, or numeric series with
//! optional interval bands); [`svg`] and [`png`] draw it. New chart kinds (sweep curves with
//! bands, heatmaps) are new [`Plot`] variants with their own draw function; the styling,
//! fonts and backends are shared.

use std::path::Path;
use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::FontStyle;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Bundled font (DejaVu Sans, see `assets/DejaVuSans-LICENSE.txt`): text looks the same on
/// every machine and no system font is needed.
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
}

impl Corner {
    fn position(self) -> SeriesLabelPosition {
        match self {
            Corner::UpperLeft => SeriesLabelPosition::UpperLeft,
            Corner::UpperRight => SeriesLabelPosition::UpperRight,
            Corner::LowerLeft => SeriesLabelPosition::LowerLeft,
            Corner::LowerRight => SeriesLabelPosition::LowerRight,
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

fn font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The bundled font is valid; a failure here would be a packaging bug caught by tests.
        let _ = plotters::style::register_font(FAMILY, FontStyle::Normal, FONT);
    });
}

/// Renders a chart as an SVG document.
pub fn svg(c: &Chart) -> Result<String, ChartError> {
    font();
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
    font();
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
        Plot::Xy(x) => xy(x, area, subtitle),
        Plot::Row(plots) => {
            let parts = area.split_evenly((1, plots.len().max(1)));
            for ((title, plot), part) in plots.iter().zip(parts.iter()) {
                draw_plot(plot, part, Some(title))?;
            }
            Ok(())
        }
    }
}

fn pct(v: f64) -> String {
    let p = 100.0 * v;
    if (p - p.round()).abs() < 1e-9 {
        format!("{p:.0} %")
    } else {
        format!("{p:.1} %")
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
        .build_cartesian_2d(p.range.0..p.range.1, (0..n - 1).into_segmented())
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
    chart
        .draw_series(
            Histogram::horizontal(&chart)
                .style(bar)
                .margin(12)
                .data(p.values.iter().enumerate().map(|(i, v)| (i as i32, v.0))),
        )
        .map_err(|e| e.to_string())?;
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
    for (i, v) in p.values.iter().enumerate() {
        let text = if percent {
            format!("{} ± {}", pct(v.0), pct((v.2 - v.1) / 2.0))
        } else {
            format!("{:.3}", v.0)
        };
        let right = v.2.max(p.exact.get(i).copied().flatten().unwrap_or(v.2));
        let x = (right + (p.range.1 - p.range.0) * 0.02).min(p.range.1);
        chart
            .draw_series(std::iter::once(Text::new(
                text,
                (x, SegmentValue::CenterOf(i as i32)),
                label_style.clone(),
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

/// A legend symbol.
enum Mark {
    Bar(RGBColor),
    Whisker,
    Cross(RGBColor),
    Dashed(RGBColor),
}

/// Draws legend entries in one row, centred.
fn legend_strip<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(Mark, String)],
) -> R {
    let style = TextStyle::from((FAMILY, 13).into_font())
        .color(&BLACK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    let width: i32 = entries
        .iter()
        .map(|(_, t)| 34 + 7 * t.chars().count() as i32 + 24)
        .sum();
    let (w, h) = area.dim_in_pixel();
    let mut x = ((w as i32 - width) / 2).max(8);
    let y = h as i32 / 2;
    let e = |r: Result<(), DrawingAreaErrorKind<DB::ErrorType>>| r.map_err(|e| e.to_string());
    for (mark, text) in entries {
        match mark {
            Mark::Bar(c) => e(area.draw(&Rectangle::new(
                [(x, y - 6), (x + 22, y + 6)],
                c.mix(0.55).filled(),
            )))?,
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
                )))?;
            }
            Mark::Cross(c) => e(area.draw(&Cross::new((x + 11, y), 6, c.stroke_width(3))))?,
            Mark::Dashed(c) => {
                e(area.draw(&PathElement::new(
                    vec![(x, y), (x + 8, y)],
                    c.stroke_width(2),
                )))?;
                e(area.draw(&PathElement::new(
                    vec![(x + 14, y), (x + 22, y)],
                    c.stroke_width(2),
                )))?;
            }
        }
        e(area.draw(&Text::new(text.clone(), (x + 30, y), style.clone())))?;
        x += 34 + 7 * text.chars().count() as i32 + 24;
    }
    Ok(())
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

fn xy<DB: DrawingBackend>(p: &XyPlot, area: &DrawingArea<DB, Shift>, subtitle: Option<&str>) -> R {
    let mut b = ChartBuilder::on(area);
    b.margin(12)
        .margin_right(20)
        .x_label_area_size(50)
        .y_label_area_size(70);
    if let Some(t) = subtitle {
        b.caption(t, (FAMILY, 16));
    }
    let mut chart = b
        .build_cartesian_2d(p.x_range.0..p.x_range.1, p.y_range.0..p.y_range.1)
        .map_err(|e| e.to_string())?;
    let (y_percent, x_integer) = (p.y_percent, p.x_integer);
    let span = p.x_range.1 - p.x_range.0;
    let y_fmt = |v: &f64| match (y_percent, *v > 1.0 + 1e-9) {
        (true, true) => String::new(), // headroom above 100 % carries no ticks
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
    for s in &p.series {
        let color = PALETTE[s.color % PALETTE.len()];
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
                s.points.iter().copied(),
                color.stroke_width(2),
            )),
            Style::Dashed => chart.draw_series(DashedLineSeries::new(
                s.points.iter().copied(),
                8,
                5,
                color.stroke_width(2),
            )),
            Style::Points => {
                chart.draw_series(s.points.iter().map(|&p| Circle::new(p, 4, color.filled())))
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
                    ErrorBar::new_vertical(x, lo, (lo + hi) / 2.0, hi, color.stroke_width(1), 6)
                }))
                .map_err(|e| e.to_string())?;
        }
    }
    legend(&mut chart, p.legend)
}
