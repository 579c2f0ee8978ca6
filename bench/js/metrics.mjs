// What the table reports about a state, computed the same way for every engine (and as
// bench/compare does for rapier2d): kinetic energy, overlapping pairs, tunneled and embedded
// balls of the arena.

/** Σ ½ m |v|² with m = π r² (density 1). */
export function energy(vel, radius) {
  let e = 0;
  for (let i = 0; i < radius.length; i += 1) {
    e += 0.5 * Math.PI * radius[i] ** 2 * (vel[2 * i] ** 2 + vel[2 * i + 1] ** 2);
  }
  return e;
}

/** Pairs of balls whose centres are closer than r1 + r2 − 1e-6 (a uniform grid of buckets). */
export function overlappingPairs(pos, radius) {
  const n = radius.length;
  let rmax = 0;
  for (const r of radius) rmax = Math.max(rmax, r);
  const side = Math.max(2 * rmax, 1e-9);
  const buckets = new Map();
  const key = (cx, cy) => cx * 1_000_003 + cy;
  for (let i = 0; i < n; i += 1) {
    const k = key(Math.floor(pos[2 * i] / side), Math.floor(pos[2 * i + 1] / side));
    if (!buckets.has(k)) buckets.set(k, []);
    buckets.get(k).push(i);
  }
  let pairs = 0;
  for (let i = 0; i < n; i += 1) {
    const cx = Math.floor(pos[2 * i] / side);
    const cy = Math.floor(pos[2 * i + 1] / side);
    for (let dx = -1; dx <= 1; dx += 1) {
      for (let dy = -1; dy <= 1; dy += 1) {
        for (const j of buckets.get(key(cx + dx, cy + dy)) ?? []) {
          if (j <= i) continue;
          const d = Math.hypot(pos[2 * i] - pos[2 * j], pos[2 * i + 1] - pos[2 * j + 1]);
          if (d < radius[i] + radius[j] - 1e-6) pairs += 1;
        }
      }
    }
  }
  return pairs;
}

/** Balls whose centre is inside a solid cell or outside the box (`tunneled`), and balls whose
 * centre is closer than r − 1e-6 to a solid cell (`embedded`). */
export function tunneledAndEmbedded(pos, radius, arena) {
  const solid = new Set(arena.cells.map(([c, r]) => `${c},${r}`));
  const { cell, size } = arena;
  let tunneled = 0;
  let embedded = 0;
  for (let i = 0; i < radius.length; i += 1) {
    const [x, y, r] = [pos[2 * i], pos[2 * i + 1], radius[i]];
    const [c, row] = [Math.floor(x / cell), Math.floor(y / cell)];
    if (!(x >= 0 && x <= size && y >= 0 && y <= size) || solid.has(`${c},${row}`)) {
      tunneled += 1;
      continue;
    }
    let near = false;
    for (let dc = -1; dc <= 1 && !near; dc += 1) {
      for (let dr = -1; dr <= 1 && !near; dr += 1) {
        if (!solid.has(`${c + dc},${row + dr}`)) continue;
        const [x0, y0] = [(c + dc) * cell, (row + dr) * cell];
        const qx = Math.min(Math.max(x, x0), x0 + cell);
        const qy = Math.min(Math.max(y, y0), y0 + cell);
        near = Math.hypot(x - qx, y - qy) < r - 1e-6;
      }
    }
    if (near) embedded += 1;
  }
  return { tunneled, embedded };
}
