//! Runs the built `collide` binary and checks its output.

use std::path::PathBuf;
use std::process::{Command, Output};

use collide_world::Event;
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_collide");

fn collide(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("the collide binary runs")
}

/// Runs a command that must succeed and returns its stdout.
fn ok(args: &[&str]) -> String {
    let out = collide(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "collide {args:?} failed: {stderr}");
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Runs `collide run ...` and parses its JSON.
fn run(args: &[&str]) -> Value {
    let mut all = vec!["run"];
    all.extend_from_slice(args);
    serde_json::from_str(&ok(&all)).expect("run prints one JSON object")
}

/// Runs a command that must fail with `code`; returns stderr.
fn fails(args: &[&str], code: i32) -> String {
    let out = collide(args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(code), "collide {args:?}: {stderr}");
    assert!(
        !stderr.contains("panicked"),
        "collide {args:?} panicked: {stderr}"
    );
    stderr
}

fn tmp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("collide-cli-tests");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn u(v: &Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("`{key}` is not an unsigned integer in {v}"))
}

fn f(v: &Value, key: &str) -> f64 {
    v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("`{key}` is not a number in {v}"))
}

const KEYS: [&str; 21] = [
    "scene",
    "steps",
    "dt",
    "ball_ball",
    "balls_start",
    "balls_alive",
    "balls_asleep",
    "rects_asleep",
    "balls_lost",
    "embedded",
    "overlapping_pairs",
    "energy_start",
    "energy_end",
    "energy_max_rel_dev",
    "collisions",
    "bricks_destroyed",
    "bricks_left",
    "iteration_limits",
    "unembedded",
    "state_hash",
    "ms_per_step",
];

#[test]
fn run_on_a_builtin_level_reports_every_key() {
    let v = run(&["level_1", "--steps", "30"]);
    for k in KEYS {
        assert!(v.get(k).is_some(), "missing `{k}` in {v}");
    }
    assert!(v.get("balls").is_none() && v.get("rects").is_none());
    assert_eq!(v["scene"], "level_1");
    assert_eq!(u(&v, "steps"), 30);
    // dt is printed to 12 significant digits: 0.0166666666667.
    assert!((f(&v, "dt") - 1.0 / 60.0).abs() < 1e-13);
    assert_eq!(u(&v, "balls_start"), 1000);
    assert_eq!(u(&v, "balls_alive") + u(&v, "balls_lost"), 1000);
    // A BricksBeater level has ball-ball collisions off, and the JSON says why balls overlap.
    assert_eq!(v["ball_ball"], false);
    assert!(v["overlapping_pairs_note"]
        .as_str()
        .unwrap()
        .contains("--ball-ball on"));
    let collisions = v["collisions"].as_object().unwrap();
    assert_eq!(collisions.len(), Event::KINDS.len());
    for k in Event::KINDS {
        assert!(collisions[k].is_u64(), "collisions.{k} in {v}");
    }
    assert!(collisions["ball_tile"].as_u64().unwrap() > 0);
    assert_eq!(
        u(&v, "balls_lost"),
        collisions["ball_lost"].as_u64().unwrap()
    );
    assert_eq!(
        u(&v, "bricks_destroyed"),
        collisions["brick_destroyed"].as_u64().unwrap()
    );
    assert_eq!(
        u(&v, "bricks_destroyed") + u(&v, "bricks_left"),
        315,
        "level 1 has 315 bricks"
    );
    let hash = v["state_hash"].as_str().unwrap();
    assert_eq!(hash.len(), 16);
    assert!(hash.chars().all(|c| c.is_ascii_hexdigit()));
    assert!(f(&v, "ms_per_step") >= 0.0);
    assert!(f(&v, "energy_start") > 0.0);
    assert!(f(&v, "energy_max_rel_dev") >= 0.0);
}

