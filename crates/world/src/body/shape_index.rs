//! A uniform grid over the static shapes' boxes (`crate::body::shape`), so that a ball's search
//! visits the shapes near its path instead of every shape: a pachinko board of a thousand pins
//! costs each ball the few pins around it.
//!
//! The shapes never move, so the grid is built once after the shapes change (at the next
//! step's start) in `O(shapes + cells they cover)`: the bounding box of all shapes cut into
//! cells about as wide as the mean shape (at most [`MAX_SIDE`] a side), each shape listed in
//! every cell its box overlaps, stored as a counting sort (cell starts, then one array of
//! shape indices; C. Ericson, *Real-Time Collision Detection*, 2005, §7.1). A query lists the
//! cells a region overlaps and returns their shapes once each, **in ascending storage
//! order**: the search then meets them in the order of a scan of every shape, so its ties and
//! its results are the same bits as the scan's. Worlds with few shapes scan them all
//! ([`INDEX_FROM`]).

use crate::body::shape::Shape;
use collide_core::{Aabb, Real, Vec2};

/// The number of shapes from which a world indexes them (below it a scan is as fast): 16.
pub(crate) const INDEX_FROM: usize = 16;

/// The most cells along a side of the grid: 512.
const MAX_SIDE: usize = 512;

/// The grid over the shapes' boxes; empty (no cell) when the shapes are not indexed.
#[derive(Clone, Debug, Default)]
pub(crate) struct ShapeIndex {
    origin: Vec2,
    /// Cell side, world units.
    cell: Real,
    cols: usize,
    rows: usize,
    /// Cell `c`'s shapes are `items[starts[c]..starts[c + 1]]`, ascending.
    starts: Vec<u32>,
    items: Vec<u32>,
}

impl ShapeIndex {
    /// Builds the grid over `shapes` (their boxes), or an empty one for fewer than
    /// [`INDEX_FROM`] shapes.
    pub(crate) fn build(shapes: &[Shape]) -> Self {
        if shapes.len() < INDEX_FROM {
            return ShapeIndex::default();
        }
        let boxes: Vec<Aabb> = shapes.iter().map(|s| s.kind.aabb()).collect();
        let mut all = boxes[0];
        let mut sizes = 0.0;
        for b in &boxes {
            all = all.union(b);
            sizes += b.size().max_element();
        }
        let extent = all.size().max_element().max(Real::MIN_POSITIVE);
        let mean = sizes / boxes.len() as Real;
        // About the mean shape's size, never so small that a side passes MAX_SIDE cells.
        let cell = mean.max(extent / MAX_SIDE as Real).max(Real::MIN_POSITIVE);
        let side = |len: Real| ((len / cell).floor() as usize + 1).min(MAX_SIDE);
        let (cols, rows) = (side(all.size().x), side(all.size().y));
        let mut index = ShapeIndex {
            origin: all.min,
            cell,
            cols,
            rows,
            starts: vec![0; cols * rows + 1],
            items: Vec::new(),
        };
        // Counting sort: counts, prefix sums, then every shape into its cells in storage order
        // (so that each cell's list is ascending).
        for b in &boxes {
            let (c0, r0, c1, r1) = index.range(b);
            for r in r0..=r1 {
                for c in c0..=c1 {
                    index.starts[r * cols + c + 1] += 1;
                }
            }
        }
        for k in 1..index.starts.len() {
            index.starts[k] += index.starts[k - 1];
        }
        let mut fill = index.starts.clone();
        index.items = vec![0; index.starts[cols * rows] as usize];
        for (k, b) in boxes.iter().enumerate() {
            let (c0, r0, c1, r1) = index.range(b);
            for r in r0..=r1 {
                for c in c0..=c1 {
                    let at = &mut fill[r * cols + c];
                    index.items[*at as usize] = k as u32;
                    *at += 1;
                }
            }
        }
        index
    }

    /// The side of a cell, world units.
    pub(crate) fn cell(&self) -> Real {
        self.cell
    }

    /// Whether the shapes are indexed (else a search scans them all).
    pub(crate) fn is_built(&self) -> bool {
        self.cols > 0
    }

    /// The cells (inclusive column and row ranges) that box `b` overlaps, clamped to the grid
    /// (a box beyond the grid gets its nearest cells, which hold no shape it could meet).
    fn range(&self, b: &Aabb) -> (usize, usize, usize, usize) {
        let cell = |v: Real, o: Real, n: usize| -> usize {
            let k = ((v - o) / self.cell).floor();
            if k >= n as Real {
                n - 1
            } else if k >= 0.0 {
                k as usize
            } else {
                0
            }
        };
        (
            cell(b.min.x, self.origin.x, self.cols),
            cell(b.min.y, self.origin.y, self.rows),
            cell(b.max.x, self.origin.x, self.cols),
            cell(b.max.y, self.origin.y, self.rows),
        )
    }

