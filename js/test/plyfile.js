// Small 3DGS PLY files written in the tests: any property order, extra
// properties of any type, and broken variants for the error cases.

/** xorshift32 in [0, 1). */
export function rng(start) {
  let s = start >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
}

const SIZE = { float: 4, double: 8, uchar: 1, char: 1, short: 2, ushort: 2, int: 4, uint: 4 };
const PUT = {
  float: (dv, o, v) => dv.setFloat32(o, v, true), double: (dv, o, v) => dv.setFloat64(o, v, true),
  uchar: (dv, o, v) => dv.setUint8(o, v), char: (dv, o, v) => dv.setInt8(o, v),
  short: (dv, o, v) => dv.setInt16(o, v, true), ushort: (dv, o, v) => dv.setUint16(o, v, true),
  int: (dv, o, v) => dv.setInt32(o, v, true), uint: (dv, o, v) => dv.setUint32(o, v, true),
};

/** The standard 3DGS vertex: x y z nx ny nz f_dc_0..2 f_rest_0..44 opacity scale_0..2 rot_0..3, all float. */
export const STANDARD = [
  'x', 'y', 'z', 'nx', 'ny', 'nz', 'f_dc_0', 'f_dc_1', 'f_dc_2',
  ...Array.from({ length: 45 }, (_, i) => `f_rest_${i}`), 'opacity', 'scale_0', 'scale_1', 'scale_2',
  'rot_0', 'rot_1', 'rot_2', 'rot_3',
].map((name) => [name, 'float']);

/**
 * n splats' values: position around (0, 1.6, 6), log scales, rotations
 * (integers in [-128, 127], as a .splat byte minus 128, with
 * intRot; else any floats), colours. Some zero quaternions and huge splats.
 */
export function splatValues(n, r, { intRot = false } = {}) {
  const v = [];
  for (let i = 0; i < n; i++) {
    const rot = [0, 1, 2, 3].map(() => (intRot ? Math.floor(r() * 256) - 128 : (r() * 2 - 1) * 3));
    if (i % 101 === 3) rot.fill(0);
    const s = [0, 1, 2].map(() => -4 + 3 * r());
    if (i % 211 === 7) s[0] = 4;
    v.push({
      x: r() * 20 - 10, y: r() * 6 - 1.4, z: r() * 20 - 6, scale_0: s[0], scale_1: s[1], scale_2: s[2],
      rot_0: rot[0], rot_1: rot[1], rot_2: rot[2], rot_3: rot[3],
      f_dc_0: r(), f_dc_1: r(), f_dc_2: r(), opacity: r() * 4 - 2,
    });
  }
  return v;
}

/**
 * The bytes of a PLY file of `values` with vertex properties `props`
 * ([name, type]); opts: format (default binary_little_endian), before
 * (header lines before the vertex element, e.g. another element),
 * beforeBytes (that element's data), count (the header's vertex count),
 * cut (bytes dropped at the end), lead (bytes before the file in the
 * returned buffer, so its records start at any alignment).
 */
export function plyBytes(values, props, opts = {}) {
  const n = values.length, stride = props.reduce((t, [, ty]) => t + SIZE[ty], 0);
  const head = 'ply\n' + `format ${opts.format ?? 'binary_little_endian'} 1.0\n` + 'comment written by the satc tests\n' +
    (opts.before ?? '') + `element vertex ${opts.count ?? n}\n` +
    props.map(([name, ty]) => `property ${ty} ${name}\n`).join('') + (opts.after ?? '') + 'end_header\n';
  const hb = new TextEncoder().encode(head), pre = opts.beforeBytes ?? new Uint8Array(0), lead = opts.lead ?? 0;
  const total = hb.length + pre.length + n * stride;
  const out = new Uint8Array(lead + total - (opts.cut ?? 0));
  const full = new Uint8Array(lead + total);
  full.set(hb, lead);
  full.set(pre, lead + hb.length);
  const dv = new DataView(full.buffer);
  let o = lead + hb.length + pre.length;
  for (let i = 0; i < n; i++) {
    for (const [name, ty] of props) {
      PUT[ty](dv, o, values[i][name] ?? ((i * 31 + name.length) % 100));
      o += SIZE[ty];
    }
  }
  out.set(full.subarray(0, out.length));
  return lead ? out.subarray(lead) : out;
}
