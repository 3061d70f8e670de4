/*
 * Occluders are inner boxes. Every form's occluder box (satc_occluder_box,
 * what the rasterizer draws) against the volume the caller described,
 * computed in long double from the stored floats: the box's half axes
 * must lie inside the described volume about its exact center, and the
 * box's center within the stated error of that center. Random and
 * adversarial input: huge and tiny scales, log scales near the ends of
 * exp's range, far positions, every quaternion encoding, min/max corners
 * of very different magnitudes. And a scene: a large log-scaled slab
 * just below the eye writes no texel nearer than its top face, and a
 * small box just above the face stays visible on every path.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raster/raster.h"
#include "raster_oracle.h"

#define RASTER_SEED 0x1bb0c5e7
#include "raster_check.h"

typedef long double ld;

static ld ldabs(ld x) { return x < 0 ? -x : x; }

/* ------------------------------------------------------------------ */
/* The described volumes, in long double                               */
/* ------------------------------------------------------------------ */

/* A described box: exact center and half axes (columns), long double. */
typedef struct lbox {
    ld c[3], H[3][3];
} lbox;

/* Coordinates of the drawn box's vertices in the described box's axes
 * must be within [-1, 1]: the vertex sum_j s_j D_j has coordinate k
 * sum_j s_j (Hinv D_j)_k, greatest over the signs at
 * sum_j |(Hinv D_j)_k|. Hinv from the adjugate in long double. */
static int inside(const lbox *B, const double D[3][3])
{
    ld (*H)[3] = (ld(*)[3])B->H;
    ld adj[3][3]; /* row k: H_a x H_b, a = k+1, b = k+2 */
    for (int k = 0; k < 3; k++) {
        const ld *a = H[(k + 1) % 3], *b = H[(k + 2) % 3];
        adj[k][0] = a[1] * b[2] - a[2] * b[1];
        adj[k][1] = a[2] * b[0] - a[0] * b[2];
        adj[k][2] = a[0] * b[1] - a[1] * b[0];
    }
    ld det = H[0][0] * adj[0][0] + H[0][1] * adj[0][1] + H[0][2] * adj[0][2];
    if (!(ldabs(det) > 0))
        return 0;
    for (int k = 0; k < 3; k++) {
        ld s = 0;
        for (int j = 0; j < 3; j++)
            s += ldabs(adj[k][0] * D[j][0] + adj[k][1] * D[j][1] + adj[k][2] * D[j][2]);
        if (!(s <= ldabs(det)))
            return 0;
    }
    return 1;
}

static int center_within(const lbox *B, const double c[3], double cerr)
{
    for (int k = 0; k < 3; k++)
        if (!(ldabs((ld)c[k] - B->c[k]) <= (ld)cerr))
            return 0;
    return 1;
}

/* TRS volume: p + R(q) diag(X) (lc + s * lh), X = exp of a log scale. */
static lbox trs_exact(const float q[4], const float p[3], const float s[3], int lg,
                      const float lc[3], const float lh[3])
{
    lbox B;
    ld x = q[0], y = q[1], z = q[2], w = q[3];
    ld t = 2.0L / (x * x + y * y + z * z + w * w);
    ld R[3][3] = {{1 - t * (y * y + z * z), t * (x * y - w * z), t * (x * z + w * y)},
                  {t * (x * y + w * z), 1 - t * (x * x + z * z), t * (y * z - w * x)},
                  {t * (x * z - w * y), t * (y * z + w * x), 1 - t * (x * x + y * y)}};
    for (int r = 0; r < 3; r++) {
        B.c[r] = p[r];
        for (int j = 0; j < 3; j++) {
            ld X = lg ? expl((ld)s[j]) : (ld)s[j];
            B.c[r] += R[r][j] * X * lc[j];
            B.H[j][r] = R[r][j] * X * ldabs(lh[j]);
        }
    }
    return B;
}

/* ------------------------------------------------------------------ */
/* Random and adversarial volumes                                       */
/* ------------------------------------------------------------------ */

static float rexp(double lo, double hi) /* 10^u, u uniform in [lo, hi], random sign */
{
    double m = pow(10.0, rnd(lo, hi));
    return (float)(rnd(0, 1) < 0.5 ? -m : m);
}

