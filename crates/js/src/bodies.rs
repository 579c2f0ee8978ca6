//! Balls and rectangles: add, remove, read back and change them.

use collide_world::{Aabb, BallDesc, BallId, Filter, RectDesc, RectId, RectKind, Surface, Vec2};
use wasm_bindgen::prelude::*;

use crate::ids::{from_js, to_js};
use crate::{err, World};

/// The rectangle kind named `s` and whether it is a sensor (a "sensor" moves with its velocity
/// as a kinematic rectangle does).
fn rect_kind(s: &str) -> Result<(RectKind, bool), JsError> {
    match s {
        "static" => Ok((RectKind::Static, false)),
        "kinematic" => Ok((RectKind::Kinematic, false)),
        "dynamic" => Ok((RectKind::Dynamic, false)),
        "sensor" => Ok((RectKind::Kinematic, true)),
        _ => Err(err(format!(
            "rect field `kind`: `{s}` is not one of static, kinematic, dynamic, sensor"
        ))),
    }
}

fn kind_name(k: RectKind, sensor: bool) -> &'static str {
    match (k, sensor) {
        (_, true) => "sensor",
        (RectKind::Static, false) => "static",
        (RectKind::Kinematic, false) => "kinematic",
        (RectKind::Dynamic, false) => "dynamic",
    }
}

/// A plain object `{ key: value, ... }` of numbers and strings.
pub(crate) fn object(fields: &[(&str, JsValue)]) -> JsValue {
    let o = js_sys::Object::new();
    for (k, v) in fields {
        // Setting a property of a fresh plain object cannot fail.
        let _ = js_sys::Reflect::set(&o, &JsValue::from_str(k), v);
    }
    o.into()
}

#[wasm_bindgen]
impl World {
    /// Adds a ball: centre `(x, y)` (world units), velocity `(vx, vy)` (units/s), `radius`
    /// (world units, >= 0), `density` (mass per unit area, default 1: mass = density·π·r²),
    /// its own `restitution` (default: the world's; 0 to 10, above 1 a bounce adds speed).
    /// Returns its id. A ball placed inside a tile or a rectangle is pushed out at the start
    /// of the next step (an `unembedded` event).
    ///
    /// @throws {Error} `ball field \`radius\`: ...` (or `pos`, `vel`, `density`,
    /// `restitution`) naming the bad value; `too many balls` past 4 194 304. Nothing is added
    /// then.
    #[wasm_bindgen(js_name = addBall)]
    #[allow(clippy::too_many_arguments)]
    pub fn add_ball(
        &mut self,
        x: f64,
        y: f64,
        vx: f64,
        vy: f64,
        radius: f64,
        density: Option<f64>,
        restitution: Option<f64>,
    ) -> Result<f64, JsError> {
        let id = self
            .w
            .add_ball(BallDesc {
                pos: Vec2::new(x, y),
                vel: Vec2::new(vx, vy),
                radius,
                density: density.unwrap_or(1.0),
                surface: Surface {
                    restitution,
                    ..Surface::DEFAULT
                },
                ..BallDesc::default()
            })
            .map_err(err)?;
        to_js(id).map_err(|e| {
            self.w.remove_ball(id);
            err(e)
        })
    }

    /// Removes a ball; returns whether it was there (false for an id already removed).
    ///
    /// @throws {Error} for a number that is not an id.
    #[wasm_bindgen(js_name = removeBall)]
    pub fn remove_ball(&mut self, id: f64) -> Result<bool, JsError> {
        Ok(self.w.remove_ball(from_js(id).map_err(err)?).is_some())
    }

    /// A ball's centre, velocity and radius, or `undefined` for an id no longer in the world.
    ///
    /// @throws {Error} for a number that is not an id.
    #[wasm_bindgen(unchecked_return_type = "BallState | undefined")]
    pub fn ball(&self, id: f64) -> Result<JsValue, JsError> {
        let id: BallId = from_js(id).map_err(err)?;
        Ok(match self.w.ball(id) {
            None => JsValue::UNDEFINED,
            Some(b) => object(&[
                ("x", b.pos.x.into()),
                ("y", b.pos.y.into()),
                ("vx", b.vel.x.into()),
                ("vy", b.vel.y.into()),
                ("radius", b.radius.into()),
            ]),
        })
    }

