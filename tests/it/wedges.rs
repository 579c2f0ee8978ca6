//! Bodies in wedges under gravity (`crates/world/src/step/settle.rs`, `wedge_holds`): a box or
//! a ball held by one face of immovable geometry and driven by gravity into a second, where the
//! two faces' reactions balance gravity (`−g = λ·a + μ·b`, `λ, μ > 0`), stops there once it is
//! slower than `|g|·REST_TIME`: no velocity, no event, no energy gained, never the event bound
//! (a closed world's corner under slanted gravity, the valley between two segments, the acute
//! wedge between a slanted segment and a wall, the foot of a ramp of slope cells). A hit or an
//! edit moves it again; a snapshot of it continues bit for bit.

use collide_world::{
    Aabb, BallDesc, BallId, Event, Grid, RectDesc, RectId, RectKind, ShapeDesc, StepConfig, Vec2,
    Walls, World,
};

fn world(gravity: Vec2, restitution: f64) -> World {
    world_sleep(gravity, restitution, true)
}

fn world_sleep(gravity: Vec2, restitution: f64, sleep: bool) -> World {
    let config = StepConfig {
        dt: 1.0 / 60.0,
        restitution,
        gravity,
        sleep,
        ..StepConfig::default()
    };
    World::new(Vec2::new(400.0, 400.0), Walls::ALL, config).expect("a valid world")
}

fn add_box(w: &mut World, min: Vec2, size: Vec2) -> RectId {
    w.add_rect(RectDesc {
        aabb: Aabb::new(min, min + size),
        kind: RectKind::Dynamic,
        ..RectDesc::default()
    })
    .expect("a valid box")
}

/// The wedges: a world (gravity, restitution) with its obstacles and a box dropped into it.
fn wedge(case: usize, e: f64) -> (World, RectId) {
    match case {
        // The bottom-left corner of the closed walls, gravity down and to the left.
        0 => {
            let mut w = world(Vec2::new(-600.0, 800.0), e);
            let id = add_box(&mut w, Vec2::new(150.0, 150.0), Vec2::new(20.0, 12.0));
            (w, id)
        }
        // A valley of two segments at 30° and 45°, gravity down.
        1 => {
            let mut w = world(Vec2::new(0.0, 1000.0), e);
            let bottom = Vec2::new(200.0, 300.0);
            w.add_shape(ShapeDesc::segment(
                Vec2::new(40.0, 300.0 - 160.0 * 0.577_350_269_189_625_8),
                bottom,
            ))
            .expect("valid");
            w.add_shape(ShapeDesc::segment(bottom, Vec2::new(360.0, 140.0)))
                .expect("valid");
            let id = add_box(&mut w, Vec2::new(120.0, 150.0), Vec2::new(16.0, 16.0));
            (w, id)
        }
        // The acute wedge between the left wall and a segment rising to the right from it,
        // gravity down.
        2 => {
            let mut w = world(Vec2::new(0.0, 1000.0), e);
            w.add_shape(ShapeDesc::segment(
                Vec2::new(0.0, 300.0),
                Vec2::new(200.0, 150.0),
            ))
            .expect("valid");
            let id = add_box(&mut w, Vec2::new(100.0, 100.0), Vec2::new(10.0, 10.0));
            (w, id)
        }
        // The foot of a ramp of slope cells (◢, descending to the left) against a block of wall
        // cells, gravity down.
        _ => {
            let mut w = world(Vec2::new(0.0, 1000.0), e);
            let rows = [
                "####################",
                "#                  #",
                "#                  #",
                "#                  #",
                "#                  #",
                "#                  #",
                "#                  #",
                "#                  #",
                "#                  #",
                "#                  #",
                "#                  #",
                "#                  #",
                "#                  #",
                "#                  #",
                "#####    3##########",
                "#####   3###########",
                "#####  3############",
                "##### 3#############",
                "#####3##############",
                "####################",
            ];
            w.set_grid(Grid::from_rows(20.0, Vec2::ZERO, &rows).expect("valid rows"));
            let id = add_box(&mut w, Vec2::new(150.0, 200.0), Vec2::new(12.0, 12.0));
            (w, id)
        }
    }
}

