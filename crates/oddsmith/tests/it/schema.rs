//! `oddsmith schema`: the shipped files under `schema/` are what the command prints, every
//! bundled scenario validates against them with a real validator (the `jsonschema` crate, on
//! the TOML converted to JSON), and malformed files the loader refuses do not.

use serde_json::Value;

use super::{cli, root, scenarios, write_temp};

/// The TOML file as the JSON a validator reads.
fn as_json(text: &str) -> Value {
    let v: toml::Table = toml::from_str(text).expect("TOML");
    serde_json::to_value(v).expect("JSON")
}

fn validator(file: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("schema").join(file)).expect("schema file");
    let schema: Value = serde_json::from_str(&text).expect("JSON");
    jsonschema::draft7::new(&schema).expect("a valid draft-07 schema")
}

fn errors(v: &jsonschema::Validator, doc: &Value) -> Vec<String> {
    v.iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

#[test]
fn schema_files_are_up_to_date() {
    let mut runs = vec![(vec!["schema"], "oddsmith.schema.json".to_string())];
    for id in oddsmith_rules::RULESET_IDS {
        runs.push((vec!["schema", *id], format!("{id}.schema.json")));
    }
    for (args, file) in runs {
        let (code, out, err) = cli(&args);
        assert_eq!(code, 0, "{err}");
        let shipped =
            std::fs::read_to_string(root().join("schema").join(&file)).unwrap_or_default();
        assert!(
            out == shipped,
            "schema/{file} is stale: regenerate with `cargo run -p oddsmith -- schema --write schema`"
        );
    }
    let (code, _, err) = cli(&["schema", "no-such-ruleset"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn every_bundled_scenario_validates() {
    let all = validator("oddsmith.schema.json");
    let files = scenarios();
    assert!(files.len() > 30, "scenarios found: {}", files.len());
    for p in files {
        let doc = as_json(&std::fs::read_to_string(&p).unwrap());
        let e = errors(&all, &doc);
        assert!(e.is_empty(), "{}: {e:#?}", p.display());
        if let Some(id) = doc.get("ruleset").and_then(Value::as_str) {
            let one = validator(&format!("{id}.schema.json"));
            let e = errors(&one, &doc);
            assert!(e.is_empty(), "{} ({id} schema): {e:#?}", p.display());
        }
    }
}

#[test]
fn malformed_scenarios_do_not_validate() {
    let all = validator("oddsmith.schema.json");
    let cards = validator("cards.schema.json");
    let base = std::fs::read_to_string(root().join("scenarios/cards/spear-vs-sword.toml")).unwrap();
    assert!(errors(&all, &as_json(&base)).is_empty());
    let spear = "[fighters.spearman]\n";
    let bad = [
        (
            "unknown fighter key",
            spear,
            "[fighters.spearman]\nsklil = 3\n",
        ),
        (
            "wrong type",
            "skill = 3\nweapon = \"spear\"",
            "skill = \"three\"\nweapon = \"spear\"",
        ),
        (
            "out of range",
            "skill = 3\nweapon = \"spear\"",
            "skill = 17\nweapon = \"spear\"",
        ),
        (
            "unknown option",
            "seed = 31\n",
            "seed = 31\n[options]\nno_such_option = 1\n",
        ),
        (
            "option of the wrong enum",
            "seed = 31\n",
            "seed = 31\n[options]\nreshuffle = \"sometimes\"\n",
        ),
        (
            "option out of range",
            "seed = 31\n",
            "seed = 31\n[options]\nmax_rounds = 0\n",
        ),
        (
            "unknown top-level key",
            "seed = 31\n",
            "seed = 31\nsead = 2\n",
        ),
        (
            "unknown ruleset",
            "ruleset = \"cards\"",
            "ruleset = \"chess\"",
        ),
        (
            "inline weapon with an unknown key",
            "skill = 3\nweapon = \"spear\"",
            "skill = 3\nweapon = { range = 2, max_maneuvers = 2, max_damage = 3, sharpness = 9 }",
        ),
        (
            "tactics of the wrong enum",
            spear,
            "[fighters.spearman]\ntactics = { attacker = \"sneaky\" }\n",
        ),
    ];
    for (what, from, to) in bad {
        assert!(base.contains(from), "{what}: {from:?} not in the base file");
        let text = base.replacen(from, to, 1);
        let doc = as_json(&text);
        assert!(
            !errors(&all, &doc).is_empty(),
            "{what}: valid under the combined schema"
        );
        if what != "unknown ruleset" {
            assert!(
                !errors(&cards, &doc).is_empty(),
                "{what}: valid under cards.schema.json"
            );
        }
        // The loader refuses it too: the schema is not stricter or looser here.
        let p = write_temp(&format!("schema-bad-{}", what.replace(' ', "-")), &text);
        let (code, _, err) = cli(&["validate", p.to_str().unwrap()]);
        assert_eq!(code, 2, "{what}: the loader accepts it: {err}");
    }
}

#[test]
fn every_bounded_option_validates_at_both_ends_of_its_schema_bounds() {
    // The schema's bounds and validation come from one declaration: a value the schema
    // allows is never refused by validation alone (openrpg's `max_rounds = 0` was allowed by
    // the schema, as a u32, and refused on load). Cross-field rules are the exception named.
    let base = |id: &str| -> String {
        let fighter = match id {
            "draft" => "skill = 5\nweapon = \"mace\"",
            "gamecraft" => "weapon = \"dagger\"",
            "d20" => "species = \"goblin\"\nweapon = \"short sword\"",
            "openrpg" => "weapon = \"longsword\"",
            _ => "skill = 3\nweapon = \"sword\"",
        };
        format!(
            "name = \"bounds\"\nruleset = \"{id}\"\n[fighters.a]\n{fighter}\n[fighters.b]\n{fighter}\n"
        )
    };
    let cross_field = ["free_actions_per_round", "max_actions_per_round"];
    let mut tried = 0;
    for id in oddsmith_rules::RULESET_IDS {
        let (code, out, err) = cli(&[
            "validate",
            write_temp(&format!("bounds-{id}"), &base(id))
                .to_str()
                .unwrap(),
        ]);
        assert_eq!(code, 0, "{id}: the base file validates: {out}{err}");
        let schema: Value = serde_json::from_str(
            &std::fs::read_to_string(root().join("schema").join(format!("{id}.schema.json")))
                .unwrap(),
        )
        .unwrap();
        let props = schema["properties"]["options"]["properties"]
            .as_object()
            .unwrap_or_else(|| panic!("{id}: options in the schema"));
        for (key, p) in props {
            if cross_field.contains(&key.as_str()) {
                continue;
            }
            for end in ["minimum", "maximum"] {
                let Some(v) = p.get(end) else { continue };
                let text = format!("{}[options]\n{key} = {v}\n", base(id));
                let f = write_temp(&format!("bounds-{id}-{key}-{end}"), &text);
                let (code, out, _) = cli(&["validate", f.to_str().unwrap()]);
                assert_eq!(
                    code, 0,
                    "{id} options.{key} = {v} (the schema's {end}): {out}"
                );
                tried += 1;
            }
        }
    }
    assert!(tried > 30, "{tried} bounds tried");
}
