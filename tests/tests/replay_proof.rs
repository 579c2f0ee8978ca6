//! A replay proves itself: it verifies only when its final state hash is recorded and matches
//! (docs/replay-format.md, "Verifying"). A file with its hash lines removed proves nothing and
//! must not verify, whatever its inputs say.
//!
//! Made from the committed fixture `tests/fixtures/replay_level2.replay` (level 2 played by
//! the autopilot for 1200 steps, 21 hashes).

use std::path::PathBuf;

use collide_game::{Replay, ReplayError};

fn fixture_text() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/replay_level2.replay");
    std::fs::read_to_string(path).unwrap()
}

/// The text without its `h` lines.
fn without_hashes(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with("h "))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The text with the pointer of the `n`-th `s` line that has one moved 40 units.
fn with_an_input_edited(text: &str, n: usize) -> String {
    let mut seen = 0;
    text.lines()
        .map(|l| {
            let mut w: Vec<String> = l.split(' ').map(str::to_owned).collect();
            if w.len() == 6 && w[0] == "s" && w[2] != "-" {
                seen += 1;
                if seen == n {
                    let x: f64 = w[2].parse().unwrap();
                    w[2] = format!("{:?}", x + 40.0);
                }
            }
            w.join(" ") + "\n"
        })
        .collect()
}

#[test]
fn the_fixture_verifies_as_it_is() {
    let r = Replay::parse(&fixture_text()).unwrap();
    assert_eq!(r.verify().unwrap().hashes_checked, 21);
}

#[test]
fn hash_lines_removed_and_an_input_edited_do_not_verify() {
    let text = fixture_text();
    let stripped = without_hashes(&text);
    assert!(!stripped.contains("\nh "));
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
    // Keep the last `h` line, remove the others, then edit an early input.
    let last_h = text
        .lines()
        .filter(|l| l.starts_with("h "))
        .last()
        .unwrap()
        .to_owned();
    let only_final: String = text
        .lines()
        .filter(|l| !l.starts_with("h ") || *l == last_h)
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
