//! Draft rules outside the duel loop: point-buy costs, derived values, healing, suffocation,
//! exhaustion timing, action timing and the hit-location table. Pure functions, replayed by
//! the digest's oracles (§7.8–§7.12) and usable for build checks.

use oddsmith_dice::Dist;

/// Cost in ability points of an attribute score (§2.7). `surcharge = Some((above, rate))`
/// enables the optional rule: each point above `above` costs `rate` (8, 2 → 9 costs 10).
pub fn attribute_cost(value: u32, surcharge: Option<(u32, u32)>) -> u32 {
    match surcharge {
        Some((above, rate)) if value > above => above + rate * (value - above),
        _ => value,
    }
}

/// Total ability points of a set of attribute scores (§2.6–§2.8).
pub fn build_cost(values: &[u32], surcharge: Option<(u32, u32)>) -> u32 {
    values.iter().map(|&v| attribute_cost(v, surcharge)).sum()
}

/// A combined attribute: the mean of its attributes, rounded half up (§2.9).
pub fn combined(values: &[u32]) -> u32 {
    let n = values.len() as u32;
    (2 * values.iter().sum::<u32>() + n) / (2 * n)
}

/// Stamina = (STR + CON) / 2 rounded half up (§2.9).
pub fn stamina(str_score: u32, con: u32) -> u32 {
    combined(&[str_score, con])
}

/// Skill difficulty class (§3.13.1–§3.13.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkillClass {
    /// Up to the attribute for a single point in total (G14), then as Normal.
    Easy,
    /// Each increment to n costs max(0, n − A) + 1.
    Normal,
    /// Normal × 2.
    Hard,
    /// Normal × 3 (optional).
    VeryHard,
    /// Normal × 4 (optional).
    ExtremelyHard,
}

/// Skill points to raise a skill from `from` to `to` with associated attribute `attr` (§3.13.2).
pub fn skill_cost(from: u32, to: u32, attr: u32, class: SkillClass) -> u32 {
    let step = |n: u32| n.saturating_sub(attr) + 1;
    let mult = match class {
        SkillClass::Easy | SkillClass::Normal => 1,
        SkillClass::Hard => 2,
        SkillClass::VeryHard => 3,
        SkillClass::ExtremelyHard => 4,
    };
    if class == SkillClass::Easy {
        // One point in total brings the skill anywhere up to the attribute (G14).
        let easy_part = u32::from(from < attr.min(to));
        let normal_from = from.max(attr);
        return easy_part + (normal_from + 1..=to).map(step).sum::<u32>();
    }
    mult * (from + 1..=to).map(step).sum::<u32>()
}

/// Days for a Severe wound to heal: 14 − CON (§4.19.4); treated, it turns Light after 2/3.
pub fn severe_healing_days(con: u32) -> u32 {
    14u32.saturating_sub(con)
}

/// Minimum days for a Critical wound to become Severe: 21 − CON (§4.19.4).
pub fn critical_to_severe_days(con: u32) -> u32 {
    21u32.saturating_sub(con)
}

/// Temporary (magic) damage level after `elapsed` of `duration` hours (§5.30): each level steps
/// down after half of the time remaining. Returns 3 Critical, 2 Severe, 1 Light, 0 gone.
pub fn temporary_level(start_level: u8, duration: f64, elapsed: f64) -> u8 {
    let (mut level, mut left, mut t) = (start_level, duration, elapsed);
    while level > 0 {
        let stay = if level == 1 { left } else { left / 2.0 };
        if t < stay {
            return level;
        }
        t -= stay;
        left -= stay;
        level -= 1;
    }
    0
}

/// P(still conscious after each of `k = 1..=max` successive CON checks at TN 10, 12, 14, …)
/// (§4.20.2), exact.
pub fn suffocation_survival(con: i64, max: usize) -> Vec<f64> {
    let d10 = Dist::die(10);
    let mut p = 1.0;
    (0..max)
        .map(|i| {
            p *= d10.p_at_least(10 + 2 * i as i64 - con);
            p
        })
        .collect()
}

/// Exhaustion rounds (§4.24.1, digest §7.10): the first round with Light, Severe and collapse.
pub fn exhaustion_rounds(stamina: u32) -> (u32, u32, u32) {
    let first = |level: u8| {
        (1..)
            .find(|&r| super::duel::exhaustion_level(r, stamina as i32) >= level)
            .unwrap_or(0)
    };
    (first(1), first(2), first(3))
}

/// Duration in segments of the actions of §4.17.1.
pub fn action_segments(action: &str) -> Option<u32> {
    Some(match action {
        "wield mental power"
        | "trigger gun"
        | "fire missile weapon"
        | "use an item"
        | "melee attack"
        | "parry"
        | "dodge"
        | "turn"
        | "throw weapon"
        | "draw light weapon"
        | "fire" => 1,
        "normal move" | "draw medium weapon" | "stand up" | "pick up dropped weapon" => 2,
        "full move" | "draw heavy weapon" | "prepare bow" => 3,
        "prepare crossbow" => 6,
        _ => return None,
    })
}

/// Whether a sequence of actions fits one round (three segments, at most three actions).
pub fn fits_in_round(actions: &[&str]) -> Option<bool> {
    let mut total = 0;
    for a in actions {
        total += action_segments(a)?;
    }
    Some(total <= 3 && actions.len() <= 3)
}

/// Target-size modifier: ±1 per doubling, `round(log2(ratio))` (§4.21.2, G16).
pub fn size_modifier(ratio: f64) -> i32 {
    ratio.log2().round() as i32
}

/// Hit location for a d10 face and an attack direction (§4.24.3). Directions: "front" (also
/// back), "left", "right" (mirror of left), "above", "below".
pub fn hit_location(direction: &str, face: u32) -> Option<&'static str> {
    const FRONT: [&str; 10] = [
        "left leg",
        "left leg",
        "right leg",
        "right leg",
        "torso",
        "torso",
        "left arm",
        "right arm",
        "head",
        "head",
    ];
    const LEFT: [&str; 10] = [
        "left leg",
        "left leg",
        "torso",
        "torso",
        "left arm",
        "left arm",
        "left arm",
        "right arm",
        "head",
        "head",
    ];
    const ABOVE: [&str; 10] = [
        "left leg",
        "right leg",
        "torso",
        "left arm",
        "left arm",
        "right arm",
        "right arm",
        "head",
        "head",
        "head",
    ];
    const BELOW: [&str; 10] = [
        "left leg",
        "left leg",
        "right leg",
        "right leg",
        "torso",
        "torso",
        "torso",
        "left arm",
        "right arm",
        "head",
    ];
    let i = face.checked_sub(1)? as usize;
    let loc = match direction {
        "front" | "back" => FRONT.get(i)?,
        "left" => LEFT.get(i)?,
        "right" => match *LEFT.get(i)? {
            "left leg" => "right leg",
            "left arm" => "right arm",
            "right arm" => "left arm",
            other => other,
        },
        "above" => ABOVE.get(i)?,
        "below" => BELOW.get(i)?,
        _ => return None,
    };
    Some(loc)
}
