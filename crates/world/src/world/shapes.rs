//! Adding, reading and removing static shapes (segments, polylines, circles: `crate::body::shape`).

use crate::body::shape::{bad, check_point, polyline_segments, validate, Shape};
use crate::model::error::WorldError;
use crate::model::filter::Filter;
use crate::model::ids::ShapeId;
use crate::model::limits::MAX_SHAPES;
use crate::model::shape_desc::ShapeDesc;
use crate::model::surface::Surface;
use crate::model::target::Target;
use crate::world::World;
use collide_core::{Real, Vec2};

impl World {
    /// Adds a static shape: a segment, a circle or a convex polygon ([`crate::Shape`]).
    ///
    /// # Errors
    /// [`WorldError::BadShape`] naming the field for a point outside [`crate::limits::Bound::Coord`], a
    /// radius outside [`crate::limits::Bound::Positive`], a restitution outside [`crate::limits::Bound::Restitution`] or a
    /// segment flagged as a sensor;
    /// [`WorldError::TooMany`] past [`MAX_SHAPES`]. Nothing is added then.
    pub fn add_shape(&mut self, desc: ShapeDesc) -> Result<ShapeId, WorldError> {
        validate(&desc)?;
        if self.shapes.len() >= MAX_SHAPES {
            return Err(WorldError::TooMany {
                what: "shapes",
                count: self.shapes.len() + 1,
                max: MAX_SHAPES,
            });
        }
        self.edited();
        self.scratch.valid = false;
        self.shape_index_stale = true;
        let id = self.shape_slots.insert(self.shapes.len() as u32);
        self.shapes.push(Shape {
            id,
            kind: desc.kind,
            surface: desc.surface,
        });
        if desc.surface.one_way {
            self.mark_one_way(Target::Shape(id), true);
        }
        Ok(id)
    }

    /// Adds the segments of a polyline through `points` (closed: back to the first), with no
    /// obstacle at its straight joints ([`polyline_segments`]); each segment has `restitution`
    /// and `filter`. Returns their ids in order.
    ///
    /// # Errors
    /// As [`World::add_shape`] (field `points` for a point out of bounds, or fewer than two
    /// points); nothing is added then.
    pub fn add_polyline(
        &mut self,
        points: &[Vec2],
        closed: bool,
        restitution: Option<Real>,
        filter: Filter,
    ) -> Result<Vec<ShapeId>, WorldError> {
        if points.len() < 2 {
            return Err(bad("points", "a polyline needs at least two points"));
        }
        for &p in points {
            check_point("points", p)?;
        }
        let segments = polyline_segments(points, closed);
        if self.shapes.len() + segments.len() > MAX_SHAPES {
            return Err(WorldError::TooMany {
                what: "shapes",
                count: self.shapes.len() + segments.len(),
                max: MAX_SHAPES,
            });
        }
        let descs: Vec<ShapeDesc> = segments
            .into_iter()
            .map(|(segment, ends)| ShapeDesc {
                surface: Surface {
                    restitution,
                    filter,
                    sensor: false,
                    one_way: false,
                },
                ..ShapeDesc::chain_segment(segment, ends)
            })
            .collect();
        for d in &descs {
            validate(d)?;
        }
        descs.into_iter().map(|d| self.add_shape(d)).collect()
    }

    /// A static shape by id, or `None` if the id is stale.
    #[must_use]
    pub fn shape(&self, id: ShapeId) -> Option<&Shape> {
        self.shape_slots.get(id).map(|i| &self.shapes[i])
    }

    /// Every static shape, in storage order.
    #[must_use]
    pub fn shapes(&self) -> &[Shape] {
        &self.shapes
    }

    /// The words of the static shapes for the state hash and a snapshot's check (none without
    /// shapes): id, kind, geometry, end flags, sensor flag, restitution, filter.
    pub(crate) fn shapes_words(&self) -> Vec<u64> {
        let mut out = Vec::new();
        for sh in &self.shapes {
            out.push(sh.id.to_bits());
            sh.kind.push_words(sh.surface.sensor, &mut out);
            out.push(sh.surface.restitution.map_or(u64::MAX, Real::to_bits));
            out.push(u64::from(sh.surface.filter.layers) << 32 | u64::from(sh.surface.filter.mask));
        }
        out
    }

    /// The static shapes a body of `filter` meets as obstacles (`None`: any body): not the
    /// sensors, not the one-way platforms (passed through from below on purpose).
    pub(crate) fn solid_shapes(
        &self,
        filter: Option<crate::model::filter::Filter>,
    ) -> impl Iterator<Item = &Shape> + '_ {
        self.shapes.iter().filter(move |sh| {
            !sh.surface.sensor
                && !sh.surface.one_way
                && filter.is_none_or(|f| f.collides(sh.surface.filter))
        })
    }

    /// Whether a disc of `radius` at `p` overlaps a static shape that is an obstacle (not a
    /// sensor).
    pub(crate) fn circle_overlaps_shape(&self, p: Vec2, radius: Real) -> bool {
        self.shapes
            .iter()
            .filter(|sh| !sh.surface.sensor)
            .any(|sh| sh.kind.overlaps_circle(p, radius))
    }

    /// Removes a static shape; returns it, or `None` if the id is stale.
    pub fn remove_shape(&mut self, id: ShapeId) -> Option<Shape> {
        let i = self.shape_slots.get(id)?;
        // The balls it held fly free from where they are, and sleeping balls wake.
        self.free_rests_between_steps(
            |on| matches!(on, crate::body::rest::RestOn::Shape(s, _) if *s == id),
        );
        self.edited();
        self.scratch.valid = false;
        self.shape_index_stale = true;
        self.shape_slots.remove(id);
        self.drop_passes_with(crate::step::pass::PassWith::Shape(id));
        self.one_way
            .retain(|t| *t != crate::model::target::Target::Shape(id));
        let shape = self.shapes.swap_remove(i);
        if let Some(moved) = self.shapes.get(i) {
            self.shape_slots.relocate(moved.id, i as u32);
        }
        Some(shape)
    }
}
