//! How fast can an exact event-driven step be on this machine, without collide's generality?
//! `edmd_floor N SPEED STEPS`: the arena's balls without its tiles (world [0, 1000]², four
//! walls, radius 2, equal masses, restitution 1; above 20 000 balls 5 × 2 arenas side by side,
//! as `collide bench`), stepped by collide and by a minimal
//! event-driven hard-disc loop written only for this case (a ball's state in one cache line,
//! its predictions and queue entry in another, cells of fixed capacity, one event per ball in
//! a calendar queue over the step, cell-crossing events, lazy invalidation by collision
//! counters: the textbook scheme of Rapaport's "The Art of Molecular Dynamics Simulation",
//! ch. 14, Marín, Risso and Cordero 1993, and Brown's calendar queue, 1988), taking turns,
//! 20 steps each.
//! Prints both medians and the events each counted (ball-ball collisions and wall hits per
//! step), and each one's energy drift and overlapping pairs at the end.
//!
//! It is a measuring tool, not a second engine: no tiles, rectangles, open sides, masses,
//! edits, canonical tie order or iteration bounds. What it says is how far collide's loop is
//! from a loop that does only this (docs/performance.md, "What bounds the step").
use collide_scenes::{arena_scene, arena_scene_tiled};
use collide_world::Body;
use collide_world::Contact;
use collide_world::Target;
use collide_world::{Event, World};

type R = f64;
const NONE: u32 = u32::MAX;
const CAP: usize = 16;

/// A ball's state, in one cache line with its collision count and cell: a pair test reads
/// one line per candidate.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
struct Ball {
    x: R,
    y: R,
    vx: R,
    vy: R,
    /// Time of the state.
    t: R,
    /// Collisions (velocity changes): predictions made against an older count are void.
    count: u32,
    cell: u32,
}

/// A ball's predictions and its queue entry, in one cache line.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
struct Pred {
    /// Earliest pair event found: time, partner, the partner's count then.
    pair_t: R,
    /// Wall hit and next cell crossing.
    wall_t: R,
    cross_t: R,
    /// Queue key (the earliest of the three).
    key: R,
    pair_j: u32,
    pair_c: u32,
    cross_c: u32,
    /// Queue links and bucket (`NONE`: out; `FAR`: after the step).
    qnext: u32,
    qprev: u32,
    qpos: u32,
    wall_axis: u8,
}

const FAR: u32 = u32::MAX - 1;

struct Lean {
    n: usize,
    b: Vec<Ball>,
    p: Vec<Pred>,
    /// Cells: up to CAP balls each (discs of radius 2 that do not overlap leave room for at
    /// most 5 centres in a cell of side 6, 13 in one of side 10), a ring of empty cells
    /// around the grid.
    cells: Vec<[u32; CAP]>,
    fill: Vec<u8>,
    cols: usize,
    /// Interior cells across and down (the grid without its ring).
    kx: usize,
    ky: usize,
    size: R,
    /// The world's width and height.
    wx: R,
    wy: R,
    r: R,
    /// Calendar queue over the current step (Brown 1988): `heads.len()` buckets from `t0`
    /// to `t1`, unordered lists; later entries wait (`FAR`) and join at the next step.
    heads: Vec<u32>,
    cursor: usize,
    t0: R,
    t1: R,
    per: R,
    collisions: u64,
    walls: u64,
    crossings: u64,
}

impl Lean {
    fn new(balls: &[(R, R, R, R)], r: R, wx: R, wy: R) -> Lean {
        let n = balls.len();
        let spacing = (wx * wy / n as R).sqrt();
        // Cell side: `CELL` × the mean spacing (default 0.6, collide's choice), at least a
        // diameter.
        let factor = std::env::var("CELL")
            .ok()
            .and_then(|s| s.parse::<R>().ok())
            .unwrap_or(0.6);
        let size = (2.0 * r * (1.0 + 1e-6)).max(factor * spacing);
        let (kx, ky) = ((wx / size).ceil() as usize, (wy / size).ceil() as usize);
        let cols = kx + 2;
        let cells = cols * (ky + 2);
        let mut s = Lean {
            n,
            b: balls
                .iter()
                .map(|b| Ball {
                    x: b.0,
                    y: b.1,
                    vx: b.2,
                    vy: b.3,
                    t: 0.0,
                    count: 0,
                    cell: NONE,
                })
                .collect(),
            p: vec![
                Pred {
                    pair_t: R::INFINITY,
                    wall_t: R::INFINITY,
                    cross_t: R::INFINITY,
                    key: R::INFINITY,
                    pair_j: NONE,
                    pair_c: 0,
                    cross_c: NONE,
                    qnext: NONE,
                    qprev: NONE,
                    qpos: NONE,
                    wall_axis: 0,
                };
                n
            ],
            cells: vec![[NONE; CAP]; cells],
            fill: vec![0; cells],
            cols,
            kx,
            ky,
            size,
            wx,
            wy,
            r,
            heads: vec![NONE; (4 * n).next_power_of_two()],
            cursor: 0,
            t0: 0.0,
            t1: 0.0,
            per: 0.0,
            collisions: 0,
            walls: 0,
            crossings: 0,
        };
        for i in 0..n {
            let c = s.cell_at(s.b[i].x, s.b[i].y);
            s.insert(i, c);
        }
        for i in 0..n {
            s.predict(i, 0.0);
        }
        s
    }

