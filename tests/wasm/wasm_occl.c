/* The wasm cross-check's occlusion cases: the depth pyramid's set-up
 * (satc_pyramid_init, _clear, _fill from depth buffers of every format
 * and convention), the occluder rasterizer (batches of every form, also with
 * merged coverage into layers partly filled already; meshes
 * with 16- and 32-bit indices or none), the occlusion test in the cull
 * (satc_cull_occluded, satc_cull_views_occluded), each with bad inputs:
 * a status code and nothing written. */
#include <math.h>
#include <stdlib.h>

#include "wasm_image.h"

static char name[256];
static unsigned long raster_drew, raster_cases, occl_hidden, occl_culls, cov_cases, cov_changed;

/* A pyramid over view in the arena (level 0 +Inf), native and wasm32. */
typedef struct pyr {
    satc_pyramid p;
    unsigned char *w; /* the wasm32 struct */
} pyr;

static pyr make_pyr(const satc_frustum *view, uint32_t w, uint32_t h)
{
    pyr r;
    size_t bytes = satc_pyramid_bytes(w, h);
    float *d = alloc(bytes);
    if (satc_pyramid_init(&r.p, view, w, h, d, bytes) != SATC_OK)
        exit(3);
    r.w = w_pyramid(&r.p);
    return r;
}

/* Pyramids the occluders are drawn into: of a random size, or on grid
 * scenes 64 x 32 or 128 x 64, whose texel edges fall on the boxes' 1/8
 * grid (the grid cameras' bounds are multiples of 1/2): exact ties in
 * the coverage tests. */
static int on_grid;
static pyr raster_pyr(const satc_frustum *view)
{
    uint32_t w = 64 + (uint32_t)(scn_next(&R) % 64), h = 32 + (uint32_t)(scn_next(&R) % 32);
    if (on_grid)
        w = w % 2 ? 64 : 128, h = w / 2;
    return make_pyr(view, w, h);
}

/* The view depth D.(c - E) of the scene's box centers: a quantile. */
static float depth_quantile(const satc_camera *cam, size_t n, double q)
{
    float *z = malloc(n * sizeof *z);
    for (size_t i = 0; i < n; i++) {
        double d = 0;
        for (int k = 0; k < 3; k++)
            d += (double)cam->dir[k] * (bc(i, k) - cam->origin[k]);
        z[i] = (float)d;
    }
    for (size_t i = 1; i < n; i++) /* insertion sort: n is small */
        for (size_t j = i; j > 0 && z[j - 1] > z[j]; j--) {
            float t = z[j];
            z[j] = z[j - 1], z[j - 1] = t;
        }
    float v = z[(size_t)(q * (double)(n - 1))];
    free(z);
    return v;
}

/* ---- satc_pyramid_init and _clear ---- */

static void case_init(const satc_frustum *view0, uint32_t w, uint32_t h, int bad)
{
    reset();
    satc_frustum *view = alloc(sizeof *view);
    *view = *view0;
    size_t bytes = satc_pyramid_bytes(w, h) ? satc_pyramid_bytes(w, h) : 4096;
    unsigned char *st = memset(alloc(bytes + 8), 0xA5, bytes + 8);
    unsigned char *wp = memset(alloc(W_PYRAMID_BYTES), 0xA5, W_PYRAMID_BYTES);
    float *storage = (float *)st;
    if (bad == 1)
        bytes -= 4; /* short */
    if (bad == 2)
        storage = (float *)(st + 2); /* misaligned */
    if (bad == 3)
        storage = NULL;
    if (bad == 4)
        view->kind = 77; /* not a built frustum */
    satc_pyramid p;
    memset(&p, 0xA5, sizeof p);
    snap();
    int s = satc_pyramid_init(&p, view, w, h, storage, bytes);
    if (s == SATC_OK) /* the struct as wasm32 lays it out */
        w_pyramid_at(wp, &p);
    snprintf(name, sizeof name, "pyramid_init %ux%u bad %d", (unsigned)w, (unsigned)h, bad);
    emit(name, "satc_pyramid_init", s, 6,
         (arg[]){Pt(wp), Pt(view), I(w), I(h), storage ? Pt(storage) : I(0), I((uint32_t)bytes)});
}

