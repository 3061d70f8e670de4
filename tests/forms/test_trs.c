/*
 * SATC_FORM_TRS against an independent double oracle and across paths:
 *  - satc_expf against exp() in double (relative error bound, clamps, NaN);
 *  - volumes near the frustum's faces, edges and corners, in four layouts
 *    (32-byte `.splat` records with 8-bit quaternions and the default
 *    splat box; separate float arrays with log scales and a shared local
 *    box; 48-byte records with signed-byte quaternions and a local box per
 *    volume; a mesh table with ids past its end), with adversarial
 *    quaternions (unnormalised over 10^+-10, near zero, tiny components,
 *    zero, NaN) and scales over 10^+-6, near and 10^6 from the origin;
 *  - the oracle: each volume's OBB built in double from the same floats
 *    by another method (q / |q| with a square root, the textbook matrix,
 *    the true exp), then clipped against the camera's frustum in double
 *    (tests/common/oracle.c): no touching volume culled in either mode,
 *    exact mode's false positives within SATC_EXACT_BAND, rejected
 *    quaternions always visible;
 *  - every path bit for bit against the scalar path and the reference, and
 *    satc_cull_views against each view's own cull;
 *  - depths, keys and back-to-front orders against double, NaN depths as
 *    SATC_DEPTH_NAN_BITS on every path.
 * SATC_TEST_QUICK (or --quick) runs a reduced set.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "forms_run.h"
#include "oracle.h"
#include "robust_util.h"
#include "scenes.h"
#include "../../src/core/internal.h"

static int quick;

/* ---------------------------------------------------------------- exp */

static void test_exp(void)
{
    rb_rng r = {0x657870ull};
    long n = quick ? 300000 : 4000000, bad = 0;
    double worst = 0;
    for (long i = 0; i < n; i++) {
        float x = (float)rb_uniform(&r, -87.0, 88.3);
        if (i % 4 == 1) /* small arguments, where the reduction does nothing */
            x = (float)rb_uniform(&r, -0.4, 0.4);
        float y = satc_expf(x);
        double e = exp((double)x), rel = fabs((double)y - e) / e;
        worst = rel > worst ? rel : worst;
        bad += !(rel <= SATC_EXP_REL_ERROR);
    }
    rb_check(!bad, "satc_expf: %ld of %ld beyond the documented error", bad, n);
    printf("satc_expf: largest relative error %.3g (2^%.2f) over %ld arguments\n", worst,
           log2(worst), n);
    rb_check(isnan(satc_expf(NAN)), "satc_expf(NaN) is NaN");
    rb_check(satc_expf(100.0f) == INFINITY && satc_expf(88.5f) == INFINITY, "large x gives +Inf");
    rb_check(satc_expf(-100.0f) == satc_expf(-87.0f) && satc_expf(-87.0f) >= (float)exp(-87.0),
             "x below -87 gives exp(-87), at or above the true value");
    rb_check(satc_expf(0.0f) == 1.0f && satc_expf(-0.0f) == 1.0f, "exp(0) = 1");
    rb_check(satc_expf(INFINITY) == INFINITY || isnan(satc_expf(INFINITY)),
             "exp(+Inf) is never finite");
}

/* ---------------------------------------------------------- volumes */

enum { NVAR = 4, NTAB = 5 };
static const char *const var_name[NVAR] = {"splat32/u8", "arrays/f32+log", "rec48/i8+per",
                                           "mesh/f32"};

typedef struct trs_set {
    size_t n;
    unsigned char *rec; /* variant's records */
    float *pos, *quat, *scale, *lc, *lh; /* separate arrays (variant 1, 2's boxes) */
    uint32_t *mesh;
    float table[NTAB][6];
    float slc[3], slh[3];
    satc_local_boxes lb;
    satc_batch b;
} trs_set;

/* One volume's parameters as the caller holds them. */
typedef struct trs_vol {
    float p[3], q[4], s[3], lc[3], lh[3]; /* q as (x, y, z, w); s as stored */
    unsigned char qb[4];                  /* byte quaternions as stored */
} trs_vol;

static float lu(rb_rng *r, double lo, double hi) { return (float)exp(rb_uniform(r, log(lo), log(hi))); }

/* An adversarial float quaternion. */
static void pick_quat(rb_rng *r, float q[4])
{
    rb_random_quat(r, q);
    unsigned k = (unsigned)(rb_next(r) % 16);
    double f = 1.0;
    switch (k) {
    case 0: f = exp(rb_uniform(r, log(1e-9), log(1e9))); break; /* unnormalised */
    case 1: f = rb_uniform(r, 2.4e-10, 1e-9); break;             /* near zero, accepted */
    case 2: f = rb_uniform(r, 1e-12, 2.2e-10); break;            /* below 2^-64: rejected */
    case 3: f = 1e10; break;                                     /* above 2^64: rejected */
    case 4: q[0] = q[1] = q[2] = q[3] = 0.0f; break;
    case 5: q[rb_next(r) % 4] = NAN; break;
    case 6: q[0] = 1, q[1] = 1e-30f, q[2] = 0, q[3] = 0; break;  /* tiny components */
    case 7: q[0] = q[1] = q[2] = 0, q[3] = -1; break;
    case 8: q[0] = 0.70710677f, q[1] = 0, q[2] = 0, q[3] = 0.70710677f; break;
    default: break;
    }
    for (int c = 0; c < 4; c++)
        q[c] = (float)(q[c] * f);
}

static void pick_bytes(rb_rng *r, unsigned char qb[4], int u8)
{
    unsigned k = (unsigned)(rb_next(r) % 12);
    for (int c = 0; c < 4; c++)
        qb[c] = (unsigned char)(rb_next(r) & 255);
    if (k == 0) /* the zero quaternion: rejected */
        qb[0] = qb[1] = qb[2] = qb[3] = u8 ? 128 : 0;
    else if (k == 1) /* one unit off zero */
        qb[0] = qb[1] = qb[2] = u8 ? 128 : 0, qb[3] = u8 ? 129 : 1;
    else if (k == 2 && !u8)
        qb[rb_next(r) % 4] = 0x80; /* -128 */
}

/* The quaternion the stored bytes or floats stand for, as (x, y, z, w) in double. */
static void quat_of(const trs_vol *v, int var, double q[4])
{
    if (var == 0) { /* u8, stored w, x, y, z */
        for (int c = 0; c < 4; c++)
            q[c] = ((double)v->qb[(c + 1) & 3] - 128.0) / 128.0;
    } else if (var == 2) { /* i8, stored x, y, z, w */
        for (int c = 0; c < 4; c++)
            q[c] = (double)(signed char)v->qb[c] / 127.0;
    } else {
        for (int c = 0; c < 4; c++)
            q[c] = v->q[c];
    }
}

