/*
 * Group bounds (satc_groups): a cull with group bounds equals the flat
 * cull bit for bit (mask, classes, indices, count), in both modes, on
 * every path, for every form and engine layout, alone and with many
 * views; groups of one volume up to 128, offsets with empty groups and
 * volumes outside every group, sub-ranges and tails; volumes placed at a
 * few tolerances from a plane, where the group margin decides; non-finite
 * volumes; bounds that lie (to show the group decisions are taken); bad
 * descriptors get a status and write nothing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "forms_make.h"
#include "robust_util.h"
#include "scenes.h"
#include "cull_outs.h"

static satc_isa g_paths[8];
static int g_npaths;

/* Compares the grouped cull of b with its flat cull over [first, first +
 * count) on every path and mode; returns the number of mismatches. */
static int compare(const satc_frustum *f, const satc_batch *grouped, size_t first, size_t count,
                   const char *what)
{
    satc_batch flat = *grouped;
    flat.groups = NULL;
    outs a, b;
    outs_alloc(&a, count), outs_alloc(&b, count);
    int bad = 0;
    for (int p = 0; p < g_npaths; p++) {
        for (int mode = 0; mode < 2; mode++) {
            int classes = (p + mode) % 2 == 0;
            outs_cull(g_paths[p], f, &flat, first, count, (satc_mode)mode, &a, classes);
            outs_cull(g_paths[p], f, grouped, first, count, (satc_mode)mode, &b, classes);
            if (!rb_check(outs_same(&a, &b, count, classes),
                          "%s: grouped cull differs from flat (%s, mode %d, first %zu count %zu,"
                          " visible %zu vs %zu)",
                          what, satc_isa_name(g_paths[p]), mode, first, count, a.vis, b.vis))
                bad++;
        }
    }
    outs_free(&a), outs_free(&b);
    return bad;
}

/* Cell key of a world point: coherent order (volumes near one another
 * share a group), a coarse grid walked row by row. */
static double cell_key(const double c[3], double cell)
{
    double k[3];
    for (int q = 0; q < 3; q++)
        k[q] = isfinite(c[q]) ? floor(c[q] / cell) : 1e6;
    return (k[0] + 4096.0) + 8192.0 * ((k[2] + 4096.0) + 8192.0 * (k[1] + 4096.0));
}

static const fm_set *g_sort_set;
static double *g_keys;
static int by_key(const void *a, const void *b)
{
    double x = g_keys[*(const size_t *)a], y = g_keys[*(const size_t *)b];
    return x < y ? -1 : x > y;
}

/* Reorders s's volumes by cell, so groups of neighbours can be decided. */
static void sort_set(fm_set *s, double cell)
{
    size_t *ord = malloc(s->n * sizeof *ord);
    g_keys = malloc(s->n * sizeof *g_keys);
    for (size_t i = 0; i < s->n; i++) {
        fg_vol v;
        fm_geometry(s, i, &v);
        g_keys[i] = cell_key(v.c, cell);
        ord[i] = i;
    }
    g_sort_set = s;
    qsort(ord, s->n, sizeof *ord, by_key);
    fm_set t;
    fm_set_copy(&t, s);
    for (size_t i = 0; i < s->n; i++) {
        memcpy(s->v[i], t.v[ord[i]], sizeof s->v[i]);
        if (s->mesh)
            s->mesh[i] = t.mesh[ord[i]];
    }
    fm_set_free(&t);
    free(ord), free(g_keys);
}

/* Group layouts: fixed sizes and offsets with empty groups and volumes
 * outside every group. */
typedef struct layout {
    size_t size, ngroups;
    uint32_t *off;
    float *c, *h;
    satc_groups g;
} layout;