    /// Sets a ball's velocity, units/s.
    ///
    /// @throws {Error} `no such body` for a removed ball, `ball field \`vel\`: ...` for a
    /// component that is not finite or beyond 1e9. The world is unchanged then.
    #[wasm_bindgen(js_name = setBallVelocity)]
    pub fn set_ball_velocity(&mut self, id: f64, vx: f64, vy: f64) -> Result<(), JsError> {
        let id = from_js(id).map_err(err)?;
        self.w.set_ball_velocity(id, Vec2::new(vx, vy)).map_err(err)
    }

    /// Moves a ball to `(x, y)` (world units); inside a tile or rectangle it is pushed out at
    /// the start of the next step.
    ///
    /// @throws {Error} `no such body` for a removed ball, `ball field \`pos\`: ...` for a bad
    /// coordinate. The world is unchanged then.
    #[wasm_bindgen(js_name = setBallPosition)]
    pub fn set_ball_position(&mut self, id: f64, x: f64, y: f64) -> Result<(), JsError> {
        let id = from_js(id).map_err(err)?;
        self.w.set_ball_position(id, Vec2::new(x, y)).map_err(err)
    }

    /// Gives a ball its own restitution (`undefined`: the world's), 0 to 10.
    ///
    /// @throws {Error} `no such body`, or `ball field \`restitution\`: ...` naming the value.
    #[wasm_bindgen(js_name = setBallRestitution)]
    pub fn set_ball_restitution(
        &mut self,
        id: f64,
        restitution: Option<f64>,
    ) -> Result<(), JsError> {
        let id = from_js(id).map_err(err)?;
        self.w.set_ball_restitution(id, restitution).map_err(err)
    }

    /// Puts a ball on the collision `layers` (one bit each) and makes it collide with the
    /// layers of `mask`: two bodies collide when each one's layers meet the other's mask.
    /// Default: layer 1 (bit 0), mask all.
    ///
    /// @throws {Error} `no such body` for a removed ball.
    #[wasm_bindgen(js_name = setBallLayers)]
    pub fn set_ball_layers(&mut self, id: f64, layers: u32, mask: u32) -> Result<(), JsError> {
        let id = from_js(id).map_err(err)?;
        self.w.set_ball_layers(id, layers, mask).map_err(err)
    }

    /// Sets the multiple of the world's gravity that accelerates a ball (1 default, 0 a
    /// bullet, negative rises), at most 1000 in magnitude.
    ///
    /// @throws {Error} `no such body`, or `ball field \`gravity_scale\`: ...`.
    #[wasm_bindgen(js_name = setBallGravityScale)]
    pub fn set_ball_gravity_scale(&mut self, id: f64, scale: f64) -> Result<(), JsError> {
        let id = from_js(id).map_err(err)?;
        self.w.set_ball_gravity_scale(id, scale).map_err(err)
    }

    /// Adds a rectangle `[minX, maxX] × [minY, maxY]` (world units) of `kind` (default
    /// `static`), velocity `(vx, vy)` units/s (kinematic, dynamic, sensor), `density` (default
    /// 1, dynamic ones), own `restitution` (default: the world's). Returns its id.
    ///
    /// @throws {Error} `rect field \`min/max\`: ...`, `rect field \`kind\`: ...`, `vel`,
    /// `density`, `restitution` naming the value; `too many rects` past 65 536.
    #[wasm_bindgen(js_name = addRect)]
    #[allow(clippy::too_many_arguments)]
    pub fn add_rect(
        &mut self,
        #[wasm_bindgen(js_name = "minX")] min_x: f64,
        #[wasm_bindgen(js_name = "minY")] min_y: f64,
        #[wasm_bindgen(js_name = "maxX")] max_x: f64,
        #[wasm_bindgen(js_name = "maxY")] max_y: f64,
        #[wasm_bindgen(unchecked_param_type = "RectKind | undefined")] kind: Option<String>,
        vx: Option<f64>,
        vy: Option<f64>,
        density: Option<f64>,
        restitution: Option<f64>,
    ) -> Result<f64, JsError> {
        let (kind, sensor) = rect_kind(kind.as_deref().unwrap_or("static"))?;
        let id = self
            .w
            .add_rect(RectDesc {
                aabb: Aabb::new(Vec2::new(min_x, min_y), Vec2::new(max_x, max_y)),
                vel: Vec2::new(vx.unwrap_or(0.0), vy.unwrap_or(0.0)),
                kind,
                density: density.unwrap_or(1.0),
                surface: Surface {
                    restitution,
                    filter: Filter::DEFAULT,
                    sensor,
                    one_way: false,
                },
            })
            .map_err(err)?;
        to_js(id).map_err(|e| {
            self.w.remove_rect(id);
            err(e)
        })
    }

