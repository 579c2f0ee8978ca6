//! Characters (platformer player boxes moved by move and slide) and one-way platforms.

use collide_world::{CharacterDesc, CharacterId, CharacterPush, Target, Vec2};
use wasm_bindgen::prelude::*;

use crate::bodies::object;
use crate::ids::{from_js, to_js};
use crate::{err, events, World};

#[wasm_bindgen(typescript_custom_section)]
const CHARACTER_TYPES: &str = r#"
/** What a character stands on: the ground's unit normal (pointing up, `ny < 0`) and its
 * velocity (a moving platform's, units/s). */
export interface GroundState { nx: number; ny: number; vx: number; vy: number; }
/** A character's state: box centre (world units), velocity (units/s), half size (world
 * units), and its ground (`null` in the air). */
export interface CharacterState { x: number; y: number; vx: number; vy: number; halfWidth: number; halfHeight: number; onGround: boolean; ground: GroundState | null; }
/** What `moveAndSlide` did: the displacement made (world units) and the contacts met on the
 * way (`character_hit` events, `toi` the fraction of the motion travelled). */
export interface MoveResult { dx: number; dy: number; events: CollideEvent[]; }
"#;

#[wasm_bindgen]
impl World {
    /// Adds a character: an axis-aligned box centred at `(x, y)` of half size `halfWidth` ×
    /// `halfHeight` (world units, > 0), moved by its velocity each step (`setCharacterVelocity`)
    /// with move and slide at exact times of impact, no skin gap. `maxSlope`: the steepest
    /// ground it walks on, radians (default 50°, so 45° ramps are walkable); `snapDistance`:
    /// how far down it looks for ground after walking (default 0); `stepHeight`: the highest
    /// ledge it steps up (default 0). `mass`: how it meets balls and dynamic rectangles
    /// (docs/algorithms.md, "Characters meet balls and boxes"): absent, they bounce off it and
    /// it pushes them as an infinite mass; a number > 0, it pushes them as a body of that mass
    /// (mass units, a body's density × area); 0, they pass through each other. Returns its id.
    ///
    /// @throws {Error} `character field \`half_extents\`: ...` (or `pos`, `max_slope`,
    /// `snap_distance`, `step_height`, `push` for a negative mass) naming the value.
    #[wasm_bindgen(js_name = addCharacter)]
    #[allow(clippy::too_many_arguments)]
    pub fn add_character(
        &mut self,
        x: f64,
        y: f64,
        #[wasm_bindgen(js_name = "halfWidth")] half_width: f64,
        #[wasm_bindgen(js_name = "halfHeight")] half_height: f64,
        #[wasm_bindgen(js_name = "maxSlope")] max_slope: Option<f64>,
        #[wasm_bindgen(js_name = "snapDistance")] snap_distance: Option<f64>,
        #[wasm_bindgen(js_name = "stepHeight")] step_height: Option<f64>,
        mass: Option<f64>,
    ) -> Result<f64, JsError> {
        let d = CharacterDesc::default();
        let desc = CharacterDesc {
            pos: Vec2::new(x, y),
            half_extents: Vec2::new(half_width, half_height),
            max_slope: max_slope.unwrap_or(d.max_slope),
            snap_distance: snap_distance.unwrap_or(d.snap_distance),
            step_height: step_height.unwrap_or(d.step_height),
            push: match mass {
                None => CharacterPush::Kinematic,
                Some(m) if m == 0.0 => CharacterPush::None,
                Some(m) => CharacterPush::Mass(m),
            },
            ..d
        };
        let id = self.w.add_character(desc).map_err(err)?;
        to_js(id).map_err(|e| {
            self.w.remove_character(id);
            err(e)
        })
    }

    /// Sets a character's velocity (units/s): its run speed, and an upward `vy < 0` for a
    /// jump. On ground it walks along the ground at `vx`; in the air gravity adds to it.
    ///
    /// @throws {Error} `no such body` for a removed character, `character field \`vel\``.
    #[wasm_bindgen(js_name = setCharacterVelocity)]
    pub fn set_character_velocity(&mut self, id: f64, vx: f64, vy: f64) -> Result<(), JsError> {
        let id = from_js(id).map_err(err)?;
        self.w
            .set_character_velocity(id, Vec2::new(vx, vy))
            .map_err(err)
    }

