/*
 * The views pass's shared prefilter (RTR 22.14.1, hierarchical culling,
 * with bounds the pass builds itself): per chunk of a pass over volumes
 * of any form, the world box of every SATC_MICRO volumes
 * (satc_bounds_fn, once for all views) and of the whole chunk. Each view
 * then decides the chunk (satc_group_decide_x), else all its micro groups
 * at once with its own conservative kernel on inflated boxes, and runs
 * its kernel only on the volumes of the groups left undecided.
 *
 * Why every view's bits stay its flat cull's (passes/groups.c's argument,
 * per volume): a volume b whose true least value on a plane p of the view
 * exceeds 2 tol_b is culled by its flat plane test, and one whose greatest
 * value on every p is below -2 tol_b (and the plane volume's margin) is
 * found inside. Let M be a micro group's box, holding its volumes, tol_max
 * the largest tol_b in the chunk's box (an instance's S also counts sum_r
 * sum_k |m_rk lc_k|, at most the chunk's largest xs: the bounds report it
 * per group as the kernels compute it), and M' = M grown by d = 2 tol_max
 * / min_p |m_p|_1 along every axis. Moving a point by d along every axis
 * changes g_p by d |m_p|_1 >= 2 tol_max. So if the conservative kernel
 * culls M' (then M' is truly outside some plane p: its rounding stays
 * below its tolerance), every volume of M lies outside p by more than
 * 2 tol_b; if it finds M' inside, every volume of M is inside every plane
 * by more than 2 tol_b. Each step below rounds so that the boxes only grow.
 */
#include <math.h>
#include <string.h>

#include "../core/internal.h"
#include "views_pre.h"

/*
 * Why the derived forms' boxes hold their volumes (OBBs, half axes,
 * instances: derived_box in kernels/bounds.h computes them in float). With
 * u = 2^-24, a volume's float corners a <= c' <= z (c' its float center)
 * lie in its group's [l, h]. Its true lower corner c - H is at least
 * a - u |a| (the subtraction) - u |c'| - 3.01 u P (an instance's center:
 * t plus three products summed, rounding relative to P = sum |m_rk
 * lc_k| <= (1 + 6u) xs) - 3.01 u H' (H', a sum of non-negative products,
 * three roundings), and H' <= (h - l) / 2 + u (|l| + |h|) since z - a >=
 * 2 H' - u (|a| + |z|). So 2^-22 (|l| + |h| + (h - l) + xs) covers it
 * (about 25 % to spare for the double arithmetic here), and 2^-120 the
 * absolute errors of underflow, flushed to zero or not; likewise the
 * upper corner.
 */
void satc_pre_chunk(satc_pre *p, const float *lo, const float *hi, const float *xs, size_t ng,
                    size_t n, satc_form form)
{
    const int derived = form == SATC_FORM_OBB || form == SATC_FORM_HALF_AXES ||
                        form == SATC_FORM_INSTANCES || form == SATC_FORM_TRS;
    p->ng = ng;
    p->any = 0;
    p->whole = ng * SATC_MICRO == n;
    p->xs = 0.0;
    for (int q = 0; q < 3; q++)
        p->lo[q] = INFINITY, p->hi[q] = -INFINITY;
    for (size_t g = 0; g < ng; g++) {
        double l[3], h[3], x = xs ? xs[g] : 0.0;
        /* huge extra terms (S past SATC_MAX_MAGNITUDE: never culled), NaN */
        int ok = x < SATC_MAX_MAGNITUDE;
        for (int q = 0; q < 3; q++) {
            l[q] = lo[(size_t)q * ng + g], h[q] = hi[(size_t)q * ng + g];
            if (derived) {
                double w = 0x1p-22 * (fabs(l[q]) + fabs(h[q]) + (h[q] - l[q]) + x) + 0x1p-120;
                l[q] -= w, h[q] += w;
            } else {
                /* fl(c -+ |h|) is within 2^-24 of c -+ |h|: widen by 2^-23. */
                l[q] -= 0x1p-23 * fabs(l[q]), h[q] += 0x1p-23 * fabs(h[q]);
            }
            /* false for NaN; huge volumes are never decided either */
            ok &= l[q] <= h[q] && -l[q] < SATC_MAX_MAGNITUDE && h[q] < SATC_MAX_MAGNITUDE;
        }
        p->ok[g] = (unsigned char)ok;
        p->whole &= ok;
        if (!ok) {
            for (int q = 0; q < 3; q++)
                p->c[q][g] = 0.0f, p->need[q][g] = NAN;
            continue;
        }
        p->any = 1;
        p->xs = x > p->xs ? x : p->xs;
        for (int q = 0; q < 3; q++) {
            float c = (float)(0.5 * (l[q] + h[q]));
            double a = h[q] - c, z = c - l[q], need = a > z ? a : z;
            p->c[q][g] = c;
            p->need[q][g] = need + 0x1p-50 * (fabs(l[q]) + fabs(h[q]));
            p->lo[q] = l[q] < p->lo[q] ? l[q] : p->lo[q];
            p->hi[q] = h[q] > p->hi[q] ? h[q] : p->hi[q];
        }
    }
    for (int q = 0; q < 3; q++) {
        float c = p->any ? (float)(0.5 * (p->lo[q] + p->hi[q])) : 0.0f;
        p->cc[q] = c;
        double a = p->hi[q] - c, z = c - p->lo[q];
        double need = (a > z ? a : z) + 0x1p-50 * (fabs(p->lo[q]) + fabs(p->hi[q]));
        p->ch[q] = p->any ? satc_float_up(need) : 0.0f;
    }
}

