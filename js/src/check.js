// Checks of caller input shared by the API: what is not a number array or
// an options object becomes a SatcError before anything is written.

/** Options: undefined or null mean none; anything but an object is SATC_ERR_FLAGS. */
export function options(heap, o, what) {
  if (o == null) return {};
  if (typeof o !== 'object') heap.fail(-8, `${what}: options must be an object, not ${typeof o}`);
  return o;
}

function detached(v) {
  try {
    new Uint8Array(v.buffer, 0, 0);
    return false;
  } catch {
    return true;
  }
}

/**
 * `src` if it is a plain Array of numbers or a typed array of numbers
 * (not BigInt64Array / BigUint64Array, not detached); else a SatcError:
 * SATC_ERR_NULL for a detached array, SATC_ERR_LAYOUT for anything else
 * (a string, an object with a length, an element that is not a number).
 */
export function numbers(heap, src, what) {
  if (ArrayBuffer.isView(src) && !(src instanceof DataView)) {
    if (src instanceof BigInt64Array || src instanceof BigUint64Array) heap.fail(-13, `${what}: a BigInt array, not numbers`);
    if (detached(src)) heap.fail(-1, `${what}: the array's buffer is detached`);
    return src;
  }
  if (!Array.isArray(src)) heap.fail(-13, `${what}: not an array of numbers (${src === null ? 'null' : typeof src})`);
  for (let i = 0; i < src.length; i++) {
    if (typeof src[i] !== 'number') heap.fail(-13, `${what}: element ${i} is not a number (${typeof src[i]})`);
  }
  return src;
}
