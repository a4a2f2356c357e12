//! Compiled fighters and matchups: flat `Copy` tables (attacks, HP program, spells) built once.
//!
//! A side is a list of members ([`Fighter::others`], made by `D20::join_side`), each with its
//! count; the [`Matchup`] keeps every member of each side, the member of each creature
//! ([`Matchup::member_of`], a member's copies next to each other) and what reads two members
//! at once (expected damage of each member against each foe member, the speed group of each
//! creature). A side of one member (a duel, a band) is played through [`Matchup::f`] alone
//! ([`Matchup::mixed`] is false), exactly as before mixed members existed.

use oddsmith_dice::Dist;

use super::options::{
    ClassHpRoll, ConHp, CreatureDefense, CrossbowReading, D20Options, DamageDie, EngagedMissile,
    EnforceCaps, FractionalBth, FumbleDamage, HalfHd, InitiativeSpeed, PtmStacking,
};
use super::D20;
use super::reference;
use super::spec::{DamageKind, FighterSpec, RetreatPolicy};
use super::tables::{Dice, Prof, Size, WeaponClass, WeaponStats, ability_mod};
use crate::RulesError;

/// Most creatures on one side (all members together): the shared [`crate::group::MAX_SIDE`].
pub const MAX_SIDE: usize = crate::group::MAX_SIDE;
/// Most attacks in one action (natural sequence, or weapon attacks, bow shots and off hand).
pub const MAX_ATTACKS: usize = 10;
/// Most spells a fighter knows.
pub const MAX_SPELLS: usize = 4;

/// One attack of an action, precomputed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Attack {
    /// Total attack modifier: BtH + ability + equipment (+ proficiency).
    pub to_hit: i32,
    /// Damage dice with every damage modifier in `plus`.
    pub dice: Dice,
    /// Highest damage a hit may deal (`damage_mod_exceeds_cap = false`), else `i32::MAX`.
    pub cap: i32,
    /// Least damage a hit deals (`min_damage_on_hit`).
    pub floor: i32,
    /// Kind of damage.
    pub kind: DamageKind,
    /// A spell (the target's magic resistance applies).
    pub magic: bool,
}

impl Attack {
    /// Damage of a hit with rolled dice total `roll` (dice plus constant).
    #[inline]
    pub fn clamp(&self, roll: i32) -> i32 {
        roll.min(self.cap).max(self.floor)
    }
    /// Least damage of a hit: the fumble's "minimum damage" (G-10).
    pub fn min_damage(&self) -> i32 {
        self.clamp(self.dice.min())
    }
    /// Full damage (G-15 "max").
    pub fn max_damage(&self) -> i32 {
        self.clamp(self.dice.max())
    }
    /// Exact distribution of a normal hit's damage.
    pub fn damage_dist(&self) -> Dist {
        Dist::die(u32::from(self.dice.sides))
            .sum_iid(u32::from(self.dice.n))
            .expect("small dice")
            .shift(i64::from(self.dice.plus))
            .map(|v| i64::from(self.clamp(v as i32)))
    }
}

/// One group of HP dice: `count` dice of `sides` (halved up if `half`), each
/// max(floor, die + add) × times.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HpTerm {
    /// Number of dice.
    pub count: u8,
    /// Faces.
    pub sides: u16,
    /// ceil(die / 2) (½ Hit Die).
    pub half: bool,
    /// Added to each die (Con modifier, class HP base).
    pub add: i32,
    /// Least value of each die after `add`.
    pub floor: i32,
    /// Multiplier (`class_hp_roll = "single_times_n"`).
    pub times: i32,
}

/// How a fighter's HP are rolled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HpProgram {
    /// Dice groups (species HD, ½ HD, class levels).
    pub terms: [HpTerm; 3],
    /// Number of groups used.
    pub n: u8,
    /// Added once (Con under `con_hp_species = "once"`).
    pub constant: i32,
    /// Fixed HP (fighter field `hp`).
    pub fixed: Option<i32>,
}

impl HpProgram {
    /// Rolls the HP.
    #[inline]
    pub fn roll<R: crate::Roller>(&self, r: &mut R) -> i32 {
        if let Some(h) = self.fixed {
            return h;
        }
        let mut total = self.constant;
        for t in &self.terms[..self.n as usize] {
            for _ in 0..t.count {
                let mut v = r.roll(u32::from(t.sides)) as i32;
                if t.half {
                    v = (v + 1) / 2;
                }
                total += (v + t.add).max(t.floor) * t.times;
            }
        }
        total.max(1)
    }
    /// The exact HP distribution.
    pub fn dist(&self) -> Dist {
        if let Some(h) = self.fixed {
            return Dist::constant(i64::from(h));
        }
        let mut d = Dist::constant(i64::from(self.constant));
        for t in &self.terms[..self.n as usize] {
            let one = Dist::die(u32::from(t.sides)).map(|v| {
                let v = if t.half { (v + 1) / 2 } else { v };
                (v + i64::from(t.add)).max(i64::from(t.floor)) * i64::from(t.times)
            });
            d = d
                .convolve(&one.sum_iid(u32::from(t.count)).expect("small dice"))
                .expect("small dice");
        }
        d.map(|v| v.max(1))
    }
}

