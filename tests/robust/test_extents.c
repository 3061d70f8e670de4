/*
 * Zero and denormal extents, and denormals under flush-to-zero /
 * denormals-are-zero, on every path.
 *  - Point boxes (all extents 0) and boxes with denormal extents: a point
 *    inside the frustum with margin is SATC_INSIDE, one outside with
 *    margin is culled in both modes (for a point the plane test is exact),
 *    and a point on a face is visible. Flat boxes (one or two extents 0)
 *    equal the scalar path.
 *  - Denormal extents give the same classes as zero extents.
 *  - With FTZ/DAZ on (x86 MXCSR, AArch64 FPCR.FZ), batches full of
 *    denormal fields give the same output on every path as the scalar one.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#include "robust_util.h"

#define N 600

/* Frame coordinates of a world point, in double. */
static void to_frame(const satc_camera *c, const float p[3], double q[3])
{
    double d[3] = {(double)p[0] - c->origin[0], (double)p[1] - c->origin[1],
                   (double)p[2] - c->origin[2]};
    const float *rows[3] = {c->left, c->up, c->dir};
    for (int k = 0; k < 3; k++)
        q[k] = rows[k][0] * d[0] + rows[k][1] * d[1] + rows[k][2] * d[2];
}

/* Largest of the six plane functions (> 0 outside), in double. */
static double plane_excess(const satc_camera *c, const double q[3])
{
    double x = q[0], y = q[1], z = q[2], e[6];
    if (c->orthographic) {
        e[0] = c->l0 - x, e[1] = x - c->l1, e[2] = c->u0 - y, e[3] = y - c->u1;
        e[4] = c->n - z, e[5] = z - c->f;
    } else {
        double n = c->n;
        e[0] = c->l0 / n * z - x, e[1] = x - c->l1 / n * z;
        e[2] = c->u0 / n * z - y, e[3] = y - c->u1 / n * z;
        e[4] = n - z, e[5] = isinf(c->f) ? -1.0 : z - c->f;
    }
    double m = e[0];
    for (int k = 1; k < 6; k++)
        m = e[k] > m ? e[k] : m;
    return m;
}

static int set_flush_to_zero(void)
{
#if defined(__x86_64__) || defined(__i386__)
    _mm_setcsr(_mm_getcsr() | 0x8040u); /* FTZ (bit 15) and DAZ (bit 6) */
    return 1;
#elif defined(__aarch64__)
    uint64_t fpcr;
    __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
    fpcr |= (uint64_t)1 << 24; /* FZ: flush inputs and outputs */
    __asm__ volatile("msr fpcr, %0" : : "r"(fpcr));
    return 1;
#else
    return 0;
#endif
}

static int same_as_scalar(satc_isa isa, const satc_frustum *f, const satc_boxes *b, size_t n,
                          satc_mode mode)
{
    rb_out ref, got;
    rb_out_alloc(&ref, n);
    rb_out_alloc(&got, n);
    rb_reference(f, b, 0, n, mode, &ref);
    satc_results res = {got.bitmask, got.classes, got.indices, 0};
    satc_status st = satc_cull_batch_isa(isa, f, b, 0, n, mode, &res);
    int ok = st == SATC_OK && res.visible == ref.visible &&
             !memcmp(got.bitmask, ref.bitmask, (n + 7) / 8) && !memcmp(got.classes, ref.classes, n) &&
             !memcmp(got.indices, ref.indices, ref.visible * sizeof(uint32_t));
    rb_out_free(&ref);
    rb_out_free(&got);
    return ok;
}

