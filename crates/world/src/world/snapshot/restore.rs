//! [`World::restore`]: a snapshot checked against the world's shape and the limits every
//! setter applies, then brought back; on error the world is unchanged.

use super::*;
use crate::body::ball::BallRec;
use crate::body::flipper::FlipperMotion;
use crate::body::rect::Rect;
use crate::body::rest::Rest;
use crate::grid::Grid;
use crate::model::cell::Cell;
use crate::model::cell::CellCoord;
use crate::model::desc::{BallDesc, GridDesc, RectDesc, RectKind, StepConfig};
use crate::model::event::Body;
use crate::model::filter::Filter;
use crate::model::ids::{BallId, RectId, ShapeId, Slots};
use crate::model::surface::Surface;
use crate::step::pass::{Pass, PassWith};
use crate::step::squeeze::Carry;
use crate::world::World;
use collide_core::{Aabb, Real, Vec2};

impl World {
    /// Brings back the state of `snap`, taken from this world or from another of the same
    /// shape (size, walls, grid dimensions, cell side and origin). The next steps are
    /// bit-identical to those that followed the snapshot (see [`crate::Snapshot`]). The
    /// settings come from the snapshot; the thread count stays this world's.
    ///
    /// # Errors
    /// [`SnapshotError::Version`] for another format version, [`SnapshotError::Shape`] for a
    /// world of another shape, [`SnapshotError::Corrupt`] for a state no world can be in
    /// (values outside the scene format's bounds, but a ball's or a dynamic rectangle's
    /// velocity, which a world's own motion may take past them and is only required finite
    /// with a finite squared length; ids that do not match their slots, cells of
    /// the wrong count or kind, a carry of a body that does not exist). On error the world is
    /// unchanged.
    pub fn restore(&mut self, snap: &Snapshot) -> Result<(), SnapshotError> {
        self.check_snapshot_shape(snap)?;
        let flipper_motion = self.restored_flipper_motion(snap)?;
        // Everything is built and checked aside; the world changes only at the end.
        let config = self.restored_config(snap)?;
        let mut b = restored_balls(snap)?;
        self.restore_shape_face_normals(&mut b.rest, "rests")?;
        // A roll over a slanted face's corner takes its normal from `edge_normals`.
        for (k, &(i, n)) in snap.edge_normals.iter().enumerate() {
            let bad = || corrupt(format!("edge_normals[{k}]"), "no such rest");
            let r = b.rest.get_mut(i as usize).ok_or_else(bad)?;
            match r {
                Some(r) if r.on == RestOn::Edge && n.iter().all(|x| x.is_finite()) => {
                    r.normal = Vec2::from(n);
                }
                _ => return Err(bad()),
            }
        }
        let mut r = restored_rects(snap)?;
        self.restore_shape_face_normals(&mut r.rest, "rect_rests")?;
        let (grid, wall_e, brick_e) = self.restored_grid(snap)?;
        let carries = restored_carries(snap, &b.slots, &r.slots)?;
        let passes = self.restored_passes(snap, &b.slots, &r.slots, grid.as_ref())?;
        let sensor_rects = restored_sensor_rects(snap)?;
        let (characters, character_slots, one_way, character_sensors) =
            super::characters::restored_characters(&snap.characters)?;
        // All checked: the state is replaced; the caches start afresh.
        if let Some(g) = grid {
            self.grid = Some(g);
        }
        if let Some(g) = &mut self.grid {
            g.wall_restitution = wall_e;
            g.brick_restitution = brick_e;
            let [w, b] = snap.grid_filters;
            g.set_filters(Filter::new(w.0, w.1), Filter::new(b.0, b.1));
            let s = snap.grid_sensor_filter;
            g.set_sensor_filter(Filter::new(s.0, s.1));
        }
        // A rest on a slope's diagonal takes the diagonal's normal from the grid.
        for r in b.rest.iter_mut().chain(r.rest.iter_mut()).flatten() {
            if let (RestOn::Cell(c), Vec2::ZERO) = (r.on, r.normal) {
                r.normal = self.slope_normal(c).unwrap_or(Vec2::ZERO);
            }
        }
        self.config = config;
        self.steps = snap.steps;
        self.time = snap.time;
        self.ball_rest = b.rest;
        self.ball_slow = b.slow;
        self.tc_memory = b.tc_memory;
        self.balls = b.recs;
        self.ball_restitution = snap.ball_restitution.clone();
        self.ball_gravity = if snap.ball_gravity.iter().all(|&s| s == 1.0) {
            Vec::new()
        } else {
            snap.ball_gravity.clone()
        };
        self.ball_filter = snap
            .ball_filters
            .iter()
            .map(|&(layers, mask)| Filter::new(layers, mask))
            .collect();
        self.ball_slots = b.slots;
        self.rects = r.rects;
        self.rect_anchor = r.anchor;
        self.rect_rest = r.rest;
        self.rect_slow = r.slow;
        self.rect_slots = r.slots;
        self.carries = carries;
        self.characters = characters;
        self.character_slots = character_slots;
        // The push-out's bookkeeping, as it was (a world built afresh checks every body at
        // its first step: restored into one, the snapshot's world must not).
        self.embed_check = snap.embed_check;
        self.embed_some = snap
            .embed_some
            .iter()
            .map(|&i| i as usize)
            .filter(|&i| self.balls.get(i).is_some())
            .collect();
        self.unplaceable = snap
            .unplaceable
            .iter()
            .map(|&b| crate::model::ids::BallId::from_bits(b))
            .collect();
        // The records' one-way flags, from the restored list.
        for r in &mut self.rects {
            r.surface.one_way = false;
        }
        for sh in &mut self.shapes {
            sh.surface.one_way = false;
        }
        for &t in &one_way {
            self.mark_one_way(t, true);
        }
        self.one_way = one_way;
        self.character_sensors = character_sensors;
        self.sensor_rects = sensor_rects;
        for (fl, (pressed, motion)) in self.flippers.iter_mut().zip(flipper_motion) {
            fl.pressed = pressed;
            fl.motion = motion;
        }
        self.passes.clear();
        for p in passes {
            self.add_pass(p);
        }
        self.after_restore();
        Ok(())
    }

