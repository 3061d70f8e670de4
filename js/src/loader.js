// Finds, picks and instantiates one of the two satc WebAssembly modules.
// There is no cpuid on the web: SIMD128 support is detected by validating a
// tiny module that uses a SIMD opcode (i8x16.popcnt, final SIMD128 only).

const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253,
  15, 253, 98, 11,
]);

/** True when this engine validates WebAssembly SIMD128. */
export function simdSupported() {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

const isNode =
  typeof process === 'object' && process !== null && typeof process.versions?.node === 'string';

// Each URL is written out literally so that bundlers (vite, webpack,
// esbuild with a loader) see `new URL('…', import.meta.url)` and ship the file.
function defaultUrl(simd) {
  return simd
    ? new URL('../dist/satc-simd128.wasm', import.meta.url)
    : new URL('../dist/satc-scalar.wasm', import.meta.url);
}

async function readSource(src) {
  if (src instanceof WebAssembly.Module) return src;
  if (src instanceof ArrayBuffer || ArrayBuffer.isView(src)) return WebAssembly.compile(src);
  if (typeof Response === 'function' && src instanceof Response) {
    return WebAssembly.compile(await src.arrayBuffer());
  }
  const url = src instanceof URL ? src : new URL(String(src), import.meta.url);
  if (url.protocol === 'file:' && isNode) {
    const { readFile } = await import(/* @vite-ignore */ 'node:fs/promises');
    return WebAssembly.compile(await readFile(url));
  }
  const res = await fetch(url);
  if (!res.ok) throw new Error(`satc: cannot fetch ${url}: HTTP ${res.status}`);
  if (typeof WebAssembly.compileStreaming === 'function' &&
      res.headers.get('content-type') === 'application/wasm') {
    return WebAssembly.compileStreaming(res);
  }
  return WebAssembly.compile(await res.arrayBuffer());
}

// The modules are standalone: they may import a handful of WASI calls that
// satc never reaches on its culling paths (the C runtime's start-up asks
// for the environment), and perhaps a memory-growth notification. Answer
// them without touching the host.
function importsFor(module, hooks) {
  const imports = {};
  for (const imp of WebAssembly.Module.imports(module)) {
    if (imp.kind !== 'function') {
      throw new Error(`satc: the module imports a ${imp.kind} (${imp.module}.${imp.name}); expected none`);
    }
    const ns = (imports[imp.module] ??= {});
    let fn;
    if (imp.name === 'environ_sizes_get' || imp.name === 'args_sizes_get') {
      fn = (a, b) => {
        const v = new Uint32Array(hooks.memory().buffer);
        v[a >>> 2] = 0;
        v[b >>> 2] = 0;
        return 0;
      };
    } else if (imp.name === 'environ_get' || imp.name === 'args_get') {
      fn = () => 0;
    } else if (imp.name === 'proc_exit') {
      fn = (code) => {
        throw new Error(`satc: the module exited (${code})`);
      };
    } else if (imp.name === 'emscripten_notify_memory_growth') {
      fn = () => hooks.grew();
    } else if (imp.module.startsWith('wasi')) {
      fn = () => 52; // ENOSYS: no files, clocks or random from the host
    } else {
      fn = () => {
        throw new Error(`satc: unexpected call to ${imp.module}.${imp.name}`);
      };
    }
    ns[imp.name] = fn;
  }
  return imports;
}

/**
 * Compiles and instantiates a satc module. Returns { exports, simd }.
 * options.simd: true/false forces a module, undefined detects.
 * options.wasm: bytes, a Module, a Response or a URL overriding the file.
 */
export async function instantiate(options = {}, hooks) {
  const simd = options.simd ?? simdSupported();
  const module = await readSource(options.wasm ?? defaultUrl(simd));
  let exports;
  const inner = {
    memory: () => exports.memory,
    grew: () => hooks.grew(),
  };
  const instance = await WebAssembly.instantiate(module, importsFor(module, inner));
  exports = instance.exports;
  if (typeof exports._initialize === 'function') exports._initialize();
  return { exports, simd };
}
