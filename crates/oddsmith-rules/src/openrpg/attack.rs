//! One attack sequence of Open RPG 2.3, as exact distributions: the attack roll (§Rate, §Accuracy),
//! slow weapons, avoidance per blow (§Avoiding Damage, legacy `Dodge-`), critical blows and how
//! the blows combine (§Damage; legacy `#### Damage`), damage reduction then defense (§Defense),
//! targeted attacks (§Targeted Attacks) and mounted halving (§Mounted).
//!
//! The small functions here are the rules themselves (each replayed against the seed's worked
//! examples in the tests); [`turn_table`] composes them into the exact distribution of one
//! turn's outcome, which the duel samples (Monte Carlo) or enumerates (exact solver).

use std::collections::BTreeMap;

use oddsmith_dice::{DiceExpr, Dist};

use super::options::{DrRounding, SkillRoll, StrengthToken};
use super::spec::{Defence, DodgeSize, Location};
use crate::RulesError;

/// The distribution of a skill roll for a trait of value `n` (G1).
pub fn skill_dist(mode: SkillRoll, n: i32) -> Dist {
    let n = n.max(0) as u32;
    let one = |sides| Dist::die(sides).sum_iid(n).expect("at most 30 dice");
    match mode {
        SkillRoll::Nd10 => one(10),
        SkillRoll::Nd4 => one(4),
        SkillRoll::D100PlusN => Dist::die(100).shift(i64::from(n)),
    }
}

/// The strength roll S d4 (or S under `strength_token = "flat"`), §Defense "30+2d4".
pub fn strength_dist(token: StrengthToken, s: i32) -> Dist {
    match token {
        StrengthToken::Nd4 => Dist::die(4)
            .sum_iid(s.max(0) as u32)
            .expect("at most 30 dice"),
        StrengthToken::Flat => Dist::constant(i64::from(s)),
    }
}

/// The distribution of a weapon's damage expression (`str+22`, `2d10+5`) for a wielder of
/// strength `s`: `str` is [`strength_dist`] (G7), through the shared dice-expression parser.
pub fn damage_dist(expr: &str, s: i32, token: StrengthToken) -> Result<Dist, RulesError> {
    let e = DiceExpr::parse(expr).map_err(|e| RulesError::field("damage", e.to_string()))?;
    let mut n_str = 0;
    for v in e.variables() {
        if v != "str" {
            return Err(RulesError::field(
                "damage",
                format!("unknown variable {v:?}; only `str` (the wielder's strength) is known"),
            ));
        }
        n_str += 1;
    }
    let bad = |e: oddsmith_dice::DiceError| RulesError::field("damage", e.to_string());
    let d = if n_str == 0 {
        e.dist(&oddsmith_dice::no_vars).map_err(bad)?
    } else {
        with_strength(&e, s, token)?
    };
    if d.min() < 0 {
        return Err(RulesError::field(
            "damage",
            format!("{expr} can be negative"),
        ));
    }
    Ok(d)
}

/// `e` with each `str` replaced by a strength roll.
fn with_strength(e: &DiceExpr, s: i32, token: StrengthToken) -> Result<Dist, RulesError> {
    let bad = |e: oddsmith_dice::DiceError| RulesError::field("damage", e.to_string());
    // `str` contributes S (flat) or S d4: the expression at str = 0 plus one strength roll per
    // occurrence (the sign of each occurrence read off the expression at str = 1).
    let at0 = e.dist(&|_| Some(0)).map_err(bad)?;
    let at1 = e.dist(&|_| Some(1)).map_err(bad)?;
    let coef = at1.min() - at0.min();
    let sd = strength_dist(token, s);
    let mut d = at0;
    for _ in 0..coef.abs() {
        let part = if coef > 0 { sd.clone() } else { sd.negate() };
        d = d.convolve(&part).map_err(bad)?;
    }
    Ok(d)
}

