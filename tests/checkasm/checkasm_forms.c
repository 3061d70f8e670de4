/* checkasm's forms: every box form and layout built from the fields of
 * a batch (derive), each culled against the reference, and the forms_*
 * groups that run other groups' inputs through them (planes too). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "checkasm_depth.h"
#include "config.h"
#include "core/internal.h"
#include "occlusion/occlusion.h"
#include "scalar/cull_scalar.h"
#include "scenes.h"

/* In the forms groups (g_forms), every comparison runs on each form and
 * layout below instead, built from the same fields: odd strides and
 * offsets, matrices of every layout (axes scaled, center as translation,
 * bottom row NaN: never read), local boxes shared, per instance or by
 * mesh id (some ids past the table), spheres of radius extent 0. Special
 * values in the fields reach every form. Whole batches are cut to
 * g_forms_max boxes to bound the time. */
int g_forms;
size_t g_forms_max = 6000; /* 500 under SATC_TEST_QUICK */

/* SATC_TEST_QUICK (emulators, sanitizers): the random batches a quarter
 * of their size and half the rounds of the early-out groups; every
 * camera kind, form, count, tail and special pattern still runs. */
size_t g_div = 1;
size_t sized(size_t n) { return n / g_div; }
int rounds(int n) { return g_div > 1 ? n / 2 : n; }
static const char *const formv_name[NFORMV] = {
    "obb/rec64",         "aabb/soa",          "aabb/rec28",      "minmax/rec24",
    "half/rec48",        "inst/cm44+shared",  "inst/rows34+per", "inst/rows44+mesh",
    "inst/cm43+mesh",    "sph/soa",           "sph/xyzr16",      "obb/soa",
    "trs/splat32",       "trs/soa+log",      "aabb/rec24"};

static float *put_rec(float *rec, size_t stride_floats, size_t i) { return rec + i * stride_floats; }

