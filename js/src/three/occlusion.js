// Occlusion for the three.js helpers: each update draws the frame's
// occluders into a depth pyramid of the camera's view (satc's
// inner-conservative rasterizer), then culls against frustum and pyramid
// in one pass. Occluders are the helper's own volumes the caller marks
// solid (drawn by an inner box), three.js Meshes whose triangles are
// surfaces of opaque objects, or both.

import { Matrix4 } from 'three';
import { frustumFromCamera } from './views.js';

const _inv = new Matrix4();
const _m = new Matrix4();

function fail(satc, status, what) {
  return satc._heap.fail(status, what);
}

/**
 * The occlusion options of a helper, checked once:
 *   size: pyramid width in texels (height follows the camera's aspect),
 *         or [width, height]; default 320 (320 x 180 at 16:9);
 *   occluders: which of the helper's own volumes are solid: true (all),
 *         a function (index) => boolean, or a Uint8Array of flags;
 *         default none;
 *   occluderBox: { center, half } in the geometry's frame: a box inside
 *         every occluding instance's solid (default: the geometry's
 *         bounding box, right for box-like solid geometry only);
 *   meshes: three.js Meshes whose triangles lie on opaque surfaces
 *         (walls, terrain, building shells); their geometry is copied
 *         into module memory once per geometry version;
 *   minTexels: occluders covering fewer level-0 texels are skipped
 *         (default 4).
 */
export class Occlusion {
  constructor(satc, opts, capacity, box, what) {
    if (opts === true) opts = { occluders: true };
    if (!opts || typeof opts !== 'object') fail(satc, -13, `${what}: occlusion must be an object or true`);
    this.satc = satc;
    const size = opts.size ?? 320;
    const dims = Array.isArray(size) ? size : [size, 0];
    if (!dims.every((v, i) => Number.isInteger(v) && (v >= 1 || (i === 1 && v === 0)))) fail(satc, -9, `${what}: occlusion.size`);
    this.size = dims;
    const occ = opts.occluders ?? false;
    if (!(typeof occ === 'boolean' || typeof occ === 'function' || occ instanceof Uint8Array)) {
      fail(satc, -13, `${what}: occlusion.occluders must be true, a function or a Uint8Array`);
    }
    this.occluders = occ;
    const ob = opts.occluderBox ?? box;
    if (!ob || !Array.isArray(ob.center) || !Array.isArray(ob.half)) fail(satc, -13, `${what}: occlusion.occluderBox needs center and half`);
    const meshes = opts.meshes ?? [];
    if (!Array.isArray(meshes) || !meshes.every((m) => m && m.isMesh === true && m.geometry?.attributes?.position)) {
      fail(satc, -13, `${what}: occlusion.meshes must be an array of three.js Meshes`);
    }
    this.meshes = meshes;
    this.minTexels = opts.minTexels ?? 4;
    if (typeof this.minTexels !== 'number' || !(this.minTexels >= 0) || !Number.isFinite(this.minTexels)) fail(satc, -5, `${what}: occlusion.minTexels`);
    this._occ = occ === false ? null : satc.batch('instances', capacity, {}, { localCenter: ob.center, localHalf: ob.half });
    this._pyr = null;
    this._geo = new Map(); // geometry -> { version, mesh }
    this._frustum = undefined;
    /** Figures of the last update: frustum-kept, drawn, occluder count, and milliseconds per stage. */
    this.stats = { frustum: 0, drawn: 0, occluders: 0, ms: { frustum: 0, occluders: 0, test: 0 } };
  }

  _pyramid(camera) {
    let [w, h] = this.size;
    if (h === 0) {
      const aspect = camera.aspect ?? (camera.right - camera.left) / (camera.top - camera.bottom);
      h = Math.min(1024, Math.max(32, Math.round(w / (Number.isFinite(aspect) && aspect > 0 ? aspect : 1))));
    }
    w = Math.min(2048, Math.max(64, w));
    if (!this._pyr || this._pyr.width !== w || this._pyr.height !== h) {
      this._pyr?.dispose();
      this._pyr = this.satc.depthPyramid(w, h);
    }
    return this._pyr;
  }

