//! Half-tiles (45° slope cells): balls and boxes against the four orientations of a triangle
//! that is half of a box.
//!
//! Every expected value of the analytic tests is worked out by hand in a comment; the property
//! tests compare the sweeps with independent references written here (a dense scan of the
//! distance with bisection, the clipped area of box and triangle, the sweeps against the
//! triangle's three edges as segments). Conventions (crate docs): x right, **y down**, normals
//! from the obstacle toward the moving body.

use collide_core::motion::Path;
use collide_core::sweep_path::{sweep_path_aabb_half_tile, sweep_path_circle_half_tile};
use collide_core::*;
use proptest::prelude::*;

fn v(x: f64, y: f64) -> Vec2 {
    Vec2::new(x, y)
}

fn assert_rel(actual: f64, expected: f64, rel: f64, what: &str) {
    assert!(
        actual.is_finite() && (actual - expected).abs() <= rel * expected.abs().max(1.0),
        "{what}: got {actual:?}, expected {expected:?} (relative {rel:e})"
    );
}

fn assert_vec(actual: Vec2, expected: Vec2, tol: f64, what: &str) {
    assert!(
        actual.is_finite() && (actual - expected).length() <= tol,
        "{what}: got {actual:?}, expected {expected:?} (tol {tol:e})"
    );
}

/// The cell `[0, size]²` with its solid half at `solid`.
fn cell(size: f64, solid: Corner) -> HalfTile {
    HalfTile::new(Aabb::new(Vec2::ZERO, Vec2::splat(size)), solid)
}

const S2: f64 = std::f64::consts::SQRT_2;

// ---------------------------------------------------------------------------------------------
// Balls.
// ---------------------------------------------------------------------------------------------

#[test]
fn a_ball_meets_each_of_the_four_diagonals_when_the_distance_says() {
    // The cell [0, 20]², radius 2, vertical speed 5. The diagonals are y = x (solid bottom-left
    // or top-right) and x + y = 20 (solid bottom-right or top-left); the distance of a centre to
    // them is |x − y|/√2 or |x + y − 20|/√2.
    // - Bottom-left (empty side y < x), centre (12, −20) falling: (12 − y)/√2 = 2 at
    //   y = 12 − 2√2, after (12 − 2√2 + 20)/5 = (32 − 2√2)/5 s.
    // - Bottom-right (empty side x + y < 20), centre (8, −20) falling: (20 − 8 − y)/√2 = 2 at
    //   y = 12 − 2√2: the same time.
    // - Top-left (empty side x + y > 20), centre (12, 40) rising: (12 + y − 20)/√2 = 2 at
    //   y = 8 + 2√2, after (40 − 8 − 2√2)/5 s: the same time.
    // - Top-right (empty side y > x), centre (8, 40) rising: (y − 8)/√2 = 2 at y = 8 + 2√2.
    // The contact point is the centre minus 2 along the normal −s/√2 ((sx, sy) the solid
    // corner's signs), i.e. the centre plus (√2·sx, √2·sy).
    let toi = (32.0 - 2.0 * S2) / 5.0;
    for (solid, c0, vel, normal) in [
        (
            Corner::BottomLeft,
            v(12.0, -20.0),
            v(0.0, 5.0),
            v(1.0, -1.0) / S2,
        ),
        (
            Corner::BottomRight,
            v(8.0, -20.0),
            v(0.0, 5.0),
            v(-1.0, -1.0) / S2,
        ),
        (
            Corner::TopLeft,
            v(12.0, 40.0),
            v(0.0, -5.0),
            v(1.0, 1.0) / S2,
        ),
        (
            Corner::TopRight,
            v(8.0, 40.0),
            v(0.0, -5.0),
            v(-1.0, 1.0) / S2,
        ),
    ] {
        let t = cell(20.0, solid);
        let s = solid.signs();
        let at = c0 + vel * toi;
        let point = at + s * S2;
        for (what, hit) in [
            (
                "straight",
                sweep_circle_half_tile(c0, 2.0, vel, 100.0, &t, Features::ALL),
            ),
            (
                "path",
                sweep_path_circle_half_tile(&Path::linear(c0, vel), 2.0, 100.0, &t, Features::ALL),
            ),
        ] {
            let hit = hit.unwrap_or_else(|| panic!("{solid:?} {what}: no hit"));
            assert_rel(hit.toi, toi, 1e-14, &format!("{solid:?} {what} toi"));
            assert_eq!(hit.feature, Feature::Diagonal, "{solid:?} {what}");
            assert_vec(
                hit.normal,
                normal,
                1e-15,
                &format!("{solid:?} {what} normal"),
            );
            assert_vec(hit.point, point, 1e-13, &format!("{solid:?} {what} point"));
        }
    }
}

