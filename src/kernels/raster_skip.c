/* Boxes behind what is drawn: the test that lets the box setups skip one
 * (raster/setup.c, kernels/raster_setup_wide.h), read from level 0 in
 * code every path shares, so the same boxes are skipped on each. */
#include <math.h>

#include "raster_view.h"

/* 1 when every texel of p's rectangle in rv->drawn (0 when it is NULL) holds a depth no
 * farther than zlo, a lower bound (world units) of the box's depth: the
 * fill would then change nothing. Any texel it writes (whole, or cells
 * of it) lies partly inside the silhouette, so its depth bound is no
 * nearer than the box's surface there, hence than zlo: a whole texel
 * keeps its value, and the merge leaves a texel alone that is no farther
 * than the bound (satc_rcov_open). Skipping is then exact, whatever the
 * tile or path. */
int satc_raster_box_hidden(const satc_rview *rv, const satc_rpoly *p, double zlo)
{
    if (!rv->drawn)
        return 0;
    float z = (float)zlo;
    if ((double)z > zlo)
        z = nextafterf(z, -INFINITY);
    /* a visible box fails fast: its center first, then the rows from the
     * top of the view (where the ground in front of it is not) */
    const float *at = rv->drawn + (size_t)((p->j0 + p->j1) / 2) * rv->width;
    if (!(at[(p->i0 + p->i1) / 2] <= z))
        return 0;
    for (int32_t j = p->j1; j-- > p->j0;) {
        const float *row = rv->drawn + (size_t)j * rv->width;
        int open = 0; /* a row without a branch per texel: the compiler vectorizes it */
        for (int32_t i = p->i0; i < p->i1; i++)
            open |= !(row[i] <= z);
        if (open)
            return 0;
    }
    return 1;
}
