// Occlusion from JavaScript: depth pyramids drawn from occluder boxes and
// triangles or filled from depth images, the cull with { occlusion }, bad
// input. A wall fills the view at a known depth: what lies wholly behind it
// (by more than a texel's worth) must be occluded, nothing in front of it
// may be, and both modules answer alike.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load, SatcError, Status, OCCLUDED } from '../src/index.js';
import { rng } from './helpers.js';

const simd = await load();
const scalar = await load({ simd: false });
const cam = { eye: [0, 0, 0], dir: [0, 0, -1], up: [0, 1, 0], fovy: 1.0471976, aspect: 16 / 9, near: 0.1, far: 1000 };
const WALL = 20; // the wall's front face: z = -WALL, view depth WALL

function throwsStatus(satc, fn, name) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof SatcError, `not a SatcError: ${e}`);
    assert.equal(e.statusName, name, e.message);
    assert.equal(e.status, Status[name.slice(5)]);
    return true;
  });
}

// Random boxes in and around the view, some in front of the wall, some behind.
function boxes(seed, n) {
  const r = rng(seed), center = new Float32Array(3 * n), half = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) {
    const d = 1 + r() * 80;
    center.set([(r() - 0.5) * 2.2 * d, (r() - 0.5) * 1.3 * d, -d], 3 * i);
    half.set([0.05 + r() * 3, 0.05 + r() * 3, 0.05 + r() * 3], 3 * i);
  }
  return { center, half };
}

function wallBatch(satc) {
  return satc.batch('aabb', 1, {}, { center: [0, 0, -WALL - 0.5], half: [100, 100, 0.5] });
}

// GL window depth of view depth d for the camera's perspective projection.
function windowDepth(d) {
  const n = cam.near, f = cam.far;
  const ndc = (f + n) / (f - n) - (2 * f * n) / ((f - n) * d);
  return (ndc + 1) / 2;
}

function classify(satc, pyr, f, data, mode) {
  const b = satc.batch('aabb', data.center.length / 3, {}, data);
  const r = satc.cull(f, b, { mode, occlusion: pyr, output: ['classes', 'indices'] });
  b.dispose();
  return r;
}

function checkAgainstWall(r, data, what) {
  let occluded = 0, behind = 0;
  for (let i = 0; i < r.classes.length; i++) {
    const zc = -data.center[3 * i + 2], hz = data.half[3 * i + 2];
    const nearest = zc - hz, farFromWall = nearest > WALL * 1.05 + 0.5;
    if (r.classes[i] === OCCLUDED) {
      occluded++;
      // a volume any part of which is in front of the wall is never occluded
      assert.ok(nearest > WALL, `${what}: box ${i} reaching depth ${nearest} in front of the wall is occluded`);
    }
    if (farFromWall && r.classes[i] !== 0) {
      behind++;
      assert.equal(r.classes[i], OCCLUDED, `${what}: box ${i} wholly behind the wall (depth ${nearest}) in the view is not occluded`);
    }
  }
  assert.equal(r.occluded, occluded, `${what}: occluded count`);
  assert.ok(behind > 100 && occluded >= behind, `${what}: ${behind} boxes behind the wall in view, ${occluded} occluded`);
  assert.equal(r.visible + occluded + r.classes.filter((c) => c === 0).length, r.classes.length);
}