/* Whether the library rejects this quaternion (its float squared norm,
 * the documented sum). */
static int quat_rejected(const trs_vol *v, int var)
{
    float a[4];
    for (int c = 0; c < 4; c++)
        a[c] = var == 0 ? (float)((int)v->qb[(c + 1) & 3] - 128)
               : var == 2 ? (float)(signed char)v->qb[c] : v->q[c];
    float n2 = ((a[0] * a[0] + a[1] * a[1]) + a[2] * a[2]) + a[3] * a[3];
    return !(n2 >= 0x1p-64f && n2 <= 0x1p64f);
}

/* The oracle's box: center, unit axes, extents, in double, from the
 * normalised quaternion (sqrt) and the textbook matrix. 0 when not a box. */
static int oracle_box(const trs_vol *v, int var, int logs, double c[3], double ax[3][3],
                      double ext[3])
{
    double q[4];
    quat_of(v, var, q);
    long double n = sqrtl((long double)q[0] * q[0] + (long double)q[1] * q[1] +
                          (long double)q[2] * q[2] + (long double)q[3] * q[3]);
    if (!(n > 0) || !isfinite((double)n))
        return 0;
    long double x = q[0] / n, y = q[1] / n, z = q[2] / n, w = q[3] / n;
    long double R[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
                           {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
                           {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}};
    double s[3];
    for (int j = 0; j < 3; j++)
        s[j] = logs ? exp((double)v->s[j]) : (double)v->s[j];
    for (int r = 0; r < 3; r++) {
        long double t = v->p[r];
        for (int j = 0; j < 3; j++)
            t += R[r][j] * s[j] * v->lc[j];
        c[r] = (double)t;
    }
    for (int j = 0; j < 3; j++) {
        long double len = sqrtl(R[0][j] * R[0][j] + R[1][j] * R[1][j] + R[2][j] * R[2][j]);
        for (int r = 0; r < 3; r++)
            ax[j][r] = (double)(R[r][j] / len);
        ext[j] = fabs(s[j] * fabs((double)v->lh[j]) * (double)len);
    }
    for (int k = 0; k < 3; k++)
        if (!isfinite(c[k]) || !isfinite(ext[k]))
            return 0;
    return 1;
}

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

/* Stores volume parameters vols[0..n) in variant var's layout. */
static void build(trs_set *t, const trs_vol *vols, size_t n, int var)
{
    memset(t, 0, sizeof *t);
    t->n = n;
    satc_trs *s = &t->b.trs;
    t->b.form = SATC_FORM_TRS;
    for (int k = 0; k < NTAB; k++)
        for (int q = 0; q < 6; q++)
            t->table[k][q] = q < 3 ? 0.25f * (float)(k - q) : 0.5f + 0.25f * (float)((k + q) % 3);
    switch (var) {
    case 0: { /* .splat: pos, scale, rgba, rot bytes (w, x, y, z) */
        t->rec = xcalloc(n, 32);
        for (size_t i = 0; i < n; i++) {
            unsigned char *r = t->rec + 32 * i;
            memcpy(r, vols[i].p, 12), memcpy(r + 12, vols[i].s, 12);
            r[24] = 200, r[25] = 100, r[26] = 50, r[27] = 255;
            memcpy(r + 28, vols[i].qb, 4);
        }
        const float *f = (const float *)(void *)t->rec;
        s->position = SATC_VEC3S_AOS(f, 32), s->scale = SATC_VEC3S_AOS(f + 3, 32);
        s->rotation = t->rec + 28, s->rotation_stride = 32;
        s->format = SATC_QUAT_U8 | SATC_QUAT_WXYZ;
        break;
    }
    case 1: /* separate arrays (three.js-style), log scales, a shared local box */
        t->pos = xcalloc(3 * n, 4), t->quat = xcalloc(4 * n, 4), t->scale = xcalloc(3 * n, 4);
        for (size_t i = 0; i < n; i++) {
            memcpy(t->pos + 3 * i, vols[i].p, 12), memcpy(t->quat + 4 * i, vols[i].q, 16);
            memcpy(t->scale + 3 * i, vols[i].s, 12);
        }
        memcpy(t->slc, vols[0].lc, 12), memcpy(t->slh, vols[0].lh, 12);
        s->position = SATC_VEC3S_AOS(t->pos, 12), s->scale = SATC_VEC3S_AOS(t->scale, 12);
        s->rotation = t->quat, s->rotation_stride = 16, s->format = SATC_QUAT_F32 | SATC_TRS_LOG_SCALE;
        t->lb.center = (satc_vec3s){t->slc, t->slc + 1, t->slc + 2, 0};
        t->lb.half = (satc_vec3s){t->slh, t->slh + 1, t->slh + 2, 0};
        s->local = &t->lb;
        break;
    case 2: /* 48-byte records: scale, pad, pos, i8 quaternion; local boxes as SoA */
        t->rec = xcalloc(n, 48), t->lc = xcalloc(3 * n, 4), t->lh = xcalloc(3 * n, 4);
        for (size_t i = 0; i < n; i++) {
            unsigned char *r = t->rec + 48 * i;
            memcpy(r, vols[i].s, 12), memcpy(r + 16, vols[i].p, 12), memcpy(r + 28, vols[i].qb, 4);
            for (int k = 0; k < 3; k++)
                t->lc[k * n + i] = vols[i].lc[k], t->lh[k * n + i] = vols[i].lh[k];
        }
        {
            const float *f = (const float *)(void *)t->rec;
            s->scale = SATC_VEC3S_AOS(f, 48), s->position = SATC_VEC3S_AOS(f + 4, 48);
        }
        s->rotation = t->rec + 28, s->rotation_stride = 48, s->format = SATC_QUAT_I8;
        t->lb.center = SATC_VEC3S_SOA(t->lc, t->lc + n, t->lc + 2 * n);
        t->lb.half = SATC_VEC3S_SOA(t->lh, t->lh + n, t->lh + 2 * n);
        s->local = &t->lb;
        break;
    default: /* mesh table, float quaternions stored w first in records of 44 */
        t->rec = xcalloc(n, 44), t->mesh = xcalloc(n, 4);
        for (size_t i = 0; i < n; i++) {
            float *r = (float *)(void *)(t->rec + 44 * i);
            memcpy(r, vols[i].p, 12), memcpy(r + 3, vols[i].s, 12);
            r[6] = vols[i].q[3], r[7] = vols[i].q[0], r[8] = vols[i].q[1], r[9] = vols[i].q[2];
            r[10] = NAN; /* never read */
            t->mesh[i] = (uint32_t)((i * 7) % (NTAB + 1)); /* id NTAB: past the table */
        }
        {
            const float *f = (const float *)(void *)t->rec;
            s->position = SATC_VEC3S_AOS(f, 44), s->scale = SATC_VEC3S_AOS(f + 3, 44);
            s->rotation = f + 6;
        }
        s->rotation_stride = 44, s->format = SATC_QUAT_F32 | SATC_QUAT_WXYZ;
        t->lb.center = SATC_VEC3S_AOS(&t->table[0][0], sizeof t->table[0]);
        t->lb.half = SATC_VEC3S_AOS(&t->table[0][3], sizeof t->table[0]);
        t->lb.mesh = t->mesh, t->lb.mesh_stride = 4, t->lb.mesh_count = NTAB;
        s->local = &t->lb;
        break;
    }
}

static void set_free(trs_set *t)
{
    free(t->rec), free(t->pos), free(t->quat), free(t->scale), free(t->lc), free(t->lh);
    free(t->mesh);
}

/* Volume parameters near cam's frustum boundary for variant var. */
static void make_vols(rb_rng *r, scn_rng *sr, const satc_camera *cam, int var, trs_vol *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        trs_vol *o = &v[i];
        memset(o, 0, sizeof *o);
        double p[3], sc;
        scn_boundary_point(sr, cam, p, &sc);
        for (int k = 0; k < 3; k++)
            o->p[k] = (float)((double)cam->origin[k] + p[k]);
        unsigned mag = (unsigned)(rb_next(r) % 8);
        for (int j = 0; j < 3; j++) {
            double s = mag == 0 ? lu(r, 1e-6, 1e-4) : mag == 1 ? lu(r, 1e4, 1e6)
                                                          : sc * lu(r, 1e-3, 0.3);
            if (rb_next(r) % 16 == 0)
                s = 0.0; /* flat */
            o->s[j] = (float)s;
        }
        pick_quat(r, o->q);
        pick_bytes(r, o->qb, var == 0);
        for (int k = 0; k < 3; k++)
            o->lc[k] = 0.0f, o->lh[k] = SATC_SPLAT_K_DEFAULT;
        if (var == 1) {
            for (int j = 0; j < 3; j++) /* log scales; the shared box is vol 0's */
                o->s[j] = o->s[j] > 0 ? logf(o->s[j]) : -100.0f;
            const float lc[3] = {0.5f, -0.25f, 0.0f}, lh[3] = {1.0f, 2.0f, 0.5f};
            memcpy(o->lc, lc, 12), memcpy(o->lh, lh, 12);
        } else if (var == 2) {
            for (int k = 0; k < 3; k++)
                o->lc[k] = (float)rb_uniform(r, -1, 1), o->lh[k] = (float)rb_uniform(r, -1, 1);
        } else if (var == 3) {
            for (int k = 0; k < 3; k++)
                o->lc[k] = NAN, o->lh[k] = NAN; /* filled from the table by the caller */
        }
    }
}

