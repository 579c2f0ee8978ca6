//! Architecture invariants of `collide-world`'s source layout (docs/architecture.md,
//! "collide-world's folders"), read from the source files themselves:
//!
//! - the folders import one way: `model/` imports only `model/`; `body/` and `grid/` import
//!   nothing from `world/` or `step/`;
//! - no file I/O: the non-test code names no `std::fs`, `File` or `read_to_string` (scene
//!   files are read by `collide-scene`);
//! - no import circle: the `crate::`/`super::`/`self::` paths of the non-test code, resolved to
//!   the files that define them (through the crate root's re-exports), form no circle of more
//!   than 4 files, and any circle lies inside `step/`;
//! - `impl World` blocks only in `world/` and `step/`;
//! - a mover's kind is read from its record's tag (`Mover::body`), never from where its index
//!   falls: no `m < nb`-style comparison with the ball count, no `nb + k` / `m - nb`
//!   arithmetic, no `dyn_rects` table;
//! - the public API is the reviewed list `crates/world/public-api.txt`, with no tuning
//!   constants in it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/world/src")
}

/// Every `.rs` file below `dir`, as paths relative to `src_dir()` with `/` separators.
fn rust_files(dir: &Path, out: &mut Vec<String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            let rel = p
                .strip_prefix(src_dir())
                .expect("below src")
                .to_string_lossy();
            out.push(rel.replace('\\', "/"));
        }
    }
}

/// The module path of a file: `step/sleep/mod.rs` → `["step", "sleep"]`, `lib.rs` → `[]`.
fn module_of(file: &str) -> Vec<String> {
    let mut parts: Vec<String> = file
        .trim_end_matches(".rs")
        .split('/')
        .map(String::from)
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The code of a file without comments, string literals' contents and `#[cfg(test)]` items.
fn code_of(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            // Skip the next item: a `mod x;` line or a braced block.
            let mut depth = 0i32;
            let mut opened = false;
            for l in lines.by_ref() {
                let c = l.split("//").next().unwrap_or("");
                depth += c.matches('{').count() as i32 - c.matches('}').count() as i32;
                opened |= c.contains('{');
                if (opened && depth <= 0) || (!opened && c.trim_end().ends_with(';')) {
                    break;
                }
            }
            continue;
        }
        let code = line.split("//").next().unwrap_or("");
        out.push_str(code);
        out.push('\n');
    }
    out
}

/// Every path starting with `crate::`, `super::` or `self::` in `code`, with `use` groups
/// (`crate::a::{b, c::d}`) expanded.
fn paths_in(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(i) = code[from..].find(start) {
            let at = from + i;
            from = at + start.len();
            if at > 0
                && (bytes[at - 1].is_ascii_alphanumeric()
                    || bytes[at - 1] == b'_'
                    || bytes[at - 1] == b':')
            {
                continue;
            }
            let mut end = at;
            while end < bytes.len()
                && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_' || bytes[end] == b':')
            {
                end += 1;
            }
            let head = code[at..end].trim_end_matches(':').to_string();
            if end < bytes.len() && bytes[end] == b'{' && code[at..end].ends_with("::") {
                let close = code[end..].find('}').map_or(bytes.len(), |c| end + c);
                for item in code[end + 1..close].split(',') {
                    let item = item.trim().split(" as ").next().unwrap_or("").trim();
                    if !item.is_empty()
                        && item
                            .chars()
                            .all(|c| c.is_alphanumeric() || c == '_' || c == ':')
                    {
                        out.push(format!("{head}::{item}"));
                    }
                }
            }
            out.push(head);
        }
    }
    // `use child::X;`: a path relative to the current module (a child module's items).
    for stmt in code.split(';') {
        let stmt = stmt.trim();
        let rest = ["use ", "pub use ", "pub(crate) use ", "pub(super) use "]
            .iter()
            .find_map(|p| stmt.strip_prefix(p));
        let Some(rest) = rest else { continue };
        let first = rest.split("::").next().unwrap_or("");
        let relative = !matches!(first, "crate" | "super" | "self")
            && first.chars().all(|c| c.is_ascii_lowercase() || c == '_')
            && rest.contains("::");
        if relative {
            for p in paths_in(&format!("self::{rest}")) {
                out.push(p);
            }
        }
    }
    out
}

