/* The rasterizer's fill on NEON: 4 texels per register (the math is in
 * ../kernels/raster_fill.h); native on AArch64, SIMDe elsewhere. */
#if defined(__aarch64__) && !defined(__ARM_NEON)
#error "raster_neon.c must be compiled with NEON enabled on AArch64"
#endif

#include "neon_ops.h"

static inline int m_any(M m) { return simde_vmaxvq_u32(m) != 0; }
static inline unsigned m_bits(M m)
{
    static const uint32_t bit[4] = {1, 2, 4, 8};
    return (unsigned)simde_vaddvq_u32(simde_vandq_u32(m, simde_vld1q_u32(bit)));
}

#define SATC_RASTER_FILL satc_raster_fill_neon
#include "../kernels/raster_fill.h"
