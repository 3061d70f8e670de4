// Headless Chromium: the demo's city as an ID buffer (each building a
// unique colour), rendered from poses of the demo's camera path with every
// instance drawn and again culled by InstanceCuller. Every building with a
// pixel in the full frame must be drawn in the culled one; the two frames
// should be identical pixel for pixel. Ends with "N passed, N failed".
//   CHROMIUM=/usr/bin/chromium  SATC_IDBUF_POSES=0,12.5,...  SATC_IDBUF_SIZE=1280x720
import { chromium } from 'playwright-core';
import { startServer } from '../../demo/server.mjs';

const N = 100000;
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
  const configs = (process.env.SATC_IDBUF_CULLERS ?? 'frustum,occlusion').split(',');
  const perFrame = {}, times = {};
  const median = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
  for (const name of configs) {
    let seen = 0, drawn = 0;
    const cullMs = [], frameMs = [];
    for (const t of poses) {
      const r = await page.evaluate(([t, w]) => window.idbuf.compare(t, w), [t, name]);
      seen += r.seen;
      cullMs.push(r.cullMs);
      frameMs.push(r.frameMs);
      drawn += r.drawn;
      console.log(`# ${name} t=${t}: ${r.seen} buildings have a pixel, ${r.drawn} drawn, ${r.missing} missing, ` +
        `${r.diffPixels} pixels differ, cull ${r.cullMs.toFixed(2)} ms, frame ${r.frameMs.toFixed(1)} ms` +
        (r.stats ? ` (frustum ${r.stats.ms.frustum.toFixed(2)}, occluders ${r.stats.ms.occluders.toFixed(2)}, test ${r.stats.ms.test.toFixed(2)}; frustum kept ${r.stats.frustum})` : ''));
      check(r.missing === 0, `${name} t=${t}: no building with a pixel is culled${r.missing ? ` (missing: ${r.missingIds.join(' ')})` : ''}`);
      check(r.diffPixels === 0, `${name} t=${t}: culled frame identical to the full frame`);
      check(r.drawn < 0.5 * N, `${name} t=${t}: the culler culls (${r.drawn} of ${N} drawn)`);
      check(r.seen > 100, `${name} t=${t}: the frame shows the city (${r.seen} buildings)`);
    }
    perFrame[name] = drawn / poses.length;
    times[name] = { cull: median(cullMs), frame: median(frameMs) };
    console.log(`# ${name}: over ${poses.length} poses, ${(drawn / poses.length).toFixed(0)} drawn per frame for ${(seen / poses.length).toFixed(0)} with a pixel`);
  }
  if (perFrame.frustum && perFrame.occlusion) {
    const ratio = perFrame.occlusion / perFrame.frustum;
    console.log(`# drawn with occlusion / with frustum culling alone: ${ratio.toFixed(2)}; culling ${times.occlusion.cull.toFixed(2)} ms ` +
      `against ${times.frustum.cull.toFixed(2)} ms; frame (cull + render, SwiftShader) ${times.occlusion.frame.toFixed(1)} ms against ${times.frustum.frame.toFixed(1)} ms (medians)`);
    if (process.env.SATC_BENCH_GOALS === '1') {
      const line = (ok, what) => console.log(`${ok ? 'PASS' : 'MISS'} [js] ${what}`);
      line(ratio <= 0.5, `drawn with occlusion ${ratio.toFixed(2)}x those of frustum culling alone (goal <= 0.5x)`);
      line(times.occlusion.cull <= 3, `whole culling with occlusion ${times.occlusion.cull.toFixed(2)} ms a frame (goal <= 3 ms)`);
      line(times.occlusion.frame < times.frustum.frame, `frame time with occlusion ${times.occlusion.frame.toFixed(1)} ms < frustum alone ${times.frustum.frame.toFixed(1)} ms`);
    }
  }
  check(errors.length === 0, `no console errors${errors.length ? ': ' + errors.join(' | ') : ''}`);
} finally {
  server.close();
  await browser.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
