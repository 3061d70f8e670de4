/* satc benchmarks: every part of the harness, for the driver (bench.c)
 * and for a new section that needs most of them. The parts include only
 * what they use, lowest first: timing.h, stream.h, baselines.h,
 * threads.h, results.h, report.h, forms.h, scalar.h; goals.h (the goals
 * switch) stands alone. Nothing here is a test. */
#ifndef SATC_BENCH_H
#define SATC_BENCH_H

#include "baselines.h"
#include "forms.h"
#include "oracle.h"
#include "report.h"
#include "results.h"
#include "scalar.h"
#include "stream.h"
#include "threads.h"
#include "timing.h"

#endif
