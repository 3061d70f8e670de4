/* Helpers of the false-negative tests: see fn_common.h. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#include "fn_common.h"

const satc_camera *fn_debug_cam;
const char *const fn_form_name[FN_NFORMS] = {"obb", "half_axes", "instances", "aabb", "spheres"};

/* Axes exactly +-the world axes in order: the AABB form holds the box. */
int fn_world_axes(const fn_vol *v)
{
    for (int j = 0; j < 3; j++)
        for (int k = 0; k < 3; k++)
            if (fabsf(v->a[j][k]) != (j == k ? 1.0f : 0.0f))
                return 0;
    return 1;
}

unsigned long long fn_fp_set(int on)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned old = _mm_getcsr();
    _mm_setcsr(on ? old | 0x8040u : old & ~0x8040u); /* FTZ bit 15, DAZ bit 6 */
    return old;
#elif defined(__aarch64__)
    uint64_t old, v;
    __asm__ volatile("mrs %0, fpcr" : "=r"(old));
    v = on ? old | ((uint64_t)1 << 24) : old & ~((uint64_t)1 << 24); /* FZ */
    __asm__ volatile("msr fpcr, %0" : : "r"(v));
    return old;
#else
    (void)on;
    return 0;
#endif
}

void fn_fp_restore(unsigned long long word)
{
#if defined(__x86_64__) || defined(__i386__)
    _mm_setcsr((unsigned)word);
#elif defined(__aarch64__)
    uint64_t v = word;
    __asm__ volatile("msr fpcr, %0" : : "r"(v));
#else
    (void)word;
#endif
}

int fn_fp_has_ftz(void)
{
#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__)
    return 1;
#else
    return 0;
#endif
}

/* fl(e_j A_j): the half-axis vector the half-axis and instance forms get. */
static void half_vec(const fn_vol *v, int j, float h[3])
{
    for (int k = 0; k < 3; k++)
        h[k] = fabsf(v->e[j]) * v->a[j][k];
}

void fn_witness(const fn_vol *v, int form, double p[3])
{
    for (int k = 0; k < 3; k++) {
        double x = v->c[k];
        for (int j = 0; j < 3; j++) {
            float h[3];
            half_vec(v, j, h);
            double hj = form == FN_OBB ? fabs((double)v->e[j]) * v->a[j][k] : h[k];
            x += v->t[j] * hj;
        }
        p[k] = x;
    }
}

static void frame_of(const satc_camera *c, const double p[3], double q[3])
{
    double d[3];
    for (int k = 0; k < 3; k++)
        d[k] = p[k] - c->origin[k];
    const float *rows[3] = {c->left, c->up, c->dir};
    for (int i = 0; i < 3; i++)
        q[i] = rows[i][0] * d[0] + rows[i][1] * d[1] + rows[i][2] * d[2];
}

double fn_excess(const satc_camera *c, const double p[3])
{
    double q[3], e[6];
    frame_of(c, p, q);
    double x = q[0], y = q[1], z = q[2];
    if (c->orthographic) {
        e[0] = c->l0 - x, e[1] = x - c->l1, e[2] = c->u0 - y, e[3] = y - c->u1;
        e[4] = c->n - z, e[5] = z - c->f;
    } else {
        double n = c->n, s0 = c->l0 / n, s1 = c->l1 / n, r0 = c->u0 / n, r1 = c->u1 / n;
        e[0] = (s0 * z - x) / (1 + fabs(s0)), e[1] = (x - s1 * z) / (1 + fabs(s1));
        e[2] = (r0 * z - y) / (1 + fabs(r0)), e[3] = (y - r1 * z) / (1 + fabs(r1));
        e[4] = n - z, e[5] = isinf(c->f) ? -INFINITY : z - c->f;
    }
    double m = e[0];
    for (int k = 1; k < 6; k++)
        m = e[k] > m ? e[k] : m;
    return m;
}

double fn_scale(const satc_camera *c, const double p[3])
{
    double s = 0;
    for (int k = 0; k < 3; k++)
        s += fabs(p[k] - c->origin[k]);
    s += fabs(c->l0) + fabs(c->l1) + fabs(c->u0) + fabs(c->u1) + fabs(c->n);
    if (c->orthographic)
        s += fabs(c->f);
    return s;
}

void fn_sphere_radius(fn_vol *v)
{
    double p[3], d2 = 0;
    fn_witness(v, FN_OBB, p);
    for (int k = 0; k < 3; k++)
        d2 += (p[k] - v->c[k]) * (p[k] - v->c[k]);
    double d = sqrt(d2) * (1 + 0x1p-40);
    v->rad = (float)d;
    if ((double)v->rad < d)
        v->rad = nextafterf(v->rad, INFINITY);
}

