//! Exit times (`collide_core::exit`): checked against the distance itself, sampled densely
//! here in the test only (the method never samples).

use collide_core::motion::Path;
use collide_core::{
    distance_point_aabb, exit_path_circle_aabb, exit_path_circle_circle, overlap_interval_aabb_aabb,
};
use collide_core::{Aabb, Vec2};
use proptest::prelude::*;

fn v2(range: f64) -> impl Strategy<Value = Vec2> {
    (-range..range, -range..range).prop_map(|(x, y)| Vec2::new(x, y))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// From a start inside the grown box, the circle overlaps the box all along `[from, exit)`
    /// and not just after `exit`.
    #[test]
    fn a_circle_overlaps_until_its_exit_and_not_after(
        f in v2(1.2), v0 in v2(50.0), g in prop_oneof![Just(Vec2::ZERO), v2(100.0)],
        half in (0.5f64..10.0, 0.5f64..10.0), r in 0.1f64..5.0,
    ) {
        let b = Aabb::new(Vec2::new(-half.0, -half.1), Vec2::new(half.0, half.1));
        // Inside the box, or up to a fifth of its size out of it.
        let p0 = Vec2::new(f.x * half.0, f.y * half.1);
        let path = Path::ballistic(p0, v0, g);
        prop_assume!(distance_point_aabb(p0, &b) < r * 0.999);
        let exit = exit_path_circle_aabb(&path, r, &b, 0.0);
        // Straight, or under gravity with a speed that leaves: it always leaves in this range.
        let exit = match exit {
            Some(t) => t,
            None => { prop_assert!(v0 == Vec2::ZERO && g == Vec2::ZERO); return Ok(()); }
        };
        prop_assert!(exit > 0.0);
        let n = 2000;
        for k in 0..n {
            let t = exit * (k as f64 + 0.5) / n as f64;
            let d = distance_point_aabb(path.pos_at(t), &b);
            prop_assert!(d <= r * (1.0 + 1e-9) + 1e-9, "apart at {t} < exit {exit}: {d} > {r}");
        }
        let d = distance_point_aabb(path.pos_at(exit), &b);
        prop_assert!((d - r).abs() <= 1e-7 * (1.0 + r), "at the exit: distance {d}, radius {r}");
        let after = exit * (1.0 + 1e-6) + 1e-9;
        let d = distance_point_aabb(path.pos_at(after), &b);
        prop_assert!(d >= r * (1.0 - 1e-9), "still in just after the exit: {d} < {r}");
    }

    /// Two circles: the relative path's distance is below the sum until the exit.
    #[test]
    fn two_circles_part_at_their_exit(
        p0 in v2(5.0), v0 in v2(50.0), g in prop_oneof![Just(Vec2::ZERO), v2(100.0)],
        rs in 1.0f64..10.0,
    ) {
        prop_assume!(p0.length() < rs * 0.999 && v0 != Vec2::ZERO);
        let rel = Path::ballistic(p0, v0, g);
        let exit = exit_path_circle_circle(&rel, rs, 0.0).expect("moving apart eventually");
        for k in 0..2000 {
            let t = exit * (k as f64 + 0.5) / 2000.0;
            prop_assert!(rel.pos_at(t).length() <= rs * (1.0 + 1e-9));
        }
        prop_assert!((rel.pos_at(exit).length() - rs).abs() <= 1e-7 * rs);
    }
}

#[test]
fn a_one_way_platform_crossed_from_below_then_landed_on() {
    // A platform [0, 100] × [50, 60]; a ball of radius 5 thrown up at 200 from y = 65 (just
    // touching the bottom face) at x = 50, gravity 400 down. Its top reaches the apex at
    // τ = 0.5 (y = 65 − 50 = 15): it leaves the platform when its centre passes y = 45
    // (the top face less r) going up: 65 − 200τ + 200τ² = 45, τ = (1 − √(1 − 0.4))/2.
    let b = Aabb::new(Vec2::new(0.0, 50.0), Vec2::new(100.0, 60.0));
    let path = Path::ballistic(
        Vec2::new(50.0, 65.0),
        Vec2::new(0.0, -200.0),
        Vec2::new(0.0, 400.0),
    );
    let t = exit_path_circle_aabb(&path, 5.0, &b, 0.0).expect("leaves");
    let expect = (1.0 - 0.6f64.sqrt()) / 2.0;
    assert!((t - expect).abs() < 1e-12, "{t} vs {expect}");
}

