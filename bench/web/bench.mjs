// satc's wasm modules against the web engines' own culling, under node,
// in one process on the same boxes. `npm install && npm run
// bench` here, after `ninja -C build-wasm` (and, for the native ratio,
// `ninja -C build`, which builds bench/web/satc_web_native).
//   SATC_WASM_DIR   the modules (default ../../build-wasm/src/wasm)
//   SATC_NATIVE     the native program (default ../../build/bench/web/satc_web_native)
//   SATC_WEB_SIZES  box counts (default 100000,1000000)
// Scene: camera 60 degrees, 16:9, 15 m above a 2 km square of boxes
// (0.5-5 m half sizes, up to 40 m high), about 26 % visible.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as THREE from 'three';
import { BoundingInfo } from '@babylonjs/core/Culling/boundingInfo.js';
import { Frustum as BFrustum } from '@babylonjs/core/Maths/math.frustum.js';
import { Matrix as BMatrix, Vector3 as BVector3 } from '@babylonjs/core/Maths/math.vector.js';
import { handPlanes, handCull } from './hand.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const wasmDir = process.env.SATC_WASM_DIR || path.join(here, '../../build-wasm/src/wasm');
const nativeExe = process.env.SATC_NATIVE || path.join(here, '../../build/bench/web/satc_web_native');
const sizes = (process.env.SATC_WEB_SIZES || '100000,1000000').split(',').map(Number);
const pkg = (p) => JSON.parse(fs.readFileSync(path.join(here, 'node_modules', p, 'package.json'))).version;

// ---- timing: median of reps, ns per item ----
function median(a) { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1]; }
function time(n, reps, fn, warm = 1) {
  for (let w = 0; w < warm; w++) fn(); // warm-up (V8 tiers wasm up lazily, by calls)
  const t = [];
  for (let r = 0; r < reps; r++) {
    const t0 = process.hrtime.bigint();
    fn();
    t.push(Number(process.hrtime.bigint() - t0) / n);
  }
  return median(t);
}