/// Blows and recovery rounds from the attack roll `r` (§Rate): a weapon with rate `rate` (0 = no
/// rate) and cadence "strike 1/`m`" makes `floor(r / rate) + 1` blows when `m = 1`; for slow
/// weapons the extra steps first cancel the `m − 1` recovery rounds, then add blows (G15).
pub fn blows(r: i64, rate: i32, m: i32) -> (u32, u32) {
    blows_in(r, rate, m, false)
}

/// [`blows`] under either reading of slow weapons of "1/3" and slower (`slow_weapons`): each
/// rate step cancels one recovery round (`whole = false`, §Rate "lowers the time it takes"),
/// or the first step cancels the whole fraction and each further step adds a blow (`whole`,
/// "the fire 1/2 is canceled"). The two agree for "1/2", the seed's only example.
pub fn blows_in(r: i64, rate: i32, m: i32, whole: bool) -> (u32, u32) {
    let e = if rate > 0 {
        (r.max(0) / i64::from(rate)) as u32
    } else {
        0
    };
    let rec = (m.max(1) - 1) as u32;
    if whole && rec > 0 {
        return if e == 0 { (1, rec) } else { (e, 0) };
    }
    if e <= rec {
        (1, rec - e)
    } else {
        (1 + e - rec, 0)
    }
}

/// Whether a crit d20 of `d20` is critical for range `range` (primary §Damage: at most; legacy
/// `#### Damage`: at least).
pub fn is_crit(d20: u32, range: i32, at_least: bool) -> bool {
    if at_least {
        range >= 1 && i64::from(d20) >= i64::from(range)
    } else {
        i64::from(d20) <= i64::from(range)
    }
}

/// P(a blow is critical).
pub fn crit_chance(range: i32, at_least: bool) -> f64 {
    let hits = if at_least {
        if range < 1 {
            0
        } else {
            (21 - range).clamp(0, 20)
        }
    } else {
        range.clamp(0, 20)
    };
    f64::from(hits) / 20.0
}

/// A critical effect: "+X Damage" or "Damage x K".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CritEffect {
    /// Adds X to the blow (primary) or to the base (legacy).
    Add(i32),
    /// Multiplies the blow (primary) or sets its submultiplier (legacy).
    Times(i32),
}

impl CritEffect {
    /// Parses `x2`, `×2`, `*2`, `Damage x 2`, `+5` or `+5 Damage`.
    pub fn parse(s: &str) -> Result<CritEffect, RulesError> {
        let t = s
            .trim()
            .to_ascii_lowercase()
            .replace("damage", "")
            .replace(' ', "");
        let bad = || RulesError::field("crit_effect", format!("{s:?}: expected \"x2\" or \"+5\""));
        let num = |u: &str| u.parse::<i32>().ok().filter(|v| (0..=1000).contains(v));
        if let Some(k) = t
            .strip_prefix('x')
            .or_else(|| t.strip_prefix('*'))
            .or_else(|| t.strip_prefix('×'))
        {
            num(k).map(CritEffect::Times).ok_or_else(bad)
        } else if let Some(x) = t.strip_prefix('+') {
            num(x).map(CritEffect::Add).ok_or_else(bad)
        } else {
            Err(bad())
        }
    }
}

/// Twice the total damage of `k` landed blows of base `b`, `c` of them critical (twice, so the
/// legacy multiplier's halves stay exact).
///
/// Primary (§Damage, "simply the sum of the damage of the blows"): each blow is `b`, `b + X` or
/// `b × K`. Legacy (`#### Damage`): `(b + c·X) × M` with `M` = the largest submultiplier plus
/// half of all the others (G20: an additive crit adds X to the base once per crit).
pub fn total_x2(b: i64, k: u32, c: u32, effect: CritEffect, multiplier: bool) -> i64 {
    let (k, c) = (i64::from(k), i64::from(c));
    if k == 0 {
        return 0;
    }
    if !multiplier {
        let crit_blow = match effect {
            CritEffect::Add(x) => b + i64::from(x),
            CritEffect::Times(m) => b * i64::from(m),
        };
        return 2 * ((k - c) * b + c * crit_blow);
    }
    match effect {
        CritEffect::Add(x) => (b + c * i64::from(x)) * (k + 1),
        CritEffect::Times(m) => {
            let m = i64::from(m);
            // Submultipliers: c of m, k − c of 1. Twice (largest + ½ the others).
            let (largest, rest) = if c > 0 && m >= 1 {
                (m, (c - 1) * m + (k - c))
            } else if c > 0 {
                (1, c * m + (k - c - 1))
            } else {
                (1, k - 1)
            };
            b * (2 * largest + rest)
        }
    }
}

