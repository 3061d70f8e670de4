/* The human-readable tables, and the project's goals for them (printed
 * only with --goals; a missed goal never fails the run, but a goal
 * measured on a path whose output differs from scalar is never a PASS,
 * and the run then exits non-zero: see bench_any_mismatch). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "goals.h"
#include "report.h"

const char *const bench_scene_names[BENCH_SCENES] = {"city", "uniform", "boundary"};

const char *bench_mode_name(int mode)
{
    static const char *const names[BENCH_MODES] = {"conservative", "exact", "classification"};
    return mode >= 0 && mode < BENCH_MODES ? names[mode] : "unknown";
}

const char *bench_mode_short(int mode)
{
    static const char *const names[BENCH_MODES] = {"cons", "exact", "class"};
    return mode >= 0 && mode < BENCH_MODES ? names[mode] : "?";
}

const char *bench_path_name(int path) { return satc_isa_name((satc_isa)(1u << path)); }

const char *bench_size_label(size_t n) { return n == 1048576 ? "1M" : n == 4096 ? "4096" : "n"; }

size_t bench_popcount(const uint8_t *m, size_t bytes)
{
    size_t c = 0;
    for (size_t i = 0; i < bytes; i++)
        c += (size_t)__builtin_popcount(m[i]);
    return c;
}

size_t bench_andnot_count(const uint8_t *a, const uint8_t *b, size_t bytes)
{
    size_t c = 0;
    for (size_t i = 0; i < bytes; i++)
        c += (size_t)__builtin_popcount((unsigned)(a[i] & (uint8_t)~b[i]));
    return c;
}

/* ------------------------------------------------------------------ */

static void rule(void) { printf("%s\n", "-------------------------------------------------------------------------------------------------------------"); }

static void print_header(const bench_results *r)
{
    printf("\n== the tables: every path, mode and scene ==\n");
    printf("cpu: %s; best path: %s\nnative paths:", r->cpu, bench_path_name(r->best));
    for (int i = 0; i < r->npaths; i++)
        printf(" %s", bench_path_name(r->paths[i]));
    printf(" (compiled:");
    for (int p = 0; p < BENCH_PATHS; p++)
        if (r->compiled & (1u << p))
            printf(" %s", bench_path_name(p));
    printf("; emulated paths are not timed)\n");
    printf("run: %s; %d samples of ~1 ms per figure for 4096 boxes (in cache), %d single-pass samples for 1M\n"
           "     boxes (each after reading %zu MiB to evict the caches); median ns/box [min-max]\n",
           r->run, r->reps_cached, r->reps_memory, r->scrub_bytes >> 20);
    printf("roofline: OR of all 15 arrays (60 B/box), %s loop, in the same run on the same arrays\n",
           r->stream_name);
    printf("bytes/box: 60 read + output (bitmask 1/8 B; classes 1 B); GB/s = bytes/box / ns/box\n");
    printf("satc_isa_native() (called inside every satc_cull_batch[_isa] call): %.0f ns per call\n",
           r->cpuid_ns);
    printf("load average (1 min) at start %.2f, at end %.2f on %ld CPUs: other processes on these cores\n"
           "     slow some samples (see the min-max ranges)\n",
           r->load[0], r->load[1], sysconf(_SC_NPROCESSORS_ONLN));
    printf("cglm: %s\n", r->have_cglm ? bl_cglm_version() : "absent at build time: baseline (d) skipped");
}