#[test]
fn a_ball_meets_the_end_of_the_diagonal_from_outside_the_box_quadrant() {
    // Solid bottom-left of [0, 10]²: the diagonal runs from (10, 10) to the vertex (0, 0). That
    // vertex's edges leave it down the left leg, (0, 1), and along the diagonal, (1, 1)/√2: its
    // exterior cone is q.y <= 0 and q.x + q.y <= 0, 135° wide, against the 90° quadrant (−, −)
    // of a box's top-left corner. A ball of radius √5 comes straight at the vertex along
    // (−1, 2) from (3, −6): it touches it when the centre is √5 away, at (1, −2), after 2 s,
    // with q = (1, −2): in the cone, outside the quadrant.
    // The diagonal's offset line (x − y)/√2 = √5 is crossed earlier (at 3 − √10/3 s) but with
    // the foot past the vertex (off the span), and the top face is no leg: the vertex is the
    // first contact. A quadrant test refuses it, and the ball would sink into the slope.
    let t = cell(10.0, Corner::BottomLeft);
    let (c0, vel, r) = (v(3.0, -6.0), v(-1.0, 2.0), 5.0f64.sqrt());
    let expected_normal = v(1.0, -2.0) / 5.0f64.sqrt();
    for hit in [
        sweep_circle_half_tile(c0, r, vel, 10.0, &t, Features::ALL),
        sweep_path_circle_half_tile(&Path::linear(c0, vel), r, 10.0, &t, Features::ALL),
    ] {
        let hit = hit.expect("vertex hit");
        assert_rel(hit.toi, 2.0, 1e-15, "toi");
        assert_eq!(hit.feature, Feature::Corner(Corner::TopLeft));
        assert_vec(hit.normal, expected_normal, 1e-15, "normal");
        assert_eq!(hit.point, v(0.0, 0.0));
    }
    // The box corner's quadrant test would let it through.
    assert!(sweep_circle_corner(c0, r, vel, 10.0, Corner::TopLeft, v(0.0, 0.0)).is_none());
    // With the vertex's bit off (a neighbour covers it), no hit at all before it is inside.
    let no_vertex = Features(Features::ALL.0 & !Features::TOP_LEFT.0);
    assert!(sweep_circle_half_tile(c0, r, vel, 10.0, &t, no_vertex).is_none());
}

#[test]
fn a_ball_along_a_leg_passes_a_vertex_whose_bit_is_off() {
    // Solid bottom-left of [0, 10]²: the bottom leg lies on y = 10 from (0, 10) to the vertex
    // (10, 10). A ball of radius 1 with its centre on that line at (15, 10) moves left at 1
    // unit/s, along the leg. With the vertex an obstacle it touches it when the centre is at
    // (11, 10), after 4 s, normal (1, 0) (in the vertex's cone: q.x >= 0 and q.x + q.y >= 0).
    // The diagonal's offset line (x − 10)/√2 = 1 is reached before, at 5 − √2 s, but with its
    // foot (10.707, 10.707) past the vertex. Without the vertex's bit, nothing: the bottom face
    // is moved along (no approach), the diagonal's foot never gets on the span while the
    // centre is on its outer side at distance >= 1, the left leg and the solid corner are only
    // met from inside (behind the face line, outside the corner's quadrant).
    let t = cell(10.0, Corner::BottomLeft);
    let (c0, vel) = (v(15.0, 10.0), v(-1.0, 0.0));
    let hit = sweep_circle_half_tile(c0, 1.0, vel, 100.0, &t, Features::ALL).expect("vertex");
    assert_eq!(hit.toi, 4.0);
    assert_eq!(hit.feature, Feature::Corner(Corner::BottomRight));
    assert_eq!(hit.normal, v(1.0, 0.0));
    let off = Features(Features::ALL.0 & !Features::BOTTOM_RIGHT.0);
    assert!(sweep_circle_half_tile(c0, 1.0, vel, 100.0, &t, off).is_none());
    assert!(sweep_path_circle_half_tile(&Path::linear(c0, vel), 1.0, 100.0, &t, off).is_none());
}

