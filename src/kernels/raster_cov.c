/* Merged coverage of one partly covered texel, shared by the reference
 * fill and every SIMD fill (their partly covered lanes come here; only
 * the cell test runs in their vectors), so the paths agree by construction. */
#include "raster_poly.h"

/* Offsets of cell (x, y) from the texel's least corner, for edge
 * (a, b): a x/4 + b y/4 - 3/4 (min(a, 0) + min(b, 0)) >= 0 in exact
 * arithmetic, computed from the float coefficients and lowered past
 * their rounding (2^-22 of |a| + |b|) and flush-to-zero (2^-100). */
static float cell_off_at(double a, double b, double base, double low, int x, int y)
{
    double v = a * (0.25 * x) + b * (0.25 * y) + base - low;
    if (!(fabs(v) >= 0x1p-100))
        v = -0x1p-100; /* stays normal: NaN coefficients too */
    return -satc_float_up(-v); /* the greatest float <= v */
}

static void cell_terms(double a, double b, double *base, double *low)
{
    *base = -0.75 * (satc_dmin(a, 0) + satc_dmin(b, 0));
    *low = 0x1p-22 * (fabs(a) + fabs(b)) + 0x1p-100;
}

static float cell_off(double a, double b, int x, int y)
{
    double base, low;
    cell_terms(a, b, &base, &low);
    return cell_off_at(a, b, base, low, x, y);
}

/* offmax only: every step above is monotone in x (y) for a > 0 (b > 0)
 * and falls with it otherwise, so the far corner's cell is the largest;
 * the table waits for the first texel that needs it. */
void satc_rcells_init(const satc_rpoly *p, satc_rcells *c)
{
    c->p = p;
    c->ready = 0;
    for (uint32_t k = 0; k < p->ne; k++) {
        double a = p->e[k][0], b = p->e[k][1];
        float f = cell_off(a, b, a > 0 ? 3 : 0, b > 0 ? 3 : 0);
        c->offmax[k] = f > 0 ? f : 0.0f;
    }
}

void satc_rcells_table(satc_rcells *c)
{
    for (uint32_t k = 0; k < c->p->ne; k++) {
        double a = c->p->e[k][0], b = c->p->e[k][1], base, low;
        cell_terms(a, b, &base, &low);
        for (int q = 0; q < 16; q++)
            c->off[k][q] = cell_off_at(a, b, base, low, q & 3, q >> 2);
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
