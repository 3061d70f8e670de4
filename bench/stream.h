/* satc benchmarks: the roofline, plain reads of the same bytes
 * (stream.c, stream_avx2.c). */
#ifndef SATC_BENCH_STREAM_H
#define SATC_BENCH_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include "satc.h"

/* ------------------------------------------------------------------ */
/* Roofline: a streaming read of the same 15 arrays (stream.c)          */
/* ------------------------------------------------------------------ */

/* ORs the bits of all 15 arrays over boxes [first, first + n). */
uint32_t bench_stream(const satc_boxes *b, size_t first, size_t n);
/* Which loop bench_stream uses ("avx2", "sse2", "c"). */
const char *bench_stream_name(void);
/* ORs `bytes` contiguous bytes (a multiple of 4): one form's roofline. */
uint32_t bench_read(const void *p, size_t bytes);
#if defined(SATC_BENCH_STREAM_AVX2)
uint32_t bench_stream_avx2(const satc_boxes *b, size_t first, size_t n);
uint32_t bench_read_avx2(const void *p, size_t bytes);
#endif

#endif
