/* A peer's occlusion test for the benchmark: one world AABB at a time as
 * Godot 4 describes its hierarchical-Z test (HZBuffer::_is_occluded):
 * the camera inside the box is visible; project the 8 corners with the
 * view-projection matrix, take the screen rectangle and the nearest view
 * depth, pick the level where the rectangle is about one texel
 * (ceil(log2 of its size in texels)), read the texels it covers there,
 * at most 512, and call it occluded when all are nearer. Written from
 * that description; built as Godot builds it (-O2, SSE2), on satc's
 * pyramid (the same texels and levels). */
#include <math.h>
#include <stddef.h>

#include "baseline_godot_hzb.h"

int godot_hzb_occluded(const godot_hzb *z, const float c[3], const float h[3])
{
    const float *e = z->eye;
    if (fabsf(e[0] - c[0]) <= h[0] && fabsf(e[1] - c[1]) <= h[1] && fabsf(e[2] - c[2]) <= h[2])
        return 0;
    float umin = 1e30f, umax = -1e30f, vmin = 1e30f, vmax = -1e30f, dmin = 1e30f;
    const float *m = z->vp; /* column-major, clip = M x */
    for (int q = 0; q < 8; q++) {
        float x = c[0] + ((q & 1) ? h[0] : -h[0]);
        float y = c[1] + ((q & 2) ? h[1] : -h[1]);
        float w3 = c[2] + ((q & 4) ? h[2] : -h[2]);
        float cx = m[0] * x + m[4] * y + m[8] * w3 + m[12];
        float cy = m[1] * x + m[5] * y + m[9] * w3 + m[13];
        float cw = m[3] * x + m[7] * y + m[11] * w3 + m[15];
        float d = z->dir[0] * (x - e[0]) + z->dir[1] * (y - e[1]) + z->dir[2] * (w3 - e[2]);
        if (cw <= z->near_z)
            return 0; /* reaches the near plane */
        float u = cx / cw * 0.5f + 0.5f, v = cy / cw * 0.5f + 0.5f;
        umin = u < umin ? u : umin, umax = u > umax ? u : umax;
        vmin = v < vmin ? v : vmin, vmax = v > vmax ? v : vmax;
        dmin = d < dmin ? d : dmin;
    }
    umin = umin < 0 ? 0 : umin, vmin = vmin < 0 ? 0 : vmin;
    umax = umax > 1 ? 1 : umax, vmax = vmax > 1 ? 1 : vmax;
    float sw = (umax - umin) * (float)z->level_w[0], sh = (vmax - vmin) * (float)z->level_h[0];
    float size = sw > sh ? sw : sh;
    int lod = size > 1 ? (int)ceilf(log2f(size)) : 0;
    lod = lod >= (int)z->levels ? (int)z->levels - 1 : lod;
    int w = (int)z->level_w[lod], hh = (int)z->level_h[lod];
    int x0 = (int)(umin * (float)w), x1 = (int)(umax * (float)w);
    int y0 = (int)(vmin * (float)hh), y1 = (int)(vmax * (float)hh);
    x1 = x1 >= w ? w - 1 : x1, y1 = y1 >= hh ? hh - 1 : y1;
    if ((x1 - x0 + 1) * (y1 - y0 + 1) > 512)
        return 0;
    const float *lv = z->depth + z->level_off[lod];
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++)
            if (lv[(size_t)y * (size_t)w + (size_t)x] >= dmin)
                return 0;
    return 1;
}

size_t godot_hzb_run(const godot_hzb *z, const uint32_t *idx, size_t n, const float *center,
                     const float *half)
{
    size_t occluded = 0;
    for (size_t k = 0; k < n; k++)
        occluded += (size_t)godot_hzb_occluded(z, center + 3 * (size_t)idx[k], half + 3 * (size_t)idx[k]);
    return occluded;
}
