/*
 * Group bounds per frame: satc_group_bounds over the city's
 * boxes held in each form an engine stores, groups of 128, from memory,
 * next to a streaming read of that form's bytes; and a server tick's
 * update of 10 % of the groups (scattered, satc_group_bounds_dirty)
 * next to the full call. Prints PASS/MISS [speed] lines.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baselines.h"
#include "goals.h"
#include "stream.h"
#include "timing.h"

int vg_group_bounds(const scn_scene *s, size_t n, int reps);

enum { GB_OBB, GB_AABB24, GB_AABB3, GB_MINMAX, GB_HALF, GB_INST, GB_INST_PER, GB_INST_MESH,
       GB_SPH, GB_FORMS };
static const char *const gb_names[GB_FORMS] = {
    "OBB Eberly arrays", "AABB 24 B records", "AABB c/h float3 arrays", "min/max 24 B records",
    "half axes 48 B", "instances, shared local box", "instances, local box each",
    "instances, mesh table", "spheres 16 B"};

typedef struct gbctx {
    const satc_batch *b;
    size_t n, ng;
    float *gc, *gh;
    const uint64_t *dirty;
    const void *p[16];
    size_t bytes[16];
    int np;
    int bad;
} gbctx;

static void run_full(void *p)
{
    gbctx *c = p;
    c->bad |= satc_group_bounds(c->b, c->n, 128, NULL, c->ng, c->gc, c->gh) != SATC_OK;
}

#ifndef VG_BEFORE
static void run_dirty(void *p)
{
    gbctx *c = p;
    c->bad |= satc_group_bounds_dirty(c->b, c->n, 128, NULL, c->ng, c->dirty, c->gc, c->gh) != SATC_OK;
}
#endif

static void run_range(void *p)
{
    gbctx *c = p; /* the middle tenth of the groups, as one range */
    size_t g0 = c->ng * 9 / 20, gn = c->ng / 10;
    c->bad |= satc_group_bounds_range(c->b, c->n, 128, NULL, c->ng, g0, gn, c->gc, c->gh) != SATC_OK;
}

static void run_read(void *p)
{
    gbctx *c = p;
    for (int i = 0; i < c->np; i++)
        bench_sink ^= bench_read(c->p[i], c->bytes[i]);
}

/* The bytes of the dirty groups alone: what an update cannot beat. */
static void run_dirty_read(void *p)
{
    gbctx *c = p;
    for (size_t g = 0; g < c->ng; g++) {
        if (!(c->dirty[g / 64] >> (g % 64) & 1))
            continue;
        for (int i = 0; i < c->np; i++) {
            size_t per = c->bytes[i] / c->n, lo = g * 128 * per;
            size_t len = 128 * per < c->bytes[i] - lo ? 128 * per : c->bytes[i] - lo;
            bench_sink ^= bench_read((const char *)c->p[i] + lo, len);
        }
    }
}

static float *fal(size_t floats)
{
    float *p = aligned_alloc(64, (floats * 4 + 63) / 64 * 64);
    if (!p)
        abort();
    return p;
}

