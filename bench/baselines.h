/* satc benchmarks: the other ways of culling, one box per call, and the
 * engines' ways built per instruction set (baseline_*.c, peers.c). */
#ifndef SATC_BENCH_BASELINES_H
#define SATC_BENCH_BASELINES_H

#include <stddef.h>
#include <stdint.h>
#include "satc.h"
#include "scenes.h"

/* ------------------------------------------------------------------ */
/* Baselines (baseline_*.c): one box per call, world-space float math   */
/* ------------------------------------------------------------------ */

enum { BL_EBERLY, BL_HOFF, BL_AABB, BL_CGLM, BL_COUNT };

/* Frustum data every baseline shares, built once per scene in double and
 * rounded to float. Planes are inward: n.X + d >= 0 inside, order near,
 * left, right, bottom, top, far (Hoff's order). */
typedef struct bl_frustum {
    float E[3], L[3], U[3], D[3];
    float l, mu, n, f, ratio;     /* Eberly: symmetric half-extents on the near plane, f / n */
    float plane[6][4];            /* (nx, ny, nz, d), unit normal */
    float absn[6][3];             /* |nx|, |ny|, |nz| */
    float inner[3];               /* a point of the frustum: the near-plane center E + nD */
    float corner[8][3];           /* near 0..3, far 4..7; corner k and k+4 on one lateral edge */
} bl_frustum;

/* 0 on success, -1 when the camera is not a symmetric finite perspective one. */
int bl_frustum_init(bl_frustum *bf, const satc_camera *cam);

/* Hoff's outcome for one box: how it was decided. */
enum {
    HOFF_REJECT = 0,      /* trivial reject, or nothing found */
    HOFF_ACCEPT = 1,      /* trivial accept: a vertex inside all planes */
    HOFF_EDGE = 2,        /* a frustum edge meets the box */
    HOFF_CONTAINED = 3,   /* the frustum lies in the box */
    HOFF_COMPLETION = 4   /* only a box edge through a frustum face finds it */
};

/* Box i of the SoA batch as one satc_obb (what a per-box API takes). */
static inline void bl_load_box(const satc_boxes *b, size_t i, satc_obb *o)
{
    for (int k = 0; k < 3; k++) {
        o->center[k] = b->center[k][i];
        o->extent[k] = b->extent[k][i];
        for (int c = 0; c < 3; c++)
            o->axis[k][c] = b->axis[k][c][i];
    }
}

int bl_eberly_box(const bl_frustum *bf, const satc_obb *b);
int bl_hoff_box(const bl_frustum *bf, const satc_obb *b);
int bl_aabb_box(const bl_frustum *bf, const satc_obb *b);

/* Batch loops: cull [0, n) into a bitmask (ceil(n/8) bytes); return visible. */
/* One box per call over a batch, into a bitmask (the baselines' shared
 * loop): defines `name`, visible when `visible(bf, &box)` is true. */
#define BL_BATCH(name, visible)                                                                \
    size_t name(const bl_frustum *bf, const satc_boxes *b, size_t n, uint8_t *mask)             \
    {                                                                                          \
        size_t vis = 0;                                                                        \
        for (size_t i0 = 0; i0 < n; i0 += 8) {                                                 \
            unsigned byte = 0;                                                                 \
            for (size_t j = 0; j < 8 && i0 + j < n; j++) {                                     \
                satc_obb o;                                                                    \
                bl_load_box(b, i0 + j, &o);                                                    \
                unsigned v = (visible(bf, &o)) != 0;                                           \
                byte |= v << j;                                                                \
                vis += v;                                                                      \
            }                                                                                  \
            mask[i0 / 8] = (uint8_t)byte;                                                      \
        }                                                                                      \
        return vis;                                                                            \
    }

size_t bl_eberly_batch(const bl_frustum *bf, const satc_boxes *b, size_t n, uint8_t *mask);
size_t bl_hoff_batch(const bl_frustum *bf, const satc_boxes *b, size_t n, uint8_t *mask);
size_t bl_aabb_batch(const bl_frustum *bf, const satc_boxes *b, size_t n, uint8_t *mask);
/* Hoff as written (no completion): the same bitmask minus HOFF_COMPLETION. */
size_t bl_hoff_as_written(const bl_frustum *bf, const satc_boxes *b, size_t n, uint8_t *mask);