static void print_satc(const bench_results *r, int s, int z)
{
    size_t n = r->sizes[z];
    const bench_stats *rf = &r->roof[s][z];
    printf("\n== %s, %zu boxes (%s) ==\n", bench_scene_names[s], n, z == 0 ? "in cache" : "from memory");
    printf("roofline %-12s %7.3f ns/box [%.3f-%.3f]  %7.1f GB/s\n", z == 0 ? "(in-cache)" : "(streaming)",
           rf->med, rf->min, rf->max, 60.0 / rf->med);
    printf("%-7s %-14s %8s %-17s %8s %6s %7s %6s %8s %8s\n", "path", "mode", "ns/box", "[min-max]", "Mbox/s",
           "B/box", "GB/s", "xroof", "xscalar", "visible");
    for (int pi = 0; pi < r->npaths; pi++) {
        int p = r->paths[pi];
        for (int m = 0; m < BENCH_MODES; m++) {
            const bench_cell *c = &r->cell[p][m][s][z];
            if (!c->done)
                continue;
            const bench_cell *sc = &r->cell[0][m][s][z];
            char range[32];
            bench_range(range, sizeof range, &c->ns);
            printf("%-7s %-14s %8.3f %-17s %8.1f %6.2f %7.2f %6.2f %8.2f %7.3f%%%s\n", bench_path_name(p),
                   bench_mode_name(m), c->ns.med, range, 1e3 / c->ns.med, c->bytes, c->bytes / c->ns.med,
                   c->ns.med / rf->med, sc->done ? sc->ns.med / c->ns.med : 0.0,
                   100.0 * (double)c->visible / (double)n,
                   r->mismatch[p][s][z] ? "  OUTPUT DIFFERS FROM SCALAR" : "");
        }
    }
    printf("conservative false positives (visible, exact-outside): %zu of %zu = %.3f%%\n", r->cons_fp[s][z], n,
           100.0 * (double)r->cons_fp[s][z] / (double)n);
}

static void print_baselines(const bench_results *r, int s, int z)
{
    size_t n = r->sizes[z];
    const bench_cell *ex = &r->cell[r->best][MODE_EXACT][s][z];
    const bench_cell *co = &r->cell[r->best][MODE_CONS][s][z];
    printf("baselines (per box, same flags, same scene; FN/FP against satc exact; satc speed-up on %s)\n",
           bench_path_name(r->best));
    /* Two tables of the same rows, so that each fits 120 columns: the
     * times, then the answers. */
    printf("%-46s %8s %-15s %7s %6s %6s %8s %8s\n", "baseline", "ns/box", "[min-max]", "Mbox/s", "B/box",
           "GB/s", "exact x", "cons x");
    for (int w = 0; w < BL_COUNT; w++) {
        const bench_base *b = &r->base[w][s][z];
        if (!b->done) {
            if (w == BL_CGLM)
                printf("%-46s skipped: cglm not found at build time\n", bl_label(w));
            continue;
        }
        char range[32];
        bench_range(range, sizeof range, &b->ns);
        printf("%-46s %8.3f %-15s %7.1f %6.2f %6.2f %8.1f %8.1f\n", bl_label(w), b->ns.med, range,
               1e3 / b->ns.med, b->bytes, b->bytes / b->ns.med, ex->done ? b->ns.med / ex->ns.med : 0.0,
               co->done ? b->ns.med / co->ns.med : 0.0);
    }
    printf("%-46s %8s %7s %8s %7s\n", "baseline", "visible", "FN", "FN true", "FP");
    for (int w = 0; w < BL_COUNT; w++) {
        const bench_base *b = &r->base[w][s][z];
        if (b->done)
            printf("%-46s %7.3f%% %7zu %8zu %7zu\n", bl_label(w), 100.0 * (double)b->visible / (double)n, b->fn,
                   b->fn_true, b->fp);
    }
    const bench_base *cg = &r->base[BL_CGLM][s][z];
    const fb_peer *peer = fb_peer_for((satc_isa)(1u << r->best));
    if (cg->done && peer)
        printf("(d) cglm, header-only, built %s for %s:\n    %.2f x the streaming read of its 24 B/box (%.3f ns)\n",
               peer->flags, bench_path_name(r->best), cg->ns.med / r->cglm_roof[s][z].med, r->cglm_roof[s][z].med);
    if (r->base[BL_HOFF][s][z].done)
        printf("Hoff as written (no box-edge completion) loses %zu visible boxes; its FN against satc exact: %zu "
               "(%zu true)\n",
               r->hoff_lost[s][z], r->hoff_fn_written[s][z], r->hoff_fn_written_true[s][z]);
    printf("(exact x / cons x: baseline time / satc exact / conservative time; FN true: of the FN, boxes the\n"
           " double-precision oracle says meet the frustum; the rest lie in satc's tolerance band)\n");
}

