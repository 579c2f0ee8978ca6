//! Turning flippers: a ball (straight or under gravity) against a capsule swinging about its
//! pivot, and the bounce off it.
//!
//! Every expected value of the analytic tests is worked out by hand in a comment; the property
//! test checks the earliest contact against a dense scan of the distance (in the test only:
//! the sweep never samples). Conventions (crate docs): x right, **y down**, normals from the
//! flipper toward the ball, a positive angular speed turns clockwise on the screen.

use collide_core::motion::Path;
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
// Turning flippers.
// ---------------------------------------------------------------------------------------------

/// The distance from `c` to the flipper's surface at `t` (negative inside), computed from the
/// capsule at that time (an independent path: `capsule_at` and the point–segment distance).
fn flipper_gap(f: &TurningCapsule, c: Vec2, r: f64, t: f64) -> f64 {
    let cap = f.capsule_at(t);
    distance_point_segment(c, &cap.segment) - cap.radius - r
}

#[test]
fn a_resting_ball_is_struck_when_the_flipper_face_reaches_it() {
    // Pivot (100, 200), length 80, radius 6, θ0 = 0.3, ω = 12 rad/s (clockwise on the screen).
    // Ball of radius 9 at rest at d = 50 from the pivot, at angle φ = 1.1 (within the length:
    // the face meets it). The core line at angle θ is d·sin(φ − θ) from the centre; contact
    // when that is 6 + 9 = 15: θ = φ − asin(15/50), toi = (1.1 − asin(0.3) − 0.3)/12.
    let f = TurningCapsule {
        pivot: v(100.0, 200.0),
        length: 80.0,
        radius: 6.0,
        angle: 0.3,
        omega: 12.0,
        ..Default::default()
    };
    let (phi, d) = (1.1f64, 50.0);
    let c = f.pivot + v(phi.cos(), phi.sin()) * d;
    let hit = sweep_path_circle_turning_capsule(&Path::linear(c, Vec2::ZERO), 9.0, &f, 1.0)
        .hit()
        .expect("struck");
    let expected = (phi - 0.3f64.asin() - 0.3) / 12.0;
    assert_rel(hit.toi, expected, 1e-12, "toi");
    assert_eq!(hit.feature, SegmentFeature::Face);
    // The normal is the flipper's own normal on the ball's side: (−sin θ, cos θ) at
    // θ = φ − asin(0.3); the point is on the surface, the surface velocity
    // ω·(point − pivot).perp().
    let th = phi - 0.3f64.asin();
    assert_vec(hit.normal, v(-th.sin(), th.cos()), 1e-9, "normal");
    assert!((flipper_gap(&f, hit.point, 0.0, hit.toi)).abs() < 1e-9);
    assert_vec(
        hit.surface_vel,
        (hit.point - f.pivot).perp() * 12.0,
        1e-9,
        "surface velocity",
    );
    // Turning the other way (ω = −12) from θ0 = 1.9, the face reaches it from the other side at
    // θ = φ + asin(0.3): toi = (1.9 − 1.1 − asin 0.3)/12.
    let g = TurningCapsule {
        angle: 1.9,
        omega: -12.0,
        ..f
    };
    let hit = sweep_path_circle_turning_capsule(&Path::linear(c, Vec2::ZERO), 9.0, &g, 1.0)
        .hit()
        .expect("struck");
    assert_rel(
        hit.toi,
        (1.9 - 1.1 - 0.3f64.asin()) / 12.0,
        1e-12,
        "toi, ω < 0",
    );
}

