// BatchedCuller and SceneCuller with { occlusion }: what a wall hides, what
// peeks out, children under an occluded parent, occluders three does not
// draw, every camera convention, bad options; and random scenes checked
// against rays cast in double through every view (several per pyramid
// texel): whatever a ray meets in front of the first opaque surface must
// stay drawn, and occlusion only removes what the frustum kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as THREE from 'three';
import { load, SatcError } from '../src/index.js';
import { BatchedCuller, InstanceCuller, SceneCuller, frustumFromCamera } from '../src/three.js';
import { rng } from './helpers.js';

const satc = await load();
const QUICK = process.env.SATC_TEST_QUICK === '1';
const mat = new THREE.MeshBasicMaterial();
const box = new THREE.BoxGeometry(1, 1, 1);
const wallGeo = new THREE.BoxGeometry(40, 40, 1);

function camera({ reversed = false, webgpu = false, ortho = false, offset = false } = {}) {
  const c = ortho ? new THREE.OrthographicCamera(-12, 12, 8, -8, 0.5, 200) : new THREE.PerspectiveCamera(60, 1.5, 0.5, 200);
  if (webgpu) c.coordinateSystem = THREE.WebGPUCoordinateSystem;
  if (reversed) c._reversedDepth = true; // what WebGLRenderer({ reversedDepthBuffer: true }) sets on each camera
  if (offset) c.setViewOffset(1200, 800, 300, 100, 600, 500);
  c.updateProjectionMatrix();
  c.updateMatrixWorld();
  return c;
}

const CAMERAS = [{}, { webgpu: true }, { reversed: true }, { webgpu: true, reversed: true }, { ortho: true },
  { ortho: true, reversed: true }, { offset: true }, { ortho: true, offset: true, webgpu: true }];

function meshAt(x, y, z, geo = box, m = mat) {
  const o = new THREE.Mesh(geo, m);
  o.position.set(x, y, z);
  return o;
}

/** Objects three draws (the visible chain from the root, layers, frustum test). */
function drawnByThree(root, cam) {
  const vp = new THREE.Matrix4().multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse);
  const f = new THREE.Frustum().setFromProjectionMatrix(vp, cam.coordinateSystem, cam.reversedDepth);
  const out = new Set();
  (function walk(o) {
    if (o.visible === false) return;
    if ((o.isMesh || o.isLine || o.isPoints) && o.layers.test(cam.layers) && (!o.frustumCulled || f.intersectsObject(o))) out.add(o);
    for (const c of o.children) walk(c);
  })(root);
  return out;
}

function throwsSatc(fn, name) {
  assert.throws(fn, (e) => e instanceof SatcError && (!name || e.statusName === name));
}

// A wall at z = -10 (x, y in [-20, 20]); boxes wholly behind it, one
// peeking out beside its edge, one in front, one larger box behind a
// small one.
function wallScene() {
  const scene = new THREE.Scene();
  const wall = meshAt(0, 0, -10, wallGeo);
  const behind = [];
  for (let i = 0; i < 12; i++) behind.push(meshAt(-11 + 2 * i, (i % 3) - 1, -14 - i));
  const peek = meshAt(20.3, 0, -14); // its left half is behind the wall, its right half beside it
  const front = meshAt(0, 0, -6);
  const small = meshAt(0, 3, -6, new THREE.BoxGeometry(0.2, 0.2, 0.2)); // in front of big
  const big = meshAt(0, 3, -7, new THREE.BoxGeometry(3, 3, 1)); // behind small: big never hides small
  scene.add(wall, ...behind, peek, front, small, big);
  scene.updateMatrixWorld();
  return { scene, wall, behind, peek, front, small, big, all: [wall, ...behind, peek, front, small, big] };
}

test('SceneCuller: a wall hides what lies behind it, never what peeks out or lies in front (every camera convention)', () => {
  for (const [opts, merge] of CAMERAS.flatMap((c) => [[c, false], [c, true]])) {
    const cam = camera(opts);
    const what = JSON.stringify({ ...opts, merge });
    const s = wallScene();
    const three = drawnByThree(s.scene, cam);
    const sc = new SceneCuller(satc, s.all, { occlusion: { occluders: true, size: 160, merge } });
    const left = sc.update(cam);
    for (const o of s.behind) {
      if (three.has(o)) assert.equal(o.visible, false, `${what}: a box behind the wall at ${o.position.toArray()} is drawn`);
    }
    assert.ok(s.behind.filter((o) => three.has(o)).length >= 4, `${what}: too few boxes in view to test`);
    for (const o of [s.wall, s.front, s.small, s.big]) if (three.has(o)) assert.equal(o.visible, true, `${what}: ${o.position.toArray()} in front is hidden`);
    assert.ok(s.wall.visible);
    if (three.has(s.peek)) assert.equal(s.peek.visible, true, `${what}: the box peeking out beside the wall is hidden`);
    assert.equal(left, s.all.length - s.all.filter((o) => !o.visible).length);
    const st = sc.occlusion;
    assert.ok(st.occluders >= 1 && st.drawn < st.frustum && st.drawn === [...drawnByThree(s.scene, cam)].length, `${what}: ${JSON.stringify(st)}`);
    assert.ok(sc.pyramid && sc.pyramid.width === 160 && sc.pyramid.merge === merge);
    // occlusion off for one update: frustum only
    sc.update(cam, { occlusion: false });
    for (const o of s.all) assert.equal(o.visible, three.has(o) || !s.behind.includes(o) ? o.visible : false);
    assert.ok(s.behind.filter((o) => three.has(o)).every((o) => o.visible), `${what}: occlusion: false still hides`);
    sc.dispose();
    assert.ok(s.all.every((o) => o.visible === true), 'dispose gives visible back');
  }
});

test('merge: narrow wall pieces hide together what none hides alone; never what lies in front', () => {
  // upright boards 0.08 wide every 0.04 across the view at z = -10: 3/4
  // of a texel of the 160-wide pyramid each; boxes behind and in front
  const scene = new THREE.Scene(), board = new THREE.BoxGeometry(0.08, 20, 0.01), boards = [];
  for (let x = -9; x <= 9; x += 0.04) boards.push(meshAt(x, 0, -10, board));
  const behind = [], front = [];
  // (not straight ahead: a board whose side is seen edge-on adds no cells
  // to the texels it shares with that side, docs/raster.md)
  for (let i = 0; i < 8; i++) behind.push(meshAt((i < 4 ? -1 : 1) * (1.5 + 2 * (i % 4)), 0, -16));
  for (let i = 0; i < 3; i++) front.push(meshAt(-2 + 2 * i, 0, -6));
  scene.add(...boards, ...behind, ...front);
  scene.updateMatrixWorld();
  const cam = camera();
  const three = drawnByThree(scene, cam), all = [...boards, ...behind, ...front];
  const hidden = {};
  for (const merge of [false, true]) {
    const sc = new SceneCuller(satc, all, { occlusion: { occluders: (o) => o.geometry === board, size: 160, minTexels: 0, maxOccluders: Infinity, merge } });
    sc.update(cam);
    for (const o of front) assert.equal(o.visible, three.has(o), `merge ${merge}: a box in front of the boards is hidden`);
    hidden[merge] = behind.filter((o) => three.has(o) && !o.visible).length;
    sc.dispose();
  }
  assert.ok(behind.filter((o) => three.has(o)).length >= 6, 'too few boxes in view to test');
  assert.equal(hidden[false], 0, 'one board at a time hides nothing');
  assert.equal(hidden[true], behind.filter((o) => three.has(o)).length, 'merged, the boards hide every box behind them');
  throwsSatc(() => new SceneCuller(satc, all, { occlusion: { occluders: true, merge: 1 } }));
});

