/*
 * checkasm (after dav1d's): the scalar reference (satc_kernels_ref, one
 * volume at a time) and every path (the scalar path, i.e. the kernels one
 * lane wide; SSE4.1, AVX2, NEON, AVX-512, native or through SIMDe) cull the
 * same random inputs, and their outputs must be identical bit for bit:
 * bitmask, classes, indices and visible count from satc_cull_batch_isa,
 * and the kernels' vis/inside words (bits past n and inside bits without
 * classification must be 0). Every output buffer is guarded by canaries.
 *
 * Each input group is reseeded from the base seed and its name, so one
 * seed replays everything: checkasm --seed N. The groups run twice: in the
 * default floating-point environment and with flush-to-zero and
 * denormals-are-zero on. The forms_* groups cull other groups' inputs (and
 * tails of 0..70 at first 0..70) in every box form and layout built from
 * the same fields, kernels included.
 *
 * SATC_TEST_QUICK=1 (the sanitizers) culls smaller random batches and
 * fewer rounds; every group, camera kind, form, count and tail runs.
 * SATC_TEST_QUICK=2 (a CPU emulated by qemu) cuts the batches further.
 *
 * Exit status: 0 all equal, 1 a mismatch, 2 usage (an unknown --group
 * too).
 *
 *   checkasm [--seed N] [--group NAME] [--verbose]   the test
 *   checkasm --bench                                  ns/box per path and mode
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "checkasm.h"
#include "checkasm_depth.h"
#include "config.h"
#include "core/internal.h"
#include "occlusion/occlusion.h"
#include "scalar/cull_scalar.h"
#include "scenes.h"

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

/* ------------------------------------------------------------------ */
/* Floating-point environment                                           */
/* ------------------------------------------------------------------ */

static int g_ftz; /* current pass: FTZ/DAZ on around every cull call */

#if defined(__x86_64__) || (defined(__i386__) && defined(__SSE__))
fpenv env_enter(void)
{
    fpenv old = _mm_getcsr();
    if (g_ftz)
        _mm_setcsr(old | 0x8040u); /* FTZ (bit 15) and DAZ (bit 6) */
    return old;
}
void env_leave(fpenv old) { _mm_setcsr(old); }
#elif defined(__aarch64__)
fpenv env_enter(void)
{
    uint64_t old;
    __asm__ volatile("mrs %0, fpcr" : "=r"(old));
    if (g_ftz) {
        uint64_t v = old | (1ull << 24); /* FPCR.FZ */
        __asm__ volatile("msr fpcr, %0" : : "r"(v));
    }
    return old;
}
void env_leave(fpenv old) { __asm__ volatile("msr fpcr, %0" : : "r"(old)); }
#else
fpenv env_enter(void) { return 0; }
void env_leave(fpenv old) { (void)old; }
#endif

/* ------------------------------------------------------------------ */
/* Paths, statistics                                                    */
/* ------------------------------------------------------------------ */

static const satc_isa path_isa[NPATHS] = {SATC_ISA_SSE41, SATC_ISA_AVX2, SATC_ISA_NEON, SATC_ISA_AVX512,
                                          SATC_ISA_AVX512, SATC_ISA_SCALAR};
static const char *const mode_name[2] = {"conservative", "exact"};

static unsigned g_runnable;
stats g_total[NPATHS][2], g_group[NPATHS][2];
int g_passed, g_failed, g_verbose, g_reports;
const char *g_group_name;
static const char *g_form_name = "obb/soa"; /* the form of the case being compared */

int path_on(int p)
{
    if (p == PATH_EMU)
        return SATC_HAVE_AVX512_EMU && (satc_isa_native() & SATC_ISA_AVX512);
    if (p == PATH_SCALAR)
        return 1;
    return (g_runnable & (unsigned)path_isa[p]) != 0;
}

const char *path_name(int p) { return p == PATH_EMU ? "avx512-emu" : satc_isa_name(path_isa[p]); }