typedef struct tally {
    long touching, culled_touching, exact_far, vols, rejected_culled, exact_only;
} tally;

/* The oracle against the reference outputs of both modes. */
static void check_oracle(const satc_camera *cam, const trs_set *t, const trs_vol *vols, int var,
                         fr_out ref[2], tally *ty, const char *what)
{
    for (size_t i = 0; i < t->n; i++) {
        trs_vol v = vols[i];
        int id_bad = 0;
        if (var == 3) {
            uint32_t id = t->mesh[i];
            id_bad = id >= NTAB;
            for (int k = 0; k < 3; k++)
                v.lc[k] = id_bad ? 0 : t->table[id][k], v.lh[k] = id_bad ? 0 : t->table[id][3 + k];
        }
        double c[3], ax[3][3], ext[3];
        int rej = quat_rejected(&v, var) || id_bad;
        int ok = !rej && oracle_box(&v, var, var == 1, c, ax, ext);
        int vis[2] = {fr_bit(&ref[0], i), fr_bit(&ref[1], i)};
        ty->vols++;
        if (vis[1] && !vis[0]) { /* conservative keeps a superset of exact's */
            ty->exact_only++;
            rb_check(0, "%s vol %zu: exact keeps it, conservative culls it", what, i);
        }
        if (!ok) {
            if (rej)
                ty->rejected_culled += !(vis[0] && vis[1] && ref[0].classes[i] == SATC_INTERSECTING &&
                                         ref[1].classes[i] == SATC_INTERSECTING);
            continue;
        }
        int touch = orc_intersects_pp(cam, c, ext, ax);
        ty->touching += touch;
        if (touch && (!vis[0] || !vis[1])) {
            ty->culled_touching++;
            rb_check(0, "%s vol %zu: touches, culled (conservative %d exact %d)", what, i, vis[0],
                     vis[1]);
        }
        if (!touch && vis[1]) {
            satc_obb o;
            for (int k = 0; k < 3; k++) {
                o.center[k] = (float)c[k], o.extent[k] = (float)ext[k];
                for (int j = 0; j < 3; j++)
                    o.axis[j][k] = (float)ax[j][k];
            }
            double band = orc_band(cam, &o), g[3];
            for (int k = 0; k < 3; k++)
                g[k] = ext[k] + band;
            if (!orc_intersects_pp(cam, c, g, ax)) {
                ty->exact_far++;
                rb_check(0, "%s vol %zu: exact mode keeps it beyond its band %g", what, i, band);
            }
        }
    }
}

