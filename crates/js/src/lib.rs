//! # collide-js
//!
//! The JavaScript/TypeScript face of `collide-world`: a [`World`] class for web developers
//! who never write Rust, compiled to WebAssembly with wasm-bindgen and packaged for npm by
//! `scripts/build-js.sh` (package `collide`, `packages/collide`). It exposes the world API
//! only: build a world or load a TOML scene (`toml.rs`: through a second module loaded on
//! first use), set the tile grid, add and remove balls,
//! rectangles, segments, polylines, circles and flippers, change velocities, restitution,
//! layers and gravity, `step()` with its events as plain objects, read positions in bulk into
//! a `Float64Array`, save and restore snapshots as `Uint8Array`s, and the state hash.
//!
//! It depends on `collide-world` (and through it `collide-core`), `collide-scene` (levels),
//! `collide-scene-wire` (scenes from the TOML module), `wasm-bindgen`, `wasm-bindgen-futures`,
//! `js-sys` and `postcard` (snapshot bytes). It must never depend on a renderer, a game, sound, a
//! window or threads, nor call `collide-scene`'s TOML parser (that is `crates/js-toml`'s
//! module): the package stays small (its budget: 302 KB of gzip-compressed `.wasm`) and runs
//! wherever WebAssembly does.
//!
//! # Conventions
//! As `collide-world`: x right, **y down**, world units (1 unit = 1 pixel at zoom 1),
//! seconds, units/s, `f64` (JavaScript numbers). Ids are numbers (`crate::ids`). Every method
//! that can refuse its input throws a JavaScript `Error` whose message is the Rust error's
//! (it names the field and the value) and leaves the world unchanged; none traps.
//! [`World::set_threads`](collide_world::World::set_threads) is not exposed: the package runs
//! on one thread.

mod bodies;
mod characters;
mod events;
mod grid;
mod ids;
mod settings;
mod shapes;
mod toml;

use collide_scene::level;
use collide_world::{Scene, StepConfig, Vec2, Walls};
use js_sys::Float64Array;
use wasm_bindgen::prelude::*;

/// An error for JavaScript: an `Error` with the message `msg`.
pub(crate) fn err(msg: impl std::fmt::Display) -> JsError {
    JsError::new(&msg.to_string())
}

/// A 2D world of exact, continuous collisions: a rectangle `[0, 0]–[width, height]` (y down)
/// with reflecting or open sides, an optional tile grid, balls, rectangles, static segments
/// and circles, and flippers, advanced by a fixed step `dt` in which every bounce happens at
/// its exact time of impact.
#[wasm_bindgen]
pub struct World {
    w: collide_world::World,
    /// The event records of the last step (`events.rs`), kept to reuse their allocation.
    events: Vec<f64>,
    /// Scratch for bulk reads, kept to reuse its allocation.
    scratch: Vec<f64>,
}

impl World {
    fn wrap(w: collide_world::World) -> World {
        World {
            w,
            events: Vec::new(),
            scratch: Vec::new(),
        }
    }
}

/// A closed world (four reflecting sides) of the given size, for the constructor.
fn new_world(width: f64, height: f64, dt: Option<f64>) -> Result<collide_world::World, JsError> {
    let config = StepConfig {
        dt: dt.unwrap_or(1.0 / 60.0),
        ..StepConfig::default()
    };
    collide_world::World::new(Vec2::new(width, height), Walls::ALL, config).map_err(err)
}

#[wasm_bindgen]
impl World {
    /// A closed world of `width × height` world units (all four sides reflect), no grid, no
    /// bodies, step `dt` seconds (default 1/60), restitution 1, no gravity, ball–ball
    /// collisions on.
    ///
    /// @throws {Error} `world.size: ...` for a size that is not finite and positive (at most
    /// 1e9), `step.dt: ...` for a `dt` that is not finite and positive.
    #[wasm_bindgen(constructor)]
    pub fn new(width: f64, height: f64, dt: Option<f64>) -> Result<World, JsError> {
        new_world(width, height, dt).map(World::wrap)
    }

