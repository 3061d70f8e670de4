/* Web splat viewers' two orders of `.splat` records (splat_viewers.c),
 * one build per instruction set, suffixed with its name (avx2, avx512,
 * base: bench/meson.build). */
#ifndef SATC_BENCH_SPLAT_VIEWERS_H
#define SATC_BENCH_SPLAT_VIEWERS_H

#include <stddef.h>
#include <stdint.h>

/* Six planes (nx, ny, nz, d), unit inward normals (inside: n.p + d >= 0),
 * and the view direction the depths are taken along. */
typedef struct sv_planes {
    float p[6][4];
    float dir[3];
} sv_planes;

/* Sort-all: order gets all n indices by increasing key of the integer
 * depth; depth (n), counts (65536) are its arrays. Returns n. */
typedef size_t (*sv_sort_all_fn)(const float *rec, size_t n, const float dir[3], int32_t *depth,
                                 uint32_t *counts, uint32_t *order);
/* Ball test then sort of the kept: order gets the kept indices back to
 * front; kd, kidx (n each), key (n), counts (65536) are its arrays.
 * Returns the number kept. */
typedef size_t (*sv_ball_fn)(const sv_planes *pl, const float *rec, size_t n, float *kd,
                             uint32_t *kidx, uint16_t *key, uint32_t *counts, uint32_t *order);

#define SV_DECLARE(isa)                                                                           \
    size_t sv_sort_all_##isa(const float *rec, size_t n, const float dir[3], int32_t *depth,      \
                             uint32_t *counts, uint32_t *order);                                  \
    size_t sv_ball_##isa(const sv_planes *pl, const float *rec, size_t n, float *kd,              \
                         uint32_t *kidx, uint16_t *key, uint32_t *counts, uint32_t *order);
SV_DECLARE(avx2)
SV_DECLARE(avx512)
SV_DECLARE(base)

#endif
