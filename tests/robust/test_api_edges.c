/*
 * Argument edges of satc_cull_batch_isa on every runnable path (and of
 * satc_cull_batch): NULL pointers, count 0, counts near SIZE_MAX, indices
 * near UINT32_MAX, unknown modes and unbuilt frusta. On error the status
 * is the documented one and nothing is written (outputs and `visible`
 * keep their sentinel values). tests/core/test_contract.c covers these
 * on the dispatched path and the ISA argument errors; this repeats the
 * edges on each path, since every path has its own kernels behind the
 * shared checks.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "robust_util.h"

#define N 24
#define SENT 0xA5

typedef struct outs {
    uint8_t bitmask[8], classes[N + 8];
    uint32_t indices[N + 8];
    satc_results res;
} outs;

static void outs_reset(outs *o, int bm, int cl, int ix)
{
    memset(o->bitmask, SENT, sizeof o->bitmask);
    memset(o->classes, SENT, sizeof o->classes);
    memset(o->indices, SENT, sizeof o->indices);
    o->res.bitmask = bm ? o->bitmask : NULL;
    o->res.classes = cl ? o->classes : NULL;
    o->res.indices = ix ? o->indices : NULL;
    o->res.visible = 777;
}

static int untouched(const outs *o)
{
    for (size_t k = 0; k < sizeof o->bitmask; k++)
        if (o->bitmask[k] != SENT)
            return 0;
    for (size_t k = 0; k < sizeof o->classes; k++)
        if (o->classes[k] != SENT)
            return 0;
    const uint8_t *ix = (const uint8_t *)o->indices;
    for (size_t k = 0; k < sizeof o->indices; k++)
        if (ix[k] != SENT)
            return 0;
    return o->res.visible == 777;
}

/* Path 0 stands for satc_cull_batch. */
static satc_status call(satc_isa isa, const satc_frustum *f, const satc_boxes *b, size_t first,
                        size_t count, satc_mode mode, satc_results *r)
{
    return isa ? satc_cull_batch_isa(isa, f, b, first, count, mode, r)
               : satc_cull_batch(f, b, first, count, mode, r);
}

static const char *pname(satc_isa isa) { return isa ? satc_isa_name(isa) : "dispatched"; }

/* The boxes' base pointers moved back by `first` elements, so element
 * `first` is box 0 (reaches indices near UINT32_MAX without memory). */
static satc_boxes shifted(const satc_boxes *b, size_t first)
{
    satc_boxes s = *b;
    for (int k = 0; k < 3; k++) {
        s.center[k] = (const float *)((uintptr_t)s.center[k] - first * sizeof(float));
        s.extent[k] = (const float *)((uintptr_t)s.extent[k] - first * sizeof(float));
        for (int a = 0; a < 3; a++)
            s.axis[k][a] = (const float *)((uintptr_t)s.axis[k][a] - first * sizeof(float));
    }
    return s;
}

