//! The d20 "Stats and Rules Taxonomy": a rules-light d20 house system. 1d20 + BtH + ability +
//! equipment against Defense, natural 1 / natural 20 optional results, weapon damage from a
//! maximum set by weapon class and wielder size, HP rolled per Hit Die by size plus class
//! levels `n(b+d4)`, out at 0 HP and dead at the size's Death Point, rounds in Magic, Missile
//! and Melee segments with the faster acting first and equal speeds simultaneous. Rules
//! cited as "d20 Taxonomy «heading»"; G-nn are the gaps of the project's digest of them.
//! Users' account: `docs/rulesets/d20.md`.
//!
//! Modelled: one-on-one duels or group fights of up to eight creatures a side, each side a
//! list of mixed members (each creature with its own member's statistics and speed), starting
//! engaged or at a distance (G-22), charges (G-23), retreat and pursuit (G-24); attack
//! sequences; missile rates, an engaged missile fighter's melee (`engaged_missile`) with a
//! melee weapon to switch to, thrown supplies; lethal, non-lethal, non-regenerative and
//! crippling damage per attack and regeneration; resistance checks; G-25 spells from
//! Magic Points; skill, resistance, attack and damage checks; an exact duel solver; class cost
//! units, Exp, Heal Rate and MP Recoup Rate.
//!
//! # Map
//!
//! 34 options. The state carries the distance. `exact` is the shared solver's cached iteration
//! keyed by round parity, on interned states: each state is numbered once, transitions are
//! cached by number, and live states are sorted by packed order keys; its numbers are the
//! shared solver's, bit for bit (`benches/tests/it/exact.rs` checks it).

pub mod check;
pub mod duel;
pub mod exact;
pub mod fighter;
pub mod options;
pub mod reference;
pub mod spec;
pub mod tables;

#[cfg(test)]
mod group_tests;
#[cfg(test)]
mod tests;

pub use check::D20Check;
pub use fighter::{Fighter, Matchup};
pub use options::D20Options;
pub use spec::FighterSpec;

use duel::State;

use crate::{CheckGrid, Ruleset};

/// The d20 ruleset with its options.
pub type D20 = crate::Rules<D20Options>;

/// Names of the d20 per-duel counters.
pub const COUNTERS: &[&str] =
    crate::per_side_counters!["natural_20s", "fumbles", "spells", "resisted"];

impl Ruleset for D20 {
    const ID: &'static str = "d20";
    const TITLE: &'static str = "Stats and Rules Taxonomy (d20 house rules)";
    const SUMMARY: &'static str =
        "Duels and group fights (up to 8 a side, mixed members): d20 + BtH + ability + \
        equipment against Defense (natural 1 misses and optionally fumbles for \
        the opponents' minimum damage, natural 20 hits and optionally deals full \
        damage); damage 1d(max damage by weapon class and wielder size) + Str; HP \
        rolled per Hit Die by size die plus class levels n(b+d4), Con per die; out \
        at 0 HP, dead at the size's Death Point. Rounds: Magic, Missile, Melee \
        segments, faster first, equal speeds simultaneous; attack sequences, bows \
        2 shots, crossbows every other round; non-lethal, non-regenerative and \
        crippling damage, regeneration, resistance checks, G-25 spells; optional \
        start at range (closing, missile range, reach), charge with \
        hit-and-run and set-vs-charge, retreat and pursuit (G-22 to G-24). \
        Exact solver included.";
    type FighterSpec = FighterSpec;
    type Fighter = Fighter;
    type Matchup = Matchup;
    type State = State;
    type Check = D20Check;

    /// A step depends on the round only through its parity (crossbows reload in even rounds).
    const CACHE_TRANSITIONS: bool = true;

    fn cache_round(&self, round: u32) -> u32 {
        if round == 0 { 0 } else { 2 - round % 2 }
    }

    fn capped(&self, s: &State) -> bool {
        s.stage == duel::ROUND_START && s.round > self.options().max_rounds
    }

