//! The certified conservative advancement shared by the sweeps against a turning capsule
//! (a swinging flipper): the earliest zero of a gap `D(τ) = dist(τ) − R` between a moving
//! point and a moving convex set (a ball's centre and the flipper's core segment, a box's
//! corner and the core, the flipper's end and a box), whose first and second derivatives are
//! bounded. [`sweep`] runs it for a [`GapProblem`]; the method is on
//! [`crate::sweep_path::sweep_path_circle_turning_capsule`]'s page.

use crate::math::{Real, Vec2};
use crate::query::hit::TurningHit;
use crate::query::sweep::{TurningSweep, TURNING_MAX_ITERATIONS};

/// One evaluation of a gap: its time (seconds from the sweep's start), the gap `D` (world
/// units, `dist − R`), its rate `D'` (units/s) and the distance `dist` between the point and
/// the set (`0`: the point on the set itself, a hit at once); and what a problem keeps to
/// bound the next steps and to report the contact.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct GapState {
    pub(crate) t: Real,
    /// The point relative to the flipper's pivot (or to the box), and the moving body's
    /// velocity relative to the pivot.
    pub(crate) q: Vec2,
    pub(crate) qv: Vec2,
    /// The flipper's unit direction, the parameter of the core's point nearest the other
    /// shape (`0..=L`), that point (relative to the pivot), and the offset from the set's
    /// nearest point to the point.
    pub(crate) dir: Vec2,
    pub(crate) s: Real,
    pub(crate) c: Vec2,
    pub(crate) m: Vec2,
    pub(crate) dist: Real,
    pub(crate) gap: Real,
    pub(crate) rate: Real,
    /// A problem's own term of its curvature bound (the ball's speed in the flipper's frame).
    pub(crate) w1: Real,
}

/// A gap to search: its evaluation and the bounds that certify steps. Called through `dyn`:
/// one copy of the search for every problem.
pub(crate) trait GapProblem {
    /// The gap at time `t` (seconds from the start).
    fn eval(&self, t: Real) -> GapState;
    /// The first-order certified step from `st` (`st.gap > 0`): `D` stays positive for
    /// shorter steps, from a bound on `|D'|`. Infinite when nothing moves.
    fn first_order_step(&self, st: &GapState) -> Real;
    /// A bound on `|D''|` over `[st.t, st.t + h]` while the distance stays `>= dist_lo`.
    fn curvature_bound(&self, st: &GapState, h: Real, dist_lo: Real) -> Real;
    /// `R`, the distance at contact: a lower bound on the distance while apart (`0`: the
    /// second-order step is not used).
    fn contact_dist(&self) -> Real;
    /// The size of the problem's coordinates (world units): the distance from the pivot to
    /// the moving point at the start plus the core's length, of which the gap's rounding
    /// error is a few ulps; it sets the touching band ([`band`]).
    fn scale(&self) -> Real;
    /// The contact at `st`.
    fn hit(&self, st: &GapState) -> TurningHit;
    /// Where the gap does not depend on the flipper's turning: a span `T` (seconds) from
    /// `st` over which the core's point nearest the moving point is certainly the pivot end,
    /// which turning does not move, and a bound on `|D''|` over it from the point's own
    /// motion alone. `None` (the default) where no such span is known.
    fn pivot_span(&self, _st: &GapState) -> Option<(Real, Real)> {
        None
    }
}

/// The distance `R` at which a point and a turning flipper's core are in contact: `r`, or
/// a millionth of a millionth of the flipper's scale (`1e-12·(L + 1)`) when `r` is smaller. A
/// point and a segment with `r = 0` would touch only at the instant the point crosses the
/// segment, an unsigned distance that never goes below zero: the search could step across it
/// between two evaluations.
pub(crate) fn contact_distance(r: Real, length: Real) -> Real {
    r.max(1e-12 * (length.abs() + 1.0))
}

/// The touching band of `pb` (world units): `1e-12·(scale + 1)`, at most half the contact
/// distance. A gap within it of zero is a contact at the rounding level: while the point
/// touches (gap `<= band`) and does not approach, the follow lets the gap dip to `−band`
/// (a dip shallower than that is no entry), so that a point sliding along the flipper, its
/// gap and rate zero to rounding, is followed by steps of `√(2·band/M)` instead of the
/// `D'/M` that a rate of zero makes zero; a point deeper inside that does not approach (a
/// body built over the flipper) is followed by steps over which its gap falls by at most
/// the band.
fn band(pb: &dyn GapProblem) -> Real {
    (1e-12 * (pb.scale() + 1.0)).min(0.5 * pb.contact_dist())
}

/// The earliest contact of `pb` in `[0, max_toi]`: at once when in contact and approaching,
/// followed while in contact and separating, then searched by certified steps.
pub(crate) fn sweep(pb: &dyn GapProblem, max_toi: Real) -> TurningSweep {
    let mut iterations: u32 = 0;
    let st = pb.eval(0.0);
    iterations += 1;
    match follow(pb, st, &mut iterations, max_toi) {
        Ok(apart) => search(pb, apart, iterations, max_toi),
        Err(answer) => answer,
    }
}

