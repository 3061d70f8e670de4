// satc/three helpers in the situations three.js users put them in: each
// case checks that a helper never hides what three would draw, and gives
// back what it changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as THREE from 'three';
import { load, SatcError } from '../src/index.js';
import { frustumFromCamera, cullCameras, InstanceCuller, BatchedCuller, SceneCuller } from '../src/three.js';

const satc = await load();
const V = (x, y, z) => new THREE.Vector3(x, y, z);
const box = new THREE.BoxGeometry(1, 1, 1);
const mat = new THREE.MeshBasicMaterial();

/** The frustum three's renderer culls `camera` with. */
export function threeFrustum(camera) {
  camera.updateMatrixWorld();
  const vp = new THREE.Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse);
  return new THREE.Frustum().setFromProjectionMatrix(vp, camera.coordinateSystem, camera.reversedDepth);
}

/** Objects three's renderer would draw (its projectObject: visible chain, then its frustum test). */
export function drawnByThree(root, frustum) {
  const out = new Set();
  (function walk(o) {
    if (o.visible === false) return;
    if ((o.isMesh || o.isLine || o.isPoints) && (!o.frustumCulled || frustum.intersectsObject(o))) out.add(o);
    for (const c of o.children) walk(c);
  })(root);
  return out;
}

function camera({ reversed = false, webgpu = false, ortho = false, far = 100 } = {}) {
  const c = ortho ? new THREE.OrthographicCamera(-10, 10, 10, -10, 0.5, far) : new THREE.PerspectiveCamera(60, 1.5, 0.5, far);
  if (webgpu) c.coordinateSystem = THREE.WebGPUCoordinateSystem;
  if (reversed) c._reversedDepth = true; // what WebGLRenderer({ reversedDepthBuffer: true }) sets on each camera
  c.updateProjectionMatrix();
  c.position.set(0, 0, 0);
  c.lookAt(0, 0, -1);
  c.updateMatrixWorld();
  return c;
}

function meshAt(x, y, z, geo = box) {
  const m = new THREE.Mesh(geo, mat);
  m.position.set(x, y, z);
  return m;
}

test('reversed depth in WebGL (three builds [0, 1]): every helper runs and keeps what three keeps', () => {
  for (const ortho of [false, true]) {
    const cam = camera({ reversed: true, ortho });
    const tf = threeFrustum(cam);
    const scene = new THREE.Scene();
    const objs = [];
    for (let z = 1; z < 130; z += 3) for (const x of [-12, 0, 6]) { const m = meshAt(x, 0, -z); scene.add(m); objs.push(m); }
    scene.updateMatrixWorld();
    const sc = new SceneCuller(satc, objs);
    sc.update(cam);
    let culledFar = 0;
    for (const m of objs) {
      const three = tf.intersectsObject(m);
      if (three) assert.equal(m.visible, true, `${ortho ? 'ortho' : 'persp'}: mesh at ${m.position.toArray()} three draws is hidden`);
      if (m.position.z < -102) { assert.equal(m.visible, false, `mesh past far at ${m.position.z} kept`); culledFar++; }
    }
    assert.ok(culledFar > 0);
    sc.dispose();
    const im = new THREE.InstancedMesh(box, mat, objs.length);
    objs.forEach((m, i) => im.setMatrixAt(i, m.matrixWorld));
    const ic = new InstanceCuller(satc, im);
    assert.ok(ic.update(cam) > 0);
    ic.dispose();
    const bm = new THREE.BatchedMesh(objs.length, 1000, 3000, mat);
    const g = bm.addGeometry(box);
    objs.forEach((m) => bm.setMatrixAt(bm.addInstance(g), m.matrixWorld));
    const bc = new BatchedCuller(satc, bm);
    assert.ok(bc.update(cam) > 0);
    bc.dispose();
    const b = satc.batch('aabb', 1, {}, { center: [0, 0, -50], half: [1, 1, 1] });
    assert.deepEqual(cullCameras(satc, [cam], b).visible, [1]);
    b.dispose();
  }
});

