//! collide's cross-crate integration tests, one binary: each module is a capability (its own
//! `//!` line says what it covers). The allocation-counting tests (`tests/tests/alloc.rs`,
//! `tests/tests/limits.rs`) are binaries of their own, because each installs a counting global
//! allocator that measures the whole process, and so is the peak-memory test
//! (`tests/tests/parse_memory.rs`), which reads the whole process's resident size.

mod ball_push_out;
mod box_flippers;
mod box_push_out;
mod box_shape_rest;
mod box_shapes;
mod box_sleep;
mod box_slopes;

mod build;
mod character;
mod character_pair;
mod character_push;
mod code_size;
mod curved_sides;
mod doc_paths;
mod domains;
mod entry_points;
mod everything;
mod exact_fits;
mod face_ends;
mod flipper_squeeze;
mod flippers;
mod fuzz_findings;
mod galperin;
mod gravity;
mod gravity_scale;
mod hooks;
mod impact_speed;
mod invariance;
mod invariants;
mod layering;
mod layers;
mod levels;
mod materials;
mod one_way;
mod pinball;
mod platform_maths;
mod polygon;
mod properties;
mod push_out;
mod query_index;
mod query_shapes;
mod rect_gravity;
mod rect_sensors;
mod replay;
mod replay_proof;
mod seeds;
mod sensor_kinds;
mod sensors;
mod shape_rest;
mod shapes;
mod sleep;
mod slopes;
mod snapshot;
mod squeeze;
mod surface;
mod threads;
mod uniform;
mod wedges;
mod world_api;
mod world_layout;
