/* Volume sets and their layouts (see forms_make.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "forms_make.h"
#include "scenes.h"

typedef struct layout {
    const char *name;
    fm_setkind set;
    int mesh, shared;
} layout;

static const layout layouts[] = {
    {"obb/soa", FM_OBB, 0, 0},           {"obb/rec68", FM_OBB, 0, 0},
    {"aabb/soa", FM_AABB, 0, 0},         {"aabb/float3", FM_AABB, 0, 0},
    {"aabb/rec40", FM_AABB, 0, 0},       {"minmax/rec24", FM_MINMAX, 0, 0},
    {"minmax/vec4", FM_MINMAX, 0, 0},    {"half/soa", FM_HALF, 0, 0},
    {"half/rec52", FM_HALF, 0, 0},       {"inst/cm44(affine3a)+shared", FM_INST_SHARED, 0, 1},
    {"inst/rows34+mesh1", FM_INST_SHARED, 1, 0}, {"inst/cm43+per", FM_INST_SHARED, 0, 0},
    {"inst/cm44rec80+mesh", FM_INST_TABLE, 1, 0}, {"inst/rows44+per28", FM_INST_TABLE, 0, 0},
    {"inst/rows34s52+mesh8+soa", FM_INST_TABLE, 1, 0}, {"inst/cm43+mesh", FM_INST_TABLE, 1, 0},
    {"sph/soa", FM_SPH, 0, 0},           {"sph/xyzr16", FM_SPH, 0, 0},
    {"sph/rxyz20", FM_SPH, 0, 0},
};
enum { NLAYOUTS = sizeof layouts / sizeof layouts[0] };

int fm_nlayouts(void) { return NLAYOUTS; }
const char *fm_layout_name(int k) { return layouts[k].name; }
fm_setkind fm_layout_set(int k) { return layouts[k].set; }
int fm_layout_mesh(int k) { return layouts[k].mesh; }
int fm_layout_shared(int k) { return layouts[k].shared; }

static const satc_form set_form[FM_NSETS] = {SATC_FORM_OBB, SATC_FORM_AABB, SATC_FORM_MINMAX, SATC_FORM_HALF_AXES, SATC_FORM_INSTANCES, SATC_FORM_INSTANCES, SATC_FORM_SPHERES};

/* ---- memory ---- */

/* A stream of elements `stride` bytes apart whose read floats lie at byte
 * offsets [lo, hi) of each element (stride 0: one element). Returns the
 * address of element 0. */
static char *stream(fm_mem *m, size_t first, size_t count, size_t stride, size_t lo, size_t hi)
{
    size_t last = stride && count ? first + count - 1 : 0;
    size_t bytes = last * stride + hi, lead = (stride ? first * stride : 0) + lo;
    if (m->n >= 24)
        return NULL;
    int k = m->n++;
    if (m->where == FM_HEAP) {
        char *p = malloc(bytes);
        if (!p)
            return NULL;
        memset(p, 0xFF, bytes); /* NaN in every gap and before `first` */
        m->heap[k] = p;
        return p;
    }
    int end = m->where == FM_GUARD_END;
    if (rb_guard_alloc(&m->g[k], end ? bytes : bytes - lead, end))
        return NULL;
    memset(m->g[k].lo, 0xFF, (size_t)(m->g[k].hi - m->g[k].lo));
    if (end)
        return rb_guard_place(&m->g[k], bytes);
    return (char *)((uintptr_t)m->g[k].lo - lead);
}

void fm_mem_free(fm_mem *m)
{
    for (int k = 0; k < m->n; k++) {
        if (m->where == FM_HEAP)
            free(m->heap[k]);
        else
            rb_guard_free(&m->g[k]);
    }
    m->n = 0;
}

static void put(char *base, size_t stride, size_t i, size_t off, float v)
{
    memcpy(base + i * stride + off, &v, sizeof v);
}

/* Fields f0.. f0+nf-1 of volumes [first, first + count) at byte offsets
 * off, off + 4, ... of a stream. */
