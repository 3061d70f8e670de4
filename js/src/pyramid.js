// A depth pyramid in module memory (satc_pyramid): the view it was made
// for, filled by satc's occluder rasterizer (batches and triangle meshes)
// or from a depth buffer read back from the GPU, then used by
// cull(frustum, batch, { occlusion: pyramid }).

import { FRUSTUM_BYTES } from './frustum.js';
import { numbers, options } from './check.js';

// sizeof(satc_pyramid) on wasm32: the view, 3 sizes, 3 tables of 12, the pointer, the test options.
const PYRAMID_BYTES = FRUSTUM_BYTES + 12 + 3 * 4 * 12 + 4 + 8;
const HEAD_BYTES = (PYRAMID_BYTES + 63) & ~63;
const TEST_DEPTH_PER_TEXEL = 1, TEST_BUDGET_DEFAULT = 4096;
const OFF = { width: FRUSTUM_BYTES, height: FRUSTUM_BYTES + 4, levels: FRUSTUM_BYTES + 8, levelW: FRUSTUM_BYTES + 12, levelH: FRUSTUM_BYTES + 60, levelOff: FRUSTUM_BYTES + 108 };

const RASTER_CULL_BACK = 1, RASTER_FRONT_CW = 2;
const IMAGE_TOP_DOWN = 16;
const DEPTH_CONV = { webgl: 0, '[-1,1]': 0, webgpu: 2, '[0,1]': 2 };
const FORMATS = { window: 1, ndc: 2, linear: 3, unorm16: 4, unorm24: 5, unorm24high: 6, unorm32: 7 };
const PIXEL_BYTES = { 1: 4, 2: 4, 3: 4, 4: 2, 5: 4, 6: 4, 7: 4 };

function isTyped(a, C) {
  return a instanceof C && !(a.buffer.byteLength === 0 && a.length > 0);
}

/**
 * Triangles kept in module memory for the rasterizer: positions (3 floats
 * a vertex) and optional 16- or 32-bit indices, copied in once.
 */
export class OccluderMesh {
  /** @internal use Satc#occluderMesh */
  constructor(satc, positions, indices) {
    const h = satc._heap, what = 'occluderMesh';
    this._satc = satc;
    numbers(h, positions, `${what}: positions`);
    if (positions.length % 3 !== 0 || positions.length === 0) h.fail(-13, `${what}: positions must hold 3 numbers a vertex`);
    const nv = positions.length / 3;
    let bits = 0, ni = 0;
    if (indices !== undefined && indices !== null) {
      if (isTyped(indices, Uint16Array)) bits = 16;
      else if (isTyped(indices, Uint32Array)) bits = 32;
      else h.fail(-13, `${what}: indices must be a Uint16Array or a Uint32Array`);
      if (indices.length % 3 !== 0) h.fail(-13, `${what}: indices must hold 3 a triangle`);
      for (let i = 0; i < indices.length; i++) if (indices[i] >= nv) h.fail(-9, `${what}: index ${indices[i]} past the ${nv} vertices`);
      ni = indices.length;
    } else if (nv % 3 !== 0) {
      h.fail(-13, `${what}: without indices, positions must hold 3 vertices a triangle`);
    }
    const p = h.alloc(12 * nv + (bits / 8) * ni + 16, what);
    h.f32.set(positions, p >>> 2);
    const ip = p + ((12 * nv + 15) & ~15);
    if (bits === 16) h.u8.set(new Uint8Array(indices.buffer, indices.byteOffset, 2 * ni), ip);
    if (bits === 32) h.u32.set(indices, ip >>> 2);
    this._p = p;
    this._indices = bits ? ip : 0;
    this._bits = bits || 32;
    this.vertexCount = nv;
    this.triangleCount = bits ? ni / 3 : nv / 3;
  }

  /** Frees the module memory (using the mesh afterwards throws). */
  dispose() {
    if (!this._p) return;
    this._satc._heap.free(this._p);
    this._p = 0;
  }

  get disposed() {
    return this._p === 0;
  }
}

