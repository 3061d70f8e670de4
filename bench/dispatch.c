/*
 * satc_bench_dispatch: is the default path the fastest one compiled in?
 * Every main row of satc_bench (the scenes' table, the engine frame's
 * forms), satc_bench_views (the view sets, the camera alone, the group
 * bounds) and satc_bench_queries, timed on the default path and on every
 * native path, in interleaved rounds; per row the default path's time
 * over the fastest path that runs other kernels (a path whose kernels the
 * default runs is timed once, as the default). Figures are information
 * only; goal lines (`PASS [dispatch]` / `MISS [dispatch]`: the default
 * path within 5 % of that path) print only with the goals switch
 * (goals.h).
 *
 *   satc_bench_dispatch [--quick] [--goals] [--reps N] [--only bench|views|queries] [--match TEXT]
 *                       [--narrow OPS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h" /* satc_dispatch_ops_for: the per-family table */
#include "dispatch_rows.h"
#include "goals.h"


/* The path the default entry points run: 0 = the library's own choice,
 * else SATC_ISA names one (read again by satc_isa_set_mask). Set only
 * when it changes, so a sample of many passes pays it once. */
static unsigned cur_path = ~0u;

static void use_path(unsigned isa)
{
    if (isa == cur_path)
        return;
    if (isa)
        setenv("SATC_ISA", satc_isa_name((satc_isa)isa), 1);
    else
        unsetenv("SATC_ISA");
    satc_isa_set_mask(satc_isa_compiled());
    cur_path = isa;
}

typedef struct pjob {
    const drow *row;
    unsigned isa;
} pjob;

static void run_on_path(void *p)
{
    pjob *j = p;
    use_path(j->isa);
    j->row->fn(j->row->ctx);
}

#define NPATHS 6

/* The forced path (index into paths) whose kernel table the default
 * entry points use for a call on n volumes, or -1 (a table mixing two
 * paths, per operation). Timing the two would time one code twice. */
static int same_kernels(const unsigned *paths, unsigned np, size_t n)
{
    use_path(0);
    const satc_kernels *d = satc_kernels_default_n(n);
    for (unsigned p = 0; p < np; p++) {
        const satc_kernels *k = satc_kernels_for((satc_isa)paths[p]);
        if (k && (k == d || !memcmp(k, d, sizeof *k)))
            return (int)p;
    }
    return -1;
}

/* A verdict this near the 5 % line (the per-round ratio within 10 % of
 * 1.05 either way) gets CLOSE_MORE x reps further rounds of the two
 * paths it compares. */
#define CLOSE_MORE 2
static int close_call(double ratio) { return ratio > 1.05 / 1.10 && ratio < 1.05 * 1.10; }

/* Times rows [from, rs->n) (those whose name contains match; all when
 * match is NULL) on the default path and every native path whose kernels
 * it does not run itself (round-robin, reps samples each, close calls
 * more) and prints them; the goal lines, `PASS [dispatch]` / `MISS
 * [dispatch]`, when the goals switch is on. Returns the number of rows
 * whose default path is more than 5 % over the fastest other path. */
