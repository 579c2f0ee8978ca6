//! Fuzz target `everything`: a world mixing every feature (tiles, slope and sensor cells,
//! segments, polylines with repeated and collinear points, circles, polygons, sensor
//! circles, flippers pressed and released at random, static, kinematic, dynamic and sensor
//! rectangles, layers and masks, gravity up to the limit in any direction, restitution 0 to 10,
//! sleep, ball–ball, a contact hook with random legal answers) built from the fuzzer's bytes
//! and stepped up to 40 times with 1 and 2 threads and from a snapshot. The checks (finite,
//! nothing inside static geometry, no energy gain without a source, same bits with 1 and 2
//! threads and after a restore) are in `src/everything.rs`, shared with the property test
//! `tests/it/everything.rs`.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = collide_fuzz::everything::run(data) {
        panic!("{e}");
    }
});
