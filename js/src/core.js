// The Satc object: one instantiated module, its frusta, culls and queries.

import { Heap } from './memory.js';
import { Batch } from './batch.js';
import { Frustum, FRUSTUM_BYTES } from './frustum.js';
import { Output } from './output.js';
import { clipCamera } from './clip.js';
import { numbers, options } from './check.js';
import { DepthPyramid, OccluderMesh, sameView } from './pyramid.js';
import { SatcError } from './errors.js';

const MAX_VIEWS = 64;
const ARGS_BYTES = 1024; // camera, matrix, planes (16 x 4 floats), ray ...
const RES_BYTES = 16; // satc_results on wasm32
const VRES_BYTES = 16 + 3 * 4 * MAX_VIEWS; // satc_view_results + its pointer and count tables
const TRANSIENT_KINDS = 4; // caller-array batches kept for reuse (by form, layout, local)
const MODES = { conservative: 0, exact: 1 };
const SIZE_MAX = 0xffffffff;

const DEPTH = { webgl: 0, '[-1,1]': 0, webgpu: 2, '[0,1]': 2 };


// Does `m` (an array-like) hold a number that float32 rounds?
function notFloats(m) {
  if (m instanceof Float32Array || !m || typeof m.length !== 'number') return false;
  for (let i = 0; i < m.length; i++) if (typeof m[i] === 'number' && Number.isFinite(m[i]) && Math.fround(m[i]) !== m[i]) return true;
  return false;
}
export class Satc {
  /** @internal use load() */
  constructor(exports, simd) {
    this._x = exports;
    this._heap = new Heap(exports);
    this._live = new Set();
    this._transient = new Map();
    /** True when the SIMD128 module was loaded. */
    this.simd = simd;
    const h = this._heap;
    const fixed = h.alloc(ARGS_BYTES + RES_BYTES + VRES_BYTES + MAX_VIEWS * FRUSTUM_BYTES, 'load');
    this._args = fixed;
    this._res = fixed + ARGS_BYTES;
    this._vres = this._res + RES_BYTES;
    this._slots = this._vres + VRES_BYTES;
    this._scratch = new Output(this, 'scratch');
    // Every module-owned view in this package is re-derived on growth; the
    // listeners let callers (and satc/three) re-point theirs.
    h.listeners.add(() => {
      for (const b of this._live) b._epoch = -1;
    });
  }

  /** satc's version, "MAJOR.MINOR.PATCH", from the module. */
  get version() {
    const v = this._x.satc_version() >>> 0;
    return `${Math.floor(v / 10000)}.${Math.floor(v / 100) % 100}.${v % 100}`;
  }

  /** The path the module culls with ("simd128" or "scalar"), from satc_isa_name. */
  get isa() {
    const p = this._x.satc_isa_name(this._x.satc_isa_active()) >>> 0;
    const u8 = this._heap.u8;
    let s = '';
    for (let i = p; u8[i] !== 0; i++) s += String.fromCharCode(u8[i]);
    return s;
  }

  /** The module's memory (its buffer changes on growth). */
  get memory() {
    return this._heap.memory;
  }

  /** Bytes of module memory now. */
  get memoryBytes() {
    return this._heap.memory.buffer.byteLength;
  }

  /** Counts memory growths since load; module views taken before a change are detached. */
  get memoryEpoch() {
    return this._heap.epoch;
  }

  /** Calls fn(epoch) after each memory growth, once every package view is re-derived. Returns an unsubscribe function. */
  onMemoryGrow(fn) {
    this._heap.listeners.add(fn);
    return () => this._heap.listeners.delete(fn);
  }

  /** Grows the heap so that `bytes` more can be allocated without growing the memory again. */
  reserve(bytes) {
    if (!Number.isFinite(bytes) || bytes < 0) this._heap.fail(-9, `reserve: ${bytes} bytes`);
    const p = this._heap.alloc(bytes, 'reserve');
    this._heap.free(p);
  }

  /** satc_status_string of a status code. */
  statusString(status) {
    return this._heap.statusString(status);
  }