/* A magnitude scale for case k: ordinary, huge, tiny, mixed. */
static void ranges(int k, double *plo, double *phi, double *slo, double *shi)
{
    switch (k % 5) {
    case 0: *plo = -1, *phi = 3, *slo = -1, *shi = 2; break;     /* ordinary */
    case 1: *plo = 5, *phi = 12, *slo = -2, *shi = 1; break;     /* far */
    case 2: *plo = -1, *phi = 2, *slo = 8, *shi = 15; break;     /* huge */
    case 3: *plo = -3, *phi = 0, *slo = -15, *shi = -6; break;   /* tiny */
    default: *plo = -2, *phi = 8, *slo = -10, *shi = 10; break;  /* mixed */
    }
}

enum { N = 4000 };
static float g_pos[N][3], g_scale[N][3], g_lc[N][3], g_lh[N][3];
static unsigned char g_rot[N][16];

static void quat(int k, unsigned fmt, unsigned char *out, float q[4])
{
    float a[4];
    int kind = k % 7;
    for (int c = 0; c < 4; c++)
        a[c] = (float)rnd(-1, 1);
    if (kind == 0) /* identity */
        a[0] = a[1] = a[2] = 0, a[3] = 1;
    else if (kind == 1) /* a quarter turn: entries of R exactly 0 or 1 in exact arithmetic */
        a[0] = a[1] = 0, a[2] = a[3] = 0.70710678f;
    else if (kind == 2) /* far from unit length */
        for (int c = 0; c < 4; c++)
            a[c] *= (float)pow(10.0, rnd(-8, 8));
    unsigned type = fmt & 3u;
    for (int c = 0; c < 4; c++) {
        int src = fmt & SATC_QUAT_WXYZ ? (c + 3) & 3 : c; /* stored slot c holds component src */
        if (type == SATC_QUAT_F32) {
            memcpy(out + 4 * c, &a[src], 4);
        } else if (type == SATC_QUAT_U8) {
            int b = (int)lrint(a[src] / (fabsf(a[src]) > 1 ? fabsf(a[src]) : 1) * 127) + 128;
            out[c] = (unsigned char)b;
        } else {
            int b = (int)lrint(a[src] / (fabsf(a[src]) > 1 ? fabsf(a[src]) : 1) * 127);
            out[c] = (unsigned char)(signed char)b;
        }
    }
    /* decoded back as the library reads it: (x, y, z, w) */
    for (int c = 0; c < 4; c++) {
        int slot = fmt & SATC_QUAT_WXYZ ? (c + 1) & 3 : c;
        if (type == SATC_QUAT_F32)
            memcpy(&q[c], out + 4 * slot, 4);
        else if (type == SATC_QUAT_U8)
            q[c] = (float)((int)out[slot] - 128);
        else
            q[c] = (float)(int)(signed char)out[slot];
    }
}

/* TRS in every quaternion encoding and both scale encodings, with and
 * without local boxes. */
