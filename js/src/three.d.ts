/**
 * satc/three: per-instance culling for three.js (peer dependency, 0.180+).
 * Every helper says what it changes on three's objects.
 */
import type { BatchedMesh, BufferAttribute, Camera, InstancedMesh, Matrix4, Object3D, Color, Mesh } from 'three';
import type { Batch, Frustum, Mode, Output, Satc, ViewsOptions, ViewsResult } from './index.js';

/**
 * satc frustum of a camera: projectionMatrix x matrixWorldInverse (x
 * `model`: the frustum in that object's frame; its scale must be uniform).
 * Depth range from camera.coordinateSystem, reversed Z from
 * camera.reversedDepth. Changes: calls camera.updateWorldMatrix(true, false).
 */
export function frustumFromCamera(satc: Satc, camera: Camera, target?: Frustum, model?: Matrix4): Frustum;

/** Culls a batch against several cameras in one pass (the main camera and shadow cascades). Changes nothing on the cameras but their world matrices. */
export function cullCameras(satc: Satc, cameras: Camera[], batch: Batch, opts?: ViewsOptions & { model?: Matrix4 }): ViewsResult;

/**
 * A three.js attribute (default InstancedBufferAttribute) over a batch
 * field in module memory, no copy: e.g. `mesh.instanceMatrix =
 * moduleAttribute(satc, batch, 'matrices', 16).attribute`. Changes: after
 * each memory growth it sets attribute.array to the field's new view and
 * needsUpdate = true, so three never holds a detached array. release()
 * stops following (also done when the batch is disposed).
 */
export function moduleAttribute(satc: Satc, batch: Batch, name: keyof import('./index.js').BatchFields, itemSize: number,
  Attribute?: new (array: Float32Array | Uint32Array, itemSize: number) => BufferAttribute): { attribute: BufferAttribute; release: () => void };

/** Options of the helpers. */
export interface CullerOptions {
  /** Default 'conservative'. */
  mode?: Mode;
}

/**
 * Per-instance culling of an InstancedMesh, which three.js lacks (it tests
 * one sphere around all instances).
 *
 * Source matrices: `matrices` (module memory), filled from
 * mesh.instanceMatrix when made; write new ones there (setMatrixAt), not
 * with mesh.setMatrixAt. The helper never writes them.
 *
 * What update() changes on the mesh: instanceMatrix.array[0 .. 16 k) gets
 * the k visible instances' matrices in source order (instanceColor too,
 * from a copy taken when made); their update range and needsUpdate are set;
 * mesh.count = k. The constructor sets mesh.frustumCulled = false and the
 * attributes' usage to DynamicDrawUsage (before their first upload). So
 * mesh.getMatrixAt(j) and a raycast's instanceId are in drawn order:
 * sourceIndex(j) maps them back. dispose() writes every source matrix back
 * and sets mesh.count to all instances.
 */
export class InstanceCuller {
  /**
   * opts.groups: attach group bounds of that many consecutive instances
   * (e.g. 128): whole groups are culled or accepted without reading their
   * instances, with the same answers; it pays when neighbours in the
   * array are neighbours in space. opts.localBox: the local box (default
   * the geometry's bounding box).
   */
  constructor(satc: Satc, mesh: InstancedMesh, opts?: CullerOptions & { groups?: number; localBox?: { center: ArrayLike<number>; half: ArrayLike<number> } });
  /** Group size (0: none). */
  readonly groups: number;
  /** After writing `matrices` directly: recompute the group bounds at the next update. */
  matricesChanged(): void;
  readonly satc: Satc;
  readonly mesh: InstancedMesh;
  mode: Mode;
  /** The instances batch (matrices + the geometry's bounding box). */
  readonly batch: Batch;
  /** Module-owned output of the last single-view cull. */
  readonly output: Output;
  /** Instances drawn by the last update. */
  readonly visible: number;
  /** Visible per view of the last update (camera first, then shadow cameras). */
  readonly viewVisible: number[];
  /** Source matrices, 16 floats per instance (module memory: read it from here after any allocation). */
  readonly matrices: Float32Array;
  setMatrixAt(index: number, matrix: Matrix4 | ArrayLike<number>): void;
  setColorAt(index: number, color: Color): void;
  /** Source index of drawn instance j. */
  sourceIndex(j: number): number;
  /** Culls (camera and opts.shadowCameras in one pass: drawn when any sees it) and compacts. Returns the number drawn. */
  update(camera: Camera, opts?: { shadowCameras?: Camera[] }): number;
  dispose(): void;
}

/**
 * satc culling for a BatchedMesh. Changes: perObjectFrustumCulled = false
 * (three's own per-instance sphere test is off); update() copies the
 * instance matrices in (one copy) and calls setVisibleAt(i, v) where an
 * instance's visibility differs from the cull: the helper owns instance
 * visibility. Call refresh() after adding or removing instances or
 * geometries. Reads BatchedMesh internals of three 0.180+ (_instanceInfo,
 * _geometryInfo, _matricesTexture).
 */
export class BatchedCuller {
  constructor(satc: Satc, mesh: BatchedMesh, opts?: CullerOptions);
  readonly mesh: BatchedMesh;
  mode: Mode;
  readonly batch: Batch;
  refresh(): void;
  /** Returns the number of visible instances. */
  update(camera: Camera): number;
  dispose(): void;
}

/**
 * Culls many Meshes with one call: their world matrices and geometry
 * bounding boxes form one instances batch. Changes: sets each object's
 * frustumCulled = false (made) and visible (each update): the pass owns
 * `visible`. Matrices are copied in each update unless `static`, then by
 * syncMatrices().
 */
export class SceneCuller {
  constructor(satc: Satc, objects: Array<Mesh | (Object3D & { geometry: Mesh['geometry'] })>, opts?: CullerOptions & { static?: boolean });
  readonly objects: Object3D[];
  mode: Mode;
  readonly batch: Batch;
  readonly output: Output;
  syncMatrices(): void;
  /** Returns the number of visible objects. */
  update(camera: Camera): number;
  dispose(): void;
}
