//! The warnings channel end to end (shards, sweeps, `oddsmith check`, `oddsmith rulesets`) and
//! the cards off-hand default (issue 32, items 2 and 3). The corpus (`corpus.rs`) checks each
//! dependency's place and words.

use super::{cli, json, temp_dir, write_temp};

/// A cards duel: `a` with `extra` (fighter lines), against a plain swordsman of skill 4.
fn duel(extra: &str, trials: u64) -> String {
    format!(
        "name = \"offhand\"\nruleset = \"cards\"\nseed = 11\ntrials = {trials}\n\n[fighters.a]\nskill = 4\nweapon = \"sword\"\n{extra}\n[fighters.b]\nskill = 4\nweapon = \"sword\"\n\n[[matchup]]\na = \"a\"\nb = \"b\"\n"
    )
}

/// P(A wins) of the file's one matchup, and the whole JSON.
fn p_a(name: &str, text: &str) -> (f64, serde_json::Value) {
    let p = write_temp(name, text);
    let (code, out, err) = cli(&["run", p.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    (v["matchups"][0]["p_a_win"].as_f64().unwrap(), v)
}

/// A second weapon given without its skill: the hand is the main weapon skill's (4 cards),
/// not 1 card as with the old default `off_hand_skill = 0`. On one seed the default gives the
/// very numbers of an explicit `off_hand_skill = 4`; against an equal swordsman the dagger no
/// no longer cuts the hand, while the old reading (skill 0) is far below (more than 20 points).
#[test]
fn an_off_hand_item_without_its_skill_uses_the_weapon_skill() {
    let n = 20_000;
    let (default, v) = p_a("offhand-default", &duel("off_hand = \"dagger\"\n", n));
    let (explicit, _) = p_a(
        "offhand-explicit",
        &duel("off_hand = \"dagger\"\noff_hand_skill = 4\n", n),
    );
    let (zero, _) = p_a(
        "offhand-zero",
        &duel("off_hand = \"dagger\"\noff_hand_skill = 0\n", n),
    );
    assert_eq!(default, explicit, "the default is the main weapon skill");
    assert!(default - zero > 0.2, "default {default}, skill 0 {zero}");
    // The report's facts say so: a hand of 4 cards.
    assert!(v.get("warnings").is_none(), "{v}");
    let p = write_temp("offhand-facts", &duel("off_hand = \"small shield\"\n", 200));
    let parent = temp_dir("offhand-facts-report");
    let dir = parent.join("report");
    let (code, _, err) = cli(&["run", p.to_str().unwrap(), "--out", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(md.contains("hand (cards per round)"), "{md}");
    let report = json(&std::fs::read_to_string(dir.join("report.json")).unwrap());
    assert!(report.get("warnings").is_none());
    std::fs::remove_dir_all(&parent).unwrap();
}

/// `oddsmith check` refuses a parameter the check's kind does not read (exit 2), naming the
/// parameter and the kind it needs; with that kind the same parameter is read.
#[test]
fn check_refuses_a_parameter_its_kind_does_not_read() {
    let (code, _, err) = cli(&["check", "cards", "skill=3", "parry_cards=2"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("parry_cards"), "{err}");
    assert!(err.contains("only with kind = \"register\""), "{err}");
    assert!(err.contains("kind is \"basic\""), "{err}");
    let (code, _, err) = cli(&["check", "cards", "kind=opposed", "skill=3", "edge=1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("only with kind = \"damage\""), "{err}");
    let (code, out, err) = cli(&[
        "check",
        "cards",
        "kind=register",
        "skill=3",
        "parry_cards=2",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.is_empty());
}

/// `oddsmith rulesets cards` shows each dependency as "only with …", and `--json` lists them
/// with their severity.
#[test]
fn rulesets_show_which_setting_needs_which() {
    let (code, out, _) = cli(&["rulesets", "cards"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("tactics.hold: only with tactics.wrestle = true"),
        "{out}"
    );
    assert!(out.contains("only with off_hand given"), "{out}");
    assert!(
        out.contains("only with deck = \"custom\" (else refused)"),
        "{out}"
    );
    let (code, out, _) = cli(&["rulesets", "cards", "--json"]);
    assert_eq!(code, 0);
    let v = json(&out);
    let find = |list: &str, field: &str| {
        v[list]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["field"] == field)
            .cloned()
            .unwrap_or_else(|| panic!("{field} not in {list}"))
    };
    assert_eq!(
        find("fighter_requires", "off_hand_skill")["severity"],
        "warning"
    );
    assert_eq!(find("option_requires", "custom_deck")["severity"], "error");
    assert_eq!(
        find("check_requires", "parry_cards")["only_with"],
        "only with kind = \"register\""
    );
    let (_, out, _) = cli(&["rulesets", "openrpg"]);
    assert!(out.contains("only with dodge = true"), "{out}");
}

const WARNED: &str = "name = \"warned\"\nruleset = \"cards\"\nseed = 5\ntrials = 400\n\n[fighters.a]\nskill = 4\nweapon = \"sword\"\ntactics = { hold = \"suffocate\" }\n\n[fighters.b]\nskill = 4\nweapon = \"sword\"\n\n[[matchup]]\na = \"a\"\nb = \"b\"\n";

/// A sweep reloads the scenario for every point: the file's warning is still given once.
#[test]
fn a_sweep_does_not_multiply_a_warning() {
    let text = format!(
        "{WARNED}\n[[sweep]]\nname = \"skill\"\nfighter = \"a\"\nfield = \"skill\"\nvalues = [2, 3, 4, 5, 6]\n"
    );
    let p = write_temp("warned-sweep", &text);
    let f = p.to_str().unwrap();
    let (code, _, err) = cli(&["validate", f]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(err.matches("warning: ").count(), 1, "{err}");
    let (code, out, err) = cli(&["run", f, "--json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(err.matches("warning: ").count(), 1, "{err}");
    let v = json(&out);
    assert_eq!(
        v["warnings"].as_array().unwrap().len(),
        1,
        "{}",
        v["warnings"]
    );
    assert_eq!(v["warnings"][0]["field"], "fighters.a.tactics.hold");
    assert_eq!(v["warnings"][0]["line"], 9);
}

/// The shard files embed the scenario: `merge` finds its warnings again, prints them before
/// the work and carries them in the merged JSON, as a single run does.
#[test]
fn shards_and_merge_carry_the_warnings() {
    let p = write_temp("warned-shards", WARNED);
    let dir = temp_dir("warned-shards-out");
    let f = p.to_str().unwrap();
    let (code, single, _) = cli(&["run", f, "--json"]);
    assert_eq!(code, 0);
    let mut shards = Vec::new();
    for k in 1..=2 {
        let out = dir.join(format!("s{k}.json"));
        let shard = format!("{k}/2");
        let (code, _, err) = cli(&[
            "run",
            f,
            "--shard",
            &shard,
            "--shard-out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        assert!(err.contains("warning: "), "shard {k}: {err}");
        shards.push(out.to_str().unwrap().to_string());
    }
    let (code, merged, err) = cli(&["merge", "--json", "--no-report", &shards[0], &shards[1]]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(err.matches("warning: ").count(), 1, "{err}");
    assert!(err.contains("fighters.a.tactics.hold"), "{err}");
    let (s, m) = (json(&single), json(&merged));
    assert_eq!(s["warnings"], m["warnings"]);
    assert_eq!(m["warnings"][0]["field"], "fighters.a.tactics.hold");
    std::fs::remove_dir_all(&dir).unwrap();
}
