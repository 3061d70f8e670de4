/*
 * The main rows of the three benchmark programs, rebuilt for the dispatch
 * section with the programs' seeds, scenes and layouts: satc_bench's
 * table (three scenes, three modes, in cache and from memory) and its
 * engine frame (the city in seven forms, two modes); satc_bench_views's
 * view sets (one pass and K calls, flat and with groups of 128), the
 * shuffled cascades, the camera alone and the group bounds per form;
 * satc_bench_queries's six queries in both modes.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baselines.h"
#include "dispatch_rows.h"
#include "forms.h"
#include "stream.h"
#include "view_cams.h"

#define SEED 20240601u
#define SMALL 4096u

/* Everything the rows read, freed by dispatch_rows_free. */
static void *owned[256];
static int nowned;
static scn_scene scenes[8];
static int nscenes;

static void *keep(void *p)
{
    if (!p || nowned >= (int)(sizeof owned / sizeof owned[0])) {
        fprintf(stderr, "dispatch: out of memory\n");
        exit(2);
    }
    return owned[nowned++] = p;
}

static float *fal(size_t floats) { return keep(aligned_alloc(64, (floats * 4 + 63) / 64 * 64 + 64)); }
static void *zal(size_t bytes) { return keep(calloc(bytes + 64, 1)); }

static const scn_scene *scene(scn_kind kind, size_t n)
{
    scn_scene *s = &scenes[nscenes];
    if (nscenes >= 8 || scn_make(s, kind, n, SEED, NULL) != 0) {
        fprintf(stderr, "dispatch: cannot make the scene\n");
        exit(2);
    }
    nscenes++;
    return s;
}

void drow_add(drows *rs, bench_fn fn, void *ctx, size_t n, int cached, const char *fmt, ...)
{
    if (rs->n >= DROW_MAX) {
        fprintf(stderr, "dispatch: more than %d rows\n", DROW_MAX);
        exit(2);
    }
    drow *r = &rs->r[rs->n++];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->name, sizeof r->name, fmt, ap);
    va_end(ap);
    r->fn = fn, r->ctx = ctx, r->n = n, r->cached = cached;
}

void dispatch_rows_free(void)
{
    while (nowned)
        free(owned[--nowned]);
    while (nscenes)
        scn_free(&scenes[--nscenes]);
}

/* ------------------------------------------------------------------ */
/* One cull                                                             */
/* ------------------------------------------------------------------ */

typedef struct cctx {
    const satc_frustum *f;
    satc_batch b;
    size_t n;
    satc_mode mode;
    uint8_t *mask, *cls;
} cctx;

static void run_cull(void *p)
{
    cctx *c = p;
    satc_results r = {c->cls ? NULL : c->mask, c->cls, NULL, 0};
    satc_cull(c->f, &c->b, 0, c->n, c->mode, &r);
}

static cctx *cull_ctx(const satc_frustum *f, const satc_batch *b, size_t n, satc_mode mode, int classes)
{
    cctx *c = zal(sizeof *c);
    c->f = f, c->b = *b, c->n = n, c->mode = mode;
    c->mask = zal(n / 8 + 1);
    c->cls = classes ? zal(n) : NULL;
    return c;
}

static const char *size_name(size_t n, char *buf)
{
    if (n == SMALL)
        return "4096";
    snprintf(buf, 16, n >= 1048576 ? "%zuM" : "%zuK", n >= 1048576 ? n >> 20 : n >> 10);
    return buf;
}

/* ------------------------------------------------------------------ */
/* satc_bench                                                           */
/* ------------------------------------------------------------------ */

#define NFORMS FR_FORMS /* bench.h's forms, in its order */
static const char *const form_names[NFORMS] = {"4x4 + local AABB", "AABB c/h float3", "AABB c/h 24 B",
                                               "AABB min/max 24 B", "half-axes 48 B", "sphere 16 B",
                                               "Eberly arrays"};

static float up(double v) { float f = (float)v; return (double)f < v ? nextafterf(f, INFINITY) : f; }
static float down(double v) { float f = (float)v; return (double)f > v ? nextafterf(f, -INFINITY) : f; }

/* The engine frame's forms of a scene, as satc_bench builds them: 4x4
 * column-major instance matrices with one shared local box [-1, 1]^3,
 * world AABBs (float3 arrays, 24 B records, min/max records) and
 * spheres rounded outward, 48 B half-axis records, the Eberly arrays. */
