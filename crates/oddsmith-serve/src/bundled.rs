//! The bundled scenarios (the repository's `scenarios/` folder), embedded at build time.

/// Every bundled scenario as (`folder/name`, text), sorted by name.
pub static BUNDLED: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/bundled.rs"));

/// The text of the bundled scenario `name` (`draft/skill-gap`).
pub fn bundled(name: &str) -> Option<&'static str> {
    BUNDLED.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}
