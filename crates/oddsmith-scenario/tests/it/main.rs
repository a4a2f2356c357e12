//! Scenario loading through the public API: every bundled scenario loads, and bad input gives
//! an error naming the file, line:column, field path and what was expected.

use std::path::Path;

use oddsmith_rules::draft::Draft;
use oddsmith_scenario::{ScenarioError, load, ruleset_of};

mod group_studies;

const GOOD: &str = r#"
name = "t"
ruleset = "draft"
seed = 5

[fighters.knight]
skill = 6
weapon = "long sword"
shield = "small"
shield_skill = 5
armour = "chain"

[fighters.brute]
skill = 5
weapon = { name = "spear", impact = 2, aspect = "pointed", hands = 2, length = 4 }
armour = { protection = 2, movement = 0 }
"#;

fn err(text: &str) -> ScenarioError {
    ruleset_of("s.toml", text)
        .and_then(|_| load::<Draft>("s.toml", text))
        .unwrap_err()
}

#[track_caller]
fn expect(text: &str, line: usize, column: usize, field: &str, needle: &str) {
    let e = err(text);
    assert_eq!(
        (e.line, e.column, e.field.as_str()),
        (line, column, field),
        "{e}"
    );
    assert!(e.message.contains(needle), "{e}");
    assert!(
        e.to_string()
            .starts_with(&format!("s.toml:{line}:{column}: {field}")),
        "{e}"
    );
}

#[test]
fn good_scenario_loads_with_custom_kit_and_default_matchup() {
    assert_eq!(ruleset_of("s.toml", GOOD).unwrap(), "draft");
    let s = load::<Draft>("s.toml", GOOD).unwrap();
    assert_eq!(s.seed, Some(5));
    assert_eq!(s.matchups.len(), 1);
    assert_eq!(s.matchups[0].name, "brute vs knight");
    assert_eq!(s.fighters["brute"].weapon.stats.name, "spear");
}

struct Load<'a>(&'a str, &'a str);

impl oddsmith_rules::RulesetVisitor for Load<'_> {
    type Output = Result<usize, ScenarioError>;
    fn visit<R: oddsmith_rules::Ruleset>(self) -> Self::Output {
        // A study-only scenario (a tournament, checks) counts its study sections.
        load::<R>(self.0, self.1).map(|s| s.matchups.len() + usize::from(!s.study.is_empty()))
    }
}

#[test]
fn every_bundled_scenario_loads() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut n = 0;
    for sub in std::fs::read_dir(&dir).unwrap() {
        for f in std::fs::read_dir(sub.unwrap().path()).unwrap() {
            let p = f.unwrap().path();
            let text = std::fs::read_to_string(&p).unwrap();
            let name = p.display().to_string();
            if oddsmith_scenario::is_comparison(&text) {
                let c = oddsmith_scenario::load_comparison(&name, &text)
                    .unwrap_or_else(|e| panic!("{e}"));
                for part in &c.parts {
                    let m = oddsmith_rules::visit(&part.id, Load(&name, &part.text))
                        .unwrap()
                        .unwrap_or_else(|e| {
                            panic!(
                                "{}",
                                oddsmith_scenario::Comparison::relocate(&name, &text, part, e)
                            )
                        });
                    assert!(m > 0, "{name} [{}]", part.id);
                }
                n += 1;
                continue;
            }
            let id = ruleset_of(&name, &text).unwrap_or_else(|e| panic!("{e}"));
            let matchups = oddsmith_rules::visit(&id, Load(&name, &text))
                .unwrap()
                .unwrap_or_else(|e| panic!("{e}"));
            assert!(matchups > 0, "{name}");
            n += 1;
        }
    }
    assert!(n >= 4);
}

#[test]
fn unknown_fighter_field() {
    let t = GOOD.replace("shield_skill = 5", "shield_skil = 5");
    expect(
        &t,
        10,
        1,
        "fighters.knight.shield_skil",
        "unknown field `shield_skil`",
    );
}

#[test]
fn unknown_weapon_name() {
    let t = GOOD.replace("\"long sword\"", "\"long swrd\"");
    expect(
        &t,
        8,
        10,
        "fighters.knight.weapon",
        "unknown weapon \"long swrd\"",
    );
}

