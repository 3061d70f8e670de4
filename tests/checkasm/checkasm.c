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
#define HAVE_FTZ 1
typedef unsigned fpenv;
static fpenv env_enter(void)
{
    fpenv old = _mm_getcsr();
    if (g_ftz)
        _mm_setcsr(old | 0x8040u); /* FTZ (bit 15) and DAZ (bit 6) */
    return old;
}
static void env_leave(fpenv old) { _mm_setcsr(old); }
#elif defined(__aarch64__)
#define HAVE_FTZ 1
typedef uint64_t fpenv;
static fpenv env_enter(void)
{
    uint64_t old;
    __asm__ volatile("mrs %0, fpcr" : "=r"(old));
    if (g_ftz) {
        uint64_t v = old | (1ull << 24); /* FPCR.FZ */
        __asm__ volatile("msr fpcr, %0" : : "r"(v));
    }
    return old;
}
static void env_leave(fpenv old) { __asm__ volatile("msr fpcr, %0" : : "r"(old)); }
#else
#define HAVE_FTZ 0
typedef int fpenv;
static fpenv env_enter(void) { return 0; }
static void env_leave(fpenv old) { (void)old; }
#endif

/* ------------------------------------------------------------------ */
/* Paths, statistics                                                    */
/* ------------------------------------------------------------------ */

#define NPATHS 6
/* PATH_EMU is AVX-512's emulated twin (x86), which dispatch uses only on
 * CPUs without AVX-512: compared here at kernel level where it would not
 * otherwise run (its API calls run the native path). PATH_SCALAR is the
 * scalar path (satc_kernels_scalar), compared with the reference
 * (satc_kernels_ref, which SATC_ISA_SCALAR runs under satc_scalar_use_ref). */
#define PATH_EMU 4
#define PATH_SCALAR 5
static const satc_isa path_isa[NPATHS] = {SATC_ISA_SSE41, SATC_ISA_AVX2, SATC_ISA_NEON, SATC_ISA_AVX512,
                                          SATC_ISA_AVX512, SATC_ISA_SCALAR};
static const char *const mode_name[2] = {"conservative", "exact"};

typedef struct stats {
    uint64_t boxes, mismatches, canary;
} stats;

static unsigned g_runnable;
static stats g_total[NPATHS][2], g_group[NPATHS][2];
static int g_passed, g_failed, g_verbose, g_reports;
static const char *g_group_name;
static const char *g_form_name = "obb/soa"; /* the form of the case being compared */

static int path_on(int p)
{
    if (p == PATH_EMU)
        return SATC_HAVE_AVX512_EMU && (satc_isa_native() & SATC_ISA_AVX512);
    if (p == PATH_SCALAR)
        return 1;
    return (g_runnable & (unsigned)path_isa[p]) != 0;
}

static const char *path_name(int p) { return p == PATH_EMU ? "avx512-emu" : satc_isa_name(path_isa[p]); }

static const satc_kernels *path_kernels(int p)
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

enum { NF = 15 };

typedef struct batch {
    float *mem[NF];
    float *a[NF]; /* 0-2 center, 3 + 3j + c axis[j][c], 12-14 extent */
    size_t n;
    satc_boxes view;
    satc_batch desc;  /* what is culled: the Eberly arrays, or a form built from them */
    const char *form; /* its name, for the reports */
} batch;

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "checkasm: out of memory\n");
        exit(2);
    }
    return p;
}

static void batch_init(batch *b, size_t n, unsigned mis)
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

static void batch_free(batch *b)
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

static float *field_ptr_w(const satc_box_arrays *a, int q)
{
    if (q < 3)
        return a->center[q];
    if (q < 12)
        return a->axis[(q - 3) / 3][(q - 3) % 3];
    return a->extent[q - 12];
}

/* Copies boxes [from, from + n) of src to [at, at + n) of b. */
static void batch_copy(batch *b, size_t at, const satc_boxes *src, size_t from, size_t n)
{
    for (int q = 0; q < NF; q++)
        memcpy(b->a[q] + at, field_ptr(src, q) + from, n * sizeof(float));
}

