//! Segments, polylines, bumpers and capsules: the static geometry of a pinball table.
//!
//! Every expected value of the analytic tests is worked out by hand in a comment; the property
//! tests compare the sweeps with a dense scan of the distance itself (in the tests only: the
//! sweeps never sample). Conventions (crate docs): x right, **y down**, normals from the
//! obstacle toward the ball.

use collide_core::motion::Path;
use collide_core::sweep_path::sweep_path_circle_circle;
use collide_core::*;
use proptest::prelude::*;

fn v(x: f64, y: f64) -> Vec2 {
    Vec2::new(x, y)
}

fn assert_rel(actual: f64, expected: f64, rel: f64, what: &str) {
    assert!(
        actual.is_finite() && (actual - expected).abs() <= rel * expected.abs(),
        "{what}: got {actual:?}, expected {expected:?} (relative {rel:e})"
    );
}

fn assert_vec(actual: Vec2, expected: Vec2, tol: f64, what: &str) {
    assert!(
        actual.is_finite() && (actual - expected).length() <= tol,
        "{what}: got {actual:?}, expected {expected:?} (tol {tol:e})"
    );
}

// ---------------------------------------------------------------------------------------------
// A ball against one segment, straight and parabolic paths.
// ---------------------------------------------------------------------------------------------

/// The slanted segment of the face tests: from (0, 0) to (30, 40), length 50, direction
/// (0.6, 0.8), normal (30, 40).perp()/50 = (−40, 30)/50 = (−0.8, 0.6).
fn slant() -> Segment {
    Segment::new(v(0.0, 0.0), v(30.0, 40.0))
}

#[test]
fn straight_ball_meets_a_slanted_face_when_the_gap_says() {
    // Centre at the foot (15, 20) (halfway) pushed 20 along the normal (−0.8, 0.6):
    // (15 − 16, 20 + 12) = (−1, 32). Velocity 10·(0.8, −0.6) = (8, −6): straight at the line at
    // 10 units/s. Radius 5: the gap 20 − 5 = 15 closes at 10, toi = 1.5 s; the centre is then
    // (−1 + 12, 32 − 9) = (11, 23) and its foot (11, 23) − 5·(−0.8, 0.6) = (15, 20).
    let hit = sweep_circle_segment(
        v(-1.0, 32.0),
        5.0,
        v(8.0, -6.0),
        10.0,
        &slant(),
        SegmentEnds::BOTH,
    )
    .expect("face hit");
    assert_rel(hit.toi, 1.5, 1e-12, "toi");
    assert_vec(hit.normal, v(-0.8, 0.6), 1e-15, "normal");
    assert_vec(hit.point, v(15.0, 20.0), 1e-12, "point");
    assert_eq!(hit.feature, SegmentFeature::Face);
    // From the other side, the normal is the opposite one: centre (15 + 16, 20 − 12) =
    // (31, 8), velocity (−8, 6): the same toi, normal (0.8, −0.6).
    let hit = sweep_circle_segment(
        v(31.0, 8.0),
        5.0,
        v(-8.0, 6.0),
        10.0,
        &slant(),
        SegmentEnds::BOTH,
    )
    .expect("face hit");
    assert_rel(hit.toi, 1.5, 1e-12, "toi, back side");
    assert_vec(hit.normal, v(0.8, -0.6), 1e-15, "normal, back side");
}

