// Occlusion for the three.js helpers: each update draws the frame's
// occluders into a depth pyramid of the camera's view (satc's
// inner-conservative rasterizer), then culls against frustum and pyramid
// in one pass. Occluders are the helper's own volumes the caller marks
// solid (drawn by an inner box), three.js Meshes whose triangles are
// surfaces of opaque objects, or both.

import { Matrix4 } from 'three';
import { frustumFromCamera } from './views.js';
import { masksDepthFor } from './drawn.js';
import { DEFAULTS, chooseBest, disposeOccluderMeshes, kthLargest, markSeen, drawOccluderMeshes, mergeOf, pyramidFor, testOf, trustShadersOf } from './occluder-mesh.js';

const _mv = new Matrix4();

// Matrices unchanged for this many updates: the choice keeps the largest
// boxes in order and walks them (see _walk).
const STABLE_UPDATES = 8;
// Volumes one frustum pass of the walk takes.
const WALK_CHUNK = 2048;

function copy16(d, o, s, i) {
  for (let j = 0; j < 16; j++) d[o + j] = s[i + j];
}

function fail(satc, status, what) {
  return satc._heap.fail(status, what);
}

/**
 * The occlusion options of a helper, checked once:
 *   size: pyramid width in texels (height follows the camera's aspect),
 *         or [width, height]; default 400 (400 x 225 at 16:9);
 *   occluders: which of the helper's own volumes are solid: true (all),
 *         a function (index) => boolean, or a Uint8Array of flags;
 *         default none;
 *   occluderBox: { center, half } in the geometry's frame: a box inside
 *         every occluding instance's solid (default: the geometry's
 *         bounding box, right for box-like solid geometry only);
 *   meshes: three.js Meshes whose triangles lie on opaque surfaces
 *         (walls, terrain, building shells); their geometry is copied
 *         into module memory once per geometry version;
 *   minTexels: occluders covering fewer level-0 texels are skipped
 *         (default 4);
 *   maxOccluders: of the solid volumes the frustum keeps that cover at
 *         least minTexels, at most this many are drawn, those with the
 *         largest boxes (mean projected area, from each matrix's axes);
 *         default 512; Infinity draws them all;
 *   visibleFirst: candidates this helper found visible in its previous
 *         update rank above the others (largest first within each
 *         rank): what was seen is in front, so it hides the most per
 *         occluder drawn; default true. Only which occluders are drawn
 *         changes, never whether a visible volume is kept;
 *   merge: occluders merge within texels (a texel that several cover
 *         together, none of them whole, hides what is behind them all):
 *         more is hidden, each occluder costs more to draw; default false;
 *   depthPerTexel: the occlusion test also bounds a volume's own depth
 *         within the texels its nearest depth cannot decide (a volume
 *         seen obliquely is hidden more often), default false;
 *   testBudget: with depthPerTexel, the most texel bounds one update's
 *         test computes before going on with the plain test (an integer
 *         in 0 .. 2^32 - 1, default 4096).
 */
