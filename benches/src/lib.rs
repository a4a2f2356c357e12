//! Fixtures shared by the criterion benchmarks in `benches/` (run with
//! `cargo bench -p oddsmith-benches`): the digests' reference duels, loaded from the bundled
//! scenario files so the benchmark measures exactly what users run.
//!
//! What else is here: `tests/it` proves no reference duel allocates (10,000 duels of each);
//! `tests/it/exact.rs` checks outcome branching against the face-by-face enumeration on every
//! bundled gamecraft and d20 matchup, and d20's interned solver against the shared solver, bit
//! for bit. Examples: `profile` (one reference duel N times on one stream, with an outcome
//! checksum, for callgrind; `-- RULESET DUELS engine` runs them through `run_duels` on one
//! thread, the cost of a trial beyond `duel`), `exact` (every bundled matchup's exact solve
//! time in thread CPU time, with a checksum of the solution's bits; `COMPARE=1` against the
//! face-by-face solve) and `raw` (the raw stream on N threads for a long run). `targets.py`
//! (issue 15's speed targets over several criterion runs, scaled to the quiet machine) and
//! `whole.py` (the same targets on the whole `oddsmith run` process). Figures and method:
//! `benches/README.md`.

use oddsmith_rules::Ruleset;
use oddsmith_rules::cards::spec::{FighterSpec, Tactics, weapon};
use oddsmith_rules::cards::{Cards, CardsOptions};
use oddsmith_rules::d20::D20;
use oddsmith_rules::draft::Draft;
use oddsmith_rules::fields::Entry;
use oddsmith_rules::gamecraft::Gamecraft;
use oddsmith_rules::openrpg::OpenRpg;

/// A worker pool of `threads` threads, built once per benchmark as the CLI builds one per
/// command (`oddsmith run --threads N` runs every matchup, sweep point and check on one pool).
/// The engine benchmarks run inside it with `RunConfig::threads` left `None`; with
/// `threads: Some(n)` each iteration would start and stop its own threads, which no user's run
/// does between matchups.
pub fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("worker threads start")
}

/// The raw stream's loop: `threads` threads, thread `t` on stream `t` of seed 1, each summing
/// `words` words; returns the sum of the sums. The RNG limit's measure, shared by criterion's
/// `dice/raw_u64_threads` and the `raw` example.
pub fn raw_words(threads: u64, words: u64) -> u64 {
    use rand_core::RngCore;
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut rng = oddsmith_dice::stream(1, t);
                    let mut s = 0u64;
                    for _ in 0..words {
                        s = s.wrapping_add(rng.next_u64());
                    }
                    s
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("no panic"))
            .fold(0u64, u64::wrapping_add)
    })
}

/// Loads `text` under ruleset `R` and returns the ruleset with the matchup called `name`.
fn matchup<R: Ruleset>(file: &str, text: &str, name: &str) -> (R, R::Matchup) {
    let s = oddsmith_scenario::load::<R>(file, text).unwrap_or_else(|e| panic!("{e}"));
    let m = s
        .matchups
        .iter()
        .find(|m| m.name == name)
        .expect("matchup exists")
        .matchup
        .clone();
    (s.ruleset, m)
}

/// Draft reference duel D1 (draft.md §7.7): two identical long-sword fighters, default options.
pub fn draft_d1() -> (Draft, <Draft as Ruleset>::Matchup) {
    matchup(
        "reference-duels.toml",
        include_str!("../../scenarios/draft/reference-duels.toml"),
        "D1",
    )
}

/// Gamecraft reference duel D1 (gamecraft.md §7 D1): Aldric against Borg, default options.
pub fn gamecraft_d1() -> (Gamecraft, <Gamecraft as Ruleset>::Matchup) {
    matchup(
        "reference-duel.toml",
        include_str!("../../scenarios/gamecraft/reference-duel.toml"),
        "D1",
    )
}

/// d20 reference duel S2r (d20-taxonomy.md §7.9): Fighter 1 against a Bug Bear, default options.
pub fn d20_reference() -> (D20, <D20 as Ruleset>::Matchup) {
    matchup(
        "reference-duels.toml",
        include_str!("../../scenarios/d20/reference-duels.toml"),
        "S2r",
    )
}