#[test]
fn straight_ball_meets_an_end_point_on_its_circle() {
    // Segment (0, 0)–(10, 0); centre (30, 3) moving (−4, 0), radius 5. The end b = (10, 0) is
    // within 5 of the centre when (x − 10)² + 3² = 25, x = 14: after (30 − 14)/4 = 4 s. The
    // normal is (4, 3)/5 = (0.8, 0.6), pointing away from the segment (4·10 > 0).
    let seg = Segment::new(v(0.0, 0.0), v(10.0, 0.0));
    let hit = sweep_circle_segment(
        v(30.0, 3.0),
        5.0,
        v(-4.0, 0.0),
        10.0,
        &seg,
        SegmentEnds::BOTH,
    )
    .expect("end hit");
    assert_rel(hit.toi, 4.0, 1e-12, "toi");
    assert_vec(hit.normal, v(0.8, 0.6), 1e-15, "normal");
    assert_eq!(hit.point, v(10.0, 0.0));
    assert_eq!(hit.feature, SegmentFeature::End(SegmentEnd::B));
    // With b no obstacle, the ball passes (its centre stays 3 from the line, moving along it).
    assert_eq!(
        sweep_circle_segment(v(30.0, 3.0), 5.0, v(-4.0, 0.0), 10.0, &seg, SegmentEnds::A),
        None
    );
    // Aimed the other way at a: the mirror image, (−20, 3) moving (4, 0): x = −4 after 4 s.
    let hit = sweep_circle_segment(
        v(-20.0, 3.0),
        5.0,
        v(4.0, 0.0),
        10.0,
        &seg,
        SegmentEnds::BOTH,
    )
    .expect("end hit at a");
    assert_rel(hit.toi, 4.0, 1e-12, "toi at a");
    assert_vec(hit.normal, v(-0.8, 0.6), 1e-15, "normal at a");
    assert_eq!(hit.feature, SegmentFeature::End(SegmentEnd::A));
}

#[test]
fn parabolic_ball_meets_a_slanted_face_at_the_quadratic_root() {
    // The centre of the straight test, (−1, 32), 20 from the slanted line on the side of
    // n = (−0.8, 0.6), velocity (8, −6) (−10 along n, 0 along the segment), acceleration
    // (0, −100): −60 along n, −80 along the segment. Radius 5: the gap is
    // 15 − 10τ − 30τ², zero at 6τ² + 2τ − 3 = 0, τ = (−2 + √76)/12 = 0.559816…; the foot moved
    // ½·80·τ² = 12.53 back along the segment, from 25 to 12.47: on it.
    let path = Path::ballistic(v(-1.0, 32.0), v(8.0, -6.0), v(0.0, -100.0));
    let hit =
        sweep_path_circle_segment(&path, 5.0, 10.0, &slant(), SegmentEnds::BOTH).expect("face hit");
    let expected = (76f64.sqrt() - 2.0) / 12.0;
    assert_rel(hit.toi, expected, 1e-12, "toi");
    assert_vec(hit.normal, v(-0.8, 0.6), 1e-15, "normal");
    assert_eq!(hit.feature, SegmentFeature::Face);
    let along = 25.0 - 40.0 * expected * expected;
    assert_vec(hit.point, v(0.6, 0.8) * along, 1e-10, "point");
}

#[test]
fn parabolic_ball_meets_an_end_point_at_the_quartic_root() {
    // Segment (0, 0)–(10, 0); a ball of radius 5 dropped from rest at (13, −20) under
    // g = (0, 100). Its centre stays at x = 13, past b: the end is within 5 when
    // 3² + y² = 25, y = −4, after falling 16 = 50·τ², τ = √0.32. Normal (3, −4)/5.
    let seg = Segment::new(v(0.0, 0.0), v(10.0, 0.0));
    let path = Path::ballistic(v(13.0, -20.0), Vec2::ZERO, v(0.0, 100.0));
    let hit =
        sweep_path_circle_segment(&path, 5.0, 10.0, &seg, SegmentEnds::BOTH).expect("end hit");
    assert_rel(hit.toi, 0.32f64.sqrt(), 1e-12, "toi");
    assert_vec(hit.normal, v(0.6, -0.8), 1e-12, "normal");
    assert_eq!(hit.feature, SegmentFeature::End(SegmentEnd::B));
    assert_eq!(
        sweep_path_circle_segment(&path, 5.0, 10.0, &seg, SegmentEnds::A),
        None,
        "b is no obstacle: the ball falls past it"
    );
}

