// What three draws, and what of it hides what lies behind: the one rule
// by which every helper (InstanceCuller, BatchedCuller, SceneCuller and
// their occluder meshes) decides whether something occludes. An occluder
// must be drawn by three for the camera (its own and its ancestors'
// `visible`, its layers, three's own frustum test), only through the
// triangles three draws (draw range, groups, material arrays), only from
// the side three draws (a material's side against the camera), and only
// by a material that writes opaque depth wherever it draws; and nothing
// in view may write depth without replacing the colour behind it.

import {
  BackSide, DoubleSide, Frustum, LessDepth, LessEqualDepth, Matrix4, NoBlending, NormalBlending,
  WebGLCoordinateSystem,
} from 'three';

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
 * Does material `m` write its depth wherever its triangles lie? Not
 * without depth writes or the depth test, nor with clipping planes of its
 * own (cut away parts draw nothing).
 */
export function writesDepth(m) {
  return m.depthWrite !== false && m.depthTest !== false && !(m.clippingPlanes && m.clippingPlanes.length);
}

/**
 * Does three draw material `m` as an opaque surface that hides what lies
 * behind it, wherever its triangles are? Visible; not transparent (at
 * any opacity), alpha-tested, alpha-hashed, alpha-to-coverage,
 * transmissive or wireframe; blended not at all (normal blending is off
 * for opaque materials); colour and depth written, the depth test the
 * usual nearer-wins (less or less-or-equal); no stencil test; vertices
 * where the geometry holds them (see movesVertices). Its side is checked
 * apart, against the camera.
 */
export function opaqueMaterial(m, trust = false) {
  return !!m && m.visible !== false && m.transparent !== true && !(m.alphaTest > 0) && m.alphaHash !== true &&
    m.alphaToCoverage !== true && !(m.transmission > 0) && m.wireframe !== true && m.colorWrite !== false &&
    (m.blending === undefined || m.blending === NormalBlending || m.blending === NoBlending) &&
    [LessDepth, LessEqualDepth].includes(m.depthFunc ?? LessEqualDepth) && m.stencilWrite !== true &&
    writesDepth(m) && !movesVertices(m, trust);
}

/**
 * Does material `m` write depth in three's opaque pass without replacing
 * the colour behind it (colorWrite false, or a blending other than
 * normal)? Such a surface in front of an occluder keeps the occluder
 * from drawing there, while what was drawn before it stays seen through
 * it: with one in view, occlusion is not safe.
 */
export function masksDepth(m) {
  return !!m && m.visible !== false && m.transparent !== true && !(m.transmission > 0) && m.depthWrite !== false &&
    m.depthTest !== false && (m.colorWrite === false || !(m.blending === undefined || m.blending === NormalBlending || m.blending === NoBlending));
}