/// `num / den` rounded as `dr_rounding` says (non-negative arguments).
pub fn round_div(num: i64, den: i64, mode: DrRounding) -> i64 {
    match mode {
        DrRounding::HalfUp => (2 * num + den).div_euclid(2 * den),
        DrRounding::Ceil => (num + den - 1).div_euclid(den),
        DrRounding::Floor => num.div_euclid(den),
    }
}

/// The damage left after damage reduction (§Defense: "multiply it by one minus the damage
/// reduction"): `t_x2 / 2 × (1 − dr_bp / 10000)`, `dr_bp` in basis points.
pub fn after_dr(t_x2: i64, dr_bp: i64, mode: DrRounding) -> i64 {
    round_div(t_x2 * (10_000 - dr_bp), 20_000, mode)
}

/// Defense against one sequence (§Defense, G17): armour defense scaled by `(1 − pen)` plus the
/// strength roll scaled by `(1 − sdr)`, rounded half up once (percentages).
pub fn defense(armor: i64, pen_pct: i64, strength_roll: i64, sdr_pct: i64) -> i64 {
    round_div(
        armor * (100 - pen_pct) + strength_roll * (100 - sdr_pct),
        100,
        DrRounding::HalfUp,
    )
}

/// Half, rounded up (G6: mounted halving and the half dodge).
pub fn half_up(v: i64) -> i64 {
    (v + 1).div_euclid(2)
}

/// Magic resistance (legacy "Step 4"): `damage × (1 − pct/100)`, rounded half up; a negative
/// resistance adds to the damage.
pub fn resist(damage: i64, pct: i64) -> i64 {
    round_div(damage * (100 - pct), 100, DrRounding::HalfUp).max(0)
}

/// The resistance against a tech: the mean of the resistances to its kinds of magic.
pub fn tech_resistance(pcts: &[i64]) -> f64 {
    if pcts.is_empty() {
        return 0.0;
    }
    pcts.iter().sum::<i64>() as f64 / pcts.len() as f64
}

/// Required-roll penalty for a missile shot at `yards` (§Accuracy: +1 per 5 yards beyond 50,
/// G22: whole steps), applied to shots in a duel that starts apart (`start_distance`).
pub fn range_modifier(yards: i64) -> i64 {
    if yards > 50 { (yards - 50) / 5 } else { 0 }
}

/// Chance in percent that a head hit ruins concentration (§Targeted Attacks: damage minus
/// willpower, G17 clamped to 0–100). Duels model no concentrating casters.
pub fn concentration_loss(damage: i64, willpower: i64) -> i64 {
    (damage - willpower).clamp(0, 100)
}

/// A damage term `count`d`sides` + `plus` (for the legacy multiple-damages rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Term {
    /// Number of dice.
    pub count: u32,
    /// Sides per die.
    pub sides: u32,
    /// Constant added.
    pub plus: i64,
}

impl Term {
    fn mean_x2(self) -> i64 {
        i64::from(self.count) * i64::from(self.sides + 1) + 2 * self.plus
    }
}

