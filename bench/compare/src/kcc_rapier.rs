//! rapier2d's `KinematicCharacterController` on the character scenes (feature `rapier`).
//!
//! The level is a `PhysicsWorld` holding fixed colliders only, built the way a rapier user
//! builds a tile map ([`Ground`]); the character is a 12 × 20 cuboid shape moved by
//! `KinematicCharacterController::move_shape` against the world's `QueryPipeline`, its pose
//! advanced by the returned translation. Same axes as collide: y down, so the controller's
//! `up` is `(0, -1)` and gravity `(0, GRAVITY)`. The game's vertical velocity is 0 while the
//! controller reports the character grounded and gains `GRAVITY · DT` per frame otherwise;
//! each frame asks for `(vx·DT, vy·DT + ½·GRAVITY·DT²)`, the motion collide's step makes
//! under gravity.

use std::time::Instant;

use collide_core::Vec2;
use rapier2d_f64::control::{CharacterLength, KinematicCharacterController};
use rapier2d_f64::prelude::*;

use crate::kcc::{
    self, Frame, Mover, SceneId, CELL, DT, GRAVITY, HALF, MAX_SLOPE_DEG, SNAP, START_X,
};

/// How the level's geometry is given to rapier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ground {
    /// One collider per solid tile: a cuboid per square cell, a triangle per slope cell
    /// (wound counter-clockwise).
    Tiles,
    /// One `Voxels` shape holding every square cell (parry's answer to ghost collisions on
    /// tile maps; square cells only).
    Voxels,
    /// One polyline along the ground's outline.
    Polyline,
}

impl Ground {
    /// How the table names it.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Ground::Tiles => "one collider per tile",
            Ground::Voxels => "one voxels shape",
            Ground::Polyline => "one polyline",
        }
    }
}

fn v(p: Vec2) -> Vector {
    Vector::new(p.x, p.y)
}

/// The controller's settings: rapier's defaults (offset `Relative(0.01)`, slide on,
/// autostep off, normal nudge 1e-4) with `up = (0, -1)`, climb and slide angles of
/// `MAX_SLOPE_DEG` and snap to ground `Absolute(SNAP)`.
#[must_use]
pub fn controller() -> KinematicCharacterController {
    KinematicCharacterController {
        up: Vector::new(0.0, -1.0),
        max_slope_climb_angle: MAX_SLOPE_DEG.to_radians(),
        min_slope_slide_angle: MAX_SLOPE_DEG.to_radians(),
        snap_to_ground: Some(CharacterLength::Absolute(SNAP)),
        ..KinematicCharacterController::default()
    }
}

/// The controller's offset (skin gap) for the character, world units.
#[must_use]
pub fn offset() -> f64 {
    match controller().offset {
        CharacterLength::Absolute(x) => x,
        CharacterLength::Relative(r) => r * 2.0 * HALF.y,
    }
}