#[test]
fn straight_paths_agree_with_the_parabolic_sweep() {
    // Without acceleration the parabolic sweep solves the same contact as the straight one.
    let seg = Segment::new(v(-5.0, 7.0), v(25.0, -3.0));
    for (c, vel) in [
        (v(0.0, -20.0), v(1.0, 9.0)),
        (v(40.0, 10.0), v(-8.0, -1.0)),
        (v(-20.0, 20.0), v(6.0, -4.0)),
        (v(10.0, 30.0), v(0.5, -7.0)),
    ] {
        let a = sweep_circle_segment(c, 3.0, vel, 10.0, &seg, SegmentEnds::BOTH).expect("hit");
        let p =
            sweep_path_circle_segment(&Path::linear(c, vel), 3.0, 10.0, &seg, SegmentEnds::BOTH)
                .expect("hit");
        assert!((a.toi - p.toi).abs() < 1e-12, "{a:?} {p:?}");
        assert_eq!(a.feature, p.feature);
        assert_vec(a.normal, p.normal, 1e-12, "normal");
    }
}

#[test]
fn contact_at_the_start_with_a_segment() {
    let seg = Segment::new(v(0.0, 0.0), v(10.0, 0.0));
    // Touching the face from above (centre (5, −2), radius 2) and moving down: toi 0.
    let hit =
        sweep_circle_segment(v(5.0, -2.0), 2.0, v(0.0, 1.0), 1.0, &seg, SegmentEnds::BOTH).unwrap();
    assert_eq!(hit.toi, 0.0);
    assert_eq!(hit.normal, v(0.0, -1.0));
    // Touching and moving up or sideways: no hit.
    assert_eq!(
        sweep_circle_segment(
            v(5.0, -2.0),
            2.0,
            v(0.0, -1.0),
            1.0,
            &seg,
            SegmentEnds::BOTH
        ),
        None
    );
    assert_eq!(
        sweep_circle_segment(v(5.0, -2.0), 2.0, v(1.0, 0.0), 1.0, &seg, SegmentEnds::BOTH),
        None
    );
    // Resting on it under gravity (rate 0, accelerating into it): toi 0; weightless: none.
    let rest = Path::ballistic(v(5.0, -2.0), Vec2::ZERO, v(0.0, 10.0));
    assert_eq!(
        sweep_path_circle_segment(&rest, 2.0, 1.0, &seg, SegmentEnds::BOTH)
            .unwrap()
            .toi,
        0.0
    );
    let slide = Path::linear(v(5.0, -2.0), v(3.0, 0.0));
    assert_eq!(
        sweep_path_circle_segment(&slide, 2.0, 1.0, &seg, SegmentEnds::BOTH),
        None
    );
    // Touching an end point and approaching it: toi 0 at that end.
    let hit = sweep_circle_segment(
        v(13.0, -4.0),
        5.0,
        v(-1.0, 0.0),
        1.0,
        &seg,
        SegmentEnds::BOTH,
    )
    .unwrap();
    assert_eq!(
        (hit.toi, hit.feature),
        (0.0, SegmentFeature::End(SegmentEnd::B))
    );
}

/// Uniform draws in `[lo, hi)` from Marsaglia's xorshift64 ("Xorshift RNGs", J. Stat.
/// Softw. 8, 2003) seeded with `state` (non-zero): the same cases on every run.
fn xorshift(mut state: u64) -> impl FnMut(f64, f64) -> f64 {
    move |lo: f64, hi: f64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        lo + (hi - lo) * ((state >> 11) as f64 / (1u64 << 53) as f64)
    }
}

/// A segment from a random point within 600 units of the origin, 1 to 150 units long at a
/// random angle; returns it and its angle (radians).
fn random_segment(uniform: &mut impl FnMut(f64, f64) -> f64) -> (Segment, f64) {
    let a = v(uniform(-600.0, 600.0), uniform(-600.0, 600.0));
    let angle = uniform(-3.2, 3.2);
    let len = uniform(1.0, 150.0);
    (
        Segment::new(a, a + v(angle.cos(), angle.sin()) * len),
        angle,
    )
}

