/*
 * Group layouts that do not cover the batch: volumes before the first
 * group and after the last, and call ranges that
 * start or end inside a group (groups lie end to end, so these are the
 * only volumes in no group). Volumes in no group are culled one by one
 * (satc.h), so every answer with such groups equals the answer without
 * them:
 *  - reproductions: a batch whose only group lies behind the camera and
 *    whose ungrouped volumes lie in view (after the group, before it, a
 *    range starting inside it): satc_cull_views keeps exactly the volumes
 *    in view, as satc_cull does;
 *  - a differential test over random partial layouts, every form and
 *    engine layout, both modes, every path: each view of satc_cull_views
 *    (1 to 9 views, with and without classes and indices) against its own
 *    flat single cull, the grouped single cull and the grouped queries
 *    against their flat twins, and the group bounds of the partial layout
 *    (containment of each member, range and dirty updates equal to the
 *    full call). The grouped volumes are moved far behind every view with
 *    some probability, so that whole chunks of groups are decided outside
 *    while their gaps hold volumes in view.
 * Also an independent check: a volume that meets view 0 in double
 * (fg_meets) is visible in the views pass.
 * SATC_TEST_QUICK=1: fewer volumes and layouts; --long: more.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "forms_make.h"
#include "robust_util.h"
#include "cull_outs.h"

static satc_isa g_paths[8];
static int g_npaths;
static long g_lost; /* visible volumes the views pass dropped against single culls */

/* ---- reproductions ---- */

/* 40 AABBs: those in [ga, gb) behind a camera at the origin looking
 * along +z, the others in view; one group [ga, gb) (offsets or size). */
static void repro(size_t ga, size_t gb, int by_size, size_t first, size_t count)
{
    enum { N = 40 };
    float c[3 * N], h[3 * N], gc[3], gh[3];
    for (size_t i = 0; i < N; i++) {
        int behind = i >= ga && i < gb;
        c[3 * i] = (float)((double)i - 20.0) * 0.5f;
        c[3 * i + 1] = 0.25f * (float)(i % 5);
        c[3 * i + 2] = behind ? -60.0f : 40.0f;
        h[3 * i] = h[3 * i + 1] = h[3 * i + 2] = 0.2f;
    }
    uint32_t off[2] = {(uint32_t)ga, (uint32_t)gb};
    satc_batch b = {.form = SATC_FORM_AABB, .aabb = {SATC_VEC3S_AOS(c, 12), SATC_VEC3S_AOS(h, 12)}};
    satc_status st = by_size ? satc_group_bounds(&b, N, gb, NULL, 1, gc, gh)
                             : satc_group_bounds(&b, N, 0, off, 1, gc, gh);
    rb_check(st == SATC_OK, "repro: group bounds");
    satc_groups g = {by_size ? gb : 0, by_size ? NULL : off, 1, SATC_VEC3S_AOS(gc, 12),
                     SATC_VEC3S_AOS(gh, 12)};
    satc_batch gbat = b;
    gbat.groups = &g;
    satc_camera cam = {.origin = {0, 0, 0}, .left = {1, 0, 0}, .up = {0, 1, 0}, .dir = {0, 0, 1},
                       .l0 = -1, .l1 = 1, .u0 = -1, .u1 = 1, .n = 1, .f = 1000};
    satc_frustum f[3];
    satc_frustum_from_camera(&f[0], &cam);
    f[1] = f[0], f[2] = f[0];
    size_t want = 0; /* in view by construction */
    for (size_t i = first; i < first + count; i++)
        want += !(i >= ga && i < gb);
    for (int p = 0; p < g_npaths; p++) {
        for (int mode = 0; mode < 2; mode++) {
            for (size_t nv = 1; nv <= 3; nv += 2) {
                uint8_t masks[N];
                size_t vis[3] = {0, 0, 0};
                satc_view_results o = {masks, NULL, NULL, vis};
                st = satc_cull_views_isa(g_paths[p], f, nv, &gbat, first, count, (satc_mode)mode, &o);
                uint8_t bm[N / 8 + 1];
                satc_results r = {bm, NULL, NULL, 0};
                satc_status s1 = satc_cull_isa(g_paths[p], &f[0], &gbat, first, count, (satc_mode)mode, &r);
                size_t lost = want > vis[0] ? want - vis[0] : 0;
                g_lost += (long)lost;
                rb_check(st == SATC_OK && s1 == SATC_OK && vis[0] == want && r.visible == want,
                         "group [%zu, %zu)%s, range [%zu, %zu), %zu view(s): views pass keeps %zu,"
                         " satc_cull %zu, in view %zu (%s, mode %d)",
                         ga, gb, by_size ? " by size" : "", first, first + count, nv, vis[0],
                         r.visible, want, satc_isa_name(g_paths[p]), mode);
            }
        }
    }
}