/* The form v of batch b as a batch of its own in *out (storage in *d). */
void derive(const batch *b, int v, derived *d, batch *out)
{
    static const size_t fl[NFORMV] = {16, 0, 7, 6, 12, 16, 12, 16, 12, 0, 4, 0, 8, 4, 6};
    size_t n = b->n ? b->n : 1;
    *out = *b;
    out->form = formv_name[v];
    memset(d, 0, sizeof *d);
    d->rec = fl[v] ? xmalloc(n * fl[v] * sizeof(float)) : NULL;
    d->lc[0] = 0.25f, d->lc[2] = -0.5f, d->lh[0] = 1, d->lh[1] = 0.5f, d->lh[2] = 2;
    for (int t = 0; t < NTABLE; t++)
        for (int q = 0; q < 6; q++)
            d->table[t][q] = q < 3 ? 0.125f * (float)(t - q) : 0.25f + 0.5f * (float)((t + q) % 4);
    static const float scale[3] = {1.0f, 1.5f, -0.75f}; /* non-uniform, negative */
    for (size_t i = 0; i < b->n; i++) {
        float c[3], A[3][3], e[3];
        for (int k = 0; k < 3; k++) {
            c[k] = b->a[k][i], e[k] = b->a[12 + k][i];
            for (int j = 0; j < 3; j++)
                A[j][k] = b->a[3 + 3 * j + k][i];
        }
        float *r = d->rec ? put_rec(d->rec, fl[v], i) : NULL;
        switch (v) {
        case 0: /* pad, center, axes, extents */
            r[0] = NAN;
            for (int k = 0; k < 3; k++) {
                r[1 + k] = c[k], r[13 + k] = e[k];
                for (int j = 0; j < 3; j++)
                    r[4 + 3 * j + k] = A[j][k];
            }
            break;
        case 2: case 3: case 14:
            for (int k = 0; k < 3; k++) {
                r[k] = v != 3 ? c[k] : c[k] - e[k];
                r[3 + k] = v != 3 ? e[k] : c[k] + e[k];
            }
            if (v == 2)
                r[6] = NAN;
            break;
        case 4:
            for (int k = 0; k < 3; k++) {
                r[k] = c[k];
                for (int j = 0; j < 3; j++)
                    r[3 + 3 * j + k] = e[j] * A[j][k];
            }
            break;
        case 5: case 6: case 7: case 8:
            for (int rr = 0; rr < 3; rr++) {
                for (int cc = 0; cc < 4; cc++) {
                    float m = cc < 3 ? A[cc][rr] * scale[cc] : c[rr];
                    size_t at = v == 5 ? (size_t)(4 * cc + rr) : v == 8 ? (size_t)(3 * cc + rr)
                                                                        : (size_t)(4 * rr + cc);
                    r[at] = m;
                }
            }
            if (v == 5)
                r[3] = r[7] = r[11] = r[15] = NAN;
            else if (v == 7)
                r[12] = r[13] = r[14] = r[15] = NAN;
            break;
        case 10:
            for (int k = 0; k < 3; k++)
                r[k] = c[k];
            r[3] = e[0];
            break;
        case 12: { /* .splat: position, scale, rgba, rotation bytes from the axes */
            unsigned char qb[4];
            for (int k = 0; k < 4; k++) {
                float a = A[1 + k / 3][k % 3];
                uint32_t u;
                memcpy(&u, &a, 4);
                qb[k] = fabsf(a) <= 1.0f ? (unsigned char)(int)(a * 127.0f + 128.0f)
                                         : (unsigned char)(u >> 24);
            }
            for (int k = 0; k < 3; k++)
                r[k] = c[k], r[3 + k] = e[k];
            r[6] = NAN;
            memcpy(&r[7], qb, 4);
            break;
        }
        case 13: /* float quaternions (x, y, z, w) from the axes */
            r[0] = A[0][0], r[1] = A[0][1], r[2] = A[0][2], r[3] = A[1][1];
            break;
        default: break;
        }
    }
    if (v == 7 || v == 8) {
        d->mesh = xmalloc(n * sizeof(uint32_t));
        for (size_t i = 0; i < n; i++) /* one in 8 past the table */
            d->mesh[i] = (uint32_t)((i * 5 + (size_t)v) % (NTABLE + 1));
    }
    satc_batch *o = &out->desc;
    memset(o, 0, sizeof *o);
    const float *const *a = (const float *const *)b->a;
    satc_vec3s zero = {d->zero, d->zero + 1, d->zero + 2, 0};
    switch (v) {
    case 0:
        o->form = SATC_FORM_OBB;
        o->obb.center = SATC_VEC3S_AOS(d->rec + 1, 64), o->obb.extent = SATC_VEC3S_AOS(d->rec + 13, 64);
        for (int j = 0; j < 3; j++)
            o->obb.axis[j] = SATC_VEC3S_AOS(d->rec + 4 + 3 * j, 64);
        break;
    case 1:
        o->form = SATC_FORM_AABB;
        o->aabb.center = SATC_VEC3S_SOA(a[0], a[1], a[2]);
        o->aabb.half = SATC_VEC3S_SOA(a[12], a[13], a[14]);
        break;
    case 2:
        o->form = SATC_FORM_AABB;
        o->aabb.center = SATC_VEC3S_AOS(d->rec, 28), o->aabb.half = SATC_VEC3S_AOS(d->rec + 3, 28);
        break;
    case 14: /* center and half in one 24 B record */
        o->form = SATC_FORM_AABB;
        o->aabb.center = SATC_VEC3S_AOS(d->rec, 24), o->aabb.half = SATC_VEC3S_AOS(d->rec + 3, 24);
        break;
    case 3:
        o->form = SATC_FORM_MINMAX;
        o->minmax.min = SATC_VEC3S_AOS(d->rec, 24), o->minmax.max = SATC_VEC3S_AOS(d->rec + 3, 24);
        break;
    case 4:
        o->form = SATC_FORM_HALF_AXES;
        o->half_axes.center = SATC_VEC3S_AOS(d->rec, 48);
        for (int j = 0; j < 3; j++)
            o->half_axes.axis[j] = SATC_VEC3S_AOS(d->rec + 3 + 3 * j, 48);
        break;
    case 5: case 6: case 7: case 8: {
        static const satc_affine lay[4] = {SATC_AFFINE_4X4_COLUMN_MAJOR, SATC_AFFINE_ROWS, SATC_AFFINE_ROWS, SATC_AFFINE_4X3_COLUMN_MAJOR};
        satc_instances *in = &o->instances;
        o->form = SATC_FORM_INSTANCES;
        in->matrix = d->rec, in->stride = fl[v] * sizeof(float), in->layout = lay[v - 5];
        if (v == 5) {
            in->local_center = (satc_vec3s){d->lc, d->lc + 1, d->lc + 2, 0};
            in->local_half = (satc_vec3s){d->lh, d->lh + 1, d->lh + 2, 0};
        } else if (v == 6) {
            in->local_center = zero;
            in->local_half = SATC_VEC3S_SOA(a[12], a[13], a[14]);
        } else {
            in->local_center = SATC_VEC3S_AOS(&d->table[0][0], sizeof d->table[0]);
            in->local_half = SATC_VEC3S_AOS(&d->table[0][3], sizeof d->table[0]);
            in->mesh = d->mesh, in->mesh_stride = 4, in->mesh_count = NTABLE;
        }
        break;
    }
    case 9:
        o->form = SATC_FORM_SPHERES;
        o->spheres.center = SATC_VEC3S_SOA(a[0], a[1], a[2]);
        o->spheres.radius = (satc_floats){a[12], sizeof(float)};
        break;
    case 10:
        o->form = SATC_FORM_SPHERES;
        o->spheres.center = SATC_VEC3S_AOS(d->rec, 16);
        o->spheres.radius = (satc_floats){d->rec + 3, 16};
        break;
    case 12:
        o->form = SATC_FORM_TRS;
        o->trs.position = SATC_VEC3S_AOS(d->rec, 32), o->trs.scale = SATC_VEC3S_AOS(d->rec + 3, 32);
        o->trs.rotation = d->rec + 7, o->trs.rotation_stride = 32;
        o->trs.format = SATC_QUAT_U8 | SATC_QUAT_WXYZ;
        break;
    case 13: /* log scales from the extents' fields: special values reach exp */
        o->form = SATC_FORM_TRS;
        o->trs.position = SATC_VEC3S_SOA(a[0], a[1], a[2]);
        o->trs.scale = SATC_VEC3S_SOA(a[12], a[13], a[14]);
        o->trs.format = SATC_TRS_LOG_SCALE;
        o->trs.rotation = d->rec, o->trs.rotation_stride = 16;
        d->lb.center = (satc_vec3s){d->lc, d->lc + 1, d->lc + 2, 0};
        d->lb.half = (satc_vec3s){d->lh, d->lh + 1, d->lh + 2, 0};
        o->trs.local = &d->lb;
        break;
    default:
        *o = b->desc; /* the Eberly arrays themselves */
        break;
    }
}

