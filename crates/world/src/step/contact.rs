//! The first contact of one mover with one other body (ball–ball, ball–box, box–box), solved
//! the same way whoever searches and whenever (from the later of the two paths' starts, in id
//! order), and with the world's closed walls and open sides.

use crate::grid::walk::{box_path_bounds, path_bounds};
use crate::model::event::Side;
use crate::world::World;
use collide_core::motion::Path;
use collide_core::sweep_path::{
    sweep_path_aabb_aabb, sweep_path_circle_aabb, sweep_path_circle_circle,
};
use collide_core::{
    sweep_aabb_aabb, sweep_circle_aabb, sweep_circle_circle, Aabb, Feature, Features, Real,
    SweepHit, Vec2,
};

/// The first contact of balls `a` and `b` at an absolute time at most `limit`: that time and
/// the hit as seen from `a` (normal from `b` toward `a`; the contact point, where the two
/// surfaces touch).
///
/// Canonical: both balls are taken from their anchors at the later of their two anchor times
/// and swept in the order of their stable ids (not of their storage places), so the pair's
/// contact time, normal and point are the same bits whichever of the two searches, whenever
/// it searches (after a cell crossing, at a horizon, at another step size) and wherever the
/// two are stored. Only the normal's sign depends on which ball asks (an exact negation).
/// Swept circle against circle as a point against the Minkowski sum of radius `r_a + r_b`
/// (`collide_core::sweep_circle_circle`).
// Always inlined: it is the inner loop of every pair search (also called, once per event,
// to solve a stored pair again).
#[inline(always)]
pub(super) fn ball_ball_contact(
    a: &crate::body::ball::BallRec,
    b: &crate::body::ball::BallRec,
    limit: Real,
) -> Option<(Real, SweepHit)> {
    let (p, q, flip) = if a.id.index() < b.id.index() {
        (a, b, false)
    } else {
        (b, a, true)
    };
    // `max` by one compare: anchor times are never NaN (nor -0), so this is `f64::max`
    // without its NaN handling, on every candidate of every pair search.
    let tr = if q.anchor_time > p.anchor_time {
        q.anchor_time
    } else {
        p.anchor_time
    };
    let pp = p.anchor + p.v0 * (tr - p.anchor_time);
    let pq = q.anchor + q.v0 * (tr - q.anchor_time);
    let mut h = sweep_circle_circle(pp, p.radius, p.v0, pq, q.radius, q.v0, limit - tr)?;
    if flip {
        // As seen from `a` (= q): the normal points toward q (the contact point is shared).
        h.normal = -h.normal;
    }
    Some((tr + h.toi, h))
}

/// How far ahead (seconds from the later path start) a contact on curved relative paths is
/// solved, whatever the caller's limit (which then only filters): the earliest root of a
/// quartic is refined within a bracket whose ends depend on the search window, so a fixed
/// window makes the contact the same bits whoever searches and whenever (as for straight
/// paths), and a stored contact solves again to itself.
const CURVED_WINDOW: Real = 1e6;

/// [`ball_ball_contact`] for balls under accelerations `acc_a` and `acc_b` (gravity, a ball
/// held by a face, a ball stopped at the iteration bound), solved the same canonical way.
/// With equal accelerations the relative motion is linear (gravity cancels) and the straight
/// sweep of the relative path applies (`collide_core::sweep_circle_circle`); otherwise the
/// relative path is a parabola, met by the quartic of `collide_core::sweep_path`.
pub(super) fn ball_ball_contact_acc(
    a: &crate::body::ball::BallRec,
    acc_a: Vec2,
    b: &crate::body::ball::BallRec,
    acc_b: Vec2,
    limit: Real,
) -> Option<(Real, SweepHit)> {
    let ((p, ap), (q, aq), flip) = if a.id.index() < b.id.index() {
        ((a, acc_a), (b, acc_b), false)
    } else {
        ((b, acc_b), (a, acc_a), true)
    };
    let tr = p.anchor_time.max(q.anchor_time);
    let pp = Path::ballistic(p.pos_at(tr, ap), p.vel_at(tr, ap), ap);
    let pq = Path::ballistic(q.pos_at(tr, aq), q.vel_at(tr, aq), aq);
    let mut h = if ap == aq {
        let mut h =
            sweep_circle_circle(pp.p0, p.radius, pp.v0, pq.p0, q.radius, pq.v0, limit - tr)?;
        h.point = pq.pos_at(h.toi) + h.normal * q.radius;
        h
    } else {
        let h = sweep_path_circle_circle(&pp, p.radius, &pq, q.radius, CURVED_WINDOW)?;
        if tr + h.toi > limit {
            return None;
        }
        h
    };
    if flip {
        h.normal = -h.normal;
    }
    Some((tr + h.toi, h))
}

