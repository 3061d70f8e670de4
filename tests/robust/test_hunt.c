/*
 * False-negative hunter: searches where rounding is worst and
 * fails on any visible volume reported hidden, on every runnable path,
 * both modes, FTZ/DAZ off and on, as OBB, half-axis and instance boxes.
 * Each round draws a scale 2^-120..2^100 and a frustum (perspective with
 * slopes 2^-6..2^10, symmetric or off-center, finite or infinite far; or
 * orthographic, large and off-center; or a glm matrix of any convention
 * rounded from double), then volumes:
 *  - grazing: a point on a frustum face, edge or corner is a vertex, edge
 *    or face point of the box, which extends outward (or inward);
 *  - extreme axes: lengths 2^-30..2^20 times the scale, non-orthogonal,
 *    components snapped to subnormals or zero, unit axes with long
 *    extents or long axes with extent 1;
 *  - random boxes near the frustum, judged by the clipping oracle
 *    (tests/common/oracle.h).
 * Truth: a box point (from the float fields, in double) inside the
 * frustum or outside by at most 2^-44 of its magnitude (far inside the
 * contract's band), or inside a float matrix's clip volume in long
 * double; or the oracle. Fixed seed; runs --seconds N (default 10, or
 * SATC_HUNT_SECONDS), prints what it tried.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fn_common.h"
#include "oracle.h"
#include "robust_util.h"

#define NV 32
#define SLACK 0x1p-44

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#define logu fn_logu

/* A camera at scale s; 0 when its numbers leave float range. */
static int random_camera(fn_rng *r, double s, satc_camera *c)
{
    double R[3][3];
    memset(c, 0, sizeof *c);
    fn_rotation(r, R);
    fn_frame(R, c);
    double off = fn_next(r) % 4 == 0 ? logu(r, 0, 20) : fn_unif(r, 0, 100);
    for (int k = 0; k < 3; k++)
        c->origin[k] = (float)(s * off * fn_unif(r, -1, 1));
    if (fn_next(r) % 10 < 7) {
        double n = s * logu(r, -4, 4), sx = logu(r, -6, 10), sy = sx * logu(r, -3, 3);
        double x0 = -sx, x1 = sx, y0 = -sy, y1 = sy;
        if (fn_next(r) & 1) { /* off-center, maybe not holding the axis */
            double a = fn_unif(r, -sx, sx), b = fn_unif(r, -sx, sx);
            x0 = fmin(a, b), x1 = fmax(a, b) + 0.01 * sx;
            a = fn_unif(r, -sy, sy), b = fn_unif(r, -sy, sy);
            y0 = fmin(a, b), y1 = fmax(a, b) + 0.01 * sy;
        }
        c->n = (float)n;
        c->l0 = (float)(x0 * n), c->l1 = (float)(x1 * n);
        c->u0 = (float)(y0 * n), c->u1 = (float)(y1 * n);
        c->f = fn_next(r) % 6 == 0 ? INFINITY : (float)(n * logu(r, 1, 30));
    } else {
        c->orthographic = 1;
        double w = s * logu(r, -4, 10), h = s * logu(r, -4, 10);
        double cl = s * fn_unif(r, -1, 1) * logu(r, 0, 17), cu = s * fn_unif(r, -1, 1) * logu(r, 0, 10);
        double n = s * fn_unif(r, -10, 10);
        c->l0 = (float)(cl - w), c->l1 = (float)(cl + w), c->u0 = (float)(cu - h), c->u1 = (float)(cu + h);
        c->n = (float)n, c->f = (float)(n + s * logu(r, 0, 12));
    }
    satc_frustum f;
    return isfinite(c->f) || !c->orthographic ? satc_frustum_from_camera(&f, c) == SATC_OK : 0;
}

typedef struct stats {
    long rounds, frusta, refused, volumes, witnessed, checks, fns;
} stats;

/* The library against the forms the oracle witnessed touching f (bit b of
 * want[i]: form b of volume i), counted into st. */
