/*
 * The engine frame: the city scene held in every form an
 * engine stores, culled in place by satc_cull in both modes, next to a
 * streaming read of each form's bytes and to the three ways engines cull
 * instances today (per-box helpers + satc, Filament, Bevy). Every path's
 * bitmask is compared with the scalar path's first; a difference is a bug
 * (reported, no PASS, non-zero exit).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baselines.h"
#include "forms.h"
#include "oracle.h"
#include "stream.h"
#include "timing.h"

typedef struct frame_data {
    size_t n;
    float *mat;          /* n x 16: 4x4 column-major, 64 B stride */
    float lc[3], lh[3];  /* the one local box every instance shares */
    float *lbox;         /* n x 6: the same box per renderable (Filament keeps one each) */
    float *c3, *h3;      /* world AABB: two float3 arrays (Filament) */
    float *aabb;         /* n x 6: center, half (24 B records: Unity) */
    float *mm;           /* n x 6: min, max (Godot) */
    float *ha;           /* n x 12: center, H0, H1, H2 */
    float *sph;          /* n x 4: center, radius */
    const satc_boxes *obb;
    satc_batch batch[FR_FORMS];
} frame_data;

static const char *const form_names[FR_FORMS] = {
    "matrix 4x4 + local AABB", "AABB c/h float3 arrays", "AABB c/h 24 B records",
    "AABB min/max records", "half-axes (12 floats)", "sphere 16 B records", "Eberly arrays (today)"};
static const double form_bytes[FR_FORMS] = {64, 24, 24, 24, 48, 16, 60};

const char *frame_form_name(int f) { return f >= 0 && f < FR_FORMS ? form_names[f] : "?"; }
double frame_form_bytes(int f) { return f >= 0 && f < FR_FORMS ? form_bytes[f] : 0; }

int frame_base_peer(int w)
{
    return w == FB_TODAY || w < 0 || w >= FB_COUNT ? -1 : (w - 1) % 2 ? PB_AVX512 : PB_AVX2;
}

int frame_base_kind(int w) { return w == FB_TODAY ? FB_TODAY : 1 + (w - 1) / 2 * 2; }

const char *frame_base_name(int w)
{
    static char names[FB_COUNT][72];
    if (w < 0 || w >= FB_COUNT)
        return "?";
    int k = frame_base_kind(w), pb = frame_base_peer(w);
    const fb_peer *p = pb < 0 ? NULL : fb_peer_get(pb);
    const char *what = k == FB_TODAY      ? "(a) today: obb_from_matrix+arrays_set, exact"
                       : k == FB_FILAMENT ? "(b) Filament: Arvo AABB + 6 planes"
                       : k == FB_FIL_CULL ? "(b') Filament 6-plane pass, stored AABB"
                                          : "(c) Bevy: 6 planes on affine, per box";
    if (k == FB_TODAY)
        return what;
    snprintf(names[w], sizeof names[w], "%s, %s", what, p ? p->name : pb == PB_AVX512 ? "avx512 n/a" : "n/a");
    return names[w];
}

/* Bytes read + written per box by each baseline (output included). */
double frame_base_bytes(int w)
{
    switch (frame_base_kind(w)) {
    case FB_TODAY: return 64 + 60 + 60 + 0.125;   /* matrices, arrays written, arrays read */
    case FB_FILAMENT: return 64 + 24 + 24 + 24 + 2; /* matrices, local boxes, AABBs written and read, a byte */
    case FB_FIL_CULL: return 24 + 2;
    default: return 64 + 0.125;
    }
}

static float *falloc(size_t floats)
{
    size_t bytes = (floats * sizeof(float) + 63) / 64 * 64;
    float *p = aligned_alloc(64, bytes ? bytes : 64);
    if (!p) {
        fprintf(stderr, "bench: out of memory\n");
        exit(1);
    }
    return p;
}

static float up(double v) { float f = (float)v; return (double)f < v ? nextafterf(f, INFINITY) : f; }
static float down(double v) { float f = (float)v; return (double)f > v ? nextafterf(f, -INFINITY) : f; }

