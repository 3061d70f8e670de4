/*
 * libFuzzer harness: bytes become a camera (any floats, NaN and Inf
 * included, plus kind flags) or a 4x4 view-projection matrix with
 * convention bits, and a batch of boxes (from quaternions, AABBs, world
 * matrices or raw floats, some fields corrupted). Every public entry point
 * is called and the documented rules are asserted:
 *  - statuses: a camera with a NaN or Inf field gives SATC_ERR_NONFINITE;
 *    each error code only where its rule is broken; a successful build
 *    gives finite, ordered values (n > 0 for perspective); on error the
 *    output is left unchanged; box helpers refuse what is not a box and
 *    give unit, orthogonal axes when they succeed;
 *  - culling: the forms of a result agree; non-finite boxes are
 *    SATC_INTERSECTING; every path and every output form equals the scalar
 *    reference (memcmp); nothing is written past the outputs;
 *  - on finite, valid input (a camera built OK, boxes from quaternions with
 *    moderate magnitudes): no false negative against the double-precision
 *    oracle (orc_intersects).
 *
 * Input layout (bytes past the end read as 0):
 *   flags: bit 0 matrix, bit 1 orthographic, bit 2 infinite far, bit 3
 *          satc_frustum_perspective, bit 4 the camera's frustum passed on
 *          as planes (satc_frustum_from_planes; odd corruption counts
 *          drop the far plane, and each corruption also hits a plane
 *          coefficient), bits 5-7 number of corruptions;
 *   camera: quaternion (4 x int8), origin (3 x mf), bounds (centre, half
 *          width) along L and U (4 x mf), n and depth span (2 x mf);
 *   matrix only: conventions byte (bit 7: add unknown bits; bit 6: 16 raw
 *          floats instead of the camera's matrix);
 *   corruptions: (field byte, value) each;
 *   boxes: count byte (mod 97), first byte, then per box a kind byte
 *          (bits 0-1: quaternion, AABB, world matrix, raw; bit 2: corrupt
 *          one field) and its parameters.
 * mf = int16 / 256 * 2^(byte % 32 - 16); a value = a special constant
 * (selector byte < 128) or 4 raw bytes.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_cull.h"
#include "oracle.h"
#include "scenes.h"
#include "satc.h"

#define MAX_BOXES 96

static int fails;
satc_fuzz_stats satc_fuzz_counts;

#define RULE(cond, ...)                                                                            \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            if (++fails <= 20) {                                                                   \
                printf("fuzz_cull.c:%d: rule broken: ", __LINE__);                                 \
                printf(__VA_ARGS__);                                                               \
                printf("\n");                                                                      \
            }                                                                                      \
        }                                                                                          \
    } while (0)

/* ---- reading bytes ---- */

typedef struct rd {
    const uint8_t *p;
    size_t n, k;
} rd;

static unsigned u8(rd *r) { return r->k < r->n ? r->p[r->k++] : 0u; }

static int s8(rd *r) { return (int)(int8_t)u8(r); }

static double mf(rd *r)
{
    unsigned lo = u8(r), hi = u8(r);
    int v = (int)(int16_t)(uint16_t)(lo | hi << 8);
    int e = (int)(u8(r) % 32u) - 16;
    return ldexp(v / 256.0, e);
}