static void test_repro(void)
{
    repro(0, 32, 0, 0, 40);  /* ungrouped volumes after the only group */
    repro(0, 32, 1, 0, 40);  /* the same with size 32, one group */
    repro(8, 40, 0, 0, 40);  /* ungrouped volumes before it */
    repro(0, 32, 0, 30, 10); /* a range starting inside the group */
    repro(8, 30, 0, 0, 40);  /* before and after */
}

/* ---- the differential test ---- */

/* A partial layout of n volumes: offsets with volumes in no group before
 * and after the groups (kind 0), fixed size ending before n (kind 1), or offsets
 * covering [0, n) end to end (kind 2, the control). */
typedef struct playout {
    size_t size, ngroups;
    uint32_t *off;
    float *c, *h;
    satc_groups g;
} playout;

static void playout_make(playout *L, size_t n, int kind, rb_rng *r)
{
    memset(L, 0, sizeof *L);
    if (kind == 1) {
        L->size = (size_t)rb_uniform(r, 1, 300);
        L->ngroups = (size_t)rb_uniform(r, 0, (double)(n / L->size));
        return;
    }
    /* Offsets: groups are end to end, so volumes in no group lie before
     * offsets[0] and from offsets[ngroups] on. */
    L->off = malloc((n + 2) * sizeof *L->off);
    size_t i = kind == 2 ? 0 : (size_t)rb_uniform(r, 0, n / 3.0), g = 0;
    size_t end = kind == 2 ? n : n - (size_t)rb_uniform(r, 0, n / 3.0);
    L->off[0] = (uint32_t)i;
    while (i < end) {
        double u = rb_uniform(r, 0, 1);
        size_t len = u < 0.1 ? 0 : u < 0.7 ? (size_t)rb_uniform(r, 1, 200)
                   : (size_t)rb_uniform(r, 200, 1500);
        i = i + len < end ? i + len : end;
        L->off[++g] = (uint32_t)i;
    }
    L->ngroups = g;
}

/* Whether volume i is in a group of L. */
static int in_group(const playout *L, size_t i)
{
    if (L->size)
        return i < L->size * L->ngroups;
    return i >= L->off[0] && i < L->off[L->ngroups];
}

static void playout_free(playout *L) { free(L->off), free(L->c), free(L->h); }

/* Moves volume i of s by d (every form's position fields). */
static void move_volume(fm_set *s, size_t i, const double d[3])
{
    float *v = s->v[i];
    for (int k = 0; k < 3; k++) {
        switch (s->kind) {
        case FM_INST_SHARED: case FM_INST_TABLE: v[4 * k + 3] = (float)(v[4 * k + 3] + d[k]); break;
        case FM_MINMAX: v[3 + k] = (float)(v[3 + k] + d[k]); /* fall through */
        default: v[k] = (float)(v[k] + d[k]); break;
        }
    }
}

/* The views pass over gb against each view's flat single cull, every
 * path and mode; also the grouped single culls and queries against flat. */
