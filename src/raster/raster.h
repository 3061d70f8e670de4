/* The occluder rasterizer's internals: occluders become convex screen
 * polygons set up in double (raster/setup.c, one code for every path),
 * whose texels the fill kernels test and write in float (raster/fill.c,
 * the reference; kernels/raster_fill.h, the SIMD paths, the same
 * expressions lane by lane). */
#ifndef SATC_RASTER_H
#define SATC_RASTER_H

#include "../core/internal.h"

/* Most edges of a polygon: a box's silhouette has 6; a face 4 and the
 * near edge; a triangle 3 and the near edge. */
#define SATC_RP_EDGES 6
/* Most depth planes: the front faces of a box. */
#define SATC_RP_PLANES 3

/*
 * One convex screen polygon in texel coordinates (u, v): column i spans
 * u in [i, i + 1], row j spans v in [j, j + 1]. With fi = (float)i and
 * fj = (float)j, every linear function g = (g0, g1, g2) is evaluated in
 * float as
 *     r = fl(g1 * fj + g2)  (once per row),   g(i, j) = fl(fl(g0 * fi) + r).
 * Texel (i, j) is covered when e[k](i, j) >= 0 for every edge k < ne
 * (NaN: not covered); it then takes the depth
 *     max over planes k < np of fl(z[k](i, j) / l[k](i, j))
 * when every l[k](i, j) > 0 (else it is left alone), raised by
 * fl(fl(|q| * 2^-21) + 2^-100), and stores the least of that and the
 * texel's value (a NaN texel counts as +Inf).
 * Setup folds into each constant term the texel corner where the function
 * is least (edges, l) or greatest (z), and a margin covering every
 * rounding, so in exact arithmetic over the texel's whole rectangle:
 * edges >= 0, l >= the value used, z <= the value used.
 */
typedef struct satc_rpoly {
    int32_t i0, i1, j0, j1; /* texels [i0, i1) x [j0, j1) may be covered */
    uint32_t ne, np;
    float e[SATC_RP_EDGES][3];
    float z[SATC_RP_PLANES][3];
    float l[SATC_RP_PLANES][3];
} satc_rpoly;

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
    double E[3], F[3][3];
    double min_texels;   /* smaller screen rectangles are skipped */
    unsigned flags;      /* SATC_RASTER_* */
} satc_rview;


/* Builds the mapping of a width x height level 0 over view f (perspective
 * or orthographic, checked by the caller), rows [row0, row1). */
void satc_rview_init(satc_rview *rv, const satc_frustum *f, uint32_t width, uint32_t height,
                     uint32_t row0, uint32_t row1, double min_texels, unsigned flags);

/* A box (center c, half axes H in world units, double; cerr bounds the
 * rounding of each component of c, 0 when c is stored) as up to 3 polygons (its
 * silhouette, or its front faces when it reaches the near plane): returns
 * how many it wrote into out[0..2]; 0 when skipped (non-finite, too
 * small, degenerate, outside the view or the rows). */
int satc_raster_setup_box(const satc_rview *rv, const double c[3], const double H[3][3],
                          double cerr, satc_rpoly out[3]);

/* A triangle with world vertices X[k] (double; mag[k] bounds the
 * magnitudes rounded into X[k], 0 when X[k] is a stored float): 1 when
 * it wrote *out, 0 when skipped (as for boxes, and back faces under
 * SATC_RASTER_CULL_BACK). */
int satc_raster_setup_tri(const satc_rview *rv, const double X[3][3], const double mag[3],
                          satc_rpoly *out);

/* Writes one polygon into level 0 (row stride rv->width floats). */
typedef void (*satc_raster_fill_fn)(const satc_rpoly *p, float *level0, uint32_t width);

void satc_raster_fill_ref(const satc_rpoly *p, float *level0, uint32_t width);
void satc_raster_fill_sse41(const satc_rpoly *p, float *level0, uint32_t width);
void satc_raster_fill_avx2(const satc_rpoly *p, float *level0, uint32_t width);
void satc_raster_fill_avx512(const satc_rpoly *p, float *level0, uint32_t width);
void satc_raster_fill_avx512_emu(const satc_rpoly *p, float *level0, uint32_t width);
void satc_raster_fill_neon(const satc_rpoly *p, float *level0, uint32_t width);
void satc_raster_fill_simd128(const satc_rpoly *p, float *level0, uint32_t width);

/* The fill of one runnable path, or NULL. */
satc_raster_fill_fn satc_raster_fill_for(satc_isa isa);

/* Rasterize occluders into a level 0 of width x height texels over view
 * (the public satc_pyramid_rasterize* with the pyramid unpacked), with
 * the given fill. Statuses as the public functions. */
satc_status satc_raster_batch_core(float *level0, uint32_t width, uint32_t height,
                                   const satc_frustum *view, const satc_batch *b, size_t first,
                                   size_t count, const satc_raster_options *o,
                                   satc_raster_fill_fn fill);
satc_status satc_raster_mesh_core(float *level0, uint32_t width, uint32_t height,
                                  const satc_frustum *view, const satc_mesh *m,
                                  const satc_raster_options *o, satc_raster_fill_fn fill);

#endif
