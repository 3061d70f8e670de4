/* checkasm's depth comparison (checkasm_depth.c): satc_cull_depth on one
 * path against the scalar reference, every output bit for bit. */
#ifndef SATC_CHECKASM_DEPTH_H
#define SATC_CHECKASM_DEPTH_H

#include <stddef.h>
#include <stdint.h>

#include "satc.h"

struct satc_kernels;

/* Mismatches of the depths, 16- and 32-bit keys and both sorted orders
 * (and status and visible count) of kernels k (a runnable path) against
 * the reference's, on volumes [first, first + count) of b, every bit (a
 * NaN depth must be SATC_DEPTH_NAN_BITS on both); 0 when f has no depth
 * (plane volumes). *what: a short word on the first difference. */
uint64_t ca_depth_compare(const struct satc_kernels *k, const satc_frustum *f, const satc_batch *b,
                          size_t first, size_t count, int mode, const char **what);

#endif