test('the far plane of a camera is kept in full (near 0.1, far 10,000; every depth convention)', () => {
  for (const opts of [{}, { webgpu: true }, { reversed: true }, { webgpu: true, reversed: true }]) {
    const cam = camera({ ...opts, far: 10000 });
    cam.near = 0.1;
    cam.updateProjectionMatrix();
    const tf = threeFrustum(cam);
    const f = frustumFromCamera(satc, cam);
    const center = [], radius = [], want = [];
    for (let z = 9900; z < 10002; z += 0.25) {
      for (const x of [0, 3000, -5000]) {
        const s = new THREE.Sphere(V(x, x / 3, -z), 0.01);
        if (!tf.intersectsSphere(s)) continue;
        center.push(x, x / 3, -z);
        radius.push(0.01);
        want.push(z);
      }
    }
    assert.ok(want.length > 300);
    for (const mode of ['conservative', 'exact']) {
      const r = satc.cull(f, { form: 'spheres', center, radius }, { mode });
      assert.equal(r.visible, want.length, `${JSON.stringify(opts)} ${mode}: ${want.length - r.visible} spheres three keeps are culled`);
    }
  }
});

test('frustumFromMatrix of three\'s double matrices (projectionMatrix x matrixWorldInverse) keeps what three\'s Frustum keeps', () => {
  for (const opts of [{}, { webgpu: true }, { reversed: true }, { webgpu: true, reversed: true }]) {
    const cam = camera({ ...opts, far: 10000 });
    cam.near = 0.1;
    cam.updateProjectionMatrix();
    const tf = threeFrustum(cam);
    const vp = new THREE.Matrix4().multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse);
    const f = satc.frustumFromMatrix(vp.elements, { depth: opts.webgpu || opts.reversed ? 'webgpu' : 'webgl', reversed: !!opts.reversed });
    const min = [], max = [], want = [];
    const b = new THREE.Box3();
    for (let z = 9900; z < 10002; z += 0.5) {
      for (const x of [0, 3000, -5000]) {
        // boxes 1 deep, their far face at z + 0.5 (9994.5 among them)
        b.min.set(x - 0.5, x / 3 - 0.5, -z - 0.5);
        b.max.set(x + 0.5, x / 3 + 0.5, -z + 0.5);
        if (!tf.intersectsBox(b)) continue;
        min.push(...b.min.toArray());
        max.push(...b.max.toArray());
        want.push(z);
      }
    }
    assert.ok(want.includes(9994) && want.length > 200);
    for (const mode of ['conservative', 'exact']) {
      const r = satc.cull(f, { form: 'minmax', min, max }, { mode });
      assert.equal(r.visible, want.length, `${JSON.stringify(opts)} ${mode}: ${want.length - r.visible} boxes three keeps are culled`);
    }
  }
});

test('SceneCuller never hides a subtree holding something in view (a wheel in view under a body out of view)', () => {
  const cam = camera();
  const scene = new THREE.Scene();
  const car = meshAt(-30, 0, -10); // far left: out of view
  const axle = new THREE.Group();
  axle.position.set(28, 0, 0); // the wheel lands at x = -2: in view
  const wheel = meshAt(0, 0, 0);
  const light = new THREE.PointLight();
  const lamp = meshAt(-60, 0, 0); // a lamp out of view holding a light
  lamp.add(light);
  car.add(axle);
  axle.add(wheel);
  scene.add(car, lamp);
  const far = meshAt(-30, 0, 10); // a plain mesh out of view: culled
  const farChild = meshAt(0, 1, 0); // and its child, out of view too
  far.add(farChild);
  scene.add(far);
  const sc = new SceneCuller(satc, [car, wheel, lamp, far, farChild]);
  sc.update(cam);
  const tf = threeFrustum(cam);
  assert.ok(tf.intersectsObject(wheel) && !tf.intersectsObject(car));
  assert.ok(drawnByThree(scene, tf).has(wheel), 'the wheel is drawn');
  assert.equal(car.visible, true, 'the body stays visible: hiding it hides the wheel');
  assert.equal(lamp.visible, true, 'a parent of a light is never hidden');
  assert.equal(far.visible, false, 'a subtree wholly out of view is hidden');
  assert.equal(farChild.visible, false);
  sc.dispose();
});

