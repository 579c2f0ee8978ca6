//! Analytic tests of collide-core: every expected value is worked out by hand in a comment,
//! independently of the code under test, and compared with an explicit tolerance.
//!
//! Conventions (crate docs): x right, **y down** (the top face of a box is at `min.y`, outward
//! normal `(0, -1)`), normals point from the obstacle (or body 2) toward the moving body
//! (body 1), toi is in the time unit of the velocity.

use collide_core::*;

/// Tolerance for values that are exact in binary (small integers, halves): only the last
/// bits of a few roundings are allowed.
const EXACT: f64 = 1e-12;

fn v(x: f64, y: f64) -> Vec2 {
    Vec2::new(x, y)
}

fn assert_close(actual: f64, expected: f64, tol: f64, what: &str) {
    assert!(
        actual.is_finite() && (actual - expected).abs() <= tol,
        "{what}: got {actual:?}, expected {expected:?} (tol {tol:e})"
    );
}

fn assert_vec_close(actual: Vec2, expected: Vec2, tol: f64, what: &str) {
    assert!(
        actual.is_finite() && (actual - expected).length() <= tol,
        "{what}: got {actual:?}, expected {expected:?} (tol {tol:e})"
    );
}

/// The largest f64 strictly below a positive `x` (the next representable value down).
fn just_below(x: f64) -> f64 {
    assert!(x > 0.0);
    f64::from_bits(x.to_bits() - 1)
}

/// Box used by the face tests: x in [10, 20], y in [0, 10] (top at y = 0, bottom at y = 10).
fn face_box() -> Aabb {
    Aabb::new(v(10.0, 0.0), v(20.0, 10.0))
}

/// Box used by the corner tests: x in [0, 10], y in [0, 10].
fn unit_box() -> Aabb {
    Aabb::new(v(0.0, 0.0), v(10.0, 10.0))
}

// ---------------------------------------------------------------------------------------------
// Face hits, one per face.
// ---------------------------------------------------------------------------------------------

#[test]
fn face_hit_left_face_normal_points_left() {
    // Centre (0, 5), r = 2, vel (2, 0.5). The left face x = 10 grown by r is the line x = 8:
    // 8 units away at vx = 2 => toi 4. Then y = 5 + 0.5*4 = 7, inside [0, 10], so it is a face
    // hit at point (10, 7) with the left face's outward normal (-1, 0).
    let hit = sweep_circle_aabb(
        v(0.0, 5.0),
        2.0,
        v(2.0, 0.5),
        10.0,
        &face_box(),
        Features::ALL,
    )
    .expect("left face hit");
    assert_close(hit.toi, 4.0, EXACT, "toi");
    assert_vec_close(hit.normal, v(-1.0, 0.0), 0.0, "normal");
    assert_vec_close(hit.point, v(10.0, 7.0), EXACT, "point");
    assert_eq!(hit.feature, Feature::Face(Face::Left));
    // Bouncing off a vertical face flips vx only: (2, 0.5) -> (-2, 0.5).
    assert_vec_close(
        reflect(v(2.0, 0.5), hit.normal, 1.0),
        v(-2.0, 0.5),
        EXACT,
        "reflect",
    );
}

#[test]
fn face_hit_right_face_normal_points_right() {
    // Centre (30, 5), r = 2, vel (-2, -0.5). Right face x = 20 grown by 2: x = 22, 8 units away
    // at speed 2 => toi 4; y = 5 - 0.5*4 = 3 in [0, 10]; point (20, 3), normal (+1, 0).
    let hit = sweep_circle_aabb(
        v(30.0, 5.0),
        2.0,
        v(-2.0, -0.5),
        10.0,
        &face_box(),
        Features::ALL,
    )
    .expect("right face hit");
    assert_close(hit.toi, 4.0, EXACT, "toi");
    assert_vec_close(hit.normal, v(1.0, 0.0), 0.0, "normal");
    assert_vec_close(hit.point, v(20.0, 3.0), EXACT, "point");
    assert_eq!(hit.feature, Feature::Face(Face::Right));
    assert_vec_close(
        reflect(v(-2.0, -0.5), hit.normal, 1.0),
        v(2.0, -0.5),
        EXACT,
        "reflect",
    );
}

#[test]
fn face_hit_top_face_normal_points_up_which_is_negative_y() {
    // y grows DOWN: a ball above the box has a smaller y and falls with vy > 0.
    // Centre (15, -10), r = 2, vel (1, 4). Top face y = 0 grown by 2 (upward) is y = -2:
    // 8 units away at vy = 4 => toi 2; x = 15 + 1*2 = 17 in [10, 20]; point (17, 0).
    // Outward normal of the top face is (0, -1) ("up" on screen).
    let hit = sweep_circle_aabb(
        v(15.0, -10.0),
        2.0,
        v(1.0, 4.0),
        10.0,
        &face_box(),
        Features::ALL,
    )
    .expect("top face hit");
    assert_close(hit.toi, 2.0, EXACT, "toi");
    assert_vec_close(hit.normal, v(0.0, -1.0), 0.0, "normal");
    assert_vec_close(hit.point, v(17.0, 0.0), EXACT, "point");
    assert_eq!(hit.feature, Feature::Face(Face::Top));
    // Bounce flips vy only: (1, 4) -> (1, -4), i.e. the ball goes back up.
    assert_vec_close(
        reflect(v(1.0, 4.0), hit.normal, 1.0),
        v(1.0, -4.0),
        EXACT,
        "reflect",
    );
}

#[test]
fn face_hit_bottom_face_normal_points_down_which_is_positive_y() {
    // Centre (13, 25), r = 3, vel (-1, -5) (moving up on screen). Bottom face y = 10 grown by 3
    // is y = 13: 12 units away at speed 5 => toi 12/5 = 2.4; x = 13 - 2.4 = 10.6 in [10, 20];
    // point (10.6, 10); outward normal (0, +1).
    let hit = sweep_circle_aabb(
        v(13.0, 25.0),
        3.0,
        v(-1.0, -5.0),
        10.0,
        &face_box(),
        Features::ALL,
    )
    .expect("bottom face hit");
    assert_close(hit.toi, 2.4, EXACT, "toi");
    assert_vec_close(hit.normal, v(0.0, 1.0), 0.0, "normal");
    assert_vec_close(hit.point, v(10.6, 10.0), EXACT, "point");
    assert_eq!(hit.feature, Feature::Face(Face::Bottom));
    assert_vec_close(
        reflect(v(-1.0, -5.0), hit.normal, 1.0),
        v(-1.0, 5.0),
        EXACT,
        "reflect",
    );
}

// ---------------------------------------------------------------------------------------------
// Corners.
// ---------------------------------------------------------------------------------------------

#[test]
fn corner_hit_exact_toi_normal_and_reflection_on_all_four_corners() {
    // Box [0,10]^2, r = 5. Top-left corner P = (0, 0). We want the contact normal
    // n = (-0.6, -0.8) (a 3-4-5 direction inside the (-, -) exterior quadrant), so the centre at
    // impact is P + 5n = (-3, -4). Velocity (2, 1), impact at t = 3: start (-3,-4) - 3(2,1) =
    // (-9, -7).
    // Independent check of the quadratic: m = (-9,-7), a = |v|^2 = 5, b = m.v = -25,
    // k = |m|^2 - r^2 = 130 - 25 = 105, disc = b^2 - a k = 625 - 525 = 100, so the roots are
    // (25 -+ 10)/5 = 3 and 7: the entry is t = 3. v.n = -1.2 - 0.8 = -2 < 0 (approaching).
    // No face is hit before: left face grown to x = -5 is reached at t = 2 with y = -5 (outside
    // [0, 10]); top face grown to y = -5 at t = 2 with x = -5 (outside).
    // Reflection by hand: v' = v - 2(v.n)n = (2,1) + 4(-0.6,-0.8) = (-0.4, -2.2);
    // |v'|^2 = 0.16 + 4.84 = 5 = |v|^2.
    //
    // The other three corners are the mirror images of this case in x = 5 and/or y = 5:
    // mirroring x flips the x components of start, velocity, normal and reflected velocity.
    struct Case {
        corner: Corner,
        start: Vec2,
        vel: Vec2,
        normal: Vec2,
        reflected: Vec2,
    }
    let cases = [
        Case {
            corner: Corner::TopLeft,
            start: v(-9.0, -7.0),
            vel: v(2.0, 1.0),
            normal: v(-0.6, -0.8),
            reflected: v(-0.4, -2.2),
        },
        Case {
            corner: Corner::TopRight,
            start: v(19.0, -7.0),
            vel: v(-2.0, 1.0),
            normal: v(0.6, -0.8),
            reflected: v(0.4, -2.2),
        },
        Case {
            corner: Corner::BottomLeft,
            start: v(-9.0, 17.0),
            vel: v(2.0, -1.0),
            normal: v(-0.6, 0.8),
            reflected: v(-0.4, 2.2),
        },
        Case {
            corner: Corner::BottomRight,
            start: v(19.0, 17.0),
            vel: v(-2.0, -1.0),
            normal: v(0.6, 0.8),
            reflected: v(0.4, 2.2),
        },
    ];
    for c in cases {
        let what = format!("{:?}", c.corner);
        let hit = sweep_circle_aabb(c.start, 5.0, c.vel, 10.0, &unit_box(), Features::ALL)
            .unwrap_or_else(|| panic!("{what}: corner hit expected"));
        assert_eq!(hit.feature, Feature::Corner(c.corner), "{what}");
        assert_close(hit.toi, 3.0, EXACT, &format!("{what} toi"));
        assert_vec_close(hit.normal, c.normal, EXACT, &format!("{what} normal"));
        assert_vec_close(
            hit.point,
            c.corner.point(&unit_box()),
            0.0,
            &format!("{what} point"),
        );
        // Centre at impact = corner + r n.
        let centre = c.start + c.vel * hit.toi;
        assert_vec_close(
            centre,
            c.corner.point(&unit_box()) + c.normal * 5.0,
            1e-11,
            &format!("{what} centre at impact"),
        );
        let out = reflect(c.vel, hit.normal, 1.0);
        assert_vec_close(out, c.reflected, 1e-12, &format!("{what} reflected"));
        assert_close(
            out.length_squared(),
            5.0,
            1e-12,
            &format!("{what} speed kept"),
        );
    }
}

