/* The rasterizer's drivers: argument checks, then each occluder set up
 * (raster/setup.c) and filled by the chosen path (raster/fill.c and the
 * SIMD fills). Nothing is written before every check has passed. */
#include "../core/volume_d.h"
#include "../occlusion/occlusion.h"
#include <string.h>

#include "raster.h"

/*
 * Occluder boxes: a volume of any form as a box that lies inside the
 * volume the caller described, for the rasterizer.
 * Bounds and the exact test use boxes grown outward past every rounding
 * (core/volume_d.c); an occluder needs the opposite: a box no larger
 * than the volume, or it would hide what lies just outside it.
 *
 * The box is c* + sum s_j H_j, |s_j| <= 1, about the exact center c* of
 * the described volume, with the H_j computed here inside it and c
 * within *cerr of c* in each world component (the setup's error model
 * takes the center's rounding; it needs no inside box for that).
 */

/* 1 / sqrt(3), lowered by 2^-20: a sphere's inscribed cube stays inside. */
#define INSCRIBED (0.57735026918962573 * (1.0 - 0x1p-20))

static const float *at(const float *p, size_t stride, size_t i)
{
    return (const float *)(const void *)((const char *)p + i * stride);
}

static void rd3(const satc_vec3s *v, size_t i, double out[3])
{
    out[0] = *at(v->x, v->stride, i);
    out[1] = *at(v->y, v->stride, i);
    out[2] = *at(v->z, v->stride, i);
}

/*
 * TRS: H*_j = R*_j X_j lh_j with R* = R(q) exactly (orthonormal columns),
 * X_j the exact scale (exp of a stored log scale) and lh the local half.
 * Here a_j = |sc_j lh_j| <= |X_j lh_j|: the linear scale is exact, a log
 * scale's satc_expf is lowered by twice its relative error. R in double
 * errs by below 2^-49 per entry (t = 2 / |q|^2 and each entry a few
 * roundings of values at most 2), so H_j = R_j a_j differs from a
 * multiple of H*_j no longer than it by E_j, |E_j|_2 < 2^-47 a_j with
 * the products' roundings. In H*'s own axes a point
 * sum s_j (1 - d_j) H_j has coordinate j within
 * (1 - d_j) + sum_k |E_k|_2 / a_j of 0, so d_j = 2^-44 sum_k a_k / a_j
 * keeps it inside. Boxes so thin that d_j > 1/2, a zero scale (the box
 * is flat and R's rounding tilts it out of its plane) and log scales
 * below -87 (satc_expf raises them) are not drawn.
 */
static int trs_box(const satc_batch *b, size_t i, double c[3], double H[3][3], double *cerr)
{
    const satc_trs *s = &b->trs;
    float qf[4], sf[3];
    satc_trs_quat(s, i, qf);
    satc_vec3s_get(&s->scale, i, sf);
    float n2f = ((qf[0] * qf[0] + qf[1] * qf[1]) + qf[2] * qf[2]) + qf[3] * qf[3];
    if (!(n2f >= SATC_QUAT_N2_MIN && n2f <= SATC_QUAT_N2_MAX))
        return 0;
    double R[3][3], lc[3], lh[3];
    if (!satc_trs_frame_d(s, i, qf, R, lc, lh))
        return 0;
    int lg = (s->format & SATC_TRS_LOG_SCALE) != 0;
    double sc[3], a[3];
    for (int j = 0; j < 3; j++) {
        if (lg && !(sf[j] >= SATC_EXP_LO))
            return 0;
        sc[j] = lg ? (double)satc_expf_ref(sf[j]) * (1.0 - 2.0 * SATC_EXP_REL_ERROR) : (double)sf[j];
        a[j] = fabs(sc[j] * lh[j]);
        if (!(a[j] > 0) || !isfinite(a[j]))
            return 0;
    }
    double p[3], lsum = 0;
    rd3(&s->position, i, p);
    for (int r = 0; r < 3; r++) {
        c[r] = p[r];
        for (int j = 0; j < 3; j++)
            c[r] += R[r][j] * sc[j] * lc[j];
    }
    /* c against c* = p + sum_j R*_j X_j lc_j: R's error, the scale's
     * (a log scale's sc within 4 SATC_EXP_REL_ERROR of X), the sums' */
    double cmag = fabs(p[0]) + fabs(p[1]) + fabs(p[2]);
    for (int j = 0; j < 3; j++) {
        double m = fabs(sc[j] * lc[j]);
        lsum += m * (0x1p-47 + (lg ? 4.0 * SATC_EXP_REL_ERROR : 0.0));
        cmag += 3.0 * m;
    }
    *cerr = lsum > 0 ? lsum + 0x1p-50 * cmag : 0.0;
    double asum = a[0] + a[1] + a[2];
    for (int j = 0; j < 3; j++) {
        double d = 0x1p-44 * asum / a[j];
        if (!(d <= 0.5))
            return 0;
        for (int r = 0; r < 3; r++)
            H[j][r] = R[r][j] * a[j] * (1.0 - d);
    }
    return 1;
}