static void check_witnessed(stats *st, const satc_frustum *f, const fn_vol *v,
                            const unsigned char want[NV], const char *tag)
{
    for (int i = 0; i < NV; i++) {
        for (int b = 0; b < FN_NFORMS; b++)
            st->checks += want[i] >> b & 1;
        st->witnessed += want[i] != 0;
    }
    st->volumes += NV;
    st->fns += fn_check_all(f, v, want, NV, tag);
}

static void hunt_camera(fn_rng *r, stats *st)
{
    double s = fn_next(r) % 4 == 0 ? 1 : exp2((double)(int)fn_unif(r, -120, 101));
    satc_camera c;
    satc_frustum f;
    if (!random_camera(r, s, &c) || satc_frustum_from_camera(&f, &c) != SATC_OK) {
        st->refused++;
        return;
    }
    st->frusta++;
    fn_vol v[NV];
    unsigned char want[NV];
    memset(v, 0, sizeof v);
    int oracle = fn_next(r) % 4 == 0;
    for (int i = 0; i < NV; i++) {
        double q[3], nq[3], P[3], nw[3], z[3] = {0, 0, 0};
        fn_boundary_point(r, &c, q, nq);
        fn_to_world(&c, q, P);
        fn_to_world(&c, nq, nw);
        double E0[3];
        fn_to_world(&c, z, E0);
        for (int k = 0; k < 3; k++)
            nw[k] -= E0[k];
        double bs = fn_scale(&c, P) * (oracle ? 1e-2 : 1);
        fn_volume_at(r, oracle ? bs : s, -30, 20, P, nw, &v[i]);
        if (oracle) { /* unit axes, center moved off the boundary at random */
            for (int j = 0; j < 3; j++) {
                double l = 0;
                for (int k = 0; k < 3; k++)
                    l += (double)v[i].a[j][k] * v[i].a[j][k];
                for (int k = 0; k < 3; k++)
                    v[i].a[j][k] = (float)(v[i].a[j][k] / sqrt(l));
                v[i].e[j] = (float)(bs * fn_unif(r, 0, 1));
            }
            for (int k = 0; k < 3; k++)
                v[i].c[k] = (float)(P[k] + bs * fn_unif(r, -2, 2));
        }
    }
    fn_want(&c, v, NV, SLACK, want);
    if (oracle) {
        for (int i = 0; i < NV; i++) {
            satc_obb b;
            memcpy(b.center, v[i].c, sizeof b.center);
            memcpy(b.axis, v[i].a, sizeof b.axis);
            memcpy(b.extent, v[i].e, sizeof b.extent);
            if (orc_intersects(&c, &b, 0.0))
                want[i] |= 1u << FN_OBB;
        }
    }
    char tag[96];
    snprintf(tag, sizeof tag, "%s camera, scale 2^%d", c.orthographic ? "ortho" : "persp",
             (int)log2(s));
    fn_debug_cam = &c;
    check_witnessed(st, &f, v, want, tag);
    fn_debug_cam = NULL;
}

