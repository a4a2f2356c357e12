//! Inline equipment tables (see the `fields` module doc): inheritance from a built-in, required
//! fields, "did you mean", docs that agree with the declarations, and round trips.

use serde::Deserialize;

use super::*;
use crate::schema::{Declared, Shape};
use crate::{Ruleset, RulesetVisitor};

/// A minimal fighter of each ruleset (its required fields), as TOML lines.
fn base_fighter(id: &str) -> &'static str {
    match id {
        "draft" => "skill = 5\nweapon = \"long sword\"",
        "gamecraft" => "weapon = \"sword\"\nskills = { \"Melee Combat\" = 5 }",
        "openrpg" => "weapon = \"longsword\"",
        "cards" => "skill = 3\nweapon = \"sword\"",
        _ => "",
    }
}

/// `base` with `key` set to `value` (replacing a line `key = …` of `base`).
fn with_key(base: &str, key: &str, value: &str) -> String {
    let mut lines: Vec<String> = base
        .lines()
        .filter(|l| !l.starts_with(&format!("{key} =")))
        .map(String::from)
        .collect();
    lines.push(format!("{key} = {value}"));
    lines.join("\n")
}

/// The built-ins' names of a fighter field that takes a built-in or an inline table.
fn builtin_names(shape: &Shape) -> Option<&[&'static str]> {
    match shape {
        Shape::Optional(s) => builtin_names(s),
        Shape::Builtin { names, .. } => Some(names),
        _ => None,
    }
}

/// Compiles a fighter written as TOML: the compiled fighter's `Debug` text, or the error. A
/// compiled fighter may keep its spec, which says how the entry was written (`builtin`, Draft's
/// `Named` or `Custom` armour): that is blanked, the statistics compiled from it are not.
fn compiled<R: Ruleset>(r: &R, text: &str) -> Result<String, String> {
    let spec: R::FighterSpec = toml::from_str(text).map_err(|e| e.message().to_string())?;
    let f = r.compile("f", &spec).map_err(|e| e.to_string())?;
    let mut d = format!("{f:?}").replace("builtin: false", "builtin: true");
    for (open, close) in [("armour: Named(", ")"), ("armour: Custom(", "})")] {
        while let Some(i) = d.find(open) {
            let j = i + d[i..].find(close).expect("closed") + close.len();
            d.replace_range(i..j, "armour: _");
        }
    }
    Ok(d)
}

/// For every ruleset, every fighter field that takes a built-in and every built-in's name:
/// `{ name = "<built-in>" }` compiles to exactly the fighter `"<built-in>"` does (or fails the
/// same way, e.g. a bow as a melee weapon), and the two specs hold the same statistics.
#[test]
fn every_builtin_named_in_a_table_compiles_to_the_builtin() {
    struct V;
    impl RulesetVisitor for V {
        type Output = usize;
        fn visit<R: Ruleset>(self) -> usize {
            let r = R::new(R::Options::default()).expect("default options");
            let base = base_fighter(R::ID);
            let mut checked = 0;
            for p in R::FighterSpec::props() {
                let Some(names) = builtin_names(&p.shape) else {
                    continue;
                };
                for n in names {
                    let by_name = with_key(base, p.name, &format!("{n:?}"));
                    let table = with_key(base, p.name, &format!("{{ name = {n:?} }}"));
                    let want = compiled(&r, &by_name);
                    let got = compiled(&r, &table);
                    match (&want, &got) {
                        (Ok(w), Ok(g)) => assert_eq!(w, g, "{} {} = {n:?}", R::ID, p.name),
                        (Err(_), Err(_)) => {}
                        _ => {
                            // Draft's table-dependent armour rows cannot be inherited.
                            let plate = R::ID == "draft"
                                && p.name == "armour"
                                && ["plate", "full plate", "armour 6", "armour 4"].contains(n);
                            assert!(plate, "{} {} = {n:?}: {want:?} vs {got:?}", R::ID, p.name);
                            let e = got.expect_err("refused");
                            assert!(e.contains("armor_table"), "{e}");
                        }
                    }
                    checked += 1;
                }
            }
            checked
        }
    }
    let mut total = 0;
    for id in crate::RULESET_IDS {
        let n = crate::visit(id, V).expect("registered");
        assert!(n > 0, "{id}: no built-in checked");
        total += n;
    }
    assert!(total > 60, "{total}");
}

