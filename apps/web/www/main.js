// The page's glue: the requestAnimationFrame loop, DOM events into the game (collide-web's
// WebGame), the canvas scaled to the window, the scene picker. Query modes for tests:
//   ?frames=N[&scene=S][&sandbox=1][&autoplay=1][&hold=ShiftLeft,ShiftRight]
//       N fixed frames of 1/60 s at once; the report (state, hashes, replay) as JSON in
//       <pre id="state">, the last frame on the canvas.
//   ?world=S&steps=N[&threads=T]   the scene's world alone; the report in <pre id="state">.
//   ?platformer_script=1           the platformer's scripted run to victory; the same report.
//   otherwise the game in real time (?scene=S&sandbox=1&autoplay=1 choose what to play);
//   <pre id="state"> holds the state JSON, refreshed every frame.
import init, { WebGame, runFrames, runPlatformerScript, runWorld, sceneNames } from './collide_web.js';

const params = new URLSearchParams(location.search);
const canvas = document.getElementById('screen');
const ctx = canvas.getContext('2d');
const stateOut = document.getElementById('state');
const note = document.getElementById('note');

function fail(e) {
  const msg = String(e && e.message ? e.message : e);
  note.textContent = msg;
  stateOut.textContent = JSON.stringify({ error: msg });
  console.error(msg);
}

// The frame buffer: 960 × 720 in a landscape window, 720 × 960 in a portrait one.
function frameSize() {
  return innerWidth >= innerHeight ? [960, 720] : [720, 960];
}

// The canvas as large as the room below the toolbar allows, keeping the frame's aspect.
function fit() {
  const main = document.querySelector('main');
  const scale = Math.min(main.clientWidth / canvas.width, main.clientHeight / canvas.height);
  canvas.style.width = `${Math.max(1, Math.floor(canvas.width * scale))}px`;
  canvas.style.height = `${Math.max(1, Math.floor(canvas.height * scale))}px`;
}

// An event's place in frame-buffer pixels.
function toFrame(e) {
  const r = canvas.getBoundingClientRect();
  return [(e.clientX - r.left) * canvas.width / r.width, (e.clientY - r.top) * canvas.height / r.height];
}

const flag = (name) => params.get(name) === '1' || params.get(name) === 'true';

function fixedRuns() {
  document.body.classList.add('fixed');
  const t0 = performance.now();
  let json;
  if (params.has('world')) {
    json = runWorld(params.get('world'), Number(params.get('steps') || 600), Number(params.get('threads') || 1));
  } else if (flag('platformer_script')) {
    json = runPlatformerScript();
  } else {
    [canvas.width, canvas.height] = [Number(params.get('width') || 960), Number(params.get('height') || 720)];
    json = runFrames(ctx, params.get('scene') || 'level_1', flag('sandbox'), flag('autoplay'),
      Number(params.get('frames')), params.get('hold') || '', canvas.width, canvas.height);
  }
  const report = JSON.parse(json);
  report.ms = performance.now() - t0;
  stateOut.textContent = JSON.stringify(report);
}

