/*
 * Every term of the contract's tolerance (satc.h), on both frustum kinds,
 * has a family of boxes that touches the frustum (a box point on a face,
 * edge or corner, off it by at most 2^-40 of the scene's magnitude, far
 * inside the contract's band) and that rounding would cull without that
 * term. Checked on every
 * path, both modes, FTZ/DAZ off and on, three box forms. Each family is
 * named after the term it needs; scripts/mutate.py removes each term and
 * expects a failure here.
 *  - ortho_offcenter (tol_t): l0 = -1e5, l1 < 10, small boxes: the
 *    frustum's rounded center and half sizes err by far more than the box.
 *  - ortho_bigbox (eps_k S, S's axis lengths): a frustum of size ~1 near
 *    the camera, rotated boxes of size 2^8..2^16.
 *  - persp_far (eps_k S, S's |delta|): small boxes at depth 10^3..10^6.
 *  - persp_long (S's axis lengths): boxes of size 2^10..2^16 grazing near
 *    the apex.
 *  - persp_wide (K): slopes 2^6..2^10, boxes of size 2^8..2^14 near the
 *    apex: the side normals (1, 0, -x1) round by u x1, more than S
 *    alone covers (AABB radii use |L_j - x1 D_j| directly).
 *  - tiny_scale (SATC_TINY, the 2^-100 floor): scenes at 2^-140..2^-100,
 *    axis components snapped to subnormals, with FTZ/DAZ.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fn_common.h"
#include "robust_util.h"

#define NV 64
#define ROUNDS 40
#define SLACK 0x1p-40

typedef void (*camera_fn)(fn_rng *r, satc_camera *c, double *scale);

static void frame(fn_rng *r, satc_camera *c, int axis_aligned)
{
    if (axis_aligned) { /* exact: a signed permutation of the world axes */
        static const float I[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        memcpy(c->left, I[0], sizeof c->left);
        memcpy(c->up, I[1], sizeof c->up);
        memcpy(c->dir, I[2], sizeof c->dir);
        return;
    }
    double R[3][3];
    fn_rotation(r, R);
    fn_frame(R, c);
}

static void ortho_offcenter(fn_rng *r, satc_camera *c, double *s)
{
    frame(r, c, fn_next(r) & 1);
    c->orthographic = 1;
    c->l0 = (float)(-1e5 * fn_unif(r, 0.5, 2)), c->l1 = (float)fn_unif(r, 0.5, 10);
    c->u0 = (float)(-1e5 * fn_unif(r, 0.5, 2)), c->u1 = (float)fn_unif(r, 0.5, 10);
    c->n = (float)fn_unif(r, -10, 0), c->f = (float)(1e5 * fn_unif(r, 0.5, 2));
    *s = 1;
}

static void ortho_small(fn_rng *r, satc_camera *c, double *s)
{
    frame(r, c, 0);
    c->orthographic = 1;
    c->l0 = (float)fn_unif(r, -1, 0), c->l1 = c->l0 + (float)fn_unif(r, 0.1, 1);
    c->u0 = (float)fn_unif(r, -1, 0), c->u1 = c->u0 + (float)fn_unif(r, 0.1, 1);
    c->n = (float)fn_unif(r, -1, 0), c->f = c->n + (float)fn_unif(r, 0.1, 1);
    *s = 1;
}

static void persp(fn_rng *r, satc_camera *c, double slope, double n, double f)
{
    frame(r, c, 0);
    double a = slope * fn_unif(r, 0.5, 1.5);
    c->l0 = (float)(-slope * n), c->l1 = (float)(slope * n);
    c->u0 = (float)(-a * n), c->u1 = (float)(a * n);
    c->n = (float)n, c->f = (float)f;
}

static void persp_normal(fn_rng *r, satc_camera *c, double *s)
{
    persp(r, c, fn_unif(r, 0.3, 2), fn_unif(r, 0.1, 1), 1e6);
    *s = 1;
}

static void persp_wide(fn_rng *r, satc_camera *c, double *s)
{
    double n = fn_unif(r, 0.1, 1);
    persp(r, c, fn_logu(r, 6, 10), n, 4 * n);
    *s = 1;
}