  // ---------------------------------------------------------------- frusta

  _frustum(st, what, target) {
    this._heap.check(st, what);
    const out = target ?? new Frustum();
    out.bytes.set(this._heap.u8.subarray(this._slots, this._slots + FRUSTUM_BYTES));
    return out;
  }

  _vec(p, v, n, what) {
    this._heap.sync(); // someone may have grown the memory behind our back
    numbers(this._heap, v, what);
    if (v.length !== n) this._heap.fail(-13, `${what}: expected ${n} numbers`);
    for (let i = 0; i < n; i++) this._heap.f32[(p >>> 2) + i] = v[i];
  }

  /**
   * Frustum of a 4x4 view-projection matrix (16 numbers, column-major as
   * three.js Matrix4.elements unless rowMajor). depth: 'webgl' ([-1, 1],
   * default) or 'webgpu' ([0, 1]); reversed: reversed Z; infiniteFar.
   * Writes into `target` when given (unchanged on error).
   */
  frustumFromMatrix(m, opts, target) {
    opts = options(this._heap, opts, 'frustumFromMatrix');
    const depth = DEPTH[opts.depth ?? 'webgl'];
    if (depth === undefined) this._heap.fail(-8, `frustumFromMatrix: depth ${opts.depth}`);
    if (opts.double) return this._frustumFromMatrixD(m, opts, depth, target);
    // numbers a float does not hold (three.js's double matrices): rounding
    // them to float would move the planes (the far one by up to about
    // 2^-24 far^2 / near), so they are solved in double unless the caller
    // asks for the float path (double: false)
    if (opts.double === undefined && !opts.infiniteFar && notFloats(m)) {
      try {
        return this._frustumFromMatrixD(m, opts, depth, target);
      } catch (e) {
        if (!(e instanceof SatcError)) throw e; // not a bounded frustum in double: the float path decides
      }
    }
    const conv = (opts.rowMajor ? 1 : 0) | depth | (opts.reversed ? 4 : 0) | (opts.infiniteFar ? 8 : 0);
    this._vec(this._args, m, 16, 'frustumFromMatrix');
    const st = this._x.satc_frustum_from_matrix(this._slots, this._args, conv);
    return this._frustum(st, 'frustumFromMatrix', target);
  }

  // The double path: the clip volume's corners solved in double, held by a camera.
  _frustumFromMatrixD(m, opts, depth, target) {
    const what = 'frustumFromMatrix (double)';
    if (opts.infiniteFar) this._heap.fail(-8, `${what}: infiniteFar needs the float path`);
    numbers(this._heap, m, what);
    if (m.length !== 16) this._heap.fail(-13, `${what}: expected 16 numbers`);
    let e = Array.from(m);
    if (!e.every(Number.isFinite)) this._heap.fail(-2, what);
    if (opts.rowMajor) e = e.map((_, i) => e[(i & 3) * 4 + (i >> 2)]);
    const cam = clipCamera(e, depth === 2, opts.reversed === true);
    if (typeof cam === 'number') this._heap.fail(cam, `${what}: the clip volume is not a bounded frustum`);
    return this.frustumFromCamera(cam, target);
  }

  /** Symmetric perspective camera: eye, dir, up (unit, orthogonal), fovy (radians), aspect, near, far (may be Infinity). */
  frustumPerspective(c, target) {
    if (!c || typeof c !== 'object') this._heap.fail(-1, 'frustumPerspective: no camera');
    const a = this._args;
    this._vec(a, c.eye, 3, 'frustumPerspective eye');
    this._vec(a + 12, c.dir, 3, 'frustumPerspective dir');
    this._vec(a + 24, c.up, 3, 'frustumPerspective up');
    const st = this._x.satc_frustum_perspective(this._slots, a, a + 12, a + 24, c.fovy, c.aspect, c.near, c.far ?? Infinity);
    return this._frustum(st, 'frustumPerspective', target);
  }

