/*
 * Sphere and ray queries (satc_query_sphere, satc_query_ray) against
 * every form: no false negative in either mode on any path, exact mode
 * within its band, entry parameters and the nearest hit right, every path
 * bit-identical to scalar (bits, classes, indices, t, nearest), the
 * adversarial cases, bad calls refused with nothing written.
 *
 * Oracles, in long double, written another way than the library:
 *  - sphere: the distance from the center to the parallelepiped
 *    c + sum s_j U_j, |s_j| <= e_j, by coordinate descent (each step the
 *    exact 1-D minimum, clamped), not active sets nor lower bounds;
 *  - ray: parametric clipping in the volume's own coordinates
 *    (Liang-Barsky on s(t) = U^-1 (o + t d - c), |s_j| <= e_j), not world
 *    slabs of face normals; a sphere by the closest point of the segment.
 *
 *   test_rays [--trials N]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "satc.h"

#define QUERY_SEED 0x72617973ull
#define QUERY_MAX_FAILS 30
#include "query_check.h"

typedef long double ld;

/* ------------------------------------------------------------------ */
/* Volumes: one record per volume, every form reads its own fields      */
/* ------------------------------------------------------------------ */

#define N 256

typedef struct rec {
    float c[3], h[3];   /* AABB, OBB extents; sphere (h[0] = radius); min/max half */
    float lo[3], hi[3]; /* min/max */
    float ax[3][3];     /* OBB unit axes, or half-axis vectors */
    float m[16];        /* instance: 4x4 column-major */
    float lc[3], lh[3]; /* instance: its own local box */
} rec;

static const int forms[] = {SATC_FORM_AABB,      SATC_FORM_MINMAX,    SATC_FORM_OBB,
                            SATC_FORM_HALF_AXES, SATC_FORM_INSTANCES, SATC_FORM_SPHERES};
static const char *form_name[] = {"", "obb", "aabb", "minmax", "half-axes", "instances", "spheres"};

static satc_batch batch_of(int form, const rec *r)
{
    satc_batch b;
    memset(&b, 0, sizeof b);
    b.form = (satc_form)form;
    size_t st = sizeof *r;
    switch (form) {
    case SATC_FORM_AABB:
        b.aabb.center = (satc_vec3s)SATC_VEC3S_AOS(&r[0].c[0], st);
        b.aabb.half = (satc_vec3s)SATC_VEC3S_AOS(&r[0].h[0], st);
        break;
    case SATC_FORM_MINMAX:
        b.minmax.min = (satc_vec3s)SATC_VEC3S_AOS(&r[0].lo[0], st);
        b.minmax.max = (satc_vec3s)SATC_VEC3S_AOS(&r[0].hi[0], st);
        break;
    case SATC_FORM_OBB:
        b.obb.center = (satc_vec3s)SATC_VEC3S_AOS(&r[0].c[0], st);
        b.obb.extent = (satc_vec3s)SATC_VEC3S_AOS(&r[0].h[0], st);
        for (int j = 0; j < 3; j++)
            b.obb.axis[j] = (satc_vec3s)SATC_VEC3S_AOS(&r[0].ax[j][0], st);
        break;
    case SATC_FORM_HALF_AXES:
        b.half_axes.center = (satc_vec3s)SATC_VEC3S_AOS(&r[0].c[0], st);
        for (int j = 0; j < 3; j++)
            b.half_axes.axis[j] = (satc_vec3s)SATC_VEC3S_AOS(&r[0].ax[j][0], st);
        break;
    case SATC_FORM_INSTANCES:
        b.instances.matrix = r[0].m;
        b.instances.stride = st;
        b.instances.layout = SATC_AFFINE_4X4_COLUMN_MAJOR;
        b.instances.local_center = (satc_vec3s)SATC_VEC3S_AOS(&r[0].lc[0], st);
        b.instances.local_half = (satc_vec3s)SATC_VEC3S_AOS(&r[0].lh[0], st);
        break;
    default:
        b.spheres.center = (satc_vec3s)SATC_VEC3S_AOS(&r[0].c[0], st);
        b.spheres.radius = (satc_floats){&r[0].h[0], st};
    }
    return b;
}

/* The volume the stored floats describe, in long double: the
 * parallelepiped c + sum s_j U_j, |s_j| <= e_j (U invertible), or a ball. */
typedef struct geom {
    ld c[3], U[3][3], e[3];
    int sphere, finite;
    ld rad;
    ld cmag, hsum; /* the header's |c|_1 (an instance's terms) and sum_j |H_j|_1 */
} geom;

static ld n1(const ld v[3]) { return fabsl(v[0]) + fabsl(v[1]) + fabsl(v[2]); }

static void truth(int form, const rec *r, geom *g)
{
    memset(g, 0, sizeof *g);
    for (int k = 0; k < 3; k++)
        g->c[k] = r->c[k];
    switch (form) {
    case SATC_FORM_AABB:
        for (int j = 0; j < 3; j++)
            g->U[j][j] = 1, g->e[j] = fabsl((ld)r->h[j]);
        break;
    case SATC_FORM_MINMAX:
        for (int j = 0; j < 3; j++) {
            g->c[j] = ((ld)r->lo[j] + r->hi[j]) / 2;
            g->U[j][j] = 1, g->e[j] = fabsl((ld)r->hi[j] - r->lo[j]) / 2;
        }
        break;
    case SATC_FORM_OBB:
        for (int j = 0; j < 3; j++) {
            g->e[j] = fabsl((ld)r->h[j]);
            for (int k = 0; k < 3; k++)
                g->U[j][k] = r->ax[j][k];
        }
        break;
    case SATC_FORM_HALF_AXES: {
        int zero = -1;
        for (int j = 0; j < 3; j++) {
            g->e[j] = 1;
            for (int k = 0; k < 3; k++)
                g->U[j][k] = r->ax[j][k];
            if (!r->ax[j][0] && !r->ax[j][1] && !r->ax[j][2])
                zero = j;
        }
        if (zero >= 0) { /* a flat one: the normal of the others, bound 0 */
            const ld *a = g->U[(zero + 1) % 3], *b = g->U[(zero + 2) % 3];
            g->U[zero][0] = a[1] * b[2] - a[2] * b[1];
            g->U[zero][1] = a[2] * b[0] - a[0] * b[2];
            g->U[zero][2] = a[0] * b[1] - a[1] * b[0];
            g->e[zero] = 0;
        }
        break;
    }
    case SATC_FORM_INSTANCES:
        for (int k = 0; k < 3; k++) {
            g->c[k] = r->m[12 + k];
            g->cmag += fabsl((ld)r->m[12 + k]);
            for (int j = 0; j < 3; j++) {
                g->c[k] += (ld)r->m[4 * j + k] * r->lc[j];
                g->cmag += fabsl((ld)r->m[4 * j + k] * r->lc[j]);
            }
        }
        for (int j = 0; j < 3; j++) {
            g->e[j] = fabsl((ld)r->lh[j]);
            for (int k = 0; k < 3; k++)
                g->U[j][k] = r->m[4 * j + k];
        }
        break;
    default:
        g->sphere = 1;
        g->rad = fabsl((ld)r->h[0]);
    }
    if (form != SATC_FORM_INSTANCES)
        g->cmag = n1(g->c);
    if (!g->sphere) {
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++)
                g->hsum += fabsl(g->U[j][k] * g->e[j]);
    }
    ld s = g->cmag + g->hsum + g->rad;
    for (int j = 0; j < 3; j++)
        s += n1(g->U[j]);
    g->finite = isfinite((double)s);
}