static void case_trs(void)
{
    static const unsigned fmts[6] = {SATC_QUAT_F32, SATC_QUAT_U8, SATC_QUAT_I8,
                                     SATC_QUAT_F32 | SATC_QUAT_WXYZ, SATC_QUAT_U8 | SATC_QUAT_WXYZ,
                                     SATC_QUAT_I8 | SATC_QUAT_WXYZ};
    for (int lg = 0; lg < 2; lg++) {
        for (int f = 0; f < 6; f++) {
            for (int local = 0; local < 2; local++) {
                float q[N][4];
                unsigned fmt = fmts[f] | (lg ? SATC_TRS_LOG_SCALE : 0u);
                for (int k = 0; k < N; k++) {
                    double plo, phi, slo, shi;
                    ranges(k, &plo, &phi, &slo, &shi);
                    for (int c = 0; c < 3; c++) {
                        g_pos[k][c] = rexp(plo, phi);
                        float sv = rexp(slo, shi);
                        /* a log scale spans exp's range, its ends included */
                        g_scale[k][c] = lg ? (float)(k % 11 == 0 ? rnd(-87.5, -86.5)
                                                     : k % 13 == 0 ? rnd(87, 89)
                                                                    : log(fabs((double)sv)))
                                           : sv;
                        g_lc[k][c] = k % 3 ? rexp(-2, 1) : 0.0f;
                        g_lh[k][c] = rexp(-2, 1);
                    }
                    quat(k, fmt, g_rot[k], q[k]);
                }
                satc_local_boxes lb = {SATC_VEC3S_AOS(&g_lc[0][0], 12),
                                       SATC_VEC3S_AOS(&g_lh[0][0], 12), NULL, 0, 0};
                satc_batch b;
                memset(&b, 0, sizeof b);
                b.form = SATC_FORM_TRS;
                b.trs.position = SATC_VEC3S_AOS(&g_pos[0][0], 12);
                b.trs.scale = SATC_VEC3S_AOS(&g_scale[0][0], 12);
                b.trs.rotation = g_rot;
                b.trs.rotation_stride = 16;
                b.trs.format = fmt;
                b.trs.k = local ? 0.0f : 1.5f;
                b.trs.local = local ? &lb : NULL;
                size_t drawn = 0, bad = 0;
                static const float zero[3] = {0, 0, 0}, kk[3] = {1.5f, 1.5f, 1.5f};
                for (int k = 0; k < N; k++) {
                    double c[3], H[3][3], cerr;
                    if (!satc_occluder_box(&b, (size_t)k, c, H, &cerr))
                        continue;
                    drawn++;
                    lbox B = trs_exact(q[k], g_pos[k], g_scale[k], lg, local ? g_lc[k] : zero,
                                       local ? g_lh[k] : kk);
                    int ok = inside(&B, (const double(*)[3])H) && center_within(&B, c, cerr);
                    if (!ok && bad++ < 3)
                        printf("  trs %d: scale (%a %a %a) q (%a %a %a %a) outside\n", k,
                               g_scale[k][0], g_scale[k][1], g_scale[k][2], q[k][0], q[k][1],
                               q[k][2], q[k][3]);
                }
                char what[160];
                snprintf(what, sizeof what,
                         "trs format %u, %s: %zu of %zu occluder boxes outside the volume", fmt,
                         local ? "local boxes" : "splat cube", bad, drawn);
                check(bad == 0, what);
                snprintf(what, sizeof what, "trs format %u: most volumes drawn (%zu of %d)", fmt,
                         drawn, N);
                check(drawn > N / 2, what);
            }
        }
    }
}

/* Instances: the half axes are exact, the center within its bound. */
static void case_instances(void)
{
    static float m[N][16];
    size_t bad = 0, drawn = 0;
    for (int k = 0; k < N; k++) {
        double plo, phi, slo, shi;
        ranges(k, &plo, &phi, &slo, &shi);
        for (int e = 0; e < 12; e++)
            m[k][e] = rexp(slo, shi);
        for (int e = 12; e < 15; e++)
            m[k][e] = rexp(plo, phi);
        m[k][15] = 1;
        for (int c = 0; c < 3; c++)
            g_lc[k][c] = rexp(-3, 3), g_lh[k][c] = rexp(-3, 3);
    }
    satc_batch b;
    memset(&b, 0, sizeof b);
    b.form = SATC_FORM_INSTANCES;
    b.instances.matrix = m[0];
    b.instances.stride = 64;
    b.instances.layout = SATC_AFFINE_4X4_COLUMN_MAJOR;
    b.instances.local_center = SATC_VEC3S_AOS(&g_lc[0][0], 12);
    b.instances.local_half = SATC_VEC3S_AOS(&g_lh[0][0], 12);
    for (int k = 0; k < N; k++) {
        double c[3], H[3][3], cerr;
        if (!satc_occluder_box(&b, (size_t)k, c, H, &cerr))
            continue;
        drawn++;
        lbox B;
        for (int r = 0; r < 3; r++) {
            B.c[r] = (ld)m[k][12 + r];
            for (int j = 0; j < 3; j++) {
                B.c[r] += (ld)m[k][4 * j + r] * g_lc[k][j];
                B.H[j][r] = (ld)m[k][4 * j + r] * ldabs(g_lh[k][j]);
            }
        }
        int ok = center_within(&B, c, cerr);
        for (int j = 0; j < 3; j++)
            for (int r = 0; r < 3; r++)
                ok &= (ld)H[j][r] == B.H[j][r];
        bad += !ok;
    }
    char what[120];
    snprintf(what, sizeof what, "instances: %zu of %zu occluder boxes not the volume", bad, drawn);
    check(bad == 0 && drawn == N, what);
}