/**
 * A width x height depth pyramid (64 x 32 .. 2048 x 1024 texels) in
 * module memory. Per frame: begin(frustum) (clears it for that view), then
 * draw occluders (rasterize, rasterizeMesh) or fill(depthBuffer), then
 * build(); cull(frustum, batch, { occlusion: pyramid }) with the same
 * frustum. opts.merge: occluders drawn since begin merge within texels
 * (each texel a 4 x 4 grid of cells; a texel that several occluders cover
 * together, none of them whole, takes the farthest of their depths): more
 * is hidden, each occluder costs more to draw, 6 more bytes a texel.
 * opts.depthPerTexel: culls also bound a volume's depth within texels
 * (1-2 % fewer kept, about 1.2x a cull's time); opts.testBudget: the most
 * texel bounds one cull computes (0 .. 2^32 - 1, default 4096), then the
 * plain test. Both hold for every begin.
 */
export class DepthPyramid {
  /** @internal use Satc#depthPyramid */
  constructor(satc, width, height, opts) {
    const h = satc._heap, x = satc._x, what = 'depthPyramid';
    opts = options(h, opts, what);
    const perTexel = opts.depthPerTexel ?? false, budget = opts.testBudget ?? null;
    if (typeof perTexel !== 'boolean') h.fail(-8, `${what}: depthPerTexel must be true or false`);
    if (budget !== null && !perTexel) h.fail(-8, `${what}: testBudget only with depthPerTexel: true`);
    if (budget !== null && !(Number.isInteger(budget) && budget >= 0 && budget <= 0xffffffff)) {
      h.fail(-9, `${what}: testBudget must be an integer in 0 .. 4294967295`);
    }
    for (const [k, v] of [['width', width], ['height', height]]) {
      if (!Number.isInteger(v) || v < 1) h.fail(-9, `${what}: ${k} must be a positive integer`);
    }
    const bytes = x.satc_pyramid_bytes(width, height) >>> 0;
    if (bytes === 0) h.fail(-9, `${what}: ${width} x ${height} outside 64 x 32 .. 2048 x 1024 texels`);
    this._satc = satc;
    this._bytes = bytes;
    this._covBytes = opts.merge ? x.satc_coverage_bytes(width, height) >>> 0 : 0;
    this._p = h.alloc(HEAD_BYTES + bytes + 64 + this._covBytes, what);
    this._storage = (this._p + HEAD_BYTES + 63) & ~63;
    this._cov = this._covBytes ? this._storage + ((bytes + 63) & ~63) : 0;
    this.width = width;
    this.height = height;
    this._test = perTexel ? TEST_DEPTH_PER_TEXEL : 0;
    this._testBudget = perTexel ? (budget ?? TEST_BUDGET_DEFAULT) : 0;
    this._view = null;
    this._built = false;
  }

  _live(what) {
    if (!this._p) this._satc._heap.fail(-14, `${what}: the pyramid was disposed`);
  }

  _ready(what) {
    this._live(what);
    if (!this._view) this._satc._heap.fail(-14, `${what}: call begin(frustum) first`);
  }

  /** The frustum this pyramid is for (set by begin), or null. */
  get view() {
    return this._view;
  }

  /** Whether occluders merge within texels (depthPyramid(w, h, { merge: true })). */
  get merge() {
    return this._cov !== 0;
  }

  // A fresh level 0 starts fresh layers: a layer left from occluders the
  // texels no longer hold would claim their coverage.
  _clearCoverage(what) {
    if (this._cov) this._satc._heap.check(this._satc._x.satc_coverage_clear(this._cov, this._covBytes, this._p), what);
  }

  /** Whether culls test depth per texel (depthPyramid(w, h, { depthPerTexel: true })). */
  get depthPerTexel() {
    return this._test !== 0;
  }

  /** Texel depth bounds one cull may compute, or null without depthPerTexel. */
  get testBudget() {
    return this._test ? this._testBudget : null;
  }

  /** Levels (set by begin). */
  get levels() {
    return this._view ? this._satc._heap.u32[(this._p + OFF.levels) >>> 2] : 0;
  }

