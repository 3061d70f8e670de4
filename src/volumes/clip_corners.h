/* The clip volume's vertices in double-double, for satc_frustum_from_matrix. */
#ifndef SATC_CLIP_CORNERS_H
#define SATC_CLIP_CORNERS_H

#include "dd.h"

/* The 16 3x3 minors of m (rows 0-2 and the w row 3) every corner's solve
 * is made of. */
void satc_clip_minors(const double m[4][4], dd mi[4][4]);

/* The point where clip x = a w, y = b w, z = c w (from satc_clip_minors's
 * mi); 0 when singular. */
int satc_clip_corner(const dd mi[4][4], double a, double b, double c, dd x[3]);

/* The edge direction (clip w = 1, no translation) where x = a w, y = b w;
 * 0 when singular. */
int satc_clip_direction(const double m[4][4], double a, double b, dd x[3]);

#endif
