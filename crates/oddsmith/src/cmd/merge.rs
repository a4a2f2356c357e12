//! Sharded runs: `oddsmith run FILE --shard K/N` writes a shard file ([`write_shard`]), and
//! `oddsmith merge SHARD…` ([`merge`]) reads them one at a time (`ShardSet`: the running sums
//! only, so memory does not grow with the number of shards), checks that they are a complete
//! set, and runs the rest of the run pipeline on the sums, so it prints and writes what the
//! single run gives, bit for bit. Exact solutions are recomputed at merge.
//!
//! A shard file is JSON: its format and version, the shard `K/N`, a `run` hash of everything
//! that decides the numbers (format, oddsmith version, scenario text, `--trials`, `--seed`,
//! `--no-exact`, `--readings`, the chunk size), the scenario file's name and text, one accumulator per
//! unit (each `run_duels`/`run_paired`/`run_check` of the run, in run order) over the shard's
//! chunks, and a `checksum`: SHA-256 over all the rest ([`checksum`]). Merge refuses a file
//! whose checksum does not match (its counts, shard label or scenario text were edited) or
//! whose accumulators do not add up ([`oddsmith_sim::check_shard`]), as bad input.
//!
//! The shard file is written beside its destination as a temporary file created exclusively
//! and then renamed over it, so a reader never sees half a file; an existing destination must
//! be a shard file of the same run and shard (a rerun replaces its own file), never the
//! scenario file or anything else ([`destination`]), and that is checked before any work.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use oddsmith_report::format::thousands;
use oddsmith_sim::{CHUNK_TRIALS, Shard, UnitRecord, Units, add_shard, check_shard};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::args::MergeArgs;
use crate::config::RunSettings;
use crate::error::InputError;

/// The `format` field of every shard file.
const FORMAT: &str = "oddsmith-shard";
/// The shard file format's version: 2 added the `checksum`.
const VERSION: u32 = 2;

/// One shard file.
#[derive(Debug, Serialize, Deserialize)]
struct ShardFile {
    /// Always [`FORMAT`].
    format: String,
    /// [`VERSION`].
    version: u32,
    /// The oddsmith that wrote it.
    oddsmith_version: String,
    /// Which shard.
    shard: Shard,
    /// The hash of the run ([`run_hash`]): shards of one run share it.
    run: String,
    /// The scenario file as named on the command line.
    scenario_file: String,
    /// `--trials`, if given.
    trials: Option<u64>,
    /// `--seed`, if given.
    seed: Option<u64>,
    /// Not `--no-exact`.
    exact: bool,
    /// `--readings` (the readings study, which a file's `[readings]` also asks for): its
    /// paired runs are units like any other, so a readings run shards and merges bit for bit.
    /// Absent (false) in the files of older oddsmiths.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    readings: bool,
    /// The scenario file's text.
    scenario: String,
    /// Accumulators over the shard's chunks, one per unit in run order.
    units: Vec<UnitRecord>,
    /// [`checksum`] of the rest of the file (empty until [`seal`] computes it).
    #[serde(default)]
    checksum: String,
}

