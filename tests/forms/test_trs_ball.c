/*
 * Conservative mode's splat ball (center p, radius k |s|_2) where it is
 * tight: splat cubes placed against one face of the frustum, in 48-byte
 * records with float quaternions, against a double oracle:
 *  - grazing: needles (one nonzero scale), flat boxes (two) and full
 *    ones, rotated at random, whose support along the face's outward
 *    normal lies from 10^-7 to 10^-1 of their size outside or inside the
 *    face (a needle along the normal touches its ball there), plus NaN,
 *    infinite, huge (squares overflow) and tiny (squares underflow)
 *    scales: no touching box culled in either mode, conservative keeps
 *    everything exact mode keeps, a non-finite scale is never culled,
 *    every path gives the reference's bits;
 *  - tightness: balls of radius k |s|_2 outside the face by 10^-3 to
 *    10^-1 of the radius (plus the tolerance's reach) are culled, which a
 *    looser ball (k |s|_1) would keep.
 * Cameras near and 10^5 from the origin. SATC_TEST_QUICK runs fewer.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "forms_run.h"
#include "oracle.h"
#include "robust_util.h"

enum { NS = 4000 };

typedef struct face {
    double n[3], x[3]; /* unit outward normal, a point of the face */
} face;

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* A point of face j (0..3 sides, 4 near, 5 far) of cam, in the middle
 * 95 % of it, and the face's outward unit normal, in double. */
static void pick_face(rb_rng *r, const satc_camera *cam, int j, face *o)
{
    double L[3], U[3], D[3];
    for (int q = 0; q < 3; q++)
        L[q] = cam->left[q], U[q] = cam->up[q], D[q] = cam->dir[q];
    double n = cam->n, fz = isfinite(cam->f) ? cam->f : 1e3 * n;
    double z = j == 4 ? n : j == 5 ? fz : n * exp(rb_uniform(r, 0, log(fz / n < 50 ? fz / n : 50)));
    double ta = rb_uniform(r, 0.025, 0.975), tb = rb_uniform(r, 0.025, 0.975);
    double a = (cam->l0 + ta * (cam->l1 - cam->l0)) * z / n;
    double b = (cam->u0 + tb * (cam->u1 - cam->u0)) * z / n;
    double nv[3] = {0, 0, 0}; /* in (L, U, D) coordinates */
    if (j == 0)
        a = cam->l1 * z / n, nv[0] = n, nv[2] = -cam->l1;
    else if (j == 1)
        a = cam->l0 * z / n, nv[0] = -n, nv[2] = cam->l0;
    else if (j == 2)
        b = cam->u1 * z / n, nv[1] = n, nv[2] = -cam->u1;
    else if (j == 3)
        b = cam->u0 * z / n, nv[1] = -n, nv[2] = cam->u0;
    else
        nv[2] = j == 4 ? -1 : 1;
    double len = sqrt(dot3(nv, nv));
    for (int q = 0; q < 3; q++) {
        o->x[q] = cam->origin[q] + a * L[q] + b * U[q] + z * D[q];
        o->n[q] = (nv[0] * L[q] + nv[1] * U[q] + nv[2] * D[q]) / len;
    }
}