#[test]
fn a_ball_in_the_empty_half_gets_no_leg_hit() {
    // Solid bottom-left of [0, 10]²: the empty half is y < x inside the cell, behind both leg
    // lines (x = 0 and y = 10). A ball of radius 0.1 at (0.5, 0.2), 0.5 from the left leg's
    // line, moving left at 1 unit/s: the left leg is behind it, and the first contact is the
    // diagonal, (x − 0.2)/√2 = 0.1 at x = 0.2 + 0.1·√2, after 0.3 − 0.1·√2 s.
    let t = cell(10.0, Corner::BottomLeft);
    let legs = Features::LEFT | Features::BOTTOM;
    let hit = sweep_circle_half_tile(v(0.5, 0.2), 0.1, v(-1.0, 0.0), 10.0, &t, legs).unwrap();
    assert_eq!(hit.feature, Feature::Diagonal);
    assert_rel(hit.toi, 0.3 - 0.1 * S2, 1e-14, "toi");
    // Moving away from the diagonal, toward the empty top-right corner: nothing, though the
    // legs' lines are within reach of a two-sided test from that side.
    assert!(sweep_circle_half_tile(v(0.5, 0.2), 0.1, v(1.0, -1.0), 10.0, &t, legs).is_none());
    // A ball overlapping the left leg's line from the empty half (centre (0.3, 0.1), radius
    // 0.5) and moving left: only the diagonal, already within 0.5 ((0.3 − 0.1)/√2 = 0.141),
    // answers, at 0; never the left leg (a two-sided leg would push it out to the left).
    let hit = sweep_circle_half_tile(v(0.3, 0.1), 0.5, v(-1.0, 0.0), 10.0, &t, legs).unwrap();
    assert_eq!((hit.toi, hit.feature), (0.0, Feature::Diagonal));
    // Below the bottom leg's line, outside the cell, the leg is a face: a ball at (5, 13) of
    // radius 1 rising at 1 unit/s meets it after 2 s.
    let hit = sweep_circle_half_tile(v(5.0, 13.0), 1.0, v(0.0, -1.0), 10.0, &t, legs).unwrap();
    assert_eq!((hit.toi, hit.feature), (2.0, Feature::Face(Face::Bottom)));
}

#[test]
fn a_thrown_ball_lands_on_a_diagonal_at_the_root_of_its_quadratic() {
    // Solid bottom-left of [0, 100]²: the diagonal y = x, normal (1, −1)/√2. A ball of radius
    // 2√2 thrown up at 30 units/s from (60, 0) under g = 100: its centre (60, −30t + 50t²)
    // is 2√2 from the line when 60 − y = 4, y = 56: 50t² − 30t − 56 = 0,
    // t = (30 + √(900 + 11200))/100 = (30 + 110)/100 = 1.4 s. The foot is (58, 58).
    let t = cell(100.0, Corner::BottomLeft);
    let path = Path::ballistic(v(60.0, 0.0), v(0.0, -30.0), v(0.0, 100.0));
    let hit = sweep_path_circle_half_tile(&path, 2.0 * S2, 10.0, &t, Features::ALL).unwrap();
    assert_rel(hit.toi, 1.4, 1e-14, "toi");
    assert_eq!(hit.feature, Feature::Diagonal);
    assert_eq!(hit.normal, t.diagonal_normal());
    assert_vec(hit.point, v(58.0, 58.0), 1e-12, "point");
    // Resting on the slope under gravity (in contact, no speed, gravity pressing in): a hit at
    // 0. The centre is sunk 1e-6 below y = 56, where the gap 4/√2 − 2√2 is zero only up to the
    // rounding of the two constants (it can come out a few 1e-16 positive, and the ball then
    // lands that far down, some 1e-9 s later).
    let rest = Path::ballistic(v(60.0, 56.000001), Vec2::ZERO, v(0.0, 100.0));
    let hit = sweep_path_circle_half_tile(&rest, 2.0 * S2, 10.0, &t, Features::ALL).unwrap();
    assert_eq!((hit.toi, hit.feature), (0.0, Feature::Diagonal));
}

// ---------------------------------------------------------------------------------------------
// Boxes.
// ---------------------------------------------------------------------------------------------

#[test]
fn a_falling_box_meets_the_diagonal_corner_first() {
    // Solid bottom-left of [0, 20]²: the diagonal y = x. A 4 × 4 box [12, 16] × [−8, −4]
    // falling at 4 units/s: its corner nearest the line (smallest x − y) is its bottom-left
    // (12, −4 + 4t), on the line when −4 + 4t = 12, t = 4 s, at (12, 12). Its bottom entered
    // the cell's rows earlier (t = 1 s): the diagonal's axis is entered last.
    let t = cell(20.0, Corner::BottomLeft);
    let a = Aabb::new(v(12.0, -8.0), v(16.0, -4.0));
    let hit = sweep_aabb_half_tile(&a, v(0.0, 4.0), &t, 10.0).unwrap();
    assert_eq!(hit.toi, 4.0);
    assert_eq!(hit.feature, Feature::Diagonal);
    assert_eq!(hit.normal, v(1.0, -1.0) * FRAC_1_SQRT_2);
    assert_vec(hit.point, v(12.0, 12.0), 1e-13, "point");
    // Dropped from rest under g = 8: ½·8·t² = 16, t = 2 s.
    let fall = Path::ballistic(Vec2::ZERO, Vec2::ZERO, v(0.0, 8.0));
    let hit = sweep_path_aabb_half_tile(&a, &fall, &t, 10.0).unwrap();
    assert_rel(hit.toi, 2.0, 1e-15, "path toi");
    assert_eq!(hit.feature, Feature::Diagonal);
    assert_vec(hit.point, v(12.0, 12.0), 1e-12, "path point");
}

