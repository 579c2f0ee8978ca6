//! Pixel tests: real colours at real pixels.

use collide_core::{Aabb, Corner, Vec2};
use collide_scene::level::{parse_level, scene_from_level};
use collide_world::{
    BallDesc, Cell, GridDesc, RectDesc, RectKind, Scene, StepConfig, Walls, World,
};

use crate::{
    brick_color, render, render_rgba8, Camera, Canvas, PixelRect, PixelTarget, RenderError, Rgb,
    Rgba8Target, Style, Xrgb32Target,
};

const WALL: Rgb = Rgb::new(163, 163, 162);

fn paint(world: &World, camera: &Camera, w: usize, h: usize) -> Canvas {
    let mut c = Canvas::new(w, h).unwrap();
    render(world, camera, &Style::default(), &mut c);
    c
}

/// A 5 × 3 grid of 9-unit cells: `#####` / `#R G#` / `#####`, walls as given, no bodies.
fn small_grid_world(walls: Walls) -> World {
    let rows = ["#####", "#R G#", "#####"];
    let cells = rows
        .iter()
        .flat_map(|r| r.chars())
        .map(collide_scene::level::cell_from_char)
        .collect();
    let scene = Scene {
        size: Vec2::new(45.0, 27.0),
        walls,
        grid: Some(GridDesc {
            cell: 9.0,
            origin: Vec2::ZERO,
            cols: 5,
            rows: 3,
            cells,
            wall_restitution: None,
            brick_restitution: None,
            brick_filter: collide_world::Filter::DEFAULT,
            sensor_filter: collide_world::Filter::DEFAULT,
            wall_filter: collide_world::Filter::DEFAULT,
        }),
        ..Scene::default()
    };
    World::from_scene(&scene).unwrap()
}

#[test]
fn cell_colours_at_their_centres_and_margins_at_zoom_1() {
    let world = small_grid_world(Walls::NONE);
    let c = paint(&world, &Camera::default(), 45, 27);
    let s = Style::default();
    // Centres of cells (col, row) are at (9 col + 4, 9 row + 4).
    assert_eq!(c.rgb(4, 4), WALL);
    assert_eq!(c.rgb(9 + 4, 9 + 4), Rgb::new(214, 63, 37)); // R
    assert_eq!(c.rgb(27 + 4, 9 + 4), Rgb::new(15, 216, 15)); // G
    assert_eq!(c.rgb(18 + 4, 9 + 4), s.background); // empty cell
                                                    // 7 px of fill, a 1 px margin on each side: cell (1, 1) spans pixels 10..=16.
    for x in 10..=16 {
        assert_eq!(c.rgb(x, 13), Rgb::new(214, 63, 37), "x = {x}");
    }
    assert_eq!(c.rgb(9, 13), s.background);
    assert_eq!(c.rgb(17, 13), s.background);
    assert_eq!(c.rgb(13, 9), s.background);
    assert_eq!(c.rgb(13, 17), s.background);
    // Between two wall cells of the top row, the margins show too.
    assert_eq!(c.rgb(8, 4), s.background);
    assert_eq!(c.rgb(9, 4), s.background);
    assert_eq!(c.rgb(10, 4), WALL);
}

#[test]
fn margin_scales_with_the_zoom() {
    let world = small_grid_world(Walls::NONE);
    // Zoom 2: cells are 18 px, the margin 2 px, the fill 14 px.
    let c = paint(&world, &Camera::new(2.0, Vec2::ZERO), 90, 54);
    let s = Style::default();
    let red = Rgb::new(214, 63, 37);
    // Cell (1, 1) covers pixels 18..36; fill 20..34.
    assert_eq!(c.rgb(19, 27), s.background);
    assert_eq!(c.rgb(20, 27), red);
    assert_eq!(c.rgb(33, 27), red);
    assert_eq!(c.rgb(34, 27), s.background);
}

