/*
 * Group bounds (satc_groups): a group's world AABB is tested against a
 * view's planes in double (RTR 22.14.1, hierarchical culling); a group
 * clearly out is culled whole, one clearly in is visible whole, and the
 * rest go to the kernels volume by volume.
 *
 * Why the answer is the flat cull's: the flat plane test of volume b on
 * plane p computes fl(g_p - r_p - tol_b) > 0 (out) and fl(g_p + r_p +
 * tol_b) <= 0 (inside), with rounding below tol_b (the contract's
 * premise for never culling a touching volume; docs/error-bound.md
 * proves at most 7/12 tol_b for the plane tier). If b lies in the bound,
 * its exact extreme values on p lie within the bound's. So a bound whose
 * least value on p exceeds 2 tol_max (tol_max: the largest tol_b any
 * volume inside it can have) makes every such volume's plane test say
 * out, and a bound whose greatest value on every p is below -2 tol_max
 * makes every plane test say inside. tol_b = eps_k S_b + tol_t, and S_b
 * (header contract) is at most sum_k col1_k (|c_k - O_k| + 2 h_k): the
 * frame's 1-norm of the center offset plus of the half-axis vectors,
 * whose world components along axis k sum to at most the bound's h_k.
 */
#include <math.h>
#include <string.h>

#include "passes.h"

/* Plane p of view g: m and off (a plane volume's n.(x - O) + w >= 0
 * inside: m = -n, off = w, exact in double). */
static double plane_at(const satc_gview *g, int p, double m[3])
{
    if (g->vol) {
        for (int k = 0; k < 3; k++)
            m[k] = -(double)g->vol->plane[p][k];
        return g->vol->plane[p][3];
    }
    memcpy(m, g->m[p], sizeof g->m[p]);
    return g->off[p];
}

/* Plane p of the flat plane test as g_p(x) = m_p . (x - O) - off_p,
 * inside where g_p <= 0, in the kernels' units (unnormalised normals). */
static void add_plane(satc_gview *g, const double m[3], double off)
{
    memcpy(g->m[g->np], m, sizeof g->m[0]);
    g->off[g->np++] = off;
}

/* Instances: S also counts sum_r sum_k |m_rk lc_k|, the local offset's
 * products (their rounding is relative to them). With rho = max_k |lc_k|
 * / |lh_k| over the local boxes, that is at most rho sum_r sum_k |m_rk
 * lh_k| <= rho sum_r h_r of a bound holding the volume. rho is known per
 * call when the local box is shared or in a mesh table of moderate size;
 * otherwise (a local box per instance) it is +Inf and no group is
 * decided. The views pass's own bounds carry each group's largest term
 * instead (satc_bounds_fn's xs, through satc_group_decide_x). */
static double local_rho(const satc_batch *b)
{
    if (b->form != SATC_FORM_INSTANCES)
        return 0.0;
    const satc_instances *s = &b->instances;
    size_t nt = s->mesh ? s->mesh_count : 1;
    if ((!s->mesh && (s->local_center.stride || s->local_half.stride)) || nt > 65536)
        return INFINITY;
    double rho = 0.0;
    for (size_t t = 0; t < nt; t++) {
        float lc[3], lh[3];
        satc_vec3s_get(&s->local_center, t, lc);
        satc_vec3s_get(&s->local_half, t, lh);
        for (int k = 0; k < 3; k++) {
            double a = fabsf(lc[k]), h = fabsf(lh[k]);
            double q = a == 0.0 ? 0.0 : a / h; /* lh 0: +Inf; NaN: NaN */
            if (!(q <= rho))
                rho = isnan(q) ? INFINITY : q;
        }
    }
    return rho * (1.0 + 0x1p-20);
}