test('SceneCuller leaves skinned, instanced and frustumCulled = false meshes to three, and `visible` to the user', () => {
  const cam = camera();
  const scene = new THREE.Scene();
  // a skinned mesh whose bind pose is out of view, posed into view by its bone
  const geo = new THREE.BoxGeometry(1, 1, 1);
  const n = geo.attributes.position.count;
  geo.setAttribute('skinIndex', new THREE.Uint16BufferAttribute(new Uint16Array(4 * n), 4));
  geo.setAttribute('skinWeight', new THREE.Float32BufferAttribute(new Float32Array(4 * n).map((_, i) => (i % 4 === 0 ? 1 : 0)), 4));
  const bone = new THREE.Bone();
  const skinned = new THREE.SkinnedMesh(geo, mat);
  skinned.position.set(-40, 0, -10);
  skinned.add(bone);
  skinned.bind(new THREE.Skeleton([bone]));
  bone.position.set(40, 0, 0); // posed: the box at (0, 0, -10)
  // instances in view around an origin out of view
  const inst = new THREE.InstancedMesh(box, mat, 3);
  inst.position.set(0, 0, 40);
  for (let i = 0; i < 3; i++) inst.setMatrixAt(i, new THREE.Matrix4().makeTranslation(i, 0, -50));
  const always = meshAt(0, 0, 20); // behind the camera, frustumCulled = false
  always.frustumCulled = false;
  const hidden = meshAt(0, 0, -10); // in view, hidden by the user
  hidden.visible = false;
  scene.add(skinned, inst, always, hidden);
  scene.updateMatrixWorld();
  skinned.skeleton.update();
  const tf = threeFrustum(cam);
  const three = drawnByThree(scene, tf);
  assert.ok(three.has(skinned) && three.has(inst) && three.has(always) && !three.has(hidden));
  const sc = new SceneCuller(satc, [skinned, inst, always, hidden]);
  sc.update(cam);
  assert.deepEqual([...drawnByThree(scene, tf)], [...three], 'exactly what three draws');
  assert.equal(always.frustumCulled, false, 'frustumCulled is the user\'s');
  assert.equal(hidden.visible, false);
  hidden.visible = true; // the user shows it: in view, so drawn
  sc.update(cam);
  assert.equal(hidden.visible, true);
  hidden.position.set(0, 0, 30); // moved out of view: the culler hides it
  sc.update(cam);
  assert.equal(hidden.visible, false);
  hidden.visible = false; // the user hides it while culled; it comes back into view
  hidden.position.set(0, 0, -10);
  sc.update(cam);
  assert.equal(hidden.visible, false, 'the user\'s visible = false holds');
  sc.dispose();
  assert.equal(hidden.visible, false);
  assert.ok(Object.getOwnPropertyDescriptor(hidden, 'visible').writable, 'a plain property again');
});

test('SceneCuller culls with this frame\'s matrices (objects moved before update())', () => {
  const cam = camera();
  const scene = new THREE.Scene();
  const g = new THREE.BoxGeometry(1, 1, 1);
  const m = meshAt(0, 0, -10, g);
  const mover = meshAt(0, 0, 30); // behind the camera
  scene.add(m, mover);
  scene.updateMatrixWorld();
  const sc = new SceneCuller(satc, [m, mover]);
  sc.update(cam);
  assert.equal(m.visible, true);
  assert.equal(mover.visible, false);
  // the documented loop: move, update(), render(): update sees this frame's position
  mover.position.set(0, 0, -10);
  sc.update(cam);
  assert.equal(mover.visible, true, 'moved into view before update()');
  sc.dispose();
});

test('SceneCuller follows changed geometry (refresh(), a reset boundingBox, a new geometry)', () => {
  const cam = camera();
  const g = new THREE.BoxGeometry(1, 1, 1);
  const m = meshAt(0, 0, -10, g);
  m.updateMatrixWorld();
  const sc = new SceneCuller(satc, [m]);
  sc.update(cam);
  assert.equal(m.visible, true);
  // the geometry edited out of view, its bounding box recomputed as three asks
  g.translate(0, 0, 40);
  g.computeBoundingBox();
  sc.refresh();
  sc.update(cam);
  assert.equal(m.visible, false);
  // edited back, boundingBox reset to null: noticed without refresh()
  g.translate(0, 0, -40);
  g.boundingBox = null;
  sc.update(cam);
  assert.equal(m.visible, true);
  // a new geometry on the mesh
  m.geometry = new THREE.BoxGeometry(1, 1, 1).translate(0, 0, 40);
  sc.update(cam);
  assert.equal(m.visible, false);
  sc.dispose();
});

test('InstanceCuller follows mesh.count (allocate 100, draw 10) and gives it back', () => {
  const cam = camera();
  const mesh = new THREE.InstancedMesh(box, mat, 100);
  for (let i = 0; i < 100; i++) mesh.setMatrixAt(i, new THREE.Matrix4().makeTranslation(i % 10, 0, -10 - i));
  mesh.count = 10;
  const culler = new InstanceCuller(satc, mesh);
  const drawn = culler.update(cam);
  assert.ok(drawn > 0 && drawn <= 10, `drawn ${drawn}`);
  for (let k = 0; k < drawn; k++) {
    assert.ok(culler.sourceIndex(k) < 10);
    assert.ok(mesh.instanceMatrix.array[16 * k + 14] <= -10, 'no unused identity instance drawn at the origin');
  }
  mesh.count = 20; // the user draws more, as with three
  assert.equal(culler.update(cam), 20);
  assert.equal(mesh.count, 20);
  culler.dispose();
  assert.equal(mesh.count, 20, 'dispose gives back the user\'s count');
  assert.equal(mesh.frustumCulled, true);
});

