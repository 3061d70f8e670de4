/* The fuzz harness's entry, shared by the libFuzzer target and the plain
 * driver that replays the corpus in `meson test`. */
#ifndef SATC_FUZZ_CULL_H
#define SATC_FUZZ_CULL_H

#include <stddef.h>
#include <stdint.h>

/* Runs one input through every public entry point; returns the number of
 * violated rules (each printed to stdout). Never crashes on any input. */
int satc_fuzz_one(const uint8_t *data, size_t size);

/* What the inputs reached so far (for the driver's summary). */
typedef struct satc_fuzz_stats {
    long inputs, frusta_built, boxes, oracle_checked, oracle_cams, plane_volumes;
} satc_fuzz_stats;
extern satc_fuzz_stats satc_fuzz_counts;

#endif