    /// Checks that `snap` is of this world's shape: version, size, walls, grid, static shapes
    /// and flippers' settings.
    fn check_snapshot_shape(&self, snap: &Snapshot) -> Result<(), SnapshotError> {
        if snap.version != SNAPSHOT_VERSION {
            return Err(SnapshotError::Version {
                found: snap.version,
                expected: SNAPSHOT_VERSION,
            });
        }
        let size = Vec2::from(snap.size);
        if size != self.size {
            return Err(SnapshotError::Shape {
                field: "world.size",
                detail: format!("{size} against {}", self.size),
            });
        }
        if snap.walls != walls_bits(self.walls) {
            return Err(SnapshotError::Shape {
                field: "world.walls",
                detail: format!("{:04b} against {:04b}", snap.walls, walls_bits(self.walls)),
            });
        }
        let shape = self.grid.as_ref().map(|g| {
            (
                g.cell_size(),
                v2(g.origin()),
                g.cols() as u32,
                g.rows() as u32,
            )
        });
        if snap.grid != shape {
            return Err(SnapshotError::Shape {
                field: "grid",
                detail: format!("{:?} against {shape:?}", snap.grid),
            });
        }
        if snap.shapes != self.shapes_words() {
            return Err(SnapshotError::Shape {
                field: "shapes",
                detail: format!(
                    "{} static shapes' words against {}",
                    snap.shapes.len(),
                    self.shapes_words().len()
                ),
            });
        }
        Ok(())
    }