#[test]
fn skill_out_of_range() {
    let t = GOOD.replace("skill = 6", "skill = 42");
    expect(
        &t,
        7,
        9,
        "fighters.knight.skill",
        "42 is out of range: expected an integer from 0 to 30",
    );
}

#[test]
fn wrong_type() {
    let t = GOOD.replace("skill = 6", "skill = \"six\"");
    expect(
        &t,
        7,
        9,
        "fighters.knight.skill",
        "expected a whole number, got text \"six\"",
    );
}

#[test]
fn names_get_did_you_mean() {
    let t = GOOD.replace("skill = 6", "skil = 6");
    expect(
        &t,
        7,
        1,
        "fighters.knight.skil",
        "unknown field `skil`; did you mean `skill`?",
    );
    let t = GOOD.replace("shield_skill = 5", "sheild_skill = 5");
    expect(
        &t,
        10,
        1,
        "fighters.knight.sheild_skill",
        "unknown field `sheild_skill`; did you mean `shield_skill`?",
    );
    let t = GOOD.replace("\"long sword\"", "\"lnog sword\"");
    expect(
        &t,
        8,
        10,
        "fighters.knight.weapon",
        "unknown weapon \"lnog sword\"; did you mean \"long sword\"?",
    );
    let t = format!("{GOOD}\n[options]\nend_conditon = \"death\"\n");
    expect(
        &t,
        19,
        1,
        "options.end_conditon",
        "did you mean `end_condition`?",
    );
    let t = format!("{GOOD}\n[options]\nend_condition = \"deat\"\n");
    expect(
        &t,
        19,
        17,
        "options.end_condition",
        "unknown value \"deat\"; did you mean \"death\"?",
    );
}

#[test]
fn shield_with_two_handed_weapon_is_located() {
    let t = GOOD.replace(
        "armour = { protection = 2, movement = 0 }",
        "shield = \"large\"",
    );
    expect(&t, 16, 10, "fighters.brute.shield", "one-handed weapon");
}

#[test]
fn unknown_option_and_bad_option_value() {
    let t = format!("{GOOD}\n[options]\nwound_stacking = true\n");
    expect(
        &t,
        19,
        1,
        "options.wound_stacking",
        "unknown field `wound_stacking`",
    );
    let t = format!("{GOOD}\n[options]\nend_condition = \"surrender\"\n");
    expect(
        &t,
        19,
        17,
        "options.end_condition",
        "unknown value \"surrender\"; expected one of: incapacitated, death",
    );
    let t = format!("{GOOD}\n[options]\nmax_actions_per_round = 5\n");
    expect(
        &t,
        19,
        25,
        "options.max_actions_per_round",
        "5 is out of range: expected an integer from 1 to 3",
    );
}

#[test]
fn nested_option_bound_is_located_at_its_key() {
    let t = format!("{GOOD}\n[options]\nwound_penalties = {{ light = -300 }}\n");
    expect(
        &t,
        19,
        29,
        "options.wound_penalties.light",
        "-300 is out of range: expected an integer from -50 to 50",
    );
    let t = format!("{GOOD}\n[options]\nshield_bonus = {{ small = 1, large = 11 }}\n");
    expect(
        &t,
        19,
        37,
        "options.shield_bonus.large",
        "11 is out of range: expected an integer from -10 to 10",
    );
}

#[test]
fn openrpg_fighter_bound_is_located_at_its_key() {
    use oddsmith_rules::openrpg::OpenRpg;
    let text = "name = \"t\"\nruleset = \"openrpg\"\n\n[fighters.a]\nweapon = \"longsword\"\nagility = 99\n\n[fighters.b]\nweapon = { damage = \"str+22\", crit_range = 21 }\n";
    let e = load::<OpenRpg>("s.toml", text).unwrap_err();
    assert_eq!(
        (e.line, e.column, e.field.as_str()),
        (6, 11, "fighters.a.agility"),
        "{e}"
    );
    assert!(
        e.to_string()
            .contains("99 is out of range: expected an integer from 0 to 30"),
        "{e}"
    );
    let e = load::<OpenRpg>("s.toml", &text.replace("agility = 99", "")).unwrap_err();
    assert_eq!(
        (e.line, e.column, e.field.as_str()),
        (9, 44, "fighters.b.weapon.crit_range"),
        "{e}"
    );
}

