/* The engine frame's table and its targets (issue 9): PASS/MISS [forms]
 * lines; a path whose output differs from scalar never gets a PASS. */
#include <stdio.h>
#include <string.h>

#include "bench.h"

static double pct(size_t a, size_t b) { return b ? 100.0 * (double)a / (double)b : 0.0; }

void bench_frame_report(const bench_results *r)
{
    const bench_frame *F = &r->frame;
    if (!F->done)
        return;
    for (int z = 0; z < BENCH_SIZES; z++) {
        size_t n = r->sizes[z];
        printf("\n== engine frame (issue 9): city, %zu boxes %s; satc_cull on %s, bitmask out ==\n", n,
               z ? "from memory" : "in cache", F->path);
        printf("%-26s %5s %7s %8s %6s %8s %-15s %6s %7s %7s %7s %8s\n", "form", "B/box", "roof", "cons", "xroof",
               "exact", "[min-max]", "xroof", "FPcons", "FPc/OBB", "FPe/OBB", "visible");
        for (int f = 0; f < FR_FORMS; f++) {
            const frame_row *rf = &F->roof[f][z], *c = &F->cull[f][0][z], *e = &F->cull[f][1][z];
            char range[32];
            snprintf(range, sizeof range, "[%.3g-%.3g]", e->ns.min, e->ns.max);
            printf("%-26s %5.0f %7.3f %8.3f %6.2f %8.3f %-15s %6.2f %6.2f%% %6.2f%% %6.2f%% %7.3f%%%s\n",
                   frame_form_name(f), frame_form_bytes(f), rf->ns.med, c->ns.med, c->ns.med / rf->ns.med, e->ns.med,
                   range, e->ns.med / rf->ns.med, pct(c->fp, c->visible), pct(c->fp_obb, c->visible),
                   pct(e->fp_obb, e->visible), pct(e->visible, n), F->mismatch[f] ? "  OUTPUT DIFFERS" : "");
        }
        const frame_row *ie = &F->cull[FR_INST][1][z];
        printf("%-46s %6s %8s %-15s %8s %7s %7s %8s %5s %7s\n", "engine way (on the matrices unless said)", "B/box",
               "ns", "[min-max]", "x satc", "FP", "FP/OBB", "visible", "FN", "FN true");
        for (int w = 0; w < FB_COUNT; w++) {
            const frame_row *b = &F->base[w][z];
            /* Filament's pass alone compares with satc on the same AABB arrays. */
            const frame_row *ref = w == FB_FIL_CULL ? &F->cull[FR_AABB3][0][z] : ie;
            char range[32];
            snprintf(range, sizeof range, "[%.3g-%.3g]", b->ns.min, b->ns.max);
            printf("%-46s %6.1f %8.3f %-15s %8.2f %6.2f%% %6.2f%% %7.3f%% %5zu %7zu\n", frame_base_name(w),
                   frame_base_bytes(w), b->ns.med, range, b->ns.med / ref->ns.med, pct(b->fp, b->visible),
                   pct(b->fp_obb, b->visible), pct(b->visible, n), b->fn, b->fn_true);
        }
    }
    printf("(ns per box, median; roof: streaming read of the form's bytes; xroof: time / roof; FPcons: of the\n"
           " boxes conservative mode keeps, share exact mode on the same form culls; FPc/OBB, FPe/OBB: share\n"
           " satc exact on the true boxes (Eberly arrays) culls, i.e. the form's own looseness too; x satc:\n"
           " baseline time / satc exact on the matrices ((b'): / satc conservative on the AABB float3 arrays);\n"
           " FP of a way: share of its kept boxes satc exact culls on the same data; FN: boxes satc exact keeps that\n"
           " the way culls, FN true: of those, boxes the double-precision oracle says meet the frustum)\n");
}

/* ------------------------------------------------------------------ */

/* Target on the ratio of two timings, a / b, judged on the medians. The
 * figure also gives the ratio of the minima: on a loaded machine most
 * 1M samples are preempted, and the minima show what the code can do. */
