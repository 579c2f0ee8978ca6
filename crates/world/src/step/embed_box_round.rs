//! The curved and slanted obstacles of a box's push-out ([`crate::step::embed_box`]): a
//! flipper's capsule where it is now, and the static shapes (segments, circles, convex
//! polygons), each a convex set of points `P` grown by a radius `r` (a capsule: its core's two
//! ends and its radius; a circle: its centre and radius; a polygon: its vertices and 0).
//!
//! The positions a box's min corner may not take because of one of them form its
//! configuration-space obstacle: the Minkowski sum `H ⊕ disc(r)`, where `H` is the convex hull
//! of the points less the box's corners, `P ⊕ (−[0, size])` (for a capsule, a hexagon or a
//! parallelogram). The nearest free position of a box lies on the boundary of the union of
//! every obstacle's configuration-space obstacle: at the nearest boundary point of one of them
//! ([`RoundObstacle::exit`]) or where two boundaries cross (for a rounded obstacle and
//! an axis-aligned obstacle, a boundary point of the capsule's on an axis-aligned line of the
//! other: [`RoundObstacle::on_line`]). Crossings of two rounded obstacles' boundaries are not
//! candidates: a box between two of them with no room on any axis line goes to the next
//! candidate that is free.

use collide_core::{Aabb, Real, Vec2};

/// A rounded convex obstacle's configuration-space obstacle for a box of one size: the
/// positions of the box's min corner (world units) where the box comes closer than `r` to the
/// convex hull of the obstacle's points.
#[derive(Clone, Debug)]
pub(crate) struct RoundObstacle {
    /// The convex hull `H` of the points less the box's corners, counter-clockwise in a frame
    /// with y up (clockwise on the screen), without repeated or collinear points.
    hull: Vec<Vec2>,
    /// The obstacle's radius (world units, `>= 0`).
    r: Real,
}

impl RoundObstacle {
    /// The obstacle that the convex hull of `points` grown by `r` (world units) makes for a
    /// box of `size` (world units, `>= 0`).
    pub(crate) fn new(points: &[Vec2], r: Real, size: Vec2) -> Self {
        let corners = [
            Vec2::ZERO,
            Vec2::new(size.x, 0.0),
            size,
            Vec2::new(0.0, size.y),
        ];
        let mut pts: Vec<Vec2> = Vec::with_capacity(4 * points.len());
        for &end in points {
            for k in corners {
                pts.push(end - k);
            }
        }
        RoundObstacle {
            hull: convex_hull(pts),
            r: r.max(0.0),
        }
    }

    /// The box (world units) around the obstacle's positions.
    pub(crate) fn bounds(&self) -> Aabb {
        let mut b = Aabb::new(Vec2::splat(Real::INFINITY), Vec2::splat(-Real::INFINITY));
        for &p in &self.hull {
            b.min = b.min.min(p);
            b.max = b.max.max(p);
        }
        b.grown(self.r)
    }

    /// The signed distance from `p` to the hull `H` (negative inside, world units).
    fn signed_dist(&self, p: Vec2) -> Real {
        let h = &self.hull;
        match h.len() {
            0 => Real::INFINITY,
            1 => (p - h[0]).length(),
            2 => collide_core::distance_point_segment(p, &collide_core::Segment::new(h[0], h[1])),
            n => {
                let mut inside = -Real::INFINITY;
                let mut outside = Real::INFINITY;
                for i in 0..n {
                    let (a, b) = (h[i], h[(i + 1) % n]);
                    inside = inside.max(outward(a, b).dot(p - a));
                    outside = outside.min(collide_core::distance_point_segment(
                        p,
                        &collide_core::Segment::new(a, b),
                    ));
                }
                if inside <= 0.0 {
                    inside
                } else {
                    outside
                }
            }
        }
    }

    /// Whether a box with its min corner at `p` overlaps the capsule by more than `slack`
    /// (world units).
    pub(crate) fn overlaps(&self, p: Vec2, slack: Real) -> bool {
        self.signed_dist(p) < self.r - slack
    }

    /// The nearest point to `p` on the obstacle's boundary, for `p` inside it (elsewhere, a
    /// point of the boundary in the direction of `p` from the hull).
    pub(crate) fn exit(&self, p: Vec2) -> Vec2 {
        let h = &self.hull;
        if h.len() >= 3 {
            // Inside the hull: out through the nearest edge's line.
            let n = h.len();
            let mut best = (-Real::INFINITY, Vec2::ZERO, Vec2::ZERO);
            for i in 0..n {
                let (a, b) = (h[i], h[(i + 1) % n]);
                let o = outward(a, b);
                let s = o.dot(p - a);
                if s > best.0 {
                    best = (s, o, a);
                }
            }
            if best.0 <= 0.0 {
                return p + best.1 * (self.r - best.0);
            }
        }
        let q = self.nearest_on_hull(p);
        let d = p - q;
        let len = d.length();
        let dir = if len > 0.0 {
            d / len
        } else {
            Vec2::new(0.0, -1.0)
        };
        q + dir * self.r
    }

