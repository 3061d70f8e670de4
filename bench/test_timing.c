/*
 * The benchmarks' sampling helpers: statistics leave the samples in round
 * order (the dispatch section pairs two jobs' samples round by round), the
 * thread clock advances with work, and SATC_BENCH_QUICK reads as a switch.
 * Prints "N passed, N failed"; exit status 1 on a failure.
 */
#include <stdio.h>
#include <stdlib.h>

#include "goals.h"
#include "timing.h"

static int passed, failed;

static void check(int ok, const char *what)
{
    if (ok)
        passed++;
    else
        failed++, printf("FAIL %s\n", what);
}

static void spin(void *p)
{
    volatile double *x = p;
    for (int i = 0; i < 20000; i++)
        *x = *x * 1.0000001 + 1e-9;
}

int main(void)
{
    double s[5] = {5, 1, 4, 2, 3};
    bench_stats st = bench_stats_from(s, 5);
    check(st.med == 3 && st.min == 1 && st.max == 5 && st.samples == 5, "median, min, max of 5 samples");
    check(s[0] == 5 && s[1] == 1 && s[2] == 4 && s[3] == 2 && s[4] == 3, "samples left in their order");
    double e[4] = {4, 1, 3, 2};
    check(bench_stats_from(e, 4).med == 2.5, "median of an even count");

    /* Two jobs sampled round-robin: each keeps its samples in round order,
     * so the dispatch section's per-round ratios pair the same rounds. */
    static bench_job jobs[2];
    volatile double x = 1;
    jobs[0].fn = jobs[1].fn = spin, jobs[0].ctx = jobs[1].ctx = (void *)&x;
    bench_time_jobs(jobs, 2, 1, 1, 7);
    bench_stats again = bench_stats_from(jobs[0].s, 7);
    check(again.med == jobs[0].st.med && again.min == jobs[0].st.min, "stats of the kept samples");
    check(jobs[0].st.preempted >= 0 && jobs[0].st.preempted <= 7, "preempted count within the samples");

    double c0 = bench_thread_ns();
    spin((void *)&x);
    check(bench_thread_ns() > c0, "the thread clock advances with work");

    setenv("SATC_BENCH_QUICK", "1", 1);
    check(bench_quick_env(), "SATC_BENCH_QUICK=1 asks for a quick run");
    setenv("SATC_BENCH_QUICK", "0", 1);
    check(!bench_quick_env(), "SATC_BENCH_QUICK=0 does not");
    unsetenv("SATC_BENCH_QUICK");
    check(!bench_quick_env(), "unset does not");

    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