/* Distance from p to the volume: coordinate descent on the coordinates s
 * (each step the exact minimum along U_j, clamped to |s_j| <= e_j). */
static ld point_dist(const geom *g, const ld p[3])
{
    ld w[3];
    for (int k = 0; k < 3; k++)
        w[k] = p[k] - g->c[k];
    if (g->sphere) {
        ld d = sqrtl(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]) - g->rad;
        return d > 0 ? d : 0;
    }
    ld s[3] = {0, 0, 0}, q[3];
    for (int sweep = 0; sweep < 2000; sweep++) {
        ld moved = 0;
        for (int j = 0; j < 3; j++) {
            ld uu = 0, ur = 0;
            for (int k = 0; k < 3; k++) {
                ld r = w[k];
                for (int l = 0; l < 3; l++)
                    if (l != j)
                        r -= s[l] * g->U[l][k];
                uu += g->U[j][k] * g->U[j][k], ur += g->U[j][k] * r;
            }
            ld v = uu > 0 ? ur / uu : 0;
            v = v < -g->e[j] ? -g->e[j] : v > g->e[j] ? g->e[j] : v;
            moved += fabsl(v - s[j]) * sqrtl(uu);
            s[j] = v;
        }
        if (moved <= 1e-30L * (n1(w) + g->hsum) || moved == 0)
            break;
    }
    for (int k = 0; k < 3; k++)
        q[k] = w[k] - s[0] * g->U[0][k] - s[1] * g->U[1][k] - s[2] * g->U[2][k];
    return sqrtl(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
}

/* Farthest point of the volume from p. */
static ld far_dist(const geom *g, const ld p[3])
{
    ld w[3], best = 0;
    for (int k = 0; k < 3; k++)
        w[k] = p[k] - g->c[k];
    if (g->sphere)
        return sqrtl(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]) + g->rad;
    for (int v = 0; v < 8; v++) {
        ld q[3], d = 0;
        for (int k = 0; k < 3; k++) {
            q[k] = w[k];
            for (int j = 0; j < 3; j++)
                q[k] -= ((v >> j & 1) ? 1 : -1) * g->e[j] * g->U[j][k];
            d += q[k] * q[k];
        }
        best = d > best ? d : best;
    }
    return sqrtl(best);
}

static ld det3(ld a[3][3])
{
    return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
           a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
           a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
}

/* Ray o + t d, 0 <= t <= T, against the volume grown by g (each bound e_j
 * by g / |U_j|; a ball's radius by g): 1 and the entry *tin on a hit. */
static int ray_clip(const geom *G, const ld o[3], const ld d[3], ld T, ld g, ld *tin)
{
    ld w[3];
    for (int k = 0; k < 3; k++)
        w[k] = o[k] - G->c[k];
    ld lo = 0, hi = T;
    if (G->sphere) {
        /* |w + t d|^2 <= R^2: the quadratic's roots, in long double. */
        ld R = G->rad + g, A = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        ld B = w[0] * d[0] + w[1] * d[1] + w[2] * d[2], C = w[0] * w[0] + w[1] * w[1] + w[2] * w[2] - R * R;
        if (A == 0) {
            if (C > 0)
                return 0;
        } else {
            ld disc = B * B - A * C;
            if (disc < 0)
                return 0;
            ld sq = sqrtl(disc), t0 = (-B - sq) / A, t1 = (-B + sq) / A;
            lo = lo > t0 ? lo : t0, hi = hi < t1 ? hi : t1;
        }
    } else {
        /* Columns U_j: s0 = U^-1 w, s1 = U^-1 d by Cramer's rule. */
        ld M[3][3], s0[3], s1[3];
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++)
                M[k][j] = G->U[j][k];
        ld det = det3(M);
        for (int j = 0; j < 3; j++) {
            ld A[3][3], B[3][3];
            memcpy(A, M, sizeof A), memcpy(B, M, sizeof B);
            for (int k = 0; k < 3; k++)
                A[k][j] = w[k], B[k][j] = d[k];
            s0[j] = det3(A) / det, s1[j] = det3(B) / det;
        }
        for (int j = 0; j < 3 && lo <= hi; j++) {
            ld e = G->e[j] + g / sqrtl(G->U[j][0] * G->U[j][0] + G->U[j][1] * G->U[j][1] +
                                       G->U[j][2] * G->U[j][2]);
            if (s1[j] == 0) {
                if (fabsl(s0[j]) > e)
                    return 0;
                continue;
            }
            ld a = (-e - s0[j]) / s1[j], z = (e - s0[j]) / s1[j];
            if (a > z) {
                ld x = a;
                a = z, z = x;
            }
            lo = lo > a ? lo : a, hi = hi < z ? hi : z;
        }
    }
    if (lo > hi)
        return 0;
    *tin = lo;
    return 1;
}

/* ------------------------------------------------------------------ */
/* Making volumes                                                       */
/* ------------------------------------------------------------------ */

static void rotation(double R[3][3])
{
    double q[4], len;
    do {
        len = 0;
        for (int k = 0; k < 4; k++)
            q[k] = uni(-1, 1), len += q[k] * q[k];
    } while (len > 1 || len < 1e-4);
    for (int k = 0; k < 4; k++)
        q[k] /= sqrt(len);
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double M[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)},
                      {2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)},
                      {2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)}};
    memcpy(R, M, sizeof M); /* rows: the three unit axes */
}

/* Volume of `form` about pos, size about s; *ortho: its half axes are
 * orthogonal (the band applies). */
