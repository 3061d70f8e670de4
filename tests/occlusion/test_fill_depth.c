/*
 * satc_pyramid_fill against depth that a GPU rendered through a float
 * projection matrix: walls perpendicular to the view, their depth z/w
 * evaluated from the float matrix (exactly in long double, or in float
 * arithmetic as a vertex shader and rasterizer do), rounded to the
 * format. Oracle in long double: every texel at least the wall's view
 * depth over the texel (in the pyramid's own frame), and a box whose far
 * face lies in front of the wall never occluded. Every convention (GL and
 * D3D ranges, reversed, infinite far, both hands, orthographic), every
 * format, depth / near up to 1e12; the matrix path and the near/far path.
 * --long: many more random cases.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "satc.h"

#ifdef FILL_NO_MATRIX /* measuring a library without the matrix entry point */
#define satc_pyramid_fill_matrix(p, d, m, l) satc_pyramid_fill(p, d)
#endif

#include "occl_check.h"

typedef long double ld;

static uint64_t g_rng = 0x9e3779b97f4a7c15ull;
static double urand(void) /* [0, 1) */
{
    g_rng ^= g_rng << 13, g_rng ^= g_rng >> 7, g_rng ^= g_rng << 17;
    return (double)(g_rng >> 11) * 0x1p-53;
}

#define PW 64u
#define PH 32u
#define IW 8u
#define IH 4u

/* One rendering set-up: a float projection matrix (view space = world,
 * the camera at the origin), how the GPU evaluates depth, the format. */
typedef struct setup {
    int gl, rev, inf, rh, ortho, fmt, gpu_float, float_matrix, use_matrix;
    float n, f, fovy, aspect;
    float m[16]; /* column-major: m[c * 4 + r] */
} setup;

static unsigned conv_of(const setup *s)
{
    return (s->gl ? SATC_DEPTH_NEG_ONE_TO_ONE : SATC_DEPTH_ZERO_TO_ONE) |
           (s->rev ? SATC_DEPTH_REVERSED : 0u) | (s->inf ? SATC_DEPTH_INFINITE_FAR : 0u);
}

/* NDC depth z = P + Q / d (perspective) or P + Q d (orthographic) for
 * view depth d, exact for the given near and far. */
static void coeffs(const setup *s, ld *P, ld *Q)
{
    ld lo = s->gl ? -1 : 0, n = s->n, f = s->f;
    ld zn = s->rev ? 1 : lo, zf = s->rev ? lo : 1;
    if (s->ortho) {
        *Q = (zf - zn) / (f - n), *P = zn - *Q * n;
    } else if (s->inf) {
        *P = zf, *Q = (zn - zf) * n;
    } else {
        *Q = (zn - zf) * n * f / (f - n), *P = zf - *Q / f;
    }
}

static void make_matrix(setup *s)
{
    memset(s->m, 0, sizeof s->m);
    ld P, Q;
    coeffs(s, &P, &Q);
    float sg = s->rh ? -1.0f : 1.0f; /* view z of a point at depth d is sg * d */
    if (s->ortho) {
        s->m[0] = (float)(1 / (s->aspect * (ld)s->fovy)), s->m[5] = (float)(1 / (ld)s->fovy);
        /* z_clip = m22 z_v + m23, w = 1 */
        s->m[10] = (float)(Q * sg), s->m[14] = (float)P, s->m[15] = 1;
        return;
    }
    ld t = tanl((ld)s->fovy / 2);
    s->m[0] = (float)(1 / (t * s->aspect)), s->m[5] = (float)(1 / t);
    s->m[11] = sg; /* w = sg z_v = d */
    /* z_clip = m22 z_v + m23 = m22 sg d + m23, so z/w = m22 sg + m23 / d */
    if (s->float_matrix && !s->inf) { /* the entries computed in float, as float code does */
        float n = s->n, f = s->f, lo = s->gl ? -1.0f : 0.0f;
        float zn = s->rev ? 1.0f : lo, zf = s->rev ? lo : 1.0f;
        float q = (zn - zf) * n * f / (f - n);
        float p = zf - q / f;
        s->m[10] = p * sg, s->m[14] = q;
    } else {
        s->m[10] = (float)(P * sg), s->m[14] = (float)Q;
    }
}

/* Stored pixel value of a wall at view depth d (the camera-space point
 * (0, 0, sg d)) as the set-up's GPU writes it. */
