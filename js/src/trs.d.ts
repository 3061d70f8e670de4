// Types of satc/trs: transforms and Gaussian splats (SATC_FORM_TRS).
import type { Satc, Frustum } from './index.js';

/** Quaternion encodings: 'f32', 'u8' (the .splat record's (b - 128) / 128), 'i8' (b / 127). */
export declare const QUATERNION_TYPES: readonly string[];
/** Bytes per `.splat` record: position (3 floats), scale (3 floats), RGBA, rotation bytes (w, x, y, z). */
export declare const SPLAT_RECORD_BYTES: 32;

export interface TrsCullOptions {
  /** 'conservative' (default; a splat's ball) or 'exact' (its k sigma box, full separating-axis test). */
  mode?: 'conservative' | 'exact';
  first?: number;
  count?: number;
  /** Module-owned views, valid until the next call or memory growth, instead of copies. */
  view?: boolean;
}

export interface TrsSortOptions extends TrsCullOptions {
  /** 16 (default): a 16-bit key between the nearest and farthest visible depth, one counting pass; 32: the exact float depth. */
  sort?: 16 | 32;
  /** Each visible volume's view depth, in the order of `indices`. */
  depth?: boolean;
  /** Each visible volume's key16 and key32, in the order of `indices`. */
  keys?: boolean;
}

export interface TrsCullResult {
  visible: number;
  /** Increasing indices of the visible volumes. */
  indices: Uint32Array;
}

export interface TrsSortResult extends TrsCullResult {
  /** The visible indices back to front (decreasing key; equal keys in increasing index order). */
  sorted: Uint32Array;
  depth?: Float32Array;
  key16?: Uint16Array;
  key32?: Uint32Array;
}

export declare class TrsBatch {
  readonly capacity: number;
  readonly layout: 'splat' | 'arrays' | 'ply';
  /** The PLY header (layout 'ply'), else null. */
  readonly ply: PlyHeader | null;
  readonly local: 'splat' | 'shared' | 'per-volume';
  /** Volumes a cull takes (0 .. capacity). */
  count: number;
  readonly disposed: boolean;
  readonly fields: string[];
  /** The records' bytes (layout 'splat': the `.splat` file; 'ply': the vertex records, header excluded). */
  readonly bytes: Uint8Array;
  /** The records: floats, 8 per splat (layout 'splat'); bytes (layout 'ply'). */
  readonly records: Float32Array | Uint8Array;
  readonly position: Float32Array;
  readonly quaternion: Float32Array | Uint8Array | Int8Array;
  readonly scale: Float32Array;
  readonly localCenter: Float32Array;
  readonly localHalf: Float32Array;
  array(name: string): Float32Array | Uint8Array | Int8Array;
  cull(frustum: Frustum, opts?: TrsCullOptions): TrsCullResult;
  cullSorted(frustum: Frustum, opts?: TrsSortOptions): TrsSortResult;
  /** Writes the visible indices back to front into `order` (length >= the range's count); returns how many. No allocation once reserved; `order` unchanged on error. */
  orderInto(frustum: Frustum, order: Uint32Array, opts?: Pick<TrsSortOptions, 'mode' | 'sort' | 'first' | 'count'>): number;
  /** Makes the module buffers for up to `count` volumes (default: the capacity), either sort, so no later cull or orderInto allocates. */
  reserveOrder(count?: number): void;
  dispose(): void;
}

/** A 3DGS PLY header: where each vertex property lies in a record. */
export interface PlyHeader {
  vertexCount: number;
  /** Bytes per vertex record. */
  stride: number;
  /** Byte offset of the first vertex record in the file. */
  dataOffset: number;
  properties: { name: string; type: string; offset: number }[];
  /** Property name -> byte offset in a record. */
  offset: Record<string, number>;
}

/** The properties the cull reads: x, y, z, scale_0..2 (natural logs), rot_0..3 (w first). */
export declare const PLY_CULL_PROPERTIES: readonly string[];
/** Parses a binary_little_endian 3DGS PLY header; throws SatcError on ascii, missing or non-float properties, misaligned floats. */
export declare function parsePly(src: ArrayBufferLike | ArrayBufferView): PlyHeader;
/** A batch of the file's PLY splats (records copied into module memory once, unconverted), or an empty one for a header, to fill through `bytes`. */
export declare function plyBatch(satc: Satc, src: ArrayBufferLike | ArrayBufferView | PlyHeader, opts?: SplatBatchOptions): TrsBatch;

export interface SplatSorterOptions extends SplatBatchOptions {
  /** Default: 'ply' when the bytes start with "ply", else 'splat'. */
  format?: 'ply' | 'splat';
  mode?: 'conservative' | 'exact';
  sort?: 16 | 32;
  /** Depth convention of matrix cameras. */
  depth?: 'webgl' | 'webgpu';
  reversed?: boolean;
}

/** Cull + back-to-front sort of a splat scene into caller arrays, no allocation per call (a worker's per-frame step). */
export declare class SplatSorter {
  readonly format: 'ply' | 'splat';
  readonly batch: TrsBatch;
  /** Number of splats. */
  readonly count: number;
  /** Copies the records again from a buffer of the same format and size. */
  update(src: ArrayBufferLike | ArrayBufferView): void;
  /** Writes the visible splats back to front into `order`; returns how many. `camera`: a Frustum or a column-major view-projection matrix (a Float32Array: no allocation). */
  sort(camera: Frustum | ArrayLike<number>, order: Uint32Array): number;
  dispose(): void;
}

/** A sorter over the bytes of a 3DGS `.ply` file or of `.splat` records (copied into module memory once). */
export declare function splatSorter(satc: Satc, src: ArrayBufferLike | ArrayBufferView, opts?: SplatSorterOptions): SplatSorter;

export interface SplatBatchOptions {
  /** Half size of a splat's box in units of its scale (default 3). */
  k?: number;
}

export interface TrsBatchOptions extends SplatBatchOptions {
  quaternion?: 'f32' | 'u8' | 'i8';
  order?: 'xyzw' | 'wxyz';
  /** The scales are natural logs (PLY splats). */
  logScale?: boolean;
  local?: 'splat' | 'shared' | 'per-volume';
}

/** A batch of Gaussian splats in the 32-byte `.splat` layout, in module memory. */
export declare function splatBatch(satc: Satc, capacity: number, opts?: SplatBatchOptions): TrsBatch;
/** A batch of transforms in separate arrays (position, quaternion, scale), in module memory. */
export declare function trsBatch(satc: Satc, capacity: number, opts?: TrsBatchOptions): TrsBatch;
/** The module's exp for log scales (satc_expf). */
export declare function expf(satc: Satc, x: number): number;
