/*
 * Every box form in every engine layout (forms_make.c) against the
 * double-precision oracle, the Eberly form, the other layouts and every
 * path, on volumes around random frusta of every kind:
 *  - no false negative in either mode (a culled volume does not meet the
 *    frustum: clipping oracle for boxes, closest-point distance for
 *    spheres); exact mode keeps nothing farther than the band; exact is a
 *    subset of conservative; SATC_INSIDE volumes are inside every plane;
 *  - every layout of one set of floats gives the same bytes;
 *  - each box equals its Eberly twin except inside the band;
 *  - every path, output kind and mode gives the scalar bytes, also for
 *    tails of 0..70 volumes at first = 0..70 (and equal to the whole run);
 *    satc_cull_views of two views equals the two single culls;
 *  - NaN/Inf in each read field, magnitudes past SATC_MAX_MAGNITUDE and
 *    mesh ids out of range make exactly those volumes SATC_INTERSECTING;
 *    fields never read (a 4x4's bottom row) change nothing.
 * SATC_TEST_QUICK (or --quick) runs a reduced set for emulators and
 * sanitizers.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "forms_make.h"
#include "forms_run.h"
#include "scenes.h"

static int quick;
/* Tallies that show the checks bite: culled volumes per mode, volumes
 * meeting the frustum, twin answers that differed. */
static long n_culled[2], n_meets, n_twin_diff;

typedef struct ctx {
    const satc_camera *cam;
    const satc_frustum *f;
    const char *cam_name;
    const satc_frustum *other; /* a second view for satc_cull_views */
} ctx;

static void print_vol(const fm_set *s, size_t i)
{
    printf("    volume %zu fields:", i);
    for (int q = 0; q < FM_NF; q++)
        printf(" %a", s->v[i][q]);
    printf(" mesh %u\n", s->mesh[i]);
}

/* The oracle's rules for one set, from the scalar answers of layout L. */
static void check_oracle(const ctx *c, const fm_set *s, const fr_out ref[2], const char *lname)
{
    for (size_t i = 0; i < s->n; i++) {
        fg_vol g;
        fm_geometry(s, i, &g);
        int cons = fr_bit(&ref[0], i), ex = fr_bit(&ref[1], i);
        int meets = fg_meets(c->cam, &g, 0);
        n_culled[0] += !cons, n_culled[1] += !ex, n_meets += meets;
        double band = fg_band(c->cam, &g);
        int ok = rb_check(cons || !meets, "%s %s: volume %zu meets the frustum, culled (conservative)",
                          c->cam_name, lname, i);
        ok &= rb_check(ex || !meets, "%s %s: volume %zu meets the frustum, culled (exact)",
                       c->cam_name, lname, i);
        ok &= rb_check(!ex || cons, "%s %s: volume %zu exact visible, conservative culled",
                       c->cam_name, lname, i);
        if (ex)
            ok &= rb_check(fg_meets(c->cam, &g, band), "%s %s: volume %zu kept beyond the band %g",
                           c->cam_name, lname, i, band);
        for (int m = 0; m < 2; m++)
            if (ref[m].classes[i] == SATC_INSIDE)
                ok &= rb_check(fg_inside(c->cam, &g), "%s %s: volume %zu INSIDE but not inside (mode %d)",
                               c->cam_name, lname, i, m);
        if (!ok)
            print_vol(s, i);
    }
}

/* How far apart corresponding vertices of two boxes are (the twin's float
 * rounding: a center near 1e6 moves by up to 1/32). */
static double vertex_gap(const fg_vol *a, const fg_vol *b)
{
    double gap = 0;
    for (int v = 0; v < 8; v++) {
        double d2 = 0;
        for (int k = 0; k < 3; k++) {
            double d = a->c[k] - b->c[k];
            for (int j = 0; j < 3; j++)
                d += (v >> j & 1 ? 1 : -1) * (a->h[j][k] - b->h[j][k]);
            d2 += d * d;
        }
        gap = fmax(gap, sqrt(d2));
    }
    return gap;
}

/* Each box against its Eberly twin: different answers only within the
 * band (plus the distance the twin's rounding moved it). */
