//! Broad phase for the moving bodies of one step: cell lists with cell-crossing events.
//!
//! Balls are kept in the lists of a uniform grid of cells at least as large as the largest
//! ball's diameter, so two balls that touch are always in the same or neighbouring cells. A
//! ball predicts collisions only against the balls of its 3×3 neighbourhood, and only up to
//! the time it leaves its cell; leaving is an event of its own, at which it moves to the next
//! cell's list and predicts again against its new neighbours. This is the "cell crossing"
//! scheme of event-driven hard-disc dynamics (M. Marín, D. Risso, P. Cordero, "Efficient
//! algorithms for many-body hard particle molecular dynamics", J. Comput. Phys. 109, 1993):
//! each event touches a constant number of bodies, whatever their speed or number.
//!
//! Lists are intrusive doubly linked lists over flat arrays (`head`, `next`, `prev`), reused
//! from step to step: no allocation in steady state.

use collide_core::{Aabb, Real, Vec2};

/// The end of a cell's list (and no cell).
pub(crate) const NONE: u32 = u32::MAX;

/// Up to nine cells of the broad phase (a 3×3 neighbourhood, or the part of one that a body
/// just entered), in the order their bodies are visited: a pair search walks them in one loop
/// of its own, so that its per-candidate test is inlined there rather than called through a
/// closure.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Cells {
    /// The cells' indices; the first `len` are used.
    pub(crate) ids: [u32; 9],
    /// How many cells.
    pub(crate) len: usize,
}

impl Cells {
    /// The cells, in order.
    #[inline]
    pub(crate) fn as_slice(&self) -> &[u32] {
        &self.ids[..self.len]
    }
}

/// A body's place in the lists: the next and previous bodies of its cell's list (or `NONE`)
/// and its cell (or `NONE`).
#[derive(Clone, Copy, Debug)]
struct Link {
    next: u32,
    prev: u32,
    cell: u32,
}

impl Link {
    const UNLISTED: Link = Link {
        next: NONE,
        prev: NONE,
        cell: NONE,
    };
}

#[derive(Clone, Debug, Default)]
pub(crate) struct CellLists {
    origin: Vec2,
    size: Real,
    cols: usize,
    rows: usize,
    /// A cell's index is `(row + 1) << shift | (col + 1)`: the grid is surrounded by a ring
    /// of cells that stay empty, so that a 3×3 neighbourhood never needs clamping, and rows
    /// are padded to a power of two, so that a cell's column and row are a mask and a shift
    /// away, not a division.
    shift: u32,
    head: Vec<u32>,
    /// Per body: its list links and cell, in one record (a crossing reads and writes all
    /// three, and its neighbours' links: one cache line each instead of three).
    links: Vec<Link>,
    /// Candidates of the last query.
    pub(crate) out: Vec<u32>,
}

impl CellLists {
    /// Starts loading body `m`'s list links (a cache hint: nothing changes; out of range:
    /// nothing).
    pub(crate) fn prefetch(&self, m: usize) {
        if let Some(x) = self.links.get(m) {
            mem_prefetch::prefetch_read_data::<_, 3>(x);
        }
    }

    /// Starts loading the list heads of the 3×3 cells around body `m`'s cell, the first
    /// and last of each row of three (at most two cache lines a row), for a pair search
    /// soon after (a cache hint: nothing changes; an unlisted body or one out of range, such
    /// as `NO_PARTNER`: nothing).
    pub(crate) fn prefetch_around(&self, m: usize) {
        let Some(l) = self.links.get(m) else { return };
        if l.cell == NONE {
            return;
        }
        let c = l.cell as usize;
        let row = 1usize << self.shift;
        for mid in [c.wrapping_sub(row), c, c.wrapping_add(row)] {
            for k in [mid.wrapping_sub(1), mid.wrapping_add(1)] {
                if let Some(x) = self.head.get(k) {
                    mem_prefetch::prefetch_read_data::<_, 3>(x);
                }
            }
        }
    }

    /// Bytes per body: its `next`, `prev` and `cell_of` entries.
    pub(crate) const BYTES_PER_BODY: usize = std::mem::size_of::<Link>();

