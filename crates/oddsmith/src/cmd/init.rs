//! `oddsmith init RULESET [NAME]`: writes a commented starter scenario — two fighters armed
//! from the ruleset's built-in tables, one matchup, and every fighter field and option listed
//! with its default and doc (commented out), so a designer edits rather than types. The text is
//! generated from the ruleset's own declarations (`oddsmith rulesets ID`), and a test loads it
//! for every ruleset.

use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use oddsmith_rules::{FieldDoc, RULESET_IDS, RulesetInfo, visit};

use crate::cmd::equipment;
use crate::cmd::rulesets::Info;
use crate::error::InputError;

/// Writes `NAME.toml` (default `<ruleset>-starter.toml`); never replaces an existing file.
pub(crate) fn init(ruleset: &str, name: Option<String>, out: &mut dyn Write) -> Result<()> {
    let Some(info) = visit(ruleset, Info) else {
        bail!(InputError(oddsmith_scenario::messages::unknown_name(
            "ruleset",
            ruleset,
            RULESET_IDS.iter().copied()
        )));
    };
    let given = name.unwrap_or_else(|| format!("{ruleset}-starter"));
    let path = PathBuf::from(if given.ends_with(".toml") {
        given.clone()
    } else {
        format!("{given}.toml")
    });
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| !s.trim().is_empty())
        .ok_or_else(|| InputError(format!("cannot name a scenario after {given:?}")))?;
    if path.exists() {
        bail!(InputError(format!(
            "{} exists already; give another name (oddsmith init {ruleset} NAME)",
            path.display()
        )));
    }
    let text = starter(&info, &stem)?;
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    writeln!(
        out,
        "wrote {p}: two {ruleset} fighters and one matchup; edit it, then: oddsmith run {p}",
        p = path.display()
    )?;
    Ok(())
}

/// The starter scenario's text for ruleset `info`, named `name`.
pub(crate) fn starter(info: &RulesetInfo, name: &str) -> Result<String> {
    let id = info.id;
    let weapons: Vec<String> = equipment::tables(id)
        .iter()
        .find(|t| t.title.starts_with("weapons"))
        .map(|t| {
            t.rows
                .iter()
                .filter_map(|r| r.get("name").and_then(|n| n.as_str()).map(String::from))
                .collect()
        })
        .unwrap_or_default();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# A starter scenario for {} ({id}), written by `oddsmith init`.\n\
         # Two fighters and one matchup; every fighter field and option is listed below with its\n\
         # default, commented out: uncomment a line to change it. Built-in weapons, armour and the\n\
         # rest: `oddsmith rulesets {id} --equipment`; every key: `oddsmith rulesets {id}`.\n\
         # Check it with `oddsmith validate {name}.toml`, run it with `oddsmith run {name}.toml`.",
        info.title
    );
    let _ = writeln!(
        s,
        "name = {name:?}\nruleset = \"{id}\"\ntrials = 100_000\nseed = 1\n"
    );
    let _ = writeln!(s, "[options]");
    commented(&mut s, &info.options);
    for (i, fighter) in ["a", "b"].into_iter().enumerate() {
        let _ = writeln!(s, "\n[fighters.{fighter}]");
        // Required fields get a value, and so does `weapon` (a d20 human has no natural attack).
        let given = |f: &FieldDoc| f.default == "required" || f.name == "weapon";
        for f in &info.fighter_fields {
            if given(f) {
                let value = required_value(f.name, i, &weapons).ok_or_else(|| {
                    anyhow::anyhow!(
                        "init: no starter value for the required field {id}.{}",
                        f.name
                    )
                })?;
                let _ = writeln!(s, "# {}\n{} = {value}", f.doc, f.name);
            }
        }
        commented(
            &mut s,
            &info
                .fighter_fields
                .iter()
                .filter(|f| !given(f))
                .cloned()
                .collect::<Vec<_>>(),
        );
    }
    let _ = writeln!(s, "\n[[matchup]]\na = \"a\"");
    if info.fighter_fields.iter().any(|f| f.name == "count") {
        // A ruleset with group fights: show the list form of a side.
        let _ = writeln!(
            s,
            "# A side may be a list of members (a group fight): fighter, count, whom they attack\n\
             # (target = \"lowest_hp\" | \"highest_hp\" | \"most_wounded\" | \"most_dangerous\" |\n\
             # \"easiest_to_hit\" | \"random\" | \"first\"; what the ruleset plays: `oddsmith rulesets {id}`).\n\
             # b = [{{ fighter = \"b\", count = 2, target = \"lowest_hp\" }}]"
        );
    }
    let _ = writeln!(s, "b = \"b\"");
    Ok(s)
}

/// Every entry as `# key = default` under its doc.
fn commented(s: &mut String, fields: &[FieldDoc]) {
    for f in fields {
        let _ = writeln!(s, "# {} = {}\n#     {}", f.name, f.default, f.doc);
    }
}

/// A value for a field the ruleset requires: fighter `i`'s weapon (the first and second
/// built-in ones), or a middling skill.
fn required_value(field: &str, i: usize, weapons: &[String]) -> Option<String> {
    match field {
        "weapon" => weapons
            .get(i.min(weapons.len().saturating_sub(1)))
            .map(|w| format!("{w:?}")),
        "skill" => Some("5".into()),
        _ => None,
    }
}