    /// The point of the hull's boundary nearest to `p` (`p` outside the hull).
    fn nearest_on_hull(&self, p: Vec2) -> Vec2 {
        let h = &self.hull;
        let n = h.len();
        if n == 1 {
            return h[0];
        }
        let mut best = (Real::INFINITY, h[0]);
        for i in 0..n {
            let (a, b) = (h[i], h[(i + 1) % n]);
            let (q, _) =
                collide_core::closest_point_on_segment(p, &collide_core::Segment::new(a, b));
            let d = (p - q).length_squared();
            if d < best.0 {
                best = (d, q);
            }
        }
        best.1
    }

    /// Pushes to `out` the points of the obstacle's boundary on the line where coordinate `k`
    /// (0: x, 1: y) equals `x`: the two ends of the line's chord through the obstacle (one
    /// where the line touches it, none where it misses). Each is the crossing of the line with
    /// an edge of the hull moved out by `r` along its normal, or with the circle of radius `r`
    /// about a vertex, kept when it lies on the boundary (to `1e-9` of the scale).
    pub(crate) fn on_line(&self, k: usize, x: Real, out: &mut Vec<Vec2>) {
        let j = 1 - k;
        let h = &self.hull;
        let n = h.len();
        let mut lo: Option<Vec2> = None;
        let mut hi: Option<Vec2> = None;
        let scale = h
            .iter()
            .fold(1.0, |m: Real, v| m.max(v.abs().max_element()))
            + self.r;
        let mut keep = |p: Vec2| {
            if !p.is_finite() || (self.signed_dist(p) - self.r).abs() > 1e-9 * scale {
                return;
            }
            if lo.is_none_or(|l| p[j] < l[j]) {
                lo = Some(p);
            }
            if hi.is_none_or(|h| p[j] > h[j]) {
                hi = Some(p);
            }
        };
        let at = |y: Real| {
            let mut p = Vec2::ZERO;
            p[k] = x;
            p[j] = y;
            p
        };
        for (i, &v) in h.iter().enumerate() {
            // The circle about vertex `v`.
            let dx = x - v[k];
            let disc = self.r * self.r - dx * dx;
            if disc >= 0.0 {
                let s = disc.sqrt();
                keep(at(v[j] - s));
                keep(at(v[j] + s));
            }
            // The edge from `v` to the next vertex, moved out by `r`.
            if n >= 2 {
                let b = h[(i + 1) % n];
                let o = if n == 2 {
                    // A segment: both sides.
                    let e = (b - v).normalize_or_zero();
                    for o in [Vec2::new(e.y, -e.x), Vec2::new(-e.y, e.x)] {
                        if o[j] != 0.0 {
                            keep(at((self.r + o.dot(v) - o[k] * x) / o[j]));
                        }
                    }
                    continue;
                } else {
                    outward(v, b)
                };
                if o[j] != 0.0 {
                    keep(at((self.r + o.dot(v) - o[k] * x) / o[j]));
                }
            }
        }
        out.extend(lo);
        if hi != lo {
            out.extend(hi);
        }
    }
}

/// The unit normal of edge `a → b` of a counter-clockwise hull (y up) pointing out of it.
fn outward(a: Vec2, b: Vec2) -> Vec2 {
    let d = (b - a).normalize_or_zero();
    Vec2::new(d.y, -d.x)
}

