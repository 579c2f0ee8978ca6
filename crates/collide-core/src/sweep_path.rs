//! Swept tests along curved paths: a circle moving on a [`Path`] (a parabola under constant
//! acceleration, or a straight line) against a face, a half-plane, a corner, a box, or another
//! circle on its own path. The exact time of impact of a ball under gravity.
//!
//! The geometry is that of [`crate::sweep`] (the Minkowski sum of the obstacle and the disc:
//! face slabs and corner quarter circles; C. Ericson, *Real-Time Collision Detection*, 2005,
//! §5.5.7), with the centre on a parabola instead of a line:
//! - a **face** or **half-plane**: the gap along the normal, `d + v_n·τ + ½·a_n·τ² − r`, is a
//!   quadratic;
//! - a **corner** (or another circle): `|q + v·τ + ½·a·τ²|² − r²` is a quartic
//!   ([`crate::roots::corner_quartic`]); two circles with the same acceleration have a linear
//!   relative path, and the quartic degenerates to the usual quadratic.
//!
//! Each time of impact is the earliest *entry* of that polynomial into `<= 0`, isolated with
//! certainty by [`crate::roots::first_entry`] (recursive derivative bracketing and safeguarded
//! Newton, to adjacent floating-point numbers; never sampled). Contact at the start follows the
//! crate's rule (Bannerman et al. 2014), extended to second order: touching and approaching
//! (the gap's rate `< 0`, or `= 0` with its acceleration `< 0`: a ball resting on a floor under
//! gravity) is a hit at `toi = 0`; touching and separating is none, but unlike a straight line a
//! parabola can come back: the next entry after it has left is found
//! ([`crate::roots::first_entry_after`]).
//!
//! A half-tile, a 45° slope cell ([`sweep_path_circle_half_tile`]), is a triangle: its legs
//! are box faces, its diagonal a one-sided face (a quadratic), its vertices quartics, each
//! vertex within its exterior normal cone. A box on a path against it
//! ([`sweep_path_aabb_half_tile`]) is the slab test of [`sweep_path_aabb_aabb`] on the axes
//! x, y and the diagonal's normal.
//!
//! A segment ([`sweep_path_circle_segment`]) is met the same way: its faces are quadratics,
//! its end points quartics; a box on a path against it ([`sweep_path_aabb_segment`]) is the
//! slab test on the axes x, y and the segment's normal. A capsule turning about a pivot (a
//! flipper, [`sweep_path_circle_turning_capsule`]) has no polynomial: its contact is
//! bracketed by certified conservative advancement. A static bumper (a disc) is
//! [`sweep_path_circle_circle`] against a path at rest (the quartic of the radius sum).
//!
//! A convex polygon ([`sweep_path_circle_polygon`]) is the half-tile's construction with up
//! to eight edges: each edge a one-sided face (the parabola against a line: a quadratic), each
//! vertex a quartic within its exterior normal cone; a box on a path against it
//! ([`sweep_path_aabb_polygon`]) is the slab test on x, y and the polygon's edge normals.
//!
//! Conventions as in the rest of the crate: times in seconds from the path's start (the unit of
//! the path's velocity), normals from the obstacle toward the moving circle, contact points on
//! the obstacle's surface.

use crate::math::{Real, Vec2};
use crate::motion::Path;
use crate::query::hit::Earliest;
use crate::query::sweep::sweep_circle_corner::corner_hit;
use crate::roots::{corner_quartic, eval, first_contact_after, first_entry_after, Poly4};
use crate::shape::feature::face_axis;
use crate::shape::Aabb;
use crate::sweep::{Corner, Face, FaceSegment, Feature, Features, SweepHit};

pub use crate::query::hit::TurningHit;
pub use crate::query::sweep::{
    sweep_path_aabb_aabb, sweep_path_aabb_half_tile, sweep_path_aabb_platform,
    sweep_path_aabb_polygon, sweep_path_aabb_segment, sweep_path_aabb_segment_platform,
    sweep_path_aabb_turning_capsule, sweep_path_circle_half_tile, sweep_path_circle_polygon,
    sweep_path_circle_segment, sweep_path_circle_turning_capsule, TurningSweep,
    TURNING_MAX_ITERATIONS,
};

