// @ts-check
// Random scenes of walls that three may or may not draw opaque (random
// materials, sides, draw ranges, groups, material arrays, hidden parents,
// layers, mirroring, depth written without colour; perspective,
// orthographic, scaled and x-flipped cameras) in
// front of small boxes, rendered by three itself.
// A box is seen when removing it changes a pixel of the frame; every
// helper's occlusion (SceneCuller with the walls among its objects or as
// occluder meshes, InstanceCuller with them as occluder meshes) must keep
// every box three shows. run(seed, count) reports the counts.
import * as THREE from 'three';
import { load } from 'satc';
import { BatchedCuller, InstanceCuller, SceneCuller } from 'satc/three';
import { rng } from '../../../demo/city.js';

const params = new URLSearchParams(location.search);
const W = Number(params.get('w') ?? 256), H = Number(params.get('h') ?? 160);
const satc = await load();
const canvas = /** @type {HTMLCanvasElement} */ (document.getElementById('view'));
const renderer = new THREE.WebGLRenderer({ canvas, antialias: false, preserveDrawingBuffer: true });
renderer.setPixelRatio(1);
renderer.setSize(W, H, false);
const gl = renderer.getContext();
const BOXES = 15;
const unit = new THREE.BoxGeometry(1, 1, 1);
const boxMaterial = new THREE.MeshBasicMaterial({ color: 0xffffff });

/** A wall with random properties, at depth 6 to 14, facing the camera or not. @param {() => number} r */
function wall(r) {
  const pick = (p) => r() < p;
  const plane = pick(0.4);
  const sx = 6 + 14 * r(), sy = 6 + 14 * r();
  const geo = plane ? new THREE.PlaneGeometry(sx, sy) : new THREE.BoxGeometry(sx, sy, 0.5 + r());
  const m = new THREE.MeshBasicMaterial({ color: 0x808080 });
  if (pick(0.15)) { m.transparent = true; m.opacity = [0, 0.5, 1][Math.floor(3 * r())]; }
  if (pick(0.1)) m.alphaTest = 0.5;
  if (pick(0.1)) m.wireframe = true;
  if (pick(0.08)) m.colorWrite = false;
  if (pick(0.08)) m.depthWrite = false;
  if (pick(0.05)) m.visible = false;
  if (pick(0.05)) m.blending = THREE.AdditiveBlending;
  if (pick(0.05)) m.depthFunc = THREE.GreaterDepth;
  if (pick(0.05)) m.alphaHash = true;
  m.side = [THREE.FrontSide, THREE.BackSide, THREE.DoubleSide][Math.floor(3 * r())];
  let material = /** @type {THREE.Material | THREE.Material[]} */ (m);
  const u = r();
  if (u < 0.1) geo.setDrawRange(0, 0);
  else if (u < 0.2) geo.setDrawRange(plane ? 3 * Math.floor(2 * r()) : 6 * Math.floor(6 * r()), plane ? 3 : 6); // one triangle or face
  else if (u < 0.3 && !plane) material = [m]; // a box draws its first group only
  else if (u < 0.35) { geo.clearGroups(); material = [m, m]; } // no groups: nothing drawn
  const o = new THREE.Mesh(geo, material);
  o.position.set((r() - 0.5) * 10, (r() - 0.5) * 6, -6 - 8 * r());
  o.rotation.set((r() - 0.5) * 0.6, (pick(0.4) ? Math.PI : 0) + (r() - 0.5) * 0.6, 0);
  if (pick(0.1)) o.scale.x = -1;
  if (pick(0.05)) o.visible = false;
  if (pick(0.05)) o.layers.set(1);
  return o;
}

/** A scene: 1 to 3 walls (some under a hidden group), BOXES boxes behind them. @param {number} seed */
function makeScene(seed) {
  const r = rng(seed);
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0, 0, 0);
  const walls = [];
  for (let k = 1 + Math.floor(3 * r()); k > 0; k--) {
    const w = wall(r);
    if (r() < 0.05) {
      const g = new THREE.Group();
      g.visible = false;
      g.add(w);
      scene.add(g);
    } else scene.add(w);
    walls.push(w);
  }
  const where = [];
  for (let i = 0; i < BOXES; i++) where.push([(r() - 0.5) * 16, (r() - 0.5) * 9, -16 - 14 * r()]);
  const boxes = where.map((p) => {
    const b = new THREE.Mesh(unit, boxMaterial);
    b.position.set(p[0], p[1], p[2]);
    scene.add(b);
    return b;
  });
  const camera = r() < 0.2 ? new THREE.OrthographicCamera(-10, 10, 6.25, -6.25, 0.5, 100) : new THREE.PerspectiveCamera(60, W / H, 0.5, 100);
  camera.rotation.set((r() - 0.5) * 0.2, (r() - 0.5) * 0.2, 0);
  if (r() < 0.1) camera.scale.x = -1; // three leaves a camera's scale out of its view
  scene.updateMatrixWorld();
  camera.updateMatrixWorld();
  if (r() < 0.1) camera.projectionMatrix.elements[0] *= -1; // a projection flipping x: three draws the other faces
  return { scene, walls, boxes, where, camera };
}

