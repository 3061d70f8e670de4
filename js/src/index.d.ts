/**
 * satc: separating-axis culling of bounding volumes against view frusta,
 * in WebAssembly (SIMD128 where the engine has it, else scalar). Every
 * answer equals the native C library's, bit for bit.
 *
 * Units are world units; matrices are 16 numbers, column-major (three.js
 * `Matrix4.elements`) unless `rowMajor`. A volume with a NaN or infinite
 * field is never culled. Every failure throws a {@link SatcError} naming
 * the satc status; on error nothing is written. Numbers come as plain
 * arrays of numbers or typed arrays (not BigInt ones, not detached);
 * anything else is SATC_ERR_LAYOUT (a detached array SATC_ERR_NULL).
 * Options may be omitted or null; a batch or output works only with the
 * load() that made it (else SATC_ERR_NULL). Sizes past wasm32's 4 GiB are
 * SATC_ERR_NOMEM.
 */

/** Numbers in any array-like: number[], Float32Array, Float64Array. */
export type Numbers = ArrayLike<number>;
/** Three numbers (x, y, z). */
export type Vec3 = ArrayLike<number>;

/** Culling mode: 'conservative' (plane test, may keep a few outside volumes near edges) or 'exact' (full separating-axis test). */
export type Mode = 'conservative' | 'exact';
/** Which outputs a cull writes. */
export type OutputKind = 'indices' | 'bitmask' | 'classes';
/** Volume forms (satc_form). */
export type Form = 'aabb' | 'minmax' | 'spheres' | 'obb' | 'halfAxes' | 'instances';
/** Instance matrix layouts: 16 floats column-major (three.js), 12 floats in rows of 4, or 12 floats in columns of 3. */
export type MatrixLayout = 'column-major-4x4' | 'rows-3x4' | 'column-major-4x3';

/** Class bytes of output 'classes'. */
export const OUTSIDE: 0;
export const INTERSECTING: 1;
export const INSIDE: 2;
/** Class byte of a volume the frustum keeps and the depth pyramid hides (cull with { occlusion }). */
export const OCCLUDED: 3;

/** satc status codes by name without the SATC_ prefix: Status.ERR_MATRIX === -7. */
export const Status: Readonly<Record<string, number>>;
/** satc status names by code: STATUS_NAMES[-7] === 'SATC_ERR_MATRIX'. */
export const STATUS_NAMES: Readonly<Record<number, string>>;

/** Thrown on every failure; message "satc: <call>: SATC_ERR_X (<satc_status_string>)". */
export class SatcError extends Error {
  /** The satc_status code (negative). */
  readonly status: number;
  /** Its name, e.g. "SATC_ERR_MATRIX". */
  readonly statusName: string;
}

/** Options of {@link load}. */
export interface LoadOptions {
  /** Force the SIMD128 (true) or scalar (false) module; default: detect with WebAssembly.validate. */
  simd?: boolean;
  /** The module instead of the packaged file: bytes, a compiled Module, a fetch Response or a URL. */
  wasm?: BufferSource | WebAssembly.Module | Response | URL | string;
  /** Bytes of heap to reserve at load, so that batches up to that size never grow the memory (views are then detached only by a dispose). SATC_ERR_NOMEM when it cannot be had. */
  reserve?: number;
}

/** Loads and instantiates satc (node: reads the file; browsers and bundlers: fetch of new URL(…, import.meta.url)). */
export function load(options?: LoadOptions): Promise<Satc>;
export default load;

/** True when this engine validates WebAssembly SIMD128. */
export function simdSupported(): boolean;