static void print_thread_table(const bench_results *r, const bench_stats thr[3][2], size_t n,
                               const char *where)
{
    printf("\n== threads: city, %zu boxes %s, %s, ranges split at multiples of 64 ==\n", n, where,
           bench_path_name(r->best));
    printf("%-14s %10s %-17s %9s%-2d %-17s %8s %12s %8s\n", "", "1 thread", "[min-max]", "threads=",
           r->nthreads, "[min-max]", "scaling", "N-thr roof", "xroof");
    for (int m = 0; m < 3; m++) {
        const bench_stats *a = &thr[m][0], *b = &thr[m][1];
        char ra[32], rb[32];
        snprintf(ra, sizeof ra, "[%.3g-%.3g]", a->min, a->max);
        snprintf(rb, sizeof rb, "[%.3g-%.3g]", b->min, b->max);
        printf("%-14s %10.3f %-17s %11.3f %-17s %8.2f %12.3f %8.2f\n",
               m == 2 ? "stream (roof)" : bench_mode_name(m), a->med, ra, b->med, rb, a->med / b->med,
               thr[2][1].med, b->med / thr[2][1].med);
    }
}

static void print_threads(const bench_results *r)
{
    if (r->threads_done)
        print_thread_table(r, r->thr, r->thr_n, "from memory");
    if (r->thr_cached_done)
        print_thread_table(r, r->thr_cached, r->thr_cached_n, "in cache (4096 per thread)");
    if (r->threads_done || r->thr_cached_done)
        printf("(ns per box of the whole batch; scaling = 1-thread time / N-thread time; with more cores,\n"
               " read the N-thread roof: culling at it means the memory bus, not the cores, is the limit)\n");
}

void bench_report(const bench_results *r)
{
    print_header(r);
    for (int s = 0; s < BENCH_SCENES; s++) {
        for (int z = 0; z < BENCH_SIZES; z++) {
            rule();
            print_satc(r, s, z);
            print_baselines(r, s, z);
        }
    }
    rule();
    print_threads(r);
}

/* ------------------------------------------------------------------ */

static bench_target *add(bench_target *t, int *k, double value, double limit, int le, int avail,
                         const char *note, const char *fig_fmt, const char *what_fmt, const char *a,
                         const char *b)
{
    bench_target *x = &t[(*k)++];
    memset(x, 0, sizeof *x);
    snprintf(x->what, sizeof x->what, what_fmt, a, b);
    snprintf(x->figure, sizeof x->figure, fig_fmt, value);
    snprintf(x->note, sizeof x->note, "%s", note);
    x->value = value, x->limit = limit, x->avail = avail, x->le = le;
    x->pass = avail && (le ? value <= limit : value >= limit);
    return x;
}

/* A figure from a path whose output differs from the scalar path's is not
 * a result: never PASS, say why. */
static void gate(bench_target *x, int bad, const char *path)
{
    if (!bad)
        return;
    x->pass = 0;
    snprintf(x->note, sizeof x->note, "NOT PASSED: %s output differs from scalar", path);
}

/* The SIMD paths' goals, tagged [simd]: per path where one is named,
 * else on the best native path. */
