/*
 * The occlusion test against a ray-cast oracle in double: no volume a ray
 * reaches before every occluder is reported occluded (every form, both
 * modes, every path bit for bit, groups, several views), on the demo's
 * city, interiors with gaps narrower than a texel, thin and grazing
 * walls, the near plane, the camera inside a volume, a world 10^6 from
 * the origin and an orthographic view. The pyramid is valid by
 * construction (occ_fill_boxes), so any hidden-but-visible volume is the
 * test's fault, never the pyramid's. Bad input: a status, nothing written.
 * SATC_TEST_QUICK=1: one pose of the city, fewer interiors; --long: the city's
 * five poses at full size (100,000 buildings).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "occ_forms.h"

#include "occl_check.h"

static const satc_isa k_isas[] = {SATC_ISA_SCALAR, SATC_ISA_SSE41, SATC_ISA_AVX2,
                                  SATC_ISA_AVX512, SATC_ISA_NEON, SATC_ISA_SIMD128};

typedef struct outs {
    uint8_t *cls, *bits, *occ;
    uint32_t *idx;
    size_t vis, nocc;
} outs;

static void outs_alloc(outs *o, size_t n)
{
    o->cls = malloc(n + 1), o->bits = malloc(n / 8 + 2), o->occ = malloc(n / 8 + 2);
    o->idx = malloc((n + 1) * sizeof *o->idx);
}
static void outs_free(outs *o) { free(o->cls), free(o->bits), free(o->occ), free(o->idx); }

static satc_status run(satc_isa isa, const satc_pyramid *p, const satc_batch *b, size_t n,
                       satc_mode mode, outs *o)
{
    satc_results r = {o->bits, o->cls, o->idx, 0};
    satc_status st = satc_cull_occluded_isa(isa, p, b, 0, n, mode, &r, o->occ, &o->nocc);
    o->vis = r.visible;
    return st;
}

static int same(const outs *a, const outs *b, size_t n)
{
    return a->vis == b->vis && a->nocc == b->nocc && !memcmp(a->cls, b->cls, n) &&
           !memcmp(a->bits, b->bits, (n + 7) / 8) && !memcmp(a->occ, b->occ, (n + 7) / 8) &&
           !memcmp(a->idx, b->idx, a->vis * sizeof *a->idx);
}

typedef struct totals {
    size_t kept, occluded, visible_oracle, hidden_visible;
} totals;

/* Volumes (instances, conservative) the option occludes beyond the plain test. */
static size_t g_depth_more;

/* One scene: every form and mode against the oracle, every path, groups.
 * plain (12 n flags, form and mode major): what the plain test occludes,
 * recorded when rec, else a subset of what this test must occlude. */
