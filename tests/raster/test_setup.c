/*
 * The occluder setup alone (satc_raster_setup_box, _tri, _pair), each
 * polygon filled by the reference fill into an empty level 0 and checked
 * against the ray oracle (raster_oracle.c, double, none of the setup's
 * code), for random and adversarial occluders: ordinary, thin, long,
 * huge, far, grazing (a face plane through the eye within a hair),
 * crossing the near plane, off-axis and partly off the view; perspective
 * and orthographic views of several shapes.
 *
 * Sound: every texel written must be met by the occluder along the rays
 * through its 5 x 5 sample points (corners, edges, inside) at a depth no
 * greater than its value. A convex occluder's cover beyond the near plane
 * is convex on screen and its entry depth (the greatest of its front
 * planes' depths, each 1 / linear) is convex there, so the four corners
 * already decide: the samples are a proof for boxes and triangles.
 *
 * Complete: a box wholly beyond the near plane with no face plane within
 * 1e-6 of the eye, and any triangle, must write every texel whose
 * rectangle grown by 1/64 texel it covers at four corners, at depths at
 * least n (1 + 1e-4): the setup's roundings are far inside that, so a
 * setup that loses coverage fails here. Not for far occluders of an
 * orthographic view: the error bounds grow with the depth (the vertices'
 * magnitude), so a face seen at 1e5 units is too close to edge-on to
 * classify when the occluder is below about 1 unit, and is left. Boxes reaching the near plane
 * draw face by face (texels split between faces are left) and are only
 * checked for soundness.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raster/raster.h"
#include "raster_oracle.h"

#define RASTER_SEED 0x5e7a9b31
#include "raster_check.h"

enum { MAXW = 96, MAXH = 64 };

typedef struct view {
    satc_frustum f;
    uint32_t w, h;
    satc_rview rv;
    ro_view ro;
} view;

static void rnd_unit(double u[3])
{
    double n;
    do {
        for (int k = 0; k < 3; k++)
            u[k] = rnd(-1, 1);
        n = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    } while (!(n > 0.1 && n <= 1));
    for (int k = 0; k < 3; k++)
        u[k] /= n;
}

static void cross3(const double a[3], const double b[3], double o[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* A random orthonormal basis (rows). */
static void rnd_basis(double R[3][3])
{
    double t[3];
    rnd_unit(R[0]);
    do {
        rnd_unit(t);
        cross3(R[0], t, R[1]);
    } while (!(sqrt(dot3(R[1], R[1])) > 0.2));
    double n = sqrt(dot3(R[1], R[1]));
    for (int k = 0; k < 3; k++)
        R[1][k] /= n;
    cross3(R[0], R[1], R[2]);
}

static void make_view(view *v, int k)
{
    static const uint32_t sz[4][2] = {{64, 48}, {96, 32}, {40, 64}, {48, 48}};
    v->w = sz[k % 4][0], v->h = sz[k % 4][1];
    float eye[3] = {(float)rnd(-50, 50), (float)rnd(-50, 50), (float)rnd(-50, 50)};
    double d[3];
    rnd_unit(d);
    float tg[3] = {eye[0] + (float)d[0], eye[1] + (float)d[1], eye[2] + (float)d[2]};
    float up[3] = {0, 1, 0};
    if (fabs(d[1]) > 0.9)
        up[1] = 0, up[0] = 1;
    satc_status st;
    if (k % 3 == 2) {
        float hw = (float)rnd(2, 40), hh = hw * (float)v->h / (float)v->w;
        st = satc_frustum_look_at_ortho(&v->f, eye, tg, up, -hw, hw, -hh, hh, (float)rnd(-5, 1),
                                        1e7f);
    } else {
        float fovy = (float)rnd(0.3, 2.0), n = (float)(k % 5 == 0 ? rnd(1e-3, 0.01) : rnd(0.05, 1));
        st = satc_frustum_look_at(&v->f, eye, tg, up, fovy, (float)v->w / (float)v->h, n, INFINITY);
    }
    if (st != SATC_OK) {
        printf("camera: %s\n", satc_status_string(st));
        exit(1);
    }
    satc_rview_init(&v->rv, &v->f, v->w, v->h, 0, v->h, 0.0, 0);
    ro_view_init(&v->ro, &v->f, v->w, v->h);
}

/* World point at frame coordinates q (the frame's rows as axes). */
static void world(const view *v, const double q[3], double X[3])
{
    for (int c = 0; c < 3; c++) {
        X[c] = v->f.origin[c];
        for (int k = 0; k < 3; k++)
            X[c] += q[k] * v->f.frame[k][c];
    }
}

