// The [trs] figures under node (SIMD128 where node validates it):
//  - Gaussian splats: 1 M and 4 M `.splat` records of a room-sized cloud,
//    a camera placed so that half (then 80 %) of them lie outside its view:
//    satc's cull + visible indices sorted back to front (16-bit key), from
//    the records in module memory, against the two ways web viewers order
//    splats today, each written in JS and in WebAssembly:
//     sort-all (antimatter15/splat's sort worker, from its description):
//       the depth of every splat (the view-projection's depth row times
//       its position, times 4096, to an integer), their range, a 16-bit
//       key each and one counting sort of all of them;
//     ball test: each splat's center and a radius of 3 max(sigma) against
//       the six planes, the view depth of the kept, their range, a 16-bit
//       key per kept splat and a counting sort of the kept, far first.
//    The WebAssembly viewers are bench/splat_viewers.c (the native
//    benchmark's baselines) built for SIMD128 as their own module
//    (build-wasm/src/wasm/splat-viewers.wasm, made by scripts/build.sh),
//    reading a copy of the records in their own memory.
//    The roofline: a read of the records' bytes in module memory with
//    SIMD128 loads (a 64-byte-per-iteration loop in a tiny wasm module
//    written below, importing satc's memory), against satc's cull.
//  - transforms: 100 k objects as position / quaternion / scale arrays,
//    satc culling them in place against three.js's own way (compose the
//    matrix, transform the local Box3, Frustum.intersectsBox).
// Medians of the runs; goal lines with --goals or SATC_BENCH_GOALS=1 only.
//   node bench/trs.mjs [--quick] [--goals]
import * as THREE from 'three';
import { load } from '../src/index.js';
import { splatBatch, trsBatch } from '../src/trs.js';
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const QUICK = process.argv.includes('--quick');
const GOALS = process.argv.includes('--goals') || !['', '0', undefined].includes(process.env.SATC_BENCH_GOALS);
const RUNS = QUICK ? 5 : 15;
const satc = await load({ reserve: 200 << 20 });
const med = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];

let seed = 0x9e3779b9;
const rnd = () => {
  seed ^= seed << 13; seed >>>= 0; seed ^= seed >>> 17; seed ^= seed << 5; seed >>>= 0;
  return seed / 4294967296;
};

// A room-sized cloud of n splats written straight into the batch's records.
function fillCloud(b, n) {
  const f = b.records, u = b.bytes;
  for (let i = 0; i < n; i++) {
    const o = 8 * i;
    f[o] = rnd() * 10 - 5; f[o + 1] = rnd() * 4; f[o + 2] = rnd() * 10 - 5;
    for (let k = 0; k < 3; k++) f[o + 3 + k] = Math.exp(-3.5 + 0.7 * (rnd() + rnd() - 1) * 2);
    let q = [rnd() * 2 - 1, rnd() * 2 - 1, rnd() * 2 - 1, rnd() * 2 - 1];
    const l = Math.hypot(...q);
    const c = 4 * o + 24;
    u[c] = 200; u[c + 1] = 180; u[c + 2] = 160; u[c + 3] = 255;
    for (let k = 0; k < 4; k++) u[c + 4 + k] = Math.max(0, Math.min(255, Math.round((q[(k + 3) & 3] / l) * 128 + 128)));
  }
}

function camAt(z) {
  const cam = new THREE.PerspectiveCamera(60, 16 / 9, 0.1, 100);
  cam.position.set(0, 1.6, z);
  cam.lookAt(0, 1.6, z + 1);
  cam.updateMatrixWorld(true);
  const vp = new THREE.Matrix4().multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse);
  return { vp, cam, frustum: satc.frustumFromMatrix(vp.elements) };
}

