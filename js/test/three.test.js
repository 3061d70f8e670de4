// satc/three: three.js's own Frustum cases replayed, and the helpers
// checked against three's answers and satc's plain API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as THREE from 'three';
import { load } from '../src/index.js';
import { frustumFromCamera, cullCameras, InstanceCuller, BatchedCuller, SceneCuller, moduleAttribute } from '../src/three.js';
import { rng } from './helpers.js';

const satc = await load();
const V = (x, y, z) => new THREE.Vector3(x, y, z);

// The frusta three.js's Frustum tests use: a perspective and an
// orthographic projection looking down -z, near 1, far 100.
function projections() {
  return [
    ['perspective', new THREE.Matrix4().makePerspective(-1, 1, 1, -1, 1, 100)],
    ['orthographic', new THREE.Matrix4().makeOrthographic(-1, 1, 1, -1, 1, 100)],
    ['perspective webgpu', new THREE.Matrix4().makePerspective(-1, 1, 1, -1, 1, 100, THREE.WebGPUCoordinateSystem), 'webgpu'],
  ];
}

// Distance by which a box lies outside the frustum's planes (> 0: outside that plane).
function boxOutside(frustum, box) {
  let worst = -Infinity;
  for (const p of frustum.planes) {
    const n = p.normal;
    const x = n.x > 0 ? box.max.x : box.min.x, y = n.y > 0 ? box.max.y : box.min.y, z = n.z > 0 ? box.max.z : box.min.z;
    worst = Math.max(worst, -(n.x * x + n.y * y + n.z * z + p.constant));
  }
  return worst;
}

test("three.js's Frustum cases: what it separates by a margin is culled, what it calls intersecting is kept", () => {
  for (const [name, m, depth] of projections()) {
    const three = new THREE.Frustum().setFromProjectionMatrix(m, depth ? THREE.WebGPUCoordinateSystem : THREE.WebGLCoordinateSystem);
    const f = satc.frustumFromMatrix(m.elements, { depth: depth ?? 'webgl' });
    // The named cases of three's tests, written from their intent.
    const ortho = name === 'orthographic';
    const boxes = [
      [new THREE.Box3(V(0, 0, 0), V(1, 1, 1)), false], // behind the near plane
      [new THREE.Box3(V(-1, -1, -2), V(1, 1, 0)), true], // across the near plane
      [new THREE.Box3(V(-1, -1, -50), V(1, 1, -49)), true],
      [new THREE.Box3(V(-1, -1, -102), V(1, 1, -101)), false], // past the far plane
      [new THREE.Box3(V(3, -1, -10), V(4, 1, -9)), !ortho], // inside the perspective's 90 degrees, right of the ortho box
      [new THREE.Box3(V(-1, -1, -1), V(1, 1, 1)), null], // touches the near plane: three's rounding decides
    ];
    const spheres = [
      [new THREE.Sphere(V(0, 0, 0), 0), false], [new THREE.Sphere(V(0, 0, 0), 0.9), false],
      [new THREE.Sphere(V(0, 0, 0), 1.1), true], [new THREE.Sphere(V(0, 0, -50), 0), true],
      [new THREE.Sphere(V(0, 0, -1.001), 0), true], [new THREE.Sphere(V(0, 0, -0.999), 0), false],
      [new THREE.Sphere(V(-1.001, 0, -1.001), 0), !ortho], [new THREE.Sphere(V(-1.001, 0, -1.5), 0), !ortho],
      [new THREE.Sphere(V(0, 0, -100.1), 0), false], [new THREE.Sphere(V(0, 0, -101), 1.1), true],
    ];
    // Seeded boxes and spheres all around, most of them near a face.
    const r = rng(7);
    for (let i = 0; i < 3000; i++) {
      const xy = ortho ? 5 : 240, hs = ortho ? 0.4 : 3;
      const c = V((r() - 0.5) * xy, (r() - 0.5) * xy, -r() * 130 + 10);
      const h = V(r() * hs, r() * hs, r() * hs);
      boxes.push([new THREE.Box3(c.clone().sub(h), c.clone().add(h)), null]);
      spheres.push([new THREE.Sphere(c, r() * hs), null]);
    }
    const center = [], half = [], sc = [], rad = [];
    for (const [b] of boxes) {
      const c = b.getCenter(V()), h = b.getSize(V()).multiplyScalar(0.5);
      center.push(c.x, c.y, c.z); half.push(h.x, h.y, h.z);
    }
    for (const [s] of spheres) { sc.push(s.center.x, s.center.y, s.center.z); rad.push(s.radius); }
    for (const mode of ['conservative', 'exact']) {
      const rb = satc.cull(f, { form: 'minmax', min: boxes.flatMap(([b]) => b.min.toArray()), max: boxes.flatMap(([b]) => b.max.toArray()) }, { mode, output: 'bitmask' }).bitmask;
      const rs = satc.cull(f, { form: 'spheres', center: sc, radius: rad }, { mode, output: 'bitmask' }).bitmask;
      const bit = (m, i) => (m[i >>> 3] >> (i & 7)) & 1;
      let culled = 0, kept = 0;
      boxes.forEach(([b, named], i) => {
        const t = three.intersectsBox(b);
        if (named !== null) assert.equal(t, named, `${name}: three's box case ${i}`);
        if (!t && boxOutside(three, b) > 1e-3) { assert.equal(bit(rb, i), 0, `${name} ${mode}: box ${i} three separates is kept`); culled++; }
        // three's plane test keeps boxes near edges that exact mode culls; conservative keeps them all
        if (t && (mode === 'conservative' || three.containsPoint(b.getCenter(V())))) { assert.equal(bit(rb, i), 1, `${name} ${mode}: box ${i} three intersects is culled`); kept++; }
      });
      spheres.forEach(([s, named], i) => {
        const t = three.intersectsSphere(s);
        if (named !== null) assert.equal(t, named, `${name}: three's sphere case ${i}`);
        const out = Math.max(...three.planes.map((p) => -p.distanceToPoint(s.center) - s.radius));
        if (!t && out > 1e-3) { assert.equal(bit(rs, i), 0, `${name} ${mode}: sphere ${i} three separates is kept`); culled++; }
        if (t && (mode === 'conservative' || three.containsPoint(s.center))) { assert.equal(bit(rs, i), 1, `${name} ${mode}: sphere ${i} three intersects is culled`); kept++; }
      });
      assert.equal(bit(rb, 5), 1, `${name} ${mode}: the box touching the near plane is kept`);
      assert.ok(culled > 2000 && kept > 500, `${name} ${mode}: ${culled} culled, ${kept} kept`);
    }
  }
});