/* A frame point on screen (slightly past its edges) at depth z. */
static void on_screen(const view *v, double z, double spill, double q[3])
{
    double a = rnd(v->f.x0, v->f.x1), b = rnd(v->f.y0, v->f.y1);
    double ca = 0.5 * (v->f.x0 + v->f.x1), cb = 0.5 * (v->f.y0 + v->f.y1);
    a = ca + (a - ca) * spill, b = cb + (b - cb) * spill;
    int ortho = v->f.kind == SATC_FRUSTUM_ORTHOGRAPHIC;
    q[0] = ortho ? a : a * z, q[1] = ortho ? b : b * z, q[2] = z;
}

enum { ORDINARY, THIN, LONG, HUGE_, FAR_, GRAZING, NEAR_, OFFAXIS, NCAT };
static const char *const cat_name[NCAT] = {"ordinary", "thin", "long", "huge",
                                           "far", "grazing", "near", "off-axis"};

/* A depth for category cat, and the occluder's typical size there. */
static void depth_size(const view *v, int cat, double *z, double *s)
{
    double n = v->f.n, base = v->f.kind == SATC_FRUSTUM_ORTHOGRAPHIC ? (v->f.x1 - v->f.x0) : 1;
    double zz = cat == FAR_ ? pow(10, rnd(3, 6.5)) : cat == NEAR_ ? n + rnd(-0.5, 0.5) * n
                                                                  : n + pow(10, rnd(0, 2));
    double ref = v->f.kind == SATC_FRUSTUM_ORTHOGRAPHIC ? base : zz * (v->f.x1 - v->f.x0);
    *z = zz;
    *s = ref * (cat == HUGE_ ? pow(10, rnd(0.5, 3)) : cat == NEAR_ ? rnd(0.5, 3) : pow(10, rnd(-2, -0.5)));
}

static void random_box(const view *v, int cat, double c[3], double H[3][3])
{
    double z, s, q[3], R[3][3], len[3];
    depth_size(v, cat, &z, &s);
    on_screen(v, z, cat == OFFAXIS ? 1.6 : 1.0, q);
    rnd_basis(R);
    for (int j = 0; j < 3; j++)
        len[j] = s * rnd(0.2, 1);
    if (cat == THIN)
        len[0] = s * pow(10, rnd(-6, -3));
    if (cat == LONG)
        len[0] = s * pow(10, rnd(1.5, 3));
    if (cat == OFFAXIS && rnd(0, 1) < 0.5) /* axis-aligned to the frame */
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++)
                R[j][k] = j == k;
    world(v, q, c);
    for (int j = 0; j < 3; j++) {
        double fr[3] = {0, 0, 0}, E0[3] = {0, 0, 0};
        for (int k = 0; k < 3; k++)
            fr[k] = R[j][k] * len[j];
        double X[3], O[3];
        world(v, fr, X);
        world(v, E0, O);
        for (int k = 0; k < 3; k++)
            H[j][k] = X[k] - O[k];
    }
    if (cat == GRAZING) {
        /* move the box so that face (0, +) has the eye (perspective) or
         * the view direction (orthographic) within a hair of its plane */
        double N[3], nn, E[3] = {v->f.origin[0], v->f.origin[1], v->f.origin[2]};
        for (int k = 0; k < 3; k++)
            N[k] = H[0][k];
        nn = sqrt(dot3(N, N));
        for (int k = 0; k < 3; k++)
            N[k] /= nn;
        double eps = (rnd(0, 1) < 0.5 ? -1 : 1) * pow(10, rnd(-12, -5)) * s;
        if (v->f.kind == SATC_FRUSTUM_PERSPECTIVE) {
            double t = dot3(N, c) + nn - dot3(N, E) - eps; /* plane offset from the eye */
            for (int k = 0; k < 3; k++)
                c[k] -= t * N[k];
        } else {
            /* tilt the axis into the plane orthogonal to D, within eps */
            double D[3] = {v->f.frame[2][0], v->f.frame[2][1], v->f.frame[2][2]};
            double dn = dot3(H[0], D) - eps * nn / s;
            for (int k = 0; k < 3; k++)
                H[0][k] -= dn * D[k];
        }
    }
}