static float raw_float(rd *r)
{
    uint32_t u = 0;
    for (int k = 0; k < 4; k++)
        u |= (uint32_t)u8(r) << (8 * k);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static float value(rd *r)
{
    static const float special[14] = {NAN,     -NAN,     INFINITY, -INFINITY, 0.0f,  -0.0f, FLT_MIN,
                                      1e-45f,  FLT_MAX,  -FLT_MAX, 1.0f,      -1.0f, 1e-30f, 1e30f};
    unsigned sel = u8(r);
    return sel < 128 ? special[sel % 14] : raw_float(r);
}

static int finite_all(const float *v, int n)
{
    for (int k = 0; k < n; k++)
        if (!isfinite(v[k]))
            return 0;
    return 1;
}

/* ---- frusta ---- */

static float *camera_field(satc_camera *c, unsigned k)
{
    k %= 18;
    if (k < 3)
        return &c->origin[k];
    if (k < 6)
        return &c->left[k - 3];
    if (k < 9)
        return &c->up[k - 6];
    if (k < 12)
        return &c->dir[k - 9];
    float *rest[6] = {&c->l0, &c->l1, &c->u0, &c->u1, &c->n, &c->f};
    return rest[k - 12];
}

/* Largest deviation of (L, U, D) from right-handed orthonormal, in double. */
static double frame_deviation(const float *L, const float *U, const float *D)
{
    double v[3][3];
    for (int k = 0; k < 3; k++)
        v[0][k] = L[k], v[1][k] = U[k], v[2][k] = D[k];
    double dev = 0;
    for (int a = 0; a < 3; a++)
        for (int b = a; b < 3; b++) {
            double d = v[a][0] * v[b][0] + v[a][1] * v[b][1] + v[a][2] * v[b][2];
            d = fabs(a == b ? d - 1.0 : d);
            dev = d > dev ? d : dev;
        }
    double c[3] = {v[0][1] * v[1][2] - v[0][2] * v[1][1], v[0][2] * v[1][0] - v[0][0] * v[1][2],
                   v[0][0] * v[1][1] - v[0][1] * v[1][0]};
    for (int k = 0; k < 3; k++) {
        double d = fabs(c[k] - v[2][k]);
        dev = d > dev ? d : dev;
    }
    return isnan(dev) ? INFINITY : dev;
}

/* What every successfully built frustum must look like. */
static void check_frustum(const satc_frustum *f, const char *how)
{
    int persp = f->kind == SATC_FRUSTUM_PERSPECTIVE;
    RULE(persp || f->kind == SATC_FRUSTUM_ORTHOGRAPHIC, "%s: kind %u", how, f->kind);
    RULE(finite_all(f->origin, 3) && finite_all(&f->frame[0][0], 9), "%s: non-finite frame", how);
    RULE(isfinite(f->x0) && isfinite(f->x1) && isfinite(f->y0) && isfinite(f->y1) &&
             f->x0 < f->x1 && f->y0 < f->y1,
         "%s: bounds [%g, %g] x [%g, %g]", how, f->x0, f->x1, f->y0, f->y1);
    RULE(isfinite(f->n) && f->f > f->n, "%s: n %g f %g", how, f->n, f->f);
    if (persp)
        RULE(f->n > 0 && (isfinite(f->f) || (f->infinite && f->f == INFINITY)),
             "%s: perspective n %g f %g infinite %u", how, f->n, f->f, f->infinite);
    else
        RULE(isfinite(f->f) && !f->infinite, "%s: orthographic far %g", how, f->f);
    RULE(isfinite(f->eps_k) && f->eps_k > 0, "%s: eps_k %g", how, f->eps_k);
    RULE(frame_deviation(f->frame[0], f->frame[1], f->frame[2]) <= 4 * SATC_FRAME_TOLERANCE,
         "%s: frame not orthonormal", how);
}

/* The rules of satc_frustum_from_camera's status codes. */
static void check_camera_status(const satc_camera *c, satc_status st)
{
    int ortho = c->orthographic != 0;
    int nonfinite = !finite_all(c->origin, 3) || !finite_all(c->left, 3) ||
                    !finite_all(c->up, 3) || !finite_all(c->dir, 3) || !isfinite(c->l0) ||
                    !isfinite(c->l1) || !isfinite(c->u0) || !isfinite(c->u1) || !isfinite(c->n) ||
                    isnan(c->f) || c->f == -INFINITY;
    if (nonfinite) {
        RULE(st == SATC_ERR_NONFINITE, "camera with a NaN/Inf field gave %d", (int)st);
        return;
    }
    double slope = 0;
    int collapsed = 0; /* bounds distinct but equal as float slopes */
    if (!ortho && c->n > 0) {
        double b[4] = {c->l0, c->l1, c->u0, c->u1};
        for (int k = 0; k < 4; k++)
            slope = fabs(b[k]) / c->n > slope ? fabs(b[k]) / c->n : slope;
        collapsed = !((float)(b[0] / c->n) < (float)(b[1] / c->n)) ||
                    !((float)(b[2] / c->n) < (float)(b[3] / c->n));
    }
    double dev = frame_deviation(c->left, c->up, c->dir);
    switch (st) {
    case SATC_OK:
        RULE(ortho || c->n > 0, "OK with n = %g", c->n);
        RULE(c->f > c->n && (!ortho || isfinite(c->f)), "OK with n %g f %g", c->n, c->f);
        RULE(c->l0 < c->l1 && c->u0 < c->u1, "OK with empty bounds");
        RULE(ortho || slope <= SATC_MAX_SLOPE * (1 + 1e-6), "OK with slope %g", slope);
        RULE(dev <= 4 * SATC_FRAME_TOLERANCE, "OK with frame deviation %g", dev);
        break;
    case SATC_ERR_NEAR:
        RULE(!ortho && !(c->n > 0), "SATC_ERR_NEAR with n = %g", c->n);
        break;
    case SATC_ERR_FAR:
        RULE(!(c->f > c->n) || (ortho && isinf(c->f)), "SATC_ERR_FAR with n %g f %g", c->n, c->f);
        break;
    case SATC_ERR_BOUNDS: {
        int big = fabs(c->l0) > 1e38 || fabs(c->l1) > 1e38 || fabs(c->u0) > 1e38 ||
                  fabs(c->u1) > 1e38 || fabs(c->n) > 1e38 || fabs(c->f) > 1e38;
        RULE(!(c->l0 < c->l1) || !(c->u0 < c->u1) ||
                 (!ortho && (slope >= SATC_MAX_SLOPE * (1 - 1e-6) || collapsed)) || (ortho && big),
             "SATC_ERR_BOUNDS with [%g, %g] x [%g, %g], slope %g", c->l0, c->l1, c->u0, c->u1,
             slope);
        break;
    }
    case SATC_ERR_FRAME:
        RULE(dev > 0.25 * SATC_FRAME_TOLERANCE, "SATC_ERR_FRAME with deviation %g", dev);
        break;
    default:
        RULE(0, "satc_frustum_from_camera returned %d", (int)st);
    }
}

/* A view-projection matrix for the camera in the given conventions
 * (view space x right = -L, y up = U, z back = -D; glFrustum / glOrtho
 * and their [0, 1], reversed and infinite variants), in double. */
static void camera_matrix(const satc_camera *c, unsigned conv, float m[16])
{
    double R[3][3], t[3];
    for (int k = 0; k < 3; k++)
        R[0][k] = -(double)c->left[k], R[1][k] = c->up[k], R[2][k] = -(double)c->dir[k];
    for (int r = 0; r < 3; r++)
        t[r] = -(R[r][0] * c->origin[0] + R[r][1] * c->origin[1] + R[r][2] * c->origin[2]);
    double V[4][4] = {{R[0][0], R[0][1], R[0][2], t[0]},
                      {R[1][0], R[1][1], R[1][2], t[1]},
                      {R[2][0], R[2][1], R[2][2], t[2]},
                      {0, 0, 0, 1}};
    double a = -(double)c->l1, b = -(double)c->l0, bo = c->u0, to = c->u1, n = c->n, f = c->f;
    int zo = (conv & SATC_DEPTH_ZERO_TO_ONE) != 0, rev = (conv & SATC_DEPTH_REVERSED) != 0;
    int inf = (conv & SATC_DEPTH_INFINITE_FAR) != 0;
    double P[4][4];
    memset(P, 0, sizeof P);
    if (!c->orthographic) {
        P[0][0] = 2 * n / (b - a), P[0][2] = (b + a) / (b - a);
        P[1][1] = 2 * n / (to - bo), P[1][2] = (to + bo) / (to - bo);
        P[3][2] = -1;
        if (inf) {
            /* z_ndc -> 1 (or 0 when reversed) at infinity. */
            if (zo)
                P[2][2] = rev ? 0 : -1, P[2][3] = rev ? n : -n;
            else
                P[2][2] = rev ? 1 : -1, P[2][3] = rev ? 2 * n : -2 * n;
        } else if (zo) {
            P[2][2] = rev ? n / (f - n) : f / (n - f);
            P[2][3] = rev ? f * n / (f - n) : f * n / (n - f);
        } else {
            double s = rev ? -1 : 1;
            P[2][2] = s * -(f + n) / (f - n), P[2][3] = s * -2 * f * n / (f - n);
        }
    } else {
        P[0][0] = 2 / (b - a), P[0][3] = -(b + a) / (b - a);
        P[1][1] = 2 / (to - bo), P[1][3] = -(to + bo) / (to - bo);
        P[3][3] = 1;
        if (zo) {
            P[2][2] = rev ? 1 / (f - n) : -1 / (f - n);
            P[2][3] = rev ? f / (f - n) : -n / (f - n);
        } else {
            double s = rev ? -1 : 1;
            P[2][2] = s * -2 / (f - n), P[2][3] = s * -(f + n) / (f - n);
        }
    }
    int row = (conv & SATC_MATRIX_ROW_MAJOR) != 0;
    for (int r = 0; r < 4; r++)
        for (int col = 0; col < 4; col++) {
            double s = 0;
            for (int k = 0; k < 4; k++)
                s += P[r][k] * V[k][col];
            m[row ? r * 4 + col : col * 4 + r] = (float)s;
        }
}

/* ---- boxes ---- */

static double axis_deviation(const satc_obb *b)
{
    double dev = 0;
    for (int i = 0; i < 3; i++)
        for (int j = i; j < 3; j++) {
            double d = (double)b->axis[i][0] * b->axis[j][0] + (double)b->axis[i][1] * b->axis[j][1] +
                       (double)b->axis[i][2] * b->axis[j][2];
            d = fabs(i == j ? d - 1.0 : d);
            dev = d > dev ? d : dev;
        }
    return isnan(dev) ? INFINITY : dev;
}

static float *obb_field(satc_obb *b, unsigned k)
{
    k %= 15;
    if (k < 3)
        return &b->center[k];
    if (k < 12)
        return &b->axis[(k - 3) / 3][(k - 3) % 3];
    return &b->extent[k - 12];
}

static int obb_finite(const satc_obb *b)
{
    return finite_all(b->center, 3) && finite_all(&b->axis[0][0], 9) && finite_all(b->extent, 3);
}

/* Decodes one box; *eligible tells whether the oracle rule applies. */
static void make_box(rd *r, const float origin[3], satc_obb *out, int *eligible)
{
    unsigned kind = u8(r);
    satc_obb b;
    memset(&b, 0, sizeof b);
    b.axis[0][0] = b.axis[1][1] = b.axis[2][2] = 1.0f;
    *eligible = 0;
    switch (kind & 3u) {
    case 0: { /* center, quaternion, half extents */
        float c[3], q[4], h[3];
        double off = 0, ext = 0;
        for (int k = 0; k < 3; k++) {
            double d = mf(r);
            c[k] = (float)(origin[k] + d);
            off = fabs(d) > off ? fabs(d) : off;
        }
        int zero = 1;
        for (int k = 0; k < 4; k++) {
            q[k] = (float)s8(r);
            zero &= q[k] == 0.0f;
        }
        int neg = 0;
        for (int k = 0; k < 3; k++) {
            h[k] = (float)mf(r);
            neg |= h[k] < 0.0f;
            ext = fabs(h[k]) > ext ? fabs(h[k]) : ext;
        }
        satc_obb t;
        satc_status st = satc_obb_from_quat(&t, c, q, h);
        int finite = finite_all(c, 3);
        if (!finite || zero || neg) {
            RULE(st == SATC_ERR_BOX, "satc_obb_from_quat: not a box but %d", (int)st);
        } else {
            RULE(st == SATC_OK, "satc_obb_from_quat: valid input gave %d", (int)st);
        }
        if (st == SATC_OK) {
            RULE(axis_deviation(&t) <= SATC_AXIS_TOLERANCE, "satc_obb_from_quat: axes off by %g",
                 axis_deviation(&t));
            RULE(!memcmp(t.center, c, sizeof c) && !memcmp(t.extent, h, sizeof h),
                 "satc_obb_from_quat: center or extents changed");
            b = t;
            *eligible = off <= 1e5 && ext <= 1e4;
        }
        break;
    }
    case 1: { /* AABB */
        float lo[3], hi[3];
        int bad = 0;
        for (int k = 0; k < 3; k++) {
            lo[k] = (float)(origin[k] + mf(r));
            hi[k] = (float)(lo[k] + mf(r));
            bad |= !(lo[k] <= hi[k]) || !isfinite(lo[k]) || !isfinite(hi[k]);
        }
        satc_obb t;
        satc_status st = satc_obb_from_aabb(&t, lo, hi);
        RULE(st == (bad ? SATC_ERR_BOX : SATC_OK), "satc_obb_from_aabb: %s input gave %d",
             bad ? "invalid" : "valid", (int)st);
        if (st == SATC_OK) {
            int covers = obb_finite(&t), bad_k = -1;
            for (int k = 0; k < 3; k++) {
                int ok = t.extent[k] >= 0 && (double)t.center[k] - t.extent[k] <= lo[k] &&
                         (double)t.center[k] + t.extent[k] >= hi[k] && t.axis[k][k] == 1.0f &&
                         t.axis[k][(k + 1) % 3] == 0.0f && t.axis[k][(k + 2) % 3] == 0.0f;
                if (!ok && bad_k < 0)
                    bad_k = k;
                covers &= ok;
            }
            RULE(covers, "satc_obb_from_aabb: box does not cover [min, max] on axis %d: "
                         "[%.9g, %.9g] gave center %.9g extent %.9g",
                 bad_k, bad_k < 0 ? 0.0 : lo[bad_k], bad_k < 0 ? 0.0 : hi[bad_k],
                 bad_k < 0 ? 0.0 : t.center[bad_k], bad_k < 0 ? 0.0 : t.extent[bad_k]);
            b = t;
        }
        break;
    }
    case 2: { /* world matrix: rotation x scale (x shear) + translation */
        float q[4], c0[3] = {0, 0, 0}, one[3] = {1, 1, 1}, m[16], lmin[3], lmax[3];
        for (int k = 0; k < 4; k++)
            q[k] = (float)s8(r);
        if (q[0] == 0 && q[1] == 0 && q[2] == 0 && q[3] == 0)
            q[3] = 1;
        satc_obb rot;
        satc_obb_from_quat(&rot, c0, q, one);
        double s[3];
        int singular = 0;
        for (int k = 0; k < 3; k++) {
            s[k] = s8(r) / 16.0;
            singular |= s[k] == 0.0;
        }
        unsigned opt = u8(r);
        int shear = (opt & 1u) != 0;
        unsigned conv = (opt & 2u) ? SATC_MATRIX_ROW_MAJOR : 0u;
        int junk = (opt & 4u) != 0;
        if (junk)
            conv |= 16u << (opt >> 4 & 3u);
        int row = (conv & SATC_MATRIX_ROW_MAJOR) != 0;
        double col[3][3];
        for (int k = 0; k < 3; k++)
            for (int a = 0; a < 3; a++)
                col[k][a] = rot.axis[k][a] * s[k];
        if (shear)
            for (int a = 0; a < 3; a++)
                col[1][a] += 0.5 * col[0][a];
        for (int rr = 0; rr < 4; rr++)
            for (int cc = 0; cc < 4; cc++) {
                double v = rr == 3 ? (cc == 3) : cc < 3 ? col[cc][rr] : origin[rr] + mf(r);
                m[row ? rr * 4 + cc : cc * 4 + rr] = (float)v;
            }
        for (int k = 0; k < 3; k++) {
            lmin[k] = (float)mf(r);
            lmax[k] = (float)(lmin[k] + fabs(mf(r)));
        }
        satc_obb t;
        satc_status st = satc_obb_from_matrix(&t, m, conv, lmin, lmax);
        if (junk)
            RULE(st == SATC_ERR_FLAGS, "satc_obb_from_matrix: unknown bits gave %d", (int)st);
        else if (singular || shear)
            RULE(st == SATC_ERR_BOX, "satc_obb_from_matrix: %s matrix gave %d",
                 singular ? "singular" : "sheared", (int)st);
        else
            RULE(st == SATC_OK, "satc_obb_from_matrix: rotation and scale gave %d", (int)st);
        if (st == SATC_OK) {
            RULE(obb_finite(&t) && t.extent[0] >= 0 && t.extent[1] >= 0 && t.extent[2] >= 0,
                 "satc_obb_from_matrix: bad box");
            RULE(axis_deviation(&t) <= SATC_AXIS_TOLERANCE, "satc_obb_from_matrix: axes off by %g",
                 axis_deviation(&t));
            b = t;
        }
        break;
    }
    default: /* raw floats */
        for (unsigned k = 0; k < 15; k++)
            *obb_field(&b, k) = value(r);
        break;
    }
    if (kind & 4u) {
        unsigned k = u8(r);
        *obb_field(&b, k) = value(r);
        *eligible = 0;
    }
    *out = b;
}

/* ---- culling ---- */

typedef struct outs {
    uint8_t bitmask[MAX_BOXES / 8 + 1 + 8];
    uint8_t classes[MAX_BOXES + 8];
    uint32_t indices[MAX_BOXES + 8];
    size_t visible;
} outs;

#define SENT 0x5A

static satc_status cull(satc_isa isa, const satc_frustum *f, const satc_boxes *b, size_t first,
                        size_t n, satc_mode mode, unsigned forms, outs *o)
{
    memset(o, SENT, sizeof *o);
    satc_results res = {forms & 1u ? o->bitmask : NULL, forms & 2u ? o->classes : NULL,
                        forms & 4u ? o->indices : NULL, 0};
    satc_status st = isa ? satc_cull_batch_isa(isa, f, b, first, n, mode, &res)
                         : satc_cull_batch(f, b, first, n, mode, &res);
    o->visible = res.visible;
    return st;
}

/* Bytes past the outputs' ranges keep the sentinel. */
static int tails_intact(const outs *o, size_t n)
{
    for (size_t k = (n + 7) / 8; k < sizeof o->bitmask; k++)
        if (o->bitmask[k] != SENT)
            return 0;
    for (size_t k = n; k < sizeof o->classes; k++)
        if (o->classes[k] != SENT)
            return 0;
    const uint8_t *ix = (const uint8_t *)o->indices;
    for (size_t k = n * sizeof(uint32_t); k < sizeof o->indices; k++)
        if (ix[k] != SENT)
            return 0;
    return 1;
}

/* Modes a frustum takes: an unbounded plane volume refuses exact mode. */
static int modes_of(const satc_frustum *f, const satc_boxes *b, size_t first, size_t n)
{
    if (f->kind != SATC_FRUSTUM_PLANES || f->nverts)
        return 2;
    satc_batch bb = satc_batch_from_boxes(b);
    satc_results o = {.visible = 12345};
    RULE(satc_cull(f, &bb, first, n, SATC_EXACT, &o) == SATC_ERR_FAR && o.visible == 12345,
         "exact mode on an unbounded plane volume");
    return 1;
}

static void check_cull(const satc_frustum *f, const satc_boxes *b, size_t first, size_t n,
                       const satc_camera *oracle_cam, const int *eligible, const int *nonfinite)
{
    unsigned run = satc_isa_runnable();
    static const unsigned forms[5] = {7u, 1u, 2u, 4u, 0u};
    for (int mode = 0; mode < modes_of(f, b, first, n); mode++) {
        outs ref, got;
        satc_status st = cull(SATC_ISA_SCALAR, f, b, first, n, (satc_mode)mode, 7u, &ref);
        RULE(st == SATC_OK, "scalar cull status %d", (int)st);
        if (st != SATC_OK)
            return;
        RULE(tails_intact(&ref, n), "scalar wrote past its outputs");
        /* The forms agree. */
        size_t k = 0;
        int agree = 1;
        for (size_t j = 0; j < n; j++) {
            unsigned c = ref.classes[j], bit = ref.bitmask[j / 8] >> (j % 8) & 1u;
            agree &= c <= SATC_INSIDE && bit == (c != SATC_OUTSIDE);
            if (bit)
                agree &= k < ref.visible && ref.indices[k++] == first + j;
            if (nonfinite[first + j])
                RULE(c == SATC_INTERSECTING, "non-finite box %zu has class %u", first + j, c);
        }
        agree &= k == ref.visible && (n % 8 == 0 || (ref.bitmask[n / 8] >> (n % 8)) == 0);
        RULE(agree, "scalar output forms disagree (mode %d)", mode);
        /* Every path and form (and the dispatched call) equals scalar. */
        for (unsigned isa = 0; isa <= SATC_ISA_AVX512; isa = isa ? isa << 1 : 1) {
            if (isa && !(run & isa))
                continue;
            for (int fi = 0; fi < 5; fi++) {
                st = cull((satc_isa)isa, f, b, first, n, (satc_mode)mode, forms[fi], &got);
                int same = st == SATC_OK && got.visible == ref.visible && tails_intact(&got, n);
                if (forms[fi] & 1u)
                    same &= !memcmp(got.bitmask, ref.bitmask, (n + 7) / 8);
                if (forms[fi] & 2u)
                    same &= !memcmp(got.classes, ref.classes, n);
                if (forms[fi] & 4u)
                    same &= !memcmp(got.indices, ref.indices, ref.visible * sizeof(uint32_t));
                RULE(same, "path %s form %u mode %d differs from scalar (status %d)",
                     isa ? satc_isa_name((satc_isa)isa) : "dispatched", forms[fi], mode, (int)st);
            }
        }
        /* No false negative against the oracle on valid, moderate input. */
        if (oracle_cam) {
            for (size_t j = 0; j < n; j++) {
                if (!eligible[first + j] || ref.classes[j] != SATC_OUTSIDE)
                    continue;
                satc_obb box;
                satc_boxes_get(b, first + j, &box);
                satc_fuzz_counts.oracle_checked++;
                RULE(!orc_intersects(oracle_cam, &box, 0.0),
                     "false negative: box %zu culled in mode %d but touches the frustum", first + j,
                     mode);
            }
        }
    }
}

/* Every other box form built from the same fields (records with odd
 * strides, matrices from the axes, spheres from the first extent): each
 * path equals scalar bit for bit, and non-finite volumes stay visible. */
#define REC 11 /* floats per record: a stride of 44 bytes */
static void check_forms(const satc_frustum *f, const satc_boxes *b, size_t first, size_t n,
                        unsigned salt)
{
    static float rec[MAX_BOXES][REC], mat[MAX_BOXES][16], hax[3][MAX_BOXES][4];
    static uint32_t mesh[MAX_BOXES];
    size_t total = first + n;
    for (size_t i = 0; i < total; i++) {
        for (int q = 0; q < 3; q++) {
            rec[i][q] = b->center[q][i];
            rec[i][4 + q] = b->extent[q][i];
            for (int j = 0; j < 3; j++) {
                mat[i][4 * j + q] = b->axis[j][q][i] * (q == 1 ? 1.5f : 1.0f);
                hax[j][i][q] = b->axis[j][q][i] * b->extent[j][i];
            }
            mat[i][12 + q] = b->center[q][i];
        }
        rec[i][8] = b->extent[0][i];
        mat[i][3] = mat[i][7] = mat[i][11] = 0, mat[i][15] = 1;
        mesh[i] = (uint32_t)((i * 7 + salt) % (total + 1)); /* sometimes past the table */
    }
    float lc[3] = {0.25f, 0, -0.5f}, lh[3] = {1, 0.5f, 2};
    satc_batch forms[7] = {
        {.form = SATC_FORM_AABB, .aabb = {SATC_VEC3S_AOS(&rec[0][0], sizeof rec[0]), SATC_VEC3S_AOS(&rec[0][4], sizeof rec[0])}},
        {.form = SATC_FORM_MINMAX, .minmax = {SATC_VEC3S_AOS(&rec[0][0], sizeof rec[0]), SATC_VEC3S_AOS(&rec[0][4], sizeof rec[0])}},
        {.form = SATC_FORM_HALF_AXES, .half_axes = {SATC_VEC3S_AOS(&rec[0][0], sizeof rec[0]), {SATC_VEC3S_AOS(&hax[0][0][0], 16), SATC_VEC3S_AOS(&hax[1][0][0], 16), SATC_VEC3S_AOS(&hax[2][0][0], 16)}}},
        {.form = SATC_FORM_INSTANCES, .instances = {mat[0], 64, SATC_AFFINE_4X4_COLUMN_MAJOR, {&lc[0], &lc[1], &lc[2], 0}, {&lh[0], &lh[1], &lh[2], 0}, NULL, 0, 0}},
        {.form = SATC_FORM_INSTANCES, .instances = {mat[0], 64, SATC_AFFINE_ROWS, SATC_VEC3S_AOS(&rec[0][0], sizeof rec[0]), SATC_VEC3S_AOS(&rec[0][4], sizeof rec[0]), NULL, 0, 0}},
        {.form = SATC_FORM_INSTANCES, .instances = {mat[0], 64, SATC_AFFINE_4X3_COLUMN_MAJOR, SATC_VEC3S_AOS(&rec[0][0], sizeof rec[0]), SATC_VEC3S_AOS(&rec[0][4], sizeof rec[0]), mesh, 4, total}},
        {.form = SATC_FORM_SPHERES, .spheres = {SATC_VEC3S_AOS(&rec[0][0], sizeof rec[0]), {&rec[0][8], sizeof rec[0]}}},
    };
    unsigned run = satc_isa_runnable();
    for (int fi = 0; fi < 7; fi++) {
        for (int mode = 0; mode < modes_of(f, b, first, n); mode++) {
            outs ref, got;
            memset(&ref, SENT, sizeof ref);
            satc_results rr = {ref.bitmask, ref.classes, ref.indices, 0};
            satc_status st = satc_cull_isa(SATC_ISA_SCALAR, f, &forms[fi], first, n, (satc_mode)mode, &rr);
            RULE(st == SATC_OK && tails_intact(&ref, n), "form %d scalar status %d", forms[fi].form, (int)st);
            for (unsigned isa = 2; isa && isa <= 0x80u; isa <<= 1) {
                if (!(run & isa))
                    continue;
                memset(&got, SENT, sizeof got);
                satc_results rg = {got.bitmask, got.classes, got.indices, 0};
                st = satc_cull_isa((satc_isa)isa, f, &forms[fi], first, n, (satc_mode)mode, &rg);
                int same = st == SATC_OK && rg.visible == rr.visible && tails_intact(&got, n) &&
                           !memcmp(got.bitmask, ref.bitmask, (n + 7) / 8) &&
                           !memcmp(got.classes, ref.classes, n) &&
                           !memcmp(got.indices, ref.indices, rr.visible * sizeof(uint32_t));
                RULE(same, "form %d path %s mode %d differs from scalar", forms[fi].form,
                     satc_isa_name((satc_isa)isa), mode);
            }
            /* With group bounds (from satc_group_bounds): the flat answer. */
            static float gc[MAX_BOXES][3], gh[MAX_BOXES][3];
            size_t gsz = 1 + salt % 5, ng = (total + gsz - 1) / gsz;
            st = satc_group_bounds(&forms[fi], total, gsz, NULL, ng, gc[0], gh[0]);
            RULE(st == SATC_OK, "form %d group bounds status %d", forms[fi].form, (int)st);
            satc_groups gs = {gsz, NULL, ng, SATC_VEC3S_AOS(gc[0], 12), SATC_VEC3S_AOS(gh[0], 12)};
            satc_batch gb = forms[fi];
            gb.groups = &gs;
            memset(&got, SENT, sizeof got);
            satc_results rgr = {got.bitmask, got.classes, got.indices, 0};
            st = satc_cull(f, &gb, first, n, (satc_mode)mode, &rgr);
            RULE(st == SATC_OK && rgr.visible == rr.visible && tails_intact(&got, n) &&
                     !memcmp(got.bitmask, ref.bitmask, (n + 7) / 8) &&
                     !memcmp(got.classes, ref.classes, n),
                 "form %d mode %d: grouped cull differs from flat", forms[fi].form, mode);
            /* A record with a NaN or Inf in a field the form reads is visible. */
            for (size_t j = 0; j < n && fi < 2; j++) {
                const float *v = rec[first + j];
                int nf = !isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2]) ||
                         !isfinite(v[4]) || !isfinite(v[5]) || !isfinite(v[6]);
                if (nf)
                    RULE(ref.classes[j] == SATC_INTERSECTING, "form %d non-finite volume %zu class %u",
                         forms[fi].form, first + j, ref.classes[j]);
            }
        }
    }
}