int vg_group_bounds(const scn_scene *s, size_t n, int reps)
{
    const satc_boxes *bx = &s->boxes;
    float *c = fal(3 * n), *h = fal(3 * n);
    satc_batch ob = satc_batch_from_boxes(bx);
    satc_to_aabbs(&ob, 0, n, c, h);
    float *a24 = fal(6 * n), *mm = fal(6 * n), *ha = fal(12 * n), *mat = fal(16 * n);
    float *lcl = fal(6 * n), *sph = fal(4 * n);
    uint32_t *mesh = malloc(4 * n);
    static float table[16][6];
    for (int t = 0; t < 16; t++)
        for (int k = 0; k < 3; k++)
            table[t][k] = 0.01f * (float)t, table[t][3 + k] = 1.0f + 0.1f * (float)t;
    for (size_t i = 0; i < n; i++) {
        float e[3], ax[3][3], ct[3], r2 = 0;
        for (int j = 0; j < 3; j++) {
            e[j] = bx->extent[j][i], ct[j] = bx->center[j][i];
            for (int k = 0; k < 3; k++)
                ax[j][k] = bx->axis[j][k][i];
            r2 += e[j] * e[j];
        }
        for (int k = 0; k < 3; k++) {
            a24[6 * i + k] = c[3 * i + k], a24[6 * i + 3 + k] = h[3 * i + k];
            mm[6 * i + k] = c[3 * i + k] - h[3 * i + k], mm[6 * i + 3 + k] = c[3 * i + k] + h[3 * i + k];
            ha[12 * i + k] = ct[k], sph[4 * i + k] = ct[k];
            for (int j = 0; j < 3; j++)
                ha[12 * i + 3 + 3 * j + k] = ax[j][k] * e[j], mat[16 * i + 4 * j + k] = ax[j][k] * e[j];
            mat[16 * i + 12 + k] = ct[k];
            lcl[6 * i + k] = 0.0f, lcl[6 * i + 3 + k] = 1.0f;
        }
        mat[16 * i + 3] = mat[16 * i + 7] = mat[16 * i + 11] = 0.0f, mat[16 * i + 15] = 1.0f;
        sph[4 * i + 3] = sqrtf(r2);
        mesh[i] = (uint32_t)i * 2654435761u >> 28; /* 0..15 */
    }
    static const float lc0[3] = {0, 0, 0}, lh1[3] = {1, 1, 1};
    satc_batch b[GB_FORMS];
    memset(b, 0, sizeof b);
    b[GB_OBB] = ob;
    b[GB_AABB24].form = SATC_FORM_AABB;
    b[GB_AABB24].aabb = (satc_aabbs){SATC_VEC3S_AOS(a24, 24), SATC_VEC3S_AOS(a24 + 3, 24)};
    b[GB_AABB3].form = SATC_FORM_AABB;
    b[GB_AABB3].aabb = (satc_aabbs){SATC_VEC3S_AOS(c, 12), SATC_VEC3S_AOS(h, 12)};
    b[GB_MINMAX].form = SATC_FORM_MINMAX;
    b[GB_MINMAX].minmax = (satc_minmax){SATC_VEC3S_AOS(mm, 24), SATC_VEC3S_AOS(mm + 3, 24)};
    b[GB_HALF].form = SATC_FORM_HALF_AXES;
    b[GB_HALF].half_axes = (satc_half_axes){SATC_VEC3S_AOS(ha, 48),
                                            {SATC_VEC3S_AOS(ha + 3, 48), SATC_VEC3S_AOS(ha + 6, 48),
                                             SATC_VEC3S_AOS(ha + 9, 48)}};
    satc_instances in = {mat, 64, SATC_AFFINE_4X4_COLUMN_MAJOR, SATC_VEC3S_AOS(lc0, 0),
                         SATC_VEC3S_AOS(lh1, 0), NULL, 0, 0};
    b[GB_INST].form = b[GB_INST_PER].form = b[GB_INST_MESH].form = SATC_FORM_INSTANCES;
    b[GB_INST].instances = in;
    in.local_center = SATC_VEC3S_AOS(lcl, 24), in.local_half = SATC_VEC3S_AOS(lcl + 3, 24);
    b[GB_INST_PER].instances = in;
    in.local_center = SATC_VEC3S_AOS(&table[0][0], 24), in.local_half = SATC_VEC3S_AOS(&table[0][3], 24);
    in.mesh = mesh, in.mesh_stride = 4, in.mesh_count = 16;
    b[GB_INST_MESH].instances = in;
    b[GB_SPH].form = SATC_FORM_SPHERES;
    b[GB_SPH].spheres = (satc_spheres){SATC_VEC3S_AOS(sph, 16), {sph + 3, 16}};

    size_t ng = (n + 127) / 128;
    float *gc = fal(3 * ng), *gh = fal(3 * ng), *fc = fal(3 * ng), *fh = fal(3 * ng);
    uint64_t *dirty = calloc(ng / 64 + 1, 8);
    scn_rng r;
    scn_seed(&r, 27);
    size_t nd = 0;
    for (size_t g = 0; g < ng; g++)
        if (scn_next(&r) % 10 == 0)
            dirty[g / 64] |= 1ull << (g % 64), nd++;

    printf("\ngroup bounds, groups of 128, %zu city boxes per form, from memory, path %s,\n"
           "median ns per box (a read of the form's bytes is the roofline)\n", n,
           satc_isa_name(satc_isa_active()));
    printf("%-30s %5s %9s %9s %7s %9s %7s %10s %9s\n", "form", "B/box", "read", "bounds", "x read",
           "10% dirty", "x full", "dirty read", "10% range");
    int bad = 0;
    double dworst = 0, dread = 0, rworst = 0;
    const char *dn = "", *rn = "";
    for (int f = 0; f < GB_FORMS; f++) {
        gbctx x = {&b[f], n, ng, gc, gh, dirty, {0}, {0}, 0, 0};
        switch (f) {
        case GB_OBB:
            for (int j = 0; j < 3; j++) { /* the 15 arrays */
                x.p[x.np] = bx->center[j], x.bytes[x.np++] = 4 * n;
                x.p[x.np] = bx->extent[j], x.bytes[x.np++] = 4 * n;
                for (int k = 0; k < 3; k++)
                    x.p[x.np] = bx->axis[j][k], x.bytes[x.np++] = 4 * n;
            }
            break;
        case GB_AABB24: x.p[0] = a24, x.bytes[0] = 24 * n, x.np = 1; break;
        case GB_AABB3: x.p[0] = c, x.bytes[0] = 12 * n, x.p[1] = h, x.bytes[1] = 12 * n, x.np = 2; break;
        case GB_MINMAX: x.p[0] = mm, x.bytes[0] = 24 * n, x.np = 1; break;
        case GB_HALF: x.p[0] = ha, x.bytes[0] = 48 * n, x.np = 1; break;
        case GB_INST: x.p[0] = mat, x.bytes[0] = 64 * n, x.np = 1; break;
        case GB_INST_PER: x.p[0] = mat, x.bytes[0] = 64 * n, x.p[1] = lcl, x.bytes[1] = 24 * n, x.np = 2; break;
        case GB_INST_MESH: x.p[0] = mat, x.bytes[0] = 64 * n, x.p[1] = mesh, x.bytes[1] = 4 * n, x.np = 2; break;
        default: x.p[0] = sph, x.bytes[0] = 16 * n, x.np = 1; break;
        }
        size_t bytes = 0;
        for (int i = 0; i < x.np; i++)
            bytes += x.bytes[i];
        gbctx xd = x;
        xd.gc = fc, xd.gh = fh;
        static bench_job jobs[5];
        memset(jobs, 0, sizeof jobs);
        jobs[0].fn = run_read, jobs[0].ctx = &x;
        jobs[1].fn = run_full, jobs[1].ctx = &x;
#ifndef VG_BEFORE
        jobs[2].fn = run_dirty, jobs[2].ctx = &xd;
        jobs[3].fn = run_dirty_read, jobs[3].ctx = &x;
        jobs[4].fn = run_range, jobs[4].ctx = &xd;
        int nj = 5;
#else
        int nj = 2;
#endif
        bench_time_jobs(jobs, nj, n, 0, reps);
        double rd = jobs[0].st.med;
        double tb = jobs[1].st.med, td = nj > 2 ? jobs[2].st.med : NAN;
        double tr = nj > 3 ? jobs[3].st.med : NAN, tg = nj > 4 ? jobs[4].st.med : NAN;
        int same = 1;
#ifndef VG_BEFORE
        /* The dirty groups hold the full call's bits. */
        for (size_t g = 0; g < ng; g++)
            if (dirty[g / 64] >> (g % 64) & 1)
                same &= !memcmp(gc + 3 * g, fc + 3 * g, 12) && !memcmp(gh + 3 * g, fh + 3 * g, 12);
#endif
        size_t nonfin = 0; /* the city has none: a non-finite bound is a bug here */
        for (size_t g = 0; g < 3 * ng; g++)
            nonfin += !isfinite(gc[g]) || !isfinite(gh[g]);
        if (nonfin)
            bad = 1, printf("MISMATCH: %s: %zu non-finite bound fields\n", gb_names[f], nonfin);
        if (!same || x.bad || xd.bad)
            bad = 1, printf("MISMATCH: %s: dirty update differs from the full call\n", gb_names[f]);
        printf("%-30s %5.0f %9.2f %9.2f %6.2fx %9.3f %6.3fx %10.3f %9.3f\n", gb_names[f],
               (double)bytes / n, rd, tb, tb / rd, td, td / tb, tr, tg);
        bench_goal(!bad && tb <= 1.5 * rd, "speed",
               "group bounds %s <= 1.5 x stream: %.2f x (%.2f ns/box, read %.2f)", gb_names[f], tb / rd, tb, rd);
        if (td / tb > dworst)
            dworst = td / tb, dn = gb_names[f], dread = tr / tb;
        if (tg / tb > rworst)
            rworst = tg / tb, rn = gb_names[f];
    }
#ifndef VG_BEFORE
    bench_goal(!bad && rworst <= 0.15, "speed", "10 %% dirty groups <= 0.15 x full, one range (satc_group_bounds_range): "
           "%.3f x at worst (%s)", rworst, rn);
    if (dread > 0.15 && dworst > 0.15)
        bench_goal_bound("speed", "10 %% dirty groups, scattered (satc_group_bounds_dirty): %.3f x full at worst "
                         "(%s; %zu of %zu groups); the read of those groups' bytes alone costs %.3f x",
                         dworst, dn, nd, ng, dread);
    else
        bench_goal(!bad && dworst <= 0.15, "speed", "10 %% dirty groups <= 0.15 x full, scattered (satc_group_bounds_dirty): "
                   "%.3f x at worst (%s; %zu of %zu groups; a read of those groups' bytes alone costs "
                   "%.3f x)", dworst, dn, nd, ng, dread);
#endif
    free(c), free(h), free(a24), free(mm), free(ha), free(mat), free(lcl), free(sph), free(mesh);
    free(gc), free(gh), free(fc), free(fh), free(dirty);
    return bad;
}
