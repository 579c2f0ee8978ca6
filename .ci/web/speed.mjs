// Wall time of the page's world runs in headless Chromium (real time, not virtual), for
// docs/web.md: node .ci/web/speed.mjs URL SCENE STEPS [RUNS]. Prints one JSON line a run.
import puppeteer from 'puppeteer-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [url, scene, steps, runs = '3'] = process.argv.slice(2);
const userDataDir = mkdtempSync(join(tmpdir(), 'collide-chromium-'));
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  userDataDir,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage();
  for (let k = 0; k < Number(runs); k++) {
    await page.goto(`${url}?world=${scene}&steps=${steps}`, { waitUntil: 'load' });
    await page.waitForFunction(() => document.getElementById('state').textContent.length > 0, { timeout: 120000 });
    const r = JSON.parse(await page.$eval('#state', (e) => e.textContent));
    console.log(JSON.stringify({ scene, steps: r.steps, ms: r.ms, ms_per_step: r.ms / r.steps, state_hash: r.state_hash }));
  }
} finally {
  await browser.close();
  rmSync(userDataDir, { recursive: true, force: true });
}
