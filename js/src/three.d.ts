/**
 * satc/three: per-instance culling for three.js (peer dependency, 0.180+).
 * Every helper says what it changes on three's objects.
 */
import type { BatchedMesh, Box3, BufferAttribute, BufferGeometry, Camera, CubeCamera, InstancedMesh, Matrix4, Mesh, Object3D, Color, StereoCamera } from 'three';
import type { Batch, DepthPyramid, Frustum, Mode, Output, Satc, ViewsOptions, ViewsResult } from './index.js';

/**
 * The satc frustum of what three's renderer culls `camera` with
 * (projectionMatrix x matrixWorldInverse; x `model`: the frustum in that
 * object's frame, any scale: a plane volume of its six planes where the
 * model scales non-uniformly or shears). Built in double from the matrix's own planes
 * (far plane included), then held by a float frustum rounded outward: it
 * never misses a point three's Frustum holds. Clip depth [0, 1] for
 * WebGPU and for every reversed-depth projection (three builds those
 * [0, 1] in WebGL too), else [-1, 1]. Changes: calls
 * camera.updateWorldMatrix(true, false). Throws a SatcError:
 * SATC_ERR_NULL for anything but a camera, SATC_ERR_NEAR when the clip
 * volume reaches behind the camera (a projection made for other depth
 * settings than the camera's; the helpers then hide nothing for that view).
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

/**
 * A view for the helpers' update(): a camera, an ArrayCamera (its
 * sub-cameras), a CubeCamera (its six) or a StereoCamera (its two eyes).
 */
export type CullCamera = Camera | CubeCamera | StereoCamera;

/** Options of the helpers. */
export interface CullerOptions {
  /** Default 'conservative'. */
  mode?: Mode;
}

/**
 * Occlusion culling for a helper: each single-camera update draws the
 * frame's occluders into a depth pyramid of the camera's view, then culls
 * by frustum and pyramid in one pass. With several views (shadow cameras,
 * an ArrayCamera) the update is frustum only: what the camera cannot see
 * another view may. `true` means { occluders: true }.
 */
export interface OcclusionOptions {
  /** Pyramid width in texels (height from the camera's aspect), or [width, height]. Default 400. */
  size?: number | [number, number];
  /** Which of the helper's own volumes are solid: true (all), a predicate of the source index, or a flag per source. Default none. */
  occluders?: boolean | ((index: number) => boolean) | Uint8Array;
  /** A box inside each occluding instance's solid, in the geometry's frame (default its bounding box: right for box-like solid geometry only). */
  occluderBox?: { center: number[]; half: number[] };
  /** three.js Meshes whose triangles lie on opaque surfaces (walls, terrain, shells). */
  meshes?: Mesh[];
  /** Occluders covering fewer level-0 texels are skipped (default 4). */
  minTexels?: number;
  /**
   * Of the solid volumes the frustum keeps that cover at least minTexels
   * (estimated from each matrix: its box's mean projected area at its
   * nearest depth), at most this many are drawn: those with the largest
   * boxes. An integer >= 0 or Infinity (all); default 512.
   */
  maxOccluders?: number;
  /**
   * Candidates this helper found visible in its previous update rank
   * above the others (largest first within each rank): what was seen is
   * in front, so it hides the most per occluder drawn. Default true; it
   * changes only which occluders are drawn, never whether a visible
   * volume is kept.
   */
  visibleFirst?: boolean;
  /**
   * Occluders merge within texels: a texel that several cover together,
   * none of them whole, hides what lies behind them all. More is hidden,
   * each occluder costs more to draw. Default false.
   */
  merge?: boolean;
  /**
   * The occlusion test also bounds each volume's own least depth within
   * the texels its nearest depth alone cannot decide (DepthPyramid's
   * depthPerTexel): volumes seen obliquely are hidden more often, and
   * what the plain test hides stays hidden. Default false.
   */
  depthPerTexel?: boolean;
  /**
   * With depthPerTexel only: the most texel bounds one update's test
   * computes, then it goes on with the plain test. An integer in
   * 0 .. 2^32 - 1; default 4096.
   */
  testBudget?: number;
  /**
   * Materials with a vertex stage of the user's own (ShaderMaterial,
   * onBeforeCompile, a position node) place the geometry as three's own
   * materials do. Default false: such objects neither occlude nor are
   * hidden by occlusion, since their vertices may be moved anywhere.
   */
  trustShaders?: boolean;
}