/// A circle touching a segment exactly where a face meets an end's half disc (its centre
/// at `b ± R·n̂`, rounded), moving into the segment and on past the end: met at once, on
/// either path. The faces' span test and the ends' outward test round differently there;
/// before they agreed to within a tolerance, one case in a few passed through unmet (a ball a
/// flipper's squeeze pushed out to the rim of its tip went into it).
#[test]
fn a_circle_touching_where_a_face_meets_an_end_is_met_at_once() {
    let mut uniform = xorshift(0x2545_f491_4f6c_dd1d);
    for case in 0..20_000 {
        let (seg, _) = random_segment(&mut uniform);
        let (d, r) = (seg.b - seg.a, uniform(0.5, 20.0));
        let side = if uniform(0.0, 1.0) < 0.5 { 1.0 } else { -1.0 };
        let n = d.perp() / d.length() * side;
        let centre = seg.b + n * r;
        // Into the segment (against `n`) and along it past `b`.
        let vel = (d / d.length() * uniform(0.1, 2.0) - n) * uniform(1.0, 2e4);
        let straight = sweep_circle_segment(centre, r, vel, 1.0, &seg, SegmentEnds::BOTH);
        let curved = sweep_path_circle_segment(
            &Path::ballistic(centre, vel, v(0.0, uniform(0.0, 1e3))),
            r,
            1.0,
            &seg,
            SegmentEnds::BOTH,
        );
        for (what, hit) in [("straight", straight), ("curved", curved)] {
            let hit = hit.unwrap_or_else(|| {
                panic!("case {case}, {what}: not met ({seg:?}, {centre:?}, {vel:?})")
            });
            // At once: within a rounding error of the start (the centre is rounded off the rim).
            assert!(
                hit.toi * vel.length() < 1e-9,
                "case {case}, {what}: {hit:?}"
            );
            assert!(
                hit.normal.dot(n) > 1.0 - 1e-9,
                "case {case}, {what}: {hit:?}"
            );
        }
    }
}

/// A circle touching a segment's end half disc and moving along its tangent there (its
/// velocity square to the normal, as a slide out of a wedge leaves it) leaves the disc: it is
/// not met at once. Before the rate `q·v` was taken within its rounding, a rate that
/// rounded below zero was a hit at 0, whose response left the velocity as it was: the same
/// contact at one instant until the event bound (a ball wedged between a static segment and
/// a held flipper's end).
#[test]
fn a_circle_leaving_an_end_along_its_tangent_is_not_met_at_once() {
    let mut uniform = xorshift(0x9e37_79b9_7f4a_7c15);
    for case in 0..20_000 {
        let (seg, angle) = random_segment(&mut uniform);
        let r = uniform(0.5, 30.0);
        // Beyond `b`, touching its half disc, the normal `n` pointing away from the segment.
        let turn = uniform(-1.4, 1.4) + angle;
        let n = v(turn.cos(), turn.sin());
        let centre = seg.b + n * r;
        let tangent = n.perp() * uniform(-2e5, 2e5);
        // Square to the normal from the rounded centre, as the response computes it.
        let q = (centre - seg.b).normalize();
        let vel = tangent - q * tangent.dot(q);
        let hit =
            sweep_path_circle_segment(&Path::linear(centre, vel), r, 1.0, &seg, SegmentEnds::BOTH);
        assert!(
            hit.is_none_or(|h| h.toi > 0.0),
            "case {case}: met at once leaving along the tangent: {hit:?}"
        );
    }
}

#[test]
fn a_thrown_ball_comes_round_to_the_underside() {
    // Segment (0, 0)–(10, 0). A ball of radius 1 thrown up from (12, 5) (below the line, y
    // down) with velocity (−20, −30) under g = (0, 50): it rises above the line past b, then
    // falls back... The straight sweep sees nothing (it starts past b moving away from the
    // face below); the parabola has vy = −30 + 50τ, y = 5 − 30τ + 25τ². The lower face
    // (y = +1 for the centre) is entered again from below when 5 − 30τ + 25τ² = 1 on the way
    // up: 25τ² − 30τ + 4 = 0, τ = (30 − √500)/50 = 0.152786; x = 12 − 20τ = 8.94: on the span.
    let seg = Segment::new(v(0.0, 0.0), v(10.0, 0.0));
    let path = Path::ballistic(v(12.0, 5.0), v(-20.0, -30.0), v(0.0, 50.0));
    let hit = sweep_path_circle_segment(&path, 1.0, 10.0, &seg, SegmentEnds::BOTH)
        .expect("underside hit");
    let expected = (30.0 - 500f64.sqrt()) / 50.0;
    assert_rel(hit.toi, expected, 1e-12, "toi");
    assert_eq!(hit.normal, v(0.0, 1.0));
    assert_eq!(hit.feature, SegmentFeature::Face);
}