static void case_clear(const satc_frustum *view, int bad)
{
    reset();
    pyr r = make_pyr(view, 64 + (uint32_t)(scn_next(&R) % 40), 32 + (uint32_t)(scn_next(&R) % 20));
    size_t n = satc_pyramid_bytes(r.p.width, r.p.height) / 4;
    for (size_t i = 0; i < n; i++)
        r.p.depth[i] = (float)U01();
    if (bad)
        put32(r.w + 1356 + 8, 99); /* levels: not set up by satc_pyramid_init */
    satc_pyramid p = r.p;
    if (bad)
        p.levels = 99;
    snap();
    int s = satc_pyramid_clear(&p);
    snprintf(name, sizeof name, "pyramid_clear bad %d", bad);
    emit(name, "satc_pyramid_clear", s, 1, (arg[]){Pt(r.w)});
}

/* ---- satc_pyramid_fill ---- */

static const size_t px_bytes[8] = {0, 4, 4, 4, 2, 4, 4, 4};

/* An image whose pixel u in [0, 1] is the window depth from the near end
 * (5 % exactly the far end: the clear value), encoded as fmt with conv. */
static void case_fill(const satc_camera *cam, const satc_frustum *view, int fmt, unsigned conv, int bad)
{
    reset();
    pyr r = make_pyr(view, 64 + (uint32_t)(scn_next(&R) % 70), 32 + (uint32_t)(scn_next(&R) % 40));
    uint32_t iw = 1 + (uint32_t)(scn_next(&R) % 150), ih = 1 + (uint32_t)(scn_next(&R) % 90);
    if (bad)
        iw = 1 + iw % 9, ih = 1 + ih % 7;
    size_t pb = px_bytes[fmt], rb = iw * pb + (scn_next(&R) % 3) * 4;
    unsigned char *img = alloc(rb * ih + 8);
    int rev = (conv & SATC_DEPTH_REVERSED) != 0, neg = !(conv & SATC_DEPTH_ZERO_TO_ONE);
    float nz = cam->n, fz = isinf(cam->f) ? 2 * cam->n + 1000 : cam->f;
    for (uint32_t y = 0; y < ih; y++)
        for (uint32_t x = 0; x < iw; x++) {
            unsigned char *q = img + y * rb + x * pb;
            double u = scn_next(&R) % 20 == 0 ? 1.0 : pow(U01(), 0.25);
            double win = rev ? 1 - u : u; /* window depth in [0, 1] */
            uint32_t rnd = (uint32_t)scn_next(&R);
            switch (fmt) {
            case SATC_DEPTH_FORMAT_FLOAT: { float v = (float)win; memcpy(q, &v, 4); break; }
            case SATC_DEPTH_FORMAT_FLOAT_NDC: { float v = (float)(neg ? 2 * win - 1 : win); memcpy(q, &v, 4); break; }
            case SATC_DEPTH_FORMAT_LINEAR: {
                float v = u == 1.0 ? INFINITY : (float)(nz + (fz - nz) * u);
                memcpy(q, &v, 4);
                break;
            }
            case SATC_DEPTH_FORMAT_UNORM16: { uint16_t v = (uint16_t)lround(win * 65535); memcpy(q, &v, 2); break; }
            case SATC_DEPTH_FORMAT_UNORM24: put32(q, (uint32_t)lround(win * 16777215) | (rnd << 24)); break;
            case SATC_DEPTH_FORMAT_UNORM24_HIGH: put32(q, ((uint32_t)lround(win * 16777215) << 8) | (rnd & 255)); break;
            case SATC_DEPTH_FORMAT_UNORM32: put32(q, (uint32_t)llround(win * 4294967295.0)); break;
            }
        }
    unsigned char *data = img;
    int f = fmt;
    if (bad == 1 && pb == 4) { /* a NaN pixel (float formats), else a row too short */
        if (fmt <= 3)
            put32(img + (ih / 2) * rb + (iw / 2) * pb, 0x7FC00000u);
        else
            rb = iw * pb - 1;
    }
    if (bad == 1 && pb == 2)
        rb = iw * pb - 2;
    if (bad == 2)
        data = img + 1;
    if (bad == 3)
        f = 9;
    if (bad == 4)
        iw = 0;
    if (bad == 5)
        nz = cam->orthographic ? fz + 1 : -1; /* near: not as stated */
    if (bad == 6)
        nz = NAN;
    satc_depth_image im = {data, iw, ih, rb, (satc_depth_format)f, conv, nz, fz};
    unsigned char *wi = alloc(32);
    putptr(wi, data);
    put32(wi + 4, iw), put32(wi + 8, ih), put32(wi + 12, (uint32_t)rb), put32(wi + 16, (uint32_t)f);
    put32(wi + 20, conv);
    memcpy(wi + 24, &nz, 4), memcpy(wi + 28, &fz, 4);
    snap();
    int s = satc_pyramid_fill(&r.p, &im);
    snprintf(name, sizeof name, "pyramid_fill format %d conventions %u image %ux%u bad %d", fmt, conv,
             (unsigned)iw, (unsigned)ih, bad);
    emit(name, "satc_pyramid_fill", s, 2, (arg[]){Pt(r.w), Pt(wi)});
    if ((bad && bad != 3) || fmt == SATC_DEPTH_FORMAT_LINEAR)
        return;
    /* the same image through the projection matrix's own depth entries
     * (bad: unknown layout bits) */
    double lo = neg ? -1 : 0, zn = rev ? 1 : lo, zf = rev ? lo : 1, P, Q;
    int inf = (conv & SATC_DEPTH_INFINITE_FAR) != 0;
    float *m = alloc(64);
    memset(m, 0, 64);
    m[0] = m[5] = 1;
    if (cam->orthographic) {
        Q = (zf - zn) / ((double)fz - nz), P = zn - Q * nz;
        m[10] = (float)-Q, m[14] = (float)P, m[15] = 1;
    } else {
        Q = inf ? (zn - zf) * nz : (zn - zf) * nz * fz / ((double)fz - nz);
        P = inf ? zf : zf - Q / fz;
        m[10] = (float)-P, m[14] = (float)Q, m[11] = -1;
    }
    unsigned layout = bad ? 2u : 0u;
    snap();
    s = satc_pyramid_fill_matrix(&r.p, &im, m, layout);
    snprintf(name, sizeof name, "pyramid_fill_matrix format %d conventions %u image %ux%u bad %d", fmt,
             conv, (unsigned)iw, (unsigned)ih, bad);
    emit(name, "satc_pyramid_fill_matrix", s, 4, (arg[]){Pt(r.w), Pt(wi), Pt(m), I(layout)});
}