export class Occlusion {
  constructor(satc, opts, capacity, box, what) {
    if (opts === true) opts = { occluders: true };
    if (!opts || typeof opts !== 'object') fail(satc, -13, `${what}: occlusion must be an object or true`);
    this.satc = satc;
    const size = opts.size ?? DEFAULTS.size;
    const dims = Array.isArray(size) ? size : [size, 0];
    if (!dims.every((v, i) => Number.isInteger(v) && (v >= 1 || (i === 1 && v === 0)))) fail(satc, -9, `${what}: occlusion.size`);
    this.size = dims;
    this.trustShaders = trustShadersOf(satc, opts, what);
    this.merge = mergeOf(satc, opts, what);
    this.test = testOf(satc, opts, what);
    const occ = opts.occluders ?? false;
    if (!(typeof occ === 'boolean' || typeof occ === 'function' || occ instanceof Uint8Array)) {
      fail(satc, -13, `${what}: occlusion.occluders must be true, a function or a Uint8Array`);
    }
    this.occluders = occ;
    const ob = opts.occluderBox ?? box;
    if (!ob || !Array.isArray(ob.center) || !Array.isArray(ob.half)) fail(satc, -13, `${what}: occlusion.occluderBox needs center and half`);
    const meshes = opts.meshes ?? [];
    if (!Array.isArray(meshes) || !meshes.every((m) => m && m.isMesh === true && m.geometry?.attributes?.position)) {
      fail(satc, -13, `${what}: occlusion.meshes must be an array of three.js Meshes`);
    }
    this.meshes = meshes;
    this.minTexels = opts.minTexels ?? 4;
    if (typeof this.minTexels !== 'number' || !(this.minTexels >= 0) || !Number.isFinite(this.minTexels)) fail(satc, -5, `${what}: occlusion.minTexels`);
    this.maxOccluders = opts.maxOccluders ?? DEFAULTS.maxOccluders;
    if (!((Number.isInteger(this.maxOccluders) && this.maxOccluders >= 0) || this.maxOccluders === Infinity)) {
      fail(satc, -9, `${what}: occlusion.maxOccluders must be an integer >= 0 or Infinity`);
    }
    this.visibleFirst = opts.visibleFirst ?? DEFAULTS.visibleFirst;
    if (typeof this.visibleFirst !== 'boolean') fail(satc, -13, `${what}: occlusion.visibleFirst must be a boolean`);
    this._box = [...ob.center, ...ob.half].map(Number); // a NaN scores nothing: no occluder
    this._occ = null;
    if (occ !== false) {
      // the drawn occluders' matrices; the candidates' source indices and scores
      const room = Math.min(capacity, this.maxOccluders);
      this._occ = satc.batch('instances', Math.max(room, 1), {}, { localCenter: ob.center, localHalf: ob.half });
      this._cand = new Uint32Array(capacity);
      this._score = new Float32Array(capacity);
      // per source, from its matrix: box centre, bounding radius, score; valid while stamp == epoch
      this._shape = new Float32Array(5 * capacity);
      this._stamp = new Uint32Array(capacity);
      this._epoch = 1;
      this._work = room < capacity ? new Float32Array(capacity) : null;
      this._area = null; // per source its box's area, for the order
      // seen[i] == seenTag: source i was visible in the previous update
      this._seen = new Uint32Array(capacity);
      this._seenTag = 0;
      this._localBox = box;
      // the walk: the largest boxes (source indices by area), their matrices in that order
      this._order = null;
      this._sorted = null;
      this._sortedOut = null;
      this._orderFor = 0; // epoch the order was made for (0: none)
      this._lastEpoch = 0;
      this._stable = 0; // updates since the matrices last changed
    }
    this._pyr = null;
    this._geo = new Map(); // geometry -> { version, mesh }
    this._frustum = undefined;
    /** Figures of the last update: frustum-kept, drawn, occluder count, and milliseconds per stage. */
    this.stats = { frustum: 0, drawn: 0, occluders: 0, candidates: 0, ms: { frustum: 0, select: 0, occluders: 0, test: 0 } };
    // frustum: counted when first read after an update that had no
    // frustum pass of its own (the cull with occlusion cannot tell)
    let kept = 0;
    this._count = null;
    Object.defineProperty(this.stats, 'frustum', {
      enumerable: true,
      get: () => {
        if (this._count) kept = this._count();
        this._count = null;
        return kept;
      },
      set: (v) => {
        kept = v;
        this._count = null;
      },
    });
  }

  _pyramid(camera) {
    const old = this._pyr;
    this._pyr = null; // nothing disposed is left here if a new one fails
    return (this._pyr = pyramidFor(this.satc, old, this.size, camera, this.merge, this.test));
  }

  /**
   * Culls volumes [0, count) of `batch` (in `model`'s frame) for one
   * camera: frustum, occluders, then frustum + pyramid. Returns the
   * visible indices (a view of `output`) and the count, or null when
   * occlusion is not safe for this view (cull by frustum). `solid` false:
   * the volumes hide nothing (see boxOccluder), only the meshes do.
   */
  cull(camera, batch, count, mode, output, model, solid = true) {
    const satc = this.satc, st = this.stats;
    const t0 = performance.now();
    const f = (this._frustum = frustumFromCamera(satc, camera, this._frustum, model));
    if (f.kind !== 'perspective' && f.kind !== 'orthographic') {
      satc.cull(f, batch, { mode, first: 0, count, into: output, output: 'indices' });
      st.frustum = st.drawn = output.visible;
      return { indices: output.indices, visible: [output.visible] };
    }
    // an occluder mesh masking depth (see masksDepth): occlusion is not safe
    if (this.meshes.some((m) => masksDepthFor(m, camera))) return null;
    const pyr = this._pyramid(camera).begin(f);
    let occluders = 0, candidates = 0;
    let t1 = t0, t2 = t0;
    let placed = -1; // occluders the walk placed, -1: none (the frustum pass chooses)
    if (this._occ && solid) {
      const persp = f.kind === 'perspective';
      if (this._walkable(batch, count)) {
        t1 = performance.now();
        placed = this._walk(f, camera, model, persp, pyr, batch);
      }
      if (placed < 0) {
        satc.cull(f, batch, { mode: 'conservative', first: 0, count, into: output, output: 'indices' });
        st.frustum = output.visible;
        t1 = performance.now();
        candidates = this._select(camera, model, persp, pyr, output.indices, batch.matrices);
      }
      t2 = performance.now();
    }
    st.ms.frustum = t1 - t0;
    st.ms.select = t2 - t1;
    occluders += drawOccluderMeshes(this, pyr, camera, model);
    const n = placed >= 0 ? placed : candidates ? this._place(batch.matrices, candidates) : 0;
    if (n) pyr.rasterize(this._occ, { first: 0, count: n, minTexels: this.minTexels });
    occluders += n;
    pyr.build();
    const t3 = performance.now();
    satc.cull(f, batch, { mode, first: 0, count, into: output, output: 'indices', occlusion: pyr });
    if (this._seen) this._seenTag = markSeen(this._seen, this._seenTag, output.indices, output.visible);
    const t4 = performance.now();
    st.occluders = occluders;
    st.drawn = output.visible;
    if (!(this._occ && solid) || placed >= 0) {
      const out = (this._countOut ??= satc.output(0));
      this._count = () => satc.cull(f, batch, { mode: 'conservative', first: 0, count, into: out, output: [] }).visible;
    }
    st.ms.occluders = t3 - t2;
    st.ms.test = t4 - t3;
    return { indices: output.indices, visible: [output.visible] };
  }