#[test]
fn a_resting_ball_past_the_length_is_struck_by_the_tip() {
    // Same flipper; the ball of radius 9 at d = 90 > 80 at φ = 1.1: the tip's circle (around
    // L·(cos θ, sin θ)) touches it when d² + L² − 2dL·cos(φ − θ) = (6 + 9)², so
    // cos(φ − θ) = (8100 + 6400 − 225)/(2·90·80) = 14275/14400, toi = (φ − acos(…) − θ0)/ω.
    let f = TurningCapsule {
        pivot: v(100.0, 200.0),
        length: 80.0,
        radius: 6.0,
        angle: 0.3,
        omega: 12.0,
        ..Default::default()
    };
    let (phi, d) = (1.1f64, 90.0);
    let c = f.pivot + v(phi.cos(), phi.sin()) * d;
    let hit = sweep_path_circle_turning_capsule(&Path::linear(c, Vec2::ZERO), 9.0, &f, 1.0)
        .hit()
        .expect("struck by the tip");
    let expected = (phi - (14275.0f64 / 14400.0).acos() - 0.3) / 12.0;
    assert_rel(hit.toi, expected, 1e-12, "toi");
    assert_eq!(hit.feature, SegmentFeature::End(SegmentEnd::B));
    // Out of reach (d = 101 > 80 + 6 + 9 = 95): never struck, however long it turns.
    let far = f.pivot + v(phi.cos(), phi.sin()) * 101.0;
    assert_eq!(
        sweep_path_circle_turning_capsule(&Path::linear(far, Vec2::ZERO), 9.0, &f, 10.0),
        TurningSweep::Miss
    );
}

#[test]
fn contact_with_a_flipper_at_the_start() {
    let f = TurningCapsule {
        length: 80.0,
        radius: 6.0,
        omega: 10.0,
        ..Default::default()
    };
    // Ball of radius 4 touching the face from the side the flipper turns toward (+y at θ = 0),
    // centre (40, 10) at rest: approaching, toi 0.
    let c = v(40.0, 10.0);
    let hit = sweep_path_circle_turning_capsule(&Path::linear(c, Vec2::ZERO), 4.0, &f, 1.0)
        .hit()
        .unwrap();
    assert_eq!(hit.toi, 0.0);
    assert_vec(hit.normal, v(0.0, 1.0), 1e-15, "normal");
    // Overlapping and approaching: toi 0 too.
    let hit =
        sweep_path_circle_turning_capsule(&Path::linear(v(40.0, 8.0), Vec2::ZERO), 4.0, &f, 1.0)
            .hit()
            .unwrap();
    assert_eq!(hit.toi, 0.0);
    // Touching on the side it turns away from (−y), at rest: separating, and the flipper does
    // not come round again within 0.5 s (half a turn takes π/10 = 0.314 s, a full one 0.628 s).
    let above = Path::linear(v(40.0, -10.0), Vec2::ZERO);
    assert_eq!(
        sweep_path_circle_turning_capsule(&above, 4.0, &f, 0.5),
        TurningSweep::Miss
    );
    // Given a full turn, it comes round: the face reaches (40, −10) again when it has turned
    // 2π − 2·asin(10/√1700) (the centre is at angle −asin(10/√1700) … the contact angles are
    // φ ± asin(10/d) with d = √1700, φ = −atan(10/40)): toi = (2π + φ − asin(10/d))/10.
    let d = 1700f64.sqrt();
    let phi = -(10.0f64 / 40.0).atan();
    let again = sweep_path_circle_turning_capsule(&above, 4.0, &f, 1.0)
        .hit()
        .expect("comes round");
    assert_rel(
        again.toi,
        (2.0 * std::f64::consts::PI + phi - (10.0 / d).asin()) / 10.0,
        1e-12,
        "next turn",
    );
}

