/* The scalar reference's per-box steps, exposed for the SIMD kernels'
 * tails and gathered lanes, and for tests. */
#ifndef SATC_CULL_SCALAR_H
#define SATC_CULL_SCALAR_H

#include "../internal.h"

/* One box in the frustum's frame (Eberly §5's alpha, beta, gamma, delta). */
typedef struct satc_box_frame {
    float dx, dy, dz;          /* delta: frame coordinates of C - E */
    float al[3], be[3], ga[3]; /* frame coordinates of A_0..A_2 */
    float e[3];                /* extents */
    float s;                   /* |delta|_1 + |e|_1: the scale of the tolerance */
    int bad;                   /* non-finite or beyond SATC_MAX_MAGNITUDE: never culled */
} satc_box_frame;

/* Result of the plane tier. */
typedef struct satc_planes {
    int out;       /* outside one plane: culled */
    int inside;    /* inside all planes */
    int undecided; /* crosses two or more planes: exact mode tests the other axes */
} satc_planes;

void satc_box_frame_ref(const satc_frustum *f, const satc_boxes *b, size_t i, satc_box_frame *o);
satc_planes satc_planes_persp_ref(const satc_frustum *f, const satc_box_frame *o);
satc_planes satc_planes_ortho_ref(const satc_frustum *f, const satc_box_frame *o);
int satc_point_in_persp_ref(const satc_frustum *f, const satc_box_frame *o);
int satc_axes_persp_ref(const satc_frustum *f, const satc_box_frame *o);
int satc_axes_ortho_ref(const satc_frustum *f, const satc_box_frame *o);
unsigned satc_classify_ref(const satc_frustum *f, const satc_boxes *b, size_t i, unsigned flags);

#endif
