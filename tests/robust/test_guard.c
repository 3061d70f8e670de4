/*
 * Guard pages (nothing is read past the last box, nothing is
 * written outside the caller's output range). For every runnable path,
 * every count 0..70 and a few larger ones, both modes, three frustum
 * kinds and every output form:
 *  - layout "end": each of the 15 input arrays and each output ends
 *    exactly at a PROT_NONE page (first = 0);
 *  - layout "start": each array's element `first` (odd float offsets) is
 *    the first readable byte after a PROT_NONE page, and each output
 *    starts right after one; elements before `first` are unreadable.
 * A fault ends the program with the case printed. Results must equal the
 * scalar path's, bit for bit, and bytes outside the outputs stay intact.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "robust_util.h"

enum { FORM_BITMASK = 1, FORM_CLASSES = 2, FORM_INDICES = 4 };
static const unsigned forms[] = {0, FORM_BITMASK, FORM_CLASSES, FORM_INDICES,
                                 FORM_BITMASK | FORM_CLASSES | FORM_INDICES};
static const size_t firsts[] = {1, 3, 5, 7, 13};

/* Guarded copies of the 15 arrays and the three outputs. */
typedef struct layout {
    rb_guard in[15];
    rb_guard out[3];
    satc_boxes boxes; /* base pointers: element `first` is the placed one */
    uint8_t *bitmask, *classes;
    uint32_t *indices;
} layout;

static int layout_make(layout *L, const rb_batch *src, size_t count, size_t first, int at_end)
{
    memset(L, 0, sizeof *L);
    size_t bytes = count * sizeof(float);
    for (int k = 0; k < 15; k++) {
        if (rb_guard_alloc(&L->in[k], bytes, at_end))
            return -1;
        float *p = rb_guard_place(&L->in[k], bytes);
        if (count)
            memcpy(p, rb_field(&src->a, k, 0), bytes);
        /* Base pointer so that p is element `first` (only [first,
         * first + count) is ever dereferenced). */
        const float *base = (const float *)((uintptr_t)p - first * sizeof(float));
        if (k < 3)
            L->boxes.center[k] = base;
        else if (k < 12)
            L->boxes.axis[(k - 3) / 3][(k - 3) % 3] = base;
        else
            L->boxes.extent[k - 12] = base;
    }
    size_t sizes[3] = {(count + 7) / 8, count, count * sizeof(uint32_t)};
    for (int k = 0; k < 3; k++)
        if (rb_guard_alloc(&L->out[k], sizes[k], at_end))
            return -1;
    L->bitmask = rb_guard_place(&L->out[0], sizes[0]);
    L->classes = rb_guard_place(&L->out[1], sizes[1]);
    L->indices = rb_guard_place(&L->out[2], sizes[2]);
    return 0;
}

static void layout_free(layout *L)
{
    for (int k = 0; k < 15; k++)
        rb_guard_free(&L->in[k]);
    for (int k = 0; k < 3; k++)
        rb_guard_free(&L->out[k]);
}

/* Sentinel fill of a whole readable region, so stray writes inside the
 * mapping (but outside the output) show up too. */
static void fill(rb_guard *g) { memset(g->lo, 0xA5, (size_t)(g->hi - g->lo)); }

static int untouched(const rb_guard *g, const void *obj, size_t bytes)
{
    const unsigned char *o = obj;
    for (const unsigned char *p = g->lo; p < g->hi; p++)
        if ((p < o || p >= o + bytes) && *p != 0xA5)
            return 0;
    return 1;
}

/* Boxes around the camera with a few non-finite ones sprinkled in. */
static void make_boxes(rb_batch *b, size_t count, const satc_camera *cam, rb_rng *r)
{
    for (size_t i = 0; i < count; i++) {
        satc_obb box;
        rb_box_near(r, cam, &box);
        rb_batch_set(b, i, &box);
        if (rb_next(r) % 29 == 0)
            *rb_field(&b->a, (int)(rb_next(r) % 15), i) = NAN;
    }
}