static void frame_forms(const scn_scene *sc, satc_batch b[NFORMS])
{
    size_t n = sc->count;
    float *mat = fal(16 * n), *c3 = fal(3 * n + 24), *h3 = fal(3 * n + 24), *ab = fal(6 * n), *mm = fal(6 * n);
    float *ha = fal(12 * n), *sph = fal(4 * n), *lc = fal(3), *lh = fal(3);
    for (int k = 0; k < 3; k++)
        lc[k] = 0.0f, lh[k] = 1.0f;
    for (size_t i = 0; i < n; i++) {
        satc_obb o;
        bl_load_box(&sc->boxes, i, &o);
        float *M = mat + 16 * i, *H = ha + 12 * i;
        double r2 = 0;
        for (int j = 0; j < 3; j++) {
            for (int r = 0; r < 3; r++)
                M[4 * j + r] = H[3 + 3 * j + r] = (float)((double)o.axis[j][r] * o.extent[j]);
            M[4 * j + 3] = 0.0f;
            r2 += (double)o.extent[j] * o.extent[j];
        }
        for (int r = 0; r < 3; r++) {
            double h = 0;
            for (int j = 0; j < 3; j++)
                h += fabs((double)o.axis[j][r]) * fabs((double)o.extent[j]);
            M[12 + r] = H[r] = c3[3 * i + r] = ab[6 * i + r] = sph[4 * i + r] = o.center[r];
            h3[3 * i + r] = ab[6 * i + 3 + r] = up(h);
            mm[6 * i + r] = down(o.center[r] - h), mm[6 * i + 3 + r] = up(o.center[r] + h);
        }
        M[15] = 1.0f;
        sph[4 * i + 3] = up(sqrt(r2));
    }
    memset(b, 0, NFORMS * sizeof *b);
    b[FR_INST].form = SATC_FORM_INSTANCES;
    b[FR_INST].instances = (satc_instances){mat, 64, SATC_AFFINE_4X4_COLUMN_MAJOR, {&lc[0], &lc[1], &lc[2], 0},
                                            {&lh[0], &lh[1], &lh[2], 0}, NULL, 0, 0};
    b[FR_AABB3].form = SATC_FORM_AABB;
    b[FR_AABB3].aabb = (satc_aabbs){SATC_VEC3S_AOS(c3, 12), SATC_VEC3S_AOS(h3, 12)};
    b[FR_AABB24].form = SATC_FORM_AABB;
    b[FR_AABB24].aabb = (satc_aabbs){SATC_VEC3S_AOS(ab, 24), SATC_VEC3S_AOS(ab + 3, 24)};
    b[FR_MINMAX].form = SATC_FORM_MINMAX;
    b[FR_MINMAX].minmax = (satc_minmax){SATC_VEC3S_AOS(mm, 24), SATC_VEC3S_AOS(mm + 3, 24)};
    b[FR_HALFAX].form = SATC_FORM_HALF_AXES;
    b[FR_HALFAX].half_axes = (satc_half_axes){SATC_VEC3S_AOS(ha, 48),
                                              {SATC_VEC3S_AOS(ha + 3, 48), SATC_VEC3S_AOS(ha + 6, 48),
                                               SATC_VEC3S_AOS(ha + 9, 48)}};
    b[FR_SPHERE].form = SATC_FORM_SPHERES;
    b[FR_SPHERE].spheres = (satc_spheres){SATC_VEC3S_AOS(sph, 16), {sph + 3, 16}};
    b[FR_OBB] = satc_batch_from_boxes(&sc->boxes);
}

void dispatch_rows_bench(drows *rs, size_t large)
{
    static const scn_kind kinds[3] = {SCN_CITY, SCN_UNIFORM, SCN_BOUNDARY};
    static const char *const modes[3] = {"conservative", "exact", "classification"};
    char buf[16];
    for (int z = 0; z < 2; z++) {
        size_t n = z ? large : SMALL;
        for (int s = 0; s < 3; s++) {
            const scn_scene *sc = scene(kinds[s], n);
            satc_batch b = satc_batch_from_boxes(&sc->boxes);
            for (int m = 0; m < 3; m++)
                drow_add(rs, run_cull, cull_ctx(&sc->frustum, &b, n, m ? SATC_EXACT : SATC_CONSERVATIVE, m == 2), n,
                         !z, "%s %s %s", scn_name(kinds[s]), size_name(n, buf), modes[m]);
            if (s == 0) {
                static satc_batch fb[2][NFORMS];
                frame_forms(sc, fb[z]);
                for (int f = 0; f < NFORMS; f++)
                    for (int m = 0; m < 2; m++)
                        drow_add(rs, run_cull, cull_ctx(&sc->frustum, &fb[z][f], n, (satc_mode)m, 0), n, !z,
                                 "frame %s %s %s", form_names[f], size_name(n, buf), modes[m]);
            }
        }
    }
}

