//! Report-crate tests through the public API: every plot kind renders to a valid SVG and a PNG
//! of the chart's size, including the interval bands later sweep charts rely on.

use oddsmith_report::charts::{
    self, Chart, ColorScale, Corner, HeatmapPlot, IntervalPlot, LabelledXy, Plot, PointLabel,
    Series, Style, XyPlot, percent_text,
};
use oddsmith_report::{options_table, slug};

mod study;
mod write;

fn xy(series: Vec<Series>) -> XyPlot {
    XyPlot {
        x_desc: "skill".into(),
        y_desc: "P(A wins)".into(),
        x_range: (0.0, 10.0),
        y_range: (0.0, 1.0),
        y_percent: true,
        x_integer: true,
        series,
        legend: Corner::LowerRight,
    }
}

fn line(name: &str, color: usize, style: Style) -> Series {
    let points: Vec<(f64, f64)> = (0..=10)
        .map(|x| (f64::from(x), f64::from(x) / 10.0))
        .collect();
    Series {
        name: name.into(),
        color,
        style,
        band: points
            .iter()
            .map(|&(x, y)| (x, (y - 0.05).max(0.0), (y + 0.05).min(1.0)))
            .collect(),
        whiskers: points
            .iter()
            .map(|&(x, y)| (x, (y - 0.02).max(0.0), (y + 0.02).min(1.0)))
            .collect(),
        points,
    }
}

fn every_kind() -> Vec<Chart> {
    let intervals = Plot::Intervals(IntervalPlot {
        value_desc: "P(A wins)".into(),
        categories: vec![
            "knight vs brute".into(),
            "a rather long matchup name vs another".into(),
        ],
        values: vec![(0.55, 0.54, 0.56), (0.3, 0.28, 0.32)],
        exact: vec![Some(0.551), None],
        range: (0.0, 1.0),
        reference: Some(0.5),
        percent: true,
    });
    let sweep = Plot::Xy(xy(vec![
        line("sweep with 95 % band", 0, Style::Line),
        line("dashed", 1, Style::Dashed),
        line("points", 2, Style::Points),
        line(
            "",
            3,
            Style::Bars {
                offset: 0.0,
                width: 0.6,
            },
        ),
    ]));
    vec![
        Chart {
            title: "intervals".into(),
            width: 900,
            height: 300,
            plot: intervals.clone(),
        },
        Chart {
            title: "sweep".into(),
            width: 800,
            height: 500,
            plot: sweep.clone(),
        },
        Chart {
            title: "row".into(),
            width: 1200,
            height: 450,
            plot: Plot::Row(vec![("left".into(), sweep), ("right".into(), intervals)]),
        },
    ]
}

#[test]
fn every_plot_kind_renders_svg_and_png() {
    let dir = std::env::temp_dir().join(format!("oddsmith-report-charts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for c in every_kind() {
        let svg = charts::svg(&c).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        assert_eq!(root.attribute("width"), Some(c.width.to_string().as_str()));
        assert_eq!(
            root.attribute("height"),
            Some(c.height.to_string().as_str())
        );
        assert!(svg.contains(&c.title), "title drawn");
        let texts: Vec<String> = root
            .descendants()
            .filter(|n| n.tag_name().name() == "text")
            .filter_map(|n| n.text().map(|t| t.trim().to_string()))
            .collect();
        assert!(
            texts.iter().any(|t| t.contains('%')),
            "percent ticks in {}",
            c.title
        );
        let path = dir.join(format!("{}.png", c.title));
        charts::png(&c, &path).unwrap();
        let b = std::fs::read(&path).unwrap();
        assert_eq!(&b[..8], b"\x89PNG\r\n\x1a\n");
        let be = |i: usize| u32::from_be_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        assert_eq!((be(16), be(20)), (c.width, c.height));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bands_are_drawn_as_shaded_polygons() {
    let c = Chart {
        title: "band".into(),
        width: 600,
        height: 400,
        plot: Plot::Xy(xy(vec![line("s", 0, Style::Line)])),
    };
    let svg = charts::svg(&c).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let polygons = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "polygon")
        .count();
    assert!(polygons >= 1, "the interval band is a polygon");
}

/// A 2-D sweep: P(A wins) over A's and B's skill, with one cell not run (NaN), cell texts,
/// a diverging scale centred on 50 % and the 50 % contour.
fn sweep_heatmap() -> Chart {
    let skills: Vec<u32> = (1..=9).collect();
    let values: Vec<Vec<f64>> = skills
        .iter()
        .map(|&b| {
            skills
                .iter()
                .map(|&a| {
                    if (a, b) == (9, 1) {
                        f64::NAN
                    } else {
                        let d = f64::from(a) - f64::from(b) + 0.8;
                        1.0 / (1.0 + (-0.55 * d).exp())
                    }
                })
                .collect()
        })
        .collect();
    Chart {
        title: "P(A wins) by skill".into(),
        width: 900,
        height: 640,
        plot: Plot::Heatmap(HeatmapPlot {
            contour: Some(0.5),
            ..HeatmapPlot::probabilities(
                ("A's skill".into(), "B's skill".into()),
                (
                    skills.iter().map(u32::to_string).collect(),
                    skills.iter().map(u32::to_string).collect(),
                ),
                values,
                "P(A wins)",
            )
        }),
    }
}

/// A tournament win-rate matrix with long fighter names (vertical column labels) and a
/// sequential scale.
fn tournament_heatmap() -> Chart {
    let names = [
        "knight",
        "brute with maul",
        "duellist",
        "spearman",
        "archer at range",
        "shield wall",
    ];
    let n = names.len();
    let values: Vec<Vec<f64>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    if i == j {
                        f64::NAN
                    } else {
                        (0.5 + 0.08 * (i as f64 - j as f64) + 0.1 * ((i * 7 + j * 3) % 5) as f64
                            - 0.2)
                            .clamp(0.02, 0.98)
                    }
                })
                .collect()
        })
        .collect();
    Chart {
        title: "tournament".into(),
        width: 760,
        height: 560,
        plot: Plot::Heatmap(HeatmapPlot {
            x_desc: "opponent".into(),
            y_desc: "fighter".into(),
            x_labels: names.iter().map(|s| (*s).to_string()).collect(),
            y_labels: names.iter().map(|s| (*s).to_string()).collect(),
            first_row_on_top: true,
            cell_text: percent_text(&values),
            values,
            range: (0.0, 1.0),
            scale: ColorScale::Sequential,
            value_desc: "P(row wins)".into(),
            percent: true,
            contour: None,
        }),
    }
}

