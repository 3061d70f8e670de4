/* checkasm's input groups on scenes and cameras: city, uniform and
 * boundary scenes, random cameras, special values, bit patterns, boxes
 * touching planes, the apex, undecided boxes and counts. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "checkasm_depth.h"
#include "config.h"
#include "core/internal.h"
#include "occlusion/occlusion.h"
#include "scalar/cull_scalar.h"
#include "scenes.h"

static uint32_t rnd32(scn_rng *r) { return (uint32_t)(scn_next(r) >> 32); }
size_t rnd_below(scn_rng *r, size_t n) { return n ? (size_t)(scn_next(r) % n) : 0; }

float bits_to_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Values where paths could part: non-finite, signed zeros, denormals,
 * extremes, and magnitudes around SATC_MAX_MAGNITUDE. */
float special_value(scn_rng *r)
{
    static const uint32_t pattern[] = {
        0x7fc00000u, 0xffc00000u, 0x7f800001u, 0x7fa5a5a5u, 0xff812345u, /* NaNs */
        0x7f800000u, 0xff800000u,                                         /* +-Inf */
        0x00000000u, 0x80000000u,                                         /* +-0 */
        0x00000001u, 0x80000001u, 0x007fffffu, 0x807fffffu, 0x00400000u,  /* denormals */
        0x00800000u, 0x80800000u,                                         /* +-FLT_MIN */
        0x7f7fffffu, 0xff7fffffu,                                         /* +-FLT_MAX */
        0x5f800000u, 0xdf800000u, 0x5f7fffffu, 0x5f000000u,               /* 2^64, 2^64-, 2^63 */
        0x3f800000u, 0xbf800000u, 0x3f3504f3u,                            /* 1, -1, 1/sqrt2 */
    };
    uint64_t k = scn_next(r) % 32;
    if (k < sizeof pattern / sizeof pattern[0])
        return bits_to_float(pattern[k]);
    switch (k % 4) {
    case 0: return (k & 1 ? -1.0f : 1.0f) * 1e30f;
    case 1: return (k & 2 ? -1.0f : 1.0f) * 1e-30f;
    case 2: return bits_to_float(rnd32(r) & 0x807fffffu); /* a random denormal */
    default: return (float)scn_uniform(r, -1e20, 1e20);
    }
}

static void set_field(batch *b, size_t i, int q, float v) { b->a[q][i] = v; }

/* Four random cameras, one of each kind, and the frusta built from them. */
/* A point q on plane p (near, far, x1, x0, y1, y0) of perspective
 * frustum f at a random depth below far, and the plane's outward normal
 * in frame coordinates added to m (which the caller zeroes). */
void persp_plane_point(const satc_frustum *f, double far, int p, scn_rng *r, double m[3],
                              double q[3])
{
    double z = f->n + (far - f->n) * scn_uniform(r, 0, 1);
    double sx = f->x0 + (f->x1 - f->x0) * scn_uniform(r, 0, 1);
    double sy = f->y0 + (f->y1 - f->y0) * scn_uniform(r, 0, 1);
    q[0] = sx * z, q[1] = sy * z, q[2] = z;
    switch (p) {
    case 0: m[2] = -1, q[2] = f->n, q[0] = sx * f->n, q[1] = sy * f->n; break;
    case 1: m[2] = 1, q[2] = far, q[0] = sx * far, q[1] = sy * far; break;
    case 2: m[0] = 1, m[2] = -f->x1, q[0] = f->x1 * z; break;
    case 3: m[0] = -1, m[2] = f->x0, q[0] = f->x0 * z; break;
    case 4: m[1] = 1, m[2] = -f->y1, q[1] = f->y1 * z; break;
    default: m[1] = -1, m[2] = f->y0, q[1] = f->y0 * z; break;
    }
}

void random_cameras(scn_rng *r, satc_camera cam[4], satc_frustum fr[4])
{
    for (int k = 0; k < 4; k++) {
        scn_random_camera(r, (scn_cam_kind)k, &cam[k]);
        if (satc_frustum_from_camera(&fr[k], &cam[k]) != SATC_OK) {
            fprintf(stderr, "checkasm: scn_random_camera gave an invalid camera\n");
            exit(2);
        }
    }
}