test('InstanceCuller: mesh.setMatrixAt / getMatrixAt after the culler is made work on source indices', () => {
  const cam = camera();
  const mesh = new THREE.InstancedMesh(box, mat, 10);
  for (let i = 0; i < 10; i++) mesh.setMatrixAt(i, new THREE.Matrix4().makeTranslation(0, 0, -10 - i));
  const culler = new InstanceCuller(satc, mesh);
  assert.equal(culler.update(cam), 10);
  mesh.setMatrixAt(3, new THREE.Matrix4().makeTranslation(0, 0, 50)); // behind the camera
  const m = new THREE.Matrix4();
  mesh.getMatrixAt(3, m);
  assert.equal(m.elements[14], 50);
  assert.equal(culler.update(cam), 9);
  culler.dispose();
  mesh.getMatrixAt(3, m);
  assert.equal(m.elements[14], 50);
});

test('InstanceCuller: picking after the camera moved (bounds over every source; instanceId is the source index)', () => {
  const mesh = new THREE.InstancedMesh(box, mat, 40);
  for (let i = 0; i < 40; i++) mesh.setMatrixAt(i, new THREE.Matrix4().makeTranslation(i < 20 ? -30 : 30, 0, -10 - (i % 20)));
  const culler = new InstanceCuller(satc, mesh);
  const look = (x) => { const c = camera(); c.position.set(x, 0, 0); c.updateMatrixWorld(); return c; };
  culler.update(look(-30)); // the first frame draws the left row only
  const miss = new THREE.Raycaster(V(-30, 0, 0), V(0, 0, -1)).intersectObject(mesh);
  assert.ok(miss.length > 0);
  culler.update(look(30)); // now the right row only
  const hits = new THREE.Raycaster(V(30, 0, 0), V(0, 0, -1)).intersectObject(mesh);
  assert.ok(hits.length > 0, 'a ray through drawn instances hits');
  assert.equal(hits[0].instanceId, 20, 'the nearest is source instance 20');
  const behind = new THREE.Raycaster(V(-30, 0, 0), V(0, 0, -1)).intersectObject(mesh);
  assert.equal(behind[0]?.instanceId, 0, 'instances not drawn this frame are still picked, as without the culler');
  culler.dispose();
});

test('InstanceCuller: a raycast hit after the drawn instances were compacted maps to its drawn slot and back', () => {
  // two instances; the camera moves from the first to the second between updates
  const mesh = new THREE.InstancedMesh(box, mat, 2);
  mesh.setMatrixAt(0, new THREE.Matrix4().makeTranslation(-50, 0, -10));
  mesh.setMatrixAt(1, new THREE.Matrix4().makeTranslation(50, 0, -10));
  const culler = new InstanceCuller(satc, mesh);
  const look = (x) => { const c = camera(); c.position.set(x, 0, 0); c.updateMatrixWorld(); return c; };
  assert.equal(culler.update(look(-50)), 1);
  assert.equal(culler.sourceIndex(0), 0);
  assert.equal(culler.update(look(50)), 1);
  const hits = new THREE.Raycaster(V(50, 0, 0), V(0, 0, -1)).intersectObject(mesh);
  assert.equal(hits.length > 0 && hits[0].instanceId, 1, 'the hit names the source instance, as getMatrixAt takes it');
  const k = culler.drawnIndex(hits[0].instanceId);
  assert.equal(k, 0, 'drawn in slot 0 of instanceMatrix');
  assert.equal(culler.sourceIndex(k), hits[0].instanceId);
  const m = new THREE.Matrix4().fromArray(mesh.instanceMatrix.array, 16 * k);
  assert.equal(m.elements[12], 50, 'instanceMatrix holds the hit instance at that slot');
  assert.equal(culler.drawnIndex(0), -1, 'an instance not drawn this frame has no slot');
  assert.throws(() => culler.drawnIndex(2), (e) => e instanceof SatcError && e.statusName === 'SATC_ERR_RANGE');
  assert.throws(() => culler.sourceIndex(1), (e) => e instanceof SatcError && /source index/.test(e.message), 'the error says what a hit holds');
  culler.dispose();
});

