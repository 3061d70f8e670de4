/*
 * The views pass's shared prefilter (src/views_pre.c): bounds of 32
 * volumes built once per chunk and decided per view.
 *
 * 1. Every path's satc_bounds_fn equals a scalar min / max of fl(c -+ |h|)
 *    bit for bit, in every layout of AABBs, min/max boxes and spheres, and
 *    flags groups with a NaN or infinite field.
 * 2. The decisions are taken: with a kernel that records its calls, a
 *    chunk out of view or deep inside is never given to the kernel, and a
 *    chunk with one crossing group (or one NaN volume, or a tail) gives it
 *    exactly those volumes.
 * 3. satc_cull_views equals each view's satc_cull bit for bit (mask,
 *    classes, indices, count), every path and mode, where the prefilter
 *    decides at its margin: whole chunks and groups of 32 placed at -8..8
 *    tolerances from a plane, on both sides (culled / inside), mixed with
 *    NaN, huge and random volumes, tails and unaligned starts, in six
 *    layouts, against perspective, infinite, orthographic and plane-volume
 *    views; and on the coherent city with a camera, cascades, cube faces
 *    and 63 and 64 players.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "robust_util.h"
#include "scenes.h"
#include "views_pre.h"

static satc_isa g_paths[8];
static int g_npaths;

/* ---- volumes in six layouts ---- */

enum { L_AABB_REC, L_AABB_F3, L_AABB_SOA, L_MINMAX_REC, L_SPH_REC, L_SPH_SOA, L_COUNT };
static const char *const g_lname[L_COUNT] = {"AABB records", "AABB float3 arrays", "AABB SoA",
                                             "min/max records", "sphere records", "sphere SoA"};

/* Storage for n volumes given as center c and half size h (spheres: h[0]). */
typedef struct store {
    float *a, *b; /* records or float3 arrays (b: second array) */
    float *s[7];  /* SoA streams */
} store;

static satc_batch store_make(store *st, int layout, const float *c, const float *h, size_t n)
{
    memset(st, 0, sizeof *st);
    satc_batch b;
    memset(&b, 0, sizeof b);
    switch (layout) {
    case L_AABB_REC:
    case L_MINMAX_REC:
        st->a = malloc(n * 24 + 16);
        for (size_t i = 0; i < n; i++) {
            for (int k = 0; k < 3; k++) {
                float x = c[3 * i + k], e = h[3 * i + k];
                st->a[6 * i + k] = layout == L_AABB_REC ? x : x - e;
                st->a[6 * i + 3 + k] = layout == L_AABB_REC ? e : x + e;
            }
        }
        if (layout == L_AABB_REC) {
            b.form = SATC_FORM_AABB;
            b.aabb.center = SATC_VEC3S_AOS(st->a, 24), b.aabb.half = SATC_VEC3S_AOS(st->a + 3, 24);
        } else {
            b.form = SATC_FORM_MINMAX;
            b.minmax.min = SATC_VEC3S_AOS(st->a, 24), b.minmax.max = SATC_VEC3S_AOS(st->a + 3, 24);
        }
        break;
    case L_AABB_F3:
        st->a = malloc(n * 12), st->b = malloc(n * 12);
        memcpy(st->a, c, n * 12), memcpy(st->b, h, n * 12);
        b.form = SATC_FORM_AABB;
        b.aabb.center = SATC_VEC3S_AOS(st->a, 12), b.aabb.half = SATC_VEC3S_AOS(st->b, 12);
        break;
    case L_AABB_SOA:
    case L_SPH_SOA:
        for (int q = 0; q < 7; q++)
            st->s[q] = malloc(n * 4 + 4);
        for (size_t i = 0; i < n; i++) {
            for (int k = 0; k < 3; k++)
                st->s[k][i] = c[3 * i + k], st->s[3 + k][i] = h[3 * i + k];
        }
        if (layout == L_AABB_SOA) {
            b.form = SATC_FORM_AABB;
            b.aabb.center = SATC_VEC3S_SOA(st->s[0], st->s[1], st->s[2]);
            b.aabb.half = SATC_VEC3S_SOA(st->s[3], st->s[4], st->s[5]);
        } else {
            b.form = SATC_FORM_SPHERES;
            b.spheres.center = SATC_VEC3S_SOA(st->s[0], st->s[1], st->s[2]);
            b.spheres.radius = (satc_floats){st->s[3], sizeof(float)};
        }
        break;
    default: /* sphere records: x, y, z, r */
        st->a = malloc(n * 16);
        for (size_t i = 0; i < n; i++) {
            memcpy(st->a + 4 * i, c + 3 * i, 12);
            st->a[4 * i + 3] = h[3 * i];
        }
        b.form = SATC_FORM_SPHERES;
        b.spheres.center = SATC_VEC3S_AOS(st->a, 16);
        b.spheres.radius = (satc_floats){st->a + 3, 16};
        break;
    }
    return b;
}