/// Cost against P(win) with each fighter's name beside its point and a dashed fair line.
fn labelled_scatter() -> Chart {
    let fighters = [
        ("knight", 120.0, 0.62),
        ("brute", 100.0, 0.55),
        ("duellist", 110.0, 0.58),
        ("spearman", 90.0, 0.41),
        ("archer", 95.0, 0.47),
        ("shield wall", 130.0, 0.66),
        ("peasant", 40.0, 0.12),
        ("champion", 150.0, 0.71),
        ("veteran", 112.0, 0.57),
    ];
    let points: Vec<(f64, f64)> = fighters.iter().map(|&(_, c, p)| (c, p)).collect();
    Chart {
        title: "cost vs P(win)".into(),
        width: 800,
        height: 520,
        plot: Plot::LabelledXy(LabelledXy {
            xy: XyPlot {
                x_desc: "cost (points)".into(),
                y_desc: "P(win) against the field".into(),
                x_range: (0.0, 160.0),
                y_range: (0.0, 1.0),
                y_percent: true,
                x_integer: true,
                series: vec![
                    Series {
                        name: "fair line".into(),
                        color: 6,
                        style: Style::Dashed,
                        points: vec![(0.0, 0.0), (160.0, 0.8)],
                        band: Vec::new(),
                        whiskers: Vec::new(),
                    },
                    Series {
                        name: "fighters".into(),
                        color: 0,
                        style: Style::Points,
                        whiskers: points
                            .iter()
                            .map(|&(x, y)| (x, y - 0.03, y + 0.03))
                            .collect(),
                        points,
                        band: Vec::new(),
                    },
                ],
                legend: Corner::UpperLeft,
            },
            labels: fighters
                .iter()
                .map(|&(name, c, p)| PointLabel {
                    at: (c, p),
                    text: name.into(),
                })
                .collect(),
        }),
    }
}

fn svg_texts(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.root_element()
        .descendants()
        .filter(|n| n.tag_name().name() == "text")
        .filter_map(|n| n.text().map(|t| t.trim().to_string()))
        .collect()
}

/// Renders to SVG (checked to parse, with the chart's size) and PNG (checked for its size);
/// the PNG is kept in `$ODDSMITH_CHART_DIR` when that is set, for a look by eye.
fn render(c: &Chart) -> String {
    let svg = charts::svg(c).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let root = doc.root_element();
    assert_eq!(root.attribute("width"), Some(c.width.to_string().as_str()));
    assert_eq!(
        root.attribute("height"),
        Some(c.height.to_string().as_str())
    );
    let b = charts::png_bytes(c).unwrap();
    assert_eq!(&b[..8], b"\x89PNG\r\n\x1a\n");
    let be = |i: usize| u32::from_be_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    assert_eq!((be(16), be(20)), (c.width, c.height));
    if let Some(dir) = std::env::var_os("ODDSMITH_CHART_DIR") {
        let name = oddsmith_report::slug(&c.title);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(std::path::Path::new(&dir).join(format!("{name}.png")), &b).unwrap();
    }
    svg
}

