//! Static segments, polylines and circles, and flippers.

use collide_world::{Filter, FlipperDesc, FlipperId, ShapeDesc, ShapeId, Surface, Vec2};
use wasm_bindgen::prelude::*;

use crate::ids::{from_js, to_js};
use crate::{err, World};

impl World {
    /// Adds `desc`, returning its id as a number (removed again if the id cannot be one).
    fn add_shape_desc(&mut self, desc: ShapeDesc) -> Result<f64, JsError> {
        let id = self.w.add_shape(desc).map_err(err)?;
        to_js(id).map_err(|e| {
            self.w.remove_shape(id);
            err(e)
        })
    }
}

#[wasm_bindgen]
impl World {
    /// Adds a static segment from `(ax, ay)` to `(bx, by)` (world units), both faces and both
    /// ends solid, with its own `restitution` (default: the world's; a value above 1 kicks,
    /// as a pinball slingshot). Returns its id.
    ///
    /// @throws {Error} `shape field \`a\`: ...` (or `b`, `restitution`) naming the value.
    #[wasm_bindgen(js_name = addSegment)]
    pub fn add_segment(
        &mut self,
        ax: f64,
        ay: f64,
        bx: f64,
        by: f64,
        restitution: Option<f64>,
    ) -> Result<f64, JsError> {
        let desc = ShapeDesc {
            surface: Surface {
                restitution,
                ..Surface::DEFAULT
            },
            ..ShapeDesc::segment(Vec2::new(ax, ay), Vec2::new(bx, by))
        };
        self.add_shape_desc(desc)
    }

    /// Adds a static solid disc (a bumper) of `radius` at `(cx, cy)` (world units), with its
    /// own `restitution` (default: the world's). Returns its id.
    ///
    /// @throws {Error} `shape field \`center\`: ...` (or `radius`, `restitution`).
    #[wasm_bindgen(js_name = addCircle)]
    pub fn add_circle(
        &mut self,
        cx: f64,
        cy: f64,
        radius: f64,
        restitution: Option<f64>,
    ) -> Result<f64, JsError> {
        let desc = ShapeDesc {
            surface: Surface {
                restitution,
                ..Surface::DEFAULT
            },
            ..ShapeDesc::circle(Vec2::new(cx, cy), radius)
        };
        self.add_shape_desc(desc)
    }

    /// Adds a sensor disc of `radius` at `(cx, cy)`: no obstacle; balls entering and leaving
    /// it give `sensor_enter` and `sensor_exit` events. Returns its id.
    ///
    /// @throws {Error} `shape field \`center\`: ...` or `radius`.
    #[wasm_bindgen(js_name = addSensorCircle)]
    pub fn add_sensor_circle(&mut self, cx: f64, cy: f64, radius: f64) -> Result<f64, JsError> {
        self.add_shape_desc(ShapeDesc::sensor_circle(Vec2::new(cx, cy), radius))
    }

    /// Adds the segments of a polyline through `points` (`x0, y0, x1, y1, ...`, world units;
    /// `closed`: back to the first point), without an obstacle at its straight joints, each
    /// with `restitution` (default: the world's). Returns the segments' ids in order.
    ///
    /// @throws {Error} `shape field \`points\`: ...` for fewer than two points, an odd count
    /// of numbers or a bad coordinate. Nothing is added then.
    #[wasm_bindgen(js_name = addPolyline)]
    pub fn add_polyline(
        &mut self,
        points: &[f64],
        closed: bool,
        restitution: Option<f64>,
    ) -> Result<Vec<f64>, JsError> {
        if !points.len().is_multiple_of(2) {
            return Err(err(format!(
                "shape field `points`: {} numbers, not pairs x, y",
                points.len()
            )));
        }
        let pts: Vec<Vec2> = points
            .chunks_exact(2)
            .map(|p| Vec2::new(p[0], p[1]))
            .collect();
        let ids = self
            .w
            .add_polyline(&pts, closed, restitution, Filter::DEFAULT)
            .map_err(err)?;
        let out: Result<Vec<f64>, String> = ids.iter().map(|&i| to_js(i)).collect();
        out.map_err(|e| {
            for &i in &ids {
                self.w.remove_shape(i);
            }
            err(e)
        })
    }

