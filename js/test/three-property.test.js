// Property test of the three.js helpers: random scene graphs (nested,
// mirrored and non-uniformly scaled transforms, skinned and instanced
// meshes, frustumCulled = false, objects the user hid, lights) seen by
// random cameras of every kind three has (perspective with zoom, film and
// view offsets; orthographic; WebGL and WebGPU depth, reversed or not;
// cameras under scaled parents; ArrayCamera, CubeCamera, StereoCamera).
// Oracle: three's own Frustum planes (as its renderer builds them) in
// double, applied to each object's posed bounds. Nothing three would draw
// may be hidden by a helper: in conservative mode nothing whose posed box
// three's plane test keeps, in exact mode nothing whose posed box touches
// the frustum (separating axes in double). SATC_TEST_QUICK runs fewer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as THREE from 'three';
import { load } from '../src/index.js';
import { InstanceCuller, SceneCuller } from '../src/three.js';
import { rng } from './helpers.js';

const satc = await load();
const QUICK = !!process.env.SATC_TEST_QUICK;
const SCENES = +(process.env.SATC_PROP_SCENES ?? (QUICK ? 12 : 40)), CAMERAS = QUICK ? 6 : 12;
const V = (x, y, z) => new THREE.Vector3(x, y, z);

// ------------------------------------------------------------ the oracle

/** three's frusta for a view (its renderer: one per sub-camera). */
function threeFrusta(camera) {
  let cams = [camera];
  if (camera.isArrayCamera) cams = camera.cameras;
  else if (camera.type === 'CubeCamera') cams = camera.children;
  else if (camera.type === 'StereoCamera') cams = [camera.cameraL, camera.cameraR];
  return cams.map((c) => {
    c.updateWorldMatrix(true, false);
    const vp = new THREE.Matrix4().multiplyMatrices(c.projectionMatrix, c.matrixWorldInverse);
    const f = new THREE.Frustum().setFromProjectionMatrix(vp, c.coordinateSystem, c.reversedDepth);
    f.corners = frustumCorners(f);
    return f;
  });
}

// The eight corners: where a side, a side and a depth plane of three's frustum meet.
function frustumCorners(f) {
  const [l, r, b, t, far, near] = f.planes;
  const out = [];
  for (const px of [l, r]) for (const py of [b, t]) for (const pz of [near, far]) {
    const m = new THREE.Matrix3().set(
      px.normal.x, px.normal.y, px.normal.z, py.normal.x, py.normal.y, py.normal.z, pz.normal.x, pz.normal.y, pz.normal.z);
    out.push(V(-px.constant, -py.constant, -pz.constant).applyMatrix3(m.invert()));
  }
  return out;
}

// The posed bounds of a box under a world matrix: its 8 corners (a parallelepiped under shear).
function posedCorners(box, world) {
  const out = [];
  for (const x of [box.min.x, box.max.x]) for (const y of [box.min.y, box.max.y]) for (const z of [box.min.z, box.max.z]) {
    out.push(V(x, y, z).applyMatrix4(world));
  }
  return out;
}

/** three's plane test (Frustum.intersectsBox) on posed corners: false when all lie behind one plane. */
function planesKeep(f, pts) {
  return f.planes.every((p) => pts.some((q) => p.distanceToPoint(q) >= 0));
}

/** Exact separating-axis test in double: true when the corner sets' hulls touch (within 1e-9 of their size). */
function touches(f, pts) {
  const c = f.corners, axes = f.planes.map((p) => p.normal);
  const e = (a, i, j) => a[j].clone().sub(a[i]);
  const boxEdges = [e(pts, 0, 4), e(pts, 0, 2), e(pts, 0, 1)];
  const frEdges = [e(c, 0, 4), e(c, 0, 2), e(c, 1, 5), e(c, 1, 3), e(c, 2, 6), e(c, 3, 7), e(c, 0, 1), e(c, 2, 3), e(c, 4, 5), e(c, 6, 7)];
  axes.push(boxEdges[0].clone().cross(boxEdges[1]), boxEdges[1].clone().cross(boxEdges[2]), boxEdges[2].clone().cross(boxEdges[0]));
  for (const a of boxEdges) for (const b of frEdges) axes.push(a.clone().cross(b));
  const scale = Math.max(...[...c, ...pts].map((p) => Math.abs(p.x) + Math.abs(p.y) + Math.abs(p.z)));
  for (const ax of axes) {
    const len = ax.length();
    if (!(len > 1e-12 * scale * scale)) continue;
    const proj = (ps) => ps.map((p) => p.dot(ax) / len);
    const a = proj(c), b = proj(pts);
    const gap = Math.max(Math.min(...b) - Math.max(...a), Math.min(...a) - Math.max(...b));
    if (gap > 1e-9 * scale) return false;
  }
  return true;
}