/* Every view of a satc_cull_views pass equals its own cull. */
static void check_views(const satc_frustum *views, size_t nv, const satc_batch *b, size_t n,
                        const char *what)
{
    satc_isa paths[8];
    int np = fr_paths(paths);
    uint8_t *masks = xcalloc(n, 1);
    fr_out o;
    fr_out_init(&o, n);
    for (int p = 0; p < np; p++) {
        for (int mode = 0; mode < 2; mode++) {
            size_t visible[8];
            satc_view_results vr = {masks, NULL, NULL, visible};
            satc_status st = satc_cull_views_isa(paths[p], views, nv, b, 0, n, (satc_mode)mode, &vr);
            rb_check(st == SATC_OK, "%s views status %d", what, (int)st);
            for (size_t v = 0; v < nv; v++) {
                fr_cull(&o, paths[p], &views[v], b, 0, n, (satc_mode)mode, FR_BITS);
                long diff = 0;
                for (size_t i = 0; i < n; i++)
                    diff += ((masks[i] >> v) & 1) != fr_bit(&o, i);
                rb_check(!diff && visible[v] == o.visible,
                         "%s path %s mode %d view %zu: %ld bits differ from its own cull", what,
                         satc_isa_name(paths[p]), mode, v, diff);
            }
        }
    }
    fr_out_free(&o);
    free(masks);
}

static void test_volumes(void)
{
    rb_rng r = {0x747273ull};
    scn_rng sr;
    scn_seed(&sr, 0x747273ull);
    size_t n = quick ? 700 : 3000;
    tally ty = {0};
    trs_vol *vols = xcalloc(n, sizeof *vols);
    for (int rep = 0; rep < 2; rep++) {
        satc_camera cams[4];
        satc_frustum fs[4];
        for (int k = 0; k < 4; k++) {
            scn_random_camera(&sr, (scn_cam_kind)k, &cams[k]);
            if (rep == 1) /* 10^6 from the origin */
                cams[k].origin[0] += 1.0e6f, cams[k].origin[1] -= 2.5e5f, cams[k].origin[2] += 3.0e5f;
            if (!rb_check(satc_frustum_from_camera(&fs[k], &cams[k]) == SATC_OK, "camera %d", k))
                return;
        }
        for (int k = 0; k < 4; k++) {
            for (int var = 0; var < NVAR; var++) {
                char what[96];
                snprintf(what, sizeof what, "%s %s%s", var_name[var],
                         scn_cam_name((scn_cam_kind)k), rep ? " far" : "");
                make_vols(&r, &sr, &cams[k], var, vols, n);
                trs_set t;
                build(&t, vols, n, var);
                fr_out ref[2], refr[2];
                fr_out_init(&ref[0], n), fr_out_init(&ref[1], n);
                fr_out_init(&refr[0], n), fr_out_init(&refr[1], n);
                fr_check_paths(what, &fs[k], &t.b, 0, n, ref);
                satc_scalar_use_ref(1); /* the per-volume reference as the comparand */
                fr_check_paths(what, &fs[k], &t.b, 0, n, refr);
                satc_scalar_use_ref(0);
                for (int m = 0; m < 2; m++)
                    rb_check(!memcmp(ref[m].bits, refr[m].bits, (n + 7) / 8) &&
                                 !memcmp(ref[m].classes, refr[m].classes, n),
                             "%s mode %d: scalar path differs from the reference", what, m);
                check_oracle(&cams[k], &t, vols, var, ref, &ty, what);
                /* sub-ranges: odd starts and counts */
                fr_out sub[2];
                fr_out_init(&sub[0], n), fr_out_init(&sub[1], n);
                fr_check_paths(what, &fs[k], &t.b, 3, n - 10, sub);
                fr_out_free(&sub[0]), fr_out_free(&sub[1]);
                { /* group bounds (satc_group_bounds, groups of 64): the flat cull's bits */
                    size_t ng = (n + 63) / 64;
                    float *gc = xcalloc(3 * ng, 4), *gh = xcalloc(3 * ng, 4);
                    satc_groups g = {64, NULL, ng, SATC_VEC3S_AOS(gc, 12), SATC_VEC3S_AOS(gh, 12)};
                    rb_check(satc_group_bounds(&t.b, n, 64, NULL, ng, gc, gh) == SATC_OK, "%s group bounds", what);
                    satc_batch gb = t.b;
                    gb.groups = &g;
                    fr_out gr[2];
                    fr_out_init(&gr[0], n), fr_out_init(&gr[1], n);
                    fr_check_paths(what, &fs[k], &gb, 0, n, gr);
                    for (int m = 0; m < 2; m++)
                        rb_check(!memcmp(gr[m].bits, ref[m].bits, (n + 7) / 8) &&
                                     !memcmp(gr[m].classes, ref[m].classes, n),
                                 "%s mode %d: with group bounds the bits differ from the flat cull", what, m);
                    fr_out_free(&gr[0]), fr_out_free(&gr[1]);
                    free(gc), free(gh);
                }
                if (var == 0 || var == 2) { /* a stereo pair, the next camera, an ortho view */
                    satc_frustum views[3] = {fs[k], fs[k], fs[3]};
                    views[1].origin[0] += 0.064f;
                    check_views(views, 3, &t.b, n, what);
                }
                for (int m = 0; m < 2; m++)
                    fr_out_free(&ref[m]), fr_out_free(&refr[m]);
                set_free(&t);
            }
        }
    }
    free(vols);
    printf("oracle: %ld volumes, %ld touching, %ld touching culled, %ld beyond exact band, "
           "%ld rejected quaternions culled, %ld kept by exact only\n",
           ty.vols, ty.touching, ty.culled_touching, ty.exact_far, ty.rejected_culled,
           ty.exact_only);
    rb_check(ty.touching > ty.vols / 10, "the scenes hold touching volumes");
    rb_check(!ty.rejected_culled, "rejected quaternions are never culled");
}

