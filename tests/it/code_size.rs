//! The library crates stay readable: no source file under `crates/*/src` holds more than 1000
//! lines of logic (lines that are neither blank nor comments, before the file's
//! `#[cfg(test)]` module), and no function more than 150 (counted from its `fn` line to its
//! closing brace the same way).

use std::path::{Path, PathBuf};

const MAX_FILE_LINES: usize = 1000;
const MAX_FN_LINES: usize = 150;

fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates")
}

/// Every `.rs` file under a `src` folder of `dir`.
fn sources(dir: &Path, in_src: bool, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if p.is_dir() {
            if !matches!(name, "target" | "tests" | "benches" | "examples") {
                sources(&p, in_src || name == "src", out);
            }
        } else if in_src && name.ends_with(".rs") && name != "tests.rs" {
            out.push(p);
        }
    }
}

/// The lines of `text` before its `#[cfg(test)]` module.
fn non_test_lines(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    let end = lines
        .windows(2)
        .position(|w| w[0].trim() == "#[cfg(test)]" && w[1].starts_with("mod "))
        .unwrap_or(lines.len());
    lines[..end].to_vec()
}

fn is_logic(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && !t.starts_with("//")
}

/// Whether `line` starts a function item.
fn starts_fn(line: &str) -> bool {
    let mut t = line.trim_start();
    for prefix in [
        "pub(crate) ",
        "pub(super) ",
        "pub ",
        "const ",
        "unsafe ",
        "async ",
    ] {
        if let Some(rest) = t.strip_prefix(prefix) {
            t = rest;
        }
    }
    t.starts_with("fn ")
}

/// The functions of `lines` longer than `MAX_FN_LINES` lines of logic: (line, length).
fn long_functions(lines: &[&str]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if !starts_fn(line) {
            continue;
        }
        let (mut depth, mut opened, mut count) = (0i64, false, 0usize);
        for l in &lines[i..] {
            let code = l.split("//").next().unwrap_or("");
            if is_logic(l) {
                count += 1;
            }
            depth += code.matches('{').count() as i64 - code.matches('}').count() as i64;
            opened |= code.contains('{');
            if (opened && depth <= 0) || (!opened && code.trim_end().ends_with(';')) {
                break;
            }
        }
        if count > MAX_FN_LINES {
            out.push((i + 1, count));
        }
    }
    out
}

#[test]
fn no_library_file_or_function_is_too_long() {
    let mut files = Vec::new();
    sources(&crates_dir(), false, &mut files);
    assert!(files.len() > 100, "found {} files", files.len());
    let mut problems = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable source");
        let lines = non_test_lines(&text);
        let logic = lines.iter().filter(|l| is_logic(l)).count();
        if logic > MAX_FILE_LINES {
            problems.push(format!("{}: {logic} lines of logic", f.display()));
        }
        for (line, n) in long_functions(&lines) {
            problems.push(format!("{}:{line}: a function of {n} lines", f.display()));
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn the_counter_sees_a_long_function_and_skips_tests_and_comments() {
    let mut text = String::from("// a comment\nfn long() {\n");
    for k in 0..MAX_FN_LINES {
        text.push_str(&format!("    let x{k} = {k};\n    // note\n\n"));
    }
    text.push_str("}\nfn short() -> u8 {\n    1\n}\n#[cfg(test)]\nmod tests {\n    fn t() {}\n}\n");
    let lines = non_test_lines(&text);
    assert!(!lines.iter().any(|l| l.contains("fn t()")));
    assert_eq!(long_functions(&lines), vec![(2, MAX_FN_LINES + 2)]);
    assert_eq!(
        lines.iter().filter(|l| is_logic(l)).count(),
        MAX_FN_LINES + 5
    );
}