/* The same instances in every matrix layout, through a mesh id table
 * (reversed, one id past the table): the same boxes bit for bit as
 * case_instances' 4x4 columns, and no box for the bad id. */
static void case_instance_layouts(void)
{
    enum { M = 64 };
    static float col[M][16], rows[M][12], c43[M][12], lc[M][3], lh[M][3];
    uint32_t ids[M];
    for (int k = 0; k < M; k++) {
        for (int e = 0; e < 16; e++)
            col[k][e] = e % 4 == 3 && e < 12 ? 0.0f : e == 15 ? 1.0f : rexp(-2, 3);
        for (int r = 0; r < 3; r++)
            for (int q = 0; q < 4; q++)
                rows[k][r * 4 + q] = c43[k][q * 3 + r] = col[k][q * 4 + r];
        for (int j = 0; j < 3; j++)
            lc[k][j] = rexp(-2, 2), lh[k][j] = rexp(-2, 2);
        ids[k] = k == 7 ? (uint32_t)M : (uint32_t)(M - 1 - k);
    }
    satc_batch b[3];
    memset(b, 0, sizeof b);
    const float *mats[3] = {col[0], rows[0], c43[0]};
    static const size_t strides[3] = {64, 48, 48};
    static const satc_affine lays[3] = {SATC_AFFINE_4X4_COLUMN_MAJOR, SATC_AFFINE_ROWS,
                                   SATC_AFFINE_4X3_COLUMN_MAJOR};
    for (int f = 0; f < 3; f++) {
        b[f].form = SATC_FORM_INSTANCES;
        b[f].instances.matrix = mats[f];
        b[f].instances.stride = strides[f];
        b[f].instances.layout = lays[f];
        b[f].instances.local_center = SATC_VEC3S_AOS(&lc[0][0], 12);
        b[f].instances.local_half = SATC_VEC3S_AOS(&lh[0][0], 12);
        b[f].instances.mesh = f ? ids : NULL;
        b[f].instances.mesh_stride = 4;
        b[f].instances.mesh_count = M;
    }
    size_t bad = 0;
    for (int k = 0; k < M; k++) {
        double c0[3], H0[3][3], e0, c[3], H[3][3], e;
        /* the reference: box k's matrix with local box ids[k], without ids */
        satc_batch ref = b[0];
        uint32_t id = ids[k] < M ? ids[k] : 0;
        ref.instances.local_center = SATC_VEC3S_AOS(&lc[id][0], 0);
        ref.instances.local_half = SATC_VEC3S_AOS(&lh[id][0], 0);
        int r0 = satc_occluder_box(&ref, (size_t)k, c0, H0, &e0);
        for (int f = 1; f < 3; f++) {
            int r = satc_occluder_box(&b[f], (size_t)k, c, H, &e);
            if (ids[k] >= M) {
                bad += r != 0;
                continue;
            }
            int ok = r0 && r && !memcmp(c, c0, sizeof c) && !memcmp(H, H0, sizeof H) && e == e0;
            bad += !ok;
        }
    }
    char what[120];
    snprintf(what, sizeof what, "instance layouts and ids: %zu of %d boxes differ", bad, 2 * M);
    check(bad == 0, what);
}

/* Min/max (corners of very different magnitudes too), AABB, half axes,
 * OBB and spheres. */