  /**
   * The candidate occluders among the frustum-kept volumes `kept` (source
   * indices into `src`, 16 floats each, in the model's frame): the solid
   * ones whose box covers at least minTexels texels on average, each
   * scored by its box's mean projected area in view units (see below).
   * Returns how many. Which volumes occlude is only a choice of cost: any
   * subset keeps the cull conservative.
   */
  _select(camera, model, perspective, pyr, kept, src) {
    const sel = this.occluders, cand = this._cand, score = this._score;
    const { k, s1, near, z0, z1, z2, z3 } = this._frame(camera, model, pyr);
    const minT = this.minTexels;
    const shape = this._shape, stamp = this._stamp, epoch = this._epoch;
    let m = 0;
    for (let q = 0; q < kept.length; q++) {
      const i = kept[q];
      if (sel !== true && !(typeof sel === 'function' ? sel(i) : sel[i])) continue;
      const e = 5 * i;
      if (stamp[i] !== epoch) this._shapeOf(i, src);
      const t = k * shape[e + 4];
      if (perspective) {
        // nearest view depth of its bounding ball, no nearer than the near plane
        const d = Math.max(-(z0 * shape[e] + z1 * shape[e + 1] + z2 * shape[e + 2] + z3) - s1 * shape[e + 3], near);
        // t / d^2 texels on screen; the score is t, texels weighed by
        // depth squared: a texel far away stands for more volumes behind
        // it (a field of volumes fills a solid angle in proportion to
        // depth squared), so far occluders hide more per texel
        if (!(t >= minT * d * d)) continue;
      } else if (!(t >= minT)) continue;
      cand[m] = i;
      score[m++] = t;
    }
    this.stats.candidates = m;
    return m;
  }

  // What the choice needs of this view: texels per area unit at depth 1
  // (k), the longest model-to-view scale (s1), the near plane, the view
  // depth row (z0..z3).
  _frame(camera, model, pyr) {
    const v = _mv.multiplyMatrices(camera.matrixWorldInverse, model).elements;
    // model to view: lengths scale by at most the longest column
    const s2 = Math.max(v[0] * v[0] + v[1] * v[1] + v[2] * v[2], v[4] * v[4] + v[5] * v[5] + v[6] * v[6], v[8] * v[8] + v[9] * v[9] + v[10] * v[10]);
    const P = camera.projectionMatrix.elements;
    // texels per view unit at depth 1 (perspective) or per view unit (orthographic)
    const k = 2 * Math.abs(P[0] * P[5]) * (pyr.width / 2) * (pyr.height / 2) * s2;
    const near = camera.near > 0 ? camera.near : 1e-6;
    return { k, s1: Math.sqrt(s2), near, z0: v[2], z1: v[6], z2: v[10], z3: v[14] };
  }