    /// Empties the lists for `movers` bodies over `bounds` with cells of side at least `size`
    /// (fewer than `4·movers + 16` cells, at most 4096 per side).
    pub(crate) fn reset(&mut self, bounds: Aabb, size: Real, movers: usize) {
        let ext = bounds.size().max(Vec2::splat(1e-9));
        let max_cells = (4 * movers + 16) as Real;
        let size = size
            .max((ext.x * ext.y / max_cells).sqrt())
            .max(ext.max_element() / 4096.0);
        self.origin = bounds.min;
        self.size = size;
        self.cols = ((ext.x / size).ceil() as usize).clamp(1, 4096);
        self.rows = ((ext.y / size).ceil() as usize).clamp(1, 4096);
        self.head.clear();
        self.shift = (self.cols + 2).next_power_of_two().trailing_zeros();
        self.head.resize((self.rows + 2) << self.shift, NONE);
        self.links.clear();
        self.links.resize(movers, Link::UNLISTED);
    }

    /// The cell containing `p` (clamped to the grid: bodies outside live in the border cells).
    pub(crate) fn cell_at(&self, p: Vec2) -> u32 {
        let q = (p - self.origin) / self.size;
        let c = if q.x > 0.0 {
            (q.x as usize).min(self.cols - 1)
        } else {
            0
        };
        let r = if q.y > 0.0 {
            (q.y as usize).min(self.rows - 1)
        } else {
            0
        };
        self.index(r, c)
    }

    /// The index of the cell in row `r`, column `c`.
    #[inline]
    fn index(&self, r: usize, c: usize) -> u32 {
        ((r + 1) << self.shift | (c + 1)) as u32
    }

    /// The column and row of cell `c`.
    #[inline]
    fn col_row(&self, c: u32) -> (usize, usize) {
        let c = c as usize;
        ((c & ((1 << self.shift) - 1)) - 1, (c >> self.shift) - 1)
    }

    /// Calls `f` on every body of the three cells of a row starting at index `first`.
    #[inline]
    fn row_of_three(&self, first: usize, f: &mut impl FnMut(usize)) {
        for &h in &self.head[first..first + 3] {
            let mut m = h;
            while m != NONE {
                f(m as usize);
                m = self.links[m as usize].next;
            }
        }
    }

    /// The cell a body is registered in.
    pub(crate) fn cell_of(&self, m: usize) -> u32 {
        self.links[m].cell
    }

    /// When a body at `pos` moving with `v` leaves cell `c` (seconds from now, `+inf` when it
    /// never does) and the cell it enters: the sides of its cell that its velocity points
    /// to, per axis (both at once through a corner). A border cell extends to infinity
    /// outward, so the next cell is always inside the grid.
    #[inline]
    pub(crate) fn exit(&self, c: u32, pos: Vec2, v: Vec2) -> (Real, u32) {
        let (col, row) = self.col_row(c);
        // Time to reach the side the velocity points to on one axis: cells `k` (low side)
        // and `k + 1` (high side) from the origin, infinite past a border. Written as
        // selects rather than branches on the sign (a ball's direction is as likely one way
        // as the other: a branch on it is mispredicted every other time); the arithmetic is
        // that of the branches, so the result is the same bits.
        let axis = |p: Real, v: Real, o: Real, k: usize, last: usize| -> Real {
            let up = v > 0.0;
            let side = if up { k + 1 } else { k };
            let open = if up { k == last } else { k == 0 };
            let t = (o + Real::from(side as u32) * self.size - p) / v;
            // (Not moving on this axis, NaN included: never.) Non-short-circuit operators:
            // one select at the end.
            if !(up | (v < 0.0)) | open {
                Real::INFINITY
            } else {
                t
            }
        };
        let tx = axis(pos.x, v.x, self.origin.x, col, self.cols - 1);
        let ty = axis(pos.y, v.y, self.origin.y, row, self.rows - 1);
        // Neither time is NaN (finite position and velocity, infinite bounds only outward),
        // so plain compares take the minimum and clamp at zero as `min`/`max` would, in
        // fewer instructions. Only a zero's sign can differ: the comparisons below do not see
        // it, and the caller adds the result to a time, never -0.
        let tc = if ty < tx { ty } else { tx };
        let tc = if tc > 0.0 { tc } else { 0.0 };
        if !tc.is_finite() {
            return (Real::INFINITY, NONE);
        }
        let mut next = c as i64;
        if tx <= ty && v.x != 0.0 {
            next += if v.x > 0.0 { 1 } else { -1 };
        }
        if ty <= tx && v.y != 0.0 {
            next += if v.y > 0.0 {
                1 << self.shift
            } else {
                -(1 << self.shift)
            };
        }
        (tc, next as u32)
    }

