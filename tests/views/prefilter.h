/* What test_prefilter's parts share: the layouts and the views check. */
#ifndef SATC_TEST_PREFILTER_H
#define SATC_TEST_PREFILTER_H

#include <stddef.h>

#include "robust_util.h"
#include "satc.h"

/* The twelve layouts the volumes are stored in. */
enum {
    L_AABB_REC, L_AABB_F3, L_AABB_SOA, L_MINMAX_REC, L_SPH_REC, L_SPH_SOA,
    L_OBB_REC, L_OBB_SOA, L_HALF_F3, L_INST_SHARED, L_INST_LOCAL, L_INST_MESH, L_COUNT
};

/* Volume i's rotation: rows R[j] are its unit axes (a hashed quaternion). */
void rot_of(size_t i, double R[3][3]);
/* Volume i's local box in layout L (instances). */
void local_box(int L, size_t i, float lc[3], float lh[3]);
/* satc_cull_views over [first, first + count) against K single culls,
 * every path and mode; returns the mismatches. */
int compare_views(const satc_frustum *views, int K, const satc_batch *b, size_t first, size_t count,
                  const char *what);

/* The scenes (test_prefilter_scenes.c). */
void test_extra_s(rb_rng *r);
void test_city(rb_rng *r, int quick);

#endif