    /// Where `snap`'s flippers differ from this world's: their count, or the first flipper
    /// and setting that differs, with both values.
    fn flipper_difference(&self, snap: &Snapshot) -> String {
        if snap.flippers.len() != self.flippers.len() {
            return format!(
                "{} flippers in the snapshot, {} in the world",
                snap.flippers.len(),
                self.flippers.len()
            );
        }
        const SETTINGS: [&str; 7] = [
            "pivot.x",
            "pivot.y",
            "length",
            "radius",
            "rest_angle",
            "active_angle",
            "angular_speed",
        ];
        for (i, (s, fl)) in snap.flippers.iter().zip(&self.flippers).enumerate() {
            let mine = SnapFlipper::of(fl);
            if s.0 != mine.0 {
                return format!("flippers[{i}]: another flipper id than the world's");
            }
            for (k, name) in SETTINGS.iter().enumerate() {
                if s.1[k].to_bits() != mine.1[k].to_bits() {
                    return format!(
                        "flippers[{i}].{name}: {:?} in the snapshot, {:?} in the world \
                         (a number read back off by its last bits? see `Snapshot`)",
                        s.1[k], mine.1[k]
                    );
                }
            }
            if s.2.map(Real::to_bits) != mine.2.map(Real::to_bits) {
                return format!(
                    "flippers[{i}].restitution: {:?} in the snapshot, {:?} in the world",
                    s.2, mine.2
                );
            }
            if s.3 != mine.3 {
                return format!(
                    "flippers[{i}].layers/mask: {:?} in the snapshot, {:?} in the world",
                    s.3, mine.3
                );
            }
        }
        "the flippers differ".to_string()
    }

    /// The flippers' button and motion from `snap` (their settings are the world's shape,
    /// checked by [`World::check_snapshot_shape`]).
    fn restored_flipper_motion(
        &self,
        snap: &Snapshot,
    ) -> Result<Vec<(bool, FlipperMotion)>, SnapshotError> {
        let same_flippers = snap.flippers.len() == self.flippers.len()
            && snap.flippers.iter().zip(&self.flippers).all(|(s, fl)| {
                let mine = SnapFlipper::of(fl);
                (s.0, s.1.map(Real::to_bits), s.2.map(Real::to_bits), s.3)
                    == (
                        mine.0,
                        mine.1.map(Real::to_bits),
                        mine.2.map(Real::to_bits),
                        mine.3,
                    )
            });
        if !same_flippers {
            return Err(SnapshotError::Shape {
                field: "flippers",
                detail: self.flipper_difference(snap),
            });
        }
        let mut flipper_motion = Vec::with_capacity(snap.flippers.len());
        for (i, (s, fl)) in snap.flippers.iter().zip(&self.flippers).enumerate() {
            let [since, angle, target, omega, until] = s.5;
            let d = &fl.desc;
            let limit = crate::model::limits::MAX_FLIPPER_ANGLE;
            let valid = s.5.iter().all(|x| x.is_finite())
                && since <= snap.time
                && since <= until
                && angle.abs() <= limit
                && target == if s.4 { d.active_angle } else { d.rest_angle }
                && (omega == 0.0 || omega.abs() == d.angular_speed);
            if !valid {
                return Err(corrupt(
                    format!("flippers[{i}]"),
                    "a motion that is not the flipper's",
                ));
            }
            flipper_motion.push((
                s.4,
                FlipperMotion {
                    since,
                    angle,
                    target,
                    omega,
                    until,
                },
            ));
        }
        Ok(flipper_motion)
    }

    /// The step's settings from `snap`, with the checks of the per-body lists' lengths.
    fn restored_config(&self, snap: &Snapshot) -> Result<StepConfig, SnapshotError> {
        let (dt, ball_ball, restitution, destructible_bricks, max_events_per_body) = snap.config;
        let config = StepConfig {
            dt,
            ball_ball,
            restitution,
            destructible_bricks,
            max_events_per_body,
            gravity: Vec2::from(snap.gravity),
            sleep: snap.sleep,
        };
        crate::world::validate::validate_config(&config).map_err(|e| corrupt("config", e))?;
        if !(snap.time.is_finite() && snap.time >= 0.0) {
            return Err(corrupt("time", format!("{} is not a time", snap.time)));
        }
        if !snap.ball_gravity.is_empty() && snap.ball_gravity.len() != snap.balls.len() {
            return Err(corrupt(
                "ball_gravity",
                format!(
                    "{} values for {} balls",
                    snap.ball_gravity.len(),
                    snap.balls.len()
                ),
            ));
        }
        if !snap.ball_restitution.is_empty() && snap.ball_restitution.len() != snap.balls.len() {
            return Err(corrupt(
                "ball_restitution",
                format!(
                    "{} values for {} balls",
                    snap.ball_restitution.len(),
                    snap.balls.len()
                ),
            ));
        }
        for (what, n, len) in [
            ("ball_filters", snap.ball_filters.len(), snap.balls.len()),
            ("rect_filters", snap.rect_filters.len(), snap.rects.len()),
        ] {
            if n != 0 && n != len {
                return Err(corrupt(what, format!("{n} filters for {len} bodies")));
            }
        }
        let default_grid = [filter_pair(Filter::DEFAULT); 2];
        if self.grid.is_none()
            && (snap.grid_filters != default_grid
                || snap.grid_sensor_filter != default_filter_pair())
        {
            return Err(corrupt(
                "grid_filters",
                "filters for a world without a grid",
            ));
        }
        Ok(config)
    }

