// Transforms and Gaussian splats (SATC_FORM_TRS): position, rotation
// quaternion and scale per volume, read by the module where they lie, and
// the visible indices sorted back to front (satc_cull_depth) for splat
// renderers. The records live in module memory: a `.splat` file is
// copied into `bytes` once (or fetched straight into it) and culled every
// frame without conversion.

import { FieldBlock } from './block.js';
import { Frustum } from './frustum.js';

const BATCH_BYTES = 88; // satc_batch on wasm32 (groups pointer at 84)
const LOCAL_BYTES = 44; // satc_local_boxes
const DEPTH_BYTES = 28; // satc_depth_results
const RES_BYTES = 16; // satc_results
const HEAD = 192; // the four structs above, 16-byte aligned
const FORM_TRS = 7;
const QUAT = Object.freeze({ f32: 0, u8: 1, i8: 2 });
const WXYZ = 4, LOG_SCALE = 8;
const SORTS = { 16: 1, 32: 2 };

/** Quaternion encodings: 'f32', 'u8' (the .splat record's (b - 128) / 128), 'i8' (b / 127). */
export const QUATERNION_TYPES = Object.keys(QUAT);

/** Bytes per `.splat` record: position (3 floats), scale (3 floats), RGBA, rotation bytes (w, x, y, z). */
export const SPLAT_RECORD_BYTES = 32;

export class TrsBatch extends FieldBlock {
  /** @internal use splatBatch() or trsBatch() */
  constructor(satc, capacity, opts) {
    const h = satc._heap;
    const layout = opts.layout ?? 'arrays';
    const quat = opts.quaternion ?? (layout === 'splat' ? 'u8' : 'f32');
    const order = opts.order ?? (layout === 'splat' ? 'wxyz' : 'xyzw');
    const local = opts.local ?? 'splat';
    if (layout !== 'splat' && layout !== 'arrays') h.fail(-8, `trs batch: layout ${layout}`);
    if (!(quat in QUAT) || (order !== 'xyzw' && order !== 'wxyz')) h.fail(-8, `trs batch: quaternion ${quat} ${order}`);
    if (layout === 'splat' && (quat !== 'u8' || order !== 'wxyz')) h.fail(-8, 'trs batch: the splat layout holds u8 wxyz quaternions');
    if (!['splat', 'shared', 'per-volume'].includes(local)) h.fail(-8, `trs batch: local ${local}`);
    const k = opts.k ?? 0;
    if (!(k >= 0) || !Number.isFinite(k)) h.fail(-13, `trs batch: k ${k}`);
    const fields = [];
    if (layout === 'splat') fields.push(['records', 8 * capacity, Float32Array]);
    else {
      fields.push(['position', 3 * capacity, Float32Array], ['scale', 3 * capacity, Float32Array]);
      fields.push(['quaternion', 4 * capacity, quat === 'f32' ? Float32Array : quat === 'u8' ? Uint8Array : Int8Array]);
    }
    if (local === 'shared') fields.push(['localCenter', 3, Float32Array], ['localHalf', 3, Float32Array]);
    if (local === 'per-volume') fields.push(['localCenter', 3 * capacity, Float32Array], ['localHalf', 3 * capacity, Float32Array]);
    super(satc, capacity, 'trs', HEAD, fields, `trs batch(${capacity})`);
    this.layout = layout;
    this.local = local;
    this._format = QUAT[quat] | (order === 'wxyz' ? WXYZ : 0) | (opts.logScale ? LOG_SCALE : 0);
    this._k = k;
    this._qbytes = quat === 'f32' ? 16 : 4;
    this._localDesc = this._block + BATCH_BYTES;
    this._depthDesc = this._localDesc + LOCAL_BYTES;
    this._resDesc = this._depthDesc + DEPTH_BYTES;
    this._out = 0; // indices, sorted, depth, keys, scratch: grown on demand
    this._outCap = 0;
    this._outSort = 0;
    this._writeDescriptor();
    satc._live.add(this);
  }

  _writeDescriptor() {
    const h = this._heap, d = this._desc, q = d >>> 2, F = (n) => this._fields.get(n)?.ptr ?? 0;
    h.u8.fill(0, d, d + HEAD);
    h.u32[q] = FORM_TRS;
    if (this.layout === 'splat') {
      const r = F('records');
      h.vec3s(d + 4, r, 32);
      h.vec3s(d + 20, r + 12, 32);
      h.u32[q + 9] = r + 28;
      h.u32[q + 10] = 32;
    } else {
      h.vec3s(d + 4, F('position'), 12);
      h.vec3s(d + 20, F('scale'), 12);
      h.u32[q + 9] = F('quaternion');
      h.u32[q + 10] = this._qbytes;
    }
    h.u32[q + 11] = this._format;
    h.f32[q + 12] = this._k;
    if (this.local !== 'splat') {
      const stride = this.local === 'shared' ? 0 : 12;
      h.vec3s(this._localDesc, F('localCenter'), stride);
      h.vec3s(this._localDesc + 16, F('localHalf'), stride);
      h.u32[q + 13] = this._localDesc;
    }
  }

  /** The `.splat` records' bytes (layout 'splat'): copy a file in with bytes.set(new Uint8Array(buffer)). */
  get bytes() {
    const r = this.array('records');
    return new Uint8Array(r.buffer, r.byteOffset, r.byteLength);
  }

