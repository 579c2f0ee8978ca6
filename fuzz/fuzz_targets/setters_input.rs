//! The logic of the fuzz target `setters`, shared with `tests/it/entry_points.rs` (which runs
//! it on random inputs with proptest, on a stable compiler): every entry point of the world's
//! API given the values a fuzzer finds, huge and odd ones drawn often.
//!
//! The bytes are read as a world (`World::new` with a size and step settings), then up to 64
//! operations: `add_ball`, `set_ball_velocity`, `set_ball_position`, `add_rect`,
//! `set_rect_velocity`, `set_rect_aabb`, `set_config`, a removal, or a step (at most 4). Every
//! number is an ordinary one, one of the odd values of [`ODD`] (0, −0, subnormals, ±1e9 and
//! the next value past it, 1e155 whose square overflows, 1e200, ±`f64::MAX`, infinities, NaN)
//! or an arbitrary bit pattern.
//!
//! Checked: no panic; a refused value is refused with the field of that entry point (`pos`,
//! `vel`, `radius`, `density`, `min`, `max`, `min/max`, `world.size`, `step.*`) and a value
//! accepted is one that `collide_world::limits::Bound` accepts (the scene format's limits);
//! after every step every ball and rectangle is finite. A step that never ends shows as a
//! timeout (libFuzzer's `-timeout`, the test's deadline).

use collide_world::limits::{Bound, MAX_EVENTS_PER_BODY};
use collide_world::{
    Aabb, BallDesc, BallId, RectDesc, RectId, RectKind, StepConfig, Surface, Vec2, Walls, World,
    WorldError,
};

/// Values drawn often: the edges of the bounds and what lies just past them.
pub const ODD: [f64; 20] = [
    0.0,
    -0.0,
    5e-324,
    1e-300,
    1.0,
    3.0,
    100.0,
    1e9,
    -1e9,
    1.000_000_000_000_000_2e9,
    2e9,
    1e155,
    -1e155,
    1e200,
    f64::MAX,
    -f64::MAX,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
    0.5,
];

/// The fuzzer's bytes, read front to back; zeros once they run out.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn u8(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// A number: an ordinary one (5 in 8: most operations then pass and the world gets
    /// bodies to step), an odd value of [`ODD`] (1 in 4), or an arbitrary bit pattern.
    fn real(&mut self) -> f64 {
        let k = self.u8();
        match k % 8 {
            0 | 1 => ODD[usize::from(self.u8()) % ODD.len()],
            2 => {
                let mut b = [0u8; 8];
                for x in &mut b {
                    *x = self.u8();
                }
                f64::from_le_bytes(b)
            }
            _ => f64::from(self.u8()) * 4.0 - 64.0 * f64::from(k >> 7),
        }
    }

    fn vec2(&mut self) -> Vec2 {
        Vec2::new(self.real(), self.real())
    }
}

/// What a refusal must name.
fn field_of(e: &WorldError) -> Option<&'static str> {
    match e {
        WorldError::BadBall { field, .. }
        | WorldError::BadRect { field, .. }
        | WorldError::BadSetting { field, .. } => Some(field),
        _ => None,
    }
}

fn coord_ok(v: Vec2) -> bool {
    Bound::Coord.contains(v.x) && Bound::Coord.contains(v.y)
}

fn aabb_ok(a: &Aabb) -> bool {
    coord_ok(a.min) && coord_ok(a.max) && a.min.x <= a.max.x && a.min.y <= a.max.y
}

fn config_ok(c: &StepConfig) -> bool {
    Bound::Positive.contains(c.dt)
        && Bound::Unit.contains(c.restitution)
        && Bound::Coord.contains(c.gravity.x)
        && Bound::Coord.contains(c.gravity.y)
        && (1..=MAX_EVENTS_PER_BODY).contains(&c.max_events_per_body)
}

/// Checks a setter's result: accepted exactly when the bounds accept, refused naming one of
/// `fields`.
fn check<T>(what: &str, r: &Result<T, WorldError>, valid: bool, fields: &[&str]) {
    match r {
        Ok(_) => assert!(valid, "{what}: accepted a value out of bounds"),
        Err(WorldError::NoSuchBody(_)) => {}
        Err(e) => {
            assert!(!valid, "{what}: refused a valid value: {e}");
            let f = field_of(e);
            assert!(
                f.is_some_and(|f| fields.contains(&f)),
                "{what}: refused naming {f:?}, expected one of {fields:?}: {e}"
            );
        }
    }
}

fn config(b: &mut Bytes<'_>) -> StepConfig {
    let k = b.u8();
    StepConfig {
        dt: if k & 1 == 0 { b.real() } else { 1.0 / 60.0 },
        ball_ball: k & 2 == 0,
        restitution: if k & 4 == 0 { b.real() } else { 1.0 },
        destructible_bricks: k & 8 == 0,
        max_events_per_body: match b.u8() % 4 {
            0 => 0,
            1 => MAX_EVENTS_PER_BODY + 1,
            2 => u32::from(b.u8()) + 1,
            _ => 64,
        },
        gravity: if k & 16 == 0 {
            Vec2::new(b.real(), b.real())
        } else {
            Vec2::ZERO
        },
        sleep: k & 32 == 0,
    }
}