size_t satc_pre_run(const satc_pre *p, satc_kernel_fn fn, satc_kernel_fn fn_box,
                  const satc_frustum *f, const satc_gview *gv, const satc_batch *b, size_t first,
                  size_t n, unsigned flags, uint64_t *vis, uint64_t *in)
{
    size_t end = first + n;
    for (size_t w = 0; w < SATC_CHUNK_WORDS; w++)
        vis[w] = in[w] = 0;
    if (p->whole) {
        int d = satc_group_decide_x(gv, p->cc, p->ch, p->xs);
        if (d) {
            if (d > 0) {
                satc_set_bits(vis, 0, n);
                if (flags & SATC_K_CLASSIFY)
                    satc_set_bits(in, 0, n);
            }
            return 0;
        }
    }
    double d = p->any ? 2.0 * (1.0 + 0x1p-9) * satc_group_tol(gv, p->lo, p->hi, p->xs) / gv->mnorm
                      : INFINITY;
    if (!(d < 0x1p100)) {
        fn(f, b, first, n, flags, vis, in);
        return n;
    }
    /* The micro groups grown by d, through the view's conservative kernel
     * (a group whose volumes are not all finite gets a NaN box: kept). */
    float mh[3][SATC_PRE_GROUPS];
    for (int q = 0; q < 3; q++) {
        for (size_t g = 0; g < p->ng; g++)
            mh[q][g] = p->ok[g] ? satc_float_up(p->need[q][g] + d) : NAN;
    }
    satc_batch mb;
    memset(&mb, 0, sizeof mb);
    mb.form = SATC_FORM_AABB;
    mb.aabb.center = SATC_VEC3S_SOA(p->c[0], p->c[1], p->c[2]);
    mb.aabb.half = SATC_VEC3S_SOA(mh[0], mh[1], mh[2]);
    uint64_t mv[SATC_CHUNK_WORDS], mi[SATC_CHUNK_WORDS];
    fn_box(f, &mb, 0, p->ng, SATC_K_CLASSIFY | SATC_K_LAST, mv, mi);
    size_t run = first, sent = 0; /* [run, lo): volumes waiting for the kernel */
    for (size_t g = 0; g < p->ng; g++) {
        size_t lo = first + g * SATC_MICRO;
        int v = (int)(mv[g / 64] >> (g % 64)) & 1, i = (int)(mi[g / 64] >> (g % 64)) & 1;
        if (v && !i)
            continue; /* undecided */
        if (run < lo)
            satc_run_part(fn, f, b, first, end, flags, run, lo, vis, in), sent += lo - run;
        if (i) {
            satc_set_bits(vis, lo - first, SATC_MICRO);
            if (flags & SATC_K_CLASSIFY)
                satc_set_bits(in, lo - first, SATC_MICRO);
        }
        run = lo + SATC_MICRO;
    }
    if (run < end)
        satc_run_part(fn, f, b, first, end, flags, run, end, vis, in), sent += end - run;
    return sent;
}
