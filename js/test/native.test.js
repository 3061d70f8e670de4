// The package's answers against the native library's for the same seeded
// inputs: every form and instance layout, both modes, every output, 1..40
// views, sphere and ray queries, group bounds, sub-ranges, non-finite
// volumes, frusta from every constructor (their bytes too), error statuses.
// The native answers come from js/native/oracle.c (built by meson with the
// tests: build/js/native/satc_js_oracle, or SATC_JS_ORACLE). Without it the
// test fails: it is the package's main check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { FRUSTUM_BYTES } from '../src/frustum.js';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load, SatcError } from '../src/index.js';
import { rng, perspective, lookDir, mul, volumes } from './helpers.js';

const ORACLE = process.env.SATC_JS_ORACLE ??
  fileURLToPath(new URL('../../build/js/native/satc_js_oracle', import.meta.url));
const FORM_ID = { obb: 1, aabb: 2, minmax: 3, halfAxes: 4, instances: 5, spheres: 6 };
const LAYOUT_ID = { 'column-major-4x4': 0, 'rows-3x4': 1, 'column-major-4x3': 2 };
const CONV = (o) => (o.rowMajor ? 1 : 0) | (o.depth === 'webgpu' ? 2 : 0) | (o.reversed ? 4 : 0) | (o.infiniteFar ? 8 : 0);

function transpose(m) {
  const t = new Array(16);
  for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) t[r * 4 + c] = m[c * 4 + r];
  return t;
}

// Views, each as { how, args } for both sides.
function makeViews(r) {
  const eye = [r() * 4 - 2, r() * 2, r() * 4 - 2];
  const a = r() * 6.28;
  const dir = [Math.sin(a), 0, -Math.cos(a)];
  const view = lookDir(eye, dir, [0, 1, 0]);
  const v = [];
  for (const depth of ['webgl', 'webgpu'])
    for (const reversed of [false, true])
      for (const infiniteFar of [false, true]) {
        const p = perspective(1.0 + r() * 0.5, 16 / 9, 0.1 + r(), 80, { depth, reversed, infinite: infiniteFar });
        v.push({ how: 'matrix', m: mul(p, view), opts: { depth, reversed, infiniteFar } });
      }
  v.push({ how: 'matrix', m: transpose(mul(perspective(1.2, 1.5, 0.5, 50), view)), opts: { rowMajor: true } });
  v.push({ how: 'perspective', c: { eye, dir, up: [0, 1, 0], fovy: 1.0471976, aspect: 16 / 9, near: 0.1, far: 70 } });
  const left = [-Math.cos(a), 0, -Math.sin(a)]; // left x up = dir
  v.push({ how: 'camera', c: { origin: eye, left, up: [0, 1, 0], dir, l0: -0.2, l1: 0.15, u0: -0.1, u1: 0.12, near: 0.2, far: 90, orthographic: false } });
  v.push({ how: 'camera', c: { origin: eye, left, up: [0, 1, 0], dir, l0: -30, l1: 25, u0: -20, u1: 20, near: -40, far: 40, orthographic: true } });
  v.push({ how: 'planes', planes: [[1, 0, 0, 30], [-1, 0.2, 0, 30], [0, 1, 0, 20], [0, -1, 0, 20], [0, 0, 1, 25], [0.1, 0, -1, 25]], margin: 0.5 });
  v.push({ how: 'box', box: { center: [3, 1, -4], axes: [0.6, 0.8, 0, -0.8, 0.6, 0, 0, 0, 1], half: [20, 5, 12] } });
  v.push({ how: 'segment', p0: [-50, 1, -3], p1: [40, 2, 5] });
  return v;
}

function buildView(satc, v) {
  switch (v.how) {
    case 'matrix': return satc.frustumFromMatrix(v.m, { ...v.opts, double: false }); // the float path, as the native library takes it
    case 'perspective': return satc.frustumPerspective(v.c);
    case 'camera': return satc.frustumFromCamera(v.c);
    case 'planes': return satc.frustumFromPlanes(v.planes, v.margin);
    case 'box': return satc.frustumFromBox(v.box);
    case 'segment': return satc.frustumFromSegment(v.p0, v.p1);
  }
  throw new Error(v.how);
}

