/*
 * The API contract of satc.h: every status code each public function can
 * return, nothing written on error, non-finite boxes never culled, large
 * worlds, the box helpers' geometry, and the agreement of the output forms.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "scenes.h"

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZE_ADDRESS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZE_ADDRESS 1
#endif
#endif
#ifndef SANITIZE_ADDRESS
#define SANITIZE_ADDRESS 0
#endif

#include "contract.h"

int passed, failed;

void check(int ok, const char *fmt, ...)
{
    if (ok) {
        passed++;
        return;
    }
    failed++;
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL: ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

#define PATTERN 0xA5

static int untouched(const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++)
        if (c[i] != PATTERN)
            return 0;
    return 1;
}

static satc_camera good_camera(int ortho)
{
    satc_camera c;
    memset(&c, 0, sizeof c);
    c.origin[0] = 1, c.origin[1] = 2, c.origin[2] = 3;
    c.left[0] = 1, c.up[1] = 1, c.dir[2] = 1;
    c.l0 = -1, c.l1 = 1, c.u0 = -0.5f, c.u1 = 0.5f;
    c.n = ortho ? -2.0f : 0.5f;
    c.f = 100;
    c.orthographic = ortho;
    return c;
}

static float *cam_field(satc_camera *c, int i)
{
    float *f[] = {&c->origin[0], &c->origin[1], &c->origin[2], &c->left[0], &c->left[1],
                  &c->left[2],   &c->up[0],     &c->up[1],     &c->up[2],   &c->dir[0],
                  &c->dir[1],    &c->dir[2],    &c->l0,        &c->l1,      &c->u0,
                  &c->u1,        &c->n,         &c->f};
    return f[i];
}

static void expect_camera(const satc_camera *c, satc_status want, const char *what)
{
    satc_frustum f;
    memset(&f, PATTERN, sizeof f);
    satc_status st = satc_frustum_from_camera(&f, c);
    check(st == want, "satc_frustum_from_camera: %s: got %d, want %d", what, st, want);
    if (want != SATC_OK)
        check(untouched(&f, sizeof f), "satc_frustum_from_camera: %s: output written on error", what);
}

/* ------------------------------------------------------------------ */

static void frustum_status(void)
{
    satc_camera c = good_camera(0);
    satc_frustum f;
    check(satc_frustum_from_camera(NULL, &c) == SATC_ERR_NULL, "from_camera(NULL, cam)");
    memset(&f, PATTERN, sizeof f);
    check(satc_frustum_from_camera(&f, NULL) == SATC_ERR_NULL && untouched(&f, sizeof f),
          "from_camera(out, NULL)");
    for (int ortho = 0; ortho < 2; ortho++) {
        c = good_camera(ortho);
        expect_camera(&c, SATC_OK, ortho ? "valid orthographic" : "valid perspective");
        const float bad[3] = {NAN, INFINITY, -INFINITY};
        for (int i = 0; i < 18; i++) {
            for (int b = 0; b < 3; b++) {
                c = good_camera(ortho);
                *cam_field(&c, i) = bad[b];
                char what[64];
                snprintf(what, sizeof what, "field %d = %g (%s)", i, bad[b], ortho ? "ortho" : "persp");
                satc_status want = SATC_ERR_NONFINITE;
                if (i == 17 && b == 1)
                    want = ortho ? SATC_ERR_FAR : SATC_OK; /* infinite far */
                expect_camera(&c, want, what);
            }
        }
        c = good_camera(ortho);
        c.f = c.n;
        expect_camera(&c, SATC_ERR_FAR, "f == n");
        c.f = c.n - 1;
        expect_camera(&c, SATC_ERR_FAR, "f < n");
        c = good_camera(ortho);
        c.l0 = c.l1;
        expect_camera(&c, SATC_ERR_BOUNDS, "l0 == l1");
        c = good_camera(ortho);
        c.l0 = 2;
        expect_camera(&c, SATC_ERR_BOUNDS, "l0 > l1");
        c = good_camera(ortho);
        c.u1 = c.u0;
        expect_camera(&c, SATC_ERR_BOUNDS, "u0 == u1");
        c = good_camera(ortho);
        c.u0 = 1;
        expect_camera(&c, SATC_ERR_BOUNDS, "u0 > u1");
        /* Frames. */
        c = good_camera(ortho);
        c.left[0] = 1.001f;
        expect_camera(&c, SATC_ERR_FRAME, "L not unit");
        c = good_camera(ortho);
        c.up[0] = 0.01f;
        expect_camera(&c, SATC_ERR_FRAME, "L.U != 0");
        c = good_camera(ortho);
        c.left[0] = -1;
        expect_camera(&c, SATC_ERR_FRAME, "left-handed frame");
        c = good_camera(ortho);
        c.dir[2] = -1;
        expect_camera(&c, SATC_ERR_FRAME, "D = -(L x U)");
        c = good_camera(ortho);
        memset(c.left, 0, sizeof c.left);
        expect_camera(&c, SATC_ERR_FRAME, "zero L");
        c = good_camera(ortho);
        c.left[1] = 2e-7f; /* within SATC_FRAME_TOLERANCE */
        expect_camera(&c, SATC_OK, "frame within tolerance");
    }
    /* Perspective only. */
    c = good_camera(0);
    c.n = 0;
    expect_camera(&c, SATC_ERR_NEAR, "n == 0");
    c.n = -0.0f;
    expect_camera(&c, SATC_ERR_NEAR, "n == -0");
    c.n = -1;
    expect_camera(&c, SATC_ERR_NEAR, "n < 0");
    c = good_camera(0);
    c.l1 = c.n * 2.1e6f;
    expect_camera(&c, SATC_ERR_BOUNDS, "slope beyond SATC_MAX_SLOPE");
    c = good_camera(0);
    c.u0 = -c.n * 2.1e6f;
    expect_camera(&c, SATC_ERR_BOUNDS, "lower slope beyond SATC_MAX_SLOPE");
    c = good_camera(0);
    c.l1 = c.n * 1.0e6f;
    expect_camera(&c, SATC_OK, "slope just under SATC_MAX_SLOPE");
    c = good_camera(0);
    c.l0 = 0.25f, c.l1 = 0.75f; /* off-center, both positive */
    expect_camera(&c, SATC_OK, "asymmetric bounds both positive");
    c = good_camera(1);
    c.n = -50, c.f = -10;
    expect_camera(&c, SATC_OK, "orthographic with negative n and f");

    satc_frustum fr;
    c = good_camera(0);
    c.f = INFINITY;
    check(satc_frustum_from_camera(&fr, &c) == SATC_OK && fr.kind == SATC_FRUSTUM_PERSPECTIVE &&
              fr.infinite == 1,
          "infinite far: kind perspective, infinite = 1");
    c = good_camera(1);
    check(satc_frustum_from_camera(&fr, &c) == SATC_OK && fr.kind == SATC_FRUSTUM_ORTHOGRAPHIC,
          "orthographic kind");
}