/* The frustum as planes, some coefficients corrupted, and the rules of
 * satc_frustum_from_planes: on success *fr becomes the plane volume; on
 * error it is left unchanged and then reset to *before. */
static satc_status planes_from(rd *r, satc_frustum *fr, unsigned ncorrupt, const satc_frustum *before)
{
    float pl[6][4];
    int np = scn_frustum_planes(fr, pl) - (int)(ncorrupt & 1u);
    for (unsigned c = 0; c < ncorrupt; c++) {
        unsigned k = u8(r);
        pl[k % (unsigned)np][k / 64u] = value(r);
    }
    float margin = (ncorrupt & 2u) ? (float)fabs(mf(r)) : 0.0f;
    satc_frustum pv, keep;
    memset(&pv, 0xA5, sizeof pv);
    keep = pv;
    satc_status st = satc_frustum_from_planes(&pv, (const float(*)[4])pl, (size_t)np, margin);
    int nf = !finite_all(&pl[0][0], 4 * np) || !isfinite(margin);
    RULE(!nf || st == SATC_ERR_NONFINITE, "planes with NaN/Inf gave %d", (int)st);
    RULE(st == SATC_OK || st == SATC_ERR_NONFINITE || st == SATC_ERR_BOUNDS,
         "satc_frustum_from_planes returned %d", (int)st);
    if (st != SATC_OK) {
        RULE(!memcmp(&pv, &keep, sizeof pv), "a failed plane volume wrote its output");
        *fr = *before;
        return st;
    }
    RULE(pv.kind == SATC_FRUSTUM_PLANES && pv.nplanes == (uint32_t)np &&
             pv.nverts <= SATC_MAX_PLANE_VERTS && pv.nedges <= SATC_MAX_PLANE_EDGES &&
             (!pv.nverts || pv.nedges >= 3) && finite_all(pv.origin, 3) && pv.eps_k > 0 &&
             pv.tol_t >= 0 && isfinite(pv.tol_t) && finite_all(&pv.plane[0][0], 4 * np) &&
             finite_all(&pv.vert[0][0], 3 * SATC_MAX_PLANE_VERTS),
         "plane volume: kind %u planes %u vertices %u edges %u", pv.kind, pv.nplanes, pv.nverts,
         pv.nedges);
    *fr = pv;
    satc_fuzz_counts.plane_volumes++;
    return st;
}