#[test]
fn fake_tangency_outside_exterior_quadrant_is_not_a_corner_hit() {
    // Seed 000's "fake tangency" (碰瓷): box [0,10]^2, r = 5, centre moving right along y = 3
    // from (-20, 3) at speed 2. The path enters the top-left corner's circle (radius 5 around
    // (0,0)) where x^2 + 3^2 = 25, x = -4, i.e. at t = 8 with corner-to-centre vector (-4, 3):
    // its y component is +3, outside the corner's exterior quadrant (-, -). At that position the
    // circle is only 4 from the left face (distance_point_aabb((-4,3)) = 4 < r = 5): it would
    // already overlap the box, so the tangency is fake.
    let centre = v(-20.0, 3.0);
    let vel = v(2.0, 0.0);
    assert_close(
        distance_point_aabb(v(-4.0, 3.0), &unit_box()),
        4.0,
        EXACT,
        "fake position",
    );

    // The bare corner sweep rejects it.
    assert_eq!(
        sweep_circle_corner(centre, 5.0, vel, 100.0, Corner::TopLeft, v(0.0, 0.0)),
        None,
        "corner sweep must reject a tangency outside the exterior quadrant"
    );
    // With only the corner as obstacle (face masked) there is nothing to hit.
    assert_eq!(
        sweep_circle_aabb(centre, 5.0, vel, 100.0, &unit_box(), Features::TOP_LEFT),
        None,
        "a lone corner must not be hit through a fake tangency"
    );
    // With the whole box, the left face is hit: grown face x = -5 is 15 away at speed 2 =>
    // toi 7.5, y = 3 in [0,10], normal (-1, 0), point (0, 3).
    let hit = sweep_circle_aabb(centre, 5.0, vel, 100.0, &unit_box(), Features::ALL)
        .expect("left face hit");
    assert_eq!(hit.feature, Feature::Face(Face::Left));
    assert_close(hit.toi, 7.5, EXACT, "toi");
    assert_vec_close(hit.normal, v(-1.0, 0.0), 0.0, "normal");
    assert_vec_close(hit.point, v(0.0, 3.0), EXACT, "point");
}

// ---------------------------------------------------------------------------------------------
// Tile grids: seams and skimming.
// ---------------------------------------------------------------------------------------------

/// Two boxes sharing the edge x = 10: A = [0,10]x[0,10] and B = [10,20]x[0,10]. On the seam,
/// A's right face and right corners and B's left face and left corners are not obstacles.
fn seam_boxes() -> [(Aabb, Features); 2] {
    let a = Aabb::new(v(0.0, 0.0), v(10.0, 10.0));
    let b = Aabb::new(v(10.0, 0.0), v(20.0, 10.0));
    let a_features = Features::LEFT
        | Features::TOP
        | Features::BOTTOM
        | Features::TOP_LEFT
        | Features::BOTTOM_LEFT;
    let b_features = Features::RIGHT
        | Features::TOP
        | Features::BOTTOM
        | Features::TOP_RIGHT
        | Features::BOTTOM_RIGHT;
    [(a, a_features), (b, b_features)]
}

/// Earliest hit of a circle against several boxes (ties: first box).
fn sweep_boxes(
    centre: Vec2,
    radius: f64,
    vel: Vec2,
    max_toi: f64,
    boxes: &[(Aabb, Features)],
) -> Option<SweepHit> {
    let mut best: Option<SweepHit> = None;
    for (b, f) in boxes {
        if let Some(h) = sweep_circle_aabb(centre, radius, vel, max_toi, b, *f) {
            if best.is_none() || h.toi < best.unwrap().toi {
                best = Some(h);
            }
        }
    }
    best
}

#[test]
fn seam_between_adjacent_boxes_reflects_as_flat_face() {
    // Ball r = 2 coming down-right at 45 degrees, vel (3, 3), aimed so that at impact its centre
    // is (10, -2): exactly above the seam x = 10, touching the top faces (y = 0). Start
    // (10, -2) - 2*(3, 3) = (4, -8): the grown top line y = -2 is 6 below it at vy = 3 => toi 2.
    // The seam is no obstacle, so the only possible normal is the flat top (0, -1), and the
    // reflection flips vy only: (3, 3) -> (3, -3).
    // Also just left (impact x = 9.5) and just right (impact x = 10.5) of the seam: same answer.
    for impact_x in [10.0, 9.5, 10.5] {
        let start = v(impact_x - 6.0, -8.0);
        let hit = sweep_boxes(start, 2.0, v(3.0, 3.0), 10.0, &seam_boxes())
            .unwrap_or_else(|| panic!("impact x {impact_x}: hit expected"));
        assert_eq!(hit.feature, Feature::Face(Face::Top), "impact x {impact_x}");
        assert_close(hit.toi, 2.0, EXACT, "toi");
        assert_vec_close(hit.normal, v(0.0, -1.0), 0.0, "normal");
        assert_vec_close(hit.point, v(impact_x, 0.0), EXACT, "point");
        assert_vec_close(
            reflect(v(3.0, 3.0), hit.normal, 1.0),
            v(3.0, -3.0),
            0.0,
            "reflect",
        );
    }
}

#[test]
fn ball_skimming_along_a_row_of_boxes_gets_no_hit() {
    // A row of three boxes [0,10], [10,20], [20,30] (x) by [0,10] (y), the two seams masked as a
    // tile grid does: only exposed faces and convex corners remain.
    let full = Features::TOP | Features::BOTTOM;
    let row = [
        (
            Aabb::new(v(0.0, 0.0), v(10.0, 10.0)),
            full | Features::LEFT | Features::TOP_LEFT | Features::BOTTOM_LEFT,
        ),
        (Aabb::new(v(10.0, 0.0), v(20.0, 10.0)), full),
        (
            Aabb::new(v(20.0, 0.0), v(30.0, 10.0)),
            full | Features::RIGHT | Features::TOP_RIGHT | Features::BOTTOM_RIGHT,
        ),
    ];
    // Ball r = 2 resting on top (centre y = -2, touching y = 0) at x = 5, rolling right at
    // 4 units/s for 5 s: it ends at x = 25, over the third box, after crossing both seams
    // (x = 10 and 20). It touches the top faces the whole time with purely tangential velocity:
    // by the crate's contact rule that is no hit, and the seams are no obstacle.
    let vel = v(4.0, 0.0);
    assert_eq!(
        sweep_boxes(v(5.0, -2.0), 2.0, vel, 5.0, &row),
        None,
        "on top, exact contact"
    );
    // Rolling on for 8.75 s (to x = 40) it leaves the row over its convex top-right corner
    // (30, 0): the centre passes (30, -2), exactly r above the corner, with horizontal velocity,
    // a tangential touch: still no hit.
    assert_eq!(
        sweep_boxes(v(5.0, -2.0), 2.0, vel, 8.75, &row),
        None,
        "off the end"
    );
    // Same along the underside, rolling left from x = 25 to x = -10 (centre y = 12 touches the
    // bottom faces y = 10), past the bottom-left corner (0, 10).
    assert_eq!(
        sweep_boxes(v(25.0, 12.0), 2.0, -vel, 8.75, &row),
        None,
        "underside"
    );
    // Rounding from earlier steps may leave the ball sunk by 1e-9 into the top faces: still no
    // hit (tangential motion against the faces; the seam corners do not exist; at the far
    // end the centre is then left of the corner when it comes within r of it, outside the
    // corner's exterior quadrant).
    let sunk = v(5.0, -2.0 + 1e-9);
    assert_eq!(
        sweep_boxes(sunk, 2.0, vel, 8.75, &row),
        None,
        "sunk by 1e-9"
    );

    // Control: without the masks the same sunk ball hits the second box's top-left corner, the
    // ghost collision of seed 000 / Catto. The corner (10, 0) is reached when the centre is
    // 2 from it: with dy = 2 - 1e-9, dx = -sqrt(4 - dy^2) ~ -6.3e-5, i.e. at x ~ 10 - 6.3e-5,
    // t ~ (5 - 6.3e-5)/4 ~ 1.25.
    let unmasked: Vec<(Aabb, Features)> = row.iter().map(|(b, _)| (*b, Features::ALL)).collect();
    let ghost = sweep_boxes(sunk, 2.0, vel, 5.0, &unmasked).expect("ghost hit without masks");
    assert_eq!(ghost.feature, Feature::Corner(Corner::TopLeft));
    assert_vec_close(ghost.point, v(10.0, 0.0), 0.0, "ghost corner");
    assert_close(ghost.toi, 1.25, 1e-4, "ghost toi");
}

