// The JavaScript API itself: loading, versions, memory growth, bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { load, SatcError, simdSupported, Status } from '../src/index.js';
import { mesonVersion } from '../scripts/version.mjs';
import { rng, volumes, perspective, lookDir, mul } from './helpers.js';

const satc = await load();
const cam = { eye: [0, 0, 0], dir: [0, 0, -1], up: [0, 1, 0], fovy: 1.0471976, aspect: 16 / 9, near: 0.1, far: 1000 };

function throwsStatus(fn, name) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof SatcError && e instanceof Error, `not a SatcError: ${e}`);
    assert.equal(e.statusName, name);
    assert.equal(e.status, Status[name.slice(5)]);
    assert.ok(e.message.includes(name) && e.message.includes(satc.statusString(e.status)), e.message);
    return true;
  });
}

test('versions: package.json and the module report meson.build\'s version', () => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  assert.equal(pkg.version, mesonVersion());
  assert.equal(satc.version, mesonVersion()); // satc_version() of the module: the one version
});

test('loader picks SIMD128 where the engine validates it, scalar when told', async () => {
  assert.equal(simdSupported(), true); // node >= 16
  assert.equal(satc.simd, true);
  assert.equal(satc.isa, 'simd128');
  const s = await load({ simd: false });
  assert.equal(s.isa, 'scalar');
  const bytes = readFileSync(new URL('../dist/satc-scalar.wasm', import.meta.url));
  assert.equal((await load({ wasm: bytes, simd: false })).isa, 'scalar');
});

test('caller arrays (one copy) and module batches give the same answer', () => {
  const d = volumes(rng(3), 1000, { spread: 300 });
  const f = satc.frustumPerspective(cam);
  const b = satc.batch('aabb', 1000, {}, { center: d.center, half: d.half });
  const a = satc.cull(f, b, { output: ['indices', 'classes'] });
  const c = satc.cull(f, { form: 'aabb', center: d.center, half: d.half }, { output: ['indices', 'classes'] });
  assert.ok(a.visible > 10 && a.visible < 1000, `visible ${a.visible}`);
  assert.deepEqual(c, a);
  b.dispose();
});

test('memory growth: package views are re-derived, listeners told, culls unaffected', () => {
  const d = volumes(rng(4), 500, { spread: 200 });
  const f = satc.frustumPerspective(cam);
  const a = satc.batch('aabb', 500, {}, { center: d.center, half: d.half });
  const out = satc.output();
  satc.cull(f, a, { into: out });
  const before = Array.from(out.indices);
  const held = a.center; // a view a caller took before growth
  const epoch = satc.memoryEpoch, bytes = satc.memoryBytes;
  let told = 0;
  const off = satc.onMemoryGrow(() => {
    told++;
    // the package's own views are already new when listeners run
    assert.equal(a.center.length, 1500);
  });
  const big = satc.batch('instances', 600000); // 38 MB: more than the memory has
  off();
  assert.ok(satc.memoryBytes > bytes + 30e6);
  assert.equal(satc.memoryEpoch, epoch + 1);
  assert.equal(told, 1);
  assert.equal(held.length, 0, 'a view taken before growth is detached (why the package hands out getters)');
  assert.deepEqual(a.center, d.center); // the getter gives the live data
  assert.deepEqual(Array.from(out.indices), before); // output views too
  a.center[0] = 1e6; // writes through the new view reach the module
  const r = satc.cull(f, a, { into: out });
  assert.equal(r, out);
  assert.deepEqual(Array.from(out.indices), before.filter((i) => i !== 0));
  big.dispose();
  a.dispose();
});

test('memory growth inside a cull of caller arrays', async () => {
  const s = await load();
  const d = volumes(rng(5), 200000, { spread: 500 });
  const f = s.frustumPerspective(cam);
  const epoch = s.memoryEpoch;
  const r = s.cull(f, { form: 'minmax', min: d.min, max: d.max }, { output: ['indices', 'bitmask'] });
  assert.ok(s.memoryEpoch > epoch, 'the copy grew the memory');
  const b = s.batch('minmax', 200000, {}, { min: d.min, max: d.max });
  assert.deepEqual(s.cull(f, b, { output: ['indices', 'bitmask'] }), r);
});

test('reserve: no growth afterwards, so views taken early stay valid', async () => {
  const s = await load({ reserve: 48 << 20 });
  const buf = s.memory.buffer, epoch = s.memoryEpoch;
  const a = s.batch('aabb', 1000);
  const held = a.half;
  const batches = [s.batch('instances', 200000), s.batch('spheres', 500000), s.output(300000)];
  assert.equal(s.memory.buffer, buf);
  assert.equal(s.memoryEpoch, epoch);
  assert.equal(held.length, 3000);
  held[5] = 7;
  assert.equal(a.half[5], 7);
  for (const b of batches) b.dispose();
});

