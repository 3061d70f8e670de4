/* Plane volumes in double for tests/volumes: generators and an oracle
 * that decides box-volume contact by LP feasibility (vertex enumeration
 * of the box's parameter cube cut by the half-spaces), a method
 * independent of the library's separating axes. */
#ifndef VOL_ORACLE_H
#define VOL_ORACLE_H

#include <satc.h>

typedef struct vol {
    const char *name;
    float p[SATC_MAX_PLANES][4];
    int n;
    float margin;
    int bounded; /* expected: exact mode allowed */
} vol;

/* A box { C + sum s_j H_j : |s_j| <= 1 } in double. */
typedef struct dbox {
    double c[3], h[3][3];
} dbox;

double vo_rand(void);              /* [0, 1) */
void vo_seed(unsigned long long s);
void vo_rotation(double a[3][3]);  /* rows: a random right-handed orthonormal frame */

/* Generators; world offset `far` moves the volume (large-world checks).
 * vo_frustum also builds the perspective frustum the planes come from. */
void vo_frustum(vol *v, satc_frustum *persp, double far, int drop_far);
void vo_box(vol *v, double far);
void vo_polytope(vol *v, int k, double far);
void vo_halfspace(vol *v, double far);
void vo_wedge(vol *v, double far, int slab);

/* Unit normal and offset of plane k in double, moved out by the margin
 * and then by g (g < 0 shrinks). */
void vo_plane(const vol *v, int k, double g, double n[3], double *d);

/* 1 when the box meets the volume with every plane moved out by g. */
int vo_touch(const vol *v, const dbox *b, double g);

/* Smallest value over the box of plane k's signed distance (unit normal,
 * margin included) and largest: the box's interval on the plane. */
void vo_interval(const vol *v, int k, const dbox *b, double *lo, double *hi);

#endif