static void case_boxes(void)
{
    static float lo[N][3], hi[N][3], ax[N][3][3], ext[N][3], sph[N][4];
    size_t bad[5] = {0, 0, 0, 0, 0};
    for (int k = 0; k < N; k++) {
        double plo, phi, slo, shi;
        ranges(k, &plo, &phi, &slo, &shi);
        for (int c = 0; c < 3; c++) {
            lo[k][c] = rexp(plo, phi);
            hi[k][c] = k % 4 == 0 ? rexp(slo, shi) : lo[k][c] + fabsf(rexp(slo, shi));
            ext[k][c] = rexp(slo, shi);
            for (int j = 0; j < 3; j++)
                ax[k][j][c] = (float)rnd(-1, 1);
        }
        for (int c = 0; c < 3; c++)
            sph[k][c] = lo[k][c];
        sph[k][3] = rexp(slo, shi);
    }
    satc_batch b[5];
    memset(b, 0, sizeof b);
    b[0].form = SATC_FORM_MINMAX;
    b[0].minmax.min = SATC_VEC3S_AOS(&lo[0][0], 12);
    b[0].minmax.max = SATC_VEC3S_AOS(&hi[0][0], 12);
    b[1].form = SATC_FORM_AABB;
    b[1].aabb.center = SATC_VEC3S_AOS(&lo[0][0], 12);
    b[1].aabb.half = SATC_VEC3S_AOS(&hi[0][0], 12);
    b[2].form = SATC_FORM_HALF_AXES;
    b[2].half_axes.center = SATC_VEC3S_AOS(&lo[0][0], 12);
    for (int j = 0; j < 3; j++)
        b[2].half_axes.axis[j] = SATC_VEC3S_AOS(&ax[0][j][0], 36);
    b[3].form = SATC_FORM_OBB;
    b[3].obb.center = SATC_VEC3S_AOS(&lo[0][0], 12);
    for (int j = 0; j < 3; j++)
        b[3].obb.axis[j] = SATC_VEC3S_AOS(&ax[0][j][0], 36);
    b[3].obb.extent = SATC_VEC3S_AOS(&ext[0][0], 12);
    b[4].form = SATC_FORM_SPHERES;
    b[4].spheres.center = SATC_VEC3S_AOS(&sph[0][0], 16);
    b[4].spheres.radius = (satc_floats){&sph[0][3], 16};
    for (int k = 0; k < N; k++) {
        for (int f = 0; f < 5; f++) {
            double c[3], H[3][3], cerr;
            int ok = satc_occluder_box(&b[f], (size_t)k, c, H, &cerr) && cerr == 0;
            ld D[3][3] = {{0}}; /* the described half axes */
            for (int j = 0; j < 3; j++) {
                switch (f) {
                case 1: D[j][j] = ldabs(hi[k][j]); break;
                case 2: for (int r = 0; r < 3; r++) D[j][r] = ax[k][j][r]; break;
                case 3: for (int r = 0; r < 3; r++) D[j][r] = ldabs(ext[k][j]) * ax[k][j][r]; break;
                default: break;
                }
            }
            if (f == 0) { /* [c - h, c + h] inside [lo, hi] per axis */
                for (int j = 0; ok && j < 3; j++) {
                    ld a = lo[k][j] < hi[k][j] ? lo[k][j] : hi[k][j];
                    ld z = lo[k][j] < hi[k][j] ? hi[k][j] : lo[k][j];
                    ok = H[j][j] >= 0 && (ld)c[j] - H[j][j] >= a && (ld)c[j] + H[j][j] <= z;
                    for (int r = 0; r < 3; r++)
                        ok &= r == j || H[j][r] == 0;
                }
            } else if (f == 4) { /* a cube inside the ball */
                ld r2 = 0, rad = ldabs(sph[k][3]);
                for (int j = 0; ok && j < 3; j++) {
                    ok = c[j] == sph[k][j];
                    r2 += (ld)H[j][j] * H[j][j];
                    for (int r = 0; r < 3; r++)
                        ok &= r == j || H[j][r] == 0;
                }
                ok &= r2 <= rad * rad;
            } else { /* the stored box itself: exact */
                for (int j = 0; ok && j < 3; j++) {
                    ok = c[j] == lo[k][j];
                    for (int r = 0; r < 3; r++)
                        ok &= (ld)H[j][r] == D[j][r];
                }
            }
            bad[f] += !ok;
        }
    }
    static const char *names[5] = {"min/max", "aabb", "half axes", "obb", "spheres"};
    for (int f = 0; f < 5; f++) {
        char what[120];
        snprintf(what, sizeof what, "%s: %zu of %d occluder boxes not inside the volume",
                 names[f], bad[f], N);
        check(bad[f] == 0, what);
    }
}

/* ------------------------------------------------------------------ */
/* A slab just below the eye                                            */
/* ------------------------------------------------------------------ */

/* A slab of scales (1000, 1000, 500) (log or linear), identity rotation,
 * its top face 1 unit below the eye, seen from straight above at 64 x 32
 * (every texel's true depth is the face's): no
 * texel nearer than the face; a small box 5e-5 above the face is not
 * occluded on any path. */
