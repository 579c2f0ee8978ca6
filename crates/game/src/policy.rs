//! Arcade response policies: pure functions of velocities and positions, applied by the game
//! after each world step (never inside the physics). No trigonometry: directions are blends
//! of vectors, normalised; rotations use fixed rational cosines and sines.

use collide_core::{Real, Vec2};
use collide_world::{BallId, World};
use serde::{Deserialize, Serialize};

/// Paddle "english": the outgoing velocity of a ball that bounced off the paddle's top, from
/// where it hit.
///
/// # Arguments
/// - `offset`: where the ball hit, `(hit x − paddle centre x) / (paddle half-width)`: −1 at
///   the left end, 0 in the middle, +1 at the right end (clamped to `[−1, 1]`; NaN counts as
///   0).
/// - `max_slope`: horizontal over vertical speed at the ends (`tan` of the largest angle from
///   the vertical; 1.732… for 60°), `>= 0`.
/// - `speed`: the speed to keep, units/s.
///
/// # Returns
/// `speed · normalise((offset · max_slope, −1))`: straight up from the middle, up and to the
/// right from the right half, up and to the left from the left half (y grows down).
///
/// ```
/// use collide_game::policy::english;
/// // Right end with a slope of 3/4: direction (3/4, -1) / (5/4) = (0.6, -0.8); at speed 10,
/// // (6, -8).
/// let v = english(1.0, 0.75, 10.0);
/// assert!((v.x - 6.0).abs() < 1e-12 && (v.y + 8.0).abs() < 1e-12);
/// ```
#[must_use]
pub fn english(offset: Real, max_slope: Real, speed: Real) -> Vec2 {
    let t = if offset.is_nan() {
        0.0
    } else {
        offset.clamp(-1.0, 1.0)
    };
    let slope = if max_slope.is_finite() {
        max_slope.max(0.0)
    } else {
        0.0
    };
    // The blend of the up normal (0, -1) and the paddle's tangent (1, 0), weighted by the
    // offset; its length is >= 1, so the normalisation is safe.
    Vec2::new(t * slope, -1.0).normalize() * speed
}

/// The minimum vertical angle: a velocity whose vertical part is less than `k` of its speed
/// (`|vy| < k·|v|`) is turned, keeping its speed and the signs of its components, by the
/// smallest rotation that makes `|vy| = k·|v|`; a purely horizontal one turns up (toward
/// `−y`). Other velocities, zero, non-finite ones, and `k <= 0` are returned unchanged; `k`
/// is clamped to `1`.
///
/// So no ball can bounce between two side walls forever without coming down.
///
/// ```
/// use collide_core::Vec2;
/// use collide_game::policy::min_vertical;
/// // Speed 5 moving right and slightly down, k = 0.6: vy becomes 0.6·5 = 3 and vx 4.
/// let v = min_vertical(Vec2::new(4.99, 0.1), 0.6);
/// let speed = Vec2::new(4.99, 0.1).length();
/// assert!((v.y - 0.6 * speed).abs() < 1e-12 && (v.length() - speed).abs() < 1e-12);
/// ```
#[must_use]
pub fn min_vertical(v: Vec2, k: Real) -> Vec2 {
    if !(v.is_finite() && k > 0.0) {
        return v;
    }
    let k = k.min(1.0);
    let speed2 = v.length_squared();
    if speed2 == 0.0 {
        return v;
    }
    let speed = speed2.sqrt();
    if v.y.abs() >= k * speed {
        return v;
    }
    let vy = if v.y > 0.0 { k * speed } else { -k * speed };
    let vx = (speed2 - vy * vy).max(0.0).sqrt();
    Vec2::new(if v.x < 0.0 { -vx } else { vx }, vy)
}

/// `v` rotated by the angle whose cosine and sine are `c` and `s` (counter-clockwise on
/// paper is clockwise on screen, since y grows down): `(c·x − s·y, s·x + c·y)`.
#[must_use]
pub fn rotate(v: Vec2, c: Real, s: Real) -> Vec2 {
    Vec2::new(c * v.x - s * v.y, s * v.x + c * v.y)
}

/// The rotation used to split and spread balls: cos = 12/13, sin = 5/13 (about 22.6°), a
/// rational rotation, exact to the last bit everywhere.
pub const SPREAD: (Real, Real) = (12.0 / 13.0, 5.0 / 13.0);

/// Where a paddle may go: its size, the world's width and which side walls are closed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PaddleLimits {
    /// Half the paddle's width, world units.
    pub half_width: Real,
    /// The world's width, world units (the paddle stays in `[0, width]`).
    pub world_width: Real,
    /// Whether the left side `x = 0` is a wall.
    pub left_wall: bool,
    /// Whether the right side `x = width` is a wall.
    pub right_wall: bool,
    /// The smallest gap allowed between the paddle's side and a closed wall, unless the paddle
    /// touches the wall (gap 0): a ball's diameter and a margin, world units.
    pub min_gap: Real,
}

