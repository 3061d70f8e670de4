/* The rasterizer's oracle: rays in double, cast in world space through
 * sample points of each texel, against the exact occluders (triangles by
 * Moller-Trumbore, boxes by slabs in their own axes, spheres by their
 * quadratic), with none of the rasterizer's code. */
#ifndef RASTER_ORACLE_H
#define RASTER_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#include "satc.h"

typedef enum ro_kind { RO_TRI, RO_BOX, RO_SPHERE } ro_kind;

typedef struct ro_occ {
    ro_kind kind;
    double v[3][3];        /* RO_TRI: vertices */
    double c[3], h[3][3];  /* RO_BOX: center, half axes; RO_SPHERE: center, h[0][0] = radius */
} ro_occ;

/* The view's rays: texel coordinates (u, v) (column u from the left
 * edge, row v from the bottom, in texels) to a ray whose parameter is
 * the view depth. */
typedef struct ro_view {
    const satc_frustum *f;
    uint32_t width, height;
    double Finv[3][3]; /* inverse of the frame rows, in double */
} ro_view;

void ro_view_init(ro_view *rv, const satc_frustum *f, uint32_t width, uint32_t height);

/* Nearest view depth >= n at which the ray through (u, v) meets the
 * boundary of any of the occluders; +Inf when none. */
double ro_nearest(const ro_view *rv, double u, double v, const ro_occ *occ, size_t nocc);

/* Checks level 0 against the oracle: every texel holding a value below
 * its initial `init` must be >= the nearest hit of the rays through a
 * 5 x 5 grid of its points (corners, edges, inside). Returns the number
 * of violations (printing the first few under `name`); *written and
 * *full (may be NULL) count the texels written and the texels whose
 * every sample ray hits. */
size_t ro_check(const ro_view *rv, const float *level0, const float *init, const ro_occ *occ,
                size_t nocc, const char *name, size_t *written, size_t *full);

#endif
