// Which occluders InstanceCuller draws: of the solid instances the frustum
// keeps, those covering at least minTexels texels (their box's mean
// projected area), the maxOccluders with the largest boxes. The oracle
// picks that set in double from the world matrices, draws it with the
// low-level API and culls: the culler must draw exactly the same instances.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as THREE from 'three';
import { load, SatcError } from '../src/index.js';
import { frustumFromCamera, InstanceCuller } from '../src/three.js';
import { rng } from './helpers.js';

const satc = await load();
const box = new THREE.BoxGeometry(1, 1, 1);
const mat = new THREE.MeshBasicMaterial();

// n boxes of random size and yaw in front of a camera at the origin looking
// down -z, under a mesh moved, turned and scaled uniformly.
function scene(seed, n) {
  const r = rng(seed);
  const mesh = new THREE.InstancedMesh(box, mat, n);
  mesh.position.set(1, -2, -3);
  mesh.rotation.set(0.1, 0.4, 0);
  mesh.scale.setScalar(1.5);
  mesh.updateMatrixWorld();
  const inv = mesh.matrixWorld.clone().invert(), m = new THREE.Matrix4(), q = new THREE.Quaternion(), up = new THREE.Vector3(0, 1, 0);
  for (let i = 0; i < n; i++) {
    const d = 4 + 250 * r() ** 2;
    const p = new THREE.Vector3((r() - 0.5) * 2 * d, (r() - 0.5) * 1.1 * d, -d);
    const s = new THREE.Vector3(0.3 + 12 * r() ** 3, 0.3 + 25 * r() ** 3, 0.3 + 12 * r() ** 3);
    m.compose(p, q.setFromAxisAngle(up, r() * 3), s).premultiply(inv); // the world pose, in the mesh's frame
    mesh.setMatrixAt(i, m);
  }
  const camera = new THREE.PerspectiveCamera(60, 16 / 9, 0.5, 400);
  camera.updateMatrixWorld();
  return { mesh, camera };
}

// The occluders the culler should draw, chosen in double from world space.
// `first`: a Set of indices ranked above the rest (what was visible before).
function expectedOccluders(src, model, camera, kept, { width, height, minTexels, maxOccluders }, first = new Set()) {
  const P = camera.projectionMatrix.elements, V = camera.matrixWorldInverse.elements, W = model.elements;
  const texelsPerArea = 2 * Math.abs(P[0] * P[5]) * (width / 2) * (height / 2);
  const mul = (A, x, y, z, w) => [0, 1, 2].map((k) => A[k] * x + A[4 + k] * y + A[8 + k] * z + A[12 + k] * w);
  const list = [];
  for (const i of kept) {
    const e = Array.from(src.subarray(16 * i, 16 * i + 16));
    // half axes and centre (the unit box's) in view space
    const axis = (k) => mul(V, ...mul(W, e[k] / 2, e[k + 1] / 2, e[k + 2] / 2, 0), 0);
    const [a, b, c] = [0, 4, 8].map((k) => Math.hypot(...axis(k)));
    const centre = mul(V, ...mul(W, e[12], e[13], e[14], 1), 1);
    const d = Math.max(-centre[2] - Math.hypot(a, b, c), camera.near);
    const area = a * b + b * c + c * a, texels = (texelsPerArea * area) / (d * d);
    list.push({ i, area, texels });
  }
  const near = (x, y) => Math.abs(x - y) <= 1e-5 * Math.max(x, y);
  // the float32 selection may round a borderline case the other way: the scene must have none
  assert.ok(!list.some((o) => near(o.texels, minTexels)), 'an occluder on the minTexels border');
  const rank = (o) => (first.has(o.i) ? 1 : 0);
  const cand = list.filter((o) => o.texels >= minTexels).sort((x, y) => rank(y) - rank(x) || y.area - x.area);
  if (cand.length > maxOccluders && maxOccluders > 0) assert.ok(!near(cand[maxOccluders - 1].area, cand[maxOccluders].area), 'a tie at the budget');
  return { chosen: cand.slice(0, maxOccluders).map((o) => o.i), candidates: cand.length };
}

