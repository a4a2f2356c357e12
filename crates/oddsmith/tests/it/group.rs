//! Group fights end to end: the `group` object of `--json` (a `members` list per side, exact
//! values where the solver answers), the terminal lines, and the report's section, charts and
//! tables.

use super::{cli, json, root, temp_dir};

#[test]
fn a_group_fight_reports_per_member_in_json_terminal_and_report() {
    let p = root().join("scenarios/d20/fighter-vs-two-goblins.toml");
    let p = p.to_str().unwrap();
    let (code, out, err) = cli(&["run", p, "--trials", "4000", "--seed", "3", "--json"]);
    assert_eq!(code, 0, "{err}");
    let doc = json(&out);
    let ms = doc["matchups"].as_array().unwrap();
    let groups: Vec<_> = ms.iter().filter(|m| !m["group"].is_null()).collect();
    // The one-against-one matchup is a duel: no group object.
    assert!(ms.iter().any(|m| m["group"].is_null()));
    assert!(!groups.is_empty(), "{out}");
    let g = &groups[0]["group"];
    let b = &g["sides"][1];
    assert_eq!(b["creatures"], 2);
    let members = b["members"].as_array().unwrap();
    assert_eq!(members.len(), 1);
    assert_eq!(members[0]["fighter"], "goblin");
    assert_eq!(members[0]["count"], 2);
    // Exact P(down) beside the Monte Carlo one, within its interval's reach; all goblins down
    // exactly when A wins.
    let pd = &members[0]["p_down"];
    let (p_mc, x) = (pd["p"].as_f64().unwrap(), pd["exact"].as_f64().unwrap());
    assert!((p_mc - x).abs() < 0.05, "{pd}");
    let all = b["p_all_down"]["exact"].as_f64().unwrap();
    let a_wins = groups[0]["exact"]["p_a_win"].as_f64().unwrap();
    assert!((all - a_wins).abs() < 1e-9, "{all} vs {a_wins}");
    let down = b["down"].as_array().unwrap();
    assert_eq!(down.len(), 3);
    let sum: f64 = down.iter().map(|e| e["exact"].as_f64().unwrap()).sum();
    assert!((sum - 1.0).abs() < 1e-9);
    assert!(members[0]["damage_dealt"].as_f64().unwrap() > 0.0);
    assert!(members[0]["rounds_survived"].as_f64().unwrap() >= 1.0);

    // The terminal lines.
    let (code, out, _) = cli(&["run", p, "--trials", "4000", "--seed", "3"]);
    assert_eq!(code, 0);
    assert!(out.contains("group figures"), "{out}");
    assert!(out.contains("at least one down"), "{out}");

    // The report: section, charts, tables.
    let dir = temp_dir("group-report");
    let folder = dir.join("g");
    let (code, _, err) = cli(&[
        "run",
        p,
        "--trials",
        "3000",
        "--seed",
        "1",
        "--out",
        folder.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let html = std::fs::read_to_string(folder.join("report.html")).unwrap();
    assert!(html.contains("Group fights"));
    let charts: Vec<String> = std::fs::read_dir(folder.join("charts"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    for stem in ["group-survival-1", "group-down-1"] {
        assert!(
            charts.iter().any(|c| c.starts_with(stem)),
            "{stem}: {charts:?}"
        );
    }
    for t in ["group_members", "group_down"] {
        let csv = std::fs::read_to_string(folder.join(format!("tables/{t}.csv"))).unwrap();
        assert!(csv.lines().count() > 1, "{t}: {csv}");
        assert!(folder.join(format!("tables/{t}.parquet")).exists());
    }
    let members = std::fs::read_to_string(folder.join("tables/group_members.csv")).unwrap();
    assert!(members.contains("goblin"), "{members}");
}
