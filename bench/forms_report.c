/* The engine frame's table and its goals (PASS/MISS [forms] lines, with
 * --goals only); a path whose output differs from scalar never gets a
 * PASS. */
#include <stdio.h>
#include <string.h>

#include "forms.h"
#include "goals.h"
#include "report.h"

static double pct(size_t a, size_t b) { return b ? 100.0 * (double)a / (double)b : 0.0; }

/* satc's row way w is set against: the same instruction set as the way's
 * build (the AVX2 rows when the active path is not AVX2); Filament's
 * pass alone against conservative on the float3 AABB arrays, the others
 * against exact on the matrices. */
static int satc_on_avx2(const bench_frame *F, int w, int z)
{
    int pb = frame_base_peer(w);
    const fb_peer *p = pb < 0 ? NULL : fb_peer_get(pb);
    return p && p->isa == SATC_ISA_AVX2 && satc_isa_active() != SATC_ISA_AVX2 && F->sat2[0][z].done;
}

const frame_row *frame_satc_for(const bench_frame *F, int w, int z)
{
    int cull = frame_base_kind(w) == FB_FIL_CULL;
    if (satc_on_avx2(F, w, z))
        return &F->sat2[cull][z];
    return cull ? &F->cull[FR_AABB3][0][z] : &F->cull[FR_INST][1][z];
}

double frame_x_satc(const bench_frame *F, int w, int z)
{
    const frame_row *b = &F->base[w][z], *s = frame_satc_for(F, w, z);
    return b->x_satc > 0 ? b->x_satc : s->ns.med > 0 ? b->ns.med / s->ns.med : 0;
}

const char *frame_satc_isa_name(const bench_frame *F, int w)
{
    return satc_on_avx2(F, w, 0) ? satc_isa_name(SATC_ISA_AVX2) : F->path;
}

double frame_base_stream(const bench_frame *F, int w, int z)
{
    switch (frame_base_kind(w)) {
    case FB_TODAY: return F->roof[FR_INST][z].ns.med + F->roof[FR_OBB][z].ns.med;
    case FB_FILAMENT: return F->roof[FR_INST][z].ns.med + 2 * F->roof[FR_AABB3][z].ns.med;
    case FB_FIL_CULL: return F->roof[FR_AABB3][z].ns.med;
    default: return F->roof[FR_INST][z].ns.med;
    }
}