const satc_kernels *path_kernels(int p)
{
#if SATC_HAVE_AVX512_EMU
    if (p == PATH_EMU)
        return &satc_kernels_avx512_emu;
#endif
    return satc_kernels_for(path_isa[p]);
}

/* ------------------------------------------------------------------ */
/* Batches: 15 arrays, each allocated to exactly its boxes, at an        */
/* offset of `mis` floats (misaligned pointers).                        */
/* ------------------------------------------------------------------ */

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "checkasm: out of memory\n");
        exit(2);
    }
    return p;
}

void batch_init(batch *b, size_t n, unsigned mis)
{
    b->n = n;
    for (int q = 0; q < NF; q++) {
        b->mem[q] = xmalloc((n + mis) * sizeof(float));
        b->a[q] = b->mem[q] + mis;
        for (unsigned k = 0; k < mis; k++)
            b->mem[q][k] = NAN;
    }
    for (int c = 0; c < 3; c++) {
        b->view.center[c] = b->a[c];
        b->view.extent[c] = b->a[12 + c];
        for (int j = 0; j < 3; j++)
            b->view.axis[j][c] = b->a[3 + 3 * j + c];
    }
    b->desc = satc_batch_from_boxes(&b->view);
    b->form = "obb/soa";
}

void batch_free(batch *b)
{
    for (int q = 0; q < NF; q++)
        free(b->mem[q]);
    memset(b, 0, sizeof *b);
}

static const float *field_ptr(const satc_boxes *v, int q)
{
    if (q < 3)
        return v->center[q];
    if (q < 12)
        return v->axis[(q - 3) / 3][(q - 3) % 3];
    return v->extent[q - 12];
}

float *field_ptr_w(const satc_box_arrays *a, int q)
{
    if (q < 3)
        return a->center[q];
    if (q < 12)
        return a->axis[(q - 3) / 3][(q - 3) % 3];
    return a->extent[q - 12];
}

/* Copies boxes [from, from + n) of src to [at, at + n) of b. */
void batch_copy(batch *b, size_t at, const satc_boxes *src, size_t from, size_t n)
{
    for (int q = 0; q < NF; q++)
        memcpy(b->a[q] + at, field_ptr(src, q) + from, n * sizeof(float));
}

void batch_from(batch *b, const satc_boxes *src, size_t n, unsigned mis)
{
    batch_init(b, n, mis);
    batch_copy(b, 0, src, 0, n);
}

/* ------------------------------------------------------------------ */
/* Guarded output buffers                                               */
/* ------------------------------------------------------------------ */

enum { GUARD = 64 };

typedef struct guarded {
    unsigned char *mem;
    size_t len;
} guarded;

static unsigned char canary_byte(size_t k) { return (unsigned char)(0xA5u ^ (k * 29u)); }

/* len bytes between two canary zones; the inside filled with `fill`. */
static void guarded_init(guarded *g, size_t len, unsigned char fill)
{
    g->len = len;
    g->mem = xmalloc(len + 2 * GUARD);
    for (size_t k = 0; k < GUARD; k++) {
        g->mem[k] = canary_byte(k);
        g->mem[GUARD + len + k] = canary_byte(k + 7);
    }
    memset(g->mem + GUARD, fill, len);
}

static void *guarded_ptr(const guarded *g) { return g->mem + GUARD; }

static int guarded_intact(const guarded *g)
{
    for (size_t k = 0; k < GUARD; k++) {
        if (g->mem[k] != canary_byte(k) || g->mem[GUARD + g->len + k] != canary_byte(k + 7))
            return 0;
    }
    return 1;
}

static void guarded_free(guarded *g)
{
    free(g->mem);
    g->mem = NULL;
}

/* ------------------------------------------------------------------ */
/* Mismatch reports                                                     */
/* ------------------------------------------------------------------ */

