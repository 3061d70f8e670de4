// The module memory of a batch: a head (the C descriptors that point at
// the fields) and typed fields, each 16-byte aligned, zeroed. Batch and
// TrsBatch build on it: liveness, typed arrays re-derived after memory
// growth, the count within the capacity, disposal.

export class FieldBlock {
  /**
   * @internal what: the prefix of error messages ('batch', 'trs');
   * fields: [name, elements, TypedArray constructor, extra properties].
   */
  constructor(satc, capacity, what, head, fields, label) {
    const h = satc._heap;
    if (!Number.isInteger(capacity) || capacity < 0 || capacity > 0x3fffffff) h.fail(-9, `${what}: capacity ${capacity}`);
    this._satc = satc;
    this._heap = h;
    this._what = what;
    this.capacity = capacity;
    this._count = capacity;
    this._fields = new Map();
    let bytes = head;
    for (const [name, len, C, extra] of fields) {
      bytes = Math.ceil(bytes / 16) * 16; // doubles: no wrap at 2^31
      this._fields.set(name, { offset: bytes, len, C, ...extra });
      bytes += len * C.BYTES_PER_ELEMENT;
    }
    this._block = h.alloc(bytes, label);
    h.u8.fill(0, this._block, this._block + bytes);
    for (const f of this._fields.values()) f.ptr = this._block + f.offset;
    this._desc = this._block;
    this._handed = false; // a view went to the caller: disposal detaches views
    this._views = null;
    this._epoch = -1;
  }

  /** Throws SATC_ERR_NULL once disposed. */
  _live(what) {
    if (this._block === 0) this._heap.fail(-1, `${what}: the batch was disposed`);
  }

  /** The module-owned typed array of a field (re-derived after memory growth). */
  array(name) {
    this._live(`${this._what}.${name}`);
    this._handed = true;
    return this._view(name);
  }

  _view(name) {
    const h = this._heap;
    h.sync();
    if (this._epoch !== h.epoch || this._views === null) {
      this._views = new Map();
      this._epoch = h.epoch;
    }
    let v = this._views.get(name);
    if (!v) {
      const f = this._fields.get(name);
      if (!f) h.fail(-8, `${this._what}.array: no field ${name} (fields: ${this.fields.join(', ')})`);
      v = new f.C(h.buffer, f.ptr, f.len);
      this._views.set(name, v);
    }
    return v;
  }

  /** Names of the batch's fields. */
  get fields() {
    return [...this._fields.keys()];
  }

  /** Number of volumes a cull takes by default (0 .. capacity). */
  get count() {
    return this._count;
  }

  set count(n) {
    this._live(`${this._what}.count`);
    if (!Number.isInteger(n) || n < 0 || n > this.capacity) {
      this._heap.fail(-9, `${this._what}.count = ${n} (capacity ${this.capacity})`);
    }
    this._count = n;
  }

  get disposed() {
    return this._block === 0;
  }

  /** What a subclass frees besides the block (before it). */
  _release() {}

  /**
   * Frees the module memory; later use throws SATC_ERR_NULL. If a field's
   * typed array was handed out, every view over module memory is detached
   * (as by memory growth), so one kept from this batch cannot write into
   * the next batch placed there.
   */
  dispose() {
    if (this._block === 0) return;
    this._release();
    this._heap.free(this._block);
    this._block = 0;
    this._views = null;
    this._satc._live.delete(this);
    if (this._handed) this._heap.detach();
  }
}
