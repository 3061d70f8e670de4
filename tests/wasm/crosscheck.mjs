// The wasm cross-check: replays the cases wasm_cases wrote
// (native scalar reference) in satc-simd128.wasm and satc-scalar.wasm and
// compares status and memory image bit for bit. Also checks the modules'
// contract: no imports, every public satc_* function of satc.h exported,
// each module's default path (simd128, scalar). The scalar module's lack
// of SIMD128 instructions is the meson test wasm-scalar-no-simd.
//   node crosscheck.mjs CASES WASM_DIR SATC_H
// Exit 0 when all pass, 1 on any failure, 2 on usage errors.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const [casesFile, wasmDir, header] = process.argv.slice(2);
if (!casesFile || !wasmDir || !header) {
  console.error('usage: node crosscheck.mjs CASES WASM_DIR SATC_H');
  process.exit(2);
}

let passed = 0, failed = 0;
function check(ok, what) {
  if (ok) passed++;
  else { failed++; if (failed <= 20) console.log('FAIL', what); }
}

function readCases(buf) {
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (buf.subarray(0, 8).toString() !== 'SATCWASM' || dv.getUint32(8, true) !== 2)
    throw new Error('not a wasm_cases file');
  let p = 12;
  const u32 = () => { const v = dv.getUint32(p, true); p += 4; return v; };
  const str = () => { const n = u32(); const s = buf.subarray(p, p + n).toString(); p += n; return s; };
  const cases = [];
  while (p < buf.length) {
    const c = { name: str(), fn: str() };
    const size = u32();
    c.pre = buf.subarray(p, p + size); p += size;
    const nrel = u32();
    c.relocs = new Uint32Array(nrel);
    for (let i = 0; i < nrel; i++) c.relocs[i] = u32();
    const nargs = u32();
    c.args = [];
    for (let i = 0; i < nargs; i++) c.args.push([u32(), u32()]);
    c.status = dv.getInt32(p, true); p += 4;
    const nfree = u32();
    c.scratch = [];
    for (let i = 0; i < nfree; i++) c.scratch.push([u32(), u32()]);
    c.post = Buffer.from(c.pre);
    const nruns = u32();
    for (let i = 0; i < nruns; i++) {
      const at = u32(), len = u32();
      c.post.set(buf.subarray(p, p + len), at); p += len;
    }
    cases.push(c);
  }
  return cases;
}

const f32 = new Float32Array(1), u32v = new Uint32Array(f32.buffer);
function bitsToFloat(u) { u32v[0] = u; return f32[0]; }

async function load(file) {
  const bytes = fs.readFileSync(file);
  const mod = new WebAssembly.Module(bytes);
  const { exports } = await WebAssembly.instantiate(mod, {});
  if (exports._initialize) exports._initialize();
  return { mod, exports, bytes };
}

function cstr(e, p) {
  const b = new Uint8Array(e.memory.buffer);
  let s = '';
  for (let i = p; b[i]; i++) s += String.fromCharCode(b[i]);
  return s;
}

