// Headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core;
// no browser download): the demo page renders the city, its visible count
// equals node's for the same camera, no console errors; a screenshot goes
// to the temporary directory (--update-docs: to docs/demo.png, the README's
// picture); the figures are measured in the page (the project's [js] goal
// lines with --goals or SATC_BENCH_GOALS=1); the installed tarball works in
// the browser too. Ends with "N passed, N failed".
//   CHROMIUM=/usr/bin/chromium  SATC_SCREENSHOT=path  SATC_BENCH_FRAMES=61
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import * as THREE from 'three';
import { load } from '../../src/index.js';
import { frustumFromCamera } from '../../src/three.js';
import { makeCity, buildingGeometry, placeCamera, makeCamera } from '../../demo/city.js';
import { startServer } from '../../demo/server.mjs';
import { packAndInstall, CONSUMER } from '../pack.mjs';
import { checker, launch, pageWithErrors } from './chromium.mjs';

const W = 1280, H = 720, T = 12.5, N = 100000;
const SHOT = process.argv.includes('--update-docs')
  ? fileURLToPath(new URL('../../../docs/demo.png', import.meta.url))
  : process.env.SATC_SCREENSHOT ?? join(tmpdir(), 'satc-demo.png');
const GOALS = process.argv.includes('--goals') || !['', '0', undefined].includes(process.env.SATC_BENCH_GOALS);
const { check, done } = checker();

// node's answer for the page's camera at time T.
const satc = await load();
const city = makeCity(N);
const geo = buildingGeometry();
geo.computeBoundingBox();
const bb = geo.boundingBox;
const cam = placeCamera(makeCamera(W / H), T);
const nodeVisible = satc.cull(frustumFromCamera(satc, cam), {
  form: 'instances', matrices: city.matrices,
  localCenter: bb.getCenter(new THREE.Vector3()).toArray(), localHalf: bb.getSize(new THREE.Vector3()).multiplyScalar(0.5).toArray(),
}).visible;
const tf = new THREE.Frustum().setFromProjectionMatrix(new THREE.Matrix4().multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse));
geo.computeBoundingSphere();
const s = new THREE.Sphere(), m = new THREE.Matrix4();
let nodeThree = 0;
for (let i = 0; i < N; i++) if (tf.intersectsSphere(s.copy(geo.boundingSphere).applyMatrix4(m.fromArray(city.matrices, 16 * i)))) nodeThree++;

const browser = await launch();
const { server, url } = await startServer({ port: 0 });
try {
  const { page, errors } = await pageWithErrors(browser, { viewport: { width: W, height: H } });
  await page.goto(`${url}/demo/?t=${T}`);
  await page.waitForFunction(() => window.demo?.state.frames >= 5, null, { timeout: 180000 });
  const st = await page.evaluate(() => window.demo.state);
  const version = await page.evaluate(() => navigator.userAgent);
  console.log(`# ${version}; satc ${await page.evaluate(() => window.demo.satc.isa)}; node ${process.version}`);
  check(st.satcVisible === nodeVisible, `demo: satc visible ${st.satcVisible} = node's ${nodeVisible} for the same camera`);
  check(st.satcVisible > 1000 && st.satcVisible < N / 2, `demo: a sensible share visible (${st.satcVisible} of ${N})`);
  // three.js's own per-object test, switched on in the page
  await page.evaluate(() => { window.demo.setMode('three'); window.demo.state.frames = 0; });
  await page.waitForFunction(() => window.demo.state.frames >= 2, null, { timeout: 300000 });
  const st3 = await page.evaluate(() => window.demo.state);
  check(st3.threeVisible === nodeThree, `demo: three.js visible ${st3.threeVisible} = node's ${nodeThree} (its sphere test keeps more: satc ${st.satcVisible})`);
  await page.evaluate(() => { window.demo.setMode('satc'); window.demo.state.frames = 0; });
  await page.waitForFunction(() => window.demo.state.frames >= 3, null, { timeout: 60000 });
  await page.screenshot({ path: SHOT });
  console.log(`# screenshot (both rows filled): ${SHOT}`);
  check(await page.evaluate(() => self.crossOriginIsolated), 'page is cross-origin isolated (fine timers)');
  // the [js] targets, per frame, medians
  const b = await page.evaluate((n) => window.demo.bench(n), Number(process.env.SATC_BENCH_FRAMES ?? 61));
  const ms = b.ms;
  console.log(`# per frame, ${b.n} instances, median of ${b.frames} cameras: satc InstanceCuller.update (matrices kept in satc's memory, groups of 128) ${ms.satc.toFixed(2)} ms;` +
    ` satc after copying all matrices in, no groups ${ms.satcCopy.toFixed(2)} ms; three.js intersectsObject x ${b.n} Meshes ${ms.three.toFixed(2)} ms;` +
    ` BatchedMesh per-instance culling ${ms.batched.toFixed(2)} ms. Visible at the last camera: satc ${b.lastVisible.satc} (${b.lastVisible.satcCopy}), three ${b.lastVisible.three}, BatchedMesh ${b.lastVisible.batched}`);
  check(b.lastVisible.satc === b.lastVisible.satcCopy, 'bench: both satc ways draw the same instances');
  const line = (ok, what) => { if (GOALS) console.log(`${ok ? 'PASS' : 'MISS'} [js] ${what}`); };
  for (const [key, how] of [['satc', 'matrices in satc memory, groups'], ['satcCopy', 'all matrices copied in, no groups']]) {
    const r1 = ms.three / ms[key], r2 = ms.batched / ms[key];
    line(r1 >= 10, `Chromium, 100k instances matrices->drawn (${how}): satc ${ms[key].toFixed(2)} ms vs three.js Meshes intersectsObject ${ms.three.toFixed(2)} ms: ${r1.toFixed(1)}x (target >= 10x)`);
    line(r2 >= 4, `Chromium, 100k instances matrices->drawn (${how}): satc ${ms[key].toFixed(2)} ms vs BatchedMesh per-instance ${ms.batched.toFixed(2)} ms: ${r2.toFixed(1)}x (target >= 4x)`);
  }
  writeFileSync(join(process.env.SATC_BENCH_DIR ?? '/tmp', 'satc-js-bench.json'), JSON.stringify({ ...b, node: process.version }, null, 2));
  check(errors.length === 0, `demo: no console errors${errors.length ? ': ' + errors.join(' | ') : ''}`);
  await page.close();
  // the demo with occlusion culling on: fewer drawn than the frustum keeps
  {
    const { page: occ, errors: oerr } = await pageWithErrors(browser, { viewport: { width: W, height: H } }, { console: false });
    await occ.goto(`${url}/demo/?t=${T}&occlusion=1`);
    await occ.waitForFunction(() => window.demo?.state.frames >= 2 && window.demo.state.occl, null, { timeout: 180000 });
    const o = await occ.evaluate(() => window.demo.state);
    check(o.occl.frustum === nodeVisible && o.occl.drawn < o.occl.frustum && o.satcVisible === o.occl.drawn && oerr.length === 0,
      `demo with occlusion: frustum keeps ${o.occl.frustum} (node: ${nodeVisible}), ${o.occl.drawn} drawn${oerr.length ? ': ' + oerr.join(' | ') : ''}`);
    await occ.close();
  }
  // the scalar module, as an engine without SIMD128 would get it
  const scalar = await browser.newPage({ viewport: { width: W, height: H } });
  await scalar.goto(`${url}/demo/?t=${T}&simd=0`);
  await scalar.waitForFunction(() => window.demo?.state.frames >= 2, null, { timeout: 180000 });
  const sc = await scalar.evaluate(() => [window.demo.satc.isa, window.demo.state.satcVisible]);
  check(sc[0] === 'scalar' && sc[1] === nodeVisible, `demo on the scalar module: ${sc[0]}, visible ${sc[1]}`);
  await scalar.close();
} finally {
  server.close();
}

