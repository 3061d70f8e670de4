/*
 * Group bounds at the speed of a read (satc_group_bounds and its dirty
 * updates): each group's box is the union of the world boxes of its
 * 32-volume runs, which the path's satc_bounds_fn computes in float for
 * every form and layout (kernels/bounds.h, the views pass's prefilter
 * bounds), then widened once per group in double.
 *
 * Bit for bit on every path: a group is cut into the same pieces on every
 * path (runs of 32 from its start, a last run of 32 ending at its end
 * that may overlap the one before, and volumes one by one when it holds
 * fewer than 32); the corners are the same float expressions in the same
 * order on every path (vol_box below repeats derived_box's for the
 * volumes taken one by one and for the scalar path, which has no
 * satc_bounds_fn), and a least and greatest float do not depend on the
 * order they are taken in. A run the kernel reports non-finite (a
 * non-finite corner, or a lane's checksum overflowing, which depends on
 * the lane width) is redone volume by volume. Signed zeros are made +0.
 *
 * Why the group's box holds each volume's satc_to_aabbs box: with
 * u = 2^-24 and S = |l| + |h| + (h - l) + xs over the group's float
 * corners l <= h, views_pre.c shows that the true volume lies within
 * 2^-22 S of them (25 % to spare). satc_to_aabbs rounds its center to
 * nearest and its half size upward past that, so its box exceeds the true
 * one by at most 2 u (|c| + H) (1 + 2^-20) <= 2 u S' with S' the true
 * box's max(|lo|, |hi|) <= S. Together: under 1.3 * 2^-22 S, so widening
 * by 2^-21 S + 2^-119 holds both, and the center's rounding and the
 * double arithmetic are covered by 2^-50 (|l| + |h|) as in groups.c.
 */
#include <math.h>
#include <string.h>

#include "passes.h"

/* Volume i's float corners a <= z and, for instances, p (the extra S
 * term), computed as kernels/bounds.h computes them: the same float
 * operations in the same order (vol_ok: whether all are finite). */
#if defined(__GNUC__)
#define GB_INLINE static inline __attribute__((always_inline))
#else
#define GB_INLINE static inline
#endif

