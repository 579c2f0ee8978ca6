//! Property tests of collide-core: invariants that must hold for every finite input.
//!
//! Inputs mix continuous values with small integers, so that exact alignments (touching at
//! start, tangent paths, zero velocity, corner-to-corner) are generated often. Expected values
//! are checked against independent computations: `distance_point_aabb` (a clamp, no sweep
//! code), centre distances, overlap tests of the translated boxes, and the conservation laws.
//!
//! Tolerances: lengths to `1e-9 * scale`, with `scale` the largest magnitude of the inputs
//! (coordinates, radius, distance travelled), unit normals to `1e-12`, conserved quantities to
//! `1e-12` relative.

use collide_core::*;
use proptest::prelude::*;

const CASES: u32 = 768;

// ---------------------------------------------------------------------------------------------
// Strategies.
// ---------------------------------------------------------------------------------------------

/// A coordinate: mostly continuous, sometimes a small integer (exact alignments).
fn coord() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => -200.0..200.0f64,
        1 => (-20i32..=20).prop_map(f64::from),
    ]
}

/// A non-negative length (size or radius), zero included.
fn length() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => 0.0..40.0f64,
        1 => (0i32..=10).prop_map(f64::from),
    ]
}

/// A strictly positive length (box sizes for box-box sweeps).
fn positive_length() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => 0.5..40.0f64,
        1 => (1i32..=10).prop_map(f64::from),
    ]
}

fn vec2() -> impl Strategy<Value = Vec2> {
    (coord(), coord()).prop_map(|(x, y)| Vec2::new(x, y))
}

/// A velocity: continuous, small integers (zero included), or exactly zero.
fn velocity() -> impl Strategy<Value = Vec2> {
    prop_oneof![
        4 => (-100.0..100.0f64, -100.0..100.0f64).prop_map(|(x, y)| Vec2::new(x, y)),
        2 => (-5i32..=5, -5i32..=5).prop_map(|(x, y)| Vec2::new(f64::from(x), f64::from(y))),
        1 => Just(Vec2::ZERO),
    ]
}

fn aabb() -> impl Strategy<Value = Aabb> {
    (vec2(), length(), length()).prop_map(|(min, w, h)| Aabb::new(min, min + Vec2::new(w, h)))
}

fn positive_aabb() -> impl Strategy<Value = Aabb> {
    (vec2(), positive_length(), positive_length())
        .prop_map(|(min, w, h)| Aabb::new(min, min + Vec2::new(w, h)))
}

fn max_toi() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => 0.0..5.0f64,
        1 => Just(1.0),
        1 => (0i32..=4).prop_map(f64::from),
    ]
}

/// How a test picks the velocity: a free random velocity, or one aimed at a point of a target
/// region (fractions `f` of it, slightly beyond it too) reached after time `t`, so that hits
/// (including grazes and corner hits) are frequent.
#[derive(Clone, Copy, Debug)]
enum Motion {
    Free(Vec2),
    Aimed { f: Vec2, t: f64 },
}

fn motion() -> impl Strategy<Value = Motion> {
    prop_oneof![
        1 => velocity().prop_map(Motion::Free),
        2 => (-0.3..1.3f64, -0.3..1.3f64, 0.05..4.0f64)
            .prop_map(|(fx, fy, t)| Motion::Aimed { f: Vec2::new(fx, fy), t }),
    ]
}

/// The velocity of a body at `from` under `motion`, aimed into `target`.
fn resolve(motion: Motion, from: Vec2, target: &Aabb) -> Vec2 {
    match motion {
        Motion::Free(v) => v,
        Motion::Aimed { f, t } => (target.min + target.size() * f - from) / t,
    }
}

/// Maps a point of the +-200 generator range to a small integer point (about +-20).
fn snap(p: Vec2) -> Vec2 {
    (p / 10.0).round()
}

/// Maps a velocity of the +-100 range to a small integer velocity (about +-5).
fn snap_vel(v: Vec2) -> Vec2 {
    (v / 20.0).round()
}

/// A box with small integer coordinates, at least `min_size` wide and high.
fn snap_aabb(b: &Aabb, min_size: f64) -> Aabb {
    let min = snap(b.min);
    Aabb::new(min, snap(b.max).max(min + Vec2::splat(min_size)))
}

