// Occlusion culling under node on the demo's city (100 k buildings, each
// a solid box and an occluder candidate) along the demo's camera path:
// instances drawn with occlusion against frustum culling alone, and the
// milliseconds of InstanceCuller.update (wall and process CPU time) and of
// each of its stages (medians). The default options first, then one
// option changed at a time: the largest boxes alone, depth per texel,
// merged occluders, other budgets and pyramids. Each culler's first 10
// updates are not counted: its choice walks the largest boxes once the
// matrices have stayed put for a few updates. The ID-buffer test (npm run
// test:idbuffer) gives the same figures in Chromium, with frame times.
//   npm run bench          SATC_BENCH_FRAMES=31 (cameras)   SATC_BENCH_GOALS=1
//   SATC_BENCH_COHERENT=1: each camera after the frame 1/60 s before it
//   (not counted), as in a render loop; by default the cameras are 2.9 s
//   of the path apart
import * as THREE from 'three';
import { load } from '../src/index.js';
import { InstanceCuller } from '../src/three.js';
import { makeCity, buildingGeometry, placeCamera, makeCamera } from '../demo/city.js';

const N = 100000, FRAMES = Number(process.env.SATC_BENCH_FRAMES ?? 31);
const satc = await load({ reserve: 64 << 20 });
const city = makeCity(N), geometry = buildingGeometry(), material = new THREE.MeshBasicMaterial();
const culler = (opts) => {
  const m = new THREE.InstancedMesh(geometry, material, N);
  m.instanceMatrix.array.set(city.matrices);
  return new InstanceCuller(satc, m, { groups: 128, ...opts });
};
const configs = [
  ['defaults', {}],
  ['largest first', { visibleFirst: false }],
  ['depth per texel', { depthPerTexel: true }],
  ['merged', { merge: true }],
  ['256 occluders', { maxOccluders: 256 }],
  ['640 occluders', { maxOccluders: 640 }],
  ['1,024 occluders', { maxOccluders: 1024 }],
  ['320 wide, 1,024 occluders, largest first', { size: 320, maxOccluders: 1024, visibleFirst: false }],
  ['every candidate', { maxOccluders: Infinity }],
  ['640 wide', { size: 640 }],
  ['640 wide, every candidate', { size: 640, maxOccluders: Infinity }],
];
const WARM = 10, COHERENT = !['', '0', undefined].includes(process.env.SATC_BENCH_COHERENT);
// process CPU time: on a shared machine wall time also counts other programs
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const frustum = culler({});
const camera = makeCamera(16 / 9);
const med = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
const rows = configs.map(([name, o]) => ({
  name, c: culler({ occlusion: { occluders: true, ...o } }), kept: 0, drawn: 0, occluders: 0,
  t: { update: [], cpu: [], frustum: [], select: [], occluders: [], test: [], frustumOnly: [], frustumCpu: [] },
}));
// not counted: the first updates, at the first camera
placeCamera(camera, 3);
for (const r of rows) for (let k = 0; k < WARM; k++) r.c.update(camera);
// camera by camera, each culler in turn: a busy machine slows all alike
for (let f = 0; f < FRAMES + 2; f++) {
  for (const r of rows) {
    const { c, t } = r;
    if (COHERENT) c.update(placeCamera(camera, 3 + f * 2.9 - 1 / 60));
    placeCamera(camera, 3 + f * 2.9);
    let a = performance.now(), b = cpu();
    const k = frustum.update(camera);
    const tf = performance.now() - a, cf = cpu() - b;
    a = performance.now();
    b = cpu();
    const d = c.update(camera);
    const tu = performance.now() - a, cu = cpu() - b;
    const st = c.occlusion;
    if (st.frustum !== k) throw new Error(`frustum counts differ: ${st.frustum} ${k}`);
    if (f < 2) continue; // the path's first cameras
    r.kept += k;
    r.drawn += d;
    r.occluders += st.occluders;
    t.update.push(tu);
    t.cpu.push(cu);
    t.frustumOnly.push(tf);
    t.frustumCpu.push(cf);
    for (const s of ['frustum', 'select', 'occluders', 'test']) t[s].push(st.ms[s]);
  }
}
for (const r of rows) {
  r.ms = Object.fromEntries(Object.entries(r.t).map(([k, v]) => [k, med(v)]));
  r.size = r.c.pyramid ? `${r.c.pyramid.width} x ${r.c.pyramid.height}` : '-';
  r.ratio = r.drawn / r.kept;
  r.kept /= FRAMES;
  r.drawn /= FRAMES;
  r.occluders /= FRAMES;
  r.c.dispose();
}
console.log(`# node ${process.version}, satc ${satc.version} ${satc.isa}; occlusion on the demo city, ${N} buildings, ${FRAMES} cameras${COHERENT ? ', each after the frame before it' : ''} (medians)`);
const f0 = rows[0].ms;
console.log(`# frustum culling alone: update ${f0.frustumOnly.toFixed(2)} ms (CPU ${f0.frustumCpu.toFixed(2)} ms)`);
for (const r of rows) {
  console.log(`# ${r.name} (pyramid ${r.size}, ${r.occluders.toFixed(0)} occluders): drawn ${r.drawn.toFixed(0)} of ${r.kept.toFixed(0)} the frustum keeps, ` +
    `${r.ratio.toFixed(2)}x; update ${r.ms.update.toFixed(2)} ms (CPU ${r.ms.cpu.toFixed(2)} ms; frustum ${r.ms.frustum.toFixed(2)}, choice ${r.ms.select.toFixed(2)}, ` +
    `occluders ${r.ms.occluders.toFixed(2)}, test ${r.ms.test.toFixed(2)})`);
}
// The project's goal lines: with --goals or SATC_BENCH_GOALS=1 only (bench/README.md).
const GOALS = process.argv.includes('--goals') || !['', '0', undefined].includes(process.env.SATC_BENCH_GOALS);
if (GOALS) {
  const d = rows[0];
  console.log(`${d.ratio <= 0.6 ? 'PASS' : 'MISS'} [occlusion] node, demo city with occlusion (defaults): drawn ${d.ratio.toFixed(2)}x those of frustum culling alone (goal <= 0.6x)`);
  console.log(`${d.ms.cpu <= 4 ? 'PASS' : 'MISS'} [occlusion] node, demo city with occlusion (defaults): whole culling ${d.ms.cpu.toFixed(2)} ms CPU a frame, median past the first ${WARM} updates (goal <= 4 ms)`);
}