#[test]
fn closed_indestructible_level_conserves_everything_and_is_deterministic() {
    let args = [
        "level_1",
        "--steps",
        "300",
        "--walls",
        "left,top,right,bottom",
        "--indestructible",
    ];
    let a = run(&args);
    let b = run(&args);
    assert_eq!(u(&a, "balls_lost"), 0);
    assert_eq!(u(&a, "balls_alive"), 1000);
    assert_eq!(u(&a, "embedded"), 0);
    assert_eq!(u(&a, "bricks_destroyed"), 0);
    assert!(f(&a, "energy_max_rel_dev") < 1e-9, "{a}");
    assert_eq!(a["state_hash"], b["state_hash"]);
    assert_eq!(a["collisions"], b["collisions"]);
    // A different spawn seed gives a different run.
    let c = run(&[&args[..], &["--seed", "2"]].concat());
    assert_ne!(a["state_hash"], c["state_hash"]);
}

#[test]
fn main_job_with_ball_ball_on_has_no_overlap_and_no_note() {
    // The README's main command on fewer steps: balls collide with each other, so no pair
    // may overlap and the JSON needs no note about overlaps.
    let v = run(&[
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../scenes/levels/level_1.dat"
        ),
        "--balls",
        "1000",
        "--steps",
        "200",
        "--walls",
        "left,top,right,bottom",
        "--indestructible",
        "--ball-ball",
        "on",
    ]);
    assert_eq!(v["ball_ball"], true);
    assert_eq!(u(&v, "overlapping_pairs"), 0, "{v}");
    assert_eq!(u(&v, "embedded"), 0);
    assert!(v.get("overlapping_pairs_note").is_none(), "{v}");
    assert!(v["collisions"]["ball_ball"].as_u64().unwrap() > 0);
    // Rounded for reading: 12 significant digits of the energy, 3 of its deviation.
    let e = v["energy_start"].to_string();
    let digits = e.chars().filter(char::is_ascii_digit).count();
    assert!(digits <= 12, "energy_start {e}");
    let dev = v["energy_max_rel_dev"].to_string();
    assert!(dev.len() <= "1.23e-15".len(), "energy_max_rel_dev {dev}");
}

#[test]
fn overrides_change_the_scene() {
    let v = run(&[
        "level_2",
        "--steps",
        "5",
        "--balls",
        "40",
        "--seed",
        "9",
        "--dt",
        "0.01",
        "--ball-ball",
        "on",
    ]);
    assert_eq!(u(&v, "balls_start"), 40);
    assert_eq!(f(&v, "dt"), 0.01);
    // No walls at all: balls leave, and every ball is either alive or lost.
    let v = run(&[
        "level_1", "--steps", "200", "--walls", "none", "--balls", "100",
    ]);
    assert!(u(&v, "balls_lost") > 0);
    assert_eq!(u(&v, "balls_alive") + u(&v, "balls_lost"), 100);
    // A scene without a spawn gets one.
    let base = run(&["seed002_billiards", "--steps", "1"]);
    let more = run(&["seed002_billiards", "--steps", "1", "--balls", "20"]);
    assert_eq!(u(&more, "balls_start"), u(&base, "balls_start") + 20);
    // Elastic billiards in a closed box: ball-ball collisions, energy kept, no overlap.
    let v = run(&["seed002_billiards", "--steps", "600"]);
    assert!(v["collisions"]["ball_ball"].as_u64().unwrap() > 0);
    assert!(f(&v, "energy_max_rel_dev") < 1e-9);
    assert_eq!(u(&v, "overlapping_pairs"), 0);
}

#[test]
fn dump_lists_every_ball_and_rect() {
    let v = run(&["seed003_rects", "--steps", "10", "--dump"]);
    let balls = v["balls"].as_array().unwrap();
    assert_eq!(balls.len() as u64, u(&v, "balls_alive"));
    assert!(!balls.is_empty());
    let mut ids = std::collections::HashSet::new();
    for b in balls {
        assert!(ids.insert(b["id"].as_u64().unwrap()), "duplicate id");
        assert_eq!(b["pos"].as_array().unwrap().len(), 2);
        assert_eq!(b["vel"].as_array().unwrap().len(), 2);
        assert!(b["radius"].as_f64().unwrap() > 0.0);
    }
    let rects = v["rects"].as_array().unwrap();
    assert!(!rects.is_empty());
    for r in rects {
        assert!(r["id"].is_u64());
        let (min, max) = (r["min"].as_array().unwrap(), r["max"].as_array().unwrap());
        assert!(min[0].as_f64().unwrap() <= max[0].as_f64().unwrap());
        assert_eq!(r["vel"].as_array().unwrap().len(), 2);
        assert!(["static", "kinematic", "dynamic"].contains(&r["kind"].as_str().unwrap()));
    }
    let kinds: Vec<&str> = rects.iter().map(|r| r["kind"].as_str().unwrap()).collect();
    assert!(
        kinds.contains(&"static") && kinds.contains(&"kinematic") && kinds.contains(&"dynamic")
    );
    // A level with 1000 balls: all of them.
    let v = run(&["level_3", "--steps", "3", "--dump", "--walls", "all"]);
    assert_eq!(v["balls"].as_array().unwrap().len(), 1000);
}

