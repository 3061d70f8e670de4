/* Matrix helpers of the false-negative tests: glm-style view-projection
 * matrices in double, and the clip volume of their float rounding in long
 * double (float products are exact there on x86 and AArch64). */
#include <math.h>

#include "fn_common.h"

typedef long double ld;

const unsigned fn_convs[FN_NCONVS] = {
    0,
    SATC_DEPTH_ZERO_TO_ONE,
    SATC_DEPTH_ZERO_TO_ONE | SATC_DEPTH_REVERSED,
    SATC_DEPTH_INFINITE_FAR,
    SATC_DEPTH_ZERO_TO_ONE | SATC_DEPTH_REVERSED | SATC_DEPTH_INFINITE_FAR,
    SATC_MATRIX_ROW_MAJOR,
    SATC_DEPTH_REVERSED,
    SATC_DEPTH_ZERO_TO_ONE | SATC_DEPTH_INFINITE_FAR,
    SATC_MATRIX_ROW_MAJOR | SATC_DEPTH_ZERO_TO_ONE | SATC_DEPTH_REVERSED,
};

static void clip_of(const float m[4][4], const double p[3], ld out[4])
{
    for (int i = 0; i < 4; i++)
        out[i] = (ld)m[i][0] * p[0] + (ld)m[i][1] * p[1] + (ld)m[i][2] * p[2] + (ld)m[i][3];
}

int fn_solve4(const float m[4][4], const ld b[4], ld x[4])
{
    ld a[4][5];
    for (int i = 0; i < 4; i++) {
        for (int j = 0; j < 4; j++)
            a[i][j] = m[i][j];
        a[i][4] = b[i];
    }
    for (int c = 0; c < 4; c++) {
        int p = c;
        for (int i = c + 1; i < 4; i++)
            if (fabsl(a[i][c]) > fabsl(a[p][c]))
                p = i;
        if (a[p][c] == 0)
            return 0;
        for (int j = 0; j < 5; j++) {
            ld t = a[c][j];
            a[c][j] = a[p][j], a[p][j] = t;
        }
        for (int i = 0; i < 4; i++) {
            if (i == c)
                continue;
            ld k = a[i][c] / a[c][c];
            for (int j = c; j < 5; j++)
                a[i][j] -= k * a[c][j];
        }
    }
    for (int i = 0; i < 4; i++)
        x[i] = a[i][4] / a[i][i];
    return 1;
}

/* Look-at rows (s, u, -f) and translation, right-handed as glm. */
static void look_at(const double eye[3], const double at[3], double V[4][4])
{
    double fz[3], s[3], u[3], l = 0, sl = 0;
    for (int k = 0; k < 3; k++) {
        fz[k] = at[k] - eye[k];
        l += fz[k] * fz[k];
    }
    for (int k = 0; k < 3; k++)
        fz[k] /= sqrt(l);
    /* up = (0, 1, 0), or (1, 0, 0) when looking almost along it. */
    double up[3] = {0, 1, 0};
    if (fabs(fz[1]) > 0.99)
        up[0] = 1, up[1] = 0;
    s[0] = fz[1] * up[2] - fz[2] * up[1], s[1] = fz[2] * up[0] - fz[0] * up[2],
    s[2] = fz[0] * up[1] - fz[1] * up[0];
    for (int k = 0; k < 3; k++)
        sl += s[k] * s[k];
    for (int k = 0; k < 3; k++)
        s[k] /= sqrt(sl);
    u[0] = s[1] * fz[2] - s[2] * fz[1], u[1] = s[2] * fz[0] - s[0] * fz[2],
    u[2] = s[0] * fz[1] - s[1] * fz[0];
    for (int k = 0; k < 3; k++)
        V[0][k] = s[k], V[1][k] = u[k], V[2][k] = -fz[k], V[3][k] = 0;
    V[3][3] = 1;
    for (int i = 0; i < 3; i++)
        V[i][3] = -(V[i][0] * eye[0] + V[i][1] * eye[1] + V[i][2] * eye[2]);
}

static void mul4(const double P[4][4], const double V[4][4], double M[4][4])
{
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            double x = 0;
            for (int k = 0; k < 4; k++)
                x += P[i][k] * V[k][j];
            M[i][j] = x;
        }
}

/* Depth row (z = a z_eye + b) for view depth -z_eye in [n, fa]. */
static void depth_row(double n, double fa, unsigned conv, double *a, double *b)
{
    int zo = conv & SATC_DEPTH_ZERO_TO_ONE, rev = conv & SATC_DEPTH_REVERSED,
        inf = conv & SATC_DEPTH_INFINITE_FAR;
    if (!zo) {
        *a = inf ? -1 : (fa + n) / (n - fa);
        *b = inf ? -2 * n : 2 * fa * n / (n - fa);
        if (rev)
            *a = -*a, *b = -*b;
    } else if (!rev) {
        *a = inf ? -1 : fa / (n - fa);
        *b = inf ? -n : fa * n / (n - fa);
    } else {
        *a = inf ? 0 : n / (fa - n);
        *b = inf ? n : fa * n / (fa - n);
    }
}

void fn_view_proj(double fovy, double aspect, double n, double fa, const double eye[3],
                  const double at[3], unsigned conv, double M[4][4])
{
    double V[4][4], P[4][4] = {{0}};
    look_at(eye, at, V);
    double t = 1 / tan(fovy / 2);
    P[0][0] = t / aspect, P[1][1] = t, P[3][2] = -1;
    depth_row(n, fa, conv, &P[2][2], &P[2][3]);
    mul4(P, V, M);
}

void fn_view_ortho(double l, double r, double b, double t, double n, double fa,
                   const double eye[3], const double at[3], unsigned conv, double M[4][4])
{
    double V[4][4], P[4][4] = {{0}};
    look_at(eye, at, V);
    P[0][0] = 2 / (r - l), P[0][3] = -(r + l) / (r - l);
    P[1][1] = 2 / (t - b), P[1][3] = -(t + b) / (t - b);
    int zo = conv & SATC_DEPTH_ZERO_TO_ONE, rev = conv & SATC_DEPTH_REVERSED;
    if (!zo)
        P[2][2] = -2 / (fa - n), P[2][3] = -(fa + n) / (fa - n);
    else
        P[2][2] = -1 / (fa - n), P[2][3] = -n / (fa - n);
    if (rev && !zo)
        P[2][2] = -P[2][2], P[2][3] = -P[2][3];
    else if (rev) /* z' = 1 - z */
        P[2][2] = -P[2][2], P[2][3] = 1 - P[2][3];
    P[3][3] = 1;
    mul4(P, V, M);
}

int fn_in_clip(const float m[4][4], const double p[3], unsigned conv)
{
    ld c[4];
    clip_of(m, p, c);
    ld w = c[3], g = 0x1p-50L * (fabsl(c[0]) + fabsl(c[1]) + fabsl(c[2]) + fabsl(w));
    ld zlo = (conv & SATC_DEPTH_ZERO_TO_ONE) ? 0 : -w;
    return w > g && fabsl(c[0]) <= w - g && fabsl(c[1]) <= w - g && c[2] >= zlo + g &&
           c[2] <= w - g;
}

int fn_round_matrix(const double M[4][4], unsigned conv, float mf[4][4], float arr[16])
{
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            mf[i][j] = (float)M[i][j];
            if (!isfinite(mf[i][j]))
                return 0;
            arr[(conv & SATC_MATRIX_ROW_MAJOR) ? i * 4 + j : j * 4 + i] = mf[i][j];
        }
    return 1;
}
