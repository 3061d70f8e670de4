// satc/three: culling for three.js (a peer dependency). Each helper
// documents, in three.d.ts, what it changes on three's objects.

import { InstancedBufferAttribute } from 'three';
import { frustumFromCamera, checkCamera } from './three/views.js';

export { frustumFromCamera } from './three/views.js';
export { InstanceCuller } from './three/instances.js';
export { BatchedCuller } from './three/batched.js';
export { SceneCuller } from './three/scene.js';

/** Culls `batch` against several cameras in one pass (satc cullViews): the main camera and shadow cascades. */
export function cullCameras(satc, cameras, batch, opts = {}) {
  opts ??= {};
  if (!Array.isArray(cameras)) satc._heap.fail(-1, 'cullCameras: cameras is not an array');
  for (const c of cameras) checkCamera(satc, c, 'cullCameras');
  const frusta = cameras.map((c) => frustumFromCamera(satc, c, undefined, opts.model));
  return satc.cullViews(frusta, batch, opts);
}

/**
 * A three.js attribute over a batch field in module memory (no copy): e.g.
 * an InstancedMesh's instanceMatrix over an instances batch's matrices.
 * After memory growth its `array` is set to the field's new view and it is
 * marked for upload. Returns { attribute, release } (release stops that).
 */
export function moduleAttribute(satc, batch, name, itemSize, Attribute = InstancedBufferAttribute) {
  const attribute = new Attribute(batch.array(name), itemSize);
  const release = satc.onMemoryGrow(() => {
    if (batch.disposed) return release();
    attribute.array = batch.array(name);
    attribute.needsUpdate = true;
  });
  return { attribute, release };
}