/// A spell, precomputed (G-25).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spell {
    /// HP units (damage).
    pub damage: i32,
    /// BtH units (lasting bonus).
    pub bth: i32,
    /// Cost in half Magic Points.
    pub cost2: i32,
    /// The damage part as an attack (Chr to hit and damage).
    pub attack: Attack,
}

/// A compiled d20 fighter.
#[derive(Clone, Debug, PartialEq)]
pub struct Fighter {
    /// Ability modifiers: Str, Int, Wis, Con, Dex, Chr.
    pub mods: [i32; 6],
    /// Size category.
    pub size: Size,
    /// Defense.
    pub def: i32,
    /// Effective movement (after Dex and armour).
    pub speed: i32,
    /// Speed that orders actions (`initiative_speed`).
    pub order_speed: i32,
    /// Death Point.
    pub death_point: i32,
    /// Bonus to Hit (species HD + class).
    pub bth: i32,
    /// HP rolling.
    pub hp: HpProgram,
    /// The attack action: natural sequence or weapon attacks (bow shots, off hand).
    pub attacks: [Attack; MAX_ATTACKS],
    /// Attacks used.
    pub n_attacks: u8,
    /// The action is a missile action (Missile segment).
    pub missile: bool,
    /// Crossbow: shoots in odd rounds only (G-21).
    pub crossbow: bool,
    /// Known spells.
    pub spells: [Spell; MAX_SPELLS],
    /// Spells used.
    pub n_spells: u8,
    /// Maximum Magic Points, in halves.
    pub mp2: i32,
    /// Copies of this member on its side.
    pub count: u8,
    /// Regenerates.
    pub regenerates: bool,
    /// Resistance to weapon damage.
    pub resist: Option<Prof>,
    /// Resistance to magic.
    pub magic_resist: Option<Prof>,
    /// Minimum damage of the first listed attack (inflicted on a fumbling opponent).
    pub min_dmg: i32,
    /// Kind of that damage.
    pub min_kind: DamageKind,
    /// The same minimum per set of damage dice (per engaged attack, or the first only under
    /// `fumble_damage = "first_attack"`) with its kind: what a fumbler resists roll by roll
    /// under `fumble_resist_per = "attack"`. They sum to `min_dmg`.
    pub min_sets: [(i32, DamageKind); MAX_ATTACKS],
    /// Number of `min_sets`.
    pub n_min_sets: u8,
    /// A note when weapon dice exceed the cap (`enforce_caps = "warn"`).
    pub cap_warning: Option<String>,
    /// Reach of the primary weapon in Mv units (natural attacks 1; G-22).
    pub reach: i32,
    /// The special ability to charge (G-23).
    pub charge: bool,
    /// Set-vs-charge defense (G-23).
    pub set_vs_charge: bool,
    /// Charges as hit-and-run (G-23).
    pub hit_and_run: bool,
    /// Retreats when HP × 1000 ≤ this × maximum HP (G-24); `None` = never.
    pub retreat_milli: Option<i32>,
    /// A missile fighter's engaged attack (`engaged_missile = "melee"`): its melee weapon, or
    /// one attack with the missile weapon.
    pub melee: [Attack; MAX_ATTACKS],
    /// Attacks of `melee` used (0 for a melee fighter).
    pub n_melee: u8,
    /// Reach of the melee weapon (of the primary weapon without one).
    pub melee_reach: i32,
    /// Carries a melee weapon beside its missile weapon.
    pub has_melee_weapon: bool,
    /// Thrown weapons carried; `None` = unlimited.
    pub supply: Option<u8>,
    /// Whom it attacks ([`crate::group::pick`]).
    pub target: crate::group::Target,
    /// The side's other members after this one, in list order (`D20::join_side`); empty for a
    /// side of one member.
    pub others: Vec<Fighter>,
}

/// The ability modifiers of a spec: Str, Int, Wis, Con, Dex, Chr.
pub fn mods(s: &FighterSpec) -> [i32; 6] {
    [
        s.strength,
        s.intelligence,
        s.wisdom,
        s.constitution,
        s.dexterity,
        s.charisma,
    ]
    .map(ability_mod)
}

/// Speed from Movement, Dex modifier and the two penalties (sixths), exact rationals (G-13).
pub fn speed(o: &D20Options, mv: i32, dex: i32, armor_ptm: i32, shield_ptm: i32) -> i32 {
    let (num, den) = match o.ptm_stacking {
        PtmStacking::AddCap => (6 - (armor_ptm + shield_ptm).min(4), 6),
        PtmStacking::Multiply => ((6 - armor_ptm) * (6 - shield_ptm), 36),
    };
    let ceil = |x: i32| -((-x).div_euclid(den));
    let v = if o.dex_before_armor {
        ceil((mv + dex) * num)
    } else {
        ceil(mv * num) + dex
    };
    v.max(1)
}

