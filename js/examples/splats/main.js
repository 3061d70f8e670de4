// A plain WebGL2 splat renderer fed by a worker: the worker culls the 3DGS
// PLY scene against each frame's camera and sorts the visible splats back
// to front (satc/trs splatSorter); this thread draws them as points sized
// by their 3-sigma extent, in that order, blended "over" (premultiplied).
// The vertex data is the PLY's own vertex records, uploaded once: each
// attribute is a float at its property's offset with the record stride.
//   ?scene=random|layered  &n=20000  &rand=1  &ply=URL (a file instead)
//   &mode=shared|transfer  &flat=1 (uniform discs)  &still=1 (no animation)  &w=&h=
import { parsePly } from '../../src/trs.js';
import { plyFile, randomSplats, layeredSplats, orbitCamera, layeredCamera } from './scene.js';

const q = new URLSearchParams(location.search);
const canvas = document.getElementById('view'), info = document.getElementById('info');
const W = Number(q.get('w')) || innerWidth, H = Number(q.get('h')) || innerHeight;
canvas.width = W;
canvas.height = H;
canvas.style.width = `${W}px`;
canvas.style.height = `${H}px`;
const K = 3; // the splat drawn out to 3 sigma, the box satc culls

const layered = q.get('scene') === 'layered';
const file = q.get('ply') ? new Uint8Array(await (await fetch(q.get('ply'))).arrayBuffer())
  : plyFile(layered ? layeredSplats() : randomSplats(Number(q.get('n') ?? 20000), Number(q.get('rand') ?? 1)));
const header = parsePly(file), count = header.vertexCount;
const shared = (q.get('mode') ?? (self.crossOriginIsolated ? 'shared' : 'transfer')) === 'shared';

// ---- the worker: the scene once, then one sort per frame
const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
let orderBuf = shared ? new SharedArrayBuffer(4 * count) : new ArrayBuffer(4 * count);
const waiting = new Map();
let nextId = 0;
worker.onmessage = ({ data }) => {
  const key = data.type === 'ready' ? 'ready' : data.id;
  waiting.get(key)?.(data);
  waiting.delete(key);
};
worker.onerror = (e) => console.error(`worker: ${e.message}`);
const reply = (key) => new Promise((ok) => waiting.set(key, ok));
const ready = reply('ready');
if (shared) {
  const scene = new SharedArrayBuffer(file.length);
  new Uint8Array(scene).set(file);
  worker.postMessage({ type: 'init', scene, order: orderBuf });
} else {
  const scene = file.slice().buffer;
  worker.postMessage({ type: 'init', scene }, [scene]);
}

// ---- WebGL2: one array buffer of the PLY records, an index buffer of the order
const gl = canvas.getContext('webgl2', { antialias: false, alpha: false, preserveDrawingBuffer: true });
const vs = `#version 300 es
in float x, y, z, r, g, b, opacity, s0, s1, s2;
uniform mat4 vp;
uniform float focal, k;
out vec4 col;
void main() {
  vec4 c = vp * vec4(x, y, z, 1.0);
  gl_Position = c;
  float s = exp(max(s0, max(s1, s2)));
  gl_PointSize = clamp(2.0 * k * s * focal / max(c.w, 1e-3), 1.0, 1024.0);
  col = vec4(clamp(0.5 + 0.28209479177387814 * vec3(r, g, b), 0.0, 1.0), 1.0 / (1.0 + exp(-opacity)));
}`;
const fs = `#version 300 es
precision highp float;
in vec4 col;
uniform float k;
uniform bool flat_;
out vec4 o;
void main() {
  vec2 d = gl_PointCoord * 2.0 - 1.0;
  float r2 = dot(d, d);
  if (r2 > 1.0) discard;
  float a = col.a * (flat_ ? 1.0 : exp(-0.5 * r2 * k * k));
  o = vec4(col.rgb * a, a);
}`;
function shader(type, src) {
  const s = gl.createShader(type);
  gl.shaderSource(s, src);
  gl.compileShader(s);
  if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(s));
  return s;
}
const prog = gl.createProgram();
gl.attachShader(prog, shader(gl.VERTEX_SHADER, vs));
gl.attachShader(prog, shader(gl.FRAGMENT_SHADER, fs));
gl.linkProgram(prog);
if (!gl.getProgramParameter(prog, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(prog));
gl.useProgram(prog);
const vao = gl.createVertexArray();
gl.bindVertexArray(vao);
const vbo = gl.createBuffer();
gl.bindBuffer(gl.ARRAY_BUFFER, vbo);
gl.bufferData(gl.ARRAY_BUFFER, file.subarray(header.dataOffset, header.dataOffset + count * header.stride), gl.STATIC_DRAW);
const ATTRS = { x: 'x', y: 'y', z: 'z', r: 'f_dc_0', g: 'f_dc_1', b: 'f_dc_2', opacity: 'opacity', s0: 'scale_0', s1: 'scale_1', s2: 'scale_2' };
for (const [a, prop] of Object.entries(ATTRS)) {
  const loc = gl.getAttribLocation(prog, a), off = header.offset[prop];
  if (loc < 0) continue;
  if (off === undefined) gl.vertexAttrib1f(loc, a === 'opacity' ? 2 : 0); // a file without colours: grey, mostly opaque
  else {
    gl.enableVertexAttribArray(loc);
    gl.vertexAttribPointer(loc, 1, gl.FLOAT, false, header.stride, off);
  }
}
const ibo = gl.createBuffer();
gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, ibo);
gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, 4 * count, gl.DYNAMIC_DRAW);
const U = Object.fromEntries(['vp', 'focal', 'k', 'flat_'].map((n) => [n, gl.getUniformLocation(prog, n)]));
gl.enable(gl.BLEND);
gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
gl.disable(gl.DEPTH_TEST);
gl.viewport(0, 0, W, H);
const BACKGROUND = [0.1, 0.1, 0.1];
const upload = new Uint32Array(count); // the order as drawn (WebGL takes no shared views)