int main(void)
{
    satc_isa paths[9];
    int npaths = rb_paths(paths + 1) + 1;
    paths[0] = (satc_isa)0;
    rb_rng rng = {0x6564676573ull};
    float eye[3] = {0, 0, 0};
    satc_camera cam;
    rb_camera_persp(&cam, &rng, eye, 0.1f, 50.0f);
    satc_frustum f;
    if (!rb_check(satc_frustum_from_camera(&f, &cam) == SATC_OK, "frustum"))
        return rb_finish();
    rb_batch b;
    if (rb_batch_alloc(&b, N))
        return 2;
    rb_fill_near(&b, N, &rng, &cam);
    rb_out ref;
    rb_out_alloc(&ref, N);
    satc_frustum unbuilt;
    memset(&unbuilt, 0, sizeof unbuilt);
    outs o;

    for (int p = 0; p < npaths; p++) {
        satc_isa isa = paths[p];
        const char *nm = pname(isa);
        for (int mode = 0; mode < 2; mode++) {
            satc_mode md = (satc_mode)mode;
            /* NULL frustum, boxes, results. */
            outs_reset(&o, 1, 1, 1);
            rb_check(call(isa, NULL, &b.v, 0, N, md, &o.res) == SATC_ERR_NULL && untouched(&o),
                     "%s: NULL frustum", nm);
            outs_reset(&o, 1, 1, 1);
            rb_check(call(isa, &f, NULL, 0, N, md, &o.res) == SATC_ERR_NULL && untouched(&o),
                     "%s: NULL boxes", nm);
            rb_check(call(isa, &f, &b.v, 0, N, md, NULL) == SATC_ERR_NULL, "%s: NULL results", nm);
            /* Each of the 15 arrays NULL with count > 0; with count 0 fine. */
            for (int k = 0; k < 15; k++) {
                satc_boxes v = b.v;
                if (k < 3)
                    v.center[k] = NULL;
                else if (k < 12)
                    v.axis[(k - 3) / 3][(k - 3) % 3] = NULL;
                else
                    v.extent[k - 12] = NULL;
                outs_reset(&o, 1, 1, 1);
                rb_check(call(isa, &f, &v, 0, N, md, &o.res) == SATC_ERR_NULL && untouched(&o),
                         "%s mode %d: NULL %s array", nm, mode, rb_field_name(k));
                outs_reset(&o, 1, 1, 1);
                rb_check(call(isa, &f, &v, 5, 0, md, &o.res) == SATC_OK && o.res.visible == 0,
                         "%s mode %d: NULL %s array with count 0", nm, mode, rb_field_name(k));
            }
            /* Count 0: OK, visible 0, no output byte written. */
            outs_reset(&o, 1, 1, 1);
            satc_status st = call(isa, &f, &b.v, 3, 0, md, &o.res);
            o.res.visible = o.res.visible == 0 ? 777 : 0;
            rb_check(st == SATC_OK && untouched(&o), "%s mode %d: count 0", nm, mode);
            /* All outputs NULL: OK, visible still counted. */
            rb_reference(&f, &b.v, 0, N, md, &ref);
            outs_reset(&o, 0, 0, 0);
            rb_check(call(isa, &f, &b.v, 0, N, md, &o.res) == SATC_OK && o.res.visible == ref.visible,
                     "%s mode %d: no outputs", nm, mode);
            /* Unknown mode, unbuilt frustum. */
            outs_reset(&o, 1, 1, 1);
            rb_check(call(isa, &f, &b.v, 0, N, (satc_mode)2, &o.res) == SATC_ERR_FLAGS && untouched(&o),
                     "%s: mode 2", nm);
            outs_reset(&o, 1, 1, 1);
            rb_check(call(isa, &f, &b.v, 0, N, (satc_mode)-1, &o.res) == SATC_ERR_FLAGS && untouched(&o),
                     "%s: mode -1", nm);
            outs_reset(&o, 1, 1, 1);
            rb_check(call(isa, &unbuilt, &b.v, 0, N, md, &o.res) == SATC_ERR_FLAGS && untouched(&o),
                     "%s mode %d: zeroed frustum", nm, mode);
            /* first + count overflows. */
            const size_t big[][2] = {{1, SIZE_MAX}, {SIZE_MAX, 1}, {SIZE_MAX / 2 + 1, SIZE_MAX / 2 + 1},
                                     {SIZE_MAX - 3, 4}, {2, SIZE_MAX - 1}};
            for (size_t k = 0; k < sizeof big / sizeof big[0]; k++) {
                for (int form = 0; form < 2; form++) {
                    outs_reset(&o, form, form, form);
                    rb_check(call(isa, &f, &b.v, big[k][0], big[k][1], md, &o.res) == SATC_ERR_RANGE &&
                                 untouched(&o),
                             "%s mode %d: first %zu count %zu must be SATC_ERR_RANGE", nm, mode,
                             big[k][0], big[k][1]);
                }
            }
            /* first + count == SIZE_MAX exactly does not overflow; with
             * count 0 there is nothing to read. */
            outs_reset(&o, 1, 1, 1);
            st = call(isa, &f, &b.v, SIZE_MAX, 0, md, &o.res);
            rb_check(st == SATC_OK && o.res.visible == 0, "%s: first SIZE_MAX count 0 -> %d", nm,
                     (int)st);
#if SIZE_MAX > UINT32_MAX
            /* Indices up to UINT32_MAX are representable: boxes
             * [UINT32_MAX - N + 1, UINT32_MAX] give the reference's indices
             * shifted. One more and indices are refused, while the other
             * forms still work. */
            size_t first = (size_t)UINT32_MAX - N + 1;
            satc_boxes hi = shifted(&b.v, first);
            outs_reset(&o, 1, 1, 1);
            st = call(isa, &f, &hi, first, N, md, &o.res);
            rb_out r2;
            rb_out_alloc(&r2, N);
            rb_reference(&f, &b.v, 0, N, md, &r2);
            int ok = st == SATC_OK && o.res.visible == r2.visible &&
                     !memcmp(o.classes, r2.classes, N) && !memcmp(o.bitmask, r2.bitmask, (N + 7) / 8);
            for (size_t k = 0; ok && k < r2.visible; k++)
                ok = o.indices[k] == r2.indices[k] + (uint32_t)first;
            rb_check(ok, "%s mode %d: indices ending at UINT32_MAX (status %d)", nm, mode, (int)st);
            satc_boxes hi1 = shifted(&b.v, first + 1);
            outs_reset(&o, 1, 1, 1);
            rb_check(call(isa, &f, &hi1, first + 1, N, md, &o.res) == SATC_ERR_RANGE && untouched(&o),
                     "%s mode %d: indices past UINT32_MAX must be SATC_ERR_RANGE", nm, mode);
            outs_reset(&o, 1, 1, 0);
            st = call(isa, &f, &hi1, first + 1, N, md, &o.res);
            rb_check(st == SATC_OK && o.res.visible == r2.visible && !memcmp(o.classes, r2.classes, N),
                     "%s mode %d: boxes past UINT32_MAX without indices (status %d)", nm, mode,
                     (int)st);
            rb_out_free(&r2);
#endif
        }
    }

    printf("argument edges checked on %d paths (dispatched included)\n", npaths);
    rb_out_free(&ref);
    rb_batch_free(&b);
    return rb_finish();
}