/// The fixed colliders of `scene` as `ground` describes.
fn build_level(scene: SceneId, ground: Ground) -> Result<PhysicsWorld, String> {
    let mut world = PhysicsWorld::default();
    let body = world.insert_body(RigidBodyBuilder::fixed());
    let rows = scene.rows();
    let cells = rows.iter().enumerate().flat_map(|(r, row)| {
        row.bytes()
            .enumerate()
            .filter(|&(_, b)| b != b' ')
            .map(move |(c, b)| (c, r, b))
    });
    let corner = |c: usize, r: usize| Vec2::new(c as f64 * CELL, r as f64 * CELL);
    match ground {
        Ground::Tiles => {
            for (c, r, b) in cells {
                let (p0, p1) = (corner(c, r), corner(c + 1, r + 1));
                let tl = p0;
                let tr = Vec2::new(p1.x, p0.y);
                let bl = Vec2::new(p0.x, p1.y);
                let br = p1;
                let collider = match b {
                    b'#' => ColliderBuilder::cuboid(CELL / 2.0, CELL / 2.0)
                        .translation(v((p0 + p1) * 0.5)),
                    // Solid below the rising diagonal (lower right half). Wound
                    // counter-clockwise (positive signed area), as parry expects: wound the
                    // other way, the character stops at the foot of the ramp.
                    b'3' => ColliderBuilder::triangle(v(bl), v(tr), v(br)),
                    // Solid below the falling diagonal (lower left half).
                    b'1' => ColliderBuilder::triangle(v(bl), v(tl), v(br)),
                    other => return Err(format!("no rapier tile for `{}`", other as char)),
                };
                world.insert_collider(collider, Some(body));
            }
        }
        Ground::Voxels => {
            let mut keys = Vec::new();
            for (c, r, b) in cells {
                if b != b'#' {
                    return Err("voxels hold square cells only".into());
                }
                keys.push(IVector::new(c as i64, r as i64));
            }
            world.insert_collider(
                ColliderBuilder::voxels(Vector::splat(CELL), &keys),
                Some(body),
            );
        }
        Ground::Polyline => {
            let pts = match scene {
                SceneId::Ramp => kcc::ramp_outline(),
                SceneId::Seam => {
                    let y = kcc::seam_floor_top();
                    vec![Vec2::new(0.0, y), Vec2::new(rows[0].len() as f64 * CELL, y)]
                }
            };
            world.insert_collider(
                ColliderBuilder::polyline(pts.into_iter().map(v).collect(), None),
                Some(body),
            );
        }
    }
    // One step fills the broad phase the query pipeline reads.
    world.step();
    Ok(world)
}

/// The rapier character on a level.
pub struct RapierMover {
    world: PhysicsWorld,
    controller: KinematicCharacterController,
    shape: Cuboid,
    pose: Pose,
    vy: f64,
}

impl RapierMover {
    /// The character standing at `START_X` on `scene`'s floor, `offset()` above it.
    ///
    /// # Errors
    /// A level rapier cannot be given as `ground` asks.
    pub fn new(scene: SceneId, ground: Ground) -> Result<RapierMover, String> {
        Ok(RapierMover {
            world: build_level(scene, ground)?,
            controller: controller(),
            shape: Cuboid::new(Vector::new(HALF.x, HALF.y)),
            pose: Pose::from_translation(Vector::new(
                START_X,
                scene.floor_top() - HALF.y - offset(),
            )),
            vy: 0.0,
        })
    }
}

impl Mover for RapierMover {
    fn frame(&mut self, vx: f64) -> Frame {
        let desired = Vector::new(vx * DT, self.vy * DT + 0.5 * GRAVITY * DT * DT);
        let t0 = Instant::now();
        let m = self.controller.move_shape(
            DT,
            &self.world.query_pipeline(),
            &self.shape,
            &self.pose,
            desired,
            |_| {},
        );
        self.pose.translation += m.translation;
        let ms = t0.elapsed().as_secs_f64() * 1e3;
        self.vy = if m.grounded {
            0.0
        } else {
            self.vy + GRAVITY * DT
        };
        let p = self.pose.translation;
        Frame {
            pos: Vec2::new(p.x, p.y),
            grounded: m.grounded,
            ms,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The setup is one a rapier user gets working: on both ramp grounds rapier's character
    /// climbs to the plateau (top y = 48) and walks on it, hovering at its offset.
    #[test]
    fn rapier_climbs_the_ramp_on_both_grounds() {
        for g in [Ground::Tiles, Ground::Polyline] {
            let mut m = RapierMover::new(SceneId::Ramp, g).unwrap();
            let mut last = None;
            for _ in 0..200 {
                last = Some(m.frame(120.0));
            }
            let f = last.unwrap();
            assert!(f.pos.x > 260.0 && f.pos.x < 400.0, "{g:?}: at {:?}", f.pos);
            let bottom = f.pos.y + HALF.y;
            assert!(f.grounded, "{g:?}");
            assert!(
                (bottom - (48.0 - offset())).abs() < 0.01,
                "{g:?}: bottom {bottom}"
            );
        }
    }
}
