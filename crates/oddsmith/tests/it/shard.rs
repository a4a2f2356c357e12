//! Sharded runs: `run --shard K/N` then `merge` give the single run's output, byte for byte;
//! incomplete, repeated or foreign shards are refused, naming the file.

use std::path::{Path, PathBuf};

use super::{cli, root, temp_dir};

/// Every file under `dir`, relative to it, sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                out.push(p.strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

/// A report file without the lines that name when and by which command it was written.
fn without_stamp(bytes: Vec<u8>) -> Vec<u8> {
    match String::from_utf8(bytes) {
        Ok(text) => text
            .lines()
            .filter(|l| {
                !l.contains("generated")
                    && !l.contains("oddsmith run ")
                    && !l.contains("oddsmith merge ")
            })
            .collect::<Vec<_>>()
            .join("\n")
            .into_bytes(),
        Err(e) => e.into_bytes(),
    }
}

/// Runs `scenario` with `args` once whole and once as `n` shards merged: the JSON on stdout and
/// every file of the two report folders must agree, byte for byte (the stamp aside).
fn assert_shards_merge_to_the_single_run(scenario: &str, args: &[&str], n: u64) {
    let dir = temp_dir(&format!("shard-{}-{n}", scenario.replace('/', "-")));
    let file = root().join("scenarios").join(scenario);
    let file = file.to_str().unwrap();
    let single = dir.join("single");
    let mut a = vec!["run", file, "--json", "--out", single.to_str().unwrap()];
    a.extend(args);
    let (code, single_json, _) = cli(&a);
    assert_eq!(code, 0, "{scenario}");
    let mut shards = Vec::new();
    for k in 1..=n {
        let path = dir.join(format!("s{k}.json"));
        let shard = format!("{k}/{n}");
        let mut a = vec![
            "run",
            file,
            "--shard",
            &shard,
            "--shard-out",
            path.to_str().unwrap(),
        ];
        a.extend(args);
        let (code, out, err) = cli(&a);
        assert_eq!(code, 0, "{scenario} shard {shard}: {err}");
        assert!(out.starts_with(&format!("shard {shard} of ")), "{out}");
        shards.push(path.to_str().unwrap().to_string());
    }
    let merged = dir.join("merged");
    let mut a = vec!["merge", "--json", "--out", merged.to_str().unwrap()];
    // The order of the files on the command line does not matter.
    a.extend(shards.iter().rev().map(String::as_str));
    let (code, merged_json, err) = cli(&a);
    assert_eq!(code, 0, "{scenario} merge of {n}: {err}");
    assert_eq!(merged_json, single_json, "{scenario}: {n} shards");
    let (fs, fm) = (files(&single), files(&merged));
    assert_eq!(fs, fm, "{scenario}: the report folders hold the same files");
    assert!(fs.iter().any(|f| f.extension().is_some_and(|e| e == "csv")));
    for f in &fs {
        let s = without_stamp(std::fs::read(single.join(f)).unwrap());
        let m = without_stamp(std::fs::read(merged.join(f)).unwrap());
        assert!(s == m, "{scenario}, {n} shards: {} differs", f.display());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shards_of_a_scenario_merge_to_the_single_run() {
    for n in [1, 2, 7] {
        assert_shards_merge_to_the_single_run(
            "draft/reference-duels.toml",
            &["--trials", "25000"],
            n,
        );
    }
}

#[test]
fn shards_of_a_sweep_and_a_tournament_merge_to_the_single_run() {
    for n in [1, 2, 7] {
        assert_shards_merge_to_the_single_run(
            "studies/draft-skill-sweep.toml",
            &["--trials", "20000"],
            n,
        );
        assert_shards_merge_to_the_single_run(
            "studies/draft-loadouts.toml",
            &["--trials", "10000"],
            n,
        );
    }
}

#[test]
fn shards_of_a_check_study_and_a_comparison_merge_to_the_single_run() {
    assert_shards_merge_to_the_single_run(
        "studies/draft-house-rules-ci.toml",
        &["--trials", "20000"],
        3,
    );
    assert_shards_merge_to_the_single_run(
        "studies/rulesets-compared.toml",
        &["--trials", "10000"],
        2,
    );
}

#[test]
fn merge_refuses_missing_repeated_and_foreign_shards() {
    let dir = temp_dir("shard-refused");
    let file = root().join("scenarios/draft/reference-duels.toml");
    let file = file.to_str().unwrap();
    let shard = |k: u64, n: u64, seed: &str| {
        let path = dir.join(format!("s{k}-{n}-{seed}.json"));
        let (code, _, err) = cli(&[
            "run",
            file,
            "--trials",
            "20000",
            "--seed",
            seed,
            "--shard",
            &format!("{k}/{n}"),
            "--shard-out",
            path.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        path.to_str().unwrap().to_string()
    };
    let (s1, s2, s3) = (shard(1, 3, "5"), shard(2, 3, "5"), shard(3, 3, "5"));
    let merge = |files: &[&str]| {
        let mut a = vec!["merge", "--no-report"];
        a.extend(files);
        let (code, out, err) = cli(&a);
        assert_eq!((code, out.as_str()), (2, ""), "{files:?}: {err}");
        err
    };
    let err = merge(&[&s1, &s3]);
    assert!(err.contains("shard 2/3 of this run is missing"), "{err}");
    let err = merge(&[&s1, &s2, &s2, &s3]);
    assert!(
        err.contains(&format!("{s2} and {s2} are both shard 2/3")),
        "{err}"
    );
    let foreign = shard(2, 3, "6");
    let err = merge(&[&s1, &foreign, &s3]);
    assert!(
        err.contains(&format!("{foreign} is a shard of another run than {s1}")),
        "{err}"
    );
    let other_n = shard(2, 4, "5");
    let err = merge(&[&s1, &other_n, &s3]);
    assert!(
        err.contains(&format!("{other_n} is shard 2/4 but {s1} is shard 1/3")),
        "{err}"
    );
    let err = merge(&[&s1, file]);
    assert!(
        err.contains(&format!("{file} is not an oddsmith shard file")),
        "{err}"
    );
    // The complete set merges.
    let (code, _, err) = cli(&["merge", "--no-report", &s3, &s1, &s2]);
    assert_eq!(code, 0, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn merge_names_the_first_missing_shards_of_many() {
    let dir = temp_dir("shard-many-missing");
    let file = root().join("scenarios/draft/reference-duels.toml");
    let path = dir.join("s1.json");
    let (code, _, err) = cli(&[
        "run",
        file.to_str().unwrap(),
        "--trials",
        "1000",
        "--no-exact",
        "--shard",
        "1/13",
        "--shard-out",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = cli(&["merge", "--no-report", path.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(
        err.contains(
            "shard 2/13, 3/13, 4/13, 5/13, 6/13, 7/13, 8/13, 9/13, 10/13, 11/13 and 2 more of \
             this run is missing (got 1 of 13 shard files)"
        ),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sequential_runs_refuse_shard() {
    let balance = root().join("scenarios/studies/draft-fair-armour.toml");
    let (code, out, err) = cli(&["run", balance.to_str().unwrap(), "--shard", "1/2"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.contains("a [balance] search cannot be sharded"),
        "{err}"
    );
    let file = root().join("scenarios/draft/reference-duels.toml");
    let (code, _, err) = cli(&[
        "run",
        file.to_str().unwrap(),
        "--shard",
        "1/2",
        "--precision",
        "0.01",
    ]);
    assert_eq!(code, 2, "{err}");
    for bad in ["0/2", "3/2", "2", "x/y"] {
        let (code, _, err) = cli(&["run", file.to_str().unwrap(), "--shard", bad]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("--shard"), "{err}");
    }
}