/// The anti-trap policy: the paddle's centre for a wanted centre `target`, such that no ball
/// can ever be caught between the paddle's side and a side wall.
///
/// The paddle stays inside the world; next to a closed wall the gap between its side and the
/// wall is either 0 (touching: nothing can get in) or at least `min_gap` (a ball fits and
/// moves freely). A wanted gap in between snaps to the nearer of the two. When `left_busy` /
/// `right_busy` is true (the caller knows the balls: the gap is open and a ball is in it or
/// may enter it during the step) the gap is kept at `min_gap` at least, even if the target is
/// the wall itself. A non-finite target keeps the middle of the world.
///
/// ```
/// use collide_game::policy::{clamp_paddle, PaddleLimits};
/// let lim = PaddleLimits { half_width: 40.0, world_width: 400.0, left_wall: true, right_wall: true, min_gap: 8.0 };
/// assert_eq!(clamp_paddle(10.0, &lim, false, false), 40.0); // past the wall: touching
/// assert_eq!(clamp_paddle(43.0, &lim, false, false), 40.0); // gap 3 < 4: closes
/// assert_eq!(clamp_paddle(45.0, &lim, false, false), 48.0); // gap 5 >= 4: opens to 8
/// assert_eq!(clamp_paddle(43.0, &lim, true, false), 48.0);  // a ball is there: stays open
/// assert_eq!(clamp_paddle(0.0, &lim, true, false), 48.0);   // ... even against the wall
/// assert_eq!(clamp_paddle(200.0, &lim, true, true), 200.0);
/// ```
#[must_use]
pub fn clamp_paddle(target: Real, lim: &PaddleLimits, left_busy: bool, right_busy: bool) -> Real {
    let w = lim.world_width;
    let hw = lim.half_width;
    let lo = hw;
    let hi = w - hw;
    if !(target.is_finite() && w.is_finite() && hw.is_finite()) || hi <= lo {
        return w * 0.5;
    }
    let mut c = target.clamp(lo, hi);
    let gap = lim.min_gap.max(0.0);
    if lim.left_wall {
        let g = c - lo;
        if left_busy && g < gap {
            c = lo + gap;
        } else if g > 0.0 && g < gap {
            c = if g < gap * 0.5 { lo } else { lo + gap };
        }
    }
    if lim.right_wall {
        let g = hi - c;
        if right_busy && g < gap {
            c = hi - gap;
        } else if g > 0.0 && g < gap {
            c = if g < gap * 0.5 { hi } else { hi - gap };
        }
    }
    c.clamp(lo, hi)
}

/// The aim preview: the path a ball of `radius` would take from `from` in direction `dir`,
/// found with [`World::cast_circle`] against the world as it is now: cast, reflect on the
/// hit's normal ([`collide_core::reflect`], elastic), cast again from the impact, up to `max_segments` segments or `length` world
/// units in all. Balls in `ignore` are not obstacles (the ball being aimed). The casts see
/// what the first ball of `ignore` collides with (its layers and mask:
/// [`collide_world::Filter`]), or every body and cell on some layer
/// ([`collide_world::Filter::ALL`]) when `ignore` is empty or its first ball is gone.
///
/// # Returns
/// The polyline `[from, centre at the 1st impact, centre at the 2nd, …, end]`; just `[from]`
/// for a zero or non-finite direction, a non-positive length or no segment. The path stops at
/// an impact with no room to move (a hit at the start of a cast).
#[must_use]
pub fn aim_path(
    world: &World,
    from: Vec2,
    dir: Vec2,
    radius: Real,
    length: Real,
    max_segments: usize,
    ignore: &[BallId],
) -> Vec<Vec2> {
    let mut pts = vec![from];
    let Some(mut d) = dir.try_normalize() else {
        return pts;
    };
    if !(from.is_finite() && length.is_finite() && length > 0.0) {
        return pts;
    }
    let filter = ignore
        .first()
        .and_then(|&id| world.ball(id))
        .map_or(collide_world::Filter::ALL, |b| b.filter);
    let mut p = from;
    let mut left = length;
    for _ in 0..max_segments {
        let to = p + d * left;
        match world.cast_circle(p, to, radius, ignore, filter) {
            Some(hit) if hit.toi > 0.0 => {
                pts.push(hit.center);
                left -= (hit.center - p).length();
                p = hit.center;
                d = collide_core::reflect(d, hit.normal, 1.0);
                if left <= 0.0 {
                    break;
                }
            }
            Some(_) => break,
            None => {
                pts.push(to);
                break;
            }
        }
    }
    pts
}

