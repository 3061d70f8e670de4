/*
 * The scalar path: satc_kernels_scalar, the kernels one
 * lane wide, next to the reference it must reproduce (satc_kernels_ref,
 * run through satc_scalar_use_ref) and to the per-box peers it must beat,
 * on the city scene in the same round-robin: Eberly's TestIntersection
 * (baseline (a)) on the OBB arrays, cglm's glm_aabb_frustum (baseline (d),
 * built with the project's flags: no -mavx*, as where the scalar path runs)
 * on world AABBs, and the scalar path on those very AABB bytes (24 B
 * min/max records, cglm's layout) and as c/h float3 arrays. Every output
 * is compared with the reference's first; a difference is a bug (no PASS,
 * exit status 3 like the other sections).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baselines.h"
#include "goals.h"
#include "scalar.h"
#include "stream.h"
#include "timing.h"
#include "core/internal.h"

enum { SJ_SCALAR, SJ_REF = 3, SJ_MM = 6, SJ_C3, SJ_EBERLY, SJ_CGLM, SJ_COUNT };
static const char *const sj_name[SJ_COUNT] = {
    "scalar path, OBB arrays, conservative", "scalar path, OBB arrays, exact",
    "scalar path, OBB arrays, classification", "reference, OBB arrays, conservative",
    "reference, OBB arrays, exact", "reference, OBB arrays, classification",
    "scalar path, AABB min/max 24 B, conservative", "scalar path, AABB c/h float3, conservative",
    "(a) Eberly TestIntersection, per box", "(d) cglm glm_aabb_frustum, min/max 24 B"};

static struct {
    int done[BENCH_SIZES], bad, have_cglm;
    size_t n[BENCH_SIZES];
    bench_stats st[SJ_COUNT][BENCH_SIZES];
    size_t visible[SJ_COUNT][BENCH_SIZES];
    char note[96];
} S;

typedef struct sctx {
    int which;
    const scn_scene *sc;
    const satc_batch *obb, *mm, *c3;
    const bl_frustum *bf;
    const bl_cglm *cg;
    uint8_t *mask, *classes;
    size_t visible;
    int err;
} sctx;

static void run_job(void *p)
{
    sctx *c = p;
    size_t n = c->sc->count;
    int w = c->which;
    if (w == SJ_EBERLY) {
        c->visible = bl_eberly_batch(c->bf, &c->sc->boxes, n, c->mask);
        return;
    }
    if (w == SJ_CGLM) {
        c->visible = bl_cglm_batch_project(c->cg, n, c->mask);
        return;
    }
    int m = w < SJ_MM ? w % 3 : 0;
    const satc_batch *b = w == SJ_MM ? c->mm : w == SJ_C3 ? c->c3 : c->obb;
    satc_results r = {c->mask, m == 2 ? c->classes : NULL, NULL, 0};
    if (w >= SJ_REF && w < SJ_MM)
        satc_scalar_use_ref(1);
    c->err |= satc_cull_isa(SATC_ISA_SCALAR, &c->sc->frustum, b, 0, n,
                            m ? SATC_EXACT : SATC_CONSERVATIVE, &r) != SATC_OK;
    satc_scalar_use_ref(0);
    c->visible = r.visible;
}

/* The scalar path's outputs against the reference's, untimed. */
static void check(const scn_scene *sc, const satc_batch *b, int m, const char *what)
{
    size_t n = sc->count;
    uint8_t *bits[2], *cls[2];
    for (int ref = 0; ref < 2; ref++) {
        bits[ref] = calloc((n + 7) / 8, 1), cls[ref] = calloc(n, 1);
        satc_results r = {bits[ref], m == 2 ? cls[ref] : NULL, NULL, 0};
        satc_scalar_use_ref(ref);
        if (!bits[ref] || !cls[ref] ||
            satc_cull_isa(SATC_ISA_SCALAR, &sc->frustum, b, 0, n, m ? SATC_EXACT : SATC_CONSERVATIVE, &r))
            S.bad = 1;
        satc_scalar_use_ref(0);
    }
    if (!S.bad && (memcmp(bits[0], bits[1], (n + 7) / 8) || memcmp(cls[0], cls[1], n))) {
        S.bad = 1;
        snprintf(S.note, sizeof S.note, "scalar path differs from the reference: %s, mode %d", what, m);
        fprintf(stderr, "bench: MISMATCH: %s\n", S.note);
    }
    for (int ref = 0; ref < 2; ref++)
        free(bits[ref]), free(cls[ref]);
}