static void check_twin(const ctx *c, const fm_set *s, const fr_out ref[2])
{
    fm_set o;
    uint8_t *twin = malloc(s->n);
    if (!twin || fm_set_alloc(&o, FM_OBB, s->n))
        exit(2);
    fm_obb_twin(s, &o, twin);
    fm_mem mem = FM_MEM(FM_HEAP);
    satc_batch b;
    if (fm_build(&o, 0, &mem, 0, s->n, &b))
        exit(2);
    fr_out t[2];
    for (int m = 0; m < 2; m++) {
        fr_out_init(&t[m], s->n);
        fr_cull(&t[m], SATC_ISA_SCALAR, c->f, &b, 0, s->n, (satc_mode)m, FR_ALL);
    }
    for (size_t i = 0; i < s->n; i++) {
        if (!twin[i])
            continue;
        fg_vol g, tg;
        fm_geometry(s, i, &g);
        fm_geometry(&o, i, &tg);
        double band = fmax(fg_band(c->cam, &g), fg_band(c->cam, &tg)) + vertex_gap(&g, &tg);
        n_twin_diff += fr_bit(&ref[0], i) != fr_bit(&t[0], i) || fr_bit(&ref[1], i) != fr_bit(&t[1], i);
        if (fr_bit(&ref[0], i) != fr_bit(&t[0], i))
            rb_check(fabs(fg_plane_sep(c->cam, &g)) <= band,
                     "%s form %d: volume %zu conservative differs from its Eberly twin %g from a plane",
                     c->cam_name, (int)s->form, i, fg_plane_sep(c->cam, &g));
        if (fr_bit(&ref[1], i) != fr_bit(&t[1], i))
            rb_check(fg_meets(c->cam, &g, band),
                     "%s form %d: volume %zu exact differs from its Eberly twin beyond the band",
                     c->cam_name, (int)s->form, i);
    }
    for (int m = 0; m < 2; m++)
        fr_out_free(&t[m]);
    fm_mem_free(&mem);
    fm_set_free(&o);
    free(twin);
}

/* satc_cull_views with this frustum and another, on every path: each view
 * equals its single cull bit for bit (view 0: ref). */
static void check_views(const ctx *c, const satc_batch *b, size_t n, const fr_out ref[2],
                        const char *lname)
{
    satc_isa paths[8];
    int np = fr_paths(paths);
    const satc_frustum views[2] = {*c->f, *c->other};
    uint8_t *masks = malloc(n + 1), *cls[2] = {malloc(n + 1), malloc(n + 1)};
    uint32_t *idx[2] = {malloc(4 * n + 4), malloc(4 * n + 4)};
    fr_out one;
    fr_out_init(&one, n);
    for (int m = 0; m < 2; m++) {
        fr_cull(&one, SATC_ISA_SCALAR, c->other, b, 0, n, (satc_mode)m, FR_ALL);
        for (int p = 0; p < np; p++) {
            size_t vis[2] = {0, 0};
            satc_view_results vr = {masks, idx, cls, vis};
            satc_status st = satc_cull_views_isa(paths[p], views, 2, b, 0, n, (satc_mode)m, &vr);
            int same = st == SATC_OK && vis[0] == ref[m].visible && vis[1] == one.visible &&
                       !memcmp(cls[0], ref[m].classes, n) && !memcmp(cls[1], one.classes, n) &&
                       !memcmp(idx[0], ref[m].idx, 4 * vis[0]) && !memcmp(idx[1], one.idx, 4 * vis[1]);
            for (size_t i = 0; i < n && same; i++)
                same = (masks[i] & 1) == fr_bit(&ref[m], i) && (masks[i] >> 1 & 1) == fr_bit(&one, i) &&
                       masks[i] < 4;
            rb_check(same, "%s %s mode %d: satc_cull_views on %s differs from the single culls",
                     c->cam_name, lname, m, satc_isa_name(paths[p]));
        }
    }
    fr_out_free(&one);
    free(masks), free(cls[0]), free(cls[1]), free(idx[0]), free(idx[1]);
}

/* Tails and offsets: [first, first + count) on every path equals the
 * whole run's answer there. */
