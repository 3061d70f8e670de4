// Occlusion for the helpers whose volumes have a geometry each
// (BatchedCuller, SceneCuller): each single-camera update draws the
// frame's occluders into a depth pyramid of the camera's view, then culls
// by frustum and pyramid in one pass. Occluders are the helper's own
// volumes the caller marks solid (each drawn by a box inside its geometry's
// bounding box), three.js Meshes whose triangles lie on opaque surfaces,
// or both. Only what three draws opaque occludes (see drawn.js): anything
// else would hide what is seen.

import { Matrix4 } from 'three';
import { frustumFromCamera } from './views.js';
import { flatBox, masksDepthFor } from './drawn.js';
import { DEFAULTS, chooseBest, disposeOccluderMeshes, markSeen, drawOccluderMeshes, mergeOf, pyramidFor, testOf, trustShadersOf } from './occluder-mesh.js';

function grown(a, n) {
  const b = new Uint32Array(Math.max(n, 2 * a.length, 1));
  b.set(a);
  return b;
}

const _m = new Matrix4();
const KEYS = new Set(['size', 'occluders', 'occluderBox', 'meshes', 'minTexels', 'maxOccluders', 'trustShaders', 'visibleFirst', 'merge', 'depthPerTexel', 'testBudget']);

function fail(satc, status, what) {
  return satc._heap.fail(status, what);
}

function boxOf(r) {
  if (r && r.isBox3 === true) {
    const { min: a, max: b } = r;
    return [a.x, a.y, a.z, b.x, b.y, b.z];
  }
  if (r && r.center && r.half && r.center.length === 3 && r.half.length === 3) {
    const c = r.center, h = r.half;
    return [c[0] - h[0], c[1] - h[1], c[2] - h[2], c[0] + h[0], c[1] + h[1], c[2] + h[2]];
  }
  return null;
}

/**
 * The occlusion options of BatchedCuller and SceneCuller, checked once
 * (nothing is allocated until the first update with occlusion):
 *   size: pyramid width in texels (height follows the camera's aspect),
 *         or [width, height]; default 400;
 *   occluders: which of the helper's volumes are solid: true (all), a
 *         predicate (instance index for BatchedCuller, the object for
 *         SceneCuller), or (BatchedCuller) a Uint8Array of flags; default
 *         none;
 *   occluderBox: (geometry) => a Box3 or { center, half } inside that
 *         geometry's solid (the geometry index for BatchedCuller), or
 *         null: it never occludes; clipped to the geometry's bounding
 *         box; default the bounding box itself (right for geometry that
 *         fills its box);
 *   meshes: three.js Meshes whose triangles lie on opaque surfaces;
 *   minTexels: occluders covering fewer level-0 texels are skipped
 *         (default 4);
 *   maxOccluders: of the solid volumes the frustum keeps, at most this
 *         many are drawn, those largest on screen (mean projected area
 *         over squared distance); default 512, Infinity: all;
 *   visibleFirst: candidates this helper found visible in its previous
 *         update rank above the others (largest first within each
 *         rank); default true. Only which occluders are drawn changes;
 *   merge: occluders merge within texels (default false), as for
 *         InstanceCuller;
 *   depthPerTexel, testBudget: the pyramid's depth-per-texel test
 *         (default off), as for InstanceCuller.
 */