/** Options of {@link Satc.frustumFromMatrix}. */
export interface MatrixOptions {
  /** Clip depth range: 'webgl' [-1, 1] (default) or 'webgpu' [0, 1]; '[-1,1]' and '[0,1]' are accepted too. */
  depth?: 'webgl' | 'webgpu' | '[-1,1]' | '[0,1]';
  /** Reversed Z: near maps to the far end of the range (it also sets which way an orthographic frustum faces, which occlusion needs). */
  reversed?: boolean;
  /** The projection has no far plane. */
  infiniteFar?: boolean;
  /** The 16 numbers are row-major (element (r, c) at m[4 r + c]). */
  rowMajor?: boolean;
  /**
   * Take the numbers as exact doubles (a three.js camera's matrices): the
   * clip volume's corners are solved in double and held by a camera frustum
   * rounded outward, so no point of the double matrix's volume is missed,
   * its far plane included (the float path rounds the matrix to float32
   * first, which moves a far plane by up to about 2^-24 far^2 / near).
   * Which end of the depth range is near does not matter here; infiniteFar
   * is not accepted (SATC_ERR_FLAGS). The frustum is a little looser
   * (about 2^-20 of the distance) and its bytes differ from the float path's.
   * Default: the double path when a number is not a float32 (and not
   * infiniteFar; a matrix the double path cannot take goes the float way),
   * else the float path; false always takes the float path.
   */
  double?: boolean;
}

/** A symmetric perspective camera. */
export interface PerspectiveParams {
  eye: Vec3;
  /** Unit view direction. */
  dir: Vec3;
  /** Unit up vector, orthogonal to dir. */
  up: Vec3;
  /** Vertical field of view in radians, (0, pi). */
  fovy: number;
  /** Width / height, > 0. */
  aspect: number;
  /** 0 < near < far. */
  near: number;
  /** May be Infinity (the default). */
  far?: number;
}

/** A camera aimed at `target` (or along `dir`; give one), the way three's Object3D.lookAt aims one. */
export interface LookAtParams {
  eye: Vec3;
  /** The point looked at (not the eye). */
  target?: Vec3;
  /** Or a view direction, any nonzero length. */
  dir?: Vec3;
  /** Any vector not parallel to the view direction; default [0, 1, 0]. SATC_ERR_UP when zero or parallel. */
  up?: Vec3;
  /** Volumes are stored relative to this origin (large worlds): eye and target are kept in double. */
  batchOrigin?: Vec3;
}

export interface LookAtPerspectiveParams extends LookAtParams {
  /** Vertical field of view in radians, (0, pi). */
  fovy: number;
  /** Width / height, > 0. */
  aspect: number;
  /** 0 < near < far. */
  near: number;
  /** May be Infinity (the default). */
  far?: number;
}

export interface LookAtOrthoParams extends LookAtParams {
  /** The view box along the camera's x axis (pointing right): left < right. */
  left: number;
  right: number;
  /** Along the camera's up: bottom < top. */
  bottom: number;
  top: number;
  /** Along the view direction, near < far, both finite (near may be <= 0). */
  near: number;
  far: number;
}

/** Eberly's camera: frame left, up, dir right-handed orthonormal (left x up = dir). */
export interface CameraParams {
  origin: Vec3;
  left: Vec3;
  up: Vec3;
  dir: Vec3;
  /** Bounds along left (l0 < l1) and up (u0 < u1): on the near plane (perspective) or of the box (orthographic). */
  l0: number;
  l1: number;
  u0: number;
  u1: number;
  near: number;
  far: number;
  orthographic?: boolean;
  /** Volumes are stored relative to this origin (large worlds): satc_frustum_from_camera_d, origin kept in double. */
  batchOrigin?: Vec3;
}

/** A query box: center, half extents, optional orthonormal axes (9 numbers, rows A0 A1 A2; default world axes). */
export interface BoxParams {
  center: Vec3;
  half: Vec3;
  axes?: Numbers;
}

/** One oriented box: center, unit axes (9 numbers, rows A0 A1 A2), half extents. */
export interface Obb {
  center: number[];
  axes: number[];
  extent: number[];
}

/** A frustum precomputed for culling: a copy of satc_frustum's bytes, no disposal needed. */
export class Frustum {
  /** The satc_frustum struct (1356 bytes on wasm32). */
  readonly bytes: Uint8Array;
  readonly kind: 'perspective' | 'orthographic' | 'planes' | undefined;
  readonly infinite: boolean;
  /** Apex (perspective) or frame origin. */
  readonly origin: [number, number, number];
  /** Rows left, up, dir. */
  readonly frame: number[][];
  readonly near: number;
  readonly far: number;
  /** Planes of a 'planes' volume, 0 otherwise. */
  readonly planeCount: number;
  clone(): Frustum;
}