static void make(int form, rec *r, const double pos[3], double s, int *ortho)
{
    memset(r, 0, sizeof *r);
    double R[3][3], h[3];
    rotation(R);
    *ortho = 1;
    for (int j = 0; j < 3; j++)
        h[j] = uni(0, 1) < 0.1 ? 0 : s * logu(1e-2, 1);
    for (int k = 0; k < 3; k++)
        r->c[k] = (float)pos[k], r->h[k] = (float)(uni(0, 1) < 0.1 ? -h[k] : h[k]);
    switch (form) {
    case SATC_FORM_MINMAX:
        for (int k = 0; k < 3; k++)
            r->lo[k] = (float)(pos[k] - h[k]), r->hi[k] = (float)(pos[k] + h[k]);
        break;
    case SATC_FORM_OBB:
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++)
                r->ax[j][k] = (float)R[j][k];
        break;
    case SATC_FORM_HALF_AXES: {
        int skew = uni(0, 1) < 0.3;
        if (h[1] == 0 || h[2] == 0)
            h[0] = h[0] ? h[0] : s; /* at most one zero vector */
        if (h[1] == 0 && h[2] == 0)
            h[1] = s;
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++)
                r->ax[j][k] = (float)(h[j] * (R[j][k] + (skew && j == 2 ? 0.6 * R[0][k] : 0)));
        *ortho = !skew;
        break;
    }
    case SATC_FORM_INSTANCES: {
        int shear = uni(0, 1) < 0.3;
        double sc[3];
        for (int j = 0; j < 3; j++) /* one by one: an initializer list has no order */
            sc[j] = logu(0.5, 4);
        for (int j = 0; j < 3; j++) {
            r->lc[j] = (float)(s * uni(-0.3, 0.3));
            r->lh[j] = (float)(h[j] / sc[j] * (uni(0, 1) < 0.1 ? -1 : 1));
            for (int k = 0; k < 3; k++)
                r->m[4 * j + k] = (float)(sc[j] * (R[j][k] + (shear && j == 1 ? 0.5 * R[0][k] : 0)));
        }
        r->m[15] = 1;
        for (int k = 0; k < 3; k++) {
            double t = pos[k];
            for (int j = 0; j < 3; j++)
                t -= (double)r->m[4 * j + k] * r->lc[j];
            r->m[12 + k] = (float)t;
        }
        *ortho = !shear;
        break;
    }
    case SATC_FORM_SPHERES:
        r->h[0] = (float)(s * logu(1e-2, 1) * (uni(0, 1) < 0.1 ? -1 : 1));
        if (uni(0, 1) < 0.05)
            r->h[0] = 0;
        break;
    default:
        break;
    }
}

/* Moves volume r to pos (its center, or an instance's translation). */
static void place(int form, rec *r, const double pos[3])
{
    for (int k = 0; k < 3; k++) {
        switch (form) {
        case SATC_FORM_MINMAX: {
            double c = 0.5 * ((double)r->lo[k] + r->hi[k]), dl = r->lo[k] - c, dh = r->hi[k] - c;
            r->lo[k] = (float)(pos[k] + dl), r->hi[k] = (float)(pos[k] + dh);
            break;
        }
        case SATC_FORM_INSTANCES: {
            double t = pos[k];
            for (int j = 0; j < 3; j++)
                t -= (double)r->m[4 * j + k] * r->lc[j];
            r->m[12 + k] = (float)t;
            break;
        }
        default:
            r->c[k] = (float)pos[k];
        }
    }
}

static void spoil(int form, rec *r, int how)
{
    float v = how % 3 == 0 ? NAN : how % 3 == 1 ? INFINITY : -INFINITY;
    switch (form) {
    case SATC_FORM_MINMAX: r->hi[how % 3] = v; break;
    case SATC_FORM_INSTANCES: r->m[how % 2 ? 5 : 13] = v; break;
    case SATC_FORM_SPHERES: if (how % 2) r->h[0] = v; else r->c[1] = v; break;
    case SATC_FORM_OBB: case SATC_FORM_HALF_AXES: r->ax[how % 3][1] = v; break;
    default: r->c[how % 3] = v;
    }
}

/* ------------------------------------------------------------------ */
/* Running every path                                                   */
/* ------------------------------------------------------------------ */

static satc_isa paths[8];
static int npaths;

typedef struct outs {
    uint8_t mask[N / 8 + 1], cls[N];
    uint32_t idx[N];
    float t[N];
    size_t visible, nearest;
    satc_status st;
} outs;

typedef struct q {
    int ray;
    float p[3], r;          /* sphere */
    float d[3], tmax;       /* ray: origin p */
} q_t;

static void run1(satc_isa isa, const q_t *q, const satc_batch *b, size_t n, satc_mode mode, outs *o)
{
    memset(o, 0xa5, sizeof *o);
    satc_results r = {o->mask, o->cls, o->idx, 0};
    if (q->ray)
        o->st = satc_query_ray_isa(isa, q->p, q->d, q->tmax, b, 0, n, mode, &r, o->t, &o->nearest);
    else
        o->st = satc_query_sphere_isa(isa, q->p, q->r, b, 0, n, mode, &r);
    o->visible = r.visible;
}

static int same(const outs *a, const outs *b, size_t n, int ray)
{
    return a->st == b->st && a->visible == b->visible && !memcmp(a->mask, b->mask, (n + 7) / 8) &&
           !memcmp(a->cls, b->cls, n) && !memcmp(a->idx, b->idx, a->visible * sizeof a->idx[0]) &&
           (!ray || (!memcmp(a->t, b->t, a->visible * sizeof a->t[0]) && a->nearest == b->nearest));
}

/* Both modes on scalar, every other path compared with it; then every
 * path again with group bounds of 8 volumes attached (satc_group_bounds):
 * the same answer. */
static void run_all(const q_t *q, const satc_batch *b, size_t n, outs o[2], const char *what)
{
    static float gc[3 * (N / 8 + 1)], gh[3 * (N / 8 + 1)];
    size_t ng = (n + 7) / 8;
    satc_groups groups = {8, NULL, ng, SATC_VEC3S_AOS(gc, 12), SATC_VEC3S_AOS(gh, 12)};
    satc_batch grouped = *b;
    grouped.groups = &groups;
    check(satc_group_bounds(b, n, 8, NULL, ng, gc, gh) == SATC_OK, "group bounds");
    for (int mode = 0; mode < 2; mode++) {
        run1(SATC_ISA_SCALAR, q, b, n, (satc_mode)mode, &o[mode]);
        check(o[mode].st == SATC_OK, what);
        for (int p = -1; p < npaths; p++) {
            satc_isa isa = p < 0 ? SATC_ISA_SCALAR : paths[p];
            for (int grp = 0; grp < 2; grp++) {
                static outs g;
                if (p < 0 && !grp)
                    continue;
                run1(isa, q, grp ? &grouped : b, n, (satc_mode)mode, &g);
                char msg[160];
                snprintf(msg, sizeof msg, "%s: path %s mode %d%s equals scalar", what,
                         satc_isa_name(isa), mode, grp ? " with group bounds" : "");
                check(same(&g, &o[mode], n, q->ray), msg);
            }
        }
    }
}

static int bit(const outs *o, size_t i) { return o->mask[i / 8] >> (i % 8) & 1; }

/* ------------------------------------------------------------------ */
/* Random queries                                                       */
/* ------------------------------------------------------------------ */

static long s_fn, s_band, s_hit, s_kept, s_inside_bad, s_inside, s_nonfinite_bad, s_skew_kept;
static ld s_skew_worst; /* largest (distance - r) / Q kept for a sheared or flat volume */

