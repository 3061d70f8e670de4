/*
 * satc_obb_from_matrix's outward rounding: every
 * corner of the local box, mapped exactly, lies in the float box
 * {C + sum_k s_k A_k : |s_k| <= E_k}, for random matrices (rotations,
 * scales 1e-3..1e4 and a few far beyond, translations up to 1e7, offset
 * and zero-width local boxes, row- and column-major), sheared columns just
 * inside SATC_AXIS_TOLERANCE, columns with a component 2^-30 or subnormal
 * (their length rounds), and boxes on the world axes whose center or local
 * box rounds in double (the cases where an a-priori bound that skipped a
 * rounding would be too small by less than a float ulp).
 *
 * Truth: each coordinate of corner - C is a sum of exact products of
 * floats, kept exactly as an expansion (two-sum) and summed in long double
 * only then, so its error is 2^-64 of the offset itself, not of the
 * translation; s solves A s = offset in long double (Cramer). A corner
 * fails when |s_k| > E_k + 2^-56 |offset|_1, far below any rounding the
 * bound covers (2^-50 of what it rounds).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fn_common.h"
#include "robust_util.h"

typedef long double ld;

static long n_built, n_corners_bad, n_exact_bad, n_axes_bad;
static ld worst_axes; /* largest |A_j . A_k| or ||A_j|^2 - 1| of a built box */
static ld worst; /* largest (|s_k| - E_k) / |offset|_1 seen */

/* Exact sum of n doubles as an expansion (Shewchuk's grow-expansion), then
 * summed smallest first in long double. */
static ld exact_sum(const double *x, int n)
{
    double e[16];
    int m = 0;
    for (int i = 0; i < n; i++) {
        double q = x[i];
        int k = 0;
        for (int j = 0; j < m; j++) {
            double s = q + e[j], bb = s - q, err = (q - (s - bb)) + (e[j] - bb);
            q = s;
            if (err != 0.0)
                e[k++] = err;
        }
        e[k++] = q;
        m = k;
    }
    ld v = 0;
    for (int j = 0; j < m; j++)
        v += e[j];
    return v;
}

static ld det3(const ld a[3][3])
{
    return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
           a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
}

/* Builds the box of float matrix mf (mf[r][c], stored per conv) over
 * [lmin, lmax] and checks the 8 corners. Returns the status. */
static satc_status check_box(const float mf[3][4], int row, const float lmin[3], const float lmax[3],
                             satc_obb *out)
{
    float m[16];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            float v = r < 3 ? mf[r][c] : (c == 3 ? 1.0f : 0.0f);
            m[row ? r * 4 + c : c * 4 + r] = v;
        }
    satc_obb b;
    satc_status st = satc_obb_from_matrix(&b, m, row ? SATC_MATRIX_ROW_MAJOR : 0, lmin, lmax);
    if (st != SATC_OK)
        return st;
    n_built++;
    ld A[3][3];
    for (int r = 0; r < 3; r++)
        for (int j = 0; j < 3; j++)
            A[r][j] = b.axis[j][r];
    ld det = det3(A);
    /* The axes as the band's precondition wants them: unit and orthogonal
     * within SATC_AXIS_TOLERANCE. */
    ld ax = 0;
    for (int j = 0; j < 3; j++) {
        for (int k = j; k < 3; k++) {
            ld d = A[0][j] * A[0][k] + A[1][j] * A[1][k] + A[2][j] * A[2][k] - (j == k);
            ax = fabsl(d) > ax ? fabsl(d) : ax;
        }
    }
    worst_axes = ax > worst_axes ? ax : worst_axes;
    if (ax > SATC_AXIS_TOLERANCE && ++n_axes_bad <= 5)
        printf("axes off by %.3Lg (tolerance %g)\n", ax, SATC_AXIS_TOLERANCE);
    for (int v = 0; v < 8; v++) {
        ld off[3], n1 = 0;
        for (int r = 0; r < 3; r++) {
            double terms[5] = {mf[r][3], -(double)b.center[r]};
            for (int c = 0; c < 3; c++)
                terms[2 + c] = (double)mf[r][c] * (v >> c & 1 ? lmax[c] : lmin[c]);
            off[r] = exact_sum(terms, 5);
            n1 += fabsl(off[r]);
        }
        int bad = 0;
        for (int j = 0; j < 3; j++) {
            ld a2[3][3];
            memcpy(a2, A, sizeof a2);
            for (int r = 0; r < 3; r++)
                a2[r][j] = off[r];
            ld s = det3(a2) / det, over = fabsl(s) - b.extent[j];
            bad |= over > 0x1p-56L * n1;
            if (n1 > 0 && over / n1 > worst)
                worst = over / n1;
        }
        if (bad && ++n_corners_bad <= 10)
            printf("corner %d outside: m col-major %a %a %a | %a %a %a | %a %a %a | %a %a %a, local [%a %a %a]-[%a %a %a]\n",
                   v, mf[0][0], mf[1][0], mf[2][0], mf[0][1], mf[1][1], mf[2][1], mf[0][2], mf[1][2], mf[2][2],
                   mf[0][3], mf[1][3], mf[2][3], lmin[0], lmin[1], lmin[2], lmax[0], lmax[1], lmax[2]);
    }
    if (out)
        *out = b;
    return st;
}