static void put_fields(char *base, size_t stride, const fm_set *s, size_t first, size_t count,
                       int f0, int nf, size_t off)
{
    for (size_t i = first; i < first + count; i++)
        for (int q = 0; q < nf; q++)
            put(base, stride, i, off + 4 * (size_t)q, s->v[i][f0 + q]);
}

/* nf separate float arrays of fields f0.. (structure of arrays). */
static int soa(fm_mem *m, const fm_set *s, size_t first, size_t count, int f0, int nf,
               const float **out)
{
    for (int q = 0; q < nf; q++) {
        char *p = stream(m, first, count, 4, 0, 4);
        if (!p)
            return -1;
        put_fields(p, 4, s, first, count, f0 + q, 1, 0);
        out[q] = (const float *)p;
    }
    return 0;
}

static satc_vec3s v3(const char *base, size_t off, size_t stride)
{
    const float *p = (const float *)(base + off);
    return (satc_vec3s){p, p + 1, p + 2, stride};
}

static satc_vec3s v3soa(const float **p) { return (satc_vec3s){p[0], p[1], p[2], 4}; }

/* Local boxes of an instance layout: shared (stride 0), per instance, or a
 * table. kind 0 shared AOS, 1 per-instance float3 arrays, 2 per-instance
 * records of 7 floats (half, center, pad), 3 table AOS, 4 table SOA. */
static int locals(fm_mem *m, const fm_set *s, size_t first, size_t count, int kind,
                  satc_instances *in)
{
    if (kind == 0 || kind == 3) {
        size_t nt = kind ? s->ntable : 1, st = kind ? 24 : 0;
        char *p = stream(m, 0, nt, st, 0, 24);
        if (!p)
            return -1;
        for (size_t t = 0; t < nt; t++)
            for (int q = 0; q < 6; q++)
                put(p, st, t, 4 * (size_t)q, s->table[t][q]);
        in->local_center = v3(p, 0, st), in->local_half = v3(p, 12, st);
    } else if (kind == 1) {
        char *c = stream(m, first, count, 12, 0, 12), *h = stream(m, first, count, 12, 0, 12);
        if (!c || !h)
            return -1;
        put_fields(c, 12, s, first, count, 12, 3, 0);
        put_fields(h, 12, s, first, count, 15, 3, 0);
        in->local_center = v3(c, 0, 12), in->local_half = v3(h, 0, 12);
    } else if (kind == 2) {
        char *p = stream(m, first, count, 28, 0, 24);
        if (!p)
            return -1;
        put_fields(p, 28, s, first, count, 15, 3, 0);
        put_fields(p, 28, s, first, count, 12, 3, 12);
        in->local_center = v3(p, 12, 28), in->local_half = v3(p, 0, 28);
    } else {
        const float *c[3], *h[3];
        for (int q = 0; q < 6; q++) {
            char *p = stream(m, 0, s->ntable, 4, 0, 4);
            if (!p)
                return -1;
            for (size_t t = 0; t < s->ntable; t++)
                put(p, 4, t, 0, s->table[t][q]);
            (q < 3 ? c : h)[q % 3] = (const float *)p;
        }
        in->local_center = v3soa(c), in->local_half = v3soa(h);
    }
    return 0;
}

int fm_cm44_read = 16;

/* Matrices: 0 4x4 column-major (bottom row = garbage fields 18-21), 1
 * rows 4x4, 2 rows 3x4, 3 4x3 column-major; stride in bytes. The stream
 * ends after the last float read (a 4x4's bottom row is never read, so
 * the last matrix's trailing unread floats may lie in a guard page), or
 * at byte `hi` when larger. */
static char *matrices(fm_mem *m, const fm_set *s, size_t first, size_t count, int kind,
                      size_t stride, size_t hi)
{
    size_t used = kind == 0 ? 4 * (size_t)fm_cm44_read : 48, off = 0;
    hi = hi > used ? hi : used;
    char *p = stream(m, first, count, stride, off, hi);
    if (!p)
        return NULL;
    for (size_t i = first; i < first + count; i++) {
        for (int r = 0; r < 4; r++) {
            for (int c = 0; c < 4; c++) {
                float v = r < 3 ? s->v[i][4 * r + c] : s->v[i][18 + c];
                size_t at = kind == 0 ? (size_t)(4 * c + r) : kind <= 2 ? (size_t)(4 * r + c)
                                                                        : (size_t)(3 * c + r);
                if ((r < 3 || kind <= 1) && 4 * at < hi)
                    put(p, stride, i, off + 4 * at, v);
            }
        }
    }
    return p + off;
}