/* ---- the occluder rasterizer ---- */

/* The wasm32 satc_raster_options: four 4-byte fields, then the
 * coverage pointer (4 bytes there). */
static unsigned char *w_opts(const satc_raster_options *o)
{
    unsigned char *w = alloc(24);
    memset(w, 0, 24);
    memcpy(w, o, 16);
    putptr(w + 16, o->coverage);
    return w;
}

/* Options: NULL, a small-occluder threshold, a tile of rows, back faces
 * culled, merged coverage (a layer cleared for p in the arena); bad
 * ones. */
static const satc_raster_options *pick_opts(const satc_pyramid *p, int k, int bad, satc_raster_options *o)
{
    memset(o, 0, sizeof *o);
    if (k == 4) {
        size_t bytes = satc_coverage_bytes(p->width, p->height);
        o->coverage = alloc(bytes);
        if (satc_coverage_clear(o->coverage, bytes, p) != SATC_OK)
            exit(3);
    }
    if (k == 1)
        o->min_texels = (float)(scn_next(&R) % 12);
    if (k == 2)
        o->row0 = (uint32_t)(scn_next(&R) % (p->height / 2)), o->row1 = o->row0 + 1 + (uint32_t)(scn_next(&R) % (p->height / 2));
    if (k == 3)
        o->flags = SATC_RASTER_CULL_BACK | (scn_next(&R) % 2 ? SATC_RASTER_FRONT_CW : 0);
    if (bad == 1)
        o->min_texels = NAN;
    if (bad == 2)
        o->row0 = 5, o->row1 = 3;
    if (bad == 3)
        o->flags = 64;
    if (bad == 4)
        o->row1 = p->height + 1;
    return k == 0 && !bad ? NULL : o;
}

