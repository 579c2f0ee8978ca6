//! Parsing a large scene in pieces, so that its memory stays a small multiple of its size.
//!
//! The `toml` crate lexes a whole document into a list of tokens and builds a tree of every
//! table with the span of every key and value: about 50 bytes of memory per byte of a scene of
//! many `[[ball]]` tables, and as much for a text of empty lines. A scene is mostly bodies, and
//! each `[[ball]]` or `[[rect]]` table stands alone, so a large scene is parsed as:
//! - its *main* part: the text with every run of `[[ball]]` / `[[rect]]` tables blanked out,
//!   and every run of whitespace, line ends and comments collapsed (spaces, then one line end).
//!   Both keep every byte offset, so the spans the parser reports, and the lines and columns
//!   computed from them in the original text, are those of a parse of the whole text;
//! - its bodies, in groups of whole tables of about [`GROUP_BYTES`], each collapsed the same
//!   way and parsed alone; their spans are shifted by the group's offset.
//!
//! The split needs no tree: one pass of `toml_parser`'s streaming lexer (no token list), which
//! knows strings (a `[[ball]]` inside a multi-line string is not a header) and brackets (a
//! header is a `[` at bracket depth 0, first on its line).

use std::ops::Range;

use toml_parser::lexer::TokenKind;
use toml_parser::Source;

/// About how many bytes of body tables are parsed at once.
pub(crate) const GROUP_BYTES: usize = 16 * 1024;

/// A scene's text split for parsing (see the module docs).
pub(crate) struct Pieces {
    /// The main part: as long as the text, bodies blanked, insignificant runs collapsed.
    pub(crate) main: String,
    /// Groups of whole body tables, in text order: byte ranges of the text.
    pub(crate) groups: Vec<Range<usize>>,
}

/// What [`scan`] found: the collapsed text, and the byte offsets where each body table's
/// header starts and where each run of body tables ends.
struct Scan {
    out: Vec<u8>,
    body_starts: Vec<usize>,
    runs: Vec<Range<usize>>,
}

/// One pass of the lexer over `text`: collapses runs of whitespace, line ends and comments
/// (in a copy of the same length), and finds the runs of top-level `[[ball]]` / `[[rect]]`
/// tables. `None` when the text does not lex as expected (unbalanced brackets): the caller
/// then parses the whole text, which reports the problem.
fn scan(text: &str) -> Option<Scan> {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let mut depth: i64 = 0;
    // No significant token yet on the current line (at depth 0): a `[` here opens a header.
    let mut line_start = true;
    // The current run of insignificant tokens: its start, and whether it holds a line end.
    let mut run: Option<(usize, bool)> = None;
    // A header being read: its start, the number of `[` that opened it, its name, its depth.
    let mut header: Option<(usize, usize, String)> = None;
    let mut body_starts = Vec::new();
    let mut runs: Vec<Range<usize>> = Vec::new();
    let mut body_run: Option<usize> = None;
    let flush = |out: &mut Vec<u8>, run: &mut Option<(usize, bool)>, end: usize| {
        if let Some((start, newline)) = run.take() {
            out[start..end].fill(b' ');
            if newline {
                out[end - 1] = b'\n';
            }
        }
    };
    for token in Source::new(text).lex() {
        let span = token.span();
        let (start, end) = (span.start(), span.end());
        let kind = token.kind();
        match kind {
            TokenKind::Whitespace | TokenKind::Comment | TokenKind::Newline => {
                let nl = kind == TokenKind::Newline;
                match &mut run {
                    Some((_, seen)) => *seen |= nl,
                    None => run = Some((start, nl)),
                }
                if nl && depth == 0 && header.is_none() {
                    line_start = true;
                }
                continue;
            }
            TokenKind::Eof => break,
            _ => {}
        }
        flush(&mut out, &mut run, start);
        if let Some((h_start, opened, name)) = &mut header {
            match kind {
                TokenKind::LeftSquareBracket if name.is_empty() && depth == 1 => {
                    *opened += 1;
                    depth += 1;
                }
                TokenKind::RightSquareBracket => {
                    depth -= 1;
                    if depth == 0 {
                        let is_body = *opened == 2 && (name == "ball" || name == "rect");
                        let h_start = *h_start;
                        if is_body {
                            body_starts.push(h_start);
                            body_run.get_or_insert(h_start);
                        } else if let Some(s) = body_run.take() {
                            runs.push(s..h_start);
                        }
                        header = None;
                    }
                }
                _ => name.push_str(&text[start..end]),
            }
            continue;
        }
        match kind {
            TokenKind::LeftSquareBracket if depth == 0 && line_start => {
                header = Some((start, 1, String::new()));
                depth = 1;
            }
            TokenKind::LeftSquareBracket | TokenKind::LeftCurlyBracket => depth += 1,
            TokenKind::RightSquareBracket | TokenKind::RightCurlyBracket => {
                depth -= 1;
                if depth < 0 {
                    return None;
                }
            }
            _ => {}
        }
        line_start = false;
    }
    flush(&mut out, &mut run, bytes.len());
    if header.is_some() || depth != 0 {
        return None;
    }
    if let Some(s) = body_run {
        runs.push(s..bytes.len());
    }
    Some(Scan {
        out,
        body_starts,
        runs,
    })
}