/// What a destroyed brick drops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PowerKind {
    /// "3x": every ball in flight splits into three.
    Triple,
    /// "shoot 3": three more balls are launched from the paddle.
    Shoot3,
    /// "heart": a lost life back (up to the lives a game starts with; at full lives, the
    /// score of [`crate::HEART_BONUS_BRICKS`] bricks).
    Heart,
}

impl PowerKind {
    /// The short label shown on the falling item: `3x`, `+3`, `+1`.
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            PowerKind::Triple => "3x",
            PowerKind::Shoot3 => "+3",
            PowerKind::Heart => "+1",
        }
    }
}

/// The chance that a destroyed brick drops each power-up: 3x 5 %, shoot 3 8 %, heart 2 %,
/// nothing the other 85 % (huidong's BricksBeater drops more, 8 %, 12 % and 5 %; at those
/// rates the power-ups that fall onto a paddle that never moves multiply the balls and the
/// lives without play: the balance rule in `docs/frontends.md`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DropTable {
    /// Probability of "3x", `[0, 1]`.
    #[serde(deserialize_with = "crate::serial::unit")]
    pub triple: Real,
    /// Probability of "shoot 3", `[0, 1]`.
    #[serde(deserialize_with = "crate::serial::unit")]
    pub shoot3: Real,
    /// Probability of "heart", `[0, 1]`.
    #[serde(deserialize_with = "crate::serial::unit")]
    pub heart: Real,
}

impl Default for DropTable {
    fn default() -> Self {
        DropTable {
            triple: 0.05,
            shoot3: 0.08,
            heart: 0.02,
        }
    }
}