class Writer {
  constructor() { this.words = []; this.f = new Float32Array(1); this.u = new Uint32Array(this.f.buffer); }
  u32(x) { this.words.push(x >>> 0); }
  f32(x) { this.f[0] = x; this.words.push(this.u[0]); }
  fs(a) { for (const x of a) this.f32(x); }
  arr(a) {
    if (!a) return this.u32(0);
    this.u32(a.length);
    if (a instanceof Uint32Array) for (const x of a) this.u32(x); else this.fs(a);
  }
  bytes() { return new Uint8Array(Uint32Array.from(this.words).buffer); }
}

function encodeView(w, v) {
  const c = v.c;
  switch (v.how) {
    case 'matrix': w.u32(1); w.fs(v.m); w.u32(CONV(v.opts)); break;
    case 'perspective': w.u32(2); w.fs([...c.eye, ...c.dir, ...c.up, c.fovy, c.aspect, c.near, c.far]); break;
    case 'camera': w.u32(3); w.fs([...c.origin, ...c.left, ...c.up, ...c.dir, c.l0, c.l1, c.u0, c.u1, c.near, c.far]); w.u32(c.orthographic ? 1 : 0); break;
    case 'planes': w.u32(4); w.u32(v.planes.length); w.fs(v.planes.flat()); w.f32(v.margin); break;
    case 'box': w.u32(5); w.fs([...v.box.center, ...v.box.axes, ...v.box.half]); break;
    case 'segment': w.u32(6); w.fs([...v.p0, ...v.p1]); break;
  }
}

// The fields of a case's batch, in the oracle's order, from generated data.
function arraysFor(c, d) {
  switch (c.form) {
    case 'aabb': return { center: d.center, half: d.half };
    case 'minmax': return { min: d.min, max: d.max };
    case 'spheres': return { center: d.center, radius: d.radius };
    case 'obb': return { center: d.center, axes: d.axes, extent: d.extent };
    case 'halfAxes': return { center: d.center, axes: d.halfAxes };
  }
  const m = { 'column-major-4x4': d.matrices, 'rows-3x4': d.rows, 'column-major-4x3': d.cols43 }[c.layout];
  if (c.local === 'shared') return { matrices: m, localCenter: [0.2, -0.1, 0.3], localHalf: [1, 2, 0.5] };
  if (c.local === 'per-instance') return { matrices: m, localCenter: d.center.map((x) => x * 0.01), localHalf: d.half };
  const ids = new Uint32Array(c.n).map((_, i) => (i * 7) % (c.meshes + 1)); // some ids past the table
  return { matrices: m, localCenter: d.half.slice(0, 3 * c.meshes).map((x) => x - 2), localHalf: d.half.slice(0, 3 * c.meshes), meshIds: ids };
}