GB_INLINE int vol_box(const satc_batch *b, size_t i, float a[3], float z[3], float *p,
                      const int form)
{
    float c[3], h[3], x[3], y[3];
    *p = 0.0f;
    switch (form) {
    case SATC_FORM_AABB:
        satc_vec3s_get(&b->aabb.center, i, x);
        satc_vec3s_get(&b->aabb.half, i, y);
        for (int q = 0; q < 3; q++)
            a[q] = x[q] - fabsf(y[q]), z[q] = x[q] + fabsf(y[q]);
        break;
    case SATC_FORM_MINMAX:
        satc_vec3s_get(&b->minmax.min, i, x);
        satc_vec3s_get(&b->minmax.max, i, y);
        for (int q = 0; q < 3; q++)
            a[q] = x[q] < y[q] ? x[q] : y[q], z[q] = x[q] < y[q] ? y[q] : x[q];
        break;
    case SATC_FORM_SPHERES: {
        satc_vec3s_get(&b->spheres.center, i, x);
        float r = fabsf(*(const float *)(const void *)((const char *)b->spheres.radius.p +
                                                     i * b->spheres.radius.stride));
        for (int q = 0; q < 3; q++)
            a[q] = x[q] - r, z[q] = x[q] + r;
        break;
    }
    case SATC_FORM_TRS:
        if (!b->trs.local) { /* kernels/bounds.h's splat ball */
            int ok;
            float rad = satc_trs_ball(&b->trs, i, &ok);
            satc_vec3s_get(&b->trs.position, i, c);
            if (!ok)
                rad = NAN;
            *p = 32.0f * rad;
            for (int q2 = 0; q2 < 3; q2++)
                a[q2] = c[q2] - rad, z[q2] = c[q2] + rad;
            break;
        }
        /* fall through */
    case SATC_FORM_INSTANCES: {
        float m[3][4], lc[3] = {0, 0, 0}, lh[3] = {0, 0, 0}, pl[3];
        const uint32_t *mesh;
        size_t mesh_stride, mesh_count;
        const satc_vec3s *lcs, *lhs;
        if (form == SATC_FORM_TRS) {
            const satc_trs *s = &b->trs;
            float q[4], sc[3], rs[3][3];
            satc_trs_quat(s, i, q);
            satc_trs_scale(s, i, sc);
            satc_trs_rot(q, sc, rs);
            satc_vec3s_get(&s->position, i, x);
            for (int r = 0; r < 3; r++)
                for (int k = 0; k < 4; k++)
                    m[r][k] = k < 3 ? rs[r][k] : x[r];
            const satc_local_boxes *lb = s->local;
            mesh = lb ? lb->mesh : NULL, mesh_stride = lb ? lb->mesh_stride : 0;
            mesh_count = lb ? lb->mesh_count : 0;
            lcs = lb ? &lb->center : NULL, lhs = lb ? &lb->half : NULL;
        } else {
            const satc_instances *s = &b->instances;
            const float *m0 = (const float *)(const void *)((const char *)s->matrix + i * s->stride);
            for (int r = 0; r < 3; r++) {
                for (int k = 0; k < 4; k++) {
                    int off = s->layout == SATC_AFFINE_ROWS ? r * 4 + k
                              : s->layout == SATC_AFFINE_4X3_COLUMN_MAJOR ? k * 3 + r : k * 4 + r;
                    m[r][k] = m0[off];
                }
            }
            mesh = s->mesh, mesh_stride = s->mesh_stride, mesh_count = s->mesh_count;
            lcs = &s->local_center, lhs = &s->local_half;
        }
        size_t id = i;
        if (mesh)
            id = *(const uint32_t *)(const void *)((const char *)mesh + i * mesh_stride);
        if (form == SATC_FORM_TRS && !lhs) {
            lh[0] = lh[1] = lh[2] = satc_trs_k(&b->trs);
        } else if (mesh && id >= mesh_count) {
            lc[0] = lc[1] = lc[2] = NAN;
        } else {
            satc_vec3s_get(lcs, id, lc);
            satc_vec3s_get(lhs, id, lh);
        }
        for (int k = 0; k < 3; k++)
            lh[k] = fabsf(lh[k]);
        for (int r = 0; r < 3; r++) {
            float p0 = m[r][0] * lc[0], p1 = m[r][1] * lc[1], p2 = m[r][2] * lc[2];
            c[r] = m[r][3] + ((p0 + p1) + p2);
            pl[r] = (fabsf(p0) + fabsf(p1)) + fabsf(p2);
            h[r] = (fabsf(m[r][0]) * lh[0] + fabsf(m[r][1]) * lh[1]) + fabsf(m[r][2]) * lh[2];
        }
        *p = (pl[0] + pl[1]) + pl[2];
        if (form == SATC_FORM_TRS) { /* kernels/load.h's trs_t4 */
            float t[3];
            for (int j = 0; j < 3; j++) {
                float cs = (fabsf(m[0][j]) + fabsf(m[1][j])) + fabsf(m[2][j]);
                t[j] = cs * (fabsf(lc[j]) + fabsf(lh[j]));
            }
            *p = *p + 16.0f * ((t[0] + t[1]) + t[2]);
        }
        for (int q = 0; q < 3; q++)
            a[q] = c[q] - h[q], z[q] = c[q] + h[q];
        break;
    }
    default: { /* OBB, half axes: h = sum_j |H_j| per component, j in order */
        const int obb = b->form == SATC_FORM_OBB;
        const satc_vec3s *as = obb ? b->obb.axis : b->half_axes.axis;
        float e[3] = {1, 1, 1}, ax[3];
        satc_vec3s_get(obb ? &b->obb.center : &b->half_axes.center, i, c);
        if (obb)
            satc_vec3s_get(&b->obb.extent, i, e);
        for (int j = 0; j < 3; j++) {
            satc_vec3s_get(&as[j], i, ax);
            for (int q = 0; q < 3; q++) {
                float t = obb ? fabsf(ax[q]) * fabsf(e[j]) : fabsf(ax[q]);
                h[q] = j ? h[q] + t : t;
            }
        }
        for (int q = 0; q < 3; q++)
            a[q] = c[q] - h[q], z[q] = c[q] + h[q];
        break;
    }
    }
    return 1;
}

