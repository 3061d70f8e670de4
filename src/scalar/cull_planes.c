/*
 * Scalar reference for SATC_FRUSTUM_PLANES volumes (satc_frustum_from_planes):
 * the SIMD kernel (src/kernels/plane_volumes.h) repeats each expression per lane in
 * the same order. The volume's frame is the identity about its origin E,
 * so a volume's frame coordinates are its world coordinates relative to E.
 *
 * Tolerance: as for the other kinds, tol_s = eps_k S + tol_t; the plane
 * test adds it to the radius on each unit normal (|n|_1 <= sqrt 3 < K = 2),
 * a general axis M adds tol_s |M|_1 + SATC_TINY. See src/planes.c for why
 * tol_t covers the float volume's distance from the exact one.
 */
#include <math.h>

#include "../core/internal.h"
#include "cull_scalar.h"

/* A volume's radius on unit normal p: RTR 22.10's extent. AABB forms:
 * |n_j| h_j (the loader put h_j in hx[0], hy[1], hz[2]); spheres: r. */
static float radius(const float *p, const satc_box_frame *o, int form)
{
    if (form == SATC_FORM_SPHERES)
        return o->rad;
    if (form == SATC_FORM_AABB || form == SATC_FORM_MINMAX)
        return fabsf(p[0]) * o->hx[0] + fabsf(p[1]) * o->hy[1] + fabsf(p[2]) * o->hz[2];
    float q0 = p[0] * o->hx[0] + p[1] * o->hy[0] + p[2] * o->hz[0];
    float q1 = p[0] * o->hx[1] + p[1] * o->hy[1] + p[2] * o->hz[1];
    float q2 = p[0] * o->hx[2] + p[1] * o->hy[2] + p[2] * o->hz[2];
    return fabsf(q0) + fabsf(q1) + fabsf(q2);
}

/* The plane tier (RTR 22.10, 22.14): out of plane k when s + R + tol < 0,
 * inside it when s - R - tol >= margin2, s = n.delta + w. */
satc_planes satc_planes_vol_ref(const satc_frustum *f, const satc_box_frame *o, int form)
{
    satc_planes p = {0, 0, 0, 0};
    float tol = f->eps_k * o->s + f->tol_t;
    int nin = 0, np = (int)f->nplanes;
    float gap = -INFINITY;
    for (int k = 0; k < np; k++) {
        const float *pl = f->plane[k];
        float s = pl[0] * o->dx + pl[1] * o->dy + pl[2] * o->dz + pl[3];
        float r = radius(pl, o, form);
        float rt = r + tol, g = -(s + r);
        gap = g > gap ? g : gap;
        nin += s - rt >= f->margin2;
    }
    int out = gap > tol;
    p.out = out && !o->bad;
    p.band = !out && gap > -tol && !o->bad;
    p.inside = nin == np && !out && !o->bad;
    /* Inside all planes but one: the part on that plane's inner side is
     * in the volume. Two or more crossed: the other axes decide. */
    p.undecided = !out && np - nin >= 2 && !o->bad;
    return p;
}

/* Axis M: the box's interval against the volume's vertices' (Gomez, OBB and OBB
 * test with the volume as a polytope). */
static void axis_vol(const satc_frustum *f, const satc_box_frame *o, float mx, float my, float mz,
                     float tol_s, int *sep, int *band)
{
    float d = mx * o->dx + my * o->dy + mz * o->dz;
    float T, r = satc_axis_radius_ref(o, mx, my, mz, tol_s, &T);
    const float *v = f->vert[0];
    float lo = mx * v[0] + my * v[1] + mz * v[2], hi = lo;
    for (uint32_t m = 1; m < f->nverts; m++) {
        v = f->vert[m];
        float p = mx * v[0] + my * v[1] + mz * v[2];
        lo = p < lo ? p : lo;
        hi = p > hi ? p : hi;
    }
    float a = (d + r) - lo, b = hi - (d - r);
    float u = a < b ? a : b; /* < 0: separated (see take2 in cull_scalar.c) */
    *sep |= u < 0.0f;
    *band |= u < T + T;
}

/*
 * The remaining separating axes of two convex polyhedra (RTR 22.13): the
 * volume's face normals were the plane tier; here the box's face normals
 * N_i = H_j x H_k and the cross products E x H_i of each edge direction
 * E of the volume with each box edge. Returns 1 when separated.
 */
int satc_axes_vol_ref(const satc_frustum *f, const satc_box_frame *o, int *band)
{
    const float *hx = o->hx, *hy = o->hy, *hz = o->hz;
    float tol_s = f->eps_k * o->s + f->tol_t;
    static const int oj[3] = {1, 0, 0}, ok[3] = {2, 2, 1};
    int sep = 0, bd = 0;
    for (int i = 0; i < 3; i++) {
        int j = oj[i], k = ok[i];
        float nx = hy[j] * hz[k] - hz[j] * hy[k];
        float ny = hz[j] * hx[k] - hx[j] * hz[k];
        float nz = hx[j] * hy[k] - hy[j] * hx[k];
        axis_vol(f, o, nx, ny, nz, tol_s, &sep, &bd);
    }
    for (uint32_t e = 0; e < f->nedges; e++) {
        const float *E = f->edge[e];
        for (int i = 0; i < 3; i++) {
            float mx = E[1] * hz[i] - E[2] * hy[i];
            float my = E[2] * hx[i] - E[0] * hz[i];
            float mz = E[0] * hy[i] - E[1] * hx[i];
            axis_vol(f, o, mx, my, mz, tol_s, &sep, &bd);
        }
    }
    if (band)
        *band = bd && !sep;
    return sep;
}

/* The class of one volume against a plane volume. Spheres: the plane test
 * in both modes (see satc.h). */
unsigned satc_classify_vol_ref(const satc_frustum *f, const satc_box_frame *o, int form,
                               unsigned flags, int *band)
{
    satc_planes p = satc_planes_vol_ref(f, o, form);
    *band = 0;
    if (p.out)
        return SATC_OUTSIDE;
    if (form == SATC_FORM_SPHERES) /* the plane test alone: no band */
        return p.inside ? SATC_INSIDE : SATC_INTERSECTING;
    int tb = 0;
    if ((flags & SATC_K_EXACT) && p.undecided && satc_axes_vol_ref(f, o, &tb))
        return SATC_OUTSIDE;
    *band = p.band | tb;
    return p.inside ? SATC_INSIDE : SATC_INTERSECTING;
}
