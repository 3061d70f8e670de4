// satc/trs: 3DGS PLY files read in place (plyBatch) and the worker-shaped
// sorter (splatSorter, orderInto). Small PLY files are written here in any
// property order with extra properties skipped by stride; the PLY batch
// must give the same bits (indices, depths, keys, back-to-front orders) as
// the same splats in separate arrays (trsBatch, log scales, float w-first
// quaternions) and as the `.splat` records of the same splats (byte
// quaternions b - 128, linear scales satc_expf(log)). Bad files throw
// SatcError before any module allocation; a sorter run in a worker_threads
// Worker from a SharedArrayBuffer and from a transferred ArrayBuffer writes
// the order the main thread computes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { load, SatcError } from '../src/index.js';
import { plyBatch, parsePly, splatSorter, splatBatch, trsBatch, expf } from '../src/trs.js';
import { plyBytes, splatValues, rng, STANDARD } from './plyfile.js';

const CAM = { eye: [0, 1.6, 0], dir: [0, 0, 1], up: [0, 1, 0], fovy: Math.PI / 3, aspect: 16 / 9, near: 0.1, far: 100 };
const satcs = Promise.all([load(), load({ simd: false })]);
const KEYS = ['indices', 'sorted', 'depth', 'key16', 'key32'];

// A shuffled layout: extras of every size between the cull's floats, x y z and the scales apart.
const SHUFFLED = [
  ['red', 'uchar'], ['green', 'uchar'], ['blue', 'uchar'], ['alpha', 'uchar'], ['z', 'float'], ['nx', 'double'],
  ['scale_2', 'float'], ['x', 'float'], ['rot_0', 'float'], ['rot_1', 'float'], ['rot_2', 'float'], ['rot_3', 'float'],
  ['id', 'uint'], ['scale_0', 'float'], ['f_dc_0', 'float'], ['opacity', 'float'], ['y', 'float'],
  ['seg', 'short'], ['lvl', 'ushort'], ['scale_1', 'float'],
];

function same(x, y, what) {
  for (const k of KEYS) {
    assert.equal(x[k].length, y[k].length, `${what}: ${k} length`);
    assert.deepEqual(new Uint8Array(x[k].buffer, x[k].byteOffset, x[k].byteLength),
      new Uint8Array(y[k].buffer, y[k].byteOffset, y[k].byteLength), `${what}: ${k} bits`);
  }
}

// The same splats as separate float arrays (what trsBatch reads).
function arraysBatch(satc, vals) {
  const n = vals.length, b = trsBatch(satc, n, { quaternion: 'f32', order: 'wxyz', logScale: true });
  const p = b.position, s = b.scale, q = b.quaternion;
  vals.forEach((v, i) => {
    p.set([v.x, v.y, v.z], 3 * i);
    s.set([v.scale_0, v.scale_1, v.scale_2], 3 * i);
    q.set([v.rot_0, v.rot_1, v.rot_2, v.rot_3], 4 * i);
  });
  return b;
}

test('ply: the header parsed (offsets, stride, data start, an element before the vertices)', () => {
  const vals = splatValues(3, rng(1));
  const pre = new Uint8Array(2 * 6).fill(7);
  const bytes = plyBytes(vals, SHUFFLED, { before: 'element camera 2\nproperty float a\nproperty short b\n', beforeBytes: pre });
  const h = parsePly(bytes);
  assert.equal(h.vertexCount, 3);
  assert.equal(h.stride, 4 + 4 + 8 + 4 + 4 + 16 + 4 + 4 + 4 + 4 + 4 + 2 + 2 + 4);
  assert.deepEqual([h.offset.z, h.offset.nx, h.offset.x, h.offset.rot_0, h.offset.y, h.offset.scale_1], [4, 8, 20, 24, 56, 64]);
  const text = new TextDecoder().decode(bytes.subarray(0, h.dataOffset - pre.length));
  assert.ok(text.endsWith('end_header\n'), 'dataOffset: after the header and the camera element');
  assert.equal(new DataView(bytes.buffer, bytes.byteOffset).getFloat32(h.dataOffset + h.offset.x, true), Math.fround(vals[0].x));
});

test('ply: the same bits as the splats in separate arrays (both modules, both modes, both sorts)', async () => {
  for (const [m, satc] of (await satcs).entries()) {
    for (const [name, props] of [['standard', STANDARD], ['shuffled', SHUFFLED]]) {
      const vals = splatValues(4000, rng(3 + m));
      for (let i = 9; i < vals.length; i += 13) Object.assign(vals[i], { x: vals[i - 5].x, y: vals[i - 5].y, z: vals[i - 5].z }); // equal depths
      const file = plyBytes(vals, props);
      const a = plyBatch(satc, file), b = arraysBatch(satc, vals);
      const f = satc.frustumPerspective(CAM);
      for (const mode of ['conservative', 'exact']) {
        for (const sort of [16, 32]) {
          const opts = { mode, sort, depth: true, keys: true };
          const x = a.cullSorted(f, opts), y = b.cullSorted(f, opts);
          same(x, y, `${satc.isa} ${name} ${mode} sort ${sort}`);
          assert.ok(x.visible > 500 && x.visible < 3500, `${name}: a share visible (${x.visible})`);
        }
      }
      // read in place: a write to the records is seen by the next cull
      const dv = new DataView(a.bytes.buffer, a.bytes.byteOffset), h = a.ply;
      const vis = a.cull(f).indices[0];
      for (const c of ['x', 'y', 'z']) dv.setFloat32(vis * h.stride + h.offset[c], c === 'z' ? -50 : 0, true);
      assert.ok(!a.cull(f).indices.includes(vis), 'the splat moved behind the camera is culled');
      a.dispose();
      b.dispose();
    }
  }
});

