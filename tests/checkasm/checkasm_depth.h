/* checkasm's depth comparison (checkasm_depth.c): satc_cull_depth on one
 * path against the scalar reference, every output bit for bit. */
#ifndef SATC_CHECKASM_DEPTH_H
#define SATC_CHECKASM_DEPTH_H

#include <stddef.h>
#include <stdint.h>

#include "satc.h"

/* Mismatches of the path's depths, 16- and 32-bit keys and both sorted
 * orders (and status and visible count) against the reference's, on
 * volumes [first, first + count) of b; 0 when isa does not run here or f
 * has no depth (plane volumes). *what: a short word on the first
 * difference. */
uint64_t ca_depth_compare(satc_isa isa, const satc_frustum *f, const satc_batch *b, size_t first,
                          size_t count, int mode, const char **what);

#endif
