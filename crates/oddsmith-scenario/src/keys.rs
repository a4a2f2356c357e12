//! What each key of a scenario file's envelope, matchups and study sections means, for the
//! JSON Schema's descriptions (editor hover docs) and the explorer's form. The ruleset's own
//! fighter fields and options carry their declared docs; these are the loader's keys, which
//! serde traces without docs. A test checks that every traced key has one and that none is
//! left over.

/// `(path, doc)`: the path is the key's dotted place in the file, `*` for any table key
/// (`sweep.y.from`, `tournament.costs.*`).
#[rustfmt::skip]
pub const KEY_DOCS: &[(&str, &str)] = &[
    ("name", "The scenario's name: the report folder and every table carry it."),
    ("ruleset", "The rule system: draft, gamecraft, d20, openrpg or cards."),
    ("description", "A sentence for the report and the terminal: what the scenario asks."),
    ("trials", "Monte Carlo duels per matchup (and per sweep point, balance step and tournament seating); default 100,000."),
    ("precision", "Stop each matchup once the 95 % half-width of P(A wins) is at most this (0 to 0.5), instead of a fixed trial count."),
    ("seed", "The random seed: the same seed gives the same numbers on any thread count."),
    ("options", "Rule options of the ruleset; a key left out takes its default."),
    ("fighters", "The fighters, by name."),
    ("matchup", "Fights to run: side A against side B (a duel, or groups where the ruleset has them)."),
    ("matchup.a", "Side A (the first seat): a fighter's name, or a list of members [{ fighter = \"goblin\", count = 2, target = \"lowest_hp\" }, \"shaman\"]."),
    ("matchup.b", "Side B (the second seat): a fighter's name or a list of members, like `a`."),
    ("matchup.name", "The matchup's name in tables and charts (default \"A vs B\")."),
    ("sweep", "P(A wins) over a fighter's field, a side's member (its count) or an option, on common random numbers."),
    ("sweep.name", "The sweep's name in the report."),
    ("sweep.matchup", "The matchup swept (by name; default the first)."),
    ("sweep.fighter", "The fighter whose field changes (with `field`)."),
    ("sweep.member", "The member of the matchup's sides whose field changes (with `field`): its fighter's name, or \"a.NAME\"/\"b.NAME\" where it fights on both sides."),
    ("sweep.field", "The field that changes, dotted for nested keys (\"weapon.impact\"): the fighter's, or with `member` the member's count or target (or its fighter's field)."),
    ("sweep.option", "The rule option that changes instead of a field, dotted for nested keys."),
    ("sweep.values", "The values, in order (numbers, true/false or names)."),
    ("sweep.from", "The first value of a range (with `to` and `step`)."),
    ("sweep.to", "The last value of a range."),
    ("sweep.step", "The range's step (default 1)."),
    ("sweep.y", "A second axis: a 2-D sweep, shown as a grid and a heat map with the 50 % contour."),
    ("sweep.y.fighter", "The fighter whose field changes on the second axis."),
    ("sweep.y.member", "The member of the matchup's sides whose field changes on the second axis."),
    ("sweep.y.field", "The fighter's (or member's) field that changes on the second axis."),
    ("sweep.y.option", "The rule option that changes on the second axis."),
    ("sweep.y.values", "The second axis's values, in order."),
    ("sweep.y.from", "The second axis's first value."),
    ("sweep.y.to", "The second axis's last value."),
    ("sweep.y.step", "The second axis's step (default 1)."),
    ("balance", "Find the value of a field or option that brings a probability to a target."),
    ("balance.matchup", "The matchup whose P(A wins) is brought to the target (default the first)."),
    ("balance.fighter", "The fighter whose field is solved for (with `field`)."),
    ("balance.member", "The member of the matchup's sides whose field is solved for (with `field`, e.g. \"count\": how many goblins make the fight fair)."),
    ("balance.field", "The fighter's field solved for, or with `member` the member's count (or its fighter's field)."),
    ("balance.option", "The rule option solved for instead of a field."),
    ("balance.check", "A [[check]] (by name) whose P(success) is brought to the target instead of a matchup."),
    ("balance.param", "The check's parameter solved for (with `check`)."),
    ("balance.range", "The range searched, [low, high]: integers give an integer search."),
    ("balance.integer", "Search integers only (default: when the range is integers)."),
    ("balance.target", "The probability sought (e.g. 0.5 for a fair duel)."),
    ("balance.tolerance", "For real values: stop when the bracket is this narrow (default range/1000)."),
    ("tournament", "Every listed fighter against every other, in both seats."),
    ("tournament.name", "The tournament's name in the report."),
    ("tournament.fighters", "The entries taking part (default every fighter): a fighter's name, or a party written as a side's list of members [{ fighter = \"goblin\", count = 3 }]."),
    ("tournament.costs", "Costs by fighter, overriding the ruleset's own cost rules."),
    ("tournament.costs.*", "This fighter's cost."),
    ("tournament.cost_unit", "The unit of `costs` (e.g. \"gold\"), shown with every cost and fair cost (default: the rules' unit, else \"points\")."),
    ("tournament.fair_tolerance", "How far (in probability) a kit's win rate may lie from the fair line and still be fair (default 0.03)."),
    ("check", "A check, or a grid of checks over one or two parameters."),
    ("check.name", "The check's name (for [balance] check and [[assert]] check)."),
    ("check.params", "Fixed parameters of the check (`oddsmith check RULESET` lists them)."),
    ("check.params.*", "A parameter's value."),
    ("check.rows", "The grid's row parameter and its values."),
    ("check.rows.param", "The row parameter's name."),
    ("check.rows.values", "The row parameter's values."),
    ("check.cols", "The grid's column parameter and its values."),
    ("check.cols.param", "The column parameter's name."),
    ("check.cols.values", "The column parameter's values."),
    ("assert", "Bounds on a result: `oddsmith run` exits with code 3 when one fails."),
    ("assert.matchup", "The matchup bounded (by name)."),
    ("assert.check", "The [[check]] bounded (by name), for p_success."),
    ("assert.p_a_win", "[low, high] for P(A wins)."),
    ("assert.p_b_win", "[low, high] for P(B wins)."),
    ("assert.p_draw", "[low, high] for P(draw)."),
    ("assert.rounds_mean", "[low, high] for the mean fight length in rounds."),
    ("assert.p_success", "[low, high] for a single check's P(success)."),
    ("readings", "Run the readings study: every matchup under each declared reading and invented number it uses, one at a time, paired with the default."),
    ("readings.include", "Only these factors (marked keys such as \"hp_base\" or \"options.hp_base\"; default every one the file uses)."),
    ("readings.exclude", "Never these factors."),
];