static void check_scene1(const char *name, const satc_pyramid *p, const occ_forms *fm,
                         const occ_box *occ, size_t nocc, const double *xa, const double *xb,
                         size_t nx, unsigned rays_x, unsigned rays_y, totals *tot, int verbose,
                         uint8_t *plain, int rec)
{
    occ_view v;
    occ_view_init(&v, &p->view);
    size_t n = fm->n;
    uint8_t *vis = malloc(n + 1);
    outs ref, o;
    outs_alloc(&ref, n), outs_alloc(&o, n);
    uint8_t *fcls = malloc(n + 1);
    double *zocc = occ_ray_depths(&v, occ, nocc, rays_x, rays_y, xa, xb, nx);
    float *gc = malloc((n / 16 + 2) * 3 * sizeof(float)), *gh = malloc((n / 16 + 2) * 3 * sizeof(float));
    for (int form = 1; form <= 6; form++) {
        occ_visible(&v, fm->vols[form], n, zocc, rays_x, rays_y, xa, xb, nx, vis);
        satc_batch b = occ_forms_batch(fm, (satc_form)form);
        for (int mode = 0; mode < 2; mode++) {
            satc_status st = run(SATC_ISA_SCALAR, p, &b, n, (satc_mode)mode, &ref);
            CHECK(st == SATC_OK, "%s form %d: status %d", name, form, st);
            /* the frustum's own classes, for the volumes not occluded */
            satc_results fr = {NULL, fcls, NULL, 0};
            satc_cull_isa(SATC_ISA_SCALAR, &p->view, &b, 0, n, (satc_mode)mode, &fr);
            size_t bad = 0, diff = 0, kept = 0, nvis = 0, cnt = 0;
            for (size_t i = 0; i < n; i++) {
                int occd = ref.cls[i] == SATC_OCCLUDED;
                kept += fcls[i] != SATC_OUTSIDE;
                nvis += vis[i];
                if (occd && vis[i]) {
                    if (bad < 5)
                        printf("  %s form %d mode %d: volume %zu occluded but a ray sees it\n",
                               name, form, mode, i);
                    bad++;
                }
                if (!occd && ref.cls[i] != fcls[i])
                    diff++;
                if (occd && fcls[i] == SATC_OUTSIDE)
                    diff++;
                cnt += occd;
                int bit = ref.bits[i / 8] >> (i % 8) & 1, ob = ref.occ[i / 8] >> (i % 8) & 1;
                if (bit != (ref.cls[i] == SATC_INTERSECTING || ref.cls[i] == SATC_INSIDE) ||
                    ob != occd)
                    diff++;
            }
            CHECK(bad == 0, "%s form %d mode %d: %zu volumes occluded that a ray sees", name,
                  form, mode, bad);
            CHECK(diff == 0, "%s form %d mode %d: %zu outputs differ from the frustum's", name,
                  form, mode, diff);
            CHECK(cnt == ref.nocc && ref.vis + cnt == kept, "%s form %d: counts", name, form);
            uint8_t *pl = plain + ((size_t)(form - 1) * 2 + (size_t)mode) * n;
            size_t lost = 0;
            for (size_t i = 0; i < n; i++) {
                int occd = ref.cls[i] == SATC_OCCLUDED;
                if (rec)
                    pl[i] = (uint8_t)occd;
                else
                    lost += pl[i] && !occd;
            }
            CHECK(lost == 0, "%s form %d mode %d: %zu volumes the plain test occludes are kept",
                  name, form, mode, lost);
            if (form == SATC_FORM_INSTANCES && mode == 0) {
                tot->kept += kept, tot->occluded += cnt, tot->visible_oracle += nvis;
                if (verbose)
                    printf("  %s: frustum keeps %zu, occluded %zu, visible (rays) %zu\n", name,
                           kept, cnt, nvis);
            }
            tot->hidden_visible += bad;
            for (size_t q = 1; q < sizeof k_isas / sizeof k_isas[0]; q++) {
                if (!(satc_isa_runnable() & k_isas[q]))
                    continue;
                memset(o.cls, 0xAA, n);
                st = run(k_isas[q], p, &b, n, (satc_mode)mode, &o);
                CHECK(st == SATC_OK && same(&ref, &o, n), "%s form %d mode %d: path %s differs",
                      name, form, mode, satc_isa_name(k_isas[q]));
            }
            /* groups of 16: occluded bounds cull their volumes unread */
            size_t ng = (n + 15) / 16;
            if (satc_group_bounds(&b, n, 16, NULL, ng, gc, gh) == SATC_OK) {
                satc_groups g = {16, NULL, ng, SATC_VEC3S_AOS(gc, 12), SATC_VEC3S_AOS(gh, 12)};
                satc_batch bg = b;
                bg.groups = &g;
                outs g0;
                outs_alloc(&g0, n);
                st = run(SATC_ISA_SCALAR, p, &bg, n, (satc_mode)mode, &g0);
                size_t gbad = 0, gdiff = 0;
                for (size_t i = 0; i < n; i++) {
                    gbad += g0.cls[i] == SATC_OCCLUDED && vis[i];
                    /* a volume visible with groups is visible without */
                    gdiff += g0.cls[i] != SATC_OCCLUDED && g0.cls[i] != ref.cls[i];
                }
                CHECK(st == SATC_OK && gbad == 0 && gdiff == 0,
                      "%s form %d mode %d groups: %zu seen but occluded, %zu differ", name, form,
                      mode, gbad, gdiff);
                for (size_t q = 1; q < sizeof k_isas / sizeof k_isas[0]; q++) {
                    if (!(satc_isa_runnable() & k_isas[q]))
                        continue;
                    st = run(k_isas[q], p, &bg, n, (satc_mode)mode, &o);
                    CHECK(st == SATC_OK && same(&g0, &o, n), "%s groups: path %s differs", name,
                          satc_isa_name(k_isas[q]));
                }
                outs_free(&g0);
            }
        }
    }
    outs_free(&ref), outs_free(&o);
    free(vis), free(fcls), free(gc), free(gh), free(zocc);
}

/* check_scene1 with the plain test, then with SATC_TEST_DEPTH_PER_TEXEL
 * (a budget never spent: it occludes all the plain test does). */
static void check_scene(const char *name, const satc_pyramid *p, const occ_forms *fm,
                        const occ_box *occ, size_t nocc, const double *xa, const double *xb,
                        size_t nx, unsigned rays_x, unsigned rays_y, totals *tot, int verbose)
{
    uint8_t *plain = malloc(12 * fm->n + 1);
    totals t1 = {0, 0, 0, 0};
    char nm[160];
    snprintf(nm, sizeof nm, "%s +depth", name);
    satc_pyramid q = *p;
    size_t before = tot->occluded;
    CHECK(satc_pyramid_set_test(&q, 0, 0) == SATC_OK, "set_test");
    check_scene1(name, &q, fm, occ, nocc, xa, xb, nx, rays_x, rays_y, tot, verbose, plain, 1);
    CHECK(satc_pyramid_set_test(&q, SATC_TEST_DEPTH_PER_TEXEL, 1u << 30) == SATC_OK, "set_test");
    check_scene1(nm, &q, fm, occ, nocc, xa, xb, nx, rays_x, rays_y, &t1, verbose, plain, 0);
    tot->hidden_visible += t1.hidden_visible;
    g_depth_more += t1.occluded - (tot->occluded - before);
    free(plain);
}

static float *pyr_storage(uint32_t w, uint32_t h)
{
    return aligned_alloc(64, (satc_pyramid_bytes(w, h) + 63) / 64 * 64);
}

/* ---- the city ---- */