#[test]
fn a_box_moving_along_x_meets_a_leg_or_the_vertex_on_the_other_side() {
    // Solid bottom-left of [0, 10]²: the left leg is x = 0, y in [0, 10]. A box
    // [−6, −2] × [4, 8] moving right at 2 units/s reaches it after 1 s, its whole right side on
    // the leg: normal (−1, 0), the middle of the shared stretch (0, 6).
    let t = cell(10.0, Corner::BottomLeft);
    let a = Aabb::new(v(-6.0, 4.0), v(-2.0, 8.0));
    let hit = sweep_aabb_half_tile(&a, v(2.0, 0.0), &t, 10.0).unwrap();
    assert_eq!(hit.toi, 1.0);
    assert_eq!(hit.feature, Feature::Face(Face::Left));
    assert_eq!(hit.normal, v(-1.0, 0.0));
    assert_eq!(hit.point, v(0.0, 6.0));
    // From the right, [14, 18] × [9, 12] moving left at 2: the right face of the cell is no
    // leg, only the vertex (10, 10) is on it. The box's left side reaches x = 10 after 2 s,
    // while its diagonal axis (x − y from 2 to 9 against [−10, 0]) was entered at 1 s: the
    // x axis is the last, and the contact is the vertex (bottom-right), normal (1, 0).
    let a = Aabb::new(v(14.0, 9.0), v(18.0, 12.0));
    let hit = sweep_aabb_half_tile(&a, v(-2.0, 0.0), &t, 10.0).unwrap();
    assert_eq!(hit.toi, 2.0);
    assert_eq!(hit.feature, Feature::Corner(Corner::BottomRight));
    assert_eq!(hit.normal, v(1.0, 0.0));
    assert_eq!(hit.point, v(10.0, 10.0));
    // Higher, [14, 18] × [5, 7]: the triangle reaches only x = 7 at y = 7, so the box's
    // bottom-left corner (14 − 2t, 7) meets the diagonal y = x at t = 3.5 s.
    let a = Aabb::new(v(14.0, 5.0), v(18.0, 7.0));
    let hit = sweep_aabb_half_tile(&a, v(-2.0, 0.0), &t, 10.0).unwrap();
    assert_eq!(hit.toi, 3.5);
    assert_eq!(hit.feature, Feature::Diagonal);
    // Sliding along the leg (touching it, moving down): no hit.
    let a = Aabb::new(v(-4.0, 2.0), v(0.0, 4.0));
    assert!(sweep_aabb_half_tile(&a, v(0.0, 3.0), &t, 10.0).is_none());
}

#[test]
fn overlaps_and_contacts() {
    let t = cell(10.0, Corner::BottomRight);
    // Solid bottom-right: the diagonal x + y = 10, empty side x + y < 10. A disc at (3, 3)
    // is (10 − 6)/√2 = 2√2 = 2.828 from it.
    assert!(!circle_overlaps_half_tile(v(3.0, 3.0), 2.8, &t));
    assert!(circle_overlaps_half_tile(v(3.0, 3.0), 2.9, &t));
    assert_rel(
        distance_point_half_tile(v(3.0, 3.0), &t),
        2.0 * S2,
        1e-15,
        "distance",
    );
    let c = contact_circle_half_tile(v(3.0, 3.0), 3.0 * S2, &t).unwrap();
    assert_rel(c.depth, S2, 1e-14, "depth");
    assert_vec(c.normal, v(-1.0, -1.0) / S2, 1e-15, "normal");
    assert_vec(c.point, v(5.0, 5.0), 1e-14, "point");
    // Centre (9, 8) inside: 1 from the right leg, 2 from the bottom one, (17 − 10)/√2 = 4.95
    // from the diagonal: out through the right leg, depth r + 1.
    let c = contact_circle_half_tile(v(9.0, 8.0), 0.5, &t).unwrap();
    assert_eq!(
        (c.normal, c.depth, c.point),
        (v(1.0, 0.0), 1.5, v(10.0, 8.0))
    );
    assert!(point_in_half_tile(v(9.0, 8.0), &t) && !point_in_half_tile(v(2.0, 2.0), &t));
    // Boxes: [0, 4] × [0, 4] has its corner (4, 4) 2 short of the line: apart. Shifted to
    // [1, 5] × [1, 5], its corner (5, 5) is on it: touching, no overlap; [2, 6]² overlaps.
    assert!(!aabb_overlaps_half_tile(
        &Aabb::new(v(0.0, 0.0), v(4.0, 4.0)),
        &t
    ));
    assert!(!aabb_overlaps_half_tile(
        &Aabb::new(v(1.0, 1.0), v(5.0, 5.0)),
        &t
    ));
    assert!(aabb_overlaps_half_tile(
        &Aabb::new(v(2.0, 2.0), v(6.0, 6.0)),
        &t
    ));
}

// ---------------------------------------------------------------------------------------------
// Independent references.
// ---------------------------------------------------------------------------------------------

