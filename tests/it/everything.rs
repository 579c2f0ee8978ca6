//! Every feature fuzzed together, as a property test on a fixed seed set: random worlds
//! mixing tiles, slope and sensor cells, segments, polylines (with repeated and collinear
//! points), circles, polygons, sensor circles, flippers pressed and released at random,
//! static, kinematic, dynamic and sensor rectangles, layers and masks, gravity of any
//! direction up to the limit, restitution 0 to 10, sleep on and off, a contact hook with
//! random legal answers, a snapshot restored at a random step, 1 and 2 threads. The
//! generator and the checks are those of the fuzz target `everything`
//! (`fuzz/src/everything.rs`, included here), which `docs/reliability.md` describes.
//!
//! Run: `cargo test --release -p collide-tests --test it everything::`; the cases are the same
//! on every run (fixed seed; `PROPTEST_RNG_SEED=<n>` and `PROPTEST_CASES=<n>` explore).

use proptest::prelude::*;

#[allow(dead_code)]
#[path = "../../fuzz/src/everything.rs"]
mod generator;

/// Cases (`PROPTEST_CASES` overrides).
const CASES: u32 = 64;
/// Seed of the case generator (`PROPTEST_RNG_SEED` overrides).
const SEED: u64 = 38;

fn config() -> ProptestConfig {
    let mut c = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        c.cases = CASES;
    }
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        c.rng_seed = proptest::test_runner::RngSeed::Fixed(SEED);
    }
    // A failure is kept as an input in `fuzz/regressions/everything/` and, once fixed, as a
    // test in `fuzz_findings.rs`, not in a seed file.
    c.failure_persistence = None;
    c
}

proptest! {
    #![proptest_config(config())]

    /// No panic, finite states, nothing inside static geometry, no energy from nowhere,
    /// the same bits with 1 and 2 threads and after a restore.
    #[test]
    fn every_feature_together_keeps_the_invariants(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let result = generator::run(&bytes);
        prop_assert!(result.is_ok(), "{:?} for {:?}", result, bytes);
    }
}

/// The inputs of the target's fixed findings (`fuzz/known/everything/`, findings E1, E3, E4, E6,
/// E7, E8, E9's grazing corner, E10, E11, E12, E13, E14, E15, E21, E22, E23, E24, E25 and
/// E27 of `docs/reliability.md`, E5's inputs that no longer gain energy, a box pinch that took
/// minutes a step, two sliding contacts on a turning flipper that took minutes a step (E2),
/// and two false alarms of the box check, E26 among them) keep every invariant.
#[test]
fn fixed_findings_keep_the_invariants() {
    for name in [
        "point_ball_nan_in_step_0",
        "ball_inside_static_geometry_after_step_8",
        "restored_world_differs_after_step_9",
        "box_inside_static_geometry_after_step_0",
        "box_left_inside_static_geometry_after_step_0",
        "box_larger_than_its_world",
        "box_pushed_through_a_closed_wall_by_a_kinematic_rect",
        "box_left_in_a_static_rect_with_no_room_clear_of_a_box",
        "snapshot_of_a_fast_body_refused",
        "restored_world_differs_at_a_grazing_corner",
        "box_inside_a_flipper_pumped_past_the_limits",
        "box_passes_a_slope_diagonal_in_a_wedge",
        "ball_inside_a_wall_pinched_by_a_flipper",
        "ball_inside_static_geometry_after_step_3",
        "ball_inside_static_geometry_after_step_4_slow",
        "restored_world_differs_after_step_25_slow",
        "restored_world_differs_after_a_box_met_a_held_flipper",
        "ball_inside_static_geometry_after_step_2",
        // E5's inputs that keep every invariant: boxes built overlapping a shape (pushed out
        // at the first step), on a slanted segment, stopped in wedges (also driven fast into
        // a narrow one), and bodies hopping round a circle shape's curved side.
        "energy_gain_in_step_0",
        "energy_gain_in_step_32",
        "energy_gain_box_inside_a_circle",
        "energy_gain_box_inside_a_circle_2",
        "energy_gain_box_on_a_slanted_segment",
        "energy_gain_box_on_a_slanted_segment_2",
        "energy_gain_box_at_the_event_bound_against_a_shape",
        "energy_gain_box_in_a_corner",
        "energy_gain_box_in_a_corner_2",
        "energy_gain_box_in_a_wedge_of_a_segment_and_a_wall",
        "energy_gain_box_slides_into_a_wedge_of_a_segment_and_a_wall",
        "energy_gain_in_step_15",
        "energy_gain_box_hopping_under_a_circle_shape",
        "energy_gain_in_step_1",
        "energy_gain_ball_hopping_in_a_wedge_of_a_shape_and_a_wall",
        "energy_gain_box_driven_into_a_narrow_wedge_of_a_segment_and_the_floor",
        "ball_inside_static_geometry_after_step_15",
        "ball_held_by_the_top_wall_pressed_into_a_circles_side",
        "energy_gain_ball_in_a_wedge_of_a_circle_and_a_segment",
        "box_as_tall_as_its_world_pushed_into_a_wall_cell",
        "box_built_around_a_slope_cell_left_overlapping_it",
        "slow_box_pinch_property_seed_27",
        "ball_left_inside_a_flipper_after_the_event_bound",
        // Sliding contacts on a turning flipper, whose steps crept by ulps (E2).
        "slow_ball_carried_near_a_flippers_pivot",
        "slow_box_sliding_on_a_flippers_end",
        "slow_box_embedded_at_a_flippers_pivot",
        // A hook that answers from the first body, at two boxes' contact after a restore
        // (E28).
        "restored_world_differs_after_a_box_pair_contact_step_3",
    ] {
        let path = format!(
            "{}/../fuzz/known/everything/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(generator::run(&bytes), Ok(()), "{name}");
    }
}
