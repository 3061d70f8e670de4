import { load } from '../src/index.js';
import * as THREE from 'three';
import { makeCity, placeCamera, makeCamera, buildingGeometry } from '../demo/city.js';
import { InstanceCuller } from '../src/three.js';
const satc = await load();
const N = 100000, city = makeCity(N);
const mesh = new THREE.InstancedMesh(buildingGeometry(), new THREE.MeshBasicMaterial(), N);
mesh.instanceMatrix.array.set(city.matrices);
const c = new InstanceCuller(satc, mesh, { groups: 128, occlusion: { occluders: true, size: Number(process.argv[2] ?? 320), minTexels: Number(process.argv[3] ?? 4) } });
for (const t of [0, 12.5, 25, 40, 60, 80]) {
  const cam = placeCamera(makeCamera(16 / 9), t);
  const n = c.update(cam);
  const s = c.occlusion;
  console.log(`t=${t}: ${s.frustum} -> ${n} drawn; occluders ${s.occluders}; ms frustum ${s.ms.frustum.toFixed(2)} occluders ${s.ms.occluders.toFixed(2)} test ${s.ms.test.toFixed(2)}`);
}
