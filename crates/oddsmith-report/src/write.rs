//! Writing a report folder: every subject's tables (CSV, Parquet) and charts (SVG, PNG), the
//! page as report.md and report.html, and report.json.
//!
//! The folder is built under a temporary name beside the target and renamed into place, so a
//! reader never sees half a report. An existing folder is replaced only if it holds the
//! marker file [`MARKER`] (it was written by oddsmith).
//!
//! Every write builds in its own temporary folder, created exclusively under a random name
//! (`.<name>.tmp-<pid>-<random>`), so two writes of one report never share files. Writes to
//! one folder from this process wait for each other; writes from two processes each swap
//! their whole folder in, and the later one wins: a report folder always holds one run's
//! files. A destination that is a symbolic link is refused (a link is never replaced by a
//! folder, nor written through).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex, MutexGuard};

use thiserror::Error;

#[cfg(feature = "tables")]
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
    /// The destination is a symbolic link.
    #[error(
        "refusing to write the report to {dir}: it is a symbolic link (to {target}); a report folder is replaced whole and a link is neither replaced nor written through: give the folder itself as --out, or remove the link"
    )]
    Symlink {
        /// The report folder asked for.
        dir: PathBuf,
        /// Where the link points.
        target: PathBuf,
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

/// Longest report folder name in bytes: the temporary `.<name>.tmp-<pid>-<random>` beside it
/// must stay under the 255 bytes file systems allow.
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
    refuse_link(dir)?;
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
    // A probe of its own (an exclusive random name, removed when dropped): checks running at
    // once never collide.
    let probe = tempfile::Builder::new()
        .prefix(".oddsmith-probe-")
        .tempdir_in(&at)
        .map_err(io(&at))?;
    probe.close().map_err(io(&at))
}

/// Refuses a destination that is a symbolic link (dangling or not).
fn refuse_link(dir: &Path) -> Result<(), ReportError> {
    match std::fs::symlink_metadata(dir) {
        Ok(m) if m.file_type().is_symlink() => Err(ReportError::Symlink {
            dir: dir.to_path_buf(),
            target: std::fs::read_link(dir).unwrap_or_default(),
        }),
        _ => Ok(()),
    }
}

/// Undoes this process's unfinished writes of a report to `dir` (after an interruption):
/// removes their temporary folders and, if the earlier report was moved aside but not yet
/// replaced, puts it back.
pub fn abandon_write(dir: &Path) {
    let parent = folder_of(dir);
    let base = base_name(dir);
    let pid = std::process::id();
    let ours = |kind: &str| -> Vec<PathBuf> {
        let prefix = format!(".{base}.{kind}-{pid}-");
        std::fs::read_dir(&parent)
            .map(|rd| {
                rd.flatten()
                    .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
                    .map(|e| e.path())
                    .collect()
            })
            .unwrap_or_default()
    };
    for tmp in ours("tmp") {
        // The writer may still be adding files: try a few times.
        for _ in 0..5 {
            if !tmp.exists() || std::fs::remove_dir_all(&tmp).is_ok() {
                break;
            }
        }
    }
    for old in ours("old") {
        // An empty one was never used (the earlier report was not moved into it).
        if dir.exists() || std::fs::remove_dir(&old).is_ok() {
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

/// A new, empty folder beside the report folder where this write keeps the new report
/// (`kind` "tmp") or the replaced one ("old") while it swaps them:
/// `.<base>.<kind>-<pid>-<random>`, created exclusively (no other write, in this process or
/// another, ever gets the same one). Its permissions are a plain new folder's.
fn temporary(parent: &Path, base: &str, kind: &str) -> Result<PathBuf, ReportError> {
    let mut b = tempfile::Builder::new();
    let prefix = format!(".{base}.{kind}-{}-", std::process::id());
    b.prefix(&prefix).rand_bytes(8);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // The umask applies, as to any new folder (tempfile's default is owner-only).
        b.permissions(std::fs::Permissions::from_mode(0o777));
    }
    b.tempdir_in(parent).map(|d| d.keep()).map_err(io(parent))
}

/// Destinations this process is writing now (each canonical).
static WRITING: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);
/// Signalled when a write of [`WRITING`] ends.
static WRITTEN: Condvar = Condvar::new();

fn writing() -> MutexGuard<'static, Option<HashSet<PathBuf>>> {
    WRITING.lock().unwrap_or_else(|e| e.into_inner())
}

