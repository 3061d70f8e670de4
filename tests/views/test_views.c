/*
 * satc_cull_views: every view's mask bit, indices, classes and count equal
 * satc_cull of that view alone, bit for bit, on every runnable path, for
 * K = 1 .. 64 views of mixed kinds over several forms; bad calls get a
 * status and write nothing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <satc.h>

static int g_pass, g_fail;
static void check(int ok, const char *what, int a, int b)
{
    if (ok) {
        g_pass++;
    } else if (g_fail++ < 20) {
        printf("FAIL: %s (%d, %d)\n", what, a, b);
    }
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static float frand(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (float)(rng >> 40) / 16777216.0f;
}

/* A random view near the origin: perspective (symmetric, off-center,
 * infinite far) or orthographic, random orientation. */
static void make_view(satc_frustum *f, int kind)
{
    for (;;) {
        float a = frand() * 6.2831853f, b = (frand() - 0.5f) * 1.5f;
        float d[3] = {cosf(b) * sinf(a), sinf(b), -cosf(b) * cosf(a)};
        float ref[3] = {0, 1, 0};
        double lx = ref[1] * d[2] - ref[2] * d[1], ly = ref[2] * d[0] - ref[0] * d[2],
               lz = ref[0] * d[1] - ref[1] * d[0];
        double ln = sqrt(lx * lx + ly * ly + lz * lz);
        satc_camera c;
        memset(&c, 0, sizeof c);
        for (int q = 0; q < 3; q++)
            c.origin[q] = (frand() - 0.5f) * 40.0f, c.dir[q] = d[q];
        c.left[0] = (float)(lx / ln), c.left[1] = (float)(ly / ln), c.left[2] = (float)(lz / ln);
        /* U = D x L keeps L x U = D. */
        c.up[0] = (float)(d[1] * c.left[2] - d[2] * c.left[1]);
        c.up[1] = (float)(d[2] * c.left[0] - d[0] * c.left[2]);
        c.up[2] = (float)(d[0] * c.left[1] - d[1] * c.left[0]);
        float w = 0.2f + frand(), h = 0.2f + frand(), off = kind == 1 ? (frand() - 0.5f) * 0.3f : 0.0f;
        c.l0 = -w + off, c.l1 = w + off, c.u0 = -h, c.u1 = h;
        c.n = 0.5f, c.f = 100.0f + frand() * 200.0f;
        if (kind == 2)
            c.f = INFINITY;
        if (kind == 3) {
            c.orthographic = 1;
            c.l0 *= 60, c.l1 *= 60, c.u0 *= 60, c.u1 *= 60, c.n = -50, c.f = 150;
        }
        if (satc_frustum_from_camera(f, &c) == SATC_OK)
            return;
    }
}

enum { N = 1100, MAXV = 64 };
static float ctr[N][4], half[N][3], mat[N][16];
static uint8_t cls[MAXV][N], cls1[N];
static uint32_t idx[MAXV][N], idx1[N];
static uint64_t masks[N + 1];

static int mask_bit(const void *m, size_t bytes, size_t j, size_t v)
{
    switch (bytes) {
    case 1: return ((const uint8_t *)m)[j] >> v & 1;
    case 2: return ((const uint16_t *)m)[j] >> v & 1;
    case 4: return ((const uint32_t *)m)[j] >> v & 1;
    default: return (int)(((const uint64_t *)m)[j] >> v & 1);
    }
}

