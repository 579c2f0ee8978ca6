//! The mirror of [`Scene`] that goes into the bytes: tuples and plain numbers (`[x, y]` for a
//! `Vec2`, `[min.x, min.y, max.x, max.y]` for an `Aabb`, `(layers, mask)` for a `Filter`),
//! and the two conversions, each destructuring every field.

use crate::WireError;
use collide_world::collide_core::{Segment, SegmentEnds};
use collide_world::{
    Aabb, BallDesc, Cell, Circle, ConvexPolygon, Corner, Filter, FlipperDesc, GridDesc,
    PolygonCorners, Real, RectDesc, RectKind, Scene, ShapeDesc, ShapeKind, SpawnDesc, StepConfig,
    Surface, Vec2, Walls,
};
use serde::{Deserialize, Serialize};

type V2 = [Real; 2];
type Bx = [Real; 4];
type Fl = (u32, u32);

/// A ball: position, velocity, radius, density, restitution, filter, gravity scale.
type WireBall = (V2, V2, Real, Real, Option<Real>, Fl, Real);
/// A rectangle: box, velocity, kind ([`rect_code`], plus [`ONE_WAY`] for a one-way platform),
/// density, restitution, filter.
type WireRect = (Bx, V2, u8, Real, Option<Real>, Fl);
/// The bit of a rectangle's kind code ([`rect_code`]) that marks a one-way platform.
const ONE_WAY: u8 = 8;
/// A flipper: pivot, length, radius, rest angle, active angle, angular speed, restitution,
/// filter.
type WireFlipper = (V2, Real, Real, Real, Real, Real, Option<Real>, Fl);
/// Random balls: count, radius, speed, density, seed, region, restitution, filter.
type WireSpawn = (u64, Real, Real, Real, u64, Option<Bx>, Option<Real>, Fl);
/// The step settings: dt, ball–ball, restitution, destructible bricks, events per body,
/// gravity, sleep.
type WireStep = (Real, bool, Real, bool, u32, V2, bool);

/// A static shape's geometry.
#[derive(Serialize, Deserialize)]
enum WireKind {
    /// Ends `a`, `b` and which ends are rounded caps (`SegmentEnds` bits).
    Segment(V2, V2, u8),
    /// Centre and radius.
    Circle(V2, Real),
    /// Vertices (as stored: counter-clockwise on the screen) and the corners that collide
    /// (`PolygonCorners` bits).
    Polygon(Vec<V2>, u8),
}

/// A static shape: geometry, restitution, filter, sensor, one-way.
type WireShape = (WireKind, Option<Real>, Fl, bool, bool);

/// The grid: cell side, origin, columns, rows, cells (see [`cell_code`]), wall and brick
/// restitution, wall, brick and sensor filters.
type WireGrid = (
    Real,
    V2,
    u64,
    u64,
    Vec<u16>,
    Option<Real>,
    Option<Real>,
    Fl,
    Fl,
    Fl,
);

/// The whole scene (after the version).
#[derive(Serialize, Deserialize)]
pub(crate) struct WireScene {
    name: String,
    size: V2,
    /// Bits left, top, right, bottom.
    walls: u8,
    grid: Option<WireGrid>,
    balls: Vec<WireBall>,
    rects: Vec<WireRect>,
    shapes: Vec<WireShape>,
    flippers: Vec<WireFlipper>,
    spawn: Option<WireSpawn>,
    step: WireStep,
}

fn v2(v: Vec2) -> V2 {
    [v.x, v.y]
}

fn bx(b: Aabb) -> Bx {
    [b.min.x, b.min.y, b.max.x, b.max.y]
}

fn fl(f: Filter) -> Fl {
    (f.layers, f.mask)
}

fn vec2(v: V2) -> Vec2 {
    Vec2::new(v[0], v[1])
}

fn aabb(b: Bx) -> Aabb {
    Aabb::new(Vec2::new(b[0], b[1]), Vec2::new(b[2], b[3]))
}