impl crate::Compile<D20> for Fighter {
    /// Compiles a fighter spec under the options.
    fn compile(rules: &D20, _name: &str, s: &FighterSpec) -> Result<Fighter, RulesError> {
        let o = rules.options();
        let m = mods(s);
        let sp = &s.species.stats;
        let size = sp.size;
        let class = match (&s.class, s.level) {
            (Some(_), 0) => {
                return Err(RulesError::field(
                    "level",
                    "a classed fighter needs a level from 1",
                ));
            }
            (None, l) if l > 0 => {
                return Err(RulesError::field("level", "a level needs a class"));
            }
            (Some(c), l) => {
                let c = &c.stats;
                if c.bth.is_empty() || c.bth.len() != c.mp.len() || c.bth.len() > 10 {
                    return Err(RulesError::field(
                        "class",
                        "bth and mp need the same number of levels, 1 to 10",
                    ));
                }
                if c.bth.iter().any(|b| !(0..=20).contains(b))
                    || c.mp
                        .iter()
                        .any(|v| !(0.0..=200.0).contains(v) || (v * 2.0).fract() != 0.0)
                {
                    return Err(RulesError::field(
                        "class",
                        "bth entries are 0–20 and mp entries 0–200 in steps of 0.5",
                    ));
                }
                if l as usize > c.bth.len() {
                    return Err(RulesError::field(
                        "level",
                        format!(
                            "{} has levels 1 to {} (the tables stop at 6, G-30; give an inline class table for more)",
                            c.name,
                            c.bth.len()
                        ),
                    ));
                }
                if !sp.playable && !o.allow_monster_classes {
                    return Err(RulesError::field(
                        "class",
                        format!(
                            "{} is a monster: only members of a race advance in a class («Creatures §1»; allow_monster_classes)",
                            sp.name
                        ),
                    ));
                }
                Some((c, l))
            }
            (None, _) => None,
        };
        let species_counts = class.is_none() || o.species_class_stacking;
        let hd2 = if species_counts { sp.hd } else { 0 };
        // Bonus to Hit: +1 per Hit Die plus the class table.
        let hd_bth = match o.fractional_bth {
            FractionalBth::Floor => hd2 / 2,
            FractionalBth::RoundUp => (hd2 + 1) / 2,
        };
        let bth = hd_bth + class.map_or(0, |(c, l)| c.bth[l as usize - 1]);
        // Hit points.
        let con = m[3];
        let die = size.hp_die() as u16;
        let mut hp = HpProgram::default();
        let mut push = |t: HpTerm| {
            if t.count > 0 {
                hp.terms[hp.n as usize] = t;
                hp.n += 1;
            }
        };
        let per_die_con = if o.con_hp_species == ConHp::PerHd {
            con
        } else {
            0
        };
        push(HpTerm {
            count: (hd2 / 2) as u8,
            sides: die,
            half: false,
            add: per_die_con,
            floor: o.min_hp_per_die,
            times: 1,
        });
        if hd2 % 2 == 1 {
            let (sides, half) = match o.half_hd_hp {
                HalfHd::CeilHalfDie => (die, true),
                HalfHd::HalfDieType => ((die / 2).max(1), false),
                HalfHd::RoundDown => (0, false),
            };
            if sides > 0 {
                push(HpTerm {
                    count: 1,
                    sides,
                    half,
                    add: per_die_con,
                    floor: o.min_hp_per_die,
                    times: 1,
                });
            }
        }
        if let Some((c, l)) = class {
            let con = if o.con_per_level {
                con
            } else {
                hp.constant += m[3];
                0
            };
            let t = match o.class_hp_roll {
                ClassHpRoll::PerLevel => HpTerm {
                    count: l as u8,
                    sides: 4,
                    half: false,
                    add: c.hp_base + con,
                    floor: o.min_hp_per_die,
                    times: 1,
                },
                ClassHpRoll::SingleTimesN => HpTerm {
                    count: 1,
                    sides: 4,
                    half: false,
                    add: c.hp_base + con,
                    floor: o.min_hp_per_die,
                    times: l,
                },
            };
            push(t);
        }
        if o.con_hp_species == ConHp::Once && hd2 > 0 {
            hp.constant += con;
        }
        hp.fixed = s.hp;
        // Defense and speed.
        let (armor, shield) = (&s.armor.stats, &s.shield.stats.0);
        // «Sample Creatures»: "These stats are not modified by equipment, ability scores, or
        // class level" (`creature_defense`); a classed character adds Dex and equipment
        // («Standard Abilities §2.3»).
        let def = if class.is_none() && o.creature_defense == CreatureDefense::AsListed {
            sp.def
        } else {
            sp.def + m[4] + armor.btd + shield.btd
        };
        let spd = speed(o, sp.mv, m[4], armor.ptm.0, shield.ptm.0);
        let order_speed = match o.initiative_speed {
            InitiativeSpeed::Effective => spd,
            InitiativeSpeed::Base => sp.mv,
        };
        // Attacks.
        let mut attacks = [Attack::default(); MAX_ATTACKS];
        let mut n = 0usize;
        let mut cap_warning = None;
        let floor = o.min_damage_on_hit;
        let mut missile = false;
        let mut crossbow = false;
        let prof = if o.proficiency_to_hit {
            s.proficiency.bonus()
        } else {
            0
        };
        match &s.weapon {
            None => {
                if sp.attacks.is_empty() {
                    return Err(RulesError::field(
                        "weapon",
                        format!(
                            "{} attacks \"by weapon\": give a weapon (or a species with an attack sequence)",
                            sp.name
                        ),
                    ));
                }
                if sp.attacks.len() > 8 {
                    return Err(RulesError::field(
                        "species.attacks",
                        "at most 8 attacks in a sequence",
                    ));
                }
                for (i, a) in sp.attacks.iter().enumerate() {
                    let dice = Dice::parse(&a.damage)
                        .map_err(|e| RulesError::field(format!("species.attacks.{i}.damage"), e))?;
                    attacks[n] = Attack {
                        to_hit: bth + m[0] + prof,
                        dice: Dice {
                            plus: dice.plus + m[0],
                            ..dice
                        },
                        cap: i32::MAX,
                        floor,
                        kind: a.damage_type.unwrap_or(s.damage_type),
                        magic: false,
                    };
                    n += 1;
                }
            }
            Some(w) => {
                let w = &w.stats;
                check_hands(s, w, "shield")?;
                let kind = w.damage_type.unwrap_or(s.damage_type);
                let (a, warn) = weapon_attack(o, size, &m, bth + prof, w, kind)
                    .map_err(|e| RulesError::field("weapon", e))?;
                cap_warning = warn;
                missile = w.class.is_missile();
                crossbow = w.class == WeaponClass::Crossbow;
                let copies = usize::from(o.by_weapon_attacks.clamp(1, 4))
                    * if w.class == WeaponClass::Bow { 2 } else { 1 };
                for _ in 0..copies {
                    attacks[n] = a;
                    n += 1;
                }
                if let Some(off) = &s.offhand {
                    let off = &off.stats;
                    if off.class != WeaponClass::Light {
                        return Err(RulesError::field(
                            "offhand",
                            "only light weapons go in the secondary hand («Weapons §2.1»)",
                        ));
                    }
                    if s.shield.stats.0.btd > 0 {
                        return Err(RulesError::field(
                            "offhand",
                            "the secondary hand holds a shield already",
                        ));
                    }
                    if w.class == WeaponClass::Heavy
                        || w.used_as == Some(WeaponClass::Heavy)
                        || missile
                    {
                        return Err(RulesError::field(
                            "offhand",
                            format!("{} needs both hands", w.name),
                        ));
                    }
                    if o.offhand_attack {
                        let kind = off.damage_type.unwrap_or(s.damage_type);
                        let (mut a, _) = weapon_attack(o, size, &m, bth + prof, off, kind)
                            .map_err(|e| RulesError::field("offhand", e))?;
                        a.to_hit += o.offhand_to_hit;
                        attacks[n] = a;
                        n += 1;
                    }
                }
            }
        }
        // The engaged attack of a missile fighter (`engaged_missile = "melee"`): its melee weapon,
        // else one attack "by weapon" (G-20) with the missile weapon; and the thrown supply.
        let by_weapon = usize::from(o.by_weapon_attacks.clamp(1, 4));
        let mut melee = [Attack::default(); MAX_ATTACKS];
        let mut n_melee = 0usize;
        let mut melee_reach = s.weapon.as_ref().map_or(1, |w| w.stats.reach);
        match (&s.melee_weapon, missile) {
            (Some(_), false) => {
                return Err(RulesError::field(
                    "melee_weapon",
                    "a melee weapon to switch to goes with a missile weapon (weapon = a bow, sling, crossbow or thrown weapon)",
                ));
            }
            (Some(mw), true) => {
                let w = &mw.stats;
                if w.class.is_missile() {
                    return Err(RulesError::field(
                        "melee_weapon",
                        format!(
                            "{} is a missile weapon: give a light, medium or heavy one",
                            w.name
                        ),
                    ));
                }
                check_hands(s, w, "melee_weapon")?;
                let kind = w.damage_type.unwrap_or(s.damage_type);
                let (a, _) = weapon_attack(o, size, &m, bth + prof, w, kind)
                    .map_err(|e| RulesError::field("melee_weapon", e))?;
                melee[..by_weapon].fill(a);
                n_melee = by_weapon;
                melee_reach = w.reach;
            }
            (None, true) => {
                melee[..by_weapon].fill(attacks[0]);
                n_melee = by_weapon;
            }
            (None, false) => {}
        }
        let thrown = s.weapon.as_ref().is_some_and(|w| w.stats.class == WeaponClass::Thrown);
        if s.thrown_supply.is_some() && !thrown {
            return Err(RulesError::field(
                "thrown_supply",
                "a supply counts thrown weapons: give a thrown weapon (e.g. javelin)",
            ));
        }
        let switches = missile && o.engaged_missile == EngagedMissile::Melee;
        // The fumble's "minimum damage" is dealt by an engaged creature: with its engaged attack.
        let engaged = if switches {
            &melee[..n_melee]
        } else {
            &attacks[..n]
        };
        let first = engaged.first().copied().unwrap_or_default();
        // «Rolling Attacks §2»: its whole engaged sequence at its least (`fumble_damage`).
        let sets = match o.fumble_damage {
            FumbleDamage::Sequence => engaged,
            FumbleDamage::FirstAttack => &engaged[..engaged.len().min(1)],
        };
        let min_dmg = match o.fumble_damage {
            FumbleDamage::Sequence => engaged.iter().map(Attack::min_damage).sum(),
            FumbleDamage::FirstAttack => first.min_damage(),
        };
        let mut min_sets = [(0, DamageKind::default()); MAX_ATTACKS];
        for (slot, a) in min_sets.iter_mut().zip(sets) {
            *slot = (a.min_damage(), a.kind);
        }
        // Magic.
        let mp2 = class
            .map_or(0, |(c, l)| (c.mp[l as usize - 1] * 2.0) as i32 + 4 * m[2])
            .max(0);
        if s.spells.len() > MAX_SPELLS {
            return Err(RulesError::field("spells", "at most 4 spells"));
        }
        let mut spells = [Spell::default(); MAX_SPELLS];
        let mut total_cost2 = 0;
        for (i, sp_) in s.spells.iter().enumerate() {
            if sp_.damage == 0 && sp_.bth == 0 {
                return Err(RulesError::field(
                    format!("spells.{i}"),
                    "a spell needs damage or bth units",
                ));
            }
            let cost2 = 2 * reference::spell_cost(sp_.damage, sp_.bth);
            total_cost2 += cost2;
            spells[i] = Spell {
                damage: sp_.damage,
                bth: sp_.bth,
                cost2,
                attack: Attack {
                    to_hit: bth + m[5],
                    dice: Dice {
                        n: 0,
                        sides: 1,
                        plus: sp_.damage + m[5],
                    },
                    cap: i32::MAX,
                    floor: 1,
                    kind: sp_.damage_type,
                    magic: true,
                },
            };
        }
        let retreat_milli = match s.retreat {
            RetreatPolicy::Never => None,
            RetreatPolicy::AtHpFraction => {
                let f = s.retreat_hp_fraction;
                if !(0.0..=1.0).contains(&f) {
                    return Err(RulesError::field(
                        "retreat_hp_fraction",
                        format!("{f} is out of range: expected 0 to 1"),
                    ));
                }
                Some((f * 1000.0).round() as i32)
            }
        };
        if total_cost2 > mp2 {
            return Err(RulesError::field(
                "spells",
                format!(
                    "the spells cost {} MP in all but the fighter has {} («Magic §4.2»: known spells cannot exceed maximum MPs; only classed races have MPs)",
                    f64::from(total_cost2) / 2.0,
                    f64::from(mp2) / 2.0
                ),
            ));
        }
        Ok(Fighter {
            mods: m,
            size,
            def,
            speed: spd,
            order_speed,
            death_point: size.death_point(),
            bth,
            hp,
            attacks,
            n_attacks: n as u8,
            missile,
            crossbow,
            spells,
            n_spells: s.spells.len() as u8,
            mp2,
            count: s.count as u8,
            regenerates: s.regenerates,
            resist: s.resistance,
            magic_resist: s.magic_resistance,
            min_dmg,
            min_kind: first.kind,
            min_sets,
            n_min_sets: sets.len().min(MAX_ATTACKS) as u8,
            cap_warning,
            reach: s.weapon.as_ref().map_or(1, |w| w.stats.reach),
            melee,
            n_melee: n_melee as u8,
            melee_reach,
            has_melee_weapon: s.melee_weapon.is_some(),
            supply: s.thrown_supply.map(|v| v as u8),
            target: s.target,
            charge: s.charge,
            set_vs_charge: s.set_vs_charge,
            hit_and_run: s.hit_and_run,
            retreat_milli,
            others: Vec::new(),
        })
    }
}

