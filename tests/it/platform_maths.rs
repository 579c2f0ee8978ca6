//! Architecture invariant: no platform maths in the library crates (docs/reliability.md,
//! "The same bits on every platform").
//!
//! The simulation must give the same bits on every target (x86_64, aarch64, wasm32; glibc,
//! musl, macOS, Windows, browsers): rollback netcode and cross-platform replays depend on it.
//! IEEE 754 specifies `+ − × ÷ √` (and `floor`, `ceil`, `round`, `abs`, `min`, `max`) to the
//! last bit, but not `sin`, `cos`, `exp`, `ln`, `pow`, `atan2`, `hypot` and friends: std's
//! `f64::sin` and the others call the platform's C library, whose last bit differs between
//! platforms. And `mul_add` is one rounding where `a * b + c` is two: fine on its own, but
//! software-emulated (and slow) where the CPU has no fused multiply-add, and a different
//! result from the plain expression that the rest of the code uses.
//!
//! This test reads every `.rs` file under `crates/*/src` (the library crates: their output
//! is simulated state, or, for the renderer and the sound, pixels and samples that should be
//! the same bits everywhere too), leaves out comments and test code (`#[cfg(test)]` items and
//! the files of `#[cfg(test)] mod name;`), and fails if a transcendental function of std or
//! glam is called: as a method (`.sin()`, `v.exp()`) or by path (`f64::sin`, `Vec2::from_angle`).
//! The sanctioned implementation is the `libm` crate (a pure-Rust port of musl's, the same
//! code on every target), through `collide_core::sin_cos` for the simulation's trigonometry.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Functions whose last bit depends on the platform (std's `f32`/`f64` methods, glam's vector
/// methods built on them), and `mul_add` (see the module doc).
const FORBIDDEN: &[&str] = &[
    "sin",
    "cos",
    "tan",
    "sin_cos",
    "asin",
    "acos",
    "atan",
    "atan2",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
    "exp",
    "exp2",
    "exp_m1",
    "ln",
    "ln_1p",
    "log",
    "log2",
    "log10",
    "powf",
    "powi",
    "hypot",
    "cbrt",
    "mul_add",
    // glam: sin/cos/atan2/acos inside.
    "from_angle",
    "to_angle",
    "angle_to",
    "angle_between",
    "rotate_towards",
];

/// Path prefixes whose functions are the sanctioned, pure-Rust ones: `libm::sin`,
/// `collide_core::sin_cos`, `math::sin_cos` (collide-core's own module).
const ALLOWED_PATHS: &[&str] = &["libm", "collide_core", "math"];

