//! Dynamic boxes on slope cells' diagonals under gravity: held by the diagonal as a ball is
//! (`crates/world/src/step/shape_rest.rs`), sliding down a ramp of many cells as down one
//! frictionless incline with no contact at the joints, at rest where gravity is normal to the
//! diagonal, and in the wedge at a ramp's foot with a bounded count of events, never inside
//! the slope.

use collide_world::{Aabb, Body, Contact, Event, RectDesc, RectId, RectKind, Vec2, World};

/// A ramp of slope cells `3` (◢, solid bottom-right) descending to the left, 20-unit cells,
/// in a closed 200 × 200 world: the cells (4, 5), (3, 6), (2, 7), (1, 8), (0, 9), walls to
/// their right. Their diagonals are one line, `x + y = 200`, from (0, 200) at the world's
/// bottom-left corner up to (100, 100); its normal is (−1, −1)/√2.
const RAMP: [&str; 10] = [
    "          ",
    "          ",
    "          ",
    "          ",
    "          ",
    "    3#####",
    "   3######",
    "  3#######",
    " 3########",
    "3#########",
];

fn ramp_world(gravity: Vec2, restitution: f64) -> World {
    crate::build::world_with_rows(Vec2::new(200.0, 200.0), gravity, restitution, 20.0, &RAMP)
}

/// A dynamic box of `size` with its bottom-right corner at `corner`, at rest.
fn add_box(w: &mut World, corner: Vec2, size: Vec2) -> RectId {
    w.add_rect(RectDesc {
        aabb: Aabb::new(corner - size, corner),
        kind: RectKind::Dynamic,
        ..RectDesc::default()
    })
    .expect("a valid box")
}

/// How far the box's bottom-right corner is inside the ramp's line `x + y = 200` (along its
/// normal; negative outside).
fn depth(w: &World, id: RectId) -> f64 {
    let b = w.rect(id).expect("alive").aabb;
    (b.max.x + b.max.y - 200.0) / std::f64::consts::SQRT_2
}

fn iteration_limits(w: &World) -> usize {
    w.events()
        .iter()
        .filter(|e| matches!(e, Event::IterationLimit { .. }))
        .count()
}

/// The box's contacts in the last step.
fn contacts(w: &World, id: RectId) -> usize {
    w.events()
        .iter()
        .filter(|e| matches!(e, Event::Contact(Contact { body: Body::Rect(r), .. }) if *r == id))
        .count()
}

/// A box set at rest with its corner on the ramp slides down it as down one frictionless
/// incline: gravity's part along the diagonal, `(−g/2, g/2)` for `g = (0, 500)`, so after
/// `t` seconds its velocity is `(−250·t, 250·t)` and it has moved `125·t²` along each axis
/// (1e-9), across three cells' diagonals with no contact at their joints (no ghost
/// collision) and none after the one that set it down, never inside the slope.
#[test]
fn a_box_slides_down_a_ramp_of_slope_cells_as_down_one_frictionless_incline() {
    for (size, corner) in [
        (Vec2::splat(8.0), Vec2::new(70.0, 130.0)),
        (Vec2::new(14.0, 5.0), Vec2::new(73.0, 127.0)),
        (Vec2::new(3.0, 11.0), Vec2::new(66.5, 133.5)),
    ] {
        let mut w = ramp_world(Vec2::new(0.0, 500.0), 0.5);
        let id = add_box(&mut w, corner, size);
        let mut hits = 0;
        for k in 1..=30 {
            w.step();
            assert_eq!(iteration_limits(&w), 0);
            hits += contacts(&w, id);
            let t = k as f64 / 60.0;
            let b = w.rect(id).expect("alive");
            let want = corner + Vec2::new(-125.0, 125.0) * (t * t);
            assert!(
                (b.aabb.max - want).length() < 1e-9,
                "{size} at {t}: {:?} against {want}",
                b.aabb.max
            );
            assert!(
                (b.vel - Vec2::new(-250.0, 250.0) * t).length() < 1e-9,
                "{size} at {t}: {}",
                b.vel
            );
            assert!(depth(&w, id) < 1e-9, "{size} at {t}: {}", depth(&w, id));
        }
        // Set down once (the contact at time 0 that starts its rest), then only slides.
        assert_eq!(hits, 1, "{size}");
        // Its corner went past the joint of the cells (3, 6) and (2, 7) at x = 60 (the first
        // two boxes past the next one at x = 40 too).
        assert!(w.rect(id).expect("alive").aabb.max.x < 60.0);
    }
}

