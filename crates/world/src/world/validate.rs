//! The checks of a world's inputs: settings, a ball's and a rectangle's description, each
//! refusing with a [`WorldError`] that names the field.

use crate::model::desc::{BallDesc, RectDesc, RectKind, StepConfig};
use crate::model::error::WorldError;
use crate::model::limits::{self, Bound, OutOfBounds};
use collide_core::{Aabb, Vec2};

/// Checks step settings with the scene format's bounds ([`Bound`]).
pub(crate) fn validate_config(c: &StepConfig) -> Result<(), WorldError> {
    Bound::Positive
        .check(c.dt)
        .map_err(|e| WorldError::BadSetting {
            field: "step.dt",
            problem: e.to_string(),
        })?;
    Bound::Unit
        .check(c.restitution)
        .map_err(|e| WorldError::BadSetting {
            field: "step.restitution",
            problem: e.to_string(),
        })?;
    limits::check_count(c.max_events_per_body, 1, limits::MAX_EVENTS_PER_BODY).map_err(
        |problem| WorldError::BadSetting {
            field: "step.max_events_per_body",
            problem,
        },
    )?;
    Bound::Coord
        .check_vec2(c.gravity)
        .map_err(|e| WorldError::BadSetting {
            field: "step.gravity",
            problem: vec2_problem(e, c.gravity),
        })?;
    Ok(())
}

/// What is wrong with a vector, naming its component: `x: expected ..., found 1e200`.
pub(crate) fn vec2_problem(e: OutOfBounds, v: Vec2) -> String {
    let axis = if Bound::contains(e.bound, v.x) {
        "y"
    } else {
        "x"
    };
    format!("{axis}: {e}")
}

/// A ball vector (`pos` or `vel`) within [`Bound::Coord`].
pub(crate) fn check_ball_vec2(field: &'static str, v: Vec2) -> Result<(), WorldError> {
    Bound::Coord
        .check_vec2(v)
        .map(|_| ())
        .map_err(|e| WorldError::BadBall {
            field,
            problem: vec2_problem(e, v),
        })
}

/// Checks a ball with the scene format's bounds ([`Bound`]).
pub(crate) fn validate_ball(b: &BallDesc) -> Result<(), WorldError> {
    if b.surface.sensor {
        return Err(WorldError::BadBall {
            field: "surface.sensor",
            problem: "a ball cannot be a sensor (a sensor is a static or kinematic rectangle \
                      or a circle shape)"
                .to_string(),
        });
    }
    if b.surface.one_way {
        return Err(WorldError::BadBall {
            field: "surface.one_way",
            problem: "a ball cannot be a one-way platform (a one-way platform is a static or \
                      kinematic rectangle or a static shape)"
                .to_string(),
        });
    }
    check_ball_vec2("pos", b.pos)?;
    check_ball_vec2("vel", b.vel)?;
    for (field, v) in [("radius", b.radius), ("density", b.density)] {
        Bound::NonNeg.check(v).map_err(|e| WorldError::BadBall {
            field,
            problem: e.to_string(),
        })?;
    }
    crate::model::material::check(b.surface.restitution).map_err(|e| WorldError::BadBall {
        field: "restitution",
        problem: e.to_string(),
    })?;
    Bound::GravityScale
        .check(b.gravity_scale)
        .map(|_| ())
        .map_err(|e| WorldError::BadBall {
            field: "gravity_scale",
            problem: e.to_string(),
        })
}

/// A box whose corners are within [`Bound::Coord`] with `min <= max`; else the field (`min`,
/// `max`, `min/max`) and the problem.
pub(crate) fn validate_aabb(a: &Aabb) -> Result<(), (&'static str, String)> {
    for (field, v) in [("min", a.min), ("max", a.max)] {
        Bound::Coord
            .check_vec2(v)
            .map_err(|e| (field, vec2_problem(e, v)))?;
    }
    if a.min.x > a.max.x || a.min.y > a.max.y {
        return Err((
            "min/max",
            format!(
                "min [{}, {}] must not be greater than max [{}, {}]",
                a.min.x, a.min.y, a.max.x, a.max.y
            ),
        ));
    }
    Ok(())
}

/// Checks a rectangle with the scene format's bounds ([`Bound`]).
pub(crate) fn validate_rect(r: &RectDesc) -> Result<(), WorldError> {
    validate_aabb(&r.aabb).map_err(|(field, problem)| WorldError::BadRect { field, problem })?;
    Bound::Coord
        .check_vec2(r.vel)
        .map_err(|e| WorldError::BadRect {
            field: "vel",
            problem: vec2_problem(e, r.vel),
        })?;
    Bound::NonNeg
        .check(r.density)
        .map_err(|e| WorldError::BadRect {
            field: "density",
            problem: e.to_string(),
        })?;
    if r.surface.sensor && r.kind == RectKind::Dynamic {
        return Err(WorldError::BadRect {
            field: "surface.sensor",
            problem: "a dynamic rectangle cannot be a sensor (make it static or kinematic)"
                .to_string(),
        });
    }
    if r.surface.one_way && (r.surface.sensor || r.kind == RectKind::Dynamic) {
        return Err(WorldError::BadRect {
            field: "surface.one_way",
            problem: "only static and kinematic rectangles that are not sensors can be one-way \
                      platforms"
                .to_string(),
        });
    }
    crate::model::material::check(r.surface.restitution).map_err(|e| WorldError::BadRect {
        field: "restitution",
        problem: e.to_string(),
    })
}