/// Refuses a two-handed (heavy, or used as heavy) weapon beside a real shield («Weapons §2.3»),
/// as an error on `field`.
fn check_hands(s: &FighterSpec, w: &WeaponStats, field: &str) -> Result<(), RulesError> {
    let shield = s.shield.stats.0.btd > 0 || s.shield.stats.0.ptm.0 > 0;
    let two_handed = w.class == WeaponClass::Heavy || w.used_as == Some(WeaponClass::Heavy);
    if shield && two_handed {
        return Err(RulesError::field(
            field,
            format!("{} needs both hands: no shield («Weapons §2.3»)", w.name),
        ));
    }
    Ok(())
}

/// The cap of a weapon for a wielder's size (G-08, G-21).
pub fn weapon_cap(o: &D20Options, size: Size, w: &WeaponStats) -> Result<i32, String> {
    let class = match w.used_as {
        None => w.class,
        Some(u) => {
            let ok = matches!(
                (w.class, u),
                (WeaponClass::Light, WeaponClass::Medium)
                    | (WeaponClass::Medium, WeaponClass::Heavy)
            ) || u == w.class;
            if !ok {
                return Err(format!(
                    "a {:?} weapon cannot be used as {:?}: light as medium, medium as heavy only («Weapons §2.1–2.2»)",
                    w.class, u
                ));
            }
            if o.versatile_upgrade { u } else { w.class }
        }
    };
    let table = size.melee_cap(class);
    Ok(match class {
        WeaponClass::Bow => table / 2,
        WeaponClass::Crossbow if o.crossbow_reading == CrossbowReading::AverageRate => 2 * table,
        _ => table,
    })
}