/* Descriptors: statuses for bad ones, nothing written. */
static void test_descriptors(void)
{
    float rec[8 * 4] = {0};
    satc_frustum f;
    satc_camera cam;
    rb_rng r = {7};
    const float eye[3] = {0, 0, 0};
    rb_camera_persp(&cam, &r, eye, 0.1f, 100.0f);
    satc_frustum_from_camera(&f, &cam);
    satc_batch good = {.form = SATC_FORM_TRS,
                       .trs = {.position = SATC_VEC3S_AOS(rec, 32),
                               .rotation = (const char *)rec + 28, .rotation_stride = 32,
                               .format = SATC_QUAT_U8 | SATC_QUAT_WXYZ,
                               .scale = SATC_VEC3S_AOS(rec + 3, 32)}};
    uint8_t bits[1] = {0x5a};
    satc_results out = {bits, NULL, NULL, 0};
    rb_check(satc_cull(&f, &good, 0, 4, SATC_EXACT, &out) == SATC_OK, "the .splat descriptor");
    satc_batch b = good;
    b.trs.rotation = NULL;
    rb_check(satc_cull(&f, &b, 0, 4, SATC_EXACT, &out) == SATC_ERR_NULL, "NULL rotation");
    b = good, b.trs.format = 3;
    rb_check(satc_cull(&f, &b, 0, 4, SATC_EXACT, &out) == SATC_ERR_FLAGS, "unknown format");
    b = good, b.trs.format = 16;
    rb_check(satc_cull(&f, &b, 0, 4, SATC_EXACT, &out) == SATC_ERR_FLAGS, "unknown format bit");
    b = good, b.trs.rotation = (const char *)rec + 29;
    rb_check(satc_cull(&f, &b, 0, 4, SATC_EXACT, &out) == SATC_ERR_LAYOUT, "misaligned rotation");
    b = good, b.trs.format = SATC_QUAT_F32, b.trs.rotation_stride = 8;
    rb_check(satc_cull(&f, &b, 0, 4, SATC_EXACT, &out) == SATC_ERR_LAYOUT, "float quaternions 8 apart");
    b = good, b.trs.k = -1.0f;
    rb_check(satc_cull(&f, &b, 0, 4, SATC_EXACT, &out) == SATC_ERR_LAYOUT, "negative k");
    satc_local_boxes lb = {SATC_VEC3S_AOS(rec, 32), SATC_VEC3S_AOS(rec, 32), NULL, 0, 0};
    lb.center.x = NULL;
    b = good, b.trs.local = &lb;
    bits[0] = 0x5a;
    rb_check(satc_cull(&f, &b, 0, 4, SATC_EXACT, &out) == SATC_ERR_NULL && bits[0] == 0x5a,
             "local half without a local center; nothing written");
}

/* ------------------------------------------------------------ depth */

static const float *g_dep; /* qsort's context: depth by position in the visible list */
static const uint32_t *g_idx;
static const uint16_t *g_k16;

static int cmp16(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    if (g_k16[i] != g_k16[j])
        return g_k16[i] > g_k16[j] ? -1 : 1;
    return g_idx[i] < g_idx[j] ? -1 : g_idx[i] > g_idx[j];
}

/* Back to front by the float depth in double: NaN first, -0 == +0. */
static int cmp32(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    double x = g_dep[i], y = g_dep[j];
    int nx = x != x, ny = y != y;
    if (nx != ny)
        return nx ? -1 : 1;
    if (!nx && x != y)
        return x > y ? -1 : 1;
    return g_idx[i] < g_idx[j] ? -1 : g_idx[i] > g_idx[j];
}