static int simd_targets(const bench_results *r, bench_target *t, int k)
{
    const int L = BENCH_SIZES - 1, best = r->best;
    const int pv[2] = {4, 2};             /* avx512, avx2 */
    const double in_cache[2] = {1.0, 1.6}, boundary[2] = {6.0, 8.0};
    for (int q = 0; q < 2; q++) {
        int p = pv[q], native = (r->native >> p) & 1u;
        const char *pn = bench_path_name(p), *note = native ? "" : "not native here";
        for (int s = 0; s < 2; s++) {
            const bench_cell *c = &r->cell[p][MODE_CONS][s][0];
            char what[96];
            snprintf(what, sizeof what, "[simd] conservative %%s, %%s, 4096 in cache: <= %.1f ns/box",
                     in_cache[q]);
            gate(add(t, &k, c->ns.med, in_cache[q], 1, native && c->done, note, "%.3f ns/box", what, pn,
                     bench_scene_names[s]),
                 r->mismatch[p][s][0], pn);
        }
        const bench_cell *e = &r->cell[p][MODE_EXACT][2][L];
        char what[96];
        snprintf(what, sizeof what, "[simd] exact %%s, %%s, 1M: <= %.0f ns/box", boundary[q]);
        gate(add(t, &k, e->ns.med, boundary[q], 1, native && e->done, note, "%.3f ns/box", what, pn,
                 bench_scene_names[2]),
             r->mismatch[p][2][L], pn);
    }
    const char *bn = bench_path_name(best);
    {
        const bench_cell *e = &r->cell[best][MODE_EXACT][0][0], *c = &r->cell[best][MODE_CONS][0][0];
        gate(add(t, &k, e->ns.med / c->ns.med, 1.2, 1, e->done && c->done, "", "%.2f x conservative",
                 "[simd] exact %s, %s, 4096 in cache: <= 1.2 x conservative", bn, bench_scene_names[0]),
             r->mismatch[best][0][0], bn);
    }
    for (int m = 0; m < 2; m++) {
        const bench_cell *c = &r->cell[best][m][0][L];
        gate(add(t, &k, c->ns.med / r->roof[0][L].med, 1.15, 1, c->done, "", "%.2f x roofline",
                 "[simd] %s, city, 1M from memory: <= 1.15 x the streaming roofline", bench_mode_name(m), ""),
             r->mismatch[best][0][L], bn);
    }
    for (int m = 0; m < 2; m++) {
        char what[112], fig[32];
        snprintf(what, sizeof what, "[simd] %d threads, %%s, city, 4096 per thread in cache: >= 1.85 x one thread",
                 r->nthreads);
        const bench_stats *one = &r->thr_cached[m][0], *all = &r->thr_cached[m][1];
        gate(add(t, &k, one->med / all->med, 1.85, 0, r->thr_cached_done, "", "%.2f x one thread", what,
                 bench_mode_name(m), ""),
             r->thr_mismatch, bn);
        snprintf(what, sizeof what, "[simd] %d threads, %%s, city, 1M from memory: <= 1.2 x the %d-thread roofline",
                 r->nthreads, r->nthreads);
        snprintf(fig, sizeof fig, "%s", "%.2f x roofline");
        gate(add(t, &k, r->thr[m][1].med / r->thr[2][1].med, 1.2, 1, r->threads_done, "", fig, what,
                 bench_mode_name(m), ""),
             r->thr_mismatch, bn);
    }
    return k;
}