function visibleChain(o) {
  for (let p = o; p; p = p.parent) if (p.visible === false) return false;
  return true;
}

// Posed local box of an object three draws (skinned: posed vertices; instanced: the geometry's, per instance).
function posedBox(o) {
  if (o.isSkinnedMesh) {
    o.computeBoundingBox();
    return o.boundingBox;
  }
  if (o.geometry.boundingBox === null) o.geometry.computeBoundingBox();
  return o.geometry.boundingBox;
}

// ------------------------------------------------------------ the scenes

function randomTransform(r, o, { mirror = false, spread = 40 } = {}) {
  o.position.set((r() - 0.5) * spread, (r() - 0.5) * spread, (r() - 0.5) * spread);
  o.rotation.set(r() * 6.3, r() * 6.3, r() * 6.3);
  if (r() < 0.5) {
    const s = () => (0.3 + 2.5 * r()) * (mirror && r() < 0.3 ? -1 : 1);
    o.scale.set(s(), s(), s());
  }
}

const GEOMETRIES = [
  new THREE.BoxGeometry(1, 1, 1),
  new THREE.BoxGeometry(4, 0.5, 2).translate(3, 0, 0), // off-center
  new THREE.SphereGeometry(1.5, 8, 6),
  new THREE.CylinderGeometry(0.2, 1, 6, 6).translate(0, 3, 0),
];
const MAT = new THREE.MeshBasicMaterial();

function skinned(r) {
  const geo = new THREE.BoxGeometry(2, 2, 2, 1, 2, 1);
  const n = geo.attributes.position.count;
  const idx = new Uint16Array(4 * n), w = new Float32Array(4 * n);
  for (let i = 0; i < n; i++) {
    idx[4 * i] = geo.attributes.position.getY(i) > 0 ? 1 : 0;
    w[4 * i] = 1;
  }
  geo.setAttribute('skinIndex', new THREE.Uint16BufferAttribute(idx, 4));
  geo.setAttribute('skinWeight', new THREE.Float32BufferAttribute(w, 4));
  const root = new THREE.Bone(), tip = new THREE.Bone();
  root.add(tip);
  const mesh = new THREE.SkinnedMesh(geo, MAT);
  mesh.add(root);
  mesh.bind(new THREE.Skeleton([root, tip]));
  // posed far from the bind pose
  root.position.set((r() - 0.5) * 30, (r() - 0.5) * 30, (r() - 0.5) * 30);
  tip.position.set((r() - 0.5) * 20, 5 + r() * 10, 0);
  tip.rotation.set(r() * 3, r() * 3, 0);
  return mesh;
}

function instanced(r) {
  const n = 20 + Math.floor(r() * 60);
  const mesh = new THREE.InstancedMesh(GEOMETRIES[Math.floor(r() * GEOMETRIES.length)], MAT, n);
  const m = new THREE.Matrix4(), o = new THREE.Object3D();
  for (let i = 0; i < n; i++) {
    randomTransform(r, o, { mirror: true, spread: 80 });
    o.updateMatrix();
    mesh.setMatrixAt(i, m.copy(o.matrix));
  }
  if (r() < 0.3) mesh.count = Math.floor(n * r());
  return mesh;
}