/// `text` without its comments (line, doc and block comments), string contents kept.
fn strip_comments(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let (mut i, mut in_str) = (0, false);
    while i < b.len() {
        let c = b[i];
        if in_str {
            if c == b'\\' && i + 1 < b.len() {
                out.push_str(&text[i..i + 2]);
                i += 2;
                continue;
            }
            in_str = c != b'"';
        } else if text[i..].starts_with("'\"'") || text[i..].starts_with("'\\\"'") {
            // A char literal of a double quote: not the start of a string.
            let len = if b[i + 1] == b'"' { 3 } else { 4 };
            out.push_str(&text[i..i + len]);
            i += len;
            continue;
        } else if c == b'"' {
            in_str = true;
        } else if text[i..].starts_with("//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        } else if text[i..].starts_with("/*") {
            let end = text[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
            // Keep the line count: a finding names its line.
            out.extend(text[i..end].chars().filter(|&ch| ch == '\n'));
            i = end;
            continue;
        }
        let ch = text[i..].chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

/// `code` (comments stripped) with every `#[cfg(test)]` item blanked (lines kept), and the
/// names of the `#[cfg(test)] mod name;` declarations (modules in files of their own).
fn strip_test_items(code: &str) -> (String, Vec<String>) {
    let lines: Vec<&str> = code.lines().collect();
    let mut keep = vec![true; lines.len()];
    let mut out_of_line = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim() != "#[cfg(test)]" {
            i += 1;
            continue;
        }
        keep[i] = false;
        let mut j = i + 1;
        // Further attributes of the same item.
        while j < lines.len() && lines[j].trim_start().starts_with("#[") {
            keep[j] = false;
            j += 1;
        }
        let Some(first) = lines.get(j) else { break };
        let decl = first.trim();
        if let Some(name) = decl
            .strip_prefix("mod ")
            .or_else(|| decl.strip_prefix("pub(crate) mod "))
            .and_then(|rest| rest.strip_suffix(';'))
        {
            out_of_line.push(name.trim().to_owned());
            keep[j] = false;
            i = j + 1;
            continue;
        }
        // An item with a body: blank through its matching closing brace (braces inside
        // string or char literals are not counted), or through its `;`.
        let mut depth = 0i64;
        let mut opened = false;
        while j < lines.len() {
            keep[j] = false;
            let mut in_str = false;
            let line = lines[j].replace("'{'", "' '").replace("'}'", "' '");
            let mut chars = line.chars();
            while let Some(c) = chars.next() {
                match c {
                    '\\' if in_str => {
                        chars.next();
                    }
                    '"' => in_str = !in_str,
                    '{' if !in_str => {
                        depth += 1;
                        opened = true;
                    }
                    '}' if !in_str => depth -= 1,
                    _ => {}
                }
            }
            j += 1;
            if (opened && depth <= 0) || (!opened && line.trim_end().ends_with(';')) {
                break;
            }
        }
        i = j;
    }
    let text = lines
        .iter()
        .zip(&keep)
        .map(|(l, &k)| if k { *l } else { "" })
        .collect::<Vec<_>>()
        .join("\n");
    (text, out_of_line)
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Every call or mention of a [`FORBIDDEN`] function in `code` as `(line, text)`: `.name(`,
/// `.name::<`, or `Path::name` where `Path` is not one of [`ALLOWED_PATHS`].
fn findings(code: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (n, line) in code.lines().enumerate() {
        for name in FORBIDDEN {
            let mut from = 0;
            while let Some(pos) = line[from..].find(name) {
                let start = from + pos;
                let end = start + name.len();
                from = end;
                let before = &line[..start];
                let after = line[end..].chars().next();
                if before.chars().next_back().is_some_and(is_ident) || after.is_some_and(is_ident) {
                    continue;
                }
                let method = before.ends_with('.') && matches!(after, Some('(') | Some(':'));
                let path = before.strip_suffix("::").is_some_and(|p| {
                    let seg: String = p
                        .chars()
                        .rev()
                        .take_while(|&c| is_ident(c))
                        .collect::<Vec<_>>()
                        .into_iter()
                        .rev()
                        .collect();
                    !seg.is_empty() && !ALLOWED_PATHS.contains(&seg.as_str())
                });
                if method || path {
                    found.push((n + 1, line.trim().to_owned()));
                }
            }
        }
    }
    found
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The files of the out-of-line `#[cfg(test)]` module `name` declared in `file`.
fn test_module_files(file: &Path, name: &str) -> [PathBuf; 3] {
    let dir = file.parent().expect("a file has a folder");
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let own = if matches!(stem, "lib" | "main" | "mod") {
        dir.to_path_buf()
    } else {
        dir.join(stem)
    };
    [
        own.join(format!("{name}.rs")),
        own.join(name).join("mod.rs"),
        dir.join(format!("{name}.rs")),
    ]
}

#[test]
fn no_platform_maths_in_the_library_crates() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates");
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&crates).expect("crates/") {
        let src = entry.expect("crates/ entry").path().join("src");
        if src.is_dir() {
            rust_files(&src, &mut files);
        }
    }
    files.sort();
    assert!(
        files.len() > 50,
        "only {} files under crates/*/src",
        files.len()
    );
    let mut texts = Vec::new();
    let mut test_files = BTreeSet::new();
    for file in &files {
        let text =
            std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let (code, modules) = strip_test_items(&strip_comments(&text));
        for m in modules {
            test_files.extend(test_module_files(file, &m));
        }
        texts.push((file, code));
    }
    let mut bad = Vec::new();
    for (file, code) in &texts {
        if test_files.contains(*file) {
            continue;
        }
        for (line, text) in findings(code) {
            bad.push(format!("{}:{line}: {text}", file.display()));
        }
    }
    assert!(
        bad.is_empty(),
        "platform maths in library code (use libm, or collide_core::sin_cos):\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_scan_finds_calls_and_skips_comments_and_tests() {
    let src = r#"
//! `x.sin()` in a doc comment is fine.
use collide_core::sin_cos;
fn a(x: f64) -> f64 { x.sin() } // found
fn b(x: f64) -> f64 { f64::exp(x) + libm::exp(x) } // one found, libm's fine
fn c(v: Vec2) -> f64 { v.angle_to(Vec2::X) + Vec2::from_angle(1.0).x } // two found
fn d(x: f64) -> (f64, f64) { collide_core::sin_cos(x) } // fine
fn e(x: f64) -> f64 { x.mul_add(2.0, 1.0) /* x.cos() */ } // found once
fn f(xs: &[f64]) -> Vec<f64> { xs.iter().copied().map(f64::ln).collect() } // found
fn g(explain: f64, cosine: f64) -> f64 { explain.max(cosine) } // no whole name
#[cfg(test)]
mod tests {
    fn t(x: f64) -> f64 { let s = "}"; x.cos() + s.len() as f64 }
}
#[cfg(test)]
mod more_tests;
fn h(x: f32) -> f32 { x.powf(2.0) } // found after the test module
"#;
    let (code, modules) = strip_test_items(&strip_comments(src));
    let lines: Vec<usize> = findings(&code).into_iter().map(|(l, _)| l).collect();
    assert_eq!(lines, vec![4, 5, 6, 6, 8, 9, 17]);
    assert_eq!(modules, vec!["more_tests".to_owned()]);
    let files = test_module_files(Path::new("crates/x/src/world.rs"), "tests");
    assert_eq!(files[0], Path::new("crates/x/src/world/tests.rs"));
    assert_eq!(files[2], Path::new("crates/x/src/tests.rs"));
}
