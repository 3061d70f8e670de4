// Batches: bounding volumes of one form in arrays the module owns, with the
// satc_batch descriptor (include/satc.h) that points at them. The arrays
// are handed out as typed arrays that are re-derived after memory growth.

import { numbers, options } from './check.js';
import { FieldBlock } from './block.js';

export const FORMS = Object.freeze({ obb: 1, aabb: 2, minmax: 3, halfAxes: 4, instances: 5, spheres: 6 });

// wasm32 layout of satc_batch: form at 0, the union at 4, groups at 84.
const BATCH_BYTES = 88;
const GROUPS_BYTES = 44;
const U = 4; // the union's offset

const LAYOUTS = Object.freeze({
  'column-major-4x4': { id: 0, floats: 16 },
  'rows-3x4': { id: 1, floats: 12 },
  'column-major-4x3': { id: 2, floats: 12 },
});

// Fields per form: [name, floats per volume | -total, element type].
function fieldsOf(form, opts) {
  switch (form) {
    case 'aabb': return [['center', 3], ['half', 3]];
    case 'minmax': return [['min', 3], ['max', 3]];
    case 'spheres': return [['center', 3], ['radius', 1]];
    case 'obb': return [['center', 3], ['axes', 9], ['extent', 3]];
    case 'halfAxes': return [['center', 3], ['axes', 9]];
    case 'instances': {
      const layout = LAYOUTS[opts.layout ?? 'column-major-4x4'];
      if (!layout) return null;
      const f = [['matrices', layout.floats]];
      const local = opts.local ?? 'shared';
      if (local === 'shared') f.push(['localCenter', -3], ['localHalf', -3]);
      else if (local === 'per-instance') f.push(['localCenter', 3], ['localHalf', 3]);
      else if (typeof local === 'object' && Number.isInteger(local.meshes) && local.meshes > 0) {
        f.push(['localCenter', -3 * local.meshes], ['localHalf', -3 * local.meshes], ['meshIds', 1, 'u32']);
      } else return null;
      return f;
    }
    default: return null;
  }
}

export class Batch extends FieldBlock {
  /** @internal use Satc#batch */
  constructor(satc, form, capacity, opts = {}) {
    const heap = satc._heap;
    opts = options(heap, opts, 'batch');
    const fields = fieldsOf(form, opts);
    if (!fields) heap.fail(-8, `batch: unknown form or option (${String(form)})`);
    const typed = fields.map(([name, per, type = 'f32']) => [
      name, per < 0 ? -per : per * capacity, type === 'u32' ? Uint32Array : Float32Array, { per }]);
    super(satc, capacity, 'batch', BATCH_BYTES + GROUPS_BYTES, typed, `batch(${form}, ${capacity})`);
    this.form = form;
    this._layout = form === 'instances' ? LAYOUTS[opts.layout ?? 'column-major-4x4'] : null;
    this._meshes = typeof opts.local === 'object' && opts.local ? opts.local.meshes : 0;
    this._groupsDesc = this._block + BATCH_BYTES;
    this._groupBounds = 0;
    this._groupSpec = null;
    this._writeDescriptor();
    for (const name of this._fields.keys()) {
      Object.defineProperty(this, name, { enumerable: true, get: () => this.array(name) });
    }
    satc._live.add(this);
  }

  _writeDescriptor() {
    const h = this._heap, d = this._desc, F = (n) => this._fields.get(n)?.ptr ?? 0;
    h.u8.fill(0, d, d + BATCH_BYTES);
    h.u32[d >>> 2] = FORMS[this.form];
    switch (this.form) {
      case 'aabb': h.vec3s(d + U, F('center'), 12); h.vec3s(d + U + 16, F('half'), 12); break;
      case 'minmax': h.vec3s(d + U, F('min'), 12); h.vec3s(d + U + 16, F('max'), 12); break;
      case 'spheres':
        h.vec3s(d + U, F('center'), 12);
        h.u32[(d + U + 16) >>> 2] = F('radius');
        h.u32[(d + U + 20) >>> 2] = 4;
        break;
      case 'obb':
      case 'halfAxes': {
        h.vec3s(d + U, F('center'), 12);
        for (let j = 0; j < 3; j++) h.vec3s(d + U + 16 + 16 * j, F('axes') + 12 * j, 36);
        if (this.form === 'obb') h.vec3s(d + U + 64, F('extent'), 12);
        break;
      }
      case 'instances': {
        const q = (d + U) >>> 2, L = this._layout;
        h.u32[q] = F('matrices');
        h.u32[q + 1] = 4 * L.floats;
        h.u32[q + 2] = L.id;
        const per = this._fields.get('localCenter').per > 0;
        h.vec3s(d + U + 12, F('localCenter'), per || this._meshes ? 12 : 0);
        h.vec3s(d + U + 28, F('localHalf'), per || this._meshes ? 12 : 0);
        if (this._meshes) {
          h.u32[q + 11] = F('meshIds');
          h.u32[q + 12] = 4;
          h.u32[q + 13] = this._meshes;
        }
        break;
      }
    }
    h.u32[(d + 84) >>> 2] = this._groupBounds ? this._groupsDesc : 0;
  }