/// The "hit" of leaving through an open side at `toi`, centre at `point`: no normal.
#[inline]
pub(super) fn no_hit(toi: Real, point: Vec2) -> SweepHit {
    SweepHit {
        toi,
        normal: Vec2::ZERO,
        point,
        feature: Feature::Circle,
    }
}

impl World {
    /// The first contact of ball `m` with dynamic rectangle mover `j` at an absolute time at
    /// most `limit`, as seen from the ball (normal toward it): swept in the rectangle's frame
    /// from the later of the two paths' starts (the same bits whenever it is searched, and
    /// whichever of the two searches: [`World::box_ball_contact`] solves it here too). A ball
    /// stopped at the iteration bound is at rest where its path starts, as is a stopped
    /// rectangle.
    ///
    /// Under gravity a ball and a box in free flight have the same acceleration: their
    /// relative motion is linear and the straight sweep applies (`sweep_circle_aabb`); when
    /// one is held by a face or stopped, the relative path is a parabola
    /// (`sweep_path_circle_aabb`). The contact point moves with the box.
    pub(super) fn ball_box_contact(
        &self,
        m: usize,
        j: usize,
        limit: Real,
    ) -> Option<(Real, SweepHit)> {
        let b = self.ball_path(m);
        let acc = self.acc_seen(m);
        let (radius, ba) = (b.radius, b.start());
        let (ra, rt, u, ua) = self.dyn_path(j);
        let r_t = ba.time.max(rt);
        if acc == Vec2::ZERO && ua == Vec2::ZERO {
            // Straight paths: the bits of a world without gravity.
            let aabb = ra.translated(u * (r_t - rt));
            let p_ref = ba.pos + b.v0 * (r_t - ba.time);
            let mut h =
                sweep_circle_aabb(p_ref, radius, b.v0 - u, limit - r_t, &aabb, Features::ALL)?;
            h.point += u * h.toi;
            return Some((r_t + h.toi, h));
        }
        // The box's path from `r_t` (a displacement from its box then).
        let boxp = Path::ballistic(Vec2::ZERO, u, ua);
        let off = r_t - rt;
        let aabb = ra.translated(boxp.pos_at(off));
        let ur = boxp.vel_at(off);
        let ball_path = Path::ballistic(b.pos_at(r_t, acc), b.vel_at(r_t, acc), acc);
        if limit < Real::INFINITY {
            // Cheap rejection (a search's limit only): the bounds the two sweep up to `limit`
            // do not meet. A contact within `limit` is found the same with or without it.
            let span = limit - r_t;
            // (NaN: no contact.)
            let ahead = span >= 0.0;
            if !ahead {
                return None;
            }
            let reach = path_bounds(&ball_path, 0.0, span).grown(radius + 1e-9);
            let moved = Path::ballistic(Vec2::ZERO, ur, ua);
            if !collide_core::aabb_overlaps_aabb(&reach, &box_path_bounds(&aabb, &moved, 0.0, span))
            {
                return None;
            }
        }
        let rel = Path::ballistic(ball_path.p0, ball_path.v0 - ur, acc - ua);
        let mut h = if rel.accel == Vec2::ZERO {
            sweep_circle_aabb(rel.p0, radius, rel.v0, limit - r_t, &aabb, Features::ALL)?
        } else {
            let h = sweep_path_circle_aabb(&rel, radius, CURVED_WINDOW, &aabb, Features::ALL)?;
            if r_t + h.toi > limit {
                return None;
            }
            h
        };
        h.point += ur * h.toi + ua * (0.5 * h.toi * h.toi);
        Some((r_t + h.toi, h))
    }

