//! The loaders' common back end: collects cells, colliders and objects and makes the
//! [`Scene`], merging static rectangles into disjoint bands and one-way cells into rectangles.
// The model alone (no loader feature) builds no level: its builder is unused then.
#![cfg_attr(not(any(feature = "tiled", feature = "ldtk")), allow(dead_code))]

use std::path::{Path, PathBuf};

use collide_world::limits::{MAX_GRID_CELLS, MAX_GRID_SIDE};
use collide_world::{
    polygon_corners, polyline_segments, Aabb, Cell, Filter, GridDesc, Real, RectDesc, RectKind,
    Scene, ShapeDesc, ShapeKind, Surface, Vec2,
};

use crate::config::{MapConfig, Rule};
use crate::error::MapError;
use crate::model::{MapLevel, MapObject, MapReport, ObjectBody};

/// A collider's geometry in level pixels.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Geometry {
    /// An axis-aligned rectangle.
    Rect(Aabb),
    /// A polyline through the points, closed or open.
    Polyline(Vec<Vec2>, bool),
    /// A disc.
    Circle(Vec2, Real),
}

/// A collider's material: restitution and filter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Material {
    pub(crate) restitution: Option<Real>,
    pub(crate) filter: Filter,
}

impl Default for Material {
    fn default() -> Self {
        Material {
            restitution: None,
            filter: Filter::DEFAULT,
        }
    }
}

struct PendingRect {
    desc: RectDesc,
    one_way: bool,
    owner: Option<usize>,
}

struct GridAcc {
    desc: GridDesc,
    layer: String,
}

/// Collects a level's parts; [`Builder::finish`] makes the [`MapLevel`].
pub(crate) struct Builder<'c> {
    pub(crate) cfg: &'c MapConfig,
    pub(crate) file: PathBuf,
    size: Vec2,
    grid: Option<GridAcc>,
    one_way_cells: Vec<bool>,
    rects: Vec<PendingRect>,
    shapes: Vec<ShapeDesc>,
    pub(crate) objects: Vec<MapObject>,
    pub(crate) report: MapReport,
}

impl<'c> Builder<'c> {
    pub(crate) fn new(cfg: &'c MapConfig, file: &Path, size: Vec2) -> Self {
        Builder {
            cfg,
            file: file.to_path_buf(),
            size,
            grid: None,
            one_way_cells: Vec::new(),
            rects: Vec::new(),
            shapes: Vec::new(),
            objects: Vec::new(),
            report: MapReport::default(),
        }
    }

    fn grid_error(&self, layer: &str, reason: String) -> MapError {
        MapError::Grid {
            file: self.file.clone(),
            layer: layer.to_owned(),
            reason,
        }
    }

    /// Makes sure the level has a grid of `cols × rows` cells of side `cell` at `origin`
    /// (the first cell layer creates it; the others must match it).
    pub(crate) fn use_grid(
        &mut self,
        layer: &str,
        cell: Real,
        origin: Vec2,
        cols: usize,
        rows: usize,
    ) -> Result<(), MapError> {
        if let Some(g) = &self.grid {
            let d = &g.desc;
            if d.cell != cell || d.origin != origin || d.cols != cols || d.rows != rows {
                return Err(self.grid_error(
                    layer,
                    format!(
                        "{cols} x {rows} cells of {cell} px at ({}, {}) cannot share the grid of \
                         layer {:?} ({} x {} cells of {} px at ({}, {}))",
                        origin.x, origin.y, g.layer, d.cols, d.rows, d.cell, d.origin.x, d.origin.y
                    ),
                ));
            }
            return Ok(());
        }
        if !(cell.is_finite() && cell > 0.0) {
            return Err(self.grid_error(layer, format!("cell size {cell} is not positive")));
        }
        if cols == 0 || rows == 0 || cols > MAX_GRID_SIDE || rows > MAX_GRID_SIDE {
            return Err(self.grid_error(
                layer,
                format!("{cols} x {rows} cells: each side must be 1 to {MAX_GRID_SIDE}"),
            ));
        }
        if cols.saturating_mul(rows) > MAX_GRID_CELLS {
            return Err(self.grid_error(
                layer,
                format!("{cols} x {rows} cells: more than the limit of {MAX_GRID_CELLS}"),
            ));
        }
        self.grid = Some(GridAcc {
            desc: GridDesc {
                cell,
                origin,
                cols,
                rows,
                cells: vec![Cell::Empty; cols * rows],
                wall_restitution: self.cfg.wall_restitution,
                brick_restitution: self.cfg.brick_restitution,
                wall_filter: Filter::DEFAULT,
                brick_filter: Filter::DEFAULT,
                sensor_filter: Filter::DEFAULT,
            },
            layer: layer.to_owned(),
        });
        self.one_way_cells = vec![false; cols * rows];
        Ok(())
    }

