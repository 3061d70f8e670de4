/*
 * Occlusion scenes and the double-precision oracle: boxes and spheres in
 * double, rays through a view, a valid level 0 built from box occluders
 * in closed form, and the visibility of each volume by ray casting.
 * Shared by the tests and the benchmark.
 */
#ifndef OCC_SCENE_H
#define OCC_SCENE_H

#include <stddef.h>
#include <stdint.h>

#include "satc.h"

/* A box: center, unit axes (rows), half extents (world units, double). */
typedef struct occ_box {
    double c[3], a[3][3], e[3];
} occ_box;

/* A view in double: the float frustum's values, and the inverse of its
 * frame so rays have exactly the slopes asked for. */
typedef struct occ_view {
    satc_frustum f;
    double E[3], F[3][3], Finv[3][3];
    int ortho;
} occ_view;

void occ_view_init(occ_view *v, const satc_frustum *f);
/* The ray of screen point (a, b): origin o, direction d with D.d = 1
 * (t is the view depth). */
void occ_ray(const occ_view *v, double a, double b, double o[3], double d[3]);
/* Entry and exit parameters of the ray in box x (0 when missed). */
int occ_ray_box(const occ_box *x, const double o[3], const double d[3], double *t0, double *t1);
int occ_ray_sphere(const double c[3], double r, const double o[3], const double d[3], double *t0,
                   double *t1);

/* The demo city (js/demo/city.js's generator, ported): n buildings as
 * 4x4 column-major float matrices of a unit box with its base at y = 0,
 * and the boxes they stand for (double). */
void occ_city(size_t n, uint32_t seed, float *matrices, occ_box *boxes, const double shift[3]);
/* The ground under the city: a slab whose top is y = 0 (an occluder). */
void occ_city_ground(occ_box *g, const double shift[3]);
/* The demo's camera at time t as a frustum, 60 degrees, 16:9, n 0.5, f 1200. */
int occ_city_camera(double t, const double shift[3], satc_frustum *out);

/* Level 0 of p from box occluders, valid by construction: a texel takes
 * the farthest of the 4 corner rays' entry depths of a box that covers
 * all 4 (a convex box covers the whole texel then, and 1/depth of its
 * front is concave, so the corners bound the depth), the least over
 * such boxes; boxes reaching nearer than n are skipped. Then builds. */
void occ_fill_boxes(satc_pyramid *p, const occ_box *occ, size_t nocc);

/* Visibility by rays: the volumes of a batch as the oracle sees them. */
typedef struct occ_vol {
    int sphere;
    occ_box box;     /* boxes: the box */
    double c[3], r;  /* spheres */
    int camera_in;   /* the eye (or near rectangle) reaches it: always visible */
} occ_vol;

/* The depth of the nearest occluder surface at depth >= n on each ray
 * (rays_x x rays_y over the view, staggered, then the extra screen points
 * xa/xb), f where none: occluders are solid, one crossing the near plane
 * hides from its exit. malloc'd. */
double *occ_ray_depths(const occ_view *v, const occ_box *occ, size_t nocc, unsigned rays_x,
                       unsigned rays_y, const double *xa, const double *xb, size_t nextra);

/* vis[k] = 1 when some of those rays meets volume k at a depth in [n, f]
 * no farther than zocc (occ_ray_depths) on it. */
void occ_visible(const occ_view *v, const occ_vol *vols, size_t nvol, const double *zocc,
                 unsigned rays_x, unsigned rays_y, const double *xa, const double *xb,
                 size_t nextra, uint8_t *vis);

#endif
