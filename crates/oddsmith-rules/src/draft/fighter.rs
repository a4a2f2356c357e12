//! Compiled fighters and matchups: flat structs with everything precomputed.

use super::options::{
    DamageTerm, DraftOptions, FirstStrikeTie, MissileShield, ParrySegment, Rounding,
    ShieldBonusScope, StrikingOrder, ThrownDodge,
};
use super::Draft;
use super::fast::Engaged;
use super::spec::{Aim, ArmourSpec, DefenceChoice, FighterSpec, MeleeMissile, Policy, ShieldKind};
use super::tables::{Aspect, WeaponStats};
use crate::{RulesError, Side};

/// Size of the damage → wound-level table; larger damage uses the last entry.
pub const WOUND_TABLE_LEN: usize = 64;

/// Wound level of one blow (§4.19.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Level {
    /// Contusion or scratch: no wound.
    None = 0,
    /// Light wound.
    Light = 1,
    /// Severe wound.
    Severe = 2,
    /// Critical wound.
    Critical = 3,
    /// Instant death (damage > 2 × CON).
    Death = 4,
}

/// A compiled Draft fighter.
#[derive(Clone, Debug, PartialEq)]
pub struct Fighter {
    /// Weapon skill (attack and weapon parry).
    pub skill: i32,
    /// Weapon impact class.
    pub impact: i32,
    /// The damage term added on a hit (weapon damage or impact, per `damage_term`).
    pub weapon_damage: i32,
    /// May parry with the weapon at all (not flexible, not unarmed).
    pub weapon_can_parry: bool,
    /// Weapon length, if given (striking order only).
    pub length: Option<u8>,
    /// Weapon needs both hands.
    pub two_handed: bool,
    /// Shield parry base (shield skill + shield bonus) and the highest impact it parries.
    pub shield: Option<(i32, i32)>,
    /// Bonus on weapon parries and dodges from a shield under `all_defenses`.
    pub shield_bonus_elsewhere: i32,
    /// Dodge skill.
    pub dodge: i32,
    /// Strength bonus on damage.
    pub str_bonus: i32,
    /// Armour protection.
    pub protection: i32,
    /// Armour Movement modifier (≤ 0), on attack, parry and dodge.
    pub movement: i32,
    /// Sum of static modifiers on attacks (situation, `attack_modifier`, unfamiliar weapon).
    pub attack_mod: i32,
    /// Sum of static modifiers on parries and dodges (situation, `defence_modifier`).
    pub defence_mod: i32,
    /// Extra modifier on weapon parries only (unfamiliar weapon).
    pub weapon_parry_mod: i32,
    /// Action policy.
    pub policy: Policy,
    /// Threshold for `adaptive`.
    pub adaptive_threshold: i32,
    /// Defence choice.
    pub defence: DefenceChoice,
    /// Stamina = (STR + CON)/2 rounded half up (§2.9), for exhaustion.
    pub stamina: i32,
    /// Wound level by damage points (index clamped to the table).
    pub wound_of: [Level; WOUND_TABLE_LEN],
    /// The missile weapon, if any (§4.21).
    pub missile: Option<Missile>,
    /// Segments to draw the melee weapon (§4.17.1: light 1, medium 2, heavy 3 by impact 1, 2,
    /// ≥ 3; bare hands 0), spent when a missile weapon is dropped on contact.
    pub draw: u8,
    /// Whether to arrive with a Charge (§4.22.2).
    pub charge: bool,
    /// Shield quality (its bonus), for §4.21.3.
    pub shield_quality: i32,
    /// Highest impact the shield parries (0 without a shield).
    pub shield_max: i32,
    /// Whether the missile weapon is shot in melee (§4.17.1, `missile_in_melee`).
    pub melee_missile: MeleeMissile,
}