/** Does three draw a depth-masking material of `o` (see masksDepth) for `camera`? */
export function masksDepthFor(o, camera, shown = undefined) {
  const m = o.material;
  if (!m || !(Array.isArray(m) ? m.some(masksDepth) : masksDepth(m))) return false;
  if (o.isMesh === true && !drawnParts(o).some((p) => masksDepth(p.material))) return false;
  return drawnFor(o, camera, shown);
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
 * True when three's renderer considers `o` for `camera`: it and every
 * ancestor visible (`shown(x)`, default x.visible) and its layers matching
 * the camera's. What of it is drawn is drawnParts' answer.
 */
export function drawnFor(o, camera, shown = (x) => x.visible) {
  if (!o.layers.test(camera.layers)) return false;
  for (let x = o; x; x = x.parent) if (shown(x) === false) return false;
  return true;
}

/**
 * The parts three draws of `mesh`: { start, end, material } index ranges
 * (whole triangles) of its draw range, per group when the material is an
 * array (a group whose material is missing or hidden draws nothing, and
 * an array on a geometry without groups draws nothing at all).
 */
export function drawnParts(mesh) {
  const g = mesh.geometry, dr = g.drawRange, pos = g.attributes.position;
  const total = g.index ? g.index.count : pos ? pos.count : 0;
  const lo = Math.max(0, dr.start), hi = Math.min(total, dr.start + dr.count);
  const parts = [];
  const add = (s, e, material) => {
    const end = s + 3 * Math.floor(Math.max(0, e - s) / 3);
    if (end > s) parts.push({ start: s, end, material });
  };
  const m = mesh.material;
  if (Array.isArray(m)) {
    for (const grp of g.groups) {
      const gm = m[grp.materialIndex];
      if (gm && gm.visible !== false) add(Math.max(lo, grp.start), Math.min(hi, grp.start + grp.count), gm);
    }
  } else if (m && m.visible !== false) {
    add(lo, hi, m);
  }
  return parts;
}

/** Does `parts` (sorted or not) cover every whole triangle of `mesh`'s geometry? */
function coversAll(mesh, parts) {
  const g = mesh.geometry, total = g.index ? g.index.count : g.attributes.position?.count ?? 0;
  const want = 3 * Math.floor(total / 3);
  let reach = 0;
  for (const p of [...parts].sort((a, b) => a.start - b.start)) {
    if (p.start > reach) return false;
    reach = Math.max(reach, p.end);
  }
  return want > 0 && reach >= want;
}

/**
 * May `mesh` hide what lies behind an occluder box inside its geometry
 * (its instances' boxes for InstancedMesh and BatchedMesh)? Only when
 * three draws every triangle of the geometry, each with an opaque
 * material showing its front faces (a box inside a closed solid is
 * behind the front faces three draws, from any eye outside it), and,
 * for a flat geometry (an open surface: a plane), only when the material
 * is double-sided: seen from behind, three draws nothing of a
 * single-sided plane.
 */
export function boxOccluder(mesh, trust = false, flat = false) {
  const parts = drawnParts(mesh);
  if (!coversAll(mesh, parts)) return false;
  return parts.every(({ material: m }) => opaqueMaterial(m, trust) && m.side !== BackSide && (!flat || m.side === DoubleSide));
}

/** Is the box of half extents `h` (3 numbers from index k) flat: zero along some axis? */
export function flatBox(h, k = 0) {
  return !(h[k] > 0 && h[k + 1] > 0 && h[k + 2] > 0);
}

/**
 * The triangles of `mesh` that hide what lies behind them, by the side
 * three draws: { side, spans } per side (FrontSide, BackSide, DoubleSide),
 * spans the [start, end) index ranges of parts with an opaque material.
 * Empty for a mesh three does not draw as stored (see drawnAsStored).
 */
export function opaqueSpans(mesh, trust = false) {
  if (!drawnAsStored(mesh)) return [];
  const bySide = new Map();
  for (const { start, end, material: m } of drawnParts(mesh)) {
    if (!opaqueMaterial(m, trust)) continue;
    const side = m.side ?? 0;
    if (!bySide.has(side)) bySide.set(side, []);
    bySide.get(side).push([start, end]);
  }
  return [...bySide].map(([side, spans]) => ({ side, spans }));
}

const _vp = new Matrix4();
const _frusta = [new Frustum(), new Frustum()];

/**
 * three's own frustum tests for `camera` (the WebGL renderer's and the
 * camera's coordinate system's): an occluder either one culls is not
 * drawn by one of the renderers. The frusta are reused by the next call.
 */
export function threeFrusta(camera) {
  _vp.multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse);
  _frusta[0].setFromProjectionMatrix(_vp, WebGLCoordinateSystem, camera.reversedDepth === true);
  const system = camera.coordinateSystem ?? WebGLCoordinateSystem;
  if (system === WebGLCoordinateSystem) return _frusta.slice(0, 1);
  _frusta[1].setFromProjectionMatrix(_vp, system, camera.reversedDepth === true);
  return _frusta;
}

/** Does three's frustum test (either renderer's) keep `o`, or does `o` skip it (frustumCulled false)? */
export function keptByThree(o, frusta) {
  if (o.frustumCulled === false) return true;
  return frusta.every((f) => (typeof o.intersectsFrustum === 'function' ? o.intersectsFrustum(f) : f.intersectsObject(o)));
}

// Is the window winding of `camera` mirrored: does a triangle wound
// counter-clockwise seen from the eye come out clockwise on screen? By a
// mirroring view matrix (three leaves a camera's own scale out of
// matrixWorldInverse, so only one set by hand) or a projection flipping
// x or y. three culls faces by their screen winding.
function mirrored(camera) {
  const v = camera.matrixWorldInverse.elements, P = camera.projectionMatrix.elements;
  const det = v[0] * (v[5] * v[10] - v[6] * v[9]) - v[4] * (v[1] * v[10] - v[2] * v[9]) + v[8] * (v[1] * v[6] - v[2] * v[5]);
  return (det < 0) !== (P[0] < 0) !== (P[5] < 0);
}

/**
 * The rasterizer flags that draw only the faces three draws of triangles
 * with material side `side` under model matrix `m` (elements, in the
 * pyramid's frame) for `camera`: { cullBack, frontCW }.
 */
export function sideFlags(side, m, camera) {
  if (side === DoubleSide) return { cullBack: false, frontCW: false };
  const det = m[0] * (m[5] * m[10] - m[6] * m[9]) - m[4] * (m[1] * m[10] - m[2] * m[9]) + m[8] * (m[1] * m[6] - m[2] * m[5]);
  // three's front faces wind counter-clockwise, clockwise under a mirroring matrix
  const cw = (det < 0) !== (side === BackSide) !== mirrored(camera);
  return { cullBack: true, frontCW: cw };
}