// The camera z leaving `frac` of the cloud outside (bisection on a cull).
function place(b, frac) {
  let lo = -30, hi = 6;
  for (let it = 0; it < 24; it++) {
    const mid = 0.5 * (lo + hi);
    const out = 1 - b.cull(camAt(mid).frustum, { view: true }).visible / b.count;
    if (out < frac) lo = mid; else hi = mid;
  }
  return camAt(0.5 * (lo + hi));
}

// The read of `bytes` bytes at `ptr` (a multiple of 64) with SIMD128
// loads, xor-folded so nothing is skipped: a hand-assembled module that
// imports the module memory satc runs in.
function simdReader(memory) {
  const body = [
    0x02, 0x01, 0x7b, 0x01, 0x7f, // locals: v128 acc, i32 end
    0x20, 0x00, 0x20, 0x01, 0x6a, 0x21, 0x03, // end = ptr + bytes
    0x02, 0x40, 0x03, 0x40, // block, loop
    0x20, 0x00, 0x20, 0x03, 0x4f, 0x0d, 0x01, // if ptr >= end break
    0x20, 0x02,
    0x20, 0x00, 0xfd, 0x00, 0x04, 0x00, 0xfd, 0x51, // acc ^= load(ptr)
    0x20, 0x00, 0xfd, 0x00, 0x04, 0x10, 0xfd, 0x51, // ^ load(ptr + 16)
    0x20, 0x00, 0xfd, 0x00, 0x04, 0x20, 0xfd, 0x51, // ^ load(ptr + 32)
    0x20, 0x00, 0xfd, 0x00, 0x04, 0x30, 0xfd, 0x51, // ^ load(ptr + 48)
    0x21, 0x02,
    0x20, 0x00, 0x41, 0xc0, 0x00, 0x6a, 0x21, 0x00, // ptr += 64
    0x0c, 0x00, 0x0b, 0x0b, // br loop; end; end
    0x20, 0x02, 0xfd, 0x1b, 0x00, 0x0b, // i32x4.extract_lane 0 of acc
  ];
  const sec = (id, bytes) => [id, bytes.length, ...bytes];
  const leb = (n) => { const o = []; do { let b = n & 127; n >>>= 7; if (n) b |= 128; o.push(b); } while (n); return o; };
  const code = [1, ...leb(body.length), ...body];
  const bin = new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...sec(1, [1, 0x60, 2, 0x7f, 0x7f, 1, 0x7f]),
    ...sec(2, [1, 3, 0x65, 0x6e, 0x76, 6, 0x6d, 0x65, 0x6d, 0x6f, 0x72, 0x79, 0x02, 0x00, 0x00]),
    ...sec(3, [1, 0]),
    ...sec(7, [1, 4, 0x72, 0x65, 0x61, 0x64, 0x00, 0x00]),
    10, ...leb(code.length), ...code,
  ]);
  return new WebAssembly.Instance(new WebAssembly.Module(bin), { env: { memory } }).exports.read;
}
const readBytes = satc.isa === 'simd128' ? simdReader(satc.memory) : null;

// antimatter15/splat's sort, from its description (all splats).
function viewerSort(f, n, vp, depth, counts, order) {
  const m = vp.elements;
  let maxDepth = -Infinity, minDepth = Infinity;
  for (let i = 0; i < n; i++) {
    const d = ((m[2] * f[8 * i] + m[6] * f[8 * i + 1] + m[10] * f[8 * i + 2]) * 4096) | 0;
    depth[i] = d;
    if (d > maxDepth) maxDepth = d;
    if (d < minDepth) minDepth = d;
  }
  const inv = (256 * 256 - 1) / (maxDepth - minDepth);
  counts.fill(0);
  for (let i = 0; i < n; i++) {
    depth[i] = ((depth[i] - minDepth) * inv) | 0;
    counts[depth[i]]++;
  }
  let at = 0;
  for (let k = 0; k < 65536; k++) {
    const c = counts[k];
    counts[k] = at;
    at += c;
  }
  for (let i = 0; i < n; i++) order[counts[depth[i]]++] = i;
  return n;
}