/// A compiled missile weapon (§4.21).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Missile {
    /// Missile skill plus the static attack modifiers (situation, `attack_modifier`).
    pub attack: i32,
    /// Impact class (for a shield's limit).
    pub impact: i32,
    /// Damage term on a hit (weapon damage, plus the strength bonus under
    /// `str_bonus_on_missiles`, or for a thrown weapon under `str_bonus_on_thrown`).
    pub damage: i32,
    /// Point-blank range, metres.
    pub point_blank: u16,
    /// Maximum range, metres.
    pub max_range: u16,
    /// Segments of preparation before each shot of the fighter's `aim` (with the unskilled
    /// extra; an aimed bow, crossbow or gun shot at least `aim_segments`, §4.21.1).
    pub prepare: u8,
    /// Segments of preparation before an unaimed shot: the weapon's own (a gun's 0).
    pub quick: u8,
    /// Modifier on a shot made after `prepare` (`extra_aim_bonus` for `aim = "extra_round"`,
    /// `unaimed_shot_modifier` for `"unaimed"`, else 0).
    pub aim_bonus: i32,
    /// Modifier on a shot made after `quick` only: `unaimed_shot_modifier` when aiming takes
    /// longer than the weapon's own preparation, else 0.
    pub unaimed: i32,
    /// `aim = "auto"`: an unaimed shot where an aimed one cannot go off before contact, and in
    /// melee.
    pub auto: bool,
    /// A thrown weapon (§4.21.3).
    pub thrown: bool,
    /// Hands the weapon needs (a two-handed one leaves no hand for a shield).
    pub hands: u8,
    /// Shots or throws available in the duel; `None` = not counted.
    pub supply: Option<u8>,
}

impl Missile {
    /// Segments of preparation before a shot, unaimed (`quick`) or of the fighter's `aim`.
    #[inline]
    pub fn need(&self, quick: bool) -> u8 {
        if quick { self.quick } else { self.prepare }
    }

    /// The aiming modifier of a shot, unaimed (`quick`) or of the fighter's `aim`.
    #[inline]
    pub fn aim_mod(&self, quick: bool) -> i32 {
        if quick { self.unaimed } else { self.aim_bonus }
    }

    /// Whether the shots in melee are unaimed (`aim = "auto"`: no full round to aim there).
    #[inline]
    pub fn melee_quick(&self) -> bool {
        self.auto
    }

    /// The range modifier at `d` metres (§4.21.2, G16), or `None` beyond the maximum range.
    pub fn range_modifier(&self, o: &DraftOptions, d: u16) -> Option<i32> {
        if d <= self.point_blank {
            return Some(0);
        }
        if d > self.max_range {
            return None;
        }
        let (over, span) = (
            i32::from(d - self.point_blank),
            i32::from(self.max_range - self.point_blank).max(1),
        );
        // −ceil(max × over / span), integers only.
        Some(-((o.range_penalty_at_max * over + span - 1) / span))
    }
}

/// The damage term of a weapon under the options (§4.19.1, G2).
fn damage_term(o: &DraftOptions, w: &WeaponStats) -> i32 {
    let aspect = if w.aspect == Aspect::Blunt {
        0
    } else {
        o.aspect_bonus
    };
    match o.damage_term {
        DamageTerm::WeaponDamage => o.weapon_damage_multiplier * w.impact + aspect + w.bonus,
        DamageTerm::Impact => w.impact + w.bonus,
    }
}

