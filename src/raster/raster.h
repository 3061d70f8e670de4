/* The occluder rasterizer's internals: occluders become convex screen
 * polygons set up in double (raster/setup.c, one code for every path),
 * whose texels the fill kernels test and write in float (raster/fill.c,
 * the reference; kernels/raster_fill.h, the SIMD paths, the same
 * expressions lane by lane). */
#ifndef SATC_RASTER_H
#define SATC_RASTER_H

#include "../kernels/raster_view.h"


/* Builds the mapping of a width x height level 0 over view f (perspective
 * or orthographic, checked by the caller), rows [row0, row1). */
void satc_rview_init(satc_rview *rv, const satc_frustum *f, uint32_t width, uint32_t height,
                     uint32_t row0, uint32_t row1, double min_texels, unsigned flags);

/* Volume i of b as the box the rasterizer draws, inside the volume
 * described: c* + sum s_j H[j] (|s_j| <= 1) lies in it, where c* is the
 * volume's exact center and |c[k] - c*[k]| <= *cerr (world units).
 * Returns 0 when no such box is drawn (a mesh id past the table, a TRS
 * scale of zero or a TRS box too thin for its rounding). */
int satc_occluder_box(const satc_batch *b, size_t i, double c[3], double H[3][3], double *cerr);

/* A box (center c, half axes H in world units, double; cerr bounds the
 * rounding of each component of c, 0 when c is stored) as up to 3 polygons (its
 * silhouette, or its front faces when it reaches the near plane): returns
 * how many it wrote into out[0..2]; 0 when skipped (non-finite, too
 * small, degenerate, outside the view or the rows). */
int satc_raster_setup_box(const satc_rview *rv, const double c[3], const double H[3][3],
                          double cerr, satc_rpoly out[3]);

/* The fastest build for path isa, or NULL where one box at a time is as
 * fast (every build gives the same bits). */
satc_raster_wide_fn satc_raster_wide_for(satc_isa isa);

/* A triangle with world vertices X[k] (double; mag[k] bounds the
 * magnitudes rounded into X[k], 0 when X[k] is a stored float): 1 when
 * it wrote *out, 0 when skipped (as for boxes, and back faces under
 * SATC_RASTER_CULL_BACK). */
int satc_raster_setup_tri(const satc_rview *rv, const double X[3][3], const double mag[3],
                          satc_rpoly *out);

/* Two triangles (world vertices A, B and their mag, as above) that
 * satc_raster_setup_tri drew as *pa and *pb, sharing an edge (two
 * bit-identical vertices), as the one polygon covering the texels split
 * between them: 1 when it wrote *out; 0 when skipped (no shared edge,
 * folded or unsure on screen, either reaching the near plane). */
int satc_raster_setup_pair(const satc_rview *rv, const double A[3][3], const double amag[3],
                           const satc_rpoly *pa, const double B[3][3], const double bmag[3],
                           const satc_rpoly *pb, satc_rpoly *out);

/* The fill of one runnable path, or NULL. */
satc_raster_fill_fn satc_raster_fill_for(satc_isa isa);

/* Rasterize occluders into a level 0 of width x height texels over view
 * (the public satc_pyramid_rasterize* with the pyramid unpacked), with
 * the given fill. Statuses as the public functions. */
satc_status satc_raster_batch_core(float *level0, uint32_t width, uint32_t height,
                                   const satc_frustum *view, const satc_batch *b, size_t first,
                                   size_t count, const satc_raster_options *o,
                                   satc_raster_fill_fn fill);
/* The volumes indices[0..n) of b, in that order (statuses as
 * satc_pyramid_rasterize_list). */
satc_status satc_raster_list_core(float *level0, uint32_t width, uint32_t height,
                                  const satc_frustum *view, const satc_batch *b,
                                  const uint32_t *indices, size_t n, const satc_raster_options *o,
                                  satc_raster_fill_fn fill);
satc_status satc_raster_mesh_core(float *level0, uint32_t width, uint32_t height,
                                  const satc_frustum *view, const satc_mesh *m,
                                  const satc_raster_options *o, satc_raster_fill_fn fill);

#endif
