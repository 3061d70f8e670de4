// Only what three draws opaque occludes, in every helper: a wall that
// three draws see-through, from behind, in part or not at all must hide
// nothing behind it, whether it is one of SceneCuller's objects, an
// instance of an InstanceCuller or BatchedCuller, or an occluder mesh of
// any of the three. Each case is checked against the plain wall (which
// must hide the boxes behind it), so the test cannot pass by hiding
// nothing at all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as THREE from 'three';
import { load } from '../src/index.js';
import { BatchedCuller, InstanceCuller, SceneCuller } from '../src/three.js';

const satc = await load();
const unit = new THREE.BoxGeometry(1, 1, 1);
const plain = () => new THREE.MeshBasicMaterial();

function camera() {
  const c = new THREE.PerspectiveCamera(60, 1.5, 0.5, 200);
  c.updateMatrixWorld();
  return c;
}

// Boxes behind the wall's place (z = -10, x and y in [-20, 20]), apart on screen.
const BEHIND = Array.from({ length: 12 }, (_, i) => [-11 + 2 * i, (i % 3) - 1, -14 - i]);

/** What three draws of the boxes: in its frustum (nothing else lies in front of them but the wall). */
function inFrustum(cam, points) {
  const f = new THREE.Frustum().setFromProjectionMatrix(new THREE.Matrix4().multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse));
  return points.map((p) => f.intersectsBox(new THREE.Box3().setFromCenterAndSize(new THREE.Vector3(...p), new THREE.Vector3(1, 1, 1))));
}

// The wall variants: [name, make() => Mesh at z = -10 facing the camera (or as the case says)].
const box40 = () => new THREE.BoxGeometry(40, 40, 1);
const oneFace = () => {
  const g = box40();
  g.setDrawRange(30, 6); // the -z face only, turned away from the camera: three draws none of it
  return g;
};
const CASES = [
  ['transparent, opacity 0', () => new THREE.Mesh(box40(), new THREE.MeshBasicMaterial({ transparent: true, opacity: 0 }))],
  ['transparent, opacity 0.5', () => new THREE.Mesh(box40(), new THREE.MeshBasicMaterial({ transparent: true, opacity: 0.5 }))],
  ['alphaTest 0.5', () => new THREE.Mesh(box40(), new THREE.MeshBasicMaterial({ alphaTest: 0.5 }))],
  ['alphaHash', () => new THREE.Mesh(box40(), new THREE.MeshBasicMaterial({ alphaHash: true }))],
  ['wireframe', () => new THREE.Mesh(box40(), new THREE.MeshBasicMaterial({ wireframe: true }))],
  ['colorWrite false', () => new THREE.Mesh(box40(), new THREE.MeshBasicMaterial({ colorWrite: false }))],
  ['depthWrite false', () => new THREE.Mesh(box40(), new THREE.MeshBasicMaterial({ depthWrite: false }))],
  ['additive blending', () => new THREE.Mesh(box40(), new THREE.MeshBasicMaterial({ blending: THREE.AdditiveBlending }))],
  ['transmission', () => new THREE.Mesh(box40(), new THREE.MeshPhysicalMaterial({ transmission: 1 }))],
  ['depthFunc greater', () => new THREE.Mesh(box40(), new THREE.MeshBasicMaterial({ depthFunc: THREE.GreaterDepth }))],
  ['stencil test', () => new THREE.Mesh(box40(), new THREE.MeshBasicMaterial({ stencilWrite: true, stencilFunc: THREE.EqualStencilFunc }))],
  ['hidden material', () => new THREE.Mesh(box40(), new THREE.MeshBasicMaterial({ visible: false }))],
  // a box's back side: three draws the inside of its far face, so only as a box occluder
  // (whose near face lies in front of what three draws) it must hide nothing
  ['back side (box occluders)', () => new THREE.Mesh(box40(), new THREE.MeshBasicMaterial({ side: THREE.BackSide }))],
  ['single-sided plane seen from behind', () => {
    const m = new THREE.Mesh(new THREE.PlaneGeometry(40, 40), plain());
    m.rotation.y = Math.PI; // its front faces -z, away from the camera
    return m;
  }],
  ['single-sided plane under a mirroring matrix, seen from behind', () => {
    const m = new THREE.Mesh(new THREE.PlaneGeometry(40, 40), plain());
    m.scale.x = -1; // a mirroring matrix: three's front faces wind clockwise, still toward +z
    m.rotation.y = Math.PI; // then turned away from the camera
    return m;
  }],
  ['setDrawRange(0, 0)', () => {
    const g = box40();
    g.setDrawRange(0, 0);
    return new THREE.Mesh(g, plain());
  }],
  ['a draw range of one face', () => new THREE.Mesh(oneFace(), plain())],
  ['material = [m] on a BoxGeometry (one group drawn)', () => new THREE.Mesh(box40(), [plain()])],
  ['a material array on a geometry without groups', () => {
    const g = box40();
    g.clearGroups();
    return new THREE.Mesh(g, [plain(), plain()]);
  }],
  ['a hidden group material', () => {
    const mats = Array.from({ length: 6 }, plain);
    mats[4].visible = false; // the +z face, toward the camera
    return new THREE.Mesh(box40(), mats);
  }],
];
// Walls that three draws opaque toward the camera: each must hide the boxes.
const CONTROLS = [
  ['plain box', () => new THREE.Mesh(box40(), plain())],
  ['single-sided plane seen from the front', () => new THREE.Mesh(new THREE.PlaneGeometry(40, 40), plain())],
  ['double-sided plane seen from behind', () => {
    const m = new THREE.Mesh(new THREE.PlaneGeometry(40, 40), new THREE.MeshBasicMaterial({ side: THREE.DoubleSide }));
    m.rotation.y = Math.PI;
    return m;
  }],
  ['back side of a box, its far face drawn from inside (meshes)', () => new THREE.Mesh(box40(), new THREE.MeshBasicMaterial({ side: THREE.BackSide }))],
  ['back side of a plane seen from behind', () => {
    const m = new THREE.Mesh(new THREE.PlaneGeometry(40, 40), new THREE.MeshBasicMaterial({ side: THREE.BackSide }));
    m.rotation.y = Math.PI;
    return m;
  }],
];