/// Compiles the missile weapon of `spec`, if any.
fn missile(
    o: &DraftOptions,
    spec: &FighterSpec,
    attack_mod: i32,
) -> Result<Option<Missile>, RulesError> {
    let Some(entry) = &spec.missile else {
        return Ok(None);
    };
    let w = &entry.stats;
    if w.thrown && !w.ranged {
        return Err(RulesError::field(
            "missile.thrown",
            "a thrown weapon needs ranged = true, point_blank, max_range and prepare",
        ));
    }
    let (Some(point_blank), Some(max_range), Some(prepare), true) =
        (w.point_blank, w.max_range, w.prepare, w.ranged)
    else {
        return Err(RulesError::field(
            "missile",
            format!(
                "{:?} is not a missile weapon: give a built-in bow, crossbow or gun, or a table with ranged = true, point_blank, max_range and prepare",
                w.name
            ),
        ));
    };
    if point_blank > max_range {
        return Err(RulesError::field(
            "missile.point_blank",
            "cannot exceed max_range",
        ));
    }
    let str_bonus = if o.str_bonus_on_missiles || (w.thrown && o.str_bonus_on_thrown) {
        o.strength_bonus.of(spec.str)
    } else {
        0
    };
    let unskilled = if spec.missile_skill < 5 {
        o.unskilled_prepare_extra
    } else {
        0
    };
    // §4.21.1: a bow, crossbow or gun shot is aimed for a full round ("markmen need a full
    // round to aim"); a bow's preparation includes its aiming. Thrown weapons "go off hand
    // much faster" and need no more than their own preparation.
    let quick = prepare.saturating_add(unskilled);
    let aimed = if w.thrown {
        quick
    } else {
        prepare.max(o.aim_segments).saturating_add(unskilled)
    };
    let unaimed = if aimed > quick {
        o.unaimed_shot_modifier
    } else {
        0
    };
    let (prepare, aim_bonus) = match spec.aim {
        Aim::Auto | Aim::Aimed => (aimed, 0),
        Aim::Unaimed => (quick, unaimed),
        // "aims for the duration of another round": three segments more.
        Aim::ExtraRound => (aimed.saturating_add(3), o.extra_aim_bonus),
    };
    Ok(Some(Missile {
        attack: spec.missile_skill + attack_mod,
        impact: w.impact,
        damage: damage_term(o, w) + str_bonus,
        point_blank,
        max_range,
        prepare,
        quick,
        aim_bonus,
        unaimed,
        auto: spec.aim == Aim::Auto,
        thrown: w.thrown,
        hands: w.hands,
        supply: w.supply,
    }))
}

