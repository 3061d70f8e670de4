// BatchedCuller: satc's per-instance culling for a BatchedMesh in place of
// three's per-instance sphere test. The user keeps owning each instance's
// visibility (setVisibleAt); the culler only hides visible instances out of
// every view, and dispose() gives everything back.

import { BatchedMesh, Box3 } from 'three';
import { allViews, cullAny } from './views.js';
import { ObjectOcclusion } from './object-occlusion.js';
import { boxOccluder, drawnFor, masksDepthFor, occludable } from './drawn.js';

const P = BatchedMesh.prototype;

export class BatchedCuller {
  constructor(satc, mesh, opts = {}) {
    opts ??= {};
    if (!mesh || mesh.isBatchedMesh !== true) satc._heap.fail(-1, 'BatchedCuller: not a BatchedMesh');
    if (Object.prototype.hasOwnProperty.call(mesh, 'setVisibleAt')) satc._heap.fail(-1, 'BatchedCuller: the mesh already has a culler');
    this.satc = satc;
    this.mesh = mesh;
    this.mode = opts.mode ?? 'conservative';
    this.frusta = [];
    this.batch = null;
    this.output = null;
    this._user = []; // the visibility the user set, per instance
    this._infos = []; // three's record of each instance when last seen (a re-used id gets a new one)
    this._occlusion = opts.occlusion ? new ObjectOcclusion(satc, opts.occlusion, 'BatchedCuller', true) : null;
    this._flags = new Uint8Array(0);
    this.refresh(); // before touching the mesh: a bad occluderBox throws here
    this._perObject = mesh.perObjectFrustumCulled;
    mesh.perObjectFrustumCulled = false;
    mesh.setVisibleAt = (i, v) => {
      P.setVisibleAt.call(mesh, i, v); // validates i as three does
      this._user[i] = v;
      return mesh;
    };
    mesh.raycast = (raycaster, intersects) => this._asUser(() => P.raycast.call(mesh, raycaster, intersects));
  }

  // Runs fn with every instance at the user's visibility (three's raycast skips hidden ones).
  _asUser(fn) {
    const info = this.mesh._instanceInfo, saved = info.map((x) => x.visible);
    for (let i = 0; i < info.length; i++) info[i].visible = this._user[i] ?? info[i].visible;
    try {
      return fn();
    } finally {
      for (let i = 0; i < info.length; i++) info[i].visible = saved[i];
    }
  }

  /** Re-reads the instances' geometry ids and the geometries' boxes (update() does it when instances or geometries were added). */
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
    // inactive or empty geometries (no box) never occlude
    const occBoxes = this._occlusion?.boxes(center, half, Array.from({ length: ngeo }, (_, g) => g));
    if (occBoxes) for (let g = 0; g < ngeo; g++) if (!mesh._geometryInfo[g].active || !(half[3 * g] + half[3 * g + 1] + half[3 * g + 2] > 0)) occBoxes.solid[g] = 0;
    this.batch?.dispose();
    this.batch = this.satc.batch('instances', n, { local: { meshes: Math.max(ngeo, 1) } });
    this.batch.set({ localCenter: center, localHalf: half });
    this.output?.dispose();
    this.output = this.satc.output(n);
    this._geometries = ngeo;
    if (occBoxes) this._occlusion.setBoxes(occBoxes, n);
    if (this._flags.length < n) this._flags = new Uint8Array(n);
  }

  /**
   * Copies the instance matrices in (one copy), culls against the camera
   * (and opts.shadowCameras), hides the instances no view sees and shows
   * the others the user left visible. Every user-visible instance is drawn
   * while the mesh's frustumCulled is false. Returns the number drawn.
   */
  update(camera, opts = {}) {
    const mesh = this.mesh, info = mesh._instanceInfo;
    const views = allViews(this.satc, camera, opts, 'BatchedCuller.update');
    if (info.length !== this.batch.capacity || mesh._geometryInfo.length !== this._geometries) this.refresh();
    const n = this.batch.capacity, user = this._user, ids = this.batch.meshIds;
    for (let i = 0; i < n; i++) {
      const inst = info[i];
      if (inst !== this._infos[i]) {
        this._infos[i] = inst;
        user[i] = inst.visible;
      }
      ids[i] = inst.active ? inst.geometryIndex : 0xffffffff;
    }
    mesh.updateWorldMatrix(true, false);
    let flags = null;
    if (mesh.frustumCulled !== false && n > 0) {
      this.batch.matrices.set(mesh._matricesTexture.image.data.subarray(0, 16 * n));
      flags = this._cull(views, n, opts);
    }
    let drawn = 0;
    for (let i = 0; i < n; i++) {
      const inst = info[i];
      if (!inst.active) continue;
      const v = user[i] && (flags === null || !!flags[i]);
      if (inst.visible !== v) P.setVisibleAt.call(mesh, i, v);
      if (v) drawn++;
    }
    return drawn;
  }

  // Frustum (every view), or with occlusion for a single view: the
  // occluders are the solid instances the user leaves visible.
  _cull(views, n, opts) {
    const occ = this._occlusion, mesh = this.mesh, info = mesh._instanceInfo, user = this._user;
    // a material drawn over nearer depth, moving vertices or masking depth: occlusion hides none of its instances
    if (occ && views.length === 1 && opts?.occlusion !== false && occludable(mesh, occ.trustShaders) && !masksDepthFor(mesh, views[0])) {
      // what three does not draw opaque (see boxOccluder): no instance hides another
      const drawn = drawnFor(mesh, views[0]);
      const solid = [drawn && boxOccluder(mesh, occ.trustShaders, false), drawn && boxOccluder(mesh, occ.trustShaders, true)];
      const kept = occ.cull(views[0], this.batch, n, this.mode, this.output, mesh.matrixWorld,
        (i, flat) => solid[flat ? 1 : 0] && info[i].active && !!user[i] && occ.chosen(i, i));
      if (kept) {
        const flags = this._flags.subarray(0, n).fill(0);
        for (let k = 0; k < kept.length; k++) flags[kept[k]] = 1;
        return flags;
      }
    }
    const r = cullAny(this.satc, views, this.batch, n, this.mode, this.output, this.frusta, mesh.matrixWorld);
    if (occ) {
      let kept = 0;
      for (let i = 0; i < n; i++) kept += r.flags[i] ? 1 : 0;
      occ.frustumOnly(kept);
    }
    return r.flags;
  }

  /** Occlusion figures of the last update (frustum-kept, drawn, occluders, ms per stage), or null without occlusion. */
  get occlusion() {
    return this._occlusion ? this._occlusion.stats : null;
  }

  /** The depth pyramid of the last occlusion update, or null. */
  get pyramid() {
    return this._occlusion ? this._occlusion.pyramid : null;
  }

  /** Gives every instance the visibility the user set, restores perObjectFrustumCulled, frees the module memory. */
  dispose() {
    if (this.batch.disposed) return;
    const mesh = this.mesh, info = mesh._instanceInfo;
    delete mesh.setVisibleAt;
    delete mesh.raycast;
    for (let i = 0; i < info.length; i++) if (info[i].active && this._user[i] !== undefined) P.setVisibleAt.call(mesh, i, this._user[i]);
    mesh.perObjectFrustumCulled = this._perObject;
    this.batch.dispose();
    this.output.dispose();
    this._occlusion?.dispose();
  }
}
