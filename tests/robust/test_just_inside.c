/*
 * Exact mode keeps what lies just inside the frustum a builder was asked
 * for. For every camera builder (satc_frustum_perspective from float
 * fovy, aspect and n; satc_frustum_from_camera; satc_frustum_from_camera_d
 * with a batch origin; orthographic cameras), with parameters drawn as
 * random floats and cameras up to 10^7 from the origin, points and small
 * boxes are placed just inside a face, an edge or a corner: a float point
 * is searched among the neighbours of the rounded target for the one
 * nearest the pinned planes while inside every plane, the truth being the
 * requested frustum evaluated in long double (slopes tan(fovy / 2) aspect
 * and l / n from the given floats, never the frustum's fields). Every
 * such volume must be visible on every path, in both modes, with FTZ/DAZ
 * off and on, in every box form (fn_check_all). Also the reproduction of
 * a perspective frustum whose slope rounded twice (fovy 0x1.5e7094p+0,
 * aspect 0x1.3faf0cp+1, n 0x1.0a6c8ap+1: a point 2.6e-5 inside the right
 * plane at depth 1000). SATC_TEST_QUICK=1: fewer frusta; --long: more.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fn_common.h"
#include "robust_util.h"

typedef long double ld;

/* The requested frustum in long double: apex E, frame rows F (the
 * camera's floats), slopes or bounds, depths; camera form E + F^T y. */
typedef struct truth {
    ld E[3];
    float F[3][3];
    ld x0, x1, y0, y1, n, f;
    int ortho;
} truth;

/* Frame coordinates y of world point X: F^T y = X - E (Cramer's rule). */
static void frame_y(const truth *t, const ld X[3], ld y[3])
{
    ld r[3], A[3][3];
    for (int k = 0; k < 3; k++) {
        r[k] = X[k] - t->E[k];
        for (int j = 0; j < 3; j++)
            A[k][j] = t->F[j][k]; /* column j is row j of F */
    }
    ld det = A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) -
             A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
             A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
    for (int j = 0; j < 3; j++) {
        ld B[3][3];
        memcpy(B, A, sizeof B);
        for (int k = 0; k < 3; k++)
            B[k][j] = r[k];
        y[j] = (B[0][0] * (B[1][1] * B[2][2] - B[1][2] * B[2][1]) -
                B[0][1] * (B[1][0] * B[2][2] - B[1][2] * B[2][0]) +
                B[0][2] * (B[1][0] * B[2][1] - B[1][1] * B[2][0])) / det;
    }
}

/* The least inside margin of y over the planes (> 0: strictly inside
 * every one), each plane's function over its normal's 1-norm; *pin gets
 * the margins of planes 0-5 (near, far, x1, x0, y1, y0). */
static ld margin(const truth *t, const ld y[3], ld pin[6])
{
    ld z = y[2];
    ld m[6];
    m[0] = z - t->n;
    m[1] = isinf(t->f) ? INFINITY : t->f - z;
    if (t->ortho) {
        m[2] = t->x1 - y[0], m[3] = y[0] - t->x0, m[4] = t->y1 - y[1], m[5] = y[1] - t->y0;
    } else {
        m[2] = (t->x1 * z - y[0]) / (1 + fabsl(t->x1)), m[3] = (y[0] - t->x0 * z) / (1 + fabsl(t->x0));
        m[4] = (t->y1 * z - y[1]) / (1 + fabsl(t->y1)), m[5] = (y[1] - t->y0 * z) / (1 + fabsl(t->y0));
    }
    ld lo = INFINITY;
    for (int p = 0; p < 6; p++) {
        pin[p] = m[p];
        lo = m[p] < lo ? m[p] : lo;
    }
    return lo;
}

/* Frame point on the boundary: planes in mask pinned, at depth z. */
static void boundary(fn_rng *r, const truth *t, unsigned mask, ld y[3])
{
    ld fa = isinf(t->f) ? t->n * fn_logu(r, 1, 24) : t->f;
    ld z = t->ortho ? t->n + (fa - t->n) * fn_unif(r, 0, 1) : t->n * powl(fa / t->n, fn_unif(r, 0, 1));
    if (mask & 1) z = t->n;
    if (mask & 2) z = fa;
    ld s = t->ortho ? 1 : z;
    y[0] = (t->x0 + (t->x1 - t->x0) * fn_unif(r, 0.02, 0.98)) * s;
    y[1] = (t->y0 + (t->y1 - t->y0) * fn_unif(r, 0.02, 0.98)) * s;
    y[2] = z;
    if (mask & 4) y[0] = t->x1 * s;
    if (mask & 8) y[0] = t->x0 * s;
    if (mask & 16) y[1] = t->y1 * s;
    if (mask & 32) y[1] = t->y0 * s;
}