#[test]
fn nested_option_given_in_part_keeps_the_other_defaults() {
    let t = format!("{GOOD}\n[options]\nshield_bonus = {{ large = 1 }}\n");
    let s = load::<Draft>("s.toml", &t).unwrap();
    assert_eq!(
        (s.options.shield_bonus.small, s.options.shield_bonus.large),
        (1, 1)
    );
}

#[test]
fn matchup_with_unknown_fighter() {
    let t = format!("{GOOD}\n[[matchup]]\na = \"knight\"\nb = \"brutus\"\n");
    expect(
        &t,
        20,
        5,
        "matchup[0].b",
        "unknown fighter \"brutus\"; did you mean \"brute\"?",
    );
}

#[test]
fn unknown_ruleset_and_syntax_error() {
    let t = GOOD.replace("ruleset = \"draft\"", "ruleset = \"dnd\"");
    expect(&t, 3, 11, "ruleset", "unknown ruleset \"dnd\"");
    let t = GOOD.replace("seed = 5", "seed = = 5");
    let e = err(&t);
    assert_eq!((e.line, e.field.as_str()), (4, ""), "{e}");
}

#[test]
fn unknown_top_level_key_and_bad_precision() {
    let t = GOOD.replace("seed = 5", "seeds = 5");
    expect(&t, 4, 1, "seeds", "unknown field `seeds`");
    let t = GOOD.replace("seed = 5", "precision = 0.7");
    expect(&t, 4, 13, "precision", "between 0 and 0.5");
}

#[test]
fn three_fighters_need_matchups() {
    let t = format!("{GOOD}\n[fighters.third]\nskill = 1\nweapon = \"dagger\"\n");
    let e = err(&t);
    assert!(e.message.contains("no [[matchup]]"), "{e}");
}

#[test]
fn study_sections_come_in_report_order_with_their_counts() {
    use oddsmith_scenario::{Section, SectionKind};
    let text = GOOD.to_string()
        + r#"
[[assert]]
p_a_win = [0, 1]

[[check]]
name = "hard"
params = { skill = 5, difficulty = "hard" }

[[sweep]]
fighter = "knight"
field = "skill"
values = [4, 5]

[[check]]
name = "easy"
params = { skill = 5, difficulty = "easy" }

[tournament]
"#;
    let s = load::<Draft>("s.toml", &text).unwrap();
    let kinds: Vec<SectionKind> = s.study.sections().map(|x| x.kind()).collect();
    use SectionKind::*;
    assert_eq!(kinds, [Sweep, Tournament, Check, Check, Assert]);
    let checks: Vec<(usize, &str)> = s
        .study
        .sections()
        .filter_map(|x| match x {
            Section::Check(i, c) => Some((i, c.name.as_str())),
            _ => None,
        })
        .collect();
    assert_eq!(checks, [(0, "hard"), (1, "easy")]);
    assert_eq!(
        s.study.counts(),
        [(Sweep, 1), (Tournament, 1), (Check, 2), (Assert, 1)]
    );
    let allowed: Vec<SectionKind> = [Sweep, Balance, Tournament, Check, Assert]
        .into_iter()
        .filter(|k| k.allowed_in_comparison_part())
        .collect();
    assert_eq!(allowed, [Check]);
    assert!(!s.study.is_empty());
    assert!(load::<Draft>("s.toml", GOOD).unwrap().study.is_empty());
}

const VARIANTS: &str = r#"name = "house"
trials = 1000
[compare]
[variants.book]
ruleset = "draft"
options = { shield_bonus = { small = 1, large = 2 }, wound_overflow = "keep" }
[variants.book.fighters.a]
skill = 6
weapon = "long sword"
[variants.book.fighters.b]
skill = 5
weapon = "mace"
[variants.house]
ruleset = "draft"
from = "book"
options = { shield_bonus = { large = 3 } }
[variants.house.fighters.b]
skill = 7
"#;