static void store_free(store *st)
{
    free(st->a), free(st->b);
    for (int q = 0; q < 7; q++)
        free(st->s[q]);
}

/* ---- 1. the bounds ---- */

static void test_bounds(rb_rng *r)
{
    enum { N = 32 * 21 + 5 };
    float *c = malloc(3 * N * sizeof *c), *h = malloc(3 * N * sizeof *h);
    float lo[3 * 32], hi[3 * 32], elo[3 * 32], ehi[3 * 32];
    for (int round = 0; round < 12; round++) {
        for (size_t i = 0; i < 3 * N; i++) {
            c[i] = (float)rb_uniform(r, -1e3, 1e3) * (round % 3 ? 1.0f : 1e4f);
            h[i] = (float)rb_uniform(r, -10, 10); /* negative sizes mean their magnitude */
        }
        for (size_t i = 0; i < N; i++)
            h[3 * i + 1] = h[3 * i + 2] = h[3 * i]; /* spheres read h[0] */
        size_t bad1 = 32 * 3 + 7, bad2 = 32 * 9 + 31; /* NaN, infinite */
        c[3 * bad1 + (size_t)round % 3] = NAN;
        h[3 * bad2] = INFINITY;
        for (int L = 0; L < L_COUNT; L++) {
            store st;
            satc_batch b = store_make(&st, L, c, h, N);
            for (size_t first = 0; first < 64; first += 37) {
                size_t n = N - first < 512 ? N - first : 512, ng = n / 32;
                /* the expected boxes, in float as the kernels round */
                for (size_t g = 0; g < ng; g++) {
                    int ok = 1;
                    for (int q = 0; q < 3; q++) {
                        float l = INFINITY, u = -INFINITY;
                        for (size_t j = 0; j < 32; j++) {
                            size_t i = first + g * 32 + j;
                            float x = c[3 * i + q], e = fabsf(h[3 * i + (L >= L_SPH_REC ? 0 : q)]);
                            float a = x - e, z = x + e;
                            if (L == L_MINMAX_REC) {
                                float mn = x - h[3 * i + q], mx = x + h[3 * i + q];
                                a = mn < mx ? mn : mx, z = mn < mx ? mx : mn;
                            }
                            ok &= isfinite(a) && isfinite(z);
                            l = a < l ? a : l, u = z > u ? z : u;
                        }
                        elo[q * ng + g] = l, ehi[q * ng + g] = u;
                        if (!ok)
                            break;
                    }
                    if (!ok) {
                        for (int q = 0; q < 3; q++)
                            elo[q * ng + g] = ehi[q * ng + g] = NAN;
                    }
                }
                for (int p = 0; p < g_npaths; p++) {
                    const satc_kernels *k = satc_kernels_for(g_paths[p]);
                    if (!k || !k->bounds)
                        continue;
                    k->bounds(&b, first, n, first + n == N ? SATC_K_LAST : 0u, lo, hi);
                    int same = 1;
                    for (size_t j = 0; j < 3 * ng; j++) {
                        same &= (isnan(elo[j]) && isnan(lo[j])) || !memcmp(&elo[j], &lo[j], 4);
                        same &= (isnan(ehi[j]) && isnan(hi[j])) || !memcmp(&ehi[j], &hi[j], 4);
                    }
                    rb_check(same, "bounds %s, %s, first %zu: differ from the scalar min/max",
                             satc_isa_name(g_paths[p]), g_lname[L], first);
                }
            }
            store_free(&st);
        }
    }
    free(c), free(h);
}