static void check_tails(const ctx *c, const fm_set *s, int L, const fr_out whole[2])
{
    for (size_t count = 0; count <= 70; count += quick ? 9 : 1) {
        size_t first = (count * 37 + (size_t)L) % 71;
        fm_mem mem = FM_MEM(FM_HEAP);
        satc_batch b;
        if (fm_build(s, L, &mem, first, count, &b))
            exit(2);
        char what[96];
        snprintf(what, sizeof what, "%s %s tail", c->cam_name, fm_layout_name(L));
        fr_out ref[2];
        for (int m = 0; m < 2; m++)
            fr_out_init(&ref[m], count);
        fr_check_paths(what, c->f, &b, first, count, ref);
        for (int m = 0; m < 2; m++) {
            int same = 1;
            for (size_t j = 0; j < count; j++)
                same &= fr_bit(&ref[m], j) == fr_bit(&whole[m], first + j) &&
                        ref[m].classes[j] == whole[m].classes[first + j];
            rb_check(same, "%s first %zu count %zu mode %d: differs from the whole run", what,
                     first, count, m);
            fr_out_free(&ref[m]);
        }
        fm_mem_free(&mem);
    }
}

/* Non-finite and huge fields, ids out of range, unread fields. */
static void check_nonfinite(const ctx *c, const fm_set *s, int L, const fr_out clean[2])
{
    fm_set d;
    if (fm_set_copy(&d, s))
        exit(2);
    int fields[FM_NF], nf = fm_read_fields(s->kind, fields);
    if (fm_layout_mesh(L) || fm_layout_shared(L))
        nf = nf < 12 ? nf : 12; /* the local box is not per volume */
    static const float special[3] = {NAN, INFINITY, -INFINITY};
    int inst = s->kind == FM_INST_SHARED || s->kind == FM_INST_TABLE;
    uint8_t *expect = calloc(s->n, 1); /* 1: must be INTERSECTING, 2: unchanged */
    if (!expect)
        exit(2);
    for (size_t i = 0; i < s->n; i++) {
        if (i % 3 == 0) {
            size_t t = i / 3; /* every field gets NaN, +Inf and -Inf in turn */
            d.v[i][fields[t % (size_t)nf]] = special[(t / (size_t)nf) % 3];
            expect[i] = 1;
        } else if (i % 12 == 1) { /* a center (translation) past 2^64 */
            int q = (int)(i / 12) % 3;
            d.v[i][inst ? 4 * q + 3 : q] = (i / 12) % 2 ? 3e19f : -3e19f;
            expect[i] = 1;
        } else if (i % 12 == 4 && fm_layout_mesh(L)) {
            d.mesh[i] = (i / 12) % 2 ? UINT32_MAX : (uint32_t)(s->ntable + (i / 12) % 3);
            expect[i] = 1;
        } else if (i % 12 == 7 && inst) { /* the bottom row is never read */
            d.v[i][18 + (i / 12) % 4] = special[(i / 12) % 3];
            expect[i] = 2;
        } else {
            expect[i] = 2;
        }
    }
    fm_mem mem = FM_MEM(FM_HEAP);
    satc_batch b;
    if (fm_build(&d, L, &mem, 0, s->n, &b))
        exit(2);
    char what[96];
    snprintf(what, sizeof what, "%s %s non-finite", c->cam_name, fm_layout_name(L));
    fr_out ref[2];
    for (int m = 0; m < 2; m++)
        fr_out_init(&ref[m], s->n);
    fr_check_paths(what, c->f, &b, 0, s->n, ref);
    for (int m = 0; m < 2; m++) {
        for (size_t i = 0; i < s->n; i++) {
            int ok = expect[i] == 1 ? ref[m].classes[i] == SATC_INTERSECTING
                                    : ref[m].classes[i] == clean[m].classes[i];
            if (!rb_check(ok, "%s mode %d: volume %zu class %u, expected %s", what, m, i,
                          ref[m].classes[i], expect[i] == 1 ? "INTERSECTING" : "the clean answer"))
                print_vol(&d, i);
        }
        fr_out_free(&ref[m]);
    }
    fm_mem_free(&mem);
    free(expect);
    fm_set_free(&d);
}

