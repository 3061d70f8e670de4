/*
 * Volumes in double for the form tests: what the floats of any form
 * describe (a parallelepiped C + sum s_j H_j, or a sphere), and the
 * questions the tests ask of it, answered without separating axes:
 * meets (the clipping oracle of tests/common), distance of a point to the
 * frustum (closest point over the faces, edges and vertices), the
 * documented band, and the separation beyond the frustum's planes.
 */
#ifndef FG_GEOM_H
#define FG_GEOM_H

#include "satc.h"

typedef struct fg_vol {
    double c[3];    /* world center */
    double h[3][3]; /* half-axis vectors H_j (boxes) */
    double r;       /* radius (spheres) */
    int sphere;
} fg_vol;

/* 1 if the volume, grown so that it holds every point within `grow` of
 * it, meets cam's closed frustum (grow 0: the volume itself). */
int fg_meets(const satc_camera *cam, const fg_vol *v, double grow);

/* Euclidean distance from world point p to cam's closed frustum (0 inside). */
double fg_point_dist(const satc_camera *cam, const double p[3]);

/* The exact-mode band of satc.h, SATC_EXACT_BAND * K * (S + F), with S
 * counting the frame 1-norms of the half-axis vectors (2 r for a sphere). */
double fg_band(const satc_camera *cam, const fg_vol *v);

/* How far the volume lies beyond the frustum plane that separates it most
 * (world units; <= 0 when no single plane separates it). */
double fg_plane_sep(const satc_camera *cam, const fg_vol *v);

/* 1 if the whole volume is inside every plane of the frustum. */
int fg_inside(const satc_camera *cam, const fg_vol *v);

#endif
