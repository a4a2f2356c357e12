//! Optional hit locations and the arm drop (Draft 0.4 §4.24.3, §4.19.2; digest G12; issue 14
//! item 3).

use super::*;

/// One attack of the M1 kind (digest §7.6: Severe 17/100) under `hit_locations`: the Severe
/// blow rolls the front table and an arm (faces 7 and 8, 2/10) drops the weapon, so the
/// defender ends the attack disarmed with probability 17/100 × 2/10 exactly, picking up 2
/// segments for the weapon and 2 for a shield.
#[test]
fn severe_arm_hit_drops_weapon_and_shield() {
    let att = fighter(6, "long sword", 7, 5, "none");
    for (shield, pickup) in [(ShieldKind::None, 2), (ShieldKind::Small, 4)] {
        let mut dfn = fighter(6, "long sword", 5, 6, "leather");
        dfn.shield = shield;
        dfn.defence = DefenceChoice::Weapon;
        let (d, m) = crate::testing::pair::<Draft>(opts(|o| o.hit_locations = true), &att, &dfn);
        let mut s = State::start();
        s.round = 1;
        s.ev = 0;
        s.f[0].planned = 1;
        // The defender's plan keeps its actions for defences (§4.17.6): its parry is declared.
        s.f[1].guard = 3;
        let mut p_drop = 0.0;
        enumerate(
            |r| {
                let mut s2 = s;
                duel::step(&m, d.options(), &mut s2, r, &mut duel::NoTally);
                s2.f[1]
            },
            |f, p| {
                if f.disarmed {
                    assert_eq!((f.unready, f.pickup), (pickup, true));
                    p_drop += p;
                }
            },
        );
        close(p_drop, 0.17 * 0.2, 1e-12);
    }
}

/// While picking up, the fighter does not attack and only dodges; the exact solver and Monte
/// Carlo agree within 4σ with hit locations on (shield, dodge, aggressive and adaptive plans).
#[test]
fn hit_locations_exact_matches_monte_carlo() {
    let mut knight = fighter(6, "long sword", 7, 8, "chain");
    knight.shield = ShieldKind::Small;
    knight.shield_skill = 5;
    knight.dodge = 4;
    knight.policy = Policy::Aggressive;
    let mut brute = fighter(5, "two handed sword", 8, 8, "leather");
    brute.dodge = 3;
    brute.policy = Policy::Adaptive;
    let o = opts(|o| o.hit_locations = true);
    let on = exact_duel(o.clone(), knight.clone(), brute.clone());
    let off = exact_duel(DraftOptions::default(), knight.clone(), brute.clone());
    assert!(
        (on.p_a_win - off.p_a_win).abs() > 1e-4,
        "{} {}",
        on.p_a_win,
        off.p_a_win
    );
    let n = 100_000;
    let (p, _) = monte_carlo(o, knight, brute, n, 401);
    within_4_sigma(p, on.p_a_win, n);
}