/** Options of {@link Satc.batch} for 'instances'. */
export interface BatchOptions {
  /** Matrix layout of 'instances' (default 'column-major-4x4', three.js instanceMatrix order). */
  layout?: MatrixLayout;
  /** Local boxes of 'instances': one shared box (default), one per instance, or a table of `meshes` boxes indexed by meshIds. */
  local?: 'shared' | 'per-instance' | { meshes: number };
}

/** Fields a batch may hold, all in module memory. */
export interface BatchFields {
  /** 'aabb', 'spheres', 'obb', 'halfAxes': centers, 3 floats per volume. */
  center?: Float32Array;
  /** 'aabb': half extents, 3 per volume. */
  half?: Float32Array;
  /** 'minmax': corners, 3 per volume. */
  min?: Float32Array;
  max?: Float32Array;
  /** 'spheres': radii, 1 per volume. */
  radius?: Float32Array;
  /** 'obb': unit axes A0 A1 A2 (9 per volume); 'halfAxes': half-axis vectors H0 H1 H2 (9 per volume). */
  axes?: Float32Array;
  /** 'obb': half extents along the axes, 3 per volume. */
  extent?: Float32Array;
  /** 'instances': affine matrices, 16 (or 12) per instance. */
  matrices?: Float32Array;
  /** 'instances': local box center and half size (3 floats: shared; 3 per instance; 3 per mesh). */
  localCenter?: Float32Array;
  localHalf?: Float32Array;
  /** 'instances' with { meshes }: one local-box id per instance (an id >= meshes is never culled). */
  meshIds?: Uint32Array;
}

/** The fields each form always has. */
export interface FieldsOf {
  aabb: 'center' | 'half';
  minmax: 'min' | 'max';
  spheres: 'center' | 'radius';
  obb: 'center' | 'axes' | 'extent';
  halfAxes: 'center' | 'axes';
  instances: 'matrices' | 'localCenter' | 'localHalf';
}

/** A batch of form F, its fields typed as present. */
export type BatchOf<F extends Form> = Batch & Required<Pick<BatchFields, FieldsOf[F]>>;

/** Arrays to copy into a batch (plain arrays or typed arrays). */
export type BatchArrays = { [K in keyof BatchFields]?: ArrayLike<number> };

/** Caller-owned arrays culled with one copy: { form, ...fields, layout?, local? }. */
export type ArraysBatch = BatchArrays & BatchOptions & { form: Form };

/**
 * Volumes of one form in module memory. Its fields are typed arrays over
 * the module's memory, re-derived whenever the memory grows: read them
 * from the batch each time (a view kept across an allocation or a
 * dispose may be detached), or load with `reserve`.
 */
export class Batch implements BatchFields {
  readonly form: Form;
  /** Volumes the fields hold. */
  readonly capacity: number;
  /** Volumes a cull takes by default, 0..capacity. */
  count: number;
  readonly disposed: boolean;
  /** Names of this batch's fields. */
  readonly fields: string[];
  /** Number of attached groups (0: none). */
  readonly groupCount: number;
  readonly center?: Float32Array;
  readonly half?: Float32Array;
  readonly min?: Float32Array;
  readonly max?: Float32Array;
  readonly radius?: Float32Array;
  readonly axes?: Float32Array;
  readonly extent?: Float32Array;
  readonly matrices?: Float32Array;
  readonly localCenter?: Float32Array;
  readonly localHalf?: Float32Array;
  readonly meshIds?: Uint32Array;
  /** A field by name (throws SATC_ERR_FLAGS for a field the form lacks). */
  array(name: keyof BatchFields): Float32Array | Uint32Array;
  /** Copies arrays into fields from volume `at` (an integer 0..capacity, else SATC_ERR_RANGE); every length is checked first (SATC_ERR_LAYOUT), nothing written on error. */
  set(arrays: BatchArrays, at?: number, exact?: boolean): void;
  /** Attaches group bounds: `size` consecutive volumes per group, or offsets (ngroups + 1 nondecreasing indices). Answers are unchanged, culls faster on coherent data. */
  setGroups(spec: number | { offsets: ArrayLike<number> }): void;
  /** Recomputes the group bounds after volumes moved. */
  updateGroups(): void;
  clearGroups(): void;
  /**
   * Frees its module memory; later use throws SATC_ERR_NULL. When one of
   * its typed arrays was handed out, every typed array over module memory
   * is detached (as by memory growth: the package's own are re-derived,
   * onMemoryGrow listeners told), so a kept one cannot write into the next
   * batch placed there.
   */
  dispose(): void;
}