static int mesh_ids(fm_mem *m, const fm_set *s, size_t first, size_t count, size_t stride,
                    satc_instances *in)
{
    char *p = stream(m, first, count, stride, 0, 4);
    if (!p)
        return -1;
    for (size_t i = first; i < first + count; i++)
        memcpy(p + i * stride, &s->mesh[i], 4);
    in->mesh = (const uint32_t *)p, in->mesh_stride = stride, in->mesh_count = s->ntable;
    return 0;
}

int fm_build(const fm_set *s, int k, fm_mem *m, size_t first, size_t count, satc_batch *b)
{
    memset(b, 0, sizeof *b);
    b->form = set_form[layouts[k].set];
    const float *a[15];
    char *p;
    satc_instances *in = &b->instances;
    int e = 0;
    switch (k) {
    case 0: /* obb/soa */
        e = soa(m, s, first, count, 0, 15, a);
        b->obb.center = v3soa(a), b->obb.extent = v3soa(a + 12);
        for (int j = 0; j < 3; j++)
            b->obb.axis[j] = v3soa(a + 3 + 3 * j);
        break;
    case 1: /* obb/rec68: pad, 15 fields, pad */
        if (!(p = stream(m, first, count, 68, 4, 64)))
            return -1;
        put_fields(p, 68, s, first, count, 0, 15, 4);
        b->obb.center = v3(p, 4, 68), b->obb.extent = v3(p, 52, 68);
        for (int j = 0; j < 3; j++)
            b->obb.axis[j] = v3(p, 16 + 12 * (size_t)j, 68);
        break;
    case 2: case 7: case 16: { /* separate arrays */
        int nf = k == 2 ? 6 : k == 7 ? 12 : 4;
        e = soa(m, s, first, count, 0, nf, a);
        if (k == 2)
            b->aabb.center = v3soa(a), b->aabb.half = v3soa(a + 3);
        else if (k == 7) {
            b->half_axes.center = v3soa(a);
            for (int j = 0; j < 3; j++)
                b->half_axes.axis[j] = v3soa(a + 3 + 3 * j);
        } else
            b->spheres.center = v3soa(a), b->spheres.radius = (satc_floats){a[3], 4};
        break;
    }
    case 3: case 6: { /* two float3 (12) or vec4 (16) arrays */
        size_t st = k == 3 ? 12 : 16;
        char *c = stream(m, first, count, st, 0, 12), *h = stream(m, first, count, st, 0, 12);
        if (!c || !h)
            return -1;
        put_fields(c, st, s, first, count, 0, 3, 0);
        put_fields(h, st, s, first, count, 3, 3, 0);
        b->aabb.center = v3(c, 0, st), b->aabb.half = v3(h, 0, st); /* minmax: same places */
        break;
    }
    case 4: /* aabb/rec40: pad, center, half, 3 pads */
        if (!(p = stream(m, first, count, 40, 4, 28)))
            return -1;
        put_fields(p, 40, s, first, count, 0, 6, 4);
        b->aabb.center = v3(p, 4, 40), b->aabb.half = v3(p, 16, 40);
        break;
    case 5: /* minmax/rec24 */
        if (!(p = stream(m, first, count, 24, 0, 24)))
            return -1;
        put_fields(p, 24, s, first, count, 0, 6, 0);
        b->minmax.min = v3(p, 0, 24), b->minmax.max = v3(p, 12, 24);
        break;
    case 8: /* half/rec52: pad, center, three half axes */
        if (!(p = stream(m, first, count, 52, 4, 52)))
            return -1;
        put_fields(p, 52, s, first, count, 0, 12, 4);
        b->half_axes.center = v3(p, 4, 52);
        for (int j = 0; j < 3; j++)
            b->half_axes.axis[j] = v3(p, 16 + 12 * (size_t)j, 52);
        break;
    case 9: case 10: case 11: case 12: case 13: case 14: case 15: {
        static const int mk[7] = {0, 2, 3, 0, 1, 2, 3};           /* matrix kind */
        static const size_t ms[7] = {64, 48, 48, 80, 64, 52, 48}; /* stride */
        static const int lk[7] = {0, 3, 1, 3, 2, 4, 3};           /* local boxes */
        static const satc_affine lay[4] = {SATC_AFFINE_4X4_COLUMN_MAJOR, SATC_AFFINE_ROWS, SATC_AFFINE_ROWS, SATC_AFFINE_4X3_COLUMN_MAJOR};
        int t = k - 9;
        const char *mp = matrices(m, s, first, count, mk[t], ms[t], k == 12 ? 68 : 0);
        if (!mp)
            return -1;
        in->matrix = (const float *)mp, in->stride = ms[t], in->layout = lay[mk[t]];
        e = locals(m, s, first, count, lk[t], in);
        if (k == 12) { /* the id inside the 80-byte record, after the matrix */
            char *base = (char *)(uintptr_t)mp;
            for (size_t i = first; i < first + count; i++)
                memcpy(base + i * 80 + 64, &s->mesh[i], 4);
            in->mesh = (const uint32_t *)(base + 64), in->mesh_stride = 80;
            in->mesh_count = s->ntable;
        } else if (layouts[k].mesh) {
            e |= mesh_ids(m, s, first, count, k == 14 ? 8 : 4, in);
        }
        break;
    }
    case 17: /* sph/xyzr16 */
        if (!(p = stream(m, first, count, 16, 0, 16)))
            return -1;
        put_fields(p, 16, s, first, count, 0, 4, 0);
        b->spheres.center = v3(p, 0, 16), b->spheres.radius = (satc_floats){(const float *)(p + 12), 16};
        break;
    case 18: /* sph/rxyz20: radius, center, pad */
        if (!(p = stream(m, first, count, 20, 0, 16)))
            return -1;
        put_fields(p, 20, s, first, count, 3, 1, 0);
        put_fields(p, 20, s, first, count, 0, 3, 4);
        b->spheres.center = v3(p, 4, 20), b->spheres.radius = (satc_floats){(const float *)p, 20};
        break;
    default: return -1;
    }
    return e ? -1 : 0;
}

