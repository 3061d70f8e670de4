/*
 * Batch descriptors of every form and layout:
 *  - bad ones (unknown form or mode, NULL streams with count > 0, a
 *    stride below its record or not a multiple of 4, misaligned pointers,
 *    unknown matrix layouts, first + count overflow, indices past
 *    UINT32_MAX) get the status satc.h documents on every path, from
 *    satc_cull and satc_cull_views, and write nothing: outputs and the
 *    visible counts keep their canary;
 *  - guard pages: every stream of every layout ends at a PROT_NONE page
 *    right after the last float read (but see fm_cm44_read: the bottom
 *    row of a 4x4 column-major matrix), or starts right after one
 *    at element `first`; any read outside the described floats of the
 *    range faults. Mesh ids past the table must not be followed. Results
 *    equal the heap copy's on every path.
 * SATC_TEST_QUICK (or --quick) runs fewer counts. --strict-cm44 runs only
 * the guard pages of the 4x4 column-major layouts with the last matrix's
 * unread m[15] in the guard page (the header's promise).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "forms_make.h"
#include "forms_run.h"

static int quick, strict_cm44;
static satc_isa paths[8];
static int npaths;

/* The call on every path (and the dispatched one) returns `want` and
 * writes nothing. */
static void expect_status_kinds(const char *what, const satc_frustum *f, const satc_batch *b,
                                size_t first, size_t count, int mode, satc_status want,
                                unsigned need)
{
    fr_out o;
    fr_out_init(&o, 16);
    for (int p = -1; p < npaths; p++) {
        for (int k = 0; k < 8; k++) {
            unsigned kinds = (unsigned)k;
            if ((kinds & need) != need)
                continue;
            fr_cull(&o, p < 0 ? SATC_ISA_SCALAR : paths[p], f, b, first, count, (satc_mode)mode,
                    kinds);
            if (p < 0) { /* the dispatched entry point */
                satc_results r = {kinds & FR_BITS ? o.bits : NULL, kinds & FR_CLASSES ? o.classes : NULL,
                                  kinds & FR_INDICES ? o.idx : NULL, (size_t)0xC0FFEE};
                fr_cull(&o, SATC_ISA_SCALAR, f, b, 0, 0, SATC_CONSERVATIVE, 0); /* reset canaries */
                o.st = satc_cull(f, b, first, count, (satc_mode)mode, &r);
                o.visible = r.visible;
            }
            rb_check(o.st == want && o.visible == 0xC0FFEE && fr_intact(&o, 0, 0),
                     "%s: path %s outputs %u: status %d (want %d), visible %zu, outputs %s", what,
                     p < 0 ? "dispatched" : satc_isa_name(paths[p]), kinds, (int)o.st, (int)want,
                     o.visible, fr_intact(&o, 0, 0) ? "intact" : "WRITTEN");
        }
    }
    fr_out_free(&o);
    /* satc_cull_views documents the same statuses, and writes nothing either. */
    for (int p = 0; p < npaths; p++) {
        union {
            unsigned char b[4 * 64 + 3 * 16];
            size_t align; /* for the visible count */
        } mem;
        memset(mem.b, FR_CANARY, sizeof mem.b);
        uint32_t *idx = (uint32_t *)(void *)(mem.b + 64);
        uint8_t *cls = mem.b + 128, *masks = mem.b + 192;
        size_t *vis = (size_t *)(void *)(mem.b + 224);
        uint32_t *const iv[1] = {need & FR_INDICES ? idx : NULL};
        uint8_t *const cv[1] = {cls};
        satc_view_results vr = {masks, iv, cv, vis};
        satc_status st = satc_cull_views_isa(paths[p], f, 1, b, first, count, (satc_mode)mode, &vr);
        int intact = 1;
        for (size_t q = 0; q < sizeof mem.b; q++)
            intact &= mem.b[q] == FR_CANARY;
        rb_check(st == want && intact, "%s: satc_cull_views path %s: status %d (want %d), outputs %s",
                 what, satc_isa_name(paths[p]), (int)st, (int)want, intact ? "intact" : "WRITTEN");
    }
}

static void expect_status(const char *what, const satc_frustum *f, const satc_batch *b,
                          size_t first, size_t count, int mode, satc_status want)
{
    expect_status_kinds(what, f, b, first, count, mode, want, 0);
}

