/* Stage 0 of the kernels: the helpers every stage uses (inline
 * attributes, lane-mask counts), the per-frustum constants broadcast once
 * per call (vconst) and a volume as lanes (vbox, satc_box_frame's fields). */
#ifndef SATC_K_CONSTS_H
#define SATC_K_CONSTS_H


#include <math.h>
#include <string.h>

#include "../core/internal.h"

#define SATC_FULL ((1u << W) - 1u)

/* Set bits of a lane mask (W <= 16): a nibble table in a constant, so no
 * POPCNT instruction is needed. */
static inline unsigned satc_popcount(unsigned x)
{
    const uint64_t nib = 0x4332322132212110ull;
    unsigned c = (unsigned)((nib >> (4 * (x & 15u))) & 15u) +
                 (unsigned)((nib >> (4 * (x >> 4 & 15u))) & 15u);
#if W > 8
    c += (unsigned)((nib >> (4 * (x >> 8 & 15u))) & 15u) +
         (unsigned)((nib >> (4 * (x >> 12 & 15u))) & 15u);
#endif
    return c;
}

static inline unsigned satc_ctz(unsigned x)
{
#if defined(__GNUC__)
    return (unsigned)__builtin_ctz(x);
#else
    unsigned c = 0;
    while (!(x & 1u)) {
        x >>= 1;
        c++;
    }
    return c;
#endif
}

/* Per-frustum constants, broadcast once per call. */
typedef struct vconst {
    V o[3], L[3], U[3], D[3];
    V x0, x1, y0, y1, n, f, fin, fdx, fdy, epsk, maxmag, zero, half, tiny, sfloor;
    V c[3], h[3], nh[3], tolt;
    V pabs[5][3], col1[3], norm2[5], inv[4];
    V lane; /* 0, 1, ..., W - 1 */
#if W == 1
    float eo_k[5], eo_m3, eo_scap1, eo_tcap1; /* early_out.h's test 1 */
    float eo_n[6][3], eo_abs[6][3], eo_off[6]; /* its planes (test 3) */
    float eo_alpha, eo_beta, eo_smax, eo_scap, eo_tcap;
#endif
    /* SATC_FRUSTUM_PLANES: margin2 broadcast; planes, vertices and edges
     * are broadcast from fr where used (kept here, 16 planes took 7 KB of
     * stack per view on AVX-512). */
    const satc_frustum *fr;
    V margin2;
} vconst;

#if W == 1
static void early_out_init(vconst *k, const satc_fconsts *fc);
#endif

static void vconst_init(vconst *k, const satc_frustum *f)
{
    satc_fconsts fc;
    satc_frustum_consts(f, &fc);
    float lane[W];
    for (int j = 0; j < W; j++)
        lane[j] = (float)j;
    k->lane = v_load(lane);
    for (int j = 0; j < 3; j++) {
        k->o[j] = v_set1(f->origin[j]);
        k->L[j] = v_set1(f->frame[0][j]);
        k->U[j] = v_set1(f->frame[1][j]);
        k->D[j] = v_set1(f->frame[2][j]);
        k->c[j] = v_set1(f->center[j]);
        k->h[j] = v_set1(f->half[j]);
        k->nh[j] = v_set1(-f->half[j]);
        k->col1[j] = v_set1(fc.col1[j]);
        for (int p = 0; p < 5; p++)
            k->pabs[p][j] = v_set1(fc.pabs[p][j]);
    }
    for (int p = 0; p < 5; p++)
        k->norm2[p] = v_set1(fc.norm2[p]);
    for (int p = 0; p < 4; p++)
        k->inv[p] = v_set1(fc.inv[p]);
    k->x0 = v_set1(f->x0), k->x1 = v_set1(f->x1);
    k->y0 = v_set1(f->y0), k->y1 = v_set1(f->y1);
    k->n = v_set1(f->n), k->f = v_set1(f->f), k->fin = v_set1(f->f_in);
    k->fdx = v_set1(f->dx), k->fdy = v_set1(f->dy);
    k->epsk = v_set1(f->eps_k);
    k->maxmag = v_set1(SATC_MAX_MAGNITUDE);
    k->zero = v_set1(0.0f);
    k->half = v_set1(0.5f);
    k->tiny = v_set1(SATC_TINY);
    k->sfloor = v_set1(SATC_S_FLOOR);
    k->tolt = v_set1(f->tol_t);
    k->fr = f;
    k->margin2 = v_set1(f->kind == SATC_FRUSTUM_PLANES ? f->margin2 : 0.0f);
#if W == 1
    early_out_init(k, &fc);
#endif
}

/*
 * A volume as lanes: satc_box_frame's fields (without bad). Kept as an
 * array so undecided lanes can be packed field by field.
 */
enum {
    F_DX, F_DY, F_DZ,
    F_HX, F_HY = F_HX + 3, F_HZ = F_HY + 3,
    F_R = F_HZ + 3, /* five radii */
    F_S = F_R + 5,
    F_RAD,
    F_N /* fields */
};

typedef struct vbox {
    V v[F_N];
} vbox;

#endif