/// With gravity normal to the diagonal, pressing the box straight into it, the diagonal holds
/// the box still: after the contact that sets it down, no event and no motion for 10 s.
#[test]
fn a_box_pressed_straight_into_a_slope_stays_where_it_lies() {
    let g = Vec2::new(1.0, 1.0) * (500.0 / std::f64::consts::SQRT_2);
    let mut w = ramp_world(g, 0.0);
    let corner = Vec2::new(70.0, 130.0);
    let id = add_box(&mut w, corner, Vec2::splat(8.0));
    w.step();
    for _ in 0..600 {
        w.step();
        assert!(w.events().is_empty(), "{:?}", w.events());
    }
    let b = w.rect(id).expect("alive");
    assert!((b.aabb.max - corner).length() < 1e-9, "{:?}", b.aabb.max);
    assert!(b.vel.length() < 1e-9, "{}", b.vel);
}

/// A box dropped onto the ramp slides down into the wedge between the ramp and the left wall
/// at its foot. Pressed into both faces by gravity, it makes a bounded number of contacts a
/// step there (parting from the diagonal at a `REST_TIME` flight's speed whenever sliding
/// along it drives the box into the wall), never reaches the event bound (before, with
/// restitution 0 it did at every step, for good), never goes inside the slope or the wall,
/// never has more energy than it was dropped with, and ends in the wedge.
#[test]
fn a_box_in_the_wedge_at_the_foot_of_a_ramp_never_reaches_the_event_bound() {
    let g = 500.0;
    for e in [0.0, 0.5] {
        let mut w = ramp_world(Vec2::new(0.0, g), e);
        let id = add_box(&mut w, Vec2::new(70.0, 18.0), Vec2::splat(8.0));
        let start = w.energy();
        let mut most = 0;
        for _ in 0..600 {
            w.step();
            assert_eq!(iteration_limits(&w), 0, "e {e} at {}", w.time());
            most = most.max(w.events().len());
            let b = w.rect(id).expect("alive");
            assert!(
                depth(&w, id) < 1e-9,
                "e {e} at {}: {}",
                w.time(),
                depth(&w, id)
            );
            assert!(b.aabb.min.x > -1e-9, "e {e}: {:?}", b.aabb);
            let end = w.energy();
            assert!(
                end <= start + 1e-12 * start.abs(),
                "e {e} at {}: {end} > {start}",
                w.time()
            );
        }
        // At most about two contacts per `REST_TIME` (1 ms) of a 1/60 s step.
        assert!(most <= 40, "e {e}: {most} events in one step");
        // In the wedge: against the wall and on the diagonal within the touch tolerance
        // (`|g|·REST_TIME²`, eight times a `REST_TIME` hop's height), slower than
        // `|g|·REST_TIME` (twice a hop's speed).
        let b = w.rect(id).expect("alive");
        let near = collide_tests::touch_tolerance(Vec2::new(0.0, g));
        assert!(b.aabb.min.x < near, "e {e}: {:?}", b.aabb);
        assert!(depth(&w, id) > -near, "e {e}: {}", depth(&w, id));
        assert!(b.vel.length() < g * 1e-3, "e {e}: {}", b.vel);
    }
}

/// A snapshot of a box sliding down the ramp (held by a slope's diagonal, whose normal the
/// restore takes from the grid) restored into the world as built continues with the same
/// bits.
#[test]
fn a_box_on_a_ramp_restores_and_continues_bit_for_bit() {
    let mut w = ramp_world(Vec2::new(0.0, 500.0), 0.5);
    add_box(&mut w, Vec2::new(70.0, 130.0), Vec2::splat(8.0));
    let built = w.clone();
    for _ in 0..10 {
        w.step();
    }
    let snap = w.snapshot();
    let mut r = built;
    r.restore(&snap).expect("a snapshot of this world");
    assert_eq!(r.state_hash(), w.state_hash());
    for _ in 0..60 {
        w.step();
        r.step();
        assert_eq!(r.state_hash(), w.state_hash(), "at {}", w.time());
    }
}