/* Every vec3s stream of a batch (NULL-terminated list). */
static int streams(satc_batch *b, satc_vec3s *out[8])
{
    int n = 0;
    switch (b->form) {
    case SATC_FORM_OBB:
        out[n++] = &b->obb.center, out[n++] = &b->obb.extent;
        for (int j = 0; j < 3; j++)
            out[n++] = &b->obb.axis[j];
        break;
    case SATC_FORM_AABB: out[n++] = &b->aabb.center, out[n++] = &b->aabb.half; break;
    case SATC_FORM_MINMAX: out[n++] = &b->minmax.min, out[n++] = &b->minmax.max; break;
    case SATC_FORM_HALF_AXES:
        out[n++] = &b->half_axes.center;
        for (int j = 0; j < 3; j++)
            out[n++] = &b->half_axes.axis[j];
        break;
    case SATC_FORM_INSTANCES:
        out[n++] = &b->instances.local_center, out[n++] = &b->instances.local_half;
        break;
    case SATC_FORM_SPHERES: out[n++] = &b->spheres.center; break;
    case SATC_FORM_TRS: out[n++] = &b->trs.position, out[n++] = &b->trs.scale; break;
    }
    return n;
}

static const float *nudge(const float *p, size_t bytes)
{
    return (const float *)(const void *)((const char *)p + bytes);
}

static void bad_descriptors(const satc_frustum *f, const satc_camera *cam, rb_rng *r)
{
    char what[160];
    for (int L = 0; L < fm_nlayouts(); L++) {
        fm_set s;
        if (fm_set_alloc(&s, fm_layout_set(L), 16))
            exit(2);
        fm_fill(&s, cam, r);
        fm_mem mem = FM_MEM(FM_HEAP);
        satc_batch good, b;
        if (fm_build(&s, L, &mem, 0, 16, &good))
            exit(2);
        const char *ln = fm_layout_name(L);
        snprintf(what, sizeof what, "%s: the good descriptor", ln);
        fr_out ref[2];
        fr_out_init(&ref[0], 16), fr_out_init(&ref[1], 16);
        fr_check_paths(what, f, &good, 0, 16, ref); /* it is good */
        fr_out_free(&ref[0]), fr_out_free(&ref[1]);

        static const int forms[] = {0, 8, 100, -1};
        for (size_t k = 0; k < 4; k++) {
            b = good, b.form = (satc_form)forms[k];
            snprintf(what, sizeof what, "%s: form %d", ln, forms[k]);
            expect_status(what, f, &b, 0, 16, 0, SATC_ERR_FLAGS);
        }
        snprintf(what, sizeof what, "%s: mode 2", ln);
        expect_status(what, f, &good, 0, 16, 2, SATC_ERR_FLAGS);
        snprintf(what, sizeof what, "%s: first + count overflows", ln);
        expect_status(what, f, &good, SIZE_MAX, 2, 0, SATC_ERR_RANGE);
        expect_status(what, f, &good, 1, SIZE_MAX, 1, SATC_ERR_RANGE);
        snprintf(what, sizeof what, "%s: NULL batch", ln);
        expect_status(what, f, NULL, 0, 16, 0, SATC_ERR_NULL);
        snprintf(what, sizeof what, "%s: NULL frustum", ln);
        expect_status(what, NULL, &good, 0, 16, 0, SATC_ERR_NULL);

        satc_vec3s *v[8];
        int nv = streams(&b, v); /* positions in b, reused on copies of good */
        for (int q = 0; q < nv; q++) {
            size_t at = (size_t)((char *)v[q] - (char *)&b);
            for (int c = 0; c < 3; c++) {
                b = good;
                satc_vec3s *sv = (satc_vec3s *)(void *)((char *)&b + at);
                const float **pc = c == 0 ? &sv->x : c == 1 ? &sv->y : &sv->z;
                const float *keep = *pc;
                *pc = NULL;
                snprintf(what, sizeof what, "%s: stream %d component %d NULL", ln, q, c);
                expect_status(what, f, &b, 0, 16, 1, SATC_ERR_NULL);
                *pc = nudge(keep, 2);
                snprintf(what, sizeof what, "%s: stream %d component %d misaligned", ln, q, c);
                expect_status(what, f, &b, 0, 16, 0, SATC_ERR_LAYOUT);
            }
            b = good;
            satc_vec3s *sv = (satc_vec3s *)(void *)((char *)&b + at);
            sv->stride += 2;
            snprintf(what, sizeof what, "%s: stream %d stride %zu", ln, q, sv->stride);
            expect_status(what, f, &b, 0, 16, 1, SATC_ERR_LAYOUT);
            if (sv->y == sv->x + 1 && sv->z == sv->x + 2) { /* a float3 record */
                sv->stride = 8;
                snprintf(what, sizeof what, "%s: stream %d float3 stride 8", ln, q);
                expect_status(what, f, &b, 0, 16, 0, SATC_ERR_LAYOUT);
            }
        }
        if (good.form == SATC_FORM_INSTANCES) {
            static const size_t rec[3] = {64, 48, 48};
            b = good, b.instances.matrix = NULL;
            snprintf(what, sizeof what, "%s: matrix NULL", ln);
            expect_status(what, f, &b, 0, 16, 0, SATC_ERR_NULL);
            b = good, b.instances.matrix = nudge(good.instances.matrix, 1);
            snprintf(what, sizeof what, "%s: matrix misaligned", ln);
            expect_status(what, f, &b, 0, 16, 1, SATC_ERR_LAYOUT);
            b = good, b.instances.stride = rec[good.instances.layout] - 4;
            snprintf(what, sizeof what, "%s: matrix stride %zu", ln, b.instances.stride);
            expect_status(what, f, &b, 0, 16, 0, SATC_ERR_LAYOUT);
            b = good, b.instances.stride += 6;
            snprintf(what, sizeof what, "%s: matrix stride %zu", ln, b.instances.stride);
            expect_status(what, f, &b, 0, 16, 1, SATC_ERR_LAYOUT);
            static const int lays[] = {3, 4, -1, 1000};
            for (size_t k = 0; k < 4; k++) {
                b = good, b.instances.layout = (satc_affine)lays[k];
                snprintf(what, sizeof what, "%s: matrix layout %d", ln, lays[k]);
                expect_status(what, f, &b, 0, 16, (int)k % 2, SATC_ERR_LAYOUT);
            }
            if (good.instances.mesh) {
                b = good, b.instances.mesh = (const uint32_t *)(const void *)nudge((const float *)(const void *)good.instances.mesh, 2);
                snprintf(what, sizeof what, "%s: mesh ids misaligned", ln);
                expect_status(what, f, &b, 0, 16, 0, SATC_ERR_LAYOUT);
                b = good, b.instances.mesh_stride = 6;
                snprintf(what, sizeof what, "%s: mesh stride 6", ln);
                expect_status(what, f, &b, 0, 16, 1, SATC_ERR_LAYOUT);
            }
        }
        if (good.form == SATC_FORM_SPHERES) {
            b = good, b.spheres.radius.p = NULL;
            snprintf(what, sizeof what, "%s: radius NULL", ln);
            expect_status(what, f, &b, 0, 16, 1, SATC_ERR_NULL);
            b = good, b.spheres.radius.p = nudge(good.spheres.radius.p, 1);
            snprintf(what, sizeof what, "%s: radius misaligned", ln);
            expect_status(what, f, &b, 0, 16, 0, SATC_ERR_LAYOUT);
            b = good, b.spheres.radius.stride += 2;
            snprintf(what, sizeof what, "%s: radius stride %zu", ln, b.spheres.radius.stride);
            expect_status(what, f, &b, 0, 16, 1, SATC_ERR_LAYOUT);
        }
        /* NULL streams with count 0 are fine: nothing is read, visible is 0. */
        memset(&b, 0, sizeof b);
        b.form = good.form;
        satc_results res = {NULL, NULL, NULL, 77};
        rb_check(satc_cull(f, &b, 5, 0, SATC_EXACT, &res) == SATC_OK && res.visible == 0,
                 "%s: count 0 with NULL streams: not OK or visible %zu", ln, res.visible);
        fm_mem_free(&mem);
        fm_set_free(&s);
    }
}

