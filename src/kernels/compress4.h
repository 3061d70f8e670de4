/* Byte-shuffle controls for 4-lane kernels (SSE4.1 pshufb, NEON tbl) that
 * move the lanes named by a 4-bit mask to the front: entry m holds the
 * bytes of the set lanes in increasing order, then lane 0. */
#ifndef SATC_COMPRESS4_H
#define SATC_COMPRESS4_H

#include <stdint.h>

#define B4(l) 4 * (l), 4 * (l) + 1, 4 * (l) + 2, 4 * (l) + 3
static const uint8_t satc_compress4[16][16] = {
    {B4(0), B4(0), B4(0), B4(0)}, {B4(0), B4(0), B4(0), B4(0)},
    {B4(1), B4(0), B4(0), B4(0)}, {B4(0), B4(1), B4(0), B4(0)},
    {B4(2), B4(0), B4(0), B4(0)}, {B4(0), B4(2), B4(0), B4(0)},
    {B4(1), B4(2), B4(0), B4(0)}, {B4(0), B4(1), B4(2), B4(0)},
    {B4(3), B4(0), B4(0), B4(0)}, {B4(0), B4(3), B4(0), B4(0)},
    {B4(1), B4(3), B4(0), B4(0)}, {B4(0), B4(1), B4(3), B4(0)},
    {B4(2), B4(3), B4(0), B4(0)}, {B4(0), B4(2), B4(3), B4(0)},
    {B4(1), B4(2), B4(3), B4(0)}, {B4(0), B4(1), B4(2), B4(3)},
};
#undef B4

#endif
