/* The views pass's shared prefilter (src/views_pre.c). */
#ifndef SATC_VIEWS_PRE_H
#define SATC_VIEWS_PRE_H

#include "passes.h"

/* Volumes per step of a pass (also its shared rows' length). */
#define SATC_PRE_STEP SATC_CHUNK
#define SATC_PRE_GROUPS (SATC_PRE_STEP / SATC_MICRO)

/* One chunk's bounds, ready for every view. */
typedef struct satc_pre {
    size_t ng;                           /* full micro groups */
    int whole;                           /* every volume in a finite group: the chunk box holds all */
    int any;                             /* some group is finite */
    unsigned char ok[SATC_PRE_GROUPS];   /* group g's volumes all finite */
    float c[3][SATC_PRE_GROUPS];         /* group g's box: center (float) */
    double need[3][SATC_PRE_GROUPS];     /* and the half size that holds its volumes */
    double lo[3], hi[3];                 /* the finite groups' box */
    double xs;                           /* their volumes' largest extra S term */
    float cc[3], ch[3];                  /* that box as a float center and half size */
} satc_pre;

/* From satc_bounds_fn's lo, hi, xs for ng groups of a chunk of n volumes
 * of form `form`. */
void satc_pre_chunk(satc_pre *p, const float *lo, const float *hi, const float *xs, size_t ng,
                    size_t n, satc_form form);

/* View f's words of the chunk [first, first + n) of b, as fn alone would
 * write them; fn_box: f's kernel for plain-array AABBs (the groups' boxes).
 * Returns how many volumes went to fn. */
size_t satc_pre_run(const satc_pre *p, satc_kernel_fn fn, satc_kernel_fn fn_box,
                  const satc_frustum *f, const satc_gview *gv, const satc_batch *b, size_t first,
                  size_t n, unsigned flags, uint64_t *vis, uint64_t *in);

#endif
