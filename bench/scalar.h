/* satc benchmarks: the scalar path's section (scalar.c). */
#ifndef SATC_BENCH_SCALAR_H
#define SATC_BENCH_SCALAR_H

#include "results.h"
#include "scenes.h"

/* The scalar path against the reference and the per-box peers (scalar.c):
 * run on the city scene of size index z; the report prints the [speed]
 * goals (bench_scalar_goals) and returns 1 when the scalar path's output differs. */
void bench_scalar_run(const bench_results *R, const scn_scene *sc, int z);
int bench_scalar_report(void);
void bench_scalar_goals(void);

#endif