/* Level 0 texels the call lowered (native), for the summary line. */
static int drew(const float *before, const satc_pyramid *p)
{
    for (size_t i = 0; i < (size_t)p->width * p->height; i++)
        if (memcmp(&before[i], &p->depth[i], 4))
            return 1;
    return 0;
}

static void case_raster(const satc_frustum *view, int form, int layout, size_t n, int k, int bad)
{
    reset();
    pyr r = raster_pyr(view);
    if (scn_next(&R) % 2) /* something already drawn: the writer keeps the least */
        for (size_t i = 0; i < (size_t)r.p.width * r.p.height; i++)
            if (scn_next(&R) % 3 == 0)
                r.p.depth[i] = (float)scn_uniform(&R, 0, 60);
    satc_batch b = make_batch(form, layout, n, (layout + form) % 3 == 0 ? 0.03 : 0.0);
    if (bad == 5)
        b.form = (satc_form)9;
    void *wb = w_batch(&b);
    satc_raster_options o;
    const satc_raster_options *op = pick_opts(&r.p, k, bad, &o);
    unsigned char *wo = op ? w_opts(op) : NULL;
    size_t first = scn_next(&R) % 20, count = n > first ? n - first - scn_next(&R) % (n - first + 1) : 0;
    if (bad == 6)
        first = SIZE_MAX - 2, count = 5;
    /* merged coverage: some boxes drawn first, natively, so the call
     * merges into layers partly filled already */
    if (k == 4 && !bad && n > 1)
        satc_pyramid_rasterize(&r.p, &b, 0, n / 2, op);
    float *before = malloc((size_t)r.p.width * r.p.height * 4);
    memcpy(before, r.p.depth, (size_t)r.p.width * r.p.height * 4);
    size_t cb = op && op->coverage ? satc_coverage_bytes(r.p.width, r.p.height) : 0;
    unsigned char *cov_before = cb ? malloc(cb) : NULL;
    if (cb)
        memcpy(cov_before, op->coverage, cb);
    snap();
    int s = satc_pyramid_rasterize(&r.p, &b, first, count, op);
    raster_cases++, raster_drew += drew(before, &r.p);
    if (cb) {
        cov_cases++;
        cov_changed += memcmp(cov_before, op->coverage, cb) != 0;
    }
    free(before), free(cov_before);
    snprintf(name, sizeof name, "pyramid_rasterize %d layout %d first %zu count %zu options %d bad %d", form,
             layout, first, count, k, bad);
    emit(name, "satc_pyramid_rasterize", s, 5,
         (arg[]){Pt(r.w), Pt(wb), I((uint32_t)first), I((uint32_t)count), wo ? Pt(wo) : I(0)});
}

/* The faces of boxes [0, nb) as triangles: 8 corners, 12 triangles each,
 * wound outward counter-clockwise. */
static const uint8_t box_tris[12][3] = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                                        {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};