static uint32_t render(const setup *s, float d, float *fv)
{
    float sg = s->rh ? -1.0f : 1.0f, zv = sg * d;
    ld z;
    if (s->gpu_float) {
        float zc = s->m[10] * zv + s->m[14], w = s->m[11] * zv + s->m[15];
        z = (float)(zc / w);
    } else {
        z = ((ld)s->m[10] * zv + s->m[14]) / ((ld)s->m[11] * zv + s->m[15]);
    }
    ld win;
    if (s->fmt == SATC_DEPTH_FORMAT_FLOAT_NDC) {
        *fv = (float)z;
        return 0;
    }
    if (s->gl)
        win = s->gpu_float ? (ld)(0.5f * (float)z + 0.5f) : (z + 1) / 2;
    else
        win = z;
    if (s->fmt == SATC_DEPTH_FORMAT_FLOAT) {
        *fv = (float)win;
        return 0;
    }
    ld top = s->fmt == SATC_DEPTH_FORMAT_UNORM16 ? 65535.0L
             : s->fmt == SATC_DEPTH_FORMAT_UNORM32 ? 4294967295.0L : 16777215.0L;
    if (win < 0)
        win = 0;
    if (win > 1)
        win = 1;
    ld k = roundl(win * top);
    return (uint32_t)k;
}

static void fill_image(const setup *s, uint32_t v, float fv, uint8_t *img, size_t *rb)
{
    size_t ps = s->fmt == SATC_DEPTH_FORMAT_UNORM16 ? 2 : 4;
    *rb = IW * ps;
    for (uint32_t i = 0; i < IW * IH; i++) {
        uint8_t *q = img + i * ps;
        switch (s->fmt) {
        case SATC_DEPTH_FORMAT_UNORM16: { uint16_t u = (uint16_t)v; memcpy(q, &u, 2); break; }
        case SATC_DEPTH_FORMAT_UNORM24: { uint32_t u = v | 0xC3000000u; memcpy(q, &u, 4); break; }
        case SATC_DEPTH_FORMAT_UNORM24_HIGH: { uint32_t u = v << 8 | 0x5Au; memcpy(q, &u, 4); break; }
        case SATC_DEPTH_FORMAT_UNORM32: memcpy(q, &v, 4); break;
        default: memcpy(q, &fv, 4); break;
        }
    }
}

/* The view depth, in the frame of view *f, of the wall z = zw seen along
 * direction (a, b) of the view. */
static ld wall_depth(const satc_frustum *f, ld a, ld b, ld zw)
{
    const float *E = f->origin, *L = f->frame[0], *U = f->frame[1], *D = f->frame[2];
    ld X[3];
    if (f->kind == SATC_FRUSTUM_ORTHOGRAPHIC) {
        ld t = (zw - E[2] - a * L[2] - b * U[2]) / D[2];
        for (int k = 0; k < 3; k++)
            X[k] = E[k] + a * L[k] + b * U[k] + t * D[k];
    } else {
        ld dz = a * L[2] + b * U[2] + D[2];
        ld t = (zw - E[2]) / dz;
        for (int k = 0; k < 3; k++)
            X[k] = E[k] + t * (a * L[k] + b * U[k] + D[k]);
    }
    return D[0] * (X[0] - E[0]) + D[1] * (X[1] - E[1]) + D[2] * (X[2] - E[2]);
}

typedef struct result {
    satc_status st;
    size_t low;     /* texels nearer than the wall over them */
    int occluded;   /* the box in front was reported occluded */
    float texel;    /* texel (0, 0) */
    ld wall_min;    /* the wall's least depth over the view */
} result;

static float *g_store;

/* Renders a wall at view depth d, fills, checks the texels and a box whose
 * far face lies `gap` in front of the wall's nearest point. */