/* R(q / |q|) in double. */
static void rot_of(const float qf[4], double R[3][3])
{
    double q[4];
    for (int c = 0; c < 4; c++)
        q[c] = qf[c];
    double nq = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    double x = q[0] / nq, y = q[1] / nq, z = q[2] / nq, w = q[3] / nq;
    double M[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
                      {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
                      {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}};
    memcpy(R, M, sizeof M);
}

/* The rotation taking the local corner direction s / |s| to n (unit),
 * as a float quaternion (x, y, z, w): the box's farthest corner along n
 * is then on the ball. */
static void corner_to(const double s[3], const double n[3], float q[4])
{
    double c[3], ls = sqrt(dot3(s, s));
    for (int j = 0; j < 3; j++)
        c[j] = s[j] / ls;
    double x[3] = {c[1] * n[2] - c[2] * n[1], c[2] * n[0] - c[0] * n[2], c[0] * n[1] - c[1] * n[0]};
    double w = 1.0 + dot3(c, n);
    if (w < 1e-9) { /* opposite: a half turn about an axis normal to c */
        double a[3] = {-c[1], c[0], 0}, t[3] = {0, -c[2], c[1]};
        const double *e = dot3(a, a) > 0.1 ? a : t;
        x[0] = e[0], x[1] = e[1], x[2] = e[2], w = 0;
    }
    double m = sqrt(dot3(x, x) + w * w);
    for (int j = 0; j < 3; j++)
        q[j] = (float)(x[j] / m);
    q[3] = (float)(w / m);
}

typedef struct tallies {
    long touching, culled_touching, exact_only, nonfinite_culled, tight, tight_kept;
} tallies;

/* n splats against cam, grazing (tight 0) or as balls just outside (tight
 * 1); checks as the header says. */
static void run_case(rb_rng *r, const satc_camera *cam, int tight, tallies *ty, const char *what)
{
    const double k = SATC_SPLAT_K_DEFAULT;
    size_t n = rb_quick() ? NS / 4 : NS;
    float *rec = calloc(n, 48);
    unsigned char *flag = calloc(n, 1); /* 1 touching, 2 non-finite, 4 ball outside */
    double(*ctr)[3] = calloc(n, sizeof *ctr), (*ext)[3] = calloc(n, sizeof *ext);
    double(*ax)[3][3] = calloc(n, sizeof *ax);
    satc_frustum f;
    if (!rec || !flag || !ctr || !ext || !ax ||
        !rb_check(satc_frustum_from_camera(&f, cam) == SATC_OK, "%s: camera", what))
        exit(1);
    for (size_t i = 0; i < n; i++) {
        float *o = rec + 12 * i;
        face fc;
        pick_face(r, cam, (int)(rb_next(r) % (isfinite(cam->f) ? 6 : 5)), &fc);
        double R[3][3], s[3];
        double size = dot3(fc.x, fc.x) > 0 ? 1e-3 * sqrt(dot3(fc.x, fc.x)) : 1e-3;
        double L = size * exp(rb_uniform(r, log(1e-3), log(1e3)));
        unsigned kind = (unsigned)(rb_next(r) % 4), lead = (unsigned)(rb_next(r) % 3);
        for (int j = 0; j < 3; j++)
            s[j] = j == (int)lead ? L : kind == 0 ? 0.0 : kind == 1 && j == (int)(lead + 1) % 3 ? 0.0 : L * rb_uniform(r, 0.01, 1);
        if (!tight && rb_next(r) % 2)
            corner_to(s, fc.n, o + 8); /* a corner on the ball, where it meets the face */
        else
            rb_random_quat(r, o + 8); /* float (x, y, z, w) at offset 32 */
        rot_of(o + 8, R);
        if (!tight && rb_next(r) % 32 == 0) { /* special scales */
            static const double sp[5] = {NAN, INFINITY, 3e22, 1e-25, -INFINITY};
            s[rb_next(r) % 3] = sp[rb_next(r) % 5];
        }
        double h = 0, rb = 0; /* the box's support along n, the ball's radius */
        for (int j = 0; j < 3; j++) {
            double col[3] = {R[0][j], R[1][j], R[2][j]};
            h += k * fabs(s[j]) * fabs(dot3(fc.n, col));
            rb += s[j] * s[j];
        }
        rb = k * sqrt(rb);
        double gap;
        if (tight) /* the ball outside by 10^-3..10^-1 of r, beyond the tolerance */
            gap = rb + rb * exp(rb_uniform(r, log(1e-3), log(1e-1))) +
                  1e-4 * (sqrt(dot3(fc.x, fc.x)) + cam->n);
        else
            gap = h + (rb_next(r) % 2 ? 1 : -1) * (h + L) * exp(rb_uniform(r, log(1e-7), log(1e-1)));
        double p[3];
        for (int q = 0; q < 3; q++) {
            p[q] = fc.x[q] + (isfinite(gap) ? gap : 0) * fc.n[q];
            o[q] = (float)p[q];
        }
        for (int j = 0; j < 3; j++)
            o[3 + j] = (float)s[j];
        int fin = 1;
        for (int j = 0; j < 3; j++) {
            fin &= isfinite(o[3 + j]) && fabsf(o[3 + j]) < 1e19f;
            ext[i][j] = k * fabs((double)o[3 + j]);
            ctr[i][j] = o[j];
            for (int q = 0; q < 3; q++)
                ax[i][j][q] = R[q][j];
        }
        flag[i] = (unsigned char)(!fin ? 2 : tight ? 4 : 0);
        if (fin && !tight && orc_intersects_pp(cam, ctr[i], ext[i], ax[i]))
            flag[i] |= 1;
    }
    satc_batch b;
    memset(&b, 0, sizeof b);
    b.form = SATC_FORM_TRS;
    b.trs.position = SATC_VEC3S_AOS(rec, 48);
    b.trs.scale = SATC_VEC3S_AOS(rec + 3, 48);
    b.trs.rotation = rec + 8;
    b.trs.rotation_stride = 48;
    b.trs.format = SATC_QUAT_F32;
    fr_out ref[2];
    fr_out_init(&ref[0], n), fr_out_init(&ref[1], n);
    fr_check_paths(what, &f, &b, 0, n, ref);
    for (size_t i = 0; i < n; i++) {
        int cv = fr_bit(&ref[0], i), ev = fr_bit(&ref[1], i);
        if (flag[i] & 1) {
            ty->touching++;
            if (!cv || !ev)
                ty->culled_touching++;
            rb_check(cv && ev, "%s splat %zu: touches, culled (conservative %d exact %d)", what, i,
                     cv, ev);
        }
        if (ev && !cv)
            ty->exact_only++;
        rb_check(cv || !ev, "%s splat %zu: exact keeps it, conservative culls it", what, i);
        if (flag[i] & 2) {
            ty->nonfinite_culled += !cv || !ev;
            rb_check(cv && ev, "%s splat %zu: a non-finite scale culled", what, i);
        }
        if (flag[i] & 4) {
            ty->tight++;
            ty->tight_kept += cv;
            rb_check(!cv, "%s splat %zu: its ball is outside a face, kept", what, i);
        }
    }
    fr_out_free(&ref[0]), fr_out_free(&ref[1]);
    free(rec), free(flag), free(ctr), free(ext), free(ax);
}

int main(void)
{
    rb_rng r = {0x62616c6cull};
    tallies ty = {0};
    for (int far = 0; far < 2; far++) {
        for (int c = 0; c < 3; c++) {
            satc_camera cam;
            const float eye[3] = {far ? 1.0e5f : 0.5f, far ? -3.0e4f : 1.5f, far ? 2.0e4f : -2.0f};
            rb_camera_persp(&cam, &r, eye, c == 2 ? 0.01f : 0.1f, c == 1 ? INFINITY : 200.0f);
            for (int tight = 0; tight < 2; tight++) {
                char what[64];
                snprintf(what, sizeof what, "%s camera %d%s", tight ? "tight" : "grazing", c,
                         far ? " far" : "");
                run_case(&r, &cam, tight, &ty, what);
            }
        }
    }
    printf("splat balls: %ld touching (%ld culled), %ld kept by exact only, %ld non-finite "
           "culled; %ld balls outside a face (%ld kept)\n",
           ty.touching, ty.culled_touching, ty.exact_only, ty.nonfinite_culled, ty.tight,
           ty.tight_kept);
    rb_check(ty.touching > 1000 && ty.tight > 1000, "the scenes hold touching and tight splats");
    return rb_finish();
}