#[test]
fn heatmap_with_contour_renders() {
    let c = sweep_heatmap();
    let svg = render(&c);
    let texts = svg_texts(&svg);
    for want in [
        "P(A wins)",
        "A's skill",
        "B's skill",
        "contour at 50 %",
        "50 %",
        "9",
    ] {
        assert!(texts.iter().any(|t| t == want), "{want:?} in {texts:?}");
    }
    // Every non-empty cell has its text; the NaN cell has none.
    let Plot::Heatmap(h) = &c.plot else {
        unreachable!()
    };
    assert_eq!(h.cell_text[0][8], "");
    assert!(texts.iter().any(|t| t == &h.cell_text[4][4]));
    // The contour is drawn twice (halo and line) as polylines with many points.
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let long_paths = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "polyline")
        .filter(|n| n.attribute("points").map_or(0, |p| p.split(' ').count()) >= 8)
        .count();
    assert!(long_paths >= 2, "contour polylines: {long_paths}");
    // Also inside a row of panels.
    let row = Chart {
        title: "row".into(),
        width: 1400,
        height: 520,
        plot: Plot::Row(vec![
            ("sweep".into(), c.plot.clone()),
            ("tournament".into(), tournament_heatmap().plot),
        ]),
    };
    render(&row);
}

#[test]
fn dense_sweep_heatmap_renders() {
    // 40 × 30 cells: too small for texts and for every row label; a wavy 0.5 contour on
    // viridis.
    let xs: Vec<f64> = (0..40).map(|i| 0.5 + 0.05 * f64::from(i)).collect();
    let ys: Vec<f64> = (0..30).map(|j| 1.0 + f64::from(j)).collect();
    let values: Vec<Vec<f64>> = ys
        .iter()
        .map(|&y| {
            xs.iter()
                .map(|&x| {
                    let d = 3.0 * (x - 1.5) + 0.6 * (y / 4.0).sin() - 0.02 * (y - 15.0);
                    1.0 / (1.0 + (-d).exp())
                })
                .collect()
        })
        .collect();
    let c = Chart {
        title: "dense sweep".into(),
        width: 900,
        height: 600,
        plot: Plot::Heatmap(HeatmapPlot {
            x_desc: "damage multiplier".into(),
            y_desc: "armour".into(),
            x_labels: xs.iter().map(|x| format!("{x:.2}")).collect(),
            y_labels: ys.iter().map(|y| format!("{y}")).collect(),
            first_row_on_top: false,
            cell_text: percent_text(&values),
            values,
            range: (0.0, 1.0),
            scale: ColorScale::Sequential,
            value_desc: "P(A wins)".into(),
            percent: true,
            contour: Some(0.5),
        }),
    };
    let texts = svg_texts(&render(&c));
    assert!(texts.iter().any(|t| t == "0.50"), "first x label drawn");
    assert!(texts.iter().any(|t| t == "0.55"), "vertical x labels fit");
    assert!(texts.iter().any(|t| t == "3"), "odd y labels drawn");
    assert!(!texts.iter().any(|t| t == "2"), "y labels thinned");
    assert!(
        !texts.iter().any(|t| t == "62 %"),
        "no cell texts in tiny cells"
    );
}

#[test]
fn tournament_heatmap_renders() {
    let c = tournament_heatmap();
    let texts = svg_texts(&render(&c));
    for want in [
        "brute with maul",
        "archer at range",
        "P(row wins)",
        "opponent",
    ] {
        assert!(texts.iter().any(|t| t == want), "{want:?} in {texts:?}");
    }
    assert!(!texts.iter().any(|t| t.starts_with("contour")));
}

#[test]
fn bad_heatmaps_are_errors() {
    let Plot::Heatmap(mut h) = sweep_heatmap().plot else {
        unreachable!()
    };
    h.values.pop();
    let c = Chart {
        title: "ragged".into(),
        width: 400,
        height: 300,
        plot: Plot::Heatmap(h),
    };
    let e = charts::svg(&c).unwrap_err();
    assert!(e.to_string().contains("rows of"), "{e}");
}

#[test]
fn labelled_scatter_renders() {
    let c = labelled_scatter();
    let texts = svg_texts(&render(&c));
    for want in [
        "knight",
        "shield wall",
        "champion",
        "fair line",
        "cost (points)",
    ] {
        assert!(texts.iter().any(|t| t == want), "{want:?} in {texts:?}");
    }
}

#[test]
fn slugs_and_option_tables() {
    assert_eq!(
        slug("Long sword & shield vs. Mace!"),
        "long-sword-shield-vs-mace"
    );
    assert_eq!(slug("???"), "scenario");
    #[derive(serde::Serialize, Default, PartialEq)]
    struct O {
        a: u8,
        b: bool,
    }
    let t = options_table(&O { a: 3, b: false });
    assert_eq!(t.len(), 2);
    assert!(!t[0].default && t[1].default);
}
