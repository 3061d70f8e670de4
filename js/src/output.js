// Output buffers in module memory: where a cull writes its indices,
// bitmask and classes. Views are taken from the current buffer on every
// read, so growth never leaves one stale.

export class Output {
  /** @internal use Satc#output */
  constructor(satc, what) {
    this._satc = satc;
    this._heap = satc._heap;
    this._what = what;
    this._cap = 0;
    this._block = 0;
    this._rawBlock = 0;
    this._rawBytes = 0;
    this._visible = 0;
    this._count = 0;
    this._wants = { indices: false, bitmask: false, classes: false, t: false };
  }

  // Room for `count` results of every kind (9 + 1/8 bytes per volume).
  _ensure(count) {
    this._adopt(this._plan(count));
  }

  // Where a call of `count` results writes: these buffers when they have
  // room, else new ones that _adopt() makes current once the call
  // succeeded (a failed call leaves the last answer readable).
  _plan(count) {
    if (count <= this._cap && this._block) {
      return { block: this._block, cap: this._cap, indices: this._indices, t: this._t, classes: this._classes, bitmask: this._bitmask };
    }
    const cap = Math.max(count, 64, this._cap * 2);
    const p = this._heap.alloc(9 * cap + Math.ceil(cap / 8) + 32, this._what);
    return { block: p, cap, indices: p, t: p + 4 * cap, classes: p + 8 * cap, bitmask: p + 9 * cap };
  }

  _adopt(plan) {
    if (plan.block === this._block) return;
    this._heap.free(this._block);
    this._block = plan.block;
    this._cap = plan.cap;
    this._indices = plan.indices;
    this._t = plan.t;
    this._classes = plan.classes;
    this._bitmask = plan.bitmask;
  }

  _drop(plan) {
    if (plan.block !== this._block) this._heap.free(plan.block);
  }

  // Raw scratch bytes for calls with other outputs (views, AABBs).
  _raw(bytes) {
    if (bytes > this._rawBytes || !this._rawBlock) {
      const n = Math.max(bytes, 2 * this._rawBytes, 256);
      const p = this._heap.alloc(n, this._what);
      this._heap.free(this._rawBlock);
      this._rawBlock = p;
      this._rawBytes = n;
    }
    return this._rawBlock;
  }

  _done(visible, count, wants, t) {
    this._visible = visible;
    this._count = count;
    this._wants = wants;
    this._tValid = t;
  }

  /** Number of visible volumes (hits) of the last call. */
  get visible() {
    return this._visible;
  }

  /** Volumes the last call covered. */
  get count() {
    return this._count;
  }

  /** Increasing absolute indices of the visible volumes (a view of `visible` entries), or null if not asked for. */
  get indices() {
    this._heap.sync();
    this._handed = true;
    if (!this._wants.indices) return null;
    return new Uint32Array(this._heap.buffer, this._indices, this._visible);
  }

  /** ceil(count / 8) bytes, bit j % 8 of byte j / 8 for volume first + j; or null. */
  get bitmask() {
    this._heap.sync();
    this._handed = true;
    if (!this._wants.bitmask) return null;
    return new Uint8Array(this._heap.buffer, this._bitmask, (this._count + 7) >>> 3);
  }

  /** One class byte per volume (0 outside, 1 intersecting, 2 inside); or null. */
  get classes() {
    this._heap.sync();
    this._handed = true;
    if (!this._wants.classes) return null;
    return new Uint8Array(this._heap.buffer, this._classes, this._count);
  }

  /** queryRay's entry parameters, one per hit in index order (with indices); or null. */
  get t() {
    this._heap.sync();
    this._handed = true;
    if (!this._tValid) return null;
    return new Float32Array(this._heap.buffer, this._t, this._visible);
  }

  _copy() {
    const r = { visible: this._visible };
    if (this._wants.indices) r.indices = this.indices.slice();
    if (this._wants.bitmask) r.bitmask = this.bitmask.slice();
    if (this._wants.classes) r.classes = this.classes.slice();
    if (this._tValid) r.t = this.t.slice();
    return r;
  }

  /**
   * Frees the buffers (the object may be used again: it reallocates). If
   * a result view was handed out, every view over module memory is
   * detached (as by memory growth), so none can show what is placed there next.
   */
  dispose() {
    this._heap.free(this._block);
    this._heap.free(this._rawBlock);
    this._block = this._rawBlock = 0;
    this._cap = this._rawBytes = 0;
    this._visible = this._count = 0;
    this._wants = { indices: false, bitmask: false, classes: false, t: false };
    this._tValid = false;
    if (this._handed) {
      this._handed = false;
      this._heap.detach();
    }
  }
}
