// What the occlusion helpers share: the depth pyramid sized for a camera,
// and the satc occluder mesh of a three.js Mesh, cached per geometry,
// holding only the triangles three draws (its draw range and, with an
// array of materials, its groups): a triangle three leaves out must not
// hide what is seen through it.

/**
 * The pyramid for `camera`: `size` is [width, height], height 0 following
 * the view's own aspect (view offsets included: the projection's x and y
 * scales); width clamped to 64..2048, height to 32..1024. `pyr` is reused
 * when its size matches, else disposed and replaced.
 */
export function pyramidFor(satc, pyr, size, camera) {
  let [w, h] = size;
  if (h === 0) {
    const e = camera.projectionMatrix.elements, aspect = Math.abs(e[5] / e[0]);
    h = Math.round(w / (Number.isFinite(aspect) && aspect > 0 ? aspect : 1));
  }
  w = Math.min(2048, Math.max(64, w));
  h = Math.min(1024, Math.max(32, h));
  if (pyr && pyr.width === w && pyr.height === h) return pyr;
  pyr?.dispose();
  return satc.depthPyramid(w, h);
}

// The [start, end) index ranges three draws of `mesh` (whole triangles).
function drawnRanges(mesh, total) {
  const g = mesh.geometry, dr = g.drawRange;
  const lo = Math.max(0, dr.start), hi = Math.min(total, dr.start + dr.count);
  const spans = [];
  if (Array.isArray(mesh.material) && g.groups.length) {
    for (const grp of g.groups) {
      if (!mesh.material[grp.materialIndex]) continue; // three draws nothing there
      spans.push([Math.max(lo, grp.start), Math.min(hi, grp.start + grp.count)]);
    }
  } else {
    spans.push([lo, hi]);
  }
  return spans.map(([s, e]) => [s, s + 3 * Math.floor(Math.max(0, e - s) / 3)]).filter(([s, e]) => e > s);
}

/** The occlusion option trustShaders: a boolean, default false. */
export function trustShadersOf(satc, opts, what) {
  const t = opts.trustShaders ?? false;
  if (typeof t !== 'boolean') satc._heap.fail(-13, `${what}: occlusion.trustShaders must be a boolean`);
  return t;
}

/**
 * Does material `m` move vertices on the GPU: a displacement map, or a
 * vertex stage of the user's own (a shader material, onBeforeCompile, a
 * position node) unless `trust` (the occlusion option trustShaders: such
 * stages place the geometry as three's own do)? Then its triangles are
 * not where they are stored.
 */
export function movesVertices(m, trust = false) {
  return !!(m.displacementMap && m.displacementScale !== 0) ||
    (!trust && (m.isShaderMaterial === true || !!m.positionNode || Object.hasOwn(m, 'onBeforeCompile')));
}

/**
 * Does material `m` write its depth wherever its triangles lie (so they
 * can hide what lies behind)? Not without depth writes or the depth
 * test, nor with clipping planes of its own (cut away parts draw nothing).
 */
export function writesDepth(m) {
  return m.depthWrite !== false && m.depthTest !== false && !(m.clippingPlanes && m.clippingPlanes.length);
}

/**
 * May occlusion hide `o`: does three hide its fragments behind nearer
 * depth, within its geometry's box? Not where a material skips the depth
 * test or passes it farther (depthFunc other than never, less,
 * less-or-equal, equal): such an object is seen through any occluder;
 * nor where a material moves vertices (its box does not bound what it
 * draws).
 */
export function occludable(o, trust = false) {
  const ok = (m) => !!m && m.depthTest !== false && [0, 2, 3, 4].includes(m.depthFunc ?? 3) && !movesVertices(m, trust);
  return Array.isArray(o.material) ? o.material.every(ok) : ok(o.material);
}

/**
 * Is `mesh`'s geometry drawn where it is stored, as far as the mesh itself
 * goes (its materials are checked apart)? Not for instances, skinning or
 * active morph targets: such a mesh occludes nothing.
 */
export function drawnAsStored(mesh) {
  if (mesh.isSkinnedMesh || mesh.isInstancedMesh || mesh.isBatchedMesh) return false;
  const morph = mesh.geometry.morphAttributes?.position;
  return !(morph && morph.length && (mesh.morphTargetInfluences ?? []).some((w) => w !== 0));
}

/**
 * The satc occluder mesh of `mesh` (null: nothing three would draw, a
 * position that is not finite, triangles three moves on the GPU, or a
 * material that writes no depth),
 * kept in `cache` (geometry -> entry) until the geometry's positions,
 * index, draw range or the groups drawn change.
 */
export function occluderMeshFor(satc, cache, mesh, trust = false) {
  const mats = [mesh.material].flat();
  if (!drawnAsStored(mesh) || !mats.every((m) => m && writesDepth(m) && !movesVertices(m, trust))) return null;
  const g = mesh.geometry, pos = g.attributes.position, idx = g.index;
  const total = idx ? idx.count : pos.count;
  const spans = drawnRanges(mesh, total);
  const version = `${pos.version}|${idx ? idx.version : -1}|${pos.count}|${spans.join(';')}`;
  let e = cache.get(g);
  if (e && e.version === version) return e.mesh;
  e?.mesh?.dispose();
  cache.delete(g);
  const p = new Float32Array(3 * pos.count);
  for (let i = 0; i < pos.count; i++) {
    p[3 * i] = pos.getX(i);
    p[3 * i + 1] = pos.getY(i);
    p[3 * i + 2] = pos.getZ(i);
  }
  const n = spans.reduce((a, [s, t]) => a + t - s, 0);
  let ind = null;
  if (n > 0 && !(spans.length === 1 && spans[0][0] === 0 && (idx ? n === idx.array.length : n === pos.count))) {
    ind = new Uint32Array(n);
    let k = 0;
    for (const [s, t] of spans) for (let i = s; i < t; i++) ind[k++] = idx ? idx.array[i] : i;
  } else if (idx && n > 0) {
    ind = idx.array instanceof Uint16Array || idx.array instanceof Uint32Array ? idx.array : Uint32Array.from(idx.array);
  }
  const usable = n > 0 && p.every(Number.isFinite);
  const m = usable ? satc.occluderMesh(p, ind) : null;
  cache.set(g, { version, mesh: m });
  return m;
}

/** Disposes every occluder mesh of `cache` and empties it. */
export function disposeOccluderMeshes(cache) {
  for (const e of cache.values()) e.mesh?.dispose();
  cache.clear();
}
