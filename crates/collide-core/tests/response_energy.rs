//! Energy of elastic contacts along rounded normals (`collide_on`, `reflect_relative_on`):
//! over many contacts whose normal is computed as `q/|q|` at a swept contact (a few ulps off
//! unit length, the way the world's gravity step meets them), the kinetic energy error of an
//! `e = 1` response must not lean one way. The energy difference is summed exactly here (the
//! squares as exact products, the sums compensated), so the mean measured is the response's,
//! not the measurement's.

use collide_core::Vec2;
use collide_core::{collide_on, reflect_relative_on, sweep_circle_circle, sweep_circle_point};

/// xorshift64*: a fixed sequence, the same on every platform.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `[lo, hi)`.
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * ((self.next() >> 11) as f64 / (1u64 << 53) as f64)
    }

    fn vec(&mut self, r: f64) -> Vec2 {
        Vec2::new(self.range(-r, r), self.range(-r, r))
    }
}

/// `a + b` exactly (Knuth's TwoSum).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// `a·a` exactly (Dekker's TwoProduct with Veltkamp's split).
fn two_square(a: f64) -> (f64, f64) {
    let c = 134_217_729.0 * a;
    let hi = c - (c - a);
    let lo = a - hi;
    let p = a * a;
    (p, ((hi * hi - p) + 2.0 * hi * lo) + lo * lo)
}

/// A double-double: the exact value `hi + lo`.
type Exact = (f64, f64);

/// A velocity relative to a frame: `v − u` as the exact sum `hi + lo` of two doubles.
fn relative(v: Vec2, u: Vec2) -> [Exact; 2] {
    [two_sum(v.x, -u.x), two_sum(v.y, -u.y)]
}

/// `Σ m·|after|² − Σ m·|before|²` (twice the kinetic energy change) for velocities given as
/// exact sums `hi + lo` per component, to far below an ulp of the terms: the squares `hi²`
/// exact, the cross terms `2·hi·lo` and `lo²` (already far below an ulp of `hi²`) rounded, every
/// sum a TwoSum whose errors are summed apart. Masses are powers of two (exact products).
fn energy_change(bodies: &[(f64, [Exact; 2], [Exact; 2])]) -> f64 {
    let (mut s, mut err) = (0.0, 0.0);
    let mut add = |x: f64| {
        let (t, e) = two_sum(s, x);
        s = t;
        err += e;
    };
    for &(m, before, after) in bodies {
        for (c, sign) in after
            .iter()
            .map(|c| (c, m))
            .chain(before.iter().map(|c| (c, -m)))
        {
            let (hi, lo) = *c;
            let (sq, sq_err) = two_square(hi);
            add(sign * sq);
            add(sign * sq_err);
            add(sign * (2.0 * hi * lo + lo * lo));
        }
    }
    s + err
}

/// A swept ball–ball contact of balls of radii `r1`, `r2` (the normal `q/|q|` at the rounded
/// contact, as the world's step computes it), with the velocities before it; `None` for a miss.
fn ball_contact(rng: &mut Rng, r1: f64, r2: f64) -> Option<(Vec2, Vec2, Vec2)> {
    let c1 = Vec2::new(rng.range(0.0, 1000.0), rng.range(0.0, 1000.0));
    let v1 = rng.vec(600.0);
    let v2 = rng.vec(600.0);
    // Aimed to meet within the sweep's horizon, off centre by up to about the radii's sum.
    let c2 = c1 + (v1 - v2) * rng.range(0.01, 1.0) + rng.vec(0.98 * (r1 + r2));
    let h = sweep_circle_circle(c1, r1, v1, c2, r2, v2, 1.0)?;
    Some((v1, v2, h.normal))
}

const CONTACTS: usize = 200_000;

