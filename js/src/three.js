// satc/three: per-instance culling for three.js (a peer dependency).
// Each helper documents, in three.d.ts, what it changes on three's objects.

import { Box3, DynamicDrawUsage, InstancedBufferAttribute, WebGPUCoordinateSystem } from 'three';

const _vp = new Float64Array(16);

function mul4(out, a, b) {
  for (let c = 0; c < 4; c++) {
    const b0 = b[4 * c], b1 = b[4 * c + 1], b2 = b[4 * c + 2], b3 = b[4 * c + 3];
    for (let r = 0; r < 4; r++) out[4 * c + r] = a[r] * b0 + a[4 + r] * b1 + a[8 + r] * b2 + a[12 + r] * b3;
  }
  return out;
}

function copy16(d, o, s, i) {
  d[o] = s[i]; d[o + 1] = s[i + 1]; d[o + 2] = s[i + 2]; d[o + 3] = s[i + 3];
  d[o + 4] = s[i + 4]; d[o + 5] = s[i + 5]; d[o + 6] = s[i + 6]; d[o + 7] = s[i + 7];
  d[o + 8] = s[i + 8]; d[o + 9] = s[i + 9]; d[o + 10] = s[i + 10]; d[o + 11] = s[i + 11];
  d[o + 12] = s[i + 12]; d[o + 13] = s[i + 13]; d[o + 14] = s[i + 14]; d[o + 15] = s[i + 15];
}

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
function isIdentity(e) {
  for (let i = 0; i < 16; i++) if (e[i] !== IDENTITY[i]) return false;
  return true;
}

/**
 * satc frustum of a three.js camera (perspective or orthographic), from
 * projectionMatrix x matrixWorldInverse (x `model` when given: the frustum
 * in that object's local frame). The depth range follows
 * camera.coordinateSystem, reversed Z camera.reversedDepth. Updates the
 * camera's world matrix first.
 */
export function frustumFromCamera(satc, camera, target, model) {
  camera.updateWorldMatrix(true, false);
  mul4(_vp, camera.projectionMatrix.elements, camera.matrixWorldInverse.elements);
  if (model && !isIdentity(model.elements)) mul4(_vp, _vp.slice(), model.elements);
  return satc.frustumFromMatrix(_vp, {
    depth: camera.coordinateSystem === WebGPUCoordinateSystem ? 'webgpu' : 'webgl',
    reversed: camera.reversedDepth === true,
  }, target);
}

/** Culls `batch` against several cameras in one pass (satc cullViews): the main camera and shadow cascades. */
export function cullCameras(satc, cameras, batch, opts = {}) {
  const frusta = cameras.map((c) => frustumFromCamera(satc, c, undefined, opts.model));
  return satc.cullViews(frusta, batch, opts);
}

/**
 * A three.js attribute over a batch field in module memory (no copy): e.g.
 * an InstancedMesh's instanceMatrix over an instances batch's matrices.
 * After memory growth its `array` is set to the field's new view and it is
 * marked for upload. Returns { attribute, release } (release stops that).
 */
export function moduleAttribute(satc, batch, name, itemSize, Attribute = InstancedBufferAttribute) {
  const attribute = new Attribute(batch.array(name), itemSize);
  const release = satc.onMemoryGrow(() => {
    if (batch.disposed) return release();
    attribute.array = batch.array(name);
    attribute.needsUpdate = true;
  });
  return { attribute, release };
}

function localBox(geometry) {
  if (geometry.boundingBox === null) geometry.computeBoundingBox();
  const b = geometry.boundingBox;
  return {
    center: [(b.min.x + b.max.x) / 2, (b.min.y + b.max.y) / 2, (b.min.z + b.max.z) / 2],
    half: [(b.max.x - b.min.x) / 2, (b.max.y - b.min.y) / 2, (b.max.z - b.min.z) / 2],
  };
}

/**
 * Per-instance culling of an InstancedMesh. The source matrices live in
 * `matrices` (module memory, 16 floats per instance, initialised from the
 * mesh's instanceMatrix); update(camera) writes the visible ones into
 * instanceMatrix (and instanceColor) in source order and sets mesh.count.
 */
export class InstanceCuller {
  constructor(satc, mesh, opts = {}) {
    this.satc = satc;
    this.mesh = mesh;
    this.mode = opts.mode ?? 'conservative';
    const n = mesh.instanceMatrix.count;
    const box = opts.localBox ?? localBox(mesh.geometry);
    this.batch = satc.batch('instances', n, {}, {
      matrices: mesh.instanceMatrix.array.subarray(0, 16 * n),
      localCenter: box.center,
      localHalf: box.half,
    });
    this.output = satc.output(n);
    this.groups = opts.groups ?? 0;
    if (this.groups) this.batch.setGroups(this.groups);
    this._dirty = false;
    this.colors = mesh.instanceColor ? mesh.instanceColor.array.slice(0, 3 * n) : null;
    this.frusta = [];
    this.visible = n;
    this.viewVisible = [n];
    mesh.frustumCulled = false; // the mesh's one sphere would be computed from the compacted matrices
    mesh.instanceMatrix.setUsage(DynamicDrawUsage); // rewritten every frame (takes effect if not yet uploaded)
    mesh.instanceColor?.setUsage(DynamicDrawUsage);
  }