static void sphere_trials(int form, int trials)
{
    static rec r[N];
    int ortho[N];
    geom g[N];
    for (int t = 0; t < trials; t++) {
        double far = t % 5 == 0 ? 1e5 : 1e3;
        q_t q = {0};
        for (int k = 0; k < 3; k++)
            q.p[k] = (float)uni(-far, far);
        q.r = t % 9 == 0 ? 0.0f : (float)logu(1e-2, 1e2);
        double s = logu(1e-2, 1) * (q.r > 0 ? q.r : 1) * 2;
        ld P[3] = {q.p[0], q.p[1], q.p[2]};
        for (size_t i = 0; i < N; i++) {
            double u[3], ul = 0, pos[3];
            for (int k = 0; k < 3; k++)
                u[k] = uni(-1, 1), ul += u[k] * u[k];
            double dist = uni(0, 1.5) * (q.r + 2 * s);
            for (int k = 0; k < 3; k++)
                pos[k] = q.p[k] + u[k] / sqrt(ul) * dist;
            make(form, &r[i], pos, s, &ortho[i]);
            if (i % 2) { /* graze: bisect along u for distance r */
                double lo = 0, hi = 4 * (q.r + 4 * s) + 1;
                for (int it = 0; it < 50; it++) {
                    double m = 0.5 * (lo + hi);
                    for (int k = 0; k < 3; k++)
                        pos[k] = q.p[k] + u[k] / sqrt(ul) * m;
                    place(form, &r[i], pos);
                    truth(form, &r[i], &g[i]);
                    if (point_dist(&g[i], P) <= q.r)
                        lo = m;
                    else
                        hi = m;
                }
                double m = uni(0, 1) < 0.5 ? lo : hi;
                for (int k = 0; k < 3; k++)
                    pos[k] = q.p[k] + u[k] / sqrt(ul) * m;
                place(form, &r[i], pos);
            }
            if (i % 61 == 7)
                spoil(form, &r[i], (int)i);
            truth(form, &r[i], &g[i]);
        }
        satc_batch b = batch_of(form, r);
        static outs o[2];
        char what[96];
        snprintf(what, sizeof what, "sphere query on %s", form_name[form]);
        run_all(&q, &b, N, o, what);
        for (size_t i = 0; i < N; i++) {
            int cons = bit(&o[0], i), ex = bit(&o[1], i);
            check(!ex || cons, "sphere: exact keeps only what conservative keeps");
            if (!g[i].finite) {
                s_nonfinite_bad += !cons || !ex || o[1].cls[i] != SATC_INTERSECTING;
                continue;
            }
            ld d = point_dist(&g[i], P);
            int hit = d <= q.r;
            s_hit += hit;
            s_kept += ex;
            if (hit && !(cons && ex)) {
                if (++s_fn <= 3)
                    printf("  sphere FN: %s i %zu dist %.20Lg r %.9g\n", form_name[form], i, d, q.r);
            }
            ld w[3] = {P[0] - g[i].c[0], P[1] - g[i].c[1], P[2] - g[i].c[2]};
            ld Q = n1(P) + g[i].cmag + n1(w) + g[i].hsum + q.r + 2 * g[i].rad;
            if (ex && ortho[i] && d > q.r + 2 * SATC_QUERY_TOLERANCE * Q) {
                if (++s_band <= 3)
                    printf("  sphere beyond band: %s i %zu dist-r %.3Lg Q %.3Lg\n", form_name[form],
                           i, d - q.r, Q);
            }
            if (ex && !ortho[i] && !hit) {
                s_skew_kept++;
                if ((d - q.r) / Q > s_skew_worst)
                    s_skew_worst = (d - q.r) / Q;
            }
            if (o[1].cls[i] == SATC_INSIDE) {
                s_inside++;
                s_inside_bad += far_dist(&g[i], P) > q.r;
            }
            if (ex)
                s_inside_bad += o[1].cls[i] != SATC_INSIDE && o[1].cls[i] != SATC_INTERSECTING;
        }
    }
}

static long r_fn, r_band, r_hit, r_kept, r_tbad, r_nearbad, r_nonfinite_bad;