static void print_frustum(const satc_frustum *f)
{
    printf("    frustum kind %u infinite %u origin %a %a %a\n", (unsigned)f->kind,
           (unsigned)f->infinite, f->origin[0], f->origin[1], f->origin[2]);
    for (int r = 0; r < 3; r++)
        printf("      frame[%d] %a %a %a\n", r, f->frame[r][0], f->frame[r][1], f->frame[r][2]);
    printf("      x0 %a x1 %a y0 %a y1 %a n %a f %a\n", f->x0, f->x1, f->y0, f->y1, f->n, f->f);
    printf("      eps_k %a center %a %a %a half %a %a %a tol_t %a\n", f->eps_k,
           f->center[0], f->center[1], f->center[2], f->half[0], f->half[1],
           f->half[2], f->tol_t);
}

static void print_box(const satc_boxes *v, size_t i)
{
    printf("    box %zu: center", i);
    for (int q = 0; q < NF; q++) {
        if (q == 3)
            printf(" axes");
        if (q == 12)
            printf(" extents");
        printf(" %a", field_ptr(v, q)[i]);
    }
    printf("\n");
}

static void report(int p, int mode, const char *what, const satc_frustum *f, const satc_boxes *v,
                   size_t box, const char *detail)
{
    if (g_reports++ >= 8)
        return;
    printf("  MISMATCH group %s (%s) form %s path %s mode %s ftz %d: %s\n", g_group_name, what,
           g_form_name, path_name(p), mode_name[mode], g_ftz, detail);
    if (box != (size_t)-1)
        print_box(v, box);
    print_frustum(f);
}

/* ------------------------------------------------------------------ */
/* Comparisons                                                          */
/* ------------------------------------------------------------------ */

typedef struct outs {
    guarded bits, classes, idx;
    satc_status st;
    size_t visible;
} outs;

static void outs_init(outs *o, size_t count)
{
    if (count > ((size_t)1 << 40)) /* never; bounds the sizes for the compiler's checks */
        exit(2);
    guarded_init(&o->bits, (count + 7) / 8, 0xCD);
    guarded_init(&o->classes, count, 0xCD);
    guarded_init(&o->idx, count * sizeof(uint32_t), 0xCD);
}

static void outs_free(outs *o)
{
    guarded_free(&o->bits);
    guarded_free(&o->classes);
    guarded_free(&o->idx);
}

/* One call through the public entry point; with_classes adds the classes
 * output (which turns on the kernels' inside test). */
static void run_api(satc_isa isa, const satc_frustum *f, const batch *b, size_t first,
                    size_t count, int mode, int with_classes, outs *o)
{
    satc_results r;
    memset(&r, 0, sizeof r);
    r.bitmask = guarded_ptr(&o->bits);
    r.indices = guarded_ptr(&o->idx);
    r.classes = with_classes ? guarded_ptr(&o->classes) : NULL;
    r.visible = (size_t)-1;
    fpenv e = env_enter();
    o->st = satc_cull_isa(isa, f, &b->desc, first, count, (satc_mode)mode, &r);
    env_leave(e);
    o->visible = r.visible;
}

static int outs_intact(const outs *o)
{
    return guarded_intact(&o->bits) && guarded_intact(&o->classes) && guarded_intact(&o->idx);
}

/* Boxes whose outputs differ between two runs (0 when identical). */
static uint64_t diff_outs(const outs *a, const outs *b, size_t count, int with_classes,
                          size_t *first_bad)
{
    uint64_t bad = 0;
    const unsigned char *ba = guarded_ptr(&a->bits), *bb = guarded_ptr(&b->bits);
    const unsigned char *ca = guarded_ptr(&a->classes), *cb = guarded_ptr(&b->classes);
    *first_bad = (size_t)-1;
    for (size_t j = 0; j < count; j++) {
        int d = ((ba[j / 8] ^ bb[j / 8]) >> (j % 8)) & 1;
        if (with_classes)
            d |= ca[j] != cb[j];
        if (d) {
            if (!bad)
                *first_bad = j;
            bad++;
        }
    }
    /* Anything else (status, count, index list, bits past count, bytes
     * that should not have been written) counts as one more mismatch. */
    if (a->st != b->st || a->visible != b->visible ||
        memcmp(a->bits.mem, b->bits.mem, a->bits.len + 2 * GUARD) ||
        memcmp(a->classes.mem, b->classes.mem, a->classes.len + 2 * GUARD) ||
        memcmp(a->idx.mem, b->idx.mem, a->idx.len + 2 * GUARD)) {
        if (!bad)
            bad = 1;
    }
    return bad;
}

