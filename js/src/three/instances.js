// InstanceCuller: per-instance culling of an InstancedMesh. The mesh keeps
// behaving as three's own for everything that reads or writes instances
// (count, get/setMatrixAt, get/setColorAt, bounds, raycast: source
// indices, all instances); only the attributes three uploads hold the
// drawn instances, compacted, and `count` reads the number drawn.

import { Box3, DynamicDrawUsage, InstancedBufferAttribute, InstancedMesh, Sphere, Vector3 } from 'three';
import { allViews, cullAny } from './views.js';
import { Occlusion } from './occlusion.js';
import { boxOccluder, drawnFor, flatBox, masksDepthFor, occludable } from './drawn.js';

const P = InstancedMesh.prototype;

function localBox(geometry) {
  if (geometry.boundingBox === null) geometry.computeBoundingBox();
  const b = geometry.boundingBox;
  return {
    center: [(b.min.x + b.max.x) / 2, (b.min.y + b.max.y) / 2, (b.min.z + b.max.z) / 2],
    half: [(b.max.x - b.min.x) / 2, (b.max.y - b.min.y) / 2, (b.max.z - b.min.z) / 2],
  };
}

function copy16(d, o, s, i) {
  for (let j = 0; j < 16; j++) d[o + j] = s[i + j];
}

function singular(e) {
  // the upper 3x3's determinant: a zero scale folds the mesh flat
  const det = e[0] * (e[5] * e[10] - e[6] * e[9]) - e[4] * (e[1] * e[10] - e[2] * e[9]) + e[8] * (e[1] * e[6] - e[2] * e[5]);
  return !(Math.abs(det) > 0);
}

export class InstanceCuller {
  constructor(satc, mesh, opts = {}) {
    opts ??= {};
    if (!mesh || mesh.isInstancedMesh !== true) satc._heap.fail(-1, 'InstanceCuller: not an InstancedMesh');
    if (mesh.count !== undefined && Object.getOwnPropertyDescriptor(mesh, 'count')?.get) {
      satc._heap.fail(-1, 'InstanceCuller: the mesh already has a culler');
    }
    this.satc = satc;
    this.mesh = mesh;
    this.mode = opts.mode ?? 'conservative';
    const cap = mesh.instanceMatrix.count;
    const box = opts.localBox ?? localBox(mesh.geometry);
    this.batch = satc.batch('instances', cap, {}, {
      matrices: mesh.instanceMatrix.array.subarray(0, 16 * cap),
      localCenter: box.center,
      localHalf: box.half,
    });
    this.output = satc.output(cap);
    this.groups = opts.groups ?? 0;
    this.colors = mesh.instanceColor ? mesh.instanceColor.array.slice(0, 3 * cap) : null;
    this.frusta = [];
    this._sources = Math.min(mesh.count, cap);
    this._drawn = new Uint32Array(cap);
    this._visible = this._sources;
    for (let i = 0; i < cap; i++) this._drawn[i] = i;
    this._userView = 0;
    this._dirty = true; // bounds (and group bounds) from the sources at the next update
    this.viewVisible = [this._sources];
    this._occlusion = opts.occlusion ? new Occlusion(satc, opts.occlusion, cap, box, 'InstanceCuller') : null;
    this._flat = flatBox(Array.from(box.half)); // a flat geometry: an open surface
    this._install();
    mesh.instanceMatrix.setUsage(DynamicDrawUsage); // rewritten every frame (takes effect if not yet uploaded)
    mesh.instanceColor?.setUsage(DynamicDrawUsage);
    this._setBounds();
  }

  // The mesh's own methods, redirected to the sources while the culler lives.
  _install() {
    const mesh = this.mesh, self = this;
    const asUser = (fn) => function (...args) {
      self._userView++;
      try {
        return fn.apply(mesh, args);
      } finally {
        self._userView--;
      }
    };
    Object.defineProperty(mesh, 'count', {
      configurable: true,
      enumerable: true,
      get: () => (this._userView ? this._sources : this._visible),
      set: (n) => {
        if (!Number.isInteger(n) || n < 0 || n > this.capacity) {
          this.satc._heap.fail(-9, `InstancedMesh.count = ${n} (capacity ${this.capacity})`);
        }
        this._sources = n;
        this.matricesChanged();
      },
    });
    mesh.setMatrixAt = (i, m) => this.setMatrixAt(i, m);
    mesh.getMatrixAt = (i, m) => m.fromArray(this.matrices, 16 * this._index(i, 'getMatrixAt'));
    mesh.setColorAt = (i, c) => this.setColorAt(i, c);
    mesh.getColorAt = (i, c) => {
      this._index(i, 'getColorAt');
      return this.colors ? c.fromArray(this.colors, 3 * i) : P.getColorAt.call(mesh, i, c);
    };
    mesh.raycast = asUser(P.raycast);
    mesh.computeBoundingBox = () => this._setBounds();
    mesh.computeBoundingSphere = () => this._setBounds();
  }