static void compare(satc_isa isa, const satc_frustum *views, size_t nv, const satc_batch *b,
                    size_t first, size_t count, satc_mode mode)
{
    uint32_t *ip[MAXV];
    uint8_t *cp[MAXV];
    size_t visible[MAXV];
    for (size_t v = 0; v < nv; v++)
        ip[v] = (v % 3 == 1) ? NULL : idx[v], cp[v] = (v % 2) ? cls[v] : NULL;
    memset(masks, 0xAB, sizeof masks);
    satc_view_results r = {.masks = masks, .indices = ip, .classes = cp, .visible = visible};
    satc_status st = satc_cull_views_isa(isa, views, nv, b, first, count, mode, &r);
    check(st == SATC_OK, "views status", (int)st, (int)nv);
    size_t bytes = nv <= 8 ? 1 : nv <= 16 ? 2 : nv <= 32 ? 4 : 8;
    /* Bits at and above nv are 0 and the word past count is untouched. */
    int spare = 0;
    for (size_t j = 0; j < count; j++) {
        for (size_t v = nv; v < bytes * 8; v++)
            spare |= mask_bit(masks, bytes, j, v);
    }
    check(!spare, "mask bits past nviews are 0", (int)nv, 0);
    check(((uint8_t *)masks)[count * bytes] == 0xAB, "nothing past the masks", (int)nv, 0);
    for (size_t v = 0; v < nv; v++) {
        satc_results one = {.indices = idx1, .classes = cls1};
        satc_cull_isa(isa, &views[v], b, first, count, mode, &one);
        int ok = one.visible == visible[v];
        for (size_t j = 0; j < count; j++)
            ok &= mask_bit(masks, bytes, j, v) == (cls1[j] != SATC_OUTSIDE);
        if (ip[v])
            ok &= !memcmp(ip[v], idx1, one.visible * sizeof idx1[0]);
        if (cp[v])
            ok &= !memcmp(cp[v], cls1, count);
        check(ok, "view equals its single cull", (int)nv, (int)v);
    }
}