static result run_case(const setup *s, float d, double gap)
{
    result r = {0, 0, 0, 0, 0};
    unsigned cv = conv_of(s);
    satc_frustum view;
    r.st = satc_frustum_from_matrix(&view, s->m, SATC_MATRIX_COLUMN_MAJOR | cv);
    if (r.st != SATC_OK)
        return r;
    satc_pyramid p;
    r.st = satc_pyramid_init(&p, &view, PW, PH, g_store, satc_pyramid_bytes(PW, PH));
    if (r.st != SATC_OK)
        return r;
    uint8_t img[IW * IH * 4];
    size_t rb;
    float fv = 0;
    uint32_t v = render(s, d, &fv);
    fill_image(s, v, fv, img, &rb);
    satc_depth_image di = {img, IW, IH, rb, (satc_depth_format)s->fmt, cv, s->n, s->f};
    r.st = s->use_matrix ? satc_pyramid_fill_matrix(&p, &di, s->m, SATC_MATRIX_COLUMN_MAJOR)
                         : satc_pyramid_fill(&p, &di);
    if (r.st != SATC_OK)
        return r;
    ld zw = (s->rh ? -1.0L : 1.0L) * d;
    ld w = ((ld)view.x1 - view.x0) / PW, h = ((ld)view.y1 - view.y0) / PH;
    r.wall_min = INFINITY;
    for (uint32_t j = 0; j < PH; j++)
        for (uint32_t i = 0; i < PW; i++) {
            /* the wall's depth is monotone across the view: the middle and edge rows and columns */
            if (j != 0 && j != PH / 2 && j != PH - 1 && i != 0 && i != PW / 2 && i != PW - 1)
                continue;
            ld mx = -INFINITY;
            for (int c = 0; c < 4; c++) {
                ld a = view.x1 - (i + (c & 1)) * w, b = view.y0 + (j + (c >> 1)) * h;
                ld z = wall_depth(&view, a, b, zw);
                mx = z > mx ? z : mx;
                r.wall_min = z < r.wall_min ? z : r.wall_min;
            }
            float T = p.depth[j * PW + i];
            r.low += !((ld)T >= mx);
        }
    r.texel = p.depth[0];
    /* a box on the view's axis, its far face gap in front of the wall */
    const float *E = view.origin, *D = view.frame[2];
    ld far_face = r.wall_min - gap, hh = (far_face - view.n) * 1e-3L;
    if (view.kind == SATC_FRUSTUM_ORTHOGRAPHIC)
        hh = (far_face - view.n) * 1e-3L;
    if (!(hh > 0))
        return r;
    ld dc = far_face - hh * 1.75L; /* the AABB's corners reach a little past hh along D */
    float c[3], hv = (float)(hh / 2);
    for (int k = 0; k < 3; k++)
        c[k] = (float)(E[k] + dc * D[k]);
    /* its nearest and farthest depth in the view's frame, to be sure */
    ld dmax = -INFINITY;
    for (int q = 0; q < 8; q++) {
        ld dd = 0;
        for (int k = 0; k < 3; k++)
            dd += D[k] * ((ld)c[k] + ((q >> k) & 1 ? hv : -hv) - E[k]);
        dmax = dd > dmax ? dd : dmax;
    }
    if (!(dmax < r.wall_min))
        return r;
    satc_aabbs ab = {{&c[0], &c[1], &c[2], 0}, {&hv, &hv, &hv, 0}};
    satc_batch b = {.form = SATC_FORM_AABB, .aabb = ab};
    for (int mode = 0; mode < 2; mode++) {
        uint8_t cls = 0;
        satc_results res = {NULL, &cls, NULL, 0};
        if (satc_cull_occluded(&p, &b, 0, 1, (satc_mode)mode, &res, NULL, NULL) == SATC_OK &&
            cls == SATC_OCCLUDED)
            r.occluded = 1;
    }
    return r;
}

/* ---- a reversed infinite-far float image of a very far wall ---- */

static void test_reversed_far(void)
{
    setup s = {0};
    s.rev = 1, s.inf = 1, s.rh = 1, s.fmt = SATC_DEPTH_FORMAT_FLOAT;
    s.n = 0.01f, s.f = 1, s.fovy = 1, s.aspect = 16.0f / 9;
    make_matrix(&s);
    satc_frustum view;
    CHECK(satc_frustum_from_matrix(&view, s.m, SATC_MATRIX_COLUMN_MAJOR | conv_of(&s)) == SATC_OK,
          "reversed far: view");
    satc_pyramid p;
    satc_pyramid_init(&p, &view, PW, PH, g_store, satc_pyramid_bytes(PW, PH));
    float img[IW * IH], x = 0x1.010c04p-40f;
    for (uint32_t i = 0; i < IW * IH; i++)
        img[i] = x;
    satc_depth_image di = {img, IW, IH, IW * 4, SATC_DEPTH_FORMAT_FLOAT, conv_of(&s), 0.01f, 0};
    CHECK(satc_pyramid_fill(&p, &di) == SATC_OK, "reversed far: fill");
    ld own = (ld)0.01f / x; /* the stored value's own depth, n / z */
    size_t low = 0;
    for (uint32_t i = 0; i < PW * PH; i++)
        low += !((ld)p.depth[i] >= own);
    CHECK(low == 0, "reversed far: %zu texels nearer than the stored value's depth %.9Lg (%.9g)",
          low, own, p.depth[0]);
    /* a box 1e-5 of the depth in front */
    float c[3] = {0, 0, (float)(-own * (1 - 2e-5L))}, hv = (float)(own * 5e-6L);
    satc_aabbs ab = {{&c[0], &c[1], &c[2], 0}, {&hv, &hv, &hv, 0}};
    satc_batch b = {.form = SATC_FORM_AABB, .aabb = ab};
    for (int mode = 0; mode < 2; mode++) {
        uint8_t cls = 0;
        satc_results res = {NULL, &cls, NULL, 0};
        satc_status st = satc_cull_occluded(&p, &b, 0, 1, (satc_mode)mode, &res, NULL, NULL);
        CHECK(st == SATC_OK && cls != SATC_OCCLUDED && cls != SATC_OUTSIDE,
              "reversed far: a box in front of the wall: status %d class %u (mode %d)", st, cls,
              mode);
    }
}