static void perspective_status(void)
{
    const float eye[3] = {1, 2, 3}, dir[3] = {0, 0, -1}, up[3] = {0, 1, 0}, bent[3] = {0, 1, 0.01f};
    struct {
        const float *e, *d, *u;
        float fovy, aspect, n, f;
        satc_status want;
        const char *what;
    } cases[] = {
        {eye, dir, up, 1.0f, 1.5f, 0.1f, 100, SATC_OK, "valid"},
        {eye, dir, up, 1.0f, 1.5f, 0.1f, INFINITY, SATC_OK, "infinite far"},
        {NULL, dir, up, 1.0f, 1.5f, 0.1f, 100, SATC_ERR_NULL, "NULL eye"},
        {eye, NULL, up, 1.0f, 1.5f, 0.1f, 100, SATC_ERR_NULL, "NULL dir"},
        {eye, dir, NULL, 1.0f, 1.5f, 0.1f, 100, SATC_ERR_NULL, "NULL up"},
        {eye, dir, up, NAN, 1.5f, 0.1f, 100, SATC_ERR_NONFINITE, "fovy NaN"},
        {eye, dir, up, INFINITY, 1.5f, 0.1f, 100, SATC_ERR_NONFINITE, "fovy Inf"},
        {eye, dir, up, 1.0f, NAN, 0.1f, 100, SATC_ERR_NONFINITE, "aspect NaN"},
        {eye, dir, up, 1.0f, 1.5f, NAN, 100, SATC_ERR_NONFINITE, "n NaN"},
        {eye, dir, up, 1.0f, 1.5f, 0.1f, NAN, SATC_ERR_NONFINITE, "f NaN"},
        {eye, dir, up, 0.0f, 1.5f, 0.1f, 100, SATC_ERR_BOUNDS, "fovy 0"},
        {eye, dir, up, -1.0f, 1.5f, 0.1f, 100, SATC_ERR_BOUNDS, "fovy < 0"},
        {eye, dir, up, 3.1416f, 1.5f, 0.1f, 100, SATC_ERR_BOUNDS, "fovy >= pi"},
        {eye, dir, up, 1.0f, 0.0f, 0.1f, 100, SATC_ERR_BOUNDS, "aspect 0"},
        {eye, dir, up, 1.0f, -1.0f, 0.1f, 100, SATC_ERR_BOUNDS, "aspect < 0"},
        {eye, dir, up, 1.0f, 1.5f, 0.0f, 100, SATC_ERR_NEAR, "n 0"},
        {eye, dir, up, 1.0f, 1.5f, -1.0f, 100, SATC_ERR_NEAR, "n < 0"},
        {eye, dir, up, 1.0f, 1.5f, 1.0f, 1.0f, SATC_ERR_FAR, "f == n"},
        {eye, dir, up, 1.0f, 1.5f, 0.1f, -INFINITY, SATC_ERR_NONFINITE, "f -Inf"},
        {eye, dir, bent, 1.0f, 1.5f, 0.1f, 100, SATC_ERR_FRAME, "up not orthogonal to dir"},
        {eye, up, up, 1.0f, 1.5f, 0.1f, 100, SATC_ERR_FRAME, "up parallel to dir"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        satc_frustum f;
        memset(&f, PATTERN, sizeof f);
        satc_status st = satc_frustum_perspective(&f, cases[i].e, cases[i].d, cases[i].u, cases[i].fovy,
                                                  cases[i].aspect, cases[i].n, cases[i].f);
        check(st == cases[i].want, "satc_frustum_perspective: %s: got %d, want %d", cases[i].what, st,
              cases[i].want);
        if (cases[i].want != SATC_OK)
            check(untouched(&f, sizeof f), "satc_frustum_perspective: %s: output written", cases[i].what);
    }
    check(satc_frustum_perspective(NULL, eye, dir, up, 1, 1, 0.1f, 10) == SATC_ERR_NULL,
          "satc_frustum_perspective(NULL out)");
    /* The frame it builds: rows L = U x D, U, D; slopes tan(fovy/2) * aspect. */
    satc_frustum f;
    satc_frustum_perspective(&f, eye, dir, up, 1.0f, 2.0f, 0.1f, 100);
    double mu = tan(0.5), l = mu * 2.0;
    check(f.frame[0][0] == -1 && f.frame[0][1] == 0 && f.frame[0][2] == 0 && f.frame[1][1] == 1 &&
              f.frame[2][2] == -1 && fabs(f.y1 - mu) < 1e-6 && fabs(f.x1 - l) < 1e-6 &&
              fabs(f.x0 + l) < 1e-6 && f.origin[2] == 3,
          "satc_frustum_perspective frame and slopes (L = U x D = (-1,0,0); x1 %g want %g)", f.x1, l);
}

/* ------------------------------------------------------------------ */

typedef struct outbuf {
    uint8_t bits[64], cls[512];
    uint32_t idx[512];
} outbuf;

static void fill_pattern(outbuf *o, satc_results *r)
{
    memset(o, PATTERN, sizeof *o);
    r->bitmask = o->bits, r->classes = o->cls, r->indices = o->idx;
    memset(&r->visible, PATTERN, sizeof r->visible);
}

static int out_untouched(const outbuf *o, const satc_results *r)
{
    return untouched(o, sizeof *o) && untouched(&r->visible, sizeof r->visible);
}

static void cull_status(void)
{
    scn_scene s;
    if (scn_make(&s, SCN_BOUNDARY, 300, 5, NULL) != 0) {
        check(0, "scn_make");
        return;
    }
    outbuf o;
    satc_results r;
    satc_status st;
    fill_pattern(&o, &r);
    check(satc_cull_batch(NULL, &s.boxes, 0, 10, SATC_EXACT, &r) == SATC_ERR_NULL && out_untouched(&o, &r),
          "cull_batch NULL frustum");
    check(satc_cull_batch(&s.frustum, NULL, 0, 10, SATC_EXACT, &r) == SATC_ERR_NULL && out_untouched(&o, &r),
          "cull_batch NULL boxes");
    check(satc_cull_batch(&s.frustum, &s.boxes, 0, 10, SATC_EXACT, NULL) == SATC_ERR_NULL,
          "cull_batch NULL results");
    for (int a = 0; a < 15; a++) {
        satc_boxes b = s.boxes;
        const float **p = a < 3 ? &b.center[a] : a < 6 ? &b.extent[a - 3] : &b.axis[(a - 6) / 3][(a - 6) % 3];
        *p = NULL;
        fill_pattern(&o, &r);
        st = satc_cull_batch(&s.frustum, &b, 0, 10, SATC_CONSERVATIVE, &r);
        check(st == SATC_ERR_NULL && out_untouched(&o, &r), "cull_batch with box array %d NULL: %d", a, st);
        /* count 0 with the NULL array is fine */
        st = satc_cull_batch(&s.frustum, &b, 0, 0, SATC_CONSERVATIVE, &r);
        check(st == SATC_OK && r.visible == 0, "cull_batch count 0 with box array %d NULL: %d", a, st);
    }
    {
        satc_boxes none;
        memset(&none, 0, sizeof none);
        satc_results empty;
        memset(&empty, 0, sizeof empty);
        empty.visible = 12345;
        st = satc_cull_batch(&s.frustum, &none, 0, 0, SATC_EXACT, &empty);
        check(st == SATC_OK && empty.visible == 0, "count 0, every array and output NULL: OK, visible 0");
    }
    const int modes[] = {2, -1, 100};
    for (int m = 0; m < 3; m++) {
        fill_pattern(&o, &r);
        st = satc_cull_batch(&s.frustum, &s.boxes, 0, 10, (satc_mode)modes[m], &r);
        check(st == SATC_ERR_FLAGS && out_untouched(&o, &r), "cull_batch mode %d: %d", modes[m], st);
    }
    const uint32_t kinds[] = {0, 3, 0xffffffffu};
    for (int k = 0; k < 3; k++) {
        satc_frustum g = s.frustum;
        g.kind = kinds[k];
        fill_pattern(&o, &r);
        st = satc_cull_batch(&g, &s.boxes, 0, 10, SATC_EXACT, &r);
        check(st == SATC_ERR_FLAGS && out_untouched(&o, &r), "cull_batch frustum kind %u: %d", kinds[k], st);
    }
    {
        satc_frustum g;
        memset(&g, 0, sizeof g);
        fill_pattern(&o, &r);
        st = satc_cull_batch(&g, &s.boxes, 0, 10, SATC_EXACT, &r);
        check(st == SATC_ERR_FLAGS && out_untouched(&o, &r), "cull_batch zeroed frustum: %d", st);
    }
    fill_pattern(&o, &r);
    st = satc_cull_batch(&s.frustum, &s.boxes, SIZE_MAX, 2, SATC_EXACT, &r);
    check(st == SATC_ERR_RANGE && out_untouched(&o, &r), "cull_batch first + count overflows: %d", st);
    fill_pattern(&o, &r);
    st = satc_cull_batch(&s.frustum, &s.boxes, 2, SIZE_MAX - 1, SATC_EXACT, &r);
    check(st == SATC_ERR_RANGE && out_untouched(&o, &r), "cull_batch count overflows: %d", st);
    if (SIZE_MAX > UINT32_MAX) {
        fill_pattern(&o, &r);
        st = satc_cull_batch(&s.frustum, &s.boxes, (size_t)UINT32_MAX, 2, SATC_EXACT, &r);
        check(st == SATC_ERR_RANGE && out_untouched(&o, &r), "cull_batch indices past UINT32_MAX: %d", st);
        /* The last valid index: arrays addressed so that box UINT32_MAX is box 0.
         * (Address arithmetic only; the library reads index UINT32_MAX.) */
        satc_boxes b = s.boxes;
        size_t off = (size_t)UINT32_MAX * sizeof(float);
        for (int k = 0; k < 3; k++) {
            b.center[k] = (const float *)((uintptr_t)b.center[k] - off);
            b.extent[k] = (const float *)((uintptr_t)b.extent[k] - off);
            for (int j = 0; j < 3; j++)
                b.axis[k][j] = (const float *)((uintptr_t)b.axis[k][j] - off);
        }
        size_t vis0 = 0;
        satc_results r0;
        memset(&r0, 0, sizeof r0);
        uint8_t c0;
        r0.classes = &c0;
        satc_cull_batch(&s.frustum, &s.boxes, 0, 1, SATC_EXACT, &r0);
        vis0 = r0.visible;
        fill_pattern(&o, &r);
        st = satc_cull_batch(&s.frustum, &b, (size_t)UINT32_MAX, 1, SATC_EXACT, &r);
        check(st == SATC_OK && r.visible == vis0 && (!vis0 || o.idx[0] == UINT32_MAX) && o.cls[0] == c0,
              "cull_batch index UINT32_MAX itself is accepted and reported: %d", st);
        /* without indices, first past UINT32_MAX is fine */
        r.indices = NULL;
        st = satc_cull_batch(&s.frustum, &b, (size_t)UINT32_MAX, 1, SATC_EXACT, &r);
        check(st == SATC_OK, "cull_batch first = UINT32_MAX without indices: %d", st);
    }

    /* satc_cull_batch_isa */
    const unsigned all = SATC_ISA_SCALAR | SATC_ISA_SSE41 | SATC_ISA_AVX2 | SATC_ISA_NEON | SATC_ISA_AVX512 |
                         SATC_ISA_SIMD128;
    const unsigned badisa[] = {0, 3, 6, 64, 0x80000000u, all};
    for (int i = 0; i < 6; i++) {
        fill_pattern(&o, &r);
        st = satc_cull_batch_isa((satc_isa)badisa[i], &s.frustum, &s.boxes, 0, 10, SATC_EXACT, &r);
        check(st == SATC_ERR_FLAGS && out_untouched(&o, &r), "cull_batch_isa(0x%x): %d", badisa[i], st);
    }
    unsigned run = satc_isa_runnable();
    for (unsigned b = 1; b <= SATC_ISA_SIMD128; b <<= 1) { /* simd128: wasm only */
        fill_pattern(&o, &r);
        st = satc_cull_batch_isa((satc_isa)b, &s.frustum, &s.boxes, 0, 10, SATC_EXACT, &r);
        if (run & b)
            check(st == SATC_OK, "cull_batch_isa(%s) runnable: %d", satc_isa_name((satc_isa)b), st);
        else
            check(st == SATC_ERR_ISA && out_untouched(&o, &r), "cull_batch_isa(%s) not runnable: %d",
                  satc_isa_name((satc_isa)b), st);
        /* and its argument errors come through */
        fill_pattern(&o, &r);
        st = satc_cull_batch_isa((satc_isa)b, &s.frustum, &s.boxes, 0, 10, (satc_mode)7, &r);
        check(st == ((run & b) ? SATC_ERR_FLAGS : SATC_ERR_ISA) && out_untouched(&o, &r),
              "cull_batch_isa(%s) bad mode: %d", satc_isa_name((satc_isa)b), st);
    }
    printf("paths: compiled 0x%x, runnable 0x%x, native 0x%x, active %s\n", satc_isa_compiled(), run,
           satc_isa_native(), satc_isa_name(satc_isa_active()));
    check((run & SATC_ISA_SCALAR) && (satc_isa_native() & ~run) == 0 && (run & ~satc_isa_compiled()) == 0,
          "scalar runnable; native within runnable within compiled");

    /* satc_isa_set_mask: SATC_ISA would pick within the mask, so it is
     * unset here (each set_mask choice reads it) and put back after. */
    const char *env = getenv("SATC_ISA");
    char *saved = env ? strdup(env) : NULL;
    unsetenv("SATC_ISA");
    satc_isa before = satc_isa_active();
    check(satc_isa_set_mask(64) == SATC_ERR_FLAGS && satc_isa_active() == before, "set_mask(64)");
    check(satc_isa_set_mask(0x100 | SATC_ISA_AVX2) == SATC_ERR_FLAGS && satc_isa_active() == before,
          "set_mask(0x104)");
    check(satc_isa_set_mask(0) == SATC_OK && satc_isa_active() == SATC_ISA_SCALAR,
          "set_mask(0) selects scalar");
    check(satc_isa_set_mask(all) == SATC_OK && (satc_isa_native() & satc_isa_active()),
          "set_mask(all) selects a native path");
    if (saved) {
        setenv("SATC_ISA", saved, 1);
        free(saved);
        satc_isa_set_mask(all);
    }
    check(strcmp(satc_isa_name((satc_isa)0), "unknown") == 0 && strcmp(satc_isa_name(SATC_ISA_AVX2), "avx2") == 0,
          "satc_isa_name");
    for (int k = 0; k >= -16; k--)
        check(satc_status_string((satc_status)k) != NULL && strlen(satc_status_string((satc_status)k)) > 0 &&
                  strcmp(satc_status_string((satc_status)k), "unknown status") != 0,
              "status string %d", k);
    check(satc_status_string((satc_status)-99) != NULL, "status string for an unknown code");
    check(satc_version() == SATC_VERSION_MAJOR * 10000u + SATC_VERSION_MINOR * 100u + SATC_VERSION_PATCH,
          "satc_version matches the header");
    scn_free(&s);
}

/* ------------------------------------------------------------------ */

static void helper_status(void)
{
    satc_obb b;
    const float mn[3] = {-1, 2, 3}, mx[3] = {1, 2, 5};
    check(satc_obb_from_aabb(NULL, mn, mx) == SATC_ERR_NULL, "from_aabb NULL out");
    memset(&b, PATTERN, sizeof b);
    check(satc_obb_from_aabb(&b, NULL, mx) == SATC_ERR_NULL && untouched(&b, sizeof b), "from_aabb NULL min");
    check(satc_obb_from_aabb(&b, mn, NULL) == SATC_ERR_NULL && untouched(&b, sizeof b), "from_aabb NULL max");
    for (int k = 0; k < 3; k++) {
        float a[3], c[3];
        memcpy(a, mn, sizeof a), memcpy(c, mx, sizeof c);
        a[k] = c[k] + 1;
        check(satc_obb_from_aabb(&b, a, c) == SATC_ERR_BOX && untouched(&b, sizeof b), "from_aabb min > max axis %d", k);
        const float bad[3] = {NAN, INFINITY, -INFINITY};
        for (int v = 0; v < 3; v++) {
            memcpy(a, mn, sizeof a), memcpy(c, mx, sizeof c);
            a[k] = bad[v];
            check(satc_obb_from_aabb(&b, a, c) == SATC_ERR_BOX && untouched(&b, sizeof b),
                  "from_aabb min[%d] = %g", k, bad[v]);
            memcpy(a, mn, sizeof a);
            c[k] = bad[v];
            check(satc_obb_from_aabb(&b, a, c) == SATC_ERR_BOX && untouched(&b, sizeof b),
                  "from_aabb max[%d] = %g", k, bad[v]);
        }
    }
    check(satc_obb_from_aabb(&b, mn, mx) == SATC_OK && b.extent[1] == 0, "from_aabb min == max gives extent 0");
    {
        const float hmn[3] = {-3e38f, 0, 0}, hmx[3] = {3e38f, 1, 1};
        satc_status st = satc_obb_from_aabb(&b, hmn, hmx);
        check(st == SATC_OK || st == SATC_ERR_BOX, "from_aabb near FLT_MAX: ok or a box error, got %d", st);
        if (st == SATC_OK)
            check(isfinite(b.extent[0]) && (double)b.extent[0] >= 3e38, "from_aabb near FLT_MAX covers");
    }

    const float c3[3] = {1, 2, 3}, q[4] = {0, 0, 0, 1}, h[3] = {1, 2, 3};
    memset(&b, PATTERN, sizeof b);
    check(satc_obb_from_quat(NULL, c3, q, h) == SATC_ERR_NULL, "from_quat NULL out");
    check(satc_obb_from_quat(&b, NULL, q, h) == SATC_ERR_NULL && untouched(&b, sizeof b), "from_quat NULL center");
    check(satc_obb_from_quat(&b, c3, NULL, h) == SATC_ERR_NULL && untouched(&b, sizeof b), "from_quat NULL q");
    check(satc_obb_from_quat(&b, c3, q, NULL) == SATC_ERR_NULL && untouched(&b, sizeof b), "from_quat NULL half");
    const float zq[4] = {0, 0, 0, 0}, nzq[4] = {-0.0f, 0, -0.0f, 0};
    check(satc_obb_from_quat(&b, c3, zq, h) == SATC_ERR_BOX && untouched(&b, sizeof b), "from_quat zero quaternion");
    check(satc_obb_from_quat(&b, c3, nzq, h) == SATC_ERR_BOX && untouched(&b, sizeof b), "from_quat -0 quaternion");
    for (int k = 0; k < 3; k++) {
        float hh[3] = {1, 2, 3};
        hh[k] = -1e-30f;
        check(satc_obb_from_quat(&b, c3, q, hh) == SATC_ERR_BOX && untouched(&b, sizeof b),
              "from_quat negative extent %d", k);
    }
    for (int f = 0; f < 10; f++) {
        const float bad[2] = {NAN, INFINITY};
        for (int v = 0; v < 2; v++) {
            float cc[3] = {1, 2, 3}, qq[4] = {0, 0, 0, 1}, hh[3] = {1, 2, 3};
            float *p = f < 3 ? &cc[f] : f < 7 ? &qq[f - 3] : &hh[f - 7];
            *p = bad[v];
            check(satc_obb_from_quat(&b, cc, qq, hh) == SATC_ERR_BOX && untouched(&b, sizeof b),
                  "from_quat field %d = %g", f, bad[v]);
        }
    }
    {
        const float tq[4] = {1e-30f, 0, 0, 0}, z3[3] = {0, 0, 0};
        satc_status st = satc_obb_from_quat(&b, c3, tq, z3);
        check(st == SATC_OK && fabs(b.axis[0][0] - 1.0) < 1e-6 && fabs(b.axis[1][1] + 1.0) < 1e-6,
              "from_quat tiny quaternion is normalised in double: %d", st);
    }

    /* from_matrix: column-major identity with translation */
    float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 6, 7, 1};
    const float lmn[3] = {-1, -1, -1}, lmx[3] = {1, 2, 3};
    check(satc_obb_from_matrix(&b, m, 0, lmn, lmx) == SATC_OK && b.center[0] == 5 && b.center[1] == 6.5f &&
              b.center[2] == 8 && b.extent[2] == 2,
          "from_matrix identity + translation");
    memset(&b, PATTERN, sizeof b);
    check(satc_obb_from_matrix(NULL, m, 0, lmn, lmx) == SATC_ERR_NULL, "from_matrix NULL out");
    check(satc_obb_from_matrix(&b, NULL, 0, lmn, lmx) == SATC_ERR_NULL && untouched(&b, sizeof b), "from_matrix NULL m");
    check(satc_obb_from_matrix(&b, m, 0, NULL, lmx) == SATC_ERR_NULL && untouched(&b, sizeof b), "from_matrix NULL lmin");
    check(satc_obb_from_matrix(&b, m, 0, lmn, NULL) == SATC_ERR_NULL && untouched(&b, sizeof b), "from_matrix NULL lmax");
    const unsigned badconv[] = {2, 4, 8, 0x100, SATC_MATRIX_ROW_MAJOR | SATC_DEPTH_REVERSED};
    for (int i = 0; i < 5; i++)
        check(satc_obb_from_matrix(&b, m, badconv[i], lmn, lmx) == SATC_ERR_FLAGS && untouched(&b, sizeof b),
              "from_matrix conventions 0x%x", badconv[i]);
    struct {
        int idx;
        float v;
        const char *what;
    } mb[] = {
        {4, 0.5f, "shear (columns 0 and 1 not orthogonal)"},
        {0, 0, "singular (zero column 0)"},
        {3, 0.5f, "non-affine last row (m[3])"},
        {15, 2, "non-affine last row (m[15] = 2)"},
        {7, 1e-3f, "non-affine last row (m[7])"},
        {5, NAN, "NaN"},
        {12, INFINITY, "Inf translation"},
    };
    for (size_t i = 0; i < sizeof mb / sizeof mb[0]; i++) {
        float mm[16];
        memcpy(mm, m, sizeof mm);
        mm[mb[i].idx] = mb[i].v;
        if (mb[i].idx == 0)
            mm[1] = mm[2] = 0;
        satc_status st = satc_obb_from_matrix(&b, mm, 0, lmn, lmx);
        check(st == SATC_ERR_BOX && untouched(&b, sizeof b), "from_matrix %s: %d", mb[i].what, st);
    }
    {
        /* singular by a zero column 2 in a row-major matrix */
        float mm[16] = {1, 0, 0, 5, 0, 1, 0, 6, 0, 0, 0, 7, 0, 0, 0, 1};
        check(satc_obb_from_matrix(&b, mm, SATC_MATRIX_ROW_MAJOR, lmn, lmx) == SATC_ERR_BOX &&
                  untouched(&b, sizeof b),
              "from_matrix singular (row-major zero column)");
        float a[3] = {0, 0, 2}, c[3] = {1, 1, 1};
        check(satc_obb_from_matrix(&b, m, 0, a, c) == SATC_ERR_BOX && untouched(&b, sizeof b),
              "from_matrix lmin > lmax");
        a[2] = NAN;
        check(satc_obb_from_matrix(&b, m, 0, a, c) == SATC_ERR_BOX && untouched(&b, sizeof b),
              "from_matrix lmin NaN");
    }

    /* satc_box_arrays_alloc / set / get */
    satc_box_arrays a;
    check(satc_box_arrays_alloc(NULL, 4) == SATC_ERR_NULL, "box_arrays_alloc(NULL)");
    memset(&a, PATTERN, sizeof a);
    satc_status st = satc_box_arrays_alloc(&a, SIZE_MAX);
    check(st == SATC_ERR_RANGE && untouched(&a, sizeof a), "box_arrays_alloc(SIZE_MAX): %d", st);
    st = satc_box_arrays_alloc(&a, SIZE_MAX / 60);
    check((st == SATC_ERR_RANGE || st == SATC_ERR_NOMEM) && untouched(&a, sizeof a),
          "box_arrays_alloc(SIZE_MAX / 60): %d", st);
#if !SANITIZE_ADDRESS /* ASan aborts on such requests by default */
    st = satc_box_arrays_alloc(&a, (size_t)1 << 50);
    check((st == SATC_ERR_RANGE || st == SATC_ERR_NOMEM) && untouched(&a, sizeof a),
          "box_arrays_alloc(2^50): %d", st);
    if (st == SATC_OK)
        satc_box_arrays_free(&a);
#endif
    st = satc_box_arrays_alloc(&a, 5);
    check(st == SATC_OK && a.capacity == 5 && a.block != NULL, "box_arrays_alloc(5)");
    if (st == SATC_OK) {
        int aligned = 1;
        for (int k = 0; k < 3; k++) {
            aligned &= ((uintptr_t)a.center[k] % 64 == 0) & ((uintptr_t)a.extent[k] % 64 == 0);
            for (int j = 0; j < 3; j++)
                aligned &= (uintptr_t)a.axis[k][j] % 64 == 0;
        }
        check(aligned, "box arrays are 64-byte aligned");
        /* index 5 lies inside the padded block: it must stay untouched */
        for (int k = 0; k < 3; k++)
            a.center[k][5] = -7.0f;
        satc_obb one;
        memset(&one, 0, sizeof one);
        check(satc_box_arrays_set(&a, 5, &one) == SATC_ERR_RANGE && a.center[0][5] == -7.0f,
              "box_arrays_set(capacity) out of range, nothing written");
        check(satc_box_arrays_set(&a, SIZE_MAX, &one) == SATC_ERR_RANGE, "box_arrays_set(SIZE_MAX)");
        check(satc_box_arrays_set(NULL, 0, &one) == SATC_ERR_NULL, "box_arrays_set(NULL arrays)");
        check(satc_box_arrays_set(&a, 0, NULL) == SATC_ERR_NULL, "box_arrays_set(NULL box)");
        const satc_obb ref = {{1, 2, 3}, {{0, 1, 0}, {0, 0, 1}, {1, 0, 0}}, {4, 5, 6}};
        satc_obb got;
        satc_boxes v = satc_box_arrays_view(&a);
        check(satc_box_arrays_set(&a, 4, &ref) == SATC_OK && satc_boxes_get(&v, 4, &got) == SATC_OK &&
                  memcmp(&got, &ref, sizeof got) == 0,
              "box_arrays_set then boxes_get round trip");
        check(satc_boxes_get(NULL, 0, &got) == SATC_ERR_NULL && satc_boxes_get(&v, 0, NULL) == SATC_ERR_NULL,
              "boxes_get NULL");
        satc_box_arrays_free(&a);
        check(a.block == NULL && a.center[0] == NULL, "box_arrays_free zeroes the struct");
        satc_box_arrays_free(&a); /* no-op */
        satc_box_arrays_free(NULL);
    }
    satc_boxes v0 = satc_box_arrays_view(NULL);
    check(v0.center[0] == NULL && v0.axis[2][2] == NULL, "box_arrays_view(NULL) is all NULL");
}