// The installed tarball in the browser: served from the consumer project,
// as plain ES modules (an import map) and as a vite bundle (which finds the
// modules through new URL(..., import.meta.url) and ships them as assets).
{
  const { dir } = packAndInstall();
  writeFileSync(join(dir, 'consumer.mjs'), CONSUMER);
  writeFileSync(join(dir, 'index.html'), `<!doctype html><meta charset="utf-8">
<script type="importmap">{ "imports": { "satc": "./node_modules/satc/src/index.js" } }</script>
<script type="module">import { answer } from './consumer.mjs'; document.title = answer;</script>`);
  const { server: s2, url: u2 } = await startServer({ root: dir, port: 0 });
  try {
    const { page, errors } = await pageWithErrors(browser);
    await page.goto(`${u2}/index.html`);
    await page.waitForFunction(() => document.title.length > 0, null, { timeout: 60000 });
    const title = await page.title();
    check(/^simd128 \d+\.\d+\.\d+ visible=2 \[0,3\] SATC_ERR_MATRIX$/.test(title) && errors.length === 0, `installed tarball in the browser: "${title}"${errors.join(' ')}`);
  } finally {
    s2.close();
  }
  const { build } = await import('vite');
  mkdirSync(join(dir, 'app'));
  writeFileSync(join(dir, 'app', 'main.js'), "import { answer } from '../consumer.mjs';\ndocument.title = answer;\n");
  writeFileSync(join(dir, 'app', 'index.html'), '<!doctype html><meta charset="utf-8"><script type="module" src="./main.js"></script>');
  await build({ root: join(dir, 'app'), logLevel: 'warn', build: { outDir: join(dir, 'bundle'), target: 'es2022' } });
  const assets = readdirSync(join(dir, 'bundle', 'assets'));
  check(assets.filter((f) => f.endsWith('.wasm')).length === 2, `vite bundle ships both modules: ${assets.join(' ')}`);
  const { server: s3, url: u3 } = await startServer({ root: join(dir, 'bundle'), port: 0 });
  try {
    const { page, errors } = await pageWithErrors(browser);
    await page.goto(`${u3}/index.html`);
    await page.waitForFunction(() => document.title.length > 0, null, { timeout: 60000 });
    const title = await page.title();
    check(/^simd128 \d+\.\d+\.\d+ visible=2 \[0,3\] SATC_ERR_MATRIX$/.test(title) && errors.length === 0, `installed tarball in a vite bundle in the browser: "${title}"${errors.join(' ')}`);
  } finally {
    s3.close();
  }
}
await browser.close();
done();
