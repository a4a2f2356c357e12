//! Sharded runs: `oddsmith run FILE --shard K/N` writes a shard file ([`write_shard`]), and
//! `oddsmith merge SHARD…` ([`merge`]) reads them one at a time (`ShardSet`: the running sums
//! only, so memory does not grow with the number of shards), checks that they are a complete
//! set, and runs the rest of the run pipeline on the sums, so it prints and writes what the
//! single run gives, bit for bit. Exact solutions are recomputed at merge.
//!
//! A shard file is JSON: its format and version, the shard `K/N`, a `run` hash of everything
//! that decides the numbers (format, oddsmith version, scenario text, `--trials`, `--seed`,
//! `--no-exact`, the chunk size), the scenario file's name and text, and one accumulator per
//! unit (each `run_duels`/`run_paired`/`run_check` of the run, in run order) over the shard's
//! chunks.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use oddsmith_report::format::thousands;
use oddsmith_sim::{CHUNK_TRIALS, Shard, UnitRecord, Units, add_shard};
use serde::{Deserialize, Serialize};

use crate::args::MergeArgs;
use crate::config::RunSettings;
use crate::error::InputError;

/// The `format` field of every shard file.
const FORMAT: &str = "oddsmith-shard";
/// The shard file format's version.
const VERSION: u32 = 1;

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
    /// The scenario file's text.
    scenario: String,
    /// Accumulators over the shard's chunks, one per unit in run order.
    units: Vec<UnitRecord>,
}

/// FNV-1a, 64 bits: a stable hash (the same on every machine and Rust version).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The hash of everything that decides a run's numbers.
fn run_hash(text: &str, trials: Option<u64>, seed: Option<u64>, exact: bool) -> String {
    let key = format!(
        "{FORMAT} {VERSION}\0{}\0{text}\0trials {trials:?} seed {seed:?} exact {exact} chunk {CHUNK_TRIALS}",
        env!("CARGO_PKG_VERSION")
    );
    format!("{:016x}", fnv1a(key.as_bytes()))
}

/// `--shard K/N`: runs the shard's share of every unit of the file's run and writes the
/// shard file; prints one line saying what ran and where the file went.
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
    super::run::compute(r, text)?;
    let units = r.units.finish()?;
    let (trials, seed) = r.trials_and_seed();
    let ran: u64 = units.iter().map(|u| u.acc.trials()).sum();
    let all: u64 = units.iter().map(|u| u.trials).sum();
    let file = ShardFile {
        format: FORMAT.into(),
        version: VERSION,
        oddsmith_version: env!("CARGO_PKG_VERSION").into(),
        shard,
        run: run_hash(text, trials, seed, r.exact),
        scenario_file: r.file.clone(),
        trials,
        seed,
        exact: r.exact,
        scenario: text.into(),
        units,
    };
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, serde_json::to_vec(&file)?)
        .and_then(|()| std::fs::rename(&tmp, &path))
        .with_context(|| format!("cannot write the shard file {}", path.display()))?;
    writeln!(
        out,
        "shard {shard} of {}: {} runs, {} of their {} trials → {}",
        r.file,
        file.units.len(),
        thousands(ran),
        thousands(all),
        path.display()
    )?;
    Ok(())
}

/// `<file stem>.shard-K-of-N.json` in the current folder.
fn default_path(file: &str, s: Shard) -> PathBuf {
    let stem = Path::new(file)
        .file_stem()
        .map_or("run".into(), |s| s.to_string_lossy());
    PathBuf::from(format!("{stem}.shard-{}-of-{}.json", s.k, s.n))
}

/// The `format` and `version` of a shard file, read before the rest so that another file or
/// another version is refused in plain words.
#[derive(Deserialize)]
struct Header {
    /// [`FORMAT`] in a shard file.
    #[serde(default)]
    format: serde_json::Value,
    /// [`VERSION`] in a shard file of this version.
    #[serde(default)]
    version: serde_json::Value,
}

/// Reads one shard file; anything else is refused naming the file.
fn read_shard(path: &str) -> Result<ShardFile> {
    let not = |why: String| InputError(format!("{path} is not an oddsmith shard file: {why}"));
    let text = std::fs::read_to_string(path)
        .map_err(|e| InputError(format!("cannot read shard file {path}: {e}")))?;
    let h: Header = serde_json::from_str(&text).map_err(|e| not(e.to_string()))?;
    if h.format.as_str() != Some(FORMAT) {
        bail!(not(format!("no \"format\": \"{FORMAT}\"")));
    }
    let version = h.version.as_u64();
    if version != Some(u64::from(VERSION)) {
        bail!(InputError(format!(
            "{path} is a shard file of format version {}, this oddsmith reads version {VERSION}",
            version.map_or("?".into(), |v| v.to_string())
        )));
    }
    let f: ShardFile = serde_json::from_str(&text).map_err(|e| not(e.to_string()))?;
    Shard::new(f.shard.k, f.shard.n).map_err(|e| not(e.to_string()))?;
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
                 --seed, --no-exact or the oddsmith version differ): refused"
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
    let r = RunSettings::for_merge(
        a,
        f.scenario_file,
        f.trials,
        f.seed,
        f.exact,
        Units::merged(units),
    )?;
    // The shard files embed the scenario text: its warnings are found again, and printed
    // before any work as `run` prints them (the merged JSON and report carry them too).
    let checked = super::validate::check(&r.file, &f.scenario)?;
    super::validate::print_warnings(&checked.warnings, err)?;
    super::run::run_text(&r, &f.scenario, command, out, err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_run_hash_is_stable_and_sees_every_input() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        let h = run_hash("x", None, None, true);
        assert_eq!(h, run_hash("x", None, None, true));
        for other in [
            run_hash("y", None, None, true),
            run_hash("x", Some(1), None, true),
            run_hash("x", None, Some(1), true),
            run_hash("x", None, None, false),
        ] {
            assert_ne!(h, other);
        }
    }
}