/* ------------------------------------------------------------------ */
/* Non-finite boxes: visible, SATC_INTERSECTING, every mode, every path. */

static void nonfinite_boxes(void)
{
    /* World-axis cameras, and rotated ones where no frame component is 0
     * (0 * Inf would turn every Inf into NaN and hide a missing check). */
    satc_camera cams[4] = {good_camera(0), good_camera(1)};
    scn_rng rng;
    scn_seed(&rng, 99);
    scn_random_camera(&rng, SCN_CAM_SYMMETRIC, &cams[2]);
    scn_random_camera(&rng, SCN_CAM_ORTHO, &cams[3]);
    /* NaN and +-Inf in each of the 15 fields; and finite centers and
     * extents so large that S >= SATC_MAX_MAGNITUDE (never culled either). */
    enum { NSPECIAL = 15 * 3 + 3 * 4 + 3 * 2, N = NSPECIAL * 2 * 2 };
    struct {
        int field;
        float value;
    } special[NSPECIAL];
    int ns = 0;
    const float bad[3] = {NAN, INFINITY, -INFINITY}, huge_c[4] = {1e20f, -1e20f, 3e38f, -3e38f},
                huge_e[2] = {1e20f, 3e38f};
    for (int field = 0; field < 15; field++)
        for (int v = 0; v < 3; v++)
            special[ns].field = field, special[ns++].value = bad[v];
    for (int field = 0; field < 3; field++)
        for (int v = 0; v < 4; v++)
            special[ns].field = field, special[ns++].value = huge_c[v];
    for (int field = 12; field < 15; field++)
        for (int v = 0; v < 2; v++)
            special[ns].field = field, special[ns++].value = huge_e[v];
    /* each special box between ordinary ones, so SIMD lanes mix them */
    for (int ci = 0; ci < 4; ci++) {
        const satc_camera *c = &cams[ci];
        satc_frustum fr;
        satc_frustum_from_camera(&fr, c);
        /* inside: the middle of the bounds at a depth past n; outside: behind */
        double mid[3], back[3], scale;
        if (c->orthographic) {
            double p[3] = {0.5 * ((double)c->l0 + c->l1), 0.5 * ((double)c->u0 + c->u1), 0.5 * ((double)c->n + c->f)};
            scale = fmin(fmin((double)c->l1 - c->l0, (double)c->u1 - c->u0), (double)c->f - c->n) * 0.05;
            for (int k = 0; k < 3; k++) {
                mid[k] = c->origin[k] + p[0] * c->left[k] + p[1] * c->up[k] + p[2] * c->dir[k];
                back[k] = c->origin[k] + p[0] * c->left[k] + p[1] * c->up[k] + ((double)c->n - 10 * scale) * c->dir[k];
            }
        } else {
            double t = 2.0 * c->n;
            double p[3] = {t * 0.5 * ((double)c->l0 + c->l1) / c->n, t * 0.5 * ((double)c->u0 + c->u1) / c->n, t};
            scale = 0.05 * c->n * fmin((double)c->l1 - c->l0, (double)c->u1 - c->u0) / c->n;
            for (int k = 0; k < 3; k++) {
                mid[k] = c->origin[k] + p[0] * c->left[k] + p[1] * c->up[k] + p[2] * c->dir[k];
                back[k] = c->origin[k] - p[2] * c->dir[k];
            }
        }
        float q[4] = {0.3f, -0.5f, 0.2f, 0.8f}, h[3] = {(float)scale, (float)(0.5 * scale), (float)(0.25 * scale)};
        if (ci < 2)
            q[0] = q[1] = q[2] = 0, q[3] = 1;
        satc_box_arrays a;
        if (satc_box_arrays_alloc(&a, N) != SATC_OK) {
            check(0, "alloc");
            return;
        }
        size_t i = 0;
        for (int sp = 0; sp < NSPECIAL; sp++)
            for (int where = 0; where < 2; where++) {
                const double *w = where ? mid : back;
                const float cf[3] = {(float)w[0], (float)w[1], (float)w[2]};
                satc_obb b;
                satc_obb_from_quat(&b, cf, q, h);
                satc_box_arrays_set(&a, i++, &b); /* an ordinary neighbour */
                int field = special[sp].field;
                float *p = field < 3 ? &b.center[field] : field < 12 ? &b.axis[(field - 3) / 3][(field - 3) % 3] : &b.extent[field - 12];
                *p = special[sp].value;
                satc_box_arrays_set(&a, i++, &b);
            }
        satc_boxes bx = satc_box_arrays_view(&a);
        unsigned run = satc_isa_runnable();
        for (unsigned isa = 1; isa <= SATC_ISA_AVX512; isa <<= 1) {
            if (!(run & isa))
                continue;
            for (int mode = 0; mode < 2; mode++) {
                uint8_t cls[N];
                satc_results r;
                memset(&r, 0, sizeof r);
                r.classes = cls;
                satc_cull_batch_isa((satc_isa)isa, &fr, &bx, 0, N, (satc_mode)mode, &r);
                int bad_n = 0, first = -1;
                for (size_t j = 1; j < N; j += 2)
                    if (cls[j] != SATC_INTERSECTING) {
                        bad_n++;
                        if (first < 0)
                            first = (int)j;
                    }
                int sp = first < 0 ? 0 : first / 4;
                check(bad_n == 0,
                      "non-finite or huge boxes (camera %d, %s, %s): %d not SATC_INTERSECTING (first: field %d, value %g, %s)",
                      ci, satc_isa_name((satc_isa)isa), mode ? "exact" : "conservative", bad_n,
                      first < 0 ? -1 : special[sp].field, first < 0 ? 0.0 : (double)special[sp].value,
                      first < 0 ? "-" : (first / 2) % 2 ? "inside" : "outside");
                /* the ordinary neighbours: inside ones inside, outside ones culled */
                int neigh = 0;
                for (size_t j = 0; j < N; j += 2)
                    neigh += cls[j] != ((j / 2) % 2 ? SATC_INSIDE : SATC_OUTSIDE);
                check(neigh == 0, "ordinary neighbours of non-finite boxes (camera %d, %s, %s): %d wrong", ci,
                      satc_isa_name((satc_isa)isa), mode ? "exact" : "conservative", neigh);
            }
        }
        satc_box_arrays_free(&a);
    }
}