/* A few random sub-ranges of a batch (first offsets, odd counts). */
void compare_subranges(const satc_frustum *f, const batch *b, scn_rng *r, int k)
{
    for (int t = 0; t < k; t++) {
        size_t first = rnd_below(r, b->n);
        size_t count = rnd_below(r, (b->n - first < 3000 ? b->n - first : 3000) + 1);
        compare_case("sub-range", f, b, first, count, t < 2);
    }
}

/* Boxes [from, from + count) of s compared at first offset `first`, the
 * arrays misaligned by mis floats. */
void compare_slice(const char *what, const satc_frustum *f, const scn_scene *s, size_t from,
                          size_t first, size_t count, unsigned mis)
{
    batch b;
    batch_init(&b, first + count, mis);
    batch_copy(&b, 0, &s->boxes, from, first + count);
    compare_case(what, f, &b, first, count, 1);
    batch_free(&b);
}

/* A special value in one random field of every step-th box of s. */
void poke_every(scn_rng *r, scn_scene *s, size_t step)
{
    for (size_t i = 0; i < s->count; i += step) {
        int q = (int)rnd_below(r, NF);
        field_ptr_w(&s->arrays, q)[i] = special_value(r);
    }
}

/* Camera c moved up to 3e6 from the world's origin on each axis, built
 * into *f; 0 when the build refuses it. */
int moved_far(scn_rng *r, satc_camera c, satc_frustum *f)
{
    for (int q = 0; q < 3; q++)
        c.origin[q] += (float)scn_uniform(r, -3e6, 3e6);
    return satc_frustum_from_camera(f, &c) == SATC_OK;
}

void make_scene(scn_scene *s, scn_kind kind, size_t n, uint64_t seed, const double *off)
{
    if (scn_make(s, kind, n, seed, off)) {
        fprintf(stderr, "checkasm: scn_make failed\n");
        exit(2);
    }
}

void make_boundary(scn_scene *s, const satc_camera *cam, size_t n, uint64_t seed)
{
    if (scn_make_boundary_for(s, cam, n, seed)) {
        fprintf(stderr, "checkasm: scn_make_boundary_for failed\n");
        exit(2);
    }
}

enum { SCENE_N = 100000 };

static void group_scene(scn_rng *r, scn_kind kind)
{
    scn_scene s;
    batch b;
    make_scene(&s, kind, sized(SCENE_N), scn_next(r), NULL);
    batch_from(&b, &s.boxes, s.count, 0);
    compare_case("whole scene", &s.frustum, &b, 0, b.n, 0);
    compare_subranges(&s.frustum, &b, r, 6);
    batch_free(&b);
    scn_free(&s);

    /* A large world: camera and boxes 10^6 units from the origin. */
    const double off[3] = {1.5e6, -2.5e5, 3.0e6};
    make_scene(&s, kind, 5000, scn_next(r), off);
    batch_from(&b, &s.boxes, s.count, 1);
    compare_case("large world", &s.frustum, &b, 0, b.n, 0);
    batch_free(&b);
    scn_free(&s);
}

void group_city(scn_rng *r) { group_scene(r, SCN_CITY); }
void group_uniform(scn_rng *r) { group_scene(r, SCN_UNIFORM); }
void group_boundary(scn_rng *r) { group_scene(r, SCN_BOUNDARY); }

/* Boundary boxes around random cameras of every kind (symmetric,
 * asymmetric, infinite far, orthographic). */
void group_cameras(scn_rng *r)
{
    for (int rep = 0; rep < 2; rep++) {
        satc_camera cam[4];
        satc_frustum fr[4];
        random_cameras(r, cam, fr);
        for (int k = 0; k < 4; k++) {
            scn_scene s;
            batch b;
            make_boundary(&s, &cam[k], sized(25000), scn_next(r));
            batch_from(&b, &s.boxes, s.count, (unsigned)k % 4);
            compare_case(scn_cam_name((scn_cam_kind)k), &fr[k], &b, 0, b.n, 0);
            compare_subranges(&fr[k], &b, r, 2);
            batch_free(&b);
            scn_free(&s);
        }
    }
}

/* Boundary boxes with 1-3 fields replaced by special values, and boxes
 * with zero, negative or denormal extents and degenerate axes. */
