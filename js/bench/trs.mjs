// The [trs] figures under node (SIMD128 where node validates it):
//  - Gaussian splats: 1 M and 4 M `.splat` records of a room-sized cloud,
//    a camera placed so that half (then 80 %) of them lie outside its view:
//    satc's cull + visible indices sorted back to front (16-bit key), from
//    the records in module memory, against what web viewers do today,
//    written from the description of antimatter15/splat's sort worker: the
//    depth of every splat (the view-projection's depth row times its
//    position, times 4096, to an integer), their range, a 16-bit key each
//    and one counting sort of all of them.
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
  return { vp, frustum: satc.frustumFromMatrix(vp.elements) };
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

console.log(`# node ${process.version}, three ${THREE.REVISION}, satc ${satc.version} ${satc.isa}; medians of ${RUNS} runs`);
const lines = [];
for (const n of QUICK ? [1 << 18] : [1 << 20, 4 << 20]) {
  const b = splatBatch(satc, n);
  fillCloud(b, n);
  const depth = new Int32Array(n), counts = new Uint32Array(65536), order = new Uint32Array(n);
  for (const frac of [0.5, 0.8]) {
    const { vp, frustum } = place(b, frac);
    const t = { cons: [], exact: [], sortCons: [], sortExact: [], viewer: [], read: [] };
    let vis = 0;
    for (let r = 0; r < RUNS + 2; r++) {
      const s = [];
      let a = performance.now();
      vis = b.cull(frustum, { view: true }).visible;
      s.push(performance.now() - a);
      a = performance.now();
      b.cull(frustum, { view: true, mode: 'exact' });
      s.push(performance.now() - a);
      a = performance.now();
      b.cullSorted(frustum, { view: true });
      s.push(performance.now() - a);
      a = performance.now();
      b.cullSorted(frustum, { view: true, mode: 'exact' });
      s.push(performance.now() - a);
      a = performance.now();
      viewerSort(b.records, n, vp, depth, counts, order);
      s.push(performance.now() - a);
      a = performance.now();
      if (readBytes) readBytes(b.bytes.byteOffset, 32 * n);
      s.push(performance.now() - a);
      if (r >= 2) Object.keys(t).forEach((k, i) => t[k].push(s[i]));
    }
    const ms = Object.fromEntries(Object.entries(t).map(([k, v]) => [k, med(v)]));
    const out = 100 * (1 - vis / n);
    console.log(`# ${n >> 20 ? `${n >> 20} M` : `${n >> 10} k`} splats, ${out.toFixed(1)} % outside: cull ${ms.cons.toFixed(2)} ms (exact ${ms.exact.toFixed(2)});` +
      ` cull + sorted ${ms.sortCons.toFixed(2)} ms (exact ${ms.sortExact.toFixed(2)}); viewer's depth + sort of all ${ms.viewer.toFixed(2)} ms` +
      (readBytes ? `; read of the records (SIMD128) ${ms.read.toFixed(2)} ms: cull / read ${(ms.cons / ms.read).toFixed(2)}` : ''));
    if (readBytes && frac < 0.6) {
      const rr = ms.cons / ms.read;
      lines.push(`${rr <= 1.5 ? 'PASS' : 'MISS'} [trs] node ${satc.isa}, ${n >> 20} M splats, ${out.toFixed(0)} % outside: cull from the records ${ms.cons.toFixed(2)} ms vs their read ${ms.read.toFixed(2)} ms: ${rr.toFixed(2)}x (target <= 1.5x)`);
    }
    const goal = frac < 0.6 ? 1.6 : 3.0, r = ms.viewer / ms.sortCons;
    lines.push(`${r >= goal ? 'PASS' : 'MISS'} [trs] node ${satc.isa}, ${n >> 20} M splats, ${out.toFixed(0)} % outside: cull + sorted indices ${ms.sortCons.toFixed(2)} ms vs the viewer's sort of all ${ms.viewer.toFixed(2)} ms: ${r.toFixed(2)}x (target >= ${goal}x)`);
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