/// Reads `x = <value>` with [`de_builtin`].
fn read<T: Builtin>(value: &str) -> Result<T, String> {
    #[derive(Deserialize)]
    #[serde(bound = "T: Builtin")]
    struct W<T> {
        #[serde(deserialize_with = "de_builtin")]
        x: T,
    }
    toml::from_str::<W<T>>(&format!("x = {value}"))
        .map(|w| w.x)
        .map_err(|e| e.message().to_string())
}

#[test]
fn a_given_field_overrides_only_itself() {
    use crate::{cards, d20, draft, gamecraft, openrpg};
    // Open RPG: the longsword with its damage given, and mail with its defense.
    let mut want = openrpg::spec::Weapon::by_name("longsword").unwrap();
    want.damage = "str+30".into();
    let got: openrpg::spec::Weapon = read("{ name = \"longsword\", damage = \"str+30\" }").unwrap();
    assert_eq!(got, want);
    let mut want = openrpg::spec::Armor::by_name("mail").unwrap();
    want.dr = 30;
    assert_eq!(
        read::<openrpg::spec::Armor>("{ name = \"mail\", dr = 30 }").unwrap(),
        want
    );
    // Cards: a sword table without force keeps the sword's +1.
    let got: cards::spec::WeaponStats =
        read("{ name = \"sword\", range = 1, max_maneuvers = 3, max_damage = 4 }").unwrap();
    let mut want = cards::spec::weapon("sword").unwrap();
    want.max_damage = 4;
    assert_eq!(got, want);
    assert_eq!(got.force, 1);
    // Gamecraft: a stronger sword keeps its skill (a specialization), not "Melee Combat".
    let got: gamecraft::tables::WeaponStats = read("{ name = \"sword\", damage = 5 }").unwrap();
    assert_eq!(got.skill, "Melee Combat (Swords)");
    assert_eq!(got.damage, 5);
    let got: gamecraft::spec::ArmorSpec = read("{ name = \"Chain Mail\" }").unwrap();
    assert_eq!((got.name.as_str(), got.resistance), ("Chain Mail", 3));
    // d20: a magic long sword; a goblin with more Hit Dice; a tougher fighter class.
    let got: d20::tables::WeaponStats = read("{ name = \"long sword\", to_hit = 1 }").unwrap();
    let mut want = d20::tables::weapon("long sword").unwrap();
    want.to_hit = 1;
    assert_eq!(got, want);
    let got: d20::tables::SpeciesStats = read("{ name = \"goblin\", hd = 2 }").unwrap();
    let mut want = d20::tables::species("goblin").unwrap();
    want.hd = 4;
    assert_eq!(got, want);
    let got: d20::tables::ClassStats = read("{ name = \"fighter\", hp_base = 10 }").unwrap();
    assert_eq!(got.bth, d20::tables::class("fighter").unwrap().bth);
    assert_eq!(got.hp_base, 10);
    let got: d20::spec::ShieldStats = read("{ name = \"buckler\", ptm = \"1/6\" }").unwrap();
    assert_eq!(
        (got.0.name.as_str(), got.0.btd, got.0.ptm.0),
        ("buckler", 1, 1)
    );
    // Draft: a magic long sword keeps its impact, aspect and length.
    let got: draft::tables::WeaponStats = read("{ name = \"longsword\", bonus = 2 }").unwrap();
    let mut want = draft::tables::weapon("long sword").unwrap();
    want.bonus = 2;
    want.name = "longsword".into();
    assert_eq!(got, want);
    let got: draft::spec::ArmourSpec = read("{ name = \"chain\", protection = 4 }").unwrap();
    let draft::spec::ArmourSpec::Custom(c) = got else {
        panic!("{got:?}")
    };
    assert_eq!((c.protection, c.movement), (4, -1));
}

