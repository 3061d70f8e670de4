/*
 * Sphere and ray queries (RTR 22.13.2, 22.7): the candidate cull on the
 * orthographic kernels every path has (the sphere's bounding cube, the
 * ray's segment), then each candidate decided in double by query_geom.c,
 * the scalar code every path shares, so every path gives the reference's
 * bits by construction. The entry points and the formatting of results.
 */
#include <math.h>
#include <string.h>

#include "../core/volume_d.h"
#include "passes.h"

/* ------------------------------------------------------------------ */
/* The calls                                                            */
/* ------------------------------------------------------------------ */

typedef struct query {
    int ray;
    double p[3], pmag; /* sphere center or ray origin; |p|_1 */
    double r;          /* sphere radius */
    double d[3], T;    /* ray direction and end parameter */
    float *t;
    size_t *nearest;
} query;

/* Candidates from the cull of f in cull_mode, refined in exact mode (and
 * for t or classes); the call is validated. */
static void run(const satc_kernels *k, const satc_frustum *f, const satc_batch *b, size_t first,
                size_t count, satc_mode cull_mode, int exact, satc_results *out, const query *q)
{
    enum { BLOCK = 16 * SATC_CHUNK }; /* volumes per candidate cull */
    uint8_t mask[BLOCK / 8];
    size_t visible = 0, best = SIZE_MAX;
    float best_t = INFINITY;
    int want_t = q->ray && (q->t || q->nearest);
    int need = exact || (q->ray ? want_t : out->classes != NULL); /* the double geometry */
    for (size_t done = 0; done < count; done += BLOCK) {
        size_t n = count - done < BLOCK ? count - done : BLOCK, bytes = (n + 7) / 8;
        satc_results r = {mask, NULL, NULL, 0};
        satc_cull_run(k, f, b, first + done, n, cull_mode, &r);
        if (out->classes)
            memset(out->classes + done, SATC_OUTSIDE, n);
        for (size_t byte = 0; byte < bytes; byte++) {
            for (unsigned bit = 0, bits = mask[byte]; bits; bit++, bits >>= 1) {
                if (!(bits & 1u))
                    continue;
                size_t j = byte * 8 + bit, idx = first + done + j;
                int hit = 1, inside = 0;
                double t = NAN;
                satc_vol_d v;
                if (need && satc_volume_d(b, idx, &v) && satc_vol_finite(&v)) {
                    if (!q->ray) {
                        if (exact || out->classes) {
                            int h = satc_sphere_vol_test(q->p, q->pmag, q->r, &v, out->classes != NULL, &inside);
                            hit = exact ? h : 1;
                        }
                    } else if (exact || want_t) {
                        int h = satc_ray_vol_test(q->p, q->pmag, q->d, q->T, &v, &t);
                        if (exact)
                            hit = h;
                        else if (!h)
                            t = INFINITY;
                    }
                }
                if (!hit) {
                    mask[byte] &= (uint8_t)~(1u << bit);
                    continue;
                }
                if (out->classes)
                    out->classes[done + j] = inside ? SATC_INSIDE : SATC_INTERSECTING;
                if (out->indices)
                    out->indices[visible] = (uint32_t)idx;
                float tf = (float)t;
                if (q->t)
                    q->t[visible] = tf;
                if (tf < best_t)
                    best_t = tf, best = idx;
                visible++;
            }
        }
        if (out->bitmask)
            memcpy(out->bitmask + done / 8, mask, bytes);
    }
    out->visible = visible;
    if (q->nearest)
        *q->nearest = best;
}

/* The kernels of path isa (0: the default one for count volumes), or
 * the status. */
static satc_status kernels(unsigned isa, size_t count, const satc_kernels **k)
{
    if (!isa) {
        *k = satc_kernels_default_n(count);
        return *k ? SATC_OK : SATC_ERR_ISA;
    }
    satc_status st;
    *k = satc_kernels_named((satc_isa)isa, &st);
    return st;
}

/* What satc_cull checks (group bounds too), before anything is written. */
static satc_status check(const satc_frustum *f, const satc_batch *b, size_t first, size_t count,
                         satc_mode mode, const satc_results *out)
{
    satc_status st = satc_check_call(f, b, first, count, mode, out->indices != NULL);
    return st == SATC_OK && count ? satc_check_groups(b) : st;
}

