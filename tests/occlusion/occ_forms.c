#include "occ_forms.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static float up(double x)
{
    float f = (float)x;
    return (double)f < x ? nextafterf(f, INFINITY) : f;
}
static float down(double x)
{
    float f = (float)x;
    return (double)f > x ? nextafterf(f, -INFINITY) : f;
}

static void box_of_floats(occ_box *o, const float c[3], const float h[3][3])
{
    /* center and half-axis vectors (float) as a box with unit axes */
    for (int j = 0; j < 3; j++) {
        double l = sqrt((double)h[j][0] * h[j][0] + (double)h[j][1] * h[j][1] +
                        (double)h[j][2] * h[j][2]);
        for (int k = 0; k < 3; k++)
            o->a[j][k] = l > 0 ? h[j][k] / l : (k == j);
        o->e[j] = l;
    }
    for (int k = 0; k < 3; k++)
        o->c[k] = c[k];
}

void occ_forms_make(occ_forms *s, const occ_box *b, size_t n, const float *mats,
                    const float lc[3], const float lh[3])
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->obb = malloc(n * 15 * sizeof(float));
    s->aabb = malloc(n * 6 * sizeof(float));
    s->mm = malloc(n * 6 * sizeof(float));
    s->half = malloc(n * 12 * sizeof(float));
    s->mat = malloc(n * 16 * sizeof(float));
    s->sph = malloc(n * 4 * sizeof(float));
    for (int f = 1; f <= 6; f++)
        s->vols[f] = calloc(n, sizeof(occ_vol));
    const float ulc[3] = {0, 0, 0}, ulh[3] = {0.5f, 0.5f, 0.5f};
    memcpy(s->lc, mats ? lc : ulc, sizeof s->lc);
    memcpy(s->lh, mats ? lh : ulh, sizeof s->lh);
    for (size_t i = 0; i < n; i++) {
        const occ_box *x = &b[i];
        float *o = s->obb + 15 * i, *hv = s->half + 12 * i, *m = s->mat + 16 * i;
        float c[3], H[3][3];
        for (int k = 0; k < 3; k++)
            o[k] = hv[k] = c[k] = (float)x->c[k];
        for (int j = 0; j < 3; j++) {
            for (int k = 0; k < 3; k++) {
                o[3 + 3 * j + k] = (float)x->a[j][k];
                hv[3 + 3 * j + k] = H[j][k] = (float)(x->e[j] * x->a[j][k]);
            }
            o[12 + j] = (float)x->e[j];
        }
        /* OBB and half axes: the oracle's box from the floats */
        float A[3][3];
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++)
                A[j][k] = o[3 + 3 * j + k] * o[12 + j];
        box_of_floats(&s->vols[SATC_FORM_OBB][i].box, c, A);
        box_of_floats(&s->vols[SATC_FORM_HALF_AXES][i].box, c, H);
        /* world AABB, rounded outward */
        float *a = s->aabb + 6 * i, *mm = s->mm + 6 * i;
        occ_box *ab = &s->vols[SATC_FORM_AABB][i].box, *mb = &s->vols[SATC_FORM_MINMAX][i].box;
        memset(ab, 0, sizeof *ab), memset(mb, 0, sizeof *mb);
        for (int k = 0; k < 3; k++) {
            double r = 0;
            for (int j = 0; j < 3; j++)
                r += x->e[j] * fabs(x->a[j][k]);
            r = r * (1 + 1e-6) + 1e-6;
            a[k] = (float)x->c[k];
            a[3 + k] = up(r + fabs(a[k] - x->c[k]));
            mm[k] = down(x->c[k] - r), mm[3 + k] = up(x->c[k] + r);
            ab->c[k] = a[k], ab->e[k] = a[3 + k], ab->a[k][k] = 1;
            mb->c[k] = 0.5 * ((double)mm[k] + mm[3 + k]);
            mb->e[k] = 0.5 * ((double)mm[3 + k] - mm[k]), mb->a[k][k] = 1;
        }
        /* sphere */
        float *sp = s->sph + 4 * i;
        double rr = sqrt(x->e[0] * x->e[0] + x->e[1] * x->e[1] + x->e[2] * x->e[2]);
        for (int k = 0; k < 3; k++)
            sp[k] = (float)x->c[k];
        double dc = fabs(sp[0] - x->c[0]) + fabs(sp[1] - x->c[1]) + fabs(sp[2] - x->c[2]);
        sp[3] = up((rr + dc) * (1 + 1e-6));
        occ_vol *sv = &s->vols[SATC_FORM_SPHERES][i];
        sv->sphere = 1, sv->r = sp[3];
        for (int k = 0; k < 3; k++)
            sv->c[k] = sp[k];
        /* instances */
        if (mats) {
            memcpy(m, mats + 16 * i, 16 * sizeof(float));
        } else {
            for (int j = 0; j < 3; j++)
                for (int k = 0; k < 3; k++)
                    m[4 * j + k] = (float)(2 * x->e[j] * x->a[j][k]);
            for (int k = 0; k < 3; k++)
                m[12 + k] = (float)x->c[k];
            m[3] = m[7] = m[11] = 0, m[15] = 1;
        }
        /* the instance's box from its float matrix and local box */
        float ic[3], iH[3][3];
        for (int k = 0; k < 3; k++) {
            double v = m[12 + k];
            for (int j = 0; j < 3; j++)
                v += (double)m[4 * j + k] * s->lc[j];
            ic[k] = (float)v;
        }
        occ_box *ib = &s->vols[SATC_FORM_INSTANCES][i].box;
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++)
                iH[j][k] = (float)((double)m[4 * j + k] * s->lh[j]);
        box_of_floats(ib, ic, iH);
        for (int k = 0; k < 3; k++) { /* the rounding of ic and iH: grow a little */
            double v = m[12 + k];
            for (int j = 0; j < 3; j++)
                v += (double)m[4 * j + k] * s->lc[j];
            ib->c[k] = v;
        }
    }
}