for (const [name, satc] of [['simd128', simd], ['scalar', scalar]]) {
  test(`${name}: a wall box drawn by the rasterizer occludes what lies behind it, nothing in front`, () => {
    const f = satc.frustumPerspective(cam);
    const pyr = satc.depthPyramid(128, 72);
    const wall = wallBatch(satc);
    pyr.begin(f).rasterize(wall).build();
    const lv = pyr.level(0);
    assert.equal(lv.width, 128);
    assert.ok(lv.depth.every((d) => d >= WALL && d < WALL * 1.01), 'every texel holds the wall, at or beyond its depth');
    const data = boxes(7, 4000);
    for (const mode of ['conservative', 'exact']) checkAgainstWall(classify(satc, pyr, f, data, mode), data, `${name} ${mode}`);
    pyr.dispose();
    wall.dispose();
  });

  test(`${name}: the wall as two triangles of an occluder mesh, and filled from depth images`, () => {
    const f = satc.frustumPerspective(cam);
    const data = boxes(11, 4000);
    const pyr = satc.depthPyramid(96, 64);
    // a quad at z = -WALL, as two triangles (16-bit indices), moved there by a model matrix
    const mesh = satc.occluderMesh(new Float32Array([-100, -100, 0, 100, -100, 0, 100, 100, 0, -100, 100, 0]), new Uint16Array([0, 1, 2, 0, 2, 3]));
    pyr.begin(f).rasterizeMesh(mesh, { matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, -WALL, 1] }).build();
    const fromMesh = classify(satc, pyr, f, data, 'exact');
    // the two triangles share their diagonal: every texel of the view is written
    assert.equal(pyr.level(0).depth.filter((d) => d === Infinity).length, 0);
    for (let i = 0; i < fromMesh.classes.length; i++) {
      if (fromMesh.classes[i] === OCCLUDED) assert.ok(-data.center[3 * i + 2] - data.half[3 * i + 2] > WALL, `mesh: box ${i}`);
    }
    // a GL float window-depth image and a 16-bit one of the same wall
    const W = 160, H = 90, win = new Float32Array(W * H).fill(windowDepth(WALL));
    pyr.begin(f).fill(win, { width: W, height: H, near: cam.near, far: cam.far });
    checkAgainstWall(classify(satc, pyr, f, data, 'exact'), data, `${name} float image`);
    const u16 = new Uint16Array(W * H).fill(Math.round(windowDepth(WALL) * 65535));
    pyr.begin(f).fill(u16, { width: W, height: H, near: cam.near, far: cam.far });
    const r16 = classify(satc, pyr, f, data, 'exact');
    for (let i = 0; i < r16.classes.length; i++) {
      if (r16.classes[i] === OCCLUDED) assert.ok(-data.center[3 * i + 2] - data.half[3 * i + 2] > WALL, `unorm16: box ${i}`);
    }
    assert.ok(r16.occluded > 100);
    // the cleared image (far everywhere) hides nothing
    pyr.begin(f).fill(new Float32Array(W * H).fill(1), { width: W, height: H, near: cam.near, far: cam.far });
    assert.equal(classify(satc, pyr, f, data, 'exact').occluded, 0);
    mesh.dispose();
    pyr.dispose();
  });
}

// The wall as narrow upright rectangles (flat boxes) 1.5 texels wide (at
// 128 x 72), every 0.75 texel: one alone covers a whole texel column only
// where it happens to line up, neighbours together cover them all. Two
// wide ones cover the view's edges.
function slabBatch(satc, which = () => true) {
  const texel = (2 * WALL * Math.tan(cam.fovy / 2) * cam.aspect) / 128, c = [30, 0, -WALL, -30, 0, -WALL];
  const h = [11, 100, 0, 11, 100, 0];
  for (let k = 0, x = -19.5; x < 19.5; k++, x += 0.75 * texel) {
    if (!which(k)) continue;
    c.push(x, 0, -WALL);
    h.push(0.75 * texel, 100, 0);
  }
  return satc.batch('aabb', c.length / 3, {}, { center: new Float32Array(c), half: new Float32Array(h) });
}