/* ---- D3D depth from a float right-handed matrix, near the far plane ---- */

static void test_far_plane_case(void)
{
    for (int um = 0; um < 2; um++) {
        setup s = {0};
        s.rh = 1, s.fmt = SATC_DEPTH_FORMAT_FLOAT, s.n = 0.1f, s.f = 2000, s.fovy = 1;
        s.aspect = 16.0f / 9, s.use_matrix = um;
        make_matrix(&s);
        float fv;
        render(&s, 1996.1969f, &fv);
        CHECK(fv == 0x1.fffffap-1f, "far plane: stored %a", fv);
        result r = run_case(&s, 1996.1969f, 0.3);
        CHECK(r.st == SATC_OK && r.low == 0 && !r.occluded,
              "far plane (%s): status %d, %zu texels nearer than the wall %.7Lg (texel %.7g), "
              "box 0.3 in front %s",
              um ? "matrix" : "near/far", r.st, r.low, r.wall_min, r.texel,
              r.occluded ? "OCCLUDED" : "visible");
    }
}

/* ---- linear depth: one unit farther, like every format ---- */

static void test_linear_margin(void)
{
    satc_camera cam = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, -0.8f, 0.8f, -0.45f, 0.45f,
                       0.25f, 100.0f, 0};
    satc_frustum f;
    satc_frustum_from_camera(&f, &cam);
    satc_pyramid p;
    satc_pyramid_init(&p, &f, PW, PH, g_store, satc_pyramid_bytes(PW, PH));
    const float vals[4] = {0.3f, 7.25f, 99.0f, 1e30f};
    for (int k = 0; k < 4; k++) {
        float img[IW * IH];
        for (uint32_t i = 0; i < IW * IH; i++)
            img[i] = vals[k];
        satc_depth_image di = {img, IW, IH, IW * 4, SATC_DEPTH_FORMAT_LINEAR, 0, 0, 0};
        CHECK(satc_pyramid_fill(&p, &di) == SATC_OK, "linear: fill");
        size_t bad = 0;
        for (uint32_t i = 0; i < PW * PH; i++)
            bad += p.depth[i] != nextafterf(vals[k], INFINITY);
        CHECK(bad == 0, "linear %g: %zu texels not one unit farther (%a)", vals[k], bad,
              p.depth[0]);
    }
    float img[IW * IH];
    for (uint32_t i = 0; i < IW * IH; i++)
        img[i] = INFINITY;
    satc_depth_image di = {img, IW, IH, IW * 4, SATC_DEPTH_FORMAT_LINEAR, 0, 0, 0};
    CHECK(satc_pyramid_fill(&p, &di) == SATC_OK && p.depth[0] == INFINITY, "linear: +Inf");
}

/* ---- slanted surfaces between pixel centers ---- */

/* A plane sg * (L or U).X = 3 (a wall, a floor or a ceiling) rendered
 * exactly at pixel centers as linear depth, filled at image and pyramid
 * sizes whose texel edges fall anywhere between pixel centers: no texel
 * may be nearer than the plane's farthest point over it. */