static void layout_make(layout *L, const satc_batch *b, size_t n, int kind, rb_rng *r)
{
    static const size_t sizes[] = {1, 3, 16, 64, 128};
    memset(L, 0, sizeof *L);
    if (kind < 5) {
        L->size = sizes[kind];
        L->ngroups = (n + L->size - 1) / L->size;
        if (kind == 2 && L->ngroups > 2)
            L->ngroups -= 2; /* the last volumes are in no group */
    } else {
        L->off = malloc((n + 2) * sizeof *L->off);
        size_t g = 0, i = (size_t)rb_uniform(r, 0, 5); /* the first volumes are in no group */
        L->off[0] = (uint32_t)(i < n ? i : n);
        while (i < n) {
            size_t len = rb_uniform(r, 0, 1) < 0.15 ? 0 : (size_t)rb_uniform(r, 1, 90);
            i = i + len < n ? i + len : n;
            L->off[++g] = (uint32_t)i;
        }
        L->ngroups = g;
    }
    L->c = malloc((3 * L->ngroups + 3) * sizeof *L->c);
    L->h = malloc((3 * L->ngroups + 3) * sizeof *L->h);
    satc_status st = satc_group_bounds(b, n, L->size, L->off, L->ngroups, L->c, L->h);
    rb_check(st == SATC_OK, "satc_group_bounds: %s", satc_status_string(st));
    L->g = (satc_groups){L->size, L->off, L->ngroups, SATC_VEC3S_AOS(L->c, 12),
                         SATC_VEC3S_AOS(L->h, 12)};
}

static void layout_free(layout *L) { free(L->off), free(L->c), free(L->h); }

/* The views pass with groups against each view's flat single cull:
 * visible counts, masks, classes and indices, every path and mode. */
static void compare_views(const satc_frustum *views, int K, const satc_batch *grouped,
                          size_t first, size_t count, const char *what)
{
    satc_batch flat = *grouped;
    flat.groups = NULL;
    uint8_t *m = malloc(count + 1), *cls[4];
    uint32_t *idx[4];
    for (int v = 0; v < K; v++)
        cls[v] = malloc(count + 1), idx[v] = malloc((count + 1) * sizeof *idx[v]);
    outs o;
    outs_alloc(&o, count);
    for (int p = 0; p < g_npaths; p++) {
        for (int mode = 0; mode < 2; mode++) {
            size_t vis[4];
            satc_view_results r = {m, NULL, NULL, vis};
            r.classes = cls, r.indices = idx;
            satc_status st = satc_cull_views_isa(g_paths[p], views, (size_t)K, grouped, first,
                                                 count, (satc_mode)mode, &r);
            int ok = st == SATC_OK;
            for (int v = 0; v < K && ok; v++) {
                outs_cull(g_paths[p], &views[v], &flat, first, count, (satc_mode)mode, &o, 1);
                ok &= o.vis == vis[v] && !memcmp(o.cls, cls[v], count) &&
                      !memcmp(o.idx, idx[v], vis[v] * sizeof *idx[v]);
                for (size_t i = 0; i < count && ok; i++)
                    ok &= (unsigned)(m[i] >> v & 1) == (unsigned)(o.mask[i / 8] >> (i % 8) & 1);
            }
            rb_check(ok, "%s: views pass with groups differs from the single culls (%s, mode %d)",
                     what, satc_isa_name(g_paths[p]), mode);
        }
    }
    outs_free(&o);
    for (int v = 0; v < K; v++)
        free(cls[v]), free(idx[v]);
    free(m);
}

/* Every engine layout of every form, volumes around random frusta sorted
 * into coherent groups, every group layout, whole batch and sub-ranges. */
static void test_forms(rb_rng *r, int quick)
{
    int nl = fm_nlayouts();
    size_t n = quick ? 300 : 1100;
    for (int k = 0; k < nl; k++) {
        for (int cam_kind = 0; cam_kind < 2; cam_kind++) {
            satc_camera cam;
            float eye[3] = {(float)rb_uniform(r, -50, 50), 2.0f, (float)rb_uniform(r, -50, 50)};
            if (cam_kind)
                rb_camera_ortho(&cam, r, eye, 30.0f, 20.0f, -5.0f, 200.0f);
            else
                rb_camera_persp(&cam, r, eye, 0.5f, (k & 1) ? INFINITY : 300.0f);
            satc_frustum f;
            satc_frustum_from_camera(&f, &cam);
            fm_set s;
            fm_set_alloc(&s, fm_layout_set(k), n);
            fm_fill(&s, &cam, r);
            sort_set(&s, 8.0);
            fm_mem mem = FM_MEM(FM_HEAP);
            satc_batch b;
            if (fm_build(&s, k, &mem, 0, n, &b) != 0) {
                rb_check(0, "fm_build failed");
                fm_set_free(&s);
                continue;
            }
            for (int gk = 0; gk < 6; gk++) {
                layout L;
                layout_make(&L, &b, n, gk, r);
                satc_batch gb = b;
                gb.groups = &L.g;
                char what[96];
                snprintf(what, sizeof what, "%s %s groups %d", fm_layout_name(k),
                         cam_kind ? "ortho" : "persp", gk);
                compare(&f, &gb, 0, n, what);
                size_t first = (size_t)rb_uniform(r, 0, 70), count = n - first - (size_t)rb_uniform(r, 0, 70);
                compare(&f, &gb, first, count, what);
                /* the views pass: this view, one ortho, one far from all */
                satc_frustum vv[3] = {f};
                satc_camera c2;
                float e2[3] = {eye[0] + 5.0f, 4.0f, eye[2] - 5.0f}, e3[3] = {1e5f, 0.0f, 1e5f};
                rb_camera_ortho(&c2, r, e2, 25.0f, 15.0f, -10.0f, 150.0f);
                satc_frustum_from_camera(&vv[1], &c2);
                rb_camera_persp(&c2, r, e3, 0.5f, 100.0f);
                satc_frustum_from_camera(&vv[2], &c2);
                compare_views(vv, 3, &gb, first, count, what);
                layout_free(&L);
            }
            fm_mem_free(&mem);
            fm_set_free(&s);
        }
    }
}