#[test]
fn variants_of_one_ruleset_build_on_each_other() {
    let c = oddsmith_scenario::load_comparison("c.toml", VARIANTS).unwrap();
    let names: Vec<(&str, &str, bool)> = c
        .parts
        .iter()
        .map(|p| (p.name.as_str(), p.id.as_str(), p.variant))
        .collect();
    assert_eq!(names, [("book", "draft", true), ("house", "draft", true)]);
    let house: toml::Table = toml::from_str(&c.parts[1].text).unwrap();
    // Tables merged key by key: `large` changed, `small` and the other option kept; fighter b's
    // skill changed, its weapon kept; fighter a copied whole.
    assert_eq!(house["name"].as_str(), Some("house/house"));
    assert_eq!(house["ruleset"].as_str(), Some("draft"));
    assert!(!house.contains_key("from"));
    let o = &house["options"];
    assert_eq!(o["shield_bonus"]["small"].as_integer(), Some(1));
    assert_eq!(o["shield_bonus"]["large"].as_integer(), Some(3));
    assert_eq!(o["wound_overflow"].as_str(), Some("keep"));
    let b = &house["fighters"]["b"];
    assert_eq!(b["skill"].as_integer(), Some(7));
    assert_eq!(b["weapon"].as_str(), Some("mace"));
    assert_eq!(house["fighters"]["a"]["skill"].as_integer(), Some(6));
    // Each part loads as a scenario of its ruleset.
    let s: oddsmith_scenario::Scenario<Draft> = load("c.toml", &c.parts[1].text).unwrap();
    assert_eq!(s.fighters.len(), 2);
}

#[test]
fn variant_mistakes_are_located() {
    let at = |text: &str| oddsmith_scenario::load_comparison("c.toml", text).unwrap_err();
    let e = at(&VARIANTS.replace("from = \"book\"", "from = \"boko\""));
    assert!(
        e.field == "variants.house.from"
            && e.message
                .contains("unknown variant \"boko\"; did you mean \"book\"?"),
        "{e}"
    );
    let e = at(&VARIANTS.replace("ruleset = \"draft\"\nfrom", "from"));
    assert!(
        e.field == "variants.house" && e.message.contains("ruleset = \"ID\""),
        "{e}"
    );
    let e = at(&VARIANTS.replace(
        "[variants.book]\nruleset = \"draft\"",
        "[variants.book]\nruleset = \"draft\"\nfrom = \"house\"",
    ));
    assert!(e.message.contains("circle"), "{e}");
    let e = at(&VARIANTS.replace("ruleset = \"draft\"\nfrom", "ruleset = \"d20\"\nfrom"));
    assert!(e.message.contains("builds on"), "{e}");
    let e = at(&format!(
        "{}[rulesets.draft]\n",
        VARIANTS.replace("variants.house", "variants.draft")
    ));
    assert!(e.message.contains("has this name already"), "{e}");
}

#[test]
fn assert_bounds_written_in_percent_are_refused() {
    let t = format!("{GOOD}\n[[assert]]\np_a_win = [0, 60]\n");
    let line = t.lines().position(|l| l.starts_with("p_a_win")).unwrap() + 1;
    expect(
        &t,
        line,
        11,
        "assert[0].p_a_win",
        "a probability lies between 0 and 1, got [0, 60]; for percentages write fractions, e.g. [0, 0.6]",
    );
    let t = format!("{GOOD}\n[[assert]]\np_draw = [-0.1, 0.2]\n");
    assert!(err(&t).message.contains("between 0 and 1"), "{}", err(&t));
    let t = format!("{GOOD}\n[[assert]]\nrounds_mean = [1, 60]\n");
    load::<Draft>("s.toml", &t).unwrap();
}

#[test]
fn duplicate_matchup_names_are_refused() {
    let t = format!(
        "{GOOD}\n[[matchup]]\nname = \"m\"\na = \"knight\"\nb = \"brute\"\n\n[[matchup]]\nname = \"m\"\na = \"brute\"\nb = \"knight\"\n"
    );
    let lines: Vec<&str> = t.lines().collect();
    let line = lines.iter().rposition(|l| *l == "name = \"m\"").unwrap() + 1;
    expect(
        &t,
        line,
        8,
        "matchup[1].name",
        "matchup[0] is already called \"m\"",
    );
    // Unnamed matchups are named "a vs b": the same pair twice collides too.
    let t = format!(
        "{GOOD}\n[[matchup]]\na = \"knight\"\nb = \"brute\"\n\n[[matchup]]\na = \"knight\"\nb = \"brute\"\n"
    );
    assert!(
        err(&t)
            .message
            .contains("already called \"knight vs brute\""),
        "{}",
        err(&t)
    );
}

