//! The page model: a report page is sections of blocks (heading, paragraph, note, table,
//! chart, …), built once and rendered twice — to Markdown ([`render_markdown`], report.md,
//! charts linked as SVG files) and to HTML ([`render_html`], a self-contained report.html
//! with inline SVG and CSS, no script, no network). A block kind is rendered the same way
//! wherever it stands, so the two files cannot drift apart.

use std::fmt::Write as _;

use crate::format::{html_escape as esc, md_escape};

/// A whole page.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Page {
    /// The page title (`#` / `<h1>`).
    pub title: String,
    /// Blocks under the title, before the first section.
    pub intro: Vec<Block>,
    /// Top-level sections (`##` / `<h2>`), in order.
    pub sections: Vec<Section>,
    /// Every chart drawn for the page; [`Block::Chart`] refers to them by stem.
    pub charts: Vec<Figure>,
    /// The closing line of the HTML page (part of the HTML page's frame, like its `<head>`;
    /// Markdown has no frame).
    pub footer: Option<String>,
}

/// A section: a heading, its blocks, then its subsections (one level deeper).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Section {
    /// The heading.
    pub title: String,
    /// An HTML id for the heading; also the class of the `<section>` around each subsection.
    pub id: Option<String>,
    /// Content, in order.
    pub blocks: Vec<Block>,
    /// Subsections, after the blocks.
    pub subsections: Vec<Section>,
}

impl Section {
    /// A section with a title and blocks.
    pub fn new(title: impl Into<String>, blocks: Vec<Block>) -> Self {
        Section {
            title: title.into(),
            id: None,
            blocks,
            subsections: Vec::new(),
        }
    }
}

/// A drawn chart: its file stem, its title and its SVG text.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// File stem (`charts/<stem>.svg`).
    pub stem: String,
    /// Title (alt text).
    pub title: String,
    /// The SVG document.
    pub svg: String,
}

/// A table cell; a marked cell stands out (bold in Markdown, class `changed` in HTML).
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// The text.
    pub text: String,
    /// Whether it stands out.
    pub marked: bool,
}

impl From<String> for Cell {
    fn from(text: String) -> Self {
        Cell {
            text,
            marked: false,
        }
    }
}

/// A table: a header row and rows of cells.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// Column headings.
    pub head: Vec<String>,
    /// Rows, each as long as `head`.
    pub rows: Vec<Vec<Cell>>,
}

impl Table {
    /// A table of plain cells.
    pub fn new(head: Vec<String>, rows: Vec<Vec<String>>) -> Self {
        Table {
            head,
            rows: rows
                .into_iter()
                .map(|r| r.into_iter().map(Cell::from).collect())
                .collect(),
        }
    }
}

/// A piece of a section.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    /// A minor heading, one level below the section's.
    Heading(String),
    /// Body text.
    Paragraph(String),
    /// An explanation (smaller, grey in HTML).
    Note(String),
    /// A table.
    Table(Table),
    /// A chart, by stem; nothing when the page has no chart of that stem.
    Chart(String),
    /// Key–value facts (a list in Markdown, a two-column table in HTML).
    Facts(Vec<(String, String)>),
    /// A warning with items (a quote in Markdown, a red box in HTML).
    Warning {
        /// What went wrong.
        title: String,
        /// The items.
        items: Vec<String>,
    },
    /// Records: a table in HTML, a list in Markdown (`- **first:** second — third`, empty
    /// cells left out).
    Records(Table),
    /// Downloadable tables by stem, each as CSV and Parquet under `tables/`.
    Files(Vec<String>),
    /// The answer in a few sentences, first on the page ("In short", a framed list in HTML).
    Summary(Vec<String>),
    /// Blocks folded away under a one-line summary (HTML `<details>`; in Markdown the line in
    /// italics, then the blocks).
    Details {
        /// The line shown when folded.
        summary: String,
        /// What unfolds.
        blocks: Vec<Block>,
    },
}

impl Block {
    /// A table block of plain cells.
    pub fn table(head: Vec<String>, rows: Vec<Vec<String>>) -> Self {
        Block::Table(Table::new(head, rows))
    }
}

/// Whether a cell reads as a figure (`1,000`, `−2.5`, `50.01 [49.91 50.10]`, `12 %`, `±0.3`),
/// to be right-aligned so that digits line up.
fn is_numeric(text: &str) -> bool {
    let t = text.trim();
    t.chars()
        .next()
        .is_some_and(|c| c.is_ascii_digit() || "+-−±".contains(c))
        && t.chars().any(|c| c.is_ascii_digit())
        && t.chars()
            .all(|c| c.is_ascii_digit() || " .,+-−±%[]()×/e".contains(c))
}

