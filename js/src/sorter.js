// A splat scene culled and sorted every frame, shaped for a worker: the
// records come once from a SharedArrayBuffer or a transferred ArrayBuffer
// (a `.splat` file or a 3DGS PLY), and each frame writes the back-to-front
// order of the visible splats into the caller's Uint32Array. After setup
// no call allocates module memory or typed arrays.

import { Frustum } from './frustum.js';
import { bytesOf } from './ply.js';
import { plyBatch, splatBatch, SPLAT_RECORD_BYTES } from './trs-core.js';

const PLY_MAGIC = [112, 108, 121]; // "ply"

export class SplatSorter {
  /** @internal use splatSorter() */
  constructor(satc, src, opts) {
    const h = satc._heap;
    const u8 = bytesOf(src, 'splatSorter');
    const format = opts.format ?? (PLY_MAGIC.every((c, i) => u8[i] === c) ? 'ply' : 'splat');
    if (format !== 'ply' && format !== 'splat') h.fail(-8, `splatSorter: format ${format} ('ply' or 'splat')`);
    const sort = opts.sort ?? 16;
    if (sort !== 16 && sort !== 32) h.fail(-8, `splatSorter: sort ${sort} (16 or 32)`);
    if (opts.mode !== undefined && opts.mode !== 'conservative' && opts.mode !== 'exact') h.fail(-8, `splatSorter: mode ${opts.mode}`);
    if (format === 'splat' && u8.length % SPLAT_RECORD_BYTES !== 0) {
      h.fail(-9, `splatSorter: ${u8.length} bytes is not a whole number of ${SPLAT_RECORD_BYTES}-byte .splat records`);
    }
    /** 'ply' or 'splat'. */
    this.format = format;
    /** The batch in module memory (a TrsBatch: `bytes`, `ply`, `count`, cull, cullSorted). */
    this.batch = format === 'ply' ? plyBatch(satc, u8, { k: opts.k }) : splatBatch(satc, u8.length / SPLAT_RECORD_BYTES, { k: opts.k });
    if (format === 'splat') this.batch.bytes.set(u8);
    this.batch.reserveOrder();
    this._satc = satc;
    this._frustum = new Frustum();
    this._opts = { mode: opts.mode ?? 'conservative', sort };
    // a Float32Array is the matrix itself: the float path, no allocation; other
    // numbers take frustumFromMatrix's default (double when float would round them)
    this._f32Opts = { depth: opts.depth ?? 'webgl', reversed: !!opts.reversed, double: false };
    this._anyOpts = { depth: opts.depth ?? 'webgl', reversed: !!opts.reversed };
  }

  /** Number of splats. */
  get count() {
    return this.batch.capacity;
  }

  /**
   * Copies the records again from `src` (the same format and size, e.g. the
   * SharedArrayBuffer after the main thread moved splats): for a PLY the
   * whole file, for `.splat` the records. Throws SatcError, nothing copied,
   * when the size differs.
   */
  update(src) {
    const u8 = bytesOf(src, 'splatSorter.update'), b = this.batch;
    const start = this.format === 'ply' ? b.ply.dataOffset : 0, n = b.bytes.length;
    if (u8.length < start + n) this._satc._heap.fail(-9, `splatSorter.update: ${u8.length} bytes, the records need ${start + n}`);
    b.bytes.set(start === 0 && u8.length === n ? u8 : u8.subarray(start, start + n));
  }

  /**
   * Culls against `camera` (a Frustum, or a view-projection matrix: 16
   * numbers, column-major, depth convention from the options; a
   * Float32Array is taken as is without allocating, other numbers as
   * frustumFromMatrix takes them, in double when float would round them) and writes
   * the visible splats' indices back to front into `order` (a Uint32Array
   * of at least count elements, over any buffer); returns how many. The
   * same order as batch.cullSorted(frustum).sorted. On error a SatcError is
   * thrown and `order` is unchanged.
   */
  sort(camera, order) {
    let f = camera;
    if (!(camera instanceof Frustum)) {
      f = this._satc.frustumFromMatrix(camera, camera instanceof Float32Array ? this._f32Opts : this._anyOpts, this._frustum);
    }
    return this.batch.orderInto(f, order, this._opts);
  }

  /** Frees the module memory. */
  dispose() {
    this.batch.dispose();
  }
}

/**
 * A sorter over `src`, the bytes of a 3DGS `.ply` file or of `.splat`
 * records (an ArrayBuffer, SharedArrayBuffer or typed array; copied into
 * module memory once). opts: format 'ply' | 'splat' (default: 'ply' when
 * the bytes start with "ply"), k (the box half size in sigmas, default 3),
 * mode 'conservative' (default) | 'exact', sort 16 (default) | 32, and for
 * matrix cameras depth 'webgl' | 'webgpu' and reversed.
 */
export function splatSorter(satc, src, opts = {}) {
  return new SplatSorter(satc, src, opts);
}