/// One weapon attack: dice from the cap (or the weapon's own dice), ability and equipment
/// modifiers; and a warning when the dice exceed the cap under `enforce_caps = "warn"`.
pub fn weapon_attack(
    o: &D20Options,
    size: Size,
    m: &[i32; 6],
    base_to_hit: i32,
    w: &WeaponStats,
    kind: DamageKind,
) -> Result<(Attack, Option<String>), String> {
    let cap = weapon_cap(o, size, w)?;
    let mut warn = None;
    let dice = match &w.damage {
        Some(d) => {
            let d = Dice::parse(d)?;
            if d.max() > cap {
                let msg = format!(
                    "{} rolls up to {} but its cap for a {} wielder is {cap} (G-08)",
                    w.name,
                    d.max(),
                    super::tables::SIZE_NAMES[size as usize]
                );
                match o.enforce_caps {
                    EnforceCaps::Error => return Err(msg),
                    EnforceCaps::Warn => warn = Some(msg),
                    EnforceCaps::Off => {}
                }
            }
            d
        }
        None => match o.damage_die {
            DamageDie::TwoDice if cap % 2 == 0 && cap >= 2 => Dice {
                n: 2,
                sides: (cap / 2) as u16,
                plus: 0,
            },
            _ => Dice {
                n: 1,
                sides: cap as u16,
                plus: 0,
            },
        },
    };
    // Str for weapons, Int for crossbows (devices), «Standard Abilities §1.1–1.2».
    let ab = if w.class == WeaponClass::Crossbow {
        m[1]
    } else {
        m[0]
    };
    Ok((
        Attack {
            to_hit: base_to_hit + ab + w.to_hit,
            dice: Dice {
                plus: dice.plus + ab + w.damage_bonus,
                ..dice
            },
            cap: if o.damage_mod_exceeds_cap {
                i32::MAX
            } else {
                cap
            },
            floor: o.min_damage_on_hit,
            kind,
            magic: false,
        },
        warn,
    ))
}

