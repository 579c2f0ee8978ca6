//! The contact rule's rate on one axis of a box already overlapping another shape by
//! rounding: [`start_rate`].

use crate::math::Real;

/// The rate that decides, on one separating axis, whether a box already overlapping a shape
/// by rounding (`depth >= 0` deep along the axis) approaches it: the relative speed `v` along
/// the axis, unless the relative acceleration `acc` turns that motion back before it leaves
/// the overlap, then `acc`. All three are in the axis's own units (projections on the same,
/// not necessarily unit, axis vector).
///
/// Moving at `v` against `acc` (`v·acc < 0`), the motion along the axis reverses at the apex
/// of its parabola, `v²/(2·|acc|)` from the start: when that is no more than `depth` the box
/// never leaves the overlap, and what it does is what the acceleration does. A box resting
/// on a slope under gravity, parting from it by a rounding error's speed while sunk in it by
/// a rounding error, is approaching: taking only the speed's sign, the sweep would see it
/// separating, find no later entry (the projections never part), and let it fall through
/// the slope. With `v == 0` the acceleration decides, as before; on a straight path
/// (`acc == 0`) the speed alone decides.
///
/// # Example
/// ```ignore
/// // Parting at 1e-5 units/s, pressed back at 1e5 units/s², sunk 1e-12: the apex,
/// // 5e-16 away, is inside the overlap: the acceleration decides (approaching).
/// assert_eq!(start_rate(1e-5, -1e5, 1e-12), -1e5);
/// // Parting at 1 unit/s: the apex, 5e-6 away, is out of it: the speed decides.
/// assert_eq!(start_rate(1.0, -1e5, 1e-12), 1.0);
/// ```
#[inline]
#[must_use]
pub(crate) fn start_rate(v: Real, acc: Real, depth: Real) -> Real {
    if v == 0.0 || (v * acc < 0.0 && v * v <= 2.0 * acc.abs() * depth) {
        acc
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::start_rate;

    #[test]
    fn the_acceleration_decides_when_the_motion_turns_back_inside_the_overlap() {
        // Apex v²/(2|a|) against the depth: 5e-16 <= 1e-12 (inside), 5e-6 > 1e-12 (out).
        assert_eq!(start_rate(1e-5, -1e5, 1e-12), -1e5);
        assert_eq!(start_rate(1.0, -1e5, 1e-12), 1.0);
        // Exactly at the boundary of the overlap (apex 0.5 = depth): still inside.
        assert_eq!(start_rate(1.0, -1.0, 0.5), -1.0);
        assert_eq!(start_rate(1.0, -1.0, 0.499), 1.0);
        // Speed and acceleration the same way, or no acceleration: the speed decides.
        assert_eq!(start_rate(-1e-9, -1e5, 1.0), -1e-9);
        assert_eq!(start_rate(1e-9, 0.0, 1.0), 1e-9);
        // No speed: the acceleration decides.
        assert_eq!(start_rate(0.0, 3.0, 0.0), 3.0);
    }
}