/// SHA-256, in hex, of a shard file's JSON without its `checksum` field: the accumulators,
/// the shard label, the scenario text and every other field. The JSON is written compact
/// from `serde_json::Value` (fields in one fixed order), so the file's own spacing does not
/// matter but every value does.
fn checksum(file_without_checksum: &Value) -> Result<String> {
    let bytes = serde_json::to_vec(file_without_checksum)?;
    Ok(Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// The shard file's bytes, its checksum computed over the rest.
fn seal(file: &ShardFile) -> Result<Vec<u8>> {
    let mut v = serde_json::to_value(file)?;
    let o = v.as_object_mut().context("a shard file is a JSON object")?;
    o.remove("checksum");
    let sum = checksum(&v)?;
    if let Some(o) = v.as_object_mut() {
        o.insert("checksum".into(), Value::String(sum));
    }
    Ok(serde_json::to_vec(&v)?)
}

/// FNV-1a, 64 bits: a stable hash (the same on every machine and Rust version).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The hash of everything that decides a run's numbers (`--readings` adds the readings
/// study's units; without it the hash is what it was before the flag could shard).
fn run_hash(
    text: &str,
    trials: Option<u64>,
    seed: Option<u64>,
    exact: bool,
    readings: bool,
) -> String {
    let readings = if readings { " readings" } else { "" };
    let key = format!(
        "{FORMAT} {VERSION}\0{}\0{text}\0trials {trials:?} seed {seed:?} exact {exact} chunk {CHUNK_TRIALS}{readings}",
        env!("CARGO_PKG_VERSION")
    );
    format!("{:016x}", fnv1a(key.as_bytes()))
}

/// `--shard K/N`: runs the shard's share of every unit of the file's run and writes the
/// shard file; prints one line saying what ran and where the file went. Where the file goes
/// is checked before any work ([`destination`]).
pub(crate) fn write_shard(
    r: &RunSettings,
    text: &str,
    shard: Shard,
    out: &mut dyn Write,
) -> Result<()> {
    let path = r
        .shard_out
        .clone()
        .unwrap_or_else(|| default_path(&r.file, shard));
    let (trials, seed) = r.trials_and_seed();
    let run = run_hash(text, trials, seed, r.exact, r.readings);
    // Checked before any work (and again before the write), with a probe that the folder
    // takes a new file.
    let target = destination(&path, &r.file, &run, shard)?;
    let dir = folder_of(&target);
    #[cfg(feature = "native")]
    tempfile::Builder::new()
        .prefix(".oddsmith-probe.")
        .tempfile_in(&dir)
        .map_err(|e| {
            InputError(format!(
                "--shard-out {}: cannot write in the folder {}: {e}",
                path.display(),
                dir.display()
            ))
        })?;
    super::run::compute(r, text)?;
    let units = r.units.finish()?;
    let ran: u64 = units.iter().map(|u| u.acc.trials()).sum();
    let all: u64 = units.iter().map(|u| u.trials).sum();
    let n_units = units.len();
    let file = ShardFile {
        format: FORMAT.into(),
        version: VERSION,
        oddsmith_version: env!("CARGO_PKG_VERSION").into(),
        shard,
        run,
        scenario_file: r.file.clone(),
        trials,
        seed,
        exact: r.exact,
        readings: r.readings,
        scenario: text.into(),
        units,
        checksum: String::new(),
    };
    let bytes = seal(&file)?;
    // What is at the destination may have changed during the run: checked again.
    let target = destination(&path, &r.file, &file.run, shard)?;
    write_atomically(&target, &bytes)
        .with_context(|| format!("cannot write the shard file {}", path.display()))?;
    writeln!(
        out,
        "shard {shard} of {}: {} runs, {} of their {} trials → {}",
        r.file,
        n_units,
        thousands(ran),
        thousands(all),
        path.display()
    )?;
    Ok(())
}

/// Writes `bytes` to `path` whole or not at all: a temporary file created exclusively in the
/// same folder (`.<name>.<random>.tmp`, removed if the process is interrupted), then renamed
/// over `path`.
#[cfg(feature = "native")]
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = folder_of(path);
    let name = path
        .file_name()
        .map_or("shard".into(), |n| n.to_string_lossy());
    let prefix = format!(".{name}.");
    let mut b = tempfile::Builder::new();
    b.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        // As `std::fs::write` would: readable by others unless the umask says otherwise.
        use std::os::unix::fs::PermissionsExt;
        b.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = b.tempfile_in(&dir)?;
    let _writing = crate::interrupt::writing_file(tmp.path());
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path)?;
    Ok(())
}

/// Without `native` (no temporary files): a plain write.
#[cfg(not(feature = "native"))]
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    Ok(std::fs::write(path, bytes)?)
}

/// The folder `path` is in (`.` for a bare name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Where the shard file of shard `shard` of run `run` (the hash) goes, for `--shard-out
/// path`: a new file in an existing folder, or an existing shard file of the same run and
/// shard (a rerun, e.g. a retried array task, replaces its own file); through a symbolic
/// link, the file it points to. Anything else is refused in plain words, before any work:
/// the scenario file `scenario` itself (same path or same file), a folder, a file that is not
/// a shard file, a shard file of another run or another shard.
fn destination(path: &Path, scenario: &str, run: &str, shard: Shard) -> Result<PathBuf> {
    let shown = path.display();
    let refuse = |why: String| -> anyhow::Error {
        InputError(format!(
            "--shard-out {shown} {why}; refused, so that it is not overwritten: remove it \
             or give another --shard-out"
        ))
        .into()
    };
    if std::fs::symlink_metadata(path).is_err() {
        // Nothing there: the folder must exist.
        let dir = folder_of(path);
        return match std::fs::metadata(&dir) {
            Ok(m) if m.is_dir() => Ok(path.to_path_buf()),
            Ok(_) => bail!(InputError(format!(
                "--shard-out {shown}: {} is not a folder",
                dir.display()
            ))),
            Err(e) => bail!(InputError(format!(
                "--shard-out {shown}: cannot use the folder {}: {e}",
                dir.display()
            ))),
        };
    }
    let real = std::fs::canonicalize(path)
        .map_err(|e| refuse(format!("is a link to nothing usable ({e})")))?;
    if same_file(&real, Path::new(scenario)) {
        bail!(InputError(format!(
            "--shard-out {shown} is the scenario file {scenario} itself: a shard file never \
             replaces its input; give another --shard-out (without it, the shard file is {})",
            default_path(scenario, shard).display()
        )));
    }
    if !real.is_file() {
        return Err(refuse("exists and is not a file".into()));
    }
    let h =
        existing_header(&real).ok_or_else(|| refuse("exists and is not a shard file".into()))?;
    if h.run != run {
        return Err(refuse(
            "is a shard file of another run (another scenario text, --trials, --seed, \
             --no-exact, --readings or oddsmith version)"
                .into(),
        ));
    }
    if h.shard != shard {
        return Err(refuse(format!(
            "is shard {} of this run, not {shard}",
            h.shard
        )));
    }
    Ok(real)
}