  /**
   * A camera aimed like three's Object3D.lookAt or glm::lookAt: eye and a
   * target point (or a view direction `dir`), up any vector not parallel to
   * the view ([0, 1, 0] by default); satc builds the frame. Perspective:
   * fovy (radians), aspect, near, far (may be Infinity). batchOrigin: the
   * volumes are stored relative to it (eye and target kept in double).
   */
  frustumLookAt(c, into) {
    return this._lookAt(c, false, 'frustumLookAt', into);
  }

  /** frustumLookAt for an orthographic camera: left < right, bottom < top (camera x right, y up) and near < far, all finite. */
  frustumLookAtOrtho(c, into) {
    return this._lookAt(c, true, 'frustumLookAtOrtho', into);
  }

  _lookAt(c, ortho, what, into) {
    if (!c || typeof c !== 'object') this._heap.fail(-1, `${what}: no camera`);
    if ((c.target == null) === (c.dir == null)) this._heap.fail(-1, `${what}: give either target or dir`);
    const a = this._args, q = a >>> 2, x = this._x;
    const up = c.up ?? [0, 1, 0];
    const far = c.far ?? (ortho ? NaN : Infinity);
    const lens = ortho ? [c.left, c.right, c.bottom, c.top, c.near, far] : [c.fovy, c.aspect, c.near, far];
    let st;
    if (c.batchOrigin || (ortho && c.dir)) {
      // eye, target and the batch origin in double (a direction becomes eye + dir there)
      const e = numbers(this._heap, c.eye, `${what} eye`), o = c.batchOrigin ?? [0, 0, 0];
      const t = c.target ? numbers(this._heap, c.target, `${what} target`) : numbers(this._heap, c.dir, `${what} dir`);
      this._vec(a + 72, up, 3, `${what} up`);
      if (c.batchOrigin) numbers(this._heap, o, `${what} batchOrigin`);
      for (const [v, n] of [[e, 'eye'], [t, c.target ? 'target' : 'dir'], [o, 'batchOrigin']]) {
        if (v.length !== 3) this._heap.fail(-13, `${what} ${n}: expected 3 numbers`);
      }
      const f64 = this._heap.f64;
      for (let k = 0; k < 3; k++) {
        f64[q / 2 + k] = e[k];
        f64[q / 2 + 3 + k] = c.target ? t[k] : e[k] + t[k];
        f64[q / 2 + 6 + k] = o[k];
      }
      st = ortho
        ? x.satc_frustum_look_at_ortho_d(this._slots, a, a + 24, a + 72, ...lens, a + 48)
        : x.satc_frustum_look_at_d(this._slots, a, a + 24, a + 72, ...lens, a + 48);
    } else {
      this._vec(a, c.eye, 3, `${what} eye`);
      this._vec(a + 12, c.target ?? c.dir, 3, `${what} ${c.target ? 'target' : 'dir'}`);
      this._vec(a + 24, up, 3, `${what} up`);
      const fn = ortho ? x.satc_frustum_look_at_ortho : c.target ? x.satc_frustum_look_at : x.satc_frustum_look_to;
      st = fn(this._slots, a, a + 12, a + 24, ...lens);
    }
    return this._frustum(st, what, into);
  }

