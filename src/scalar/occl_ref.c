/* The occlusion stage's reference: the screen rectangle of a volume in
 * level-0 texels and its nearest view depth (docs/occlusion.md derives
 * each margin), and the pyramid's max reduction. kernels/occl.h runs
 * these expressions in every lane, in this order. */
#include <math.h>

#include "cull_scalar.h"

#define REL 4.76837158203125e-07f /* 2^-21 = 8 u */
#define TEX 9.765625e-04f         /* 2^-10 texel */

static inline float mn(float a, float b) { return a < b ? a : b; }
static inline float mx(float a, float b) { return a > b ? a : b; }
static inline float down(float a) { return a - (fabsf(a) * REL + SATC_TINY); }
static inline float up(float a) { return a + (fabsf(a) * REL + SATC_TINY); }
static inline float sum_abs3(const float *a) { return fabsf(a[0]) + fabsf(a[1]) + fabsf(a[2]); }

/* A box's slopes over its 8 corners, each moved by e on every axis. */
static void corners(const satc_box_frame *o, float e, float s[4])
{
    float lo_a = INFINITY, hi_a = -INFINITY, lo_b = INFINITY, hi_b = -INFINITY;
    for (int q = 0; q < 8; q++) {
        float cx, cy, cz;
        satc_box_corner_ref(o, q, &cx, &cy, &cz);
        float rn = 1.0f / (cz - e), rf = 1.0f / (cz + e);
        float xl = cx - e, xh = cx + e, yl = cy - e, yh = cy + e;
        float al = xl * (xl >= 0.0f ? rf : rn), ah = xh * (xh >= 0.0f ? rn : rf);
        float bl = yl * (yl >= 0.0f ? rf : rn), bh = yh * (yh >= 0.0f ? rn : rf);
        lo_a = mn(lo_a, al), hi_a = mx(hi_a, ah);
        lo_b = mn(lo_b, bl), hi_b = mx(hi_b, bh);
    }
    s[0] = down(lo_a), s[1] = up(hi_a), s[2] = down(lo_b), s[3] = up(hi_b);
}

/* A ball's tangent slopes along one axis: center (u, z), radius r < z. */
static void tangent(float u, float z, float r, float *lo, float *hi)
{
    float den = (z - r) * (z + r);
    float uu = u * u, zz = z * z, rr = r * r;
    float q = sqrtf((zz - rr) + uu);
    float p = u * z, g = r * q;
    float sum = (uu + zz) + rr;
    float m = (REL * (fabsf(p) + g) + (r * (REL * sum)) / q) / den;
    float ql = (p - g) / den, qh = (p + g) / den;
    *lo = down(ql - (m + fabsf(ql) * REL));
    *hi = up(qh + (m + fabsf(qh) * REL));
}

int satc_occl_rect_ref(const satc_frustum *f, const satc_occl_consts *oc,
                       const satc_box_frame *o, int sphere, float r[SATC_OC_N])
{
    int ortho = f->kind == SATC_FRUSTUM_ORTHOGRAPHIC;
    float e = oc->e2 * o->s + f->tol_t;
    float rz = sphere ? o->rad : sum_abs3(o->hz);
    float zmin = (o->dz - rz) - (e + e);
    float zmax = (o->dz + rz) + (e + e);
    float s[4];
    if (ortho) {
        float rx = sphere ? o->rad : sum_abs3(o->hx), ry = sphere ? o->rad : sum_abs3(o->hy);
        s[0] = (o->dx - rx) - e, s[1] = (o->dx + rx) + e;
        s[2] = (o->dy - ry) - e, s[3] = (o->dy + ry) + e;
    } else if (sphere) {
        float rad = o->rad + e;
        tangent(o->dx, o->dz, rad, &s[0], &s[1]);
        tangent(o->dy, o->dz, rad, &s[2], &s[3]);
    } else {
        corners(o, e, s);
    }
    float alo = mn(mx(s[0], f->x0), f->x1), ahi = mn(mx(s[1], f->x0), f->x1);
    float blo = mn(mx(s[2], f->y0), f->y1), bhi = mn(mx(s[3], f->y0), f->y1);
    float c0 = (f->x1 - ahi) * oc->sx - TEX, c1 = (f->x1 - alo) * oc->sx + TEX;
    float r0 = (blo - f->y0) * oc->sy - TEX, r1 = (bhi - f->y0) * oc->sy + TEX;
    r[SATC_OC_COL0] = mn(mx(c0, 0.0f), oc->wm1);
    r[SATC_OC_COL1] = mn(mx(c1, 0.0f), oc->wm1);
    r[SATC_OC_ROW0] = mn(mx(r0, 0.0f), oc->hm1);
    r[SATC_OC_ROW1] = mn(mx(r1, 0.0f), oc->hm1);
    r[SATC_OC_ZMIN] = zmin;
    r[SATC_OC_ZMAX] = zmax;
    return zmin > f->n && !o->bad;
}

void satc_occl_ref(const satc_frustum *f, const satc_occl_consts *oc, const satc_batch *b,
                   size_t first, size_t n, unsigned flags, const uint64_t *vis,
                   float (*rect)[SATC_CHUNK], uint64_t *test)
{
    (void)flags;
    satc_fconsts k;
    satc_frustum_consts(f, &k);
    for (size_t w = 0; w < SATC_CHUNK_WORDS; w++)
        test[w] = 0;
    for (size_t j = 0; j < n; j++) {
        if (!(vis[j / 64] >> (j % 64) & 1))
            continue;
        satc_box_frame o;
        satc_load_ref(f, &k, b, first + j, &o);
        float r[SATC_OC_N];
        int t = satc_occl_rect_ref(f, oc, &o, b->form == SATC_FORM_SPHERES, r);
        for (int q = 0; q < SATC_OC_N; q++)
            rect[q][j] = r[q];
        test[j / 64] |= (uint64_t)t << (j % 64);
    }
}

/* v + 0: -0 becomes +0 and, under flush-to-zero, a denormal 0, so a
 * max's bits do not depend on how the compiler selects; NaN: +Inf. */
static inline float known(float v)
{
    v = v + 0.0f;
    return v == v ? v : INFINITY;
}

void satc_reduce_level_ref(const float *src, uint32_t sw, uint32_t sh, float *dst, uint32_t dw,
                           uint32_t dh)
{
    for (uint32_t j = 0; j < dh; j++) {
        const float *r0 = src + (size_t)(2 * j) * sw;
        const float *r1 = 2 * j + 1 < sh ? r0 + sw : r0;
        for (uint32_t i = 0; i < dw; i++) {
            uint32_t a = 2 * i, b = 2 * i + 1 < sw ? 2 * i + 1 : 2 * i;
            float ma = mx(known(r0[a]), known(r1[a]));
            float mb = mx(known(r0[b]), known(r1[b]));
            dst[(size_t)j * dw + i] = mx(ma, mb);
        }
    }
}