test('SceneCuller: an object is never hidden by itself, and occludes only where it is in front', () => {
  for (const opts of CAMERAS) {
    const cam = camera(opts);
    let shown = 0;
    // boxes of every size and turn, each alone with occlusion by itself: all drawn
    for (let i = 0; i < 30; i++) {
      const scene = new THREE.Scene();
      const o = meshAt((i % 6) * 3 - 8, Math.floor(i / 6) * 2 - 4, -1 - i * 2, new THREE.BoxGeometry(0.3 + i * 0.4, 0.5 + (i % 5), 0.2 + (i % 7)));
      o.rotation.set(i * 0.3, i * 0.7, i * 0.11);
      scene.add(o);
      scene.updateMatrixWorld();
      const sc = new SceneCuller(satc, [o], { occlusion: { occluders: true, minTexels: 0 } });
      sc.update(cam, { occlusion: false });
      const kept = o.visible; // by the frustum
      sc.update(cam);
      assert.equal(o.visible, kept, `${JSON.stringify(opts)}: box ${i} hidden by itself`);
      shown += kept ? 1 : 0;
      sc.dispose();
    }
    assert.ok(shown >= 10, `${shown} boxes in view`);
    // a large box behind a small one, overlapping on screen: the small one stays
    const scene = new THREE.Scene();
    const small = meshAt(0, 0, -5, new THREE.BoxGeometry(0.5, 0.5, 0.5));
    const large = meshAt(0, 0, -6, new THREE.BoxGeometry(6, 6, 1));
    scene.add(small, large);
    scene.updateMatrixWorld();
    const sc = new SceneCuller(satc, [small, large], { occlusion: { occluders: true, minTexels: 0 } });
    sc.update(cam);
    assert.ok(small.visible && large.visible, `${JSON.stringify(opts)}: the small box in front is hidden`);
    sc.dispose();
  }
});

test('SceneCuller: a child in view under an occluded parent stays drawn, and the parent with it', () => {
  for (const opts of [{}, { ortho: true }, { reversed: true, webgpu: true }]) {
    const cam = camera(opts);
    const s = wallScene();
    const parent = meshAt(0, 0, -20); // behind the wall
    const child = meshAt(1, 0, 16); // at (1, 0, -4): in front of the wall
    const grand = meshAt(0, 40, 0); // under the child, out of view
    child.add(grand);
    parent.add(child);
    const parent2 = meshAt(3, 1, -20); // behind the wall with its child behind it too
    const child2 = meshAt(0, 1, -2);
    parent2.add(child2);
    s.scene.add(parent, parent2);
    s.scene.updateMatrixWorld();
    const objs = [...s.all, parent, child, grand, parent2, child2];
    const three = drawnByThree(s.scene, cam);
    const sc = new SceneCuller(satc, objs, { occlusion: true });
    sc.update(cam);
    assert.ok(three.has(child), 'the child is in view');
    assert.equal(parent.visible, true, 'hiding the occluded parent would hide its child in view');
    assert.equal(child.visible, true);
    assert.equal(grand.visible, false, 'out of view, hidden');
    assert.equal(parent2.visible, false, 'an occluded subtree is hidden as a whole');
    assert.equal(child2.visible, false);
    // after the update, three draws the child in view
    const drawn = drawnByThree(s.scene, cam);
    assert.ok(drawn.has(child) && !drawn.has(parent2));
    sc.dispose();
  }
});

test('SceneCuller: only what three draws occludes (hidden, hidden parent, other layer, see-through, not marked)', () => {
  const cam = camera();
  const cases = {
    'visible = false': (w) => { w.visible = false; },
    'a hidden parent': (w, s) => { const g = new THREE.Group(); g.visible = false; s.scene.add(g); g.add(w); },
    'another layer': (w) => { w.layers.set(3); },
    transparent: (w) => { w.material = new THREE.MeshBasicMaterial({ transparent: true, opacity: 0.5 }); },
    'alpha test': (w) => { w.material = new THREE.MeshBasicMaterial({ alphaTest: 0.5 }); },
    wireframe: (w) => { w.material = new THREE.MeshBasicMaterial({ wireframe: true }); },
    'back side': (w) => { w.material = new THREE.MeshBasicMaterial({ side: THREE.BackSide }); },
    'frustumCulled = false': (w) => { w.frustumCulled = false; },
  };
  for (const [name, spoil] of Object.entries(cases)) {
    const s = wallScene();
    spoil(s.wall, s);
    s.scene.updateMatrixWorld();
    const three = drawnByThree(s.scene, cam);
    assert.ok(s.behind.filter((o) => three.has(o)).length >= 4);
    const sc = new SceneCuller(satc, s.all, { occlusion: { occluders: (o) => o.geometry === wallGeo } });
    sc.update(cam);
    for (const o of s.behind) if (three.has(o)) assert.equal(o.visible, true, `${name}: the wall hides a box`);
    sc.dispose();
  }
  // a predicate: only what it marks occludes
  // (the small boxes alone do not overlap one another on screen)
  for (const [occluders, hides] of [[(o) => o.geometry === box && o.position.z < -10, false], [(o) => o.geometry === wallGeo, true], [false, false]]) {
    const s = wallScene();
    const sc = new SceneCuller(satc, s.all, { occlusion: { occluders } });
    sc.update(cam);
    const hidden = s.behind.filter((o) => !o.visible).length;
    assert.equal(hidden > 0, hides, `predicate ${occluders}: ${hidden} hidden`);
    sc.dispose();
  }
});

test('separate occluder meshes: triangles with their world matrices, drawn only while three draws them', () => {
  const cam = camera();
  // a rotated plane (DoubleSide) under a moved parent: the wall at z = -10 again
  const holder = new THREE.Group();
  holder.position.set(0, 0, -12);
  holder.rotation.y = Math.PI / 2;
  const plane = new THREE.Mesh(new THREE.PlaneGeometry(40, 40), new THREE.MeshBasicMaterial({ side: THREE.DoubleSide }));
  plane.rotation.y = -Math.PI / 2; // back facing the camera
  plane.position.set(-2, 0, 0); // at z = -10 in the world after the parent's turn
  holder.add(plane);
  const s = wallScene();
  s.scene.remove(s.wall);
  s.scene.add(holder);
  s.scene.updateMatrixWorld();
  const objs = s.all.filter((o) => o !== s.wall);
  const three = drawnByThree(s.scene, cam);
  const sc = new SceneCuller(satc, objs, { occlusion: { meshes: [plane] } });
  sc.update(cam);
  assert.ok(s.behind.filter((o) => three.has(o)).every((o) => !o.visible), 'the plane hides the boxes behind it');
  assert.ok([s.front, s.small, s.big].every((o) => o.visible));
  if (three.has(s.peek)) assert.equal(s.peek.visible, true);
  assert.equal(sc.occlusion.occluders, 1);
  holder.visible = false; // not drawn: hides nothing
  sc.update(cam);
  assert.ok(s.behind.every((o) => o.visible === three.has(o)));
  sc.dispose();

  // the same plane for a BatchedCuller whose mesh sits under a turned, scaled parent
  holder.visible = true;
  const parent = new THREE.Group();
  parent.position.set(1, -2, -3);
  parent.rotation.set(0.2, -0.4, 0.1);
  parent.scale.setScalar(0.5);
  const bm = new THREE.BatchedMesh(20, 1000, 3000, mat);
  parent.add(bm);
  s.scene.add(parent);
  s.scene.updateMatrixWorld();
  const g = bm.addGeometry(box);
  const inv = new THREE.Matrix4().copy(bm.matrixWorld).invert();
  const ids = objs.map((o) => {
    const id = bm.addInstance(g);
    bm.setMatrixAt(id, new THREE.Matrix4().multiplyMatrices(inv, o.matrixWorld).multiply(new THREE.Matrix4().makeScale(...o.geometry.parameters ? [o.geometry.parameters.width, o.geometry.parameters.height, o.geometry.parameters.depth] : [1, 1, 1])));
    return id;
  });
  const bc = new BatchedCuller(satc, bm, { occlusion: { meshes: [plane] } });
  bc.update(cam);
  const vis = (o) => bm.getVisibleAt(ids[objs.indexOf(o)]);
  assert.ok(s.behind.filter((o) => three.has(o)).every((o) => !vis(o)), 'the plane hides the instances behind it');
  assert.ok([s.front, s.small, s.big].every(vis));
  if (three.has(s.peek)) assert.ok(vis(s.peek));
  bc.dispose();
});

