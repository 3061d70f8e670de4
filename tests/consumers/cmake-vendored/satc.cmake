# satc compiled from its sources inside a CMake project (satc as a git
# submodule at SATC_DIR). Gives the static library target `satc`.
# Every file gets -ffp-contract=off: results must not depend on the path.
# Each SIMD file is an object library so that its -m flags reach it alone:
# dispatch picks a path at run time, so the rest must stay baseline code.
include(CheckCCompilerFlag)
include(CheckIncludeFile)
check_c_compiler_flag(-fexcess-precision=standard SATC_HAS_EXCESS_PRECISION)
set(SATC_FP_FLAGS -ffp-contract=off -fno-fast-math
    $<$<BOOL:${SATC_HAS_EXCESS_PRECISION}>:-fexcess-precision=standard>)
# The SIMD paths are written with SIMDe (Debian: libsimde-dev).
check_include_file(simde/x86/avx512.h SATC_HAS_SIMDE)

add_library(satc STATIC
  ${SATC_DIR}/src/boxes.c ${SATC_DIR}/src/cull.c ${SATC_DIR}/src/dispatch.c
  ${SATC_DIR}/src/frustum.c ${SATC_DIR}/src/frustum_matrix.c ${SATC_DIR}/src/query.c
  ${SATC_DIR}/src/views.c ${SATC_DIR}/src/scalar/cull_scalar.c
  ${SATC_DIR}/src/scalar/load_scalar.c)
target_include_directories(satc PUBLIC ${SATC_DIR}/include
                           PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/satc_config)
target_compile_options(satc PRIVATE ${SATC_FP_FLAGS})
target_compile_definitions(satc PRIVATE _POSIX_C_SOURCE=200809L)
set_target_properties(satc PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON)
if(UNIX)
  target_link_libraries(satc PUBLIC m)
endif()

function(satc_isa name file)
  add_library(${name} OBJECT ${SATC_DIR}/src/${file})
  target_include_directories(${name} PRIVATE ${SATC_DIR}/include)
  target_compile_options(${name} PRIVATE ${SATC_FP_FLAGS} ${ARGN})
  set_target_properties(${name} PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
  target_sources(satc PRIVATE $<TARGET_OBJECTS:${name}>)
endfunction()

set(satc_emu 0)
if(SATC_HAS_SIMDE)
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64|i.86)$")
    set(satc_emu 1) # AVX-512 also as an AVX2 build, for CPUs without AVX-512
    satc_isa(satc_sse41 sse/cull_sse41.c -msse4.1)
    satc_isa(satc_avx2 sse/cull_avx2.c -mavx2)
    satc_isa(satc_avx512 sse/cull_avx512.c -mavx512f -mavx512vl -mavx512dq -mavx512bw
             -DSATC_AVX512_NATIVE)
    satc_isa(satc_avx512_emu sse/cull_avx512.c -mavx2 -DSATC_AVX512_EMU -Wno-psabi)
  else() # elsewhere the x86 paths run emulated by SIMDe, without flags
    satc_isa(satc_sse41 sse/cull_sse41.c)
    satc_isa(satc_avx2 sse/cull_avx2.c)
    satc_isa(satc_avx512 sse/cull_avx512.c)
  endif()
  satc_isa(satc_neon neon/cull_neon.c) # NEON: baseline on AArch64, SIMDe elsewhere
endif()

# dispatch.c learns from config.h which paths are compiled in.
set(satc_have ${SATC_HAS_SIMDE})
if(NOT satc_have)
  set(satc_have 0)
endif()
file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/satc_config/config.h CONTENT "\
#define SATC_HAVE_SSE41 @satc_have@
#define SATC_HAVE_AVX2 @satc_have@
#define SATC_HAVE_AVX512 @satc_have@
#define SATC_HAVE_AVX512_EMU @satc_emu@
#define SATC_HAVE_NEON @satc_have@
")
