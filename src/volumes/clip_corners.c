/* The vertices of a matrix's clip volume, solved in double-double (dd.h)
 * from the matrix's float entries: satc_frustum_from_matrix's frustum
 * must contain them (frustum_matrix.c). */
#include <math.h>
#include <string.h>

#include "clip_corners.h"

static dd det3dd(const dd a[3][3])
{
    dd c0 = dd_sub(dd_mul(a[1][1], a[2][2]), dd_mul(a[1][2], a[2][1]));
    dd c1 = dd_sub(dd_mul(a[1][0], a[2][2]), dd_mul(a[1][2], a[2][0]));
    dd c2 = dd_sub(dd_mul(a[1][0], a[2][1]), dd_mul(a[1][1], a[2][0]));
    return dd_add(dd_sub(dd_mul(a[0][0], c0), dd_mul(a[0][1], c1)), dd_mul(a[0][2], c2));
}

/* Solves rows . x = rhs by Cramer's rule in double-double; 0 when singular. */
static int solve3dd(const dd rows[3][3], const dd rhs[3], dd x[3])
{
    dd d = det3dd(rows);
    if (!(d.hi != 0) || !isfinite(d.hi))
        return 0;
    for (int j = 0; j < 3; j++) {
        dd a[3][3];
        memcpy(a, rows, sizeof a);
        for (int i = 0; i < 3; i++)
            a[i][j] = rhs[i];
        x[j] = dd_div(det3dd(a), d);
    }
    return 1;
}

/* The 3x3 minors of M that every corner's solve is made of. A corner
 * solves rows N_i = M_i - co_i M_3 (i < 3) against -N_i3; Cramer's
 * determinants are minors of N over the column tuples C below, and each
 * is multilinear in the rows: D_C = mi[0][C] - co_0 mi[1][C] - co_1
 * mi[2][C] - co_2 mi[3][C], mi[k] the minors of M with M_3 in place of
 * row k - 1 (k > 0). So 16 minors once, not 32 determinants per call.
 * The entries are floats: a product of two is exact in double, each 2x2
 * cofactor exact in double-double. */
static const int TUPLES[4][3] = {{0, 1, 2}, {3, 1, 2}, {0, 3, 2}, {0, 1, 3}};

void satc_clip_minors(const double m[4][4], dd mi[4][4])
{
    for (int k = 0; k < 4; k++) {
        const int *r = TUPLES[k];
        for (int t = 0; t < 4; t++) {
            const int *c = TUPLES[t];
            dd c0 = dd_two_sum(m[r[1]][c[1]] * m[r[2]][c[2]], -(m[r[1]][c[2]] * m[r[2]][c[1]]));
            dd c1 = dd_two_sum(m[r[1]][c[0]] * m[r[2]][c[2]], -(m[r[1]][c[2]] * m[r[2]][c[0]]));
            dd c2 = dd_two_sum(m[r[1]][c[0]] * m[r[2]][c[1]], -(m[r[1]][c[1]] * m[r[2]][c[0]]));
            mi[k][t] = dd_add(dd_sub(dd_mul(dd_d(m[r[0]][c[0]]), c0), dd_mul(dd_d(m[r[0]][c[1]]), c1)),
                              dd_mul(dd_d(m[r[0]][c[2]]), c2));
        }
    }
}

/* The corner where clip x = a w, y = b w, z = c w; 0 when singular. */
int satc_clip_corner(const dd mi[4][4], double a, double b, double c, dd x[3])
{
    const double co[3] = {a, b, c};
    dd D[4];
    for (int t = 0; t < 4; t++) {
        D[t] = mi[0][t];
        for (int i = 0; i < 3; i++) /* co is +-1 or 0 but for odd depth conventions */
            D[t] = co[i] == 1.0    ? dd_sub(D[t], mi[i + 1][t])
                   : co[i] == -1.0 ? dd_add(D[t], mi[i + 1][t])
                   : co[i] == 0.0  ? D[t]
                                   : dd_sub(D[t], dd_mul(dd_d(co[i]), mi[i + 1][t]));
    }
    if (!(D[0].hi != 0) || !isfinite(D[0].hi))
        return 0;
    dd inv = dd_div(dd_d(-1.0), D[0]);
    for (int j = 0; j < 3; j++)
        x[j] = dd_mul(D[j + 1], inv);
    return 1;
}

/* The edge direction (clip w = 1, no translation) where x = a w, y = b w. */
int satc_clip_direction(const double m[4][4], double a, double b, dd x[3])
{
    const double co[2] = {a, b};
    dd rows[3][3], rhs[3] = {dd_d(0), dd_d(0), dd_d(1)};
    for (int j = 0; j < 3; j++) {
        for (int i = 0; i < 2; i++)
            rows[i][j] = dd_sub(dd_d(m[i][j]), dd_two_prod(co[i], m[3][j]));
        rows[2][j] = dd_d(m[3][j]);
    }
    return solve3dd(rows, rhs, x);
}