for (const [name, satc] of [['simd128', simd], ['scalar', scalar]]) {
  test(`${name}: merged occluders fill the texels narrow slabs cover together`, () => {
    const f = satc.frustumPerspective(cam);
    const plain = satc.depthPyramid(128, 72), merged = satc.depthPyramid(128, 72, { merge: true });
    assert.equal(plain.merge, false);
    assert.equal(merged.merge, true);
    const slabs = slabBatch(satc);
    plain.begin(f).rasterize(slabs).build();
    merged.begin(f).rasterize(slabs).build();
    const p0 = plain.level(0).depth, m0 = merged.level(0).depth;
    assert.ok(p0.some((d) => d === Infinity), 'one slab at a time leaves texels open');
    assert.ok(m0.every((d) => d >= WALL && d < WALL * 1.01), 'merged, every texel holds the wall, at or beyond its depth');
    assert.ok(m0.every((d, i) => d <= p0[i]), 'merging only adds to what the slabs hide alone');
    const data = boxes(13, 4000);
    for (const mode of ['conservative', 'exact']) checkAgainstWall(classify(satc, merged, f, data, mode), data, `${name} merged ${mode}`);
    // begin() and fill() start the layers afresh: the odd slabs drawn before
    // them add nothing to the even ones drawn after
    const odd = slabBatch(satc, (k) => k % 2 === 1), even = slabBatch(satc, (k) => k % 2 === 0);
    const alone = satc.depthPyramid(128, 72, { merge: true });
    alone.begin(f).rasterize(even).build();
    merged.begin(f).rasterize(odd).begin(f).rasterize(even).build();
    assert.deepEqual(merged.level(0).depth, alone.level(0).depth);
    const W = 160, H = 90, far = new Float32Array(W * H).fill(windowDepth(500));
    alone.begin(f).fill(far, { width: W, height: H, near: cam.near, far: cam.far }).rasterize(even).build();
    merged.begin(f).rasterize(odd).fill(far, { width: W, height: H, near: cam.near, far: cam.far }).rasterize(even).build();
    assert.deepEqual(merged.level(0).depth, alone.level(0).depth);
    for (const o of [plain, merged, alone, slabs, odd, even]) o.dispose();
  });
}

test('both modules give the same bits with occlusion', () => {
  const out = [];
  for (const satc of [simd, scalar]) {
    const f = satc.frustumPerspective({ ...cam, dir: [0.3, 0, -Math.sqrt(1 - 0.09)] });
    const pyr = satc.depthPyramid(200, 100), mpyr = satc.depthPyramid(200, 100, { merge: true });
    const r = rng(5), n = 300, c = new Float32Array(3 * n), h = new Float32Array(3 * n);
    for (let i = 0; i < n; i++) {
      c.set([(r() - 0.5) * 60, (r() - 0.5) * 20, -5 - r() * 60], 3 * i);
      h.set([0.5 + r() * 4, 0.5 + r() * 6, 0.5 + r() * 4], 3 * i);
    }
    const occ = satc.batch('aabb', n, {}, { center: c, half: h });
    pyr.begin(f).rasterize(occ, { minTexels: 2 }).build();
    const data = boxes(9, 3000);
    out.push(classify(satc, pyr, f, data, 'exact').classes, classify(satc, pyr, f, data, 'conservative').classes, pyr.level(0).depth);
    mpyr.begin(f).rasterize(occ, { minTexels: 2 }).build();
    out.push(classify(satc, mpyr, f, data, 'exact').classes, mpyr.level(0).depth);
    pyr.dispose();
    mpyr.dispose();
    occ.dispose();
  }
  assert.ok(out[0].some((c) => c === OCCLUDED));
  for (let k = 0; k < 5; k++) assert.deepEqual(out[5 + k], out[k]);
  assert.notDeepEqual(out[4], out[2], 'merging changes level 0');
});