static void test_slanted(int cases)
{
    satc_camera cam = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, -0.8f, 0.8f, -0.45f, 0.45f,
                       0.25f, 1000.0f, 0};
    satc_frustum f;
    satc_frustum_from_camera(&f, &cam);
    float *st = aligned_alloc(64, (satc_pyramid_bytes(512, 256) + 63) / 64 * 64);
    float *img = malloc(sizeof(float) * 1500 * 900);
    size_t bad = 0, fin = 0;
    double worst = 0;
    for (int k = 0; k < cases; k++) {
        uint32_t iw = k == 0 ? 1280 : 100 + (uint32_t)(urand() * 1400);
        uint32_t ih = k == 0 ? 720 : 60 + (uint32_t)(urand() * 840);
        uint32_t W = k == 0 ? 512 : 64 + (uint32_t)(urand() * 449);
        uint32_t H = k == 0 ? 256 : 32 + (uint32_t)(urand() * 225);
        int ax = k & 1, sg = k & 2 ? -1 : 1;
        const double v0 = ax ? f.y0 : f.x1, dv = ax ? (double)f.y1 - f.y0 : (double)f.x0 - f.x1;
        for (uint32_t y = 0; y < ih; y++)
            for (uint32_t x = 0; x < iw; x++) {
                double sl = sg * (ax ? v0 + dv * (y + 0.5) / ih : v0 + dv * (x + 0.5) / iw);
                double t = sl > 0 ? 3 / sl : INFINITY;
                float v = (float)t;
                img[y * iw + x] = (double)v < t ? nextafterf(v, INFINITY) : v;
            }
        satc_pyramid p;
        satc_pyramid_init(&p, &f, W, H, st, satc_pyramid_bytes(W, H));
        satc_depth_image di = {img, iw, ih, iw * 4, SATC_DEPTH_FORMAT_LINEAR, 0, 0, 0};
        CHECK(satc_pyramid_fill(&p, &di) == SATC_OK, "slanted: fill");
        for (uint32_t j = 0; j < H; j++)
            for (uint32_t i = 0; i < W; i++) {
                uint32_t c = ax ? j : i, n = ax ? H : W;
                double e0 = sg * (v0 + dv * c / n), e1 = sg * (v0 + dv * (c + 1) / n);
                double mn = e0 < e1 ? e0 : e1;
                float T = p.depth[j * W + i];
                if (!(mn > 0) || isinf(T))
                    continue;
                fin++;
                if ((double)T < 3 / mn) {
                    bad++;
                    worst = fmax(worst, 3 / mn / T - 1);
                }
            }
    }
    printf("slanted planes: %zu of %zu finite texels nearer than the plane over them (by up to "
           "%.2e)\n", bad, fin, worst);
    CHECK(bad == 0 && fin > 0, "slanted planes: %zu texels nearer than the plane", bad);
    free(img), free(st);
}

/* ---- scratch sizes: an unknown order gets 0 ---- */

static void test_scratch_bytes(void)
{
    CHECK(satc_depth_scratch_bytes(1, SATC_SORT_NONE) > 0, "scratch: none");
    CHECK(satc_depth_scratch_bytes(1000, SATC_SORT_32) > satc_depth_scratch_bytes(1000, SATC_SORT_NONE),
          "scratch: 32");
    const unsigned bad[4] = {3, 7, 255, 0x80000000u};
    for (int k = 0; k < 4; k++)
        CHECK(satc_depth_scratch_bytes(1, bad[k]) == 0 &&
                  satc_depth_scratch_bytes(1000, bad[k]) == 0,
              "scratch: sort %u gives %zu", bad[k], satc_depth_scratch_bytes(1, bad[k]));
}

/* ---- random set-ups ---- */

static const int k_fmts[] = {SATC_DEPTH_FORMAT_FLOAT, SATC_DEPTH_FORMAT_FLOAT_NDC,
                             SATC_DEPTH_FORMAT_UNORM16, SATC_DEPTH_FORMAT_UNORM24,
                             SATC_DEPTH_FORMAT_UNORM24_HIGH, SATC_DEPTH_FORMAT_UNORM32};