test('ply: the same bits as the .splat records of the same splats', async () => {
  for (const satc of await satcs) {
    const vals = splatValues(3000, rng(21), { intRot: true });
    const a = plyBatch(satc, plyBytes(vals, STANDARD), { k: 2.5 });
    const s = splatBatch(satc, vals.length, { k: 2.5 });
    const rec = s.records, u = s.bytes;
    vals.forEach((v, i) => {
      rec.set([v.x, v.y, v.z, expf(satc, v.scale_0), expf(satc, v.scale_1), expf(satc, v.scale_2)], 8 * i);
      u.set([v.rot_0, v.rot_1, v.rot_2, v.rot_3].map((c) => c + 128), 32 * i + 28);
    });
    const f = satc.frustumPerspective(CAM);
    for (const mode of ['conservative', 'exact']) {
      for (const sort of [16, 32]) {
        const opts = { mode, sort, depth: true, keys: true };
        same(a.cullSorted(f, opts), s.cullSorted(f, opts), `${satc.isa} ${mode} sort ${sort}`);
      }
    }
    a.dispose();
    s.dispose();
  }
});

test('ply: bad files throw SatcError naming the problem, before any allocation', async () => {
  const [satc] = await satcs;
  const vals = splatValues(4, rng(5));
  const drop = (n) => STANDARD.filter(([p]) => p !== n);
  const retype = (n, t) => STANDARD.map(([p, ty]) => [p, p === n ? t : ty]);
  const cases = [
    ['ascii', plyBytes(vals, STANDARD, { format: 'ascii' }), -13, /ascii PLY/],
    ['big endian', plyBytes(vals, STANDARD, { format: 'binary_big_endian' }), -13, /binary_big_endian: only binary_little_endian/],
    ['no rot_2', plyBytes(vals, drop('rot_2')), -13, /vertex has no rot_2/],
    ['no x, no scale_1', plyBytes(vals, drop('x').filter(([p]) => p !== 'scale_1')), -13, /vertex has no x, scale_1/],
    ['x double', plyBytes(vals, retype('x', 'double')), -13, /x is double, not float/],
    ['scale_0 uchar', plyBytes(vals, retype('scale_0', 'uchar')), -13, /scale_0 is uchar, not float/],
    ['opacity int', plyBytes(vals, retype('opacity', 'int')), -13, /opacity is int, not float/],
    ['rotation apart', plyBytes(vals, [...drop('rot_3'), ['pad', 'float'], ['rot_3', 'float']]), -13, /rot_0..rot_3 must be adjacent/],
    ['rotation reordered', plyBytes(vals, [...drop('rot_0'), ['rot_0', 'float']]), -13, /adjacent/],
    ['misaligned', plyBytes(vals, [['flag', 'uchar'], ...STANDARD]), -13, /multiples of 4 bytes/],
    ['list in vertex', plyBytes(vals, STANDARD, { after: 'property list uchar int idx\n' }), -13, /list property/],
    ['truncated', plyBytes(vals, STANDARD, { cut: 3 }), -9, /truncated: .* need/],
    ['more vertices than data', plyBytes(vals, STANDARD, { count: 5 }), -9, /truncated/],
    ['no end_header', new TextEncoder().encode('ply\nformat binary_little_endian 1.0\nelement vertex 1\n'), -9, /no end_header/],
    ['not a ply', new TextEncoder().encode('PLY\nend_header\n'), -13, /not a PLY/],
  ];
  const heap = satc._heap, alloc = heap.alloc.bind(heap);
  let allocs = 0;
  heap.alloc = (...a) => { allocs++; return alloc(...a); };
  try {
    for (const [what, bytes, status, re] of cases) {
      for (const fn of [() => plyBatch(satc, bytes), () => splatSorter(satc, bytes, { format: 'ply' })]) {
        assert.throws(fn, (e) => e instanceof SatcError && e.status === status && re.test(e.message), what);
      }
    }
    assert.throws(() => plyBatch(satc, 'scene.ply'), (e) => e instanceof SatcError && /ArrayBuffer/.test(e.message));
    assert.equal(allocs, 0, 'no module memory taken by a failed load');
  } finally {
    heap.alloc = alloc;
  }
  plyBatch(satc, plyBytes(vals, STANDARD)).dispose(); // the good file of the same values loads
});

