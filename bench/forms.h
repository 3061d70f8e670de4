/* satc benchmarks: the engine frame, the city in every form an engine
 * stores (forms.c runs it, forms_report.c prints it). */
#ifndef SATC_BENCH_FORMS_H
#define SATC_BENCH_FORMS_H

#include "report.h"
#include "scenes.h"

/* The peer build of way w (PB_*), -1 for today's way; the way's kind (the
 * enum's first of its pair: FB_FILAMENT, FB_FIL_CULL, FB_BEVY). */
int frame_base_peer(int w);
int frame_base_kind(int w);

const char *frame_form_name(int form);
double frame_form_bytes(int form);   /* bytes read per box */
const char *frame_base_name(int which);
double frame_base_bytes(int which); /* read + written per box, output included */
/* satc's row way w is compared with (same instruction set), its path's
 * name, and the streaming read of the bytes the way reads (ns per box). */
const frame_row *frame_satc_for(const bench_frame *F, int w, int z);
const char *frame_satc_isa_name(const bench_frame *F, int w);
/* Way w's time over that satc row's: the median of the per-round ratios
 * (the medians' ratio when the samples were not paired). */
double frame_x_satc(const bench_frame *F, int w, int z);
double frame_base_stream(const bench_frame *F, int w, int z);

/* The engine frame's goals, printed PASS/MISS [forms] with --goals. */
#define FRAME_MAX_TARGETS 28
int frame_targets(const bench_results *r, bench_target *t);
/* Runs the engine frame on the city scene of size index z (forms.c). */
void bench_frame_run(bench_results *R, const scn_scene *sc, int z);
void bench_frame_report(const bench_results *r);
void bench_frame_targets_print(const bench_results *r);
/* Nonzero when some output differed from the scalar path's (a bug). */
int bench_any_mismatch(const bench_results *r);

#endif