size_t fn_want(const satc_camera *c, fn_vol *v, size_t n, double slack, unsigned char *want)
{
    size_t all = 0;
    for (size_t i = 0; i < n; i++) {
        want[i] = 0;
        fn_sphere_radius(&v[i]);
        for (int form = 0; form < FN_NFORMS; form++) {
            double p[3];
            if (form == FN_AABB && !fn_world_axes(&v[i]))
                continue;
            fn_witness(&v[i], form >= FN_AABB ? FN_OBB : form, p);
            if (fn_excess(c, p) <= slack * fn_scale(c, p))
                want[i] |= (unsigned char)(1u << form);
        }
        all += (want[i] & 7u) == 7u;
    }
    return all;
}

/* The records of one form for n volumes (heap; freed by the caller). */
typedef struct fn_arrays {
    float *f; /* 16 floats per volume */
    satc_batch b;
} fn_arrays;

static int build(fn_arrays *o, const fn_vol *v, size_t n, int form)
{
    /* Record: c 0-2, vec j at 3+3j, e 12-14, pad 15; instances: 4x3
     * column-major matrix at 0-11 plus local center/half shared. */
    static const float zero3[3] = {0, 0, 0}, one3[3] = {1, 1, 1};
    o->f = calloc(n ? n * 16 : 16, sizeof(float));
    if (!o->f)
        return 0;
    for (size_t i = 0; i < n; i++) {
        float *r = o->f + 16 * i;
        for (int j = 0; j < 3; j++) {
            float h[3];
            half_vec(&v[i], j, h);
            for (int k = 0; k < 3; k++) {
                if (form == FN_INST) {
                    r[j * 3 + k] = h[k];
                    r[9 + k] = v[i].c[k];
                } else {
                    r[k] = v[i].c[k];
                    r[3 + 3 * j + k] = form == FN_OBB ? v[i].a[j][k] : h[k];
                }
            }
            if (form == FN_OBB || form == FN_AABB)
                r[12 + j] = v[i].e[j];
            r[15] = v[i].rad;
        }
    }
    const size_t st = 16 * sizeof(float);
    float *p = o->f;
    memset(&o->b, 0, sizeof o->b);
    if (form == FN_OBB) {
        o->b.form = SATC_FORM_OBB;
        o->b.obb.center = SATC_VEC3S_AOS(p, st);
        for (int j = 0; j < 3; j++)
            o->b.obb.axis[j] = SATC_VEC3S_AOS(p + 3 + 3 * j, st);
        o->b.obb.extent = SATC_VEC3S_AOS(p + 12, st);
    } else if (form == FN_SPHERE) {
        o->b.form = SATC_FORM_SPHERES;
        o->b.spheres.center = SATC_VEC3S_AOS(p, st);
        o->b.spheres.radius = (satc_floats){p + 15, st};
    } else if (form == FN_AABB) {
        o->b.form = SATC_FORM_AABB;
        o->b.aabb.center = SATC_VEC3S_AOS(p, st);
        o->b.aabb.half = SATC_VEC3S_AOS(p + 12, st);
    } else if (form == FN_HALF) {
        o->b.form = SATC_FORM_HALF_AXES;
        o->b.half_axes.center = SATC_VEC3S_AOS(p, st);
        for (int j = 0; j < 3; j++)
            o->b.half_axes.axis[j] = SATC_VEC3S_AOS(p + 3 + 3 * j, st);
    } else {
        o->b.form = SATC_FORM_INSTANCES;
        o->b.instances.matrix = p;
        o->b.instances.stride = st;
        o->b.instances.layout = SATC_AFFINE_4X3_COLUMN_MAJOR;
        o->b.instances.local_center = (satc_vec3s){zero3, zero3 + 1, zero3 + 2, 0};
        o->b.instances.local_half = (satc_vec3s){one3, one3 + 1, one3 + 2, 0};
    }
    return 1;
}

