/* satc_cull_depth on a path against the scalar reference: the fused cull
 * and depth pass and both sorts, bit for bit (checkasm_depth.h). */
#include <stdlib.h>
#include <string.h>

#include "checkasm_depth.h"
#include "passes/passes.h"
#include "scalar/cull_scalar.h"

typedef struct dout {
    uint32_t *idx, *s16, *s32, *k32;
    float *dep;
    uint16_t *k16;
    void *scr;
    size_t sb, visible, visible32;
    satc_status st, st32;
} dout;

static int dout_init(dout *o, size_t count)
{
    size_t n = count ? count : 1, a = satc_depth_scratch_bytes(n, SATC_SORT_16);
    size_t b = satc_depth_scratch_bytes(n, SATC_SORT_32);
    memset(o, 0, sizeof *o);
    o->sb = a > b ? a : b;
    o->idx = calloc(n, 4), o->s16 = calloc(n, 4), o->s32 = calloc(n, 4), o->k32 = calloc(n, 4);
    o->dep = calloc(n, 4), o->k16 = calloc(n, 2), o->scr = calloc(o->sb, 1);
    return o->idx && o->s16 && o->s32 && o->k32 && o->dep && o->k16 && o->scr;
}

static void dout_free(dout *o)
{
    free(o->idx), free(o->s16), free(o->s32), free(o->k32), free(o->dep), free(o->k16);
    free(o->scr);
}

/* k NULL: the scalar reference through the API. */
static satc_status call(const satc_kernels *k, const satc_frustum *f, const satc_batch *b,
                        size_t first, size_t count, int mode, satc_results *r,
                        satc_depth_results *d)
{
    if (!k)
        return satc_cull_depth_isa(SATC_ISA_SCALAR, f, b, first, count, (satc_mode)mode, r, d);
    return satc_cull_depth_k(k, f, b, first, count, (satc_mode)mode, r, d);
}

static void run(const satc_kernels *k, const satc_frustum *f, const satc_batch *b, size_t first,
                size_t count, int mode, dout *o)
{
    satc_results r = {NULL, NULL, o->idx, 0};
    satc_depth_results d = {o->dep, o->k16, o->k32, o->s16, SATC_SORT_16, o->scr, o->sb};
    o->st = call(k, f, b, first, count, mode, &r, &d);
    o->visible = r.visible;
    satc_results r2 = {NULL, NULL, o->idx, 0};
    satc_depth_results d2 = {NULL, NULL, NULL, o->s32, SATC_SORT_32, o->scr, o->sb};
    o->st32 = call(k, f, b, first, count, mode, &r2, &d2);
    o->visible32 = r2.visible;
}

static uint64_t diff_u32(const uint32_t *a, const uint32_t *b, size_t n)
{
    uint64_t d = 0;
    for (size_t j = 0; j < n; j++)
        d += a[j] != b[j];
    return d;
}

/* Depths bit for bit; a NaN must be the one NaN satc writes. */
static uint64_t diff_dep(const float *a, const float *b, size_t n)
{
    uint64_t d = 0;
    for (size_t j = 0; j < n; j++) {
        uint32_t x, y;
        memcpy(&x, &a[j], 4), memcpy(&y, &b[j], 4);
        d += x != y || (a[j] != a[j] && x != SATC_DEPTH_NAN_BITS);
    }
    return d;
}

uint64_t ca_depth_compare(const satc_kernels *k, const satc_frustum *f, const satc_batch *b,
                          size_t first, size_t count, int mode, const char **what)
{
    *what = "";
    if (f->kind == SATC_FRUSTUM_PLANES)
        return 0;
    dout ref, o;
    if (!dout_init(&ref, count) || !dout_init(&o, count)) {
        dout_free(&ref), dout_free(&o);
        *what = "out of memory";
        return 1;
    }
    satc_scalar_use_ref(1);
    run(NULL, f, b, first, count, mode, &ref);
    satc_scalar_use_ref(0);
    run(k, f, b, first, count, mode, &o);
    uint64_t bad = 0;
    if (o.st != ref.st || o.st32 != ref.st32 || o.visible != ref.visible ||
        o.visible32 != ref.visible32) {
        *what = "status or visible count";
        bad = 1;
    } else if (ref.st == SATC_OK) {
        size_t v = ref.visible;
        uint64_t di = diff_u32(o.idx, ref.idx, v), dd = diff_dep(o.dep, ref.dep, v);
        uint64_t dk = diff_u32(o.k32, ref.k32, v) + (memcmp(o.k16, ref.k16, 2 * v) != 0);
        uint64_t d16 = diff_u32(o.s16, ref.s16, v), d32 = diff_u32(o.s32, ref.s32, v);
        bad = di + dd + dk + d16 + d32;
        *what = di ? "indices" : dd ? "depths" : dk ? "keys" : d16 ? "16-bit order" : "32-bit order";
    }
    dout_free(&ref), dout_free(&o);
    return bad;
}
