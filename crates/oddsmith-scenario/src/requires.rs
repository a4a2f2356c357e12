//! The one check of settings read only with another setting, for every ruleset, from the
//! declarations ([`oddsmith_rules::Requires`], declared with `requires = …` beside a
//! ruleset's fighter spec and options): a dependent setting the file gives while none of its
//! conditions holds is refused at its key (the file is certainly wrong) or warned about (it
//! merely has no effect).

use std::collections::BTreeMap;

use oddsmith_rules::{Documented, FieldDoc, HoldsOptions, Requires, Ruleset};
use serde::Serialize;

use crate::locate::{Doc, Seg};
use crate::{ScenarioError, Warning};

/// The options' and every fighter's dependent settings: the warnings, or the first error.
pub(crate) fn check<R: Ruleset>(
    doc: &Doc<'_>,
    options: &<R as HoldsOptions>::Options,
    fighters: &BTreeMap<String, R::FighterSpec>,
) -> Result<Vec<Warning>, ScenarioError> {
    let key = |k: &str| Seg::Key(k.to_string());
    let opts = Values {
        table: as_table(options),
        docs: <R::Options as Documented>::DOCS,
    };
    let mut warnings = Vec::new();
    let base = vec![key("options")];
    let rules = <R::Options as Documented>::REQUIRES;
    apply(doc, &base, rules, &opts, &opts, &mut warnings)?;
    for (name, spec) in fighters {
        let base = vec![key("fighters"), key(name)];
        let own = Values {
            table: as_table(spec),
            docs: R::FighterSpec::DOCS,
        };
        apply(
            doc,
            &base,
            R::FighterSpec::REQUIRES,
            &own,
            &opts,
            &mut warnings,
        )?;
    }
    Ok(warnings)
}

/// A declared table's values in force: as serialized, and where serialization leaves a value
/// out (a default skipped), its documented default.
struct Values {
    table: toml::Table,
    docs: &'static [FieldDoc],
}

impl Values {
    /// The value at a dotted path as text (strings without quotes); `None` where absent.
    fn get(&self, path: &str) -> Option<String> {
        lookup(&self.table, path).or_else(|| {
            let first = path.split('.').next()?;
            let d = self.docs.iter().find(|d| d.name == first)?;
            let t: toml::Table = toml::from_str(&format!("{first} = {}", d.default)).ok()?;
            lookup(&t, path)
        })
    }
}

/// Checks `rules` for the table at `base` (its values in force `own`; `options.…` conditions
/// read `opts`).
fn apply(
    doc: &Doc<'_>,
    base: &[Seg],
    rules: &[Requires],
    own: &Values,
    opts: &Values,
    warnings: &mut Vec<Warning>,
) -> Result<(), ScenarioError> {
    for r in rules {
        let mut at = base.to_vec();
        at.extend(r.field.split('.').map(|k| Seg::Key(k.to_string())));
        if !doc.given(&at) {
            continue;
        }
        let values: Vec<Option<String>> = r
            .only_with
            .iter()
            .map(|c| match c.field.strip_prefix("options.") {
                Some(rest) => opts.get(rest),
                None => own.get(c.field),
            })
            .collect();
        if let Some(m) = r.unmet(&values) {
            let e = doc.error(&at, m);
            if r.refuse {
                return Err(e);
            }
            warnings.push(e.into());
        }
    }
    Ok(())
}

/// A declared table as TOML values (with its defaults filled in).
fn as_table<T: Serialize>(v: &T) -> toml::Table {
    match toml::Value::try_from(v) {
        Ok(toml::Value::Table(t)) => t,
        _ => toml::Table::new(),
    }
}

/// The value at a dotted path as text (strings without quotes); `None` where absent.
fn lookup(t: &toml::Table, path: &str) -> Option<String> {
    let mut parts = path.split('.');
    let mut v = t.get(parts.next()?)?;
    for p in parts {
        v = v.as_table()?.get(p)?;
    }
    Some(match v {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    })
}