/// A unit vector (cos, sin) of a random angle.
fn unit() -> impl Strategy<Value = Vec2> {
    (0.0..std::f64::consts::TAU).prop_map(|a: f64| Vec2::new(a.cos(), a.sin()))
}

/// A mass log-uniform in [0.01, 100].
fn mass() -> impl Strategy<Value = f64> {
    (-2.0..2.0f64).prop_map(|e| 10f64.powf(e))
}

// ---------------------------------------------------------------------------------------------
// Independent helpers.
// ---------------------------------------------------------------------------------------------

/// The largest magnitude among the inputs: the scale of the rounding errors.
fn scale_of(values: &[f64]) -> f64 {
    values.iter().fold(1.0f64, |m, v| m.max(v.abs()))
}

/// Minimum over t in [t0, t1] of the distance from `c + vel t` to `aabb`. The distance to a
/// convex set along a line is a convex function of t, so a ternary search finds its minimum;
/// the end points are included explicitly.
fn min_distance_on_path(c: Vec2, vel: Vec2, t0: f64, t1: f64, aabb: &Aabb) -> f64 {
    let f = |t: f64| distance_point_aabb(c + vel * t, aabb);
    let (mut lo, mut hi) = (t0, t1);
    for _ in 0..200 {
        let m1 = lo + (hi - lo) / 3.0;
        let m2 = hi - (hi - lo) / 3.0;
        if f(m1) <= f(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    f(t0).min(f(t1)).min(f(0.5 * (lo + hi)))
}

fn check_hit(hit: &SweepHit, max_toi: f64) -> Result<(), TestCaseError> {
    prop_assert!(hit.toi.is_finite(), "toi not finite: {hit:?}");
    prop_assert!(
        hit.toi >= 0.0 && hit.toi <= max_toi,
        "toi outside [0, {max_toi}]: {hit:?}"
    );
    prop_assert!(
        hit.normal.is_finite() && hit.point.is_finite(),
        "non-finite: {hit:?}"
    );
    prop_assert!(
        (hit.normal.length() - 1.0).abs() <= 1e-12,
        "normal not unit: {hit:?}"
    );
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Properties.
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    /// No sweep returns NaN or infinity, a toi outside [0, max_toi] or a non-unit normal, for
    /// any finite input and any feature mask.
    #[test]
    fn sweeps_are_finite_in_range_and_unit(
        centre in vec2(),
        radius in length(),
        m in motion(),
        b in aabb(),
        features in any::<u8>(),
        max_toi in max_toi(),
        c2 in vec2(),
        r2 in length(),
        v2 in velocity(),
        a in aabb(),
        va in velocity(),
    ) {
        let vel = resolve(m, centre, &b.grown(radius));
        if let Some(h) = sweep_circle_aabb(centre, radius, vel, max_toi, &b, Features(features)) {
            check_hit(&h, max_toi)?;
        }
        for face in Face::ALL {
            if let Some(h) = sweep_circle_face(centre, radius, vel, max_toi, &face.segment(&b)) {
                check_hit(&h, max_toi)?;
                prop_assert_eq!(h.normal, face.normal());
            }
        }
        for corner in Corner::ALL {
            let p = corner.point(&b);
            if let Some(h) = sweep_circle_corner(centre, radius, vel, max_toi, corner, p) {
                check_hit(&h, max_toi)?;
                // The normal lies in the corner's exterior quadrant.
                let s = corner.signs();
                prop_assert!(h.normal.x * s.x >= 0.0 && h.normal.y * s.y >= 0.0, "{h:?}");
            }
            if let Some((toi, n)) = sweep_circle_point(centre, radius, vel, max_toi, p) {
                prop_assert!(toi.is_finite() && toi >= 0.0 && toi <= max_toi);
                prop_assert!(n.is_finite() && (n.length() - 1.0).abs() <= 1e-12);
            }
        }
        if let Some(h) = sweep_circle_circle(centre, radius, vel, c2, r2, v2, max_toi) {
            check_hit(&h, max_toi)?;
        }
        if let Some(h) = sweep_aabb_aabb(&a, va, &b, v2, max_toi) {
            check_hit(&h, max_toi)?;
        }
    }

    /// A sweep_circle_aabb hit (all features, circle starting clear of the box) puts the centre
    /// exactly `radius` from the box at toi, at `point + radius * normal`, and the circle never
    /// came closer than `radius` before.
    #[test]
    fn circle_aabb_hit_touches_at_toi_and_not_before(
        centre in vec2(),
        radius in length(),
        m in motion(),
        b in aabb(),
        max_toi in max_toi(),
        snapped in proptest::bool::weighted(0.3),
    ) {
        let mut vel = resolve(m, centre, &b.grown(radius));
        let (mut centre, mut radius, mut b) = (centre, radius, b);
        if snapped {
            // Integer data: exact touches, tangent paths and corner alignments happen often.
            (centre, radius, b, vel) = (snap(centre), radius.round(), snap_aabb(&b, 0.0), snap_vel(vel));
        }
        let start = distance_point_aabb(centre, &b);
        prop_assume!(start > radius);
        let scale = scale_of(&[
            centre.x, centre.y, b.min.x, b.min.y, b.max.x, b.max.y, radius,
            vel.x * max_toi, vel.y * max_toi,
        ]);
        let eps = 1e-9 * scale;
        if let Some(h) = sweep_circle_aabb(centre, radius, vel, max_toi, &b, Features::ALL) {
            check_hit(&h, max_toi)?;
            prop_assert!(h.toi > 0.0, "clear start but toi 0: {h:?}");
            let at = centre + vel * h.toi;
            let d = distance_point_aabb(at, &b);
            prop_assert!((d - radius).abs() <= eps, "distance at toi {d} vs radius {radius}: {h:?}");
            // The contact point is on the box and the centre is radius away along the normal.
            prop_assert!(distance_point_aabb(h.point, &b) <= eps, "point off the box: {h:?}");
            prop_assert!((at - (h.point + h.normal * radius)).length() <= eps, "{h:?}");
            // No earlier contact: sampled earlier times, and the minimum over [0, toi].
            for f in [0.0, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999_999] {
                let d = distance_point_aabb(centre + vel * (h.toi * f), &b);
                prop_assert!(d >= radius - eps, "closer than radius at {f}*toi: {d}: {h:?}");
            }
            let dmin = min_distance_on_path(centre, vel, 0.0, h.toi, &b);
            prop_assert!(dmin >= radius - eps, "min distance before toi {dmin}: {h:?}");
        }
    }

    /// A miss of sweep_circle_aabb (all features, circle starting clear of the box) means the
    /// centre never comes within `radius` of the box during [0, max_toi].
    #[test]
    fn circle_aabb_miss_never_comes_within_radius(
        centre in vec2(),
        radius in length(),
        m in motion(),
        b in aabb(),
        max_toi in max_toi(),
        snapped in proptest::bool::weighted(0.3),
    ) {
        let mut vel = resolve(m, centre, &b.grown(radius));
        let (mut centre, mut radius, mut b) = (centre, radius, b);
        if snapped {
            // Integer data: exact touches, tangent paths and corner alignments happen often.
            (centre, radius, b, vel) = (snap(centre), radius.round(), snap_aabb(&b, 0.0), snap_vel(vel));
        }
        prop_assume!(distance_point_aabb(centre, &b) > radius);
        let scale = scale_of(&[
            centre.x, centre.y, b.min.x, b.min.y, b.max.x, b.max.y, radius,
            vel.x * max_toi, vel.y * max_toi,
        ]);
        let eps = 1e-9 * scale;
        if sweep_circle_aabb(centre, radius, vel, max_toi, &b, Features::ALL).is_none() {
            for i in 0..=64 {
                let t = max_toi * f64::from(i) / 64.0;
                let d = distance_point_aabb(centre + vel * t, &b);
                prop_assert!(d >= radius - eps, "missed contact at t = {t}: distance {d}");
            }
            let dmin = min_distance_on_path(centre, vel, 0.0, max_toi, &b);
            prop_assert!(dmin >= radius - eps, "missed contact: min distance {dmin}");
        }
    }

    /// Reflection with e = 1 keeps the speed.
    #[test]
    fn reflect_elastic_preserves_speed(vx in -1e3..1e3f64, vy in -1e3..1e3f64, n in unit()) {
        let v = Vec2::new(vx, vy);
        let out = reflect(v, n, 1.0);
        prop_assert!((out.length() - v.length()).abs() <= 1e-12 * v.length(), "{v:?} -> {out:?}");
        // And the tangential part is kept exactly up to rounding.
        let t = n.perp();
        prop_assert!((out.dot(t) - v.dot(t)).abs() <= 1e-12 * v.length());
    }

    /// collide_elastic with e = 1 conserves momentum and kinetic energy.
    #[test]
    fn elastic_collision_conserves_momentum_and_energy(
        m1 in mass(),
        m2 in mass(),
        v1 in (-100.0..100.0f64, -100.0..100.0f64),
        v2 in (-100.0..100.0f64, -100.0..100.0f64),
        n in unit(),
    ) {
        let (v1, v2) = (Vec2::new(v1.0, v1.1), Vec2::new(v2.0, v2.1));
        let (a, b) = collide_elastic(m1, v1, m2, v2, n, 1.0);
        let p0 = v1 * m1 + v2 * m2;
        let p1 = a * m1 + b * m2;
        let p_scale = m1 * v1.length() + m2 * v2.length();
        prop_assert!((p1 - p0).length() <= 1e-12 * p_scale, "momentum {p0:?} -> {p1:?}");
        let e0 = 0.5 * (m1 * v1.length_squared() + m2 * v2.length_squared());
        let e1 = 0.5 * (m1 * a.length_squared() + m2 * b.length_squared());
        prop_assert!((e1 - e0).abs() <= 1e-12 * e0, "energy {e0} -> {e1}");
        // Tangential components are unchanged.
        let t = n.perp();
        prop_assert!((a.dot(t) - v1.dot(t)).abs() <= 1e-12 * (v1.length() + v2.length()));
        prop_assert!((b.dot(t) - v2.dot(t)).abs() <= 1e-12 * (v1.length() + v2.length()));
    }

    /// collide_elastic is exactly symmetric: the bodies swapped and the normal negated give
    /// the swapped velocities bit for bit (the world relies on it: a ball–ball collision must
    /// not depend on which ball of the pair it was found by).
    #[test]
    fn elastic_collision_is_exactly_symmetric(
        m1 in mass(),
        m2 in mass(),
        v1 in (-100.0..100.0f64, -100.0..100.0f64),
        v2 in (-100.0..100.0f64, -100.0..100.0f64),
        n in unit(),
        e in 0.0..=1.0f64,
    ) {
        let (v1, v2) = (Vec2::new(v1.0, v1.1), Vec2::new(v2.0, v2.1));
        let (a, b) = collide_elastic(m1, v1, m2, v2, n, e);
        let (b2, a2) = collide_elastic(m2, v2, m1, v1, -n, e);
        let bits = |v: Vec2| (v.x.to_bits(), v.y.to_bits());
        prop_assert_eq!((bits(a), bits(b)), (bits(a2), bits(b2)));
    }

    /// sweep_circle_circle: a hit from a clear start has the centres exactly r1 + r2 apart at
    /// toi and never closer before; a miss never brings them closer than r1 + r2.
    #[test]
    fn circle_circle_hit_at_sum_of_radii(
        c1 in vec2(),
        r1 in length(),
        c2 in vec2(),
        r2 in length(),
        v2 in velocity(),
        m in motion(),
        max_toi in max_toi(),
    ) {
        let r = r1 + r2;
        // Aim body 1 at body 2's disc, moved with body 2 (relative motion is what matters).
        let target = Aabb::from_center_half_extents(c2, Vec2::splat(r));
        let w = resolve(m, c1, &target);
        let v1 = w + v2;
        let rel = v1 - v2;
        let gap = |t: f64| ((c1 + v1 * t) - (c2 + v2 * t)).length();
        prop_assume!(gap(0.0) > r);
        let scale = scale_of(&[
            c1.x, c1.y, c2.x, c2.y, r, v1.x * max_toi, v1.y * max_toi, v2.x * max_toi,
            v2.y * max_toi,
        ]);
        let eps = 1e-9 * scale;
        // Closest approach of the relative motion, clamped to [0, end].
        let closest = |end: f64| {
            let a = rel.length_squared();
            let t = if a > 0.0 { (-(c1 - c2).dot(rel) / a).clamp(0.0, end) } else { 0.0 };
            gap(t).min(gap(0.0)).min(gap(end))
        };
        match sweep_circle_circle(c1, r1, v1, c2, r2, v2, max_toi) {
            Some(h) => {
                check_hit(&h, max_toi)?;
                prop_assert!(h.toi > 0.0);
                prop_assert!((gap(h.toi) - r).abs() <= eps, "gap at toi {} vs {r}", gap(h.toi));
                prop_assert!(closest(h.toi) >= r - eps, "closer before toi: {}", closest(h.toi));
                // Normal from body 2 toward body 1, contact point on body 2's surface.
                let d = (c1 + v1 * h.toi) - (c2 + v2 * h.toi);
                prop_assert!((d - h.normal * r).length() <= eps, "{h:?}");
                prop_assert!((h.point - (c2 + v2 * h.toi + h.normal * r2)).length() <= eps);
            }
            None => {
                prop_assert!(closest(max_toi) >= r - eps, "missed: closest {}", closest(max_toi));
            }
        }
    }

    /// sweep_aabb_aabb agrees with aabb_overlaps_aabb on the translated boxes: no overlap
    /// before toi, touching at toi, overlap just after; a miss never overlaps.
    #[test]
    fn aabb_sweep_consistent_with_overlap(
        a in positive_aabb(),
        b in positive_aabb(),
        va in velocity(),
        vb in velocity(),
        m in motion(),
        max_toi in max_toi(),
        snapped in proptest::bool::weighted(0.3),
    ) {
        // Either two free velocities, or b's velocity chosen so that a moves (relative to b)
        // toward a point around b.
        let vb = match m {
            Motion::Free(_) => vb,
            Motion::Aimed { .. } => va - resolve(m, a.center(), &b.grown(a.half_extents().max_element())),
        };
        let (a, b, va, vb) = if snapped {
            // Integer data: touching starts, sliding contacts and exact corner-to-corner hits.
            (snap_aabb(&a, 1.0), snap_aabb(&b, 1.0), snap_vel(va), snap_vel(vb))
        } else {
            (a, b, va, vb)
        };
        let rel = va - vb;
        let at = |t: f64| a.translated(va * t);
        let bt = |t: f64| b.translated(vb * t);
        let scale = scale_of(&[
            a.min.x, a.min.y, a.max.x, a.max.y, b.min.x, b.min.y, b.max.x, b.max.y,
            va.x * max_toi, va.y * max_toi, vb.x * max_toi, vb.y * max_toi,
        ]);
        let eps = 1e-9 * scale;
        // Overlap by more than eps on both axes (robust to rounding of the translations).
        let deep = |p: &Aabb, q: &Aabb| {
            p.min.x < q.max.x - eps && p.max.x > q.min.x + eps
                && p.min.y < q.max.y - eps && p.max.y > q.min.y + eps
        };
        let hit = sweep_aabb_aabb(&a, va, &b, vb, max_toi);
        if let Some(h) = hit {
            check_hit(&h, max_toi)?;
        }
        if aabb_overlaps_aabb(&a, &b) {
            // Overlapping at the start: either no event or an immediate one.
            if let Some(h) = hit {
                prop_assert_eq!(h.toi, 0.0);
            }
            return Ok(());
        }
        match hit {
            Some(h) => {
                for f in [0.0, 0.5, 0.9, 0.999] {
                    let t = h.toi * f;
                    if t < h.toi {
                        prop_assert!(!aabb_overlaps_aabb(&at(t), &bt(t)), "overlap at {t} < toi: {h:?}");
                    }
                }
                // Touching at toi: the closed boxes meet (gap at most eps on both axes).
                let (p, q) = (at(h.toi), bt(h.toi));
                prop_assert!(
                    p.min.x <= q.max.x + eps && p.max.x >= q.min.x - eps
                        && p.min.y <= q.max.y + eps && p.max.y >= q.min.y - eps,
                    "not touching at toi: {p:?} {q:?} {h:?}"
                );
                prop_assert!(!deep(&p, &q), "already deep at toi: {p:?} {q:?} {h:?}");
                // Overlapping just after toi (search down from 1e-3 for a short overlap).
                let delta = 1e-3 * h.toi.max(1.0);
                let after = (0..48).any(|k| {
                    let t = h.toi + delta * 0.5f64.powi(k);
                    t > h.toi && aabb_overlaps_aabb(&at(t), &bt(t))
                });
                prop_assert!(after, "no overlap just after toi: {h:?}");
                // The normal is the face (or diagonal) normal opposing the relative motion.
                prop_assert!(h.normal.dot(rel) < 0.0, "normal {:?} vs rel {rel:?}", h.normal);
            }
            None => {
                for i in 0..=64 {
                    let t = max_toi * f64::from(i) / 64.0;
                    prop_assert!(!deep(&at(t), &bt(t)), "missed overlap at t = {t}");
                }
            }
        }
    }
}