int satc_fuzz_one(const uint8_t *data, size_t size)
{
    rd r = {data, size, 0};
    fails = 0;
    satc_fuzz_counts.inputs++;
    unsigned flags = u8(&r);
    int use_matrix = flags & 1u, ortho = (flags >> 1) & 1u, infinite = (flags >> 2) & 1u;
    int use_persp = (flags >> 3) & 1u, use_planes = (flags >> 4) & 1u;
    unsigned ncorrupt = flags >> 5;

    /* The camera (also the source of the matrix). */
    satc_camera cam;
    memset(&cam, 0, sizeof cam);
    {
        float q[4], c0[3] = {0, 0, 0}, one[3] = {1, 1, 1};
        int zero = 1;
        for (int k = 0; k < 4; k++) {
            q[k] = (float)s8(&r);
            zero &= q[k] == 0.0f;
        }
        if (zero)
            q[3] = 1;
        satc_obb fr;
        RULE(satc_obb_from_quat(&fr, c0, q, one) == SATC_OK, "frame quaternion refused");
        memcpy(cam.left, fr.axis[0], sizeof cam.left);
        memcpy(cam.up, fr.axis[1], sizeof cam.up);
        memcpy(cam.dir, fr.axis[2], sizeof cam.dir);
    }
    for (int k = 0; k < 3; k++)
        cam.origin[k] = (float)mf(&r);
    double lc = mf(&r), lw = fabs(mf(&r)), uc = mf(&r), uw = fabs(mf(&r));
    cam.l0 = (float)(lc - lw), cam.l1 = (float)(lc + lw);
    cam.u0 = (float)(uc - uw), cam.u1 = (float)(uc + uw);
    double n = mf(&r), span = fabs(mf(&r));
    cam.orthographic = ortho;
    cam.n = (float)(ortho ? n : fabs(n));
    cam.f = infinite && !ortho ? INFINITY : (float)(cam.n + span);

    satc_frustum fr, before;
    memset(&fr, 0xCD, sizeof fr);
    before = fr;
    satc_status st;
    const satc_camera *oracle_cam = NULL;
    if (use_matrix) {
        unsigned cb = u8(&r);
        unsigned conv = cb & 15u;
        if (cb & 0x80u)
            conv |= 16u << (cb >> 4 & 3u);
        float m[16];
        if (cb & 0x40u)
            for (int k = 0; k < 16; k++)
                m[k] = value(&r);
        else
            camera_matrix(&cam, conv, m);
        for (unsigned c = 0; c < ncorrupt; c++) {
            unsigned k = u8(&r) % 16u;
            m[k] = value(&r);
        }
        st = satc_frustum_from_matrix(&fr, m, conv);
        int junk = (conv & ~15u) != 0, nonfinite = !finite_all(m, 16);
        if (junk && !nonfinite)
            RULE(st == SATC_ERR_FLAGS, "matrix with unknown convention bits gave %d", (int)st);
        else if (nonfinite && !junk)
            RULE(st == SATC_ERR_NONFINITE, "matrix with a NaN/Inf entry gave %d", (int)st);
        else if (junk && nonfinite)
            RULE(st == SATC_ERR_FLAGS || st == SATC_ERR_NONFINITE, "bad matrix gave %d", (int)st);
        RULE(st == SATC_OK || st == SATC_ERR_FLAGS || st == SATC_ERR_NONFINITE ||
                 st == SATC_ERR_MATRIX || st == SATC_ERR_NEAR || st == SATC_ERR_FAR ||
                 st == SATC_ERR_BOUNDS || st == SATC_ERR_FRAME,
             "satc_frustum_from_matrix returned %d", (int)st);
        if (st == SATC_OK)
            check_frustum(&fr, "matrix");
    } else {
        for (unsigned c = 0; c < ncorrupt; c++) {
            float *field = camera_field(&cam, u8(&r));
            *field = value(&r);
        }
        if (use_persp) {
            double fovy = u8(&r) / 255.0 * 3.3, aspect = fabs(mf(&r));
            float fy = (float)fovy, as = (float)aspect;
            if (ncorrupt & 1u)
                fy = value(&r);
            if (ncorrupt & 2u)
                as = value(&r);
            st = satc_frustum_perspective(&fr, cam.origin, cam.dir, cam.up, fy, as, cam.n, cam.f);
            int nf = !isfinite(fy) || !isfinite(as) || !finite_all(cam.origin, 3) ||
                     !finite_all(cam.dir, 3) || !finite_all(cam.up, 3) || !isfinite(cam.n) ||
                     isnan(cam.f) || cam.f == -INFINITY;
            /* Which of two errors wins is not documented: a non-finite
             * value must give SATC_ERR_NONFINITE when fovy and aspect are
             * in range (or are themselves the non-finite ones). */
            int range_bad = isfinite(fy) && isfinite(as) &&
                            (!(fy > 0) || !(fy < 3.1415927f) || !(as > 0));
            if (nf && !range_bad)
                RULE(st == SATC_ERR_NONFINITE, "perspective with NaN/Inf gave %d", (int)st);
            if (range_bad)
                RULE(st != SATC_OK, "perspective with fovy %g aspect %g accepted", fy, as);
            RULE(st == SATC_OK || st == SATC_ERR_NONFINITE || st == SATC_ERR_NEAR ||
                     st == SATC_ERR_FAR || st == SATC_ERR_BOUNDS || st == SATC_ERR_FRAME,
                 "satc_frustum_perspective returned %d", (int)st);
            if (st == SATC_OK)
                check_frustum(&fr, "perspective");
        } else {
            st = satc_frustum_from_camera(&fr, &cam);
            check_camera_status(&cam, st);
            if (st == SATC_OK) {
                check_frustum(&fr, "camera");
                /* The oracle's rule, on moderate magnitudes. */
                double slope = 0;
                if (!ortho) {
                    double bnd[4] = {cam.l0, cam.l1, cam.u0, cam.u1};
                    for (int k = 0; k < 4; k++)
                        slope = fmax(slope, fabs(bnd[k]) / cam.n);
                }
                int moderate = fabs(cam.origin[0]) <= 1e6 && fabs(cam.origin[1]) <= 1e6 &&
                               fabs(cam.origin[2]) <= 1e6 && slope <= 1e3 &&
                               (ortho || cam.n >= 1e-3) && (isinf(cam.f) || fabs(cam.f) <= 1e7) &&
                               fabs(cam.n) <= 1e7 && fabs(cam.l0) <= 1e6 && fabs(cam.l1) <= 1e6 &&
                               fabs(cam.u0) <= 1e6 && fabs(cam.u1) <= 1e6;
                if (moderate)
                    oracle_cam = &cam;
            }
        }
    }
    if (st != SATC_OK)
        RULE(!memcmp(&fr, &before, sizeof fr), "a failed build wrote its output (status %d)",
             (int)st);
    if (st == SATC_OK && use_planes) {
        st = planes_from(&r, &fr, ncorrupt, &before);
        oracle_cam = NULL; /* the oracle knows cameras only */
    }
    RULE(satc_status_string(st) != NULL, "satc_status_string(%d) is NULL", (int)st);
    {
        unsigned comp = satc_isa_compiled(), run = satc_isa_runnable(), nat = satc_isa_native();
        satc_isa act = satc_isa_active();
        RULE((nat & ~run) == 0 && (run & ~comp) == 0 && (run & SATC_ISA_SCALAR) &&
                 (run & (unsigned)act) && satc_version() > 0,
             "path masks: compiled 0x%x runnable 0x%x native 0x%x active %u", comp, run, nat,
             (unsigned)act);
    }

    /* The batch. */
    size_t count = u8(&r) % (MAX_BOXES + 1u);
    size_t first = count ? u8(&r) % (count + 1) : 0;
    satc_box_arrays arr;
    if (satc_box_arrays_alloc(&arr, count) != SATC_OK)
        return ++fails;
    int eligible[MAX_BOXES], nonfinite[MAX_BOXES];
    const float *org = cam.origin;
    float safe_org[3] = {0, 0, 0};
    if (!finite_all(org, 3))
        org = safe_org;
    for (size_t i = 0; i < count; i++) {
        satc_obb b, back;
        make_box(&r, org, &b, &eligible[i]);
        nonfinite[i] = !obb_finite(&b);
        RULE(satc_box_arrays_set(&arr, i, &b) == SATC_OK, "satc_box_arrays_set %zu", i);
        satc_boxes v = satc_box_arrays_view(&arr);
        RULE(satc_boxes_get(&v, i, &back) == SATC_OK && !memcmp(&b, &back, sizeof b),
             "satc_boxes_get does not return what was set");
    }
    RULE(satc_box_arrays_set(&arr, count, &(satc_obb){{0}, {{0}}, {0}}) == SATC_ERR_RANGE,
         "satc_box_arrays_set past capacity");
    satc_boxes boxes = satc_box_arrays_view(&arr);

    if (st == SATC_OK) {
        satc_fuzz_counts.frusta_built++;
        satc_fuzz_counts.oracle_cams += oracle_cam != NULL;
        satc_fuzz_counts.boxes += (long)(count - first);
        check_cull(&fr, &boxes, first, count - first, oracle_cam, eligible, nonfinite);
        check_forms(&fr, &boxes, first, count - first, (unsigned)size);
    } else {
        /* An unbuilt frustum is refused and nothing is written. */
        satc_frustum zero;
        memset(&zero, 0, sizeof zero);
        outs o;
        satc_status cs = cull((satc_isa)0, &zero, &boxes, first, count - first, SATC_EXACT, 7u, &o);
        RULE(cs == SATC_ERR_FLAGS && tails_intact(&o, 0), "unbuilt frustum: status %d", (int)cs);
    }
    satc_box_arrays_free(&arr);
    return fails;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (satc_fuzz_one(data, size)) {
        fflush(stdout);
        abort();
    }
    return 0;
}