/* Min/max: the midpoint and half width are exact in double unless the
 * two ends are 2^29 apart in magnitude; then the width is at least the
 * larger magnitude, the midpoint's rounding below 2^-52 of the half
 * width, and the half width lowered by 2^-48 keeps the box inside. */
static void minmax_box(double v, double w, double *c, double *h)
{
    double s = v + w, d = w - v;
    double sb = s - v, se = (v - (s - sb)) + (w - sb);
    double db = d - w, de = (w - (d - db)) + (-v - db);
    *c = 0.5 * s;
    *h = 0.5 * fabs(d);
    if (se != 0 || de != 0)
        *h *= 1.0 - 0x1p-48;
}

/* An instance (satc_instance_d): the center's three sums, each rounded
 * below 2^-53 of the magnitudes summed (cmag), make *cerr = 2^-50 cmag. */
static int instance_box(const satc_instances *s, size_t i, double c[3], double H[3][3],
                        double *cerr)
{
    double cmag;
    if (!satc_instance_d(s, i, c, H, &cmag))
        return 0;
    *cerr = 0x1p-50 * cmag;
    return 1;
}

/* The forms read directly (the double volume's other fields unused). */
int satc_occluder_box(const satc_batch *b, size_t i, double c[3], double H[3][3], double *cerr)
{
    double v[3], w[3];
    *cerr = 0;
    switch (b->form) {
    case SATC_FORM_TRS:
        return trs_box(b, i, c, H, cerr);
    case SATC_FORM_INSTANCES:
        return instance_box(&b->instances, i, c, H, cerr);
    case SATC_FORM_OBB:
        rd3(&b->obb.center, i, c);
        rd3(&b->obb.extent, i, w);
        for (int j = 0; j < 3; j++) {
            rd3(&b->obb.axis[j], i, v);
            for (int k = 0; k < 3; k++)
                H[j][k] = fabs(w[j]) * v[k];
        }
        return 1;
    case SATC_FORM_HALF_AXES: /* stored floats */
        rd3(&b->half_axes.center, i, c);
        for (int j = 0; j < 3; j++)
            rd3(&b->half_axes.axis[j], i, H[j]);
        return 1;
    default:
        break;
    }
    memset(H, 0, 9 * sizeof(double));
    switch (b->form) {
    case SATC_FORM_AABB:
        rd3(&b->aabb.center, i, c);
        rd3(&b->aabb.half, i, w);
        for (int j = 0; j < 3; j++)
            H[j][j] = fabs(w[j]);
        return 1;
    case SATC_FORM_MINMAX:
        rd3(&b->minmax.min, i, v);
        rd3(&b->minmax.max, i, w);
        for (int k = 0; k < 3; k++)
            minmax_box(v[k], w[k], &c[k], &H[k][k]);
        return 1;
    case SATC_FORM_SPHERES: {
        rd3(&b->spheres.center, i, c);
        double r = fabs((double)*at(b->spheres.radius.p, b->spheres.radius.stride, i));
        for (int j = 0; j < 3; j++)
            H[j][j] = r * INSCRIBED;
        return 1;
    }
    default: /* not a form satc_check_volumes accepts */
        return 0;
    }
}

/* The coverage buffer: a header naming the pyramid it was cleared for,
 * then the layers' depths and masks, two per level-0 texel. */
typedef struct cov_head {
    uint32_t magic, width, height, pad;
    satc_frustum view;
} cov_head;
#define COV_MAGIC 0x5643u
#define COV_HEAD ((sizeof(cov_head) + 63) / 64 * 64)