/// d20 reference group fight: Fighter 1 (HP 11) against two goblins (digest §7.9(c)), a side
/// written as a list of members (the shared group mechanism, canonical band order).
pub fn d20_group() -> (D20, <D20 as Ruleset>::Matchup) {
    matchup(
        "fighter-vs-two-goblins.toml",
        include_str!("../../scenarios/d20/fighter-vs-two-goblins.toml"),
        "two goblins",
    )
}

/// Cards reference group fight: the master against two soldiers (a band, §Multiple
/// Opponents), `scenarios/cards/one-against-two.toml`.
pub fn cards_group() -> (Cards, <Cards as Ruleset>::Matchup) {
    matchup(
        "one-against-two.toml",
        include_str!("../../scenarios/cards/one-against-two.toml"),
        "master vs two soldiers",
    )
}

/// The group-fight references of issue 39 as one scenario: d20's level-3 party against
/// goblins and cards' one against three.
const GROUPS: &str = r#"
name = "group-references"
ruleset = "d20"

[fighters.hero]
species = "human"
class = "fighter"
level = 3
str = 15
dex = 13
con = 14
weapon = "long sword"
armor = "chain mail"
shield = "medium shield"

[fighters.goblin]
species = "goblin"
weapon = "short sword"
armor = "leather"
shield = "small shield"
hp = 4

[[matchup]]
name = "party vs goblins"
a = [{ fighter = "hero", count = 4 }]
b = [{ fighter = "goblin", count = 4 }]

[[matchup]]
name = "party vs six goblins"
a = [{ fighter = "hero", count = 4 }]
b = [{ fighter = "goblin", count = 6 }]
"#;

/// d20 reference group fight of issue 39: a party of four level-3 Fighters (Str 15, Dex 13,
/// Con 14, long sword, chain mail, medium shield; HP rolled) against Goblins (HP 4 each). The
/// issue asks for six goblins and a mixed party; this reference stays four against four (the
/// largest group fight before sides of eight and mixed members, so that its timings compare
/// across versions). `benches/peers/d20_party.py` is its plain-Python loop.
pub fn d20_party() -> (D20, <D20 as Ruleset>::Matchup) {
    matchup("group-references.toml", GROUPS, "party vs goblins")
}

/// Issue 39's d20 reference group fight as the issue gives it: the party of [`d20_party`]
/// against **six** Goblins (sides of up to eight creatures). `benches/peers/d20_party.py 6`
/// is its plain-Python loop.
pub fn d20_party6() -> (D20, <D20 as Ruleset>::Matchup) {
    matchup("group-references.toml", GROUPS, "party vs six goblins")
}

/// `scenarios/cards/one-against-two.toml`'s first matchup ("master vs two soldiers": `a =
/// "master"`, `b = "two_soldiers"`) with its sides written as `sides` and renamed `name`.
fn cards_groups(sides: &str, name: &str) -> (Cards, <Cards as Ruleset>::Matchup) {
    let text = include_str!("../../scenarios/cards/one-against-two.toml")
        .replace("a = \"master\"\nb = \"two_soldiers\"", sides)
        .replace("master vs two soldiers", name);
    matchup("cards-groups.toml", &text, name)
}

/// Cards reference group fight of issue 39: the master (skill 5, sword, combat training 3)
/// against three soldiers (skill 2, sword), one against three (the reference before bands on
/// both sides, kept so its timings compare across versions).
pub fn cards_band() -> (Cards, <Cards as Ruleset>::Matchup) {
    cards_groups(
        "a = \"master\"\nb = [{ fighter = \"soldier\", count = 3 }]",
        "master vs three soldiers",
    )
}

/// Issue 39's cards reference group fight as the issue gives it: **two** masters (skill 5,
/// sword, combat training 3) against three soldiers (skill 2, sword), bands on both sides.
pub fn cards_teams() -> (Cards, <Cards as Ruleset>::Matchup) {
    cards_groups(
        "a = [{ fighter = \"master\", count = 2 }]\nb = [{ fighter = \"soldier\", count = 3 }]",
        "two masters vs three soldiers",
    )
}