/**
 * Occlusion for BatchedCuller and SceneCuller: as OcclusionOptions, with
 * a predicate over what these helpers hold and a box per geometry. Only
 * what three draws for the camera occludes: an instance the user hid, an
 * object hidden (on itself or an ancestor) or on a layer the camera does
 * not render, a see-through material (transparent, alphaTest, alphaHash,
 * wireframe, BackSide, no colorWrite), Lines, Points and objects with
 * frustumCulled = false never do. `true` means { occluders: true }.
 */
export interface ObjectOcclusionOptions<Key, Geometry> {
  /** Pyramid width in texels (height from the view's aspect), or [width, height]. Default 400. */
  size?: number | [number, number];
  /** Which volumes are solid: true (all), a predicate, or (BatchedCuller) a flag per instance. Default none. */
  occluders?: boolean | ((key: Key) => boolean) | (Key extends number ? Uint8Array : never);
  /**
   * A box inside the solid of each occluding volume, per geometry, in the
   * geometry's frame; null: that geometry never occludes. It is clipped to
   * the geometry's bounding box. Default: the bounding box (right for
   * geometry that fills its box: boxes, walls, box-shaped buildings).
   */
  occluderBox?: (geometry: Geometry) => Box3 | { center: ArrayLike<number>; half: ArrayLike<number> } | null;
  /** three.js Meshes whose triangles lie on opaque surfaces (drawn from both sides), each while three draws it. */
  meshes?: Mesh[];
  /** Occluders covering fewer level-0 texels are skipped (default 4). */
  minTexels?: number;
  /** Of the solid volumes in view covering about minTexels or more, the largest boxes drawn: at most this many (default 512; Infinity: all). */
  maxOccluders?: number;
  /** Candidates visible in the helper's previous update rank above the others (default true); only which occluders are drawn changes. */
  visibleFirst?: boolean;
  /**
   * Occluders merge within texels: a texel that several cover together,
   * none of them whole, hides what lies behind them all. More is hidden,
   * each occluder costs more to draw. Default false.
   */
  merge?: boolean;
  /**
   * The occlusion test also bounds each volume's own least depth within
   * the texels its nearest depth alone cannot decide (DepthPyramid's
   * depthPerTexel): volumes seen obliquely are hidden more often, and
   * what the plain test hides stays hidden. Default false.
   */
  depthPerTexel?: boolean;
  /**
   * With depthPerTexel only: the most texel bounds one update's test
   * computes, then it goes on with the plain test. An integer in
   * 0 .. 2^32 - 1; default 4096.
   */
  testBudget?: number;
  /**
   * Materials with a vertex stage of the user's own (ShaderMaterial,
   * onBeforeCompile, a position node) place the geometry as three's own
   * materials do. Default false: such objects neither occlude nor are
   * hidden by occlusion, since their vertices may be moved anywhere.
   */
  trustShaders?: boolean;
}

/** What an occlusion update did. */
export interface OcclusionStats {
  /** Kept by the frustum (after an update without a frustum pass of its own, counted when first read). */
  frustum: number;
  /** Drawn after occlusion. */
  drawn: number;
  /** Occluders drawn into the pyramid. */
  occluders: number;
  /**
   * Solid volumes kept by the frustum that cover at least minTexels
   * (maxOccluders of them are drawn). Once InstanceCuller's matrices have
   * stayed put for a few updates it walks its largest boxes and stops at
   * the budget: then the candidates it looked at, at least those drawn.
   */
  candidates: number;
  /** Milliseconds: the pyramid's begin and the frustum cull for the occluder list (none while InstanceCuller walks its largest boxes), occluder choice, occluders (rasterize + build), the cull with occlusion. */
  ms: { frustum: number; select: number; occluders: number; test: number };
}