test('BatchedCuller: instances hide each other; the user\'s hidden instances and inactive geometries do not', () => {
  for (const opts of CAMERAS) {
    const cam = camera(opts);
    const what = JSON.stringify(opts);
    const s = wallScene();
    const bm = new THREE.BatchedMesh(40, 2000, 6000, mat);
    const geos = new Map();
    const ids = s.all.map((o) => {
      if (!geos.has(o.geometry)) geos.set(o.geometry, bm.addGeometry(o.geometry));
      const id = bm.addInstance(geos.get(o.geometry));
      bm.setMatrixAt(id, o.matrixWorld);
      return id;
    });
    const three = drawnByThree(s.scene, cam);
    const bc = new BatchedCuller(satc, bm, { occlusion: { occluders: (i) => i === ids[0], size: [200, 120] } });
    const drawn = bc.update(cam);
    const vis = (o) => bm.getVisibleAt(ids[s.all.indexOf(o)]);
    const inView = s.behind.filter((o) => three.has(o));
    assert.ok(inView.length >= 4);
    assert.ok(inView.every((o) => !vis(o)), `${what}: an instance behind the wall is drawn`);
    assert.ok([s.wall, s.front, s.small, s.big].every((o) => !three.has(o) || vis(o)), `${what}: an instance in front is hidden`);
    assert.ok(vis(s.wall));
    if (three.has(s.peek)) assert.ok(vis(s.peek), `${what}: the instance peeking out is hidden`);
    assert.equal(drawn, s.all.filter(vis).length);
    assert.equal(bc.occlusion.occluders, 1);
    assert.equal(bc.pyramid.width, 200);
    // the user hides the wall: it occludes nothing, and stays hidden
    bm.setVisibleAt(ids[0], false);
    bc.update(cam);
    assert.equal(vis(s.wall), false);
    assert.ok(inView.every(vis), `${what}: a hidden wall still occludes`);
    bm.setVisibleAt(ids[0], true);
    bc.update(cam);
    assert.ok(inView.every((o) => !vis(o)));
    // several views: frustum only
    const shadow = camera({ ortho: true });
    bc.update(cam, { shadowCameras: [shadow] });
    assert.ok(inView.every(vis), `${what}: occlusion with a shadow camera`);
    assert.equal(bc.occlusion.occluders, 0);
    bc.dispose();
    assert.ok(ids.every((id) => bm.getVisibleAt(id)));
  }
});

test('BatchedCuller: a see-through material and a sheared mesh frame cull by frustum alone', () => {
  const cam = camera();
  for (const spoil of ['transparent', 'shear']) {
    const s = wallScene();
    const bm = new THREE.BatchedMesh(40, 2000, 6000, spoil === 'transparent' ? new THREE.MeshBasicMaterial({ transparent: true }) : mat);
    if (spoil === 'shear') {
      bm.scale.set(1, 2, 1); // world = M * local: give the instances the inverse
      bm.updateMatrixWorld();
    }
    const inv = new THREE.Matrix4().copy(bm.matrixWorld).invert();
    const geos = new Map();
    const ids = s.all.map((o) => {
      if (!geos.has(o.geometry)) geos.set(o.geometry, bm.addGeometry(o.geometry));
      const id = bm.addInstance(geos.get(o.geometry));
      bm.setMatrixAt(id, new THREE.Matrix4().multiplyMatrices(inv, o.matrixWorld));
      return id;
    });
    const bc = new BatchedCuller(satc, bm, { occlusion: true });
    const three = drawnByThree(s.scene, cam);
    bc.update(cam);
    const vis = (o) => bm.getVisibleAt(ids[s.all.indexOf(o)]);
    assert.ok(s.behind.filter((o) => three.has(o)).every(vis), `${spoil}: occluded`);
    bc.dispose();
  }
});

test('InstanceCuller: an occluder mesh three does not draw (hidden parent, other layer) hides nothing', () => {
  const cam = camera();
  const holder = new THREE.Group();
  const plane = new THREE.Mesh(new THREE.PlaneGeometry(40, 40), new THREE.MeshBasicMaterial({ side: THREE.DoubleSide }));
  plane.position.set(0, 0, -10);
  holder.add(plane);
  const scene = new THREE.Scene();
  scene.add(holder);
  scene.updateMatrixWorld();
  const im = new THREE.InstancedMesh(box, mat, 2);
  im.setMatrixAt(0, new THREE.Matrix4().makeTranslation(2, 1, -6)); // in front of the plane
  // behind it
  im.setMatrixAt(1, new THREE.Matrix4().makeTranslation(3, 0, -14));
  const ic = new InstanceCuller(satc, im, { occlusion: { meshes: [plane] } });
  assert.equal(ic.update(cam), 1, 'the drawn plane hides the box behind it');
  holder.visible = false;
  assert.equal(ic.update(cam), 2, 'a plane under a hidden parent hides nothing');
  holder.visible = true;
  plane.layers.set(5);
  assert.equal(ic.update(cam), 2, 'a plane on a layer the camera does not render hides nothing');
  plane.layers.set(0);
  assert.equal(ic.update(cam), 1);
  ic.dispose();
});

test('an occluder mesh hides only through the triangles three draws (draw range, groups)', () => {
  const cam = camera();
  // the plane's first triangle covers its upper-left half (y > x), the second its lower-right
  const geo = new THREE.PlaneGeometry(40, 40);
  const plane = new THREE.Mesh(geo, new THREE.MeshBasicMaterial({ side: THREE.DoubleSide }));
  plane.position.set(0, 0, -10);
  plane.updateMatrixWorld();
  const soup = new THREE.Mesh(geo.toNonIndexed(), plane.material);
  soup.position.copy(plane.position);
  soup.updateMatrixWorld();
  const im = new THREE.InstancedMesh(box, mat, 2);
  im.setMatrixAt(0, new THREE.Matrix4().makeTranslation(-4, 2, -14)); // behind the first triangle
  im.setMatrixAt(1, new THREE.Matrix4().makeTranslation(4, -2, -14)); // behind the second
  const three = new THREE.Raycaster();
  for (const m of [plane, soup]) {
    const ic = new InstanceCuller(satc, im, { occlusion: { meshes: [m] } });
    assert.equal(ic.update(cam), 0, 'the whole plane hides both boxes');
    m.geometry.setDrawRange(0, 3);
    // three's own answer: a ray from the eye to the second box meets no drawn triangle
    three.set(new THREE.Vector3(0, 0, 0), new THREE.Vector3(4, -2, -14).normalize());
    assert.equal(three.intersectObject(m).length, 0);
    assert.equal(ic.update(cam), 1, 'with one triangle drawn, the box behind the other is seen');
    assert.equal(im.count, 1);
    m.geometry.setDrawRange(0, Infinity);
    assert.equal(ic.update(cam), 0);
    const single = m.material;
    m.geometry.addGroup(0, 3, 0);
    m.material = [single];
    assert.equal(ic.update(cam), 1, 'with materials per group, a triangle in no group hides nothing');
    m.geometry.clearGroups();
    assert.equal(ic.update(cam), 2, 'an array of materials on a geometry without groups draws nothing');
    m.material = single;
    assert.equal(ic.update(cam), 0);
    ic.dispose();
  }
});