/** Options shared by cull and the queries. */
export interface CullOptions {
  /** Default 'conservative'. */
  mode?: Mode;
  /** First volume (default 0). */
  first?: number;
  /** Volumes from first (default batch.count - first). first + count must not exceed the capacity (SATC_ERR_RANGE). */
  count?: number;
  /** Outputs to write (default 'indices'). */
  output?: OutputKind | OutputKind[];
  /** Write into these module-owned buffers instead of returning copies (no copy out); returned. A failed call leaves them as they were. */
  into?: Output;
  /**
   * cull only: a depth pyramid begun with this same frustum and built.
   * Volumes the frustum keeps and the pyramid hides are not visible; their
   * class is OCCLUDED and `occluded` counts them. SATC_ERR_PYRAMID when
   * the pyramid is not begun, not built or made for another view.
   */
  occlusion?: DepthPyramid;
}

/** What a cull returns without `into`: copies. */
export interface CullResult {
  /** Volumes visible (hits). */
  visible: number;
  /** Increasing absolute indices of the visible volumes. */
  indices?: Uint32Array;
  /** Bit j % 8 of byte j / 8 for volume first + j. */
  bitmask?: Uint8Array;
  /** One byte per volume: OUTSIDE, INTERSECTING, INSIDE (or OCCLUDED with occlusion). */
  classes?: Uint8Array;
  /** With occlusion: volumes the frustum keeps and the pyramid hides. */
  occluded?: number;
}

/** Options of the occluder rasterizer. */
export interface RasterOptions {
  /** Occluders covering fewer level-0 texels on screen are skipped (default 0: draw all). */
  minTexels?: number;
  /** Only level-0 rows [row0, row1) are written (row1 0: the last), so workers can share a frame. */
  rows?: [number, number];
}

/** Triangles in module memory for the rasterizer (Satc.occluderMesh). */
export class OccluderMesh {
  readonly vertexCount: number;
  readonly triangleCount: number;
  readonly disposed: boolean;
  dispose(): void;
}

/** A depth image's description for DepthPyramid.fill. */
export interface DepthImageOptions {
  width: number;
  height: number;
  /** 'window' (float depth in [0, 1] as a depth buffer holds it; default for Float32Array), 'ndc', 'linear' (view depth), 'unorm16' (default for Uint16Array), 'unorm24', 'unorm24high' (GL 24_8), 'unorm32'. */
  format?: 'window' | 'ndc' | 'linear' | 'unorm16' | 'unorm24' | 'unorm24high' | 'unorm32';
  /** The projection's depth range: 'webgl' ([-1, 1], default) or 'webgpu' ([0, 1]). */
  depth?: 'webgl' | 'webgpu' | '[-1,1]' | '[0,1]';
  reversed?: boolean;
  infiniteFar?: boolean;
  /** The projection's near and far distances (far unused with infiniteFar or 'linear'). */
  near?: number;
  far?: number;
  /** Row 0 is the top row (WebGPU readbacks); WebGL's row 0 is the bottom. */
  topDown?: boolean;
  /**
   * The projection matrix that rendered the image (16 numbers, column-major
   * as three.js camera.projectionMatrix.elements unless rowMajor; no view
   * part). Its own depth entries then bound the conversion, tighter near the
   * far plane; near, far and infiniteFar are not read.
   */
  projection?: ArrayLike<number>;
  /** projection is row-major. */
  rowMajor?: boolean;
}

/**
 * A depth pyramid in module memory: per texel the farthest depth at which
 * occluders are known to hide everything behind. Per frame: begin(frustum),
 * draw occluders (rasterize, rasterizeMesh) then build(), or fill() from a
 * depth image; then cull(frustum, batch, { occlusion: pyramid }).
 */
