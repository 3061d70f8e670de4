/*
 * The forward error bound of docs/error-bound.md, hunted at its edges.
 * For each axis class a volume is placed at a chosen
 * distance d from the frustum along a direction m strictly inside the
 * normal cone of one frustum feature, so that the class's axis is the one
 * that separates:
 *   face   - a box vertex beyond a frustum face (the plane tier's axes:
 *            near, far, the four sides; the orthographic box's faces);
 *   edge   - a box edge beyond a frustum edge, crossing it at 30-150
 *            degrees (perspective: W x H on the lateral edges, L x H and
 *            U x H on the near and far edges; orthographic: X_k x H);
 *   vertex - a box face beyond a frustum corner (the face normals N_i);
 *   sphere - a sphere beyond a face, an edge or a corner.
 * Scales 1e-3 .. 1e7 (frustum, boxes and distances together, the camera
 * origin within one scale of the world origin), perspective and
 * orthographic frusta, the OBB, half-axis and instance forms (instances
 * with a local center 2^4..2^8 times the box away: the S term of the
 * local offset), every runnable path. After rounding the volume to float,
 * its frame geometry is recomputed in double and classified:
 *
 *  - keep: distance <= (1 - delta) d_keep, d_keep the distance below which
 *    the bound proves no float test culls: (eps_k - e) S + tol_t for the
 *    exact tier's axes, e = (12 + 4.5 K) u S (perspective) or (12 S + 5 F)
 *    u (orthographic), and the plane tier's (eps_k S - 10.5 u |m|_1 S) /
 *    |m|_2. Never culled in conservative mode, FTZ/DAZ off and on. Exact
 *    mode decides such band volumes again in double and may
 *    cull them when they are truly apart: its keep side is the second
 *    stage's band, 2^-40 of the magnitudes (checked here when the realized
 *    distance is below 2^-41 S; touching volumes are the hunter's, the
 *    oracle's and test_band's).
 *  - cull: distance along m >= (1 + delta) d_cull, where a kept volume
 *    has, along every tested axis M, a gap of at most (tol + e) |M|_1 /
 *    |M|_2 <= sqrt(3) (tol + e), and the computed axis leans from m by at
 *    most 64 u K (S + F) in support: culled in exact mode (and in
 *    conservative mode for the face class).
 *
 * With the old constants (SATC_EPSILON = 2^-16) the cull side fails: such
 * volumes were kept up to 2^-16 K |M|_1 S away.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fn_common.h"
#include "robust_util.h"

#define U24 0x1p-24
#define DELTA 0.125
#define PER_CELL 200

enum { C_FACE, C_EDGE, C_VERTEX, C_SPHERE, NCLASS };
static const char *class_name[NCLASS] = {"face", "edge", "vertex", "sphere"};
enum { F_OBB, F_HALF, F_INST, NFORM };
static const char *form_name[NFORM] = {"obb", "half-axes", "instances"};

typedef struct frus {
    satc_camera cam;
    satc_frustum fr;
    double V[8][3];   /* corners, frame coordinates, index a + 2 b + 4 c */
    double nu[6][3];  /* outward face normals, unit: near, far, x0, x1, y0, y1 */
    double K, F, size; /* K; F of the band; the orthographic frustum's size */
} frus;

static double dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static double norm(const double *a) { return sqrt(dot(a, a)); }
static void unit(double *a)
{
    double l = norm(a);
    a[0] /= l, a[1] /= l, a[2] /= l;
}
static void cross(const double *a, const double *b, double *o)
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

/* Face k contains corner i. */
static int on_face(int k, int i)
{
    int a = i & 1, b = i >> 1 & 1, c = i >> 2 & 1;
    switch (k) {
    case 0: return c == 0;
    case 1: return c == 1;
    case 2: return a == 0;
    case 3: return a == 1;
    case 4: return b == 0;
    default: return b == 1;
    }
}