static void test_random(long ncases)
{
    long cases = 0, bad_texel = 0, bad_box = 0, skipped = 0, boxes = 0;
    long per_conv[16][2] = {{0}}, n_inf[16] = {0};
    double loose[16] = {0}; /* the largest texel / wall - 1 of finite texels */
    for (long k = 0; k < ncases; k++) {
        setup s = {0};
        s.gl = urand() < 0.5, s.rev = urand() < 0.5, s.rh = urand() < 0.5;
        s.ortho = urand() < 0.15;
        s.inf = !s.ortho && urand() < 0.3;
        s.fmt = k_fmts[(int)(urand() * 6)];
        s.gpu_float = urand() < 0.5, s.float_matrix = urand() < 0.5, s.use_matrix = urand() < 0.5;
        s.fovy = (float)(0.2 + 2.3 * urand()), s.aspect = (float)(0.5 + 2.5 * urand());
        double n = pow(10, -3 + 4 * urand());
        double ratio = s.inf ? pow(10, 12 * urand()) : pow(10, 0.1 + 6.9 * urand());
        s.n = (float)n;
        s.f = s.inf ? 1 : (float)(n * ratio);
        if (s.ortho)
            s.fovy = (float)(pow(10, 2 * urand()) * s.n);
        make_matrix(&s);
        /* a wall depth: spread over the range, many near the far end */
        double u = urand(), span = s.inf ? ratio : (double)s.f / s.n;
        double frac = u < 0.5 ? 1 - pow(urand(), 4) * 0.5 : urand();
        float d = (float)(s.n * pow(span, frac));
        if (!s.inf && d > s.f)
            d = s.f;
        if (s.ortho)
            d = (float)(s.n + (s.f - s.n) * (1 - pow(urand(), 3)));
        if (!(d > s.n * 1.01f)) {
            skipped++;
            continue;
        }
        double gap = d * pow(10, -7 + 4 * urand());
        result r = run_case(&s, d, gap);
        if (r.st != SATC_OK) {
            skipped++;
            continue;
        }
        cases++;
        boxes += 1;
        int bt = r.low != 0, bb = r.occluded;
        bad_texel += bt, bad_box += bb;
        unsigned ci = (unsigned)(s.gl | s.rev << 1 | s.inf << 2 | s.ortho << 3);
        per_conv[ci][0]++, per_conv[ci][1] += bt || bb;
        if (isinf(r.texel))
            n_inf[ci]++;
        else if ((double)(r.texel / r.wall_min - 1) > loose[ci])
            loose[ci] = (double)(r.texel / r.wall_min - 1);
        /* float depth of D3D's reversed range keeps its precision to 1e12 */
        if (!s.gl && s.rev && !s.ortho && s.fmt == SATC_DEPTH_FORMAT_FLOAT &&
            (s.inf || d < 0.5f * s.f))
            CHECK(r.texel <= r.wall_min * (1 + 0x1p-18L), "reversed float: texel %.9g, wall %.9Lg",
                  r.texel, r.wall_min);
        if ((bt || bb) && bad_texel + bad_box < 8)
            printf("  %s%s%s%s %s fmt %d gpu_float %d float_matrix %d matrix %d n %a f %a d %a "
                   "gap %g: %zu texels nearer (texel %.9g, wall %.9Lg), box %s\n",
                   s.gl ? "GL" : "D3D", s.rev ? " reversed" : "", s.inf ? " infinite" : "",
                   s.ortho ? " ortho" : "", s.rh ? "RH" : "LH", s.fmt, s.gpu_float,
                   s.float_matrix, s.use_matrix, s.n, s.f, d, gap, r.low, r.texel, r.wall_min,
                   bb ? "OCCLUDED" : "visible");
    }
    printf("fill from rendered depth: %ld cases (%ld set-ups skipped), %ld with a texel nearer "
           "than the wall, %ld of %ld boxes in front occluded\n",
           cases, skipped, bad_texel, bad_box, boxes);
    for (unsigned ci = 0; ci < 16; ci++)
        if (per_conv[ci][0])
            printf("  %s%s%s%s: %ld cases, %ld failed, %ld +Inf, finite texels at most %.3g "
                   "farther\n", ci & 1 ? "GL" : "D3D", ci & 2 ? " reversed" : "",
                   ci & 4 ? " infinite" : "", ci & 8 ? " ortho" : "", per_conv[ci][0],
                   per_conv[ci][1], n_inf[ci], loose[ci]);
    CHECK(bad_texel == 0 && bad_box == 0 && cases > ncases / 2,
          "fill from rendered depth: %ld texel and %ld box failures in %ld cases", bad_texel,
          bad_box, cases);
}

int main(int argc, char **argv)
{
    int lng = argc > 1 && !strcmp(argv[1], "--long");
    g_store = aligned_alloc(64, (satc_pyramid_bytes(PW, PH) + 63) / 64 * 64);
    test_reversed_far();
    test_far_plane_case();
    test_linear_margin();
    test_scratch_bytes();
    test_slanted(lng ? 200 : 24);
    test_random(lng ? 150000 : 20000);
    free(g_store);
    printf("%d passed, %d failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