/// Steps `w` 3 s, then 2 s more, and checks that the body `state` reads (its velocity and
/// where it is) stopped: no `IterationLimit` in the first 3 s and the world's energy never
/// rising from one step to the next; then no event at all, velocity exactly zero, not a bit
/// of motion. `what` names the case in failures.
fn comes_to_a_stop<P: PartialEq + std::fmt::Debug>(
    w: &mut World,
    what: &str,
    state: impl Fn(&World) -> (Vec2, P),
) {
    let mut before = w.energy();
    for k in 0..180 {
        w.step();
        let limits = w
            .events()
            .iter()
            .filter(|e| matches!(e, Event::IterationLimit { .. }))
            .count();
        assert_eq!(limits, 0, "{what}, step {k}");
        let now = w.energy();
        assert!(
            now <= before + 1e-12 * before.abs(),
            "{what}, step {k}: {now} > {before}"
        );
        before = now;
    }
    let (_, at) = state(w);
    for k in 0..120 {
        w.step();
        assert!(w.events().is_empty(), "{what}, step {k}: {:?}", w.events());
    }
    let (vel, now) = state(w);
    assert_eq!(vel, Vec2::ZERO, "{what}");
    assert_eq!(now, at, "{what}");
}

/// Dropped into each wedge with restitution 0 and 0.5, a box comes to a stop within 3 s: after
/// it, no event for 2 s and exactly zero velocity, where it stopped; never the event bound; the
/// world's energy never rises from one step to the next.
#[test]
fn a_box_in_a_wedge_comes_to_a_stop() {
    for case in 0..4 {
        for e in [0.0, 0.5] {
            let (mut w, id) = wedge(case, e);
            comes_to_a_stop(&mut w, &format!("case {case}, e {e}"), |w| {
                let b = w.rect(id).expect("alive");
                (b.vel, b.aabb)
            });
        }
    }
}

/// A ball dropped on a box stopped in a wedge moves it: the box is not held still against a
/// hit (it leaves the stop, is hit again and again, and settles back, never through a face).
#[test]
fn a_box_stopped_in_a_wedge_moves_when_hit() {
    let (mut w, id) = wedge(0, 0.5);
    for _ in 0..180 {
        w.step();
    }
    let at = w.rect(id).expect("alive").aabb;
    w.add_ball(BallDesc {
        pos: at.center() + Vec2::new(0.0, -40.0),
        vel: Vec2::new(0.0, 300.0),
        radius: 3.0,
        ..BallDesc::default()
    })
    .expect("a valid ball");
    let mut moved = false;
    for _ in 0..30 {
        w.step();
        let b = w.rect(id).expect("alive");
        moved |= b.aabb != at;
        assert!(
            b.aabb.min.x >= -1e-9 && b.aabb.max.y <= 400.0 + 1e-9,
            "{:?}",
            b.aabb
        );
    }
    assert!(moved, "the hit box never moved");
}

/// Changing the world's settings (here its gravity, now pulling right) frees a box stopped in a
/// wedge: it falls out of the corner.
#[test]
fn a_box_stopped_in_a_wedge_leaves_when_gravity_changes() {
    let (mut w, id) = wedge(0, 0.0);
    for _ in 0..180 {
        w.step();
    }
    let at = w.rect(id).expect("alive").aabb;
    let config = StepConfig {
        gravity: Vec2::new(600.0, 800.0),
        ..*w.config()
    };
    w.set_config(config).expect("valid");
    for _ in 0..10 {
        w.step();
    }
    let b = w.rect(id).expect("alive");
    assert!(b.aabb.min.x > at.min.x + 1.0, "{:?} from {at:?}", b.aabb);
}

