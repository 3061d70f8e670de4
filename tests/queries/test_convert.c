/*
 * satc_to_aabbs: every form to world AABBs. Checked another way than the
 * library computes them: the volume's 8 vertices (or a sphere's 6 poles)
 * from the stored floats in double must lie in the float AABB, which may
 * exceed the tightest one by no more than rounding; non-finite volumes
 * give NaN centers and infinite halves; bad calls write nothing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "satc.h"

#define N 2048

static long n_pass, n_fail;

static void check(int ok, const char *what, long i)
{
    if (ok) {
        n_pass++;
    } else if (++n_fail <= 20) {
        printf("FAIL: %s (volume %ld)\n", what, i);
    }
}

static uint64_t rs = 0x636f6e76ull;
static double uni(double lo, double hi)
{
    uint64_t z = (rs += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return lo + (hi - lo) * ((double)(z >> 11) * 0x1.0p-53);
}

/* Stored fields, one record per volume; every form reads its own. */
typedef struct rec {
    float c[3], h[3];    /* AABB center/half, or a sphere (h[0] = radius) */
    float lo[3], hi[3];  /* min/max */
    float ax[3][3];      /* half-axis vectors (OBB: unit axes, h extents) */
    float m[16];         /* 4x4 column-major: columns ax[j], translation c */
    uint32_t mesh;
} rec;

static rec R[N];
static float lc[2][3] = {{0, 0, 0}, {0.25f, -0.5f, 1}}, lh[2][3] = {{1, 1, 1}, {0.5f, 2, -0.75f}};

static float mag(void) { return (float)(exp(uni(log(1e-3), log(1e6))) * (uni(0, 1) < 0.5 ? -1 : 1)); }

static void fill(void)
{
    for (int i = 0; i < N; i++) {
        rec *r = &R[i];
        double far = exp(uni(0, log(1e7)));
        for (int k = 0; k < 3; k++) {
            r->c[k] = (float)uni(-far, far);
            r->h[k] = mag();
            r->lo[k] = (float)uni(-far, far);
            r->hi[k] = r->lo[k] + (float)fabs(mag());
            for (int j = 0; j < 3; j++)
                r->ax[j][k] = (float)uni(-1, 1) * fabsf(mag());
        }
        for (int j = 0; j < 3; j++) {
            for (int k = 0; k < 3; k++)
                r->m[4 * j + k] = r->ax[j][k];
            r->m[4 * j + 3] = 0;
        }
        for (int k = 0; k < 3; k++)
            r->m[12 + k] = r->c[k];
        r->m[15] = 1;
        r->mesh = (uint32_t)(i % 3); /* 2 is past the table of 2 */
    }
    R[7].c[1] = NAN;       /* non-finite center */
    R[11].ax[2][0] = INFINITY;
    R[13].h[0] = NAN;
}

/* Vertices of volume i of form f in double: returns their count. */
static int vertices(int form, int i, int mesh, double v[8][3])
{
    const rec *r = &R[i];
    double c[3], H[3][3] = {{0}};
    for (int k = 0; k < 3; k++)
        c[k] = r->c[k];
    switch (form) {
    case SATC_FORM_AABB:
        for (int k = 0; k < 3; k++)
            H[k][k] = fabs((double)r->h[k]);
        break;
    case SATC_FORM_MINMAX:
        for (int k = 0; k < 3; k++)
            c[k] = 0.5 * ((double)r->lo[k] + r->hi[k]), H[k][k] = 0.5 * ((double)r->hi[k] - r->lo[k]);
        break;
    case SATC_FORM_HALF_AXES:
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++)
                H[j][k] = r->ax[j][k];
        break;
    case SATC_FORM_SPHERES:
        for (int j = 0; j < 3; j++)
            H[j][j] = fabs((double)r->h[0]);
        break;
    default: { /* instances: t + M (lc + s lh) */
        int id = mesh ? (int)r->mesh : 0;
        for (int k = 0; k < 3; k++) {
            c[k] = r->m[12 + k];
            for (int j = 0; j < 3; j++) {
                c[k] += (double)r->m[4 * j + k] * lc[id][j];
                H[j][k] = (double)r->m[4 * j + k] * fabs((double)lh[id][j]);
            }
        }
    }
    }
    for (int s = 0; s < 8; s++)
        for (int k = 0; k < 3; k++) {
            v[s][k] = c[k];
            for (int j = 0; j < 3; j++)
                v[s][k] += (s >> j & 1 ? 1 : -1) * H[j][k];
        }
    return 8;
}

static int nonfinite(int form, int i, int mesh)
{
    if (form == SATC_FORM_INSTANCES && mesh && R[i].mesh >= 2)
        return 1;
    double v[8][3];
    vertices(form, i, mesh, v);
    for (int s = 0; s < 8; s++)
        for (int k = 0; k < 3; k++)
            if (!isfinite(v[s][k]))
                return 1;
    return 0;
}

