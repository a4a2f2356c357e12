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
/// every file of the two report folders must agree, byte for byte (the stamp aside). Returns
/// the single run's JSON.
fn assert_shards_merge_to_the_single_run(scenario: &str, args: &[&str], n: u64) -> String {
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
    single_json
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

/// Issue 36: a readings run (`--readings`, or a file's `[readings]`) shards and merges like any
/// other run: the merged JSON (every factor's counts and intervals) and report are the single
/// run's, byte for byte; a shard of the plain run does not merge with a readings run's.
#[test]
fn shards_of_a_readings_run_merge_to_the_single_run() {
    let factors = |json: &str| {
        let v: serde_json::Value = serde_json::from_str(json).unwrap();
        v["study"]["readings"][0]["readings"]
            .as_array()
            .map_or(0, Vec::len)
    };
    for n in [2, 3] {
        let json = assert_shards_merge_to_the_single_run(
            "draft/sword-and-shield-vs-greatsword.toml",
            &["--readings", "--trials", "6000"],
            n,
        );
        assert!(factors(&json) >= 5, "{json}");
    }
    let json = assert_shards_merge_to_the_single_run(
        "cards/spear-vs-sword.toml",
        &["--readings", "--trials", "5000", "--no-exact"],
        2,
    );
    assert!(factors(&json) >= 5, "{json}");
    // A file's own [readings] section shards too (it was refused before).
    let dir = temp_dir("shard-readings-section");
    let text = std::fs::read_to_string(root().join("scenarios/draft/reference-duels.toml"))
        .unwrap()
        + "\n[readings]\ninclude = [\"armor_table\"]\n";
    let file = dir.join("with-readings.toml");
    std::fs::write(&file, text).unwrap();
    let (s1, s2) = (dir.join("s1.json"), dir.join("s2.json"));
    let args = ["--trials", "3000"];
    let (code, _, err) = run_shard(&file, 1, 2, &s1, &args);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run_shard(&file, 2, 2, &s2, &args);
    assert_eq!(code, 0, "{err}");
    let (code, merged, err) = cli(&[
        "merge",
        "--json",
        "--no-report",
        s1.to_str().unwrap(),
        s2.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let f = file.to_str().unwrap();
    let (code, single, err) = cli(&["run", f, "--json", "--no-report", "--trials", "3000"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(merged, single);
    assert!(factors(&single) >= 1, "{single}");
    // The plain run's shard and the readings run's do not mix.
    let plain = dir.join("plain.json");
    let other = root().join("scenarios/draft/sword-and-shield-vs-greatsword.toml");
    let with = dir.join("with.json");
    let (code, _, err) = run_shard(&other, 1, 2, &plain, &["--trials", "2000"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run_shard(&other, 2, 2, &with, &["--trials", "2000", "--readings"]);
    assert_eq!(code, 0, "{err}");
    let err = refused_merge(&[&plain, &with]);
    assert!(err.contains("is a shard of another run"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
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

/// Runs shard `k`/`n` of `file` with `args`, writing `out`; returns (exit code, stdout,
/// stderr).
fn run_shard(file: &Path, k: u64, n: u64, out: &Path, args: &[&str]) -> (u8, String, String) {
    let shard = format!("{k}/{n}");
    let mut a = vec![
        "run",
        file.to_str().unwrap(),
        "--shard",
        &shard,
        "--shard-out",
        out.to_str().unwrap(),
    ];
    a.extend(args);
    cli(&a)
}

/// The JSON of a shard file.
fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// Writes `v` as a shard file at `path`; with `reseal`, with its checksum recomputed as
/// oddsmith computes it (SHA-256 of the compact JSON without the field), as a forger would.
fn write_json(path: &Path, mut v: serde_json::Value, reseal: bool) {
    use sha2::{Digest, Sha256};
    if reseal {
        let o = v.as_object_mut().unwrap();
        o.remove("checksum");
        let sum: String = Sha256::digest(serde_json::to_vec(&v).unwrap())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        v.as_object_mut()
            .unwrap()
            .insert("checksum".into(), sum.into());
    }
    std::fs::write(path, serde_json::to_vec(&v).unwrap()).unwrap();
}

/// Merges `files` and expects a refusal: exit 2, nothing on stdout; returns stderr.
fn refused_merge(files: &[&Path]) -> String {
    let mut a = vec!["merge", "--no-report"];
    a.extend(files.iter().map(|p| p.to_str().unwrap()));
    let (code, out, err) = cli(&a);
    assert_eq!((code, out.as_str()), (2, ""), "{files:?}: {err}");
    err
}

/// Edited counts, an edited histogram digit, a relabelled shard, an edited scenario text, an
/// old format version and totals that do not add up (with the checksum recomputed): each is
/// refused with exit 2, naming the file and what is wrong; the untouched set merges.
#[test]
fn merge_refuses_forged_shards_naming_the_file_and_the_fault() {
    let dir = temp_dir("shard-forged");
    let file = root().join("scenarios/draft/reference-duels.toml");
    let args = ["--trials", "25000", "--seed", "4", "--no-exact"];
    let (s1, s2) = (dir.join("s1.json"), dir.join("s2.json"));
    for (k, p) in [(1, &s1), (2, &s2)] {
        let (code, _, err) = run_shard(&file, k, 2, p, &args);
        assert_eq!(code, 0, "{err}");
    }
    let good = read_json(&s1);
    assert_eq!(
        (good["version"].as_u64(), good["format"].as_str()),
        (Some(2), Some("oddsmith-shard"))
    );
    assert_eq!(good["checksum"].as_str().unwrap().len(), 64);
    let forged = dir.join("forged.json");
    let shown = forged.to_str().unwrap();
    let changed = format!(
        "{shown} was changed after oddsmith wrote it: its checksum does not match its content"
    );

    // 1,000 wins moved from B to A in the first matchup.
    let mut v = good.clone();
    let o = &mut v["units"][0]["stats"]["outcomes"];
    let (a, b) = (o["a_wins"].as_u64().unwrap(), o["b_wins"].as_u64().unwrap());
    assert!(b >= 1000, "{o}");
    o["a_wins"] = (a + 1000).into();
    o["b_wins"] = (b - 1000).into();
    write_json(&forged, v, false);
    let err = refused_merge(&[&forged, &s2]);
    assert!(err.contains(&changed), "{err}");
    assert!(err.contains("its wins of A by ending count"), "{err}");

    // One digit of the rounds histogram.
    let mut v = good.clone();
    let counts = v["units"][1]["stats"]["rounds"]["counts"]
        .as_array_mut()
        .unwrap();
    let bin = counts
        .iter()
        .position(|c| c.as_u64().unwrap() >= 10)
        .unwrap();
    let digits = counts[bin].to_string();
    let first = if digits.starts_with('1') { "2" } else { "1" };
    counts[bin] = format!("{first}{}", &digits[1..])
        .parse::<u64>()
        .unwrap()
        .into();
    write_json(&forged, v, false);
    let err = refused_merge(&[&s2, &forged]);
    assert!(err.contains(&changed), "{err}");
    assert!(err.contains("run 2 (duels of 25000 trials"), "{err}");
    assert!(err.contains("its histogram of rounds counts"), "{err}");

    // Shard 1 relabelled as shard 2 (and 2 as 1): a complete set, but both forged.
    let mut v = good.clone();
    v["shard"]["k"] = 2.into();
    write_json(&forged, v, false);
    let err = refused_merge(&[&forged]);
    assert!(err.contains(&changed), "{err}");
    assert!(err.contains("its shard label 2/2"), "{err}");

    // The embedded scenario edited (a fighter's skill).
    let mut v = good.clone();
    let text = v["scenario"].as_str().unwrap().to_string();
    let edited = text.replacen("skill = 6", "skill = 9", 1);
    assert_ne!(edited, text);
    v["scenario"] = edited.into();
    write_json(&forged, v, false);
    let err = refused_merge(&[&forged, &s2]);
    assert!(err.contains(&changed), "{err}");

    // A file of the previous format version (no checksum).
    let mut v = good.clone();
    v["version"] = 1.into();
    v.as_object_mut().unwrap().remove("checksum");
    write_json(&forged, v, false);
    let err = refused_merge(&[&s2, &forged]);
    assert!(
        err.contains(&format!(
            "{shown} is a shard file of format version 1, this oddsmith reads version 2"
        )),
        "{err}"
    );
    // A checksum removed.
    let mut v = good.clone();
    v.as_object_mut().unwrap().remove("checksum");
    write_json(&forged, v, false);
    let err = refused_merge(&[&forged, &s2]);
    assert!(err.contains("it has no \"checksum\""), "{err}");

    // Totals that do not add up, checksum recomputed: the wins moved without their endings.
    let mut v = good.clone();
    let o = &mut v["units"][0]["stats"]["outcomes"];
    o["a_wins"] = (a + 1000).into();
    o["b_wins"] = (b - 1000).into();
    write_json(&forged, v, true);
    let err = refused_merge(&[&forged, &s2]);
    assert!(
        err.contains(&format!(
            "{shown}: the counts of shard 1/2 do not add up: run 1 (duels of 25000 trials, \
             shard 1/2's share 15000): its wins of A by ending count {a} wins, not its {}",
            a + 1000
        )),
        "{err}"
    );
    // More duels than the shard ran, consistently (every count of the unit doubled).
    let mut v = good.clone();
    fn double(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Number(n) => *v = (n.as_u64().unwrap() * 2).into(),
            serde_json::Value::Array(a) => a.iter_mut().for_each(double),
            serde_json::Value::Object(o) => o.values_mut().for_each(double),
            _ => {}
        }
    }
    double(&mut v["units"][2]["stats"]);
    write_json(&forged, v, true);
    let err = refused_merge(&[&forged, &s2]);
    assert!(
        err.contains("run 3 (duels of 25000 trials, shard 1/2's share 15000): its wins of A, wins of B and draws"),
        "{err}"
    );
    assert!(err.contains("count 30000 duels"), "{err}");

    // Spacing is not content: the same file pretty-printed merges.
    std::fs::write(&forged, serde_json::to_vec_pretty(&good).unwrap()).unwrap();
    let (code, _, err) = cli(&["merge", "--no-report", shown, s2.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");

    // The untouched files merge.
    let (code, out, err) = cli(&[
        "merge",
        "--no-report",
        s2.to_str().unwrap(),
        s1.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The names of the files in `dir` that start with a dot (temporary files left behind).
fn hidden(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect()
}

/// `--shard-out` never replaces the scenario file (by path, through a link or a hard link), a
/// file that is not a shard file, a folder, or a shard file of another run or shard: exit 2
/// before any work, the file untouched. A rerun replaces its own shard file.
#[test]
fn shard_out_replaces_only_its_own_shard_file() {
    let dir = temp_dir("shard-out");
    let scenario = dir.join("duels.toml");
    let text = std::fs::read(root().join("scenarios/draft/reference-duels.toml")).unwrap();
    std::fs::write(&scenario, &text).unwrap();
    let args = ["--trials", "20000", "--no-exact"];
    let refused = |out: &Path, why: &str| {
        // A billion trials each: a refusal after any work would not come back soon.
        let (code, stdout, err) = run_shard(
            &scenario,
            1,
            2,
            out,
            &["--trials", "1000000000", "--no-exact", "--yes"],
        );
        assert_eq!((code, stdout.as_str()), (2, ""), "{err}");
        assert!(
            err.contains(&format!("--shard-out {}", out.display())),
            "{err}"
        );
        assert!(err.contains(why), "{err}");
        err
    };
    let err = refused(&scenario, "is the scenario file");
    assert!(
        err.contains("a shard file never replaces its input"),
        "{err}"
    );
    assert_eq!(std::fs::read(&scenario).unwrap(), text);
    #[cfg(unix)]
    {
        let link = dir.join("link.json");
        std::os::unix::fs::symlink(&scenario, &link).unwrap();
        refused(&link, "is the scenario file");
        let hard = dir.join("hard.json");
        std::fs::hard_link(&scenario, &hard).unwrap();
        refused(&hard, "is the scenario file");
        let dangling = dir.join("dangling.json");
        std::os::unix::fs::symlink(dir.join("nowhere"), &dangling).unwrap();
        refused(&dangling, "is a link to nothing usable");
        assert_eq!(std::fs::read(&scenario).unwrap(), text);
    }
    let notes = dir.join("notes.json");
    std::fs::write(&notes, "{\"mine\": true}").unwrap();
    refused(&notes, "exists and is not a shard file");
    assert_eq!(std::fs::read(&notes).unwrap(), b"{\"mine\": true}");
    refused(&dir, "exists and is not a file");
    let (code, _, err) = run_shard(&scenario, 1, 2, &dir.join("no/such/folder/s.json"), &args);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot use the folder"), "{err}");

    // Shard files: of this run and shard (replaced), of another shard or run (refused).
    let s1 = dir.join("s1.json");
    let (code, out, err) = run_shard(&scenario, 1, 2, &s1, &args);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!("→ {}", s1.display())), "{out}");
    let first = std::fs::read(&s1).unwrap();
    std::fs::write(
        &s1,
        b"{\"format\":\"oddsmith-shard\",\"run\":\"0\",\"shard\":{\"k\":1,\"n\":2}}",
    )
    .unwrap();
    let (code, _, err) = run_shard(&scenario, 1, 2, &s1, &args);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is a shard file of another run"), "{err}");
    std::fs::write(&s1, &first).unwrap();
    let (code, _, err) = run_shard(&scenario, 2, 2, &s1, &args);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is shard 1/2 of this run, not 2/2"), "{err}");
    let (code, _, err) = run_shard(
        &scenario,
        1,
        2,
        &s1,
        &["--trials", "20000", "--no-exact", "--seed", "8"],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is a shard file of another run"), "{err}");
    assert_eq!(std::fs::read(&s1).unwrap(), first);
    // The rerun replaces its own file (the same bytes: the same run), through a link too.
    let (code, _, err) = run_shard(&scenario, 1, 2, &s1, &args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read(&s1).unwrap(), first);
    #[cfg(unix)]
    {
        let to_s1 = dir.join("to-s1.json");
        std::os::unix::fs::symlink(&s1, &to_s1).unwrap();
        let (code, _, err) = run_shard(&scenario, 1, 2, &to_s1, &args);
        assert_eq!(code, 0, "{err}");
        assert!(
            std::fs::symlink_metadata(&to_s1)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(&s1).unwrap(), first);
    }
    let s2 = dir.join("s2.json");
    let (code, _, err) = run_shard(&scenario, 2, 2, &s2, &args);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = cli(&[
        "merge",
        "--no-report",
        s1.to_str().unwrap(),
        s2.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(hidden(&dir).is_empty(), "left behind: {:?}", hidden(&dir));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--trials` overrides the file's precision target for `run` and for `--shard` alike, so a
/// precision file shards, and the merge gives the single run's output with the same flags.
#[test]
fn trials_override_a_precision_file_and_its_shards_merge_to_the_single_run() {
    let file = root().join("scenarios/draft/skill-gap.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("\nprecision = "),
        "the file sets a precision target"
    );
    let (code, out, err) = cli(&["run", file.to_str().unwrap(), "--trials", "15000", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for m in v["matchups"].as_array().unwrap() {
        assert_eq!(m["trials"], 15000, "{m}");
        assert!(
            m.get("precision").is_none_or(serde_json::Value::is_null),
            "{m}"
        );
    }
    assert_shards_merge_to_the_single_run("draft/skill-gap.toml", &["--trials", "15000"], 3);
    // Without --trials it runs to the file's target: refused, saying what to give.
    let (code, _, err) = cli(&["run", file.to_str().unwrap(), "--shard", "1/2"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("runs to a precision target, which cannot be sharded"),
        "{err}"
    );
    assert!(err.contains("give --trials without --precision"), "{err}");
}

/// A group study (issue 39: a sweep over a member's count, a tournament of parties): its shards
/// merge to the single run, byte for byte, and one and two threads give the same output (the
/// `[balance]` over the count too, which runs in one job and so is left out of the shards).
#[test]
fn shards_and_threads_of_a_group_study_give_the_single_runs_numbers() {
    let path = root().join("scenarios/d20/party-vs-goblins.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let (from, to) = (
        text.find("# The goblin count where").unwrap(),
        text.find("# Parties as tournament entries").unwrap(),
    );
    let sharded = format!("{}{}", &text[..from], &text[to..]);
    assert!(!sharded.contains("[balance]") && sharded.contains("member = \"goblin\""));
    let dir = temp_dir("group-study");
    let file = dir.join("party-no-balance.toml");
    std::fs::write(&file, sharded).unwrap();
    for n in [2, 3] {
        assert_shards_merge_to_the_single_run(
            file.to_str().unwrap(),
            &["--trials", "6000", "--no-exact"],
            n,
        );
    }
    let run = |t: &str| {
        let (code, out, err) = cli(&[
            "run",
            path.to_str().unwrap(),
            "--trials",
            "6000",
            "--threads",
            t,
            "--json",
        ]);
        assert_eq!(code, 0, "{err}");
        out
    };
    let one = run("1");
    assert!(
        one.contains("\"b.goblin.count\"") && one.contains("goblin×4"),
        "{one}"
    );
    assert_eq!(one, run("2"));
    std::fs::remove_dir_all(&dir).unwrap();
}
