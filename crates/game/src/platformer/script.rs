//! A scripted run of inputs that plays LDtk's platformer sample
//! (`assets/maps/ldtk/Typical_2D_platformer_example.ldtk`, its four levels in the file's
//! order, no balls) from the start to victory: run over the first level's gap (a mob below
//! bounces the player on) to its door; collect the second level's chest and go back into its
//! now open door; up the ladders of the third and the fourth level to the last chest. The
//! tests play it natively (`crates/game/tests/platformer.rs`) and the browser build plays it
//! in headless Chromium, to the same state hash.

use crate::input::StepInput;

/// The script: `(steps, input)` segments, each input held for that many steps of 1/60 s.
#[must_use]
pub fn sample_script() -> Vec<(u32, StepInput)> {
    let run = |d: i8| StepInput {
        run_dir: d,
        ..StepInput::default()
    };
    let jump = |d: i8| StepInput {
        run_dir: d,
        jump: true,
        ..StepInput::default()
    };
    let climb = |d: i8| StepInput {
        climb_dir: d,
        ..StepInput::default()
    };
    vec![
        // Level 1: run right over the gap to the door; level 2 begins.
        (125, run(1)),
        // Level 2: left, jumping up the ledges to the chest.
        (25, run(-1)),
        (45, jump(-1)),
        (2, run(-1)),
        (45, jump(-1)),
        (5, run(-1)),
        (30, jump(-1)),
        (30, run(-1)),
        // The chest collected, the locked door is open: back right into it.
        (10, run(1)),
        (20, jump(1)),
        // Level 3: up the ladder, out through the top. Level 4: up the ladder, left to the
        // chest.
        (200, climb(-1)),
        (30, run(-1)),
        (30, StepInput::default()),
    ]
}

/// The number of steps of [`sample_script`].
#[must_use]
pub fn sample_script_steps() -> u64 {
    sample_script().iter().map(|(n, _)| u64::from(*n)).sum()
}
