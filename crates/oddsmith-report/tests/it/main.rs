//! Report-crate tests through the public API: every plot kind renders to a valid SVG and a PNG
//! of the chart's size, including the interval bands later sweep charts rely on.

use oddsmith_report::charts::{self, Chart, Corner, IntervalPlot, Plot, Series, Style, XyPlot};
use oddsmith_report::{options_table, slug};

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