function city(n, seed) {
  const r = rng(seed), m = new THREE.Matrix4(), q = new THREE.Quaternion(), mats = new Float32Array(16 * n);
  for (let i = 0; i < n; i++) {
    q.setFromAxisAngle(V(0, 1, 0), r() * 6.28);
    m.compose(V((r() - 0.5) * 400, 0, (r() - 0.5) * 400), q, V(1 + r() * 5, 1 + r() * 20, 1 + r() * 5));
    m.toArray(mats, 16 * i);
  }
  return mats;
}

function camera(x = 0, z = 0) {
  const c = new THREE.PerspectiveCamera(60, 16 / 9, 0.1, 300);
  c.position.set(x, 2, z);
  c.lookAt(x + 50, 1, z - 30);
  c.updateMatrixWorld();
  return c;
}

test('InstanceCuller: visible instances drawn in source order, sources untouched, mesh.count set', () => {
  const n = 5000, mats = city(n, 11);
  const geo = new THREE.BoxGeometry(1, 1, 1);
  const mesh = new THREE.InstancedMesh(geo, new THREE.MeshBasicMaterial(), n);
  mesh.instanceMatrix.array.set(mats);
  mesh.instanceColor = new THREE.InstancedBufferAttribute(new Float32Array(3 * n).map((_, i) => i), 3);
  mesh.position.set(5, 0, -3);
  mesh.updateMatrixWorld();
  const culler = new InstanceCuller(satc, mesh, { mode: 'exact' });
  const cam = camera();
  const drawn = culler.update(cam);
  // the same cull through the plain API on world matrices
  const world = new Float32Array(16 * n), w = new THREE.Matrix4(), a = new THREE.Matrix4();
  for (let i = 0; i < n; i++) w.multiplyMatrices(mesh.matrixWorld, a.fromArray(mats, 16 * i)).toArray(world, 16 * i);
  const expect = satc.cull(frustumFromCamera(satc, cam), { form: 'instances', matrices: world, localCenter: [0, 0, 0], localHalf: [0.5, 0.5, 0.5] }, { mode: 'exact' });
  assert.ok(drawn > 100 && drawn < n / 2, `drawn ${drawn}`);
  assert.equal(drawn, expect.visible);
  assert.equal(mesh.count, drawn);
  assert.equal(mesh.frustumCulled, true, 'three keeps its own whole-mesh test (bounds over every instance)');
  assert.equal(mesh.instanceMatrix.usage, THREE.DynamicDrawUsage);
  assert.deepEqual(culler.matrices, mats, 'source matrices untouched');
  for (let k = 0; k < drawn; k++) {
    const i = expect.indices[k];
    assert.equal(culler.sourceIndex(k), i);
    assert.deepEqual(mesh.instanceMatrix.array.subarray(16 * k, 16 * k + 16), mats.subarray(16 * i, 16 * i + 16));
    assert.equal(mesh.instanceColor.array[3 * k], 3 * i);
  }
  assert.deepEqual(mesh.instanceMatrix.updateRanges, [{ start: 0, count: 16 * drawn }]);
  // group bounds change nothing drawn (random order here: no gain, same answer)
  const grouped = new InstanceCuller(satc, new THREE.InstancedMesh(geo, mesh.material, n), { mode: 'exact', groups: 64 });
  grouped.mesh.position.copy(mesh.position);
  grouped.mesh.updateMatrixWorld();
  grouped.matrices.set(mats);
  grouped.matricesChanged();
  assert.equal(grouped.update(cam), drawn);
  assert.deepEqual(grouped.mesh.instanceMatrix.array.subarray(0, 16 * drawn), mesh.instanceMatrix.array.subarray(0, 16 * drawn));
  grouped.dispose();
  // three's own sphere test keeps every instance satc draws (its sphere holds the box)
  const tf = new THREE.Frustum().setFromProjectionMatrix(new THREE.Matrix4().multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse));
  const sphere = new THREE.Sphere();
  let threeKeeps = 0;
  for (let i = 0; i < n; i++) {
    geo.computeBoundingSphere();
    sphere.copy(geo.boundingSphere).applyMatrix4(w.fromArray(world, 16 * i));
    if (tf.intersectsSphere(sphere)) threeKeeps++;
  }
  assert.ok(drawn <= threeKeeps, `${drawn} vs three ${threeKeeps}`);
  // memory growth under the culler: its views follow, the answer stays
  const big = satc.batch('aabb', 3_000_000);
  assert.equal(culler.update(cam), drawn);
  assert.deepEqual(culler.matrices, mats);
  big.dispose();
  // shadow cascades in the same pass: the union is drawn
  const light = new THREE.OrthographicCamera(-60, 60, 60, -60, 0.1, 500);
  light.position.set(100, 200, 0);
  light.lookAt(0, 0, 0);
  const withShadows = culler.update(cam, { shadowCameras: [light] });
  const lightOnly = satc.cull(frustumFromCamera(satc, light, undefined, mesh.matrixWorld), culler.batch, { mode: 'exact' });
  const union = new Set([...expect.indices, ...lightOnly.indices]);
  assert.equal(withShadows, union.size);
  assert.deepEqual(culler.viewVisible, [drawn, lightOnly.visible]);
  assert.ok(union.size > drawn);
  // a non-uniform mesh scale makes the frustum oblique in the mesh's frame: a right frustum holding it is culled against
  mesh.scale.set(1, 3, 2);
  mesh.rotation.set(0.3, 0.5, 0.2);
  mesh.updateMatrixWorld();
  const skewed = culler.update(cam);
  for (let i = 0; i < n; i++) w.multiplyMatrices(mesh.matrixWorld, a.fromArray(mats, 16 * i)).toArray(world, 16 * i);
  const skewedWorld = satc.cull(frustumFromCamera(satc, cam), { form: 'instances', matrices: world, localCenter: [0, 0, 0], localHalf: [0.5, 0.5, 0.5] }, { mode: 'exact' });
  const drawnSet = new Set(Array.from({ length: skewed }, (_, k) => culler.sourceIndex(k)));
  for (const i of skewedWorld.indices) assert.ok(drawnSet.has(i), `instance ${i} in view is not drawn`);
  assert.ok(skewed < n / 2, `drawn ${skewed}`);
  culler.dispose();
  assert.equal(mesh.count, n);
  assert.deepEqual(mesh.instanceMatrix.array, mats);
});

