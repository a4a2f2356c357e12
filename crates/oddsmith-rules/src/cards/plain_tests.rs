//! The registers' plain form (`Matchup::plain`, issue 15's rule for fast paths) against the
//! general form of the same code: both play the same stream of cards, duel after duel, and
//! must give the same outcomes (winner, ending, rounds, damage, hits, attacks, counters) and
//! leave the stream in the same state after every duel. The settings are every bundled cards
//! matchup and generated option, tactic and kit combinations; only those the predicate calls
//! plain are played, so a predicate that let in a setting the plain form does not cover
//! (shields, off-hand weapons, ranged weapons, wrestlers) would fail here.

use oddsmith_dice::stream;

use super::options::CardsOptions;
use super::spec::FighterSpec;
use super::{Cards, Matchup};
use crate::testing::pair;
use crate::{RngRoller, Ruleset};

/// The bundled cards scenarios, by file name.
const BUNDLED: [(&str, &str); 9] = [
    ("archer-vs-swordsman", include_str!("../../../../scenarios/cards/archer-vs-swordsman.toml")),
    ("devon-vs-soldier", include_str!("../../../../scenarios/cards/devon-vs-soldier.toml")),
    ("greedy-vs-bait", include_str!("../../../../scenarios/cards/greedy-vs-bait.toml")),
    ("one-against-two", include_str!("../../../../scenarios/cards/one-against-two.toml")),
    ("one-more-card", include_str!("../../../../scenarios/cards/one-more-card.toml")),
    ("shield-bash", include_str!("../../../../scenarios/cards/shield-bash.toml")),
    ("shield-vs-two-weapons", include_str!("../../../../scenarios/cards/shield-vs-two-weapons.toml")),
    ("spear-vs-sword", include_str!("../../../../scenarios/cards/spear-vs-sword.toml")),
    ("wrestler-vs-knife", include_str!("../../../../scenarios/cards/wrestler-vs-knife.toml")),
];

/// One setting: a name, the options and the two fighters.
type Setting = (String, CardsOptions, FighterSpec, FighterSpec);

/// Every bundled cards matchup (`file: matchup`) with its scenario's options and fighters.
fn bundled() -> Vec<Setting> {
    let mut out = Vec::new();
    for (file, text) in BUNDLED {
        let doc: toml::Table = toml::from_str(text).unwrap_or_else(|e| panic!("{file}: {e}"));
        let o: CardsOptions = doc
            .get("options")
            .map(|v| v.clone().try_into().unwrap_or_else(|e| panic!("{file} options: {e}")))
            .unwrap_or_default();
        let fighters = doc["fighters"].as_table().expect("fighters");
        let fighter = |name: &toml::Value| -> FighterSpec {
            let name = name.as_str().expect("a fighter's name");
            fighters[name].clone().try_into().unwrap_or_else(|e| panic!("{file} {name}: {e}"))
        };
        for m in doc["matchup"].as_array().expect("matchups") {
            let name = format!("{file}: {}", m["name"].as_str().expect("a matchup's name"));
            out.push((name, o.clone(), fighter(&m["a"]), fighter(&m["b"])));
        }
    }
    out
}

/// Lists a generator of settings draws from: for each TOML key, the values (written as TOML)
/// it picks among. A list of one value is written without a draw; an empty key writes the
/// value as it stands (whole lines, or nothing).
struct Lists {
    /// The generator's starting state and the settings' name.
    seed: u64,
    name: &'static str,
    /// The options, in sections written one after another.
    options: &'static [&'static [(&'static str, &'static [&'static str])]],
    /// Each fighter's main weapon, then what it carries besides (whole lines), then its
    /// fields and its tactics.
    weapons: &'static [&'static str],
    extras: &'static [&'static str],
    fields: &'static [(&'static str, &'static [&'static str])],
    tactics: &'static [(&'static str, &'static [&'static str])],
}

