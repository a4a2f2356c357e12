//! `oddsmith rulesets [ID] [--json]`: the registered rulesets, or one ruleset's fighter
//! fields, options and check parameters with their defaults; with `--equipment`, its built-in
//! tables ([`crate::cmd::equipment`]).

use std::io::Write;

use anyhow::{Result, bail};
use oddsmith_rules::{RULESET_IDS, Ruleset, RulesetInfo, RulesetVisitor, visit};

use oddsmith_scenario::messages::unknown_name;

use crate::error::InputError;

/// Lists every ruleset, or describes `ruleset`.
pub(crate) fn rulesets(
    ruleset: Option<String>,
    json: bool,
    equipment: bool,
    out: &mut dyn Write,
) -> Result<()> {
    match ruleset {
        None => {
            let infos: Vec<RulesetInfo> = RULESET_IDS
                .iter()
                .map(|id| visit(id, Info).expect("listed id"))
                .collect();
            if json {
                writeln!(out, "{}", serde_json::to_string_pretty(&infos)?)?;
            } else {
                for i in infos {
                    writeln!(out, "{:<10} {}", i.id, i.title)?;
                }
            }
        }
        Some(id) => {
            let Some(info) = visit(&id, Info) else {
                bail!(InputError(unknown_name(
                    "ruleset",
                    &id,
                    RULESET_IDS.iter().copied()
                )));
            };
            if equipment {
                let tables = crate::cmd::equipment::tables(&id);
                if json {
                    writeln!(out, "{}", serde_json::to_string_pretty(&tables)?)?;
                } else {
                    crate::cmd::equipment::print(&id, &tables, out)?;
                }
            } else if json {
                writeln!(out, "{}", serde_json::to_string_pretty(&info)?)?;
            } else {
                write!(out, "{}", describe(&info))?;
            }
        }
    }
    Ok(())
}

/// Visits a ruleset for its [`RulesetInfo`] (`visit(id, Info)`).
pub(super) struct Info;

impl RulesetVisitor for Info {
    type Output = RulesetInfo;
    fn visit<R: Ruleset>(self) -> RulesetInfo {
        R::info()
    }
}

/// ` (else refused)` for a dependency whose breach is an error, else ` (else a warning)`.
fn severity(r: &oddsmith_rules::Requires) -> &'static str {
    if r.refuse {
        " (else refused)"
    } else {
        " (else a warning: no effect)"
    }
}

fn describe(i: &RulesetInfo) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(s, "{} — {}\n{}\n", i.id, i.title, i.summary);
    for (title, fields, requires) in [
        (
            "fighter fields ([fighters.NAME])",
            &i.fighter_fields,
            &i.fighter_requires,
        ),
        ("options ([options])", &i.options, &i.option_requires),
        (
            "check parameters (oddsmith check ID key=value…)",
            &i.check_params,
            &i.check_requires,
        ),
    ] {
        let _ = writeln!(s, "{title}:");
        for f in fields.iter() {
            let _ = writeln!(s, "  {} = {}\n      {}", f.name, f.default, f.doc);
            if let Some(m) = f.mark.text() {
                let _ = writeln!(s, "      {m}");
            }
            // Marks of its nested keys (`shield_max_parry_impact.small`).
            let nested = format!("options.{}.", f.name);
            for m in i.marks.iter().filter(|m| m.key.starts_with(&nested)) {
                if let Some(t) = m.mark.text() {
                    let _ = writeln!(s, "      {}: {t}", &m.key["options.".len()..]);
                }
            }
            // The field's own dependencies, then those of its nested keys (`tactics.hold`).
            for r in requires.iter().filter(|r| r.field == f.name) {
                let _ = writeln!(s, "      {}{}", r.only_with_text(), severity(r));
            }
            let nested = format!("{}.", f.name);
            for r in requires.iter().filter(|r| r.field.starts_with(&nested)) {
                let _ = writeln!(
                    s,
                    "      {}: {}{}",
                    r.field,
                    r.only_with_text(),
                    severity(r)
                );
            }
        }
        let _ = writeln!(s);
    }
    for t in &i.tables {
        let _ = writeln!(
            s,
            "inline {} table ({} = {{ … }}; named like a built-in {}, it inherits the fields it leaves out):",
            t.what,
            t.keys.join(", "),
            t.what
        );
        for f in t.fields {
            let _ = writeln!(s, "  {} = {}\n      {}", f.name, f.default, f.doc);
            if let Some(m) = f.mark.text() {
                let _ = writeln!(s, "      {m}");
            }
        }
        let _ = writeln!(s);
    }
    if !i.placeholders.is_empty() {
        let _ = writeln!(
            s,
            "built-in statistics that are placeholders (oddsmith rulesets {} --equipment):",
            i.id
        );
        for p in &i.placeholders {
            if let Some(t) = p.mark.text() {
                let _ = writeln!(s, "  {} {}: {t}", p.item, p.field);
            }
        }
        let _ = writeln!(s);
    }
    let (r, n) = i.marks.iter().fold((0, 0), |(r, n), m| match m.mark {
        oddsmith_rules::Mark::Reading { .. } => (r + 1, n),
        _ => (r, n + 1),
    });
    let _ = writeln!(
        s,
        "{r} readings and {n} invented or placeholder numbers are marked above; \
         `oddsmith run FILE --readings` shows which of them move an answer."
    );
    s
}