  _uninstall() {
    const mesh = this.mesh;
    for (const k of ['count', 'setMatrixAt', 'getMatrixAt', 'setColorAt', 'getColorAt', 'raycast', 'computeBoundingBox', 'computeBoundingSphere']) {
      delete mesh[k];
    }
    mesh.count = this._sources;
  }

  _index(i, what) {
    if (!Number.isInteger(i) || i < 0 || i >= this.capacity) this.satc._heap.fail(-9, `${what}(${i}): capacity ${this.capacity}`);
    return i;
  }

  /** Instances the mesh can hold (instanceMatrix.count). */
  get capacity() {
    return this.batch.capacity;
  }

  /** Source instances: mesh.count as the user set it (reading mesh.count gives the number drawn). */
  get count() {
    return this._sources;
  }

  set count(n) {
    this.mesh.count = n;
  }

  /** Instances drawn by the last update. */
  get visible() {
    return this._visible;
  }

  /** Source matrices (module memory; take it again after memory growth). */
  get matrices() {
    return this.batch.matrices;
  }

  /** Sets source matrix i from a Matrix4 (or 16 numbers); mesh.setMatrixAt does the same. */
  setMatrixAt(i, m) {
    this._index(i, 'setMatrixAt');
    const e = m?.elements ?? m;
    if (!e || e.length !== 16) this.satc._heap.fail(-13, `setMatrixAt(${i}): expected a Matrix4 or 16 numbers`);
    this.batch.set({ matrices: e }, i);
    this._dirty = true;
  }

  /** Call after writing `matrices` directly: bounds are recomputed at the next update. */
  matricesChanged() {
    this._dirty = true;
  }

  /** Sets source color i from a Color; mesh.setColorAt does the same. */
  setColorAt(i, c) {
    this._index(i, 'setColorAt');
    const mesh = this.mesh;
    if (!this.colors) {
      // white until set, as three's own setColorAt makes it
      this.colors = new Float32Array(3 * this.capacity).fill(1);
      mesh.instanceColor = new InstancedBufferAttribute(this.colors.slice(), 3).setUsage(DynamicDrawUsage);
    }
    this.colors[3 * i] = c.r;
    this.colors[3 * i + 1] = c.g;
    this.colors[3 * i + 2] = c.b;
  }

  /**
   * Source index of drawn instance k (after the last update): what
   * instanceMatrix[k] came from. A raycast's instanceId is a source index
   * already (drawnIndex gives its slot).
   */
  sourceIndex(k) {
    if (!Number.isInteger(k) || k < 0 || k >= this._visible) {
      this.satc._heap.fail(-9, `sourceIndex(${k}): ${this._visible} drawn (a raycast's instanceId is already the source index; drawnIndex(id) gives its slot)`);
    }
    return this._drawn[k];
  }