    /// The grid's cells (`Some` only when they differ from this world's) and cell kinds'
    /// restitution from `snap`.
    fn restored_grid(
        &self,
        snap: &Snapshot,
    ) -> Result<(Option<Grid>, Option<Real>, Option<Real>), SnapshotError> {
        let (wall_e, brick_e) = snap.grid_restitution;
        crate::model::material::check_cells(wall_e, brick_e)
            .map_err(|e| corrupt("grid_restitution", e))?;
        if self.grid.is_none() && (wall_e, brick_e) != (None, None) {
            return Err(corrupt(
                "grid_restitution",
                "restitutions for a world without a grid",
            ));
        }
        let grid = match &self.grid {
            None if snap.cells.is_empty() => None,
            None => return Err(corrupt("cells", "cells for a world without a grid")),
            Some(g) => {
                if snap.cells.len() != g.cols() * g.rows() {
                    return Err(corrupt(
                        "cells",
                        format!(
                            "{} cells for a {} × {} grid",
                            snap.cells.len(),
                            g.cols(),
                            g.rows()
                        ),
                    ));
                }
                let mut cells = Vec::with_capacity(snap.cells.len());
                for (i, &c) in snap.cells.iter().enumerate() {
                    cells.push(match c {
                        0 => Cell::Empty,
                        1 => Cell::Wall,
                        2..=5 => Cell::Slope(collide_core::Corner::ALL[usize::from(c - 2)]),
                        256..=511 => Cell::Brick((c - 256) as u8),
                        512..=767 => Cell::Sensor((c - 512) as u8),
                        _ => return Err(corrupt(format!("cells[{i}]"), format!("no cell {c}"))),
                    });
                }
                if cells == g.cells() {
                    None
                } else {
                    let desc = GridDesc {
                        cell: g.cell_size(),
                        origin: g.origin(),
                        cols: g.cols(),
                        rows: g.rows(),
                        cells,
                        wall_restitution: None,
                        brick_restitution: None,
                        brick_filter: crate::Filter::DEFAULT,
                        wall_filter: crate::Filter::DEFAULT,
                        sensor_filter: crate::Filter::DEFAULT,
                    };
                    Some(Grid::new(&desc).map_err(|e| corrupt("cells", e))?)
                }
            }
        };
        Ok((grid, wall_e, brick_e))
    }

    /// The contacts passed through from `snap`, each naming bodies that exist.
    fn restored_passes(
        &self,
        snap: &Snapshot,
        ball_slots: &Slots,
        rect_slots: &Slots,
        grid: Option<&Grid>,
    ) -> Result<Vec<Pass>, SnapshotError> {
        let mut passes = Vec::with_capacity(snap.passes.len());
        for (i, p) in snap.passes.iter().enumerate() {
            let ball = BallId::from_bits(p.0);
            let with = match p.1 {
                0 => PassWith::Rect(RectId::from_bits(p.2)),
                1 => PassWith::Ball(BallId::from_bits(p.2)),
                2 => PassWith::Shape(ShapeId::from_bits(p.2)),
                3 => PassWith::Cell(CellCoord::new(p.2 as u32, (p.2 >> 32) as u32)),
                k => return Err(corrupt(format!("passes[{i}]"), format!("no body kind {k}"))),
            };
            let exists = ball_slots.get(ball).is_some()
                && match with {
                    PassWith::Rect(id) => rect_slots.get(id).is_some(),
                    PassWith::Ball(id) => ball_slots.get(id).is_some() && id != ball,
                    PassWith::Shape(id) => self.shape(id).is_some_and(|s| s.surface.sensor),
                    PassWith::Cell(c) => grid
                        .or(self.grid.as_ref())
                        .is_some_and(|g| matches!(g.cell(c), Cell::Sensor(_))),
                };
            if !exists || !p.3.is_finite() || !p.5.is_none_or(Real::is_finite) {
                return Err(corrupt(
                    format!("passes[{i}]"),
                    "no such body, or not finite",
                ));
            }
            passes.push(Pass {
                ball,
                with,
                since: p.3,
                sensor: p.4,
                ended: p.5,
            });
        }
        Ok(passes)
    }