function wallAt(make) {
  const w = make();
  w.position.set(0, 0, -10);
  w.updateMatrixWorld();
  return w;
}

function boxes() {
  return BEHIND.map((p) => {
    const o = new THREE.Mesh(unit, plain());
    o.position.set(...p);
    o.updateMatrixWorld();
    return o;
  });
}

// Each helper's answer: per box behind the wall, drawn or not. Box
// occluders need a closed or flat geometry, so the plane cases run only
// where the helper can hold a plane.
const HELPERS = {
  'SceneCuller object': (wall, cam) => {
    const bs = boxes();
    const sc = new SceneCuller(satc, [wall, ...bs], { occlusion: { occluders: (o) => o === wall, minTexels: 0 } });
    sc.update(cam);
    const r = bs.map((o) => o.visible);
    sc.dispose();
    return r;
  },
  'SceneCuller, occlusion: true': (wall, cam) => {
    const bs = boxes();
    const sc = new SceneCuller(satc, [wall, ...bs], { occlusion: true });
    sc.update(cam);
    const r = bs.map((o) => o.visible);
    sc.dispose();
    return r;
  },
  'SceneCuller mesh': (wall, cam, meshes = [wall]) => {
    const bs = boxes();
    const sc = new SceneCuller(satc, bs, { occlusion: { meshes } });
    sc.update(cam);
    const r = bs.map((o) => o.visible);
    sc.dispose();
    return r;
  },
  'InstanceCuller mesh': (wall, cam, meshes = [wall]) => {
    const im = new THREE.InstancedMesh(unit, plain(), BEHIND.length);
    BEHIND.forEach((p, i) => im.setMatrixAt(i, new THREE.Matrix4().makeTranslation(...p)));
    const ic = new InstanceCuller(satc, im, { occlusion: { meshes } });
    const k = ic.update(cam);
    const drawn = new Set(Array.from({ length: k }, (_, j) => ic.sourceIndex(j)));
    ic.dispose();
    return BEHIND.map((_, i) => drawn.has(i));
  },
  'BatchedCuller mesh': (wall, cam, meshes = [wall]) => {
    const bm = new THREE.BatchedMesh(20, 1000, 3000, plain());
    const g = bm.addGeometry(unit);
    for (const p of BEHIND) bm.setMatrixAt(bm.addInstance(g), new THREE.Matrix4().makeTranslation(...p));
    const bc = new BatchedCuller(satc, bm, { occlusion: { meshes } });
    bc.update(cam);
    const r = BEHIND.map((_, i) => bm.getVisibleAt(i));
    bc.dispose();
    return r;
  },
  // the wall as instance 0 of an instanced box (its material and draw range are the boxes' too)
  'InstanceCuller instance': (wall, cam) => {
    if (wall.geometry.type !== 'BoxGeometry') return null;
    const g = unit.clone();
    g.groups = wall.geometry.groups.map((x) => ({ ...x }));
    g.setDrawRange(wall.geometry.drawRange.start, wall.geometry.drawRange.count);
    const im = new THREE.InstancedMesh(g, wall.material, BEHIND.length + 1);
    im.setMatrixAt(0, new THREE.Matrix4().compose(wall.position, wall.quaternion, new THREE.Vector3(40, 40, 1).multiply(wall.scale)));
    BEHIND.forEach((p, i) => im.setMatrixAt(i + 1, new THREE.Matrix4().makeTranslation(...p)));
    const ic = new InstanceCuller(satc, im, { occlusion: { occluders: (i) => i === 0, minTexels: 0 } });
    const k = ic.update(cam);
    const drawn = new Set(Array.from({ length: k }, (_, j) => ic.sourceIndex(j)));
    ic.dispose();
    return BEHIND.map((_, i) => drawn.has(i + 1));
  },
  // the wall as an instance of a BatchedMesh with the wall's material
  'BatchedCuller instance': (wall, cam) => {
    if (Array.isArray(wall.material) || wall.geometry.drawRange.count !== Infinity) return null;
    const bm = new THREE.BatchedMesh(20, 2000, 6000, wall.material);
    const gw = bm.addGeometry(wall.geometry), gb = bm.addGeometry(unit);
    bm.setMatrixAt(bm.addInstance(gw), wall.matrixWorld);
    BEHIND.forEach((p) => bm.setMatrixAt(bm.addInstance(gb), new THREE.Matrix4().makeTranslation(...p)));
    const bc = new BatchedCuller(satc, bm, { occlusion: { occluders: (i) => i === 0, minTexels: 0 } });
    bc.update(cam);
    const r = BEHIND.map((_, i) => bm.getVisibleAt(i + 1));
    bc.dispose();
    return r;
  },
};