function cases() {
  const r = rng(20261125);
  const list = [];
  const forms = ['aabb', 'minmax', 'spheres', 'obb', 'halfAxes'];
  const inst = [];
  for (const layout of Object.keys(LAYOUT_ID)) for (const local of ['shared', 'per-instance', 'meshes']) inst.push({ layout, local });
  const batches = [...forms.map((form) => ({ form })), ...inst.map((o) => ({ form: 'instances', ...o }))];
  for (const b of batches) {
    const n = 203 + Math.floor(r() * 300);
    const d = volumes(r, n, { nan: true });
    const views = makeViews(r);
    const base = { ...b, n, meshes: b.local === 'meshes' ? 5 : 0, local: b.local === 'meshes' ? 'meshes' : b.local, d };
    for (const mode of ['conservative', 'exact']) {
      for (const v of views) {
        list.push({ ...base, op: 'cull', mode, views: [v], first: 0, count: n, gsize: 0 });
      }
      list.push({ ...base, op: 'cull', mode, views: [views[0]], first: 7, count: n - 20, gsize: 0 });
      list.push({ ...base, op: 'cull', mode, views: [views[9]], first: 0, count: n, gsize: 16 });
      for (const K of [3, 9, 12]) list.push({ ...base, op: 'views', mode, views: views.slice(0, K), first: 0, count: n, gsize: 0 });
      const many = Array.from({ length: 40 }, (_, i) => views[i % views.length]);
      list.push({ ...base, op: 'views', mode, views: many, first: 3, count: n - 3, gsize: 0 });
      list.push({ ...base, op: 'sphere', mode, q: [r() * 20 - 10, r() * 4, r() * 20 - 10, 15 + r() * 10], views: [], first: 0, count: n, gsize: 0 });
      list.push({ ...base, op: 'ray', mode, q: [0, 1, 0, r() - 0.5, 0.05, r() - 0.5, r() < 0.5 ? Infinity : 70], views: [], first: 0, count: n, gsize: 0 });
    }
  }
  // Errors: a singular matrix, a NaN camera, a planes volume that is empty.
  const d = volumes(r, 40);
  const e = { form: 'aabb', n: 40, d, op: 'cull', mode: 'conservative', first: 0, count: 40, gsize: 0, meshes: 0 };
  list.push({ ...e, views: [{ how: 'matrix', m: new Array(16).fill(0), opts: {} }] });
  list.push({ ...e, views: [{ how: 'perspective', c: { eye: [0, NaN, 0], dir: [0, 0, -1], up: [0, 1, 0], fovy: 1, aspect: 1, near: 0.1, far: 10 } }] });
  list.push({ ...e, views: [{ how: 'planes', planes: [[1, 0, 0, -5], [-1, 0, 0, -5]], margin: 0 }] });
  list.push({ ...e, views: [{ how: 'perspective', c: { eye: [0, 0, 0], dir: [0, 0, -1], up: [0, 1, 0], fovy: 1, aspect: 1, near: 10, far: 1 } }] });
  return list;
}

const OPS = { cull: 1, views: 2, sphere: 3, ray: 4 };
function encode(list) {
  const w = new Writer();
  for (const c of list) {
    w.u32(OPS[c.op]); w.u32(c.mode === 'exact' ? 1 : 0); w.u32(FORM_ID[c.form]); w.u32(c.first); w.u32(c.count);
    w.u32(c.views.length); w.u32(7); w.u32(LAYOUT_ID[c.layout] ?? 0);
    w.u32({ shared: 0, 'per-instance': 1, meshes: 2 }[c.local] ?? 0); w.u32(c.meshes); w.u32(c.gsize);
    for (const v of c.views) encodeView(w, v);
    if (c.op === 'sphere' || c.op === 'ray') w.fs(c.q);
    const a = Object.values(arraysFor(c, c.d));
    for (let i = 0; i < 4; i++) w.arr(a[i] ? (a[i] instanceof Uint32Array ? a[i] : Float32Array.from(a[i])) : null);
  }
  return w.bytes();
}

function runJs(satc, c) {
  const local = c.local === 'meshes' ? { meshes: c.meshes } : c.local;
  const opts = c.form === 'instances' ? { layout: c.layout, local } : {};
  let batch;
  try {
    const views = c.views.map((v) => buildView(satc, v));
    batch = satc.batch(c.form, c.n, opts, arraysFor(c, c.d));
    if (c.gsize) { batch.count = c.first + c.count; batch.setGroups(c.gsize); }
    const o = { mode: c.mode, first: c.first, count: c.count, output: ['indices', 'bitmask', 'classes'] };
    let res;
    if (c.op === 'cull') res = satc.cull(views[0], batch, o);
    else if (c.op === 'sphere') res = satc.querySphere(c.q.slice(0, 3), c.q[3], batch, o);
    else if (c.op === 'ray') res = satc.queryRay(c.q.slice(0, 3), c.q.slice(3, 6), c.q[6], batch, o);
    else res = satc.cullViews(views, batch, { ...o, masks: true, indices: true, classes: true });
    return { status: 0, views, res };
  } catch (e) {
    if (!(e instanceof SatcError)) throw e;
    return { status: e.status };
  } finally {
    batch?.dispose();
  }
}