static void slab(int lg)
{
    enum { W = 64, HT = 32 };
    const float eye[3] = {0, 0, 0}, up[3] = {0, 1, 0};
    const float dir[3] = {0, 0, -1};
    satc_frustum f;
    check(satc_frustum_perspective(&f, eye, dir, up, 1.0f, 2.0f, 0.1f, 1e4f) == SATC_OK, "view");
    float s[3] = {1000, 1000, 500};
    if (lg)
        s[0] = s[1] = (float)log(1000.0), s[2] = (float)log(500.0);
    ld sz = lg ? expl((ld)s[2]) : (ld)s[2];
    float pos[3] = {0, 0, (float)-501};
    const float q[4] = {0, 0, 0, 1}, lc[3] = {0, 0, 0}, lh[3] = {1, 1, 1};
    satc_local_boxes lb = {SATC_VEC3S_AOS(lc, 0), SATC_VEC3S_AOS(lh, 0), NULL, 0, 0};
    satc_batch b;
    memset(&b, 0, sizeof b);
    b.form = SATC_FORM_TRS;
    b.trs.position = SATC_VEC3S_AOS(pos, 12);
    b.trs.scale = SATC_VEC3S_AOS(s, 12);
    b.trs.rotation = q;
    b.trs.format = SATC_QUAT_F32 | (lg ? SATC_TRS_LOG_SCALE : 0u);
    b.trs.local = &lb;
    ld top = (ld)pos[2] + sz; /* the top face's height, exact */
    static float store[W * HT * 2], init[W * HT];
    satc_pyramid p;
    check(satc_pyramid_init(&p, &f, W, HT, store, sizeof store) == SATC_OK, "pyramid");
    check(satc_pyramid_rasterize(&p, &b, 0, 1, NULL) == SATC_OK, "rasterize");
    /* the slab exactly, scales from exp in double */
    ro_occ o;
    memset(&o, 0, sizeof o);
    o.kind = RO_BOX;
    o.c[2] = pos[2];
    for (int j = 0; j < 3; j++)
        o.h[j][j] = lg ? exp((double)s[j]) : (double)s[j];
    for (size_t k = 0; k < W * HT; k++)
        init[k] = INFINITY;
    ro_view rv;
    ro_view_init(&rv, &f, W, HT);
    size_t written = 0;
    char name[40], what[160];
    snprintf(name, sizeof name, "%s slab", lg ? "log-scaled" : "linear");
    size_t bad = ro_check(&rv, p.depth, init, &o, 1, name, &written, NULL);
    snprintf(what, sizeof what, "%s: %zu rays meet it nearer than the texels hold (%zu written)", name, bad,
             written);
    check(bad == 0 && written > 100, what);
    printf("  %-18s %zu texels written\n", name, written);
    check(satc_pyramid_build(&p) == SATC_OK, "build");
    /* a small box 5e-5 above the face, below the eye */
    float bc[6] = {0.1f, 0.0f, (float)(top + 5e-5L + 1e-5L), 0.05f, 0.05f, 1e-5f};
    satc_batch bx;
    memset(&bx, 0, sizeof bx);
    bx.form = SATC_FORM_AABB;
    bx.aabb.center = SATC_VEC3S_AOS(&bc[0], 24);
    bx.aabb.half = SATC_VEC3S_AOS(&bc[3], 24);
    for (unsigned isa = 1; isa <= SATC_ISA_SIMD128; isa <<= 1) {
        if (!(satc_isa_runnable() & isa))
            continue;
        for (int mode = 0; mode < 2; mode++) {
            uint8_t bits = 0, occ = 0;
            size_t nocc = 0;
            satc_results r = {&bits, NULL, NULL, 0};
            satc_status st = satc_cull_occluded_isa((satc_isa)isa, &p, &bx, 0, 1,
                                                    mode ? SATC_EXACT : SATC_CONSERVATIVE, &r,
                                                    &occ, &nocc);
            snprintf(what, sizeof what, "%s slab: a box 5e-5 above it visible (%s, %s)",
                     lg ? "log-scaled" : "linear", satc_isa_name((satc_isa)isa),
                     mode ? "exact" : "conservative");
            check(st == SATC_OK && nocc == 0 && r.visible == 1, what);
        }
    }
}

int main(void)
{
    printf("occluder boxes inside their volumes\n");
    case_trs();
    case_instances();
    case_instance_layouts();
    case_boxes();
    slab(1);
    slab(0);
    printf("%d passed, %d failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
