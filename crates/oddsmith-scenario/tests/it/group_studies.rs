//! Studies over group fights: a sweep or balance addresses a member of a side of its matchup
//! (`member = "goblin"`, `field = "count"`), and a tournament's entry may be a party.

use oddsmith_rules::d20::D20;
use oddsmith_scenario::{Scenario, Target, Value, load, variant};

const BASE: &str = r#"
name = "g"
ruleset = "d20"

[fighters.hero]
species = "human"
class = "fighter"
level = 3
str = 15
weapon = "long sword"
armor = "chain mail"

[fighters.goblin]
species = "goblin"
weapon = "short sword"
armor = "leather"
hp = 4
"#;

fn with(rest: &str) -> String {
    format!("{BASE}\n{rest}\n")
}

fn sweep(matchup: &str, axis: &str) -> String {
    with(&format!(
        "[[matchup]]\nname = \"m\"\n{matchup}\n\n[[sweep]]\n{axis}\nfrom = 1\nto = 3\n"
    ))
}

#[test]
fn a_sweep_changes_a_members_count_like_a_written_count() {
    for side in [
        "b = [{ fighter = \"goblin\", count = 2 }]",
        "b = \"goblin\"",
        "b = [\"goblin\"]",
    ] {
        let text = sweep(
            &format!("a = \"hero\"\n{side}"),
            "member = \"goblin\"\nfield = \"count\"",
        );
        let s: Scenario<D20> = load("g.toml", &text).unwrap();
        let axis = &s.study.sweeps[0].x;
        assert_eq!(
            axis.target,
            Target::Member {
                matchup: 0,
                side: "b".into(),
                index: 0,
                fighter: "goblin".into(),
                field: "count".into(),
            },
            "{side}"
        );
        assert_eq!(axis.target.to_string(), "b.goblin.count");
        assert_eq!(s.study.sweeps[0].name, "m over b.goblin.count");
        for k in 1..=3 {
            let v: Scenario<D20> = variant(
                "g.toml",
                &text,
                &[(
                    &axis.target,
                    Value::Num(oddsmith_scenario::Num::Int(k)),
                    &axis.origins[0],
                )],
            )
            .unwrap();
            let written: Scenario<D20> = load(
                "g.toml",
                &with(&format!(
                    "[[matchup]]\nname = \"m\"\na = \"hero\"\nb = [{{ fighter = \"goblin\", count = {k} }}]"
                )),
            )
            .unwrap();
            assert_eq!(
                v.matchups[0].matchup, written.matchups[0].matchup,
                "{side}, count {k}"
            );
        }
    }
}

#[test]
fn a_members_target_and_a_balance_over_count() {
    let text = with(
        "[[matchup]]\na = \"hero\"\nb = [{ fighter = \"goblin\", count = 2 }]\n\n[balance]\nmember = \"goblin\"\nfield = \"count\"\nrange = [1, 4]\ntarget = 0.8\n\n[[sweep]]\nmember = \"goblin\"\nfield = \"target\"\nvalues = [\"lowest_hp\", \"random\"]\n",
    );
    let s: Scenario<D20> = load("g.toml", &text).unwrap();
    let b = s.study.balance.as_ref().unwrap();
    assert!(b.integer);
    assert!(matches!(
        &b.subject,
        oddsmith_scenario::BalanceSubject::Duel { target: Target::Member { field, .. }, .. } if field == "count"
    ));
    let axis = &s.study.sweeps[0].x;
    let v: Scenario<D20> = variant(
        "g.toml",
        &text,
        &[(&axis.target, Value::Text("random".into()), &axis.origins[1])],
    )
    .unwrap();
    assert_eq!(
        v.matchups[0].matchup.f[1].target,
        oddsmith_rules::group::Target::Random
    );
}

#[test]
fn a_members_other_field_is_its_fighters() {
    let text = sweep(
        "a = \"hero\"\nb = [{ fighter = \"goblin\", count = 2 }]",
        "member = \"b.goblin\"\nfield = \"hp\"",
    );
    let s: Scenario<D20> = load("g.toml", &text).unwrap();
    assert_eq!(
        s.study.sweeps[0].x.target,
        Target::Fighter {
            fighter: "goblin".into(),
            field: "hp".into()
        }
    );
}

