// satc/trs: splat and transform batches in module memory. Checked against
// an independent double-precision model in JavaScript (a splat's k sigma
// box from its normalised quaternion: volumes clearly inside the frustum
// must be visible, volumes whose bounding ball is clearly outside a plane
// must be culled, in both modes), the two modules against each other bit
// for bit (SIMD128 and scalar: indices, depths, keys, orders), the sorted
// orders against a stable sort in JavaScript, satc_expf against Math.exp,
// and bad options throwing SatcError without touching the outputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load, SatcError } from '../src/index.js';
import { splatBatch, trsBatch, expf, SPLAT_RECORD_BYTES } from '../src/trs.js';

function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
}

// n splats around the camera (0, 1.6, 0) looking along +z, with odd ones:
// zero and off-range quaternions, flat and huge scales.
function fillSplats(b, n, r) {
  const f = b.records, u = b.bytes;
  for (let i = 0; i < n; i++) {
    const o = 8 * i;
    f[o] = r() * 20 - 10; f[o + 1] = r() * 6 - 1.4; f[o + 2] = r() * 20 - 6;
    for (let k = 0; k < 3; k++) f[o + 3 + k] = i % 97 === 5 ? 0 : Math.exp(-4 + 3 * r());
    if (i % 211 === 7) f[o + 3] = 1e6;
    const c = 4 * o + 28;
    for (let k = 0; k < 4; k++) u[c + k] = (r() * 256) | 0;
    if (i % 101 === 3) u[c] = u[c + 1] = u[c + 2] = u[c + 3] = 128; // zero quaternion
    u[4 * o + 24] = 255;
  }
}

// The perspective frustum (fovy 60, 16:9, n 0.1, f 100) at (0, 1.6, 0) along +z.
const CAM = { eye: [0, 1.6, 0], dir: [0, 0, 1], up: [0, 1, 0], fovy: Math.PI / 3, aspect: 16 / 9, near: 0.1, far: 100 };

// Inward planes of CAM in double: [nx, ny, nz, d] with n.x + d >= 0 inside.
function camPlanes() {
  const ty = Math.tan(CAM.fovy / 2), tx = ty * CAM.aspect, [ex, ey, ez] = CAM.eye;
  // frame: L = (-1, 0, 0) (left), U = (0, 1, 0), D = (0, 0, 1)
  const P = [[0, 0, 1, -(ez + CAM.near)], [0, 0, -1, ez + CAM.far],
    [-1, 0, tx, 0], [1, 0, tx, 0], [0, -1, ty, 0], [0, 1, ty, 0]];
  return P.map(([a, b, c, d], k) => {
    const l = Math.hypot(a, b, c);
    const w = k < 2 ? d : -(a * ex + b * ey + c * ez);
    return [a / l, b / l, c / l, w / l];
  });
}

// A splat's box in double: center, axes (R's columns times k sigma).
function splatBox(f, u, i, k = 3) {
  const o = 8 * i, c = 4 * o + 28;
  const [w, x, y, z] = [u[c] - 128, u[c + 1] - 128, u[c + 2] - 128, u[c + 3] - 128];
  const l = Math.hypot(x, y, z, w);
  if (!(l > 0)) return null;
  const [qx, qy, qz, qw] = [x / l, y / l, z / l, w / l];
  const R = [[1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - qz * qw), 2 * (qx * qz + qy * qw)],
    [2 * (qx * qy + qz * qw), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - qx * qw)],
    [2 * (qx * qz - qy * qw), 2 * (qy * qz + qx * qw), 1 - 2 * (qx * qx + qy * qy)]];
  const H = [0, 1, 2].map((j) => [0, 1, 2].map((r) => R[r][j] * k * f[o + 3 + j]));
  return { c: [f[o], f[o + 1], f[o + 2]], H };
}

const satcs = Promise.all([load(), load({ simd: false })]);

test('splats: no touching splat culled, clearly outside ones culled (double model)', async () => {
  const [satc] = await satcs;
  const n = 20000, b = splatBatch(satc, n), r = rng(7);
  fillSplats(b, n, r);
  const fr = satc.frustumPerspective(CAM), planes = camPlanes();
  for (const mode of ['conservative', 'exact']) {
    const vis = new Uint8Array(n);
    for (const i of b.cull(fr, { mode }).indices) vis[i] = 1;
    const f = b.records, u = b.bytes; // after the call: it may have grown the memory
    let inside = 0, outside = 0;
    for (let i = 0; i < n; i++) {
      const box = splatBox(f, u, i);
      if (!box) {
        assert.equal(vis[i], 1, `splat ${i}: a zero quaternion is never culled`);
        continue;
      }
      const s = planes.map(([a, bb, c, d]) => a * box.c[0] + bb * box.c[1] + c * box.c[2] + d);
      const rad = planes.map(([a, bb, c]) => box.H.reduce((t, h) => t + Math.abs(a * h[0] + bb * h[1] + c * h[2]), 0));
      const tol = 1e-4 * (1 + Math.hypot(...box.c));
      if (s.every((v, k) => v - rad[k] > tol)) {
        inside++;
        assert.equal(vis[i], 1, `${mode}: splat ${i} lies inside the frustum, culled`);
      }
      // outside one plane by more than its ball (3 sigma |s|_1) plus the tolerance
      const ball = 3 * (Math.abs(f[8 * i + 3]) + Math.abs(f[8 * i + 4]) + Math.abs(f[8 * i + 5]));
      if (s.some((v) => v + ball < -tol)) {
        outside++;
        assert.equal(vis[i], 0, `${mode}: splat ${i} lies outside a plane, kept`);
      }
    }
    assert.ok(inside > 1000 && outside > 1000, `the scene has both (${inside} inside, ${outside} outside)`);
  }
  b.dispose();
});

