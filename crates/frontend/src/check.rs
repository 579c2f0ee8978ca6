//! Checks of a screenshot against what the game must show, used by CI on the real window's
//! frame: a level's cells in their colours at their places, the paddle, a ball.

use collide_core::Vec2;
use collide_game::{Game, Options, Source};
use collide_render::{brick_color, Style};
use collide_world::{Cell, CellCoord};

use crate::app::Layout;
use crate::image::RgbImage;

/// What [`check_level_start`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelCheck {
    /// Brick cells whose centre pixel has the brick's colour (all of them, or the check
    /// fails).
    pub bricks: usize,
    /// Wall cells whose centre pixel has the wall colour (all of them).
    pub walls: usize,
    /// Pixels of the paddle's colour on the pixel row through the paddle's centre.
    pub paddle_px: usize,
    /// Pixels of the ball colour inside the world's view.
    pub ball_px: usize,
}

/// Checks a frame of BricksBeater level `level` at its start (nothing launched, the paddle
/// where the pointer left it): the frame's layout is [`Layout::new`] for the image's size,
/// and
/// - every brick cell's centre pixel has its colour (`collide_render::brick_color`) and every
///   wall cell's centre pixel the wall colour;
/// - the pixel row through the paddle's centre holds at least 90 % of the paddle's width in
///   the paddle's colour (the paddle may be anywhere along it);
/// - at least 10 pixels of the ball colour lie inside the world's view (the ball waiting on
///   the paddle, of radius 3 units).
///
/// # Errors
/// A message naming the first thing that is wrong (cell, pixel, colour found and wanted).
pub fn check_level_start(img: &RgbImage, level: u8) -> Result<LevelCheck, String> {
    let game = Game::new(Source::Level(level), Options::default()).map_err(|e| e.to_string())?;
    let world = game.world();
    let layout = Layout::new(world.size(), img.width, img.height);
    let cam = layout.camera;
    let style = Style::default();
    let grid = world.grid().ok_or("the level has no grid")?;
    let (mut bricks, mut walls) = (0, 0);
    for row in 0..grid.rows() as u32 {
        for col in 0..grid.cols() as u32 {
            let c = CellCoord::new(col, row);
            let want = match grid.cell(c) {
                Cell::Empty => continue,
                Cell::Wall | Cell::Slope(_) => style.wall,
                Cell::Brick(k) => brick_color(k),
                Cell::Sensor(_) => style.sensor_rect,
            };
            // A slope is sampled inside its solid half, a quarter cell toward its corner.
            let square = grid.cell_aabb(c);
            let inside = grid.cell(c).slope().map_or(square.center(), |solid| {
                square.center() + solid.signs() * (0.25 * grid.cell_size())
            });
            let p = cam.to_pixel(inside);
            let (x, y) = (p.x.floor() as usize, p.y.floor() as usize);
            let got = img.rgb(x, y);
            if got != Some(want) {
                return Err(format!(
                    "cell ({col}, {row}) at pixel ({x}, {y}): {got:?}, want {want:?} ({:?})",
                    grid.cell(c)
                ));
            }
            match grid.cell(c) {
                Cell::Wall | Cell::Slope(_) => walls += 1,
                _ => bricks += 1,
            }
        }
    }
    let paddle = world
        .rect(game.breaker().ok_or("not a level")?.paddle())
        .ok_or("no paddle")?
        .aabb;
    let y = cam.to_pixel(Vec2::new(0.0, paddle.center().y)).y.floor() as usize;
    let paddle_px = (0..img.width)
        .filter(|&x| img.rgb(x, y) == Some(style.kinematic_rect))
        .count();
    let want_px = paddle.size().x * cam.scale * 0.9;
    if (paddle_px as f64) < want_px {
        return Err(format!(
            "paddle: {paddle_px} pixels of {:?} on row {y}, want at least {want_px:.0}",
            style.kinematic_rect
        ));
    }
    let view = cam.pixels_of(
        &collide_core::Aabb::new(Vec2::ZERO, world.size()),
        img.width,
        img.height,
    );
    let mut ball_px = 0;
    for y in view.y0..view.y1 {
        for x in view.x0..view.x1 {
            if img.rgb(x, y) == Some(style.ball) {
                ball_px += 1;
            }
        }
    }
    if ball_px < 10 {
        return Err(format!(
            "ball: {ball_px} pixels of {:?} in the world's view, want at least 10",
            style.ball
        ));
    }
    Ok(LevelCheck {
        bricks,
        walls,
        paddle_px,
        ball_px,
    })
}

/// What [`check_pinball_start`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PinballCheck {
    /// Bumpers (kicking circles) whose centre pixel has the bumper colour (all of them).
    pub bumpers: usize,
    /// Flippers whose core's midpoint pixel has the flipper colour (all of them).
    pub flippers: usize,
    /// Whether the plunger's centre pixel has the kinematic rectangles' colour.
    pub plunger: bool,
}

/// Checks a frame of the pinball table (`scenes/pinball.toml`) at its start (the flippers at
/// rest, nothing shot): in the layout of [`Layout::new`] for the image's size, every
/// bumper's centre pixel has [`Style::bumper`], the midpoint of every flipper's core (from
/// its pivot to its tip's centre, at its rest angle) has [`Style::flipper`], and the
/// plunger's centre pixel has [`Style::kinematic_rect`].
///
/// # Errors
/// A message naming the first thing that is wrong (which body, pixel, colour found and
/// wanted).
pub fn check_pinball_start(img: &RgbImage) -> Result<PinballCheck, String> {
    let source = Source::demo("pinball").map_err(|e| e.to_string())?;
    let game = Game::new(source, Options::default()).map_err(|e| e.to_string())?;
    let world = game.world();
    let pinball = game
        .pinball()
        .ok_or("the table is not played by the pinball rules")?;
    let cam = Layout::new(world.size(), img.width, img.height).camera;
    let style = Style::default();
    let at = |p: Vec2, want, what: &str| {
        let p = cam.to_pixel(p);
        let (x, y) = (p.x.floor() as usize, p.y.floor() as usize);
        let got = img.rgb(x, y);
        if got == Some(want) {
            Ok(())
        } else {
            Err(format!(
                "{what} at pixel ({x}, {y}): {got:?}, want {want:?}"
            ))
        }
    };
    let mut bumpers = 0;
    for s in world.shapes() {
        if let Some(c) = s.kind.disc() {
            if s.surface.restitution.is_some_and(|e| e > 1.0) && !s.surface.sensor {
                at(c.center, style.bumper, "bumper")?;
                bumpers += 1;
            }
        }
    }
    let mut flippers = 0;
    for f in world.flippers() {
        let d = &f.desc;
        let (sin, cos) = collide_core::sin_cos(d.rest_angle);
        let mid = d.pivot + Vec2::new(cos, sin) * (0.5 * d.length);
        at(mid, style.flipper, "flipper")?;
        flippers += 1;
    }
    let plunger = world
        .rect(pinball.plunger())
        .ok_or("no plunger")?
        .aabb
        .center();
    at(plunger, style.kinematic_rect, "plunger")?;
    Ok(PinballCheck {
        bumpers,
        flippers,
        plunger: true,
    })
}