fn filter(f: Fl) -> Filter {
    Filter::new(f.0, f.1)
}

/// A cell as a number: 0 empty, 1 wall, 2 to 5 a slope solid at the top-left, top-right,
/// bottom-left, bottom-right corner, `256 + k` a brick of kind `k`, `512 + k` a sensor of
/// kind `k` (the codes of a world snapshot).
fn cell_code(c: Cell) -> u16 {
    match c {
        Cell::Empty => 0,
        Cell::Wall => 1,
        Cell::Slope(Corner::TopLeft) => 2,
        Cell::Slope(Corner::TopRight) => 3,
        Cell::Slope(Corner::BottomLeft) => 4,
        Cell::Slope(Corner::BottomRight) => 5,
        Cell::Brick(k) => 256 + u16::from(k),
        Cell::Sensor(k) => 512 + u16::from(k),
    }
}

/// The cell of a [`cell_code`], `None` for a number that is not one.
fn cell_of(code: u16) -> Option<Cell> {
    Some(match code {
        0 => Cell::Empty,
        1 => Cell::Wall,
        2 => Cell::Slope(Corner::TopLeft),
        3 => Cell::Slope(Corner::TopRight),
        4 => Cell::Slope(Corner::BottomLeft),
        5 => Cell::Slope(Corner::BottomRight),
        256..=511 => Cell::Brick((code - 256) as u8),
        512..=767 => Cell::Sensor((code - 512) as u8),
        _ => return None,
    })
}

/// A rectangle's kind and sensor flag as one number: 0 static, 1 kinematic, 2 dynamic,
/// 3 kinematic sensor, 4 static sensor.
fn rect_code(k: RectKind, sensor: bool) -> u8 {
    match (k, sensor) {
        (RectKind::Static, false) => 0,
        (RectKind::Kinematic, false) => 1,
        (RectKind::Dynamic, _) => 2,
        (RectKind::Kinematic, true) => 3,
        (RectKind::Static, true) => 4,
    }
}

/// `n` as a `usize`, or a [`WireError::Value`] naming `field` (a count beyond a 32-bit
/// target's address space).
fn count(n: u64, field: &str) -> Result<usize, WireError> {
    usize::try_from(n).map_err(|_| bad(field.to_owned(), n))
}

fn bad(field: String, value: u64) -> WireError {
    WireError::Value { field, value }
}

impl WireScene {
    /// The mirror of `scene`.
    pub(crate) fn of(scene: &Scene) -> WireScene {
        let Scene {
            name,
            size,
            walls,
            grid,
            balls,
            rects,
            shapes,
            flippers,
            spawn,
            step,
        } = scene;
        let Walls {
            left,
            top,
            right,
            bottom,
        } = *walls;
        let StepConfig {
            dt,
            ball_ball,
            restitution,
            destructible_bricks,
            max_events_per_body,
            gravity,
            sleep,
        } = *step;
        WireScene {
            name: name.clone(),
            size: v2(*size),
            walls: u8::from(left)
                | u8::from(top) << 1
                | u8::from(right) << 2
                | u8::from(bottom) << 3,
            grid: grid.as_ref().map(grid_of),
            balls: balls.iter().map(ball_of).collect(),
            rects: rects.iter().map(rect_of).collect(),
            shapes: shapes.iter().map(shape_of).collect(),
            flippers: flippers.iter().map(flipper_of).collect(),
            spawn: spawn.as_ref().map(spawn_of),
            step: (
                dt,
                ball_ball,
                restitution,
                destructible_bricks,
                max_events_per_body,
                v2(gravity),
                sleep,
            ),
        }
    }

