/*
 * satc_group_bounds and its updates (satc_group_bounds_range,
 * satc_group_bounds_dirty): on every path, for every form and engine
 * layout (adversarial volumes: negative and zero sizes, shear, singular
 * maps, volumes far away) and every group layout (sizes 1 to 1500, not
 * multiples of 32 too, offsets with empty and long groups, groups cut at
 * count): each finite group bound contains each member's satc_to_aabbs
 * box and is no wider than that union by more than its widening; a group
 * with a non-finite member is NaN / +Inf, an empty one 0 / 0; every path
 * writes the scalar path's bits. Updates write exactly the chosen groups,
 * with the full call's bits, also after volumes moved; bad arguments get
 * their status and nothing written.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "forms_make.h"
#include "robust_util.h"

static satc_isa g_paths[8];
static int g_npaths;

/* Makes isa the active path (emulated ones too); 0 when it cannot be. */
static int use_path(satc_isa isa)
{
    setenv("SATC_ISA", satc_isa_name(isa), 1);
    satc_isa_set_mask(satc_isa_compiled());
    return satc_isa_active() == isa;
}

typedef struct glayout {
    size_t size, ngroups;
    uint32_t *off;
} glayout;

static void glayout_make(glayout *L, size_t n, int kind, rb_rng *r)
{
    static const size_t sizes[] = {1, 7, 31, 32, 33, 64, 100, 128, 1500};
    memset(L, 0, sizeof *L);
    if (kind < 9) {
        L->size = sizes[kind];
        L->ngroups = (n + L->size - 1) / L->size + (kind == 4); /* kind 4: one past count */
        return;
    }
    /* Offsets: empty groups, multiples of 32 end to end, long groups,
     * volumes before the first and after the last group. */
    L->off = malloc((n + 2) * sizeof *L->off);
    size_t g = 0, i = (size_t)rb_uniform(r, 0, 5);
    L->off[0] = (uint32_t)i;
    while (i < n) {
        double u = rb_uniform(r, 0, 1);
        size_t len = u < 0.1 ? 0 : u < 0.5 ? 32 * (size_t)rb_uniform(r, 1, 5)
                   : u < 0.55 ? (size_t)rb_uniform(r, 1025, 1300) : (size_t)rb_uniform(r, 1, 90);
        i = i + len < n - 3 ? i + len : n - 3;
        L->off[++g] = (uint32_t)i;
        if (i == n - 3)
            break;
    }
    L->ngroups = g;
}

/* Checks group bounds gc, gh of b (count volumes) against the members'
 * satc_to_aabbs boxes mc, mh. Returns the number of failures. */