static double sgn(fn_rng *r) { return fn_next(r) & 1 ? 1.0 : -1.0; }

/* A local box: offset center, half size 10^-3..10^3, some zero width. */
static void local_box(fn_rng *r, float lmin[3], float lmax[3])
{
    for (int k = 0; k < 3; k++) {
        double c = fn_next(r) % 3 ? 0.0 : sgn(r) * fn_logu(r, -10, 14), h = fn_logu(r, -10, 10);
        if (fn_next(r) % 16 == 0)
            h = 0;
        lmin[k] = (float)(c - h), lmax[k] = (float)(c + h);
        if (lmin[k] > lmax[k])
            lmin[k] = lmax[k];
    }
}

static void random_boxes(void)
{
    fn_rng r = {27004};
    long refused = 0;
    for (int i = 0; i < 20000; i++) {
        double R[3][3], sc[3];
        fn_rotation(&r, R);
        if (i % 8 == 3) {
            /* a turn about a world axis by 2^-30 or by a subnormal's worth:
             * a column (1, tiny, 0) whose squared length rounds */
            double sn = fn_next(&r) & 1 ? 0x1p-30 : 1e-40 * fn_unif(&r, 1, 2), cs = sqrt(1 - sn * sn);
            int a = (int)(fn_next(&r) % 3), b = (a + 1) % 3, c = (a + 2) % 3;
            memset(R, 0, sizeof R);
            R[a][a] = cs, R[b][a] = sn, R[a][b] = -sn, R[b][b] = cs, R[c][c] = 1;
        }
        int wide = i % 10 == 0; /* far beyond the usual scales */
        for (int k = 0; k < 3; k++)
            sc[k] = sgn(&r) * (wide ? fn_logu(&r, -120, 120) : fn_logu(&r, -10, 13.3));
        float mf[3][4];
        double col[3][3];
        for (int c = 0; c < 3; c++)
            for (int rr = 0; rr < 3; rr++)
                col[c][rr] = R[rr][c] * sc[c];
        if (i % 4 == 1) {
            /* shear column 1 toward column 0 by 0.5..0.95 of the tolerance */
            double f = fn_unif(&r, 0.5, 0.95) * SATC_AXIS_TOLERANCE * fabs(sc[1] / sc[0]);
            for (int rr = 0; rr < 3; rr++)
                col[1][rr] += f * col[0][rr];
        }
        for (int c = 0; c < 3; c++)
            for (int rr = 0; rr < 3; rr++)
                mf[rr][c] = (float)col[c][rr];
        double tr = fn_next(&r) % 4 ? fn_logu(&r, -10, 23.3) : 0.0; /* up to 1e7 */
        for (int rr = 0; rr < 3; rr++)
            mf[rr][3] = (float)(sgn(&r) * tr * fn_unif(&r, 0, 1));
        float lmin[3], lmax[3];
        local_box(&r, lmin, lmax);
        satc_status st = check_box(mf, (int)(fn_next(&r) & 1), lmin, lmax, NULL);
        refused += st != SATC_OK;
        if (st != SATC_OK && st != SATC_ERR_BOX)
            rb_check(0, "random box %d: status %d", i, st);
    }
    rb_check(n_built > 19000, "random boxes: only %ld of 20000 built (%ld refused)", n_built, refused);
}

/* Columns sheared to 0.85..1 of the tolerance: a box built from them
 * must still have axes within it after their rounding to float. */
static void shear_edge(int count)
{
    fn_rng r = {31006};
    long built0 = n_built;
    for (int i = 0; i < count; i++) {
        double R[3][3], sc[3], col[3][3];
        fn_rotation(&r, R);
        for (int k = 0; k < 3; k++)
            sc[k] = sgn(&r) * fn_logu(&r, -10, 13.3);
        for (int c = 0; c < 3; c++)
            for (int rr = 0; rr < 3; rr++)
                col[c][rr] = R[rr][c] * sc[c];
        int a = (int)(fn_next(&r) % 3), b = (a + 1) % 3;
        double f = fn_unif(&r, 0.85, 1.0) * SATC_AXIS_TOLERANCE * fabs(sc[b] / sc[a]);
        for (int rr = 0; rr < 3; rr++)
            col[b][rr] += f * col[a][rr];
        float mf[3][4];
        for (int c = 0; c < 3; c++)
            for (int rr = 0; rr < 3; rr++)
                mf[rr][c] = (float)col[c][rr];
        for (int rr = 0; rr < 3; rr++)
            mf[rr][3] = (float)(sgn(&r) * fn_logu(&r, -10, 23.3));
        float lmin[3], lmax[3];
        local_box(&r, lmin, lmax);
        satc_status st = check_box(mf, (int)(fn_next(&r) & 1), lmin, lmax, NULL);
        if (st != SATC_OK && st != SATC_ERR_BOX)
            rb_check(0, "sheared box %d: status %d", i, st);
    }
    printf("sheared to the tolerance: %ld of %d built\n", n_built - built0, count);
}