/* Indices are absolute: with every stream shared (stride 0), any first
 * reads the same floats, so first past UINT32_MAX is a legal call. */
static void index_range(const satc_frustum *f)
{
    static const float c[3] = {0, 0, 0}, h[3] = {1, 1, 1};
    satc_batch b = {.form = SATC_FORM_AABB, .aabb = {{c, c + 1, c + 2, 0}, {h, h + 1, h + 2, 0}}};
    expect_status_kinds("indices past UINT32_MAX", f, &b, UINT32_MAX, 2, 0, SATC_ERR_RANGE,
                        FR_INDICES);
    fr_out o;
    fr_out_init(&o, 2);
    fr_cull(&o, SATC_ISA_SCALAR, f, &b, UINT32_MAX, 2, SATC_EXACT, FR_BITS | FR_CLASSES);
    rb_check(o.st == SATC_OK && fr_bit(&o, 0) == fr_bit(&o, 1) && o.classes[0] == o.classes[1],
             "bits past UINT32_MAX without indices: status %d", (int)o.st);
    fr_cull(&o, SATC_ISA_SCALAR, f, &b, UINT32_MAX, 1, SATC_EXACT, FR_ALL);
    rb_check(o.st == SATC_OK && (!o.visible || o.idx[0] == UINT32_MAX),
             "index UINT32_MAX: status %d visible %zu", (int)o.st, o.visible);
    fr_out_free(&o);
}