static int dispatch_time(const drows *rs, int from, int reps, const char *match)
{
    unsigned paths[NPATHS], np = 0;
    for (unsigned isa = SATC_ISA_SCALAR; isa <= SATC_ISA_SIMD128; isa <<= 1)
        if (satc_isa_native() & isa)
            paths[np++] = isa;
    static bench_job jobs[NPATHS + 1], two[2];
    pjob pj[NPATHS + 1];
    int slow = 0, w = 8, more = 0;
    double worst = 0;
    const char *worst_row = "";
    for (int i = from; i < rs->n; i++)
        w = (int)strlen(rs->r[i].name) > w ? (int)strlen(rs->r[i].name) : w;
    /* Lines keep to 120 columns: the figures take 8 per path plus 23; a
     * longer name goes on a line of its own, above its figures. */
    int wmax = 120 - 8 * ((int)np + 1) - 23;
    if (w > wmax)
        w = wmax;
    int rows = 0;
    printf("%-*s %7s", w, w >= 27 ? "row (ns per volume, median)" : "row (ns/volume)", "default");
    for (unsigned p = 0; p < np; p++)
        printf(" %7s", satc_isa_name((satc_isa)paths[p]));
    printf(" %-7s %s\n", "fastest", "default/other");
    static struct {
        int pass;
        char text[240];
    } lines[DROW_MAX];
    int nl = 0;
    for (int i = from; i < rs->n; i++) {
        const drow *r = &rs->r[i];
        if (match && !strstr(r->name, match))
            continue;
        rows++;
        /* jobs[0]: the default path; jobs[1 + q]: path at[q] */
        int same = same_kernels(paths, np, r->n), nj = 1;
        unsigned at[NPATHS];
        memset(jobs, 0, sizeof jobs);
        pj[0].row = r, pj[0].isa = 0;
        for (unsigned p = 0; p < np; p++)
            if ((int)p != same)
                at[nj - 1] = p, pj[nj].row = r, pj[nj].isa = paths[p], nj++;
        for (int j = 0; j < nj; j++)
            jobs[j].fn = run_on_path, jobs[j].ctx = &pj[j];
        bench_time_rounds(jobs, nj, r->n, r->cached, 0, reps);
        int q = 1; /* the fastest other path by medians */
        for (int j = 2; j < nj; j++)
            if (jobs[j].st.med < jobs[q].st.med)
                q = j;
        double ratio = bench_paired_ratio(jobs[0].s, jobs[q].s, reps);
        int rounds = reps;
        if (close_call(ratio)) {
            two[0] = jobs[0], two[1] = jobs[q];
            bench_time_rounds(two, 2, r->n, r->cached, reps, CLOSE_MORE * reps);
            rounds = reps + CLOSE_MORE * reps;
            ratio = bench_paired_ratio(two[0].s, two[1].s, rounds);
            jobs[0].st = two[0].st, jobs[q].st = two[1].st;
            more++;
        }
        double rmin = jobs[0].st.min / jobs[q].st.min;
        const char *other = satc_isa_name((satc_isa)paths[at[q - 1]]);
        const char *fastest = ratio > 1 ? other : same >= 0 ? satc_isa_name((satc_isa)paths[same]) : "default";
        if ((int)strlen(r->name) > w)
            printf("%s\n%-*s %7.3f", r->name, w, "", jobs[0].st.med);
        else
            printf("%-*s %7.3f", w, r->name, jobs[0].st.med);
        for (unsigned p = 0, j = 1; p < np; p++)
            if ((int)p == same)
                printf(" %7s", "default");
            else
                printf(" %7.3f", jobs[j++].st.med);
        printf(" %-7s %.2f x, %.2f x\n", fastest, ratio, rmin);
        fflush(stdout);
        int pass = ratio <= 1.05;
        slow += !pass;
        if (ratio > worst)
            worst = ratio, worst_row = r->name;
        char kern[40] = "", extra[32] = "";
        if (same >= 0)
            snprintf(kern, sizeof kern, " (= %s)", satc_isa_name((satc_isa)paths[same]));
        if (rounds > reps)
            snprintf(extra, sizeof extra, " (%d rounds)", rounds);
        lines[nl].pass = pass;
        snprintf(lines[nl++].text, sizeof lines[0].text,
                 "%s: default path%s within 5 %% of the fastest other (%s): %.2f x%s", r->name, kern,
                 other, ratio, extra);
    }
    use_path(0);
    if (rows)
        printf("(a path whose kernels the default path runs is timed once, as `default`; default/other:\n"
               " the default path's time over the fastest path running other kernels, the median of the\n"
               " per-round ratios, then the ratio of the minima; %d of %d rows, near 1.05, with %d more rounds;\n"
               " worst: %s, %.2f x)\n",
               more, rows, CLOSE_MORE * reps, worst_row, worst);
    else
        printf("(no row of this program matches)\n");
    bench_goals_heading("dispatch");
    for (int i = 0; i < nl; i++)
        bench_goal(lines[i].pass, "dispatch", "%s", lines[i].text);
    return slow;
}

