// Scenes for the splat example, as 3DGS PLY files in memory (no DOM: the
// browser test builds the same bytes in node), and the camera matrices.

const SH_C0 = 0.28209479177387814; // the degree-0 spherical harmonic: colour = 0.5 + SH_C0 * f_dc
const PROPS = ['x', 'y', 'z', 'nx', 'ny', 'nz', 'f_dc_0', 'f_dc_1', 'f_dc_2', 'opacity',
  'scale_0', 'scale_1', 'scale_2', 'rot_0', 'rot_1', 'rot_2', 'rot_3'];

/**
 * A PLY file of splats { p: [x, y, z], color: [r, g, b] in 0..1, alpha in
 * (0, 1), sigma: [3 linear scales], rot: [w, x, y, z] }: colours as f_dc,
 * alpha as its logit, scales as logs, as 3DGS training writes them.
 */
export function plyFile(splats) {
  const head = 'ply\nformat binary_little_endian 1.0\n' + `element vertex ${splats.length}\n` +
    PROPS.map((p) => `property float ${p}\n`).join('') + 'end_header\n';
  const hb = new TextEncoder().encode(head), stride = 4 * PROPS.length;
  const out = new Uint8Array(hb.length + stride * splats.length);
  out.set(hb);
  const dv = new DataView(out.buffer);
  splats.forEach((s, i) => {
    const v = [...s.p, 0, 0, 0, ...s.color.map((c) => (c - 0.5) / SH_C0), Math.log(s.alpha / (1 - s.alpha)),
      ...s.sigma.map(Math.log), ...s.rot];
    v.forEach((x, k) => dv.setFloat32(hb.length + i * stride + 4 * k, x, true));
  });
  return out;
}

function rng(start) {
  let s = start >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
}

/** n random splats in a 20 x 6 x 20 box around the origin. */
export function randomSplats(n, start = 1) {
  const r = rng(start), out = [];
  for (let i = 0; i < n; i++) {
    out.push({
      p: [r() * 20 - 10, r() * 6 - 3, r() * 20 - 10], color: [r(), r(), r()], alpha: 0.2 + 0.7 * r(),
      sigma: [0, 1, 2].map(() => Math.exp(-4.5 + 1.5 * r())), rot: [r() * 2 - 1, r() * 2 - 1, r() * 2 - 1, r() * 2 - 1],
    });
  }
  return out;
}

/**
 * Overlapping translucent splats on the view axis of layeredCamera(), in
 * the file front to back (so drawing them in file order gives the wrong
 * colour): red nearest, then green, blue, white farthest, alpha 0.5 each.
 */
export function layeredSplats() {
  const c = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]];
  return c.map((color, i) => ({ p: [0, 0, -4 - 2 * i], color, alpha: 0.5, sigma: [0.3 * (1 + i / 2), 0.3 * (1 + i / 2), 0.3], rot: [1, 0, 0, 0] }));
}

/** Column-major 4x4 product a * b. */
export function mul(a, b) {
  const o = new Float32Array(16);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += a[4 * k + r] * b[4 * c + k];
      o[4 * c + r] = s;
    }
  }
  return o;
}

/** OpenGL perspective (depth -1..1), column-major. */
export function perspective(fovy, aspect, near, far) {
  const f = 1 / Math.tan(fovy / 2), nf = 1 / (near - far);
  return new Float32Array([f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, (far + near) * nf, -1, 0, 0, 2 * far * near * nf, 0]);
}

/** View matrix of a camera at eye looking at target (up +y), column-major. */
export function lookAt(eye, target) {
  const sub = (a, b) => a.map((x, i) => x - b[i]);
  const norm = (a) => { const l = Math.hypot(...a); return a.map((x) => x / l); };
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const z = norm(sub(eye, target)), x = norm(cross([0, 1, 0], z)), y = cross(z, x);
  return new Float32Array([x[0], y[0], z[0], 0, x[1], y[1], z[1], 0, x[2], y[2], z[2], 0, -dot(x, eye), -dot(y, eye), -dot(z, eye), 1]);
}

/** The camera of frame t: orbiting the random scene. Returns { eye, viewProj, fovy }. */
export function orbitCamera(t, aspect) {
  const a = 0.4 * t, eye = [12 * Math.sin(a), 3, 12 * Math.cos(a)], fovy = Math.PI / 3;
  return { eye, fovy, viewProj: mul(perspective(fovy, aspect, 0.1, 100), lookAt(eye, [0, 0, 0])) };
}

/** The camera of layeredSplats(): at the origin looking along -z. */
export function layeredCamera(aspect) {
  const eye = [0, 0, 0], fovy = Math.PI / 3;
  return { eye, fovy, viewProj: mul(perspective(fovy, aspect, 0.1, 100), lookAt(eye, [0, 0, -1])) };
}