/* ---- sets ---- */

int fm_set_alloc(fm_set *s, fm_setkind kind, size_t n)
{
    memset(s, 0, sizeof *s);
    s->kind = kind, s->form = set_form[kind], s->n = n;
    s->v = calloc(n ? n : 1, sizeof *s->v);
    s->mesh = calloc(n ? n : 1, sizeof *s->mesh);
    if (!s->v || !s->mesh) {
        fm_set_free(s);
        return -1;
    }
    return 0;
}

void fm_set_free(fm_set *s)
{
    free(s->v);
    free(s->mesh);
    s->v = NULL, s->mesh = NULL;
}

int fm_set_copy(fm_set *dst, const fm_set *src)
{
    if (fm_set_alloc(dst, src->kind, src->n))
        return -1;
    memcpy(dst->v, src->v, src->n * sizeof *src->v);
    memcpy(dst->mesh, src->mesh, src->n * sizeof *src->mesh);
    memcpy(dst->table, src->table, sizeof src->table);
    dst->ntable = src->ntable;
    return 0;
}

void fm_geometry(const fm_set *s, size_t i, fg_vol *g)
{
    const float *v = s->v[i];
    memset(g, 0, sizeof *g);
    switch (s->kind) {
    case FM_OBB:
        for (int k = 0; k < 3; k++) {
            g->c[k] = v[k];
            for (int j = 0; j < 3; j++)
                g->h[j][k] = (double)v[12 + j] * v[3 + 3 * j + k];
        }
        break;
    case FM_AABB: case FM_MINMAX:
        for (int k = 0; k < 3; k++) {
            int mm = s->kind == FM_MINMAX;
            g->c[k] = mm ? 0.5 * ((double)v[k] + v[3 + k]) : v[k];
            g->h[k][k] = mm ? 0.5 * fabs((double)v[3 + k] - v[k]) : fabs(v[3 + k]);
        }
        break;
    case FM_HALF:
        for (int k = 0; k < 3; k++) {
            g->c[k] = v[k];
            for (int j = 0; j < 3; j++)
                g->h[j][k] = v[3 + 3 * j + k];
        }
        break;
    case FM_INST_SHARED: case FM_INST_TABLE:
        for (int r = 0; r < 3; r++) {
            g->c[r] = v[4 * r + 3];
            for (int c = 0; c < 3; c++) {
                g->c[r] += (double)v[4 * r + c] * v[12 + c];
                g->h[c][r] = (double)v[4 * r + c] * v[15 + c];
            }
        }
        break;
    default:
        g->sphere = 1;
        for (int k = 0; k < 3; k++)
            g->c[k] = v[k];
        g->r = fabs(v[3]);
        break;
    }
}

