use super::{first_outside, touching_radius};
use crate::math::{Real, Vec2};
use crate::motion::Path;
use crate::query::overlap::{distance_point_polygon, distance_point_segment};
use crate::roots::{corner_quartic, sign_changes};
use crate::shape::{Aabb, ConvexPolygon, Segment};
use crate::sweep_path::SOLVE_HORIZON;

/// The first time `τ >= from` (seconds from the path's start) at which a circle of `radius`
/// on `path` stops overlapping the convex `polygon`: the end of the stretch of overlap that
/// starts at `from` (the method of [`crate::exit`], on the polygon's Minkowski sum with the
/// disc: each edge's line moved out by `radius`, and a disc at each vertex). `Some(from)` when
/// the circle does not overlap the polygon just after `from`; `None` when it still overlaps
/// after `from + SOLVE_HORIZON`, or for non-finite input.
///
/// # Arguments
/// - `path`: the circle centre's path (world units, seconds; y down);
/// - `radius`: world units, `>= 0`;
/// - `polygon`: the polygon, world units;
/// - `from`: the start time, seconds from the path's start.
///
/// ```
/// use collide_core::{exit_path_circle_polygon, motion::Path, ConvexPolygon, Vec2};
/// // A triangle with its long side on y = 0 and its apex at (5, −5); a circle of radius 1
/// // rising at 2 from (5, 1), touching the base: it leaves above the apex, at y = −6, τ = 3.5.
/// let tri = ConvexPolygon::new(&[Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0), Vec2::new(5.0, -5.0)]).unwrap();
/// let p = Path::linear(Vec2::new(5.0, 1.0), Vec2::new(0.0, -2.0));
/// let t = exit_path_circle_polygon(&p, 1.0, &tri, 0.0).unwrap();
/// assert!((t - 3.5).abs() < 1e-12);
/// ```
#[must_use]
pub fn exit_path_circle_polygon(
    path: &Path,
    radius: Real,
    polygon: &ConvexPolygon,
    from: Real,
) -> Option<Real> {
    let vertices = polygon.vertices();
    exit_rounded(path, radius, vertices, polygon.aabb(), from, &|p| {
        distance_point_polygon(p, polygon)
    })
}

/// The first time `τ >= from` (seconds from the path's start) at which a circle of `radius`
/// on `path` stops overlapping `segment` (the segment's Minkowski sum with the disc is a
/// capsule: two lines at `radius` from the segment's line and a disc at each end; the method
/// of [`crate::exit`]). `Some(from)` when the circle does not overlap the segment just after
/// `from`; `None` when it still overlaps after `from + SOLVE_HORIZON`, or for non-finite
/// input.
///
/// # Arguments
/// - `path`: the circle centre's path (world units, seconds; y down);
/// - `radius`: world units, `>= 0`;
/// - `segment`: the segment, world units;
/// - `from`: the start time, seconds from the path's start.
///
/// ```
/// use collide_core::{exit_path_circle_segment, motion::Path, Segment, Vec2};
/// // A platform from (0, 0) to (10, 0); a ball of radius 2 thrown up at 20 from (5, 2) (its
/// // top touching it) under gravity 10 (y down): it leaves when its centre passes y = −2,
/// // 2 − 20τ + 5τ² = −2: the smaller root of 5τ² − 20τ + 4 = 0.
/// let s = Segment::new(Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0));
/// let p = Path::ballistic(Vec2::new(5.0, 2.0), Vec2::new(0.0, -20.0), Vec2::new(0.0, 10.0));
/// let t = exit_path_circle_segment(&p, 2.0, &s, 0.0).unwrap();
/// let expected = (20.0 - (400.0f64 - 80.0).sqrt()) / 10.0;
/// assert!((t - expected).abs() < 1e-12);
/// ```
#[must_use]
pub fn exit_path_circle_segment(
    path: &Path,
    radius: Real,
    segment: &Segment,
    from: Real,
) -> Option<Real> {
    let ends = [segment.a, segment.b];
    let aabb = Aabb::new(segment.a.min(segment.b), segment.a.max(segment.b));
    exit_rounded(path, radius, &ends, aabb, from, &|p| {
        distance_point_segment(p, segment)
    })
}