static void case_triangles(const satc_frustum *view, size_t nb, int bits, int lay, int k, int bad)
{
    reset();
    pyr r = raster_pyr(view);
    size_t vstride = 12 + 4 * (scn_next(&R) % 3), nv = bits ? 8 * nb : 36 * nb, nt = 12 * nb;
    unsigned char *pos = alloc(nv * vstride + 16);
    /* model space: world = 2 x + t (a matrix of layout lay), or world */
    float t[3] = {1.5f, -0.75f, 2.25f}, sc = lay >= 0 ? 2.0f : 1.0f;
    float corner[8][3];
    uint16_t *i16 = bits == 16 ? alloc(2 * 3 * nt + 8) : NULL;
    uint32_t *i32 = bits == 32 ? alloc(4 * 3 * nt + 8) : NULL;
    for (size_t bx = 0; bx < nb; bx++) {
        for (int c = 0; c < 8; c++)
            for (int q = 0; q < 3; q++) {
                float w = bc(bx, q);
                for (int j = 0; j < 3; j++)
                    w += ((c >> j) & 1 ? 1.0f : -1.0f) * ba(bx, j, q) * be(bx, j);
                corner[c][q] = lay >= 0 ? (w - t[q]) / sc : w;
            }
        for (int tr = 0; tr < 12; tr++)
            for (int v = 0; v < 3; v++) {
                size_t idx = bits ? 8 * bx + box_tris[tr][v] : 36 * bx + 3 * (size_t)tr + (size_t)v;
                memcpy(pos + idx * vstride, corner[box_tris[tr][v]], 12);
                if (i16)
                    i16[36 * bx + 3 * (size_t)tr + (size_t)v] = (uint16_t)idx;
                if (i32)
                    i32[36 * bx + 3 * (size_t)tr + (size_t)v] = (uint32_t)idx;
            }
    }
    float *mat = NULL;
    if (lay >= 0) {
        mat = alloc(64);
        memset(mat, 0, 64);
        for (int rr = 0; rr < 3; rr++)
            for (int c = 0; c < 4; c++) {
                float v = c == 3 ? t[rr] : rr == c ? sc : 0.0f;
                mat[lay == SATC_AFFINE_ROWS ? rr * 4 + c : lay == SATC_AFFINE_4X3_COLUMN_MAJOR ? c * 3 + rr : c * 4 + rr] = v;
            }
        if (lay == SATC_AFFINE_4X4_COLUMN_MAJOR)
            mat[15] = 1;
    }
    satc_mesh m = {(const float *)pos, vstride, nv, i16 ? (const void *)i16 : (const void *)i32,
                   (unsigned)bits, nt, mat, lay >= 0 ? (satc_affine)lay : SATC_AFFINE_ROWS};
    if (bad == 1 && bits == 16)
        i16[3 * nt - 2] = (uint16_t)nv; /* an index past the vertices */
    if (bad == 1 && bits == 32)
        i32[3 * nt - 2] = (uint32_t)nv;
    if (bad == 1 && !bits)
        m.vertex_count = nv - 1;
    if (bad == 2)
        m.index_bits = bits ? 8 : 0, m.stride = bits ? m.stride : 10;
    if (bad == 3)
        m.positions = NULL;
    if (bad == 4)
        m.layout = (satc_affine)7, m.matrix = mat ? mat : (float *)pos;
    if (bad == 5)
        m.positions = (const float *)(pos + 2);
    unsigned char *wm = alloc(32);
    putptr(wm, m.positions), put32(wm + 4, (uint32_t)m.stride), put32(wm + 8, (uint32_t)m.vertex_count);
    putptr(wm + 12, m.indices), put32(wm + 16, m.index_bits), put32(wm + 20, (uint32_t)m.triangle_count);
    putptr(wm + 24, m.matrix), put32(wm + 28, (uint32_t)m.layout);
    satc_raster_options o;
    const satc_raster_options *op = pick_opts(&r.p, k, 0, &o);
    unsigned char *wo = op ? w_opts(op) : NULL;
    float *before = malloc((size_t)r.p.width * r.p.height * 4);
    memcpy(before, r.p.depth, (size_t)r.p.width * r.p.height * 4);
    snap();
    int s = satc_pyramid_rasterize_triangles(&r.p, &m, op);
    raster_cases++, raster_drew += drew(before, &r.p);
    free(before);
    snprintf(name, sizeof name, "pyramid_rasterize_triangles boxes %zu index bits %d matrix %d options %d bad %d",
             nb, bits, lay, k, bad);
    emit(name, "satc_pyramid_rasterize_triangles", s, 3, (arg[]){Pt(r.w), Pt(wm), wo ? Pt(wo) : I(0)});
}

