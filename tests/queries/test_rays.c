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

#define QUERY_CHECK_SHARED
#define QUERY_SEED 0x72617973ull
#define QUERY_MAX_FAILS 30
#include "query_check.h"
#include "rays.h"

/* ------------------------------------------------------------------ */
/* Volumes: one record per volume, every form reads its own fields      */
/* ------------------------------------------------------------------ */

static const int forms[] = {SATC_FORM_AABB,      SATC_FORM_MINMAX,    SATC_FORM_OBB,
                            SATC_FORM_HALF_AXES, SATC_FORM_INSTANCES, SATC_FORM_SPHERES};
static const char *form_name[] = {"", "obb", "aabb", "minmax", "half-axes", "instances", "spheres"};

satc_batch batch_of(int form, const rec *r)
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

satc_isa paths[8];
int npaths;

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

int same(const outs *a, const outs *b, size_t n, int ray)
{
    return a->st == b->st && a->visible == b->visible && !memcmp(a->mask, b->mask, (n + 7) / 8) &&
           !memcmp(a->cls, b->cls, n) && !memcmp(a->idx, b->idx, a->visible * sizeof a->idx[0]) &&
           (!ray || (!memcmp(a->t, b->t, a->visible * sizeof a->t[0]) && a->nearest == b->nearest));
}

/* Both modes on scalar, every other path compared with it; then every
 * path again with group bounds of 8 volumes attached (satc_group_bounds):
 * the same answer. */
void run_all(const q_t *q, const satc_batch *b, size_t n, outs o[2], const char *what)
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

int bit(const outs *o, size_t i) { return o->mask[i / 8] >> (i % 8) & 1; }

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