static void tiny_scale(fn_rng *r, satc_camera *c, double *s)
{
    *s = exp2((double)(int)fn_unif(r, -140, -99));
    persp(r, c, fn_unif(r, 0.3, 2), *s * fn_unif(r, 0.5, 2), *s * 1e4);
    frame(r, c, fn_next(r) & 1);
}

/* A point on the faces x = l1, y = u1 or z = n of an orthographic frustum,
 * within 10 units of the corner (l1, u1, n) near the camera: where S is
 * small and the frustum's own rounding (far side at -1e5) dominates. */
static void near_corner(fn_rng *r, const satc_camera *c, double q[3], double nrm[3])
{
    double hi[3] = {c->l1, c->u1, c->n}, sg[3] = {1, 1, -1};
    for (int k = 0; k < 3; k++) {
        q[k] = hi[k] - sg[k] * fn_unif(r, 0, 10);
        nrm[k] = 0;
    }
    int pin = 1 + (int)(fn_next(r) % 2), first = (int)(fn_next(r) % 3);
    for (int p = 0; p < pin; p++) {
        int k = (first + p) % 3;
        q[k] = hi[k], nrm[k] = sg[k];
    }
}

/* One family: ROUNDS cameras, NV grazing volumes each, box lengths
 * s 2^[lo, hi); points at depth at least zmin times the near distance;
 * corner: points from near_corner. */
static void family_at(const char *name, camera_fn cam, double lo, double hi, double zmin,
                      int corner, uint64_t seed)
{
    fn_rng r = {seed};
    long witnessed = 0, fns = 0, frusta = 0;
    for (int round = 0; round < ROUNDS; round++) {
        satc_camera c;
        double s;
        memset(&c, 0, sizeof c);
        cam(&r, &c, &s);
        satc_frustum f;
        if (!rb_check(satc_frustum_from_camera(&f, &c) == SATC_OK, "%s: camera %d", name, round))
            continue;
        frusta++;
        fn_vol v[NV];
        unsigned char want[NV];
        memset(v, 0, sizeof v);
        for (int i = 0; i < NV; i++) {
            double q[3], nq[3], P[3], nw[3], z0[3] = {0, 0, 0}, E0[3];
            if (corner)
                near_corner(&r, &c, q, nq);
            else
                do
                    fn_boundary_point(&r, &c, q, nq);
                while (q[2] < zmin * c.n && !c.orthographic && c.n > 0);
            fn_to_world(&c, q, P);
            fn_to_world(&c, nq, nw);
            fn_to_world(&c, z0, E0);
            for (int k = 0; k < 3; k++)
                nw[k] -= E0[k];
            fn_volume_at(&r, s, lo, hi, P, nw, &v[i]);
        }
        fn_want(&c, v, NV, SLACK, want);
        for (int i = 0; i < NV; i++)
            witnessed += want[i] != 0;
        fns += fn_check_all(&f, v, want, NV, name);
    }
    printf("%-16s %ld frusta, %ld volumes with a witness, %ld false negatives\n", name, frusta,
           witnessed, fns);
    rb_check(witnessed >= (long)ROUNDS * NV / 8, "%s: only %ld witnesses", name, witnessed);
    rb_check(fns == 0, "%s: %ld false negatives", name, fns);
}

static void family(const char *name, camera_fn cam, double lo, double hi, double zmin, uint64_t seed)
{
    family_at(name, cam, lo, hi, zmin, 0, seed);
}

int main(void)
{
    family_at("ortho_offcenter", ortho_offcenter, -20, -4, 0, 1, 1601);
    family("ortho_bigbox", ortho_small, 8, 16, 0, 1602);
    family("persp_far", persp_normal, -10, 0, 1e3, 1603);
    family("persp_long", persp_normal, 10, 16, 0, 1604);
    family("persp_wide", persp_wide, 8, 14, 1, 1605);
    family("tiny_scale", tiny_scale, -8, 2, 0, 1606);
    return rb_finish();
}
