// Cameras aimed like three's Object3D.lookAt: frustumLookAt and
// frustumLookAtOrtho take any up not parallel to the view, build the same
// pose three does, keep what is in view and cull what is not; degenerate
// input is a SatcError that names the cause.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as THREE from 'three';
import { load, SatcError, Frustum } from '../src/index.js';
import { rng } from './helpers.js';

const satc = await load();

function throwsStatus(fn, name) {
  assert.throws(fn, (e) => e instanceof SatcError && e.statusName === name && e.message.includes(satc.statusString(e.status)));
}

// Points in a three camera's view space (x right, y up, looking down -z),
// as tiny boxes in world space; returns the visible flags.
function keptPoints(f, cam, pts) {
  cam.updateMatrixWorld();
  const center = new Float32Array(pts.length * 3), half = new Float32Array(pts.length * 3);
  pts.forEach((p, i) => {
    const w = new THREE.Vector3(...p).applyMatrix4(cam.matrixWorld);
    center.set([w.x, w.y, w.z], 3 * i);
  });
  const r = satc.cull(f, { form: 'aabb', center, half }, { mode: 'exact', output: 'classes' });
  return Array.from(r.classes, (c) => c !== 0);
}

// The frame three's lookAt gives: satc's left is three's -x, dir is -z.
function threeFrame(cam) {
  cam.updateMatrixWorld();
  const e = cam.matrixWorld.elements;
  return [[-e[0], -e[1], -e[2]], [e[4], e[5], e[6]], [-e[8], -e[9], -e[10]]];
}

function near(a, b, tol, what) {
  for (let i = 0; i < a.length; i++) for (let k = 0; k < 3; k++) assert.ok(Math.abs(a[i][k] - b[i][k]) <= tol, `${what}: ${a[i]} vs ${b[i]}`);
}

test('a tilted camera with up (0, 1, 0): frustumPerspective refuses it, frustumLookAt takes it', () => {
  const eye = [0, 10, 20], target = [0, 0, 0], l = Math.hypot(10, 20);
  throwsStatus(() => satc.frustumPerspective({ eye, dir: [0, -10 / l, -20 / l], up: [0, 1, 0], fovy: 1, aspect: 1.5, near: 0.1, far: 100 }), 'SATC_ERR_FRAME');
  const f = satc.frustumLookAt({ eye, target, fovy: 1, aspect: 1.5, near: 0.1, far: 100 });
  assert.equal(f.kind, 'perspective');
  assert.ok(f.frame[1][1] > 0.89 && f.frame[1][2] < -0.44, `up made orthogonal: ${f.frame[1]}`);
});

test('frustumLookAt poses a camera as three\'s PerspectiveCamera.lookAt: in view kept, out of view culled', () => {
  const r = rng(46);
  for (let i = 0; i < 200; i++) {
    // float32 positions: their difference is the direction the module sees
    const eye = [r() * 200 - 100, r() * 50, r() * 200 - 100].map(Math.fround);
    const target = [eye[0] + r() * 80 - 40, eye[1] + r() * 40 - 30, eye[2] + r() * 80 - 40].map(Math.fround);
    const up = i % 4 === 0 ? [r() - 0.5, r() - 0.5, r() - 0.5] : [0, 1, 0];
    const fov = 30 + r() * 80, aspect = 0.5 + r() * 2, n = 0.1 + r(), far = n * (10 + r() * 500);
    const cam = new THREE.PerspectiveCamera(fov, aspect, n, far);
    cam.position.set(...eye);
    cam.up.set(...up);
    cam.lookAt(...target);
    const f = satc.frustumLookAt({ eye, target, up, fovy: (fov * Math.PI) / 180, aspect, near: n, far });
    near(f.frame, threeFrame(cam), 1e-6, `case ${i} frame`);
    const ty = Math.tan((fov * Math.PI) / 360), tx = ty * aspect, z = n + (far - n) * r();
    const a = 2 * r() - 1, b = 2 * r() - 1;
    const kept = keptPoints(f, cam, [
      [0.98 * a * tx * z, 0.98 * b * ty * z, -z],
      [1.05 * tx * z, b * ty * z, -z],
      [a * tx * z, -1.05 * ty * z, -z],
      [0, 0, -(far * 1.05)],
    ]);
    assert.deepEqual(kept, [true, false, false, false], `case ${i}`);
    // Along a direction: the same frustum up to the direction's rounding.
    const g = satc.frustumLookAt({ eye, dir: target.map((t, k) => t - eye[k]), up, fovy: (fov * Math.PI) / 180, aspect, near: n, far });
    near(g.frame, f.frame, 2 ** -21, `case ${i} dir`);
  }
});