static int make_frustum(fn_rng *r, int ortho, double s, frus *o)
{
    memset(o, 0, sizeof *o);
    satc_camera *c = &o->cam;
    double R[3][3];
    fn_rotation(r, R);
    fn_frame(R, c);
    for (int k = 0; k < 3; k++)
        c->origin[k] = (float)(s * fn_unif(r, -1, 1));
    if (ortho) {
        c->orthographic = 1;
        c->l0 = (float)(s * fn_unif(r, -2, 0.5)), c->l1 = c->l0 + (float)(s * fn_unif(r, 0.2, 2));
        c->u0 = (float)(s * fn_unif(r, -2, 0.5)), c->u1 = c->u0 + (float)(s * fn_unif(r, 0.2, 2));
        c->n = (float)(s * fn_unif(r, -1, 0.5)), c->f = c->n + (float)(s * fn_unif(r, 0.2, 4));
    } else {
        double n = s * fn_unif(r, 0.1, 1);
        double sx = fn_logu(r, -3, 2), sy = fn_logu(r, -3, 2);
        double ox = fn_unif(r, -0.5, 0.5) * sx, oy = fn_unif(r, -0.5, 0.5) * sy;
        c->l0 = (float)((ox - sx) * n), c->l1 = (float)((ox + sx) * n);
        c->u0 = (float)((oy - sy) * n), c->u1 = (float)((oy + sy) * n);
        c->n = (float)n, c->f = (float)(n * fn_logu(r, 2, 10));
    }
    if (satc_frustum_from_camera(&o->fr, c) != SATC_OK)
        return 0;
    double n = c->n, f = c->f;
    double xs[2] = {c->l0, c->l1}, ys[2] = {c->u0, c->u1};
    for (int i = 0; i < 8; i++) {
        double z = (i >> 2 & 1) ? f : n, k = ortho ? 1 : z / n;
        o->V[i][0] = xs[i & 1] * k, o->V[i][1] = ys[i >> 1 & 1] * k, o->V[i][2] = z;
    }
    double x0 = c->l0 / n, x1 = c->l1 / n, y0 = c->u0 / n, y1 = c->u1 / n;
    double nu[6][3] = {{0, 0, -1}, {0, 0, 1}, {-1, 0, ortho ? 0 : x0}, {1, 0, ortho ? 0 : -x1},
                       {0, -1, ortho ? 0 : y0}, {0, 1, ortho ? 0 : -y1}};
    for (int k = 0; k < 6; k++) {
        unit(nu[k]);
        memcpy(o->nu[k], nu[k], sizeof nu[k]);
    }
    if (ortho) {
        o->K = 1;
        o->size = 0;
        double lo[3] = {c->l0, c->u0, c->n}, hi[3] = {c->l1, c->u1, c->f};
        for (int k = 0; k < 3; k++)
            o->size += fabs(0.5 * (lo[k] + hi[k])) + 0.5 * (hi[k] - lo[k]);
        o->F = o->size;
    } else {
        o->K = 1 + fmax(fabs(x0), fabs(x1)) + fmax(fabs(y0), fabs(y1));
        o->F = n * o->K;
    }
    return 1;
}

/* A feature of the frustum for class cl: point q on it, direction m
 * strictly inside its normal cone, and for edges the edge direction w. */
static void feature(fn_rng *r, const frus *o, int cl, double q[3], double m[3], double w[3])
{
    int kind = cl == C_FACE ? 0 : cl == C_EDGE ? 1 : cl == C_VERTEX ? 2 : (int)(fn_next(r) % 3);
    int faces[3], nf = 0, corners[8], nc = 0;
    if (kind == 0) {
        faces[nf++] = (int)(fn_next(r) % 6);
    } else if (kind == 1) {
        /* an edge: two corners differing in one index bit */
        int i = (int)(fn_next(r) % 8), bit = 1 << (int)(fn_next(r) % 3);
        int j = i ^ bit;
        for (int k = 0; k < 6; k++)
            if (on_face(k, i) && on_face(k, j))
                faces[nf++] = k;
        corners[nc++] = i, corners[nc++] = j;
    } else {
        int i = (int)(fn_next(r) % 8);
        for (int k = 0; k < 6; k++)
            if (on_face(k, i))
                faces[nf++] = k;
        corners[nc++] = i;
    }
    if (kind == 0)
        for (int i = 0; i < 8; i++)
            if (on_face(faces[0], i))
                corners[nc++] = i;
    /* q: a convex combination of the feature's corners, weights 0.2..1 */
    double wsum = 0;
    q[0] = q[1] = q[2] = 0;
    for (int i = 0; i < nc; i++) {
        double a = fn_unif(r, 0.2, 1);
        wsum += a;
        for (int k = 0; k < 3; k++)
            q[k] += a * o->V[corners[i]][k];
    }
    for (int k = 0; k < 3; k++)
        q[k] /= wsum;
    m[0] = m[1] = m[2] = 0;
    for (int i = 0; i < nf; i++) {
        double a = fn_unif(r, 0.2, 1);
        for (int k = 0; k < 3; k++)
            m[k] += a * o->nu[faces[i]][k];
    }
    unit(m);
    if (kind == 1) {
        for (int k = 0; k < 3; k++)
            w[k] = o->V[corners[1]][k] - o->V[corners[0]][k];
        unit(w);
    }
}

