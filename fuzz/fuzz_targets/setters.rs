//! Fuzz target `setters`: every entry point of the world's API (`World::new`, `add_ball`,
//! `set_ball_velocity`, `set_ball_position`, `add_rect`, `set_rect_velocity`, `set_rect_aabb`,
//! `set_config`) given the values the fuzzer finds, huge and odd ones (1e155, 1e200,
//! `f64::MAX`, infinities, NaN, ±1e9 and just past it) drawn often, with a few steps between
//! them. Checked: no panic; a value is accepted exactly when the scene format's bounds
//! (`collide_world::limits::Bound`) accept it, and refused naming its field; every ball and
//! rectangle finite after every step. The logic is in `setters_input.rs`, which
//! `tests/it/entry_points.rs` also runs on random inputs.

#![no_main]

use libfuzzer_sys::fuzz_target;

mod setters_input;

fuzz_target!(|data: &[u8]| setters_input::run(data));