void occ_forms_free(occ_forms *s)
{
    free(s->obb), free(s->aabb), free(s->mm), free(s->half), free(s->mat), free(s->sph);
    for (int f = 1; f <= 6; f++)
        free(s->vols[f]);
    memset(s, 0, sizeof *s);
}

satc_batch occ_forms_batch(const occ_forms *s, satc_form form)
{
    satc_batch b;
    memset(&b, 0, sizeof b);
    b.form = form;
    switch (form) {
    case SATC_FORM_OBB:
        b.obb.center = SATC_VEC3S_AOS(s->obb, 60);
        for (int j = 0; j < 3; j++)
            b.obb.axis[j] = SATC_VEC3S_AOS(s->obb + 3 + 3 * j, 60);
        b.obb.extent = SATC_VEC3S_AOS(s->obb + 12, 60);
        break;
    case SATC_FORM_AABB:
        b.aabb.center = SATC_VEC3S_AOS(s->aabb, 24);
        b.aabb.half = SATC_VEC3S_AOS(s->aabb + 3, 24);
        break;
    case SATC_FORM_MINMAX:
        b.minmax.min = SATC_VEC3S_AOS(s->mm, 24);
        b.minmax.max = SATC_VEC3S_AOS(s->mm + 3, 24);
        break;
    case SATC_FORM_HALF_AXES:
        b.half_axes.center = SATC_VEC3S_AOS(s->half, 48);
        for (int j = 0; j < 3; j++)
            b.half_axes.axis[j] = SATC_VEC3S_AOS(s->half + 3 + 3 * j, 48);
        break;
    case SATC_FORM_INSTANCES:
        b.instances.matrix = s->mat;
        b.instances.stride = 64;
        b.instances.layout = SATC_AFFINE_4X4_COLUMN_MAJOR;
        b.instances.local_center = (satc_vec3s){&s->lc[0], &s->lc[1], &s->lc[2], 0};
        b.instances.local_half = (satc_vec3s){&s->lh[0], &s->lh[1], &s->lh[2], 0};
        break;
    default:
        b.spheres.center = SATC_VEC3S_AOS(s->sph, 16);
        b.spheres.radius = (satc_floats){s->sph + 3, 16};
        break;
    }
    return b;
}
