/* A camera placed relative to a batch origin in double: shared by the
 * double camera (frustum_double.c) and the double look-at (frustum_look.c). */
#ifndef SATC_ORIGIN_H
#define SATC_ORIGIN_H

#include "../core/internal.h"

/* e = E - O rounded to float; *shift bounds |e - (E - O)|_1. Returns
 * SATC_ERR_NONFINITE for a non-finite E or O, SATC_ERR_BOUNDS when a
 * component of E - O exceeds SATC_MAX_MAGNITUDE; e is untouched then. */
satc_status satc_rebase_origin(const double E[3], const double O[3], float e[3], double *shift);

/* Widens fr's constant tolerance term for an apex moved by at most shift
 * (a 1-norm): every plane and axis projection moves by at most K shift. */
void satc_widen_for_apex(satc_frustum *fr, double shift);

#endif