/// Legacy "Multiple Damages in a Turn": the largest (by mean) plus half of every other, dice
/// and constant halved with rounding up, summed per die size (the seed's `7d6+4, 4d6+6, 2d6+1 →
/// 10d6+8`). Repeated strikes of one weapon are the legacy `blow_combination` (base ×
/// multiplier); this general form, for damages of different expressions, never applies in a duel.
pub fn multiple_damages(terms: &[Term]) -> Vec<Term> {
    let Some(big) = (0..terms.len()).max_by_key(|&i| (terms[i].mean_x2(), usize::MAX - i)) else {
        return Vec::new();
    };
    let mut by_sides: BTreeMap<u32, (u32, i64)> = BTreeMap::new();
    let mut plus = 0;
    for (i, t) in terms.iter().enumerate() {
        let (count, p) = if i == big {
            (t.count, t.plus)
        } else {
            (t.count.div_ceil(2), half_up(t.plus))
        };
        by_sides.entry(t.sides).or_default().0 += count;
        plus += p;
    }
    let n = by_sides.len();
    by_sides
        .into_iter()
        .enumerate()
        .map(|(i, (sides, (count, _)))| Term {
            count,
            sides,
            plus: if i + 1 == n { plus } else { 0 },
        })
        .collect()
}

/// An attacker's side of one attack, compiled.
#[derive(Clone, Debug)]
pub struct AttackerStats {
    /// The attack roll's distribution.
    pub roll: Vec<(i64, f64)>,
    /// Weapon rate (0 = none).
    pub rate: i32,
    /// Cadence M.
    pub cadence: i32,
    /// P(a blow is critical), before targeting.
    pub crit: f64,
    /// The critical effect.
    pub effect: CritEffect,
    /// The damage expression's distribution.
    pub damage: Vec<(i64, f64)>,
    /// A missile weapon.
    pub missile: bool,
    /// Mounted (half accuracy with missiles).
    pub mounted: bool,
}

/// The defender's side of one attack, compiled.
#[derive(Clone, Debug)]
pub struct DefenderStats {
    /// Required roll to hit before location (hit_multiplier × combat base).
    pub required: i64,
    /// Armour defense.
    pub armor: i64,
    /// Armour DR in percent.
    pub dr: i64,
    /// Locations the armour leaves bare.
    pub uncovered: Vec<Location>,
    /// The strength roll's distribution (defense).
    pub strength: Vec<(i64, f64)>,
    /// Shield block chance in percent.
    pub shield: i64,
    /// The dodge roll's distribution, if the defender dodges.
    pub dodge: Option<Vec<(i64, f64)>>,
    /// The dodge size policy.
    pub dodge_size: DodgeSize,
    /// Which method against each attack when both are at hand.
    pub defence: Defence,
    /// Mounted (melee against the rider deals half).
    pub mounted: bool,
}

/// The rules in force for one attack.
#[derive(Clone, Copy, Debug)]
pub struct Context {
    /// Legacy multiplier combination.
    pub multiplier: bool,
    /// Rounding after DR.
    pub rounding: DrRounding,
    /// Joints' armour penetration in percent.
    pub joint_pen: i64,
    /// The defender cannot avoid the attack (flat footed): required 0, no shield or dodge.
    pub defenseless: bool,
    /// The defender is caught off guard: no location penalty for melee.
    pub off_guard: bool,
    /// Added to the required roll (§Accuracy's long range; 0 when defenceless).
    pub range_penalty: i64,
    /// One shield check for the whole sequence (else one per blow).
    pub shield_per_attack: bool,
    /// One dodge roll for the whole sequence (else one per blow).
    pub dodge_per_attack: bool,
    /// Joints' penetration cuts the armour's defense.
    pub joint_pen_defense: bool,
    /// Joints' penetration cuts the armour's DR.
    pub joint_pen_dr: bool,
    /// A slow weapon's first rate step cancels the whole "1/M" (else one round per step).
    pub slow_whole: bool,
}

/// One possible result of an attack turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TurnOutcome {
    /// Final damage to the defender.
    pub damage: i32,
    /// Recovery rounds the attacker now needs.
    pub recovery: u8,
    /// The defender used a full dodge and loses the next turn.
    pub defender_loses_turn: bool,
    /// The attack roll met the requirement.
    pub hit: bool,
}

