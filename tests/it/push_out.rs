//! A ball that fits nowhere: the push-out finds no free position in the whole world. It is
//! held where it is, at rest, velocity kept, and searched for again only when the geometry
//! changes (`crates/world/src/embed.rs`, `World::unplaceable`).

use collide_world::{BallDesc, Cell, CellCoord, Grid, StepConfig, Surface, Vec2, Walls, World};

#[test]
fn a_ball_that_fits_nowhere_is_held_until_the_geometry_changes() {
    // A closed 100 × 100 world of 10-unit wall cells but for one empty cell at (4, 4):
    // a ball of radius 10 (diameter 20) fits nowhere.
    let rows: Vec<String> = (0..10)
        .map(|r| {
            (0..10)
                .map(|c| if (c, r) == (4, 4) { ' ' } else { '#' })
                .collect()
        })
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut w = World::new(Vec2::new(100.0, 100.0), Walls::ALL, StepConfig::default()).unwrap();
    w.set_grid(Grid::from_rows(10.0, Vec2::ZERO, &rows).unwrap());
    let vel = Vec2::new(30.0, -20.0);
    let id = w
        .add_ball(BallDesc {
            pos: Vec2::new(45.0, 45.0),
            vel,
            radius: 10.0,
            density: 1.0,
            surface: Surface::DEFAULT,
            gravity_scale: 1.0,
        })
        .unwrap();
    for _ in 0..20 {
        let events = w.step().to_vec();
        assert!(events.is_empty(), "{events:?}");
        let b = w.ball(id).unwrap();
        assert_eq!((b.pos, b.vel), (Vec2::new(45.0, 45.0), vel));
    }
    // Room made: the 3 × 3 block of cells around the pocket emptied. The ball, 15 from every
    // wall left, is free again: it moves on with its velocity, bouncing in the block.
    for r in 3..6 {
        for c in 3..6 {
            w.set_cell(CellCoord::new(c, r), Cell::Empty);
        }
    }
    for _ in 0..60 {
        w.step();
        let b = w.ball(id).unwrap();
        assert!(w.circle_is_free(b.pos, 10.0 - 1e-9, None), "{}", b.pos);
        assert!((b.vel.length() - vel.length()).abs() < 1e-9);
    }
    assert_ne!(w.ball(id).unwrap().pos, Vec2::new(45.0, 45.0));
}