/* ------------------------------------------------------------------ */
/* Large worlds: scenes 10^6 units from the origin. */

static void large_worlds(void)
{
    const double off[3] = {1e6, -1e6, 1e6};
    unsigned run = satc_isa_runnable();
    for (int k = 0; k < 3; k++) {
        scn_scene s;
        if (scn_make(&s, (scn_kind)k, 100000, 31 + (uint64_t)k, off) != 0) {
            check(0, "scn_make large world");
            continue;
        }
        uint8_t *truth = malloc(s.count), *cls = malloc(s.count);
        satc_obb *box = malloc(s.count * sizeof *box);
        size_t meets = 0;
        for (size_t i = 0; i < s.count; i++) {
            satc_boxes_get(&s.boxes, i, &box[i]);
            truth[i] = (uint8_t)orc_intersects(&s.cam, &box[i], 0);
            meets += truth[i];
        }
        for (int mode = 0; mode < 2; mode++) {
            for (unsigned isa = 1; isa <= SATC_ISA_AVX512; isa <<= 1) {
                if (!(run & isa))
                    continue;
                satc_results r;
                memset(&r, 0, sizeof r);
                r.classes = cls;
                satc_cull_batch_isa((satc_isa)isa, &s.frustum, &s.boxes, 0, s.count, (satc_mode)mode, &r);
                size_t fn = 0, fp = 0, fpb = 0;
                for (size_t i = 0; i < s.count; i++) {
                    if (!cls[i] && truth[i])
                        fn++;
                    if (cls[i] && !truth[i]) {
                        fp++;
                        if (mode == SATC_EXACT && !orc_intersects(&s.cam, &box[i], orc_band(&s.cam, &box[i])))
                            fpb++;
                    }
                }
                if (isa == SATC_ISA_SCALAR)
                    printf("large world %-8s %-12s: %zu boxes, %zu meet, %zu visible, FN %zu, FP %zu "
                           "(rate %.5f of those outside)\n",
                           scn_name((scn_kind)k), mode ? "exact" : "conservative", s.count, meets,
                           r.visible, fn, fp, (double)fp / (double)(s.count - meets));
                if (mode == SATC_EXACT && isa == SATC_ISA_SCALAR)
                    printf("    exact false positives beyond the band: %zu\n", fpb);
                check(fpb == 0, "large world %s (%s, exact): %zu kept beyond the band",
                      scn_name((scn_kind)k), satc_isa_name((satc_isa)isa), fpb);
                check(fn == 0, "large world %s (%s, %s): %zu false negatives", scn_name((scn_kind)k),
                      satc_isa_name((satc_isa)isa), mode ? "exact" : "conservative", fn);
            }
        }
        free(truth), free(cls), free(box);
        scn_free(&s);
    }
}