static void ray_trials(int form, int trials)
{
    static rec r[N];
    int ortho[N];
    geom g[N];
    for (int t = 0; t < trials; t++) {
        double far = t % 5 == 0 ? 1e5 : 1e3;
        q_t q = {0};
        q.ray = 1;
        double dl = 0, dd[3];
        for (int k = 0; k < 3; k++)
            q.p[k] = (float)uni(-far, far), dd[k] = uni(-1, 1), dl += dd[k] * dd[k];
        double scale = logu(1e-2, 1e2);
        for (int k = 0; k < 3; k++)
            q.d[k] = (float)(scale * dd[k] / sqrt(dl));
        if (t % 8 == 1) /* along a world axis: slabs edge-on */
            q.d[0] = q.d[1] = 0, q.d[2] = (float)-scale;
        double reach = logu(1, 1e3); /* world length of the segment */
        double dn = sqrt((double)q.d[0] * q.d[0] + (double)q.d[1] * q.d[1] + (double)q.d[2] * q.d[2]);
        q.tmax = t % 3 == 0 ? INFINITY : (float)(reach / dn);
        if (t % 16 == 3)
            q.d[0] = q.d[1] = q.d[2] = 0, dn = 0;
        if (t % 16 == 7)
            q.tmax = 0;
        double span = dn > 0 && q.tmax > 0 ? reach : 0; /* where volumes go along it */
        double s = logu(1e-3, 1) * (1 + reach * 0.05);
        ld O[3] = {q.p[0], q.p[1], q.p[2]}, D[3] = {q.d[0], q.d[1], q.d[2]};
        for (size_t i = 0; i < N; i++) {
            double along = uni(-0.2, 1.2) * span, perp[3], pl = 0, base[3], pos[3];
            for (int k = 0; k < 3; k++)
                perp[k] = uni(-1, 1), pl += perp[k] * perp[k];
            for (int k = 0; k < 3; k++)
                base[k] = q.p[k] + (dn > 0 ? q.d[k] / dn * along : 0), perp[k] /= sqrt(pl);
            double off = uni(0, 3) * s;
            for (int k = 0; k < 3; k++)
                pos[k] = base[k] + perp[k] * off;
            make(form, &r[i], pos, s, &ortho[i]);
            if (i % 2) { /* graze: bisect sideways for the touching offset */
                double lo = 0, hi = 16 * s + 1;
                ld tin;
                for (int it = 0; it < 50; it++) {
                    double m = 0.5 * (lo + hi);
                    for (int k = 0; k < 3; k++)
                        pos[k] = base[k] + perp[k] * m;
                    place(form, &r[i], pos);
                    truth(form, &r[i], &g[i]);
                    if (ray_clip(&g[i], O, D, q.tmax, 0, &tin))
                        lo = m;
                    else
                        hi = m;
                }
                double m = uni(0, 1) < 0.5 ? lo : hi;
                for (int k = 0; k < 3; k++)
                    pos[k] = base[k] + perp[k] * m;
                place(form, &r[i], pos);
            }
            if (i % 61 == 7)
                spoil(form, &r[i], (int)i);
            truth(form, &r[i], &g[i]);
        }
        satc_batch b = batch_of(form, r);
        static outs o[2];
        char what[96];
        snprintf(what, sizeof what, "ray query on %s", form_name[form]);
        run_all(&q, &b, N, o, what);
        ld best_o = INFINITY;
        size_t k = 0;
        for (size_t i = 0; i < N; i++) {
            int cons = bit(&o[0], i), ex = bit(&o[1], i);
            check(!ex || cons, "ray: exact keeps only what conservative keeps");
            float ti = NAN;
            if (ex) {
                check(o[1].idx[k] == i && o[1].cls[i] == SATC_INTERSECTING, "ray: index list and class");
                ti = o[1].t[k++];
            } else {
                check(o[1].cls[i] == SATC_OUTSIDE, "ray: class of a miss");
            }
            if (!g[i].finite) {
                r_nonfinite_bad += !cons || !ex || !isnan(ti);
                continue;
            }
            ld tin = 0, tg = 0;
            int hit = ray_clip(&g[i], O, D, q.tmax, 0, &tin);
            r_hit += hit;
            r_kept += ex;
            if (hit && !(cons && ex)) {
                if (++r_fn <= 3)
                    printf("  ray FN: %s i %zu\n", form_name[form], i);
            }
            if (hit && tin < best_o)
                best_o = tin;
            if (!ex)
                continue;
            /* The band: the volume grown by 3 tol Q (about the foot). */
            ld w0[3], A = D[0] * D[0] + D[1] * D[1] + D[2] * D[2], tf = 0, w[3];
            for (int c = 0; c < 3; c++)
                w0[c] = O[c] - g[i].c[c];
            if (A > 0)
                tf = -(w0[0] * D[0] + w0[1] * D[1] + w0[2] * D[2]) / A;
            for (int c = 0; c < 3; c++)
                w[c] = w0[c] + tf * D[c];
            ld Q = n1(O) + g[i].cmag + n1(w0) + fabsl(tf) * n1(D) + n1(w) + g[i].hsum + 2 * g[i].rad;
            ld band = 3 * SATC_QUERY_TOLERANCE * Q;
            int in_band = ray_clip(&g[i], O, D, q.tmax, band, &tg);
            if (ortho[i] && !in_band) {
                if (++r_band <= 3)
                    printf("  ray beyond band: %s i %zu\n", form_name[form], i);
            }
            /* t: no later than the true entry, no earlier than the entry
             * into the grown volume (float rounding aside). */
            if (ortho[i] && in_band) {
                ld slack = 0x1p-23L * fabsl(tg) + 0x1p-23L * (tin > 0 ? tin : 0) + 1e-30L;
                int ok = (ld)ti >= tg - slack && (!hit || (ld)ti <= tin + slack);
                if (!ok && ++r_tbad <= 3)
                    printf("  ray t: %s i %zu t %.9g oracle %.12Lg grown %.12Lg hit %d\n",
                           form_name[form], i, ti, tin, tg, hit);
            }
        }
        /* Nearest: the smallest returned t, ties to the smaller index;
         * no later than the oracle's nearest entry. */
        size_t want = SIZE_MAX;
        float bt = INFINITY;
        for (size_t j = 0; j < o[1].visible; j++)
            if (o[1].t[j] < bt)
                bt = o[1].t[j], want = o[1].idx[j];
        int ok = o[1].nearest == want;
        if (best_o < INFINITY)
            ok &= want != SIZE_MAX && (ld)bt <= best_o * (1 + 0x1p-23L) + 1e-30L;
        r_nearbad += !ok;
    }
}

/* ------------------------------------------------------------------ */
/* Adversarial cases, by hand                                           */
/* ------------------------------------------------------------------ */

/* One AABB or sphere, every path and mode: hit?, class, t, nearest. */
static void one(const char *what, int ray, const float p[3], const float dr[3], float rt,
                const float c[3], const float h[3], float srad, int want_hit, float want_t)
{
    rec r[2];
    memset(r, 0, sizeof r);
    int form = srad >= 0 ? SATC_FORM_SPHERES : SATC_FORM_AABB;
    for (int i = 0; i < 2; i++) {
        memcpy(r[i].c, c, sizeof r[i].c);
        if (h)
            memcpy(r[i].h, h, sizeof r[i].h);
        if (srad >= 0)
            r[i].h[0] = srad;
    }
    r[1].c[0] = NAN; /* a non-finite neighbour: a hit, never the nearest */
    satc_batch b = batch_of(form, r);
    q_t q = {0};
    q.ray = ray;
    memcpy(q.p, p, sizeof q.p);
    if (ray) {
        memcpy(q.d, dr, sizeof q.d);
        q.tmax = rt;
    } else {
        q.r = rt;
    }
    outs o[2];
    run_all(&q, &b, 2, o, what);
    char msg[200];
    snprintf(msg, sizeof msg, "%s: exact %s", what, want_hit ? "hits" : "misses");
    check(bit(&o[1], 0) == want_hit && bit(&o[0], 0) >= want_hit && bit(&o[1], 1) &&
              o[1].cls[1] == SATC_INTERSECTING,
          msg);
    if (ray && want_hit) {
        /* No later than the true entry; early only within the band
         * (a tangent ray by about sqrt(2 r band)). */
        snprintf(msg, sizeof msg, "%s: t %.9g (want %g), nearest 0", what, o[1].t[0], want_t);
        check(o[1].t[0] <= want_t && o[1].t[0] >= want_t - 1e-4f * (1 + want_t) &&
                  isnan(o[1].t[1]) && o[1].nearest == 0,
              msg);
    }
    if (ray && !want_hit) {
        snprintf(msg, sizeof msg, "%s: no nearest", what);
        check(o[1].nearest == SIZE_MAX && o[1].visible == 1, msg);
    }
}

