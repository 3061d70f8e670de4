// satc_frustum_from_matrix in wasm, the bench's camera: the fastest of
// 60 runs of 2000 calls after 300000 warm-up calls (V8 tiers wasm up
// lazily), and a hash of the frustum's bytes (the same in every module).
//   node frustum_time.mjs MODULE.wasm...
import fs from 'fs';
import * as THREE from 'three';
const cam = new THREE.PerspectiveCamera(60, 16 / 9, 0.5, 3000);
cam.position.set(0, 15, 0); cam.lookAt(700, 15, -300); cam.updateMatrixWorld();
const vp = new THREE.Matrix4().multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse);
for (const f of process.argv.slice(2)) {
  const { instance } = await WebAssembly.instantiate(fs.readFileSync(f), {});
  const e = instance.exports; e._initialize();
  const fr = e.malloc(1352), mat = e.malloc(64);
  new Float32Array(e.memory.buffer).set(vp.elements, mat >> 2);
  const fn = () => e.satc_frustum_from_matrix(fr, mat, 0);
  for (let k = 0; k < 300000; k++) fn();
  let best = 1e99;
  for (let r = 0; r < 60; r++) { const t0 = process.hrtime.bigint(); for (let k = 0; k < 2000; k++) fn(); best = Math.min(best, Number(process.hrtime.bigint() - t0) / 2000); }
  const b = new Uint8Array(e.memory.buffer, fr, 1352); let h = 0x811c9dc5; for (const x of b) h = Math.imul(h ^ x, 0x01000193) >>> 0;
  console.log(f, (best / 1000).toFixed(2), 'us (min of 60 x 2000)', 'status', fn(), 'hash', h.toString(16));
}
