//! Pixel tests of the frame overlays: ball colours, items, velocity lines, the debug trace,
//! the HUD, and the fast paths (disc stamps, bands) against the plain ones.

use collide_core::{Aabb, Vec2};
use collide_world::rng::XorShift64Star;
use collide_world::{Ball, BallDesc, Event, StepConfig, Surface, Walls, World};

use crate::draw::{draw_disc, draw_line, draw_text, glyph, text_width, DiscPainter, GLYPH_PX};
use crate::{
    draw_hud, render, render_frame, swept_paths, Camera, Canvas, Frame, Hud, Item, PixelRect,
    PixelTarget, Rgb, StepTrace, Style,
};

const RED: Rgb = Rgb::new(255, 0, 0);
const GREEN: Rgb = Rgb::new(0, 255, 0);

fn empty_world(w: f64, h: f64) -> World {
    World::new(
        Vec2::new(w, h),
        Walls::NONE,
        StepConfig {
            ball_ball: false,
            ..StepConfig::default()
        },
    )
    .unwrap()
}

fn ball(world: &mut World, x: f64, y: f64, vx: f64, vy: f64, r: f64) {
    world
        .add_ball(BallDesc {
            pos: Vec2::new(x, y),
            vel: Vec2::new(vx, vy),
            radius: r,
            density: 1.0,
            surface: Surface::DEFAULT,
            gravity_scale: 1.0,
        })
        .unwrap();
}

fn paint(frame: &Frame<'_>, w: usize, h: usize) -> Canvas {
    let mut c = Canvas::new(w, h).unwrap();
    render_frame(frame, &Camera::default(), &Style::default(), &mut c);
    c
}

#[test]
fn each_ball_in_its_own_colour() {
    let mut world = empty_world(100.0, 50.0);
    ball(&mut world, 20.5, 20.5, 0.0, 0.0, 5.0);
    ball(&mut world, 60.5, 20.5, 0.0, 0.0, 5.0);
    let first = world.balls().get(0).expect("a ball").id;
    let colour = |b: &Ball| if b.id == first { RED } else { GREEN };
    let mut frame = Frame::new(&world);
    frame.ball_color = Some(&colour);
    let c = paint(&frame, 100, 50);
    assert_eq!(c.rgb(20, 20), RED);
    assert_eq!(c.rgb(60, 20), GREEN);
    // Without a lookup: the style's ball colour.
    let c = paint(&Frame::new(&world), 100, 50);
    assert_eq!(c.rgb(20, 20), Style::default().ball);
}

#[test]
fn items_are_drawn_in_world_units() {
    let world = empty_world(100.0, 50.0);
    let items = [
        Item::Box {
            aabb: Aabb::new(Vec2::new(10.0, 10.0), Vec2::new(20.0, 15.0)),
            color: RED,
        },
        Item::Disc {
            center: Vec2::new(50.5, 25.5),
            radius: 4.0,
            color: GREEN,
        },
        Item::Line {
            from: Vec2::new(60.0, 40.5),
            to: Vec2::new(90.0, 40.5),
            color: RED,
        },
    ];
    let mut frame = Frame::new(&world);
    frame.items = &items;
    // Zoom 2: the box covers pixels 20..40 × 20..30.
    let mut c = Canvas::new(200, 100).unwrap();
    render_frame(
        &frame,
        &Camera::new(2.0, Vec2::ZERO),
        &Style::default(),
        &mut c,
    );
    let bg = Style::default().background;
    assert_eq!((c.rgb(20, 20), c.rgb(39, 29)), (RED, RED));
    assert_eq!((c.rgb(19, 20), c.rgb(40, 29), c.rgb(20, 30)), (bg, bg, bg));
    // The disc: centre (101, 51) px, radius 8 px.
    assert_eq!(c.rgb(101, 51), GREEN);
    // Pixel (101, 56) has its centre 5.5 px below and 0.5 px right of the centre: inside.
    assert_eq!(c.rgb(101, 56), GREEN);
    assert_eq!(c.rgb(101, 51 + 9), bg);
    // The line along y = 81 px (pixel centres of row 80 at 80.5: half in row 80, half in
    // row 81... exactly on the boundary between rows 80 and 81): 120..180 px.
    let on = |x: usize| (c.rgb(x, 80), c.rgb(x, 81));
    for x in [125, 150, 175] {
        let (a, b) = on(x);
        assert_eq!(a, bg.mix(RED, 0.5), "x = {x}");
        assert_eq!(b, bg.mix(RED, 0.5), "x = {x}");
    }
    assert_eq!(c.rgb(150, 78), bg);
}