    /// [`CellLists::exit`] for a body under constant acceleration `a` (a ball under
    /// gravity, on the parabola `pos + v·τ + ½·a·τ²`): per axis the earliest root of the
    /// quadratic that reaches a side of its cell (stable roots, `collide_core::roots`); the
    /// next cell is the neighbour across the side(s) reached first.
    pub(crate) fn exit_path(&self, c: u32, pos: Vec2, v: Vec2, a: Vec2) -> (Real, u32) {
        let (col, row) = self.col_row(c);
        // (time, direction) of leaving through a side on one axis.
        let axis = |p: Real, v: Real, a: Real, o: Real, k: usize, last: usize| -> (Real, i64) {
            let mut best = (Real::INFINITY, 0);
            if k < last {
                let hi = o + Real::from((k + 1) as u32) * self.size;
                best = (reach_time(hi - p, v, a), 1);
            }
            if k > 0 {
                let lo = o + Real::from(k as u32) * self.size;
                let t = reach_time(p - lo, -v, -a);
                if t < best.0 {
                    best = (t, -1);
                }
            }
            best
        };
        let (tx, dx) = axis(pos.x, v.x, a.x, self.origin.x, col, self.cols - 1);
        let (ty, dy) = axis(pos.y, v.y, a.y, self.origin.y, row, self.rows - 1);
        let tc = tx.min(ty);
        if !tc.is_finite() {
            return (Real::INFINITY, NONE);
        }
        let mut next = c as i64;
        if tx <= ty {
            next += dx;
        }
        if ty <= tx {
            next += dy << self.shift;
        }
        (tc, next as u32)
    }

    /// Puts body `m` in cell `c` (it must not be in a list).
    pub(crate) fn insert(&mut self, m: usize, c: u32) {
        let h = self.head[c as usize];
        self.links[m] = Link {
            next: h,
            prev: NONE,
            cell: c,
        };
        if h != NONE {
            self.links[h as usize].prev = m as u32;
        }
        self.head[c as usize] = m as u32;
    }

    /// Takes body `m` out of its cell's list.
    pub(crate) fn remove(&mut self, m: usize) {
        let Link {
            next: n,
            prev: p,
            cell: c,
        } = self.links[m];
        if c == NONE {
            return;
        }
        if p != NONE {
            self.links[p as usize].next = n;
        } else {
            self.head[c as usize] = n;
        }
        if n != NONE {
            self.links[n as usize].prev = p;
        }
        self.links[m] = Link::UNLISTED;
    }

    /// Body `from`, the last one, becomes body `to` (`to < from`, in no list: a removed
    /// body's place), keeping its place in its cell's list; the lists then hold `from` bodies.
    pub(crate) fn rename_last(&mut self, from: usize, to: usize) {
        debug_assert!(from + 1 == self.links.len() && to < from);
        debug_assert!(self.links[to].cell == NONE);
        let l = self.links[from];
        self.links[to] = l;
        if l.cell != NONE {
            if l.prev != NONE {
                self.links[l.prev as usize].next = to as u32;
            } else {
                self.head[l.cell as usize] = to as u32;
            }
            if l.next != NONE {
                self.links[l.next as usize].prev = to as u32;
            }
        }
        self.links.pop();
    }

    /// Makes room for one more body (in no list yet).
    pub(crate) fn push_body(&mut self) {
        self.links.push(Link::UNLISTED);
    }

    /// Forgets the last body (in no list: a removed body).
    pub(crate) fn pop_last(&mut self) {
        debug_assert!(self.links.last().is_some_and(|l| l.cell == NONE));
        self.links.pop();
    }

    /// Calls `f` on every body of the 3×3 cells around cell `c` (rows, then columns, then
    /// each list in order).
    #[inline]
    pub(crate) fn for_each_neighbour(&self, c: u32, mut f: impl FnMut(usize)) {
        // The ring of empty cells around the grid: no clamping, three heads a row.
        let top_left = c as usize - (1 << self.shift) - 1;
        for r in 0..3 {
            self.row_of_three(top_left + (r << self.shift), &mut f);
        }
    }

    /// The cells of the 3×3 neighbourhood of cell `c`, rows then columns (the order of
    /// [`CellLists::for_each_neighbour`]).
    #[inline]
    pub(crate) fn neighbour_cells(&self, c: u32) -> Cells {
        // The ring of empty cells around the grid: no clamping, three cells a row.
        let top_left = c - (1 << self.shift) - 1;
        let mut out = Cells::default();
        for r in 0..3 {
            let first = top_left + (r << self.shift);
            for k in 0..3 {
                out.ids[(3 * r + k) as usize] = first + k;
            }
        }
        out.len = 9;
        out
    }