// ---------------------------------------------------------------------------------------------
// Contact at start, zero velocity, grazing, zero radius, max_toi.
// ---------------------------------------------------------------------------------------------

#[test]
fn start_in_contact_and_approaching_gives_toi_zero() {
    let b = unit_box();
    // Touching the left face exactly (centre x = -2 = 0 - r), moving right and down: toi 0,
    // normal (-1, 0), contact point (0, 5) (the centre's y at t = 0).
    let hit = sweep_circle_aabb(v(-2.0, 5.0), 2.0, v(1.0, 0.5), 1.0, &b, Features::ALL)
        .expect("touching face, approaching");
    assert_eq!(hit.toi, 0.0);
    assert_vec_close(hit.normal, v(-1.0, 0.0), 0.0, "face normal");
    assert_vec_close(hit.point, v(0.0, 5.0), 0.0, "face point");
    // Slightly overlapping (rounding): centre x = -1.9, same answer.
    let hit = sweep_circle_aabb(v(-1.9, 5.0), 2.0, v(1.0, 0.5), 1.0, &b, Features::ALL)
        .expect("overlapping face, approaching");
    assert_eq!(hit.toi, 0.0);
    assert_eq!(hit.feature, Feature::Face(Face::Left));
    // Touching the top-left corner: centre (-3, -4) at distance 5 = r, moving right (v.m = -3 <
    // 0, approaching): toi 0, normal (-3, -4)/5.
    let hit = sweep_circle_aabb(v(-3.0, -4.0), 5.0, v(1.0, 0.0), 1.0, &b, Features::ALL)
        .expect("touching corner, approaching");
    assert_eq!(hit.toi, 0.0);
    assert_eq!(hit.feature, Feature::Corner(Corner::TopLeft));
    assert_vec_close(hit.normal, v(-0.6, -0.8), EXACT, "corner normal");
    // Two circles touching (distance 3 = 1 + 2), body 1 moving toward body 2: toi 0, normal
    // from 2 to 1 = (-1, 0); contact point on body 2's surface, (3,0) + 2(-1,0) = (1, 0).
    let hit = sweep_circle_circle(
        v(0.0, 0.0),
        1.0,
        v(1.0, 0.0),
        v(3.0, 0.0),
        2.0,
        v(0.0, 0.0),
        1.0,
    )
    .expect("touching circles, approaching");
    assert_eq!(hit.toi, 0.0);
    assert_vec_close(hit.normal, v(-1.0, 0.0), EXACT, "circle normal");
    assert_vec_close(hit.point, v(1.0, 0.0), EXACT, "circle point");
    // Two boxes sharing the edge x = 10, a moving right into b: toi 0, b's left face.
    let a = Aabb::new(v(5.0, 2.0), v(10.0, 6.0));
    let hit = sweep_aabb_aabb(&a, v(1.0, 0.0), &b_right_of_seam(), Vec2::ZERO, 1.0)
        .expect("touching boxes, approaching");
    assert_eq!(hit.toi, 0.0);
    assert_eq!(hit.feature, Feature::Face(Face::Left));
    assert_vec_close(hit.normal, v(-1.0, 0.0), 0.0, "box normal");
}

/// The box [10,20]x[0,10], right of the edge x = 10.
fn b_right_of_seam() -> Aabb {
    Aabb::new(v(10.0, 0.0), v(20.0, 10.0))
}

#[test]
fn start_in_contact_and_separating_or_tangential_gives_none() {
    let b = unit_box();
    // Touching / slightly overlapping the left face and moving away (vx < 0) or along it (vx = 0).
    for centre in [v(-2.0, 5.0), v(-1.9, 5.0)] {
        for vel in [v(-1.0, 0.5), v(0.0, 1.0), v(0.0, -1.0)] {
            assert_eq!(
                sweep_circle_aabb(centre, 2.0, vel, 10.0, &b, Features::ALL),
                None,
                "centre {centre:?} vel {vel:?}"
            );
        }
    }
    // Touching the top-left corner at (-3, -4) (distance 5 = r) and moving away along the
    // normal, or tangentially (perpendicular to (-3,-4): (4, -3)).
    for vel in [v(-3.0, -4.0), v(4.0, -3.0)] {
        assert_eq!(
            sweep_circle_aabb(v(-3.0, -4.0), 5.0, vel, 10.0, &b, Features::ALL),
            None,
            "corner, vel {vel:?}"
        );
    }
    // Touching circles separating, and moving tangentially (relative velocity (0, 1) is
    // perpendicular to the centre line).
    for v1 in [v(-1.0, 0.0), v(0.0, 1.0)] {
        assert_eq!(
            sweep_circle_circle(v(0.0, 0.0), 1.0, v1, v(3.0, 0.0), 2.0, Vec2::ZERO, 10.0),
            None,
            "circles, v1 {v1:?}"
        );
    }
    // Boxes sharing an edge, a moving away from b.
    let a = Aabb::new(v(5.0, 2.0), v(10.0, 6.0));
    assert_eq!(
        sweep_aabb_aabb(&a, v(-1.0, 3.0), &b_right_of_seam(), Vec2::ZERO, 10.0),
        None
    );
}

#[test]
fn boxes_overlapping_by_rounding_use_the_axis_of_least_penetration() {
    // Found by fuzzing the world's step: a box sunk 1e-14 into the top of a tile. Moving down
    // (into it) it hits the top face at once; moving up (out of it) it is free: the slab test
    // alone saw it "entering" the tile's bottom face in the past and reflected it back down.
    let tile = Aabb::new(v(4.0, 88.0), v(8.0, 92.0));
    let sunk = Aabb::new(v(4.5, 80.0), v(5.5, 88.0 + 1e-14));
    let hit = sweep_aabb_aabb(&sunk, v(0.0, 1238.0), &tile, Vec2::ZERO, 1.0).expect("into it");
    assert_eq!((hit.toi, hit.normal), (0.0, v(0.0, -1.0)));
    assert_eq!(hit.feature, Feature::Face(Face::Top));
    assert_eq!(
        sweep_aabb_aabb(&sunk, v(0.0, -1238.0), &tile, Vec2::ZERO, 1.0),
        None
    );
    // Sliding along the top while sunk by rounding is no hit either (no ghost side hit).
    assert_eq!(
        sweep_aabb_aabb(&sunk, v(300.0, 0.0), &tile, Vec2::ZERO, 1.0),
        None
    );
    // The same with the tile moving instead (relative motion), and on the x axis.
    let hit = sweep_aabb_aabb(&sunk, Vec2::ZERO, &tile, v(0.0, -5.0), 1.0).expect("tile rises");
    assert_eq!(hit.normal, v(0.0, -1.0));
    let left = Aabb::new(v(0.0, 89.0), v(4.0 + 1e-14, 90.0));
    let hit = sweep_aabb_aabb(&left, v(1.0, 0.0), &tile, Vec2::ZERO, 1.0).expect("into it");
    assert_eq!((hit.toi, hit.normal), (0.0, v(-1.0, 0.0)));
    assert_eq!(
        sweep_aabb_aabb(&left, v(-1.0, 0.0), &tile, Vec2::ZERO, 1.0),
        None
    );
}