/* ---- the occlusion test in the cull ---- */

/* A pyramid for culls: a linear depth image around the scene's median
 * depth (blocks of it nearer, some +Inf), then a few of its boxes drawn
 * as occluders, built. */
static pyr occl_pyramid(const satc_camera *cam, const satc_frustum *view, size_t n)
{
    pyr r = raster_pyr(view);
    float lo = depth_quantile(cam, n, 0.2), hi = depth_quantile(cam, n, 0.8);
    enum { IW = 24, IH = 16 };
    float img[IH][IW];
    for (int y = 0; y < IH; y++)
        for (int x = 0; x < IW; x++)
            img[y][x] = scn_next(&R) % 6 == 0 ? INFINITY : (float)scn_uniform(&R, lo, hi);
    satc_depth_image im = {img, IW, IH, IW * 4, SATC_DEPTH_FORMAT_LINEAR, 0, 0, 0};
    if (satc_pyramid_fill(&r.p, &im) != SATC_OK)
        exit(3);
    size_t keep = used;
    unsigned keeprel = nrel;
    satc_batch b = make_batch(SATC_FORM_OBB, 1, n < 24 ? n : 24, 0);
    if (satc_pyramid_rasterize(&r.p, &b, 0, n < 24 ? n : 24, NULL) != SATC_OK ||
        satc_pyramid_build(&r.p) != SATC_OK)
        exit(3);
    back_to(keep, keeprel); /* the pyramid's storage stays */
    return r;
}

static void case_occluded(const satc_camera *cam, const satc_frustum *view, int form, int layout, size_t n,
                          int mode, int bad)
{
    reset();
    pyr r = occl_pyramid(cam, view, n);
    int dpt = (int)(scn_next(&R) % 3); /* 1, 2: the depth per texel, a small or a large budget */
    if (dpt && satc_pyramid_set_test(&r.p, SATC_TEST_DEPTH_PER_TEXEL, dpt == 1 ? 7 : 4096) != SATC_OK)
        exit(3);
    w_pyramid_test(r.w, &r.p);
    satc_batch b = make_batch(form, layout, n, (layout + form) % 3 == 0 ? 0.03 : 0.0);
    int grp = (int)(scn_next(&R) % 3);
    if (grp)
        add_groups(&b, n, grp);
    void *wb = w_batch(&b);
    size_t first = scn_next(&R) % 31, count = n - first - scn_next(&R) % 9;
    int outs = 1 + (int)(scn_next(&R) % 7), want = (int)(scn_next(&R) % 4);
    satc_results res = outputs(count, outs);
    unsigned char *wr = w_results(&res);
    uint8_t *occ = want & 1 ? memset(alloc(count / 8 + 2), 0xA5, count / 8 + 2) : NULL;
    unsigned char *wn = want & 2 ? alloc(4) : NULL;
    size_t nocc = 0xA5A5A5A5u;
    if (wn)
        put32(wn, 0xA5A5A5A5u);
    unsigned char *wp = r.w;
    const satc_pyramid *pp = &r.p;
    satc_pyramid spoilt = r.p;
    if (bad == 1)
        spoilt.levels = 0, put32(r.w + 1356 + 8, 0), pp = &spoilt;
    if (bad == 2)
        pp = NULL, wp = NULL;
    snap();
    int s = satc_cull_occluded(pp, &b, first, count, (satc_mode)mode, &res, occ, wn ? &nocc : NULL);
    put32(wr + 12, (uint32_t)res.visible);
    if (wn)
        put32(wn, (uint32_t)nocc);
    if (s == SATC_OK && wn)
        occl_culls++, occl_hidden += nocc > 0;
    snprintf(name, sizeof name, "cull_occluded form %d layout %d %s groups %d first %zu count %zu outs %d want %d depth %d bad %d",
             form, layout, mode ? "exact" : "conservative", grp, first, count, outs, want, dpt, bad);
    emit(name, "satc_cull_occluded", s, 8,
         (arg[]){wp ? Pt(wp) : I(0), Pt(wb), I((uint32_t)first), I((uint32_t)count), I((uint32_t)mode), Pt(wr),
                 occ ? Pt(occ) : I(0), wn ? Pt(wn) : I(0)});
}