/// `count` settings drawn from `l` by a fixed generator: the options, then each fighter in
/// turn (main weapon, extras, fields, tactics). A spear, two-handed, gets no off-hand item.
fn draw(l: &Lists, count: u64) -> Vec<Setting> {
    let mut state = l.seed;
    let mut pick = move |xs: &[&'static str]| -> &'static str {
        if xs.len() == 1 {
            return xs[0];
        }
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        xs[(state % xs.len() as u64) as usize]
    };
    let mut out = Vec::new();
    for k in 0..count {
        let mut options = String::new();
        for &(key, xs) in l.options.iter().copied().flatten() {
            let v = pick(xs);
            options += &if key.is_empty() { v.to_string() } else { format!("{key} = {v}\n") };
        }
        let mut fighter = || {
            let main = pick(l.weapons);
            let extra = pick(l.extras);
            let extra = if main == "\"spear\"" && extra.starts_with("off_hand") { "" } else { extra };
            let mut t = format!("weapon = {main}\n{extra}");
            for &(key, xs) in l.fields {
                t += &format!("{key} = {}\n", pick(xs));
            }
            let tactics: Vec<String> =
                l.tactics.iter().map(|&(key, xs)| format!("{key} = {}", pick(xs))).collect();
            t + &format!("tactics = {{ {} }}\n", tactics.join(", "))
        };
        let (a, b) = (fighter(), fighter());
        let spec = |t: &str| toml::from_str::<FighterSpec>(t).unwrap_or_else(|e| panic!("{e}\n{t}"));
        let o = toml::from_str::<CardsOptions>(&options).unwrap_or_else(|e| panic!("{e}\n{options}"));
        out.push((format!("{} {k}", l.name), o, spec(&a), spec(&b)));
    }
    out
}

const TF: &[&str] = &["true", "false"];
const MOSTLY_TRUE: &[&str] = &["true", "true", "false"];

/// The options both generators draw before `distance`.
const BEFORE_DISTANCE: &[(&str, &[&str])] = &[
    ("range_model", MOSTLY_TRUE),
    ("hand_to_hand", TF),
    ("disarming_attack", MOSTLY_TRUE),
    ("on_disarm", &["\"backup_or_unarmed\"", "\"backup_or_defeat\"", "\"defeat\"", "\"unarmed\""]),
    ("seize_the_initiative", TF),
    ("melee_dodge", TF),
    ("dodge_steps_back", TF),
    ("close_retreat", TF),
    ("offensive_disengage", TF),
    ("defender_may_pass", TF),
    ("unopposed_auto_success", TF),
    ("unopposed_attack_closes_range", TF),
    ("long_weapon_can_parry_inside_reach", TF),
    ("no_step_back_delta", &["-1", "0", "1"]),
    ("hit_rule", &["\"draw_add\"", "\"draw_add\"", "\"none\""]),
    ("hit_chain", TF),
    ("reshuffle", &["\"when_empty\"", "\"every_round\"", "\"every_check\""]),
    ("deck_owner", &["\"per_fighter\"", "\"shared\""]),
    ("start", &["\"engaged\"", "\"a_charges\"", "\"a_surprises\"", "\"show_down\""]),
];

/// The options both generators draw after `distance`.
const AFTER_DISTANCE: &[(&str, &[&str])] = &[
    ("initiative_tie", &["\"redraw\"", "\"willpower\""]),
    ("jokers", &["\"zero\"", "\"wild\"", "\"remove\""]),
    ("damage_floor", &["0", "-2"]),
    ("max_rounds", &["30"]),
];

/// Options, tactics and kits, plain or not (shields, off-hand daggers, bows and wrestlers
/// among them).
const GENERATED: Lists = Lists {
    seed: 0x9e37_79b9_7f4a_7c15,
    name: "generated",
    options: &[BEFORE_DISTANCE, &[("distance", &["0", "0", "12"])], AFTER_DISTANCE],
    weapons: &[
        "\"sword\"", "\"dagger\"", "\"spear\"", "\"medium axe\"", "\"long sword\"", "\"bare hands\"",
        "\"short bow\"",
    ],
    extras: &[
        "",
        "",
        "",
        "backup = \"dagger\"\nbackup_skill = 2\n",
        "backup = \"sword\"\nbackup_skill = 3\n",
        "backup = \"short bow\"\nbackup_skill = 2\n",
        "off_hand = \"small shield\"\noff_hand_skill = 2\n",
        "off_hand = \"dagger\"\noff_hand_skill = 2\n",
    ],
    fields: &[
        ("skill", &["2", "3", "4"]),
        ("combat_training", &["0", "1", "2"]),
        ("fast_draw", &["0", "1", "2"]),
        ("brawling", &["0", "2"]),
        ("finesse", &["0", "1"]),
        ("might", &["0", "1", "2"]),
        ("willpower", &["0", "1"]),
        ("armor_mod", &["0", "-1"]),
        ("protection", &["0", "1"]),
        ("vitality", &["0", "2"]),
    ],
    tactics: &[
        ("attacker", &["\"greedy\"", "\"bait\"", "\"random\""]),
        ("defender", &["\"front\"", "\"back\"", "\"cover_last\"", "\"random\""]),
        ("hit", &["\"when_losing\"", "\"never\"", "\"always\""]),
        ("seize_threshold", &["5", "2", "99"]),
        ("reserve", &["0", "0", "1"]),
        ("disarm_unopposed", TF),
        ("range_fix", TF),
        ("lunge", TF),
        ("dodge_when_no_parry", TF),
        ("close_with_parry", TF),
        ("keep_reach", TF),
        ("hesitate", &["\"never\"", "\"never\"", "\"out_of_reach\"", "\"weak_hand\""]),
        ("hesitate_below", &["1", "3"]),
        ("shield_bash", TF),
        ("disengage_at_hp", &["0", "2", "4"]),
        ("wrestle", &["false", "false", "true"]),
        ("hold", &["\"pin\"", "\"suffocate\""]),
        ("called_shot", &["\"torso\"", "\"torso\"", "\"legs\"", "\"head\""]),
    ],
};

/// `count` generated settings ([`GENERATED`]).
fn generated(count: u64) -> Vec<Setting> {
    draw(&GENERATED, count)
}

/// One setting for each clause of the predicate, near its edge: a ranged weapon only as the
/// backup (drawn after a disarm), an off-hand item or a shield on one side only, a ranged main
/// weapon, a wrestler on one side only. None is plain; each would play differently if it were
/// (`each_clause_of_the_predicate_is_needed`), so the same-duels test, which plays whatever the
/// predicate calls plain, fails if a clause is dropped.
fn edges() -> Vec<Setting> {
    let o = |t: &str| toml::from_str::<CardsOptions>(t).unwrap_or_else(|e| panic!("{e}\n{t}"));
    let f = |t: &str| toml::from_str::<FighterSpec>(t).unwrap_or_else(|e| panic!("{e}\n{t}"));
    let sword = "skill = 3\nweapon = \"sword\"\n";
    vec![
        (
            "edge: a bow only as the backup, drawn after a disarm".into(),
            o("range_model = false\non_disarm = \"backup_or_unarmed\"\n"),
            f("skill = 1\nweapon = \"sword\"\nbackup = \"short bow\"\nbackup_skill = 2\nfast_draw = 1\n"),
            f("skill = 6\nfinesse = 3\nweapon = \"dagger\"\ntactics = { reserve = 0, disarm_unopposed = true }\n"),
        ),
        (
            "edge: an off-hand dagger on one side".into(),
            o(""),
            f(sword),
            f("skill = 3\nweapon = \"sword\"\noff_hand = \"dagger\"\noff_hand_skill = 2\n"),
        ),
        (
            "edge: a shield on one side".into(),
            o(""),
            f("skill = 3\nweapon = \"sword\"\noff_hand = \"small shield\"\noff_hand_skill = 2\ntactics = { shield_bash = true }\n"),
            f(sword),
        ),
        (
            "edge: a bow in melee".into(),
            o(""),
            f("skill = 3\nweapon = \"short bow\"\nbackup = \"dagger\"\nbackup_skill = 2\n"),
            f(sword),
        ),
        (
            "edge: a wrestler on one side".into(),
            o("hand_to_hand = true\n"),
            f(sword),
            f("skill = 3\nweapon = \"bare hands\"\nbrawling = 3\ntactics = { wrestle = true }\n"),
        ),
    ]
}

/// Every edge setting is not plain, and each but the wrestler (whose wrestling range the plain
/// form refuses outright, by a debug assertion) plays differently in the plain form forced on
/// it within 20,000 duels: the clause that excludes it is needed.
#[test]
fn each_clause_of_the_predicate_is_needed() {
    for (name, o, a, b) in edges() {
        let (r, m) = pair::<Cards>(o, &a, &b);
        assert!(!m.plain, "{name}: called plain");
        if name.contains("wrestler") {
            continue;
        }
        let forced = Matchup { plain: true, ..m.clone() };
        let differs = first_difference(&r, &forced, &m, 20_000, 77);
        assert!(differs.is_some(), "{name}: the plain form plays it the same");
    }
}

/// What [`GENERATED`] leaves out: custom weapons (one named "bare hands" with a reach of 2,
/// unlimited maneuvers, two-handed), bare hands as the main weapon or the backup, `wrestle`
/// without `hand_to_hand`, a custom deck heavy in hit cards, surprise with stealth and
/// awareness, NPCs, starting distances up to 40, `arrival_charge`, `close_yards`,
/// `npc_jokerless`, `shield_bash_head_penalty`, `hp_base` (written by the review of the plain
/// form).
const VARIED: Lists = Lists {
    seed: 0x1234_5678_9abc_def1,
    name: "varied",
    options: &[
        BEFORE_DISTANCE,
        &[("distance", &["0", "3", "12", "40"])],
        AFTER_DISTANCE,
        &[
            ("shield_bash_head_penalty", TF),
            ("arrival_charge", TF),
            ("close_yards", &["1", "5", "20"]),
            ("npc_jokerless", TF),
            ("hp_base", &["1", "3", "5"]),
            (
                "",
                &[
                    "",
                    "",
                    "deck = \"custom\"\ncustom_deck = [\"+3h\", \"+2h\", \"-2h\", \"+1h\", \"-1\", \"+5\", \"-4\", \"0\"]\n",
                ],
            ),
        ],
    ],
    weapons: &[
        "\"sword\"",
        "\"dagger\"",
        "\"spear\"",
        "\"bare hands\"",
        "\"bare hands\"",
        "\"long sword\"",
        "{ name = \"bare hands\", range = 2, force = 1, max_maneuvers = 2, edge = 1, max_damage = 4 }",
        "{ range = 0, force = 0, max_maneuvers = 0, edge = 0, max_damage = 3 }",
        "{ range = 3, force = 2, max_maneuvers = 1, edge = 2, max_damage = 6, hands = 2 }",
    ],
    extras: &[
        "",
        "",
        "backup = \"dagger\"\nbackup_skill = 2\n",
        "backup = \"spear\"\nbackup_skill = 3\n",
        "backup = \"bare hands\"\nbackup_skill = 1\n",
    ],
    fields: &[
        ("skill", &["1", "2", "3", "5"]),
        ("combat_training", &["0", "1", "2"]),
        ("fast_draw", &["0", "1", "2"]),
        ("brawling", &["0", "2"]),
        ("finesse", &["0", "1", "-1"]),
        ("might", &["0", "1", "2"]),
        ("willpower", &["0", "1"]),
        ("armor_mod", &["0", "-1"]),
        ("protection", &["0", "1"]),
        ("vitality", &["0", "2"]),
        ("stealth", &["0", "2"]),
        ("awareness", &["0", "2"]),
        ("npc", TF),
    ],
    tactics: &[
        ("attacker", &["\"greedy\"", "\"bait\"", "\"random\""]),
        ("defender", &["\"front\"", "\"back\"", "\"cover_last\"", "\"random\""]),
        ("hit", &["\"when_losing\"", "\"never\"", "\"always\""]),
        ("seize_threshold", &["5", "2", "-3", "99"]),
        ("reserve", &["0", "0", "1", "2"]),
        ("disarm_unopposed", TF),
        ("range_fix", TF),
        ("lunge", TF),
        ("dodge_when_no_parry", TF),
        ("close_with_parry", TF),
        ("keep_reach", TF),
        ("hesitate", &["\"never\"", "\"out_of_reach\"", "\"weak_hand\""]),
        ("hesitate_below", &["1", "3", "6"]),
        ("shield_bash", TF),
        ("disengage_at_hp", &["0", "2", "4"]),
        ("wrestle", MOSTLY_TRUE),
        ("hold", &["\"pin\"", "\"suffocate\""]),
        ("called_shot", &["\"torso\"", "\"legs\"", "\"head\"", "\"arms\""]),
    ],
};

/// `count` more generated settings ([`VARIED`]).
fn varied(count: u64) -> Vec<Setting> {
    draw(&VARIED, count)
}

/// Plays `duels` duels of the setting with the plain form and with the general form, each on
/// its own copy of one stream, and compares them after every duel. Returns `None` where the
/// setting is not plain (nothing played), else the duels played.
fn same_duels(name: &str, o: &CardsOptions, a: &FighterSpec, b: &FighterSpec, duels: u64, seed: u64) -> Option<u64> {
    let Ok(r) = Cards::new(o.clone()) else {
        return None;
    };
    let (Ok(fa), Ok(fb)) = (r.compile("a", a), r.compile("b", b)) else {
        return None;
    };
    let m = r.matchup(&fa, &fb).ok()?;
    if !m.plain {
        return None;
    }
    let general = Matchup { plain: false, ..m.clone() };
    if let Some((i, what)) = first_difference(&r, &m, &general, duels, seed) {
        panic!("{name}: duel {i} of seed {seed}: {what}");
    }
    Some(duels)
}

/// Plays `duels` duels of `plain` and of `general` (the same matchup in the two forms), each
/// on its own copy of one stream of `seed`, and returns the first duel whose outcome differs
/// or after which the streams differ (the forms read other cards), with what differs.
fn first_difference(r: &Cards, plain: &Matchup, general: &Matchup, duels: u64, seed: u64) -> Option<(u64, String)> {
    let mut plain_rng = stream(seed, 0);
    let mut general_rng = plain_rng.clone();
    (0..duels).find_map(|i| {
        let got = r.duel(plain, &mut RngRoller::new(&mut plain_rng));
        let want = r.duel(general, &mut RngRoller::new(&mut general_rng));
        if got != want {
            Some((i, format!("plain {got:?}, general {want:?}")))
        } else if plain_rng != general_rng {
            Some((i, "the forms read other cards".to_string()))
        } else {
            None
        }
    })
}

/// Over 1,000,000 duels in all: every bundled matchup the predicate calls plain (10 of 22),
/// the edge settings if it calls any plain (none: see `edges`), and the generated settings it
/// calls plain (88 of 400: the others have a shield, an off-hand dagger, a bow or a wrestler),
/// 12,000 duels each: 1,176,000.
#[test]
fn the_plain_form_plays_the_same_duels_as_the_general_form() {
    let settings: Vec<Setting> =
        bundled().into_iter().chain(edges()).chain(generated(400)).collect();
    let (mut played, mut plain) = (0u64, 0usize);
    for (k, (name, o, a, b)) in settings.iter().enumerate() {
        if let Some(n) = same_duels(name, o, a, b, 12_000, 40 + k as u64) {
            played += n;
            plain += 1;
        }
    }
    assert!(plain >= 80, "only {plain} plain settings");
    assert!(played >= 1_000_000, "only {played} duels");
}

/// Which bundled matchups take the plain form (and the reference duel's fighters do).
#[test]
fn bundled_settings_take_the_expected_form() {
    let plain: Vec<String> = bundled()
        .into_iter()
        .filter(|(_, o, a, b)| pair::<Cards>(o.clone(), a, b).1.plain)
        .map(|(name, ..)| name)
        .collect();
    let want = [
        "devon-vs-soldier: Devon vs the soldier",
        "greedy-vs-bait: greedy vs bait",
        "greedy-vs-bait: greedy/back vs bait",
        "greedy-vs-bait: bait/cover_last vs greedy",
        "one-against-two: master vs one soldier",
        "one-more-card: challenger vs swordsman",
        "shield-bash: sword vs knife",
        "spear-vs-sword: spear vs sword",
        "spear-vs-sword: sword vs sword (control)",
        "wrestler-vs-knife: boxer vs knife",
    ];
    // Not plain: the archers (a bow), the shields and the off-hand weapons, the wrestlers, and
    // the bands (`group::round` plays the general form).
    assert_eq!(plain, want);
}

/// The [`varied`] settings the predicate calls plain (about a third of 600), 3,000 duels each
/// in both forms on one stream, as in `the_plain_form_plays_the_same_duels_as_the_general_form`.
#[test]
fn the_plain_form_plays_the_same_duels_in_rarer_settings() {
    let (mut played, mut plain) = (0u64, 0usize);
    for (k, (name, o, a, b)) in varied(600).iter().enumerate() {
        if let Some(n) = same_duels(name, o, a, b, 3_000, 9_000 + k as u64) {
            played += n;
            plain += 1;
        }
    }
    assert!(plain >= 150, "only {plain} plain settings");
    assert!(played >= 450_000, "only {played} duels");
}