/* One set of volumes around one camera, in every layout of its form. */
static void check_set(const ctx *c, fm_setkind kind, size_t n, rb_rng *r)
{
    fm_set s;
    if (fm_set_alloc(&s, kind, n))
        exit(2);
    fm_fill(&s, c->cam, r);
    fr_out first_ref[2];
    int have = 0;
    for (int L = 0; L < fm_nlayouts(); L++) {
        if (fm_layout_set(L) != kind)
            continue;
        fm_mem mem = FM_MEM(FM_HEAP);
        satc_batch b;
        if (fm_build(&s, L, &mem, 0, n, &b))
            exit(2);
        char what[96];
        snprintf(what, sizeof what, "%s %s", c->cam_name, fm_layout_name(L));
        fr_out ref[2];
        for (int m = 0; m < 2; m++)
            fr_out_init(&ref[m], n);
        fr_check_paths(what, c->f, &b, 0, n, ref);
        check_views(c, &b, n, ref, fm_layout_name(L));
        if (!have) {
            check_oracle(c, &s, ref, fm_layout_name(L));
            if (kind != FM_SPH)
                check_twin(c, &s, ref);
            memcpy(first_ref, ref, sizeof ref);
            have = 1;
        } else {
            for (int m = 0; m < 2; m++)
                rb_check(ref[m].visible == first_ref[m].visible &&
                             !memcmp(ref[m].bits, first_ref[m].bits, (n + 7) / 8) &&
                             !memcmp(ref[m].classes, first_ref[m].classes, n),
                         "%s mode %d: differs from layout %s of the same floats", what, m,
                         fm_layout_name(L - 1));
        }
        check_tails(c, &s, L, ref);
        check_nonfinite(c, &s, L, ref);
        if (ref[0].bits != first_ref[0].bits)
            for (int m = 0; m < 2; m++)
                fr_out_free(&ref[m]);
        fm_mem_free(&mem);
    }
    for (int m = 0; m < 2; m++)
        fr_out_free(&first_ref[m]);
    fm_set_free(&s);
}

int main(int argc, char **argv)
{
    quick = getenv("SATC_TEST_QUICK") != NULL;
    for (int i = 1; i < argc; i++)
        quick |= !strcmp(argv[i], "--quick");
    clock_t t0 = clock();
    satc_isa paths[8];
    int np = fr_paths(paths);
    printf("paths:");
    for (int p = 0; p < np; p++)
        printf(" %s", satc_isa_name(paths[p]));
    printf("%s\n", quick ? " (quick)" : "");
    rb_rng r = {0x666f726d73ull};
    scn_rng sr;
    scn_seed(&sr, 0x666f726d73ull);
    int reps = quick ? 1 : 2;
    size_t n = quick ? 200 : 1200;
    for (int rep = 0; rep < reps; rep++) {
        satc_camera cams[4];
        satc_frustum fs[4];
        for (int k = 0; k < 4; k++) {
            scn_random_camera(&sr, (scn_cam_kind)k, &cams[k]);
            if (rep == 1) /* a large world: camera and volumes 1e6 from the origin */
                cams[k].origin[0] += 1.0e6f, cams[k].origin[1] -= 2.5e5f, cams[k].origin[2] += 3.0e5f;
            if (!rb_check(satc_frustum_from_camera(&fs[k], &cams[k]) == SATC_OK, "camera %d", k))
                return rb_finish();
        }
        for (int k = 0; k < 4; k++) {
            satc_camera cam = cams[k];
            satc_frustum f = fs[k];
            ctx c = {&cam, &f, scn_cam_name((scn_cam_kind)k), &fs[(k + 1) % 4]};
            for (int s = 0; s < FM_NSETS; s++)
                check_set(&c, (fm_setkind)s, n, &r);
        }
    }
    printf("oracle: %ld volumes meet the frustum; culled %ld conservative, %ld exact; "
           "%ld differ from their Eberly twin\n", n_meets, n_culled[0], n_culled[1], n_twin_diff);
    printf("%.1f s cpu\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
    return rb_finish();
}
