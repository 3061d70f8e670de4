/*
 * Non-finite and huge boxes on every path (satc.h: "a box with any NaN or
 * +-Inf field, or whose camera-relative magnitude S reaches
 * SATC_MAX_MAGNITUDE, is never culled: it is reported visible, class
 * SATC_INTERSECTING, in every mode and on every path").
 *
 * For each runnable path, frustum kind and mode, each of the 15 fields
 * gets NaN (quiet, negative, signalling pattern), +Inf or -Inf in one box
 * at each position of a 21-box batch (every lane of 4- and 8-wide
 * registers and the scalar tail). The bad box must be SATC_INTERSECTING,
 * its neighbours must keep their clean-batch results (no lane bleeds into
 * another), and everything must equal the scalar path.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "robust_util.h"

#define N 21

static float from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Runs one path with all forms; returns the status. */
static satc_status cull(satc_isa isa, const satc_frustum *f, const satc_boxes *b, size_t count,
                        satc_mode mode, rb_out *o)
{
    satc_results res = {o->bitmask, o->classes, o->indices, 0};
    satc_status st = satc_cull_batch_isa(isa, f, b, 0, count, mode, &res);
    o->visible = res.visible;
    return st;
}

static int same(const rb_out *a, const rb_out *b, size_t count)
{
    return a->visible == b->visible && !memcmp(a->bitmask, b->bitmask, (count + 7) / 8) &&
           !memcmp(a->classes, b->classes, count) &&
           !memcmp(a->indices, b->indices, a->visible * sizeof(uint32_t));
}