/// The triangle's vertices, computed here from the cell's corners and the solid one.
fn triangle(t: &HalfTile) -> [Vec2; 3] {
    let (a, b) = (t.aabb.min, t.aabb.max);
    let corners = [v(a.x, a.y), v(b.x, a.y), v(a.x, b.y), v(b.x, b.y)];
    let opposite = match t.solid {
        Corner::TopLeft => 3,
        Corner::TopRight => 2,
        Corner::BottomLeft => 1,
        Corner::BottomRight => 0,
    };
    let mut out = [Vec2::ZERO; 3];
    let mut i = 0;
    for (k, c) in corners.iter().enumerate() {
        if k != opposite {
            out[i] = *c;
            i += 1;
        }
    }
    out
}

/// Distance from `p` to the segment `a`–`b` by the clamped projection.
fn dist_seg(p: Vec2, a: Vec2, b: Vec2) -> f64 {
    let d = b - a;
    let u = ((p - a).dot(d) / d.length_squared()).clamp(0.0, 1.0);
    (p - (a + d * u)).length()
}

/// Whether `p` is inside the triangle `tri` (same sign of the three edge cross products).
fn in_triangle(p: Vec2, tri: &[Vec2; 3]) -> bool {
    let s = |a: Vec2, b: Vec2| (b - a).perp_dot(p - a);
    let (d0, d1, d2) = (s(tri[0], tri[1]), s(tri[1], tri[2]), s(tri[2], tri[0]));
    (d0 >= 0.0 && d1 >= 0.0 && d2 >= 0.0) || (d0 <= 0.0 && d1 <= 0.0 && d2 <= 0.0)
}

/// Distance from a point to the triangle: 0 inside, else the nearest edge.
fn dist_triangle(p: Vec2, tri: &[Vec2; 3]) -> f64 {
    if in_triangle(p, tri) {
        return 0.0;
    }
    (0..3)
        .map(|i| dist_seg(p, tri[i], tri[(i + 1) % 3]))
        .fold(f64::INFINITY, f64::min)
}

/// The area of the intersection of the box `b` and the triangle `tri` (Sutherland–Hodgman
/// clipping of the triangle by the box's four half-planes, then the shoelace formula).
fn clip_area(b: &Aabb, tri: &[Vec2; 3]) -> f64 {
    let mut poly: Vec<Vec2> = tri.to_vec();
    // Each half-plane as (axis, bound, keep-below).
    for (axis, bound, below) in [
        (0, b.min.x, false),
        (0, b.max.x, true),
        (1, b.min.y, false),
        (1, b.max.y, true),
    ] {
        let inside = |p: Vec2| {
            if below {
                p[axis] <= bound
            } else {
                p[axis] >= bound
            }
        };
        let mut out = Vec::new();
        for i in 0..poly.len() {
            let (p, q) = (poly[i], poly[(i + 1) % poly.len()]);
            if inside(p) {
                out.push(p);
            }
            if inside(p) != inside(q) {
                let s = (bound - p[axis]) / (q[axis] - p[axis]);
                out.push(p + (q - p) * s);
            }
        }
        poly = out;
        if poly.is_empty() {
            return 0.0;
        }
    }
    let n = poly.len();
    0.5 * (0..n)
        .map(|i| poly[i].perp_dot(poly[(i + 1) % n]))
        .sum::<f64>()
        .abs()
}

/// The distance between the box and the triangle when apart (the nearest vertex of either to
/// the other: two disjoint convex polygons are nearest at a vertex), 0 when they meet.
fn dist_box_triangle(b: &Aabb, tri: &[Vec2; 3]) -> f64 {
    let corners = [b.min, v(b.max.x, b.min.y), b.max, v(b.min.x, b.max.y)];
    let edges_cross = (0..4).any(|i| {
        (0..3).any(|j| segments_cross(corners[i], corners[(i + 1) % 4], tri[j], tri[(j + 1) % 3]))
    });
    if edges_cross || clip_area(b, tri) > 0.0 {
        return 0.0;
    }
    let box_to_tri = corners
        .iter()
        .map(|&c| dist_triangle(c, tri))
        .fold(f64::INFINITY, f64::min);
    let tri_to_box = tri
        .iter()
        .map(|&p| {
            let q = p.clamp(b.min, b.max);
            (p - q).length()
        })
        .fold(f64::INFINITY, f64::min);
    box_to_tri.min(tri_to_box)
}

