//! A box on a curved path (a dynamic rectangle, straight or under constant acceleration)
//! against a capsule turning about a pivot (a swinging pinball flipper):
//! [`sweep_path_aabb_turning_capsule`].

use crate::math::{Real, Vec2};
use crate::motion::Path;
use crate::query::hit::TurningHit;
use crate::query::overlap::{closest_point_on_aabb, closest_point_on_segment};
use crate::query::sweep::TurningSweep;
#[cfg(doc)]
use crate::query::sweep::TURNING_MAX_ITERATIONS;
use crate::shape::feature::Corner;
use crate::shape::{Aabb, Segment, TurningCapsule};

/// The largest number of evaluations of the gap spent by [`sweep_path_aabb_turning_capsule`]
/// before it gives up with [`TurningSweep::Unresolved`]. Lower than a ball's
/// [`TURNING_MAX_ITERATIONS`]: the box's steps are first order (the gap over the closing-speed
/// bound), so a box sliding along a turning flipper creeps at every one of them; a caller
/// searches again from the certified time, and its bound on search events then caps the
/// step's work at a tenth of what 2 000 evaluations a search would allow.
pub const BOX_TURNING_MAX_ITERATIONS: u32 = 200;

/// The nearest points of a box and the flipper's core at one time, relative to the pivot.
#[derive(Clone, Copy, Debug)]
struct State {
    t: Real,
    /// The box's velocity.
    qv: Vec2,
    /// The nearest point of the core (relative to the pivot), its parameter along the core
    /// (`0..=L`), the nearest point of the box, and their distance.
    c: Vec2,
    s: Real,
    on_box: Vec2,
    dist: Real,
    /// `D = dist − rc`, and `D'` along the line of the nearest points.
    gap: Real,
    rate: Real,
}

struct Problem<'a> {
    rel: Path,
    half: Vec2,
    cap: &'a TurningCapsule,
    accel: Real,
    omega: Real,
}

impl Problem<'_> {
    /// The nearest points of the box at `t` and the core at `t`: two convex shapes that do not
    /// meet are nearest at a vertex of one of them (Ericson 2005, §5.1.9), so the candidates
    /// are the core's ends against the box and the box's corners against the core.
    fn eval(&self, t: Real) -> State {
        let q = self.rel.pos_at(t);
        let qv = self.rel.vel_at(t);
        let dir = self.cap.direction_at(t);
        let core = Segment::new(Vec2::ZERO, dir * self.cap.length);
        let bx = Aabb::new(q - self.half, q + self.half);
        let mut best = (Real::INFINITY, Vec2::ZERO, 0.0, Vec2::ZERO);
        for (end, s) in [(core.a, 0.0), (core.b, self.cap.length)] {
            let p = closest_point_on_aabb(end, &bx);
            let d = (p - end).length();
            if d < best.0 {
                best = (d, end, s, p);
            }
        }
        for corner in Corner::ALL {
            let k = corner.point(&bx);
            let (c, u) = closest_point_on_segment(k, &core);
            let d = (k - c).length();
            if d < best.0 {
                best = (d, c, u * self.cap.length, k);
            }
        }
        let (mut dist, c, s, on_box) = best;
        if crate::query::overlap::aabb_overlaps_capsule(
            &bx,
            &crate::shape::Capsule::new(core.a, core.b, 0.0),
        ) {
            // The core crosses the box's interior: deep inside.
            dist = 0.0;
        }
        let rate = if dist > 0.0 {
            let n = (on_box - c) / dist;
            n.dot(qv - c.perp() * self.cap.omega)
        } else {
            0.0
        };
        State {
            t,
            qv,
            c,
            s,
            on_box,
            dist,
            gap: dist - self.cap.radius,
            rate,
        }
    }

    /// The first-order certified step from `st` (`st.gap > 0`): `D` shrinks no faster than
    /// `|q'| + |ω|·L`, and `|q'(τ + s)| <= |q'(τ)| + |a|·s`; the root of
    /// `B·s + ½|a|·s² = D` in a stable form. Infinite when nothing moves.
    fn step(&self, st: &State) -> Real {
        let b = st.qv.length() + self.omega * self.cap.length;
        let den = b + (b * b + 2.0 * self.accel * st.gap).sqrt();
        if den > 0.0 {
            2.0 * st.gap / den
        } else {
            Real::INFINITY
        }
    }

    fn hit(&self, st: &State) -> TurningHit {
        // The core inside the box (`dist = 0`): pushed along the flipper's own motion.
        let dir = self.cap.direction_at(st.t);
        TurningHit::on_capsule(self.cap, st.t, st.c, st.s, st.on_box - st.c, st.dist, dir)
    }
}