/* An orthonormal frame (rows) whose first row is a0. */
static void complete(fn_rng *r, const double a0[3], double A[3][3])
{
    double t[3];
    memcpy(A[0], a0, sizeof A[0]);
    do {
        for (int k = 0; k < 3; k++)
            t[k] = fn_unif(r, -1, 1);
        cross(a0, t, A[1]);
    } while (norm(A[1]) < 0.1);
    unit(A[1]);
    cross(a0, A[1], A[2]);
    unit(A[2]);
}

typedef struct vol {
    /* what satc reads */
    float C[3], A[3][3], e[3], H[3][3], t[3], lc[3], rad;
    /* realized frame geometry (double) */
    double c[3], h[3][3], S, radius;
    int sphere;
} vol;

/* World vector of frame vector x (no origin). */
static void to_world_vec(const satc_camera *c, const double x[3], double w[3])
{
    for (int k = 0; k < 3; k++)
        w[k] = x[0] * c->left[k] + x[1] * c->up[k] + x[2] * c->dir[k];
}
static void to_frame_vec(const satc_camera *c, const double w[3], double x[3])
{
    const float *F[3] = {c->left, c->up, c->dir};
    for (int r = 0; r < 3; r++)
        x[r] = F[r][0] * w[0] + F[r][1] * w[1] + F[r][2] * w[2];
}

/* Builds volume at distance d along m from feature q (frame), in form fm,
 * then its realized geometry and the witness box point p (frame). */
static void build(fn_rng *r, const frus *o, int cl, int fm, double s, double d, vol *v, double p[3])
{
    double q[3], m[3], w[3], B[3][3], e[3], cf[3];
    memset(v, 0, sizeof *v);
    feature(r, o, cl, q, m, w);
    double len = s * fn_logu(r, -6, 2);
    for (int j = 0; j < 3; j++)
        e[j] = len * fn_logu(r, -3, 0);
    int sg[3] = {0, 0, 0};
    if (cl == C_SPHERE) {
        v->sphere = 1;
        for (int k = 0; k < 3; k++)
            cf[k] = q[k] + (d + e[0]) * m[k];
    } else if (cl == C_FACE || (cl == C_EDGE)) {
        if (cl == C_FACE) {
            double R[3][3];
            fn_rotation(r, R);
            memcpy(B, R, sizeof B);
        } else {
            double mw[3], a0[3], phi = fn_unif(r, 0.5236, 2.618);
            cross(m, w, mw);
            unit(mw);
            for (int k = 0; k < 3; k++)
                a0[k] = cos(phi) * w[k] + sin(phi) * mw[k];
            complete(r, a0, B);
        }
        for (int k = 0; k < 3; k++)
            cf[k] = q[k] + d * m[k];
        for (int j = cl == C_EDGE ? 1 : 0; j < 3; j++) {
            sg[j] = dot(m, B[j]) > 0 ? -1 : 1;
            for (int k = 0; k < 3; k++)
                cf[k] -= sg[j] * e[j] * B[j][k];
        }
    } else { /* C_VERTEX: box face normal m */
        complete(r, m, B);
        for (int k = 0; k < 3; k++)
            cf[k] = q[k] + (d + e[0]) * m[k];
        sg[0] = -1;
    }
    /* to world, rounded to float */
    double cw[3];
    to_world_vec(&o->cam, cf, cw);
    for (int k = 0; k < 3; k++)
        v->C[k] = (float)(o->cam.origin[k] + cw[k]);
    for (int j = 0; j < 3; j++) {
        double aw[3];
        to_world_vec(&o->cam, B[j], aw);
        for (int k = 0; k < 3; k++) {
            v->A[j][k] = (float)aw[k];
            v->H[j][k] = (float)(e[j] * v->A[j][k]);
        }
        v->e[j] = (float)e[j];
    }
    v->rad = (float)e[0];
    /* realized geometry */
    double Hw[3][3], cwr[3], P = 0;
    for (int j = 0; j < 3; j++)
        for (int k = 0; k < 3; k++)
            Hw[j][k] = fm == F_OBB ? (double)v->e[j] * v->A[j][k] : (double)v->H[j][k];
    for (int k = 0; k < 3; k++)
        cwr[k] = (double)v->C[k];
    if (fm == F_INST) {
        /* a local center 2^4..2^8 box lengths away: t = C - H lc */
        for (int j = 0; j < 3; j++)
            v->lc[j] = (float)(len * fn_logu(r, 4, 8) * (fn_next(r) & 1 ? 1 : -1));
        for (int k = 0; k < 3; k++) {
            double ml = 0;
            for (int j = 0; j < 3; j++) {
                ml += (double)v->H[j][k] * v->lc[j];
                P += fabs((double)v->H[j][k] * v->lc[j]);
            }
            v->t[k] = (float)(cwr[k] - ml);
            cwr[k] = (double)v->t[k] + ml;
        }
    }
    double rel[3];
    for (int k = 0; k < 3; k++)
        rel[k] = cwr[k] - (double)o->cam.origin[k];
    to_frame_vec(&o->cam, rel, v->c);
    v->S = fabs(v->c[0]) + fabs(v->c[1]) + fabs(v->c[2]) + P;
    if (v->sphere) {
        v->radius = v->rad;
        v->S += 2 * v->radius;
        for (int k = 0; k < 3; k++)
            p[k] = v->c[k] - v->radius * m[k];
    } else {
        for (int j = 0; j < 3; j++) {
            to_frame_vec(&o->cam, Hw[j], v->h[j]);
            v->S += fabs(v->h[j][0]) + fabs(v->h[j][1]) + fabs(v->h[j][2]);
        }
        for (int k = 0; k < 3; k++) {
            p[k] = v->c[k];
            for (int j = 0; j < 3; j++)
                p[k] += sg[j] * v->h[j][k];
        }
    }
    /* stash q and m for the gap: appended to the witness (p[3..8]) */
    p[3] = q[0], p[4] = q[1], p[5] = q[2], p[6] = m[0], p[7] = m[1], p[8] = m[2];
}