/// The earliest time in `[0, max_toi]` at which the polynomial `gap` (`> 0`: apart) is entered,
/// with the contact rule at the start: `gap(0) <= 0` is a hit at 0 when the body may be
/// `touching` there and `rate` (the gap's rate at 0) is `< 0`, or `= 0` with `curvature` (its
/// second derivative) `< 0`; otherwise the first entry after the gap has been positive.
///
/// The root is isolated and refined on `[0, SOLVE_HORIZON]` (or `[0, max_toi]` when longer)
/// and then compared with `max_toi`: its bracket, and so its bits, do not depend on how far the
/// caller looks (a world that searches in windows of the step size gets the same times at any
/// step size).
pub(crate) fn entry(
    gap: &Poly4,
    rate: Real,
    curvature: Real,
    max_toi: Real,
    touching: bool,
) -> Option<Real> {
    if !(max_toi >= 0.0) {
        return None;
    }
    if touching && eval(gap, 0.0) <= 0.0 && (rate < 0.0 || (rate == 0.0 && curvature < 0.0)) {
        return Some(0.0);
    }
    let hi = if max_toi > SOLVE_HORIZON {
        max_toi
    } else {
        SOLVE_HORIZON
    };
    let toi = if touching {
        first_contact_after(gap, 0.0, hi)
    } else {
        first_entry_after(gap, 0.0, hi)
    }?;
    (toi <= max_toi).then_some(toi)
}

/// The time span (seconds) over which every curved time of impact is solved before it is
/// compared with the caller's limit (see `entry`): a million seconds, far beyond any search.
pub const SOLVE_HORIZON: Real = 1e6;

/// The gap between a circle on `path` (radius `r`) and the line of `face`, along the face's
/// outward normal: `[d − r, v_n, ½·a_n]`, with `d` the centre's signed distance at the start.
fn face_gap(path: &Path, r: Real, face: &FaceSegment) -> (Poly4, Real, Real) {
    let (axis, sign) = face_axis(face.face);
    let d = (path.p0[axis] - face.coord) * sign;
    let vn = path.v0[axis] * sign;
    let an = path.accel[axis] * sign;
    ([d - r, vn, 0.5 * an, 0.0, 0.0], vn, an)
}

/// A circle of `radius` on `path` against one face segment (the face line, its tangential
/// extent `[lo, hi]` ends included). Contact at the start needs the centre on the face's outer
/// side (signed distance `>= 0`), as for [`crate::sweep_circle_face`]; a centre that starts
/// behind the face's line can still reach the face later from outside (a parabola can go
/// round a box and come back up to its bottom face): that entry is found.
///
/// # Returns
/// The earliest hit in `[0, max_toi]` (seconds), or `None` (no approach, a miss, past
/// `max_toi`). Never NaN for finite inputs.
#[must_use]
pub fn sweep_path_circle_face(
    path: &Path,
    radius: Real,
    max_toi: Real,
    face: &FaceSegment,
) -> Option<SweepHit> {
    let (axis, sign) = face_axis(face.face);
    let tangent = 1 - axis;
    // At an end of the segment and moving (or accelerating) past it, the face holds the
    // circle no longer: contact at the start is the corner's to decide (a ball sliding off
    // a ledge at its very edge is not pressed onto the face it leaves).
    let (p, v, a) = (path.p0[tangent], path.v0[tangent], path.accel[tangent]);
    let leaving = |end: Real, out: Real| p == end && (v * out > 0.0 || (v == 0.0 && a * out > 0.0));
    let on_segment = !(leaving(face.hi, 1.0) || leaving(face.lo, -1.0));
    let outside = on_segment && (path.p0[axis] - face.coord) * sign >= 0.0;
    let (gap, rate, curv) = face_gap(path, radius, face);
    let toi = entry(&gap, rate, curv, max_toi, outside)?;
    let t = path.pos_at(toi)[tangent];
    if !(t >= face.lo && t <= face.hi) {
        return None;
    }
    let mut point = Vec2::ZERO;
    point[axis] = face.coord;
    point[tangent] = t;
    Some(SweepHit {
        toi,
        normal: face.face.normal(),
        point,
        feature: Feature::Face(face.face),
    })
}