void group_special(scn_rng *r)
{
    satc_camera cam[4];
    satc_frustum fr[4];
    random_cameras(r, cam, fr);
    scn_scene city;
    make_scene(&city, SCN_CITY, 1, scn_next(r), NULL);
    for (int k = 0; k < 5; k++) {
        const satc_camera *c = k < 4 ? &cam[k] : &city.cam;
        const satc_frustum *f = k < 4 ? &fr[k] : &city.frustum;
        scn_scene s;
        batch b;
        make_boundary(&s, c, sized(30000), scn_next(r));
        batch_from(&b, &s.boxes, s.count, 0);
        for (size_t i = 0; i < b.n; i++) {
            uint64_t u = scn_next(r);
            switch (u % 8) {
            case 0: case 1: case 2: case 3: { /* 1-3 special fields */
                int m = 1 + (int)(u >> 8) % 3;
                for (int t = 0; t < m; t++) {
                    int q = (int)rnd_below(r, NF); /* one draw per statement: */
                    set_field(&b, i, q, special_value(r)); /* same inputs with any compiler */
                }
                break;
            }
            case 4: /* zero or special extents */
                for (int j = 0; j < 3; j++)
                    set_field(&b, i, 12 + j, (u >> (8 + j)) & 1 ? 0.0f : special_value(r));
                break;
            case 5: /* a degenerate axis */
                for (int q = 0; q < 3; q++)
                    set_field(&b, i, 3 + 3 * (int)((u >> 8) % 3) + q, (u >> 12) & 1 ? 0.0f : -0.0f);
                break;
            default: break; /* left as generated */
            }
        }
        compare_case(k < 4 ? scn_cam_name((scn_cam_kind)k) : "city camera", f, &b, 0, b.n, 0);
        compare_subranges(f, &b, r, 2);
        batch_free(&b);
        scn_free(&s);
    }
    scn_free(&city);
}

/* Random bit patterns: whole boxes, or 1-3 fields of boundary boxes. */
void group_bits(scn_rng *r)
{
    satc_camera cam[4];
    satc_frustum fr[4];
    random_cameras(r, cam, fr);
    for (int k = 0; k < 4; k++) {
        scn_scene s;
        batch b;
        make_boundary(&s, &cam[k], sized(30000), scn_next(r));
        batch_from(&b, &s.boxes, s.count, 2);
        for (size_t i = 0; i < b.n; i++) {
            if (scn_next(r) % 4 == 0) {
                for (int q = 0; q < NF; q++)
                    set_field(&b, i, q, bits_to_float(rnd32(r)));
            } else {
                int m = 1 + (int)rnd_below(r, 3);
                for (int t = 0; t < m; t++) {
                    int q = (int)rnd_below(r, NF);
                    set_field(&b, i, q, bits_to_float(rnd32(r)));
                }
            }
        }
        compare_case(scn_cam_name((scn_cam_kind)k), &fr[k], &b, 0, b.n, 0);
        batch_free(&b);
        scn_free(&s);
    }
}

/* An exactly representable camera: frame rows are signed unit axes,
 * origin and bounds dyadic, so C - E, the slopes and the touching boxes
 * below are exact. */
void exact_camera(scn_rng *r, int ortho, int kind, satc_camera *c)
{
    static const float frames[4][3][3] = {
        {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
        {{0, 1, 0}, {0, 0, 1}, {1, 0, 0}},
        {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}},
        {{-1, 0, 0}, {0, 1, 0}, {0, 0, -1}},
    };
    const float(*fm)[3] = frames[rnd_below(r, 4)];
    memset(c, 0, sizeof *c);
    for (int k = 0; k < 3; k++) {
        c->origin[k] = (float)((int)rnd_below(r, 64) - 32) * 0.5f;
        c->left[k] = fm[0][k], c->up[k] = fm[1][k], c->dir[k] = fm[2][k];
    }
    c->orthographic = ortho;
    if (ortho) {
        c->l0 = -4, c->l1 = 2, c->u0 = -1, c->u1 = 3, c->n = -2, c->f = 8;
    } else {
        static const float ns[3] = {0.5f, 1.0f, 2.0f};
        float n = ns[rnd_below(r, 3)];
        c->n = n;
        c->f = kind == 2 ? INFINITY : 64.0f;
        if (kind == 1)
            c->l0 = -0.5f * n, c->l1 = 1.5f * n, c->u0 = -1.0f * n, c->u1 = 0.25f * n;
        else
            c->l0 = -1.0f * n, c->l1 = 1.0f * n, c->u0 = -0.5f * n, c->u1 = 0.5f * n;
    }
}