/// The convex hull of `pts`, counter-clockwise (y up), without repeated or collinear points:
/// the gift wrapping of R. A. Jarvis ("On the identification of the convex hull of a finite
/// set of points in the plane", 1973), `O(n·h)` for the at most 32 points of an obstacle.
fn convex_hull(pts: Vec<Vec2>) -> Vec<Vec2> {
    let cross = |o: Vec2, a: Vec2, b: Vec2| (a - o).perp_dot(b - o);
    // The start: the least x, then the least y (on the hull).
    let Some(&start) = pts
        .iter()
        .min_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)))
    else {
        return pts;
    };
    let mut hull = vec![start];
    let mut p = start;
    while hull.len() <= pts.len() {
        // The next point: every other point lies to its left (counter-clockwise), the
        // farthest one when several are collinear with `p`.
        let mut q = p;
        for &r in &pts {
            if r == p {
                continue;
            }
            let c = cross(p, q, r);
            if q == p || c < 0.0 || c == 0.0 && (r - p).length_squared() > (q - p).length_squared()
            {
                q = r;
            }
        }
        if q == start || q == p {
            break;
        }
        hull.push(q);
        p = q;
    }
    hull
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide_core::{distance_segment_aabb, Capsule};

    /// How far a box of `size` with its min corner at `p` is inside capsule `c` (positive:
    /// overlap), straight from the shapes.
    fn depth(c: &Capsule, size: Vec2, p: Vec2) -> Real {
        c.radius - distance_segment_aabb(&c.segment, &Aabb::new(p, p + size))
    }

    fn xorshift(seed: &mut u64) -> Real {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        (*seed >> 11) as Real / (1u64 << 53) as Real
    }

    fn random_case(seed: &mut u64) -> (Capsule, Vec2) {
        let mut r = || xorshift(seed);
        let a = Vec2::new(100.0 * r(), 100.0 * r());
        let b = if r() < 0.1 {
            a
        } else {
            Vec2::new(100.0 * r(), 100.0 * r())
        };
        let radius = if r() < 0.2 { 0.0 } else { 10.0 * r() };
        let size = Vec2::new(1.0 + 30.0 * r(), 1.0 + 30.0 * r());
        (Capsule::new(a, b, radius), size)
    }

    #[test]
    fn the_obstacle_is_where_the_box_overlaps_the_capsule() {
        let mut seed = 0x2545_F491_4F6C_DD1D_u64;
        for _ in 0..500 {
            let (c, size) = random_case(&mut seed);
            let o = RoundObstacle::new(&[c.segment.a, c.segment.b], c.radius, size);
            for _ in 0..40 {
                let p = Vec2::new(
                    -60.0 + 220.0 * xorshift(&mut seed),
                    -60.0 + 220.0 * xorshift(&mut seed),
                );
                let d = depth(&c, size, p);
                if d.abs() > 1e-9 {
                    assert_eq!(o.overlaps(p, 0.0), d > 0.0, "{c:?} {size} {p}: depth {d}");
                }
            }
        }
    }

    #[test]
    fn the_exit_of_an_overlapping_box_touches_and_is_nearest() {
        // The exit touches the capsule, and no free position is nearer among 720 directions
        // scanned out from the start.
        let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
        let mut tried = 0;
        while tried < 300 {
            let (c, size) = random_case(&mut seed);
            let o = RoundObstacle::new(&[c.segment.a, c.segment.b], c.radius, size);
            let u = xorshift(&mut seed);
            let jitter = Vec2::new(xorshift(&mut seed) - 0.5, xorshift(&mut seed) - 0.5);
            let p = (c.segment.a + c.segment.b) * 0.5 - size * u + jitter * 4.0;
            if depth(&c, size, p) <= 1e-6 {
                continue;
            }
            tried += 1;
            let q = o.exit(p);
            assert!(depth(&c, size, q).abs() < 1e-9, "{c:?} {size} {p} -> {q}");
            let dist = (q - p).length();
            for k in 0..720 {
                let a = k as Real * std::f64::consts::TAU / 720.0;
                let probe = p + Vec2::new(a.cos(), a.sin()) * (dist * (1.0 - 1e-6) - 1e-9);
                assert!(
                    depth(&c, size, probe) > -1e-9,
                    "{c:?} {size} {p}: {probe} is free, nearer than {q}"
                );
            }
        }
    }

    #[test]
    fn points_on_a_line_are_the_ends_of_its_chord() {
        let mut seed = 0xD1B5_4A32_D192_ED03_u64;
        let mut chords = 0;
        for _ in 0..500 {
            let (c, size) = random_case(&mut seed);
            let o = RoundObstacle::new(&[c.segment.a, c.segment.b], c.radius, size);
            for k in 0..2 {
                let x = -60.0 + 220.0 * xorshift(&mut seed);
                let mut pts = Vec::new();
                o.on_line(k, x, &mut pts);
                for p in &pts {
                    assert_eq!(p[k], x);
                    assert!(depth(&c, size, *p).abs() < 1e-9, "{c:?} {size} {p}");
                }
                // A dense scan of the line: its first and last overlapping samples lie
                // within a sample's width of the chord's ends.
                let j = 1 - k;
                let (mut first, mut last) = (None, None);
                for s in 0..=4000 {
                    let y = -100.0 + 300.0 * s as Real / 4000.0;
                    let mut p = Vec2::ZERO;
                    p[k] = x;
                    p[j] = y;
                    if depth(&c, size, p) > 0.0 {
                        first.get_or_insert(y);
                        last = Some(y);
                    }
                }
                if let (Some(f), Some(l)) = (first, last) {
                    chords += 1;
                    let lo = pts.iter().map(|p| p[j]).fold(Real::INFINITY, Real::min);
                    let hi = pts.iter().map(|p| p[j]).fold(-Real::INFINITY, Real::max);
                    assert!(
                        (lo - f).abs() <= 0.08 && (hi - l).abs() <= 0.08,
                        "{c:?} {size} k {k} x {x}: {lo}..{hi} vs {f}..{l}"
                    );
                }
            }
        }
        assert!(chords > 100, "{chords}");
    }
}