/* ------------------------------------------------------------------ */
/* satc_bench_views: its view sets, built as it builds them            */
#define KMAX 64
typedef struct vset {
    const char *name;
    int k;
    satc_camera cam[KMAX];
    satc_frustum fr[KMAX];
} vset;

static void make_sets(vset *s, const satc_camera *cam)
{
    scn_rng r;
    scn_seed(&r, 11);
    double E[3] = {cam->origin[0], cam->origin[1], cam->origin[2]};
    double D[3] = {cam->dir[0], cam->dir[1], cam->dir[2]}, upv[3] = {0, 1, 0};
    s[0].name = "stereo", s[0].k = 2;
    for (int e = 0; e < 2; e++) {
        double o[3];
        for (int k = 0; k < 3; k++)
            o[k] = E[k] + (e ? 0.032 : -0.032) * cam->left[k];
        view_cam_make(&s[0].cam[e], o, D, upv);
        s[0].cam[e].l0 = cam->l0, s[0].cam[e].l1 = cam->l1, s[0].cam[e].u0 = cam->u0;
        s[0].cam[e].u1 = cam->u1, s[0].cam[e].n = cam->n, s[0].cam[e].f = cam->f;
    }
    s[1].name = "camera + 4 cascades", s[1].k = 5;
    s[1].cam[0] = *cam;
    double ld[3] = {0.4, -1.0, 0.3}, ln = sqrt(0.16 + 1.0 + 0.09);
    for (int k = 0; k < 3; k++)
        ld[k] /= ln;
    const double split[5] = {0.1, 8, 25, 80, 250};
    for (int c = 0; c < 4; c++)
        view_cam_cascade(&s[1].cam[1 + c], cam, ld, split[c], split[c + 1]);
    s[2].name = "6 cube faces", s[2].k = 6;
    double pl[3] = {E[0] + 30 * D[0], E[1] + 4, E[2] + 30 * D[2]};
    for (int f = 0; f < 6; f++) {
        double d[3] = {0, 0, 0}, h[3] = {0, 1, 0};
        d[f / 2] = f % 2 ? -1 : 1;
        if (f / 2 == 1)
            h[1] = 0, h[2] = 1;
        view_cam_make(&s[2].cam[f], pl, d, h);
        view_cam_persp(&s[2].cam[f], 0.05, 60.0, 1.0, 1.0);
    }
    s[3].name = "64 players", s[3].k = 64;
    for (int v = 0; v < 64; v++) {
        double a = scn_uniform(&r, 0, 6.283185307179586);
        double o[3] = {E[0] + scn_uniform(&r, -1800, 1800), E[1], E[2] + scn_uniform(&r, -1800, 1800)};
        double d[3] = {sin(a), 0, cos(a)};
        view_cam_make(&s[3].cam[v], o, d, upv);
        view_cam_persp(&s[3].cam[v], 0.1, 400.0, 0.5773502691896258 * 16.0 / 9.0, 0.5773502691896258);
    }
    for (int i = 0; i < 4; i++)
        for (int v = 0; v < s[i].k; v++)
            if (satc_frustum_from_camera(&s[i].fr[v], &s[i].cam[v]) != SATC_OK) {
                fprintf(stderr, "dispatch: %s view %d rejected\n", s[i].name, v);
                exit(2);
            }
}

static uint64_t morton(const float *p)
{
    uint64_t x = (uint64_t)(int64_t)floor(p[0] / 4.0 + 32768.0) & 0xffff;
    uint64_t z = (uint64_t)(int64_t)floor(p[2] / 4.0 + 32768.0) & 0xffff, m = 0;
    for (int b = 0; b < 16; b++)
        m |= (x >> b & 1) << (2 * b) | (z >> b & 1) << (2 * b + 1);
    return m;
}

static uint64_t *g_key;
static int by_key(const void *a, const void *b)
{
    uint64_t p = g_key[*(const size_t *)a], q = g_key[*(const size_t *)b];
    return p < q ? -1 : p > q;
}

typedef struct vctx {
    const satc_frustum *views;
    int k;
    const satc_batch *b;
    size_t n;
    uint64_t *masks;
    uint8_t *bits;
} vctx;

static void run_pass(void *p)
{
    vctx *c = p;
    satc_view_results r = {c->masks, NULL, NULL, NULL};
    satc_cull_views(c->views, (size_t)c->k, c->b, 0, c->n, SATC_EXACT, &r);
}

