// The header of a 3DGS `.ply` file (binary_little_endian): where each
// vertex property lies in a record, so the cull can read the records with
// strides where they lie. Only the header is parsed here; the vertex body
// is what a batch holds.

import { SatcError, STATUS_NAMES } from './errors.js';

const SIZES = {
  char: 1, int8: 1, uchar: 1, uint8: 1, short: 2, int16: 2, ushort: 2, uint16: 2,
  int: 4, int32: 4, uint: 4, uint32: 4, float: 4, float32: 4, double: 8, float64: 8,
};
const FLOAT = new Set(['float', 'float32']);
// What the cull reads: position, log scales, rotation (w first, not unit).
export const PLY_CULL_PROPERTIES = Object.freeze(['x', 'y', 'z', 'scale_0', 'scale_1', 'scale_2', 'rot_0', 'rot_1', 'rot_2', 'rot_3']);
// What a renderer reads besides, when the file has them (float32 too).
const COLOUR = ['f_dc_0', 'f_dc_1', 'f_dc_2', 'opacity'];
const MAX_HEADER = 1 << 20;
const MAX_VERTICES = 0x3fffffff;

function fail(status, what) {
  throw new SatcError(status, `ply: ${what}`, STATUS_NAMES[status]);
}

/** The bytes of an ArrayBuffer, SharedArrayBuffer or typed array / DataView (no copy). */
export function bytesOf(src, what) {
  if (src instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && src instanceof SharedArrayBuffer)) {
    return new Uint8Array(src);
  }
  if (ArrayBuffer.isView(src)) return new Uint8Array(src.buffer, src.byteOffset, src.byteLength);
  return fail(-1, `${what}: expected an ArrayBuffer, SharedArrayBuffer or typed array`);
}

/**
 * Parses a 3DGS PLY header from the file's first bytes (the body need not
 * follow). Returns { vertexCount, stride (bytes per vertex), dataOffset
 * (where the vertex records start), properties ([{ name, type, offset }]
 * in record order), offset (name -> byte offset in a record) }. Throws
 * SatcError: SATC_ERR_LAYOUT for an ascii or big-endian file, a missing or
 * non-float32 x, y, z, scale_0..2, rot_0..3 (f_dc_0..2, opacity when
 * present), rot_0..3 not adjacent in order, a float the cull reads off a
 * multiple of 4 bytes, list properties in the vertex element or before it;
 * SATC_ERR_RANGE for a header without end or a vertex count past 2^30 - 1.
 */
export function parsePly(src) {
  const u8 = bytesOf(src, 'parsePly');
  const end = headerEnd(u8);
  const lines = latin1(u8, end.text).split('\n').map((l) => l.replace(/\r$/, '').trim());
  if (lines[0] !== 'ply') fail(-13, 'not a PLY file (no "ply" line)');
  let format = null, skip = 0, vertex = null, cur = null;
  const elements = [];
  for (const line of lines.slice(1)) {
    const w = line.split(/\s+/);
    if (w[0] === 'format') format = w[1];
    else if (w[0] === 'element') {
      if (w.length !== 3 || !/^\d+$/.test(w[2])) fail(-13, `bad element line "${line}"`);
      cur = { name: w[1], count: Number(w[2]), props: [], bytes: 0, list: false };
      elements.push(cur);
    } else if (w[0] === 'property') {
      if (!cur) fail(-13, `property before any element: "${line}"`);
      if (w[1] === 'list') {
        cur.list = true;
        continue;
      }
      if (w.length !== 3 || !(w[1] in SIZES)) fail(-13, `bad property line "${line}"`);
      cur.props.push({ name: w[2], type: w[1], offset: cur.bytes });
      cur.bytes += SIZES[w[1]];
    } else if (w[0] !== 'comment' && w[0] !== 'obj_info' && w[0] !== '') fail(-13, `unknown header line "${line}"`);
  }
  if (format === 'ascii') fail(-13, 'ascii PLY: only binary_little_endian is read');
  if (format !== 'binary_little_endian') fail(-13, `format ${format ?? '(none)'}: only binary_little_endian is read`);
  for (const e of elements) {
    if (e.name === 'vertex') {
      vertex = e;
      break;
    }
    if (e.list) fail(-13, `element ${e.name} before vertex has list properties (its size is unknown)`);
    skip += e.count * e.bytes;
  }
  if (!vertex) fail(-13, 'no vertex element');
  if (vertex.list) fail(-13, 'the vertex element has a list property');
  if (vertex.count > MAX_VERTICES) fail(-9, `${vertex.count} vertices (at most ${MAX_VERTICES})`);
  const offset = {};
  for (const p of vertex.props) offset[p.name] = p.offset;
  const types = Object.fromEntries(vertex.props.map((p) => [p.name, p.type]));
  const missing = PLY_CULL_PROPERTIES.filter((n) => !(n in offset));
  if (missing.length) fail(-13, `vertex has no ${missing.join(', ')}`);
  for (const n of [...PLY_CULL_PROPERTIES, ...COLOUR.filter((c) => c in offset)]) {
    if (!FLOAT.has(types[n])) fail(-13, `vertex property ${n} is ${types[n]}, not float`);
  }
  for (let k = 1; k < 4; k++) {
    if (offset[`rot_${k}`] !== offset.rot_0 + 4 * k) fail(-13, 'rot_0..rot_3 must be adjacent, in that order');
  }
  if (vertex.bytes % 4 !== 0 || PLY_CULL_PROPERTIES.some((n) => offset[n] % 4 !== 0)) {
    fail(-13, `the floats the cull reads must lie at multiples of 4 bytes (record of ${vertex.bytes} bytes)`);
  }
  return {
    vertexCount: vertex.count, stride: vertex.bytes, dataOffset: end.data + skip,
    properties: vertex.props.map((p) => ({ ...p })), offset,
  };
}

function latin1(u8, n) {
  let s = '';
  for (let i = 0; i < n; i += 4096) s += String.fromCharCode(...u8.subarray(i, Math.min(n, i + 4096)));
  return s;
}

// End of the header: { text: bytes before "end_header", data: first body byte }.
function headerEnd(u8) {
  const tag = [101, 110, 100, 95, 104, 101, 97, 100, 101, 114]; // "end_header"
  const lim = Math.min(u8.length, MAX_HEADER);
  for (let i = 0; i + tag.length < lim; i++) {
    if ((i === 0 || u8[i - 1] === 10) && tag.every((c, k) => u8[i + k] === c)) {
      let j = i + tag.length;
      if (u8[j] === 13) j++;
      if (u8[j] !== 10) break;
      return { text: i, data: j + 1 };
    }
  }
  return fail(-9, 'no end_header line (truncated or not a PLY header)');
}
