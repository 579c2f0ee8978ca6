//! How fast can an exact event-driven step be on this machine, without collide's generality?
//! `edmd_floor N SPEED STEPS`: the arena's balls without its tiles (world [0, 1000]², four
//! walls, radius 2, equal masses, restitution 1), stepped by collide and by a minimal
//! event-driven hard-disc loop written only for this case (struct-of-arrays state, cells of
//! fixed capacity, one indexed 4-ary heap, cell-crossing events, lazy invalidation by
//! collision counters: the textbook scheme of Rapaport's "The Art of Molecular Dynamics
//! Simulation", ch. 14, and of Marín, Risso and Cordero 1993), taking turns, 20 steps each.
//! Prints both medians and the events each counted (ball-ball collisions and wall hits per
//! step), and each one's energy drift and overlapping pairs at the end.
//!
//! It is a measuring tool, not a second engine: no tiles, rectangles, open sides, masses,
//! edits, canonical tie order or iteration bounds. What it says is how far collide's loop is
//! from a loop that does only this (docs/performance.md, tenth session).
use collide_world::{scene::arena_scene, Event, World};

type R = f64;
const NONE: u32 = u32::MAX;
const CAP: usize = 16;

struct Lean {
    n: usize,
    x: Vec<R>,
    y: Vec<R>,
    vx: Vec<R>,
    vy: Vec<R>,
    /// Time of each ball's state.
    t: Vec<R>,
    /// Collisions (velocity changes) of each ball: predictions against an older count are void.
    count: Vec<u32>,
    /// Each ball's earliest pair event found: time, partner, the partner's count then.
    pair_t: Vec<R>,
    pair_j: Vec<u32>,
    pair_c: Vec<u32>,
    /// Its wall hit: time and axis (0 x, 1 y).
    wall_t: Vec<R>,
    wall_axis: Vec<u8>,
    /// Its next cell crossing: time and the next cell.
    cross_t: Vec<R>,
    cross_c: Vec<u32>,
    cell_of: Vec<u32>,
    /// Cells: up to CAP balls each (discs of radius 2 that do not overlap leave room for at
    /// most 5 centres in a cell of side 6, 13 in one of side 10), a ring of empty cells
    /// around the grid.
    cells: Vec<[u32; CAP]>,
    fill: Vec<u8>,
    cols: usize,
    size: R,
    side: R,
    r: R,
    /// Indexed 4-ary heap of (earliest event time, ball), and each ball's slot in it.
    heap: Vec<(R, u32)>,
    pos: Vec<u32>,
    collisions: u64,
    walls: u64,
    crossings: u64,
}

impl Lean {
    fn new(balls: &[(R, R, R, R)], r: R, side: R) -> Lean {
        let n = balls.len();
        let spacing = (side * side / n as R).sqrt();
        // Cell side: `CELL` × the mean spacing (default 0.6, collide's choice), at least a
        // diameter.
        let factor = std::env::var("CELL")
            .ok()
            .and_then(|s| s.parse::<R>().ok())
            .unwrap_or(0.6);
        let size = (2.0 * r * (1.0 + 1e-6)).max(factor * spacing);
        let k = (side / size).ceil() as usize;
        let size = side / k as R;
        let cols = k + 2;
        let mut s = Lean {
            n,
            x: balls.iter().map(|b| b.0).collect(),
            y: balls.iter().map(|b| b.1).collect(),
            vx: balls.iter().map(|b| b.2).collect(),
            vy: balls.iter().map(|b| b.3).collect(),
            t: vec![0.0; n],
            count: vec![0; n],
            pair_t: vec![R::INFINITY; n],
            pair_j: vec![NONE; n],
            pair_c: vec![0; n],
            wall_t: vec![R::INFINITY; n],
            wall_axis: vec![0; n],
            cross_t: vec![R::INFINITY; n],
            cross_c: vec![NONE; n],
            cell_of: vec![NONE; n],
            cells: vec![[NONE; CAP]; cols * cols],
            fill: vec![0; cols * cols],
            cols,
            size,
            side,
            r,
            heap: Vec::with_capacity(n),
            pos: vec![NONE; n],
            collisions: 0,
            walls: 0,
            crossings: 0,
        };
        for i in 0..n {
            let c = s.cell_at(s.x[i], s.y[i]);
            s.insert(i, c);
        }
        for i in 0..n {
            s.predict(i, 0.0);
        }
        s
    }