static void check_form(const char *name, int form, const satc_batch *b, int mesh)
{
    static float c[3 * N], h[3 * N];
    satc_status st = satc_to_aabbs(b, 0, N, c, h);
    check(st == SATC_OK, name, -1);
    long outside = 0, loose = 0, nf_bad = 0;
    for (int i = 0; i < N; i++) {
        if (nonfinite(form, i, mesh)) {
            for (int k = 0; k < 3; k++)
                nf_bad += !(isnan(c[3 * i + k]) && h[3 * i + k] == INFINITY);
            continue;
        }
        double v[8][3], lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        vertices(form, i, mesh, v);
        for (int s = 0; s < 8; s++)
            for (int k = 0; k < 3; k++)
                lo[k] = fmin(lo[k], v[s][k]), hi[k] = fmax(hi[k], v[s][k]);
        for (int k = 0; k < 3; k++) {
            double cc = c[3 * i + k], hh = h[3 * i + k];
            outside += lo[k] < cc - hh || hi[k] > cc + hh;
            /* no looser than the rounding of the center and of the half */
            double tight = 0.5 * (hi[k] - lo[k]), slack = 0x1p-22 * (fabs(cc) + tight) + 1e-38;
            loose += hh > tight + slack;
        }
    }
    char what[96];
    snprintf(what, sizeof what, "%s: every vertex inside its AABB (%ld outside)", name, outside);
    check(outside == 0, what, -1);
    snprintf(what, sizeof what, "%s: AABBs tight to rounding (%ld loose)", name, loose);
    check(loose == 0, what, -1);
    snprintf(what, sizeof what, "%s: non-finite volumes give NaN centers, infinite halves", name);
    check(nf_bad == 0, what, -1);
    printf("%-28s %d volumes: %ld vertices outside, %ld loose\n", name, N, outside, loose);
}

int main(void)
{
    fill();
    const size_t st = sizeof(rec);
    satc_batch b;
    memset(&b, 0, sizeof b);
    b.form = SATC_FORM_AABB;
    b.aabb.center = (satc_vec3s)SATC_VEC3S_AOS(R[0].c, st);
    b.aabb.half = (satc_vec3s)SATC_VEC3S_AOS(R[0].h, st);
    check_form("AABB center/half", SATC_FORM_AABB, &b, 0);

    memset(&b, 0, sizeof b);
    b.form = SATC_FORM_MINMAX;
    b.minmax.min = (satc_vec3s)SATC_VEC3S_AOS(R[0].lo, st);
    b.minmax.max = (satc_vec3s)SATC_VEC3S_AOS(R[0].hi, st);
    check_form("AABB min/max", SATC_FORM_MINMAX, &b, 0);

    memset(&b, 0, sizeof b);
    b.form = SATC_FORM_HALF_AXES;
    b.half_axes.center = (satc_vec3s)SATC_VEC3S_AOS(R[0].c, st);
    for (int j = 0; j < 3; j++)
        b.half_axes.axis[j] = (satc_vec3s)SATC_VEC3S_AOS(R[0].ax[j], st);
    check_form("half axes", SATC_FORM_HALF_AXES, &b, 0);

    memset(&b, 0, sizeof b);
    b.form = SATC_FORM_SPHERES;
    b.spheres.center = (satc_vec3s)SATC_VEC3S_AOS(R[0].c, st);
    b.spheres.radius.p = &R[0].h[0];
    b.spheres.radius.stride = st;
    check_form("spheres", SATC_FORM_SPHERES, &b, 0);

    memset(&b, 0, sizeof b);
    b.form = SATC_FORM_INSTANCES;
    b.instances.matrix = R[0].m;
    b.instances.stride = st;
    b.instances.layout = SATC_AFFINE_4X4_COLUMN_MAJOR;
    b.instances.local_center = (satc_vec3s)SATC_VEC3S_AOS(lc[0], 0);
    b.instances.local_half = (satc_vec3s)SATC_VEC3S_AOS(lh[0], 0);
    check_form("instances, shared box", SATC_FORM_INSTANCES, &b, 0);
    b.instances.local_center = (satc_vec3s)SATC_VEC3S_AOS(lc[0], 12);
    b.instances.local_half = (satc_vec3s)SATC_VEC3S_AOS(lh[0], 12);
    b.instances.mesh = &R[0].mesh;
    b.instances.mesh_stride = st;
    b.instances.mesh_count = 2;
    check_form("instances, mesh ids", SATC_FORM_INSTANCES, &b, 1);

    /* Bad calls: a status and nothing written. */
    float c[6], h[6];
    memset(c, 0x5a, sizeof c);
    memcpy(h, c, sizeof h);
    float keep[6];
    memcpy(keep, c, sizeof keep);
    satc_batch bad = b;
    bad.form = (satc_form)99;
    check(satc_to_aabbs(&bad, 0, 2, c, h) == SATC_ERR_FLAGS && !memcmp(c, keep, sizeof c), "unknown form", -1);
    check(satc_to_aabbs(NULL, 0, 2, c, h) == SATC_ERR_NULL, "NULL batch", -1);
    check(satc_to_aabbs(&b, 0, 2, NULL, h) == SATC_ERR_NULL && !memcmp(h, keep, sizeof h), "NULL center", -1);
    check(satc_to_aabbs(&b, SIZE_MAX, 2, c, h) == SATC_ERR_RANGE && !memcmp(c, keep, sizeof c), "range", -1);
    bad = b;
    bad.instances.stride = 32;
    check(satc_to_aabbs(&bad, 0, 2, c, h) == SATC_ERR_LAYOUT && !memcmp(c, keep, sizeof c), "stride too small", -1);
    check(satc_to_aabbs(&b, 0, 0, NULL, NULL) == SATC_OK, "count 0 needs no outputs", -1);
    printf("%ld passed, %ld failed\n", n_pass, n_fail);
    return n_fail ? 1 : 0;
}
