//! Two moving boxes swept against each other: [`sweep_aabb_aabb`].

use super::start_rate;
use crate::math::{Real, Vec2, FRAC_1_SQRT_2};
use crate::query::hit::{Feature, SweepHit};
use crate::shape::feature::{Corner, Face};
use crate::shape::Aabb;

/// The contact of two boxes that already overlap with positive area (by rounding, in a world:
/// deeper overlaps are pushed out before a step): the contact rule on the axis of least
/// penetration. The normal is that axis, pointing from `b` toward `a`; a hit at toi 0 only if
/// `a` approaches `b` along it, by [`start_rate`] of the relative velocity `v` and relative
/// acceleration `acc` (zero on straight paths), else `None` (the boxes separate or slide).
///
/// Found by fuzzing the step: a box sunk 1e-14 into the top face of a tile and moving up
/// was "entering" the tile's bottom face in the slab test's past, so it got a hit with the
/// opposite normal, reflected down, hit the top face again, and so on at the same instant
/// until the world's event bound: the box stuck in the floor for good.
pub(crate) fn overlapping_start(a: &Aabb, b: &Aabb, v: Vec2, acc: Vec2) -> Option<SweepHit> {
    // Per axis: the smaller of the two pushes that separate a from b, and its direction.
    let axis = |k: usize| -> (Real, Real) {
        let up = b.max[k] - a.min[k];
        let down = a.max[k] - b.min[k];
        if up <= down {
            (up, 1.0)
        } else {
            (down, -1.0)
        }
    };
    let (dx, sx) = axis(0);
    let (dy, sy) = axis(1);
    let approach_x = start_rate(v.x, acc.x, dx) * sx < 0.0;
    let approach_y = start_rate(v.y, acc.y, dy) * sy < 0.0;
    // The axis of least penetration; on a tie (overlapping exactly at a corner), the axes the
    // boxes approach on.
    let (on_x, on_y) = if dx < dy {
        (approach_x, false)
    } else if dy < dx {
        (false, approach_y)
    } else {
        (approach_x, approach_y)
    };
    let (normal, feature) = match (on_x, on_y) {
        (false, false) => return None,
        (true, false) => {
            let face = if sx < 0.0 { Face::Left } else { Face::Right };
            (Vec2::new(sx, 0.0), Feature::Face(face))
        }
        (false, true) => {
            let face = if sy < 0.0 { Face::Top } else { Face::Bottom };
            (Vec2::new(0.0, sy), Feature::Face(face))
        }
        (true, true) => {
            let corner = match (sx > 0.0, sy > 0.0) {
                (false, false) => Corner::TopLeft,
                (true, false) => Corner::TopRight,
                (false, true) => Corner::BottomLeft,
                (true, true) => Corner::BottomRight,
            };
            (Vec2::new(sx, sy) * FRAC_1_SQRT_2, Feature::Corner(corner))
        }
    };
    let lo = a.min.max(b.min);
    let hi = a.max.min(b.max);
    Some(SweepHit {
        toi: 0.0,
        normal,
        point: (lo + hi) * 0.5,
        feature,
    })
}

/// Sweeps two moving boxes: `a` with velocity `va` against `b` with velocity `vb`. The earliest
/// toi in `[0, max_toi]` at which they start to overlap with positive area (slab test on the
/// relative motion, Ericson §5.5.8 "Intersecting moving AABB against AABB").
///
/// The axis of impact is the axis whose slab is entered last; this settles seed 003's "which
/// face was hit first" question exactly. If both slabs are entered at the same instant (corner
/// to corner), the feature is a [`Feature::Corner`] of `b` and the normal the unit diagonal:
/// box responses then act on both axes. Boxes that only slide along each other (touching,
/// no relative motion across the shared edge) never hit. Already overlapping (by rounding): the
/// axis of least penetration decides, toi = 0 if approaching along it, else no hit. The normal
/// points from `b` toward `a`; the contact point is the centre of the touching (or
/// overlapping) region at impact.
#[must_use]
pub fn sweep_aabb_aabb(a: &Aabb, va: Vec2, b: &Aabb, vb: Vec2, max_toi: Real) -> Option<SweepHit> {
    let v = va - vb;
    let mut entry = [Real::NEG_INFINITY; 2];
    let mut exit = [Real::INFINITY; 2];
    for k in 0..2 {
        if v[k] > 0.0 {
            entry[k] = (b.min[k] - a.max[k]) / v[k];
            exit[k] = (b.max[k] - a.min[k]) / v[k];
        } else if v[k] < 0.0 {
            entry[k] = (b.max[k] - a.min[k]) / v[k];
            exit[k] = (b.min[k] - a.max[k]) / v[k];
        } else if !(a.max[k] > b.min[k] && a.min[k] < b.max[k]) {
            return None;
        }
    }
    let t_entry = entry[0].max(entry[1]);
    let t_exit = exit[0].min(exit[1]);
    if !(t_entry < t_exit && t_exit > 0.0 && t_entry > Real::NEG_INFINITY) {
        return None;
    }
    if t_entry < 0.0 {
        return overlapping_start(a, b, v, Vec2::ZERO);
    }
    let toi = t_entry;
    if !(toi <= max_toi) {
        return None;
    }
    let sx = if v.x > 0.0 { -1.0 } else { 1.0 };
    let sy = if v.y > 0.0 { -1.0 } else { 1.0 };
    let (normal, feature) = if entry[0] == entry[1] {
        let corner = match (sx > 0.0, sy > 0.0) {
            (false, false) => Corner::TopLeft,
            (true, false) => Corner::TopRight,
            (false, true) => Corner::BottomLeft,
            (true, true) => Corner::BottomRight,
        };
        (Vec2::new(sx, sy) * FRAC_1_SQRT_2, Feature::Corner(corner))
    } else if entry[0] > entry[1] {
        let face = if sx < 0.0 { Face::Left } else { Face::Right };
        (Vec2::new(sx, 0.0), Feature::Face(face))
    } else {
        let face = if sy < 0.0 { Face::Top } else { Face::Bottom };
        (Vec2::new(0.0, sy), Feature::Face(face))
    };
    let at = a.translated(va * toi);
    let bt = b.translated(vb * toi);
    let lo = at.min.max(bt.min);
    let hi = at.max.min(bt.max);
    let point = (lo + hi) * 0.5;
    Some(SweepHit {
        toi,
        normal,
        point,
        feature,
    })
}