/** Options of the helpers' update(). */
export interface UpdateOptions {
  /**
   * Shadow cameras (e.g. light.shadow.camera) culled in the same pass: an
   * object is drawn when any view sees it, so off-screen casters still cast.
   */
  shadowCameras?: CullCamera[];
}

/**
 * Per-instance culling of an InstancedMesh, which three.js lacks (it tests
 * one sphere around all instances).
 *
 * The mesh keeps working as three's own: `mesh.count = n`,
 * mesh.setMatrixAt / getMatrixAt / setColorAt / getColorAt, raycasts
 * (instanceId) and boundingBox / boundingSphere all speak of the source
 * instances [0, count), whose matrices live in `matrices` (module memory,
 * filled from instanceMatrix when made). What update() changes:
 * instanceMatrix.array[0 .. 16 k) gets the k drawn instances' matrices in
 * source order (instanceColor too), their update range and needsUpdate
 * are set, and reading mesh.count gives k (what three draws). The
 * constructor sets the attributes' usage to DynamicDrawUsage. frustumCulled
 * stays the user's: while it is false every source instance is drawn.
 * dispose() writes every matrix and color back, gives mesh.count the
 * user's value and removes the culler's methods from the mesh.
 */
export class InstanceCuller {
  /**
   * opts.groups: attach group bounds of that many consecutive instances
   * (e.g. 128): whole groups are culled or accepted without reading their
   * instances, with the same answers; it pays when neighbours in the
   * array are neighbours in space. opts.localBox: the local box (default
   * the geometry's bounding box).
   */
  constructor(satc: Satc, mesh: InstancedMesh, opts?: CullerOptions & { groups?: number; localBox?: { center: ArrayLike<number>; half: ArrayLike<number> }; occlusion?: OcclusionOptions | true });
  /** Occlusion figures of the last update, or null without occlusion. */
  readonly occlusion: OcclusionStats | null;
  /** The depth pyramid of the last occlusion update, or null. */
  readonly pyramid: DepthPyramid | null;
  /** Group size (0: none). */
  readonly groups: number;
  /** After writing `matrices` directly: bounds are recomputed at the next update. */
  matricesChanged(): void;
  readonly satc: Satc;
  readonly mesh: InstancedMesh;
  mode: Mode;
  /** The instances batch (matrices + the geometry's bounding box). */
  readonly batch: Batch;
  /** Module-owned output of the last single-view cull. */
  readonly output: Output;
  /** Instances the mesh can hold (instanceMatrix.count). */
  readonly capacity: number;
  /** Source instances (what the user set as mesh.count); settable. */
  count: number;
  /** Instances drawn by the last update. */
  readonly visible: number;
  /** Visible per view of the last update (the camera's views first, then the shadow cameras'). */
  readonly viewVisible: number[];
  /** Source matrices, 16 floats per instance (module memory: read it from here after any allocation). */
  readonly matrices: Float32Array;
  /** Sets source matrix i (mesh.setMatrixAt does the same). */
  setMatrixAt(index: number, matrix: Matrix4 | ArrayLike<number>): void;
  /** Sets source color i (mesh.setColorAt does the same). */
  setColorAt(index: number, color: Color): void;
  /** Source index of drawn instance j (j < visible): where instanceMatrix's j-th matrix came from. A raycast's instanceId is a source index already. */
  sourceIndex(j: number): number;
  /** The slot j of instanceMatrix where the last update drew source instance i (sourceIndex(j) === i), or -1 when not drawn; SATC_ERR_RANGE past the capacity. */
  drawnIndex(i: number): number;
  /** Culls (every view of `camera` and of opts.shadowCameras in one pass) and compacts. Returns the number drawn. */
  update(camera: CullCamera, opts?: UpdateOptions): number;
  dispose(): void;
}