test('bad input: a SatcError, nothing written', () => {
  const satc = simd;
  const f = satc.frustumPerspective(cam);
  const g = satc.frustumPerspective({ ...cam, fovy: 1 });
  throwsStatus(satc, () => satc.depthPyramid(16, 16), 'SATC_ERR_RANGE');
  throwsStatus(satc, () => satc.depthPyramid(4096, 64), 'SATC_ERR_RANGE');
  throwsStatus(satc, () => satc.depthPyramid(100.5, 64), 'SATC_ERR_RANGE');
  const pyr = satc.depthPyramid(64, 32);
  const b = satc.batch('aabb', 4, {}, { center: new Float32Array(12).fill(-5), half: new Float32Array(12).fill(1) });
  throwsStatus(satc, () => satc.cull(f, b, { occlusion: pyr }), 'SATC_ERR_PYRAMID'); // not begun
  throwsStatus(satc, () => pyr.begin(satc.frustumFromPlanes([[0, 0, -1, 10]])), 'SATC_ERR_FLAGS');
  pyr.begin(f);
  throwsStatus(satc, () => satc.cull(f, b, { occlusion: pyr }), 'SATC_ERR_PYRAMID'); // not built
  pyr.build();
  throwsStatus(satc, () => satc.cull(g, b, { occlusion: pyr }), 'SATC_ERR_PYRAMID'); // another view
  throwsStatus(satc, () => satc.cull(f, b, { occlusion: {} }), 'SATC_ERR_PYRAMID');
  throwsStatus(satc, () => satc.cull(f, b, { occlusion: scalar.depthPyramid(64, 32) }), 'SATC_ERR_PYRAMID');
  const out = satc.output(4);
  satc.cull(f, b, { into: out, occlusion: pyr });
  const before = Array.from(out.indices);
  throwsStatus(satc, () => satc.cull(f, b, { into: out, occlusion: pyr, mode: 'fast' }), 'SATC_ERR_FLAGS');
  assert.deepEqual(Array.from(out.indices), before);
  throwsStatus(satc, () => pyr.fill(new Float32Array(10), { width: 4, height: 4, near: 0.1, far: 10 }), 'SATC_ERR_LAYOUT');
  throwsStatus(satc, () => pyr.fill(new Float32Array(16).fill(NaN), { width: 4, height: 4, near: 0.1, far: 10 }), 'SATC_ERR_NONFINITE');
  throwsStatus(satc, () => pyr.fill(new Float32Array(16), { width: 4, height: 4, near: 0.1, far: 10, format: 'unorm16' }), 'SATC_ERR_LAYOUT');
  throwsStatus(satc, () => pyr.fill(new Float32Array(16), { width: 4, height: 4, format: 'nope' }), 'SATC_ERR_FLAGS');
  throwsStatus(satc, () => pyr.rasterize(b, { minTexels: -1 }), 'SATC_ERR_BOUNDS');
  throwsStatus(satc, () => pyr.rasterize(b, { count: 9 }), 'SATC_ERR_RANGE');
  throwsStatus(satc, () => satc.occluderMesh(new Float32Array(9), new Uint32Array([0, 1, 3])), 'SATC_ERR_RANGE');
  throwsStatus(satc, () => satc.occluderMesh('abc'), 'SATC_ERR_LAYOUT');
  throwsStatus(satc, () => pyr.rasterize(b, 5), 'SATC_ERR_FLAGS');
  // a failed fill leaves the pyramid as it was
  const lv = pyr.level(0).depth;
  assert.deepEqual(pyr.level(0).depth, lv);
  pyr.dispose();
  throwsStatus(satc, () => pyr.begin(f), 'SATC_ERR_PYRAMID');
  b.dispose();
});

// A WebGPU float depth image near the far plane of a float projection
// matrix: the matrix's own entries (projection) and near/far both keep a
// texel at least the wall's depth; a box 0.3 in front stays visible.
test('fill from a float projection matrix near its far plane', () => {
  const n = Math.fround(0.1), f = 2000, t = Math.tan(0.5), a = 16 / 9;
  const P = [1 / (t * a), 0, 0, 0, 0, 1 / t, 0, 0, 0, 0, f / (n - f), -1, 0, 0, (n * f) / (n - f), 0];
  const wall = Math.fround(1996.1969);
  const z = (Math.fround(P[10]) * -wall + Math.fround(P[14])) / wall; // z/w from the float entries
  const stored = Math.fround(z);
  assert.equal(stored, 1 - 3 * 2 ** -24); // 0x1.fffffap-1
  for (const satc of [simd, scalar]) {
    const fr = satc.frustumFromMatrix(P, { depth: 'webgpu' });
    const pyr = satc.depthPyramid(64, 32);
    const img = new Float32Array(16 * 8).fill(stored);
    const box = satc.batch('aabb', 1, {}, { center: new Float32Array([0, 0, -(wall - 1.3)]), half: new Float32Array([1, 1, 1]) });
    for (const opts of [{ near: n, far: f }, { projection: P }]) {
      pyr.begin(fr).fill(img, { width: 16, height: 8, depth: 'webgpu', ...opts });
      assert.ok(pyr.level(0).depth.every((d) => d >= wall), JSON.stringify(Object.keys(opts)));
      const r = satc.cull(fr, box, { mode: 'exact', occlusion: pyr, output: ['classes'] });
      assert.notEqual(r.classes[0], OCCLUDED);
    }
    throwsStatus(satc, () => pyr.fill(img, { width: 16, height: 8, depth: 'webgpu', projection: P.slice(0, 15) }), 'SATC_ERR_LAYOUT');
    box.dispose();
    pyr.dispose();
  }
});
