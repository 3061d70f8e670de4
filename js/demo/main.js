// @ts-check
// The demo: a city of 100,000 buildings under a moving camera, culled per
// instance by satc (one InstancedMesh) or, switchable, by three.js's own
// per-object test (100,000 Meshes, the renderer's culling). ?t=SECONDS
// freezes the camera, ?mode=three starts with three.js, ?n= sets the count,
// ?simd=0 loads the scalar module, ?occlusion=1 starts with occlusion
// culling on (the buildings themselves are the occluders).
import * as THREE from 'three';
import { load } from 'satc';
import { InstanceCuller } from 'satc/three';
import { makeCity, buildingGeometry, placeCamera, makeCamera, CITY_SIZE } from './city.js';

const params = new URLSearchParams(location.search);
const N = Number(params.get('n') ?? 100000);
const frozen = params.has('t') ? Number(params.get('t')) : null;
/** @type {'satc' | 'three'} */
let mode = params.get('mode') === 'three' ? 'three' : 'satc';

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const fmt = (/** @type {number} */ x) => x.toLocaleString('en-US');

const satc = await load({ reserve: 16 * N * 4 + (8 << 20), simd: params.get('simd') === '0' ? false : undefined });
const canvas = /** @type {HTMLCanvasElement} */ ($('view'));
const renderer = new THREE.WebGLRenderer({ canvas, antialias: true });
renderer.setPixelRatio(1);
renderer.setSize(innerWidth, innerHeight, false);

const scene = new THREE.Scene();
scene.background = new THREE.Color(0x9fb8d0);
scene.fog = new THREE.Fog(0x9fb8d0, 300, 1150);
scene.add(new THREE.HemisphereLight(0xdfe9f5, 0x4a4035, 1.6));
const sun = new THREE.DirectionalLight(0xfff1dc, 1.8);
sun.position.set(300, 500, 200);
scene.add(sun);
const ground = new THREE.Mesh(new THREE.PlaneGeometry(CITY_SIZE * 1.5, CITY_SIZE * 1.5), new THREE.MeshLambertMaterial({ color: 0x55585c }));
ground.rotation.x = -Math.PI / 2;
scene.add(ground);

const city = makeCity(N);
const geometry = buildingGeometry();
const material = new THREE.MeshLambertMaterial();
const camera = makeCamera(innerWidth / innerHeight);

// satc: one InstancedMesh, its source matrices in satc's memory.
const instanced = new THREE.InstancedMesh(geometry, material, N);
instanced.instanceMatrix.array.set(city.matrices);
instanced.instanceColor = new THREE.InstancedBufferAttribute(city.colors.slice(), 3);
instanced.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
// the city is stored block by block: groups of 128 neighbours. With
// occlusion, the buildings the frustum keeps are drawn into a depth pyramid
// (each building is a solid box) and those hidden behind them are culled.
let occlusion = params.get('occlusion') === '1';
const makeCuller = () => new InstanceCuller(satc, instanced, { groups: 128, occlusion: occlusion ? { occluders: true } : undefined });
let culler = makeCuller();
scene.add(instanced);

// three.js: the same city as individual Meshes, made on first use.
/** @type {THREE.Group | null} */
let meshes = null;
function threeMeshes() {
  if (meshes) return meshes;
  meshes = new THREE.Group();
  const shades = Array.from({ length: 8 }, (_, i) => new THREE.MeshLambertMaterial({ color: new THREE.Color().setScalar(0.5 + i * 0.05) }));
  const m = new THREE.Matrix4();
  for (let i = 0; i < N; i++) {
    const mesh = new THREE.Mesh(geometry, shades[i % 8]);
    m.fromArray(city.matrices, 16 * i).decompose(mesh.position, mesh.quaternion, mesh.scale);
    meshes.add(mesh);
  }
  meshes.updateMatrixWorld(true);
  meshes.visible = false;
  scene.add(meshes);
  return meshes;
}

const frustum = new THREE.Frustum(), vp = new THREE.Matrix4();
/** What the renderer does per object: the world bounding sphere against six planes. */
function threeCull() {
  const g = threeMeshes();
  vp.multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse);
  frustum.setFromProjectionMatrix(vp);
  let visible = 0;
  const list = g.children;
  for (let i = 0; i < list.length; i++) if (frustum.intersectsObject(list[i])) visible++;
  return visible;
}

const state = {
  frames: 0, mode, satcVisible: -1, threeVisible: -1, satcMs: NaN, threeMs: NaN, renderMs: NaN, occlusion,
  /** @type {null | import('satc/three').OcclusionStats} */
  occl: null,
  errors: /** @type {string[]} */ ([]),
};

function setOcclusion(/** @type {boolean} */ on) {
  occlusion = state.occlusion = on;
  culler.dispose();
  culler = makeCuller();
  Object.assign(window, { demo: { ...(/** @type {any} */ (window).demo), culler } });
  $('occl-state').textContent = on ? 'on' : 'off';
  if (!on) for (const id of ['occl-frustum', 'occl-drawn', 'occl-count', 'occl-ms']) $(id).textContent = '–';
}
$('toggle-occl').onclick = () => setOcclusion(!occlusion);
$('occl-state').textContent = occlusion ? 'on' : 'off';

