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
    /// The target report folder holds files oddsmith did not write.
    #[error(
        "refusing to replace {dir}: it holds files oddsmith did not write ({}); move them or choose another --out folder",
        files.join(", ")
    )]
    UserFiles {
        /// The report folder.
        dir: PathBuf,
        /// The foreign files, relative to it.
        files: Vec<String>,
    },
    /// The target holds the report of another scenario (two names with the same folder).
    #[error(
        "refusing to replace {dir}: it holds the report of scenario {other:?}, not {ours:?}; choose another --out folder or rename the scenario"
    )]
    OtherScenario {
        /// The report folder.
        dir: PathBuf,
        /// The scenario whose report is there.
        other: String,
        /// The scenario being run.
        ours: String,
    },
    /// The folder name is too long for the file system.
    #[error(
        "the report folder name {name:?} is {len} bytes; at most {MAX_FOLDER_NAME} are allowed"
    )]
    NameTooLong {
        /// The folder name.
        name: String,
        /// Its length in bytes.
        len: usize,
    },
}

/// Longest report folder name in bytes: the temporary `.<name>.tmp-<pid>` beside it must stay
/// under the 255 bytes file systems allow.
pub const MAX_FOLDER_NAME: usize = 200;

/// What a report folder holds at its top level; anything else there belongs to the user.
const REPORT_ENTRIES: [&str; 6] = [
    MARKER,
    "report.html",
    "report.md",
    "report.json",
    "tables",
    "charts",
];

/// Checks, before any work, that a report for `scenario` can be written to `dir`: the name is
/// not too long; an existing folder is an oddsmith report of the same scenario holding only
/// files oddsmith writes; and the folder it goes in is writable (probed by creating and
/// removing a temporary folder). Writes nothing that stays.
pub fn check_destination(dir: &Path, scenario: &str) -> Result<(), ReportError> {
    let base = base_name(dir);
    if base.len() > MAX_FOLDER_NAME {
        return Err(ReportError::NameTooLong {
            len: base.len(),
            name: base,
        });
    }
    if dir.exists() {
        if !dir.join(MARKER).is_file() {
            return Err(ReportError::NotAReport(dir.to_path_buf()));
        }
        let marker = std::fs::read_to_string(dir.join(MARKER)).map_err(io(dir))?;
        if let Some(other) = marker.lines().find_map(|l| l.strip_prefix("scenario: "))
            && other != one_line(scenario)
        {
            return Err(ReportError::OtherScenario {
                dir: dir.to_path_buf(),
                other: other.to_string(),
                ours: scenario.to_string(),
            });
        }
        let files = foreign_files(dir).map_err(io(dir))?;
        if !files.is_empty() {
            return Err(ReportError::UserFiles {
                dir: dir.to_path_buf(),
                files,
            });
        }
    }
    // The nearest existing folder on the way up must take a new folder.
    let mut at = folder_of(dir);
    while !at.exists() {
        at = folder_of(&at);
    }
    if !at.is_dir() {
        return Err(ReportError::Io {
            source: std::io::Error::new(std::io::ErrorKind::NotADirectory, "not a folder"),
            path: at,
        });
    }
    let probe = at.join(format!(".oddsmith-probe-{}", std::process::id()));
    std::fs::create_dir(&probe).map_err(io(&at))?;
    std::fs::remove_dir(&probe).map_err(io(&probe))
}

/// Undoes this process's unfinished write of a report to `dir` (after an interruption): removes
/// its temporary folder and, if the earlier report was moved aside but not yet replaced, puts
/// it back.
pub fn abandon_write(dir: &Path) {
    let parent = folder_of(dir);
    let base = base_name(dir);
    let pid = std::process::id();
    let tmp = temporary(&parent, &base, "tmp", pid);
    let old = temporary(&parent, &base, "old", pid);
    // The writer may still be adding files: try a few times.
    for _ in 0..5 {
        if !tmp.exists() || std::fs::remove_dir_all(&tmp).is_ok() {
            break;
        }
    }
    if old.exists() {
        if dir.exists() {
            let _ = std::fs::remove_dir_all(&old);
        } else {
            let _ = std::fs::rename(&old, dir);
        }
    }
}

/// The folder `path` is in (`.` for a bare name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The report folder's own name (`report` if it has none).
fn base_name(dir: &Path) -> String {
    dir.file_name()
        .map_or_else(|| "report".into(), |n| n.to_string_lossy().into_owned())
}

/// Where process `pid` keeps the new report (`kind` "tmp") or the replaced one ("old") while
/// it swaps them: `.<base>.<kind>-<pid>` beside the report folder.
fn temporary(parent: &Path, base: &str, kind: &str, pid: u32) -> PathBuf {
    parent.join(format!(".{base}.{kind}-{pid}"))
}

/// A scenario name as the marker file keeps it (on one line).
fn one_line(name: &str) -> String {
    name.replace(['\n', '\r'], " ")
}

/// Files in an existing report folder that oddsmith does not write, relative to it.
fn foreign_files(dir: &Path) -> std::io::Result<Vec<String>> {
    let mut found = Vec::new();
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        let name = e.file_name().to_string_lossy().into_owned();
        let allowed: &[&str] = match name.as_str() {
            "tables" => &["csv", "parquet"],
            "charts" => &["svg", "png"],
            n if REPORT_ENTRIES.contains(&n) => continue,
            _ => {
                found.push(name);
                continue;
            }
        };
        if !e.file_type()?.is_dir() {
            found.push(name);
            continue;
        }
        for f in std::fs::read_dir(e.path())? {
            let f = f?;
            let path = f.path();
            let ok = f.file_type()?.is_file()
                && path
                    .extension()
                    .is_some_and(|x| allowed.contains(&x.to_string_lossy().as_ref()));
            if !ok {
                found.push(format!("{name}/{}", f.file_name().to_string_lossy()));
            }
        }
    }
    found.sort();
    Ok(found)
}

/// Removes the temporary folders (`.<base>.tmp-<pid>`, `.<base>.old-<pid>`) that a killed run
/// left in `parent`: those holding the report marker whose process is gone. Only where
/// `/proc` tells which processes live.
fn remove_stale_temporaries(parent: &Path, base: &str) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    let ours = std::process::id().to_string();
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix(&format!(".{base}.")) else {
            continue;
        };
        let Some(pid) = rest
            .strip_prefix("tmp-")
            .or_else(|| rest.strip_prefix("old-"))
        else {
            continue;
        };
        let dead = pid.bytes().all(|b| b.is_ascii_digit())
            && pid != ours
            && !Path::new("/proc").join(pid).exists();
        if dead && e.path().join(MARKER).is_file() {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
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
    check_destination(dir, &d.run.scenario)?;
    let parent = folder_of(dir);
    std::fs::create_dir_all(&parent).map_err(io(&parent))?;
    let base = base_name(dir);
    remove_stale_temporaries(&parent, &base);
    let tmp = temporary(&parent, &base, "tmp", std::process::id());
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
        let old = temporary(parent, base, "old", std::process::id());
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
        format!(
            "oddsmith {}\nscenario: {}\n",
            d.meta.oddsmith_version,
            one_line(&d.run.scenario)
        ),
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