size_t satc_coverage_bytes(uint32_t width, uint32_t height)
{
    if (!satc_pyramid_bytes(width, height))
        return 0;
    return COV_HEAD + 2 * (size_t)width * height * (sizeof(float) + sizeof(uint16_t));
}

satc_status satc_coverage_clear(void *coverage, size_t bytes, const satc_pyramid *p)
{
    if (!coverage)
        return SATC_ERR_NULL;
    satc_status st = satc_pyramid_check(p);
    if (st != SATC_OK)
        return st;
    if (bytes < satc_coverage_bytes(p->width, p->height) || (uintptr_t)coverage % 4)
        return SATC_ERR_LAYOUT;
    cov_head h;
    memset(&h, 0, sizeof h);
    h.magic = COV_MAGIC, h.width = p->width, h.height = p->height;
    memcpy(&h.view, &p->view, sizeof h.view);
    memcpy(coverage, &h, sizeof h);
    size_t n = 2 * (size_t)p->width * p->height;
    float *d = (float *)(void *)((char *)coverage + COV_HEAD);
    for (size_t t = 0; t < n; t++)
        d[t] = INFINITY;
    memset(d + n, 0, n * sizeof(uint16_t));
    return SATC_OK;
}

/* The layer of options o, or SATC_ERR_LAYOUT when it was not cleared for
 * this level 0 and view. */
static satc_status coverage_of(const satc_raster_options *o, uint32_t width, uint32_t height,
                               const satc_frustum *view, satc_rcov *cov, const satc_rcov **out)
{
    *out = NULL;
    if (!o || !o->coverage)
        return SATC_OK;
    if ((uintptr_t)o->coverage % 4)
        return SATC_ERR_LAYOUT;
    cov_head h;
    memcpy(&h, o->coverage, sizeof h);
    if (h.magic != COV_MAGIC || h.width != width || h.height != height ||
        memcmp(&h.view, view, sizeof h.view))
        return SATC_ERR_LAYOUT;
    cov->depth = (float *)(void *)((char *)o->coverage + COV_HEAD);
    cov->mask = (uint16_t *)(void *)(cov->depth + 2 * (size_t)width * height);
    *out = cov;
    return SATC_OK;
}

static satc_status check_target(const float *level0, uint32_t width, uint32_t height,
                                const satc_frustum *view, const satc_raster_options *o,
                                uint32_t *row0, uint32_t *row1)
{
    if (!level0 || !view)
        return SATC_ERR_NULL;
    if (view->kind != SATC_FRUSTUM_PERSPECTIVE && view->kind != SATC_FRUSTUM_ORTHOGRAPHIC)
        return SATC_ERR_FLAGS;
    if (!width || !height)
        return SATC_ERR_RANGE;
    *row0 = 0, *row1 = height;
    if (o) {
        if (o->flags & ~(SATC_RASTER_CULL_BACK | SATC_RASTER_FRONT_CW))
            return SATC_ERR_FLAGS;
        if (!(o->min_texels >= 0) || o->min_texels > 3.4e38f)
            return SATC_ERR_BOUNDS;
        *row0 = o->row0;
        *row1 = o->row1 ? o->row1 : height;
        if (*row0 > *row1 || *row1 > height)
            return SATC_ERR_RANGE;
        satc_rcov c;
        const satc_rcov *cp;
        return coverage_of(o, width, height, view, &c, &cp);
    }
    return SATC_OK;
}

static unsigned rview_flags(const satc_raster_options *o)
{
    return !o ? 0u : o->flags | (o->coverage ? SATC_RVIEW_CELLS : 0u);
}

/* The occluders of one draw, in order. Where the path has a wide setup
 * (perspective views), boxes go eight at a time through its first pass
 * (to the rectangle and the skip); those it keeps queue for the whole
 * setup, eight at a time again, then fill in order. The skip reads
 * level 0 before the queued boxes are filled, so it may skip fewer
 * boxes, never others (skipping changes no bit); each box is read again
 * just before its fill. Otherwise boxes are set up one by one. */
typedef struct drawq {
    const satc_rview *rv;
    float *level0;
    uint32_t width;
    satc_raster_fill_fn fill;
    const satc_rcov *cov;
    satc_raster_wide_fn wide;
    int n, nq;
    satc_rbox box[8], queue[8];
} drawq;