test('BatchedCuller: visibility from satc, a subset of what three keeps', () => {
  const n = 3000, mats = city(n, 12);
  const bm = new THREE.BatchedMesh(n, 100000, 200000, new THREE.MeshBasicMaterial());
  const g0 = bm.addGeometry(new THREE.BoxGeometry(1, 1, 1));
  const g1 = bm.addGeometry(new THREE.CylinderGeometry(0.5, 0.5, 2, 8));
  const m = new THREE.Matrix4();
  for (let i = 0; i < n; i++) bm.setMatrixAt(bm.addInstance(i % 3 ? g0 : g1), m.fromArray(mats, 16 * i));
  const culler = new BatchedCuller(satc, bm, { mode: 'exact' });
  const cam = camera(-20, 10);
  const vis = culler.update(cam);
  assert.equal(bm.perObjectFrustumCulled, false);
  let count = 0;
  const tf = new THREE.Frustum().setFromProjectionMatrix(new THREE.Matrix4().multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse));
  const s = new THREE.Sphere();
  for (let i = 0; i < n; i++) {
    const v = bm.getVisibleAt(i);
    if (v) count++;
    bm.getBoundingSphereAt(bm.getGeometryIdAt(i), s).applyMatrix4(bm.getMatrixAt(i, m));
    if (v) assert.ok(tf.intersectsSphere(s), `instance ${i} drawn, three culls its sphere`);
  }
  assert.equal(count, vis);
  assert.ok(vis > 50 && vis < n / 2, `visible ${vis}`);
  // a second camera changes only what differs
  assert.notEqual(culler.update(camera(30, -40)), vis);
  culler.dispose();
});

