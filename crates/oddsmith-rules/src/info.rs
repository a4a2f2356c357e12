//! Self-description of a ruleset, for `oddsmith rulesets` and scenario authors.

use serde::Serialize;

/// One documented field or option.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct FieldDoc {
    /// The key as written in TOML.
    pub name: &'static str,
    /// The default, as TOML text ("required" when there is none).
    pub default: &'static str,
    /// One line: meaning, allowed values and the rule section it comes from.
    pub doc: &'static str,
}

/// A [`FieldDoc`] (a `const fn`, for the rulesets' doc tables).
pub const fn doc(name: &'static str, default: &'static str, doc: &'static str) -> FieldDoc {
    FieldDoc { name, default, doc }
}

/// Everything a scenario author needs to know about a ruleset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RulesetInfo {
    /// The ruleset id.
    pub id: &'static str,
    /// Human-readable title.
    pub title: &'static str,
    /// A short paragraph on what is modelled.
    pub summary: &'static str,
    /// Fighter fields (`[fighters.NAME]`).
    pub fighter_fields: Vec<FieldDoc>,
    /// Options (`[options]`) with the digest's defaults.
    pub options: Vec<FieldDoc>,
    /// Check parameters for `oddsmith check`.
    pub check_params: Vec<FieldDoc>,
}
