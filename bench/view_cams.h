/* Cameras of the many-view benchmarks (double in, satc_camera out). */
#ifndef SATC_BENCH_VIEW_CAMS_H
#define SATC_BENCH_VIEW_CAMS_H

#include "satc.h"

/* A camera at o looking along d with up near u; bounds left zero. */
void view_cam_make(satc_camera *c, const double o[3], const double d[3], const double u[3]);
/* Perspective bounds: depths n, f and slopes tx, ty (tan of half angles). */
void view_cam_persp(satc_camera *c, double n, double f, double tx, double ty);
/* Shadow cascade of a directional light (direction ld) for the camera's
 * depth slice [z0, z1]: an orthographic box in the light's frame. */
void view_cam_cascade(satc_camera *out, const satc_camera *cam, const double ld[3], double z0,
                      double z1);

#endif