/// Runs one input (see the module docs). Panics on a broken check.
pub fn run(data: &[u8]) {
    let mut b = Bytes(data);
    let size = if b.u8() & 1 == 0 {
        b.vec2()
    } else {
        Vec2::new(640.0, 480.0)
    };
    let cfg = config(&mut b);
    let walls = match b.u8() % 3 {
        0 => Walls::ALL,
        1 => Walls::OPEN_BOTTOM,
        _ => Walls::NONE,
    };
    let valid = Bound::Positive.contains(size.x) && Bound::Positive.contains(size.y);
    let r = World::new(size, walls, cfg);
    check(
        "World::new",
        &r,
        valid && config_ok(&cfg),
        &[
            "world.size",
            "step.dt",
            "step.restitution",
            "step.max_events_per_body",
            "step.gravity",
        ],
    );
    let mut world = match r {
        Ok(w) => w,
        Err(_) => World::new(Vec2::new(640.0, 480.0), walls, StepConfig::default())
            .expect("the default world is valid"),
    };
    let mut balls: Vec<BallId> = Vec::new();
    let mut rects: Vec<RectId> = Vec::new();
    let mut steps = 0;
    for _ in 0..64 {
        if b.is_empty() {
            break;
        }
        let op = b.u8() % 10;
        let pick = usize::from(b.u8());
        match op {
            0 if balls.len() < 8 => {
                let d = BallDesc {
                    pos: b.vec2(),
                    vel: b.vec2(),
                    radius: b.real(),
                    density: b.real(),
                    surface: Surface::DEFAULT,
                    gravity_scale: 1.0,
                };
                let valid = coord_ok(d.pos)
                    && coord_ok(d.vel)
                    && Bound::NonNeg.contains(d.radius)
                    && Bound::NonNeg.contains(d.density);
                let r = world.add_ball(d);
                check("add_ball", &r, valid, &["pos", "vel", "radius", "density"]);
                balls.extend(r.ok());
            }
            1 if !balls.is_empty() => {
                let v = b.vec2();
                let r = world.set_ball_velocity(balls[pick % balls.len()], v);
                check("set_ball_velocity", &r, coord_ok(v), &["vel"]);
            }
            2 if !balls.is_empty() => {
                let p = b.vec2();
                let r = world.set_ball_position(balls[pick % balls.len()], p);
                check("set_ball_position", &r, coord_ok(p), &["pos"]);
            }
            3 if rects.len() < 4 => {
                let kind = match pick % 3 {
                    0 => RectKind::Static,
                    1 => RectKind::Kinematic,
                    _ => RectKind::Dynamic,
                };
                let min = b.vec2();
                let d = RectDesc {
                    aabb: Aabb::new(min, min + b.vec2()),
                    vel: b.vec2(),
                    kind,
                    density: b.real(),
                    surface: Surface::DEFAULT,
                };
                let valid =
                    aabb_ok(&d.aabb) && coord_ok(d.vel) && Bound::NonNeg.contains(d.density);
                let r = world.add_rect(d);
                check(
                    "add_rect",
                    &r,
                    valid,
                    &["min", "max", "min/max", "vel", "density"],
                );
                rects.extend(r.ok());
            }
            4 if !rects.is_empty() => {
                let id = rects[pick % rects.len()];
                let v = b.vec2();
                let is_static = world.rect(id).is_some_and(|r| r.kind == RectKind::Static);
                let r = world.set_rect_velocity(id, v);
                check("set_rect_velocity", &r, coord_ok(v) && !is_static, &["vel"]);
            }
            5 if !rects.is_empty() => {
                let min = b.vec2();
                let aabb = Aabb::new(min, min + b.vec2());
                let r = world.set_rect_aabb(rects[pick % rects.len()], aabb);
                check(
                    "set_rect_aabb",
                    &r,
                    aabb_ok(&aabb),
                    &["min", "max", "min/max"],
                );
            }
            6 => {
                let c = config(&mut b);
                let r = world.set_config(c);
                check(
                    "set_config",
                    &r,
                    config_ok(&c),
                    &[
                        "step.dt",
                        "step.restitution",
                        "step.max_events_per_body",
                        "step.gravity",
                    ],
                );
            }
            7 if !balls.is_empty() && pick % 4 == 0 => {
                let id = balls.swap_remove(pick % balls.len());
                world.remove_ball(id);
            }
            8 if !rects.is_empty() && pick % 4 == 0 => {
                let id = rects.swap_remove(pick % rects.len());
                world.remove_rect(id);
            }
            9 if steps < 4 => {
                steps += 1;
                world.step();
                for ball in world.balls() {
                    assert!(
                        ball.pos.is_finite() && ball.vel.is_finite(),
                        "ball not finite after a step: {ball:?}"
                    );
                }
                for r in world.rects() {
                    assert!(
                        r.aabb.min.is_finite() && r.aabb.max.is_finite() && r.vel.is_finite(),
                        "rect not finite after a step: {r:?}"
                    );
                }
                balls.retain(|&id| world.ball(id).is_some());
            }
            _ => {}
        }
    }
}
