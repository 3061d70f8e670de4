#!/bin/sh
# Builds the package's two WebAssembly modules with the project's own meson
# wasm build (cross/wasm32.ini) and copies them into js/dist/; writes the
# project's version (meson.build) into package.json. Also builds the splat
# benchmark's viewer baselines (splat-viewers.wasm, left in the build
# directory: not part of the package).
#   SATC_WASM_BUILD   build directory (default: <repo>/build-wasm)
set -eu
JS=$(cd "$(dirname "$0")/.." && pwd)
ROOT=$(cd "$JS/.." && pwd)
BUILD=${SATC_WASM_BUILD:-$ROOT/build-wasm}
if [ ! -f "$BUILD/build.ninja" ]; then
    meson setup "$BUILD" "$ROOT" --cross-file "$ROOT/cross/wasm32.ini"
fi
ninja -C "$BUILD" -j2 src/wasm/satc-simd128.wasm src/wasm/satc-scalar.wasm src/wasm/splat-viewers.wasm
mkdir -p "$JS/dist"
cp "$BUILD/src/wasm/satc-simd128.wasm" "$BUILD/src/wasm/satc-scalar.wasm" "$JS/dist/"
node "$JS/scripts/version.mjs" --write
ls -l "$JS/dist"
