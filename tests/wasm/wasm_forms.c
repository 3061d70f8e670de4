/* The wasm cross-check: batches of every form and layout built from a
 * scene's boxes, non-finite inputs, group bounds. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "wasm_image.h"

/* ---- inputs ---- */

scn_rng R;
double U01(void) { return scn_uniform(&R, 0, 1); }
float *floats(size_t n)
{
    float *p = alloc(n * sizeof(float) + 16);
    return p;
}
/* Non-finite and odd values into a fraction of the inputs. */
void spoil(float *p, size_t n, double frac)
{
    static const float odd[] = {NAN, INFINITY, -INFINITY, -0.0f, 1e-40f, 3e38f};
    for (size_t i = 0; i < n; i++)
        if (U01() < frac)
            p[i] = odd[scn_next(&R) % 6];
}

/* Records of nf floats every stride bytes; field f of record i. */
typedef struct recs {
    float *p;
    size_t stride;
} recs;
static recs mkrecs(size_t n, size_t stride)
{
    recs r = {alloc(n * stride + 64), stride};
    return r;
}
static float *fld(recs r, size_t i, int f) { return (float *)((char *)r.p + i * r.stride) + f; }
static satc_vec3s v3(recs r, int f)
{
    return (satc_vec3s){fld(r, 0, f), fld(r, 0, f + 1), fld(r, 0, f + 2), r.stride};
}
/* Three separate arrays of n floats (stride 4). */
static satc_vec3s v3soa(size_t n, float **xyz)
{
    for (int k = 0; k < 3; k++)
        xyz[k] = floats(n);
    return (satc_vec3s){xyz[0], xyz[1], xyz[2], sizeof(float)};
}

/* The scene's box i: center c, axes a[j], extents e[j]. */
const scn_scene *S;
float bc(size_t i, int k) { return S->boxes.center[k][i]; }
float ba(size_t i, int j, int k) { return S->boxes.axis[j][k][i]; }
float be(size_t i, int j) { return S->boxes.extent[j][i]; }

/* Layouts: 0 separate arrays, 1 packed records, 2 records of an odd
 * stride, 3 like 1 with a shared (stride 0) second stream. */
const char *layout_name[] = {"soa", "rec", "odd", "shared"};

/* A quaternion of the box's frame (Shepperd's branch on the trace), its
 * sign and scale free: TRS rotations need not be unit. */
static void box_quat(size_t i, double q[4])
{
    double m[3][3];
    for (int j = 0; j < 3; j++)
        for (int k = 0; k < 3; k++)
            m[k][j] = ba(i, j, k);
    double t = m[0][0] + m[1][1] + m[2][2];
    if (t > 0) {
        double s = sqrt(t + 1) * 2;
        q[3] = s / 4, q[0] = (m[2][1] - m[1][2]) / s, q[1] = (m[0][2] - m[2][0]) / s, q[2] = (m[1][0] - m[0][1]) / s;
    } else {
        int a = m[0][0] >= m[1][1] && m[0][0] >= m[2][2] ? 0 : m[1][1] >= m[2][2] ? 1 : 2, b = (a + 1) % 3, c = (a + 2) % 3;
        double s = sqrt(1 + m[a][a] - m[b][b] - m[c][c]) * 2;
        q[a] = s / 4, q[3] = (m[c][b] - m[b][c]) / s, q[b] = (m[b][a] + m[a][b]) / s, q[c] = (m[c][a] + m[a][c]) / s;
    }
    double g = i % 13 == 5 ? -1.7 : i % 7 == 2 ? 0.3 : 1.0; /* not unit, negated */
    for (int k = 0; k < 4; k++)
        q[k] *= g;
}

/* SATC_FORM_TRS, one encoding per layout: 0 float arrays and float xyzw
 * quaternions, splat cubes of the default k; 1 the 32-byte `.splat`
 * record (linear scale, byte quaternions w first), k 2; 2 records of an
 * odd stride with log scales, signed-byte quaternions and a mesh table of
 * local boxes; 3 float wxyz records, one shared log scale and one shared
 * local box. Some volumes get a zero quaternion (never culled). */