/// A circle of `radius` on `path` against the solid half-plane behind the line of `face` (a
/// wall of the world): as [`crate::sweep_circle_half_plane`], `lo`/`hi` ignored, a centre
/// already behind the line is in contact too.
///
/// # Returns
/// The earliest hit in `[0, max_toi]`, or `None`. Never NaN for finite inputs.
///
/// ```
/// use collide_core::motion::Path;
/// use collide_core::sweep_path::sweep_path_circle_half_plane;
/// use collide_core::{Face, FaceSegment, Vec2};
/// // A ball of radius 1 dropped from rest with its centre at y = 1 above a floor at y = 51
/// // under g = 100 (y down): it falls 49 units, ½·100·t² = 49, t = 0.98995 s.
/// let floor = FaceSegment::new(Face::Top, 51.0, 0.0, 0.0);
/// let path = Path::ballistic(Vec2::new(0.0, 1.0), Vec2::ZERO, Vec2::new(0.0, 100.0));
/// let hit = sweep_path_circle_half_plane(&path, 1.0, 10.0, &floor).unwrap();
/// assert!((hit.toi - (0.98f64).sqrt()).abs() < 1e-15);
/// ```
#[must_use]
pub fn sweep_path_circle_half_plane(
    path: &Path,
    radius: Real,
    max_toi: Real,
    face: &FaceSegment,
) -> Option<SweepHit> {
    let (axis, _) = face_axis(face.face);
    let (gap, rate, curv) = face_gap(path, radius, face);
    let toi = entry(&gap, rate, curv, max_toi, true)?;
    let mut point = Vec2::ZERO;
    point[axis] = face.coord;
    point[1 - axis] = path.pos_at(toi)[1 - axis];
    Some(SweepHit {
        toi,
        normal: face.face.normal(),
        point,
        feature: Feature::Face(face.face),
    })
}

/// The earliest entry of a point on `path` into the disc of `radius` around `c`, and the
/// offset from `c` then.
///
/// With `tangent` (the end points of segments and the vertices of polygons: static shapes
/// and flippers) the rate `q·v` at the start is taken as zero within its rounding,
/// `4ε·(|p0| + |c|)·|v|` (`q = p0 − c` is rounded to `ε·(|p0| + |c|)`), so that the
/// curvature decides: a point leaving the disc along its tangent (a ball slid out of a
/// wedge between a face and a flipper's end, its velocity square to the end's normal) is
/// not met at once again and again at one instant, each response leaving the velocity as it
/// was. Tile corners and pairs of balls keep the exact rule (their bits are the golden
/// table's).
pub(crate) fn point_entry(
    path: &Path,
    radius: Real,
    max_toi: Real,
    c: Vec2,
    tangent: bool,
) -> Option<(Real, Vec2)> {
    let q = path.p0 - c;
    let quartic = corner_quartic(q, path.v0, path.accel, radius);
    // f'(0) = 2 q·v, f''(0) = 2 (|v|² + q·a).
    let rate = q.dot(path.v0);
    let rounding = 4.0 * Real::EPSILON * (path.p0.length() + c.length()) * path.v0.length();
    let rate = if tangent && rate.abs() <= rounding {
        0.0
    } else {
        rate
    };
    let curv = path.v0.length_squared() + q.dot(path.accel);
    let toi = entry(&quartic, rate, curv, max_toi, true)?;
    Some((toi, path.pos_at(toi) - c))
}

/// A circle of `radius` on `path` against one convex corner of a box at `point`: a hit only
/// when the normal at impact lies in the corner's exterior quadrant (as
/// [`crate::sweep_circle_corner`]; outside it a face is met first).
///
/// # Returns
/// The earliest hit in `[0, max_toi]`, or `None`. Never NaN for finite inputs.
#[must_use]
pub fn sweep_path_circle_corner(
    path: &Path,
    radius: Real,
    max_toi: Real,
    corner: Corner,
    point: Vec2,
) -> Option<SweepHit> {
    let (toi, q) = point_entry(path, radius, max_toi, point, false)?;
    corner_hit(toi, q, corner, point)
}

/// A circle of `radius` on `path` against a static box whose obstacle features are `features`
/// (the Minkowski sum of the box and the disc): the earliest hit in `[0, max_toi]`, ties going
/// to the first feature in the order of [`crate::sweep_circle_aabb`]. For a box moving on its
/// own path, pass the circle's path relative to it ([`Path::relative_to`]).
#[must_use]
pub fn sweep_path_circle_aabb(
    path: &Path,
    radius: Real,
    max_toi: Real,
    aabb: &Aabb,
    features: Features,
) -> Option<SweepHit> {
    let mut e = Earliest::new(max_toi);
    for face in Face::ALL {
        if features.contains(face.bit()) {
            let h = sweep_path_circle_face(path, radius, e.limit, &face.segment(aabb));
            e.consider(h);
        }
    }
    for corner in Corner::ALL {
        if features.contains(corner.bit()) {
            let h = sweep_path_circle_corner(path, radius, e.limit, corner, corner.point(aabb));
            e.consider(h);
        }
    }
    e.best
}

