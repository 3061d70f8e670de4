/* The scalar reference's per-volume steps, exposed for the SIMD kernels'
 * tails and for tests. */
#ifndef SATC_CULL_SCALAR_H
#define SATC_CULL_SCALAR_H

#include "../core/internal.h"

/*
 * One volume in the frustum's frame: what every form's loader produces
 * and every test reads (Eberly §5's delta; alpha, beta, gamma scaled by
 * the extents, i.e. the frame components of the half-axis vectors
 * H_j = e_j A_j).
 */
typedef struct satc_box_frame {
    float dx, dy, dz;          /* delta: frame coordinates of C - E */
    float hx[3], hy[3], hz[3]; /* frame components of H_0..H_2 (not for spheres) */
    float r[5];                /* radii on the plane normals (satc_fconsts order) */
    float s;                   /* the tolerance scale S (with its 2^-100 floor) */
    float rad;                 /* spheres: |radius| */
    int bad;                   /* non-finite or beyond SATC_MAX_MAGNITUDE: never culled */
} satc_box_frame;

/* The box's radius on axis M = (mx, my, mz) grown by its tolerance (the
 * axis tiers' common start): *T = tol_s |M|_1, and the return value
 * |M.H_0| + |M.H_1| + |M.H_2| + *T + SATC_TINY. */
static inline float satc_axis_radius_ref(const satc_box_frame *o, float mx, float my, float mz,
                                         float tol_s, float *T)
{
    float q0 = mx * o->hx[0] + my * o->hy[0] + mz * o->hz[0];
    float q1 = mx * o->hx[1] + my * o->hy[1] + mz * o->hz[1];
    float q2 = mx * o->hx[2] + my * o->hy[2] + mz * o->hz[2];
    *T = tol_s * (fabsf(mx) + fabsf(my) + fabsf(mz));
    return fabsf(q0) + fabsf(q1) + fabsf(q2) + *T + SATC_TINY;
}

/* Corner c (0..7) of the box in the frame: delta + sum over j of +H_j
 * (bit j of c set) or -H_j, summed in j order. */
static inline void satc_box_corner_ref(const satc_box_frame *o, int c, float *x, float *y, float *z)
{
    float cx = o->dx, cy = o->dy, cz = o->dz;
    for (int j = 0; j < 3; j++) {
        if (c >> j & 1)
            cx = cx + o->hx[j], cy = cy + o->hy[j], cz = cz + o->hz[j];
        else
            cx = cx - o->hx[j], cy = cy - o->hy[j], cz = cz - o->hz[j];
    }
    *x = cx, *y = cy, *z = cz;
}

/* Result of the plane tier. */
typedef struct satc_planes {
    int out;       /* outside one plane: culled */
    int inside;    /* inside all planes */
    int undecided; /* crosses two or more planes: exact mode tests the other axes */
    int band;      /* some plane's computed gap lies above -tol: exact mode's band */
} satc_planes;

/* satc_load_ref_m in exact mode's form. */
void satc_load_ref(const satc_frustum *f, const satc_fconsts *c, const satc_batch *b, size_t i,
                   satc_box_frame *o);
/* One volume into the frame; exact 0 takes conservative mode's cheaper
 * bound where a form has one (a splat's ball). */
void satc_load_ref_m(const satc_frustum *f, const satc_fconsts *c, const satc_batch *b, size_t i,
                     satc_box_frame *o, int exact);
/* The view depth of volume i's center (satc_depth_fn's expressions). */
float satc_depth_ref(const satc_frustum *f, const satc_fconsts *c, const satc_batch *b, size_t i);
satc_planes satc_planes_persp_ref(const satc_frustum *f, const satc_box_frame *o);
satc_planes satc_planes_ortho_ref(const satc_frustum *f, const satc_box_frame *o);
int satc_point_in_persp_ref(const satc_frustum *f, const satc_box_frame *o);
/* The exact tiers return 1 when separated; *band (not NULL) is set when
 * some axis's computed gap lies within twice its tolerance below the
 * decision (gap + 2 T > 0): a band case for satc_redecide. The sphere
 * tiers take sg = 1, or -1 for the band test (tolerance negated). */
int satc_axes_persp_ref(const satc_frustum *f, const satc_box_frame *o, int *band);
int satc_axes_ortho_ref(const satc_frustum *f, const satc_box_frame *o, int *band);
int satc_sphere_sep_persp_ref(const satc_frustum *f, const satc_fconsts *k,
                              const satc_box_frame *o, float sg);
int satc_sphere_sep_ortho_ref(const satc_frustum *f, const satc_box_frame *o, float sg);
satc_planes satc_planes_vol_ref(const satc_frustum *f, const satc_box_frame *o, int form);
int satc_axes_vol_ref(const satc_frustum *f, const satc_box_frame *o, int *band);
unsigned satc_classify_vol_ref(const satc_frustum *f, const satc_box_frame *o, int form,
                               unsigned flags, int *band);
unsigned satc_classify_ref(const satc_frustum *f, const satc_fconsts *c, const satc_batch *b,
                           size_t i, unsigned flags);

/* Occlusion: volume o's rectangle and nearest depth into r (rows
 * SATC_OC_*); 1 when it may be tested (finite, nearest depth beyond n). */
int satc_occl_rect_ref(const satc_frustum *f, const satc_occl_consts *oc,
                       const satc_box_frame *o, int sphere, float r[SATC_OC_N]);
/* The reference's occlusion kernel (every form and kind) and reduction. */
void satc_occl_ref(const satc_frustum *f, const satc_occl_consts *oc, const satc_batch *b,
                   size_t first, size_t n, unsigned flags, const uint64_t *vis,
                   float (*rect)[SATC_CHUNK], uint64_t *test);
void satc_reduce_level_ref(const float *src, uint32_t sw, uint32_t sh, float *dst, uint32_t dw,
                           uint32_t dh);

#endif