function scene(r) {
  const root = new THREE.Scene();
  const all = [];
  const grow = (parent, depth) => {
    const kids = 1 + Math.floor(r() * (depth === 0 ? 8 : 3));
    for (let k = 0; k < kids; k++) {
      const u = r();
      let o;
      if (u < 0.12) o = new THREE.Group();
      else if (u < 0.17) o = skinned(r);
      else if (u < 0.24) o = instanced(r);
      else if (u < 0.28) o = new THREE.PointLight();
      else if (u < 0.32) o = new THREE.LineSegments(GEOMETRIES[Math.floor(r() * 4)], new THREE.LineBasicMaterial());
      else if (u < 0.36) o = new THREE.Points(GEOMETRIES[Math.floor(r() * 4)], new THREE.PointsMaterial());
      else o = new THREE.Mesh(GEOMETRIES[Math.floor(r() * 4)], MAT);
      randomTransform(r, o, { mirror: true, spread: depth === 0 ? 120 : 20 });
      if (r() < 0.1) o.frustumCulled = false;
      if (r() < 0.08) o.visible = false;
      o.userData.visible = o.visible;
      parent.add(o);
      all.push(o);
      if (depth < 3 && !o.isSkinnedMesh && r() < 0.45) grow(o, depth + 1);
    }
  };
  grow(root, 0);
  root.updateMatrixWorld(true);
  for (const o of all) if (o.isSkinnedMesh) o.skeleton.update();
  return { root, all };
}

// ----------------------------------------------------------- the cameras

function randomCamera(r) {
  const kind = r();
  const webgpu = r() < 0.4, reversed = r() < 0.4;
  const near = 0.05 + r() * 2, far = near + 30 + r() * 400;
  const setup = (c) => {
    if (webgpu) c.coordinateSystem = THREE.WebGPUCoordinateSystem;
    if (reversed) c._reversedDepth = true; // as WebGLRenderer / WebGPURenderer with a reversed depth buffer set it
    c.updateProjectionMatrix();
    return c;
  };
  const persp = () => {
    const c = new THREE.PerspectiveCamera(20 + r() * 100, 0.5 + r() * 2.5, near, far);
    if (r() < 0.3) c.zoom = 0.5 + r() * 2;
    if (r() < 0.3) c.filmOffset = (r() - 0.5) * 20;
    if (r() < 0.3) c.setViewOffset(1600, 900, r() * 800, r() * 400, 400 + r() * 800, 300 + r() * 500);
    return setup(c);
  };
  const ortho = () => {
    const w = 10 + r() * 100, h = 10 + r() * 100;
    const c = new THREE.OrthographicCamera(-w, w * (0.5 + r()), h, -h * (0.5 + r()), near - 20 * r(), far);
    if (r() < 0.3) c.zoom = 0.5 + r() * 2;
    if (r() < 0.3) c.setViewOffset(1600, 900, r() * 800, r() * 400, 400 + r() * 800, 300 + r() * 500);
    return setup(c);
  };
  const place = (c) => {
    c.position.set((r() - 0.5) * 200, (r() - 0.5) * 100, (r() - 0.5) * 200);
    c.lookAt((r() - 0.5) * 60, (r() - 0.5) * 30, (r() - 0.5) * 60);
    return c;
  };
  let camera, label;
  if (kind < 0.35) { camera = place(persp()); label = 'perspective'; }
  else if (kind < 0.6) { camera = place(ortho()); label = 'orthographic'; }
  else if (kind < 0.7) {
    // under a scaled, rotated parent (three drops the scale from the view)
    const parent = new THREE.Group();
    randomTransform(r, parent, { mirror: false, spread: 100 });
    camera = place(r() < 0.5 ? persp() : ortho());
    parent.add(camera);
    label = 'parented';
  } else if (kind < 0.8) {
    const subs = [place(persp()), place(persp())];
    for (const s of subs) s.updateMatrixWorld();
    camera = new THREE.ArrayCamera(subs);
    label = 'array';
  } else if (kind < 0.9) {
    camera = new THREE.CubeCamera(near, far, new THREE.WebGLCubeRenderTarget(4));
    camera.coordinateSystem = THREE.WebGLCoordinateSystem;
    camera.updateCoordinateSystem();
    place(camera);
    camera.updateMatrixWorld();
    label = 'cube';
  } else {
    camera = new THREE.StereoCamera();
    const main = place(persp());
    main.updateMatrixWorld();
    camera.update(main);
    label = 'stereo';
  }
  camera.updateMatrixWorld?.();
  return { camera, label: `${label}${webgpu ? ' webgpu' : ''}${reversed ? ' reversed' : ''}` };
}

// -------------------------------------------------------------- the test