/// The positive root of `gap + rate·h − ½m·h² = 0` (`gap > 0`, `m >= 0`): the length of the
/// second-order certified step.
fn lower_step(gap: Real, rate: Real, m: Real) -> Real {
    if !(m > 0.0) {
        return if rate < 0.0 {
            gap / -rate
        } else {
            Real::INFINITY
        };
    }
    let disc = (rate * rate + 2.0 * m * gap).sqrt();
    if rate < 0.0 {
        2.0 * gap / (disc - rate)
    } else {
        (rate + disc) / m
    }
}

/// The first positive root of `gap + rate·s + ½m·s² = 0` (`gap > 0`, `m >= 0`), if any: a
/// time by which the ball is in contact.
fn upper_step(gap: Real, rate: Real, m: Real) -> Option<Real> {
    if !(rate < 0.0) {
        return None;
    }
    let disc = rate * rate - 2.0 * m * gap;
    if !(disc >= 0.0) {
        return None;
    }
    Some(2.0 * gap / (disc.sqrt() - rate))
}

/// The floating-point number just above `t` (`t` finite).
fn next_up(t: Real) -> Real {
    if t == 0.0 {
        Real::from_bits(1)
    } else if t > 0.0 {
        Real::from_bits(t.to_bits() + 1)
    } else {
        Real::from_bits(t.to_bits() - 1)
    }
}

/// Follows a contact from `st`: a hit at once when the point touches (`gap <= 0`) and
/// approaches (or is on the core); while it touches within the band ([`band`]) or deeper and
/// does not approach, steps over which the gap's rate cannot turn down (it stays `>= 0` for
/// `s < D'/M`) or, when that rate is too slow for such a step to reach the band's scale
/// (`D'² < 2·band·M`), over which the gap cannot fall by more than `max(D, 0) + band`
/// (`D + D'·s − ½M·s² >= min(D, 0) − band`), until the point is apart (`Ok`: the first state
/// with `gap > band`, or `gap > 0` approaching or leaving faster than that: the search takes
/// it on) or touches and approaches again (`Err(Hit)`, bisected back to where the approach
/// began after a band's step), or the horizon or the iteration bound ends it. `Ok(st)` at
/// once when `st` is apart. One copy for its three callers (`#[inline(never)]`).
#[inline(never)]
fn follow(
    pb: &dyn GapProblem,
    mut st: GapState,
    iterations: &mut u32,
    max_toi: Real,
) -> Result<GapState, TurningSweep> {
    let band = band(pb);
    let mut last = 0.0;
    // The state stepped from when the step was the band's (longer than the rate keeps
    // `>= 0` over): the contact may have begun to approach anywhere after it.
    let mut banded_from: Option<GapState> = None;
    loop {
        if st.gap > band || (st.gap > 0.0 && st.rate < 0.0) {
            return Ok(st);
        }
        if touching_and_approaching(&st) {
            let hit = match banded_from {
                Some(from) => approach_onset(pb, from, st, iterations),
                None => st,
            };
            return Err(TurningSweep::Hit(pb.hit(&hit)));
        }
        if st.t > max_toi {
            return Err(TurningSweep::Miss);
        }
        if *iterations >= TURNING_MAX_ITERATIONS {
            return Err(TurningSweep::Unresolved { safe_until: st.t });
        }
        // Certified steps from `st`: the rate's, `D'/M`, or, when the rate is too slow for
        // that step to reach the band's scale (`D'² < 2·band·M`: a sliding contact, whose
        // rate is zero to rounding), the band's: over it the gap falls by at most
        // `max(D, 0) + band`, to `−band` or to `band` below a deeper contact's gap (a body
        // built inside, which slides without going deeper). Over either the distance stays
        // `>= dist_lo`.
        let mut m0 = pb.curvature_bound(&st, 0.0, st.dist);
        let fall = st.gap.max(0.0) + band;
        let banded_lo = st.dist.min(pb.contact_dist()) - band;
        let slow = banded_lo > 0.0 && st.rate * st.rate < 2.0 * band * m0;
        if st.gap > 0.0 && !slow {
            // Apart, to rounding, and leaving faster than the band's scale: the search's.
            return Ok(st);
        }
        let dist_lo = if slow { banded_lo } else { st.dist };
        if slow {
            m0 = pb.curvature_bound(&st, 0.0, dist_lo);
        }
        let step = |m: Real| {
            if slow {
                lower_step(fall, st.rate, m)
            } else {
                st.rate / m
            }
        };
        let window = 2.0 * step(m0).max(last);
        let m = pb.curvature_bound(&st, window, dist_lo);
        let mut s = step(m).min(window);
        // Touching the pivot's end, the gap turns down only by the point's own motion: a
        // point at rest there stays in contact, without approaching, for the whole span.
        if let Some((span, mp)) = pb.pivot_span(&st) {
            let sp = if mp > 0.0 {
                (st.rate / mp).min(span)
            } else {
                span
            };
            if sp > s {
                s = sp;
            }
        }
        let mut x = st.t + s;
        if !(x > st.t) {
            x = next_up(st.t);
        }
        banded_from = slow.then_some(st);
        last = x - st.t;
        st = pb.eval(x);
        *iterations += 1;
    }
}

