/* satc's own answers for the Python tests: reads a frustum (the
 * satc_frustum bytes), a form, a mode and the volumes as flat float32
 * arrays (structure of arrays, one value per volume), calls satc_cull on
 * the scalar path and on the active one, and writes both class arrays.
 * The batch descriptor is built here, independently of the extension.
 *
 *   satc_py_oracle IN OUT
 *   IN:  satc_frustum bytes, int32 form, int32 mode, int64 n, then the
 *        form's arrays, each n float32 values, in this order:
 *          aabbs: cx cy cz hx hy hz        minmax: min xyz, max xyz
 *          obbs: c xyz, A0 xyz, A1 xyz, A2 xyz, e xyz
 *          half_axes: c xyz, H0 xyz, H1 xyz, H2 xyz
 *          spheres: c xyz, r
 *          instances: m00 m01 m02 m03 m10 .. m23 (12, rows), lc xyz, lh xyz
 *          trs (form 7): then float32 k and int32 flags (1: log scales, 2: a
 *            local box per volume, 4: uint8 quaternions, 8: int8), then p xyz,
 *            q xyzw (byte values as floats for 4 and 8), s xyz, lc xyz, lh xyz
 *   OUT: n class bytes (scalar path), then n (active path)
 */
#include <satc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const float *col(const float *base, int64_t n, int k)
{
    return base + (size_t)k * (size_t)n;
}

static satc_vec3s soa(const float *base, int64_t n, int k)
{
    return SATC_VEC3S_SOA(col(base, n, k), col(base, n, k + 1), col(base, n, k + 2));
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    FILE *in = fopen(argv[1], "rb");
    if (!in)
        return 2;
    satc_frustum f;
    int32_t form, mode;
    int64_t n;
    if (fread(&f, sizeof f, 1, in) != 1 || fread(&form, 4, 1, in) != 1 ||
        fread(&mode, 4, 1, in) != 1 || fread(&n, 8, 1, in) != 1 || n < 0)
        return 2;
    static const int ncols[8] = {0, 15, 6, 6, 12, 18, 4, 16};
    float k = 0;
    int32_t flags = 0;
    if (form < 1 || form > 7 ||
        (form == SATC_FORM_TRS && (fread(&k, 4, 1, in) != 1 || fread(&flags, 4, 1, in) != 1)))
        return 2;
    size_t total = (size_t)ncols[form] * (size_t)n;
    float *d = malloc(total * 4 + 4);
    uint8_t *cls = malloc((size_t)n + 1);
    if (!d || !cls || fread(d, 4, total, in) != total)
        return 2;
    fclose(in);
    satc_batch b;
    memset(&b, 0, sizeof b);
    b.form = (satc_form)form;
    float *m = NULL;
    unsigned char *qb = NULL;
    satc_local_boxes lb;
    memset(&lb, 0, sizeof lb);
    switch (form) {
    case SATC_FORM_AABB:
        b.aabb.center = soa(d, n, 0);
        b.aabb.half = soa(d, n, 3);
        break;
    case SATC_FORM_MINMAX:
        b.minmax.min = soa(d, n, 0);
        b.minmax.max = soa(d, n, 3);
        break;
    case SATC_FORM_OBB:
        b.obb.center = soa(d, n, 0);
        for (int j = 0; j < 3; j++)
            b.obb.axis[j] = soa(d, n, 3 + 3 * j);
        b.obb.extent = soa(d, n, 12);
        break;
    case SATC_FORM_HALF_AXES:
        b.half_axes.center = soa(d, n, 0);
        for (int j = 0; j < 3; j++)
            b.half_axes.axis[j] = soa(d, n, 3 + 3 * j);
        break;
    case SATC_FORM_SPHERES:
        b.spheres.center = soa(d, n, 0);
        b.spheres.radius = (satc_floats){col(d, n, 3), 4};
        break;
    case SATC_FORM_INSTANCES:
        /* gathered into row-major 3x4 records: the one layout the oracle
         * needs, independent of the extension's stride logic */
        m = malloc((size_t)n * 48 + 48);
        if (!m)
            return 2;
        for (int64_t i = 0; i < n; i++)
            for (int k = 0; k < 12; k++)
                m[12 * i + k] = col(d, n, k)[i];
        b.instances.matrix = m;
        b.instances.stride = 48;
        b.instances.layout = SATC_AFFINE_ROWS;
        b.instances.local_center = soa(d, n, 12);
        b.instances.local_half = soa(d, n, 15);
        break;
    case SATC_FORM_TRS:
        b.trs.position = soa(d, n, 0);
        b.trs.scale = soa(d, n, 7);
        b.trs.k = k;
        b.trs.format = (flags & 4 ? SATC_QUAT_U8 : flags & 8 ? SATC_QUAT_I8 : SATC_QUAT_F32) |
                       (flags & 1 ? SATC_TRS_LOG_SCALE : 0u);
        if (flags & 12) {
            /* the byte values packed four to a quaternion, (x, y, z, w) */
            qb = malloc((size_t)n * 4 + 4);
            if (!qb)
                return 2;
            for (int64_t i = 0; i < n; i++)
                for (int c = 0; c < 4; c++) {
                    int v = (int)col(d, n, 3 + c)[i];
                    qb[4 * i + c] = (unsigned char)(flags & 8 ? (signed char)v : v);
                }
            b.trs.rotation = qb;
            b.trs.rotation_stride = 4;
        } else {
            m = malloc((size_t)n * 16 + 16);
            if (!m)
                return 2;
            for (int64_t i = 0; i < n; i++)
                for (int c = 0; c < 4; c++)
                    m[4 * i + c] = col(d, n, 3 + c)[i];
            b.trs.rotation = m;
            b.trs.rotation_stride = 16;
        }
        if (flags & 2) {
            lb.center = soa(d, n, 10);
            lb.half = soa(d, n, 13);
            b.trs.local = &lb;
        }
        break;
    }
    FILE *out = fopen(argv[2], "wb");
    if (!out)
        return 2;
    for (int pass = 0; pass < 2; pass++) {
        satc_results r = {.classes = cls};
        satc_status st = pass == 0 ? satc_cull_isa(SATC_ISA_SCALAR, &f, &b, 0, (size_t)n, (satc_mode)mode, &r)
                                   : satc_cull(&f, &b, 0, (size_t)n, (satc_mode)mode, &r);
        if (st != SATC_OK) {
            fprintf(stderr, "satc_cull: %s\n", satc_status_string(st));
            return 1;
        }
        if (fwrite(cls, 1, (size_t)n, out) != (size_t)n)
            return 2;
    }
    fclose(out);
    free(d);
    free(m);
    free(qb);
    free(cls);
    return 0;
}