    fn cell_at(&self, x: R, y: R) -> u32 {
        let cx = ((x / self.size) as usize).min(self.kx - 1) + 1;
        let cy = ((y / self.size) as usize).min(self.ky - 1) + 1;
        (cy * self.cols + cx) as u32
    }

    fn insert(&mut self, i: usize, c: u32) {
        let f = &mut self.fill[c as usize];
        assert!((*f as usize) < CAP, "cell overflow");
        self.cells[c as usize][*f as usize] = i as u32;
        *f += 1;
        self.b[i].cell = c;
    }

    fn remove(&mut self, i: usize) {
        let c = self.b[i].cell as usize;
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
        let (a, b) = (&self.b[i], &self.b[j]);
        let tt = a.t.max(b.t);
        let xi = a.x + a.vx * (tt - a.t);
        let yi = a.y + a.vy * (tt - a.t);
        let xj = b.x + b.vx * (tt - b.t);
        let yj = b.y + b.vy * (tt - b.t);
        let (dx, dy) = (xj - xi, yj - yi);
        let (dvx, dvy) = (b.vx - a.vx, b.vy - a.vy);
        let bb = dx * dvx + dy * dvy;
        if bb >= 0.0 {
            return R::INFINITY;
        }
        let v2 = dvx * dvx + dvy * dvy;
        let sigma = 2.0 * self.r;
        let c = dx * dx + dy * dy - sigma * sigma;
        let disc = bb * bb - v2 * c;
        if disc < 0.0 {
            return R::INFINITY;
        }
        let dt = if c <= 0.0 {
            0.0
        } else {
            c / (-bb + disc.sqrt())
        };
        (tt + dt).max(now)
    }