GB_INLINE int vol_ok(const float a[3], const float z[3], float p)
{
    int ok = isfinite(p);
    for (int q = 0; q < 3; q++)
        ok &= isfinite(a[q]) && isfinite(z[q]);
    return ok;
}

/* A group's running box: float corners and extra term, bad once a
 * volume is non-finite, empty while nothing was added. */
typedef struct acc {
    float lo[3], hi[3], xs;
    int bad, empty;
} acc;

static void acc_init(acc *A)
{
    A->bad = 0, A->empty = 1, A->xs = 0.0f;
    for (int q = 0; q < 3; q++)
        A->lo[q] = INFINITY, A->hi[q] = -INFINITY;
}

/* Adds a finite box (a NaN is caught by the callers' checks). */
GB_INLINE void acc_add(acc *A, const float a[3], const float z[3], float p)
{
    for (int q = 0; q < 3; q++) {
        A->lo[q] = a[q] < A->lo[q] ? a[q] : A->lo[q];
        A->hi[q] = z[q] > A->hi[q] ? z[q] : A->hi[q];
    }
    A->xs = p > A->xs ? p : A->xs;
    A->empty = 0;
}

/* Volumes [i, i + n) one by one, one loop per form. */
GB_INLINE void acc_vols_t(acc *A, const satc_batch *b, size_t i, size_t n, const int form)
{
    /* A running sum tells whether all were finite (a sum that overflows
     * is redone volume by volume, checked). */
    acc T = *A;
    float sum = 0.0f;
    for (size_t j = 0; j < n; j++) {
        float a[3], z[3], p;
        vol_box(b, i + j, a, z, &p, form);
        sum += ((a[0] + z[0]) + (a[1] + z[1])) + ((a[2] + z[2]) + p);
        acc_add(&T, a, z, p);
    }
    if (isfinite(sum)) {
        *A = T;
        return;
    }
    for (size_t j = 0; j < n; j++) {
        float a[3], z[3], p;
        vol_box(b, i + j, a, z, &p, form);
        if (!vol_ok(a, z, p)) {
            A->bad = 1;
            return;
        }
        acc_add(A, a, z, p);
    }
}

static void acc_vols(acc *A, const satc_batch *b, size_t i, size_t n)
{
    if (A->bad)
        return;
    switch (b->form) {
    case SATC_FORM_AABB: acc_vols_t(A, b, i, n, SATC_FORM_AABB); break;
    case SATC_FORM_MINMAX: acc_vols_t(A, b, i, n, SATC_FORM_MINMAX); break;
    case SATC_FORM_SPHERES: acc_vols_t(A, b, i, n, SATC_FORM_SPHERES); break;
    case SATC_FORM_INSTANCES: acc_vols_t(A, b, i, n, SATC_FORM_INSTANCES); break;
    case SATC_FORM_TRS: acc_vols_t(A, b, i, n, SATC_FORM_TRS); break;
    case SATC_FORM_OBB: acc_vols_t(A, b, i, n, SATC_FORM_OBB); break;
    default: acc_vols_t(A, b, i, n, SATC_FORM_HALF_AXES); break;
    }
}

/* The runs of 32 volumes [i, i + 32 nm) (nm <= RUNS) as the kernel bounds
 * them: corners per run in lo, hi (3 x nm) and xs. */
enum { RUNS = SATC_CHUNK / SATC_MICRO };

typedef struct runs {
    float lo[3 * RUNS], hi[3 * RUNS], xs[RUNS];
    size_t nm;
} runs;

