/* The box helpers' geometry (satc_obb_from_*) against vertices computed
 * independently in double; a part of test_contract. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contract.h"
#include "oracle.h"
#include "scenes.h"

static void box_vertices(const satc_obb *b, double v[8][3])
{
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 3; k++) {
            double x = b->center[k];
            for (int j = 0; j < 3; j++)
                x += ((i >> j) & 1 ? 1.0 : -1.0) * (double)b->extent[j] * b->axis[j][k];
            v[i][k] = x;
        }
}

/* Every expected vertex has a box vertex within tol (and the box is
 * orthonormal within SATC_AXIS_TOLERANCE). */
static int vertices_match(const satc_obb *b, double want[8][3], double tol)
{
    double v[8][3];
    box_vertices(b, v);
    for (int i = 0; i < 8; i++) {
        int found = 0;
        for (int j = 0; j < 8 && !found; j++) {
            double d = fabs(v[j][0] - want[i][0]) + fabs(v[j][1] - want[i][1]) + fabs(v[j][2] - want[i][2]);
            found = d <= tol;
        }
        if (!found)
            return 0;
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double d = 0;
            for (int k = 0; k < 3; k++)
                d += (double)b->axis[i][k] * b->axis[j][k];
            if (fabs(d - (i == j)) > SATC_AXIS_TOLERANCE)
                return 0;
        }
    return 1;
}

/* Rotates v by unit quaternion q (x, y, z, w): q v q*, by Hamilton products. */
static void quat_rotate(const double q[4], const double v[3], double out[3])
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    /* t = q * (v, 0) */
    double tw = -x * v[0] - y * v[1] - z * v[2];
    double tx = w * v[0] + y * v[2] - z * v[1];
    double ty = w * v[1] + z * v[0] - x * v[2];
    double tz = w * v[2] + x * v[1] - y * v[0];
    /* out = t * conj(q) */
    out[0] = -tw * x + tx * w - ty * z + tz * y;
    out[1] = -tw * y + ty * w - tz * x + tx * z;
    out[2] = -tw * z + tz * w - tx * y + ty * x;
}

