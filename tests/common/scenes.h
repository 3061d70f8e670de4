/*
 * Deterministic test and benchmark scenes: city, uniform and
 * boundary, plus random cameras of every kind and boundary boxes around
 * any camera's frustum. Everything follows from the seed alone.
 */
#ifndef SCN_SCENES_H
#define SCN_SCENES_H

#include <stddef.h>
#include <stdint.h>

#include "satc.h"

/* splitmix64: one word of state, good enough statistics for scenes. */
typedef struct scn_rng {
    uint64_t s;
} scn_rng;

void scn_seed(scn_rng *r, uint64_t seed);
uint64_t scn_next(scn_rng *r);
/* Uniform in [lo, hi). */
double scn_uniform(scn_rng *r, double lo, double hi);

typedef enum scn_kind { SCN_CITY, SCN_UNIFORM, SCN_BOUNDARY } scn_kind;

/* "city", "uniform", "boundary" (or "unknown"). */
const char *scn_name(scn_kind k);

typedef struct scn_scene {
    satc_camera cam;        /* the camera the scene was made for */
    satc_frustum frustum;   /* satc_frustum_from_camera(&frustum, &cam) */
    satc_box_arrays arrays; /* owns the boxes (satc_box_arrays_alloc) */
    satc_boxes boxes;       /* satc_box_arrays_view(&arrays) */
    size_t count;
} scn_scene;

/*
 * Deterministic scene of `count` boxes. offset (may be NULL) translates
 * the camera and every box (large worlds): positions are computed in
 * double relative to the offset, then rounded to float. 0 on success;
 * on failure *s is zeroed and nothing needs freeing.
 */
int scn_make(scn_scene *s, scn_kind kind, size_t count, uint64_t seed, const double offset[3]);

/* Frees the boxes; a zeroed scene is a no-op. */
void scn_free(scn_scene *s);

typedef enum scn_cam_kind {
    SCN_CAM_SYMMETRIC,
    SCN_CAM_ASYMMETRIC,
    SCN_CAM_INFINITE,
    SCN_CAM_ORTHO
} scn_cam_kind;

/* "symmetric", "asymmetric", "infinite", "ortho". */
const char *scn_cam_name(scn_cam_kind k);

/*
 * A random camera of the given kind, origin within 1e3 of the world
 * origin, random orientation; always accepted by satc_frustum_from_camera.
 */
void scn_random_camera(scn_rng *r, scn_cam_kind kind, satc_camera *out);

/*
 * Boxes near faces, edges and corners of cam's frustum (full random
 * rotations, log-uniform sizes relative to the frustum's local scale).
 * 0 on success (cam must be valid).
 */
int scn_make_boundary_for(scn_scene *s, const satc_camera *cam, size_t count, uint64_t seed);

/* The planes of a perspective or orthographic frustum (a.x + b.y + c.z +
 * d >= 0 inside, world units): near, far, sides; 5 without a far plane. */
int scn_frustum_planes(const satc_frustum *f, float pl[6][4]);

/*
 * A random point of a random face, edge or corner of cam's frustum (what
 * the boundary boxes are built around), relative to the camera origin, in
 * world axes, and the frustum's local scale there (world units).
 */
void scn_boundary_point(scn_rng *r, const satc_camera *cam, double p[3], double *scale);

#endif
