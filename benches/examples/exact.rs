//! The exact solver's time per matchup of every bundled scenario, on one core:
//! `cargo run --release -p oddsmith-benches --example exact [-- FILE… [MATCHUP]]` (every
//! `scenarios/*/*.toml` with matchups when no file is given; an argument that does not end in
//! `.toml` keeps only the matchups of that name). Each matchup is solved once and then timed
//! over enough repetitions to fill about 0.2 s (none under `ONCE=1`, for a profiler); the line
//! ends with a checksum of the solution's bits, so a faster solver can be seen to give the
//! same numbers. `COMPARE=1` instead prints, per matchup, how far the solution is from the
//! face-by-face enumeration (`Branching::Faces`; rulesets on the shared solver): the largest
//! difference of a probability and the relative one of the mean fight length
//! (`solver::max_difference`). `MC=N` instead plays N Monte Carlo duels of each matchup on
//! stream 0 of seed 1 and prints a checksum of every outcome field (as the `profile` example
//! does for the reference duels), so a change to a `step` can be seen to give the very same
//! duels on every bundled matchup.

use std::path::{Path, PathBuf};
use std::time::Duration;

use oddsmith_rules::registry::{RulesetVisitor, visit};
use oddsmith_rules::roller::Branching;
use oddsmith_rules::solver::{Transitions, max_difference, solve_branching};
use oddsmith_rules::{ExactDuel, Ruleset};

/// Solves and times every matchup of one scenario file under its ruleset.
struct TimeFile<'a> {
    file: &'a str,
    text: &'a str,
    only: Option<&'a str>,
}

impl RulesetVisitor for TimeFile<'_> {
    type Output = ();
    fn visit<R: Ruleset>(self) {
        let s = match oddsmith_scenario::load::<R>(self.file, self.text) {
            Ok(s) => s,
            Err(e) => return eprintln!("{}: skipped ({e})", self.file),
        };
        let once_only = std::env::var_os("ONCE").is_some();
        let compare = std::env::var_os("COMPARE").is_some();
        let mc: Option<u64> = std::env::var("MC")
            .ok()
            .map(|n| n.parse().expect("MC=N duels"));
        for m in s
            .matchups
            .iter()
            .filter(|m| self.only.is_none_or(|o| o == m.name))
        {
            if let Some(duels) = mc {
                let (wins, sum) = oddsmith_benches::outcome_checksum(&s.ruleset, &m.matchup, duels);
                println!(
                    "| {} | {} | {duels} duels: A {} B {} draw {} | {sum:016x} |",
                    self.file, m.name, wins[0], wins[1], wins[2]
                );
                continue;
            }
            let t = cpu_time();
            let first = s.ruleset.exact(&m.matchup);
            let once = cpu_time() - t;
            let Some(first) = first else {
                println!("| {} | {} | — | no exact value |", self.file, m.name);
                continue;
            };
            if compare {
                let faces = solve_branching(
                    &s.ruleset,
                    &m.matchup,
                    s.ruleset.start(&m.matchup),
                    Transitions::of::<R>(),
                    Branching::Faces,
                );
                let Some(faces) = faces else {
                    println!("| {} | {} | no face-by-face solution |", self.file, m.name);
                    continue;
                };
                let (p, mean) = max_difference(&first, &faces);
                println!("| {} | {} | {p:.1e} | {mean:.1e} |", self.file, m.name);
                continue;
            }
            if once_only {
                println!(
                    "| {} | {} | {:.1} ms (once) | {:.6} | {:016x} |",
                    self.file,
                    m.name,
                    once.as_secs_f64() * 1e3,
                    first.p_a_win,
                    checksum(&first)
                );
                continue;
            }
            let reps = (Duration::from_millis(200).as_secs_f64() / once.as_secs_f64().max(1e-6))
                .clamp(1.0, 1000.0) as u32;
            let t = cpu_time();
            for _ in 0..reps {
                std::hint::black_box(s.ruleset.exact(&m.matchup));
            }
            let each = (cpu_time() - t) / reps;
            println!(
                "| {} | {} | {:.1} ms | {:.6} | {:016x} |",
                self.file,
                m.name,
                each.as_secs_f64() * 1e3,
                first.p_a_win,
                checksum(&first)
            );
        }
    }
}

/// Mixes every number of a solution, bit for bit.
fn checksum(e: &ExactDuel) -> u64 {
    [e.p_a_win, e.p_b_win, e.p_draw, e.mean_rounds, e.truncated]
        .iter()
        .chain(&e.rounds_pmf)
        .fold(0u64, |h, x| {
            (h.rotate_left(7) ^ x.to_bits()).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        })
}

/// CPU time of this thread so far (Linux: `/proc/thread-self/schedstat`, in nanoseconds), so
/// the figures do not grow with the machine's load; elsewhere, wall-clock time since the
/// first call.
fn cpu_time() -> Duration {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|t| t.split_whitespace().next()?.parse().ok())
        .map_or_else(
            || START.get_or_init(std::time::Instant::now).elapsed(),
            Duration::from_nanos,
        )
}

/// Every bundled scenario with matchups, in path order.
fn bundled() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios");
    let mut files = Vec::new();
    for dir in std::fs::read_dir(&root).expect("scenarios/") {
        let dir = dir.expect("entry").path();
        if dir.is_dir() && !dir.ends_with("studies") {
            for f in std::fs::read_dir(&dir).expect("scenario folder") {
                let f = f.expect("entry").path();
                if f.extension().is_some_and(|e| e == "toml") {
                    files.push(f);
                }
            }
        }
    }
    files.sort();
    files
}

fn main() {
    let (args, only): (Vec<String>, Vec<String>) =
        std::env::args().skip(1).partition(|a| a.ends_with(".toml"));
    let only = only.first().map(String::as_str);
    let files = if args.is_empty() {
        bundled()
    } else {
        args.into_iter().map(PathBuf::from).collect()
    };
    if std::env::var_os("COMPARE").is_some() {
        println!("| scenario | matchup | largest Δ probability | relative Δ mean rounds |");
        println!("|---|---|---|---|");
    } else {
        println!("| scenario | matchup | exact solve | P(A) | checksum |");
        println!("|---|---|---|---|---|");
    }
    for f in files {
        let text = std::fs::read_to_string(&f).expect("readable scenario");
        let name = f
            .strip_prefix(Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios"))
            .unwrap_or(&f)
            .display()
            .to_string();
        let Ok(id) = oddsmith_scenario::ruleset_of(&name, &text) else {
            eprintln!("{name}: skipped (no ruleset)");
            continue;
        };
        if visit(
            &id,
            TimeFile {
                file: &name,
                text: &text,
                only,
            },
        )
        .is_none()
        {
            eprintln!("{name}: skipped (unknown ruleset {id})");
        }
    }
}