/* Every form from the scene's boxes. Instance i: columns e_j A_j,
 * translation c, local box [-1, 1]^3, so M_i x [-1, 1]^3 is box i (up to
 * the rounding of e_j A_j). AABBs and spheres are rounded outward. */
static void frame_make(frame_data *d, const scn_scene *sc)
{
    size_t n = sc->count;
    d->n = n, d->obb = &sc->boxes;
    d->mat = falloc(16 * n), d->c3 = falloc(3 * n + 24), d->h3 = falloc(3 * n + 24);
    d->lbox = falloc(6 * n);
    d->aabb = falloc(6 * n), d->mm = falloc(6 * n), d->ha = falloc(12 * n), d->sph = falloc(4 * n);
    for (int k = 0; k < 3; k++)
        d->lc[k] = 0.0f, d->lh[k] = 1.0f;
    for (size_t i = 0; i < n; i++) {
        satc_obb o;
        bl_load_box(&sc->boxes, i, &o);
        float *M = d->mat + 16 * i, *H = d->ha + 12 * i;
        double r2 = 0;
        for (int j = 0; j < 3; j++) {
            for (int r = 0; r < 3; r++)
                M[4 * j + r] = H[3 + 3 * j + r] = (float)((double)o.axis[j][r] * o.extent[j]);
            M[4 * j + 3] = 0.0f;
            r2 += (double)o.extent[j] * o.extent[j];
        }
        for (int r = 0; r < 3; r++) {
            double h = 0;
            for (int j = 0; j < 3; j++)
                h += fabs((double)o.axis[j][r]) * fabs((double)o.extent[j]);
            M[12 + r] = H[r] = o.center[r];
            d->c3[3 * i + r] = d->aabb[6 * i + r] = d->sph[4 * i + r] = o.center[r];
            d->h3[3 * i + r] = d->aabb[6 * i + 3 + r] = up(h);
            d->mm[6 * i + r] = down(o.center[r] - h);
            d->mm[6 * i + 3 + r] = up(o.center[r] + h);
        }
        M[15] = 1.0f;
        for (int r = 0; r < 3; r++)
            d->lbox[6 * i + r] = d->lc[r], d->lbox[6 * i + 3 + r] = d->lh[r];
        d->sph[4 * i + 3] = up(sqrt(r2));
    }
    satc_batch *b = d->batch;
    memset(b, 0, sizeof d->batch);
    b[FR_INST].form = SATC_FORM_INSTANCES;
    b[FR_INST].instances = (satc_instances){d->mat, 64, SATC_AFFINE_4X4_COLUMN_MAJOR,
                                            {&d->lc[0], &d->lc[1], &d->lc[2], 0},
                                            {&d->lh[0], &d->lh[1], &d->lh[2], 0}, NULL, 0, 0};
    b[FR_AABB3].form = SATC_FORM_AABB;
    b[FR_AABB3].aabb = (satc_aabbs){SATC_VEC3S_AOS(d->c3, 12), SATC_VEC3S_AOS(d->h3, 12)};
    b[FR_AABB24].form = SATC_FORM_AABB;
    b[FR_AABB24].aabb = (satc_aabbs){SATC_VEC3S_AOS(d->aabb, 24), SATC_VEC3S_AOS(d->aabb + 3, 24)};
    b[FR_MINMAX].form = SATC_FORM_MINMAX;
    b[FR_MINMAX].minmax = (satc_minmax){SATC_VEC3S_AOS(d->mm, 24), SATC_VEC3S_AOS(d->mm + 3, 24)};
    b[FR_HALFAX].form = SATC_FORM_HALF_AXES;
    b[FR_HALFAX].half_axes = (satc_half_axes){SATC_VEC3S_AOS(d->ha, 48),
                                              {SATC_VEC3S_AOS(d->ha + 3, 48), SATC_VEC3S_AOS(d->ha + 6, 48),
                                               SATC_VEC3S_AOS(d->ha + 9, 48)}};
    b[FR_SPHERE].form = SATC_FORM_SPHERES;
    b[FR_SPHERE].spheres = (satc_spheres){SATC_VEC3S_AOS(d->sph, 16), {d->sph + 3, 16}};
    b[FR_OBB] = satc_batch_from_boxes(&sc->boxes);
}