static void test_depth(void)
{
    rb_rng r = {0x6465707468ull};
    scn_rng sr;
    scn_seed(&sr, 0x6465707468ull);
    size_t n = quick ? 3000 : 20000;
    trs_vol *vols = xcalloc(n, sizeof *vols);
    satc_isa paths[8];
    int np = fr_paths(paths);
    for (int k = 0; k < 4; k++) {
        satc_camera cam;
        satc_frustum f;
        scn_random_camera(&sr, (scn_cam_kind)k, &cam);
        satc_frustum_from_camera(&f, &cam);
        make_vols(&r, &sr, &cam, 0, vols, n);
        for (size_t i = 5; i < n; i += 5) /* equal depths: the sorts must be stable */
            memcpy(vols[i].p, vols[i - 3].p, 12);
        trs_set t;
        build(&t, vols, n, 0);
        size_t sb = satc_depth_scratch_bytes(n, SATC_SORT_32);
        size_t sb16 = satc_depth_scratch_bytes(n, SATC_SORT_16);
        sb = sb > sb16 ? sb : sb16;
        void *scr = xcalloc(sb, 1);
        uint32_t *ridx = xcalloc(n, 4), *rs16 = xcalloc(n, 4), *rs32 = xcalloc(n, 4), *rk32 = xcalloc(n, 4);
        float *rdep = xcalloc(n, 4);
        uint16_t *rk16 = xcalloc(n, 2);
        uint32_t *idx = xcalloc(n, 4), *s16 = xcalloc(n, 4), *s32 = xcalloc(n, 4), *k32 = xcalloc(n, 4);
        float *dep = xcalloc(n, 4);
        uint16_t *k16 = xcalloc(n, 2);
        size_t rvis = 0;
        for (int mode = 0; mode < 2; mode++) {
            for (int p = 0; p < np; p++) {
                for (int rr = 0; rr < (p == 0 ? 2 : 1); rr++) {
                    int ref = p == 0 ? 1 - rr : 0; /* the reference first */
                    satc_scalar_use_ref(ref);
                    int first = p == 0 && ref == 1;
                    uint32_t *I = first ? ridx : idx, *S16 = first ? rs16 : s16;
                    uint32_t *S32 = first ? rs32 : s32, *K32 = first ? rk32 : k32;
                    float *Dp = first ? rdep : dep;
                    uint16_t *K16 = first ? rk16 : k16;
                    satc_results out = {NULL, NULL, I, 0};
                    satc_depth_results d = {Dp, K16, K32, S16, SATC_SORT_16, scr, sb};
                    satc_status st = satc_cull_depth_isa(paths[p], &f, &t.b, 0, n, (satc_mode)mode, &out, &d);
                    satc_results out2 = {NULL, NULL, I, 0};
                    satc_depth_results d2 = {NULL, NULL, NULL, S32, SATC_SORT_32, scr, sb};
                    satc_status st2 = satc_cull_depth_isa(paths[p], &f, &t.b, 0, n, (satc_mode)mode, &out2, &d2);
                    satc_scalar_use_ref(0);
                    rb_check(st == SATC_OK && st2 == SATC_OK && out.visible == out2.visible,
                             "cull_depth status %d %d", (int)st, (int)st2);
                    if (first) {
                        rvis = out.visible;
                        continue;
                    }
                    size_t v = out.visible;
                    rb_check(v == rvis && !memcmp(I, ridx, v * 4) && !memcmp(Dp, rdep, v * 4) &&
                                 !memcmp(K16, rk16, v * 2) && !memcmp(K32, rk32, v * 4) &&
                                 !memcmp(S16, rs16, v * 4) && !memcmp(S32, rs32, v * 4),
                             "%s mode %d path %s: depth outputs differ from the reference",
                             scn_cam_name((scn_cam_kind)k), mode, satc_isa_name(paths[p]));
                }
            }
            /* the reference against double: depths, keys, orders */
            size_t v = rvis, bad = 0, nan_bad = 0;
            double lo = INFINITY, hi = -INFINITY;
            for (size_t j = 0; j < v; j++) {
                const trs_vol *o = &vols[ridx[j]];
                double e = 0, mag = 0;
                for (int q = 0; q < 3; q++) {
                    double w = (double)o->p[q] - f.origin[q];
                    e += (double)f.frame[2][q] * w, mag += fabs((double)f.frame[2][q] * w) + fabs(w);
                }
                /* a splat's depth is its position's, whatever its quaternion */
                nan_bad += rdep[j] != rdep[j];
                bad += !(fabs(rdep[j] - e) <= 0x1p-21 * mag + 1e-30);
                lo = rdep[j] < lo ? rdep[j] : lo, hi = rdep[j] > hi ? rdep[j] : hi;
            }
            rb_check(!bad && !nan_bad, "%s: %zu depths off the double value, %zu NaN mismatches",
                     scn_cam_name((scn_cam_kind)k), bad, nan_bad);
            size_t *ord = xcalloc(v, sizeof *ord), keybad = 0;
            uint16_t *ek16 = xcalloc(v, 2);
            for (size_t j = 0; j < v; j++) {
                double d = rdep[j], kk = d != d || d == INFINITY ? 65535
                                         : hi > lo ? floor((d - lo) * (65535.0 / (hi - lo))) : 0;
                ek16[j] = (uint16_t)(kk < 0 ? 0 : kk > 65535 ? 65535 : kk);
                keybad += ek16[j] != rk16[j];
            }
            rb_check(!keybad, "%zu 16-bit keys differ from the double formula", keybad);
            g_dep = rdep, g_idx = ridx, g_k16 = ek16;
            for (size_t j = 0; j < v; j++)
                ord[j] = j;
            qsort(ord, v, sizeof *ord, cmp16);
            size_t o16 = 0, o32 = 0;
            for (size_t j = 0; j < v; j++)
                o16 += rs16[j] != ridx[ord[j]];
            for (size_t j = 0; j < v; j++)
                ord[j] = j;
            qsort(ord, v, sizeof *ord, cmp32);
            for (size_t j = 0; j < v; j++)
                o32 += rs32[j] != ridx[ord[j]];
            rb_check(!o16 && !o32, "%s mode %d: %zu / %zu positions of the sorted orders differ from a "
                     "stable sort in double", scn_cam_name((scn_cam_kind)k), mode, o16, o32);
            /* a second call: satc_sort_depth on the depths gives the same */
            uint32_t *s2 = xcalloc(v, 4);
            rb_check(satc_sort_depth(rdep, ridx, v, SATC_SORT_32, NULL, NULL, s2, scr, sb) == SATC_OK &&
                         !memcmp(s2, rs32, v * 4),
                     "satc_sort_depth equals the fused sort");
            /* indices from 2^24 take the one-pass counting sort: the same permutation */
            uint32_t *bi = xcalloc(v, 4), *s3 = xcalloc(v, 4);
            for (size_t j = 0; j < v; j++)
                bi[j] = ridx[j] + (1u << 24);
            size_t obig = satc_sort_depth(rdep, bi, v, SATC_SORT_16, NULL, NULL, s3, scr, sb) != SATC_OK;
            for (size_t j = 0; j < v; j++)
                obig += s3[j] != rs16[j] + (1u << 24);
            rb_check(!obig, "mode %d: %zu positions of the order differ for indices from 2^24", mode, obig);
            /* the order's set against the double oracle: each index once, every touching splat in it */
            unsigned char *in = xcalloc(n, 1);
            size_t twice = 0, lost = 0;
            for (size_t j = 0; j < v; j++)
                twice += rs16[j] >= n || in[rs16[j]]++;
            for (size_t i = 0; i < n; i++) {
                double c[3], ax[3][3], ext[3];
                if (!quat_rejected(&vols[i], 0) && oracle_box(&vols[i], 0, 0, c, ax, ext))
                    lost += orc_intersects_pp(&cam, c, ext, ax) && !in[i];
            }
            rb_check(!twice && !lost, "%s mode %d: %zu indices out of range or twice, %zu touching "
                     "splats missing from the order", scn_cam_name((scn_cam_kind)k), mode, twice, lost);
            free(s2), free(ord), free(ek16), free(bi), free(s3), free(in);
        }
        /* bad calls write nothing */
        satc_frustum pv;
        const float pl[1][4] = {{0, 0, 1, 0}};
        satc_frustum_from_planes(&pv, pl, 1, 0.0f);
        idx[0] = 0x5a5a5a5au;
        satc_results out = {NULL, NULL, idx, 0};
        satc_depth_results d = {dep, NULL, NULL, s16, SATC_SORT_16, scr, sb};
        rb_check(satc_cull_depth(&pv, &t.b, 0, n, SATC_CONSERVATIVE, &out, &d) == SATC_ERR_FLAGS &&
                     idx[0] == 0x5a5a5a5au, "a plane volume has no depth");
        d.scratch_bytes = 16;
        rb_check(satc_cull_depth(&f, &t.b, 0, n, SATC_CONSERVATIVE, &out, &d) == SATC_ERR_NULL &&
                     idx[0] == 0x5a5a5a5au, "short scratch");
        d.scratch_bytes = sb, d.sort = 7;
        rb_check(satc_cull_depth(&f, &t.b, 0, n, SATC_CONSERVATIVE, &out, &d) == SATC_ERR_FLAGS,
                 "unknown sort");
        out.indices = NULL, d.sort = SATC_SORT_16;
        rb_check(satc_cull_depth(&f, &t.b, 0, n, SATC_CONSERVATIVE, &out, &d) == SATC_ERR_NULL,
                 "depth without indices");
        free(scr), free(ridx), free(rs16), free(rs32), free(rk32), free(rdep), free(rk16);
        free(idx), free(s16), free(s32), free(k32), free(dep), free(k16);
        set_free(&t);
    }
    free(vols);
}

/* The 3DGS PLY vertex read in place (62 floats: x, y, z at 0, log scales
 * at 55, rot_0..3 = w, x, y, z at 58; the other floats NaN, never read)
 * gives the bits and the order of the same floats as packed arrays, on
 * every path and in both modes. */
