//! Issue 36: every reading and invented number is declared beside its option, fighter field or
//! built-in item (`Mark`), and each declaration is usable: every alternative parses where it
//! is written, every range is non-empty and holds the default.

use oddsmith_rules::cards::Cards;
use oddsmith_rules::d20::D20;
use oddsmith_rules::draft::Draft;
use oddsmith_rules::gamecraft::Gamecraft;
use oddsmith_rules::openrpg::OpenRpg;
use oddsmith_rules::{Mark, Marked, Ruleset};

/// A fighter of each ruleset with every required field, for parsing a fighter field's
/// alternatives.
fn base_fighter(id: &str) -> &'static str {
    match id {
        "cards" => "skill = 2\nweapon = \"sword\"\n",
        "d20" => "class = \"fighter\"\nlevel = 1\nweapon = \"long sword\"\n",
        "draft" => "skill = 5\nweapon = \"long sword\"\narmour = \"none\"\n",
        "gamecraft" => "weapon = \"sword\"\narmor = \"none\"\n",
        "openrpg" => "weapon = \"longsword\"\n",
        _ => unreachable!(),
    }
}

/// `a.b = v` as a TOML document.
fn assignment(path: &str, value: &str) -> String {
    format!("{path} = {value}\n")
}

fn number(text: &str) -> Option<f64> {
    text.parse::<f64>().ok()
}

/// Checks every mark of `R`: alternatives parse (options and fighter fields), ranges are
/// non-empty and hold the default, a reading lists its default; returns the marked keys.
fn check<R: Ruleset>() -> Vec<String> {
    let info = R::info();
    for m in &info.marks {
        let Marked { key, default, mark } = m;
        match *mark {
            Mark::None => panic!("{}: {key} listed without a mark", R::ID),
            Mark::Reading { values } => {
                assert!(
                    values.len() >= 2,
                    "{}: {key}: a reading needs alternatives",
                    R::ID
                );
                assert!(
                    values.contains(default),
                    "{}: {key}: the default {default} is not among {values:?}",
                    R::ID
                );
            }
            Mark::Invented { low, high, why } | Mark::Placeholder { low, high, why } => {
                assert!(!why.is_empty(), "{}: {key}: say why", R::ID);
                match (number(low), number(high)) {
                    (Some(l), Some(h)) => {
                        assert!(l < h, "{}: {key}: empty range {low}..{high}", R::ID);
                        if let Some(d) = number(default) {
                            assert!(
                                (l..=h).contains(&d),
                                "{}: {key}: default {default} outside {low}..{high}",
                                R::ID
                            );
                        }
                    }
                    _ => assert_ne!(low, high, "{}: {key}: empty range", R::ID),
                }
            }
        }
        for v in mark.alternatives() {
            if let Some(path) = m.option() {
                let text = assignment(path, v);
                let o: Result<R::Options, _> = toml::from_str(&text);
                let o = o.unwrap_or_else(|e| panic!("{}: {text}: {e}", R::ID));
                R::new(o).unwrap_or_else(|e| panic!("{}: {text}: {e}", R::ID));
            } else if let Some(field) = m.fighter_field() {
                let text = format!("{}{}", base_fighter(R::ID), assignment(field, v));
                let f: Result<R::FighterSpec, _> = toml::from_str(&text);
                f.unwrap_or_else(|e| panic!("{}: {text}: {e}", R::ID));
            }
        }
    }
    info.marks.iter().map(|m| m.key.clone()).collect()
}

/// The marked keys of `R` equal `expected` (a mark removed or added shows here).
fn expect<R: Ruleset>(expected: &[&str]) {
    let got = check::<R>();
    assert_eq!(got, expected, "{}: marked keys\n{got:#?}", R::ID);
}

#[test]
fn cards_marks() {
    expect::<Cards>(&[
        "options.jokers",
        "options.reshuffle",
        "options.deck_owner",
        "options.hit_rule",
        "options.hit_chain",
        "options.unopposed_auto_success",
        "options.no_step_back_delta",
        "options.unopposed_attack_closes_range",
        "options.long_weapon_can_parry_inside_reach",
        "options.defender_may_pass",
        "options.dodge_steps_back",
        "options.shield_bash_head_penalty",
        "options.hold_checks",
        "options.pin_turns",
        "options.take_down_penalty",
        "options.shot_hand",
        "options.surprise_check",
        "options.location_damage.head",
        "options.location_damage.head_vitals",
        "options.location_damage.torso_vitals",
        "options.location_damage.legs",
        "options.location_damage.arms",
        "options.on_disarm",
        "options.initiative_tie",
        "options.hp_base",
        "options.close_yards",
        "dagger.force",
        "dagger.max_maneuvers",
        "dagger.edge",
        "dagger.max_damage",
        "sword.edge",
        "sword.max_damage",
        "long sword.force",
        "long sword.max_maneuvers",
        "long sword.edge",
        "long sword.max_damage",
        "medium axe.range",
        "medium axe.force",
        "medium axe.edge",
        "medium axe.max_damage",
        "poinard.force",
        "poinard.edge",
        "poinard.max_damage",
        "spear.force",
        "spear.max_maneuvers",
        "spear.edge",
        "spear.max_damage",
        "small shield.force",
        "small shield.max_maneuvers",
        "short bow.range",
        "short bow.force",
        "short bow.aim",
        "short bow.max_damage",
    ]);
}