test('splats: SIMD128 and scalar modules give the same bits; orders are stable sorts', async () => {
  const [a, s] = await satcs;
  const n = 30000, r1 = rng(11);
  const ba = splatBatch(a, n), bs = splatBatch(s, n);
  fillSplats(ba, n, r1);
  bs.bytes.set(ba.bytes);
  for (let i = 5; i < n; i += 7) { // equal depths: the sorts must keep index order
    ba.records.copyWithin(8 * i, 8 * (i - 3), 8 * (i - 3) + 3);
    bs.records.copyWithin(8 * i, 8 * (i - 3), 8 * (i - 3) + 3);
  }
  const fa = a.frustumPerspective(CAM), fs = s.frustumPerspective(CAM);
  for (const mode of ['conservative', 'exact']) {
    for (const sort of [16, 32]) {
      const opts = { mode, sort, depth: true, keys: true };
      const x = ba.cullSorted(fa, opts), y = bs.cullSorted(fs, opts);
      for (const k of ['indices', 'sorted', 'depth', 'key16', 'key32']) {
        assert.deepEqual(Buffer.from(x[k].buffer), Buffer.from(y[k].buffer), `${mode} sort ${sort}: ${k} differ between modules`);
      }
      // the order: decreasing key, ties by increasing index
      const key = new Map();
      x.indices.forEach((i, j) => key.set(i, sort === 16 ? x.key16[j] : x.key32[j]));
      const want = Array.from(x.indices).sort((p, q) => (key.get(q) - key.get(p)) || (p - q));
      assert.deepEqual(Array.from(x.sorted), want, `${mode} sort ${sort}: not a stable back-to-front order`);
      // depths against double: D.(p - E), D = +z
      x.indices.forEach((i, j) => {
        const d = ba.records[8 * i + 2] - CAM.eye[2];
        assert.ok(Math.abs(x.depth[j] - d) <= 1e-6 * (1 + Math.abs(d)), `depth of ${i}`);
      });
    }
  }
  ba.dispose();
  bs.dispose();
});

test('splats: more than 2^17 visible (where the native sort takes two digits): a stable back-to-front order, both modules', async () => {
  const [a, s] = await satcs;
  const n = 150000, r = rng(23);
  const ba = splatBatch(a, n), bs = splatBatch(s, n);
  const f = ba.records, u = ba.bytes;
  for (let i = 0; i < n; i++) { // a slab in front of CAM, many equal depths
    const o = 8 * i, z = 5 + (i % 3 ? r() * 40 : (i % 400) * 0.1);
    f[o] = (r() - 0.5) * z; f[o + 1] = 1.6 + (r() - 0.5) * 0.5 * z; f[o + 2] = z;
    for (let k = 0; k < 3; k++) f[o + 3 + k] = 0.01;
    u[4 * o + 28] = 255; u[4 * o + 29] = u[4 * o + 30] = u[4 * o + 31] = 128;
  }
  bs.bytes.set(ba.bytes);
  const fa = a.frustumPerspective(CAM), fs = s.frustumPerspective(CAM);
  const x = ba.cullSorted(fa, { keys: true }), y = bs.cullSorted(fs, { keys: true });
  assert.ok(x.visible > 131072, `most visible (${x.visible})`);
  assert.deepEqual(Buffer.from(x.sorted.buffer), Buffer.from(y.sorted.buffer), 'the modules differ');
  const key = new Uint16Array(n);
  x.indices.forEach((i, j) => { key[i] = x.key16[j]; });
  const want = Array.from(x.indices).sort((p, q) => (key[q] - key[p]) || (p - q));
  assert.deepEqual(Array.from(x.sorted), want, 'not a stable back-to-front order');
  ba.dispose();
  bs.dispose();
});

