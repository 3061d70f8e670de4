/* Internal interfaces shared by the API, the dispatcher and the kernels. */
#ifndef SATC_INTERNAL_H
#define SATC_INTERNAL_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "satc.h"

/* Boxes per kernel call: the driver formats results per chunk. */
/* Inline attributes of the kernels and the vector layers' loads: the
 * kernels are too large for the compiler to inline them on its own. */
#if defined(__GNUC__)
#define SATC_AI static inline __attribute__((always_inline))
#define SATC_NI static __attribute__((noinline))
#else
#define SATC_AI static inline
#define SATC_NI static
#endif

#define SATC_CHUNK 1024
#define SATC_CHUNK_WORDS (SATC_CHUNK / 64)

/* The least float >= x (NaN stays NaN): bounds rounded outward. When
 * f = fl(x) < x, f is not NaN, +Inf or -0, and the next float up is one
 * more in its bits from f >= +0, one less from f < 0 (nextafterf's
 * values without the call); no branch on the rounding's direction,
 * which no predictor guesses. */
static inline float satc_float_up(double x)
{
    float f = (float)x;
    uint32_t u, below = (double)f < x;
    memcpy(&u, &f, sizeof u);
    u += below * (1u - 2u * (u >> 31));
    memcpy(&f, &u, sizeof f);
    return f;
}

/* nextafterf(x, +Inf) for x neither NaN nor +Inf, inline. */
static inline float satc_float_next_up(float x)
{
    if (x == 0.0f)
        return 0x1p-149f;
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    u += 1u - 2u * (u >> 31);
    memcpy(&x, &u, sizeof x);
    return x;
}

/* Kernel flags. */
#define SATC_K_EXACT 1u    /* full separating-axis test, else planes only */
#define SATC_K_CLASSIFY 2u /* also compute the inside bits */
#define SATC_K_LAST 4u     /* the chunk holds the call's last volume: a loader may
                            * read past a record's described fields only before it */

/* Forms are numbered 1..SATC_NFORMS (satc_form). */
#define SATC_NFORMS 7

/* Underflow floor added to every scale S (2^-100, see the header's contract). */
#define SATC_S_FLOOR 7.888609052210118e-31f

/*
 * A kernel culls volumes [first, first + n) (n <= SATC_CHUNK) of batch b
 * (already validated) and sets bit j of vis[j / 64] when volume first + j
 * is visible and, with SATC_K_CLASSIFY, the same bit of inside[] when it
 * is entirely inside. Both arrays hold SATC_CHUNK_WORDS words and are fully
 * written (bits past n are 0).
 */
typedef void (*satc_kernel_fn)(const satc_frustum *f, const satc_batch *b, size_t first,
                               size_t n, unsigned flags, uint64_t *vis, uint64_t *inside);

/* Copies volumes [first, first + n) (n <= len) of the streams
 * satc_batch_streams lists into rows of len floats: component c of vec3
 * stream q at rows[(3 q + c) * len + j], a float stream after them.
 * flags: SATC_K_LAST as for a kernel. */
typedef void (*satc_soa_fn)(const satc_batch *b, size_t first, size_t n, unsigned flags,
                            float *rows, size_t len);

/* One path: a kernel per form and frustum kind ([form][0] perspective,
 * [form][1] orthographic, [form][2] plane volume; row 0 unused), and the
 * stream copy the views pass shares between views (NULL: none). */
#define SATC_NKINDS 3
/* Up to SATC_MULTI_MAX orthographic views with one origin and frame over
 * volumes [first, first + n): view v's words in vis[v], inside[v], as
 * its own kernel would write them. */
#define SATC_MULTI_MAX 4
typedef void (*satc_multi_fn)(const satc_frustum *const *views, int nv, const satc_batch *b,
                              size_t first, size_t n, unsigned flags,
                              uint64_t (*vis)[SATC_CHUNK_WORDS],
                              uint64_t (*inside)[SATC_CHUNK_WORDS]);