/* The CPU, as the dispatcher sees it: vendor, family and model. */
static void print_cpu(void)
{
    char buf[128] = "";
    const char *table = buf;
    char vendor[13];
    unsigned fam, model;
    if (satc_cpu_signature(vendor, &fam, &model)) {
        printf("cpu: %s family %02Xh model %02Xh; ", vendor, fam, model);
        /* The per-family table applies only where AVX-512 is the default
         * and AVX2 runs too (not on Zen 2, family 17h: no AVX-512). */
        unsigned small = satc_dispatch_ops_for(vendor, fam, model, 0),
                 large = satc_dispatch_ops_for(vendor, fam, model, 1);
        if (!(satc_isa_native() & SATC_ISA_AVX512))
            table = "per-CPU table: not used (no native AVX-512)";
        else if (!small && !large)
            table = "per-CPU table: no entry for this CPU (AVX-512 for every operation)";
        else
            snprintf(buf, sizeof buf,
                     "per-CPU table: on AVX2 operations 0x%03X below %u volumes, 0x%03X from %u (%s)",
                     small, SATC_DISPATCH_LARGE, large, SATC_DISPATCH_LARGE,
                     satc_dispatch_narrow(0) | satc_dispatch_narrow(1) ? "in use" : "not in use");
    }
    printf("native paths:");
    for (unsigned isa = SATC_ISA_SCALAR; isa <= SATC_ISA_SIMD128; isa <<= 1)
        if (satc_isa_native() & isa)
            printf(" %s", satc_isa_name((satc_isa)isa));
    printf("; default: %s\n", satc_isa_name(satc_isa_active()));
    if (table[0])
        printf("%s\n", table);
}

static double loadavg(void)
{
    double v = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &v) != 1)
            v = -1;
        fclose(f);
    }
    return v;
}

int main(int argc, char **argv)
{
    int quick = 0, reps = 0;
    unsigned long narrow = ~0ul;
    const char *only = NULL, *match = NULL;
    bench_goals_init(&argc, argv);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--match") && i + 1 < argc)
            match = argv[++i];
        else if (!strcmp(argv[i], "--narrow") && i + 1 < argc)
            narrow = strtoul(argv[++i], NULL, 0);
        else {
            return bench_usage(argv[i], argv[0],
                    "usage: %s [--quick] [--goals] [--reps N] [--only bench|views|queries] [--match TEXT]\n"
                    "       [--narrow OPS]\n"
                    "  --quick  64 Ki volumes from memory, few samples (smoke run)\n"
                    "  --goals  also print the [dispatch] goal lines (as SATC_BENCH_GOALS=1 does)\n"
                    "  --reps   samples per figure (default 7; --quick 3)\n"
                    "  --only   the rows of one program\n"
                    "  --match  only the rows whose name contains TEXT\n"
                    "  --narrow OPS  the default path as if this CPU's table named OPS (core/internal.h's\n"
                    "           SATC_OP_* bits, 0xFFE all) on AVX2 (a default known to be slow, to check\n"
                    "           that the comparison sees it)\n");
        }
    }
    quick |= bench_quick_env();
    if (reps <= 0)
        reps = quick ? 3 : 7;
    size_t large = quick ? 65536 : 1048576;
    unsetenv("SATC_ISA"); /* the default path is the library's own choice */
    if (narrow != ~0ul)
        satc_dispatch_override((unsigned)narrow);
    bench_scrub_init();
    printf("satc dispatch: every main row on the default path and on every native path\n");
    print_cpu();
    printf("%d samples per figure, round-robin; in cache: ~1 ms samples of 4096 volumes; from memory:\n"
           "one pass of %zu after a cache scrub; load average (1 min) at start %.2f\n", reps, large, loadavg());
    void (*const build[3])(drows *, size_t) = {dispatch_rows_bench, dispatch_rows_views, dispatch_rows_queries};
    static const char *const prog[3] = {"bench", "views", "queries"};
    static drows rs;
    int slow = 0;
    for (int p = 0; p < 3; p++) {
        if (only && strcmp(only, prog[p]))
            continue;
        int from = rs.n;
        printf("\n== the rows of satc_bench%s%s ==\n", p ? "_" : "", p ? prog[p] : "");
        build[p](&rs, large);
        slow += dispatch_time(&rs, from, reps, match);
        dispatch_rows_free();
    }
    printf("\nload average (1 min) at end %.2f\n", loadavg());
    if (bench_goals_on())
        printf("%d rows with the default path more than 5 %% over the fastest other path\n", slow);
    bench_scrub_free();
    return 0;
}