    /// Lets a character drop through one-way platforms (`true`) or stand on them (`false`).
    ///
    /// @throws {Error} `no such body` for a removed character.
    #[wasm_bindgen(js_name = setCharacterDropThrough)]
    pub fn set_character_drop_through(&mut self, id: f64, drop: bool) -> Result<(), JsError> {
        let id = from_js(id).map_err(err)?;
        self.w.set_character_drop_through(id, drop).map_err(err)
    }

    /// Moves a character by `(dx, dy)` (world units) now, between steps, by move and slide
    /// without gravity.
    ///
    /// @throws {Error} `no such body` for a removed character, `character field \`motion\``.
    #[wasm_bindgen(js_name = moveAndSlide, unchecked_return_type = "MoveResult")]
    pub fn move_and_slide(&mut self, id: f64, dx: f64, dy: f64) -> Result<JsValue, JsError> {
        let id = from_js(id).map_err(err)?;
        let mut evs = Vec::new();
        let moved = self
            .w
            .move_and_slide(id, Vec2::new(dx, dy), &mut evs)
            .map_err(err)?;
        let mut buf = Vec::new();
        events::encode(&evs, &mut buf);
        Ok(object(&[
            ("dx", moved.x.into()),
            ("dy", moved.y.into()),
            ("events", events::to_objects(&buf)),
        ]))
    }

    /// A character's state, or `undefined` for an id no longer in the world.
    ///
    /// @throws {Error} for a number that is not an id.
    #[wasm_bindgen(unchecked_return_type = "CharacterState | undefined")]
    pub fn character(&self, id: f64) -> Result<JsValue, JsError> {
        let id: CharacterId = from_js(id).map_err(err)?;
        Ok(match self.w.character(id) {
            None => JsValue::UNDEFINED,
            Some(c) => object(&[
                ("x", c.pos.x.into()),
                ("y", c.pos.y.into()),
                ("vx", c.vel.x.into()),
                ("vy", c.vel.y.into()),
                ("halfWidth", c.desc.half_extents.x.into()),
                ("halfHeight", c.desc.half_extents.y.into()),
                ("onGround", c.on_ground().into()),
                (
                    "ground",
                    c.ground.map_or(JsValue::NULL, |g| {
                        object(&[
                            ("nx", g.normal.x.into()),
                            ("ny", g.normal.y.into()),
                            ("vx", g.velocity.x.into()),
                            ("vy", g.velocity.y.into()),
                        ])
                    }),
                ),
            ]),
        })
    }

    /// Removes a character; returns whether it was there.
    ///
    /// @throws {Error} for a number that is not an id.
    #[wasm_bindgen(js_name = removeCharacter)]
    pub fn remove_character(&mut self, id: f64) -> Result<bool, JsError> {
        let id: CharacterId = from_js(id).map_err(err)?;
        Ok(self.w.remove_character(id).is_some())
    }

    /// Makes a static or kinematic rectangle a one-way platform (`true`: balls, boxes and
    /// characters pass through it from below and the sides and land on its top, y down) or
    /// an ordinary one (`false`); from the next step.
    ///
    /// @throws {Error} `no such body` for a removed rectangle; `one_way` for a dynamic or
    /// sensor rectangle.
    #[wasm_bindgen(js_name = setRectOneWay)]
    pub fn set_rect_one_way(&mut self, id: f64, one_way: bool) -> Result<(), JsError> {
        let id = from_js(id).map_err(err)?;
        self.w.set_one_way(Target::Rect(id), one_way).map_err(err)
    }

    /// Makes a static shape a one-way platform, as `setRectOneWay`: balls and characters pass
    /// it from below and the sides, boxes a one-way segment (a circle or polygon is solid to
    /// boxes).
    ///
    /// @throws {Error} `one_way: no such static shape` for a removed shape; `one_way` for a
    /// sensor circle.
    #[wasm_bindgen(js_name = setShapeOneWay)]
    pub fn set_shape_one_way(&mut self, id: f64, one_way: bool) -> Result<(), JsError> {
        let id = from_js(id).map_err(err)?;
        self.w.set_one_way(Target::Shape(id), one_way).map_err(err)
    }
}
