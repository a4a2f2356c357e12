//! Writing a report folder: tables, charts, report.md, report.html, report.json.
//!
//! The folder is built under a temporary name beside the target and renamed into place, so a
//! reader never sees half a report. An existing folder is replaced only if it holds the
//! marker file [`MARKER`] (it was written by oddsmith).

use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::charts::{self, ChartError};
use crate::data::ReportData;
use crate::{figures, frames};

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
    let mut tables = frames::tables(d).map_err(table_err("tables"))?;
    for (name, df) in &mut tables {
        put(
            &tmp.join(format!("tables/{name}.csv")),
            frames::to_csv(df).map_err(table_err(name))?,
        )?;
        put(
            &tmp.join(format!("tables/{name}.parquet")),
            frames::to_parquet(df).map_err(table_err(name))?,
        )?;
    }
    let mut svgs = Vec::new();
    for (stem, chart) in figures::figures(d) {
        let svg = charts::svg(&chart)?;
        put(&tmp.join(format!("charts/{stem}.svg")), &svg)?;
        charts::png(&chart, &tmp.join(format!("charts/{stem}.png")))?;
        svgs.push((stem, chart.title, svg));
    }
    let json = serde_json::to_string_pretty(&d.run).map_err(|e| ReportError::Table {
        name: "report.json".into(),
        message: e.to_string(),
    })?;
    put(&tmp.join("report.json"), json)?;
    let names: Vec<&str> = tables.iter().map(|t| t.0).collect();
    put(
        &tmp.join("report.md"),
        crate::html::markdown(d, &names, &svgs),
    )?;
    put(
        &tmp.join("report.html"),
        crate::html::html(d, &names, &svgs),
    )?;
    Ok(())
}

/// A folder name made from a scenario name: lower case, `a-z0-9-_` only.
pub fn slug(name: &str) -> String {
    let mut s = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
            s.push(c.to_ascii_lowercase());
        } else if !s.ends_with('-') {
            s.push('-');
        }
    }
    let s = s.trim_matches('-').to_string();
    if s.is_empty() { "scenario".into() } else { s }
}