#[test]
fn zero_velocity_gives_none() {
    let b = unit_box();
    // Far away, touching, and overlapping: with no motion there is no time of impact.
    for centre in [v(-20.0, 5.0), v(-2.0, 5.0), v(-1.0, 5.0), v(-3.0, -4.0)] {
        assert_eq!(
            sweep_circle_aabb(centre, 2.0, Vec2::ZERO, 10.0, &b, Features::ALL),
            None
        );
        assert_eq!(
            sweep_circle_face(centre, 2.0, Vec2::ZERO, 10.0, &Face::Left.segment(&b)),
            None
        );
        assert_eq!(
            sweep_circle_corner(centre, 5.0, Vec2::ZERO, 10.0, Corner::TopLeft, b.min),
            None
        );
        assert_eq!(
            sweep_circle_point(centre, 5.0, Vec2::ZERO, 10.0, b.min),
            None
        );
    }
    // Two circles with the same velocity: zero relative velocity, even when touching.
    let same = v(3.0, -1.0);
    assert_eq!(
        sweep_circle_circle(v(0.0, 0.0), 1.0, same, v(3.0, 0.0), 2.0, same, 10.0),
        None
    );
    assert_eq!(
        sweep_circle_circle(v(0.0, 0.0), 1.0, same, v(9.0, 0.0), 2.0, same, 10.0),
        None
    );
    // Two boxes with the same velocity, touching or apart.
    let a = Aabb::new(v(5.0, 2.0), v(10.0, 6.0));
    assert_eq!(
        sweep_aabb_aabb(&a, same, &b_right_of_seam(), same, 10.0),
        None
    );
    assert_eq!(
        sweep_aabb_aabb(
            &a,
            Vec2::ZERO,
            &b_right_of_seam().translated(v(1.0, 0.0)),
            Vec2::ZERO,
            10.0
        ),
        None
    );
}

#[test]
fn grazing_tangent_path_is_no_hit_and_never_nan() {
    // Documented result (sweep_circle_point, crate contact rule): a path tangent to a rounded
    // corner or to another circle touches it for a single instant with purely tangential
    // velocity; like touching at the start while moving tangentially, that is no hit.
    //
    // Box [0,10]^2, r = 5, top-left corner (0,0). Tangent point direction n = (-0.6, -0.8), so
    // the centre at the touch is (-3, -4); the path runs along the tangent direction (4, -3)
    // (n.(4,-3) = -2.4 + 2.4 = 0), passing (-3,-4) at t = 1: start (-7, -1).
    // Quadratic: m = (-7,-1), a = 25, b = m.v = -28 + 3 = -25, k = 50 - 25 = 25,
    // disc = 625 - 625 = 0 exactly (a double root: tangency at t = 1).
    // Faces: the left face grown to x = -5 is reached at t = 0.5 with y = -2.5 (outside [0,10]);
    // the path moves up (vy < 0), away from the top face. So nothing is hit.
    let start = v(-7.0, -1.0);
    let vel = v(4.0, -3.0);
    assert_eq!(
        sweep_circle_aabb(start, 5.0, vel, 10.0, &unit_box(), Features::ALL),
        None
    );
    assert_eq!(sweep_circle_point(start, 5.0, vel, 10.0, v(0.0, 0.0)), None);

    // Moved 1e-9 outward along n the path misses (closest approach 5 + 1e-9 > r): None.
    let out = start + v(-0.6, -0.8) * 1e-9;
    assert_eq!(
        sweep_circle_aabb(out, 5.0, vel, 10.0, &unit_box(), Features::ALL),
        None
    );
    // Moved 1e-9 inward it cuts the circle: closest approach d = 5 - 1e-9 at t = 1, the half
    // chord is sqrt(r^2 - d^2) ~ sqrt(1e-8) = 1e-4 units, i.e. 2e-5 s at speed 5: a real (if
    // tiny) hit at toi ~ 1 - 2e-5 with a normal ~ n, finite and of unit length.
    let inward = start + v(0.6, 0.8) * 1e-9;
    let hit = sweep_circle_aabb(inward, 5.0, vel, 10.0, &unit_box(), Features::ALL)
        .expect("near-tangent cut");
    assert_eq!(hit.feature, Feature::Corner(Corner::TopLeft));
    assert_close(hit.toi, 1.0 - 2e-5, 1e-7, "near-tangent toi");
    assert_vec_close(hit.normal, v(-0.6, -0.8), 1e-4, "near-tangent normal");
    assert_close(hit.normal.length(), 1.0, 1e-12, "unit normal");
    assert!(vel.dot(hit.normal) < 0.0, "a reported hit approaches");

    // Two circles: body 1 (r 1) at the origin moving (1, 0), body 2 (r 2) at rest at (10, 3).
    // The centre line's closest approach is 3 = r1 + r2 exactly (at t = 10): m = (-10,-3),
    // a = 1, b = -10, k = 109 - 9 = 100, disc = 100 - 100 = 0. A graze: no hit.
    assert_eq!(
        sweep_circle_circle(
            v(0.0, 0.0),
            1.0,
            v(1.0, 0.0),
            v(10.0, 3.0),
            2.0,
            Vec2::ZERO,
            100.0
        ),
        None
    );
}

#[test]
fn zero_radius_circle_hits_face_and_corner_point() {
    // A point (r = 0) from (0, 5) moving right at 2: the left face x = 10 of face_box is 10
    // away => toi 5, point (10, 5), normal (-1, 0).
    let hit = sweep_circle_aabb(
        v(0.0, 5.0),
        0.0,
        v(2.0, 0.0),
        10.0,
        &face_box(),
        Features::ALL,
    )
    .expect("point hits face");
    assert_eq!(hit.feature, Feature::Face(Face::Left));
    assert_close(hit.toi, 5.0, EXACT, "face toi");
    assert_vec_close(hit.normal, v(-1.0, 0.0), 0.0, "face normal");
    assert_vec_close(hit.point, v(10.0, 5.0), EXACT, "face point");

    // A point from (-5, -5) moving (1, 1) straight into the top-left corner (0, 0) of unit_box:
    // it reaches the corner point at t = 5. Corner-to-centre vector is zero there, so the
    // documented normal is the quadrant's unit diagonal (-1, -1)/sqrt(2).
    let diag = v(-1.0, -1.0) * (0.5f64).sqrt();
    let hit = sweep_circle_corner(
        v(-5.0, -5.0),
        0.0,
        v(1.0, 1.0),
        10.0,
        Corner::TopLeft,
        v(0.0, 0.0),
    )
    .expect("point hits corner");
    assert_eq!(hit.feature, Feature::Corner(Corner::TopLeft));
    assert_close(hit.toi, 5.0, EXACT, "corner toi");
    assert_vec_close(hit.normal, diag, 1e-15, "corner normal");
    assert_close(hit.normal.length(), 1.0, 1e-15, "unit");
    // Reflecting (1,1) about the diagonal sends it straight back: (1,1) - 2(-sqrt2)(diag) =
    // (-1, -1).
    assert_vec_close(
        reflect(v(1.0, 1.0), hit.normal, 1.0),
        v(-1.0, -1.0),
        1e-15,
        "reflect",
    );
    // The same through the box sweep when the corner is the only obstacle.
    let hit = sweep_circle_aabb(
        v(-5.0, -5.0),
        0.0,
        v(1.0, 1.0),
        10.0,
        &unit_box(),
        Features::TOP_LEFT,
    )
    .expect("point hits lone corner");
    assert_eq!(hit.feature, Feature::Corner(Corner::TopLeft));
    assert_close(hit.toi, 5.0, EXACT, "lone corner toi");
    assert_vec_close(hit.normal, diag, 1e-15, "lone corner normal");
    // With all features the left face (ends included), the top face and the corner all touch at
    // t = 5; sweep_circle_aabb documents the tie order: left face first.
    let hit = sweep_circle_aabb(
        v(-5.0, -5.0),
        0.0,
        v(1.0, 1.0),
        10.0,
        &unit_box(),
        Features::ALL,
    )
    .expect("point hits box corner");
    assert_close(hit.toi, 5.0, EXACT, "box toi");
    assert_vec_close(hit.point, v(0.0, 0.0), EXACT, "box point");
    assert_eq!(
        hit.feature,
        Feature::Face(Face::Left),
        "documented tie order"
    );
}