static void output_forms(void)
{
    scn_scene s;
    if (scn_make(&s, SCN_BOUNDARY, 5000, 77, NULL) != 0) {
        check(0, "scn_make");
        return;
    }
    const size_t firsts[] = {0, 1, 7, 13, 255, 256, 999};
    const size_t counts[] = {0, 1, 5, 8, 63, 64, 65, 255, 256, 257, 1000, 3001};
    unsigned run = satc_isa_runnable();
    int bad = 0, groups = 0;
    enum { GUARD = 16 };
    size_t cap = 5000 + GUARD;
    uint8_t *bits = malloc(cap / 8 + GUARD + 1), *cls = malloc(cap), *cls2 = malloc(cap), *bits2 = malloc(cap / 8 + GUARD + 1);
    uint32_t *idx = malloc(cap * 4), *idx2 = malloc(cap * 4);
    /* The single-box scalar reference of every box, per mode. */
    uint8_t *single[2] = {malloc(s.count), malloc(s.count)};
    for (int mode = 0; mode < 2; mode++)
        for (size_t i = 0; i < s.count; i++) {
            satc_results r1 = {NULL, &single[mode][i], NULL, 0};
            if (satc_cull_batch_isa(SATC_ISA_SCALAR, &s.frustum, &s.boxes, i, 1, (satc_mode)mode,
                                    &r1) != SATC_OK)
                single[mode][i] = 0xff;
        }
    for (unsigned isa = 1; isa <= SATC_ISA_AVX512; isa <<= 1) {
        if (!(run & isa))
            continue;
        for (int mode = 0; mode < 2; mode++)
            for (size_t fi = 0; fi < sizeof firsts / sizeof firsts[0]; fi++)
                for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
                    size_t first = firsts[fi], count = counts[ci];
                    size_t nb = (count + 7) / 8;
                    memset(bits, 0xff, cap / 8 + GUARD + 1);
                    memset(cls, PATTERN, cap);
                    memset(idx, PATTERN, cap * 4);
                    satc_results r = {bits, cls, idx, 0};
                    int ok = satc_cull_batch_isa((satc_isa)isa, &s.frustum, &s.boxes, first, count,
                                                 (satc_mode)mode, &r) == SATC_OK;
                    size_t vis = 0;
                    for (size_t j = 0; j < count; j++) {
                        int v = cls[j] != SATC_OUTSIDE;
                        ok &= cls[j] <= SATC_INSIDE;
                        ok &= ((bits[j / 8] >> (j % 8)) & 1) == v;
                        if (v) {
                            ok &= idx[vis] == (uint32_t)(first + j);
                            vis++;
                        }
                        /* matches the single-box scalar reference through the API */
                        ok &= cls[j] == single[mode][first + j];
                    }
                    ok &= r.visible == vis;
                    if (count % 8)
                        ok &= (bits[nb - 1] >> (count % 8)) == 0; /* bits past count are 0 */
                    for (size_t g = 0; g < GUARD; g++) /* nothing written past the ranges */
                        ok &= bits[nb + g] == 0xff && cls[count + g] == PATTERN;
                    ok &= untouched(idx + vis, (cap - vis) * 4 > 64 ? 64 : (cap - vis) * 4);
                    /* separate calls, one form each */
                    satc_results rb = {bits2, NULL, NULL, 0}, rc = {NULL, cls2, NULL, 0},
                                 ri = {NULL, NULL, idx2, 0}, rn = {NULL, NULL, NULL, 0};
                    memset(bits2, 0xff, cap / 8 + GUARD + 1);
                    ok &= satc_cull_batch_isa((satc_isa)isa, &s.frustum, &s.boxes, first, count, (satc_mode)mode, &rb) == SATC_OK;
                    ok &= satc_cull_batch_isa((satc_isa)isa, &s.frustum, &s.boxes, first, count, (satc_mode)mode, &rc) == SATC_OK;
                    ok &= satc_cull_batch_isa((satc_isa)isa, &s.frustum, &s.boxes, first, count, (satc_mode)mode, &ri) == SATC_OK;
                    ok &= satc_cull_batch_isa((satc_isa)isa, &s.frustum, &s.boxes, first, count, (satc_mode)mode, &rn) == SATC_OK;
                    ok &= memcmp(bits, bits2, nb) == 0 && bits2[nb] == 0xff;
                    ok &= memcmp(cls, cls2, count) == 0;
                    ok &= memcmp(idx, idx2, vis * 4) == 0;
                    ok &= rb.visible == vis && rc.visible == vis && ri.visible == vis && rn.visible == vis;
                    /* the same boxes as part of a larger call from 0 */
                    satc_results rw = {NULL, cls2, NULL, 0};
                    ok &= satc_cull_batch_isa((satc_isa)isa, &s.frustum, &s.boxes, 0, first + count, (satc_mode)mode, &rw) == SATC_OK;
                    ok &= memcmp(cls, cls2 + first, count) == 0;
                    groups++;
                    if (!ok && bad++ < 5)
                        printf("  output forms differ: %s %s first %zu count %zu\n", satc_isa_name((satc_isa)isa),
                               mode ? "exact" : "conservative", first, count);
                }
    }
    printf("output forms: %d calls compared, %d inconsistent\n", groups, bad);
    check(bad == 0, "bitmask, classes, indices and visible agree (within and across calls)");
    /* the active path equals the explicit one */
    satc_results a = {NULL, cls, NULL, 0}, b = {NULL, cls2, NULL, 0};
    satc_cull_batch(&s.frustum, &s.boxes, 0, 5000, SATC_EXACT, &a);
    satc_cull_batch_isa(satc_isa_active(), &s.frustum, &s.boxes, 0, 5000, SATC_EXACT, &b);
    check(memcmp(cls, cls2, 5000) == 0 && a.visible == b.visible, "satc_cull_batch = satc_cull_batch_isa(active)");
    free(bits), free(bits2), free(cls), free(cls2), free(idx), free(idx2), free(single[0]), free(single[1]);
    scn_free(&s);
}

int main(void)
{
    frustum_status();
    perspective_status();
    cull_status();
    helper_status();
    nonfinite_boxes();
    large_worlds();
    helper_geometry();
    output_forms();
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