export class ObjectOcclusion {
  constructor(satc, opts, what, flagsAllowed) {
    if (opts === true) opts = { occluders: true };
    if (!opts || typeof opts !== 'object' || Array.isArray(opts)) fail(satc, -13, `${what}: occlusion must be an object or true`);
    for (const k of Object.keys(opts)) if (!KEYS.has(k)) fail(satc, -13, `${what}: unknown occlusion option '${k}'`);
    this.satc = satc;
    this.what = what;
    const size = opts.size ?? DEFAULTS.size;
    const dims = Array.isArray(size) ? size : [size, 0];
    if (dims.length !== 2 || !dims.every((v, i) => Number.isInteger(v) && (v >= 1 || (i === 1 && v === 0 && !Array.isArray(size))))) {
      fail(satc, -9, `${what}: occlusion.size must be a positive integer or [width, height]`);
    }
    this.size = dims;
    this.trustShaders = trustShadersOf(satc, opts, what);
    this.merge = mergeOf(satc, opts, what);
    this.test = testOf(satc, opts, what);
    const occ = opts.occluders ?? false;
    if (!(typeof occ === 'boolean' || typeof occ === 'function' || (flagsAllowed && occ instanceof Uint8Array))) {
      fail(satc, -13, `${what}: occlusion.occluders must be true, false, a function${flagsAllowed ? ' or a Uint8Array' : ''}`);
    }
    this.occluders = occ;
    const ob = opts.occluderBox;
    if (ob !== undefined && ob !== null && typeof ob !== 'function') fail(satc, -13, `${what}: occlusion.occluderBox must be a function of the geometry`);
    this.occluderBox = ob ?? null;
    const meshes = opts.meshes ?? [];
    if (!Array.isArray(meshes) || !meshes.every((m) => m && m.isMesh === true && m.geometry?.attributes?.position)) {
      fail(satc, -13, `${what}: occlusion.meshes must be an array of three.js Meshes`);
    }
    this.meshes = meshes.slice();
    const mt = opts.minTexels ?? 4;
    if (typeof mt !== 'number' || !(mt >= 0) || !Number.isFinite(mt)) fail(satc, -5, `${what}: occlusion.minTexels must be a finite number >= 0`);
    this.minTexels = mt;
    const mo = opts.maxOccluders ?? DEFAULTS.maxOccluders;
    if (!((Number.isInteger(mo) && mo >= 0) || mo === Infinity)) fail(satc, -9, `${what}: occlusion.maxOccluders must be an integer >= 0 or Infinity`);
    this.maxOccluders = mo;
    const vf = opts.visibleFirst ?? DEFAULTS.visibleFirst;
    if (typeof vf !== 'boolean') fail(satc, -13, `${what}: occlusion.visibleFirst must be a boolean`);
    this.visibleFirst = vf;
    this._score = this._work = new Float32Array(0);
    // per candidate its volume; per volume, seen[i] == seenTag: visible in the previous update
    this._srcOf = this._seen = new Uint32Array(0);
    this._seenTag = 0;
    this._occ = null; // occluder batch: one local box per geometry
    this._solid = new Uint8Array(0); // per geometry: has an occluder box
    this._flat = new Uint8Array(0); // per geometry: flat (an open surface)
    this._pyr = null;
    this._geo = new Map(); // geometry -> { version, mesh }
    this._frustum = undefined;
    /** Figures of the last update: frustum-kept, drawn, occluders drawn, milliseconds per stage. */
    this.stats = { frustum: 0, drawn: 0, occluders: 0, candidates: 0, ms: { frustum: 0, select: 0, occluders: 0, test: 0 } };
  }

  /**
   * Occluder boxes for geometries [0, n): `center`/`half` are their
   * bounding boxes (NaN center: empty), keys[g] what occluderBox is given;
   * flat[g] is set for a geometry flat along an axis (an open surface).
   * Calls the user's function and checks its answers; changes nothing.
   */
  boxes(center, half, keys) {
    const n = keys.length, oc = new Float32Array(3 * Math.max(n, 1)), oh = new Float32Array(3 * Math.max(n, 1));
    const solid = new Uint8Array(n), flat = new Uint8Array(n);
    for (let g = 0; g < n; g++) {
      const c = [center[3 * g], center[3 * g + 1], center[3 * g + 2]], h = [half[3 * g], half[3 * g + 1], half[3 * g + 2]];
      if (!c.every(Number.isFinite) || !h.every(Number.isFinite)) continue;
      flat[g] = flatBox(h) ? 1 : 0;
      let lo = [c[0] - h[0], c[1] - h[1], c[2] - h[2]], hi = [c[0] + h[0], c[1] + h[1], c[2] + h[2]];
      if (this.occluderBox) {
        const r = this.occluderBox(keys[g]);
        if (r === null || r === undefined || r === false) continue;
        const b = boxOf(r);
        if (!b || !b.every((v) => typeof v === 'number' && !Number.isNaN(v))) {
          fail(this.satc, -13, `${this.what}: occlusion.occluderBox must give a Box3, { center, half } or null`);
        }
        // clipped to the bounding box: a volume's occluder lies inside the volume
        lo = lo.map((v, k) => Math.max(v, b[k]));
        hi = hi.map((v, k) => Math.min(v, b[3 + k]));
        if (!(lo[0] <= hi[0] && lo[1] <= hi[1] && lo[2] <= hi[2])) continue;
      }
      for (let k = 0; k < 3; k++) {
        oc[3 * g + k] = (lo[k] + hi[k]) / 2;
        oh[3 * g + k] = (hi[k] - lo[k]) / 2;
      }
      // a box rounded to float grows at most by an ulp: shrink the half by one more
      for (let k = 0; k < 3; k++) {
        const want = (hi[k] - lo[k]) / 2, c2 = oc[3 * g + k];
        let hk = oh[3 * g + k];
        while (hk > 0 && (c2 - hk < lo[k] || c2 + hk > hi[k])) hk = Math.fround(hk - Math.max(hk, 1e-30) * 2 ** -23);
        oh[3 * g + k] = Math.max(0, Math.min(hk, want));
      }
      solid[g] = 1;
    }
    return { center: oc, half: oh, solid, flat };
  }

