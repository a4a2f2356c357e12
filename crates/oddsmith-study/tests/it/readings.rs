//! Readings study (issue 36): every bundled ruleset names at least five factors; each factor's
//! figures equal, digit for digit, a paired run against a variant file written by hand; a
//! verdict that flips under a reading is reported as not robust; exact and Monte Carlo agree
//! within 4σ per factor.

use oddsmith_rules::Ruleset;
use oddsmith_rules::cards::Cards;
use oddsmith_rules::d20::D20;
use oddsmith_rules::draft::Draft;
use oddsmith_rules::gamecraft::Gamecraft;
use oddsmith_rules::openrpg::OpenRpg;
use oddsmith_scenario::{ReadingsSpec, Scenario, Target, load};
use oddsmith_sim::run_paired;
use oddsmith_study::{Ctx, Factor, MatchupReadings, factors, run_readings};

use super::{FILE, cfg};

fn readings<R: Ruleset>(
    text: &str,
    spec: &ReadingsSpec,
    trials: u64,
    exact: bool,
) -> (Scenario<R>, Vec<Factor>, Vec<MatchupReadings>) {
    let s: Scenario<R> = load(FILE, text).expect("scenario loads");
    let f = factors::<R>(text, &s, spec);
    let c = cfg(trials, 11);
    let ctx = Ctx {
        file: FILE,
        text,
        scenario: &s,
        cfg: &c,
        exact,
    };
    let r = run_readings(&ctx, &f, &|_| {}).expect("readings run");
    (s, f, r)
}

/// `text` with `f`'s value written by hand under its table (replacing a line that sets it).
fn hand_written(text: &str, f: &Factor) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for t in &f.targets {
        let (header, key) = match t {
            Target::Option { option } => ("[options]".to_string(), option.clone()),
            Target::Fighter { fighter, field } => (format!("[fighters.{fighter}]"), field.clone()),
            Target::Member { .. } => unreachable!("a reading is an option or a fighter's field"),
        };
        let at = match lines.iter().position(|l| l.trim() == header) {
            Some(i) => i,
            None => {
                lines.push(String::new());
                lines.push(header.clone());
                lines.len() - 1
            }
        };
        let end = lines[at + 1..]
            .iter()
            .position(|l| l.trim_start().starts_with('['))
            .map_or(lines.len(), |k| at + 1 + k);
        // A built-in item's placeholder statistic (`weapon.length`): the item named by hand
        // as a table with the statistic, `weapon = { name = "long sword", length = 4 }`.
        let (key, sub) = match key.split_once('.') {
            Some((k, s)) if f.kind == "placeholder" => (k.to_string(), Some(s.to_string())),
            _ => (key, None),
        };
        let found =
            (at + 1..end).find(|&k| lines[k].split('=').next().map(str::trim) == Some(&key));
        let line = match (&sub, found) {
            (None, _) => format!("{key} = {}", f.value),
            (Some(sub), Some(k)) => {
                let given = lines[k].split_once('=').unwrap().1.trim().to_string();
                match given.strip_prefix('{') {
                    Some(rest) => format!("{key} = {{ {sub} = {}, {}", f.value, rest.trim_start()),
                    None => format!("{key} = {{ name = {given}, {sub} = {} }}", f.value),
                }
            }
            (Some(_), None) => panic!("{}: {key} not given by hand", f.label()),
        };
        match found {
            Some(k) => lines[k] = line,
            None => lines.insert(at + 1, line),
        }
    }
    lines.join("\n") + "\n"
}

/// At least five factors, among them each placeholder statistic in `placeholders` (which the
/// file's fighters rely on), and each one's figures equal a paired run of the baseline against
/// the hand-written variant file.
fn agrees_with_hand_written<R: Ruleset>(text: &str, placeholders: &[&str]) {
    let trials = 2_000;
    let (s, f, r) = readings::<R>(text, &ReadingsSpec::default(), trials, false);
    let mut keys: Vec<&str> = f.iter().map(|f| f.key.as_str()).collect();
    keys.dedup();
    assert!(keys.len() >= 5, "{}: factors {keys:?}", R::ID);
    // Every placeholder statistic a fighter relies on is varied too (issue 36).
    let relied: Vec<String> = R::PLACEHOLDERS
        .iter()
        .filter(|p| !oddsmith_study::readings::relying_on(text, &s, p).is_empty())
        .map(|p| format!("{}.{}", p.item, p.field))
        .collect();
    for p in placeholders {
        assert!(
            relied.iter().any(|k| k == p),
            "{}: {p} not relied on: {relied:?}",
            R::ID
        );
    }
    for k in &relied {
        assert!(
            f.iter().any(|f| &f.key == k && f.kind == "placeholder"),
            "{}: placeholder {k} not varied: {keys:?}",
            R::ID
        );
    }
    let m = &s.matchups[0];
    let c = cfg(trials, 11);
    for factor in &f {
        let text2 = hand_written(text, factor);
        let v: Scenario<R> = load(FILE, &text2)
            .unwrap_or_else(|e| panic!("{}: {}: {e}\n{text2}", R::ID, factor.label()));
        let st = run_paired(
            &[
                (&s.ruleset, &m.matchup),
                (&v.ruleset, &v.matchups[0].matchup),
            ],
            &c,
            &|_| {},
        )
        .expect("paired run");
        let doc = r[0]
            .readings
            .iter()
            .find(|d| d.factor == factor.key && d.value == factor.value.to_string())
            .expect("every factor reported");
        let o = &st.variants[1].outcomes;
        assert_eq!(
            (doc.p_a_win.successes, doc.p_a_win.trials),
            (o.a_wins, o.total()),
            "{}: {}",
            R::ID,
            factor.label()
        );
        let cc = &st.adjacent[0];
        let d = oddsmith_stats::diff_paired(cc.both, cc.second_only, cc.first_only, cc.neither)
            .expect("trials");
        assert_eq!(doc.delta, d, "{}: {}", R::ID, factor.label());
    }
}

