// The arena in each engine, built from one start state: `setup(start)` returns
// `{ step(), read() }`, `read()` giving every ball's centre and velocity in arena units
// (`{ pos, vel }`, Float64Arrays x0, y0, x1, y1, ...). The settings are those a web developer
// picks for bouncing balls (restitution 1, friction 0, no gravity, continuous collision where
// the engine has it), and each engine's units are scaled so that 3000 units/s is not clamped;
// every setting is listed in SETTINGS and in the generated section of docs/performance.md.
import Matter from "matter-js";
import * as planck from "planck";
import RAPIER from "@dimforge/rapier2d-compat";
import { World } from "../../packages/collide/node.js";

/** The step, seconds. */
export const DT = 1 / 60;
/** planck: arena units per metre (Box2D moves a body at most 2 m per step). */
const PLANCK_SCALE = 50;
/** rapier: `lengthUnit` (its velocity clamp is 400 × lengthUnit units/s). */
const RAPIER_LENGTH_UNIT = 10;

/** What each engine is given, for the docs. */
export const SETTINGS = {
  "collide wasm": "the package `collide` (this repository, built by scripts/build-js.sh: fat LTO, opt-level 3): `World.arena(N, speed, 1)` itself, `run(1)` per step (no event objects built)",
  "matter-js": "arena units as pixels; `Engine.update(engine, 1000/60)`; every ball `Bodies.circle` (matter's default polygon of up to 25 sides) with restitution 1, friction 0, frictionStatic 0, frictionAir 0, inertia Infinity (no spin), velocity set per step of 1/60 s; cells and the box's sides static rectangles with restitution 1 and friction 0; gravity 0, sleeping off, default iterations (6 position, 4 velocity) and slop. matter-js has no continuous collision detection and no speed cap",
  planck: `1 m = ${PLANCK_SCALE} arena units, so that 3000 units/s is 1 m per step, under Box2D's cap of 2 m per step (\`maxTranslation\`); every ball a dynamic body with \`bullet: true\` (continuous collision against everything), fixed rotation, a circle fixture of density 1, friction 0, restitution 1; cells and the box's sides box fixtures of one static body, friction 0, restitution 1; gravity 0, sleeping off, \`world.step(1/60)\` with the default 8 velocity and 3 position iterations. Box2D makes a contact slower than \`velocityThreshold\` (1 m/s = ${PLANCK_SCALE} units/s here) inelastic`,
  "rapier2d-compat": `arena units as pixels with \`lengthUnit = ${RAPIER_LENGTH_UNIT}\`, so that its velocity clamp (400 × lengthUnit = ${400 * RAPIER_LENGTH_UNIT} units/s; with the default lengthUnit 1 a ball set to 3000 units/s leaves its first step at 400) is above 3000; f32 positions (the -compat build); \`timestep = 1/60\`; every ball a dynamic body with CCD enabled and sleeping off, a ball collider of density 1, restitution 1 combined with \`Max\`, friction 0; cells and the box's sides cuboid colliders of one fixed body; gravity 0, default solver (4 iterations, 1 CCD substep)`,
};

/** The start state of `arena_scene(N, speed, seed)` from the package, and its solid cells. */
export function arenaStart(balls, speed, seed) {
  const w = World.arena(balls, speed, seed);
  const n = w.ballCount;
  const pos = new Float64Array(2 * n);
  const vel = new Float64Array(2 * n);
  const radius = new Float64Array(n);
  w.positions(pos);
  w.velocities(vel);
  w.radii(radius);
  const cells = [];
  w.gridRows().forEach((row, r) => {
    [...row].forEach((ch, c) => {
      if (ch !== " ") cells.push([c, r]);
    });
  });
  w.free();
  return { balls, speed, seed, n, pos, vel, radius, cells, cell: 25, size: 1000 };
}

/** The four sides of the box as rectangles [cx, cy, w, h] just outside it, 100 thick. */
function sides(size) {
  const t = 100;
  return [
    [-t / 2, size / 2, t, size + 2 * t],
    [size + t / 2, size / 2, t, size + 2 * t],
    [size / 2, -t / 2, size + 2 * t, t],
    [size / 2, size + t / 2, size + 2 * t, t],
  ];
}

/** Every obstacle as rectangles [cx, cy, w, h]: the solid cells and the box's sides. */
function obstacles(s) {
  const h = s.cell / 2;
  return [...s.cells.map(([c, r]) => [c * s.cell + h, r * s.cell + h, s.cell, s.cell]), ...sides(s.size)];
}

function collide(s) {
  const w = World.arena(s.balls, s.speed, s.seed);
  const pos = new Float64Array(2 * s.n);
  const vel = new Float64Array(2 * s.n);
  return {
    world: w,
    step: () => w.run(1),
    read() {
      w.positions(pos);
      w.velocities(vel);
      return { pos, vel };
    },
    free: () => w.free(),
  };
}