    /// Adds a static convex polygon through `points` (`x0, y0, x1, y1, ...`, world units, 3 to
    /// 8 corners in either winding), solid, with `restitution` (default: the world's); every
    /// corner is an obstacle. Balls and dynamic rectangles meet it at their exact times of
    /// impact, straight and under gravity. Returns its id.
    ///
    /// @throws {Error} `shape field \`points\`: ...` for an odd count of numbers, fewer than 3
    /// or more than 8 corners, a repeated or non-finite point, three corners in a line or a
    /// concave outline. Nothing is added then.
    #[wasm_bindgen(js_name = addPolygon)]
    pub fn add_polygon(
        &mut self,
        points: &[f64],
        restitution: Option<f64>,
    ) -> Result<f64, JsError> {
        if !points.len().is_multiple_of(2) {
            return Err(err(format!(
                "shape field `points`: {} numbers, not pairs x, y",
                points.len()
            )));
        }
        let pts: Vec<Vec2> = points
            .chunks_exact(2)
            .map(|p| Vec2::new(p[0], p[1]))
            .collect();
        let desc = ShapeDesc::polygon(&pts).map_err(err)?;
        self.add_shape_desc(ShapeDesc {
            surface: Surface {
                restitution,
                ..Surface::DEFAULT
            },
            ..desc
        })
    }

    /// Removes a static shape (segment, circle or polygon); returns whether it was there.
    ///
    /// @throws {Error} for a number that is not an id.
    #[wasm_bindgen(js_name = removeShape)]
    pub fn remove_shape(&mut self, id: f64) -> Result<bool, JsError> {
        let id: ShapeId = from_js(id).map_err(err)?;
        Ok(self.w.remove_shape(id).is_some())
    }

    /// Adds a flipper: a capsule of `radius` from `(pivotX, pivotY)` to its tip `length`
    /// away, at `restAngle` (radians; y down, so a growing angle turns clockwise on screen)
    /// while released, turning to `activeAngle` at `angularSpeed` rad/s while held
    /// (`setFlipperPressed`), with its own `restitution` (default: the world's). Returns its id.
    ///
    /// @throws {Error} `flipper field \`length\`: ...` (or `pivot`, `radius`, `rest_angle`,
    /// `active_angle`, `angular_speed`, `restitution`) naming the value.
    #[wasm_bindgen(js_name = addFlipper)]
    #[allow(clippy::too_many_arguments)]
    pub fn add_flipper(
        &mut self,
        #[wasm_bindgen(js_name = "pivotX")] pivot_x: f64,
        #[wasm_bindgen(js_name = "pivotY")] pivot_y: f64,
        length: f64,
        radius: f64,
        #[wasm_bindgen(js_name = "restAngle")] rest_angle: f64,
        #[wasm_bindgen(js_name = "activeAngle")] active_angle: f64,
        #[wasm_bindgen(js_name = "angularSpeed")] angular_speed: f64,
        restitution: Option<f64>,
    ) -> Result<f64, JsError> {
        let desc = FlipperDesc {
            surface: Surface {
                restitution,
                ..Surface::DEFAULT
            },
            ..FlipperDesc::new(
                Vec2::new(pivot_x, pivot_y),
                length,
                radius,
                rest_angle,
                active_angle,
                angular_speed,
            )
        };
        let id = self.w.add_flipper(desc).map_err(err)?;
        to_js(id).map_err(|e| {
            self.w.remove_flipper(id);
            err(e)
        })
    }

    /// Holds (`true`) or releases a flipper's button from the world's current time on: it
    /// turns toward its active or rest angle at its angular speed and stops there.
    ///
    /// @throws {Error} `no such flipper` for a removed one.
    #[wasm_bindgen(js_name = setFlipperPressed)]
    pub fn set_flipper_pressed(&mut self, id: f64, pressed: bool) -> Result<(), JsError> {
        let id = from_js(id).map_err(err)?;
        self.w.set_flipper_pressed(id, pressed).map_err(err)
    }

    /// A flipper's angle now, radians.
    ///
    /// @throws {Error} `no such flipper` for a removed one.
    #[wasm_bindgen(js_name = flipperAngle)]
    pub fn flipper_angle(&self, id: f64) -> Result<f64, JsError> {
        let id: FlipperId = from_js(id).map_err(err)?;
        let f = self
            .w
            .flipper(id)
            .ok_or_else(|| err(collide_world::WorldError::NoSuchFlipper(id)))?;
        Ok(f.angle_at(self.w.time()))
    }

    /// Removes a flipper; returns whether it was there.
    ///
    /// @throws {Error} for a number that is not an id.
    #[wasm_bindgen(js_name = removeFlipper)]
    pub fn remove_flipper(&mut self, id: f64) -> Result<bool, JsError> {
        let id: FlipperId = from_js(id).map_err(err)?;
        Ok(self.w.remove_flipper(id).is_some())
    }
}
