//! Level 1 needs the player, and "play again": whole games run headless through
//! `Game::update`, one 1/60 s frame at a time.

use collide_game::{Game, Input, Options, Phase, RunSummary, Source};

const DT: f64 = 1.0 / 60.0;

fn launch() -> Input {
    Input {
        launch: true,
        ..Input::default()
    }
}

/// Runs level 1 for `seconds` after a launch, with `input(game)` each frame, and checks
/// at every frame that the level is not cleared and the lives never exceed the start.
/// Returns the most bricks broken in one game.
fn level_1_without_play(seconds: u32, input: impl Fn(&Game) -> Input) -> usize {
    let mut g = Game::level_1().unwrap();
    let bricks = g.status().bricks_left;
    assert_eq!(bricks, 315);
    let start_lives = g.options().lives;
    g.update(&launch(), DT);
    let mut most_broken = 0;
    for frame in 0..seconds * 60 {
        g.update(&input(&g), DT);
        let st = g.status();
        let b = g.breaker().unwrap();
        assert_eq!(b.level(), Some(1), "frame {frame}: {st:?}");
        assert!(
            !matches!(b.phase(), Phase::LevelCleared { .. }),
            "frame {frame}: {st:?}"
        );
        assert!(b.lives() <= start_lives, "frame {frame}: {st:?}");
        most_broken = most_broken.max(bricks - st.bricks_left);
    }
    most_broken
}

#[test]
fn level_1_is_not_cleared_without_the_player() {
    // Two minutes with no input after the launch: the volley is lost, the rain of the
    // launch breaks at most its 8 balls' worth, and the next ball waits for a launch.
    let broken = level_1_without_play(120, |_| Input::default());
    assert!(broken <= 8, "{broken} bricks");
    // Two minutes of launches only, the paddle never moving: games are lost and start
    // again, no game comes near clearing the level.
    let broken = level_1_without_play(120, |_| launch());
    assert!(broken < 100, "{broken} bricks");
}

#[test]
fn the_autopilot_clears_level_1() {
    // The counterpart: the same level played (the built-in autopilot chases the balls)
    // is cleared, so the rain fed by returns keeps the level winnable.
    let mut g = Game::level_1().unwrap();
    let mut cleared_at = None;
    for frame in 0..120 * 60 {
        let input = g.autopilot();
        g.update(&input, DT);
        if g.breaker().unwrap().level() == Some(2) {
            cleared_at = Some(frame);
            break;
        }
    }
    assert!(cleared_at.is_some(), "{:?}", g.status());
}

#[test]
fn play_again_starts_at_level_1_with_the_last_games_summary() {
    // Level 2 with one life: the autopilot plays 10 s (it breaks bricks), then the paddle
    // waits at the left wall until every ball is lost.
    let options = Options {
        lives: 1,
        ..Options::default()
    };
    let mut g = Game::new(Source::Level(2), options).unwrap();
    assert_eq!(g.last_run(), None);
    assert_eq!(g.summary_line(), None);
    let mut steps = 0u32;
    for _ in 0..600 {
        let input = g.autopilot();
        steps += g.update(&input, DT).steps;
    }
    assert_eq!(g.breaker().unwrap().phase(), Phase::Playing);
    let away = Input {
        pointer_x: Some(0.0),
        ..Input::default()
    };
    while g.breaker().unwrap().phase() != Phase::GameOver {
        steps += g.update(&away, DT).steps;
        assert!(steps < 120 * 60, "{:?}", g.status());
    }
    let score = g.breaker().unwrap().score();
    assert!(score >= 10, "bricks were broken: {:?}", g.status());
    let summary = g.run();
    // The game time is the steps run until the game ended, 1/60 s each.
    assert_eq!(
        summary,
        RunSummary {
            score,
            level: Some(2),
            seconds: f64::from(steps) * DT,
            won: false,
        }
    );
    // The game over screen shows it; waiting does not add time.
    for _ in 0..30 {
        g.update(&Input::default(), DT);
    }
    assert_eq!(g.run(), summary);
    assert_eq!(g.summary_line(), Some(summary.line()));
    let t = summary.seconds.round() as u64;
    assert_eq!(
        summary.line(),
        format!("SCORE {score}  LEVEL 2  TIME {}:{:02}", t / 60, t % 60)
    );
    // Play again: level 1, full lives, score 0, and the summary of the game that ended.
    g.update(&launch(), DT);
    let b = g.breaker().unwrap();
    assert_eq!(*g.source(), Source::Level(1));
    assert_eq!((b.level(), b.lives(), b.score()), (Some(1), 1, 0));
    assert_eq!(b.phase(), Phase::Serving);
    assert_eq!(g.last_run(), Some(summary));
    assert_eq!(
        g.summary_line(),
        Some(format!("LAST GAME: {}", summary.line()))
    );
    assert_eq!(g.run().level, Some(1));
    // Once the new game is under way, the line goes; the summary stays readable.
    g.update(&launch(), DT);
    assert_eq!(g.breaker().unwrap().phase(), Phase::Playing);
    assert_eq!(g.summary_line(), None);
    assert_eq!(g.last_run(), Some(summary));
}