  /**
   * Makes the pyramid the one of `frustum` (perspective or orthographic)
   * and clears it: every texel +Infinity, nothing occludes.
   */
  begin(frustum) {
    const s = this._satc, h = s._heap, what = 'depthPyramid.begin';
    this._live(what);
    s._putFrustum(frustum, 0, what);
    h.check(s._x.satc_pyramid_init(this._p, s._slots, this.width, this.height, this._storage, this._bytes), what);
    // init resets the test options: set them again for this view
    h.check(s._x.satc_pyramid_set_test(this._p, this._test, this._testBudget), what);
    this._clearCoverage(what);
    this._view = frustum.clone();
    this._built = false;
    return this;
  }

  _rasterOptions(opts, what, flags = 0) {
    const s = this._satc, h = s._heap, a = s._args + 256;
    const minTexels = opts.minTexels ?? 0;
    if (typeof minTexels !== 'number' || !(minTexels >= 0) || minTexels === Infinity) h.fail(-5, `${what}: minTexels must be a finite number >= 0`);
    const rows = opts.rows ?? [0, 0];
    if (!Array.isArray(rows) || rows.length !== 2 || !rows.every((r) => Number.isInteger(r) && r >= 0)) h.fail(-9, `${what}: rows must be [row0, row1]`);
    h.u32[a >>> 2] = flags;
    h.f32[(a >>> 2) + 1] = minTexels;
    h.u32[(a >>> 2) + 2] = rows[0];
    h.u32[(a >>> 2) + 3] = rows[1];
    h.u32[(a >>> 2) + 4] = this._cov; // merged coverage, or none (0)
    return a;
  }

  /**
   * Draws volumes [first, first + count) of a batch as occluders (each
   * must lie inside opaque geometry). opts: first, count, minTexels
   * (skip occluders covering fewer texels), rows ([row0, row1) tile).
   */
  rasterize(batch, opts) {
    const s = this._satc, what = 'depthPyramid.rasterize';
    opts = options(s._heap, opts, what);
    this._ready(what);
    const b = s._batchOf(batch, what);
    const [first, count] = s._range(b, opts, what);
    const o = this._rasterOptions(opts, what);
    s._heap.check(s._x.satc_pyramid_rasterize(this._p, b._desc, first, count, o), what);
    this._built = false;
    return this;
  }

  /**
   * Draws the triangles of an OccluderMesh (surfaces inside opaque
   * geometry). opts: matrix (16 numbers, column-major, model to world:
   * three.js matrixWorld.elements), cullBack (a closed mesh: skip back
   * faces), frontCW (clockwise front faces), minTexels, rows.
   */
  rasterizeMesh(mesh, opts) {
    const s = this._satc, h = s._heap, what = 'depthPyramid.rasterizeMesh';
    opts = options(h, opts, what);
    this._ready(what);
    if (!(mesh instanceof OccluderMesh) || mesh._satc !== s) h.fail(-1, `${what}: not an occluder mesh of this module`);
    if (mesh.disposed) h.fail(-1, `${what}: the mesh was disposed`);
    const flags = (opts.cullBack ? RASTER_CULL_BACK : 0) | (opts.frontCW ? RASTER_FRONT_CW : 0);
    const o = this._rasterOptions(opts, what, flags);
    const m = s._args + 320, d = s._args + 400;
    let mp = 0;
    if (opts.matrix !== undefined && opts.matrix !== null) {
      s._vec(m, opts.matrix, 16, `${what} matrix`);
      mp = m;
    }
    const q = d >>> 2;
    h.u32[q] = mesh._p;
    h.u32[q + 1] = 12;
    h.u32[q + 2] = mesh.vertexCount;
    h.u32[q + 3] = mesh._indices;
    h.u32[q + 4] = mesh._bits;
    h.u32[q + 5] = mesh.triangleCount;
    h.u32[q + 6] = mp;
    h.u32[q + 7] = 0; // SATC_AFFINE_4X4_COLUMN_MAJOR
    h.check(s._x.satc_pyramid_rasterize_triangles(this._p, d, o), what);
    this._built = false;
    return this;
  }

