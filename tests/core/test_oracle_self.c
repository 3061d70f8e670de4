/*
 * Self-test of the double-precision oracle (tests/common/oracle.c) before
 * it judges the library: analytic answers for axis-aligned boxes, named
 * cases (Hoff's failure case, containment, behind the camera, the apex,
 * degenerate boxes, grow), and a third method on random rotated boxes: a
 * linear feasibility problem solved by vertex enumeration.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "oracle.h"
#include "scenes.h"

static int passed, failed;

static void check(int ok, const char *what)
{
    if (ok) {
        passed++;
    } else {
        failed++;
        printf("FAIL: %s\n", what);
    }
}

/* Camera with the world axes as frame (L x U = D), origin 0. */
static satc_camera axis_camera(float l0, float l1, float u0, float u1, float n, float f, int ortho)
{
    satc_camera c;
    memset(&c, 0, sizeof c);
    c.left[0] = 1, c.up[1] = 1, c.dir[2] = 1;
    c.l0 = l0, c.l1 = l1, c.u0 = u0, c.u1 = u1, c.n = n, c.f = f;
    c.orthographic = ortho;
    return c;
}

static satc_obb aabb(float x0, float x1, float y0, float y1, float z0, float z1)
{
    satc_obb b;
    memset(&b, 0, sizeof b);
    float lo[3] = {x0, y0, z0}, hi[3] = {x1, y1, z1};
    for (int k = 0; k < 3; k++) {
        b.center[k] = 0.5f * (lo[k] + hi[k]); /* dyadic inputs: exact */
        b.extent[k] = 0.5f * (hi[k] - lo[k]);
        b.axis[k][k] = 1;
    }
    return b;
}

/* Perspective frustum z in [n, f], x in [x0 z, x1 z], y in [y0 z, y1 z]:
 * a box [lo, hi] meets it iff some z in both depth ranges satisfies
 * lo_x <= x1 z, hi_x >= x0 z, lo_y <= y1 z, hi_y >= y0 z: constraints
 * a z >= b on z alone. The interval they leave is non-empty iff every lower
 * bound is at most every upper bound, compared by cross-multiplication so
 * dyadic inputs give exact answers. */
static int analytic_persp(const satc_camera *c, const float lo[3], const float hi[3])
{
    double n = c->n;
    double x0 = c->l0 / n, x1 = c->l1 / n, y0 = c->u0 / n, y1 = c->u1 / n; /* n = 1 here */
    /* a z >= b; z >= max(n, lo_z) is (1, lo) and (1, n); z <= min(f, hi_z) is (-1, -hi), (-1, -f). */
    double a[8] = {x1, -x0, y1, -y0, 1, 1, -1, -1};
    double b[8] = {lo[0], -(double)hi[0], lo[1], -(double)hi[1], lo[2], n, -(double)hi[2], -(double)c->f};
    for (int k = 0; k < 8; k++) {
        if (a[k] == 0 && b[k] > 0)
            return 0;
        for (int j = 0; j < 8; j++) {
            /* lower b_k / a_k (a_k > 0) <= upper b_j / a_j (a_j < 0) */
            if (a[k] > 0 && a[j] < 0 && !(b[k] * a[j] >= b[j] * a[k]))
                return 0;
        }
    }
    return 1;
}

static float dyadic(scn_rng *r, int range)
{
    return (float)((long)(scn_next(r) % (uint64_t)(16 * range + 1)) - 8 * range) / 8.0f;
}

