//! Derived figures outside the duel loop: hit chances, expected damage per attack (exact, as a
//! distribution), class cost units, spell costs, Exp, Heal Rate and MP Recoup Rate.

use oddsmith_dice::Dist;

use super::fighter::Attack;
use super::options::{CritRule, D20Options};

/// P(hit) as a fraction of 20 for total modifier `m` against Defense `def` (digest §2.2):
/// natural 1 misses, natural 20 hits, ties hit.
pub fn hit_twentieths(m: i32, def: i32) -> i32 {
    let t = def - m;
    (21 - t).clamp(1, 19)
}

/// Whether natural 20s deal maximum damage under the options.
pub fn crit_is_max(o: &D20Options) -> bool {
    o.nat20_full_damage && o.crit_rule == CritRule::Max
}

/// Exact damage dealt by one attack roll against Defense `def` (0 on a miss), no resistance.
pub fn attack_damage_dist(o: &D20Options, a: &Attack, def: i32) -> Dist {
    let hit = a.damage_dist();
    let n = hit.total();
    let mut w: Vec<(i64, u128)> = Vec::new();
    for roll in 1..=20 {
        if roll == 1 {
            w.push((0, n));
        } else if roll == 20 && crit_is_max(o) {
            w.push((i64::from(a.max_damage()), n));
        } else if roll == 20 || roll + a.to_hit >= def {
            w.extend(hit.iter());
        } else {
            w.push((0, n));
        }
    }
    Dist::from_weights(w).expect("small weights")
}

/// Exact damage of a fighter's whole attack action in one round against Defense `def` (the
/// attacks of the sequence are independent; a crossbow shoots every other round).
pub fn round_damage_dist(o: &D20Options, f: &super::fighter::Fighter, def: i32) -> Dist {
    let mut d = Dist::constant(0);
    for a in &f.attacks[..f.n_attacks as usize] {
        d = d
            .convolve(&attack_damage_dist(o, a, def))
            .expect("small weights");
    }
    if f.crossbow {
        let n = d.total();
        let w: Vec<(i64, u128)> = d.iter().chain(std::iter::once((0, n))).collect();
        d = Dist::from_weights(w).expect("small weights");
    }
    d
}

/// Expected damage of one attack roll against Defense `def` (no resistance).
pub fn expected_damage(o: &D20Options, a: &Attack, def: i32) -> f64 {
    attack_damage_dist(o, a, def).mean()
}

/// Spell cost in MP (G-25): units (1 per HP, 2 per +1 BtH), +1 for each unit type used more
/// than once («Magic §2.2.1»), +2 when both types are combined (§2.2.2).
pub fn spell_cost(hp_units: i32, bth_units: i32) -> i32 {
    hp_units
        + 2 * bth_units
        + i32::from(hp_units > 1)
        + i32::from(bth_units > 1)
        + if hp_units > 0 && bth_units > 0 { 2 } else { 0 }
}

/// Class cost units at `level` (digest §3.6): level × HP base + 2 × BtH + MPs, in halves
/// (every built-in class is budgeted at 10 units per level).
pub fn cost_units2(hp_base: i32, bth: i32, mp2: i32, level: i32) -> i32 {
    2 * level * hp_base + 4 * bth + mp2
}

/// Experience for a level: 1000 · 2^(L−1).
pub fn exp(level: i32) -> i64 {
    if level <= 0 { 0 } else { 1000 << (level - 1) }
}

/// Heal Rate: ceil(HP/5) + Con modifier, at least 1 (G-31).
pub fn heal_rate(hp: i32, con_mod: i32) -> i32 {
    ((hp + 4).div_euclid(5) + con_mod).max(1)
}

/// MP Recoup Rate from MPs in halves: ceil(MP/5) + Wis modifier, at least 1 (G-31).
pub fn mp_recoup_rate(mp2: i32, wis_mod: i32) -> i32 {
    ((mp2 + 9).div_euclid(10) + wis_mod).max(1)
}
