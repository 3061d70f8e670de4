// Headless Chromium: the splat example (examples/splats/), its worker fed
// from a SharedArrayBuffer and from transferred buffers. For a random scene
// the index buffer WebGL drew from (read back with getBufferSubData) must
// be node's splatSorter order for the same bytes and matrix, and back to
// front by view depth computed here in double. For overlapping translucent
// splats stored front to back, the pixel where they overlap must be their
// back-to-front "over" composite, computed here (and not the front-to-back
// one, which differs). Ends with "N passed, N failed".
//   CHROMIUM=/usr/bin/chromium
import { load } from '../../src/index.js';
import { splatSorter } from '../../src/trs.js';
import { plyFile, randomSplats, layeredSplats, orbitCamera } from '../../examples/splats/scene.js';
import { startServer } from '../../demo/server.mjs';
import { checker, launch, pageWithErrors } from './chromium.mjs';

const W = 400, H = 300, N = 20000;
const { check, done } = checker();
const satc = await load();
const splats = randomSplats(N, 1);
const sorter = splatSorter(satc, plyFile(splats), { sort: 32 });
const order = new Uint32Array(N);

// Over-composite of (colour, alpha) layers given back to front, on the background.
function composite(layers, bg) {
  return layers.reduce((c, [col, a]) => c.map((v, i) => a * col[i] + (1 - a) * v), bg);
}

const browser = await launch();
const { server, url } = await startServer({ port: 0 });
try {
  for (const mode of ['shared', 'transfer']) {
    const { page, errors } = await pageWithErrors(browser, { viewport: { width: W, height: H } });
    await page.goto(`${url}/examples/splats/?still=1&w=${W}&h=${H}&n=${N}&mode=${mode}`);
    await page.waitForFunction(() => window.splats?.ready, null, { timeout: 120000 });
    const st = await page.evaluate(() => ({ ...window.splats.state, isa: window.splats.isa, iso: self.crossOriginIsolated }));
    check(st.shared === (mode === 'shared') && st.count === N, `${mode}: the page runs the worker with ${mode} buffers (${st.isa}, isolated ${st.iso})`);
    for (const t of [0, 3.7, 9.1]) {
      const r = await page.evaluate((t) => window.splats.frame(t), t);
      const drawn = await page.evaluate((n) => window.splats.drawnOrder(n), r.visible);
      const cam = orbitCamera(t, W / H);
      const n = sorter.sort(new Float32Array(r.viewProj), order);
      check(r.visible === n && drawn.every((v, i) => v === order[i]),
        `${mode} t=${t}: the index buffer drawn is node's back-to-front order (${r.visible} of ${N} drawn, node ${n})`);
      check(n > 1000 && n < N, `${mode} t=${t}: a share of the scene in view (${n})`);
      // view depth in double along the camera's axis: never increasing along the order
      const [ex, ey, ez] = cam.eye, l = Math.hypot(ex, ey, ez), D = [-ex / l, -ey / l, -ez / l];
      const depth = (i) => { const p = splats[i].p.map(Math.fround); return D[0] * (p[0] - ex) + D[1] * (p[1] - ey) + D[2] * (p[2] - ez); };
      let worst = 0;
      for (let i = 1; i < drawn.length; i++) worst = Math.max(worst, depth(drawn[i]) - depth(drawn[i - 1]));
      check(worst <= 1e-5 * (l + 20), `${mode} t=${t}: drawn back to front (largest depth increase ${worst.toExponential(2)})`);
    }
    check(errors.length === 0, `${mode}: no console errors${errors.length ? ': ' + errors.join(' | ') : ''}`);
    await page.close();
  }
  // overlapping translucent splats, stored front to back
  const { page, errors } = await pageWithErrors(browser, { viewport: { width: W, height: H } });
  await page.goto(`${url}/examples/splats/?still=1&w=${W}&h=${H}&scene=layered&flat=1`);
  await page.waitForFunction(() => window.splats?.ready, null, { timeout: 120000 });
  const r = await page.evaluate(() => window.splats.frame(0));
  const drawn = await page.evaluate((n) => window.splats.drawnOrder(n), r.visible);
  const bg = await page.evaluate(() => window.splats.background);
  const px = await page.evaluate(([x, y]) => window.splats.pixel(x, y), [W / 2, H / 2]);
  const layers = layeredSplats().map((s) => [s.color, s.alpha]);
  const want = composite(layers.slice().reverse(), bg).map((v) => v * 255);
  const wrong = composite(layers, bg).map((v) => v * 255);
  const err = Math.max(...px.map((v, i) => Math.abs(v - want[i])));
  const gap = Math.max(...want.map((v, i) => Math.abs(v - wrong[i])));
  check(drawn.join() === '3,2,1,0', `layered: drawn farthest first (${drawn.join(' ')})`);
  // 8-bit blending rounds at each of the 4 layers: at most 0.5 per layer, plus the shader's colour
  check(err <= 2.5, `layered: the centre pixel ${px.join(' ')} is the back-to-front composite ${want.map((v) => v.toFixed(1)).join(' ')} (off by ${err.toFixed(2)})`);
  check(gap > 20, `layered: the front-to-back composite ${wrong.map((v) => v.toFixed(1)).join(' ')} would differ by ${gap.toFixed(1)}`);
  check(errors.length === 0, `layered: no console errors${errors.length ? ': ' + errors.join(' | ') : ''}`);
} finally {
  await browser.close();
  server.close();
}
done();