test('a wall three does not draw opaque toward the camera hides nothing, in every helper', (t) => {
  const cam = camera();
  const seen = inFrustum(cam, BEHIND);
  assert.ok(seen.filter(Boolean).length >= 8, 'the boxes are in view');
  const failures = [];
  let runs = 0;
  for (const [name, make] of CASES) {
    for (const [helper, run] of Object.entries(HELPERS)) {
      if (name.endsWith('(box occluders)') && helper.endsWith('mesh')) continue;
      const drawn = run(wallAt(make), cam);
      if (drawn === null) continue;
      runs++;
      const hidden = seen.filter((s, i) => s && !drawn[i]).length;
      if (hidden) failures.push(`${name} / ${helper}: ${hidden} of ${seen.filter(Boolean).length} boxes three sees are hidden`);
    }
  }
  t.diagnostic(`${runs} wall x helper cases, ${failures.length} hide boxes three sees`);
  assert.deepEqual(failures, []);
});

test('a wall three draws opaque toward the camera still hides the boxes behind it, in every helper', () => {
  const cam = camera();
  const seen = inFrustum(cam, BEHIND);
  for (const [name, make] of CONTROLS) {
    for (const [helper, run] of Object.entries(HELPERS)) {
      // a single-sided plane is no box occluder (an open surface): only as a mesh
      const plane = make().geometry.type === 'PlaneGeometry';
      if (plane && !helper.endsWith('mesh') && !(name.startsWith('double') && helper !== 'InstanceCuller instance')) continue;
      if (name.endsWith('(meshes)') && !helper.endsWith('mesh')) continue;
      const drawn = run(wallAt(make), cam);
      if (drawn === null) continue;
      const hidden = seen.filter((s, i) => s && !drawn[i]).length;
      assert.ok(hidden >= 6, `${name} / ${helper}: only ${hidden} boxes hidden`);
    }
  }
});