#[test]
fn ball_centre_pixel_and_antialiased_edge() {
    let mut world =
        World::new(Vec2::new(100.0, 100.0), Walls::NONE, StepConfig::default()).unwrap();
    world
        .add_ball(BallDesc {
            pos: Vec2::new(50.5, 40.5),
            radius: 4.0,
            ..Default::default()
        })
        .unwrap();
    let c = paint(&world, &Camera::default(), 100, 100);
    let s = Style::default();
    assert_eq!(c.rgb(50, 40), s.ball);
    // Well inside the disc.
    assert_eq!(c.rgb(53, 40), s.ball);
    assert_eq!(c.rgb(50, 37), s.ball);
    // Pixel centre at distance exactly 4 = radius: half covered.
    assert_eq!(c.rgb(54, 40), s.background.mix(s.ball, 0.5));
    // Beyond r + 0.5: untouched background.
    assert_eq!(c.rgb(55, 40), s.background);
    assert_eq!(c.rgb(10, 10), s.background);
    // Count: the painted area is close to π r².
    let mut area = 0.0;
    for y in 30..52 {
        for x in 40..62 {
            let p = c.rgb(x, y);
            area += f64::from(p.g - s.background.g) / f64::from(s.ball.g - s.background.g);
        }
    }
    assert!(
        (area - std::f64::consts::PI * 16.0).abs() < 0.6,
        "area {area}"
    );
}

#[test]
fn tiny_balls_stay_visible() {
    let mut world = World::new(
        Vec2::new(1000.0, 1000.0),
        Walls::NONE,
        StepConfig::default(),
    )
    .unwrap();
    world
        .add_ball(BallDesc {
            pos: Vec2::new(505.0, 505.0),
            radius: 1.0,
            ..Default::default()
        })
        .unwrap();
    // Zoom 0.1: the ball's radius is 0.1 px, drawn with the minimum 0.6 px.
    let c = paint(&world, &Camera::fit_world(&world, 100, 100), 100, 100);
    assert_ne!(c.rgb(50, 50), Style::default().background);
}

#[test]
fn letterbox_maps_world_corners_where_expected() {
    // A 100 × 50 world in a 200 × 200 buffer: scale 2, bars of 50 px above and below.
    let world = World::new(Vec2::new(100.0, 50.0), Walls::NONE, StepConfig::default()).unwrap();
    let cam = Camera::fit_world(&world, 200, 200);
    assert_eq!(cam.scale, 2.0);
    assert_eq!(cam.to_pixel(Vec2::ZERO), Vec2::new(0.0, 50.0));
    assert_eq!(
        cam.to_pixel(Vec2::new(100.0, 50.0)),
        Vec2::new(200.0, 150.0)
    );
    assert_eq!(
        cam.to_world(Vec2::new(200.0, 150.0)),
        Vec2::new(100.0, 50.0)
    );
    let c = paint(&world, &cam, 200, 200);
    let s = Style::default();
    assert_eq!(c.rgb(0, 49), s.letterbox);
    assert_eq!(c.rgb(0, 50), s.background);
    assert_eq!(c.rgb(199, 149), s.background);
    assert_eq!(c.rgb(199, 150), s.letterbox);
    assert_eq!(c.rgb(100, 10), s.letterbox);
    assert_eq!(c.rgb(100, 190), s.letterbox);

    // A tall world in a wide buffer: bars left and right.
    let world = World::new(Vec2::new(50.0, 100.0), Walls::NONE, StepConfig::default()).unwrap();
    let cam = Camera::fit_world(&world, 300, 100);
    assert_eq!(cam.scale, 1.0);
    assert_eq!(cam.to_pixel(Vec2::ZERO), Vec2::new(125.0, 0.0));
    let c = paint(&world, &cam, 300, 100);
    assert_eq!(c.rgb(124, 50), s.letterbox);
    assert_eq!(c.rgb(125, 50), s.background);
    assert_eq!(c.rgb(174, 50), s.background);
    assert_eq!(c.rgb(175, 50), s.letterbox);
}

#[test]
fn letterboxed_cell_lands_where_the_camera_says() {
    let world = small_grid_world(Walls::NONE);
    // 45 × 27 world into 90 × 90: scale 2, world from y = 18 to y = 72.
    let cam = Camera::fit_world(&world, 90, 90);
    assert_eq!(cam.scale, 2.0);
    let c = paint(&world, &cam, 90, 90);
    // Centre of the G cell (3, 1): world (31.5, 13.5).
    let p = cam.to_pixel(Vec2::new(31.5, 13.5));
    assert_eq!(p, Vec2::new(63.0, 45.0));
    assert_eq!(c.rgb(63, 45), brick_color(b'G'));
    assert_eq!(c.rgb(4, 4), Style::default().letterbox);
}

