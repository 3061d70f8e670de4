/* The rasterizer's drivers: argument checks, then each occluder set up
 * (raster/setup.c) and filled by the chosen path (raster/fill.c and the
 * SIMD fills). Nothing is written before every check has passed. */
#include "../core/volume_d.h"
#include "../occlusion/occlusion.h"
#include "raster.h"

/* 1 / sqrt(3), lowered by 2^-20: a sphere's inscribed cube stays inside. */
#define INSCRIBED 0.57735026918962573 * (1.0 - 0x1p-20)

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
    }
    return SATC_OK;
}

/* Volume i of b set up and filled (nothing when it is skipped). */
static void draw_volume(const satc_rview *rv, const satc_batch *b, size_t i, float *level0,
                        uint32_t width, satc_raster_fill_fn fill)
{
    satc_vol_d v;
    if (!satc_volume_d(b, i, &v))
        return; /* a mesh id past the table */
    if (v.sphere) {
        for (int j = 0; j < 3; j++)
            v.H[j][j] *= INSCRIBED;
    }
    satc_rpoly p[3];
    /* an instance's center is rounded (below 2^-50 cmag); the others are stored */
    double cerr = b->form == SATC_FORM_INSTANCES ? 0x1p-50 * v.cmag : 0.0;
    int np = satc_raster_setup_box(rv, v.c, (const double(*)[3])v.H, cerr, p);
    for (int k = 0; k < np; k++)
        fill(&p[k], level0, width);
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
    satc_rview_init(&rv, view, width, height, r0, r1, o ? o->min_texels : 0, o ? o->flags : 0);
    for (size_t i = first; i < first + count; i++)
        draw_volume(&rv, b, i, level0, width, fill);
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
    satc_rview_init(&rv, view, width, height, r0, r1, o ? o->min_texels : 0, o ? o->flags : 0);
    for (size_t k = 0; k < n; k++)
        draw_volume(&rv, b, indices[k], level0, width, fill);
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
    satc_rview_init(&rv, view, width, height, r0, r1, o ? o->min_texels : 0, o ? o->flags : 0);
    /* Each triangle alone, then with the one drawn before it, or with
     * back faces culled each of the last RECENT - 1 drawn, when they share
     * an edge: the pair's polygon takes the texels on that edge. Quads
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
        fill(&c->p, level0, width);
        for (size_t k = 1; k <= back && k <= nr; k++) {
            const struct drawn_tri *b = &r[(nr - k) % RECENT];
            satc_rpoly pair;
            if (satc_raster_setup_pair(&rv, (const double(*)[3])b->X, b->mag, &b->p,
                                       (const double(*)[3])c->X, c->mag, &c->p, &pair))
                fill(&pair, level0, width);
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