int main(void)
{
    for (int i = 0; i < N; i++) {
        for (int q = 0; q < 3; q++) {
            ctr[i][q] = (frand() - 0.5f) * 120.0f;
            half[i][q] = frand() * 6.0f;
        }
        ctr[i][3] = frand() * 5.0f;
        float a = frand() * 6.2831853f, c = cosf(a), s = sinf(a);
        float m[16] = {c * half[i][0], 0, -s * half[i][0], 0, 0.3f * half[i][1], half[i][1], 0, 0,
                       s * half[i][2], 0, c * half[i][2], 0, ctr[i][0], ctr[i][1], ctr[i][2], 1};
        memcpy(mat[i], m, sizeof m);
    }
    float lc[3] = {0.1f, 0, 0}, lh[3] = {1, 1, 1};
    /* OBB and half-axis records from the matrices' columns: the views pass
     * copies their 5 and 4 float3 streams once per step for all views. */
    const satc_vec3s col[3] = {SATC_VEC3S_AOS(&mat[0][0], 64), SATC_VEC3S_AOS(&mat[0][4], 64),
                               SATC_VEC3S_AOS(&mat[0][8], 64)};
    satc_batch obb = {.form = SATC_FORM_OBB,
                      .obb = {SATC_VEC3S_AOS(&mat[0][12], 64), {col[0], col[1], col[2]},
                              SATC_VEC3S_AOS(&half[0][0], 12)}};
    satc_batch hax = {.form = SATC_FORM_HALF_AXES,
                      .half_axes = {SATC_VEC3S_AOS(&ctr[0][0], 16), {col[0], col[1], col[2]}}};
    satc_batch forms[6] = {
        {.form = SATC_FORM_AABB, .aabb = {SATC_VEC3S_AOS(&ctr[0][0], 16), SATC_VEC3S_AOS(&half[0][0], 12)}},
        {.form = SATC_FORM_INSTANCES,
         .instances = {mat[0], 64, SATC_AFFINE_4X4_COLUMN_MAJOR, {&lc[0], &lc[1], &lc[2], 0}, {&lh[0], &lh[1], &lh[2], 0}, NULL, 0, 0}},
        {.form = SATC_FORM_SPHERES, .spheres = {SATC_VEC3S_AOS(&ctr[0][0], 16), {&ctr[0][3], 16}}},
        {.form = SATC_FORM_MINMAX, .minmax = {SATC_VEC3S_AOS(&ctr[0][0], 16), SATC_VEC3S_AOS(&half[0][0], 12)}},
        obb, hax,
    };
    static satc_frustum views[MAXV];
    const size_t ks[] = {1, 2, 5, 6, 8, 9, 16, 17, 33, 63, 64};
    for (size_t t = 0; t < sizeof ks / sizeof ks[0]; t++) {
        size_t nv = ks[t];
        for (size_t v = 0; v < nv; v++)
            make_view(&views[v], (int)((v + t) % 4));
        if (t % 2) {
            /* The orthographic views as cascades of one light: one origin
             * and frame (the pass loads each volume once per set of 4). */
            const satc_frustum *lead = NULL;
            for (size_t v = 0; v < nv; v++) {
                if (views[v].kind != SATC_FRUSTUM_ORTHOGRAPHIC)
                    continue;
                if (!lead) {
                    lead = &views[v];
                    continue;
                }
                memcpy(views[v].origin, lead->origin, sizeof lead->origin);
                memcpy(views[v].frame, lead->frame, sizeof lead->frame);
            }
        }
        for (unsigned isa = 1; isa <= 128; isa <<= 1) {
            if (!(satc_isa_runnable() & isa))
                continue;
            for (int f = 0; f < 6; f++) {
                for (int mode = 0; mode < 2; mode++) {
                    compare((satc_isa)isa, views, nv, &forms[f], 0, N, (satc_mode)mode);
                    compare((satc_isa)isa, views, nv, &forms[f], 7 + t, 70 + t * 9, (satc_mode)mode);
                }
            }
        }
    }

    /* Bad calls: a status, and nothing written. */
    make_view(&views[0], 0);
    size_t vis[2] = {77, 77};
    memset(masks, 0x5A, sizeof masks);
    satc_view_results r = {.masks = masks, .visible = vis};
    satc_frustum bad = views[0];
    bad.kind = 99;
    satc_frustum two[2] = {views[0], bad};
    satc_batch nob = forms[0];
    nob.aabb.half.y = NULL;
    struct {
        satc_status got, want;
        const char *what;
    } cases[] = {
        {satc_cull_views(views, 0, &forms[0], 0, 10, SATC_EXACT, &r), SATC_ERR_RANGE, "0 views"},
        {satc_cull_views(views, 65, &forms[0], 0, 10, SATC_EXACT, &r), SATC_ERR_RANGE, "65 views"},
        {satc_cull_views(NULL, 1, &forms[0], 0, 10, SATC_EXACT, &r), SATC_ERR_NULL, "NULL views"},
        {satc_cull_views(views, 1, NULL, 0, 10, SATC_EXACT, &r), SATC_ERR_NULL, "NULL batch"},
        {satc_cull_views(views, 1, &forms[0], 0, 10, SATC_EXACT, NULL), SATC_ERR_NULL, "NULL out"},
        {satc_cull_views(two, 2, &forms[0], 0, 10, SATC_EXACT, &r), SATC_ERR_FLAGS, "a view not built"},
        {satc_cull_views(views, 1, &forms[0], 0, 10, (satc_mode)7, &r), SATC_ERR_FLAGS, "mode"},
        {satc_cull_views(views, 1, &nob, 0, 10, SATC_EXACT, &r), SATC_ERR_NULL, "NULL stream"},
        {satc_cull_views(views, 1, &forms[0], SIZE_MAX, 2, SATC_EXACT, &r), SATC_ERR_RANGE, "overflow"},
        {satc_cull_views_isa((satc_isa)3, views, 1, &forms[0], 0, 10, SATC_EXACT, &r), SATC_ERR_FLAGS, "two ISA bits"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        check(cases[c].got == cases[c].want, cases[c].what, (int)cases[c].got, (int)cases[c].want);
    int untouched = vis[0] == 77 && vis[1] == 77;
    for (size_t j = 0; j < sizeof masks; j++)
        untouched &= ((uint8_t *)masks)[j] == 0x5A;
    check(untouched, "nothing written on error", 0, 0);

    printf("%d passed, %d failed\n", g_pass, g_fail);
    return g_fail != 0;
}