export class DepthPyramid {
  readonly width: number;
  readonly height: number;
  readonly levels: number;
  /** Whether occluders drawn since begin merge within texels (depthPyramid(w, h, { merge: true })). */
  readonly merge: boolean;
  /** Whether culls test depth per texel (depthPyramid(w, h, { depthPerTexel: true })). */
  readonly depthPerTexel: boolean;
  /** Texel depth bounds one cull may compute (0 .. 2^32 - 1), or null without depthPerTexel. */
  readonly testBudget: number | null;
  /** The frustum given to begin (a copy), or null. */
  readonly view: Frustum | null;
  readonly disposed: boolean;
  /** Makes it the pyramid of `frustum` (perspective or orthographic) and clears it: nothing occludes. */
  begin(frustum: Frustum): this;
  /** Draws volumes of a batch as occluders: each must lie inside opaque geometry. */
  rasterize(batch: Batch | ArraysBatch, opts?: RasterOptions & { first?: number; count?: number }): this;
  /** Draws triangles on opaque surfaces; matrix: model to world (16 numbers, column-major). */
  rasterizeMesh(mesh: OccluderMesh, opts?: RasterOptions & { matrix?: ArrayLike<number>; cullBack?: boolean; frontCW?: boolean }): this;
  /** Fills it from a depth image of its view and builds the levels. */
  fill(image: Float32Array | Uint16Array | Uint32Array, opts: DepthImageOptions): this;
  /** Reduces level 0 into the other levels (after drawing occluders). */
  build(): this;
  /** A copy of level k: rows bottom first, +Infinity where nothing occludes. */
  level(k?: number): { width: number; height: number; depth: Float32Array };
  dispose(): void;
}

/** queryRay's result: entry parameters and the nearest hit. */
export interface RayResult extends CullResult {
  /** Entry parameter of each hit, in index order (NaN for a non-finite volume). */
  t: Float32Array;
  /** Index of the hit with the smallest t, -1 when none. */
  nearest: number;
}

/** Module-owned output buffers (Satc.output): views are taken afresh on each read. */
export class Output {
  readonly visible: number;
  readonly count: number;
  readonly indices: Uint32Array | null;
  readonly bitmask: Uint8Array | null;
  readonly classes: Uint8Array | null;
  readonly t: Float32Array | null;
  /** Volumes the last cull with occlusion found hidden (0 after other calls). */
  readonly occluded: number;
  /** Frees the buffers (the output may be used again); detaches module views as Batch.dispose does when a result view was read. */
  dispose(): void;
}

/** Options of {@link Satc.cullViews}. */
export interface ViewsOptions extends Omit<CullOptions, 'output' | 'into'> {
  /** Per-volume view masks (default true). */
  masks?: boolean;
  /** Per-view index lists. */
  indices?: boolean;
  /** Per-view class bytes. */
  classes?: boolean;
}

/** What cullViews returns (copies). */
export interface ViewsResult {
  /** Visible volumes per view. */
  visible: number[];
  /** One word per volume, bit v for view v: Uint8Array up to 8 views, Uint16Array 16, Uint32Array 32, BigUint64Array 64. */
  masks?: Uint8Array | Uint16Array | Uint32Array | BigUint64Array;
  indices?: Uint32Array[];
  classes?: Uint8Array[];
}

/** One instantiated satc module. */
export class Satc {
  /** True when the SIMD128 module was loaded. */
  readonly simd: boolean;
  /** The path culling runs on: "simd128" or "scalar". */
  readonly isa: string;
  /** The library's version from the module. */
  readonly version: string;
  /** The module's memory (its buffer is replaced on growth). */
  readonly memory: WebAssembly.Memory;
  readonly memoryBytes: number;
  /** Incremented by each memory growth. */
  readonly memoryEpoch: number;
  /** Calls fn after each growth, once the package's own views are re-derived; returns an unsubscribe function. */
  onMemoryGrow(fn: (epoch: number) => void): () => void;
  /** Reserves heap so that `bytes` more can be allocated without growth. */
  reserve(bytes: number): void;
  /** satc_status_string. */
  statusString(status: number): string;