static int check_contain(const glayout *L, size_t count, const float *gc, const float *gh,
                         const float *mc, const float *mh, int tight, const char *what)
{
    int bad = 0;
    satc_groups gs = {L->size, L->off, L->ngroups, {0}, {0}};
    for (size_t g = 0; g < L->ngroups; g++) {
        size_t lo = gs.size ? g * gs.size : gs.offsets[g];
        size_t hi = gs.size ? lo + gs.size : gs.offsets[g + 1];
        hi = hi < count ? hi : count;
        lo = lo < hi ? lo : hi;
        int fin = 1;
        long double ulo[3] = {INFINITY, INFINITY, INFINITY}, uhi[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (size_t i = lo; i < hi; i++) {
            for (int k = 0; k < 3; k++) {
                long double c = mc[3 * i + k], h = mh[3 * i + k];
                if (!isfinite(mc[3 * i + k]) || !isfinite(mh[3 * i + k]))
                    fin = 0;
                else
                    ulo[k] = fminl(ulo[k], c - h), uhi[k] = fmaxl(uhi[k], c + h);
            }
        }
        int ok = 1;
        for (int k = 0; k < 3; k++) {
            long double c = gc[3 * g + k], h = gh[3 * g + k];
            if (hi == lo) {
                ok &= c == 0.0L && h == 0.0L && !signbit(gc[3 * g + k]);
            } else if (!fin) {
                ok &= isnan(gc[3 * g + k]) && isinf(gh[3 * g + k]) && gh[3 * g + k] > 0;
            } else if (isfinite(gc[3 * g + k]) && isfinite(gh[3 * g + k])) {
                long double m = fmaxl(fabsl(ulo[k]), fabsl(uhi[k]));
                ok &= c - h <= ulo[k] && uhi[k] <= c + h; /* contains */
                /* and is tight (instances: also widened by their local offsets) */
                ok &= !tight || c - h >= ulo[k] - 0x1p-18L * m - 0x1p-100L;
                ok &= !tight || c + h <= uhi[k] + 0x1p-18L * m + 0x1p-100L;
                ok &= !signbit(gc[3 * g + k]) || gc[3 * g + k] != 0.0f;
            } else {
                /* finite members but a non-finite bound: only past float range */
                ok &= fabsl(ulo[k]) > 1e37L || fabsl(uhi[k]) > 1e37L;
            }
        }
        if (!ok && bad++ < 3)
            rb_check(0, "%s: group %zu [%zu, %zu): bound (%g %g %g | %g %g %g) vs members", what,
                     g, lo, hi, gc[3 * g], gc[3 * g + 1], gc[3 * g + 2], gh[3 * g],
                     gh[3 * g + 1], gh[3 * g + 2]);
    }
    rb_check(!bad, "%s: %d groups fail containment", what, bad);
    return bad;
}

static int same_bits(const float *a, const float *b, size_t n) { return !memcmp(a, b, n * sizeof *a); }

/* Every layout of every form, every group layout, every path. */
static void test_forms(rb_rng *r, int quick)
{
    size_t n = quick ? 700 : 2600;
    for (int k = 0; k < fm_nlayouts(); k++) {
        satc_camera cam;
        float eye[3] = {(float)rb_uniform(r, -50, 50), 2.0f, (float)rb_uniform(r, -50, 50)};
        rb_camera_persp(&cam, r, eye, 0.5f, 300.0f);
        fm_set s;
        fm_set_alloc(&s, fm_layout_set(k), n);
        fm_fill(&s, &cam, r);
        fm_mem mem = FM_MEM(FM_HEAP);
        satc_batch b;
        if (fm_build(&s, k, &mem, 0, n, &b) != 0) {
            rb_check(0, "fm_build failed");
            fm_set_free(&s);
            continue;
        }
        float *mc = malloc(12 * n), *mh = malloc(12 * n);
        satc_to_aabbs(&b, 0, n, mc, mh);
        for (int gk = 0; gk < 10; gk++) {
            glayout L;
            glayout_make(&L, n, gk, r);
            size_t count = gk == 8 ? n - 17 : n; /* groups cut at count */
            size_t ng = L.ngroups;
            float *ref_c = malloc(12 * ng + 12), *ref_h = malloc(12 * ng + 12);
            float *gc = malloc(12 * ng + 12), *gh = malloc(12 * ng + 12);
            char what[128];
            for (int p = 0; p < g_npaths; p++) {
                if (!use_path(g_paths[p]))
                    continue;
                float *oc = p ? gc : ref_c, *oh = p ? gh : ref_h;
                satc_status st = satc_group_bounds(&b, count, L.size, L.off, ng, oc, oh);
                snprintf(what, sizeof what, "%s groups %d %s", fm_layout_name(k), gk,
                         satc_isa_name(g_paths[p]));
                rb_check(st == SATC_OK, "%s: %s", what, satc_status_string(st));
                if (p == 0)
                    check_contain(&L, count, oc, oh, mc, mh, b.form != SATC_FORM_INSTANCES, what);
                else
                    rb_check(same_bits(ref_c, gc, 3 * ng) && same_bits(ref_h, gh, 3 * ng),
                             "%s: bounds differ from the scalar path's", what);
                /* Dirty groups (about 10 %) and a range: exactly those, same bits. */
                uint64_t *dirty = calloc(ng / 64 + 1, 8);
                for (size_t g = 0; g < ng; g++)
                    if (rb_uniform(r, 0, 1) < 0.1)
                        dirty[g / 64] |= 1ull << (g % 64);
                memset(gc, 0xA5, 12 * ng + 12), memset(gh, 0xA5, 12 * ng + 12);
                st = satc_group_bounds_dirty(&b, count, L.size, L.off, ng, dirty, gc, gh);
                int ok = st == SATC_OK, a5 = 0;
                const float sent = gc[3 * ng];
                for (size_t g = 0; g < ng; g++) {
                    int d = dirty[g / 64] >> (g % 64) & 1;
                    for (int q = 0; q < 3; q++) {
                        size_t j = 3 * g + (size_t)q;
                        if (d)
                            ok &= !memcmp(&gc[j], &ref_c[j], 4) && !memcmp(&gh[j], &ref_h[j], 4);
                        else
                            ok &= !memcmp(&gc[j], &sent, 4) && !memcmp(&gh[j], &sent, 4), a5++;
                    }
                }
                ok &= !memcmp(&gc[3 * ng], &sent, 4);
                rb_check(ok, "%s: dirty update (%d untouched entries)", what, a5);
                size_t g0 = (size_t)rb_uniform(r, 0, (double)ng), gn = (size_t)rb_uniform(r, 0, (double)(ng - g0 + 1));
                memset(gc, 0xA5, 12 * ng + 12), memset(gh, 0xA5, 12 * ng + 12);
                st = satc_group_bounds_range(&b, count, L.size, L.off, ng, g0, gn, gc, gh);
                ok = st == SATC_OK;
                for (size_t g = 0; g <= ng; g++) {
                    int in = g >= g0 && g < g0 + gn;
                    for (int q = 0; q < 3; q++) {
                        size_t j = 3 * g + (size_t)q;
                        ok &= in ? !memcmp(&gc[j], &ref_c[j], 4) && !memcmp(&gh[j], &ref_h[j], 4)
                                 : !memcmp(&gc[j], &sent, 4) && !memcmp(&gh[j], &sent, 4);
                    }
                }
                rb_check(ok, "%s: range update [%zu, +%zu)", what, g0, gn);
                free(dirty);
            }
            free(ref_c), free(ref_h), free(gc), free(gh), free(L.off);
        }
        free(mc), free(mh);
        fm_mem_free(&mem);
        fm_set_free(&s);
    }
    use_path(g_paths[g_npaths - 1]);
}

/* A server tick: some groups' volumes move; updating the dirty ones
 * gives what a full call on the moved volumes gives. */
static void test_moves(rb_rng *r)
{
    enum { N = 128 * 200 + 77, G = 128 };
    size_t ng = (N + G - 1) / G;
    float *c = malloc(12 * N), *h = malloc(12 * N);
    for (size_t i = 0; i < 3 * N; i++)
        c[i] = (float)rb_uniform(r, -2000, 2000), h[i] = (float)rb_uniform(r, 0.1, 3);
    satc_batch b = {.form = SATC_FORM_AABB, .aabb = {SATC_VEC3S_AOS(c, 12), SATC_VEC3S_AOS(h, 12)}};
    float *gc = malloc(12 * ng), *gh = malloc(12 * ng), *fc = malloc(12 * ng), *fh = malloc(12 * ng);
    for (int p = 0; p < g_npaths; p++) {
        if (!use_path(g_paths[p]))
            continue;
        satc_group_bounds(&b, N, G, NULL, ng, gc, gh);
        for (int tick = 0; tick < 5; tick++) {
            uint64_t dirty[(N / G) / 64 + 2] = {0};
            for (int m = 0; m < 300; m++) {
                size_t i = (size_t)rb_uniform(r, 0, N);
                c[3 * i + (size_t)rb_uniform(r, 0, 3)] += (float)rb_uniform(r, -50, 50);
                dirty[i / G / 64] |= 1ull << (i / G % 64);
            }
            if (tick == 3 || tick == 4) /* a NaN for one tick, then the value back */
                c[3 * 1000] = tick == 3 ? NAN : 1.0f, dirty[1000 / G / 64] |= 1ull << (1000 / G % 64);
            satc_status st = satc_group_bounds_dirty(&b, N, G, NULL, ng, dirty, gc, gh);
            satc_group_bounds(&b, N, G, NULL, ng, fc, fh);
            rb_check(st == SATC_OK && same_bits(gc, fc, 3 * ng) && same_bits(gh, fh, 3 * ng),
                     "tick %d on %s: dirty update differs from a full call", tick,
                     satc_isa_name(g_paths[p]));
        }
    }
    use_path(g_paths[g_npaths - 1]);
    free(c), free(h), free(gc), free(gh), free(fc), free(fh);
}

/* Non-finite volumes make their group NaN / +Inf and only it, on every
 * path and for every way a group is cut (one by one, runs of 32, one
 * kernel call for many groups); finite volumes whose sum overflows a
 * float (a checksum some paths use) still get finite bounds that hold
 * them. */
static void test_nonfinite(void)
{
    enum { N = 1000 };
    static float c[3 * N], h[3 * N], gc[3 * N], gh[3 * N], rc[3 * N], rh[3 * N];
    static const size_t sizes[] = {1, 7, 32, 100, 128};
    satc_batch b = {.form = SATC_FORM_AABB, .aabb = {SATC_VEC3S_AOS(c, 12), SATC_VEC3S_AOS(h, 12)}};
    for (int kind = 0; kind < 3; kind++) {
        for (size_t i = 0; i < 3 * N; i++)
            c[i] = (float)(i % 97) - 40.0f, h[i] = 0.5f;
        size_t at = 613;
        if (kind == 0)
            c[3 * at + 1] = NAN;
        else if (kind == 1)
            h[3 * at + 2] = INFINITY;
        else
            for (size_t i = 0; i < 3 * N; i++)
                c[i] = 2e38f; /* finite corners, sums past FLT_MAX */
        for (int s = 0; s < 5; s++) {
            size_t sz = sizes[s], ng = (N + sz - 1) / sz;
            for (int p = 0; p < g_npaths; p++) {
                if (!use_path(g_paths[p]))
                    continue;
                satc_status st = satc_group_bounds(&b, N, sz, NULL, ng, p ? gc : rc, p ? gh : rh);
                int ok = st == SATC_OK;
                if (p)
                    ok &= same_bits(rc, gc, 3 * ng) && same_bits(rh, gh, 3 * ng);
                for (size_t g = 0; g < ng && ok; g++) {
                    int bad = kind < 2 && g == at / sz;
                    for (int q = 0; q < 3; q++) {
                        float gcq = rc[3 * g + q], ghq = rh[3 * g + q];
                        ok &= bad ? isnan(gcq) && ghq == INFINITY
                                  : isfinite(gcq) && isfinite(ghq) &&
                                        (long double)gcq - ghq <= (long double)c[3 * g * sz + q] - h[3 * g * sz + q] &&
                                        (long double)gcq + ghq >= (long double)c[3 * g * sz + q] + h[3 * g * sz + q];
                    }
                }
                rb_check(ok, "non-finite kind %d, groups of %zu, %s", kind, sz,
                         satc_isa_name(g_paths[p]));
            }
        }
    }
    use_path(g_paths[g_npaths - 1]);
}

/* Bad arguments: their status, nothing written. */
static void test_bad(void)
{
    float c[24] = {0}, h[24] = {0}, gc[12], gh[12];
    for (int i = 0; i < 8; i++)
        h[3 * i] = h[3 * i + 1] = h[3 * i + 2] = 1.0f;
    satc_batch b = {.form = SATC_FORM_AABB, .aabb = {SATC_VEC3S_AOS(c, 12), SATC_VEC3S_AOS(h, 12)}};
    satc_batch nob = b, badform = b;
    nob.aabb.center.x = NULL;
    badform.form = (satc_form)99;
    uint32_t dec[5] = {0, 5, 3, 8, 8};
    uint64_t dirty = 0xF, dirty_dec = 0x2;
    struct {
        satc_status got, want;
        const char *what;
    } c_[] = {
        {satc_group_bounds(NULL, 8, 2, NULL, 4, gc, gh), SATC_ERR_NULL, "b NULL"},
        {satc_group_bounds(&b, 8, 2, NULL, 4, NULL, gh), SATC_ERR_NULL, "center NULL"},
        {satc_group_bounds(&b, 8, 2, NULL, 4, gc, NULL), SATC_ERR_NULL, "half NULL"},
        {satc_group_bounds(&b, 8, 0, NULL, 4, gc, gh), SATC_ERR_NULL, "no layout"},
        {satc_group_bounds(&badform, 8, 2, NULL, 4, gc, gh), SATC_ERR_FLAGS, "form"},
        {satc_group_bounds(&b, 8, SIZE_MAX / 2, NULL, 4, gc, gh), SATC_ERR_RANGE, "overflow"},
        {satc_group_bounds(&b, 8, 0, dec, 4, gc, gh), SATC_ERR_LAYOUT, "offsets decreasing"},
        {satc_group_bounds(&nob, 8, 2, NULL, 4, gc, gh), SATC_ERR_NULL, "stream NULL"},
        {satc_group_bounds_range(&b, 8, 2, NULL, 4, 3, 2, gc, gh), SATC_ERR_RANGE, "range past"},
        {satc_group_bounds_range(&b, 8, 2, NULL, 4, 2, SIZE_MAX, gc, gh), SATC_ERR_RANGE, "range wraps"},
        {satc_group_bounds_range(NULL, 8, 2, NULL, 4, 0, 1, gc, gh), SATC_ERR_NULL, "range b NULL"},
        {satc_group_bounds_range(&b, 8, 0, dec, 4, 1, 1, gc, gh), SATC_ERR_LAYOUT, "range decreasing"},
        {satc_group_bounds_dirty(&b, 8, 2, NULL, 4, NULL, gc, gh), SATC_ERR_NULL, "dirty NULL"},
        {satc_group_bounds_dirty(&b, 8, 0, dec, 4, &dirty_dec, gc, gh), SATC_ERR_LAYOUT, "dirty decreasing"},
        {satc_group_bounds_dirty(&badform, 8, 2, NULL, 4, &dirty, gc, gh), SATC_ERR_FLAGS, "dirty form"},
    };
    for (size_t i = 0; i < sizeof c_ / sizeof c_[0]; i++)
        rb_check(c_[i].got == c_[i].want, "%s: %s, want %s", c_[i].what,
                 satc_status_string(c_[i].got), satc_status_string(c_[i].want));
    /* Nothing written on error (the calls above each wrote into gc, gh
     * only if they succeeded: check with a sentinel on two of them). */
    memset(gc, 0x5A, sizeof gc), memset(gh, 0x5A, sizeof gh);
    satc_group_bounds(&b, 8, 0, dec, 4, gc, gh);
    satc_group_bounds_dirty(&b, 8, 0, dec, 4, &dirty_dec, gc, gh);
    satc_group_bounds_range(&b, 8, 2, NULL, 4, 3, 2, gc, gh);
    int untouched = 1;
    for (int i = 0; i < 12; i++)
        untouched &= ((uint8_t *)gc)[i] == 0x5A && ((uint8_t *)gh)[i] == 0x5A;
    rb_check(untouched, "failed calls wrote nothing");
    /* Decreasing offsets outside the updated groups are not read. */
    rb_check(satc_group_bounds_dirty(&b, 8, 0, dec, 4, &(uint64_t){0x8}, gc, gh) == SATC_OK &&
                 satc_group_bounds_range(&b, 8, 0, dec, 4, 3, 1, gc, gh) == SATC_OK,
             "updates read only their own groups' offsets");
    /* Nothing to do is fine. */
    rb_check(satc_group_bounds(&b, 8, 2, NULL, 0, NULL, NULL) == SATC_OK &&
                 satc_group_bounds_range(&b, 8, 2, NULL, 4, 4, 0, NULL, NULL) == SATC_OK &&
                 satc_group_bounds_dirty(&b, 8, 2, NULL, 0, NULL, NULL, NULL) == SATC_OK,
             "empty calls");
}

int main(void)
{
    int quick = rb_quick();
    g_npaths = rb_paths(g_paths);
    rb_rng r = {20261125};
    test_forms(&r, quick);
    test_moves(&r);
    test_nonfinite();
    test_bad();
    return rb_finish();
}