#[test]
fn trace_prints_one_line_per_step() {
    let out = ok(&["trace", "level_1", "--steps", "7", "--indestructible"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 7);
    let mut seen_tile = false;
    for (k, line) in lines.iter().enumerate() {
        let v: Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["step"].as_u64(), Some(k as u64));
        for e in v["events"].as_array().unwrap() {
            let kind = e["kind"].as_str().unwrap();
            assert!(Event::KINDS.contains(&kind), "{kind}");
            if kind == "ball_tile" {
                seen_tile = true;
                assert!(e["ball"].is_u64());
                assert_eq!(e["cell"].as_array().unwrap().len(), 2);
                assert_eq!(e["point"].as_array().unwrap().len(), 2);
                assert_eq!(e["normal"].as_array().unwrap().len(), 2);
                let t = e["toi"].as_f64().unwrap();
                assert!((0.0..=1.0 / 60.0 + 1e-12).contains(&t));
                let feature = e["feature"].as_str().unwrap();
                assert!(
                    feature.starts_with("face_") || feature.starts_with("corner_"),
                    "{feature}"
                );
            }
        }
    }
    assert!(seen_tile, "1000 balls hit no tile in 7 steps?");
    // Destructible bricks: the trace names the brick and the body.
    let out = ok(&["trace", "level_1", "--steps", "30"]);
    let brick = out
        .lines()
        .flat_map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["events"]
                .as_array()
                .unwrap()
                .clone()
        })
        .find(|e| e["kind"] == "brick_destroyed")
        .expect("a brick is destroyed in 30 steps");
    assert_eq!(brick["brick"].as_str().unwrap().len(), 1);
    assert!(brick["by"]["ball"].is_u64());
}

const WALL: [u8; 4] = [163, 163, 162, 255];

fn decode(path: &PathBuf) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba);
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

fn pixel(img: &(u32, u32, Vec<u8>), x: u32, y: u32) -> [u8; 4] {
    let i = ((y * img.0 + x) * 4) as usize;
    img.2[i..i + 4].try_into().unwrap()
}

#[test]
fn render_writes_a_png_of_the_asked_size() {
    // Zoom 1: the level's 459 × 399 world, height from the aspect ratio.
    let path = tmp("level_1_zoom1.png");
    let out = ok(&[
        "render",
        "level_1",
        "--out",
        path.to_str().unwrap(),
        "--width",
        "459",
    ]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["width"].as_u64(), v["height"].as_u64()),
        (Some(459), Some(399))
    );
    let img = decode(&path);
    assert_eq!((img.0, img.1), (459, 399));
    // Cell (col, row) has its centre at (9 col + 4.5, 9 row + 4.5): (0, 0) and (0, 23) are walls.
    assert_eq!(pixel(&img, 4, 4), WALL);
    assert_eq!(pixel(&img, 4, 9 * 23 + 4), WALL);
    // Row 4, columns 2..5 are cyan bricks.
    assert_eq!(pixel(&img, 9 * 2 + 4, 9 * 4 + 4), [39, 253, 251, 255]);

    // Default width 960 and an explicit height: letterboxed.
    let path = tmp("level_1_box.png");
    ok(&[
        "render",
        "level_1",
        "--steps",
        "10",
        "--out",
        path.to_str().unwrap(),
        "--height",
        "500",
    ]);
    let img = decode(&path);
    assert_eq!((img.0, img.1), (960, 500));
    let scale = (960.0f64 / 459.0).min(500.0 / 399.0);
    let ox = (960.0 - 459.0 * scale) / 2.0;
    let oy = (500.0 - 399.0 * scale) / 2.0;
    assert!(ox > 100.0 && oy.abs() < 1e-9);
    for (col, row) in [(0.0, 0.0), (50.0, 0.0), (0.0, 23.0), (50.0, 23.0)] {
        let x = ((9.0 * col + 4.5) * scale + ox).floor() as u32;
        let y = ((9.0 * row + 4.5) * scale + oy).floor() as u32;
        assert_eq!(
            pixel(&img, x, y),
            WALL,
            "cell ({col}, {row}) at pixel ({x}, {y})"
        );
    }
    // The letterbox bars are black.
    assert_eq!(pixel(&img, 5, 250), [0, 0, 0, 255]);
    assert_eq!(pixel(&img, 955, 250), [0, 0, 0, 255]);
}