test('orderInto / sorter: the order cullSorted gives, into any Uint32Array; bad calls leave it untouched', async () => {
  for (const satc of await satcs) {
    const vals = splatValues(5000, rng(8));
    const file = plyBytes(vals, SHUFFLED);
    const sorter = splatSorter(satc, file.slice().buffer, { sort: 32, mode: 'exact' });
    assert.equal(sorter.format, 'ply');
    const f = satc.frustumPerspective(CAM), ref = sorter.batch.cullSorted(f, { sort: 32, mode: 'exact' }).sorted;
    const order = new Uint32Array(new SharedArrayBuffer(4 * 5000)).fill(0xdeadbeef);
    assert.equal(sorter.sort(f, order), ref.length);
    assert.deepEqual(order.subarray(0, ref.length), ref);
    assert.equal(order[ref.length], 0xdeadbeef, 'nothing past the count written');
    // a matrix camera: the frustum frustumFromMatrix builds
    const m = new Float32Array([1.2, 0, 0, 0, 0, 2, 0, 0, 0, 0, -1.002, -1, 0, -3, -0.2, 0]);
    const fm = satc.frustumFromMatrix(m);
    const n = sorter.sort(m, order);
    assert.deepEqual(order.subarray(0, n), sorter.batch.cullSorted(fm, { sort: 32, mode: 'exact' }).sorted);
    // no allocation per call once set up
    const heap = satc._heap, alloc = heap.alloc.bind(heap), buf = heap.memory.buffer;
    let allocs = 0;
    heap.alloc = (...a) => { allocs++; return alloc(...a); };
    for (let i = 0; i < 20; i++) sorter.sort(i % 2 ? m : f, order);
    heap.alloc = alloc;
    assert.equal(allocs, 0, 'sort allocates nothing after setup');
    assert.equal(heap.memory.buffer, buf, 'the module memory did not grow');
    // errors: nothing written
    const short = new Uint32Array(4999).fill(7);
    assert.throws(() => sorter.sort(f, short), (e) => e instanceof SatcError && e.status === -9);
    assert.ok(short.every((v) => v === 7), 'a short order array is left as it was');
    assert.throws(() => sorter.sort(f, new Int32Array(5000)), (e) => e instanceof SatcError && e.status === -1);
    const bad = new Float32Array(16); // a zero matrix
    assert.throws(() => sorter.sort(bad, order.fill(3)), (e) => e instanceof SatcError);
    assert.ok(order.every((v) => v === 3), 'a bad matrix leaves the order as it was');
    assert.throws(() => sorter.batch.orderInto(f, order, { sort: 8 }), (e) => e instanceof SatcError && e.status === -8);
    assert.throws(() => splatSorter(satc, file, { format: 'gltf' }), (e) => e instanceof SatcError && e.status === -8);
    assert.throws(() => splatSorter(satc, new Uint8Array(33), { format: 'splat' }), (e) => e instanceof SatcError && e.status === -9);
    // update: the records copied again from the source
    const moved = plyBytes(vals.map((v) => ({ ...v, z: -v.z })), SHUFFLED);
    sorter.update(moved);
    const fresh = splatSorter(satc, moved, { sort: 32, mode: 'exact' }), o2 = new Uint32Array(5000);
    const k = fresh.sort(f, o2);
    assert.equal(sorter.sort(f, order), k);
    assert.deepEqual(order.subarray(0, k), o2.subarray(0, k));
    assert.throws(() => sorter.update(moved.subarray(0, 100)), (e) => e instanceof SatcError && e.status === -9);
    sorter.dispose();
    fresh.dispose();
  }
});

// Runs a sorter in a worker_threads Worker: { shared } or a transferred buffer.
function inWorker(msg, transfer) {
  return new Promise((ok, fail) => {
    const w = new Worker(new URL('./sorter-worker.mjs', import.meta.url));
    w.once('message', (m) => { w.terminate(); ok(m); });
    w.once('error', fail);
    w.postMessage(msg, transfer);
  });
}

test('sorter in a worker: from a SharedArrayBuffer and from a transferred ArrayBuffer', async () => {
  const [satc] = await satcs;
  const vals = splatValues(3000, rng(13)), file = plyBytes(vals, STANDARD);
  const ref = plyBatch(satc, file).cullSorted(satc.frustumPerspective(CAM)).sorted;
  // shared: the file and the order array are both the main thread's
  const sab = new SharedArrayBuffer(file.length);
  new Uint8Array(sab).set(file);
  const order = new Uint32Array(new SharedArrayBuffer(4 * vals.length));
  const r1 = await inWorker({ cam: CAM, src: sab, order });
  assert.equal(r1.count, ref.length);
  assert.deepEqual(order.subarray(0, r1.count), ref);
  assert.equal(r1.allocs, 0, 'no allocation in the worker per sort');
  // transferred: the worker gets the file, writes into a transferred order buffer and sends it back
  const copy = file.slice().buffer, out = new ArrayBuffer(4 * vals.length);
  const r2 = await inWorker({ cam: CAM, src: copy, order: out }, [copy, out]);
  assert.equal(copy.byteLength, 0, 'the file was transferred');
  assert.deepEqual(new Uint32Array(r2.order, 0, r2.count), ref);
});