impl Table {
    /// Whether every non-empty cell of column `k` is a figure (and one is).
    fn numeric_column(&self, k: usize) -> bool {
        let mut any = false;
        for r in &self.rows {
            match r.get(k).map(|c| c.text.trim()) {
                Some("" | "—" | "-") | None => {}
                Some(t) if is_numeric(t) => any = true,
                Some(_) => return false,
            }
        }
        any
    }
}

/// Column headings from string literals.
pub fn head<const N: usize>(h: [&str; N]) -> Vec<String> {
    h.map(String::from).to_vec()
}

/// The page as Markdown.
pub fn render_markdown(p: &Page) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# {}\n", p.title);
    for b in &p.intro {
        md_block(&mut s, b, 2, &p.charts);
    }
    for sec in &p.sections {
        md_section(&mut s, sec, 2, &p.charts);
    }
    let mut s = s.trim_end().to_string();
    s.push('\n');
    s
}

fn md_section(s: &mut String, sec: &Section, level: usize, charts: &[Figure]) {
    let _ = writeln!(s, "{} {}\n", "#".repeat(level), sec.title);
    for b in &sec.blocks {
        md_block(s, b, level + 1, charts);
    }
    for sub in &sec.subsections {
        md_section(s, sub, level + 1, charts);
    }
}

fn md_row(s: &mut String, cells: impl Iterator<Item = String>) {
    let _ = writeln!(s, "| {} |", cells.collect::<Vec<_>>().join(" | "));
}

fn md_cell(c: &Cell) -> String {
    if c.marked {
        format!("**{}**", md_escape(&c.text))
    } else {
        md_escape(&c.text)
    }
}

fn md_block(s: &mut String, b: &Block, level: usize, charts: &[Figure]) {
    match b {
        Block::Heading(h) => {
            let _ = writeln!(s, "{} {h}\n", "#".repeat(level));
        }
        Block::Paragraph(t) | Block::Note(t) => {
            let _ = writeln!(s, "{t}\n");
        }
        Block::Table(t) => {
            md_row(s, t.head.iter().map(|h| md_escape(h)));
            let align: String = (0..t.head.len())
                .map(|k| if t.numeric_column(k) { "---:|" } else { "---|" })
                .collect();
            let _ = writeln!(s, "|{align}");
            for r in &t.rows {
                md_row(s, r.iter().map(md_cell));
            }
            s.push('\n');
        }
        Block::Chart(stem) => {
            if let Some(f) = charts.iter().find(|f| f.stem == *stem) {
                let _ = writeln!(s, "![{}](charts/{stem}.svg)\n", f.title);
            }
        }
        Block::Facts(facts) => {
            for (k, v) in facts {
                let _ = writeln!(s, "- **{k}:** {}", md_escape(v));
            }
            s.push('\n');
        }
        Block::Warning { title, items } => {
            let _ = writeln!(s, "> **{title}:**");
            for i in items {
                let _ = writeln!(s, ">\n> - {}", md_escape(i));
            }
            s.push('\n');
        }
        Block::Records(t) => {
            for r in &t.rows {
                let mut line = String::from("-");
                for (k, c) in r.iter().enumerate() {
                    match k {
                        0 => {
                            let _ = write!(line, " **{}:**", md_escape(&c.text));
                        }
                        1 => {
                            let _ = write!(line, " {}", md_cell(c));
                        }
                        _ if !c.text.is_empty() => {
                            let _ = write!(line, " — {}", md_cell(c));
                        }
                        _ => {}
                    }
                }
                let _ = writeln!(s, "{line}");
            }
            s.push('\n');
        }
        Block::Files(stems) => {
            for t in stems {
                let _ = writeln!(
                    s,
                    "- `{t}`: [CSV](tables/{t}.csv), [Parquet](tables/{t}.parquet)"
                );
            }
            s.push('\n');
        }
        Block::Summary(lines) => {
            let _ = writeln!(s, "**In short:**\n");
            for l in lines {
                let _ = writeln!(s, "- {}", md_escape(l));
            }
            s.push('\n');
        }
        Block::Details { summary, blocks } => {
            let _ = writeln!(s, "*{}*\n", md_escape(summary));
            for b in blocks {
                md_block(s, b, level, charts);
            }
        }
    }
}