/// Compiles a fighter spec under the options.
pub fn compile(o: &DraftOptions, spec: &FighterSpec) -> Result<Fighter, RulesError> {
    let w = &spec.weapon.stats;
    if w.ranged {
        return Err(RulesError::field(
            "weapon",
            format!(
                "{:?} is a missile weapon: give it as `missile` (with `missile_skill`) and a melee `weapon` (\"unarmed\" for none)",
                w.name
            ),
        ));
    }
    if !(0..=10).contains(&w.impact) {
        return Err(RulesError::field(
            "weapon.impact",
            "expected an impact class from 0 to 10",
        ));
    }
    if !(1..=2).contains(&w.hands) {
        return Err(RulesError::field("weapon.hands", "expected 1 or 2"));
    }
    let weapon_damage = damage_term(o, w);
    let (shield_bonus, shield_max) = match spec.shield {
        ShieldKind::None => (0, 0),
        ShieldKind::Small => (o.shield_bonus.small, o.shield_max_parry_impact.small),
        ShieldKind::Large => (o.shield_bonus.large, o.shield_max_parry_impact.large),
    };
    if spec.shield != ShieldKind::None && w.hands != 1 {
        return Err(RulesError::field(
            "shield",
            format!(
                "a shield needs a one-handed weapon (§4.18.1), but {:?} takes two hands",
                w.name
            ),
        ));
    }
    if spec.shield == ShieldKind::None && spec.defence == DefenceChoice::Shield {
        return Err(RulesError::field("defence", "\"shield\" needs a shield"));
    }
    let shield =
        (spec.shield != ShieldKind::None).then_some((spec.shield_skill + shield_bonus, shield_max));
    let shield_bonus_elsewhere = match o.shield_bonus_applies_to {
        ShieldBonusScope::AllDefenses => shield_bonus,
        ShieldBonusScope::ShieldParry => 0,
    };
    let (protection, movement) = match &spec.armour {
        &ArmourSpec::Named(k) => k.stats(o.armor_table).ok_or_else(|| {
            RulesError::field(
                "armour",
                format!(
                    "{k:?} has no row under armor_table = {:?} (G7)",
                    o.armor_table
                ),
            )
        })?,
        ArmourSpec::Custom(c) => (c.protection, c.movement),
    };
    let (mut attack_mod, mut defence_mod) = (spec.attack_modifier, spec.defence_modifier);
    for s in &spec.situation {
        let (a, d) = s.modifiers();
        attack_mod += a;
        if o.situation_on_defence {
            defence_mod += d;
        }
    }
    if spec.charge && o.charge_needs_sprint && movement <= o.heavy_armour_movement {
        return Err(RulesError::field(
            "charge",
            format!(
                "a Charge is a run (§4.22.2 \"accelerate and run\") and sprinting is \"not possible while wearing heavy armor\" (§4.17.5): this armour's Movement {movement:+} is at or below heavy_armour_movement = {}; remove charge, or set charge_needs_sprint = false",
                o.heavy_armour_movement
            ),
        ));
    }
    let missile = missile(o, spec, attack_mod)?;
    let unfamiliar = if spec.unfamiliar_weapon {
        o.unfamiliar_weapon_modifier
    } else {
        0
    };
    Ok(Fighter {
        skill: spec.skill,
        impact: w.impact,
        weapon_damage,
        weapon_can_parry: w.can_parry && !w.flexible,
        length: w.length,
        two_handed: w.hands == 2,
        shield,
        shield_bonus_elsewhere,
        dodge: spec.dodge,
        str_bonus: o.strength_bonus.of(spec.str),
        protection,
        movement,
        attack_mod: attack_mod + unfamiliar,
        defence_mod,
        weapon_parry_mod: unfamiliar,
        policy: spec.policy,
        adaptive_threshold: spec.adaptive_threshold,
        defence: spec.defence,
        stamina: (spec.str + spec.con + 1) / 2,
        wound_of: wound_table(o, spec.con),
        missile,
        draw: match w.impact {
            i32::MIN..=0 => 0,
            1 => 1,
            2 => 2,
            _ => 3,
        },
        charge: spec.charge,
        shield_quality: shield_bonus,
        shield_max,
        melee_missile: spec.missile_in_melee,
    })
}

impl crate::Compile<Draft> for Fighter {
    /// [`compile`] under the ruleset's options.
    fn compile(rules: &Draft, _name: &str, spec: &FighterSpec) -> Result<Fighter, RulesError> {
        compile(rules.options(), spec)
    }
}

/// The wound level of `damage` points against `con` (§4.19.2, G6).
pub fn wound_level(o: &DraftOptions, damage: i32, con: i32) -> Level {
    if damage <= o.scratch_max_damage {
        return Level::None;
    }
    let light = match o.light_wound_rounding {
        Rounding::Exact => 2 * damage <= con,
        Rounding::HalfUp => damage <= (con + 1) / 2,
        Rounding::Floor => damage <= con / 2,
    };
    if light {
        Level::Light
    } else if damage <= con {
        Level::Severe
    } else if damage <= 2 * con {
        Level::Critical
    } else {
        Level::Death
    }
}

fn wound_table(o: &DraftOptions, con: i32) -> [Level; WOUND_TABLE_LEN] {
    let mut t = [Level::None; WOUND_TABLE_LEN];
    for (d, slot) in t.iter_mut().enumerate() {
        *slot = wound_level(o, d as i32, con);
    }
    t
}

/// How a fighter defends against one particular opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Defence {
    /// Parry with the shield.
    Shield,
    /// Parry with the weapon.
    Weapon,
    /// Dodge.
    Dodge,
    /// No active defence.
    None,
}