// The package's main check: it fails, never skips, when the native oracle
// is missing (SATC_JS_NO_NATIVE=1 skips it on purpose, and says so).
const NO_NATIVE = process.env.SATC_JS_NO_NATIVE === '1' &&
  'SATC_JS_NO_NATIVE=1: the comparison with the native library is NOT run';
test('package answers equal the native library bit for bit', { skip: NO_NATIVE }, async () => {
  assert.ok(existsSync(ORACLE), `the native oracle ${ORACLE} is missing: build it first with\n` +
    '  meson setup build && ninja -C build js/native/satc_js_oracle   (from the repository root)\n' +
    'or point SATC_JS_ORACLE at it');
  const list = cases();
  const dir = mkdtempSync(join(tmpdir(), 'satc-js-'));
  writeFileSync(join(dir, 'in.bin'), encode(list));
  execFileSync(ORACLE, [join(dir, 'in.bin'), join(dir, 'out.bin')]);
  const buf = readFileSync(join(dir, 'out.bin'));
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let p = 0;
  const u32 = () => { const v = dv.getUint32(p, true); p += 4; return v; };
  const bytes = (n) => { const b = buf.subarray(p, p + n); p += n; return new Uint8Array(b); };
  const bits = (ta) => new Uint8Array(ta.buffer, ta.byteOffset, ta.byteLength);
  for (const simd of [false, true]) {
    const satc = await load({ simd });
    let checked = 0, visible = 0;
    p = 0;
    for (const [i, c] of list.entries()) {
      const what = `case ${i} ${c.op} ${c.form} ${c.layout ?? ''} ${c.local ?? ''} ${c.mode} views=${c.views.map((v) => v.how).join(',')}`;
      const status = dv.getInt32(p, true); p += 4;
      const js = runJs(satc, c);
      assert.equal(js.status, status, `${what}: status`);
      if (status !== 0) continue;
      for (const f of js.views) assert.deepEqual(f.bytes, bytes(FRUSTUM_BYTES), `${what}: frustum bytes`);
      const r = js.res;
      if (c.op === 'views') {
        const K = c.views.length, word = K <= 8 ? 1 : K <= 16 ? 2 : K <= 32 ? 4 : 8;
        const vis = Array.from({ length: K }, u32);
        assert.deepEqual(r.visible, vis, `${what}: visible`);
        assert.deepEqual(bits(r.masks), bytes(word * c.count), `${what}: masks`);
        for (let v = 0; v < K; v++) assert.deepEqual(bits(r.indices[v]), bytes(4 * vis[v]), `${what}: indices ${v}`);
        for (let v = 0; v < K; v++) assert.deepEqual(r.classes[v], bytes(c.count), `${what}: classes ${v}`);
        visible += vis[0];
      } else {
        const vis = u32();
        assert.equal(r.visible, vis, `${what}: visible`);
        assert.deepEqual(bits(r.indices), bytes(4 * vis), `${what}: indices`);
        assert.deepEqual(r.bitmask, bytes((c.count + 7) >>> 3), `${what}: bitmask`);
        assert.deepEqual(r.classes, bytes(c.count), `${what}: classes`);
        if (c.op === 'ray') {
          // NaN (non-finite volumes) may carry another payload in wasm: compare NaN as NaN
          const t = new Float32Array(bytes(4 * vis).buffer);
          assert.equal(r.t.length, vis, `${what}: t`);
          for (let k = 0; k < vis; k++) {
            assert.ok(Object.is(r.t[k], t[k]) || (Number.isNaN(r.t[k]) && Number.isNaN(t[k])), `${what}: t[${k}] ${r.t[k]} vs ${t[k]}`);
          }
          const nr = u32();
          assert.equal(r.nearest, nr === 0xffffffff ? -1 : nr, `${what}: nearest`);
        }
        visible += vis;
      }
      checked++;
    }
    assert.equal(p, buf.length, 'every native answer read');
    // Not a vacuous comparison: most cases succeed and see some volumes.
    assert.ok(checked > list.length - 10 && visible > 1000, `${checked} cases, ${visible} visible`);
    console.log(`# ${simd ? 'simd128' : 'scalar'} module (${satc.isa}): ${checked} cases equal to native, ${list.length - checked} error statuses equal`);
  }
});