    /// The first contact of dynamic rectangle movers `m` and `j` at an absolute time at most
    /// `limit`, as seen from `m`: from the later of the two paths' starts, the lower mover
    /// first (the normal, toward the first box, negated when `m` is the higher). Boxes with
    /// the same acceleration (both in free flight under gravity) move linearly relative to
    /// each other: the straight slab test (`sweep_aabb_aabb`); otherwise (one held by a
    /// face, or stopped) per-axis quadratics (`sweep_path_aabb_aabb`).
    pub(super) fn box_box_contact(
        &self,
        m: usize,
        j: usize,
        limit: Real,
    ) -> Option<(Real, SweepHit)> {
        let (lo, hi) = if m < j { (m, j) } else { (j, m) };
        let (pa, pt, pv, pacc) = self.dyn_path(lo);
        let (qa, qt, qv, qacc) = self.dyn_path(hi);
        let r_t = pt.max(qt);
        let h = if pacc == Vec2::ZERO && qacc == Vec2::ZERO {
            // Straight paths: the bits of a world without gravity.
            let bp = pa.translated(pv * (r_t - pt));
            let bq = qa.translated(qv * (r_t - qt));
            sweep_aabb_aabb(&bp, pv, &bq, qv, limit - r_t)?
        } else {
            let pp = Path::ballistic(Vec2::ZERO, pv, pacc);
            let qp = Path::ballistic(Vec2::ZERO, qv, qacc);
            let bp = pa.translated(pp.pos_at(r_t - pt));
            let bq = qa.translated(qp.pos_at(r_t - qt));
            let pp = Path::ballistic(Vec2::ZERO, pp.vel_at(r_t - pt), pacc);
            let qp = Path::ballistic(Vec2::ZERO, qp.vel_at(r_t - qt), qacc);
            let mut h = if pacc == qacc {
                sweep_aabb_aabb(&bp, pp.v0, &bq, qp.v0, limit - r_t)?
            } else {
                let h = sweep_path_aabb_aabb(&bp, &pp, &bq, &qp, CURVED_WINDOW)?;
                if r_t + h.toi > limit {
                    return None;
                }
                h
            };
            // The touching region where both boxes are at the hit.
            let (at, bt) = (
                bp.translated(pp.pos_at(h.toi)),
                bq.translated(qp.pos_at(h.toi)),
            );
            h.point = (at.min.max(bt.min) + at.max.min(bt.max)) * 0.5;
            h
        };
        let h = if m == lo {
            h
        } else {
            SweepHit {
                normal: -h.normal,
                ..h
            }
        };
        Some((r_t + h.toi, h))
    }

    /// The first contact of dynamic rectangle mover `m` with ball `j` at an absolute time at
    /// most `limit`, as seen from the rectangle: solved as the ball solves it
    /// ([`World::ball_box_contact`], the same bits), the normal negated.
    pub(super) fn box_ball_contact(
        &self,
        m: usize,
        j: usize,
        limit: Real,
    ) -> Option<(Real, SweepHit)> {
        let (t, mut h) = self.ball_box_contact(j, m, limit)?;
        h.normal = -h.normal;
        Some((t, h))
    }

    /// When a box (a body's bounds) moving with `v` is entirely outside an open side, within
    /// `limit`: `(toi, side)`; toi = 0 if it already is.
    pub(super) fn loss_time(&self, b: &Aabb, v: Vec2, limit: Real) -> Option<(Real, Side)> {
        let w = self.walls;
        let mut best: Option<(Real, Side)> = None;
        let mut consider = |open: bool, dist: Real, speed: Real, side: Side| {
            // `dist`: how far the body still has to go to be out; `speed`: its speed outward.
            if !open {
                return;
            }
            let t = if dist <= 0.0 {
                0.0
            } else if speed > 0.0 {
                dist / speed
            } else {
                return;
            };
            if t <= limit && best.is_none_or(|bst| t < bst.0) {
                best = Some((t, side));
            }
        };
        consider(!w.left, b.max.x, -v.x, Side::Left);
        consider(!w.top, b.max.y, -v.y, Side::Top);
        consider(!w.right, self.size.x - b.min.x, v.x, Side::Right);
        consider(!w.bottom, self.size.y - b.min.y, v.y, Side::Bottom);
        best
    }

    /// Hits of a moving box against the closed walls within `limit` (box inside the world).
    pub(crate) fn box_wall_hits(
        &self,
        b: &Aabb,
        v: Vec2,
        limit: Real,
    ) -> impl Iterator<Item = (Side, SweepHit)> {
        let w = self.walls;
        let size = self.size;
        let mut out: [Option<(Side, SweepHit)>; 4] = [None; 4];
        let mk = |closed: bool,
                  gap: Real,
                  speed: Real,
                  side: Side,
                  normal: Vec2|
         -> Option<(Side, SweepHit)> {
            // `gap`: distance from the box to the wall (negative: already past it, a wall is a
            // solid half-plane); `speed` > 0: approaching.
            if !closed || !(speed > 0.0) {
                return None;
            }
            let toi = gap.max(0.0) / speed;
            (toi <= limit).then(|| {
                let c = b.center() + v * toi;
                let point = match side {
                    Side::Left => Vec2::new(0.0, c.y),
                    Side::Right => Vec2::new(size.x, c.y),
                    Side::Top => Vec2::new(c.x, 0.0),
                    Side::Bottom => Vec2::new(c.x, size.y),
                };
                (
                    side,
                    SweepHit {
                        toi,
                        normal,
                        point,
                        feature: Feature::Circle,
                    },
                )
            })
        };
        out[0] = mk(w.left, b.min.x, -v.x, Side::Left, Vec2::X);
        out[1] = mk(w.top, b.min.y, -v.y, Side::Top, Vec2::Y);
        out[2] = mk(w.right, size.x - b.max.x, v.x, Side::Right, Vec2::NEG_X);
        out[3] = mk(w.bottom, size.y - b.max.y, v.y, Side::Bottom, Vec2::NEG_Y);
        out.into_iter().flatten()
    }
}
