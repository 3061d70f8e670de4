/*
 * Double-precision oracle for box/frustum intersection, independent of the
 * library's separating-axis method: the box's faces are clipped against the
 * frustum's planes (Sutherland-Hodgman), and a frustum point is tested for
 * containment in the box. The frustum is built in double from the camera
 * (never from satc_frustum's floats); box fields are taken exactly as
 * doubles.
 */
#ifndef SCN_ORACLE_H
#define SCN_ORACLE_H

#include "satc.h"

/* 1 if the box (float fields taken exactly as doubles), every extent grown
 * by grow >= 0, meets the closed frustum of cam. */
int orc_intersects(const satc_camera *cam, const satc_obb *box, double grow);

/* orc_intersects with the box center taken as center + off relative to
 * the camera (cam->origin unused): off = O - E in double for a box stored
 * relative to a batch origin O and a camera at E (large worlds). */
int orc_intersects_at(const satc_camera *cam, const double off[3], const satc_obb *box, double grow);

/* 1 if the parallelepiped center + sum s_j ext_j axis_j (|s_j| <= 1; world
 * units, in double: any axis lengths, zero too) meets the closed frustum. */
int orc_intersects_pp(const satc_camera *cam, const double center[3], const double ext[3],
                      const double axis[3][3]);

/* 1 if all 8 box vertices lie in the closed frustum. */
int orc_inside(const satc_camera *cam, const satc_obb *box);

/* The exact-mode band of satc.h: SATC_EXACT_BAND * K * (S + F), computed in
 * double from cam and box. */
double orc_band(const satc_camera *cam, const satc_obb *box);

#endif