static void drawq_init(drawq *q, const satc_rview *rv, float *level0, uint32_t width,
                       satc_raster_fill_fn fill, const satc_rcov *cov)
{
    q->rv = rv, q->level0 = level0, q->width = width, q->fill = fill, q->cov = cov;
    q->n = q->nq = 0;
    q->wide = rv->ortho ? NULL : satc_raster_wide_for(satc_isa_active());
}

static void draw_one(const drawq *q, const satc_rbox *b)
{
    satc_rpoly p[3];
    int np = satc_raster_setup_box(q->rv, b->c, (const double(*)[3])b->H, b->cerr, p);
    for (int k = 0; k < np; k++)
        q->fill(&p[k], q->level0, q->width, q->cov);
}

/* A pass of the wide setup: the first over the boxes gathered, queueing
 * those it keeps; the second over the queue, filling in order. */
static void drawq_pass(drawq *q, int first)
{
    satc_rpoly p[8][3];
    double zlo[8];
    int8_t st[8];
    const satc_rbox *in = first ? q->box : q->queue;
    int n = first ? q->n : q->nq;
    q->wide(q->rv, in, n, p, zlo, st, first);
    if (first)
        q->n = 0;
    else
        q->nq = 0;
    for (int l = 0; l < n; l++) {
        if (first) {
            if (!st[l])
                continue;
            q->queue[q->nq++] = in[l];
            if (q->nq == 8)
                drawq_pass(q, 0);
        } else if (st[l] == 2) {
            draw_one(q, &in[l]);
        } else if (st[l] == 1 && !satc_raster_box_hidden(q->rv, &p[l][0], zlo[l])) {
            q->fill(&p[l][0], q->level0, q->width, q->cov);
        }
    }
}

/* Volume i of b set up and filled (nothing when it is skipped). */
static void draw_volume(drawq *q, const satc_batch *b, size_t i)
{
    satc_rbox *x = &q->box[q->n];
    if (!satc_occluder_box(b, i, x->c, x->H, &x->cerr))
        return;
    if (!q->wide) {
        draw_one(q, x);
        return;
    }
    if (++q->n == 8)
        drawq_pass(q, 1);
}

static void drawq_end(drawq *q)
{
    if (q->n)
        drawq_pass(q, 1);
    if (q->nq)
        drawq_pass(q, 0);
}

/* Volumes [first, first + count) of b that a perspective view keeps,
 * each drawn as draw_volume would, in order: the SIMD frustum test of the
 * active path with the far plane removed (occluders beyond it are drawn)
 * passes over the rest, which lie wholly outside a side plane or short of
 * the near plane, where the setup draws nothing. The same bits as setting
 * up every volume, without the cost of rejecting, in double, the many a
 * view leaves out. */
static void draw_kept(const satc_rview *rv, const satc_frustum *view, const satc_batch *b,
                      size_t first, size_t count, float *level0, uint32_t width,
                      satc_raster_fill_fn fill, const satc_rcov *cov)
{
    satc_frustum g = *view;
    g.f = INFINITY, g.f_in = INFINITY, g.infinite = 1;
    satc_kernel_fn fn = satc_kernels_for(satc_isa_active())->fn[b->form][satc_kind_col(&g)];
    uint64_t vis[SATC_CHUNK_WORDS], in[SATC_CHUNK_WORDS];
    drawq q;
    drawq_init(&q, rv, level0, width, fill, cov);
    for (size_t done = 0; done < count; done += SATC_CHUNK) {
        size_t m = count - done < SATC_CHUNK ? count - done : SATC_CHUNK;
        fn(&g, b, first + done, m, done + m == count ? SATC_K_LAST : 0u, vis, in);
        for (size_t w = 0; w < SATC_CHUNK_WORDS; w++)
            for (uint64_t bits = vis[w]; bits; bits &= bits - 1)
                draw_volume(&q, b, first + done + w * 64 + (size_t)__builtin_ctzll(bits));
    }
    drawq_end(&q);
}