test('frustumLookAtOrtho poses a camera as three\'s OrthographicCamera.lookAt', () => {
  const r = rng(47);
  for (let i = 0; i < 100; i++) {
    const eye = [r() * 200 - 100, 10 + r() * 50, r() * 200 - 100].map(Math.fround), target = [r() * 20, 0, r() * 20].map(Math.fround);
    const left = -5 - r() * 20, right = 5 + r() * 20, bottom = -5 - r() * 20, top = 5 + r() * 20, n = r() * 2, far = 50 + r() * 200;
    const cam = new THREE.OrthographicCamera(left, right, top, bottom, n, far);
    cam.position.set(...eye);
    cam.lookAt(...target);
    const f = satc.frustumLookAtOrtho({ eye, target, left, right, bottom, top, near: n, far });
    assert.equal(f.kind, 'orthographic');
    near(f.frame, threeFrame(cam), 1e-6, `case ${i} frame`);
    const x = left + (right - left) * (0.02 + 0.96 * r()), y = bottom + (top - bottom) * (0.02 + 0.96 * r()), z = n + (far - n) * 0.5;
    const kept = keptPoints(f, cam, [[x, y, -z], [right + 1, y, -z], [x, bottom - 1, -z], [x, y, -(far + 1)]]);
    assert.deepEqual(kept, [true, false, false, false], `case ${i}`);
    const d = satc.frustumLookAtOrtho({ eye, dir: target.map((t, k) => t - eye[k]), left, right, bottom, top, near: n, far });
    near(d.frame, f.frame, 2 ** -21, `case ${i} dir`);
  }
});

test('batchOrigin: a camera far from the world origin, the volumes stored beside it', () => {
  const O = [1e7, -2e7, 3e7], e = [0.5, 2, -1], t = [10, 0, -30];
  const fd = satc.frustumLookAt({ eye: e.map((x, k) => x + O[k]), target: t.map((x, k) => x + O[k]), batchOrigin: O, fovy: 1, aspect: 1.5, near: 0.1 });
  const ff = satc.frustumLookAt({ eye: e, target: t, fovy: 1, aspect: 1.5, near: 0.1 });
  assert.deepEqual(fd.frame, ff.frame);
  assert.deepEqual(fd.origin, ff.origin);
  const box = { left: -1, right: 1, bottom: -1, top: 1, near: 0, far: 50 };
  const od = satc.frustumLookAtOrtho({ eye: e.map((x, k) => x + O[k]), target: t.map((x, k) => x + O[k]), batchOrigin: O, ...box });
  const of = satc.frustumLookAtOrtho({ eye: e, target: t, ...box });
  assert.deepEqual(od.frame, of.frame);
  assert.deepEqual(od.origin, of.origin);
});

test('degenerate cameras: SatcError naming the cause, the target frustum unchanged', () => {
  const base = { eye: [1, 2, 3], fovy: 1, aspect: 1, near: 0.1, far: 10 };
  const into = satc.frustumLookAt({ ...base, target: [0, 0, 0] }, new Frustum());
  const before = into.bytes.slice();
  throwsStatus(() => satc.frustumLookAt({ ...base, target: [1, 5, 3] }, into), 'SATC_ERR_UP'); // looking straight up
  throwsStatus(() => satc.frustumLookAt({ ...base, dir: [0, -2, 0] }, into), 'SATC_ERR_UP');
  throwsStatus(() => satc.frustumLookAt({ ...base, target: [0, 0, 0], up: [0, 0, 0] }, into), 'SATC_ERR_UP');
  throwsStatus(() => satc.frustumLookAt({ ...base, target: [0, 0, 0], up: [NaN, 1, 0] }, into), 'SATC_ERR_NONFINITE');
  throwsStatus(() => satc.frustumLookAt({ ...base, target: [1, 2, 3] }, into), 'SATC_ERR_DIRECTION');
  throwsStatus(() => satc.frustumLookAt({ ...base, target: [0, 0, 0], batchOrigin: [0, 0, 0], up: [0, 0, 0] }, into), 'SATC_ERR_UP');
  throwsStatus(() => satc.frustumLookAtOrtho({ eye: [0, 0, 0], target: [0, -1, 0], left: -1, right: 1, bottom: -1, top: 1, near: 0, far: 1 }, into), 'SATC_ERR_UP');
  throwsStatus(() => satc.frustumLookAtOrtho({ eye: [0, 0, 0], target: [0, 0, -1], left: -1, right: 1, bottom: -1, top: 1, near: 0 }, into), 'SATC_ERR_NONFINITE');
  throwsStatus(() => satc.frustumLookAt({ ...base }, into), 'SATC_ERR_NULL');
  throwsStatus(() => satc.frustumLookAt({ ...base, target: [0, 0, 0], dir: [0, 0, 1] }, into), 'SATC_ERR_NULL');
  throwsStatus(() => satc.frustumLookAt({ ...base, target: [0, 0] }, into), 'SATC_ERR_LAYOUT');
  assert.deepEqual(into.bytes, before);
  assert.match(satc.statusString(-15), /up .*parallel/);
  assert.match(satc.statusString(-16), /direction .*target/);
});
