//! The world's settings: walls, step size, restitution, gravity and the other step options.

use collide_world::{StepConfig, Vec2, Walls};
use wasm_bindgen::prelude::*;

use crate::{err, World};

impl World {
    /// Applies `change` to a copy of the step settings and sets it; the world keeps its old
    /// settings when the new ones are refused.
    fn change_config(&mut self, change: impl FnOnce(&mut StepConfig)) -> Result<(), JsError> {
        let mut c = *self.w.config();
        change(&mut c);
        self.w.set_config(c).map_err(err)
    }
}

#[wasm_bindgen]
impl World {
    /// Chooses which sides of the world rectangle reflect; an open side lets balls leave (a
    /// ball entirely outside is removed with a `ball_lost` event).
    #[wasm_bindgen(js_name = setWalls)]
    pub fn set_walls(&mut self, left: bool, top: bool, right: bool, bottom: bool) {
        self.w.set_walls(Walls {
            left,
            top,
            right,
            bottom,
        });
    }

    /// Sets gravity, units/s² (y down: `(0, 981)` is Earth's at 100 units per metre). Balls
    /// and dynamic rectangles then follow exact parabolas between bounces.
    ///
    /// @throws {Error} `step.gravity: ...` for a component that is not finite or beyond 1e9.
    #[wasm_bindgen(js_name = setGravity)]
    pub fn set_gravity(&mut self, gx: f64, gy: f64) -> Result<(), JsError> {
        self.change_config(|c| c.gravity = Vec2::new(gx, gy))
    }

    /// Sets the world's restitution, 0 to 1 (1: elastic): of the world's walls and of every
    /// body and cell kind without its own.
    ///
    /// @throws {Error} `step.restitution: ...` naming the value.
    #[wasm_bindgen(js_name = setRestitution)]
    pub fn set_restitution(&mut self, restitution: f64) -> Result<(), JsError> {
        self.change_config(|c| c.restitution = restitution)
    }

    /// Sets the fixed step, seconds (> 0).
    ///
    /// @throws {Error} `step.dt: ...` naming the value.
    #[wasm_bindgen(js_name = setDt)]
    pub fn set_dt(&mut self, dt: f64) -> Result<(), JsError> {
        self.change_config(|c| c.dt = dt)
    }

    /// The fixed step, seconds.
    #[wasm_bindgen(getter)]
    pub fn dt(&self) -> f64 {
        self.w.config().dt
    }

    /// Whether balls collide with each other (default true).
    #[wasm_bindgen(js_name = setBallBall)]
    pub fn set_ball_ball(&mut self, on: bool) -> Result<(), JsError> {
        self.change_config(|c| c.ball_ball = on)
    }

    /// Whether a brick is destroyed by its first hit (default true; false: bricks are walls).
    #[wasm_bindgen(js_name = setDestructibleBricks)]
    pub fn set_destructible_bricks(&mut self, on: bool) -> Result<(), JsError> {
        self.change_config(|c| c.destructible_bricks = on)
    }

    /// Whether balls and boxes settled in a pile or stack under gravity fall asleep (default
    /// true).
    #[wasm_bindgen(js_name = setSleep)]
    pub fn set_sleep(&mut self, on: bool) -> Result<(), JsError> {
        self.change_config(|c| c.sleep = on)
    }

    /// Collision events one body may have in one step on its own (default 256); past them it
    /// borrows further events from a pool the step shares (`512 × n`, at most 131 072), and
    /// stops for the rest of the step with an `iteration_limit` event when the pool is spent
    /// or when more than 8 of its borrowed events come at the instant of the one before.
    ///
    /// @throws {Error} `step.max_events_per_body: ...` for 0 or more than 65 536.
    #[wasm_bindgen(js_name = setMaxEventsPerBody)]
    pub fn set_max_events_per_body(&mut self, n: u32) -> Result<(), JsError> {
        self.change_config(|c| c.max_events_per_body = n)
    }
}