#[test]
fn rectangles_in_their_kind_colours() {
    let mut world =
        World::new(Vec2::new(100.0, 100.0), Walls::NONE, StepConfig::default()).unwrap();
    for (i, kind) in [RectKind::Static, RectKind::Kinematic, RectKind::Dynamic]
        .into_iter()
        .enumerate()
    {
        let x = 10.0 + 30.0 * i as f64;
        world
            .add_rect(RectDesc {
                aabb: Aabb::new(Vec2::new(x, 10.0), Vec2::new(x + 20.0, 16.0)),
                kind,
                ..Default::default()
            })
            .unwrap();
    }
    let c = paint(&world, &Camera::default(), 100, 100);
    let s = Style::default();
    assert_eq!(c.rgb(20, 13), s.static_rect);
    assert_eq!(c.rgb(50, 13), s.kinematic_rect);
    assert_eq!(c.rgb(80, 13), s.dynamic_rect);
    // Crisp edges: x in [10, 30), y in [10, 16).
    assert_eq!(c.rgb(10, 10), s.static_rect);
    assert_eq!(c.rgb(29, 15), s.static_rect);
    assert_eq!(c.rgb(9, 13), s.background);
    assert_eq!(c.rgb(30, 13), s.background);
    assert_eq!(c.rgb(20, 16), s.background);
}

#[test]
fn outline_only_on_closed_walls() {
    let world = World::new(
        Vec2::new(40.0, 30.0),
        Walls::OPEN_BOTTOM,
        StepConfig::default(),
    )
    .unwrap();
    let c = paint(&world, &Camera::default(), 40, 30);
    let s = Style::default();
    assert_eq!(c.rgb(0, 15), s.outline);
    assert_eq!(c.rgb(39, 15), s.outline);
    assert_eq!(c.rgb(20, 0), s.outline);
    assert_eq!(c.rgb(20, 29), s.background);
    assert_eq!(c.rgb(1, 15), s.background);
    // Zoom 3: 3 px wide.
    let c = paint(&world, &Camera::new(3.0, Vec2::ZERO), 120, 90);
    assert_eq!(c.rgb(2, 45), s.outline);
    assert_eq!(c.rgb(3, 45), s.background);
}

#[test]
fn real_level_1_at_zoom_1() {
    let text = include_str!("../../../scenes/levels/level_1.dat");
    let grid = parse_level(text).unwrap();
    let scene = scene_from_level("level_1", grid, 10);
    let world = World::from_scene(&scene).unwrap();
    let (w, h) = (world.size().x as usize, world.size().y as usize);
    assert_eq!((w, h), (459, 399));
    let c = paint(&world, &Camera::fit_world(&world, w, h), w, h);
    let g = world.grid().unwrap();
    for (i, cell) in g.cells().iter().enumerate() {
        let (col, row) = (i % g.cols(), i / g.cols());
        let p = c.rgb(9 * col + 4, 9 * row + 4);
        match cell {
            Cell::Empty => {}
            Cell::Wall => assert_eq!(p, WALL, "cell ({col}, {row})"),
            Cell::Brick(k) => assert_eq!(p, brick_color(*k), "cell ({col}, {row})"),
            Cell::Sensor(_) | Cell::Slope(_) => {
                panic!("the BricksBeater levels have no sensor or slope cell")
            }
        }
    }
    // The paddle.
    let paddle = world.rects()[0].aabb.center();
    assert_eq!(
        c.rgb(paddle.x as usize, paddle.y as usize),
        Style::default().kinematic_rect
    );
    // Every ball's centre pixel.
    for b in world.balls() {
        assert_eq!(
            c.rgb(b.pos.x as usize, b.pos.y as usize),
            Style::default().ball
        );
    }
}

