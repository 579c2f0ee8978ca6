//! What a world measures of itself: kinetic and potential energy, momentum, and the state
//! hash (FNV-1a over the state's bits in a fixed order).

use crate::body::ball_gravity::scaled;
use crate::body::rect::RectRole;
use crate::model::cell::Cell;
use crate::model::event::Body;
use crate::world::World;
use collide_core::{Real, Vec2};

impl World {
    /// Total kinetic energy `Σ ½·m·|v|²` of balls and dynamic rectangles, summed in storage
    /// order (units: mass · units²/s²).
    #[must_use]
    pub fn kinetic_energy(&self) -> Real {
        let mut e = 0.0;
        for b in self.balls() {
            e += 0.5 * b.mass() * b.vel.length_squared();
        }
        for r in &self.rects {
            if r.role() == RectRole::Dynamic {
                e += 0.5 * r.mass() * r.vel.length_squared();
            }
        }
        e
    }

    /// Total potential energy in the world's gravity `g`, `Σ −m·g·p` over the balls and the
    /// dynamic rectangles, which both fall (`p` the centre, from the world's origin: y grows
    /// downward, so a body lower down has less; a rectangle's mass is [`crate::Rect::mass`]), summed
    /// in storage order; zero without gravity. Static and kinematic rectangles ignore gravity.
    /// Units: mass · units²/s².
    #[must_use]
    pub fn potential_energy(&self) -> Real {
        let g = self.config.gravity;
        if g == Vec2::ZERO {
            return 0.0;
        }
        let mut e = 0.0;
        for b in self.balls() {
            e -= b.mass() * scaled(g, b.gravity_scale).dot(b.pos);
        }
        for r in &self.rects {
            if r.role() == RectRole::Dynamic {
                e -= r.mass() * g.dot(r.aabb.center());
            }
        }
        e
    }

    /// Total mechanical energy: [`World::kinetic_energy`] plus [`World::potential_energy`]
    /// (the kinetic energy alone without gravity). Conserved to rounding by elastic
    /// collisions (restitution 1) and exact parabolic flight.
    #[must_use]
    pub fn energy(&self) -> Real {
        self.kinetic_energy() + self.potential_energy()
    }

    /// Total momentum `Σ m·v` of balls and dynamic rectangles.
    #[must_use]
    pub fn momentum(&self) -> Vec2 {
        let mut p = Vec2::ZERO;
        for b in self.balls() {
            p += b.vel * b.mass();
        }
        for r in &self.rects {
            if r.role() == RectRole::Dynamic {
                p += r.vel * r.mass();
            }
        }
        p
    }