static void test_city(int quick, int lng)
{
    size_t n = lng ? 100000 : 20000;
    float *mats = malloc(n * 16 * sizeof(float));
    occ_box *boxes = malloc((n + 1) * sizeof *boxes);
    const double poses[5] = {15, 0, 30, 45, 60};
    int np = lng ? 5 : quick ? 1 : 2;
    const double zero[3] = {0, 0, 0}, far[3] = {1e6, 0, -1e6};
    const float lc[3] = {0, 0.5f, 0}, lh[3] = {0.5f, 0.5f, 0.5f};
    uint32_t W = 256, H = 128;
    float *st = pyr_storage(W, H);
    totals tot = {0, 0, 0, 0};
    for (int shifted = 0; shifted < 2; shifted++) {
        const double *sh = shifted ? far : zero;
        occ_city(n, 2026, mats, boxes, sh);
        occ_city_ground(&boxes[n], sh);
        occ_forms fm;
        occ_forms_make(&fm, boxes, n, mats, lc, lh);
        for (int k = 0; k < (shifted ? 1 : np); k++) {
            satc_frustum f;
            CHECK(occ_city_camera(poses[k], sh, &f) == SATC_OK, "city camera");
            satc_pyramid p;
            CHECK(satc_pyramid_init(&p, &f, W, H, st, satc_pyramid_bytes(W, H)) == SATC_OK, "init");
            occ_fill_boxes(&p, boxes, n + 1); /* the buildings and the ground */
            char name[64];
            snprintf(name, sizeof name, "city%s t=%g", shifted ? " at 1e6" : "", poses[k]);
            check_scene(name, &p, &fm, boxes, n + 1, NULL, NULL, 0, 4 * W, 4 * H, &tot, 1);
        }
        occ_forms_free(&fm);
    }
    CHECK(tot.occluded > 100, "the city: %zu of %zu kept occluded (expected more)",
          tot.occluded, tot.kept);
    free(st), free(mats), free(boxes);
}

/* ---- hand-made scenes: a camera and box lists ---- */

typedef struct scene {
    occ_box occ[64], vol[256];
    size_t nocc, nvol;
    double xa[4096], xb[4096];
    size_t nx;
} scene;

static void add_box(occ_box *list, size_t *n, const double c[3], const double e[3], double yaw)
{
    occ_box *b = &list[(*n)++];
    memset(b, 0, sizeof *b);
    double cs = cos(yaw), sn = sin(yaw);
    b->a[0][0] = cs, b->a[0][2] = -sn, b->a[1][1] = 1, b->a[2][0] = sn, b->a[2][2] = cs;
    memcpy(b->c, c, sizeof b->c);
    memcpy(b->e, e, sizeof b->e);
}

static double urand(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*s >> 11) / 9007199254740992.0;
}

/* The slope of world point X in view v (perspective) or its position. */
static void screen_of(const occ_view *v, const double X[3], double *a, double *b)
{
    double d[3];
    for (int i = 0; i < 3; i++)
        d[i] = v->F[i][0] * (X[0] - v->E[0]) + v->F[i][1] * (X[1] - v->E[1]) +
               v->F[i][2] * (X[2] - v->E[2]);
    *a = v->ortho ? d[0] : d[0] / d[2], *b = v->ortho ? d[1] : d[1] / d[2];
}

/* Walls across the view (z = depth in camera space, the camera at shift
 * looking along +z world): slits narrower than a texel, a door, thin and
 * grazing walls, occluders and volumes crossing the near plane, the
 * camera inside a volume. Volumes are scattered behind and between. */
static void make_interior(scene *s, uint64_t seed, const double sh[3], double texel_at1, int ortho)
{
    memset(s, 0, sizeof *s);
    uint64_t r = seed;
    double z1 = 8 + 4 * urand(&r);
    double gap = (0.2 + 0.6 * urand(&r)) * texel_at1 * (ortho ? 1 : z1); /* under a texel */
    double gx = (urand(&r) - 0.5) * 6;
    /* wall 1 with a vertical slit at gx */
    double c1[3] = {sh[0] + (gx - gap / 2 - 20) / 2 - 0.0, sh[1], sh[2] + z1};
    double e1[3] = {(gx - gap / 2 + 20) / 2, 10, 0.1};
    add_box(s->occ, &s->nocc, c1, e1, 0);
    double c2[3] = {sh[0] + (gx + gap / 2 + 20) / 2, sh[1], sh[2] + z1};
    double e2[3] = {(20 - gx - gap / 2) / 2, 10, 0.1};
    add_box(s->occ, &s->nocc, c2, e2, 0);
    /* wall 2, farther, with a square door smaller than a texel */
    double z2 = z1 + 6 + 4 * urand(&r), dg = 0.7 * texel_at1 * (ortho ? 1 : z2);
    double dx = (urand(&r) - 0.5) * 4, dy = (urand(&r) - 0.5) * 3;
    double walls[4][6] = {
        {-30, dx - dg / 2, -15, 15, 0, 0}, {dx + dg / 2, 30, -15, 15, 0, 0},
        {dx - dg / 2, dx + dg / 2, -15, dy - dg / 2, 0, 0}, {dx - dg / 2, dx + dg / 2, dy + dg / 2, 15, 0, 0}};
    for (int k = 0; k < 4; k++) {
        double c[3] = {sh[0] + (walls[k][0] + walls[k][1]) / 2, sh[1] + (walls[k][2] + walls[k][3]) / 2, sh[2] + z2};
        double e[3] = {(walls[k][1] - walls[k][0]) / 2, (walls[k][3] - walls[k][2]) / 2, 0.05};
        add_box(s->occ, &s->nocc, c, e, 0);
    }
    /* a thin grazing wall, nearly along the view, and a thin wall across */
    double c3[3] = {sh[0] - 3, sh[1], sh[2] + z1 / 2};
    double e3[3] = {1e-3, 3, z1 / 3};
    add_box(s->occ, &s->nocc, c3, e3, 0.02 + 0.05 * urand(&r));
    double c4[3] = {sh[0] + 4, sh[1] - 1, sh[2] + z1 * 0.6};
    double e4[3] = {1.5, 1.5, 1e-3};
    add_box(s->occ, &s->nocc, c4, e4, 0.3 * urand(&r));
    /* an occluder crossing the near plane */
    double c5[3] = {sh[0] + 1.5, sh[1] + 0.5, sh[2] + 0.05};
    double e5[3] = {0.5, 0.5, 1.0};
    add_box(s->occ, &s->nocc, c5, e5, 0);
    /* volumes: behind the slit, behind the door, between, across the near plane */
    for (int k = 0; k < 200; k++) {
        double zc = 0.2 + urand(&r) * (z2 + 10), sz = 0.01 + 0.5 * urand(&r) * urand(&r);
        double c[3] = {sh[0] + (urand(&r) - 0.5) * 12, sh[1] + (urand(&r) - 0.5) * 8, sh[2] + zc};
        if (k < 40) /* right behind the slit */
            c[0] = sh[0] + gx + (urand(&r) - 0.5) * 0.5, c[2] = sh[2] + z1 + 0.5 + 3 * urand(&r);
        else if (k < 80) /* behind the door */
            c[0] = sh[0] + dx + (urand(&r) - 0.5) * 0.6, c[1] = sh[1] + dy + (urand(&r) - 0.5) * 0.6,
            c[2] = sh[2] + z2 + 0.3 + 3 * urand(&r);
        double e[3] = {sz * (0.2 + urand(&r)), sz * (0.2 + urand(&r)), sz * (0.2 + urand(&r))};
        add_box(s->vol, &s->nvol, c, e, urand(&r) * 6.3);
    }
    /* the camera inside a volume, and one reaching across the near plane */
    double ci[3] = {sh[0], sh[1], sh[2]}, ei[3] = {0.3, 0.2, 0.25};
    add_box(s->vol, &s->nvol, ci, ei, 0.4);
    double cn[3] = {sh[0] - 0.5, sh[1], sh[2] + 0.1}, en[3] = {0.2, 0.2, 0.2};
    add_box(s->vol, &s->nvol, cn, en, 0);
}