static void run_calls(void *p)
{
    vctx *c = p;
    for (int v = 0; v < c->k; v++) {
        satc_results r = {c->bits, NULL, NULL, 0};
        satc_cull(&c->views[v], c->b, 0, c->n, SATC_EXACT, &r);
    }
}

typedef struct gctx {
    const satc_batch *b;
    size_t n, ng;
    float *gc, *gh;
} gctx;

static void run_gbounds(void *p)
{
    gctx *c = p;
    satc_group_bounds(c->b, c->n, 128, NULL, c->ng, c->gc, c->gh);
}

void dispatch_rows_views(drows *rs, size_t n)
{
    const scn_scene *s = scene(SCN_CITY, n);
    satc_batch ob = satc_batch_from_boxes(&s->boxes);
    float *c0 = malloc(12 * n), *h0 = malloc(12 * n), *c3 = fal(3 * n), *h3 = fal(3 * n);
    size_t *ord = malloc(n * sizeof *ord);
    g_key = malloc(n * sizeof *g_key);
    if (!c0 || !h0 || !ord || !g_key) {
        fprintf(stderr, "dispatch: out of memory\n");
        exit(2);
    }
    satc_to_aabbs(&ob, 0, n, c0, h0);
    for (size_t i = 0; i < n; i++)
        ord[i] = i, g_key[i] = morton(c0 + 3 * i);
    qsort(ord, n, sizeof *ord, by_key);
    for (size_t i = 0; i < n; i++)
        memcpy(c3 + 3 * i, c0 + 3 * ord[i], 12), memcpy(h3 + 3 * i, h0 + 3 * ord[i], 12);
    free(c0), free(h0), free(ord), free(g_key);
    satc_batch *flat = zal(sizeof *flat), *grouped = zal(sizeof *grouped), *shuf = zal(sizeof *shuf);
    *flat = (satc_batch){.form = SATC_FORM_AABB, .aabb = {SATC_VEC3S_AOS(c3, 12), SATC_VEC3S_AOS(h3, 12)}};
    size_t ng = (n + 127) / 128;
    float *gc = fal(3 * ng), *gh = fal(3 * ng);
    satc_group_bounds(flat, n, 128, NULL, ng, gc, gh);
    satc_groups *groups = zal(sizeof *groups);
    *groups = (satc_groups){128, NULL, ng, SATC_VEC3S_AOS(gc, 12), SATC_VEC3S_AOS(gh, 12)};
    *grouped = *flat;
    grouped->groups = groups;
    static vset sets[4];
    make_sets(sets, &s->cam);
    uint64_t *masks = zal(8 * n);
    uint8_t *bits = zal(n / 8 + 1);
    for (int si = 0; si < 4; si++) {
        for (int g = 0; g < 2; g++) {
            vctx *c = zal(sizeof *c);
            *c = (vctx){sets[si].fr, sets[si].k, g ? grouped : flat, n, masks, bits};
            drow_add(rs, run_pass, c, n, 0, "%s, one pass%s", sets[si].name, g ? ", groups" : "");
            drow_add(rs, run_calls, c, n, 0, "%s, %d calls%s", sets[si].name, sets[si].k, g ? ", groups" : "");
        }
    }
    /* The cascades on the same boxes in no spatial order. */
    float *cs = fal(3 * n), *hs = fal(3 * n);
    memcpy(cs, c3, 12 * n), memcpy(hs, h3, 12 * n);
    scn_rng r;
    scn_seed(&r, 12);
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)(scn_next(&r) % (i + 1));
        float t[3];
        memcpy(t, cs + 3 * i, 12), memcpy(cs + 3 * i, cs + 3 * j, 12), memcpy(cs + 3 * j, t, 12);
        memcpy(t, hs + 3 * i, 12), memcpy(hs + 3 * i, hs + 3 * j, 12), memcpy(hs + 3 * j, t, 12);
    }
    *shuf = (satc_batch){.form = SATC_FORM_AABB, .aabb = {SATC_VEC3S_AOS(cs, 12), SATC_VEC3S_AOS(hs, 12)}};
    vctx *c = zal(sizeof *c);
    *c = (vctx){sets[1].fr, sets[1].k, shuf, n, masks, bits};
    drow_add(rs, run_pass, c, n, 0, "cascades shuffled, one pass");
    drow_add(rs, run_calls, c, n, 0, "cascades shuffled, 5 calls");
    for (int g = 0; g < 2; g++) {
        c = zal(sizeof *c);
        *c = (vctx){sets[1].fr, 1, g ? grouped : flat, n, masks, bits};
        drow_add(rs, run_calls, c, n, 0, "camera alone%s", g ? ", groups of 128" : ", flat");
    }
    /* Group bounds of 128 per form (the engine frame's forms). */
    static satc_batch fb[NFORMS];
    frame_forms(s, fb);
    for (int f = 0; f < NFORMS; f++) {
        gctx *g = zal(sizeof *g);
        *g = (gctx){&fb[f], n, ng, fal(3 * ng), fal(3 * ng)};
        drow_add(rs, run_gbounds, g, n, 0, "group bounds of 128, %s", form_names[f]);
    }
}