#[test]
fn a_table_without_a_builtin_name_needs_its_required_fields() {
    use crate::{cards, openrpg};
    let e = read::<openrpg::spec::Armor>("{ defense = 10 }").unwrap_err();
    assert!(
        e.starts_with("missing `dr` in the inline armour table"),
        "{e}"
    );
    assert!(e.contains("none, mail, brigandine"), "{e}");
    let e = read::<cards::spec::WeaponStats>("{ name = \"cleaver\", range = 1 }").unwrap_err();
    assert!(
        e.contains("missing `max_maneuvers` and `max_damage`"),
        "{e}"
    );
    // Every field given: a new weapon, whatever its name.
    let w: openrpg::spec::Weapon = read("{ name = \"maul\", damage = \"2d10\" }").unwrap();
    assert_eq!((w.rate, w.cadence, w.crit_effect.as_str()), (0, 1, "x2"));
    let w: openrpg::spec::Weapon = read("{ damage = \"2d10\" }").unwrap();
    assert_eq!(w.name, "custom weapon");
}

#[test]
fn a_name_close_to_a_builtin_gets_did_you_mean() {
    use crate::{cards, d20, openrpg};
    let e = read::<openrpg::spec::Armor>("{ name = \"mial\" }").unwrap_err();
    assert!(e.contains("did you mean name = \"mail\"?"), "{e}");
    let e =
        read::<openrpg::spec::Weapon>("{ name = \"longswrod\", damage = \"str+22\" }").unwrap_err();
    assert!(e.contains("did you mean name = \"longsword\"?"), "{e}");
    assert!(e.contains("`rate`"), "{e}");
    let e = read::<cards::spec::WeaponStats>(
        "{ name = \"swrod\", range = 1, max_maneuvers = 3, max_damage = 3 }",
    )
    .unwrap_err();
    assert!(e.contains("did you mean name = \"sword\"?"), "{e}");
    let e = read::<d20::tables::SpeciesStats>("{ name = \"gobiln\", def = 12 }").unwrap_err();
    assert!(e.contains("did you mean name = \"goblin\"?"), "{e}");
    // Every field given: a close name is the designer's own weapon.
    let all = "{ name = \"swrod\", range = 1, force = 0, max_maneuvers = 3, edge = 0, \
               max_damage = 3, hands = 1, shield = false, ranged = false, aim = 0, impact = false }";
    let w: cards::spec::WeaponStats = read(all).unwrap();
    assert_eq!((w.name.as_str(), w.force), ("swrod", 0));
}

#[test]
fn draft_armour_named_by_a_table_dependent_row_gives_both_fields() {
    use crate::draft::spec::ArmourSpec;
    let e = read::<ArmourSpec>("{ name = \"plate\", protection = 6 }").unwrap_err();
    assert!(e.contains("A: 4/-1, B: 5/-2"), "{e}");
    let a: ArmourSpec = read("{ name = \"plate\", protection = 6, movement = -1 }").unwrap();
    assert!(
        matches!(a, ArmourSpec::Custom(ref c) if c.protection == 6),
        "{a:?}"
    );
}

#[test]
fn a_bad_value_in_a_table_is_refused_at_its_key() {
    let e =
        read::<crate::openrpg::spec::Weapon>("{ name = \"longsword\", rate = -3 }").unwrap_err();
    assert!(e.contains("out of range"), "{e}");
    let e = read::<crate::openrpg::spec::Weapon>("{ name = \"longsword\", rat = 3 }").unwrap_err();
    assert!(e.contains("unknown field `rat`"), "{e}");
}