/// A snapshot of a box stopped in a wedge restored into the world as built continues with the
/// same bits.
#[test]
fn a_box_stopped_in_a_wedge_restores_and_continues_bit_for_bit() {
    for case in 0..4 {
        let (mut w, _) = wedge(case, 0.5);
        let built = w.clone();
        for _ in 0..170 {
            w.step();
        }
        let snap = w.snapshot();
        let mut r = built;
        r.restore(&snap).expect("a snapshot of this world");
        assert_eq!(r.state_hash(), w.state_hash(), "case {case}");
        for _ in 0..30 {
            w.step();
            r.step();
            assert_eq!(
                r.state_hash(),
                w.state_hash(),
                "case {case} at {}",
                w.time()
            );
        }
    }
}

/// The wedges of [`wedge`] with a ball of radius 5 dropped in place of the box, sleep on and
/// off.
fn ball_wedge(case: usize, e: f64, sleep: bool) -> (World, BallId) {
    let (built, id) = wedge(case, e);
    let at = built.rect(id).expect("alive").aabb.center();
    let mut w = world_sleep(built.config().gravity, e, sleep);
    for s in built.shapes() {
        w.add_shape(collide_world::ShapeDesc {
            kind: s.kind,
            surface: s.surface,
        })
        .expect("valid");
    }
    if let Some(g) = built.grid() {
        w.set_grid(g.clone());
    }
    let ball = w
        .add_ball(BallDesc {
            pos: at,
            radius: 5.0,
            ..BallDesc::default()
        })
        .expect("a valid ball");
    (w, ball)
}

/// A ball dropped into each wedge, with restitution 0 and 0.5 and sleep on and off, stops
/// within 3 s: then no event for 2 s, velocity exactly zero, where it stopped; never the event
/// bound (with sleep off it used to meet the two faces at one instant until the bound, at
/// every step); the world's energy never rises from one step to the next.
#[test]
fn a_ball_in_a_wedge_comes_to_a_stop_with_sleep_on_or_off() {
    for case in 0..4 {
        for e in [0.0, 0.5] {
            for sleep in [true, false] {
                let (mut w, id) = ball_wedge(case, e, sleep);
                let what = format!("case {case}, e {e}, sleep {sleep}");
                comes_to_a_stop(&mut w, &what, |w| {
                    let b = w.ball(id).expect("alive");
                    (b.vel, b.pos)
                });
            }
        }
    }
}

/// A box lying on the floor, driven by gravity (−1000, 500) along it into the narrow wedge
/// under a segment that descends toward the floor at 2.9° (a gap of 20 units at the left wall,
/// 40 at the right), at 0 to 2 000 units/s, restitution 0 and 0.5: it comes to a stop where
/// its top-left corner meets the segment, never gaining energy. Parting from the floor along
/// the floor's normal less its part into the segment is nearly along the faces there, and
/// needed more speed than the box came with: it turned the box round at that speed and more,
/// gaining energy at each contact, until the box stops where no motion leaves both faces.
#[test]
fn a_box_driven_fast_into_a_narrow_wedge_stops_there() {
    for speed in [0.0, 300.0, 2000.0] {
        for e in [0.0, 0.5] {
            let mut w = world(Vec2::new(-1000.0, 500.0), e);
            w.add_shape(ShapeDesc::segment(
                Vec2::new(0.0, 380.0),
                Vec2::new(400.0, 360.0),
            ))
            .expect("valid");
            let id = w
                .add_rect(RectDesc {
                    aabb: Aabb::new(Vec2::new(300.0, 370.0), Vec2::new(320.0, 400.0)),
                    vel: Vec2::new(-speed, 0.0),
                    kind: RectKind::Dynamic,
                    ..RectDesc::default()
                })
                .expect("a valid box");
            let what = format!("speed {speed}, e {e}");
            comes_to_a_stop(&mut w, &what, |w| {
                let b = w.rect(id).expect("alive");
                (b.vel, b.aabb)
            });
            // Where the gap is the box's height: its top-left corner on the segment.
            let b = w.rect(id).expect("alive").aabb;
            let top = 380.0 - 20.0 * b.min.x / 400.0;
            assert!((b.min.y - top).abs() < 1e-6, "{what}: {b:?}");
            assert_eq!(b.max.y, 400.0, "{what}");
        }
    }
}