/* satc_cull_views_occluded: views[0] and views[2] with a pyramid, the
 * others frustum only; bad: a pyramid made for another view. */
static void case_views_occluded(const satc_camera *cam, const satc_frustum *views0, size_t nv, int form,
                                size_t n, int mode, int bad)
{
    reset();
    satc_frustum *views = alloc(nv * sizeof *views);
    memcpy(views, views0, nv * sizeof *views);
    const satc_pyramid *pyrs[4] = {0};
    static satc_pyramid keep[4];
    unsigned char *wpy = alloc(4 * nv);
    for (size_t v = 0; v < nv; v += 2) {
        pyr r = occl_pyramid(cam, &views[bad && v == 2 ? 0 : v], n);
        if (v == 0 && satc_pyramid_set_test(&r.p, SATC_TEST_DEPTH_PER_TEXEL, 4096) != SATC_OK)
            exit(3);
        w_pyramid_test(r.w, &r.p);
        keep[v] = r.p, pyrs[v] = &keep[v];
        putptr(wpy + 4 * v, r.w);
    }
    satc_batch b = make_batch(form, (int)(scn_next(&R) % 4), n, 0.0);
    void *wb = w_batch(&b);
    size_t first = scn_next(&R) % 31, count = n - first;
    void *masks = memset(alloc(count + 8), 0xA5, count + 8);
    uint32_t *idx[4];
    uint8_t *cls[4];
    size_t vis[4];
    unsigned char *widx = alloc(4 * nv), *wcls = alloc(4 * nv), *wvis = alloc(4 * nv);
    for (size_t v = 0; v < nv; v++) {
        idx[v] = v == 1 ? NULL : memset(alloc(4 * count + 4), 0xA5, 4 * count + 4);
        cls[v] = memset(alloc(count + 1), 0xA5, count + 1);
        putptr(widx + 4 * v, idx[v]), putptr(wcls + 4 * v, cls[v]);
        put32(wvis + 4 * v, 0xA5A5A5A5u);
        vis[v] = 0xA5A5A5A5u;
    }
    satc_view_results res = {masks, idx, cls, vis};
    unsigned char *wr = alloc(16);
    putptr(wr, masks), putptr(wr + 4, widx), putptr(wr + 8, wcls), putptr(wr + 12, wvis);
    snap();
    int s = satc_cull_views_occluded(views, pyrs, nv, &b, first, count, (satc_mode)mode, &res);
    for (size_t v = 0; v < nv; v++)
        put32(wvis + 4 * v, (uint32_t)vis[v]);
    snprintf(name, sizeof name, "cull_views_occluded views %zu form %d %s bad %d", nv, form,
             mode ? "exact" : "conservative", bad);
    emit(name, "satc_cull_views_occluded", s, 8,
         (arg[]){Pt(views), Pt(wpy), I((uint32_t)nv), Pt(wb), I((uint32_t)first), I((uint32_t)count),
                 I((uint32_t)mode), Pt(wr)});
}