test('InstanceCuller: sourceIndex after an update with shadow cameras; frustumCulled = false draws all', () => {
  const cam = camera();
  const light = new THREE.OrthographicCamera(-5, 5, 5, -5, 0.1, 100);
  light.position.set(0, 50, -120); // beyond the camera's far plane
  light.lookAt(0, 0, -120);
  const mesh = new THREE.InstancedMesh(box, mat, 200);
  for (let i = 0; i < 200; i++) mesh.setMatrixAt(i, new THREE.Matrix4().makeTranslation(0, 0, 50 - i));
  const culler = new InstanceCuller(satc, mesh);
  const n = culler.update(cam, { shadowCameras: [light] });
  const sources = Array.from({ length: n }, (_, k) => culler.sourceIndex(k));
  const inLight = sources.filter((i) => 50 - i < -110);
  assert.ok(inLight.length > 0 && sources.length > inLight.length);
  const m = new THREE.Matrix4();
  for (let k = 0; k < n; k++) assert.equal(mesh.instanceMatrix.array[16 * k + 14], 50 - sources[k]);
  assert.throws(() => culler.sourceIndex(n), SatcError);
  culler.update(cam);
  const single = culler.visible;
  assert.ok(single < n);
  for (let k = 0; k < single; k++) {
    mesh.getMatrixAt(culler.sourceIndex(k), m);
    assert.equal(m.elements[14], mesh.instanceMatrix.array[16 * k + 14], 'this frame\'s indices');
  }
  mesh.frustumCulled = false;
  assert.equal(culler.update(cam), 200);
  culler.dispose();
});

test('BatchedCuller: the user keeps instance visibility; dispose gives everything back', () => {
  const cam = camera();
  const bm = new THREE.BatchedMesh(10, 1000, 3000, mat);
  const g = bm.addGeometry(box);
  for (let i = 0; i < 10; i++) bm.setMatrixAt(bm.addInstance(g), new THREE.Matrix4().makeTranslation(0, 0, i < 5 ? -10 - i : 10 + i));
  bm.setVisibleAt(2, false);
  assert.equal(bm.perObjectFrustumCulled, true);
  const culler = new BatchedCuller(satc, bm);
  assert.equal(culler.update(cam), 4);
  assert.equal(bm.getVisibleAt(2), false);
  assert.equal(bm.getVisibleAt(7), false);
  bm.setVisibleAt(2, true); // the user shows it
  bm.setVisibleAt(3, false); // and hides another
  assert.equal(culler.update(cam), 4);
  assert.deepEqual([0, 1, 2, 3, 4].map((i) => bm.getVisibleAt(i)), [true, true, true, false, true]);
  bm.setVisibleAt(8, false); // hidden by the user while culled: stays so after dispose
  culler.dispose();
  assert.equal(bm.perObjectFrustumCulled, true);
  assert.deepEqual(Array.from({ length: 10 }, (_, i) => bm.getVisibleAt(i)), [true, true, true, false, true, true, true, true, false, true]);
});

test('helpers take ArrayCamera, CubeCamera and StereoCamera views; bad cameras are a SatcError', () => {
  const left = camera(), right = camera();
  left.position.set(-20, 0, 0); right.position.set(20, 0, 0);
  left.updateMatrixWorld(); right.updateMatrixWorld();
  const array = new THREE.ArrayCamera([left, right]);
  const mesh = new THREE.InstancedMesh(box, mat, 3);
  [-20, 0, 20].forEach((x, i) => mesh.setMatrixAt(i, new THREE.Matrix4().makeTranslation(x, 0, -10)));
  const culler = new InstanceCuller(satc, mesh);
  assert.equal(culler.update(array), 2); // each eye sees its own instance, neither the middle one
  assert.equal(culler.update(left), 1);
  const cube = new THREE.CubeCamera(0.5, 100, new THREE.WebGLCubeRenderTarget(4));
  cube.coordinateSystem = THREE.WebGLCoordinateSystem; // what cube.update(renderer, scene) sets first
  cube.updateCoordinateSystem();
  cube.position.set(0, 0, -30);
  cube.updateMatrixWorld();
  assert.equal(culler.update(cube), 3);
  const stereo = new THREE.StereoCamera();
  stereo.update(camera());
  assert.ok(culler.update(stereo) >= 1);
  for (const bad of [null, undefined, {}, mesh]) {
    assert.throws(() => culler.update(bad), (e) => e instanceof SatcError && e.statusName === 'SATC_ERR_NULL');
    assert.throws(() => frustumFromCamera(satc, bad), SatcError);
  }
  culler.dispose();
});
