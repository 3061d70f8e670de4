// Transforms and Gaussian splats (SATC_FORM_TRS): position, rotation
// quaternion and scale per volume, read by the module where they lie, and
// the visible indices sorted back to front (satc_cull_depth) for splat
// renderers. The records live in module memory: a `.splat` file is
// copied into `bytes` once (or fetched straight into it) and culled every
// frame without conversion.

import { FieldBlock } from './block.js';
import { Frustum } from './frustum.js';
import { parsePly, bytesOf } from './ply.js';

export { parsePly, PLY_CULL_PROPERTIES } from './ply.js';

const BATCH_BYTES = 88; // satc_batch on wasm32 (groups pointer at 84)
const LOCAL_BYTES = 44; // satc_local_boxes
const DEPTH_BYTES = 28; // satc_depth_results
const RES_BYTES = 16; // satc_results
const HEAD = 192; // the four structs above, 16-byte aligned
const FORM_TRS = 7;
const QUAT = Object.freeze({ f32: 0, u8: 1, i8: 2 });
const WXYZ = 4, LOG_SCALE = 8;
const SORTS = { 16: 1, 32: 2 };
const EMPTY = Object.freeze({});

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
    if (!['splat', 'arrays', 'ply'].includes(layout)) h.fail(-8, `trs batch: layout ${layout}`);
    if (!(quat in QUAT) || (order !== 'xyzw' && order !== 'wxyz')) h.fail(-8, `trs batch: quaternion ${quat} ${order}`);
    if (layout === 'splat' && (quat !== 'u8' || order !== 'wxyz')) h.fail(-8, 'trs batch: the splat layout holds u8 wxyz quaternions');
    if (!['splat', 'shared', 'per-volume'].includes(local)) h.fail(-8, `trs batch: local ${local}`);
    const k = opts.k ?? 0;
    if (!(k >= 0) || !Number.isFinite(k)) h.fail(-13, `trs batch: k ${k}`);
    const fields = [];
    if (layout === 'splat') fields.push(['records', 8 * capacity, Float32Array]);
    else if (layout === 'ply') fields.push(['records', opts.ply.stride * capacity, Uint8Array]);
    else {
      fields.push(['position', 3 * capacity, Float32Array], ['scale', 3 * capacity, Float32Array]);
      fields.push(['quaternion', 4 * capacity, quat === 'f32' ? Float32Array : quat === 'u8' ? Uint8Array : Int8Array]);
    }
    if (local === 'shared') fields.push(['localCenter', 3, Float32Array], ['localHalf', 3, Float32Array]);
    if (local === 'per-volume') fields.push(['localCenter', 3 * capacity, Float32Array], ['localHalf', 3 * capacity, Float32Array]);
    super(satc, capacity, 'trs', HEAD, fields, `trs batch(${capacity})`);
    this.layout = layout;
    this.local = local;
    /** The PLY header (layout 'ply'): parsePly's answer. */
    this.ply = opts.ply ?? null;
    this._format = QUAT[quat] | (order === 'wxyz' ? WXYZ : 0) | (opts.logScale ? LOG_SCALE : 0);
    this._k = k;
    this._qbytes = quat === 'f32' ? 16 : 4;
    this._localDesc = this._block + BATCH_BYTES;
    this._depthDesc = this._localDesc + LOCAL_BYTES;
    this._resDesc = this._depthDesc + DEPTH_BYTES;
    this._out = 0; // indices, sorted, depth, keys, scratch: grown on demand
    this._outCap = 0;
    this._scratchBytes = 0;
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
    } else if (this.layout === 'ply') {
      // the vertex records as they lie: one pointer per component, the record stride
      const r = F('records'), { stride, offset: o } = this.ply;
      const put = (p, a, b, c) => {
        const i = p >>> 2;
        h.u32[i] = r + o[a]; h.u32[i + 1] = r + o[b]; h.u32[i + 2] = r + o[c]; h.u32[i + 3] = stride;
      };
      put(d + 4, 'x', 'y', 'z');
      put(d + 20, 'scale_0', 'scale_1', 'scale_2');
      h.u32[q + 9] = r + o.rot_0;
      h.u32[q + 10] = stride;
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

  /**
   * The records' bytes (layouts 'splat' and 'ply': the `.splat` file, or
   * the PLY vertex records without the header): copy a file in with
   * bytes.set(new Uint8Array(buffer)).
   */
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

  // Module buffers for count results: indices, sorted, depth, key16, key32,
  // scratch. The scratch is sized for sort codes a and b: the 16-bit sort's
  // histogram can need more than the 32-bit sort for few volumes.
  _outputs(count, a, b = a) {
    const x = this._satc._x;
    const cap = Math.max(count, 64, this._outCap);
    let scr = 0;
    for (let k = a; ; k = b) {
      const need = x.satc_depth_scratch_bytes(cap, k) >>> 0;
      if (need === 0xffffffff) this._heap.fail(-9, 'trs: too many volumes');
      scr = Math.max(scr, need);
      if (k === b) break;
    }
    if (this._out && count <= this._outCap && scr <= this._scratchBytes) return;
    scr = Math.max(scr, this._out ? this._scratchBytes : 0);
    const p = this._heap.alloc(16 * cap + 2 * cap + scr + 64, 'trs outputs');
    this._heap.free(this._out);
    this._out = p;
    this._outCap = cap;
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

  /**
   * Culls and sorts volumes [first, first + count) (opts as cullSorted's,
   * read but never kept) and writes the visible indices back to front into
   * `order` (a Uint32Array of at least `count` elements, over any buffer:
   * a SharedArrayBuffer, a transferred ArrayBuffer); returns how many.
   * Allocates nothing once the first call (or reserveOrder) made the
   * module buffers: a worker can call it every frame. On error a SatcError
   * is thrown and `order` is left as it was.
   */
  orderInto(frustum, order, opts = EMPTY) {
    const what = 'trs.orderInto';
    this._live(what);
    const sat = this._satc, h = this._heap;
    const mode = sat._mode(opts, what);
    const sort = SORTS[opts.sort ?? 16];
    if (sort === undefined) h.fail(-8, `${what}: sort ${opts.sort} (16 or 32)`);
    if (!(frustum instanceof Frustum)) h.fail(-1, `${what}: not a built frustum`);
    const first = opts.first ?? 0, count = opts.count ?? this._count - first;
    if (!Number.isInteger(first) || !Number.isInteger(count) || first < 0 || count < 0 || first + count > this.capacity) {
      h.fail(-9, `${what}: range [${first}, ${first}+${count}) outside the batch's ${this.capacity} volumes`);
    }
    if (!(order instanceof Uint32Array)) h.fail(-1, `${what}: order must be a Uint32Array`);
    if (order.length < count) h.fail(-9, `${what}: order holds ${order.length} indices, the range ${count}`);
    this._outputs(count, sort);
    sat._putFrustum(frustum, 0, what);
    const u32 = h.u32, r = this._resDesc >>> 2, d = this._depthDesc >>> 2;
    u32[r] = 0; u32[r + 1] = 0; u32[r + 2] = this._idx; u32[r + 3] = 0;
    u32[d] = 0; u32[d + 1] = 0; u32[d + 2] = 0;
    u32[d + 3] = this._sorted;
    u32[d + 4] = sort;
    u32[d + 5] = this._scratch;
    u32[d + 6] = this._scratchBytes;
    h.check(sat._x.satc_cull_depth(sat._slots, this._desc, first, count, mode, this._resDesc, this._depthDesc), what);
    const n = u32[r + 3], s = this._sorted >>> 2;
    for (let i = 0; i < n; i++) order[i] = u32[s + i];
    return n;
  }

  /** Makes the module buffers cullSorted and orderInto need for up to `count` volumes (default: the capacity), either sort, so no later call allocates. */
  reserveOrder(count = this.capacity) {
    this._live('trs.reserveOrder');
    if (!Number.isInteger(count) || count < 0 || count > this.capacity) this._heap.fail(-9, `trs.reserveOrder: count ${count} (capacity ${this.capacity})`);
    this._outputs(count, SORTS[16], SORTS[32]);
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

/**
 * A batch of 3DGS PLY splats read where they lie: `src` is the file (an
 * ArrayBuffer, SharedArrayBuffer or typed array; its vertex records are
 * copied into module memory once, unconverted) or parsePly's header (an
 * empty batch of its vertexCount whose `bytes` the caller fills with the
 * records, e.g. straight from a fetch). The cull reads x, y, z, the log
 * scales scale_0..2 (exp applied) and rot_0..3 (w first, not unit) at their
 * offsets with the record's stride; other properties are skipped. Each
 * splat is culled as its k sigma box (opts.k, default 3). Throws SatcError
 * (see parsePly; SATC_ERR_RANGE for a file shorter than its records) and
 * allocates nothing on error.
 */
export function plyBatch(satc, src, opts = {}) {
  const header = src && typeof src === 'object' && 'vertexCount' in src && 'offset' in src ? src : null;
  const ply = header ?? parsePly(src);
  let body = null;
  if (!header) {
    const u8 = bytesOf(src, 'plyBatch'), need = ply.dataOffset + ply.vertexCount * ply.stride;
    if (u8.length < need) satc._heap.fail(-9, `ply: truncated: ${u8.length} bytes, the header's ${ply.vertexCount} vertices need ${need}`);
    body = u8.subarray(ply.dataOffset, need);
  }
  const b = new TrsBatch(satc, ply.vertexCount, {
    k: opts.k, layout: 'ply', quaternion: 'f32', order: 'wxyz', logScale: true, local: 'splat', ply,
  });
  if (body) b.bytes.set(body);
  return b;
}

/** satc_expf: the exp the module applies to log scales (the same bits on every path). */
export function expf(satc, x) {
  return satc._x.satc_expf(x);
}