  _occluderMesh(mesh) {
    const g = mesh.geometry, pos = g.attributes.position, idx = g.index;
    const version = `${pos.version}|${idx ? idx.version : -1}|${pos.count}`;
    let e = this._geo.get(g);
    if (e && e.version === version) return e.mesh;
    e?.mesh.dispose();
    const p = new Float32Array(3 * pos.count);
    for (let i = 0; i < pos.count; i++) {
      p[3 * i] = pos.getX(i);
      p[3 * i + 1] = pos.getY(i);
      p[3 * i + 2] = pos.getZ(i);
    }
    let ind = null;
    if (idx) ind = idx.array instanceof Uint16Array || idx.array instanceof Uint32Array ? idx.array : Uint32Array.from(idx.array);
    else if (pos.count % 3 !== 0) return null;
    const m = this.satc.occluderMesh(p, ind);
    this._geo.set(g, { version, mesh: m });
    return m;
  }

  /**
   * Culls volumes [0, count) of `batch` (in `model`'s frame) for one
   * camera: frustum, occluders, then frustum + pyramid. Returns the
   * visible indices (a view of `output`) and the count.
   */
  cull(camera, batch, count, mode, output, model) {
    const satc = this.satc, st = this.stats;
    const t0 = performance.now();
    const f = (this._frustum = frustumFromCamera(satc, camera, this._frustum, model));
    if (f.kind !== 'perspective' && f.kind !== 'orthographic') {
      satc.cull(f, batch, { mode, first: 0, count, into: output, output: 'indices' });
      st.frustum = st.drawn = output.visible;
      return { indices: output.indices, visible: [output.visible] };
    }
    const pyr = this._pyramid(camera).begin(f);
    let occluders = 0;
    let t1 = t0;
    if (this._occ) {
      satc.cull(f, batch, { mode: 'conservative', first: 0, count, into: output, output: 'indices' });
      st.frustum = output.visible;
      t1 = performance.now();
      const kept = output.indices, src = batch.matrices, dst = this._occ.matrices, sel = this.occluders;
      for (let k = 0; k < kept.length; k++) {
        const i = kept[k];
        if (sel === true || (typeof sel === 'function' ? sel(i) : sel[i])) {
          dst.set(src.subarray(16 * i, 16 * i + 16), 16 * occluders++);
        }
      }
      if (occluders) pyr.rasterize(this._occ, { first: 0, count: occluders, minTexels: this.minTexels });
    }
    st.ms.frustum = t1 - t0;
    if (this.meshes.length) {
      _inv.copy(model).invert();
      for (const mesh of this.meshes) {
        if (!mesh.visible) continue;
        const om = this._occluderMesh(mesh);
        if (!om) continue;
        mesh.updateWorldMatrix(true, false);
        _m.multiplyMatrices(_inv, mesh.matrixWorld);
        pyr.rasterizeMesh(om, { matrix: _m.elements, minTexels: this.minTexels });
        occluders++;
      }
    }
    pyr.build();
    const t2 = performance.now();
    satc.cull(f, batch, { mode, first: 0, count, into: output, output: 'indices', occlusion: pyr });
    const t3 = performance.now();
    st.occluders = occluders;
    st.drawn = output.visible;
    if (!this._occ) st.frustum = output.visible + output.occluded;
    st.ms.occluders = t2 - t1;
    st.ms.test = t3 - t2;
    return { indices: output.indices, visible: [output.visible] };
  }

  /** The pyramid of the last update (null before the first). */
  get pyramid() {
    return this._pyr;
  }

  dispose() {
    this._pyr?.dispose();
    this._occ?.dispose();
    for (const e of this._geo.values()) e.mesh.dispose();
    this._geo.clear();
  }
}