    fn cell_at(&self, x: R, y: R) -> u32 {
        let k = self.cols - 2;
        let cx = ((x / self.size) as usize).min(k - 1) + 1;
        let cy = ((y / self.size) as usize).min(k - 1) + 1;
        (cy * self.cols + cx) as u32
    }

    fn insert(&mut self, i: usize, c: u32) {
        let f = &mut self.fill[c as usize];
        assert!((*f as usize) < CAP, "cell overflow");
        self.cells[c as usize][*f as usize] = i as u32;
        *f += 1;
        self.cell_of[i] = c;
    }

    fn remove(&mut self, i: usize) {
        let c = self.cell_of[i] as usize;
        let f = self.fill[c] as usize;
        let cell = &mut self.cells[c];
        let k = cell[..f]
            .iter()
            .position(|&b| b == i as u32)
            .expect("listed");
        cell[k] = cell[f - 1];
        self.fill[c] -= 1;
    }

    /// Contact time of `i` and `j` after `now` (both from their own states), if any.
    #[inline(always)]
    fn contact(&self, i: usize, j: usize, now: R) -> R {
        let tt = self.t[i].max(self.t[j]);
        let xi = self.x[i] + self.vx[i] * (tt - self.t[i]);
        let yi = self.y[i] + self.vy[i] * (tt - self.t[i]);
        let xj = self.x[j] + self.vx[j] * (tt - self.t[j]);
        let yj = self.y[j] + self.vy[j] * (tt - self.t[j]);
        let (dx, dy) = (xj - xi, yj - yi);
        let (dvx, dvy) = (self.vx[j] - self.vx[i], self.vy[j] - self.vy[i]);
        let b = dx * dvx + dy * dvy;
        if b >= 0.0 {
            return R::INFINITY;
        }
        let v2 = dvx * dvx + dvy * dvy;
        let sigma = 2.0 * self.r;
        let c = dx * dx + dy * dy - sigma * sigma;
        let disc = b * b - v2 * c;
        if disc < 0.0 {
            return R::INFINITY;
        }
        let dt = if c <= 0.0 {
            0.0
        } else {
            c / (-b + disc.sqrt())
        };
        (tt + dt).max(now)
    }

    /// Searches cells `cs` for ball `i`'s earliest contact before `limit`; keeps the best.
    #[inline(always)]
    fn search(&mut self, i: usize, now: R, cs: &[u32]) {
        let mut best = self.pair_t[i];
        let mut bj = self.pair_j[i];
        for &c in cs {
            let f = self.fill[c as usize] as usize;
            for k in 0..f {
                let j = self.cells[c as usize][k] as usize;
                if j == i {
                    continue;
                }
                let tc = self.contact(i, j, now);
                if tc < best {
                    best = tc;
                    bj = j as u32;
                }
            }
        }
        if bj != self.pair_j[i] || best != self.pair_t[i] {
            self.pair_t[i] = best;
            self.pair_j[i] = bj;
            self.pair_c[i] = if bj == NONE {
                0
            } else {
                self.count[bj as usize]
            };
        }
    }

    fn neighbours(&self, c: u32) -> [u32; 9] {
        let w = self.cols as u32;
        let b = c - w - 1;
        [
            b,
            b + 1,
            b + 2,
            b + w,
            b + w + 1,
            b + w + 2,
            b + 2 * w,
            b + 2 * w + 1,
            b + 2 * w + 2,
        ]
    }

    fn next_crossing(&mut self, i: usize) {
        let c = self.cell_of[i] as usize;
        let (cx, cy) = (c % self.cols - 1, c / self.cols - 1);
        let k = self.cols - 2;
        let axis = |p: R, v: R, ci: usize| -> R {
            if v > 0.0 && ci + 1 < k {
                ((ci + 1) as R * self.size - p) / v
            } else if v < 0.0 && ci > 0 {
                (ci as R * self.size - p) / v
            } else {
                R::INFINITY
            }
        };
        let tx = axis(self.x[i], self.vx[i], cx).max(0.0);
        let ty = axis(self.y[i], self.vy[i], cy).max(0.0);
        let w = self.cols as i64;
        let (tc, d) = if tx <= ty {
            (tx, if self.vx[i] > 0.0 { 1 } else { -1 })
        } else {
            (ty, if self.vy[i] > 0.0 { w } else { -w })
        };
        if tc.is_finite() {
            self.cross_t[i] = self.t[i] + tc;
            self.cross_c[i] = (c as i64 + d) as u32;
        } else {
            self.cross_t[i] = R::INFINITY;
            self.cross_c[i] = NONE;
        }
    }