static void guard_pages(const satc_frustum *f, const satc_camera *cam, rb_rng *r)
{
    static const size_t counts[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 70, 1025};
    static const size_t firsts[] = {0, 1, 3, 5, 13};
    size_t nc = sizeof counts / sizeof counts[0];
    for (int L = 0; L < fm_nlayouts(); L++) {
        if (strict_cm44 && !strstr(fm_layout_name(L), "cm44"))
            continue;
        fm_set s;
        if (fm_set_alloc(&s, fm_layout_set(L), 1040))
            exit(2);
        fm_fill(&s, cam, r);
        for (size_t i = 3; i < s.n; i += 4) /* ids past the table must not be read */
            s.mesh[i] = i % 8 == 3 ? UINT32_MAX : (uint32_t)(s.ntable + i % 3);
        for (size_t ci = 0; ci < nc; ci += quick ? 3 : 1) {
            for (int w = 1; w <= 2; w++) {
                size_t count = counts[ci], first = firsts[(ci + (size_t)w) % 5];
                fm_mem heap = FM_MEM(FM_HEAP), g = FM_MEM((fm_where)w);
                satc_batch hb, gb;
                rb_set_context("%s count %zu first %zu guard %s", fm_layout_name(L), count, first,
                               w == FM_GUARD_END ? "end" : "start");
                if (fm_build(&s, L, &heap, first, count, &hb) || fm_build(&s, L, &g, first, count, &gb)) {
                    rb_check(0, "memory for the guarded layout");
                    exit(rb_finish());
                }
                char what[128];
                snprintf(what, sizeof what, "%s guard %s", fm_layout_name(L),
                         w == FM_GUARD_END ? "end" : "start");
                fr_out ref[2], got[2];
                for (int m = 0; m < 2; m++)
                    fr_out_init(&ref[m], count), fr_out_init(&got[m], count);
                for (int p = 0; p < npaths; p++) /* a fault names its path */
                    for (int m = 0; m < 2; m++) {
                        rb_set_context("%s count %zu first %zu path %s mode %d", what, count,
                                       first, satc_isa_name(paths[p]), m);
                        fr_cull(&ref[m], paths[p], f, &gb, first, count, (satc_mode)m, FR_ALL);
                    }
                rb_set_context("%s count %zu first %zu: every path", what, count, first);
                fr_check_paths(what, f, &gb, first, count, got);
                for (int m = 0; m < 2; m++) {
                    fr_cull(&ref[m], SATC_ISA_SCALAR, f, &hb, first, count, (satc_mode)m, FR_ALL);
                    rb_check(ref[m].visible == got[m].visible &&
                                 !memcmp(ref[m].bits, got[m].bits, (count + 7) / 8) &&
                                 !memcmp(ref[m].classes, got[m].classes, count),
                             "%s count %zu first %zu mode %d: differs from the heap copy", what,
                             count, first, m);
                    fr_out_free(&ref[m]), fr_out_free(&got[m]);
                }
                fm_mem_free(&heap);
                fm_mem_free(&g);
            }
        }
        fm_set_free(&s);
    }
}

int main(int argc, char **argv)
{
    quick = getenv("SATC_TEST_QUICK") != NULL;
    for (int i = 1; i < argc; i++)
        quick |= !strcmp(argv[i], "--quick"), strict_cm44 |= !strcmp(argv[i], "--strict-cm44");
    if (strict_cm44)
        fm_cm44_read = 15;
    rb_catch_faults();
    npaths = fr_paths(paths);
    rb_rng r = {0x6c61796f7574ull};
    float eye[3] = {3.0f, -2.0f, 1.5f};
    satc_camera cams[2];
    rb_camera_persp(&cams[0], &r, eye, 0.5f, 300.0f);
    rb_camera_ortho(&cams[1], &r, eye, 30.0f, 20.0f, -4.0f, 90.0f);
    for (int c = 0; c < 2; c++) {
        satc_frustum f;
        if (!rb_check(satc_frustum_from_camera(&f, &cams[c]) == SATC_OK, "camera %d", c))
            continue;
        if (!strict_cm44) {
            rb_set_context("bad descriptors, camera %d", c);
            bad_descriptors(&f, &cams[c], &r);
            index_range(&f);
            satc_frustum zero;
            memset(&zero, 0, sizeof zero);
            static const float p[3] = {0, 0, 0};
            satc_batch sb = {.form = SATC_FORM_SPHERES, .spheres = {{p, p + 1, p + 2, 0}, {p, 0}}};
            expect_status("frustum not built", &zero, &sb, 0, 4, 0, SATC_ERR_FLAGS);
        }
        guard_pages(&f, &cams[c], &r);
    }
    return rb_finish();
}