void bench_scalar_run(const bench_results *R, const scn_scene *sc, int z)
{
    size_t n = sc->count;
    int cached = z == 0, reps = cached ? R->reps_cached : R->reps_memory;
    bl_frustum bf;
    if (bl_frustum_init(&bf, &sc->cam) != 0)
        return;
    /* World AABBs exactly as baseline (d) computes them, in its layout. */
    float *mm = malloc(6 * n * sizeof(float)), *c3 = malloc(3 * n * sizeof(float)),
          *h3 = malloc(3 * n * sizeof(float));
    uint8_t *masks = calloc(SJ_COUNT, n + 64), *classes = malloc(n);
    if (!mm || !c3 || !h3 || !masks || !classes) {
        fprintf(stderr, "bench: out of memory\n");
        exit(1);
    }
    const satc_boxes *b = &sc->boxes;
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) {
            float h = b->extent[0][i] * fabsf(b->axis[0][k][i]) + b->extent[1][i] * fabsf(b->axis[1][k][i]) +
                      b->extent[2][i] * fabsf(b->axis[2][k][i]);
            mm[6 * i + k] = b->center[k][i] - h;
            mm[6 * i + 3 + k] = b->center[k][i] + h;
            c3[3 * i + k] = b->center[k][i];
            h3[3 * i + k] = h;
        }
    }
    satc_batch obb = satc_batch_from_boxes(b), bmm, bc3;
    memset(&bmm, 0, sizeof bmm), memset(&bc3, 0, sizeof bc3);
    bmm.form = SATC_FORM_MINMAX;
    bmm.minmax = (satc_minmax){SATC_VEC3S_AOS(mm, 24), SATC_VEC3S_AOS(mm + 3, 24)};
    bc3.form = SATC_FORM_AABB;
    bc3.aabb = (satc_aabbs){SATC_VEC3S_AOS(c3, 12), SATC_VEC3S_AOS(h3, 12)};
    bl_cglm *cg = bl_cglm_prepare(&sc->cam, b, n);
    S.have_cglm = cg != NULL;
    if (cg && memcmp(bl_cglm_aabb(cg), mm, 24 * n) != 0) { /* the same bytes, or say so */
        S.bad = 1;
        snprintf(S.note, sizeof S.note, "bench: world AABBs differ from cglm's");
    }

    for (int m = 0; m < 3; m++)
        check(sc, &obb, m, "OBB arrays");
    check(sc, &bmm, 0, "AABB min/max");
    check(sc, &bc3, 0, "AABB c/h float3");

    sctx ctx[SJ_COUNT];
    bench_job jobs[SJ_COUNT];
    int nj = 0, slot[SJ_COUNT];
    for (int w = 0; w < SJ_COUNT; w++) {
        if (w == SJ_CGLM && !cg)
            continue;
        ctx[nj] = (sctx){w, sc, &obb, &bmm, &bc3, &bf, cg, masks + (size_t)w * (n + 64), classes, 0, 0};
        memset(&jobs[nj], 0, sizeof jobs[nj]);
        jobs[nj].fn = run_job, jobs[nj].ctx = &ctx[nj];
        slot[w] = nj++;
    }
    bench_time_jobs(jobs, nj, n, cached, reps);
    for (int w = 0; w < SJ_COUNT; w++) {
        if (w == SJ_CGLM && !cg)
            continue;
        S.st[w][z] = jobs[slot[w]].st;
        S.visible[w][z] = ctx[slot[w]].visible;
        S.bad |= ctx[slot[w]].err;
    }
    S.n[z] = n, S.done[z] = 1;
    bl_cglm_free(cg);
    free(mm), free(c3), free(h3), free(masks), free(classes);
}

static void target(int pass, int avail, const char *what, const char *fig)
{
    if (avail)
        bench_goal(pass && !S.bad, "speed", "%-76s %s%s", what, fig,
                   S.bad ? "  NOT PASSED: output differs from the reference" : "");
}

int bench_scalar_report(void)
{
    for (int z = 0; z < BENCH_SIZES; z++) {
        if (!S.done[z])
            continue;
        printf("\n== scalar path: city, %zu boxes %s; one box per lane, no SIMD ==\n", S.n[z],
               z ? "from memory" : "in cache");
        printf("%-48s %10s %-17s %8s %9s\n", "", "ns/box", "[min-max]", "x ref", "visible");
        for (int w = 0; w < SJ_COUNT; w++) {
            if (w == SJ_CGLM && !S.have_cglm)
                continue;
            const bench_stats *s = &S.st[w][z];
            int ref = w < SJ_MM ? SJ_REF + w % 3 : SJ_REF;
            char range[32];
            snprintf(range, sizeof range, "[%.3g-%.3g]", s->min, s->max);
            printf("%-48s %10.3f %-17s %8.2f %9zu\n", sj_name[w], s->med, range, S.st[ref][z].med / s->med,
                   S.visible[w][z]);
        }
    }
    if (S.bad && S.note[0])
        printf("%s\n", S.note);
    if (!S.done[0])
        return S.bad;
    printf("(x ref: the reference's time for the same mode (OBB arrays) / this time)\n");
    /* In cache the passes repeat the same 4096 boxes, and the branch
     * predictor learns the early exits' sequence (cglm's more than the
     * scalar path's planes in pairs); at 1 M it cannot. */
    if (S.have_cglm && S.done[1])
        printf("(world AABBs at 1 M from memory, no sequence to learn: %.2f x cglm's time)\n",
               S.st[SJ_MM][1].med / S.st[SJ_CGLM][1].med);
    return S.bad;
}

void bench_scalar_goals(void)
{
    if (!S.done[0] || !bench_goals_on())
        return;
    bench_goals_heading("scalar path (single thread)");
    char fig[96];
    const bench_stats *e = &S.st[SJ_SCALAR + 1][0], *a = &S.st[SJ_EBERLY][0];
    snprintf(fig, sizeof fig, "%.2f x faster (minima %.2f)", a->med / e->med, a->min / e->min);
    target(a->med / e->med >= 2.0, 1, "scalar exact, city 4096 in cache: >= 2 x faster than (a) Eberly", fig);
    const bench_stats *s = &S.st[SJ_MM][0], *g = &S.st[SJ_CGLM][0];
    if (S.have_cglm)
        snprintf(fig, sizeof fig, "%.2f x cglm's time (minima %.2f)", s->med / g->med, s->min / g->min);
    else
        snprintf(fig, sizeof fig, "cglm absent at build time");
    target(S.have_cglm && s->med <= g->med, S.have_cglm,
           "scalar conservative, world AABBs (min/max 24 B), city 4096: <= cglm", fig);
}
