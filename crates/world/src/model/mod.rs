//! Plain data and pure rules: ids, descriptions, events, errors, limits, filters, materials,
//! the contact hook's types and the seeded generator. Nothing here imports the world, the step,
//! the grid or the bodies: every other folder builds on these.

pub(crate) mod cell;
pub(crate) mod character_desc;
pub(crate) mod desc;
pub(crate) mod error;
pub(crate) mod event;
pub(crate) mod filter;
pub(crate) mod flipper_desc;
pub(crate) mod hook;
pub(crate) mod ids;
pub mod limits;
pub(crate) mod material;
pub mod rng;
pub(crate) mod shape_desc;
pub(crate) mod surface;
pub(crate) mod target;
