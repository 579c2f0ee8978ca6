//! Locating fields for errors: the line and dotted field path of a value the TOML parser
//! refused.

use std::ops::Range;
use std::path::Path;

/// The text between `prefix` and the next backquote in `message`.
pub(super) fn backquoted_after<'m>(message: &'m str, prefix: &str) -> Option<&'m str> {
    let rest = &message[message.find(prefix)? + prefix.len()..];
    rest.find('`').map(|end| &rest[..end])
}

/// The dotted path of the key or value whose span is exactly `span` (the deepest one), else
/// (unless `exact_only`) of the smallest key or value containing `span.start`; empty if none.
pub(super) fn locate(text: &str, span: &Range<usize>, exact_only: bool) -> String {
    let Ok(doc) = toml::de::DeTable::parse(text) else {
        return String::new();
    };
    let mut found = Found {
        exact: None,
        containing: None,
    };
    walk_table(doc.get_ref(), "", span, 0, &mut found);
    let containing = if exact_only { None } else { found.containing };
    found
        .exact
        .or(containing)
        .map(|(_, p)| p)
        .unwrap_or_default()
}

pub(super) struct Found {
    /// (depth, path) of the deepest node whose span equals the error span.
    exact: Option<(usize, String)>,
    /// (span length, path) of the smallest node containing the error's start.
    containing: Option<(usize, String)>,
}

impl Found {
    pub(super) fn visit(
        &mut self,
        node: &Range<usize>,
        span: &Range<usize>,
        depth: usize,
        path: &str,
    ) {
        let deeper = !matches!(&self.exact, Some((d, _)) if depth < *d);
        if node == span && deeper {
            self.exact = Some((depth, path.to_owned()));
        }
        if node.start <= span.start && span.start < node.end {
            let len = node.end - node.start;
            let smaller = !matches!(&self.containing, Some((l, _)) if len > *l);
            if smaller {
                self.containing = Some((len, path.to_owned()));
            }
        }
    }
}

/// Depth guard for the walk (the TOML parser bounds nesting already).
pub(super) const MAX_WALK_DEPTH: usize = 64;

pub(super) fn walk_table(
    table: &toml::de::DeTable<'_>,
    prefix: &str,
    span: &Range<usize>,
    depth: usize,
    found: &mut Found,
) {
    if depth > MAX_WALK_DEPTH {
        return;
    }
    for (key, value) in table {
        let path = if prefix.is_empty() {
            key.get_ref().to_string()
        } else {
            format!("{prefix}.{}", key.get_ref())
        };
        found.visit(&key.span(), span, depth, &path);
        found.visit(&value.span(), span, depth, &path);
        walk_value(value.get_ref(), &path, span, depth + 1, found);
    }
}

pub(super) fn walk_value(
    value: &toml::de::DeValue<'_>,
    path: &str,
    span: &Range<usize>,
    depth: usize,
    found: &mut Found,
) {
    if depth > MAX_WALK_DEPTH {
        return;
    }
    match value {
        toml::de::DeValue::Table(t) => walk_table(t, path, span, depth, found),
        toml::de::DeValue::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let p = format!("{path}[{i}]");
                found.visit(&item.span(), span, depth, &p);
                walk_value(item.get_ref(), &p, span, depth + 1, found);
            }
        }
        _ => {}
    }
}

/// Best-effort field of a syntax error at 1-based `line`: the last table header at or above
/// the line (with the index of `[[array]]` tables) and the bare key at the start of the line.
pub(super) fn field_at_line(text: &str, line: usize) -> String {
    // One pass, no list of lines: the table in force and, per array table name, how many of
    // its headers came before.
    let mut arrays: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut table: Option<String> = None;
    let mut last = "";
    for l in text.split('\n').take(line) {
        last = l;
        match header(l) {
            Some((name, true)) => {
                let index = arrays.entry(name).or_insert(0);
                table = Some(format!("{name}[{index}]"));
                *index += 1;
            }
            Some((name, false)) => table = Some(name.to_owned()),
            None => {}
        }
    }
    let key = bare_key(last);
    // On the header line itself the header is the field.
    let on_header = header(last).is_some();
    match (table, key) {
        (Some(t), Some(k)) if !on_header => format!("{t}.{k}"),
        (Some(t), _) => t,
        (None, Some(k)) => k.to_owned(),
        (None, None) => "(document)".to_owned(),
    }
}

/// `Some((name, is_array))` if the line looks like a `[name]` or `[[name]]` header.
pub(super) fn header(line: &str) -> Option<(&str, bool)> {
    let t = line.trim();
    let (inner, is_array) = if let Some(rest) = t.strip_prefix("[[") {
        (rest.split("]]").next()?, true)
    } else {
        (t.strip_prefix('[')?.split(']').next()?, false)
    };
    let name = inner.trim();
    let first = name.chars().next()?;
    (first.is_ascii_alphabetic() || first == '_').then_some((name, is_array))
}

/// The bare (possibly dotted) key at the start of a `key = value` line.
pub(super) fn bare_key(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let end = t
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
        .unwrap_or(t.len());
    let (key, rest) = t.split_at(end);
    (!key.is_empty() && rest.trim_start().starts_with('=')).then_some(key)
}

/// The stem of a file name (`scenes/level_1.toml` → `level_1`), or the name itself.
pub(super) fn file_stem(file: &str) -> String {
    Path::new(file)
        .file_stem()
        .map_or_else(|| file.to_owned(), |s| s.to_string_lossy().into_owned())
}
