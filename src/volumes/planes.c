/*
 * Convex volumes given by planes (satc_frustum_from_planes): validation,
 * and in double the vertices and edge directions exact mode needs.
 *
 * Vertices (RTR 22.16, three planes meeting in a point) are found per
 * pair of planes: their line p0 + t e is clipped by every other plane; a
 * nonempty clip is an edge of the volume (direction e), its finite ends
 * are vertices, an infinite end makes the volume unbounded. Every vertex
 * of the volume ends a clipped line of two of its planes, so the stored
 * vertices span it. A plane within 2^-20 of parallel to a line does not
 * clip it (its cut point is ill-conditioned); it only drops the segment
 * when outside at both ends. Leaving it out only lengthens the segment (or
 * makes the volume count as unbounded), so the hull of the vertices still
 * contains the volume: never a false negative.
 *
 * Tolerance (tol_t, eps_k = 2 SATC_EPSILON, K = 2 >= |n|_1 of a unit
 * normal): the stored normal and offset are the double ones rounded
 * (2^-24 relative), so along a box at |x - E|_inf <= S the stored plane
 * is within 2^-24 (sqrt 3 S + |w|) of the exact one; a stored vertex is
 * within 2^-24 |V|_inf plus the double clipping error (below 2^-28 F
 * with the clip threshold) and the merge distance (2^-28 F) of an exact
 * one. The kernels' float sums add a few 2^-24 (|M|_1 S + F |M|_1). All of
 * it is below 2 SATC_EPSILON (S + F + max|w|) = eps_k S + tol_t
 * (SATC_EPSILON = 18 u; tests/volumes still passes with a sixteenth of
 * this tolerance, so the margin is wide); the double rounding of the offsets about a far origin
 * (2^-50 (|E|_1 + |d|/|n|)) gets its own 2^-40 term.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "../core/internal.h"

#define PAR 0x1p-20 /* below this, two unit vectors count as parallel */

typedef struct geom {
    double n[SATC_MAX_PLANES][3], w[SATC_MAX_PLANES];
    int np;
    double v[SATC_MAX_PLANE_VERTS][3];
    double e[SATC_MAX_PLANE_EDGES][3];
    int nv, ne, unbounded, empty, too_many;
    double anchor[3]; /* a point of the volume's region (for the origin) */
    int nanchor;
} geom;

static double dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void cross(const double *a, const double *b, double *c)
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static void add_anchor(geom *g, const double *p)
{
    for (int q = 0; q < 3; q++)
        g->anchor[q] += p[q];
    g->nanchor++;
}

static void add_vertex(geom *g, const double *p, double merge)
{
    add_anchor(g, p);
    for (int m = 0; m < g->nv; m++) {
        if (fabs(g->v[m][0] - p[0]) <= merge && fabs(g->v[m][1] - p[1]) <= merge &&
            fabs(g->v[m][2] - p[2]) <= merge)
            return;
    }
    if (g->nv == SATC_MAX_PLANE_VERTS) {
        g->too_many = 1;
        return;
    }
    memcpy(g->v[g->nv++], p, sizeof g->v[0]);
}

/* One parallel class per direction; past the room an axis is left out,
 * which costs exactness, never correctness. */
static void add_edge(geom *g, const double *e)
{
    for (int m = 0; m < g->ne; m++) {
        double c[3];
        cross(g->e[m], e, c);
        if (sqrt(dot(c, c)) < PAR)
            return;
    }
    if (g->ne < SATC_MAX_PLANE_EDGES)
        memcpy(g->e[g->ne++], e, sizeof g->e[0]);
}