static void random_tri(const view *v, int cat, double X[3][3])
{
    double z, s, q[3];
    depth_size(v, cat, &z, &s);
    on_screen(v, z, cat == OFFAXIS ? 1.6 : 1.0, q);
    double P[3][3];
    for (int t = 0; t < 3; t++) {
        double u[3];
        rnd_unit(u);
        for (int k = 0; k < 3; k++)
            P[t][k] = q[k] + s * u[k];
    }
    if (cat == THIN) /* a sliver: the third vertex near the line of the first two */
        for (int k = 0; k < 3; k++)
            P[2][k] = P[0][k] + rnd(0.1, 0.9) * (P[1][k] - P[0][k]) + pow(10, rnd(-6, -3)) * s;
    if (cat == LONG)
        for (int k = 0; k < 3; k++)
            P[1][k] = P[0][k] + pow(10, rnd(1.5, 3)) * (P[1][k] - P[0][k]);
    if (cat == GRAZING) {
        /* the plane through the eye (perspective: its offset; orthographic:
         * its normal against D) made a hair from 0 */
        double e1[3], e2[3], N[3];
        for (int k = 0; k < 3; k++)
            e1[k] = P[1][k] - P[0][k], e2[k] = P[2][k] - P[0][k];
        cross3(e1, e2, N);
        double nn = sqrt(dot3(N, N)), eps = (rnd(0, 1) < 0.5 ? -1 : 1) * pow(10, rnd(-12, -5)) * s;
        for (int k = 0; k < 3; k++)
            N[k] /= nn;
        if (v->f.kind == SATC_FRUSTUM_PERSPECTIVE) {
            double t = dot3(N, P[0]) - eps;
            for (int p = 0; p < 3; p++)
                for (int k = 0; k < 3; k++)
                    P[p][k] -= t * N[k];
        } else {
            P[2][2] = P[0][2] + (P[2][2] - P[0][2]) * 1e3; /* nearly along D */
        }
    }
    for (int t = 0; t < 3; t++)
        world(v, P[t], X[t]);
}

/* ------------------------------------------------------------------ */

static float g_l0[MAXW * MAXH], g_init[MAXW * MAXH];

/* FNV-1a over every polygon set up (with --digest): two builds of the
 * setup that print the same digest wrote the same bits. */
static uint64_t g_digest = 0xcbf29ce484222325ull;
static void digest(const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t k = 0; k < n; k++)
        g_digest = (g_digest ^ b[k]) * 0x100000001b3ull;
}
static void digest_polys(const satc_rpoly *p, int n)
{
    digest(&n, sizeof n);
    for (int q = 0; q < n; q++) {
        digest(&p[q].i0, 4 * sizeof(int32_t) + 2 * sizeof(uint32_t));
        digest(p[q].e, p[q].ne * sizeof p[q].e[0]);
        digest(&p[q].ortho, sizeof p[q].ortho);
        digest(p[q].g, p[q].np * sizeof p[q].g[0]);
    }
}

static void clear(const view *v)
{
    for (uint32_t t = 0; t < v->w * v->h; t++)
        g_l0[t] = g_init[t] = INFINITY;
}

typedef struct tally {
    size_t cases, drawn, written, missing, bad, checked;
} tally;

/* Soundness of what is in g_l0 against occluders occ[0..n). */
static void sound(const view *v, const ro_occ *occ, size_t n, const char *name, tally *t)
{
    size_t wr = 0;
    t->bad += ro_check(&v->ro, g_l0, g_init, occ, n, name, &wr, NULL);
    t->written += wr;
}

/* Completeness: texels whose grown rectangle the occluder covers at its
 * corners beyond n (1 + 1e-4) must be written. */
static void complete(const view *v, const ro_occ *o, const char *name, tally *t)
{
    const double g = 1.0 / 64;
    double nmin = v->f.kind == SATC_FRUSTUM_PERSPECTIVE ? v->f.n * (1 + 1e-4) : v->f.n + 1e-4 * fabs(v->f.n);
    t->checked++;
    for (uint32_t j = 0; j < v->h; j++) {
        for (uint32_t i = 0; i < v->w; i++) {
            int all = 1;
            for (int c = 0; c < 4 && all; c++) {
                double h = ro_nearest(&v->ro, i + (c & 1 ? 1 + g : -g), j + (c & 2 ? 1 + g : -g), o, 1);
                all = h < INFINITY && h >= nmin;
            }
            if (all && !(g_l0[j * v->w + i] < INFINITY)) {
                if (t->missing < 5)
                    printf("  FAIL %s: texel (%u, %u) covered but not written\n", name, i, j);
                t->missing++;
            }
        }
    }
}

/* Every eye-to-plane offset of the box's faces beyond 1e-6 of its size
 * (perspective), or every face normal off D by 1e-6 (orthographic). */
