/* The wasm cross-check's depth cases: satc_cull_depth (every form, both
 * modes, each output, both orders) and satc_sort_depth (ties, NaN,
 * infinities, -0), with bad inputs: a status code and nothing written. */
#include <math.h>
#include <stdlib.h>

#include "wasm_image.h"

static char name[256];

/* The wasm32 satc_depth_results (28 bytes). */
static unsigned char *w_depth(const satc_depth_results *d)
{
    unsigned char *w = alloc(28);
    putptr(w, d->depth), putptr(w + 4, d->key16), putptr(w + 8, d->key32), putptr(w + 12, d->sorted);
    put32(w + 16, d->sort), putptr(w + 20, d->scratch), put32(w + 24, (uint32_t)d->scratch_bytes);
    return w;
}

/* want: bit 0 depth, 1 key16, 2 key32, 3 sorted. */
static satc_depth_results depth_outputs(size_t count, int want, unsigned sort)
{
    satc_depth_results d = {0};
    if (want & 1)
        d.depth = memset(alloc(4 * count + 4), 0xA5, 4 * count + 4);
    if (want & 2)
        d.key16 = memset(alloc(2 * count + 4), 0xA5, 2 * count + 4);
    if (want & 4)
        d.key32 = memset(alloc(4 * count + 4), 0xA5, 4 * count + 4);
    if (want & 8)
        d.sorted = memset(alloc(4 * count + 4), 0xA5, 4 * count + 4);
    d.sort = sort;
    size_t sb = satc_depth_scratch_bytes(count, sort);
    d.scratch = memset(alloc(sb + 8), 0xA5, sb + 8);
    d.scratch_bytes = sb;
    return d;
}

static void case_cull_depth(const satc_frustum *f0, int form, int layout, size_t n, int mode, int bad)
{
    reset();
    satc_frustum *f = alloc(sizeof *f);
    *f = *f0;
    satc_batch b = make_batch(form, layout, n, (layout + form) % 3 == 0 ? 0.03 : 0.0);
    int grp = (int)(scn_next(&R) % 3);
    if (grp)
        add_groups(&b, n, grp);
    void *wb = w_batch(&b);
    size_t first = scn_next(&R) % 31, count = n - first - scn_next(&R) % 9;
    satc_results r = outputs(count, 4 | (int)(scn_next(&R) % 4));
    if (bad == 3)
        r.indices = NULL; /* required with depth outputs */
    unsigned char *wr = w_results(&r);
    int want = 1 + (int)(scn_next(&R) % 15);
    unsigned sort = want & 8 ? 1 + (unsigned)(scn_next(&R) % 2) : (unsigned)(scn_next(&R) % 3);
    satc_depth_results d = depth_outputs(count, want, sort);
    if (bad == 1)
        d.scratch_bytes -= 1; /* short */
    if (bad == 2)
        d.sort = 5;
    if (bad == 4)
        f->kind = SATC_FRUSTUM_PLANES; /* not a view with a depth */
    unsigned char *wd = w_depth(&d);
    scratch_range(d.scratch, d.scratch_bytes);
    snap();
    int s = satc_cull_depth(f, &b, first, count, (satc_mode)mode, &r, &d);
    put32(wr + 12, (uint32_t)r.visible);
    snprintf(name, sizeof name, "cull_depth form %d layout %d %s groups %d first %zu count %zu want %d sort %u bad %d",
             form, layout, mode ? "exact" : "conservative", grp, first, count, want, sort, bad);
    emit(name, "satc_cull_depth", s, 7,
         (arg[]){Pt(f), Pt(wb), I((uint32_t)first), I((uint32_t)count), I((uint32_t)mode), Pt(wr), Pt(wd)});
}

static void case_sort(size_t n, unsigned sort, int want, int bad)
{
    reset();
    float *depth = alloc(4 * n + 4);
    uint32_t *idx = alloc(4 * n + 4);
    static const float odd[] = {NAN, INFINITY, -INFINITY, -0.0f, 0.0f, 1e-40f, -3e38f};
    for (size_t k = 0; k < n; k++) {
        uint64_t r = scn_next(&R);
        depth[k] = r % 11 == 0 ? odd[(r >> 8) % 7] : r % 5 == 0 ? (float)((r >> 8) % 4) /* ties */
                                                                : (float)scn_uniform(&R, -50, 500);
        idx[k] = (uint32_t)(3 * k + (r >> 20) % 3);
    }
    satc_depth_results d = depth_outputs(n, want, sort);
    if (bad == 1)
        d.scratch_bytes = d.scratch_bytes ? d.scratch_bytes - 8 : 0, d.scratch = d.scratch_bytes ? d.scratch : NULL;
    if (bad == 2)
        sort = 3;
    if (bad == 3)
        sort = 0; /* sorted wanted without an order */
    if (bad == 4)
        depth = NULL;
    if (d.scratch)
        scratch_range(d.scratch, d.scratch_bytes);
    snap();
    int s = satc_sort_depth(depth, idx, n, sort, d.key16, d.key32, d.sorted, d.scratch, d.scratch_bytes);
    snprintf(name, sizeof name, "sort_depth n %zu sort %u want %d bad %d", n, sort, want, bad);
    emit(name, "satc_sort_depth", s, 9,
         (arg[]){depth ? Pt(depth) : I(0), Pt(idx), I((uint32_t)n), I(sort), d.key16 ? Pt(d.key16) : I(0),
                 d.key32 ? Pt(d.key32) : I(0), d.sorted ? Pt(d.sorted) : I(0), d.scratch ? Pt(d.scratch) : I(0),
                 I((uint32_t)d.scratch_bytes)});
}

void depth_cases(const satc_frustum *views, size_t n, int sorts)
{
    size_t nc = n < 250 ? n : 250;
    for (int form = 1; form <= 7; form++)
        for (int mode = 0; mode < 2; mode++)
            case_cull_depth(&views[0], form, (int)(scn_next(&R) % 4), nc, mode, 0);
    for (int bad = 1; bad <= 4; bad++)
        case_cull_depth(&views[0], 1 + (int)(scn_next(&R) % 7), 1, nc, 0, bad);
    if (!sorts) /* the sort alone: some scenes */
        return;
    for (unsigned sort = 1; sort <= 2; sort++)
        for (int want = 2; want <= 14; want += 4) /* keys, and the order alone */
            case_sort((size_t)(scn_next(&R) % 2000), sort, want | 8, 0);
    case_sort(0, 1, 14, 0);
    static int big; /* once: enough keys for the two byte passes */
    if (!big++)
        case_sort((size_t)1 << 18, 1, 8, 0);
    for (int bad = 1; bad <= 4; bad++)
        case_sort(50 + (size_t)(scn_next(&R) % 50), 1 + (unsigned)(scn_next(&R) % 2), 14, bad);
}