/// Two compiled sides facing each other.
#[derive(Clone, Debug, PartialEq)]
pub struct Matchup {
    /// Side A's and side B's first member (the whole side in a duel or a band).
    pub f: [Fighter; 2],
    /// Per side, every member in list order (`members[side][0]` is `f[side]`), each without
    /// its `others`.
    pub members: [Vec<Fighter>; 2],
    /// Some side has more than one member: creatures read their own member's statistics
    /// ([`Matchup::fighter`]); else every creature of a side is `f[side]` (the duel's path).
    pub mixed: bool,
    /// Creatures per side (all members' copies).
    pub n: [u8; 2],
    /// Per side, the member of each creature (`member_of[side][i]` for `i < n[side]`).
    pub member_of: [[u8; MAX_SIDE]; 2],
    /// Per side, each member's count (`counts[side][j]` for `j < members[side].len()`).
    pub counts: [[u8; MAX_SIDE]; 2],
    /// Per side and member: damage spells worth casting, best expected damage per MP first
    /// (ranked against the Defense of the foe side's first member).
    pub spell_order: [[[u8; MAX_SPELLS]; MAX_SIDE]; 2],
    /// Per side and member: how many of `spell_order` are used.
    pub n_order: [[u8; MAX_SIDE]; 2],
    /// Some attack, melee weapon, spell or fumble minimum deals crippling damage, so maximum
    /// HP are tracked.
    pub crippling: bool,
    /// Maximum HP are tracked: crippling damage, a retreat policy (G-24) or a policy that
    /// reads wounds (`most_wounded`).
    pub track_max: bool,
    /// Some creature has a retreat policy (G-24): at each round's end a creature that is down
    /// forgets that it was caught ([`super::duel::CAUGHT`]: nobody gets up again), so equal
    /// states merge.
    pub retreat: bool,
    /// `missile_range` (G-22).
    pub missile_range: i32,
    /// `danger[side][j][k]`: a creature of member `j` of `side`'s expected damage per round
    /// against member `k` of the other side, in thousandths of HP (the `most_dangerous`
    /// policy of a creature of member `k` reads it).
    pub danger: [[[i32; MAX_SIDE]; MAX_SIDE]; 2],
    /// Per side: identical creatures (copies of one member) are kept in canonical order at
    /// each round's start ([`crate::group::canonical`]): some member has several copies and
    /// no foe's policy reads places. Off only to test that it changes nothing.
    pub canonical: [bool; 2],
    /// Per side: at every round's start the copies of a member differ in their HP at most
    /// (no maximum HP tracked, no regenerator, spell or finite supply on the side, no
    /// non-lethal damage or retreat in the fight), so their canonical order is their HP's,
    /// which [`super::duel`] sorts by alone (the order of the whole state,
    /// [`super::duel::MState`]'s, compares every field).
    pub hp_order: [bool; 2],
    /// `equal_speed = "resolve_first"`: at equal speeds side B's group resolves before A's.
    pub b_first: bool,
    /// Per side, the speed group (the cursor's `sub`) each creature acts in within a
    /// segment: groups of equal order speed across both sides, fastest first; under
    /// `b_first` side B's part of a speed before side A's.
    pub group: [[u8; MAX_SIDE]; 2],
    /// The group of the return attacks after a charge (Missile segment), after every speed
    /// group.
    pub ret_sub: u8,
    /// Per side: some member can kill a downed foe (an attack or spell not non-lethal).
    pub lethal: [bool; 2],
    /// Per side, the action each creature takes when engaged and able, where nothing else
    /// can decide it (no spells, no crossbow, no finite supply, no retreat policy);
    /// [`NOT_FIXED`] otherwise (then `choose_actions` works it out each round).
    pub engaged_act: [[u8; MAX_SIDE]; 2],
    /// Per side, a bit per creature whose fighter is a missile fighter (its attack is in the
    /// Missile segment).
    pub missile: [u16; 2],
    /// Each round's acting groups when the sides are engaged, if every creature's action
    /// is fixed ([`Matchup::engaged_act`]); else none (`n` 0).
    pub fixed: super::duel::Groups,
}