const CSS: &str = "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;max-width:1180px;margin:2em auto;padding:0 1em;color:#1a1a1a;line-height:1.45}\
h1{margin-bottom:.2em}h2{margin-top:1.8em;border-bottom:1px solid #ddd;padding-bottom:.2em}\
.wide{overflow-x:auto;max-width:100%;margin:.8em 0}.wide>table{margin:0}\
table{border-collapse:collapse;margin:.8em 0;font-size:.92em}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}\
th{background:#f2f2f2}tr:nth-child(even) td{background:#fafafa}.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\
.changed{font-weight:bold;color:#9a3b00}.facts td:first-child{font-weight:600;white-space:nowrap}\
figure{margin:1.2em 0}figure svg{max-width:100%;height:auto;border:1px solid #eee}\
.note{color:#555;font-size:.92em}code{background:#f4f4f4;padding:0 .25em}\
.fail{border:2px solid #b00020;background:#fdecee;color:#6d0014;padding:.6em 1em;margin:1em 0;border-radius:4px}\
.fail ul{margin:.3em 0 0;padding-left:1.2em}\
.summary{border-left:4px solid #2a6f97;background:#eef5fa;padding:.6em 1em;margin:1em 0;font-size:1.05em}.summary ul{margin:.3em 0 0;padding-left:1.2em}\
details{margin:.6em 0}summary{cursor:pointer;color:#2a6f97}h3{margin-top:1.4em}h4{margin:1em 0 .3em}";

/// The page as one self-contained HTML file.
pub fn render_html(p: &Page) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>{} · oddsmith report</title><style>{CSS}</style></head><body>\n",
        esc(&p.title)
    );
    let _ = writeln!(s, "<h1>{}</h1>", esc(&p.title));
    for b in &p.intro {
        html_block(&mut s, b, 2, &p.charts);
    }
    for sec in &p.sections {
        html_section(&mut s, sec, 2, None, &p.charts);
    }
    if let Some(f) = &p.footer {
        let _ = write!(s, "<p class=\"note\">{}</p>", esc(f));
    }
    let _ = writeln!(s, "</body></html>");
    s
}

/// One section as the HTML page renders it (a second-level heading, its blocks and
/// subsections), with the charts `charts` (a chart block without its figure is left out).
pub fn render_section_html(sec: &Section, charts: &[Figure]) -> String {
    let mut s = String::new();
    html_section(&mut s, sec, 2, None, charts);
    s
}

fn html_section(
    s: &mut String,
    sec: &Section,
    level: usize,
    class: Option<&str>,
    charts: &[Figure],
) {
    let id = sec
        .id
        .as_ref()
        .map_or(String::new(), |i| format!(" id=\"{}\"", esc(i)));
    if let Some(c) = class {
        let _ = write!(s, "<section class=\"{}\">", esc(c));
    }
    let _ = writeln!(s, "<h{level}{id}>{}</h{level}>", esc(&sec.title));
    for b in &sec.blocks {
        html_block(s, b, level + 1, charts);
    }
    for sub in &sec.subsections {
        html_section(s, sub, level + 1, sec.id.as_deref(), charts);
    }
    if class.is_some() {
        let _ = writeln!(s, "</section>");
    }
}

/// A table in its own scrolling block (`.wide`): a table wider than the page scrolls inside
/// it instead of running past the page's edge, where its last columns were cut off.
fn html_table(s: &mut String, t: &Table) {
    let _ = write!(s, "<div class=\"wide\"><table><thead><tr>");
    for h in &t.head {
        let _ = write!(s, "<th>{}</th>", esc(h));
    }
    let _ = write!(s, "</tr></thead><tbody>");
    let numeric: Vec<bool> = (0..t.head.len()).map(|k| t.numeric_column(k)).collect();
    for r in &t.rows {
        let _ = write!(s, "<tr>");
        for (k, c) in r.iter().enumerate() {
            let num = numeric.get(k).copied().unwrap_or(false) || is_numeric(&c.text);
            let class = match (c.marked, num) {
                (true, true) => " class=\"changed num\"",
                (true, false) => " class=\"changed\"",
                (false, true) => " class=\"num\"",
                (false, false) => "",
            };
            let _ = write!(s, "<td{class}>{}</td>", esc(&c.text));
        }
        let _ = write!(s, "</tr>");
    }
    let _ = writeln!(s, "</tbody></table></div>");
}

/// An SVG chart inline in a `<figure>` (without its XML declaration).
fn html_figure(s: &mut String, f: &Figure) {
    let svg = f.svg.trim_start_matches(|c| c != '<');
    let svg = if svg.starts_with("<?xml") {
        svg.split_once("?>").map_or(svg, |x| x.1)
    } else {
        svg
    };
    let _ = writeln!(
        s,
        "<figure role=\"img\" aria-label=\"{}\">{}</figure>",
        esc(&f.title),
        svg.trim()
    );
}

