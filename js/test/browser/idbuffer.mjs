// Headless Chromium: the demo's city as an ID buffer (each building a
// unique colour), rendered from poses of the demo's camera path with every
// instance drawn and again culled by InstanceCuller. Every building with a
// pixel in the full frame must be drawn in the culled one; the two frames
// should be identical pixel for pixel. Ends with "N passed, N failed".
//   CHROMIUM=/usr/bin/chromium  SATC_IDBUF_POSES=0,12.5,...  SATC_IDBUF_SIZE=1280x720
import { chromium } from 'playwright-core';
import { startServer } from '../../demo/server.mjs';

const poses = (process.env.SATC_IDBUF_POSES ?? '0,12.5,25,40,60,80').split(',').map(Number);
const [W, H] = (process.env.SATC_IDBUF_SIZE ?? '1280x720').split('x').map(Number);
let passed = 0, failed = 0;
function check(ok, what) {
  if (ok) passed++; else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'],
});
const { server, url } = await startServer({ port: 0 });
try {
  const page = await browser.newPage({ viewport: { width: W, height: H } });
  const errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${url}/test/browser/idbuffer/?w=${W}&h=${H}`);
  await page.waitForFunction(() => window.idbuf?.ready, null, { timeout: 180000 });
  console.log(`# ${await page.evaluate(() => navigator.userAgent)}; satc ${await page.evaluate(() => window.idbuf.satc.isa)}; ${W}x${H}`);
  const configs = [['frustum', {}]];
  for (const [name, opts] of configs) {
    let seen = 0, drawn = 0;
    for (const t of poses) {
      const r = await page.evaluate(([t, o]) => window.idbuf.compare(t, o), [t, opts]);
      seen += r.seen;
      drawn += r.drawn;
      console.log(`# ${name} t=${t}: ${r.seen} buildings have a pixel, ${r.drawn} drawn, ${r.missing} missing, ` +
        `${r.diffPixels} pixels differ, cull ${r.cullMs.toFixed(2)} ms`);
      check(r.missing === 0, `${name} t=${t}: no building with a pixel is culled${r.missing ? ` (missing: ${r.missingIds.join(' ')})` : ''}`);
      check(r.diffPixels === 0, `${name} t=${t}: culled frame identical to the full frame`);
      check(r.seen > 100, `${name} t=${t}: the frame shows the city (${r.seen} buildings)`);
    }
    console.log(`# ${name}: over ${poses.length} poses, ${(drawn / poses.length).toFixed(0)} drawn per frame for ${(seen / poses.length).toFixed(0)} with a pixel`);
  }
  check(errors.length === 0, `no console errors${errors.length ? ': ' + errors.join(' | ') : ''}`);
} finally {
  server.close();
  await browser.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