#[test]
fn max_toi_cuts_off_a_hit_just_beyond_it() {
    // Face: toi exactly 4 (see face_hit_left_face_normal_points_left).
    let (c, r, vel) = (v(0.0, 5.0), 2.0, v(2.0, 0.5));
    assert!(sweep_circle_aabb(c, r, vel, 4.0, &face_box(), Features::ALL).is_some());
    assert_eq!(
        sweep_circle_aabb(c, r, vel, just_below(4.0), &face_box(), Features::ALL),
        None
    );
    // Corner: toi exactly 3 (see the corner test).
    let (c, r, vel) = (v(-9.0, -7.0), 5.0, v(2.0, 1.0));
    assert!(sweep_circle_aabb(c, r, vel, 3.0, &unit_box(), Features::ALL).is_some());
    assert_eq!(
        sweep_circle_aabb(c, r, vel, just_below(3.0), &unit_box(), Features::ALL),
        None
    );
    // Circles: gap 10 - 2 = 8 closing at 4 => toi exactly 2.
    let circles = |max| {
        sweep_circle_circle(
            v(0.0, 0.0),
            1.0,
            v(3.0, 0.0),
            v(10.0, 0.0),
            1.0,
            v(-1.0, 0.0),
            max,
        )
    };
    assert!(circles(2.0).is_some());
    assert_eq!(circles(just_below(2.0)), None);
    // Boxes: gap 4 closing at 2 => toi exactly 2.
    let a = Aabb::new(v(0.0, 0.0), v(6.0, 6.0));
    let b = Aabb::new(v(10.0, 1.0), v(12.0, 3.0));
    assert!(sweep_aabb_aabb(&a, v(2.0, 0.0), &b, Vec2::ZERO, 2.0).is_some());
    assert_eq!(
        sweep_aabb_aabb(&a, v(2.0, 0.0), &b, Vec2::ZERO, just_below(2.0)),
        None
    );
    // A hit far beyond max_toi (toi 4 vs max_toi 1) is None too, with the displacement-as-vel
    // convention: vel (2, 0.5) over max_toi 1 moves 2 units, the face is 8 away.
    assert_eq!(
        sweep_circle_aabb(
            v(0.0, 5.0),
            2.0,
            v(2.0, 0.5),
            1.0,
            &face_box(),
            Features::ALL
        ),
        None
    );
}

// ---------------------------------------------------------------------------------------------
// Circle against circle, both moving.
// ---------------------------------------------------------------------------------------------

#[test]
fn circle_circle_head_on_both_moving() {
    // Body 1: centre (0,0), r 1, vel (3,0). Body 2: centre (20,0), r 2, vel (-2,0).
    // Gap between surfaces 20 - 3 = 17, closing speed 5 => toi 3.4. Normal from body 2 toward
    // body 1: (-1, 0). At t = 3.4: c1 = (10.2, 0), c2 = (13.2, 0); contact point on body 2's
    // surface: (13.2 - 2, 0) = (11.2, 0) = c1 + r1.
    let hit = sweep_circle_circle(
        v(0.0, 0.0),
        1.0,
        v(3.0, 0.0),
        v(20.0, 0.0),
        2.0,
        v(-2.0, 0.0),
        10.0,
    )
    .expect("head-on hit");
    assert_eq!(hit.feature, Feature::Circle);
    assert_close(hit.toi, 3.4, EXACT, "toi");
    assert_vec_close(hit.normal, v(-1.0, 0.0), EXACT, "normal");
    assert_vec_close(hit.point, v(11.2, 0.0), 1e-11, "point");
}

#[test]
fn circle_circle_oblique_both_moving() {
    // r1 = 2, r2 = 3, sum 5. We want the normal at impact n = (-0.6, -0.8) (body 1 up-left of
    // body 2) at t = 2, so c1(2) - c2(2) = 5n = (-3, -4). v1 = (4, 1), v2 = (-1, 3): relative
    // w = (5, -2); w.n = -3 + 1.6 = -1.4 < 0 (approaching). At t = 0: c1 - c2 = (-3,-4) - 2w =
    // (-13, 0): c1 = (0, 0), c2 = (13, 0).
    // Quadratic check: m = (-13, 0), a = 29, b = m.w = -65, k = 169 - 25 = 144,
    // disc = 4225 - 29*144 = 4225 - 4176 = 49, roots (65 -+ 7)/29 = 2 and 72/29: entry at 2.
    // Contact point on body 2: c2(2) + r2 n = (11, 6) + (-1.8, -2.4) = (9.2, 3.6); equal to
    // c1(2) - r1 n = (8, 2) + (1.2, 1.6).
    let hit = sweep_circle_circle(
        v(0.0, 0.0),
        2.0,
        v(4.0, 1.0),
        v(13.0, 0.0),
        3.0,
        v(-1.0, 3.0),
        10.0,
    )
    .expect("oblique hit");
    assert_close(hit.toi, 2.0, EXACT, "toi");
    assert_vec_close(hit.normal, v(-0.6, -0.8), EXACT, "normal");
    assert_vec_close(hit.point, v(9.2, 3.6), 1e-11, "point");
    // A miss with the same velocities: with c2 = (13, 6) the relative path (-13,-6) + t(5,-2)
    // comes closest (at t = 53/29 > 0) at |cross|/|w| = |(-13)(-2) - (-6)(5)|/sqrt(29) =
    // 56/5.385 = 10.4 > 5: no hit.
    assert_eq!(
        sweep_circle_circle(
            v(0.0, 0.0),
            2.0,
            v(4.0, 1.0),
            v(13.0, 6.0),
            3.0,
            v(-1.0, 3.0),
            100.0
        ),
        None
    );
}

// ---------------------------------------------------------------------------------------------
// Response: elastic collisions, reflection off moving surfaces.
// ---------------------------------------------------------------------------------------------

/// The 1D elastic collision formulas (independent of the crate's impulse form):
/// u1 = ((m1 - m2) v1 + 2 m2 v2) / (m1 + m2), u2 = ((m2 - m1) v2 + 2 m1 v1) / (m1 + m2).
fn elastic_1d(m1: f64, v1: f64, m2: f64, v2: f64) -> (f64, f64) {
    let s = m1 + m2;
    (
        ((m1 - m2) * v1 + 2.0 * m2 * v2) / s,
        ((m2 - m1) * v2 + 2.0 * m1 * v1) / s,
    )
}

#[test]
fn elastic_head_on_unequal_masses_matches_1d_formulas() {
    // Body 1 (m 2) left, moving right at 5; body 2 (m 3) right, moving left at 1. Normal from
    // body 2 toward body 1: (-1, 0).
    // By hand: u1 = ((2-3)*5 + 2*3*(-1))/5 = (-5 - 6)/5 = -2.2;
    //          u2 = ((3-2)*(-1) + 2*2*5)/5 = (-1 + 20)/5 = 3.8.
    // Momentum 2*5 + 3*(-1) = 7 = 2*(-2.2) + 3*3.8 = -4.4 + 11.4; energy/2: 2*25 + 3*1 = 53 =
    // 2*4.84 + 3*14.44 = 9.68 + 43.32.
    let (u1, u2) = elastic_1d(2.0, 5.0, 3.0, -1.0);
    assert_close(u1, -2.2, EXACT, "formula u1");
    assert_close(u2, 3.8, EXACT, "formula u2");
    let (a, b) = collide_elastic(2.0, v(5.0, 0.0), 3.0, v(-1.0, 0.0), v(-1.0, 0.0), 1.0);
    assert_vec_close(a, v(-2.2, 0.0), EXACT, "v1'");
    assert_vec_close(b, v(3.8, 0.0), EXACT, "v2'");
    // The same collision seen along y (body 1 above body 2 on screen, normal (0, -1)).
    let (a, b) = collide_elastic(2.0, v(0.0, 5.0), 3.0, v(0.0, -1.0), v(0.0, -1.0), 1.0);
    assert_vec_close(a, v(0.0, -2.2), EXACT, "v1' (y)");
    assert_vec_close(b, v(0.0, 3.8), EXACT, "v2' (y)");
    // Light ball onto a heavy one at rest: m1 = 1, v1 = 6, m2 = 5, v2 = 0:
    // u1 = (1-5)*6/6 = -4, u2 = 2*1*6/6 = 2.
    let (a, b) = collide_elastic(1.0, v(6.0, 0.0), 5.0, Vec2::ZERO, v(-1.0, 0.0), 1.0);
    assert_vec_close(a, v(-4.0, 0.0), EXACT, "light v1'");
    assert_vec_close(b, v(2.0, 0.0), EXACT, "light v2'");
}

