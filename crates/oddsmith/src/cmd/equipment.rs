//! `oddsmith rulesets ID --equipment`: every built-in table of a ruleset (weapons, armour,
//! shields, species and monsters, classes) with the statistics a fighter gets by naming an
//! entry. The rows come from the rulesets' own tables and look-ups, so the listing is what a
//! scenario gets.

use std::io::Write;

use anyhow::Result;
use oddsmith_rules::{cards, d20, draft, gamecraft, openrpg};
use serde::Serialize;
use serde_json::{Map, Value, json};

/// One built-in table: a title and its rows (each a JSON object; `name` first).
#[derive(Debug, Serialize)]
pub(crate) struct Table {
    /// What the table holds and the fighter field that names its entries.
    pub title: String,
    /// Column names, in order.
    pub columns: Vec<String>,
    /// One object per entry.
    pub rows: Vec<Map<String, Value>>,
    /// The statistics of these rows that are placeholders (not in the seed), with a
    /// plausible range: marked `*` in the text listing.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub placeholders: Vec<oddsmith_rules::Placeholder>,
}

impl Table {
    /// A table from serialisable rows; the columns are the first row's keys, `name` first.
    fn of<T: Serialize>(title: &str, rows: impl IntoIterator<Item = T>) -> Table {
        let rows: Vec<Map<String, Value>> = rows
            .into_iter()
            .map(|r| match serde_json::to_value(r) {
                Ok(Value::Object(m)) => m,
                Ok(other) => Map::from_iter([("value".to_string(), other)]),
                Err(e) => Map::from_iter([("error".to_string(), Value::String(e.to_string()))]),
            })
            .collect();
        let mut columns: Vec<String> = rows
            .first()
            .map_or_else(Vec::new, |r| r.keys().cloned().collect());
        if let Some(i) = columns.iter().position(|c| c == "name") {
            let n = columns.remove(i);
            columns.insert(0, n);
        }
        Table {
            title: title.into(),
            columns,
            rows,
            placeholders: Vec::new(),
        }
    }
}

/// The built-in tables of ruleset `id` (empty for an unknown id), each with the placeholders
/// its rows hold ([`oddsmith_rules::Ruleset::PLACEHOLDERS`]).
pub(crate) fn tables(id: &str) -> Vec<Table> {
    let placeholders = oddsmith_rules::visit(id, crate::cmd::rulesets::Info)
        .map(|i| i.placeholders)
        .unwrap_or_default();
    let mut tables = builtin_tables(id);
    for t in &mut tables {
        t.placeholders = placeholders
            .iter()
            .filter(|p| {
                t.rows
                    .iter()
                    .any(|r| r.get("name").and_then(Value::as_str) == Some(p.item))
            })
            .copied()
            .collect();
    }
    tables
}

fn builtin_tables(id: &str) -> Vec<Table> {
    match id {
        "draft" => draft_tables(),
        "gamecraft" => gamecraft_tables(),
        "d20" => d20_tables(),
        "openrpg" => {
            // Each row says whether its numbers are the seed's (`source`).
            let sourced = |v: Value| match v {
                Value::Object(mut m) => {
                    let name = m
                        .get("name")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string();
                    m.insert("source".into(), json!(openrpg::spec::builtin_source(&name)));
                    Value::Object(m)
                }
                v => v,
            };
            let rows = |v: Vec<Value>| v.into_iter().map(sourced).collect::<Vec<_>>();
            vec![
                Table::of(
                    "weapons (weapon = \"…\"; crit_range under d20 ≤, legacy_crit_range under d20 ≥)",
                    rows(
                        openrpg::spec::builtin_weapons()
                            .iter()
                            .map(|w| json!(w))
                            .collect(),
                    ),
                ),
                Table::of(
                    "armour (armor = \"…\")",
                    rows(
                        openrpg::spec::builtin_armors()
                            .iter()
                            .map(|a| json!(a))
                            .collect(),
                    ),
                ),
            ]
        }
        "cards" => vec![Table::of(
            "weapons and shields (weapon = \"…\", off_hand = \"…\")",
            cards::spec::WEAPONS
                .iter()
                .map(|w| w.0)
                .chain(cards::spec::RANGED.iter().map(|w| w.0))
                .filter_map(cards::spec::weapon),
        )],
        _ => Vec::new(),
    }
}

fn draft_tables() -> Vec<Table> {
    use draft::tables::{ArmourKind, ArmourTable, WEAPONS, weapon};
    let armour = ArmourKind::NAMES
        .into_iter()
        .filter_map(|n| ArmourKind::from_name(n).map(|k| (n, k)))
        .map(|(name, k)| {
            let cell = |t| {
                k.stats(t)
                    .map_or(Value::Null, |(p, m)| json!(format!("{p}/{m:+}")))
            };
            json!({
                "name": name,
                "table_a (protection/movement)": cell(ArmourTable::A),
                "table_b (protection/movement)": cell(ArmourTable::B),
            })
        });
    let o = draft::options::DraftOptions::default();
    let shields = [
        (
            "small",
            o.shield_bonus.small,
            o.shield_max_parry_impact.small,
        ),
        (
            "large",
            o.shield_bonus.large,
            o.shield_max_parry_impact.large,
        ),
    ]
    .map(|(name, bonus, max)| json!({"name": name, "parry_bonus": bonus, "max_parry_impact": max}));
    vec![
        Table::of(
            "weapons (weapon = \"…\")",
            WEAPONS
                .iter()
                .filter_map(|w| weapon(w.0))
                .filter(|w| !w.ranged),
        ),
        Table::of(
            "missile and thrown weapons (missile = \"…\"; ranges in metres, preparation in segments; supply not in the seed)",
            WEAPONS
                .iter()
                .filter_map(|w| weapon(w.0))
                .filter(|w| w.ranged)
                .map(|w| {
                    json!({
                        "name": w.name,
                        "impact": w.impact,
                        "aspect": w.aspect,
                        "hands": w.hands,
                        "point_blank": w.point_blank,
                        "max_range": w.max_range,
                        "prepare": w.prepare,
                        "thrown": w.thrown,
                        "supply": w.supply,
                    })
                }),
        ),
        Table::of(
            "armour (armour = \"…\"; options.armor_table picks A or B)",
            armour,
        ),
        Table::of("shields (shield = \"…\"; default options)", shields),
    ]
}