/* Distance bounds of the realized volume: upper (witness) and lower (gap
 * along m against the frustum's support). */
static void bounds(const frus *o, const vol *v, const double *pq, double *ub, double *lb)
{
    const double *p = pq, *q = pq + 3, *m = pq + 6;
    double dd[3] = {p[0] - q[0], p[1] - q[1], p[2] - q[2]};
    *ub = norm(dd);
    double lo = dot(m, v->c), fmax = -INFINITY;
    if (v->sphere)
        lo -= v->radius;
    else
        for (int j = 0; j < 3; j++)
            lo -= fabs(dot(m, v->h[j]));
    for (int i = 0; i < 8; i++)
        fmax = fmax > dot(m, o->V[i]) ? fmax : dot(m, o->V[i]);
    *lb = lo - fmax;
}

/* Culls one volume in form fm on path isa: 1 visible, 0 culled. */
static int visible(const frus *o, const vol *v, int fm, satc_isa isa, satc_mode mode, int ftz)
{
    satc_batch b;
    memset(&b, 0, sizeof b);
    float unit_half[3] = {1, 1, 1};
    if (v->sphere) {
        b.form = SATC_FORM_SPHERES;
        b.spheres.center = (satc_vec3s){&v->C[0], &v->C[1], &v->C[2], 0};
        b.spheres.radius.p = &v->rad;
    } else if (fm == F_OBB) {
        b.form = SATC_FORM_OBB;
        b.obb.center = (satc_vec3s){&v->C[0], &v->C[1], &v->C[2], 0};
        b.obb.extent = (satc_vec3s){&v->e[0], &v->e[1], &v->e[2], 0};
        for (int j = 0; j < 3; j++)
            b.obb.axis[j] = (satc_vec3s){&v->A[j][0], &v->A[j][1], &v->A[j][2], 0};
    } else if (fm == F_HALF) {
        b.form = SATC_FORM_HALF_AXES;
        b.half_axes.center = (satc_vec3s){&v->C[0], &v->C[1], &v->C[2], 0};
        for (int j = 0; j < 3; j++)
            b.half_axes.axis[j] = (satc_vec3s){&v->H[j][0], &v->H[j][1], &v->H[j][2], 0};
    } else {
        static float mat[12];
        for (int k = 0; k < 3; k++) {
            for (int j = 0; j < 3; j++)
                mat[k * 4 + j] = v->H[j][k]; /* rows: 3x4 row-major */
            mat[k * 4 + 3] = v->t[k];
        }
        b.form = SATC_FORM_INSTANCES;
        b.instances.matrix = mat;
        b.instances.stride = sizeof mat;
        b.instances.layout = SATC_AFFINE_ROWS;
        b.instances.local_center = (satc_vec3s){&v->lc[0], &v->lc[1], &v->lc[2], 0};
        b.instances.local_half = (satc_vec3s){&unit_half[0], &unit_half[1], &unit_half[2], 0};
    }
    satc_results res;
    memset(&res, 0, sizeof res);
    uint8_t cls = 0xff;
    res.classes = &cls;
    unsigned long long old = fn_fp_set(ftz);
    satc_status st = satc_cull_isa(isa, &o->fr, &b, 0, 1, mode, &res);
    fn_fp_restore(old);
    if (st != SATC_OK)
        return -1;
    return cls != SATC_OUTSIDE;
}