long fn_cull_check(const satc_frustum *f, const fn_vol *v, const unsigned char *want, size_t n,
                   int form, satc_isa isa, satc_mode m, int ftz, const char *tag)
{
    static int printed;
    fn_arrays a;
    if (!build(&a, v, n, form))
        return -1;
    uint8_t *bits = calloc(n / 8 + 1, 1);
    satc_results res = {bits, NULL, NULL, 0};
    unsigned long long old = fn_fp_set(ftz);
    satc_status st = satc_cull_isa(isa, f, &a.b, 0, n, m, &res);
    fn_fp_restore(old);
    long miss = st == SATC_OK ? 0 : -1;
    for (size_t i = 0; st == SATC_OK && i < n; i++) {
        if ((want[i] >> form & 1) && !(bits[i / 8] >> (i % 8) & 1)) {
            miss++;
            if (printed++ < (getenv("FN_PRINT") ? atoi(getenv("FN_PRINT")) : 10)) {
                const fn_vol *b = &v[i];
                printf("FALSE NEGATIVE %s: box %zu, %s, %s, %s, ftz %d: c (%a %a %a) "
                       "A0 (%a %a %a) A1 (%a %a %a) A2 (%a %a %a) e (%a %a %a)\n",
                       tag, i, fn_form_name[form], satc_isa_name(isa),
                       m == SATC_EXACT ? "exact" : "conservative", ftz, b->c[0], b->c[1],
                       b->c[2], b->a[0][0], b->a[0][1], b->a[0][2], b->a[1][0], b->a[1][1],
                       b->a[1][2], b->a[2][0], b->a[2][1], b->a[2][2], b->e[0], b->e[1],
                       b->e[2]);
                if (getenv("FN_DEBUG") && fn_debug_cam) {
                    const satc_camera *k = fn_debug_cam;
                    printf("  camera o %a %a %a L %a %a %a U %a %a %a D %a %a %a b %a %a %a %a n %a f %a ortho %d\n",
                           k->origin[0], k->origin[1], k->origin[2], k->left[0], k->left[1], k->left[2],
                           k->up[0], k->up[1], k->up[2], k->dir[0], k->dir[1], k->dir[2], k->l0, k->l1,
                           k->u0, k->u1, k->n, k->f, k->orthographic);
                }
                if (getenv("FN_DEBUG")) {
                    double q[3];
                    for (int r2 = 0; r2 < 3; r2++)
                        q[r2] = (b->c[0] - (double)f->origin[0]) * f->frame[r2][0] + (b->c[1] - (double)f->origin[1]) * f->frame[r2][1] + (b->c[2] - (double)f->origin[2]) * f->frame[r2][2];
                    printf("  frame %.9g %.9g %.9g  x/z %.9g y/z %.9g  fr x %.9g %.9g y %.9g %.9g n %.9g f %.9g rad %a\n", q[0], q[1], q[2], q[0]/q[2], q[1]/q[2], f->x0, f->x1, f->y0, f->y1, f->n, f->f, (double)b->rad);
                }
            }
        }
    }
    free(bits);
    free(a.f);
    return miss;
}

long fn_check_all(const satc_frustum *f, const fn_vol *v, const unsigned char *want, size_t n,
                  const char *tag)
{
    long total = 0;
    unsigned run = satc_isa_runnable();
    for (unsigned isa = SATC_ISA_SCALAR; isa <= SATC_ISA_AVX512; isa <<= 1) {
        if (!(run & isa))
            continue;
        for (int m = 0; m < 2; m++)
            for (int ftz = 0; ftz <= fn_fp_has_ftz(); ftz++)
                for (int form = 0; form < FN_NFORMS; form++) {
                    long r = fn_cull_check(f, v, want, n, form, (satc_isa)isa, (satc_mode)m,
                                           ftz, tag);
                    total += r < 0 ? 1 : r;
                }
    }
    return total;
}

