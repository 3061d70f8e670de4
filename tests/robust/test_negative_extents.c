/*
 * Negative extents. satc.h: "half extents extent[j][i] (their magnitude is
 * used: a negative extent means the same box as |e|)". So a batch with
 * some extents negated must give exactly the output of the same batch
 * with positive extents (in particular a box is never culled when the
 * box with |e| is visible), in both modes, on every path.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "robust_util.h"

#define N 2000

int main(void)
{
    satc_isa paths[8];
    int npaths = rb_paths(paths);
    rb_rng rng = {0x6e65676174697665ull};
    float eye[3] = {4.0f, 4.0f, -9.0f};
    satc_camera cams[3];
    const char *fr_name[3] = {"perspective", "infinite", "orthographic"};
    rb_camera_persp(&cams[0], &rng, eye, 0.5f, 120.0f);
    rb_camera_persp(&cams[1], &rng, eye, 0.5f, INFINITY);
    rb_camera_ortho(&cams[2], &rng, eye, 20.0f, 15.0f, 1.0f, 80.0f);
    long lost[2] = {0, 0}, visible[2] = {0, 0};

    for (int c = 0; c < 3; c++) {
        satc_frustum f;
        if (!rb_check(satc_frustum_from_camera(&f, &cams[c]) == SATC_OK, "build %s", fr_name[c]))
            continue;
        rb_batch pos, neg;
        if (rb_batch_alloc(&pos, N) || rb_batch_alloc(&neg, N))
            return 2;
        for (size_t i = 0; i < N; i++) {
            satc_obb box;
            rb_box_near(&rng, &cams[c], &box);
            rb_batch_set(&pos, i, &box);
            /* Negate all extents, or one or two of them. */
            unsigned which = 1u + (unsigned)(i % 7);
            for (int k = 0; k < 3; k++)
                if (which >> k & 1u)
                    box.extent[k] = -box.extent[k];
            rb_batch_set(&neg, i, &box);
        }
        for (int mode = 0; mode < 2; mode++) {
            rb_out po, no, got;
            rb_out_alloc(&po, N);
            rb_out_alloc(&no, N);
            rb_out_alloc(&got, N);
            rb_reference(&f, &pos.v, 0, N, (satc_mode)mode, &po);
            rb_reference(&f, &neg.v, 0, N, (satc_mode)mode, &no);
            long miss = 0, differ = 0;
            size_t first_miss = N;
            for (size_t i = 0; i < N; i++) {
                int pv = po.classes[i] != SATC_OUTSIDE, nv = no.classes[i] != SATC_OUTSIDE;
                visible[mode] += pv;
                differ += po.classes[i] != no.classes[i];
                if (pv && !nv) {
                    miss++;
                    if (first_miss == N)
                        first_miss = i;
                }
            }
            lost[mode] += miss;
            rb_check(miss == 0, "%s mode %d: %ld boxes visible with |e| culled with negative "
                                "extents (first: box %zu)",
                     fr_name[c], mode, miss, first_miss);
            rb_check(differ == 0 && no.visible == po.visible,
                     "%s mode %d: %ld classes differ from the boxes with |e|", fr_name[c], mode,
                     differ);
            for (int p = 1; p < npaths; p++) {
                satc_results res = {got.bitmask, got.classes, got.indices, 0};
                satc_status st = satc_cull_batch_isa(paths[p], &f, &neg.v, 0, N, (satc_mode)mode, &res);
                rb_check(st == SATC_OK && res.visible == no.visible &&
                             !memcmp(got.classes, no.classes, N) &&
                             !memcmp(got.bitmask, no.bitmask, (N + 7) / 8),
                         "%s: negative extents differ from scalar (%s mode %d)",
                         satc_isa_name(paths[p]), fr_name[c], mode);
            }
            rb_out_free(&po);
            rb_out_free(&no);
            rb_out_free(&got);
        }
        rb_batch_free(&pos);
        rb_batch_free(&neg);
    }
    printf("visible with |e|: %ld conservative, %ld exact; of those culled with negative extents: "
           "%ld conservative, %ld exact\n",
           visible[0], visible[1], lost[0], lost[1]);
    return rb_finish();
}