/// Group fights: a side is a fighter's name or a list of members.
mod groups {
    use oddsmith_rules::Ruleset;
    use oddsmith_rules::d20::D20;
    use oddsmith_scenario::load;

    const BASE: &str = r#"
name = "g"
ruleset = "d20"

# The digest's §7.9 oracle reads a creature's Defense with Dex and armour added.
[options]
creature_defense = "modified"

[fighters.fighter]
species = "human"
class = "fighter"
level = 1
str = 16
dex = 13
con = 14
weapon = "long sword"
armor = "chain mail"
shield = "medium shield"
hp = 11

[fighters.goblin]
species = "goblin"
weapon = "short sword"
armor = "leather"
shield = "small shield"
hp = 4

[fighters.goblins]
species = "goblin"
weapon = "short sword"
armor = "leather"
shield = "small shield"
hp = 4
count = 2
"#;

    fn with(matchup: &str) -> String {
        format!("{BASE}\n[[matchup]]\n{matchup}\n")
    }

    #[test]
    fn a_list_of_members_is_the_old_count() {
        let s = load::<D20>(
            "g.toml",
            &with("a = \"fighter\"\nb = [{ fighter = \"goblin\", count = 2 }]"),
        )
        .unwrap();
        let old = load::<D20>("g.toml", &with("a = \"fighter\"\nb = \"goblins\"")).unwrap();
        assert_eq!(s.matchups[0].matchup, old.matchups[0].matchup);
        assert_eq!(s.matchups[0].name, "fighter vs goblin×2");
        assert!(s.notes.is_empty(), "{:?}", s.notes);
        // The old form still works, with a note pointing at the new one.
        assert!(
            old.notes
                .iter()
                .any(|n| n.contains("b = [{ fighter = \"goblins\", count = 2 }]")),
            "{:?}",
            old.notes
        );
        let x = s.ruleset.exact(&s.matchups[0].matchup).unwrap();
        assert!((x.p_a_win - 0.935758).abs() < 1.5e-6, "{}", x.p_a_win);
    }

    #[test]
    fn a_one_member_side_is_the_duel_bit_for_bit() {
        let g = load::<D20>(
            "g.toml",
            &with("a = [\"fighter\"]\nb = [{ fighter = \"goblin\" }]"),
        )
        .unwrap();
        let d = load::<D20>("g.toml", &with("a = \"fighter\"\nb = \"goblin\"")).unwrap();
        // The same compiled matchup (nothing sorted, nothing to pick): the same duel, dice
        // for dice, and the same exact answer.
        let (mg, md) = (&g.matchups[0].matchup, &d.matchups[0].matchup);
        assert_eq!(mg, md);
        assert_eq!(mg.canonical, [false, false]);
        let (x, y) = (g.ruleset.exact(mg).unwrap(), d.ruleset.exact(md).unwrap());
        assert_eq!(x.p_a_win.to_bits(), y.p_a_win.to_bits());
    }

    #[test]
    fn errors_at_the_members_key() {
        let e = load::<D20>(
            "g.toml",
            &with("a = \"fighter\"\nb = [{ fighter = \"gobiln\", count = 2 }]"),
        )
        .unwrap_err();
        assert!(e.field.starts_with("matchup[0].b[0].fighter"), "{e}");
        assert!(e.message.contains("did you mean \"goblin\""), "{e}");
        let e = load::<D20>(
            "g.toml",
            &with("a = \"fighter\"\nb = [{ fighter = \"goblin\", count = 9 }]"),
        )
        .unwrap_err();
        assert!(e.field.starts_with("matchup[0].b[0]"), "{e}");
        assert!(e.message.contains("1–8"), "{e}");
        // Eight creatures in all, and no more.
        let e = load::<D20>(
            "g.toml",
            &with("a = \"fighter\"\nb = [{ fighter = \"goblin\", count = 5 }, { fighter = \"fighter\", count = 4 }]"),
        )
        .unwrap_err();
        assert!(e.field.starts_with("matchup[0].b[1]"), "{e}");
        assert!(e.message.contains("at most 8"), "{e}");
        let e = load::<D20>(
            "g.toml",
            &with("a = \"fighter\"\nb = [{ fighter = \"goblin\", cuont = 2 }]"),
        )
        .unwrap_err();
        assert!(e.to_string().contains("cuont"), "{e}");
        let e = load::<D20>("g.toml", &with("a = \"fighter\"\nb = []")).unwrap_err();
        assert!(e.message.contains("empty side"), "{e}");
        let e = load::<D20>(
            "g.toml",
            &with("a = \"fighter\"\nb = [{ fighter = \"goblin\", target = \"weakest\" }]"),
        )
        .unwrap_err();
        assert!(e.to_string().contains("lowest_hp"), "{e}");
    }

