/*
 * Regression tests for false negatives found earlier, each rebuilt from
 * the description (not its numbers), checked on every runnable
 * path, both modes, FTZ/DAZ off and on, and as OBB, half-axis and
 * instance boxes. Truth is a box point inside the frustum in double (or
 * inside a float matrix's clip volume in long double), never satc.
 *  1. A segment about 10^4 long through the apex region whose far end
 *     enters a 90-degree frustum by ~4e-4 near a side plane (long axis of
 *     extent 1, or a unit axis of extent 10^4).
 *  2. World axes but one tilted by a subnormal component; a box vertex
 *     inside near a frustum edge; scenes scaled by 1, 2^-60, 2^-100, 2^-120.
 *  3. glm perspective x look-at in double, rounded to float, every depth
 *     convention: the frustum's fields hold the clip volume's corners, and
 *     points inside the float matrix's clip volume near its corners are
 *     visible (eye 700 units out with n = 0.01; wide fields of
 *     view; eye 10^5 out with far 7e7).
 *  4. satc_frustum_perspective with a subnormal near distance gives a
 *     status or accurate slopes; finite but huge input gives
 *     SATC_ERR_BOUNDS.
 *  5. satc_obb_from_matrix: the box contains the mapped local box's
 *     corners (rounded outward).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fn_common.h"
#include "robust_util.h"

#define PI 3.14159265358979323846

/* Margin of "strictly inside": far above double rounding of the check. */
#define INSIDE (-0x1p-40)

typedef long double ld;

static void finding1(void)
{
    enum { N = 1500 };
    static fn_vol v[N];
    static unsigned char want[N];
    fn_rng r = {15001};
    for (int rep = 0; rep < 4; rep++) {
        satc_camera c = {.l0 = -1, .l1 = 1, .u0 = -1, .u1 = 1, .n = 1, .f = 1e6f};
        double R[3][3];
        fn_rotation(&r, R);
        fn_frame(R, &c);
        satc_frustum f;
        if (!rb_check(satc_frustum_from_camera(&f, &c) == SATC_OK, "finding 1: camera"))
            return;
        for (int i = 0; i < N; i++) {
            /* The far end P near side plane `side`, inside by delta. */
            double z = fn_unif(&r, 5000, 9000), delta = fn_unif(&r, 1e-4, 1e-3);
            double across = fn_unif(&r, -0.9, 0.9) * z, along = z - delta;
            int side = (int)(fn_next(&r) % 4);
            double q[3] = {across, across, z};
            q[side / 2] = side % 2 ? -along : along;
            double cq[3] = {fn_unif(&r, -3, 3), fn_unif(&r, -3, 3), fn_unif(&r, -3, 3)};
            double P[3], C[3], A[3], len = 0;
            fn_to_world(&c, q, P);
            fn_to_world(&c, cq, C);
            for (int k = 0; k < 3; k++) {
                A[k] = P[k] - C[k];
                len += A[k] * A[k];
            }
            len = sqrt(len);
            fn_vol *b = &v[i];
            memset(b, 0, sizeof *b);
            int unit = i % 2; /* unit axis of extent |A|, or axis A of extent 1 */
            for (int k = 0; k < 3; k++) {
                b->c[k] = (float)C[k];
                b->a[0][k] = (float)(unit ? A[k] / len : A[k]);
            }
            b->e[0] = unit ? (float)len : 1.0f;
            /* The other axes: unit, across A, extent 0. */
            int m = fabs(A[0]) < fabs(A[1]) ? 0 : 1;
            double t[3] = {0, 0, 0}, u[3], w[3];
            t[m] = 1;
            u[0] = A[1] * t[2] - A[2] * t[1], u[1] = A[2] * t[0] - A[0] * t[2],
            u[2] = A[0] * t[1] - A[1] * t[0];
            double ul = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
            w[0] = A[1] * u[2] - A[2] * u[1], w[1] = A[2] * u[0] - A[0] * u[2],
            w[2] = A[0] * u[1] - A[1] * u[0];
            for (int k = 0; k < 3; k++) {
                b->a[1][k] = (float)(u[k] / ul);
                b->a[2][k] = (float)(w[k] / (ul * len));
            }
            b->t[0] = 1;
        }
        size_t n_true = fn_want(&c, v, N, INSIDE, want);
        rb_check(n_true > N / 4, "finding 1: only %zu of %d witnesses inside", n_true, N);
        long fn = fn_check_all(&f, v, want, N, "finding 1");
        rb_check(fn == 0, "finding 1 (rotation %d): %ld false negatives", rep, fn);
    }
}

