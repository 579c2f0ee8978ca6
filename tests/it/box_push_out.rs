//! The push-out of a dynamic box that starts a step inside static geometry: it ends free,
//! at the nearest free position when the axis pushes alone go back and forth
//! (`crates/world/src/step/embed_box.rs`).

use crate::build::world;
use collide_core::{Aabb, Vec2};
use collide_world::{Body, Event, Grid, RectDesc, RectId, RectKind, World};
use proptest::prelude::*;

fn dynamic_box(w: &mut World, min: Vec2, max: Vec2) -> RectId {
    w.add_rect(RectDesc {
        aabb: Aabb::new(min, max),
        kind: RectKind::Dynamic,
        ..RectDesc::default()
    })
    .expect("a valid box")
}

fn static_rect(w: &mut World, min: Vec2, max: Vec2) {
    w.add_rect(RectDesc {
        aabb: Aabb::new(min, max),
        ..RectDesc::default()
    })
    .expect("a valid rect");
}

/// Strict overlap of `a` shrunk by `slack` with `b`.
fn overlaps(a: &Aabb, b: &Aabb, slack: f64) -> bool {
    a.min.x + slack < b.max.x
        && a.max.x - slack > b.min.x
        && a.min.y + slack < b.max.y
        && a.max.y - slack > b.min.y
}

/// A box overlapping a static rectangle by 0.36 units across and 0.35 down, touching the top
/// wall: its smallest push (0.35 up, out of the rectangle) is into the wall, and the wall's
/// push back down is into the rectangle. The nearest free place is 0.36 units to the right
/// (down past the rectangle is 23.07 units, left past it 72). Finding E4 of the fuzz target
/// `everything`.
#[test]
fn a_box_between_a_rect_and_a_wall_goes_to_the_nearest_free_place() {
    let mut w = world(Vec2::new(120.0, 60.0), 1.0 / 60.0, Vec2::ZERO);
    static_rect(&mut w, Vec2::new(15.43, 22.07), Vec2::new(61.16, 23.07));
    let id = dynamic_box(&mut w, Vec2::new(60.8, 0.0), Vec2::new(87.84, 22.42));
    w.step();
    let b = w.rect(id).expect("alive").aabb;
    assert!((b.min.x - 61.16).abs() < 1e-9, "{b:?}");
    assert!(b.min.y.abs() < 1e-9, "{b:?}");
    assert!(((b.max.x - b.min.x) - (87.84 - 60.8)).abs() < 1e-9);
    let moves: Vec<_> = w
        .events()
        .iter()
        .filter(|e| matches!(e, Event::Unembedded { body: Body::Rect(r), .. } if *r == id))
        .collect();
    assert_eq!(moves.len(), 1, "{moves:?}");
}

/// A box built mostly outside a closed world, where rectangles reach in from the right: the
/// axis pushes bring it in but leave it in the rectangles. The only room is left of x = 73.44
/// (where the thin rectangle starts) and above y = 111.3, the floor: its nearest place has
/// `max = (73.44, 111.3)`. Finding E7 of the fuzz target `everything`.
#[test]
fn a_box_outside_a_closed_world_among_rects_goes_to_the_nearest_free_place() {
    let mut w = world(Vec2::new(110.16, 111.3), 1.0 / 120.0, Vec2::ZERO);
    static_rect(&mut w, Vec2::new(73.44, 74.2), Vec2::new(113.77, 75.21));
    static_rect(&mut w, Vec2::new(98.06, 20.82), Vec2::new(151.58, 74.34));
    static_rect(&mut w, Vec2::new(97.9, 55.87), Vec2::new(157.87, 86.48));
    let id = dynamic_box(&mut w, Vec2::new(98.06, 99.08), Vec2::new(151.58, 152.6));
    w.step();
    let b = w.rect(id).expect("alive").aabb;
    assert!((b.max.x - 73.44).abs() < 1e-9, "{b:?}");
    assert!((b.max.y - 111.3).abs() < 1e-9, "{b:?}");
}

