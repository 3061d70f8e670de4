/*
 * Regression: an exact-mode sphere of about 1e-11 behind the apex of a
 * frustum whose near plane is 4e-14, crossing the frustum by 1.5 % of its
 * radius, was culled on every path (found by test_hunt --seed 777): the
 * edge test's products of four lengths were subnormal. The same sphere
 * scaled by powers of two from 2^-40 to 2^40 must be kept by every path,
 * both modes, and one that misses by 1.4 % must be culled in exact mode
 * where its products are normal.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "robust_util.h"

static int kept(satc_isa isa, const satc_camera *cam, const float c[3], float r, satc_mode m)
{
    satc_frustum f;
    if (satc_frustum_from_camera(&f, cam) != SATC_OK)
        return -1;
    float sp[4] = {c[0], c[1], c[2], r};
    satc_batch b;
    memset(&b, 0, sizeof b);
    b.form = SATC_FORM_SPHERES;
    b.spheres.center = (satc_vec3s)SATC_VEC3S_AOS(sp, 16);
    b.spheres.radius = (satc_floats){sp + 3, 16};
    uint8_t bit = 0;
    satc_results out = {&bit, NULL, NULL, 0};
    if (satc_cull_isa(isa, &f, &b, 0, 1, m, &out) != SATC_OK)
        return -1;
    return bit & 1;
}

int main(void)
{
    satc_isa paths[8];
    int npaths = rb_paths(paths);
    const satc_camera base = {
        .origin = {0x1.07dbf8p-42f, 0x1.472cf6p-45f, -0x1.b2beap-43f},
        .left = {-0x1.fad9ccp-2f, 0x1.b5f416p-6f, 0x1.bcabc4p-1f},
        .up = {0x1.cf3c7p-2f, 0x1.b8fd34p-1f, 0x1.d9b894p-3f},
        .dir = {-0x1.7bd518p-1f, 0x1.03c786p-1f, -0x1.c0efc2p-2f},
        .l0 = -0x1.fcdeacp-48f, .l1 = 0x1.404024p-46f, .u0 = -0x1.4e504cp-45f,
        .u1 = 0x1.2e186ap-44f, .n = 0x1.61dfbp-45f, .f = 0x1.2335b6p-28f};
    const float c0[3] = {0x1.97f3b2p-48f, 0x1.50439cp-39f, 0x1.27ade8p-37f};
    /* Its distance to the frustum is 0x1.1ba1bf3cac12cp-37 (double
     * oracle); the sphere found had radius 0x1.1feebap-37. */
    const float hit = 0x1.1feebap-37f, miss = 0x1.17ap-37f;
    for (int e = -40; e <= 40; e += 4) {
        float s = ldexpf(1.0f, e);
        satc_camera cam = base;
        for (int k = 0; k < 3; k++)
            cam.origin[k] *= s;
        cam.l0 *= s, cam.l1 *= s, cam.u0 *= s, cam.u1 *= s, cam.n *= s, cam.f *= s;
        float c[3] = {c0[0] * s, c0[1] * s, c0[2] * s};
        for (int p = 0; p < npaths; p++) {
            for (int m = 0; m < 2; m++)
                rb_check(kept(paths[p], &cam, c, hit * s, (satc_mode)m) == 1,
                         "scale 2^%d, %s, mode %d: the touching sphere is kept", e,
                         satc_isa_name(paths[p]), m);
            /* Products of four lengths are normal from 2^8 on (1e-44 x 2^32). */
            if (e >= 8)
                rb_check(kept(paths[p], &cam, c, miss * s, SATC_EXACT) == 0,
                         "scale 2^%d, %s: the sphere missing by 1.4 %% is culled", e,
                         satc_isa_name(paths[p]));
        }
    }
    return rb_finish();
}