#[test]
fn elastic_oblique_keeps_tangential_parts_and_conserves_momentum_and_energy() {
    // m1 = 0.5, m2 = 4, normal from body 2 toward body 1 n = (-0.6, -0.8), tangent t = (0.8, -0.6).
    // v1 = (7, 2): v1.n = -4.2 - 1.6 = -5.8, v1.t = 5.6 - 1.2 = 4.4.
    // v2 = (-1, 3): v2.n = 0.6 - 2.4 = -1.8, v2.t = -0.8 - 1.8 = -2.6.
    // (v1 - v2).n = -4 < 0: approaching. Seed 002's method: 1D formula on the normal parts,
    // tangential parts kept:
    // u1n = ((0.5 - 4)(-5.8) + 8(-1.8))/4.5 = (20.3 - 14.4)/4.5 = 5.9/4.5,
    // u2n = ((4 - 0.5)(-1.8) + 1(-5.8))/4.5 = (-6.3 - 5.8)/4.5 = -12.1/4.5.
    let (m1, m2) = (0.5, 4.0);
    let n = v(-0.6, -0.8);
    let t = v(0.8, -0.6);
    let (v1, v2) = (v(7.0, 2.0), v(-1.0, 3.0));
    let (u1n, u2n) = elastic_1d(m1, -5.8, m2, -1.8);
    assert_close(u1n, 5.9 / 4.5, EXACT, "u1n");
    assert_close(u2n, -12.1 / 4.5, EXACT, "u2n");
    let expected1 = n * u1n + t * 4.4;
    let expected2 = n * u2n + t * (-2.6);

    let (a, b) = collide_elastic(m1, v1, m2, v2, n, 1.0);
    assert_vec_close(a, expected1, 1e-12, "v1'");
    assert_vec_close(b, expected2, 1e-12, "v2'");
    // Tangential components unchanged.
    assert_close(a.dot(t), 4.4, 1e-12, "v1' tangential");
    assert_close(b.dot(t), -2.6, 1e-12, "v2' tangential");
    // Momentum and kinetic energy conserved to 1e-12 relative.
    let p0 = v1 * m1 + v2 * m2;
    let p1 = a * m1 + b * m2;
    let p_scale = m1 * v1.length() + m2 * v2.length();
    assert!(
        (p1 - p0).length() <= 1e-12 * p_scale,
        "momentum {p0:?} -> {p1:?}"
    );
    let e0 = 0.5 * (m1 * v1.length_squared() + m2 * v2.length_squared());
    let e1 = 0.5 * (m1 * a.length_squared() + m2 * b.length_squared());
    assert!((e1 - e0).abs() <= 1e-12 * e0, "energy {e0} -> {e1}");
}

#[test]
fn newtons_cradle_three_balls_in_a_row() {
    // Three equal balls (m 1, r 1) on the x axis: A at x = -10 moving right at 5, B at x = 2 and
    // C at x = 4 at rest (B and C touching). Expected sequence, by hand:
    // 1. A reaches B when the centre distance 12 shrinks to 2: t = 10/5 = 2. Equal masses
    //    exchange velocities: A stops, B moves at 5.
    // 2. B is touching C and now approaching it: toi 0 (contact-at-start rule), B stops, C
    //    moves at 5.
    // 3. Nothing approaches anything any more: no further event.
    // The last ball leaves with the first ball's velocity.
    let r = 1.0;
    let mut pos = [v(-10.0, 0.0), v(2.0, 0.0), v(4.0, 0.0)];
    let mut vel = [v(5.0, 0.0), Vec2::ZERO, Vec2::ZERO];
    let mut now = 0.0;
    let horizon = 10.0;
    let mut events = Vec::new();
    for _ in 0..10 {
        let mut best: Option<(usize, usize, SweepHit)> = None;
        for (i, j) in [(0, 1), (1, 2), (0, 2)] {
            if let Some(h) =
                sweep_circle_circle(pos[i], r, vel[i], pos[j], r, vel[j], horizon - now)
            {
                if best.is_none_or(|(_, _, b)| h.toi < b.toi) {
                    best = Some((i, j, h));
                }
            }
        }
        let Some((i, j, h)) = best else { break };
        for k in 0..3 {
            pos[k] += vel[k] * h.toi;
        }
        now += h.toi;
        let (a, b) = collide_elastic(1.0, vel[i], 1.0, vel[j], h.normal, 1.0);
        vel[i] = a;
        vel[j] = b;
        events.push((i, j, now));
    }
    assert_eq!(events.len(), 2, "events {events:?}");
    assert_eq!((events[0].0, events[0].1), (0, 1));
    assert_close(events[0].2, 2.0, EXACT, "first collision time");
    assert_eq!((events[1].0, events[1].1), (1, 2));
    assert_close(events[1].2, 2.0, EXACT, "second collision time (toi 0)");
    assert_vec_close(vel[0], Vec2::ZERO, EXACT, "A stops");
    assert_vec_close(vel[1], Vec2::ZERO, EXACT, "B stops");
    assert_vec_close(vel[2], v(5.0, 0.0), EXACT, "C leaves with A's velocity");
}

#[test]
fn elastic_infinite_mass_acts_as_moving_wall() {
    // Body 1 above body 2 on screen (normal from 2 to 1: (0, -1)). v1 = (3, 4) falling,
    // v2 = (1, -2) rising. Relative normal velocity (v1 - v2).n = (2, 6).(0,-1) = -6.
    // m2 = inf: body 1 reflects off a wall moving at v2: v1' = v1 - 2(-6)(0,-1) = (3, 4 - 12) =
    // (3, -8); check: (v1' - v2).n = (2, -6).(0,-1) = +6, reversed. Body 2 unchanged.
    let n = v(0.0, -1.0);
    let (v1, v2) = (v(3.0, 4.0), v(1.0, -2.0));
    let (a, b) = collide_elastic(2.0, v1, f64::INFINITY, v2, n, 1.0);
    assert_vec_close(a, v(3.0, -8.0), EXACT, "v1' vs infinite m2");
    assert_eq!(b, v2, "infinite mass keeps its velocity");
    // m1 = inf: body 2 reflects off body 1, normal from 1 toward 2 is (0, 1):
    // (v2 - v1).(0,1) = (-2, -6).(0,1) = -6, v2' = v2 - 2(-6)(0,1) = (1, -2 + 12) = (1, 10).
    let (a, b) = collide_elastic(f64::INFINITY, v1, 2.0, v2, n, 1.0);
    assert_eq!(a, v1, "infinite mass keeps its velocity");
    assert_vec_close(b, v(1.0, 10.0), EXACT, "v2' vs infinite m1");
    // Matches reflect_relative with the same numbers.
    assert_vec_close(
        reflect_relative(v1, v2, n, 1.0),
        v(3.0, -8.0),
        EXACT,
        "reflect_relative",
    );
}

#[test]
fn elastic_zero_mass_reflects_the_massless_body() {
    // m1 = 0 (m2 > 0): same as above, body 1 reflects, body 2 unchanged: v1' = (3, -8).
    let n = v(0.0, -1.0);
    let (v1, v2) = (v(3.0, 4.0), v(1.0, -2.0));
    let (a, b) = collide_elastic(0.0, v1, 5.0, v2, n, 1.0);
    assert_vec_close(a, v(3.0, -8.0), EXACT, "massless v1'");
    assert_vec_close(b, v2, 0.0, "v2 unchanged");
    // m2 = 0: body 2 reflects: v2' = (1, 10); body 1 unchanged.
    let (a, b) = collide_elastic(5.0, v1, 0.0, v2, n, 1.0);
    assert_vec_close(a, v1, 0.0, "v1 unchanged");
    assert_vec_close(b, v(1.0, 10.0), EXACT, "massless v2'");
    // Both zero or both infinite: treated as equal masses, the normal components are swapped:
    // v1.n = -4, v2.n = 2 => v1' = (3, -2) i.e. vy = v2y = -2; v2' = (1, 4), vy = v1y = 4.
    for m in [0.0, f64::INFINITY] {
        let (a, b) = collide_elastic(m, v1, m, v2, n, 1.0);
        assert_vec_close(a, v(3.0, -2.0), EXACT, "equal-mass v1'");
        assert_vec_close(b, v(1.0, 4.0), EXACT, "equal-mass v2'");
    }
}

#[test]
fn reflect_relative_paddle_moving_up_returns_ball_faster_by_twice_its_speed() {
    // Ball falling at (30, 100) onto a paddle whose top normal is (0, -1), paddle rising at
    // u = (0, -20). Relative normal velocity (v - u).n = (30, 120).(0,-1) = -120, reversed to
    // +120 relative: v'y = -20 - 120 = -140 = -(100 + 2*20). vx = 30 kept.
    let out = reflect_relative(v(30.0, 100.0), v(0.0, -20.0), v(0.0, -1.0), 1.0);
    assert_vec_close(out, v(30.0, -140.0), EXACT, "ball leaves faster by 2u");
    // Against a paddle at rest it comes back at the same speed: (30, -100).
    let still = reflect_relative(v(30.0, 100.0), Vec2::ZERO, v(0.0, -1.0), 1.0);
    assert_vec_close(still, v(30.0, -100.0), EXACT, "static paddle");
}

#[test]
fn reflect_relative_paddle_moving_sideways_keeps_tangential_velocity() {
    // Paddle moving sideways at u = (50, 0): (v - u).n = (-20, 100).(0,-1) = -100, so only vy
    // flips: (30, 100) -> (30, -100); the paddle's tangential motion does not drag the ball.
    let out = reflect_relative(v(30.0, 100.0), v(50.0, 0.0), v(0.0, -1.0), 1.0);
    assert_vec_close(out, v(30.0, -100.0), EXACT, "tangential kept");
}