  /** Takes the boxes from boxes() as the occluder boxes for up to `capacity` volumes. */
  setBoxes(b, capacity) {
    const geos = Math.max(b.solid.length, 1);
    if (!this._occ || this._occ.capacity !== Math.max(capacity, 1) || this._geos !== geos) {
      this._occ?.dispose();
      this._occ = null;
      this._occ = this.satc.batch('instances', Math.max(capacity, 1), { local: { meshes: geos } });
      this._geos = geos;
    }
    this._occ.set({ localCenter: b.center, localHalf: b.half });
    this._solid = b.solid;
    this._flat = b.flat;
    this._boxes = b;
  }

  _pyramid(camera) {
    const old = this._pyr;
    this._pyr = null; // nothing disposed is left here if a new one fails
    return (this._pyr = pyramidFor(this.satc, old, this.size, camera, this.merge, this.test));
  }

  /**
   * Culls volumes [0, count) of `batch` (in `model`'s frame; null: world)
   * for one camera: frustum, the kept volumes `isOccluder(i, flat)` says
   * three draws opaque (flat: its geometry is flat), the occluder meshes
   * three draws for `camera`, then
   * frustum + pyramid (`shown(x)`: x's visibility as the user set it, for
   * the meshes' visible chains). Returns the visible indices (a view of `output`),
   * or null when the view cannot take a pyramid (a plane volume, or a
   * clip volume reaching behind the camera) or an occluder mesh masks
   * depth: cull by frustum then.
   */
  cull(camera, batch, count, mode, output, model, isOccluder, shown = undefined) {
    const satc = this.satc, st = this.stats;
    const t0 = performance.now();
    let f;
    try {
      f = this._frustum = frustumFromCamera(satc, camera, this._frustum, model);
    } catch (e) {
      if (e.statusName === 'SATC_ERR_NEAR') return null;
      throw e;
    }
    if (f.kind !== 'perspective' && f.kind !== 'orthographic') return null;
    // an occluder mesh masking depth (see masksDepth): occlusion is not safe
    if (this.meshes.some((m) => masksDepthFor(m, camera, shown))) return null;
    const pyr = this._pyramid(camera).begin(f);
    let occluders = 0, candidates = 0, tf = t0, ts = t0;
    if (this._occ && this.occluders !== false) {
      satc.cull(f, batch, { mode: 'conservative', first: 0, count, into: output, output: 'indices' });
      st.frustum = output.visible;
      tf = performance.now();
      const kept = output.indices, src = batch.matrices, ids = batch.meshIds, solid = this._solid, flat = this._flat;
      const dst = this._occ.matrices, dids = this._occ.meshIds;
      for (let k = 0; k < kept.length; k++) {
        const i = kept[k], g = ids[i];
        if (g < solid.length && solid[g] && isOccluder(i, flat[g] === 1)) {
          for (let j = 0, a = 16 * candidates, b = 16 * i; j < 16; j++) dst[a + j] = src[b + j];
          if (this._srcOf.length <= candidates) this._srcOf = grown(this._srcOf, this._occ.capacity);
          this._srcOf[candidates] = i;
          dids[candidates++] = g;
        }
      }
      ({ kept: occluders, candidates } = this._choose(camera, pyr, model, f.kind === 'perspective', candidates));
      ts = performance.now();
      if (occluders) pyr.rasterize(this._occ, { first: 0, count: occluders, minTexels: this.minTexels });
    }
    occluders += drawOccluderMeshes(this, pyr, camera, model, shown);
    pyr.build();
    const t2 = performance.now();
    satc.cull(f, batch, { mode, first: 0, count, into: output, output: 'indices', occlusion: pyr });
    this._markSeen(output.indices, output.visible, count);
    const t3 = performance.now();
    if (!this._occ || this.occluders === false) st.frustum = output.visible + output.occluded;
    st.drawn = output.visible;
    st.occluders = occluders;
    st.candidates = candidates;
    st.ms.frustum = tf - t0;
    st.ms.select = ts - tf;
    st.ms.occluders = t2 - ts;
    st.ms.test = t3 - t2;
    return output.indices;
  }