/// Mean relative energy error allowed per elastic contact (the change of `Σ m·|v|²` over
/// `Σ m·|v|²`). The plain projection `(v·n)/|n|²` in double precision leans by +2.4e-17 per
/// ball contact and +5.1e-17 per corner bounce on these contacts: its `|n|²` rounds to 1 when
/// the normal is a fraction of an ulp too long, as it is on average here (+6e-17). The
/// compensated responses' means are below 1.6e-19, within their standard error (about 1.5e-19
/// over 190 000 contacts).
const MAX_MEAN: f64 = 5e-18;

/// Equal balls of radius 2 (the plinko board's), masses 1 and 1, and balls of radii 2 and 6,
/// masses 1 and 4 (radii summing to a power of two, as the board's do: `|q|` then rounds to
/// it and the normal `q/|q|` is too long on average): the mean energy error of
/// `collide_on` with `e = 1` is zero to far below the bias of rounded normals, and momentum is
/// kept to the final rounding.
#[test]
fn elastic_ball_contacts_do_not_lean_in_energy() {
    for (m1, m2, r1, r2) in [(1.0, 1.0, 2.0, 2.0), (1.0, 4.0, 2.0, 6.0)] {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let (mut sum, mut count, mut long) = (0.0, 0usize, 0.0);
        for _ in 0..CONTACTS {
            let Some((v1, v2, n)) = ball_contact(&mut rng, r1, r2) else {
                continue;
            };
            long += n.length_squared() - 1.0;
            let (a1, a2) = collide_on(m1, v1, m2, v2, n, 1.0);
            let k = m1 * v1.length_squared() + m2 * v2.length_squared();
            let z = Vec2::ZERO;
            sum += energy_change(&[
                (m1, relative(v1, z), relative(a1, z)),
                (m2, relative(v2, z), relative(a2, z)),
            ]) / k;
            count += 1;
            // Momentum: each component is off by at most its final roundings.
            let p = (v1 * m1 + v2 * m2) - (a1 * m1 + a2 * m2);
            let scale = (v1.abs() + a1.abs()) * m1 + (v2.abs() + a2.abs()) * m2;
            assert!(
                p.x.abs() <= 4.0 * f64::EPSILON * scale.x
                    && p.y.abs() <= 4.0 * f64::EPSILON * scale.y,
                "momentum {p} for {v1} {v2} along {n}"
            );
        }
        assert!(count > CONTACTS * 9 / 10, "{count} contacts");
        let (mean, long) = (sum / count as f64, long / count as f64);
        // The contacts do have normals that are too long on average (what the test is about).
        assert!(long > 1e-17, "mean |n|² − 1 = {long:e}");
        assert!(
            mean.abs() <= MAX_MEAN,
            "masses {m1}, {m2}: mean relative energy error {mean:e}"
        );
    }
}

/// A ball off a corner of radius 2 (a static one, and one moving: a kinematic rectangle's):
/// the mean energy error of `reflect_relative_on` with `e = 1`, in the frame of the surface,
/// is zero to far below the bias of rounded normals.
#[test]
fn elastic_corner_bounces_do_not_lean_in_energy() {
    for surface in [Vec2::ZERO, Vec2::new(37.5, -60.25)] {
        let mut rng = Rng(0xD1B5_4A32_D192_ED03);
        let (mut sum, mut count) = (0.0, 0usize);
        for _ in 0..CONTACTS {
            let c = Vec2::new(rng.range(0.0, 1000.0), rng.range(0.0, 1000.0));
            let v = rng.vec(600.0);
            let p = c + (v - surface) * rng.range(0.01, 1.0) + rng.vec(1.96);
            let Some((_, n)) = sweep_circle_point(c, 2.0, v - surface, 1.0, p) else {
                continue;
            };
            let out = reflect_relative_on(v, surface, n, 1.0);
            // In the surface's frame.
            let w = (v - surface).length_squared();
            sum += energy_change(&[(1.0, relative(v, surface), relative(out, surface))]) / w;
            count += 1;
        }
        assert!(count > CONTACTS / 2, "{count} contacts");
        let mean = sum / count as f64;
        assert!(
            mean.abs() <= MAX_MEAN,
            "surface {surface}: mean relative energy error {mean:e}"
        );
    }
}
