//! A box on a curved path (a dynamic rectangle, straight or under constant acceleration)
//! against a capsule turning about a pivot (a swinging pinball flipper):
//! [`sweep_path_aabb_turning_capsule`].

use crate::math::{Real, Vec2};
use crate::motion::Path;
use crate::query::hit::TurningHit;
use crate::query::sweep::turning_search::{self, GapProblem, GapState};
#[cfg(doc)]
use crate::query::sweep::TURNING_MAX_ITERATIONS;
use crate::query::sweep::{sweep_path_circle_turning_capsule, TurningSweep};
use crate::shape::feature::Corner;
use crate::shape::{Aabb, TurningCapsule};

/// One end of the flipper's core (the pivot, `s = 0`, or the tip, `s = L`) against the box:
/// the gap `dist(e(τ), B(τ)) − rc` between the end `e` and the box `B`.
struct EndProblem<'a> {
    /// The box's centre, relative to the pivot.
    rel: Path,
    half: Vec2,
    cap: &'a TurningCapsule,
    /// The end's distance from the pivot along the core (`0` or `L`).
    s: Real,
    /// The distance at contact: the flipper's radius (see `turning_search::contact_distance`).
    reach: Real,
    accel: Real,
    omega: Real,
}

impl GapProblem for EndProblem<'_> {
    /// The end `e = s·(cos θ, sin θ)` moves at `e' = ω·e.perp()`; relative to the box's
    /// centre it is `p = e − q`, and its nearest point of the box is `p` clamped to the half
    /// extents.
    fn eval(&self, t: Real) -> GapState {
        let q = self.rel.pos_at(t);
        let qv = self.rel.vel_at(t);
        let dir = self.cap.direction_at(t);
        let c = dir * self.s;
        let p = c - q;
        let pv = c.perp() * self.cap.omega - qv;
        let m = p - p.clamp(-self.half, self.half);
        let dist = m.length();
        let rate = if dist > 0.0 { m.dot(pv) / dist } else { 0.0 };
        GapState {
            t,
            q: p,
            qv,
            dir,
            s: self.s,
            c,
            m,
            dist,
            gap: dist - self.reach,
            rate,
            w1: 0.0,
        }
    }

    /// `|D'| <= |p'| <= |q'| + |ω|·s`, and `|q'|` grows at most by `|a|` a second: the root
    /// of `B·h + ½|a|·h² = D` in a stable form.
    fn first_order_step(&self, st: &GapState) -> Real {
        let b = st.qv.length() + self.omega * self.s;
        let den = b + (b * b + 2.0 * self.accel * st.gap).sqrt();
        if den > 0.0 {
            2.0 * st.gap / den
        } else {
            Real::INFINITY
        }
    }

    /// Outside a convex set the distance to it has a gradient of Lipschitz constant
    /// `1/dist`, so `|D''| <= |p'|²/dist + |p''|`, with `|p'| <= |q'| + |a|·h + |ω|·s` and
    /// `|p''| = |e'' − a| <= ω²·s + |a|` over `[t, t + h]`.
    fn curvature_bound(&self, st: &GapState, h: Real, dist_lo: Real) -> Real {
        let v = st.qv.length() + self.accel * h + self.omega * self.s;
        v * v / dist_lo + self.accel + self.omega * self.omega * self.s
    }

    fn contact_dist(&self) -> Real {
        self.reach
    }

    fn scale(&self) -> Real {
        self.rel.p0.length() + self.half.length() + self.cap.length.abs()
    }

    /// The normal from the end toward the box (`−m`); an end inside the box is pushed along
    /// the flipper's motion.
    fn hit(&self, st: &GapState) -> TurningHit {
        TurningHit::on_capsule(self.cap, st.t, st.c, self.s, -st.m, st.dist, st.dir)
    }
}