    /// Sets the normal of every rest on a shape's face in `rests` (by storage index) from the
    /// world's shape, or names the first whose face does not exist (`what[i]`).
    fn restore_shape_face_normals(
        &self,
        rests: &mut [Option<Rest>],
        what: &str,
    ) -> Result<(), SnapshotError> {
        for (i, r) in rests.iter_mut().enumerate() {
            if let Some(Rest {
                on: RestOn::Shape(id, face),
                normal,
                ..
            }) = r
            {
                *normal = self
                    .shape_face_normal(*id, *face)
                    .ok_or_else(|| corrupt(format!("{what}[{i}]"), "no such shape face"))?;
            }
        }
        Ok(())
    }
}

/// The balls of a snapshot, checked: records, rests, the TC rule's memory, sleep counts, slots.
struct RestoredBalls {
    recs: Vec<BallRec>,
    rest: Vec<Option<Rest>>,
    tc_memory: Vec<(Body, Real, Vec2)>,
    slow: Vec<crate::step::sleep::Slow>,
    slots: Slots,
}

/// The rectangles of a snapshot, checked: values, anchors, rests, slots.
struct RestoredRects {
    rects: Vec<Rect>,
    anchor: Vec<(Aabb, Real, Vec2)>,
    rest: Vec<Option<Rest>>,
    slow: Vec<crate::step::sleep::Slow>,
    slots: Slots,
}

/// Body `i`'s filter from a snapshot's list (empty: every body has the default).
fn filter_at(v: &[(u32, u32)], i: usize) -> Filter {
    v.get(i)
        .map_or(Filter::DEFAULT, |&(layers, mask)| Filter::new(layers, mask))
}

/// A velocity a step can move a body with: finite components whose squared length is finite
/// (a body's own motion, a fall under the largest gravity, may pass the setters' `±1e9`).
fn check_state_vel(v: Vec2) -> Result<(), String> {
    if v.is_finite() && v.length_squared().is_finite() {
        Ok(())
    } else {
        Err(format!(
            "{v:?} is not a finite velocity with a finite squared length"
        ))
    }
}

/// The balls of `snap`, checked against the limits a world's setters apply (velocities
/// against [`check_state_vel`]).
fn restored_balls(snap: &Snapshot) -> Result<RestoredBalls, SnapshotError> {
    let mut balls = Vec::with_capacity(snap.balls.len());
    for (i, b) in snap.balls.iter().enumerate() {
        let desc = BallDesc {
            pos: Vec2::from(b.1),
            vel: Vec2::from(b.3),
            radius: b.4,
            density: b.5,
            surface: Surface {
                restitution: snap.ball_restitution.get(i).copied().flatten(),
                filter: filter_at(&snap.ball_filters, i),
                sensor: false,
                one_way: false,
            },
            gravity_scale: snap.ball_gravity.get(i).copied().unwrap_or(1.0),
        };
        // A world's own motion may take a body past the speeds its setters accept (a fall
        // under the largest gravity): a velocity is checked for what the step needs only.
        crate::world::validate::validate_ball(&BallDesc {
            vel: Vec2::ZERO,
            ..desc
        })
        .map_err(|e| corrupt(format!("balls[{i}]"), e))?;
        check_state_vel(desc.vel).map_err(|e| corrupt(format!("balls[{i}].vel"), e))?;
        if !(b.2.is_finite() && b.2 <= snap.time) {
            return Err(corrupt(
                format!("balls[{i}].anchor_time"),
                format!("{} is not a time up to the snapshot's {}", b.2, snap.time),
            ));
        }
        balls.push(BallRec {
            id: BallId::from_bits(b.0),
            anchor: desc.pos,
            anchor_time: b.2,
            v0: desc.vel,
            radius: desc.radius,
            density: desc.density,
        });
    }
    if balls.len() > crate::model::limits::MAX_BALLS {
        return Err(corrupt("balls", "more than the limit"));
    }
    let mut ball_rest = vec![None; balls.len()];
    restore_rests(&snap.rests, &mut ball_rest, "rests")?;
    let mut tc_memory = Vec::with_capacity(snap.tc.len());
    for (k, &(kind, bits, hit, n)) in snap.tc.iter().enumerate() {
        let bad = |problem: &str| corrupt(format!("tc[{k}]"), problem.to_string());
        if !(hit.is_finite() && n.iter().all(|x| x.is_finite())) {
            return Err(bad("not finite"));
        }
        let body = match kind {
            0 => Body::Ball(BallId::from_bits(bits)),
            1 => Body::Rect(RectId::from_bits(bits)),
            _ => return Err(bad("unknown body kind")),
        };
        tc_memory.push((body, hit, Vec2::new(n[0], n[1])));
    }
    let ball_slow = restore_slow(snap, balls.len(), 0)?;
    let ball_slots = Slots::from_parts(
        snap.ball_slots.0.clone(),
        snap.ball_slots.1.clone(),
        snap.balls.iter().map(|b| id_parts(b.0)),
    )
    .map_err(|e| corrupt("ball_slots", e))?;
    Ok(RestoredBalls {
        recs: balls,
        rest: ball_rest,
        tc_memory,
        slow: ball_slow,
        slots: ball_slots,
    })
}