// ---------------------------------------------------------------------------------------------
// Polylines: reflex joints are no obstacles, straight chains have no ghost.
// ---------------------------------------------------------------------------------------------

/// The earliest hit against a chain of segments, each with its obstacle ends.
fn sweep_chain(
    c: Vec2,
    r: f64,
    vel: Vec2,
    max: f64,
    chain: &[(Segment, SegmentEnds)],
) -> Option<SegmentHit> {
    let mut best: Option<SegmentHit> = None;
    for (s, e) in chain {
        if let Some(h) = sweep_circle_segment(c, r, vel, max, s, *e) {
            if best.is_none_or(|b| h.toi < b.toi) {
                best = Some(h);
            }
        }
    }
    best
}

#[test]
fn a_reflex_joint_is_no_obstacle_and_the_faces_catch_the_ball() {
    // A floor S2 from the joint (0, 0) to (40, 0) and a slope S1 rising to the left from
    // (−48, −14) to the joint (length 50, direction (0.96, 0.28), 16° up): seen from above (y
    // down) the joint is reflex, its ends are off; the outer ends are on.
    let s1 = Segment::new(v(-48.0, -14.0), v(0.0, 0.0));
    let s2 = Segment::new(v(0.0, 0.0), v(40.0, 0.0));
    let off = [(s1, SegmentEnds::A), (s2, SegmentEnds::B)];
    let on = [(s1, SegmentEnds::BOTH), (s2, SegmentEnds::BOTH)];
    // A ball of radius 2 rolling left on the floor at 10 units/s, centre (30, −2): S1's face
    // (normal (0.28, −0.96) on the ball's side) is 2 away when 0.28·x + 0.96·2 = 2, x = 2/7,
    // its foot on the slope's span: toi (30 − 2/7)/10.
    let (c, vel) = (v(30.0, -2.0), v(-10.0, 0.0));
    for chain in [&off, &on] {
        let hit = sweep_chain(c, 2.0, vel, 10.0, chain).unwrap();
        assert_eq!(hit.feature, SegmentFeature::Face);
        assert_rel(hit.toi, (30.0 - 2.0 / 7.0) / 10.0, 1e-12, "toi");
        assert_vec(hit.normal, v(0.28, -0.96), 1e-15, "normal");
    }
    // Sunk 1e-3 into the floor (by rounding, say): the floor does not stop a ball sliding
    // along it, the slope does, at 0.28·x + 0.96·1.999 = 2, x = (0.08 + 0.96e-3)/0.28. The
    // joint's disc would only be reached at x = √(4 − 1.999²) = 0.0632, later.
    let sunk = v(30.0, -1.999);
    for chain in [&off, &on] {
        let hit = sweep_chain(sunk, 2.0, vel, 10.0, chain).unwrap();
        assert_eq!(hit.feature, SegmentFeature::Face);
        assert_rel(
            hit.toi,
            (30.0 - (0.08 + 0.96e-3) / 0.28) / 10.0,
            1e-12,
            "toi, sunk",
        );
    }
    // Dropped straight down onto the joint from (0, −30) at 10 units/s: the slope's face
    // (distance 0.96·|y| for a centre (0, y)) catches it at |y| = 2/0.96, before the joint
    // (|y| = 2) or the floor (|y| = 2) could: toi (30 − 2/0.96)/10.
    let hit = sweep_chain(v(0.0, -30.0), 2.0, v(0.0, 10.0), 10.0, &off).unwrap();
    assert_eq!(hit.feature, SegmentFeature::Face);
    assert_rel(hit.toi, (30.0 - 2.0 / 0.96) / 10.0, 1e-12, "drop toi");
}