/// The exit of a circle of radius `radius` on `path` from the shape whose vertices (in order,
/// closed when more than two) are `vertices` and whose distance from a point is `distance`:
/// the cuts are the edges' lines moved by `±radius` along their normals (quadratics of the
/// time) and the vertices' discs (quartics), which hold the boundary of the Minkowski sum.
fn exit_rounded(
    path: &Path,
    radius: Real,
    vertices: &[Vec2],
    aabb: Aabb,
    from: Real,
    distance: &dyn Fn(Vec2) -> Real,
) -> Option<Real> {
    let finite = [path.p0, path.v0, path.accel, aabb.min, aabb.max]
        .iter()
        .all(|v| v.is_finite())
        && radius.is_finite()
        && from.is_finite();
    if !finite || vertices.is_empty() {
        return None;
    }
    let (lo, hi) = (from, from + SOLVE_HORIZON);
    let r = radius;
    let n = vertices.len();
    let edges = if n > 2 { n } else { n - 1 };
    let mut cuts = Vec::with_capacity(4 * edges + 4 * n);
    for i in 0..edges {
        let (a, b) = (vertices[i], vertices[(i + 1) % n]);
        let d = b - a;
        let len = d.length();
        if len > 0.0 {
            let normal = d.perp() / len;
            // (p(τ) − a)·n − off: a quadratic of the time.
            let (p, v, g) = (
                (path.p0 - a).dot(normal),
                path.v0.dot(normal),
                0.5 * path.accel.dot(normal),
            );
            for off in [-r, r] {
                cuts.extend(sign_changes(&[p - off, v, g, 0.0, 0.0], lo, hi));
            }
        }
    }
    for &c in vertices {
        let q = corner_quartic(path.p0 - c, path.v0, path.accel, r);
        cuts.extend(sign_changes(&q, lo, hi));
    }
    let near = touching_radius(r, path, &aabb);
    first_outside(
        cuts,
        from,
        SOLVE_HORIZON,
        |t| distance(path.pos_at(t)) < r,
        |t| distance(path.pos_at(t)) <= near,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exit found by scanning the distance at fine steps: the first time after `from`
    /// at which the circle is apart, to within `step`.
    fn scan(path: &Path, r: Real, distance: impl Fn(Vec2) -> Real, from: Real, step: Real) -> Real {
        let mut t = from + step;
        while distance(path.pos_at(t)) < r {
            t += step;
        }
        t
    }

    #[test]
    fn segment_exits_match_a_scan_over_random_paths() {
        let mut seed = 7u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 11) as Real / (1u64 << 53) as Real - 0.5
        };
        let mut checked = 0;
        for _ in 0..400 {
            let s = Segment::new(
                Vec2::new(10.0 * next(), 10.0 * next()),
                Vec2::new(10.0 * next(), 10.0 * next()),
            );
            let r = 0.5 + 2.0 * (next() + 0.5);
            // Start inside the capsule: on the segment, moved by less than r.
            let u = next() + 0.5;
            let start = s.a + (s.b - s.a) * u + Vec2::new(next(), next()) * r;
            if distance_point_segment(start, &s) >= r {
                continue;
            }
            let path = Path::ballistic(
                start,
                Vec2::new(20.0 * next(), 20.0 * next()),
                Vec2::new(10.0 * next(), 10.0 * next()),
            );
            let t = exit_path_circle_segment(&path, r, &s, 0.0).expect("it leaves");
            let expected = scan(&path, r, |p| distance_point_segment(p, &s), 0.0, 1e-5);
            assert!(
                (t - expected).abs() <= 1e-5 + 1e-9,
                "exit {t} against the scan's {expected}"
            );
            checked += 1;
        }
        assert!(checked > 100, "only {checked} paths started inside");
    }

    #[test]
    fn polygon_exits_match_a_scan_over_random_paths() {
        let mut seed = 11u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 11) as Real / (1u64 << 53) as Real - 0.5
        };
        let poly = ConvexPolygon::new(&[
            Vec2::new(0.0, 0.0),
            Vec2::new(8.0, -1.0),
            Vec2::new(10.0, 4.0),
            Vec2::new(3.0, 7.0),
            Vec2::new(-2.0, 3.0),
        ])
        .expect("a convex polygon");
        for _ in 0..300 {
            let r = 0.5 + 2.0 * (next() + 0.5);
            let start = Vec2::new(4.0 + 8.0 * next(), 3.0 + 8.0 * next());
            let path = Path::ballistic(
                start,
                Vec2::new(30.0 * next(), 30.0 * next()),
                Vec2::new(20.0 * next(), 20.0 * next()),
            );
            let t = exit_path_circle_polygon(&path, r, &poly, 0.0).expect("it leaves");
            if distance_point_polygon(start, &poly) >= r {
                assert_eq!(t, 0.0, "a circle apart at the start leaves at once");
                continue;
            }
            let expected = scan(&path, r, |p| distance_point_polygon(p, &poly), 0.0, 1e-5);
            assert!(
                (t - expected).abs() <= 1e-5 + 1e-9,
                "exit {t} against the scan's {expected}"
            );
        }
    }
}
