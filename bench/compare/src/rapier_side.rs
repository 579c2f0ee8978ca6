//! The rapier2d side (feature `rapier`): the same scene (the arena or the plinko board) in
//! `rapier2d-f64`.
//!
//! - Tiles: every solid cell of the collide grid is a cuboid collider on one fixed body
//!   (`--rapier-tiles cuboids`, default), or all of them are one `Voxels` shape
//!   (`--rapier-tiles voxels`, parry's answer to ghost collisions on tile maps).
//! - World box: four fixed cuboids 100 units thick just outside `[0, W] × [0, H]`.
//! - Balls: one dynamic body per collide ball with the same centre, velocity and radius,
//!   density 1 (so the same mass `π r²`), CCD enabled, sleeping disabled.
//! - Every collider: restitution 1 combined with `Max`, friction 0 combined with `Min`.
//! - The scene's gravity (0 in the arena, `(0, 981)` on the plinko board) and `dt` (1/60 s), rapier's other integration parameters at their
//!   defaults (length unit 1, 4 solver iterations, 1 CCD substep), except the velocity clamp:
//!   rapier caps every body's speed at `normalized_max_linear_velocity` (400 units/s by
//!   default), which would turn the 3000 units/s scene into a 400 units/s one; it is disabled
//!   (`Real::MAX`) unless `--rapier-velocity-clamp` is given.
//! - No `parallel` feature: rapier runs single-threaded.

use std::time::Instant;

use collide_core::Vec2;
use collide_world::{Grid, Scene};
use rapier2d_f64::prelude::*;

use crate::arena::BallState;

/// How the tiles are given to rapier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TileShape {
    /// One cuboid collider per solid cell.
    Cuboids,
    /// One `Voxels` collider holding every solid cell.
    Voxels,
}

/// Settings of the rapier side.
#[derive(Clone, Copy, Debug)]
pub struct RapierOptions {
    /// How the tiles are built.
    pub tiles: TileShape,
    /// Keep rapier's default velocity clamp (400 units/s).
    pub velocity_clamp: bool,
}

/// The rapier world of a scene and its ball bodies (in the order of `balls`).
pub struct RapierArena {
    world: PhysicsWorld,
    balls: Vec<RigidBodyHandle>,
}

fn v(p: Vec2) -> Vector {
    Vector::new(p.x, p.y)
}

fn surface(c: ColliderBuilder) -> ColliderBuilder {
    c.restitution(1.0)
        .restitution_combine_rule(CoefficientCombineRule::Max)
        .friction(0.0)
        .friction_combine_rule(CoefficientCombineRule::Min)
}

impl RapierArena {
    /// Builds the arena of `scene` (its grid and world box) holding `balls`.
    #[must_use]
    pub fn new(
        scene: &Scene,
        grid: Option<&Grid>,
        balls: &[BallState],
        opts: RapierOptions,
    ) -> Self {
        let mut world = PhysicsWorld {
            gravity: v(scene.step.gravity),
            ..PhysicsWorld::default()
        };
        world.integration_parameters.dt = scene.step.dt;
        if !opts.velocity_clamp {
            world.integration_parameters.normalized_max_linear_velocity = Real::MAX;
        }
        let ground = world.insert_body(RigidBodyBuilder::fixed());
        if let Some(g) = grid {
            let s = g.cell_size();
            let o = g.origin();
            match opts.tiles {
                TileShape::Cuboids => {
                    for row in 0..g.rows() {
                        for col in 0..g.cols() {
                            if g.cells()[row * g.cols() + col].is_solid() {
                                let c =
                                    o + Vec2::new((col as f64 + 0.5) * s, (row as f64 + 0.5) * s);
                                world.insert_collider(
                                    surface(
                                        ColliderBuilder::cuboid(s / 2.0, s / 2.0).translation(v(c)),
                                    ),
                                    Some(ground),
                                );
                            }
                        }
                    }
                }
                TileShape::Voxels => {
                    let mut keys = Vec::new();
                    for row in 0..g.rows() {
                        for col in 0..g.cols() {
                            if g.cells()[row * g.cols() + col].is_solid() {
                                keys.push(IVector::new(col as i64, row as i64));
                            }
                        }
                    }
                    if !keys.is_empty() {
                        world.insert_collider(
                            surface(
                                ColliderBuilder::voxels(Vector::splat(s), &keys).translation(v(o)),
                            ),
                            Some(ground),
                        );
                    }
                }
            }
        }
        // The world box: slabs 100 units thick outside each side, long enough to close the
        // corners.
        let (w, h, t) = (scene.size.x, scene.size.y, 100.0);
        for (centre, half) in [
            (
                Vec2::new(-t / 2.0, h / 2.0),
                Vec2::new(t / 2.0, h / 2.0 + t),
            ),
            (
                Vec2::new(w + t / 2.0, h / 2.0),
                Vec2::new(t / 2.0, h / 2.0 + t),
            ),
            (
                Vec2::new(w / 2.0, -t / 2.0),
                Vec2::new(w / 2.0 + t, t / 2.0),
            ),
            (
                Vec2::new(w / 2.0, h + t / 2.0),
                Vec2::new(w / 2.0 + t, t / 2.0),
            ),
        ] {
            world.insert_collider(
                surface(ColliderBuilder::cuboid(half.x, half.y).translation(v(centre))),
                Some(ground),
            );
        }
        let handles = balls
            .iter()
            .map(|b| {
                let body = RigidBodyBuilder::dynamic()
                    .translation(v(b.pos))
                    .linvel(v(b.vel))
                    .ccd_enabled(true)
                    .can_sleep(false);
                let density = b.mass / (std::f64::consts::PI * b.radius * b.radius);
                world
                    .insert(
                        body,
                        surface(ColliderBuilder::ball(b.radius).density(density)),
                    )
                    .0
            })
            .collect();
        RapierArena {
            world,
            balls: handles,
        }
    }

    /// The balls now (mass as rapier computed it).
    #[must_use]
    pub fn balls(&self, radii: &[BallState]) -> Vec<BallState> {
        self.balls
            .iter()
            .zip(radii)
            .map(|(h, b0)| {
                let rb = &self.world.bodies[*h];
                let p = rb.translation();
                let vel = rb.linvel();
                BallState {
                    pos: Vec2::new(p.x, p.y),
                    vel: Vec2::new(vel.x, vel.y),
                    radius: b0.radius,
                    mass: rb.mass(),
                }
            })
            .collect()
    }

    /// One `PhysicsWorld::step`, timed (milliseconds). A panic inside rapier (rapier2d-f64
    /// 0.36.1 once asserted `stale ContactRef manifold ordinal` on this scene) is caught and
    /// returned as the error; the world must not be stepped again then.
    ///
    /// # Errors
    /// The panic's message.
    pub fn step_timed(&mut self) -> Result<f64, String> {
        let t0 = Instant::now();
        let world = &mut self.world;
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| world.step()));
        let ms = t0.elapsed().as_secs_f64() * 1e3;
        r.map(|()| ms).map_err(|payload| {
            payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_else(|| "(no message)".to_owned())
        })
    }
}
