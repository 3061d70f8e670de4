# satc compiled from its sources inside a CMake project (satc as a git
# submodule at SATC_DIR). Gives the static library target `satc`.
# Every file gets -ffp-contract=off: results must not depend on the path.
# Each SIMD file is an object library so that its -m flags reach it alone:
# dispatch picks a path at run time, so the rest must stay baseline code.
if(NOT SATC_DIR) # by default, the satc tree this file is in
  get_filename_component(SATC_DIR ${CMAKE_CURRENT_LIST_DIR}/../../.. ABSOLUTE)
endif()
include(CheckCCompilerFlag)
include(CheckIncludeFile)
check_c_compiler_flag(-fexcess-precision=standard SATC_HAS_EXCESS_PRECISION)
set(SATC_FP_FLAGS -ffp-contract=off -fno-fast-math
    $<$<BOOL:${SATC_HAS_EXCESS_PRECISION}>:-fexcess-precision=standard>)
# The SIMD paths are written with SIMDe (Debian: libsimde-dev).
check_include_file(simde/x86/avx512.h SATC_HAS_SIMDE)

add_library(satc STATIC
  ${SATC_DIR}/src/api/cull.c ${SATC_DIR}/src/core/batch.c
  ${SATC_DIR}/src/forms/boxes.c ${SATC_DIR}/src/forms/convert.c ${SATC_DIR}/src/forms/trs.c
  ${SATC_DIR}/src/dispatch/dispatch.c
  ${SATC_DIR}/src/core/volume_d.c ${SATC_DIR}/src/kernels/frustum_consts.c ${SATC_DIR}/src/kernels/raster_cov.c ${SATC_DIR}/src/kernels/raster_skip.c
  ${SATC_DIR}/src/kernels/redecide.c
  ${SATC_DIR}/src/occlusion/cull_occluded.c ${SATC_DIR}/src/occlusion/fill.c ${SATC_DIR}/src/occlusion/pick.c
  ${SATC_DIR}/src/occlusion/pyramid.c ${SATC_DIR}/src/occlusion/subdepth.c
  ${SATC_DIR}/src/occlusion/views_occluded.c
  ${SATC_DIR}/src/passes/depth.c
  ${SATC_DIR}/src/passes/groups.c ${SATC_DIR}/src/passes/queries.c ${SATC_DIR}/src/passes/query_geom.c
  ${SATC_DIR}/src/passes/group_bounds.c ${SATC_DIR}/src/passes/run.c
  ${SATC_DIR}/src/passes/views.c ${SATC_DIR}/src/passes/views_pre.c ${SATC_DIR}/src/passes/views_groups.c
  ${SATC_DIR}/src/raster/fill.c ${SATC_DIR}/src/raster/raster.c ${SATC_DIR}/src/raster/setup.c
  ${SATC_DIR}/src/raster/setup_wide.c
  ${SATC_DIR}/src/scalar/cull_planes.c ${SATC_DIR}/src/scalar/cull_w1.c
  ${SATC_DIR}/src/scalar/cull_scalar.c ${SATC_DIR}/src/scalar/load_scalar.c
  ${SATC_DIR}/src/scalar/occl_ref.c
  ${SATC_DIR}/src/volumes/clip_corners.c ${SATC_DIR}/src/volumes/frustum.c ${SATC_DIR}/src/volumes/frustum_double.c ${SATC_DIR}/src/volumes/frustum_look.c
  ${SATC_DIR}/src/volumes/frustum_matrix.c ${SATC_DIR}/src/volumes/planes.c
  ${SATC_DIR}/src/volumes/query_volumes.c)
target_include_directories(satc PUBLIC ${SATC_DIR}/include ${CMAKE_CURRENT_BINARY_DIR}/satc_include
                           PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/satc_config)
