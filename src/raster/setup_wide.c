/* The eight-box setup built for the baseline instruction set (two lanes;
 * the tests compare it with the one-box setup on every machine), and the
 * choice of a build per path: the native AVX2 and AVX-512 ones, which
 * run faster than one box at a time; none elsewhere, where two lanes do
 * not. Every build gives the one-box setup's bits. */
#include "config.h"

#include "raster.h"

#if !defined(__wasm__) /* the web has no wide build: no bytes for it */
#define SATC_SETUP_WIDE satc_raster_setup_wide_base
#define SW_L 2
#include "../kernels/raster_setup_wide.h"
#endif

satc_raster_wide_fn satc_raster_wide_for(satc_isa isa)
{
    switch (isa) {
#if SATC_HAVE_AVX512 && (defined(__x86_64__) || defined(__i386__))
    case SATC_ISA_AVX512:
        return (satc_isa_native() & SATC_ISA_AVX512) ? satc_raster_setup_wide_avx512 : NULL;
#endif
#if SATC_HAVE_AVX2 && (defined(__x86_64__) || defined(__i386__))
    case SATC_ISA_AVX2:
        return (satc_isa_native() & SATC_ISA_AVX2) ? satc_raster_setup_wide_avx2 : NULL;
#endif
    default:
        return NULL;
    }
}