// The ball-test viewer in JS: planes are three's (inside: n.p + c >= 0),
// dir the camera's forward axis; the kept go back to front.
function viewerBall(f, n, planes, dir, kd, kidx, key, counts, order) {
  const p = planes.map((q) => [q.normal.x, q.normal.y, q.normal.z, q.constant]);
  const [a0, b0, c0, d0] = p[0], [a1, b1, c1, d1] = p[1], [a2, b2, c2, d2] = p[2];
  const [a3, b3, c3, d3] = p[3], [a4, b4, c4, d4] = p[4], [a5, b5, c5, d5] = p[5];
  const m0 = dir.x, m1 = dir.y, m2 = dir.z;
  let nk = 0, lo = Infinity, hi = -Infinity;
  for (let i = 0, o = 0; i < n; i++, o += 8) {
    const x = f[o], y = f[o + 1], z = f[o + 2];
    const s0 = f[o + 3], s1 = f[o + 4], s2 = f[o + 5];
    const nr = -3 * (s0 > s1 ? (s0 > s2 ? s0 : s2) : (s1 > s2 ? s1 : s2));
    if (a0 * x + b0 * y + c0 * z + d0 < nr || a1 * x + b1 * y + c1 * z + d1 < nr ||
        a2 * x + b2 * y + c2 * z + d2 < nr || a3 * x + b3 * y + c3 * z + d3 < nr ||
        a4 * x + b4 * y + c4 * z + d4 < nr || a5 * x + b5 * y + c5 * z + d5 < nr) continue;
    const d = m0 * x + m1 * y + m2 * z;
    kd[nk] = d;
    kidx[nk++] = i;
    if (d < lo) lo = d;
    if (d > hi) hi = d;
  }
  const inv = hi > lo ? 65535 / (hi - lo) : 0;
  counts.fill(0);
  for (let k = 0; k < nk; k++) {
    const v = Math.min(65535, ((kd[k] - lo) * inv) | 0);
    key[k] = v;
    counts[v]++;
  }
  let at = 0;
  for (let v = 65535; v >= 0; v--) { // far first
    const c = counts[v];
    counts[v] = at;
    at += c;
  }
  for (let k = 0; k < nk; k++) order[counts[key[k]]++] = kidx[k];
  return nk;
}

// bench/splat_viewers.c in WebAssembly, when scripts/build.sh built it:
// its own memory holds a copy of the records and every array it writes.
function wasmViewers(n) {
  const build = process.env.SATC_WASM_BUILD ??
    fileURLToPath(new URL('../../build-wasm', import.meta.url));
  const file = `${build}/src/wasm/splat-viewers.wasm`;
  if (!existsSync(file)) return null;
  const inst = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(file)), {});
  const x = inst.exports;
  x._initialize();
  const at = (bytes) => {
    const p = x.malloc(bytes);
    if (!p) throw new Error('splat-viewers.wasm: out of memory');
    return p;
  };
  const rec = at(32 * n), pl = at(4 * 27), depth = at(4 * n), counts = at(4 * 65536);
  const order = at(4 * n), kd = at(4 * n), kidx = at(4 * n), key = at(2 * n);
  const f32 = () => new Float32Array(x.memory.buffer);
  return {
    load(bytes) { new Uint8Array(x.memory.buffer, rec, 32 * n).set(bytes); },
    sortAll(dir) {
      f32().set([dir.x, dir.y, dir.z], pl >>> 2);
      return x.sv_sort_all_base(rec, n, pl, depth, counts, order);
    },
    ball(planes, dir) {
      const v = f32();
      planes.forEach((q, k) => v.set([q.normal.x, q.normal.y, q.normal.z, q.constant], (pl >>> 2) + 4 * k));
      v.set([dir.x, dir.y, dir.z], (pl >>> 2) + 24);
      return x.sv_ball_base(pl, rec, n, kd, kidx, key, counts, order);
    },
  };
}

