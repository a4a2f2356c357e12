//! Scenario text → validation (the checks `oddsmith validate` and `run` make) → a few duels
//! of every matchup and a few samples of every check, as `oddsmith run` would start them.
//! Any panic is a bug: bad input must give an error, never a crash.
#![no_main]

use libfuzzer_sys::fuzz_target;
use oddsmith_dice::stream;
use oddsmith_rules::{RngRoller, Ruleset, RulesetVisitor, visit};
use oddsmith_scenario::{is_comparison, load, load_comparison, ruleset_of};

/// Duels per matchup: enough to walk every branch a fighter takes, few enough for speed.
const DUELS: u32 = 20;

struct Run<'a> {
    text: &'a str,
}

impl RulesetVisitor for Run<'_> {
    type Output = ();
    fn visit<R: Ruleset>(self) {
        let Ok(s) = load::<R>("fuzz.toml", self.text) else {
            return;
        };
        if oddsmith_study::validate("fuzz.toml", self.text, &s).is_err() {
            return;
        }
        let mut rng = stream(1, 0);
        let mut roller = RngRoller::new(&mut rng);
        for m in &s.matchups {
            for _ in 0..DUELS {
                let d = s.ruleset.duel(&m.matchup, &mut roller);
                assert!(d.rounds <= s.ruleset.max_rounds(), "past the round cap");
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if is_comparison(text) {
        let _ = load_comparison("fuzz.toml", text);
        return;
    }
    let Ok(id) = ruleset_of("fuzz.toml", text) else {
        return;
    };
    let _ = visit(&id, Run { text });
});
