//! Writing report folders: concurrent writes of one folder never mix two runs, and a
//! destination that is a symbolic link is refused, not replaced or written through.

use std::path::{Path, PathBuf};

use oddsmith_report::{ReportError, check_destination, write_report};

use crate::study::report;

/// A fresh, empty temporary folder for one test.
fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "oddsmith-report-write-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The seed of the run a report folder was written from, read from report.json and from each
/// table that has a seed column; panics when they disagree (a mixed folder).
fn seed_of(dir: &Path) -> u64 {
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    let seed = json["seed"].as_u64().unwrap();
    let mut tables = 0;
    for e in std::fs::read_dir(dir.join("tables")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "csv") {
            continue;
        }
        let csv = std::fs::read_to_string(&p).unwrap();
        let mut lines = csv.lines();
        let head: Vec<&str> = lines.next().unwrap().split(',').collect();
        let Some(col) = head.iter().position(|h| *h == "seed") else {
            continue;
        };
        tables += 1;
        for l in lines {
            assert_eq!(
                l.split(',').nth(col),
                Some(seed.to_string().as_str()),
                "{} is from another run than report.json (seed {seed})",
                p.display()
            );
        }
    }
    assert!(tables > 0, "no table with a seed column");
    seed
}

#[test]
fn six_writes_of_one_folder_at_once_leave_one_whole_report() {
    let dir = temp("concurrent");
    let out = dir.join("rep");
    for round in 0..3 {
        let handles: Vec<_> = (0..6u64)
            .map(|i| {
                let out = out.clone();
                std::thread::spawn(move || {
                    let mut d = report(None);
                    d.run.seed = 100 * round + i;
                    write_report(&out, &d).map(|_| d.run.seed)
                })
            })
            .collect();
        let seeds: Vec<u64> = handles
            .into_iter()
            .map(|h| h.join().unwrap().expect("every write succeeds"))
            .collect();
        let final_seed = seed_of(&out);
        assert!(seeds.contains(&final_seed), "{final_seed} in {seeds:?}");
        // No temporary folder is left beside the report.
        let left: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n != "rep")
            .collect();
        assert!(left.is_empty(), "left behind: {left:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn a_symlinked_destination_is_refused_and_left_alone() {
    let dir = temp("symlink");
    let real = dir.join("real");
    let d = report(None);
    write_report(&real, &d).unwrap();
    let before = std::fs::read(real.join("report.json")).unwrap();
    let link = dir.join("latest");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let mut d2 = report(None);
    d2.run.seed = 99;
    for e in [
        check_destination(&link, &d2.run.scenario).unwrap_err(),
        write_report(&link, &d2).unwrap_err(),
    ] {
        assert!(matches!(e, ReportError::Symlink { .. }), "{e}");
        let msg = e.to_string();
        assert!(
            msg.contains("is a symbolic link") && msg.contains("real"),
            "{msg}"
        );
    }
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read(real.join("report.json")).unwrap(), before);
    // A dangling link is refused too (not replaced by a folder).
    let dangling = dir.join("gone");
    std::os::unix::fs::symlink(dir.join("nowhere"), &dangling).unwrap();
    assert!(matches!(
        write_report(&dangling, &d2),
        Err(ReportError::Symlink { .. })
    ));
    assert!(!dir.join("nowhere").exists());
    // The folder itself is written as before.
    write_report(&real, &d2).unwrap();
    assert_eq!(seed_of(&real), 99);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A report folder gets a plain new folder's permissions (the umask's), not the owner-only
/// ones of a temporary folder.
#[test]
fn new_report_folders_have_ordinary_permissions() {
    let dir = temp("perms");
    let out = dir.join("rep");
    write_report(&out, &report(None)).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&out).unwrap().permissions().mode() & 0o777;
        let plain = {
            let p = dir.join("plain");
            std::fs::create_dir(&p).unwrap();
            std::fs::metadata(&p).unwrap().permissions().mode() & 0o777
        };
        assert_eq!(mode, plain, "{mode:o} vs a plain folder's {plain:o}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