#[test]
fn labels_use_the_bitmap_font_centred() {
    let world = empty_world(64.0, 32.0);
    let items = [Item::Label {
        center: Vec2::new(32.0, 16.0),
        text: "A".to_owned(),
        height: 8.0,
        color: RED,
    }];
    let mut frame = Frame::new(&world);
    frame.items = &items;
    let c = paint(&frame, 64, 32);
    // One glyph of 8 × 8 at scale 1 centred on (32, 16): top-left (28, 12).
    let g = glyph('A');
    for (row, bits) in g.iter().enumerate() {
        for col in 0..8 {
            let want = if bits & (1 << col) != 0 {
                RED
            } else {
                Style::default().background
            };
            assert_eq!(c.rgb(28 + col, 12 + row), want, "({col}, {row})");
        }
    }
}

#[test]
fn velocity_lines_run_from_the_rim_to_where_the_ball_will_be() {
    let mut world = empty_world(100.0, 50.0);
    // Radius 2 at (10.5, 25), moving right at 100 units/s; lines for 0.5 s end at x = 60.5.
    ball(&mut world, 10.5, 25.0, 100.0, 0.0, 2.0);
    let mut frame = Frame::new(&world);
    frame.velocity_lines = Some(0.5);
    let c = paint(&frame, 100, 50);
    let s = Style::default();
    // The line y = 25 is the boundary of rows 24 and 25: each gets half.
    for x in [20, 40, 59] {
        assert_eq!(c.rgb(x, 24), s.background.mix(s.velocity, 0.5), "x = {x}");
        assert_eq!(c.rgb(x, 25), s.background.mix(s.velocity, 0.5), "x = {x}");
    }
    assert_eq!(c.rgb(62, 25), s.background);
    assert_eq!(c.rgb(40, 22), s.background);
    // The ball itself keeps its colour (the line starts at its rim).
    assert_eq!(c.rgb(10, 24), s.ball);
}

#[test]
fn debug_trace_draws_the_swept_path_and_the_contact_normal() {
    // A closed 100 × 60 box; a ball of radius 5 at (80, 30) moving right at 1200 units/s:
    // in one step of 1/60 s it travels 20, hits the right wall (x = 95) after 15 and comes
    // back 5, to x = 90.
    let mut world = World::new(Vec2::new(100.0, 60.0), Walls::ALL, StepConfig::default()).unwrap();
    ball(&mut world, 80.0, 30.0, 1200.0, 0.0, 5.0);
    let id = world.balls().get(0).expect("a ball").id;
    let start = [(id, Vec2::new(80.0, 30.0))];
    world.step();
    let events: Vec<Event> = world.events().to_vec();
    let b = world.ball(id).unwrap();
    assert!((b.pos.x - 90.0).abs() < 1e-9);
    let trace = StepTrace {
        start: &start,
        events: &events,
        normal_length: 20.0,
    };
    // The path: start, the centre at the impact (95, 30), the end.
    let paths = swept_paths(&world, &trace);
    assert_eq!(paths.len(), 1);
    let pts = &paths[0].1;
    assert_eq!(pts.len(), 3);
    assert!((pts[1] - Vec2::new(95.0, 30.0)).length() < 1e-9, "{pts:?}");
    let mut frame = Frame::new(&world);
    frame.trace = Some(trace);
    let mut c = Canvas::new(200, 120).unwrap();
    let cam = Camera::new(2.0, Vec2::ZERO);
    let s = Style::default();
    render_frame(&frame, &cam, &s, &mut c);
    // The normal: from the contact (100, 30) to (80, 30), in pixels (200, 60) to (160, 60),
    // over the path (same line): rows 59 and 60 hold it, half each, normal over path. At
    // x = 165 the ball (centre 180 px, radius 10 px) is not in the way.
    let half = |under: Rgb, over: Rgb| under.mix(over, 0.5);
    let row59 = c.rgb(165, 59);
    assert_eq!(row59, half(half(s.background, s.path), s.normal));
    // The contact point: a dot at (200, 60) px, clipped to the world (x < 200): yellow.
    assert_eq!(c.rgb(199, 60), s.contact);
    // Without the trace: nothing of it.
    let c2 = paint(&Frame::new(&world), 200, 120);
    assert_ne!(c2.rgb(165, 59), row59);
}