/* Volumes per micro bound of a views pass (a multiple of every W). */
#define SATC_MICRO 32
/* The world box of each of the n / span full groups of span volumes
 * (span a multiple of SATC_MICRO: SATC_MICRO for the views pass, a
 * group's length for satc_group_bounds, one lane reduction per group)
 * [first, first + n) of a batch of any form and layout:
 * component q of group g is lo[q * ng + g], hi[q * ng + g], each the
 * least / greatest float corner of its volumes (AABBs, spheres: fl(c -+
 * |h|); min/max boxes: as stored; OBBs, half axes, instances: computed
 * in float, a few ulps from the true corners, see kernels/bounds.h), NaN when
 * a volume of the group has a NaN or infinite field. xs (NULL: not
 * wanted): per group the largest extra term of S (instances: sum_r sum_k
 * |m_rk lc_k| as the kernels compute it; 0 for other forms), NaN with
 * the box. flags: SATC_K_LAST as for a kernel. */
typedef void (*satc_bounds_fn)(const satc_batch *b, size_t first, size_t n, size_t span,
                               unsigned flags, float *lo, float *hi, float *xs);

/* The view depth of volumes [first, first + n) (n <= SATC_CHUNK) of
 * batch b against perspective or orthographic frustum f: out[j] = the
 * frame z of volume first + j's center, D.(c - E), as the loaders compute
 * it (NaN for a volume they make non-finite through its center).
 * flags: SATC_K_LAST as for a kernel. */
typedef void (*satc_depth_fn)(const satc_frustum *f, const satc_batch *b, size_t first, size_t n,
                              unsigned flags, float *out);
/* Occlusion: per-call constants of a pyramid (computed once, the same
 * on every path). */
typedef struct satc_occl_consts {
    float e2;       /* 2 eps_k: the margin e = e2 S + tol_t per unit of S */
    float sx, sy;   /* texels per unit of a and b: width / (x1 - x0), height / (y1 - y0) */
    float wm1, hm1; /* width - 1, height - 1 */
} satc_occl_consts;

/* Rows of an occlusion kernel's output: level-0 texel coordinates of a
 * volume's rectangle (clamped to the image, floor by truncation), its
 * nearest view depth rounded toward the eye and its farthest (center
 * plus extent plus margin: beyond it no texel's own depth bound helps). */
enum { SATC_OC_COL0, SATC_OC_COL1, SATC_OC_ROW0, SATC_OC_ROW1, SATC_OC_ZMIN, SATC_OC_ZMAX, SATC_OC_N };

/* For each volume first + j (j < n <= SATC_CHUNK) whose bit is set in
 * vis, writes rect[q][j] (q < SATC_OC_N) and sets bit j of test (fully
 * written, SATC_CHUNK_WORDS words) when the volume may be tested: finite
 * and its nearest depth beyond n. Other entries of rect are unspecified.
 * flags: SATC_K_LAST as for a kernel. */
typedef void (*satc_occl_fn)(const satc_frustum *f, const satc_occl_consts *oc,
                             const satc_batch *b, size_t first, size_t n, unsigned flags,
                             const uint64_t *vis, float (*rect)[SATC_CHUNK], uint64_t *test);

/* One pyramid level from the one below: dst texel (i, j) = the largest
 * of src texels (2i..2i+1, 2j..2j+1) that exist, NaN read as +Inf; the
 * two rows of each column first, then the two columns. */
typedef void (*satc_reduce_fn)(const float *src, uint32_t sw, uint32_t sh, float *dst,
                               uint32_t dw, uint32_t dh);

/* A splat kernel: satc_kernel_fn for a TRS batch without local boxes
 * (splat cubes) against a perspective or orthographic frustum, without
 * SATC_K_CLASSIFY and inside words, that also writes each visible
 * volume's depth (as satc_depth_fn makes it, the same bits) and index,
 * in order, to od and oi (room for n each); returns how many. */
typedef size_t (*satc_splat_fn)(const satc_frustum *f, const satc_batch *b, size_t first,
                                size_t n, unsigned flags, uint64_t *vis, float *od, uint32_t *oi);

