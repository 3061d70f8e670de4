// SceneCuller: many Meshes, Lines and Points culled in one call by their
// world matrices and geometry boxes. It hides an object only where three
// would not draw anything of it or below it: `visible` stays the user's
// (an accessor ANDs the cull in), a subtree holding anything else is never
// hidden, and what three culls better itself (skinned, instanced and
// batched meshes, sprites, frustumCulled = false) is left to three.

import { allViews, cullAny } from './views.js';
import { ObjectOcclusion } from './object-occlusion.js';
import { boxOccluder, drawnAsStored, drawnFor, keptByThree, masksDepthFor, occludable, threeFrusta } from './drawn.js';

const STATE = Symbol('satc.SceneCuller');

// `visible` of a culled object: what three draws is the user's value and
// the cull; what the user writes is theirs.
const VISIBLE = {
  configurable: true,
  enumerable: true,
  get() {
    const s = this[STATE];
    return s.user && !s.hidden;
  },
  set(v) {
    this[STATE].user = v;
  },
};

/** Objects the culler bounds itself: geometry drawn where its box says. */
function cullable(o) {
  return (o.isMesh === true || o.isLine === true || o.isPoints === true) && !!o.geometry &&
    o.isSkinnedMesh !== true && o.isInstancedMesh !== true && o.isBatchedMesh !== true;
}

/** Objects that draw nothing and light nothing themselves. */
function container(o) {
  return o.type === 'Object3D' || o.type === 'Group' || o.isBone === true;
}

function rootOf(o) {
  while (o.parent) o = o.parent;
  return o;
}

export class SceneCuller {
  constructor(satc, objects, opts = {}) {
    opts ??= {};
    if (!objects || typeof objects[Symbol.iterator] !== 'function') satc._heap.fail(-1, 'SceneCuller: objects is not a list');
    this.satc = satc;
    this.mode = opts.mode ?? 'conservative';
    this.static = opts.static === true;
    this.frusta = [];
    this.batch = null;
    this.output = null;
    this.objects = [];
    this._occlusion = opts.occlusion ? new ObjectOcclusion(satc, opts.occlusion, 'SceneCuller', false) : null;
    this._shown = (x) => (x[STATE]?.owner === this ? x[STATE].user : x.visible); // the user's value, not the cull
    this.refresh([...objects]);
  }

  /**
   * Re-reads the objects (a new list when given) and their geometries'
   * bounding boxes. update() does the latter by itself for an object whose
   * geometry was replaced or whose geometry.boundingBox was set to null.
   */
  refresh(objects = this.objects) {
    const satc = this.satc;
    for (const o of objects) {
      if (!o || o.isObject3D !== true) satc._heap.fail(-1, 'SceneCuller: not an Object3D in the list');
      if (o[STATE] && o[STATE].owner !== this) satc._heap.fail(-1, `SceneCuller: ${o.name || o.type} is culled by another SceneCuller`);
    }
    const managed = objects.filter(cullable);
    const table = this._geometryTable(managed); // may throw (a bad occluderBox): nothing changed yet
    const keep = new Set(objects);
    for (const o of this.objects) if (!keep.has(o) && o[STATE]) this._release(o);
    this.objects = objects;
    this._managed = managed;
    this._roots = [...new Set(objects.map(rootOf))];
    for (const o of this._managed) {
      if (!o[STATE]) {
        o[STATE] = { owner: this, user: o.visible, hidden: false, inView: true };
        Object.defineProperty(o, 'visible', VISIBLE);
      }
    }
    this._readGeometries(table);
    if (!this.static) this._updateWorld();
    this.syncMatrices();
  }

  // The distinct geometries of `managed`, their boxes and occluder boxes.
  _geometryTable(managed) {
    const geos = new Map();
    const ids = new Uint32Array(managed.length);
    managed.forEach((o, i) => {
      if (!geos.has(o.geometry)) geos.set(o.geometry, geos.size);
      ids[i] = geos.get(o.geometry);
    });
    const center = new Float32Array(3 * Math.max(geos.size, 1)), half = new Float32Array(3 * Math.max(geos.size, 1));
    let g = 0;
    for (const geo of geos.keys()) {
      if (geo.boundingBox === null) geo.computeBoundingBox();
      const b = geo.boundingBox;
      if (b.isEmpty()) {
        // nothing to draw; a NaN center keeps it (never culled) rather than guess
        center.set([NaN, NaN, NaN], 3 * g);
      } else {
        center.set([(b.min.x + b.max.x) / 2, (b.min.y + b.max.y) / 2, (b.min.z + b.max.z) / 2], 3 * g);
        half.set([(b.max.x - b.min.x) / 2, (b.max.y - b.min.y) / 2, (b.max.z - b.min.z) / 2], 3 * g);
      }
      g++;
    }
    const occ = this._occlusion ? this._occlusion.boxes(center, half, [...geos.keys()]) : null;
    return { geos, ids, center, half, occ };
  }

  _readGeometries(table = this._geometryTable(this._managed)) {
    const managed = this._managed, { geos, ids, center, half } = table;
    if (!this.batch || this.batch.capacity !== managed.length || this._meshes !== Math.max(geos.size, 1)) {
      this.batch?.dispose();
      this.output?.dispose();
      this.batch = this.satc.batch('instances', managed.length, { local: { meshes: Math.max(geos.size, 1) } });
      this.output = this.satc.output(managed.length);
      this._meshes = Math.max(geos.size, 1);
    }
    this.batch.set({ meshIds: ids, localCenter: center, localHalf: half });
    this._geometries = managed.map((o) => o.geometry);
    if (table.occ) this._occlusion.setBoxes(table.occ, managed.length);
  }