/* Random subnormal of either sign. */
static float subnormal(fn_rng *r)
{
    float x = ldexpf(1.0f, -126 - (int)(fn_next(r) % 24)) * (float)fn_unif(r, 0.5, 1);
    return fn_next(r) & 1 ? x : -x;
}

static void finding2(void)
{
    enum { N = 1200 };
    static fn_vol v[N];
    static unsigned char want[N];
    static const double scales[] = {1, 0x1p-60, 0x1p-100, 0x1p-120};
    static const float dirs[2][3] = {{0, 0, -1}, {0, 0, 1}};
    const float eye[3] = {0, 0, 0}, up[3] = {0, 1, 0};
    fn_rng r = {15002};
    for (int si = 0; si < 4; si++) {
        for (int di = 0; di < 2; di++) {
            double s = scales[si];
            float n = (float)s, fr = (float)(1000 * s), fovy = (float)(PI / 2);
            satc_frustum f;
            satc_status st = satc_frustum_perspective(&f, eye, dirs[di], up, fovy, 1.0f, n, fr);
            if (!rb_check(st == SATC_OK, "finding 2: frustum at scale %g: %d", s, st))
                continue;
            satc_camera c = {.n = n, .f = fr};
            memcpy(c.left, f.frame[0], sizeof c.left);
            memcpy(c.up, f.frame[1], sizeof c.up);
            memcpy(c.dir, f.frame[2], sizeof c.dir);
            c.l1 = c.u1 = (float)(tan(0.5 * (double)fovy) * n);
            c.l0 = c.u0 = -c.l1;
            for (int i = 0; i < N; i++) {
                fn_vol *b = &v[i];
                memset(b, 0, sizeof b->a);
                for (int j = 0; j < 3; j++)
                    b->a[j][j] = 1;
                int j = (int)(fn_next(&r) % 3), k = (j + 1 + (int)(fn_next(&r) % 2)) % 3;
                b->a[j][k] = subnormal(&r);
                if (i % 3 == 0)
                    b->a[k][j] = subnormal(&r);
                /* A vertex near a frustum edge, inside both planes by a bit. */
                double z = fn_unif(&r, 1.1, 10);
                double q[3] = {(z - fn_unif(&r, 0.005, 0.2) * z) * (fn_next(&r) & 1 ? 1 : -1),
                               (z - fn_unif(&r, 0.005, 0.2) * z) * (fn_next(&r) & 1 ? 1 : -1), z};
                if (i % 4 == 0)
                    q[fn_next(&r) & 1] *= fn_unif(&r, -1, 1);
                double W[3];
                for (int m = 0; m < 3; m++)
                    q[m] *= s;
                fn_to_world(&c, q, W);
                for (int m = 0; m < 3; m++) {
                    b->e[m] = (float)(s * (double)(int)fn_unif(&r, 1, 48) / 16);
                    double sg = W[m] < 0 ? -1 : 1;
                    b->t[m] = -sg;
                }
                for (int m = 0; m < 3; m++) {
                    double x = W[m];
                    for (int jj = 0; jj < 3; jj++)
                        x -= b->t[jj] * b->e[jj] * (double)b->a[jj][m];
                    b->c[m] = (float)x;
                }
            }
            size_t n_true = fn_want(&c, v, N, INSIDE, want);
            rb_check(n_true > N / 2, "finding 2: only %zu witnesses", n_true);
            char tag[64];
            snprintf(tag, sizeof tag, "finding 2 scale %g dir %d", s, di);
            long fn = fn_check_all(&f, v, want, N, tag);
            rb_check(fn == 0, "%s: %ld false negatives", tag, fn);
        }
    }
}

/* ---- finding 3: matrices rounded from double (helpers in fn_common) ---- */

/* The frustum's own fields (origin, frame, slopes, n, f) hold the clip
 * volume's 8 corners (finite far) solved in long double: what
 * satc_frustum_from_matrix promises, without the culling tolerance. */
