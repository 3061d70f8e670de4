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
  readonly layout: 'splat' | 'arrays';
  readonly local: 'splat' | 'shared' | 'per-volume';
  /** Volumes a cull takes (0 .. capacity). */
  count: number;
  readonly disposed: boolean;
  readonly fields: string[];
  /** The `.splat` records' bytes (layout 'splat'). */
  readonly bytes: Uint8Array;
  /** The records as floats, 8 per splat (layout 'splat'). */
  readonly records: Float32Array;
  readonly position: Float32Array;
  readonly quaternion: Float32Array | Uint8Array | Int8Array;
  readonly scale: Float32Array;
  readonly localCenter: Float32Array;
  readonly localHalf: Float32Array;
  array(name: string): Float32Array | Uint8Array | Int8Array;
  cull(frustum: Frustum, opts?: TrsCullOptions): TrsCullResult;
  cullSorted(frustum: Frustum, opts?: TrsSortOptions): TrsSortResult;
  dispose(): void;
}

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
