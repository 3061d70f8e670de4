/*
 * Baseline (d): a real peer, cglm (Debian's libcglm-dev): the boxes' world
 * AABBs (min, max; the OBB's world AABB, done once before timing: a cglm
 * user stores AABBs, 24 bytes per box), cglm's plane extraction
 * glm_frustum_planes (RTR 22.14.1) from the view-projection matrix built
 * in double from the scene camera, and glm_aabb_frustum per box.
 * Built without cglm, every entry point reports it absent.
 *
 * cglm is header-only, so a user's build decides its instructions:
 * bl_cglm_batch is compiled once per instruction set (FB_ISA defined,
 * bench/meson.build: -O3 with -mavx2, or with the AVX-512 flags), as a
 * cglm user building for that CPU would; the rest once, without FB_ISA.
 */
#include <math.h>
#include <stdlib.h>

#include "baselines.h"

#if defined(SATC_BENCH_HAVE_CGLM)
#include <cglm/cglm.h>
#include <cglm/version.h>

struct bl_cglm {
    vec4 planes[6];
    float (*aabb)[2][3];
};

static inline size_t cglm_batch(const bl_cglm *c, size_t n, uint8_t *mask)
{
    size_t vis = 0;
    /* glm_aabb_frustum takes non-const arrays; it only reads them. */
    vec4 *planes = (vec4 *)c->planes;
    for (size_t i0 = 0; i0 < n; i0 += 8) {
        unsigned byte = 0;
        for (size_t j = 0; j < 8 && i0 + j < n; j++) {
            unsigned v = glm_aabb_frustum(c->aabb[i0 + j], planes) ? 1u : 0u;
            byte |= v << j;
            vis += v;
        }
        mask[i0 / 8] = (uint8_t)byte;
    }
    return vis;
}

#ifdef FB_ISA
size_t FB_NAME(bl_cglm_batch)(const bl_cglm *c, size_t n, uint8_t *mask) { return cglm_batch(c, n, mask); }

#else
/* With the project's flags (no -mavx*): cglm where satc runs its scalar
 * path (bench/scalar.c). */
size_t bl_cglm_batch_project(const bl_cglm *c, size_t n, uint8_t *mask) { return cglm_batch(c, n, mask); }

int bl_cglm_available(void) { return 1; }

const char *bl_cglm_version(void)
{
#define STR_(x) #x
#define STR(x) STR_(x)
    return STR(CGLM_VERSION_MAJOR) "." STR(CGLM_VERSION_MINOR) "." STR(CGLM_VERSION_PATCH);
}

/*
 * OpenGL conventions: view space x = right = -L, y = U, z = -D (a
 * right-handed frame looking down -z); glFrustum-style projection with
 * left = -l1, right = -l0, bottom = u0, top = u1 on the near plane.
 */
static void view_projection(const satc_camera *cam, double vp[4][4])
{
    double V[4][4] = {{0}}, P[4][4] = {{0}};
    double E[3] = {cam->origin[0], cam->origin[1], cam->origin[2]};
    for (int k = 0; k < 3; k++) {
        V[0][k] = -(double)cam->left[k];
        V[1][k] = cam->up[k];
        V[2][k] = -(double)cam->dir[k];
    }
    for (int r = 0; r < 3; r++)
        V[r][3] = -(V[r][0] * E[0] + V[r][1] * E[1] + V[r][2] * E[2]);
    V[3][3] = 1.0;
    double n = cam->n, f = cam->f;
    double l = -(double)cam->l1, rt = -(double)cam->l0, b = cam->u0, t = cam->u1;
    P[0][0] = 2.0 * n / (rt - l);
    P[0][2] = (rt + l) / (rt - l);
    P[1][1] = 2.0 * n / (t - b);
    P[1][2] = (t + b) / (t - b);
    P[2][2] = -(f + n) / (f - n);
    P[2][3] = -2.0 * f * n / (f - n);
    P[3][2] = -1.0;
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            double s = 0.0;
            for (int k = 0; k < 4; k++)
                s += P[r][k] * V[k][c];
            vp[r][c] = s;
        }
}

bl_cglm *bl_cglm_prepare(const satc_camera *cam, const satc_boxes *b, size_t n)
{
    if (cam->orthographic || !isfinite(cam->f))
        return NULL;
    bl_cglm *c = aligned_alloc(64, (sizeof *c + 63) / 64 * 64);
    if (!c)
        return NULL;
    c->aabb = malloc((n ? n : 1) * sizeof *c->aabb);
    if (!c->aabb) {
        free(c);
        return NULL;
    }
    double vp[4][4];
    view_projection(cam, vp);
    CGLM_ALIGN_MAT mat4 m;
    for (int col = 0; col < 4; col++)
        for (int row = 0; row < 4; row++)
            m[col][row] = (float)vp[row][col]; /* cglm is column-major */
    glm_frustum_planes(m, c->planes);
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) {
            float h = b->extent[0][i] * fabsf(b->axis[0][k][i]) + b->extent[1][i] * fabsf(b->axis[1][k][i]) +
                      b->extent[2][i] * fabsf(b->axis[2][k][i]);
            c->aabb[i][0][k] = b->center[k][i] - h;
            c->aabb[i][1][k] = b->center[k][i] + h;
        }
    }
    return c;
}

void bl_cglm_free(bl_cglm *c)
{
    if (!c)
        return;
    free(c->aabb);
    free(c);
}

const void *bl_cglm_aabb(const bl_cglm *c) { return c ? (const void *)c->aabb : NULL; }
#endif /* FB_ISA */

#else

struct bl_cglm {
    int unused;
};

#ifndef FB_ISA
int bl_cglm_available(void) { return 0; }
const char *bl_cglm_version(void) { return "absent"; }

bl_cglm *bl_cglm_prepare(const satc_camera *cam, const satc_boxes *b, size_t n)
{
    (void)cam, (void)b, (void)n;
    return NULL;
}
#endif

#ifdef FB_ISA
size_t FB_NAME(bl_cglm_batch)(const bl_cglm *c, size_t n, uint8_t *mask)
{
    (void)c, (void)n, (void)mask;
    return 0;
}
#else
size_t bl_cglm_batch_project(const bl_cglm *c, size_t n, uint8_t *mask)
{
    (void)c, (void)n, (void)mask;
    return 0;
}
void bl_cglm_free(bl_cglm *c) { (void)c; }
const void *bl_cglm_aabb(const bl_cglm *c) { (void)c; return NULL; }
#endif

#endif
