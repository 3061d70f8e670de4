/*
 * The two ways web splat viewers order `.splat` records today, written as
 * a careful viewer author would (plain C loops the compiler vectorizes),
 * built once per instruction set with the flags of the satc path they are
 * compared with (bench/meson.build; FB_ISA suffixes the symbols):
 *  - sort-all: the depth of every splat (view direction times position,
 *    scaled by 4096 to an integer), their range, a 16-bit key per splat
 *    and one counting sort of all of them (antimatter15/splat's worker);
 *  - ball: each splat's center and radius 3 max(sigma) against the six
 *    planes, then the depths of the kept, their range, a 16-bit key per
 *    kept splat and a counting sort of the kept, back to front.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "splat_viewers.h"

#define SV_CAT2(a, b) a##_##b
#define SV_CAT(a, b) SV_CAT2(a, b)
#define SV_NAME(f) SV_CAT(f, FB_ISA)

size_t SV_NAME(sv_sort_all)(const float *rec, size_t n, const float dir[3], int32_t *depth,
                            uint32_t *counts, uint32_t *order)
{
    const float m0 = dir[0], m1 = dir[1], m2 = dir[2];
    int32_t lo = INT32_MAX, hi = INT32_MIN;
    for (size_t i = 0; i < n; i++) {
        const float *q = rec + 8 * i;
        int32_t d = (int32_t)((m0 * q[0] + m1 * q[1] + m2 * q[2]) * 4096.0f);
        depth[i] = d;
        lo = d < lo ? d : lo, hi = d > hi ? d : hi;
    }
    float inv = (256.0f * 256.0f - 1.0f) / (float)(hi - lo ? hi - lo : 1);
    memset(counts, 0, 65536 * sizeof *counts);
    for (size_t i = 0; i < n; i++) {
        uint32_t k = (uint32_t)((float)(depth[i] - lo) * inv);
        depth[i] = (int32_t)k;
        counts[k]++;
    }
    uint32_t at = 0;
    for (size_t k = 0; k < 65536; k++) {
        uint32_t c = counts[k];
        counts[k] = at;
        at += c;
    }
    for (size_t i = 0; i < n; i++)
        order[counts[depth[i]]++] = (uint32_t)i;
    return n;
}

/* Blocks small enough that the flags and depths stay in L1 between the
 * test loop and the compaction. */
#define SV_BLOCK 512

size_t SV_NAME(sv_ball)(const sv_planes *pl, const float *rec, size_t n, float *kd,
                        uint32_t *kidx, uint16_t *key, uint32_t *counts, uint32_t *order)
{
    const float a0 = pl->p[0][0], b0 = pl->p[0][1], c0 = pl->p[0][2], d0 = pl->p[0][3];
    const float a1 = pl->p[1][0], b1 = pl->p[1][1], c1 = pl->p[1][2], d1 = pl->p[1][3];
    const float a2 = pl->p[2][0], b2 = pl->p[2][1], c2 = pl->p[2][2], d2 = pl->p[2][3];
    const float a3 = pl->p[3][0], b3 = pl->p[3][1], c3 = pl->p[3][2], d3 = pl->p[3][3];
    const float a4 = pl->p[4][0], b4 = pl->p[4][1], c4 = pl->p[4][2], d4 = pl->p[4][3];
    const float a5 = pl->p[5][0], b5 = pl->p[5][1], c5 = pl->p[5][2], d5 = pl->p[5][3];
    const float m0 = pl->dir[0], m1 = pl->dir[1], m2 = pl->dir[2];
    size_t nk = 0;
    float lo = 3.4e38f, hi = -3.4e38f;
    for (size_t i0 = 0; i0 < n; i0 += SV_BLOCK) {
        size_t m = n - i0 < SV_BLOCK ? n - i0 : SV_BLOCK;
        const float *r = rec + 8 * i0;
        int32_t keep[SV_BLOCK];
        float dz[SV_BLOCK];
        for (size_t j = 0; j < m; j++) {
            const float *q = r + 8 * j;
            float x = q[0], y = q[1], z = q[2];
            float s = q[3] > q[4] ? q[3] : q[4];
            s = q[5] > s ? q[5] : s;
            float nr = -3.0f * s;
            int in = (a0 * x + b0 * y + c0 * z + d0 >= nr) & (a1 * x + b1 * y + c1 * z + d1 >= nr) &
                     (a2 * x + b2 * y + c2 * z + d2 >= nr) & (a3 * x + b3 * y + c3 * z + d3 >= nr) &
                     (a4 * x + b4 * y + c4 * z + d4 >= nr) & (a5 * x + b5 * y + c5 * z + d5 >= nr);
            keep[j] = in;
            dz[j] = m0 * x + m1 * y + m2 * z;
        }
        size_t k0 = nk;
        for (size_t j = 0; j < m; j++) { /* branch-free compaction */
            kd[nk] = dz[j];
            kidx[nk] = (uint32_t)(i0 + j);
            nk += (size_t)keep[j];
        }
        for (size_t k = k0; k < nk; k++) { /* the range while the block is in L1 */
            lo = kd[k] < lo ? kd[k] : lo;
            hi = kd[k] > hi ? kd[k] : hi;
        }
    }
    float inv = hi > lo ? 65535.0f / (hi - lo) : 0.0f;
    memset(counts, 0, 65536 * sizeof *counts);
    for (size_t k = 0; k < nk; k++) { /* key and count in one pass */
        float t = (kd[k] - lo) * inv;
        uint16_t v = (uint16_t)(int32_t)(t < 65535.0f ? t : 65535.0f);
        key[k] = v;
        counts[v]++;
    }
    uint32_t at = 0; /* far first: back to front */
    for (size_t v = 65536; v-- > 0;) {
        uint32_t c = counts[v];
        counts[v] = at;
        at += c;
    }
    for (size_t k = 0; k < nk; k++)
        order[counts[key[k]]++] = kidx[k];
    return nk;
}