static void runs_get(runs *R, satc_bounds_fn fn, const satc_batch *b, size_t i, size_t nm,
                     size_t count)
{
    size_t n = nm * SATC_MICRO;
    R->nm = nm;
    fn(b, i, n, SATC_MICRO, i + n == count ? SATC_K_LAST : 0u, R->lo, R->hi, R->xs);
}

/* Run r of R into A (volume by volume when the kernel's box is NaN). */
static void acc_run(acc *A, const runs *R, size_t r, const satc_batch *b, size_t i)
{
    size_t nm = R->nm;
    if (A->bad)
        return;
    if (isnan(R->lo[r]) || isnan(R->xs[r])) {
        acc_vols(A, b, i, SATC_MICRO);
        return;
    }
    float a[3], z[3];
    for (int q = 0; q < 3; q++)
        a[q] = R->lo[(size_t)q * nm + r], z[q] = R->hi[(size_t)q * nm + r];
    acc_add(A, a, z, R->xs[r]);
}

/* Volumes [lo, hi) of one group, any length, into A. */
static void acc_range(acc *A, satc_bounds_fn fn, const satc_batch *b, size_t lo, size_t hi,
                      size_t count)
{
    size_t len = hi - lo;
    if (!fn || len < SATC_MICRO) {
        acc_vols(A, b, lo, len);
        return;
    }
    runs R;
    size_t full = len / SATC_MICRO;
    for (size_t r0 = 0; r0 < full && !A->bad; r0 += RUNS) {
        size_t nm = full - r0 < RUNS ? full - r0 : RUNS;
        size_t at = lo + r0 * SATC_MICRO;
        runs_get(&R, fn, b, at, nm, count);
        for (size_t r = 0; r < nm; r++)
            acc_run(A, &R, r, b, at + r * SATC_MICRO);
    }
    if (len % SATC_MICRO && !A->bad) { /* the last 32, overlapping */
        runs_get(&R, fn, b, hi - SATC_MICRO, 1, count);
        acc_run(A, &R, 0, b, hi - SATC_MICRO);
    }
}

/* Group g's bound from its box (the widening argued at the top). */
static void put_bound(const acc *A, size_t g, float *center, float *half)
{
    for (int q = 0; q < 3; q++) {
        float c = 0.0f, h = 0.0f;
        if (A->bad) {
            c = NAN, h = INFINITY;
        } else if (!A->empty) {
            double l = A->lo[q], u = A->hi[q];
            double w = 0x1p-21 * (fabs(l) + fabs(u) + (u - l) + A->xs) + 0x1p-119;
            l -= w, u += w;
            c = (float)(0.5 * (l + u)) + 0.0f; /* +0, never -0 */
            double a = u - c, z = c - l;
            h = satc_float_up((a > z ? a : z) + 0x1p-50 * (fabs(l) + fabs(u)));
        }
        center[3 * g + (size_t)q] = c;
        half[3 * g + (size_t)q] = h;
    }
}

enum { AHEAD = 4 }; /* groups an update fetches ahead */

/* Whether group g is wanted: all (dirty NULL), in the bit mask. */
static int wanted(const uint64_t *dirty, size_t g)
{
    return !dirty || (dirty[g / 64] >> (g % 64) & 1u);
}