  /**
   * Eberly camera: origin, left, up, dir (right-handed orthonormal,
   * left x up = dir), bounds l0 < l1 along left and u0 < u1 along up on the
   * near plane (perspective) or of the box (orthographic), near, far.
   * batchOrigin (3 numbers, doubles) makes it satc_frustum_from_camera_d.
   */
  frustumFromCamera(c, target) {
    if (!c || typeof c !== 'object') this._heap.fail(-1, 'frustumFromCamera: no camera');
    const a = this._args, f = this._heap.f32, q = a >>> 2;
    const d = c.batchOrigin ? 12 : 0; // satc_camera_d has a double origin first
    if (c.batchOrigin) {
      this._vec(a + 512, c.batchOrigin, 3, 'frustumFromCamera batchOrigin');
      const f64 = this._heap.f64, o = c.origin;
      if (!o || o.length !== 3) this._heap.fail(-13, 'frustumFromCamera origin: expected 3 numbers');
      f64[q / 2] = o[0]; f64[q / 2 + 1] = o[1]; f64[q / 2 + 2] = o[2];
      const b = c.batchOrigin;
      f64[(q + 128) / 2] = b[0]; f64[(q + 128) / 2 + 1] = b[1]; f64[(q + 128) / 2 + 2] = b[2];
    } else {
      this._vec(a, c.origin, 3, 'frustumFromCamera origin');
    }
    this._vec(a + 12 + d, c.left, 3, 'frustumFromCamera left');
    this._vec(a + 24 + d, c.up, 3, 'frustumFromCamera up');
    this._vec(a + 36 + d, c.dir, 3, 'frustumFromCamera dir');
    const r = q + 12 + d / 4;
    f[r] = c.l0; f[r + 1] = c.l1; f[r + 2] = c.u0; f[r + 3] = c.u1; f[r + 4] = c.near; f[r + 5] = c.far;
    this._heap.i32[r + 6] = c.orthographic ? 1 : 0;
    const st = c.batchOrigin
      ? this._x.satc_frustum_from_camera_d(this._slots, a, a + 512)
      : this._x.satc_frustum_from_camera(this._slots, a);
    return this._frustum(st, 'frustumFromCamera', target);
  }

  /** Convex volume of 1..16 planes a x + b y + c z + d >= 0 (4 numbers each, flat or nested), margin >= 0. */
  frustumFromPlanes(planes, margin = 0, target) {
    const nested = Array.isArray(planes) && planes.length > 0 && planes.every((p) => ArrayBuffer.isView(p) || Array.isArray(p));
    if (nested) planes.forEach((p, i) => {
      numbers(this._heap, p, `frustumFromPlanes: plane ${i}`);
      if (p.length !== 4) this._heap.fail(-13, `frustumFromPlanes: plane ${i} has ${p.length} numbers, not 4`);
    });
    const flat = nested ? planes.flatMap((p) => Array.from(p)) : numbers(this._heap, planes, 'frustumFromPlanes');
    if (flat.length === 0 || flat.length % 4 !== 0 || flat.length > 64) {
      this._heap.fail(flat && flat.length > 64 ? -9 : -13, 'frustumFromPlanes: expected 1..16 planes of 4 numbers');
    }
    this._vec(this._args, flat, flat.length, 'frustumFromPlanes');
    const st = this._x.satc_frustum_from_planes(this._slots, this._args, flat.length / 4, margin);
    return this._frustum(st, 'frustumFromPlanes', target);
  }

  /** Query box as a frustum: center, half extents and optional axes (9 numbers, rows A0 A1 A2; default world axes). */
  frustumFromBox(box, target) {
    if (!box || typeof box !== 'object') this._heap.fail(-1, 'frustumFromBox: no box');
    const a = this._args;
    this._vec(a, box.center, 3, 'frustumFromBox center');
    this._vec(a + 12, box.axes ?? [1, 0, 0, 0, 1, 0, 0, 0, 1], 9, 'frustumFromBox axes');
    this._vec(a + 48, box.half, 3, 'frustumFromBox half');
    return this._frustum(this._x.satc_frustum_from_box(this._slots, a), 'frustumFromBox', target);
  }

  /** Segment p0-p1 as a query frustum. */
  frustumFromSegment(p0, p1, target) {
    const a = this._args;
    this._vec(a, p0, 3, 'frustumFromSegment p0');
    this._vec(a + 12, p1, 3, 'frustumFromSegment p1');
    return this._frustum(this._x.satc_frustum_from_segment(this._slots, a, a + 12), 'frustumFromSegment', target);
  }

  // ----------------------------------------------------------------- boxes

  _obb(st, what) {
    this._heap.check(st, what);
    const f = this._heap.f32, q = this._slots >>> 2;
    return { center: Array.from(f.subarray(q, q + 3)), axes: Array.from(f.subarray(q + 3, q + 12)), extent: Array.from(f.subarray(q + 12, q + 15)) };
  }

