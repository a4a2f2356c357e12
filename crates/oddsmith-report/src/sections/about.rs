//! What was run: the scenario's description and facts (ruleset, seed, trials, version, time,
//! command) under the page title, and at the end its fighters and every option.

use crate::format::toml_text;
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
        let trials: Vec<String> = trials.iter().map(u64::to_string).collect();
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
        v.push(Block::Facts(
            facts.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        ));
        v
    }

    fn place(&self) -> Place {
        Place::End
    }

    fn sections(&self) -> Vec<Section> {
        let d = self.0;
        let fighters = Table::new(
            head(["fighter", "as run (defaults filled in)", "derived"]),
            d.fighters
                .iter()
                .map(|f| vec![f.name.clone(), spec_text(&f.spec), facts_text(&f.facts)])
                .collect(),
        );
        let options = Table {
            head: head(["option", "value", "default?"]),
            rows: d
                .run
                .options
                .iter()
                .map(|o| {
                    let changed = |text: String| Cell {
                        text,
                        marked: !o.default,
                    };
                    vec![
                        Cell::from(o.name.clone()),
                        changed(toml_text(&o.value)),
                        changed(if o.default { "default" } else { "changed" }.into()),
                    ]
                })
                .collect(),
        };
        vec![
            Section::new("Fighters", vec![Block::Records(fighters)]),
            Section::new("Options", vec![Block::Table(options)]),
        ]
    }
}