/// [`Matchup::engaged_act`] of a creature whose action is chosen each round.
pub const NOT_FIXED: u8 = u8::MAX;

impl Matchup {
    /// The compiled member creature `i` of `side` belongs to.
    #[inline(always)]
    pub fn fighter(&self, side: usize, i: usize) -> &Fighter {
        if self.mixed {
            &self.members[side][usize::from(self.member_of[side][i])]
        } else {
            &self.f[side]
        }
    }
    /// [`Matchup::fighter`] in the form of the code chosen once per matchup: `MIXED` is
    /// [`Matchup::mixed`].
    #[inline(always)]
    pub fn fighter_in<const MIXED: bool>(&self, side: usize, i: usize) -> &Fighter {
        if MIXED {
            &self.members[side][usize::from(self.member_of[side][i])]
        } else {
            &self.f[side]
        }
    }
    /// [`Matchup::member`] in the form of the code chosen once per matchup: `MIXED` is
    /// [`Matchup::mixed`].
    #[inline(always)]
    pub fn member_in<const MIXED: bool>(&self, side: usize, i: usize) -> usize {
        if MIXED {
            usize::from(self.member_of[side][i])
        } else {
            0
        }
    }
    /// The member (entry of the side's list) creature `i` of `side` belongs to.
    #[inline(always)]
    pub fn member(&self, side: usize, i: usize) -> usize {
        if self.mixed {
            usize::from(self.member_of[side][i])
        } else {
            0
        }
    }
}

/// Damage spells of `me` worth casting against Defense `def`, best expected damage per MP
/// first, and how many.
fn spell_ranking(o: &D20Options, me: &Fighter, def: i32) -> ([u8; MAX_SPELLS], u8) {
    let melee: f64 = me.attacks[..me.n_attacks as usize]
        .iter()
        .map(|a| reference::expected_damage(o, a, def))
        .sum::<f64>()
        * if me.crossbow { 0.5 } else { 1.0 };
    let mut v: Vec<(f64, u8)> = (0..me.n_spells)
        .filter(|&i| me.spells[i as usize].damage > 0)
        .map(|i| {
            let s = &me.spells[i as usize];
            (reference::expected_damage(o, &s.attack, def), i)
        })
        .filter(|&(e, _)| e > melee)
        .map(|(e, i)| (e / f64::from(me.spells[i as usize].cost2), i))
        .collect();
    v.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
    let mut order = [0u8; MAX_SPELLS];
    for (k, &(_, i)) in v.iter().enumerate() {
        order[k] = i;
    }
    (order, v.len() as u8)
}