static void hunt_matrix(fn_rng *r, stats *st)
{
    double s = exp2((double)(int)fn_unif(r, -100, 101));
    unsigned conv = fn_convs[fn_next(r) % FN_NCONVS];
    int ortho = fn_next(r) % 4 == 0 && !(conv & SATC_DEPTH_INFINITE_FAR);
    double R[3][3], eye[3], at[3], M[4][4];
    fn_rotation(r, R);
    double dist = s * logu(r, 0, 17);
    for (int k = 0; k < 3; k++)
        eye[k] = R[0][k] * dist, at[k] = eye[k] + R[1][k] * s;
    double n = s * logu(r, -7, 3), fa = n * logu(r, 1, 24);
    if (ortho) {
        double w = s * logu(r, -3, 10), h = s * logu(r, -3, 10), cx = fn_unif(r, -2, 2) * w;
        fn_view_ortho(cx - w, cx + w, -h, h, fn_unif(r, -1, 1) * n, fa, eye, at, conv, M);
    } else {
        fn_view_proj(fn_unif(r, 0.05, 3.1), logu(r, -2, 2), n, fa, eye, at, conv, M);
    }
    float mf[4][4], arr[16];
    satc_frustum f;
    if (!fn_round_matrix(M, conv, mf, arr) || satc_frustum_from_matrix(&f, arr, conv) != SATC_OK) {
        st->refused++;
        return;
    }
    st->frusta++;
    double zn = (conv & SATC_DEPTH_ZERO_TO_ONE) ? 0 : -1, zf = 1;
    if (conv & SATC_DEPTH_REVERSED)
        zn = zf, zf = (conv & SATC_DEPTH_ZERO_TO_ONE) ? 0 : -1;
    fn_vol v[NV];
    unsigned char want[NV];
    memset(v, 0, sizeof v);
    for (int i = 0; i < NV; i++) {
        /* NDC near a face, edge or corner of the clip volume. */
        long double ndc[4] = {0, 0, 0, 1}, x[4];
        for (int k = 0; k < 3; k++) {
            double e = ldexp(1, -(int)(fn_next(r) % 40) - 1);
            double u = fn_next(r) % 3 ? 1 - e : fn_unif(r, 0, 1);
            if (k < 2)
                ndc[k] = fn_next(r) & 1 ? u : -u;
            else
                ndc[k] = fn_next(r) & 1 ? zn + (zf - zn) * (1 - u) : zf - (zf - zn) * (1 - u);
        }
        want[i] = 0;
        if (!fn_solve4(mf, ndc, x) || !(x[3] != 0))
            continue;
        double P[3], nz[3] = {0, 0, 0};
        for (int k = 0; k < 3; k++)
            P[k] = (double)(x[k] / x[3]);
        if (!isfinite(P[0]) || !isfinite(P[1]) || !isfinite(P[2]))
            continue;
        double bs = 0;
        for (int k = 0; k < 3; k++)
            bs += fabs(P[k] - f.origin[k]);
        fn_volume_at(r, bs * ldexp(1, -(int)(fn_next(r) % 30)), -30, 20, P, nz, &v[i]);
        fn_sphere_radius(&v[i]);
        for (int form = 0; form < FN_NFORMS; form++) {
            double w[3];
            if (form == FN_AABB && !fn_world_axes(&v[i]))
                continue;
            fn_witness(&v[i], form >= FN_AABB ? FN_OBB : form, w);
            if (fn_in_clip(mf, w, conv))
                want[i] |= (unsigned char)(1u << form);
        }
    }
    char tag[96];
    snprintf(tag, sizeof tag, "%s matrix, conventions %u, scale 2^%d", ortho ? "ortho" : "persp",
             conv, (int)log2(s));
    check_witnessed(st, &f, v, want, tag);
}

int main(int argc, char **argv)
{
    double seconds = 10;
    const char *env = getenv("SATC_HUNT_SECONDS");
    if (env)
        seconds = atof(env);
    unsigned long long seed = 0x68756e74ull;
    for (int i = 1; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "--seconds"))
            seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--seed"))
            seed = strtoull(argv[++i], NULL, 0);
    }
    fn_rng r = {seed};
    stats st = {0};
    int paths = 0;
    for (unsigned isa = 1; isa <= SATC_ISA_AVX512; isa <<= 1)
        paths += (satc_isa_runnable() & isa) != 0;
    long per_form = (long)paths * 2 * (1 + fn_fp_has_ftz());
    double t0 = now();
    while (now() - t0 < seconds || st.rounds < 16) {
        if (st.rounds % 4 == 3)
            hunt_matrix(&r, &st);
        else
            hunt_camera(&r, &st);
        st.rounds++;
    }
    double dt = now() - t0;
    st.checks *= per_form;
    printf("hunt: seed 0x%llx, %.1f s, %ld rounds, %ld frusta (%ld refused with a status), "
           "%ld volumes (%ld with a witness), %ld paths, %ld checks of a witnessed volume "
           "(form x path x mode x FTZ), %ld false negatives\n",
           seed, dt, st.rounds, st.frusta, st.refused, st.volumes, st.witnessed, (long)paths,
           st.checks, st.fns);
    rb_check(st.witnessed > st.volumes / 4, "only %ld of %ld volumes have a witness", st.witnessed,
             st.volumes);
    rb_check(st.fns == 0, "%ld false negatives", st.fns);
    return rb_finish();
}