  /** satc_obb_from_aabb: the box [min, max] as { center, axes, extent } (SATC_ERR_BOX for min > max or NaN). */
  obbFromAABB(min, max) {
    const a = this._args;
    this._vec(a, min, 3, 'obbFromAABB min');
    this._vec(a + 12, max, 3, 'obbFromAABB max');
    return this._obb(this._x.satc_obb_from_aabb(this._slots, a, a + 12), 'obbFromAABB');
  }

  /** satc_obb_from_quat: center, rotation quaternion (x, y, z, w; normalised), half extents >= 0. */
  obbFromQuat(center, q, half) {
    const a = this._args;
    this._vec(a, center, 3, 'obbFromQuat center');
    this._vec(a + 12, q, 4, 'obbFromQuat q');
    this._vec(a + 28, half, 3, 'obbFromQuat half');
    return this._obb(this._x.satc_obb_from_quat(this._slots, a, a + 12, a + 28), 'obbFromQuat');
  }

  /** satc_obb_from_matrix: a world matrix (16, column-major unless rowMajor; no shear) applied to the local box [lmin, lmax], extents rounded outward. */
  obbFromMatrix(m, lmin, lmax, opts) {
    opts = options(this._heap, opts, 'obbFromMatrix');
    const a = this._args;
    this._vec(a, m, 16, 'obbFromMatrix');
    this._vec(a + 64, lmin, 3, 'obbFromMatrix lmin');
    this._vec(a + 76, lmax, 3, 'obbFromMatrix lmax');
    return this._obb(this._x.satc_obb_from_matrix(this._slots, a, opts.rowMajor ? 1 : 0, a + 64, a + 76), 'obbFromMatrix');
  }

  /** Restricts the module to the paths in mask (1 scalar, 32 simd128; satc_isa_set_mask); returns the active path's name. */
  setIsaMask(mask) {
    this._heap.check(this._x.satc_isa_set_mask(mask >>> 0), 'setIsaMask');
    return this.isa;
  }

  // --------------------------------------------------------------- batches

  /**
   * A batch of `capacity` volumes in module memory. form: 'aabb',
   * 'minmax', 'spheres', 'obb', 'halfAxes' or 'instances' (options:
   * layout, local). `arrays` (optional) are copied in once.
   */
  batch(form, capacity, opts, arrays) {
    const b = new Batch(this, form, capacity, opts);
    if (arrays) {
      try {
        b.set(arrays, 0, true);
      } catch (e) {
        b.dispose();
        throw e;
      }
    }
    return b;
  }

  /** Module-owned output buffers for cull(..., { into }): no copies out. */
  output(capacity = 0) {
    if (!Number.isInteger(capacity) || capacity < 0 || capacity > 0x3fffffff) this._heap.fail(-9, `output: capacity ${capacity}`);
    const o = new Output(this, 'output');
    if (capacity > 0) o._ensure(capacity, { indices: true, bitmask: true, classes: true });
    return o;
  }

  // Caller arrays { form, ...fields, layout, local } culled with one copy in.
  _transientBatch(spec, what) {
    const h = this._heap;
    const form = spec.form;
    const opts = options(h, { layout: spec.layout, local: spec.local }, what);
    const key = `${form}|${opts.layout}|${JSON.stringify(opts.local)}`;
    const first = { aabb: 'center', minmax: 'min', spheres: 'radius', obb: 'center', halfAxes: 'center', instances: 'matrices' }[form];
    if (!first) h.fail(-8, `${what}: unknown form ${String(form)}`);
    const per = form === 'spheres' ? 1 : form === 'instances' ? (opts.layout && opts.layout !== 'column-major-4x4' ? 12 : 16) : 3;
    const arr = spec[first];
    if (arr !== undefined) numbers(h, arr, `${what}: ${first}`);
    if (!arr || arr.length % per !== 0) h.fail(-13, `${what}: ${first} must hold a multiple of ${per} numbers`);
    const n = arr.length / per;
    let b = this._transient.get(key);
    this._transient.delete(key); // re-inserted last: the map is in order of use
    if (!b || b.capacity < n) {
      b?.dispose();
      b = new Batch(this, form, Math.max(n, 2 * (b?.capacity ?? 0)), opts);
    }
    this._transient.set(key, b);
    for (const [k, old] of this._transient) {
      if (this._transient.size <= TRANSIENT_KINDS) break;
      old.dispose(); // the least recently used kind: the cache stays bounded
      this._transient.delete(k);
    }
    const arrays = {};
    for (const k of b.fields) if (spec[k] !== undefined) arrays[k] = spec[k];
    for (const k of b.fields) {
      const f = b._fields.get(k);
      const want = f.per > 0 ? f.per * n : -f.per;
      if (arrays[k] === undefined || arrays[k].length !== want) {
        h.fail(-13, `${what}: ${k} must hold ${want} numbers`);
      }
    }
    b.set(arrays);
    b._count = n;
    return b;
  }

