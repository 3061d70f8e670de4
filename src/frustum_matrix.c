/* Frustum from a view-projection matrix (RTR 22.14.1): in progress. */
#include "internal.h"

satc_status satc_frustum_from_matrix(satc_frustum *out, const float m[16], unsigned conventions)
{
    (void)conventions;
    if (!out || !m)
        return SATC_ERR_NULL;
    return SATC_ERR_MATRIX;
}
