//! The page's fixed-frame run (`?frames=N&scene=S[&sandbox=1][&autoplay=1][&hold=KEYS]`),
//! natively: prints the same JSON report the page writes into `<pre id="state">`, so that CI
//! compares the browser's hashes with a native run of the same session (`.ci/web.sh`).
//!
//!   cargo run --release -p collide-web --example frames -- SCENE FRAMES [autoplay] [sandbox]
//!   cargo run --release -p collide-web --example frames -- platformer_script
//!
//! The second form is the page's `?platformer_script=1` (`collide_web::run_platformer_script`).

use collide_web::{run_frames, run_platformer_script, SessionOptions};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("platformer_script") {
        match run_platformer_script().map(|r| serde_json::to_string(&r)) {
            Ok(Ok(json)) => println!("{json}"),
            Ok(Err(e)) => {
                eprintln!("error: {e}");
                std::process::exit(1);
            }
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(1);
            }
        }
        return;
    }
    let (Some(scene), Some(frames)) = (args.first(), args.get(1)) else {
        eprintln!("usage: frames SCENE FRAMES [autoplay] [sandbox]");
        std::process::exit(2);
    };
    let Ok(frames) = frames.parse::<u64>() else {
        eprintln!("error: FRAMES must be a whole number, found {frames:?}");
        std::process::exit(2);
    };
    let options = SessionOptions {
        scene: scene.clone(),
        autoplay: args.iter().any(|a| a == "autoplay"),
        sandbox: args.iter().any(|a| a == "sandbox"),
        ..SessionOptions::default()
    };
    match run_frames(&options, frames, "") {
        Ok((_, report)) => match serde_json::to_string(&report) {
            Ok(json) => println!("{json}"),
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(1);
            }
        },
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}