    /// A BricksBeater level (rows of level characters: `#` wall, `R Y G C B W` bricks, `a`–`z`
    /// sensors, `1 3 7 9` slopes, anything else empty) as the game lays it out
    /// (`collide_scene::level::scene_from_level`): 9-unit cells, 120 units of space below the
    /// map, an open bottom, a kinematic paddle, `balls` random balls of radius 3 at 144
    /// units/s (seed 1), ball–ball collisions off.
    ///
    /// @throws {Error} naming the line for an empty level or rows of different widths.
    #[wasm_bindgen(js_name = fromLevel)]
    pub fn from_level(text: &str, balls: u32, name: Option<String>) -> Result<World, JsError> {
        let grid = level::parse_level(text).map_err(err)?;
        let scene =
            level::scene_from_level(name.as_deref().unwrap_or("level"), grid, balls as usize);
        World::from_scene(&scene)
    }

    /// The arena benchmark scene of docs/performance.md
    /// (`collide_scenes::arena_scene`): a closed `[0, 1000]²` box, a 40 × 40 grid of
    /// 25-unit cells with 226 wall tiles, and `balls` balls of radius 2 at exactly `speed`
    /// units/s in random directions (placement seed `seed`), ball–ball collisions on.
    ///
    /// @throws {Error} when the balls cannot be placed without overlap (too many).
    pub fn arena(balls: u32, speed: f64, seed: f64) -> Result<World, JsError> {
        if !(seed.is_finite()
            && seed >= 0.0
            && seed.fract() == 0.0
            && seed < 9.007_199_254_740_992e15)
        {
            return Err(err(format!(
                "arena: seed {seed} is not an integer in [0, 2^53)"
            )));
        }
        World::from_scene(&collide_scenes::arena_scene(
            balls as usize,
            speed,
            seed as u64,
        ))
    }

    /// Advances the world by one step of `dt` seconds and returns what happened in it, in time
    /// order: bounces with their exact time of impact (`toi`, seconds from the step's start),
    /// contact point, normal and impact speed; bricks destroyed, balls lost through an open
    /// side, sensors entered and left, ... (`CollideEvent`). Never throws.
    #[wasm_bindgen(unchecked_return_type = "CollideEvent[]")]
    pub fn step(&mut self) -> JsValue {
        let events = self.w.step();
        events::encode(events, &mut self.events);
        events::to_objects(&self.events)
    }

    /// Runs `steps` steps without building event objects (for a loop that does not read
    /// them); returns how many events they had in all. Never throws.
    pub fn run(&mut self, steps: u32) -> f64 {
        let mut n = 0usize;
        for _ in 0..steps {
            n += self.w.step().len();
        }
        n as f64
    }

    /// The state hash (16 hex digits): equal for two worlds in the same state, bit for bit,
    /// in a browser, in node and natively (`collide run` prints the same `state_hash`).
    #[wasm_bindgen(js_name = stateHash)]
    pub fn state_hash(&self) -> String {
        format!("{:016x}", self.w.state_hash())
    }

    /// The world's state as bytes (postcard): every body, the grid's cells, the settings, the
    /// step count and time. `restore` brings it back; stepping on from there is bit-identical
    /// to stepping on from here.
    ///
    /// @throws {Error} never in practice (the encoding cannot fail for a valid world).
    pub fn snapshot(&self) -> Result<Vec<u8>, JsError> {
        postcard::to_allocvec(&self.w.snapshot()).map_err(|e| err(format!("snapshot: {e}")))
    }

    /// Brings back the state of `bytes` (from `snapshot()` of this world or of one of the same
    /// shape: size, walls, grid size, shapes and flippers).
    ///
    /// @throws {Error} for bytes that are not a snapshot, a snapshot of another format
    /// version, of a world of another shape (naming what differs), or an inconsistent one;
    /// the world is unchanged then.
    pub fn restore(&mut self, bytes: &[u8]) -> Result<(), JsError> {
        let snap: collide_world::Snapshot = postcard::from_bytes(bytes)
            .map_err(|e| err(format!("restore: not a collide snapshot: {e}")))?;
        self.w.restore(&snap).map_err(err)
    }