satc_status satc_raster_batch_core(float *level0, uint32_t width, uint32_t height,
                                   const satc_frustum *view, const satc_batch *b, size_t first,
                                   size_t count, const satc_raster_options *o,
                                   satc_raster_fill_fn fill)
{
    uint32_t r0, r1;
    satc_status st = check_target(level0, width, height, view, o, &r0, &r1);
    if (st == SATC_OK)
        st = satc_check_volumes(b, first, count);
    if (st != SATC_OK)
        return st;
    satc_rview rv;
    satc_rview_init(&rv, view, width, height, r0, r1, o ? o->min_texels : 0, rview_flags(o));
    rv.drawn = level0;
    satc_rcov cs;
    const satc_rcov *cov;
    coverage_of(o, width, height, view, &cs, &cov);
    if (view->kind == SATC_FRUSTUM_PERSPECTIVE) {
        draw_kept(&rv, view, b, first, count, level0, width, fill, cov);
        return SATC_OK;
    }
    drawq q;
    drawq_init(&q, &rv, level0, width, fill, cov);
    for (size_t i = first; i < first + count; i++)
        draw_volume(&q, b, i);
    drawq_end(&q);
    return SATC_OK;
}

satc_status satc_raster_list_core(float *level0, uint32_t width, uint32_t height,
                                  const satc_frustum *view, const satc_batch *b,
                                  const uint32_t *indices, size_t n, const satc_raster_options *o,
                                  satc_raster_fill_fn fill)
{
    uint32_t r0, r1;
    satc_status st = check_target(level0, width, height, view, o, &r0, &r1);
    if (st != SATC_OK)
        return st;
    if (n && !indices)
        return SATC_ERR_NULL;
    uint32_t top = 0;
    for (size_t k = 0; k < n; k++)
        top = indices[k] > top ? indices[k] : top;
    st = satc_check_volumes(b, 0, n ? (size_t)top + 1 : 0);
    if (st != SATC_OK)
        return st;
    satc_rview rv;
    satc_rview_init(&rv, view, width, height, r0, r1, o ? o->min_texels : 0, rview_flags(o));
    rv.drawn = level0;
    satc_rcov cs;
    const satc_rcov *cov;
    coverage_of(o, width, height, view, &cs, &cov);
    drawq q;
    drawq_init(&q, &rv, level0, width, fill, cov);
    for (size_t k = 0; k < n; k++)
        draw_volume(&q, b, indices[k]);
    drawq_end(&q);
    return SATC_OK;
}

static size_t index_at(const satc_mesh *m, size_t k)
{
    if (!m->indices)
        return k;
    return m->index_bits == 16 ? ((const uint16_t *)m->indices)[k]
                               : ((const uint32_t *)m->indices)[k];
}

static void vertex(const satc_mesh *m, size_t k, double X[3], double *mag)
{
    const float *p = (const float *)(const void *)((const char *)m->positions + k * m->stride);
    double x[3] = {p[0], p[1], p[2]};
    *mag = 0;
    if (!m->matrix) {
        X[0] = x[0], X[1] = x[1], X[2] = x[2];
        return;
    }
    const float *a = m->matrix;
    for (int r = 0; r < 3; r++) {
        double row[4];
        for (int q = 0; q < 4; q++) {
            int off = m->layout == SATC_AFFINE_ROWS                 ? r * 4 + q
                      : m->layout == SATC_AFFINE_4X3_COLUMN_MAJOR ? q * 3 + r
                                                                    : q * 4 + r;
            row[q] = a[off];
        }
        X[r] = row[3] + row[0] * x[0] + row[1] * x[1] + row[2] * x[2];
        *mag += fabs(row[3]) + fabs(row[0] * x[0]) + fabs(row[1] * x[1]) + fabs(row[2] * x[2]);
    }
}