/* Groups [g0, g1) of the layout that `dirty` selects (NULL: all). */
static satc_status bounds_run(const satc_batch *b, size_t count, size_t size,
                              const uint32_t *offsets, size_t ngroups, size_t g0, size_t g1,
                              const uint64_t *dirty, float *center, float *half)
{
    if (!b || (g1 > g0 && (!center || !half)) || (!size && !offsets))
        return SATC_ERR_NULL;
    if ((unsigned)b->form < 1 || (unsigned)b->form > SATC_NFORMS)
        return SATC_ERR_FLAGS;
    if ((size && ngroups > SIZE_MAX / size) || g1 > ngroups || g0 > g1)
        return SATC_ERR_RANGE;
    if (g1 == g0)
        return SATC_OK;
    for (size_t g = g0; !size && g < g1; g++) {
        if (wanted(dirty, g) && offsets[g + 1] < offsets[g])
            return SATC_ERR_LAYOUT;
    }
    satc_status st = satc_check_volumes(b, 0, count);
    if (st != SATC_OK)
        return st;
    const satc_kernels *k = satc_kernels_default_n(count);
    satc_bounds_fn fn = k ? k->bounds[b->form] : NULL;
    satc_groups gs = {size, offsets, ngroups, {0}, {0}};
    runs R;
    size_t next = g0, inflight = 0; /* wanted groups in [g, next) are fetched */
    for (size_t g = g0; g < g1;) {
        if (!wanted(dirty, g)) {
            g++;
            continue;
        }
        size_t lo, hi;
        satc_group_range(&gs, g, &lo, &hi);
        hi = hi < count ? hi : count;
        lo = lo < hi ? lo : hi;
        /* An update keeps the next AHEAD wanted groups fetched. */
        if (next > g)
            inflight--;
        for (next = next > g ? next : g + 1; dirty && next < g1 && inflight < AHEAD; next++) {
            if (!wanted(dirty, next))
                continue;
            size_t l2, h2;
            satc_group_range(&gs, next, &l2, &h2);
            h2 = h2 < count ? h2 : count;
            satc_prefetch(b, l2 < h2 ? l2 : h2, h2);
            __builtin_prefetch(center + 3 * next, 1), __builtin_prefetch(half + 3 * next, 1);
            inflight++;
        }
        /* Groups of one length, a multiple of 32, end to end: one kernel
         * call, one box per group (a group the kernel could not bound
         * finitely is redone volume by volume). */
        size_t len = hi - lo, e = g;
        while (fn && len && len % SATC_MICRO == 0 && len <= SATC_CHUNK && e < g1 &&
               e - g < RUNS && wanted(dirty, e)) {
            size_t l2, h2;
            satc_group_range(&gs, e, &l2, &h2);
            if (l2 != lo + (e - g) * len || h2 - l2 != len || h2 > count)
                break;
            e++;
        }
        if (e > g) {
            size_t m = e - g;
            fn(b, lo, m * len, len, lo + m * len == count ? SATC_K_LAST : 0u, R.lo, R.hi, R.xs);
            for (size_t u = 0; u < m; u++) {
                acc A;
                acc_init(&A);
                if (isnan(R.lo[u]) || isnan(R.xs[u])) {
                    acc_vols(&A, b, lo + u * len, len);
                } else {
                    float a[3], z[3];
                    for (int q = 0; q < 3; q++)
                        a[q] = R.lo[(size_t)q * m + u], z[q] = R.hi[(size_t)q * m + u];
                    acc_add(&A, a, z, R.xs[u]);
                }
                put_bound(&A, g + u, center, half);
            }
            g = e;
            continue;
        }
        acc A;
        acc_init(&A);
        acc_range(&A, fn, b, lo, hi, count);
        put_bound(&A, g, center, half);
        g++;
    }
    return SATC_OK;
}

satc_status satc_group_bounds(const satc_batch *b, size_t count, size_t size,
                              const uint32_t *offsets, size_t ngroups, float *center, float *half)
{
    return bounds_run(b, count, size, offsets, ngroups, 0, ngroups, NULL, center, half);
}

satc_status satc_group_bounds_range(const satc_batch *b, size_t count, size_t size,
                                    const uint32_t *offsets, size_t ngroups, size_t first_group,
                                    size_t group_count, float *center, float *half)
{
    if (first_group > SIZE_MAX - group_count)
        return b ? SATC_ERR_RANGE : SATC_ERR_NULL;
    return bounds_run(b, count, size, offsets, ngroups, first_group, first_group + group_count,
                      NULL, center, half);
}

satc_status satc_group_bounds_dirty(const satc_batch *b, size_t count, size_t size,
                                    const uint32_t *offsets, size_t ngroups, const uint64_t *dirty,
                                    float *center, float *half)
{
    if (!dirty && ngroups)
        return SATC_ERR_NULL;
    return bounds_run(b, count, size, offsets, ngroups, 0, ngroups, dirty, center, half);
}