  _batchOf(batch, what) {
    if (batch instanceof Batch) {
      if (batch._satc !== this) this._heap.fail(-1, `${what}: the batch belongs to another load()`);
      batch._live(what);
      return batch;
    }
    if (batch && typeof batch === 'object') return this._transientBatch(batch, what);
    return this._heap.fail(-1, `${what}: no batch`);
  }

  _range(b, opts, what) {
    const first = opts.first ?? 0;
    const count = opts.count ?? b._count - first;
    if (!Number.isInteger(first) || !Number.isInteger(count) || first < 0 || count < 0 || first + count > b.capacity) {
      this._heap.fail(-9, `${what}: range [${first}, ${first}+${count}) outside the batch's ${b.capacity} volumes`);
    }
    return [first, count];
  }

  _mode(opts, what) {
    const m = MODES[opts.mode ?? 'conservative'];
    if (m === undefined) this._heap.fail(-8, `${what}: mode ${opts.mode}`);
    return m;
  }

  _wants(opts) {
    const o = opts.output ?? 'indices';
    const list = Array.isArray(o) ? o : [o];
    const w = { indices: false, bitmask: false, classes: false };
    for (const k of list) {
      if (!(k in w)) this._heap.fail(-8, `output ${k}`);
      w[k] = true;
    }
    return w;
  }

  // Runs one single-view call (cull or query) writing satc_results.
  _run(batch, opts, what, call) {
    opts = options(this._heap, opts, what);
    const b = this._batchOf(batch, what);
    const [first, count] = this._range(b, opts, what);
    const mode = this._mode(opts, what);
    const wants = this._wants(opts);
    const out = opts.into ?? this._scratch;
    if (!(out instanceof Output)) this._heap.fail(-1, `${what}: into is not a satc output`);
    if (out._satc !== this) this._heap.fail(-1, `${what}: into belongs to another load()`);
    const plan = out._plan(count);
    const u32 = this._heap.u32, r = this._res >>> 2;
    u32[r] = wants.bitmask ? plan.bitmask : 0;
    u32[r + 1] = wants.classes ? plan.classes : 0;
    u32[r + 2] = wants.indices ? plan.indices : 0;
    u32[r + 3] = 0;
    const st = call(b._desc, first, count, mode, this._res, plan);
    if (st !== 0) {
      out._drop(plan); // the last answer stays as it was
      this._heap.check(st, what);
    }
    out._adopt(plan);
    out._done(this._heap.u32[r + 3], count, wants, !!opts.t);
    return opts.into ? out : out._copy();
  }

  /**
   * Culls batch volumes [first, first + count) against a frustum.
   * opts: mode 'conservative' | 'exact'; output: 'indices' (default),
   * 'bitmask', 'classes' or a list; into: an Output (module-owned, no copy).
   * Returns { visible, indices?, bitmask?, classes? }.
   */
  cull(frustum, batch, opts) {
    const occ = opts?.occlusion;
    if (occ !== undefined && occ !== null) return this._cullOccluded(frustum, batch, opts, occ);
    this._putFrustum(frustum, 0, 'cull');
    const r = this._run(batch, opts, 'cull', (d, first, count, mode, res) =>
      this._x.satc_cull(this._slots, d, first, count, mode, res));
    if (r instanceof Output) r._occluded = 0;
    return r;
  }

