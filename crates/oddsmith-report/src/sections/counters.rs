//! The ruleset's own counters (e.g. dodges, fumbles) as means per duel: the `counters` table.

#[cfg(feature = "tables")]
use polars::prelude::{DataFrame, PolarsResult};

use crate::format::col;
use crate::model::ReportData;

use super::subject::{NamedTable, Subject};

/// The counters of every matchup.
pub struct Counters<'a>(pub &'a ReportData);

impl Subject for Counters<'_> {
    #[cfg(feature = "tables")]
    fn tables(&self) -> PolarsResult<Vec<NamedTable>> {
        Ok(vec![("counters", counters(self.0)?)])
    }
}

/// The ruleset's extra counters as means per duel.
#[cfg(feature = "tables")]
pub fn counters(d: &ReportData) -> PolarsResult<DataFrame> {
    let (mut name, mut counter, mut mean) = (vec![], vec![], vec![]);
    for m in &d.run.matchups {
        for (k, v) in &m.counters {
            name.push(m.name.as_str());
            counter.push(*k);
            mean.push(*v);
        }
    }
    DataFrame::new_infer_height(vec![
        col("matchup", name),
        col("counter", counter),
        col("mean_per_duel", mean),
    ])
}