test('helpers hide nothing three would draw: random scene graphs x random cameras of every kind, both modes', (t) => {
  let checked = 0, kept = 0, hidden = 0, instChecked = 0, instCulled = 0;
  const labels = new Set();
  for (let s = 0; s < SCENES; s++) {
    const r = rng(1000 + s);
    const { root, all } = scene(r);
    const mode = s % 2 ? 'exact' : 'conservative';
    const sc = new SceneCuller(satc, all, { mode });
    const ics = all.filter((o) => o.isInstancedMesh).map((m) => new InstanceCuller(satc, m, { mode }));
    for (let k = 0; k < CAMERAS; k++) {
      const { camera, label } = randomCamera(r);
      labels.add(label.split(' ')[0]);
      const frusta = threeFrusta(camera);
      // what three would draw without the helpers: the user's visibility, then its own test
      const userVisible = new Map(all.map((o) => [o, visibleChain(o)]));
      try {
        sc.update(camera);
        for (const ic of ics) ic.update(camera);
      } catch (e) {
        throw new Error(`scene ${s} ${label}: ${e.message}`);
      }
      for (const o of all) {
        if (!(o.isMesh || o.isLine || o.isPoints) || o.isInstancedMesh || !userVisible.get(o)) continue; // instances below
        if (visibleChain(o)) kept++; else hidden++;
        const threeDraws = o.frustumCulled === false || frusta.some((f) => f.intersectsObject(o));
        if (!threeDraws) continue;
        const pts = posedCorners(posedBox(o), o.matrixWorld);
        const seen = o.frustumCulled === false || frusta.some((f) => (mode === 'exact' ? touches(f, pts) : planesKeep(f, pts)));
        if (seen) {
          checked++;
          assert.ok(visibleChain(o), `scene ${s} ${label} ${mode}: ${o.type} ${o.id} that three draws is hidden`);
        }
      }
      // InstancedMesh: every instance whose posed box three's frustum keeps is drawn
      for (const ic of ics) {
        const mesh = ic.mesh;
        if (!userVisible.get(mesh)) continue;
        const drawn = new Set(Array.from({ length: ic.visible }, (_, j) => ic.sourceIndex(j)));
        const m = new THREE.Matrix4(), w = new THREE.Matrix4();
        const box = mesh.geometry.boundingBox ?? (mesh.geometry.computeBoundingBox(), mesh.geometry.boundingBox);
        let any = false;
        for (let i = 0; i < ic.count; i++) {
          mesh.getMatrixAt(i, m);
          const pts = posedCorners(box, w.multiplyMatrices(mesh.matrixWorld, m));
          const seen = frusta.some((f) => (mode === 'exact' ? touches(f, pts) : planesKeep(f, pts)));
          if (seen) {
            any = true;
            instChecked++;
            assert.ok(drawn.has(i), `scene ${s} ${label} ${mode}: instance ${i} of InstancedMesh ${mesh.id} in view is not drawn`);
          } else if (!drawn.has(i)) instCulled++;
        }
        // the mesh itself stays drawn when an instance is in view: its parents shown, three's whole-mesh test passed
        if (any) assert.ok(visibleChain(mesh), `scene ${s} ${label}: InstancedMesh ${mesh.id} with an instance in view is hidden`);
        if (any && mesh.frustumCulled) assert.ok(frusta.some((f) => f.intersectsObject(mesh)), `scene ${s} ${label}: three culls InstancedMesh ${mesh.id} by its bounds`);
      }
    }
    sc.dispose();
    for (const ic of ics) ic.dispose();
    for (const o of all) {
      assert.ok(Object.getOwnPropertyDescriptor(o, 'visible').writable, 'visible is a plain property again');
      assert.equal(o.visible, o.userData.visible, 'the user\'s visible is back');
    }
  }
  assert.ok(checked > 300 && hidden > 50 && instChecked > 100 && instCulled > 100,
    `checked ${checked} objects three draws (kept ${kept}, hidden ${hidden} out of view), ${instChecked} instances in view, ${instCulled} culled`);
  for (const k of ['perspective', 'orthographic', 'parented', 'array', 'cube', 'stereo']) assert.ok(labels.has(k), `no ${k} camera drawn`);
  t.diagnostic(`${SCENES} scenes x ${CAMERAS} cameras: ${checked} objects three draws all drawn (${kept} kept, ${hidden} hidden out of view), ` +
    `${instChecked} instances in view all drawn, ${instCulled} culled; 0 hidden that three would draw`);
});