impl DropTable {
    /// The drop for a uniform draw `u` in `[0, 1)`: "3x" if `u < triple`, else "shoot 3" if
    /// `u < triple + shoot3`, else "heart" if `u < triple + shoot3 + heart`, else nothing.
    #[must_use]
    pub fn pick(&self, u: Real) -> Option<PowerKind> {
        let a = self.triple;
        let b = a + self.shoot3;
        let c = b + self.heart;
        if u < a {
            Some(PowerKind::Triple)
        } else if u < b {
            Some(PowerKind::Shoot3)
        } else if u < c {
            Some(PowerKind::Heart)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide_world::rng::XorShift64Star;
    use collide_world::{StepConfig, Walls};

    #[test]
    fn english_keeps_speed_and_follows_the_offset() {
        for i in -10..=10 {
            let t = f64::from(i) / 10.0;
            let v = english(t, 3f64.sqrt(), 432.0);
            assert!((v.length() - 432.0).abs() < 1e-9, "{t}: {v}");
            assert!(v.y < 0.0, "always up");
            assert_eq!(v.x > 0.0, t > 0.0, "{t}: {v}");
        }
        // Right end at 60°: direction (sqrt 3, -1) / 2, so vx / |v| = sqrt(3) / 2.
        let v = english(1.0, 3f64.sqrt(), 2.0);
        assert!((v.x - 3f64.sqrt()).abs() < 1e-12 && (v.y + 1.0).abs() < 1e-12);
        // Past the end is the end; NaN is the middle.
        assert_eq!(english(5.0, 1.0, 1.0), english(1.0, 1.0, 1.0));
        assert_eq!(english(f64::NAN, 1.0, 3.0), Vec2::new(0.0, -3.0));
    }

    #[test]
    fn min_vertical_turns_flat_balls_minimally() {
        let k = 0.25;
        // Horizontal, speed 8: vy = -2 (up), vx = sqrt(64 - 4) = sqrt(60).
        let v = min_vertical(Vec2::new(-8.0, 0.0), k);
        assert_eq!(v, Vec2::new(-(60f64).sqrt(), -2.0));
        // Steep enough: unchanged, bit for bit.
        let steep = Vec2::new(3.0, 4.0);
        assert_eq!(min_vertical(steep, k), steep);
        // Slightly down stays down.
        let v = min_vertical(Vec2::new(10.0, 0.5), k);
        assert!(v.y > 0.0 && (v.y - k * Vec2::new(10.0, 0.5).length()).abs() < 1e-12);
        assert_eq!(min_vertical(Vec2::ZERO, k), Vec2::ZERO);
        assert_eq!(min_vertical(Vec2::new(1.0, 0.0), 0.0), Vec2::new(1.0, 0.0));
        // Random velocities: speed kept, |vy| >= k |v|, signs of vx kept.
        let mut rng = XorShift64Star::new(9);
        for _ in 0..10_000 {
            let v = rng.unit_vector() * rng.range_f64(0.1, 1000.0);
            let w = min_vertical(v, k);
            assert!((w.length() - v.length()).abs() <= 1e-9 * v.length());
            assert!(w.y.abs() >= k * w.length() * (1.0 - 1e-12));
            assert!(w.x * v.x >= 0.0);
        }
    }

    #[test]
    fn spread_is_a_rotation() {
        let (c, s) = SPREAD;
        // 12² + 5² = 13²: a unit rotation.
        assert!((c * c + s * s - 1.0).abs() < 1e-15);
        let v = rotate(Vec2::new(0.0, -13.0), c, s);
        assert!((v - Vec2::new(5.0, -12.0)).length() < 1e-12, "{v}");
    }

    #[test]
    fn drop_table_frequencies() {
        let t = DropTable::default();
        let mut rng = XorShift64Star::new(5);
        let n = 200_000;
        let mut counts = [0usize; 4];
        for _ in 0..n {
            let i = match t.pick(rng.next_f64()) {
                Some(PowerKind::Triple) => 0,
                Some(PowerKind::Shoot3) => 1,
                Some(PowerKind::Heart) => 2,
                None => 3,
            };
            counts[i] += 1;
        }
        // Expected 5 %, 8 %, 2 %, 85 % of 200 000; sigma <= sqrt(n p (1 - p)) < 200; allow 1000.
        for (c, p) in counts.iter().zip([0.05, 0.08, 0.02, 0.85]) {
            assert!((*c as f64 - p * n as f64).abs() < 1000.0, "{counts:?}");
        }
    }

    #[test]
    fn paddle_clamp_never_leaves_a_narrow_gap() {
        let lim = PaddleLimits {
            half_width: 40.0,
            world_width: 459.0,
            left_wall: true,
            right_wall: true,
            min_gap: 8.0,
        };
        for i in -1000..=5590 {
            let t = f64::from(i) / 10.0;
            for busy in [false, true] {
                let c = clamp_paddle(t, &lim, busy, busy);
                let left = c - 40.0;
                let right = 459.0 - (c + 40.0);
                assert!(left == 0.0 || left >= 8.0, "{t} -> {c}");
                assert!(right == 0.0 || right >= 8.0 - 1e-9, "{t} -> {c}");
            }
        }
        // Open sides: no snapping, just inside the world.
        let open = PaddleLimits {
            left_wall: false,
            right_wall: false,
            ..lim
        };
        assert_eq!(clamp_paddle(43.0, &open, false, false), 43.0);
        assert_eq!(clamp_paddle(-5.0, &open, false, false), 40.0);
        assert_eq!(clamp_paddle(f64::NAN, &open, false, false), 229.5);
    }

    #[test]
    fn aim_path_bounces_where_cast_circle_says() {
        // A closed 100 x 100 box; from (50, 90) toward the top-right at 45°.
        let w = World::new(Vec2::new(100.0, 100.0), Walls::ALL, StepConfig::default()).unwrap();
        let d = Vec2::new(1.0, -1.0);
        let pts = aim_path(&w, Vec2::new(50.0, 90.0), d, 3.0, 1000.0, 3, &[]);
        assert_eq!(pts.len(), 4);
        // First hit: the right wall at x = 97 after 47 units on each axis: (97, 43).
        assert!((pts[1] - Vec2::new(97.0, 43.0)).length() < 1e-9, "{pts:?}");
        let first = w
            .cast_circle(
                Vec2::new(50.0, 90.0),
                Vec2::new(50.0, 90.0) + d.normalize() * 1000.0,
                3.0,
                &[],
                collide_world::Filter::ALL,
            )
            .unwrap();
        assert_eq!(pts[1], first.center);
        // Then up-left to the top wall (y = 3) after 40 more: (57, 3); then down-left to
        // x = 3 after 54 more: (3, 57).
        assert!((pts[2] - Vec2::new(57.0, 3.0)).length() < 1e-9, "{pts:?}");
        assert!((pts[3] - Vec2::new(3.0, 57.0)).length() < 1e-9, "{pts:?}");
        // No direction: only the start.
        assert_eq!(
            aim_path(&w, Vec2::new(1.0, 1.0), Vec2::ZERO, 3.0, 10.0, 3, &[]).len(),
            1
        );
        // Limited length: ends 10 units along, no hit.
        let short = aim_path(
            &w,
            Vec2::new(50.0, 50.0),
            Vec2::new(0.0, -1.0),
            3.0,
            10.0,
            3,
            &[],
        );
        assert_eq!(short, vec![Vec2::new(50.0, 50.0), Vec2::new(50.0, 40.0)]);
    }
}
