//! Test helpers shared by every ruleset's oracle tests.

use oddsmith_dice::stream;

use crate::{RngRoller, Ruleset, Winner};

/// Builds a ruleset and pairs two fighter specs.
pub fn pair<R: Ruleset>(o: R::Options, a: &R::FighterSpec, b: &R::FighterSpec) -> (R, R::Matchup) {
    let r = R::new(o).expect("valid options");
    let m = r
        .matchup(
            &r.compile("a", a).expect("valid fighter a"),
            &r.compile("b", b).expect("valid fighter b"),
        )
        .expect("valid matchup");
    (r, m)
}

/// Runs `n` Monte Carlo duels on stream 0 of `seed`; returns (P(A wins), mean rounds).
pub fn monte_carlo<R: Ruleset>(r: &R, m: &R::Matchup, n: u32, seed: u64) -> (f64, f64) {
    let mut rng = stream(seed, 0);
    let mut roller = RngRoller::new(&mut rng);
    let (mut wins, mut rounds) = (0u32, 0u64);
    for _ in 0..n {
        let out = r.duel(m, &mut roller);
        wins += u32::from(out.winner == Winner::A);
        rounds += u64::from(out.rounds);
    }
    (f64::from(wins) / f64::from(n), rounds as f64 / f64::from(n))
}

/// Asserts a Monte Carlo proportion over `n` trials lies within 4σ of the exact `p`.
#[track_caller]
pub fn within_4_sigma(p_hat: f64, p: f64, n: u32) {
    let sigma = (p * (1.0 - p) / f64::from(n)).sqrt();
    assert!(
        (p_hat - p).abs() <= 4.0 * sigma,
        "Monte Carlo {p_hat} vs exact {p}: more than 4σ = {}",
        4.0 * sigma
    );
}

/// Checks a ruleset's self-description (`oddsmith rulesets ID`) against its declarations:
/// every field, option and check parameter has a default and a doc, names are unique, the
/// documented option defaults are TOML that deserializes to `Options::default()`, and every
/// option the defaults serialize is documented.
pub fn check_docs<R: Ruleset>() {
    let info = R::info();
    for (what, docs) in [
        ("fighter field", &info.fighter_fields),
        ("option", &info.options),
        ("check parameter", &info.check_params),
    ] {
        for (i, d) in docs.iter().enumerate() {
            assert!(
                !d.doc.trim().is_empty(),
                "{}: {what} {} has no doc",
                R::ID,
                d.name
            );
            assert!(
                !d.default.trim().is_empty(),
                "{}: {what} {} has no default",
                R::ID,
                d.name
            );
            assert!(
                !docs[i + 1..].iter().any(|e| e.name == d.name),
                "{}: {what} {} documented twice",
                R::ID,
                d.name
            );
        }
    }
    let text: String = info
        .options
        .iter()
        .map(|d| format!("{} = {}\n", d.name, d.default))
        .collect();
    let parsed: R::Options = toml::from_str(&text)
        .unwrap_or_else(|e| panic!("{}: documented defaults do not parse: {e}\n{text}", R::ID));
    assert_eq!(
        parsed,
        R::Options::default(),
        "{}: documented defaults",
        R::ID
    );
    // Every dependency names declared settings: its field and each condition's field (a
    // fighter's `options.…` conditions name options), by their first key (`tactics.hold`).
    let named = |docs: &[crate::FieldDoc], path: &str| {
        let first = path.split('.').next().unwrap_or("");
        docs.iter().any(|d| d.name == first)
    };
    for (what, docs, requires) in [
        (
            "fighter field",
            &info.fighter_fields,
            &info.fighter_requires,
        ),
        ("option", &info.options, &info.option_requires),
        ("check parameter", &info.check_params, &info.check_requires),
    ] {
        for r in requires.iter() {
            assert!(
                named(docs, r.field),
                "{}: requires names no {what} {}",
                R::ID,
                r.field
            );
            for c in r.only_with {
                let ok = match c.field.strip_prefix("options.") {
                    Some(o) if what == "fighter field" => named(&info.options, o),
                    _ => named(docs, c.field),
                };
                assert!(
                    ok,
                    "{}: {} is only with an undeclared {}",
                    R::ID,
                    r.field,
                    c.field
                );
            }
        }
    }
    let serialized = toml::Value::try_from(R::Options::default()).expect("options serialize");
    for k in serialized.as_table().expect("a table").keys() {
        assert!(
            info.options.iter().any(|d| d.name == k),
            "{}: option {k} has no doc",
            R::ID
        );
    }
}

/// A Monte Carlo roller that is not [`crate::Roller::SAMPLES`]: `step` stops after each
/// step, as under the exact solver's roller, on the very same dice.
pub struct Stepwise<'a, R: crate::Roller>(pub &'a mut R);

impl<R: crate::Roller> crate::Roller for Stepwise<'_, R> {
    fn roll(&mut self, sides: u32) -> u32 {
        self.0.roll(sides)
    }
    fn d10(&mut self) -> u32 {
        self.0.d10()
    }
    type Local<'b>
        = &'b mut Self
    where
        Self: 'b;
    fn local(&mut self) -> &mut Self {
        self
    }
}