    /// Mixed members on a d20 side (issue 39): each member keeps its statistics, count and
    /// target policy, and the fight runs.
    #[test]
    fn mixed_members_load_and_fight() {
        let s = load::<D20>(
            "g.toml",
            &with("a = [\"fighter\", { fighter = \"goblin\", target = \"random\" }]\nb = [{ fighter = \"goblin\", count = 2 }, \"fighter\"]"),
        )
        .unwrap();
        let m = &s.matchups[0].matchup;
        assert!(m.mixed);
        assert_eq!(m.n, [2, 3]);
        assert_eq!(
            m.members[0][1].target,
            oddsmith_rules::group::Target::Random
        );
        assert_eq!(m.member_of[1][..3], [0, 0, 1]);
        let roster = s.ruleset.roster(m);
        assert_eq!(roster.sides[1].members, 2);
        assert_eq!(roster.sides[1].count(0), 2);
    }

    #[test]
    fn a_members_target_policy_reaches_the_fight() {
        let s = load::<D20>("g.toml", &with("a = [{ fighter = \"fighter\", target = \"highest_hp\" }]\nb = [{ fighter = \"goblin\", count = 2 }]")).unwrap();
        assert_eq!(
            s.matchups[0].matchup.f[0].target,
            oddsmith_rules::group::Target::HighestHp
        );
    }
}

/// Cards sides as member lists (issue 39): mixed members and bands on both sides load; each
/// member is compiled at its own key; a side over four is refused at the member that brings it
/// over, a count out of range at its member.
mod card_groups {
    use oddsmith_rules::cards::Cards;
    use oddsmith_scenario::load;

    const BASE: &str = r#"
name = "g"
ruleset = "cards"

[fighters.hero]
skill = 4
weapon = "sword"

[fighters.bandit]
skill = 2
weapon = "dagger"

[fighters.captain]
skill = 3
weapon = "spear"
"#;

    fn with(matchup: &str) -> String {
        format!("{BASE}\n[[matchup]]\n{matchup}\n")
    }

    #[test]
    fn mixed_members_on_both_sides_load() {
        let s = load::<Cards>(
            "g.toml",
            &with("a = [\"hero\", { fighter = \"bandit\", target = \"first\" }]\nb = [{ fighter = \"bandit\", count = 2 }, \"captain\"]"),
        )
        .unwrap();
        let m = &s.matchups[0];
        assert_eq!(m.name, "hero + bandit vs bandit×2 + captain");
        let g = m.matchup.group.as_deref().expect("a group fight");
        assert_eq!(g.n, [2, 3]);
        assert_eq!(g.kind[1][..3], [0, 0, 1]);
        assert_eq!(g.target[0][1], oddsmith_rules::group::Target::First);
        let d = load::<Cards>(
            "g.toml",
            &with("a = [\"hero\"]\nb = [{ fighter = \"bandit\" }]"),
        )
        .unwrap();
        assert!(
            d.matchups[0].matchup.group.is_none(),
            "one against one is the duel"
        );
    }

    #[test]
    fn errors_at_the_members_key() {
        let e = load::<Cards>(
            "g.toml",
            &with("a = \"hero\"\nb = [{ fighter = \"bandit\", count = 3 }, { fighter = \"captain\", count = 2 }]"),
        )
        .unwrap_err();
        assert!(e.field.starts_with("matchup[0].b[1]"), "{e}");
        assert!(e.message.contains("at most 4"), "{e}");
        let e = load::<Cards>(
            "g.toml",
            &with("a = \"hero\"\nb = [\"captain\", { fighter = \"bandit\", count = 5 }]"),
        )
        .unwrap_err();
        assert!(e.field.starts_with("matchup[0].b[1]"), "{e}");
        assert!(e.message.contains("1–4"), "{e}");
        let e = load::<Cards>(
            "g.toml",
            &with("a = \"hero\"\nb = [\"captain\", { fighter = \"bandti\" }]"),
        )
        .unwrap_err();
        assert!(e.field.starts_with("matchup[0].b[1].fighter"), "{e}");
        assert!(e.message.contains("did you mean \"bandit\""), "{e}");
    }
}