/* Stores an axis-aligned box (frame coordinates p, extents e) for camera c:
 * world center E + p.x L + p.y U + p.z D, axes permuted into the frame. */
static void put_frame_box(batch *b, size_t i, const satc_camera *c, const float p[3],
                          const float e[3], int rot)
{
    const float *fr[3] = {c->left, c->up, c->dir};
    for (int k = 0; k < 3; k++)
        b->a[k][i] = c->origin[k] + p[0] * fr[0][k] + p[1] * fr[1][k] + p[2] * fr[2][k];
    for (int j = 0; j < 3; j++) {
        /* Box axis j is frame axis (j + rot) % 3, possibly negated: exact. */
        const float *ax = fr[(j + rot) % 3];
        float sg = (rot >> 2) & (1 << j) ? -1.0f : 1.0f;
        for (int k = 0; k < 3; k++)
            b->a[3 + 3 * j + k][i] = sg * ax[k];
        b->a[12 + j][i] = e[(j + rot) % 3];
    }
}

/* Boxes exactly touching a face, an edge or a corner of exact frusta, from
 * outside and inside, and one ulp either way. */
void group_touching(scn_rng *r)
{
    for (int cam_i = 0; cam_i < 8; cam_i++) {
        satc_camera c;
        satc_frustum f;
        int ortho = cam_i % 4 == 3;
        exact_camera(r, ortho, cam_i % 4, &c);
        if (satc_frustum_from_camera(&f, &c) != SATC_OK) {
            fprintf(stderr, "checkasm: exact camera rejected\n");
            exit(2);
        }
        const size_t n = sized(4000);
        batch b;
        batch_init(&b, n, (unsigned)cam_i % 4);
        float lo[3], hi[3]; /* frame-coordinate bounds: slopes (persp) or box (ortho) */
        if (ortho) {
            lo[0] = c.l0, hi[0] = c.l1, lo[1] = c.u0, hi[1] = c.u1, lo[2] = c.n, hi[2] = c.f;
        } else {
            lo[0] = f.x0, hi[0] = f.x1, lo[1] = f.y0, hi[1] = f.y1, lo[2] = c.n;
            hi[2] = isinf(c.f) ? 64.0f : c.f;
        }
        for (size_t i = 0; i < n; i++) {
            static const float ext[6] = {0.0f, 0.125f, 0.25f, 0.5f, 1.0f, 3.0f};
            float e[3], p[3];
            for (int k = 0; k < 3; k++)
                e[k] = ext[rnd_below(r, 6)];
            int outside = (int)rnd_below(r, 2);
            float sgn = outside ? 1.0f : -1.0f;
            /* Depth: at the near or far bound, or free. */
            int zsel = (int)rnd_below(r, 3);
            float z = zsel == 0 ? lo[2] : zsel == 1 ? hi[2] : (float)(int)(1 + rnd_below(r, 16));
            if (zsel == 0)
                p[2] = z - sgn * e[2];
            else if (zsel == 1)
                p[2] = z + sgn * e[2];
            else
                p[2] = z;
            /* x and y: at a side (touching), or free inside. */
            for (int k = 0; k < 2; k++) {
                int side = (int)rnd_below(r, 3); /* 0 low, 1 high, 2 free */
                if (ortho) {
                    float bnd = side == 0 ? lo[k] : hi[k];
                    p[k] = side == 2 ? 0.5f * (lo[k] + hi[k]) : bnd + (side ? sgn : -sgn) * e[k];
                } else {
                    /* The plane x = s z through the box's extreme corner for
                     * it: that corner's x is p.x -+ e.x and its depth
                     * p.z +- e.z, the sign following the side, outside or
                     * inside, and the sign of s. */
                    float s = side == 0 ? lo[k] : hi[k];
                    float ez = (outside == (side == 1)) == (s > 0) ? e[2] : -e[2];
                    float zc = p[2] + ez;
                    float d = (side ? sgn : -sgn) * e[k];
                    p[k] = side == 2 ? 0.0f : s * zc + d;
                }
            }
            /* One ulp either way on some boxes. */
            uint64_t u = scn_next(r);
            if (u % 4 == 0)
                p[u >> 8 & 1] = nextafterf(p[u >> 8 & 1], (u >> 9) & 1 ? INFINITY : -INFINITY);
            put_frame_box(&b, i, &c, p, e, (int)rnd_below(r, 24));
        }
        compare_case(ortho ? "ortho" : "perspective", &f, &b, 0, n, cam_i == 0);
        batch_free(&b);
    }
}