/* ---- 2. the decisions, seen through a kernel that records its calls ---- */

static size_t g_call_lo[64], g_call_n[64];
static int g_calls;

static void recording_kernel(const satc_frustum *f, const satc_batch *b, size_t first, size_t n,
                             unsigned flags, uint64_t *vis, uint64_t *in)
{
    (void)f, (void)b, (void)flags;
    if (g_calls < 64)
        g_call_lo[g_calls] = first, g_call_n[g_calls] = n;
    g_calls++;
    memset(vis, 0, SATC_CHUNK_WORDS * 8), memset(in, 0, SATC_CHUNK_WORDS * 8);
    for (size_t j = 0; j < n; j++)
        vis[j / 64] |= (uint64_t)1 << (j % 64); /* "visible": marks what the kernel saw */
}

/* A world point from camera-frame coordinates. */
static void frame_point(const satc_camera *cam, double x, double y, double z, float out[3])
{
    for (int k = 0; k < 3; k++)
        out[k] = (float)(cam->origin[k] + cam->left[k] * x + cam->up[k] * y + cam->dir[k] * z);
}

static int bits_equal(const uint64_t *w, size_t lo, size_t hi, int want)
{
    for (size_t j = lo; j < hi; j++) {
        if ((int)(w[j / 64] >> (j % 64) & 1) != want)
            return 0;
    }
    return 1;
}

