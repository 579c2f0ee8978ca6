//! `collide soak`: the JSON line, its checks (finite state, event-bound stops, resident
//! memory) and that the random input is a function of the seed.

use std::process::Command;

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_collide");

fn soak(args: &[&str]) -> Value {
    let out = Command::new(BIN)
        .arg("soak")
        .args(args)
        .output()
        .expect("the collide binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "collide soak {args:?} failed: {stderr}"
    );
    let text = String::from_utf8(out.stdout).expect("UTF-8 output");
    assert_eq!(text.lines().count(), 1, "one JSON line: {text}");
    serde_json::from_str(&text).expect("soak prints one JSON object")
}

fn u(v: &Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("`{key}` is not an unsigned integer in {v}"))
}

/// The keys every soak line has, with the right types, and the memory read from /proc.
fn check_keys(v: &Value, scene: &str, steps: u64, seed: u64) {
    assert_eq!(v["scene"], scene);
    assert_eq!(u(v, "steps"), steps);
    assert_eq!(u(v, "seed"), seed);
    for key in [
        "balls_end",
        "balls_asleep",
        "non_finite_steps",
        "iteration_limits",
        "iteration_limit_steps",
        "events",
        "balls_lost",
    ] {
        u(v, key);
    }
    assert!(v["seconds"].as_f64().is_some_and(|s| s >= 0.0), "{v}");
    assert!(v["max_step_ms"].as_f64().is_some_and(|s| s >= 0.0), "{v}");
    assert!(
        u(v, "iteration_limit_steps") <= u(v, "iteration_limits"),
        "{v}"
    );
    assert!(u(v, "iteration_limit_steps") <= steps, "{v}");
    if cfg!(target_os = "linux") {
        for key in ["rss_start_kib", "rss_warm_kib", "rss_end_kib"] {
            assert!(u(v, key) > 0, "`{key}` read from /proc/self/status: {v}");
        }
    }
}

#[test]
fn pinball_soak_plays_the_table_with_random_input() {
    let v = soak(&["pinball", "--steps", "20000", "--seed", "3"]);
    check_keys(&v, "pinball", 20_000, 3);
    assert_eq!(u(&v, "non_finite_steps"), 0, "{v}");
    assert_eq!(u(&v, "iteration_limits"), 0, "{v}");
    // The random buttons shoot balls into the table and lose some: the run is played.
    assert!(u(&v, "events") > 0, "{v}");
    assert!(u(&v, "balls_lost") > 0, "{v}");
    assert!(u(&v, "balls_end") <= 1, "one ball at a time: {v}");
    // The same seed gives the same game; another seed another one.
    let again = soak(&["pinball", "--steps", "20000", "--seed", "3"]);
    assert_eq!(u(&again, "events"), u(&v, "events"));
    assert_eq!(u(&again, "balls_lost"), u(&v, "balls_lost"));
    let other = soak(&["pinball", "--steps", "20000", "--seed", "4"]);
    assert_ne!(
        (u(&other, "events"), u(&other, "balls_lost")),
        (u(&v, "events"), u(&v, "balls_lost")),
        "{other} vs {v}"
    );
}

#[test]
fn plinko_soak_keeps_every_ball_in_the_closed_board() {
    let v = soak(&["plinko", "--steps", "120", "--balls", "200", "--seed", "9"]);
    check_keys(&v, "plinko", 120, 9);
    assert_eq!(u(&v, "non_finite_steps"), 0, "{v}");
    assert_eq!(u(&v, "balls_end"), 200, "a closed board loses no ball: {v}");
    assert_eq!(u(&v, "balls_lost"), 0, "{v}");
    assert!(u(&v, "balls_asleep") <= 200, "{v}");
    assert!(u(&v, "events") > 0, "balls fall onto pegs: {v}");
}

#[test]
fn every_prints_the_progress_then_the_whole_run() {
    let out = Command::new(BIN)
        .args(["soak", "pinball", "--steps", "2500", "--every", "1000"])
        .output()
        .expect("the collide binary runs");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("UTF-8 output");
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let steps: Vec<u64> = lines.iter().map(|v| u(v, "steps")).collect();
    assert_eq!(steps, [1000, 2000, 2500], "{text}");
    for v in &lines {
        check_keys(v, "pinball", u(v, "steps"), 1);
    }
    // Counts only grow; the last line is the run without --every.
    assert!(u(&lines[0], "events") <= u(&lines[1], "events"));
    let whole = soak(&["pinball", "--steps", "2500"]);
    assert_eq!(u(&whole, "events"), u(&lines[2], "events"));
}

#[test]
fn soak_refuses_a_restitution_outside_0_1() {
    let out = Command::new(BIN)
        .args(["soak", "plinko", "--restitution", "1.5"])
        .output()
        .expect("the collide binary runs");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("not in [0, 1]"), "{stderr}");
}