unsigned long long fn_next(fn_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double fn_unif(fn_rng *r, double lo, double hi)
{
    return lo + (hi - lo) * ((double)(fn_next(r) >> 11) * 0x1p-53);
}

void fn_rotation(fn_rng *r, double R[3][3])
{
    double q[4], l;
    do {
        l = 0;
        for (int k = 0; k < 4; k++) {
            q[k] = fn_unif(r, -1, 1);
            l += q[k] * q[k];
        }
    } while (l > 1 || l < 1e-3);
    l = sqrt(l);
    double x = q[0] / l, y = q[1] / l, z = q[2] / l, w = q[3] / l;
    double m[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
                      {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
                      {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}};
    memcpy(R, m, sizeof m);
}

void fn_frame(const double R[3][3], satc_camera *c)
{
    for (int k = 0; k < 3; k++) {
        c->left[k] = (float)R[0][k];
        c->up[k] = (float)R[1][k];
        c->dir[k] = (float)R[2][k];
    }
}

void fn_to_world(const satc_camera *c, const double q[3], double w[3])
{
    for (int k = 0; k < 3; k++)
        w[k] = c->origin[k] + q[0] * c->left[k] + q[1] * c->up[k] + q[2] * c->dir[k];
}

double fn_logu(fn_rng *r, double lo_exp, double hi_exp) { return exp2(fn_unif(r, lo_exp, hi_exp)); }

void fn_boundary_point(fn_rng *r, const satc_camera *c, double q[3], double nrm[3])
{
    double n = c->n, fa = isinf(c->f) ? n * fn_logu(r, 1, 20) : c->f;
    int ortho = c->orthographic;
    double z = ortho ? fn_unif(r, n, fa) : n * exp2(fn_unif(r, 0, log2(fa / n)));
    int pin = 1 + (int)(fn_next(r) % 3);
    double a = fn_unif(r, 0, 1), b = fn_unif(r, 0, 1);
    double xl = ortho ? c->l0 : c->l0 / n * z, xh = ortho ? c->l1 : c->l1 / n * z;
    double yl = ortho ? c->u0 : c->u0 / n * z, yh = ortho ? c->u1 : c->u1 / n * z;
    nrm[0] = nrm[1] = nrm[2] = 0;
    q[0] = xl + a * (xh - xl), q[1] = yl + b * (yh - yl), q[2] = z;
    int order[3] = {0, 1, 2};
    for (int k = 2; k > 0; k--) {
        int j = (int)(fn_next(r) % (unsigned)(k + 1)), t = order[k];
        order[k] = order[j], order[j] = t;
    }
    for (int p = 0; p < pin; p++) {
        int axis = order[p], hi = fn_next(r) & 1;
        if (axis == 2) { /* near or far face */
            if (hi && isinf(c->f))
                hi = 0;
            double z2 = hi ? fa : n;
            if (!ortho) /* keep x/z and y/z */
                q[0] *= z2 / q[2], q[1] *= z2 / q[2];
            q[2] = z2;
            nrm[2] += hi ? 1 : -1;
        } else {
            double lo = axis ? (ortho ? c->u0 : c->u0 / n * q[2]) : (ortho ? c->l0 : c->l0 / n * q[2]);
            double up = axis ? (ortho ? c->u1 : c->u1 / n * q[2]) : (ortho ? c->l1 : c->l1 / n * q[2]);
            q[axis] = hi ? up : lo;
            nrm[axis] += hi ? 1 : -1;
            if (!ortho) { /* side normal (1, 0, -s) or (-1, 0, s) */
                double sl = (hi ? (axis ? c->u1 : c->l1) : (axis ? c->u0 : c->l0)) / n;
                nrm[2] += hi ? -sl : sl;
            }
        }
    }
}

static float snap(fn_rng *r, double x)
{
    switch (fn_next(r) % 16) {
    case 0: return 0.0f;
    case 1: return ldexpf((float)fn_unif(r, -1, 1), -126 - (int)(fn_next(r) % 24)); /* subnormal */
    default: return (float)x;
    }
}

void fn_volume_at(fn_rng *r, double s, double lo, double hi, const double P[3], const double nw[3],
                  fn_vol *v)
{
    double R[3][3];
    fn_rotation(r, R);
    int skew = fn_next(r) % 3 == 0, style = (int)(fn_next(r) % 4);
    if (style == 3) { /* world axes: the AABB form too */
        memset(R, 0, sizeof R);
        R[0][0] = R[1][1] = R[2][2] = 1;
        skew = 0;
    }
    int kind = (int)(fn_next(r) % 4); /* vertex, edge, face, interior */
    int inward = fn_next(r) % 4 == 0;
    for (int j = 0; j < 3; j++) {
        double len = fn_next(r) % 8 == 0 ? 0 : s * fn_logu(r, lo, hi), dir[3], dl = 0;
        for (int k = 0; k < 3; k++) {
            dir[k] = R[j][k] + (skew ? fn_unif(r, -0.5, 0.5) : 0);
            dl += dir[k] * dir[k];
        }
        dl = sqrt(dl);
        double dn = 0;
        for (int k = 0; k < 3; k++) {
            dir[k] /= dl;
            dn += dir[k] * nw[k];
        }
        /* style 0 and 3: unit axis, extent len; 1: axis of length len,
         * extent 1; 2: unit axis, extent len, one component snapped. */
        for (int k = 0; k < 3; k++)
            v->a[j][k] = style == 1 ? (float)(dir[k] * len) : (float)dir[k];
        if (style == 2)
            v->a[j][fn_next(r) % 3] = snap(r, v->a[j][fn_next(r) % 3]);
        v->e[j] = style == 1 ? 1.0f : (float)len;
        double t = j < kind ? fn_unif(r, -1, 1) : 1;
        double sg = dn > 0 ? 1 : -1; /* the box lies along -t H: outward when t H.n < 0 */
        v->t[j] = (inward ? sg : -sg) * t;
    }
    for (int k = 0; k < 3; k++) {
        double x = P[k];
        for (int j = 0; j < 3; j++)
            x -= v->t[j] * fabs((double)v->e[j]) * v->a[j][k];
        v->c[k] = (float)x;
    }
}