  // cull with { occlusion: pyramid }: satc_cull_occluded against the pyramid's view.
  _cullOccluded(frustum, batch, opts, pyr) {
    const h = this._heap, what = 'cull (occlusion)';
    if (!(pyr instanceof DepthPyramid) || pyr._satc !== this) h.fail(-14, `${what}: occlusion is not a depth pyramid of this module`);
    pyr._ready(what);
    this._putFrustum(frustum, 0, what);
    if (!sameView(frustum, pyr._view)) h.fail(-14, `${what}: the pyramid was made for another view (begin it with this frustum)`);
    if (!pyr._built) h.fail(-14, `${what}: call build() after drawing occluders`);
    const n = this._args + 480;
    let occluded = 0;
    const r = this._run(batch, opts, what, (d, first, count, mode, res) => {
      const st = this._x.satc_cull_occluded(pyr._p, d, first, count, mode, res, 0, n);
      if (st === 0) occluded = h.u32[n >>> 2];
      return st;
    });
    if (r instanceof Output) r._occluded = occluded;
    else r.occluded = occluded;
    return r;
  }

  /** A width x height depth pyramid in module memory (64 x 32 .. 2048 x 1024); opts.merge: see DepthPyramid. */
  depthPyramid(width, height, opts) {
    return new DepthPyramid(this, width, height, opts);
  }

  /** Occluder triangles copied into module memory: positions (3 floats a vertex), optional Uint16Array/Uint32Array indices. */
  occluderMesh(positions, indices) {
    return new OccluderMesh(this, positions, indices);
  }

  _putFrustum(f, slot, what) {
    this._heap.sync();
    if (!(f instanceof Frustum) || f.kind === undefined) this._heap.fail(-1, `${what}: not a built frustum`);
    this._heap.u8.set(f.bytes, this._slots + slot * FRUSTUM_BYTES);
  }

  /** Volumes touching the ball (center, radius): outputs as cull. */
  querySphere(center, radius, batch, opts) {
    this._vec(this._args, center, 3, 'querySphere center');
    return this._run(batch, opts, 'querySphere', (d, first, count, mode, res) =>
      this._x.satc_query_sphere(this._args, radius, d, first, count, mode, res));
  }

  /**
   * Volumes the ray origin + t dir, 0 <= t <= tmax touches: outputs as
   * cull, plus t (entry parameter per hit, with output 'indices') and
   * nearest (index of the first hit, -1 when none).
   */
  queryRay(origin, dir, tmax, batch, opts) {
    const a = this._args;
    this._vec(a, origin, 3, 'queryRay origin');
    this._vec(a + 12, dir, 3, 'queryRay dir');
    if (dir[0] === 0 && dir[1] === 0 && dir[2] === 0) {
      this._heap.fail(-5, 'queryRay: dir is zero (for a point use querySphere(origin, 0, ...))');
    }
    let nearest = -1;
    const o = { ...options(this._heap, opts, 'queryRay'), t: true };
    const res = this._run(batch, o, 'queryRay', (d, first, count, mode, r, out) => {
      const st = this._x.satc_query_ray(a, a + 12, tmax, d, first, count, mode, r, out.t, a + 24);
      if (st === 0) {
        const n = this._heap.u32[(a + 24) >>> 2];
        nearest = n === SIZE_MAX ? -1 : n;
      }
      return st;
    });
    res.nearest = nearest;
    return res;
  }

