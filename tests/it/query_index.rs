//! `World::query_index`: the same answers as the world's own queries (which test every ball),
//! while a short ray tests only the balls near it.

use collide_scenes::arena_scene;
use collide_world::rng::XorShift64Star;
use collide_world::{Aabb, BallDesc, Surface, Vec2, World};

fn arena(balls: usize) -> World {
    let mut w = World::from_scene(&arena_scene(balls, 300.0, 5)).unwrap();
    // Balls of another size, and steps, so that positions are anywhere and radii differ.
    w.add_ball(BallDesc {
        pos: Vec2::new(500.0, 500.0),
        vel: Vec2::new(3.0, 1.0),
        radius: 17.0,
        density: 1.0,
        surface: Surface::DEFAULT,
        gravity_scale: 1.0,
    })
    .unwrap();
    for _ in 0..5 {
        w.step();
    }
    w
}

#[test]
fn the_index_answers_as_the_world() {
    let w = arena(3000);
    let idx = w.query_index();
    let mut rng = XorShift64Star::new(21);
    let ids: Vec<_> = w.balls().iter().map(|b| b.id).take(3).collect();
    for k in 0..3000 {
        // Inside and outside the world, short and long.
        let from = Vec2::new(
            rng.next_f64() * 1200.0 - 100.0,
            rng.next_f64() * 1200.0 - 100.0,
        );
        let len = [5.0, 60.0, 1500.0][k % 3];
        let to = from + rng.unit_vector() * len;
        let r = rng.next_f64() * 10.0;
        let ignore = if k % 2 == 0 { &ids[..] } else { &[][..] };
        assert_eq!(
            idx.cast_circle(from, to, r, ignore, collide_world::Filter::ALL),
            w.cast_circle(from, to, r, ignore, collide_world::Filter::ALL)
        );
        let (mut a, mut b) = (Vec::new(), Vec::new());
        idx.query_point(from, collide_world::Filter::ALL, &mut a);
        w.query_point(from, collide_world::Filter::ALL, &mut b);
        assert_eq!(a, b);
        let bx = Aabb::new(
            from,
            from + Vec2::new(rng.next_f64(), rng.next_f64()) * len.min(300.0),
        );
        let (mut a, mut b) = (Vec::new(), Vec::new());
        idx.query_aabb(&bx, collide_world::Filter::ALL, &mut a);
        w.query_aabb(&bx, collide_world::Filter::ALL, &mut b);
        assert_eq!(a, b);
    }
}

/// On the arena with 10 000 balls a 40-unit ray tests at least 100 times fewer balls than the
/// world's scan (which tests all 10 001).
#[test]
fn a_short_ray_visits_a_hundred_times_fewer_balls() {
    let w = arena(10_000);
    let idx = w.query_index();
    let mut rng = XorShift64Star::new(4);
    let mut visited = 0;
    let n = 1000;
    for _ in 0..n {
        let from = Vec2::new(rng.next_f64() * 900.0 + 50.0, rng.next_f64() * 900.0 + 50.0);
        let to = from + rng.unit_vector() * 40.0;
        visited += idx.balls_visited(&Aabb::new(from.min(to), from.max(to)).grown(2.0));
    }
    let mean = visited as f64 / n as f64;
    let ratio = w.balls().len() as f64 / mean;
    println!("{mean:.1} balls visited per ray, {ratio:.0} times fewer than the scan");
    assert!(ratio >= 100.0, "{ratio}");
}
