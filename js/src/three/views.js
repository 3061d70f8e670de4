// Cameras as satc frusta, and the one cull every helper runs: a volume is
// drawn when any view sees it (a camera's sub-cameras, shadow cameras).

import { WebGPUCoordinateSystem } from 'three';
import { clipCorners, clipPlanes } from '../clip.js';

const _vp = new Float64Array(16);
const _tmp = new Float64Array(16);

function mul4(out, a, b) {
  for (let c = 0; c < 4; c++) {
    const b0 = b[4 * c], b1 = b[4 * c + 1], b2 = b[4 * c + 2], b3 = b[4 * c + 3];
    for (let r = 0; r < 4; r++) out[4 * c + r] = a[r] * b0 + a[4 + r] * b1 + a[8 + r] * b2 + a[12 + r] * b3;
  }
  return out;
}

// A rotation, uniform scale and translation (either handedness): the
// frustum stays a right frustum in that frame.
function similarity(e) {
  const c = [0, 4, 8].map((k) => [e[k], e[k + 1], e[k + 2]]);
  const d = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const s = d(c[0], c[0]), tol = 1e-9 * s;
  return e[3] === 0 && e[7] === 0 && e[11] === 0 && e[15] === 1 &&
    Math.abs(d(c[1], c[1]) - s) <= tol && Math.abs(d(c[2], c[2]) - s) <= tol &&
    Math.abs(d(c[0], c[1])) <= tol && Math.abs(d(c[0], c[2])) <= tol && Math.abs(d(c[1], c[2])) <= tol;
}

// The frustum in a sheared frame (a non-uniform or skewed `model`): its six
// planes there, as a plane volume. Rounding them to float moves a plane by
// at most 2^-24 (|X|_1 + |w|) over the volume: the margin covers 16 times that.
function planesFrustum(satc, m, zeroToOne, target) {
  const planes = clipPlanes(m, zeroToOne).map((p) => {
    const l = Math.hypot(p[0], p[1], p[2]);
    return p.map((x) => x / l);
  });
  const corners = clipCorners(planes);
  if (!corners || !planes.flat().every(Number.isFinite)) satc._heap.fail(-7, 'frustumFromCamera: the frustum in the model\'s frame is degenerate');
  const reach = Math.max(...corners.map((x) => Math.abs(x[0]) + Math.abs(x[1]) + Math.abs(x[2])), ...planes.map((p) => Math.abs(p[3])));
  return satc.frustumFromPlanes(planes, 2 ** -20 * 2 * reach, target);
}

function isIdentity(e) {
  for (let i = 0; i < 16; i++) if (e[i] !== (i % 5 === 0 ? 1 : 0)) return false;
  return true;
}

/** Fails with SATC_ERR_NULL unless `camera` is a three.js camera. */
export function checkCamera(satc, camera, what) {
  if (!camera || camera.isCamera !== true || !camera.projectionMatrix) {
    satc._heap.fail(-1, `${what}: not a three.js camera (${camera === null ? 'null' : typeof camera})`);
  }
}

/**
 * The frustum three culls with for `camera` (projectionMatrix x
 * matrixWorldInverse, in `model`'s frame when given), built in double:
 * see clip.js. Clip depth is [0, 1] for WebGPU and for any reversed-depth
 * projection (three builds those [0, 1] whatever the coordinate system).
 */