#[test]
fn cards_readings_agree_with_hand_written_variants() {
    agrees_with_hand_written::<Cards>(
        include_str!("../../../../scenarios/cards/spear-vs-sword.toml"),
        &["spear.max_damage"],
    );
}

#[test]
fn d20_readings_agree_with_hand_written_variants() {
    agrees_with_hand_written::<D20>(
        include_str!("../../../../scenarios/d20/armor-vs-dex.toml"),
        &[],
    );
}

#[test]
fn draft_readings_agree_with_hand_written_variants() {
    agrees_with_hand_written::<Draft>(
        include_str!("../../../../scenarios/draft/sword-and-shield-vs-greatsword.toml"),
        &["long sword.length", "two handed sword.length"],
    );
}

#[test]
fn gamecraft_readings_agree_with_hand_written_variants() {
    agrees_with_hand_written::<Gamecraft>(
        include_str!("../../../../scenarios/gamecraft/ammunition.toml"),
        &["sub machinegun.range"],
    );
}

#[test]
fn openrpg_readings_agree_with_hand_written_variants() {
    agrees_with_hand_written::<OpenRpg>(
        include_str!("../../../../scenarios/openrpg/reference-duel.toml"),
        &["longsword.length", "spear.damage", "mail.dr"],
    );
}

const FLIP: &str = r#"
name = "flip"
ruleset = "draft"

[fighters.plate]
skill = 6
weapon = "long sword"
armour = "full plate"
str = 7
con = 6

[fighters.bare]
skill = 6
weapon = "long sword"
str = 7
con = 6

[[matchup]]
a = "plate"
b = "bare"

[readings]
include = ["armor_table"]
"#;

/// Draft's armour table A against B moves full plate's Movement and protection: the verdict
/// of full plate against no armour changes with the reading, so it is not robust.
#[test]
fn a_verdict_that_flips_is_not_robust() {
    let s: Scenario<Draft> = load(FILE, FLIP).expect("loads");
    let spec = s.readings.clone().expect("[readings]");
    let (_, f, r) = readings::<Draft>(FLIP, &spec, 4_000, true);
    assert_eq!(f.len(), 1, "{f:?}");
    let m = &r[0];
    let flip = &m.readings[0];
    assert!(!flip.verdict_holds, "{m:#?}");
    assert!(!m.robust);
    assert!(
        m.robustness().starts_with("depends on: armor_table"),
        "{}",
        m.robustness()
    );
}

/// Exact and Monte Carlo agree within 4σ for every factor of a solved matchup.
#[test]
fn exact_and_monte_carlo_agree_per_factor() {
    let text = include_str!("../../../../scenarios/draft/sword-and-shield-vs-greatsword.toml");
    let (_, f, r) = readings::<Draft>(text, &ReadingsSpec::default(), 4_000, true);
    assert!(!f.is_empty());
    let mut checked = 0;
    for doc in &r[0].readings {
        let Some(p) = doc.exact else { continue };
        let n = doc.p_a_win.trials as f64;
        let sd = (p * (1.0 - p) / n).sqrt().max(1e-9);
        let z = (doc.p_a_win.p - p) / sd;
        assert!(z.abs() < 4.0, "{}: {z:+.2}σ", doc.label());
        checked += 1;
    }
    assert!(checked >= 5, "{checked} factors solved");
}

#[test]
fn an_unknown_readings_name_is_refused_with_a_suggestion() {
    let text = FLIP.replace("armor_table", "armour_table");
    let e = load::<Draft>(FILE, &text).expect_err("refused");
    assert!(
        e.to_string().contains("did you mean \"armor_table\""),
        "{e}"
    );
}

/// A `[balance]` is solved again under each factor that moves the matchup, and a factor that
/// changes the duel changes the fair value (here: the damage term changes how much B's
/// leather stops, so the CON that makes the duel fair moves too).
#[test]
fn balance_is_solved_again_under_each_factor_that_moves_it() {
    let text = format!(
        "{}\n[readings]\ninclude = [\"damage_term\", \"undefended_value\"]\n\n[balance]\nfighter = \"a\"\nfield = \"con\"\nrange = [2, 16]\ntarget = 0.5\n",
        super::DRAFT_PAIR
    );
    let s: Scenario<Draft> = load(FILE, &text).expect("loads");
    let spec = s.readings.clone().expect("[readings]");
    let f = factors::<Draft>(&text, &s, &spec);
    assert_eq!(f.len(), 3, "{f:?}");
    let c = cfg(4_000, 11);
    let ctx = Ctx {
        file: FILE,
        text: &text,
        scenario: &s,
        cfg: &c,
        exact: true,
    };
    let r = run_readings(&ctx, &f, &|_| {}).expect("readings");
    let b = oddsmith_study::run_balance_readings(&ctx, &f, &r, &|_| {}).expect("balance");
    let moved = r[0].readings.iter().filter(|x| x.matters()).count();
    assert_eq!(b.len(), moved, "{r:#?}\n{b:#?}");
    assert!(!b.is_empty(), "the damage term moves the duel: {r:#?}");
    let book = oddsmith_study::run_balance(&ctx, &|_| {})
        .unwrap()
        .unwrap()
        .value;
    assert!(b.iter().any(|x| x.solved != book), "{book:?} {b:#?}");
}