static void analytic_family(void)
{
    scn_rng r;
    scn_seed(&r, 11);
    const float slopes[][4] = {{-1, 1, -0.5f, 0.5f}, {0.25f, 2, -1.5f, -0.125f}, {-3, -1, 0.5f, 1}};
    int bad_p = 0, bad_o = 0, hits = 0, total = 0;
    for (int s = 0; s < 3; s++) {
        satc_camera c = axis_camera(slopes[s][0], slopes[s][1], slopes[s][2], slopes[s][3], 1, 16, 0);
        satc_camera o = axis_camera(-2, 1.5f, -1, 3, -3, 5, 1);
        for (int i = 0; i < 40000; i++) {
            float lo[3], hi[3];
            for (int k = 0; k < 3; k++) {
                float a = dyadic(&r, 20), b = dyadic(&r, 20);
                if (scn_next(&r) % 4 == 0)
                    b = a; /* flat */
                lo[k] = fminf(a, b), hi[k] = fmaxf(a, b);
            }
            satc_obb b = aabb(lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]);
            int want = analytic_persp(&c, lo, hi);
            hits += want;
            total++;
            if (orc_intersects(&c, &b, 0) != want && bad_p++ < 5)
                printf("  persp %d: [%g %g]x[%g %g]x[%g %g] analytic %d\n", s, lo[0], hi[0], lo[1],
                       hi[1], lo[2], hi[2], want);
            /* Orthographic: the frustum is the box [-2,1.5]x[-1,3]x[-3,5]. */
            int wo = lo[0] <= 1.5f && hi[0] >= -2 && lo[1] <= 3 && hi[1] >= -1 && lo[2] <= 5 && hi[2] >= -3;
            if (orc_intersects(&o, &b, 0) != wo && bad_o++ < 5)
                printf("  ortho: [%g %g]x[%g %g]x[%g %g] analytic %d\n", lo[0], hi[0], lo[1], hi[1],
                       lo[2], hi[2], wo);
            int wi = lo[0] >= -2 && hi[0] <= 1.5f && lo[1] >= -1 && hi[1] <= 3 && lo[2] >= -3 && hi[2] <= 5;
            if (orc_inside(&o, &b) != wi && bad_o++ < 5)
                printf("  ortho inside: [%g %g]x[%g %g]x[%g %g] analytic %d\n", lo[0], hi[0], lo[1],
                       hi[1], lo[2], hi[2], wi);
        }
    }
    printf("analytic family: %d boxes (%d meeting), %d perspective and %d orthographic mismatches\n",
           total, hits, bad_p, bad_o);
    check(bad_p == 0, "axis-aligned boxes vs perspective frusta match the analytic answer");
    check(bad_o == 0, "axis-aligned boxes vs an orthographic frustum match the analytic answer");
}