typedef struct tally {
    long keep, fn, cull, fp;
    double worst_keep; /* largest distance / d_keep among the kept-side volumes culled (none) */
} tally;

int main(int argc, char **argv)
{
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 13;
    fn_rng r = {seed};
    satc_isa paths[8];
    int np = rb_paths(paths);
    const double scales[] = {1e-3, 1e-1, 1e1, 1e3, 1e5, 1e7};
    const int ns = (int)(sizeof scales / sizeof scales[0]);
    const double u = U24;
    int nftz = fn_fp_has_ftz() ? 2 : 1;
    printf("SATC_EPSILON %a (%.1f u); delta %g; %d paths\n", (double)SATC_EPSILON,
           SATC_EPSILON / u, DELTA, np);
    printf("%-6s %-6s %-9s %8s %6s %8s %6s %12s %12s\n", "kind", "class", "form", "keep", "FN",
           "cull", "FP", "d_keep/S", "d_cull/S");
    for (int ortho = 0; ortho < 2; ortho++) {
        for (int cl = 0; cl < NCLASS; cl++) {
            for (int fm = 0; fm < NFORM; fm++) {
                if (cl == C_SPHERE && fm != F_OBB)
                    continue;
                tally t = {0, 0, 0, 0, 0};
                double rk = 0, rc = 0;
                long nrk = 0;
                for (int si = 0; si < ns; si++) {
                    double s = scales[si];
                    for (int rep = 0; rep < PER_CELL; rep++) {
                        frus o;
                        if (!make_frustum(&r, ortho, s, &o)) {
                            rb_check(0, "frustum at scale %g", s);
                            continue;
                        }
                        /* The documented tolerance (satc.h), not the frustum's
                         * fields: a frustum whose eps_k or tol_t strays from
                         * it fails one side or the other. */
                        double eps = ortho ? SATC_EPSILON : SATC_EPSILON * o.K;
                        double tolt = ortho ? SATC_EPSILON * o.size : 0.0;
                        if (getenv("SATC_BOUND_LOOSEN")) /* self-check: the old 2^-16 */
                            o.fr.eps_k *= (float)(0x1p-16 / SATC_EPSILON), o.fr.tol_t *= (float)(0x1p-16 / SATC_EPSILON);
                        if (getenv("SATC_BOUND_TIGHTEN")) /* self-check: an eighth */
                            o.fr.eps_k *= 0.125f, o.fr.tol_t *= 0.125f;
                        for (int side = 0; side < 2; side++) {
                            /* a first guess of S for the target distance */
                            vol v;
                            double pq[9], ub, lb;
                            build(&r, &o, cl, fm, s, 0, &v, pq);
                            double S0 = v.S;
                            double err = ortho ? (12 * S0 + 5 * o.F) * u : (12 + 4.5 * o.K) * u * S0;
                            double keep = eps * S0 + tolt - err;
                            double x0 = fmax(fabs((double)o.fr.x0), fabs((double)o.fr.x1));
                            double y0 = fmax(fabs((double)o.fr.y0), fabs((double)o.fr.y1));
                            double sl = ortho ? 0 : fmax(x0, y0);
                            double plane = (eps * S0 + tolt - 10.5 * u * (1 + sl) * S0) / sqrt(1 + sl * sl);
                            keep = fmin(keep, plane);
                            double Sf = S0 + o.F;
                            double cull = sqrt(3.0) * ((eps + (ortho ? 12 * u : (12 + 4.5 * o.K) * u)) * Sf +
                                                       tolt + (ortho ? 5 * u * o.F : 0)) +
                                          64 * u * o.K * Sf;
                            double d = side == 0 ? (1 - DELTA) * keep * fn_unif(&r, 0, 1)
                                                 : (1 + DELTA) * cull * fn_unif(&r, 1.05, 2);
                            build(&r, &o, cl, fm, s, d, &v, pq);
                            bounds(&o, &v, pq, &ub, &lb);
                            /* the realized volume's own thresholds */
                            err = ortho ? (12 * v.S + 5 * o.F) * u : (12 + 4.5 * o.K) * u * v.S;
                            keep = fmin(eps * v.S + tolt - err,
                                        (eps * v.S + tolt - 10.5 * u * (1 + sl) * v.S) / sqrt(1 + sl * sl));
                            Sf = v.S + o.F;
                            cull = sqrt(3.0) * ((eps + (ortho ? 12 * u : (12 + 4.5 * o.K) * u)) * Sf +
                                                tolt + (ortho ? 5 * u * o.F : 0)) +
                                   64 * u * o.K * Sf;
                            if (!(v.S < 0.5 * SATC_MAX_MAGNITUDE))
                                continue; /* never culled by contract (S >= 2^40) */
                            if (side == 0 && !(ub <= (1 - DELTA) * keep))
                                continue; /* rounding moved it: not a keep-side volume */
                            if (side == 1 && !(lb >= (1 + DELTA) * cull))
                                continue;
                            if (side == 0)
                                t.keep++, rk += keep / v.S, nrk++;
                            else
                                t.cull++, rc += cull / v.S;
                            for (int p = 0; p < np; p++) {
                                for (int mode = 0; mode < 2; mode++) {
                                    for (int ftz = 0; ftz < nftz; ftz++) {
                                        if (side == 1 && ftz)
                                            continue;
                                        int vis = visible(&o, &v, fm, paths[p], (satc_mode)mode, ftz);
                                        int keep_side = mode == SATC_CONSERVATIVE ||
                                                        ub <= (1 - DELTA) * 0x1p-41 * v.S;
                                        if (side == 0 && keep_side && vis != 1) {
                                            if (t.fn++ < 3)
                                                printf("  FN %s %s %s scale %g %s %s ftz %d: distance <= %.3e, "
                                                       "d_keep %.3e, S %.3e\n",
                                                       ortho ? "ortho" : "persp", class_name[cl],
                                                       form_name[fm], s, satc_isa_name(paths[p]),
                                                       mode ? "exact" : "cons", ftz, ub, keep, v.S);
                                        }
                                        int must = mode == SATC_EXACT || cl == C_FACE;
                                        if (side == 1 && must && vis != 0) {
                                            if (t.fp++ < 3)
                                                printf("  FP %s %s %s scale %g %s %s: distance >= %.3e, "
                                                       "d_cull %.3e, S %.3e\n",
                                                       ortho ? "ortho" : "persp", class_name[cl],
                                                       form_name[fm], s, satc_isa_name(paths[p]),
                                                       mode ? "exact" : "cons", lb, cull, v.S);
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
                printf("%-6s %-6s %-9s %8ld %6ld %8ld %6ld %12.3e %12.3e\n", ortho ? "ortho" : "persp",
                       class_name[cl], cl == C_SPHERE ? "sphere" : form_name[fm], t.keep, t.fn, t.cull,
                       t.fp, nrk ? rk / nrk : 0.0, t.cull ? rc / t.cull : 0.0);
                rb_check(t.fn == 0, "%s %s %s: %ld false negatives", ortho ? "ortho" : "persp",
                         class_name[cl], form_name[fm], t.fn);
                rb_check(t.fp == 0, "%s %s %s: %ld kept beyond the bound", ortho ? "ortho" : "persp",
                         class_name[cl], form_name[fm], t.fp);
                rb_check(t.keep >= PER_CELL * ns / 4 && t.cull >= PER_CELL * ns / 4,
                         "%s %s %s: too few volumes placed (%ld keep, %ld cull)",
                         ortho ? "ortho" : "persp", class_name[cl], form_name[fm], t.keep, t.cull);
            }
        }
    }
    return rb_finish();
}