/* AABBs at delta tolerances outside or inside one plane of a frustum,
 * each its own group: the margin decides there, and must never decide
 * differently from the flat cull. */
static void test_margin(rb_rng *r)
{
    enum { N = 4096 };
    float *c = malloc(3 * N * sizeof *c), *h = malloc(3 * N * sizeof *h);
    float *gc = malloc(3 * N * sizeof *gc), *gh = malloc(3 * N * sizeof *gh);
    for (int round = 0; round < 24; round++) {
        satc_camera cam;
        float eye[3] = {(float)rb_uniform(r, -1e4, 1e4), (float)rb_uniform(r, -10, 10),
                        (float)rb_uniform(r, -1e4, 1e4)};
        int ortho = round % 3 == 2;
        if (ortho)
            rb_camera_ortho(&cam, r, eye, 40.0f, 25.0f, 1.0f, 400.0f);
        else
            rb_camera_persp(&cam, r, eye, 0.1f, round % 3 ? INFINITY : 1000.0f);
        satc_frustum f;
        satc_frustum_from_camera(&f, &cam);
        for (size_t i = 0; i < N; i++) {
            /* A point on a random face: frame coordinates, then world. */
            double z = ortho ? rb_uniform(r, cam.n, cam.f) : rb_uniform(r, 1.0, 300.0);
            double sx = rb_uniform(r, 0, 1), sy = rb_uniform(r, 0, 1);
            double x0 = ortho ? f.x0 : f.x0 * z, x1 = ortho ? f.x1 : f.x1 * z;
            double y0 = ortho ? f.y0 : f.y0 * z, y1 = ortho ? f.y1 : f.y1 * z;
            double p[3] = {x0 + sx * (x1 - x0), y0 + sy * (y1 - y0), z};
            int face = (int)rb_uniform(r, 0, 4);
            double nrm[3] = {0, 0, 0};
            if (face == 0) p[0] = x1, nrm[0] = 1;
            if (face == 1) p[0] = x0, nrm[0] = -1;
            if (face == 2) p[1] = y1, nrm[1] = 1;
            if (face == 3) p[1] = y0, nrm[1] = -1;
            double half = pow(10.0, rb_uniform(r, -3, 1));
            double tol = (double)f.eps_k * (fabs(p[0]) + fabs(p[1]) + fabs(p[2]) + 6 * half) + f.tol_t;
            double push = half + rb_uniform(r, -6, 6) * tol; /* the box's near side at +-6 tol */
            double q[3];
            for (int k = 0; k < 3; k++)
                q[k] = p[k] + nrm[k] * push;
            for (int k = 0; k < 3; k++) {
                double w = cam.origin[k] + cam.left[k] * q[0] + cam.up[k] * q[1] + cam.dir[k] * q[2];
                c[3 * i + k] = (float)w;
                h[3 * i + k] = (float)half;
            }
        }
        satc_batch b = {.form = SATC_FORM_AABB,
                        .aabb = {SATC_VEC3S_AOS(c, 12), SATC_VEC3S_AOS(h, 12)}};
        satc_group_bounds(&b, N, 1, NULL, N, gc, gh);
        satc_groups g = {1, NULL, N, SATC_VEC3S_AOS(gc, 12), SATC_VEC3S_AOS(gh, 12)};
        b.groups = &g;
        compare(&f, &b, 0, N, ortho ? "margin ortho" : "margin persp");
    }
    free(c), free(h), free(gc), free(gh);
}