static int corners_inside(const satc_frustum *f, const float mf[4][4], unsigned conv)
{
    double zn = (conv & SATC_DEPTH_ZERO_TO_ONE) ? 0 : -1, zf = 1;
    if (conv & SATC_DEPTH_REVERSED)
        zn = zf, zf = (conv & SATC_DEPTH_ZERO_TO_ONE) ? 0 : -1;
    int ok = 1;
    for (int k = 0; k < 8; k++) {
        if (k >= 4 && f->infinite)
            break;
        ld ndc[4] = {(k & 1) ? 1 : -1, (k & 2) ? 1 : -1, k >= 4 ? zf : zn, 1}, x[4], q[3];
        if (!fn_solve4(mf, ndc, x))
            return 0;
        for (int i = 0; i < 3; i++) {
            q[i] = 0;
            for (int j = 0; j < 3; j++)
                q[i] += (ld)f->frame[i][j] * (x[j] / x[3] - (ld)f->origin[j]);
        }
        ld g = 0x1p-50L * (fabsl(q[0]) + fabsl(q[1]) + fabsl(q[2]));
        ok &= q[2] >= (ld)f->n - g && (f->infinite || q[2] <= (ld)f->f + g);
        ok &= q[0] >= (ld)f->x0 * q[2] - g && q[0] <= (ld)f->x1 * q[2] + g;
        ok &= q[1] >= (ld)f->y0 * q[2] - g && q[1] <= (ld)f->y1 * q[2] + g;
    }
    return ok;
}

static void finding3(void)
{
    enum { PTS = 24 };
    fn_rng r = {15003};
    long built = 0, refused = 0, tried = 0, fns = 0, corners_bad = 0;
    for (int scen = 0; scen < 3; scen++) {
        for (int o = 0; o < 40; o++) {
            double dist, n, fa, fovy, aspect = 16.0 / 9;
            if (scen == 0)
                dist = 700, n = 0.01, fa = 1000, fovy = PI / 3;
            else if (scen == 1)
                dist = 100, n = 0.1, fa = 1e5, fovy = fn_unif(&r, 2.6, 3.1);
            else
                dist = 1e5, n = fn_unif(&r, 1, 10), fa = 7e7, fovy = fn_unif(&r, 0.2, 3.0),
                aspect = fn_unif(&r, 0.2, 5);
            double R[3][3], eye[3], at[3];
            fn_rotation(&r, R);
            for (int k = 0; k < 3; k++) {
                eye[k] = R[0][k] * dist;
                at[k] = fn_unif(&r, -dist, dist) * 0.01;
            }
            unsigned conv = fn_convs[(size_t)o % FN_NCONVS];
            double M[4][4];
            fn_view_proj(fovy, aspect, n, fa, eye, at, conv, M);
            float mf[4][4], arr[16];
            fn_round_matrix(M, conv, mf, arr);
            satc_frustum f;
            satc_status st = satc_frustum_from_matrix(&f, arr, conv);
            if (st != SATC_OK) {
                refused++;
                continue;
            }
            built++;
            corners_bad += !corners_inside(&f, mf, conv);
            fn_vol v[PTS];
            unsigned char want[PTS];
            memset(v, 0, sizeof v);
            double zn = (conv & SATC_DEPTH_ZERO_TO_ONE) ? 0 : -1, zf = 1;
            if (conv & SATC_DEPTH_REVERSED)
                zn = 1, zf = 0;
            for (int i = 0; i < PTS; i++) {
                /* Near a corner of the clip volume: at the near or far end. */
                double a = 1 - ldexp(1, -(int)(fn_next(&r) % 30) - 4), b = 1 - ldexp(1, -(int)(fn_next(&r) % 30) - 4);
                double tz = ldexp(1, -(int)(fn_next(&r) % 30) - 4);
                double z = i % 2 ? zn + (zf - zn) * tz : zf - (zf - zn) * tz;
                if (conv & SATC_DEPTH_INFINITE_FAR)
                    z = zn + (zf - zn) * (i % 2 ? tz : fn_unif(&r, 0, 1));
                long double rhs[4] = {(fn_next(&r) & 1) ? a : -a, (fn_next(&r) & 1) ? b : -b, z, 1}, x[4];
                want[i] = 0;
                for (int k = 0; k < 3; k++)
                    v[i].a[k][k] = 1;
                if (!fn_solve4(mf, rhs, x) || !(x[3] != 0))
                    continue;
                for (int k = 0; k < 3; k++)
                    v[i].c[k] = (float)(x[k] / x[3]);
                double pd[3] = {v[i].c[0], v[i].c[1], v[i].c[2]};
                if (isfinite(v[i].c[0]) && isfinite(v[i].c[1]) && isfinite(v[i].c[2]) &&
                    fn_in_clip(mf, pd, conv))
                    want[i] = (1u << FN_NFORMS) - 1, tried++;
            }
            char tag[64];
            snprintf(tag, sizeof tag, "finding 3 scene %d conv %u", scen, conv);
            long k = fn_check_all(&f, v, want, PTS, tag);
            fns += k;
        }
    }
    printf("finding 3: %ld matrices built, %ld refused with a status, %ld points\n", built, refused,
           tried);
    rb_check(built >= 100, "finding 3: only %ld of 120 matrices built", built);
    rb_check(tried >= 1000, "finding 3: only %ld points inside", tried);
    rb_check(fns == 0, "finding 3: %ld false negatives", fns);
    rb_check(corners_bad == 0, "finding 3: %ld frusta do not hold the clip volume's corners",
             corners_bad);
}