/// Sweeps a box of half extents `half` whose centre follows `path` against a capsule turning
/// about its pivot (a swinging flipper, see [`TurningCapsule`] for its motion and the sign of
/// `omega` with y down; `omega = 0` is a capsule at rest): the earliest time in
/// `[0, max_toi]` at which the box comes within the flipper's radius `rc` of its core
/// segment.
///
/// # The method: the features that can meet first, each by certified conservative advancement
/// The distance between two convex polygons that do not meet is attained at a vertex of one
/// of them (C. Ericson, "Real-Time Collision Detection", 2005, §5.1.9): here a corner of the
/// box against the core segment, or an end of the core against the box. So the gap
/// `D(τ) = dist(B(τ), S(τ)) − rc` is the least of six gaps, each the distance from a moving
/// point to a moving convex set, less `rc`:
/// - **a corner against the core**: a ball of radius 0 on the corner's path, swept by
///   [`sweep_path_circle_turning_capsule`];
/// - **an end against the box** (the pivot and the tip): the end `e(τ)` relative to the
///   box's centre, `p = e − q`, at distance `|p − clamp(p, −half, half)|` from it; its rate
///   `D' = n·p'` and the bounds `|D'| <= |q'| + |ω|·s`, `|D''| <= |p'|²/dist + ω²·s + |a|`
///   feed the same certified search.
///
/// Each gap is searched by the certified conservative advancement of
/// [`sweep_path_circle_turning_capsule`] (first- and second-order steps that never pass a
/// contact, then a bracket shrunk to adjacent floating-point times), so a box sliding
/// along a turning flipper (a gap and a rate near zero) takes second-order steps, not the
/// first-order crawl. The box's first contact is the earliest of the six; each of them is
/// a contact of the box itself, since every one of the six distances is at least the box's.
///
/// Contact at the start (Bannerman et al. 2014), feature by feature: in contact and
/// approaching is a hit at `toi = 0`; in contact and separating is followed until apart or
/// approaching again. A core crossing the box's interior while the flipper turns is a hit at
/// once (the flipper pushes the box along its motion); a box at rest overlapping a capsule
/// at rest is a miss.
///
/// # Limits
/// - Each of the six searches is bounded by [`TURNING_MAX_ITERATIONS`] evaluations; past it
///   the answer is [`TurningSweep::Unresolved`] with the time up to which no contact exists.
/// - With a flipper of radius 0 only the first-order steps are certified.
/// - `cos`/`sin` come from [`crate::sin_cos`] (libm's pure-Rust implementation): the same
///   bits on every target.
///
/// # Arguments
/// - `path`: the box's centre (seconds, units/s, units/s²), `half`: its half extents
///   (world units, `>= 0`).
/// - `flipper`: the turning capsule, its state at `τ = 0`.
/// - `max_toi`: the horizon (seconds).
///
/// # Returns
/// [`TurningSweep::Hit`] with the time of contact, the normal from the flipper toward the
/// box, the contact point on the flipper's surface, the flipper's surface velocity there and
/// the part of the core nearest to the box; [`TurningSweep::Miss`]; or
/// [`TurningSweep::Unresolved`]. A non-finite input or a negative or NaN `max_toi` gives
/// [`TurningSweep::Miss`].
///
/// # Example
/// ```
/// use collide_core::motion::Path;
/// use collide_core::{sweep_path_aabb_turning_capsule, TurningCapsule, Vec2};
/// // A flipper of length 100 and radius 5 pivoting at the origin along +x, at rest; a box of
/// // half size 10 × 10 centred at (50, −40) falls at 100 units/s: its bottom (y = −30)
/// // reaches the flipper's top (y = −5) after 25 units, at 0.25 s.
/// let flipper = TurningCapsule { length: 100.0, radius: 5.0, ..Default::default() };
/// let path = Path::linear(Vec2::new(50.0, -40.0), Vec2::new(0.0, 100.0));
/// let hit = sweep_path_aabb_turning_capsule(&path, Vec2::new(10.0, 10.0), &flipper, 1.0)
///     .hit()
///     .unwrap();
/// assert!((hit.toi - 0.25).abs() < 1e-9);
/// assert!((hit.normal - Vec2::new(0.0, -1.0)).length() < 1e-9);
/// ```
#[must_use]
pub fn sweep_path_aabb_turning_capsule(
    path: &Path,
    half: Vec2,
    flipper: &TurningCapsule,
    max_toi: Real,
) -> TurningSweep {
    let finite = path.p0.is_finite()
        && path.v0.is_finite()
        && path.accel.is_finite()
        && half.is_finite()
        && flipper.pivot.is_finite()
        && flipper.pivot_vel.is_finite()
        && flipper.length.is_finite()
        && flipper.radius.is_finite()
        && flipper.angle.is_finite()
        && flipper.omega.is_finite();
    if !(max_toi >= 0.0) || !finite {
        return TurningSweep::Miss;
    }
    let half = half.abs();
    let rel = Path {
        p0: path.p0 - flipper.pivot,
        v0: path.v0 - flipper.pivot_vel,
        accel: path.accel,
    };
    if flipper.omega != 0.0 {
        // The core across the box's interior: the turning flipper pushes it at once.
        let dir = flipper.direction_at(0.0);
        let core = crate::shape::Capsule::new(Vec2::ZERO, dir * flipper.length, 0.0);
        if crate::query::overlap::aabb_overlaps_capsule(
            &Aabb::new(rel.p0 - half, rel.p0 + half),
            &core,
        ) {
            let s = rel.p0.dot(dir).clamp(0.0, flipper.length);
            return TurningSweep::Hit(TurningHit::on_capsule(
                flipper,
                0.0,
                dir * s,
                s,
                Vec2::ZERO,
                0.0,
                dir,
            ));
        }
    }
    let corners = Corner::ALL.map(|corner| {
        let at = corner.point(&Aabb::new(path.p0 - half, path.p0 + half));
        let p = Path {
            p0: at,
            v0: path.v0,
            accel: path.accel,
        };
        sweep_path_circle_turning_capsule(&p, 0.0, flipper, max_toi)
    });
    let ends = [0.0, flipper.length].map(|s| {
        turning_search::sweep(
            &EndProblem {
                rel,
                half,
                cap: flipper,
                s,
                reach: turning_search::contact_distance(flipper.radius, flipper.length),
                accel: path.accel.length(),
                omega: flipper.omega.abs(),
            },
            max_toi,
        )
    });
    earliest(corners.into_iter().chain(ends))
}