void bench_frame_report(const bench_results *r)
{
    const bench_frame *F = &r->frame;
    if (!F->done)
        return;
    for (int z = 0; z < BENCH_SIZES; z++) {
        size_t n = r->sizes[z];
        printf("\n== engine frame: city, %zu boxes %s; satc_cull on %s, bitmask out ==\n", n,
               z ? "from memory" : "in cache", F->path);
        printf("%-24s %5s %7s %8s %6s %8s %-15s %6s %7s %7s %7s %8s\n", "form", "B/box", "roof", "cons", "xroof",
               "exact", "[min-max]", "xroof", "FPcons", "FPc/OBB", "FPe/OBB", "visible");
        for (int f = 0; f < FR_FORMS; f++) {
            const frame_row *rf = &F->roof[f][z], *c = &F->cull[f][0][z], *e = &F->cull[f][1][z];
            char range[32];
            bench_range(range, sizeof range, &e->ns);
            printf("%-24s %5.0f %7.3f %8.3f %6.2f %8.3f %-15s %6.2f %6.2f%% %6.2f%% %6.2f%% %7.3f%%%s\n",
                   frame_form_name(f), frame_form_bytes(f), rf->ns.med, c->ns.med, c->ns.med / rf->ns.med, e->ns.med,
                   range, e->ns.med / rf->ns.med, pct(c->fp, c->visible), pct(c->fp_obb, c->visible),
                   pct(e->fp_obb, e->visible), pct(e->visible, n), F->mismatch[f] ? "  OUTPUT DIFFERS" : "");
        }
        /* The ways in two tables (times, then answers) to fit 120 columns. */
        printf("%-50s %6s %8s %-15s %8s %-7s %7s\n", "engine way (on the matrices unless said)", "B/box",
               "ns", "[min-max]", "x satc", "on", "xstream");
        for (int w = 0; w < FB_COUNT; w++) {
            const frame_row *b = &F->base[w][z];
            if (!b->done)
                continue;
            char range[32];
            bench_range(range, sizeof range, &b->ns);
            printf("%-50s %6.1f %8.3f %-15s %8.2f %-7s %7.2f\n", frame_base_name(w), frame_base_bytes(w),
                   b->ns.med, range, frame_x_satc(F, w, z), frame_satc_isa_name(F, w),
                   b->ns.med / frame_base_stream(F, w, z));
        }
        printf("%-50s %7s %7s %8s %5s %7s\n", "engine way", "FP", "FP/OBB", "visible", "FN", "FN true");
        for (int w = 0; w < FB_COUNT; w++) {
            const frame_row *b = &F->base[w][z];
            if (b->done)
                printf("%-50s %6.2f%% %6.2f%% %7.3f%% %5zu %7zu\n", frame_base_name(w), pct(b->fp, b->visible),
                       pct(b->fp_obb, b->visible), pct(b->visible, n), b->fn, b->fn_true);
        }
        if (z && F->fil_streams[z].done) {
            /* (b) from memory against the floor its own streams set */
            printf("%-50s %6s %8.3f ", "(b)'s streams copied, no arithmetic", "", F->fil_streams[z].ns.med);
            for (int w = 0; w < FB_COUNT; w++)
                if (frame_base_kind(w) == FB_FILAMENT && F->base[w][z].done && frame_base_peer(w) >= 0)
                    printf(" %s %.2fx", fb_peer_get(frame_base_peer(w))->name,
                           F->base[w][z].ns.med / F->fil_streams[z].ns.med);
            printf("\n");
        }
        if (F->helpers[z].done)
            printf("%-50s %6s %8.3f [%.3g-%.3g]\n", "satc_obb_from_matrix + satc_box_arrays_set alone", "",
                   F->helpers[z].ns.med, F->helpers[z].ns.min, F->helpers[z].ns.max);
    }
    for (int p = 0; p < PB_COUNT; p++)
        if (fb_peer_get(p))
            printf("(peer build %s: %s, -ffp-contract=off;\n Filament's passes by %s, the others by gcc)\n",
                   fb_peer_get(p)->name, fb_peer_get(p)->flags, fb_peer_get(p)->filament_cc);
    printf("(each way's ratio is to satc on the path named \"on\")\n");
    printf("(ns per box, median; roof: streaming read of the form's bytes; xroof: time / roof; FPcons: of the\n"
           " boxes conservative mode keeps, share exact mode on the same form culls; FPc/OBB, FPe/OBB: share\n"
           " satc exact on the true boxes (Eberly arrays) culls, i.e. the form's own looseness too; x satc:\n"
           " baseline time / satc exact on the matrices on the same instruction set ((b'): / satc conservative\n"
           " on the AABB float3 arrays); xstream: time / the streaming reads of the bytes the way reads (b: the\n"
           " matrices, the local boxes and the AABBs, its 24 B of writes not counted; b': the AABBs; c: the\n"
           " matrices; a: the matrices and the Eberly arrays); FP of a way: share of its kept boxes satc exact\n"
           " culls on the same data; FN: boxes satc exact keeps that the way culls, FN true: of those, boxes\n"
           " the double-precision oracle says meet the frustum)\n");
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
    x->value = v, x->limit = limit, x->avail = avail, x->le = le;
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
    /* The arithmetic from memory is at least the arithmetic in cache: the
     * in-cache time over the read bounds the ratio however well the two
     * overlap. */
    const frame_row *ic = &F->cull[FR_INST][1][S];
    if (!t[k - 1].pass && !t[k - 1].note[0] && ic->done && F->roof[FR_INST][L].ns.med > 0)
        snprintf(t[k - 1].note, sizeof t[k - 1].note, "the kernel in cache alone: %.2f x the read",
                 ic->ns.med / F->roof[FR_INST][L].ns.med);
    for (int w = FB_FILAMENT; w <= FB_FILAMENT_512; w++) {
        if (!F->base[w][L].done)
            continue;
        snprintf(what, sizeof what, "matrices 4x4 + 1 local AABB, exact, 1M: faster end to end than Filament's way (%s)",
                 fb_peer_get(frame_base_peer(w))->name);
        add(t, &k, idone, ibad, inote, &F->base[w][L].ns, &frame_satc_for(F, w, L)->ns, 1.0, 0, "faster", what);
    }
    add(t, &k, idone, ibad, inote, &F->base[FB_TODAY][L].ns, ie, 10.0, 0, "faster",
        "matrices 4x4 + 1 local AABB, exact, 1M: >= 10 x faster than today's helpers + cull");
    /* In cache against Filament's way built for the same instruction set.
     * What stands in the way shows in the same run: satc conservative on
     * the matrices is the loads and the plane tier every exact answer
     * starts with (the frame's centre, half axes, radii and S); when it
     * alone is slower than Filament's way, the exact test cannot win
     * without a cheaper loader. */
    for (int w = FB_FILAMENT; w <= FB_FILAMENT_512; w++) {
        const frame_row *sr = frame_satc_for(F, w, S);
        if (!F->base[w][S].done || !sr->done)
            continue;
        snprintf(what, sizeof what, "matrices 4x4 + 1 local AABB, exact, 4096: no slower than Filament's way (%s)",
                 fb_peer_get(frame_base_peer(w))->name);
        add(t, &k, 1, ibad, inote, &sr->ns, &F->base[w][S].ns, 1.0, 1, "Filament's way", what);
        const frame_row *cr = &F->cull[FR_INST][0][S];
        if (!t[k - 1].pass && !t[k - 1].note[0] && cr->done && !strcmp(frame_satc_isa_name(F, w), F->path))
            snprintf(t[k - 1].note, sizeof t[k - 1].note, "loads + plane tier alone (conservative): %.2f x",
                     cr->ns.med / F->base[w][S].ns.med);
    }

    const frame_row *ac = &F->cull[FR_AABB3][0][S], *ae = &F->cull[FR_AABB3][1][S];
    int abad = F->mismatch[FR_AABB3];
    for (int w = FB_FIL_CULL; w <= FB_FIL_CULL_512; w++) {
        if (!F->base[w][S].done)
            continue;
        snprintf(what, sizeof what, "AABB c/h float3 arrays, conservative, 4096: no slower than Filament's pass (%s)",
                 fb_peer_get(frame_base_peer(w))->name);
        add(t, &k, ac->done, abad, F->mismatch_note[FR_AABB3], &frame_satc_for(F, w, S)->ns, &F->base[w][S].ns,
            1.0, 1, "Filament's pass", what);
    }
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

    /* The [speed] goals against the peers built for the same instruction
     * set, 1M from memory. */
    for (int w = FB_FILAMENT; w <= FB_FILAMENT_512; w++) {
        if (!F->base[w][L].done)
            continue;
        const frame_row *sr = frame_satc_for(F, w, L);
        snprintf(what, sizeof what, "engine frame, 1M, exact on %s: >= 2.5 x faster than Filament's way built for %s",
                 frame_satc_isa_name(F, w), fb_peer_get(frame_base_peer(w))->name);
        add(t, &k, sr->done, ibad, inote, &F->base[w][L].ns, &sr->ns, 2.5, 0, "faster", what);
        t[k - 1].tag = "speed";
        /* The most any pass over the matrices can reach: Filament's way
         * against the bare streaming read of the 64 B matrices. */
        t[k - 1].bound = F->base[w][L].ns.med / F->roof[FR_INST][L].ns.med;
        if (!t[k - 1].note[0])
            snprintf(t[k - 1].note, sizeof t[k - 1].note, "the read of the matrices bounds it at %.2f x",
                     t[k - 1].bound);
    }
    for (int w = FB_FIL_CULL; w <= FB_FIL_CULL_512; w++) {
        if (!F->base[w][L].done)
            continue;
        const frame_row *sr = frame_satc_for(F, w, L);
        snprintf(what, sizeof what, "world AABBs (float3 arrays) conservative, 1M, %s: <= 0.5 x Filament's pass built for %s",
                 frame_satc_isa_name(F, w), fb_peer_get(frame_base_peer(w))->name);
        add(t, &k, sr->done, abad, F->mismatch_note[FR_AABB3], &sr->ns, &F->base[w][L].ns, 0.5, 1,
            "Filament's pass", what);
        t[k - 1].tag = "speed";
        /* Both passes read the same 24 B: no pass goes below that read. */
        t[k - 1].bound = F->roof[FR_AABB3][L].ns.med / F->base[w][L].ns.med;
        if (!t[k - 1].note[0])
            snprintf(t[k - 1].note, sizeof t[k - 1].note, "the read of the 24 B bounds it at %.2f x",
                     t[k - 1].bound);
    }
    {
        const frame_row *h = &F->helpers[L];
        bench_target *x = &t[k++];
        memset(x, 0, sizeof *x);
        snprintf(x->what, sizeof x->what, "satc_obb_from_matrix + satc_box_arrays_set, 1M: <= 40 ns per instance");
        /* The bound memory sets: the read of the 64 B matrix and of the
         * 60 B the arrays get (their write costs about twice a read). */
        snprintf(x->figure, sizeof x->figure, "%.1f ns (min %.1f; 4096: %.1f; read of its 124 B: %.1f)",
                 h->ns.med, h->ns.min, F->helpers[S].ns.med, frame_base_stream(F, FB_TODAY, L));
        x->value = h->ns.med, x->limit = 40.0, x->avail = h->done;
        x->pass = h->done && h->ns.med <= 40.0;
        x->tag = "speed";
    }
    return k;
}

void bench_frame_targets_print(const bench_results *r)
{
    if (!bench_goals_on())
        return;
    bench_target t[FRAME_MAX_TARGETS];
    int k = frame_targets(r, t);
    if (!k)
        return;
    bench_goals_heading("engine frame (single thread)");
    for (int i = 0; i < k; i++)
        bench_target_print(&t[i], "forms");
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