#[test]
fn the_hud_has_its_text_on_a_translucent_panel() {
    let world = empty_world(200.0, 100.0);
    let lines = ["HI".to_owned(), "SCORE 10".to_owned()];
    let mut frame = Frame::new(&world);
    frame.hud = Some(Hud {
        lines: &lines,
        x: 10,
        y: 10,
        scale: 2,
    });
    let c = paint(&frame, 200, 100);
    let s = Style::default();
    let panel = s.background.mix(s.hud_panel, s.hud_panel_alpha);
    // 'H' at scale 2: its font pixel (col, row) covers (10 + 2 col, 10 + 2 row) and the next.
    let g = glyph('H');
    for (row, bits) in g.iter().enumerate() {
        for col in 0..GLYPH_PX {
            let want = if bits & (1 << col) != 0 {
                s.hud_text
            } else {
                panel
            };
            for (dx, dy) in [(0, 0), (1, 1)] {
                assert_eq!(c.rgb(10 + 2 * col + dx, 10 + 2 * row + dy), want);
            }
        }
    }
    // The second line starts 20 pixels lower; the panel reaches 4 pixels beyond the text:
    // "SCORE 10" is 8 · 16 = 128 wide, so the panel spans x 6..142, y 6..(10 + 20 + 16 + 4).
    assert_eq!(c.rgb(6, 6), panel);
    assert_eq!(c.rgb(141, 49), panel);
    assert_eq!(c.rgb(142, 20), s.background);
    assert_eq!(c.rgb(20, 50), s.background);
    let g = glyph('S');
    let first_set = g[0].trailing_zeros() as usize;
    assert_eq!(c.rgb(10 + 2 * first_set, 30), s.hud_text);
    // draw_hud alone paints the same over an existing frame.
    let mut c2 = paint(&Frame::new(&world), 200, 100);
    draw_hud(frame.hud.as_ref().unwrap(), &s, &mut c2);
    assert_eq!(c2, c);
}

#[test]
fn text_is_clipped_and_never_panics() {
    let mut c = Canvas::new(20, 10).unwrap();
    let clip = PixelRect {
        x0: 0,
        y0: 0,
        x1: 20,
        y1: 10,
    };
    // Far outside, huge scales, non-ASCII: no panic, width reported.
    assert_eq!(
        draw_text(&mut c, 15, 5, 3, "WIDE é", RED, &clip),
        text_width("WIDE é", 3)
    );
    assert_eq!(draw_text(&mut c, usize::MAX - 3, 5, 1, "X", RED, &clip), 8);
    assert_eq!(draw_text(&mut c, 0, 0, 0, "X", RED, &clip), 0);
    // Non-ASCII characters are '?'.
    assert_eq!(glyph('é'), glyph('?'));
}