/// Two compiled fighters facing each other.
#[derive(Clone, Debug, PartialEq)]
pub struct Matchup {
    /// A and B.
    pub f: [Fighter; 2],
    /// The defence each side uses against the other, and its base value (before penalties).
    pub defence: [(Defence, i32); 2],
    /// Who strikes first within a segment when the rules decide it (G4); `None` = tie.
    pub first_by_rules: Option<Side>,
    /// Each side's defence while its melee weapon is not in hand (drawing it): shield or dodge.
    pub defence_bare: [(Defence, i32); 2],
    /// Each side's defence with nothing in hand (picking up what an arm hit dropped, G12):
    /// dodge only.
    pub defence_dodge: [(Defence, i32); 2],
    /// Each side's defence against the other's missile (§4.21.3).
    pub vs_missile: [MissileDefence; 2],
    /// Whether each side shoots its missile weapon in melee (`missile_in_melee`, §4.17.1).
    pub shoots: [bool; 2],
    /// Each side's defence while it holds its missile weapon in melee: shield or dodge, dodge
    /// only behind a two-handed one.
    pub defence_shooting: [(Defence, i32); 2],
    /// Who strikes first in a round where a fighter charges (§4.22.2: "longer weapons always
    /// hit earlier than shorter counterparts"), else `first_by_rules`.
    pub first_on_charge: Option<Side>,
    /// Who shoots first when both shoot in one segment: the higher missile skill (§4.17.2),
    /// `None` = the round's striking order.
    pub first_shot: Option<Side>,
    /// The potent fighter under `potent_fighter_shift` (§4.17.2): weapon skill at least
    /// `potent_fighter_gap` above the other's; `None` when off or no one is.
    pub potent: Option<Side>,
    /// What the duel loop reads every step, folded once from the fields above and the options.
    pub hot: Hot,
}

/// The parts of the duel loop's totals that do not change during a duel, per side, folded
/// once per matchup so that a `step` adds them instead of re-reading fighters and options.
/// Derived entirely from the rest of [`Matchup`] and the options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hot {
    /// Weapon skill + static attack modifiers + armour Movement: an attack total before the
    /// per-step modifiers and the die.
    pub attack: [i32; 2],
    /// Strength bonus + damage term − the other side's protection: a hit's damage beyond the
    /// margin (and a charge).
    pub damage: [i32; 2],
    /// The defence against the other side's blows with the melee weapon in hand, while drawing
    /// it and with nothing in hand ([`DefenceHand`]): `None` when that side never defends so
    /// (no active defence, or `all_out`), else the base + static defence modifiers + armour
    /// Movement.
    pub defence: [[Option<i32>; 4]; 2],
    /// The plan of each side's policy when it can attack (its attacks and Defensive Position),
    /// `None` for `adaptive`, which looks at the wounds.
    pub plan: [Option<(u8, bool)>; 2],
    /// What the engaged fast path reads ([`super::fast::engaged_duel`]), where the Monte
    /// Carlo duel takes it: the duel starts engaged, without exhaustion, hit locations or
    /// simultaneous blows, so no fighter ever draws, moves, charges, drops a weapon or
    /// collapses (and the wound capacities give at most
    /// [`WOUND_STATES`](super::fast::WOUND_STATES) wound states). `None` elsewhere.
    pub fast: Option<Engaged>,
}

/// Which hand a defence is made with: the index into [`Hot::defence`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
pub enum DefenceHand {
    /// The melee weapon in hand ([`Matchup::defence`]).
    Armed = 0,
    /// Drawing the melee weapon ([`Matchup::defence_bare`]).
    Drawing = 1,
    /// Nothing in hand ([`Matchup::defence_dodge`]).
    Empty = 2,
    /// The missile weapon in hand in melee ([`Matchup::defence_shooting`]).
    Shooting = 3,
}