  /**
   * Copies caller arrays into fields, one copy each: { center: Float32Array, ... }.
   * `at` (volumes) places them from that volume on. Every length is checked
   * before anything is written; `exact` requires each to fill its field.
   */
  set(arrays, at = 0, exact = false) {
    this._live('batch.set');
    const h = this._heap, plan = [];
    h.sync();
    if (!arrays || typeof arrays !== 'object') h.fail(-1, 'batch.set: no arrays');
    if (!Number.isInteger(at) || at < 0 || at > this.capacity) h.fail(-9, `batch.set: at ${at} (capacity ${this.capacity})`);
    for (const [name, src] of Object.entries(arrays)) {
      const f = this._fields.get(name);
      if (!f) h.fail(-8, `batch.set: no field ${name} in a ${this.form} batch`);
      numbers(h, src, `batch.set: ${name}`);
      const start = f.per > 0 ? at * f.per : 0;
      if (src.length + start > f.len || (f.per > 0 && src.length % f.per !== 0) || (exact && src.length !== f.len)) {
        h.fail(-13, `batch.set: ${name} has ${src.length} elements, room for ${f.len - start} in multiples of ${Math.abs(f.per)}`);
      }
      plan.push([name, src, start]);
    }
    for (const [name, src, start] of plan) if (src.length) this._view(name).set(src, start);
  }

  /**
   * Attaches group bounds (satc_groups) computed from the current volumes:
   * `size` consecutive volumes per group, or { offsets } (ngroups + 1
   * nondecreasing volume indices). Call updateGroups() after moving volumes.
   */
  setGroups(spec) {
    this._live('batch.setGroups');
    const h = this._heap;
    const size = typeof spec === 'number' ? spec : 0;
    const offsets = typeof spec === 'object' && spec ? spec.offsets : null;
    if (size === 0 && !offsets) h.fail(-1, 'batch.setGroups: neither a size nor offsets');
    if (offsets) numbers(h, offsets, 'batch.setGroups: offsets');
    if (size && (!Number.isInteger(size) || size < 1)) h.fail(-9, `batch.setGroups: size ${size}`);
    const ngroups = size ? Math.ceil(this._count / size) : offsets.length - 1;
    if (ngroups < 0) h.fail(-13, 'batch.setGroups: offsets must hold ngroups + 1 entries');
    this.clearGroups();
    const bytes = 24 * ngroups + (offsets ? 4 * offsets.length : 0);
    const p = h.alloc(bytes, 'batch.setGroups');
    this._groupBounds = p;
    this._groupSpec = { size, ngroups, offsetsPtr: offsets ? p + 24 * ngroups : 0 };
    if (offsets) h.u32.set(offsets, this._groupSpec.offsetsPtr >>> 2);
    try {
      this.updateGroups();
    } catch (e) {
      this.clearGroups();
      throw e;
    }
  }

  /** Recomputes the group bounds from the volumes (satc_group_bounds). */
  updateGroups() {
    this._live('batch.updateGroups');
    if (!this._groupBounds) return;
    const h = this._heap, g = this._groupSpec, gd = this._groupsDesc, q = gd >>> 2;
    const center = this._groupBounds, half = center + 12 * g.ngroups;
    h.u32[(this._desc + 84) >>> 2] = 0; // bounds are computed from the volumes alone
    const st = this._satc._x.satc_group_bounds(this._desc, this._count, g.size, g.offsetsPtr, g.ngroups, center, half);
    h.check(st, 'batch.updateGroups: satc_group_bounds');
    h.u32[q] = g.size;
    h.u32[q + 1] = g.offsetsPtr;
    h.u32[q + 2] = g.ngroups;
    h.vec3s(gd + 12, center, 12);
    h.vec3s(gd + 28, half, 12);
    h.u32[(this._desc + 84) >>> 2] = gd;
  }

  /** Detaches the group bounds. */
  clearGroups() {
    if (!this._groupBounds) return;
    this._heap.free(this._groupBounds);
    this._groupBounds = 0;
    this._groupSpec = null;
    this._heap.u32[(this._desc + 84) >>> 2] = 0;
  }

  /** Number of groups attached (0: none). */
  get groupCount() {
    return this._groupSpec ? this._groupSpec.ngroups : 0;
  }

  _release() {
    this.clearGroups();
  }
}