void derived_free(derived *d)
{
    free(d->rec);
    free(d->mesh);
}

/* compare_one, or in the forms groups compare_one on every form. */
void compare_case(const char *what, const satc_frustum *f, const batch *b, size_t first,
                         size_t count, int kernels)
{
    if (!g_forms) {
        compare_one(what, f, b, first, count, kernels);
        return;
    }
    if (count > g_forms_max)
        count = g_forms_max;
    for (int v = 0; v < NFORMV; v++) {
        derived d;
        batch fb;
        derive(b, v, &d, &fb);
        compare_one(what, f, &fb, first, count, kernels);
        derived_free(&d);
    }
}

/* ------------------------------------------------------------------ */
/* Inputs                                                               */
/* ------------------------------------------------------------------ */

/* The forms groups: inputs of other groups, culled in every form. */
static void in_forms(void (*g)(scn_rng *), scn_rng *r)
{
    g_forms = 1;
    g(r);
    g_forms = 0;
}
void group_forms_special(scn_rng *r) { in_forms(group_special, r); }
void group_forms_bits(scn_rng *r) { in_forms(group_bits, r); }
void group_forms_touching(scn_rng *r) { in_forms(group_touching, r); }
void group_forms_overflow(scn_rng *r) { in_forms(group_overflow, r); }
void group_forms_flips(scn_rng *r) { in_forms(group_flips, r); }

/* Tails in every form: counts 0..70 at first offsets 0..70, pointers
 * offset by 0..3 floats, kernels too; boundary boxes with specials. */
static void forms_tails(scn_rng *r)
{
    satc_camera cam[4];
    satc_frustum fr[4];
    random_cameras(r, cam, fr);
    for (int k = 0; k < 4; k++) {
        scn_scene s;
        make_boundary(&s, &cam[k], 2000, scn_next(r));
        poke_every(r, &s, 5);
        for (size_t count = 0; count <= 70; count++) {
            size_t first = (count * 13 + (size_t)k * 29) % 71;
            compare_slice("tail", &fr[k], &s, rnd_below(r, s.count - first - count), first, count,
                          (unsigned)(count % 4));
        }
        scn_free(&s);
    }
}
void group_forms_tails(scn_rng *r) { in_forms(forms_tails, r); }

/* Plane volumes (SATC_FRUSTUM_PLANES): each random camera's frustum as 6
 * planes (5, unbounded, without its far plane; exact mode is then a status
 * on every path), a margin, and boundary boxes with special values. */
void group_planes(scn_rng *r)
{
    satc_camera cam[4];
    satc_frustum fr[4];
    random_cameras(r, cam, fr);
    for (int k = 0; k < 4; k++) {
        float pl[6][4];
        int n6 = scn_frustum_planes(&fr[k], pl);
        scn_scene s;
        make_boundary(&s, &cam[k], sized(6000), scn_next(r));
        for (size_t i = 0; i < s.count; i += 7)
            field_ptr_w(&s.arrays, (int)rnd_below(r, NF))[i] = special_value(r);
        batch b;
        batch_from(&b, &s.boxes, s.count, (unsigned)k % 4);
        for (int v = 0; v < 3; v++) {
            satc_frustum pv;
            size_t np = v == 1 ? 5 : (size_t)n6;
            if (satc_frustum_from_planes(&pv, (const float(*)[4])pl, np, v == 2 ? 0.5f : 0.0f) != SATC_OK) {
                fprintf(stderr, "checkasm: camera %d planes rejected\n", k);
                exit(2);
            }
            compare_case("planes", &pv, &b, 0, b.n, v == 0);
            compare_subranges(&pv, &b, r, 1);
        }
        batch_free(&b);
        scn_free(&s);
    }
}
void group_forms_planes(scn_rng *r) { in_forms(group_planes, r); }