static void add(bench_target *t, int *k, int avail, int bad, const char *why, const bench_stats *a,
                const bench_stats *b, double limit, int le, const char *unit, const char *what)
{
    bench_target *x = &t[(*k)++];
    memset(x, 0, sizeof *x);
    double v = a->med / b->med;
    snprintf(x->what, sizeof x->what, "%s", what);
    snprintf(x->figure, sizeof x->figure, "%.2f x %s (minima: %.2f)", v, unit, a->min / b->min);
    x->value = v, x->limit = limit, x->avail = avail;
    x->pass = avail && !bad && (le ? v <= limit : v >= limit);
    if (bad)
        snprintf(x->note, sizeof x->note, "NOT PASSED: %.50s", why);
}

int frame_targets(const bench_results *r, bench_target *t)
{
    const bench_frame *F = &r->frame;
    if (!F->done)
        return 0;
    int k = 0;
    const int S = 0, L = BENCH_SIZES - 1;
    const bench_stats *ie = &F->cull[FR_INST][1][L].ns;
    int idone = F->cull[FR_INST][1][L].done, ibad = F->mismatch[FR_INST];
    const char *inote = F->mismatch_note[FR_INST];
    char what[112];

    add(t, &k, idone, ibad, inote, ie, &F->roof[FR_INST][L].ns, 1.3, 1, "the read",
        "matrices 4x4 + 1 local AABB, exact, 1M: <= 1.3 x streaming read of the matrices");
    add(t, &k, idone, ibad, inote, &F->base[FB_FILAMENT][L].ns, ie, 1.0, 0, "faster",
        "matrices 4x4 + 1 local AABB, exact, 1M: faster end to end than Filament's way");
    add(t, &k, idone, ibad, inote, &F->base[FB_TODAY][L].ns, ie, 10.0, 0, "faster",
        "matrices 4x4 + 1 local AABB, exact, 1M: >= 10 x faster than today's helpers + cull");

    const frame_row *ac = &F->cull[FR_AABB3][0][S], *ae = &F->cull[FR_AABB3][1][S];
    int abad = F->mismatch[FR_AABB3];
    add(t, &k, ac->done, abad, F->mismatch_note[FR_AABB3], &ac->ns, &F->base[FB_FIL_CULL][S].ns, 1.0, 1,
        "Filament's pass", "AABB c/h float3 arrays, conservative, 4096: no slower than Filament's 6-plane pass");
    add(t, &k, ae->done && ac->done, abad, F->mismatch_note[FR_AABB3], &ae->ns, &ac->ns, 1.3, 1, "conservative",
        "AABB c/h float3 arrays, exact, 4096: <= 1.3 x its conservative");

    const frame_row *sp = &F->cull[FR_SPHERE][0][L];
    add(t, &k, sp->done, F->mismatch[FR_SPHERE], F->mismatch_note[FR_SPHERE], &sp->ns, &F->roof[FR_SPHERE][L].ns,
        1.15, 1, "the read", "spheres 16 B, conservative, 1M: <= 1.15 x streaming read of 16 B/sphere");
    for (int f = 0; f < FR_FORMS; f++) {
        const frame_row *e = &F->cull[f][1][L];
        snprintf(what, sizeof what, "%s, exact, 1M: <= 1.5 x streaming read of its %.0f B", frame_form_name(f),
                 frame_form_bytes(f));
        add(t, &k, e->done, F->mismatch[f], F->mismatch_note[f], &e->ns, &F->roof[f][L].ns, 1.5, 1, "the read",
            what);
    }
    return k;
}

void bench_frame_targets_print(const bench_results *r)
{
    bench_target t[FRAME_MAX_TARGETS];
    int k = frame_targets(r, t);
    if (!k)
        return;
    printf("\n== engine-frame targets (issue 9; single thread; information only unless an output differs) ==\n");
    for (int i = 0; i < k; i++) {
        printf("%s [forms] %-84s %s", t[i].pass ? "PASS" : "MISS", t[i].what,
               t[i].avail ? t[i].figure : "not measured");
        if (t[i].note[0])
            printf("  (%s)", t[i].note);
        printf("\n");
    }
}

int bench_any_mismatch(const bench_results *r)
{
    int bad = r->thr_mismatch;
    for (int p = 0; p < BENCH_PATHS; p++)
        for (int s = 0; s < BENCH_SCENES; s++)
            for (int z = 0; z < BENCH_SIZES; z++)
                bad |= r->mismatch[p][s][z];
    for (int f = 0; f < FR_FORMS; f++)
        bad |= r->frame.mismatch[f];
    return bad;
}