/* The kernels themselves, chunk by chunk, every flag combination: the
 * words past n and the inside words without SATC_K_CLASSIFY included. */
static uint64_t compare_kernels(int p, const satc_frustum *f, const batch *b, size_t first,
                                size_t count, unsigned flags, size_t *first_bad, int *canary)
{
    const satc_kernels *kr = &satc_kernels_ref, *kp = path_kernels(p);
    int ortho = satc_kind_col(f);
    satc_kernel_fn fr = kr->fn[b->desc.form][ortho];
    satc_kernel_fn fp = kp->fn[b->desc.form][ortho];
    satc_batch bb = b->desc;
    uint64_t bad = 0;
    *first_bad = (size_t)-1;
    for (size_t done = 0; done < count || (count == 0 && done == 0); done += SATC_CHUNK) {
        size_t n = count - done < SATC_CHUNK ? count - done : SATC_CHUNK;
        guarded w[2][2];
        for (int r = 0; r < 2; r++) {
            for (int k = 0; k < 2; k++)
                guarded_init(&w[r][k], SATC_CHUNK_WORDS * sizeof(uint64_t), 0xEE);
            fpenv e = env_enter();
            unsigned fl = flags | (done + n >= count ? SATC_K_LAST : 0u);
            (r ? fp : fr)(f, &bb, first + done, n, fl, guarded_ptr(&w[r][0]),
                          guarded_ptr(&w[r][1]));
            env_leave(e);
            *canary |= !guarded_intact(&w[r][0]) || !guarded_intact(&w[r][1]);
        }
        const uint64_t *v0 = guarded_ptr(&w[0][0]), *v1 = guarded_ptr(&w[1][0]);
        const uint64_t *i0 = guarded_ptr(&w[0][1]), *i1 = guarded_ptr(&w[1][1]);
        for (size_t j = 0; j < SATC_CHUNK; j++) {
            uint64_t d = ((v0[j / 64] ^ v1[j / 64]) | (i0[j / 64] ^ i1[j / 64])) >> (j % 64) & 1;
            if (d) {
                if (!bad)
                    *first_bad = done + j;
                bad++;
            }
        }
        for (int r = 0; r < 2; r++)
            for (int k = 0; k < 2; k++)
                guarded_free(&w[r][k]);
        if (count == 0)
            break;
    }
    return bad;
}

/* What one comparison is about, for the reports. */
typedef struct cmp_ctx {
    const char *what;
    const satc_frustum *f;
    const batch *b;
    size_t first, count;
    int p, mode;
} cmp_ctx;

static void report_at(const cmp_ctx *x, size_t at, const char *msg)
{
    report(x->p, x->mode, x->what, x->f, &x->b->view, at < x->count ? x->first + at : (size_t)-1,
           msg);
}

/* The two API calls (without and with classes) of one path against the
 * reference's; returns the boxes that differ. */
