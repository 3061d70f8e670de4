// The API under misuse: huge sizes, failed calls, objects of another
// module, views kept past dispose, many kinds of caller arrays, malformed
// input. Every case ends in a SatcError or a correct answer, and nothing
// is written on error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load, SatcError, Status } from '../src/index.js';
import { Heap } from '../src/memory.js';

const satc = await load();
const cam = { eye: [0, 0, 0], dir: [0, 0, -1], up: [0, 1, 0], fovy: 1.0471976, aspect: 16 / 9, near: 0.1, far: 1000 };

function throwsStatus(fn, name) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof SatcError, `not a SatcError: ${e}`);
    assert.equal(e.statusName, name, e.message);
    assert.equal(e.status, Status[name.slice(5)]);
    return true;
  });
}

test('sizes past 2 GiB never wrap: malloc gets the whole size, past 4 GiB is SATC_ERR_NOMEM', async () => {
  const sizes = [];
  const memory = new WebAssembly.Memory({ initial: 1 });
  const heap = new Heap({ memory, malloc: (n) => { sizes.push(n); return 0; }, free() {}, satc_status_string: () => 0 });
  for (const bytes of [2 ** 31 + 1, 3e9, 2 ** 32 - 2 ** 17]) {
    assert.throws(() => heap.alloc(bytes, 'test'), (e) => e.statusName === 'SATC_ERR_NOMEM');
    assert.ok(sizes.at(-1) >= bytes && sizes.at(-1) < bytes + 16, `malloc(${sizes.at(-1)}) for ${bytes} bytes`);
  }
  const calls = sizes.length;
  assert.throws(() => heap.alloc(2 ** 32, 'test'), (e) => e.statusName === 'SATC_ERR_NOMEM');
  assert.equal(sizes.length, calls, 'past 4 GiB malloc is not asked');
  // the module: batches past 4 GiB, a reserve past 4 GiB
  const s = await load();
  throwsStatus(() => s.batch('instances', 2 ** 26), 'SATC_ERR_NOMEM'); // 4 GiB of matrices
  throwsStatus(() => s.batch('instances', 0x3fffffff), 'SATC_ERR_NOMEM');
  throwsStatus(() => s.batch('aabb', 0x3fffffff), 'SATC_ERR_NOMEM');
  throwsStatus(() => s.output(0x3fffffff), 'SATC_ERR_NOMEM');
  await assert.rejects(load({ reserve: 5e9 }), (e) => e.statusName === 'SATC_ERR_NOMEM');
  throwsStatus(() => s.reserve(-1), 'SATC_ERR_RANGE');
});

test('a failed cull leaves its `into` output as the last answer, even when it needed more room', () => {
  const f = satc.frustumPerspective(cam);
  const small = satc.batch('aabb', 10, {}, { center: new Float32Array(30).map((_, i) => (i % 3 === 2 ? -5 : 0)), half: new Float32Array(30).fill(1) });
  const out = satc.output();
  satc.cull(f, small, { into: out, output: ['indices', 'bitmask', 'classes'] });
  const last = [out.visible, out.count, Array.from(out.indices), Array.from(out.bitmask), Array.from(out.classes)];
  const big = satc.batch('aabb', 5000, {}, { center: new Float32Array(15000).map((_, i) => (i % 3 === 2 ? -7 : 0)), half: new Float32Array(15000).fill(1) });
  const unbounded = satc.frustumFromPlanes([[0, 0, -1, -1]]);
  throwsStatus(() => satc.cull(unbounded, big, { into: out, mode: 'exact', output: ['indices', 'bitmask', 'classes'] }), 'SATC_ERR_FAR');
  assert.deepEqual([out.visible, out.count, Array.from(out.indices), Array.from(out.bitmask), Array.from(out.classes)], last);
  assert.equal(satc.cull(unbounded, big, { into: out }).visible, 5000, 'the output works afterwards');
  small.dispose();
  big.dispose();
  out.dispose();
});

test('batches and outputs of one load() are refused by another', async () => {
  const a = satc, b = await load();
  const f = b.frustumPerspective(cam);
  const data = { center: [0, 0, -5], half: [1, 1, 1] };
  const ba = a.batch('aabb', 1, {}, data), bb = b.batch('aabb', 1, {}, data);
  const before = Array.from(bb.center);
  throwsStatus(() => b.cull(f, bb, { into: a.output() }), 'SATC_ERR_NULL');
  throwsStatus(() => b.cull(f, ba), 'SATC_ERR_NULL');
  throwsStatus(() => b.cullViews([f], ba), 'SATC_ERR_NULL');
  throwsStatus(() => b.toAABBs(ba), 'SATC_ERR_NULL');
  assert.deepEqual(Array.from(bb.center), before);
  assert.equal(a.cull(f, ba).visible, 1, 'frusta are plain bytes: any module takes them');
  ba.dispose();
  bb.dispose();
});

test('a typed array kept from a disposed batch or output cannot reach what comes next', () => {
  const s = satc;
  const a = s.batch('aabb', 100);
  const kept = a.center; // as the README example keeps it in a variable
  a.dispose();
  const b = s.batch('aabb', 100); // likely at the same address
  kept[0] = 123; // a write through a detached view goes nowhere
  assert.equal(b.center[0], 0, 'the new batch is untouched');
  assert.ok(b.center.every((x) => x === 0));
  const out = s.output();
  s.cull(s.frustumPerspective(cam), b, { into: out });
  const idx = out.indices;
  out.dispose();
  assert.equal(idx.length, 0, 'the output view is detached');
  b.dispose();
});