#[test]
fn scenes_lists_the_builtin_names() {
    let out = ok(&["scenes"]);
    let names: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    for n in ["level_1", "level_7", "arena", "seed000_room"] {
        assert!(names.contains(&n), "{n} missing from {out}");
    }
}

#[test]
fn errors_name_the_file_and_never_panic() {
    // A missing file.
    let missing = tmp("no_such_scene.toml");
    let _ = std::fs::remove_file(&missing);
    let e = fails(&["run", missing.to_str().unwrap()], 1);
    assert!(e.starts_with("error: "), "{e}");
    assert!(e.contains("no_such_scene.toml"), "{e}");
    let e = fails(
        &[
            "render",
            "nowhere/level_9.dat",
            "--out",
            tmp("x.png").to_str().unwrap(),
        ],
        1,
    );
    assert!(e.contains("level_9.dat"), "{e}");

    // A bad scene: the error names the file, the line and the field.
    let bad = tmp("bad_scene.toml");
    std::fs::write(&bad, "[world]\nsize = [64, -48]\n").unwrap();
    let e = fails(&["run", bad.to_str().unwrap()], 1);
    assert!(
        e.contains("bad_scene.toml") && e.contains("world.size"),
        "{e}"
    );
    let bad = tmp("bad_syntax.toml");
    std::fs::write(&bad, "[world\nsize = 3\n").unwrap();
    let e = fails(&["trace", bad.to_str().unwrap(), "--steps", "3"], 1);
    assert!(e.contains("bad_syntax.toml"), "{e}");
    let bad = tmp("ragged.dat");
    std::fs::write(&bad, "###\n#\n").unwrap();
    let e = fails(&["run", bad.to_str().unwrap()], 1);
    assert!(e.contains("ragged.dat"), "{e}");

    // An unknown name lists the built-in ones.
    let e = fails(&["run", "level_99"], 1);
    assert!(e.contains("level_99") && e.contains("level_1"), "{e}");

    // Values the world refuses.
    let e = fails(&["run", "level_1", "--dt=-1"], 1);
    assert!(e.contains("dt"), "{e}");
    let e = fails(&["run", "level_1", "--balls", "100000000"], 1);
    assert!(e.contains("balls"), "{e}");

    // A PNG that cannot be written.
    let e = fails(&["render", "level_1", "--out", "/nonexistent-dir/x.png"], 1);
    assert!(e.contains("/nonexistent-dir/x.png"), "{e}");

    // Usage errors: clap's exit code 2.
    fails(&["run", "level_1", "--walls", "up"], 2);
    fails(&["run", "level_1", "--ball-ball", "maybe"], 2);
    fails(&["run", "level_1", "--steps", "-3"], 2);
    fails(&["render", "level_1"], 2);
    fails(&["render", "level_1", "--out", "x.png", "--width", "0"], 2);
    fails(&["trace", "level_1"], 2);
    fails(&["frobnicate"], 2);
}

