// A satc_frustum held as a copy of its bytes in JavaScript memory: the C
// struct has no pointers ("copy freely"), so a frustum needs no disposal
// and survives memory growth; a cull copies it into the module (1356 B).

export const FRUSTUM_BYTES = 1356; // sizeof(satc_frustum) on wasm32
const KINDS = { 1: 'perspective', 2: 'orthographic', 3: 'planes' };

export class Frustum {
  /** @internal built by Satc#frustumFrom* */
  constructor(bytes = new Uint8Array(FRUSTUM_BYTES)) {
    this.bytes = bytes;
    this._f = new Float32Array(bytes.buffer, bytes.byteOffset, FRUSTUM_BYTES >>> 2);
    this._u = new Uint32Array(bytes.buffer, bytes.byteOffset, FRUSTUM_BYTES >>> 2);
  }

  /** 'perspective', 'orthographic' or 'planes'; undefined before it is built. */
  get kind() {
    return KINDS[this._u[0]];
  }

  /** True when the far plane is at infinity. */
  get infinite() {
    return this._u[1] === 1;
  }

  /** Apex (perspective) or frame origin, world units. */
  get origin() {
    return [this._f[2], this._f[3], this._f[4]];
  }

  /** Rows L, U, D of the frame (left, up, view direction). */
  get frame() {
    return [0, 1, 2].map((r) => [this._f[5 + 3 * r], this._f[6 + 3 * r], this._f[7 + 3 * r]]);
  }

  /** Near and far distances along D (far may be Infinity). */
  get near() {
    return this._f[18];
  }

  get far() {
    return this._f[19];
  }

  /** Number of planes of a 'planes' volume (0 for the other kinds). */
  get planeCount() {
    return this._u[31]; // nplanes, after tol_t and f_in
  }

  clone() {
    return new Frustum(this.bytes.slice());
  }
}
