/* The rasterizer's view and the box setup's shared pieces, below the
 * drivers (raster/) so the vector layers can build the wide box setup
 * (kernels/raster_setup_wide.h) and the skip (kernels/raster_skip.c). */
#ifndef SATC_K_RASTER_VIEW_H
#define SATC_K_RASTER_VIEW_H

#include <string.h>

#include "raster_poly.h"

/* The view as the rasterizer maps it, in double: direction (or, for an
 * orthographic view, position) a = a0 + ak u, b = b0 + bk v across the
 * texels; frame rows F (L, U, D) and origin E of the view. */
typedef struct satc_rview {
    int ortho;
    uint32_t width, height; /* level-0 texels */
    int32_t row0, row1;     /* rows written: [row0, row1) */
    double a0, ak, b0, bk;
    double n;     /* near distance along D */
    double S;     /* max |a| + max |b| over the view (+ 1 for perspective) */
    double W1, H1, tinyWH; /* width + 1, height + 1, 2^-60 (width + height + 2) */
    double E[3], F[3][3];
    double min_texels;   /* smaller screen rectangles are skipped */
    unsigned flags;      /* SATC_RASTER_* and SATC_RVIEW_CELLS */
    double borg[2], blim[2]; /* |a0|, |b0|; 15/16 of the least covering width in a, b */
    /* The level 0 being drawn (row stride width), read by the box setup
     * to skip a box that cannot change it; NULL: never skipped. */
    const float *drawn;
} satc_rview;

/* Not a public flag: the draw merges coverage, so a polygon narrower
 * than a texel but wider than a cell (1/4 texel) may still cover cells
 * and is set up; without it such polygons cover nothing and are skipped. */
#define SATC_RVIEW_CELLS 0x80000000u


/* 1 when every texel of p's rectangle in rv->drawn holds a depth no
 * farther than zlo, a lower bound of a box's depth (world units): its
 * fill could then change nothing and the box setup skips it. */
int satc_raster_box_hidden(const satc_rview *rv, const satc_rpoly *p, double zlo);

/* A box occluder as satc_occluder_box gives it. */
typedef struct satc_rbox {
    double c[3], H[3][3], cerr;
} satc_rbox;

/* Boxes in[0..n) (n <= 8) set up at once. With first = 0: st[l] = 1
 * when out[l][0] holds the polygon satc_raster_setup_box() would write
 * for box l (bit for bit) and the box is drawn unless
 * satc_raster_box_hidden(rv, out[l], zlo[l]); 0 when it draws nothing;
 * 2 when only satc_raster_setup_box() can tell. With first = 1, only as
 * far as the box's rectangle and the skip: 0 when the box draws nothing
 * or is skipped now, 3 when it goes on, 2 as above (the rest of out
 * and zlo unset). Perspective views only (every lane 2 otherwise). */
#define SATC_RASTER_WIDE_FN(name)                                                                  \
    void name(const satc_rview *rv, const satc_rbox *in, int n, satc_rpoly (*out)[3], double *zlo, \
              int8_t *st, int first)
typedef SATC_RASTER_WIDE_FN((*satc_raster_wide_fn));
SATC_RASTER_WIDE_FN(satc_raster_setup_wide_base);
SATC_RASTER_WIDE_FN(satc_raster_setup_wide_avx2);
SATC_RASTER_WIDE_FN(satc_raster_setup_wide_avx512);
#endif