static void make_trs(satc_trs *t, int layout, size_t n, double bad)
{
    static satc_local_boxes keep[64]; /* native descriptors: outside the image */
    static unsigned nk;
    static const unsigned fmt[4] = {SATC_QUAT_F32, SATC_QUAT_U8 | SATC_QUAT_WXYZ,
                                    SATC_QUAT_I8 | SATC_TRS_LOG_SCALE,
                                    SATC_QUAT_F32 | SATC_QUAT_WXYZ | SATC_TRS_LOG_SCALE};
    static const size_t stride[4] = {16, 32, 44, 16};
    int logs = (fmt[layout] & SATC_TRS_LOG_SCALE) != 0, wxyz = (fmt[layout] & SATC_QUAT_WXYZ) != 0;
    memset(t, 0, sizeof *t);
    t->format = fmt[layout];
    t->k = layout == 1 ? 2.0f : 0.0f;
    recs r = mkrecs(n, stride[layout]); /* quaternions; records 1, 2 hold all */
    float *p[3], *s[3];
    if (layout == 0 || layout == 3) {
        t->position = v3soa(n, p);
        t->scale = layout == 0 ? v3soa(n, s) : v3soa(1, s);
        if (layout == 3)
            t->scale.stride = 0;
        t->rotation = r.p, t->rotation_stride = 16;
    } else {
        t->position = v3(r, 0), t->scale = v3(r, 3);
        for (int k = 0; k < 3; k++)
            p[k] = fld(r, 0, k), s[k] = fld(r, 0, 3 + k);
        t->rotation = fld(r, 0, layout == 1 ? 7 : 6), t->rotation_stride = r.stride;
    }
    size_t ps = t->position.stride / 4, ss = t->scale.stride / 4;
    for (size_t i = 0; i < n; i++) {
        double q[4];
        box_quat(i, q);
        if (i % 17 == 9)
            q[0] = q[1] = q[2] = q[3] = 0;
        float *c = (float *)((char *)t->rotation + i * t->rotation_stride);
        for (int k = 0; k < 4; k++) {
            double v = q[wxyz ? (k + 3) % 4 : k];
            if ((t->format & 3u) == SATC_QUAT_F32)
                c[k] = (float)v;
            else if ((t->format & 3u) == SATC_QUAT_U8)
                ((uint8_t *)c)[k] = (uint8_t)fmax(0, fmin(255, 128 + round(v * 100)));
            else
                ((int8_t *)c)[k] = (int8_t)fmax(-127, fmin(127, round(v * 90)));
        }
        for (int k = 0; k < 3; k++) {
            p[k][i * ps] = bc(i, k);
            float e = be(i, k) / (layout == 0 ? 3.0f : layout == 1 ? 2.0f : 1.0f);
            if (ss || i == 0)
                s[k][i * ss] = logs ? logf(e) : (i % 10 == 4 ? -e : e);
        }
        if (U01() < bad)
            spoil(i % 2 ? &p[i % 3][i * ps] : c, 1, 1.0);
    }
    if (layout >= 2) {
        satc_local_boxes *lb = &keep[nk++ % 64];
        size_t nl = layout == 2 ? 7 : 1;
        recs l = mkrecs(nl, 24);
        for (size_t k = 0; k < nl; k++)
            for (int q = 0; q < 3; q++) {
                *fld(l, k, q) = (float)scn_uniform(&R, -0.3, 0.3);
                *fld(l, k, 3 + q) = (float)scn_uniform(&R, 0.2, 1.2) * (k % 4 == 1 ? -1.0f : 1.0f);
            }
        memset(lb, 0, sizeof *lb);
        lb->center = v3(l, 0), lb->half = v3(l, 3);
        if (layout == 3) {
            lb->center.stride = lb->half.stride = 0;
        } else {
            uint32_t *ids = alloc(n * 4 + 8);
            for (size_t i = 0; i < n; i++)
                ids[i] = (uint32_t)(scn_next(&R) % (nl + (i % 50 == 7))); /* one id past the table */
            lb->mesh = ids, lb->mesh_stride = 4, lb->mesh_count = nl;
        }
        t->local = lb;
    }
}