static void compare_all(const satc_frustum *views, int K, const satc_batch *gb, size_t first,
                        size_t count, const fm_set *s, const satc_camera *cam0, const char *what)
{
    satc_batch flat = *gb;
    flat.groups = NULL;
    uint64_t *m = malloc((count + 1) * sizeof *m);
    uint8_t *cls[9];
    uint32_t *idx[9];
    for (int v = 0; v < K; v++)
        cls[v] = malloc(count + 1), idx[v] = malloc((count + 1) * sizeof *idx[v]);
    outs a, b;
    outs_alloc(&a, count), outs_alloc(&b, count);
    size_t bytes = K <= 8 ? 1 : 2;
    for (int p = 0; p < g_npaths; p++) {
        for (int mode = 0; mode < 2; mode++) {
            size_t vis[9];
            int outputs = (p + mode) % 3; /* 0: masks only; 1: + classes; 2: + indices */
            satc_view_results r = {m, outputs == 2 ? idx : NULL, outputs ? cls : NULL, vis};
            satc_status st = satc_cull_views_isa(g_paths[p], views, (size_t)K, gb, first, count,
                                                 (satc_mode)mode, &r);
            int ok = st == SATC_OK;
            long lost = 0, missed = 0;
            for (int v = 0; v < K && ok; v++) {
                outs_cull(g_paths[p], &views[v], &flat, first, count, (satc_mode)mode, &a, 1);
                int vok = a.vis == vis[v];
                for (size_t i = 0; i < count; i++) {
                    unsigned mv = (unsigned)((bytes == 1 ? ((uint8_t *)m)[i] : ((uint16_t *)m)[i]) >> v & 1);
                    unsigned sv = a.mask[i / 8] >> (i % 8) & 1;
                    vok &= mv == sv;
                    lost += sv && !mv;
                    if (v == 0 && !mv) { /* independent: a volume meeting view 0 is kept */
                        fg_vol g;
                        fm_geometry(s, first + i, &g);
                        missed += fg_meets(cam0, &g, 0.0);
                    }
                }
                if (outputs)
                    vok &= !memcmp(a.cls, cls[v], count);
                if (outputs == 2)
                    vok &= !memcmp(a.idx, idx[v], vis[v] * sizeof *idx[v]);
                ok &= vok;
            }
            g_lost += lost;
            rb_check(ok && !missed, "%s: views pass (%d views) differs from the single culls"
                     " (%s, mode %d, range [%zu, %zu)): %ld visible volumes lost, %ld meeting"
                     " view 0 culled", what, K, satc_isa_name(g_paths[p]), mode, first,
                     first + count, lost, missed);
            for (int v = 0; v < K && v < 2; v++) {
                outs_cull(g_paths[p], &views[v], &flat, first, count, (satc_mode)mode, &a, 1);
                outs_cull(g_paths[p], &views[v], gb, first, count, (satc_mode)mode, &b, 1);
                rb_check(outs_same(&a, &b, count, 1), "%s: grouped single cull differs from flat"
                         " (view %d, %s, mode %d, %zu vs %zu visible)", what, v,
                         satc_isa_name(g_paths[p]), mode, b.vis, a.vis);
            }
            /* queries: a sphere and a ray from view 0's eye */
            satc_results qa = {a.mask, a.cls, a.idx, 0}, qb = {b.mask, b.cls, b.idx, 0};
            float rad = 30.0f, dir[3] = {cam0->dir[0], cam0->dir[1], cam0->dir[2]};
            a.st = satc_query_sphere_isa(g_paths[p], cam0->origin, rad, &flat, first, count,
                                         (satc_mode)mode, &qa);
            b.st = satc_query_sphere_isa(g_paths[p], cam0->origin, rad, gb, first, count,
                                         (satc_mode)mode, &qb);
            a.vis = qa.visible, b.vis = qb.visible;
            rb_check(outs_same(&a, &b, count, 1), "%s: grouped sphere query differs (%s, mode %d)",
                     what, satc_isa_name(g_paths[p]), mode);
            size_t na = 0, nb = 0;
            qa.classes = qb.classes = NULL;
            a.st = satc_query_ray_isa(g_paths[p], cam0->origin, dir, 500.0f, &flat, first, count,
                                      (satc_mode)mode, &qa, NULL, &na);
            b.st = satc_query_ray_isa(g_paths[p], cam0->origin, dir, 500.0f, gb, first, count,
                                      (satc_mode)mode, &qb, NULL, &nb);
            a.vis = qa.visible, b.vis = qb.visible;
            memset(a.cls, 0, count), memset(b.cls, 0, count);
            rb_check(outs_same(&a, &b, count, 1) && na == nb,
                     "%s: grouped ray query differs (%s, mode %d)", what, satc_isa_name(g_paths[p]),
                     mode);
        }
    }
    outs_free(&a), outs_free(&b);
    for (int v = 0; v < K; v++)
        free(cls[v]), free(idx[v]);
    free(m);
}

/* Group bounds of a partial layout: each member inside its group's bound,
 * range and dirty updates with the full call's bits. */
