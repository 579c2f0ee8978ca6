//! The two shapes of collide: [`Circle`] (balls) and [`Aabb`] (tiles, paddles, boxes).
//!
//! One shape per file; `feature.rs` names the faces and corners of a box that sweeps report
//! (re-exported by [`crate::sweep`]).

mod aabb;
mod circle;
pub(crate) mod feature;

pub use aabb::Aabb;
pub use circle::Circle;