  /** Source matrices (module memory; take it again after memory growth). */
  get matrices() {
    return this.batch.matrices;
  }

  /** Sets source matrix i from a Matrix4 (or 16 numbers). */
  setMatrixAt(i, m) {
    this.batch.matrices.set(m.elements ?? m, 16 * i);
    this._dirty = true;
  }

  /** Call after writing `matrices` directly: group bounds are recomputed at the next update. */
  matricesChanged() {
    this._dirty = true;
  }

  /** Sets source color i from a Color. */
  setColorAt(i, c) {
    if (!this.colors) throw new Error('satc: the mesh had no instanceColor when the culler was made');
    this.colors[3 * i] = c.r;
    this.colors[3 * i + 1] = c.g;
    this.colors[3 * i + 2] = c.b;
  }

  /** Source index of drawn instance k (after the last update), e.g. for a raycast's instanceId. */
  sourceIndex(k) {
    return this.output.indices[k];
  }

  /**
   * Culls against the camera (and, in the same pass, opts.shadowCameras:
   * an instance is drawn when any view sees it, so off-screen casters
   * still cast). Returns the number of instances drawn.
   */
  update(camera, opts = {}) {
    const satc = this.satc, mesh = this.mesh;
    const shadows = opts.shadowCameras;
    if (this._dirty && this.groups) this.batch.updateGroups();
    this._dirty = false;
    let idx;
    if (shadows && shadows.length) {
      const all = [camera, ...shadows];
      while (this.frusta.length < all.length) this.frusta.push(undefined);
      for (let v = 0; v < all.length; v++) this.frusta[v] = frustumFromCamera(satc, all[v], this.frusta[v], mesh.matrixWorld);
      const r = satc.cullViews(this.frusta.slice(0, all.length), this.batch, { mode: this.mode, masks: true });
      this.viewVisible = r.visible;
      const masks = r.masks;
      let k = 0;
      idx = new Uint32Array(masks.length);
      for (let i = 0; i < masks.length; i++) if (masks[i]) idx[k++] = i;
      idx = idx.subarray(0, k);
    } else {
      this.frusta[0] = frustumFromCamera(satc, camera, this.frusta[0], mesh.matrixWorld);
      satc.cull(this.frusta[0], this.batch, { mode: this.mode, into: this.output });
      idx = this.output.indices;
      this.viewVisible = [idx.length];
    }
    this._idx = idx;
    this._compact(idx);
    return this.visible;
  }

  _compact(idx) {
    const mesh = this.mesh, n = idx.length;
    const src = this.batch.matrices, dst = mesh.instanceMatrix.array;
    for (let k = 0; k < n;) {
      // a run of consecutive source indices is one block copy
      let e = k + 1;
      while (e < n && idx[e] === idx[e - 1] + 1) e++;
      if (e - k >= 4) {
        dst.set(src.subarray(16 * idx[k], 16 * (idx[k] + e - k)), 16 * k);
      } else {
        for (let j = k; j < e; j++) copy16(dst, 16 * j, src, 16 * idx[j]);
      }
      k = e;
    }
    mesh.instanceMatrix.clearUpdateRanges();
    mesh.instanceMatrix.addUpdateRange(0, 16 * n);
    mesh.instanceMatrix.needsUpdate = true;
    if (this.colors && mesh.instanceColor) {
      const c = this.colors, cd = mesh.instanceColor.array;
      for (let k = 0; k < n; k++) {
        const s = 3 * idx[k], d = 3 * k;
        cd[d] = c[s];
        cd[d + 1] = c[s + 1];
        cd[d + 2] = c[s + 2];
      }
      mesh.instanceColor.clearUpdateRanges();
      mesh.instanceColor.addUpdateRange(0, 3 * n);
      mesh.instanceColor.needsUpdate = true;
    }
    mesh.count = n;
    this.visible = n;
  }

  /** Draws every instance again (source order), frees the module memory. */
  dispose() {
    const n = this.batch.capacity;
    this._compact(Uint32Array.from({ length: n }, (_, i) => i));
    this.batch.dispose();
    this.output.dispose();
  }
}

/**
 * Culls a BatchedMesh's instances with satc instead of three's per-instance
 * sphere test: sets perObjectFrustumCulled = false and each instance's
 * visibility (setVisibleAt) from the cull.
 */