const state = { frames: 0, visible: 0, sortMs: 0, count, shared };
const { isa } = await ready;

/** Sorts in the worker for the camera of time t, then draws. Resolves to { visible, viewProj }. */
async function frame(t) {
  const cam = layered ? layeredCamera(W / H) : orbitCamera(t, W / H);
  const id = nextId++, done = reply(id);
  if (shared) worker.postMessage({ type: 'sort', id, viewProj: cam.viewProj });
  else worker.postMessage({ type: 'sort', id, viewProj: cam.viewProj, order: orderBuf }, [orderBuf]);
  const r = await done;
  if (!shared) orderBuf = r.order;
  const n = r.n;
  upload.set(new Uint32Array(orderBuf, 0, n));
  gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, ibo);
  gl.bufferSubData(gl.ELEMENT_ARRAY_BUFFER, 0, upload, 0, n);
  gl.clearColor(...BACKGROUND, 1);
  gl.clear(gl.COLOR_BUFFER_BIT);
  gl.uniformMatrix4fv(U.vp, false, cam.viewProj);
  gl.uniform1f(U.focal, H / 2 / Math.tan(cam.fovy / 2));
  gl.uniform1f(U.k, K);
  gl.uniform1i(U.flat_, q.get('flat') === '1' ? 1 : 0);
  gl.drawElements(gl.POINTS, n, gl.UNSIGNED_INT, 0);
  state.frames++;
  state.visible = n;
  state.sortMs = r.ms;
  info.textContent = `${n.toLocaleString()} of ${count.toLocaleString()} splats drawn, culled and sorted in a worker (satc ${isa}, ` +
    `${shared ? 'SharedArrayBuffer' : 'transferred buffer'}) in ${r.ms.toFixed(2)} ms`;
  return { visible: n, viewProj: Array.from(cam.viewProj) };
}

/** The first n indices of the index buffer the last frame drew, read back from WebGL. */
function drawnOrder(n) {
  const out = new Uint32Array(n);
  gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, ibo);
  gl.getBufferSubData(gl.ELEMENT_ARRAY_BUFFER, 0, out, 0, n);
  return Array.from(out);
}

/** RGB bytes of the drawing buffer at (x, y) from the top left. */
function pixel(x, y) {
  const p = new Uint8Array(4);
  gl.readPixels(x, H - 1 - y, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, p);
  return Array.from(p.subarray(0, 3));
}

window.splats = { state, isa, frame, drawnOrder, pixel, background: BACKGROUND, ready: true };
if (q.get('still') !== '1') {
  const loop = async (ms) => {
    await frame(ms / 1000);
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
}
