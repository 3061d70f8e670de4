/* satc's own pyramids for the Python tests: builds a pyramid for a frustum
 * (the satc_frustum bytes), fills it from a depth image, or draws AABB or
 * triangle occluders, then culls AABBs against it on the scalar path and
 * on the active one. The pyramid and batches are built here, without the
 * extension.
 *
 *   satc_py_oracle_occlusion IN OUT
 *   IN:  satc_frustum bytes, uint32 width, height, int32 op, then
 *          op 1 (fill): int32 format, uint32 conventions, float near, far,
 *            uint32 image width, height, int32 pixel bytes, the pixels (rows packed)
 *          op 2 (boxes): int64 m, m floats each of cx cy cz hx hy hz
 *          op 3 (mesh): int64 v, 3 v floats (xyz per vertex), int64 f, 3 f uint32,
 *            uint32 raster flags
 *          op 4 (boxes merged): int64 split, then as op 2; boxes [0, split) and
 *            [split, m) drawn by two calls into one merged-coverage buffer
 *          op 5 (fill by the matrix): as op 1, then 16 floats, the projection
 *            row-major (satc_pyramid_fill_matrix)
 *        then uint32 test flags, budget (satc_pyramid_set_test), int32 mode,
 *        int64 n, n floats each of cx cy cz hx hy hz (queries)
 *   OUT: every level's texels, level 0 first; n class bytes (scalar), n (active)
 */
#include <satc.h>
#include <stdio.h>
#include <stdlib.h>

static int rd(void *p, size_t size, size_t n, FILE *f)
{
    return fread(p, size, n, f) == n ? 0 : -1;
}

static satc_batch aabbs(const float *d, int64_t n)
{
    satc_batch b = {.form = SATC_FORM_AABB};
    b.aabb.center = SATC_VEC3S_SOA(d, d + n, d + 2 * n);
    b.aabb.half = SATC_VEC3S_SOA(d + 3 * n, d + 4 * n, d + 5 * n);
    return b;
}

