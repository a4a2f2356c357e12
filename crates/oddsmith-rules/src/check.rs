//! Single checks: parameters in, an exact distribution and its reading out.

use std::collections::BTreeMap;

use oddsmith_dice::Dist;

use crate::{FieldDoc, Requires, RulesError};

/// Check parameters as `key=value` pairs (from the command line or a scenario).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckParams {
    values: BTreeMap<String, String>,
}

impl CheckParams {
    /// Parses `key=value` words; keys are lower-cased.
    pub fn parse<'a>(words: impl IntoIterator<Item = &'a str>) -> Result<Self, RulesError> {
        let mut values = BTreeMap::new();
        for w in words {
            let Some((k, v)) = w.split_once('=') else {
                return Err(RulesError::check(w, "expected key=value, e.g. skill=5"));
            };
            let k = k.trim().to_ascii_lowercase();
            if values.insert(k.clone(), v.trim().to_string()).is_some() {
                return Err(RulesError::check(k, "given twice"));
            }
        }
        Ok(CheckParams { values })
    }

    /// The raw value of `key`, if given.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.values.get(key).map(String::as_str)
    }

    /// An integer parameter, or `default` when absent.
    pub fn int_or(&self, key: &str, default: i64) -> Result<i64, RulesError> {
        match self.get(key) {
            None => Ok(default),
            Some(v) => v
                .parse()
                .map_err(|_| RulesError::check(key, format!("expected an integer, got {v:?}"))),
        }
    }

    /// Refuses a given parameter that none of its `requires` conditions lets the check read
    /// (each other parameter's value as given, else its documented default in `docs`). Every
    /// breach is an error here: a `key=value` the check ignores is a mistake on the command
    /// line or in a `[[check]]`.
    pub fn requires(&self, docs: &[FieldDoc], requires: &[Requires]) -> Result<(), RulesError> {
        for r in requires {
            if self.get(r.field).is_none() {
                continue;
            }
            let values: Vec<Option<String>> = r
                .only_with
                .iter()
                .map(|c| {
                    self.get(c.field).map(str::to_string).or_else(|| {
                        docs.iter()
                            .find(|d| d.name == c.field)
                            .map(|d| d.default.trim_matches('"').to_string())
                    })
                })
                .collect();
            if let Some(m) = r.unmet(&values) {
                return Err(RulesError::check(r.field, m));
            }
        }
        Ok(())
    }

    /// Fails on any key not in `allowed`.
    pub fn only(&self, allowed: &[&str]) -> Result<(), RulesError> {
        for k in self.values.keys() {
            if !allowed.contains(&k.as_str()) {
                return Err(RulesError::check(
                    k.clone(),
                    format!("unknown parameter; expected one of: {}", allowed.join(", ")),
                ));
            }
        }
        Ok(())
    }
}

/// A named range of check results (e.g. "catastrophic" for ≤ TN−5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Band {
    /// Band name.
    pub name: String,
    /// Lowest result in the band, inclusive (`None` = unbounded).
    pub lo: Option<i64>,
    /// Highest result in the band, inclusive (`None` = unbounded).
    pub hi: Option<i64>,
}

impl Band {
    /// Whether `v` falls in the band.
    pub fn contains(&self, v: i64) -> bool {
        self.lo.is_none_or(|lo| v >= lo) && self.hi.is_none_or(|hi| v <= hi)
    }
}

/// The exact distribution of a check's result and how to read it.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckExact {
    /// One-line description of what was checked.
    pub description: String,
    /// Distribution of the check's result value.
    pub distribution: Dist,
    /// A result at or above this value succeeds.
    pub success_at_least: i64,
    /// Named result bands, if the rules define any.
    pub bands: Vec<Band>,
}

impl CheckExact {
    /// Exact P(success).
    pub fn p_success(&self) -> f64 {
        self.distribution.p_at_least(self.success_at_least)
    }
    /// Exact probability of each band.
    pub fn band_probabilities(&self) -> Vec<f64> {
        self.bands
            .iter()
            .map(|b| {
                self.distribution
                    .iter()
                    .filter(|&(v, _)| b.contains(v))
                    .map(|(v, _)| self.distribution.p(v))
                    .sum()
            })
            .collect()
    }
}

/// A grid of checks for reports, e.g. skill × difficulty.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckGrid<C> {
    /// What the rows are ("skill").
    pub row_name: &'static str,
    /// What the columns are ("difficulty").
    pub col_name: &'static str,
    /// What the column values are ("tn").
    pub col_value_name: &'static str,
    /// Cells, row-major: (row value, column label, column value, check).
    pub cells: Vec<(i64, String, i64, C)>,
}