    fn counter_names(&self) -> &'static [&'static str] {
        COUNTERS
    }

    /// The shared solver's cached iteration on interned states ([`exact::solve`]: the same
    /// numbers bit for bit, faster).
    fn exact(&self, m: &Matchup) -> Option<crate::ExactDuel> {
        exact::solve(self, m)
    }

    /// Class cost units (HP, BtH and MP rates, 10 per level by the seed's invariant) for a
    /// classed fighter; creatures and unclassed fighters have no price.
    fn fighter_cost(&self, spec: &FighterSpec) -> Option<(f64, &'static str)> {
        let c = &spec.class.as_ref()?.stats;
        let l = spec.level;
        let i = usize::try_from(l).ok()?.checked_sub(1)?;
        let (bth, mp) = (*c.bth.get(i)?, *c.mp.get(i)?);
        let units2 = reference::cost_units2(c.hp_base, bth, (mp * 2.0) as i32, l);
        Some((f64::from(units2) / 2.0, "class cost units"))
    }

    /// Class cost units, HP distribution, Defense, speed, attacks, Death Point and magic.
    fn fighter_facts(&self, spec: &FighterSpec) -> Vec<(String, String)> {
        let Ok(f) = self.compile("", spec) else {
            return Vec::new();
        };
        let hp = f.hp.dist();
        let mut v = Vec::new();
        if let Some(c) = &spec.class {
            let c = &c.stats;
            let l = spec.level;
            let bth = c.bth[l as usize - 1];
            let mp2 = (c.mp[l as usize - 1] * 2.0) as i32;
            let units2 = reference::cost_units2(c.hp_base, bth, mp2, l);
            v.push((
                "class".into(),
                format!(
                    "{} {l}: {l}({}+d4) HP, BtH {bth}, MPs {}, Exp {}",
                    c.name,
                    c.hp_base,
                    f64::from(mp2) / 2.0,
                    reference::exp(l)
                ),
            ));
            v.push((
                "class cost units (10 per level)".into(),
                format!("{} (budget {})", f64::from(units2) / 2.0, 10 * l),
            ));
        }
        v.push((
            "HP".into(),
            format!(
                "{}..{}, mean {:.3}, sd {:.3}, P(HP ≤ median) {:.4}",
                hp.min(),
                hp.max(),
                hp.mean(),
                hp.std_dev(),
                {
                    let med = (hp.min()..=hp.max())
                        .find(|&k| hp.p_at_most(k) >= 0.5)
                        .unwrap_or(hp.max());
                    hp.p_at_most(med)
                }
            ),
        ));
        v.push((
            "Death Point / Heal Rate (mean HP)".into(),
            format!(
                "{} / {} per day",
                f.death_point,
                reference::heal_rate(hp.mean().round() as i32, f.mods[3])
            ),
        ));
        v.push(("Defense / speed".into(), format!("{} / {}", f.def, f.speed)));
        let attacks: Vec<String> = f.attacks[..f.n_attacks as usize]
            .iter()
            .map(|a| format!("{:+} {}", a.to_hit, a.dice))
            .collect();
        v.push((
            format!(
                "BtH {} / attacks per round{}",
                f.bth,
                if f.crossbow {
                    " (every other round)"
                } else {
                    ""
                }
            ),
            attacks.join(", "),
        ));
        let per_round: Vec<String> = [10, 13, 18]
            .iter()
            .map(|&d| {
                let x = reference::round_damage_dist(self.options(), &f, d);
                format!("Def {d}: {:.4}", x.mean())
            })
            .collect();
        v.push((
            "exact E[damage per round] (per creature)".into(),
            per_round.join(", "),
        ));
        let hit: Vec<String> = [10, 13, 15, 18, 20]
            .iter()
            .map(|&d| {
                format!(
                    "Def {d}: {}/20",
                    reference::hit_twentieths(f.attacks[0].to_hit, d)
                )
            })
            .collect();
        v.push(("to-hit (first attack)".into(), hit.join(", ")));
        if f.mp2 > 0 || f.n_spells > 0 {
            v.push((
                "MPs / MP Recoup Rate".into(),
                format!(
                    "{} / {} per day",
                    f64::from(f.mp2) / 2.0,
                    reference::mp_recoup_rate(f.mp2, f.mods[2])
                ),
            ));
        }
        for s in &spec.spells {
            v.push((
                format!("spell {}", s.name),
                format!(
                    "{} HP + {} BtH units: {} MP",
                    s.damage,
                    s.bth,
                    reference::spell_cost(s.damage, s.bth)
                ),
            ));
        }
        if let Some(w) = &f.cap_warning {
            v.push(("warning".into(), w.clone()));
        }
        v
    }

    /// A member of 1–[`fighter::MAX_SIDE`] identical creatures (`count`), each attacking by
    /// `target` (every policy of [`crate::group::Target`]).
    fn side_spec(
        &self,
        spec: &FighterSpec,
        count: u32,
        target: Option<crate::group::Target>,
    ) -> Result<FighterSpec, String> {
        if !(1..=fighter::MAX_SIDE as u32).contains(&count) {
            return Err(format!(
                "count {count} is out of range: a d20 side holds 1–{} creatures",
                fighter::MAX_SIDE
            ));
        }
        let mut s = spec.clone();
        s.count = count as i32;
        if let Some(t) = target {
            s.target = t;
        }
        Ok(s)
    }

    /// A side of mixed members (a fighter and a cleric against four goblins and a shaman):
    /// at most [`fighter::MAX_SIDE`] creatures in all, each with its own member's
    /// statistics and target policy.
    fn join_side(&self, mut members: Vec<Fighter>) -> Result<Fighter, (usize, String)> {
        let mut total = 0usize;
        for (j, f) in members.iter().enumerate() {
            total += usize::from(f.count.max(1));
            if total > fighter::MAX_SIDE {
                return Err((
                    j,
                    format!(
                        "a d20 side holds at most {} creatures in all; this member brings it to {total}",
                        fighter::MAX_SIDE
                    ),
                ));
            }
        }
        let mut first = members.remove(0);
        first.others = members;
        Ok(first)
    }

    /// Each member's copies, in list order.
    fn roster(&self, m: &Matchup) -> crate::group::Roster {
        let side = |k: usize| {
            crate::group::SideRoster::of(&m.counts[k][..m.members[k].len()])
        };
        crate::group::Roster {
            sides: [side(0), side(1)],
        }
    }

    /// Down: not able (0 HP or below, or a non-lethal tally above the HP, «Damage and Death
    /// §1.2, §2.2»); dead: at the Death Point (or a regenerator's lethal tally, §5.3.1).
    #[inline]
    fn fate(
        &self,
        m: &Matchup,
        s: &State,
        side: usize,
        i: usize,
    ) -> Option<crate::group::Fate> {
        let (f, ms) = (m.fighter(side, i), &s.m[side][i]);
        if ms.flags & duel::GONE != 0 {
            // Escaped (G-24): off the field alive.
            return Some(crate::group::Fate::default());
        }
        let dead = duel::finished(f, ms);
        Some(crate::group::Fate {
            down: dead || !duel::able(ms),
            dead,
        })
    }

    const MEMBER_DAMAGE: bool = true;

    fn spec_count(&self, spec: &FighterSpec) -> u32 {
        spec.count.max(1) as u32
    }

    /// P(hit) for attack modifiers −2 … +10 against Defense 10 … 22 (digest §7.1).
    fn check_grid(&self) -> Option<CheckGrid<D20Check>> {
        let cells = (-2..=10)
            .flat_map(|m| {
                [10, 12, 13, 15, 17, 18, 20, 22].into_iter().map(move |d| {
                    (
                        i64::from(m),
                        format!("Def {d}"),
                        i64::from(d),
                        D20Check::Attack {
                            modifier: m,
                            defense: d,
                        },
                    )
                })
            })
            .collect();
        Some(CheckGrid {
            row_name: "attack modifier",
            col_name: "defense",
            col_value_name: "defense",
            cells,
        })
    }
}