/// Two circles on their own paths: body 1 (`path1`, `r1`) against body 2 (`path2`, `r2`). The
/// earliest time in `[0, max_toi]` at which the centres are `r1 + r2` apart, entering (the
/// quartic of the relative path; with equal accelerations it is a quadratic). The normal points
/// from body 2 toward body 1; the point lies on body 2's surface.
#[must_use]
pub fn sweep_path_circle_circle(
    path1: &Path,
    r1: Real,
    path2: &Path,
    r2: Real,
    max_toi: Real,
) -> Option<SweepHit> {
    let rel = path1.relative_to(path2);
    let (toi, q) = point_entry(&rel, r1 + r2, max_toi, Vec2::ZERO, false)?;
    let len = q.length();
    let normal = if len > 0.0 {
        q / len
    } else {
        let v = rel.vel_at(toi);
        if v.length_squared() > 0.0 {
            -v / v.length()
        } else {
            Vec2::X
        }
    };
    Some(SweepHit {
        toi,
        normal,
        point: path2.pos_at(toi) + normal * r2,
        feature: Feature::Circle,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::overlap::distance_point_aabb;
    use crate::sweep::{sweep_circle_aabb, sweep_circle_circle};
    use proptest::prelude::*;

    /// The reference scan of `roots.rs`'s tests from 0; `None` when `f(0) <= 0` (the contact
    /// rule at the start is tested separately).
    fn scan(f: impl Fn(Real) -> Real, hi: Real, n: usize) -> Option<Real> {
        if f(0.0) <= 0.0 {
            return None;
        }
        crate::roots::tests::scan(f, 0.0, hi, n)
    }

    /// A ball dropped from rest at height h (its bottom h above the floor) with e = 1 lands at
    /// t = √(2h/g): the half-plane's quadratic against the textbook formula.
    #[test]
    fn a_dropped_ball_lands_at_the_textbook_time() {
        for (h, g, r) in [(100.0, 981.0, 5.0), (0.5, 9.81, 0.25), (1e4, 1.0, 100.0)] {
            let floor = FaceSegment::new(Face::Top, 1000.0 + h + r, 0.0, 0.0);
            let path = Path::ballistic(Vec2::new(3.0, 1000.0), Vec2::ZERO, Vec2::new(0.0, g));
            let hit = sweep_path_circle_half_plane(&path, r, 1e6, &floor).unwrap();
            let expected: Real = (2.0 * h / g).sqrt();
            assert!(
                (hit.toi - expected).abs() <= 1e-14 * expected,
                "{} vs {expected}",
                hit.toi
            );
            assert_eq!(hit.normal, Vec2::new(0.0, -1.0));
            assert_eq!(hit.point.x, 3.0);
            // Thrown upward at the landing speed from the floor: back at the floor 2·√(2h/g)
            // later (the contact at the start separates; the parabola comes back).
            let up = Path::ballistic(
                Vec2::new(3.0, 1000.0 + h),
                Vec2::new(0.0, -g * expected),
                Vec2::new(0.0, g),
            );
            let back = sweep_path_circle_half_plane(&up, r, 1e6, &floor).unwrap();
            assert!(
                (back.toi - 2.0 * expected).abs() <= 1e-12 * expected,
                "{} vs {}",
                back.toi,
                2.0 * expected
            );
        }
    }

    /// Resting on a floor under gravity is a contact at the start; moving up off it is not.
    #[test]
    fn contact_at_the_start_to_second_order() {
        let floor = FaceSegment::new(Face::Top, 10.0, 0.0, 0.0);
        let rest = Path::ballistic(Vec2::new(0.0, 9.0), Vec2::ZERO, Vec2::new(0.0, 10.0));
        assert_eq!(
            sweep_path_circle_half_plane(&rest, 1.0, 1.0, &floor)
                .unwrap()
                .toi,
            0.0
        );
        let weightless = Path::linear(Vec2::new(0.0, 9.0), Vec2::new(1.0, 0.0));
        assert!(sweep_path_circle_half_plane(&weightless, 1.0, 1.0, &floor).is_none());
    }

    /// Without acceleration every sweep agrees with the straight-line sweeps of `sweep.rs`.
    #[test]
    fn straight_paths_agree_with_the_linear_sweeps() {
        let b = Aabb::new(Vec2::new(10.0, 0.0), Vec2::new(20.0, 10.0));
        for (c, v) in [
            (Vec2::new(0.0, 5.0), Vec2::new(2.0, 0.0)),
            (Vec2::new(0.0, -6.0), Vec2::new(3.0, 1.5)),
            (Vec2::new(30.0, 20.0), Vec2::new(-4.0, -3.0)),
        ] {
            let a = sweep_circle_aabb(c, 2.0, v, 10.0, &b, Features::ALL).unwrap();
            let p =
                sweep_path_circle_aabb(&Path::linear(c, v), 2.0, 10.0, &b, Features::ALL).unwrap();
            assert!((a.toi - p.toi).abs() < 1e-13, "{a:?} {p:?}");
            assert_eq!(a.feature, p.feature);
            assert!((a.normal - p.normal).length() < 1e-12);
        }
        let a = sweep_circle_circle(
            Vec2::ZERO,
            1.0,
            Vec2::X,
            Vec2::new(10.0, 0.5),
            2.0,
            Vec2::ZERO,
            20.0,
        )
        .unwrap();
        let p = sweep_path_circle_circle(
            &Path::linear(Vec2::ZERO, Vec2::X),
            1.0,
            &Path::linear(Vec2::new(10.0, 0.5), Vec2::ZERO),
            2.0,
            20.0,
        )
        .unwrap();
        assert!((a.toi - p.toi).abs() < 1e-13);
    }

    /// Two balls falling under the same gravity meet when their linear relative motion says:
    /// at (gap − r1 − r2) / closing speed.
    #[test]
    fn two_falling_balls_collide_as_their_relative_motion_says() {
        let g = Vec2::new(0.0, 981.0);
        let a = Path::ballistic(Vec2::new(0.0, 0.0), Vec2::new(50.0, 0.0), g);
        let b = Path::ballistic(Vec2::new(100.0, 0.0), Vec2::new(-30.0, 0.0), g);
        let hit = sweep_path_circle_circle(&a, 4.0, &b, 6.0, 10.0).unwrap();
        let expected = (100.0 - 10.0) / 80.0;
        assert!((hit.toi - expected).abs() < 1e-14, "{}", hit.toi);
        assert_eq!(hit.normal, Vec2::new(-1.0, 0.0));
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

        /// Random thrown balls against a random box: the earliest hit is where a dense scan of
        /// the distance from the centre's parabola to the box first drops to the radius
        /// (never later; earlier only for a contact between the scan's samples, which must
        /// then be a real one), and the ball overlaps the box nowhere before it.
        #[test]
        fn thrown_balls_hit_a_box_where_the_distance_says(
            px in -100.0f64..100.0, py in -100.0f64..100.0,
            vx in -200.0f64..200.0, vy in -200.0f64..200.0,
            gy in -400.0f64..400.0, gx in -50.0f64..50.0,
            bx in -40.0f64..40.0, by in -40.0f64..40.0, w in 1.0f64..40.0, h in 1.0f64..40.0,
            r in 0.5f64..10.0,
        ) {
            let b = Aabb::new(Vec2::new(bx, by), Vec2::new(bx + w, by + h));
            let path = Path::ballistic(Vec2::new(px, py), Vec2::new(vx, vy), Vec2::new(gx, gy));
            let dist = |t: Real| distance_point_aabb(path.pos_at(t), &b) - r;
            prop_assume!(dist(0.0) > 1e-9);
            let got = sweep_path_circle_aabb(&path, r, 3.0, &b, Features::ALL);
            let reference = scan(dist, 3.0, 30_000);
            match (got, reference) {
                (Some(hit), Some(t)) => prop_assert!(
                    (hit.toi - t).abs() < 1e-9 || (hit.toi < t && dist(hit.toi) < 1e-7),
                    "{} vs {t}", hit.toi
                ),
                (None, Some(t)) => prop_assert!(false, "missed the contact at {t}"),
                (Some(hit), None) => prop_assert!(dist(hit.toi) < 1e-7, "phantom hit {hit:?}"),
                (None, None) => {}
            }
            if let Some(hit) = got {
                prop_assert!(dist(hit.toi).abs() < 1e-7, "not touching at the hit: {}", dist(hit.toi));
                // The normal points from the box toward the centre.
                let c = path.pos_at(hit.toi);
                prop_assert!((c - hit.point).dot(hit.normal) > 0.0);
            }
        }
    }
}