static void named_cases(void)
{
    /* Frustum 1 <= z <= 16, |x| <= z, |y| <= z/2. */
    satc_camera c = axis_camera(-1, 1, -0.5f, 0.5f, 1, 16, 0);
    satc_camera ci = axis_camera(-1, 1, -0.5f, 0.5f, 1, INFINITY, 0);
    satc_obb b;

    /* Hoff's failure case: a long thin box across the view, no vertex inside. */
    b = aabb(-100, 100, -0.125f, 0.125f, 7.875f, 8.125f);
    check(orc_intersects(&c, &b, 0), "long thin box across the view meets");
    b = aabb(-100, 100, 4.25f, 4.5f, 7.875f, 8.125f); /* above y = z/2 <= 4.0625 */
    check(!orc_intersects(&c, &b, 0), "long thin box above the view misses");
    b = aabb(-0.125f, 0.125f, -0.125f, 0.125f, -100, 100); /* through the apex along D */
    check(orc_intersects(&c, &b, 0), "thin box along the view axis meets");

    b = aabb(-100, 100, -100, 100, -100, 100);
    check(orc_intersects(&c, &b, 0), "box containing the frustum meets");
    check(!orc_inside(&c, &b), "box containing the frustum is not inside");
    b = aabb(-2, 2, -2, 2, -6, -4);
    check(!orc_intersects(&c, &b, 0), "box behind the camera misses");
    b = aabb(-0.5f, 0.5f, -0.5f, 0.5f, -0.5f, 0.5f);
    check(!orc_intersects(&c, &b, 0), "box around the apex short of the near plane misses");
    b = aabb(-0.5f, 0.5f, -0.5f, 0.5f, -1, 1);
    check(orc_intersects(&c, &b, 0), "box around the apex touching the near plane meets");
    b = aabb(1, 2, 0.5f, 1, 0, 1);
    check(orc_intersects(&c, &b, 0), "box touching a near corner meets");
    b = aabb(1.125f, 2, 0.5f, 1, 0, 1);
    check(!orc_intersects(&c, &b, 0), "box just beside a near corner misses");
    b = aabb(-1, 1, -1, 1, 16, 17);
    check(orc_intersects(&c, &b, 0), "box touching the far plane meets");
    check(!orc_intersects(&c, &(satc_obb){{0, 0, 20}, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {1, 1, 1}}, 0),
          "box beyond the far plane misses");
    check(orc_intersects(&ci, &(satc_obb){{0, 0, 1e30f}, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {1, 1, 1}}, 0),
          "infinite far: a distant box on the axis meets");
    /* A box touching the side x = z along an edge from outside. */
    b = aabb(4, 5, -1, 1, 2, 4);
    check(orc_intersects(&c, &b, 0), "box touching a side plane along an edge meets");
    b = aabb(4.0625f, 5, -1, 1, 2, 4);
    check(!orc_intersects(&c, &b, 0), "box just outside a side plane misses");
    /* An edge of a rotated box touching the lateral edge x = z, y = z/2:
     * box rotated 45 degrees about z, corner region near (4, 2, 4). */
    {
        float h = 0.70710678f;
        satc_obb r = {{4, 2, 4}, {{h, h, 0}, {-h, h, 0}, {0, 0, 1}}, {0.5f, 0.5f, 0.5f}};
        check(orc_intersects(&c, &r, 0), "rotated box around a point of the lateral edge meets");
        r.center[0] = 6, r.center[1] = 4;
        check(!orc_intersects(&c, &r, 0), "rotated box beyond the lateral edge misses");
    }

    /* Degenerate boxes: points, segments, rectangles. */
    satc_obb p = {{0.25f, 0.125f, 3}, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {0, 0, 0}};
    check(orc_intersects(&c, &p, 0), "point inside meets");
    check(orc_inside(&c, &p), "point inside is inside");
    p.center[2] = 0.96875f;
    check(!orc_intersects(&c, &p, 0), "point before the near plane misses");
    p.center[0] = 1, p.center[1] = 0.5f, p.center[2] = 1;
    check(orc_intersects(&c, &p, 0), "point on a near corner meets");
    p.center[0] = 1.0000001f;
    check(!orc_intersects(&c, &p, 0), "point just outside a near corner misses");
    satc_obb s = {{0, 0, 8}, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {100, 0, 0}};
    check(orc_intersects(&c, &s, 0), "segment across the view meets");
    s.center[1] = 5;
    check(!orc_intersects(&c, &s, 0), "segment above the view misses");
    satc_obb q = {{0, 0, 8}, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {100, 100, 0}};
    check(orc_intersects(&c, &q, 0), "rectangle across the view meets");
    q.center[2] = 20;
    check(!orc_intersects(&c, &q, 0), "rectangle beyond the far plane misses");

    /* Grow: box x in [3, 4], z in [1.875, 2.125] reaches x <= z at g = 0.4375. */
    b = aabb(3, 4, -0.125f, 0.125f, 1.875f, 2.125f);
    check(!orc_intersects(&c, &b, 0.4374), "grow just short misses");
    check(orc_intersects(&c, &b, 0.4376), "grow just enough meets");

    /* orc_inside. */
    b = aabb(-1, 1, -0.5f, 0.5f, 2, 3);
    check(orc_inside(&c, &b), "box in the middle is inside");
    b = aabb(-1, 1, -0.5f, 0.5f, 1, 3);
    check(orc_inside(&c, &b), "box with a face on the near plane is inside (closed)");
    b = aabb(-2.125f, 1, -0.5f, 0.5f, 2, 3);
    check(!orc_inside(&c, &b), "box crossing a side is not inside");

    /* orc_band by hand: delta = (1, -2, 8), |e|_1 = 3, K = 1 + 1 + 0.5, F = n K. */
    satc_obb bb = {{1, -2, 8}, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {1, 1, 1}};
    double want = SATC_EXACT_BAND * 2.5 * (11 + 3 + 2.5);
    check(fabs(orc_band(&c, &bb) - want) <= 1e-15 * want, "orc_band, perspective");
    satc_camera o = axis_camera(-2, 1.5f, -1, 3, -3, 5, 1);
    /* center (-0.25, 1, 1), half (1.75, 2, 4): F = 2.25 + 7.75 = 10 */
    want = SATC_EXACT_BAND * 1.0 * (11 + 3 + 10);
    check(fabs(orc_band(&o, &bb) - want) <= 1e-15 * want, "orc_band, orthographic");
}