/* The 16-bit keys of n depths (src/kernels/key16.h, the same loop on
 * every path): k[j] = satc_key16_of(d[j], lo, scale). */
typedef void (*satc_key16_fn)(const float *d, size_t n, double lo, double scale, uint16_t *k);

typedef struct satc_kernels {
    satc_kernel_fn fn[SATC_NFORMS + 1][SATC_NKINDS];
    satc_soa_fn soa;
    satc_bounds_fn bounds[SATC_NFORMS + 1]; /* per form (NULL: none) */
    satc_multi_fn multi[SATC_NFORMS + 1]; /* per form (NULL: none) */
    satc_occl_fn occl[SATC_NFORMS + 1][2]; /* per form: perspective, orthographic */
    satc_reduce_fn reduce;
    satc_depth_fn depth;
    satc_splat_fn splat[2]; /* perspective, orthographic (NULL: none) */
    satc_key16_fn key16;
} satc_kernels;

/* The kernel column of a built frustum (satc_check_call accepted it). */
static inline int satc_kind_col(const satc_frustum *f)
{
    return f->kind == SATC_FRUSTUM_PLANES ? 2 : f->kind == SATC_FRUSTUM_ORTHOGRAPHIC;
}

/* The streams of a batch the views pass copies: its vec3 streams in
 * order (at most 5) and its float stream (or NULL); -1 for a form with
 * other data (instances). */
int satc_batch_streams(const satc_batch *b, const satc_vec3s *v[5], const satc_floats **f);

/* Three-vectors in double, for the geometry done in double (exact
 * mode's second stage, the queries, the matrix frusta): one definition,
 * so every caller rounds the same sums in the same order. */
