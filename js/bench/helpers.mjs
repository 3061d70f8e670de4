// Occlusion in SceneCuller and BatchedCuller under node, on the
// demo's city (100 k buildings) along its camera path: per update,
// milliseconds and objects drawn with frustum culling alone and with
// occlusion (every building a solid occluder). Medians over the cameras.
//   node bench/helpers.mjs [--stages]   (SATC_BENCH_N, SATC_BENCH_FRAMES;
//   --stages: the last update's occlusion figures)
import * as THREE from 'three';
import { load } from '../src/index.js';
import { BatchedCuller, SceneCuller } from '../src/three.js';
import { makeCity, buildingGeometry, placeCamera, makeCamera } from '../demo/city.js';

const N = Number(process.env.SATC_BENCH_N ?? 100000), FRAMES = Number(process.env.SATC_BENCH_FRAMES ?? 11);
const satc = await load({ reserve: 64 << 20 });
const city = makeCity(N), geometry = buildingGeometry(), material = new THREE.MeshBasicMaterial();
const scene = new THREE.Scene(), m = new THREE.Matrix4();
const meshes = [];
for (let i = 0; i < N; i++) {
  const mesh = new THREE.Mesh(geometry, material);
  m.fromArray(city.matrices, 16 * i).decompose(mesh.position, mesh.quaternion, mesh.scale);
  scene.add(mesh);
  meshes.push(mesh);
}
scene.updateMatrixWorld(true);
const bm = new THREE.BatchedMesh(N, geometry.attributes.position.count, geometry.index.count, material);
const gid = bm.addGeometry(geometry);
for (let i = 0; i < N; i++) bm.setMatrixAt(bm.addInstance(gid), m.fromArray(city.matrices, 16 * i));

const sceneCuller = new SceneCuller(satc, meshes, { static: true, occlusion: true });
const batchedCuller = new BatchedCuller(satc, bm, { occlusion: true });
const camera = makeCamera(16 / 9);
const t = {};
const add = (k, v) => (t[k] ??= []).push(v);
for (let f = 0; f < FRAMES + 2; f++) {
  placeCamera(camera, 3 + f * 5.3);
  camera.updateMatrixWorld();
  for (const [name, c] of [['SceneCuller', sceneCuller], ['BatchedCuller', batchedCuller]]) {
    for (const occlusion of [false, true]) {
      const a = performance.now();
      const drawn = c.update(camera, { occlusion });
      const ms = performance.now() - a;
      if (f < 2) continue;
      add(`${name} ${occlusion} ms`, ms);
      add(`${name} ${occlusion} drawn`, name === 'SceneCuller' ? meshes.filter((x) => x.visible).length : drawn);
    }
  }
}
const med = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
console.log(`# node ${process.version}, three ${THREE.REVISION}, satc ${satc.version} ${satc.isa}; ${N} buildings, median of ${FRAMES} cameras`);
for (const name of ['SceneCuller', 'BatchedCuller']) {
  const g = (k) => med(t[`${name} ${k}`]);
  console.log(`# ${name}.update: frustum ${g('false ms').toFixed(2)} ms, ${g('false drawn')} drawn; ` +
    `with occlusion ${g('true ms').toFixed(2)} ms, ${g('true drawn')} drawn`);
}
if (process.argv.includes("--stages")) console.log(JSON.stringify(sceneCuller.occlusion), JSON.stringify(batchedCuller.occlusion));
sceneCuller.dispose();
batchedCuller.dispose();