static satc_status sphere_call(unsigned isa, const float center[3], float radius,
                               const satc_batch *b, size_t first, size_t count, satc_mode mode,
                               satc_results *out)
{
    if (!center || !out)
        return SATC_ERR_NULL;
    const satc_kernels *k = NULL;
    satc_status st = kernels(isa, count, &k);
    if (st != SATC_OK)
        return st;
    /* The bounding cube [c - r, c + r]^3: exactly the floats given. */
    satc_obb cube = {{center[0], center[1], center[2]},
                     {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
                     {radius, radius, radius}};
    satc_frustum f;
    if ((st = satc_frustum_from_box(&f, &cube)) != SATC_OK)
        return st;
    if ((st = check(&f, b, first, count, mode, out)) != SATC_OK)
        return st;
    query q;
    memset(&q, 0, sizeof q);
    for (int j = 0; j < 3; j++)
        q.p[j] = center[j], q.pmag += fabs(q.p[j]);
    q.r = radius;
    /* Both modes take the plane test's candidates: exact mode decides
     * them in double anyway, and the planes cost less per volume than
     * the full separating-axis test (0.3 ns of 2.9 from memory). */
    run(k, &f, b, first, count, SATC_CONSERVATIVE, mode == SATC_EXACT, out, &q);
    return SATC_OK;
}

static satc_status ray_call(unsigned isa, const float origin[3], const float dir[3], float tmax,
                            const satc_batch *b, size_t first, size_t count, satc_mode mode,
                            satc_results *out, float *t, size_t *nearest)
{
    if (!origin || !dir || !out)
        return SATC_ERR_NULL;
    const satc_kernels *k = NULL;
    satc_status st = kernels(isa, count, &k);
    if (st != SATC_OK)
        return st;
    query q;
    memset(&q, 0, sizeof q);
    q.ray = 1;
    double dl2 = 0;
    for (int j = 0; j < 3; j++) {
        if (!isfinite(origin[j]) || !isfinite(dir[j]))
            return SATC_ERR_NONFINITE;
        q.p[j] = origin[j], q.d[j] = dir[j];
        q.pmag += fabs(q.p[j]);
        dl2 += q.d[j] * q.d[j];
    }
    if (isnan(tmax))
        return SATC_ERR_NONFINITE;
    if (!(tmax >= 0) || !(q.pmag < SATC_MAX_MAGNITUDE))
        return SATC_ERR_BOUNDS;
    /* The candidates: a hair-thin perspective frustum around the ray,
     * slopes +-2^-20, apex a little behind the origin (in double, its
     * rounding in the frustum's tolerance), far plane past tmax or at
     * infinity: its band is relative to each volume's own distance, as a
     * camera's is. A segment much shorter than |origin|_1 / 768 takes the
     * segment query instead (whose origin is exact, and whose band,
     * SATC_EPSILON times its length, is then the smaller); so do a zero
     * direction and tmax 0 (a point). */
    double dl = sqrt(dl2), len = dl * (double)tmax, room = SATC_MAX_MAGNITUDE - q.pmag;
    double D[3] = {0, 0, 0};
    if (dl > 0)
        D[0] = q.d[0] / dl, D[1] = q.d[1] / dl, D[2] = q.d[2] / dl;
    satc_frustum f;
    if (dl > 0 && tmax > 0 && !(len * 768 < q.pmag)) {
        satc_camera_d cam;
        memset(&cam, 0, sizeof cam);
        double L[3], U[3], back = 0x1p-20 * (q.pmag > 1 ? q.pmag : 1), zero[3] = {0, 0, 0};
        satc_frame_from_dir(D, L, U);
        for (int j = 0; j < 3; j++) {
            cam.origin[j] = q.p[j] - back * D[j];
            cam.left[j] = (float)L[j], cam.up[j] = (float)U[j], cam.dir[j] = (float)D[j];
        }
        cam.n = (float)(0.5 * back);
        cam.f = INFINITY;
        if (len <= room) { /* the end's depth, back + len, with room to spare */
            double far = (back + len) * (1 + 0x1p-20);
            cam.f = (float)far;
            if ((double)cam.f < far)
                cam.f = nextafterf(cam.f, INFINITY);
        }
        cam.l0 = cam.u0 = -0x1p-20f * cam.n;
        cam.l1 = cam.u1 = 0x1p-20f * cam.n;
        if ((st = satc_frustum_from_camera_d(&f, &cam, zero)) != SATC_OK)
            return st;
    } else {
        satc_segment_frustum(&f, origin, D, dl > 0 && tmax > 0 ? (len <= room ? len : room) : 0);
    }
    if ((st = check(&f, b, first, count, mode, out)) != SATC_OK)
        return st;
    q.T = tmax;
    q.t = t;
    q.nearest = nearest;
    /* Both modes take the plane test's candidates: exact mode decides
     * them in double anyway, and the planes cost less per volume than
     * the full separating-axis test (0.3 ns of 2.9 from memory). */
    run(k, &f, b, first, count, SATC_CONSERVATIVE, mode == SATC_EXACT, out, &q);
    return SATC_OK;
}

satc_status satc_query_sphere(const float center[3], float radius, const satc_batch *b,
                              size_t first, size_t count, satc_mode mode, satc_results *out)
{
    return sphere_call(0, center, radius, b, first, count, mode, out);
}

satc_status satc_query_sphere_isa(satc_isa isa, const float center[3], float radius,
                                  const satc_batch *b, size_t first, size_t count, satc_mode mode,
                                  satc_results *out)
{
    return sphere_call(isa ? (unsigned)isa : ~0u, center, radius, b, first, count, mode, out);
}

satc_status satc_query_ray(const float origin[3], const float dir[3], float tmax,
                           const satc_batch *b, size_t first, size_t count, satc_mode mode,
                           satc_results *out, float *t, size_t *nearest)
{
    return ray_call(0, origin, dir, tmax, b, first, count, mode, out, t, nearest);
}

satc_status satc_query_ray_isa(satc_isa isa, const float origin[3], const float dir[3], float tmax,
                               const satc_batch *b, size_t first, size_t count, satc_mode mode,
                               satc_results *out, float *t, size_t *nearest)
{
    return ray_call(isa ? (unsigned)isa : ~0u, origin, dir, tmax, b, first, count, mode, out, t,
                    nearest);
}
