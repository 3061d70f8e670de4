// satc for JavaScript: load() instantiates the WebAssembly module (SIMD128
// when the engine validates it, else scalar) and returns a Satc object.

import { instantiate, simdSupported } from './loader.js';
import { Satc } from './core.js';

export { Satc } from './core.js';
export { Batch, FORMS } from './batch.js';
export { Frustum } from './frustum.js';
export { Output } from './output.js';
export { SatcError, Status, STATUS_NAMES } from './errors.js';
export { simdSupported } from './loader.js';

/** Class bytes of output 'classes'. */
export const OUTSIDE = 0;
export const INTERSECTING = 1;
export const INSIDE = 2;

/**
 * Loads satc. options.simd: force (true/false) or detect (undefined);
 * options.wasm: the module's bytes, a WebAssembly.Module, a Response or a
 * URL instead of the packaged file; options.reserve: bytes of heap to
 * reserve now so that later batches do not grow the memory.
 */
export async function load(options) {
  const opts = options ?? {};
  let satc = null;
  const hooks = { grew: () => satc?._heap.sync() };
  const { exports, simd } = await instantiate(typeof opts === 'object' ? opts : {}, hooks);
  satc = new Satc(exports, simd);
  if (typeof opts !== 'object') satc._heap.fail(-8, `load: options must be an object, not ${typeof opts}`);
  if (opts.reserve != null) satc.reserve(opts.reserve);
  return satc;
}

export default load;
