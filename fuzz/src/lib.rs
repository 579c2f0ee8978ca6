//! Shared logic of the fuzz targets, kept in a library so that an input found by libFuzzer can
//! be replayed by an ordinary program or test (`fuzz/README.md`).

pub mod everything;
pub mod step;