/* The line of planes i and j clipped by the others (see the top). */
static void clip_line(geom *g, int i, int j, double tau, double merge)
{
    const double *ni = g->n[i], *nj = g->n[j];
    double c[3], e[3], p0[3];
    cross(ni, nj, c);
    double s = sqrt(dot(c, c));
    if (s < PAR)
        return;
    for (int q = 0; q < 3; q++)
        e[q] = c[q] / s;
    /* p0 = a ni + b nj on both planes: ni.p0 = -w_i, nj.p0 = -w_j. */
    double gm = dot(ni, nj), den = 1.0 - gm * gm;
    double a = (-g->w[i] + gm * g->w[j]) / den, b = (-g->w[j] + gm * g->w[i]) / den;
    for (int q = 0; q < 3; q++)
        p0[q] = a * ni[q] + b * nj[q];
    double lo = -INFINITY, hi = INFINITY, ak[SATC_MAX_PLANES], bk[SATC_MAX_PLANES];
    for (int k = 0; k < g->np; k++) {
        ak[k] = dot(g->n[k], e), bk[k] = dot(g->n[k], p0) + g->w[k];
        if (k == i || k == j || fabs(ak[k]) < PAR)
            continue;
        if (ak[k] > 0)
            lo = fmax(lo, -bk[k] / ak[k]);
        else
            hi = fmin(hi, -bk[k] / ak[k]);
    }
    if (lo > hi) {
        if (lo - hi > tau)
            return;
        lo = hi = 0.5 * (lo + hi);
    }
    /* A nearly parallel plane rejects the segment only when it is outside
     * at both ends (its value is linear in t); otherwise it is left out. */
    for (int k = 0; k < g->np; k++) {
        if (k == i || k == j || fabs(ak[k]) >= PAR)
            continue;
        double at_lo = isinf(lo) ? (ak[k] < 0 ? INFINITY : ak[k] > 0 ? -INFINITY : bk[k])
                                 : ak[k] * lo + bk[k];
        double at_hi = isinf(hi) ? (ak[k] > 0 ? INFINITY : ak[k] < 0 ? -INFINITY : bk[k])
                                 : ak[k] * hi + bk[k];
        if (at_lo < -tau && at_hi < -tau)
            return;
    }
    add_edge(g, e);
    if (isinf(lo) || isinf(hi)) {
        g->unbounded = 1;
        add_anchor(g, p0);
    }
    for (int end = 0; end < 2; end++) {
        double t = end ? hi : lo, p[3];
        if (isinf(t))
            continue;
        for (int q = 0; q < 3; q++)
            p[q] = p0[q] + t * e[q];
        add_vertex(g, p, merge);
    }
}

/* Vertices, edges, boundedness and emptiness of the planes in g. */
static void solve(geom *g)
{
    double scale = 0;
    for (int k = 0; k < g->np; k++)
        scale = fmax(scale, fabs(g->w[k]));
    double tau = 0x1p-30 * scale, merge = 0x1p-30 * scale;
    g->nv = g->ne = g->unbounded = g->empty = g->too_many = g->nanchor = 0;
    memset(g->anchor, 0, sizeof g->anchor);
    int pairs = 0;
    for (int i = 0; i < g->np; i++) {
        for (int j = i + 1; j < g->np; j++) {
            double c[3];
            cross(g->n[i], g->n[j], c);
            if (sqrt(dot(c, c)) < PAR)
                continue;
            pairs++;
            clip_line(g, i, j, tau, merge);
            /* A recession direction: the volume is unbounded along it. */
            for (int sgn = -1; sgn <= 1; sgn += 2) {
                int ray = 1;
                for (int k = 0; k < g->np; k++)
                    ray &= sgn * dot(g->n[k], c) >= -PAR * sqrt(dot(c, c));
                g->unbounded |= ray;
            }
        }
    }
    if (!pairs) {
        /* Every normal parallel to n0: an interval along n0. */
        double lo = -INFINITY, hi = INFINITY;
        for (int k = 0; k < g->np; k++) {
            double p[3];
            if (dot(g->n[k], g->n[0]) > 0)
                lo = fmax(lo, -g->w[k]);
            else
                hi = fmin(hi, g->w[k]);
            for (int q = 0; q < 3; q++)
                p[q] = -g->w[k] * g->n[k][q];
            add_anchor(g, p);
        }
        g->unbounded = 1;
        g->empty = lo > hi + tau;
        return;
    }
    g->empty = g->nanchor == 0;
}