int bench_targets(const bench_results *r, bench_target *t)
{
    int k = 0;
    int p = r->native & SATC_ISA_AVX2 ? 2 : r->best;
    char note[64] = "";
    if (p != 2)
        snprintf(note, sizeof note, "measured on %s: avx2 not native here", bench_path_name(p));
    const char *pn = bench_path_name(p);
    const int L = BENCH_SIZES - 1;

    for (int s = 0; s < BENCH_SCENES; s++) {
        const bench_cell *c = &r->cell[p][MODE_CONS][s][0];
        gate(add(t, &k, c->ns.med, 1.0, 1, c->done, note, "%.3f ns/box",
                 "conservative %s, %s, 4096 boxes: <= 1.0 ns/box", pn, bench_scene_names[s]),
             r->mismatch[p][s][0], pn);
    }
    for (int s = 0; s < BENCH_SCENES; s++) {
        const bench_cell *c = &r->cell[p][MODE_CONS][s][L];
        gate(add(t, &k, c->ns.med / r->roof[s][L].med, 1.15, 1, c->done, note, "%.2f x roofline",
                 "conservative %s, %s, 1M: <= 1.15 x streaming roofline", pn, bench_scene_names[s]),
             r->mismatch[p][s][L], pn);
    }
    for (int s = 0; s < 2; s++) {
        const bench_cell *e = &r->cell[p][MODE_EXACT][s][L], *c = &r->cell[p][MODE_CONS][s][L];
        const bench_base *a = &r->base[BL_EBERLY][s][L];
        gate(add(t, &k, e->ns.med / c->ns.med, 1.3, 1, e->done && c->done, note, "%.2f x conservative",
                 "exact %s, %s, 1M: <= 1.3 x conservative", pn, bench_scene_names[s]),
             r->mismatch[p][s][L], pn);
        gate(add(t, &k, a->ns.med / e->ns.med, 15.0, 0, e->done && a->done, note, "%.1f x faster",
                 "exact %s, %s, 1M: >= 15 x faster than (a) Eberly", pn, bench_scene_names[s]),
             r->mismatch[p][s][L], pn);
    }
    {
        const bench_cell *e = &r->cell[p][MODE_EXACT][2][L];
        const bench_base *a = &r->base[BL_EBERLY][2][L];
        gate(add(t, &k, e->ns.med, 8.0, 1, e->done, note, "%.3f ns/box", "exact %s, %s, 1M: <= 8 ns/box", pn,
                 bench_scene_names[2]),
             r->mismatch[p][2][L], pn);
        gate(add(t, &k, a->ns.med / e->ns.med, 15.0, 0, e->done && a->done, note, "%.1f x faster",
                 "exact %s, %s, 1M: >= 15 x faster than (a) Eberly", pn, bench_scene_names[2]),
             r->mismatch[p][2][L], pn);
    }
    /* Threads run on the best native path; "at the roofline" is read as
     * within the 1.15 factor of the single-thread target. */
    for (int m = 0; m < 2; m++) {
        const bench_stats *one = &r->thr[m][0], *two = &r->thr[m][1], *roof = &r->thr[2][1];
        double scaling = one->med / two->med, at_roof = two->med / roof->med;
        char pnote[64];
        if (r->best != 2)
            snprintf(pnote, sizeof pnote, "on %s, the best native path", bench_path_name(r->best));
        else
            pnote[0] = 0;
        bench_target *x = add(t, &k, scaling, 1.7, 0, r->threads_done, pnote, "%.2f x one thread",
                              "N threads, %s, city, 1M: >= 1.7 x one thread, or at the roofline (<= 1.15 x)",
                              bench_mode_name(m), "");
        if (r->threads_done) {
            snprintf(x->figure, sizeof x->figure, "%.2f x one thread; %.2f x 2-thread roof", scaling, at_roof);
            x->pass = scaling >= 1.7 || at_roof <= 1.15;
        }
        gate(x, r->thr_mismatch || r->mismatch[r->best][0][L], bench_path_name(r->best));
    }
    return simd_targets(r, t, k);
}

void bench_target_print(const bench_target *t, const char *tag)
{
    if (!t->avail)
        return;
    const char *what = t->what;
    char own[16] = "";
    /* A tag written at the start of the text ("[simd] ...") wins. */
    if (what[0] == '[' && sscanf(what, "[%15[^]]] ", own) == 1) {
        tag = own;
        what += strlen(own) + 2;
        while (*what == ' ')
            what++;
    }
    if (t->tag)
        tag = t->tag;
    int out_of_reach = t->bound > 0 && (t->le ? t->bound > t->limit : t->bound < t->limit);
    if (out_of_reach && !t->pass) {
        /* Print what is measured and the bound, not the goal. */
        const char *colon = strrchr(what, ':');
        int len = colon ? (int)(colon - what) : (int)strlen(what);
        bench_goal_bound(tag, "%.*s: %s; %s", len, what, t->figure, t->note);
        return;
    }
    if (t->note[0])
        bench_goal(t->pass, tag, "%-76s %s  (%s)", what, t->figure, t->note);
    else
        bench_goal(t->pass, tag, "%-76s %s", what, t->figure);
}

void bench_report_targets(const bench_results *r)
{
    if (!bench_goals_on())
        return;
    bench_target t[BENCH_MAX_TARGETS];
    int k = bench_targets(r, t);
    bench_goals_heading("the main tables (single thread unless stated)");
    for (int i = 0; i < k; i++)
        bench_target_print(&t[i], "cull");
}
