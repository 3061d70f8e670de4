/* The per-frustum constants every loader uses (satc_fconsts: the plane
 * normals' world components, the frame's column norms, the slopes'
 * factors), computed once per call in one fixed order, so the scalar
 * reference and every vector layer read the same bits. */
#include <math.h>

#include "../core/internal.h"

void satc_frustum_consts(const satc_frustum *f, satc_fconsts *c)
{
    const float *L = f->frame[0], *U = f->frame[1], *D = f->frame[2];
    memset(c, 0, sizeof *c);
    for (int j = 0; j < 3; j++) {
        if (f->kind != SATC_FRUSTUM_PERSPECTIVE) {
            c->pabs[0][j] = fabsf(L[j]);
            c->pabs[1][j] = fabsf(U[j]);
            c->pabs[2][j] = fabsf(D[j]);
        } else {
            c->pabs[0][j] = fabsf(D[j]);
            c->pabs[1][j] = fabsf(L[j] - f->x1 * D[j]);
            c->pabs[2][j] = fabsf(L[j] - f->x0 * D[j]);
            c->pabs[3][j] = fabsf(U[j] - f->y1 * D[j]);
            c->pabs[4][j] = fabsf(U[j] - f->y0 * D[j]);
        }
        c->col1[j] = fabsf(L[j]) + fabsf(U[j]) + fabsf(D[j]);
    }
    if (f->kind != SATC_FRUSTUM_PERSPECTIVE) {
        c->norm2[0] = c->norm2[1] = c->norm2[2] = 1.0f;
    } else {
        const float s[5] = {0.0f, f->x1, f->x0, f->y1, f->y0};
        for (int k = 0; k < 5; k++)
            c->norm2[k] = sqrtf(1.0f + s[k] * s[k]);
        for (int k = 0; k < 4; k++)
            c->inv[k] = 1.0f / (1.0f + s[k + 1] * s[k + 1]);
    }
}