test('a single-sided occluder mesh hides from the side three draws, under a mirrored projection too', () => {
  // three culls faces by their screen winding: a projection flipping x
  // flips which side it draws; a camera's own scale (left out of its view
  // matrix) changes nothing
  for (const mirror of ['none', 'projection', 'camera scale']) {
    const cam = camera();
    if (mirror === 'camera scale') {
      cam.scale.x = -1;
      cam.updateMatrixWorld();
    }
    if (mirror === 'projection') cam.projectionMatrix.elements[0] *= -1;
    const seen = inFrustum(cam, BEHIND);
    const front = () => new THREE.Mesh(new THREE.PlaneGeometry(40, 40), plain());
    const back = () => new THREE.Mesh(new THREE.PlaneGeometry(40, 40), new THREE.MeshBasicMaterial({ side: THREE.BackSide }));
    for (const [name, make, drawn] of [['front side', front, mirror !== 'projection'], ['back side', back, mirror === 'projection']]) {
      const shown = HELPERS['SceneCuller mesh'](wallAt(make), cam);
      const hidden = seen.filter((s, i) => s && !shown[i]).length;
      if (drawn) assert.ok(hidden >= 6, `${mirror}, ${name}: three draws the plane, ${hidden} hidden`);
      else assert.equal(hidden, 0, `${mirror}, ${name}: three draws nothing of the plane`);
    }
  }
});

test('a surface writing depth but no colour in front of an occluder leaves what is behind drawn, in every helper', () => {
  // three draws opaque objects by material, then depth: boxes drawn before
  // the mask stay seen through it, and the wall behind the mask fails the
  // depth test there (checked in Chromium by test:idbuffer's wall scenes)
  const cam = camera();
  const seen = inFrustum(cam, BEHIND);
  const wall = () => wallAt(() => new THREE.Mesh(box40(), plain()));
  const mask = (m) => {
    const o = new THREE.Mesh(new THREE.PlaneGeometry(40, 40), m);
    o.position.set(0, 0, -8);
    o.updateMatrixWorld();
    return o;
  };
  const masks = {
    'colorWrite false': () => new THREE.MeshBasicMaterial({ colorWrite: false }),
    'additive blending': () => new THREE.MeshBasicMaterial({ blending: THREE.AdditiveBlending }),
    'none (a plain surface)': null,
  };
  for (const [name, mat] of Object.entries(masks)) {
    const runs = {
      'SceneCuller object': () => {
        const bs = boxes(), w = wall(), k = mask(mat ? mat() : plain());
        const sc = new SceneCuller(satc, [k, w, ...bs], { occlusion: { occluders: (o) => o === w } });
        sc.update(cam);
        const r = bs.map((o) => o.visible);
        sc.dispose();
        return r;
      },
      'SceneCuller mesh': () => HELPERS['SceneCuller mesh'](null, cam, [mask(mat ? mat() : plain()), wall()]),
      'InstanceCuller mesh': () => HELPERS['InstanceCuller mesh'](null, cam, [mask(mat ? mat() : plain()), wall()]),
      'BatchedCuller mesh': () => HELPERS['BatchedCuller mesh'](null, cam, [mask(mat ? mat() : plain()), wall()]),
    };
    for (const [helper, run] of Object.entries(runs)) {
      const drawn = run();
      const hidden = seen.filter((s, i) => s && !drawn[i]).length;
      if (mat) assert.equal(hidden, 0, `mask ${name} / ${helper}: ${hidden} boxes hidden`);
      else assert.ok(hidden >= 6, `${name} / ${helper}: the wall hides only ${hidden}`);
    }
  }
});