void helper_geometry(void)
{
    scn_rng r;
    scn_seed(&r, 404);
    int bad_a = 0, bad_q = 0, bad_m = 0, bad_t = 0, cover = 0;
    const double u = 0x1p-24;
    for (int it = 0; it < 20000; it++) {
        /* from_aabb */
        float mn[3], mx[3];
        double want[8][3], mag = 0;
        for (int k = 0; k < 3; k++) {
            double a = scn_uniform(&r, -1e4, 1e4), w = exp(scn_uniform(&r, -8, 8));
            mn[k] = (float)a, mx[k] = (float)(a + w);
            if (mx[k] < mn[k])
                mx[k] = mn[k];
            mag += fabs(mn[k]) + fabs(mx[k]);
        }
        for (int i = 0; i < 8; i++)
            for (int k = 0; k < 3; k++)
                want[i][k] = (i >> k) & 1 ? mx[k] : mn[k];
        satc_obb b;
        if (satc_obb_from_aabb(&b, mn, mx) != SATC_OK || !vertices_match(&b, want, 4 * u * mag))
            bad_a++;
        for (int k = 0; k < 3; k++) /* covers [min, max] */
            if ((double)b.center[k] - b.extent[k] > mn[k] || (double)b.center[k] + b.extent[k] < mx[k])
                cover++;

        /* from_quat */
        float c[3], q[4], h[3];
        double qd[4], ql = 0;
        for (int k = 0; k < 4; k++) {
            q[k] = (float)scn_uniform(&r, -1, 1);
            ql += (double)q[k] * q[k];
        }
        if (ql < 1e-6)
            continue;
        for (int k = 0; k < 4; k++)
            qd[k] = q[k] / sqrt(ql);
        mag = 0;
        for (int k = 0; k < 3; k++) {
            c[k] = (float)scn_uniform(&r, -1e3, 1e3);
            h[k] = (float)exp(scn_uniform(&r, -5, 5));
            mag += fabs(c[k]) + h[k];
        }
        for (int i = 0; i < 8; i++) {
            double lv[3], wv[3];
            for (int k = 0; k < 3; k++)
                lv[k] = (i >> k) & 1 ? h[k] : -(double)h[k];
            quat_rotate(qd, lv, wv);
            for (int k = 0; k < 3; k++)
                want[i][k] = c[k] + wv[k];
        }
        if (satc_obb_from_quat(&b, c, q, h) != SATC_OK || !vertices_match(&b, want, 16 * u * mag))
            bad_q++;

        /* from_matrix: M = T R S (negative scales allowed), local box [lmin, lmax] */
        double s[3], t[3], col[3][3];
        float m[16], mt[16], lmn[3], lmx[3];
        for (int k = 0; k < 3; k++) {
            s[k] = exp(scn_uniform(&r, -3, 3)) * (scn_next(&r) & 1 ? 1 : -1);
            t[k] = scn_uniform(&r, -1e3, 1e3);
            double e[3] = {0, 0, 0};
            e[k] = 1;
            quat_rotate(qd, e, col[k]);
            double a = scn_uniform(&r, -10, 10), w = exp(scn_uniform(&r, -4, 3));
            lmn[k] = (float)a, lmx[k] = (float)(a + w);
        }
        for (int cc = 0; cc < 3; cc++)
            for (int rr = 0; rr < 3; rr++)
                m[cc * 4 + rr] = (float)(col[cc][rr] * s[cc]);
        for (int rr = 0; rr < 3; rr++)
            m[rr + 12] = (float)t[rr], m[rr * 4 + 3] = 0;
        m[15] = 1;
        mag = 0;
        for (int i = 0; i < 8; i++) {
            double lp[3];
            for (int k = 0; k < 3; k++)
                lp[k] = (i >> k) & 1 ? lmx[k] : lmn[k];
            for (int rr = 0; rr < 3; rr++) {
                double x = m[12 + rr]; /* exactly what was passed, in double */
                for (int cc = 0; cc < 3; cc++)
                    x += (double)m[cc * 4 + rr] * lp[cc];
                want[i][rr] = x;
                mag = fmax(mag, fabs(x));
            }
        }
        mag += fabs(s[0]) * 10 + fabs(s[1]) * 10 + fabs(s[2]) * 10;
        /* the float matrix is orthogonal only to ~2^-24: tolerance scaled to that */
        satc_status st = satc_obb_from_matrix(&b, m, 0, lmn, lmx);
        if (st != SATC_OK || !vertices_match(&b, want, 64 * u * mag))
            bad_m++;
        for (int rr = 0; rr < 4; rr++)
            for (int cc = 0; cc < 4; cc++)
                mt[rr * 4 + cc] = m[cc * 4 + rr];
        satc_obb b2;
        if (st == SATC_OK && (satc_obb_from_matrix(&b2, mt, SATC_MATRIX_ROW_MAJOR, lmn, lmx) != SATC_OK ||
                              memcmp(&b, &b2, sizeof b) != 0))
            bad_t++;
    }
    printf("box helpers: %d from_aabb, %d from_quat, %d from_matrix mismatches, %d row/column-major "
           "differences, %d not covering [min, max] (20000 each)\n",
           bad_a, bad_q, bad_m, bad_t, cover);
    check(bad_a == 0, "from_aabb vertices");
    check(cover == 0, "from_aabb covers [min, max]");
    check(bad_q == 0, "from_quat vertices (rotation by q v q*)");
    check(bad_m == 0, "from_matrix vertices (M times the local corners)");
    check(bad_t == 0, "from_matrix row-major transpose gives the same box");
}

/* ------------------------------------------------------------------ */
/* Output forms agree with each other and across calls. */
