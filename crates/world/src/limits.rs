//! Hard limits that protect the process from hostile or mistaken input.
//!
//! Every limit is checked *before* the memory it guards is allocated: a scene or level that
//! asks for more is rejected with a typed error ([`crate::scene::SceneError`],
//! [`crate::level::LevelError`]) naming the file, line and field, never with a panic or an
//! out-of-memory abort. The numbers are far above anything an arcade game needs (the real
//! BricksBeater levels are 51 × 31 cells with at most 1024 balls) and small enough that the
//! largest accepted world fits in a few hundred MiB.

/// Most cells a tile grid may have (`cols * rows`): 2^24 = 16 777 216 cells, 32 MiB of
/// [`crate::Cell`]s.
pub const MAX_GRID_CELLS: usize = 1 << 24;

/// Most columns, and most rows, a tile grid may have: 2^16 = 65 536 (the product is further
/// bounded by [`MAX_GRID_CELLS`]).
pub const MAX_GRID_SIDE: usize = 1 << 16;

/// Most balls a scene may ask for (explicit `[[ball]]`s plus `[spawn] count`): 2^22 = 4 194 304.
pub const MAX_BALLS: usize = 1 << 22;

/// Most explicit rectangles (`[[rect]]`) a scene may have: 2^16 = 65 536.
pub const MAX_RECTS: usize = 1 << 16;

/// Largest scene file accepted, in bytes: 16 MiB. Checked before the file is read.
pub const MAX_SCENE_BYTES: u64 = 16 << 20;

/// Largest level file (or level text) accepted, in bytes: 16 MiB. Checked before the file is
/// read.
pub const MAX_LEVEL_BYTES: u64 = 16 << 20;

/// Upper bound of [`crate::StepConfig::max_events_per_body`]: 65 536 events per body per step.
pub const MAX_EVENTS_PER_BODY: u32 = 1 << 16;

/// Largest absolute value of any coordinate, size or velocity component in a scene file, in
/// world units (or units/s): 10^9. Far beyond any screen, and small enough that sums and
/// products of coordinates keep ~7 significant decimal digits below one unit in `f64`.
pub const MAX_COORD: f64 = 1.0e9;

/// Most worker threads [`crate::World::set_threads`] accepts (more are clamped to this).
pub const MAX_THREADS: usize = 256;

#[cfg(test)]
mod tests {
    use super::*;

    // A grid at the side limit in one direction must still be possible in the other.
    const _: () = assert!(MAX_GRID_SIDE <= MAX_GRID_CELLS);

    #[test]
    fn limits_have_the_documented_values() {
        assert_eq!(MAX_GRID_CELLS, 16_777_216);
        assert_eq!(MAX_BALLS, 4_194_304);
        assert_eq!(MAX_RECTS, 65_536);
        assert_eq!(MAX_SCENE_BYTES, 16 * 1024 * 1024);
        assert_eq!(MAX_LEVEL_BYTES, 16 * 1024 * 1024);
        assert_eq!(MAX_EVENTS_PER_BODY, 65_536);
    }
}
