/*
 * A lower bound of a volume's view depth over the directions of one
 * pyramid texel (docs/occlusion.md, "Depth per texel"). The texel's
 * directions form a cone (perspective) or a prism (orthographic) bounded
 * by four half-spaces g_k(X) <= 0, linear in X. For any multipliers
 * lam_k >= 0, the least over the volume of D.d + sum_k lam_k g_k is at most
 * the depth of every volume point in the texel (weak duality), so any
 * lam gives a valid bound and only the evaluation's rounding needs a
 * margin. The multipliers used are where the bound's pieces change (one
 * face, or two adjacent faces, at a time), stopping at the first bound
 * past the texel's value. Plain C in double, shared by every path.
 */
#include <math.h>

#include "../core/volume_d.h"
#include "occlusion.h"

/* Relative margin on the magnitudes summed (double rounds by 2^-53 per
 * operation; a few dozen operations stay far below 2^-40). */
#define SUB_REL 0x1p-40

int satc_subdepth_init(const satc_pyramid *p, const satc_batch *b, size_t i, satc_subvol *v)
{
    const satc_frustum *f = &p->view;
    satc_vol_d d;
    v->ok = 0;
    if (!satc_volume_d(b, i, &d) || !satc_vol_finite(&d))
        return 0;
    double dc[3], q = d.cmag;
    for (int k = 0; k < 3; k++) {
        dc[k] = d.c[k] - (double)f->origin[k];
        q += fabs(d.c[k]) + fabs((double)f->origin[k]);
    }
    for (int r = 0; r < 3; r++) {
        const float *F = f->frame[r];
        v->p[r] = F[0] * dc[0] + F[1] * dc[1] + F[2] * dc[2];
        for (int j = 0; j < 3; j++) {
            v->h[j][r] = F[0] * d.H[j][0] + F[1] * d.H[j][1] + F[2] * d.H[j][2];
            if (r == 0)
                q += fabs(d.H[j][0]) + fabs(d.H[j][1]) + fabs(d.H[j][2]);
        }
        for (int c = 0; c < 3 && d.sphere; c++) /* read for spheres only */
            v->g[r][c] = (double)F[0] * f->frame[c][0] + (double)F[1] * f->frame[c][1] +
                         (double)F[2] * f->frame[c][2];
    }
    v->sphere = d.sphere;
    v->r = d.r;
    v->q = q + d.r;
    v->ortho = f->kind == SATC_FRUSTUM_ORTHOGRAPHIC;
    /* above the farthest depth: no texel's bound reaches it */
    double zr = v->sphere ? v->r * sqrt(v->g[2][2]) : fabs(v->h[0][2]) + fabs(v->h[1][2]) + fabs(v->h[2][2]);
    v->zmax = (v->p[2] + zr) * (1 + SUB_REL) + SUB_REL * 4 * v->q;
    v->ok = isfinite(v->q);
    return v->ok;
}

/* The least over the volume of w.d + kappa (w in frame coefficients of
 * L, U, D), less the margin on its rounding. */
static double least(const satc_subvol *v, const double w[3], double kappa)
{
    double val = w[0] * v->p[0] + w[1] * v->p[1] + w[2] * v->p[2] + kappa;
    double w1 = fabs(w[0]) + fabs(w[1]) + fabs(w[2]);
    if (v->sphere) {
        double s = 0;
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                s += w[r] * v->g[r][c] * w[c];
        val -= v->r * sqrt(s > 0 ? s : 0);
    } else {
        for (int j = 0; j < 3; j++)
            val -= fabs(w[0] * v->h[j][0] + w[1] * v->h[j][1] + w[2] * v->h[j][2]);
    }
    return val - SUB_REL * (4 * w1 * v->q + fabs(kappa));
}

/* The terms a_j = c.H_j of face c on the half axes. */
static void face_terms(const satc_subvol *v, const double c[3], double a[3])
{
    for (int j = 0; j < 3; j++)
        a[j] = c[0] * v->h[j][0] + c[1] * v->h[j][1] + c[2] * v->h[j][2];
}

/* 1 when the bound at lam = s on face A, t on face B exceeds lim. */
static int try_lam(const satc_subvol *v, const double ca[3], double ka, const double cb[3],
                   double kb, double s, double t, double lim)
{
    if (!(s >= 0) || !(t >= 0) || !isfinite(s) || !isfinite(t))
        return 0;
    double w[3] = {s * ca[0] + t * cb[0], s * ca[1] + t * cb[1], 1 + s * ca[2] + t * cb[2]};
    return least(v, w, s * ka + t * kb) > lim;
}

int satc_subdepth_beyond(const satc_pyramid *p, const satc_subvol *v, uint32_t l, int32_t x,
                         int32_t y, double lim)
{
    const satc_frustum *f = &p->view;
    double x0 = f->x0, x1 = f->x1, y0 = f->y0, y1 = f->y1;
    double i0 = (double)((int64_t)x << l), i1 = (double)(((int64_t)x + 1) << l);
    double j0 = (double)((int64_t)y << l), j1 = (double)(((int64_t)y + 1) << l);
    double W = p->width, H = p->height;
    i1 = i1 < W ? i1 : W, j1 = j1 < H ? j1 : H;
    /* the texel's slopes (positions), widened outward past their rounding */
    double ea = SUB_REL * (fabs(x0) + fabs(x1)), eb = SUB_REL * (fabs(y0) + fabs(y1));
    double alo = x1 - i1 * (x1 - x0) / W - ea, ahi = x1 - i0 * (x1 - x0) / W + ea;
    double blo = y0 + j0 * (y1 - y0) / H - eb, bhi = y0 + j1 * (y1 - y0) / H + eb;
    /* g <= 0: L.d - ahi z, alo z - L.d, U.d - bhi z, blo z - U.d (z = D.d;
     * orthographic: the positions against constants) */
    double c[4][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}};
    double k[4] = {0, 0, 0, 0}, a[4][3], u[3];
    const double bound[4] = {-ahi, alo, -bhi, blo};
    for (int m = 0; m < 4; m++) {
        if (v->ortho)
            k[m] = bound[m];
        else
            c[m][2] = bound[m];
        face_terms(v, c[m], a[m]);
    }
    for (int j = 0; j < 3; j++)
        u[j] = v->h[j][2];
    /* one face: u_j + s a_j = 0 */
    for (int m = 0; m < 4; m++)
        for (int j = 0; j < 3; j++)
            if (try_lam(v, c[m], k[m], c[m], 0, -u[j] / a[m][j], 0, lim))
                return 1;
    /* two adjacent faces: u_j + s a_j + t b_j = 0 for two half axes */
    for (int m = 0; m < 2; m++)
        for (int n = 2; n < 4; n++)
            for (int i = 0; i < 3; i++)
                for (int j = i + 1; j < 3; j++) {
                    double det = a[m][i] * a[n][j] - a[m][j] * a[n][i];
                    double s = (-u[i] * a[n][j] + u[j] * a[n][i]) / det;
                    double t = (-a[m][i] * u[j] + a[m][j] * u[i]) / det;
                    if (try_lam(v, c[m], k[m], c[n], k[n], s, t, lim))
                        return 1;
                }
    return 0;
}