/// A ball at rest touching the pivot's end of a turning flipper, behind the pivot: the gap
/// there is `|q| − R` whatever the angle, so nothing happens until the core's face turns onto
/// the ball. The core points along +x at the start and the centre lies at 120° from it, at
/// exactly `R = 2 + 6`: turning toward it (`ω = 10`) the face reaches it when the core is at
/// 30° (`toi = (π/6)/10`); turning away (`ω = −10`), the other face comes round when the core
/// is at −150° (`toi = (5π/6)/10`). The sweep steps across the touching stretch in a few
/// evaluations instead of one ulp of time at a time (which ran out of iterations at
/// `τ ≈ 1e-320`, `Unresolved`).
#[test]
fn a_ball_touching_the_pivot_end_is_struck_when_a_face_turns_onto_it() {
    let (sn, cs) = (2.0 * std::f64::consts::PI / 3.0).sin_cos();
    let c = v(8.0 * cs, 8.0 * sn);
    let ball = Path::linear(c, Vec2::ZERO);
    for (omega, turn) in [(10.0, 1.0 / 6.0), (-10.0, 5.0 / 6.0)] {
        let f = TurningCapsule {
            length: 80.0,
            radius: 6.0,
            omega,
            ..Default::default()
        };
        let hit = sweep_path_circle_turning_capsule(&ball, 2.0, &f, 0.3)
            .hit()
            .unwrap_or_else(|| panic!("ω {omega}: no hit"));
        assert_rel(hit.toi, turn * std::f64::consts::PI / 10.0, 1e-9, "toi");
        // At the hit the face is on the ball: the ball is `R` from the core.
        assert!(flipper_gap(&f, c, 2.0, hit.toi).abs() < 1e-9, "ω {omega}");
        // Before it, the ball only touches the pivot's end.
        for k in 1..10 {
            let t = hit.toi * k as f64 / 10.0;
            assert!(flipper_gap(&f, c, 2.0, t) > -1e-12, "ω {omega}, t {t}");
        }
    }
}