int fm_read_fields(fm_setkind kind, int f[FM_NF])
{
    static const int count[FM_NSETS] = {15, 6, 6, 12, 12, 18, 4};
    for (int q = 0; q < count[kind]; q++)
        f[q] = q;
    return count[kind];
}

/* ---- generation ---- */

static double logu(rb_rng *r, double lo, double hi) { return exp(rb_uniform(r, log(lo), log(hi))); }

/* A random rotation as three orthonormal columns R[j]. */
static void rotation(rb_rng *r, double R[3][3])
{
    float q[4];
    rb_random_quat(r, q);
    double x = q[0], y = q[1], z = q[2], w = q[3], l = sqrt(x * x + y * y + z * z + w * w);
    x /= l, y /= l, z /= l, w /= l;
    double m[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
                      {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
                      {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}};
    for (int j = 0; j < 3; j++)
        for (int k = 0; k < 3; k++)
            R[j][k] = m[k][j];
}

/* Sizes: mostly relative to the local scale, sometimes zero, negative,
 * or a long axis of 1e4. */
static double size(rb_rng *r, double scale, unsigned u)
{
    double e = scale * logu(r, 1e-3, 1.0);
    if (u % 11 == 0)
        e = 0;
    else if (u % 13 == 0)
        e = 1e4;
    return u % 7 == 0 ? -e : e;
}

static void fill_table(fm_set *s, rb_rng *r)
{
    s->ntable = s->kind == FM_INST_TABLE ? FM_TABLE : 1;
    for (size_t t = 0; t < s->ntable; t++)
        for (int q = 0; q < 3; q++) {
            s->table[t][q] = (float)rb_uniform(r, -1, 1);
            s->table[t][3 + q] = (float)(rb_uniform(r, 0.1, 2) * (t == 2 && q == 1 ? -1 : 1));
        }
}

void fm_fill(fm_set *s, const satc_camera *cam, rb_rng *r)
{
    scn_rng sr = {rb_next(r)};
    fill_table(s, r);
    for (size_t i = 0; i < s->n; i++) {
        double p[3], scale, R[3][3], e[3];
        unsigned u = (unsigned)(rb_next(r) >> 20);
        scn_boundary_point(&sr, cam, p, &scale);
        for (int k = 0; k < 3; k++)
            p[k] += cam->origin[k] + scale * rb_uniform(r, -0.5, 0.5);
        if (u % 17 == 0) { /* 1e6 away, about along the view */
            for (int k = 0; k < 3; k++)
                p[k] = cam->origin[k] + 1e6 * cam->dir[k] + rb_uniform(r, -3e5, 3e5);
            scale = 2e5;
        }
        rotation(r, R);
        for (int j = 0; j < 3; j++)
            e[j] = size(r, scale, (unsigned)(rb_next(r) >> 33));
        float *v = s->v[i];
        for (int q = 0; q < FM_NF; q++)
            v[q] = 0;
        switch (s->kind) {
        case FM_OBB:
            for (int k = 0; k < 3; k++) {
                v[k] = (float)p[k];
                v[12 + k] = (float)e[k];
                for (int j = 0; j < 3; j++)
                    v[3 + 3 * j + k] = (float)R[j][k];
            }
            break;
        case FM_AABB: case FM_MINMAX:
            for (int k = 0; k < 3; k++) {
                int swap = s->kind == FM_MINMAX && (u >> k) % 5 == 0; /* max < min */
                v[k] = (float)(s->kind == FM_MINMAX ? p[k] - (swap ? -1 : 1) * e[k] : p[k]);
                v[3 + k] = (float)(s->kind == FM_MINMAX ? p[k] + (swap ? -1 : 1) * e[k] : e[k]);
            }
            break;
        case FM_HALF:
            for (int k = 0; k < 3; k++) {
                v[k] = (float)p[k];
                for (int j = 0; j < 3; j++)
                    v[3 + 3 * j + k] = (float)(e[j] * R[j][k]);
                if (u % 3 == 0) /* shear: a parallelepiped */
                    v[6 + k] = (float)(v[6 + k] + 0.7 * v[3 + k]);
            }
            break;
        case FM_INST_SHARED: case FM_INST_TABLE: {
            size_t t = s->kind == FM_INST_TABLE ? (size_t)(u >> 4) % s->ntable : 0;
            s->mesh[i] = (uint32_t)t;
            double A[3][3]; /* columns: R_j scaled, sometimes sheared or singular */
            for (int j = 0; j < 3; j++)
                for (int k = 0; k < 3; k++)
                    A[j][k] = R[j][k] * e[j];
            if (u % 5 == 0)
                for (int k = 0; k < 3; k++)
                    A[1][k] += 0.5 * A[0][k];
            if (u % 19 == 0)
                for (int k = 0; k < 3; k++)
                    A[2][k] = A[0][k]; /* singular: a flat box */
            for (int q = 0; q < 6; q++)
                v[12 + q] = s->table[t][q];
            for (int rr = 0; rr < 3; rr++) {
                double c = p[rr];
                for (int j = 0; j < 3; j++) {
                    v[4 * rr + j] = (float)A[j][rr];
                    c -= (double)v[4 * rr + j] * v[12 + j];
                }
                v[4 * rr + 3] = (float)c;
            }
            for (int q = 18; q < 22; q++) /* unread bottom row: garbage */
                v[q] = q == 21 ? NAN : (float)rb_uniform(r, -1e3, 1e3);
            break;
        }
        default:
            for (int k = 0; k < 3; k++)
                v[k] = (float)p[k];
            v[3] = (float)e[0];
            break;
        }
    }
}

/* A unit float axis and extent for the half axis h (0 when h is zero). */
static int unit_axis(const double h[3], float ax[3], float *ext)
{
    double l = sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
    if (!(l > 0))
        return 0;
    for (int k = 0; k < 3; k++)
        ax[k] = (float)(h[k] / l);
    *ext = (float)l;
    return 1;
}

void fm_obb_twin(const fm_set *s, fm_set *o, uint8_t *twin)
{
    for (size_t i = 0; i < s->n; i++) {
        fg_vol g;
        fm_geometry(s, i, &g);
        float *v = o->v[i];
        int ok = !g.sphere;
        for (int k = 0; k < 3 && ok; k++) {
            v[k] = (float)g.c[k];
            ok = unit_axis(g.h[k], &v[3 + 3 * k], &v[12 + k]);
        }
        /* Orthogonal within SATC_AXIS_TOLERANCE, or no Eberly twin. */
        for (int a = 0; a < 3 && ok; a++)
            for (int b = a + 1; b < 3; b++) {
                double d = 0;
                for (int k = 0; k < 3; k++)
                    d += (double)v[3 + 3 * a + k] * v[3 + 3 * b + k];
                ok &= fabs(d) <= SATC_AXIS_TOLERANCE;
            }
        twin[i] = (uint8_t)ok;
    }
}