/* ------------------------------------------------------------------ */
/* satc_bench_queries                                                   */
/* ------------------------------------------------------------------ */

typedef struct qctx {
    int kind; /* 0 frustum (box, segment), 1 sphere, 2 ray, 3 plane */
    satc_frustum f;
    float p0[3], d[3], r;
    satc_batch b;
    size_t n;
    satc_mode mode;
    uint8_t *mask, *cls;
    float *t;
} qctx;

static void run_query(void *p)
{
    qctx *c = p;
    satc_results r = {c->mask, c->kind == 3 ? c->cls : NULL, NULL, 0};
    size_t nearest;
    switch (c->kind) {
    case 1: satc_query_sphere(c->p0, c->r, &c->b, 0, c->n, c->mode, &r); break;
    case 2:
        satc_query_ray(c->p0, c->d, INFINITY, &c->b, 0, c->n, c->mode, &r, c->mode ? c->t : NULL,
                       c->mode ? &nearest : NULL);
        break;
    case 3: satc_cull(&c->f, &c->b, 0, c->n, SATC_CONSERVATIVE, &r); break;
    default: satc_cull(&c->f, &c->b, 0, c->n, c->mode, &r); break;
    }
}

void dispatch_rows_queries(drows *rs, size_t n)
{
    const scn_scene *s = scene(SCN_CITY, n);
    satc_batch b = satc_batch_from_boxes(&s->boxes);
    const float *E = s->cam.origin, *D = s->cam.dir;
    float c[3], quat[4] = {0.9238795f, 0, 0.3826834f, 0}, h[3] = {40, 20, 40};
    for (int k = 0; k < 3; k++)
        c[k] = E[k] + 60.0f * D[k];
    static const char *const names[6] = {"box (rotated)", "box (axis-aligned)", "segment", "sphere",
                                          "ray (pick)", "plane (3 classes)"};
    uint8_t *mask = zal(n / 8 + 1), *cls = zal(n);
    float *t = fal(n);
    for (int q = 0; q < 6; q++) {
        for (int m = 1; m >= 0; m--) {
            if (q == 5 && m == 0)
                continue; /* the plane: one mode (its test is exact) */
            qctx *x = zal(sizeof *x);
            x->b = b, x->n = n, x->mode = (satc_mode)m, x->mask = mask, x->cls = cls, x->t = t;
            satc_obb box;
            satc_status st = SATC_OK;
            if (q == 0) {
                satc_obb_from_quat(&box, c, quat, h);
                st = satc_frustum_from_box(&x->f, &box);
            } else if (q == 1) {
                float lo[3] = {c[0] - 40, c[1] - 20, c[2] - 40}, hi[3] = {c[0] + 40, c[1] + 20, c[2] + 40};
                satc_obb_from_aabb(&box, lo, hi);
                st = satc_frustum_from_box(&x->f, &box);
            } else if (q == 2) {
                float p0[3], p1[3];
                for (int k = 0; k < 3; k++)
                    p0[k] = E[k] + 1.0f * D[k], p1[k] = E[k] + 800.0f * D[k] + (k == 0 ? 30.0f : 0);
                st = satc_frustum_from_segment(&x->f, p0, p1);
            } else if (q == 3) {
                x->kind = 1, x->r = 40;
                memcpy(x->p0, c, sizeof c);
            } else if (q == 4) {
                x->kind = 2;
                for (int k = 0; k < 3; k++)
                    x->p0[k] = E[k], x->d[k] = D[k] + (k == 0 ? 0.0375f : 0) + (k == 1 ? -0.02f : 0);
            } else {
                x->kind = 3;
                const float pl[1][4] = {{1, 0, 0, -E[0]}};
                st = satc_frustum_from_planes(&x->f, pl, 1, 0.05f);
            }
            if (st != SATC_OK) {
                fprintf(stderr, "dispatch: query %s: status %d\n", names[q], (int)st);
                exit(2);
            }
            drow_add(rs, run_query, x, n, 0, "%s, %s", names[q], q == 5 ? "classes" : m ? "exact" : "conservative");
        }
    }
}