test('an occluder mesh three moves on the GPU (instances, morph targets, displacement) hides nothing', () => {
  const cam = camera();
  const geo = new THREE.PlaneGeometry(40, 40);
  const m = new THREE.MeshBasicMaterial({ side: THREE.DoubleSide });
  const im = new THREE.InstancedMesh(box, mat, 1);
  im.setMatrixAt(0, new THREE.Matrix4().makeTranslation(-4, 2, -14)); // off the plane's diagonal
  const away = new THREE.Matrix4().makeTranslation(100, 0, 0); // three draws the plane off to the side
  const three = new THREE.Raycaster();
  three.set(new THREE.Vector3(0, 0, 0), new THREE.Vector3(-4, 2, -14).normalize());
  // the geometry's own plane, at z = -10, with its instance moved aside
  const inst = new THREE.InstancedMesh(geo, m, 1);
  inst.setMatrixAt(0, away);
  inst.position.set(0, 0, -10);
  // morph target: every vertex 100 to the side, fully applied
  const mgeo = geo.clone();
  const moved = mgeo.attributes.position.clone();
  for (let i = 0; i < moved.count; i++) moved.setX(i, moved.getX(i) + 100);
  mgeo.morphAttributes.position = [moved];
  const morph = new THREE.Mesh(mgeo, m);
  morph.updateMorphTargets();
  morph.morphTargetInfluences[0] = 1;
  morph.position.set(0, 0, -10);
  const still = new THREE.Mesh(geo, m);
  still.position.set(0, 0, -10);
  for (const o of [inst, morph, still]) {
    o.updateMatrixWorld();
    const ic = new InstanceCuller(satc, im, { occlusion: { meshes: [o] } });
    const seen = three.intersectObject(o).length === 0;
    assert.equal(ic.update(cam), seen ? 1 : 0, `${o.isInstancedMesh ? 'instances' : o.morphTargetInfluences ? 'morph target' : 'plain mesh'}: three ${seen ? 'draws nothing' : 'draws the plane'} in front of the box`);
    ic.dispose();
  }
  // displacement moves vertices in the vertex stage: never drawn as stored
  const disp = new THREE.Mesh(geo, new THREE.MeshStandardMaterial({ displacementMap: new THREE.Texture(), displacementScale: 30 }));
  disp.position.set(0, 0, -10);
  disp.updateMatrixWorld();
  const ic = new InstanceCuller(satc, im, { occlusion: { meshes: [disp] } });
  assert.equal(ic.update(cam), 1);
  ic.dispose();
});

test('SceneCuller: a wall three moves on the GPU (morph target, displacement) hides nothing', () => {
  const cam = camera();
  for (const how of ['morph', 'displacement']) {
    const s = wallScene();
    if (how === 'morph') {
      const g = wallGeo.clone(), moved = g.attributes.position.clone();
      for (let i = 0; i < moved.count; i++) moved.setX(i, moved.getX(i) + 100); // fully applied: the wall stands aside
      g.morphAttributes.position = [moved];
      s.wall.geometry = g;
      s.wall.updateMorphTargets();
      s.wall.morphTargetInfluences[0] = 1;
    } else {
      s.wall.material = new THREE.MeshStandardMaterial({ displacementMap: new THREE.Texture(), displacementScale: 30 });
    }
    const three = drawnByThree(s.scene, cam);
    // the wall the only occluder: each box behind it is seen by three once the wall moved
    const sc = new SceneCuller(satc, s.all, { occlusion: { occluders: (o) => o === s.wall, size: 160 } });
    sc.update(cam);
    const seen = s.behind.filter((o) => three.has(o));
    assert.ok(seen.length >= 4, `${how}: too few boxes in view to test`);
    for (const o of seen) assert.equal(o.visible, true, `${how}: a box behind the wall at ${o.position.toArray()} is hidden`);
    sc.dispose();
  }
});

test('what three draws over nearer depth is never hidden; an occluder writing no depth hides nothing', () => {
  const cam = camera();
  const overlay = (m) => { m.depthTest = false; return m; };
  const cases = [
    ['occludee without depth test', (s) => { s.behind[0].material = overlay(new THREE.MeshBasicMaterial()); return [s.behind[0]]; }],
    ['occludee drawn where farther', (s) => { s.behind[1].material = new THREE.MeshBasicMaterial({ depthFunc: THREE.GreaterDepth }); return [s.behind[1]]; }],
    ['occludee moved by its shader', (s) => { s.behind[2].material = new THREE.ShaderMaterial(); return [s.behind[2]]; }],
    ['wall without depth writes', (s) => { s.wall.material = new THREE.MeshBasicMaterial({ depthWrite: false }); return s.behind; }],
    ['wall cut by a clipping plane', (s) => {
      s.wall.material = new THREE.MeshBasicMaterial({ clippingPlanes: [new THREE.Plane(new THREE.Vector3(0, 1, 0), 100)] });
      return s.behind;
    }],
  ];
  for (const [what, edit] of cases) {
    const s = wallScene();
    const must = edit(s);
    const three = drawnByThree(s.scene, cam);
    const sc = new SceneCuller(satc, s.all, { occlusion: { occluders: (o) => o === s.wall, size: 160 } });
    sc.update(cam);
    const seen = must.filter((o) => three.has(o));
    assert.ok(seen.length >= 1, `${what}: nothing in view to test`);
    for (const o of seen) assert.equal(o.visible, true, `${what}: ${o.position.toArray()} is hidden`);
    if (!what.startsWith('wall')) {
      assert.ok(s.behind.some((o) => three.has(o) && !o.visible), `${what}: the wall still hides the others`);
    }
    sc.dispose();
  }
  // trustShaders: a shader material draws where three's own would, so the wall hides that box again
  {
    const s = wallScene();
    s.behind[2].material = new THREE.ShaderMaterial();
    const three = drawnByThree(s.scene, cam);
    assert.ok(three.has(s.behind[2]));
    const sc = new SceneCuller(satc, s.all, { occlusion: { occluders: (o) => o === s.wall, size: 160, trustShaders: true } });
    sc.update(cam);
    assert.equal(s.behind[2].visible, false);
    sc.dispose();
    assert.throws(() => new SceneCuller(satc, s.all, { occlusion: { trustShaders: 1 } }), SatcError);
  }
  // InstanceCuller: instances drawn without the depth test are never hidden, by meshes or by each other
  const plane = new THREE.Mesh(new THREE.PlaneGeometry(40, 40), new THREE.MeshBasicMaterial({ side: THREE.DoubleSide }));
  plane.position.set(0, 0, -10);
  plane.updateMatrixWorld();
  const im = new THREE.InstancedMesh(box, overlay(new THREE.MeshBasicMaterial()), 1);
  im.setMatrixAt(0, new THREE.Matrix4().makeTranslation(-4, 2, -14));
  const ic = new InstanceCuller(satc, im, { occlusion: { meshes: [plane] } });
  assert.equal(ic.update(cam), 1);
  im.material.depthTest = true;
  assert.equal(ic.update(cam), 0, 'with the depth test the plane hides it');
  plane.material.depthWrite = false;
  assert.equal(ic.update(cam), 1, 'a plane writing no depth hides nothing');
  ic.dispose();
});