#[test]
fn a_flat_joint_switched_on_is_a_ghost() {
    // Two floor segments meeting at (0, 0). A ball of radius 2 sunk 1e-3 into the floor (centre
    // y = −1.999) sliding left at 10 units/s from x = 30. With the joint's ends on, the end b
    // of the left segment (exterior half-plane x >= 0) is met at x = √(4 − 1.999²) = 0.06324:
    // a ghost hit with a normal tilted back toward the ball's motion. Off: no hit at all.
    let s1 = Segment::new(v(-40.0, 0.0), v(0.0, 0.0));
    let s2 = Segment::new(v(0.0, 0.0), v(40.0, 0.0));
    let (c, vel) = (v(30.0, -1.999), v(-10.0, 0.0));
    let ghost = sweep_chain(
        c,
        2.0,
        vel,
        10.0,
        &[(s1, SegmentEnds::BOTH), (s2, SegmentEnds::BOTH)],
    )
    .unwrap();
    assert_eq!(ghost.feature, SegmentFeature::End(SegmentEnd::B));
    let x = (4.0f64 - 1.999 * 1.999).sqrt();
    assert_rel(ghost.toi, (30.0 - x) / 10.0, 1e-12, "ghost toi");
    assert!(ghost.normal.x > 0.0, "the ghost pushes the ball back");
    assert_eq!(
        sweep_chain(
            c,
            2.0,
            vel,
            10.0,
            &[(s1, SegmentEnds::A), (s2, SegmentEnds::B)]
        ),
        None
    );
}

#[test]
fn a_convex_joint_is_an_obstacle() {
    // A roof (a ridge seen from above): S1 from (−10, 10) to (0, 0), S2 from (0, 0) to (10, 10).
    // A ball of radius 1 falling straight onto the ridge from (0, −20) at 5 units/s meets the
    // joint at y = −1 (toi 19/5), normal (0, −1): the joint's end is on in both segments.
    let s1 = Segment::new(v(-10.0, 10.0), v(0.0, 0.0));
    let s2 = Segment::new(v(0.0, 0.0), v(10.0, 10.0));
    let chain = [(s1, SegmentEnds::BOTH), (s2, SegmentEnds::BOTH)];
    let hit = sweep_chain(v(0.0, -20.0), 1.0, v(0.0, 5.0), 10.0, &chain).unwrap();
    assert_rel(hit.toi, 19.0 / 5.0, 1e-12, "toi");
    assert_eq!(hit.normal, v(0.0, -1.0));
    assert!(matches!(hit.feature, SegmentFeature::End(_)));
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 2000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// A ball rolling along a straight two-segment floor (y = 0, joint at x = 10, flat: its
    /// ends off) is never hit by the joint: touching and sliding is no hit at all, and sinking
    /// toward the floor (straight or under gravity) meets a face.
    #[test]
    fn a_ball_sliding_along_a_straight_chain_never_meets_the_joint(
        x0 in -5.0f64..25.0, vx in -50.0f64..50.0, sink in 0.0f64..1e-3, gap in 0.0f64..1e-3,
        r in 0.1f64..5.0, g in 0.0f64..100.0,
    ) {
        // Outer ends far away (a ball moves at most 50 units in the 1 s searched).
        let s1 = Segment::new(v(-1000.0, 0.0), v(10.0, 0.0));
        let s2 = Segment::new(v(10.0, 0.0), v(1000.0, 0.0));
        let chain = [(s1, SegmentEnds::A), (s2, SegmentEnds::B)];
        let touching = v(x0, -r);
        prop_assert_eq!(sweep_chain(touching, r, v(vx, 0.0), 1.0, &chain), None);
        let above = v(x0, -r - gap);
        if let Some(h) = sweep_chain(above, r, v(vx, sink), 1.0, &chain) {
            prop_assert_eq!(h.feature, SegmentFeature::Face);
        }
        let path = Path::ballistic(above, v(vx, sink), v(0.0, g));
        for (s, e) in &chain {
            if let Some(h) = sweep_path_circle_segment(&path, r, 1.0, s, *e) {
                prop_assert_eq!(h.feature, SegmentFeature::Face);
            }
        }
    }

    /// Random balls (straight and parabolic) against a random segment: never later than a
    /// dense scan of the distance to the segment (no missed contact), within 1e-9 s of it, and
    /// touching at the hit.
    #[test]
    fn segment_sweeps_hit_where_the_distance_says(
        px in -100.0f64..100.0, py in -100.0f64..100.0,
        vx in -200.0f64..200.0, vy in -200.0f64..200.0,
        gx in -50.0f64..50.0, gy in -400.0f64..400.0,
        ax in -40.0f64..40.0, ay in -40.0f64..40.0, bx in -40.0f64..40.0, by in -40.0f64..40.0,
        r in 0.5f64..10.0, curved in any::<bool>(),
    ) {
        let seg = Segment::new(v(ax, ay), v(bx, by));
        let accel = if curved { v(gx, gy) } else { Vec2::ZERO };
        let path = Path::ballistic(v(px, py), v(vx, vy), accel);
        let dist = |t: f64| distance_point_segment(path.pos_at(t), &seg) - r;
        prop_assume!(dist(0.0) > 1e-9);
        let got = if curved {
            sweep_path_circle_segment(&path, r, 3.0, &seg, SegmentEnds::BOTH)
        } else {
            sweep_circle_segment(path.p0, r, path.v0, 3.0, &seg, SegmentEnds::BOTH)
        };
        let reference = scan(dist, 3.0, 30_000);
        match (got, reference) {
            (Some(hit), Some(t)) => prop_assert!(
                (hit.toi - t).abs() < 1e-9 || (hit.toi < t && dist(hit.toi) < 1e-7),
                "{} vs {t}", hit.toi
            ),
            (None, Some(t)) => prop_assert!(false, "missed the contact at {t}"),
            (Some(hit), None) => prop_assert!(dist(hit.toi) < 1e-7, "phantom hit {hit:?}"),
            (None, None) => {}
        }
        if let Some(hit) = got {
            prop_assert!(dist(hit.toi).abs() < 1e-7, "not touching: {}", dist(hit.toi));
            let c = path.pos_at(hit.toi);
            prop_assert!((c - hit.point).dot(hit.normal) > 0.0, "normal toward the ball");
            prop_assert!(distance_point_segment(hit.point, &seg) < 1e-9, "point on the segment");
        }
    }
}