    /// The scene this mirror describes.
    pub(crate) fn scene(self) -> Result<Scene, WireError> {
        let w = self.walls;
        if w > 0b1111 {
            return Err(bad("world.walls".to_owned(), u64::from(w)));
        }
        let (dt, ball_ball, restitution, destructible_bricks, max_events_per_body, g, sleep) =
            self.step;
        let grid = match self.grid {
            Some(g) => Some(grid(g)?),
            None => None,
        };
        let rects = (self.rects.into_iter().enumerate())
            .map(|(i, r)| rect(i, r))
            .collect::<Result<_, _>>()?;
        let shapes = (self.shapes.into_iter().enumerate())
            .map(|(i, s)| shape(i, s))
            .collect::<Result<_, _>>()?;
        let spawn = match self.spawn {
            Some(s) => Some(spawn(s)?),
            None => None,
        };
        Ok(Scene {
            name: self.name,
            size: vec2(self.size),
            walls: Walls {
                left: w & 1 != 0,
                top: w & 2 != 0,
                right: w & 4 != 0,
                bottom: w & 8 != 0,
            },
            grid,
            balls: self.balls.into_iter().map(ball).collect(),
            rects,
            shapes,
            flippers: self.flippers.into_iter().map(flipper).collect(),
            spawn,
            step: StepConfig {
                dt,
                ball_ball,
                restitution,
                destructible_bricks,
                max_events_per_body,
                gravity: vec2(g),
                sleep,
            },
        })
    }
}

fn grid_of(g: &GridDesc) -> WireGrid {
    let GridDesc {
        cell,
        origin,
        cols,
        rows,
        cells,
        wall_restitution,
        brick_restitution,
        wall_filter,
        brick_filter,
        sensor_filter,
    } = g;
    (
        *cell,
        v2(*origin),
        *cols as u64,
        *rows as u64,
        cells.iter().map(|&c| cell_code(c)).collect(),
        *wall_restitution,
        *brick_restitution,
        fl(*wall_filter),
        fl(*brick_filter),
        fl(*sensor_filter),
    )
}

fn grid(g: WireGrid) -> Result<GridDesc, WireError> {
    let (cell, origin, cols, rows, codes, wall_r, brick_r, wall_f, brick_f, sensor_f) = g;
    let cells = (codes.iter().enumerate())
        .map(|(i, &c)| cell_of(c).ok_or_else(|| bad(format!("grid.cells[{i}]"), u64::from(c))))
        .collect::<Result<_, _>>()?;
    Ok(GridDesc {
        cell,
        origin: vec2(origin),
        cols: count(cols, "grid.cols")?,
        rows: count(rows, "grid.rows")?,
        cells,
        wall_restitution: wall_r,
        brick_restitution: brick_r,
        wall_filter: filter(wall_f),
        brick_filter: filter(brick_f),
        sensor_filter: filter(sensor_f),
    })
}

fn ball_of(b: &BallDesc) -> WireBall {
    let BallDesc {
        pos,
        vel,
        radius,
        density,
        surface: Surface {
            restitution,
            filter,
            ..
        },
        gravity_scale,
    } = *b;
    (
        v2(pos),
        v2(vel),
        radius,
        density,
        restitution,
        fl(filter),
        gravity_scale,
    )
}

fn ball(b: WireBall) -> BallDesc {
    let (pos, vel, radius, density, restitution, f, gravity_scale) = b;
    BallDesc {
        pos: vec2(pos),
        vel: vec2(vel),
        radius,
        density,
        surface: Surface {
            restitution,
            filter: filter(f),
            ..Surface::DEFAULT
        },
        gravity_scale,
    }
}

fn rect_of(r: &RectDesc) -> WireRect {
    let RectDesc {
        aabb,
        vel,
        kind,
        density,
        surface:
            Surface {
                restitution,
                filter,
                sensor,
                one_way,
            },
    } = *r;
    (
        bx(aabb),
        v2(vel),
        rect_code(kind, sensor) | if one_way { ONE_WAY } else { 0 },
        density,
        restitution,
        fl(filter),
    )
}