  // Source i's box from its matrix (src, 16 floats each): centre and
  // bounding radius in the model's frame, and its mean projected area.
  _shapeOf(i, src) {
    const bx = this._box, cx = bx[0], cy = bx[1], cz = bx[2], hx = bx[3], hy = bx[4], hz = bx[5];
    const shape = this._shape, e = 5 * i, o = 16 * i;
    const a0 = src[o], a1 = src[o + 1], a2 = src[o + 2];
    const b0 = src[o + 4], b1 = src[o + 5], b2 = src[o + 6];
    const c0 = src[o + 8], c1 = src[o + 9], c2 = src[o + 10];
    // the box's half axes in the model's frame
    const a = hx * Math.sqrt(a0 * a0 + a1 * a1 + a2 * a2);
    const b = hy * Math.sqrt(b0 * b0 + b1 * b1 + b2 * b2);
    const c = hz * Math.sqrt(c0 * c0 + c1 * c1 + c2 * c2);
    shape[e] = src[o + 12] + a0 * cx + b0 * cy + c0 * cz;
    shape[e + 1] = src[o + 13] + a1 * cx + b1 * cy + c1 * cz;
    shape[e + 2] = src[o + 14] + a2 * cx + b2 * cy + c2 * cz;
    shape[e + 3] = Math.sqrt(a * a + b * b + c * c);
    // a box's mean projected area: a quarter of its surface, 2 (ab + bc + ca)
    shape[e + 4] = a * b + b * c + c * a;
    this._stamp[i] = this._epoch;
  }

  // May this update walk the largest boxes? Once the matrices have not
  // changed for STABLE_UPDATES updates (a scene that moves every frame
  // never pays for the order), with a finite budget; makes the order
  // when there is none for these matrices.
  _walkable(batch, count) {
    if (this._epoch !== this._lastEpoch) {
      this._lastEpoch = this._epoch;
      this._stable = 0;
      this._orderFor = 0;
    } else this._stable++;
    const max = this.maxOccluders;
    if (max === 0 || max === Infinity || this._stable < STABLE_UPDATES || count === 0) return false;
    if (this._orderFor !== this._epoch || this._orderCount !== count) this._makeOrder(batch, count);
    return true;
  }

  // The order of the walk: of sources [0, count), the L = max(8 maxOccluders,
  // 4096) largest boxes (all when fewer), largest first, the lower index
  // first on a tie; their matrices copied in that order into a batch of
  // the culler's own box, for the frustum test.
  _makeOrder(batch, count) {
    let src = batch.matrices;
    const bx = this._box, hx = bx[3], hy = bx[4], hz = bx[5];
    const area = (this._area ??= new Float32Array(this._stamp.length));
    const work = (this._work ??= new Float32Array(this._stamp.length));
    let nv = 0;
    for (let i = 0, o = 0; i < count; i++, o += 16) {
      // the box's mean projected area, as _shapeOf gives it
      const a0 = src[o], a1 = src[o + 1], a2 = src[o + 2], b0 = src[o + 4], b1 = src[o + 5], b2 = src[o + 6];
      const c0 = src[o + 8], c1 = src[o + 9], c2 = src[o + 10];
      const a = hx * Math.sqrt(a0 * a0 + a1 * a1 + a2 * a2), b = hy * Math.sqrt(b0 * b0 + b1 * b1 + b2 * b2);
      const c = hz * Math.sqrt(c0 * c0 + c1 * c1 + c2 * c2);
      const t = (area[i] = a * b + b * c + c * a);
      if (t >= 0) work[nv++] = area[i]; // NaN: never an occluder
    }
    const L = Math.min(nv, Math.max(8 * this.maxOccluders, 4096));
    const thr = L < nv ? kthLargest(work, nv, L) : -Infinity;
    const order = (this._order = this._order?.length >= L ? this._order : new Uint32Array(Math.max(L, 1)));
    let m = 0;
    for (let i = 0; i < count && m < L; i++) if (area[i] > thr) order[m++] = i;
    for (let i = 0; i < count && m < L; i++) if (area[i] === thr) order[m++] = i;
    // largest first, then by index: keys of the area's bits (a float >= 0
    // orders as its bits) above the index, exact in a double while
    // indices fit in 21 bits
    const list = order.subarray(0, m);
    if (count <= 1 << 21) {
      const key = new Float64Array(m), bits = new Uint32Array(1), f32 = new Float32Array(bits.buffer);
      for (let q = 0; q < m; q++) {
        f32[0] = area[list[q]];
        key[q] = (0x7f800000 - bits[0]) * 2097152 + list[q];
      }
      key.sort();
      for (let q = 0; q < m; q++) list[q] = key[q] % 2097152;
    } else list.sort((x, y) => area[y] - area[x] || x - y);
    if (!this._sorted || this._sorted.capacity < Math.max(m, 1)) {
      this._sorted?.dispose();
      this._sorted = null;
      const box = this._localBox;
      this._sorted = this.satc.batch('instances', Math.max(m, 1), {}, { localCenter: box.center, localHalf: box.half });
      this._sortedOut ??= this.satc.output(WALK_CHUNK);
    }
    // (the allocation may have grown the memory: views taken again)
    const dst = this._sorted.matrices;
    src = batch.matrices;
    for (let q = 0; q < m; q++) copy16(dst, 16 * q, src, 16 * list[q]);
    this._orderLen = m;
    this._orderCount = count;
    this._orderFor = this._epoch;
  }

