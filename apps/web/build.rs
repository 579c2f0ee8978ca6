//! Converts the sample maps (`assets/maps`: LDtk's platformer sample, four levels, and Tiled's
//! Sticker Knight) into level bytes (`collide_maps::MapLevel::to_bytes`) when the crate is
//! built: the loaders run here, natively, so that the site's .wasm embeds the levels without
//! any loader's code. Writes `$OUT_DIR/maps/N.bin` and `$OUT_DIR/maps.rs`, the table
//! `src/maps.rs` includes.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use collide_maps::{MapConfig, MapLevel};

/// The map scenes: their name, the map file (relative to the repository) and the level.
const SCENES: [(&str, &str, Option<&str>); 5] = [
    (
        "ldtk:Your_typical_2D_platformer",
        "assets/maps/ldtk/Typical_2D_platformer_example.ldtk",
        Some("Your_typical_2D_platformer"),
    ),
    (
        "ldtk:Top",
        "assets/maps/ldtk/Typical_2D_platformer_example.ldtk",
        Some("Top"),
    ),
    (
        "ldtk:Bottom",
        "assets/maps/ldtk/Typical_2D_platformer_example.ldtk",
        Some("Bottom"),
    ),
    (
        "ldtk:World_Level_3",
        "assets/maps/ldtk/Typical_2D_platformer_example.ldtk",
        Some("World_Level_3"),
    ),
    (
        "tiled:sticker_knight",
        "assets/maps/tiled/sticker-knight/sandbox.tmx",
        None,
    ),
];

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let dir = out.join("maps");
    std::fs::create_dir_all(&dir).expect("OUT_DIR/maps can be created");
    let mut table = String::from(
        "/// The map scenes: name, map file (relative to the repository), level, level bytes.\n\
         pub(crate) const EMBEDDED: &[(&str, &str, Option<&str>, &[u8])] = &[\n",
    );
    for (i, (name, file, level)) in SCENES.iter().enumerate() {
        let path = root.join(file);
        println!("cargo:rerun-if-changed={}", path.display());
        let map: MapLevel = collide_maps::load(&path, *level, &MapConfig::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let bytes = map.to_bytes().unwrap_or_else(|e| panic!("{name}: {e}"));
        let bin = dir.join(format!("{i}.bin"));
        std::fs::write(&bin, bytes).unwrap_or_else(|e| panic!("{}: {e}", bin.display()));
        let _ = writeln!(
            table,
            "    ({name:?}, {file:?}, {level:?}, include_bytes!(concat!(env!(\"OUT_DIR\"), \"/maps/{i}.bin\"))),"
        );
    }
    // The tileset Sticker Knight names is read by the loader too.
    println!(
        "cargo:rerun-if-changed={}",
        root.join("assets/maps/tiled/sticker-knight/objs.tsx")
            .display()
    );
    table.push_str("];\n");
    std::fs::write(out.join("maps.rs"), table).expect("OUT_DIR/maps.rs can be written");
    println!("cargo:rerun-if-changed=build.rs");
}