#[test]
fn lines_split_their_coverage_and_stay_in_the_clip() {
    let mut c = Canvas::new(40, 40).unwrap();
    let clip = PixelRect {
        x0: 0,
        y0: 0,
        x1: 30,
        y1: 40,
    };
    // A horizontal line through pixel centres (y = 10.5) lights row 10 fully.
    draw_line(
        &mut c,
        Vec2::new(2.0, 10.5),
        Vec2::new(38.0, 10.5),
        RED,
        &clip,
    );
    assert_eq!(c.rgb(5, 10), RED);
    assert_eq!(c.rgb(5, 9), Rgb::BLACK);
    assert_eq!(c.rgb(5, 11), Rgb::BLACK);
    assert_eq!(c.rgb(29, 10), RED);
    assert_eq!(c.rgb(30, 10), Rgb::BLACK, "clipped at x = 30");
    // A diagonal: every column it crosses gets coverage summing to one pixel.
    let mut d = Canvas::new(40, 40).unwrap();
    draw_line(
        &mut d,
        Vec2::new(0.0, 0.0),
        Vec2::new(40.0, 20.0),
        Rgb::WHITE,
        &PixelRect {
            x0: 0,
            y0: 0,
            x1: 40,
            y1: 40,
        },
    );
    for x in 1..39 {
        let sum: u32 = (0..40).map(|y| u32::from(d.rgb(x, y).r)).sum();
        assert!((254..=256).contains(&sum), "x = {x}: {sum}");
    }
    // Non-finite ends draw nothing.
    let mut e = Canvas::new(4, 4).unwrap();
    draw_line(&mut e, Vec2::new(f64::NAN, 0.0), Vec2::ONE, RED, &clip);
    assert_eq!(e, Canvas::new(4, 4).unwrap());
}

#[test]
fn disc_stamps_equal_exact_discs_on_the_sixteenth_grid() {
    let mut rng = XorShift64Star::new(3);
    let clip = PixelRect {
        x0: 0,
        y0: 0,
        x1: 64,
        y1: 64,
    };
    let mut painter = DiscPainter::new();
    for _ in 0..300 {
        // Centres on the 1/16 pixel grid, radii from tiny to large, some near the edges.
        let c = Vec2::new(
            (rng.range_f64(-4.0, 68.0) * 16.0).round() / 16.0,
            (rng.range_f64(-4.0, 68.0) * 16.0).round() / 16.0,
        );
        let r = rng.range_f64(0.3, 12.0);
        let mut a = Canvas::new(64, 64).unwrap();
        let mut b = Canvas::new(64, 64).unwrap();
        painter.paint(&mut a, c, r, RED, &clip);
        draw_disc(&mut b, c, r, RED, &clip);
        assert_eq!(a, b, "c = {c}, r = {r}");
    }
}

#[test]
fn banded_ball_painting_equals_painting_one_ball_after_another() {
    // Many overlapping balls of several colours and radii on the 1/16 pixel grid: the banded
    // painter gives exactly the image of painting them in storage order over the whole view.
    let mut world = empty_world(300.0, 200.0);
    let mut rng = XorShift64Star::new(8);
    for _ in 0..2000 {
        let x = (rng.range_f64(-5.0, 305.0) * 16.0).round() / 16.0;
        let y = (rng.range_f64(-5.0, 205.0) * 16.0).round() / 16.0;
        let r = [1.0, 3.0, 7.5][(rng.next_u64() % 3) as usize];
        ball(&mut world, x, y, 0.0, 0.0, r);
    }
    let palette = [RED, GREEN, Rgb::new(0, 0, 255), Rgb::WHITE];
    let colour = |b: &Ball| palette[(b.id.index() % 4) as usize];
    let mut frame = Frame::new(&world);
    frame.ball_color = Some(&colour);
    let s = Style::default();
    let cam = Camera::default();
    let mut banded = Canvas::new(300, 200).unwrap();
    render_frame(&frame, &cam, &s, &mut banded);
    let mut plain = Canvas::new(300, 200).unwrap();
    render(&empty_world(300.0, 200.0), &cam, &s, &mut plain);
    let view = PixelRect {
        x0: 0,
        y0: 0,
        x1: 300,
        y1: 200,
    };
    for b in world.balls() {
        draw_disc(&mut plain, cam.to_pixel(b.pos), b.radius, colour(&b), &view);
    }
    assert_eq!(banded, plain);
}

#[test]
fn xrgb_blend_matches_rgb_mix() {
    let mut rng = XorShift64Star::new(4);
    for _ in 0..10_000 {
        let a = Rgb::from_xrgb(rng.next_u64() as u32);
        let b = Rgb::from_xrgb(rng.next_u64() as u32);
        let t = rng.next_f64() as f32;
        let mut buf = [a.to_xrgb()];
        let mut x = crate::Xrgb32Target::new(&mut buf, 1, 1).unwrap();
        x.blend(0, 0, b, t);
        assert_eq!(x.get(0, 0), a.mix(b, t), "{a:?} {b:?} {t}");
    }
}