/// A dense scan of `f` from 0 for its first sign change from `> 0` to `<= 0`, refined by
/// bisection: the independent reference of the property tests.
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

// ---------------------------------------------------------------------------------------------
// Bumpers and capsules.
// ---------------------------------------------------------------------------------------------

#[test]
fn a_ball_dropped_on_a_bumper_lands_when_the_radius_sum_says() {
    // Bumper: a static disc of radius 20 at (0, 100). Ball of radius 5 dropped from rest at
    // (0, 0) under g = (0, 100): contact at a centre distance of 25, centre y = 75, after
    // ½·100·τ² = 75, τ = √1.5. The normal points from the bumper up to the ball, (0, −1).
    let ball = Path::ballistic(Vec2::ZERO, Vec2::ZERO, v(0.0, 100.0));
    let bumper = Path::linear(v(0.0, 100.0), Vec2::ZERO);
    let hit = sweep_path_circle_circle(&ball, 5.0, &bumper, 20.0, 10.0).unwrap();
    assert_rel(hit.toi, 1.5f64.sqrt(), 1e-12, "toi");
    assert_vec(hit.normal, v(0.0, -1.0), 1e-12, "normal");
    assert_vec(hit.point, v(0.0, 80.0), 1e-9, "point");
}

#[test]
fn capsule_queries_agree_with_the_distance() {
    let cap = Capsule::new(v(0.0, 0.0), v(30.0, 40.0), 2.0);
    // (−1, 32) is 20 from the core (foot (15, 20)); radius 19: depth 2 + 19 − 20 = 1,
    // normal (−0.8, 0.6), point (15, 20) + 2·(−0.8, 0.6) = (13.4, 21.2).
    let k = contact_circle_capsule(v(-1.0, 32.0), 19.0, &cap).unwrap();
    assert_rel(k.depth, 1.0, 1e-12, "depth");
    assert_vec(k.normal, v(-0.8, 0.6), 1e-15, "normal");
    assert_vec(k.point, v(13.4, 21.2), 1e-12, "point");
    assert!(!circle_overlaps_capsule(v(-1.0, 32.0), 18.0, &cap));
    // Past a: (−3, −4) is 5 from a = (0, 0).
    assert_eq!(distance_point_segment(v(-3.0, -4.0), &cap.segment), 5.0);
    assert_eq!(
        closest_point_on_segment(v(-3.0, -4.0), &cap.segment),
        (Vec2::ZERO, 0.0)
    );
}
