// Headless Chromium: the demo's city as an ID buffer (each building a
// unique colour), rendered from poses of the demo's camera path with every
// instance drawn and again culled by InstanceCuller (by frustum, with the
// default occlusion, and with depth per texel too). Every building with a
// pixel in the full frame must be drawn in the culled one; the two frames
// should be identical pixel for pixel. Then random scenes of walls three
// may or may not draw opaque (idbuffer/scenes.js): every box three shows
// (removing it changes a pixel) must stay drawn by every helper's
// occlusion. Ends with "N passed, N failed".
// Prints, per culler, the whole culling time (InstanceCuller.update) and
// the frame time (culling, rendering and a one-pixel readback: SwiftShader
// renders on the CPU), each the best of two runs, medians over the poses.
//   CHROMIUM=/usr/bin/chromium  SATC_IDBUF_POSES=0,12.5,...  SATC_IDBUF_SIZE=1280x720
//   SATC_IDBUF_PYRAMID=640 (pyramid width)  SATC_IDBUF_OCCLUDERS=Infinity  SATC_IDBUF_REPS=2
//   SATC_BENCH_GOALS=1 (goal lines)  SATC_IDBUF_SCENES=200 (random wall scenes)
//   SATC_IDBUF_CULLERS=frustum,occlusion,occlusion:size=320;maxOccluders=1024 (the cullers, in turn per pose)
import { startServer } from '../../demo/server.mjs';
import { checker, launch, pageWithErrors } from './chromium.mjs';

const N = 100000;
const poses = (process.env.SATC_IDBUF_POSES ?? '0,12.5,25,40,60,80').split(',').map(Number);
const [W, H] = (process.env.SATC_IDBUF_SIZE ?? '1280x720').split('x').map(Number);
const { check, done } = checker();