/// Every mistake in addressing a member is located at its key and says what to write.
#[test]
fn member_mistakes_are_located_with_did_you_mean() {
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "a = \"hero\"\nb = [{ fighter = \"goblin\", count = 2 }]",
            "member = \"gobiln\"\nfield = \"count\"",
            "sweep[0].member",
            "did you mean \"goblin\"",
        ),
        (
            "a = [{ fighter = \"goblin\", count = 2 }]\nb = [{ fighter = \"goblin\", count = 3 }]",
            "member = \"goblin\"\nfield = \"count\"",
            "sweep[0].member",
            "member = \"a.goblin\" or \"b.goblin\"",
        ),
        (
            "a = \"goblin\"\nb = [{ fighter = \"goblin\", count = 3 }]",
            "member = \"b.goblin\"\nfield = \"hp\"",
            "sweep[0].field",
            "fights on both sides",
        ),
        (
            "a = \"hero\"\nb = \"goblin\"",
            "member = \"goblin\"\nfighter = \"hero\"\nfield = \"count\"",
            "sweep[0].fighter",
            "not both",
        ),
        (
            "a = \"hero\"\nb = \"goblin\"",
            "member = \"goblin\"",
            "sweep[0].member",
            "`member` needs `field",
        ),
        (
            "a = \"hero\"\nb = \"goblin\"",
            "field = \"count\"",
            "sweep[0].field",
            "or `member = \\\"NAME\\\"`",
        ),
        (
            "a = \"hero\"\nb = [{ fighter = \"goblin\", count = 2 }]",
            "member = \"goblin\"\nfield = \"count.x\"",
            "sweep[0].field",
            "one value",
        ),
    ];
    for (matchup, axis, field, needle) in cases {
        let e = load::<D20>("g.toml", &sweep(matchup, axis)).unwrap_err();
        assert_eq!(e.field, *field, "{axis}: {e}");
        let needle = needle.replace("\\\"", "\"");
        assert!(e.message.contains(&needle), "{axis}: {e}");
    }
    // A count the rules refuse is placed at the sweep's value, naming the member.
    let text = sweep(
        "a = \"hero\"\nb = [{ fighter = \"goblin\", count = 2 }]",
        "member = \"goblin\"\nfield = \"count\"",
    )
    .replace("to = 3", "to = 9");
    let s: Scenario<D20> = load("g.toml", &text).unwrap();
    let axis = &s.study.sweeps[0].x;
    let e = variant::<D20>(
        "g.toml",
        &text,
        &[(&axis.target, axis.values[8].clone(), &axis.origins[8])],
    )
    .unwrap_err();
    assert_eq!(e.field, "sweep[0].to", "{e}");
    assert!(e.message.starts_with("b.goblin.count = 9"), "{e}");
    assert!(e.message.contains("1–8"), "{e}");
    // The loader's own matchup (two fighters, none written) has no member to change.
    let e = load::<D20>(
        "g.toml",
        &with("[[sweep]]\nmember = \"goblin\"\nfield = \"count\"\nfrom = 1\nto = 2"),
    )
    .unwrap_err();
    assert!(e.message.contains("not written in the file"), "{e}");
}

#[test]
fn a_tournament_entry_may_be_a_party() {
    let text = with(
        "[tournament]\nfighters = [\"hero\", [{ fighter = \"goblin\", count = 3 }], [{ fighter = \"hero\", count = 2 }]]\n",
    );
    let s: Scenario<D20> = load("g.toml", &text).unwrap();
    let t = s.study.tournament.as_ref().unwrap();
    assert_eq!(t.fighters, ["hero", "goblin×3", "hero×2"]);
    let e = load::<D20>(
        "g.toml",
        &with("[tournament]\nfighters = [\"hero\", [{ fighter = \"gobiln\", count = 3 }]]\n"),
    )
    .unwrap_err();
    assert_eq!(e.field, "tournament.fighters[1][0].fighter", "{e}");
    assert!(e.message.contains("did you mean \"goblin\""), "{e}");
    let e = load::<D20>(
        "g.toml",
        &with("[tournament]\nfighters = [\"hero\", [{ fighter = \"goblin\", count = 9 }]]\n"),
    )
    .unwrap_err();
    assert!(e.field.starts_with("tournament.fighters[1][0]"), "{e}");
    assert!(e.message.contains("1–8"), "{e}");
    let e = load::<D20>(
        "g.toml",
        &with("[tournament]\nfighters = [\"hero\", [{ fighter = \"goblin\", count = 3 }]]\n[tournament.costs]\n\"goblin×2\" = 3\n"),
    )
    .unwrap_err();
    assert!(e.message.contains("did you mean \"goblin×3\""), "{e}");
}
