/* Internals of the query volumes (volumes/query_volumes.c, passes/queries.c) and of the
 * double-precision volume geometry (forms/convert.c) they share. */
#ifndef SATC_QUERY_INTERNAL_H
#define SATC_QUERY_INTERNAL_H

#include "internal.h"

/*
 * Volume i of batch b in world units, in double, from the stored floats:
 * center c and half-axis vectors H[j] (the volume is
 * { c + s0 H0 + s1 H1 + s2 H2 : |s_j| <= 1 }; for an AABB or min/max box
 * H[j] is h_j times world axis j). Products of two floats are exact in
 * double; an instance's center, a sum of four such products, is rounded
 * once per addition. cmag bounds the magnitudes summed into c (|c|_1,
 * or for an instance sum_r |t_r| + sum_rj |m_rj lc_j|): the center's
 * rounding is below 2^-50 cmag. A sphere sets sphere = 1, r = |radius|
 * and H = r I (its bounding cube). Returns 0 when the volume cannot be
 * described (a mesh id past the table); values may be non-finite.
 */
typedef struct satc_vol_d {
    double c[3];
    double H[3][3];
    double cmag;
    double r;
    int sphere;
} satc_vol_d;

int satc_volume_d(const satc_batch *b, size_t i, satc_vol_d *v);

/* Instance i of s as satc_volume_d describes it (its c, H and cmag), the
 * matrix's layout chosen once: 0 for a mesh id past the table. */
int satc_instance_d(const satc_instances *s, size_t i, double c[3], double H[3][3], double *cmag);

/* A TRS volume's rotation R(qf) in double (qf: its stored quaternion, in
 * the loaders' accepted range) and its local box (center lc, half lh;
 * the splat cube when the batch has no local boxes). Returns 0 when the
 * volume's mesh id is past the table (nothing to describe), else 1. */
int satc_trs_frame_d(const satc_trs *s, size_t i, const float qf[4], double R[3][3], double lc[3],
                     double lh[3]);

/*
 * The orthographic frustum of the segment from p0 along the unit
 * direction D (double) for len >= 0 world units (len 0: the point p0);
 * the caller has checked |p0|_1 + len <= SATC_MAX_MAGNITUDE and that
 * everything is finite. satc_frustum_from_segment is this with
 * D = (p1 - p0) / |p1 - p0| computed in double.
 */
void satc_segment_frustum(satc_frustum *out, const float p0[3], const double D[3], double len);

/* L, U completing the unit vector D to a right-handed orthonormal frame
 * (L x U = D), in double (volumes/query_volumes.c). */
void satc_frame_from_dir(const double D[3], double L[3], double U[3]);

/* Nonzero when every field of v is finite (passes/query_geom.c). */
int satc_vol_finite(const satc_vol_d *v);

/* Sphere (center p, |p|_1 = pmag, radius r) against v in double: 1 when
 * touching (always when the distance is <= r; only within the tolerance
 * band otherwise); *inside (asked with want_inside) when v lies inside
 * the sphere with the tolerance to spare (passes/query_geom.c). */
int satc_sphere_vol_test(const double p[3], double pmag, double r, const satc_vol_d *v,
                         int want_inside, int *inside);

/* Ray o + t d, 0 <= t <= T (T may be +Inf; |o|_1 = omag) against v in
 * double: 1 and the entry parameter *tin (0 when o is in v) on a hit
 * (passes/query_geom.c). */
int satc_ray_vol_test(const double o[3], double omag, const double d[3], double T,
                      const satc_vol_d *v, double *tin);

#endif