    /// Searches cells `cs` for ball `i`'s earliest contact before its stored pair event.
    #[inline(always)]
    fn search(&mut self, i: usize, now: R, cs: &[u32]) {
        let mut best = self.p[i].pair_t;
        let mut bj = self.p[i].pair_j;
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
        if bj != self.p[i].pair_j || best != self.p[i].pair_t {
            let c = if bj == NONE {
                0
            } else {
                self.b[bj as usize].count
            };
            let e = &mut self.p[i];
            e.pair_t = best;
            e.pair_j = bj;
            e.pair_c = c;
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
        let bi = self.b[i];
        let c = bi.cell as usize;
        let (cx, cy) = (c % self.cols - 1, c / self.cols - 1);
        let axis = |p: R, v: R, ci: usize, k: usize| -> R {
            if v > 0.0 && ci + 1 < k {
                ((ci + 1) as R * self.size - p) / v
            } else if v < 0.0 && ci > 0 {
                (ci as R * self.size - p) / v
            } else {
                R::INFINITY
            }
        };
        let tx = axis(bi.x, bi.vx, cx, self.kx).max(0.0);
        let ty = axis(bi.y, bi.vy, cy, self.ky).max(0.0);
        let w = self.cols as i64;
        let (tc, d) = if tx <= ty {
            (tx, if bi.vx > 0.0 { 1 } else { -1 })
        } else {
            (ty, if bi.vy > 0.0 { w } else { -w })
        };
        let e = &mut self.p[i];
        if tc.is_finite() {
            e.cross_t = bi.t + tc;
            e.cross_c = (c as i64 + d) as u32;
        } else {
            e.cross_t = R::INFINITY;
            e.cross_c = NONE;
        }
    }

    fn wall(&mut self, i: usize) {
        let bi = self.b[i];
        let lo = self.r;
        let ax = |p: R, v: R, hi: R| -> R {
            if v > 0.0 {
                ((hi - p) / v).max(0.0)
            } else if v < 0.0 {
                ((lo - p) / v).max(0.0)
            } else {
                R::INFINITY
            }
        };
        let tx = ax(bi.x, bi.vx, self.wx - self.r);
        let ty = ax(bi.y, bi.vy, self.wy - self.r);
        let e = &mut self.p[i];
        if tx <= ty {
            e.wall_t = bi.t + tx;
            e.wall_axis = 0;
        } else {
            e.wall_t = bi.t + ty;
            e.wall_axis = 1;
        }
    }

    /// Everything anew for ball `i` at its time `now`.
    fn predict(&mut self, i: usize, now: R) {
        self.p[i].pair_t = R::INFINITY;
        self.p[i].pair_j = NONE;
        let cs = self.neighbours(self.b[i].cell);
        self.search(i, now, &cs);
        self.wall(i);
        self.next_crossing(i);
        self.schedule(i);
    }

    fn schedule(&mut self, i: usize) {
        let e = &self.p[i];
        let k = e.pair_t.min(e.wall_t).min(e.cross_t);
        self.q_set(i, k);
    }

    fn advance(&mut self, i: usize, t: R) {
        let b = &mut self.b[i];
        let dt = t - b.t;
        b.x += b.vx * dt;
        b.y += b.vy * dt;
        b.t = t;
    }

    // Not inlined: callgrind counts it alone (`--toggle-collect='*Lean::run*'`).
    #[inline(never)]
    fn run(&mut self, t1: R) {
        self.q_limit(t1);
        while let Some(i) = self.q_peek() {
            let t = self.p[i].key;
            if t > t1 {
                break;
            }
            // Start loading the records of the ball likely to come next (and its cells'
            // fill counts) while this one is handled.
            if let Some(h) = self.q_likely_next(i) {
                mem_prefetch::prefetch_read_data::<_, 3>(&self.b[h]);
                mem_prefetch::prefetch_read_data::<_, 3>(&self.p[h]);
            }
            self.advance(i, t);
            let e = self.p[i];
            if e.cross_t == t && e.cross_t <= e.pair_t && t <= e.wall_t {
                // Cell crossing: new cells' balls only.
                self.crossings += 1;
                let old = self.b[i].cell;
                let c = e.cross_c;
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
                let pj = e.pair_j;
                if pj != NONE && self.b[pj as usize].count != e.pair_c {
                    self.p[i].pair_t = R::INFINITY;
                    self.p[i].pair_j = NONE;
                    self.search(i, t, &nn);
                } else {
                    self.search(i, t, &entering[..m]);
                }
                self.next_crossing(i);
                self.schedule(i);
            } else if e.wall_t == t && t <= e.pair_t {
                self.walls += 1;
                let b = &mut self.b[i];
                if e.wall_axis == 0 {
                    b.vx = -b.vx;
                } else {
                    b.vy = -b.vy;
                }
                b.count += 1;
                self.predict(i, t);
            } else {
                let j = e.pair_j as usize;
                if self.b[j].count != e.pair_c {
                    // Stale: the partner changed course since.
                    self.predict(i, t);
                    continue;
                }
                self.collisions += 1;
                self.advance(j, t);
                let (bi, bj) = (self.b[i], self.b[j]);
                let (dx, dy) = (bj.x - bi.x, bj.y - bi.y);
                let d2 = dx * dx + dy * dy;
                let (dvx, dvy) = (bj.vx - bi.vx, bj.vy - bi.vy);
                let k = (dx * dvx + dy * dvy) / d2;
                // Equal masses: exchange the normal components.
                let b = &mut self.b[i];
                b.vx += k * dx;
                b.vy += k * dy;
                b.count += 1;
                let b = &mut self.b[j];
                b.vx -= k * dx;
                b.vy -= k * dy;
                b.count += 1;
                self.predict(i, t);
                self.predict(j, t);
            }
        }
    }

    /// The queue's new step, `[t0, t1]` (`t0` the last limit): the buckets are laid over it
    /// and the waiting entries due by `t1` join them (one pass over the balls).
    fn q_limit(&mut self, t1: R) {
        let t0 = self.t1;
        self.t0 = t0;
        self.t1 = t1;
        self.per = self.heads.len() as R / (t1 - t0);
        self.heads.fill(NONE);
        self.cursor = 0;
        for i in 0..self.n {
            let e = &self.p[i];
            if e.qpos != NONE && e.key <= t1 {
                self.link(i);
            }
        }
    }

    #[inline]
    fn bucket(&self, t: R) -> usize {
        (((t - self.t0) * self.per) as usize).min(self.heads.len() - 1)
    }

    fn link(&mut self, i: usize) {
        let b = self.bucket(self.p[i].key);
        let h = self.heads[b];
        if h != NONE {
            self.p[h as usize].qprev = i as u32;
        }
        let e = &mut self.p[i];
        e.qnext = h;
        e.qprev = NONE;
        e.qpos = b as u32;
        self.heads[b] = i as u32;
        if b < self.cursor {
            self.cursor = b;
        }
    }

    fn unlink(&mut self, i: usize) {
        let e = self.p[i];
        if e.qprev == NONE {
            self.heads[e.qpos as usize] = e.qnext;
        } else {
            self.p[e.qprev as usize].qnext = e.qnext;
        }
        if e.qnext != NONE {
            self.p[e.qnext as usize].qprev = e.qprev;
        }
    }

    fn q_set(&mut self, i: usize, k: R) {
        let pos = self.p[i].qpos;
        if pos != NONE && pos != FAR {
            self.unlink(i);
        }
        self.p[i].key = k;
        if k > self.t1 {
            self.p[i].qpos = FAR;
        } else {
            self.link(i);
        }
    }

    /// The earliest due ball (ties: the lower index), without taking it out.
    fn q_peek(&mut self) -> Option<usize> {
        let nb = self.heads.len();
        while self.cursor < nb && self.heads[self.cursor] == NONE {
            self.cursor += 1;
        }
        if self.cursor == nb {
            return None;
        }
        let mut m = self.heads[self.cursor];
        let mut best = m;
        loop {
            m = self.p[m as usize].qnext;
            if m == NONE {
                break;
            }
            let (k, kb) = (self.p[m as usize].key, self.p[best as usize].key);
            if k < kb || (k == kb && m < best) {
                best = m;
            }
        }
        Some(best as usize)
    }

    /// Another due ball likely to come out after `i` (the earliest): the head of its bucket
    /// or the next in it, else the first of the next non-empty bucket among a few.
    fn q_likely_next(&self, i: usize) -> Option<usize> {
        let h = self.heads[self.cursor];
        if h != i as u32 {
            return Some(h as usize);
        }
        let n = self.p[i].qnext;
        if n != NONE {
            return Some(n as usize);
        }
        let end = (self.cursor + 8).min(self.heads.len());
        self.heads[self.cursor + 1..end]
            .iter()
            .find(|&&b| b != NONE)
            .map(|&b| b as usize)
    }

    fn energy(&self) -> R {
        self.b.iter().map(|b| b.vx * b.vx + b.vy * b.vy).sum::<R>() * 0.5
    }

    fn overlaps(&self, t: R) -> usize {
        let p: Vec<(R, R)> = self
            .b
            .iter()
            .map(|b| (b.x + b.vx * (t - b.t), b.y + b.vy * (t - b.t)))
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
    if n == 0 || steps == 0 {
        eprintln!("usage: edmd_floor BALLS SPEED STEPS (balls and steps above 0)");
        std::process::exit(2);
    }
    // Above 20 000 balls, 5 × 2 arenas side by side (as `collide bench`): the same density.
    let mut scene = if n > 20_000 {
        arena_scene_tiled(n, speed, 1, 5, 2)
    } else {
        arena_scene(n, speed, 1)
    };
    scene.grid = None;
    let mut w = World::from_scene(&scene).expect("the tile-free arena builds");
    let dt = w.config().dt;
    let balls: Vec<(R, R, R, R)> = w
        .balls()
        .map(|b| (b.pos.x, b.pos.y, b.vel.x, b.vel.y))
        .collect();
    let mut lean = Lean::new(&balls, 2.0, scene.size.x, scene.size.y);
    let (e0w, e0l) = (w.kinetic_energy(), lean.energy());
    let (mut tw, mut tl) = (Vec::new(), Vec::new());
    let (mut bbw, mut wallw) = (0u64, 0u64);
    let mut done = 0;
    while done < steps {
        let k = 20.min(steps - done);
        for _ in 0..k {
            let t = std::time::Instant::now();
            let ev = w.step();
            tw.push(t.elapsed().as_secs_f64() * 1e3);
            for e in ev {
                match e {
                    Event::Contact(Contact {
                        body: Body::Ball(_),
                        other: Target::Ball(_),
                        ..
                    }) => bbw += 1,
                    Event::Contact(Contact {
                        body: Body::Ball(_),
                        other: Target::Wall(_),
                        ..
                    }) => wallw += 1,
                    _ => {}
                }
            }
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