/* Boxes on the world axes (permuted, signed, scaled): the careful way.
 * With integer data the box must come out exact; with a center or local
 * box that rounds in double, it must still hold the corners. */
static void world_axes(void)
{
    fn_rng r = {27005};
    static const int perm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    long exact_cases = 0;
    for (int i = 0; i < 6000; i++) {
        const int *p = perm[i % 6];
        float mf[3][4] = {{0}};
        int sc[3], kind = (i / 6) % 4;
        for (int c = 0; c < 3; c++) {
            sc[c] = (int)(fn_next(&r) % 9 + 1) * (int)sgn(&r);
            mf[p[c]][c] = (float)sc[c];
        }
        float lmin[3], lmax[3];
        for (int k = 0; k < 3; k++) {
            int lo = (int)(fn_next(&r) % 21) - 10, hi = lo + (int)(fn_next(&r) % 10);
            lmin[k] = (float)lo, lmax[k] = (float)hi;
        }
        for (int rr = 0; rr < 3; rr++)
            mf[rr][3] = (float)((int)(fn_next(&r) % 2001) - 1000);
        if (kind == 1) /* large translation, local box a tiny offset point: the center rounds */
            for (int k = 0; k < 3; k++) {
                mf[k][3] = (float)(sgn(&r) * fn_logu(&r, 10, 23));
                lmin[k] = lmax[k] = (float)(sgn(&r) * fn_logu(&r, -70, -30));
            }
        if (kind == 2) { /* lmin + lmax and lmax - lmin round in double */
            int k = (int)(fn_next(&r) % 3);
            lmin[k] = -(float)fn_logu(&r, 20, 60), lmax[k] = (float)fn_logu(&r, -60, -20);
        }
        satc_obb b;
        satc_status st = check_box(mf, (int)(fn_next(&r) & 1), lmin, lmax, &b);
        if (!rb_check(st == SATC_OK, "world axes %d: status %d", i, st))
            continue;
        if (kind == 0 || kind == 3) {
            exact_cases++;
            for (int c = 0; c < 3; c++) {
                double h = 0.5 * ((double)lmax[c] - lmin[c]) * abs(sc[c]);
                if (b.extent[c] != h && ++n_exact_bad <= 5)
                    printf("world axes %d: extent %d is %.9g, exactly %.9g\n", i, c, b.extent[c], h);
            }
        }
    }
    rb_check(exact_cases > 2000, "world axes: %ld exact cases", exact_cases);
    rb_check(n_exact_bad == 0, "world axes: %ld integer boxes not exact", n_exact_bad);
}

/* Bad input: SATC_ERR_BOX and *out untouched, whatever the fast way's
 * single branch folds together. */
static void bad_input(void)
{
    fn_rng r = {27006};
    for (int i = 0; i < 2000; i++) {
        float m[16] = {2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 10, 20, 30, 1}, lmin[3] = {-1, -1, -1},
              lmax[3] = {1, 1, 1};
        int what = i % 6, at = (int)(fn_next(&r) % 16);
        float special[3] = {NAN, INFINITY, -INFINITY};
        switch (what) {
        case 0: m[at] = special[fn_next(&r) % 3]; break;
        case 1: (fn_next(&r) & 1 ? lmin : lmax)[at % 3] = special[fn_next(&r) % 3]; break;
        case 2: lmin[at % 3] = 2; break;
        case 3: m[3 + 4 * (at % 4)] = at % 4 == 3 ? 0.5f : 1e-30f; break;
        case 4: m[4 * (at % 3)] = m[4 * (at % 3) + 1] = m[4 * (at % 3) + 2] = 0; break; /* zero column */
        default: m[4] = 2 * 4 * SATC_AXIS_TOLERANCE * (1 + (float)fn_unif(&r, 0, 1)); break; /* shear */
        }
        satc_obb b, want;
        memset(&b, 0x5a, sizeof b);
        memcpy(&want, &b, sizeof b);
        satc_status st = satc_obb_from_matrix(&b, m, 0, lmin, lmax);
        rb_check(st == SATC_ERR_BOX && memcmp(&b, &want, sizeof b) == 0, "bad input %d (kind %d): status %d", i,
                 what, st);
    }
}

int main(void)
{
    random_boxes();
    shear_edge(rb_quick() ? 20000 : 100000);
    world_axes();
    bad_input();
    rb_check(n_corners_bad == 0, "%ld corners outside their box", n_corners_bad);
    rb_check(n_axes_bad == 0, "%ld boxes with axes beyond SATC_AXIS_TOLERANCE (worst %.3Lg)", n_axes_bad,
             worst_axes);
    printf("%ld boxes built; worst (|s| - E) / |offset|_1 = %.3Lg (<= 0 means inside)\n", n_built, worst);
    return rb_finish();
}