fn segments_cross(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> bool {
    let o = |p: Vec2, q: Vec2, r: Vec2| (q - p).perp_dot(r - p);
    let (d1, d2, d3, d4) = (o(c, d, a), o(c, d, b), o(a, b, c), o(a, b, d));
    ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
}

/// The first time in `[0, hi]` at which `f` drops to `<= 0` (from `> 0` at 0): a dense scan,
/// then bisection to rounding. `None` if no sample is `<= 0`.
fn scan(f: impl Fn(f64) -> f64, hi: f64, n: usize) -> Option<f64> {
    let mut prev = 0.0;
    for i in 1..=n {
        let t = hi * (i as f64 / n as f64);
        if f(t) <= 0.0 {
            let (mut a, mut b) = (prev, t);
            for _ in 0..200 {
                let m = 0.5 * (a + b);
                if f(m) > 0.0 {
                    a = m;
                } else {
                    b = m;
                }
            }
            return Some(b);
        }
        prev = t;
    }
    None
}

fn any_corner() -> impl Strategy<Value = Corner> {
    prop::sample::select(Corner::ALL.to_vec())
}

/// A random cell: a square one (the slope cells of a grid) or, every other time, a rectangle.
fn any_tile() -> impl Strategy<Value = HalfTile> {
    (
        prop::array::uniform2(-20.0f64..20.0),
        1.0f64..30.0,
        1.0f64..30.0,
        any::<bool>(),
        any_corner(),
    )
        .prop_map(|(o, w, h, square, solid)| {
            let o = Vec2::from(o);
            let size = if square { v(w, w) } else { v(w, h) };
            HalfTile::new(Aabb::new(o, o + size), solid)
        })
}

/// Where a random motion is aimed: an offset from the cell's centre and how many times over
/// the distance to it is covered in 1 s (so that most motions meet the cell, some miss it).
fn aim() -> impl Strategy<Value = ([f64; 2], f64)> {
    (prop::array::uniform2(-20.0f64..20.0), 0.2f64..3.0)
}

/// The velocity from `c` toward the aimed point.
fn aimed(tile: &HalfTile, c: Vec2, (offset, speed): ([f64; 2], f64)) -> Vec2 {
    (tile.aabb.center() + Vec2::from(offset) - c) * speed
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, max_global_rejects: 1_000_000, failure_persistence: None, ..ProptestConfig::default() })]

    /// (a) and (b) for balls on straight and curved paths: the reported toi is where the scan
    /// of the distance first reaches the radius (earlier only for a contact between samples,
    /// which must be real), the ball touches at the toi and overlaps nowhere before it; with
    /// no hit, the scan finds no contact in the horizon.
    #[test]
    fn ball_hits_where_the_distance_says(
        tile in any_tile(),
        c in prop::array::uniform2(-40.0f64..40.0),
        aim in aim(),
        acc in prop::array::uniform2(-300.0f64..300.0),
        curved in any::<bool>(),
        r in 0.2f64..8.0,
    ) {
        let tri = triangle(&tile);
        let acc = if curved { Vec2::from(acc) } else { Vec2::ZERO };
        let c = tile.aabb.center() + Vec2::from(c);
        let path = Path::ballistic(c, aimed(&tile, c, aim), acc);
        let dist = |t: f64| dist_triangle(path.pos_at(t), &tri) - r;
        prop_assume!(dist(0.0) > 1e-9);
        let max = 2.0;
        let got = if curved {
            sweep_path_circle_half_tile(&path, r, max, &tile, Features::ALL)
        } else {
            sweep_circle_half_tile(path.p0, r, path.v0, max, &tile, Features::ALL)
        };
        let scale = 1.0 + r + c.abs().max_element();
        let reference = scan(dist, max, 4000);
        match (got, reference) {
            (Some(h), Some(t)) => prop_assert!(
                (h.toi - t).abs() <= 1e-9 * (1.0 + t) || (h.toi < t && dist(h.toi) <= 1e-9 * scale),
                "{h:?} vs {t}"
            ),
            (None, Some(t)) => prop_assert!(false, "missed the contact at {t}"),
            (Some(h), None) => prop_assert!(dist(h.toi) <= 1e-9 * scale, "phantom {h:?}"),
            (None, None) => {}
        }
        if let Some(h) = got {
            prop_assert!(dist(h.toi).abs() <= 1e-9 * scale, "not touching: {}", dist(h.toi));
            let n = 1000;
            for i in 0..n {
                let t = h.toi * (i as f64 / n as f64);
                prop_assert!(dist(t) > -1e-9 * scale, "overlap at {t} before {}", h.toi);
            }
            // The normal points from the triangle toward the centre, the point is on it.
            let centre = path.pos_at(h.toi);
            prop_assert!((centre - h.point).dot(h.normal) > 0.0, "{h:?}");
            prop_assert!(dist_triangle(h.point, &tri) <= 1e-9 * scale);
            prop_assert!((h.normal.length() - 1.0).abs() < 1e-12);
        }
    }

    /// (c) For balls starting outside, the sweep against the half-tile with every feature is
    /// the earliest of the sweeps against its three edges as segments with both ends.
    #[test]
    fn ball_sweep_is_the_earliest_of_the_three_edges(
        tile in any_tile(),
        c in prop::array::uniform2(-40.0f64..40.0),
        aim in aim(),
        r in 0.2f64..8.0,
    ) {
        let tri = triangle(&tile);
        let c = tile.aabb.center() + Vec2::from(c);
        let vel = aimed(&tile, c, aim);
        prop_assume!(dist_triangle(c, &tri) > r + 1e-9);
        let max = 2.0;
        let got = sweep_circle_half_tile(c, r, vel, max, &tile, Features::ALL);
        let edges = (0..3).filter_map(|i| {
            let s = Segment::new(tri[i], tri[(i + 1) % 3]);
            sweep_circle_segment(c, r, vel, max, &s, SegmentEnds::BOTH)
        });
        let reference = edges.map(|h| h.toi).fold(None, |m: Option<f64>, t| Some(m.map_or(t, |m| m.min(t))));
        match (got, reference) {
            (Some(h), Some(t)) => prop_assert!((h.toi - t).abs() <= 1e-9 * (1.0 + t), "{h:?} vs {t}"),
            (None, None) => {}
            (g, r) => prop_assert!(false, "{g:?} vs {r:?}"),
        }
    }

    /// (a) and (b) for boxes on straight and curved paths: no positive-area overlap (the
    /// clipped area) before the toi, touching at it (the vertex distance), the toi where the
    /// scan of the distance first reaches 0; with no hit, no overlap anywhere in the horizon.
    #[test]
    fn box_hits_where_the_distance_says(
        tile in any_tile(),
        c in prop::array::uniform2(-40.0f64..40.0),
        half in prop::array::uniform2(0.25f64..10.0),
        aim in aim(),
        acc in prop::array::uniform2(-300.0f64..300.0),
        curved in any::<bool>(),
    ) {
        let tri = triangle(&tile);
        let c = tile.aabb.center() + Vec2::from(c);
        let a = Aabb::from_center_half_extents(c, Vec2::from(half));
        let acc = if curved { Vec2::from(acc) } else { Vec2::ZERO };
        let path = Path::ballistic(Vec2::ZERO, aimed(&tile, c, aim), acc);
        let at = |t: f64| a.translated(path.pos_at(t));
        prop_assume!(dist_box_triangle(&a, &tri) > 1e-9);
        let max = 2.0;
        let got = if curved {
            sweep_path_aabb_half_tile(&a, &path, &tile, max)
        } else {
            sweep_aabb_half_tile(&a, path.v0, &tile, max)
        };
        let scale = 1.0 + c.abs().max_element() + 20.0;
        let dist = |t: f64| dist_box_triangle(&at(t), &tri);
        // The first overlap with positive area (sampled), refined by bisection on "apart".
        let reference = scan(dist, max, 4000);
        let end = got.map_or(max, |h| h.toi);
        let n = 1000;
        for i in 0..n {
            let t = end * (i as f64 / n as f64);
            prop_assert!(clip_area(&at(t), &tri) <= 1e-9 * scale, "overlap at {t} before {end}");
        }
        match (got, reference) {
            (Some(h), Some(t)) => prop_assert!(
                (h.toi - t).abs() <= 1e-9 * (1.0 + t) || (h.toi < t && dist(h.toi) <= 1e-9 * scale),
                "{h:?} vs {t}"
            ),
            (None, Some(t)) => {
                // Only a touch (no area) may be met without a hit: boxes sliding along.
                let overlap = (0..=200).any(|i| clip_area(&at(t + 1e-3 * i as f64 / 200.0), &tri) > 1e-9);
                prop_assert!(!overlap, "missed the overlap at {t}");
            }
            (Some(h), None) => prop_assert!(dist(h.toi) <= 1e-9 * scale, "phantom {h:?}"),
            (None, None) => {}
        }
        if let Some(h) = got {
            prop_assert!(dist(h.toi) <= 1e-9 * scale, "not touching at {h:?}: {}", dist(h.toi));
            prop_assert!((h.normal.length() - 1.0).abs() < 1e-12);
            // Entering: the normal opposes the motion at impact.
            prop_assert!(path.vel_at(h.toi).dot(h.normal) <= 1e-9 * scale, "{h:?}");
            prop_assert!(dist_triangle(h.point, &tri) <= 1e-9 * scale, "{h:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, max_global_rejects: 1_000_000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Switching features off never makes a hit earlier, and a hit is on a feature that is
    /// on (a leg or vertex whose bit is set) or on the diagonal, which is always an obstacle.
    /// On straight paths the curved sweeps agree with the straight ones (ball and box).
    #[test]
    fn features_and_straight_paths(
        tile in any_tile(),
        c in prop::array::uniform2(-40.0f64..40.0),
        aim in aim(),
        r in 0.2f64..8.0,
        bits in any::<u8>(),
    ) {
        let tri = triangle(&tile);
        let c = tile.aabb.center() + Vec2::from(c);
        prop_assume!(dist_triangle(c, &tri) > r + 1e-9);
        let vel = aimed(&tile, c, aim);
        let all = sweep_circle_half_tile(c, r, vel, 2.0, &tile, Features::ALL);
        let some = sweep_circle_half_tile(c, r, vel, 2.0, &tile, Features(bits));
        if let Some(h) = some {
            prop_assert!(all.is_some_and(|a| a.toi <= h.toi), "{all:?} {h:?}");
            match h.feature {
                Feature::Face(f) => prop_assert!(Features(bits).contains(f.bit()) && tile.legs().contains(&f)),
                Feature::Corner(k) => prop_assert!(Features(bits).contains(k.bit()) && k != tile.solid.opposite()),
                Feature::Diagonal => {}
                Feature::Circle => prop_assert!(false),
            }
        }
        let curved = sweep_path_circle_half_tile(&Path::linear(c, vel), r, 2.0, &tile, Features(bits));
        match (some, curved) {
            (None, None) => {}
            (Some(s), Some(p)) => {
                prop_assert!((s.toi - p.toi).abs() <= 1e-9 * (1.0 + s.toi), "{s:?} {p:?}");
                prop_assert_eq!(s.feature, p.feature);
            }
            (s, p) => prop_assert!(false, "{s:?} vs {p:?}"),
        }
        let a = Aabb::from_center_half_extents(c, Vec2::splat(r));
        prop_assume!(!aabb_overlaps_half_tile(&a, &tile));
        let straight = sweep_aabb_half_tile(&a, vel, &tile, 2.0);
        let curved = sweep_path_aabb_half_tile(&a, &Path::linear(Vec2::ZERO, vel), &tile, 2.0);
        match (straight, curved) {
            (None, None) => {}
            (Some(s), Some(p)) => {
                prop_assert!((s.toi - p.toi).abs() <= 1e-9 * (1.0 + s.toi), "{s:?} {p:?}");
                prop_assert_eq!(s.feature, p.feature);
                prop_assert!((s.normal - p.normal).length() < 1e-12);
            }
            (s, p) => prop_assert!(false, "{s:?} vs {p:?}"),
        }
    }
}

/// A box pressed by gravity into a slope's diagonal that it overlaps by a rounding error
/// (1e-14 to 1e-12 deep) while parting from it at a rounding error's speed (1e-5 units/s)
/// meets it at once: gravity (1e5 units/s²) turns that motion back within `v²/(2·a)` = 3.5e-16
/// units, inside the overlap, so the box never leaves it (a motion that turns back inside
/// the overlap is decided by the acceleration). Taking only the speed, it was separating, and
/// with no later entry (the projections never part) the box fell through the diagonal under
/// gravity (the state the fuzz target `everything` found a box in, pressed into the wedge of
/// the top wall and a diagonal). A box parting fast enough to leave the overlap is still met
/// when gravity brings it back.
#[test]
fn a_box_sunk_by_rounding_into_a_diagonal_and_parting_too_slowly_is_met_at_once() {
    // The cell [0, 32]², solid bottom-right: the diagonal x + y = 32, normal (−1, −1)/√2.
    let t = cell(32.0, Corner::BottomRight);
    let g = v(1e5, 0.0);
    for sunk in [1e-14, 1e-13, 1e-12] {
        for vx in [-1e-5, 0.0, 1e-5] {
            // A 24 × 6 box with its bottom-right corner on the line (x + y = 32), `sunk` past it.
            let corner = v(26.0 + sunk, 6.0);
            let a = Aabb::new(corner - v(24.0, 6.0), corner);
            let p = Path::ballistic(Vec2::ZERO, v(vx, 1.6e-6), g);
            let h = sweep_path_aabb_half_tile(&a, &p, &t, 0.0145)
                .unwrap_or_else(|| panic!("sunk {sunk}, vx {vx}: no hit"));
            assert_eq!(h.toi, 0.0, "sunk {sunk}, vx {vx}");
            assert_eq!(h.feature, Feature::Diagonal);
            assert_vec(
                h.normal,
                v(-1.0, -1.0) * std::f64::consts::FRAC_1_SQRT_2,
                1e-15,
                "normal",
            );
        }
    }
    // Parting at 1 unit/s: out of the overlap (apex 5e-6 away) before gravity brings it back,
    // at `2·v/a` along the normal.
    let corner = v(26.0 + 1e-12, 6.0);
    let a = Aabb::new(corner - v(24.0, 6.0), corner);
    let p = Path::ballistic(
        Vec2::ZERO,
        v(-1.0, -1.0) * std::f64::consts::FRAC_1_SQRT_2,
        g,
    );
    let h = sweep_path_aabb_half_tile(&a, &p, &t, 1.0).expect("it comes back");
    // Along the normal: speed 1 away, acceleration 1e5·√½ toward: back after 2/(1e5·√½).
    assert_rel(
        h.toi,
        2.0 / (1e5 * std::f64::consts::FRAC_1_SQRT_2),
        1e-6,
        "return",
    );
}
