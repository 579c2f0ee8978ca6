//! The `step` target's logic (see `fuzz_targets/step.rs`), in the library so that a failing
//! input can be replayed and debugged outside libFuzzer.

use std::collections::BTreeSet;

use collide_core::{Aabb, Vec2};
/// The push-out tolerance of the world (1e-7 units, docs/algorithms.md "Push-out").
const EMBED_SLACK: f64 = 1e-7;
use collide_world::limits::MAX_COORD;
use collide_world::{
    Ball, BallDesc, BallId, Body, Cell, CellCoord, Event, Filter, GridDesc, RectDesc, RectKind,
    Scene, StepConfig, Surface, Walls, World,
};

/// Reads the fuzzer's bytes front to back; past the end every read is 0.
struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl Bytes<'_> {
    fn u8(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    fn u16(&mut self) -> u16 {
        u16::from(self.u8()) | u16::from(self.u8()) << 8
    }

    fn done(&self) -> bool {
        self.pos >= self.data.len()
    }

    /// A number in `[lo, hi]` (both within ±MAX_COORD), or one of the extreme values.
    fn num(&mut self, lo: f64, hi: f64) -> f64 {
        let sel = self.u8();
        let special = [0.0, 1e-9, 5e-324, MAX_COORD, -MAX_COORD, lo, hi, 0.5];
        if sel >= 240 {
            return special[usize::from(sel - 240) % special.len()].clamp(-MAX_COORD, MAX_COORD);
        }
        let f = f64::from(self.u16()) / f64::from(u16::MAX);
        lo + (hi - lo) * f
    }

    fn vec2(&mut self, lo: Vec2, hi: Vec2) -> Vec2 {
        Vec2::new(self.num(lo.x, hi.x), self.num(lo.y, hi.y))
    }
}

fn build(bytes: &mut Bytes) -> Option<World> {
    let flags = bytes.u8();
    let walls = Walls {
        left: flags & 1 != 0,
        top: flags & 2 != 0,
        right: flags & 4 != 0,
        bottom: flags & 8 != 0,
    };
    let size = Vec2::new(bytes.num(1.0, 1000.0), bytes.num(1.0, 1000.0));
    let dt = [1.0 / 60.0, 1.0 / 30.0, 1.0, 1e-6, 0.25][usize::from(bytes.u8()) % 5];
    let step = StepConfig {
        dt,
        ball_ball: flags & 16 != 0,
        restitution: if flags & 32 != 0 {
            1.0
        } else {
            bytes.num(0.0, 1.0)
        },
        destructible_bricks: flags & 64 != 0,
        max_events_per_body: u32::from(bytes.u8() % 64) + 1,
        // Straight paths only: the invariants checked below (energy, for one) are those of a
        // world without gravity.
        gravity: Vec2::ZERO,
        ..StepConfig::default()
    };
    let speed = size.max_element() / dt * 2.0;
    let grid = if flags & 128 != 0 {
        let cols = usize::from(bytes.u8() % 16) + 1;
        let rows = usize::from(bytes.u8() % 16) + 1;
        // Cells from 0.01 to 64 units and balls of any size: a ball much larger than the
        // grid's cells made every sweep scan `(2r / cell)` chunks of up to all the cells
        // (finding F5 of `docs/reliability.md`, fixed since); the bounds that kept the
        // fuzzer away from it (cells >= 0.5, balls <= 64 cells) were lifted after the fix.
        let cell = bytes.num(0.01, 64.0).abs().clamp(0.01, 64.0);
        let origin = bytes.vec2(-size * 0.25, size * 0.5);
        let mut cells = Vec::with_capacity(cols * rows);
        while cells.len() < cols * rows {
            let b = bytes.u8();
            for k in 0..4 {
                cells.push(match (b >> (2 * k)) & 3 {
                    0 | 1 => Cell::Empty,
                    2 => Cell::Wall,
                    _ => Cell::Brick(b'R'),
                });
            }
        }
        cells.truncate(cols * rows);
        Some(GridDesc {
            cell,
            origin,
            cols,
            rows,
            cells,
            wall_restitution: None,
            brick_restitution: None,
            wall_filter: Filter::DEFAULT,
            brick_filter: Filter::DEFAULT,
            sensor_filter: Filter::DEFAULT,
        })
    } else {
        None
    };
    let max_radius = MAX_COORD;
    let mut world = World::from_scene(&Scene {
        size,
        walls,
        grid,
        step,
        ..Scene::default()
    })
    .ok()?;
    let lo = -size * 0.25;
    let hi = size * 1.25;
    for _ in 0..bytes.u8() % 5 {
        let kind =
            [RectKind::Static, RectKind::Kinematic, RectKind::Dynamic][usize::from(bytes.u8()) % 3];
        let min = bytes.vec2(lo, hi);
        let ext = bytes.vec2(Vec2::ZERO, size * 0.5);
        let vel = bytes.vec2(Vec2::splat(-speed), Vec2::splat(speed));
        let density = bytes.num(0.0, 10.0).abs();
        let _ = world.add_rect(RectDesc {
            aabb: Aabb::new(min, min + ext.abs()),
            vel,
            kind,
            density,
            surface: Surface::DEFAULT,
        });
    }
    for _ in 0..bytes.u8() % 17 {
        let pos = bytes.vec2(lo, hi);
        let vel = bytes.vec2(Vec2::splat(-speed), Vec2::splat(speed));
        let radius = bytes
            .num(0.0, size.min_element() * 0.5)
            .abs()
            .min(max_radius);
        let density = bytes.num(0.0, 10.0).abs();
        let _ = world.add_ball(BallDesc {
            pos,
            vel,
            radius,
            density,
            ..BallDesc::default()
        });
    }
    Some(world)
}

