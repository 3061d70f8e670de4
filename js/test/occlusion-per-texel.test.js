// The depth-per-texel occlusion test from JavaScript (depthPyramid(w, h,
// { depthPerTexel, testBudget })): it hides at least what the plain test
// hides, more on boxes seen obliquely, the same bits in both modules, and it
// holds through begin(), which sets the pyramid up afresh.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load, SatcError, Status, OCCLUDED } from '../src/index.js';
import { rng } from './helpers.js';

const simd = await load();
const scalar = await load({ simd: false });
const cam = { eye: [0, 0, 0], dir: [0, 0, -1], up: [0, 1, 0], fovy: 1.2, aspect: 2, near: 0.5, far: 500 };
const W = 128, H = 64;

function throwsStatus(fn, name, word) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof SatcError, `not a SatcError: ${e}`);
    assert.equal(e.statusName, name, e.message);
    assert.equal(e.status, Status[name.slice(5)]);
    assert.ok(e.message.includes(word), e.message);
    return true;
  });
}

// A linear depth image of the view: `inner` where |x/z| < edge at a
// column's center, `outer` elsewhere, the same down every column.
function twoDepths(edge, inner, outer) {
  const img = new Float32Array(W * H), t = Math.tan(cam.fovy / 2) * cam.aspect;
  for (let i = 0; i < W; i++) {
    const u = ((i + 0.5) / W * 2 - 1) * t;
    for (let j = 0; j < H; j++) img[j * W + i] = Math.abs(u) < edge ? inner : outer;
  }
  return img;
}

function fill(pyr, f, img) {
  return pyr.begin(f).fill(img, { width: W, height: H, format: 'linear' });
}

function classes(satc, pyr, f, center, half) {
  const b = satc.batch('aabb', center.length / 3, {}, { center, half });
  const r = satc.cull(f, b, { mode: 'exact', occlusion: pyr, output: ['classes'] });
  b.dispose();
  return r.classes;
}

// Two long boxes (x in +-[8, 9], z in [-79, -23]) behind an image of depth
// 20 off the axis and 28 near it: their nearest depth 23 is beyond 20 only,
// but along every ray near the axis they lie beyond 8 / 0.151 > 28. The
// third box is in front of the image.
const oblique = {
  center: new Float32Array([8.5, 0, -51, -8.5, 0, -51, 8.5, 0, -15.5]),
  half: new Float32Array([0.5, 0.75, 28, 0.5, 0.75, 28, 0.5, 0.75, 3]),
};

for (const [name, satc] of [['simd128', simd], ['scalar', scalar]]) {
  test(`${name}: depth per texel hides a box seen obliquely, through every begin`, () => {
    const f = satc.frustumPerspective(cam), img = twoDepths(0.14, 28, 20);
    const plain = satc.depthPyramid(W, H), per = satc.depthPyramid(W, H, { depthPerTexel: true });
    assert.equal(plain.depthPerTexel, false);
    assert.equal(plain.testBudget, null);
    assert.equal(per.depthPerTexel, true);
    assert.equal(per.testBudget, 4096);
    const hidden = (pyr) => Array.from(classes(satc, pyr, f, oblique.center, oblique.half), (c) => c === OCCLUDED);
    assert.deepEqual(hidden(fill(plain, f, img)), [false, false, false]);
    assert.deepEqual(hidden(fill(per, f, img)), [true, true, false]);
    // begun again (and for another view in between), the option still holds
    per.begin(satc.frustumPerspective({ ...cam, fovy: 1 })).build();
    assert.deepEqual(hidden(per.begin(f).build()), [false, false, false]);
    assert.deepEqual(hidden(fill(per, f, img)), [true, true, false]);
    assert.deepEqual(hidden(fill(per, f, img)), [true, true, false]);
    // a budget of 0: the plain test
    const none = satc.depthPyramid(W, H, { depthPerTexel: true, testBudget: 0 });
    assert.equal(none.testBudget, 0);
    assert.deepEqual(hidden(fill(none, f, img)), [false, false, false]);
    for (const p of [plain, per, none]) p.dispose();
  });
}

// Random boxes along the view, many seen obliquely, behind random two-depth
// images and behind rasterized walls.
function scene(seed, n) {
  const r = rng(seed), center = new Float32Array(3 * n), half = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) {
    const x0 = 0.5 + r() * 9.5, w = 0.2 + r() * 2.8, zn = 10 + r() * 30, len = 5 + r() * 195;
    center.set([(x0 + w / 2) * (r() < 0.5 ? -1 : 1), (r() - 0.5) * 4, -(zn + len / 2)], 3 * i);
    half.set([w / 2, 0.2 + r() * 2.8, len / 2], 3 * i);
  }
  return { center, half, r };
}

test('depth per texel: a superset of the plain test, more hidden, each one a bound, both modules alike', () => {
  let more = 0;
  for (const [seed, budget] of [[1, undefined], [2, 0], [3, 3], [4, 1e6]]) {
    const { center, half, r } = scene(seed, 2000);
    const img = twoDepths(0.1 + 0.2 * r(), 22 + 8 * r(), 8 + 12 * r());
    const walls = {
      center: new Float32Array([-6, 0, -30 - 10 * r(), 6, 1, -25 - 10 * r()]),
      half: new Float32Array([5, 3, 0.5, 4, 2, 0.5]),
    };
    const out = [];
    for (const satc of [simd, scalar]) {
      const f = satc.frustumPerspective(cam), wb = satc.batch('aabb', 2, {}, walls);
      const plain = satc.depthPyramid(W, H), per = satc.depthPyramid(W, H, { depthPerTexel: true, testBudget: budget });
      for (const draw of [(p) => fill(p, f, img), (p) => p.begin(f).rasterize(wb).build()]) {
        const a = classes(satc, draw(plain), f, center, half), b = classes(satc, draw(per), f, center, half);
        let extra = 0;
        for (let i = 0; i < a.length; i++) {
          if (a[i] === OCCLUDED) assert.equal(b[i], OCCLUDED, `box ${i} hidden by the plain test only`);
          else if (b[i] === OCCLUDED) extra++;
          else assert.equal(b[i], a[i], `box ${i}: class`);
        }
        assert.ok(extra <= (budget ?? 4096), `${extra} more hidden on a budget of ${budget}`);
        if (budget === 0) assert.equal(extra, 0);
        if (budget === undefined || budget > 4096) more += extra;
        out.push(b);
      }
      for (const o of [plain, per, wb]) o.dispose();
    }
    assert.deepEqual(out[2], out[0]);
    assert.deepEqual(out[3], out[1]);
  }
  assert.ok(more > 0, 'boxes seen obliquely: more hidden');
});

test('depth per texel: bad options are a SatcError naming them', () => {
  const satc = simd;
  throwsStatus(() => satc.depthPyramid(W, H, { depthPerTexel: 1 }), 'SATC_ERR_FLAGS', 'depthPerTexel');
  throwsStatus(() => satc.depthPyramid(W, H, { testBudget: 10 }), 'SATC_ERR_FLAGS', 'testBudget');
  for (const b of [-1, 1.5, 2 ** 32, '5', NaN, Infinity]) {
    throwsStatus(() => satc.depthPyramid(W, H, { depthPerTexel: true, testBudget: b }), 'SATC_ERR_RANGE', 'testBudget');
  }
  // 0 .. 2^32 - 1 reach the pyramid as given
  const p = satc.depthPyramid(W, H, { depthPerTexel: true, testBudget: 2 ** 32 - 1 });
  assert.equal(p.testBudget, 2 ** 32 - 1);
  p.begin(satc.frustumPerspective(cam)).build();
  p.dispose();
});