/// Whether `a` (canonical) and `b` name the same file: the same canonical path, or (where
/// links make two paths of one file) the same device and inode.
fn same_file(a: &Path, b: &Path) -> bool {
    if std::fs::canonicalize(b).is_ok_and(|b| b == a) {
        return true;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return x.dev() == y.dev() && x.ino() == y.ino();
        }
    }
    false
}

/// The fields of an existing file that say whose shard file it is.
#[derive(Deserialize)]
struct Whose {
    /// [`FORMAT`].
    format: String,
    /// The run hash.
    run: String,
    /// Which shard.
    shard: Shard,
}

/// The run and shard of the existing shard file at `path`, or `None` if it is not one. A
/// file that does not start as JSON does is not read further.
fn existing_header(path: &Path) -> Option<Whose> {
    let mut f = std::fs::File::open(path).ok()?;
    let mut start = [0u8; 64];
    let n = f.read(&mut start).ok()?;
    if start[..n].iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return None;
    }
    let f = std::fs::File::open(path).ok()?;
    let w: Whose = serde_json::from_reader(std::io::BufReader::new(f)).ok()?;
    (w.format == FORMAT).then_some(w)
}

/// `<file stem>.shard-K-of-N.json` in the current folder.
fn default_path(file: &str, s: Shard) -> PathBuf {
    let stem = Path::new(file)
        .file_stem()
        .map_or("run".into(), |s| s.to_string_lossy());
    PathBuf::from(format!("{stem}.shard-{}-of-{}.json", s.k, s.n))
}

/// Reads one shard file; anything else is refused naming the file: another file or format
/// version, a file whose checksum does not match its content (edited after it was written),
/// or whose accumulators do not add up.
fn read_shard(path: &str) -> Result<ShardFile> {
    let not = |why: String| InputError(format!("{path} is not an oddsmith shard file: {why}"));
    let text = std::fs::read_to_string(path)
        .map_err(|e| InputError(format!("cannot read shard file {path}: {e}")))?;
    let mut v: Value = serde_json::from_str(&text).map_err(|e| not(e.to_string()))?;
    // The format and version first, so that another file or version is refused in plain
    // words.
    if v.get("format").and_then(Value::as_str) != Some(FORMAT) {
        bail!(not(format!("no \"format\": \"{FORMAT}\"")));
    }
    let version = v.get("version").and_then(Value::as_u64);
    if version != Some(u64::from(VERSION)) {
        bail!(InputError(format!(
            "{path} is a shard file of format version {}, this oddsmith reads version \
             {VERSION}: run that shard again with this oddsmith",
            version.map_or("?".into(), |v| v.to_string())
        )));
    }
    let claimed = v.as_object_mut().and_then(|o| o.remove("checksum"));
    let actual = checksum(&v)?;
    let f: ShardFile = serde_json::from_value(v).map_err(|e| not(e.to_string()))?;
    let shard = Shard::new(f.shard.k, f.shard.n).map_err(|e| not(e.to_string()))?;
    let totals = check_shard(shard, &f.units);
    match claimed {
        Some(Value::String(c)) if c == actual => {}
        Some(_) => {
            let also = totals
                .as_ref()
                .err()
                .map_or(String::new(), |e| format!(" (and {e})"));
            bail!(InputError(format!(
                "{path} was changed after oddsmith wrote it: its checksum does not match its \
                 content (its counts, its shard label {shard}, its scenario text or its \
                 settings){also}; run shard {shard} again"
            )));
        }
        None => bail!(not("it has no \"checksum\"".into())),
    }
    totals.map_err(|e| {
        InputError(format!(
            "{path}: the counts of shard {shard} do not add up: {e}; run shard {shard} again"
        ))
    })?;
    Ok(f)
}