    /// The cells of the 3×3 neighbourhood of cell `c` that are not in the 3×3 neighbourhood
    /// of cell `old` (the cells a body crossing from `old` to `c` newly has next to it), rows
    /// then columns.
    #[inline(always)]
    pub(crate) fn entering_cells(&self, old: u32, c: u32) -> Cells {
        let (col, row) = self.col_row(c);
        let (ocol, orow) = self.col_row(old);
        let dc = col as i64 - ocol as i64;
        let mut out = Cells::default();
        // Rows and columns of the ring around the grid are empty: no clamping needed.
        for dr in [-1i64, 0, 1] {
            let r = row as i64 + dr;
            let mid = c as i64 + (dr << self.shift);
            if r.abs_diff(orow as i64) > 1 || (dc != 0 && dc.abs() != 1) {
                // A row the old neighbourhood did not reach, or a jump of more than one
                // column: all of it.
                for k in -1..=1 {
                    out.ids[out.len] = (mid + k) as u32;
                    out.len += 1;
                }
            } else if dc.abs() == 1 {
                // A shared row: only the column on the side it moved to.
                out.ids[out.len] = (mid + dc) as u32;
                out.len += 1;
            }
        }
        out
    }

    /// The first body of cell `c`'s list, or `NONE`.
    #[inline]
    pub(crate) fn first_in(&self, c: u32) -> u32 {
        self.head[c as usize]
    }

    /// The body after body `m` in its cell's list, or `NONE`.
    #[inline]
    pub(crate) fn next_in(&self, m: usize) -> u32 {
        self.links[m].next
    }

    /// Calls `f` on the bodies of every cell overlapping `b` grown by one cell (as
    /// [`CellLists::query_box`], without collecting them).
    pub(crate) fn for_each_in_box(&self, b: &Aabb, mut f: impl FnMut(usize)) {
        let ((c0, c1), (r0, r1)) = self.box_range(b);
        for r in r0..=r1 {
            for q in c0..=c1 {
                let mut m = self.head[self.index(r, q) as usize];
                while m != NONE {
                    f(m as usize);
                    m = self.links[m as usize].next;
                }
            }
        }
    }

    /// The column and row ranges (inclusive) of the cells overlapping `b` grown by one cell.
    fn box_range(&self, b: &Aabb) -> ((usize, usize), (usize, usize)) {
        let lo = (b.min - self.origin) / self.size;
        let hi = (b.max - self.origin) / self.size;
        // One cell of margin each side; truncation of non-negative values is the floor.
        let lo_idx = |v: Real| -> usize {
            if v >= 1.0 {
                v as usize - 1
            } else {
                0
            }
        };
        let hi_idx = |v: Real, n: usize| -> usize {
            if v >= 0.0 {
                (v as usize).saturating_add(1).min(n - 1)
            } else {
                0
            }
        };
        (
            (lo_idx(lo.x).min(self.cols - 1), hi_idx(hi.x, self.cols)),
            (lo_idx(lo.y).min(self.rows - 1), hi_idx(hi.y, self.rows)),
        )
    }

    /// Fills `out` with the bodies of every cell overlapping `b` grown by one cell.
    pub(crate) fn query_box(&mut self, b: &Aabb) {
        self.out.clear();
        let ((c0, c1), (r0, r1)) = self.box_range(b);
        for r in r0..=r1 {
            for q in c0..=c1 {
                let mut m = self.head[self.index(r, q) as usize];
                while m != NONE {
                    self.out.push(m);
                    m = self.links[m as usize].next;
                }
            }
        }
    }
}

/// The earliest `τ >= 0` at which a coordinate `gap` short of a side (`>= 0` inside), moving
/// toward it at `v` with acceleration `a`, crosses it outward: the first root of
/// `gap − v·τ − ½·a·τ² = 0` where the body moves outward (`v + a·τ > 0`; a body found a
/// hair past a side it just crossed inward, by rounding, does not cross it back), 0 when on
/// the side and moving or accelerating outward, `+inf` when it never does.
fn reach_time(gap: Real, v: Real, a: Real) -> Real {
    if gap <= 0.0 && (v > 0.0 || (v == 0.0 && a > 0.0)) {
        return 0.0;
    }
    collide_core::roots::quadratic_roots(-0.5 * a, -v, gap)
        .into_iter()
        .find(|&t| t > 0.0 && v + a * t > 0.0)
        .unwrap_or(Real::INFINITY)
}
