/* satc benchmarks: satc_bench's output: summary, tables, goals, JSON,
 * chart (summary.c, report.c, json.c, svg.c). */
#ifndef SATC_BENCH_REPORT_H
#define SATC_BENCH_REPORT_H

#include "results.h"

#define BENCH_MAX_TARGETS 40
int bench_targets(const bench_results *r, bench_target *t);

/* Three lines first: what satc is and its ratio to the fastest other way
 * on this machine (summary.c). */
void bench_headline(const bench_results *r);
/* The ten-second summary printed before the tables (summary.c). */
void bench_summary(const bench_results *r);
void bench_report(const bench_results *r);
void bench_report_targets(const bench_results *r);
int bench_write_json(const bench_results *r, const char *path);
int bench_write_svg(const bench_results *r, const char *path);

/* Prints one target as a goal line (goals.h; nothing when goals are off):
 * PASS/MISS, or BOUND with the figure and the bound when `bound` shows
 * the limit out of reach; targets not measured here are left out. */
void bench_target_print(const bench_target *t, const char *tag);

#endif