#[test]
fn every_error_of_a_file_comes_at_once_in_file_order() {
    // Three mistakes: the run names all three, in file order, each at its line:col.
    let text = r#"
name = "t"
ruleset = "draft"
trials = "many"

[fighters.zed]
skill = 6
weapon = "great club"

[fighters.brute]
skil = 5
weapon = "mace"
"#;
    let e = err(text);
    let all: Vec<_> = e
        .all()
        .map(|x| (x.line, x.column, x.field.clone()))
        .collect();
    assert_eq!(
        all,
        vec![
            (4, 10, "trials".to_string()),
            (8, 10, "fighters.zed.weapon".to_string()),
            (11, 1, "fighters.brute.skil".to_string()),
        ],
        "{e}"
    );
    let shown = e.to_string();
    assert_eq!(shown.lines().count(), 3, "{shown}");
    assert!(
        shown
            .lines()
            .nth(1)
            .unwrap()
            .starts_with("s.toml:8:10: fighters.zed.weapon: unknown weapon"),
        "{shown}"
    );
    assert!(
        shown
            .lines()
            .nth(2)
            .unwrap()
            .contains("did you mean `skill`"),
        "{shown}"
    );
}

#[test]
fn a_missing_required_field_is_still_reported_beside_other_errors() {
    // `name` missing is the file's own error; a removed bad field never invents one.
    let text = r#"
ruleset = "draft"
trials = "many"

[fighters.knight]
skill = 6
weapon = "long sword"
"#;
    let e = err(text);
    let msgs: Vec<_> = e.all().map(|x| x.message.clone()).collect();
    assert_eq!(msgs.len(), 2, "{e}");
    assert!(msgs.iter().any(|m| m.contains("name")), "{e}");
}

#[test]
fn toml_syntax_errors_are_said_in_plain_words() {
    for (t, place, words) in [
        (
            "name = \"t\" x\nruleset = \"draft\"\n",
            (1, 12),
            "on its own line",
        ),
        (
            "name = \"t\"\nruleset \"draft\"\n",
            (2, 9),
            "write `key = value`",
        ),
        (
            "[fighters.a\nskill = 1\n",
            (1, 12),
            "table header not closed",
        ),
        (
            "name = \"t\"\nruleset = \"draft\"\nx = { a = 1\n",
            (3, 12),
            "inline table not closed",
        ),
    ] {
        let e = err(t);
        assert_eq!((e.line, e.column), place, "{e}");
        assert!(e.message.contains(words), "{e}");
        assert!(!e.message.contains("expected newline"), "{e}");
    }
}

#[test]
fn a_number_for_a_text_option_lists_the_names_and_long_names_find_short_fields() {
    let t = "name = \"t\"\nruleset = \"draft\"\n[options]\ndamage_term = 3\n[fighters.a]\nskill = 5\nweapon = \"mace\"\nstrength = 4\n";
    let e = err(t);
    let all: Vec<_> = e.all().collect();
    assert_eq!(all.len(), 2, "{e}");
    assert_eq!(all[0].field, "options.damage_term");
    assert!(
        all[0]
            .message
            .contains("expected one of: weapon_damage, impact")
            && all[0].message.contains("got 3"),
        "{e}"
    );
    assert!(all[1].message.contains("did you mean `str`?"), "{e}");
}

#[test]
fn a_check_only_file_needs_no_fighters() {
    let text = r#"
name = "checks"
ruleset = "draft"

[[check]]
name = "skill against difficulty"
rows = { param = "skill", values = [4, 6] }
cols = { param = "difficulty", values = ["easy", "hard"] }
"#;
    let s = load::<Draft>("s.toml", text).unwrap();
    assert!(s.fighters.is_empty() && s.matchups.is_empty());
    assert_eq!(s.study.checks.len(), 1);
    // With nothing to check either, the file says what it lacks.
    let e = err("name = \"t\"\nruleset = \"draft\"\n");
    assert!(
        e.message.contains("no fighters and nothing to check"),
        "{e}"
    );
}
