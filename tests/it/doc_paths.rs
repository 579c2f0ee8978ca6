//! Docs name files that exist: every file path in backticks in `README.md`, `docs/*.md` and the
//! module docs (`//!`) of the workspace's crates is a file of the repository. A path with a
//! folder is read from the repository root, the crate's `src/`, or the crate folders; a bare
//! file name must name some file of the repository.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

const EXTENSIONS: [&str; 8] = [
    ".rs", ".md", ".toml", ".dat", ".sh", ".png", ".txt", ".json",
];

/// Files below `dir` (skipping `target`, `.git` and `node_modules`), relative to the root.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().to_string();
        if p.is_dir() {
            if !matches!(name.as_str(), "target" | ".git" | "node_modules") {
                walk(&p, out);
            }
        } else {
            out.push(p);
        }
    }
}

/// The backticked tokens of `text` that look like a file path.
fn paths_in(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 0 {
            continue;
        }
        let token = part.trim();
        let plain = token
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./".contains(c));
        if plain && EXTENSIONS.iter().any(|e| token.ends_with(e)) && !token.starts_with('.') {
            out.push(token.to_string());
        }
    }
    out
}

/// Names the docs use for "a file of this form", not for a file.
const PLACEHOLDERS: [&str; 5] = [
    "FILE.png",
    "FILE.buffer.png",
    "scenes/levels/level_N.dat",
    "scenes/level_N.toml",
    "levels/x.dat",
];

#[test]
fn every_path_named_in_the_docs_exists() {
    let root = root();
    let mut files = Vec::new();
    walk(&root, &mut files);
    let names: BTreeSet<String> = files
        .iter()
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().to_string()))
        .collect();
    // The documents and where their relative paths may start.
    let mut docs: Vec<(PathBuf, String)> = Vec::new();
    for p in &files {
        let rel = p
            .strip_prefix(&root)
            .expect("below the root")
            .to_string_lossy()
            .replace('\\', "/");
        let is_doc = rel == "README.md" || (rel.starts_with("docs/") && rel.ends_with(".md"));
        let is_source =
            (rel.starts_with("crates/") || rel.starts_with("apps/")) && rel.ends_with(".rs");
        if is_doc {
            let text = std::fs::read_to_string(p).expect("readable doc");
            docs.push((p.clone(), text));
        } else if is_source {
            let text = std::fs::read_to_string(p).expect("readable source");
            let module_doc: String = text
                .lines()
                .filter_map(|l| l.trim_start().strip_prefix("//!"))
                .collect::<Vec<_>>()
                .join("\n");
            docs.push((p.clone(), module_doc));
        }
    }
    let crate_dirs: Vec<String> = ["crates", "apps"]
        .iter()
        .flat_map(|top| {
            std::fs::read_dir(root.join(top))
                .into_iter()
                .flatten()
                .flatten()
        })
        .map(|e| {
            e.path()
                .strip_prefix(&root)
                .expect("below the root")
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect();
    assert!(docs.len() > 100, "found only {} documents", docs.len());
    let mut missing = Vec::new();
    let mut checked = 0;
    for (doc, text) in &docs {
        let rel = doc
            .strip_prefix(&root)
            .expect("below the root")
            .to_string_lossy()
            .replace('\\', "/");
        // `crates/world/src/step/mod.rs` → bases `crates/world/src/` and `crates/world/`.
        let mut bases = vec![String::new(), "crates/".to_string(), "docs/".to_string()];
        if let Some(i) = rel.find("/src/") {
            // A module doc names files from its own folder, its crate's `src/` or the crate.
            bases.push(rel[..rel.rfind('/').map_or(0, |k| k + 1)].to_string());
            bases.push(rel[..i + 5].to_string());
            bases.push(rel[..i + 1].to_string());
        } else {
            // The docs name a crate's files from its folder or its `src/`.
            bases.extend(
                crate_dirs
                    .iter()
                    .flat_map(|c| [format!("{c}/"), format!("{c}/src/")]),
            );
        }
        for path in paths_in(text) {
            if PLACEHOLDERS.contains(&path.as_str()) {
                continue;
            }
            checked += 1;
            let found = if path.contains('/') {
                bases
                    .iter()
                    .any(|b| root.join(format!("{b}{path}")).exists())
            } else {
                names.contains(&path)
            };
            if !found {
                missing.push(format!("{rel}: `{path}`"));
            }
        }
    }
    assert!(checked > 100, "checked only {checked} paths");
    assert!(
        missing.is_empty(),
        "paths named in docs that do not exist:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_check_finds_a_missing_path() {
    assert_eq!(
        paths_in("see `a/b.rs` and `c.md`, not `x = 1`"),
        vec!["a/b.rs", "c.md"]
    );
}