static void scene_rays(scene *s, const occ_view *v)
{
    /* rays through the slit and the door: points between the gap's edges */
    double a0, b0, a1, b1;
    const occ_box *w1 = &s->occ[0], *w2 = &s->occ[1];
    double p0[3] = {w1->c[0] + w1->e[0], w1->c[1], w1->c[2] - w1->e[2]};
    double p1[3] = {w2->c[0] - w2->e[0], w2->c[1], w2->c[2] - w2->e[2]};
    screen_of(v, p0, &a0, &b0);
    screen_of(v, p1, &a1, &b1);
    for (int k = 0; k < 64 && s->nx < 4096; k++) {
        double t = (k % 8 + 0.5) / 8;
        double yb = v->f.y0 + (v->f.y1 - v->f.y0) * (k / 8 + 0.5) / 8;
        s->xa[s->nx] = a0 + (a1 - a0) * t, s->xb[s->nx] = yb, s->nx++;
    }
    const occ_box *l = &s->occ[2], *rr = &s->occ[3], *bo = &s->occ[4], *to = &s->occ[5];
    double q0[3] = {l->c[0] + l->e[0], bo->c[1] + bo->e[1], l->c[2] - l->e[2]};
    double q1[3] = {rr->c[0] - rr->e[0], to->c[1] - to->e[1], l->c[2] - l->e[2]};
    screen_of(v, q0, &a0, &b0);
    screen_of(v, q1, &a1, &b1);
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16 && s->nx < 4096; j++) {
            s->xa[s->nx] = a0 + (a1 - a0) * (i + 0.5) / 16;
            s->xb[s->nx] = b0 + (b1 - b0) * (j + 0.5) / 16;
            s->nx++;
        }
}