impl Hot {
    /// Folds the constant parts of `m`'s totals under `o`.
    fn new(o: &DraftOptions, m: &Matchup) -> Hot {
        let side = |x: usize| {
            let (f, other) = (&m.f[x], &m.f[1 - x]);
            let defence = [
                m.defence[x],
                m.defence_bare[x],
                m.defence_dodge[x],
                m.defence_shooting[x],
            ]
            .map(
                |(kind, base)| {
                    (kind != Defence::None && f.policy != Policy::AllOut)
                        .then_some(base + f.defence_mod + f.movement)
                },
            );
            let plan = match f.policy {
                Policy::Balanced => Some((1, false)),
                Policy::Aggressive => Some((2, false)),
                Policy::AllOut => Some((3, false)),
                Policy::Defensive => Some((0, true)),
                Policy::Adaptive => None,
            };
            (
                f.skill + f.attack_mod + f.movement,
                f.str_bonus + f.weapon_damage - other.protection,
                defence,
                plan,
            )
        };
        let (a, b) = (side(0), side(1));
        let mut hot = Hot {
            attack: [a.0, b.0],
            damage: [a.1, b.1],
            defence: [a.2, b.2],
            plan: [a.3, b.3],
            fast: None,
        };
        let engaged = o.start_distance == 0
            && o.parry_segment == ParrySegment::Action
            && !o.exhaustion
            && !o.hit_locations
            && !m.shoots.contains(&true)
            && (m.first_by_rules.is_some() || o.first_strike_tie != FirstStrikeTie::Simultaneous);
        if engaged {
            hot.fast = Engaged::new(o, m, &hot);
        }
        hot
    }
}

/// A defence against missiles (§4.21.3): arrows and bullets cannot be dodged; "shields, and
/// shields only, can be used to parry thrown weapons", which may also be dodged at half the
/// Dodge skill at most.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MissileDefence {
    /// The active defence's base: a shield parry (shield skill + bonus +
    /// `missile_shield_modifier`), or half the Dodge against a thrown weapon when that is
    /// higher; `None` = none (the shot meets `ranged_passive_value`).
    pub parry: Option<i32>,
    /// Whether a successful defence stops the missile (a dodge, or a shield that parries its
    /// impact).
    pub blocks: bool,
    /// Protection added by the shield's quality when it parries but cannot stop the missile.
    pub quality: i32,
    /// Protection the shield adds against every hit (`missile_shield = "armour"`).
    pub armour: i32,
}

/// How `d` meets the missile of `att` (§4.21.3, `missile_shield`, `thrown_dodge`).
pub fn missile_defence(o: &DraftOptions, d: &Fighter, att: &Fighter) -> MissileDefence {
    let quality = if d.shield.is_some() {
        d.shield_quality
    } else {
        0
    };
    let Some(ms) = att.missile else {
        return MissileDefence {
            parry: None,
            blocks: false,
            quality: 0,
            armour: 0,
        };
    };
    if d.defence == DefenceChoice::None {
        return MissileDefence {
            parry: None,
            blocks: false,
            quality: 0,
            armour: if !ms.thrown && o.missile_shield == MissileShield::Armour {
                quality
            } else {
                0
            },
        };
    }
    let shield_parries = ms.thrown || o.missile_shield == MissileShield::Parry;
    let shield = d
        .shield
        .filter(|_| shield_parries)
        .map(|(base, _)| (base + o.missile_shield_modifier, ms.impact <= d.shield_max));
    let dodge = (ms.thrown && o.thrown_dodge == ThrownDodge::Half).then_some((d.dodge / 2, true));
    // The better of the two; at equal totals the one that stops the weapon.
    let best = match (shield, dodge) {
        (Some(s), Some(dg)) => Some(if (dg.0, dg.1) > (s.0, s.1) { dg } else { s }),
        (s, dg) => s.or(dg),
    };
    MissileDefence {
        parry: best.map(|b| b.0),
        blocks: best.is_some_and(|b| b.1),
        quality: if shield.is_some() { quality } else { 0 },
        armour: if !ms.thrown && o.missile_shield == MissileShield::Armour {
            quality
        } else {
            0
        },
    }
}