static float *floats(FILE *in, int64_t *n, int per)
{
    if (rd(n, 8, 1, in) < 0 || *n < 0)
        return NULL;
    float *d = malloc((size_t)*n * per * 4 + 4);
    return d && rd(d, 4, (size_t)*n * per, in) == 0 ? d : NULL;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    FILE *in = fopen(argv[1], "rb");
    satc_frustum f;
    uint32_t w, h;
    int32_t op, mode;
    if (!in || rd(&f, sizeof f, 1, in) < 0 || rd(&w, 4, 1, in) < 0 || rd(&h, 4, 1, in) < 0 ||
        rd(&op, 4, 1, in) < 0)
        return 2;
    size_t bytes = satc_pyramid_bytes(w, h);
    float *store = aligned_alloc(64, (bytes + 63) / 64 * 64);
    satc_pyramid p;
    if (!store || satc_pyramid_init(&p, &f, w, h, store, bytes) != SATC_OK)
        return 2;
    satc_status st = SATC_OK;
    if (op == 1 || op == 5) {
        int32_t fmt, es;
        uint32_t conv, iw, ih;
        float nz, fz;
        if (rd(&fmt, 4, 1, in) < 0 || rd(&conv, 4, 1, in) < 0 || rd(&nz, 4, 1, in) < 0 ||
            rd(&fz, 4, 1, in) < 0 || rd(&iw, 4, 1, in) < 0 || rd(&ih, 4, 1, in) < 0 ||
            rd(&es, 4, 1, in) < 0)
            return 2;
        void *px = malloc((size_t)iw * ih * (size_t)es);
        if (!px || rd(px, (size_t)es, (size_t)iw * ih, in) < 0)
            return 2;
        satc_depth_image img = {.data = px, .width = iw, .height = ih, .row_bytes = (size_t)iw * es,
                                .format = (satc_depth_format)fmt, .conventions = conv,
                                .near_z = nz, .far_z = fz};
        float m[16];
        if (op == 5 && rd(m, 4, 16, in) < 0)
            return 2;
        st = op == 5 ? satc_pyramid_fill_matrix(&p, &img, m, SATC_MATRIX_ROW_MAJOR)
                     : satc_pyramid_fill(&p, &img);
    } else if (op == 2) {
        int64_t m;
        float *d = floats(in, &m, 6);
        if (!d)
            return 2;
        satc_batch b = aabbs(d, m);
        st = satc_pyramid_rasterize(&p, &b, 0, (size_t)m, NULL);
        if (st == SATC_OK)
            st = satc_pyramid_build(&p);
    } else if (op == 4) {
        int64_t split, m;
        if (rd(&split, 8, 1, in) < 0)
            return 2;
        float *d = floats(in, &m, 6);
        size_t cb = satc_coverage_bytes(w, h);
        void *cov = aligned_alloc(64, (cb + 63) / 64 * 64);
        if (!d || !cov || split < 0 || split > m || satc_coverage_clear(cov, cb, &p) != SATC_OK)
            return 2;
        satc_batch b = aabbs(d, m);
        satc_raster_options opt = {.coverage = cov};
        st = satc_pyramid_rasterize(&p, &b, 0, (size_t)split, &opt);
        if (st == SATC_OK)
            st = satc_pyramid_rasterize(&p, &b, (size_t)split, (size_t)(m - split), &opt);
        if (st == SATC_OK)
            st = satc_pyramid_build(&p);
    } else if (op == 3) {
        int64_t nv, nf;
        float *v = floats(in, &nv, 3);
        if (!v || rd(&nf, 8, 1, in) < 0 || nf < 0)
            return 2;
        uint32_t *idx = malloc((size_t)nf * 12 + 4), flags;
        if (!idx || rd(idx, 4, (size_t)nf * 3, in) < 0 || rd(&flags, 4, 1, in) < 0)
            return 2;
        satc_mesh m = {.positions = v, .stride = 12, .vertex_count = (size_t)nv, .indices = idx,
                       .index_bits = 32, .triangle_count = (size_t)nf};
        satc_raster_options opt = {.flags = flags};
        st = satc_pyramid_rasterize_triangles(&p, &m, &opt);
        if (st == SATC_OK)
            st = satc_pyramid_build(&p);
    } else {
        return 2;
    }
    if (st != SATC_OK) {
        fprintf(stderr, "pyramid: %s\n", satc_status_string(st));
        return 1;
    }
    int64_t n;
    uint32_t test[2];
    if (rd(test, 4, 2, in) < 0 || rd(&mode, 4, 1, in) < 0)
        return 2;
    if ((st = satc_pyramid_set_test(&p, test[0], test[1])) != SATC_OK) {
        fprintf(stderr, "satc_pyramid_set_test: %s\n", satc_status_string(st));
        return 1;
    }
    float *q = floats(in, &n, 6);
    uint8_t *cls = malloc((size_t)n + 1);
    if (!q || !cls)
        return 2;
    fclose(in);
    FILE *out = fopen(argv[2], "wb");
    if (!out)
        return 2;
    for (uint32_t k = 0; k < p.levels; k++)
        fwrite(p.depth + p.level_off[k], 4, (size_t)p.level_w[k] * p.level_h[k], out);
    satc_batch b = aabbs(q, n);
    for (int pass = 0; pass < 2; pass++) {
        satc_results r = {.classes = cls};
        st = pass == 0 ? satc_cull_occluded_isa(SATC_ISA_SCALAR, &p, &b, 0, (size_t)n, (satc_mode)mode,
                                                &r, NULL, NULL)
                       : satc_cull_occluded(&p, &b, 0, (size_t)n, (satc_mode)mode, &r, NULL, NULL);
        if (st != SATC_OK) {
            fprintf(stderr, "satc_cull_occluded: %s\n", satc_status_string(st));
            return 1;
        }
        fwrite(cls, 1, (size_t)n, out);
    }
    fclose(out);
    return 0;
}