/// Sweeps a box of half extents `half` whose centre follows `path` against a capsule turning
/// about its pivot (a swinging flipper, see [`TurningCapsule`] for its motion and the sign of
/// `omega` with y down; `omega = 0` is a capsule at rest): the earliest time in
/// `[0, max_toi]` at which the box comes within the flipper's radius of its core segment.
///
/// # The method: conservative advancement
/// The gap `D(τ) = dist(B(τ), S(τ)) − rc` between the box `B` and the flipper's core segment
/// `S` has no closed form (it involves `cos` and `sin` of `ω·τ`). It shrinks no faster than
/// the closing speed of the box and the nearest material point of the flipper:
/// `|D'| <= |q'| + |ω|·L` (`q` the box's centre relative to the pivot, `L` the flipper's
/// length), and `|q'(τ + s)| <= |q'(τ)| + |a|·s`. So from a time with `D > 0` no contact
/// happens before the root `h` of `B·s + ½|a|·s² = D`, `B = |q'| + |ω|·L`, and the search
/// steps by `h` (B. Mirtich, "Impulse-based dynamic simulation of rigid body systems", PhD
/// thesis, UC Berkeley 1996; X. Zhang, M. Lee, Y. J. Kim, "Interactive continuous collision
/// detection for non-convex polyhedra", The Visual Computer, 2006). Every step is certified:
/// no contact is ever stepped over. The search ends when the gap is within `tol` (a
/// millionth of a millionth of the scene's scale, `|q| + |half| + L + rc + 1`): the box
/// touches there to that tolerance, and was apart at every earlier time.
///
/// Contact at the start (Bannerman et al. 2014): within `tol` (touching or overlapping) and
/// approaching (the gap's rate `< 0`) is a hit at `toi = 0`, and so is a core crossing the
/// box's interior while the flipper turns (it pushes the box along its motion); within `tol`
/// and not approaching is followed by steps that double from `tol / B` until the box is apart
/// (then searched as above) or approaches again (a hit there). A box at rest overlapping a
/// capsule at rest is a miss.
///
/// # Limits
/// - Near a graze the steps shrink with the gap's rate: the count is bounded by
///   [`BOX_TURNING_MAX_ITERATIONS`], past it the answer is [`TurningSweep::Unresolved`] with the
///   time up to which no contact exists.
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
    let pb = Problem {
        rel: Path {
            p0: path.p0 - flipper.pivot,
            v0: path.v0 - flipper.pivot_vel,
            accel: path.accel,
        },
        half: half.abs(),
        cap: flipper,
        accel: path.accel.length(),
        omega: flipper.omega.abs(),
    };
    let tol = 1e-12
        * (pb.rel.p0.length()
            + pb.half.length()
            + flipper.length.abs()
            + flipper.radius.abs()
            + 1.0);
    let mut st = pb.eval(0.0);
    let mut iterations: u32 = 1;
    // In contact at the start: a hit if approaching (or if the core crosses the box and the
    // flipper turns: it pushes the box along its motion), else followed until apart. A box
    // overlapping a flipper that holds still and does not approach it is not met: it moves
    // out as it goes, as a ball does, never bouncing at the same instant again and again.
    let mut stride = 0.0;
    while st.gap <= tol {
        if st.rate < 0.0 || (st.dist == 0.0 && flipper.omega != 0.0) {
            return TurningSweep::Hit(pb.hit(&st));
        }
        if iterations >= BOX_TURNING_MAX_ITERATIONS {
            return TurningSweep::Unresolved { safe_until: st.t };
        }
        let b = st.qv.length() + pb.omega * flipper.length + pb.accel * stride;
        stride = if stride == 0.0 {
            if b > 0.0 {
                tol / b
            } else {
                return TurningSweep::Miss;
            }
        } else {
            2.0 * stride
        };
        let next = st.t + stride;
        if next > max_toi {
            return TurningSweep::Miss;
        }
        st = pb.eval(next);
        iterations += 1;
    }
    // Apart: certified steps toward the first contact.
    loop {
        if st.gap <= tol {
            return TurningSweep::Hit(pb.hit(&st));
        }
        if iterations >= BOX_TURNING_MAX_ITERATIONS {
            return TurningSweep::Unresolved { safe_until: st.t };
        }
        let h = pb.step(&st);
        let next = st.t + h;
        if !(next <= max_toi) {
            return TurningSweep::Miss;
        }
        if !(next > st.t) {
            // The step is below the time's rounding: touching to the precision of time.
            return TurningSweep::Hit(pb.hit(&st));
        }
        st = pb.eval(next);
        iterations += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::hit::SegmentFeature;
    use crate::query::overlap::distance_segment_aabb;

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