const px = [new Uint8Array(4 * W * H), new Uint8Array(4 * W * H)];
/** @param {THREE.Scene} scene @param {THREE.Camera} camera @param {Uint8Array} out */
function frame(scene, camera, out) {
  renderer.render(scene, camera);
  gl.readPixels(0, 0, W, H, gl.RGBA, gl.UNSIGNED_BYTE, out);
}

/** Which boxes lie in three's frustum. */
function inFrustum(s) {
  const f = new THREE.Frustum().setFromProjectionMatrix(new THREE.Matrix4().multiplyMatrices(s.camera.projectionMatrix, s.camera.matrixWorldInverse));
  return s.boxes.map((b) => f.intersectsObject(b));
}

/** Which boxes three shows: removing them changes a pixel. */
function seenByThree(s) {
  frame(s.scene, s.camera, px[0]);
  return s.boxes.map((b) => {
    b.visible = false;
    frame(s.scene, s.camera, px[1]);
    b.visible = true;
    const a = px[0], c = px[1];
    for (let p = 0; p < a.length; p++) if (a[p] !== c[p]) return true;
    return false;
  });
}

// Each helper's answer: per box, drawn or not.
const HELPERS = {
  'SceneCuller, walls among its objects': (s) => {
    const sc = new SceneCuller(satc, [...s.walls, ...s.boxes], { occlusion: { occluders: (o) => s.walls.includes(o), minTexels: 0 } });
    sc.update(s.camera);
    const r = s.boxes.map((b) => b.visible);
    sc.dispose();
    return r;
  },
  'SceneCuller, walls as occluder meshes': (s) => {
    const sc = new SceneCuller(satc, s.boxes, { occlusion: { meshes: s.walls } });
    sc.update(s.camera);
    const r = s.boxes.map((b) => b.visible);
    sc.dispose();
    return r;
  },
  'InstanceCuller, walls as occluder meshes': (s) => {
    const im = new THREE.InstancedMesh(unit, boxMaterial, BOXES);
    s.where.forEach((p, i) => im.setMatrixAt(i, new THREE.Matrix4().makeTranslation(p[0], p[1], p[2])));
    const ic = new InstanceCuller(satc, im, { occlusion: { meshes: s.walls } });
    const k = ic.update(s.camera);
    const drawn = new Set(Array.from({ length: k }, (_, j) => ic.sourceIndex(j)));
    ic.dispose();
    return s.where.map((_, i) => drawn.has(i));
  },
  'BatchedCuller, walls as occluder meshes': (s) => {
    const bm = new THREE.BatchedMesh(BOXES, 100, 100, boxMaterial);
    const g = bm.addGeometry(unit);
    for (const p of s.where) bm.setMatrixAt(bm.addInstance(g), new THREE.Matrix4().makeTranslation(p[0], p[1], p[2]));
    const bc = new BatchedCuller(satc, bm, { occlusion: { meshes: s.walls } });
    bc.update(s.camera);
    const r = s.where.map((_, i) => bm.getVisibleAt(i));
    bc.dispose();
    return r;
  },
};

/** Scenes seed .. seed + count - 1: per helper, boxes three shows, occluded (hidden in the frustum), hidden though shown (with examples). */
function run(seed, count) {
  const out = Object.fromEntries(Object.keys(HELPERS).map((k) => [k, { seen: 0, occluded: 0, hiddenSeen: 0, examples: /** @type {string[]} */ ([]) }]));
  let seen = 0, boxes = 0;
  for (let q = seed; q < seed + count; q++) {
    const s = makeScene(q);
    const three = seenByThree(s), inside = inFrustum(s);
    boxes += BOXES;
    seen += three.filter(Boolean).length;
    for (const [name, cull] of Object.entries(HELPERS)) {
      const drawn = cull(s);
      const o = out[name];
      for (let i = 0; i < BOXES; i++) {
        if (three[i]) o.seen++;
        if (!drawn[i] && inside[i]) o.occluded++;
        if (three[i] && !drawn[i]) {
          o.hiddenSeen++;
          if (o.examples.length < 5) o.examples.push(`scene ${q} box ${i}`);
        }
      }
      for (const b of s.boxes) b.visible = true; // SceneCuller gave it back; InstanceCuller touched none
    }
  }
  return { scenes: count, boxes, seen, helpers: out };
}

Object.assign(window, { scenes: { run, makeScene, ready: true } });