int main(void)
{
    satc_isa paths[8];
    int npaths = rb_paths(paths);
    rb_rng rng = {0x6e6f6e66696eull};
    float eye[3] = {1.0f, 2.0f, 3.0f};
    satc_camera cams[3];
    const char *fr_name[3] = {"perspective", "infinite", "orthographic"};
    rb_camera_persp(&cams[0], &rng, eye, 0.2f, 150.0f);
    rb_camera_persp(&cams[1], &rng, eye, 0.2f, INFINITY);
    rb_camera_ortho(&cams[2], &rng, eye, 30.0f, 20.0f, 0.0f, 90.0f);
    const float bad[5] = {NAN, from_bits(0xffc00000u), from_bits(0x7f800001u), INFINITY, -INFINITY};
    const char *bad_name[5] = {"NaN", "-NaN", "sNaN", "+Inf", "-Inf"};

    long cases = 0;
    for (int c = 0; c < 3; c++) {
        satc_frustum f;
        if (!rb_check(satc_frustum_from_camera(&f, &cams[c]) == SATC_OK, "build %s", fr_name[c]))
            continue;
        rb_batch b;
        if (rb_batch_alloc(&b, N))
            return 2;
        rb_fill_near(&b, N, &rng, &cams[c]);
        for (int mode = 0; mode < 2; mode++) {
            rb_out clean, ref, got;
            rb_out_alloc(&clean, N);
            rb_out_alloc(&ref, N);
            rb_out_alloc(&got, N);
            rb_reference(&f, &b.v, 0, N, (satc_mode)mode, &clean);
            for (int k = 0; k < 15; k++) {
                for (int v = 0; v < 5; v++) {
                    for (size_t pos = 0; pos < 16; pos++) {
                        float *field = rb_field(&b.a, k, pos);
                        float keep = *field;
                        *field = bad[v];
                        rb_reference(&f, &b.v, 0, N, (satc_mode)mode, &ref);
                        int ok = ref.classes[pos] == SATC_INTERSECTING;
                        for (size_t j = 0; j < N && ok; j++)
                            ok = j == pos || ref.classes[j] == clean.classes[j];
                        rb_check(ok, "scalar: %s %s in %s of box %zu mode %d: class %u or a "
                                     "neighbour changed",
                                 fr_name[c], bad_name[v], rb_field_name(k), pos, mode,
                                 ref.classes[pos]);
                        for (int p = 1; p < npaths; p++) {
                            satc_status st = cull(paths[p], &f, &b.v, N, (satc_mode)mode, &got);
                            rb_check(st == SATC_OK && same(&got, &ref, N),
                                     "%s differs from scalar: %s %s in %s of box %zu mode %d",
                                     satc_isa_name(paths[p]), fr_name[c], bad_name[v],
                                     rb_field_name(k), pos, mode);
                        }
                        cases++;
                        *field = keep;
                    }
                }
            }
            /* Every field of every box non-finite at once. */
            for (int k = 0; k < 15; k++)
                for (size_t i = 0; i < N; i++)
                    *rb_field(&b.a, k, i) = bad[(k + i) % 5];
            for (int p = 0; p < npaths; p++) {
                satc_status st = cull(paths[p], &f, &b.v, N, (satc_mode)mode, &got);
                int ok = st == SATC_OK && got.visible == N;
                for (size_t i = 0; i < N && ok; i++)
                    ok = got.classes[i] == SATC_INTERSECTING;
                rb_check(ok, "%s: all-bad batch not all intersecting (%s mode %d)",
                         satc_isa_name(paths[p]), fr_name[c], mode);
            }
            /* Refill for the next mode. */
            rb_rng again = {0x6e6f6e66696eull + (uint64_t)c};
            rb_fill_near(&b, N, &again, &cams[c]);
            rb_out_free(&clean);
            rb_out_free(&ref);
            rb_out_free(&got);
        }

        /* Magnitude: S at or beyond SATC_MAX_MAGNITUDE is never culled; a
         * box far out but below it, clearly outside, is culled. */
        const float *D = cams[c].dir;
        struct {
            double dist, ext;
            int want; /* 1: must be INTERSECTING, 0: must be OUTSIDE */
            const char *what;
        } mag[] = {
            {-3e19, 1.0, 1, "center 3e19 behind"},
            {-1e38, 1.0, 1, "center 1e38 behind"},
            {-1e5, 3e38, 1, "extent 3e38"},
            {-1e5, 1e12, 1, "extents summing past 2^40"},
            {-2e12, 1.0, 1, "center 2e12 behind (past 2^40)"},
            {-3.4028234e38, 3.4028234e38, 1, "FLT_MAX center and extent (S overflows)"},
            {-1e11, 1.0, 0, "center 1e11 behind"},
            {-1e9, 1e3, 0, "center 1e9 behind"},
        };
        rb_batch m;
        size_t nm = sizeof mag / sizeof mag[0];
        if (rb_batch_alloc(&m, nm))
            return 2;
        for (size_t i = 0; i < nm; i++) {
            satc_obb box;
            memset(&box, 0, sizeof box);
            for (int k = 0; k < 3; k++) {
                box.center[k] = (float)(cams[c].origin[k] + mag[i].dist * D[k]);
                box.axis[k][k] = 1.0f;
                box.extent[k] = (float)(k == 0 ? mag[i].ext : 1.0);
            }
            if (mag[i].ext == 1e19)
                box.extent[1] = box.extent[2] = 1e19f;
            rb_batch_set(&m, i, &box);
        }
        for (int p = 0; p < npaths; p++) {
            for (int mode = 0; mode < 2; mode++) {
                rb_out o;
                rb_out_alloc(&o, nm);
                satc_status st = cull(paths[p], &f, &m.v, nm, (satc_mode)mode, &o);
                rb_check(st == SATC_OK, "%s magnitude status %d", satc_isa_name(paths[p]), (int)st);
                for (size_t i = 0; i < nm; i++)
                    rb_check(o.classes[i] == (mag[i].want ? SATC_INTERSECTING : SATC_OUTSIDE),
                             "%s %s mode %d: %s gives class %u", satc_isa_name(paths[p]),
                             fr_name[c], mode, mag[i].what, o.classes[i]);
                rb_out_free(&o);
            }
        }
        rb_batch_free(&m);
        rb_batch_free(&b);
    }
    printf("%ld single-field non-finite cases on %d paths\n", cases, npaths);
    return rb_finish();
}
