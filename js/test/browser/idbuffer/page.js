// @ts-check
// The demo's city drawn as an ID buffer: each building a unique colour
// (its index + 1 in 24 bits), no lighting, no antialiasing, no colour
// management. compare(t, opts) renders the pose at time t twice, once with
// every instance drawn and once culled by InstanceCuller (opts go to its
// update), reads both frames back and reports which buildings have a pixel
// in each. A building with a pixel in the full frame and none in the culled
// one was hidden by the culler although it is visible. ?reps= times each
// culled frame that many times (the best counts), ?pyramid= sets the
// pyramid's width, ?occluders= the occluder budget. A culler named
// 'occlusion:size=400;merge=true' is the default occlusion culler with
// those occlusion options.
import * as THREE from 'three';
import { load } from 'satc';
import { InstanceCuller } from 'satc/three';
import { makeCity, buildingGeometry, placeCamera, makeCamera } from '../../../demo/city.js';

const params = new URLSearchParams(location.search);
const N = Number(params.get('n') ?? 100000);
const W = Number(params.get('w') ?? 1280), H = Number(params.get('h') ?? 720);

const satc = await load({ reserve: 16 * N * 4 + (8 << 20), simd: params.get('simd') === '0' ? false : undefined });
const canvas = /** @type {HTMLCanvasElement} */ (document.getElementById('view'));
const renderer = new THREE.WebGLRenderer({ canvas, antialias: false, preserveDrawingBuffer: true });
renderer.setPixelRatio(1);
renderer.setSize(W, H, false);
renderer.outputColorSpace = THREE.LinearSRGBColorSpace;
renderer.toneMapping = THREE.NoToneMapping;

const city = makeCity(N);
const ids = new Float32Array(3 * N);
for (let i = 0; i < N; i++) {
  const id = i + 1;
  ids[3 * i] = (id & 255) / 255;
  ids[3 * i + 1] = ((id >> 8) & 255) / 255;
  ids[3 * i + 2] = ((id >> 16) & 255) / 255;
}
// Unlit: the instance colour is the fragment colour, exactly.
const material = new THREE.ShaderMaterial({
  vertexShader: `
    flat varying vec3 vId;
    void main() {
      vId = instanceColor;
      gl_Position = projectionMatrix * modelViewMatrix * instanceMatrix * vec4(position, 1.0);
    }`,
  fragmentShader: `
    flat varying vec3 vId;
    void main() { gl_FragColor = vec4(vId, 1.0); }`,
});
const geometry = buildingGeometry();
const camera = makeCamera(W / H);

/** @param {false | Record<string, unknown>} culled  false, or InstanceCuller options */
function makeMesh(culled) {
  const mesh = new THREE.InstancedMesh(geometry, material, N);
  mesh.instanceMatrix.array.set(city.matrices);
  mesh.instanceColor = new THREE.InstancedBufferAttribute(ids.slice(), 3);
  mesh.frustumCulled = !culled ? false : true; // the full frame: three may not cull the mesh either
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0, 0, 0);
  scene.add(mesh);
  return { mesh, scene, culler: culled ? new InstanceCuller(satc, mesh, culled) : null };
}
const full = makeMesh(false);
const pyramidWidth = params.has('pyramid') ? Number(params.get('pyramid')) : undefined;
const maxOccluders = params.has('occluders') ? Number(params.get('occluders')) : undefined;
/** @type {Record<string, ReturnType<typeof makeMesh>>} */
const culled = {
  frustum: makeMesh({ groups: 128 }),
  // trustShaders: the ID shader places instances as three's own materials do
  occlusion: makeMesh({ groups: 128, occlusion: { occluders: true, size: pyramidWidth, maxOccluders, trustShaders: true } }),
};
const gl = renderer.getContext();
const reps = Number(params.get('reps') ?? 2);
// shaders compiled, instance buffers uploaded and the culler past its
// first updates (InstanceCuller walks its largest boxes once the matrices
// have stayed put for a few) before anything is timed
function warm(c) {
  placeCamera(camera, 0);
  for (let k = 0; k < 10; k++) c.culler?.update(camera);
  renderer.render(c.scene, camera);
}
Object.values(culled).forEach(warm);

/** The culler of that name: a configured one made (and warmed) at its first use. @param {string} which */
function cullerOf(which) {
  if (!culled[which] && which.startsWith('occlusion:')) {
    /** @type {Record<string, unknown>} */
    const o = { occluders: true, trustShaders: true };
    for (const kv of which.slice(10).split(';').filter(Boolean)) {
      const [k, v] = kv.split('=');
      o[k] = v === 'true' ? true : v === 'false' ? false : Number(v);
    }
    culled[which] = makeMesh({ groups: 128, occlusion: o });
    warm(culled[which]);
  }
  const c = culled[which];
  if (!c) throw new Error(`no culler ${which}`);
  return c;
}
const pixels = [new Uint8Array(4 * W * H), new Uint8Array(4 * W * H)];

/** Renders a scene and returns the set of ids with a pixel (bit per building). @param {THREE.Scene} scene @param {Uint8Array} px */
function idsOf(scene, px) {
  renderer.render(scene, camera);
  gl.readPixels(0, 0, W, H, gl.RGBA, gl.UNSIGNED_BYTE, px);
  const seen = new Uint8Array(N + 1);
  for (let p = 0; p < W * H; p++) seen[px[4 * p] | (px[4 * p + 1] << 8) | (px[4 * p + 2] << 16)] = 1;
  return seen;
}

/**
 * @param {number} t  the demo path's time (seconds)
 * @param {string} which  'frustum' or 'occlusion'
 */
function compare(t, which = 'frustum') {
  placeCamera(camera, t);
  const a = idsOf(full.scene, pixels[0]);
  const c = cullerOf(which);
  placeCamera(camera, t);
  const one = new Uint8Array(4);
  // the frame's time: cull, render and wait for the GPU (a one-pixel
  // readback); the best of `reps` (the machine may be busy)
  let drawn = N, cullMs = Infinity, frameMs = Infinity, stats = null;
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    drawn = c.culler?.update(camera) ?? N;
    const t1 = performance.now();
    renderer.render(c.scene, camera);
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, one);
    const t2 = performance.now();
    if (t1 - t0 < cullMs && c.culler?.occlusion) stats = structuredClone(c.culler.occlusion); // the stages of the best cull
    cullMs = Math.min(cullMs, t1 - t0);
    frameMs = Math.min(frameMs, t2 - t0);
  }
  const b = idsOf(c.scene, pixels[1]);
  let seen = 0, missing = 0, extra = 0, diff = 0;
  const missingIds = [];
  for (let i = 1; i <= N; i++) {
    if (a[i]) seen++;
    if (a[i] && !b[i]) { missing++; if (missingIds.length < 20) missingIds.push(i - 1); }
    if (!a[i] && b[i]) extra++;
  }
  const pa = pixels[0], pb = pixels[1];
  for (let p = 0; p < 4 * W * H; p += 4) if (pa[p] !== pb[p] || pa[p + 1] !== pb[p + 1] || pa[p + 2] !== pb[p + 2]) diff++;
  return { t, drawn, seen, missing, extra, diffPixels: diff, missingIds, cullMs, frameMs, stats };
}

Object.assign(window, { idbuf: { compare, satc, N, W, H, culled, camera, ready: true } });