static void frame_free(frame_data *d)
{
    free(d->mat), free(d->lbox), free(d->c3), free(d->h3), free(d->aabb), free(d->mm), free(d->ha), free(d->sph);
}

/* ------------------------------------------------------------------ */
/* Timed passes                                                         */
/* ------------------------------------------------------------------ */

typedef struct fctx {
    const frame_data *d;
    int form, which;
    satc_mode mode;
    const bl_frustum *bf;
    const satc_frustum *f;
    const fb_peer *peer; /* the build a peer's way runs */
    satc_isa isa;        /* run_satc_isa: the path */
    uint8_t *mask;       /* bitmask, or a byte per object (Filament) */
    float *c3, *h3;      /* Filament's per-frame world AABBs */
    satc_box_arrays arr; /* today's way: the arrays the helpers fill */
    size_t visible;
    int bad;
} fctx;

static void run_satc(void *p)
{
    fctx *c = p;
    satc_results r = {c->mask, NULL, NULL, 0};
    c->bad |= satc_cull(c->f, &c->d->batch[c->form], 0, c->d->n, c->mode, &r) != SATC_OK;
    c->visible = r.visible;
}

static void run_satc_isa(void *p)
{
    fctx *c = p;
    satc_results r = {c->mask, NULL, NULL, 0};
    c->bad |= satc_cull_isa(c->isa, c->f, &c->d->batch[c->form], 0, c->d->n, c->mode, &r) != SATC_OK;
    c->visible = r.visible;
}

static void run_roof(void *p)
{
    fctx *c = p;
    const frame_data *d = c->d;
    size_t n = d->n;
    switch (c->form) {
    case FR_INST: bench_sink ^= bench_read(d->mat, 64 * n); break;
    case FR_AABB3: bench_sink ^= bench_read(d->c3, 12 * n) | bench_read(d->h3, 12 * n); break;
    case FR_AABB24: bench_sink ^= bench_read(d->aabb, 24 * n); break;
    case FR_MINMAX: bench_sink ^= bench_read(d->mm, 24 * n); break;
    case FR_HALFAX: bench_sink ^= bench_read(d->ha, 48 * n); break;
    case FR_SPHERE: bench_sink ^= bench_read(d->sph, 16 * n); break;
    default: bench_sink ^= bench_stream(d->obb, 0, n); break;
    }
}

/* What a satc 0.1 user writes: one helper call per instance. */
static void helpers(fctx *c)
{
    static const float lmin[3] = {-1, -1, -1}, lmax[3] = {1, 1, 1};
    for (size_t i = 0; i < c->d->n; i++) {
        satc_obb o;
        c->bad |= satc_obb_from_matrix(&o, c->d->mat + 16 * i, SATC_MATRIX_COLUMN_MAJOR, lmin, lmax) != SATC_OK;
        c->bad |= satc_box_arrays_set(&c->arr, i, &o) != SATC_OK;
    }
}

static void run_helpers(void *p) { helpers(p); }

/* The bound of Filament's way (b) as its bytes set it: the same streams
 * (read the matrices and local boxes, write the two float3 arrays, read
 * them back, read and write a byte per object) with an add where its
 * arithmetic is. Writes cost more than reads (each written line is read
 * first), so this is the floor (b) could reach from memory. */
static void run_fil_streams(void *p)
{
    fctx *c = p;
    const frame_data *d = c->d;
    const float *restrict m = d->mat, *restrict b = d->lbox;
    float *restrict c3 = c->c3, *restrict h3 = c->h3;
    uint8_t *restrict mask = c->mask;
    size_t n = d->n, kept = 0;
    for (size_t i = 0; i < n; i++) {
        for (int r = 0; r < 3; r++) {
            c3[3 * i + r] = m[16 * i + 12 + r] + b[6 * i + r];
            h3[3 * i + r] = m[16 * i + r] + b[6 * i + 3 + r];
        }
    }
    for (size_t i = 0; i < n; i++) {
        unsigned v = c3[3 * i] + h3[3 * i + 2] > 0.0f;
        mask[i] = (uint8_t)((mask[i] & ~1u) | v);
        kept += v;
    }
    c->visible = kept;
}