/**
 * satc culling for a BatchedMesh in place of three's per-instance sphere
 * test. Changes: perObjectFrustumCulled = false while the culler lives;
 * update() copies the instance matrices in (one copy) and hides, with
 * setVisibleAt, the instances no view sees. The user keeps owning
 * visibility: mesh.setVisibleAt(i, false) hides an instance for good,
 * true lets the culler decide (getVisibleAt reads what is drawn); raycasts
 * see every instance the user left visible. While the mesh's frustumCulled
 * is false every such instance is drawn. Added instances and geometries
 * are noticed; call refresh() after changing a geometry's bounds.
 * dispose() restores the user's visibility and perObjectFrustumCulled.
 * Reads BatchedMesh internals of three 0.180+ (_instanceInfo,
 * _geometryInfo, _matricesTexture).
 */
export class BatchedCuller {
  /**
   * opts.occlusion: occluders from the mesh's own instances (the predicate
   * takes the instance id, occluderBox the geometry id) and from `meshes`.
   */
  constructor(satc: Satc, mesh: BatchedMesh, opts?: CullerOptions & { occlusion?: ObjectOcclusionOptions<number, number> | true });
  readonly mesh: BatchedMesh;
  mode: Mode;
  readonly batch: Batch;
  /** Occlusion figures of the last update, or null without occlusion. */
  readonly occlusion: OcclusionStats | null;
  /** The depth pyramid of the last occlusion update, or null. */
  readonly pyramid: DepthPyramid | null;
  refresh(): void;
  /** Returns the number of instances drawn. opts.occlusion = false: frustum only for this update. */
  update(camera: CullCamera, opts?: UpdateOptions & { occlusion?: boolean }): number;
  dispose(): void;
}

/**
 * Culls many Meshes, Lines and Points in one call: their world matrices and
 * geometry bounding boxes form one instances batch. It hides an object
 * (through `visible`) only when no view sees its box and nothing below it
 * in the scene graph would be drawn or give light: a child in view keeps
 * its parents. The user keeps owning `visible`: while the culler lives it
 * is an accessor whose setter records the user's value and whose getter
 * gives what three draws (the user's value and the cull). frustumCulled is
 * never changed; objects with frustumCulled = false are never hidden.
 * SkinnedMesh, InstancedMesh, BatchedMesh and Sprite in the list are left
 * to three's own test. Unless `static`, update() first brings the world
 * matrices up to date as the renderer does (updateMatrixWorld on the
 * objects' roots), so update(); render() culls this frame's positions.
 * dispose() turns `visible` back into a plain property with the user's value.
 */
export class SceneCuller {
  /**
   * opts.occlusion: occluders from the list's own Meshes (the predicate
   * takes the object, occluderBox its geometry) and from `meshes`. An
   * occluded object is hidden as one out of view: only with its subtree.
   */
  constructor(satc: Satc, objects: Iterable<Object3D>, opts?: CullerOptions & { static?: boolean; occlusion?: ObjectOcclusionOptions<Object3D, BufferGeometry> | true });
  readonly objects: Object3D[];
  mode: Mode;
  readonly batch: Batch;
  readonly output: Output;
  /** Occlusion figures of the last update, or null without occlusion. */
  readonly occlusion: OcclusionStats | null;
  /** The depth pyramid of the last occlusion update, or null. */
  readonly pyramid: DepthPyramid | null;
  /** Re-reads the objects (a new list when given) and their geometries' boxes. */
  refresh(objects?: Object3D[]): void;
  /** Copies every culled object's matrixWorld in (a static culler: after moving objects). */
  syncMatrices(): void;
  /** Returns the number of the objects left to be drawn (not hidden by the culler). opts.occlusion = false: frustum only for this update. */
  update(camera: CullCamera, opts?: UpdateOptions & { occlusion?: boolean }): number;
  dispose(): void;
}