static void check_bounds(const satc_batch *b, size_t n, const playout *L, rb_rng *r,
                         const char *what)
{
    size_t ng = L->ngroups;
    float *ac = malloc((3 * n + 3) * sizeof *ac), *ah = malloc((3 * n + 3) * sizeof *ah);
    float *uc = malloc((3 * ng + 3) * sizeof *uc), *uh = malloc((3 * ng + 3) * sizeof *uh);
    satc_to_aabbs(b, 0, n, ac, ah);
    int bad = 0;
    for (size_t g = 0; g < ng; g++) {
        size_t lo = L->size ? g * L->size : L->off[g], hi = L->size ? lo + L->size : L->off[g + 1];
        for (size_t i = lo; i < hi && i < n; i++) {
            for (int k = 0; k < 3; k++) {
                double c = ac[3 * i + k], h = ah[3 * i + k];
                double gc = L->c[3 * g + k], gh = L->h[3 * g + k];
                if (isfinite(c) && isfinite(h) && isfinite(gc) && isfinite(gh))
                    bad += !(gc - gh <= c - h && c + h <= gc + gh);
            }
        }
    }
    rb_check(!bad, "%s: %d member extents outside their group's bound", what, bad);
    if (ng) {
        size_t g0 = (size_t)rb_uniform(r, 0, (double)ng), gn = (size_t)rb_uniform(r, 0, (double)(ng - g0 + 1));
        memcpy(uc, L->c, 3 * ng * sizeof *uc), memcpy(uh, L->h, 3 * ng * sizeof *uh);
        for (size_t g = g0; g < g0 + gn; g++)
            for (int k = 0; k < 3; k++)
                uc[3 * g + k] = uh[3 * g + k] = -7.0f;
        satc_status st = satc_group_bounds_range(b, n, L->size, L->off, ng, g0, gn, uc, uh);
        rb_check(st == SATC_OK && !memcmp(uc, L->c, 3 * ng * sizeof *uc) &&
                     !memcmp(uh, L->h, 3 * ng * sizeof *uh),
                 "%s: range update [%zu, %zu) differs from the full call", what, g0, g0 + gn);
        uint64_t *dirty = calloc(ng / 64 + 1, sizeof *dirty);
        for (size_t g = 0; g < ng; g++) {
            if (rb_uniform(r, 0, 1) < 0.3) {
                dirty[g / 64] |= (uint64_t)1 << (g % 64);
                for (int k = 0; k < 3; k++)
                    uc[3 * g + k] = uh[3 * g + k] = -7.0f;
            }
        }
        st = satc_group_bounds_dirty(b, n, L->size, L->off, ng, dirty, uc, uh);
        rb_check(st == SATC_OK && !memcmp(uc, L->c, 3 * ng * sizeof *uc) &&
                     !memcmp(uh, L->h, 3 * ng * sizeof *uh),
                 "%s: dirty update differs from the full call", what);
        free(dirty);
    }
    free(ac), free(ah), free(uc), free(uh);
}

/* Views around cam sharing its frame (eyes within 40 units, so a point
 * 3e4 behind cam is behind each), plus one far away. */
static int make_views(rb_rng *r, const satc_camera *cam, int K, satc_frustum *views)
{
    for (int v = 0; v < K; v++) {
        satc_camera c = *cam;
        if (v) {
            for (int k = 0; k < 3; k++)
                c.origin[k] += (float)rb_uniform(r, -20, 20);
            if (v % 3 == 1) { /* orthographic */
                c.orthographic = 1;
                c.l0 = -30, c.l1 = 30, c.u0 = -20, c.u1 = 20, c.n = -5, c.f = 300;
            } else if (v % 3 == 2) {
                float s = (float)rb_uniform(r, 0.3, 2);
                c.l0 *= s, c.l1 *= s, c.u0 *= s, c.u1 *= s;
                c.f = v % 2 ? INFINITY : 500.0f;
            }
            if (v == K - 1 && K > 2) { /* far from every volume */
                float e[3] = {2e5f, 1e3f, -2e5f};
                rb_camera_persp(&c, r, e, 0.5f, 100.0f);
            }
        }
        if (satc_frustum_from_camera(&views[v], &c) != SATC_OK)
            return 0;
    }
    return 1;
}