/// The doc of the key at `path` (see [`KEY_DOCS`]), if it has one.
pub fn key_doc(path: &str) -> Option<&'static str> {
    KEY_DOCS.iter().find(|(p, _)| *p == path).map(|(_, d)| *d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use oddsmith_rules::schema::Shape;

    /// Every key path of `s` at `path`, as [`KEY_DOCS`] writes them (a slot's keys are the
    /// ruleset's, documented by their declarations).
    fn paths(s: &Shape, path: &str, out: &mut Vec<String>) {
        let child = |k: &str| {
            if path.is_empty() {
                k.to_string()
            } else {
                format!("{path}.{k}")
            }
        };
        match s {
            Shape::Optional(s) | Shape::Array(s) | Shape::NameOrTable(s) => paths(s, path, out),
            Shape::Map(s) if !matches!(**s, Shape::Slot(_)) => {
                out.push(child("*"));
                paths(s, &child("*"), out);
            }
            Shape::Object { props, .. } => {
                for p in props {
                    out.push(child(p.name));
                    paths(&p.shape, &child(p.name), out);
                }
            }
            _ => {}
        }
    }

    #[test]
    fn every_key_of_a_scenario_file_has_a_doc_and_no_doc_is_left_over() {
        let mut all = Vec::new();
        paths(&crate::file_shape(), "", &mut all);
        assert!(all.len() > 50, "{all:?}");
        let missing: Vec<_> = all.iter().filter(|p| key_doc(p).is_none()).collect();
        assert!(missing.is_empty(), "keys without a doc: {missing:?}");
        let stale: Vec<_> = KEY_DOCS
            .iter()
            .filter(|(p, _)| !all.iter().any(|a| a == p))
            .collect();
        assert!(stale.is_empty(), "docs of no key: {stale:?}");
        let mut seen = std::collections::BTreeSet::new();
        for (p, d) in KEY_DOCS {
            assert!(seen.insert(p), "{p} twice");
            assert!(d.ends_with('.') && d.len() > 10, "{p}: {d}");
        }
    }
}