static uint64_t check_api(const cmp_ctx *x, const outs ref[2], stats *s)
{
    uint64_t worst = 0;
    for (int c = 0; c < 2; c++) {
        outs o;
        size_t at;
        char msg[160];
        outs_init(&o, x->count);
        run_api(path_isa[x->p], x->f, x->b, x->first, x->count, x->mode, c, &o);
        if (!outs_intact(&o)) {
            s->canary++;
            report_at(x, (size_t)-1, "output canary overwritten");
        }
        uint64_t d = diff_outs(&ref[c], &o, x->count, c, &at);
        if (d && at != (size_t)-1) {
            /* Classes when asked for, else the visible bits. */
            const unsigned char *rv = guarded_ptr(c ? &ref[c].classes : &ref[c].bits);
            const unsigned char *ov = guarded_ptr(c ? &o.classes : &o.bits);
            unsigned rw = c ? rv[at] : (unsigned)(rv[at / 8] >> (at % 8) & 1);
            unsigned ow = c ? ov[at] : (unsigned)(ov[at / 8] >> (at % 8) & 1);
            snprintf(msg, sizeof msg, "%llu boxes differ, first at %zu: %s %u (scalar) vs %u",
                     (unsigned long long)d, x->first + at, c ? "class" : "visible", rw, ow);
            report_at(x, at, msg);
        } else if (d) {
            snprintf(msg, sizeof msg, "status/count/indices differ: %d/%zu vs %d/%zu",
                     (int)ref[c].st, ref[c].visible, (int)o.st, o.visible);
            report_at(x, (size_t)-1, msg);
        }
        worst = d > worst ? d : worst;
        outs_free(&o);
    }
    return worst;
}

/* The kernels of one path against the scalar ones, with and without
 * classification; returns the boxes that differ. */
static uint64_t check_kernels(const cmp_ctx *x, stats *s)
{
    uint64_t worst = 0;
    for (unsigned cl = 0; cl < 2; cl++) {
        unsigned flags = (x->mode ? SATC_K_EXACT : 0u) | (cl ? SATC_K_CLASSIFY : 0u);
        size_t at;
        int canary = 0;
        uint64_t d = compare_kernels(x->p, x->f, x->b, x->first, x->count, flags, &at, &canary);
        if (canary) {
            s->canary++;
            report_at(x, (size_t)-1, "kernel word canary overwritten");
        }
        if (d) {
            char msg[96];
            snprintf(msg, sizeof msg, "kernel words differ (flags %u) at %zu", flags, at);
            report_at(x, at, msg);
        }
        worst = d > worst ? d : worst;
    }
    return worst;
}

/*
 * Boxes [first, first + count) of b against f: every runnable path, both
 * modes, with and without classes; with kernels set, the kernels too.
 */
void compare_one(const char *what, const satc_frustum *f, const batch *b, size_t first,
                        size_t count, int kernels)
{
    g_form_name = b->form;
    for (int mode = 0; mode < 2; mode++) {
        outs ref[2];
        satc_scalar_use_ref(1);
        for (int c = 0; c < 2; c++) {
            outs_init(&ref[c], count);
            run_api(SATC_ISA_SCALAR, f, b, first, count, mode, c, &ref[c]);
        }
        satc_scalar_use_ref(0);
        for (int p = 0; p < NPATHS; p++) {
            if (!path_on(p))
                continue;
            cmp_ctx x = {what, f, b, first, count, p, mode};
            stats *s = &g_group[p][mode];
            uint64_t bad = check_api(&x, ref, s);
            if (kernels) {
                uint64_t kb = check_kernels(&x, s);
                bad = kb > bad ? kb : bad;
            }
            if (b->desc.form == SATC_FORM_TRS) { /* the depth pass and sorts */
                const char *dw;
                uint64_t db = ca_depth_compare(path_kernels(p), f, &b->desc, first, count, mode, &dw);
                if (db)
                    report(p, mode, what, f, NULL, (size_t)-1, dw);
                bad = db > bad ? db : bad;
            }
            s->boxes += count;
            s->mismatches += bad;
        }
        for (int c = 0; c < 2; c++)
            outs_free(&ref[c]);
    }
}

/* ------------------------------------------------------------------ */
/* Every other form, built from a batch's Eberly fields                 */
/* ------------------------------------------------------------------ */

typedef struct group {
    const char *name;
    void (*fn)(scn_rng *r);
} group;

