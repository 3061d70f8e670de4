/* Occluder choice: the volumes a view keeps, ranked by the area of the
 * screen rectangle the occlusion test computes for them (the path's
 * occlusion kernel, the same bits on every path), the largest kept in a
 * bounded heap held in the caller's arrays. */
#include <math.h>
#include <string.h>

#include "occlusion.h"

/* Does (a, i) rank below (b, j)? Smaller area first, then larger index:
 * equal areas keep the lower index. */
static int below(float a, uint32_t i, float b, uint32_t j) { return a < b || (a == b && i > j); }

static void swap(uint32_t *idx, float *ar, size_t a, size_t b)
{
    uint32_t ti = idx[a];
    float ta = ar[a];
    idx[a] = idx[b], ar[a] = ar[b];
    idx[b] = ti, ar[b] = ta;
}

/* Min-heap (the lowest rank at 0) of n entries: entry k sifted down. */
static void sift_down(uint32_t *idx, float *ar, size_t n, size_t k)
{
    for (;;) {
        size_t c = 2 * k + 1;
        if (c >= n)
            return;
        if (c + 1 < n && below(ar[c + 1], idx[c + 1], ar[c], idx[c]))
            c++;
        if (!below(ar[c], idx[c], ar[k], idx[k]))
            return;
        swap(idx, ar, k, c);
        k = c;
    }
}

static void sift_up(uint32_t *idx, float *ar, size_t k)
{
    while (k > 0) {
        size_t q = (k - 1) / 2;
        if (!below(ar[k], idx[k], ar[q], idx[q]))
            return;
        swap(idx, ar, k, q);
        k = q;
    }
}

static void offer(uint32_t *idx, float *ar, size_t max, size_t *n, float area, uint32_t i)
{
    if (*n < max) {
        idx[*n] = i, ar[*n] = area;
        sift_up(idx, ar, (*n)++);
    } else if (below(ar[0], idx[0], area, i)) {
        idx[0] = i, ar[0] = area;
        sift_down(idx, ar, max, 0);
    }
}

satc_status satc_occluders_pick(const satc_pyramid *p, const satc_batch *b, size_t first,
                                size_t count, float min_texels, size_t max, uint32_t *indices,
                                float *areas, size_t *npicked)
{
    satc_status st = satc_pyramid_check(p);
    if (st != SATC_OK)
        return st;
    if (!npicked || (max && (!indices || !areas)))
        return SATC_ERR_NULL;
    if (!(min_texels >= 0) || min_texels > 3.4e38f)
        return SATC_ERR_BOUNDS;
    st = satc_check_call(&p->view, b, first, count, SATC_CONSERVATIVE, 1);
    if (st != SATC_OK)
        return st;
    const satc_kernels *k = satc_kernels_for(satc_isa_active());
    const satc_frustum *f = &p->view;
    satc_kernel_fn fn = k->fn[b->form][satc_kind_col(f)];
    satc_occl_fn ofn = k->occl[b->form][f->kind == SATC_FRUSTUM_ORTHOGRAPHIC];
    satc_occl_consts oc;
    satc_occl_consts_init(p, &oc);
    /* A volume reaching the near plane has no rectangle the test trusts:
     * it may cover any part of the image, so it ranks as all of it. */
    const float whole = (float)p->width * (float)p->height;
    float rect[SATC_OC_N][SATC_CHUNK];
    uint64_t vis[SATC_CHUNK_WORDS], in[SATC_CHUNK_WORDS], test[SATC_CHUNK_WORDS];
    size_t n = 0;
    for (size_t done = 0; done < count; done += SATC_CHUNK) {
        size_t m = count - done < SATC_CHUNK ? count - done : SATC_CHUNK;
        unsigned fl = done + m == count ? SATC_K_LAST : 0u;
        fn(f, b, first + done, m, fl, vis, in);
        ofn(f, &oc, b, first + done, m, fl, vis, rect, test);
        for (size_t w = 0; w < SATC_CHUNK_WORDS; w++) {
            for (uint64_t bits = vis[w]; bits; bits &= bits - 1) {
                size_t j = w * 64 + (size_t)__builtin_ctzll(bits);
                float area;
                if (test[w] >> (j % 64) & 1) {
                    area = (rect[SATC_OC_COL1][j] - rect[SATC_OC_COL0][j]) *
                           (rect[SATC_OC_ROW1][j] - rect[SATC_OC_ROW0][j]);
                } else {
                    if (!isfinite(rect[SATC_OC_ZMIN][j]))
                        continue; /* non-finite: the rasterizer draws nothing of it */
                    area = whole;
                }
                if (area >= min_texels && max)
                    offer(indices, areas, max, &n, area, (uint32_t)(first + done + j));
            }
        }
    }
    /* Heap sort: the lowest rank goes to the end, the largest area first. */
    for (size_t e = n; e > 1; e--) {
        swap(indices, areas, 0, e - 1);
        sift_down(indices, areas, e - 1, 0);
    }
    *npicked = n;
    return SATC_OK;
}