static int faces_clear(const view *v, const double c[3], const double H[3][3])
{
    double E[3] = {v->f.origin[0], v->f.origin[1], v->f.origin[2]};
    double D[3] = {v->f.frame[2][0], v->f.frame[2][1], v->f.frame[2][2]};
    double size = sqrt(dot3(H[0], H[0])) + sqrt(dot3(H[1], H[1])) + sqrt(dot3(H[2], H[2]));
    for (int k = 0; k < 3; k++) {
        double N[3];
        cross3(H[(k + 1) % 3], H[(k + 2) % 3], N);
        double nn = sqrt(dot3(N, N));
        for (int q = 0; q < 3; q++)
            N[q] /= nn;
        if (v->f.kind == SATC_FRUSTUM_ORTHOGRAPHIC) {
            if (fabs(dot3(N, D)) < 1e-6)
                return 0;
            continue;
        }
        double off = dot3(N, c) - dot3(N, E), hk = fabs(dot3(N, H[k]));
        if (fabs(off - hk) < 1e-6 * size || fabs(off + hk) < 1e-6 * size)
            return 0;
    }
    return 1;
}

/* Nearest frame depth of the box's vertices. */
static double box_zmin(const view *v, const double c[3], const double H[3][3])
{
    double z = INFINITY;
    for (int q = 0; q < 8; q++) {
        double d = 0;
        for (int k = 0; k < 3; k++) {
            double x = c[k] - v->f.origin[k];
            for (int j = 0; j < 3; j++)
                x += (q >> j & 1 ? 1 : -1) * H[j][k];
            d += v->f.frame[2][k] * x;
        }
        z = fmin(z, d);
    }
    return z;
}

static void test_boxes(tally t[NCAT])
{
    for (int k = 0; k < 4000; k++) {
        view v;
        make_view(&v, k);
        int cat = k % NCAT;
        double c[3], H[3][3];
        random_box(&v, cat, c, H);
        satc_rpoly p[3];
        clear(&v);
        int np = satc_raster_setup_box(&v.rv, c, (const double(*)[3])H, 0, p);
        digest_polys(p, np);
        for (int q = 0; q < np; q++)
            satc_raster_fill_ref(&p[q], g_l0, v.w, NULL);
        ro_occ o;
        memset(&o, 0, sizeof o);
        o.kind = RO_BOX;
        memcpy(o.c, c, sizeof o.c);
        memcpy(o.h, H, sizeof o.h);
        char name[64];
        snprintf(name, sizeof name, "box %d (%s)", k, cat_name[cat]);
        t[cat].cases++;
        t[cat].drawn += np > 0;
        sound(&v, &o, 1, name, &t[cat]);
        double zmin = box_zmin(&v, c, H);
        int beyond = v.f.kind == SATC_FRUSTUM_PERSPECTIVE ? zmin > v.f.n * (1 + 1e-6)
                                                          : zmin > v.f.n + 1e-6 * (1 + fabs(v.f.n));
        int ortho_far = v.f.kind == SATC_FRUSTUM_ORTHOGRAPHIC && cat == FAR_;
        if (beyond && !ortho_far && faces_clear(&v, c, (const double(*)[3])H))
            complete(&v, &o, name, &t[cat]);
    }
}

static void test_tris(tally t[NCAT])
{
    for (int k = 0; k < 4000; k++) {
        view v;
        make_view(&v, k + 7);
        int cat = k % NCAT;
        double X[3][3], mag[3] = {0, 0, 0};
        random_tri(&v, cat, X);
        satc_rpoly p;
        clear(&v);
        int np = satc_raster_setup_tri(&v.rv, (const double(*)[3])X, mag, &p);
        digest_polys(&p, np);
        if (np)
            satc_raster_fill_ref(&p, g_l0, v.w, NULL);
        ro_occ o;
        memset(&o, 0, sizeof o);
        o.kind = RO_TRI;
        memcpy(o.v, X, sizeof o.v);
        char name[64];
        snprintf(name, sizeof name, "triangle %d (%s)", k, cat_name[cat]);
        t[cat].cases++;
        t[cat].drawn += np;
        sound(&v, &o, 1, name, &t[cat]);
        /* a triangle's plane within a hair of the eye is skipped whole */
        if (cat != GRAZING && !(v.f.kind == SATC_FRUSTUM_ORTHOGRAPHIC && cat == FAR_))
            complete(&v, &o, name, &t[cat]);
    }
}

/* Quads: two triangles sharing a diagonal, the pair's polygon alone
 * against the union of the two. */