/* Debian's aarch64 gcc 12 crashes vectorizing this function's loops
 * (internal compiler error in vect_transform_reduction); it runs once per
 * volume, so it is built without the vectorizer there. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__aarch64__)
__attribute__((optimize("no-tree-vectorize")))
#endif
satc_status satc_frustum_from_planes(satc_frustum *out, const float planes[][4], size_t nplanes,
                                     float margin)
{
    if (!out || !planes)
        return SATC_ERR_NULL;
    if (nplanes == 0 || nplanes > SATC_MAX_PLANES)
        return SATC_ERR_RANGE;
    if (!isfinite(margin))
        return SATC_ERR_NONFINITE;
    for (size_t k = 0; k < nplanes; k++) {
        for (int q = 0; q < 4; q++) {
            if (!isfinite(planes[k][q]))
                return SATC_ERR_NONFINITE;
        }
    }
    if (!(margin >= 0.0f))
        return SATC_ERR_BOUNDS;
    geom local, *gp = &local;
    memset(gp, 0, sizeof *gp);
    gp->np = (int)nplanes;
    double dmax = 0;
    for (int k = 0; k < gp->np; k++) {
        const float *p = planes[k];
        double len = sqrt((double)p[0] * p[0] + (double)p[1] * p[1] + (double)p[2] * p[2]);
        if (!(len > 0))
            return SATC_ERR_BOUNDS;
        for (int q = 0; q < 3; q++)
            gp->n[k][q] = p[q] / len;
        gp->w[k] = p[3] / len + margin; /* moved outward by the margin */
        dmax = fmax(dmax, fabs(gp->w[k]));
    }
    /* Pass 1 about the world origin finds where the volume is; pass 2
     * redoes it about that point, rounded to float: the origin E. */
    solve(gp);
    if (gp->empty)
        return SATC_ERR_BOUNDS;
    float E[3];
    for (int q = 0; q < 3; q++) {
        double a = gp->anchor[q] / gp->nanchor;
        if (!(fabs(a) <= FLT_MAX))
            return SATC_ERR_BOUNDS;
        E[q] = (float)a;
    }
    for (int k = 0; k < gp->np; k++)
        gp->w[k] += gp->n[k][0] * E[0] + gp->n[k][1] * E[1] + gp->n[k][2] * E[2];
    solve(gp);
    if (gp->empty || gp->too_many)
        return SATC_ERR_BOUNDS;

    satc_frustum fr;
    memset(&fr, 0, sizeof fr);
    fr.kind = SATC_FRUSTUM_PLANES;
    memcpy(fr.origin, E, sizeof E);
    for (int q = 0; q < 3; q++)
        fr.frame[q][q] = 1.0f;
    fr.nplanes = (uint32_t)nplanes;
    fr.margin2 = (float)(2.0 * margin);
    if (!isfinite(fr.margin2))
        return SATC_ERR_BOUNDS;
    double F = 0;
    for (int k = 0; k < gp->np; k++) {
        F = fmax(F, fabs(gp->w[k]));
        for (int q = 0; q < 3; q++)
            fr.plane[k][q] = (float)gp->n[k][q];
        fr.plane[k][3] = (float)gp->w[k];
    }
    if (!gp->unbounded) {
        fr.nverts = (uint32_t)gp->nv;
        fr.nedges = (uint32_t)gp->ne;
        for (int m = 0; m < gp->nv; m++) {
            F = fmax(F, fabs(gp->v[m][0]) + fabs(gp->v[m][1]) + fabs(gp->v[m][2]));
            for (int q = 0; q < 3; q++)
                fr.vert[m][q] = (float)gp->v[m][q];
        }
        for (int m = 0; m < gp->ne; m++) {
            for (int q = 0; q < 3; q++)
                fr.edge[m][q] = (float)gp->e[m][q];
        }
    }
    if (!(F <= SATC_MAX_MAGNITUDE))
        return SATC_ERR_BOUNDS;
    /* Subnormal data would read as 0 under denormals-are-zero: flush it
     * here (a change below 2^-126, inside SATC_TINY), so every mode reads
     * the same volume. */
    float *all[] = {&fr.plane[0][0], &fr.vert[0][0], &fr.edge[0][0]};
    size_t cnt[] = {4 * SATC_MAX_PLANES, 3 * SATC_MAX_PLANE_VERTS, 3 * SATC_MAX_PLANE_EDGES};
    for (int a = 0; a < 3; a++) {
        for (size_t q = 0; q < cnt[a]; q++) {
            if (fabsf(all[a][q]) < FLT_MIN)
                all[a][q] = 0.0f;
        }
    }
    double e1 = fabs((double)E[0]) + fabs((double)E[1]) + fabs((double)E[2]);
    fr.eps_k = 2.0f * SATC_EPSILON;
    fr.tol_t = (float)(2.0 * SATC_EPSILON * F + 0x1p-40 * (e1 + dmax + margin));
    *out = fr;
    return SATC_OK;
}
