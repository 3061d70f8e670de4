// What the occlusion helpers share: the depth pyramid sized for a camera,
// the satc occluder meshes of three.js Meshes (cached per geometry, only
// the triangles three draws opaque, one mesh per material side) and
// their drawing, and the budget's selection.

import { Matrix4 } from 'three';
import { drawnFor, keptByThree, opaqueSpans, sideFlags, threeFrusta } from './drawn.js';

const _inv = new Matrix4();
const _m = new Matrix4();
// per geometry, the triangle sets of its last few material set-ups
const MAX_SELECTIONS = 4;
const NO_TEST = { depthPerTexel: false, testBudget: null };

/**
 * The helpers' occlusion defaults, measured on the demo's city (100 k
 * buildings, the frustum keeping about 26 k; js/README.md): a 400-texel
 * wide pyramid with the 512 largest boxes, those seen in the previous
 * update first, keeps InstanceCuller's update near 4 ms of CPU there.
 */
export const DEFAULTS = Object.freeze({ size: 400, maxOccluders: 512, visibleFirst: true });
const TEST_BUDGET_DEFAULT = 4096; // depthPyramid's own

// The k-th largest (k >= 1) of a[0 .. n), reordering a (Hoare's selection).
export function kthLargest(a, n, k) {
  let lo = 0, hi = n - 1;
  const want = k - 1;
  while (lo < hi) {
    const x = a[(lo + hi) >> 1];
    let i = lo, j = hi;
    while (i <= j) {
      while (a[i] > x) i++;
      while (a[j] < x) j--;
      if (i <= j) {
        const t = a[i];
        a[i++] = a[j];
        a[j--] = t;
      }
    }
    if (want <= j) hi = j;
    else if (want >= i) lo = i;
    else return a[want];
  }
  return a[want];
}

/**
 * Marks indices[0..visible) seen in `seen` (a Uint32Array of at least the
 * largest index + 1) under a new tag, which it returns: seen[i] == tag
 * then means "visible in this update".
 */
export function markSeen(seen, tag, indices, visible) {
  if (++tag === 0x100000000) {
    seen.fill(0);
    tag = 1;
  }
  for (let q = 0; q < visible; q++) seen[indices[q]] = tag;
  return tag;
}

/**
 * The `take` best of the entries k < n with valid(k), passed to
 * emit(k, slot) in increasing k (slot 0, 1, ...): entries with first(k)
 * rank above the rest, and within a rank the larger score[k] wins, the
 * earlier k on a tie. work: room for n floats. Returns how many.
 */
export function chooseBest(score, n, take, valid, first, work, emit) {
  let nvalid = 0, nfirst = 0;
  for (let k = 0; k < n; k++) {
    if (valid(k)) {
      nvalid++;
      if (first(k)) nfirst++;
    }
  }
  take = Math.min(take, nvalid);
  if (take <= 0) return 0;
  // the rank that fills the last places, and how many places it gets
  const tier = nfirst >= take, want = tier ? take : take - nfirst;
  let m = 0;
  for (let k = 0; k < n; k++) if (valid(k) && first(k) === tier) work[m++] = score[k];
  const thr = want === 0 ? Infinity : want < m ? kthLargest(work, m, want) : -Infinity;
  let above = 0;
  for (let k = 0; k < n; k++) if (valid(k) && first(k) === tier && score[k] > thr) above++;
  let ties = want - above, out = 0;
  for (let k = 0; k < n; k++) {
    if (!valid(k)) continue;
    const f = first(k), t = score[k];
    if ((f && !tier) || (f === tier && (t > thr || (t === thr && ties-- > 0)))) emit(k, out++);
  }
  return out;
}

/**
 * The pyramid for `camera`: `size` is [width, height], height 0 following
 * the view's own aspect (view offsets included: the projection's x and y
 * scales); width clamped to 64..2048, height to 32..1024; merge: occluders
 * merge within texels; test: { depthPerTexel, testBudget } as testOf
 * gives them. `pyr` is reused when its size and kind match, else disposed
 * and replaced.
 */
export function pyramidFor(satc, pyr, size, camera, merge = false, test = NO_TEST) {
  let [w, h] = size;
  if (h === 0) {
    const e = camera.projectionMatrix.elements, aspect = Math.abs(e[5] / e[0]);
    h = Math.round(w / (Number.isFinite(aspect) && aspect > 0 ? aspect : 1));
  }
  w = Math.min(2048, Math.max(64, w));
  h = Math.min(1024, Math.max(32, h));
  if (pyr && pyr.width === w && pyr.height === h && pyr.merge === merge && pyr.depthPerTexel === test.depthPerTexel &&
    pyr.testBudget === test.testBudget) return pyr;
  pyr?.dispose();
  const o = { merge };
  if (test.depthPerTexel) Object.assign(o, test);
  return satc.depthPyramid(w, h, o);
}

/** The occlusion option merge: a boolean, default false. */
export function mergeOf(satc, opts, what) {
  const m = opts.merge ?? false;
  if (typeof m !== 'boolean') satc._heap.fail(-13, `${what}: occlusion.merge must be a boolean`);
  return m;
}

/**
 * The occlusion options depthPerTexel (a boolean, default false) and
 * testBudget (an integer in 0 .. 2^32 - 1, only with depthPerTexel;
 * default the pyramid's, 4096): { depthPerTexel, testBudget }, the budget
 * null without the test, as DepthPyramid reports them.
 */