static void test_decisions(rb_rng *r)
{
    enum { N = 512 };
    float c[3 * N], h[3 * N], lo[3 * 16], hi[3 * 16];
    satc_camera cam;
    const float eye[3] = {120.0f, 5.0f, -40.0f};
    rb_camera_persp(&cam, r, eye, 0.1f, 1000.0f);
    satc_frustum f;
    satc_frustum_from_camera(&f, &cam);
    satc_gview gv;
    /* kinds of group: 0 out (behind), 1 deep inside, 2 across the right side */
    static const int cases[5][16] = {
        {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
        {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
        {0, 0, 0, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0},
        {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, /* with a NaN volume in group 5 */
        {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, /* 505 volumes: a tail of 25 */
    };
    for (int cs = 0; cs < 5; cs++) {
        for (size_t i = 0; i < N; i++) {
            int kind = cases[cs][i / 32];
            double z = 40.0 + (double)(i % 32) * 0.1;
            if (kind == 0)
                frame_point(&cam, 0, 0, -z, c + 3 * i);
            else if (kind == 1)
                frame_point(&cam, 0, 0, z, c + 3 * i);
            else
                frame_point(&cam, f.x1 * 40.0, 0, 40.0, c + 3 * i);
            h[3 * i] = h[3 * i + 1] = h[3 * i + 2] = kind == 2 ? 1.0f : 0.01f;
        }
        if (cs == 3)
            c[3 * (5 * 32 + 4) + 1] = NAN;
        size_t n = cs == 4 ? 505 : N;
        satc_batch b = {.form = SATC_FORM_AABB,
                        .aabb = {SATC_VEC3S_AOS(c, 12), SATC_VEC3S_AOS(h, 12)}};
        satc_gview_init(&gv, &f, &b);
        for (int p = 0; p < g_npaths; p++) {
            const satc_kernels *k = satc_kernels_for(g_paths[p]);
            if (!k || !k->bounds)
                continue;
            for (int cls = 0; cls < 2; cls++) {
                satc_pre pc;
                uint64_t vis[SATC_CHUNK_WORDS], in[SATC_CHUNK_WORDS];
                k->bounds(&b, 0, n, SATC_K_LAST, lo, hi);
                satc_pre_chunk(&pc, lo, hi, n / 32, n);
                g_calls = 0;
                unsigned flags = SATC_K_LAST | (cls ? SATC_K_CLASSIFY : 0u);
                satc_pre_run(&pc, recording_kernel, k->fn[SATC_FORM_AABB][0], &f, &gv, &b, 0, n,
                             flags, vis, in);
                const char *path = satc_isa_name(g_paths[p]);
                int ok;
                switch (cs) {
                case 0: ok = g_calls == 0 && bits_equal(vis, 0, SATC_CHUNK, 0); break;
                case 1:
                    ok = g_calls == 0 && bits_equal(vis, 0, N, 1) &&
                         bits_equal(in, 0, N, cls) && bits_equal(vis, N, SATC_CHUNK, 0);
                    break;
                case 2:
                    ok = g_calls == 1 && g_call_lo[0] == 96 && g_call_n[0] == 32 &&
                         bits_equal(vis, 0, 96, 0) && bits_equal(vis, 96, 448, 1) &&
                         bits_equal(vis, 448, N, 0) && bits_equal(in, 96, 128, 0) &&
                         bits_equal(in, 128, 448, cls);
                    break;
                case 3:
                    ok = g_calls == 1 && g_call_lo[0] == 160 && g_call_n[0] == 32 &&
                         bits_equal(vis, 0, 160, 0) && bits_equal(vis, 192, N, 0);
                    break;
                default:
                    ok = g_calls == 1 && g_call_lo[0] == 480 && g_call_n[0] == 25 &&
                         bits_equal(vis, 0, 505, 1) && bits_equal(in, 0, 480, cls);
                    break;
                }
                rb_check(ok, "decisions, case %d, %s, classes %d: %d kernel calls (first at %zu, %zu"
                         " volumes)", cs, path, cls, g_calls, g_calls ? g_call_lo[0] : 0,
                         g_calls ? g_call_n[0] : 0);
            }
        }
    }
}

/* ---- 3. the pass against each view's own cull ---- */

typedef struct outs {
    uint8_t *mask, *cls;
    uint32_t *idx;
} outs;

/* satc_cull_views over [first, first + count) against K single culls,
 * every path and mode; returns the mismatches. */
static int compare_views(const satc_frustum *views, int K, const satc_batch *b, size_t first,
                         size_t count, const char *what)
{
    uint64_t *masks = calloc(count + 1, 8);
    uint8_t *bm = calloc(count / 8 + 2, 1), *cl1 = calloc(count + 1, 1);
    uint32_t *ix1 = calloc(count + 1, 4);
    uint8_t *cls[SATC_MAX_VIEWS];
    uint32_t *idx[SATC_MAX_VIEWS];
    for (int v = 0; v < K; v++)
        cls[v] = calloc(count + 1, 1), idx[v] = calloc(count + 1, 4);
    size_t bytes = K <= 8 ? 1 : K <= 16 ? 2 : K <= 32 ? 4 : 8;
    int bad = 0;
    for (int p = 0; p < g_npaths; p++) {
        for (int mode = 0; mode < 2; mode++) {
            if (mode == 1 && views[K - 1].kind == SATC_FRUSTUM_PLANES && !views[K - 1].nverts)
                continue; /* unbounded plane volume: exact mode is refused */
            size_t visible[SATC_MAX_VIEWS];
            uint8_t *clsp[SATC_MAX_VIEWS];
            for (int v = 0; v < K; v++)
                clsp[v] = (v + mode) % 2 ? cls[v] : NULL;
            satc_view_results o = {masks, idx, clsp, visible};
            satc_status st = satc_cull_views_isa(g_paths[p], views, (size_t)K, b, first, count,
                                                 (satc_mode)mode, &o);
            if (!rb_check(st == SATC_OK, "%s: satc_cull_views status %d", what, st)) {
                bad++;
                continue;
            }
            for (int v = 0; v < K; v++) {
                satc_results r1 = {bm, clsp[v] ? cl1 : NULL, ix1, 0};
                satc_cull_isa(g_paths[p], &views[v], b, first, count, (satc_mode)mode, &r1);
                int same = r1.visible == visible[v] &&
                           !memcmp(ix1, idx[v], visible[v] * sizeof *ix1) &&
                           (!clsp[v] || !memcmp(cl1, cls[v], count));
                for (size_t j = 0; same && j < count; j++) {
                    uint64_t w = 0;
                    memcpy(&w, (const char *)masks + j * bytes, bytes);
                    same = (int)(w >> v & 1) == (bm[j / 8] >> (j % 8) & 1);
                }
                if (!rb_check(same, "%s: view %d differs from its own cull (%s, mode %d, first %zu,"
                              " count %zu, visible %zu vs %zu)", what, v,
                              satc_isa_name(g_paths[p]), mode, first, count, visible[v], r1.visible))
                    bad++;
            }
        }
    }
    for (int v = 0; v < K; v++)
        free(cls[v]), free(idx[v]);
    free(masks), free(bm), free(cl1), free(ix1);
    return bad;
}

/* A box (or sphere, support h[0]) placed against plane pl (inside where
 * n.x + d >= 0) through P: its near side s tolerances outside (outer), or
 * its far side s tolerances beyond the plane (inner). */
static void place(const float pl[4], const double P[3], double s, double tol, int outer,
                  int sphere, float half, float c[3], float h[3])
{
    double n[3] = {pl[0], pl[1], pl[2]}, len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    double support = 0;
    for (int k = 0; k < 3; k++) {
        n[k] /= len;
        support += sphere ? 0 : fabs(n[k]) * half;
    }
    if (sphere)
        support = half;
    double off = outer ? support + s * tol : -support + s * tol; /* along the outward normal */
    for (int k = 0; k < 3; k++)
        c[k] = (float)(P[k] - n[k] * off), h[k] = half;
}

static void test_margins(rb_rng *r, int quick)
{
    enum { CH = 512, NCH = 6, N = CH * NCH + 77 };
    float *c = malloc(3 * N * sizeof *c), *h = malloc(3 * N * sizeof *h);
    int rounds = quick ? 3 : 8;
    for (int L = 0; L < L_COUNT; L++) {
        int sphere = L >= L_SPH_REC;
        for (int round = 0; round < rounds; round++) {
            int kind = round % 4; /* 0 finite, 1 infinite far, 2 orthographic, 3 far world */
            float eye[3] = {(float)rb_uniform(r, -1e3, 1e3), (float)rb_uniform(r, -10, 10),
                            (float)rb_uniform(r, -1e3, 1e3)};
            if (kind == 3)
                eye[0] += 1e6f, eye[2] -= 2e6f;
            satc_camera cam;
            if (kind == 2)
                rb_camera_ortho(&cam, r, eye, 60.0f, 35.0f, 0.5f, 300.0f);
            else
                rb_camera_persp(&cam, r, eye, 0.1f, kind == 1 ? INFINITY : 400.0f);
            satc_frustum views[3];
            satc_frustum_from_camera(&views[0], &cam);
            float pl[6][4];
            int np = scn_frustum_planes(&views[0], pl);
            satc_camera cam2;
            rb_camera_ortho(&cam2, r, eye, 80.0f, 80.0f, -200.0f, 200.0f);
            satc_frustum_from_camera(&views[1], &cam2);
            satc_frustum_from_planes(&views[2], (const float(*)[4])pl, (size_t)np, 0.0f);
            const satc_frustum *f = &views[0];
            for (size_t i = 0; i < N; i++) {
                size_t chunk = i / CH, g = (i % CH) / 32;
                /* what this volume's group (or chunk) shares: a plane, a point on it, a size */
                rb_rng gr = {(uint64_t)(round * 1000 + (int)chunk * 64 + (int)g + 1) * 7919u};
                if (chunk == 0 || chunk == 3)
                    gr.s = (uint64_t)(round * 1000 + (int)chunk + 1) * 104729u; /* whole chunk */
                int plane = (int)rb_uniform(&gr, 0, np);
                double fz = kind == 2 ? rb_uniform(&gr, 1, 299) : rb_uniform(&gr, 1, 300);
                double fx = rb_uniform(&gr, -1, 1), fy = rb_uniform(&gr, -1, 1);
                double x = kind == 2 ? fx * 60.0 : fx * f->x1 * fz, y = kind == 2 ? fy * 35.0 : fy * f->y1 * fz;
                double X[3];
                for (int k = 0; k < 3; k++)
                    X[k] = cam.origin[k] + cam.left[k] * x + cam.up[k] * y + cam.dir[k] * fz;
                double len = sqrt(pl[plane][0] * pl[plane][0] + pl[plane][1] * pl[plane][1] +
                                  pl[plane][2] * pl[plane][2]);
                double dist = (pl[plane][0] * X[0] + pl[plane][1] * X[1] + pl[plane][2] * X[2] +
                               pl[plane][3]) / len;
                double P[3];
                for (int k = 0; k < 3; k++)
                    P[k] = X[k] - pl[plane][k] / len * dist; /* X moved onto the plane */
                float half = (float)pow(10.0, rb_uniform(&gr, -2, 1));
                double rel = fabs(P[0] - cam.origin[0]) + fabs(P[1] - cam.origin[1]) +
                             fabs(P[2] - cam.origin[2]);
                double tol = (double)f->eps_k * (2.0 * rel + 6.0 * half) + f->tol_t;
                int outer = rb_uniform(&gr, 0, 1) < 0.5;
                double s = rb_uniform(&gr, -8, 8); /* the group's (chunk's) distance */
                if (chunk == 2 || chunk == 5)
                    s = rb_uniform(r, -8, 8); /* each volume its own */
                if (chunk == 4 && (i % 32) == 0)
                    s += 1000; /* groups spread across the plane */
                place(pl[plane], P, s, tol, outer, sphere, half, c + 3 * i, h + 3 * i);
                if (i >= CH * NCH) { /* the tail: random volumes near the view */
                    for (int k = 0; k < 3; k++)
                        c[3 * i + k] = (float)(X[k] + rb_uniform(r, -20, 20));
                }
            }
            c[3 * (CH * 1 + 32 * 7 + 3)] = NAN;         /* a NaN volume */
            c[3 * (CH * 4 + 32 * 2 + 9) + 1] = 1e30f;   /* a huge one */
            h[3 * (CH * 5 + 32 * 11 + 30)] = INFINITY;  /* an infinite one */
            store st;
            satc_batch b = store_make(&st, L, c, h, N);
            char what[96];
            snprintf(what, sizeof what, "margins, %s, round %d", g_lname[L], round);
            compare_views(views, 3, &b, 0, N, what);
            compare_views(views, 2, &b, 3, N - 3 - 40, what); /* unaligned, shorter */
            store_free(&st);
        }
    }
    free(c), free(h);
}

/* The coherent city: a camera and 4 cascades, 6 cube faces, 64 and 63 players. */
static void test_city(rb_rng *r, int quick)
{
    scn_scene s;
    size_t n = quick ? 30000 : 120000;
    if (!rb_check(scn_make(&s, SCN_CITY, n, 11, NULL) == 0, "city scene"))
        return;
    satc_batch ob = satc_batch_from_boxes(&s.boxes);
    float *c = malloc(3 * n * sizeof *c), *h = malloc(3 * n * sizeof *h);
    satc_to_aabbs(&ob, 0, n, c, h);
    /* coherent order: rows of 32 m cells */
    typedef struct { double key; size_t i; } kv;
    kv *ord = malloc(n * sizeof *ord);
    for (size_t i = 0; i < n; i++)
        ord[i].key = floor(c[3 * i] / 32.0) + 65536.0 * floor(c[3 * i + 2] / 32.0), ord[i].i = i;
    for (size_t w = 1; w < n; w *= 2) { /* bottom-up merge sort: qsort needs a comparator */
        kv *t = malloc(n * sizeof *t);
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t m = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n, a = lo,
                   bb = m, o = lo;
            while (a < m || bb < hi)
                t[o++] = (bb >= hi || (a < m && ord[a].key <= ord[bb].key)) ? ord[a++] : ord[bb++];
        }
        memcpy(ord, t, n * sizeof *t);
        free(t);
    }
    float *sc = malloc(3 * n * sizeof *sc), *sh = malloc(3 * n * sizeof *sh);
    for (size_t i = 0; i < n; i++)
        memcpy(sc + 3 * i, c + 3 * ord[i].i, 12), memcpy(sh + 3 * i, h + 3 * ord[i].i, 12);
    free(ord);
    satc_frustum views[64];
    satc_frustum_from_camera(&views[0], &s.cam);
    for (int q = 1; q < 5; q++) { /* cascades: orthographic boxes in one light frame */
        satc_camera l;
        const float eye[3] = {s.cam.origin[0], s.cam.origin[1] + 200.0f, s.cam.origin[2]};
        rb_camera_ortho(&l, r, eye, 30.0f * (float)q, 30.0f * (float)q, -400.0f, 400.0f);
        satc_frustum_from_camera(&views[q], &l);
    }
    int bad = compare_views(views, 5, &(satc_batch){.form = SATC_FORM_AABB,
                                                    .aabb = {SATC_VEC3S_AOS(sc, 12),
                                                             SATC_VEC3S_AOS(sh, 12)}},
                            0, n, "city, camera and cascades");
    static const float dirs[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (int q = 0; q < 6; q++) { /* cube faces of a point light */
        satc_camera cf;
        memset(&cf, 0, sizeof cf);
        float up[3] = {0, 1, 0};
        if (dirs[q][1] != 0)
            up[0] = 0, up[1] = 0, up[2] = 1;
        for (int k = 0; k < 3; k++)
            cf.origin[k] = s.cam.origin[k] + (k == 1 ? 5.0f : 0.0f), cf.dir[k] = dirs[q][k];
        /* L = U x D, then U = D x L */
        cf.left[0] = up[1] * cf.dir[2] - up[2] * cf.dir[1];
        cf.left[1] = up[2] * cf.dir[0] - up[0] * cf.dir[2];
        cf.left[2] = up[0] * cf.dir[1] - up[1] * cf.dir[0];
        cf.up[0] = cf.dir[1] * cf.left[2] - cf.dir[2] * cf.left[1];
        cf.up[1] = cf.dir[2] * cf.left[0] - cf.dir[0] * cf.left[2];
        cf.up[2] = cf.dir[0] * cf.left[1] - cf.dir[1] * cf.left[0];
        cf.l0 = cf.u0 = -1, cf.l1 = cf.u1 = 1, cf.n = 0.05f, cf.f = 60.0f;
        rb_check(satc_frustum_from_camera(&views[q], &cf) == SATC_OK, "cube face %d", q);
    }
    satc_batch b = {.form = SATC_FORM_AABB, .aabb = {SATC_VEC3S_AOS(sc, 12), SATC_VEC3S_AOS(sh, 12)}};
    bad += compare_views(views, 6, &b, 0, n, "city, cube faces");
    for (int q = 0; q < 64; q++) { /* players over the city */
        satc_camera pc;
        float eye[3] = {sc[3 * (size_t)rb_uniform(r, 0, (double)n)], 1.8f,
                        sc[3 * (size_t)rb_uniform(r, 0, (double)n) + 2]};
        rb_camera_persp(&pc, r, eye, 0.1f, 150.0f);
        satc_frustum_from_camera(&views[q], &pc);
    }
    bad += compare_views(views, 64, &b, 0, n, "city, 64 players");
    bad += compare_views(views + 1, 63, &b, 5, n - 5, "city, 63 players");
    rb_check(bad == 0, "city: %d mismatches", bad);
    free(c), free(h), free(sc), free(sh);
    scn_free(&s);
}

int main(void)
{
    const char *q = getenv("SATC_TEST_QUICK");
    int quick = q && *q && *q != '0';
    g_npaths = rb_paths(g_paths);
    rb_rng r = {20261123};
    test_bounds(&r);
    test_decisions(&r);
    test_margins(&r, quick);
    test_city(&r, quick);
    return rb_finish();
}