/// The exact distribution of one attack turn's outcome, merged by outcome, in outcome order.
pub fn turn_table(
    a: &AttackerStats,
    d: &DefenderStats,
    loc: Option<Location>,
    cx: Context,
) -> Vec<(TurnOutcome, f64)> {
    let mut out: BTreeMap<TurnOutcome, f64> = BTreeMap::new();
    let required = if cx.defenseless {
        0
    } else {
        let melee_off_guard = cx.off_guard && !a.missile;
        d.required
            + cx.range_penalty
            + loc
                .filter(|_| !melee_off_guard)
                .map_or(0, |l| i64::from(l.accuracy()))
    };
    let covered = loc.is_none_or(|l| !d.uncovered.contains(&l));
    let pen = if loc == Some(Location::Joints) {
        cx.joint_pen
    } else {
        0
    };
    let pen_dr = if cx.joint_pen_dr { pen } else { 0 };
    let pen = if cx.joint_pen_defense { pen } else { 0 };
    let (armor, dr_bp) = if covered {
        (d.armor, d.dr * (100 - pen_dr))
    } else {
        (0, 0)
    };
    let sdr = loc.map_or(0, |l| i64::from(l.strength_reduction()));
    let crit = if loc.is_some() { 0.0 } else { a.crit };
    let halve = d.mounted && !a.missile;
    // Final damage of k landed blows with c crits: distribution over damage.
    let mut final_of = BTreeMap::<(u32, u32), Vec<(i64, f64)>>::new();
    for &(r, pr) in &a.roll {
        let (n, rec) = blows_in(r, a.rate, a.cadence, cx.slow_whole);
        let acc = if a.mounted && a.missile {
            half_up(r)
        } else {
            r
        };
        let rec = rec.min(255) as u8;
        if acc < required {
            *out.entry(TurnOutcome {
                damage: 0,
                recovery: rec,
                defender_loses_turn: false,
                hit: false,
            })
            .or_default() += pr;
            continue;
        }
        // Per blow: P(landed, loss), P(avoided, loss), P(landed, no loss), P(avoided, no loss).
        let margin = acc - required; // the blow is avoided when the dodge exceeds it
        let (land, loss_land, loss_avoid, per_attack) = if cx.defenseless {
            (1.0, 0.0, 0.0, false)
        } else {
            avoidance(d, margin, cx)
        };
        let avoid = 1.0 - land - loss_land - loss_avoid;
        // Over the n blows: (landed count, any loss).
        let mut st = vec![[0.0f64; 2]; n as usize + 1];
        if per_attack {
            // One check for the whole sequence: every blow lands or none does.
            st[n as usize][0] += land;
            st[n as usize][1] += loss_land;
            st[0][1] += loss_avoid;
            st[0][0] += avoid;
        } else {
            st[0][0] = 1.0;
        }
        for _ in 0..if per_attack { 0 } else { n } {
            let mut nx = vec![[0.0f64; 2]; n as usize + 1];
            for k in 0..=n as usize {
                for l in 0..2 {
                    let p = st[k][l];
                    if p == 0.0 {
                        continue;
                    }
                    if k < n as usize {
                        nx[k + 1][l] += p * land;
                        nx[k + 1][1] += p * loss_land;
                    }
                    nx[k][l] += p * avoid;
                    nx[k][1] += p * loss_avoid;
                }
            }
            st = nx;
        }
        for (k, row) in st.iter().enumerate() {
            for (l, &pkl) in row.iter().enumerate() {
                if pkl == 0.0 {
                    continue;
                }
                let key = |damage| TurnOutcome {
                    damage,
                    recovery: rec,
                    defender_loses_turn: l == 1,
                    hit: true,
                };
                if k == 0 {
                    *out.entry(key(0)).or_default() += pr * pkl;
                    continue;
                }
                let k = k as u32;
                for c in 0..=k {
                    let pc = binom(k, c, crit);
                    if pc == 0.0 {
                        continue;
                    }
                    let dist = final_of.entry((k, c)).or_insert_with(|| {
                        let mut m: BTreeMap<i64, f64> = BTreeMap::new();
                        for &(b, pb) in &a.damage {
                            let t = total_x2(b, k, c, a.effect, cx.multiplier);
                            let after = after_dr(t, dr_bp, cx.rounding);
                            for &(s, ps) in &d.strength {
                                let fin = (after - defense(armor, pen, s, sdr)).max(0);
                                let fin = if halve { half_up(fin) } else { fin };
                                *m.entry(fin).or_default() += pb * ps;
                            }
                        }
                        m.into_iter().collect()
                    });
                    for &(fin, pf) in dist.iter() {
                        let dmg = fin.min(i64::from(i32::MAX)) as i32;
                        *out.entry(key(dmg)).or_default() += pr * pkl * pc * pf;
                    }
                }
            }
        }
    }
    out.into_iter().filter(|&(_, p)| p > 0.0).collect()
}