// What the low-level API draws with exactly these occluders (source
// matrices `src` in the frame of `model`).
function drawnWith(src, model, camera, occluders, { width, height, minTexels }) {
  const n = src.length / 16, f = frustumFromCamera(satc, camera, undefined, model);
  const all = satc.batch('instances', n, {}, { matrices: src, localCenter: [0, 0, 0], localHalf: [0.5, 0.5, 0.5] });
  const occ = satc.batch('instances', Math.max(occluders.length, 1), {}, { localCenter: [0, 0, 0], localHalf: [0.5, 0.5, 0.5] });
  occluders.forEach((i, k) => occ.matrices.set(all.matrices.subarray(16 * i, 16 * i + 16), 16 * k));
  const pyr = satc.depthPyramid(width, height).begin(f);
  if (occluders.length) pyr.rasterize(occ, { first: 0, count: occluders.length, minTexels });
  pyr.build();
  const kept = satc.cull(f, all).indices;
  const drawn = satc.cull(f, all, { occlusion: pyr }).indices;
  for (const x of [all, occ, pyr]) x.dispose();
  return { kept, drawn };
}

// small: only the instances with the smallest boxes are solid, so the
// walk over the largest boxes (4096 of the 6000) runs out and the
// frustum pass chooses
for (const [seed, maxOccluders, minTexels, n, small] of [[11, 40, 4, 3000], [12, 150, 4, 3000], [13, 7, 30, 6000], [14, 100000, 4, 3000], [15, 0, 4, 3000], [16, 5, 4, 6000, true]]) {
  test(`InstanceCuller draws the ${maxOccluders} largest occluders over ${minTexels} texels (seed ${seed}${small ? ', only small ones solid' : ''})`, () => {
    const { mesh, camera } = scene(seed, n);
    const width = 320, height = 180;
    const src = mesh.instanceMatrix.array.slice(), model = mesh.matrixWorld;
    let solid = true;
    if (small) {
      const area = (i) => {
        const [a, b, c] = [0, 4, 8].map((k) => Math.hypot(src[16 * i + k], src[16 * i + k + 1], src[16 * i + k + 2]));
        return a * b + b * c + c * a;
      };
      const bySize = Array.from({ length: n }, (_, i) => i).sort((x, y) => area(x) - area(y));
      solid = new Uint8Array(n);
      for (const i of bySize.slice(0, 1500)) solid[i] = 1;
    }
    const c = new InstanceCuller(satc, mesh, { occlusion: { occluders: solid, maxOccluders, minTexels, size: width, visibleFirst: false } });
    const opts = { width, height, minTexels, maxOccluders };
    const { kept } = drawnWith(src, model, camera, [], opts);
    const { chosen, candidates } = expectedOccluders(src, model, camera, solid === true ? kept : kept.filter((i) => solid[i]), opts);
    const want = drawnWith(src, model, camera, chosen, opts).drawn;
    const k = c.update(camera);
    const got = Array.from({ length: k }, (_, j) => c.sourceIndex(j)).sort((x, y) => x - y);
    const st = c.occlusion;
    assert.equal(c.pyramid.width, width);
    assert.equal(st.frustum, kept.length);
    assert.equal(st.candidates, candidates);
    assert.equal(st.occluders, chosen.length);
    // small budgets bind (the choice is tested), the large one does not
    assert.equal(candidates > maxOccluders, maxOccluders < 1000, `${candidates} candidates`);
    if (small) assert.ok(chosen.length === maxOccluders, 'small solids occlude');
    assert.deepEqual(got, Array.from(want), 'drawn instances');
    if (maxOccluders > 0) assert.ok(k < kept.length, `occlusion culls (${k} of ${kept.length} drawn)`);
    else assert.equal(k, kept.length);
    // the matrices stay put: later updates walk the largest boxes (no
    // frustum pass of their own) and must choose the same occluders
    for (let u = 0; u < 10; u++) {
      const k2 = c.update(camera), s2 = c.occlusion;
      assert.deepEqual(Array.from({ length: k2 }, (_, j) => c.sourceIndex(j)).sort((x, y) => x - y), Array.from(want), `update ${u + 2}: drawn instances`);
      assert.equal(s2.occluders, chosen.length, `update ${u + 2}: occluders`);
      assert.equal(s2.frustum, kept.length, `update ${u + 2}: kept by the frustum`);
      // the walk stops once the budget is met: it saw at least what it drew, at most every candidate
      assert.ok(s2.candidates >= chosen.length && s2.candidates <= candidates, `update ${u + 2}: ${s2.candidates} candidates`);
    }
    c.dispose();
  });
}