    /// The indices of the shapes whose cells box `b` overlaps, each once, ascending, into
    /// `out` (cleared first). Every shape whose box meets `b` is among them.
    pub(crate) fn candidates(&self, b: &Aabb, out: &mut Vec<u32>) {
        out.clear();
        let (c0, r0, c1, r1) = self.range(b);
        for r in r0..=r1 {
            for c in c0..=c1 {
                let k = r * self.cols + c;
                out.extend_from_slice(
                    &self.items[self.starts[k] as usize..self.starts[k + 1] as usize],
                );
            }
        }
        if (c0, r0) != (c1, r1) {
            out.sort_unstable();
            out.dedup();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::model::ids::Slots;
    use crate::model::rng::XorShift64Star;
    use crate::model::shape_desc::ShapeKind;
    use collide_core::{Circle, Segment, SegmentEnds};

    fn random_shapes(n: usize, seed: u64) -> Vec<Shape> {
        let mut rng = XorShift64Star::new(seed);
        let mut slots = Slots::default();
        (0..n)
            .map(|k| {
                let p = Vec2::new(rng.range_f64(0.0, 1000.0), rng.range_f64(0.0, 600.0));
                let kind = if k % 3 == 0 {
                    let q = p + rng.unit_vector() * rng.range_f64(1.0, 300.0);
                    ShapeKind::Segment {
                        segment: Segment::new(p, q),
                        ends: SegmentEnds::BOTH,
                    }
                } else {
                    ShapeKind::Circle(Circle::new(p, rng.range_f64(1.0, 12.0)))
                };
                Shape {
                    id: slots.insert(k as u32),
                    kind,
                    surface: crate::Surface::DEFAULT,
                }
            })
            .collect()
    }

    /// A query's candidates hold every shape whose box meets the region, once each,
    /// ascending, for random shapes and regions (inside, across and beyond the grid).
    #[test]
    fn candidates_cover_every_shape_the_region_meets() {
        let mut rng = XorShift64Star::new(11);
        for seed in 0..20 {
            let shapes = random_shapes(200 + 37 * seed as usize, seed);
            let index = ShapeIndex::build(&shapes);
            assert!(index.is_built());
            let mut out = Vec::new();
            for _ in 0..200 {
                let p = Vec2::new(rng.range_f64(-200.0, 1200.0), rng.range_f64(-200.0, 800.0));
                let q = p + Vec2::new(rng.range_f64(0.0, 150.0), rng.range_f64(0.0, 150.0));
                let region = Aabb::new(p, q);
                index.candidates(&region, &mut out);
                assert!(out.windows(2).all(|w| w[0] < w[1]), "ascending, once each");
                for (k, s) in shapes.iter().enumerate() {
                    if collide_core::aabb_overlaps_aabb(&region, &s.kind.aabb()) {
                        assert!(out.contains(&(k as u32)), "shape {k} missed");
                    }
                }
            }
        }
        assert!(!ShapeIndex::build(&random_shapes(INDEX_FROM - 1, 1)).is_built());
    }

    /// A pachinko board of 400 pins and segments under gravity with 100 balls: stepped with
    /// the index and with a scan of every shape, the same bits after every step.
    #[test]
    fn the_index_gives_the_scans_results_bit_for_bit() {
        use crate::model::desc::{BallDesc, StepConfig, Walls};
        use crate::model::shape_desc::ShapeDesc;
        use crate::world::World;
        let config = StepConfig {
            gravity: Vec2::new(0.0, 981.0),
            restitution: 0.9,
            ..StepConfig::default()
        };
        let mut w = World::new(Vec2::new(1000.0, 600.0), Walls::ALL, config).expect("valid");
        for s in random_shapes(400, 5) {
            let desc = match s.kind {
                ShapeKind::Segment { segment, .. } => ShapeDesc::segment(segment.a, segment.b),
                ShapeKind::Circle(c) => ShapeDesc::circle(c.center, c.radius),
                ShapeKind::Polygon { polygon, corners } => {
                    ShapeDesc::chain_polygon(polygon, corners)
                }
            };
            w.add_shape(desc).expect("valid");
        }
        let mut rng = XorShift64Star::new(9);
        while w.balls().len() < 100 {
            let p = Vec2::new(rng.range_f64(5.0, 995.0), rng.range_f64(5.0, 595.0));
            if w.circle_is_free(p, 2.0, None) && w.balls().all(|b| (b.pos - p).length() > 4.0) {
                let vel = rng.unit_vector() * rng.range_f64(10.0, 2000.0);
                w.add_ball(BallDesc {
                    pos: p,
                    vel,
                    radius: 2.0,
                    ..BallDesc::default()
                })
                .expect("valid");
            }
        }
        let mut scan = w.clone();
        let mut hits = 0;
        for step in 0..120 {
            hits += w
                .step()
                .iter()
                .filter(|e| {
                    matches!(
                        e,
                        crate::model::event::Event::Contact(crate::Contact {
                            body: crate::Body::Ball(_),
                            other: crate::Target::Shape(_),
                            ..
                        })
                    )
                })
                .count();
            assert!(w.shape_index.is_built());
            scan.shape_index = ShapeIndex::default();
            scan.shape_index_stale = false;
            scan.step();
            assert_eq!(w.state_hash(), scan.state_hash(), "step {step}");
            assert_eq!(w.events(), scan.events(), "step {step}");
        }
        assert!(hits > 500, "{hits} shape contacts");
    }
}