  // Brings world matrices up to date as the renderer does before drawing.
  _updateWorld() {
    for (const r of this._roots) if (r.matrixWorldAutoUpdate !== false) r.updateMatrixWorld();
  }

  /** Copies every culled object's matrixWorld in (static culler: after moving objects). */
  syncMatrices() {
    const m = this.batch.matrices, objs = this._managed;
    for (let i = 0; i < objs.length; i++) {
      const e = objs[i].matrixWorld.elements, d = 16 * i;
      for (let j = 0; j < 16; j++) m[d + j] = e[j];
    }
  }

  /**
   * Updates world matrices (unless static), culls against the camera (and
   * opts.shadowCameras: an object any view sees is kept, so off-screen
   * casters still cast) and hides what no view sees. Returns the number of
   * the culler's objects it leaves to be drawn.
   */
  update(camera, opts = {}) {
    const satc = this.satc, objs = this._managed, n = objs.length;
    const views = allViews(satc, camera, opts, 'SceneCuller.update');
    for (let i = 0; i < n; i++) {
      const g = objs[i].geometry;
      if (g !== this._geometries[i] || g.boundingBox === null) {
        this._readGeometries();
        break;
      }
    }
    if (!this.static) {
      this._updateWorld();
      this.syncMatrices();
    }
    const flags = n ? this._cull(views, n, opts) : [];
    for (let i = 0; i < n; i++) objs[i][STATE].inView = !!flags[i] || objs[i].frustumCulled === false;
    const memo = new Map();
    let hidden = 0;
    for (const o of objs) {
      const s = o[STATE];
      s.hidden = !s.inView && o.children.every((c) => this._hideable(c, memo));
      if (s.hidden) hidden++;
    }
    return this.objects.length - hidden;
  }

  // Frustum (every view), or with occlusion for a single view: per object,
  // nonzero when kept.
  _cull(views, n, opts) {
    const occ = this._occlusion, objs = this._managed;
    // an object masking depth (see masksDepth) lets what is behind an occluder be seen through it
    if (occ && views.length === 1 && opts?.occlusion !== false && !this.objects.some((o) => masksDepthFor(o, views[0], this._shown))) {
      const camera = views[0];
      let frusta = null; // three's frustum tests, made for the first candidate
      const memo = new Map(); // this update's boxOccluder answers per geometry and material
      const isOccluder = (i, flat) => this._occluder(objs[i], camera, flat, () => (frusta ??= threeFrusta(camera)), memo);
      const kept = occ.cull(camera, this.batch, n, this.mode, this.output, null, isOccluder, this._shown);
      if (kept) {
        const flags = new Uint8Array(n);
        for (let k = 0; k < kept.length; k++) flags[kept[k]] = 1;
        // an object drawn over nearer depth is seen through occluders, and
        // points are squares of so many pixels around each vertex (wider
        // than their box on screen): their frustum answer
        const over = [];
        for (let i = 0; i < n; i++) if (!flags[i] && (objs[i].isPoints === true || !occludable(objs[i], occ.trustShaders))) over.push(i);
        if (over.length) {
          const fr = cullAny(this.satc, views, this.batch, n, this.mode, this.output, this.frusta).flags;
          for (const i of over) flags[i] = fr[i] ? 1 : 0;
        }
        return flags;
      }
    }
    const flags = cullAny(this.satc, views, this.batch, n, this.mode, this.output, this.frusta).flags;
    if (occ) {
      let kept = 0;
      for (let i = 0; i < n; i++) kept += flags[i] ? 1 : 0;
      occ.frustumOnly(kept);
    }
    return flags;
  }

  // A Mesh three draws opaque for `camera` in full (the user's `visible`
  // on it and its ancestors: what the culler hides is out of view or
  // behind what is drawn; see boxOccluder), whose box is where it draws
  // (frustumCulled, three's own frustum test keeps it) and its triangles
  // where the geometry holds them (no active morph target).
  _occluder(o, camera, flat, frusta, memo) {
    if (o.isMesh !== true || o.frustumCulled === false || !drawnAsStored(o)) return false;
    let byMat = memo.get(o.geometry);
    if (!byMat) memo.set(o.geometry, (byMat = new Map()));
    let solid = byMat.get(o.material);
    if (solid === undefined) byMat.set(o.material, (solid = boxOccluder(o, this._occlusion.trustShaders, flat)));
    if (!solid || !drawnFor(o, camera, this._shown)) return false;
    return keptByThree(o, frusta()) && this._occlusion.chosen(-1, o);
  }

  /** Occlusion figures of the last update (frustum-kept, drawn, occluders, ms per stage), or null without occlusion. */
  get occlusion() {
    return this._occlusion ? this._occlusion.stats : null;
  }

  /** The depth pyramid of the last occlusion update, or null. */
  get pyramid() {
    return this._occlusion ? this._occlusion.pyramid : null;
  }

  // True when hiding this subtree's root hides nothing three would draw:
  // every object in it is one of ours out of view, or draws nothing.
  _hideable(o, memo) {
    let r = memo.get(o);
    if (r !== undefined) return r;
    const s = o[STATE];
    r = (s && s.owner === this ? !s.inView : container(o)) && o.children.every((c) => this._hideable(c, memo));
    memo.set(o, r);
    return r;
  }

  _release(o) {
    const user = o[STATE].user;
    delete o.visible;
    delete o[STATE];
    o.visible = user;
  }

  /** Gives every object its own `visible` back (as the user last set it) and frees the module memory. */
  dispose() {
    if (!this.batch || this.batch.disposed) return;
    for (const o of this._managed) if (o[STATE]?.owner === this) this._release(o);
    this.batch.dispose();
    this.output.dispose();
    this._occlusion?.dispose();
  }
}