/// The rectangles of `snap`, checked against the limits a world's setters apply.
fn restored_rects(snap: &Snapshot) -> Result<RestoredRects, SnapshotError> {
    let mut rects = Vec::with_capacity(snap.rects.len());
    let mut rect_anchor = Vec::with_capacity(snap.rects.len());
    for (i, r) in snap.rects.iter().enumerate() {
        let Some((kind, sensor)) = Rect::from_code(u64::from(r.3)) else {
            return Err(corrupt(
                format!("rects[{i}].kind"),
                format!("no kind {}", r.3),
            ));
        };
        let surface = Surface {
            restitution: r.7,
            filter: filter_at(&snap.rect_filters, i),
            sensor,
            one_way: false,
        };
        let aabb = Aabb::new(Vec2::new(r.1[0], r.1[1]), Vec2::new(r.1[2], r.1[3]));
        let anchor = Aabb::new(Vec2::new(r.5[0], r.5[1]), Vec2::new(r.5[2], r.5[3]));
        let vel = Vec2::from(r.2);
        check_state_vel(vel).map_err(|e| corrupt(format!("rects[{i}].vel"), e))?;
        for b in [aabb, anchor] {
            crate::world::validate::validate_rect(&RectDesc {
                aabb: b,
                // Checked above, as a ball's.
                vel: if kind == RectKind::Dynamic {
                    Vec2::ZERO
                } else {
                    vel
                },
                kind,
                density: r.4,
                surface,
            })
            .map_err(|e| corrupt(format!("rects[{i}]"), e))?;
        }
        if kind == RectKind::Static && vel != Vec2::ZERO {
            return Err(corrupt(
                format!("rects[{i}].vel"),
                "a static rectangle moves",
            ));
        }
        if !(r.6.is_finite() && r.6 <= snap.time) {
            return Err(corrupt(format!("rects[{i}].anchor_time"), r.6));
        }
        rects.push(Rect {
            id: RectId::from_bits(r.0),
            aabb,
            vel,
            kind,
            density: r.4,
            surface,
        });
        rect_anchor.push((anchor, r.6, vel));
    }
    for (k, &(i, v0)) in snap.rect_paths.iter().enumerate() {
        let v0 = Vec2::from(v0);
        let ok = rects.get(i as usize).is_some_and(|r| {
            r.kind == RectKind::Dynamic && crate::model::limits::Bound::Coord.check_vec2(v0).is_ok()
        });
        if !ok {
            return Err(corrupt(
                format!("rect_paths[{k}]"),
                "not a dynamic rectangle's velocity",
            ));
        }
        rect_anchor[i as usize].2 = v0;
    }
    let mut rect_rest = vec![None; rects.len()];
    restore_rests(&snap.rect_rests, &mut rect_rest, "rect_rests")?;
    if rect_rest
        .iter()
        .zip(&rects)
        .any(|(r, rc)| r.is_some() && rc.kind != RectKind::Dynamic)
    {
        return Err(corrupt(
            "rect_rests",
            "a rest for a rectangle that does not move",
        ));
    }
    if rects.len() > crate::model::limits::MAX_RECTS {
        return Err(corrupt("rects", "more than the limit"));
    }
    let rect_slots = Slots::from_parts(
        snap.rect_slots.0.clone(),
        snap.rect_slots.1.clone(),
        snap.rects.iter().map(|r| id_parts(r.0)),
    )
    .map_err(|e| corrupt("rect_slots", e))?;
    Ok(RestoredRects {
        rects,
        anchor: rect_anchor,
        rest: rect_rest,
        slow: restore_slow(snap, snap.rects.len(), snap.balls.len())?,
        slots: rect_slots,
    })
}

