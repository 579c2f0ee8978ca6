//! A replay proves itself: it verifies only when its final state hash is recorded and matches
//! (docs/replay-format.md, "Verifying"). A file with its hash records removed proves nothing
//! and must not verify, whatever its inputs say.
//!
//! Made from the committed fixture `tests/fixtures/replay_level2.replay` (level 2 played by
//! the autopilot for 1200 steps, 21 hashes), and the same session in format 1.

use std::path::PathBuf;

use collide_game::{Replay, ReplayError};

fn fixture_text() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/replay_level2.replay");
    std::fs::read_to_string(path).unwrap()
}

fn is_hash(line: &str) -> bool {
    line.starts_with(r#"{"hash":"#)
}

/// The text without its `hash` records.
fn without_hashes(text: &str) -> String {
    text.lines()
        .filter(|l| !is_hash(l))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The text with the pointer of the `n`-th `steps` record that has one moved 40 units.
fn with_an_input_edited(text: &str, n: usize) -> String {
    let mut seen = 0;
    text.lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            if let Some(x) = v["steps"]["input"]["pointer_x"].as_f64() {
                seen += 1;
                if seen == n {
                    v["steps"]["input"]["pointer_x"] = (x + 40.0).into();
                    return v.to_string() + "\n";
                }
            }
            format!("{l}\n")
        })
        .collect()
}

#[test]
fn the_fixture_verifies_as_it_is() {
    let r = Replay::parse(&fixture_text()).unwrap();
    assert_eq!(r.verify().unwrap().hashes_checked, 21);
}

#[test]
fn a_format_1_file_without_its_hash_lines_does_not_verify_either() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/replay_level2_v1.replay");
    let text = std::fs::read_to_string(path).unwrap();
    assert_eq!(
        Replay::parse(&text)
            .unwrap()
            .verify()
            .unwrap()
            .hashes_checked,
        21
    );
    let stripped: String = text
        .lines()
        .filter(|l| !l.starts_with("h "))
        .map(|l| format!("{l}\n"))
        .collect();
    let r = Replay::parse(&stripped).unwrap();
    assert_eq!((r.steps(), r.hashes()), (1200, 0));
    let e = r.verify().unwrap_err();
    assert!(matches!(e, ReplayError::NoFinalHash { steps: 1200 }), "{e}");
}

#[test]
fn hash_lines_removed_and_an_input_edited_do_not_verify() {
    let text = fixture_text();
    let stripped = without_hashes(&text);
    assert!(!stripped.contains("\n{\"hash\""));
    // The stripped file still parses: it is the verification that must say no.
    let r = Replay::parse(&stripped).unwrap();
    assert_eq!((r.steps(), r.hashes()), (1200, 0));
    let e = r.verify().unwrap_err();
    assert!(matches!(e, ReplayError::NoFinalHash { steps: 1200 }), "{e}");

    // Inputs edited as well: still refused, never verified.
    for n in [1, 100, 700] {
        let edited = with_an_input_edited(&stripped, n);
        assert_ne!(edited, stripped);
        let r = Replay::parse(&edited).unwrap();
        let e = r.verify().unwrap_err();
        assert!(
            matches!(e, ReplayError::NoFinalHash { .. }),
            "edit {n}: {e}"
        );
        assert!(
            e.to_string().contains("nothing proves the final state"),
            "{e}"
        );
    }
}

#[test]
fn with_only_the_final_hash_an_edited_input_is_found() {
    let text = fixture_text();
    // Keep the last `hash` record, remove the others, then edit an early input.
    let last_h = text.lines().rfind(|l| is_hash(l)).unwrap().to_owned();
    let only_final: String = text
        .lines()
        .filter(|l| !is_hash(l) || *l == last_h)
        .map(|l| format!("{l}\n"))
        .collect();
    let r = Replay::parse(&only_final).unwrap();
    assert_eq!(r.hashes(), 1);
    assert_eq!(
        r.verify().unwrap().hashes_checked,
        1,
        "the final hash alone proves the run"
    );
    let edited = Replay::parse(&with_an_input_edited(&only_final, 5)).unwrap();
    match edited.verify() {
        Err(ReplayError::HashMismatch { step, .. }) => assert_eq!(step, 1200),
        other => panic!("an edited input verified: {other:?}"),
    }
}