function setMode(/** @type {'satc' | 'three'} */ m) {
  mode = state.mode = m;
  instanced.visible = m === 'satc';
  if (m === 'three') threeMeshes().visible = true;
  else if (meshes) meshes.visible = false;
  $('row-satc').className = m === 'satc' ? 'active' : '';
  $('row-three').className = m === 'three' ? 'active' : '';
}
$('use-satc').onclick = () => setMode('satc');
$('use-three').onclick = () => setMode('three');
$('isa').textContent = satc.isa;
$('count').textContent = fmt(N);
setMode(mode);

addEventListener('resize', () => {
  renderer.setSize(innerWidth, innerHeight, false);
  camera.aspect = innerWidth / innerHeight;
  camera.updateProjectionMatrix();
});

const t0 = performance.now();
function frame() {
  placeCamera(camera, frozen ?? (performance.now() - t0) / 1000);
  const a = performance.now();
  if (mode === 'satc') {
    state.satcVisible = culler.update(camera);
    state.satcMs = performance.now() - a;
    $('satc-visible').textContent = fmt(state.satcVisible);
    $('satc-ms').textContent = state.satcMs.toFixed(2);
    const o = (state.occl = culler.occlusion ? structuredClone(culler.occlusion) : null);
    if (o) {
      $('occl-frustum').textContent = fmt(o.frustum);
      $('occl-drawn').textContent = fmt(o.drawn);
      $('occl-count').textContent = fmt(o.occluders);
      $('occl-ms').textContent = `${o.ms.frustum.toFixed(2)} · ${o.ms.select.toFixed(2)} · ${o.ms.occluders.toFixed(2)} · ${o.ms.test.toFixed(2)}`;
    }
  } else {
    state.threeVisible = threeCull();
    state.threeMs = performance.now() - a;
    $('three-visible').textContent = fmt(state.threeVisible);
    $('three-ms').textContent = state.threeMs.toFixed(2);
  }
  const r0 = performance.now();
  renderer.render(scene, camera);
  state.renderMs = performance.now() - r0;
  $('render-ms').textContent = state.renderMs.toFixed(2);
  state.frames++;
}
renderer.setAnimationLoop(frame);

/** Median of a list. */
const median = (/** @type {number[]} */ a) => a.slice().sort((x, y) => x - y)[a.length >> 1];

/**
 * Per-frame culling cost of the same city and cameras, three ways (no
 * rendering): satc from the instance matrices to drawn instances
 * (InstanceCuller.update: frustum, cull with group bounds, compaction into
 * instanceMatrix, attribute update ranges; and, without groups, after a
 * copy of all 100 k matrices in from a JavaScript array),
 * three.js's per-object test over 100 k Meshes, and BatchedMesh's own
 * per-instance culling (its onBeforeRender).
 * @param {number} frames
 */
async function bench(frames = 31) {
  renderer.setAnimationLoop(null);
  threeMeshes();
  const bm = new THREE.BatchedMesh(N, geometry.attributes.position.count, geometry.index ? geometry.index.count : 0, material);
  bm.sortObjects = false; // three's default sorts too: leaving it on would only slow BatchedMesh down
  const gid = bm.addGeometry(geometry), m = new THREE.Matrix4();
  for (let i = 0; i < N; i++) bm.setMatrixAt(bm.addInstance(gid), m.fromArray(city.matrices, 16 * i));
  const source = city.matrices;
  // the same instances copied in from a JavaScript array every frame: no group bounds (they would need recomputing)
  const copyMesh = new THREE.InstancedMesh(geometry, material, N);
  copyMesh.instanceMatrix.array.set(source);
  const copyCuller = new InstanceCuller(satc, copyMesh);
  /** @type {Record<string, number[]>} */
  const t = { satc: [], satcCopy: [], three: [], batched: [] };
  const counts = { satc: 0, satcCopy: 0, three: 0, batched: 0 };
  for (let f = 0; f < frames; f++) {
    placeCamera(camera, 3 + f * 1.7);
    let a = performance.now();
    counts.satc = culler.update(camera);
    t.satc.push(performance.now() - a);
    a = performance.now();
    copyCuller.matrices.set(source);
    counts.satcCopy = copyCuller.update(camera);
    t.satcCopy.push(performance.now() - a);
    a = performance.now();
    counts.three = threeCull();
    t.three.push(performance.now() - a);
    a = performance.now();
    bm.onBeforeRender(renderer, scene, camera, bm.geometry, bm.material, /** @type {any} */ (null));
    t.batched.push(performance.now() - a);
    counts.batched = /** @type {any} */ (bm)._multiDrawCount;
    await new Promise((r) => setTimeout(r, 0));
  }
  bm.dispose();
  copyCuller.dispose();
  renderer.setAnimationLoop(frame);
  return {
    n: N, frames, isa: satc.isa, userAgent: navigator.userAgent,
    ms: { satc: median(t.satc), satcCopy: median(t.satcCopy), three: median(t.three), batched: median(t.batched) },
    lastVisible: counts,
  };
}

addEventListener('error', (e) => state.errors.push(String(e.message)));
Object.assign(window, { demo: { state, bench, setMode, setOcclusion, satc, camera, culler } });