static void test_pairs(tally *t)
{
    for (int k = 0; k < 1500; k++) {
        view v;
        make_view(&v, k + 3);
        double X[3][3], Y[3][3], mag[3] = {0, 0, 0};
        random_tri(&v, k % 2 ? ORDINARY : LONG, X);
        /* the fourth vertex across the edge X0-X1 */
        double m[3], w[3];
        for (int c = 0; c < 3; c++)
            m[c] = 0.5 * (X[0][c] + X[1][c]), w[c] = m[c] + rnd(0.3, 1.5) * (m[c] - X[2][c]);
        memcpy(Y[0], X[1], sizeof Y[0]);
        memcpy(Y[1], X[0], sizeof Y[1]);
        memcpy(Y[2], w, sizeof Y[2]);
        satc_rpoly pa, pb, pp;
        if (!satc_raster_setup_tri(&v.rv, (const double(*)[3])X, mag, &pa) ||
            !satc_raster_setup_tri(&v.rv, (const double(*)[3])Y, mag, &pb))
            continue;
        t->cases++;
        clear(&v);
        if (!satc_raster_setup_pair(&v.rv, (const double(*)[3])X, mag, &pa,
                                    (const double(*)[3])Y, mag, &pb, &pp))
            continue;
        t->drawn++;
        digest_polys(&pp, 1);
        satc_raster_fill_ref(&pp, g_l0, v.w, NULL);
        ro_occ o[2];
        memset(o, 0, sizeof o);
        o[0].kind = o[1].kind = RO_TRI;
        memcpy(o[0].v, X, sizeof o[0].v);
        memcpy(o[1].v, Y, sizeof o[1].v);
        char name[64];
        snprintf(name, sizeof name, "pair %d", k);
        sound(&v, o, 2, name, t);
    }
}

/* satc_float_up, the setup's rounding up, against libm's nextafterf:
 * the least float >= x, at every sign, binade edge and the float range's
 * ends. */
static int float_up_bad(void)
{
    static const double edge[] = {0.0, -0.0, 1.0, -1.0, 0x1p-149, -0x1p-149, 0x1p-126, -0x1p-126,
                                  FLT_MAX, -FLT_MAX, 0x1.fffffep127 * 1.0000001, -0x1.fffffep127 * 1.0000001,
                                  INFINITY, -INFINITY, 3.0e38, -3.0e38};
    int bad = 0;
    for (int k = 0; k < 200000; k++) {
        double y = k < 16 ? edge[k] : ldexp(rnd(-1, 1), (int)rnd(-160, 130));
        if (k >= 16 && k % 3 == 0) /* a float, or one ulp of double either side */
            y = nextafter((double)(float)y, k % 2 ? INFINITY : -INFINITY);
        float f = (float)y, want = (double)f < y ? nextafterf(f, INFINITY) : f;
        float got = satc_float_up(y);
        if (memcmp(&got, &want, sizeof got)) {
            if (bad++ < 3)
                printf("  FAIL float_up(%a) = %a, want %a\n", y, (double)got, (double)want);
        }
    }
    return bad;
}

static void report(const char *what, const tally *t)
{
    printf("  %-9s %5zu cases, %5zu drawn, %7zu texels written, %4zu checked whole: %zu unsound, "
           "%zu missing\n",
           what, t->cases, t->drawn, t->written, t->checked, t->bad, t->missing);
    check(t->bad == 0, "no texel written that the occluder does not cover at that depth");
    check(t->missing == 0, "every texel the occluder covers with room is written");
}

int main(int argc, char **argv)
{
    tally tb[NCAT], tt[NCAT], tp;
    memset(tb, 0, sizeof tb);
    memset(tt, 0, sizeof tt);
    memset(&tp, 0, sizeof tp);
    test_boxes(tb);
    test_tris(tt);
    test_pairs(&tp);
    check(float_up_bad() == 0, "satc_float_up is the least float >= x");
    size_t wb = 0, wt = 0;
    printf("boxes:\n");
    for (int c = 0; c < NCAT; c++) {
        report(cat_name[c], &tb[c]);
        wb += tb[c].written;
    }
    printf("triangles:\n");
    for (int c = 0; c < NCAT; c++) {
        report(cat_name[c], &tt[c]);
        wt += tt[c].written;
    }
    printf("pairs:\n");
    report("quads", &tp);
    /* the draws must not be empty, or the checks prove nothing */
    check(wb > 10000 && wt > 10000 && tp.written > 1000, "the cases write texels");
    if (argc > 1 && !strcmp(argv[1], "--digest"))
        printf("polygon digest %016llx\n", (unsigned long long)g_digest);
    printf("%d passed, %d failed\n", g_pass, g_fail);
    return g_fail != 0;
}
