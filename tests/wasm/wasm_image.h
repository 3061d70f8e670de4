/* The wasm cross-check's case writer (tests/wasm/wasm_cases.c): an arena
 * whose bytes become a wasm32 memory image, the wasm32 layout of satc's
 * structs in it, and the case file. */
#ifndef WASM_IMAGE_H
#define WASM_IMAGE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "satc.h"
#include "scenes.h"

#define ARENA (8u << 20)
extern unsigned char *A; /* the arena; offset 0 stays unused (NULL) */
extern size_t used;      /* bytes of it in the image */
extern unsigned nrel;    /* pointer fields to relocate */
extern FILE *out;
extern unsigned long ncases;
extern unsigned char *pre;

void reset(void);
void back_to(size_t u, unsigned r); /* drops what was allocated after (used, nrel) */
void *alloc(size_t n);               /* 16-aligned, in the arena, exits when full */
uint32_t off(const void *p);
void put32(void *at, uint32_t v);
void putptr(void *at, const void *p); /* a wasm32 pointer field (relocated), NULL stays 0 */
void *w_batch(const satc_batch *b);   /* the wasm32 satc_batch (and its satc_groups) */
void *w_results(const satc_results *r);
void wr32(uint32_t v);
#define W_PYRAMID_BYTES 1524u
void w_pyramid_at(unsigned char *w, const satc_pyramid *p); /* the wasm32 satc_pyramid */
unsigned char *w_pyramid(const satc_pyramid *p);            /* the same, allocated */
void w_pyramid_test(unsigned char *w, const satc_pyramid *p); /* its test options only */
satc_results outputs(size_t count, int outs);                /* prefilled results */

/* A call's arguments: an integer, an image offset, a float's bits. */
typedef struct arg {
    uint32_t kind, v;
} arg;
static inline arg I(uint32_t v) { return (arg){0, v}; }
static inline arg Pt(const void *p) { return (arg){1, off(p)}; }
static inline arg Fl(float f)
{
    arg a = {2, 0};
    memcpy(&a.v, &f, 4);
    return a;
}
void snap(void); /* the image before the call */
void scratch_range(const void *p, size_t n); /* bytes of the next case left out of the comparison */
void emit(const char *name, const char *fn, int status, int nargs, const arg *args);

/* Inputs (wasm_forms.c): the scene's boxes, and batches built from them. */
extern scn_rng R;
extern const scn_scene *S;
double U01(void);
float *floats(size_t n);
void spoil(float *p, size_t n, double frac);
float bc(size_t i, int k);
float ba(size_t i, int j, int k);
float be(size_t i, int j);
extern const char *layout_name[];
satc_batch make_batch(int form, int layout, size_t n, double bad);
void add_groups(satc_batch *b, size_t n, int kind);

/* Occlusion (wasm_occl.c) and depth (wasm_depth.c) cases of a scene. */
void occl_cases(const satc_camera *cam, const satc_frustum *views, size_t n, int quick, int grid);
void occl_summary(void);
void depth_cases(const satc_frustum *views, size_t n, int sorts);

#endif