#[test]
fn a_ball_moving_with_the_face_is_followed_until_it_parts_or_presses() {
    // Flipper at the origin along +x (θ0 = 0), length 80, radius 6, ω = 10 rad/s; a ball of
    // radius 4 centred at q0 = (40, 10), touching the face (R = 10), moving with the face's
    // material point under it: v = ω·q0.perp() = (−100, 400). Its gap and the gap's rate are
    // zero (exactly: the rate is n·(v − ω·c.perp()) = (0, 1)·((−100, 400) − (0, 400))), and
    // so is every step `D'/M` a follow by the rate alone can take.
    let f = TurningCapsule {
        length: 80.0,
        radius: 6.0,
        omega: 10.0,
        ..Default::default()
    };
    let (q0, w, big_r) = (v(40.0, 10.0), 10.0f64, 10.0f64);
    let vel = q0.perp() * w;
    // On a straight path the ball parts (the gap's second derivative is ω²·R > 0: the
    // centrifugal part), then the face, turning faster than the ball's direction from the
    // pivot, catches it. With x = ω·t its distance from the pivot is |q0|·√(1 + x²) and its
    // angle from the core α0 + atan x − x (α0 = atan(R/40)); it touches again where
    // |q0|·√(1 + x²)·sin(α0 + atan x − x) = R (to third order R·x²/2 = 40·x³/3, x near
    // 0.375), solved here by bisection on that formula.
    let gap = |x: f64| {
        q0.length() * (1.0 + x * x).sqrt() * ((big_r / 40.0).atan() + x.atan() - x).sin() - big_r
    };
    let (mut lo, mut hi) = (0.1, 1.0);
    assert!(gap(lo) > 0.0 && gap(hi) < 0.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if gap(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let expected = hi / w;
    let res = sweep_path_circle_turning_capsule(&Path::linear(q0, vel), 4.0, &f, 1.0);
    let hit = res.hit().unwrap_or_else(|| panic!("no hit: {res:?}"));
    assert_rel(hit.toi, expected, 1e-9, "toi");
    assert!(flipper_gap(&f, q0 + vel * hit.toi, 4.0, hit.toi).abs() < 1e-9);
    for k in 1..20 {
        let t = hit.toi * k as f64 / 20.0;
        assert!(flipper_gap(&f, q0 + vel * t, 4.0, t) > -1e-9, "t {t}");
    }
    // Pressed into the face by an acceleration (0, −2000) (the gap's second derivative
    // n·(a + ω²·q0) = −2000 + 1000 < 0): it approaches at once, a hit at the start.
    let pressed = Path {
        p0: q0,
        v0: vel,
        accel: v(0.0, -2000.0),
    };
    let res = sweep_path_circle_turning_capsule(&pressed, 4.0, &f, 1.0);
    let hit = res
        .hit()
        .unwrap_or_else(|| panic!("pressed: no hit: {res:?}"));
    assert!(hit.toi < 1e-12, "pressed: toi {}", hit.toi);
    assert_vec(hit.normal, v(0.0, 1.0), 1e-9, "pressed: normal");
}

#[test]
fn a_box_built_over_the_pivots_end_slides_past_it_without_creeping() {
    // Flipper at the origin, length 50, radius 5, pointing along −x (θ0 = π) and turning at
    // ω = 1 rad/s, away from the box. A box of half size 10 × 10 centred at (12, 0): its left
    // face (x = 2) is 2 from the pivot, 3 inside the pivot's end cap (radius 5), built there.
    // It slides down at 10 units/s: its face stays 2 from the pivot until t = 1 s (the gap a
    // constant −3, its rate exactly 0: no step `D'/M` at all), and nothing else of the
    // flipper comes near it (the core stays at x <= 0, the box's corners over 10 from the
    // pivot). Swept again from each certified time, as the world does with an unresolved
    // sweep, it is certified free of any approach up to 0.05 s in a bounded number of sweeps.
    let mut f = TurningCapsule {
        length: 50.0,
        radius: 5.0,
        angle: std::f64::consts::PI,
        omega: 1.0,
        ..Default::default()
    };
    let half = v(10.0, 10.0);
    let mut path = Path::linear(v(12.0, 0.0), v(0.0, 10.0));
    let horizon = 0.05;
    let mut t = 0.0;
    let mut sweeps = 0;
    while t < horizon {
        sweeps += 1;
        assert!(sweeps <= 100, "still at t = {t:e} after 100 sweeps");
        match sweep_path_aabb_turning_capsule(&path, half, &f, horizon - t) {
            TurningSweep::Miss => break,
            TurningSweep::Hit(h) => panic!("hit at {} (from t = {t})", t + h.toi),
            TurningSweep::Unresolved { safe_until } => {
                assert!(safe_until > 0.0, "no progress at t = {t}");
                t += safe_until;
                path = Path::linear(path.pos_at(safe_until), path.v0);
                f.angle += f.omega * safe_until;
            }
        }
    }
}

#[test]
fn grazing_the_tip_circle_ends_and_stays_outside() {
    // Flipper at the origin, length 100, radius 5, ω = 60 rad/s from θ0 = 0; a ball of radius
    // 5 at rest on the −x axis. The tip's circle reaches 110 from the pivot. 1e-9 beyond it
    // the ball is grazed once a turn (at θ = π, τ = π/60 + k·2π/60) and never touched: over
    // 1 s (9.5 turns) the search ends with a miss. 1e-9 inside it, the tip meets the ball just
    // before θ = π: the law of cosines, cos(π − θ) = (d² + L² − R²)/(2dL), toi = θ/60.
    let f = TurningCapsule {
        length: 100.0,
        radius: 5.0,
        omega: 60.0,
        ..Default::default()
    };
    let outside = Path::linear(v(-(110.0 + 1e-9), 0.0), Vec2::ZERO);
    assert_eq!(
        sweep_path_circle_turning_capsule(&outside, 5.0, &f, 1.0),
        TurningSweep::Miss
    );
    // Over 50 s (477 turns, each a graze) the evaluation bound is reached first: the answer
    // says up to when the ball is safe, and a sweep from there (the flipper's angle then)
    // goes on without a hit.
    let TurningSweep::Unresolved { safe_until } =
        sweep_path_circle_turning_capsule(&outside, 5.0, &f, 50.0)
    else {
        panic!("fifty seconds of grazes within the evaluation bound");
    };
    assert!(safe_until > 1.0 && safe_until < 50.0, "{safe_until}");
    let resumed = TurningCapsule {
        angle: f.angle_at(safe_until),
        ..f
    };
    assert!(!matches!(
        sweep_path_circle_turning_capsule(&outside, 5.0, &resumed, 50.0 - safe_until),
        TurningSweep::Hit(_)
    ));
    let d = 110.0 - 1e-6;
    let inside = Path::linear(v(-d, 0.0), Vec2::ZERO);
    let hit = sweep_path_circle_turning_capsule(&inside, 5.0, &f, 1.0)
        .hit()
        .expect("tip");
    let theta = std::f64::consts::PI - ((d * d + 1e4 - 100.0) / (2.0 * d * 100.0)).acos();
    // acos near 1 loses half the digits (an angle of 1.4e-4 from a cosine 1 − 1e-8): 1e-9 rel.
    assert_rel(hit.toi, theta / 60.0, 1e-9, "toi");
    assert_eq!(hit.feature, SegmentFeature::End(SegmentEnd::B));
}

#[test]
fn a_flipper_at_rest_is_a_static_capsule() {
    // ω = 0: the flipper along +x from (0, 0), length 80, radius 6; a ball of radius 4 falling
    // at 20 units/s from (30, −50): the face at y = −10 for the centre, toi 40/20 = 2.
    let f = TurningCapsule {
        length: 80.0,
        radius: 6.0,
        ..Default::default()
    };
    let hit = sweep_path_circle_turning_capsule(
        &Path::linear(v(30.0, -50.0), v(0.0, 20.0)),
        4.0,
        &f,
        5.0,
    )
    .hit()
    .unwrap();
    assert_rel(hit.toi, 2.0, 1e-12, "toi");
    assert_eq!(hit.normal, v(0.0, -1.0));
    assert_vec(hit.point, v(30.0, -6.0), 1e-12, "point");
    assert_eq!(hit.surface_vel, Vec2::ZERO);
}

#[test]
fn an_elastic_bounce_off_the_flipper_keeps_the_energy_in_its_frame() {
    // Ball at rest struck by the face (the first flipper test): e = 1 reverses the normal part
    // of the relative velocity v − u, so |v' − u| = |v − u| (the energy in the frame moving
    // with the contact point); the ball leaves at 2(u·n)n, since v = 0.
    let f = TurningCapsule {
        pivot: v(100.0, 200.0),
        length: 80.0,
        radius: 6.0,
        angle: 0.3,
        omega: 12.0,
        ..Default::default()
    };
    let c = f.pivot + v(1.1f64.cos(), 1.1f64.sin()) * 50.0;
    let hit = sweep_path_circle_turning_capsule(&Path::linear(c, Vec2::ZERO), 9.0, &f, 1.0)
        .hit()
        .unwrap();
    let out = reflect_relative(Vec2::ZERO, hit.surface_vel, hit.normal, 1.0);
    let u = hit.surface_vel;
    assert_rel(
        (out - u).length_squared(),
        u.length_squared(),
        1e-12,
        "energy in the flipper frame",
    );
    assert_vec(
        out,
        hit.normal * (2.0 * u.dot(hit.normal)),
        1e-9,
        "outgoing velocity",
    );
    // The face point at distance 50·cos(asin 0.3) = 47.70 from the pivot moves at
    // 12·47.70 = 572.4 units/s along the normal: the ball leaves at 1144.8 units/s.
    assert_rel(
        out.length(),
        2.0 * 12.0 * 50.0 * (1.0 - 0.09f64).sqrt(),
        1e-9,
        "outgoing speed",
    );
}

/// A flipper and a ball for the property tests: the ball within 250 units of the pivot,
/// mostly heading for it (within ±0.96 rad), sometimes anywhere; the pivot mostly fixed.
fn flipper_case() -> impl Strategy<Value = (TurningCapsule, Path, f64)> {
    let pivot_vel = prop_oneof![
        2 => Just(Vec2::ZERO),
        1 => (-500.0f64..500.0, -500.0f64..500.0).prop_map(|(x, y)| v(x, y)),
    ];
    (
        (20.0f64..150.0, 1.0f64..15.0, -3.2f64..3.2, -60.0f64..60.0),
        (
            -250.0f64..250.0,
            -250.0f64..250.0,
            0.0f64..1e4,
            -3.2f64..3.2,
            any::<bool>(),
        ),
        (prop_oneof![Just(0.0), -2000.0f64..2000.0], 0.5f64..15.0),
        pivot_vel,
    )
        .prop_map(|(flipper, ball, (g, r), pivot_vel)| {
            let (length, radius, angle, omega) = flipper;
            let (px, py, speed, heading, aimed) = ball;
            let f = TurningCapsule {
                pivot: v(400.0, 300.0),
                pivot_vel,
                length,
                radius,
                angle,
                omega,
            };
            let heading = if aimed {
                (-py).atan2(-px) + 0.3 * heading
            } else {
                heading
            };
            let path = Path::ballistic(
                v(400.0 + px, 300.0 + py),
                v(heading.cos(), heading.sin()) * speed,
                v(0.0, g),
            );
            (f, path, r)
        })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 3000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Balls up to 1e4 units/s (straight or under gravity), flippers up to 60 rad/s at random
    /// phases (a third of them with a moving pivot), over 0.2 s: the ball is outside the
    /// flipper at every one of 20 000 sample times before the toi (or over the whole span for
    /// a miss), and touches it at the toi to 1e-9 relative. The search always ends (no
    /// `Unresolved`).
    #[test]
    fn a_turning_flipper_is_never_entered_before_the_toi(case in flipper_case()) {
        let (f, path, r) = case;
        let big_r = r + f.radius;
        let gap = |t: f64| flipper_gap(&f, path.pos_at(t), r, t);
        prop_assume!(gap(0.0) > 1e-9 * big_r);
        let span = 0.2;
        let res = sweep_path_circle_turning_capsule(&path, r, &f, span);
        let end = match res {
            TurningSweep::Hit(h) => h.toi,
            TurningSweep::Miss => span,
            TurningSweep::Unresolved { safe_until } => {
                prop_assert!(false, "unresolved at {safe_until}");
                unreachable!()
            }
        };
        // Rounding of the distance: a few ulps of the coordinates.
        let scale = (path.pos_at(end) - f.pivot).length() + f.length + big_r;
        let tiny = 1e-9 * scale;
        let n = 20_000;
        for i in 0..n {
            let t = end * (i as f64 / n as f64);
            prop_assert!(gap(t) > -tiny, "inside at {t} (gap {}) before {end}", gap(t));
        }
        if let TurningSweep::Hit(h) = res {
            // Touching at the toi: the gap is 1e-9 of the radius sum (hit at 0 excepted: there
            // the ball may start closer than that, or overlapping).
            if h.toi > 0.0 {
                let g = gap(h.toi);
                prop_assert!(g.abs() <= 1e-9 * big_r, "gap {g} at the toi");
            }
            // The lower end of the bracket (the double before) is outside, to rounding.
            let before = f64::from_bits(h.toi.to_bits() - 1);
            prop_assert!(gap(before) > -tiny);
            // The normal points from the flipper toward the ball; the point is on its surface;
            // the surface velocity is the flipper's rigid motion there.
            let c = path.pos_at(h.toi);
            prop_assert!((c - h.point).dot(h.normal) >= 0.0);
            prop_assert!(flipper_gap(&f, h.point, 0.0, h.toi).abs() <= tiny);
            let u = f.velocity_at(h.toi, h.point);
            prop_assert!((h.surface_vel - u).length() <= 1e-9 * (1.0 + u.length()));
            // Elastic bounce: the energy in the flipper's frame at the contact point is kept.
            let vb = path.vel_at(h.toi);
            let out = reflect_relative(vb, h.surface_vel, h.normal, 1.0);
            let (before_e, after_e) = ((vb - u).length_squared(), (out - u).length_squared());
            prop_assert!((before_e - after_e).abs() <= 1e-12 * before_e.max(1.0));
        }
    }
}