static void run_base(void *p)
{
    fctx *c = p;
    const frame_data *d = c->d;
    size_t n = d->n;
    switch (frame_base_kind(c->which)) {
    case FB_TODAY: {
        helpers(c);
        satc_boxes v = satc_box_arrays_view(&c->arr);
        satc_results r = {c->mask, NULL, NULL, 0};
        c->bad |= satc_cull_batch(c->f, &v, 0, n, SATC_EXACT, &r) != SATC_OK;
        c->visible = r.visible;
        break;
    }
    case FB_FILAMENT:
        c->peer->arvo(d->mat, d->lbox, n, c->c3, c->h3);
        c->visible = c->peer->cull(c->bf, c->c3, c->h3, n, c->mask);
        break;
    case FB_FIL_CULL: c->visible = c->peer->cull(c->bf, d->c3, d->h3, n, c->mask); break;
    case FB_BEVY: c->visible = c->peer->bevy(c->bf, d->mat, n, d->lc, d->lh, c->mask); break;
    }
}

/* A byte per object (Filament) to a bitmask. */
static void bytes_to_bits(const uint8_t *b, size_t n, uint8_t *m)
{
    memset(m, 0, (n + 7) / 8);
    for (size_t i = 0; i < n; i++)
        m[i / 8] |= (uint8_t)((b[i] & 1u) << (i % 8));
}

/* Every runnable path against scalar, both modes; ref[m] gets scalar's. */
static void check_paths(bench_frame *F, const frame_data *d, const satc_frustum *f, int form, uint8_t *ref[2],
                        uint8_t *tmp)
{
    size_t n = d->n, bytes = (n + 7) / 8;
    unsigned run = satc_isa_runnable();
    for (int m = 0; m < 2; m++) {
        satc_results r = {ref[m], NULL, NULL, 0};
        if (satc_cull_isa(SATC_ISA_SCALAR, f, &d->batch[form], 0, n, (satc_mode)m, &r) != SATC_OK) {
            F->mismatch[form] = 1;
            snprintf(F->mismatch_note[form], 64, "scalar %s: error", m ? "exact" : "cons");
            continue;
        }
        for (unsigned isa = SATC_ISA_SSE41; isa <= SATC_ISA_AVX512; isa <<= 1) {
            if (!(run & isa))
                continue;
            satc_results q = {tmp, NULL, NULL, 0};
            satc_status st = satc_cull_isa((satc_isa)isa, f, &d->batch[form], 0, n, (satc_mode)m, &q);
            if (st != SATC_OK || memcmp(tmp, ref[m], bytes) != 0) {
                F->mismatch[form] = 1;
                snprintf(F->mismatch_note[form], 64, "%s %s differs from scalar (%zu n)",
                         satc_isa_name((satc_isa)isa), m ? "exact" : "cons", n);
                fprintf(stderr, "bench: MISMATCH: %s, %s: %s\n", form_names[form], satc_isa_name((satc_isa)isa),
                        F->mismatch_note[form]);
            }
        }
    }
}