test('SceneCuller: occlusion never hides points (squares of pixels wider than their box)', () => {
  const cam = camera();
  const scene = new THREE.Scene();
  const wall = meshAt(0, 0, -10, new THREE.BoxGeometry(4, 4, 1));
  // projects 0.1 inside the wall's edge; a 64-pixel square around it reaches past the edge
  const pts = new THREE.Points(new THREE.BufferGeometry().setFromPoints([new THREE.Vector3(1.9 * 14 / 9.5, 0, -14)]),
    new THREE.PointsMaterial({ size: 64, sizeAttenuation: false }));
  const box = meshAt(0, 0, -14); // wholly behind the wall
  scene.add(wall, pts, box);
  scene.updateMatrixWorld();
  const sc = new SceneCuller(satc, [wall, pts, box], { occlusion: { occluders: (o) => o === wall, minTexels: 0 } });
  sc.update(cam);
  assert.equal(box.visible, false, 'the wall hides the box behind it');
  assert.equal(pts.visible, true, 'the points behind it are still drawn');
  sc.dispose();
});

test('an orthographic camera with reversed depth faces its own way (InstanceCuller too)', () => {
  for (const webgpu of [false, true]) {
    const cam = camera({ ortho: true, reversed: true, webgpu });
    const f = frustumFromCamera(satc, cam);
    assert.ok(f.kind === 'orthographic' && f.frame[2][2] < -0.99, `the frustum looks along ${f.frame[2]}`);
    // a wall instance at z = -10, one box in front of it, one behind
    const im = new THREE.InstancedMesh(box, mat, 3);
    im.setMatrixAt(0, new THREE.Matrix4().makeTranslation(0, 0, -10).scale(new THREE.Vector3(40, 40, 1)));
    im.setMatrixAt(1, new THREE.Matrix4().makeTranslation(2, 1, -6));
    im.setMatrixAt(2, new THREE.Matrix4().makeTranslation(2, 1, -14));
    const ic = new InstanceCuller(satc, im, { occlusion: { occluders: (i) => i === 0 } });
    assert.equal(ic.update(cam), 2);
    assert.deepEqual([ic.sourceIndex(0), ic.sourceIndex(1)], [0, 1], 'the wall and the box in front are drawn');
    ic.dispose();
  }
});

test('with occlusion, a view three culls with a clip volume reaching behind the camera draws everything, as without', () => {
  const cam = new THREE.PerspectiveCamera(60, 1.5, 0.5, 200);
  cam._reversedDepth = true;
  cam.updateProjectionMatrix(); // a projection made for reversed depth, on a camera without it
  cam._reversedDepth = false;
  cam.updateMatrixWorld();
  const s = wallScene();
  const sc = new SceneCuller(satc, s.all, { occlusion: true });
  assert.equal(sc.update(cam), s.all.length);
  sc.dispose();
  const im = new THREE.InstancedMesh(box, mat, s.all.length);
  s.all.forEach((o, i) => im.setMatrixAt(i, o.matrixWorld));
  const ic = new InstanceCuller(satc, im, { occlusion: true });
  assert.equal(ic.update(cam), s.all.length);
  ic.dispose();
  const bm = new THREE.BatchedMesh(s.all.length, 100, 300, mat);
  const g = bm.addGeometry(box);
  s.all.forEach((o) => bm.setMatrixAt(bm.addInstance(g), o.matrixWorld));
  const bc = new BatchedCuller(satc, bm, { occlusion: true });
  assert.equal(bc.update(cam), s.all.length);
  bc.dispose();
});

test('SceneCuller: several views (an ArrayCamera, shadow cameras) cull by frustum only', () => {
  const cam = camera();
  const s = wallScene();
  const three = drawnByThree(s.scene, cam);
  const sc = new SceneCuller(satc, s.all, { occlusion: true });
  const left = camera();
  left.position.set(-1, 0, 0);
  left.updateMatrixWorld();
  const array = new THREE.ArrayCamera([cam, left]);
  for (const [c, o] of [[array, {}], [cam, { shadowCameras: [camera({ ortho: true })] }]]) {
    sc.update(c, o);
    assert.ok(s.behind.filter((x) => three.has(x)).every((x) => x.visible), 'occluded with several views');
    assert.equal(sc.occlusion.occluders, 0);
  }
  sc.update(cam);
  assert.ok(s.behind.filter((x) => three.has(x)).every((x) => !x.visible));
  sc.dispose();
});

test('bad occlusion options throw SatcError and change nothing', () => {
  const bad = [
    ['x', 'SATC_ERR_LAYOUT'], [{ occluders: 'yes' }, 'SATC_ERR_LAYOUT'], [{ size: 0 }, 'SATC_ERR_RANGE'], [{ size: [100] }, 'SATC_ERR_RANGE'],
    [{ size: 10.5 }, 'SATC_ERR_RANGE'], [{ maxOccluders: -1 }, 'SATC_ERR_RANGE'], [{ maxOccluders: 2.5 }, 'SATC_ERR_RANGE'], [{ minTexels: -1 }, 'SATC_ERR_BOUNDS'], [{ minTexels: NaN }, 'SATC_ERR_BOUNDS'],
    [{ meshes: [new THREE.Group()] }, 'SATC_ERR_LAYOUT'], [{ meshes: 'wall' }, 'SATC_ERR_LAYOUT'], [{ occluder: true }, 'SATC_ERR_LAYOUT'],
    [{ occluders: true, occluderBox: { center: [0, 0, 0], half: [1, 1, 1] } }, 'SATC_ERR_LAYOUT'],
    [{ occluders: true, occluderBox: () => 'box' }, 'SATC_ERR_LAYOUT'],
    [{ occluders: true, occluderBox: () => ({ center: [0, 0], half: [1, 1, 1] }) }, 'SATC_ERR_LAYOUT'],
    [{ occluders: true, occluderBox: () => ({ center: [NaN, 0, 0], half: [1, 1, 1] }) }, 'SATC_ERR_LAYOUT'],
    [{ depthPerTexel: 1 }, 'SATC_ERR_LAYOUT'], [{ testBudget: 8 }, 'SATC_ERR_LAYOUT'], [{ depthPerTexel: false, testBudget: 8 }, 'SATC_ERR_LAYOUT'],
    [{ depthPerTexel: true, testBudget: -1 }, 'SATC_ERR_RANGE'], [{ depthPerTexel: true, testBudget: 2 ** 32 }, 'SATC_ERR_RANGE'],
    [{ depthPerTexel: true, testBudget: 1.5 }, 'SATC_ERR_RANGE'],
  ];
  for (const [occlusion, name] of [...bad, [{ occluders: new Uint8Array(4) }, 'SATC_ERR_LAYOUT']]) {
    const o = meshAt(0, 0, -5);
    throwsSatc(() => new SceneCuller(satc, [o], { occlusion }), name);
    assert.ok(Object.getOwnPropertyDescriptor(o, 'visible').writable, `SceneCuller ${JSON.stringify(occlusion)}: visible taken`);
  }
  for (const [occlusion, name] of bad) {
    const bm = new THREE.BatchedMesh(4, 100, 300, mat);
    bm.addInstance(bm.addGeometry(box));
    bm.perObjectFrustumCulled = true;
    throwsSatc(() => new BatchedCuller(satc, bm, { occlusion }), name);
    assert.equal(bm.perObjectFrustumCulled, true);
    assert.ok(!Object.prototype.hasOwnProperty.call(bm, 'setVisibleAt'), 'BatchedCuller: the mesh was changed');
    new BatchedCuller(satc, bm).dispose(); // and a culler can still take it
  }
  // an occluderBox failing at a later refresh leaves the culler as it was
  let fail = false;
  const s = wallScene();
  const sc = new SceneCuller(satc, s.all, { occlusion: { occluders: true, occluderBox: (g) => (fail ? 7 : g.boundingBox) } });
  sc.update(camera());
  const before = s.all.map((o) => o.visible);
  fail = true;
  const extra = meshAt(0, 0, -3, new THREE.BoxGeometry(2, 2, 2));
  throwsSatc(() => sc.refresh([...s.all, extra]), 'SATC_ERR_LAYOUT');
  assert.ok(Object.getOwnPropertyDescriptor(extra, 'visible').writable);
  assert.equal(sc.objects.length, s.all.length);
  fail = false;
  sc.update(camera());
  assert.deepEqual(s.all.map((o) => o.visible), before);
  sc.dispose();
});