const browser = await launch();
const { server, url } = await startServer({ port: 0 });
try {
  const { page, errors } = await pageWithErrors(browser, { viewport: { width: W, height: H } });
  const extra = [['pyramid', 'SATC_IDBUF_PYRAMID'], ['occluders', 'SATC_IDBUF_OCCLUDERS'], ['reps', 'SATC_IDBUF_REPS']]
    .filter(([, e]) => process.env[e]).map(([k, e]) => `&${k}=${process.env[e]}`).join('');
  await page.goto(`${url}/test/browser/idbuffer/?w=${W}&h=${H}${extra}`);
  await page.waitForFunction(() => window.idbuf?.ready, null, { timeout: 180000 });
  console.log(`# ${await page.evaluate(() => navigator.userAgent)}; satc ${await page.evaluate(() => window.idbuf.satc.isa)}; ${W}x${H}`);
  const configs = (process.env.SATC_IDBUF_CULLERS ?? 'frustum,occlusion,occlusion:depthPerTexel=true').split(',');
  const sum = Object.fromEntries(configs.map((c) => [c, { seen: 0, drawn: 0, cullMs: [], frameMs: [] }]));
  const perFrame = {}, times = {};
  const median = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
  // pose by pose, each culler in turn: a busy machine slows both alike
  for (const t of poses) {
    for (const name of configs) {
      const r = await page.evaluate(([t, w]) => window.idbuf.compare(t, w), [t, name]);
      const a = sum[name];
      a.seen += r.seen;
      a.drawn += r.drawn;
      a.cullMs.push(r.cullMs);
      a.frameMs.push(r.frameMs);
      const o = r.stats;
      console.log(`# ${name} t=${t}: ${r.seen} buildings have a pixel, ${r.drawn} drawn, ${r.missing} missing, ` +
        `${r.diffPixels} pixels differ, cull ${r.cullMs.toFixed(2)} ms, frame ${r.frameMs.toFixed(1)} ms` +
        (o ? ` (frustum ${o.ms.frustum.toFixed(2)}, choice ${o.ms.select.toFixed(2)}, occluders ${o.ms.occluders.toFixed(2)}, ` +
          `test ${o.ms.test.toFixed(2)}; frustum kept ${o.frustum}, ${o.occluders} occluders)` : ''));
      check(r.missing === 0, `${name} t=${t}: no building with a pixel is culled${r.missing ? ` (missing: ${r.missingIds.join(' ')})` : ''}`);
      check(r.diffPixels === 0, `${name} t=${t}: culled frame identical to the full frame`);
      check(r.drawn < 0.5 * N, `${name} t=${t}: the culler culls (${r.drawn} of ${N} drawn)`);
      check(r.seen > 100, `${name} t=${t}: the frame shows the city (${r.seen} buildings)`);
    }
  }
  for (const name of configs) {
    const a = sum[name];
    perFrame[name] = a.drawn / poses.length;
    times[name] = { cull: median(a.cullMs), frame: median(a.frameMs) };
    console.log(`# ${name}: over ${poses.length} poses, ${perFrame[name].toFixed(0)} drawn per frame for ${(a.seen / poses.length).toFixed(0)} with a pixel; ` +
      `cull ${times[name].cull.toFixed(2)} ms, frame ${times[name].frame.toFixed(1)} ms (medians)`);
  }
  if (perFrame.frustum && perFrame.occlusion) {
    const ratio = perFrame.occlusion / perFrame.frustum;
    console.log(`# drawn with occlusion / with frustum culling alone: ${ratio.toFixed(2)}; culling ${times.occlusion.cull.toFixed(2)} ms ` +
      `against ${times.frustum.cull.toFixed(2)} ms; frame (cull + render, SwiftShader) ${times.occlusion.frame.toFixed(1)} ms against ${times.frustum.frame.toFixed(1)} ms (medians)`);
    if (process.env.SATC_BENCH_GOALS === '1') {
      const line = (ok, tag, what) => console.log(`${ok ? 'PASS' : 'MISS'} [${tag}] ${what}`);
      line(ratio <= 0.6, 'occlusion', `Chromium, drawn with occlusion ${ratio.toFixed(2)}x those of frustum culling alone (goal <= 0.6x)`);
      line(times.occlusion.cull <= 4, 'occlusion', `Chromium, whole culling with occlusion ${times.occlusion.cull.toFixed(2)} ms a frame (goal <= 4 ms)`);
      line(times.occlusion.frame < times.frustum.frame, 'js', `frame time with occlusion ${times.occlusion.frame.toFixed(1)} ms < frustum alone ${times.frustum.frame.toFixed(1)} ms`);
    }
  }
  check(errors.length === 0, `no console errors${errors.length ? ': ' + errors.join(' | ') : ''}`);
  await page.close();
  // random wall scenes: three's own frames against every helper's occlusion
  const { page: sp, errors: serr } = await pageWithErrors(browser, { viewport: { width: 256, height: 160 } });
  await sp.goto(`${url}/test/browser/idbuffer/scenes.html`);
  await sp.waitForFunction(() => window.scenes?.ready, null, { timeout: 180000 });
  const count = Number(process.env.SATC_IDBUF_SCENES ?? 200);
  const r = await sp.evaluate((n) => window.scenes.run(1, n), count);
  console.log(`# ${r.scenes} random wall scenes, ${r.boxes} boxes, ${r.seen} shown by three`);
  for (const [name, o] of Object.entries(r.helpers)) {
    check(o.hiddenSeen === 0, `${name}: ${o.hiddenSeen} of ${o.seen} boxes three shows are hidden${o.examples.length ? ` (${o.examples.join(', ')})` : ''}`);
    check(o.occluded > 0.05 * r.boxes, `${name}: occlusion hides ${o.occluded} boxes in the frustum`);
  }
  check(serr.length === 0, `wall scenes: no console errors${serr.length ? ': ' + serr.join(' | ') : ''}`);
} finally {
  server.close();
  await browser.close();
}
done();
