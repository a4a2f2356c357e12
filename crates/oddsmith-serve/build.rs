//! Embeds the bundled scenarios (`scenarios/<folder>/*.toml` of the workspace) so the explorer
//! can open any of them without reading outside the user's scenario folder.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    // Read when the script runs, not baked in when it is compiled: a build cache shared by
    // checkouts at other paths (the page's `web/build.sh`) may reuse a compiled script.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest).join("../../scenarios");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut found = Vec::new();
    let dirs = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("the bundled scenarios {}: {e}", root.display()));
    for d in dirs.flatten().filter(|d| d.path().is_dir()) {
        println!("cargo:rerun-if-changed={}", d.path().display());
        for f in std::fs::read_dir(d.path()).into_iter().flatten().flatten() {
            let p = f.path();
            if p.extension().is_some_and(|e| e == "toml") {
                let folder = d.file_name().to_string_lossy().into_owned();
                let stem = p
                    .file_stem()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned();
                found.push((format!("{folder}/{stem}"), p.canonicalize().unwrap_or(p)));
            }
        }
    }
    found.sort();
    let mut s = String::from("&[\n");
    for (name, path) in found {
        let _ = writeln!(
            s,
            "    ({name:?}, include_str!({:?})),",
            path.display().to_string()
        );
    }
    s.push(']');
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("bundled.rs");
    std::fs::write(out, s).expect("OUT_DIR is writable");
}