test('maxOccluders: the largest boxes occlude; 0 leaves only the occluder meshes', () => {
  const cam = camera();
  for (const [opts, hides, candidates] of [[{ maxOccluders: 1 }, true, true], [{ maxOccluders: 0 }, false, true], [{ maxOccluders: 0, meshes: [meshAt(0, 0, -10, wallGeo)] }, true, true]]) {
    const s = wallScene();
    const three = drawnByThree(s.scene, cam);
    const sc = new SceneCuller(satc, s.all, { occlusion: { occluders: true, ...opts } });
    sc.update(cam);
    const inView = s.behind.filter((o) => three.has(o));
    assert.ok(inView.length >= 4);
    assert.equal(inView.every((o) => !o.visible), hides, JSON.stringify(opts));
    if (!hides) assert.ok(inView.every((o) => o.visible));
    const st = sc.occlusion;
    assert.equal(st.occluders, Math.min(opts.maxOccluders, st.candidates) + (opts.meshes ? 1 : 0));
    assert.equal(st.candidates > 1, candidates, JSON.stringify(st));
    sc.dispose();
  }
});

test('visibleFirst: with one occluder, what the last update showed is drawn before a larger box hidden then', () => {
  // M, an occluder mesh, hides the large box H; the small solid box W
  // would hide S. By size the one occluder is H, which hides nothing more;
  // seen first, the second update draws W, and S is hidden.
  for (const vf of [true, false]) {
    const cam = camera(), scene = new THREE.Scene();
    const M = meshAt(-12, 0, -20, new THREE.BoxGeometry(20, 30, 1));
    const H = meshAt(-12, 0, -40, new THREE.BoxGeometry(15, 20, 5));
    const W = meshAt(5, 0, -10, new THREE.BoxGeometry(6, 6, 1));
    const S = meshAt(5, 0, -15);
    scene.add(M, H, W, S);
    scene.updateMatrixWorld();
    const sc = new SceneCuller(satc, [W, S, H], { occlusion: { occluders: true, meshes: [M], maxOccluders: 1, visibleFirst: vf } });
    sc.update(cam);
    assert.deepEqual([W.visible, S.visible, H.visible], [true, true, false], 'first update: H drawn, hidden by M');
    sc.update(cam);
    assert.deepEqual([W.visible, S.visible, H.visible], [true, !vf, false], `second update, visibleFirst ${vf}`);
    sc.dispose();
  }
});

test('occluderBox: a smaller box per geometry, clipped to the bounding box; null never occludes', () => {
  const cam = camera();
  // the wall occludes through a thin slab only: boxes behind its middle hidden, behind its outer part drawn
  const s = wallScene();
  const sc = new SceneCuller(satc, s.all, {
    occlusion: { occluders: true, occluderBox: (g) => (g === wallGeo ? new THREE.Box3(new THREE.Vector3(-5, -50, -50), new THREE.Vector3(5, 50, 50)) : null) },
  });
  const three = drawnByThree(s.scene, cam);
  sc.update(cam);
  for (const o of s.behind.filter((x) => three.has(x))) {
    const x = o.position.x, z = -o.position.z, reach = [x - 0.5, x + 0.5].map((v) => (v * 10) / (z + 0.5));
    if (reach.every((v) => Math.abs(v) < 4.9)) assert.equal(o.visible, false, `behind the slab at ${x}: drawn`);
    if (reach.some((v) => Math.abs(v) > 5)) assert.equal(o.visible, true, `beside the slab at ${x}: hidden`);
  }
  assert.ok(s.behind.some((o) => !o.visible) && s.behind.some((o) => three.has(o) && o.visible));
  sc.dispose();
});

// ---- random scenes against rays in double ----

// The float volume satc culls: a Matrix4 of the float matrix, the box of float center and half.
function floatBox(geo) {
  if (geo.boundingBox === null) geo.computeBoundingBox();
  const b = geo.boundingBox, f = Math.fround;
  const c = [f((b.min.x + b.max.x) / 2), f((b.min.y + b.max.y) / 2), f((b.min.z + b.max.z) / 2)];
  const h = [f((b.max.x - b.min.x) / 2), f((b.max.y - b.min.y) / 2), f((b.max.z - b.min.z) / 2)];
  return { lo: c.map((v, k) => v - h[k]), hi: c.map((v, k) => v + h[k]) };
}

const floatMatrix = (m) => new THREE.Matrix4().fromArray(Array.from(Float32Array.from(m.elements)));

// Parameter interval [s0, s1] where the ray A + s D meets the box (local frame), or null.
function slab(A, D, lo, hi) {
  let s0 = -Infinity, s1 = Infinity;
  for (let k = 0; k < 3; k++) {
    if (D[k] === 0) {
      if (A[k] < lo[k] || A[k] > hi[k]) return null;
      continue;
    }
    let a = (lo[k] - A[k]) / D[k], b = (hi[k] - A[k]) / D[k];
    if (a > b) [a, b] = [b, a];
    s0 = Math.max(s0, a);
    s1 = Math.min(s1, b);
    if (s0 > s1) return null;
  }
  return [s0, s1];
}

function triangleHit(A, D, p, q, r) {
  const e1 = q.map((v, k) => v - p[k]), e2 = r.map((v, k) => v - p[k]);
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const P = cross(D, e2), det = dot(e1, P);
  if (det === 0) return Infinity;
  const T = A.map((v, k) => v - p[k]), u = dot(T, P) / det;
  if (u < 0 || u > 1) return Infinity;
  const Q = cross(T, e1), v = dot(D, Q) / det;
  if (v < 0 || u + v > 1) return Infinity;
  return dot(e2, Q) / det;
}

/**
 * Objects some ray sees: rays through a grid of `nx` x `ny` points of the
 * view, from the near plane (s = 0) to the far plane (s = 1). A volume is
 * seen when the ray meets its box at or before the first opaque surface:
 * an occluder box's entry (a box the ray starts inside is not drawn
 * there) or a wall triangle.
 */