/// Whether the point touches (`gap <= 0`) and approaches: a hit.
fn touching_and_approaching(st: &GapState) -> bool {
    st.gap <= 0.0 && (st.dist == 0.0 || st.rate < 0.0)
}

/// Where a contact followed by a band step began to approach: bisects `[from, to]` (`to`
/// touching and approaching, `from` not) down to adjacent floating-point times and returns
/// the first state found touching and approaching, so that a contact onto which a face turns
/// tangentially (the gap's rate `0`, then negative) is reported when it begins, not up to a
/// band step later. Counted against the iteration bound (at most about 64 evaluations).
fn approach_onset(
    pb: &dyn GapProblem,
    mut from: GapState,
    mut to: GapState,
    iterations: &mut u32,
) -> GapState {
    while *iterations < TURNING_MAX_ITERATIONS {
        let mid = 0.5 * (from.t + to.t);
        if !(mid > from.t && mid < to.t) {
            break;
        }
        let ev = pb.eval(mid);
        *iterations += 1;
        if touching_and_approaching(&ev) {
            to = ev;
        } else {
            from = ev;
        }
    }
    to
}

/// The search from `st` (`st.gap > 0`, no contact before `st.t`).
fn search(
    pb: &dyn GapProblem,
    mut lo: GapState,
    mut iterations: u32,
    max_toi: Real,
) -> TurningSweep {
    let band = band(pb);
    let mut hi: Option<GapState> = None;
    let mut last: Real = 0.0;
    while iterations < TURNING_MAX_ITERATIONS {
        if lo.t > max_toi {
            return TurningSweep::Miss;
        }
        if hi.is_none() && lo.gap <= band && lo.rate >= 0.0 {
            // Touching within the band and not approaching: followed as a contact.
            match follow(pb, lo, &mut iterations, max_toi) {
                Ok(apart) if apart.t > lo.t => {
                    lo = apart;
                    last = 0.0;
                }
                Ok(_) => {}
                Err(answer) => return answer,
            }
            if iterations >= TURNING_MAX_ITERATIONS || lo.t > max_toi {
                continue;
            }
        }
        if let Some(h) = hi {
            if next_up(lo.t) >= h.t {
                if h.t > max_toi {
                    return TurningSweep::Miss;
                }
                if h.dist > 0.0 && h.rate >= 0.0 {
                    // Touching while separating: the gap crossed zero at the rounding level
                    // (a ball that starts a hair apart from a contact it leaves). Not an
                    // entry (the Bannerman rule): follow the contact until the ball is apart.
                    match follow(pb, h, &mut iterations, max_toi) {
                        Ok(apart) => {
                            lo = apart;
                            hi = None;
                            last = 0.0;
                            continue;
                        }
                        Err(answer) => return answer,
                    }
                }
                return TurningSweep::Hit(pb.hit(&h));
            }
        }
        let h1 = pb.first_order_step(&lo);
        let window = 2.0 * h1.max(last);
        let (h2, upper) = if pb.contact_dist() > 0.0 && window.is_finite() {
            let m = pb.curvature_bound(&lo, window, pb.contact_dist());
            (
                lower_step(lo.gap, lo.rate, m).min(window),
                upper_step(lo.gap, lo.rate, m).filter(|&s| s <= window),
            )
        } else {
            (0.0, None)
        };
        // At the pivot's end, a step certified by the point's own motion alone.
        let hp = pb
            .pivot_span(&lo)
            .map_or(0.0, |(span, mp)| lower_step(lo.gap, lo.rate, mp).min(span));
        let reach = lo.t + h1.max(h2).max(hp);
        if let Some(s) = upper {
            let x = lo.t + s;
            if x > lo.t && hi.is_none_or(|h| x < h.t) && x > reach {
                let ev = pb.eval(x);
                iterations += 1;
                if ev.gap <= 0.0 {
                    hi = Some(ev);
                }
            }
        }
        let x = match hi {
            None if !reach.is_finite() => return TurningSweep::Miss,
            None => {
                if reach > lo.t {
                    reach
                } else {
                    next_up(lo.t)
                }
            }
            Some(h) => {
                if reach >= h.t {
                    // Everything before `hi` is certified: bisect.
                    let mid = 0.5 * (lo.t + h.t);
                    if mid > lo.t && mid < h.t {
                        mid
                    } else {
                        next_up(lo.t)
                    }
                } else if reach > lo.t {
                    reach
                } else {
                    next_up(lo.t)
                }
            }
        };
        let ev = pb.eval(x);
        iterations += 1;
        if ev.gap > 0.0 {
            last = x - lo.t;
            lo = ev;
        } else {
            hi = Some(ev);
        }
    }
    if lo.t > max_toi {
        return TurningSweep::Miss;
    }
    TurningSweep::Unresolved { safe_until: lo.t }
}