/// Whether `f` shoots its missile weapon in melee against `other` (`missile_in_melee`):
/// `"auto"` keeps a weapon that needs no preparation (a gun, §4.17.1 "Trigger gun") when its
/// shot is worth more than the melee blow: the expected margin (a shot against
/// `ranged_passive_value` or the active defence `vs` gives, a blow against the defence `other`
/// makes) plus the damage term, both before armour.
pub fn shoots_in_melee(
    o: &DraftOptions,
    f: &Fighter,
    other: &Fighter,
    vs: &MissileDefence,
) -> bool {
    let Some(ms) = f.missile else {
        return false;
    };
    match f.melee_missile {
        MeleeMissile::Never => false,
        MeleeMissile::Always => true,
        MeleeMissile::Auto => {
            let quick = ms.melee_quick();
            if ms.need(quick) > 0 {
                return false;
            }
            // Twice the expected values, in integers: a d10 averages 5.5.
            let passive = 2 * o.ranged_passive_value - 11;
            let shot_def = vs
                .parry
                .map_or(passive, |b| (2 * (b + other.defence_mod)).max(passive));
            let shot = 2 * (ms.attack + ms.aim_mod(quick) + ms.damage - vs.armour) - shot_def;
            let (kind, def) = choose_defence(o, other, f);
            let blow_def = if kind == Defence::None || other.policy == Policy::AllOut {
                2 * o.undefended_value - 11
            } else {
                2 * (def + other.defence_mod + other.movement)
            };
            let blow = 2 * (f.skill + f.attack_mod + f.weapon_damage + f.str_bonus) - blow_def;
            shot > blow
        }
    }
}

/// Chooses `d`'s defence against `att` (digest §6 `best_legal` and the forced choices).
pub fn choose_defence(o: &DraftOptions, d: &Fighter, att: &Fighter) -> (Defence, i32) {
    let weapon_ok = d.weapon_can_parry && att.impact <= d.impact + o.parry_impact_reach;
    let weapon = weapon_ok.then_some(d.skill + d.weapon_parry_mod + d.shield_bonus_elsewhere);
    let shield = d
        .shield
        .and_then(|(base, max)| (att.impact <= max).then_some(base));
    let dodge = d.dodge + d.shield_bonus_elsewhere;
    // Highest total among the legal options; ties go shield, weapon, dodge.
    let best_legal = || {
        let mut best = (Defence::Dodge, dodge);
        if let Some(v) = weapon.filter(|&v| v >= best.1) {
            best = (Defence::Weapon, v);
        }
        if let Some(v) = shield.filter(|&v| v >= best.1) {
            best = (Defence::Shield, v);
        }
        best
    };
    match d.defence {
        DefenceChoice::None => (Defence::None, 0),
        DefenceChoice::Dodge => (Defence::Dodge, dodge),
        DefenceChoice::Weapon => weapon.map_or_else(best_legal, |v| (Defence::Weapon, v)),
        DefenceChoice::Shield => shield.map_or_else(best_legal, |v| (Defence::Shield, v)),
        DefenceChoice::BestLegal => best_legal(),
    }
}

/// Who strikes first when both act in the same segment (§4.17.2, G4, `striking_order`), if the
/// rules decide it.
pub fn first_striker(o: &DraftOptions, a: &Fighter, b: &Fighter) -> Option<Side> {
    if let Some(side) = potent(o, a, b) {
        // "A wise game master could rule that the more potent opponent still strikes first"
        // when the two fight in different ways (here: different weapons, which the weight and
        // length rules would order); with the same weapon the higher skill is first anyway.
        return Some(side);
    }
    if (a.impact - b.impact).abs() >= o.wide_weight_gap {
        return Some(if a.impact < b.impact {
            Side::A
        } else {
            Side::B
        });
    }
    if o.striking_order == StrikingOrder::Seed
        && let (Some(la), Some(lb)) = (a.length, b.length)
        && la != lb
    {
        return Some(if la > lb { Side::A } else { Side::B });
    }
    if a.skill != b.skill {
        return Some(if a.skill > b.skill { Side::A } else { Side::B });
    }
    match o.first_strike_tie {
        FirstStrikeTie::A => Some(Side::A),
        FirstStrikeTie::B => Some(Side::B),
        FirstStrikeTie::Random | FirstStrikeTie::Simultaneous => None,
    }
}