/* The city, coherent, groups of 128, with views: satc_cull_views with
 * groups equals it without; lying bounds show that decisions are taken. */
static void test_city_views(rb_rng *r, int quick)
{
    scn_scene s;
    size_t n = quick ? 20000 : 100000;
    if (scn_make(&s, SCN_CITY, n, 7, NULL) != 0) {
        rb_check(0, "scene");
        return;
    }
    /* Coherent order: sort the boxes by cell. */
    satc_batch ob = satc_batch_from_boxes(&s.boxes);
    float *c = malloc(3 * n * sizeof *c), *h = malloc(3 * n * sizeof *h);
    satc_to_aabbs(&ob, 0, n, c, h);
    size_t *ord = malloc(n * sizeof *ord);
    g_keys = malloc(n * sizeof *g_keys);
    for (size_t i = 0; i < n; i++) {
        double p[3] = {c[3 * i], c[3 * i + 1], c[3 * i + 2]};
        g_keys[i] = cell_key(p, 40.0), ord[i] = i;
    }
    qsort(ord, n, sizeof *ord, by_key);
    float *sc = malloc(3 * n * sizeof *sc), *sh = malloc(3 * n * sizeof *sh);
    for (size_t i = 0; i < n; i++)
        memcpy(sc + 3 * i, c + 3 * ord[i], 12), memcpy(sh + 3 * i, h + 3 * ord[i], 12);
    free(ord), free(g_keys);
    sc[3 * 500] = NAN; /* a non-finite volume: its group is culled volume by volume */
    satc_batch b = {.form = SATC_FORM_AABB, .aabb = {SATC_VEC3S_AOS(sc, 12), SATC_VEC3S_AOS(sh, 12)}};
    size_t ng = (n + 127) / 128;
    float *gc = malloc(3 * ng * sizeof *gc), *gh = malloc(3 * ng * sizeof *gh);
    satc_group_bounds(&b, n, 128, NULL, ng, gc, gh);
    rb_check(isnan(gc[3 * (500 / 128)]) && isinf(gh[3 * (500 / 128)]),
             "a group with a NaN volume gets a non-finite bound");
    satc_groups g = {128, NULL, ng, SATC_VEC3S_AOS(gc, 12), SATC_VEC3S_AOS(gh, 12)};
    satc_batch gb = b;
    gb.groups = &g;

    enum { K = 9 };
    satc_frustum views[K];
    views[0] = s.frustum;
    for (int v = 1; v < K; v++) {
        satc_camera cam;
        float eye[3] = {(float)rb_uniform(r, -500, 500), 30.0f, (float)rb_uniform(r, -500, 500)};
        if (v % 3 == 0)
            rb_camera_ortho(&cam, r, eye, 80.0f, 60.0f, -100.0f, 300.0f);
        else
            rb_camera_persp(&cam, r, eye, 0.3f, v % 2 ? 400.0f : INFINITY);
        satc_frustum_from_camera(&views[v], &cam);
    }
    for (int v = 0; v < K; v++)
        compare(&views[v], &gb, 0, n, "city groups of 128");
    compare(&views[0], &gb, 37, n - 100, "city groups of 128, sub-range");

    /* The views call, grouped and flat, every path and mode. */
    uint16_t *m1 = malloc(n * 2), *m2 = malloc(n * 2);
    size_t vis1[K], vis2[K];
    for (int p = 0; p < g_npaths; p++) {
        for (int mode = 0; mode < 2; mode++) {
            satc_view_results o1 = {m1, NULL, NULL, vis1}, o2 = {m2, NULL, NULL, vis2};
            satc_status s1 = satc_cull_views_isa(g_paths[p], views, K, &b, 0, n, (satc_mode)mode, &o1);
            satc_status s2 = satc_cull_views_isa(g_paths[p], views, K, &gb, 0, n, (satc_mode)mode, &o2);
            rb_check(s1 == SATC_OK && s2 == SATC_OK && !memcmp(m1, m2, n * 2) &&
                         !memcmp(vis1, vis2, sizeof vis1),
                     "views with groups differ from flat (%s, mode %d)", satc_isa_name(g_paths[p]), mode);
        }
    }

    /* The views pass with groups (per group a mask of the views it may
     * touch and lies inside): each view's bits, classes, indices and
     * count equal its own flat cull's, on a sub-range, with a view far
     * from every volume (culled whole at the block level). */
    {
        satc_frustum vv[K + 1];
        memcpy(vv, views, sizeof views);
        satc_camera far_cam;
        float far_eye[3] = {1e5f, 30.0f, 1e5f};
        rb_camera_persp(&far_cam, r, far_eye, 0.3f, 400.0f);
        satc_frustum_from_camera(&vv[K], &far_cam);
        size_t first = 37, count = n - 100;
        uint8_t *cls[K + 1];
        uint32_t *idx[K + 1];
        for (int v = 0; v <= K; v++)
            cls[v] = malloc(count), idx[v] = malloc(count * sizeof *idx[v]);
        outs o1;
        outs_alloc(&o1, count);
        for (int p = 0; p < g_npaths; p++) {
            for (int mode = 0; mode < 2; mode++) {
                size_t vis[K + 1];
                for (int v = 0; v <= K; v++)
                    memset(cls[v], 0xAB, count);
                satc_view_results o = {m1, NULL, NULL, vis};
                o.indices = idx, o.classes = cls;
                satc_status st = satc_cull_views_isa(g_paths[p], vv, K + 1, &gb, first, count,
                                                     (satc_mode)mode, &o);
                int ok = st == SATC_OK;
                for (int v = 0; v <= K && ok; v++) {
                    outs_cull(g_paths[p], &vv[v], &b, first, count, (satc_mode)mode, &o1, 1);
                    ok &= o1.vis == vis[v] && !memcmp(o1.cls, cls[v], count) &&
                          !memcmp(o1.idx, idx[v], vis[v] * sizeof *idx[v]);
                    for (size_t i = 0; i < count && ok; i++)
                        ok &= (unsigned)(m1[i] >> v & 1) == (unsigned)(o1.mask[i / 8] >> (i % 8) & 1);
                    if (!ok)
                        printf("view %d: visible %zu vs %zu, classes %d, indices %d\n", v, o1.vis,
                               vis[v], !memcmp(o1.cls, cls[v], count),
                               !memcmp(o1.idx, idx[v], vis[v] * sizeof *idx[v]));
                }
                /* the far view keeps only the NaN volume (never culled) */
                rb_check(ok && vis[K] == 1, "views pass with groups: every view its flat cull's"
                         " bits, classes, indices (%s, mode %d)", satc_isa_name(g_paths[p]), mode);
            }
        }
        outs_free(&o1);
        for (int v = 0; v <= K; v++)
            free(cls[v]), free(idx[v]);
    }

    /* The NaN volume stays visible in the views that see its group. */
    outs a;
    outs_alloc(&a, n);
    outs_cull(SATC_ISA_SCALAR, &views[0], &gb, 0, n, SATC_EXACT, &a, 1);
    rb_check((a.mask[500 / 8] >> (500 % 8) & 1) && a.cls[500] == SATC_INTERSECTING,
             "a NaN volume in a group is visible, intersecting");

    /* Lying bounds: every bound moved far away culls everything, every
     * bound shrunk to a point deep inside keeps everything, class INSIDE.
     * (Only a cull that takes group decisions can give these answers.) */
    float *lc = malloc(3 * ng * sizeof *lc), *lh = calloc(3 * ng, sizeof *lh);
    float deep[3];
    for (int k = 0; k < 3; k++)
        deep[k] = s.cam.origin[k] + s.cam.dir[k] * 50.0f;
    for (size_t i = 0; i < ng; i++)
        for (int k = 0; k < 3; k++)
            lc[3 * i + k] = gc[3 * i + k] + 1e6f;
    satc_groups lie = {128, NULL, ng, SATC_VEC3S_AOS(lc, 12), SATC_VEC3S_AOS(lh, 12)};
    satc_batch lb = b;
    lb.groups = &lie;
    for (int p = 0; p < g_npaths; p++) {
        outs_cull(g_paths[p], &views[0], &lb, 0, n, SATC_EXACT, &a, 1);
        /* All but the NaN volume's group, whose moved bound is still NaN. */
        rb_check(a.st == SATC_OK && a.vis == 1 && a.idx[0] == 500,
                 "far bounds cull every group (%s: %zu visible)",
                 satc_isa_name(g_paths[p]), a.vis);
    }
    for (int p = 0; p < g_npaths; p++) {
        size_t vis[K];
        satc_view_results o = {m1, NULL, NULL, vis};
        satc_status st = satc_cull_views_isa(g_paths[p], views, K, &lb, 0, n, SATC_EXACT, &o);
        rb_check(st == SATC_OK && vis[0] == 1 && (m1[500] & 1),
                 "far bounds cull every group in the views pass too (%s: %zu visible)",
                 satc_isa_name(g_paths[p]), vis[0]);
    }
    for (size_t i = 0; i < ng; i++)
        memcpy(lc + 3 * i, deep, sizeof deep);
    for (int p = 0; p < g_npaths; p++) {
        outs_cull(g_paths[p], &views[0], &lb, 0, n, SATC_CONSERVATIVE, &a, 1);
        size_t ins = 0;
        for (size_t i = 0; i < n; i++)
            ins += a.cls[i] == SATC_INSIDE;
        rb_check(a.st == SATC_OK && a.vis == n && ins == n,
                 "inner bounds keep every group, inside (%s: %zu visible, %zu inside)",
                 satc_isa_name(g_paths[p]), a.vis, ins);
        /* the views pass takes them too: view 0 keeps all, class inside */
        size_t vis[K];
        uint8_t *cl[K] = {a.cls};
        satc_view_results o = {m1, NULL, NULL, vis};
        o.classes = cl;
        satc_status st = satc_cull_views_isa(g_paths[p], views, K, &lb, 0, n, SATC_CONSERVATIVE, &o);
        ins = 0;
        for (size_t i = 0; i < n; i++)
            ins += a.cls[i] == SATC_INSIDE;
        rb_check(st == SATC_OK && vis[0] == n && ins == n,
                 "inner bounds keep every group in the views pass (%s: %zu visible, %zu inside)",
                 satc_isa_name(g_paths[p]), vis[0], ins);
    }

    /* Bad descriptors: a status, nothing written. */
    satc_groups bad[4] = {g, g, g, g};
    bad[0].size = 0, bad[0].offsets = NULL;           /* no layout */
    bad[1].center.x = NULL;                           /* no bounds */
    bad[2].half = (satc_vec3s){gh, gh + 1, gh + 2, 6}; /* stride not a multiple of 4 */
    bad[3].size = SIZE_MAX / 2, bad[3].ngroups = 3;   /* overflow */
    satc_status want[4] = {SATC_ERR_NULL, SATC_ERR_NULL, SATC_ERR_LAYOUT, SATC_ERR_RANGE};
    uint32_t dec[4] = {0, 5, 3, 9}; /* decreasing offsets */
    for (int k = 0; k < 5; k++) {
        satc_groups bg = k < 4 ? bad[k] : (satc_groups){0, dec, 3, g.center, g.half};
        satc_batch bb = b;
        bb.groups = &bg;
        outs_cull(SATC_ISA_SCALAR, &views[0], &bb, 0, n, SATC_EXACT, &a, 1);
        int untouched = a.mask[0] == 0xAB && a.cls[0] == 0xAB;
        rb_check(a.st == (k < 4 ? want[k] : SATC_ERR_LAYOUT) && untouched,
                 "bad groups %d: status %s, outputs untouched %d", k, satc_status_string(a.st),
                 untouched);
        satc_view_results o = {m1, NULL, NULL, vis1};
        m1[0] = 0xABAB;
        satc_status vs = satc_cull_views(views, K, &bb, 0, n, SATC_EXACT, &o);
        rb_check(vs == a.st && m1[0] == 0xABAB, "bad groups %d in satc_cull_views", k);
    }
    rb_check(satc_group_bounds(&b, n, 0, NULL, 3, gc, gh) == SATC_ERR_NULL &&
                 satc_group_bounds(&b, n, 4, NULL, 3, NULL, gh) == SATC_ERR_NULL &&
                 satc_group_bounds(&b, n, 0, dec, 3, gc, gh) == SATC_ERR_LAYOUT,
             "satc_group_bounds rejects bad arguments");

    outs_free(&a);
    free(m1), free(m2), free(lc), free(lh), free(gc), free(gh), free(c), free(h), free(sc), free(sh);
    scn_free(&s);
}

int main(void)
{
    int quick = rb_quick();
    g_npaths = rb_paths(g_paths);
    rb_rng r = {20261123};
    test_forms(&r, quick);
    test_margin(&r);
    test_city_views(&r, quick);
    return rb_finish();
}