  /**
   * Culls a batch against 1..64 frusta in one pass. opts: mode, first,
   * count, masks (default true), indices, classes. Returns { visible:
   * number[], masks (Uint8/16/32Array or BigUint64Array by view count),
   * indices?: Uint32Array[], classes?: Uint8Array[] }, all copies.
   */
  cullViews(frusta, batch, opts) {
    const h = this._heap, what = 'cullViews';
    opts = options(h, opts, what);
    if (frusta != null && !Array.isArray(frusta)) h.fail(-1, `${what}: frusta is not an array`);
    const K = frusta?.length ?? 0;
    if (K < 1 || K > MAX_VIEWS) h.fail(-9, `${what}: ${K} views (1..${MAX_VIEWS})`);
    for (let v = 0; v < K; v++) this._putFrustum(frusta[v], v, what);
    const b = this._batchOf(batch, what);
    const [first, count] = this._range(b, opts, what);
    const mode = this._mode(opts, what);
    const wm = opts.masks ?? true, wi = !!opts.indices, wc = !!opts.classes;
    const word = K <= 8 ? 1 : K <= 16 ? 2 : K <= 32 ? 4 : 8;
    const need = 32 + (wm ? word * count + 8 : 0) + (wi ? 4 * K * count : 0) + (wc ? K * count : 0);
    const base = this._scratch._raw(need);
    const masks = wm ? (base + 7) & ~7 : 0;
    const idx = (wm ? masks + word * count + 15 : base + 15) & ~15;
    const cls = idx + (wi ? 4 * K * count : 0);
    const u32 = h.u32, r = this._vres >>> 2, tabs = r + 4;
    u32[r] = masks;
    u32[r + 1] = wi ? this._vres + 16 : 0;
    u32[r + 2] = wc ? this._vres + 16 + 4 * MAX_VIEWS : 0;
    u32[r + 3] = this._vres + 16 + 8 * MAX_VIEWS;
    for (let v = 0; v < K; v++) {
      u32[tabs + v] = idx + 4 * count * v;
      u32[tabs + MAX_VIEWS + v] = cls + count * v;
    }
    const st = this._x.satc_cull_views(this._slots, K, b._desc, first, count, mode, this._vres);
    h.check(st, what);
    const visible = Array.from(h.u32.subarray(tabs + 2 * MAX_VIEWS, tabs + 2 * MAX_VIEWS + K));
    const res = { visible };
    if (wm) {
      const C = [Uint8Array, Uint16Array, null, Uint32Array, null, null, null, BigUint64Array][word - 1];
      res.masks = new C(h.buffer, masks, count).slice();
    }
    if (wi) res.indices = visible.map((n, v) => h.u32.slice((idx >>> 2) + count * v, (idx >>> 2) + count * v + n));
    if (wc) res.classes = visible.map((n, v) => h.u8.slice(cls + count * v, cls + count * (v + 1)));
    return res;
  }

  // One float AABB holding volumes [0, count) (satc_group_bounds, one group):
  // center NaN and half +Inf when one of them is not finite.
  _unionBox(batch, count) {
    const b = this._batchOf(batch, 'bounds');
    const h = this._heap, p = this._scratch._raw(32), g = (b._desc + 84) >>> 2;
    const groups = h.u32[g];
    h.u32[g] = 0;
    const st = this._x.satc_group_bounds(b._desc, count, Math.max(count, 1), 0, 1, p, p + 12);
    h.u32[g] = groups;
    h.check(st, 'bounds');
    const f = h.f32, q = p >>> 2;
    return { center: [f[q], f[q + 1], f[q + 2]], half: [f[q + 3], f[q + 4], f[q + 5]] };
  }

  /** World AABBs (satc_to_aabbs) of volumes [first, first + count): { center, half } float3 arrays. */
  toAABBs(batch, opts) {
    this._heap.sync();
    opts = options(this._heap, opts, 'toAABBs');
    const b = this._batchOf(batch, 'toAABBs');
    const [first, count] = this._range(b, opts, 'toAABBs');
    const p = this._scratch._raw(24 * count);
    const st = this._x.satc_to_aabbs(b._desc, first, count, p, p + 12 * count);
    this._heap.check(st, 'toAABBs');
    const f = this._heap.f32;
    return { center: f.slice(p >>> 2, (p >>> 2) + 3 * count), half: f.slice((p >>> 2) + 3 * count, (p >>> 2) + 6 * count) };
  }
}
