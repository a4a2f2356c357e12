//! Damage dealt per duel by each side: the `damage` table and one chart per matchup.

#[cfg(feature = "tables")]
use polars::prelude::{DataFrame, PolarsResult};

use crate::charts::{Chart, Corner, Plot, Series, Style, XyPlot};
use crate::format::col;
use crate::model::ReportData;

use super::rounds::{shares, x_max};
use super::subject::{NamedChart, NamedTable, Subject};

/// Damage in every matchup.
pub struct Damage<'a>(pub &'a ReportData);

impl Subject for Damage<'_> {
    #[cfg(feature = "tables")]
    fn tables(&self) -> PolarsResult<Vec<NamedTable>> {
        Ok(vec![("damage", damage(self.0)?)])
    }

    fn matchup_charts(&self, i: usize) -> Vec<NamedChart> {
        let name = &self.0.run.matchups[i].name;
        vec![(format!("damage-{}", i + 1), damage_chart(self.0, i, name))]
    }
}

/// Damage dealt per duel by each side: one row per matchup, side and damage total.
#[cfg(feature = "tables")]
pub fn damage(d: &ReportData) -> PolarsResult<DataFrame> {
    let (mut name, mut side, mut fighter, mut dmg, mut count, mut p) =
        (vec![], vec![], vec![], vec![], vec![], vec![]);
    for (m, s) in d.run.matchups.iter().zip(&d.stats) {
        let n = s.trials() as f64;
        for (i, (label, f)) in [("a", &m.a), ("b", &m.b)].into_iter().enumerate() {
            for (v, c) in s.damage[i].iter() {
                name.push(m.name.as_str());
                side.push(label);
                fighter.push(f.as_str());
                dmg.push(v);
                count.push(c);
                p.push(c as f64 / n);
            }
        }
    }
    DataFrame::new_infer_height(vec![
        col("matchup", name),
        col("side", side),
        col("fighter", fighter),
        col("damage", dmg),
        col("count", count),
        col("p", p),
    ])
}

/// Damage points dealt per duel by each side.
pub fn damage_chart(d: &ReportData, i: usize, name: &str) -> Chart {
    let m = &d.run.matchups[i];
    let s = &d.stats[i];
    let hi = x_max(&s.damage[0], 5).max(x_max(&s.damage[1], 5));
    let a = shares(&s.damage[0], 0, hi);
    let b = shares(&s.damage[1], 0, hi);
    let top = a.iter().chain(&b).map(|p| p.1).fold(0.0, f64::max);
    Chart {
        title: format!("Damage dealt per duel: {name}"),
        width: 1000,
        height: 460,
        plot: Plot::Xy(XyPlot {
            x_desc: "damage points dealt in the whole duel (after armour)".into(),
            y_desc: "share of duels".into(),
            x_range: (-0.5, hi as f64 + 0.5),
            y_range: (0.0, (top * 1.12).max(0.01)),
            y_percent: true,
            x_integer: true,
            legend: Corner::UpperRight,
            series: vec![
                Series::new(
                    &format!("{} (A), mean {:.2}", m.a, m.side_a.damage.mean),
                    0,
                    Style::Bars {
                        offset: -0.2,
                        width: 0.4,
                    },
                    a,
                ),
                Series::new(
                    &format!("{} (B), mean {:.2}", m.b, m.side_b.damage.mean),
                    1,
                    Style::Bars {
                        offset: 0.2,
                        width: 0.4,
                    },
                    b,
                ),
            ],
        }),
    }
}