void bench_frame_run(bench_results *R, const scn_scene *sc, int z)
{
    bench_frame *F = &R->frame;
    size_t n = sc->count, bytes = (n + 7) / 8;
    /* Twice the samples from memory: 25 jobs, and preemption on a shared
     * machine spoils single-pass samples more than ~1 ms in-cache ones. */
    int cached = z == 0, reps = cached ? R->reps_cached : R->frame_reps_memory;
    double t0 = bench_now_ns();
    frame_data d;
    frame_make(&d, sc);
    bl_frustum bf;
    if (bl_frustum_init(&bf, &sc->cam) != 0) {
        fprintf(stderr, "bench: engine frame: camera not symmetric\n");
        frame_free(&d);
        return;
    }
    F->path = satc_isa_name(satc_isa_active());

    /* 1. Answers, untimed. exact[f]: satc exact on form f (scalar). */
    uint8_t *exact[FR_FORMS], *cons = calloc(bytes, 1), *tmp = calloc(bytes, 1);
    for (int f = 0; f < FR_FORMS; f++) {
        exact[f] = calloc(bytes, 1);
        uint8_t *ref[2] = {cons, exact[f]};
        check_paths(F, &d, &sc->frustum, f, ref, tmp);
    }
    /* False positives need exact[FR_OBB], known only now: scalar again. */
    for (int f = 0; f < FR_FORMS; f++) {
        for (int m = 0; m < 2; m++) {
            satc_results r = {tmp, NULL, NULL, 0};
            satc_cull_isa(SATC_ISA_SCALAR, &sc->frustum, &d.batch[f], 0, n, (satc_mode)m, &r);
            frame_row *c = &F->cull[f][m][z];
            c->visible = r.visible;
            c->fp = bench_andnot_count(tmp, exact[f], bytes);
            c->fp_obb = bench_andnot_count(tmp, exact[FR_OBB], bytes);
        }
    }

    /* 2. Contexts: roofline, cons, exact per form, then the baselines. */
    /* ... and satc on AVX2 (matrices exact, float3 AABBs conservative)
     * for the peers' AVX2 builds. */
    enum { NB = 3 * FR_FORMS, J_SAT2 = NB + FB_COUNT, J_STREAMS = J_SAT2 + 2, J_HELPERS, NJ };
    fctx ctx[NJ];
    bench_job *jobs = calloc(NJ, sizeof *jobs);
    uint8_t *masks = calloc(NJ, n + 64);
    float *c3 = falloc(3 * n + 24), *h3 = falloc(3 * n + 24);
    satc_box_arrays arr;
    if (!jobs || !masks || satc_box_arrays_alloc(&arr, n) != SATC_OK) {
        fprintf(stderr, "bench: out of memory\n");
        exit(1);
    }
    for (int j = 0; j < NJ; j++) {
        fctx *c = &ctx[j];
        memset(c, 0, sizeof *c);
        c->d = &d, c->bf = &bf, c->f = &sc->frustum, c->mask = masks + (size_t)j * (n + 64);
        c->c3 = c3, c->h3 = h3, c->arr = arr;
        if (j < 3 * FR_FORMS) {
            c->form = j / 3, c->mode = (satc_mode)(j % 3 == 2);
            jobs[j].fn = j % 3 == 0 ? run_roof : run_satc;
        } else if (j < NB + FB_COUNT) {
            c->which = j - NB;
            int pb = frame_base_peer(c->which);
            c->peer = pb < 0 ? NULL : fb_peer_get(pb);
            jobs[j].fn = run_base;
        } else if (j < J_STREAMS) {
            c->isa = SATC_ISA_AVX2, c->form = j == J_SAT2 ? FR_INST : FR_AABB3;
            c->mode = j == J_SAT2 ? SATC_EXACT : SATC_CONSERVATIVE;
            jobs[j].fn = run_satc_isa;
        } else if (j == J_STREAMS) {
            jobs[j].fn = run_fil_streams;
        } else {
            jobs[j].fn = run_helpers;
        }
        jobs[j].ctx = c;
    }
    /* Jobs that cannot run here (a build or a path this CPU lacks) go. */
    int sat2 = (satc_isa_native() & SATC_ISA_AVX2) != 0;
    int live[NJ], nl = 0;
    for (int j = 0; j < NJ; j++) {
        int skip = (j >= NB && j < NB + FB_COUNT && frame_base_peer(j - NB) >= 0 && !ctx[j].peer) ||
                   (j >= J_SAT2 && j < J_STREAMS && !sat2);
        if (!skip)
            live[nl++] = j;
    }
    /* Baselines' answers, untimed, against satc exact on the same data. */
    for (int w = 0; w < FB_COUNT; w++) {
        fctx *c = &ctx[NB + w];
        if (frame_base_peer(w) >= 0 && !c->peer)
            continue;
        run_base(c);
        int kind = frame_base_kind(w);
        if (kind == FB_FILAMENT || kind == FB_FIL_CULL)
            bytes_to_bits(c->mask, n, tmp);
        else
            memcpy(tmp, c->mask, bytes);
        frame_row *b = &F->base[w][z];
        b->visible = c->visible;
        const uint8_t *same = exact[kind == FB_FIL_CULL ? FR_AABB3 : FR_INST];
        b->fp = bench_andnot_count(tmp, same, bytes);
        b->fp_obb = bench_andnot_count(tmp, exact[FR_OBB], bytes);
        /* Boxes satc exact keeps that the way culls: the oracle says
         * which really meet the frustum (the way's false negatives). */
        b->fn = bench_andnot_count(same, tmp, bytes);
        b->fn_true = 0;
        for (size_t i = 0; i < n; i++) {
            if ((same[i / 8] & ~tmp[i / 8]) >> (i % 8) & 1) {
                satc_obb o;
                bl_load_box(&sc->boxes, i, &o);
                b->fn_true += orc_intersects(&sc->cam, &o, 0.0) != 0;
            }
        }
        if (c->bad) {
            F->mismatch[FR_INST] = 1;
            snprintf(F->mismatch_note[FR_INST], 64, "today's way: a helper failed");
        }
    }

    /* 3. Timings, round-robin, of the jobs that run here. */
    bench_job *lj = calloc(NJ, sizeof *lj);
    if (!lj) {
        fprintf(stderr, "bench: out of memory\n");
        exit(1);
    }
    for (int i = 0; i < nl; i++)
        lj[i] = jobs[live[i]];
    bench_time_jobs(lj, nl, n, cached, reps);
    for (int i = 0; i < nl; i++)
        jobs[live[i]].st = lj[i].st;
    for (int f = 0; f < FR_FORMS; f++) {
        F->roof[f][z].ns = jobs[3 * f].st, F->roof[f][z].done = 1;
        for (int m = 0; m < 2; m++) {
            F->cull[f][m][z].ns = jobs[3 * f + 1 + m].st;
            F->cull[f][m][z].done = !ctx[3 * f + 1 + m].bad;
        }
    }
    for (int w = 0; w < FB_COUNT; w++)
        F->base[w][z].ns = jobs[NB + w].st, F->base[w][z].done = frame_base_peer(w) < 0 || ctx[NB + w].peer;
    /* Each way over the satc row it is set against, round by round (the
     * same choice as frame_satc_for: satc on AVX2 for an AVX2 build when
     * the active path is another; conservative on the float3 AABBs for
     * the plane pass alone, else exact on the matrices). */
    for (int i = 0; i < nl; i++) {
        int w = live[i] - NB;
        if (w < 0 || w >= FB_COUNT)
            continue;
        int cull = frame_base_kind(w) == FB_FIL_CULL, ref = cull ? 3 * FR_AABB3 + 1 : 3 * FR_INST + 2;
        if (ctx[live[i]].peer && ctx[live[i]].peer->isa == SATC_ISA_AVX2 && satc_isa_active() != SATC_ISA_AVX2 &&
            sat2)
            ref = J_SAT2 + cull;
        for (int k = 0; k < nl; k++)
            if (live[k] == ref)
                F->base[w][z].x_satc = bench_paired_ratio(lj[i].s, lj[k].s, reps);
    }
    free(lj);
    for (int q = 0; q < 2; q++) {
        fctx *c = &ctx[J_SAT2 + q];
        F->sat2[q][z].ns = jobs[J_SAT2 + q].st;
        F->sat2[q][z].done = sat2 && !c->bad;
    }
    F->helpers[z].ns = jobs[J_HELPERS].st, F->helpers[z].done = !ctx[J_HELPERS].bad;
    F->fil_streams[z].ns = jobs[J_STREAMS].st, F->fil_streams[z].done = 1;
    F->done = 1;
    if (bench_verbose)
        fprintf(stderr, "bench: engine frame %7zu boxes: %d jobs x %d samples in %.1f s\n", n, NJ, reps,
                (bench_now_ns() - t0) * 1e-9);

    satc_box_arrays_free(&arr);
    free(c3), free(h3), free(jobs), free(masks), free(cons), free(tmp);
    for (int f = 0; f < FR_FORMS; f++)
        free(exact[f]);
    frame_free(&d);
}