test('trs arrays: log scales, shared and per-volume boxes, every quaternion type, both modules', async () => {
  const [a, s] = await satcs;
  const n = 5000, r = rng(3);
  for (const quaternion of ['f32', 'u8', 'i8']) {
    for (const local of ['splat', 'shared', 'per-volume']) {
      const opts = { quaternion, order: 'wxyz', logScale: true, local };
      const ba = trsBatch(a, n, opts), bs = trsBatch(s, n, opts);
      for (const b of [ba, bs]) {
        const rr = rng(quaternion.length * 31 + local.length);
        for (let i = 0; i < 3 * n; i++) b.position[i] = rr() * 40 - 20;
        for (let i = 0; i < 3 * n; i++) b.scale[i] = rr() * 4 - 3;
        for (let i = 0; i < 4 * n; i++) b.quaternion[i] = quaternion === 'f32' ? rr() * 2 - 1 : (rr() * 256) | 0;
        if (local === 'shared') b.localCenter.set([0.5, 0, -0.5]), b.localHalf.set([1, 2, 0.5]);
        if (local === 'per-volume') for (let i = 0; i < 3 * n; i++) b.localCenter[i] = rr() - 0.5, b.localHalf[i] = rr();
      }
      void r;
      const fa = a.frustumPerspective(CAM), fs = s.frustumPerspective(CAM);
      for (const mode of ['conservative', 'exact']) {
        const x = ba.cullSorted(fa, { mode, depth: true }), y = bs.cullSorted(fs, { mode, depth: true });
        assert.deepEqual(x.indices, y.indices, `${quaternion} ${local} ${mode}: indices`);
        assert.deepEqual(x.sorted, y.sorted, `${quaternion} ${local} ${mode}: order`);
        assert.deepEqual(Buffer.from(x.depth.buffer), Buffer.from(y.depth.buffer), `${quaternion} ${local} ${mode}: depths`);
        assert.ok(x.visible > 0 && x.visible < n, `${quaternion} ${local} ${mode}: a mixed answer`);
      }
      ba.dispose();
      bs.dispose();
    }
  }
});

test('expf: within 2^-22 of Math.exp, the same in both modules', async () => {
  const [a, s] = await satcs;
  const r = rng(5);
  for (let i = 0; i < 20000; i++) {
    const x = Math.fround(r() * 170 - 85);
    const y = expf(a, x);
    assert.equal(y, expf(s, x));
    assert.ok(Math.abs(y - Math.exp(x)) <= 2 ** -22 * Math.exp(x), `expf(${x})`);
  }
  assert.ok(Number.isNaN(expf(a, NaN)));
  assert.equal(expf(a, 100), Infinity);
});

test('bad options throw SatcError; the records are read in place', async () => {
  const [satc] = await satcs;
  assert.equal(SPLAT_RECORD_BYTES, 32);
  assert.throws(() => splatBatch(satc, -1), SatcError);
  assert.throws(() => trsBatch(satc, 4, { quaternion: 'f16' }), SatcError);
  assert.throws(() => trsBatch(satc, 4, { local: 'mesh' }), SatcError);
  assert.throws(() => splatBatch(satc, 4, { k: -1 }), SatcError);
  const b = splatBatch(satc, 8), f = satc.frustumPerspective(CAM);
  assert.throws(() => b.cull(f, { mode: 'fast' }), SatcError);
  assert.throws(() => b.cullSorted(f, { sort: 8 }), SatcError);
  assert.throws(() => b.cull(f, { first: 4, count: 8 }), SatcError);
  assert.throws(() => b.cull({}, {}), SatcError);
  // one splat in front of the camera, written as bytes
  const rec = new ArrayBuffer(32), fv = new Float32Array(rec), uv = new Uint8Array(rec);
  fv.set([0, 1.6, 5, 0.1, 0.1, 0.1]);
  uv.set([255, 255, 255, 255, 255, 128, 128, 128], 24);
  b.count = 1;
  b.bytes.set(uv);
  assert.equal(b.cull(f).visible, 1);
  b.records[2] = -5; // behind the camera
  assert.equal(b.cull(f).visible, 0);
  b.dispose();
  assert.throws(() => b.cull(f), SatcError);
});

test('cullSorted: sort 32 then sort 16 on a small batch (the 16-bit histogram needs the larger scratch)', async () => {
  const [satc] = await satcs;
  const b = trsBatch(satc, 100), r = rng(17);
  b.quaternion.fill(1);
  for (let i = 0; i < 300; i++) b.position[i] = (i % 3 === 2 ? 5 : 0) + r() * 2 - 1;
  b.scale.fill(0.1);
  const f = satc.frustumPerspective(CAM);
  const s32 = b.cullSorted(f, { sort: 32 }), s16 = b.cullSorted(f, { sort: 16 });
  assert.ok(s32.visible > 50, `splats in view (${s32.visible})`);
  assert.equal(s16.visible, s32.visible);
  b.dispose();
});