/// The nearest free corner position of a `size` box by a scan of step `h` over the closed
/// world, against `obstacles`; `None` if the scan finds none.
fn scan_nearest(world: Vec2, size: Vec2, obstacles: &[Aabb], from: Vec2, h: f64) -> Option<f64> {
    let (nx, ny) = (
        ((world.x - size.x) / h).floor() as i64,
        ((world.y - size.y) / h).floor() as i64,
    );
    let mut best: Option<f64> = None;
    for i in 0..=nx {
        for j in 0..=ny {
            let p = Vec2::new(i as f64 * h, j as f64 * h);
            let b = Aabb::new(p, p + size);
            if !obstacles.iter().any(|o| overlaps(&b, o, 0.0)) {
                let d = (p - from).length();
                best = Some(best.map_or(d, |x: f64| x.min(d)));
            }
        }
    }
    best
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    /// A box dropped anywhere (also inside walls and rectangles) among static rectangles and
    /// wall cells ends the step free whenever a scan of the world (step 0.25) finds room for
    /// it.
    #[test]
    fn a_box_ends_free_wherever_there_is_room(
        rects in prop::collection::vec((0.0..100.0f64, 0.0..80.0f64, 1.0..40.0f64, 1.0..30.0f64), 1..6),
        cells in prop::collection::vec(any::<bool>(), 80),
        at in (-10.0..100.0f64, -10.0..80.0f64),
        size in (2.0..30.0f64, 2.0..30.0f64),
    ) {
        let world_size = Vec2::new(100.0, 80.0);
        let mut w = world(world_size, 1.0 / 60.0, Vec2::ZERO);
        let rows: Vec<String> = cells
            .chunks(10)
            .map(|r| r.iter().map(|&s| if s { '#' } else { ' ' }).collect::<String>())
            .map(|r| r.chars().enumerate().map(|(i, c)| if i % 3 == 0 { c } else { ' ' }).collect())
            .collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        w.set_grid(Grid::from_rows(10.0, Vec2::ZERO, &rows).expect("a grid"));
        let mut obstacles = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                if ch == '#' {
                    let min = Vec2::new(c as f64 * 10.0, r as f64 * 10.0);
                    obstacles.push(Aabb::new(min, min + 10.0));
                }
            }
        }
        for &(x, y, wd, ht) in &rects {
            static_rect(&mut w, Vec2::new(x, y), Vec2::new(x + wd, y + ht));
            obstacles.push(Aabb::new(Vec2::new(x, y), Vec2::new(x + wd, y + ht)));
        }
        let from = Vec2::new(at.0, at.1);
        let id = dynamic_box(&mut w, from, from + Vec2::new(size.0, size.1));
        w.step();
        let b = w.rect(id).expect("alive").aabb;
        let room = scan_nearest(world_size, Vec2::new(size.0, size.1), &obstacles, from, 0.25);
        if room.is_some() {
            let inside = obstacles.iter().any(|o| overlaps(&b, o, 1e-6))
                || b.min.x < -1e-6 || b.min.y < -1e-6
                || b.max.x > world_size.x + 1e-6 || b.max.y > world_size.y + 1e-6;
            prop_assert!(!inside, "box {:?} left inside; room at {:?}", b, room);
        }
    }
}

