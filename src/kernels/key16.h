/*
 * The 16-bit depth key (satc.h, satc_depth_results.key16), written once:
 * the sort's scalar code (src/passes/depth.c) and every vector path's
 * file (kernels.h) compile this same loop, which the compiler vectorizes
 * with the file's instruction set. Only IEEE double subtract, multiply,
 * compares and the truncating conversion: the same bits on every path.
 */
#ifndef SATC_KEY16_H
#define SATC_KEY16_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

/* floor((d - lo) * scale) clamped to [0, 65535]: d >= lo for every
 * finite d, so the product is >= 0 and truncation is the floor. NaN and
 * +Inf give NaN or +Inf products (65535), -Inf -Inf or NaN (0). Written
 * without branches so that the compiler vectorizes the loops over it. */
static inline uint16_t satc_key16_of(float d, double lo, double scale)
{
    double t = ((double)d - lo) * scale;
    t = t < 65535.0 ? t : 65535.0; /* NaN too */
    t = t > 0.0 ? t : 0.0;
    return (uint16_t)(d == -INFINITY ? 0 : (int32_t)t);
}

/* k[j] = the key of d[j] for j < n. */
static inline void satc_key16_loop(const float *d, size_t n, double lo, double scale, uint16_t *k)
{
    for (size_t j = 0; j < n; j++)
        k[j] = satc_key16_of(d[j], lo, scale);
}

#endif
