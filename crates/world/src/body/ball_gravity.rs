//! Each ball's share of the world's gravity: [`crate::BallDesc::gravity_scale`].
//!
//! A ball of scale `s` is accelerated by `s·g` ([`crate::StepConfig::gravity`]): 1 falls with
//! the world, 0 flies straight (a bullet in a platformer), a negative scale rises (a balloon
//! rests against a ceiling as a falling ball rests on a floor). Everything the step does with
//! a ball's acceleration takes this one: its path between events (`p0 + v0·τ + ½·s·g·τ²`), the
//! faces it rests on (those facing against `s·g`), its potential energy (`−m·s·g·p`), and the
//! ball pairs, which meet at the roots of their relative path's quartic when their scales
//! differ (equal scales keep the straight relative sweep, `collide_core::sweep_path`).
//!
//! Stored index for index with the balls, and empty while every ball's scale is 1: a world
//! whose balls all fall with it stores, snapshots and hashes nothing more.

use collide_core::{Real, Vec2};

/// `g·scale`, and `g` itself (the same bits) for the scale 1.
#[inline]
pub(crate) fn scaled(g: Vec2, scale: Real) -> Vec2 {
    if scale == 1.0 {
        g
    } else {
        g * scale
    }
}