fn gamecraft_tables() -> Vec<Table> {
    use gamecraft::tables::{ARMORS, WEAPONS, weapon};
    vec![
        Table::of(
            "weapons (weapon = \"…\")",
            WEAPONS.iter().filter_map(|w| weapon(w.0)),
        ),
        Table::of(
            "armour (armor = \"…\")",
            ARMORS
                .iter()
                .map(|&(name, r)| json!({"name": name, "resistance": r})),
        ),
    ]
}

fn d20_tables() -> Vec<Table> {
    use d20::tables::{ARMORS, CLASSES, SHIELDS, SPECIES, WEAPONS, class, species, weapon};
    let ptm = |table: &'static [(&'static str, i32, i32)]| {
        table
            .iter()
            .map(|&(name, btd, sixths)| json!({"name": name, "btd": btd, "ptm_sixths": sixths}))
    };
    vec![
        Table::of(
            "weapons (weapon = \"…\")",
            WEAPONS.iter().filter_map(|w| weapon(w.0)),
        ),
        Table::of("armour (armor = \"…\")", ptm(ARMORS)),
        Table::of("shields (shield = \"…\")", ptm(SHIELDS)),
        Table::of(
            "species and monsters (species = \"…\")",
            SPECIES.iter().filter_map(|s| species(s.0)),
        ),
        Table::of(
            "classes (class = \"…\")",
            CLASSES.iter().filter_map(|c| class(c.0)),
        ),
    ]
}

/// Prints the tables as aligned text, one block per table.
pub(crate) fn print(id: &str, tables: &[Table], out: &mut dyn Write) -> Result<()> {
    writeln!(
        out,
        "{id} — built-in tables (name an entry in a fighter, or give an inline table)"
    )?;
    for t in tables {
        writeln!(out, "\n{}:", t.title)?;
        let cells: Vec<Vec<String>> = t
            .rows
            .iter()
            .map(|r| {
                let name = r.get("name").and_then(Value::as_str);
                t.columns
                    .iter()
                    .map(|c| {
                        let v = cell(r.get(c));
                        let marked = t
                            .placeholders
                            .iter()
                            .any(|p| Some(p.item) == name && c.starts_with(p.field));
                        if marked { format!("{v}*") } else { v }
                    })
                    .collect()
            })
            .collect();
        let widths: Vec<usize> = t
            .columns
            .iter()
            .enumerate()
            .map(|(i, c)| {
                cells
                    .iter()
                    .map(|r| r[i].chars().count())
                    .chain([c.chars().count()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let line = |row: &[String]| {
            let parts: Vec<String> = row
                .iter()
                .zip(&widths)
                .map(|(s, w)| format!("{s:<w$}"))
                .collect();
            format!("  {}", parts.join("  ").trim_end())
        };
        writeln!(out, "{}", line(&t.columns))?;
        for r in &cells {
            writeln!(out, "{}", line(r))?;
        }
        if !t.placeholders.is_empty() {
            writeln!(out, "  * placeholder (not in the seed):")?;
            for p in &t.placeholders {
                if let Some(text) = p.mark.text() {
                    let text = text.trim_start_matches("placeholder (not in the seed): ");
                    writeln!(out, "    {} {}: {text}", p.item, p.field)?;
                }
            }
        }
    }
    Ok(())
}

/// A cell as text: strings bare, `null` as `—`, lists and tables as compact JSON.
fn cell(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => "—".into(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ruleset_lists_its_tables() {
        for id in oddsmith_rules::RULESET_IDS {
            let t = tables(id);
            assert!(!t.is_empty(), "{id}");
            for table in &t {
                assert!(!table.rows.is_empty(), "{id}: {}", table.title);
                assert_eq!(table.columns.first().map(String::as_str), Some("name"));
            }
        }
        let d20 = tables("d20");
        assert!(d20.iter().any(|t| t.title.starts_with("species")));
        assert!(d20.iter().any(|t| t.title.starts_with("classes")));
    }

    /// Issue 36: every placeholder statistic's declared value (what a readings study takes as
    /// the baseline, and `oddsmith rulesets ID` shows) is the built-in table's, and every
    /// placeholder's item is in a table.
    #[test]
    fn every_placeholder_is_its_tables_value() {
        for id in oddsmith_rules::RULESET_IDS {
            let all = oddsmith_rules::visit(id, crate::cmd::rulesets::Info)
                .map(|i| i.placeholders)
                .unwrap_or_default();
            let t = tables(id);
            for p in &all {
                let cell = t
                    .iter()
                    .flat_map(|t| &t.rows)
                    .find(|r| r.get("name").and_then(Value::as_str) == Some(p.item))
                    .unwrap_or_else(|| panic!("{id}: {} is in no table", p.item))
                    .get(p.field)
                    .unwrap_or_else(|| panic!("{id}: {} has no {}", p.item, p.field));
                let text = match cell {
                    Value::String(s) => format!("{s:?}"),
                    v => v.to_string(),
                };
                assert_eq!(text, p.value, "{id}: {}.{}", p.item, p.field);
            }
        }
    }
}
