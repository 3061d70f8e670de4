// Shared by the tests: a seeded generator, camera matrices, volume data.

export { rng } from '../demo/city.js';

/** Column-major 4x4 product a * b. */
export function mul(a, b) {
  const r = new Array(16).fill(0);
  for (let c = 0; c < 4; c++)
    for (let rr = 0; rr < 4; rr++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += a[k * 4 + rr] * b[c * 4 + k];
      r[c * 4 + rr] = s;
    }
  return r;
}

/** Perspective projection, column-major; depth 'webgl' or 'webgpu'; reversed; infinite far. */
export function perspective(fovy, aspect, n, f, { depth = 'webgl', reversed = false, infinite = false } = {}) {
  const t = 1 / Math.tan(fovy / 2);
  const m = new Array(16).fill(0);
  m[0] = t / aspect;
  m[5] = t;
  m[11] = -1;
  // z_clip = A z + B w, w_clip = -z: ndc z = -A - B / z
  let A, B;
  const lo = depth === 'webgl' ? -1 : 0;
  let zn = reversed ? 1 : lo, zf = reversed ? lo : 1;
  if (infinite) {
    // ndc(z -> -inf) = -A = zf, ndc(-n) = -A + B / n = zn
    A = -zf;
    B = (zn + A) * n;
  } else {
    // -A + B/n = zn, -A + B/f = zf
    B = (zn - zf) / (1 / n - 1 / f);
    A = B / n - zn;
  }
  m[10] = A;
  m[14] = B;
  return m;
}

/** World-to-view matrix of a camera at eye looking along unit dir with up (column-major). */
export function lookDir(eye, dir, up) {
  const z = [-dir[0], -dir[1], -dir[2]];
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const norm = (v) => { const l = Math.hypot(...v); return v.map((x) => x / l); };
  const x = norm(cross(up, z));
  const y = cross(z, x);
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  return [x[0], y[0], z[0], 0, x[1], y[1], z[1], 0, x[2], y[2], z[2], 0, -dot(x, eye), -dot(y, eye), -dot(z, eye), 1];
}

/** A random rotation as three unit axes (rows), from a random unit quaternion. */
export function rotation(r) {
  let q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
  const l = Math.hypot(...q);
  q = q.map((v) => v / l);
  const [x, y, z, w] = q;
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)],
    [2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)],
    [2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)],
  ];
}

/** Arrays of every form for n volumes around the origin (seeded); some NaN when `nan`. */
export function volumes(r, n, { spread = 60, nan = false } = {}) {
  const out = {
    center: new Float32Array(3 * n), half: new Float32Array(3 * n), min: new Float32Array(3 * n),
    max: new Float32Array(3 * n), radius: new Float32Array(n), axes: new Float32Array(9 * n),
    halfAxes: new Float32Array(9 * n), extent: new Float32Array(3 * n), matrices: new Float32Array(16 * n),
    rows: new Float32Array(12 * n), cols43: new Float32Array(12 * n),
  };
  for (let i = 0; i < n; i++) {
    const c = [(r() - 0.5) * 2 * spread, (r() - 0.5) * 2 * spread, (r() - 0.5) * 2 * spread];
    const h = [0.1 + 5 * r() ** 2, 0.1 + 5 * r() ** 2, 0.1 + 5 * r() ** 2];
    const R = rotation(r);
    const s = [0.5 + 3 * r(), 0.5 + 3 * r(), 0.5 + 3 * r()];
    for (let k = 0; k < 3; k++) {
      out.center[3 * i + k] = c[k];
      out.half[3 * i + k] = h[k];
      out.min[3 * i + k] = c[k] - h[k];
      out.max[3 * i + k] = c[k] + h[k];
      out.extent[3 * i + k] = h[k];
      for (let j = 0; j < 3; j++) {
        out.axes[9 * i + 3 * j + k] = R[j][k];
        out.halfAxes[9 * i + 3 * j + k] = R[j][k] * h[j];
        // instance matrix: column j = R[j] * s[j], translation c
        out.matrices[16 * i + 4 * j + k] = R[j][k] * s[j];
        out.rows[12 * i + 4 * k + j] = R[j][k] * s[j];
        out.cols43[12 * i + 3 * j + k] = R[j][k] * s[j];
      }
      out.matrices[16 * i + 12 + k] = c[k];
      out.rows[12 * i + 4 * k + 3] = c[k];
      out.cols43[12 * i + 9 + k] = c[k];
    }
    out.matrices[16 * i + 15] = 1;
    out.radius[i] = Math.hypot(...h);
    if (nan && i % 97 === 13) {
      out.center[3 * i] = NaN; out.min[3 * i + 1] = NaN; out.radius[i] = Infinity;
      out.axes[9 * i] = NaN; out.halfAxes[9 * i] = NaN; out.matrices[16 * i + 12] = NaN;
      out.rows[12 * i + 3] = NaN; out.cols43[12 * i + 9] = NaN;
    }
  }
  return out;
}
