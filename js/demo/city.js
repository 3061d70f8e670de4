// @ts-check
// The demo's city and camera path, shared by the page and the node test
// (same seed, same three.js math: the same visible count in both).
import * as THREE from 'three';

/** A seeded generator (mulberry32); the tests use it too. */
/** @param {number} seed */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Interleaves the bits of two 16-bit numbers (Z order). @param {number} x @param {number} z */
function morton(x, z) {
  let k = 0;
  for (let b = 0; b < 16; b++) k |= (((x >> b) & 1) << (2 * b)) | (((z >> b) & 1) << (2 * b + 1));
  return k >>> 0;
}

export const CITY_SIZE = 2400; // metres across
export const FAR = 1200;

/**
 * n buildings on lots of a street grid: world matrices (16 floats each,
 * column-major, for a unit box whose base is at y = 0) and colours.
 * @param {number} n
 */
export function makeCity(n, seed = 2026) {
  const r = rng(seed);
  const matrices = new Float32Array(16 * n), colors = new Float32Array(3 * n);
  const m = new THREE.Matrix4(), q = new THREE.Quaternion(), p = new THREE.Vector3(), s = new THREE.Vector3();
  const up = new THREE.Vector3(0, 1, 0), c = new THREE.Color();
  const lot = 7, lots = Math.floor(CITY_SIZE / lot);
  // lots, block by block (as a city is built and an engine stores it):
  // neighbours in the arrays are neighbours in space
  const picks = [];
  for (let i = 0; i < n; i++) {
    let gx, gz;
    do {
      gx = Math.floor(r() * lots);
      gz = Math.floor(r() * lots);
    } while (gx % 9 === 0 || gz % 9 === 0); // streets
    picks.push([morton(Math.floor(gx / 9), Math.floor(gz / 9)) * 131072 + i, gx, gz]);
  }
  picks.sort((a, b) => a[0] - b[0]);
  for (let i = 0; i < n; i++) {
    const gx = picks[i][1], gz = picks[i][2];
    const d = Math.hypot(gx - lots / 2, gz - lots / 2) / (lots / 2);
    const h = 4 + (1 - Math.min(d, 1)) ** 3 * 110 * r() + 12 * r();
    const w = 3 + 3 * r(), dz = 3 + 3 * r();
    p.set((gx + 0.5) * lot - CITY_SIZE / 2, 0, (gz + 0.5) * lot - CITY_SIZE / 2);
    q.setFromAxisAngle(up, (r() - 0.5) * 0.3);
    s.set(w, h, dz);
    m.compose(p, q, s).toArray(matrices, 16 * i);
    const g = 0.45 + 0.4 * r();
    c.setRGB(g * (0.9 + 0.2 * r()), g * (0.9 + 0.1 * r()), g * (0.95 + 0.15 * r()));
    colors.set([c.r, c.g, c.b], 3 * i);
  }
  return { matrices, colors };
}

/** The unit box of every building: base at y = 0. */
export function buildingGeometry() {
  return new THREE.BoxGeometry(1, 1, 1).translate(0, 0.5, 0);
}

/**
 * The camera at time t (seconds): circling the centre at rooftop height.
 * @param {THREE.PerspectiveCamera} camera
 * @param {number} t
 */
export function placeCamera(camera, t) {
  const a = t * 0.08;
  const rad = 420 + 120 * Math.sin(t * 0.05);
  camera.position.set(Math.cos(a) * rad, 130 + 30 * Math.sin(t * 0.3), Math.sin(a) * rad);
  const ahead = a + 0.7;
  camera.lookAt(Math.cos(ahead) * rad * 0.55, 0, Math.sin(ahead) * rad * 0.55);
  camera.updateMatrixWorld();
  return camera;
}

/** @param {number} aspect */
export function makeCamera(aspect) {
  return new THREE.PerspectiveCamera(60, aspect, 0.5, FAR);
}