static const group groups[] = {
    {"city", group_city},         {"uniform", group_uniform}, {"boundary", group_boundary},
    {"cameras", group_cameras},   {"special", group_special}, {"bits", group_bits},
    {"touching", group_touching}, {"apex", group_apex},       {"undecided", group_undecided},
    {"overflow", group_overflow}, {"flips", group_flips},       {"counts", group_counts},
    {"forms_special", group_forms_special},   {"forms_bits", group_forms_bits},
    {"forms_touching", group_forms_touching}, {"forms_overflow", group_forms_overflow},
    {"forms_flips", group_forms_flips},       {"forms_tails", group_forms_tails},
    {"planes", group_planes},                 {"forms_planes", group_forms_planes},
    {"early_out", group_early_out},           {"early_box", group_early_box},
    {"occlusion", group_occlusion},           {"reduce", group_reduce},
};

static uint64_t name_hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

/* 1 if a denormal product flushes to zero in the current pass's environment. */
static int ftz_effective(void)
{
    volatile float tiny = 1e-40f, one = 1.0f, p;
    fpenv e = env_enter();
    p = tiny * one; /* volatile on both sides: stays between the switches */
    env_leave(e);
    return p == 0.0f;
}

static int run_tests(uint64_t seed, const char *only)
{
    printf("checkasm: seed %llu (replay: checkasm --seed %llu)\n", (unsigned long long)seed,
           (unsigned long long)seed);
    printf("checkasm: paths:");
    for (int p = 0; p < NPATHS; p++) {
        if (path_on(p))
            printf(" %s (%s)", path_name(p),
                   satc_isa_native() & (unsigned)path_isa[p] && p != PATH_EMU ? "native" : "emulated");
    }
    printf("\n");
    if (only) {
        size_t gi = 0;
        while (gi < sizeof groups / sizeof groups[0] && strcmp(only, groups[gi].name))
            gi++;
        if (gi == sizeof groups / sizeof groups[0]) { /* a misspelling must not pass */
            fprintf(stderr, "checkasm: unknown group '%s'; groups:", only);
            for (gi = 0; gi < sizeof groups / sizeof groups[0]; gi++)
                fprintf(stderr, " %s", groups[gi].name);
            fprintf(stderr, "\n");
            return 2;
        }
    }
    int passes = HAVE_FTZ ? 2 : 1;
    if (!HAVE_FTZ)
        printf("checkasm: no flush-to-zero control on this machine: default environment only\n");
    for (g_ftz = 0; g_ftz < passes; g_ftz++) {
        if (g_ftz) {
            /* The second pass is only worth its name if denormals do flush. */
            int ok = ftz_effective();
            printf("checkasm: flush-to-zero pass: %s\n",
                   ok ? "denormals flush" : "FLUSH NOT EFFECTIVE");
            ok ? g_passed++ : g_failed++;
        }
        for (size_t gi = 0; gi < sizeof groups / sizeof groups[0]; gi++) {
            if (only && strcmp(only, groups[gi].name))
                continue;
            scn_rng r;
            scn_seed(&r, seed ^ name_hash(groups[gi].name));
            memset(g_group, 0, sizeof g_group);
            g_group_name = groups[gi].name;
            groups[gi].fn(&r);
            for (int p = 0; p < NPATHS; p++) {
                for (int m = 0; m < 2; m++) {
                    stats *s = &g_group[p][m];
                    if (!path_on(p))
                        continue;
                    int ok = s->mismatches == 0 && s->canary == 0;
                    ok ? g_passed++ : g_failed++;
                    g_total[p][m].boxes += s->boxes;
                    g_total[p][m].mismatches += s->mismatches;
                    g_total[p][m].canary += s->canary;
                    if (g_verbose || !ok)
                        printf("  %-4s %-10s %-6s %-12s %9llu boxes %6llu mismatches%s\n",
                               ok ? "ok" : "FAIL", groups[gi].name, path_name(p),
                               mode_name[m], (unsigned long long)s->boxes,
                               (unsigned long long)s->mismatches, s->canary ? " CANARY" : "");
                }
            }
        }
    }
    for (int p = 0; p < NPATHS; p++) {
        for (int m = 0; m < 2; m++) {
            if (path_on(p))
                printf("%-6s %-12s %10llu boxes compared, %llu mismatches, %llu canary hits\n",
                       path_name(p), mode_name[m],
                       (unsigned long long)g_total[p][m].boxes,
                       (unsigned long long)g_total[p][m].mismatches,
                       (unsigned long long)g_total[p][m].canary);
        }
    }
    printf("%d passed, %d failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}

/* ------------------------------------------------------------------ */
/* --bench                                                              */
/* ------------------------------------------------------------------ */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median ns/box of `reps` timings, each of enough calls to last ~2 ms. */
static double time_path(satc_isa isa, const scn_scene *s, int mode, uint8_t *bits, int reps)
{
    satc_results res;
    memset(&res, 0, sizeof res);
    res.bitmask = bits;
    double t0 = now_s();
    satc_cull_batch_isa(isa, &s->frustum, &s->boxes, 0, s->count, (satc_mode)mode, &res);
    double once = now_s() - t0;
    int calls = once > 2e-3 ? 1 : (int)(2e-3 / (once > 1e-7 ? once : 1e-7)) + 1;
    double t[64];
    if (reps > 64)
        reps = 64;
    for (int k = 0; k < reps; k++) {
        t0 = now_s();
        for (int c = 0; c < calls; c++)
            satc_cull_batch_isa(isa, &s->frustum, &s->boxes, 0, s->count, (satc_mode)mode, &res);
        t[k] = (now_s() - t0) / calls / (double)s->count * 1e9;
    }
    qsort(t, (size_t)reps, sizeof t[0], cmp_double);
    return t[reps / 2];
}

static int run_bench(void)
{
    static const scn_kind kinds[] = {SCN_CITY, SCN_BOUNDARY};
    static const size_t sizes[] = {4096, 1u << 20};
    printf("checkasm --bench: median ns/box, bitmask output (speed-up over the reference)\n");
    for (size_t ki = 0; ki < 2; ki++) {
        for (size_t si = 0; si < 2; si++) {
            scn_scene s;
            make_scene(&s, kinds[ki], sizes[si], 1234, NULL);
            uint8_t *bits = xmalloc((s.count + 7) / 8);
            int reps = si ? 9 : 31;
            for (int mode = 0; mode < 2; mode++) {
                satc_scalar_use_ref(1);
                double ref = time_path(SATC_ISA_SCALAR, &s, mode, bits, reps);
                satc_scalar_use_ref(0);
                printf("%-8s %8zu boxes %-12s ref    %8.3f ns/box\n", scn_name(kinds[ki]), s.count,
                       mode_name[mode], ref);
                for (int p = 0; p < NPATHS; p++) {
                    if (!path_on(p))
                        continue;
                    double t = time_path(path_isa[p], &s, mode, bits, reps);
                    printf("%-8s %8zu boxes %-12s %-6s %8.3f ns/box %6.2fx%s\n",
                           scn_name(kinds[ki]), s.count, mode_name[mode],
                           path_name(p), t, ref / t,
                           satc_isa_native() & (unsigned)path_isa[p] ? "" : " (emulated)");
                }
            }
            free(bits);
            scn_free(&s);
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    uint64_t seed = 0x5a7c0001;
    const char *only = NULL;
    int bench = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--group") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--bench"))
            bench = 1;
        else if (!strcmp(argv[i], "--verbose") || !strcmp(argv[i], "-v"))
            g_verbose = 1;
        else {
            fprintf(stderr, "usage: %s [--seed N] [--group NAME] [--verbose] | --bench\n", argv[0]);
            return 2;
        }
    }
    g_runnable = satc_isa_runnable();
    const char *quick = getenv("SATC_TEST_QUICK");
    if (quick && *quick && *quick != '0')
        g_forms_max = 500, g_div = 4;
    if (quick && !strcmp(quick, "2")) /* emulated CPUs: the same groups, smaller batches */
        g_forms_max = 160, g_div = 16;
    return bench ? run_bench() : run_tests(seed, only);
}
