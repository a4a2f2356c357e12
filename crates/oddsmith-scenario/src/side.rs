//! One side of a `[[matchup]]`: a fighter's name (a duel's side, as ever) or a list of members
//! (`b = [{ fighter = "goblin", count = 2, target = "random" }, "shaman"]`), each a fighter of
//! the library, how many of it, and whom they attack (the shared policies of
//! [`oddsmith_rules::group::Target`]). What a ruleset can field is its own
//! ([`oddsmith_rules::Ruleset::side_spec`]).

use std::fmt;

use oddsmith_rules::group::Target;
use serde::Deserialize;
use serde::de::{self, MapAccess, SeqAccess, Visitor};

/// A side as written.
#[derive(Clone, Debug, PartialEq)]
pub enum SideSpec {
    /// One fighter of the library (`a = "knight"`).
    Name(String),
    /// A list of members (`a = [{ fighter = "knight", count = 2 }]`).
    Members(Vec<MemberSpec>),
}

/// One member of a side.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemberSpec {
    /// The fighter's name in `[fighters]`.
    pub fighter: String,
    /// How many identical copies of it, at least 1 (the ruleset says how many it fields).
    #[serde(default = "one")]
    pub count: u32,
    /// Whom they attack; none = as the fighter's own fields say.
    #[serde(default)]
    pub target: Option<Target>,
}

fn one() -> u32 {
    1
}

impl SideSpec {
    /// The side's name in tables: the fighter's name, or its members' ("goblin×2").
    pub fn label(&self) -> String {
        match self {
            SideSpec::Name(n) => n.clone(),
            SideSpec::Members(v) => v
                .iter()
                .map(|m| {
                    if m.count == 1 {
                        m.fighter.clone()
                    } else {
                        format!("{}×{}", m.fighter, m.count)
                    }
                })
                .collect::<Vec<_>>()
                .join(" + "),
        }
    }
}

impl<'de> Deserialize<'de> for SideSpec {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = SideSpec;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a fighter's name or a list of members like [{ fighter = \"goblin\", count = 2 }]")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<SideSpec, E> {
                Ok(SideSpec::Name(v.to_string()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<SideSpec, A::Error> {
                let mut v = Vec::new();
                while let Some(m) = seq.next_element::<Member>()? {
                    v.push(m.0);
                }
                Ok(SideSpec::Members(v))
            }
        }
        d.deserialize_any(V)
    }
}

/// A member as written: a fighter's name or a table.
struct Member(MemberSpec);

impl<'de> Deserialize<'de> for Member {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Member;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a fighter's name or a table { fighter = \"…\", count = 1, target = \"lowest_hp\" }")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Member, E> {
                Ok(Member(MemberSpec {
                    fighter: v.to_string(),
                    count: 1,
                    target: None,
                }))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Member, A::Error> {
                MemberSpec::deserialize(de::value::MapAccessDeserializer::new(map)).map(Member)
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize)]
    struct T {
        s: SideSpec,
    }

    fn side(text: &str) -> SideSpec {
        toml::from_str::<T>(text).unwrap().s
    }

    #[test]
    fn a_name_or_a_list_of_members() {
        assert_eq!(side("s = \"knight\""), SideSpec::Name("knight".into()));
        let s = side("s = [{ fighter = \"goblin\", count = 4, target = \"random\" }, \"shaman\"]");
        assert_eq!(
            s,
            SideSpec::Members(vec![
                MemberSpec {
                    fighter: "goblin".into(),
                    count: 4,
                    target: Some(Target::Random)
                },
                MemberSpec {
                    fighter: "shaman".into(),
                    count: 1,
                    target: None
                },
            ])
        );
        assert_eq!(s.label(), "goblin×4 + shaman");
        assert!(toml::from_str::<T>("s = [{ fighter = \"g\", cuont = 2 }]").is_err());
    }
}