static void adversarial(void)
{
    const float z[3] = {0, 0, 0}, one3[3] = {1, 1, 1}, flat[3] = {1, 0, 1}, pt[3] = {0, 0, 0};
    float below2 = nextafterf(2.0f, 0.0f);
    /* Spheres against a box: touching a face, an edge, a corner. */
    one("sphere touches a face", 0, (float[3]){3, 0, 0}, NULL, 2.0f, z, one3, -1, 1, 0);
    one("sphere misses a face by an ulp", 0, (float[3]){3, 0, 0}, NULL, below2, z, one3, -1, 0, 0);
    one("sphere touches an edge", 0, (float[3]){5, 6, 0.5f}, NULL, 5.0f, (float[3]){1, 1, 0}, one3, -1, 1, 0);
    one("sphere misses an edge by an ulp", 0, (float[3]){5, 6, 0.5f}, NULL, nextafterf(5.0f, 0), (float[3]){1, 1, 0}, one3, -1, 0, 0);
    one("sphere touches a corner", 0, (float[3]){3, 3, 2}, NULL, 3.0f, z, one3, -1, 1, 0);
    one("sphere misses a corner by an ulp", 0, (float[3]){3, 3, 2}, NULL, nextafterf(3.0f, 0), z, one3, -1, 0, 0);
    one("point on a face (radius 0)", 0, (float[3]){1, 0.5f, -0.25f}, NULL, 0.0f, z, one3, -1, 1, 0);
    one("point just off a face", 0, (float[3]){nextafterf(1, 2), 0, 0}, NULL, 0.0f, z, one3, -1, 0, 0);
    one("sphere touches a flat box", 0, (float[3]){0, 2, 0}, NULL, 2.0f, z, flat, -1, 1, 0);
    one("sphere touches a point box", 0, (float[3]){0, 3, 4}, NULL, 5.0f, z, pt, -1, 1, 0);
    one("sphere misses a point box", 0, (float[3]){0, 3, 4}, NULL, nextafterf(5.0f, 0), z, pt, -1, 0, 0);
    one("spheres touching", 0, (float[3]){3, 0, 0}, NULL, 2.0f, z, NULL, 1.0f, 1, 0);
    one("spheres an ulp apart", 0, (float[3]){3, 0, 0}, NULL, below2, z, NULL, 1.0f, 0, 0);
    /* Rays. */
    const float px[3] = {1, 0, 0}, mx[3] = {-1, 0, 0}, pz[3] = {0, 0, 1}, zero[3] = {0, 0, 0};
    one("ray through a box", 1, (float[3]){-5, 0.5f, 0}, px, 100, z, one3, -1, 1, 4);
    one("ray along a face", 1, (float[3]){-5, 1, 0}, px, 100, z, one3, -1, 1, 4);
    one("ray along a face, an ulp off", 1, (float[3]){-5, nextafterf(1, 2), 0}, px, 100, z, one3, -1, 0, 0);
    one("ray along an edge", 1, (float[3]){-5, 1, -1}, px, INFINITY, z, one3, -1, 1, 4);
    one("ray grazing a corner", 1, (float[3]){-1, -1, -3}, pz, INFINITY, z, one3, -1, 1, 2);
    one("ray starting inside", 1, (float[3]){0.25f, 0.5f, 0}, px, 100, z, one3, -1, 1, 0);
    one("ray starting on a face, leaving", 1, (float[3]){1, 0, 0}, px, 100, z, one3, -1, 1, 0);
    one("ray pointing away", 1, (float[3]){2, 0, 0}, px, INFINITY, z, one3, -1, 0, 0);
    one("segment ending on the face", 1, (float[3]){-5, 0, 0}, px, 4, z, one3, -1, 1, 4);
    one("segment ending an ulp short", 1, (float[3]){-5, 0, 0}, px, nextafterf(4, 0), z, one3, -1, 0, 0);
    one("zero-length segment on a face", 1, (float[3]){-1, 0.5f, 0.5f}, px, 0, z, one3, -1, 1, 0);
    one("zero direction inside", 1, (float[3]){0.5f, 0, 0}, zero, INFINITY, z, one3, -1, 1, 0);
    one("zero direction outside", 1, (float[3]){1.5f, 0, 0}, zero, INFINITY, z, one3, -1, 0, 0);
    one("ray through a flat box", 1, (float[3]){0, -7, 0.5f}, (float[3]){0, 2, 0}, 10, z, flat, -1, 1, 3.5f);
    one("ray along a flat box", 1, (float[3]){-9, 0, 0}, px, 10, z, flat, -1, 1, 8);
    one("ray through a point box", 1, (float[3]){0, 0, -3}, pz, 10, z, pt, -1, 1, 3);
    one("ray past a point box", 1, (float[3]){0, 1e-6f, -3}, pz, 10, z, pt, -1, 0, 0);
    one("half-line to a far box", 1, (float[3]){0, 0, 0}, mx, INFINITY, (float[3]){-1e6f, 0, 0}, one3, -1, 1, 999999);
    one("ray into a sphere", 1, (float[3]){-5, 0, 0}, (float[3]){2, 0, 0}, INFINITY, z, NULL, 1.0f, 1, 2);
    one("ray tangent to a sphere", 1, (float[3]){-5, 1, 0}, px, INFINITY, z, NULL, 1.0f, 1, 5);
    one("ray an ulp past a sphere", 1, (float[3]){-5, nextafterf(1, 2), 0}, px, INFINITY, z, NULL, 1.0f, 0, 0);
    one("ray from inside a sphere", 1, (float[3]){0.5f, 0, 0}, mx, 1, z, NULL, 1.0f, 1, 0);

    /* Instances picking their local box by mesh id: an id past the table
     * is a non-finite volume (a hit, t NaN, never the nearest). */
    {
        const float mats[3][16] = {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, -10, 1},
                                   {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, -5, 1},
                                   {0, 0, -2, 0, 0, 1, 0, 0, 2, 0, 0, 0, 0, 0, -20, 1}};
        const uint32_t ids[3] = {0, 7, 1};
        const float lcen[2][3] = {{0, 0, 0}, {0, 0, 0.5f}}, lhal[2][3] = {{1, 1, 1}, {0.5f, 0.5f, 0.5f}};
        satc_batch ib;
        memset(&ib, 0, sizeof ib);
        ib.form = SATC_FORM_INSTANCES;
        ib.instances.matrix = mats[0];
        ib.instances.stride = sizeof mats[0];
        ib.instances.local_center = (satc_vec3s)SATC_VEC3S_AOS(&lcen[0][0], 12);
        ib.instances.local_half = (satc_vec3s)SATC_VEC3S_AOS(&lhal[0][0], 12);
        ib.instances.mesh = ids;
        ib.instances.mesh_stride = 4;
        ib.instances.mesh_count = 2;
        q_t qi = {0};
        qi.ray = 1, qi.d[2] = -1, qi.tmax = INFINITY;
        outs oi[2];
        run_all(&qi, &ib, 3, oi, "instances by mesh id");
        /* Instance 2: x' = 2 z, z' = -2 x - 20, local box z in [0, 1]:
         * x' in [0, 2], z' in [-21, -19]: the ray along -z from the origin
         * touches its face x' = 0, entering at z' = -19. */
        check(oi[1].visible == 3 && oi[1].t[0] == 9 && isnan(oi[1].t[1]) && oi[1].t[2] == 19 &&
                  oi[1].nearest == 0,
              "instances by mesh id: hits 0 (t 9), 1 (id past the table, t NaN), 2 (t 19)");
    }

    /* Nearest among several: ties go to the smaller index. */
    rec r[4];
    memset(r, 0, sizeof r);
    float cs[4][3] = {{10, 0, 0}, {5, 0, 0}, {5, 0, 0}, {3, 5, 0}};
    for (int i = 0; i < 4; i++)
        memcpy(r[i].c, cs[i], sizeof r[i].c), memcpy(r[i].h, one3, sizeof one3);
    satc_batch b = batch_of(SATC_FORM_AABB, r);
    q_t q = {0};
    q.ray = 1;
    q.d[0] = 1, q.tmax = INFINITY;
    outs o[2];
    run_all(&q, &b, 4, o, "nearest of several");
    check(o[1].visible == 3 && o[1].nearest == 1 && o[1].t[0] == 9 && o[1].t[1] == 4 && o[1].t[2] == 4,
          "nearest of several: index 1 (tie with 2 at t 4)");
}