struct Crate {
    files: Vec<String>,
    /// Module path → file.
    modules: BTreeMap<Vec<String>, String>,
    /// A name re-exported at the crate root → the module path it comes from.
    root_names: BTreeMap<String, Vec<String>>,
    code: BTreeMap<String, String>,
}

fn read_crate() -> Crate {
    let mut files = Vec::new();
    rust_files(&src_dir(), &mut files);
    let mut modules = BTreeMap::new();
    let mut code = BTreeMap::new();
    for f in &files {
        modules.insert(module_of(f), f.clone());
        let text = std::fs::read_to_string(src_dir().join(f)).expect("readable source");
        code.insert(f.clone(), code_of(&text));
    }
    // `pub use a::b::{X, Y};` and `pub use a::b::X;` at the root: X comes from a::b.
    let mut root_names = BTreeMap::new();
    let lib = code["lib.rs"].replace('\n', " ");
    for stmt in lib.split(';') {
        let stmt = stmt.trim();
        let Some(rest) = stmt.strip_prefix("pub use ") else {
            continue;
        };
        let (prefix, names): (&str, Vec<&str>) = match rest.split_once("::{") {
            Some((p, list)) => (
                p,
                list.trim_end_matches('}')
                    .split(',')
                    .map(str::trim)
                    .collect(),
            ),
            None => match rest.rsplit_once("::") {
                Some((p, n)) => (p, vec![n]),
                None => continue,
            },
        };
        let module: Vec<String> = prefix.split("::").map(String::from).collect();
        for n in names.into_iter().filter(|n| !n.is_empty()) {
            root_names.insert(n.to_string(), module.clone());
        }
    }
    Crate {
        files,
        modules,
        root_names,
        code,
    }
}

impl Crate {
    /// The file a path found in `file` leads to: the longest module prefix, after resolving
    /// `crate`, `super`, `self` and the root's re-exports. `None` outside the crate.
    fn resolve(&self, file: &str, path: &str) -> Option<String> {
        let mut segs: Vec<String> = path.split("::").map(String::from).collect();
        let mut base: Vec<String> = match segs[0].as_str() {
            "crate" => Vec::new(),
            "self" | "super" => module_of(file),
            _ => return None,
        };
        if segs[0] != "crate" {
            while segs.first().map(String::as_str) == Some("super") {
                base.pop();
                segs.remove(0);
            }
            if segs.first().map(String::as_str) == Some("self") {
                segs.remove(0);
            }
        } else {
            segs.remove(0);
        }
        // A name re-exported at the root stands for its module.
        if base.is_empty() {
            if let Some(first) = segs.first() {
                if let Some(m) = self.root_names.get(first) {
                    let mut full = m.clone();
                    if !self.modules.contains_key(&{
                        let mut x = m.clone();
                        x.push(first.clone());
                        x
                    }) {
                        segs.remove(0);
                    }
                    full.extend(segs);
                    segs = full;
                }
            }
        }
        let full: Vec<String> = base.into_iter().chain(segs).collect();
        (0..=full.len())
            .rev()
            .find_map(|n| self.modules.get(&full[..n]).cloned())
    }

    /// The files each file imports (itself and the crate root left out).
    fn edges(&self) -> BTreeMap<String, BTreeSet<String>> {
        let mut out = BTreeMap::new();
        for f in &self.files {
            let mut to = BTreeSet::new();
            for p in paths_in(&self.code[f]) {
                if let Some(t) = self.resolve(f, &p) {
                    if &t != f && t != "lib.rs" {
                        to.insert(t);
                    }
                }
            }
            out.insert(f.clone(), to);
        }
        out
    }
}