static void test_interiors(int quick)
{
    int reps = quick ? 6 : 16;
    uint32_t W = 160, H = 90;
    float *st = pyr_storage(W, H);
    totals tot = {0, 0, 0, 0};
    for (int k = 0; k < reps; k++) {
        int ortho = k % 4 == 3;
        double sh[3] = {0, 0, 0};
        if (k % 3 == 2)
            sh[0] = 1e6, sh[1] = -2e5, sh[2] = 1e6;
        satc_camera cam = {{(float)sh[0], (float)sh[1], (float)sh[2]},
                           {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, -0.2f, 0.2f, -0.1125f, 0.1125f,
                           0.25f, 100.0f, ortho};
        if (ortho)
            cam.l0 = -8, cam.l1 = 8, cam.u0 = -4.5f, cam.u1 = 4.5f, cam.n = 0.25f;
        satc_frustum f;
        CHECK(satc_frustum_from_camera(&f, &cam) == SATC_OK, "interior camera");
        double texel = ((double)f.x1 - f.x0) / W;
        scene *s = malloc(sizeof *s);
        make_interior(s, 1000 + (uint64_t)k, sh, texel, ortho);
        occ_view v;
        occ_view_init(&v, &f);
        scene_rays(s, &v);
        satc_pyramid p;
        satc_pyramid_init(&p, &f, W, H, st, satc_pyramid_bytes(W, H));
        occ_fill_boxes(&p, s->occ, s->nocc);
        occ_forms fm;
        occ_forms_make(&fm, s->vol, s->nvol, NULL, NULL, NULL);
        char name[64];
        snprintf(name, sizeof name, "interior %d%s%s", k, ortho ? " ortho" : "",
                 sh[0] ? " at 1e6" : "");
        check_scene(name, &p, &fm, s->occ, s->nocc, s->xa, s->xb, s->nx, 8 * W, 8 * H, &tot, 0);
        /* the volumes at the eye and across the near plane are never occluded */
        satc_batch b = occ_forms_batch(&fm, SATC_FORM_OBB);
        uint8_t cls[2];
        satc_results r = {NULL, cls, NULL, 0};
        satc_cull_occluded(&p, &b, s->nvol - 2, 2, SATC_EXACT, &r, NULL, NULL);
        CHECK(cls[0] != SATC_OCCLUDED && cls[1] != SATC_OCCLUDED, "%s: near volumes", name);
        occ_forms_free(&fm);
        free(s);
    }
    printf("interiors: frustum keeps %zu, occluded %zu, visible (rays) %zu\n", tot.kept,
           tot.occluded, tot.visible_oracle);
    CHECK(tot.occluded > 0, "interiors: some volumes occluded");
    free(st);
}

/* ---- several views ---- */

static void test_views(void)
{
    size_t n = 20000;
    float *mats = malloc(n * 16 * sizeof(float));
    occ_box *boxes = malloc(n * sizeof *boxes);
    const double zero[3] = {0, 0, 0};
    const float lc[3] = {0, 0.5f, 0}, lh[3] = {0.5f, 0.5f, 0.5f};
    occ_city(n, 2026, mats, boxes, zero);
    occ_forms fm;
    occ_forms_make(&fm, boxes, n, mats, lc, lh);
    satc_frustum views[3];
    satc_pyramid pyr[3];
    float *st[3];
    for (int v = 0; v < 3; v++) {
        occ_city_camera(10.0 * v, zero, &views[v]);
        st[v] = pyr_storage(128, 64);
        satc_pyramid_init(&pyr[v], &views[v], 128, 64, st[v], satc_pyramid_bytes(128, 64));
        occ_fill_boxes(&pyr[v], boxes, n);
    }
    const satc_pyramid *pp[3] = {&pyr[0], NULL, &pyr[2]};
    uint8_t *masks = malloc(n), *cls[3];
    uint32_t *idx[3];
    size_t visible[3];
    for (int v = 0; v < 3; v++)
        cls[v] = malloc(n), idx[v] = malloc(n * 4);
    for (int form = 1; form <= 6; form++) {
        satc_batch b = occ_forms_batch(&fm, (satc_form)form);
        satc_view_results r = {masks, idx, cls, visible};
        satc_status s = satc_cull_views_occluded(views, pp, 3, &b, 0, n, SATC_EXACT, &r);
        CHECK(s == SATC_OK, "views: status %d", s);
        for (int v = 0; v < 3; v++) {
            outs o;
            outs_alloc(&o, n);
            satc_results one = {o.bits, o.cls, o.idx, 0};
            if (pp[v])
                satc_cull_occluded(pp[v], &b, 0, n, SATC_EXACT, &one, NULL, NULL);
            else
                satc_cull(&views[v], &b, 0, n, SATC_EXACT, &one);
            size_t diff = 0;
            for (size_t i = 0; i < n; i++)
                diff += o.cls[i] != cls[v][i] ||
                        (int)(masks[i] >> v & 1) != (o.bits[i / 8] >> (i % 8) & 1);
            CHECK(diff == 0 && one.visible == visible[v] &&
                      !memcmp(o.idx, idx[v], one.visible * 4),
                  "views: form %d view %d differs from its single cull (%zu)", form, v, diff);
            outs_free(&o);
        }
    }
    /* a pyramid made for another view */
    const satc_pyramid *wrong[3] = {&pyr[1], NULL, NULL};
    satc_batch b = occ_forms_batch(&fm, SATC_FORM_AABB);
    memset(masks, 0x5A, n);
    satc_view_results r = {masks, NULL, NULL, NULL};
    CHECK(satc_cull_views_occluded(views, wrong, 3, &b, 0, n, SATC_EXACT, &r) == SATC_ERR_PYRAMID &&
              masks[0] == 0x5A && masks[n - 1] == 0x5A,
          "views: a pyramid of another view is refused, nothing written");
    for (int v = 0; v < 3; v++)
        free(cls[v]), free(idx[v]), free(st[v]);
    free(masks), free(mats), free(boxes);
    occ_forms_free(&fm);
}

/* ---- filling from depth images ---- */

/* A depth image rendered by ray casting at pixel centers, stored in a
 * format, filled into a pyramid: every texel must be at least the true
 * depth at every pixel center it covers (one unit farther), and +Inf
 * where nothing was hit. */
static void test_fill(void)
{
    scene *s = malloc(sizeof *s);
    double sh[3] = {0, 0, 0};
    satc_camera cam = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, -0.8f, 0.8f, -0.45f, 0.45f,
                       0.25f, 100.0f, 0};
    satc_frustum f;
    satc_frustum_from_camera(&f, &cam);
    make_interior(s, 7, sh, 0.01, 0);
    occ_view v;
    occ_view_init(&v, &f);
    uint32_t iw = 320, ih = 180, W = 128, H = 64;
    double *truth = malloc((size_t)iw * ih * sizeof(double));
    for (uint32_t y = 0; y < ih; y++)
        for (uint32_t x = 0; x < iw; x++) {
            double a = f.x1 - ((double)f.x1 - f.x0) * (x + 0.5) / iw;
            double b = f.y0 + ((double)f.y1 - f.y0) * (y + 0.5) / ih;
            double o[3], d[3], z = INFINITY;
            occ_ray(&v, a, b, o, d);
            for (size_t k = 0; k < s->nocc; k++) {
                double t0, t1;
                if (occ_ray_box(&s->occ[k], o, d, &t0, &t1) && t0 >= f.n && t0 < z && t0 <= f.f)
                    z = t0;
            }
            truth[(size_t)y * iw + x] = z;
        }
    float *st = pyr_storage(W, H);
    const unsigned convs[4] = {SATC_DEPTH_NEG_ONE_TO_ONE, SATC_DEPTH_ZERO_TO_ONE,
                               SATC_DEPTH_ZERO_TO_ONE | SATC_DEPTH_REVERSED,
                               SATC_DEPTH_NEG_ONE_TO_ONE | SATC_DEPTH_REVERSED};
    double n = 0.25, fa = 100;
    void *img = malloc((size_t)iw * ih * 4);
    for (int fmt = SATC_DEPTH_FORMAT_FLOAT; fmt <= SATC_DEPTH_FORMAT_UNORM32; fmt++)
        for (int c = 0; c < 4; c++)
            for (int top = 0; top < 2; top++) {
                unsigned cv = convs[c] | (top ? SATC_IMAGE_TOP_DOWN : 0u);
                int rev = (cv & SATC_DEPTH_REVERSED) != 0;
                for (uint32_t y = 0; y < ih; y++)
                    for (uint32_t x = 0; x < iw; x++) {
                        double z = truth[(size_t)y * iw + x];
                        double t = isinf(z) ? 1 : fa * (z - n) / (z * (fa - n)); /* 0 near, 1 far */
                        double wv = rev ? 1 - t : t;
                        size_t at = (size_t)(top ? ih - 1 - y : y) * iw + x;
                        switch (fmt) {
                        case SATC_DEPTH_FORMAT_FLOAT: ((float *)img)[at] = (float)wv; break;
                        case SATC_DEPTH_FORMAT_FLOAT_NDC:
                            ((float *)img)[at] = (float)((cv & SATC_DEPTH_ZERO_TO_ONE) ? wv : 2 * wv - 1);
                            break;
                        case SATC_DEPTH_FORMAT_LINEAR: /* its own values, rounded up */
                            ((float *)img)[at] = (double)(float)z >= z ? (float)z
                                                                        : nextafterf((float)z, INFINITY);
                            break;
                        case SATC_DEPTH_FORMAT_UNORM16: ((uint16_t *)img)[at] = (uint16_t)lrint(wv * 65535); break;
                        case SATC_DEPTH_FORMAT_UNORM24: ((uint32_t *)img)[at] = (uint32_t)lrint(wv * 16777215) | 0xAB000000u; break;
                        case SATC_DEPTH_FORMAT_UNORM24_HIGH: ((uint32_t *)img)[at] = (uint32_t)lrint(wv * 16777215) << 8 | 0x5Cu; break;
                        default: ((uint32_t *)img)[at] = (uint32_t)llrint(wv * 4294967295.0); break;
                        }
                    }
                satc_pyramid p;
                satc_pyramid_init(&p, &f, W, H, st, satc_pyramid_bytes(W, H));
                size_t ps = fmt == SATC_DEPTH_FORMAT_UNORM16 ? 2 : 4;
                satc_depth_image di = {img, iw, ih, iw * ps, (satc_depth_format)fmt, cv, 0.25f, 100.0f};
                satc_status stt = satc_pyramid_fill(&p, &di);
                CHECK(stt == SATC_OK, "fill format %d conv %u: status %d", fmt, cv, stt);
                size_t low = 0, infs = 0;
                for (uint32_t j = 0; j < H; j++)
                    for (uint32_t i = 0; i < W; i++) {
                        float T = p.depth[j * W + i];
                        infs += isinf(T);
                        /* every pixel whose center lies in the texel */
                        for (uint32_t y = j * ih / H; y < (j + 1) * ih / H + 1 && y < ih; y++)
                            for (uint32_t x = i * iw / W; x < (i + 1) * iw / W + 1 && x < iw; x++) {
                                double cx = (x + 0.5) / iw * W, cy = (y + 0.5) / ih * H;
                                if (cx < i || cx > i + 1 || cy < j || cy > j + 1)
                                    continue;
                                low += !(T >= truth[(size_t)y * iw + x]);
                            }
                    }
                CHECK(low == 0 && infs > 0 && infs < W * H,
                      "fill format %d conv %u: %zu texels nearer than a pixel they cover (%zu inf)",
                      fmt, cv, low, infs);
                /* the levels above hold the max below */
                CHECK(p.depth[p.level_off[p.levels - 1]] == INFINITY, "fill: top level");
            }
    free(img), free(truth), free(st), free(s);
}