  // Of the candidates [0, n) of the occluder batch, keeps (moved to its
  // front, in their order) those estimated to cover at least minTexels
  // texels (a box's mean projected area, a quarter of its surface, at its
  // nearest distance), and of those the maxOccluders largest boxes: a far
  // texel stands for more volumes behind it than a near one, so the
  // largest in the world hide the most. Returns { kept, candidates }.
  _choose(camera, pyr, model, perspective, n) {
    const max = this.maxOccluders, e = this._occ.matrices, ids = this._occ.meshIds, { center: bc, half: bh } = this._boxes;
    if (this._score.length < n) {
      this._score = new Float32Array(this._occ.capacity);
      this._work = new Float32Array(this._occ.capacity);
    }
    const score = this._score;
    const w = camera.matrixWorld.elements, P = camera.projectionMatrix.elements;
    const tpu = (pyr.width * Math.abs(P[0])) / 2; // texels a world unit at distance 1 (perspective) or anywhere
    const near = camera.near > 0 ? camera.near : 1e-6;
    let ex = w[12], ey = w[13], ez = w[14];
    if (model) {
      const v = _m.copy(model).invert().elements;
      [ex, ey, ez] = [0, 1, 2].map((k) => v[k] * w[12] + v[4 + k] * w[13] + v[8 + k] * w[14] + v[12 + k]);
    }
    const cross = (a, b, c, d, f, g) => {
      const x = b * g - c * f, y = c * d - a * g, z = a * f - b * d;
      return Math.sqrt(x * x + y * y + z * z);
    };
    const len2 = (a, b, c) => a * a + b * b + c * c;
    let candidates = 0;
    for (let k = 0; k < n; k++) {
      const o = 16 * k, g = 3 * ids[k], h0 = bh[g], h1 = bh[g + 1], h2 = bh[g + 2];
      const area = cross(e[o], e[o + 1], e[o + 2], e[o + 4], e[o + 5], e[o + 6]) * h0 * h1 +
        cross(e[o], e[o + 1], e[o + 2], e[o + 8], e[o + 9], e[o + 10]) * h0 * h2 +
        cross(e[o + 4], e[o + 5], e[o + 6], e[o + 8], e[o + 9], e[o + 10]) * h1 * h2; // an eighth of the surface
      let t = tpu;
      if (perspective) {
        const c0 = bc[g], c1 = bc[g + 1], c2 = bc[g + 2];
        const x = e[o] * c0 + e[o + 4] * c1 + e[o + 8] * c2 + e[o + 12] - ex;
        const y = e[o + 1] * c0 + e[o + 5] * c1 + e[o + 9] * c2 + e[o + 13] - ey;
        const z = e[o + 2] * c0 + e[o + 6] * c1 + e[o + 10] * c2 + e[o + 14] - ez;
        const r = Math.sqrt(len2(e[o], e[o + 1], e[o + 2]) * h0 * h0 + len2(e[o + 4], e[o + 5], e[o + 6]) * h1 * h1 + len2(e[o + 8], e[o + 9], e[o + 10]) * h2 * h2);
        t = tpu / Math.max(Math.sqrt(x * x + y * y + z * z) - r, near);
      }
      const covers = 2 * area * t * t >= this.minTexels;
      score[k] = covers && area >= 0 ? area : -1; // NaN: never
      if (score[k] >= 0) candidates++;
    }
    if (max === 0 || candidates === 0) return { kept: 0, candidates };
    const seen = this._seen, tag = this._seenTag, srcOf = this._srcOf;
    const first = this.visibleFirst && tag > 0 ? (k) => seen[srcOf[k]] === tag : () => false;
    const out = chooseBest(score, n, max, (k) => score[k] >= 0, first, this._work, (k, slot) => {
      if (slot !== k) {
        e.copyWithin(16 * slot, 16 * k, 16 * k + 16);
        ids[slot] = ids[k];
      }
    });
    return { kept: out, candidates };
  }

  // Remembers the visible volumes of this update (of count) for the next.
  _markSeen(indices, visible, count) {
    if (this._seen.length < count) {
      this._seen = new Uint32Array(count);
      this._seenTag = 0;
    }
    this._seenTag = markSeen(this._seen, this._seenTag, indices, visible);
  }

  /** Whether the user marks volume i (`arg`: what the predicate takes) solid. */
  chosen(i, arg) {
    const s = this.occluders;
    return s === true || (typeof s === 'function' ? !!s(arg) : s !== false && !!s[i]);
  }

  /** Records a frustum-only update (several views, or no pyramid for the view). */
  frustumOnly(kept) {
    const st = this.stats;
    st.frustum = st.drawn = kept;
    st.occluders = st.candidates = 0;
    st.ms.frustum = st.ms.select = st.ms.occluders = st.ms.test = 0;
  }

  /** The pyramid of the last occlusion update (null before the first). */
  get pyramid() {
    return this._pyr;
  }

  dispose() {
    this._pyr?.dispose();
    this._occ?.dispose();
    disposeOccluderMeshes(this._geo);
    this._pyr = this._occ = null;
  }
}