static void test_ply(void)
{
    rb_rng r = {0x706c79ull};
    scn_rng sr;
    scn_seed(&sr, 0x706c79ull);
    size_t n = quick ? 1000 : 4000;
    trs_vol *vols = xcalloc(n, sizeof *vols);
    float *ply = xcalloc(n * 62, 4), *pos = xcalloc(n * 3, 4), *scl = xcalloc(n * 3, 4);
    float *quat = xcalloc(n * 4, 4);
    satc_isa paths[8];
    int np = fr_paths(paths);
    satc_camera cam;
    satc_frustum f;
    scn_random_camera(&sr, SCN_CAM_SYMMETRIC, &cam);
    make_vols(&r, &sr, &cam, 1, vols, n);
    const float eye[3] = {0, 0, 0}, dir[3] = {0, 0, 1}, up[3] = {0, 1, 0};
    satc_frustum_perspective(&f, eye, dir, up, 1.0f, 1.5f, 0.1f, 50.0f);
    for (size_t i = 0; i < n; i++) { /* about half in view, some across its planes */
        for (int c = 0; c < 3; c++)
            vols[i].p[c] = (float)rb_uniform(&r, c == 2 ? -5 : -20, 40);
        for (int c = 0; c < 3 && i % 7; c++)
            vols[i].s[c] = (float)rb_uniform(&r, -6, 0.5);
    }
    for (size_t i = 0; i < n; i++) {
        float *v = ply + 62 * i;
        for (int c = 0; c < 62; c++)
            v[c] = NAN;
        for (int c = 0; c < 3; c++)
            v[c] = pos[3 * i + c] = vols[i].p[c], v[55 + c] = scl[3 * i + c] = vols[i].s[c];
        for (int c = 0; c < 4; c++) /* w first */
            v[58 + c] = quat[4 * i + c] = vols[i].q[(c + 3) & 3];
    }
    const unsigned fmt = SATC_QUAT_F32 | SATC_QUAT_WXYZ | SATC_TRS_LOG_SCALE;
    satc_batch a = {0}, b = {0};
    a.form = b.form = SATC_FORM_TRS;
    a.trs.position = SATC_VEC3S_AOS(ply, 248), a.trs.scale = SATC_VEC3S_AOS(ply + 55, 248);
    a.trs.rotation = ply + 58, a.trs.rotation_stride = 248, a.trs.format = fmt;
    b.trs.position = SATC_VEC3S_AOS(pos, 12), b.trs.scale = SATC_VEC3S_AOS(scl, 12);
    b.trs.rotation = quat, b.trs.rotation_stride = 16, b.trs.format = fmt;
    size_t sb = satc_depth_scratch_bytes(n, SATC_SORT_16);
    void *scr = xcalloc(sb, 1);
    uint32_t *ia = xcalloc(n, 4), *ib = xcalloc(n, 4), *sa = xcalloc(n, 4), *sbo = xcalloc(n, 4);
    for (int p = 0; p < np; p++) {
        for (int mode = 0; mode < 2; mode++) {
            satc_results ra = {NULL, NULL, ia, 0}, rb = {NULL, NULL, ib, 0};
            satc_depth_results da = {NULL, NULL, NULL, sa, SATC_SORT_16, scr, sb};
            satc_depth_results db = {NULL, NULL, NULL, sbo, SATC_SORT_16, scr, sb};
            satc_status s1 = satc_cull_depth_isa(paths[p], &f, &a, 0, n, (satc_mode)mode, &ra, &da);
            satc_status s2 = satc_cull_depth_isa(paths[p], &f, &b, 0, n, (satc_mode)mode, &rb, &db);
            int same = s1 == SATC_OK && s2 == SATC_OK && ra.visible == rb.visible &&
                       !memcmp(ia, ib, 4 * ra.visible) && !memcmp(sa, sbo, 4 * ra.visible);
            rb_check(same && ra.visible > 0 && ra.visible < n,
                     "PLY records path %s mode %d: %zu / %zu visible, outputs %s", satc_isa_name(paths[p]),
                     mode, ra.visible, rb.visible, same ? "equal" : "differ");
        }
    }
    free(vols), free(ply), free(pos), free(scl), free(quat), free(scr);
    free(ia), free(ib), free(sa), free(sbo);
}

/* A call of a million keys and more (the radix passes) against the same
 * depths with indices from 2^24 (one counting pass) and against the
 * definition: keys not increasing, equal keys in increasing index order.
 * The radix call's order starts a word past a 64-byte line and the
 * scratch of each call 8 or 40 bytes past one: the passes' lines of 64
 * bytes must give the same order wherever the arrays lie. */
static void test_sort_large(void)
{
    size_t n = ((size_t)1 << 20) + 37;
    rb_rng r = {0x736f7274ull};
    float *dep = xcalloc(n, 4);
    uint32_t *ia = xcalloc(n, 4), *ib = xcalloc(n, 4), *sa0 = xcalloc(n + 16, 4), *sb = xcalloc(n, 4);
    uint32_t *sa = (uint32_t *)(void *)(((uintptr_t)sa0 + 63) / 64 * 64 + 4);
    uint16_t *k = xcalloc(n, 2);
    for (size_t j = 0; j < n; j++) { /* ties: depths on a coarse grid, a few NaN */
        dep[j] = (float)(int)rb_uniform(&r, 0, 30000) * 0.01f - 50.0f;
        if (j % 4099 == 0)
            dep[j] = NAN;
        ia[j] = (uint32_t)(3 * j), ib[j] = (uint32_t)(3 * j) + (1u << 24);
    }
    size_t bytes = satc_depth_scratch_bytes(n, SATC_SORT_16);
    unsigned char *scr = xcalloc(bytes + 128, 1);
    unsigned char *sca = (unsigned char *)(((uintptr_t)scr + 63) / 64 * 64 + 8);
    int ok = satc_sort_depth(dep, ia, n, SATC_SORT_16, k, NULL, sa, sca, bytes) == SATC_OK &&
             satc_sort_depth(dep, ib, n, SATC_SORT_16, NULL, NULL, sb, sca + 32, bytes) == SATC_OK;
    size_t diff = 0, bad = 0;
    for (size_t j = 0; ok && j < n; j++) {
        diff += sb[j] != sa[j] + (1u << 24);
        bad += sa[j] % 3 || sa[j] / 3 >= n;
    }
    for (size_t j = 0; ok && !bad && j + 1 < n; j++) {
        uint16_t a = k[sa[j] / 3], b = k[sa[j + 1] / 3];
        bad += a < b || (a == b && sa[j] >= sa[j + 1]);
    }
    rb_check(ok && !diff && !bad, "%zu keys: %zu positions differ between the sorts, %zu out of order",
             n, diff, bad);
    free(dep), free(ia), free(ib), free(sa0), free(sb), free(k), free(scr);
}

