/*
 * Large worlds: the three scenes moved 0, 10^3 ... 10^7 units
 * from the origin, camera with them (scn_make's offset). The library works
 * camera-relative, so culling must stay correct far from the origin. At
 * 10^7 the float spacing is 1 unit: what is tested is the boxes' float
 * centers, which the oracle takes exactly, as it does the camera's floats.
 * Per scene, offset and mode this prints the false negatives against the
 * double-precision oracle (orc_intersects; zero required), the
 * false-positive rate (visible boxes the oracle finds outside, over all
 * boxes it finds outside), and exact-mode boxes kept beyond the exact band
 * (zero required); every path must equal the scalar one.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "oracle.h"
#include "robust_util.h"
#include "scenes.h"

#define COUNT 30000

int main(void)
{
    satc_isa paths[8];
    int npaths = rb_paths(paths);
    const double offsets[] = {0.0, 1e3, 1e4, 1e5, 1e6, 1e7};
    /* A unit direction with three non-zero components. */
    const double dir[3] = {0.6, 0.48, 0.64};
    const scn_kind kinds[3] = {SCN_CITY, SCN_UNIFORM, SCN_BOUNDARY};
    static unsigned char truth[COUNT];
    long total_fn = 0;

    printf("%-9s %-9s %-12s %8s %6s %9s %8s %8s\n", "scene", "offset", "mode", "touching", "FN",
           "FP rate", "beyond", "paths");
    for (int s = 0; s < 3; s++) {
        for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; o++) {
            double off[3] = {offsets[o] * dir[0], offsets[o] * dir[1], offsets[o] * dir[2]};
            scn_scene sc;
            if (!rb_check(scn_make(&sc, kinds[s], COUNT, 0x6c61726765ull + (uint64_t)s, off) == 0,
                          "scn_make %s offset %g", scn_name(kinds[s]), offsets[o]))
                continue;
            long touching = 0;
            for (size_t i = 0; i < sc.count; i++) {
                satc_obb box;
                satc_boxes_get(&sc.boxes, i, &box);
                truth[i] = (unsigned char)orc_intersects(&sc.cam, &box, 0.0);
                touching += truth[i];
            }
            for (int mode = 0; mode < 2; mode++) {
                rb_out ref;
                rb_out_alloc(&ref, sc.count);
                rb_reference(&sc.frustum, &sc.boxes, 0, sc.count, (satc_mode)mode, &ref);
                long fn = 0, fp = 0, beyond = 0;
                size_t first_fn = sc.count;
                for (size_t i = 0; i < sc.count; i++) {
                    int vis = ref.classes[i] != SATC_OUTSIDE;
                    if (truth[i] && !vis) {
                        fn++;
                        first_fn = first_fn < i ? first_fn : i;
                    }
                    if (!truth[i] && vis) {
                        fp++;
                        if (mode == SATC_EXACT) {
                            satc_obb box;
                            satc_boxes_get(&sc.boxes, i, &box);
                            beyond += !orc_intersects(&sc.cam, &box, orc_band(&sc.cam, &box));
                        }
                    }
                }
                int paths_ok = 1;
                for (int p = 1; p < npaths; p++) {
                    rb_out got;
                    rb_out_alloc(&got, sc.count);
                    satc_results res = {got.bitmask, got.classes, got.indices, 0};
                    satc_status st = satc_cull_batch_isa(paths[p], &sc.frustum, &sc.boxes, 0,
                                                         sc.count, (satc_mode)mode, &res);
                    int ok = st == SATC_OK && res.visible == ref.visible &&
                             !memcmp(got.classes, ref.classes, sc.count);
                    rb_check(ok, "%s offset %g mode %d: %s differs from scalar", scn_name(kinds[s]),
                             offsets[o], mode, satc_isa_name(paths[p]));
                    paths_ok &= ok;
                    rb_out_free(&got);
                }
                long outside = (long)sc.count - touching;
                printf("%-9s %-9.0e %-12s %8ld %6ld %8.3f%% %8ld %8s\n", scn_name(kinds[s]),
                       offsets[o], mode ? "exact" : "conservative", touching, fn,
                       outside ? 100.0 * (double)fp / (double)outside : 0.0, beyond,
                       paths_ok ? "equal" : "DIFFER");
                rb_check(fn == 0, "%s offset %g mode %d: %ld false negatives (first: box %zu)",
                         scn_name(kinds[s]), offsets[o], mode, fn, first_fn);
                if (mode == SATC_EXACT)
                    rb_check(beyond == 0, "%s offset %g exact: %ld boxes kept beyond the band",
                             scn_name(kinds[s]), offsets[o], beyond);
                total_fn += fn;
                rb_out_free(&ref);
            }
            scn_free(&sc);
        }
    }
    printf("false negatives in all: %ld\n", total_fn);
    return rb_finish();
}
