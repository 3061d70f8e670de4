// The module's memory as the package sees it. WebAssembly memory only
// grows, and each growth detaches every typed array over the old buffer.
// Growth happens only inside malloc, which only this package calls (satc's
// culling paths never allocate), so every package call that may allocate
// ends with sync(): it re-derives the views and tells the listeners (module
// owned arrays, three.js attributes) to take theirs again.

import { SatcError, STATUS_NAMES } from './errors.js';

const MAX_ALLOC = 2 ** 32 - 65536; // malloc takes a 32-bit size; no block comes near it

export class Heap {
  constructor(exports) {
    this.x = exports;
    this.memory = exports.memory;
    this.epoch = 0;
    this.listeners = new Set();
    this.buffer = null;
    this.sync();
  }

  /** Re-derives the views when the buffer changed; returns true if it did. */
  sync() {
    const buf = this.memory.buffer;
    if (buf === this.buffer) return false;
    const first = this.buffer === null;
    this.buffer = buf;
    this.u8 = new Uint8Array(buf);
    this.u32 = new Uint32Array(buf);
    this.i32 = new Int32Array(buf);
    this.f32 = new Float32Array(buf);
    this.f64 = new Float64Array(buf);
    if (!first) {
      this.epoch++;
      for (const fn of [...this.listeners]) fn(this.epoch);
    }
    return true;
  }

  /** malloc with a 16-byte aligned size; throws SATC_ERR_NOMEM on failure or past wasm32's 4 GiB. */
  alloc(bytes, what) {
    const size = Math.max(16, Math.ceil(bytes / 16) * 16); // no 32-bit wrap: sizes are doubles here
    if (!(size <= MAX_ALLOC)) {
      throw new SatcError(-11, `${what}: cannot allocate ${bytes} bytes (wasm32 memory ends at 4 GiB)`, this.statusString(-11));
    }
    const p = this.x.malloc(size) >>> 0;
    this.sync();
    if (p === 0) {
      throw new SatcError(-11, `${what}: cannot allocate ${bytes} bytes`, this.statusString(-11));
    }
    return p;
  }

  free(p) {
    if (p) this.x.free(p);
  }

  /**
   * Detaches every typed array over the memory (growth by zero pages gives
   * the memory a new buffer) and re-derives the package's: a view kept
   * from freed memory can then no longer write into what is placed there.
   */
  detach() {
    this.memory.grow(0);
    this.sync();
  }

  statusString(status) {
    const p = this.x.satc_status_string(status) >>> 0;
    let end = p;
    while (this.u8[end] !== 0) end++;
    let s = '';
    for (let i = p; i < end; i++) s += String.fromCharCode(this.u8[i]);
    return s;
  }

  /** Throws a SatcError naming `status` unless it is SATC_OK. */
  check(status, what) {
    if (status !== 0) throw new SatcError(status, what, this.statusString(status));
  }

  fail(status, what) {
    throw new SatcError(status, what, this.statusString(status) || STATUS_NAMES[status]);
  }

  /** Writes 3 floats (array-like) at byte address p; NaN passes through. */
  put3(p, v) {
    const i = p >>> 2;
    this.f32[i] = v[0];
    this.f32[i + 1] = v[1];
    this.f32[i + 2] = v[2];
  }

  /** Writes a satc_vec3s: x, y, z at p0, p0 + 4, p0 + 8, and the stride. */
  vec3s(p, p0, stride) {
    const i = p >>> 2;
    this.u32[i] = p0;
    this.u32[i + 1] = p0 ? p0 + 4 : 0;
    this.u32[i + 2] = p0 ? p0 + 8 : 0;
    this.u32[i + 3] = stride;
  }
}