satc_batch make_batch(int form, int layout, size_t n, double bad)
{
    satc_batch b;
    memset(&b, 0, sizeof b);
    b.form = (satc_form)form;
    size_t pad = layout == 2 ? 3 : 0; /* floats after a record's fields */
    switch (form) {
    case SATC_FORM_AABB:
    case SATC_FORM_MINMAX: {
        satc_vec3s s0, s1;
        if (layout == 0) {
            float *p[3], *q[3];
            s0 = v3soa(n, p), s1 = v3soa(n, q);
            for (size_t i = 0; i < n; i++)
                for (int k = 0; k < 3; k++) {
                    float c = bc(i, k), e = be(i, k);
                    p[k][i] = form == SATC_FORM_AABB ? c : c - e;
                    q[k][i] = form == SATC_FORM_AABB ? (i % 7 ? e : -e) : c + e;
                }
            spoil(p[0], 3 * n, bad); /* three adjacent arrays of the arena */
        } else {
            recs r = mkrecs(n, (6 + pad) * 4);
            for (size_t i = 0; i < n; i++)
                for (int k = 0; k < 3; k++) {
                    float c = bc(i, k), e = be(i, k);
                    *fld(r, i, k) = form == SATC_FORM_AABB ? c : (i % 5 ? c - e : c + e);
                    *fld(r, i, 3 + k) = form == SATC_FORM_AABB ? e : (i % 5 ? c + e : c - e);
                    if (U01() < bad)
                        spoil(fld(r, i, k), 1, 1.0);
                }
            s0 = v3(r, 0), s1 = v3(r, 3);
            if (layout == 3)
                s1.stride = 0;
        }
        if (form == SATC_FORM_AABB)
            b.aabb.center = s0, b.aabb.half = s1;
        else
            b.minmax.min = s0, b.minmax.max = s1;
        break;
    }
    case SATC_FORM_SPHERES: {
        recs r = mkrecs(n, (4 + pad) * 4);
        for (size_t i = 0; i < n; i++) {
            for (int k = 0; k < 3; k++)
                *fld(r, i, k) = bc(i, k);
            *fld(r, i, 3) = (i % 9 ? 1.0f : -1.0f) * sqrtf(be(i, 0) * be(i, 0) + be(i, 1) * be(i, 1) + be(i, 2) * be(i, 2));
            if (U01() < bad)
                spoil(fld(r, i, (int)(scn_next(&R) % 4)), 1, 1.0);
        }
        b.spheres.center = v3(r, 0);
        b.spheres.radius = (satc_floats){fld(r, 0, 3), layout == 3 ? 0 : r.stride};
        if (layout == 0) { /* centers in arrays, radii in their own array */
            float *p[3], *rad = floats(n);
            b.spheres.center = v3soa(n, p);
            for (size_t i = 0; i < n; i++) {
                for (int k = 0; k < 3; k++)
                    p[k][i] = *fld(r, i, k);
                rad[i] = *fld(r, i, 3);
            }
            b.spheres.radius = (satc_floats){rad, 4};
        }
        break;
    }
    case SATC_FORM_OBB:
    case SATC_FORM_HALF_AXES: {
        int obb = form == SATC_FORM_OBB;
        recs r = mkrecs(n, ((obb ? 15 : 12) + pad) * 4);
        for (size_t i = 0; i < n; i++) {
            for (int k = 0; k < 3; k++)
                *fld(r, i, k) = bc(i, k);
            for (int j = 0; j < 3; j++)
                for (int k = 0; k < 3; k++)
                    *fld(r, i, 3 + 3 * j + k) = obb ? ba(i, j, k) : ba(i, j, k) * be(i, j);
            if (obb)
                for (int j = 0; j < 3; j++)
                    *fld(r, i, 12 + j) = be(i, j);
            if (U01() < bad)
                spoil(fld(r, i, (int)(scn_next(&R) % (obb ? 15 : 12))), 1, 1.0);
        }
        satc_vec3s ax[3] = {v3(r, 3), v3(r, 6), v3(r, 9)};
        if (obb) {
            b.obb.center = v3(r, 0), b.obb.extent = v3(r, 12);
            memcpy(b.obb.axis, ax, sizeof ax);
        } else {
            b.half_axes.center = v3(r, 0);
            memcpy(b.half_axes.axis, ax, sizeof ax);
        }
        if (layout == 0 && obb) { /* Eberly's separate arrays */
            float *c[3], *e[3], *a[3][3];
            b.obb.center = v3soa(n, c), b.obb.extent = v3soa(n, e);
            for (int j = 0; j < 3; j++)
                b.obb.axis[j] = v3soa(n, a[j]);
            for (size_t i = 0; i < n; i++)
                for (int k = 0; k < 3; k++) {
                    c[k][i] = *fld(r, i, k), e[k][i] = *fld(r, i, 12 + k);
                    for (int j = 0; j < 3; j++)
                        a[j][k][i] = *fld(r, i, 3 + 3 * j + k);
                }
        }
        break;
    }
    case SATC_FORM_INSTANCES: {
        /* layout 0: 4x4 column-major, per-instance local boxes; 1: rows
         * (3x4), shared local box; 2: 4x3 column-major of an odd stride,
         * mesh table; 3: 4x4 with mesh table of stride 8. */
        satc_instances *in = &b.instances;
        static const satc_affine lay[4] = {SATC_AFFINE_4X4_COLUMN_MAJOR, SATC_AFFINE_ROWS,
                                           SATC_AFFINE_4X3_COLUMN_MAJOR, SATC_AFFINE_4X4_COLUMN_MAJOR};
        static const size_t mstride[4] = {64, 48, 52, 80};
        in->layout = lay[layout], in->stride = mstride[layout];
        recs m = mkrecs(n, in->stride);
        for (size_t i = 0; i < n; i++) {
            float M[3][4]; /* M = [a0 e0 | a1 e1 | a2 e2 | c], local box unit-ish */
            for (int r = 0; r < 3; r++) {
                for (int j = 0; j < 3; j++)
                    M[r][j] = ba(i, j, r) * be(i, j) * (i % 11 == 3 && j == 1 ? -1.0f : 1.0f);
                M[r][3] = bc(i, r);
            }
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 4; c++) {
                    float *d = in->layout == SATC_AFFINE_ROWS ? fld(m, i, r * 4 + c)
                               : in->layout == SATC_AFFINE_4X3_COLUMN_MAJOR ? fld(m, i, c * 3 + r)
                                                                            : fld(m, i, c * 4 + r);
                    *d = M[r][c];
                }
            if (in->layout == SATC_AFFINE_4X4_COLUMN_MAJOR)
                *fld(m, i, 15) = 1.0f;
            if (U01() < bad)
                spoil(fld(m, i, (int)(scn_next(&R) % 12)), 1, 1.0);
        }
        in->matrix = m.p;
        size_t nl = layout == 1 ? 1 : layout == 0 ? n : 7;
        recs l = mkrecs(nl, 24);
        for (size_t k = 0; k < nl; k++)
            for (int q = 0; q < 3; q++) {
                *fld(l, k, q) = (float)scn_uniform(&R, -0.3, 0.3);
                *fld(l, k, 3 + q) = (float)scn_uniform(&R, 0.2, 1.2) * (k % 4 == 1 ? -1.0f : 1.0f);
            }
        in->local_center = v3(l, 0), in->local_half = v3(l, 3);
        if (layout == 1)
            in->local_center.stride = in->local_half.stride = 0;
        if (layout >= 2) {
            size_t ms = layout == 2 ? 4 : 8;
            uint32_t *ids = alloc(n * ms + 8);
            for (size_t i = 0; i < n; i++)
                ids[i * (ms / 4)] = (uint32_t)(scn_next(&R) % nl);
            in->mesh = ids, in->mesh_stride = ms, in->mesh_count = nl;
        }
        break;
    }
    case SATC_FORM_TRS: make_trs(&b.trs, layout, n, bad); break;
    }
    return b;
}

/* Group bounds over the batch: fixed groups of `size`, or offsets. */
void add_groups(satc_batch *b, size_t n, int kind)
{
    static satc_groups keep[64]; /* native descriptors: outside the image */
    static unsigned nk;
    satc_groups *g = &keep[nk++ % 64];
    memset(g, 0, sizeof *g);
    size_t size = kind == 1 ? 32 : 0, ng;
    uint32_t *offs = NULL;
    if (size) {
        ng = (n + size - 1) / size;
    } else {
        ng = n / 13 + 1;
        offs = alloc((ng + 1) * 4);
        offs[0] = 0;
        for (size_t k = 1; k < ng; k++)
            offs[k] = (uint32_t)(k * 13 - (scn_next(&R) % 5));
        offs[ng] = (uint32_t)n;
    }
    float *c = floats(3 * ng + 3), *h = floats(3 * ng + 3);
    if (satc_group_bounds(b, n, size, offs, ng, c, h) != SATC_OK)
        return;
    g->size = size, g->offsets = offs, g->ngroups = ng;
    g->center = SATC_VEC3S_AOS(c, 12), g->half = SATC_VEC3S_AOS(h, 12);
    b->groups = g;
}