/// Every table's declared defaults agree with what an empty table resolves to: a field is
/// `required` in its doc exactly when it has no default.
#[test]
fn declared_required_fields_are_the_missing_ones() {
    fn check<T: Inline>() {
        let empty: T::Table = toml::from_str("").expect("an empty table");
        let missing = match T::resolve(empty, None) {
            Ok(_) => Vec::new(),
            Err(m) => m,
        };
        let declared: Vec<&str> = T::DOCS
            .iter()
            .filter(|d| d.default == "required")
            .map(|d| d.name)
            .collect();
        assert_eq!(missing, declared, "{}", std::any::type_name::<T>());
        assert_eq!(T::DOCS[0].name, "name");
    }
    check::<crate::openrpg::spec::Weapon>();
    check::<crate::openrpg::spec::Armor>();
    check::<crate::cards::spec::WeaponStats>();
    check::<crate::d20::tables::WeaponStats>();
    check::<crate::d20::tables::ArmorStats>();
    check::<crate::d20::tables::SpeciesStats>();
    check::<crate::d20::tables::ClassStats>();
    check::<crate::gamecraft::tables::WeaponStats>();
    check::<crate::gamecraft::spec::CustomArmor>();
    check::<crate::draft::tables::WeaponStats>();
    check::<crate::draft::spec::CustomArmour>();
}

/// Every ruleset lists its inline tables, each field with a default or `required`.
#[test]
fn every_ruleset_documents_its_inline_tables() {
    struct V;
    impl RulesetVisitor for V {
        type Output = Vec<crate::TableDoc>;
        fn visit<R: Ruleset>(self) -> Vec<crate::TableDoc> {
            R::info().tables
        }
    }
    for id in crate::RULESET_IDS {
        let tables = crate::visit(id, V).expect("registered");
        assert!(!tables.is_empty(), "{id}");
        for t in &tables {
            assert!(
                t.fields
                    .iter()
                    .all(|f| !f.default.is_empty() && !f.doc.is_empty())
            );
        }
    }
    let cards = crate::visit("cards", V).unwrap();
    assert_eq!(cards[0].keys, ["weapon", "off_hand", "backup"]);
    let d20 = crate::visit("d20", V).unwrap();
    assert!(d20.iter().any(|t| t.keys == ["armor", "shield"]), "{d20:?}");
}

/// An inline table serialized back reads back to the same statistics.
#[test]
fn inline_entries_round_trip() {
    use crate::openrpg::spec::FighterSpec;
    let text = "weapon = { name = \"longsword\", damage = \"str+30\" }\n\
                armor = { name = \"mail\", uncovered = [\"head\"] }";
    let spec: FighterSpec = toml::from_str(text).unwrap();
    let back: FighterSpec = toml::from_str(&toml::to_string(&spec).unwrap()).unwrap();
    assert_eq!(back, spec);
    assert!(!spec.armor.builtin);
    assert_eq!(spec.armor.stats.defense, 20);
}

/// The setting: Open RPG reference duel R1 (exact P(Alda wins) 0.503215) with Alda's
/// mail written as `{ name = "mail" }`, and the longsword as `{ name = "longsword", damage =
/// "str+22" }` (its own damage): the same exact value.
#[test]
fn openrpg_mail_as_a_table_is_mail() {
    use crate::openrpg::{FighterSpec, OpenRpg, OpenRpgOptions};
    let alda = |weapon: &str, armor: &str| -> FighterSpec {
        toml::from_str(&format!(
            "combat_base = 5\nskill = 8\nagility = 6\nstrength = 3\nweapon = {weapon}\narmor = {armor}"
        ))
        .unwrap()
    };
    let bram: FighterSpec = toml::from_str(
        "combat_base = 5\nskill = 8\nagility = 5\nstrength = 2\nweapon = \"spear\"\narmor = \"brigandine\"",
    )
    .unwrap();
    let r = OpenRpg::new(OpenRpgOptions::default()).unwrap();
    let p = |a: &FighterSpec| {
        let m = r
            .matchup(&r.compile("a", a).unwrap(), &r.compile("b", &bram).unwrap())
            .unwrap();
        r.exact(&m).unwrap().p_a_win
    };
    let named = p(&alda("\"longsword\"", "\"mail\""));
    assert!((named - 0.503215).abs() < 5e-7, "{named}");
    let table = p(&alda(
        "{ name = \"longsword\", damage = \"str+22\" }",
        "{ name = \"mail\" }",
    ));
    assert_eq!(table, named);
}
