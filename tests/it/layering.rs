//! Architecture invariant: dependencies point one way (docs/architecture.md). Reads each
//! crate's manifest and checks its `[dependencies]` against the allowed set.

use std::collections::BTreeSet;

fn deps(manifest: &str) -> BTreeSet<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
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
        if in_deps {
            if let Some((name, _)) = line.split_once('=') {
                let name = name.trim().trim_end_matches(".workspace").to_string();
                if !name.is_empty() && !name.starts_with('#') {
                    out.insert(name);
                }
            }
        }
    }
    out
}

fn check(manifest: &str, allowed: &[&str]) {
    let d = deps(manifest);
    let extra: Vec<_> = d
        .iter()
        .filter(|n| !allowed.contains(&n.as_str()))
        .collect();
    assert!(
        extra.is_empty(),
        "{manifest} depends on {extra:?}, outside its layer (allowed: {allowed:?})"
    );
}

/// `libm`: the flippers' `sin`/`cos`, the same bits on every target (docs/reliability.md).
#[test]
fn core_depends_on_glam_and_libm_only() {
    check(
        "crates/collide-core/Cargo.toml",
        &["glam", "libm", "thiserror"],
    );
}

/// `mem_prefetch`: cache prefetch hints in the step's event loop (a leaf crate, no layer).
/// No text format's parser: scene files are `collide-scene`'s.
#[test]
fn world_depends_on_core_only() {
    check(
        "crates/world/Cargo.toml",
        &["collide-core", "glam", "serde", "thiserror", "mem_prefetch"],
    );
}

/// The simulation crate parses no text format: no `toml` or `toml_parser` in any of its
/// manifest's dependency tables (its dev-dependencies reach them only through
/// `collide-scene`). Its source reads no file: `world_layout::the_world_does_no_file_io`.
#[test]
fn world_has_no_toml_dependency() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/world/Cargo.toml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let toml_lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with('#'))
        .filter(|l| {
            let name = l.split(['=', '.', ' ']).next().unwrap_or("");
            name == "toml" || name == "toml_parser"
        })
        .collect();
    assert!(
        toml_lines.is_empty(),
        "crates/world/Cargo.toml names a TOML parser: {toml_lines:?}"
    );
    // The check sees a dependency when there is one.
    assert!(deps("crates/scene/Cargo.toml").contains("toml"));
}

/// The scene files' crate: the world's descriptions and a TOML parser, never a renderer, a
/// window, a game's rules or a command-line crate.
#[test]
fn the_scene_parser_depends_on_the_world_and_toml_only() {
    check(
        "crates/scene/Cargo.toml",
        &["collide-world", "serde", "toml", "toml_parser", "thiserror"],
    );
}

#[test]
fn scenes_and_render_stay_below_the_apps() {
    check(
        "crates/scenes/Cargo.toml",
        &[
            "collide-world",
            "collide-scene",
            "collide-core",
            "thiserror",
        ],
    );
    check(
        "crates/render/Cargo.toml",
        &[
            "collide-core",
            "collide-world",
            "glam",
            "thiserror",
            "fontdue",
            "font8x8",
            "ab_glyph",
        ],
    );
}

#[test]
fn maps_depend_on_the_world_and_the_parsers_only() {
    // The world's public API, the Tiled and LDtk parsers (serde_json for LDtk's fields);
    // serde, serde_json and serde_path_to_error read Tiled's JSON format, base64, flate2 and
    // roxmltree count a .tmj's or .tmx's tile layer before the `tiled` crate reads it;
    // postcard and collide-scene-wire write a loaded level as bytes (`MapLevel::to_bytes`).
    check(
        "crates/maps/Cargo.toml",
        &[
            "collide-world",
            "collide-scene-wire",
            "thiserror",
            "tiled",
            "ldtk2",
            "serde_json",
            "serde",
            "serde_path_to_error",
            "base64",
            "flate2",
            "roxmltree",
            "postcard",
        ],
    );
}

#[test]
fn the_game_depends_on_the_world_and_scenes_only() {
    // No renderer, window, or command-line crate; serde for the replay format; collide-maps
    // (optional, feature `maps`: the platformer's levels from maps), a loader on the world.
    check(
        "crates/game/Cargo.toml",
        &[
            "collide-core",
            "collide-world",
            "collide-scene",
            "collide-scenes",
            "collide-maps",
            "thiserror",
            "serde",
            "serde_json",
            "serde_path_to_error",
        ],
    );
}

#[test]
fn the_frontend_library_has_no_window_crate() {
    // Shared by the minifb and pixels apps: no minifb, winit, pixels or wgpu here.
    check(
        "crates/frontend/Cargo.toml",
        &[
            "collide-core",
            "collide-world",
            "collide-scenes",
            "collide-maps",
            "collide-render",
            "collide-game",
            "collide-audio",
            "clap",
            "png",
            "thiserror",
        ],
    );
}

#[test]
fn the_frontend_apps_are_glue_over_the_frontend_library() {
    check(
        "apps/minifb/Cargo.toml",
        &["collide-frontend", "collide-render", "clap", "minifb"],
    );
    // The browser app: the frontend library and JSON for its test modes (its wasm-bindgen,
    // web-sys and cpal dependencies are wasm32-only, outside `[dependencies]`), and
    // collide-maps' model for the sample maps' levels its build script converts.
    check(
        "apps/web/Cargo.toml",
        &[
            "collide-core",
            "collide-world",
            "collide-scenes",
            "collide-game",
            "collide-render",
            "collide-frontend",
            "collide-maps",
            "serde",
            "serde_json",
            "thiserror",
        ],
    );
    // And their main.rs stay small: the logic lives in the libraries.
    for app in ["apps/minifb/src/main.rs", "apps/pixels/src/main.rs"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(app);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let lines = text.lines().count();
        assert!(lines < 400, "{app}: {lines} lines of glue");
    }
}

#[test]
fn netplay_is_a_ggrs_example_over_the_worlds_public_api() {
    // GGRS and its wire format (bincode) stay here: collide-world never depends on them.
    check(
        "crates/netplay/Cargo.toml",
        &[
            "collide-world",
            "collide-scenes",
            "ggrs",
            "bincode",
            "serde",
            "thiserror",
            "fastrand",
        ],
    );
}

#[test]
fn the_js_package_keeps_the_toml_parser_in_its_own_module() {
    // The main module (crates/js) reads scenes as bytes (collide-scene-wire), which never
    // parses text; the TOML module (crates/js-toml) never links the main module's `World`.
    check(
        "crates/scene-wire/Cargo.toml",
        &["collide-world", "serde", "postcard", "thiserror"],
    );
    check(
        "crates/js-toml/Cargo.toml",
        &[
            "collide-scene",
            "collide-scene-wire",
            "wasm-bindgen",
            "js-sys",
        ],
    );
    let main = deps("crates/js/Cargo.toml");
    for parser in ["toml", "toml_parser", "collide-js-toml"] {
        assert!(!main.contains(parser), "crates/js depends on {parser}");
    }
}
