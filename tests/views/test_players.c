/*
 * The views pass with groups at a game server's size: up to 64
 * players' views over a city sorted into groups of 128, masks large
 * enough that the pass streams them out chunk by chunk (8, 4 and 2 byte
 * words; an 8-byte-aligned buffer that is not 16-aligned; a sub-range
 * starting mid-word): each view's bits, visible count, classes and
 * indices equal its own flat satc_cull, on every path, in both modes, and
 * the words around the caller's range stay untouched.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "robust_util.h"
#include "scenes.h"

static satc_isa g_paths[8];
static int g_npaths;

enum { K = 64, NCLS = 3 };

/* A player at eye height looking along yaw a, 60 degree vertical field,
 * 16:9, near 0.1; far 400 m, or infinite for some. */
static void player(satc_camera *c, const float eye[3], double a, float far)
{
    memset(c, 0, sizeof *c);
    const float D[3] = {(float)sin(a), 0.0f, (float)cos(a)}, U[3] = {0, 1, 0};
    for (int k = 0; k < 3; k++)
        c->origin[k] = eye[k], c->dir[k] = D[k], c->up[k] = U[k];
    c->left[0] = U[1] * D[2] - U[2] * D[1];
    c->left[1] = U[2] * D[0] - U[0] * D[2];
    c->left[2] = U[0] * D[1] - U[1] * D[0];
    const double ty = 0.5773502691896258, tx = ty * 16.0 / 9.0, n = 0.1;
    c->l0 = (float)(-tx * n), c->l1 = (float)(tx * n);
    c->u0 = (float)(-ty * n), c->u1 = (float)(ty * n);
    c->n = (float)n, c->f = far;
}

static const float *g_c;
static int by_cell(const void *a, const void *b)
{
    const float *p = g_c + 3 * *(const size_t *)a, *q = g_c + 3 * *(const size_t *)b;
    double kp = floor(p[0] / 40.0) * 1e6 + floor(p[2] / 40.0);
    double kq = floor(q[0] / 40.0) * 1e6 + floor(q[2] / 40.0);
    return kp < kq ? -1 : kp > kq;
}

/* Bit i of the word of `bytes` at w[i]. */
static unsigned word_bit(const unsigned char *w, size_t bytes, size_t i, int v)
{
    uint64_t x = 0;
    memcpy(&x, w + i * bytes, bytes); /* little-endian hosts: the word's low bytes */
    return (unsigned)(x >> v & 1u);
}

/* The pass over [first, first + count) with nv views against each view's
 * flat cull; returns 1 when every output agrees. */
static int check_pass(satc_isa isa, const satc_frustum *views, int nv, const satc_batch *gb,
                      size_t first, size_t count, satc_mode mode, unsigned char *buf,
                      size_t bytes)
{
    satc_batch flat = *gb;
    flat.groups = NULL;
    /* masks 8 bytes past a 16-aligned address (malloc's), canaries around */
    unsigned char *m = buf + 24;
    memset(buf, 0xA5, 24 + (count + 1) * bytes);
    uint8_t *cls[K] = {0}, *bits = malloc(count / 8 + 1), *fcls = malloc(count + 1);
    uint32_t *idx[K] = {0}, *fidx = malloc((count + 1) * sizeof *fidx);
    for (int v = 0; v < NCLS; v++)
        cls[v] = malloc(count + 1), idx[v] = malloc((count + 1) * sizeof *idx[v]);
    size_t vis[K];
    satc_view_results r = {m, idx, cls, vis};
    int ok = satc_cull_views_isa(isa, views, (size_t)nv, gb, first, count, mode, &r) == SATC_OK;
    for (size_t j = 0; j < 24; j++)
        ok &= buf[j] == 0xA5 && m[count * bytes + (j % bytes)] == 0xA5;
    for (int v = 0; v < nv && ok; v++) {
        satc_results fr = {bits, v < NCLS ? fcls : NULL, v < NCLS ? fidx : NULL, 0};
        ok &= satc_cull_isa(isa, &views[v], &flat, first, count, mode, &fr) == SATC_OK;
        ok &= fr.visible == vis[v];
        for (size_t i = 0; i < count && ok; i++)
            ok &= word_bit(m, bytes, i, v) == (unsigned)(bits[i / 8] >> (i % 8) & 1u);
        if (v < NCLS)
            ok &= !memcmp(fcls, cls[v], count) && !memcmp(fidx, idx[v], vis[v] * sizeof *fidx);
    }
    for (size_t i = 0; i < count && ok; i++) /* bits at and above nv are 0 */
        for (int v = nv; v < (int)(8 * bytes); v++)
            ok &= word_bit(m, bytes, i, v) == 0;
    for (int v = 0; v < NCLS; v++)
        free(cls[v]), free(idx[v]);
    free(bits), free(fcls), free(fidx);
    return ok;
}

