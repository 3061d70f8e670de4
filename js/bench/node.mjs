// The [js] figures under node, on the demo's city and cameras (the page's
// bench, test/browser/run.mjs, gives them in Chromium): per frame, 100 k
// instances from instance matrices to drawn instances with satc's
// InstanceCuller, against three.js's per-object test over 100 k Meshes and
// BatchedMesh's own per-instance culling. Medians of 61 cameras.
//   npm run bench
import * as THREE from 'three';
import { load } from '../src/index.js';
import { InstanceCuller } from '../src/three.js';
import { makeCity, buildingGeometry, placeCamera, makeCamera } from '../demo/city.js';

const N = 100000, FRAMES = Number(process.env.SATC_BENCH_FRAMES ?? 61);
const satc = await load({ reserve: 64 << 20 });
const city = makeCity(N), geometry = buildingGeometry(), material = new THREE.MeshBasicMaterial();
const mk = () => {
  const m = new THREE.InstancedMesh(geometry, material, N);
  m.instanceMatrix.array.set(city.matrices);
  return m;
};
const grouped = new InstanceCuller(satc, mk(), { groups: 128 });
const flat = new InstanceCuller(satc, mk());
const group = new THREE.Group(), mat = new THREE.Matrix4();
for (let i = 0; i < N; i++) {
  const mesh = new THREE.Mesh(geometry, material);
  mat.fromArray(city.matrices, 16 * i).decompose(mesh.position, mesh.quaternion, mesh.scale);
  group.add(mesh);
}
group.updateMatrixWorld(true);
const bm = new THREE.BatchedMesh(N, geometry.attributes.position.count, geometry.index.count, material);
bm.sortObjects = false;
const gid = bm.addGeometry(geometry);
for (let i = 0; i < N; i++) bm.setMatrixAt(bm.addInstance(gid), mat.fromArray(city.matrices, 16 * i));

const camera = makeCamera(16 / 9), frustum = new THREE.Frustum(), vp = new THREE.Matrix4();
const t = { satc: [], satcCopy: [], three: [], batched: [] };
const renderer = { isWebGPURenderer: false };
for (let f = 0; f < FRAMES + 3; f++) {
  placeCamera(camera, 3 + f * 1.7);
  const s = [];
  let a = performance.now();
  const v1 = grouped.update(camera);
  s.push(performance.now() - a);
  a = performance.now();
  flat.matrices.set(city.matrices);
  const v2 = flat.update(camera);
  s.push(performance.now() - a);
  a = performance.now();
  frustum.setFromProjectionMatrix(vp.multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse));
  let v3 = 0;
  for (const m of group.children) if (frustum.intersectsObject(m)) v3++;
  s.push(performance.now() - a);
  a = performance.now();
  bm.onBeforeRender(renderer, null, camera, bm.geometry, bm.material);
  s.push(performance.now() - a);
  if (v1 !== v2 || bm._multiDrawCount !== v3) throw new Error(`counts differ: ${v1} ${v2} ${v3} ${bm._multiDrawCount}`);
  if (f >= 3) ['satc', 'satcCopy', 'three', 'batched'].forEach((k, i) => t[k].push(s[i]));
}
const med = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
const ms = Object.fromEntries(Object.entries(t).map(([k, v]) => [k, med(v)]));
console.log(`# node ${process.version}, three ${THREE.REVISION}, satc ${satc.version} ${satc.isa}; ${N} instances, median of ${FRAMES} cameras`);
console.log(`# satc InstanceCuller.update (matrices in satc memory, groups of 128) ${ms.satc.toFixed(2)} ms; all matrices copied in, no groups ${ms.satcCopy.toFixed(2)} ms;` +
  ` three.js intersectsObject x ${N} Meshes ${ms.three.toFixed(2)} ms; BatchedMesh per-instance culling ${ms.batched.toFixed(2)} ms`);
// The project's goal lines: with --goals or SATC_BENCH_GOALS=1 only (bench/README.md).
const GOALS = process.argv.includes('--goals') || !['', '0', undefined].includes(process.env.SATC_BENCH_GOALS);
for (const [key, how] of [['satc', 'matrices in satc memory, groups'], ['satcCopy', 'all matrices copied in, no groups']]) {
  const r1 = ms.three / ms[key], r2 = ms.batched / ms[key];
  if (!GOALS) break;
  console.log(`${r1 >= 10 ? 'PASS' : 'MISS'} [js] node, 100k instances matrices->drawn (${how}): satc ${ms[key].toFixed(2)} ms vs three.js Meshes ${ms.three.toFixed(2)} ms: ${r1.toFixed(1)}x (target >= 10x)`);
  console.log(`${r2 >= 4 ? 'PASS' : 'MISS'} [js] node, 100k instances matrices->drawn (${how}): satc ${ms[key].toFixed(2)} ms vs BatchedMesh per-instance ${ms.batched.toFixed(2)} ms: ${r2.toFixed(1)}x (target >= 4x)`);
}