/* ------------------------------------------------------------------ */
/* Bad calls: a status and nothing written                              */
/* ------------------------------------------------------------------ */

static void bad_calls(void)
{
    rec r[4];
    memset(r, 0, sizeof r);
    satc_batch b = batch_of(SATC_FORM_AABB, r), bad_form = b;
    bad_form.form = (satc_form)99;
    satc_batch null_stream = b;
    null_stream.aabb.half.y = NULL;
    const float p[3] = {0, 0, 0}, d[3] = {1, 0, 0}, nanp[3] = {0, NAN, 0}, infp[3] = {INFINITY, 0, 0};
    const float huge[3] = {1e12f, 1e12f, 0};
    struct {
        const char *what;
        int ray;
        const float *p, *d;
        float x; /* radius or tmax */
        const satc_batch *b;
        size_t first, count;
        int mode, want_idx;
        satc_isa isa;
        satc_status want;
    } cases[] = {
        {"sphere NULL center", 0, NULL, NULL, 1, &b, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_NULL},
        {"sphere NULL batch", 0, p, NULL, 1, NULL, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_NULL},
        {"sphere NaN center", 0, nanp, NULL, 1, &b, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_NONFINITE},
        {"sphere NaN radius", 0, p, NULL, NAN, &b, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_NONFINITE},
        {"sphere infinite radius", 0, p, NULL, INFINITY, &b, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_NONFINITE},
        {"sphere negative radius", 0, p, NULL, -1, &b, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_BOUNDS},
        {"sphere huge radius", 0, p, NULL, 3e38f, &b, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_BOUNDS},
        {"sphere center beyond 2^40", 0, huge, NULL, 1, &b, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_BOUNDS},
        {"sphere bad mode", 0, p, NULL, 1, &b, 0, 4, 7, 1, SATC_ISA_SCALAR, SATC_ERR_FLAGS},
        {"sphere bad form", 0, p, NULL, 1, &bad_form, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_FLAGS},
        {"sphere NULL stream", 0, p, NULL, 1, &null_stream, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_NULL},
        {"sphere range overflow", 0, p, NULL, 1, &b, SIZE_MAX, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_RANGE},
        {"sphere indices past 2^32", 0, p, NULL, 1, &b, (size_t)UINT32_MAX, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_RANGE},
        {"sphere no path", 0, p, NULL, 1, &b, 0, 4, 1, 1, (satc_isa)0, SATC_ERR_FLAGS},
        {"sphere two paths", 0, p, NULL, 1, &b, 0, 4, 1, 1, (satc_isa)3, SATC_ERR_FLAGS},
        {"ray NULL origin", 1, NULL, d, 1, &b, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_NULL},
        {"ray NULL dir", 1, p, NULL, 1, &b, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_NULL},
        {"ray NaN origin", 1, nanp, d, 1, &b, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_NONFINITE},
        {"ray infinite dir", 1, p, infp, 1, &b, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_NONFINITE},
        {"ray NaN tmax", 1, p, d, NAN, &b, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_NONFINITE},
        {"ray negative tmax", 1, p, d, -1, &b, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_BOUNDS},
        {"ray -Inf tmax", 1, p, d, -INFINITY, &b, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_BOUNDS},
        {"ray origin beyond 2^40", 1, huge, d, 1, &b, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_BOUNDS},
        {"ray bad mode", 1, p, d, 1, &b, 0, 4, -1, 1, SATC_ISA_SCALAR, SATC_ERR_FLAGS},
        {"ray bad form", 1, p, d, 1, &bad_form, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_FLAGS},
        {"ray NULL stream", 1, p, d, 1, &null_stream, 0, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_NULL},
        {"ray range overflow", 1, p, d, 1, &b, SIZE_MAX - 1, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_RANGE},
        {"ray indices past 2^32", 1, p, d, 1, &b, (size_t)UINT32_MAX, 4, 1, 1, SATC_ISA_SCALAR, SATC_ERR_RANGE},
        {"ray unknown path bit", 1, p, d, 1, &b, 0, 4, 1, 1, (satc_isa)64, SATC_ERR_FLAGS},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        uint8_t mask[8], cls[8], keep[8];
        uint32_t idx[8];
        float t[8];
        size_t nearest = 12345;
        memset(mask, 0x5a, sizeof mask), memset(cls, 0x5a, sizeof cls), memset(keep, 0x5a, sizeof keep);
        memset(idx, 0x5a, sizeof idx), memset(t, 0x5a, sizeof t);
        satc_results res = {mask, cls, cases[k].want_idx ? idx : NULL, 777};
        satc_status st =
            cases[k].ray ? satc_query_ray_isa(cases[k].isa, cases[k].p, cases[k].d, cases[k].x, cases[k].b,
                                              cases[k].first, cases[k].count, (satc_mode)cases[k].mode,
                                              &res, t, &nearest)
                         : satc_query_sphere_isa(cases[k].isa, cases[k].p, cases[k].x, cases[k].b,
                                                 cases[k].first, cases[k].count,
                                                 (satc_mode)cases[k].mode, &res);
        uint32_t kidx[8];
        float kt[8];
        memset(kidx, 0x5a, sizeof kidx), memset(kt, 0x5a, sizeof kt);
        char msg[160];
        snprintf(msg, sizeof msg, "bad call: %s gives %d (want %d), nothing written", cases[k].what,
                 (int)st, (int)cases[k].want);
        check(st == cases[k].want && !memcmp(mask, keep, 8) && !memcmp(cls, keep, 8) &&
                  !memcmp(idx, kidx, sizeof idx) && !memcmp(t, kt, sizeof t) && nearest == 12345 &&
                  res.visible == 777,
              msg);
    }
    /* NULL results; and the active-path entry points agree with scalar. */
    check(satc_query_sphere(p, 1, &b, 0, 4, SATC_EXACT, NULL) == SATC_ERR_NULL, "sphere NULL out");
    check(satc_query_ray(p, d, 1, &b, 0, 4, SATC_EXACT, NULL, NULL, NULL) == SATC_ERR_NULL, "ray NULL out");
    size_t nearest = 5;
    satc_results res = {0};
    check(satc_query_ray(p, d, 1, &b, 0, 0, SATC_EXACT, &res, NULL, &nearest) == SATC_OK &&
              res.visible == 0 && nearest == SIZE_MAX,
          "ray count 0: nothing visible, no nearest");
    /* Ranges: a sub-range gives the same hits as the whole. */
    rec big[100];
    memset(big, 0, sizeof big);
    for (int i = 0; i < 100; i++)
        big[i].c[0] = (float)i, big[i].h[0] = big[i].h[1] = big[i].h[2] = 0.25f;
    satc_batch bb = batch_of(SATC_FORM_AABB, big);
    uint32_t idx[100];
    float t[100];
    satc_results all = {NULL, NULL, idx, 0};
    const float o[3] = {-10, 0, 0};
    check(satc_query_ray(o, d, INFINITY, &bb, 30, 50, SATC_EXACT, &all, t, &nearest) == SATC_OK &&
              all.visible == 50 && idx[0] == 30 && idx[49] == 79 && nearest == 30 && t[0] == 39.75f,
          "ray over a sub-range: absolute indices, nearest and t");
    satc_results sp = {NULL, NULL, idx, 0};
    const float c[3] = {50, 0, 0};
    check(satc_query_sphere(c, 2.75f, &bb, 0, 100, SATC_EXACT, &sp) == SATC_OK && sp.visible == 7 &&
              idx[0] == 47 && idx[6] == 53,
          "sphere over the batch: the 7 boxes within 2.75 (47 and 53 touching)");
}

