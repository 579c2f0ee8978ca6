//! Exit times (`collide_core::exit`): checked against the distance itself, sampled densely
//! here in the test only (the method never samples).

use collide_core::motion::Path;
use collide_core::{distance_point_aabb, exit_path_circle_aabb, exit_path_circle_circle};
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
