/*
 * Exact mode culls what its float stage leaves within twice the
 * tolerance of culling, once the double decision proves it apart: the
 * band flag must reach 2 T, not T. Volumes lie truly beyond the near or
 * the far plane of a perspective frustum (an exactly orthonormal frame,
 * so the second stage's band there is 2^-40 of the magnitudes), by a gap
 * g from 2^-30 to 2^-21 of the magnitudes, laterally well inside the side
 * planes: the float stage's rounding (a camera 10^2..10^4 from the
 * origin) puts many of their computed gaps below 0, within T of culling
 * but not 2 T. Every one must be culled in exact mode, on every path,
 * FTZ/DAZ off and on, as AABBs, OBBs and spheres (truth: the gap in long
 * double from the float fields). A band flag halved in the reference and
 * the kernels together keeps hundreds of them. SATC_TEST_QUICK=1: fewer.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fn_common.h"
#include "robust_util.h"

typedef long double ld;

enum { N = 4096 };

static float g_c[N][3], g_h[N][3], g_r[N], g_ax[3][3][N], g_e[3][N];

static long cull_kept(const satc_frustum *f, satc_isa isa, int form, int n)
{
    satc_batch b;
    memset(&b, 0, sizeof b);
    if (form == 0) {
        b.form = SATC_FORM_AABB;
        b.aabb.center = SATC_VEC3S_AOS(&g_c[0][0], 12);
        b.aabb.half = SATC_VEC3S_AOS(&g_h[0][0], 12);
    } else if (form == 1) {
        b.form = SATC_FORM_SPHERES;
        b.spheres.center = SATC_VEC3S_AOS(&g_c[0][0], 12);
        b.spheres.radius = (satc_floats){g_r, 4};
    } else {
        static float cx[N], cy[N], cz[N];
        for (int i = 0; i < n; i++)
            cx[i] = g_c[i][0], cy[i] = g_c[i][1], cz[i] = g_c[i][2];
        satc_boxes bx;
        memset(&bx, 0, sizeof bx);
        bx.center[0] = cx, bx.center[1] = cy, bx.center[2] = cz;
        for (int j = 0; j < 3; j++) {
            for (int k = 0; k < 3; k++)
                bx.axis[j][k] = g_ax[j][k];
            bx.extent[j] = g_e[j];
        }
        b = satc_batch_from_boxes(&bx);
    }
    static uint8_t bits[N / 8 + 1];
    satc_results r = {bits, NULL, NULL, 0};
    if (satc_cull_isa(isa, f, &b, 0, (size_t)n, SATC_EXACT, &r) != SATC_OK)
        return -1;
    return (long)r.visible;
}

int main(void)
{
    int rounds = rb_quick() ? 6 : 24;
    fn_rng r = {31005};
    static const char *const form_name[3] = {"AABB", "sphere", "OBB"};
    long kept[3] = {0, 0, 0}, placed = 0;
    for (int round = 0; round < rounds; round++) {
        satc_camera c = {.left = {1, 0, 0}, .up = {0, 1, 0}, .dir = {0, 0, 1}};
        for (int k = 0; k < 3; k++)
            c.origin[k] = (float)((fn_next(&r) % 2 ? 1 : -1) * fn_logu(&r, 6.6, 13.3));
        c.n = (float)fn_logu(&r, -2, 3), c.f = c.n * (float)fn_logu(&r, 4, 12);
        c.l0 = -c.n, c.l1 = c.n, c.u0 = -0.75f * c.n, c.u1 = 0.75f * c.n;
        satc_frustum f;
        if (!rb_check(satc_frustum_from_camera(&f, &c) == SATC_OK, "camera"))
            continue;
        int n = 0;
        for (int tries = 0; n < N && tries < 4 * N; tries++) {
            int far = fn_next(&r) % 2;
            ld z = far ? c.f : c.n;
            ld Q = fabsl((ld)c.origin[0]) + fabsl((ld)c.origin[1]) + fabsl((ld)c.origin[2]) + 2 * z;
            ld g = Q * exp2l(-fn_unif(&r, 21, 30));
            float h = (float)(z * fn_logu(&r, -14, -4));
            /* the face nearest the plane at gap g beyond it */
            ld cz = far ? c.origin[2] + z + g + h : c.origin[2] + z - g - h;
            float C[3] = {(float)(c.origin[0] + z * fn_unif(&r, -0.5, 0.5)),
                          (float)(c.origin[1] + z * fn_unif(&r, -0.4, 0.4)), (float)cz};
            /* the true gap from the floats */
            ld dz = (ld)C[2] - c.origin[2];
            ld gap = far ? dz - h - c.f : c.n - (dz + h);
            if (!(gap > Q * 0x1p-31L))
                continue;
            memcpy(g_c[n], C, sizeof C);
            for (int k = 0; k < 3; k++) {
                g_h[n][k] = h;
                g_e[k][n] = h;
                for (int j = 0; j < 3; j++)
                    g_ax[j][k][n] = j == k ? 1.0f : 0.0f;
            }
            g_r[n] = h; /* the sphere inside the box: as far from the plane */
            n++;
        }
        placed += n;
        satc_isa paths[8];
        int np = rb_paths(paths);
        for (int p = 0; p < np; p++) {
            for (int ftz = 0; ftz <= fn_fp_has_ftz(); ftz++) {
                unsigned long long old = fn_fp_set(ftz);
                for (int form = 0; form < 3; form++) {
                    long v = cull_kept(&f, paths[p], form, n);
                    kept[form] += v < 0 ? n : v;
                    if (v)
                        rb_check(0, "round %d, %s, %s, ftz %d: exact mode keeps %ld of %d volumes"
                                 " apart beyond the double band", round, satc_isa_name(paths[p]),
                                 form_name[form], ftz, v, n);
                }
                fn_fp_restore(old);
            }
        }
    }
    printf("%ld volumes apart by 2^-31..2^-21 of their magnitudes; exact mode kept: AABB %ld,"
           " sphere %ld, OBB %ld\n", placed, kept[0], kept[1], kept[2]);
    rb_check(placed > 1000, "placed %ld volumes", placed);
    return rb_finish();
}