/// The potent fighter under `potent_fighter_shift` (§4.17.2): the one whose weapon skill is at
/// least `potent_fighter_gap` above the other's.
pub fn potent(o: &DraftOptions, a: &Fighter, b: &Fighter) -> Option<Side> {
    if !o.potent_fighter_shift {
        return None;
    }
    if a.skill - b.skill >= o.potent_fighter_gap {
        Some(Side::A)
    } else if b.skill - a.skill >= o.potent_fighter_gap {
        Some(Side::B)
    } else {
        None
    }
}

/// A fighter's defence with nothing in hand: its Dodge, unless it never defends.
fn dodge_only(f: &Fighter) -> (Defence, i32) {
    match f.defence {
        DefenceChoice::None => (Defence::None, 0),
        _ => (Defence::Dodge, f.dodge),
    }
}

/// Builds a matchup.
pub fn matchup(o: &DraftOptions, a: &Fighter, b: &Fighter) -> Matchup {
    let bare = |f: &Fighter| Fighter {
        weapon_can_parry: false,
        ..f.clone()
    };
    let vs_missile = [missile_defence(o, a, b), missile_defence(o, b, a)];
    let shoots = [
        shoots_in_melee(o, a, b, &vs_missile[1]),
        shoots_in_melee(o, b, a, &vs_missile[0]),
    ];
    // §4.17.1's order: "Trigger gun" and "Fire missile weapon" before a melee attack, "Throw
    // weapon" after it.
    let early = |x: usize, f: &Fighter| shoots[x] && f.missile.is_some_and(|m| !m.thrown);
    let late = |x: usize, f: &Fighter| shoots[x] && f.missile.is_some_and(|m| m.thrown);
    let first_by_rules = match ((early(0, a), late(0, a)), (early(1, b), late(1, b))) {
        ((true, _), (false, _)) | ((false, false), (false, true)) => Some(Side::A),
        ((false, _), (true, _)) | ((false, true), (false, false)) => Some(Side::B),
        _ => first_striker(o, a, b),
    };
    let shooting = |f: &Fighter, other: &Fighter| match f.missile {
        Some(ms) if ms.hands >= 2 => dodge_only(f),
        _ => choose_defence(o, &bare(f), other),
    };
    let first_on_charge = match (a.length, b.length) {
        (Some(la), Some(lb)) if la != lb => Some(if la > lb { Side::A } else { Side::B }),
        _ => first_by_rules,
    };
    let first_shot = match (a.missile, b.missile) {
        (Some(ma), Some(mb)) if ma.attack != mb.attack => Some(if ma.attack > mb.attack {
            Side::A
        } else {
            Side::B
        }),
        _ => None,
    };
    let mut m = Matchup {
        defence: [choose_defence(o, a, b), choose_defence(o, b, a)],
        defence_bare: [
            choose_defence(o, &bare(a), b),
            choose_defence(o, &bare(b), a),
        ],
        defence_dodge: [dodge_only(a), dodge_only(b)],
        vs_missile,
        shoots,
        defence_shooting: [shooting(a, b), shooting(b, a)],
        first_by_rules,
        first_on_charge,
        first_shot,
        potent: potent(o, a, b),
        f: [a.clone(), b.clone()],
        hot: Hot {
            attack: [0; 2],
            damage: [0; 2],
            defence: [[None; 4]; 2],
            plan: [None; 2],
            fast: None,
        },
    };
    m.hot = Hot::new(o, &m);
    m
}

impl crate::Pair<Draft> for Matchup {
    /// [`matchup`] under the ruleset's options.
    fn pair(rules: &Draft, a: &Fighter, b: &Fighter) -> Result<Matchup, RulesError> {
        Ok(matchup(rules.options(), a, b))
    }
}