#[test]
fn record_then_replay_verifies_and_a_tampered_file_fails() {
    let file = tmp("level_2.replay");
    let f = file.to_str().unwrap();
    let rec: Value = serde_json::from_str(&ok(&[
        "record",
        "level_2",
        "--steps",
        "300",
        "--autoplay",
        "--hash-every",
        "50",
        "--out",
        f,
    ]))
    .unwrap();
    assert_eq!((u(&rec, "steps"), u(&rec, "hashes")), (300, 7));
    assert_eq!(rec["play"], "level 2");
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(u(&rec, "bytes"), text.len() as u64);
    assert!(text.starts_with("{\"format\":\"collide-replay\",\"version\":2,"));

    let rep: Value = serde_json::from_str(&ok(&["replay", f])).unwrap();
    assert_eq!((u(&rep, "steps"), u(&rep, "hashes_checked")), (300, 7));
    assert_eq!(rep["final_hash"], rec["final_hash"]);
    assert_eq!(rep["verified"], true);

    // The hash after step 150 changed: exit 1, the step named.
    let at = text.find("{\"hash\":{\"step\":150,\"hash\":\"").unwrap() + 28;
    let mut bad = text.clone();
    bad.replace_range(at..at + 16, "0000000000000000");
    let bad_file = tmp("level_2_bad.replay");
    std::fs::write(&bad_file, bad).unwrap();
    let e = fails(&["replay", bad_file.to_str().unwrap()], 1);
    let line = text[..at].matches('\n').count() + 1;
    assert!(
        e.contains("does not verify")
            && e.contains(&format!("line {line}: state hash differs after step 150")),
        "{e}"
    );

    // A truncated file: a parse error with its line.
    std::fs::write(&bad_file, &text[..text.len() / 2]).unwrap();
    let e = fails(&["replay", bad_file.to_str().unwrap()], 1);
    assert!(e.contains("line "), "{e}");
    // A missing file; a sandbox without input; usage errors.
    fails(&["replay", "/nonexistent-dir/x.replay"], 1);
    let sb = tmp("billiards.replay");
    let rec: Value = serde_json::from_str(&ok(&[
        "record",
        "seed002_billiards",
        "--steps",
        "120",
        "--out",
        sb.to_str().unwrap(),
    ]))
    .unwrap();
    assert_eq!(rec["play"], "scene");
    ok(&["replay", sb.to_str().unwrap()]);
    fails(&["record", "level_1", "--out", f], 2);
    fails(&["record", "level_1", "--steps", "0", "--out", f], 2);
    fails(&["replay"], 2);
    fails(
        &[
            "record",
            "level_1",
            "--steps",
            "5",
            "--out",
            f,
            "--hash-every",
            "0",
        ],
        2,
    );
}

#[test]
fn replay_convert_rewrites_a_format_1_file_in_the_current_format() {
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    let old = fixtures.join("replay_level2_v1.replay");
    let new = tmp("converted.replay");
    let rep: Value = serde_json::from_str(&ok(&[
        "replay",
        "convert",
        old.to_str().unwrap(),
        new.to_str().unwrap(),
    ]))
    .unwrap();
    assert_eq!(
        (u(&rep, "version"), u(&rep, "steps"), u(&rep, "hashes")),
        (2, 1200, 21)
    );
    // The converted file is the committed current-format fixture of the same session.
    let text = std::fs::read_to_string(&new).unwrap();
    assert_eq!(u(&rep, "bytes"), text.len() as u64);
    assert_eq!(
        text,
        std::fs::read_to_string(fixtures.join("replay_level2.replay")).unwrap()
    );
    let checked: Value = serde_json::from_str(&ok(&["replay", new.to_str().unwrap()])).unwrap();
    assert_eq!(checked["verified"], true);
    // Both formats verify as they are, to the same final hash.
    let v1: Value = serde_json::from_str(&ok(&["replay", old.to_str().unwrap()])).unwrap();
    assert_eq!(v1["final_hash"], checked["final_hash"]);
    // A broken record: the line and the field named, exit 1.
    let broken = tmp("broken.replay");
    std::fs::write(&broken, text.replacen("\"volley\":10", "\"volley\":-1", 1)).unwrap();
    let e = fails(&["replay", broken.to_str().unwrap()], 1);
    assert!(e.contains("line 4: options.volley: "), "{e}");
    fails(
        &[
            "replay",
            "convert",
            broken.to_str().unwrap(),
            new.to_str().unwrap(),
        ],
        1,
    );
    fails(&["replay", "convert", old.to_str().unwrap()], 2);
}
