//! `docs/performance.md`: its skeleton, the sections the tools rewrite, and the machine facts.
//!
//! The file is made of hand-written text and generated sections, each between
//! `<!-- BEGIN name -->` and `<!-- END name -->` lines. A tool replaces only the inside of its
//! own section ([`splice`]); `collide-compare` owns `collide-compare`,
//! `collide-compare-plinko` (`--scene plinko`) and `collide-compare-characters`
//! (`characters`), `bench/perf.sh` the
//! `collide-bench`, `instructions` and `two-cores` sections. The generated text states what
//! was measured and how (commit, source fingerprint, machine, command), not when.

use std::process::Command;

/// The file written when `docs/performance.md` does not exist yet.
pub const SKELETON: &str = "# Performance\n\n\
<!-- BEGIN collide-compare -->\n<!-- END collide-compare -->\n\n\
<!-- BEGIN collide-compare-plinko -->\n<!-- END collide-compare-plinko -->\n\n\
<!-- BEGIN collide-compare-characters -->\n<!-- END collide-compare-characters -->\n\n\
<!-- BEGIN collide-bench -->\n<!-- END collide-bench -->\n\n\
<!-- BEGIN instructions -->\n<!-- END instructions -->\n\n\
<!-- BEGIN two-cores -->\n<!-- END two-cores -->\n";

/// Replaces the inside of section `name` of `text` by `body` (a trailing newline is added when
/// missing). A missing section is appended at the end.
#[must_use]
pub fn splice(text: &str, name: &str, body: &str) -> String {
    let begin = format!("<!-- BEGIN {name} -->");
    let end = format!("<!-- END {name} -->");
    let mut body = body.to_owned();
    if !body.ends_with('\n') {
        body.push('\n');
    }
    if let Some(b) = text.find(&begin) {
        let inner = b + begin.len();
        if let Some(e) = text[inner..].find(&end) {
            let e = inner + e;
            return format!("{}\n{}{}", &text[..inner], body, &text[e..]);
        }
    }
    let mut out = text.to_owned();
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&format!("\n{begin}\n{body}{end}\n"));
    out
}

fn command_output(cmd: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(cmd).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// Facts about the machine and the source measured.
#[derive(Clone, Debug)]
pub struct Machine {
    /// `lscpu`'s model name.
    pub cpu: String,
    /// `nproc --all`: processors of the machine.
    pub nproc_all: String,
    /// `nproc`: processors this process may run on (1 when pinned).
    pub nproc: String,
    /// `/proc/loadavg`'s first three fields when the run started.
    pub load_start: String,
    /// `git rev-parse --short HEAD`, with `+ uncommitted changes` when the tree is dirty.
    pub commit: String,
    /// The first 12 hex digits of the SHA-256 of every `.rs` file under
    /// `crates/collide-core/src` and `crates/world/src` (concatenated in byte order of their
    /// paths): identifies the step's source when the tree has uncommitted changes.
    /// `bench/perf.sh` prints the same fingerprint.
    pub source: String,
    /// `rustc --version`, its first two words (`rustc 1.95.0`).
    pub rustc: String,
}

/// The load average (1, 5, 15 minutes), or `?`.
#[must_use]
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "?".to_owned())
}

impl Machine {
    /// Reads the facts (each `?` when its command is missing).
    #[must_use]
    pub fn probe() -> Machine {
        let q = |o: Option<String>| o.unwrap_or_else(|| "?".to_owned());
        let cpu = command_output("lscpu", &[]).and_then(|s| {
            s.lines()
                .find(|l| l.trim_start().starts_with("Model name:"))
                .map(|l| l.split_once(':').map_or("", |x| x.1).trim().to_owned())
        });
        let commit = command_output("git", &["rev-parse", "--short", "HEAD"]).map(|c| {
            let dirty =
                command_output("git", &["status", "--porcelain"]).is_some_and(|s| !s.is_empty());
            if dirty {
                format!("{c} + uncommitted changes")
            } else {
                c
            }
        });
        Machine {
            cpu: q(cpu),
            nproc_all: q(command_output("nproc", &["--all"])),
            nproc: q(command_output("nproc", &[])),
            load_start: load_average(),
            commit: q(commit),
            source: q(source_fingerprint()),
            rustc: q(command_output("rustc", &["--version"])
                .map(|v| v.split_whitespace().take(2).collect::<Vec<_>>().join(" "))),
        }
    }
}

/// The fingerprint of the geometry and world sources (see [`Machine::source`]).
#[must_use]
pub fn source_fingerprint() -> Option<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new("sh")
        .arg("-c")
        .arg(SOURCE_FINGERPRINT_SH)
        .current_dir(root)
        .output()
        .ok()?;
    let s = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    (out.status.success() && s.len() == 12).then_some(s)
}

/// The shell command of [`source_fingerprint`] (run from the workspace root).
pub const SOURCE_FINGERPRINT_SH: &str =
    "find crates/collide-core/src crates/world/src -name '*.rs' | LC_ALL=C sort | xargs cat \
     | sha256sum | cut -c1-12";

/// The version of `package` in the workspace's `Cargo.lock` (read at run time), if listed.
#[must_use]
pub fn locked_version(package: &str) -> Option<String> {
    let lock = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.lock");
    let text = std::fs::read_to_string(lock).ok()?;
    let key = format!("name = \"{package}\"");
    let mut lines = text.lines();
    while let Some(l) = lines.next() {
        if l.trim() == key {
            let v = lines.next()?.trim().strip_prefix("version = \"")?;
            return Some(v.trim_end_matches('"').to_owned());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splice_replaces_only_its_section() {
        let t = splice(SKELETON, "collide-bench", "table\n");
        assert!(t.contains("<!-- BEGIN collide-bench -->\ntable\n<!-- END collide-bench -->"));
        assert!(t.contains("<!-- BEGIN collide-compare -->\n<!-- END collide-compare -->"));
        let t2 = splice(&t, "collide-bench", "other");
        assert!(t2.contains("<!-- BEGIN collide-bench -->\nother\n<!-- END collide-bench -->"));
        assert!(!t2.contains("table"));
        let t3 = splice("# x\n", "new", "body");
        assert_eq!(t3, "# x\n\n<!-- BEGIN new -->\nbody\n<!-- END new -->\n");
    }
}