#[test]
fn slope_cells_fill_their_solid_half() {
    // One 9-unit slope of each kind in a row (`1 3 7 9`: solid bottom-left, bottom-right,
    // top-left, top-right), drawn at zoom 4 with no margin: a pixel a quarter cell from the
    // solid corner is the wall's colour, one a quarter cell from the empty corner the
    // background, and the diagonal is blended.
    let rows = ["1379"];
    let cells = rows
        .iter()
        .flat_map(|r| r.chars())
        .map(collide_scene::level::cell_from_char)
        .collect();
    let scene = Scene {
        size: Vec2::new(36.0, 9.0),
        walls: Walls::NONE,
        grid: Some(GridDesc {
            cell: 9.0,
            origin: Vec2::ZERO,
            cols: 4,
            rows: 1,
            cells,
            wall_restitution: None,
            brick_restitution: None,
            wall_filter: Default::default(),
            brick_filter: Default::default(),
            sensor_filter: Default::default(),
        }),
        ..Scene::default()
    };
    let world = World::from_scene(&scene).unwrap();
    let style = Style {
        cell_margin: 0.0,
        ..Style::default()
    };
    let mut c = Canvas::new(144, 36).unwrap();
    render(&world, &Camera::new(4.0, Vec2::ZERO), &style, &mut c);
    for (k, solid) in [
        Corner::BottomLeft,
        Corner::BottomRight,
        Corner::TopLeft,
        Corner::TopRight,
    ]
    .into_iter()
    .enumerate()
    {
        let centre = Vec2::new(18.0 + 36.0 * k as f64, 18.0);
        let inside = centre + solid.signs() * 9.0;
        let outside = centre - solid.signs() * 9.0;
        assert_eq!(
            c.rgb(inside.x as usize, inside.y as usize),
            style.wall,
            "{solid:?}"
        );
        assert_eq!(
            c.rgb(outside.x as usize, outside.y as usize),
            style.background,
            "{solid:?}"
        );
    }
    // On the diagonal of the first slope (from its top-left to its bottom-right corner):
    // pixel (10, 10)'s centre lies on it, half covered.
    let on = c.rgb(10, 10);
    assert!(on != style.wall && on != style.background, "{on:?}");
}

#[test]
fn all_targets_paint_the_same_image() {
    let mut world = small_grid_world(Walls::ALL);
    world
        .add_ball(BallDesc {
            pos: Vec2::new(22.5, 13.5),
            radius: 3.3,
            ..Default::default()
        })
        .unwrap();
    let (w, h) = (77, 61);
    let cam = Camera::fit_world(&world, w, h);
    let canvas = paint(&world, &cam, w, h);

    let mut rgba = vec![0u8; w * h * 4];
    let cam2 = render_rgba8(&world, &mut rgba, w, h).unwrap();
    assert_eq!(cam2, cam);
    assert_eq!(rgba, canvas.data());

    let mut xrgb = vec![0u32; w * h];
    render(
        &world,
        &cam,
        &Style::default(),
        &mut Xrgb32Target::new(&mut xrgb, w, h).unwrap(),
    );
    for y in 0..h {
        for x in 0..w {
            assert_eq!(Rgb::from_xrgb(xrgb[y * w + x]), canvas.rgb(x, y));
        }
    }
    assert!(canvas.data().chunks(4).all(|p| p[3] == 255));
}

#[test]
fn bad_buffers_are_refused_and_odd_sizes_do_not_panic() {
    let world = small_grid_world(Walls::ALL);
    let mut buf = vec![0u8; 10];
    assert_eq!(
        render_rgba8(&world, &mut buf, 2, 2),
        Err(RenderError::BufferSize {
            width: 2,
            height: 2,
            expected: 16,
            got: 10
        })
    );
    assert!(matches!(
        Rgba8Target::new(&mut buf, usize::MAX, 3),
        Err(RenderError::TooLarge { .. })
    ));
    assert!(Canvas::new(usize::MAX, 2).is_err());
    let mut w = vec![0u32; 3];
    assert!(Xrgb32Target::new(&mut w, 2, 2).is_err());
    // Empty and one-pixel buffers, absurd cameras.
    for (w, h) in [(0, 0), (0, 5), (5, 0), (1, 1)] {
        let mut c = Canvas::new(w, h).unwrap();
        render(
            &world,
            &Camera::fit_world(&world, w, h),
            &Style::default(),
            &mut c,
        );
    }
    let mut c = Canvas::new(8, 8).unwrap();
    for cam in [
        Camera::new(f64::NAN, Vec2::ZERO),
        Camera::new(0.0, Vec2::ZERO),
        Camera::new(1e300, Vec2::new(-1e300, 0.0)),
        Camera::new(1.0, Vec2::new(1e9, 1e9)),
    ] {
        render(&world, &cam, &Style::default(), &mut c);
    }
    // Out-of-range pixel access is ignored.
    c.put(100, 100, Rgb::WHITE);
    assert_eq!(c.get(100, 100), Rgb::BLACK);
}

