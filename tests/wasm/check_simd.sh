#!/bin/sh
# check_simd.sh OBJDUMP SCALAR.wasm SIMD128.wasm: the scalar module has no
# SIMD128 instruction, the SIMD128 module has some. Ends with the count line.
pat='v128|[if](8x16|16x8|32x4|64x2)'
s=$("$1" -d "$2" | grep -cE "$pat")
v=$("$1" -d "$3" | grep -cE "$pat")
pass=0 fail=0
if [ "$s" -eq 0 ]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL $2: $s SIMD128 instructions"; fi
if [ "$v" -gt 0 ]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL $3: no SIMD128 instruction"; fi
echo "scalar module: $s SIMD128 instructions, simd128 module: $v"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
