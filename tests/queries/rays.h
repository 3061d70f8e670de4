/* What test_rays' parts share: the volume records, the outputs of one
 * query and the runner that compares every path and mode. */
#ifndef SATC_TEST_RAYS_H
#define SATC_TEST_RAYS_H

#include <math.h>
#include <stdint.h>

#include "satc.h"

typedef long double ld;

#define N 256

typedef struct rec {
    float c[3], h[3];   /* AABB, OBB extents; sphere (h[0] = radius); min/max half */
    float lo[3], hi[3]; /* min/max */
    float ax[3][3];     /* OBB unit axes, or half-axis vectors */
    float m[16];        /* instance: 4x4 column-major */
    float lc[3], lh[3]; /* instance: its own local box */
} rec;

typedef struct outs {
    uint8_t mask[N / 8 + 1], cls[N];
    uint32_t idx[N];
    float t[N];
    size_t visible, nearest;
    satc_status st;
} outs;

typedef struct q {
    int ray;
    float p[3], r;          /* sphere */
    float d[3], tmax;       /* ray: origin p */
} q_t;

static inline ld n1(const ld v[3]) { return fabsl(v[0]) + fabsl(v[1]) + fabsl(v[2]); }

/* The paths that run here besides scalar. */
extern satc_isa paths[8];
extern int npaths;

/* A batch of the form over the records r. */
satc_batch batch_of(int form, const rec *r);
/* Both answers the same: status, count, bits, classes, indices (and t, nearest for rays). */
int same(const outs *a, const outs *b, size_t n, int ray);
/* Both modes on scalar into o, every path (with and without group bounds) checked against them. */
void run_all(const q_t *q, const satc_batch *b, size_t n, outs o[2], const char *what);
/* Volume i's bit of the mask. */
int bit(const outs *o, size_t i);

/* Hand-made cases, bad calls and a long batch (test_rays_cases.c). */
void adversarial(void);
void bad_calls(void);
void long_batch(void);

#endif
