//! Architecture invariant (docs/architecture.md): the game and the frontend library stay
//! below the apps. Reads the manifests' `[dependencies]`, as `tests/tests/layering.rs` does
//! for the lower crates.

use std::collections::BTreeSet;

fn deps(manifest: &str) -> BTreeSet<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(manifest);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = BTreeSet::new();
    let mut in_deps = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_deps = line == "[dependencies]";
            continue;
        }
        if in_deps && !line.starts_with('#') {
            if let Some((name, _)) = line.split_once('=') {
                let name = name.trim().trim_end_matches(".workspace").to_string();
                if !name.is_empty() {
                    out.insert(name);
                }
            }
        }
    }
    out
}

fn check(manifest: &str, allowed: &[&str]) {
    let d = deps(manifest);
    assert!(!d.is_empty(), "{manifest}: no dependencies read");
    let extra: Vec<_> = d
        .iter()
        .filter(|n| !allowed.contains(&n.as_str()))
        .collect();
    assert!(
        extra.is_empty(),
        "{manifest} depends on {extra:?}, outside its layer (allowed: {allowed:?})"
    );
}

#[test]
fn the_game_depends_on_the_world_and_scenes_only() {
    // No renderer, window, or command-line crate.
    check(
        "crates/game/Cargo.toml",
        &[
            "collide-core",
            "collide-world",
            "collide-scenes",
            "thiserror",
        ],
    );
}

#[test]
fn the_frontend_library_has_no_window_crate() {
    check(
        "crates/frontend/Cargo.toml",
        &[
            "collide-core",
            "collide-world",
            "collide-scenes",
            "collide-render",
            "collide-game",
            "clap",
            "png",
            "thiserror",
        ],
    );
}

#[test]
fn the_minifb_app_is_glue_over_the_frontend_library() {
    check(
        "apps/minifb/Cargo.toml",
        &["collide-frontend", "collide-render", "clap", "minifb"],
    );
    // And its main.rs stays small.
    let main = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../apps/minifb/src/main.rs"),
    )
    .unwrap();
    assert!(main.lines().count() < 200, "{} lines", main.lines().count());
}