/* A face (one plane), an edge (two) or a corner (three) of the frustum. */
static unsigned pick_planes(fn_rng *r, const truth *t)
{
    unsigned m;
    do {
        m = 0;
        int k = 1 + (int)(fn_next(r) % 3);
        if (k >= 1) m |= 1u << (fn_next(r) % 6);
        if (k >= 2) m |= (fn_next(r) % 2 ? 4u : 8u);
        if (k >= 3) m |= (fn_next(r) % 2 ? 16u : 32u);
    } while (((m & 3) == 3) || ((m & 12) == 12) || ((m & 48) == 48) || ((m & 2) && isinf(t->f)));
    return m;
}

/* Finds a float point near frame point y0 inside every plane and as near
 * as it can get to the pinned ones; 0 when none. */
static int place(const truth *t, const ld y0[3], unsigned mask, float P[3], ld *best)
{
    ld X[3];
    float base[3];
    for (int k = 0; k < 3; k++) {
        X[k] = t->E[k] + t->F[0][k] * y0[0] + t->F[1][k] * y0[1] + t->F[2][k] * y0[2];
        base[k] = (float)X[k];
    }
    int found = 0;
    *best = INFINITY;
    for (int c = 0; c < 125; c++) { /* -2..2 ulps per coordinate */
        float q[3];
        int d[3] = {c % 5 - 2, c / 5 % 5 - 2, c / 25 - 2};
        ld Q[3], y[3], pin[6];
        for (int k = 0; k < 3; k++) {
            q[k] = base[k];
            for (int s = 0; s < abs(d[k]); s++)
                q[k] = nextafterf(q[k], d[k] > 0 ? INFINITY : -INFINITY);
            Q[k] = q[k];
        }
        frame_y(t, Q, y);
        ld lo = margin(t, y, pin);
        /* strictly inside, well above the long double evaluation's error */
        ld scale = fabsl(y[0]) + fabsl(y[1]) + fabsl(y[2]) + fabsl(t->E[0]) + fabsl(t->E[1]) + fabsl(t->E[2]);
        if (!(lo > 0x1p-50L * scale))
            continue;
        ld worst = 0;
        for (int p = 0; p < 6; p++)
            if (mask >> p & 1)
                worst = pin[p] > worst ? pin[p] : worst;
        worst /= scale > 0 ? scale : 1;
        if (worst < *best) {
            *best = worst;
            memcpy(P, q, sizeof q);
            found = 1;
        }
    }
    return found;
}

/* A volume whose vertex nearest the outside is P: world axes, half sizes
 * h (0: a point), extending along the pinned planes' outward normal. */
static int make_vol(fn_rng *r, const truth *t, unsigned mask, const float P[3], fn_vol *v)
{
    memset(v, 0, sizeof *v);
    ld out[3] = {0, 0, 0}; /* outward world normal, roughly */
    ld yn[3] = {0, 0, 0};
    if (mask & 1) yn[2] -= 1;
    if (mask & 2) yn[2] += 1;
    if (mask & 4) yn[0] += 1;
    if (mask & 8) yn[0] -= 1;
    if (mask & 16) yn[1] += 1;
    if (mask & 32) yn[1] -= 1;
    for (int k = 0; k < 3; k++)
        out[k] = t->F[0][k] * yn[0] + t->F[1][k] * yn[1] + t->F[2][k] * yn[2];
    double s = fn_next(r) % 3 ? 0.0 : fn_logu(r, -12, 2) * (1 + fabs(P[0]) * 0x1p-20);
    for (int k = 0; k < 3; k++) {
        v->a[k][k] = 1.0f;
        v->e[k] = (float)s;
        double sg = out[k] >= 0 ? 1.0 : -1.0;
        v->c[k] = (float)(P[k] + sg * v->e[k]);
        v->t[k] = -sg;
    }
    /* the witness vertex c - e sg must still be inside every plane */
    ld W[3], y[3], pin[6];
    for (int k = 0; k < 3; k++)
        W[k] = (ld)v->c[k] + (ld)v->t[k] * v->e[k];
    frame_y(t, W, y);
    ld scale = fabsl(y[0]) + fabsl(y[1]) + fabsl(y[2]) + fabsl(t->E[0]) + fabsl(t->E[1]) + fabsl(t->E[2]);
    if (!(margin(t, y, pin) > 0x1p-50L * scale)) {
        for (int k = 0; k < 3; k++)
            v->c[k] = P[k], v->e[k] = 0.0f;
    }
    fn_sphere_radius(v);
    return 1;
}