void occl_cases(const satc_camera *cam, const satc_frustum *views, size_t n, int quick, int grid)
{
    on_grid = grid;
    const satc_frustum *view = &views[0];
    /* set-up: sizes at the ends of the range, and every bad input */
    static const uint32_t sz[][2] = {{64, 32}, {65, 33}, {2048, 32}, {64, 1024}, {63, 32}, {64, 1025}};
    for (int i = quick ? 4 : 0; i < 6; i++)
        case_init(view, sz[i][0], sz[i][1], 0);
    if (quick)
        case_init(view, 64 + (uint32_t)(scn_next(&R) % 100), 32 + (uint32_t)(scn_next(&R) % 60), 0);
    for (int bad = 1; bad <= 4; bad++)
        case_init(view, 64 + (uint32_t)(scn_next(&R) % 100), 32 + (uint32_t)(scn_next(&R) % 60), bad);
    case_clear(view, 0), case_clear(view, 1);
    /* depth buffers: every format, both NDC ranges, reversed, infinite
     * far (perspective only), top-down rows */
    for (int fmt = 1; fmt <= 7; fmt++)
        for (unsigned c = 0; c < 16; c++) {
            unsigned conv = (c & 1 ? SATC_DEPTH_ZERO_TO_ONE : 0) | (c & 2 ? SATC_DEPTH_REVERSED : 0) |
                            (c & 4 ? SATC_DEPTH_INFINITE_FAR : 0) | (c & 8 ? SATC_IMAGE_TOP_DOWN : 0);
            if (!(conv & SATC_DEPTH_INFINITE_FAR) != !isinf(cam->f) && !(c & 4 && fmt == 3))
                continue; /* the projection the camera has (linear depth ignores it) */
            if (quick && scn_next(&R) % 3)
                continue; /* a third of them; the first repetition has all */
            case_fill(cam, view, fmt, conv, 0);
        }
    for (int bad = 1; bad <= 6; bad++)
        case_fill(cam, view, 1 + (int)(scn_next(&R) % 7), isinf(cam->f) ? SATC_DEPTH_INFINITE_FAR : 0, bad);
    if (!cam->orthographic) /* the ortho camera's infinite far: flags */
        case_fill(cam, view, 1, SATC_DEPTH_INFINITE_FAR, 0);
    /* occluders: batches of every form, meshes */
    size_t nr = n < 80 ? n : 80;
    for (int form = 1; form <= 7; form++)
        for (int k = 0; k < 5; k++)
            if (k != 3)
                case_raster(view, form, (int)(scn_next(&R) % 4), nr, k, 0);
    for (int bad = 1; bad <= 6; bad++)
        case_raster(view, 1 + (int)(scn_next(&R) % 7), 1, nr, 0, bad);
    for (int bits = 0; bits <= 32; bits += 16)
        for (int lay = -1; lay <= 2; lay++)
            case_triangles(view, nr / 4, bits, lay, (int)(scn_next(&R) % 5), 0);
    for (int bad = 1; bad <= 5; bad++)
        case_triangles(view, 6, (int)(scn_next(&R) % 3) * 16, (int)(scn_next(&R) % 4) - 1, 0, bad);
    /* the cull with the pyramid: every form, both modes, outputs at random */
    size_t nc = n < 300 ? n : 300;
    for (int form = 1; form <= 7; form++)
        for (int mode = 0; mode < 2; mode++)
            case_occluded(cam, view, form, (int)(scn_next(&R) % 4), nc, mode, 0);
    case_occluded(cam, view, 2, 0, nc, 0, 1), case_occluded(cam, view, 2, 0, nc, 0, 2);
    for (int form = 1; form <= 7; form += 3)
        case_views_occluded(cam, views, 1 + (size_t)form / 2, form, nc, form % 2, 0);
    case_views_occluded(cam, views, 3, 2, nc, 0, 1);
}

void occl_summary(void)
{
    printf("wasm_cases: %lu of %lu rasterizer calls drew, %lu of %lu with merged coverage changed its layer, "
           "%lu of %lu occluded culls counted hidden volumes\n",
           raster_drew, raster_cases, cov_changed, cov_cases, occl_hidden, occl_culls);
}