static void test_differential(rb_rng *r, int level)
{
    size_t n = level == 0 ? 1500 : level == 1 ? 3000 : 20000;
    int reps = level == 0 ? 2 : level == 1 ? 3 : 8;
    int nl = fm_nlayouts();
    for (int k = 0; k < nl; k++) {
        satc_camera cam;
        float eye[3] = {(float)rb_uniform(r, -100, 100), 2.0f, (float)rb_uniform(r, -100, 100)};
        rb_camera_persp(&cam, r, eye, 0.5f, (k & 1) ? INFINITY : 400.0f);
        fm_set base;
        fm_set_alloc(&base, fm_layout_set(k), n);
        fm_fill(&base, &cam, r);
        for (int rep = 0; rep < reps; rep++) {
            playout L;
            playout_make(&L, n, rep % 3 == 2 && rep ? 2 : rep % 2, r);
            /* Grouped volumes moved far behind the views (probability 1,
             * 0.9, 0.5 or 0): their unions are decided outside. */
            static const double pfar[4] = {1.0, 0.9, 0.5, 0.0};
            double pf = pfar[rep % 4], d[3];
            for (int q = 0; q < 3; q++)
                d[q] = -3e4 * cam.dir[q];
            fm_set s;
            fm_set_copy(&s, &base);
            /* Moved volumes are copies of tame ones (finite, within 1000
             * of the eye, 100 across), so that their unions stay small. */
            size_t ntame = 0, *tame = malloc(n * sizeof *tame);
            for (size_t i = 0; i < n; i++) {
                fg_vol g;
                fm_geometry(&base, i, &g);
                double ext = g.sphere ? 2 * g.r : 0, off = 0;
                for (int q = 0; q < 3; q++) {
                    off += fabs(g.c[q] - cam.origin[q]);
                    for (int j = 0; j < 3 && !g.sphere; j++)
                        ext += fabs(g.h[j][q]);
                }
                if (off < 1000 && ext < 100)
                    tame[ntame++] = i;
            }
            for (size_t i = 0; i < n && ntame; i++) {
                if (in_group(&L, i) && rb_uniform(r, 0, 1) < pf) {
                    size_t j = tame[(size_t)rb_uniform(r, 0, (double)ntame)];
                    memcpy(s.v[i], base.v[j], sizeof s.v[i]);
                    s.mesh[i] = base.mesh[j];
                    move_volume(&s, i, d);
                }
            }
            free(tame);
            fm_mem mem = FM_MEM(FM_HEAP);
            satc_batch b;
            if (fm_build(&s, k, &mem, 0, n, &b) != 0) {
                rb_check(0, "fm_build failed");
                fm_set_free(&s);
                playout_free(&L);
                continue;
            }
            L.c = malloc((3 * L.ngroups + 3) * sizeof *L.c);
            L.h = malloc((3 * L.ngroups + 3) * sizeof *L.h);
            satc_status st = satc_group_bounds(&b, n, L.size, L.off, L.ngroups, L.c, L.h);
            rb_check(st == SATC_OK, "satc_group_bounds: %s", satc_status_string(st));
            L.g = (satc_groups){L.size, L.off, L.ngroups, SATC_VEC3S_AOS(L.c, 12),
                                SATC_VEC3S_AOS(L.h, 12)};
            satc_batch gb = b;
            gb.groups = &L.g;
            char what[128];
            snprintf(what, sizeof what, "%s, layout %s %zu groups, far %.1f", fm_layout_name(k),
                     L.size ? "size" : "offsets", L.ngroups, pf);
            check_bounds(&b, n, &L, r, what);
            int K = 1 + (int)rb_uniform(r, 0, 9);
            satc_frustum views[9];
            if (!rb_check(make_views(r, &cam, K, views), "views"))
                K = 1, satc_frustum_from_camera(&views[0], &cam);
            compare_all(views, K, &gb, 0, n, &s, &cam, what);
            /* a range starting and ending inside groups where it can */
            size_t first = (size_t)rb_uniform(r, 0, n / 4.0), last = n - (size_t)rb_uniform(r, 0, n / 4.0);
            if (L.ngroups && !L.size) {
                size_t g = (size_t)rb_uniform(r, 0, (double)L.ngroups);
                if (L.off[g + 1] > L.off[g] + 1)
                    first = L.off[g] + (size_t)rb_uniform(r, 1, L.off[g + 1] - L.off[g]);
                if (first >= last)
                    last = n;
            }
            compare_all(views, K, &gb, first, last - first, &s, &cam, what);
            fm_mem_free(&mem);
            fm_set_free(&s);
            playout_free(&L);
        }
        fm_set_free(&base);
    }
}

int main(int argc, char **argv)
{
    int level = rb_quick() ? 0 : 1;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--long"))
            level = 2;
    g_npaths = rb_paths(g_paths);
    rb_rng r = {31001};
    test_repro();
    test_differential(&r, level);
    printf("visible volumes lost by the views pass: %ld\n", g_lost);
    return rb_finish();
}