test('the walk over the largest boxes reads the matrices after the memory grows for its order', async () => {
  const own = await load(); // a module of its own, at its first size
  const { mesh, camera } = scene(17, 6000);
  camera.rotation.y = 0.7; // half the boxes out of view: the order's frustum test matters
  camera.updateMatrixWorld();
  const width = 320, height = 180, minTexels = 4, maxOccluders = 40, opts = { width, height, minTexels, maxOccluders };
  const src = mesh.instanceMatrix.array.slice(), model = mesh.matrixWorld;
  const { kept } = drawnWith(src, model, camera, [], opts);
  const expect = expectedOccluders(src, model, camera, kept, opts);
  const want = Array.from(drawnWith(src, model, camera, expect.chosen, opts).drawn);
  const c = new InstanceCuller(own, mesh, { occlusion: { occluders: true, maxOccluders, size: width, visibleFirst: false } });
  let grew = 0;
  for (let u = 0; u < 12; u++) {
    const stop = own.onMemoryGrow(() => grew++);
    const k = c.update(camera);
    stop();
    if (u === 0) grew = 0; // the first update's own allocations
    assert.deepEqual(Array.from({ length: k }, (_, j) => c.sourceIndex(j)).sort((x, y) => x - y), want, `update ${u + 1}`);
    // from the 9th update on the walk chooses, stopping at the budget
    // (the frustum pass counts every candidate)
    const st = c.occlusion;
    if (u >= 8) assert.ok(st.candidates < expect.candidates, `update ${u + 1}: the walk chose (${st.candidates} of ${expect.candidates} candidates)`);
  }
  assert.ok(grew > 0, 'the memory grew in a later update (the order made)');
  c.dispose();
});

test('after the matrices change, the choice follows them', () => {
  const { mesh, camera } = scene(41, 2000);
  const width = 320, height = 180, minTexels = 4, maxOccluders = 50, opts = { width, height, minTexels, maxOccluders };
  const c = new InstanceCuller(satc, mesh, { occlusion: { occluders: true, maxOccluders, size: width, visibleFirst: false } });
  c.update(camera);
  const other = scene(42, 2000).mesh.instanceMatrix.array;
  // half through setMatrixAt, half written in place and announced
  const m = new THREE.Matrix4();
  for (let i = 0; i < 1000; i++) c.setMatrixAt(i, m.fromArray(other, 16 * i));
  c.matrices.set(other.subarray(16 * 1000, 16 * 2000), 16 * 1000);
  c.matricesChanged();
  const src = other.slice(0, 16 * 2000), model = mesh.matrixWorld;
  const { kept } = drawnWith(src, model, camera, [], opts);
  const { chosen } = expectedOccluders(src, model, camera, kept, opts);
  const want = drawnWith(src, model, camera, chosen, opts).drawn;
  const k = c.update(camera);
  assert.deepEqual(Array.from({ length: k }, (_, j) => c.sourceIndex(j)), Array.from(want));
  c.dispose();
});