console.log(`# node ${process.version}, three ${THREE.REVISION}, satc ${satc.version} ${satc.isa}; medians of ${RUNS} runs`);
const lines = [];
const goal = (ok, text) => lines.push(`${ok ? 'PASS' : 'MISS'} [trs] node ${satc.isa}, ${text}`);
for (const n of QUICK ? [1 << 18] : [1 << 20, 4 << 20]) {
  const b = splatBatch(satc, n);
  fillCloud(b, n);
  const depth = new Int32Array(n), counts = new Uint32Array(65536), order = new Uint32Array(n);
  const kd = new Float32Array(n), kidx = new Uint32Array(n), key = new Uint16Array(n);
  const wv = wasmViewers(n);
  if (wv) wv.load(b.bytes);
  const size = n >> 20 ? `${n >> 20} M` : `${n >> 10} k`;
  for (const frac of [0.5, 0.8]) {
    const { vp, frustum, cam } = place(b, frac);
    const planes = new THREE.Frustum().setFromProjectionMatrix(vp).planes;
    const dir = cam.getWorldDirection(new THREE.Vector3());
    const runs = {
      cons: () => b.cull(frustum, { view: true }).visible,
      exact: () => b.cull(frustum, { view: true, mode: 'exact' }).visible,
      sortCons: () => b.cullSorted(frustum, { view: true }).visible,
      sortExact: () => b.cullSorted(frustum, { view: true, mode: 'exact' }).visible,
      jsAll: () => viewerSort(b.records, n, vp, depth, counts, order),
      jsBall: () => viewerBall(b.records, n, planes, dir, kd, kidx, key, counts, order),
    };
    if (wv) Object.assign(runs, { wasmAll: () => wv.sortAll(dir), wasmBall: () => wv.ball(planes, dir) });
    if (readBytes) runs.read = () => readBytes(b.bytes.byteOffset, 32 * n);
    const t = Object.fromEntries(Object.keys(runs).map((k) => [k, []]));
    const kept = {};
    for (let r = 0; r < RUNS + 2; r++) {
      for (const [k, fn] of Object.entries(runs)) {
        const a = performance.now();
        kept[k] = fn();
        if (r >= 2) t[k].push(performance.now() - a);
      }
    }
    const ms = Object.fromEntries(Object.entries(t).map(([k, v]) => [k, med(v)]));
    const out = 100 * (1 - kept.cons / n), tag = `${size} splats, ${out.toFixed(0)} % outside`;
    console.log(`# ${size} splats, ${out.toFixed(1)} % outside (ms, medians; kept in brackets):`);
    console.log(`#   satc cull ${ms.cons.toFixed(2)} [${kept.cons}], exact ${ms.exact.toFixed(2)} [${kept.exact}];` +
      ` cull + sorted ${ms.sortCons.toFixed(2)}, exact ${ms.sortExact.toFixed(2)}` +
      (readBytes ? `; read of the records (SIMD128) ${ms.read.toFixed(2)}` : ''));
    console.log(`#   viewers: sort-all JS ${ms.jsAll.toFixed(2)}` + (wv ? `, wasm ${ms.wasmAll.toFixed(2)}` : '') +
      `; ball test + sort JS ${ms.jsBall.toFixed(2)} [${kept.jsBall}]` +
      (wv ? `, wasm ${ms.wasmBall.toFixed(2)} [${kept.wasmBall}]` : ' (wasm viewers not built: sh scripts/build.sh)'));
    const vs = (name, base, target) => {
      const r = ms[base] / ms.sortCons;
      goal(r >= target, `${tag}: cull + sorted ${ms.sortCons.toFixed(2)} ms vs ${name} ${ms[base].toFixed(2)} ms: ` +
        `${r.toFixed(2)}x (exact ${(ms[base] / ms.sortExact).toFixed(2)}x; target >= ${target}x)`);
    };
    vs('the ball-test viewer in JS', 'jsBall', 1.3);
    if (wv) vs('the ball-test viewer in wasm', 'wasmBall', 1.3);
    vs('sort-all in JS', 'jsAll', frac < 0.6 ? 1.6 : 3.0);
    if (wv) vs('sort-all in wasm', 'wasmAll', frac < 0.6 ? 1.6 : 3.0);
    if (readBytes) {
      for (const [mode, k] of [['conservative', 'cons'], ['exact', 'exact']]) {
        const rr = ms[k] / ms.read;
        goal(rr <= 1.3, `${tag}: ${mode} cull ${ms[k].toFixed(2)} ms vs the read of the records ` +
          `${ms.read.toFixed(2)} ms: ${rr.toFixed(2)}x (target <= 1.3x)`);
      }
    }
  }
  b.dispose();
}