    /// A 64-bit hash of the whole simulated state: every ball's and rectangle's id, position,
    /// velocity, size and density and the start of each ball's current path (their IEEE-754
    /// bits), every grid cell, the walls, the step count and the simulated time, the own
    /// restitutions that are set and the filters that are not the default, and under gravity
    /// the faces holding balls and each dynamic rectangle's path and rest (so a world without
    /// any of these hashes as it did before them).
    /// FNV-1a over little-endian 64-bit words, so it is the same on every platform and
    /// build: two worlds with equal hashes are (barring collisions) bit-identical.
    #[must_use]
    pub fn state_hash(&self) -> u64 {
        let mut h = Fnv::new();
        h.word(self.steps);
        h.word(self.size.x.to_bits());
        h.word(self.size.y.to_bits());
        h.word(
            u64::from(self.walls.left)
                | u64::from(self.walls.top) << 1
                | u64::from(self.walls.right) << 2
                | u64::from(self.walls.bottom) << 3,
        );
        h.word(self.balls.len() as u64);
        h.word(self.time.to_bits());
        for (i, b) in self.balls.iter().enumerate() {
            h.word(b.id.to_bits());
            let pos = b.pos_at(self.time, self.acc_of(i));
            for x in [
                pos.x,
                pos.y,
                b.v0.x,
                b.v0.y,
                b.radius,
                b.density,
                b.anchor.x,
                b.anchor.y,
                b.anchor_time,
            ] {
                h.word(x.to_bits());
            }
            // Held by a face under gravity (nothing hashed in free flight: hashes of worlds
            // without gravity are unchanged).
            if let Some(r) = &self.ball_rest[i] {
                h.word(r.code());
                h.word(r.lo.to_bits());
                h.word(r.hi.to_bits());
            }
            // Its count toward sleep (`sleep.rs`), when it has one.
            let slow = self.ball_slow[i];
            if slow.count > 0 {
                h.word(u64::from(slow.count) | 1 << 40);
                h.word(slow.at.x.to_bits());
                h.word(slow.at.y.to_bits());
            }
        }
        h.word(self.rects.len() as u64);
        for r in &self.rects {
            h.word(r.id.to_bits());
            for x in [
                r.aabb.min.x,
                r.aabb.min.y,
                r.aabb.max.x,
                r.aabb.max.y,
                r.vel.x,
                r.vel.y,
                r.density,
            ] {
                h.word(x.to_bits());
            }
            h.word(u64::from(r.code()));
        }
        // Under gravity, each dynamic rectangle's path (its anchor: box, time, velocity) and
        // the face holding it, if any (nothing without gravity: those hashes are unchanged).
        if self.config.gravity != Vec2::ZERO {
            for (k, r) in self.rects.iter().enumerate() {
                if r.role() != RectRole::Dynamic {
                    continue;
                }
                let (a, at, v0) = self.rect_anchor[k];
                for x in [a.min.x, a.min.y, a.max.x, a.max.y, at, v0.x, v0.y] {
                    h.word(x.to_bits());
                }
                if let Some(rest) = &self.rect_rest[k] {
                    h.word(rest.code());
                    h.word(rest.lo.to_bits());
                    h.word(rest.hi.to_bits());
                }
                // Its count toward sleep, when it has one.
                let slow = self.rect_slow[k];
                if slow.count > 0 {
                    h.word(u64::from(slow.count) | 1 << 40);
                    h.word(slow.at.x.to_bits());
                    h.word(slow.at.y.to_bits());
                }
            }
        }
        // Carried bodies (rare: only while a kinematic rectangle squeezes one), so that a
        // world without any hashes as it always has.
        for c in &self.carries {
            h.word(match c.body {
                Body::Ball(b) => b.to_bits(),
                Body::Rect(r) => r.to_bits() | 1 << 63,
                Body::Character(c) => c.to_bits() | 1 << 62,
            });
            h.word(c.by.rect_bits());
            for x in [c.vel.x, c.vel.y, c.normal.x, c.normal.y] {
                h.word(x.to_bits());
            }
        }
        if let Some(g) = &self.grid {
            h.word(g.cols() as u64);
            h.word(g.rows() as u64);
            for c in g.cells() {
                h.word(match c {
                    Cell::Empty => 0,
                    Cell::Wall => 1,
                    Cell::Brick(k) => 2 | u64::from(*k) << 8,
                    Cell::Sensor(k) => 3 | u64::from(*k) << 8,
                    Cell::Slope(corner) => 4 | (*corner as u64) << 8,
                });
            }
        }
        // Static shapes (none in most worlds, whose hashes stay).
        for w in self.shapes_words() {
            h.word(w);
        }
        // Flippers, their settings and motion (none in most worlds, whose hashes stay).
        for w in self.flippers_words() {
            h.word(w);
        }
        // Characters and one-way platforms (none in most worlds, whose hashes stay).
        for w in self.characters_words() {
            h.word(w);
        }
        // Overlaps kept on purpose (sensors, passes: none in most worlds, whose hashes stay).
        for p in &self.passes {
            h.word(p.ball.to_bits());
            let (tag, bits) = match p.with {
                crate::step::pass::PassWith::Rect(r) => (None, r.to_bits()),
                crate::step::pass::PassWith::Ball(b) => (None, b.to_bits() | 1 << 63),
                // A word no rectangle or ball pass starts with, then the shape or cell.
                crate::step::pass::PassWith::Shape(s) => (Some(u64::MAX - 1), s.to_bits()),
                crate::step::pass::PassWith::Cell(c) => (
                    Some(u64::MAX - 2),
                    u64::from(c.col) | u64::from(c.row) << 32,
                ),
            };
            if let Some(tag) = tag {
                h.word(tag);
            }
            h.word(bits);
            h.word(p.since.to_bits());
            h.word(u64::from(p.sensor));
            h.word(p.ended.map_or(u64::MAX, Real::to_bits));
        }
        // Rectangles inside sensor rectangles (none in most worlds, whose hashes stay).
        for &(sensor, rect) in &self.sensor_rects {
            h.word(sensor.to_bits());
            h.word(rect.to_bits());
        }
        self.hash_materials(|w| h.word(w));
        self.hash_filters(|w| h.word(w));
        self.hash_gravity_scales(|w| h.word(w));
        h.finish()
    }
}

/// FNV-1a, 64-bit, over 64-bit words (each fed as 8 little-endian bytes).
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    // Not inlined: the hash is cold and has ~100 call sites; inlined, each unrolls 8
    // multiply rounds (16 KB of the JS package's .wasm).
    #[inline(never)]
    fn word(&mut self, w: u64) {
        for byte in w.to_le_bytes() {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// The Morton code (Z-order) of cell `(x, y)`: the bits of `x` and `y` interleaved, `x` in
/// the even bits (G. M. Morton, "A computer oriented geodetic data base and a new technique
/// in file sequencing", IBM, 1966). Bit interleaving by the standard magic-mask spreading.
pub(super) fn morton(x: u32, y: u32) -> u64 {
    fn spread(v: u32) -> u64 {
        let mut v = u64::from(v);
        v = (v | v << 16) & 0x0000_FFFF_0000_FFFF;
        v = (v | v << 8) & 0x00FF_00FF_00FF_00FF;
        v = (v | v << 4) & 0x0F0F_0F0F_0F0F_0F0F;
        v = (v | v << 2) & 0x3333_3333_3333_3333;
        v = (v | v << 1) & 0x5555_5555_5555_5555;
        v
    }
    spread(x) | spread(y) << 1
}