/// Strongly connected components with more than one file (Tarjan's algorithm).
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct T<'a> {
        e: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a str) {
        let i = t.index.len();
        t.index.insert(v, i);
        t.low.insert(v, i);
        t.stack.push(v);
        t.on.insert(v);
        for w in &t.e[v] {
            let w = w.as_str();
            if !t.index.contains_key(w) {
                visit(t, w);
                let lw = t.low[w];
                let lv = t.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if t.on.contains(w) {
                let iw = t.index[w];
                let lv = t.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if t.low[v] == t.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(w);
                comp.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                t.out.push(comp);
            }
        }
    }
    let mut t = T {
        e: edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !t.index.contains_key(v.as_str()) {
            visit(&mut t, v.as_str());
        }
    }
    t.out
}

fn folder(file: &str) -> &str {
    file.split_once('/').map_or("", |(f, _)| f)
}

#[test]
fn the_parser_sees_imports_and_circles() {
    // The checks below are only as good as the parser: it must find a circle it is shown.
    let code = code_of("use crate::a::{b::C, D};\n// crate::x::Y\n#[cfg(test)]\nmod tests { use crate::z; }\nfn f() { super::e::g(); }");
    let paths = paths_in(&code);
    assert!(paths.contains(&"crate::a::b::C".to_string()), "{paths:?}");
    assert!(paths_in("use child::{X, Y};").contains(&"self::child::X".to_string()));
    assert!(paths.contains(&"crate::a::D".to_string()), "{paths:?}");
    assert!(paths.contains(&"super::e::g".to_string()), "{paths:?}");
    assert!(
        !paths.iter().any(|p| p.contains("x::Y") || p.contains("z")),
        "{paths:?}"
    );
    let mut e = BTreeMap::new();
    e.insert("a.rs".to_string(), BTreeSet::from(["b.rs".to_string()]));
    e.insert("b.rs".to_string(), BTreeSet::from(["c.rs".to_string()]));
    e.insert("c.rs".to_string(), BTreeSet::from(["a.rs".to_string()]));
    e.insert("d.rs".to_string(), BTreeSet::from(["a.rs".to_string()]));
    assert_eq!(
        circles(&e),
        vec![vec!["a.rs".to_string(), "b.rs".into(), "c.rs".into()]]
    );
    // And the real crate: the world's files import the model's.
    let c = read_crate();
    let edges = c.edges();
    assert!(
        edges["world/mod.rs"].contains("model/desc.rs"),
        "{:?}",
        edges["world/mod.rs"]
    );
    assert!(edges["step/mod.rs"].iter().any(|t| t.starts_with("step/")));
    assert!(
        edges["grid/mod.rs"].contains("grid/rows.rs"),
        "{:?}",
        edges["grid/mod.rs"]
    );
}