#[test]
fn reflect_with_restitution_scales_the_normal_part() {
    // v = (3, 4) onto a floor (n = (0, -1)), e = 0.5: v' = v - 1.5 (v.n) n = (3,4) - 1.5*(-4)*(0,-1)
    // = (3, 4 - 6) = (3, -2). e = 0: (3, 0) (slides along the floor).
    assert_vec_close(
        reflect(v(3.0, 4.0), v(0.0, -1.0), 0.5),
        v(3.0, -2.0),
        EXACT,
        "e = 0.5",
    );
    assert_vec_close(
        reflect(v(3.0, 4.0), v(0.0, -1.0), 0.0),
        v(3.0, 0.0),
        EXACT,
        "e = 0",
    );
}

// ---------------------------------------------------------------------------------------------
// Box against box.
// ---------------------------------------------------------------------------------------------

/// Seed 003's platform: x in [100, 200], y in [100, 120].
fn platform() -> Aabb {
    Aabb::new(v(100.0, 100.0), v(200.0, 120.0))
}

#[test]
fn aabb_seed003_diagonal_above_left_lands_on_top() {
    // Ball box a = [80,90]x[70,80]: above (bottom 80 < 100) AND left (right 90 < 100) of the
    // platform, the case seed 003 cannot decide. vel (10, 10).
    // x slab entered when a.max.x reaches 100: (100 - 90)/10 = 1.
    // y slab entered when a.max.y reaches 100: (100 - 80)/10 = 2  <- entered last.
    // At t = 2, a = [100,110]x[90,100]: overlapping in x, touching the top face y = 100.
    // So the top face is hit: normal (0, -1), only vy flips. Touching region x in [100,110] on
    // y = 100, centre (105, 100).
    let a = Aabb::new(v(80.0, 70.0), v(90.0, 80.0));
    let hit = sweep_aabb_aabb(&a, v(10.0, 10.0), &platform(), Vec2::ZERO, 10.0).expect("hit");
    assert_eq!(hit.feature, Feature::Face(Face::Top));
    assert_close(hit.toi, 2.0, EXACT, "toi");
    assert_vec_close(hit.normal, v(0.0, -1.0), 0.0, "normal");
    assert_vec_close(hit.point, v(105.0, 100.0), EXACT, "point");
    assert_vec_close(
        reflect(v(10.0, 10.0), hit.normal, 1.0),
        v(10.0, -10.0),
        0.0,
        "bounce",
    );
}

#[test]
fn aabb_seed003_diagonal_enters_x_slab_last_hits_left_face() {
    // a = [70,80]x[85,95], vel (10, 5): also above-left of the platform.
    // x entry: (100 - 80)/10 = 2  <- last;  y entry: (100 - 95)/5 = 1.
    // At t = 2: a = [90,100]x[95,105]: touching x = 100, overlapping y in [100,105].
    // Left face: normal (-1, 0); touching region x = 100, y in [100, 105], centre (100, 102.5).
    let a = Aabb::new(v(70.0, 85.0), v(80.0, 95.0));
    let hit = sweep_aabb_aabb(&a, v(10.0, 5.0), &platform(), Vec2::ZERO, 10.0).expect("hit");
    assert_eq!(hit.feature, Feature::Face(Face::Left));
    assert_close(hit.toi, 2.0, EXACT, "toi");
    assert_vec_close(hit.normal, v(-1.0, 0.0), 0.0, "normal");
    assert_vec_close(hit.point, v(100.0, 102.5), EXACT, "point");
}

#[test]
fn aabb_exact_corner_to_corner() {
    // a = [80,90]x[80,90], vel (5, 5): x entry (100 - 90)/5 = 2, y entry (100 - 90)/5 = 2:
    // equal, so the corners meet: platform's top-left corner, normal (-1, -1)/sqrt(2), touching
    // region the single point (100, 100).
    let a = Aabb::new(v(80.0, 80.0), v(90.0, 90.0));
    let hit = sweep_aabb_aabb(&a, v(5.0, 5.0), &platform(), Vec2::ZERO, 10.0).expect("hit");
    assert_eq!(hit.feature, Feature::Corner(Corner::TopLeft));
    assert_close(hit.toi, 2.0, EXACT, "toi");
    let d = (0.5f64).sqrt();
    assert_vec_close(hit.normal, v(-d, -d), 1e-15, "diagonal normal");
    assert_close(hit.normal.length(), 1.0, 1e-15, "unit");
    assert_vec_close(hit.point, v(100.0, 100.0), EXACT, "point");
    // Mirror: from below-right, a = [210,220]x[130,140], vel (-5,-5): x entry (200-210)/-5 = 2,
    // y entry (120-130)/-5 = 2: bottom-right corner, normal (+1, +1)/sqrt(2), point (200, 120).
    let a = Aabb::new(v(210.0, 130.0), v(220.0, 140.0));
    let hit = sweep_aabb_aabb(&a, v(-5.0, -5.0), &platform(), Vec2::ZERO, 10.0).expect("hit");
    assert_eq!(hit.feature, Feature::Corner(Corner::BottomRight));
    assert_close(hit.toi, 2.0, EXACT, "toi");
    assert_vec_close(hit.normal, v(d, d), 1e-15, "diagonal normal");
    assert_vec_close(hit.point, v(200.0, 120.0), EXACT, "point");
}

#[test]
fn aabb_sliding_along_each_other_never_hits() {
    // Resting on top of the platform (a.max.y = 100 = platform top) and sliding right: the y
    // intervals only touch and never change, so there is never a positive-area overlap.
    let on_top = Aabb::new(v(120.0, 90.0), v(130.0, 100.0));
    assert_eq!(
        sweep_aabb_aabb(&on_top, v(7.0, 0.0), &platform(), Vec2::ZERO, 100.0),
        None
    );
    assert_eq!(
        sweep_aabb_aabb(&on_top, v(-7.0, 0.0), &platform(), Vec2::ZERO, 100.0),
        None
    );
    // Against the left face, sliding down (also past the end of the face).
    let left = Aabb::new(v(90.0, 100.0), v(100.0, 110.0));
    assert_eq!(
        sweep_aabb_aabb(&left, v(0.0, 5.0), &platform(), Vec2::ZERO, 100.0),
        None
    );
    // Both moving with the same x velocity while sliding vertically along each other.
    assert_eq!(
        sweep_aabb_aabb(&left, v(3.0, 5.0), &platform(), v(3.0, -1.0), 100.0),
        None
    );
}

#[test]
fn aabb_corners_touching_in_passing_never_hits() {
    // a = [190,200]x[80,90] moving (10, 10), above the platform's right end. x: a overlaps
    // b's x range until a.min.x = 190 reaches b.max.x = 200 at t = (200 - 190)/10 = 1;
    // y: a.max.y = 90 reaches b.min.y = 100 at t = 1. The x overlap ends exactly when the y
    // overlap begins: the corners (200, 100) meet for one instant, never a positive-area
    // overlap, so no hit.
    let a = Aabb::new(v(190.0, 80.0), v(200.0, 90.0));
    assert_eq!(
        sweep_aabb_aabb(&a, v(10.0, 10.0), &platform(), Vec2::ZERO, 10.0),
        None
    );
    // Control: starting 1 unit further left (a = [189,199]x[80,90]) the x overlap lasts until
    // t = 1.1 > 1, so the top face is hit at t = 1 (y entered last: x entry is negative).
    let a = Aabb::new(v(189.0, 80.0), v(199.0, 90.0));
    let hit = sweep_aabb_aabb(&a, v(10.0, 10.0), &platform(), Vec2::ZERO, 10.0).expect("hit");
    assert_eq!(hit.feature, Feature::Face(Face::Top));
    assert_close(hit.toi, 1.0, EXACT, "toi");
}