    /// Sets cell `(col, row)` of the grid (made by [`Builder::use_grid`]) by `rule`; a later
    /// layer's non-empty cell replaces an earlier one's. Returns false for a rule that cells
    /// cannot have (kinematic, dynamic) or a cell outside the grid.
    pub(crate) fn set_cell(&mut self, col: usize, row: usize, rule: Rule) -> bool {
        let Some(g) = &mut self.grid else {
            return false;
        };
        if col >= g.desc.cols || row >= g.desc.rows {
            return false;
        }
        let i = row * g.desc.cols + col;
        let cell = match rule {
            Rule::None => return true,
            Rule::Wall => Cell::Wall,
            Rule::Brick(b) => Cell::Brick(b),
            Rule::Slope(c) => Cell::Slope(c),
            Rule::Sensor(b) => Cell::Sensor(b),
            Rule::OneWay => {
                g.desc.cells[i] = Cell::Empty;
                self.one_way_cells[i] = true;
                return true;
            }
            Rule::Kinematic | Rule::Dynamic => return false,
        };
        g.desc.cells[i] = cell;
        self.one_way_cells[i] = false;
        true
    }

    /// Adds object `owner`'s collider (an index into [`Builder::objects`]) and records
    /// what it became. `rule` is not [`Rule::None`].
    pub(crate) fn add_collider(
        &mut self,
        owner: usize,
        layer: &str,
        geometry: Geometry,
        rule: Rule,
        material: Material,
    ) -> Result<(), MapError> {
        let unmappable = |reason: String| MapError::Unmappable {
            file: self.file.clone(),
            layer: layer.to_owned(),
            object: self.objects[owner].id.clone(),
            reason,
        };
        let finite = match &geometry {
            Geometry::Rect(a) => a.min.is_finite() && a.max.is_finite(),
            Geometry::Polyline(p, _) => p.iter().all(|q| q.is_finite()),
            Geometry::Circle(c, r) => c.is_finite() && r.is_finite(),
        };
        if !finite {
            return Err(unmappable("a coordinate is not a finite number".to_owned()));
        }
        match geometry {
            Geometry::Rect(aabb) => {
                if aabb.max.x <= aabb.min.x || aabb.max.y <= aabb.min.y {
                    return Err(unmappable(format!(
                        "a rectangle of size {} x {} cannot be a collider",
                        aabb.max.x - aabb.min.x,
                        aabb.max.y - aabb.min.y
                    )));
                }
                // A sensor object is a kinematic sensor rectangle at rest.
                let (kind, sensor) = match rule {
                    Rule::Kinematic => (RectKind::Kinematic, false),
                    Rule::Dynamic => (RectKind::Dynamic, false),
                    Rule::Sensor(_) => (RectKind::Kinematic, true),
                    Rule::Wall | Rule::OneWay => (RectKind::Static, false),
                    Rule::Brick(_) | Rule::Slope(_) | Rule::None => {
                        return Err(unmappable(format!(
                            "rule {rule:?} is for cells, not objects (use wall, one_way, sensor, \
                             kinematic or dynamic)"
                        )))
                    }
                };
                self.rects.push(PendingRect {
                    desc: RectDesc {
                        aabb,
                        kind,
                        surface: Surface {
                            restitution: material.restitution,
                            filter: material.filter,
                            sensor,
                            one_way: false,
                        },
                        ..RectDesc::default()
                    },
                    one_way: rule == Rule::OneWay,
                    owner: Some(owner),
                });
                self.objects[owner].rule = rule;
            }
            Geometry::Polyline(points, closed) => {
                if rule != Rule::Wall {
                    return Err(unmappable(format!(
                        "a polygon, polyline or rotated rectangle can only be a wall (collide's \
                         segments are static and solid), not {rule:?}"
                    )));
                }
                let start = self.shapes.len();
                // A closed outline that is convex with at most 8 corners (a rotated rectangle,
                // most polygon objects) is a solid polygon; any other stays an outline of
                // segments (hollow: a body inside it stays inside).
                if let Some(polygon) = closed.then(|| ShapeDesc::polygon(&points).ok()).flatten() {
                    self.shapes.push(ShapeDesc {
                        surface: Surface {
                            restitution: material.restitution,
                            filter: material.filter,
                            ..Surface::DEFAULT
                        },
                        ..polygon
                    });
                    self.objects[owner].rule = rule;
                    self.objects[owner].body = ObjectBody::Shapes { start, count: 1 };
                    return Ok(());
                }
                for (segment, ends) in polyline_segments(&points, closed) {
                    if segment.a == segment.b {
                        continue;
                    }
                    self.shapes.push(ShapeDesc {
                        kind: ShapeKind::Segment { segment, ends },
                        surface: Surface {
                            restitution: material.restitution,
                            filter: material.filter,
                            sensor: false,
                            one_way: false,
                        },
                    });
                }
                let count = self.shapes.len() - start;
                if count == 0 {
                    return Err(unmappable(
                        "a polyline or polygon without two distinct points".to_owned(),
                    ));
                }
                self.objects[owner].rule = rule;
                self.objects[owner].body = ObjectBody::Shapes { start, count };
            }
            Geometry::Circle(center, radius) => {
                let sensor = match rule {
                    Rule::Wall => false,
                    Rule::Sensor(_) => true,
                    _ => {
                        return Err(unmappable(format!(
                            "a circle can only be a wall or a sensor, not {rule:?}"
                        )))
                    }
                };
                if radius <= 0.0 {
                    return Err(unmappable(format!("a circle of radius {radius}")));
                }
                let start = self.shapes.len();
                self.shapes.push(ShapeDesc {
                    surface: Surface {
                        restitution: material.restitution,
                        filter: material.filter,
                        sensor,
                        one_way: false,
                    },
                    ..ShapeDesc::circle(center, radius)
                });
                self.objects[owner].rule = rule;
                self.objects[owner].body = ObjectBody::Shapes { start, count: 1 };
            }
        }
        Ok(())
    }