/// This process's turn to write one destination: taken by [`Turn::wait`] (after any write of
/// the same folder under way here ends), given back on drop.
struct Turn(PathBuf);

impl Turn {
    fn wait(key: PathBuf) -> Turn {
        let mut w = writing();
        while w.get_or_insert_default().contains(&key) {
            w = WRITTEN.wait(w).unwrap_or_else(|e| e.into_inner());
        }
        w.get_or_insert_default().insert(key.clone());
        Turn(key)
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        writing().get_or_insert_default().remove(&self.0);
        WRITTEN.notify_all();
    }
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
            .map(|r| r.split_once('-').map_or(r, |(pid, _)| pid))
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
    let key = parent.canonicalize().map_err(io(&parent))?.join(&base);
    let _turn = Turn::wait(key);
    remove_stale_temporaries(&parent, &base);
    let tmp = temporary(&parent, &base, "tmp")?;
    let result = build(&tmp, d).and_then(|()| swap_in(&tmp, dir, &parent, &base));
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    result.map(|()| dir.join("report.html"))
}

/// Moves the new report `tmp` into place at `dir`, the folder there (if any) aside first. A
/// report another process put there in the meantime is moved aside in its turn: the later
/// write wins, whole. On failure the earlier report is put back.
fn swap_in(tmp: &Path, dir: &Path, parent: &Path, base: &str) -> Result<(), ReportError> {
    let mut aside: Vec<PathBuf> = Vec::new();
    let mut attempt = || -> Result<(), ReportError> {
        for _ in 0..16 {
            refuse_link(dir)?;
            if dir.exists() {
                if !dir.join(MARKER).is_file() {
                    return Err(ReportError::NotAReport(dir.to_path_buf()));
                }
                let old = temporary(parent, base, "old")?;
                // Onto the new empty folder (where renaming onto one is refused, without it).
                let moved = std::fs::rename(dir, &old).or_else(|e| {
                    if e.kind() == std::io::ErrorKind::NotFound {
                        return Err(e);
                    }
                    std::fs::remove_dir(&old)?;
                    std::fs::rename(dir, &old)
                });
                match moved {
                    Ok(()) => aside.push(old),
                    // Another process moved it first.
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                        let _ = std::fs::remove_dir(&old);
                    }
                    Err(e) => {
                        let _ = std::fs::remove_dir(&old);
                        return Err(io(dir)(e));
                    }
                }
            }
            match std::fs::rename(tmp, dir) {
                Ok(()) => return Ok(()),
                // Another process's report arrived in between: move it aside too.
                Err(_) if dir.exists() => continue,
                Err(e) => return Err(io(dir)(e)),
            }
        }
        Err(io(dir)(std::io::Error::other(
            "other writers kept replacing it; try again",
        )))
    };
    let result = attempt();
    if result.is_err()
        && !dir.exists()
        && let Some(last) = aside.pop()
    {
        let _ = std::fs::rename(&last, dir);
    }
    for old in aside {
        let _ = std::fs::remove_dir_all(&old);
    }
    result
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
    #[cfg(feature = "tables")]
    let names = write_tables(tmp, d)?;
    #[cfg(not(feature = "tables"))]
    let names: Vec<&str> = Vec::new();
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
    let page = sections::page(d, &names, figures);
    put(&tmp.join("report.md"), render_markdown(&page))?;
    put(&tmp.join("report.html"), render_html(&page))?;
    Ok(())
}

/// Writes every table of the report as CSV and Parquet under `tables/`; returns their stems.
#[cfg(feature = "tables")]
fn write_tables(tmp: &Path, d: &ReportData) -> Result<Vec<&'static str>, ReportError> {
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
    Ok(tables.iter().map(|t| t.0).collect())
}

/// A table as CSV text (polars' writers take the frame mutably; it is not changed).
#[cfg(feature = "tables")]
pub fn to_csv(df: &mut DataFrame) -> PolarsResult<String> {
    let mut buf = Vec::new();
    CsvWriter::new(&mut buf).finish(df)?;
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

/// A table as Parquet bytes.
#[cfg(feature = "tables")]
pub fn to_parquet(df: &mut DataFrame) -> PolarsResult<Vec<u8>> {
    let mut buf = Vec::new();
    ParquetWriter::new(&mut buf).finish(df)?;
    Ok(buf)
}