impl crate::Pair<D20> for Matchup {
    /// Builds a matchup: each side's members and the member of each creature, each member's
    /// damage spells ranked against the other side's Defense, each creature's speed group.
    fn pair(rules: &D20, a: &Fighter, b: &Fighter) -> Result<Matchup, RulesError> {
        let o = rules.options();
        let members = [a, b].map(|x| {
            let mut v = vec![Fighter {
                others: Vec::new(),
                ..x.clone()
            }];
            v.extend(x.others.iter().map(|y| Fighter {
                others: Vec::new(),
                ..y.clone()
            }));
            v
        });
        let f = [members[0][0].clone(), members[1][0].clone()];
        let mixed = members.iter().any(|v| v.len() > 1);
        let mut n = [0u8; 2];
        let mut member_of = [[0u8; MAX_SIDE]; 2];
        let mut counts = [[0u8; MAX_SIDE]; 2];
        for side in 0..2 {
            for (j, x) in members[side].iter().enumerate() {
                let c = x.count.max(1);
                if j >= MAX_SIDE || usize::from(n[side] + c) > MAX_SIDE {
                    return Err(RulesError::field(
                        "count",
                        format!("a d20 side holds at most {MAX_SIDE} creatures in all"),
                    ));
                }
                counts[side][j] = c;
                for _ in 0..c {
                    member_of[side][usize::from(n[side])] = j as u8;
                    n[side] += 1;
                }
            }
        }
        let mut spell_order = [[[0u8; MAX_SPELLS]; MAX_SIDE]; 2];
        let mut n_order = [[0u8; MAX_SIDE]; 2];
        let mut danger = [[[0i32; MAX_SIDE]; MAX_SIDE]; 2];
        for side in 0..2 {
            let foe_def = members[1 - side][0].def;
            for (j, me) in members[side].iter().enumerate() {
                (spell_order[side][j], n_order[side][j]) = spell_ranking(o, me, foe_def);
                for (k, foe) in members[1 - side].iter().enumerate() {
                    let e: f64 = me.attacks[..me.n_attacks as usize]
                        .iter()
                        .map(|a| reference::expected_damage(o, a, foe.def))
                        .sum();
                    danger[side][j][k] = (e * 1000.0).round() as i32;
                }
            }
        }
        let all = || members.iter().flatten();
        // Every kind of damage a member deals: its attacks, its melee weapon (a missile
        // fighter's), its spells, and the minimums a fumbler takes from it.
        let kinds = |x: &Fighter| {
            let attacks = x.attacks[..usize::from(x.n_attacks)].iter();
            let melee = x.melee[..usize::from(x.n_melee)].iter();
            let spells = x.spells[..usize::from(x.n_spells)].iter().map(|sp| &sp.attack);
            attacks
                .chain(melee)
                .chain(spells)
                .map(|a| a.kind)
                .chain([x.min_kind])
                .chain(x.min_sets[..usize::from(x.n_min_sets)].iter().map(|&(_, k)| k))
                .collect::<Vec<_>>()
        };
        let crippling = all().any(|x| kinds(x).contains(&DamageKind::Crippling));
        let retreat = all().any(|x| x.retreat_milli.is_some());
        let track_max = crippling || retreat || all().any(|x| x.target.reads_wounds());
        let canonical = [0, 1].map(|side| {
            members[side].iter().any(|x| x.count > 1)
                && members[1 - side].iter().all(|x| x.target.label_free())
        });
        // What can make two copies differ in more than their HP (see `MState`'s fields and
        // `duel::apply`): maximum HP tracked, a tally (a regenerator's, or non-lethal damage
        // from anyone: attacks, spells, fumbles, reflections), spells (MP, bonus), a finite
        // supply, a retreat (its flags; a retreat tracks maximum HP too, so `track_max` says it).
        let nonlethal = all().any(|x| kinds(x).contains(&DamageKind::Nonlethal));
        let hp_order = [0, 1].map(|side| {
            !track_max
                && !nonlethal
                && members[side]
                    .iter()
                    .all(|x| !x.regenerates && x.n_spells == 0 && x.supply.is_none())
        });
        let b_first = o.equal_speed == super::options::EqualSpeed::ResolveFirst;
        // «Order of Combat §2»: creatures in descending order of speed, equal speeds one
        // simultaneous group (§2.1); under `resolve_first` side B's part of a speed first.
        let key = |side: usize, i: usize| {
            let sp = members[side][usize::from(member_of[side][i])].order_speed;
            (std::cmp::Reverse(sp), if b_first { side == 0 } else { false })
        };
        let mut keys: Vec<_> = (0..2)
            .flat_map(|side| (0..usize::from(n[side])).map(move |i| (side, i)))
            .map(|(side, i)| key(side, i))
            .collect();
        keys.sort();
        keys.dedup();
        let mut group = [[0u8; MAX_SIDE]; 2];
        for (side, g) in group.iter_mut().enumerate() {
            for (i, slot) in g[..usize::from(n[side])].iter_mut().enumerate() {
                *slot = keys.binary_search(&key(side, i)).expect("listed") as u8;
            }
        }
        let ret_sub = keys.len().max(2) as u8;
        let lethal = [0, 1].map(|side| members[side].iter().any(super::duel::lethal));
        let mut engaged_act = [[NOT_FIXED; MAX_SIDE]; 2];
        let mut missile = [0u16; 2];
        for side in 0..2 {
            for i in 0..usize::from(n[side]) {
                let x = &members[side][usize::from(member_of[side][i])];
                engaged_act[side][i] = super::duel::engaged_act(o, x);
                missile[side] |= u16::from(x.missile) << i;
            }
        }
        let mut m = Matchup {
            f,
            members,
            mixed,
            n,
            member_of,
            counts,
            spell_order,
            n_order,
            crippling,
            track_max,
            retreat,
            missile_range: o.missile_range,
            danger,
            canonical,
            hp_order,
            b_first,
            group,
            ret_sub,
            lethal,
            engaged_act,
            missile,
            fixed: super::duel::Groups::default(),
        };
        m.fixed = super::duel::fixed_groups(&m);
        Ok(m)
    }
}