/* ---- Third method: is there t in [-1,1]^3 with P(t) = C + sum t_j e_j A_j
 * in every frustum half-space? A bounded non-empty polytope has a vertex
 * where three independent constraints are active: enumerate them. */

typedef struct lp_con {
    double a[3], b; /* a.t >= b, with a normalised so slacks are distances */
} lp_con;

static int lp_feasible(const satc_camera *c, const satc_obb *box, double tol)
{
    double L[3], U[3], D[3], C[3], M[3][3];
    for (int k = 0; k < 3; k++) {
        L[k] = c->left[k], U[k] = c->up[k], D[k] = c->dir[k];
        C[k] = (double)box->center[k] - c->origin[k];
        for (int j = 0; j < 3; j++)
            M[k][j] = (double)box->extent[j] * box->axis[j][k];
    }
    /* Frustum half-spaces N.P >= h in camera-relative world coordinates. */
    double N[6][3], h[6];
    int np = 0;
    double n = c->n;
    for (int k = 0; k < 3; k++) {
        if (c->orthographic) {
            N[0][k] = L[k], N[1][k] = -L[k], N[2][k] = U[k], N[3][k] = -U[k];
        } else {
            N[0][k] = L[k] - c->l0 / n * D[k], N[1][k] = c->l1 / n * D[k] - L[k];
            N[2][k] = U[k] - c->u0 / n * D[k], N[3][k] = c->u1 / n * D[k] - U[k];
        }
        N[4][k] = D[k], N[5][k] = -D[k];
    }
    if (c->orthographic) {
        h[0] = c->l0, h[1] = -(double)c->l1, h[2] = c->u0, h[3] = -(double)c->u1;
    } else {
        h[0] = h[1] = h[2] = h[3] = 0;
    }
    h[4] = n, h[5] = -(double)c->f;
    np = isinf(c->f) ? 5 : 6;
    lp_con con[12];
    int m = 0;
    for (int p = 0; p < np; p++) {
        double len = sqrt(N[p][0] * N[p][0] + N[p][1] * N[p][1] + N[p][2] * N[p][2]);
        /* N.(C + M t) >= h  <=>  (M^T N) t >= h - N.C */
        for (int j = 0; j < 3; j++)
            con[m].a[j] = (N[p][0] * M[0][j] + N[p][1] * M[1][j] + N[p][2] * M[2][j]) / len;
        con[m].b = (h[p] - (N[p][0] * C[0] + N[p][1] * C[1] + N[p][2] * C[2])) / len;
        m++;
    }
    int nf = m;
    for (int j = 0; j < 3; j++) {
        memset(&con[m], 0, sizeof con[m]);
        con[m].a[j] = 1, con[m].b = -1, m++;
        memset(&con[m], 0, sizeof con[m]);
        con[m].a[j] = -1, con[m].b = -1, m++;
    }
    for (int i = 0; i < m; i++)
        for (int j = i + 1; j < m; j++)
            for (int k = j + 1; k < m; k++) {
                const lp_con *r[3] = {&con[i], &con[j], &con[k]};
                double det = r[0]->a[0] * (r[1]->a[1] * r[2]->a[2] - r[1]->a[2] * r[2]->a[1]) -
                             r[0]->a[1] * (r[1]->a[0] * r[2]->a[2] - r[1]->a[2] * r[2]->a[0]) +
                             r[0]->a[2] * (r[1]->a[0] * r[2]->a[1] - r[1]->a[1] * r[2]->a[0]);
                double scale = 1;
                for (int q = 0; q < 3; q++)
                    scale *= sqrt(r[q]->a[0] * r[q]->a[0] + r[q]->a[1] * r[q]->a[1] + r[q]->a[2] * r[q]->a[2]);
                if (!(fabs(det) > 1e-12 * scale))
                    continue;
                double t[3];
                for (int col = 0; col < 3; col++) {
                    double a[3][3];
                    for (int q = 0; q < 3; q++)
                        for (int x = 0; x < 3; x++)
                            a[q][x] = x == col ? r[q]->b : r[q]->a[x];
                    t[col] = (a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
                              a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
                              a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])) / det;
                }
                int ok = 1;
                for (int q = 0; q < m && ok; q++) {
                    double slack = con[q].a[0] * t[0] + con[q].a[1] * t[1] + con[q].a[2] * t[2] - con[q].b;
                    ok = slack >= -(q < nf ? tol : 1e-9);
                }
                if (ok)
                    return 1;
            }
    return 0;
}