/* A batch longer than the candidate blocks (16384 volumes), from an odd
 * first: the same answer as two calls on its halves, counts as computed
 * by hand, every path. */
static void long_batch(void)
{
    enum { M = 40003 };
    static float rec6[M][6];
    static uint8_t m1[M / 8 + 2], m2[M / 8 + 2];
    static uint32_t i1[M], i2[M];
    static float t1[M], t2[M];
    for (int i = 0; i < M; i++) {
        rec6[i][0] = 0.5f * (float)i, rec6[i][1] = rec6[i][2] = 0;
        rec6[i][3] = 0.125f, rec6[i][4] = rec6[i][5] = 0.25f;
    }
    satc_batch b;
    memset(&b, 0, sizeof b);
    b.form = SATC_FORM_AABB;
    b.aabb.center = (satc_vec3s)SATC_VEC3S_AOS(&rec6[0][0], sizeof rec6[0]);
    b.aabb.half = (satc_vec3s)SATC_VEC3S_AOS(&rec6[0][3], sizeof rec6[0]);
    const float o[3] = {-1, 0.25f, 0}, d[3] = {1, 0, 0}, c[3] = {10000, 0, 0};
    size_t first = 3, count = M - 3, half = 20000;
    for (int p = -1; p < npaths; p++) {
        satc_isa isa = p < 0 ? SATC_ISA_SCALAR : paths[p];
        size_t n1 = 0, n2 = 0;
        satc_results a = {m1, NULL, i1, 0}, x = {m2, NULL, i2, 0}, y = {m2 + half / 8, NULL, i2, 0};
        int ok = satc_query_ray_isa(isa, o, d, INFINITY, &b, first, count, SATC_EXACT, &a, t1, &n1) == SATC_OK;
        ok &= satc_query_ray_isa(isa, o, d, INFINITY, &b, first, half, SATC_EXACT, &x, t2, &n2) == SATC_OK;
        size_t v1 = x.visible;
        ok &= satc_query_ray_isa(isa, o, d, INFINITY, &b, first + half, count - half, SATC_EXACT, &y,
                                 t2 + v1, NULL) == SATC_OK;
        /* The ray grazes every box's top face: all hit, box i entered at
         * x = 0.5 i - 0.125, t = 0.5 i + 0.875. */
        ok &= a.visible == count && v1 + y.visible == count && n1 == first && n2 == first &&
              !memcmp(m1, m2, (count + 7) / 8) && !memcmp(t1 + v1, t2 + v1, y.visible * sizeof *t1) &&
              !memcmp(t1, t2, v1 * sizeof *t1) && t1[count - 1] == 0.5f * (float)(M - 1) + 0.875f &&
              i1[count - 1] == M - 1 && i1[0] == first;
        char msg[120];
        snprintf(msg, sizeof msg, "long batch: ray over %zu boxes on %s", count, satc_isa_name(isa));
        check(ok, msg);
        /* Sphere of radius 100 at x = 10000: |0.5 i - 10000| <= 100.125,
         * i in [19800, 20200] (both ends touching). */
        satc_results s = {m1, NULL, i1, 0};
        ok = satc_query_sphere_isa(isa, c, 100, &b, first, count, SATC_EXACT, &s) == SATC_OK &&
             s.visible == 401 && i1[0] == 19800 && i1[400] == 20200;
        snprintf(msg, sizeof msg, "long batch: sphere over %zu boxes on %s", count, satc_isa_name(isa));
        check(ok, msg);
    }
}

int main(int argc, char **argv)
{
    int trials = 24;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--trials") && i + 1 < argc)
            trials = atoi(argv[++i]);
    if (getenv("SATC_TEST_QUICK"))
        trials = 4;
    unsigned run = satc_isa_runnable();
    for (unsigned isa = SATC_ISA_SSE41; isa <= SATC_ISA_AVX512; isa <<= 1)
        if (run & isa)
            paths[npaths++] = (satc_isa)isa;
    printf("paths: scalar");
    for (int p = 0; p < npaths; p++)
        printf(" %s", satc_isa_name(paths[p]));
    printf("\n");

    adversarial();
    bad_calls();
    long_batch();
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
        sphere_trials(forms[f], trials);
        ray_trials(forms[f], trials);
    }
    long vols = (long)(sizeof forms / sizeof forms[0]) * trials * N;
    printf("sphere queries: %ld volumes, %ld touching, %ld kept by exact mode, %ld false negatives, "
           "%ld beyond the band, %ld inside (%ld wrong), %ld non-finite wrong\n",
           vols, s_hit, s_kept, s_fn, s_band, s_inside, s_inside_bad, s_nonfinite_bad);
    printf("sheared volumes kept while apart: %ld, at most %.3Lg Q beyond r\n", s_skew_kept,
           s_skew_worst);
    printf("ray queries: %ld volumes, %ld hit, %ld kept by exact mode, %ld false negatives, %ld "
           "beyond the band, %ld wrong t, %ld wrong nearest, %ld non-finite wrong\n",
           vols, r_hit, r_kept, r_fn, r_band, r_tbad, r_nearbad, r_nonfinite_bad);
    check(s_fn == 0 && r_fn == 0, "no false negative");
    check(s_band == 0 && r_band == 0, "exact mode keeps nothing beyond the band");
    check(s_inside_bad == 0 && s_nonfinite_bad == 0 && r_nonfinite_bad == 0,
          "classes and non-finite volumes");
    check(r_tbad == 0 && r_nearbad == 0, "entry parameters and nearest hits");
    check(s_hit > vols / 20 && s_hit < vols - vols / 20 && r_hit > vols / 20 && r_hit < vols - vols / 20,
          "both answers occur");
    printf("%ld passed, %ld failed\n", n_pass, n_fail);
    return n_fail ? 1 : 0;
}