test('SceneCuller: many Meshes in one call; cullCameras: camera + cascades', () => {
  const n = 2000, mats = city(n, 13), scene = new THREE.Scene();
  const geos = [new THREE.BoxGeometry(1, 1, 1), new THREE.SphereGeometry(0.7)];
  const meshes = [];
  for (let i = 0; i < n; i++) {
    const mesh = new THREE.Mesh(geos[i % 2], new THREE.MeshBasicMaterial());
    new THREE.Matrix4().fromArray(mats, 16 * i).decompose(mesh.position, mesh.quaternion, mesh.scale);
    scene.add(mesh);
    meshes.push(mesh);
  }
  scene.updateMatrixWorld();
  const pass = new SceneCuller(satc, meshes, { mode: 'exact' });
  const cam = camera(10, 5);
  const vis = pass.update(cam);
  const tf = new THREE.Frustum().setFromProjectionMatrix(new THREE.Matrix4().multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse));
  let three = 0, count = 0;
  for (const m of meshes) {
    const t = tf.intersectsObject(m);
    if (t) three++;
    if (m.visible) { count++; assert.ok(t, 'satc draws a mesh three culls'); }
    assert.equal(m.frustumCulled, true, 'frustumCulled stays the user\'s');
  }
  assert.equal(count, vis);
  assert.ok(vis > 20 && vis <= three, `${vis} vs three ${three}`);
  const light = new THREE.OrthographicCamera(-50, 50, 50, -50, 1, 400);
  light.position.set(0, 200, 0);
  light.lookAt(0, 0, 0);
  const r = cullCameras(satc, [cam, light], pass.batch, { mode: 'exact', indices: true });
  assert.equal(r.visible[0], vis);
  assert.equal(r.visible[1], satc.cull(frustumFromCamera(satc, light), pass.batch, { mode: 'exact' }).visible);
  pass.dispose();
});

test('moduleAttribute: a three.js attribute over module memory follows memory growth', async () => {
  const s = await load();
  const b = s.batch('instances', 1000, {}, { matrices: city(1000, 14), localCenter: [0, 0, 0], localHalf: [1, 1, 1] });
  const { attribute, release } = moduleAttribute(s, b, 'matrices', 16);
  const mesh = new THREE.InstancedMesh(new THREE.BoxGeometry(), new THREE.MeshBasicMaterial(), 1000);
  mesh.instanceMatrix = attribute;
  const before = attribute.array, version = attribute.version;
  assert.equal(before.buffer, s.memory.buffer, 'no copy: the attribute is module memory');
  const big = s.batch('aabb', 2_000_000); // grows the memory
  assert.equal(before.length, 0, 'the old view is detached');
  assert.equal(attribute.array.buffer, s.memory.buffer);
  assert.deepEqual(attribute.array, b.matrices);
  assert.ok(attribute.version > version, 'marked for upload');
  const m = new THREE.Matrix4();
  mesh.getMatrixAt(7, m);
  assert.deepEqual(m.elements, Array.from(b.matrices.subarray(112, 128)));
  release();
  big.dispose();
  b.dispose();
});