// ---- the scene ----
function rng(seed) { // mulberry32
  return () => {
    seed |= 0; seed = (seed + 0x6D2B79F5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
function scene(n) {
  const r = rng(25 + n);
  const aabb = new Float32Array(6 * n); // center xyz, half xyz
  const mats = new Float32Array(16 * n); // instance matrices (column-major) of a unit box
  const m = new THREE.Matrix4(), q = new THREE.Quaternion(), p = new THREE.Vector3(), s = new THREE.Vector3();
  const e = new THREE.Euler();
  for (let i = 0; i < n; i++) {
    const hx = 0.5 + 4.5 * r(), hy = 0.5 + 4.5 * r(), hz = 0.5 + 4.5 * r();
    const cx = -1000 + 2000 * r(), cy = hy + 35 * r(), cz = -1000 + 2000 * r();
    aabb.set([cx, cy, cz, hx, hy, hz], 6 * i);
    q.setFromEuler(e.set(r() * 6.28, r() * 6.28, r() * 6.28));
    m.compose(p.set(cx, cy, cz), q, s.set(hx, hy, hz));
    mats.set(m.elements, 16 * i);
  }
  return { n, aabb, mats };
}
function camera() {
  const cam = new THREE.PerspectiveCamera(60, 16 / 9, 0.5, 3000);
  cam.position.set(0, 15, 0);
  cam.lookAt(700, 15, -300);
  cam.updateMatrixWorld();
  const vp = new THREE.Matrix4().multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse);
  return { cam, vp };
}

// ---- satc in wasm ----
async function loadSatc(file) {
  const bytes = fs.readFileSync(path.join(wasmDir, file));
  const { instance } = await WebAssembly.instantiate(bytes, {});
  const e = instance.exports;
  e._initialize();
  return { e, bytes, file };
}
// Writes the batch descriptors (wasm32 layout, src/wasm/README.md).
function satcSetup(S, sc, vpElems) {
  const { e } = S, n = sc.n;
  const ab = e.malloc(sc.aabb.byteLength), mb = e.malloc(sc.mats.byteLength);
  const lbox = e.malloc(24), fr = e.malloc(1352), mat = e.malloc(64), bits = e.malloc((n >> 3) + 8);
  const batchA = e.malloc(88), batchI = e.malloc(88), res = e.malloc(16);
  const f32 = () => new Float32Array(e.memory.buffer), u32 = () => new Uint32Array(e.memory.buffer);
  f32().set(sc.aabb, ab >> 2); // first touch of fresh pages: not timed
  f32().set(sc.mats, mb >> 2);
  const t0 = process.hrtime.bigint();
  f32().set(sc.aabb, ab >> 2); // what an engine pays per frame for its arrays
  const copyA = Number(process.hrtime.bigint() - t0) / n;
  const t1 = process.hrtime.bigint();
  f32().set(sc.mats, mb >> 2);
  const copyM = Number(process.hrtime.bigint() - t1) / n;
  f32().set([0, 0, 0, 1, 1, 1], lbox >> 2);
  f32().set(vpElems, mat >> 2);
  const U = u32();
  const vec3s = (at, p, stride) => { U[at >> 2] = p; U[(at >> 2) + 1] = p + 4; U[(at >> 2) + 2] = p + 8; U[(at >> 2) + 3] = stride; };
  U.fill(0, batchA >> 2, (batchA >> 2) + 22);
  U[batchA >> 2] = 2; // SATC_FORM_AABB
  vec3s(batchA + 4, ab, 24), vec3s(batchA + 20, ab + 12, 24);
  U.fill(0, batchI >> 2, (batchI >> 2) + 22);
  U[batchI >> 2] = 5; // SATC_FORM_INSTANCES, 4x4 column-major, one shared local box
  U[(batchI >> 2) + 1] = mb, U[(batchI >> 2) + 2] = 64, U[(batchI >> 2) + 3] = 0;
  vec3s(batchI + 16, lbox, 0), vec3s(batchI + 32, lbox + 12, 0);
  U.fill(0, res >> 2, (res >> 2) + 4);
  U[res >> 2] = bits;
  const st = e.satc_frustum_from_matrix(fr, mat, 0);
  if (st !== 0) throw new Error('satc_frustum_from_matrix: ' + st);
  return { fr, mat, batchA, batchI, res, bits, copyA, copyM,
    cull: (batch, mode) => { const s = e.satc_cull(fr, batch, 0, n, mode, res); if (s) throw new Error('satc_cull ' + s); return u32()[(res >> 2) + 3]; },
    mask: () => new Uint8Array(e.memory.buffer, bits, (n + 7) >> 3).slice() };
}

function fnv(bytes) { let h = 0x811c9dc5; for (const b of bytes) h = Math.imul(h ^ b, 0x01000193) >>> 0; return h; }

// ---- main ----
const out = [];
const say = (s) => { console.log(s); out.push(s); };
say(`satc web bench: node ${process.version}, three ${pkg('three')}, @babylonjs/core ${pkg('@babylonjs/core')}, ${os.cpus()[0].model}, ${os.cpus().length} cpus`);
const simd = await loadSatc('satc-simd128.wasm'), scal = await loadSatc('satc-scalar.wasm');
const isaName = (S) => { const p = S.e.satc_isa_name(S.e.satc_isa_active()); const b = new Uint8Array(S.e.memory.buffer); let s = ''; for (let i = p; b[i]; i++) s += String.fromCharCode(b[i]); return s; };
const defaultIsa = isaName(simd), scalarIsa = isaName(scal);
const { vp } = camera();
const res = {};
// Every method's runs interleave, round by round, so a busy machine
// (the dev VM is shared) slows them alike; the native program runs once
// per round too (a process per round: it reads the boxes, warms up, times
// one run of each).
function rounds(reps, methods, between) {
  const t = methods.map(() => []);
  for (let w = 0; w < 3; w++) for (const m of methods) m[2](); // warm-up (JIT tiers, page faults)
  for (let r = 0; r < reps; r++) {
    if (between) between(r);
    methods.forEach((m, k) => {
      const t0 = process.hrtime.bigint();
      m[2]();
      t[k].push(Number(process.hrtime.bigint() - t0) / m[1]);
    });
  }
  return Object.fromEntries(methods.map((m, k) => [m[0], median(t[k])]));
}

for (const n of sizes) {
  const sc = scene(n), reps = n >= 1000000 ? 15 : 21;
  const A = satcSetup(simd, sc, vp.elements), B = satcSetup(scal, sc, vp.elements);
  const vis = {}, masks = {};
  const frustum = new THREE.Frustum().setFromProjectionMatrix(vp);
  const boxes = new Array(n), spheres = new Array(n), infos = new Array(n);
  for (let i = 0; i < n; i++) {
    const a = sc.aabb, o = 6 * i;
    boxes[i] = new THREE.Box3(new THREE.Vector3(a[o] - a[o + 3], a[o + 1] - a[o + 4], a[o + 2] - a[o + 5]),
                              new THREE.Vector3(a[o] + a[o + 3], a[o + 1] + a[o + 4], a[o + 2] + a[o + 5]));
    spheres[i] = new THREE.Sphere(new THREE.Vector3(a[o], a[o + 1], a[o + 2]), Math.hypot(a[o + 3], a[o + 4], a[o + 5]));
    infos[i] = new BoundingInfo(new BVector3(a[o] - a[o + 3], a[o + 1] - a[o + 4], a[o + 2] - a[o + 5]),
                                new BVector3(a[o] + a[o + 3], a[o + 1] + a[o + 4], a[o + 2] + a[o + 5]));
  }
  // BatchedMesh's per-instance way: the geometry's bounding sphere times
  // the instance matrix, then intersectsSphere.
  const geomSphere = new THREE.Sphere(new THREE.Vector3(0, 0, 0), Math.sqrt(3));
  const m4 = new THREE.Matrix4(), sph = new THREE.Sphere();
  const planes = handPlanes(vp.elements), hmask = new Uint8Array((n + 7) >> 3);
  const bplanes = BFrustum.GetPlanes(BMatrix.FromArray(vp.elements));

  // native SSE4.1 on the same data
  let nativeRuns = [];
  const f = path.join(os.tmpdir(), `satc-web-${process.pid}.bin`);
  const haveNative = fs.existsSync(nativeExe);
  if (haveNative)
    fs.writeFileSync(f, Buffer.concat([Buffer.from(new Uint32Array([n]).buffer), Buffer.from(new Float32Array(vp.elements).buffer),
      Buffer.from(sc.aabb.buffer), Buffer.from(sc.mats.buffer)]));
  // one native run (after its warm-up) per round, like every other method
  const native = () => { if (haveNative) nativeRuns.push(JSON.parse(execFileSync(nativeExe, [f, '1']).toString())); };

  const r = rounds(reps, [
    ['simd_cons', n, () => { vis.sc = A.cull(A.batchA, 0); masks.sc = A.mask(); }],
    ['simd_exact', n, () => { vis.se = A.cull(A.batchA, 1); masks.se = A.mask(); }],
    ['simd_inst', n, () => { vis.si = A.cull(A.batchI, 1); masks.si = A.mask(); }],
    ['scal_cons', n, () => { vis.pc = B.cull(B.batchA, 0); masks.pc = B.mask(); }],
    ['scal_exact', n, () => { vis.pe = B.cull(B.batchA, 1); masks.pe = B.mask(); }],
    ['scal_inst', n, () => { vis.pi = B.cull(B.batchI, 1); masks.pi = B.mask(); }],
    ['three_box', n, () => { let c = 0; for (let i = 0; i < n; i++) if (frustum.intersectsBox(boxes[i])) c++; vis.tb = c; }],
    ['three_sphere', n, () => { let c = 0; for (let i = 0; i < n; i++) if (frustum.intersectsSphere(spheres[i])) c++; vis.ts = c; }],
    ['three_batched', n, () => {
      let c = 0;
      for (let i = 0; i < n; i++) {
        m4.fromArray(sc.mats, 16 * i);
        sph.copy(geomSphere).applyMatrix4(m4);
        if (frustum.intersectsSphere(sph)) c++;
      }
      vis.tm = c;
    }],
    ['hand', n, () => { vis.h = handCull(planes, sc.aabb, n, hmask); }],
    ['babylon', n, () => { let c = 0; for (let i = 0; i < n; i++) if (infos[i].isInFrustum(bplanes)) c++; vis.b = c; }],
  ], native);
  if (haveNative) fs.unlinkSync(f);
  res[n] = r;
  r.copyA = A.copyA, r.copyM = A.copyM;
  r.hashes = [fnv(masks.sc), fnv(masks.se), fnv(masks.si)];
  r.same = fnv(masks.pc) === r.hashes[0] && fnv(masks.pe) === r.hashes[1] && fnv(masks.pi) === r.hashes[2];
  r.native = null;
  if (nativeRuns.length) {
    const med = (k) => median(nativeRuns.map((x) => x[k]));
    r.native = { cons: med('cons'), exact: med('exact'), inst: med('inst'), hashes: nativeRuns[0].hashes,
                 hashesAgree: nativeRuns.every((x) => x.hashes.join() === nativeRuns[0].hashes.join()) };
  }
  boxes.length = spheres.length = infos.length = 0;
  say(`n ${n}: visible satc ${vis.sc} cons / ${vis.se} exact (${(100 * vis.se / n).toFixed(1)} %), instances ${vis.si}; three box ${vis.tb}, sphere ${vis.ts}, batched ${vis.tm}; hand ${vis.h}; babylon ${vis.b}`);
  const f1 = (x) => x == null ? '-' : x.toFixed(2);
  say(`n ${n} ns/box: satc simd128 cons ${f1(r.simd_cons)} exact ${f1(r.simd_exact)} instances ${f1(r.simd_inst)} | scalar cons ${f1(r.scal_cons)} exact ${f1(r.scal_exact)} instances ${f1(r.scal_inst)} | native sse41 cons ${f1(r.native?.cons)} exact ${f1(r.native?.exact)} instances ${f1(r.native?.inst)}`);
  say(`n ${n} ns/box: three intersectsBox ${f1(r.three_box)} intersectsSphere ${f1(r.three_sphere)} batched-way ${f1(r.three_batched)} | babylon isInFrustum ${f1(r.babylon)} | hand-written JS ${f1(r.hand)} | copy into wasm: AABB ${f1(r.copyA)} matrices ${f1(r.copyM)}`);
  if (r.native) say(`n ${n}: native bitmask hashes ${r.native.hashes.join(',') === r.hashes.join(',') ? 'equal to' : 'DIFFER from'} the wasm ones`);
}

// frustum from a matrix
const fm = (() => { const S = simd, e = S.e, fr = e.malloc(1352), mat = e.malloc(64); new Float32Array(e.memory.buffer).set(vp.elements, mat >> 2); return time(1, 2001, () => { for (let k = 0; k < 100; k++) e.satc_frustum_from_matrix(fr, mat, 0); }, 1000) / 100; })();
const fmS = (() => { const e = scal.e, fr = e.malloc(1352), mat = e.malloc(64); new Float32Array(e.memory.buffer).set(vp.elements, mat >> 2); return time(1, 2001, () => { for (let k = 0; k < 100; k++) e.satc_frustum_from_matrix(fr, mat, 0); }, 1000) / 100; })();
const tf = new THREE.Frustum();
const fmT = time(1, 2001, () => { for (let k = 0; k < 100; k++) tf.setFromProjectionMatrix(vp); }, 1000) / 100;
say(`frustum from matrix: satc simd128 ${(fm / 1000).toFixed(2)} us, scalar module ${(fmS / 1000).toFixed(2)} us, three setFromProjectionMatrix ${(fmT / 1000).toFixed(3)} us`);
const gz = [simd.bytes, scal.bytes].map((b) => zlib.gzipSync(b, { level: 9 }).length);
say(`module sizes: simd128 ${simd.bytes.length} B (${gz[0]} gzip), scalar ${scal.bytes.length} B (${gz[1]} gzip)`);

// ---- the project's goals: printed only with --goals or SATC_BENCH_GOALS=1 (bench/README.md) ----
const big = res[Math.max(...sizes)], N = Math.max(...sizes);
const goalsOn = process.argv.includes('--goals') || !['', '0', undefined].includes(process.env.SATC_BENCH_GOALS);
if (goalsOn) say('\n== project goals: web (PASS = reached, MISS = not yet; not test results) ==');
else say('\n(The project\'s own speed goals are not shown: SATC_BENCH_GOALS=1 or --goals prints them; bench/README.md.)');
const line = (ok, s) => { if (goalsOn) say(`${ok ? 'PASS' : 'MISS'} [wasm] ${s}`); };
const x = (a, b) => (a / b).toFixed(1);
line(big.three_box / big.simd_cons >= 15, `world AABBs ${N}: SIMD128 conservative ${x(big.three_box, big.simd_cons)}x faster than three.js intersectsBox (target >= 15x; ${big.simd_cons.toFixed(2)} vs ${big.three_box.toFixed(1)} ns/box)`);
line(big.three_box / big.simd_exact >= 12, `world AABBs ${N}: SIMD128 exact ${x(big.three_box, big.simd_exact)}x faster than three.js intersectsBox (target >= 12x; ${big.simd_exact.toFixed(2)} ns/box)`);
line(big.hand / big.simd_cons >= 5, `world AABBs ${N}: SIMD128 conservative ${x(big.hand, big.simd_cons)}x faster than hand-written flat-array JS (target >= 5x; JS ${big.hand.toFixed(2)} ns/box)`);
line(big.three_batched / big.simd_inst >= 10, `instances ${N} exact: SIMD128 ${x(big.three_batched, big.simd_inst)}x faster than BatchedMesh's per-instance way (target >= 10x; ${big.simd_inst.toFixed(2)} vs ${big.three_batched.toFixed(1)} ns)`);
if (big.native) {
  for (const [k, nk, what] of [['simd_cons', 'cons', 'AABB conservative'], ['simd_exact', 'exact', 'AABB exact'], ['simd_inst', 'inst', 'instances exact']])
    line(big[k] / big.native[nk] <= 1.3, `${what} ${N}: SIMD128 ${x(big[k], big.native[nk])}x native SSE4.1 (target <= 1.3x; ${big[k].toFixed(2)} vs ${big.native[nk].toFixed(2)} ns/box)`);
} else {
  line(false, `SIMD128 against native SSE4.1: not measured (no ${nativeExe}; ninja -C build)`);
}
line(big.scal_cons <= big.hand, `wasm scalar path ${big.scal_cons.toFixed(2)} ns/box conservative vs hand-written JS ${big.hand.toFixed(2)} (target: no slower)`);
line(defaultIsa === 'simd128' && scalarIsa === 'scalar', `default entry point: satc_isa_active() is "${defaultIsa}" in satc-simd128.wasm, "${scalarIsa}" in satc-scalar.wasm, nothing passed`);
line(fm <= 3000, `frustum from a matrix ${(fm / 1000).toFixed(2)} us in wasm (target <= 3 us)`);
line(gz[0] + gz[1] <= 150 * 1024, `wasm files ${((gz[0] + gz[1]) / 1024).toFixed(1)} KB gzip together (target <= 150 KB)`);
const allSame = sizes.every((n) => res[n].same && (!res[n].native || (res[n].native.hashesAgree && res[n].native.hashes.join(',') === res[n].hashes.join(','))));
// Not a goal: a difference is a bug, printed always, and the exit status says so.
say(`${allSame ? 'bit-identity' : 'MISMATCH'} on the bench data: SIMD128 and scalar modules${big.native ? ' and native SSE4.1' : ''} ${allSame ? 'give the same bitmasks' : 'DIFFER'} (every case: meson test -C build-wasm)`);
if (!allSame) process.exitCode = 3;
fs.writeFileSync(path.join(here, 'last-run.txt'), out.join('\n') + '\n');