/* Splats whose positions hold NaNs of several payloads and infinities
 * (depths NaN, +-Inf): every path writes each NaN depth as
 * SATC_DEPTH_NAN_BITS and the same depth bits; the order is a stable
 * sort by the documented 16-bit key, here recomputed in long double from
 * the depths; enough kept splats for the two-byte bucket sort. */
static void test_depth_nan(void)
{
    size_t n = 300000; /* above the kept count from which the bucket sort runs */
    rb_rng r = {0x6e616e73ull};
    float *rec = xcalloc(n * 8, 4);
    static const uint32_t odd[5] = {0x7fc12345u, 0xffc00000u, 0x7f800001u, 0xff80dead, 0x7f800000u};
    for (size_t i = 0; i < n; i++) {
        float *q = rec + 8 * i;
        q[0] = (float)rb_uniform(&r, -2, 2), q[1] = (float)rb_uniform(&r, -2, 2);
        q[2] = (float)rb_uniform(&r, 1, 20);
        for (int c = 3; c < 6; c++)
            q[c] = (float)rb_uniform(&r, 0.01, 0.1);
        unsigned char *b = (unsigned char *)(q + 6);
        for (int c = 0; c < 8; c++)
            b[c] = (unsigned char)rb_uniform(&r, 0, 255);
        b[4] = 250;
        if (i % 7 == 3) /* a coordinate NaN or infinite: never culled */
            memcpy(&q[i % 3], &odd[i / 7 % 5], 4);
        if (i % 5 == 0 && i >= 10) /* equal depths: the sort must be stable */
            memcpy(q, rec + 8 * (i - 7), 12);
    }
    satc_batch bt;
    memset(&bt, 0, sizeof bt);
    bt.form = SATC_FORM_TRS;
    bt.trs.position = SATC_VEC3S_AOS(rec, 32);
    bt.trs.scale = SATC_VEC3S_AOS(rec + 3, 32);
    bt.trs.rotation = (const unsigned char *)(rec + 7);
    bt.trs.rotation_stride = 32;
    bt.trs.format = SATC_QUAT_U8 | SATC_QUAT_WXYZ;
    satc_frustum f;
    const float eye[3] = {0.3f, -0.2f, 0}, dir[3] = {0.1f, 0.05f, 1}, up[3] = {0, 1, 0};
    rb_check(satc_frustum_look_to(&f, eye, dir, up, 1.2f, 1.5f, 0.1f, 100.0f) == SATC_OK,
             "the NaN test's view");
    satc_isa paths[8];
    int np = fr_paths(paths);
    size_t sb = satc_depth_scratch_bytes(n, SATC_SORT_16);
    void *scr = xcalloc(sb, 1);
    uint32_t *ridx = xcalloc(n, 4), *rs = xcalloc(n, 4), *idx = xcalloc(n, 4), *s = xcalloc(n, 4);
    float *rdep = xcalloc(n, 4), *dep = xcalloc(n, 4);
    for (int mode = 0; mode < 2; mode++) {
        size_t rv = 0;
        for (int p = 0; p < np; p++) {
            satc_results out = {NULL, NULL, p ? idx : ridx, 0};
            satc_depth_results d = {p ? dep : rdep, NULL, NULL, p ? s : rs, SATC_SORT_16, scr, sb};
            satc_status st = satc_cull_depth_isa(paths[p], &f, &bt, 0, n, (satc_mode)mode, &out, &d);
            size_t v = out.visible, badnan = 0, nans = 0;
            float *D = p ? dep : rdep;
            for (size_t j = 0; st == SATC_OK && j < v; j++) {
                uint32_t u;
                memcpy(&u, &D[j], 4);
                nans += D[j] != D[j];
                badnan += D[j] != D[j] && u != SATC_DEPTH_NAN_BITS;
            }
            rb_check(st == SATC_OK && nans > 100 && !badnan,
                     "mode %d path %s: %zu of %zu NaN depths not SATC_DEPTH_NAN_BITS", mode,
                     satc_isa_name(paths[p]), badnan, nans);
            if (!p) {
                rv = v;
                continue;
            }
            rb_check(v == rv && !memcmp(idx, ridx, 4 * v) && !memcmp(dep, rdep, 4 * v) &&
                         !memcmp(s, rs, 4 * v),
                     "mode %d path %s: indices, depths or order differ from %s", mode,
                     satc_isa_name(paths[p]), satc_isa_name(paths[0]));
        }
        /* the order: decreasing key, ties by increasing index, each difference to
         * the least depth in long double */
        long double lo = INFINITY, hi = -INFINITY;
        for (size_t j = 0; j < rv; j++)
            if (isfinite(rdep[j]))
                lo = rdep[j] < lo ? rdep[j] : lo, hi = rdep[j] > hi ? rdep[j] : hi;
        double sc = hi > lo ? 65535.0 / (double)(hi - lo) : 0.0;
        uint16_t *key = xcalloc(n, 2);
        for (size_t j = 0; j < rv; j++) {
            float x = rdep[j];
            /* the product rounded to double once, as the key's definition says */
            volatile double prod = (double)((x - lo) * sc);
            long double t = isnan(x) || x == INFINITY ? 65535.0L : x == -INFINITY ? 0.0L
                                                                          : floorl(prod);
            key[ridx[j]] = (uint16_t)(t > 65535.0L ? 65535.0L : t < 0 ? 0 : t);
        }
        unsigned char *seen = xcalloc(n, 1);
        size_t bad = 0;
        for (size_t j = 0; j < rv; j++)
            bad += rs[j] >= n || seen[rs[j]]++;
        for (size_t j = 0; !bad && j + 1 < rv; j++) {
            uint16_t a = key[rs[j]], b = key[rs[j + 1]];
            bad += a < b || (a == b && rs[j] >= rs[j + 1]);
        }
        rb_check(rv > ((size_t)1 << 18) && !bad, "mode %d: %zu kept, %zu positions out of stable key order", mode,
                 rv, bad);
        free(key), free(seen);
    }
    free(rec), free(scr), free(ridx), free(rs), free(idx), free(s), free(rdep), free(dep);
}

int main(int argc, char **argv)
{
    quick = getenv("SATC_TEST_QUICK") != NULL;
    for (int i = 1; i < argc; i++)
        quick |= !strcmp(argv[i], "--quick");
    test_exp();
    test_descriptors();
    test_volumes();
    test_depth();
    test_sort_large();
    test_depth_nan();
    test_ply();
    return rb_finish();
}
