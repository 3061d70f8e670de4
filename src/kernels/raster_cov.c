/* Merged coverage of one partly covered texel, shared by the reference
 * fill and every SIMD fill (their partly covered lanes come here; only
 * the cell test runs in their vectors), so the paths agree by construction. */
#include "raster_poly.h"

/* Offsets of cell (x, y) from the texel's least corner, for edge
 * (a, b): a x/4 + b y/4 - 3/4 (min(a, 0) + min(b, 0)) >= 0 in exact
 * arithmetic, computed from the float coefficients and lowered past
 * their rounding (2^-22 of |a| + |b|, far above the double steps') and
 * flush-to-zero (2^-100): t = base - low, then (b y/4 + t) + a x/4. */
static void cell_terms(double a, double b, double *t)
{
    double base = -0.75 * (satc_dmin(a, 0) + satc_dmin(b, 0));
    *t = base - (0x1p-22 * (fabs(a) + fabs(b)) + 0x1p-100);
}

/* The greatest float <= v, without a branch (the table's 96 values
 * made the rounding's branch a guess); v of magnitude below 2^-100 (or
 * NaN, from NaN coefficients) becomes -2^-100, so the float is normal. */
static float off_down(double v)
{
    v = fabs(v) >= 0x1p-100 ? v : -0x1p-100;
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    /* f > v: one float down, one more in its bits below 0, one less above */
    uint32_t over = 0u - (uint32_t)((double)f > v);
    u += over & ((u >> 31) * 2u - 1u);
    memcpy(&f, &u, sizeof f);
    return f;
}

/* offmax only: every step above is monotone in x (y) for a > 0 (b > 0)
 * and falls with it otherwise, so the far corner's cell is the largest;
 * the table waits for the first texel that needs it. */
void satc_rcells_init(const satc_rpoly *p, satc_rcells *c)
{
    c->p = p;
    c->ready = 0;
    for (uint32_t k = 0; k < p->ne; k++) {
        double a = p->e[k][0], b = p->e[k][1], t;
        cell_terms(a, b, &t);
        float f = off_down((b * (b > 0 ? 0.75 : 0.0) + t) + a * (a > 0 ? 0.75 : 0.0));
        c->offmax[k] = f > 0 ? f : 0.0f;
    }
}

void satc_rcells_table(satc_rcells *c)
{
    for (uint32_t k = 0; k < c->p->ne; k++) {
        double a = c->p->e[k][0], b = c->p->e[k][1], t, ax[4];
        cell_terms(a, b, &t);
        for (int x = 0; x < 4; x++)
            ax[x] = a * (0.25 * x);
        for (int y = 0; y < 4; y++) {
            double r = b * (0.25 * y) + t;
            for (int x = 0; x < 4; x++)
                c->off[k][4 * y + x] = off_down(r + ax[x]);
        }
    }
    c->ready = 1;
}

void satc_rcov_texel(const satc_rpoly *p, satc_rcells *c, const float *re, int32_t i, float out,
                     float *t, float *ld, uint16_t *lm)
{
    if (!satc_rcov_open(c, out, *t))
        return;
    float fi = (float)i;
    unsigned cells = SATC_RC_FULL;
    for (uint32_t k = 0; k < p->ne && cells; k++)
        cells &= satc_rcov_edge_cells(p->e[k][0] * fi + re[k], c->off[k]);
    satc_rcov_merge(cells, out, t, ld, lm);
}