test('the cache for caller arrays stays bounded over many kinds', async () => {
  const s = await load();
  const f = s.frustumPerspective(cam);
  const m = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, -5, 1];
  s.cull(f, { form: 'instances', local: { meshes: 1 }, matrices: m, localCenter: [0, 0, 0], localHalf: [1, 1, 1], meshIds: [0] });
  const bytes = s.memoryBytes;
  for (let k = 1; k <= 1500; k++) {
    const r = s.cull(f, { form: 'instances', local: { meshes: k }, matrices: m, localCenter: new Float32Array(3 * k), localHalf: new Float32Array(3 * k).fill(1), meshIds: [k - 1] });
    assert.equal(r.visible, 1);
  }
  assert.ok(s.memoryBytes - bytes < 4 << 20, `the memory grew by ${((s.memoryBytes - bytes) / 2 ** 20).toFixed(1)} MiB`);
});

test('batch.set takes only whole volume indices for `at`; nothing is written otherwise', () => {
  const b = satc.batch('aabb', 4);
  for (const at of [0.5, NaN, -1, 5, Infinity, '1', null]) {
    throwsStatus(() => b.set({ center: [1, 2, 3] }, at), 'SATC_ERR_RANGE');
  }
  assert.ok(b.center.every((x) => x === 0));
  b.set({ center: [1, 2, 3] }, 3);
  assert.deepEqual(Array.from(b.center.subarray(9)), [1, 2, 3]);
  b.dispose();
});

test('malformed input is a SatcError, never a TypeError; nothing is written', () => {
  const f = satc.frustumPerspective(cam);
  const b = satc.batch('aabb', 2, {}, { center: [0, 0, -5, 0, 0, 5], half: [1, 1, 1, 1, 1, 1] });
  // null options are the defaults; other non-objects are refused
  assert.equal(satc.cull(f, b, null).visible, 1);
  assert.equal(satc.cullViews([f], b, null).visible[0], 1);
  assert.equal(satc.querySphere([0, 0, -5], 1, b, null).visible, 1);
  assert.equal(satc.frustumFromMatrix(new Array(16).fill(0).map((_, i) => (i % 5 === 0 ? 1 : 0)), null).kind, 'orthographic');
  throwsStatus(() => satc.cull(f, b, 5), 'SATC_ERR_FLAGS');
  throwsStatus(() => satc.batch('aabb', 1, 'x'), 'SATC_ERR_FLAGS');
  // null cameras and boxes
  throwsStatus(() => satc.frustumPerspective(null), 'SATC_ERR_NULL');
  throwsStatus(() => satc.frustumFromCamera(null), 'SATC_ERR_NULL');
  throwsStatus(() => satc.frustumFromBox(null), 'SATC_ERR_NULL');
  throwsStatus(() => satc.cullViews(null, b), 'SATC_ERR_RANGE');
  // detached caller arrays
  const gone = new Float32Array(6);
  structuredClone(gone.buffer, { transfer: [gone.buffer] });
  throwsStatus(() => b.set({ center: gone }), 'SATC_ERR_NULL');
  throwsStatus(() => satc.cull(f, { form: 'aabb', center: gone, half: gone }), 'SATC_ERR_NULL');
  throwsStatus(() => satc.frustumFromMatrix(gone), 'SATC_ERR_NULL');
  // BigInt arrays, strings, objects with a length
  throwsStatus(() => b.set({ center: new BigInt64Array(6) }), 'SATC_ERR_LAYOUT');
  const ib = satc.batch('instances', 1, { local: { meshes: 1 } });
  throwsStatus(() => ib.set({ meshIds: new BigUint64Array(1) }), 'SATC_ERR_LAYOUT');
  ib.dispose();
  throwsStatus(() => satc.frustumFromMatrix('0123456789abcdef'), 'SATC_ERR_LAYOUT');
  throwsStatus(() => satc.frustumFromMatrix({ length: 16 }), 'SATC_ERR_LAYOUT');
  throwsStatus(() => b.set({ center: { length: 6 } }), 'SATC_ERR_LAYOUT');
  throwsStatus(() => b.set({ center: 'abcdef' }), 'SATC_ERR_LAYOUT');
  throwsStatus(() => b.set({ center: [0, 0, '1', 0, 0, 0] }), 'SATC_ERR_LAYOUT');
  throwsStatus(() => satc.querySphere([0, 0, 1n], 1, b), 'SATC_ERR_LAYOUT');
  throwsStatus(() => satc.cull(f, { form: 'aabb', center: 'abcdef', half: [1, 1, 1, 1, 1, 1] }), 'SATC_ERR_LAYOUT');
  assert.deepEqual(Array.from(b.center), [0, 0, -5, 0, 0, 5]);
  // nested planes must be 4 numbers each, not regrouped
  throwsStatus(() => satc.frustumFromPlanes([[0, 0, -1], [-1, 0, 0, 10, 5]]), 'SATC_ERR_LAYOUT');
  throwsStatus(() => satc.frustumFromPlanes([[0, 0, -1, 0, 1, 0, 0, 1]]), 'SATC_ERR_LAYOUT');
  assert.equal(satc.frustumFromPlanes([[0, 0, -1, 1], [1, 0, 0, 10]]).planeCount, 2);
  // a ray needs a direction
  throwsStatus(() => satc.queryRay([0, 0, 0], [0, 0, 0], 10, b), 'SATC_ERR_BOUNDS');
  throwsStatus(() => satc.queryRay([0, 0, 0], [0, -0, 0], Infinity, b), 'SATC_ERR_BOUNDS');
  assert.equal(satc.queryRay([0, 0, 0], [0, 0, -1], 10, b).visible, 1);
  b.dispose();
});