  get records() { return this.array('records'); }
  get position() { return this.array('position'); }
  get quaternion() { return this.array('quaternion'); }
  get scale() { return this.array('scale'); }
  get localCenter() { return this.array('localCenter'); }
  get localHalf() { return this.array('localHalf'); }

  // Module buffers for count results: indices, sorted, depth, key16, key32, scratch.
  _outputs(count, sort) {
    const sat = this._satc, x = sat._x;
    if (count <= this._outCap && sort <= this._outSort && this._out) return;
    const cap = Math.max(count, 64, this._outCap);
    const srt = Math.max(sort, this._outSort);
    const scr = x.satc_depth_scratch_bytes(cap, srt) >>> 0;
    if (scr === 0xffffffff) this._heap.fail(-9, 'trs: too many volumes');
    const p = this._heap.alloc(16 * cap + 2 * cap + scr + 64, 'trs outputs');
    this._heap.free(this._out);
    this._out = p;
    this._outCap = cap;
    this._outSort = srt;
    this._idx = p;
    this._sorted = p + 4 * cap;
    this._depth = p + 8 * cap;
    this._key32 = p + 12 * cap;
    this._key16 = p + 16 * cap;
    this._scratch = (p + 18 * cap + 15) & ~15;
    this._scratchBytes = scr;
  }

  /**
   * Culls volumes [first, first + count) against a frustum (mode
   * 'conservative' or 'exact'); returns { visible, indices }: a copy, or
   * with { view: true } a module-owned view valid until the next call.
   */
  cull(frustum, opts = {}) {
    return this._call(frustum, opts, 'trs.cull', false);
  }

  /**
   * cull, plus what a splat renderer draws from: `sorted`, the visible
   * indices back to front (sort 16: by a 16-bit key quantised between the
   * nearest and farthest visible depth, one counting pass; 32: by the
   * exact float depth), stable for equal keys; with depth: true each
   * visible volume's view depth (in the order of `indices`), with keys:
   * true its key16 and key32. The same bits as the C library's on every
   * path. Returns copies, or with { view: true } module-owned views.
   */
  cullSorted(frustum, opts = {}) {
    return this._call(frustum, opts, 'trs.cullSorted', true);
  }

  _call(frustum, opts, what, sorted) {
    this._live(what);
    const sat = this._satc, h = this._heap;
    const mode = sat._mode(opts, what); // the checks every batch's cull makes
    const sort = sorted ? SORTS[opts.sort ?? 16] : 0;
    if (sort === undefined) h.fail(-8, `${what}: sort ${opts.sort} (16 or 32)`);
    if (!(frustum instanceof Frustum)) h.fail(-1, `${what}: not a built frustum`);
    const [first, count] = sat._range(this, opts, what);
    this._outputs(count, sort);
    sat._putFrustum(frustum, 0, what);
    const u32 = h.u32, r = this._resDesc >>> 2, d = this._depthDesc >>> 2;
    u32[r] = 0; u32[r + 1] = 0; u32[r + 2] = this._idx; u32[r + 3] = 0;
    let st;
    if (sorted) {
      u32[d] = opts.depth ? this._depth : 0;
      u32[d + 1] = opts.keys ? this._key16 : 0;
      u32[d + 2] = opts.keys ? this._key32 : 0;
      u32[d + 3] = this._sorted;
      u32[d + 4] = sort;
      u32[d + 5] = this._scratch;
      u32[d + 6] = this._scratchBytes;
      st = sat._x.satc_cull_depth(sat._slots, this._desc, first, count, mode, this._resDesc, this._depthDesc);
    } else {
      st = sat._x.satc_cull(sat._slots, this._desc, first, count, mode, this._resDesc);
    }
    h.check(st, what);
    const n = h.u32[r + 3];
    const buf = h.buffer, view = !!opts.view;
    const take = (C, p) => (view ? new C(buf, p, n) : new C(buf, p, n).slice());
    const res = { visible: n, indices: take(Uint32Array, this._idx) };
    if (sorted) {
      res.sorted = take(Uint32Array, this._sorted);
      if (opts.depth) res.depth = take(Float32Array, this._depth);
      if (opts.keys) {
        res.key16 = take(Uint16Array, this._key16);
        res.key32 = take(Uint32Array, this._key32);
      }
    }
    return res;
  }

  _release() {
    this._heap.free(this._out);
    this._out = 0;
  }
}

/**
 * A batch of `capacity` Gaussian splats in the 32-byte `.splat` layout
 * (position, linear scale, RGBA, rotation bytes w, x, y, z), each culled
 * as its k sigma box (opts.k, default 3).
 */
export function splatBatch(satc, capacity, opts = {}) {
  return new TrsBatch(satc, capacity, { ...opts, layout: 'splat', quaternion: 'u8', order: 'wxyz', local: 'splat' });
}

/**
 * A batch of `capacity` transforms in separate arrays (three.js style):
 * position (3 floats), quaternion (4 per volume: 'f32' floats, 'u8' or
 * 'i8' bytes; order 'xyzw' or 'wxyz'), scale (3 floats, logs with
 * logScale: true); local: 'splat' (the k sigma cube), 'shared' (one
 * localCenter / localHalf) or 'per-volume'.
 */
export function trsBatch(satc, capacity, opts = {}) {
  return new TrsBatch(satc, capacity, { ...opts, layout: 'arrays' });
}

/** satc_expf: the exp the module applies to log scales (the same bits on every path). */
export function expf(satc, x) {
  return satc._x.satc_expf(x);
}
