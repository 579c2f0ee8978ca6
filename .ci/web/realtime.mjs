// The collide games' site in real time in headless Chromium (puppeteer-core, the system's
// browser): the requestAnimationFrame loop runs, synthetic touch events (CDP
// Input.dispatchTouchEvent) and mouse and key events drive the game, and the page's state JSON
// (<pre id="state">) must show what they did:
//   level 1: a touch drag moves the paddle, a tap launches (balls fly), the mouse moves the
//   paddle back; pinball (picked in the scene picker): a finger on each half turns that
//   half's flippers, lifting releases them; Z holds the left flippers, focus loss releases
//   them, M mutes, H shows the help; the first gesture (a finger lifting) opens the sound;
//   the platformer (picked in the scene picker): a finger on the run pad runs, a second one
//   on the right half jumps.
//   No console error or warning (the sound opened outside a gesture warns), no page error.
//   usage: node realtime.mjs URL SCREENSHOT.png
import puppeteer from 'puppeteer-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [url, shotPath] = process.argv.slice(2);
const userDataDir = mkdtempSync(join(tmpdir(), 'collide-chromium-'));
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  userDataDir,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  defaultViewport: { width: 1000, height: 800, hasTouch: true, isMobile: true },
});
const problems = [];
let failed = false;
function check(ok, what, detail) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${detail === undefined ? '' : `: ${JSON.stringify(detail)}`}`);
  if (!ok) failed = true;
}
try {
  const page = await browser.newPage();
  page.on('console', (m) => {
    // Errors, and warnings (Chromium's "The AudioContext was not allowed to start" when the
    // sound is opened outside a user gesture).
    if (m.type() === 'error' || m.type() === 'warn') problems.push(`console.${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  await page.goto(`${url}?scene=level_1`, { waitUntil: 'load' });
  // The page is read through CDP's Runtime.evaluate without a user gesture (puppeteer's own
  // evaluate calls count as one, which would let the sound start outside the page's gesture
  // rule and hide its warning).
  const cdp = await page.createCDPSession();
  const read = async (expression) => {
    const r = await cdp.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true, userGesture: false });
    if (r.exceptionDetails) throw new Error(`${expression}: ${r.exceptionDetails.text}`);
    return r.result.value;
  };
  const state = async () => JSON.parse(await read("document.getElementById('state').textContent"));
  const frames = (n) => read(`new Promise((done) => { let k = ${n}; const tick = () => (k-- > 0 ? requestAnimationFrame(tick) : done(true)); tick(); })`);
  for (let k = 0; k < 200 && !(await read("document.getElementById('state').textContent")).startsWith('{"scene"'); k++) {
    await new Promise((r) => setTimeout(r, 100));
  }
  // Frame-buffer pixel (x, y) to page coordinates.
  const box = await read("(() => { const r = document.getElementById('screen').getBoundingClientRect(); return { x: r.left, y: r.top, width: r.width, height: r.height }; })()");
  const dims = await read("[document.getElementById('screen').width, document.getElementById('screen').height]");
  const at = (x, y) => [box.x + x * box.width / dims[0], box.y + y * box.height / dims[1]];
  const touch = (type, points) => cdp.send('Input.dispatchTouchEvent', {
    type,
    touchPoints: points.map(([id, x, y]) => { const [px, py] = at(x, y); return { id, x: px, y: py }; }),
  });

  await frames(30);
  let s = await state();
  const steps0 = s.steps;
  await new Promise((r) => setTimeout(r, 1000));
  s = await state();
  check(s.mode === 'paddle' && s.phase === 'serving', 'level 1 opens, serving', [s.mode, s.phase]);
  check(s.steps - steps0 >= 30, 'the rAF loop runs the game in real time (steps in 1 s)', s.steps - steps0);
  check(s.steps_per_second > 30, 'the page measures steps/s', s.steps_per_second);
  const info = await read("document.getElementById('info').textContent");
  check(/\d+ balls · \d+ steps\/s/.test(info), 'the page states balls and steps/s', info);

  // A finger drags the paddle from the middle to the left.
  const x0 = s.paddle_x;
  await touch('touchStart', [[1, 480, 600]]);
  for (let k = 1; k <= 12; k++) {
    await touch('touchMove', [[1, 480 - 25 * k, 600]]);
    await frames(1);
  }
  await touch('touchEnd', []);
  await frames(5);
  s = await state();
  check(s.paddle_x < x0 - 100 && s.phase === 'serving', 'a touch drag moves the paddle left, launching nothing', [x0, s.paddle_x, s.phase]);
  check(typeof s.sound === 'string', 'the first gesture opens the sound (WebAudio)', s.sound);
  // A tap launches the volley.
  const balls0 = s.balls;
  await touch('touchStart', [[2, 200, 500]]);
  await touch('touchEnd', []);
  await frames(40);
  s = await state();
  check(s.phase === 'playing' && s.balls > balls0, 'a tap launches balls', [s.phase, balls0, s.balls]);
  // The mouse moves the paddle to the right.
  const x1 = s.paddle_x;
  const [mx, my] = at(800, 600);
  await page.mouse.move(mx - 50, my);
  await page.mouse.move(mx, my, { steps: 5 });
  await frames(20);
  s = await state();
  check(s.paddle_x > x1 + 100, 'the mouse moves the paddle right', [x1, s.paddle_x]);
  if (shotPath) await page.screenshot({ path: shotPath });

  // Pinball from the scene picker; fingers on the halves.
  await page.select('#scene', 'pinball');
  await frames(10);
  s = await state();
  check(s.mode === 'pinball' && s.flippers.length === 2, 'the scene picker opens the pinball table', [s.mode, s.flippers.length]);
  check(typeof s.sound === 'string', 'the new scene plays on the open sound output', s.sound);
  const rest = s.flippers.map((f) => f.angle);
  await touch('touchStart', [[3, 100, 500]]);
  await frames(20);
  s = await state();
  check(s.flippers[0].pressed && !s.flippers[1].pressed && Math.abs(s.flippers[0].angle - rest[0]) > 0.9,
    'a finger on the left half turns the left flipper', s.flippers);
  await touch('touchStart', [[3, 100, 500], [4, 650, 500]]);
  await frames(20);
  s = await state();
  check(s.flippers.every((f, i) => f.pressed && Math.abs(f.angle - rest[i]) > 0.9), 'a second finger on the right half turns the right flipper', s.flippers);
  await touch('touchEnd', []);
  await frames(20);
  s = await state();
  check(s.flippers.every((f, i) => !f.pressed && Math.abs(f.angle - rest[i]) < 1e-9), 'lifting the fingers releases both flippers', s.flippers);

  // Keys as in the window apps; focus loss releases what is held.
  await page.keyboard.down('z');
  await frames(10);
  s = await state();
  check(s.flippers[0].pressed, 'Z holds the left flipper');
  await page.evaluate(() => window.dispatchEvent(new Event('blur')));
  await frames(10);
  s = await state();
  check(!s.flippers[0].pressed, 'focus loss releases it', s.flippers[0]);
  await page.keyboard.up('z');
  const muted0 = s.muted;
  await page.keyboard.press('m');
  await page.keyboard.press('h');
  await frames(5);
  s = await state();
  check(s.muted !== muted0 && s.help, 'M mutes, H shows the help', [s.muted, s.help]);
  // The platformer from the scene picker: the run pad (left half) and the jump (right half).
  await page.select('#scene', 'platformer');
  await frames(90);
  s = await state();
  check(s.mode === 'platformer' && Array.isArray(s.player), 'the scene picker opens the platformer', [s.mode, s.player]);
  const geometry = async () => {
    const b = await read("(() => { const r = document.getElementById('screen').getBoundingClientRect(); return { x: r.left, y: r.top, width: r.width, height: r.height }; })()");
    const d = await read("[document.getElementById('screen').width, document.getElementById('screen').height]");
    return (fx, fy) => [b.x + fx * b.width, b.y + fy * b.height];
  };
  const frac = await geometry();
  const fingers = (type, points) => cdp.send('Input.dispatchTouchEvent', {
    type,
    touchPoints: points.map(([id, fx, fy]) => { const [x, y] = frac(fx, fy); return { id, x, y }; }),
  });
  const p0 = s.player;
  await fingers('touchStart', [[5, 0.4, 0.8]]);
  await frames(60);
  s = await state();
  check(s.player[0] > p0[0] + 20, 'a finger on the run pad\'s right half runs right', [p0, s.player]);
  const p1 = s.player;
  await fingers('touchStart', [[5, 0.4, 0.8], [6, 0.8, 0.5]]);
  let top = p1[1];
  for (let k = 0; k < 10; k++) {
    await frames(3);
    top = Math.min(top, (await state()).player[1]);
  }
  check(top < p1[1] - 10, 'a second finger on the right half jumps', [p1[1], top]);
  await fingers('touchEnd', []);
  await frames(5);
  s = await state();
  check(s.touches === 0, 'lifting the fingers releases the run and the jump', s.touches);
  check(problems.length === 0, 'no console error or warning, page error or failed request', problems);
} finally {
  await browser.close();
  rmSync(userDataDir, { recursive: true, force: true });
}
if (failed) process.exit(1);