/* A random float frame: a signed permutation (exact) or a rotation. */
static void random_frame(fn_rng *r, satc_camera *c)
{
    if (fn_next(r) % 2) {
        double R[3][3];
        fn_rotation(r, R);
        fn_frame(R, c);
        return;
    }
    static const int perms[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
    const int *p = perms[fn_next(r) % 6];
    float rows[3][3] = {{0}};
    for (int j = 0; j < 2; j++)
        rows[j][p[j]] = fn_next(r) % 2 ? 1.0f : -1.0f;
    /* D = L x U, exact for axis vectors */
    rows[2][0] = rows[0][1] * rows[1][2] - rows[0][2] * rows[1][1];
    rows[2][1] = rows[0][2] * rows[1][0] - rows[0][0] * rows[1][2];
    rows[2][2] = rows[0][0] * rows[1][1] - rows[0][1] * rows[1][0];
    memcpy(c->left, rows[0], 12), memcpy(c->up, rows[1], 12), memcpy(c->dir, rows[2], 12);
}

static float rand_eye(fn_rng *r)
{
    double m = fn_logu(r, 0, 23.3); /* up to 10^7 */
    return (float)(fn_next(r) % 2 ? m : -m);
}

enum { BUILD_PERSP, BUILD_CAMERA, BUILD_CAMERA_D, BUILD_ORTHO, NBUILD };
static const char *const build_name[NBUILD] = {"satc_frustum_perspective", "satc_frustum_from_camera",
                                              "satc_frustum_from_camera_d", "orthographic camera"};

/* One random frustum of builder b and its truth; 0 when the builder
 * refused the drawn parameters. For the double camera, *O gets the batch
 * origin (volumes are stored relative to it). */
static int make_frustum(fn_rng *r, int b, satc_frustum *f, truth *t, double O[3])
{
    satc_camera c;
    memset(&c, 0, sizeof c);
    memset(t, 0, sizeof *t);
    random_frame(r, &c);
    for (int k = 0; k < 3; k++)
        c.origin[k] = rand_eye(r), O[k] = 0;
    float n = (float)fn_logu(r, -10, 6);
    float fa = fn_next(r) % 3 ? INFINITY : (float)(n * fn_logu(r, 1, 20));
    satc_status st;
    if (b == BUILD_PERSP) {
        float fovy = (float)fn_unif(r, 0.05, 3.0), aspect = (float)fn_logu(r, -2, 2.5);
        st = satc_frustum_perspective(f, c.origin, c.dir, c.up, fovy, aspect, n, fa);
        if (st != SATC_OK)
            return 0;
        ld tn = tanl(0.5L * fovy);
        t->x1 = tn * aspect, t->x0 = -t->x1, t->y1 = tn, t->y0 = -tn;
        memcpy(t->F, f->frame, sizeof t->F); /* L = U x D, as satc rounds it (exact for axis frames) */
    } else {
        c.n = n, c.f = fa;
        double w = fn_logu(r, -3, 2);
        c.l1 = (float)(n * w * fn_unif(r, 0.2, 1.5)), c.l0 = (float)(-n * w * fn_unif(r, -0.5, 1.5));
        c.u1 = (float)(n * w * fn_unif(r, -0.5, 1.5)), c.u0 = (float)(-n * w * fn_unif(r, 0.2, 1.5));
        if (b == BUILD_ORTHO) {
            c.orthographic = 1;
            c.n = (float)fn_unif(r, -50, 50), c.f = c.n + (float)fn_logu(r, -3, 14);
            double sz = fn_logu(r, -4, 12);
            c.l0 = (float)(-sz * fn_unif(r, 0.1, 1)), c.l1 = (float)(sz * fn_unif(r, 0.1, 1));
            c.u0 = (float)(-sz * fn_unif(r, 0.1, 1)), c.u1 = (float)(sz * fn_unif(r, 0.1, 1));
        }
        if (!(c.l0 < c.l1) || !(c.u0 < c.u1))
            return 0;
        if (b == BUILD_CAMERA_D) {
            satc_camera_d cd;
            memset(&cd, 0, sizeof cd);
            for (int k = 0; k < 3; k++) {
                cd.origin[k] = (double)c.origin[k] + fn_unif(r, -0.5, 0.5); /* not a float */
                O[k] = fn_next(r) % 2 ? 0.0 : cd.origin[k] + fn_unif(r, -300, 300);
            }
            memcpy(cd.left, c.left, 12), memcpy(cd.up, c.up, 12), memcpy(cd.dir, c.dir, 12);
            cd.l0 = c.l0, cd.l1 = c.l1, cd.u0 = c.u0, cd.u1 = c.u1, cd.n = c.n, cd.f = c.f;
            st = satc_frustum_from_camera_d(f, &cd, O);
            for (int k = 0; k < 3; k++)
                t->E[k] = (ld)cd.origin[k] - (ld)O[k]; /* exact in long double */
        } else {
            st = satc_frustum_from_camera(f, &c);
        }
        if (st != SATC_OK)
            return 0;
        t->ortho = c.orthographic;
        ld s = t->ortho ? 1 : (ld)c.n;
        t->x0 = c.l0 / s, t->x1 = c.l1 / s, t->y0 = c.u0 / s, t->y1 = c.u1 / s;
        memcpy(t->F[0], c.left, 12), memcpy(t->F[1], c.up, 12), memcpy(t->F[2], c.dir, 12);
        t->n = c.n, t->f = c.f;
        if (b == BUILD_CAMERA_D)
            return 1;
    }
    for (int k = 0; k < 3; k++)
        t->E[k] = c.origin[k];
    if (b == BUILD_PERSP)
        t->n = n, t->f = fa;
    return 1;
}

static long g_volumes, g_fn[NBUILD], g_frusta[NBUILD];
static double g_closest = INFINITY;

static void run_builder(fn_rng *r, int b, int nfrusta, int per)
{
    fn_vol *v = malloc((size_t)per * sizeof *v);
    unsigned char *want = malloc((size_t)per);
    for (int i = 0; i < nfrusta; i++) {
        satc_frustum f;
        truth t;
        double O[3];
        if (!make_frustum(r, b, &f, &t, O)) {
            i--; /* draw again: every builder gets nfrusta frusta */
            continue;
        }
        int nv = 0;
        for (int tries = 0; nv < per && tries < 4 * per; tries++) {
            unsigned mask = pick_planes(r, &t);
            ld y[3], best;
            boundary(r, &t, mask, y);
            float P[3];
            if (!place(&t, y, mask, P, &best))
                continue;
            g_closest = fmin(g_closest, (double)best);
            make_vol(r, &t, mask, P, &v[nv]);
            want[nv++] = 0x1f;
        }
        g_volumes += nv;
        g_frusta[b]++;
        char tag[64];
        snprintf(tag, sizeof tag, "%s #%d", build_name[b], i);
        g_fn[b] += fn_check_all(&f, v, want, (size_t)nv, tag);
    }
    free(v), free(want);
}

/* The reproduction: the slope tan(fovy / 2) aspect rounded twice. */
static void repro(void)
{
    const float eye[3] = {0, 0, 0}, dir[3] = {0, 0, 1}, up[3] = {0, 1, 0};
    const float fovy = 0x1.5e7094p+0f, aspect = 0x1.3faf0cp+1f, n = 0x1.0a6c8ap+1f;
    satc_frustum f;
    if (!rb_check(satc_frustum_perspective(&f, eye, dir, up, fovy, aspect, n, INFINITY) == SATC_OK,
                  "repro: frustum"))
        return;
    /* L = U x D = +x: the right plane is x = tan(fovy/2) aspect z. The
     * largest float x at least 1e-5 inside it at z = 1000. */
    ld s = tanl(0.5L * fovy) * aspect, z = 1000;
    float x = (float)(s * z);
    while ((ld)x > s * z - 1e-5L)
        x = nextafterf(x, 0);
    fn_vol v;
    memset(&v, 0, sizeof v);
    v.c[0] = x, v.c[2] = 1000.0f;
    for (int k = 0; k < 3; k++)
        v.a[k][k] = 1.0f;
    fn_sphere_radius(&v);
    unsigned char want = 0x1f;
    long fns = fn_check_all(&f, &v, &want, 1, "repro");
    rb_check(fns == 0, "repro: the point (%.9g, 0, 1000), %.3Lg inside the right plane, culled %ld"
             " times (paths x modes x FTZ x forms)", (double)x, s * z - x, fns);
}

int main(int argc, char **argv)
{
    int level = rb_quick() ? 0 : 1;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--long"))
            level = 2;
    int nfrusta = level == 0 ? 40 : level == 1 ? 150 : 5000, per = 40;
    repro();
    fn_rng r = {31002};
    for (int b = 0; b < NBUILD; b++)
        run_builder(&r, b, nfrusta, per);
    for (int b = 0; b < NBUILD; b++) {
        printf("%s: %ld frusta, %ld just-inside volumes culled\n", build_name[b], g_frusta[b], g_fn[b]);
        rb_check(g_fn[b] == 0, "%s: %ld volumes just inside culled", build_name[b], g_fn[b]);
    }
    printf("%ld volumes, closest to a pinned plane: %.3g of the scale\n", g_volumes, g_closest);
    return rb_finish();
}