/// `text` with its runs of whitespace, line ends and comments collapsed (same length, same
/// offsets of everything else). `None` as for [`split`].
pub(crate) fn collapse(text: &str) -> Option<String> {
    String::from_utf8(scan(text)?.out).ok()
}

/// Splits a scene's text (see the module docs); `None` when the lexer finds it malformed.
pub(crate) fn split(text: &str) -> Option<Pieces> {
    let Scan {
        mut out,
        body_starts,
        runs,
    } = scan(text)?;
    let mut groups = Vec::new();
    for run in &runs {
        // Blank the run in the main part: it holds whole lines (it starts at a header, first
        // on its line, and ends before the next header or at the end).
        out[run.clone()].fill(b' ');
        if text.as_bytes()[run.clone()].contains(&b'\n') {
            out[run.end - 1] = b'\n';
        }
        // Whole tables, about GROUP_BYTES at a time.
        let mut start = run.start;
        for &s in body_starts
            .iter()
            .filter(|&&s| s > run.start && s < run.end)
        {
            if s - start >= GROUP_BYTES {
                groups.push(start..s);
                start = s;
            }
        }
        groups.push(start..run.end);
    }
    Some(Pieces {
        main: String::from_utf8(out).ok()?,
        groups,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_are_found_and_blanked_keeping_every_offset() {
        let text = "name = \"x\" # a comment\n\n\n[world]\nsize = [\n  10,\n  20,\n]\n\n[[ball]]\npos = [1, 2]\nradius = 1\n\n[[rect]]\nmin = [0, 0]\nmax = [1, 1]\n[step]\ndt = 0.5\n[[ball]]\npos = [3, 4]\nradius = 2\n";
        let p = split(text).unwrap();
        assert_eq!(p.main.len(), text.len());
        // Significant bytes outside the bodies keep their places.
        for key in [
            "name = \"x\"",
            "[world]",
            "size = [",
            "10,",
            "[step]",
            "dt = 0.5",
        ] {
            let at = text.find(key).unwrap();
            assert_eq!(&p.main[at..at + key.len()], key);
        }
        assert!(!p.main.contains("ball") && !p.main.contains("rect") && !p.main.contains('#'));
        // Two runs of bodies: [[ball]] + [[rect]] up to [step], and the last [[ball]].
        let groups: Vec<&str> = p.groups.iter().map(|g| &text[g.clone()]).collect();
        assert_eq!(groups.len(), 2);
        assert!(groups[0].starts_with("[[ball]]") && groups[0].ends_with("max = [1, 1]\n"));
        assert!(groups[1].starts_with("[[ball]]\npos = [3, 4]"));
        // The main part parses to the same tables as the text without its bodies.
        let main: toml::Table = toml::from_str(&p.main).unwrap();
        assert_eq!(main["step"]["dt"].as_float(), Some(0.5));
        assert!(main.get("ball").is_none());
    }

    #[test]
    fn a_header_inside_a_string_or_an_array_is_no_header() {
        let text = "name = '''\n[[ball]]\n'''\n[world]\nsize = [1, 2]\nrows = [\n[1],\n]\n";
        let p = split(text).unwrap();
        assert!(p.groups.is_empty());
        assert!(p.main.contains("[[ball]]"));
        // Unbalanced brackets: left to the whole parse.
        assert!(split("[world\nsize = 1\n").is_none());
        assert!(split("a = ]\n").is_none());
    }

    #[test]
    fn long_runs_of_bodies_are_grouped_by_whole_tables() {
        let mut text = String::from("[world]\nsize = [1, 1]\n");
        for i in 0..10_000 {
            text.push_str(&format!("[[ball]]\npos = [{i}, 0]\nradius = 1\n\n"));
        }
        let p = split(&text).unwrap();
        assert!(p.groups.len() > 3, "{}", p.groups.len());
        let mut end = p.groups[0].start;
        for g in &p.groups {
            assert_eq!(g.start, end, "groups are contiguous");
            assert!(text[g.clone()].starts_with("[[ball]]"));
            assert!(g.len() < GROUP_BYTES + 100);
            end = g.end;
        }
        assert_eq!(end, text.len());
        // 16 MiB of line ends collapse to spaces and one line end.
        let blank = "\n".repeat(1 << 20);
        let c = collapse(&blank).unwrap();
        assert_eq!(c.len(), blank.len());
        assert_eq!(c.matches('\n').count(), 1);
    }

    /// A large scene as a person would write it: a header, comments and blank lines, bodies
    /// of both kinds interleaved, a table after the bodies, more bodies.
    fn big(balls: usize, bad: Option<(usize, &str)>) -> String {
        let mut s =
            String::from("# a large scene\nname = \"big\"\n\n[world]\nsize = [5000.0, 5000.0]\n\n");
        for i in 0..balls {
            let (x, y) = (10.0 + (i % 300) as f64 * 7.0, 10.0 + (i / 300) as f64 * 7.0);
            match bad {
                Some((at, line)) if at == i => s.push_str(&format!("[[ball]]\npos = [{x:?}, {y:?}]\n{line}\n\n")),
                _ => s.push_str(&format!("[[ball]]\npos = [{x:?}, {y:?}]  # ball {i}\nvel = [120.5, -30.25]\nradius = 3.0\n\n")),
            }
            if i % 1000 == 999 {
                s.push_str(&format!("[[rect]]\nmin = [{x:?}, 4000.0]\nmax = [{:?}, 4010.0]\nkind = \"kinematic\"\nvel = [1.0, 0.0]\n\n", x + 5.0));
            }
            if i == balls / 2 {
                s.push_str("[step]\ndt = 0.01\n\n");
            }
        }
        s
    }

    #[test]
    fn a_large_scene_in_pieces_is_the_scene_parsed_whole() {
        let text = big(20_000, None);
        let p = split(&text).unwrap();
        assert!(p.groups.len() > 10);
        let (whole, pieces) = crate::parse::parse_both(&text);
        let (whole, pieces) = (whole.unwrap(), pieces.unwrap());
        assert_eq!(whole.balls.len(), 20_000);
        assert_eq!(whole.rects.len(), 20);
        assert_eq!(format!("{whole:?}"), format!("{pieces:?}"));
    }

    /// An error anywhere (a bad value, an unknown key, a syntax error, in any group) is the
    /// same error, at the same line and field, as from the whole parse.
    #[test]
    fn errors_in_pieces_are_the_whole_parse_s_errors() {
        for (at, line) in [
            (17_345, "radius = -3.0"),
            (9_999, "radius = 3.0\ncolour = 1"),
            (15_000, "radius = 3.0 3.0"),
            (0, "radius = [1"),
            (19_999, "radius = 3.0\n[[balls]]"),
        ] {
            let text = big(20_000, Some((at, line)));
            let (whole, pieces) = crate::parse::parse_both(&text);
            let (whole, pieces) = (whole.unwrap_err(), pieces.unwrap_err());
            assert_eq!(whole.to_string(), pieces.to_string(), "{line}");
        }
    }
}