export class BatchedCuller {
  constructor(satc, mesh, opts = {}) {
    this.satc = satc;
    this.mesh = mesh;
    this.mode = opts.mode ?? 'conservative';
    this.frustum = undefined;
    this.batch = null;
    this.output = null;
    mesh.perObjectFrustumCulled = false;
    this.refresh();
  }

  /** Re-reads the instances' geometry ids and the geometries' boxes (after adding or removing any). */
  refresh() {
    const mesh = this.mesh, info = mesh._instanceInfo;
    const n = info.length;
    const ngeo = mesh._geometryInfo.length;
    const center = new Float32Array(3 * Math.max(ngeo, 1)), half = new Float32Array(3 * Math.max(ngeo, 1));
    const box = new Box3();
    for (let g = 0; g < ngeo; g++) {
      if (!mesh._geometryInfo[g].active) continue;
      const b = mesh.getBoundingBoxAt(g, box);
      if (!b) continue;
      center.set([(b.min.x + b.max.x) / 2, (b.min.y + b.max.y) / 2, (b.min.z + b.max.z) / 2], 3 * g);
      half.set([(b.max.x - b.min.x) / 2, (b.max.y - b.min.y) / 2, (b.max.z - b.min.z) / 2], 3 * g);
    }
    this.batch?.dispose();
    this.batch = this.satc.batch('instances', n, { local: { meshes: Math.max(ngeo, 1) } });
    const ids = this.batch.meshIds;
    for (let i = 0; i < n; i++) ids[i] = info[i].active ? info[i].geometryIndex : 0xffffffff;
    this.batch.set({ localCenter: center, localHalf: half });
    this.output?.dispose();
    this.output = this.satc.output(n);
  }

  /** Copies the instance matrices in (one copy), culls, sets visibility. Returns the visible count. */
  update(camera) {
    const mesh = this.mesh, info = mesh._instanceInfo, n = this.batch.capacity;
    this.batch.matrices.set(mesh._matricesTexture.image.data.subarray(0, 16 * n));
    this.frustum = frustumFromCamera(this.satc, camera, this.frustum, mesh.matrixWorld);
    this.satc.cull(this.frustum, this.batch, { mode: this.mode, into: this.output, output: 'bitmask' });
    const bits = this.output.bitmask;
    let visible = 0;
    for (let i = 0; i < n; i++) {
      const inst = info[i];
      if (!inst.active) continue;
      const v = ((bits[i >>> 3] >>> (i & 7)) & 1) === 1;
      if (inst.visible !== v) mesh.setVisibleAt(i, v);
      if (v) visible++;
    }
    return visible;
  }

  dispose() {
    this.batch.dispose();
    this.output.dispose();
  }
}

/**
 * Culls many Meshes (or any Object3D with a geometry) with one call:
 * their world matrices and geometry boxes form one instances batch. Sets
 * each object's frustumCulled = false and visible from the cull.
 */
export class SceneCuller {
  constructor(satc, objects, opts = {}) {
    this.satc = satc;
    this.objects = objects;
    this.mode = opts.mode ?? 'conservative';
    this.static = opts.static === true;
    const geos = new Map();
    const ids = new Uint32Array(objects.length);
    objects.forEach((o, i) => {
      if (!geos.has(o.geometry)) geos.set(o.geometry, geos.size);
      ids[i] = geos.get(o.geometry);
      o.frustumCulled = false;
    });
    const center = [], half = [];
    for (const g of geos.keys()) {
      const b = localBox(g);
      center.push(...b.center);
      half.push(...b.half);
    }
    this.batch = satc.batch('instances', objects.length, { local: { meshes: Math.max(geos.size, 1) } });
    this.batch.set({ meshIds: ids, localCenter: center, localHalf: half });
    this.output = satc.output(objects.length);
    this.frustum = undefined;
    this.syncMatrices();
  }

  /** Copies every object's matrixWorld in (static scenes: after moving objects). */
  syncMatrices() {
    const m = this.batch.matrices, objs = this.objects;
    for (let i = 0; i < objs.length; i++) {
      const e = objs[i].matrixWorld.elements, d = 16 * i;
      for (let j = 0; j < 16; j++) m[d + j] = e[j];
    }
  }

  /** Culls (copying the matrices first unless static) and sets visible. Returns the visible count. */
  update(camera) {
    if (!this.static) this.syncMatrices();
    this.frustum = frustumFromCamera(this.satc, camera, this.frustum);
    this.satc.cull(this.frustum, this.batch, { mode: this.mode, into: this.output, output: 'bitmask' });
    const bits = this.output.bitmask, objs = this.objects;
    for (let i = 0; i < objs.length; i++) objs[i].visible = ((bits[i >>> 3] >>> (i & 7)) & 1) === 1;
    return this.output.visible;
  }

  dispose() {
    this.batch.dispose();
    this.output.dispose();
  }
}