  // The choice by walking the order: chunk by chunk the frustum keeps
  // some of the largest boxes, and the first maxOccluders of them that
  // are solid and cover minTexels (with visibleFirst, those seen in the
  // previous update first) are the occluders the frustum pass would
  // choose. Copies their matrices to the occluder batch in source order;
  // returns how many, or -1 when the order ran out before the choice was
  // made (then the frustum pass chooses).
  _walk(f, camera, model, perspective, pyr, batch) {
    const sel = this.occluders, max = this.maxOccluders, list = this._order, L = this._orderLen;
    const { k, s1, near, z0, z1, z2, z3 } = this._frame(camera, model, pyr);
    const minT = this.minTexels, shape = this._shape, cand = this._cand, out = this._sortedOut;
    const stamp = this._stamp, epoch = this._epoch;
    const seen = this._seen, tag = this._seenTag, vf = this.visibleFirst && tag > 0;
    // cand: the chosen from the front, in order; with visibleFirst the
    // others from the back, in order, until the first are enough
    let n = 0, rest = 0, looked = 0;
    const back = this._cand.length - 1;
    for (let start = 0; start < L && n < max; start += WALK_CHUNK) {
      this.satc.cull(f, this._sorted, { mode: 'conservative', first: start, count: Math.min(WALK_CHUNK, L - start), into: out, output: 'indices' });
      const kept = out.indices, src = batch.matrices;
      for (let q = 0; q < kept.length && n < max; q++) {
        const i = list[kept[q]];
        if (sel !== true && !(typeof sel === 'function' ? sel(i) : sel[i])) continue;
        if (stamp[i] !== epoch) this._shapeOf(i, src);
        const e = 5 * i, t = k * shape[e + 4];
        if (perspective) {
          const d = Math.max(-(z0 * shape[e] + z1 * shape[e + 1] + z2 * shape[e + 2] + z3) - s1 * shape[e + 3], near);
          if (!(t >= minT * d * d)) continue;
        } else if (!(t >= minT)) continue;
        looked++;
        if (!vf || seen[i] === tag) cand[n++] = i;
        else if (rest < max && n + rest < cand.length) cand[back - rest++] = i;
      }
    }
    if (n < max) {
      // the order ran out: a smaller box than it holds could be chosen
      if (L < this._orderCount) return -1;
      for (let r = 0; r < rest && n < max; r++) cand[n++] = cand[back - r];
    }
    this.stats.candidates = looked;
    const chosen = cand.subarray(0, n).sort();
    const dst = this._occ.matrices, src = batch.matrices;
    for (let q = 0; q < n; q++) copy16(dst, 16 * q, src, 16 * chosen[q]);
    return n;
  }

  // Copies the matrices of the maxOccluders best-scored candidates (all
  // when fewer) to the occluder batch, in candidate order; returns how
  // many. With visibleFirst, the candidates seen in the previous update
  // rank above the rest.
  _place(src, m) {
    const cand = this._cand, score = this._score, dst = this._occ.matrices, max = this.maxOccluders;
    if (max === 0) return 0;
    if (m <= max) {
      for (let q = 0; q < m; q++) copy16(dst, 16 * q, src, 16 * cand[q]);
      return m;
    }
    const seen = this._seen, tag = this._seenTag;
    const first = this.visibleFirst && tag > 0 ? (q) => seen[cand[q]] === tag : () => false;
    return chooseBest(score, m, max, () => true, first, this._work, (q, slot) => copy16(dst, 16 * slot, src, 16 * cand[q]));
  }

  /** The helper's source matrices changed: the occluder estimates are made again as needed. */
  matricesChanged() {
    if (!this._stamp) return;
    if (++this._epoch === 0x100000000) {
      this._stamp.fill(0);
      this._epoch = 1;
    }
  }

  /** The pyramid of the last update (null before the first). */
  get pyramid() {
    return this._pyr;
  }

  dispose() {
    this._pyr?.dispose();
    this._occ?.dispose();
    this._sorted?.dispose();
    this._sortedOut?.dispose();
    this._countOut?.dispose();
    this._count = null;
    disposeOccluderMeshes(this._geo);
  }
}