#[test]
fn d20_marks() {
    expect::<D20>(&[
        "options.crit_rule",
        "options.damage_die",
        "options.versatile_upgrade",
        "options.damage_mod_exceeds_cap",
        "options.min_damage_on_hit",
        "options.con_hp_species",
        "options.half_hd_hp",
        "options.fractional_bth",
        "options.min_hp_per_die",
        "options.class_hp_roll",
        "options.species_class_stacking",
        "options.dex_before_armor",
        "options.ptm_stacking",
        "options.initiative_speed",
        "options.by_weapon_attacks",
        "options.crossbow_reading",
        "options.fight_to",
        "options.halve_rounding",
        "options.crippling_current",
        "options.skill_modifier_mode",
        "options.start_distance",
        "options.missile_range",
        "options.pursuit_rule",
        "options.fumble_resisted",
        "options.creature_defense",
        "options.equal_speed",
        "options.fumble_damage",
        "options.fumble_resist_per",
        "options.magic_minus_one",
    ]);
}

#[test]
fn draft_marks() {
    expect::<Draft>(&[
        "options.damage_term",
        "options.light_wound_rounding",
        "options.wound_overflow",
        "options.severe_manual_penalty_in_combat",
        "options.severe_knockback",
        "options.undefended_value",
        "options.striking_order",
        "options.parry_segment",
        "options.first_strike_tie",
        "options.shield_bonus_applies_to",
        "options.shield_max_parry_impact.small",
        "options.shield_max_parry_impact.large",
        "options.situation_on_defence",
        "options.armor_table",
        "options.move_per_segment",
        "options.run_per_segment",
        "options.heavy_armour_movement",
        "options.range_penalty_at_max",
        "options.unskilled_prepare_extra",
        "options.str_bonus_on_missiles",
        "options.str_bonus_on_thrown",
        "options.thrown_ready_at_start",
        "options.missile_shield",
        "options.missile_shield_modifier",
        "options.thrown_dodge",
        "options.aim_segments",
        "options.unaimed_shot_modifier",
        "options.charge_needs_sprint",
        "dagger.length",
        "short sword.length",
        "small club.length",
        "long sword.length",
        "rapier.length",
        "mace.length",
        "flail.length",
        "two handed sword.length",
        "two handed war hammer.length",
        "giant's club.length",
        "dart.impact",
        "dart.prepare",
        "dart.supply",
        "knife.impact",
        "knife.prepare",
        "knife.supply",
        "javelin.impact",
        "javelin.prepare",
        "javelin.supply",
    ]);
}

#[test]
fn gamecraft_marks() {
    expect::<Gamecraft>(&[
        "options.crit_effect",
        "options.crit_extra_amount",
        "options.fumble_effect",
        "options.wound_penalty_scope",
        "options.wound_penalty_static_defense",
        "options.incapacitated_penalty",
        "options.bonus_allocation",
        "options.end_condition",
        "options.helpless_auto_hit",
        "options.dodge_timing",
        "options.multi_action_mode",
        "options.resist_clamp_zero",
        "options.aware",
        "options.surprise_first_attack",
        "options.pool_start",
        "options.opposed_tie",
        "options.unarmed_damage_bonus",
        "options.bleed_interval_rounds",
        "options.bleed_con_tn",
        "options.move_action_penalty_mode",
        "options.full_dodge_counts_as_moving",
        "options.move_action_bands",
        "options.move_only_bands",
        "options.half_move",
        "options.strafe_hit_rule",
        "options.strafe_damage",
        "options.blast_catches_thrower",
        "options.explosion_avoid_roll",
        "options.explosion_damage_die",
        "options.blast_rounding",
        "options.strafe_crit_timing",
        "options.strafe_spread",
        "options.ranged_attack_attribute",
        "options.spread_attack",
        "options.first_aid_attribute",
        "options.auto_magazine",
        "options.burst_rounds",
        "options.spray_ammo",
        "options.reload_actions",
        "options.difficulty_tns",
        "options.grenade_area",
        "fighters.*.spare_magazines",
        "light pistol.range",
        "heavy pistol.range",
        "shotgun.range",
        "sniper rifle.range",
        "sub machinegun.range",
        "longbow.range",
        "fragmentation grenade.range",
        "unarmed.damage",
    ]);
}

#[test]
fn openrpg_marks() {
    expect::<OpenRpg>(&[
        "options.text_variant",
        "options.skill_roll",
        "options.strength_token",
        "options.crit_rule",
        "options.blow_combination",
        "options.initiative",
        "options.dr_rounding",
        "options.full_dodge_stacks_with_recovery",
        "options.limb_nonlethal",
        "options.shield_check",
        "options.dodge_roll",
        "options.joint_penetration_cuts",
        "options.slow_weapons",
        "options.flat_footed",
        "options.armour_agility",
        "options.move_yards",
        "fighters.*.health",
        "longsword.length",
        "spear.damage",
        "spear.rate",
        "spear.crit_range",
        "spear.crit_effect",
        "spear.length",
        "bow.damage",
        "bow.crit_range",
        "bow.crit_effect",
        "bow.length",
        "mail.defense",
        "mail.dr",
    ]);
}