function seenByRays(cam, volumes, occluderBoxes, triangles, nx, ny) {
  const zn = cam.reversedDepth ? 1 : cam.coordinateSystem === THREE.WebGPUCoordinateSystem ? 0 : -1, zf = cam.reversedDepth ? 0 : 1;
  // each box's world-to-local affine map (the volumes' matrices are affine)
  const local = (list) => list.map((v) => ({ ...v, inv: v.matrix.clone().invert().elements }));
  const vols = local(volumes), occs = local(occluderBoxes);
  const seen = new Set();
  const a = new THREE.Vector3(), b = new THREE.Vector3();
  const A = [0, 0, 0], D = [0, 0, 0];
  const toLocal = (e) => {
    for (let k = 0; k < 3; k++) {
      A[k] = e[k] * a.x + e[4 + k] * a.y + e[8 + k] * a.z + e[12 + k];
      D[k] = e[k] * (b.x - a.x) + e[4 + k] * (b.y - a.y) + e[8 + k] * (b.z - a.z);
    }
  };
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      const x = -1 + (2 * i + 1) / nx, y = -1 + (2 * j + 1) / ny;
      a.set(x, y, zn).unproject(cam);
      b.set(x, y, zf).unproject(cam);
      let block = 1;
      for (const o of occs) {
        toLocal(o.inv);
        const h = slab(A, D, o.lo, o.hi);
        if (h && h[0] >= 0) block = Math.min(block, h[0]);
      }
      const W = [[a.x, a.y, a.z], [b.x - a.x, b.y - a.y, b.z - a.z]];
      for (const t of triangles) {
        const s = triangleHit(W[0], W[1], ...t);
        if (s >= 0) block = Math.min(block, s);
      }
      for (const v of vols) {
        if (seen.has(v.key)) continue;
        toLocal(v.inv);
        const h = slab(A, D, v.lo, v.hi);
        if (h && h[1] >= 0 && h[0] <= block) seen.add(v.key);
      }
    }
  }
  return seen;
}

function randomCamera(r) {
  const kind = r();
  const cam = camera({ ortho: kind < 0.3, webgpu: r() < 0.4, reversed: r() < 0.4 });
  if (r() < 0.3) cam.setViewOffset(1600, 900, r() * 800, r() * 400, 400 + r() * 800, 300 + r() * 500);
  cam.rotation.set((r() - 0.5) * 0.4, (r() - 0.5) * 0.6, (r() - 0.5) * 0.3);
  cam.position.set((r() - 0.5) * 4, (r() - 0.5) * 2, 0);
  cam.updateProjectionMatrix();
  cam.updateMatrixWorld();
  return cam;
}

function randomScene(r, seed) {
  const scene = new THREE.Scene();
  const objs = [];
  const n = 70;
  for (let i = 0; i < n; i++) {
    const solid = r() < 0.6;
    const geo = new THREE.BoxGeometry(0.3 + r() * (solid ? 9 : 3), 0.3 + r() * (solid ? 6 : 3), 0.2 + r() * 3);
    if (r() < 0.2) geo.translate(r() - 0.5, r() - 0.5, r() - 0.5);
    const o = new THREE.Mesh(geo, solid ? mat : new THREE.MeshBasicMaterial({ transparent: true, opacity: 0.5 }));
    o.userData.solid = solid;
    const parent = objs.length && r() < 0.25 ? objs[Math.floor(r() * objs.length)] : scene;
    if (parent === scene) o.position.set((r() - 0.5) * 30, (r() - 0.5) * 14, -3 - r() * 40);
    else o.position.set((r() - 0.5) * 6, (r() - 0.5) * 6, (r() - 0.5) * 6);
    o.rotation.set(r() * 6, r() * 6, r() * 6);
    if (r() < 0.3) o.scale.set(0.5 + r(), 0.5 + r(), 0.5 + r());
    if (r() < 0.05) o.visible = false;
    parent.add(o);
    objs.push(o);
  }
  // a few large solids at middle depth, so that occlusion has work
  for (let k = 0; k < 4; k++) {
    const o = new THREE.Mesh(new THREE.BoxGeometry(4 + r() * 8, 3 + r() * 6, 1 + r() * 4), mat);
    o.userData.solid = true;
    o.position.set((r() - 0.5) * 20, (r() - 0.5) * 8, -8 - r() * 15);
    o.rotation.set((r() - 0.5) * 0.6, (r() - 0.5) * 1.5, (r() - 0.5) * 0.6);
    scene.add(o);
    objs.push(o);
  }
  // adversarial solids: one around the camera, one through its near plane
  const around = new THREE.Mesh(new THREE.BoxGeometry(12, 10, 12), mat);
  around.userData.solid = true;
  const through = new THREE.Mesh(new THREE.BoxGeometry(3 + r() * 6, 3 + r() * 6, 2), mat);
  through.userData.solid = true;
  through.position.set((r() - 0.5) * 4, (r() - 0.5) * 3, -1.2); // from 0.2 to 2.2 in front: across the near plane
  through.rotation.set((r() - 0.5) * 0.5, (r() - 0.5) * 0.5, r());
  if (seed % 3 === 0) { scene.add(around); objs.push(around); }
  if (r() < 0.4) { scene.add(through); objs.push(through); }
  const walls = [];
  for (let k = 0; k < 2; k++) {
    const w = new THREE.Mesh(new THREE.PlaneGeometry(4 + r() * 12, 4 + r() * 8), new THREE.MeshBasicMaterial({ side: THREE.DoubleSide }));
    w.position.set((r() - 0.5) * 20, (r() - 0.5) * 8, -5 - r() * 30);
    w.rotation.set((r() - 0.5) * 1.2, (r() - 0.5) * 1.2, r() * 3);
    scene.add(w);
    walls.push(w);
  }
  scene.updateMatrixWorld();
  return { scene, objs, walls };
}

function wallTriangles(walls) {
  const out = [];
  for (const w of walls) {
    const m = floatMatrix(w.matrixWorld), pos = w.geometry.attributes.position, idx = w.geometry.index;
    const v = (i) => new THREE.Vector3(Math.fround(pos.getX(i)), Math.fround(pos.getY(i)), Math.fround(pos.getZ(i))).applyMatrix4(m).toArray();
    for (let t = 0; t < idx.count; t += 3) out.push([v(idx.getX(t)), v(idx.getX(t + 1)), v(idx.getX(t + 2))]);
  }
  return out;
}

function visibleChain(o) {
  for (let x = o; x; x = x.parent) if (x.visible === false) return false;
  return true;
}