# satc_version.h from the one place the version is written, meson.build.
file(STRINGS ${SATC_DIR}/meson.build satc_version_line REGEX "^  version: '[0-9]+\\.[0-9]+\\.[0-9]+',$")
string(REGEX MATCH "([0-9]+)\\.([0-9]+)\\.([0-9]+)" satc_version "${satc_version_line}")
if(NOT satc_version)
  message(FATAL_ERROR "satc: no version line in ${SATC_DIR}/meson.build")
endif()
set(SATC_VERSION_MAJOR ${CMAKE_MATCH_1})
set(SATC_VERSION_MINOR ${CMAKE_MATCH_2})
set(SATC_VERSION_PATCH ${CMAKE_MATCH_3})
configure_file(${SATC_DIR}/include/satc_version.h.in
               ${CMAKE_CURRENT_BINARY_DIR}/satc_include/satc_version.h @ONLY)
target_compile_options(satc PRIVATE ${SATC_FP_FLAGS})
target_compile_definitions(satc PRIVATE _POSIX_C_SOURCE=200809L)
set_target_properties(satc PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON)
if(UNIX)
  target_link_libraries(satc PUBLIC m)
endif()

# satc_isa(NAME "FILES" FLAGS...): FILES a list of paths under src/.
function(satc_isa name files)
  list(TRANSFORM files PREPEND ${SATC_DIR}/src/)
  add_library(${name} OBJECT ${files})
  target_include_directories(${name} PRIVATE ${SATC_DIR}/include
                             ${CMAKE_CURRENT_BINARY_DIR}/satc_include)
  target_compile_options(${name} PRIVATE ${SATC_FP_FLAGS} ${ARGN})
  set_target_properties(${name} PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
  target_sources(satc PRIVATE $<TARGET_OBJECTS:${name}>)
endfunction()

# SIMD paths to compile besides scalar (each needs SIMDe; trim the list
# to shorten the build: the emulated kernels take tens of seconds each).
set(SATC_ISAS sse41 avx2 avx512 neon CACHE STRING "satc SIMD paths to compile")
set(satc_isas ${SATC_ISAS})
if(NOT SATC_HAS_SIMDE)
  set(satc_isas "")
endif()
# x86 paths get their -m flags on x86 (elsewhere they are SIMDe emulation);
# NEON needs none: baseline on AArch64, emulated elsewhere.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64|i.86)$")
  set(satc_x86 1)
  set(satc_flags_sse41 -msse4.1)
  set(satc_flags_avx2 -mavx2)
  set(satc_flags_avx512 -mavx512f -mavx512vl -mavx512dq -mavx512bw -DSATC_AVX512_NATIVE)
endif()
foreach(isa IN ITEMS sse41 avx2 avx512 neon)
  set(satc_have_${isa} 0)
  if(isa IN_LIST satc_isas)
    set(satc_have_${isa} 1)
    set(satc_src_dir sse)
    if(isa STREQUAL "neon")
      set(satc_src_dir neon)
    endif()
    satc_isa(satc_${isa} "${satc_src_dir}/cull_${isa}.c;${satc_src_dir}/raster_${isa}.c" ${satc_flags_${isa}})
  endif()
endforeach()
# On x86 AVX-512 is also built for AVX2, for the CPUs without AVX-512.
set(satc_emu 0)
if(satc_x86 AND satc_have_avx512)
  set(satc_emu 1)
  satc_isa(satc_avx512_emu "sse/cull_avx512.c;sse/raster_avx512.c" -mavx2 -DSATC_AVX512_EMU -Wno-psabi)
endif()

# dispatch.c learns from config.h which paths are compiled in.
file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/satc_config/config.h CONTENT "\
#define SATC_HAVE_SSE41 @satc_have_sse41@
#define SATC_HAVE_AVX2 @satc_have_avx2@
#define SATC_HAVE_AVX512 @satc_have_avx512@
#define SATC_HAVE_AVX512_EMU @satc_emu@
#define SATC_HAVE_NEON @satc_have_neon@
")