    /// Removes a rectangle; returns whether it was there.
    ///
    /// @throws {Error} for a number that is not an id.
    #[wasm_bindgen(js_name = removeRect)]
    pub fn remove_rect(&mut self, id: f64) -> Result<bool, JsError> {
        Ok(self.w.remove_rect(from_js(id).map_err(err)?).is_some())
    }

    /// A rectangle's box, velocity and kind, or `undefined` for an id no longer in the world.
    ///
    /// @throws {Error} for a number that is not an id.
    #[wasm_bindgen(unchecked_return_type = "RectState | undefined")]
    pub fn rect(&self, id: f64) -> Result<JsValue, JsError> {
        let id: RectId = from_js(id).map_err(err)?;
        Ok(match self.w.rect(id) {
            None => JsValue::UNDEFINED,
            Some(r) => object(&[
                ("minX", r.aabb.min.x.into()),
                ("minY", r.aabb.min.y.into()),
                ("maxX", r.aabb.max.x.into()),
                ("maxY", r.aabb.max.y.into()),
                ("vx", r.vel.x.into()),
                ("vy", r.vel.y.into()),
                ("kind", kind_name(r.kind, r.surface.sensor).into()),
            ]),
        })
    }

    /// Sets a rectangle's velocity, units/s. For a kinematic paddle following a target `x`,
    /// use `(target - x) / dt`: its motion over the step is then swept exactly.
    ///
    /// @throws {Error} `no such body`, `rect field \`vel\`: ...`, or for a static rectangle.
    #[wasm_bindgen(js_name = setRectVelocity)]
    pub fn set_rect_velocity(&mut self, id: f64, vx: f64, vy: f64) -> Result<(), JsError> {
        let id = from_js(id).map_err(err)?;
        self.w.set_rect_velocity(id, Vec2::new(vx, vy)).map_err(err)
    }

    /// Moves a rectangle to the box `[minX, maxX] × [minY, maxY]` (teleport); bodies left
    /// inside it are pushed out at the next step.
    ///
    /// @throws {Error} `no such body`, or `rect field \`min/max\`: ...` for a bad box.
    #[wasm_bindgen(js_name = setRectBox)]
    pub fn set_rect_box(
        &mut self,
        id: f64,
        #[wasm_bindgen(js_name = "minX")] min_x: f64,
        #[wasm_bindgen(js_name = "minY")] min_y: f64,
        #[wasm_bindgen(js_name = "maxX")] max_x: f64,
        #[wasm_bindgen(js_name = "maxY")] max_y: f64,
    ) -> Result<(), JsError> {
        let id = from_js(id).map_err(err)?;
        let aabb = Aabb::new(Vec2::new(min_x, min_y), Vec2::new(max_x, max_y));
        self.w.set_rect_aabb(id, aabb).map_err(err)
    }

    /// Gives a rectangle its own restitution (`undefined`: the world's), 0 to 10.
    ///
    /// @throws {Error} `no such body`, or `rect field \`restitution\`: ...`.
    #[wasm_bindgen(js_name = setRectRestitution)]
    pub fn set_rect_restitution(
        &mut self,
        id: f64,
        restitution: Option<f64>,
    ) -> Result<(), JsError> {
        let id = from_js(id).map_err(err)?;
        self.w.set_rect_restitution(id, restitution).map_err(err)
    }

    /// Puts a rectangle on collision `layers` with `mask`, as `setBallLayers`.
    ///
    /// @throws {Error} `no such body` for a removed rectangle.
    #[wasm_bindgen(js_name = setRectLayers)]
    pub fn set_rect_layers(&mut self, id: f64, layers: u32, mask: u32) -> Result<(), JsError> {
        let id = from_js(id).map_err(err)?;
        self.w.set_rect_layers(id, layers, mask).map_err(err)
    }
}