  /**
   * The slot k of instanceMatrix where the last update drew source
   * instance i (sourceIndex(k) === i), or -1 when it was not drawn: e.g.
   * for a raycast's instanceId.
   */
  drawnIndex(i) {
    this._index(i, 'drawnIndex');
    const d = this._drawn;
    let lo = 0, hi = this._visible; // drawn in increasing source order
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (d[mid] < i) lo = mid + 1;
      else hi = mid;
    }
    return lo < this._visible && d[lo] === i ? lo : -1;
  }

  // mesh.boundingBox / boundingSphere: every source instance's box
  // (satc's group bounds over them), never the compacted drawn set.
  _setBounds() {
    const mesh = this.mesh, n = this._sources;
    const { center: c, half: h } = this.satc._unionBox(this.batch, n);
    mesh.boundingBox ??= new Box3();
    mesh.boundingSphere ??= new Sphere();
    if (n === 0) {
      mesh.boundingBox.makeEmpty();
      mesh.boundingSphere.makeEmpty();
    } else {
      mesh.boundingBox.min.set(c[0] - h[0], c[1] - h[1], c[2] - h[2]);
      mesh.boundingBox.max.set(c[0] + h[0], c[1] + h[1], c[2] + h[2]);
      // a NaN center: three keeps an object whose sphere it cannot place
      mesh.boundingSphere.set(new Vector3(c[0], c[1], c[2]), Math.hypot(h[0], h[1], h[2]));
    }
    this._boundsFor = n;
  }

  /**
   * Culls the sources against the camera (its sub-cameras for an
   * ArrayCamera, and opts.shadowCameras in the same pass: drawn when any
   * view sees it) and compacts. Draws every source while the mesh's
   * frustumCulled is false. Returns the number drawn.
   */
  update(camera, opts = {}) {
    const satc = this.satc, mesh = this.mesh, n = this._sources;
    const views = allViews(satc, camera, opts, 'InstanceCuller.update');
    if (this._dirty) {
      this._setBounds();
      this._occlusion?.matricesChanged();
      if (this.groups) {
        this.batch.count = n;
        this.batch.setGroups(this.groups);
      }
      this._dirty = false;
    }
    mesh.updateWorldMatrix(true, false);
    const drawn = this._drawn;
    let k = 0;
    if (mesh.frustumCulled === false || singular(mesh.matrixWorld.elements)) {
      // three would draw them all; a folded mesh draws nothing anyway
      for (let i = 0; i < n; i++) drawn[k++] = i;
      this.viewVisible = views.map(() => n);
    } else {
      // occlusion needs one view: with several (shadow cameras, an
      // ArrayCamera) an instance hidden from the camera may still be seen
      // by another, so those updates are frustum only; nor does it hide
      // instances whose material is drawn over nearer depth or moves vertices
      const occl = this._occlusion && views.length === 1 && opts?.occlusion !== false && occludable(mesh, this._occlusion.trustShaders) &&
        !masksDepthFor(mesh, views[0]); // instances masking depth: seen through where occluders do not draw
      let r = null;
      try {
        // instances hide each other only where three draws them opaque (see boxOccluder)
        const solid = occl && drawnFor(mesh, views[0]) && boxOccluder(mesh, this._occlusion.trustShaders, this._flat);
        if (occl) r = this._occlusion.cull(views[0], this.batch, n, this.mode, this.output, mesh.matrixWorld, solid);
      } catch (e) {
        // a clip volume reaching behind the camera: the frustum pass draws everything
        if (e.statusName !== 'SATC_ERR_NEAR') throw e;
      }
      r ??= cullAny(satc, views, this.batch, n, this.mode, this.output, this.frusta, mesh.matrixWorld, true);
      drawn.set(r.indices);
      k = r.indices.length;
      this.viewVisible = r.visible;
    }
    this._compact(k);
    return k;
  }

  _compact(n) {
    const mesh = this.mesh, idx = this._drawn;
    const src = this.batch.matrices, dst = mesh.instanceMatrix.array;
    for (let k = 0; k < n;) {
      // a run of consecutive source indices is one block copy
      let e = k + 1;
      while (e < n && idx[e] === idx[e - 1] + 1) e++;
      if (e - k >= 4) dst.set(src.subarray(16 * idx[k], 16 * (idx[k] + e - k)), 16 * k);
      else for (let j = k; j < e; j++) copy16(dst, 16 * j, src, 16 * idx[j]);
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
    this._visible = n;
  }

  /** Gives the mesh back as three's: every source matrix and color in place, count = sources; frees the module memory. */
  dispose() {
    if (this.batch.disposed) return;
    const cap = this.capacity;
    for (let i = 0; i < cap; i++) this._drawn[i] = i;
    this._compact(cap);
    this._uninstall();
    this.mesh.boundingBox = null; // three computes its own again
    this.mesh.boundingSphere = null;
    this.batch.dispose();
    this.output.dispose();
    this._occlusion?.dispose();
  }

  /** Occlusion figures of the last update (frustum-kept, drawn, occluders, ms per stage), or null without occlusion. */
  get occlusion() {
    return this._occlusion ? this._occlusion.stats : null;
  }

  /** The depth pyramid of the last occlusion update, or null. */
  get pyramid() {
    return this._occlusion ? this._occlusion.pyramid : null;
  }
}