test('random scenes: what a ray sees stays drawn, occlusion only removes what the frustum kept (SceneCuller, BatchedCuller)', () => {
  const scenes = QUICK ? 4 : 10;
  let hiddenScene = 0, hiddenBatched = 0, instanceScenes = 0, hiddenInstances = 0, instancesSeen = 0, seenTotal = 0;
  for (let seed = 1; seed <= scenes; seed++) {
    const r = rng(1000 + seed);
    const { scene, objs, walls } = randomScene(r, seed);
    const cam = randomCamera(r);
    const size = 64 + Math.floor(r() * 96);
    const three = drawnByThree(scene, cam);
    const userSees = new Set(objs.filter(visibleChain)); // before the culler: the user's values
    // the volumes as satc holds them (float matrices, float boxes), and the opaque surfaces three draws
    const volumes = [...userSees].map((o) => ({ key: o, matrix: floatMatrix(o.matrixWorld), ...floatBox(o.geometry) }));
    const tris = wallTriangles(walls);
    const e = cam.projectionMatrix.elements;
    const nx = 3 * size, ny = Math.max(8, Math.round(nx * Math.abs(e[0] / e[5])));
    const seen = seenByRays(cam, volumes, volumes.filter((v) => v.key.userData.solid), tris, nx, ny);
    seenTotal += seen.size;
    const minTexels = r() < 0.5 ? 0 : 4;
    const maxOccluders = [Infinity, 1024, 6][seed % 3];
    const sc = new SceneCuller(satc, objs, { occlusion: { occluders: (o) => o.userData.solid, meshes: walls, size, minTexels, maxOccluders } });
    sc.update(cam, { occlusion: false });
    const frustumKept = drawnByThree(scene, cam);
    sc.update(cam);
    const drawn = drawnByThree(scene, cam);
    for (const o of drawn) assert.ok(frustumKept.has(o), `seed ${seed}: occlusion drew an object the frustum culled`);
    for (const o of seen) {
      assert.ok(three.has(o), `seed ${seed}: the ray oracle sees an object three's frustum culls`);
      assert.ok(drawn.has(o), `seed ${seed}: SceneCuller hides an object a ray sees (${o.position.toArray().map((v) => v.toFixed(2))})`);
    }
    hiddenScene += [...frustumKept].filter((o) => !drawn.has(o)).length;
    sc.dispose();
    // depth per texel (a budget of 0 and 3 too): never more drawn, never what a ray sees
    const testBudget = [undefined, 0, 3][Math.floor(seed / 3) % 3];
    const sp = new SceneCuller(satc, objs, { occlusion: { occluders: (o) => o.userData.solid, meshes: walls, size, minTexels, maxOccluders, depthPerTexel: true, testBudget } });
    sp.update(cam);
    assert.ok(sp.pyramid.depthPerTexel && sp.pyramid.testBudget === (testBudget ?? 4096), `seed ${seed}: the pyramid tests depth per texel`);
    const drawnPT = drawnByThree(scene, cam);
    for (const o of drawnPT) assert.ok(drawn.has(o), `seed ${seed}: depth per texel draws an object the plain test hides`);
    for (const o of seen) assert.ok(drawnPT.has(o), `seed ${seed}: SceneCuller with depth per texel hides an object a ray sees`);
    sp.dispose();

    // the same volumes as one BatchedMesh under a turned, uniformly scaled parent
    const holder = new THREE.Group();
    holder.position.set(r() - 0.5, r() - 0.5, -r());
    holder.rotation.set(r() - 0.5, r() - 0.5, r() - 0.5);
    holder.scale.setScalar(0.5 + r());
    const bm = new THREE.BatchedMesh(objs.length, 24 * objs.length, 36 * objs.length, mat);
    holder.add(bm);
    scene.add(holder);
    holder.updateMatrixWorld();
    const inv = bm.matrixWorld.clone().invert();
    const ids = new Map();
    for (const o of objs) {
      const id = bm.addInstance(bm.addGeometry(o.geometry));
      bm.setMatrixAt(id, new THREE.Matrix4().multiplyMatrices(inv, o.matrixWorld));
      if (!userSees.has(o)) bm.setVisibleAt(id, false);
      ids.set(o, id);
    }
    const solid = new Uint8Array(objs.length).map((_, i) => (objs[i].userData.solid ? 1 : 0));
    const bc = new BatchedCuller(satc, bm, { occlusion: { occluders: solid, meshes: walls, size, minTexels, maxOccluders } });
    bc.update(cam, { occlusion: false });
    const bFrustum = new Set(objs.filter((o) => bm.getVisibleAt(ids.get(o))));
    bc.update(cam);
    // the instances as satc holds them: the mesh's matrixWorld times the float instance matrices
    const m = new THREE.Matrix4();
    const bvol = [...userSees].map((o) => ({ key: o, matrix: bm.matrixWorld.clone().multiply(floatMatrix(bm.getMatrixAt(ids.get(o), m))), ...floatBox(o.geometry) }));
    const bseen = seenByRays(cam, bvol, bvol.filter((v) => v.key.userData.solid), tris, nx, ny);
    for (const o of objs) {
      const v = bm.getVisibleAt(ids.get(o));
      if (v) assert.ok(bFrustum.has(o), `seed ${seed}: occlusion drew an instance the frustum culled`);
      if (bseen.has(o)) assert.ok(v, `seed ${seed}: BatchedCuller hides an instance a ray sees`);
      if (bFrustum.has(o) && !v) hiddenBatched++;
    }
    // and with depth per texel: a subset, never an instance a ray sees
    const plainVisible = objs.map((o) => bm.getVisibleAt(ids.get(o)));
    bc.dispose();
    const bp = new BatchedCuller(satc, bm, { occlusion: { occluders: solid, meshes: walls, size, minTexels, maxOccluders, depthPerTexel: true } });
    bp.update(cam);
    objs.forEach((o, i) => {
      const v = bm.getVisibleAt(ids.get(o));
      if (v) assert.ok(plainVisible[i], `seed ${seed}: BatchedCuller with depth per texel draws an instance the plain test hides`);
      if (bseen.has(o)) assert.ok(v, `seed ${seed}: BatchedCuller with depth per texel hides an instance a ray sees`);
    });
    bp.dispose();
    scene.remove(holder);

    // the box volumes as one InstancedMesh of a unit box, plain and per texel, each updated
    // until its choice walks the largest boxes; every other scene, for the rays' time
    if (seed % 2) continue;
    instanceScenes++;
    const boxes = objs.filter((o) => userSees.has(o)), unit = new THREE.BoxGeometry(1, 1, 1), t = new THREE.Matrix4();
    const flags = Uint8Array.from(boxes, (o) => (o.userData.solid ? 1 : 0));
    const ivol = [], drawnSets = [];
    for (const perTexel of [false, true]) {
      const im = new THREE.InstancedMesh(unit, mat, boxes.length);
      boxes.forEach((o, i) => {
        const g = o.geometry.parameters, c = o.geometry.boundingBox.getCenter(new THREE.Vector3()); // computed by floatBox
        im.setMatrixAt(i, o.matrixWorld.clone().multiply(t.makeTranslation(c.x, c.y, c.z)).scale(new THREE.Vector3(g.width, g.height, g.depth)));
      });
      scene.add(im);
      im.updateMatrixWorld();
      const ic = new InstanceCuller(satc, im, { occlusion: { occluders: flags, meshes: walls, size, minTexels, maxOccluders, depthPerTexel: perTexel } });
      if (!perTexel) {
        boxes.forEach((o, i) => ivol.push({ key: i, solid: o.userData.solid, matrix: floatMatrix(im.getMatrixAt(i, t)), lo: [-0.5, -0.5, -0.5], hi: [0.5, 0.5, 0.5] }));
        hiddenInstances += ic.update(cam, { occlusion: false });
      }
      const sets = Array.from({ length: 10 }, () => new Set(Array.from({ length: ic.update(cam) }, (_, j) => ic.sourceIndex(j))));
      for (let u = 1; u < sets.length; u++) assert.deepEqual([...sets[u]], [...sets[0]], `seed ${seed}: InstanceCuller update ${u + 1} draws another set`);
      drawnSets.push(sets[0]);
      ic.dispose();
      scene.remove(im);
    }
    const iseen = seenByRays(cam, ivol, ivol.filter((v) => v.solid), tris, nx, ny);
    for (const i of iseen) {
      assert.ok(drawnSets[0].has(i), `seed ${seed}: InstanceCuller hides an instance a ray sees`);
      assert.ok(drawnSets[1].has(i), `seed ${seed}: InstanceCuller with depth per texel hides an instance a ray sees`);
    }
    for (const i of drawnSets[1]) assert.ok(drawnSets[0].has(i), `seed ${seed}: InstanceCuller with depth per texel draws an instance the plain test hides`);
    hiddenInstances -= drawnSets[0].size;
    instancesSeen += iseen.size;
  }
  // the check bites: rays see objects, and occlusion hides many others
  assert.ok(seenTotal > scenes * 10, `rays saw ${seenTotal} objects`);
  assert.ok(hiddenScene > scenes * 3 && hiddenBatched > scenes * 3, `occlusion hid ${hiddenScene} objects, ${hiddenBatched} instances`);
  assert.ok(instancesSeen > instanceScenes * 10 && hiddenInstances > instanceScenes * 2, `InstanceCuller: rays saw ${instancesSeen}, occlusion hid ${hiddenInstances}`);
});