/// Whether boxes `a` and `b` overlap with positive area (computed here, independently).
fn boxes_overlap(a: &Aabb, b: &Aabb) -> bool {
    a.min.x < b.max.x && b.min.x < a.max.x && a.min.y < b.max.y && b.min.y < a.max.y
}

fn moved(b: &Aabb, v: Vec2, t: f64) -> Aabb {
    Aabb::new(b.min + v * t, b.max + v * t)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Two boxes on straight lines overlap inside their interval, and a little before its
    /// start and after its end they do not; without an interval they never overlap (checked
    /// at many times here, in the test only).
    #[test]
    fn two_moving_boxes_overlap_exactly_within_their_interval(
        ca in v2(50.0), cb in v2(50.0), ha in (0.5f64..20.0, 0.5f64..20.0),
        hb in (0.5f64..20.0, 0.5f64..20.0), va in v2(100.0),
        vb in prop_oneof![Just(Vec2::ZERO), v2(100.0)],
    ) {
        let a = Aabb::new(ca - Vec2::new(ha.0, ha.1), ca + Vec2::new(ha.0, ha.1));
        let b = Aabb::new(cb - Vec2::new(hb.0, hb.1), cb + Vec2::new(hb.0, hb.1));
        match overlap_interval_aabb_aabb(&a, va, &b, vb) {
            Some((enter, exit)) => {
                prop_assert!(enter < exit);
                // Inside: the middle (or a time past a one-sided end).
                let mid = match (enter.is_finite(), exit.is_finite()) {
                    (true, true) => 0.5 * (enter + exit),
                    (true, false) => enter + 1.0,
                    (false, true) => exit - 1.0,
                    (false, false) => 0.0,
                };
                prop_assert!(boxes_overlap(&moved(&a, va, mid), &moved(&b, vb, mid)));
                // Outside, by a margin well above rounding at these sizes and speeds.
                let margin = 1e-6 * (1.0 + (exit - enter).abs().min(1e6));
                if enter.is_finite() {
                    let t = enter - margin;
                    prop_assert!(!boxes_overlap(&moved(&a, va, t), &moved(&b, vb, t)));
                }
                if exit.is_finite() {
                    let t = exit + margin;
                    prop_assert!(!boxes_overlap(&moved(&a, va, t), &moved(&b, vb, t)));
                }
            }
            None => {
                for i in -200..=200 {
                    let t = f64::from(i) * 0.05;
                    prop_assert!(!boxes_overlap(&moved(&a, va, t), &moved(&b, vb, t)), "t = {}", t);
                }
            }
        }
    }
}

#[test]
fn boxes_sliding_along_each_other_or_apart_never_overlap() {
    // Touching along x = 2 and moving along it: never inside each other.
    let a = Aabb::new(Vec2::new(0.0, 0.0), Vec2::new(2.0, 2.0));
    let b = Aabb::new(Vec2::new(2.0, -5.0), Vec2::new(4.0, -3.0));
    assert_eq!(
        overlap_interval_aabb_aabb(&a, Vec2::new(0.0, 3.0), &b, Vec2::ZERO),
        None
    );
    // Overlapping and moving together: forever.
    let c = Aabb::new(Vec2::new(1.0, 1.0), Vec2::new(3.0, 3.0));
    let v = Vec2::new(7.0, -2.0);
    assert_eq!(
        overlap_interval_aabb_aabb(&a, v, &c, v),
        Some((f64::NEG_INFINITY, f64::INFINITY))
    );
    // A falling 16 × 9 box over an 80-wide paddle: its bottom (4.5 below its centre at
    // y = 100) reaches the paddle's top at y = 379 after 274.5 / 90 s; it has passed the
    // paddle's bottom (y = 385) when its top does, (385 − 95.5) / 90 s.
    let item = Aabb::new(Vec2::new(192.0, 95.5), Vec2::new(208.0, 104.5));
    let paddle = Aabb::new(Vec2::new(189.5, 379.0), Vec2::new(269.5, 385.0));
    let (enter, exit) =
        overlap_interval_aabb_aabb(&item, Vec2::new(0.0, 90.0), &paddle, Vec2::ZERO).unwrap();
    assert_eq!(enter, (379.0 - 104.5) / 90.0);
    assert_eq!(exit, (385.0 - 95.5) / 90.0);
}