test('visibleFirst: what the previous update showed is drawn first', () => {
  const { mesh, camera } = scene(43, 3000);
  const width = 320, height = 180, minTexels = 4, maxOccluders = 40, opts = { width, height, minTexels, maxOccluders };
  const c = new InstanceCuller(satc, mesh, { occlusion: { occluders: true, maxOccluders, size: width, visibleFirst: true } });
  const twin = scene(43, 3000).mesh; // the same instances: one culler per mesh
  const plain = new InstanceCuller(satc, twin, { occlusion: { occluders: true, maxOccluders, size: width, visibleFirst: false } });
  // the source matrices (an update writes the drawn ones over the mesh's)
  const src = mesh.instanceMatrix.array.slice(), model = mesh.matrixWorld;
  const k1 = c.update(camera);
  const seen = new Set(Array.from({ length: k1 }, (_, j) => c.sourceIndex(j)));
  // the camera turns a little: the new view overlaps the old one
  camera.rotation.y += 0.08;
  camera.updateMatrixWorld();
  const { kept } = drawnWith(src, model, camera, [], opts);
  const byArea = expectedOccluders(src, model, camera, kept, opts).chosen;
  const { chosen } = expectedOccluders(src, model, camera, kept, opts, seen);
  assert.notDeepEqual([...chosen].sort(), [...byArea].sort(), 'the scene must make the two rules differ');
  assert.ok(chosen.every((i) => seen.has(i)) || kept.filter((i) => seen.has(i)).length < maxOccluders);
  const list = (x, k) => Array.from({ length: k }, (_, j) => x.sourceIndex(j));
  const k2 = c.update(camera);
  assert.deepEqual(list(c, k2), Array.from(drawnWith(src, model, camera, chosen, opts).drawn));
  // more updates of the same view, the later ones walking the largest
  // boxes: each draws first what the update before it showed
  let shown = new Set(list(c, k2));
  for (let u = 0; u < 10; u++) {
    const want = drawnWith(src, model, camera, expectedOccluders(src, model, camera, kept, opts, shown).chosen, opts).drawn;
    const k = c.update(camera);
    assert.deepEqual(list(c, k), Array.from(want), `update ${u + 3}`);
    shown = new Set(list(c, k));
  }
  plain.update(camera);
  plain.update(camera);
  assert.deepEqual(list(plain, plain.occlusion.drawn), Array.from(drawnWith(src, model, camera, byArea, opts).drawn));
  c.dispose();
  plain.dispose();
});

test('InstanceCuller picks occluders by their boxes, not their order or colour', () => {
  // the same boxes in reverse order: the same set is drawn
  const { mesh, camera } = scene(21, 2000);
  const rev = new THREE.InstancedMesh(box, mat, 2000);
  rev.matrixWorld.copy(mesh.matrixWorld);
  rev.position.copy(mesh.position);
  rev.quaternion.copy(mesh.quaternion);
  rev.scale.copy(mesh.scale);
  const m = new THREE.Matrix4();
  for (let i = 0; i < 2000; i++) rev.setMatrixAt(1999 - i, mesh.getMatrixAt(i, m));
  const a = new InstanceCuller(satc, mesh, { occlusion: { occluders: true, maxOccluders: 60 } });
  const b = new InstanceCuller(satc, rev, { occlusion: { occluders: true, maxOccluders: 60 } });
  const ka = a.update(camera), kb = b.update(camera);
  assert.equal(ka, kb);
  const sa = new Set(Array.from({ length: ka }, (_, j) => a.sourceIndex(j)));
  for (let j = 0; j < kb; j++) assert.ok(sa.has(1999 - b.sourceIndex(j)));
  a.dispose();
  b.dispose();
});

test('occlusion.maxOccluders is checked', () => {
  for (const bad of [-1, 1.5, NaN, '8', null]) {
    const { mesh } = scene(31, 10);
    if (bad === null) {
      // null means the default
      new InstanceCuller(satc, mesh, { occlusion: { occluders: true, maxOccluders: bad } }).dispose();
      continue;
    }
    assert.throws(() => new InstanceCuller(satc, mesh, { occlusion: { occluders: true, maxOccluders: bad } }), (e) => e instanceof SatcError && e.statusName === 'SATC_ERR_RANGE', String(bad));
  }
});