    fn wall(&mut self, i: usize) {
        let (lo, hi) = (self.r, self.side - self.r);
        let ax = |p: R, v: R| -> R {
            if v > 0.0 {
                ((hi - p) / v).max(0.0)
            } else if v < 0.0 {
                ((lo - p) / v).max(0.0)
            } else {
                R::INFINITY
            }
        };
        let tx = ax(self.x[i], self.vx[i]);
        let ty = ax(self.y[i], self.vy[i]);
        if tx <= ty {
            self.wall_t[i] = self.t[i] + tx;
            self.wall_axis[i] = 0;
        } else {
            self.wall_t[i] = self.t[i] + ty;
            self.wall_axis[i] = 1;
        }
    }

    /// Everything anew for ball `i` at its time `now`.
    fn predict(&mut self, i: usize, now: R) {
        self.pair_t[i] = R::INFINITY;
        self.pair_j[i] = NONE;
        let cs = self.neighbours(self.cell_of[i]);
        self.search(i, now, &cs);
        self.wall(i);
        self.next_crossing(i);
        self.schedule(i);
    }

    fn schedule(&mut self, i: usize) {
        let k = self.pair_t[i].min(self.wall_t[i]).min(self.cross_t[i]);
        self.heap_set(i, k);
    }

    fn advance(&mut self, i: usize, t: R) {
        let dt = t - self.t[i];
        self.x[i] += self.vx[i] * dt;
        self.y[i] += self.vy[i] * dt;
        self.t[i] = t;
    }

    fn run(&mut self, t1: R) {
        while let Some(&(t, top)) = self.heap.first() {
            let i = top as usize;
            if t > t1 {
                break;
            }
            self.advance(i, t);
            if self.cross_t[i] == t && self.cross_t[i] <= self.pair_t[i] && t <= self.wall_t[i] {
                // Cell crossing: new cells' balls only.
                self.crossings += 1;
                let old = self.cell_of[i];
                let c = self.cross_c[i];
                self.remove(i);
                self.insert(i, c);
                let (o, nn) = (self.neighbours(old), self.neighbours(c));
                let mut entering = [0u32; 9];
                let mut m = 0;
                for &cc in &nn {
                    if !o.contains(&cc) {
                        entering[m] = cc;
                        m += 1;
                    }
                }
                // A partner that changed course voids the stored pair: search everything.
                let pj = self.pair_j[i];
                if pj != NONE && self.count[pj as usize] != self.pair_c[i] {
                    self.pair_t[i] = R::INFINITY;
                    self.pair_j[i] = NONE;
                    self.search(i, t, &nn);
                } else {
                    self.search(i, t, &entering[..m]);
                }
                self.next_crossing(i);
                self.schedule(i);
            } else if self.wall_t[i] == t && t <= self.pair_t[i] {
                self.walls += 1;
                if self.wall_axis[i] == 0 {
                    self.vx[i] = -self.vx[i];
                } else {
                    self.vy[i] = -self.vy[i];
                }
                self.count[i] += 1;
                self.predict(i, t);
            } else {
                let j = self.pair_j[i] as usize;
                if self.count[j] != self.pair_c[i] {
                    // Stale: the partner changed course since.
                    self.predict(i, t);
                    continue;
                }
                self.collisions += 1;
                self.advance(j, t);
                let (dx, dy) = (self.x[j] - self.x[i], self.y[j] - self.y[i]);
                let d2 = dx * dx + dy * dy;
                let (dvx, dvy) = (self.vx[j] - self.vx[i], self.vy[j] - self.vy[i]);
                let k = (dx * dvx + dy * dvy) / d2;
                // Equal masses: exchange the normal components.
                self.vx[i] += k * dx;
                self.vy[i] += k * dy;
                self.vx[j] -= k * dx;
                self.vy[j] -= k * dy;
                self.count[i] += 1;
                self.count[j] += 1;
                self.predict(i, t);
                self.predict(j, t);
            }
        }
    }

    /// Sets ball `i`'s key in the 4-ary heap, whose slots hold (key, ball): a sift compares
    /// keys in the heap's own array, not through the balls' records.
    fn heap_set(&mut self, i: usize, k: R) {
        let p = self.pos[i];
        if p == NONE {
            self.pos[i] = self.heap.len() as u32;
            self.heap.push((k, i as u32));
            self.up(self.heap.len() - 1);
        } else {
            let old = self.heap[p as usize].0;
            self.heap[p as usize].0 = k;
            if k < old {
                self.up(p as usize);
            } else {
                self.down(p as usize);
            }
        }
    }