/// The squeeze carries of `snap`, each naming a body that exists.
fn restored_carries(
    snap: &Snapshot,
    ball_slots: &Slots,
    rect_slots: &Slots,
) -> Result<Vec<Carry>, SnapshotError> {
    let mut carries = Vec::with_capacity(snap.carries.len());
    for (i, c) in snap.carries.iter().enumerate() {
        let body = match c.0 {
            0 => Body::Ball(BallId::from_bits(c.1)),
            1 => Body::Rect(RectId::from_bits(c.1)),
            k => {
                return Err(corrupt(
                    format!("carries[{i}]"),
                    format!("no body kind {k}"),
                ))
            }
        };
        let exists = match body {
            Body::Ball(id) => ball_slots.get(id).is_some(),
            Body::Rect(id) => rect_slots.get(id).is_some(),
            // Only balls and boxes are carried.
            Body::Character(_) => false,
        };
        let (vel, normal) = (Vec2::from(c.3), Vec2::from(c.4));
        if !exists || !vel.is_finite() || !normal.is_finite() {
            return Err(corrupt(
                format!("carries[{i}]"),
                "no such body, or not finite",
            ));
        }
        carries.push(Carry {
            body,
            by: crate::step::squeeze::Carrier::Rect(RectId::from_bits(c.2)),
            vel,
            normal,
            cap: Real::INFINITY,
            crushed: c.5,
        });
    }
    Ok(carries)
}

/// The sensor rectangles' listed pairs of `snap`, sorted without repeats.
fn restored_sensor_rects(snap: &Snapshot) -> Result<Vec<(RectId, RectId)>, SnapshotError> {
    // Listed pairs may name a rectangle removed since (its exit is due at the next step).
    let sensor_rects: Vec<(RectId, RectId)> = snap
        .sensor_rects
        .iter()
        .map(|&(s, r)| (RectId::from_bits(s), RectId::from_bits(r)))
        .collect();
    if !sensor_rects.windows(2).all(|w| w[0] < w[1]) {
        return Err(corrupt("sensor_rects", "not sorted without repeats"));
    }
    Ok(sensor_rects)
}

/// The counts toward sleep of the `len` bodies whose entries in the snapshot's `slow` list
/// start at index `first` (the balls from 0, the dynamic rectangles after them):
/// [`SnapshotError::Corrupt`] naming the entry for a place that is not finite or an index
/// past every body.
fn restore_slow(
    snap: &Snapshot,
    len: usize,
    first: usize,
) -> Result<Vec<crate::step::sleep::Slow>, SnapshotError> {
    let mut slow = vec![crate::step::sleep::Slow::default(); len];
    let bodies = snap.balls.len() + snap.rects.len();
    for (k, &(i, count, at)) in snap.slow.iter().enumerate() {
        let i = i as usize;
        if !at.iter().all(|x| x.is_finite()) || i >= bodies {
            return Err(corrupt(format!("slow[{k}]"), "not finite or no such body"));
        }
        if let Some(s) = i.checked_sub(first).and_then(|i| slow.get_mut(i)) {
            *s = crate::step::sleep::Slow {
                count,
                at: Vec2::new(at[0], at[1]),
            };
        }
    }
    Ok(slow)
}