/// The earliest of several sweeps of one body: their earliest hit, unless a sweep was
/// certified only up to an earlier time (then unresolved up to there).
fn earliest(sweeps: impl Iterator<Item = TurningSweep>) -> TurningSweep {
    let mut best: Option<TurningHit> = None;
    let mut safe = Real::INFINITY;
    for sweep in sweeps {
        match sweep {
            TurningSweep::Hit(h) => {
                if best.is_none_or(|b| h.toi < b.toi) {
                    best = Some(h);
                }
            }
            TurningSweep::Unresolved { safe_until } => safe = safe.min(safe_until),
            TurningSweep::Miss => {}
        }
    }
    match best {
        Some(h) if h.toi <= safe => TurningSweep::Hit(h),
        _ if safe.is_finite() => TurningSweep::Unresolved { safe_until: safe },
        _ => TurningSweep::Miss,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::hit::SegmentFeature;
    use crate::query::overlap::distance_segment_aabb;
    use crate::shape::Segment;

    fn cap(length: Real, radius: Real, angle: Real, omega: Real) -> TurningCapsule {
        TurningCapsule {
            length,
            radius,
            angle,
            omega,
            ..Default::default()
        }
    }

    #[test]
    fn a_box_overlapping_a_flipper_is_met_only_when_it_approaches() {
        // The capsule along +x from the origin, length 100, radius 5; a 20 × 20 box centred at
        // (50, −12): its bottom face y = −2 lies 3 inside the capsule's top y = −5.
        let held = cap(100.0, 5.0, 0.0, 0.0);
        let half = Vec2::splat(10.0);
        let at = Vec2::new(50.0, -12.0);
        // At rest, or moving up and away: not met.
        for v in [Vec2::ZERO, Vec2::new(0.0, -50.0), Vec2::new(30.0, -50.0)] {
            let p = Path::linear(at, v);
            assert!(
                matches!(
                    sweep_path_aabb_turning_capsule(&p, half, &held, 1.0),
                    TurningSweep::Miss
                ),
                "{v}"
            );
        }
        // Moving down into it: met at once, the normal up (from the capsule toward the box).
        let p = Path::linear(at, Vec2::new(0.0, 50.0));
        let h = sweep_path_aabb_turning_capsule(&p, half, &held, 1.0)
            .hit()
            .expect("hit");
        assert_eq!(h.toi, 0.0);
        assert!(
            (h.normal - Vec2::new(0.0, -1.0)).length() < 1e-12,
            "{}",
            h.normal
        );
        // The core across the box (centre on the core): a turning flipper pushes it at once,
        // a held one does not hold it.
        let p = Path::linear(Vec2::new(50.0, 0.0), Vec2::ZERO);
        assert!(
            sweep_path_aabb_turning_capsule(&p, half, &cap(100.0, 5.0, 0.0, 3.0), 1.0)
                .hit()
                .is_some_and(|h| h.toi == 0.0)
        );
        assert!(matches!(
            sweep_path_aabb_turning_capsule(&p, half, &held, 1.0),
            TurningSweep::Miss
        ));
    }

    #[test]
    fn a_box_falling_on_a_flipper_at_rest_lands_at_the_hand_computed_time() {
        // Bottom face y = −30 + 100·t meets the capsule's top y = −5 at t = 0.25.
        let f = cap(100.0, 5.0, 0.0, 0.0);
        let p = Path::linear(Vec2::new(50.0, -40.0), Vec2::new(0.0, 100.0));
        let h = sweep_path_aabb_turning_capsule(&p, Vec2::new(10.0, 10.0), &f, 1.0)
            .hit()
            .expect("hit");
        assert!((h.toi - 0.25).abs() < 1e-9, "{}", h.toi);
        assert!((h.point.y + 5.0).abs() < 1e-6);
        assert_eq!(h.feature, SegmentFeature::Face);
        // Under gravity from rest: −30 + ½·g·t² = −5 with g = 800: t = √(50/800) = 0.25.
        let p = Path {
            p0: Vec2::new(50.0, -40.0),
            v0: Vec2::ZERO,
            accel: Vec2::new(0.0, 800.0),
        };
        let h = sweep_path_aabb_turning_capsule(&p, Vec2::new(10.0, 10.0), &f, 1.0)
            .hit()
            .expect("hit");
        assert!((h.toi - 0.25).abs() < 1e-9, "{}", h.toi);
    }

    #[test]
    fn a_turning_flipper_meets_a_box_at_rest_at_the_hand_computed_angle() {
        // A box [40, 60] × [30, 50] at rest; the flipper (radius 0) turns from angle 0 at
        // ω = 2 rad/s (toward +y). Its core first touches the corner of least angle, (60, 30)
        // at atan2(30, 60) (the corner (40, 30) is at atan2(30, 40), later). So
        // toi = atan2(30, 60) / 2.
        let f = cap(100.0, 0.0, 0.0, 2.0);
        let p = Path::linear(Vec2::new(50.0, 40.0), Vec2::ZERO);
        let h = sweep_path_aabb_turning_capsule(&p, Vec2::new(10.0, 10.0), &f, 2.0)
            .hit()
            .expect("hit");
        let expected = 30f64.atan2(60.0) / 2.0;
        assert!((h.toi - expected).abs() < 1e-9, "{} vs {expected}", h.toi);
        // The flipper pushes the box along its motion, with the speed of its point there.
        assert!(h.normal.y > 0.0);
        let r = h.point.length();
        assert!((h.surface_vel.length() - 2.0 * r).abs() < 1e-9);
    }

    #[test]
    fn never_inside_before_the_hit_over_many_random_cases() {
        // Sampled gaps before the reported toi are all positive (to the tolerance), and at the
        // toi the box touches.
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as Real / (1u64 << 53) as Real
        };
        let mut hits = 0;
        for _ in 0..400 {
            let f = cap(
                50.0 + 100.0 * next(),
                10.0 * next(),
                6.0 * next(),
                40.0 * (next() - 0.5),
            );
            let p = Path {
                p0: Vec2::new(300.0 * (next() - 0.5), 300.0 * (next() - 0.5)),
                v0: Vec2::new(400.0 * (next() - 0.5), 400.0 * (next() - 0.5)),
                accel: Vec2::new(0.0, 1000.0 * next()),
            };
            let half = Vec2::new(1.0 + 20.0 * next(), 1.0 + 20.0 * next());
            let gap = |t: Real| {
                let q = p.pos_at(t);
                let d = f.direction_at(t);
                distance_segment_aabb(
                    &Segment::new(f.pivot, f.pivot + d * f.length),
                    &Aabb::new(q - half, q + half),
                ) - f.radius
            };
            if gap(0.0) <= 0.0 {
                continue;
            }
            match sweep_path_aabb_turning_capsule(&p, half, &f, 0.5) {
                TurningSweep::Hit(h) => {
                    hits += 1;
                    assert!(
                        gap(h.toi).abs() < 1e-6,
                        "touching at the toi: {}",
                        gap(h.toi)
                    );
                    for k in 0..2000 {
                        let t = h.toi * k as Real / 2000.0;
                        assert!(gap(t) > -1e-9, "inside at {t} before toi {}", h.toi);
                    }
                }
                TurningSweep::Miss => {
                    for k in 0..=2000 {
                        let t = 0.5 * k as Real / 2000.0;
                        assert!(gap(t) > -1e-9, "a miss, but inside at {t}");
                    }
                }
                TurningSweep::Unresolved { .. } => {}
            }
        }
        assert!(hits > 50, "{hits} hits");
    }

    #[test]
    fn in_contact_and_separating_is_no_hit_until_it_approaches() {
        // Resting on the flipper's top and moving up: no hit.
        let f = cap(100.0, 5.0, 0.0, 0.0);
        let p = Path::linear(Vec2::new(50.0, -15.0), Vec2::new(0.0, -10.0));
        assert_eq!(
            sweep_path_aabb_turning_capsule(&p, Vec2::new(10.0, 10.0), &f, 1.0),
            TurningSweep::Miss
        );
        // Moving down from contact: a hit at once.
        let p = Path::linear(Vec2::new(50.0, -15.0), Vec2::new(0.0, 10.0));
        let h = sweep_path_aabb_turning_capsule(&p, Vec2::new(10.0, 10.0), &f, 1.0)
            .hit()
            .expect("hit");
        assert_eq!(h.toi, 0.0);
    }

    #[test]
    fn bad_input_is_a_miss() {
        let f = cap(100.0, 5.0, 0.0, 1.0);
        let p = Path::linear(Vec2::new(Real::NAN, 0.0), Vec2::ZERO);
        assert_eq!(
            sweep_path_aabb_turning_capsule(&p, Vec2::ONE, &f, 1.0),
            TurningSweep::Miss
        );
        let p = Path::linear(Vec2::new(50.0, 40.0), Vec2::ZERO);
        assert_eq!(
            sweep_path_aabb_turning_capsule(&p, Vec2::ONE, &f, -1.0),
            TurningSweep::Miss
        );
    }
}