/// A set of shard files summed one at a time: memory holds the first file's scenario and
/// the running sums, never every file at once, so a thousand shards cost no more memory than
/// ten.
struct ShardSet<'a> {
    /// The first file's path (messages name it).
    first: &'a str,
    /// The first file, its units moved into `total`.
    file: ShardFile,
    /// The sums of the units so far.
    total: Vec<UnitRecord>,
    /// The file given for each shard number so far.
    seen: BTreeMap<u64, &'a str>,
}

impl<'a> ShardSet<'a> {
    /// Starts with the shard file at `path`.
    fn new(path: &'a str) -> Result<ShardSet<'a>> {
        let mut file = read_shard(path)?;
        let total = std::mem::take(&mut file.units);
        let seen = BTreeMap::from([(file.shard.k, path)]);
        Ok(ShardSet {
            first: path,
            file,
            total,
            seen,
        })
    }

    /// Adds the shard file at `path`: refused if it belongs to another run, has another N,
    /// repeats a shard or does not line up with the first.
    fn add(&mut self, path: &'a str) -> Result<()> {
        let s = read_shard(path)?;
        let first = self.first;
        if s.run != self.file.run {
            bail!(InputError(format!(
                "{path} is a shard of another run than {first} (the scenario text, --trials, \
                 --seed, --no-exact, --readings or the oddsmith version differ): refused"
            )));
        }
        if s.shard.n != self.file.shard.n {
            bail!(InputError(format!(
                "{path} is shard {} but {first} is shard {}: the shards of one run share N",
                s.shard, self.file.shard
            )));
        }
        if let Some(before) = self.seen.insert(s.shard.k, path) {
            bail!(InputError(format!(
                "{before} and {path} are both shard {}: give each shard once",
                s.shard
            )));
        }
        add_shard(&mut self.total, s.units)
            .map_err(|e| InputError(format!("{path} does not line up with {first}: {e}")))?;
        Ok(())
    }

    /// The first file and the sums, once every shard from 1 to N is there.
    fn complete(self) -> Result<(ShardFile, Vec<UnitRecord>)> {
        let n = self.file.shard.n;
        // At most `seen.len()` numbers are present, so the first few missing are found soon.
        let missing: Vec<String> = (1..=n)
            .filter(|k| !self.seen.contains_key(k))
            .take(10)
            .map(|k| format!("{k}/{n}"))
            .collect();
        if !missing.is_empty() {
            let more = n - self.seen.len() as u64 - missing.len() as u64;
            let more = if more > 0 {
                format!(" and {} more", thousands(more))
            } else {
                String::new()
            };
            bail!(InputError(format!(
                "shard {}{more} of this run is missing (got {} of {n} shard files)",
                missing.join(", "),
                self.seen.len()
            )));
        }
        Ok((self.file, self.total))
    }
}

/// `oddsmith merge SHARD…`: checks the shards, sums them and finishes the run as a single run
/// would (results on stdout, report, `[[assert]]` verdict).
pub(crate) fn merge(
    a: &MergeArgs,
    command: &str,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<()> {
    let Some((first, rest)) = a.shards.split_first() else {
        bail!(InputError("merge needs the shard files".into()));
    };
    let mut set = ShardSet::new(first)?;
    for p in rest {
        set.add(p)?;
    }
    let (f, units) = set.complete()?;
    let units = Units::merged(units);
    let r = RunSettings::for_merge(
        a,
        f.scenario_file,
        (f.trials, f.seed),
        f.exact,
        f.readings,
        units.clone(),
    )?;
    // The shard files embed the scenario text: its warnings are found again, and printed
    // before any work as `run` prints them (the merged JSON and report carry them too).
    let checked = super::validate::check(&r.file, &f.scenario)?;
    super::validate::print_warnings(&checked.warnings, err)?;
    super::run::run_text(&r, &f.scenario, command, out, err).map_err(|e| {
        // Shards that do not fit the run they name are bad input, however the engine's
        // error was worded on its way up.
        match units.misfit() {
            Some(m) => InputError(format!("{}: {m}", a.shards.join(", "))).into(),
            None => e,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_run_hash_is_stable_and_sees_every_input() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        let h = run_hash("x", None, None, true, false);
        assert_eq!(h, run_hash("x", None, None, true, false));
        for other in [
            run_hash("y", None, None, true, false),
            run_hash("x", Some(1), None, true, false),
            run_hash("x", None, Some(1), true, false),
            run_hash("x", None, None, false, false),
            run_hash("x", None, None, true, true),
        ] {
            assert_ne!(h, other);
        }
    }
}