static void random_boxes_vs_lp(void)
{
    scn_rng r;
    scn_seed(&r, 12);
    int bad = 0, total = 0, meets = 0, border = 0;
    for (int cam_i = 0; cam_i < 200; cam_i++) {
        satc_camera c;
        scn_random_camera(&r, (scn_cam_kind)(cam_i % 4), &c);
        scn_scene s;
        if (scn_make_boundary_for(&s, &c, 150, 1000 + (uint64_t)cam_i) != 0) {
            check(0, "scn_make_boundary_for");
            return;
        }
        for (size_t i = 0; i < s.count; i++) {
            satc_obb b;
            satc_boxes_get(&s.boxes, i, &b);
            if (i % 5 == 0)
                b.extent[i % 3] = 0; /* degenerate ones too */
            double scale = 0;
            for (int k = 0; k < 3; k++)
                scale += fabs((double)b.center[k] - c.origin[k]) + b.extent[k];
            scale += isinf(c.f) ? c.n : fabs((double)c.f) + fabs((double)c.n);
            scale += fabs((double)c.l0) + fabs((double)c.l1) + fabs((double)c.u0) + fabs((double)c.u1);
            double tol = 1e-10 * scale, grow = 1e-6 * scale;
            int o0 = orc_intersects(&c, &b, 0), og = orc_intersects(&c, &b, grow);
            int lp = lp_feasible(&c, &b, tol);
            total++;
            meets += o0;
            /* The oracle's "meets" needs a near-feasible point; a feasible
             * point means the slightly grown box meets; growing is monotone. */
            int ok = (!o0 || lp) && (!lp || og) && (!o0 || og);
            border += lp && !o0;
            if (!ok && bad++ < 5)
                printf("  lp mismatch: camera %d box %zu oracle %d grown %d lp %d\n", cam_i, i, o0, og, lp);
        }
        scn_free(&s);
    }
    printf("vertex enumeration: %d boxes (%d meeting), %d within the tolerance only, %d mismatches\n",
           total, meets, border, bad);
    check(bad == 0, "oracle agrees with vertex enumeration on random rotated boxes");
}

int main(void)
{
    analytic_family();
    named_cases();
    random_boxes_vs_lp();
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