fn rect(i: usize, r: WireRect) -> Result<RectDesc, WireError> {
    let (b, vel, code, density, restitution, f) = r;
    let one_way = code & ONE_WAY != 0;
    let (kind, sensor) = match code & !ONE_WAY {
        0 => (RectKind::Static, false),
        1 => (RectKind::Kinematic, false),
        2 => (RectKind::Dynamic, false),
        3 => (RectKind::Kinematic, true),
        4 => (RectKind::Static, true),
        _ => return Err(bad(format!("rect[{i}].kind"), u64::from(code))),
    };
    Ok(RectDesc {
        aabb: aabb(b),
        vel: vec2(vel),
        kind,
        density,
        surface: Surface {
            restitution,
            filter: filter(f),
            sensor,
            one_way,
        },
    })
}

fn shape_of(s: &ShapeDesc) -> WireShape {
    let ShapeDesc {
        kind,
        surface:
            Surface {
                restitution,
                filter,
                sensor,
                one_way,
            },
    } = *s;
    let kind = match kind {
        ShapeKind::Segment { segment, ends } => {
            WireKind::Segment(v2(segment.a), v2(segment.b), ends.0)
        }
        ShapeKind::Circle(c) => WireKind::Circle(v2(c.center), c.radius),
        ShapeKind::Polygon { polygon, corners } => WireKind::Polygon(
            polygon.vertices().iter().map(|&p| v2(p)).collect(),
            corners.0,
        ),
    };
    (kind, restitution, fl(filter), sensor, one_way)
}

fn shape(i: usize, s: WireShape) -> Result<ShapeDesc, WireError> {
    let (kind, restitution, f, sensor, one_way) = s;
    let kind = match kind {
        WireKind::Segment(a, b, ends) => ShapeKind::Segment {
            segment: Segment::new(vec2(a), vec2(b)),
            ends: SegmentEnds(ends),
        },
        WireKind::Circle(c, r) => ShapeKind::Circle(Circle::new(vec2(c), r)),
        WireKind::Polygon(points, corners) => {
            let points: Vec<Vec2> = points.into_iter().map(vec2).collect();
            // The vertices were stored counter-clockwise: `new` keeps them in that order.
            let polygon = ConvexPolygon::new(&points)
                .map_err(|_| bad(format!("shape[{i}].points"), points.len() as u64))?;
            ShapeKind::Polygon {
                polygon,
                corners: PolygonCorners(corners),
            }
        }
    };
    Ok(ShapeDesc {
        kind,
        surface: Surface {
            restitution,
            filter: filter(f),
            sensor,
            one_way,
        },
    })
}

fn flipper_of(f: &FlipperDesc) -> WireFlipper {
    let FlipperDesc {
        pivot,
        length,
        radius,
        rest_angle,
        active_angle,
        angular_speed,
        surface: Surface {
            restitution,
            filter,
            ..
        },
    } = *f;
    (
        v2(pivot),
        length,
        radius,
        rest_angle,
        active_angle,
        angular_speed,
        restitution,
        fl(filter),
    )
}

fn flipper(f: WireFlipper) -> FlipperDesc {
    let (pivot, length, radius, rest_angle, active_angle, angular_speed, restitution, fi) = f;
    FlipperDesc {
        pivot: vec2(pivot),
        length,
        radius,
        rest_angle,
        active_angle,
        angular_speed,
        surface: Surface {
            restitution,
            filter: filter(fi),
            ..Surface::DEFAULT
        },
    }
}

fn spawn_of(s: &SpawnDesc) -> WireSpawn {
    let SpawnDesc {
        count,
        radius,
        speed,
        density,
        seed,
        region,
        surface: Surface {
            restitution,
            filter,
            ..
        },
    } = *s;
    (
        count as u64,
        radius,
        speed,
        density,
        seed,
        region.map(bx),
        restitution,
        fl(filter),
    )
}

fn spawn(s: WireSpawn) -> Result<SpawnDesc, WireError> {
    let (n, radius, speed, density, seed, region, restitution, f) = s;
    Ok(SpawnDesc {
        count: count(n, "spawn.count")?,
        radius,
        speed,
        density,
        seed,
        region: region.map(aabb),
        surface: Surface {
            restitution,
            filter: filter(f),
            ..Surface::DEFAULT
        },
    })
}
