//! Cards group fights (§Multiple Opponents): today's band figures pinned bit for bit, two
//! identical sides fair within 4σ, a one-against-one group equal to the duel, and each group
//! rule changing a case built to show it.

use oddsmith_dice::stream;

use super::options::{CardsOptions, Start};
use super::spec::FighterSpec;
use crate::testing::pair;
use crate::{RngRoller, Ruleset};

fn spec(text: &str) -> FighterSpec {
    toml::from_str(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// FNV-1a over the text of every outcome of `n` fights at seed `seed`.
fn digest(o: CardsOptions, a: &str, b: &str, seed: u64, n: u32) -> u64 {
    let (r, m) = pair::<super::Cards>(o, &spec(a), &spec(b));
    let mut rng = stream(seed, 0);
    let mut dice = RngRoller::new(&mut rng);
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for _ in 0..n {
        let out = r.duel(&m, &mut dice);
        for b in format!("{out:?}").bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    h
}

const HERO: &str = "skill = 4\nweapon = \"sword\"\ncombat_training = 2\noff_hand = \"small shield\"\noff_hand_skill = 3\nbackup = \"dagger\"\nbackup_skill = 2";

/// The band fights of the lone fighter against 2–4 identical members (on either seat, under
/// each `target` and `band_attack`, engaged and in a show down, with a wrestler), pinned to
/// the figures of the band code before the group mechanism: moving the band onto it changes
/// no fight.
#[test]
fn band_fights_are_pinned() {
    let cases: [(&str, &str, Start); 6] = [
        (HERO, "skill = 2\nweapon = \"sword\"\ncount = 2", Start::Engaged),
        ("skill = 3\nweapon = \"spear\"\ntactics = { target = \"first\", band_attack = \"always\" }", "skill = 2\nweapon = \"dagger\"\ncount = 3", Start::Engaged),
        ("skill = 2\nweapon = \"dagger\"\ncount = 4", HERO, Start::Engaged),
        (HERO, "skill = 2\nweapon = \"sword\"\ncount = 3\nfast_draw = 1", Start::ShowDown),
        ("skill = 3\nweapon = \"bare hands\"\nbrawling = 3\ntactics = { wrestle = true }", "skill = 2\nweapon = \"bare hands\"\ncount = 2\ntactics = { wrestle = true }", Start::Engaged),
        ("skill = 2\nweapon = \"sword\"\ncount = 2\ntactics = { attacker = \"bait\" }", "skill = 3\nweapon = \"sword\"\ntactics = { band_attack = \"always\", defender = \"back\" }", Start::Engaged),
    ];
    let got: Vec<u64> = cases
        .iter()
        .enumerate()
        .map(|(i, (a, b, start))| {
            let o = CardsOptions {
                start: *start,
                ..CardsOptions::default()
            };
            digest(o, a, b, 390 + i as u64, 2_000)
        })
        .collect();
    assert_eq!(
        got,
        [
            0x139a_03e6_48ba_958c,
            0xf837_62ba_7bac_04bd,
            0x585e_2127_c33b_fde0,
            0xd47c_407a_b78a_3c24,
            0x5743_fec4_fa10_0294,
            0xb5bb_349b_1820_f45c,
        ],
        "{got:#x?}"
    );
}