  /** Frustum of a view-projection matrix (three.js: projectionMatrix x matrixWorldInverse). Into `target` when given (unchanged on error). */
  frustumFromMatrix(m: Numbers, opts?: MatrixOptions, target?: Frustum): Frustum;
  /**
   * A perspective camera aimed at a point or along a direction with any up
   * not parallel to it (satc builds the frame: satc_frustum_look_at,
   * _look_to, _look_at_d). SatcError SATC_ERR_UP for a zero or parallel up,
   * SATC_ERR_DIRECTION for a target at the eye.
   */
  frustumLookAt(c: LookAtPerspectiveParams, target?: Frustum): Frustum;
  /** The orthographic twin of frustumLookAt (satc_frustum_look_at_ortho, _ortho_d). */
  frustumLookAtOrtho(c: LookAtOrthoParams, target?: Frustum): Frustum;
  frustumPerspective(c: PerspectiveParams, target?: Frustum): Frustum;
  frustumFromCamera(c: CameraParams, target?: Frustum): Frustum;
  /** Convex volume of 1..16 planes a x + b y + c z + d >= 0; exact mode needs it bounded (else SATC_ERR_FAR). */
  frustumFromPlanes(planes: Numbers | number[][], margin?: number, target?: Frustum): Frustum;
  /** A query box as a frustum (cull with it: box-vs-batch queries). */
  frustumFromBox(box: BoxParams, target?: Frustum): Frustum;
  /** A segment as a query frustum. */
  frustumFromSegment(p0: Vec3, p1: Vec3, target?: Frustum): Frustum;

  /** satc_obb_from_aabb: { center, axes (rows A0 A1 A2), extent }; SATC_ERR_BOX for min > max or non-finite input. */
  obbFromAABB(min: Vec3, max: Vec3): Obb;
  /** satc_obb_from_quat: center, quaternion (x, y, z, w; normalised here), half extents >= 0. */
  obbFromQuat(center: Vec3, q: Numbers, half: Vec3): Obb;
  /** satc_obb_from_matrix: a world matrix (no shear) applied to the local box [lmin, lmax]; extents rounded outward. */
  obbFromMatrix(m: Numbers, lmin: Vec3, lmax: Vec3, opts?: { rowMajor?: boolean }): Obb;
  /** Restricts the paths (bit mask: 1 scalar, 32 simd128; satc_isa_set_mask); returns the active path's name. */
  setIsaMask(mask: number): string;

  /** A batch in module memory; `arrays` (optional) are copied in and must fill their fields. */
  batch<F extends Form>(form: F, capacity: number, opts?: BatchOptions, arrays?: BatchArrays): BatchOf<F>;
  /** Output buffers in module memory for cull(…, { into }). */
  output(capacity?: number): Output;
  /**
   * A depth pyramid of width x height texels (64 x 32 .. 2048 x 1024) in module memory.
   * merge: occluders merge within texels (4 x 4 cells each): more hidden, more time per occluder.
   * depthPerTexel: culls also bound a volume's depth within texels (1-2 % fewer kept, about 1.2x
   * a cull's time); testBudget: the most texel bounds per cull (integer, default 4096), then the
   * plain test.
   */
  depthPyramid(width: number, height: number, opts?: { merge?: boolean; depthPerTexel?: boolean; testBudget?: number }): DepthPyramid;
  /** Occluder triangles copied into module memory: 3 floats a vertex, optional 16- or 32-bit indices (3 a triangle). */
  occluderMesh(positions: Float32Array | number[], indices?: Uint16Array | Uint32Array | null): OccluderMesh;

  /** Culls a batch (or caller arrays, one copy) against a frustum. */
  cull(frustum: Frustum, batch: Batch | ArraysBatch, opts?: CullOptions & { into?: undefined }): CullResult;
  cull(frustum: Frustum, batch: Batch | ArraysBatch, opts: CullOptions & { into: Output }): Output;
  /** 1..64 views in one pass; each view's answer equals its own cull. */
  cullViews(frusta: Frustum[], batch: Batch | ArraysBatch, opts?: ViewsOptions): ViewsResult;
  /** Volumes touching a ball; exact mode decides in double. */
  querySphere(center: Vec3, radius: number, batch: Batch | ArraysBatch, opts?: CullOptions): CullResult;
  /** Volumes a ray (0 <= t <= tmax, tmax may be Infinity) touches, with entry parameters and the nearest. dir must not be zero (SATC_ERR_BOUNDS; a point is querySphere(p, 0)). */
  queryRay(origin: Vec3, dir: Vec3, tmax: number, batch: Batch | ArraysBatch, opts?: CullOptions): RayResult;
  /** World AABBs of volumes (float3 arrays). */
  toAABBs(batch: Batch | ArraysBatch, opts?: { first?: number; count?: number }): { center: Float32Array; half: Float32Array };
}