satc_status satc_raster_mesh_core(float *level0, uint32_t width, uint32_t height,
                                  const satc_frustum *view, const satc_mesh *m,
                                  const satc_raster_options *o, satc_raster_fill_fn fill)
{
    uint32_t r0, r1;
    satc_status st = check_target(level0, width, height, view, o, &r0, &r1);
    if (st != SATC_OK)
        return st;
    if (!m)
        return SATC_ERR_NULL;
    if (m->indices && m->index_bits != 16 && m->index_bits != 32)
        return SATC_ERR_FLAGS;
    if (m->matrix && m->layout != SATC_AFFINE_4X4_COLUMN_MAJOR && m->layout != SATC_AFFINE_ROWS &&
        m->layout != SATC_AFFINE_4X3_COLUMN_MAJOR)
        return SATC_ERR_LAYOUT;
    if (!m->triangle_count)
        return SATC_OK;
    if (!m->positions)
        return SATC_ERR_NULL;
    if ((uintptr_t)m->positions % 4 || m->stride % 4 || m->stride < 12 ||
        (m->matrix && (uintptr_t)m->matrix % 4) ||
        (m->indices && (uintptr_t)m->indices % (m->index_bits / 8)))
        return SATC_ERR_LAYOUT;
    if (m->triangle_count > SIZE_MAX / 3)
        return SATC_ERR_RANGE;
    size_t nidx = 3 * m->triangle_count;
    /* Every index is checked before anything is written. */
    if (m->indices) {
        for (size_t k = 0; k < nidx; k++)
            if (index_at(m, k) >= m->vertex_count)
                return SATC_ERR_RANGE;
    } else if (nidx > m->vertex_count) {
        return SATC_ERR_RANGE;
    }
    satc_rview rv;
    satc_rview_init(&rv, view, width, height, r0, r1, o ? o->min_texels : 0, rview_flags(o));
    satc_rcov cs;
    const satc_rcov *cov;
    coverage_of(o, width, height, view, &cs, &cov);
    /* Each triangle alone, then with the one set up before it, or with
     * back faces culled each of the last RECENT - 1 set up, when they
     * share an edge: the pair's polygon takes the texels on that edge.
     * Set up means over the whole view, so any row tile pairs the same
     * triangles and writes the whole draw's bits on its rows. Quads
     * come as consecutive triangles in most meshes, a small closed mesh's
     * front faces close together; drawn two-sided, a closed mesh's back
     * faces cover the texels on its front faces' creases already. */
    enum { RECENT = 8 };
    size_t back = rv.flags & SATC_RASTER_CULL_BACK ? RECENT - 1 : 1;
    struct drawn_tri {
        double X[3][3], mag[3];
        satc_rpoly p;
    } r[RECENT];
    size_t nr = 0;
    for (size_t t = 0; t < m->triangle_count; t++) {
        struct drawn_tri *c = &r[nr % RECENT];
        for (int k = 0; k < 3; k++)
            vertex(m, index_at(m, 3 * t + (size_t)k), c->X[k], &c->mag[k]);
        if (!satc_raster_setup_tri(&rv, (const double(*)[3])c->X, c->mag, &c->p))
            continue;
        /* set up whatever the tile (its rows may be empty here): which
         * triangles pair depends on the mesh alone */
        if (c->p.j0 < c->p.j1)
            fill(&c->p, level0, width, cov);
        for (size_t k = 1; k <= back && k <= nr; k++) {
            const struct drawn_tri *b = &r[(nr - k) % RECENT];
            if ((b->p.j0 < c->p.j0 ? b->p.j0 : c->p.j0) >= (b->p.j1 > c->p.j1 ? b->p.j1 : c->p.j1))
                continue; /* the pair's rows miss the tile */
            satc_rpoly pair;
            if (satc_raster_setup_pair(&rv, (const double(*)[3])b->X, b->mag, &b->p,
                                       (const double(*)[3])c->X, c->mag, &c->p, &pair))
                fill(&pair, level0, width, cov);
        }
        nr++;
    }
    return SATC_OK;
}

satc_status satc_pyramid_rasterize(satc_pyramid *p, const satc_batch *b, size_t first,
                                   size_t count, const satc_raster_options *opt)
{
    satc_status st = satc_pyramid_check(p);
    if (st != SATC_OK)
        return st;
    return satc_raster_batch_core(p->depth, p->width, p->height, &p->view, b, first, count, opt,
                                  satc_raster_fill_for(satc_isa_active()));
}

satc_status satc_pyramid_rasterize_list(satc_pyramid *p, const satc_batch *b,
                                        const uint32_t *indices, size_t n,
                                        const satc_raster_options *opt)
{
    satc_status st = satc_pyramid_check(p);
    if (st != SATC_OK)
        return st;
    return satc_raster_list_core(p->depth, p->width, p->height, &p->view, b, indices, n, opt,
                                 satc_raster_fill_for(satc_isa_active()));
}

satc_status satc_pyramid_rasterize_triangles(satc_pyramid *p, const satc_mesh *m,
                                             const satc_raster_options *opt)
{
    satc_status st = satc_pyramid_check(p);
    if (st != SATC_OK)
        return st;
    return satc_raster_mesh_core(p->depth, p->width, p->height, &p->view, m, opt,
                                 satc_raster_fill_for(satc_isa_active()));
}
