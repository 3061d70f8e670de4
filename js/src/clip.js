// The clip volume of a view-projection matrix taken as exact doubles, as a
// satc camera that holds it. Rounding the matrix to float32 first (what
// satc_frustum_from_matrix is given) moves the far plane, which comes from
// two nearly equal rows, by up to about 2^-24 f^2 / n. Here the volume's
// eight corners are solved in double from the matrix's own planes, and a
// camera is chosen around them: double apex, frame rounded to float,
// depths and bounds rounded outward with room for the frame's rounding.
// The region satc culls against then contains every corner, so (being
// convex) the whole volume: a volume the double matrix sees is never culled.

const MARGIN = 2 ** -20; // per unit of |X - E|_1: the float frame's deviation (about 2^-23) and double error
const SLOPE = 2 ** -22; // per unit of slope: satc rounds l / n to float

const _f = new Float32Array(1), _u = new Uint32Array(_f.buffer);

/** Largest float32 <= x. */
export function floatDown(x) {
  const r = Math.fround(x);
  if (r <= x || Number.isNaN(r)) return r;
  if (r === 0) return -(2 ** -149);
  _f[0] = r;
  _u[0] += r > 0 ? -1 : 1;
  return _f[0];
}

/** Smallest float32 >= x. */
export function floatUp(x) {
  return -floatDown(-x);
}

const row = (m, i) => [m[i], m[4 + i], m[8 + i], m[12 + i]];
const add = (a, b) => a.map((v, k) => v + b[k]);
const sub = (a, b) => a.map((v, k) => v - b[k]);
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const unit = (a) => {
  const l = Math.hypot(a[0], a[1], a[2]);
  return [a[0] / l, a[1] / l, a[2] / l];
};

// The point where three planes p.(X, 1) = 0 meet (Cramer), or null.
function meet(p, q, r) {
  const qr = cross(q, r), det = dot(p, qr);
  if (!(Math.abs(det) > 0) || !Number.isFinite(det)) return null;
  const rp = cross(r, p), pq = cross(p, q);
  const x = [0, 1, 2].map((k) => -(p[3] * qr[k] + q[3] * rp[k] + r[3] * pq[k]) / det);
  return x.every(Number.isFinite) ? x : null;
}

/**
 * The camera (satc.frustumFromCamera's fields, origin in double) whose
 * frustum holds the clip volume of column-major `m` in double. zeroToOne:
 * clip depth in [0, 1] (WebGPU, and any reversed-Z projection of three.js)
 * rather than [-1, 1]; which end is near does not change the volume.
 * Returns a status (negative) when the volume is not a bounded frustum.
 */
/** The six planes p.(X, 1) >= 0 of the clip volume of column-major `m`: left, right, bottom, top, then the two depth planes. */
export function clipPlanes(m, zeroToOne) {
  const r0 = row(m, 0), r1 = row(m, 1), r2 = row(m, 2), r3 = row(m, 3);
  return [add(r3, r0), sub(r3, r0), add(r3, r1), sub(r3, r1), ...(zeroToOne ? [r2, sub(r3, r2)] : [add(r3, r2), sub(r3, r2)])];
}

/** The clip volume's eight corners (each where a side, a side and a depth plane meet), or null. */
export function clipCorners(planes) {
  const corners = [];
  for (const px of planes.slice(0, 2)) for (const py of planes.slice(2, 4)) for (const pz of planes.slice(4)) {
    const x = meet(px, py, pz);
    if (!x) return null;
    corners.push(x);
  }
  return corners;
}

/**
 * The camera of a clip volume. Its view direction is where w grows
 * (perspective) or where clip depth grows, reversed when the projection
 * maps near to the greater depth (`reversed`): an orthographic volume is
 * the same box either way, but occlusion needs to know its front.
 */
export function clipCamera(m, zeroToOne, reversed = false) {
  const r0 = row(m, 0), r1 = row(m, 1), r2 = row(m, 2), r3 = row(m, 3);
  const perspective = r3[0] !== 0 || r3[1] !== 0 || r3[2] !== 0;
  const corners = clipCorners(clipPlanes(m, zeroToOne));
  if (!corners) return -7; // SATC_ERR_MATRIX
  const D = unit(perspective ? r3 : reversed ? r2.map((v) => -v) : r2);
  const U = unit(sub(r1, D.map((d) => d * dot(r1, D))));
  const L = cross(U, D);
  let E;
  if (perspective) {
    E = meet(r0, r1, r3);
    if (!E) return -7;
  } else {
    E = [0, 1, 2].map((k) => corners.reduce((s, c) => s + c[k], 0) / 8);
  }
  if (![...D, ...U, ...L].every(Number.isFinite)) return -7;
  const Lf = L.map(Math.fround), Uf = U.map(Math.fround), Df = D.map(Math.fround);
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const X of corners) {
    const v = sub(X, E);
    const a = dot(Lf, v), b = dot(Uf, v), c = dot(Df, v);
    const d = MARGIN * (Math.abs(v[0]) + Math.abs(v[1]) + Math.abs(v[2]));
    lo[2] = Math.min(lo[2], c - d);
    hi[2] = Math.max(hi[2], c + d);
    if (perspective) {
      if (!(c - d > 0)) return -3; // SATC_ERR_NEAR: a corner at or behind the apex
      for (const [k, s] of [[0, a / c], [1, b / c]]) {
        const w = (d / (c - d)) * (1 + Math.abs(s)) + SLOPE * Math.abs(s);
        lo[k] = Math.min(lo[k], s - w);
        hi[k] = Math.max(hi[k], s + w);
      }
    } else {
      lo[0] = Math.min(lo[0], a - d); hi[0] = Math.max(hi[0], a + d);
      lo[1] = Math.min(lo[1], b - d); hi[1] = Math.max(hi[1], b + d);
    }
  }
  const n = floatDown(lo[2]), f = floatUp(hi[2]);
  const s = perspective ? n : 1; // bounds on the near plane: slope times n
  return {
    origin: E, batchOrigin: [0, 0, 0], left: Lf, up: Uf, dir: Df,
    l0: floatDown(lo[0] * s), l1: floatUp(hi[0] * s), u0: floatDown(lo[1] * s), u1: floatUp(hi[1] * s),
    near: n, far: f, orthographic: !perspective,
  };
}