int main(void)
{
    satc_isa paths[8];
    int npaths = rb_paths(paths);
    rb_rng rng = {0x657874656e7473ull};
    float eye[3] = {-20.0f, 5.0f, 0.5f};
    satc_camera cams[3];
    const char *fr_name[3] = {"perspective", "infinite", "orthographic"};
    rb_camera_persp(&cams[0], &rng, eye, 0.25f, 100.0f);
    rb_camera_persp(&cams[1], &rng, eye, 0.25f, INFINITY);
    rb_camera_ortho(&cams[2], &rng, eye, 12.0f, 8.0f, -3.0f, 60.0f);
    const float tiny[3] = {1e-40f, 1.4e-45f /* smallest denormal */, 1.1754942e-38f};
    long inside = 0, outside = 0, on_face = 0, on_face_exact = 0;

    for (int c = 0; c < 3; c++) {
        satc_frustum f;
        if (!rb_check(satc_frustum_from_camera(&f, &cams[c]) == SATC_OK, "build %s", fr_name[c]))
            continue;
        rb_batch pts, den, flat;
        if (rb_batch_alloc(&pts, N) || rb_batch_alloc(&den, N) || rb_batch_alloc(&flat, N))
            return 2;
        int expect[N]; /* 2 inside, 0 outside, 1 on a face, -1 no claim */
        double face_ex[N]; /* on a face: the rounded point's excess, in double */
        for (size_t i = 0; i < N; i++) {
            satc_obb box;
            rb_box_near(&rng, &cams[c], &box);
            satc_obb pt = box, dn = box, fl = box;
            for (int k = 0; k < 3; k++) {
                pt.extent[k] = 0.0f;
                dn.extent[k] = tiny[(i + (size_t)k) % 3];
            }
            fl.extent[i % 3] = 0.0f;
            if (i % 2)
                fl.extent[(i + 1) % 3] = 0.0f;
            double q[3];
            to_frame(&cams[c], pt.center, q);
            double ex = plane_excess(&cams[c], q);
            double scale = 1.0 + fabs(q[0]) + fabs(q[1]) + fabs(q[2]);
            expect[i] = ex < -0.01 * scale ? 2 : ex > 0.01 * scale ? 0 : -1;
            if (i % 10 == 0) {
                /* Every tenth point on a face: the near one, or for the
                 * infinite frustum the left one at depth 7. */
                double zz = cams[c].n, xx = 0.3 * cams[c].l1, yy = 0.2 * cams[c].u0;
                if (c == 1)
                    zz = 7.0, xx = cams[c].l0 / cams[c].n * zz;
                for (int k = 0; k < 3; k++)
                    pt.center[k] = (float)(cams[c].origin[k] + xx * cams[c].left[k] +
                                           yy * cams[c].up[k] + zz * cams[c].dir[k]);
                memcpy(dn.center, pt.center, sizeof pt.center);
                expect[i] = 1;
                to_frame(&cams[c], pt.center, q);
                face_ex[i] = plane_excess(&cams[c], q);
            }
            rb_batch_set(&pts, i, &pt);
            rb_batch_set(&den, i, &dn);
            rb_batch_set(&flat, i, &fl);
        }
        for (int mode = 0; mode < 2; mode++) {
            rb_out po, dn;
            rb_out_alloc(&po, N);
            rb_out_alloc(&dn, N);
            rb_reference(&f, &pts.v, 0, N, (satc_mode)mode, &po);
            rb_reference(&f, &den.v, 0, N, (satc_mode)mode, &dn);
            for (size_t i = 0; i < N; i++) {
                unsigned cl = po.classes[i];
                if (expect[i] == 2)
                    rb_check(cl == SATC_INSIDE, "%s mode %d: point %zu inside has class %u",
                             fr_name[c], mode, i, cl);
                else if (expect[i] == 0)
                    rb_check(cl == SATC_OUTSIDE, "%s mode %d: point %zu outside has class %u",
                             fr_name[c], mode, i, cl);
                else if (expect[i] == 1 && (mode == 0 || face_ex[i] <= 0.0))
                    /* Rounded to float, a point on a face may lie outside
                     * it: conservative mode keeps it (the tolerance), exact
                     * mode only when it touches (its second stage decides
                     * such points in double). */
                    rb_check(cl != SATC_OUTSIDE, "%s mode %d: point %zu on a face culled",
                             fr_name[c], mode, i),
                        on_face_exact += mode == 1;
                if (mode == 0 && expect[i] >= 0)
                    inside += expect[i] == 2, outside += expect[i] == 0, on_face += expect[i] == 1;
                rb_check(dn.classes[i] == cl,
                         "%s mode %d box %zu: denormal extents give class %u, zero extents %u", fr_name[c],
                         mode, i, dn.classes[i], cl);
            }
            for (int p = 1; p < npaths; p++) {
                rb_check(same_as_scalar(paths[p], &f, &pts.v, N, (satc_mode)mode),
                         "%s points: %s mode %d differs from scalar", satc_isa_name(paths[p]),
                         fr_name[c], mode);
                rb_check(same_as_scalar(paths[p], &f, &den.v, N, (satc_mode)mode),
                         "%s denormal extents: %s mode %d differs from scalar",
                         satc_isa_name(paths[p]), fr_name[c], mode);
                rb_check(same_as_scalar(paths[p], &f, &flat.v, N, (satc_mode)mode),
                         "%s flat boxes: %s mode %d differs from scalar", satc_isa_name(paths[p]),
                         fr_name[c], mode);
            }
            rb_out_free(&po);
            rb_out_free(&dn);
        }
        rb_batch_free(&pts);
        rb_batch_free(&den);
        rb_batch_free(&flat);
    }
    printf("points: %ld inside, %ld outside, %ld on a face checked per mode (%ld touching in exact "
           "mode)\n", inside, outside, on_face, on_face_exact);
    rb_check(on_face_exact >= on_face / 8, "only %ld of %ld points on a face touch it after rounding",
             on_face_exact, on_face);

    /* Denormals everywhere, flush-to-zero on: every path still agrees. */
    if (set_flush_to_zero()) {
        for (int c = 0; c < 3; c++) {
            satc_frustum f;
            satc_camera cam = cams[c];
            memset(cam.origin, 0, sizeof cam.origin);
            if (satc_frustum_from_camera(&f, &cam) != SATC_OK)
                continue;
            rb_batch b;
            if (rb_batch_alloc(&b, N))
                return 2;
            for (size_t i = 0; i < N; i++) {
                satc_obb box;
                rb_box_near(&rng, &cam, &box);
                rb_batch_set(&b, i, &box);
                /* Three random fields denormal, some centers tiny. */
                for (int t = 0; t < 3; t++)
                    *rb_field(&b.a, (int)(rb_next(&rng) % 15), i) =
                        (float)(rb_uniform(&rng, -1, 1) * 1e-39);
                if (i % 7 == 0)
                    for (int k = 0; k < 3; k++)
                        *rb_field(&b.a, k, i) = (float)(rb_uniform(&rng, -1, 1) * 1e-38);
            }
            for (int mode = 0; mode < 2; mode++)
                for (int p = 1; p < npaths; p++)
                    rb_check(same_as_scalar(paths[p], &f, &b.v, N, (satc_mode)mode),
                             "FTZ/DAZ: %s %s mode %d differs from scalar", satc_isa_name(paths[p]),
                             fr_name[c], mode);
            rb_batch_free(&b);
        }
        printf("flush-to-zero: checked\n");
    } else {
        printf("flush-to-zero: no control on this architecture\n");
    }
    return rb_finish();
}