/// Builds the world the bytes describe and steps it, panicking when an invariant fails.
pub fn run(data: &[u8]) {
    replay(data, &mut |_, _| {});
}

/// As [`run`], calling `log(world, steps_taken)` after the world is built and after every step
/// (before the checks): for debugging a failing input.
pub fn replay(data: &[u8], log: &mut dyn FnMut(&World, u32)) {
    let mut bytes = Bytes { data, pos: 0 };
    let Some(mut world) = build(&mut bytes) else {
        return;
    };
    let mut alive: BTreeSet<_> = world.balls().iter().map(|b| b.id).collect();
    log(&world, 0);
    let steps = bytes.u8() % 51;
    let mut still_stranded = BTreeSet::new();
    for k in 0..steps {
        // A game's part between steps.
        match bytes.u8() % 8 {
            0 => {
                if let Some(r) = world.rects().first().copied() {
                    let v = bytes.vec2(Vec2::splat(-1e4), Vec2::splat(1e4));
                    let _ = world.set_rect_velocity(r.id, v);
                }
            }
            1 => {
                let c = CellCoord::new(u32::from(bytes.u8() % 16), u32::from(bytes.u8() % 16));
                let cell =
                    [Cell::Empty, Cell::Wall, Cell::Brick(b'G')][usize::from(bytes.u8()) % 3];
                world.set_cell(c, cell);
            }
            2 => {
                if let Some(b) = world.balls().next() {
                    let p = bytes.vec2(Vec2::ZERO, world.size());
                    let _ = world.set_ball_position(b.id, p);
                }
            }
            _ => {}
        }
        // Stranded candidates: balls beyond a closed wall now, and those still behind one since a
        // push-out last found no place for them. The second part matters because `outside`'s
        // rounding allowance grows with the speed: a ball that stayed stranded while a collision
        // slowed it must not start to count as having escaped.
        let stranded_since: BTreeSet<BallId> = world
            .balls()
            .filter(|b| {
                outside(&world, b) || still_stranded.contains(&b.id) && behind_a_wall(&world, b)
            })
            .map(|b| b.id)
            .collect();
        let mut stranded = stranded_since;
        world.step();
        log(&world, u32::from(k) + 1);
        for e in world.events() {
            if let Event::Unembedded {
                body: Body::Ball(id),
                ..
            } = e
            {
                stranded.remove(id);
            }
        }
        for e in world.events() {
            if let Event::BallLost { ball, .. } = e {
                assert!(
                    alive.remove(ball),
                    "ball {ball:?} lost twice or never added"
                );
            }
        }
        let now: BTreeSet<_> = world.balls().iter().map(|b| b.id).collect();
        assert_eq!(now, alive, "a ball vanished without a BallLost event");
        check(&world, &stranded);
        still_stranded = stranded
            .into_iter()
            .filter(|id| world.ball(*id).is_some_and(|b| behind_a_wall(&world, &b)))
            .collect();
        if bytes.done() && world.balls().is_empty() {
            break;
        }
    }
}

/// Checks what must hold after every step. `stranded`: balls that started the step outside a
/// closed wall (or behind one and stranded since an earlier step) and were not pushed back (no
/// `Unembedded` event): the push-out found no free place for them at all (the world is full),
/// so only their finiteness is checked.
fn check(world: &World, stranded: &BTreeSet<BallId>) {
    for r in world.rects() {
        assert!(
            r.aabb.min.is_finite() && r.aabb.max.is_finite() && r.vel.is_finite(),
            "{r:?}"
        );
    }
    for b in world.balls() {
        assert!(b.pos.is_finite() && b.vel.is_finite(), "{b:?}");
        if !stranded.contains(&b.id) {
            assert!(
                !outside(world, &b),
                "{b:?} outside the closed walls {:?} of {}",
                world.walls(),
                world.size()
            );
        }
    }
}

/// Whether the ball's centre is beyond a closed wall, for a ball that fits in the world, by
/// more than the push-out's tolerance (`EMBED_SLACK`, 1e-7: a point ball squeezed between a
/// wall and a body may rest that far behind it) plus the rounding of a position computed as
/// `anchor + vel * (time - anchor time)` (relative 1e-12 of the distances involved, ~1e4
/// ulps).
fn outside(world: &World, b: &Ball) -> bool {
    beyond(world, b, outside_tolerance(world, b))
}

/// Whether the ball's centre is beyond a closed wall at all (no tolerance), for a ball that fits.
fn behind_a_wall(world: &World, b: &Ball) -> bool {
    beyond(world, b, 0.0)
}

/// `outside`'s allowance: the push-out's slack plus the rounding of a derived position.
fn outside_tolerance(world: &World, b: &Ball) -> f64 {
    let size = world.size();
    let dt = world.config().dt;
    EMBED_SLACK + 1e-12 * (size.max_element() + b.vel.length() * (world.time() + dt))
}

/// Whether the centre of `b` (which must fit in the world along that axis) is more than `tol`
/// beyond a closed wall.
fn beyond(world: &World, b: &Ball, tol: f64) -> bool {
    let size = world.size();
    let walls = world.walls();
    let fits_x = 2.0 * b.radius <= size.x;
    let fits_y = 2.0 * b.radius <= size.y;
    fits_x && walls.left && b.pos.x < -tol
        || fits_x && walls.right && b.pos.x > size.x + tol
        || fits_y && walls.top && b.pos.y < -tol
        || fits_y && walls.bottom && b.pos.y > size.y + tol
}