  /**
   * Fills the pyramid from a depth image of its view (copied in once):
   * a Float32Array of window depth in [0, 1] (format 'window', default),
   * NDC depth ('ndc') or view depth ('linear'); a Uint16Array ('unorm16');
   * a Uint32Array ('unorm24' low bits, 'unorm24high' as GL's 24_8, or
   * 'unorm32'). opts: width, height (pixels), format, depth ('webgl' or
   * 'webgpu'), reversed, infiniteFar, near, far (the projection's),
   * topDown (row 0 is the top: WebGPU readbacks; WebGL's row 0 is the
   * bottom), projection (the projection matrix that rendered the image,
   * 16 numbers column-major as three.js projectionMatrix.elements unless
   * rowMajor: its own depth entries bound the conversion, tighter near
   * the far plane; near, far and infiniteFar are then not read). Builds
   * the levels.
   */
  fill(image, opts) {
    const s = this._satc, h = s._heap, what = 'depthPyramid.fill';
    opts = options(h, opts, what);
    this._ready(what);
    const fmtName = opts.format ?? (isTyped(image, Uint16Array) ? 'unorm16' : 'window');
    const format = FORMATS[fmtName];
    if (!format) h.fail(-8, `${what}: format ${String(fmtName)}`);
    const want = PIXEL_BYTES[format] === 2 ? Uint16Array : format <= 3 ? Float32Array : Uint32Array;
    if (!isTyped(image, want)) h.fail(-13, `${what}: format '${fmtName}' needs a ${want.name}`);
    const { width, height } = opts;
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width > 65536 || height > 65536) {
      h.fail(-9, `${what}: width and height must be integers in 1 .. 65536`);
    }
    if (image.length !== width * height) h.fail(-13, `${what}: ${image.length} pixels, expected ${width} x ${height}`);
    const depth = DEPTH_CONV[opts.depth ?? 'webgl'];
    if (depth === undefined) h.fail(-8, `${what}: depth ${opts.depth}`);
    const conv = depth | (opts.reversed ? 4 : 0) | (opts.infiniteFar ? 8 : 0) | (opts.topDown ? IMAGE_TOP_DOWN : 0);
    const bytes = image.length * PIXEL_BYTES[format];
    const p = s._scratch._raw(bytes + 64);
    h.u8.set(new Uint8Array(image.buffer, image.byteOffset, bytes), p);
    const d = s._args + 400, q = d >>> 2;
    h.u32[q] = p;
    h.u32[q + 1] = width;
    h.u32[q + 2] = height;
    h.u32[q + 3] = width * PIXEL_BYTES[format];
    h.u32[q + 4] = format;
    h.u32[q + 5] = conv;
    h.f32[q + 6] = opts.near ?? NaN;
    h.f32[q + 7] = opts.far ?? (opts.infiniteFar || format === 3 ? 1 : NaN);
    let st;
    if (opts.projection != null) {
      s._vec(d + 32, opts.projection, 16, what);
      st = s._x.satc_pyramid_fill_matrix(this._p, d, d + 32, opts.rowMajor ? 1 : 0);
    } else {
      st = s._x.satc_pyramid_fill(this._p, d);
    }
    h.check(st, what);
    this._clearCoverage(what);
    this._built = true;
    return this;
  }

  /** Reduces level 0 into the other levels (after drawing occluders). */
  build() {
    const s = this._satc, what = 'depthPyramid.build';
    this._ready(what);
    s._heap.check(s._x.satc_pyramid_build(this._p), what);
    this._built = true;
    return this;
  }

  /** Level k's texels (a copy): { width, height, depth: Float32Array } rows bottom first; +Infinity where nothing occludes. */
  level(k = 0) {
    const h = this._satc._heap, what = 'depthPyramid.level';
    this._ready(what);
    if (!Number.isInteger(k) || k < 0 || k >= this.levels) h.fail(-9, `${what}: level ${k} of ${this.levels}`);
    const u = h.u32;
    const w = u[(this._p + OFF.levelW) / 4 + k], hh = u[(this._p + OFF.levelH) / 4 + k], off = u[(this._p + OFF.levelOff) / 4 + k];
    const q = (this._storage >>> 2) + off;
    return { width: w, height: hh, depth: h.f32.slice(q, q + w * hh) };
  }

  /** Frees the module memory (using the pyramid afterwards throws). */
  dispose() {
    if (!this._p) return;
    this._satc._heap.free(this._p);
    this._p = 0;
    this._view = null;
  }

  get disposed() {
    return this._p === 0;
  }
}

/** Bytes of two frusta equal (the pyramid is used with the view it was made for). */
export function sameView(a, b) {
  const x = a.bytes, y = b.bytes;
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}