static inline double satc_dot3_d(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static inline double satc_norm1_d(const double a[3]) { return fabs(a[0]) + fabs(a[1]) + fabs(a[2]); }
static inline void satc_cross3_d(const double a[3], const double b[3], double o[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

/* Element i of a vec3 stream (its byte stride applied). */
static inline void satc_vec3s_get(const satc_vec3s *v, size_t i, float out[3])
{
    size_t o = i * v->stride;
    out[0] = *(const float *)(const void *)((const char *)v->x + o);
    out[1] = *(const float *)(const void *)((const char *)v->y + o);
    out[2] = *(const float *)(const void *)((const char *)v->z + o);
}

/*
 * SATC_FORM_TRS, the scalar expressions every path repeats per lane
 * (kernels/load.h). satc_expf: exp(x) = 2^k p(r), k = round(x log2 e)
 * (by the 1.5 * 2^23 addition), r = (x - k C1) - k C2 with C1 + C2 = ln 2
 * (C1 has 9 bits: k C1 and the subtraction are exact), p the degree-7
 * Taylor polynomial by Horner; x clamped to [-87, 89] first (keeping
 * NaN), so 2^k is a normal float or +Inf and the product is exact.
 */
#define SATC_EXP_LO (-87.0f)
#define SATC_EXP_HI 89.0f
#define SATC_EXP_ROUND 12582912.0f /* 1.5 * 2^23 */
#define SATC_EXP_LOG2E 1.44269502162933349609375f
#define SATC_EXP_C1 0.693359375f
#define SATC_EXP_C2 (-2.12194440e-4f)

/* 2^k for an integer k in [-126, 128] held in a float (128: +Inf);
 * anything else (NaN) gives 1, which the NaN polynomial ignores. */
static inline float satc_pow2i(float kf)
{
    int32_t e = kf >= -126.0f && kf <= 128.0f ? (int32_t)kf + 127 : 127;
    uint32_t u = (uint32_t)e << 23;
    float r;
    memcpy(&r, &u, sizeof r);
    return r;
}

static inline float satc_exp_poly(float r)
{
    float p = 1.98412698e-4f; /* 1/7! .. 1/2!, 1, 1 */
    p = 1.38888889e-3f + r * p;
    p = 8.33333377e-3f + r * p;
    p = 4.16666679e-2f + r * p;
    p = 1.66666672e-1f + r * p;
    p = 0.5f + r * p;
    p = 1.0f + r * p;
    return 1.0f + r * p;
}

static inline float satc_expf_ref(float x)
{
    float a = SATC_EXP_LO > x ? SATC_EXP_LO : x; /* max, NaN kept */
    a = SATC_EXP_HI < a ? SATC_EXP_HI : a;       /* min, NaN kept */
    float kf = (a * SATC_EXP_LOG2E + SATC_EXP_ROUND) - SATC_EXP_ROUND;
    float r = (a - kf * SATC_EXP_C1) - kf * SATC_EXP_C2;
    return satc_exp_poly(r) * satc_pow2i(kf);
}

/* Quaternion squared norms outside [2^-64, 2^64] (or NaN) make a TRS
 * volume non-finite. */
#define SATC_QUAT_N2_MIN 5.42101086e-20f
#define SATC_QUAT_N2_MAX 1.84467441e19f

/* Quaternion i of a TRS batch as (x, y, z, w), bytes decoded unscaled. */
static inline void satc_trs_quat(const satc_trs *s, size_t i, float q[4])
{
    const unsigned char *p = (const unsigned char *)s->rotation + i * s->rotation_stride;
    float a[4];
    for (int c = 0; c < 4; c++) {
        switch (s->format & 3u) {
        case SATC_QUAT_U8: a[c] = (float)((int)p[c] - 128); break;
        case SATC_QUAT_I8: a[c] = (float)(int)(signed char)p[c]; break;
        default: memcpy(&a[c], p + 4 * c, sizeof(float)); break;
        }
    }
    int w1 = (s->format & SATC_QUAT_WXYZ) != 0;
    for (int c = 0; c < 4; c++)
        q[c] = a[w1 ? (c + 1) & 3 : c];
}

/* R(q) (without a square root: t = 2 / |q|^2) times diag(s): m[r][j].
 * A quaternion out of range makes t, and so every entry, NaN. */
static inline void satc_trs_rot(const float q[4], const float s[3], float m[3][3])
{
    float x = q[0], y = q[1], z = q[2], w = q[3];
    float n2 = ((x * x + y * y) + z * z) + w * w;
    float t = 2.0f / n2;
    if (!(n2 >= SATC_QUAT_N2_MIN && n2 <= SATC_QUAT_N2_MAX))
        t = NAN;
    float xs = x * t, ys = y * t, zs = z * t;
    float xx = x * xs, yy = y * ys, zz = z * zs, xy = x * ys, xz = x * zs, yz = y * zs;
    float wx = w * xs, wy = w * ys, wz = w * zs;
    float R[3][3] = {{1.0f - (yy + zz), xy - wz, xz + wy},
                     {xy + wz, 1.0f - (xx + zz), yz - wx},
                     {xz - wy, yz + wx, 1.0f - (xx + yy)}};
    for (int r = 0; r < 3; r++)
        for (int j = 0; j < 3; j++)
            m[r][j] = R[r][j] * s[j];
}

/* The scale of TRS volume i (exp applied to log scales). */
static inline void satc_trs_scale(const satc_trs *s, size_t i, float sc[3])
{
    satc_vec3s_get(&s->scale, i, sc);
    if (s->format & SATC_TRS_LOG_SCALE)
        for (int j = 0; j < 3; j++)
            sc[j] = satc_expf_ref(sc[j]);
}

/* The splat cube's half size. */
static inline float satc_trs_k(const satc_trs *s) { return s->k == 0.0f ? SATC_SPLAT_K_DEFAULT : s->k; }

/* The radius k |s|_1 of the ball about splat i's position that holds its
 * cube whatever the rotation (kernels/bounds.h's splat ball); *ok is 0
 * when the quaternion's squared norm is out of range (or NaN). */
static inline float satc_trs_ball(const satc_trs *s, size_t i, int *ok)
{
    float q[4], sc[3];
    satc_trs_quat(s, i, q);
    satc_trs_scale(s, i, sc);
    float n2 = ((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3];
    *ok = n2 >= SATC_QUAT_N2_MIN && n2 <= SATC_QUAT_N2_MAX;
    return satc_trs_k(s) * ((fabsf(sc[0]) + fabsf(sc[1])) + fabsf(sc[2]));
}

/* 2^-126: added to a splat's sum of squared scales before its square
 * root. The squares that underflow err by at most 2^-150 each, so the
 * root of the sum plus this floor is never below the true |s|_2. */
#define SATC_TRS_S2_FLOOR 1.1754943508222875e-38f

/* The radius k sqrt((s0^2 + s1^2) + s2^2 + 2^-126) of the ball about
 * splat i's position that conservative mode tests: every corner of the
 * cube [-k, k]^3 mapped by R diag(s), R orthonormal, lies at distance
 * k |s|_2 from p, so the ball holds the box whatever the rotation. *ok as
 * satc_trs_ball's. */
static inline float satc_trs_ball2(const satc_trs *s, size_t i, int *ok)
{
    float q[4], sc[3];
    satc_trs_quat(s, i, q);
    satc_trs_scale(s, i, sc);
    float n2 = ((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3];
    *ok = n2 >= SATC_QUAT_N2_MIN && n2 <= SATC_QUAT_N2_MAX;
    float s2 = ((sc[0] * sc[0] + sc[1] * sc[1]) + sc[2] * sc[2]) + SATC_TRS_S2_FLOOR;
    return satc_trs_k(s) * sqrtf(s2);
}

/* Kernel tables of each path (defined in the per-ISA files). The scalar
 * path is the kernels one lane wide (scalar/cull_w1.c); satc_kernels_ref
 * is the reference itself, one volume at a time (scalar/cull_scalar.c). */
extern const satc_kernels satc_kernels_scalar;
extern const satc_kernels satc_kernels_ref;
extern const satc_kernels satc_kernels_sse41;
extern const satc_kernels satc_kernels_avx2;
extern const satc_kernels satc_kernels_avx512;
extern const satc_kernels satc_kernels_avx512_emu; /* x86: the same source emulated from AVX2 */
extern const satc_kernels satc_kernels_neon;
extern const satc_kernels satc_kernels_simd128; /* WebAssembly SIMD128 (src/wasm) */

/* Every path bit (satc_isa). */
#define SATC_ISA_ALL                                                                              \
    (SATC_ISA_SCALAR | SATC_ISA_SSE41 | SATC_ISA_AVX2 | SATC_ISA_NEON | SATC_ISA_AVX512 |          \
     SATC_ISA_SIMD128)

/* The table of one runnable path, or NULL. */
const satc_kernels *satc_kernels_for(satc_isa isa);

/* The table of the path a caller names (the *_isa entry points): NULL
 * with *st = SATC_ERR_FLAGS unless isa is exactly one known path bit,
 * SATC_ERR_ISA when this build or machine cannot run it; else *st = SATC_OK. */
const satc_kernels *satc_kernels_named(satc_isa isa, satc_status *st);

/* Operations of a kernel table (satc_kernels): the cull kernels of form
 * f (every frustum kind), the shared-frame views, the group bounds of
 * every form but spheres, the row copy of the views pass and the group
 * bounds of spheres. */
#define SATC_OP_CULL(f) (1u << (f))
#define SATC_OP_MULTI (1u << 8)
#define SATC_OP_BOUNDS (1u << 9)
#define SATC_OP_SOA (1u << 10)
#define SATC_OP_BOUNDS_SPHERES (1u << 11)
#define SATC_OP_ALL (0xFEu | SATC_OP_MULTI | SATC_OP_BOUNDS | SATC_OP_SOA | SATC_OP_BOUNDS_SPHERES)

/* Calls on at least this many volumes count as large: their data streams
 * from memory (more than a core's L2 holds in any form). */
#define SATC_DISPATCH_LARGE 32768u

/* The operations the default path runs on the AVX2 kernels when it is
 * AVX-512, for an x86 CPU of this vendor (CPUID leaf 0), family and model
 * (leaf 1, base + extended), for small or large (SATC_DISPATCH_LARGE)
 * calls: the ones measured slower on 512-bit kernels there; 0 for every
 * other CPU. */
unsigned satc_dispatch_ops_for(const char *vendor, unsigned family, unsigned model, int large);

/* This CPU's vendor string (CPUID leaf 0, NUL-terminated), family (base,
 * plus the extended family when the base is 0Fh) and model (base, plus
 * the extended model from family 6 on), as the table above is keyed; 1 on
 * x86, else 0 with an empty vendor and zeros. Reads CPUID each call. */
int satc_cpu_signature(char vendor[13], unsigned *family, unsigned *model);

/* The table an entry point without a path uses for a call on count
 * volumes: satc_isa_active()'s, except that when that is AVX-512 chosen
 * automatically, with AVX2 native and allowed by the mask, the operations
 * satc_dispatch_ops_for names for this CPU and call size come from the
 * AVX2 table (every kernel gives the scalar path's bits, so any mix
 * does). */
const satc_kernels *satc_kernels_default_n(size_t count);

/* The operations satc_kernels_default_n takes from AVX2 now for small
 * (large = 0) or large calls (0: none). */
unsigned satc_dispatch_narrow(int large);

/* Tests: replaces this CPU's operations (satc_dispatch_ops_for) by ops
 * for calls of every size and re-selects; ~0u goes back to the CPU's. */
void satc_dispatch_override(unsigned ops);

/* Tests and the benchmark: while on (process-wide), SATC_ISA_SCALAR runs
 * satc_kernels_ref instead of the scalar path, so the public entry points
 * give the reference's outputs to compare every path with. */
void satc_scalar_use_ref(int on);

/* The checks satc_cull makes before culling (SATC_OK or the status). */
satc_status satc_check_call(const satc_frustum *f, const satc_batch *b, size_t first,
                            size_t count, satc_mode mode, int want_indices);

/* The batch checks alone (form, range, streams): SATC_OK or the status. */
satc_status satc_check_volumes(const satc_batch *b, size_t first, size_t count);

/* The call and output checks of satc_cull (out non-NULL, then as
 * satc_check_call with the group table). */
satc_status satc_check_results(const satc_frustum *f, const satc_batch *b, size_t first,
                               size_t count, satc_mode mode, const satc_results *out);

/*
 * Per-frustum constants the loaders use, computed once per call by
 * satc_frustum_consts in one fixed order so every path has the same bits.
 * Plane k's frame normal n_k (perspective: D, (1,0,-x1), (-1,0,x0),
 * (0,1,-y1), (0,-1,y0); orthographic: L, U, D) has world components
 * n_k = F^T m_k; pabs[k][j] = |n_k . e_j| (an AABB's radius on plane k is
 * sum_j h_j pabs[k][j]); col1[j] = |L_j| + |U_j| + |D_j| (the 1-norm of world
 * axis j in the frame); norm2[k] = |m_k|_2 (a sphere's radius scale).
 */
typedef struct satc_fconsts {
    float pabs[5][3];
    float col1[3];
    float norm2[5];
    float inv[4]; /* 1 / (1 + s^2) for the slopes x1, x0, y1, y0 */
} satc_fconsts;

void satc_frustum_consts(const satc_frustum *f, satc_fconsts *c);

/* The checks of one vec3 stream: SATC_OK, SATC_ERR_NULL or SATC_ERR_LAYOUT. */
satc_status satc_check_vec3s(const satc_vec3s *v);

/* The batch's group descriptor (core/batch.c); SATC_OK when it has none. */
satc_status satc_check_groups(const satc_batch *b);

/* Exact mode's second stage (kernels/redecide.c): 1 when volume i of b
 * is separated from f in double precision (cull it), 0 to keep it. Every
 * path calls it for the volumes its float test flags as band cases. */
int satc_redecide(const satc_frustum *f, const satc_batch *b, size_t i);

/* satc_redecide on every volume first + j whose bit is set in band and
 * vis (SATC_CHUNK_WORDS words each); a separated one loses its vis and
 * inside bits. */
void satc_redecide_bits(const satc_frustum *f, const satc_batch *b, size_t first, uint64_t *vis,
                        uint64_t *inside, const uint64_t *band);

#endif
