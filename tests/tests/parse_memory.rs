//! Parsing a scene holds at most a small multiple of its size in memory at once: measured as the
//! process's peak resident memory (Linux: `VmHWM` of `/proc/self/status`, reset through
//! `/proc/self/clear_refs` before each parse) above the resident memory when the parse starts.
//! One test in its own binary, so that nothing else runs in the process meanwhile.

use collide_scene::MAX_SCENE_BYTES;
use collide_world::Scene;

/// A `/proc/self/status` value in bytes.
#[cfg(target_os = "linux")]
fn status(key: &str) -> usize {
    let s = std::fs::read_to_string("/proc/self/status").expect("procfs");
    let kb: usize = s
        .lines()
        .find(|l| l.starts_with(key))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .expect("a VmHWM / VmRSS line");
    kb * 1024
}

/// The peak memory `f` adds to the process, in bytes.
#[cfg(target_os = "linux")]
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    // "5" resets the peak resident set size to the current one (proc(5)). Where that is not
    // allowed, the peak so far is the baseline (the text was built in one allocation, so it
    // is about the resident size anyway).
    let before = match std::fs::write("/proc/self/clear_refs", "5") {
        Ok(()) => status("VmRSS:"),
        Err(e) => {
            println!("cannot reset the peak ({e}): measuring above the peak so far");
            status("VmHWM:")
        }
    };
    let out = f();
    (out, status("VmHWM:").saturating_sub(before))
}

/// `balls` `[[ball]]` tables as a person would write them, built in one allocation.
fn scene(balls: usize) -> String {
    let mut s = String::with_capacity(70 * balls + 64);
    s.push_str("[world]\nsize = [100000.0, 100000.0]\n\n");
    for i in 0..balls {
        let (x, y) = (10.0 + (i % 300) as f64 * 7.0, 10.0 + (i / 300) as f64 * 7.0);
        s.push_str(&format!(
            "[[ball]]\npos = [{x:?}, {y:?}]\nvel = [120.5, -30.25]\nradius = 3.0\n\n"
        ));
    }
    s
}

fn parse(text: &str) -> Result<Scene, collide_scene::SceneError> {
    collide_scene::from_toml_str(text, "big.toml", &|_| Err(std::io::Error::other("none")))
}

#[cfg(target_os = "linux")]
#[test]
fn parsing_holds_a_small_multiple_of_the_text() {
    for balls in [20_000, 200_000] {
        let text = scene(balls);
        let (r, peak) = peak_of(|| parse(&text).map(|s| s.balls.len()));
        assert_eq!(r.unwrap(), balls);
        let ratio = peak as f64 / text.len() as f64;
        println!(
            "{balls} balls: {} bytes, peak {peak} ({ratio:.2}x)",
            text.len()
        );
        assert!(ratio < 10.0, "{ratio:.2}x the text");
    }
    // The worst text for the `toml` crate's own lexer: nothing but line ends (refused).
    let text = "\n".repeat(MAX_SCENE_BYTES as usize);
    let (r, peak) = peak_of(|| parse(&text));
    assert!(r.is_err());
    let ratio = peak as f64 / text.len() as f64;
    println!("16 MiB of line ends: peak {peak} ({ratio:.2}x)");
    assert!(ratio < 4.0, "{ratio:.2}x the text");
}
