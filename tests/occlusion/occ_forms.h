/* A set of boxes (double) as every satc form, for the occlusion tests and
 * the benchmark: float arrays built once, batches describing them, and
 * each form's volume as the oracle sees it. */
#ifndef OCC_FORMS_H
#define OCC_FORMS_H

#include "occ_scene.h"

typedef struct occ_forms {
    size_t n;
    float *obb;   /* 15 floats per box: center, 3 axes, extents */
    float *aabb;  /* 6: center, half */
    float *mm;    /* 6: min, max */
    float *half;  /* 12: center, 3 half axes */
    float *mat;   /* 16: column-major, of the unit box [-0.5, 0.5]^3 (or the caller's) */
    float *sph;   /* 4: center, radius */
    float lc[3], lh[3]; /* the instances' local box */
    occ_vol *vols[7];   /* per form: the volume the oracle tests */
} occ_forms;

/* From boxes; mats (NULL: built from the boxes, unit box centered) with
 * its local box lc, lh. */
void occ_forms_make(occ_forms *s, const occ_box *boxes, size_t n, const float *mats,
                    const float lc[3], const float lh[3]);
void occ_forms_free(occ_forms *s);
satc_batch occ_forms_batch(const occ_forms *s, satc_form form);

#endif