function realTime() {
  const pick = document.getElementById('scene');
  const play = document.getElementById('play');
  const autoplay = document.getElementById('autoplay');
  const sound = document.getElementById('sound');
  const info = document.getElementById('info');
  for (const name of sceneNames().split('\n')) {
    const o = document.createElement('option');
    o.value = name;
    o.textContent = name.startsWith('level_') ? `BricksBeater level ${name.slice(6)}` : name;
    pick.append(o);
  }
  pick.value = params.get('scene') || 'level_1';
  play.value = flag('sandbox') ? 'sandbox' : 'rules';
  autoplay.checked = flag('autoplay');

  let game = null;
  let audioWanted = false; // the first gesture opens the sound; later games open it at once
  let audioNote = '';
  function open() {
    [canvas.width, canvas.height] = frameSize();
    try {
      const next = new WebGame(ctx, pick.value, play.value === 'sandbox', autoplay.checked,
        canvas.width, canvas.height);
      if (game) {
        // One WebAudio context for the page: the new game plays on the old game's output.
        next.adoptAudio(game);
        game.free();
      }
      game = next;
      note.textContent = '';
    } catch (e) {
      fail(e);
      return;
    }
    if (audioWanted) startAudio();
    const q = new URLSearchParams({ scene: pick.value });
    if (play.value === 'sandbox') q.set('sandbox', '1');
    if (autoplay.checked) q.set('autoplay', '1');
    history.replaceState(null, '', `?${q}`);
    fit();
    canvas.focus();
  }
  function startAudio() {
    audioWanted = true;
    const why = game.openAudio();
    audioNote = why ? 'no sound' : '';
    if (why) console.warn(why);
  }
  function gesture() {
    if (!audioWanted && game) startAudio();
  }
  for (const el of [pick, play, autoplay]) {
    el.addEventListener('change', () => { open(); el.blur(); });
  }
  document.getElementById('help').addEventListener('click', (e) => {
    gesture();
    game.key('KeyH', true); game.key('KeyH', false);
    e.currentTarget.blur();
  });
  sound.addEventListener('click', (e) => {
    if (!audioWanted) { gesture(); } else { game.key('KeyM', true); game.key('KeyM', false); }
    e.currentTarget.blur();
  });

  addEventListener('keydown', (e) => {
    if (!game || e.target instanceof HTMLSelectElement || e.ctrlKey || e.metaKey || e.altKey) return;
    gesture();
    if (game.key(e.code, true)) e.preventDefault();
  });
  addEventListener('keyup', (e) => {
    if (game && game.key(e.code, false)) e.preventDefault();
  });
  // Focus lost (another window, another tab): release everything held.
  addEventListener('blur', () => game && game.blur());
  document.addEventListener('visibilitychange', () => { if (document.hidden && game) game.blur(); });

  // The mouse as in the window apps; fingers (and pens) as touches.
  // Browsers let sound start from a mouse press, but from a finger only once it lifts.
  canvas.addEventListener('pointerdown', (e) => {
    if (e.pointerType === 'mouse') gesture();
    const [x, y] = toFrame(e);
    if (e.pointerType === 'mouse') {
      if (e.button !== 0) return;
      game.pointerMove(x, y);
      game.pointerButton(true);
    } else {
      canvas.setPointerCapture(e.pointerId);
      game.touchStart(e.pointerId, x, y);
    }
    e.preventDefault();
  });
  canvas.addEventListener('pointermove', (e) => {
    const [x, y] = toFrame(e);
    if (e.pointerType === 'mouse') game.pointerMove(x, y); else game.touchMove(e.pointerId, x, y);
  });
  const up = (cancelled) => (e) => {
    if (e.pointerType === 'mouse') {
      if (e.button === 0) game.pointerButton(false);
    } else {
      game.touchEnd(e.pointerId, cancelled);
      if (!cancelled) gesture();
    }
  };
  canvas.addEventListener('pointerup', up(false));
  canvas.addEventListener('pointercancel', up(true));
  canvas.addEventListener('contextmenu', (e) => e.preventDefault());
  addEventListener('resize', () => {
    const [w, h] = frameSize();
    if (w !== canvas.width) {
      [canvas.width, canvas.height] = [w, h];
      game.resize(w, h);
    }
    fit();
  });

  let last = performance.now();
  let shown = 0;
  function tick(now) {
    // A long pause (a hidden tab) counts as one frame: the game's clock drops the backlog.
    const dt = Math.min(Math.max(now - last, 0), 250) / 1000;
    last = now;
    if (game) {
      game.frame(dt);
      game.draw();
      const json = game.stateJson();
      stateOut.textContent = json;
      if (now - shown > 250) {
        shown = now;
        const s = JSON.parse(json);
        // 1-7 and Tab change the scene from the keyboard: the picker follows.
        const name = s.scene.startsWith('level ') ? `level_${s.scene.slice(6)}` : s.scene;
        if (pick.value !== name && [...pick.options].some((o) => o.value === name)) pick.value = name;
        info.textContent = `${s.scene} · ${s.balls} balls · ${Math.round(s.steps_per_second)} steps/s · ${Math.round(s.fps)} fps`;
        sound.textContent = !audioWanted ? 'Sound: off' : audioNote ? 'Sound: none' : s.muted ? 'Sound: muted' : 'Sound: on';
      }
    }
    requestAnimationFrame(tick);
  }
  open();
  requestAnimationFrame(tick);
}

try {
  await init();
  if (params.has('frames') || params.has('world') || params.has('platformer_script')) fixedRuns(); else realTime();
} catch (e) {
  fail(e);
}