const api = [...fs.readFileSync(header, 'utf8').matchAll(/^SATC_API[^(]*?\b(satc_\w+)\(/gm)].map(m => m[1]);
const cases = readCases(fs.readFileSync(casesFile));
const hasIsa = new Set(['satc_cull', 'satc_cull_views', 'satc_query_sphere', 'satc_query_ray',
                        'satc_cull_occluded', 'satc_cull_depth']);
console.log(`${cases.length} cases, ${api.length} public functions`);
check(cases.length > 100 && api.length > 30, 'cases and header read');
// Every entry point the cases must reach, each with good and bad input.
const reached = new Map();
for (const c of cases) {
  const r = reached.get(c.fn) ?? { ok: 0, bad: 0 };
  if (c.status === 0) r.ok++; else r.bad++;
  reached.set(c.fn, r);
  // The reference side of "nothing written on error" (scratch included).
  if (c.status !== 0) check(Buffer.compare(c.pre, c.post) === 0, `native ${c.fn} [${c.name}]: wrote on error ${c.status}`);
}
for (const fn of ['satc_cull', 'satc_pyramid_init', 'satc_pyramid_clear', 'satc_pyramid_fill', 'satc_pyramid_fill_matrix',
                  'satc_pyramid_rasterize', 'satc_pyramid_rasterize_triangles', 'satc_cull_occluded',
                  'satc_cull_views_occluded', 'satc_cull_depth', 'satc_sort_depth'])
  check(reached.get(fn)?.ok > 0 && reached.get(fn)?.bad > 0, `cases of ${fn}, good and bad input`);

for (const [file, isa, isaName] of [['satc-simd128.wasm', 32, 'simd128'], ['satc-scalar.wasm', 1, 'scalar']]) {
  const { mod, exports: e } = await load(path.join(wasmDir, file));
  check(WebAssembly.Module.imports(mod).length === 0, `${file}: no imports`);
  const names = new Set(WebAssembly.Module.exports(mod).map(x => x.name));
  for (const fn of [...api, 'malloc', 'free', 'memory'])
    check(names.has(fn), `${file}: exports ${fn}`);
  check(e.satc_isa_active() === isa && cstr(e, e.satc_isa_name(isa)) === isaName,
        `${file}: satc_isa_active() is ${isaName} (got ${e.satc_isa_active()})`);
  const before = { passed, failed };
  // Each case on the module's default path, and the calls with an _isa
  // twin again on the scalar path (the reference code in the SIMD128
  // module, the one-lane kernels in the scalar module).
  const runs = [];
  for (const c of cases) {
    runs.push([c, c.fn, (a) => a]);
    if (hasIsa.has(c.fn)) runs.push([c, c.fn + '_isa', (a) => [1, ...a]]);
  }
  for (const [c, fn, wrap] of runs) {
    const size = c.pre.length;
    const base = e.malloc(size + 64);
    if (!base) { check(false, `${file}: malloc(${size})`); continue; }
    let mem = new Uint8Array(e.memory.buffer);
    mem.set(c.pre, base);
    let dv = new DataView(e.memory.buffer);
    for (const r of c.relocs) dv.setUint32(base + r, dv.getUint32(base + r, true) + base, true);
    const args = c.args.map(([k, v]) => k === 0 ? v : k === 1 ? base + v : bitsToFloat(v));
    const st = e[fn](...wrap(args));
    mem = new Uint8Array(e.memory.buffer); // the call may have grown memory
    dv = new DataView(e.memory.buffer);
    for (const r of c.relocs) dv.setUint32(base + r, dv.getUint32(base + r, true) - base, true);
    const got = mem.subarray(base, base + size);
    if (c.status === 0) // scratch: its bytes are no output (on error nothing may change)
      for (const [at, len] of c.scratch) c.post.set(got.subarray(at, at + len), at);
    let diff = -1;
    if (st === c.status) {
      for (let i = 0; i < size; i++) if (got[i] !== c.post[i]) { diff = i; break; }
    }
    check(st === c.status && diff < 0,
          `${file}: ${fn} [${c.name}]: status ${st} (native ${c.status})` +
          (diff >= 0 ? `, first differing byte at ${diff}: ${got[diff]} (native ${c.post[diff]})` : ''));
    e.free(base);
  }
  console.log(`${file}: ${passed - before.passed} passed, ${failed - before.failed} failed`);
}
// Size: gzip -9 of each module against the budget both share.
const budget = 150 * 1024;
const gz = ['satc-simd128.wasm', 'satc-scalar.wasm'].map(
  (f) => zlib.gzipSync(fs.readFileSync(path.join(wasmDir, f)), { level: 9 }).length);
console.log(`size (gzip -9): simd128 ${gz[0]} + scalar ${gz[1]} = ${gz[0] + gz[1]} bytes; ` +
            `budget ${budget} (${gz[0] + gz[1] <= budget ? 'met' :
              'NOT met: one kernel per form and tier, and the views, occlusion, depth-sort and TRS ' +
              'kernels in each module; every flag that shrinks them slows them (docs/platforms.md)'})`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
