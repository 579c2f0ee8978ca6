// A small brick breaker written only in JavaScript against the npm package `collide`
// (packages/collide, built by scripts/build-js.sh). Serve the repository's root over http and
// open /examples/js-breakout/ ; `?frames=N` runs N frames at once with the paddle following
// the ball, draws, and writes the state into <pre id="state"> (for headless checks).
import init, { World } from "../../packages/collide/dist/collide.js";

const W = 480, H = 360, CELL = 16, DT = 1 / 60;
const PADDLE = { w: 64, h: 8, y: 330 };
const COLORS = { R: "#e04040", Y: "#e0c040", G: "#40c060", C: "#40c0e0", B: "#4060e0", W: "#e0e0e0", "#": "#666" };
const LEVEL = [
  "##############################",
  "#                            #",
  "#  RRRRRRRRRRRRRRRRRRRRRRRR  #",
  "#  YYYYYYYYYYYYYYYYYYYYYYYY  #",
  "#  GGGGGGGGGGGGGGGGGGGGGGGG  #",
  "#  CCCCCCCCCCCCCCCCCCCCCCCC  #",
  "#  BBBBBBBBBBBBBBBBBBBBBBBB  #",
  "#  WWWWWWWWWWWWWWWWWWWWWWWW  #",
];

await init();
const canvas = document.getElementById("game");
const ctx = canvas.getContext("2d");
const params = new URLSearchParams(location.search);

// The world: a 480 × 360 box open at the bottom, the bricks as a tile grid, a kinematic paddle.
const world = new World(W, H, DT);
world.setWalls(true, true, true, false);
world.setGridRows(CELL, 0, 0, LEVEL);
let paddleX = W / 2;
const paddle = world.addRect(paddleX - PADDLE.w / 2, PADDLE.y, paddleX + PADDLE.w / 2, PADDLE.y + PADDLE.h, "kinematic");

const game = { score: 0, lives: 3, balls: 0, target: W / 2, keys: new Set(), frames: 0, hits: 0 };
let positions = new Float64Array(64);
let radii = new Float64Array(32);

let seed = 12345;
/** A launch angle within ±0.4 rad of straight up, from a small LCG (the same game every run). */
function launchAngle() {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return -Math.PI / 2 + (seed / 2147483648 - 0.5) * 0.8;
}

function launch() {
  if (game.lives <= 0 || game.balls >= 8) return;
  const angle = launchAngle();
  world.addBall(paddleX, PADDLE.y - 6, 240 * Math.cos(angle), 240 * Math.sin(angle), 4);
  game.balls += 1;
}

// Input: the mouse or a finger steers, a click or tap launches; arrows and Space as well.
function pointerX(e) {
  const r = canvas.getBoundingClientRect();
  return ((e.clientX - r.left) / r.width) * W;
}
canvas.addEventListener("pointermove", (e) => { game.target = pointerX(e); });
canvas.addEventListener("pointerdown", (e) => { game.target = pointerX(e); launch(); });
addEventListener("keydown", (e) => {
  game.keys.add(e.code);
  if (e.code === "Space") launch();
});
addEventListener("keyup", (e) => game.keys.delete(e.code));
addEventListener("blur", () => game.keys.clear());

/** One fixed step: steer the paddle (its velocity covers the way to the target in one step,
 * so that its motion is swept exactly), step the world, react to its events. */
function frame(autoplay) {
  if (game.keys.has("ArrowLeft")) game.target -= 6;
  if (game.keys.has("ArrowRight")) game.target += 6;
  if (autoplay && world.ballCount > 0) {
    world.positions(positions);
    game.target = positions[0];
  }
  game.target = Math.min(Math.max(game.target, PADDLE.w / 2 + CELL), W - PADDLE.w / 2 - CELL);
  world.setRectVelocity(paddle, (game.target - paddleX) / DT, 0);
  for (const e of world.step()) {
    if (e.kind === "brick_destroyed") game.score += 10;
    if (e.kind === "ball_rect" || e.kind === "ball_tile") game.hits += 1;
    if (e.kind === "ball_lost") {
      game.balls -= 1;
      if (game.balls === 0) game.lives -= 1;
    }
  }
  paddleX = game.target;
  game.frames += 1;
  if (autoplay && game.balls === 0 && game.lives > 0) launch();
}

function draw() {
  ctx.fillStyle = "#000";
  ctx.fillRect(0, 0, W, H);
  world.gridRows().forEach((row, r) => {
    for (let c = 0; c < row.length; c += 1) {
      const color = COLORS[row[c]];
      if (!color) continue;
      ctx.fillStyle = color;
      ctx.fillRect(c * CELL + 1, r * CELL + 1, CELL - 2, CELL - 2);
    }
  });
  const p = world.rect(paddle);
  ctx.fillStyle = "#ddd";
  ctx.fillRect(p.minX, p.minY, p.maxX - p.minX, p.maxY - p.minY);
  // Every ball at once into Float64Arrays kept between frames (grown when needed).
  if (positions.length < 2 * world.ballCount) {
    positions = new Float64Array(4 * world.ballCount);
    radii = new Float64Array(2 * world.ballCount);
  }
  const n = world.positions(positions);
  world.radii(radii);
  ctx.fillStyle = "#fff";
  for (let i = 0; i < n; i += 1) {
    ctx.beginPath();
    ctx.arc(positions[2 * i], positions[2 * i + 1], radii[i], 0, 2 * Math.PI);
    ctx.fill();
  }
  ctx.fillStyle = "#ddd";
  ctx.font = "12px monospace";
  ctx.textAlign = "left";
  ctx.fillText(`score ${game.score}   lives ${game.lives}   bricks ${world.bricksLeft()}`, 20, 348);
  if (game.balls === 0) {
    ctx.textAlign = "center";
    ctx.fillText(game.lives > 0 ? "click, tap or Space to launch" : "game over", W / 2, 250);
  }
}

const frames = Number(params.get("frames"));
if (frames > 0) {
  // Headless mode: N frames at once, autoplay, one drawing and the state as JSON.
  launch();
  for (let k = 0; k < frames; k += 1) frame(true);
  draw();
  document.getElementById("state").textContent = JSON.stringify({
    frames: game.frames, score: game.score, lives: game.lives, balls: world.ballCount,
    bricks: world.bricksLeft(), hits: game.hits, hash: world.stateHash(),
  });
} else {
  let last = performance.now();
  let acc = 0;
  const loop = (now) => {
    acc = Math.min(acc + (now - last) / 1000, 0.25);
    last = now;
    while (acc >= DT) {
      frame(false);
      acc -= DT;
    }
    draw();
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
}