#[test]
fn aabb_both_moving() {
    // a = [0,10]x[0,10] moving (4, 0); b = [50,60]x[5,15] moving (-6, 0). Relative velocity
    // (10, 0); gap 50 - 10 = 40 => toi 4. At t = 4: a = [16,26]x[0,10], b = [26,36]x[5,15]:
    // b's left face, normal (-1, 0), touching region x = 26, y in [5, 10] => point (26, 7.5).
    let a = Aabb::new(v(0.0, 0.0), v(10.0, 10.0));
    let b = Aabb::new(v(50.0, 5.0), v(60.0, 15.0));
    let hit = sweep_aabb_aabb(&a, v(4.0, 0.0), &b, v(-6.0, 0.0), 10.0).expect("hit");
    assert_eq!(hit.feature, Feature::Face(Face::Left));
    assert_close(hit.toi, 4.0, EXACT, "toi");
    assert_vec_close(hit.normal, v(-1.0, 0.0), 0.0, "normal");
    assert_vec_close(hit.point, v(26.0, 7.5), EXACT, "point");
    // Oblique, b chasing a from below: a = [0,10]x[0,10] at (1, 2), b = [20,30]x[30,40] at
    // (-1, -4). Relative v = a - b = (2, 6). x: a must reach b.min.x = 20 from a.max.x = 10:
    // entry 10/2 = 5; y: a.max.y = 10 to b.min.y = 30: entry 20/6 = 3.33. x entered last =>
    // b's left face at toi 5, normal (-1, 0). At t = 5: a = [5,15]x[10,20], b = [15,25]x[10,20]:
    // touching x = 15, y overlap [10, 20] => point (15, 15).
    let b = Aabb::new(v(20.0, 30.0), v(30.0, 40.0));
    let hit = sweep_aabb_aabb(&a, v(1.0, 2.0), &b, v(-1.0, -4.0), 10.0).expect("oblique hit");
    assert_eq!(hit.feature, Feature::Face(Face::Left));
    assert_close(hit.toi, 5.0, EXACT, "toi");
    assert_vec_close(hit.normal, v(-1.0, 0.0), 0.0, "normal");
    assert_vec_close(hit.point, v(15.0, 15.0), EXACT, "point");
}

// ---------------------------------------------------------------------------------------------
// Discrete queries (query/overlap/).
// ---------------------------------------------------------------------------------------------

#[test]
fn circle_overlaps_aabb_corner_region_needs_corner_distance() {
    // Seed 001's trap: box [0,10]^2, centre (13, 14) in the bottom-right corner region.
    // Per-axis distances are 3 and 4, both below r = 4.9, but the true distance is the corner
    // distance sqrt(9 + 16) = 5 > 4.9: no overlap. r = 5.1 > 5: overlap. r = 5: touching only.
    let b = unit_box();
    let c = v(13.0, 14.0);
    assert!(
        !circle_overlaps_aabb(c, 4.9, &b),
        "per-axis test would wrongly say overlap"
    );
    assert!(circle_overlaps_aabb(c, 5.1, &b));
    assert!(!circle_overlaps_aabb(c, 5.0, &b), "touching is not overlap");
    // Face region: centre (5, -3) above the top face, distance 3.
    assert!(!circle_overlaps_aabb(v(5.0, -3.0), 3.0, &b));
    assert!(circle_overlaps_aabb(v(5.0, -3.0), 3.5, &b));
    // Centre inside: overlap, even for a zero radius (a point strictly inside).
    assert!(circle_overlaps_aabb(v(5.0, 5.0), 0.0, &b));
    // A point on the boundary does not overlap (touching).
    assert!(!circle_overlaps_aabb(v(0.0, 5.0), 0.0, &b));
}

#[test]
fn closest_point_and_distance_point_aabb() {
    let b = unit_box();
    // Left of the box: clamp x to 0, keep y: (-4, 7) -> (0, 7), distance 4.
    assert_vec_close(
        closest_point_on_aabb(v(-4.0, 7.0), &b),
        v(0.0, 7.0),
        0.0,
        "left",
    );
    assert_close(
        distance_point_aabb(v(-4.0, 7.0), &b),
        4.0,
        EXACT,
        "left distance",
    );
    // Above-left, corner region: (-3, -4) -> (0, 0), distance 5.
    assert_vec_close(
        closest_point_on_aabb(v(-3.0, -4.0), &b),
        v(0.0, 0.0),
        0.0,
        "corner",
    );
    assert_close(
        distance_point_aabb(v(-3.0, -4.0), &b),
        5.0,
        EXACT,
        "corner distance",
    );
    // Inside: distance 0.
    assert_eq!(distance_point_aabb(v(2.0, 9.0), &b), 0.0);
}

#[test]
fn point_queries_include_the_boundary() {
    let b = unit_box();
    assert!(point_in_aabb(v(10.0, 0.0), &b), "corner is in the box");
    assert!(point_in_aabb(v(5.0, 10.0), &b), "bottom face is in the box");
    assert!(!point_in_aabb(v(5.0, 10.000001), &b));
    // (3, 4) is exactly 5 from the origin: on the circle, counted as inside.
    assert!(point_in_circle(v(3.0, 4.0), v(0.0, 0.0), 5.0));
    assert!(!point_in_circle(v(3.0, 4.0), v(0.0, 0.0), 4.999));
}

#[test]
fn circle_circle_and_aabb_aabb_touching_is_not_overlap() {
    // Centres 5 apart (3-4-5), radii 2 + 3 = 5: touching, not overlapping; radii 2 + 3.1 overlap.
    assert!(!circle_overlaps_circle(v(0.0, 0.0), 2.0, v(3.0, 4.0), 3.0));
    assert!(circle_overlaps_circle(v(0.0, 0.0), 2.0, v(3.0, 4.0), 3.1));
    // Boxes sharing an edge (x = 10) or only a corner point do not overlap; shifted by 0.5
    // into each other they do.
    let a = unit_box();
    assert!(!aabb_overlaps_aabb(&a, &b_right_of_seam()));
    assert!(!aabb_overlaps_aabb(
        &a,
        &Aabb::new(v(10.0, 10.0), v(12.0, 12.0))
    ));
    assert!(aabb_overlaps_aabb(
        &a,
        &b_right_of_seam().translated(v(-0.5, 0.0))
    ));
}

#[test]
fn contact_circle_aabb_face_corner_and_deep() {
    let b = unit_box();
    // Face: centre (5, -1.5), r 2, 1.5 above the top face: normal (0, -1) (up), depth 0.5,
    // point (5, 0).
    let c = contact_circle_aabb(v(5.0, -1.5), 2.0, &b).expect("face contact");
    assert_vec_close(c.normal, v(0.0, -1.0), 0.0, "face normal");
    assert_close(c.depth, 0.5, EXACT, "face depth");
    assert_vec_close(c.point, v(5.0, 0.0), 0.0, "face point");
    // Corner: centre (-3, -4), 5 from the top-left corner, r 5.5: normal (-0.6, -0.8),
    // depth 0.5, point (0, 0).
    let c = contact_circle_aabb(v(-3.0, -4.0), 5.5, &b).expect("corner contact");
    assert_vec_close(c.normal, v(-0.6, -0.8), EXACT, "corner normal");
    assert_close(c.depth, 0.5, EXACT, "corner depth");
    assert_vec_close(c.point, v(0.0, 0.0), 0.0, "corner point");
    // Deep: centre (5, 1) inside, nearest face is the top (1 away): normal (0, -1),
    // depth r + 1 = 3, point (5, 0).
    let c = contact_circle_aabb(v(5.0, 1.0), 2.0, &b).expect("deep contact");
    assert_vec_close(c.normal, v(0.0, -1.0), 0.0, "deep normal");
    assert_close(c.depth, 3.0, EXACT, "deep depth");
    assert_vec_close(c.point, v(5.0, 0.0), 0.0, "deep point");
    // Touching only (distance 5 = r): no contact.
    assert_eq!(contact_circle_aabb(v(-3.0, -4.0), 5.0, &b), None);
}

#[test]
fn half_plane_counts_a_centre_behind_its_line_as_contact() {
    // A wall at x = 0 whose solid side is x < 0 (its face normal points +x). A point circle
    // 1e-12 behind the line moving further out (-x) is in contact and approaching: toi 0,
    // normal +x. A face of a box would ignore it (centre behind the face line: embedded).
    let wall = FaceSegment::new(Face::Right, 0.0, f64::NEG_INFINITY, f64::INFINITY);
    let h = sweep_circle_half_plane(
        Vec2::new(-1e-12, 5.0),
        0.0,
        Vec2::new(-3.0, 1.0),
        1.0,
        &wall,
    )
    .expect("contact");
    assert_eq!(h.toi, 0.0);
    assert_eq!(h.normal, Vec2::new(1.0, 0.0));
    assert!(sweep_circle_face(
        Vec2::new(-1e-12, 5.0),
        0.0,
        Vec2::new(-3.0, 1.0),
        1.0,
        &wall
    )
    .is_none());
    // From x = 10 with radius 2 moving -4 units/s: the line pushed out by 2 is 8 away: toi 2.
    let h = sweep_circle_half_plane(Vec2::new(10.0, 5.0), 2.0, Vec2::new(-4.0, 0.0), 5.0, &wall)
        .expect("hit");
    assert_eq!(h.toi, 2.0);
    assert_eq!(h.point, Vec2::new(0.0, 5.0));
    // Moving away: no hit.
    assert!(
        sweep_circle_half_plane(Vec2::new(10.0, 5.0), 2.0, Vec2::new(4.0, 0.0), 5.0, &wall)
            .is_none()
    );
}
