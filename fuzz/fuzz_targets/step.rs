//! Fuzz target `step`: a small world built from the fuzzer's bytes (world size and walls, a grid
//! of up to 16 × 16 cells, up to 4 rectangles of every kind, up to 16 balls, the step
//! settings), stepped up to 50 times while the remaining bytes play a game's part between
//! steps (setting a kinematic rectangle's velocity, placing or removing a tile, teleporting a
//! ball).
//!
//! Every number stays within what a scene file may hold (`limits::MAX_COORD`), with extreme
//! values (0, 1e-9, the smallest subnormal, ±1e9) drawn often. Checked after every step: no
//! panic; every ball and rectangle is finite; a ball that fits in the world has its centre
//! inside every closed wall (to the push-out tolerance, 1e-7); every ball is alive or reported
//! by one `BallLost` event. The logic is in `src/step.rs` (replayable outside libFuzzer).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| collide_fuzz::step::run(data));