test('bad input throws a SatcError naming the status; nothing is written', () => {
  const f = satc.frustumPerspective(cam);
  const b = satc.batch('aabb', 10);
  b.set({ center: new Float32Array(30).map((_, i) => (i % 3 === 2 ? -5 : 0)), half: new Float32Array(30).fill(1) });
  // wrong lengths: neither field is written
  throwsStatus(() => b.set({ half: new Float32Array(30).fill(9), center: new Float32Array(7) }), 'SATC_ERR_LAYOUT');
  assert.equal(b.half[0], 1);
  throwsStatus(() => satc.cull(f, { form: 'aabb', center: new Float32Array(9), half: new Float32Array(6) }), 'SATC_ERR_LAYOUT');
  throwsStatus(() => satc.batch('spheres', 3, {}, { center: [1, 2, 3], radius: [1, 1, 1] }), 'SATC_ERR_LAYOUT');
  // frusta: NaN, singular matrix, near > far, a bad frame; the target keeps its bytes
  const target = f.clone();
  const m = mul(perspective(1, 1, 0.1, 100), lookDir([0, 0, 0], [0, 0, -1], [0, 1, 0]));
  throwsStatus(() => satc.frustumFromMatrix(m.map((x, i) => (i === 5 ? NaN : x)), {}, target), 'SATC_ERR_NONFINITE');
  throwsStatus(() => satc.frustumFromMatrix(new Array(16).fill(0), {}, target), 'SATC_ERR_MATRIX');
  throwsStatus(() => satc.frustumFromMatrix(m.slice(0, 15), {}, target), 'SATC_ERR_LAYOUT');
  throwsStatus(() => satc.frustumFromMatrix(m, { depth: 'vulkan' }, target), 'SATC_ERR_FLAGS');
  throwsStatus(() => satc.frustumPerspective({ ...cam, eye: [0, NaN, 0] }, target), 'SATC_ERR_NONFINITE');
  throwsStatus(() => satc.frustumPerspective({ ...cam, near: 10, far: 1 }, target), 'SATC_ERR_FAR');
  throwsStatus(() => satc.frustumPerspective({ ...cam, up: [0, 1, 0.5] }, target), 'SATC_ERR_FRAME');
  assert.deepEqual(target.bytes, f.bytes);
  // culls: bad mode, range, views, unbounded exact, not a frustum; `into` keeps the last answer
  const out = satc.output();
  satc.cull(f, b, { into: out });
  const last = [out.visible, Array.from(out.indices)];
  assert.equal(last[0], 10);
  throwsStatus(() => satc.cull(f, b, { into: out, mode: 'fast' }), 'SATC_ERR_FLAGS');
  throwsStatus(() => satc.cull(f, b, { into: out, first: 4, count: 7 }), 'SATC_ERR_RANGE');
  throwsStatus(() => satc.cull(f, b, { into: out, output: 'list' }), 'SATC_ERR_FLAGS');
  throwsStatus(() => satc.cull({}, b, { into: out }), 'SATC_ERR_NULL');
  throwsStatus(() => satc.cullViews(new Array(65).fill(f), b), 'SATC_ERR_RANGE');
  throwsStatus(() => satc.cullViews([], b), 'SATC_ERR_RANGE');
  const half = satc.frustumFromPlanes([[0, 0, -1, -1]]); // z <= -1: unbounded
  throwsStatus(() => satc.cull(half, b, { into: out, mode: 'exact' }), 'SATC_ERR_FAR');
  assert.equal(satc.cull(half, b, { mode: 'conservative' }).visible, 10);
  throwsStatus(() => satc.querySphere([0, 0, 0], NaN, b, { into: out }), 'SATC_ERR_NONFINITE');
  throwsStatus(() => satc.queryRay([0, 0, 0], [0, 0, -1], -1, b, { into: out }), 'SATC_ERR_BOUNDS');
  assert.deepEqual([out.visible, Array.from(out.indices)], last);
  // a disposed batch
  b.dispose();
  throwsStatus(() => satc.cull(f, b), 'SATC_ERR_NULL');
  throwsStatus(() => b.center, 'SATC_ERR_NULL');
  throwsStatus(() => satc.batch('cones', 4), 'SATC_ERR_FLAGS');
  throwsStatus(() => satc.batch('aabb', -1), 'SATC_ERR_RANGE');
});

test('queries: sphere, ray (t, nearest), box, segment, planes, views', () => {
  const s = satc.batch('aabb', 3, {}, { center: [0, 0, -10, 0, 0, -20, 5, 0, -10], half: [1, 1, 1, 1, 1, 1, 1, 1, 1] });
  const r = satc.queryRay([0, 0, 0], [0, 0, -1], Infinity, s, { mode: 'exact' });
  assert.deepEqual(Array.from(r.indices), [0, 1]);
  assert.equal(r.nearest, 0);
  assert.ok(Math.abs(r.t[0] - 9) < 1e-4 && Math.abs(r.t[1] - 19) < 1e-4, `t ${r.t}`);
  assert.equal(satc.queryRay([0, 0, 0], [0, 1, 0], 100, s).nearest, -1);
  assert.deepEqual(Array.from(satc.querySphere([5, 0, -13], 2.5, s, { mode: 'exact' }).indices), [2]);
  const box = satc.frustumFromBox({ center: [0, 0, -15], half: [0.5, 0.5, 6] });
  assert.deepEqual(Array.from(satc.cull(box, s, { mode: 'exact' }).indices), [0, 1]);
  const seg = satc.frustumFromSegment([5, 0, 0], [5, 0, -30]);
  assert.deepEqual(Array.from(satc.cull(seg, s, { mode: 'exact' }).indices), [2]);
  const v = satc.cullViews([box, seg], s, { indices: true });
  assert.deepEqual(Array.from(v.masks), [1, 1, 2]);
  assert.deepEqual(v.visible, [2, 1]);
  const aabb = satc.toAABBs(s);
  assert.deepEqual(Array.from(aabb.center.slice(0, 3)), [0, 0, -10]);
  s.dispose();
});