static void gview_planes(satc_gview *g, const satc_frustum *f, const satc_batch *b)
{
    satc_fconsts fc;
    satc_frustum_consts(f, &fc);
    memset(g, 0, sizeof *g);
    g->far_p = -1;
    g->in_only = -1;
    g->rho = local_rho(b);
    const float *L = f->frame[0], *U = f->frame[1], *D = f->frame[2];
    double m[3];
    for (int k = 0; k < 3; k++) {
        g->O[k] = f->origin[k];
        g->col1[k] = (double)fabsf(L[k]) + fabsf(U[k]) + fabsf(D[k]);
    }
    g->eps_k = f->eps_k;
    g->tol_t = f->tol_t;
    if (f->kind == SATC_FRUSTUM_PLANES) {
        /* n.(x - O) + w >= 0 inside: m = -n, off = w; SATC_INSIDE also
         * needs margin2. */
        g->vol = f;
        g->np = (int)f->nplanes;
        g->in_shift = f->margin2;
        return;
    }
    if (f->kind == SATC_FRUSTUM_ORTHOGRAPHIC) {
        /* |t_q| <= h_q with t_q = F_q . (x - O) - c_q. */
        for (int q = 0; q < 3; q++) {
            for (int k = 0; k < 3; k++)
                m[k] = f->frame[q][k];
            add_plane(g, m, (double)f->center[q] + f->half[q]);
            for (int k = 0; k < 3; k++)
                m[k] = -m[k];
            add_plane(g, m, (double)f->half[q] - f->center[q]);
        }
        return;
    }
    /* Near n <= D.v, far D.v <= f, sides x - x1 z <= 0, x0 z - x <= 0, ... */
    for (int k = 0; k < 3; k++)
        m[k] = -(double)D[k];
    add_plane(g, m, -(double)f->n);
    if (!f->infinite && isfinite(f->f)) {
        for (int k = 0; k < 3; k++)
            m[k] = D[k];
        g->far_p = g->np;
        g->far_shift = (double)f->f - f->f_in;
        add_plane(g, m, f->f);
    } else if (f->f_in < INFINITY) {
        /* No far plane to cull by, but SATC_INSIDE stops at f_in (a
         * matrix whose float far plane survives): a plane for inside only. */
        for (int k = 0; k < 3; k++)
            m[k] = D[k];
        g->in_only = g->np;
        add_plane(g, m, f->f_in);
    }
    const double s[4] = {f->x1, f->x0, f->y1, f->y0};
    for (int p = 0; p < 4; p++) {
        const float *A = p < 2 ? L : U;
        double sign = (p & 1) ? -1.0 : 1.0; /* x0 and y0 planes face the other way */
        for (int k = 0; k < 3; k++)
            m[k] = sign * ((double)A[k] - s[p] * D[k]);
        add_plane(g, m, 0.0);
    }
}

void satc_gview_init(satc_gview *g, const satc_frustum *f, const satc_batch *b)
{
    gview_planes(g, f, b);
    g->mnorm = INFINITY;
    for (int p = 0; p < g->np; p++) {
        double m[3];
        plane_at(g, p, m);
        double s = fabs(m[0]) + fabs(m[1]) + fabs(m[2]);
        g->mnorm = s < g->mnorm ? s : g->mnorm;
    }
}

double satc_group_tol(const satc_gview *g, const double lo[3], const double hi[3], double xs)
{
    double sb = 0;
    for (int k = 0; k < 3; k++) {
        /* |c - O| + 2 h of the box [lo, hi] */
        double a = fabs(lo[k] - g->O[k]), z = fabs(hi[k] - g->O[k]), h = 0.5 * (hi[k] - lo[k]);
        sb += g->col1[k] * ((a > z ? a : z) + h);
    }
    sb += xs; /* NaN: nothing decidable */
    sb = sb * (1.0 + 0x1p-16) + SATC_S_FLOOR;
    if (!(sb < SATC_MAX_MAGNITUDE * (1.0 - 0x1p-10)))
        return INFINITY;
    return g->eps_k * sb + g->tol_t;
}

/* xs: the bound's extra S term (satc_group_decide_x), or -1 for rho sum h
 * (local_rho). */
static int decide(const satc_gview *g, const float c[3], const float h[3], double xs)
{
    double v[3], sb = 0, hs = 0;
    for (int k = 0; k < 3; k++) {
        /* NaN, infinite or negative bounds are never decided. */
        if (!(fabsf(c[k]) <= 3.4e38f) || !(h[k] >= 0.0f && h[k] <= 3.4e38f))
            return 0;
        v[k] = (double)c[k] - g->O[k];
        sb += g->col1[k] * (fabs(v[k]) + 2.0 * h[k]);
        hs += h[k];
    }
    if (xs >= 0.0)
        sb += xs;
    else if (g->rho > 0.0)
        sb += g->rho * hs; /* instances' local offsets (local_rho); Inf: undecided */
    /* The float S of a volume inside carries a few roundings: 2^-16 of slack. */
    sb = sb * (1.0 + 0x1p-16) + SATC_S_FLOOR;
    if (!(sb < SATC_MAX_MAGNITUDE * (1.0 - 0x1p-10)))
        return 0;
    double tol = g->eps_k * sb + g->tol_t;
    int inside = 1;
    for (int p = 0; p < g->np; p++) {
        double m[3], off = plane_at(g, p, m);
        double mid = m[0] * v[0] + m[1] * v[1] + m[2] * v[2] - off;
        double rad = fabs(m[0]) * h[0] + fabs(m[1]) * h[1] + fabs(m[2]) * h[2];
        /* Twice the tolerance, plus the double rounding of mid and rad. */
        double margin = 2.0 * (1.0 + 0x1p-10) * tol +
                        0x1p-40 * (fabs(m[0] * v[0]) + fabs(m[1] * v[1]) + fabs(m[2] * v[2]) +
                                   fabs(off) + rad);
        if (mid - rad > margin && p != g->in_only)
            return -1;
        double shift = g->in_shift + (p == g->far_p ? g->far_shift : 0.0);
        if (!(mid + rad < -margin - shift))
            inside = 0;
    }
    return inside;
}

int satc_group_decide(const satc_gview *g, const float c[3], const float h[3])
{
    return decide(g, c, h, -1.0);
}

int satc_group_decide_x(const satc_gview *g, const float c[3], const float h[3], double xs)
{
    return decide(g, c, h, xs >= 0.0 ? xs : INFINITY); /* NaN: undecided */
}