int main(void)
{
    int quick = rb_quick();
    g_npaths = rb_paths(g_paths);
    rb_rng r = {20261125};
    /* 64 views x 8 B over 140 000 volumes: 1.1 MB of masks, streamed. */
    size_t n = quick ? 140000 : 280000;
    scn_scene s;
    if (scn_make(&s, SCN_CITY, n, 27, NULL) != 0) {
        rb_check(0, "scene");
        return rb_finish();
    }
    satc_batch ob = satc_batch_from_boxes(&s.boxes);
    float *c = malloc(12 * n), *h = malloc(12 * n), *sc = malloc(12 * n), *sh = malloc(12 * n);
    size_t *ord = malloc(n * sizeof *ord);
    satc_to_aabbs(&ob, 0, n, c, h);
    for (size_t i = 0; i < n; i++)
        ord[i] = i;
    g_c = c;
    qsort(ord, n, sizeof *ord, by_cell);
    for (size_t i = 0; i < n; i++)
        memcpy(sc + 3 * i, c + 3 * ord[i], 12), memcpy(sh + 3 * i, h + 3 * ord[i], 12);
    satc_batch b = {.form = SATC_FORM_AABB, .aabb = {SATC_VEC3S_AOS(sc, 12), SATC_VEC3S_AOS(sh, 12)}};
    size_t ng = (n + 127) / 128;
    float *gc = malloc(12 * ng), *gh = malloc(12 * ng);
    rb_check(satc_group_bounds(&b, n, 128, NULL, ng, gc, gh) == SATC_OK, "group bounds");
    satc_groups g = {128, NULL, ng, SATC_VEC3S_AOS(gc, 12), SATC_VEC3S_AOS(gh, 12)};
    satc_batch gb = b;
    gb.groups = &g;

    /* Players over the city (every 16th with an infinite far plane),
     * the scene's camera first: it sees the most. */
    satc_frustum views[K];
    views[0] = s.frustum;
    for (int v = 1; v < K; v++) {
        satc_camera cam;
        float eye[3] = {s.cam.origin[0] + (float)rb_uniform(&r, -1900, 1900), s.cam.origin[1],
                        s.cam.origin[2] + (float)rb_uniform(&r, -1900, 1900)};
        player(&cam, eye, rb_uniform(&r, 0, 6.283185307179586), v % 16 ? 400.0f : INFINITY);
        rb_check(satc_frustum_from_camera(&views[v], &cam) == SATC_OK, "player %d", v);
    }
    unsigned char *buf = malloc(24 + (n + 1) * 8);
    for (int p = 0; p < g_npaths; p++) {
        for (int mode = 0; mode < 2; mode++) {
            const char *isa = satc_isa_name(g_paths[p]);
            rb_check(check_pass(g_paths[p], views, K, &gb, 0, n, (satc_mode)mode, buf, 8),
                     "64 players, 8 B masks (%s, mode %d)", isa, mode);
            rb_check(check_pass(g_paths[p], views, K, &gb, 1003, n - 5000, (satc_mode)mode, buf, 8),
                     "64 players, sub-range (%s, mode %d)", isa, mode);
            if (quick)
                continue;
            rb_check(check_pass(g_paths[p], views, 20, &gb, 0, n, (satc_mode)mode, buf, 4),
                     "20 players, 4 B masks (%s, mode %d)", isa, mode);
            rb_check(check_pass(g_paths[p], views, 12, &gb, 11, n - 11, (satc_mode)mode, buf, 2),
                     "12 players, 2 B masks (%s, mode %d)", isa, mode);
        }
    }
    free(buf), free(c), free(h), free(sc), free(sh), free(ord), free(gc), free(gh);
    scn_free(&s);
    return rb_finish();
}