function matter(s) {
  const { Engine, Bodies, Body, Composite } = Matter;
  const engine = Engine.create({ gravity: { x: 0, y: 0, scale: 0 }, enableSleeping: false });
  const wall = { isStatic: true, restitution: 1, friction: 0, frictionStatic: 0 };
  const statics = obstacles(s).map(([x, y, w, h]) => Bodies.rectangle(x, y, w, h, wall));
  const opts = { restitution: 1, friction: 0, frictionStatic: 0, frictionAir: 0, inertia: Infinity };
  const balls = [];
  for (let i = 0; i < s.n; i += 1) {
    const b = Bodies.circle(s.pos[2 * i], s.pos[2 * i + 1], s.radius[i], opts);
    Body.setVelocity(b, { x: s.vel[2 * i] * DT, y: s.vel[2 * i + 1] * DT });
    balls.push(b);
  }
  Composite.add(engine.world, [...statics, ...balls]);
  const pos = new Float64Array(2 * s.n);
  const vel = new Float64Array(2 * s.n);
  return {
    step: () => Engine.update(engine, 1000 * DT),
    read() {
      balls.forEach((b, i) => {
        pos[2 * i] = b.position.x;
        pos[2 * i + 1] = b.position.y;
        vel[2 * i] = b.velocity.x / DT;
        vel[2 * i + 1] = b.velocity.y / DT;
      });
      return { pos, vel };
    },
    free() {},
  };
}

function box2d(s) {
  const S = PLANCK_SCALE;
  const world = new planck.World({ gravity: new planck.Vec2(0, 0), allowSleep: false });
  const ground = world.createBody();
  for (const [x, y, w, h] of obstacles(s)) {
    ground.createFixture(new planck.Box(w / 2 / S, h / 2 / S, new planck.Vec2(x / S, y / S), 0), {
      friction: 0,
      restitution: 1,
    });
  }
  const balls = [];
  for (let i = 0; i < s.n; i += 1) {
    const b = world.createBody({
      type: "dynamic",
      position: new planck.Vec2(s.pos[2 * i] / S, s.pos[2 * i + 1] / S),
      linearVelocity: new planck.Vec2(s.vel[2 * i] / S, s.vel[2 * i + 1] / S),
      bullet: true,
      fixedRotation: true,
      linearDamping: 0,
      angularDamping: 0,
    });
    b.createFixture(new planck.Circle(s.radius[i] / S), { density: 1, friction: 0, restitution: 1 });
    balls.push(b);
  }
  const pos = new Float64Array(2 * s.n);
  const vel = new Float64Array(2 * s.n);
  return {
    step: () => world.step(DT),
    read() {
      balls.forEach((b, i) => {
        const p = b.getPosition();
        const v = b.getLinearVelocity();
        pos[2 * i] = p.x * S;
        pos[2 * i + 1] = p.y * S;
        vel[2 * i] = v.x * S;
        vel[2 * i + 1] = v.y * S;
      });
      return { pos, vel };
    },
    free() {},
  };
}

function rapier(s) {
  const world = new RAPIER.World({ x: 0, y: 0 });
  world.timestep = DT;
  world.lengthUnit = RAPIER_LENGTH_UNIT;
  const ground = world.createRigidBody(RAPIER.RigidBodyDesc.fixed());
  const max = RAPIER.CoefficientCombineRule.Max;
  for (const [x, y, w, h] of obstacles(s)) {
    const c = RAPIER.ColliderDesc.cuboid(w / 2, h / 2).setTranslation(x, y);
    world.createCollider(c.setRestitution(1).setRestitutionCombineRule(max).setFriction(0), ground);
  }
  const balls = [];
  for (let i = 0; i < s.n; i += 1) {
    const d = RAPIER.RigidBodyDesc.dynamic()
      .setTranslation(s.pos[2 * i], s.pos[2 * i + 1])
      .setLinvel(s.vel[2 * i], s.vel[2 * i + 1])
      .setCcdEnabled(true)
      .setCanSleep(false);
    const b = world.createRigidBody(d);
    const c = RAPIER.ColliderDesc.ball(s.radius[i]).setDensity(1).setFriction(0);
    world.createCollider(c.setRestitution(1).setRestitutionCombineRule(max), b);
    balls.push(b);
  }
  const pos = new Float64Array(2 * s.n);
  const vel = new Float64Array(2 * s.n);
  return {
    step: () => world.step(),
    read() {
      balls.forEach((b, i) => {
        const p = b.translation();
        const v = b.linvel();
        pos[2 * i] = p.x;
        pos[2 * i + 1] = p.y;
        vel[2 * i] = v.x;
        vel[2 * i + 1] = v.y;
      });
      return { pos, vel };
    },
    free: () => world.free(),
  };
}

/** Loads rapier's module (its wasm is inlined in the -compat build). */
export async function ready() {
  await RAPIER.init();
}

/** Why an engine does not run a configuration at all, or `undefined`: planck with 10 000
 * bullets at 3000 units/s ran node out of its 4 GB heap within its first step (Box2D's
 * time-of-impact pass with that many bullets; with 1000 balls at 3000 units/s one step took
 * 34 s on this machine). */
export function skip(name, balls, speed) {
  if (name === "planck" && balls >= 10000 && speed >= 3000) {
    return "not run: its first step with 10 000 bullets at 3000 units/s ran node out of its 4 GB heap (with 1000 balls one step took 34 s)";
  }
  return undefined;
}

/** The engines in the order they take turns, by name. */
export const ENGINES = {
  "collide wasm": collide,
  "matter-js": matter,
  planck: box2d,
  "rapier2d-compat": rapier,
};