fn html_block(s: &mut String, b: &Block, level: usize, charts: &[Figure]) {
    match b {
        Block::Heading(h) => {
            let _ = writeln!(s, "<h{level}>{}</h{level}>", esc(h));
        }
        Block::Paragraph(t) => {
            let _ = writeln!(s, "<p>{}</p>", esc(t));
        }
        Block::Note(t) => {
            let _ = writeln!(s, "<p class=\"note\">{}</p>", esc(t));
        }
        Block::Table(t) | Block::Records(t) => html_table(s, t),
        Block::Chart(stem) => {
            if let Some(f) = charts.iter().find(|f| f.stem == *stem) {
                html_figure(s, f);
            }
        }
        Block::Facts(facts) => {
            let _ = write!(s, "<div class=\"wide\"><table class=\"facts\">");
            for (k, v) in facts {
                let _ = write!(s, "<tr><td>{}</td><td>{}</td></tr>", esc(k), esc(v));
            }
            let _ = writeln!(s, "</table></div>");
        }
        Block::Warning { title, items } => {
            let _ = write!(s, "<div class=\"fail\"><strong>{}</strong><ul>", esc(title));
            for i in items {
                let _ = write!(s, "<li>{}</li>", esc(i));
            }
            let _ = writeln!(s, "</ul></div>");
        }
        Block::Files(stems) => {
            let _ = writeln!(s, "<ul>");
            for t in stems {
                let t = esc(t);
                let _ = writeln!(
                    s,
                    "<li><code>{t}</code>: <a href=\"tables/{t}.csv\">CSV</a> · <a href=\"tables/{t}.parquet\">Parquet</a></li>"
                );
            }
            let _ = writeln!(s, "</ul>");
        }
        Block::Summary(lines) => {
            let _ = write!(s, "<div class=\"summary\"><strong>In short</strong><ul>");
            for l in lines {
                let _ = write!(s, "<li>{}</li>", esc(l));
            }
            let _ = writeln!(s, "</ul></div>");
        }
        Block::Details { summary, blocks } => {
            let _ = writeln!(s, "<details><summary>{}</summary>", esc(summary));
            for b in blocks {
                html_block(s, b, level, charts);
            }
            let _ = writeln!(s, "</details>");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A page with every block kind, nested sections and a chart.
    fn every_block() -> Page {
        let mut marked = Table::new(
            head(["option", "value"]),
            vec![vec!["reach".into(), "2".into()]],
        );
        marked.rows[0][1].marked = true;
        Page {
            title: "Every block".into(),
            intro: vec![
                Block::Summary(vec!["knight favoured.".into()]),
                Block::Paragraph("An intro paragraph.".into()),
                Block::Facts(vec![("seed".into(), "42".into())]),
                Block::Warning {
                    title: "1 assertion failed".into(),
                    items: vec!["FAIL  knight wins".into()],
                },
            ],
            sections: vec![
                Section::new(
                    "Results",
                    vec![
                        Block::table(
                            head(["matchup", "P(A wins)"]),
                            vec![vec!["knight vs brute".into(), "52.30 %".into()]],
                        ),
                        Block::Note("A results note.".into()),
                    ],
                ),
                Section {
                    title: "Study".into(),
                    id: Some("study".into()),
                    blocks: vec![],
                    subsections: vec![Section::new(
                        "Sweep 1: skill",
                        vec![
                            Block::Heading("Steps".into()),
                            Block::Chart("sweep-1".into()),
                            Block::Chart("not-drawn".into()),
                        ],
                    )],
                },
                Section::new(
                    "Fighters",
                    vec![Block::Records(Table::new(
                        head(["fighter", "spec", "derived"]),
                        vec![vec!["knight".into(), "skill = 6".into(), "SP 10".into()]],
                    ))],
                ),
                Section::new(
                    "Options",
                    vec![
                        Block::Table(marked),
                        Block::Details {
                            summary: "3 options at their defaults".into(),
                            blocks: vec![Block::table(
                                head(["option", "value"]),
                                vec![vec!["depth".into(), "1".into()]],
                            )],
                        },
                    ],
                ),
                Section::new("Tables", vec![Block::Files(vec!["outcomes".into()])]),
            ],
            charts: vec![Figure {
                stem: "sweep-1".into(),
                title: "Skill sweep".into(),
                svg: "<?xml version=\"1.0\"?>\n<svg>chart</svg>".into(),
            }],
            footer: Some("Generated by oddsmith.".into()),
        }
    }

    /// The first item of `items` not found in `text` after the previous one, if any.
    fn out_of_order<'a>(text: &str, items: &[&'a str]) -> Option<&'a str> {
        let mut at = 0;
        for item in items {
            match text[at..].find(item) {
                Some(i) => at += i + item.len(),
                None => return Some(item),
            }
        }
        None
    }

    #[test]
    fn both_renderings_show_every_block_in_the_same_order() {
        let p = every_block();
        let (md, html) = (render_markdown(&p), render_html(&p));
        let items = [
            "Every block",
            "In short",
            "knight favoured.",
            "An intro paragraph.",
            "seed",
            "1 assertion failed",
            "FAIL  knight wins",
            "Results",
            "knight vs brute",
            "52.30 %",
            "A results note.",
            "Study",
            "Sweep 1: skill",
            "Steps",
            "Skill sweep",
            "Fighters",
            "knight",
            "skill = 6",
            "SP 10",
            "Options",
            "reach",
            "3 options at their defaults",
            "depth",
            "Tables",
            "outcomes",
        ];
        for text in [&md, &html] {
            assert_eq!(out_of_order(text, &items), None, "in\n{text}");
            assert!(!text.contains("not-drawn"));
        }
        assert!(md.contains("![Skill sweep](charts/sweep-1.svg)"));
        assert!(md.contains("#### Steps") && md.contains("### Sweep 1: skill"));
        assert!(md.contains("| reach | **2** |"));
        assert!(md.contains("- **knight:** skill = 6 — SP 10"));
        assert!(
            html.contains(
                "<figure role=\"img\" aria-label=\"Skill sweep\"><svg>chart</svg></figure>"
            )
        );
        assert!(html.contains("<h2 id=\"study\">Study</h2>"));
        assert!(html.contains("<section class=\"study\"><h3>Sweep 1: skill</h3>"));
        assert!(html.contains("<h4>Steps</h4>"));
        assert!(html.contains("<details><summary>3 options at their defaults</summary>"));
        assert!(html.contains(
            "<div class=\"summary\"><strong>In short</strong><ul><li>knight favoured.</li>"
        ));
        assert!(html.contains("<td class=\"changed num\">2</td>"));
        assert!(html.contains("<td>knight vs brute</td><td class=\"num\">52.30 %</td>"));
        assert!(md.contains("|---|---:|"));
        assert!(html.ends_with("<p class=\"note\">Generated by oddsmith.</p></body></html>\n"));
        assert!(md.ends_with("[Parquet](tables/outcomes.parquet)\n"));
    }

    #[test]
    fn text_is_escaped_for_each_format() {
        let p = Page {
            title: "a <b> & c".into(),
            sections: vec![Section::new(
                "s",
                vec![Block::table(head(["x|y"]), vec![vec!["<i>|".into()]])],
            )],
            ..Page::default()
        };
        let html = render_html(&p);
        assert!(html.contains("<h1>a &lt;b&gt; &amp; c</h1>"));
        assert!(html.contains("<td>&lt;i&gt;|</td>"));
        let md = render_markdown(&p);
        assert!(md.contains("| x\\|y |") && md.contains("| <i>\\| |"));
    }

    #[test]
    fn one_section_renders_as_in_the_page() {
        let p = every_block();
        let html = render_html(&p);
        let results = p.sections.iter().find(|s| s.title == "Results").unwrap();
        let one = render_section_html(results, &p.charts);
        assert!(one.starts_with("<h2>Results</h2>"), "{one}");
        assert!(html.contains(&one), "{one}");
        let escaped = render_section_html(&Section::new("<s>", Vec::new()), &[]);
        assert_eq!(escaped, "<h2>&lt;s&gt;</h2>\n");
    }

    #[test]
    fn figures_are_right_aligned_and_words_are_not() {
        for t in [
            "1,000",
            "−2.5",
            "-0.13",
            "50.01 [49.91 50.10]",
            "12 %",
            "±0.3",
            "2/5/7",
            "+42.85",
        ] {
            assert!(is_numeric(t), "{t}");
        }
        for t in [
            "",
            "—",
            "exact",
            "3 rounds",
            "p=<0.0001",
            "D1",
            "knight",
            "-",
        ] {
            assert!(!is_numeric(t), "{t}");
        }
        let t = Table::new(
            head(["name", "value", "mixed"]),
            vec![
                vec!["a".into(), "1".into(), "2".into()],
                vec!["b".into(), "".into(), "n/a".into()],
            ],
        );
        assert_eq!(
            (0..3).map(|k| t.numeric_column(k)).collect::<Vec<_>>(),
            [false, true, false]
        );
    }
}
