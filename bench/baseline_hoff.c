/*
 * Baseline (b): Hoff's vertex method, world space, float:
 *  1-3. the eight box vertices get in/out codes against the planes in the
 *       order near, left, right, bottom, top, far; trivial reject as soon
 *       as all eight are out of one plane;
 *  4.   trivial accept when a vertex is inside all six;
 *  5.1  the 12 frustum edges against the box (the segment/OBB separating
 *       axis test, six axes, in the box's frame);
 *  5.2  containment of the frustum in the box: a frustum point inside the
 *       box (Hoff names the frustum origin; the apex lies outside the
 *       frustum, so the near-plane center is used);
 *  and the completion the method lacks: the 12 box edges clipped against
 *  the frustum's planes (a box edge through a frustum face, no vertex of
 *  either solid inside the other). The out-code distances are reused.
 */
#include <math.h>

#include "baselines.h"

static inline float dot3(const float *a, const float *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* Segment [p, q] against the box (separating axes: 3 box axes, 3 cross axes). */
static int segment_meets_box(const satc_obb *b, const float *p, const float *q)
{
    float mid[3], half[3];
    for (int k = 0; k < 3; k++) {
        mid[k] = 0.5f * (p[k] + q[k]) - b->center[k];
        half[k] = 0.5f * (q[k] - p[k]);
    }
    float t[3], h[3];
    for (int i = 0; i < 3; i++) {
        t[i] = dot3(mid, b->axis[i]);
        h[i] = dot3(half, b->axis[i]);
    }
    const float *e = b->extent;
    if (fabsf(t[0]) > e[0] + fabsf(h[0]) || fabsf(t[1]) > e[1] + fabsf(h[1]) ||
        fabsf(t[2]) > e[2] + fabsf(h[2]))
        return 0;
    if (fabsf(t[1] * h[2] - t[2] * h[1]) > e[1] * fabsf(h[2]) + e[2] * fabsf(h[1]))
        return 0;
    if (fabsf(t[2] * h[0] - t[0] * h[2]) > e[0] * fabsf(h[2]) + e[2] * fabsf(h[0]))
        return 0;
    if (fabsf(t[0] * h[1] - t[1] * h[0]) > e[0] * fabsf(h[1]) + e[1] * fabsf(h[0]))
        return 0;
    return 1;
}

/* Frustum edges: near rectangle, far rectangle, four lateral edges. */
static const unsigned char fedge[12][2] = {{0, 1}, {1, 3}, {3, 2}, {2, 0}, {4, 5}, {5, 7},
                                           {7, 6}, {6, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};

int bl_hoff_box(const bl_frustum *bf, const satc_obb *b)
{
    float ea[3][3], v[8][3], dist[6][8];
    unsigned code[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            ea[i][k] = b->extent[i] * b->axis[i][k];
    /* Vertex k: C + sum_i s_i e_i A_i, s_i = +1 when bit i of k is set. */
    for (int k = 0; k < 8; k++) {
        for (int c = 0; c < 3; c++) {
            float x = b->center[c];
            x += (k & 1) ? ea[0][c] : -ea[0][c];
            x += (k & 2) ? ea[1][c] : -ea[1][c];
            x += (k & 4) ? ea[2][c] : -ea[2][c];
            v[k][c] = x;
        }
    }
    for (int p = 0; p < 6; p++) {
        const float *pl = bf->plane[p];
        unsigned all = 1;
        for (int k = 0; k < 8; k++) {
            float s = pl[0] * v[k][0] + pl[1] * v[k][1] + pl[2] * v[k][2] + pl[3];
            unsigned out = s < 0.0f;
            dist[p][k] = s;
            code[k] |= out << p;
            all &= out;
        }
        if (all)
            return HOFF_REJECT;
    }
    for (int k = 0; k < 8; k++)
        if (!code[k])
            return HOFF_ACCEPT;

    for (int k = 0; k < 12; k++)
        if (segment_meets_box(b, bf->corner[fedge[k][0]], bf->corner[fedge[k][1]]))
            return HOFF_EDGE;

    float t[3] = {bf->inner[0] - b->center[0], bf->inner[1] - b->center[1], bf->inner[2] - b->center[2]};
    if (fabsf(dot3(t, b->axis[0])) <= b->extent[0] && fabsf(dot3(t, b->axis[1])) <= b->extent[1] &&
        fabsf(dot3(t, b->axis[2])) <= b->extent[2])
        return HOFF_CONTAINED;

    /* Completion: box edge (k, k | bit) clipped by every plane (Cyrus-Beck
     * on the signed distances already known). */
    for (int axis = 0; axis < 3; axis++) {
        int bit = 1 << axis;
        for (int k = 0; k < 8; k++) {
            if (k & bit)
                continue;
            int k1 = k | bit, hit = 1;
            float t0 = 0.0f, t1 = 1.0f;
            for (int p = 0; p < 6 && hit; p++) {
                float a = dist[p][k], c = dist[p][k1];
                if (a < 0.0f && c < 0.0f)
                    hit = 0;
                else if (a < 0.0f)
                    t0 = fmaxf(t0, a / (a - c));
                else if (c < 0.0f)
                    t1 = fminf(t1, a / (a - c));
                if (t0 > t1)
                    hit = 0;
            }
            if (hit)
                return HOFF_COMPLETION;
        }
    }
    return HOFF_REJECT;
}

#define HOFF_VISIBLE(bf, o) (bl_hoff_box(bf, o) != HOFF_REJECT)
BL_BATCH(bl_hoff_batch, HOFF_VISIBLE)

static int hoff_as_written(int c) { return c != HOFF_REJECT && c != HOFF_COMPLETION; }

/* As the article writes it: without the box-edge completion. */
#define HOFF_AS_WRITTEN(bf, o) hoff_as_written(bl_hoff_box(bf, o))
BL_BATCH(bl_hoff_as_written, HOFF_AS_WRITTEN)