/// Two dynamic boxes 24 units tall stacked in a closed world 50 units tall and a kinematic
/// rectangle rising under them at 100 units/s: it presses the lower box into the upper one,
/// which lies against the top wall, and then passes through the world. There is no room for
/// all three: the boxes are crushed and overlap for a while, but neither ever leaves the
/// closed world (finding E11 of the fuzz target `everything` pushed one through the wall).
#[test]
fn boxes_crushed_with_no_room_stay_inside_a_closed_world() {
    let size = Vec2::new(60.0, 50.0);
    let mut w = world(size, 1.0 / 60.0, Vec2::ZERO);
    let upper = dynamic_box(&mut w, Vec2::new(10.0, 0.0), Vec2::new(50.0, 24.0));
    let lower = dynamic_box(&mut w, Vec2::new(12.0, 25.0), Vec2::new(52.0, 49.0));
    w.add_rect(RectDesc {
        aabb: Aabb::new(Vec2::new(8.0, 50.0), Vec2::new(54.0, 90.0)),
        vel: Vec2::new(0.0, -100.0),
        kind: RectKind::Kinematic,
        ..RectDesc::default()
    })
    .expect("a valid paddle");
    for step in 0..240 {
        w.step();
        for id in [upper, lower] {
            let b = w.rect(id).expect("alive").aabb;
            assert!(
                b.min.x >= -1e-9
                    && b.min.y >= -1e-9
                    && b.max.x <= size.x + 1e-9
                    && b.max.y <= size.y + 1e-9,
                "step {step}: box {b:?} outside the world"
            );
        }
    }
}

/// A box built across a thin static wall, between two other boxes, with no place in the world
/// clear of the wall and the boxes (its axis pushes go from the wall into the right box and
/// back): it goes to the nearest place clear of what does not move (6 units to the right,
/// overlapping the right box, which it then parts from), not back into the wall.
#[test]
fn a_box_with_no_room_clear_of_other_boxes_is_kept_out_of_static_geometry() {
    let mut w = world(Vec2::new(60.0, 50.0), 1.0 / 60.0, Vec2::ZERO);
    let wall = Aabb::new(Vec2::new(30.0, 2.0), Vec2::new(31.0, 48.0));
    static_rect(&mut w, wall.min, wall.max);
    dynamic_box(&mut w, Vec2::new(45.0, 20.0), Vec2::new(55.0, 30.0));
    dynamic_box(&mut w, Vec2::new(2.0, 20.0), Vec2::new(12.0, 30.0));
    let id = dynamic_box(&mut w, Vec2::new(25.0, 5.0), Vec2::new(45.0, 45.0));
    for step in 0..60 {
        w.step();
        let b = w.rect(id).expect("alive").aabb;
        assert!(
            !overlaps(&b, &wall, 1e-6),
            "step {step}: {b:?} inside the wall"
        );
    }
}

/// A box longer than its closed world along one axis (56 units in a world 50 units across,
/// both walls of that axis closed), built 1 unit into a static rectangle that reaches in from
/// one wall: no position keeps it inside the walls, so it is placed across the world,
/// centred (3 units into each wall), and moved along the other axis just out of the
/// rectangle, where it stays. Checked along y and, transposed, along x. Finding E25 of the
/// fuzz target `everything` (the axis pushes took such a box from wall to wall and left it
/// in a wall cell).
#[test]
fn a_box_longer_than_its_world_is_placed_across_it_clear_of_everything_else() {
    // `(a, b)` in the world's frame for along-y (`t` false) or transposed (`t` true).
    let v = |t: bool, a: f64, b: f64| if t { Vec2::new(b, a) } else { Vec2::new(a, b) };
    for t in [false, true] {
        let mut w = world(v(t, 120.0, 50.0), 1.0 / 60.0, Vec2::ZERO);
        let rect = Aabb::new(v(t, 40.0, 0.0), v(t, 60.0, 20.0));
        static_rect(&mut w, rect.min, rect.max);
        let id = dynamic_box(&mut w, v(t, 37.0, 10.0), v(t, 41.0, 66.0));
        for step in 0..30 {
            w.step();
            let b = w.rect(id).expect("alive").aabb;
            let want = Aabb::new(v(t, 36.0, -3.0), v(t, 40.0, 53.0));
            let off =
                (b.min - want.min).abs().max_element() + (b.max - want.max).abs().max_element();
            assert!(
                off < 1e-9,
                "transposed {t}, step {step}: {b:?}, want {want:?}"
            );
            assert!(
                !overlaps(&b, &rect, 1e-9),
                "transposed {t}, step {step}: {b:?} in the rect"
            );
        }
    }
}