/* cglm (baseline_cglm.c): glm_aabb_frustum on world AABBs prepared once. */
int bl_cglm_available(void);
const char *bl_cglm_version(void);
typedef struct bl_cglm bl_cglm;
/* Builds the view-projection matrix in double from cam, extracts cglm's
 * planes and the n world AABBs (min, max) of the boxes. NULL if cglm is
 * absent or allocation fails. */
bl_cglm *bl_cglm_prepare(const satc_camera *cam, const satc_boxes *b, size_t n);
void bl_cglm_free(bl_cglm *c);
/* The prepared AABBs (24 B per box), for the stream of the same bytes. */
const void *bl_cglm_aabb(const bl_cglm *c);
/* cglm's batch built with the project's flags (no -mavx*), as on a machine
 * where satc runs its scalar path. */
size_t bl_cglm_batch_project(const bl_cglm *c, size_t n, uint8_t *mask);

const char *bl_name(int which);
const char *bl_label(int which);

/* Engine-frame baselines on 4x4 column-major matrices and local boxes
 * (baseline_filament.c: one per renderable; baseline_bevy.c: one for
 * all), and cglm's batch: each built
 * once per instruction set (bench/meson.build), its symbols suffixed
 * with the build's name (FB_ISA: avx2, avx512, or base where neither
 * exists). fb_filament_cull rounds n up to a multiple of 8, as Filament
 * does: the arrays and out need room for it. */
#define FB_CAT2(a, b) a##_##b
#define FB_CAT(a, b) FB_CAT2(a, b)
#ifdef FB_ISA
#define FB_NAME(f) FB_CAT(f, FB_ISA)
#endif
#define FB_DECLARE(isa)                                                                                          \
    void fb_filament_arvo_##isa(const float *restrict m, const float *restrict lbox, size_t n,                \
                                float *restrict c3, float *restrict e3);                                       \
    size_t fb_filament_cull_##isa(const bl_frustum *bf, const float *restrict c3, const float *restrict e3,    \
                                  size_t n, uint8_t *restrict out);                                            \
    size_t fb_bevy_batch_##isa(const bl_frustum *bf, const float *m, size_t n, const float lc[3],              \
                               const float lh[3], uint8_t *mask);                                              \
    size_t bl_cglm_batch_##isa(const bl_cglm *c, size_t n, uint8_t *mask);
FB_DECLARE(avx2)
FB_DECLARE(avx512)
FB_DECLARE(base)

/* One build of the peers (peers.c): NULL when it was not built or this
 * CPU cannot run it. */
enum { PB_AVX2, PB_AVX512, PB_COUNT };
typedef struct fb_peer {
    const char *name;  /* "avx2", "avx512", or "base" (the project's flags, non-x86) */
    const char *flags; /* the instruction-set flags it was compiled with */
    const char *filament_cc; /* the compiler of Filament's passes: "clang" or this build's */
    satc_isa isa;      /* satc's path on the same instruction set */
    /* Filament's transform pass: n matrices and n local boxes {c, e} */
    void (*arvo)(const float *restrict m, const float *restrict lbox, size_t n, float *restrict c3,
                 float *restrict e3);
    size_t (*cull)(const bl_frustum *bf, const float *restrict c3, const float *restrict e3, size_t n,
                   uint8_t *restrict out);
    size_t (*bevy)(const bl_frustum *bf, const float *m, size_t n, const float lc[3], const float lh[3],
                   uint8_t *mask);
    size_t (*cglm)(const bl_cglm *c, size_t n, uint8_t *mask);
} fb_peer;
const fb_peer *fb_peer_get(int which);
/* The build for satc's path isa (AVX-512 or AVX2 build), else any. */
const fb_peer *fb_peer_for(satc_isa isa);

#endif