/* Boxes around the apex E: centers within tiny to near-plane distances of
 * E, exactly at E, tiny to large extents, random rotations. */
void group_apex(scn_rng *r)
{
    satc_camera cam[4];
    satc_frustum fr[4];
    random_cameras(r, cam, fr);
    for (int k = 0; k < 4; k++) {
        scn_scene src;
        make_scene(&src, SCN_UNIFORM, sized(10000), scn_next(r), NULL); /* for the rotations */
        batch b;
        batch_from(&b, &src.boxes, src.count, 1);
        double scale = cam[k].orthographic ? 1.0 : cam[k].n;
        for (size_t i = 0; i < b.n; i++) {
            double reach = scale * pow(10.0, scn_uniform(r, -6, 1.5));
            for (int q = 0; q < 3; q++) {
                double off = i % 5 == 0 ? 0.0 : scn_uniform(r, -reach, reach);
                b.a[q][i] = (float)(cam[k].origin[q] + off);
                b.a[12 + q][i] = (float)(scale * pow(10.0, scn_uniform(r, -7, 1.5)));
            }
        }
        compare_case(scn_cam_name((scn_cam_kind)k), &fr[k], &b, 0, b.n, 0);
        batch_free(&b);
        scn_free(&src);
    }
}

/* Only boxes the plane tier leaves undecided, so whole vectors take the
 * axes tier, plus a sprinkling of others. */
void group_undecided(scn_rng *r)
{
    satc_camera cam[4];
    satc_frustum fr[4];
    random_cameras(r, cam, fr);
    for (int k = 0; k < 4; k++) {
        scn_scene s;
        make_boundary(&s, &cam[k], sized(40000), scn_next(r));
        batch b;
        batch_init(&b, s.count, 0);
        size_t m = 0;
        satc_fconsts fc;
        satc_frustum_consts(&fr[k], &fc);
        satc_batch sb = satc_batch_from_boxes(&s.boxes);
        for (size_t i = 0; i < s.count; i++) {
            satc_box_frame o;
            satc_load_ref(&fr[k], &fc, &sb, i, &o);
            satc_planes pl = k == SCN_CAM_ORTHO ? satc_planes_ortho_ref(&fr[k], &o)
                                                : satc_planes_persp_ref(&fr[k], &o);
            if (pl.undecided || scn_next(r) % 16 == 0)
                batch_copy(&b, m++, &s.boxes, i, 1);
        }
        compare_case(scn_cam_name((scn_cam_kind)k), &fr[k], &b, 0, m, 0);
        batch_free(&b);
        scn_free(&s);
    }
}

/* Every count 0 .. 2 * 8 + 1 at first offsets 0..9 and pointers offset by
 * 0..3 floats; then counts around and past a chunk. */
void group_counts(scn_rng *r)
{
    satc_camera cam[4];
    satc_frustum fr[4];
    random_cameras(r, cam, fr);
    for (int k = 0; k < 4; k++) {
        scn_scene s;
        make_boundary(&s, &cam[k], 8000, scn_next(r));
        poke_every(r, &s, 7); /* some specials among them */
        for (size_t count = 0; count <= 17; count++) {
            for (size_t first = 0; first <= 9; first++) {
                for (unsigned mis = 0; mis < 4; mis++)
                    compare_slice("small count", &fr[k], &s, rnd_below(r, s.count - first - count),
                                  first, count, mis);
            }
        }
        static const size_t big[] = {255, 256, 257, 263, 300, 511, 512, 513, 777, 1024, 4099};
        for (size_t t = 0; t < sizeof big / sizeof big[0]; t++) {
            size_t first = rnd_below(r, 10);
            compare_slice("large count", &fr[k], &s, rnd_below(r, s.count - first - big[t]), first,
                          big[t], (unsigned)t % 4);
        }
        scn_free(&s);
    }
}