    fn up(&mut self, mut p: usize) {
        let e = self.heap[p];
        while p > 0 {
            let q = (p - 1) / 4;
            let h = self.heap[q];
            if h.0 <= e.0 {
                break;
            }
            self.heap[p] = h;
            self.pos[h.1 as usize] = p as u32;
            p = q;
        }
        self.heap[p] = e;
        self.pos[e.1 as usize] = p as u32;
    }

    fn down(&mut self, mut p: usize) {
        let n = self.heap.len();
        let e = self.heap[p];
        loop {
            let first = 4 * p + 1;
            if first >= n {
                break;
            }
            let mut c = first;
            for q in first + 1..(first + 4).min(n) {
                if self.heap[q].0 < self.heap[c].0 {
                    c = q;
                }
            }
            let h = self.heap[c];
            if h.0 >= e.0 {
                break;
            }
            self.heap[p] = h;
            self.pos[h.1 as usize] = p as u32;
            p = c;
        }
        self.heap[p] = e;
        self.pos[e.1 as usize] = p as u32;
    }

    fn energy(&self) -> R {
        (0..self.n)
            .map(|i| self.vx[i] * self.vx[i] + self.vy[i] * self.vy[i])
            .sum::<R>()
            * 0.5
    }

    fn overlaps(&self, t: R) -> usize {
        let p: Vec<(R, R)> = (0..self.n)
            .map(|i| {
                (
                    self.x[i] + self.vx[i] * (t - self.t[i]),
                    self.y[i] + self.vy[i] * (t - self.t[i]),
                )
            })
            .collect();
        let mut n = 0;
        for c in 0..self.cells.len() {
            for &i in &self.cells[c][..self.fill[c] as usize] {
                for cc in self.neighbours(c as u32) {
                    for &j in &self.cells[cc as usize][..self.fill[cc as usize] as usize] {
                        if j > i {
                            let (dx, dy) = (
                                p[j as usize].0 - p[i as usize].0,
                                p[j as usize].1 - p[i as usize].1,
                            );
                            if (dx * dx + dy * dy).sqrt() < 2.0 * self.r - 1e-6 {
                                n += 1;
                            }
                        }
                    }
                }
            }
        }
        n
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let parse = |k: usize, d: f64| a.get(k).and_then(|s| s.parse().ok()).unwrap_or(d);
    let (n, speed, steps) = (
        parse(1, 10000.0) as usize,
        parse(2, 3000.0),
        parse(3, 200.0) as usize,
    );
    let mut scene = arena_scene(n, speed, 1);
    scene.grid = None;
    let mut w = World::from_scene(&scene).expect("the tile-free arena builds");
    let dt = w.config().dt;
    let balls: Vec<(R, R, R, R)> = w
        .balls()
        .map(|b| (b.pos.x, b.pos.y, b.vel.x, b.vel.y))
        .collect();
    let mut lean = Lean::new(&balls, 2.0, 1000.0);
    let (e0w, e0l) = (w.kinetic_energy(), lean.energy());
    let (mut tw, mut tl) = (Vec::new(), Vec::new());
    let (mut bbw, mut wallw) = (0u64, 0u64);
    let mut done = 0;
    while done < steps {
        let k = 20.min(steps - done);
        for s in 0..k {
            let t = std::time::Instant::now();
            let ev = w.step();
            tw.push(t.elapsed().as_secs_f64() * 1e3);
            for e in ev {
                match e {
                    Event::BallBall { .. } => bbw += 1,
                    Event::BallWall { .. } => wallw += 1,
                    _ => {}
                }
            }
            let _ = s;
        }
        for s in 0..k {
            let t1 = (done + s + 1) as R * dt;
            let t = std::time::Instant::now();
            lean.run(t1);
            tl.push(t.elapsed().as_secs_f64() * 1e3);
        }
        done += k;
    }
    let t_end = steps as R * dt;
    println!(
        "collide: median {:.3} ms/step, ball-ball {:.0}/step, walls {:.0}/step, energy {:+.1e}",
        median(&mut tw),
        bbw as f64 / steps as f64,
        wallw as f64 / steps as f64,
        (w.kinetic_energy() - e0w) / e0w
    );
    println!(
        "lean:    median {:.3} ms/step, ball-ball {:.0}/step, walls {:.0}/step, crossings {:.0}/step, energy {:+.1e}, overlapping pairs {}",
        median(&mut tl),
        lean.collisions as f64 / steps as f64,
        lean.walls as f64 / steps as f64,
        lean.crossings as f64 / steps as f64,
        (lean.energy() - e0l) / e0l,
        lean.overlaps(t_end)
    );
}
