/* Small double-precision vector helpers shared by the test programs. */
#ifndef SATC_TEST_VEC3D_H
#define SATC_TEST_VEC3D_H

#include <math.h>

static inline void cross(const double *a, const double *b, double *o)
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

static inline double dot(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline void normalize(double *v)
{
    double l = sqrt(dot(v, v));
    v[0] /= l, v[1] /= l, v[2] /= l;
}

#endif