static void finding4(void)
{
    const float eye[3] = {0, 0, 0}, dir[3] = {0, 0, -1}, up[3] = {0, 1, 0};
    const float ns[] = {1e-42f, 1e-40f, 0x1p-149f, FLT_MIN / 2, FLT_MIN, 1e-37f, 1e-30f};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        satc_frustum f;
        float fovy = 1.0f, aspect = 1.5f;
        satc_status st = satc_frustum_perspective(&f, eye, dir, up, fovy, aspect, ns[i], 1.0f);
        double s = tan(0.5 * (double)fovy), want[4] = {-s * aspect, s * aspect, -s, s};
        float got[4] = {f.x0, f.x1, f.y0, f.y1};
        if (st != SATC_OK) {
            rb_check(st == SATC_ERR_BOUNDS, "finding 4: n = %g gives status %d", (double)ns[i], st);
            continue;
        }
        for (int k = 0; k < 4; k++)
            rb_check(fabs(got[k] - want[k]) <= 0x1p-22 * fabs(want[k]),
                     "finding 4: n = %g slope %d is %.9g, want %.9g", (double)ns[i], k, got[k],
                     want[k]);
    }
    satc_frustum f;
    satc_status st = satc_frustum_perspective(&f, eye, dir, up, 1.0f, 4.0f, 3e38f, INFINITY);
    rb_check(st == SATC_ERR_BOUNDS, "finding 4: n = 3e38, aspect 4 gives %d, want %d", st,
             SATC_ERR_BOUNDS);
}

static void finding5(void)
{
    fn_rng r = {15005};
    long outside = 0, built = 0;
    for (int i = 0; i < 3000; i++) {
        double R[3][3], sc[3];
        fn_rotation(&r, R);
        float m[16] = {0}, lmin[3], lmax[3];
        for (int k = 0; k < 3; k++) {
            sc[k] = ldexp(fn_unif(&r, 1, 2), (int)(fn_next(&r) % 40) - 20) * (fn_next(&r) & 1 ? 1 : -1);
            lmin[k] = (float)fn_unif(&r, -10, 0);
            lmax[k] = (float)fn_unif(&r, 0, 10);
        }
        for (int c = 0; c < 3; c++)
            for (int rr = 0; rr < 3; rr++)
                m[c * 4 + rr] = (float)(R[rr][c] * sc[c]);
        for (int rr = 0; rr < 3; rr++)
            m[12 + rr] = (float)fn_unif(&r, -1e5, 1e5);
        m[15] = 1;
        satc_obb b;
        if (satc_obb_from_matrix(&b, m, 0, lmin, lmax) != SATC_OK)
            continue;
        built++;
        /* Each mapped corner in the box's coordinates: |t_j| <= 1. */
        for (int v = 0; v < 8; v++) {
            ld p[3], A[3][3], t[3];
            for (int rr = 0; rr < 3; rr++) {
                p[rr] = (ld)m[12 + rr] - b.center[rr];
                for (int c = 0; c < 3; c++)
                    p[rr] += (ld)m[c * 4 + rr] * (v >> c & 1 ? lmax[c] : lmin[c]);
                for (int j = 0; j < 3; j++)
                    A[rr][j] = (ld)b.axis[j][rr] * b.extent[j];
            }
            ld det = A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) -
                     A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
                     A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
            for (int j = 0; j < 3; j++) {
                ld a2[3][3];
                memcpy(a2, A, sizeof a2);
                for (int rr = 0; rr < 3; rr++)
                    a2[rr][j] = p[rr];
                t[j] = (a2[0][0] * (a2[1][1] * a2[2][2] - a2[1][2] * a2[2][1]) -
                        a2[0][1] * (a2[1][0] * a2[2][2] - a2[1][2] * a2[2][0]) +
                        a2[0][2] * (a2[1][0] * a2[2][1] - a2[1][1] * a2[2][0])) / det;
                outside += fabsl(t[j]) > 1 + 0x1p-50L;
            }
        }
    }
    rb_check(built > 2900, "finding 5: only %ld boxes built", built);
    rb_check(outside == 0, "finding 5: %ld corner coordinates outside the box", outside);
}

int main(void)
{
    finding1();
    finding2();
    finding3();
    finding4();
    finding5();
    return rb_finish();
}
