/* The raster test's scenes (boxes, triangles, the oracle's copy of each
 * occluder) and its runner: the reference's fill against the ray oracle,
 * every path against the reference's bits. Shared by test_raster.c and
 * raster_edges.c, one program. */
#ifndef SATC_RASTER_SCENE_H
#define SATC_RASTER_SCENE_H

#include <stddef.h>
#include <stdint.h>

#include "raster/raster.h"
#include "raster_oracle.h"

/* raster_check.h's counting and random numbers, one state for the program
 * (raster_scene.c holds it). */
extern int g_fail, g_pass;
extern uint64_t g_rng;
void check(int ok, const char *what);
double rnd(double lo, double hi);

#define MAXO 400
#define MAXT 1500
typedef struct scene {
    satc_frustum f;
    uint32_t w, h;
    /* boxes: half-axes records */
    struct boxrec {
        float c[3], a[3][3];
    } box[MAXO];
    size_t nbox;
    /* triangles: a vertex array and 32-bit indices */
    float vtx[3 * 3 * MAXT];
    uint32_t idx[3 * MAXT];
    size_t nvtx, ntri;
    ro_occ occ[MAXT];
    size_t nocc;
} scene;

extern scene S; /* large: one, static */
extern int g_quick; /* SATC_TEST_QUICK: fewer poses */

/* An empty scene seen from eye (yaw about y, then pitch), or an
 * orthographic one looking down +z; both exit on a bad camera. */
void persp(scene *s, const double eye[3], double yaw, double pitch, float fovy, float n,
           uint32_t w, uint32_t h);
void ortho(scene *s, float hw, float hh, float n, uint32_t w, uint32_t h);
/* A box of center c and half axes a[j] (floats, as stored). */
void add_box(scene *s, const double c[3], double a[3][3]);
/* A box of half sizes hx, hy, hz turned by yaw about y. */
void add_yaw_box(scene *s, const double c[3], double hx, double hy, double hz, double yaw);
uint32_t add_vertex(scene *s, const double p[3]);
void add_tri_idx(scene *s, uint32_t a, uint32_t b, uint32_t c);
void add_tri(scene *s, const double p[3], const double q[3], const double r[3]);
/* The 12 triangles of a box as a closed mesh, counter-clockwise outside. */
void add_box_mesh(scene *s, const double c[3], double a[3][3]);
satc_batch box_batch(const scene *s);
satc_mesh tri_mesh(const scene *s);

typedef struct outcome {
    size_t written, full, bad, holes;
} outcome;

/* run()'s asks: count the texels every ray of which hits (WANT_FULL) or
 * the holes (texels inside a screen-convex outline by more than a texel
 * left unwritten: WANT_HOLES); draw each triangle as a mesh of its own
 * (ONE_BY_ONE: no shared edge is seen). */
enum { WANT_FULL = 1, WANT_HOLES = 2, ONE_BY_ONE = 4 };

/* Level 0 starts at +Inf, except (mixed) a few texels far (1e30) or NaN. */
void init_level(float *l, size_t n, int mixed);
/* Draws the scene's boxes (boxes = 1) or triangles with the reference,
 * checks the oracle, and checks every path writes the same bits. */
outcome run(const char *name, scene *s, int boxes, const satc_raster_options *o, int want);
void report(const char *name, outcome r);

/* raster_edges.c: triangle pairs sharing an edge. */
void case_shared_edges(void);
void case_pairs(void);

#endif
