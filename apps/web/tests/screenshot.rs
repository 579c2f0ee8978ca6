//! The page's frame checked pixel by pixel: level 1's bricks and walls in their colours at
//! their cells, the paddle, the ball waiting on it (`collide_frontend::check_level_start`).
//!
//! - With `COLLIDE_WEB_SCREENSHOT=FILE.png` (set by `.ci/web.sh`, which loaded the site's
//!   `?frames=30` page in headless Chromium, 960 × 720, and took its screenshot: the canvas
//!   alone at the page's origin), the test checks that file, which must exist.
//! - Without it (a plain `cargo test`), the same session draws the same 30 frames into its
//!   RGBA buffer offscreen, and the same checks run on it.

use std::path::Path;

use collide_frontend::{check_level_start, RgbImage};
use collide_web::{run_frames, SessionOptions};

#[test]
fn level_1_page_shows_its_bricks_paddle_and_ball() {
    let img = match std::env::var_os("COLLIDE_WEB_SCREENSHOT") {
        Some(shot) => RgbImage::read_png(Path::new(&shot))
            .unwrap_or_else(|e| panic!("the page's screenshot: {e}")),
        None => {
            let (mut session, _) = run_frames(&SessionOptions::default(), 30, "").unwrap();
            let (w, h) = session.size();
            RgbImage::from_rgba8(session.draw(), w, h).unwrap()
        }
    };
    assert_eq!((img.width, img.height), (960, 720));
    let report = check_level_start(&img, 1).unwrap_or_else(|e| panic!("{e}"));
    // Level 1: 315 bricks and 247 walls, all seen; the paddle (80 units at 1.5+ pixels a
    // unit) and the ball.
    assert_eq!((report.bricks, report.walls), (315, 247));
    assert!(report.ball_px >= 10 && report.paddle_px as f64 >= 80.0 * 1.5);
}