/// One blow's dodge against an attack roll that beats the required roll by `margin`:
/// (P(lands, turn kept), P(lands, next turn lost), P(avoided, next turn lost)); the rest is
/// P(avoided, turn kept). The roll D is subtracted from the attacker's accuracy: half (⌈D/2⌉,
/// keep the turn) or full (lose the next turn), by the `dodge_size` policy (legacy `Dodge-`).
pub fn dodge_blow(dd: &[(i64, f64)], size: DodgeSize, margin: i64) -> (f64, f64, f64) {
    let (mut land, mut loss_land, mut loss_avoid) = (0.0, 0.0, 0.0);
    for &(v, pv) in dd {
        let half = half_up(v) > margin;
        let full = v > margin;
        match size {
            DodgeSize::Half | DodgeSize::None => {
                if !half {
                    land += pv
                }
            }
            DodgeSize::Full => {
                if full {
                    loss_avoid += pv
                } else {
                    loss_land += pv
                }
            }
            DodgeSize::MinimalSufficient => {
                if half {
                } else if full {
                    loss_avoid += pv
                } else {
                    land += pv
                }
            }
        }
    }
    (land, loss_land, loss_avoid)
}

/// The defender's one method against an attack roll that beats the required roll by `margin`
/// (§Avoiding Damage: "A character may only attempt one method for each attack"), chosen by
/// the `defence` policy (`best`: the method more likely to stop a blow of this attack, the
/// shield on a tie), and what it does to one blow: (P(lands, turn kept), P(lands, next turn
/// lost), P(avoided, next turn lost), whether one check covers every blow of the sequence
/// (`shield_check` / `dodge_roll` = `"attack"`)). Without a shield or the dodge, every blow
/// lands.
pub fn avoidance(d: &DefenderStats, margin: i64, cx: Context) -> (f64, f64, f64, bool) {
    let shield = (d.shield > 0).then(|| d.shield as f64 / 100.0);
    let dodge = d
        .dodge
        .as_ref()
        .map(|dd| dodge_blow(dd, d.dodge_size, margin));
    let use_shield = match (shield, dodge) {
        (None, None) => return (1.0, 0.0, 0.0, false),
        (Some(_), None) => true,
        (None, Some(_)) => false,
        (Some(s), Some((land, loss_land, _))) => match d.defence {
            Defence::Shield => true,
            Defence::Dodge => false,
            Defence::Best => s >= 1.0 - land - loss_land,
        },
    };
    match (use_shield, shield, dodge) {
        (true, Some(s), _) => (1.0 - s, 0.0, 0.0, cx.shield_per_attack),
        (_, _, Some((land, loss_land, loss_avoid))) => {
            (land, loss_land, loss_avoid, cx.dodge_per_attack)
        }
        _ => (1.0, 0.0, 0.0, false),
    }
}

/// P(Bin(n, p) = k).
fn binom(n: u32, k: u32, p: f64) -> f64 {
    let mut c = 1.0;
    for i in 0..k {
        c = c * f64::from(n - i) / f64::from(i + 1);
    }
    c * p.powi(k as i32) * (1.0 - p).powi((n - k) as i32)
}

/// The mean damage of a turn table.
pub fn mean_damage(t: &[(TurnOutcome, f64)]) -> f64 {
    t.iter().map(|(o, p)| f64::from(o.damage) * p).sum()
}