    /// The level: the scene with merged rectangles, the object table and the report.
    pub(crate) fn finish(mut self, name: &str, world_offset: Vec2) -> MapLevel {
        // One-way cells: runs along each row become one-way rectangles.
        if let Some(g) = &self.grid {
            let d = &g.desc;
            for row in 0..d.rows {
                let mut col = 0;
                while col < d.cols {
                    if !self.one_way_cells[row * d.cols + col] {
                        col += 1;
                        continue;
                    }
                    let start = col;
                    while col < d.cols && self.one_way_cells[row * d.cols + col] {
                        col += 1;
                    }
                    let min = d.origin + Vec2::new(start as Real, row as Real) * d.cell;
                    let max = d.origin + Vec2::new(col as Real, (row + 1) as Real) * d.cell;
                    self.rects.push(PendingRect {
                        desc: RectDesc {
                            aabb: Aabb::new(min, max),
                            ..RectDesc::default()
                        },
                        one_way: true,
                        owner: None,
                    });
                }
            }
        }
        let mut rects: Vec<RectDesc> = Vec::new();
        let mut one_way = Vec::new();
        let mut owners: Vec<Vec<usize>> = vec![Vec::new(); self.objects.len()];
        let (mergeable, rest): (Vec<PendingRect>, Vec<PendingRect>) =
            self.rects.into_iter().partition(|p| {
                self.cfg.merge_rects
                    && p.desc.kind == RectKind::Static
                    && !p.desc.surface.sensor
                    && !p.one_way
            });
        // Group the mergeable rectangles by material, in order of first appearance.
        let mut groups: Vec<(Material, Vec<PendingRect>)> = Vec::new();
        for p in mergeable {
            let m = Material {
                restitution: p.desc.surface.restitution,
                filter: p.desc.surface.filter,
            };
            match groups.iter_mut().find(|(g, _)| *g == m) {
                Some((_, v)) => v.push(p),
                None => groups.push((m, vec![p])),
            }
        }
        for (m, group) in groups {
            let boxes: Vec<Aabb> = group.iter().map(|p| p.desc.aabb).collect();
            for b in merge_bands(&boxes) {
                let index = rects.len();
                for p in &group {
                    let a = p.desc.aabb;
                    let overlap = a.min.x < b.max.x
                        && b.min.x < a.max.x
                        && a.min.y < b.max.y
                        && b.min.y < a.max.y;
                    if let (true, Some(o)) = (overlap, p.owner) {
                        owners[o].push(index);
                    }
                }
                rects.push(RectDesc {
                    aabb: b,
                    surface: Surface {
                        restitution: m.restitution,
                        filter: m.filter,
                        ..Surface::DEFAULT
                    },
                    ..RectDesc::default()
                });
            }
        }
        for p in rest {
            let index = rects.len();
            if let Some(o) = p.owner {
                owners[o].push(index);
            }
            let mut desc = p.desc;
            if p.one_way {
                one_way.push(index);
                desc.surface.one_way = true;
            }
            rects.push(desc);
        }
        for (o, list) in self.objects.iter_mut().zip(owners) {
            if !list.is_empty() {
                o.body = ObjectBody::Rects(list);
            }
        }
        seal_polygon_seams(&mut self.shapes);
        let scene = Scene {
            name: name.to_owned(),
            size: self.size,
            walls: self.cfg.walls,
            grid: self.grid.map(|g| g.desc),
            balls: Vec::new(),
            rects,
            shapes: self.shapes,
            flippers: Vec::new(),
            spawn: None,
            step: self.cfg.step,
        };
        MapLevel {
            name: name.to_owned(),
            file: self.file,
            world_offset,
            scene,
            objects: self.objects,
            one_way,
            report: self.report,
        }
    }
}