/// Open-rpg reference duel R1 (the open-rpg digest's R1, `scenarios/openrpg/reference-duel.toml`):
/// Alda against Bram, primary text.
pub fn openrpg_r1() -> (OpenRpg, <OpenRpg as Ruleset>::Matchup) {
    matchup(
        "reference-duel.toml",
        include_str!("../../scenarios/openrpg/reference-duel.toml"),
        "R1 Alda vs Bram",
    )
}

/// Cards reference duel: Devon (skill 3, combat training 2) against the soldier (skill 2,
/// armour −1), swords with dagger backups, default options and tactics.
pub fn cards_reference() -> (Cards, <Cards as Ruleset>::Matchup) {
    let rules = Cards::new(CardsOptions::default()).expect("default options");
    let a = rules
        .compile("devon", &cards_fighter(3, 2, 0))
        .expect("valid");
    let b = rules
        .compile("soldier", &cards_fighter(2, 0, -1))
        .expect("valid");
    let m = rules.matchup(&a, &b).expect("valid");
    (rules, m)
}

fn cards_fighter(skill: i32, combat_training: i32, armor_mod: i32) -> FighterSpec {
    let w = |name: &str| Entry {
        stats: weapon(name).expect("built in"),
        builtin: true,
    };
    FighterSpec {
        skill,
        weapon: w("sword"),
        off_hand: None,
        off_hand_skill: None,
        backup: Some(w("dagger")),
        backup_skill: 2,
        fast_draw: 0,
        combat_training,
        dodge: 0,
        count: 1,
        brawling: 0,
        stealth: 0,
        finesse: 0,
        might: 0,
        willpower: 0,
        vitality: 0,
        awareness: 0,
        armor_mod,
        protection: 0,
        npc: false,
        size: 1.0,
        tactics: Tactics::default(),
    }
}

/// A ten-point sweep as a study runs it: Draft D1's fighter A at skill 1–10 against the D1
/// fighter (skill 6), one (ruleset, matchup) pair per point, all sharing the ruleset's options.
pub fn draft_skill_sweep() -> (Draft, Vec<<Draft as Ruleset>::Matchup>) {
    use std::fmt::Write as _;
    let fighter = |name: &str, skill: u32| {
        format!(
            "[fighters.{name}]\nskill = {skill}\nweapon = \"long sword\"\narmour = \"leather\"\nstr = 6\ncon = 6\n"
        )
    };
    let mut text = String::from(
        "name = \"sweep\"\nruleset = \"draft\"\n[options]\nstriking_order = \"skill_first\"\n",
    );
    text += &fighter("d1", 6);
    for k in 1..=10 {
        text += &fighter(&format!("s{k}"), k);
        let _ = write!(
            text,
            "[[matchup]]\nname = \"s{k}\"\na = \"s{k}\"\nb = \"d1\"\n"
        );
    }
    let s = oddsmith_scenario::load::<Draft>("sweep.toml", &text).unwrap_or_else(|e| panic!("{e}"));
    let ms = s.matchups.iter().map(|m| m.matchup.clone()).collect();
    (s.ruleset, ms)
}

/// Plays `duels` Monte Carlo duels of `m` on stream 0 of seed 1 (one duel after another, as
/// `Ruleset::duel` plays them): the wins of A, B and draws, and a checksum of every outcome
/// field, so a change to a ruleset's duel can be seen to give the very same duels (the
/// `profile` and `exact` examples).
pub fn outcome_checksum<R: Ruleset>(rules: &R, m: &R::Matchup, duels: u64) -> ([u64; 3], u64) {
    let mut rng = oddsmith_dice::stream(1, 0);
    let mut roller = oddsmith_rules::RngRoller::new(&mut rng);
    let mut wins = [0u64; 3];
    let mut sum = 0u64;
    for _ in 0..duels {
        let o = rules.duel(m, &mut roller);
        wins[o.winner as usize] += 1;
        let fields = [o.ending as u32, o.rounds]
            .into_iter()
            .chain(o.damage)
            .chain(o.hits)
            .chain(o.attacks)
            .chain(o.counters);
        for x in fields {
            sum = (sum.rotate_left(7) ^ u64::from(x)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    (wins, sum)
}
