//! Writing a report folder: every subject's tables (CSV, Parquet) and charts (SVG, PNG), the
//! page as report.md and report.html, and report.json.
//!
//! The folder is built under a temporary name beside the target and renamed into place, so a
//! reader never sees half a report. An existing folder is replaced only if it holds the
//! marker file [`MARKER`] (it was written by oddsmith).

use std::path::{Path, PathBuf};

use thiserror::Error;

use polars::prelude::{CsvWriter, DataFrame, ParquetWriter, PolarsResult, SerWriter};

use crate::charts::{self, ChartError};
use crate::model::ReportData;
use crate::page::{Figure, render_html, render_markdown};
use crate::sections;

/// Marker file that identifies an oddsmith report folder.
pub const MARKER: &str = ".oddsmith-report";

/// Why a report could not be written.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ReportError {
    /// A file or folder could not be written.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The target exists and was not written by oddsmith.
    #[error(
        "refusing to replace {0}: it exists and is not an oddsmith report (no {MARKER} file); choose another --out folder"
    )]
    NotAReport(PathBuf),
    /// A table could not be built or encoded.
    #[error("table {name}: {message}")]
    Table {
        /// Table name.
        name: String,
        /// The cause.
        message: String,
    },
    /// A chart could not be drawn.
    #[error(transparent)]
    Chart(#[from] ChartError),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ReportError + '_ {
    move |source| ReportError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn put(path: &Path, bytes: impl AsRef<[u8]>) -> Result<(), ReportError> {
    std::fs::write(path, bytes).map_err(io(path))
}

/// Writes the report of `d` to folder `dir` (atomically replacing an earlier report there).
/// Returns the path of `report.html`.
pub fn write_report(dir: &Path, d: &ReportData) -> Result<PathBuf, ReportError> {
    if dir.exists() && !dir.join(MARKER).is_file() {
        return Err(ReportError::NotAReport(dir.to_path_buf()));
    }
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).map_err(io(&parent))?;
    let base = dir
        .file_name()
        .map_or_else(|| "report".into(), |n| n.to_string_lossy().into_owned());
    let tmp = parent.join(format!(".{base}.tmp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let result = build(&tmp, d).and_then(|()| swap_in(&tmp, dir, &parent, &base));
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    result.map(|()| dir.join("report.html"))
}

fn swap_in(tmp: &Path, dir: &Path, parent: &Path, base: &str) -> Result<(), ReportError> {
    if dir.exists() {
        if !dir.join(MARKER).is_file() {
            return Err(ReportError::NotAReport(dir.to_path_buf()));
        }
        let old = parent.join(format!(".{base}.old-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&old);
        std::fs::rename(dir, &old).map_err(io(dir))?;
        if let Err(e) = std::fs::rename(tmp, dir) {
            let _ = std::fs::rename(&old, dir);
            return Err(io(dir)(e));
        }
        let _ = std::fs::remove_dir_all(&old);
        Ok(())
    } else {
        std::fs::rename(tmp, dir).map_err(io(dir))
    }
}

fn build(tmp: &Path, d: &ReportData) -> Result<(), ReportError> {
    for sub in ["", "tables", "charts"] {
        let p = tmp.join(sub);
        std::fs::create_dir_all(&p).map_err(io(&p))?;
    }
    put(
        &tmp.join(MARKER),
        format!("oddsmith {}\n", d.meta.oddsmith_version),
    )?;
    let table_err = |name: &str| {
        let name = name.to_string();
        move |e: polars::prelude::PolarsError| ReportError::Table {
            name,
            message: e.to_string(),
        }
    };
    let mut tables = sections::tables(d).map_err(table_err("tables"))?;
    for (name, df) in &mut tables {
        put(
            &tmp.join(format!("tables/{name}.csv")),
            to_csv(df).map_err(table_err(name))?,
        )?;
        put(
            &tmp.join(format!("tables/{name}.parquet")),
            to_parquet(df).map_err(table_err(name))?,
        )?;
    }
    let mut figures = Vec::new();
    for (stem, chart) in sections::charts(d) {
        let svg = charts::svg(&chart)?;
        put(&tmp.join(format!("charts/{stem}.svg")), &svg)?;
        charts::png(&chart, &tmp.join(format!("charts/{stem}.png")))?;
        figures.push(Figure {
            stem,
            title: chart.title,
            svg,
        });
    }
    let json = crate::format::json_pretty(&d.run).map_err(|e| ReportError::Table {
        name: "report.json".into(),
        message: e.to_string(),
    })?;
    put(&tmp.join("report.json"), json)?;
    let names: Vec<&str> = tables.iter().map(|t| t.0).collect();
    let page = sections::page(d, &names, figures);
    put(&tmp.join("report.md"), render_markdown(&page))?;
    put(&tmp.join("report.html"), render_html(&page))?;
    Ok(())
}

/// A table as CSV text (polars' writers take the frame mutably; it is not changed).
pub fn to_csv(df: &mut DataFrame) -> PolarsResult<String> {
    let mut buf = Vec::new();
    CsvWriter::new(&mut buf).finish(df)?;
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

/// A table as Parquet bytes.
pub fn to_parquet(df: &mut DataFrame) -> PolarsResult<Vec<u8>> {
    let mut buf = Vec::new();
    ParquetWriter::new(&mut buf).finish(df)?;
    Ok(buf)
}