/// Switches off the corners of polygons laid edge to edge where a neighbour of the same filter
/// continues an edge flat ([`polygon_corners`]), so nothing bumps on the seams between them.
fn seal_polygon_seams(shapes: &mut [ShapeDesc]) {
    let mut filters: Vec<Filter> = Vec::new();
    for s in shapes.iter() {
        if matches!(s.kind, ShapeKind::Polygon { .. }) && !filters.contains(&s.surface.filter) {
            filters.push(s.surface.filter);
        }
    }
    for f in filters {
        let group: Vec<usize> = (0..shapes.len())
            .filter(|&i| {
                shapes[i].surface.filter == f && matches!(shapes[i].kind, ShapeKind::Polygon { .. })
            })
            .collect();
        let polygons: Vec<_> = group
            .iter()
            .filter_map(|&i| match shapes[i].kind {
                ShapeKind::Polygon { polygon, .. } => Some(polygon),
                _ => None,
            })
            .collect();
        for (&i, corners) in group.iter().zip(polygon_corners(&polygons)) {
            if let ShapeKind::Polygon { polygon, .. } = shapes[i].kind {
                shapes[i].kind = ShapeKind::Polygon { polygon, corners };
            }
        }
    }
}

/// The union of `boxes` as disjoint rectangles: horizontal bands between the boxes' distinct
/// `y` edges, each band's covered `x` intervals merged where they touch or overlap, and
/// vertically adjacent bands with the same interval merged. A floor drawn as touching or
/// overlapping pieces becomes one rectangle with one top face, so a ball rolling on it meets
/// no seam. The result depends only on the union, not on the order of `boxes`.
#[must_use]
pub fn merge_bands(boxes: &[Aabb]) -> Vec<Aabb> {
    let mut ys: Vec<Real> = boxes.iter().flat_map(|b| [b.min.y, b.max.y]).collect();
    ys.sort_by(Real::total_cmp);
    ys.dedup();
    let mut by_top: Vec<&Aabb> = boxes.iter().collect();
    by_top.sort_by(|a, b| a.min.y.total_cmp(&b.min.y));
    let mut next = 0;
    let mut active: Vec<&Aabb> = Vec::new();
    let mut open: Vec<(Real, Real, Real)> = Vec::new(); // (x0, x1, y top)
    let mut out = Vec::new();
    for w in ys.windows(2) {
        let (y0, y1) = (w[0], w[1]);
        while next < by_top.len() && by_top[next].min.y <= y0 {
            active.push(by_top[next]);
            next += 1;
        }
        active.retain(|b| b.max.y > y0);
        let mut xs: Vec<(Real, Real)> = active
            .iter()
            .filter(|b| b.min.y <= y0 && b.max.y >= y1)
            .map(|b| (b.min.x, b.max.x))
            .collect();
        xs.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut merged: Vec<(Real, Real)> = Vec::new();
        for (a, b) in xs {
            match merged.last_mut() {
                Some(last) if a <= last.1 => last.1 = last.1.max(b),
                _ => merged.push((a, b)),
            }
        }
        let mut still_open = Vec::with_capacity(merged.len());
        for &(a, b) in &merged {
            let top = match open.iter().position(|&(x0, x1, _)| x0 == a && x1 == b) {
                Some(k) => open.swap_remove(k).2,
                None => y0,
            };
            still_open.push((a, b, top));
        }
        for (x0, x1, top) in open.drain(..) {
            out.push(Aabb::new(Vec2::new(x0, top), Vec2::new(x1, y0)));
        }
        open = still_open;
    }
    if let Some(&last) = ys.last() {
        for (x0, x1, top) in open {
            out.push(Aabb::new(Vec2::new(x0, top), Vec2::new(x1, last)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bx(x0: Real, y0: Real, x1: Real, y1: Real) -> Aabb {
        Aabb::new(Vec2::new(x0, y0), Vec2::new(x1, y1))
    }

    fn area(v: &[Aabb]) -> Real {
        v.iter()
            .map(|b| (b.max.x - b.min.x) * (b.max.y - b.min.y))
            .sum()
    }

    #[test]
    fn touching_and_overlapping_floor_pieces_become_one() {
        // Sticker Knight's ground: 256-wide pieces, one overlapping its neighbour by 32.
        let v = [
            bx(0.0, 991.0, 256.0, 1087.0),
            bx(256.0, 991.0, 512.0, 1087.0),
            bx(768.0, 991.0, 1024.0, 1087.0),
            bx(512.0, 991.0, 768.0, 1087.0),
            bx(992.0, 991.0, 1248.0, 1087.0),
        ];
        assert_eq!(merge_bands(&v), vec![bx(0.0, 991.0, 1248.0, 1087.0)]);
    }

    #[test]
    fn union_area_and_disjointness_on_a_grid_of_random_boxes() {
        // Boxes on a 1-unit lattice: the union's area is counted cell by cell independently.
        let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut rnd = |n: u64| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s % n) as Real
        };
        for _ in 0..200 {
            let boxes: Vec<Aabb> = (0..6)
                .map(|_| {
                    let (x, y) = (rnd(20), rnd(20));
                    bx(x, y, x + 1.0 + rnd(8), y + 1.0 + rnd(8))
                })
                .collect();
            let out = merge_bands(&boxes);
            let mut cells = 0;
            for i in 0..40 {
                for j in 0..40 {
                    let p = Vec2::new(i as Real + 0.5, j as Real + 0.5);
                    let inside =
                        |b: &Aabb| p.x > b.min.x && p.x < b.max.x && p.y > b.min.y && p.y < b.max.y;
                    let n_out = out.iter().filter(|b| inside(b)).count();
                    assert_eq!(n_out, usize::from(boxes.iter().any(inside)));
                    cells += n_out;
                }
            }
            assert_eq!(area(&out), cells as Real);
        }
    }
}