    /// Copies every ball's centre into `out` as `x0, y0, x1, y1, ...` (world units), in the
    /// order of `ballIds` (which changes when a ball is removed); returns the number of balls.
    /// No allocation per call once the world's scratch buffer has grown.
    ///
    /// @throws {Error} when `out` is shorter than `2 * ballCount`.
    pub fn positions(&mut self, out: &Float64Array) -> Result<u32, JsError> {
        let n = self.w.balls().len();
        self.scratch.clear();
        for b in self.w.balls() {
            self.scratch.extend_from_slice(&[b.pos.x, b.pos.y]);
        }
        self.copy_out("positions", out, n)
    }

    /// Copies every ball's velocity into `out` as `vx0, vy0, vx1, vy1, ...` (units/s), in the
    /// order of `ballIds`; returns the number of balls.
    ///
    /// @throws {Error} when `out` is shorter than `2 * ballCount`.
    pub fn velocities(&mut self, out: &Float64Array) -> Result<u32, JsError> {
        let n = self.w.balls().len();
        self.scratch.clear();
        for b in self.w.balls() {
            self.scratch.extend_from_slice(&[b.vel.x, b.vel.y]);
        }
        self.copy_out("velocities", out, n)
    }

    /// Copies every ball's radius into `out` (world units), in the order of `ballIds`;
    /// returns the number of balls.
    ///
    /// @throws {Error} when `out` is shorter than `ballCount`.
    pub fn radii(&mut self, out: &Float64Array) -> Result<u32, JsError> {
        let n = self.w.balls().len();
        self.scratch.clear();
        self.scratch.extend(self.w.balls().map(|b| b.radius));
        self.copy_out("radii", out, n)
    }

    /// Copies every ball's id into `out`, in the world's storage order (the order of
    /// `positions`, `velocities` and `radii`); returns the number of balls.
    ///
    /// @throws {Error} when `out` is shorter than `ballCount`.
    #[wasm_bindgen(js_name = ballIds)]
    pub fn ball_ids(&mut self, out: &Float64Array) -> Result<u32, JsError> {
        let n = self.w.balls().len();
        self.scratch.clear();
        for b in self.w.balls() {
            self.scratch.push(ids::to_js(b.id).map_err(err)?);
        }
        self.copy_out("ballIds", out, n)
    }

    /// The number of balls.
    #[wasm_bindgen(getter, js_name = ballCount)]
    pub fn ball_count(&self) -> u32 {
        self.w.balls().len() as u32
    }

    /// Simulated time since the world was made, seconds.
    #[wasm_bindgen(getter)]
    pub fn time(&self) -> f64 {
        self.w.time()
    }

    /// Steps run since the world was made.
    #[wasm_bindgen(getter, js_name = stepCount)]
    pub fn step_count(&self) -> f64 {
        self.w.steps() as f64
    }

    /// The world's width, world units.
    #[wasm_bindgen(getter)]
    pub fn width(&self) -> f64 {
        self.w.size().x
    }

    /// The world's height, world units.
    #[wasm_bindgen(getter)]
    pub fn height(&self) -> f64 {
        self.w.size().y
    }

    /// Kinetic energy `Σ ½ m |v|²` of the balls and dynamic rectangles (mass = density × area).
    #[wasm_bindgen(js_name = kineticEnergy)]
    pub fn kinetic_energy(&self) -> f64 {
        self.w.kinetic_energy()
    }

    /// Kinetic plus potential energy under the world's gravity (y down: `− m g·p`).
    pub fn energy(&self) -> f64 {
        self.w.energy()
    }
}

impl World {
    fn from_scene(scene: &Scene) -> Result<World, JsError> {
        collide_world::World::from_scene(scene)
            .map(World::wrap)
            .map_err(err)
    }

    /// Copies the scratch buffer (`n` balls' values) to the start of `out`.
    fn copy_out(&self, what: &str, out: &Float64Array, n: usize) -> Result<u32, JsError> {
        let len = self.scratch.len();
        if (out.length() as usize) < len {
            return Err(err(format!(
                "{what}: the Float64Array holds {} numbers, {len} needed for {n} balls",
                out.length()
            )));
        }
        out.subarray(0, len as u32).copy_from(&self.scratch);
        Ok(n as u32)
    }
}