// TRS instances: 100 k objects, local box [-1, 1]^3, three.js's way vs satc.
{
  const N = QUICK ? 20000 : 100000;
  const b = trsBatch(satc, N, { local: 'shared' });
  b.localCenter.set([0, 0, 0]);
  b.localHalf.set([1, 1, 1]);
  const P = b.position, Q = b.quaternion, S = b.scale;
  const objs = [];
  for (let i = 0; i < N; i++) {
    const p = new THREE.Vector3(rnd() * 2000 - 1000, rnd() * 50, rnd() * 2000 - 1000);
    const q = new THREE.Quaternion(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5, rnd() - 0.5).normalize();
    const s = new THREE.Vector3(0.5 + 3.5 * rnd(), 0.5 + 3.5 * rnd(), 0.5 + 3.5 * rnd());
    objs.push({ p, q, s });
    P.set([p.x, p.y, p.z], 3 * i); Q.set([q.x, q.y, q.z, q.w], 4 * i); S.set([s.x, s.y, s.z], 3 * i);
  }
  const cam = new THREE.PerspectiveCamera(60, 16 / 9, 0.1, 1000);
  cam.position.set(0, 2, 0);
  cam.lookAt(300, 2, 200);
  cam.updateMatrixWorld(true);
  const vp = new THREE.Matrix4().multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse);
  const fr = new THREE.Frustum().setFromProjectionMatrix(vp), f = satc.frustumFromMatrix(vp.elements);
  const local = new THREE.Box3(new THREE.Vector3(-1, -1, -1), new THREE.Vector3(1, 1, 1));
  const m = new THREE.Matrix4(), box = new THREE.Box3();
  const t = { satc: [], three: [] };
  let v1 = 0, v2 = 0;
  for (let r = 0; r < RUNS + 2; r++) {
    let a = performance.now();
    v1 = b.cull(f, { view: true }).visible;
    const ts = performance.now() - a;
    a = performance.now();
    v2 = 0;
    for (const o of objs) {
      m.compose(o.p, o.q, o.s);
      if (fr.intersectsBox(box.copy(local).applyMatrix4(m))) v2++;
    }
    const tt = performance.now() - a;
    if (r >= 2) t.satc.push(ts), t.three.push(tt);
  }
  const ms = { satc: med(t.satc), three: med(t.three) }, r = ms.three / ms.satc;
  console.log(`# ${N} TRS objects: satc cull in place ${ms.satc.toFixed(2)} ms (${v1} visible); three.js compose + Box3.applyMatrix4 + Frustum.intersectsBox ${ms.three.toFixed(2)} ms (${v2} visible, world AABBs: looser)`);
  lines.push(`${r >= 10 ? 'PASS' : 'MISS'} [trs] node ${satc.isa}, ${N} TRS objects: satc ${ms.satc.toFixed(2)} ms vs three.js compose + intersectsBox ${ms.three.toFixed(2)} ms: ${r.toFixed(1)}x (target >= 10x)`);
  b.dispose();
}
if (GOALS) for (const l of lines) console.log(l);