#[test]
fn folders_import_one_way() {
    let c = read_crate();
    let mut wrong = Vec::new();
    for (from, to) in c.edges() {
        for t in to {
            let (f, g) = (folder(&from), folder(&t));
            let allowed = match f {
                "model" => g == "model",
                "body" | "grid" => g != "world" && g != "step",
                _ => true,
            };
            if !allowed {
                wrong.push(format!("{from} -> {t}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the folders' order: {wrong:#?}"
    );
}

#[test]
fn no_import_circle_outside_the_step() {
    let c = read_crate();
    let bad: Vec<_> = circles(&c.edges())
        .into_iter()
        .filter(|comp| comp.len() > 4 || comp.iter().any(|f| folder(f) != "step"))
        .collect();
    assert!(bad.is_empty(), "import circles: {bad:#?}");
}

/// `collide-world` reads no file: no `std::fs`, `fs::`, `File` or `read_to_string` in the
/// non-test code of any file (comments and `#[cfg(test)]` items left out).
#[test]
fn the_world_does_no_file_io() {
    // The check finds file I/O when there is some.
    assert!(uses_file_io(&code_of("use std::fs;\nfn f() {}")));
    assert!(!uses_file_io(&code_of(
        "fn f() {}\n#[cfg(test)]\nmod tests { fn g() { std::fs::read(\"x\"); } }"
    )));
    let c = read_crate();
    let io: Vec<_> = c
        .files
        .iter()
        .filter(|f| uses_file_io(&c.code[*f]))
        .collect();
    assert!(io.is_empty(), "file I/O in collide-world: {io:?}");
}

fn uses_file_io(code: &str) -> bool {
    ["std::fs", "fs::", "File::", "read_to_string", "OpenOptions"]
        .iter()
        .any(|w| code.contains(w))
}

#[test]
fn impl_world_only_in_the_world_and_step_folders() {
    let c = read_crate();
    let outside: Vec<_> = c
        .files
        .iter()
        .filter(|f| !matches!(folder(f), "world" | "step"))
        .filter(|f| {
            c.code[*f]
                .lines()
                .any(|l| l.trim_start().starts_with("impl World") || l.contains("> World {"))
        })
        .collect();
    assert!(
        outside.is_empty(),
        "`impl World` outside world/ and step/: {outside:?}"
    );
}

/// Where `code` tells a mover's kind by its index: a comparison of an index with the ball
/// count (`m < nb`, `j >= self.nb()`, `nb > m`), index arithmetic with it (`nb + k`,
/// `m - nb`) or the old table of rectangle movers (`dyn_rects`). Ranges over the balls
/// (`0..nb`) are not kind tests.
fn kind_by_index(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (n, line) in code.lines().enumerate() {
        let l: String = line.chars().filter(|c| !c.is_whitespace()).collect();
        let ident = |c: char| c.is_alphanumeric() || c == '_';
        let hit = ["self.nb()", "nb"].iter().any(|count| {
            l.match_indices(count).any(|(at, _)| {
                let (before, after) = (&l[..at], &l[at + count.len()..]);
                let prev = before.chars().next_back();
                let next = after.chars().next();
                let whole = !prev.is_some_and(|c| ident(c) || c == '.')
                    && !next.is_some_and(|c| ident(c) || c == '(');
                let op_before = !before.ends_with("..")
                    && !before.ends_with("->")
                    && !before.ends_with("=>")
                    && (before.ends_with('<')
                        || before.ends_with('>')
                        || before.ends_with("<=")
                        || before.ends_with(">=")
                        || before.ends_with('+')
                        || before.ends_with('-'));
                let op_after = ['<', '>', '+', '-'].iter().any(|&c| after.starts_with(c));
                whole && (op_before || op_after)
            })
        }) || l.contains("dyn_rects")
            // The ball count compared with an index, spelled out.
            || ["<self.balls.len()", ">=self.balls.len()"]
                .iter()
                .any(|p| l.contains(p));
        if hit {
            found.push(format!("{}: {}", n + 1, line.trim()));
        }
    }
    found
}

#[test]
fn the_kind_test_sees_index_comparisons() {
    for bad in [
        "if m < nb {",
        "let k = self.scratch.dyn_rects[m - nb] as usize;",
        "if j >= self.nb() {",
        "let j = nb + k;",
        "(m < self.nb()).then(|| 1)",
        "let per_axis = m >= self.balls.len();",
    ] {
        assert_eq!(kind_by_index(bad).len(), 1, "{bad}");
    }
    for fine in [
        "for i in 0..self.nb() {",
        "for m in 0..nb {",
        "let nb = self.nb();",
        "if self.is_ball(m) {",
        "let nbr = x < nbig;",
        "self.ball_filter.resize(self.balls.len() - 1, F);",
    ] {
        assert!(kind_by_index(fine).is_empty(), "{fine}");
    }
}

#[test]
fn a_movers_kind_is_its_tag_not_its_index() {
    let c = read_crate();
    let found: Vec<String> = c
        .files
        .iter()
        .flat_map(|f| {
            kind_by_index(&c.code[f])
                .into_iter()
                .map(move |l| format!("{f}:{l}"))
        })
        .collect();
    assert!(
        found.is_empty(),
        "a mover's kind told by its index (use `World::mover` / `World::is_ball`): {found:#?}"
    );
}

/// The public names: what the crate root exports, and the top-level `pub` items of the public
/// modules (`limits`, `rng`), one `module::name` a line, sorted.
fn public_names(c: &Crate) -> Vec<String> {
    let mut out = BTreeSet::new();
    let mut facades = Vec::new();
    for (name, module) in &c.root_names {
        out.insert(name.clone());
        let mut m = module.clone();
        m.push(name.clone());
        if c.modules.contains_key(&m) {
            facades.push((name.clone(), m));
        }
    }
    for line in c.code["lib.rs"].lines() {
        if let Some(m) = line.trim().strip_prefix("pub mod ") {
            let m = m.trim_end_matches(';').to_string();
            out.insert(m.clone());
            facades.push((m.clone(), vec![m]));
        }
    }
    for (shown, module) in facades {
        let file = &c.modules[&module];
        // Top-level statements and item heads: a `pub use` may span lines.
        let top: String = c.code[file]
            .lines()
            .filter(|l| {
                !l.starts_with(' ') || l.starts_with("    ") && !l.trim_start().starts_with("pub")
            })
            .collect::<Vec<_>>()
            .join("\n");
        for line in c.code[file].lines().filter(|l| l.starts_with("pub ")) {
            let words: Vec<&str> = line.split_whitespace().collect();
            let name = match words.get(1).copied().unwrap_or("") {
                "fn" | "const" | "struct" | "enum" | "type" | "trait" | "static" | "mod" => {
                    words.get(2).copied()
                }
                _ => None,
            };
            if let Some(n) = name {
                let n: String = n
                    .chars()
                    .take_while(|ch| ch.is_alphanumeric() || *ch == '_')
                    .collect();
                out.insert(format!("{shown}::{n}"));
            }
        }
        for stmt in top.split(';') {
            let Some(rest) = stmt.trim_start().strip_prefix("pub use ") else {
                continue;
            };
            let rest = rest.replace(char::is_whitespace, "");
            let names: Vec<String> = match rest.split_once("::{") {
                Some((_, list)) => list
                    .trim_end_matches('}')
                    .split(',')
                    .map(String::from)
                    .collect(),
                None => rest
                    .rsplit("::")
                    .next()
                    .map(String::from)
                    .into_iter()
                    .collect(),
            };
            for n in names.into_iter().filter(|n| !n.is_empty()) {
                out.insert(format!("{shown}::{n}"));
            }
        }
    }
    out.into_iter().collect()
}

#[test]
fn the_public_api_is_the_reviewed_list() {
    let c = read_crate();
    let names = public_names(&c);
    let list_path = src_dir().join("../public-api.txt");
    let text = std::fs::read_to_string(&list_path).unwrap_or_default();
    let listed: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect();
    let added: Vec<_> = names.iter().filter(|n| !listed.contains(n)).collect();
    let removed: Vec<_> = listed.iter().filter(|n| !names.contains(n)).collect();
    assert!(
        added.is_empty() && removed.is_empty(),
        "the public API differs from {}: new {added:?}, gone {removed:?}\nthe names now:\n{}",
        list_path.display(),
        names.join("\n")
    );
    for tuning in [
        "REST_TIME",
        "EMBED_SLACK",
        "SLEEP_CONTACTS",
        "MAX_SPAWN_FAILS_IN_A_ROW",
        "sleep_speed",
        "touch_tolerance",
    ] {
        assert!(
            !names
                .iter()
                .any(|n| n == tuning || n.ends_with(&format!("::{tuning}"))),
            "tuning internal `{tuning}` is public"
        );
    }
    // Nor game constants: BricksBeater's layout is `collide_scene::level`'s, the arena
    // benchmark's `collide_scenes`'.
    for game in [
        "PADDLE_GAP",
        "PADDLE_WIDTH",
        "PADDLE_THICKNESS",
        "BALL_SPEED",
        "BALL_RADIUS",
        "BELOW_MAP",
        "DEFAULT_BALLS",
        "SPAWN_SEED",
        "CELL",
        "ARENA_SIZE",
        "ARENA_BALLS_PER_TILE",
        "arena_scene",
    ] {
        assert!(
            !names
                .iter()
                .any(|n| n == game || n.ends_with(&format!("::{game}"))),
            "game constant `{game}` is public"
        );
    }
}

/// The variants of `pub enum Event` in model/event.rs: each variant's text (name and fields).
fn event_variants() -> Vec<String> {
    let text = std::fs::read_to_string(src_dir().join("model/event.rs")).expect("event.rs");
    let code = code_of(&text);
    let start = code.find("pub enum Event {").expect("the Event enum") + "pub enum Event {".len();
    let (mut depth, mut cur, mut out) = (0_i32, String::new(), Vec::new());
    for ch in code[start..].chars() {
        match ch {
            '{' | '(' => depth += 1,
            '}' | ')' if depth == 0 => break,
            '}' | ')' => depth -= 1,
            _ => {}
        }
        if ch == ',' && depth == 0 {
            out.push(std::mem::take(&mut cur).trim().to_owned());
        } else {
            cur.push(ch);
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_owned());
    }
    out
}

#[test]
fn every_contact_is_one_event_variant() {
    let variants = event_variants();
    assert!(variants.len() >= 10, "{variants:?}");
    assert!(
        variants.iter().any(|v| v == "Contact(Contact)"),
        "no `Contact(Contact)` variant: {variants:?}"
    );
    // A contact carries a point, a normal and an impact speed: only `Contact` may.
    let contacts: Vec<_> = variants
        .iter()
        .filter(|v| v.contains("point:") && v.contains("normal:") && v.contains("speed:"))
        .collect();
    assert!(
        contacts.is_empty(),
        "contact variants besides `Contact`: {contacts:?}"
    );
}

/// The library files (under `crates/`) whose non-test code names a `ShapeKind` variant.
fn shape_kind_matches() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out = Vec::new();
    let mut stack = vec![root.join("crates")];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for p in entries.filter_map(Result::ok).map(|e| e.path()) {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if p.is_dir() {
                if !matches!(name, "target" | "tests" | "benches" | "examples") {
                    stack.push(p);
                }
            } else if name.ends_with(".rs") && name != "tests.rs" {
                let text = std::fs::read_to_string(&p).expect("readable source");
                if code_of(&text).contains("ShapeKind::") {
                    let rel = p.strip_prefix(&root).unwrap_or(&p);
                    out.push(rel.to_string_lossy().replace('\\', "/"));
                }
            }
        }
    }
    out.sort();
    out
}

#[test]
fn a_shape_kind_is_told_apart_only_in_its_own_module_and_the_loaders() {
    let allowed = |f: &str| {
        f == "crates/world/src/body/shape.rs"
            || f == "crates/world/src/model/shape_desc.rs"
            || f.starts_with("crates/scene/src/")
            || f.starts_with("crates/scene-wire/src/")
            || f.starts_with("crates/maps/src/")
    };
    let files = shape_kind_matches();
    assert!(
        files.iter().any(|f| f == "crates/world/src/body/shape.rs"),
        "the scan sees the shape's module: {files:?}"
    );
    let outside: Vec<_> = files.iter().filter(|f| !allowed(f)).collect();
    assert!(outside.is_empty(), "ShapeKind matched in {outside:?}");
}