export function testOf(satc, opts, what) {
  const on = opts.depthPerTexel ?? false, b = opts.testBudget;
  if (typeof on !== 'boolean') satc._heap.fail(-13, `${what}: occlusion.depthPerTexel must be a boolean`);
  if (b !== undefined && !on) satc._heap.fail(-13, `${what}: occlusion.testBudget only with depthPerTexel: true`);
  if (b !== undefined && !(Number.isInteger(b) && b >= 0 && b <= 0xffffffff)) {
    satc._heap.fail(-9, `${what}: occlusion.testBudget must be an integer in 0 .. 4294967295`);
  }
  return on ? { depthPerTexel: true, testBudget: b ?? TEST_BUDGET_DEFAULT } : NO_TEST;
}

/** The occlusion option trustShaders: a boolean, default false. */
export function trustShadersOf(satc, opts, what) {
  const t = opts.trustShaders ?? false;
  if (typeof t !== 'boolean') satc._heap.fail(-13, `${what}: occlusion.trustShaders must be a boolean`);
  return t;
}

function disposeEntry(e) {
  for (const list of e.sel.values()) for (const x of list) x.mesh.dispose();
  e.sel.clear();
}

// The satc mesh of the triangles of `spans` (index ranges) of geometry g.
function satcMesh(satc, e, g, spans) {
  const pos = g.attributes.position, idx = g.index;
  const n = spans.reduce((a, [s, t]) => a + t - s, 0);
  const whole = spans.length === 1 && spans[0][0] === 0 && (idx ? n === idx.array.length : n === pos.count);
  let ind = null;
  if (whole && idx) {
    ind = idx.array instanceof Uint16Array || idx.array instanceof Uint32Array ? idx.array : Uint32Array.from(idx.array);
  } else if (!whole) {
    ind = new Uint32Array(n);
    let k = 0;
    for (const [s, t] of spans) for (let i = s; i < t; i++) ind[k++] = idx ? idx.array[i] : i;
  }
  return satc.occluderMesh(e.positions, ind);
}

/**
 * The satc occluder meshes of `mesh`: [{ side, mesh }], one per material
 * side, of the triangles three draws opaque (see opaqueSpans); empty when
 * there are none or a position is not finite. Kept in `cache` (geometry ->
 * entry) until the geometry's positions or index change.
 */
export function occluderMeshesFor(satc, cache, mesh, trust = false) {
  const parts = opaqueSpans(mesh, trust);
  if (!parts.length) return [];
  const g = mesh.geometry, pos = g.attributes.position, idx = g.index;
  const base = `${pos.version}|${idx ? idx.version : -1}|${pos.count}|${idx ? idx.count : -1}`;
  let e = cache.get(g);
  if (e && e.base !== base) {
    disposeEntry(e);
    cache.delete(g);
    e = undefined;
  }
  if (!e) {
    const p = new Float32Array(3 * pos.count);
    for (let i = 0; i < pos.count; i++) {
      p[3 * i] = pos.getX(i);
      p[3 * i + 1] = pos.getY(i);
      p[3 * i + 2] = pos.getZ(i);
    }
    e = { base, positions: p, finite: p.length > 0 && p.every(Number.isFinite), sel: new Map() };
    cache.set(g, e);
  }
  const key = parts.map(({ side, spans }) => `${side}:${spans.join(';')}`).join('|');
  let out = e.sel.get(key);
  if (out) return out;
  out = e.finite ? parts.map(({ side, spans }) => ({ side, mesh: satcMesh(satc, e, g, spans) })) : [];
  if (e.sel.size >= MAX_SELECTIONS) {
    const [k0, old] = e.sel.entries().next().value;
    for (const x of old) x.mesh.dispose();
    e.sel.delete(k0);
  }
  e.sel.set(key, out);
  return out;
}

/**
 * Draws into `pyr` the occluder meshes of `occ` (its meshes, geometry
 * cache, trustShaders and minTexels) that three draws for `camera`, each
 * only from the side three draws; `model` (or null: world) is the
 * pyramid's frame, `shown(x)` an object's visibility as the user set it.
 * Returns how many meshes were drawn.
 */
export function drawOccluderMeshes(occ, pyr, camera, model, shown) {
  if (!occ.meshes.length) return 0;
  const frusta = threeFrusta(camera);
  if (model) _inv.copy(model).invert();
  let n = 0;
  for (const mesh of occ.meshes) {
    mesh.updateWorldMatrix(true, false);
    // a mesh three does not draw for this camera (hidden itself or by an
    // ancestor, another layer, outside three's frustum) hides nothing
    if (!drawnFor(mesh, camera, shown) || !keptByThree(mesh, frusta)) continue;
    const parts = occluderMeshesFor(occ.satc, occ._geo, mesh, occ.trustShaders);
    if (!parts.length) continue;
    const m = (model ? _m.multiplyMatrices(_inv, mesh.matrixWorld) : mesh.matrixWorld).elements;
    for (const { side, mesh: om } of parts) pyr.rasterizeMesh(om, { matrix: m, minTexels: occ.minTexels, ...sideFlags(side, m, camera) });
    n++;
  }
  return n;
}
/** Disposes every occluder mesh of `cache` and empties it. */
export function disposeOccluderMeshes(cache) {
  for (const e of cache.values()) disposeEntry(e);
  cache.clear();
}