int main(void)
{
    rb_catch_faults();
    satc_isa paths[8];
    int npaths = rb_paths(paths);
    printf("paths:");
    for (int p = 0; p < npaths; p++)
        printf(" %s", satc_isa_name(paths[p]));
    printf("\n");

    rb_rng rng = {0x6775617264ull};
    satc_camera cams[3];
    satc_frustum fr[3];
    const char *fr_name[3] = {"perspective", "infinite", "orthographic"};
    float eye[3] = {10.0f, -4.0f, 2.5f};
    rb_camera_persp(&cams[0], &rng, eye, 0.5f, 200.0f);
    rb_camera_persp(&cams[1], &rng, eye, 0.5f, INFINITY);
    rb_camera_ortho(&cams[2], &rng, eye, 40.0f, 25.0f, -5.0f, 120.0f);
    for (int c = 0; c < 3; c++)
        if (!rb_check(satc_frustum_from_camera(&fr[c], &cams[c]) == SATC_OK, "build %s", fr_name[c]))
            return rb_finish();

    size_t counts[80];
    int ncounts = 0;
    for (size_t c = 0; c <= 70; c++)
        counts[ncounts++] = c;
    counts[ncounts++] = 255, counts[ncounts++] = 256, counts[ncounts++] = 257;
    counts[ncounts++] = 1000;

    long calls = 0;
    for (int ci = 0; ci < ncounts; ci++) {
        size_t count = counts[ci];
        for (int lay = 0; lay < 2; lay++) {
            int at_end = lay == 0;
            size_t first = at_end ? 0 : firsts[ci % 5];
            int c = ci % 3; /* a different frustum per count keeps it fast */
            for (int cc = 0; cc < 3; cc++) {
                if (count > 70 && cc != c)
                    continue;
                rb_batch src;
                if (rb_batch_alloc(&src, count ? count : 1))
                    return 2;
                make_boxes(&src, count, &cams[cc], &rng);
                layout L;
                if (layout_make(&L, &src, count, first, at_end)) {
                    rb_check(0, "mmap failed");
                    return rb_finish();
                }
                /* The reference reads the heap copy through its own base. */
                satc_boxes heap = src.v;
                for (int k = 0; k < 3; k++) {
                    heap.center[k] -= first;
                    heap.extent[k] -= first;
                    for (int a = 0; a < 3; a++)
                        heap.axis[k][a] -= first;
                }
                for (int mode = 0; mode < 2; mode++) {
                    rb_out ref;
                    rb_out_alloc(&ref, count);
                    rb_reference(&fr[cc], &heap, first, count, (satc_mode)mode, &ref);
                    rb_check(rb_consistent(&ref, first, count),
                             "reference forms disagree: count %zu %s mode %d", count,
                             fr_name[cc], mode);
                    for (int p = 0; p < npaths; p++) {
                        for (size_t fi = 0; fi < sizeof forms / sizeof forms[0]; fi++) {
                            unsigned form = forms[fi];
                            for (int k = 0; k < 3; k++)
                                fill(&L.out[k]);
                            satc_results res = {form & FORM_BITMASK ? L.bitmask : NULL,
                                                form & FORM_CLASSES ? L.classes : NULL,
                                                form & FORM_INDICES ? L.indices : NULL, 12345};
                            rb_set_context("%s count %zu first %zu layout %s %s mode %d form %u",
                                           satc_isa_name(paths[p]), count, first,
                                           at_end ? "end" : "start", fr_name[cc], mode, form);
                            satc_status st = satc_cull_batch_isa(paths[p], &fr[cc], &L.boxes, first,
                                                                 count, (satc_mode)mode, &res);
                            calls++;
                            int ok = st == SATC_OK && res.visible == ref.visible;
                            size_t nb = (count + 7) / 8;
                            if (ok && (form & FORM_BITMASK))
                                ok = !count || !memcmp(L.bitmask, ref.bitmask, nb);
                            if (ok && (form & FORM_CLASSES))
                                ok = !count || !memcmp(L.classes, ref.classes, count);
                            if (ok && (form & FORM_INDICES))
                                ok = !ref.visible ||
                                     !memcmp(L.indices, ref.indices, ref.visible * sizeof(uint32_t));
                            /* Nothing written outside the outputs' ranges (indices:
                             * count entries of room), and an unwanted output is not
                             * written at all. */
                            ok = ok &&
                                 untouched(&L.out[0], L.bitmask, form & FORM_BITMASK ? nb : 0) &&
                                 untouched(&L.out[1], L.classes, form & FORM_CLASSES ? count : 0) &&
                                 untouched(&L.out[2], L.indices,
                                           form & FORM_INDICES ? count * sizeof(uint32_t) : 0);
                            rb_check(ok, "%s count %zu first %zu layout %s %s mode %d form %u: "
                                         "status %d visible %zu (scalar %zu)",
                                     satc_isa_name(paths[p]), count, first,
                                     at_end ? "end" : "start", fr_name[cc], mode, form, (int)st,
                                     res.visible, ref.visible);
                        }
                    }
                    rb_out_free(&ref);
                }
                layout_free(&L);
                rb_batch_free(&src);
            }
        }
    }
    printf("%ld guarded calls over %d counts\n", calls, ncounts);
    return rb_finish();
}