/* ---- bad input ---- */

static void test_bad(void)
{
    satc_frustum f, g;
    satc_camera cam = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, -0.8f, 0.8f, -0.45f, 0.45f,
                       0.25f, 100.0f, 0};
    satc_frustum_from_camera(&f, &cam);
    cam.origin[0] = 1;
    satc_frustum_from_camera(&g, &cam);
    size_t bytes = satc_pyramid_bytes(64, 32);
    CHECK(satc_pyramid_bytes(0, 32) == 0 && satc_pyramid_bytes(64, 0) == 0 &&
              satc_pyramid_bytes(4096, 32) == 0 && satc_pyramid_bytes(64, 2048) == 0 &&
              satc_pyramid_bytes(63, 32) == 0 && bytes > 64 * 32 * 4,
          "satc_pyramid_bytes: sizes out of range give 0");
    float *st = pyr_storage(64, 32);
    satc_pyramid p, q;
    memset(&q, 0x3C, sizeof q);
    CHECK(satc_pyramid_init(&q, &f, 32, 32, st, bytes) == SATC_ERR_RANGE &&
              satc_pyramid_init(&q, &f, 64, 4096, st, bytes) == SATC_ERR_RANGE &&
              satc_pyramid_init(&q, &f, 64, 32, st, bytes - 4) == SATC_ERR_LAYOUT &&
              satc_pyramid_init(&q, &f, 64, 32, (float *)((char *)st + 1), bytes) == SATC_ERR_LAYOUT &&
              satc_pyramid_init(&q, NULL, 64, 32, st, bytes) == SATC_ERR_NULL &&
              satc_pyramid_init(NULL, &f, 64, 32, st, bytes) == SATC_ERR_NULL &&
              satc_pyramid_init(&q, &f, 64, 32, NULL, bytes) == SATC_ERR_NULL,
          "satc_pyramid_init: bad sizes, storage and pointers");
    satc_frustum pl;
    const float planes[1][4] = {{0, 0, 1, 0}};
    satc_frustum_from_planes(&pl, planes, 1, 0);
    CHECK(satc_pyramid_init(&q, &pl, 64, 32, st, bytes) == SATC_ERR_FLAGS,
          "satc_pyramid_init: a plane volume has no image");
    uint8_t probe[sizeof q];
    memset(probe, 0x3C, sizeof probe);
    CHECK(!memcmp(&q, probe, sizeof q), "satc_pyramid_init: nothing written on error");
    CHECK(satc_pyramid_init(&p, &f, 64, 32, st, bytes) == SATC_OK, "init");
    /* NaN matrices never make a frustum, so never a pyramid */
    float m[16] = {NAN};
    satc_frustum nf;
    CHECK(satc_frustum_from_matrix(&nf, m, 0) != SATC_OK, "a NaN matrix makes no view");
    /* a tampered pyramid */
    satc_pyramid t = p;
    t.levels = 3;
    CHECK(satc_pyramid_build(&t) == SATC_ERR_PYRAMID && satc_pyramid_clear(&t) == SATC_ERR_PYRAMID &&
              satc_pyramid_build(NULL) == SATC_ERR_NULL,
          "a pyramid not made by satc_pyramid_init is refused");
    /* the test options: off after init; bad flags, pyramids and NULL */
    {
        satc_pyramid u = p, keep;
        CHECK(u.test == 0 && u.test_budget == 0, "options off after init");
        keep = u;
        CHECK(satc_pyramid_set_test(&u, 2u, 10) == SATC_ERR_FLAGS &&
                  satc_pyramid_set_test(&u, ~0u, 10) == SATC_ERR_FLAGS &&
                  satc_pyramid_set_test(NULL, SATC_TEST_DEPTH_PER_TEXEL, 10) == SATC_ERR_NULL &&
                  satc_pyramid_set_test(&t, SATC_TEST_DEPTH_PER_TEXEL, 10) == SATC_ERR_PYRAMID &&
                  !memcmp(&u, &keep, sizeof u) && t.test == 0,
              "satc_pyramid_set_test: bad flags, pyramid, NULL; nothing written");
        CHECK(satc_pyramid_set_test(&u, SATC_TEST_DEPTH_PER_TEXEL, 10) == SATC_OK &&
                  u.test == SATC_TEST_DEPTH_PER_TEXEL && u.test_budget == 10, "set_test");
        u.test = 6; /* written by hand: refused by every call */
        float c1[6] = {0, 0, 5, 1, 1, 1};
        satc_batch ob;
        memset(&ob, 0, sizeof ob);
        ob.form = SATC_FORM_AABB;
        ob.aabb.center = SATC_VEC3S_AOS(c1, 24), ob.aabb.half = SATC_VEC3S_AOS(c1 + 3, 24);
        satc_results rr = {NULL, NULL, NULL, 7};
        CHECK(satc_cull_occluded(&u, &ob, 0, 1, SATC_CONSERVATIVE, &rr, NULL, NULL) ==
                      SATC_ERR_PYRAMID && rr.visible == 7 && satc_pyramid_build(&u) == SATC_ERR_PYRAMID,
              "a pyramid with unknown test options is refused");
    }
    /* fill: NaN depth, bad formats, sizes, layout */
    float img[16 * 8];
    for (int i = 0; i < 128; i++)
        img[i] = 0.5f;
    img[77] = NAN;
    for (size_t i = 0; i < satc_pyramid_bytes(64, 32) / 4; i++)
        st[i] = 3.0f;
    satc_depth_image di = {img, 16, 8, 64, SATC_DEPTH_FORMAT_FLOAT, 0, 0.25f, 100.0f};
    CHECK(satc_pyramid_fill(&p, &di) == SATC_ERR_NONFINITE, "fill: a NaN depth");
    img[77] = 0.5f;
    satc_depth_image d2 = di;
    d2.format = (satc_depth_format)99;
    satc_status s1 = satc_pyramid_fill(&p, &d2);
    d2 = di, d2.conventions = 1u << 9;
    satc_status s2 = satc_pyramid_fill(&p, &d2);
    d2 = di, d2.width = 0;
    satc_status s3 = satc_pyramid_fill(&p, &d2);
    d2 = di, d2.row_bytes = 60;
    satc_status s4 = satc_pyramid_fill(&p, &d2);
    d2 = di, d2.near_z = NAN;
    satc_status s5 = satc_pyramid_fill(&p, &d2);
    d2 = di, d2.near_z = 0;
    satc_status s6 = satc_pyramid_fill(&p, &d2);
    d2 = di, d2.far_z = 0.1f;
    satc_status s7 = satc_pyramid_fill(&p, &d2);
    d2 = di, d2.data = NULL;
    satc_status s8 = satc_pyramid_fill(&p, &d2);
    CHECK(s1 == SATC_ERR_FLAGS && s2 == SATC_ERR_FLAGS && s3 == SATC_ERR_RANGE &&
              s4 == SATC_ERR_LAYOUT && s5 == SATC_ERR_NONFINITE && s6 == SATC_ERR_NEAR &&
              s7 == SATC_ERR_FAR && s8 == SATC_ERR_NULL,
          "fill: %d %d %d %d %d %d %d %d", s1, s2, s3, s4, s5, s6, s7, s8);
    int untouched = 1;
    for (size_t i = 0; i < satc_pyramid_bytes(64, 32) / 4; i++)
        untouched &= st[i] == 3.0f;
    CHECK(untouched, "fill: nothing written on error");
    /* culls: indices out of range, a bad pyramid, NULLs */
    float aabb[6] = {0, 0, 5, 1, 1, 1};
    satc_batch b;
    memset(&b, 0, sizeof b);
    b.form = SATC_FORM_AABB;
    b.aabb.center = SATC_VEC3S_AOS(aabb, 24), b.aabb.half = SATC_VEC3S_AOS(aabb + 3, 24);
    uint8_t cls[4] = {7, 7, 7, 7}, occ[1] = {7};
    uint32_t idx[4] = {7, 7, 7, 7};
    satc_results r = {NULL, cls, idx, 99};
    size_t no = 77;
    CHECK(satc_cull_occluded(&p, &b, (size_t)UINT32_MAX, 2, SATC_EXACT, &r, occ, &no) == SATC_ERR_RANGE &&
              satc_cull_occluded(&t, &b, 0, 1, SATC_EXACT, &r, occ, &no) == SATC_ERR_PYRAMID &&
              satc_cull_occluded(NULL, &b, 0, 1, SATC_EXACT, &r, occ, &no) == SATC_ERR_NULL &&
              satc_cull_occluded(&p, NULL, 0, 1, SATC_EXACT, &r, occ, &no) == SATC_ERR_NULL &&
              satc_cull_occluded(&p, &b, 0, 1, (satc_mode)5, &r, occ, &no) == SATC_ERR_FLAGS &&
              satc_cull_occluded(&p, &b, SIZE_MAX, 2, SATC_EXACT, &r, occ, &no) == SATC_ERR_RANGE &&
              satc_cull_occluded_isa((satc_isa)3, &p, &b, 0, 1, SATC_EXACT, &r, occ, &no) == SATC_ERR_FLAGS,
          "culls: bad calls refused");
    CHECK(cls[0] == 7 && idx[0] == 7 && occ[0] == 7 && no == 77 && r.visible == 99,
          "culls: nothing written on error");
    const satc_pyramid *pp[1] = {&p};
    satc_view_results vr = {NULL, NULL, NULL, NULL};
    CHECK(satc_cull_views_occluded(&g, pp, 1, &b, 0, 1, SATC_EXACT, &vr) == SATC_ERR_PYRAMID &&
              satc_cull_views_occluded(&f, NULL, 1, &b, 0, 1, SATC_EXACT, &vr) == SATC_ERR_NULL,
          "views: a pyramid of another view, no pyramids");
    /* the empty pyramid hides nothing; a wall of depth 1 in front hides the box */
    satc_pyramid_clear(&p);
    CHECK(satc_cull_occluded(&p, &b, 0, 1, SATC_EXACT, &r, occ, &no) == SATC_OK && cls[0] == SATC_INSIDE,
          "an empty pyramid hides nothing (class %u)", cls[0]);
    for (size_t i = 0; i < 64 * 32; i++)
        p.depth[i] = 1.0f;
    satc_pyramid_build(&p);
    CHECK(satc_cull_occluded(&p, &b, 0, 1, SATC_EXACT, &r, occ, &no) == SATC_OK &&
              cls[0] == SATC_OCCLUDED && no == 1 && r.visible == 0 && occ[0] == 1,
          "a wall in front hides the box");
    p.depth[32 + 16 * 64] = NAN; /* a NaN texel under the box: nothing known */
    satc_pyramid_build(&p);
    CHECK(satc_cull_occluded(&p, &b, 0, 1, SATC_EXACT, &r, occ, &no) == SATC_OK &&
              cls[0] != SATC_OCCLUDED, "a NaN texel hides nothing");
    aabb[0] = NAN;
    CHECK(satc_cull_occluded(&p, &b, 0, 1, SATC_EXACT, &r, occ, &no) == SATC_OK &&
              cls[0] == SATC_INTERSECTING, "a NaN volume is never occluded");
    free(st);
}

int main(int argc, char **argv)
{
    const char *q = getenv("SATC_TEST_QUICK");
    int quick = q && *q && *q != '0', lng = argc > 1 && !strcmp(argv[1], "--long");
    setvbuf(stdout, NULL, _IONBF, 0);
    test_bad();
    test_fill();
    test_interiors(quick);
    test_views();
    test_city(quick, lng);
    printf("SATC_TEST_DEPTH_PER_TEXEL occludes %zu more instances than the plain test\n",
           g_depth_more);
    CHECK(g_depth_more > 0, "the depth per texel occludes more");
    printf("%d passed, %d failed\n", g_pass, g_fail);
    return g_fail != 0;
}