#[test]
fn pixel_rect_covering_uses_pixel_centres() {
    let r = PixelRect::covering(Vec2::new(1.0, 1.0), Vec2::new(8.0, 8.0), 100, 100);
    assert_eq!(
        r,
        PixelRect {
            x0: 1,
            y0: 1,
            x1: 8,
            y1: 8
        }
    );
    let r = PixelRect::covering(Vec2::new(0.4, 0.6), Vec2::new(2.5, 2.6), 100, 100);
    assert_eq!(
        r,
        PixelRect {
            x0: 0,
            y0: 1,
            x1: 2,
            y1: 3
        }
    );
    let r = PixelRect::covering(Vec2::new(-10.0, -10.0), Vec2::new(1e9, 5.0), 10, 10);
    assert_eq!(
        r,
        PixelRect {
            x0: 0,
            y0: 0,
            x1: 10,
            y1: 5
        }
    );
    assert!(PixelRect::covering(Vec2::new(5.0, 5.0), Vec2::new(4.0, 9.0), 10, 10).is_empty());
}

#[test]
fn flippers_are_antialiased_capsules_where_they_are_now() {
    // A flipper pivoting at (20.5, 50.5), 40 long, radius 4, resting along +x: its capsule
    // covers y in [46.5, 54.5] for x from 20.5 to 60.5 and the discs at both ends.
    let mut world =
        World::new(Vec2::new(100.0, 100.0), Walls::NONE, StepConfig::default()).unwrap();
    let desc = collide_world::FlipperDesc::new(Vec2::new(20.5, 50.5), 40.0, 4.0, 0.0, -1.0, 10.0);
    let f = world.add_flipper(desc).unwrap();
    let s = Style::default();
    let c = paint(&world, &Camera::default(), 100, 100);
    assert_eq!(c.rgb(40, 50), s.flipper);
    assert_eq!(c.rgb(40, 47), s.flipper);
    // A pixel centre at distance exactly 4 from the core: half covered; beyond 4.5: nothing.
    assert_eq!(c.rgb(40, 54), s.background.mix(s.flipper, 0.5));
    assert_eq!(c.rgb(40, 55), s.background);
    // The round tip: (64.5, 50.5) is 4 from the tip's centre.
    assert_eq!(c.rgb(64, 50), s.background.mix(s.flipper, 0.5));
    assert_eq!(c.rgb(65, 50), s.background);
    // Pressed: after 0.1 s at 10 rad/s it has turned up to −1 rad and is drawn there.
    world.set_flipper_pressed(f, true).unwrap();
    for _ in 0..6 {
        world.step();
    }
    let c = paint(&world, &Camera::default(), 100, 100);
    assert_eq!(c.rgb(55, 50), s.background);
    let tip = Vec2::new(20.5, 50.5) + Vec2::new(1f64.cos(), -(1f64.sin())) * 40.0;
    assert_eq!(c.rgb(tip.x as usize, tip.y as usize), s.flipper);
}

#[test]
fn polygons_are_filled_and_outlined() {
    // The triangle (20, 60), (80, 60), (50, 10) at zoom 2: its inside in the polygon colour,
    // its bottom edge in the segments' colour, outside untouched.
    let mut world = World::new(Vec2::new(100.0, 80.0), Walls::NONE, StepConfig::default()).unwrap();
    let tri = collide_world::ShapeDesc::polygon(&[
        Vec2::new(20.0, 60.0),
        Vec2::new(80.0, 60.0),
        Vec2::new(50.0, 10.0),
    ])
    .unwrap();
    world.add_shape(tri).unwrap();
    let style = Style::default();
    let c = paint(&world, &Camera::new(2.0, Vec2::ZERO), 200, 160);
    assert_eq!(c.get(100, 90), style.polygon);
    assert_eq!(c.get(60, 100), style.polygon);
    let near = |a: Rgb, b: Rgb| {
        (a.r as i32 - b.r as i32).abs() <= 10
            && (a.g as i32 - b.g as i32).abs() <= 10
            && (a.b as i32 - b.b as i32).abs() <= 10
    };
    assert!(
        [119, 120]
            .iter()
            .any(|&y| near(c.get(100, y), style.segment)),
        "{:?} {:?}",
        c.get(100, 119),
        c.get(100, 120)
    );
    assert_eq!(c.get(20, 20), style.background);
    assert_eq!(c.get(100, 130), style.background);
    // Beside the slanted edge from (50, 10) to (20, 60): left of it is outside.
    assert_eq!(c.get(50, 60), style.background);
    assert_eq!(c.get(80, 60), style.polygon);
    let painted = (0..160)
        .flat_map(|y| (0..200).map(move |x| (x, y)))
        .filter(|&(x, y)| c.get(x, y) == style.polygon)
        .count();
    // The triangle's area at zoom 2 is 4 · 1500 px²; its rim (a unit-wide outline) is not fill.
    assert!((4500..6000).contains(&painted), "{painted}");
}