export function frustumFromCamera(satc, camera, target, model) {
  checkCamera(satc, camera, 'frustumFromCamera');
  camera.updateWorldMatrix(true, false);
  mul4(_vp, camera.projectionMatrix.elements, camera.matrixWorldInverse.elements);
  if (model && !isIdentity(model.elements)) {
    _tmp.set(_vp);
    mul4(_vp, _tmp, model.elements);
  }
  // three builds reversed-depth projections [0, 1] whatever the coordinate system
  const zeroToOne = camera.reversedDepth === true || camera.coordinateSystem === WebGPUCoordinateSystem;
  if (behind(_vp, zeroToOne)) {
    satc._heap.fail(-3, 'frustumFromCamera: the clip volume reaches behind the camera (a projection made for other ' +
      'coordinateSystem / reversedDepth settings than the camera has?)');
  }
  if (model && !similarity(model.elements)) return planesFrustum(satc, _vp, zeroToOne, target);
  // reversed: an orthographic view looks toward lower clip depth (occlusion needs its front)
  return satc.frustumFromMatrix(_vp, { depth: zeroToOne ? 'webgpu' : 'webgl', reversed: camera.reversedDepth === true, double: true }, target);
}

// A perspective clip volume with a corner at or behind the camera (w <= 0).
function behind(vp, zeroToOne) {
  if (vp[3] === 0 && vp[7] === 0 && vp[11] === 0) return false;
  const corners = clipCorners(clipPlanes(vp, zeroToOne));
  return !corners || corners.some((x) => !(vp[3] * x[0] + vp[7] * x[1] + vp[11] * x[2] + vp[15] > 0));
}

/**
 * The cameras three renders `camera` with: an ArrayCamera's sub-cameras,
 * a CubeCamera's six, a StereoCamera's two eyes, else the camera itself.
 */
export function viewsOf(satc, camera, what) {
  if (camera && camera.isArrayCamera === true && camera.cameras.length > 0) return camera.cameras;
  if (camera && camera.type === 'CubeCamera') return camera.children.filter((c) => c.isCamera);
  if (camera && camera.type === 'StereoCamera') return [camera.cameraL, camera.cameraR];
  checkCamera(satc, camera, what);
  return [camera];
}

/** Every view of `camera` and of opts.shadowCameras, as cameras. */
export function allViews(satc, camera, opts, what) {
  const views = [...viewsOf(satc, camera, what)];
  const shadows = opts?.shadowCameras;
  if (shadows != null) {
    if (typeof shadows[Symbol.iterator] !== 'function') satc._heap.fail(-1, `${what}: shadowCameras is not a list of cameras`);
    for (const c of shadows) views.push(...viewsOf(satc, c, `${what} (shadowCameras)`));
  }
  if (views.length > 64) satc._heap.fail(-9, `${what}: ${views.length} views (at most 64)`);
  return views;
}

/**
 * Culls batch volumes [0, count) against every view (frusta in `model`'s
 * frame; `frusta` is a cache of Frustum objects). Returns the per-view
 * counts and either `indices` (increasing, of the volumes some view sees;
 * when `indices` is asked for) or `flags` (per volume, nonzero: seen).
 * Both are views that the next allocation may detach: use them at once.
 */
export function cullAny(satc, views, batch, count, mode, output, frusta, model, indices = false) {
  for (let v = 0; v < views.length; v++) {
    try {
      frusta[v] = frustumFromCamera(satc, views[v], frusta[v], model);
    } catch (e) {
      // a view three culls with a volume reaching behind the camera: it sees everything
      if (e.statusName !== 'SATC_ERR_NEAR') throw e;
      const all = new Uint8Array(count).fill(1);
      return indices ? { indices: Uint32Array.from(all.keys()), visible: views.map(() => count) } : { flags: all, visible: views.map(() => count) };
    }
  }
  if (views.length === 1) {
    satc.cull(frusta[0], batch, { mode, first: 0, count, into: output, output: indices ? 'indices' : 'classes' });
    return indices ? { indices: output.indices, visible: [output.visible] } : { flags: output.classes, visible: [output.visible] };
  }
  const r = satc.cullViews(frusta.slice(0, views.length), batch, { mode, first: 0, count, masks: true });
  if (!indices) return { flags: r.masks, visible: r.visible };
  const masks = r.masks, idx = new Uint32Array(count);
  let k = 0;
  for (let i = 0; i < count; i++) if (masks[i]) idx[k++] = i;
  return { indices: idx.subarray(0, k), visible: r.visible };
}
