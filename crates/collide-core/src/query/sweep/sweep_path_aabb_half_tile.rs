//! A box on a curved path swept against a static half-tile: [`sweep_path_aabb_half_tile`].
//!
//! The separating axes of [`crate::sweep_aabb_half_tile`] (x, y and the diagonal's normal)
//! with the box's displacement `x(τ) = p0 + v·τ + ½·a·τ²` of a parabola, exactly as
//! [`crate::sweep_path::sweep_path_aabb_aabb`] does for two boxes: on each axis the two gaps
//! between the projections are quadratics in `τ`, whose sign changes are isolated with
//! certainty and refined to adjacent doubles ([`crate::roots::sign_changes`]: stable quadratic
//! roots, never sampled), cutting the axis into up to three intervals of overlap. The shapes
//! first overlap at the earliest start of an intersection of one interval per axis.

use super::sweep_aabb_half_tile::{
    axes, contact_point, entry_feature, overlapping_start, project_aabb, project_tile,
};
use super::sweep_path_aabb_aabb::{axis_spans, first_common_start, Span};
use crate::math::Real;
use crate::motion::Path;
use crate::query::hit::SweepHit;
use crate::shape::{Aabb, HalfTile};
use crate::sweep_path::SOLVE_HORIZON;

/// Sweeps a box on a curved path against a static half-tile: the box at time `τ` is `a`
/// translated by `pa.pos_at(τ)` (the path is a displacement from the given box, as for
/// [`crate::sweep_path::sweep_path_aabb_aabb`]: `p0` is usually zero). The earliest `τ` in
/// `[0, max_toi]` at which they start to overlap, with the conventions of
/// [`crate::sweep_aabb_half_tile`]: the axis entered last gives the normal and feature (a
/// leg's [`crate::Feature::Face`], a vertex's [`crate::Feature::Corner`] on the two other
/// faces of the cell, or [`crate::Feature::Diagonal`]), x and y at once give the cell's
/// corner, other ties go to x, then y, then the diagonal; touching or sliding never hits;
/// already overlapping (by rounding) hits at 0 only when approaching along the axis of least
/// penetration. Contact at the start is second order, as for two boxes: touching with no
/// speed along an axis but an acceleration into the triangle (a box resting on a slope under
/// gravity) is a hit at 0; separating, the next entry is found (a parabola comes back).
///
/// Each root is isolated on `[0, max(max_toi, SOLVE_HORIZON)]` and then compared with
/// `max_toi` ([`crate::sweep_path::SOLVE_HORIZON`]), so its bits do not depend on how far the
/// caller looks. Without acceleration [`crate::sweep_aabb_half_tile`] gives the same times by
/// a division. For a moving tile, pass the box's path relative to the tile's
/// ([`Path::relative_to`]).
///
/// # Returns
/// The hit, or `None` (apart throughout `[0, max_toi]`, or separating at the start and not
/// coming back). Never NaN for finite inputs.
///
/// # Example
/// ```
/// use collide_core::motion::Path;
/// use collide_core::sweep_path::sweep_path_aabb_half_tile;
/// use collide_core::{Aabb, Corner, Feature, HalfTile, Vec2};
/// // The cell [0, 100]², solid bottom-left: the diagonal y = x, normal (1, −1)/√2. A 10 × 10
/// // box [70, 80] × [−10, 0] dropped from rest under g = 100 (y down): its bottom-left corner
/// // (70, ½·100·t²) meets the line when ½·100·t² = 70, t = √1.4 s.
/// let t = HalfTile::new(Aabb::new(Vec2::ZERO, Vec2::splat(100.0)), Corner::BottomLeft);
/// let a = Aabb::new(Vec2::new(70.0, -10.0), Vec2::new(80.0, 0.0));
/// let fall = Path::ballistic(Vec2::ZERO, Vec2::ZERO, Vec2::new(0.0, 100.0));
/// let hit = sweep_path_aabb_half_tile(&a, &fall, &t, 10.0).unwrap();
/// assert!((hit.toi - 1.4f64.sqrt()).abs() < 1e-15);
/// assert_eq!(hit.feature, Feature::Diagonal);
/// assert!((hit.point - Vec2::new(70.0, 70.0)).length() < 1e-12);
/// ```
#[must_use]
pub fn sweep_path_aabb_half_tile(
    a: &Aabb,
    pa: &Path,
    tile: &HalfTile,
    max_toi: Real,
) -> Option<SweepHit> {
    if !(max_toi >= 0.0) {
        return None;
    }
    let hi = if max_toi > SOLVE_HORIZON {
        max_toi
    } else {
        SOLVE_HORIZON
    };
    let ax = axes(tile);
    // The path along an axis: exact on x and y, a dot product on the diagonal's.
    let along = |k: usize, w: crate::math::Vec2| match k {
        0 => w.x,
        1 => w.y,
        _ => w.dot(ax[k]),
    };
    let spans: [Vec<Span>; 3] = std::array::from_fn(|k| {
        axis_spans(
            project_aabb(a, ax[k]),
            project_tile(tile, ax[k]),
            along(k, pa.p0),
            along(k, pa.v0),
            along(k, pa.accel),
            hi,
        )
    });
    // The earliest start of an intersection of one span per axis, and the earliest one that
    // is not an overlap at the start.
    let (first, entry) = first_common_start(&spans);
    if first == Some(Real::NEG_INFINITY) {
        // Overlapping at the start (by rounding): the contact rule on the axis of least
        // penetration, the acceleration deciding an axis without speed or whose motion turns
        // back inside the overlap (`start_rate`). Separating, it can still come back: the
        // next entry.
        let at = a.translated(pa.p0);
        let rates = std::array::from_fn(|k| along(k, pa.v0));
        let acc = std::array::from_fn(|k| along(k, pa.accel));
        if let Some(h) = overlapping_start(&at, tile, rates, acc) {
            return Some(h);
        }
    }
    let (toi, s) = entry?;
    if !(toi <= max_toi) {
        return None;
    }
    let (normal, feature) = entry_feature(
        tile,
        [s[0].start, s[1].start, s[2].start],
        [s[0].side, s[1].side, s[2].side],
    );
    let at = a.translated(pa.pos_at(toi));
    Some(SweepHit {
        toi,
        normal,
        point: contact_point(&at, tile, feature),
        feature,
    })
}
