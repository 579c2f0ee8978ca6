//! The golden-hash table: `collide hashes` prints exactly `tests/golden/hashes.tsv`, and the
//! rows that must agree do (docs/rollback.md). CI compares the same program built for aarch64
//! and wasm32 with the same file (`.ci/cross-hashes.sh`).

use std::collections::BTreeMap;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_collide");

fn table() -> String {
    let out = Command::new(BIN)
        .arg("hashes")
        .output()
        .expect("run collide hashes");
    assert!(
        out.status.success(),
        "collide hashes failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

fn golden() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/golden/hashes.tsv");
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// `(case, threads)` → `(state_hash, events_hash)`.
fn rows(text: &str) -> BTreeMap<(String, String), (String, String)> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 5, "{l}");
            (
                (f[0].to_owned(), f[2].to_owned()),
                (f[3].to_owned(), f[4].to_owned()),
            )
        })
        .collect()
}

#[test]
fn the_table_is_the_checked_in_one() {
    let (now, golden) = (table(), golden());
    let diff: Vec<String> = now
        .lines()
        .zip(golden.lines())
        .filter(|(a, b)| a != b)
        .map(|(a, b)| format!("now    {a}\ngolden {b}"))
        .collect();
    assert!(
        diff.is_empty() && now.lines().count() == golden.lines().count(),
        "collide hashes differs from tests/golden/hashes.tsv ({} and {} lines):\n{}\n\
         If the change is meant, write the new table with `collide hashes > \
         tests/golden/hashes.tsv` and say why in CHANGELOG.md.",
        now.lines().count(),
        golden.lines().count(),
        diff.join("\n")
    );
}

#[test]
fn the_table_covers_every_builtin_scene_and_feature() {
    let rows = rows(&golden());
    let cases: Vec<&str> = rows.keys().map(|(c, _)| c.as_str()).collect();
    for name in collide_scenes::names() {
        assert!(
            cases.contains(&format!("builtin/{name}").as_str()),
            "{name}"
        );
    }
    for case in [
        "scene/sensors",
        "scene/squeeze",
        "scene/sleep",
        "scene/boxes",
        "scene/limit",
        "flippers/pinball-scripted",
        "hooks/one-way-and-english",
        "main/level_1-1000-balls-ball-ball",
        "game/level_1-autoplay",
        "game/pinball-autoplay",
    ] {
        assert!(cases.contains(&case), "{case}");
    }
    // The same bits with one thread and with two, and after restores as without them.
    for case in ["threads/arena-4000", "threads/arena-20000"] {
        let one = &rows[&(case.to_owned(), "1".to_owned())];
        let two = &rows[&(case.to_owned(), "2".to_owned())];
        assert_eq!(one, two, "{case}");
    }
    let straight = &rows[&("rollback/pinball-straight".to_owned(), "1".to_owned())];
    let restored = &rows[&("rollback/pinball-restored".to_owned(), "1".to_owned())];
    assert_eq!(straight, restored);
    // Every row its own state (no case accidentally a copy of another).
    let mut states: Vec<&String> = rows
        .iter()
        .filter(|((c, t), _)| t == "1" && c != "rollback/pinball-restored")
        .map(|(_, (s, _))| s)
        .collect();
    let n = states.len();
    states.sort();
    states.dedup();
    assert_eq!(states.len(), n);
}