test('groups: attached bounds keep every answer', () => {
  const d = volumes(rng(9), 4096, { spread: 400 });
  const f = satc.frustumPerspective(cam);
  const b = satc.batch('aabb', 4096, {}, { center: d.center, half: d.half });
  const flat = satc.cull(f, b, { output: ['indices', 'classes'], mode: 'exact' });
  b.setGroups(128);
  assert.equal(b.groupCount, 32);
  assert.deepEqual(satc.cull(f, b, { output: ['indices', 'classes'], mode: 'exact' }), flat);
  b.setGroups({ offsets: Uint32Array.from([0, 100, 100, 3000, 4096]) });
  assert.equal(b.groupCount, 4);
  assert.deepEqual(satc.cull(f, b, { output: ['indices', 'classes'], mode: 'exact' }), flat);
  b.clearGroups();
  b.dispose();
});

test('box helpers, a double camera origin, the path mask', async () => {
  const o = satc.obbFromMatrix([2, 0, 0, 0, 0, 0, 3, 0, 0, -1, 0, 0, 10, 20, 30, 1], [-1, -1, -1], [1, 1, 1]);
  assert.deepEqual(o.center, [10, 20, 30]);
  assert.deepEqual(o.extent.map((e) => Math.round(e * 1e4) / 1e4), [2, 3, 1]); // column lengths
  assert.ok(o.extent[0] >= 2 && o.extent[1] >= 3 && o.extent[2] >= 1, 'rounded outward');
  throwsStatus(() => satc.obbFromAABB([0, 0, 0], [-1, 1, 1]), 'SATC_ERR_BOX');
  const q = satc.obbFromQuat([1, 2, 3], [0, 0, Math.SQRT1_2, Math.SQRT1_2], [1, 2, 3]);
  assert.ok(Math.abs(q.axes[1] - 1) < 1e-6 && Math.abs(q.axes[3] + 1) < 1e-6, `axes ${q.axes}`);
  // a box as a query frustum: the obb helpers' output fits frustumFromBox
  const f = satc.frustumFromBox({ center: o.center, axes: o.axes, half: o.extent });
  assert.equal(f.kind, 'orthographic');
  // a camera 1e7 units out, volumes stored relative to a batch origin beside it
  const cam = { origin: [1e7 + 1, 0, 0], left: [-1, 0, 0], up: [0, 1, 0], dir: [0, 0, -1], l0: -0.1, l1: 0.1, u0: -0.1, u1: 0.1, near: 0.1, far: 100 };
  const fd = satc.frustumFromCamera({ ...cam, batchOrigin: [1e7, 0, 0] });
  assert.deepEqual(fd.origin, [1, 0, 0]);
  const b = { form: 'aabb', center: [1, 0, -10, 30, 0, -10], half: [1, 1, 1, 1, 1, 1] };
  assert.deepEqual(Array.from(satc.cull(fd, b, { mode: 'exact' }).indices), [0]);
  const s = await load();
  assert.equal(s.setIsaMask(0), 'scalar');
  assert.equal(s.setIsaMask(32), 'simd128');
  assert.deepEqual(s.cull(fd, b, { mode: 'exact' }), satc.cull(fd, b, { mode: 'exact' }));
});

test('memory grown behind the package\'s back (memory.grow) is noticed at the next call', async () => {
  const s = await load();
  const d = volumes(rng(8), 300, { spread: 100 });
  const b = s.batch('spheres', 300, {}, { center: d.center, radius: d.radius });
  const f = s.frustumPerspective(cam);
  const want = s.cull(f, b, { output: ['indices', 'classes'] });
  let told = 0;
  s.onMemoryGrow(() => told++);
  s.memory.grow(20);
  assert.deepEqual(b.center, d.center);
  assert.equal(told, 1);
  s.memory.grow(20);
  // a frustum built after an unseen growth reads its arguments from the live memory
  const cam2 = { ...cam, eye: [3, 1, 2] };
  const f2 = s.frustumPerspective(cam2);
  assert.deepEqual(f2.bytes, satc.frustumPerspective(cam2).bytes);
  assert.notDeepEqual(f2.bytes, f.bytes);
  assert.deepEqual(s.cull(f, b, { output: ['indices', 'classes'] }), want);
  assert.equal(told, 2);
});