static void batch_from(batch *b, const satc_boxes *src, size_t n, unsigned mis)
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
static void compare_one(const char *what, const satc_frustum *f, const batch *b, size_t first,
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

/* In the forms groups (g_forms), every comparison runs on each form and
 * layout below instead, built from the same fields: odd strides and
 * offsets, matrices of every layout (axes scaled, center as translation,
 * bottom row NaN: never read), local boxes shared, per instance or by
 * mesh id (some ids past the table), spheres of radius extent 0. Special
 * values in the fields reach every form. Whole batches are cut to
 * g_forms_max boxes to bound the time. */
static int g_forms;
static size_t g_forms_max = 6000; /* 500 under SATC_TEST_QUICK */

/* SATC_TEST_QUICK (emulators, sanitizers): the random batches a quarter
 * of their size and half the rounds of the early-out groups; every
 * camera kind, form, count, tail and special pattern still runs. */
static size_t g_div = 1;
static size_t sized(size_t n) { return n / g_div; }
static int rounds(int n) { return g_div > 1 ? n / 2 : n; }
enum { NFORMV = 15, NTABLE = 7 };
static const char *const formv_name[NFORMV] = {
    "obb/rec64",         "aabb/soa",          "aabb/rec28",      "minmax/rec24",
    "half/rec48",        "inst/cm44+shared",  "inst/rows34+per", "inst/rows44+mesh",
    "inst/cm43+mesh",    "sph/soa",           "sph/xyzr16",      "obb/soa",
    "trs/splat32",       "trs/soa+log",      "aabb/rec24"};

typedef struct derived {
    float *rec;     /* records of the layout, n of them */
    uint32_t *mesh; /* ids, when the layout has them */
    float zero[3], lc[3], lh[3];
    float table[NTABLE][6];
    satc_local_boxes lb;
} derived;

static float *put_rec(float *rec, size_t stride_floats, size_t i) { return rec + i * stride_floats; }

/* The form v of batch b as a batch of its own in *out (storage in *d). */
static void derive(const batch *b, int v, derived *d, batch *out)
{
    static const size_t fl[NFORMV] = {16, 0, 7, 6, 12, 16, 12, 16, 12, 0, 4, 0, 8, 4, 6};
    size_t n = b->n ? b->n : 1;
    *out = *b;
    out->form = formv_name[v];
    memset(d, 0, sizeof *d);
    d->rec = fl[v] ? xmalloc(n * fl[v] * sizeof(float)) : NULL;
    d->lc[0] = 0.25f, d->lc[2] = -0.5f, d->lh[0] = 1, d->lh[1] = 0.5f, d->lh[2] = 2;
    for (int t = 0; t < NTABLE; t++)
        for (int q = 0; q < 6; q++)
            d->table[t][q] = q < 3 ? 0.125f * (float)(t - q) : 0.25f + 0.5f * (float)((t + q) % 4);
    static const float scale[3] = {1.0f, 1.5f, -0.75f}; /* non-uniform, negative */
    for (size_t i = 0; i < b->n; i++) {
        float c[3], A[3][3], e[3];
        for (int k = 0; k < 3; k++) {
            c[k] = b->a[k][i], e[k] = b->a[12 + k][i];
            for (int j = 0; j < 3; j++)
                A[j][k] = b->a[3 + 3 * j + k][i];
        }
        float *r = d->rec ? put_rec(d->rec, fl[v], i) : NULL;
        switch (v) {
        case 0: /* pad, center, axes, extents */
            r[0] = NAN;
            for (int k = 0; k < 3; k++) {
                r[1 + k] = c[k], r[13 + k] = e[k];
                for (int j = 0; j < 3; j++)
                    r[4 + 3 * j + k] = A[j][k];
            }
            break;
        case 2: case 3: case 14:
            for (int k = 0; k < 3; k++) {
                r[k] = v != 3 ? c[k] : c[k] - e[k];
                r[3 + k] = v != 3 ? e[k] : c[k] + e[k];
            }
            if (v == 2)
                r[6] = NAN;
            break;
        case 4:
            for (int k = 0; k < 3; k++) {
                r[k] = c[k];
                for (int j = 0; j < 3; j++)
                    r[3 + 3 * j + k] = e[j] * A[j][k];
            }
            break;
        case 5: case 6: case 7: case 8:
            for (int rr = 0; rr < 3; rr++) {
                for (int cc = 0; cc < 4; cc++) {
                    float m = cc < 3 ? A[cc][rr] * scale[cc] : c[rr];
                    size_t at = v == 5 ? (size_t)(4 * cc + rr) : v == 8 ? (size_t)(3 * cc + rr)
                                                                        : (size_t)(4 * rr + cc);
                    r[at] = m;
                }
            }
            if (v == 5)
                r[3] = r[7] = r[11] = r[15] = NAN;
            else if (v == 7)
                r[12] = r[13] = r[14] = r[15] = NAN;
            break;
        case 10:
            for (int k = 0; k < 3; k++)
                r[k] = c[k];
            r[3] = e[0];
            break;
        case 12: { /* .splat: position, scale, rgba, rotation bytes from the axes */
            unsigned char qb[4];
            for (int k = 0; k < 4; k++) {
                float a = A[1 + k / 3][k % 3];
                uint32_t u;
                memcpy(&u, &a, 4);
                qb[k] = fabsf(a) <= 1.0f ? (unsigned char)(int)(a * 127.0f + 128.0f)
                                         : (unsigned char)(u >> 24);
            }
            for (int k = 0; k < 3; k++)
                r[k] = c[k], r[3 + k] = e[k];
            r[6] = NAN;
            memcpy(&r[7], qb, 4);
            break;
        }
        case 13: /* float quaternions (x, y, z, w) from the axes */
            r[0] = A[0][0], r[1] = A[0][1], r[2] = A[0][2], r[3] = A[1][1];
            break;
        default: break;
        }
    }
    if (v == 7 || v == 8) {
        d->mesh = xmalloc(n * sizeof(uint32_t));
        for (size_t i = 0; i < n; i++) /* one in 8 past the table */
            d->mesh[i] = (uint32_t)((i * 5 + (size_t)v) % (NTABLE + 1));
    }
    satc_batch *o = &out->desc;
    memset(o, 0, sizeof *o);
    const float *const *a = (const float *const *)b->a;
    satc_vec3s zero = {d->zero, d->zero + 1, d->zero + 2, 0};
    switch (v) {
    case 0:
        o->form = SATC_FORM_OBB;
        o->obb.center = SATC_VEC3S_AOS(d->rec + 1, 64), o->obb.extent = SATC_VEC3S_AOS(d->rec + 13, 64);
        for (int j = 0; j < 3; j++)
            o->obb.axis[j] = SATC_VEC3S_AOS(d->rec + 4 + 3 * j, 64);
        break;
    case 1:
        o->form = SATC_FORM_AABB;
        o->aabb.center = SATC_VEC3S_SOA(a[0], a[1], a[2]);
        o->aabb.half = SATC_VEC3S_SOA(a[12], a[13], a[14]);
        break;
    case 2:
        o->form = SATC_FORM_AABB;
        o->aabb.center = SATC_VEC3S_AOS(d->rec, 28), o->aabb.half = SATC_VEC3S_AOS(d->rec + 3, 28);
        break;
    case 14: /* center and half in one 24 B record */
        o->form = SATC_FORM_AABB;
        o->aabb.center = SATC_VEC3S_AOS(d->rec, 24), o->aabb.half = SATC_VEC3S_AOS(d->rec + 3, 24);
        break;
    case 3:
        o->form = SATC_FORM_MINMAX;
        o->minmax.min = SATC_VEC3S_AOS(d->rec, 24), o->minmax.max = SATC_VEC3S_AOS(d->rec + 3, 24);
        break;
    case 4:
        o->form = SATC_FORM_HALF_AXES;
        o->half_axes.center = SATC_VEC3S_AOS(d->rec, 48);
        for (int j = 0; j < 3; j++)
            o->half_axes.axis[j] = SATC_VEC3S_AOS(d->rec + 3 + 3 * j, 48);
        break;
    case 5: case 6: case 7: case 8: {
        static const satc_affine lay[4] = {SATC_AFFINE_4X4_COLUMN_MAJOR, SATC_AFFINE_ROWS, SATC_AFFINE_ROWS, SATC_AFFINE_4X3_COLUMN_MAJOR};
        satc_instances *in = &o->instances;
        o->form = SATC_FORM_INSTANCES;
        in->matrix = d->rec, in->stride = fl[v] * sizeof(float), in->layout = lay[v - 5];
        if (v == 5) {
            in->local_center = (satc_vec3s){d->lc, d->lc + 1, d->lc + 2, 0};
            in->local_half = (satc_vec3s){d->lh, d->lh + 1, d->lh + 2, 0};
        } else if (v == 6) {
            in->local_center = zero;
            in->local_half = SATC_VEC3S_SOA(a[12], a[13], a[14]);
        } else {
            in->local_center = SATC_VEC3S_AOS(&d->table[0][0], sizeof d->table[0]);
            in->local_half = SATC_VEC3S_AOS(&d->table[0][3], sizeof d->table[0]);
            in->mesh = d->mesh, in->mesh_stride = 4, in->mesh_count = NTABLE;
        }
        break;
    }
    case 9:
        o->form = SATC_FORM_SPHERES;
        o->spheres.center = SATC_VEC3S_SOA(a[0], a[1], a[2]);
        o->spheres.radius = (satc_floats){a[12], sizeof(float)};
        break;
    case 10:
        o->form = SATC_FORM_SPHERES;
        o->spheres.center = SATC_VEC3S_AOS(d->rec, 16);
        o->spheres.radius = (satc_floats){d->rec + 3, 16};
        break;
    case 12:
        o->form = SATC_FORM_TRS;
        o->trs.position = SATC_VEC3S_AOS(d->rec, 32), o->trs.scale = SATC_VEC3S_AOS(d->rec + 3, 32);
        o->trs.rotation = d->rec + 7, o->trs.rotation_stride = 32;
        o->trs.format = SATC_QUAT_U8 | SATC_QUAT_WXYZ;
        break;
    case 13: /* log scales from the extents' fields: special values reach exp */
        o->form = SATC_FORM_TRS;
        o->trs.position = SATC_VEC3S_SOA(a[0], a[1], a[2]);
        o->trs.scale = SATC_VEC3S_SOA(a[12], a[13], a[14]);
        o->trs.format = SATC_TRS_LOG_SCALE;
        o->trs.rotation = d->rec, o->trs.rotation_stride = 16;
        d->lb.center = (satc_vec3s){d->lc, d->lc + 1, d->lc + 2, 0};
        d->lb.half = (satc_vec3s){d->lh, d->lh + 1, d->lh + 2, 0};
        o->trs.local = &d->lb;
        break;
    default:
        *o = b->desc; /* the Eberly arrays themselves */
        break;
    }
}

static void derived_free(derived *d)
{
    free(d->rec);
    free(d->mesh);
}

/* compare_one, or in the forms groups compare_one on every form. */
static void compare_case(const char *what, const satc_frustum *f, const batch *b, size_t first,
                         size_t count, int kernels)
{
    if (!g_forms) {
        compare_one(what, f, b, first, count, kernels);
        return;
    }
    if (count > g_forms_max)
        count = g_forms_max;
    for (int v = 0; v < NFORMV; v++) {
        derived d;
        batch fb;
        derive(b, v, &d, &fb);
        compare_one(what, f, &fb, first, count, kernels);
        derived_free(&d);
    }
}

/* ------------------------------------------------------------------ */
/* Inputs                                                               */
/* ------------------------------------------------------------------ */

static uint32_t rnd32(scn_rng *r) { return (uint32_t)(scn_next(r) >> 32); }
static size_t rnd_below(scn_rng *r, size_t n) { return n ? (size_t)(scn_next(r) % n) : 0; }

static float bits_to_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Values where paths could part: non-finite, signed zeros, denormals,
 * extremes, and magnitudes around SATC_MAX_MAGNITUDE. */
static float special_value(scn_rng *r)
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
static void persp_plane_point(const satc_frustum *f, double far, int p, scn_rng *r, double m[3],
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

static void random_cameras(scn_rng *r, satc_camera cam[4], satc_frustum fr[4])
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
static void compare_subranges(const satc_frustum *f, const batch *b, scn_rng *r, int k)
{
    for (int t = 0; t < k; t++) {
        size_t first = rnd_below(r, b->n);
        size_t count = rnd_below(r, (b->n - first < 3000 ? b->n - first : 3000) + 1);
        compare_case("sub-range", f, b, first, count, t < 2);
    }
}

/* Boxes [from, from + count) of s compared at first offset `first`, the
 * arrays misaligned by mis floats. */
static void compare_slice(const char *what, const satc_frustum *f, const scn_scene *s, size_t from,
                          size_t first, size_t count, unsigned mis)
{
    batch b;
    batch_init(&b, first + count, mis);
    batch_copy(&b, 0, &s->boxes, from, first + count);
    compare_case(what, f, &b, first, count, 1);
    batch_free(&b);
}

/* A special value in one random field of every step-th box of s. */
static void poke_every(scn_rng *r, scn_scene *s, size_t step)
{
    for (size_t i = 0; i < s->count; i += step) {
        int q = (int)rnd_below(r, NF);
        field_ptr_w(&s->arrays, q)[i] = special_value(r);
    }
}

/* Camera c moved up to 3e6 from the world's origin on each axis, built
 * into *f; 0 when the build refuses it. */
static int moved_far(scn_rng *r, satc_camera c, satc_frustum *f)
{
    for (int q = 0; q < 3; q++)
        c.origin[q] += (float)scn_uniform(r, -3e6, 3e6);
    return satc_frustum_from_camera(f, &c) == SATC_OK;
}

static void make_scene(scn_scene *s, scn_kind kind, size_t n, uint64_t seed, const double *off)
{
    if (scn_make(s, kind, n, seed, off)) {
        fprintf(stderr, "checkasm: scn_make failed\n");
        exit(2);
    }
}

static void make_boundary(scn_scene *s, const satc_camera *cam, size_t n, uint64_t seed)
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

static void group_city(scn_rng *r) { group_scene(r, SCN_CITY); }
static void group_uniform(scn_rng *r) { group_scene(r, SCN_UNIFORM); }
static void group_boundary(scn_rng *r) { group_scene(r, SCN_BOUNDARY); }

/* Boundary boxes around random cameras of every kind (symmetric,
 * asymmetric, infinite far, orthographic). */
static void group_cameras(scn_rng *r)
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
static void group_special(scn_rng *r)
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
static void group_bits(scn_rng *r)
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
static void exact_camera(scn_rng *r, int ortho, int kind, satc_camera *c)
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
static void group_touching(scn_rng *r)
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
static void group_apex(scn_rng *r)
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
static void group_undecided(scn_rng *r)
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
static void group_counts(scn_rng *r)
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

/*
 * Finite boxes that are not "bad" yet overflow inside the test: an axis
 * A_j = (0, h, h) with h near FLT_MAX is orthogonal to L = (1, 0, 0), so
 * alpha_j = 0 and the box stays cullable, while gamma_j = U.A_j or D.A_j
 * overflows to Inf and a zero extent turns e_j |gamma_j| into NaN. Where
 * min/max or compares treat NaN differently, paths part here.
 */
static void group_overflow(scn_rng *r)
{
    static const float cs[3][2] = {{0.6f, 0.8f}, {0.8f, -0.6f}, {-0.28f, 0.96f}};
    for (int k = 0; k < 12; k++) {
        float c = cs[k % 3][0], sn = cs[k % 3][1];
        satc_camera cam;
        memset(&cam, 0, sizeof cam);
        const float L[3] = {1, 0, 0}, U[3] = {0, c, -sn}, D[3] = {0, sn, c};
        for (int q = 0; q < 3; q++) {
            cam.origin[q] = (float)scn_uniform(r, -100, 100);
            cam.left[q] = L[q], cam.up[q] = U[q], cam.dir[q] = D[q];
        }
        cam.orthographic = k % 4 == 3;
        cam.n = cam.orthographic ? -5.0f : 0.5f;
        cam.f = k % 4 == 2 ? INFINITY : 200.0f;
        cam.l0 = -0.6f, cam.l1 = 0.6f, cam.u0 = -0.4f, cam.u1 = 0.4f;
        if (k == 1) /* a bound at 0 makes slope * Inf a NaN */
            cam.l0 = 0.0f, cam.u1 = 0.1f;
        else if (k == 5)
            cam.l1 = 0.0f, cam.u0 = 0.0f;
        if (cam.orthographic)
            cam.l0 *= 100, cam.l1 *= 100, cam.u0 *= 100, cam.u1 *= 100;
        satc_frustum f;
        if (satc_frustum_from_camera(&f, &cam) != SATC_OK) {
            fprintf(stderr, "checkasm: overflow camera rejected\n");
            exit(2);
        }
        scn_scene s;
        make_boundary(&s, &cam, sized(10000), scn_next(r));
        batch b;
        batch_from(&b, &s.boxes, s.count, 3);
        for (size_t i = 0; i < b.n; i++) {
            if (scn_next(r) % 4 == 0)
                continue;
            int j = (int)rnd_below(r, 3);
            static const float hs[4] = {3.0e38f, 2.0e38f, 1.0e38f, 3.4e38f};
            float h = hs[rnd_below(r, 4)];
            b.a[3 + 3 * j][i] = 0.0f;
            b.a[4 + 3 * j][i] = scn_next(r) & 1 ? h : -h;
            b.a[5 + 3 * j][i] = scn_next(r) & 1 ? h : -h;
            uint64_t u = scn_next(r) % 4;
            b.a[12 + j][i] = u == 0 ? 0.0f : u == 1 ? -0.0f : u == 2 ? 1.0f : b.a[12 + j][i];
        }
        compare_case(cam.orthographic ? "ortho" : "perspective", &f, &b, 0, b.n, 0);
        batch_free(&b);
        scn_free(&s);
    }
}

/*
 * The scalar path's early out (kernels/early_out.h) culls an OBB before
 * its load when bounds from above of the radius and S prove the plane
 * tier's "outside". Its bound is tightest for a box whose one non-zero
 * extent runs along the world axis where the plane's |normal| is largest:
 * such boxes are put outside one plane of random cameras (a quarter far
 * from the world's origin) within 2^-8 .. 2^-28 (relative) of the plane
 * tier's boundary (radius + tolerance), either side, so the early out's
 * slack and the reference's boundary are both crossed; other extents are
 * mostly 0, axes of any length.
 */
static void group_early_out(scn_rng *r)
{
    for (int round = 0; round < rounds(8); round++) {
        satc_camera cam[4];
        satc_frustum fr[4];
        random_cameras(r, cam, fr);
        /* The three perspective kinds, then an axis-aligned camera (where
         * the bound of |dx| + |dy| + |dz| is tight). */
        exact_camera(r, 0, round % 3, &cam[3]);
        if (satc_frustum_from_camera(&fr[3], &cam[3]) != SATC_OK)
            continue;
        for (int k = 0; k < 4; k++) {
            if (round % 4 == 3 && !moved_far(r, cam[k], &fr[k]))
                continue;
            const satc_frustum *f = &fr[k];
            const size_t n = sized(3000);
            batch b;
            batch_init(&b, n, (unsigned)round % 3);
            double far = isinf(f->f) ? 1e3 * f->n : (double)f->f;
            for (size_t i = 0; i < n; i++) {
                int p = (int)rnd_below(r, 6); /* near, far, x1, x0, y1, y0 */
                /* Frame-coordinate normal m of the plane (outward) and a
                 * point on it, at a random depth. */
                double m[3] = {0, 0, 0}, q[3];
                persp_plane_point(f, far, p, r, m, q);
                /* World normal w = m in world coordinates; the axis c*
                 * where |w_c| is largest. */
                double w[3], wl = 0;
                int cs = 0;
                for (int c2 = 0; c2 < 3; c2++) {
                    w[c2] = m[0] * f->frame[0][c2] + m[1] * f->frame[1][c2] + m[2] * f->frame[2][c2];
                    if (fabs(w[c2]) > fabs(w[cs]))
                        cs = c2;
                }
                wl = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
                double alen = pow(10.0, scn_uniform(r, -3, 3)), e0 = pow(10.0, scn_uniform(r, -3, 2));
                /* The box's radius on m and the tolerance (m . cf against
                 * radius + tol is the plane tier's test, m not normalised):
                 * m . cf = (reach + tol)(1 + t). */
                double reach = e0 * alen * fabs(w[cs]);
                double col1 = fabs(f->frame[0][cs]) + fabs(f->frame[1][cs]) + fabs(f->frame[2][cs]);
                double sd = fabs(q[0]) + fabs(q[1]) + fabs(q[2]) + reach;
                double tol = f->eps_k * (sd + e0 * alen * col1) + f->tol_t;
                double t = pow(2.0, -scn_uniform(r, 8, 28)) * (scn_next(r) & 1 ? 1 : -1);
                double dist = (reach + tol) * (1 + t) / (wl * wl);
                double cf[3] = {q[0] + m[0] * dist, q[1] + m[1] * dist, q[2] + m[2] * dist};
                for (int c2 = 0; c2 < 3; c2++) {
                    b.a[c2][i] = (float)(f->origin[c2] + cf[0] * f->frame[0][c2] +
                                         cf[1] * f->frame[1][c2] + cf[2] * f->frame[2][c2]);
                    b.a[3 + c2][i] = c2 == cs ? (float)(scn_next(r) & 1 ? alen : -alen) : 0.0f;
                }
                b.a[12][i] = (float)(scn_next(r) & 1 ? e0 : -e0);
                for (int j = 1; j < 3; j++) {
                    /* Any axis, a zero or tiny extent. */
                    for (int c2 = 0; c2 < 3; c2++)
                        b.a[3 + 3 * j + c2][i] = (float)scn_uniform(r, -1, 1) *
                                                 (float)pow(10.0, scn_uniform(r, -3, 3));
                    uint64_t u = scn_next(r) % 8;
                    b.a[12 + j][i] = u == 1 ? 1e-30f : u == 2 ? (float)(e0 * 1e-6) : 0.0f;
                }
            }
            compare_case(k == 3 ? "axis-aligned" : scn_cam_name((scn_cam_kind)k), f, &b, 0, n,
                         round == 0);
            batch_free(&b);
        }
    }
}

/*
 * Test 3 of the scalar path's early out (kernels/early_out.h) culls an
 * axis-aligned box before its load from world-space planes and a bound of
 * the tolerance, and in conservative mode proves a box visible the same
 * way. Boxes are put outside or inside one plane of random cameras of
 * every kind (a quarter far from the world's origin) within 2^-2 .. 2^-28
 * of the plane tier's boundary (relative to radius + tolerance), either
 * side; extents on one to three world axes or none (points). Every form
 * is compared (the AABB forms read the center and the extents).
 */
static void group_early_box(scn_rng *r)
{
    for (int round = 0; round < rounds(8); round++) {
        satc_camera cam[4];
        satc_frustum fr[4];
        random_cameras(r, cam, fr);
        for (int k = 0; k < 4; k++) {
            if (round % 4 == 3 && !moved_far(r, cam[k], &fr[k]))
                continue;
            const satc_frustum *f = &fr[k];
            const int ortho = f->kind != SATC_FRUSTUM_PERSPECTIVE;
            const size_t n = sized(1500);
            batch b;
            batch_init(&b, n, (unsigned)round % 3);
            double far = isinf(f->f) ? 1e3 * f->n : (double)f->f;
            for (size_t i = 0; i < n; i++) {
                int p = (int)rnd_below(r, 6);
                double m[3] = {0, 0, 0}, q[3], e[3];
                if (ortho) { /* face p / 2 of the box, outward normal m */
                    int ax = p / 2;
                    double sg = p & 1 ? -1.0 : 1.0;
                    for (int c2 = 0; c2 < 3; c2++)
                        q[c2] = f->center[c2] + f->half[c2] * scn_uniform(r, -1, 1);
                    q[ax] = f->center[ax] + sg * f->half[ax];
                    m[ax] = sg;
                } else { /* near, far, x1, x0, y1, y0 at a random depth */
                    persp_plane_point(f, far, p, r, m, q);
                }
                /* The box's radius on m (world normal w) and its S. */
                double w[3], reach = 0, sh = 0, sd = 0;
                int shape = (int)rnd_below(r, 8);
                for (int c2 = 0; c2 < 3; c2++) {
                    w[c2] = m[0] * f->frame[0][c2] + m[1] * f->frame[1][c2] + m[2] * f->frame[2][c2];
                    e[c2] = shape == 0 || (shape < 4 && c2 != shape - 1) ? 0.0
                                                                       : pow(10.0, scn_uniform(r, -3, 2));
                    reach += e[c2] * fabs(w[c2]);
                    sh += e[c2] * (fabs(f->frame[0][c2]) + fabs(f->frame[1][c2]) + fabs(f->frame[2][c2]));
                }
                double mm = m[0] * m[0] + m[1] * m[1] + m[2] * m[2];
                double t = pow(2.0, -scn_uniform(r, 2, 28)) * (scn_next(r) & 1 ? 1 : -1);
                for (int it = 0; it < 2; it++) { /* S from the center found in the first pass */
                    double tol = f->eps_k * (sd + sh) + f->tol_t;
                    double dist = (reach + tol) * (1 + t) / mm;
                    sd = 0;
                    for (int c2 = 0; c2 < 3; c2++) {
                        double cf = q[c2] + m[c2] * dist;
                        sd += fabs(cf);
                        b.a[c2][i] = (float)(f->origin[c2] + (q[0] + m[0] * dist) * f->frame[0][c2] +
                                             (q[1] + m[1] * dist) * f->frame[1][c2] +
                                             (q[2] + m[2] * dist) * f->frame[2][c2]);
                    }
                }
                for (int c2 = 0; c2 < 3; c2++) {
                    for (int j = 0; j < 3; j++)
                        b.a[3 + 3 * j + c2][i] = j == c2 ? 1.0f : 0.0f;
                    b.a[12 + c2][i] = (float)(scn_next(r) & 1 ? e[c2] : -e[c2]);
                }
            }
            g_forms = 1;
            compare_case(scn_cam_name((scn_cam_kind)k), f, &b, 0, n, round == 0);
            g_forms = 0;
            batch_free(&b);
        }
    }
}

/* Floats in increasing order as integers, and back. */
static int64_t float_key(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u >> 31 ? -(int64_t)(u & 0x7fffffffu) : (int64_t)u;
}

static float key_float(int64_t k)
{
    uint32_t u = k < 0 ? (uint32_t)(-k) | 0x80000000u : (uint32_t)k;
    return bits_to_float(u);
}

/* Conservative and exact class of box i of b, as the reference says (fc:
 * f's constants). */
static unsigned ref_classes(const satc_frustum *f, const satc_fconsts *fc, const batch *b, size_t i)
{
    satc_batch bb = satc_batch_from_boxes(&b->view);
    return satc_classify_ref(f, fc, &bb, i, 0) | satc_classify_ref(f, fc, &bb, i, SATC_K_EXACT) << 2;
}

/*
 * Boxes on the reference's decision boundaries: one field of a box is moved
 * between two values where the classes differ, by bisection down to
 * adjacent floats, and both neighbours are kept. Some compare of the
 * reference flips between them (often on an exact tie), so any path that
 * rounds or compares differently shows there.
 */
static void group_flips(scn_rng *r)
{
    satc_camera cam[4];
    satc_frustum fr[4];
    random_cameras(r, cam, fr);
    for (int k = 0; k < 6; k++) {
        satc_camera c = k < 4 ? cam[k] : cam[0];
        satc_frustum f = k < 4 ? fr[k] : fr[0];
        if (k >= 4) {
            exact_camera(r, k == 5, 0, &c);
            if (satc_frustum_from_camera(&f, &c) != SATC_OK)
                exit(2);
        }
        satc_fconsts fc;
        satc_frustum_consts(&f, &fc);
        scn_scene s;
        make_boundary(&s, &c, sized(8000), scn_next(r));
        batch b;
        batch_init(&b, 2 * s.count, 0);
        size_t m = 0;
        for (size_t i = 0; i < s.count; i++) {
            batch_copy(&b, m, &s.boxes, i, 1);
            /* A center coordinate (mostly) or an extent, moved by up to a
             * few box sizes. */
            int q = scn_next(r) % 4 ? (int)rnd_below(r, 3) : 12 + (int)rnd_below(r, 3);
            float v0 = b.a[q][m];
            double reach = 4.0 * (fabs((double)b.a[12][m]) + fabs((double)b.a[13][m]) +
                                  fabs((double)b.a[14][m])) + 1e-3;
            float v1 = (float)((double)v0 + scn_uniform(r, -reach, reach));
            unsigned c0 = ref_classes(&f, &fc, &b, m);
            b.a[q][m] = v1;
            if (ref_classes(&f, &fc, &b, m) == c0)
                continue; /* no boundary crossed: the slot is reused */
            int64_t lo = float_key(v0), hi = float_key(v1);
            while (lo + 1 != hi && lo - 1 != hi) {
                int64_t mid = lo + (hi - lo) / 2;
                b.a[q][m] = key_float(mid);
                if (ref_classes(&f, &fc, &b, m) == c0)
                    lo = mid;
                else
                    hi = mid;
            }
            b.a[q][m] = key_float(hi);
            batch_copy(&b, m + 1, &b.view, m, 1);
            b.a[q][m + 1] = key_float(lo);
            m += 2;
        }
        compare_case(k < 4 ? scn_cam_name((scn_cam_kind)k) : "exact camera", &f, &b, 0, m, 0);
        batch_free(&b);
        scn_free(&s);
    }
}

/* The forms groups: inputs of other groups, culled in every form. */
static void in_forms(void (*g)(scn_rng *), scn_rng *r)
{
    g_forms = 1;
    g(r);
    g_forms = 0;
}
static void group_forms_special(scn_rng *r) { in_forms(group_special, r); }
static void group_forms_bits(scn_rng *r) { in_forms(group_bits, r); }
static void group_forms_touching(scn_rng *r) { in_forms(group_touching, r); }
static void group_forms_overflow(scn_rng *r) { in_forms(group_overflow, r); }
static void group_forms_flips(scn_rng *r) { in_forms(group_flips, r); }

/* Tails in every form: counts 0..70 at first offsets 0..70, pointers
 * offset by 0..3 floats, kernels too; boundary boxes with specials. */
static void forms_tails(scn_rng *r)
{
    satc_camera cam[4];
    satc_frustum fr[4];
    random_cameras(r, cam, fr);
    for (int k = 0; k < 4; k++) {
        scn_scene s;
        make_boundary(&s, &cam[k], 2000, scn_next(r));
        poke_every(r, &s, 5);
        for (size_t count = 0; count <= 70; count++) {
            size_t first = (count * 13 + (size_t)k * 29) % 71;
            compare_slice("tail", &fr[k], &s, rnd_below(r, s.count - first - count), first, count,
                          (unsigned)(count % 4));
        }
        scn_free(&s);
    }
}
static void group_forms_tails(scn_rng *r) { in_forms(forms_tails, r); }

/* Plane volumes (SATC_FRUSTUM_PLANES): each random camera's frustum as 6
 * planes (5, unbounded, without its far plane; exact mode is then a status
 * on every path), a margin, and boundary boxes with special values. */
static void group_planes(scn_rng *r)
{
    satc_camera cam[4];
    satc_frustum fr[4];
    random_cameras(r, cam, fr);
    for (int k = 0; k < 4; k++) {
        float pl[6][4];
        int n6 = scn_frustum_planes(&fr[k], pl);
        scn_scene s;
        make_boundary(&s, &cam[k], sized(6000), scn_next(r));
        for (size_t i = 0; i < s.count; i += 7)
            field_ptr_w(&s.arrays, (int)rnd_below(r, NF))[i] = special_value(r);
        batch b;
        batch_from(&b, &s.boxes, s.count, (unsigned)k % 4);
        for (int v = 0; v < 3; v++) {
            satc_frustum pv;
            size_t np = v == 1 ? 5 : (size_t)n6;
            if (satc_frustum_from_planes(&pv, (const float(*)[4])pl, np, v == 2 ? 0.5f : 0.0f) != SATC_OK) {
                fprintf(stderr, "checkasm: camera %d planes rejected\n", k);
                exit(2);
            }
            compare_case("planes", &pv, &b, 0, b.n, v == 0);
            compare_subranges(&pv, &b, r, 1);
        }
        batch_free(&b);
        scn_free(&s);
    }
}
static void group_forms_planes(scn_rng *r) { in_forms(group_planes, r); }


/* ------------------------------------------------------------------ */
/* Occlusion: the rectangle kernels of every form and kind, and the     */
/* pyramid's reduction, against the reference bit for bit.              */
/* ------------------------------------------------------------------ */

static float *g_pyr_store;

/* Special values poked into a few boxes' fields: NaN, infinities, huge,
 * tiny, zero, negative zero, values at the near plane. */
static void poke_specials(scn_rng *r, batch *b)
{
    static const float sp[] = {NAN, INFINITY, -INFINITY, 3e38f, -3e38f, 1e-40f, 0.0f, -0.0f,
                               1e12f, 0.1f, 1e-30f};
    for (size_t i = 0; i < b->n; i++)
        if (scn_next(r) % 40 == 0)
            b->a[rnd_below(r, NF)][i] = sp[rnd_below(r, sizeof sp / sizeof sp[0])];
}

static void occl_compare(const satc_frustum *f, const satc_occl_consts *oc, const batch *b,
                         scn_rng *r)
{
    static float rr[SATC_OC_N + 1][SATC_CHUNK], rp[SATC_OC_N + 1][SATC_CHUNK];
    uint64_t vis[SATC_CHUNK_WORDS], tr[SATC_CHUNK_WORDS + 1], tp[SATC_CHUNK_WORDS + 1];
    int kind = f->kind == SATC_FRUSTUM_ORTHOGRAPHIC;
    for (size_t first = 0; first < b->n;) {
        size_t n = 1 + rnd_below(r, SATC_CHUNK);
        n = n > b->n - first ? b->n - first : n;
        unsigned flags = first + n == b->n ? SATC_K_LAST : 0u;
        int dense = (int)rnd_below(r, 4);
        for (size_t w = 0; w < SATC_CHUNK_WORDS; w++)
            vis[w] = dense == 0 ? ~0ull : dense == 1 ? scn_next(r) & scn_next(r) : scn_next(r);
        if (n % 64)
            vis[n / 64] &= (1ull << (n % 64)) - 1;
        for (size_t w = n / 64 + (n % 64 != 0); w < SATC_CHUNK_WORDS; w++)
            vis[w] = 0;
        satc_occl_fn ref = satc_kernels_ref.occl[b->desc.form][kind];
        tr[SATC_CHUNK_WORDS] = 0x5a5a5a5a5a5a5a5aull;
        fpenv e0 = env_enter(); /* the reference in the pass's environment too */
        ref(f, oc, &b->desc, first, n, flags, vis, rr, tr);
        env_leave(e0);
        for (int p = 0; p < NPATHS; p++) {
            if (!path_on(p))
                continue;
            const satc_kernels *k = path_kernels(p);
            for (int q = 0; q <= SATC_OC_N; q++)
                for (size_t j = 0; j < SATC_CHUNK; j++)
                    rp[q][j] = -7.0f;
            tp[SATC_CHUNK_WORDS] = 0x5a5a5a5a5a5a5a5aull;
            fpenv e = env_enter();
            k->occl[b->desc.form][kind](f, oc, &b->desc, first, n, flags, vis, rp, tp);
            env_leave(e);
            size_t bad = 0;
            for (size_t w = 0; w < SATC_CHUNK_WORDS; w++)
                bad += tr[w] != tp[w];
            for (size_t j = 0; j < n; j++)
                if (tr[j / 64] >> (j % 64) & 1)
                    for (int q = 0; q < SATC_OC_N; q++)
                        bad += memcmp(&rr[q][j], &rp[q][j], sizeof(float)) != 0;
            int canary = tp[SATC_CHUNK_WORDS] != 0x5a5a5a5a5a5a5a5aull;
            for (size_t j = 0; j < SATC_CHUNK; j++)
                canary |= rp[SATC_OC_N][j] != -7.0f;
            g_group[p][0].boxes += n;
            g_group[p][0].mismatches += bad != 0;
            g_group[p][0].canary += canary;
            if (bad && g_reports++ < 20)
                printf("  MISMATCH group %s form %s path %s: %zu fields of volumes %zu..%zu\n",
                       g_group_name, b->form, path_name(p), bad, first, first + n - 1);
        }
        first += n;
    }
}

static void group_occlusion(scn_rng *r)
{
    satc_camera cam[4];
    satc_frustum fr[4];
    random_cameras(r, cam, fr);
    if (!g_pyr_store)
        g_pyr_store = xmalloc(satc_pyramid_bytes(2048, 1024));
    size_t nb = g_forms_max < 3000 ? 1500 : 4000;
    for (int k = 0; k < 4; k++) {
        satc_pyramid py;
        uint32_t w = 64 + (uint32_t)rnd_below(r, 1985), h = 32 + (uint32_t)rnd_below(r, 993);
        if (satc_pyramid_init(&py, &fr[k], w, h, g_pyr_store, satc_pyramid_bytes(2048, 1024)))
            exit(2);
        satc_occl_consts oc;
        satc_occl_consts_init(&py, &oc);
        for (int sc = 0; sc < 2; sc++) {
            scn_scene s;
            if (sc)
                make_scene(&s, SCN_CITY, nb, scn_next(r), NULL);
            else
                make_boundary(&s, &cam[k], nb, scn_next(r));
            batch b;
            batch_init(&b, s.count, 0);
            batch_copy(&b, 0, &s.boxes, 0, s.count);
            poke_specials(r, &b);
            for (int v = 0; v < NFORMV; v++) {
                derived d;
                batch o;
                derive(&b, v, &d, &o);
                occl_compare(&fr[k], &oc, &o, r);
                derived_free(&d);
            }
            batch_free(&b);
            scn_free(&s);
        }
    }
}

static void group_reduce(scn_rng *r)
{
    static const float sp[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1e-40f, -1e-40f, 3e38f};
    for (int t = 0; t < 24; t++) {
        uint32_t sw = 1 + (uint32_t)rnd_below(r, 2048), sh = 1 + (uint32_t)rnd_below(r, 1024);
        if (t < 6)
            sw = 1 + (uint32_t)rnd_below(r, 40), sh = 1 + (uint32_t)rnd_below(r, 9);
        uint32_t dw = (sw + 1) / 2, dh = (sh + 1) / 2;
        size_t ns = (size_t)sw * sh, nd = (size_t)dw * dh;
        float *src = xmalloc(ns * sizeof(float)), *dr = xmalloc((nd + 1) * sizeof(float));
        float *dp = xmalloc((nd + 1) * sizeof(float));
        for (size_t i = 0; i < ns; i++)
            src[i] = scn_next(r) % 8 ? (float)scn_uniform(r, 0.1, 1000.0)
                                     : sp[rnd_below(r, sizeof sp / sizeof sp[0])];
        fpenv e0 = env_enter();
        satc_kernels_ref.reduce(src, sw, sh, dr, dw, dh);
        env_leave(e0);
        for (int p = 0; p < NPATHS; p++) {
            if (!path_on(p))
                continue;
            for (size_t i = 0; i <= nd; i++)
                dp[i] = -7.0f;
            fpenv e = env_enter();
            path_kernels(p)->reduce(src, sw, sh, dp, dw, dh);
            env_leave(e);
            int bad = memcmp(dr, dp, nd * sizeof(float)) != 0;
            g_group[p][0].boxes += nd;
            g_group[p][0].mismatches += bad;
            g_group[p][0].canary += dp[nd] != -7.0f;
            if (bad && g_reports++ < 20)
                printf("  MISMATCH group %s path %s: level %ux%u from %ux%u\n", g_group_name,
                       path_name(p), dw, dh, sw, sh);
        }
        free(src), free(dr), free(dp);
    }
}

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
