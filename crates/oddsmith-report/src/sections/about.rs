//! What was run: the scenario's description and facts (ruleset, seed, trials, version, time,
//! command) under the page title, and at the end its fighters and every option.

use crate::format::{thousands, toml_text};
use crate::model::ReportData;
use crate::page::{Block, Cell, Section, Table, head};

use super::subject::{Place, Subject};

/// The run's facts, fighters and options.
pub struct About<'a>(pub &'a ReportData);

fn spec_text(spec: &serde_json::Value) -> String {
    spec.as_object()
        .map_or(vec![], |o| {
            o.iter()
                .map(|(k, v)| format!("{k} = {}", toml_text(v)))
                .collect::<Vec<_>>()
        })
        .join(", ")
}

fn facts_text(facts: &[(String, String)]) -> String {
    let f: Vec<String> = facts.iter().map(|(k, v)| format!("{k} {v}")).collect();
    f.join(", ")
}

impl Subject for About<'_> {
    fn intro(&self) -> Vec<Block> {
        let d = self.0;
        let mut trials: Vec<u64> = d.run.matchups.iter().map(|m| m.trials).collect();
        trials.dedup();
        let trials: Vec<String> = trials.iter().map(|&t| thousands(t)).collect();
        let facts = [
            ("ruleset", d.run.ruleset.clone()),
            ("scenario file", d.meta.scenario_file.clone()),
            ("seed", d.run.seed.to_string()),
            ("trials per matchup", trials.join(", ")),
            ("oddsmith", d.meta.oddsmith_version.clone()),
            ("generated", d.meta.generated_at.clone()),
            ("command", d.meta.command.clone()),
        ];
        let mut v: Vec<Block> = d
            .run
            .description
            .iter()
            .cloned()
            .map(Block::Paragraph)
            .collect();
        // A study without matchups states its own trials; no empty row here.
        v.push(Block::Facts(
            facts
                .into_iter()
                .filter(|(_, v)| !v.is_empty())
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        ));
        v
    }

    fn place(&self) -> Place {
        Place::End
    }

    fn sections(&self) -> Vec<Section> {
        vec![
            Section::new("Fighters", fighter_blocks(self.0)),
            Section::new("Options", option_blocks(self.0)),
        ]
    }
}

/// The fighters as a table of the fields that differ between them (with what the ruleset
/// derives), then every fighter in full, folded.
fn fighter_blocks(d: &ReportData) -> Vec<Block> {
    let specs: Vec<&serde_json::Map<String, serde_json::Value>> = d
        .fighters
        .iter()
        .filter_map(|f| f.spec.as_object())
        .collect();
    let mut keys: Vec<&String> = Vec::new();
    for s in &specs {
        for k in s.keys() {
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
    }
    let differ: Vec<&String> = keys
        .into_iter()
        .filter(|k| specs.windows(2).any(|w| w[0].get(*k) != w[1].get(*k)))
        .collect();
    let mut blocks = Vec::new();
    if d.fighters.len() > 1 && !differ.is_empty() {
        let mut h = vec!["fighter".to_string()];
        h.extend(differ.iter().map(|k| k.to_string()));
        h.push("derived".into());
        let rows = d
            .fighters
            .iter()
            .map(|f| {
                let mut r = vec![f.name.clone()];
                r.extend(
                    differ
                        .iter()
                        .map(|k| f.spec.get(k.as_str()).map_or("—".into(), toml_text)),
                );
                r.push(facts_text(&f.facts));
                r
            })
            .collect();
        blocks.push(Block::Note(
            "The fields in which the fighters differ; every fighter in full below.".into(),
        ));
        blocks.push(Block::table(h, rows));
    }
    let full = Table::new(
        head(["fighter", "as run (defaults filled in)", "derived"]),
        d.fighters
            .iter()
            .map(|f| vec![f.name.clone(), spec_text(&f.spec), facts_text(&f.facts)])
            .collect(),
    );
    if blocks.is_empty() {
        blocks.push(Block::Records(full));
    } else {
        blocks.push(Block::Details {
            summary: format!("every field of the {} fighters, as run", d.fighters.len()),
            blocks: vec![Block::Records(full)],
        });
    }
    blocks
}

/// The options the scenario changed, then the others folded away at their defaults.
fn option_blocks(d: &ReportData) -> Vec<Block> {
    let row = |o: &crate::model::OptionValue| {
        let changed = |text: String| Cell {
            text,
            marked: !o.default,
        };
        vec![
            Cell::from(o.name.clone()),
            changed(toml_text(&o.value)),
            changed(if o.default { "default" } else { "changed" }.into()),
        ]
    };
    let table = |rows: Vec<Vec<Cell>>| Table {
        head: head(["option", "value", "default?"]),
        rows,
    };
    let (changed, defaults): (Vec<_>, Vec<_>) = d.run.options.iter().partition(|o| !o.default);
    let mut blocks = Vec::new();
    if changed.is_empty() {
        blocks.push(Block::Paragraph(
            "Every option at the ruleset's default.".into(),
        ));
    } else {
        blocks.push(Block::Table(table(changed.into_iter().map(row).collect())));
    }
    if !defaults.is_empty() {
        blocks.push(Block::Details {
            summary: format!("{} options at their defaults", defaults.len()),
            blocks: vec![Block::Table(table(defaults.into_iter().map(row).collect()))],
        });
    }
    blocks
}
